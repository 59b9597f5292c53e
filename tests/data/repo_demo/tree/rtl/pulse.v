// Rising-edge detector.
module pulse (
    input  wire clk,
    input  wire rst_n,
    input  wire d,
    output wire rise
);
    reg last;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            last <= 1'b0;
        else
            last <= d;
    end

    assign rise = d & ~last;
endmodule
