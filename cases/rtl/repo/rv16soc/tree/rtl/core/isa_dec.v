// Instruction decoder of the rv16 core.
//
// Encoding (16 bits): op[15:12] rd[11:9] rs1[8:6] rs2[5:3] func[2:0]
//   0 ALU   rd = rs1 <func> rs2          func: add sub and or xor shl shr slt
//   1 ADDI  rd = rs1 + sext(ir[5:0])
//   2 LDI   rd = sext(ir[8:0])
//   3 LW    rd = mem[rs1 + sext(ir[5:0])]
//   4 SW    mem[rs1 + sext(ir[5:0])] = rd
//   5 BEQ   if (rd == rs1) pc = pc + 1 + sext(ir[5:0])
//   6 BNE   if (rd != rs1) pc = pc + 1 + sext(ir[5:0])
//   7 JMP   pc = ir[11:0]
//   8 LUI   rd = {ir[8:0], 7'b0}
//   15 HALT
module isa_dec (
    input  wire [15:0] ir,
    output wire [2:0]  rd,
    output wire [2:0]  ra,
    output wire [2:0]  rb,
    output reg  [2:0]  alu_op,
    output reg  [15:0] imm,
    output reg         use_imm,
    output reg         zero_a,
    output reg         reg_we,
    output reg         mem_re,
    output reg         mem_we,
    output reg         is_beq,
    output reg         is_bne,
    output reg         is_jmp,
    output reg         is_halt
);
    localparam OP_ALU = 4'd0, OP_ADDI = 4'd1, OP_LDI = 4'd2, OP_LW = 4'd3, OP_SW = 4'd4,
               OP_BEQ = 4'd5, OP_BNE = 4'd6, OP_JMP = 4'd7, OP_LUI = 4'd8, OP_HALT = 4'd15;

    wire [3:0] op = ir[15:12];
    wire       rb_is_rd = (op == OP_SW) || (op == OP_BEQ) || (op == OP_BNE);

    assign rd = ir[11:9];
    assign ra = ir[8:6];
    assign rb = rb_is_rd ? ir[11:9] : ir[5:3];

    always @* begin
        alu_op  = 3'd0;
        imm     = {{10{ir[5]}}, ir[5:0]};
        use_imm = 1'b0;
        zero_a  = 1'b0;
        reg_we  = 1'b0;
        mem_re  = 1'b0;
        mem_we  = 1'b0;
        is_beq  = 1'b0;
        is_bne  = 1'b0;
        is_jmp  = 1'b0;
        is_halt = 1'b0;
        case (op)
            OP_ALU:  begin alu_op = ir[2:0]; reg_we = 1'b1; end
            OP_ADDI: begin use_imm = 1'b1; reg_we = 1'b1; end
            OP_LDI:  begin imm = {{7{ir[8]}}, ir[8:0]}; use_imm = 1'b1; zero_a = 1'b1; reg_we = 1'b1; end
            OP_LW:   begin use_imm = 1'b1; reg_we = 1'b1; mem_re = 1'b1; end
            OP_SW:   begin use_imm = 1'b1; mem_we = 1'b1; end
            OP_BEQ:  is_beq = 1'b1;
            OP_BNE:  is_bne = 1'b1;
            OP_JMP:  begin imm = {4'd0, ir[11:0]}; is_jmp = 1'b1; end
            OP_LUI:  begin imm = {ir[8:0], 7'd0}; use_imm = 1'b1; zero_a = 1'b1; reg_we = 1'b1; end
            OP_HALT: is_halt = 1'b1;
            default: ;
        endcase
    end
endmodule
