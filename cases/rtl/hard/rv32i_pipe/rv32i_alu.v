// Execute-stage arithmetic of the rv32i_pipe core: the ALU and the branch comparator.

// ALU. op = {funct7[5], funct3} of the OP opcode:
//   0000 ADD   1000 SUB   0001 SLL   0010 SLT   0011 SLTU
//   0100 XOR   0101 SRL   1101 SRA   0110 OR    0111 AND
// Shifts take the amount from the low five bits of b. Unlisted codes give 0.
module rv32i_alu (
    input  wire [3:0]  op,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output reg  [31:0] y
);
    wire [4:0]  shamt = b[4:0];
    wire [31:0] sum   = a + b;
    wire [31:0] diff  = a - b;
    wire        lt_s  = $signed(a) < $signed(b);
    wire        lt_u  = a < b;

    always @* begin
        case (op)
            4'b0000: y = sum;
            4'b1000: y = diff;
            4'b0001: y = a << shamt;
            4'b0010: y = {31'd0, lt_s};
            4'b0011: y = {31'd0, lt_u};
            4'b0100: y = a ^ b;
            4'b0101: y = a >> shamt;
            4'b1101: y = $signed(a) >>> shamt;
            4'b0110: y = a | b;
            4'b0111: y = a & b;
            default: y = 32'd0;
        endcase
    end
endmodule

// Branch condition of a conditional branch from its funct3 and the two (forwarded) operands:
//   000 BEQ  001 BNE  100 BLT  101 BGE  110 BLTU  111 BGEU  (010 and 011 decode as traps).
module rv32i_branch_cmp (
    input  wire [2:0]  funct3,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output reg         taken
);
    wire eq   = (a == b);
    wire lt_s = $signed(a) < $signed(b);
    wire lt_u = a < b;

    always @* begin
        case (funct3)
            3'b000:  taken = eq;
            3'b001:  taken = !eq;
            3'b100:  taken = lt_s;
            3'b101:  taken = !lt_s;
            3'b110:  taken = lt_u;
            3'b111:  taken = !lt_u;
            default: taken = 1'b0;
        endcase
    end
endmodule
