`timescale 1ns/1ps
// The skid buffer on its own: every beat comes out once, in order, under random gaps and backpressure.
module tb_skid;
    localparam DW = 8, SEED = 32'h0bad_cafe, CE_RANDOM = 0;
`include "stream_tb.vh"
    integer i;

    skid_buf #(.DW(DW)) dut (
        .clk(clk), .rst_n(rst_n), .ce(ce), .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data),
        .in_last(in_last), .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data), .out_last(out_last)
    );

    initial begin
        for (i = 0; i < 200; i = i + 1) begin
            in_mem[i] = {i % 7 == 6, i[7:0] ^ 8'h5a};
            exp_mem[i] = in_mem[i];
        end
        n_in = 200;
        n_exp = 200;
        run;
    end
endmodule
