// 8 x 8-bit register file: two asynchronous read ports, one write port, x0 reads as zero,
// and write-to-read bypass so a read sees the value being written in the same cycle.
module regfile (
    input  wire       clk,
    input  wire       we,
    input  wire [2:0] waddr,
    input  wire [7:0] wdata,
    input  wire [2:0] raddr_a,
    input  wire [2:0] raddr_b,
    output wire [7:0] rdata_a,
    output wire [7:0] rdata_b
);
    reg [7:0] regs [1:7];

    always @(posedge clk) begin
        if (we && waddr != 3'd0)
            regs[waddr] <= wdata;
    end

    wire hit_a = we && (waddr == raddr_a);
    wire hit_b = we && (waddr == raddr_b);

    assign rdata_a = (raddr_a == 3'd0) ? 8'h00 : (hit_a ? wdata : regs[raddr_a]);
    assign rdata_b = (raddr_b == 3'd0) ? 8'h00 : (hit_b ? wdata : regs[raddr_b]);
endmodule
