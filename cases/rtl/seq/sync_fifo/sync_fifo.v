// Synchronous FIFO, 4 entries of 8 bits, first-word fall-through.
module sync_fifo (
    input  wire       clk,
    input  wire       rst_n,
    input  wire       wr_en,
    input  wire       rd_en,
    input  wire [7:0] wdata,
    output wire [7:0] rdata,
    output wire       full,
    output wire       empty,
    output reg  [2:0] count
);
    localparam [2:0] DEPTH = 3'd4;

    reg [7:0] mem [0:3];
    reg [1:0] wptr;
    reg [1:0] rptr;

    wire do_wr = wr_en && !full;
    wire do_rd = rd_en && !empty;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            wptr  <= 2'd0;
            rptr  <= 2'd0;
            count <= 3'd0;
        end else begin
            if (do_wr)
                wptr <= wptr + 2'd1;
            if (do_rd)
                rptr <= rptr + 2'd1;
            case ({do_wr, do_rd})
                2'b10:   count <= count + 3'd1;
                2'b01:   count <= count - 3'd1;
                default: count <= count;
            endcase
        end
    end

    always @(posedge clk) begin
        if (do_wr)
            mem[wptr] <= wdata;
    end

    assign full  = (count == DEPTH);
    assign empty = (count == 3'd0);
    assign rdata = empty ? 8'h00 : mem[rptr];
endmodule
