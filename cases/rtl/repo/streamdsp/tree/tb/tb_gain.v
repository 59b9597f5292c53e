`timescale 1ns/1ps
// The gain stage on its own (8 bits): positive and negative gains, saturation at both ends.
module tb_gain;
    localparam DW = 8, SEED = 32'h1357_9bdf, CE_RANDOM = 0;
`include "stream_tb.vh"
`include "stream_model.vh"
    reg [7:0] g = 8'h00;
    integer   i;

    gain #(.DW(DW)) dut (
        .clk(clk), .rst_n(rst_n), .ce(ce), .g(g), .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data),
        .in_last(in_last), .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data), .out_last(out_last)
    );

    initial begin
        g = 8'hd4;
        for (i = 0; i < 160; i = i + 1) begin
            lfsr = {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
            in_mem[i] = {i % 5 == 4, sample(lfsr)};
            exp_mem[i] = {i % 5 == 4, as_bits(gain_model(sext_dw(in_mem[i][DW-1:0]), -44))};
        end
        n_in = 160;
        n_exp = 160;
        run;
    end
endmodule
