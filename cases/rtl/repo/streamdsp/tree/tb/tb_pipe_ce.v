`timescale 1ns/1ps
// The pipeline with the clock enable toggling at random: nothing is lost or repeated while frozen.
module tb_pipe_ce;
    localparam MODE = 0, SEED = 32'h7e57_0ce1, CE_RANDOM = 1, PACKETS = 60;
`include "pipe_tb.vh"
endmodule
