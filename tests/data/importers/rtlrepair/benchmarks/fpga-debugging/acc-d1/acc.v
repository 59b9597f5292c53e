`timescale 1ns / 1ps
// 8-bit accumulator: adds `d` while `en` is high; `rst` clears it
module acc (
    input            clk,
    input            rst,
    input            en,
    input      [7:0] d,
    output reg [7:0] sum,
    output reg       valid
);
    always @(posedge clk) begin
        if (rst) begin
            sum <= 8'd0;
            valid <= 1'b0;
        end else if (en) begin
            sum <= sum + d;
            valid <= 1'b1;
        end
    end
endmodule
