`timescale 1ns/1ps
// A soft reset in the middle of a frame, on both directions: the frame is abandoned, the FIFOs are
// emptied, and the next frame goes through alone.
module tb_srst;
`include "uart_tb.vh"
    reg [7:0]  b;
    reg        ok;
    integer    i, high;
    initial begin
        reset_dut;
        bus_write(4'h3, 16'd16);
        bus_write(4'h2, 16'h0003);
        bus_write(4'h0, 16'h00a5);
        bus_write(4'h0, 16'h005a);
        fork
            put_frame(16, 8'hf0, 1'b1);
            begin
                repeat (16 * 5 + 4) @(posedge clk);
                bus_write(4'h2, 16'h000b);
            end
        join
        high = 0;
        for (i = 0; i < 16 * 12; i = i + 1) begin
            @(posedge clk);
            if (txd === 1'b1) high = high + 1;
        end
        $display("TRACE idle cycles after srst %0d", high);
        if (high != 16 * 12) errors = errors + 1;
        expect_read(4'h1, 16'h000c);
        bus_write(4'h0, 16'h003c);
        fork
            begin
                get_frame(16, 500, b, ok);
                $display("TRACE tx %h ok=%b", b, ok);
                if (b !== 8'h3c || !ok) errors = errors + 1;
            end
            put_frame(16, 8'h7e, 1'b1);
        join
        repeat (40) @(posedge clk);
        expect_read(4'h0, 16'h007e);
        expect_read(4'h1, 16'h000c);
        finish;
    end
endmodule
