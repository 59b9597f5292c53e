// Register file of the uart.
//
//   0x0 DATA      write: push the TX FIFO; read: pop the RX FIFO (0 when empty)
//   0x1 STATUS    {frame_err, overrun, tx_idle, tx_empty, tx_full, rx_avail}; write 1 to bits 4/5 to clear
//   0x2 CTRL      {srst (write only, self-clearing), loopback, rx_en, tx_en}
//   0x3 DIV       clock cycles per bit (reset 16)
//   0x4 IRQ_EN    {tx_empty, rx_avail}
//   0x5 IRQ_STAT  pending = IRQ_EN & {tx_empty, rx_avail}
module uart_regs (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        req,
    input  wire        we,
    input  wire [3:0]  addr,
    input  wire [15:0] wdata,
    output wire        ack,
    output reg  [15:0] rdata,
    output reg         tx_en,
    output reg         rx_en,
    output reg         loopback,
    output reg  [15:0] div,
    output reg         srst,
    output wire        tx_push,
    output wire [7:0]  tx_data,
    output wire        rx_pop,
    input  wire [7:0]  rx_data,
    input  wire        rx_empty,
    input  wire        tx_full,
    input  wire        tx_empty,
    input  wire        tx_idle,
    input  wire        overrun_set,
    input  wire        frame_err_set,
    output wire        irq
);
    wire accept;

    bus_slave u_slave (.clk(clk), .rst_n(rst_n), .req(req), .ack(ack), .accept(accept));

    wire wr = accept && we;
    wire rd = accept && !we;

    reg        overrun, frame_err;
    reg  [1:0] irq_en;
    wire [1:0] pending = irq_en & {tx_empty, !rx_empty};
    wire [15:0] status = {10'd0, frame_err, overrun, tx_idle, tx_empty, tx_full, !rx_empty};

    assign tx_push = wr && addr == 4'h0;
    assign tx_data = wdata[7:0];
    assign rx_pop  = rd && addr == 4'h0;
    assign irq     = |pending;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            tx_en     <= 1'b0;
            rx_en     <= 1'b0;
            loopback  <= 1'b0;
            div       <= 16'd16;
            srst      <= 1'b0;
            irq_en    <= 2'b00;
            overrun   <= 1'b0;
            frame_err <= 1'b0;
            rdata     <= 16'd0;
        end else begin
            srst <= wr && addr == 4'h2 && wdata[3];
            if (wr && addr == 4'h2) begin
                tx_en    <= wdata[0];
                rx_en    <= wdata[1];
                loopback <= wdata[2];
            end
            if (wr && addr == 4'h3)
                div <= wdata;
            if (wr && addr == 4'h4)
                irq_en <= wdata[1:0];
            if (overrun_set)
                overrun <= 1'b1;
            else if (wr && addr == 4'h1 && wdata[4])
                overrun <= 1'b0;
            if (frame_err_set)
                frame_err <= 1'b1;
            else if (wr && addr == 4'h1 && wdata[5])
                frame_err <= 1'b0;
            if (rd) begin
                case (addr)
                    4'h0:    rdata <= rx_empty ? 16'd0 : {8'd0, rx_data};
                    4'h1:    rdata <= status;
                    4'h2:    rdata <= {13'd0, loopback, rx_en, tx_en};
                    4'h3:    rdata <= div;
                    4'h4:    rdata <= {14'd0, irq_en};
                    4'h5:    rdata <= {14'd0, pending};
                    default: rdata <= 16'd0;
                endcase
            end
        end
    end
endmodule
