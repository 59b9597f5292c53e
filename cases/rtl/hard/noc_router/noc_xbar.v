// 5 x 5 crossbar of offers ({open, output channel, flit}, 18 bits): output port o carries the
// offer of the input port sel[3o+2:3o].
module noc_xbar (
    input  wire [89:0] offers,
    input  wire [14:0] sel,
    output wire [89:0] picked
);
    genvar o;
    generate
        for (o = 0; o < 5; o = o + 1) begin : g_out
            wire [2:0] s = sel[3 * o +: 3];
            reg [17:0] f;
            always @* begin
                case (s)
                    3'd0:    f = offers[17:0];
                    3'd1:    f = offers[35:18];
                    3'd2:    f = offers[53:36];
                    3'd3:    f = offers[71:54];
                    3'd4:    f = offers[89:72];
                    default: f = 18'd0;
                endcase
            end
            assign picked[18 * o +: 18] = f;
        end
    endgenerate
endmodule
