`timescale 1ns/1ps
// Three masters with random reads and writes over both memories.
module tb_contention;
    localparam ACTIVE = 3, OPS = 120, SEED = 32'h1d2c_3b4a, LOCKER = 0, SLAVE0 = 0, MAXWAIT = 2;
`include "xbar_tb.vh"
endmodule
