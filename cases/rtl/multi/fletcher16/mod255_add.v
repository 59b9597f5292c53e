// Addition modulo 255 of two values in 0..254 (b may also be 255, which counts as 0),
// using the one's-complement end-around carry.
module mod255_add (
    input  wire [7:0] a,
    input  wire [7:0] b,
    output wire [7:0] s
);
    wire [8:0] raw  = {1'b0, a} + {1'b0, b};
    wire [8:0] fold = {1'b0, raw[7:0]} + {8'd0, raw[8]};

    assign s = (fold[7:0] == 8'hFF) ? 8'h00 : fold[7:0];
endmodule
