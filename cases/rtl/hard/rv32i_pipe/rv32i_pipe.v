// rv32i_pipe: a five-stage in-order RV32I core (IF, ID, EX, MEM, WB).
//
// The instruction and data memories live outside the core: imem_addr presents the fetch address
// and imem_rdata answers in the same cycle; the data port presents one access per cycle from the
// MEM stage and dmem_rdata answers a load in the same cycle. Every output is a function of the
// pipeline registers alone, so a memory model may answer from the outputs it sees in a cycle.
//
// Hazards: results are forwarded to EX from EX/MEM and MEM/WB, the register file passes the value
// being written back through to ID, a load followed by a reader of its destination stalls one
// cycle, and a taken branch or a jump (resolved in EX) squashes the two younger instructions.
module rv32i_pipe (
    input  wire        clk,
    input  wire        rst_n,
    // instruction port
    output wire [31:0] imem_addr,
    input  wire [31:0] imem_rdata,
    // data port
    output wire [31:0] dmem_addr,
    output wire        dmem_re,
    output wire        dmem_we,
    output wire [3:0]  dmem_be,
    output wire [31:0] dmem_wdata,
    input  wire [31:0] dmem_rdata,
    // retirement: one instruction leaves WB per cycle at most
    output wire        retire_valid,
    output wire [31:0] retire_pc,
    output wire        retire_trap,
    output wire        retire_we,
    output wire [4:0]  retire_rd,
    output wire [31:0] retire_data
);
    localparam [31:0] RESET_PC = 32'h0000_0000;

    // ------------------------------------------------------------------ control between stages
    wire        stall;     // load-use interlock: IF and ID hold, a bubble enters EX
    wire        redirect;  // a taken branch or jump in EX
    wire [31:0] target;    // where it goes

    // ------------------------------------------------------------------ IF
    reg [31:0] pc;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            pc <= RESET_PC;
        else if (redirect)
            pc <= target;
        else if (!stall)
            pc <= pc + 32'd4;
    end

    assign imem_addr = pc;

    // IF/ID: the fetched word. A redirect squashes it; a stall keeps it.
    // Valid and control bits reset; the data beside them is only ever read under them.
    reg        id_valid;
    reg [31:0] id_pc;
    reg [31:0] id_insn;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            id_valid <= 1'b0;
        else if (redirect)
            id_valid <= 1'b0;
        else if (!stall)
            id_valid <= 1'b1;
    end

    always @(posedge clk) begin
        if (!stall) begin
            id_pc   <= pc;
            id_insn <= imem_rdata;
        end
    end

    // ------------------------------------------------------------------ ID
    wire [4:0]  d_rs1, d_rs2, d_rd;
    wire [2:0]  d_funct3;
    wire [31:0] d_imm;
    wire        d_uses_rs1, d_uses_rs2, d_reg_write;
    wire [1:0]  d_a_sel, d_b_sel;
    wire [3:0]  d_alu_op;
    wire        d_mem_read, d_mem_write, d_branch, d_jal, d_jalr, d_trap;

    rv32i_decode u_decode (
        .insn(id_insn), .rs1(d_rs1), .rs2(d_rs2), .rd(d_rd), .funct3(d_funct3), .imm(d_imm),
        .uses_rs1(d_uses_rs1), .uses_rs2(d_uses_rs2), .reg_write(d_reg_write),
        .a_sel(d_a_sel), .b_sel(d_b_sel), .alu_op(d_alu_op),
        .mem_read(d_mem_read), .mem_write(d_mem_write),
        .branch(d_branch), .jal(d_jal), .jalr(d_jalr), .trap(d_trap)
    );

    // Write-back port of the register file (driven from WB below).
    wire        wb_write;
    wire [4:0]  wb_rd_w;
    wire [31:0] wb_value;
    wire [31:0] rf_rdata1, rf_rdata2;

    rv32i_regfile u_regfile (
        .clk(clk), .rst_n(rst_n),
        .raddr1(d_rs1), .raddr2(d_rs2), .rdata1(rf_rdata1), .rdata2(rf_rdata2),
        .we(wb_write), .waddr(wb_rd_w), .wdata(wb_value)
    );

    reg        ex_mem_read;
    reg [4:0]  ex_rd;

    rv32i_hazard u_hazard (
        .id_valid(id_valid), .id_rs1(d_rs1), .id_rs2(d_rs2),
        .id_uses_rs1(d_uses_rs1), .id_uses_rs2(d_uses_rs2),
        .ex_mem_read(ex_mem_read), .ex_rd(ex_rd), .stall(stall)
    );

    // An instruction leaves ID when it is valid, not held, and not squashed by a redirect.
    wire id_go = id_valid && !stall && !redirect;

    // ID/EX: control bits are qualified here, so a bubble carries no effect at all; the data beside
    // them does not reset.
    reg        ex_valid;
    reg [31:0] ex_pc;
    reg [31:0] ex_rs1_val, ex_rs2_val, ex_imm;
    reg [4:0]  ex_rs1, ex_rs2;
    reg [2:0]  ex_funct3;
    reg [1:0]  ex_a_sel, ex_b_sel;
    reg [3:0]  ex_alu_op;
    reg        ex_reg_write, ex_mem_write, ex_branch, ex_jal, ex_jalr, ex_trap;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            ex_valid     <= 1'b0;
            ex_reg_write <= 1'b0;
            ex_mem_read  <= 1'b0;
            ex_mem_write <= 1'b0;
            ex_branch    <= 1'b0;
            ex_jal       <= 1'b0;
            ex_jalr      <= 1'b0;
            ex_trap      <= 1'b0;
        end else begin
            ex_valid     <= id_go;
            ex_reg_write <= id_go && d_reg_write;
            ex_mem_read  <= id_go && d_mem_read;
            ex_mem_write <= id_go && d_mem_write;
            ex_branch    <= id_go && d_branch;
            ex_jal       <= id_go && d_jal;
            ex_jalr      <= id_go && d_jalr;
            ex_trap      <= id_go && d_trap;
        end
    end

    always @(posedge clk) begin
        ex_pc        <= id_pc;
        ex_rs1_val   <= rf_rdata1;
        ex_rs2_val   <= rf_rdata2;
        ex_imm       <= d_imm;
        ex_rs1       <= d_rs1;
        ex_rs2       <= d_rs2;
        ex_rd        <= d_rd;
        ex_funct3    <= d_funct3;
        ex_a_sel     <= d_a_sel;
        ex_b_sel     <= d_b_sel;
        ex_alu_op    <= d_alu_op;
    end

    // ------------------------------------------------------------------ EX
    reg        mem_valid;
    reg [31:0] mem_pc;
    reg [31:0] mem_result;
    reg [31:0] mem_wdata;
    reg [3:0]  mem_be;
    reg [4:0]  mem_rd;
    reg [2:0]  mem_funct3;
    reg        mem_reg_write, mem_read, mem_write, mem_trap;

    // Forwarding: the youngest older producer of each operand register.
    wire [1:0] fwd_a, fwd_b;

    rv32i_forward u_forward_a (
        .ex_rs(ex_rs1), .mem_reg_write(mem_reg_write), .mem_rd(mem_rd),
        .wb_reg_write(wb_write), .wb_rd(wb_rd_w), .sel(fwd_a)
    );

    rv32i_forward u_forward_b (
        .ex_rs(ex_rs2), .mem_reg_write(mem_reg_write), .mem_rd(mem_rd),
        .wb_reg_write(wb_write), .wb_rd(wb_rd_w), .sel(fwd_b)
    );

    wire [31:0] rs1_fwd = (fwd_a == 2'd2) ? mem_result :
                          (fwd_a == 2'd1) ? wb_value : ex_rs1_val;
    wire [31:0] rs2_fwd = (fwd_b == 2'd2) ? mem_result :
                          (fwd_b == 2'd1) ? wb_value : ex_rs2_val;

    wire [31:0] alu_a = (ex_a_sel == 2'd1) ? ex_pc :
                        (ex_a_sel == 2'd2) ? 32'd0 : rs1_fwd;
    wire [31:0] alu_b = (ex_b_sel == 2'd1) ? ex_imm :
                        (ex_b_sel == 2'd2) ? 32'd4 : rs2_fwd;
    wire [31:0] alu_y;

    rv32i_alu u_alu (.op(ex_alu_op), .a(alu_a), .b(alu_b), .y(alu_y));

    wire br_cond;

    rv32i_branch_cmp u_branch_cmp (.funct3(ex_funct3), .a(rs1_fwd), .b(rs2_fwd), .taken(br_cond));

    // Branch and JAL targets are pc-relative; JALR's clears bit 0 of rs1 + imm.
    wire [31:0] pc_target   = ex_pc + ex_imm;
    wire [31:0] jalr_target = (rs1_fwd + ex_imm) & 32'hffff_fffe;

    assign redirect = ex_jal || ex_jalr || (ex_branch && br_cond);
    assign target   = ex_jalr ? jalr_target : pc_target;

    // Loads and stores address rs1 + imm, which the ALU computes.
    wire        ex_access = ex_mem_read || ex_mem_write;
    wire [3:0]  lane_be;
    wire [31:0] lane_data;
    wire        misaligned;

    rv32i_mem_align u_mem_align (
        .offset(alu_y[1:0]), .size(ex_funct3[1:0]), .access(ex_access), .store_data(rs2_fwd),
        .be(lane_be), .lane_data(lane_data), .misaligned(misaligned)
    );

    // EX/MEM. A misaligned access traps: no memory access and no register write.
    // The lanes and the store data are outputs: they reset with the control bits.
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            mem_valid     <= 1'b0;
            mem_reg_write <= 1'b0;
            mem_read      <= 1'b0;
            mem_write     <= 1'b0;
            mem_trap      <= 1'b0;
            mem_be        <= 4'd0;
            mem_wdata     <= 32'd0;
        end else begin
            mem_valid     <= ex_valid;
            mem_reg_write <= ex_reg_write && !misaligned;
            mem_read      <= ex_mem_read && !misaligned;
            mem_write     <= ex_mem_write && !misaligned;
            mem_trap      <= ex_trap || misaligned;
            mem_be        <= misaligned ? 4'd0 : lane_be;
            mem_wdata     <= (ex_mem_write && !misaligned) ? lane_data : 32'd0;
        end
    end

    always @(posedge clk) begin
        mem_pc     <= ex_pc;
        mem_result <= alu_y;
        mem_rd     <= ex_rd;
        mem_funct3 <= ex_funct3;
    end

    // ------------------------------------------------------------------ MEM
    wire mem_access = mem_read || mem_write;

    assign dmem_addr  = mem_access ? mem_result : 32'd0;
    assign dmem_re    = mem_read;
    assign dmem_we    = mem_write;
    assign dmem_be    = mem_be;
    assign dmem_wdata = mem_wdata;

    // MEM/WB: the load word is captured raw; lane selection and extension happen in WB.
    reg        wb_valid;
    reg [31:0] wb_pc;
    reg [31:0] wb_result;
    reg [31:0] wb_rdata;
    reg [4:0]  wb_rd;
    reg [2:0]  wb_funct3;
    reg        wb_reg_write, wb_load, wb_trap;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            wb_valid     <= 1'b0;
            wb_reg_write <= 1'b0;
            wb_trap      <= 1'b0;
        end else begin
            wb_valid     <= mem_valid;
            wb_reg_write <= mem_reg_write;
            wb_trap      <= mem_trap;
        end
    end

    // Whether the result is a load's: read only when the instruction writes a register.
    always @(posedge clk) begin
        wb_load   <= mem_read;
        wb_pc     <= mem_pc;
        wb_result <= mem_result;
        wb_rdata  <= dmem_rdata;
        wb_rd     <= mem_rd;
        wb_funct3 <= mem_funct3;
    end

    // ------------------------------------------------------------------ WB
    wire [31:0] load_value;

    rv32i_load_ext u_load_ext (
        .word(wb_rdata), .offset(wb_result[1:0]), .funct3(wb_funct3), .value(load_value)
    );

    assign wb_write = wb_reg_write;
    assign wb_rd_w  = wb_rd;
    assign wb_value = wb_load ? load_value : wb_result;

    assign retire_valid = wb_valid;
    assign retire_pc    = wb_valid ? wb_pc : 32'd0;
    assign retire_trap  = wb_trap;
    assign retire_we    = wb_reg_write && (wb_rd != 5'd0);
    assign retire_rd    = retire_we ? wb_rd : 5'd0;
    assign retire_data  = retire_we ? wb_value : 32'd0;
endmodule
