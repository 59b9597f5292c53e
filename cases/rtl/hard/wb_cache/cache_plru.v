// Tree pseudo-LRU replacement, three bits per set. Bit 0 chooses the half (0: ways 0-1, 1: ways
// 2-3), bit 1 the way within the low half, bit 2 the way within the high half; each bit points at
// the side to replace next. An invalid way is always chosen first (the lowest-numbered one).
module cache_plru (
    input  wire       clk,
    input  wire       rst_n,
    input  wire [1:0] set,
    input  wire [3:0] valid_vec,
    output wire [1:0] victim,
    input  wire       touch,
    input  wire [1:0] way
);
    reg [2:0] bits [0:3];
    integer i;

    wire [2:0] cur = bits[set];
    wire [1:0] tree_way = cur[0] ? {1'b1, cur[2]} : {1'b0, cur[1]};

    reg [1:0] free_way;
    always @* begin
        if (!valid_vec[0])
            free_way = 2'd0;
        else if (!valid_vec[1])
            free_way = 2'd1;
        else if (!valid_vec[2])
            free_way = 2'd2;
        else
            free_way = 2'd3;
    end

    assign victim = (&valid_vec) ? tree_way : free_way;

    // The bits on the path to the touched way are set to point away from it.
    reg [2:0] touched;
    always @* begin
        touched = cur;
        touched[0] = ~way[1];
        if (way[1])
            touched[2] = ~way[0];
        else
            touched[1] = ~way[0];
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            for (i = 0; i < 4; i = i + 1)
                bits[i] <= 3'b000;
        end else if (touch) begin
            bits[set] <= touched;
        end
    end
endmodule
