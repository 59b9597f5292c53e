// Shared by the uart system testbenches: clock, reset, bus master tasks with a protocol monitor,
// and a serial frame decoder / driver for the pins. The including module declares nothing of this.
    reg         clk = 1'b0, rst_n = 1'b0;
    reg         req = 1'b0, we = 1'b0;
    reg  [3:0]  addr = 4'h0;
    reg  [15:0] wdata = 16'h0000;
    reg         rxd = 1'b1;
    wire        ack, txd, irq;
    wire [15:0] rdata;
    reg         ack_q = 1'b0;
    integer     errors = 0, proto_errors = 0;

    uart_top dut (
        .clk(clk), .rst_n(rst_n), .req(req), .we(we), .addr(addr), .wdata(wdata), .ack(ack), .rdata(rdata),
        .txd(txd), .rxd(rxd), .irq(irq)
    );

    always #5 clk = ~clk;

    // protocol: one single-cycle ack per request, never an ack without a request
    always @(posedge clk) begin
        if (ack && ack_q) begin
            proto_errors = proto_errors + 1;
            $display("protocol: ack held for more than one cycle");
        end
        if (ack && !req) begin
            proto_errors = proto_errors + 1;
            $display("protocol: ack without a request");
        end
        ack_q <= ack;
    end

    task reset_dut;
        begin
            rst_n = 1'b0;
            repeat (3) @(posedge clk);
            @(negedge clk) rst_n = 1'b1;
        end
    endtask

    task bus_write(input [3:0] a, input [15:0] d);
        integer n;
        begin
            @(negedge clk);
            req = 1'b1; we = 1'b1; addr = a; wdata = d;
            n = 0;
            @(posedge clk);
            while (!ack && n < 16) begin
                n = n + 1;
                @(posedge clk);
            end
            if (!ack) begin
                proto_errors = proto_errors + 1;
                $display("protocol: write to %h not acknowledged", a);
            end
            @(negedge clk);
            req = 1'b0; we = 1'b0;
        end
    endtask

    task bus_read(input [3:0] a, output [15:0] d);
        integer n;
        begin
            @(negedge clk);
            req = 1'b1; we = 1'b0; addr = a;
            n = 0;
            @(posedge clk);
            while (!ack && n < 16) begin
                n = n + 1;
                @(posedge clk);
            end
            if (!ack) begin
                proto_errors = proto_errors + 1;
                $display("protocol: read of %h not acknowledged", a);
            end
            d = rdata;
            @(negedge clk);
            req = 1'b0;
        end
    endtask

    task expect_read(input [3:0] a, input [15:0] want);
        reg [15:0] got;
        begin
            bus_read(a, got);
            $display("TRACE read %h = %h", a, got);
            if (got !== want) begin
                errors = errors + 1;
                $display("mismatch: register %h = %h, expected %h", a, got, want);
            end
        end
    endtask

    // One 8N1 frame from the txd pin: waits (up to `patience` cycles) for the start bit.
    task get_frame(input integer div, input integer patience, output [7:0] b, output reg ok);
        integer i, n;
        begin
            ok = 1'b0; b = 8'h00; n = 0;
            while (txd === 1'b1 && n < patience) begin
                @(posedge clk);
                n = n + 1;
            end
            if (txd === 1'b0) begin
                repeat (div / 2) @(posedge clk);
                ok = (txd === 1'b0);
                for (i = 0; i < 8; i = i + 1) begin
                    repeat (div) @(posedge clk);
                    b[i] = txd;
                end
                repeat (div) @(posedge clk);
                ok = ok && (txd === 1'b1);
            end
        end
    endtask

    // One 8N1 frame onto the rxd pin (`stop` = 0 sends a bad stop bit).
    task put_frame(input integer div, input [7:0] b, input stop);
        integer i;
        begin
            @(negedge clk) rxd = 1'b0;
            repeat (div) @(negedge clk);
            for (i = 0; i < 8; i = i + 1) begin
                rxd = b[i];
                repeat (div) @(negedge clk);
            end
            rxd = stop;
            repeat (div) @(negedge clk);
            rxd = 1'b1;
        end
    endtask

    task finish;
        begin
            if (errors == 0 && proto_errors == 0)
                $display("TEST PASSED");
            else
                $display("TEST FAILED: %0d mismatches, %0d protocol errors", errors, proto_errors);
            $finish;
        end
    endtask
