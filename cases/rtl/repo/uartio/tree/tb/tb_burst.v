`timescale 1ns/1ps
// Sixteen bytes fill the TX FIFO while the transmitter is off, a seventeenth is refused; then all
// sixteen go out in loopback and come back in order.
module tb_burst;
`include "uart_tb.vh"
    reg [15:0] st;
    integer    i, n;
    initial begin
        reset_dut;
        bus_write(4'h3, 16'd8);
        bus_write(4'h2, 16'h0006);
        for (i = 0; i < 16; i = i + 1) begin
            expect_read(4'h1, (i == 0) ? 16'h000c : 16'h0000);
            bus_write(4'h0, 16'h0030 + i);
        end
        expect_read(4'h1, 16'h0002);
        bus_write(4'h0, 16'h00ee);
        bus_write(4'h2, 16'h0007);
        n = 0;
        st = 16'h0000;
        while (st[3] !== 1'b1 && n < 400) begin
            repeat (10) @(posedge clk);
            bus_read(4'h1, st);
            n = n + 1;
        end
        repeat (20) @(posedge clk);
        for (i = 0; i < 16; i = i + 1)
            expect_read(4'h0, 16'h0030 + i);
        expect_read(4'h1, 16'h000c);
        finish;
    end
endmodule
