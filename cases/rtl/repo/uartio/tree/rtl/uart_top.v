// uartio: a uart with 16-byte TX and RX FIFOs behind a register bus (see rtl/regs/uart_regs.v).
// In loopback the transmitter feeds the receiver and the txd pin stays idle.
module uart_top (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        req,
    input  wire        we,
    input  wire [3:0]  addr,
    input  wire [15:0] wdata,
    output wire        ack,
    output wire [15:0] rdata,
    output wire        txd,
    input  wire        rxd,
    output wire        irq
);
    wire        tx_en, rx_en, loopback, srst;
    wire [15:0] div;
    wire        tx_push, rx_pop, tx_pop;
    wire [7:0]  tx_data, txf_data, rx_data, rx_byte;
    wire        txf_empty, txf_full, rx_empty, rx_full;
    wire        tx_line, tx_idle, rx_valid, rx_ferr;
    wire        rx_line = loopback ? tx_line : rxd;

    uart_regs u_regs (
        .clk(clk), .rst_n(rst_n), .req(req), .we(we), .addr(addr), .wdata(wdata), .ack(ack), .rdata(rdata),
        .tx_en(tx_en), .rx_en(rx_en), .loopback(loopback), .div(div), .srst(srst), .tx_push(tx_push),
        .tx_data(tx_data), .rx_pop(rx_pop), .rx_data(rx_data), .rx_empty(rx_empty), .tx_full(txf_full),
        .tx_empty(txf_empty), .tx_idle(tx_idle && txf_empty), .overrun_set(rx_valid && rx_full),
        .frame_err_set(rx_ferr), .irq(irq)
    );

    sync_fifo #(.W(8), .AW(4)) u_txf (
        .clk(clk), .rst_n(rst_n), .clr(srst), .push(tx_push), .din(tx_data), .pop(tx_pop), .dout(txf_data),
        .empty(txf_empty), .full(txf_full), .count()
    );

    uart_tx u_tx (
        .clk(clk), .rst_n(rst_n), .clr(srst), .en(tx_en), .div(div), .valid(!txf_empty), .data(txf_data),
        .pop(tx_pop), .txd(tx_line), .idle(tx_idle)
    );

    uart_rx u_rx (
        .clk(clk), .rst_n(rst_n), .clr(srst), .en(rx_en), .div(div), .rxd(rx_line), .valid(rx_valid),
        .data(rx_byte), .frame_err(rx_ferr)
    );

    sync_fifo #(.W(8), .AW(4)) u_rxf (
        .clk(clk), .rst_n(rst_n), .clr(srst), .push(rx_valid), .din(rx_byte), .pop(rx_pop), .dout(rx_data),
        .empty(rx_empty), .full(rx_full), .count()
    );

    assign txd = loopback ? 1'b1 : tx_line;
endmodule
