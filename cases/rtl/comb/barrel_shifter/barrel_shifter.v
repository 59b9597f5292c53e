// 16-bit barrel shifter: logical/arithmetic shifts and rotates in both directions.
// Left operations reverse the word, use the right-shifting network, and reverse back.
module barrel_shifter (
    input  wire [15:0] din,
    input  wire [3:0]  shamt,
    input  wire        left,
    input  wire        rotate,
    input  wire        arith,
    output wire [15:0] dout
);
    function [15:0] reverse16(input [15:0] v);
        integer k;
        begin
            for (k = 0; k < 16; k = k + 1)
                reverse16[k] = v[15 - k];
        end
    endfunction

    wire [15:0] s0   = left ? reverse16(din) : din;
    wire        fill = arith & ~left & din[15];
    wire [15:0] s1   = shamt[0] ? {rotate ? s0[0]   : fill,      s0[15:1]} : s0;
    wire [15:0] s2   = shamt[1] ? {rotate ? s1[1:0] : {2{fill}}, s1[15:2]} : s1;
    wire [15:0] s3   = shamt[2] ? {rotate ? s2[3:0] : {4{fill}}, s2[15:4]} : s2;
    wire [15:0] s4   = shamt[3] ? {rotate ? s3[7:0] : {8{fill}}, s3[15:8]} : s3;

    assign dout = left ? reverse16(s4) : s4;
endmodule
