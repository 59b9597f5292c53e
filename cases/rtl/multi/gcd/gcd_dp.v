// Datapath of the subtractive GCD unit: two operand registers and the termination test.
module gcd_dp (
    input  wire       clk,
    input  wire       load,
    input  wire       step,
    input  wire [7:0] a_in,
    input  wire [7:0] b_in,
    output wire       finished,
    output wire [7:0] result
);
    reg [7:0] x;
    reg [7:0] y;

    always @(posedge clk) begin
        if (load) begin
            x <= a_in;
            y <= b_in;
        end else if (step && !finished) begin
            if (x > y)
                x <= x - y;
            else
                y <= y - x;
        end
    end

    assign finished = (x == y) || (x == 8'd0) || (y == 8'd0);
    assign result   = (x == 8'd0) ? y : x;
endmodule
