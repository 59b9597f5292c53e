// edge_count.v - counts rising edges of a sampled input.
module edge_count (
    input  wire       clk,
    input  wire       rst_n,
    input  wire       sig,
    output reg  [5:0] count
);
    reg last;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            last  <= 1'b0;
            count <= 6'd0;
        end else begin
            last <= sig;
            if (sig && !last)
                count <= count + 6'd1;
        end
    end
endmodule
