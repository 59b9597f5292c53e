// Packet accumulator. mode 0: a plain register stage. mode 1: one output beat per packet, the
// saturated sum of its samples, with `last` set; samples before the last need no free output
// register, the last one does.
module acc #(parameter DW = 8) (
    input  wire          clk,
    input  wire          rst_n,
    input  wire          ce,
    input  wire          mode,
    input  wire          in_valid,
    output wire          in_ready,
    input  wire [DW-1:0] in_data,
    input  wire          in_last,
    output wire          out_valid,
    input  wire          out_ready,
    output wire [DW-1:0] out_data,
    output wire          out_last
);
    localparam SW = DW + 8;

    reg signed [SW-1:0] sum;
    reg                 full, q_last;
    reg        [DW-1:0] q;

    wire                 advance = !full || out_ready;
    wire signed [SW-1:0] total   = sum + {{(SW - DW){in_data[DW-1]}}, in_data};
    wire        [DW-1:0] total_sat;

    sat #(.IW(SW), .OW(DW)) u_sat (.in(total), .out(total_sat));

    assign in_ready  = ce && (advance || (mode && !in_last));
    assign out_valid = full;
    assign out_data  = q;
    assign out_last  = q_last;

    wire take = in_valid && in_ready;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            sum    <= {SW{1'b0}};
            full   <= 1'b0;
            q      <= {DW{1'b0}};
            q_last <= 1'b0;
        end else if (ce) begin
            if (full && out_ready)
                full <= 1'b0;
            if (take) begin
                if (!mode) begin
                    full   <= 1'b1;
                    q      <= in_data;
                    q_last <= in_last;
                end else if (in_last) begin
                    full   <= 1'b1;
                    q      <= total_sat;
                    q_last <= 1'b1;
                    sum    <= {SW{1'b0}};
                end else begin
                    sum <= total;
                end
            end
        end
    end
endmodule
