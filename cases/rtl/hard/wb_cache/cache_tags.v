// Tag store: per line a 3-bit tag, a valid bit and a dirty bit, 4 ways x 4 sets. One set is looked
// up combinationally; at most one update command is applied per clock to one way of that set. A
// dirty line is always valid: a fill makes a line clean, an invalidation clears both bits.
module cache_tags (
    input  wire        clk,
    input  wire        rst_n,
    input  wire [1:0]  set,
    input  wire [2:0]  cmp_tag,
    output wire [3:0]  hit_vec,
    output wire [3:0]  valid_vec,
    output wire [3:0]  dirty_vec,
    output wire [11:0] tags,
    input  wire        fill,
    input  wire        mark_dirty,
    input  wire        clean,
    input  wire        inval,
    input  wire        inval_set,
    input  wire [1:0]  way,
    input  wire [2:0]  new_tag
);
    reg [2:0]  tag_mem [0:15];
    reg [15:0] valid;
    reg [15:0] dirty;

    wire [3:0] base = {set, 2'b00};
    wire [3:0] line = {set, way};

    genvar w;
    generate
        for (w = 0; w < 4; w = w + 1) begin : g_way
            localparam [1:0] W = w;
            wire [3:0] idx = {set, W};
            assign tags[3*w +: 3] = tag_mem[idx];
            assign valid_vec[w]   = valid[idx];
            assign dirty_vec[w]   = dirty[idx];
            assign hit_vec[w]     = valid[idx] && (tag_mem[idx] == cmp_tag);
        end
    endgenerate

    always @(posedge clk) begin
        if (fill)
            tag_mem[line] <= new_tag;
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            valid <= 16'd0;
            dirty <= 16'd0;
        end else if (inval_set) begin
            // used by the flush-all walk once no way of the set is dirty any more
            valid[base]        <= 1'b0;
            valid[base + 4'd1] <= 1'b0;
            valid[base + 4'd2] <= 1'b0;
            valid[base + 4'd3] <= 1'b0;
        end else if (fill) begin
            valid[line] <= 1'b1;
            dirty[line] <= 1'b0;
        end else if (inval) begin
            valid[line] <= 1'b0;
            dirty[line] <= 1'b0;
        end else if (mark_dirty) begin
            dirty[line] <= 1'b1;
        end else if (clean) begin
            dirty[line] <= 1'b0;
        end
    end
endmodule
