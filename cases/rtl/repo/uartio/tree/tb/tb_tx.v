`timescale 1ns/1ps
// The transmitter on its own at 8 cycles per bit: frame format, bit timing, back-to-back bytes.
module tb_tx;
    reg        clk = 1'b0, rst_n = 1'b0, en = 1'b0, clr = 1'b0;
    reg  [7:0] queue [0:3];
    reg  [2:0] head = 3'd0;
    wire       valid = head < 3'd4;
    wire [7:0] data = queue[head[1:0]];
    wire       pop, txd, idle;
    reg  [7:0] b;
    integer    i, k, t0, errors = 0;

    uart_tx dut (
        .clk(clk), .rst_n(rst_n), .clr(clr), .en(en), .div(16'd8), .valid(valid), .data(data), .pop(pop),
        .txd(txd), .idle(idle)
    );

    always #5 clk = ~clk;
    always @(posedge clk) if (pop) head <= head + 3'd1;

    initial begin
        queue[0] = 8'h55; queue[1] = 8'h01; queue[2] = 8'h80; queue[3] = 8'hc3;
        repeat (2) @(posedge clk);
        rst_n = 1'b1;
        repeat (4) @(posedge clk);
        if (txd !== 1'b1) errors = errors + 1;
        en = 1'b1;
        for (k = 0; k < 4; k = k + 1) begin
            while (txd !== 1'b0) @(posedge clk);
            t0 = $time;
            repeat (4) @(posedge clk);
            for (i = 0; i < 8; i = i + 1) begin
                repeat (8) @(posedge clk);
                b[i] = txd;
            end
            repeat (8) @(posedge clk);
            $display("TRACE frame %0d byte %h stop %b at %0d", k, b, txd, t0 / 10);
            if (b !== queue[k] || txd !== 1'b1) errors = errors + 1;
        end
        repeat (12) @(posedge clk);
        $display("TRACE idle %b", idle);
        if (!idle || txd !== 1'b1) errors = errors + 1;
        if (errors == 0) $display("TEST PASSED");
        else $display("TEST FAILED: %0d mismatches", errors);
        $finish;
    end
endmodule
