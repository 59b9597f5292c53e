// The whole pipeline at DW = 12 (the including module sets MODE, SEED, CE_RANDOM and the packet count):
// expected beats from the reference arithmetic of every stage.
    localparam DW = 12;
`include "stream_tb.vh"
`include "stream_model.vh"
    integer i, len, k, total, v;

    pipe_top #(.DW(DW)) dut (
        .clk(clk), .rst_n(rst_n), .ce(ce), .gain_q44(8'h2c), .offset_val(-12'sd300), .mode(MODE[0]),
        .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data), .in_last(in_last), .out_valid(out_valid),
        .out_ready(out_ready), .out_data(out_data), .out_last(out_last)
    );

    initial begin
        for (k = 0; k < PACKETS; k = k + 1) begin
            lfsr = {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
            len = 1 + lfsr[2:0];
            total = 0;
            for (i = 0; i < len; i = i + 1) begin
                lfsr = {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
                in_mem[n_in] = {i == len - 1, sample(lfsr)};
                v = offset_model(gain_model(sext_dw(in_mem[n_in][DW-1:0]), 44), -300);
                total = total + v;
                if (MODE == 0) begin
                    exp_mem[n_exp] = {i == len - 1, as_bits(v)};
                    n_exp = n_exp + 1;
                end
                n_in = n_in + 1;
            end
            if (MODE == 1) begin
                exp_mem[n_exp] = {1'b1, as_bits(sat_dw(total))};
                n_exp = n_exp + 1;
            end
        end
        lfsr = SEED;
        run;
    end
