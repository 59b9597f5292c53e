// Eight 16-bit registers, r0 reads as zero; two read ports, one write port.
module regfile (
    input  wire        clk,
    input  wire        we,
    input  wire [2:0]  wa,
    input  wire [15:0] wd,
    input  wire [2:0]  ra,
    input  wire [2:0]  rb,
    output wire [15:0] qa,
    output wire [15:0] qb
);
    reg [15:0] r [1:7];

    always @(posedge clk) begin
        if (we && wa != 3'd0)
            r[wa] <= wd;
    end

    assign qa = (ra == 3'd0) ? 16'd0 : r[ra];
    assign qb = (rb == 3'd0) ? 16'd0 : r[rb];
endmodule
