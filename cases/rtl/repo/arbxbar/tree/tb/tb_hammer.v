`timescale 1ns/1ps
// Three masters back to back on memory 0: round robin serves each within two cycles of waiting.
module tb_hammer;
    localparam ACTIVE = 3, OPS = 90, SEED = 32'h5eed_0002, LOCKER = 0, SLAVE0 = 1, MAXWAIT = 2;
`include "xbar_tb.vh"
endmodule
