// Loadable up/down counter with terminal-count flag.
module updown_counter #(
    parameter WIDTH = 4
) (
    input  wire             clk,
    input  wire             rst_n,
    input  wire             en,
    input  wire             up,
    input  wire             load,
    input  wire [WIDTH-1:0] din,
    output reg  [WIDTH-1:0] count,
    output wire             tc
);
    localparam [WIDTH-1:0] MAX = {WIDTH{1'b1}};

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            count <= {WIDTH{1'b0}};
        else if (load)
            count <= din;
        else if (en && up)
            count <= count + 1'b1;
        else if (en)
            count <= count - 1'b1;
    end

    // Terminal count: the next enabled step wraps around.
    assign tc = en & (up ? (count == MAX) : (count == {WIDTH{1'b0}}));
endmodule
