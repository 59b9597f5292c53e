// UART receiver for 8N1 frames at two clock cycles per bit, with a two-flop input synchronizer.
module uart_rx (
    input  wire       clk,
    input  wire       rst_n,
    input  wire       rx,
    output reg  [7:0] data,
    output reg        valid,
    output reg        frame_err,
    output wire       busy
);
    localparam [1:0] IDLE = 2'd0, START = 2'd1, DATA = 2'd2, STOP = 2'd3;

    reg       rx_meta;
    reg       rx_s;
    reg [1:0] state;
    reg       phase;
    reg [2:0] bit_idx;
    reg [7:0] shreg;

    always @(posedge clk) begin
        rx_meta <= rx;
        rx_s    <= rx_meta;
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            state     <= IDLE;
            phase     <= 1'b0;
            bit_idx   <= 3'd0;
            shreg     <= 8'h00;
            data      <= 8'h00;
            valid     <= 1'b0;
            frame_err <= 1'b0;
        end else begin
            valid <= 1'b0;
            case (state)
                IDLE: begin
                    phase <= 1'b0;
                    if (!rx_s)
                        state <= START;
                end
                START: begin
                    if (rx_s) begin
                        state <= IDLE;
                    end else begin
                        state   <= DATA;
                        phase   <= 1'b0;
                        bit_idx <= 3'd0;
                    end
                end
                DATA: begin
                    phase <= ~phase;
                    if (phase) begin
                        shreg   <= {rx_s, shreg[7:1]};
                        bit_idx <= bit_idx + 3'd1;
                        if (bit_idx == 3'd7)
                            state <= STOP;
                    end
                end
                STOP: begin
                    phase <= ~phase;
                    if (phase) begin
                        state <= IDLE;
                        if (rx_s) begin
                            data      <= shreg;
                            valid     <= 1'b1;
                            frame_err <= 1'b0;
                        end else begin
                            frame_err <= 1'b1;
                        end
                    end
                end
            endcase
        end
    end

    assign busy = (state != IDLE);
endmodule
