`timescale 1ns/1ps
// Lengths at the edges: 1, 0 (done at once, nothing written) and 1024 (the whole memory onto itself).
module tb_len;
`include "dma_tb.vh"
    integer i, n;
    initial begin
        reset_dut;
        for (i = 0; i < 6; i = i + 1)
            cpu_write(12'h100 + i, 16'h0050 + i);
        dma_run(16'h0100, 16'h0103, 16'd1, 1'b0, n);
        expect_read(12'h103, 16'h0050);
        expect_read(12'h104, 16'h0054);
        dma_run(16'h0100, 16'h0104, 16'd0, 1'b0, n);
        expect_read(12'h104, 16'h0054);
        if (n > 2) begin
            errors = errors + 1;
            $display("mismatch: LEN 0 took %0d polls", n);
        end
        dma_run(16'h0000, 16'h0000, 16'd1024, 1'b1, n);
        if (n < 1000) begin
            errors = errors + 1;
            $display("mismatch: LEN 1024 took only %0d polls", n);
        end
        expect_read(12'h105, 16'h0055);
        finish;
    end
endmodule
