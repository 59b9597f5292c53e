// Legal traffic: each network input is fed by an upstream router that keeps four credits per
// channel (returned by in_credit), sends well-formed packets of one to five flits, one packet at a
// time per channel, with destinations a dimension-order route may bring from that side (the router
// is at (2, 1)); the local node injects packets only into a channel whose inj_ready is 1; each
// downstream router returns a credit for every flit it received, after a random delay.
// Even-numbered directed runs add a hot spot: half of the packets go to this router's own node
// (reachable from every side), and packets are up to seven flits long.
reg [31:0] up_cred;    // per network input channel k = 2(p-1)+v: credits left (0..4)
reg [29:0] left;       // per input channel k = 2p+v, p = 0 local: flits left in the open packet
reg [31:0] dn_pend;    // per network output channel: flits received downstream, credit not yet back
reg [15:0] f;
reg [2:0]  n;
reg [1:0]  dx;
reg [1:0]  dy;
reg        yx;
reg        v;
reg        hot;
integer    s;
integer    k;
hot = (seed % 2 == 0);
if (in_rst_n == 1'b0) begin
  up_cred = {8{4'd4}};
  left    = 30'd0;
  dn_pend = 32'd0;
end else begin
  for (k = 0; k < 8; k = k + 1)
    if (gold_in_credit[k])
      up_cred[4 * k +: 4] = up_cred[4 * k +: 4] + 4'd1;
  for (s = 0; s < 4; s = s + 1)
    if (gold_out_valid[s]) begin
      k = 2 * s + gold_out_flit[16 * s + 13];
      dn_pend[4 * k +: 4] = dn_pend[4 * k +: 4] + 4'd1;
    end
end
for (k = 0; k < 8; k = k + 1) begin
  next_random;
  in_out_credit[k] = (dn_pend[4 * k +: 4] != 4'd0) && rng[0];
  if (in_out_credit[k])
    dn_pend[4 * k +: 4] = dn_pend[4 * k +: 4] - 4'd1;
end
in_in_valid  = 4'd0;
in_inj_valid = 1'b0;
for (s = 0; s < 5 && in_rst_n; s = s + 1) begin
  next_random;
  v = rng[0];
  if (s == 0) begin
    if (!gold_inj_ready[v])
      v = !v;
  end else if (up_cred[4 * (2 * (s - 1) + v) +: 4] == 4'd0) begin
    v = !v;
  end
  if (rng[3:1] != 3'd0 && (s == 0 ? gold_inj_ready[v] : up_cred[4 * (2 * (s - 1) + v) +: 4] != 4'd0)) begin
    n = left[3 * (2 * s + v) +: 3];
    if (n == 3'd0) begin
      // a new packet: its length and destination
      dx = rng[9:8];
      dy = rng[11:10];
      yx = rng[12];
      case (s)
        1: begin if (!yx) dx = 2'd2; if (dy > 2'd1) dy = dy - 2'd2; end
        2: begin if (dx > 2'd2) dx = rng[13] ? 2'd2 : 2'd1; if (yx) dy = 2'd1; end
        3: begin if (!yx) dx = 2'd2; if (dy < 2'd1) dy = rng[13] ? 2'd1 : 2'd2; end
        4: begin if (dx < 2'd2) dx = rng[13] ? 2'd2 : 2'd3; if (yx) dy = 2'd1; end
        default: ;
      endcase
      if (hot && rng[14]) begin
        // hot spot: the local node of this router, reachable from every side
        dx = 2'd2;
        dy = 2'd1;
      end
      n = {1'b0, rng[5:4]} + {2'b00, rng[6]} + (hot ? {1'b0, rng[7], 1'b0} : 3'd0);
      f = {(n == 3'd0) ? 2'b11 : 2'b01, v, dx, dy, yx, rng[23:16]};
      left[3 * (2 * s + v) +: 3] = n;
    end else begin
      f = {(n == 3'd1) ? 2'b10 : 2'b00, v, rng[28:16]};
      left[3 * (2 * s + v) +: 3] = n - 3'd1;
    end
    if (s == 0) begin
      in_inj_valid = 1'b1;
      in_inj_flit  = f;
    end else begin
      in_in_valid[s - 1] = 1'b1;
      in_in_flit[16 * (s - 1) +: 16] = f;
      up_cred[4 * (2 * (s - 1) + v) +: 4] = up_cred[4 * (2 * (s - 1) + v) +: 4] - 4'd1;
    end
  end
end
