// Shared by the crcdma system testbenches: clock, reset, CPU port tasks, DMA helpers.
    reg         clk = 1'b0, rst_n = 1'b0;
    reg         cpu_req = 1'b0, cpu_we = 1'b0;
    reg  [11:0] cpu_addr = 12'h000;
    reg  [15:0] cpu_wdata = 16'h0000;
    wire        cpu_ack, irq;
    wire [15:0] cpu_rdata;
    integer     errors = 0;

    dma_top dut (
        .clk(clk), .rst_n(rst_n), .cpu_req(cpu_req), .cpu_we(cpu_we), .cpu_addr(cpu_addr),
        .cpu_wdata(cpu_wdata), .cpu_ack(cpu_ack), .cpu_rdata(cpu_rdata), .irq(irq)
    );

    always #5 clk = ~clk;

    task reset_dut;
        begin
            rst_n = 1'b0;
            repeat (3) @(posedge clk);
            @(negedge clk) rst_n = 1'b1;
        end
    endtask

    task cpu_write(input [11:0] a, input [15:0] d);
        begin
            @(negedge clk);
            cpu_req = 1'b1; cpu_we = 1'b1; cpu_addr = a; cpu_wdata = d;
            @(negedge clk);
            cpu_req = 1'b0; cpu_we = 1'b0;
            if (!cpu_ack) begin
                errors = errors + 1;
                $display("mismatch: write to %h not acknowledged", a);
            end
        end
    endtask

    task cpu_read(input [11:0] a, output [15:0] d);
        begin
            @(negedge clk);
            cpu_req = 1'b1; cpu_we = 1'b0; cpu_addr = a;
            @(negedge clk);
            cpu_req = 1'b0;
            d = cpu_rdata;
            if (!cpu_ack) begin
                errors = errors + 1;
                $display("mismatch: read of %h not acknowledged", a);
            end
        end
    endtask

    task expect_read(input [11:0] a, input [15:0] want);
        reg [15:0] got;
        begin
            cpu_read(a, got);
            $display("TRACE read %h = %h", a, got);
            if (got !== want) begin
                errors = errors + 1;
                $display("mismatch: %h = %h, expected %h", a, got, want);
            end
        end
    endtask

    // start a transfer and wait for STATUS.done; `cycles` is how long it took
    task dma_run(input [15:0] src, input [15:0] dst, input [15:0] len, input crc, output integer cycles);
        reg [15:0] st;
        begin
            cpu_write(12'h800, src);
            cpu_write(12'h801, dst);
            cpu_write(12'h802, len);
            cpu_write(12'h803, {14'd0, crc, 1'b1});
            cycles = 0;
            st = 16'h0001;
            while (st[1] !== 1'b1 && cycles < 8000) begin
                cpu_read(12'h804, st);
                cycles = cycles + 1;
            end
            $display("TRACE dma %h -> %h len %0d: %0d polls", src, dst, len, cycles);
            if (st[1] !== 1'b1) begin
                errors = errors + 1;
                $display("mismatch: the transfer did not finish");
            end
            cpu_write(12'h804, 16'h0002);
        end
    endtask

    task finish;
        begin
            if (errors == 0) $display("TEST PASSED");
            else $display("TEST FAILED: %0d mismatches", errors);
            $finish;
        end
    endtask
