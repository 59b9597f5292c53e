// Output unit of one router port: switch allocation among the input ports that offer it a flit
// (round robin over inputs, one flit per cycle), virtual-channel allocation for opening packets,
// one credit counter and one allocation flag per output virtual channel, the output register, and
// a sticky flag for credits the downstream returned beyond its buffer space.
//
// A head flit takes the lowest-numbered output channel that is free and has a credit, and holds it
// until the packet's tail (or a single-flit packet, which holds nothing) passes; the flit leaves
// with its channel field rewritten to the output channel. The round-robin pointer moves past the
// input served, so every other input that offers a flit goes first next time.
module noc_output (
    input  wire        clk,
    input  wire        rst_n,
    input  wire [4:0]  want,
    input  wire [17:0] sel_offer,
    input  wire [1:0]  credit_in,
    output wire [4:0]  grant,
    output wire [2:0]  sel,
    output wire        send,
    output wire [1:0]  vc_free,
    output wire [1:0]  vc_credit,
    output wire        vc_pick,
    output wire        tail_sent,
    output reg         credit_err,
    output wire        credit_excess,
    output reg         out_valid,
    output reg  [15:0] out_flit
);
    reg [1:0] held;     // per output channel: a packet holds it
    reg [2:0] rr_ptr;

    wire [2:0] arb_idx;
    wire       arb_any;
    wire [1:0] excess;

    noc_arbiter u_arb (
        .req(want), .ptr(rr_ptr), .grant(grant), .grant_idx(arb_idx), .any(arb_any)
    );

    // the offer: {packet already open, its output channel, the flit}
    wire        sel_open = sel_offer[17];
    wire        sel_ovc  = sel_offer[16];
    wire [15:0] sel_flit = sel_offer[15:0];
    wire [1:0]  ftype    = sel_flit[15:14];

    wire [1:0] usable  = ~held & vc_credit;
    wire       used_vc = sel_open ? sel_ovc : vc_pick;

    assign vc_pick   = !usable[0];
    assign vc_free   = ~held;
    assign sel       = arb_idx;
    assign send      = arb_any;
    assign tail_sent     = send && ftype[1];
    assign credit_excess = |excess;

    noc_credit u_credit0 (
        .clk(clk), .rst_n(rst_n), .consume(send && !used_vc), .refund(credit_in[0]), .avail(vc_credit[0]),
        .excess(excess[0])
    );

    noc_credit u_credit1 (
        .clk(clk), .rst_n(rst_n), .consume(send && used_vc), .refund(credit_in[1]), .avail(vc_credit[1]),
        .excess(excess[1])
    );

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            held       <= 2'b00;
            rr_ptr     <= 3'd0;
            out_valid  <= 1'b0;
            out_flit   <= 16'd0;
            credit_err <= 1'b0;
        end else begin
            out_valid <= send;
            if (credit_excess)
                credit_err <= 1'b1;
            if (send) begin
                out_flit <= {ftype, used_vc, sel_flit[12:0]};
                rr_ptr   <= (arb_idx == 3'd4) ? 3'd0 : arb_idx + 3'd1;
                if (ftype[1])
                    held[used_vc] <= 1'b0;
                else if (!sel_open)
                    held[used_vc] <= 1'b1;
            end
        end
    end
endmodule
