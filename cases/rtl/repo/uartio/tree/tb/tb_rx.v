`timescale 1ns/1ps
// The receiver on its own at 8 cycles per bit: good frames, a frame with a low stop bit followed by a
// break (the line held low), then a good frame again.
module tb_rx;
    reg        clk = 1'b0, rst_n = 1'b0, rxd = 1'b1;
    wire       valid, frame_err;
    wire [7:0] data;
    integer    i, got = 0, ferr = 0, errors = 0;
    reg  [7:0] want [0:2];

    uart_rx dut (
        .clk(clk), .rst_n(rst_n), .clr(1'b0), .en(1'b1), .div(16'd8), .rxd(rxd), .valid(valid), .data(data),
        .frame_err(frame_err)
    );

    always #5 clk = ~clk;

    always @(posedge clk) begin
        if (valid) begin
            $display("TRACE byte %h", data);
            if (got > 2 || data !== want[got]) errors = errors + 1;
            got = got + 1;
        end
        if (frame_err) begin
            $display("TRACE frame error");
            ferr = ferr + 1;
        end
    end

    task send(input [7:0] b, input stop);
        begin
            @(negedge clk) rxd = 1'b0;
            repeat (8) @(negedge clk);
            for (i = 0; i < 8; i = i + 1) begin
                rxd = b[i];
                repeat (8) @(negedge clk);
            end
            rxd = stop;
            repeat (8) @(negedge clk);
        end
    endtask

    initial begin
        want[0] = 8'h55; want[1] = 8'ha3; want[2] = 8'h3c;
        repeat (2) @(posedge clk);
        rst_n = 1'b1;
        repeat (5) @(negedge clk);
        send(8'h55, 1'b1);
        rxd = 1'b1;
        send(8'ha3, 1'b1);
        rxd = 1'b1;
        repeat (3) @(negedge clk);
        send(8'h00, 1'b0);
        repeat (8 * 20) @(negedge clk);
        rxd = 1'b1;
        repeat (8 * 2) @(negedge clk);
        send(8'h3c, 1'b1);
        rxd = 1'b1;
        repeat (30) @(negedge clk);
        if (got != 3 || ferr != 1) begin
            errors = errors + 1;
            $display("mismatch: %0d bytes and %0d frame errors, expected 3 and 1", got, ferr);
        end
        if (errors == 0) $display("TEST PASSED");
        else $display("TEST FAILED: %0d mismatches", errors);
        $finish;
    end
endmodule
