`timescale 1ns/1ps
module tb_top;
    reg clk = 0, rst_n = 0, en = 0;
    wire [3:0] count;
    wire wrap;
    integer i, wraps = 0;

    top dut (.clk(clk), .rst_n(rst_n), .en(en), .count(count), .wrap(wrap));

    always #5 clk = ~clk;

    initial begin
        repeat (2) @(posedge clk);
        rst_n = 1;
        en = 1;
        for (i = 0; i < 50; i = i + 1) begin
            @(negedge clk);
            if (wrap) wraps = wraps + 1;
            $display("TRACE %0d count=%0d wrap=%0d", i, count, wrap);
        end
        if (wraps == 3) $display("TEST PASSED");
        else $display("TEST FAILED: %0d wraps in 50 cycles, expected 3", wraps);
        $finish;
    end
endmodule
