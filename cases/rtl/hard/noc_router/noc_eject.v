// Ejection queue of the local port: flits the router delivers to its own node wait here until the
// node takes them (valid/ready). Eight entries, four per virtual channel: the local output's credit
// counters count this queue's space, and a credit goes back on the channel of each flit the node
// takes (in the next cycle), so the queue never overflows.
module noc_eject (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        in_valid,
    input  wire [15:0] in_flit,
    output reg  [1:0]  credit,
    output wire        ej_valid,
    input  wire        ej_ready,
    output wire [15:0] ej_flit
);
    reg [15:0] q [0:7];
    reg [2:0]  wr_ptr;
    reg [2:0]  rd_ptr;
    reg [3:0]  used;

    wire push = in_valid && (used != 4'd8);
    wire pop  = ej_valid && ej_ready;

    assign ej_valid = (used != 4'd0);
    assign ej_flit  = q[rd_ptr];

    always @(posedge clk) begin
        if (push)
            q[wr_ptr] <= in_flit;
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            wr_ptr <= 3'd0;
            rd_ptr <= 3'd0;
            used   <= 4'd0;
            credit <= 2'b00;
        end else begin
            credit <= {pop && ej_flit[13], pop && !ej_flit[13]};
            if (push)
                wr_ptr <= wr_ptr + 3'd1;
            if (pop)
                rd_ptr <= rd_ptr + 3'd1;
            if (push && !pop)
                used <= used + 4'd1;
            else if (pop && !push)
                used <= used - 4'd1;
        end
    end
endmodule
