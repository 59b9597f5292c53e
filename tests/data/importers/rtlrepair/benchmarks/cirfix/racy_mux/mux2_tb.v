`timescale 1ns / 1ns
module mux2_tb;
    reg [3:0] a, b;
    reg sel;
    wire [3:0] y;
    integer f, i;
    mux2 dut (.a(a), .b(b), .sel(sel), .y(y));
    initial begin
        f = $fopen("output_mux2_tb.txt");
        $fwrite(f, "time,y\n");
        for (i = 0; i < 8; i = i + 1) begin
            a = i; b = 15 - i; sel = i[0];
            #5 $fwrite(f, "%g,%d\n", $time, y);
        end
        $fclose(f);
        $finish;
    end
endmodule
