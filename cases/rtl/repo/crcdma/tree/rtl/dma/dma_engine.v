// DMA engine: copies LEN bytes from SRC to DST one byte at a time through the memory port, feeding
// every byte to the CRC when asked. LEN = 0 finishes at once without touching memory.
//
// Memory port: hold mem_req (with we, addr, wdata) until mem_gnt; a granted read's byte arrives with
// mem_rvalid, not necessarily in the next cycle.
module dma_engine #(parameter AW = 10) (
    input  wire          clk,
    input  wire          rst_n,
    input  wire          start,
    input  wire          crc_en,
    input  wire [AW-1:0] src,
    input  wire [AW-1:0] dst,
    input  wire [10:0]   len,
    output wire          busy,
    output reg           done,
    output wire          mem_req,
    output wire          mem_we,
    output wire [AW-1:0] mem_addr,
    output wire [7:0]    mem_wdata,
    input  wire          mem_gnt,
    input  wire          mem_rvalid,
    input  wire [7:0]    mem_rdata,
    output wire          crc_init,
    output wire          crc_step,
    output wire [7:0]    crc_byte
);
    localparam IDLE = 2'd0, RD = 2'd1, RD_WAIT = 2'd2, WR = 2'd3;

    reg  [1:0]    state;
    reg  [10:0]   left;
    reg  [7:0]    byte_q;
    reg           crc_q;
    wire [AW-1:0] src_a, dst_a;
    wire          wrote = (state == WR) && mem_gnt;

    addr_gen #(.AW(AW)) u_src (.clk(clk), .rst_n(rst_n), .load(start && state == IDLE), .start(src),
                               .step(wrote), .addr(src_a));
    addr_gen #(.AW(AW)) u_dst (.clk(clk), .rst_n(rst_n), .load(start && state == IDLE), .start(dst),
                               .step(wrote), .addr(dst_a));

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            state  <= IDLE;
            left   <= 11'd0;
            byte_q <= 8'd0;
            crc_q  <= 1'b0;
            done   <= 1'b0;
        end else begin
            done <= 1'b0;
            case (state)
                IDLE: begin
                    if (start) begin
                        left  <= len;
                        crc_q <= crc_en;
                        if (len == 11'd0)
                            done <= 1'b1;
                        else
                            state <= RD;
                    end
                end
                RD: begin
                    if (mem_gnt)
                        state <= RD_WAIT;
                end
                RD_WAIT: begin
                    if (mem_rvalid) begin
                        byte_q <= mem_rdata;
                        state  <= WR;
                    end
                end
                WR: begin
                    if (mem_gnt) begin
                        left <= left - 11'd1;
                        if (left == 11'd1) begin
                            state <= IDLE;
                            done  <= 1'b1;
                        end else begin
                            state <= RD;
                        end
                    end
                end
            endcase
        end
    end

    assign busy      = state != IDLE;
    assign mem_req   = (state == RD) || (state == WR);
    assign mem_we    = state == WR;
    assign mem_addr  = (state == WR) ? dst_a : src_a;
    assign mem_wdata = byte_q;
    assign crc_init  = start && state == IDLE;
    assign crc_step  = crc_q && (state == RD_WAIT) && mem_rvalid;
    assign crc_byte  = mem_rdata;
endmodule
