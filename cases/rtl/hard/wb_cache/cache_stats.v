// Statistics: hits (requests served without a refill), misses (refills started) and writebacks
// (lines handed to the writeback buffer). Each counter wraps around at 2^16.
module cache_stats (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        inc_hit,
    input  wire        inc_miss,
    input  wire        inc_wb,
    output reg  [15:0] hits,
    output reg  [15:0] misses,
    output reg  [15:0] wbacks
);
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            hits   <= 16'd0;
            misses <= 16'd0;
            wbacks <= 16'd0;
        end else begin
            if (inc_hit)
                hits <= hits + 16'd1;
            if (inc_miss)
                misses <= misses + 16'd1;
            if (inc_wb)
                wbacks <= wbacks + 16'd1;
        end
    end
endmodule
