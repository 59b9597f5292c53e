`timescale 1ns/1ps
// One master at a time, at the corners of the map: 0x00, 0x7f, 0x80, 0xff and between.
module tb_single;
    reg         clk = 1'b0, rst_n = 1'b0;
    reg  [2:0]  m_req = 3'b000, m_we = 3'b000;
    reg  [23:0] m_addr = 24'h0;
    reg  [47:0] m_wdata = 48'h0;
    wire [2:0]  m_gnt, m_rvalid;
    wire [47:0] m_rdata;
    reg  [7:0]  addrs [0:5];
    integer     m, i, n, errors = 0;

    xbar_top dut (
        .clk(clk), .rst_n(rst_n), .m_req(m_req), .m_we(m_we), .m_lock(3'b000), .m_addr(m_addr),
        .m_wdata(m_wdata), .m_gnt(m_gnt), .m_rvalid(m_rvalid), .m_rdata(m_rdata)
    );

    always #5 clk = ~clk;

    task access(input integer mm, input we, input [7:0] a, input [15:0] d, input [15:0] want);
        begin
            @(negedge clk);
            m_req[mm] = 1'b1; m_we[mm] = we; m_addr[mm*8 +: 8] = a; m_wdata[mm*16 +: 16] = d;
            n = 0;
            @(posedge clk);
            while (!m_gnt[mm] && n < 8) begin
                n = n + 1;
                @(posedge clk);
            end
            @(negedge clk) m_req[mm] = 1'b0;
            if (!we) begin
                @(posedge clk);
                $display("TRACE m%0d read %h = %h rvalid=%b", mm, a, m_rdata[mm*16 +: 16], m_rvalid[mm]);
                if (!m_rvalid[mm] || m_rdata[mm*16 +: 16] !== want) begin
                    errors = errors + 1;
                    $display("mismatch: master %0d read %h = %h, expected %h", mm, a, m_rdata[mm*16 +: 16], want);
                end
            end else if (n == 8) begin
                errors = errors + 1;
            end
        end
    endtask

    initial begin
        addrs[0] = 8'h00; addrs[1] = 8'h7f; addrs[2] = 8'h80; addrs[3] = 8'hff; addrs[4] = 8'h41; addrs[5] = 8'hc2;
        repeat (3) @(posedge clk);
        @(negedge clk) rst_n = 1'b1;
        for (m = 0; m < 3; m = m + 1)
            for (i = 0; i < 6; i = i + 1)
                access(m, 1'b1, addrs[i], {m[3:0], 4'h0, addrs[i]}, 16'h0000);
        for (m = 0; m < 3; m = m + 1)
            for (i = 0; i < 6; i = i + 1)
                access(2 - m, 1'b0, addrs[i], 16'h0000, {4'd2, 4'h0, addrs[i]});
        if (errors == 0) $display("TEST PASSED");
        else $display("TEST FAILED: %0d mismatches", errors);
        $finish;
    end
endmodule
