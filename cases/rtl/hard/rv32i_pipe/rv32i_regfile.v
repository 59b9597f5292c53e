// Register file of the rv32i_pipe core: x1..x31, two read ports, one write port.
// x0 reads as zero and ignores writes. Every register resets to zero.
// A read of the register being written in the same cycle returns the value being written (the
// write-back stage passes its result through to decode), so an instruction three slots behind its
// producer needs no forwarding.
module rv32i_regfile (
    input  wire        clk,
    input  wire        rst_n,
    input  wire [4:0]  raddr1,
    input  wire [4:0]  raddr2,
    output wire [31:0] rdata1,
    output wire [31:0] rdata2,
    input  wire        we,
    input  wire [4:0]  waddr,
    input  wire [31:0] wdata
);
    // The registers as read: entry 0 is the constant x0.
    wire [31:0] x [0:31];

    assign x[0] = 32'd0;

    genvar n;
    generate
        for (n = 1; n < 32; n = n + 1) begin : g_x
            localparam [4:0] INDEX = n;
            reg [31:0] value;

            always @(posedge clk or negedge rst_n) begin
                if (!rst_n)
                    value <= 32'd0;
                else if (we && waddr == INDEX)
                    value <= wdata;
            end

            assign x[n] = value;
        end
    endgenerate

    wire bypass1 = we && (waddr != 5'd0) && (waddr == raddr1);
    wire bypass2 = we && (waddr != 5'd0) && (waddr == raddr2);

    assign rdata1 = bypass1 ? wdata : x[raddr1];
    assign rdata2 = bypass2 ? wdata : x[raddr2];
endmodule
