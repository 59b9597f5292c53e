`timescale 1ns/1ps
module tb_pulse;
    reg clk = 0, rst_n = 0, d = 0;
    wire rise;
    integer i, rises = 0;

    pulse dut (.clk(clk), .rst_n(rst_n), .d(d), .rise(rise));

    always #5 clk = ~clk;

    initial begin
        repeat (2) @(posedge clk);
        rst_n = 1;
        for (i = 0; i < 30; i = i + 1) begin
            @(negedge clk);
            d = (i % 5) < 2;
            #1;
            if (rise) rises = rises + 1;
            $display("TRACE %0d d=%0d rise=%0d", i, d, rise);
        end
        if (rises == 6) $display("TEST PASSED");
        else $display("TEST FAILED: %0d rising edges, expected 6", rises);
        $finish;
    end
endmodule
