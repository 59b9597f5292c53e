// The counter register and its incrementer.
module incr #(parameter W = 4) (
    input  wire [W-1:0] a,
    output wire [W-1:0] y
);
    assign y = a + 1'b1;
endmodule

module counter #(parameter W = 4) (
    input  wire         clk,
    input  wire         rst_n,
    input  wire         en,
    output reg  [W-1:0] q
);
    wire [W-1:0] next;

    incr #(.W(W)) u_incr (.a(q), .y(next));

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            q <= {W{1'b0}};
        else if (en)
            q <= next;
    end
endmodule
