// CRC-32 accumulator: `init` starts a new checksum, `en` folds in one byte; `result` is the CRC of the
// bytes so far (register inverted, as the standard defines it).
module crc_unit (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        init,
    input  wire        en,
    input  wire [7:0]  data,
    output wire [31:0] result
);
    reg  [31:0] crc;
    wire [31:0] next;

    crc32_step u_step (.crc_in(crc), .data(data), .crc_out(next));

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            crc <= 32'hffffffff;
        else if (init)
            crc <= 32'hffffffff;
        else if (en)
            crc <= next;
    end

    assign result = ~crc;
endmodule
