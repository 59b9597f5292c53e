`timescale 1ns/1ps
// A divisor above 255: two bytes out on txd and one in on rxd at 300 cycles per bit.
module tb_slow;
`include "uart_tb.vh"
    reg [7:0]  b;
    reg        ok;
    integer    t0, t1;
    initial begin
        reset_dut;
        bus_write(4'h3, 16'd300);
        bus_write(4'h2, 16'h0003);
        bus_write(4'h0, 16'h005b);
        bus_write(4'h0, 16'h0081);
        // 0x5b goes out as start, 1 1 0 1 1 0 1 0, stop: time the single low bit 2
        while (txd === 1'b1) @(posedge clk);
        while (txd === 1'b0) @(posedge clk);
        while (txd === 1'b1) @(posedge clk);
        t0 = $time;
        while (txd === 1'b0) @(posedge clk);
        t1 = $time;
        $display("TRACE bit 2 lasts %0d cycles", (t1 - t0) / 10);
        if ((t1 - t0) / 10 != 300) errors = errors + 1;
        repeat (6 * 300 - 100) @(posedge clk);
        get_frame(300, 2000, b, ok);
        $display("TRACE tx %h ok=%b", b, ok);
        if (b !== 8'h81 || !ok) errors = errors + 1;
        put_frame(300, 8'hc3, 1'b1);
        repeat (50) @(posedge clk);
        expect_read(4'h0, 16'h00c3);
        finish;
    end
endmodule
