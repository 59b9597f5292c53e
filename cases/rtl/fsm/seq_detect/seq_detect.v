// Moore detector for the serial pattern 1011, overlapping matches allowed, with a hit counter.
module seq_detect (
    input  wire       clk,
    input  wire       rst_n,
    input  wire       din,
    output wire       hit,
    output reg  [3:0] hits
);
    localparam [2:0] S0 = 3'd0, S1 = 3'd1, S10 = 3'd2, S101 = 3'd3, S1011 = 3'd4;

    reg [2:0] state;
    reg [2:0] nxt;

    always @* begin
        case (state)
            S0:      nxt = din ? S1    : S0;
            S1:      nxt = din ? S1    : S10;
            S10:     nxt = din ? S101  : S0;
            S101:    nxt = din ? S1011 : S10;
            S1011:   nxt = din ? S1    : S10;
            default: nxt = S0;
        endcase
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            state <= S0;
            hits  <= 4'd0;
        end else begin
            state <= nxt;
            if (nxt == S1011 && hits != 4'hF)
                hits <= hits + 4'd1;
        end
    end

    assign hit = (state == S1011);
endmodule
