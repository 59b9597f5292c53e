// Crossbar from NM masters to two slaves, one round-robin arbiter per slave.
//
// Master side, per master: req/we/lock/addr/wdata held until gnt; a granted read returns
// rvalid/rdata in the next cycle. Masters are packed into flat vectors, master m at bits [m*W +: W].
module xbar #(parameter NM = 3, parameter IW = 2) (
    input  wire             clk,
    input  wire             rst_n,
    input  wire [NM-1:0]    m_req,
    input  wire [NM-1:0]    m_we,
    input  wire [NM-1:0]    m_lock,
    input  wire [NM*8-1:0]  m_addr,
    input  wire [NM*16-1:0] m_wdata,
    output wire [NM-1:0]    m_gnt,
    output reg  [NM-1:0]    m_rvalid,
    output reg  [NM*16-1:0] m_rdata,
    output wire [1:0]       s_en,
    output wire [1:0]       s_we,
    output wire [13:0]      s_addr,
    output wire [31:0]      s_wdata,
    input  wire [31:0]      s_rdata
);
    wire [NM-1:0] target;
    wire [NM*7-1:0] offset;

    genvar m, s;
    generate
        for (m = 0; m < NM; m = m + 1) begin : g_dec
            addr_dec u_dec (.addr(m_addr[m*8 +: 8]), .slave(target[m]), .offset(offset[m*7 +: 7]));
        end
    endgenerate

    wire [NM-1:0] gnt_s [0:1];
    wire [IW-1:0] idx_s [0:1];
    reg  [IW-1:0] owner_q [0:1];
    reg  [1:0]    pending_q;

    generate
        for (s = 0; s < 2; s = s + 1) begin : g_slave
            wire [NM-1:0] want = m_req & ((s == 0) ? ~target : target);
            wire          busy;

            rr_arb #(.N(NM), .IW(IW)) u_arb (
                .clk(clk), .rst_n(rst_n), .req(want), .lock(m_lock), .grant(gnt_s[s]), .grant_idx(idx_s[s]),
                .any(busy)
            );

            assign s_en[s]             = busy;
            assign s_we[s]             = m_we[idx_s[s]];
            assign s_addr[s*7 +: 7]    = offset[idx_s[s]*7 +: 7];
            assign s_wdata[s*16 +: 16] = m_wdata[idx_s[s]*16 +: 16];

            always @(posedge clk or negedge rst_n) begin
                if (!rst_n) begin
                    owner_q[s]   <= {IW{1'b0}};
                    pending_q[s] <= 1'b0;
                end else begin
                    owner_q[s]   <= idx_s[s];
                    pending_q[s] <= busy && !m_we[idx_s[s]];
                end
            end
        end
    endgenerate

    assign m_gnt = gnt_s[0] | gnt_s[1];

    integer i;
    always @* begin
        m_rvalid = {NM{1'b0}};
        m_rdata  = {(NM * 16){1'b0}};
        for (i = 0; i < 2; i = i + 1) begin
            if (pending_q[i]) begin
                m_rvalid[owner_q[i]]          = 1'b1;
                m_rdata[owner_q[i]*16 +: 16]  = s_rdata[i*16 +: 16];
            end
        end
    end
endmodule
