// A fast memory and a CPU that never waits: every handshake input is held ready, requests come
// back to back over the whole address space (commands one request in sixteen), so every path runs
// at full rate: a line pushed in the cycle the previous writeback ends, the response taken in the
// cycle the next request is accepted.
next_random;
in_req_valid   = 1'b1;
in_resp_ready  = 1'b1;
in_mem_ar_ready = 1'b1;
in_mem_r_valid = 1'b1;
in_mem_w_ready = rng[0] | rng[1];
if (in_req_op == 2'd3 && rng[3:2] != 2'b00)
  in_req_op = {1'b0, rng[4]};
