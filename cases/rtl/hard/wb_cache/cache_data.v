// Data array: 4 ways x 4 sets x 4 words of 16 bits. Two combinational read ports (one word for the
// CPU, a whole line for the writeback buffer) and one word-wide write port, all in the given set.
module cache_data (
    input  wire         clk,
    input  wire [1:0]   set,
    input  wire [1:0]   rd_way,
    input  wire [1:0]   rd_word,
    output wire [15:0]  rd_data,
    input  wire [1:0]   ln_way,
    output wire [63:0]  ln_data,
    input  wire         we,
    input  wire [1:0]   wr_way,
    input  wire [1:0]   wr_word,
    input  wire [15:0]  wr_data
);
    reg [15:0] mem [0:63];

    wire [5:0] ln_base = {ln_way, set, 2'b00};

    assign rd_data = mem[{rd_way, set, rd_word}];
    assign ln_data = {mem[ln_base + 6'd3], mem[ln_base + 6'd2], mem[ln_base + 6'd1], mem[ln_base]};

    always @(posedge clk) begin
        if (we)
            mem[{wr_way, set, wr_word}] <= wr_data;
    end
endmodule
