// Cache controller: accepts one CPU request at a time, looks it up, runs the miss sequence (victim
// to the writeback buffer, line refill, replay) and the maintenance operations (line clean, flush
// and invalidate; whole-cache clean and flush walks), and returns one response per request.
module cache_ctrl (
    input  wire         clk,
    input  wire         rst_n,
    // CPU side
    input  wire         req_valid,
    output wire         req_ready,
    input  wire [1:0]   req_op,
    input  wire [7:0]   req_addr,
    input  wire [15:0]  req_wdata,
    input  wire [1:0]   req_be,
    output reg          resp_valid,
    input  wire         resp_ready,
    output reg  [15:0]  resp_rdata,
    output reg          resp_hit,
    // tag store
    output wire [1:0]   tag_set,
    output wire [2:0]   tag_cmp,
    input  wire [3:0]   tag_hit_vec,
    input  wire [3:0]   tag_dirty,
    input  wire [11:0]  tag_tags,
    output reg          tag_fill,
    output reg          tag_mark_dirty,
    output reg          tag_clean,
    output reg          tag_inval,
    output reg          tag_inval_set,
    output reg  [1:0]   tag_way,
    output wire [2:0]   tag_new,
    // replacement state
    input  wire [1:0]   plru_victim,
    output reg          plru_touch,
    output wire [1:0]   plru_way,
    // data array
    output wire [1:0]   dat_rd_way,
    output wire [1:0]   dat_rd_word,
    input  wire [15:0]  dat_rd_data,
    output reg  [1:0]   dat_ln_way,
    output reg          dat_we,
    output reg  [1:0]   dat_wr_way,
    output reg  [1:0]   dat_wr_word,
    output reg  [15:0]  dat_wr_data,
    // refill engine
    output reg          rf_start,
    output wire [4:0]   rf_addr,
    input  wire         rf_beat,
    input  wire [1:0]   rf_beat_idx,
    input  wire         rf_done,
    input  wire [15:0]  rf_data,
    // writeback buffer
    output reg          wb_push,
    output reg  [4:0]   wb_push_addr,
    input  wire         wb_can_push,
    input  wire         wb_busy,
    // statistics
    output reg          inc_hit,
    output reg          inc_miss,
    output reg          inc_wb
);
    localparam OP_LOAD = 2'd0, OP_STORE = 2'd1, OP_SWAP = 2'd2, OP_CMO = 2'd3;
    localparam [3:0] CMD_CLEAN = 4'd0, CMD_FLUSH = 4'd1, CMD_INVAL = 4'd2, CMD_CLEAN_ALL = 4'd3,
                     CMD_FLUSH_ALL = 4'd4;
    localparam S_IDLE = 3'd0, S_LOOKUP = 3'd1, S_REFILL = 3'd2, S_WALK = 3'd3, S_DRAIN = 3'd4;

    reg [2:0]  state;
    reg [2:0]  state_nx;
    // the request being served
    reg [1:0]  rq_op;
    reg [7:0]  rq_addr;
    reg [15:0] rq_wdata;
    reg [1:0]  rq_be;
    reg        rq_missed;   // went through a refill: answered as a miss
    reg        rq_found;    // a line maintenance operation found its line
    reg [1:0]  fill_way;
    reg [1:0]  walk_set;
    reg        walk_inval;  // the walk invalidates (flush all) rather than only cleaning

    wire [2:0] rq_tag  = rq_addr[7:5];
    wire [1:0] rq_set  = rq_addr[4:3];
    wire [1:0] rq_word = rq_addr[2:1];
    wire [3:0] rq_cmd  = rq_wdata[3:0];   // maintenance command

    assign req_ready = (state == S_IDLE) && (!resp_valid || resp_ready);
    wire accept = req_valid && req_ready;

    // lookup of the request's set (or of the walked set)
    wire       hit       = |tag_hit_vec;
    wire [1:0] hit_way   = {tag_hit_vec[3] | tag_hit_vec[2], tag_hit_vec[3] | tag_hit_vec[1]};
    wire [3:0] dirty_vec = tag_dirty;   // a dirty way is always valid (cache_tags)
    wire       hit_dirty = |(tag_hit_vec & tag_dirty);

    wire [1:0] victim_way   = plru_victim;
    wire       victim_dirty = dirty_vec[victim_way];
    wire [2:0] victim_tag   = tag_tags[3 * victim_way +: 3];

    wire       walk_found = |dirty_vec;
    wire [1:0] walk_way   = dirty_vec[0] ? 2'd0 : dirty_vec[1] ? 2'd1 : dirty_vec[2] ? 2'd2 : 2'd3;
    wire [2:0] walk_tag   = tag_tags[3 * walk_way +: 3];
    wire       walk_last  = (walk_set == 2'd3);

    // a store writes the enabled bytes over the word it hits
    wire [15:0] merged;
    assign merged[7:0]  = rq_be[0] ? rq_wdata[7:0]  : dat_rd_data[7:0];
    assign merged[15:8] = rq_be[1] ? rq_wdata[15:8] : dat_rd_data[15:8];

    assign tag_set     = (state == S_WALK) ? walk_set : rq_set;
    assign tag_cmp     = rq_tag;
    assign tag_new     = rq_tag;
    assign plru_way    = hit_way;
    assign dat_rd_way  = hit_way;
    assign dat_rd_word = rq_word;
    assign rf_addr     = {rq_tag, rq_set};

    reg        complete;
    reg [15:0] done_rdata;
    reg        done_hit;

    always @* begin
        state_nx       = state;
        tag_fill       = 1'b0;
        tag_mark_dirty = 1'b0;
        tag_clean      = 1'b0;
        tag_inval      = 1'b0;
        tag_inval_set  = 1'b0;
        tag_way        = hit_way;
        plru_touch     = 1'b0;
        dat_ln_way     = hit_way;
        dat_we         = 1'b0;
        dat_wr_way     = hit_way;
        dat_wr_word    = rq_word;
        dat_wr_data    = merged;
        rf_start       = 1'b0;
        wb_push        = 1'b0;
        wb_push_addr   = {rq_tag, rq_set};
        inc_hit        = 1'b0;
        inc_miss       = 1'b0;
        inc_wb         = 1'b0;
        complete       = 1'b0;
        done_rdata     = 16'd0;
        done_hit       = 1'b0;
        case (state)
            S_IDLE: begin
                if (accept)
                    state_nx = S_LOOKUP;
            end
            S_LOOKUP: begin
                if (rq_op != OP_CMO) begin
                    if (hit) begin
                        if (rq_op != OP_LOAD) begin
                            dat_we         = 1'b1;
                            tag_mark_dirty = 1'b1;
                        end
                        plru_touch = 1'b1;
                        inc_hit    = !rq_missed;
                        complete   = 1'b1;
                        done_rdata = (rq_op == OP_STORE) ? 16'd0 : dat_rd_data;
                        done_hit   = !rq_missed;
                        state_nx   = S_IDLE;
                    end else if (!victim_dirty || wb_can_push) begin
                        // the victim leaves for the writeback buffer while its replacement is read
                        dat_ln_way   = victim_way;
                        wb_push      = victim_dirty;
                        wb_push_addr = {victim_tag, rq_set};
                        inc_wb       = victim_dirty;
                        rf_start     = 1'b1;
                        inc_miss     = 1'b1;
                        state_nx     = S_REFILL;
                    end
                end else begin
                    case (rq_cmd)
                        CMD_CLEAN: begin
                            if (!hit_dirty) begin
                                state_nx = S_DRAIN;
                            end else if (wb_can_push) begin
                                wb_push   = 1'b1;
                                inc_wb    = 1'b1;
                                tag_clean = 1'b1;
                                state_nx  = S_DRAIN;
                            end
                        end
                        CMD_FLUSH: begin
                            if (!hit_dirty) begin
                                tag_inval = hit;
                                state_nx  = S_DRAIN;
                            end else if (wb_can_push) begin
                                wb_push   = 1'b1;
                                inc_wb    = 1'b1;
                                tag_inval = 1'b1;
                                state_nx  = S_DRAIN;
                            end
                        end
                        CMD_INVAL: begin
                            tag_inval = hit;
                            state_nx  = S_DRAIN;
                        end
                        CMD_CLEAN_ALL, CMD_FLUSH_ALL: begin
                            state_nx = S_WALK;
                        end
                        default: begin
                            state_nx = S_DRAIN;
                        end
                    endcase
                end
            end
            S_REFILL: begin
                dat_we      = rf_beat;
                dat_wr_way  = fill_way;
                dat_wr_word = rf_beat_idx;
                dat_wr_data = rf_data;
                if (rf_done) begin
                    tag_fill = 1'b1;
                    tag_way  = fill_way;
                    state_nx = S_LOOKUP;
                end
            end
            S_WALK: begin
                tag_way      = walk_way;
                dat_ln_way   = walk_way;
                wb_push_addr = {walk_tag, walk_set};
                if (walk_found) begin
                    if (wb_can_push) begin
                        wb_push   = 1'b1;
                        inc_wb    = 1'b1;
                        tag_inval = walk_inval;
                        tag_clean = !walk_inval;
                    end
                end else begin
                    tag_inval_set = walk_inval;
                    if (walk_last)
                        state_nx = S_DRAIN;
                end
            end
            S_DRAIN: begin
                if (!wb_busy) begin
                    complete = 1'b1;
                    done_hit = rq_found;
                    state_nx = S_IDLE;
                end
            end
            default: state_nx = S_IDLE;
        endcase
    end

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            state      <= S_IDLE;
            resp_valid <= 1'b0;
            resp_rdata <= 16'd0;
            resp_hit   <= 1'b0;
        end else begin
            state <= state_nx;
            if (complete) begin
                resp_valid <= 1'b1;
                resp_rdata <= done_rdata;
                resp_hit   <= done_hit;
            end else if (resp_ready) begin
                resp_valid <= 1'b0;
            end
        end
    end

    // Request registers: written before they are read, so they need no reset.
    always @(posedge clk) begin
        if (accept) begin
            rq_op     <= req_op;
            rq_addr   <= req_addr;
            rq_wdata  <= req_wdata;
            rq_be     <= req_be;
            rq_missed <= 1'b0;
        end
        if (rf_start) begin
            fill_way  <= victim_way;
            rq_missed <= 1'b1;
        end
        if (state == S_LOOKUP) begin
            rq_found   <= hit && (rq_cmd <= CMD_INVAL);
            walk_set   <= 2'd0;
            walk_inval <= (rq_cmd == CMD_FLUSH_ALL);
        end else if (state == S_WALK && !walk_found) begin
            walk_set <= walk_set + 2'd1;
        end
    end
endmodule
