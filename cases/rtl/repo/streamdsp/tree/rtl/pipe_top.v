// streamdsp: input skid buffer, gain, offset and packet accumulator on valid/ready streams.
// `ce` freezes the whole pipeline: while it is low in_ready and out_valid are low and nothing moves.
module pipe_top #(parameter DW = 12) (
    input  wire          clk,
    input  wire          rst_n,
    input  wire          ce,
    input  wire [7:0]    gain_q44,
    input  wire [DW-1:0] offset_val,
    input  wire          mode,
    input  wire          in_valid,
    output wire          in_ready,
    input  wire [DW-1:0] in_data,
    input  wire          in_last,
    output wire          out_valid,
    input  wire          out_ready,
    output wire [DW-1:0] out_data,
    output wire          out_last
);
    wire          s_valid, s_ready, s_last, g_valid, g_ready, g_last, o_valid, o_ready, o_last, a_valid;
    wire [DW-1:0] s_data, g_data, o_data;

    skid_buf #(.DW(DW)) u_skid (
        .clk(clk), .rst_n(rst_n), .ce(ce), .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data),
        .in_last(in_last), .out_valid(s_valid), .out_ready(s_ready), .out_data(s_data), .out_last(s_last)
    );

    gain #(.DW(DW)) u_gain (
        .clk(clk), .rst_n(rst_n), .ce(ce), .g(gain_q44), .in_valid(s_valid), .in_ready(s_ready),
        .in_data(s_data), .in_last(s_last), .out_valid(g_valid), .out_ready(g_ready), .out_data(g_data),
        .out_last(g_last)
    );

    offset #(.DW(DW)) u_offset (
        .clk(clk), .rst_n(rst_n), .ce(ce), .off(offset_val), .in_valid(g_valid), .in_ready(g_ready),
        .in_data(g_data), .in_last(g_last), .out_valid(o_valid), .out_ready(o_ready), .out_data(o_data),
        .out_last(o_last)
    );

    acc #(.DW(DW)) u_acc (
        .clk(clk), .rst_n(rst_n), .ce(ce), .mode(mode), .in_valid(o_valid), .in_ready(o_ready),
        .in_data(o_data), .in_last(o_last), .out_valid(a_valid), .out_ready(out_ready && ce),
        .out_data(out_data), .out_last(out_last)
    );

    assign out_valid = a_valid && ce;
endmodule
