// Shared by the streamdsp testbenches. The including module sets localparams DW, SEED and CE_RANDOM,
// instantiates `dut` on the signals below, fills in_mem[0..n_in-1] with {last, data} input beats and
// exp_mem[0..n_exp-1] with the expected output beats, then calls run.
//
// Inputs are offered with random gaps, outputs taken with random backpressure (and, with CE_RANDOM,
// a random clock enable). The output protocol is checked: a beat offered and not taken must be
// offered again, unchanged, and valid may only drop while ce is low; while ce is low, in_ready and
// out_valid stay low.
    reg           clk = 1'b0, rst_n = 1'b0, ce = 1'b1, running = 1'b0;
    reg           in_valid = 1'b0, in_last = 1'b0, out_ready = 1'b0;
    reg  [DW-1:0] in_data = {DW{1'b0}};
    wire          in_ready, out_valid, out_last;
    wire [DW-1:0] out_data;
    reg  [DW:0]   in_mem [0:1023];
    reg  [DW:0]   exp_mem [0:1023];
    reg  [DW:0]   held_beat;
    reg           held = 1'b0;
    reg  [31:0]   lfsr = SEED;
    integer       n_in = 0, n_exp = 0, sent = 0, got = 0, errors = 0, proto_errors = 0, cycles = 0;

    always #5 clk = ~clk;

    always @(posedge clk) begin
        if (running) begin
            cycles = cycles + 1;
            if (!ce && (in_ready || out_valid)) begin
                proto_errors = proto_errors + 1;
                $display("protocol: in_ready=%b out_valid=%b while ce is low", in_ready, out_valid);
            end
            if (in_valid && in_ready)
                sent = sent + 1;
            if (out_valid && out_ready) begin
                $display("TRACE out %0d data=%h last=%b", got, out_data, out_last);
                if (got >= n_exp || {out_last, out_data} !== exp_mem[got]) begin
                    errors = errors + 1;
                    if (got < n_exp)
                        $display("mismatch: beat %0d = %h/%b, expected %h/%b", got, out_data, out_last,
                                 exp_mem[got][DW-1:0], exp_mem[got][DW]);
                end
                got = got + 1;
                held = 1'b0;
            end else if (out_valid) begin
                if (held && {out_last, out_data} !== held_beat) begin
                    proto_errors = proto_errors + 1;
                    $display("protocol: beat %0d changed while waiting for ready", got);
                end
                held = 1'b1;
                held_beat = {out_last, out_data};
            end else if (held && ce) begin
                proto_errors = proto_errors + 1;
                $display("protocol: valid dropped before beat %0d was taken", got);
                held = 1'b0;
            end
            lfsr = {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
            if (!in_valid || in_ready) begin
                if (sent < n_in && lfsr[1:0] != 2'b00) begin
                    in_valid <= 1'b1;
                    {in_last, in_data} <= in_mem[sent];
                end else begin
                    in_valid <= 1'b0;
                end
            end
            out_ready <= lfsr[5:4] != 2'b00;
            if (CE_RANDOM)
                ce <= lfsr[9:8] != 2'b00;
        end
    end

    task run;
        begin
            repeat (3) @(posedge clk);
            @(negedge clk) rst_n = 1'b1;
            @(negedge clk) running = 1'b1;
            while (got < n_exp && cycles < 20 * n_in + 200)
                @(posedge clk);
            repeat (30) @(posedge clk);
            if (got != n_exp) begin
                errors = errors + 1;
                $display("mismatch: %0d output beats, expected %0d", got, n_exp);
            end
            if (errors == 0 && proto_errors == 0)
                $display("TEST PASSED");
            else
                $display("TEST FAILED: %0d mismatches, %0d protocol errors", errors, proto_errors);
            $finish;
        end
    endtask
