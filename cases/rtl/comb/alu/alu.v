// 8-bit ALU with carry/borrow, zero and negative flags.
module alu (
    input  wire [3:0] op,
    input  wire [7:0] a,
    input  wire [7:0] b,
    output reg  [7:0] y,
    output reg        carry,
    output wire       zero,
    output wire       neg
);
    reg [8:0] wide;

    always @* begin
        wide  = 9'd0;
        y     = 8'd0;
        carry = 1'b0;
        case (op)
            4'd0: begin
                wide  = {1'b0, a} + {1'b0, b};
                y     = wide[7:0];
                carry = wide[8];
            end
            4'd1: begin
                wide  = {1'b0, a} - {1'b0, b};
                y     = wide[7:0];
                carry = wide[8];
            end
            4'd2: y = a & b;
            4'd3: y = a | b;
            4'd4: y = a ^ b;
            4'd5: y = ~a;
            4'd6: begin
                y     = {a[6:0], 1'b0};
                carry = a[7];
            end
            4'd7: begin
                y     = {1'b0, a[7:1]};
                carry = a[0];
            end
            4'd8: begin
                y     = {a[7], a[7:1]};
                carry = a[0];
            end
            4'd9:  y = ($signed(a) < $signed(b)) ? 8'd1 : 8'd0;
            4'd10: y = (a < b) ? 8'd1 : 8'd0;
            4'd11: y = {a[3:0], a[7:4]};
            default: y = 8'd0;
        endcase
    end

    assign zero = (y == 8'd0);
    assign neg  = y[7];
endmodule
