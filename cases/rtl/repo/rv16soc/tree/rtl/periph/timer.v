// Timer: 0x0 COUNT (read only), 0x1 CMP, 0x2 CTRL {flag (write 1 to clear), enable}.
// COUNT advances every cycle while enabled; the flag sets when COUNT equals CMP.
module timer (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        sel,
    input  wire        we,
    input  wire [3:0]  addr,
    input  wire [15:0] wdata,
    output reg  [15:0] rdata
);
    reg [15:0] count, cmp;
    reg        enable, flag;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            count  <= 16'd0;
            cmp    <= 16'hffff;
            enable <= 1'b0;
            flag   <= 1'b0;
            rdata  <= 16'd0;
        end else begin
            if (enable)
                count <= count + 16'd1;
            if (enable && count == cmp)
                flag <= 1'b1;
            if (sel && we && addr == 4'h1)
                cmp <= wdata;
            if (sel && we && addr == 4'h2) begin
                enable <= wdata[0];
                if (wdata[1])
                    flag <= 1'b0;
            end
            if (sel)
                rdata <= (addr == 4'h0) ? count : (addr == 4'h1) ? cmp :
                         (addr == 4'h2) ? {14'd0, flag, enable} : 16'd0;
        end
    end
endmodule
