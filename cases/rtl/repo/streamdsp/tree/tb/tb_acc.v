`timescale 1ns/1ps
// The accumulator on its own (8 bits, packet mode): one saturated sum per packet, under backpressure.
module tb_acc;
    localparam DW = 8, SEED = 32'h9abc_def1, CE_RANDOM = 0;
`include "stream_tb.vh"
`include "stream_model.vh"
    integer i, len, k, total;

    acc #(.DW(DW)) dut (
        .clk(clk), .rst_n(rst_n), .ce(ce), .mode(1'b1), .in_valid(in_valid), .in_ready(in_ready),
        .in_data(in_data), .in_last(in_last), .out_valid(out_valid), .out_ready(out_ready), .out_data(out_data),
        .out_last(out_last)
    );

    initial begin
        for (k = 0; k < 50; k = k + 1) begin
            lfsr = {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
            len = 1 + lfsr[2:0];
            total = 0;
            for (i = 0; i < len; i = i + 1) begin
                lfsr = {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
                in_mem[n_in] = {i == len - 1, sample(lfsr) >>> 2};
                total = total + sext_dw(in_mem[n_in][DW-1:0]);
                n_in = n_in + 1;
            end
            exp_mem[n_exp] = {1'b1, as_bits(sat_dw(total))};
            n_exp = n_exp + 1;
        end
        run;
    end
endmodule
