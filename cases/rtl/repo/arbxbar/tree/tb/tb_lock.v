`timescale 1ns/1ps
// Master 0 runs locked read-write-write sequences on memory 0 while the others hammer it.
module tb_lock;
    localparam ACTIVE = 3, OPS = 90, SEED = 32'h10c4_ed00, LOCKER = 1, SLAVE0 = 1, MAXWAIT = 4;
`include "xbar_tb.vh"
endmodule
