// One virtual channel of an input port: its flit FIFO, the wormhole packet state (an open packet
// keeps the output port and output virtual channel it was given until its tail leaves), the route
// of a packet-opening flit, and the disposal of stray flits.
//
// Flit: [15:14] type (00 body, 01 head, 10 tail, 11 single-flit packet), [13] virtual channel;
// on packet-opening flits (head, single) [12:11] destination x, [10:9] destination y and [8] the
// routing order (0 XY, 1 YX).
module noc_vc #(
    parameter [1:0] MY_X = 2'd2,
    parameter [1:0] MY_Y = 2'd1
) (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        wr_en,
    input  wire [15:0] wr_flit,
    output wire        full,
    output wire        req,
    output wire        opening,
    output wire [2:0]  port,
    output wire        ovc,
    output wire [15:0] head,
    input  wire        grant,
    input  wire        grant_vc,
    output wire        drop
);
    wire       empty;
    wire [2:0] rc_port;
    reg        open;     // a packet is in progress: its head has been sent
    reg  [2:0] route;    // the output port of the open packet
    reg        out_vc;   // the output virtual channel of the open packet

    wire opens  = head[14];   // head or single
    wire closes = head[15];   // tail or single

    noc_fifo u_fifo (
        .clk(clk), .rst_n(rst_n),
        .wr_en(wr_en), .wr_flit(wr_flit), .rd_en(grant || drop),
        .head(head), .empty(empty), .full(full)
    );

    noc_route #(.MY_X(MY_X), .MY_Y(MY_Y)) u_route (
        .dest_x(head[12:11]), .dest_y(head[10:9]), .yx(head[8]), .port(rc_port)
    );

    assign req     = !empty && (open || opens);
    assign opening = !open;
    assign port    = open ? route : rc_port;
    assign ovc     = out_vc;
    // a body or tail flit with no open packet belongs to nothing: it is discarded
    assign drop    = !empty && !open && !opens;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            open <= 1'b0;
        else if (grant)
            open <= !closes;
    end

    // route and out_vc are only read while a packet is open, and set when it opens
    always @(posedge clk) begin
        if (grant && !open) begin
            route  <= rc_port;
            out_vc <= grant_vc;
        end
    end
endmodule
