// Top level: the counter and its wrap flag.
module top (
    input  wire       clk,
    input  wire       rst_n,
    input  wire       en,
    output wire [3:0] count,
    output wire       wrap
);
    counter #(.W(4)) u_cnt (
        .clk   (clk),
        .rst_n (rst_n),
        .en    (en),
        .q     (count)
    );

    assign wrap = en && (count == 4'hf);
endmodule
