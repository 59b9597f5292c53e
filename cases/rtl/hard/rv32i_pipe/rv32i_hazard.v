// Hazard handling of the rv32i_pipe core: the load-use interlock and the EX-stage forwarding
// selects.

// Load-use interlock. A load's data arrives at the end of MEM, too late for the next instruction's
// EX: when the instruction in ID reads (uses_rs1 / uses_rs2) the register a load in EX writes, ID
// and IF hold for one cycle and a bubble enters EX. A load to x0 writes nothing and never stalls;
// neither does a register field the instruction does not read.
module rv32i_hazard (
    input  wire       id_valid,
    input  wire [4:0] id_rs1,
    input  wire [4:0] id_rs2,
    input  wire       id_uses_rs1,
    input  wire       id_uses_rs2,
    input  wire       ex_mem_read,
    input  wire [4:0] ex_rd,
    output wire       stall
);
    wire hit1 = id_uses_rs1 && (id_rs1 == ex_rd);
    wire hit2 = id_uses_rs2 && (id_rs2 == ex_rd);

    assign stall = id_valid && ex_mem_read && (ex_rd != 5'd0) && (hit1 || hit2);
endmodule

// Forwarding selects for one EX operand register:
//   2'd2: the result in EX/MEM (the instruction one ahead),
//   2'd1: the write-back value in MEM/WB (two ahead),
//   2'd0: the value read in ID.
// The youngest producer wins; x0 is never forwarded.
module rv32i_forward (
    input  wire [4:0] ex_rs,
    input  wire       mem_reg_write,
    input  wire [4:0] mem_rd,
    input  wire       wb_reg_write,
    input  wire [4:0] wb_rd,
    output wire [1:0] sel
);
    wire from_mem = mem_reg_write && (mem_rd != 5'd0) && (mem_rd == ex_rs);
    wire from_wb  = wb_reg_write && (wb_rd != 5'd0) && (wb_rd == ex_rs);

    assign sel = from_mem ? 2'd2 : (from_wb ? 2'd1 : 2'd0);
endmodule
