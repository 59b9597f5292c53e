// 8N1 transmitter: takes a byte from the FIFO when idle and enabled, one bit per `div` cycles.
module uart_tx (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        clr,
    input  wire        en,
    input  wire [15:0] div,
    input  wire        valid,
    input  wire [7:0]  data,
    output reg         pop,
    output reg         txd,
    output wire        idle
);
    reg       busy;
    reg [8:0] sh;
    reg [3:0] left;
    wire      tick;

    baud_gen u_baud (.clk(clk), .rst_n(rst_n), .en(busy), .div(div), .tick(tick));

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            busy <= 1'b0;
            pop  <= 1'b0;
            sh   <= 9'h1ff;
            left <= 4'd0;
            txd  <= 1'b1;
        end else if (clr) begin
            busy <= 1'b0;
            pop  <= 1'b0;
            txd  <= 1'b1;
        end else begin
            pop <= 1'b0;
            if (!busy) begin
                txd <= 1'b1;
                // `!pop`: the FIFO shows its next word one cycle after a pop
                if (en && valid && !pop) begin
                    sh   <= {1'b1, data};
                    left <= 4'd10;
                    busy <= 1'b1;
                    pop  <= 1'b1;
                    txd  <= 1'b0;
                end
            end else if (tick) begin
                txd  <= sh[0];
                sh   <= {1'b1, sh[8:1]};
                left <= left - 4'd1;
                if (left == 4'd1) begin
                    busy <= 1'b0;
                    txd  <= 1'b1;
                end
            end
        end
    end

    assign idle = !busy;
endmodule
