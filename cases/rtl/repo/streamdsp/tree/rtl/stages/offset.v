// Offset stage: out = sat(in + off); one register stage.
module offset #(parameter DW = 8) (
    input  wire          clk,
    input  wire          rst_n,
    input  wire          ce,
    input  wire [DW-1:0] off,
    input  wire          in_valid,
    output wire          in_ready,
    input  wire [DW-1:0] in_data,
    input  wire          in_last,
    output reg           out_valid,
    input  wire          out_ready,
    output reg  [DW-1:0] out_data,
    output reg           out_last
);
    wire signed [DW:0]   s = $signed({in_data[DW-1], in_data}) + $signed({off[DW-1], off});
    wire        [DW-1:0] y;

    sat #(.IW(DW + 1), .OW(DW)) u_sat (.in(s), .out(y));

    wire advance = !out_valid || out_ready;

    assign in_ready = ce && advance;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            out_valid <= 1'b0;
            out_data  <= {DW{1'b0}};
            out_last  <= 1'b0;
        end else if (ce && advance) begin
            out_valid <= in_valid;
            out_data  <= y;
            out_last  <= in_last;
        end
    end
endmodule
