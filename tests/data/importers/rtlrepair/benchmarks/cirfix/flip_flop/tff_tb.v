`timescale 1ns / 1ns
module tff_tb;
    reg clk, rstn, t;
    wire q;
    integer f;
    tff dut (.clk(clk), .rstn(rstn), .t(t), .q(q));
    initial begin
        f = $fopen("output_tff_tb.txt");
        $fwrite(f, "time,q\n");
        clk = 0; rstn = 0; t = 0;
        #12 rstn = 1;
        #10 t = 1;
        #40 t = 0;
        #20 t = 1;
        #30 $fclose(f);
        $finish;
    end
    always #5 clk = ~clk;
    always @(negedge clk) $fwrite(f, "%g,%b\n", $time, q);
endmodule
