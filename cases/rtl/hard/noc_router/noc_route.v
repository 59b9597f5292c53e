// Dimension-order routing for a router at (MY_X, MY_Y) of a 4 x 4 mesh. An XY packet first travels
// along x until its column is reached, then along y; a YX packet (mode 1) first along y, then x.
// At its own router a packet leaves on the local port. East is increasing x, north increasing y.
// Ports: 0 local, 1 north, 2 east, 3 south, 4 west.
module noc_route #(
    parameter [1:0] MY_X = 2'd2,
    parameter [1:0] MY_Y = 2'd1
) (
    input  wire [1:0] dest_x,
    input  wire [1:0] dest_y,
    input  wire       yx,
    output reg  [2:0] port
);
    localparam [2:0] P_LOCAL = 3'd0, P_NORTH = 3'd1, P_EAST = 3'd2, P_SOUTH = 3'd3, P_WEST = 3'd4;

    wire x_done = (dest_x == MY_X);
    wire y_done = (dest_y == MY_Y);

    reg [2:0] x_port;
    reg [2:0] y_port;

    always @* begin
        x_port = (dest_x > MY_X) ? P_EAST : P_WEST;
        y_port = (dest_y > MY_Y) ? P_NORTH : P_SOUTH;
        if (x_done && y_done)
            port = P_LOCAL;
        else if (yx)
            port = y_done ? x_port : y_port;
        else
            port = x_done ? y_port : x_port;
    end
endmodule
