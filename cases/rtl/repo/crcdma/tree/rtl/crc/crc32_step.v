// One byte of CRC-32 (IEEE 802.3, reflected): polynomial 0xEDB88320, bits taken LSB first.
module crc32_step (
    input  wire [31:0] crc_in,
    input  wire [7:0]  data,
    output reg  [31:0] crc_out
);
    integer i;

    always @* begin
        crc_out = crc_in;
        for (i = 0; i < 8; i = i + 1)
            crc_out = (crc_out[0] ^ data[i]) ? ((crc_out >> 1) ^ 32'hedb88320) : (crc_out >> 1);
    end
endmodule
