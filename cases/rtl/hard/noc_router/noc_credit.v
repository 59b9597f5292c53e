// Credit counter of one output port: how many free flit buffers the downstream input port has.
// Starts full (DEPTH); a sent flit uses one, a returned credit gives one back. A credit returned to
// a full counter (a downstream protocol error) is ignored and reported on `excess`.
module noc_credit #(
    parameter [2:0] DEPTH = 3'd4
) (
    input  wire clk,
    input  wire rst_n,
    input  wire consume,
    input  wire refund,
    output wire avail,
    output wire excess
);
    reg [2:0] cnt;

    assign avail  = (cnt != 3'd0);
    assign excess = refund && !consume && (cnt == DEPTH);

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            cnt <= DEPTH;
        end else begin
            case ({consume, refund})
                2'b10: cnt <= cnt - 3'd1;
                2'b01: if (cnt != DEPTH) cnt <= cnt + 3'd1;
                default: cnt <= cnt;
            endcase
        end
    end
endmodule
