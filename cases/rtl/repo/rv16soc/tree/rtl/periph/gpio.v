// General-purpose I/O: 0x0 OUT (read/write), 0x1 IN (read only, synchronised pins).
module gpio (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        sel,
    input  wire        we,
    input  wire [3:0]  addr,
    input  wire [15:0] wdata,
    output reg  [15:0] rdata,
    input  wire [7:0]  pins_in,
    output wire [7:0]  pins_out
);
    reg [7:0] out_q;
    reg [7:0] in_meta, in_q;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            out_q   <= 8'd0;
            in_meta <= 8'd0;
            in_q    <= 8'd0;
            rdata   <= 16'd0;
        end else begin
            in_meta <= pins_in;
            in_q    <= in_meta;
            if (sel && we && addr == 4'h0)
                out_q <= wdata[7:0];
            if (sel)
                rdata <= (addr == 4'h0) ? {8'd0, out_q} : (addr == 4'h1) ? {8'd0, in_q} : 16'd0;
        end
    end

    assign pins_out = out_q;
endmodule
