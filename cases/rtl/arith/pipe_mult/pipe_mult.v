// Three-stage pipelined 8x8 unsigned multiplier with a valid bit travelling alongside the data.
// Stage 1 registers the operands, stage 2 forms two 8x4 partial products, stage 3 adds them.
module pipe_mult (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        in_valid,
    input  wire [7:0]  a,
    input  wire [7:0]  b,
    output reg         out_valid,
    output reg  [15:0] p
);
    reg [7:0]  a1;
    reg [7:0]  b1;
    reg [11:0] pp_lo;
    reg [11:0] pp_hi;
    reg        v1;
    reg        v2;

    // Datapath registers have no reset: their contents only matter while valid is set.
    always @(posedge clk) begin
        a1    <= a;
        b1    <= b;
        pp_lo <= a1 * b1[3:0];
        pp_hi <= a1 * b1[7:4];
        p     <= {4'b0000, pp_lo} + {pp_hi, 4'b0000};
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            v1        <= 1'b0;
            v2        <= 1'b0;
            out_valid <= 1'b0;
        end else begin
            v1        <= in_valid;
            v2        <= v1;
            out_valid <= v2;
        end
    end
endmodule
