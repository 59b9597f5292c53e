// DMA registers: 0x0 SRC, 0x1 DST, 0x2 LEN (bytes, up to 1024), 0x3 CTRL {crc_en, start (write only)},
// 0x4 STATUS {done (write 1 to clear), busy}, 0x5 CRC[15:0], 0x6 CRC[31:16].
// Accesses take one cycle: read data is valid in the cycle after the request.
module dma_regs #(parameter AW = 10) (
    input  wire          clk,
    input  wire          rst_n,
    input  wire          sel,
    input  wire          we,
    input  wire [3:0]    addr,
    input  wire [15:0]   wdata,
    output reg  [15:0]   rdata,
    output reg  [AW-1:0] src,
    output reg  [AW-1:0] dst,
    output reg  [10:0]   len,
    output reg           crc_en,
    output wire          start,
    output wire          start_crc,
    input  wire          busy,
    input  wire          done_set,
    input  wire [31:0]   crc
);
    reg done;

    // CTRL = {crc_en, start}: a start takes crc_en from the same write
    assign start     = sel && we && addr == 4'h3 && wdata[0] && !busy;
    assign start_crc = wdata[1];

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            src    <= {AW{1'b0}};
            dst    <= {AW{1'b0}};
            len    <= 11'd0;
            crc_en <= 1'b0;
            done   <= 1'b0;
            rdata  <= 16'd0;
        end else begin
            if (sel && we) begin
                case (addr)
                    4'h0: src <= wdata[AW-1:0];
                    4'h1: dst <= wdata[AW-1:0];
                    4'h2: len <= wdata[10:0];
                    4'h3: crc_en <= wdata[1];
                    default: ;
                endcase
            end
            if (done_set)
                done <= 1'b1;
            else if (start || (sel && we && addr == 4'h4 && wdata[1]))
                done <= 1'b0;
            if (sel && !we) begin
                case (addr)
                    4'h0: rdata <= src;
                    4'h1: rdata <= dst;
                    4'h2: rdata <= len;
                    4'h3: rdata <= {14'd0, crc_en, 1'b0};
                    4'h4: rdata <= {14'd0, done, busy};
                    4'h5: rdata <= crc[15:0];
                    4'h6: rdata <= crc[31:16];
                    default: rdata <= 16'd0;
                endcase
            end
        end
    end
endmodule
