`timescale 1ns/1ps
// Masters 0 and 1 only, random reads and writes over both memories; master 2 stays idle.
module tb_pair;
    localparam ACTIVE = 2, OPS = 120, SEED = 32'h0a1b_2c3d, LOCKER = 0, SLAVE0 = 0, MAXWAIT = 1;
`include "xbar_tb.vh"
endmodule
