// Writeback buffer: holds one evicted or cleaned line and sends it to memory as four beats (word 0
// first, the last beat flagged). A new line may be pushed in the cycle the last beat is accepted.
module cache_wbuf (
    input  wire         clk,
    input  wire         rst_n,
    input  wire         push,
    input  wire [4:0]   push_addr,
    input  wire [63:0]  push_line,
    output wire         can_push,
    output wire         busy,
    output wire [4:0]   pend_addr,
    output wire         mem_w_valid,
    input  wire         mem_w_ready,
    output wire [4:0]   mem_w_addr,
    output wire [15:0]  mem_w_data,
    output wire         mem_w_last
);
    reg         full;
    reg [4:0]   addr_r;
    reg [63:0]  line_r;
    reg [1:0]   cnt;

    wire fire = full && mem_w_ready;
    wire last = (cnt == 2'd3);

    assign can_push    = !full || (fire && last);
    assign busy        = full;
    assign pend_addr   = addr_r;
    assign mem_w_valid = full;
    assign mem_w_addr  = addr_r;
    assign mem_w_data  = line_r[16 * cnt +: 16];
    assign mem_w_last  = full && last;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            full   <= 1'b0;
            addr_r <= 5'd0;
            line_r <= 64'd0;
            cnt    <= 2'd0;
        end else if (push) begin
            full   <= 1'b1;
            addr_r <= push_addr;
            line_r <= push_line;
            cnt    <= 2'd0;
        end else if (fire) begin
            cnt <= cnt + 2'd1;
            if (last)
                full <= 1'b0;
        end
    end
endmodule
