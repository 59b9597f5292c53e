// 8N1 receiver: finds the start bit's falling edge, samples every bit in its middle.
// A frame whose stop bit is low is dropped with `frame_err`; the receiver then waits for the line to
// go idle (high) before it looks for the next start bit, so a break is not taken for new frames.
module uart_rx (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        clr,
    input  wire        en,
    input  wire [15:0] div,
    input  wire        rxd,
    output reg         valid,
    output reg  [7:0]  data,
    output reg         frame_err
);
    localparam IDLE = 3'd0, START = 3'd1, DATA = 3'd2, STOP = 3'd3, WAIT_IDLE = 3'd4;

    reg [2:0]  state;
    reg [1:0]  sync;
    reg [15:0] cnt;
    reg [2:0]  bits;
    reg [7:0]  sh;

    wire line = sync[1];

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            sync <= 2'b11;
        else
            sync <= {sync[0], rxd};
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            state     <= IDLE;
            cnt       <= 16'd0;
            bits      <= 3'd0;
            sh        <= 8'd0;
            data      <= 8'd0;
            valid     <= 1'b0;
            frame_err <= 1'b0;
        end else if (clr) begin
            state     <= IDLE;
            valid     <= 1'b0;
            frame_err <= 1'b0;
        end else begin
            valid     <= 1'b0;
            frame_err <= 1'b0;
            case (state)
                IDLE: begin
                    cnt <= 16'd0;
                    if (en && !line)
                        state <= START;
                end
                START: begin
                    if (cnt == (div >> 1) - 16'd1) begin
                        cnt   <= 16'd0;
                        bits  <= 3'd0;
                        state <= line ? IDLE : DATA;
                    end else begin
                        cnt <= cnt + 16'd1;
                    end
                end
                DATA: begin
                    if (cnt == div - 16'd1) begin
                        cnt  <= 16'd0;
                        sh   <= {line, sh[7:1]};
                        bits <= bits + 3'd1;
                        if (bits == 3'd7)
                            state <= STOP;
                    end else begin
                        cnt <= cnt + 16'd1;
                    end
                end
                STOP: begin
                    if (cnt == div - 16'd1) begin
                        cnt <= 16'd0;
                        if (line) begin
                            data  <= sh;
                            valid <= 1'b1;
                            state <= IDLE;
                        end else begin
                            frame_err <= 1'b1;
                            state     <= WAIT_IDLE;
                        end
                    end else begin
                        cnt <= cnt + 16'd1;
                    end
                end
                WAIT_IDLE: begin
                    if (line)
                        state <= IDLE;
                end
                default: state <= IDLE;
            endcase
        end
    end
endmodule
