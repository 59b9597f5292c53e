// Flit FIFO of one virtual channel: four entries, circular, with an occupancy count. A write to a full
// FIFO is refused (the caller reports it); a read and a write may happen in the same cycle.
module noc_fifo (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        wr_en,
    input  wire [15:0] wr_flit,
    input  wire        rd_en,
    output wire [15:0] head,
    output wire        empty,
    output wire        full
);
    reg [15:0] slot [0:3];
    reg [1:0]  wr_ptr;
    reg [1:0]  rd_ptr;
    reg [2:0]  used;

    wire do_wr = wr_en && !full;
    wire do_rd = rd_en && !empty;

    assign head  = slot[rd_ptr];
    assign empty = (used == 3'd0);
    assign full  = (used == 3'd4);

    always @(posedge clk) begin
        if (do_wr)
            slot[wr_ptr] <= wr_flit;
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            wr_ptr <= 2'd0;
            rd_ptr <= 2'd0;
            used   <= 3'd0;
        end else begin
            if (do_wr)
                wr_ptr <= wr_ptr + 2'd1;
            if (do_rd)
                rd_ptr <= rd_ptr + 2'd1;
            case ({do_wr, do_rd})
                2'b10:   used <= used + 3'd1;
                2'b01:   used <= used - 3'd1;
                default: used <= used;
            endcase
        end
    end
endmodule
