// Synchronous first-word-fall-through FIFO of 2**AW words; `clr` empties it.
module sync_fifo #(parameter W = 8, parameter AW = 4) (
    input  wire          clk,
    input  wire          rst_n,
    input  wire          clr,
    input  wire          push,
    input  wire [W-1:0]  din,
    input  wire          pop,
    output wire [W-1:0]  dout,
    output wire          empty,
    output wire          full,
    output wire [AW:0]   count
);
    localparam DEPTH = 1 << AW;

    reg [W-1:0]  mem [0:DEPTH-1];
    reg [AW-1:0] wp, rp;
    reg [AW:0]   cnt;

    wire do_push = push && !full;
    wire do_pop  = pop && !empty;

    always @(posedge clk) begin
        if (do_push)
            mem[wp] <= din;
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            wp  <= {AW{1'b0}};
            rp  <= {AW{1'b0}};
            cnt <= {(AW + 1){1'b0}};
        end else if (clr) begin
            wp  <= {AW{1'b0}};
            rp  <= {AW{1'b0}};
            cnt <= {(AW + 1){1'b0}};
        end else begin
            if (do_push)
                wp <= wp + 1'b1;
            if (do_pop)
                rp <= rp + 1'b1;
            if (do_push && !do_pop)
                cnt <= cnt + 1'b1;
            else if (do_pop && !do_push)
                cnt <= cnt - 1'b1;
        end
    end

    assign dout  = mem[rp];
    assign empty = (cnt == 0);
    assign full  = (cnt == DEPTH);
    assign count = cnt;
endmodule
