// Hexadecimal to seven-segment decoder with blanking and selectable polarity.
// Segment order: seg[0] = a (top) ... seg[6] = g (middle).
module seg7_dec (
    input  wire [3:0] hex,
    input  wire       blank,
    input  wire       active_low,
    output wire [6:0] seg
);
    reg [6:0] lit;

    always @* begin
        case (hex)
            4'h0: lit = 7'b0111111;
            4'h1: lit = 7'b0000110;
            4'h2: lit = 7'b1011011;
            4'h3: lit = 7'b1001111;
            4'h4: lit = 7'b1100110;
            4'h5: lit = 7'b1101101;
            4'h6: lit = 7'b1111101;
            4'h7: lit = 7'b0000111;
            4'h8: lit = 7'b1111111;
            4'h9: lit = 7'b1101111;
            4'hA: lit = 7'b1110111;
            4'hB: lit = 7'b1111100;
            4'hC: lit = 7'b0111001;
            4'hD: lit = 7'b1011110;
            4'hE: lit = 7'b1111001;
            4'hF: lit = 7'b1110001;
            default: lit = 7'b0000000;
        endcase
    end

    reg [6:0] shown;
    reg [6:0] drive;

    always @* begin
        shown = blank ? 7'b0000000 : lit;
        drive = active_low ? ~shown : shown;
    end

    assign seg = drive;
endmodule
