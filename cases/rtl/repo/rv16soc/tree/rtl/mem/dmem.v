// Data memory: 2**AW words of 16 bits, one synchronous read/write port.
module dmem #(parameter AW = 10) (
    input  wire          clk,
    input  wire          en,
    input  wire          we,
    input  wire [AW-1:0] addr,
    input  wire [15:0]   wdata,
    output reg  [15:0]   rdata
);
    reg [15:0] mem [0:(1 << AW) - 1];

    always @(posedge clk) begin
        if (en) begin
            if (we)
                mem[addr] <= wdata;
            rdata <= mem[addr];
        end
    end
endmodule
