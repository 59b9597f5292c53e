// Five-port wormhole mesh router with two virtual channels per port and credit-based flow control.
// Ports: 0 local, 1 north, 2 east, 3 south, 4 west. The four network ports are credit-based links:
// the flits of port p travel on bits [16(p-1)+15:16(p-1)] of the flit buses, the credits of its
// channel v on bit 2(p-1)+v of the credit buses. The local port is the node's interface: a flit is
// injected in a cycle with inj_valid and inj_ready[v] both 1, v being its channel (inj_ready[v]:
// channel v's FIFO has room), and ejected through a queue with a valid/ready handshake.
// Each input channel has a four-flit FIFO; each output channel a credit counter for the
// downstream FIFO. The router sits at (MY_X, MY_Y) of a 4 x 4 mesh.
module noc_router #(
    parameter [1:0] MY_X = 2'd2,
    parameter [1:0] MY_Y = 2'd1
) (
    input  wire        clk,
    input  wire        rst_n,
    // network input ports: flits from the neighbours, credits back to them
    input  wire [3:0]  in_valid,
    input  wire [63:0] in_flit,
    output wire [7:0]  in_credit,
    // network output ports: flits to the neighbours, credits from them
    output wire [3:0]  out_valid,
    output wire [63:0] out_flit,
    input  wire [7:0]  out_credit,
    // local port
    input  wire        inj_valid,
    output wire [1:0]  inj_ready,
    input  wire [15:0] inj_flit,
    output wire        ej_valid,
    input  wire        ej_ready,
    output wire [15:0] ej_flit,
    // status
    output wire [3:0]  err_overflow,
    output wire [4:0]  err_route,
    output wire [3:0]  err_credit,
    input  wire [3:0]  stat_sel,
    output wire [15:0] stat_data
);
    // every port on 5-wide buses, the local port at index 0
    wire [4:0]  p_in_valid  = {in_valid, inj_valid};
    wire [79:0] p_in_flit   = {in_flit, inj_flit};
    wire [9:0]  p_in_credit;
    wire [9:0]  p_lane_ready;
    wire [4:0]  p_accepted;
    wire [4:0]  p_refused;
    wire [4:0]  p_misrouted;
    wire [4:0]  p_excess;
    wire [4:0]  p_overflow;
    wire [4:0]  p_out_valid;
    wire [79:0] p_out_flit;
    wire [1:0]  ej_credit;
    wire [9:0]  p_out_credit = {out_credit, ej_credit};
    wire [4:0]  p_credit_err;

    assign in_credit    = p_in_credit[9:2];
    assign inj_ready    = p_lane_ready[1:0];
    assign err_overflow = p_overflow[4:1];
    assign out_valid    = p_out_valid[4:1];
    assign out_flit     = p_out_flit[79:16];
    assign err_credit   = p_credit_err[4:1];

    wire [4:0]  req;
    wire [14:0] req_port;
    wire [89:0] offer;
    wire [4:0]  grant;
    wire [9:0]  drop;
    wire [24:0] grant_m;   // bit 5o+i: output o serves input i
    wire [14:0] sel;
    wire [89:0] picked;
    wire [4:0]  send;
    wire [4:0]  tail_sent;
    wire [9:0]  ovc_free;
    wire [9:0]  ovc_credit;
    wire [4:0]  ovc_pick;

    genvar i, o, j;
    generate
        for (i = 0; i < 5; i = i + 1) begin : g_in
            localparam [2:0] PORT = i;
            noc_input #(.MY_X(MY_X), .MY_Y(MY_Y), .PORT_ID(PORT)) u_in (
                .clk(clk), .rst_n(rst_n),
                .in_valid(p_in_valid[i]), .in_flit(p_in_flit[16 * i +: 16]), .lane_ready(p_lane_ready[2 * i +: 2]),
                .accepted(p_accepted[i]), .refused(p_refused[i]),
                .in_credit(p_in_credit[2 * i +: 2]), .overflow(p_overflow[i]), .bad_route(err_route[i]),
                .misrouted(p_misrouted[i]),
                .ovc_free(ovc_free), .ovc_credit(ovc_credit), .ovc_pick(ovc_pick),
                .req(req[i]), .req_port(req_port[3 * i +: 3]), .offer(offer[18 * i +: 18]),
                .grant(grant[i]), .drop(drop[2 * i +: 2])
            );
            // an input offers one flit to one output at a time, so at most one of these is set
            assign grant[i] = grant_m[i] | grant_m[5 + i] | grant_m[10 + i] | grant_m[15 + i] | grant_m[20 + i];
        end

        for (o = 0; o < 5; o = o + 1) begin : g_out
            localparam [2:0] PORT = o;
            wire [4:0] want;
            for (j = 0; j < 5; j = j + 1) begin : g_want
                assign want[j] = req[j] && (req_port[3 * j +: 3] == PORT);
            end
            noc_output u_out (
                .clk(clk), .rst_n(rst_n),
                .want(want), .sel_offer(picked[18 * o +: 18]), .credit_in(p_out_credit[2 * o +: 2]),
                .grant(grant_m[5 * o +: 5]), .sel(sel[3 * o +: 3]), .send(send[o]),
                .vc_free(ovc_free[2 * o +: 2]), .vc_credit(ovc_credit[2 * o +: 2]), .vc_pick(ovc_pick[o]),
                .tail_sent(tail_sent[o]), .credit_err(p_credit_err[o]), .credit_excess(p_excess[o]),
                .out_valid(p_out_valid[o]), .out_flit(p_out_flit[16 * o +: 16])
            );
        end
    endgenerate

    noc_xbar u_xbar (
        .offers(offer), .sel(sel), .picked(picked)
    );

    noc_eject u_eject (
        .clk(clk), .rst_n(rst_n),
        .in_valid(p_out_valid[0]), .in_flit(p_out_flit[15:0]), .credit(ej_credit),
        .ej_valid(ej_valid), .ej_ready(ej_ready), .ej_flit(ej_flit)
    );

    noc_stats u_stats (
        .clk(clk), .rst_n(rst_n), .sent(send), .tails(tail_sent), .dropped(drop),
        .accepted(p_accepted), .refused(p_refused[4:1]), .misrouted(p_misrouted), .excess(p_excess[4:1]),
        .sel(stat_sel), .data(stat_data)
    );
endmodule
