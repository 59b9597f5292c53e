// UART transmitter: 8 data bits, no parity, one stop bit (8N1), two clock cycles per bit.
module uart_tx (
    input  wire       clk,
    input  wire       rst_n,
    input  wire       start,
    input  wire [7:0] data,
    output reg        tx,
    output wire       busy,
    output reg        done
);
    localparam [1:0] IDLE = 2'd0, START = 2'd1, DATA = 2'd2, STOP = 2'd3;

    reg [1:0] state;
    reg       phase;
    reg [2:0] bit_idx;
    reg [7:0] shreg;

    // Each bit lasts two cycles; phase is 1 in the second one.
    wire bit_end = phase;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            state   <= IDLE;
            phase   <= 1'b0;
            bit_idx <= 3'd0;
            shreg   <= 8'h00;
            tx      <= 1'b1;
            done    <= 1'b0;
        end else begin
            done  <= 1'b0;
            phase <= (state == IDLE) ? 1'b0 : ~phase;
            case (state)
                IDLE: begin
                    if (start) begin
                        shreg <= data;
                        tx    <= 1'b0;
                        state <= START;
                    end
                end
                START: begin
                    if (bit_end) begin
                        tx      <= shreg[0];
                        bit_idx <= 3'd0;
                        state   <= DATA;
                    end
                end
                DATA: begin
                    if (bit_end) begin
                        if (bit_idx == 3'd7) begin
                            tx    <= 1'b1;
                            state <= STOP;
                        end else begin
                            bit_idx <= bit_idx + 3'd1;
                            shreg   <= {1'b0, shreg[7:1]};
                            tx      <= shreg[1];
                        end
                    end
                end
                STOP: begin
                    if (bit_end) begin
                        done  <= 1'b1;
                        state <= IDLE;
                    end
                end
            endcase
        end
    end

    assign busy = (state != IDLE);
endmodule
