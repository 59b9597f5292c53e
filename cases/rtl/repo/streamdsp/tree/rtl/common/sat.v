// Signed saturation from IW to OW bits (IW > OW).
module sat #(parameter IW = 12, parameter OW = 8) (
    input  wire [IW-1:0] in,
    output wire [OW-1:0] out
);
    // The value fits when bits IW-1 .. OW-1 are all equal.
    wire over  = !in[IW-1] && (in[IW-2:OW-1] != {(IW - OW){1'b0}});
    wire under =  in[IW-1] && (in[IW-2:OW-1] != {(IW - OW){1'b1}});

    assign out = over  ? {1'b0, {(OW - 1){1'b1}}} :
                 under ? {1'b1, {(OW - 1){1'b0}}} : in[OW-1:0];
endmodule
