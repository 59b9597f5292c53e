// Refill engine: sends one line address on the read address channel, then accepts four data beats
// (word 0 first; the beat counter wraps back to 0 with the fourth). The address is held back while
// the writeback buffer still owes memory the same line, so a refill never reads stale data.
module cache_refill (
    input  wire       clk,
    input  wire       rst_n,
    input  wire       start,
    input  wire [4:0] start_addr,
    input  wire       wb_busy,
    input  wire [4:0] wb_addr,
    output wire       mem_ar_valid,
    input  wire       mem_ar_ready,
    output wire [4:0] mem_ar_addr,
    input  wire       mem_r_valid,
    output wire       mem_r_ready,
    output wire       beat,
    output wire [1:0] beat_idx,
    output wire       done
);
    localparam P_IDLE = 2'd0, P_ADDR = 2'd1, P_DATA = 2'd2;

    reg [1:0] phase;
    reg [4:0] addr_r;
    reg [1:0] cnt;

    wire hazard = wb_busy && (wb_addr == addr_r);

    assign mem_ar_valid = (phase == P_ADDR) && !hazard;
    assign mem_ar_addr  = addr_r;
    assign mem_r_ready  = (phase == P_DATA);
    assign beat         = mem_r_ready && mem_r_valid;
    assign beat_idx     = cnt;
    assign done         = beat && (cnt == 2'd3);

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            phase  <= P_IDLE;
            addr_r <= 5'd0;
            cnt    <= 2'd0;
        end else begin
            case (phase)
                P_IDLE: begin
                    if (start) begin
                        phase  <= P_ADDR;
                        addr_r <= start_addr;
                    end
                end
                P_ADDR: begin
                    if (mem_ar_valid && mem_ar_ready)
                        phase <= P_DATA;
                end
                P_DATA: begin
                    if (beat) begin
                        cnt <= cnt + 2'd1;
                        if (cnt == 2'd3)
                            phase <= P_IDLE;
                    end
                end
                default: phase <= P_IDLE;
            endcase
        end
    end
endmodule
