// acc.v - accumulator with synchronous clear and an overflow flag.
module acc (
    input  wire       clk,
    input  wire       rst_n,
    input  wire       en,
    input  wire       clr,
    input  wire [3:0] din,
    output reg  [7:0] total,
    output wire       big
);
    assign big = total > 8'd12;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            total <= 8'd0;
        else if (clr)
            total <= 8'd0;
        else if (en)
            total <= total + {4'd0, din};
    end
endmodule
