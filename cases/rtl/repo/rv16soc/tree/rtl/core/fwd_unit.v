// Forwarding from the write-back stage to the execute stage's operands.
//
// The register file is written at the end of the write-back cycle, so the instruction right behind a
// writer reads the old value: the write-back result is forwarded instead.
module fwd_unit (
    input  wire [2:0]  ra,
    input  wire [2:0]  rb,
    input  wire [15:0] rf_a,
    input  wire [15:0] rf_b,
    input  wire        wb_we,
    input  wire [2:0]  wb_rd,
    input  wire [15:0] wb_data,
    output wire [15:0] a,
    output wire [15:0] b
);
    wire hit_a = wb_we && (wb_rd != 3'd0) && (wb_rd == ra);
    wire hit_b = wb_we && (wb_rd != 3'd0) && (wb_rd == rb);

    assign a = hit_a ? wb_data : rf_a;
    assign b = hit_b ? wb_data : rf_b;
endmodule
