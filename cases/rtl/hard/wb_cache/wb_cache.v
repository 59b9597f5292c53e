// Write-back, write-allocate data cache: 4 ways x 4 sets x 4 words of 16 bits (128 bytes) in front
// of a 256-byte memory. The top level only wires the controller to the tag store, the replacement state,
// the data array, the refill and writeback engines and the statistics counters.
module wb_cache (
    input  wire        clk,
    input  wire        rst_n,
    // CPU request channel
    input  wire        req_valid,
    output wire        req_ready,
    input  wire [1:0]  req_op,
    input  wire [7:0]  req_addr,
    input  wire [15:0] req_wdata,
    input  wire [1:0]  req_be,
    // CPU response channel
    output wire        resp_valid,
    input  wire        resp_ready,
    output wire [15:0] resp_rdata,
    output wire        resp_hit,
    // memory line read: address channel, then four data beats
    output wire        mem_ar_valid,
    input  wire        mem_ar_ready,
    output wire [4:0]  mem_ar_addr,
    input  wire        mem_r_valid,
    output wire        mem_r_ready,
    input  wire [15:0] mem_r_data,
    // memory line write: four beats, each carrying the line address
    output wire        mem_w_valid,
    input  wire        mem_w_ready,
    output wire [4:0]  mem_w_addr,
    output wire [15:0] mem_w_data,
    output wire        mem_w_last,
    // statistics
    output wire [15:0] stat_hits,
    output wire [15:0] stat_misses,
    output wire [15:0] stat_wbacks
);
    // tag store
    wire [1:0]   tag_set;
    wire [2:0]   tag_cmp;
    wire [3:0]   tag_hit_vec;
    wire [3:0]   tag_valid;
    wire [3:0]   tag_dirty;
    wire [11:0]  tag_tags;
    wire         tag_fill;
    wire         tag_mark_dirty;
    wire         tag_clean;
    wire         tag_inval;
    wire         tag_inval_set;
    wire [1:0]   tag_way;
    wire [2:0]   tag_new;
    // replacement state
    wire [1:0]   plru_victim;
    wire         plru_touch;
    wire [1:0]   plru_way;
    // data array
    wire [1:0]   dat_rd_way;
    wire [1:0]   dat_rd_word;
    wire [15:0]  dat_rd_data;
    wire [1:0]   dat_ln_way;
    wire [63:0]  dat_ln_data;
    wire         dat_we;
    wire [1:0]   dat_wr_way;
    wire [1:0]   dat_wr_word;
    wire [15:0]  dat_wr_data;
    // refill engine
    wire         rf_start;
    wire [4:0]   rf_addr;
    wire         rf_beat;
    wire [1:0]   rf_beat_idx;
    wire         rf_done;
    // writeback buffer
    wire         wb_push;
    wire [4:0]   wb_push_addr;
    wire         wb_can_push;
    wire         wb_busy;
    wire [4:0]   wb_pend_addr;
    // statistics
    wire         inc_hit;
    wire         inc_miss;
    wire         inc_wb;

    cache_ctrl u_ctrl (
        .clk(clk), .rst_n(rst_n),
        .req_valid(req_valid), .req_ready(req_ready), .req_op(req_op), .req_addr(req_addr),
        .req_wdata(req_wdata), .req_be(req_be),
        .resp_valid(resp_valid), .resp_ready(resp_ready), .resp_rdata(resp_rdata), .resp_hit(resp_hit),
        .tag_set(tag_set), .tag_cmp(tag_cmp), .tag_hit_vec(tag_hit_vec), .tag_dirty(tag_dirty), .tag_tags(tag_tags), .tag_fill(tag_fill), .tag_mark_dirty(tag_mark_dirty),
        .tag_clean(tag_clean), .tag_inval(tag_inval), .tag_inval_set(tag_inval_set), .tag_way(tag_way),
        .tag_new(tag_new),
        .plru_victim(plru_victim), .plru_touch(plru_touch), .plru_way(plru_way),
        .dat_rd_way(dat_rd_way), .dat_rd_word(dat_rd_word), .dat_rd_data(dat_rd_data),
        .dat_ln_way(dat_ln_way), .dat_we(dat_we), .dat_wr_way(dat_wr_way), .dat_wr_word(dat_wr_word),
        .dat_wr_data(dat_wr_data),
        .rf_start(rf_start), .rf_addr(rf_addr), .rf_beat(rf_beat), .rf_beat_idx(rf_beat_idx),
        .rf_done(rf_done), .rf_data(mem_r_data),
        .wb_push(wb_push), .wb_push_addr(wb_push_addr), .wb_can_push(wb_can_push), .wb_busy(wb_busy),
        .inc_hit(inc_hit), .inc_miss(inc_miss), .inc_wb(inc_wb)
    );

    cache_tags u_tags (
        .clk(clk), .rst_n(rst_n),
        .set(tag_set), .cmp_tag(tag_cmp), .hit_vec(tag_hit_vec), .valid_vec(tag_valid),
        .dirty_vec(tag_dirty), .tags(tag_tags),
        .fill(tag_fill), .mark_dirty(tag_mark_dirty), .clean(tag_clean), .inval(tag_inval),
        .inval_set(tag_inval_set), .way(tag_way), .new_tag(tag_new)
    );

    cache_plru u_plru (
        .clk(clk), .rst_n(rst_n),
        .set(tag_set), .valid_vec(tag_valid), .victim(plru_victim),
        .touch(plru_touch), .way(plru_way)
    );

    cache_data u_data (
        .clk(clk), .set(tag_set),
        .rd_way(dat_rd_way), .rd_word(dat_rd_word), .rd_data(dat_rd_data),
        .ln_way(dat_ln_way), .ln_data(dat_ln_data),
        .we(dat_we), .wr_way(dat_wr_way), .wr_word(dat_wr_word), .wr_data(dat_wr_data)
    );

    cache_refill u_refill (
        .clk(clk), .rst_n(rst_n),
        .start(rf_start), .start_addr(rf_addr), .wb_busy(wb_busy), .wb_addr(wb_pend_addr),
        .mem_ar_valid(mem_ar_valid), .mem_ar_ready(mem_ar_ready), .mem_ar_addr(mem_ar_addr),
        .mem_r_valid(mem_r_valid), .mem_r_ready(mem_r_ready),
        .beat(rf_beat), .beat_idx(rf_beat_idx), .done(rf_done)
    );

    cache_wbuf u_wbuf (
        .clk(clk), .rst_n(rst_n),
        .push(wb_push), .push_addr(wb_push_addr), .push_line(dat_ln_data),
        .can_push(wb_can_push), .busy(wb_busy), .pend_addr(wb_pend_addr),
        .mem_w_valid(mem_w_valid), .mem_w_ready(mem_w_ready), .mem_w_addr(mem_w_addr),
        .mem_w_data(mem_w_data), .mem_w_last(mem_w_last)
    );

    cache_stats u_stats (
        .clk(clk), .rst_n(rst_n),
        .inc_hit(inc_hit), .inc_miss(inc_miss), .inc_wb(inc_wb),
        .hits(stat_hits), .misses(stat_misses), .wbacks(stat_wbacks)
    );
endmodule
