// rv16: a three-stage (fetch, execute, write-back) 16-bit core.
//
// Branches and jumps resolve in execute; the instruction fetched behind a taken one is squashed.
// Loads present their address in execute and take the bus's registered read data in write-back.
module core (
    input  wire        clk,
    input  wire        rst_n,
    output wire [11:0] imem_addr,
    input  wire [15:0] imem_data,
    output wire        bus_req,
    output wire        bus_we,
    output wire [15:0] bus_addr,
    output wire [15:0] bus_wdata,
    input  wire [15:0] bus_rdata,
    output wire        dbg_we,
    output wire [2:0]  dbg_rd,
    output wire [15:0] dbg_data,
    output reg         halted
);
    // ---------------------------------------------------------------- fetch
    reg [11:0] pc;
    reg [15:0] ex_ir;
    reg [11:0] ex_pc;
    reg        ex_valid;

    assign imem_addr = pc;

    // ---------------------------------------------------------------- execute
    wire [2:0]  rd, ra, rb, alu_op;
    wire [15:0] imm;
    wire        use_imm, zero_a, reg_we, mem_re, mem_we, is_beq, is_bne, is_jmp, is_halt;

    isa_dec u_dec (
        .ir(ex_ir), .rd(rd), .ra(ra), .rb(rb), .alu_op(alu_op), .imm(imm), .use_imm(use_imm),
        .zero_a(zero_a), .reg_we(reg_we), .mem_re(mem_re), .mem_we(mem_we), .is_beq(is_beq),
        .is_bne(is_bne), .is_jmp(is_jmp), .is_halt(is_halt)
    );

    reg         wb_we;
    reg  [2:0]  wb_rd;
    reg         wb_mem;
    reg  [15:0] wb_alu;
    wire [15:0] wb_data = wb_mem ? bus_rdata : wb_alu;

    wire [15:0] rf_a, rf_b, op_a, op_b, alu_y;

    regfile u_rf (
        .clk(clk), .we(wb_we), .wa(wb_rd), .wd(wb_data), .ra(ra), .rb(rb), .qa(rf_a), .qb(rf_b)
    );

    fwd_unit u_fwd (
        .ra(ra), .rb(rb), .rf_a(rf_a), .rf_b(rf_b), .wb_we(wb_we), .wb_rd(wb_rd), .wb_data(wb_data),
        .a(op_a), .b(op_b)
    );

    alu u_alu (
        .op(alu_op), .a(zero_a ? 16'd0 : op_a), .b(use_imm ? imm : op_b), .y(alu_y)
    );

    wire run   = ex_valid && !halted;
    wire taken = run && (is_jmp || (is_beq && op_a == op_b) || (is_bne && op_a != op_b));
    wire [11:0] target = is_jmp ? imm[11:0] : ex_pc + 12'd1 + imm[11:0];

    assign bus_req   = run && (mem_re || mem_we);
    assign bus_we    = run && mem_we;
    assign bus_addr  = op_a + imm;
    assign bus_wdata = op_b;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            pc       <= 12'd0;
            ex_ir    <= 16'd0;
            ex_pc    <= 12'd0;
            ex_valid <= 1'b0;
            halted   <= 1'b0;
        end else if (!halted) begin
            if (run && is_halt) begin
                halted   <= 1'b1;
                ex_valid <= 1'b0;
            end else if (taken) begin
                pc       <= target;
                ex_valid <= 1'b0;
            end else begin
                pc       <= pc + 12'd1;
                ex_ir    <= imem_data;
                ex_pc    <= pc;
                ex_valid <= 1'b1;
            end
        end
    end

    // ---------------------------------------------------------------- write-back
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            wb_we  <= 1'b0;
            wb_rd  <= 3'd0;
            wb_mem <= 1'b0;
            wb_alu <= 16'd0;
        end else begin
            wb_we  <= run && reg_we;
            wb_rd  <= rd;
            wb_mem <= run && mem_re;
            wb_alu <= alu_y;
        end
    end

    assign dbg_we   = wb_we && (wb_rd != 3'd0);
    assign dbg_rd   = wb_rd;
    assign dbg_data = wb_data;
endmodule
