// A slow memory and a hesitant CPU: the read channel answers one beat in four, the address channel
// and the writeback channel accept one cycle in three, the CPU takes one response in four while
// keeping a request pending nine cycles in ten.
next_random;
in_req_valid    = (rng[3:0] != 4'd0) && (rng[3:0] != 4'd1) ? 1'b1 : rng[4];
in_resp_ready   = (rng[6:5] == 2'b00);
in_mem_r_valid  = (rng[8:7] == 2'b00);
in_mem_ar_ready = (rng[10:9] != 2'b11) && rng[11];
in_mem_w_ready  = (rng[13:12] != 2'b11) && rng[14];
