`timescale 1ns/1ps
// The pipeline in packet mode (mode 1): one saturated sum per packet.
module tb_pipe_packets;
    localparam MODE = 1, SEED = 32'h00c0_ffee, CE_RANDOM = 0, PACKETS = 60;
`include "pipe_tb.vh"
endmodule
