// One decimal digit of an up/down BCD counter, with carry and borrow to the next digit.
module bcd_digit (
    input  wire       clk,
    input  wire       rst_n,
    input  wire       inc,
    input  wire       dec,
    output reg  [3:0] value,
    output wire       carry,
    output wire       borrow
);
    wire up   = inc && !dec;
    wire down = dec && !inc;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            value <= 4'd0;
        else if (up)
            value <= (value == 4'd9) ? 4'd0 : value + 4'd1;
        else if (down)
            value <= (value == 4'd0) ? 4'd9 : value - 4'd1;
    end

    assign carry  = up && (value == 4'd9);
    assign borrow = down && (value == 4'd0);
endmodule
