`timescale 1ns/1ps
// A 40-byte copy into the upper part of memory; the bytes around the destination stay untouched.
module tb_copy;
`include "dma_tb.vh"
    integer i, n;
    initial begin
        reset_dut;
        for (i = 0; i < 44; i = i + 1)
            cpu_write(12'h010 + i, (i * 37 + 11) & 8'hff);
        for (i = 0; i < 44; i = i + 1)
            cpu_write(12'h1f0 + i, 16'h00ee);
        dma_run(16'h0012, 16'h01f2, 16'd40, 1'b0, n);
        expect_read(12'h1f1, 16'h00ee);
        for (i = 0; i < 40; i = i + 1)
            expect_read(12'h1f2 + i, ((i + 2) * 37 + 11) & 8'hff);
        expect_read(12'h21a, 16'h00ee);
        expect_read(12'h01a, ((10) * 37 + 11) & 8'hff);
        finish;
    end
endmodule
