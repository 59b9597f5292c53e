`timescale 1ns/1ps
module tb_counter;
    reg clk = 0, rst_n = 0, en = 0;
    wire [3:0] q;
    reg  [3:0] model = 0;
    integer i, errors = 0;

    counter #(.W(4)) dut (.clk(clk), .rst_n(rst_n), .en(en), .q(q));

    always #5 clk = ~clk;

    initial begin
        repeat (2) @(posedge clk);
        rst_n = 1;
        for (i = 0; i < 40; i = i + 1) begin
            @(negedge clk);
            en = (i % 3) != 2;
            @(posedge clk);
            if (en) model = model + 1;
            #1;
            $display("TRACE %0d q=%0d", i, q);
            if (q !== model) errors = errors + 1;
        end
        if (errors == 0) $display("TEST PASSED");
        else $display("TEST FAILED: %0d mismatches", errors);
        $finish;
    end
endmodule
