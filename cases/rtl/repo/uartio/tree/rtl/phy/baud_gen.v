// Bit-period timer: `tick` is high in the last cycle of every `div`-cycle period while enabled.
module baud_gen (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        en,
    input  wire [15:0] div,
    output wire        tick
);
    reg [15:0] cnt;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            cnt <= 16'd0;
        else if (!en || tick)
            cnt <= 16'd0;
        else
            cnt <= cnt + 16'd1;
    end

    assign tick = en && (cnt == div - 16'd1);
endmodule
