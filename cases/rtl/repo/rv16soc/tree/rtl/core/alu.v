// Arithmetic and logic unit of the rv16 core.
module alu (
    input  wire [2:0]  op,
    input  wire [15:0] a,
    input  wire [15:0] b,
    output reg  [15:0] y
);
    always @* begin
        case (op)
            3'd0: y = a + b;
            3'd1: y = a - b;
            3'd2: y = a & b;
            3'd3: y = a | b;
            3'd4: y = a ^ b;
            3'd5: y = a << b[3:0];
            3'd6: y = a >> b[3:0];
            default: y = {15'd0, $signed(a) < $signed(b)};
        endcase
    end
endmodule
