`timescale 1ns/1ps
// Register reset values, write/read-back, the bus handshake.
module tb_regs;
`include "uart_tb.vh"
    initial begin
        reset_dut;
        expect_read(4'h1, 16'h000c);
        expect_read(4'h2, 16'h0000);
        expect_read(4'h3, 16'h0010);
        expect_read(4'h4, 16'h0000);
        bus_write(4'h3, 16'h0123);
        bus_write(4'h2, 16'h0006);
        bus_write(4'h4, 16'h0003);
        expect_read(4'h3, 16'h0123);
        expect_read(4'h2, 16'h0006);
        expect_read(4'h4, 16'h0003);
        expect_read(4'h5, 16'h0002);
        expect_read(4'h0, 16'h0000);
        expect_read(4'h7, 16'h0000);
        if (irq !== 1'b1) begin
            errors = errors + 1;
            $display("mismatch: irq = %b with tx_empty enabled", irq);
        end
        finish;
    end
endmodule
