// Shared by the crossbar testbenches: three scripted masters on xbar_top. The including module sets
// localparams OPS (operations per master), ACTIVE (masters 0..ACTIVE-1 take part), SEED, LOCKER (1:
// master 0 runs locked read-write-write sequences on slave 0), SLAVE0 (1: every master targets slave 0)
// and MAXWAIT (cycles a request may wait for its grant; a locked sequence of master 0 may add its
// length).
//
// Each master writes and reads only its own addresses (offset = 3 * r + m) in both slaves, so the
// expected read data is known per master. Checked: read data, rvalid exactly one cycle after a read's
// grant and never otherwise, grants only to requesters, the waiting time, and that nobody else is
// granted slave 0 inside master 0's locked sequence.
    reg         clk = 1'b0, rst_n = 1'b0, running = 1'b0;
    reg  [2:0]  m_req = 3'b000, m_we = 3'b000, m_lock = 3'b000;
    reg  [23:0] m_addr = 24'h0;
    reg  [47:0] m_wdata = 48'h0;
    wire [2:0]  m_gnt, m_rvalid;
    wire [47:0] m_rdata;

    xbar_top dut (
        .clk(clk), .rst_n(rst_n), .m_req(m_req), .m_we(m_we), .m_lock(m_lock), .m_addr(m_addr),
        .m_wdata(m_wdata), .m_gnt(m_gnt), .m_rvalid(m_rvalid), .m_rdata(m_rdata)
    );

    always #5 clk = ~clk;

    reg  [15:0] model [0:2][0:255];
    reg         known [0:2][0:255];
    reg  [31:0] lfsr [0:2];
    reg  [15:0] want_rd [0:2];
    reg         expect_rv [0:2];
    integer     done [0:2], wait_c [0:2], seq [0:2];
    integer     m, i, a, errors = 0, proto_errors = 0, cycles = 0, max_wait = 0;
    reg         in_lock = 1'b0;

    function [31:0] step(input [31:0] s);
        step = {s[30:0], s[31] ^ s[21] ^ s[1] ^ s[0]};
    endfunction

    // the next operation of master mm: its request fields and, for a read, the data it expects
    task next_op(input integer mm);
        reg [31:0] r;
        reg        slave, rd;
        reg [7:0]  ad;
        begin
            lfsr[mm] = step(lfsr[mm]);
            r = lfsr[mm];
            slave = SLAVE0 ? 1'b0 : r[8];
            ad = {slave, 7'd0} + 8'd3 * (r[15:10] % 42) + mm;
            rd = r[0] && known[mm][ad];
            m_lock[mm] <= 1'b0;
            if (LOCKER && mm == 0) begin
                ad = 8'd3 * (done[0] % 3);
                rd = (seq[0] == 0) && known[0][ad];
                m_lock[mm] <= seq[0] != 2;
                seq[0] = (seq[0] + 1) % 3;
            end
            m_req[mm] <= done[mm] < OPS && mm < ACTIVE;
            m_we[mm] <= !rd;
            m_addr[mm*8 +: 8] <= ad;
            m_wdata[mm*16 +: 16] <= r[31:16] ^ {8'h00, ad};
        end
    endtask

    always @(posedge clk) begin
        if (running) begin
            cycles = cycles + 1;
            for (m = 0; m < 3; m = m + 1) begin
                if (m_rvalid[m] !== expect_rv[m]) begin
                    proto_errors = proto_errors + 1;
                    $display("protocol: master %0d rvalid=%b, expected %b", m, m_rvalid[m], expect_rv[m]);
                end else if (expect_rv[m]) begin
                    $display("TRACE m%0d read %h", m, m_rdata[m*16 +: 16]);
                    if (m_rdata[m*16 +: 16] !== want_rd[m]) begin
                        errors = errors + 1;
                        $display("mismatch: master %0d read %h, expected %h", m, m_rdata[m*16 +: 16], want_rd[m]);
                    end
                end
                expect_rv[m] = 1'b0;
                if (m_gnt[m] === 1'bx || (m_gnt[m] && !m_req[m])) begin
                    proto_errors = proto_errors + 1;
                    $display("protocol: master %0d gnt=%b with req=%b", m, m_gnt[m], m_req[m]);
                end
            end
            if (LOCKER && in_lock && m_gnt[1] && !m_addr[15]) begin
                errors = errors + 1;
                $display("mismatch: master 1 granted slave 0 inside a locked sequence");
            end
            if (LOCKER && in_lock && m_gnt[2] && !m_addr[23]) begin
                errors = errors + 1;
                $display("mismatch: master 2 granted slave 0 inside a locked sequence");
            end
            if (LOCKER && m_gnt[0])
                in_lock = m_lock[0];
            for (m = 0; m < 3; m = m + 1) begin
                if (m_req[m] && m_gnt[m] === 1'b1) begin
                    a = m_addr[m*8 +: 8];
                    $display("TRACE m%0d %s %h", m, m_we[m] ? "write" : "read ", a);
                    if (m_we[m]) begin
                        model[m][a] = m_wdata[m*16 +: 16];
                        known[m][a] = 1'b1;
                    end else begin
                        expect_rv[m] = 1'b1;
                        want_rd[m] = model[m][a];
                    end
                    if (wait_c[m] > max_wait) max_wait = wait_c[m];
                    wait_c[m] = 0;
                    done[m] = done[m] + 1;
                    next_op(m);
                end else if (m_req[m]) begin
                    wait_c[m] = wait_c[m] + 1;
                    if (wait_c[m] == MAXWAIT + 1) begin
                        errors = errors + 1;
                        $display("mismatch: master %0d waits more than %0d cycles for a grant", m, MAXWAIT);
                    end
                end
            end
        end
    end

    initial begin
        for (m = 0; m < 3; m = m + 1) begin
            for (i = 0; i < 256; i = i + 1) begin
                model[m][i] = 16'h0000;
                known[m][i] = 1'b0;
            end
            lfsr[m] = SEED ^ (32'h0101_0101 * (m + 1));
            done[m] = (m < ACTIVE) ? 0 : OPS;
            wait_c[m] = 0;
            seq[m] = 0;
            expect_rv[m] = 1'b0;
        end
        repeat (3) @(posedge clk);
        @(negedge clk) rst_n = 1'b1;
        @(negedge clk);
        for (m = 0; m < 3; m = m + 1)
            next_op(m);
        @(negedge clk) running = 1'b1;
        while ((done[0] < OPS || done[1] < OPS || done[2] < OPS) && cycles < 40 * OPS)
            @(posedge clk);
        repeat (4) @(posedge clk);
        $display("TRACE longest wait %0d", max_wait);
        if (done[0] < OPS || done[1] < OPS || done[2] < OPS) begin
            errors = errors + 1;
            $display("mismatch: operations done %0d %0d %0d of %0d", done[0], done[1], done[2], OPS);
        end
        if (errors == 0 && proto_errors == 0)
            $display("TEST PASSED");
        else
            $display("TEST FAILED: %0d mismatches, %0d protocol errors", errors, proto_errors);
        $finish;
    end
