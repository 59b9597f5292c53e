// Address counter of one DMA side: loads a start address, steps by one byte, wraps at 2**AW.
module addr_gen #(parameter AW = 10) (
    input  wire          clk,
    input  wire          rst_n,
    input  wire          load,
    input  wire [AW-1:0] start,
    input  wire          step,
    output reg  [AW-1:0] addr
);
    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            addr <= {AW{1'b0}};
        else if (load)
            addr <= start;
        else if (step)
            addr <= addr + 1'b1;
    end
endmodule
