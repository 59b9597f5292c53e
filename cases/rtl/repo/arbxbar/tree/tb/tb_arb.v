`timescale 1ns/1ps
// The arbiter on its own against a model: round robin from the pointer, the pointer moving past each
// grant, locks held while the owner keeps requesting with lock.
module tb_arb;
    reg        clk = 1'b0, rst_n = 1'b0;
    reg  [2:0] req = 3'b000, lock = 3'b000;
    wire [2:0] grant;
    wire [1:0] grant_idx;
    wire       any;
    reg  [2:0] want;
    reg  [1:0] ptr = 2'd0, owner = 2'd0, pick;
    reg        locked = 1'b0;
    reg  [31:0] lfsr = 32'h00a1_b2c3;
    integer    i, k, j, errors = 0;

    rr_arb #(.N(3), .IW(2)) dut (
        .clk(clk), .rst_n(rst_n), .req(req), .lock(lock), .grant(grant), .grant_idx(grant_idx), .any(any)
    );

    always #5 clk = ~clk;

    initial begin
        repeat (2) @(posedge clk);
        @(negedge clk) rst_n = 1'b1;
        for (i = 0; i < 300; i = i + 1) begin
            @(negedge clk);
            lfsr = {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
            req = lfsr[2:0] | (i < 60 ? 3'b111 : 3'b000);
            lock = (lfsr[5:3] == 3'b000) ? 3'b111 : 3'b000;
            #1;
            want = 3'b000;
            pick = 2'd0;
            if (locked && req[owner]) begin
                want[owner] = 1'b1;
                pick = owner;
            end else begin
                for (k = 2; k >= 0; k = k - 1) begin
                    j = (ptr + k) % 3;
                    if (req[j]) begin
                        want = 3'b001 << j;
                        pick = j;
                    end
                end
            end
            $display("TRACE %0d req=%b lock=%b grant=%b idx=%0d", i, req, lock, grant, grant_idx);
            if (grant !== want || (|want && grant_idx !== pick) || any !== |req) begin
                errors = errors + 1;
                $display("mismatch: step %0d grant=%b idx=%0d, expected %b %0d", i, grant, grant_idx, want, pick);
            end
            @(posedge clk);
            if (|req) begin
                ptr = (pick == 2) ? 2'd0 : pick + 1'b1;
                owner = pick;
                locked = |(want & lock);
            end else begin
                locked = 1'b0;
            end
        end
        if (errors == 0) $display("TEST PASSED");
        else $display("TEST FAILED: %0d mismatches", errors);
        $finish;
    end
endmodule
