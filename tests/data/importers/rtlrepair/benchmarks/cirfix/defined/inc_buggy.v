`define STEP 4'd2
module inc (input [3:0] a, output [3:0] y);
    assign y = a + `STEP;
endmodule
