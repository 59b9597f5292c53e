// Reuse with a slow writeback channel: requests stay in two sets (eight lines each compete for four
// ways), so lines are evicted dirty and come back; the memory's write channel stalls for 8 to 23
// cycles at a time, so misses wait for the writeback buffer; and one request in four asks for the
// line the writeback buffer is still sending, so the refill must wait for it.
integer stall;
if (cycle == 0)
  stall = 0;
next_random;
if (stall > 0) begin
  in_mem_w_ready = 1'b0;
  stall = stall - 1;
end else if (rng[3:0] == 4'd0) begin
  stall = 8 + rng[7:4];
end
next_random;
in_req_addr[4:3] = rng[0] ? 2'b01 : 2'b10;
if (gold_mem_w_valid && rng[2:1] == 2'b00)
  in_req_addr[7:3] = gold_mem_w_addr;
// maintenance commands one request in sixteen (random: one in four)
if (in_req_op == 2'd3 && rng[5:4] != 2'b00)
  in_req_op = {1'b0, rng[6]};
