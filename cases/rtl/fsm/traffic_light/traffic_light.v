// Two-road traffic light controller with a car sensor on the east-west road and a pedestrian
// request button. Lights are {red, yellow, green}, one-hot.
module traffic_light (
    input  wire       clk,
    input  wire       rst,
    input  wire       car_ew,
    input  wire       ped,
    output reg  [2:0] ns,
    output reg  [2:0] ew,
    output reg        walk
);
    localparam [2:0] NS_GO = 3'd0, NS_WARN = 3'd1, NS_STOP = 3'd2,
                     EW_GO = 3'd3, EW_WARN = 3'd4, EW_STOP = 3'd5;
    localparam [2:0] GREEN = 3'b001, YELLOW = 3'b010, RED = 3'b100;

    reg [2:0] state;
    reg [2:0] timer;
    reg       ped_req;

    wire leave = (state == NS_GO)   ? (timer >= 3'd3 && (car_ew || ped_req)) :
                 (state == NS_WARN) ? (timer >= 3'd1) :
                 (state == EW_GO)   ? (timer >= 3'd4) :
                 (state == EW_WARN) ? (timer >= 3'd1) :
                 1'b1;

    always @(posedge clk) begin
        if (rst) begin
            state   <= NS_GO;
            timer   <= 3'd0;
            ped_req <= 1'b0;
        end else begin
            if (ped)
                ped_req <= 1'b1;
            else if (state == EW_GO && leave)
                ped_req <= 1'b0;
            if (leave) begin
                timer <= 3'd0;
                case (state)
                    NS_GO:   state <= NS_WARN;
                    NS_WARN: state <= NS_STOP;
                    NS_STOP: state <= EW_GO;
                    EW_GO:   state <= EW_WARN;
                    EW_WARN: state <= EW_STOP;
                    default: state <= NS_GO;
                endcase
            end else begin
                timer <= timer + 3'd1;
            end
        end
    end

    always @* begin
        ns   = RED;
        ew   = RED;
        walk = 1'b0;
        case (state)
            NS_GO:   ns = GREEN;
            NS_WARN: ns = YELLOW;
            NS_STOP: ;
            EW_GO: begin
                ew   = GREEN;
                walk = ped_req;
            end
            EW_WARN: ew = YELLOW;
            EW_STOP: ;
            default: begin
                ns = YELLOW;
                ew = YELLOW;
            end
        endcase
    end
endmodule
