// Instruction decoder of the rv32i_pipe core (ID stage): register fields, the immediate of every
// RV32I format, and the control word the instruction carries down the pipeline.
//
// Operand selection in EX:  a = rs1 | pc | 0 (a_sel 0, 1, 2);  b = rs2 | imm | 4 (b_sel 0, 1, 2).
// ALU operation: {funct7[5], funct3} as the OP opcode spells it (see rv32i_alu).
// An instruction outside RV32I, and every SYSTEM instruction (ECALL, EBREAK, CSR), decodes as a
// trap: it reads no register, writes nothing, touches no memory and never redirects.
module rv32i_decode (
    input  wire [31:0] insn,
    output wire [4:0]  rs1,
    output wire [4:0]  rs2,
    output wire [4:0]  rd,
    output wire [2:0]  funct3,
    output reg  [31:0] imm,
    output reg         uses_rs1,
    output reg         uses_rs2,
    output reg         reg_write,
    output reg  [1:0]  a_sel,
    output reg  [1:0]  b_sel,
    output reg  [3:0]  alu_op,
    output reg         mem_read,
    output reg         mem_write,
    output reg         branch,
    output reg         jal,
    output reg         jalr,
    output reg         trap
);
    localparam [6:0] OP_LUI    = 7'b0110111;
    localparam [6:0] OP_AUIPC  = 7'b0010111;
    localparam [6:0] OP_JAL    = 7'b1101111;
    localparam [6:0] OP_JALR   = 7'b1100111;
    localparam [6:0] OP_BRANCH = 7'b1100011;
    localparam [6:0] OP_LOAD   = 7'b0000011;
    localparam [6:0] OP_STORE  = 7'b0100011;
    localparam [6:0] OP_IMM    = 7'b0010011;
    localparam [6:0] OP_REG    = 7'b0110011;
    localparam [6:0] OP_FENCE  = 7'b0001111;

    localparam [1:0] A_RS1 = 2'd0, A_PC = 2'd1, A_ZERO = 2'd2;
    localparam [1:0] B_RS2 = 2'd0, B_IMM = 2'd1, B_FOUR = 2'd2;
    localparam [3:0] ALU_ADD = 4'b0000, ALU_SUB = 4'b1000;

    wire [6:0] opcode = insn[6:0];
    wire [6:0] funct7 = insn[31:25];

    assign rs1    = insn[19:15];
    assign rs2    = insn[24:20];
    assign rd     = insn[11:7];
    assign funct3 = insn[14:12];

    // The five immediate formats, sign-extended from instruction bit 31.
    wire [31:0] imm_i = {{20{insn[31]}}, insn[31:20]};
    wire [31:0] imm_s = {{20{insn[31]}}, insn[31:25], insn[11:7]};
    wire [31:0] imm_b = {{19{insn[31]}}, insn[31], insn[7], insn[30:25], insn[11:8], 1'b0};
    wire [31:0] imm_u = {insn[31:12], 12'h000};
    wire [31:0] imm_j = {{11{insn[31]}}, insn[31], insn[19:12], insn[20], insn[30:21], 1'b0};

    // Legal funct3/funct7 combinations per opcode.
    wire load_ok   = (funct3 != 3'b011) && (funct3 != 3'b110) && (funct3 != 3'b111);
    wire store_ok  = (funct3 == 3'b000) || (funct3 == 3'b001) || (funct3 == 3'b010);
    wire branch_ok = (funct3 != 3'b010) && (funct3 != 3'b011);
    wire shift_ok  = (funct7 == 7'b0000000) || (funct7 == 7'b0100000 && funct3 == 3'b101);
    wire imm_ok    = (funct3 == 3'b001 || funct3 == 3'b101) ? shift_ok : 1'b1;
    wire reg_ok    = (funct7 == 7'b0000000) ||
                     (funct7 == 7'b0100000 && (funct3 == 3'b000 || funct3 == 3'b101));

    always @* begin
        imm       = 32'd0;
        uses_rs1  = 1'b0;
        uses_rs2  = 1'b0;
        reg_write = 1'b0;
        a_sel     = A_RS1;
        b_sel     = B_RS2;
        alu_op    = ALU_ADD;
        mem_read  = 1'b0;
        mem_write = 1'b0;
        branch    = 1'b0;
        jal       = 1'b0;
        jalr      = 1'b0;
        trap      = 1'b0;
        case (opcode)
            OP_LUI: begin
                imm       = imm_u;
                reg_write = 1'b1;
                a_sel     = A_ZERO;
                b_sel     = B_IMM;
            end
            OP_AUIPC: begin
                imm       = imm_u;
                reg_write = 1'b1;
                a_sel     = A_PC;
                b_sel     = B_IMM;
            end
            OP_JAL: begin
                imm       = imm_j;
                reg_write = 1'b1;
                a_sel     = A_PC;
                b_sel     = B_FOUR;
                jal       = 1'b1;
            end
            OP_JALR: begin
                if (funct3 == 3'b000) begin
                    imm       = imm_i;
                    uses_rs1  = 1'b1;
                    reg_write = 1'b1;
                    a_sel     = A_PC;
                    b_sel     = B_FOUR;
                    jalr      = 1'b1;
                end else begin
                    trap = 1'b1;
                end
            end
            OP_BRANCH: begin
                if (branch_ok) begin
                    imm      = imm_b;
                    uses_rs1 = 1'b1;
                    uses_rs2 = 1'b1;
                    alu_op   = ALU_SUB;
                    branch   = 1'b1;
                end else begin
                    trap = 1'b1;
                end
            end
            OP_LOAD: begin
                if (load_ok) begin
                    imm       = imm_i;
                    uses_rs1  = 1'b1;
                    reg_write = 1'b1;
                    b_sel     = B_IMM;
                    mem_read  = 1'b1;
                end else begin
                    trap = 1'b1;
                end
            end
            OP_STORE: begin
                if (store_ok) begin
                    imm       = imm_s;
                    uses_rs1  = 1'b1;
                    uses_rs2  = 1'b1;
                    b_sel     = B_IMM;
                    mem_write = 1'b1;
                end else begin
                    trap = 1'b1;
                end
            end
            OP_IMM: begin
                if (imm_ok) begin
                    imm       = imm_i;
                    uses_rs1  = 1'b1;
                    reg_write = 1'b1;
                    b_sel     = B_IMM;
                    // Only the shifts read funct7: ADDI has no subtracting twin.
                    alu_op    = {(funct3 == 3'b101) & insn[30], funct3};
                end else begin
                    trap = 1'b1;
                end
            end
            OP_REG: begin
                if (reg_ok) begin
                    uses_rs1  = 1'b1;
                    uses_rs2  = 1'b1;
                    reg_write = 1'b1;
                    alu_op    = {insn[30], funct3};
                end else begin
                    trap = 1'b1;
                end
            end
            OP_FENCE: begin
                // FENCE orders nothing in a single in-order core: a no-op.
                if (funct3 != 3'b000)
                    trap = 1'b1;
            end
            default: trap = 1'b1;
        endcase
    end
endmodule
