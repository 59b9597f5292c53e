// 16-bit Galois LFSR (x^16 + x^14 + x^13 + x^11 + 1), with seeding and enable.
module lfsr16 (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        en,
    input  wire        load,
    input  wire [15:0] seed,
    output reg  [15:0] state,
    output wire        bit_out
);
    localparam [15:0] TAPS  = 16'hB400;
    localparam [15:0] START = 16'hACE1;

    wire fb = state[0];

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            state <= START;
        else if (load)
            state <= (seed == 16'h0000) ? START : seed;
        else if (en)
            state <= fb ? ((state >> 1) ^ TAPS) : (state >> 1);
    end

    assign bit_out = fb;
endmodule
