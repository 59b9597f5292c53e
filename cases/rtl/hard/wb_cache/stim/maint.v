// Maintenance-heavy traffic over few lines (five per set, one more than the ways): about one request
// in three is a command, mostly line clean, flush and invalidate on lines in use, with whole-cache
// clean and flush walks and fences; the other requests are stores and swaps that make lines dirty,
// and loads.
next_random;
in_req_addr[7:5] = (rng[2:0] > 3'd4) ? {1'b0, rng[1:0]} : rng[2:0];   // five lines per set
if (rng[5:3] < 3'd3) begin
  in_req_op = 2'd3;
  next_random;
  case (rng[3:0])
    4'd0, 4'd1, 4'd2, 4'd3: in_req_wdata[3:0] = 4'd0;
    4'd4, 4'd5, 4'd6:       in_req_wdata[3:0] = 4'd1;
    4'd7, 4'd8, 4'd9:       in_req_wdata[3:0] = 4'd2;
    4'd10:                  in_req_wdata[3:0] = 4'd3;
    4'd11:                  in_req_wdata[3:0] = 4'd4;
    default:                in_req_wdata[3:0] = {1'b1, rng[6:4]};
  endcase
end else if (in_req_op == 2'd3) begin
  in_req_op = rng[6] ? 2'd1 : 2'd2;
end
