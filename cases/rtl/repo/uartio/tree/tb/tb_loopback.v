`timescale 1ns/1ps
// Four bytes through the transmitter and back through the receiver in loopback, with the rx interrupt.
module tb_loopback;
`include "uart_tb.vh"
    reg [15:0] st;
    integer    i, n;
    initial begin
        reset_dut;
        bus_write(4'h3, 16'd8);
        bus_write(4'h4, 16'h0001);
        bus_write(4'h2, 16'h0007);
        bus_write(4'h0, 16'h00a5);
        bus_write(4'h0, 16'h0042);
        bus_write(4'h0, 16'h00ff);
        bus_write(4'h0, 16'h0000);
        n = 0;
        st = 16'h0000;
        while (st[3] !== 1'b1 && n < 200) begin
            repeat (10) @(posedge clk);
            bus_read(4'h1, st);
            n = n + 1;
        end
        repeat (20) @(posedge clk);
        $display("TRACE irq=%b", irq);
        if (irq !== 1'b1) errors = errors + 1;
        expect_read(4'h1, 16'h000d);
        expect_read(4'h0, 16'h00a5);
        expect_read(4'h0, 16'h0042);
        expect_read(4'h0, 16'h00ff);
        expect_read(4'h0, 16'h0000);
        expect_read(4'h1, 16'h000c);
        $display("TRACE irq=%b", irq);
        if (irq !== 1'b0) errors = errors + 1;
        finish;
    end
endmodule
