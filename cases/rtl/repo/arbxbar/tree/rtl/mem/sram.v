// 128 x 16 single-port memory; read data one cycle after the request.
module sram (
    input  wire        clk,
    input  wire        en,
    input  wire        we,
    input  wire [6:0]  addr,
    input  wire [15:0] wdata,
    output reg  [15:0] rdata
);
    reg [15:0] mem [0:127];

    always @(posedge clk) begin
        if (en) begin
            if (we)
                mem[addr] <= wdata;
            else
                rdata <= mem[addr];
        end
    end
endmodule
