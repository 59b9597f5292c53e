// Router statistics: flits forwarded per output port, packets completed (tails and single-flit
// packets forwarded), stray flits discarded (all input channels), flits taken in per input port, and
// flits lost to a full FIFO (network ports), packets forwarded against the routing rules, and
// credits returned beyond the buffer space (network ports). Several ports may count in the same
// cycle; every counter is 16 bits wide and wraps around. `sel` chooses the counter shown on `data`:
// 0-4 flits forwarded by output port 0-4, 5 all flits forwarded, 6 packets, 7 discarded flits,
// 8-12 flits taken in by input port 0-4, 13 flits lost, 14 misrouted packets, 15 excess credits.
module noc_stats (
    input  wire        clk,
    input  wire        rst_n,
    input  wire [4:0]  sent,
    input  wire [4:0]  tails,
    input  wire [9:0]  dropped,
    input  wire [4:0]  accepted,
    input  wire [3:0]  refused,
    input  wire [4:0]  misrouted,
    input  wire [3:0]  excess,
    input  wire [3:0]  sel,
    output reg  [15:0] data
);
    reg [15:0] port_flits [0:4];
    reg [15:0] port_in [0:4];
    reg [15:0] all_flits;
    reg [15:0] packets;
    reg [15:0] drops;
    reg [15:0] lost;
    reg [15:0] misroutes;
    reg [15:0] excesses;
    integer    p;

    function [3:0] ones;
        input [9:0] v;
        integer n;
        begin
            ones = 4'd0;
            for (n = 0; n < 10; n = n + 1)
                ones = ones + {3'd0, v[n]};
        end
    endfunction

    always @* begin
        case (sel)
            4'd0, 4'd1, 4'd2, 4'd3, 4'd4: data = port_flits[sel[2:0]];
            4'd5:    data = all_flits;
            4'd6:    data = packets;
            4'd7:    data = drops;
            4'd8:    data = port_in[0];
            4'd9:    data = port_in[1];
            4'd10:   data = port_in[2];
            4'd11:   data = port_in[3];
            4'd12:   data = port_in[4];
            4'd13:   data = lost;
            4'd14:   data = misroutes;
            default: data = excesses;
        endcase
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            for (p = 0; p < 5; p = p + 1) begin
                port_flits[p] <= 16'd0;
                port_in[p]    <= 16'd0;
            end
            all_flits <= 16'd0;
            packets   <= 16'd0;
            drops     <= 16'd0;
            lost      <= 16'd0;
            misroutes <= 16'd0;
            excesses  <= 16'd0;
        end else begin
            for (p = 0; p < 5; p = p + 1) begin
                if (sent[p])
                    port_flits[p] <= port_flits[p] + 16'd1;
                if (accepted[p])
                    port_in[p] <= port_in[p] + 16'd1;
            end
            all_flits <= all_flits + {12'd0, ones({5'd0, sent})};
            packets   <= packets + {12'd0, ones({5'd0, tails})};
            drops     <= drops + {12'd0, ones(dropped)};
            lost      <= lost + {12'd0, ones({6'd0, refused})};
            misroutes <= misroutes + {12'd0, ones({5'd0, misrouted})};
            excesses  <= excesses + {12'd0, ones({6'd0, excess})};
        end
    end
endmodule
