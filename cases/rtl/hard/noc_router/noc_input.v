// Input unit of one router port: two virtual channels, the choice of the one flit the port offers
// to the switch each cycle, the credits returned to the upstream router (one per flit that leaves a
// channel's FIFO, forwarded or discarded, in the next cycle) and the error flags of the port.
//
// A channel's flit is eligible when its packet is open and the output channel the packet holds has
// a credit, or when it opens a packet and its output port has a free channel with a credit. Of two
// eligible channels the port offers the one `lane_ptr` prefers; after a flit is forwarded the
// preference goes to the other channel.
module noc_input #(
    parameter [1:0] MY_X    = 2'd2,
    parameter [1:0] MY_Y    = 2'd1,
    parameter [2:0] PORT_ID = 3'd0
) (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        in_valid,
    input  wire [15:0] in_flit,
    output wire [1:0]  lane_ready,
    output wire        accepted,
    output wire        refused,
    output reg  [1:0]  in_credit,
    output reg         overflow,
    output reg         bad_route,
    output wire        misrouted,
    input  wire [9:0]  ovc_free,
    input  wire [9:0]  ovc_credit,
    input  wire [4:0]  ovc_pick,
    output wire        req,
    output wire [2:0]  req_port,
    output wire [17:0] offer,
    input  wire        grant,
    output wire [1:0]  drop
);
    localparam [2:0] P_LOCAL = 3'd0, P_NORTH = 3'd1, P_EAST = 3'd2, P_SOUTH = 3'd3, P_WEST = 3'd4;

    wire [1:0]  full;
    wire [1:0]  lreq;
    wire [1:0]  lopening;
    wire [5:0]  lport;
    wire [1:0]  lovc;
    wire [31:0] lhead;
    wire [1:0]  lgrant;
    wire [1:0]  eligible;
    reg         lane_ptr;

    genvar v;
    generate
        for (v = 0; v < 2; v = v + 1) begin : g_vc
            localparam [0:0] VC = v;
            wire [2:0] o = lport[3 * v +: 3];
            noc_vc #(.MY_X(MY_X), .MY_Y(MY_Y)) u_vc (
                .clk(clk), .rst_n(rst_n),
                .wr_en(in_valid && (in_flit[13] == VC)), .wr_flit(in_flit), .full(full[v]),
                .req(lreq[v]), .opening(lopening[v]), .port(lport[3 * v +: 3]), .ovc(lovc[v]),
                .head(lhead[16 * v +: 16]), .grant(lgrant[v]), .grant_vc(ovc_pick[o]), .drop(drop[v])
            );
            wire [1:0] out_free   = ovc_free[2 * o +: 2];
            wire [1:0] out_credit = ovc_credit[2 * o +: 2];
            assign eligible[v] = lreq[v] && (lopening[v] ? |(out_free & out_credit) : out_credit[lovc[v]]);
        end
    endgenerate

    wire pick = eligible[lane_ptr] ? lane_ptr : !lane_ptr;

    wire [2:0]  pick_port = lport[3 * pick +: 3];
    wire        pick_open = !lopening[pick];
    wire [15:0] pick_head = lhead[16 * pick +: 16];

    assign lane_ready = ~full;
    assign accepted   = in_valid && !full[in_flit[13]];
    assign refused    = in_valid && full[in_flit[13]];
    assign req        = |eligible;
    assign req_port   = pick_port;
    assign offer      = {pick_open, lovc[pick], pick_head};
    assign lgrant     = {grant && pick, grant && !pick};

    // A packet that arrives on a north or south port travels along y: in XY order it has finished
    // with x and must not turn east or west. One that arrives on an east or west port travels along
    // x: in YX order it has finished with y and must not turn north or south. No packet goes back
    // where it came from (except local to local).
    wire from_x  = (PORT_ID == P_EAST) || (PORT_ID == P_WEST);
    wire from_y  = (PORT_ID == P_NORTH) || (PORT_ID == P_SOUTH);
    wire to_x    = (pick_port == P_EAST) || (pick_port == P_WEST);
    wire to_y    = (pick_port == P_NORTH) || (pick_port == P_SOUTH);
    wire turn    = pick_head[8] ? (from_x && to_y) : (from_y && to_x);
    wire u_turn  = (pick_port == PORT_ID) && (PORT_ID != P_LOCAL);
    wire illegal = !pick_open && (turn || u_turn);

    assign misrouted = grant && illegal;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            lane_ptr  <= 1'b0;
            in_credit <= 2'b00;
            overflow  <= 1'b0;
            bad_route <= 1'b0;
        end else begin
            in_credit <= lgrant | drop;
            if (refused)
                overflow <= 1'b1;
            if (misrouted)
                bad_route <= 1'b1;
            if (grant)
                lane_ptr <= !pick;
        end
    end
endmodule
