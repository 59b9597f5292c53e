`timescale 1ns/1ps
// The pipeline, sample by sample (mode 0), under random gaps and backpressure.
module tb_pipe_stream;
    localparam MODE = 0, SEED = 32'h0000_4d2f, CE_RANDOM = 0, PACKETS = 60;
`include "pipe_tb.vh"
endmodule
