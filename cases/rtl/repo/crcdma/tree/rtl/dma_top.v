// crcdma: a DMA engine with an on-the-fly CRC-32, 1 KiB of memory shared with the CPU port.
//
// CPU port: one request per access (cpu_req for one cycle), answered by cpu_ack in the next cycle
// with cpu_rdata. 0x000-0x3ff memory (bytes), 0x800-0x80f DMA registers.
module dma_top (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        cpu_req,
    input  wire        cpu_we,
    input  wire [11:0] cpu_addr,
    input  wire [15:0] cpu_wdata,
    output reg         cpu_ack,
    output wire [15:0] cpu_rdata,
    output wire        irq
);
    localparam AW = 10;

    wire          in_mem  = cpu_addr[11:AW] == 0;
    wire          in_regs = cpu_addr[11:4] == 8'h80;
    wire [AW-1:0] src, dst, dma_addr, mem_addr;
    wire [10:0]   len;
    wire          crc_en, start, start_crc, busy, done, crc_init, crc_step;
    wire [7:0]    dma_wdata, crc_byte, mem_wdata, mem_rdata;
    wire          dma_req, dma_we, dma_gnt, dma_rvalid, cpu_rvalid, mem_en, mem_we;
    wire [15:0]   reg_rdata;
    wire [31:0]   crc;
    reg           regs_q;

    dma_regs #(.AW(AW)) u_regs (
        .clk(clk), .rst_n(rst_n), .sel(cpu_req && in_regs), .we(cpu_we), .addr(cpu_addr[3:0]),
        .wdata(cpu_wdata), .rdata(reg_rdata), .src(src), .dst(dst), .len(len), .crc_en(crc_en), .start(start),
        .start_crc(start_crc), .busy(busy), .done_set(done), .crc(crc)
    );

    dma_engine #(.AW(AW)) u_dma (
        .clk(clk), .rst_n(rst_n), .start(start), .crc_en(start_crc), .src(src), .dst(dst), .len(len), .busy(busy),
        .done(done), .mem_req(dma_req), .mem_we(dma_we), .mem_addr(dma_addr), .mem_wdata(dma_wdata),
        .mem_gnt(dma_gnt), .mem_rvalid(dma_rvalid), .mem_rdata(mem_rdata), .crc_init(crc_init),
        .crc_step(crc_step), .crc_byte(crc_byte)
    );

    crc_unit u_crc (
        .clk(clk), .rst_n(rst_n), .init(crc_init), .en(crc_step), .data(crc_byte), .result(crc)
    );

    mem_arb #(.AW(AW)) u_arb (
        .clk(clk), .rst_n(rst_n), .cpu_req(cpu_req && in_mem), .cpu_we(cpu_we), .cpu_addr(cpu_addr[AW-1:0]),
        .cpu_wdata(cpu_wdata[7:0]), .cpu_rvalid(cpu_rvalid), .dma_req(dma_req), .dma_we(dma_we),
        .dma_addr(dma_addr), .dma_wdata(dma_wdata), .dma_gnt(dma_gnt), .dma_rvalid(dma_rvalid), .mem_en(mem_en),
        .mem_we(mem_we), .mem_addr(mem_addr), .mem_wdata(mem_wdata)
    );

    sram8 #(.AW(AW)) u_mem (
        .clk(clk), .en(mem_en), .we(mem_we), .addr(mem_addr), .wdata(mem_wdata), .rdata(mem_rdata)
    );

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            cpu_ack <= 1'b0;
            regs_q  <= 1'b0;
        end else begin
            cpu_ack <= cpu_req;
            regs_q  <= in_regs;
        end
    end

    assign cpu_rdata = regs_q ? reg_rdata : cpu_rvalid ? {8'd0, mem_rdata} : 16'd0;
    assign irq       = done;
endmodule
