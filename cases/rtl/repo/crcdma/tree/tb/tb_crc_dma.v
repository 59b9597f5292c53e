`timescale 1ns/1ps
// A copy with the CRC on: "123456789" gives the standard cbf43926, twice in a row.
module tb_crc_dma;
`include "dma_tb.vh"
    integer i, n;
    initial begin
        reset_dut;
        for (i = 0; i < 9; i = i + 1)
            cpu_write(12'h2f8 + i, "1" + i);
        dma_run(16'h02f8, 16'h0340, 16'd9, 1'b1, n);
        expect_read(12'h805, 16'h3926);
        expect_read(12'h806, 16'hcbf4);
        dma_run(16'h0340, 16'h0080, 16'd9, 1'b1, n);
        expect_read(12'h805, 16'h3926);
        expect_read(12'h806, 16'hcbf4);
        expect_read(12'h088, 16'h0039);
        dma_run(16'h0080, 16'h0090, 16'd1, 1'b1, n);
        expect_read(12'h805, 16'hefb7);
        expect_read(12'h806, 16'h83dc);
        finish;
    end
endmodule
