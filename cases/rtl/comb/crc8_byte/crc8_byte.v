// One byte of a CRC-8 update (polynomial x^8 + x^2 + x + 1, MSB first), combinational.
module crc8_byte (
    input  wire [7:0] crc_in,
    input  wire [7:0] data,
    input  wire       final_xor,
    output wire [7:0] crc_out
);
    localparam [7:0] POLY = 8'h07;

    reg [7:0] c;
    integer i;

    always @* begin
        c = crc_in ^ data;
        for (i = 0; i < 8; i = i + 1)
            c = c[7] ? ({c[6:0], 1'b0} ^ POLY) : {c[6:0], 1'b0};
    end

    assign crc_out = final_xor ? (c ^ 8'h55) : c;
endmodule
