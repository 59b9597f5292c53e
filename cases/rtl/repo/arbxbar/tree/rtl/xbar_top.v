// arbxbar: three masters, two 128-word memories, a crossbar in between.
module xbar_top (
    input  wire        clk,
    input  wire        rst_n,
    input  wire [2:0]  m_req,
    input  wire [2:0]  m_we,
    input  wire [2:0]  m_lock,
    input  wire [23:0] m_addr,
    input  wire [47:0] m_wdata,
    output wire [2:0]  m_gnt,
    output wire [2:0]  m_rvalid,
    output wire [47:0] m_rdata
);
    localparam NM = 3, IW = 2;

    wire [1:0]  s_en, s_we;
    wire [13:0] s_addr;
    wire [31:0] s_wdata, s_rdata;

    xbar #(.NM(NM), .IW(IW)) u_xbar (
        .clk(clk), .rst_n(rst_n), .m_req(m_req), .m_we(m_we), .m_lock(m_lock), .m_addr(m_addr),
        .m_wdata(m_wdata), .m_gnt(m_gnt), .m_rvalid(m_rvalid), .m_rdata(m_rdata), .s_en(s_en), .s_we(s_we),
        .s_addr(s_addr), .s_wdata(s_wdata), .s_rdata(s_rdata)
    );

    sram u_mem0 (
        .clk(clk), .en(s_en[0]), .we(s_we[0]), .addr(s_addr[6:0]), .wdata(s_wdata[15:0]), .rdata(s_rdata[15:0])
    );

    sram u_mem1 (
        .clk(clk), .en(s_en[1]), .we(s_we[1]), .addr(s_addr[13:7]), .wdata(s_wdata[31:16]),
        .rdata(s_rdata[31:16])
    );
endmodule
