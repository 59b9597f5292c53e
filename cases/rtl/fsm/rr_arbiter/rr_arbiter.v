// Four-way round-robin arbiter with a registered one-hot grant.
module rr_arbiter (
    input  wire       clk,
    input  wire       rst_n,
    input  wire [3:0] req,
    output reg  [3:0] grant,
    output wire       any
);
    reg [1:0] last;
    reg [3:0] nxt;
    reg [1:0] win;
    reg [1:0] idx;
    reg       found;
    integer   k;

    // Search the requesters in order last+1, last+2, last+3, last (modulo 4).
    always @* begin
        nxt   = 4'b0000;
        win   = last;
        found = 1'b0;
        for (k = 1; k <= 4; k = k + 1) begin
            idx = last + k[1:0];
            if (!found && req[idx]) begin
                nxt[idx] = 1'b1;
                win      = idx;
                found    = 1'b1;
            end
        end
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            grant <= 4'b0000;
            last  <= 2'd3;
        end else begin
            grant <= nxt;
            if (found)
                last <= win;
        end
    end

    assign any = |grant;
endmodule
