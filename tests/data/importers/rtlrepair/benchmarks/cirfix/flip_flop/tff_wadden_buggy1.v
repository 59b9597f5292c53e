// toggle flip-flop with a synchronous active-low reset
module tff (
    input  clk,
    input  rstn,
    input  t,
    output reg q
);
    always @(posedge clk) begin
        if (!rstn)
            q <= 1'b0;
        else if (!t)
            q <= ~q;
    end
endmodule
