// 8-bit universal shift register with synchronous reset and a change flag.
module shift_reg (
    input  wire       clk,
    input  wire       rst,
    input  wire [1:0] mode,
    input  wire       sin_l,
    input  wire       sin_r,
    input  wire [7:0] din,
    output reg  [7:0] q,
    output wire       sout_l,
    output wire       sout_r,
    output wire       changed
);
    localparam [1:0] HOLD = 2'd0, SHL = 2'd1, SHR = 2'd2, LOAD = 2'd3;

    reg [7:0] nxt;
    reg [7:0] prev;

    always @* begin
        case (mode)
            SHL:     nxt = {q[6:0], sin_l};
            SHR:     nxt = {sin_r, q[7:1]};
            LOAD:    nxt = din;
            default: nxt = q;
        endcase
    end

    always @(posedge clk) begin
        q    <= rst ? 8'h00 : nxt;
        prev <= rst ? 8'h00 : q;
    end

    assign sout_l  = q[7];
    assign sout_r  = q[0];
    assign changed = (q != prev);
endmodule
