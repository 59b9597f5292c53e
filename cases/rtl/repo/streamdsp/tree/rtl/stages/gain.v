// Gain stage: out = sat(in * g / 16), g a signed Q4.4 factor; one register stage.
module gain #(parameter DW = 8) (
    input  wire          clk,
    input  wire          rst_n,
    input  wire          ce,
    input  wire [7:0]    g,
    input  wire          in_valid,
    output wire          in_ready,
    input  wire [DW-1:0] in_data,
    input  wire          in_last,
    output reg           out_valid,
    input  wire          out_ready,
    output reg  [DW-1:0] out_data,
    output reg           out_last
);
    wire signed [DW+7:0] prod   = $signed(in_data) * $signed(g);
    wire signed [DW+3:0] scaled = prod >>> 4;
    wire        [DW-1:0] y;

    sat #(.IW(DW + 4), .OW(DW)) u_sat (.in(scaled), .out(y));

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
