`timescale 1ns/1ps
// The offset stage on its own (8 bits): a negative offset, saturation at the bottom.
module tb_offset;
    localparam DW = 8, SEED = 32'h2468_ace0, CE_RANDOM = 0;
`include "stream_tb.vh"
`include "stream_model.vh"
    integer i;

    offset #(.DW(DW)) dut (
        .clk(clk), .rst_n(rst_n), .ce(ce), .off(8'hb5), .in_valid(in_valid), .in_ready(in_ready),
        .in_data(in_data), .in_last(in_last), .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data),
        .out_last(out_last)
    );

    initial begin
        for (i = 0; i < 160; i = i + 1) begin
            lfsr = {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
            in_mem[i] = {i % 3 == 2, sample(lfsr)};
            exp_mem[i] = {i % 3 == 2, as_bits(offset_model(sext_dw(in_mem[i][DW-1:0]), -75))};
        end
        n_in = 160;
        n_exp = 160;
        run;
    end
endmodule
