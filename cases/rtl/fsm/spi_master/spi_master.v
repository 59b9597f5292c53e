// SPI master, mode 0 (clock idles low, data sampled on the rising edge), 8-bit transfers,
// most significant bit first, SCLK = clk / 2.
module spi_master (
    input  wire       clk,
    input  wire       rst_n,
    input  wire       start,
    input  wire [7:0] tx_data,
    input  wire       miso,
    output reg        sclk,
    output reg        mosi,
    output reg        cs_n,
    output reg  [7:0] rx_data,
    output reg        done,
    output wire       busy
);
    localparam [1:0] IDLE = 2'd0, XFER = 2'd1, FINISH = 2'd2;

    reg [1:0] state;
    reg [3:0] edges;
    reg [7:0] tx_sh;
    reg [7:0] rx_sh;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            state   <= IDLE;
            edges   <= 4'd0;
            tx_sh   <= 8'h00;
            rx_sh   <= 8'h00;
            sclk    <= 1'b0;
            mosi    <= 1'b0;
            cs_n    <= 1'b1;
            rx_data <= 8'h00;
            done    <= 1'b0;
        end else begin
            done <= 1'b0;
            case (state)
                IDLE: begin
                    sclk <= 1'b0;
                    if (start) begin
                        tx_sh <= tx_data;
                        mosi  <= tx_data[7];
                        cs_n  <= 1'b0;
                        edges <= 4'd0;
                        state <= XFER;
                    end
                end
                XFER: begin
                    sclk  <= ~sclk;
                    edges <= edges + 4'd1;
                    if (!sclk) begin
                        // rising SCLK edge: sample
                        rx_sh <= {rx_sh[6:0], miso};
                    end else if (edges == 4'd15) begin
                        state <= FINISH;
                    end else begin
                        // falling SCLK edge: present the next bit
                        tx_sh <= {tx_sh[6:0], 1'b0};
                        mosi  <= tx_sh[6];
                    end
                end
                FINISH: begin
                    cs_n    <= 1'b1;
                    rx_data <= rx_sh;
                    done    <= 1'b1;
                    state   <= IDLE;
                end
                default: state <= IDLE;
            endcase
        end
    end

    assign busy = (state != IDLE);
endmodule
