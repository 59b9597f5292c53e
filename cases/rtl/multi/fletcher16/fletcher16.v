// Fletcher-16 checksum over a byte stream, one byte per valid cycle.
module fletcher16 (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        clear,
    input  wire        valid,
    input  wire [7:0]  data,
    output wire [15:0] checksum
);
    reg  [7:0] sum1;
    reg  [7:0] sum2;
    wire [7:0] next1;
    wire [7:0] next2;

    mod255_add u_sum1 (.a(sum1), .b(data), .s(next1));
    mod255_add u_sum2 (.a(sum2), .b(next1), .s(next2));

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            sum1 <= 8'h00;
            sum2 <= 8'h00;
        end else if (clear) begin
            sum1 <= 8'h00;
            sum2 <= 8'h00;
        end else if (valid) begin
            sum1 <= next1;
            sum2 <= next2;
        end
    end

    assign checksum = {sum2, sum1};
endmodule
