`timescale 1ns/1ps
// Register reset values and read-back, addresses and lengths at their full width.
module tb_regs;
`include "dma_tb.vh"
    initial begin
        reset_dut;
        expect_read(12'h804, 16'h0000);
        expect_read(12'h805, 16'h0000);
        expect_read(12'h806, 16'h0000);
        expect_read(12'h800, 16'h0000);
        cpu_write(12'h800, 16'h03ff);
        cpu_write(12'h801, 16'h0155);
        cpu_write(12'h802, 16'd1024);
        cpu_write(12'h803, 16'h0002);
        expect_read(12'h800, 16'h03ff);
        expect_read(12'h801, 16'h0155);
        expect_read(12'h802, 16'd1024);
        expect_read(12'h803, 16'h0002);
        expect_read(12'h80f, 16'h0000);
        cpu_write(12'h3ff, 16'h00a7);
        cpu_write(12'h000, 16'h0013);
        expect_read(12'h3ff, 16'h00a7);
        expect_read(12'h000, 16'h0013);
        finish;
    end
endmodule
