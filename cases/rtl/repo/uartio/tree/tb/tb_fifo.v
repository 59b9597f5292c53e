`timescale 1ns/1ps
// The FIFO on its own: fill to sixteen, refuse a seventeenth, drain in order, interleave, clear.
module tb_fifo;
    reg        clk = 1'b0, rst_n = 1'b0, clr = 1'b0, push = 1'b0, pop = 1'b0;
    reg  [7:0] din = 8'h00;
    wire [7:0] dout;
    wire       empty, full;
    wire [4:0] count;
    integer    i, errors = 0;

    sync_fifo #(.W(8), .AW(4)) dut (
        .clk(clk), .rst_n(rst_n), .clr(clr), .push(push), .din(din), .pop(pop), .dout(dout), .empty(empty),
        .full(full), .count(count)
    );

    always #5 clk = ~clk;

    task step(input p, input q, input [7:0] d);
        begin
            @(negedge clk);
            push = p; pop = q; din = d;
            @(posedge clk);
            #1;
            push = 1'b0; pop = 1'b0;
            $display("TRACE count=%0d empty=%b full=%b dout=%h", count, empty, full, dout);
        end
    endtask

    task expect_state(input [4:0] n, input e, input f);
        begin
            if (count !== n || empty !== e || full !== f) begin
                errors = errors + 1;
                $display("mismatch: count=%0d empty=%b full=%b, expected %0d %b %b", count, empty, full, n, e, f);
            end
        end
    endtask

    initial begin
        repeat (2) @(posedge clk);
        rst_n = 1'b1;
        expect_state(5'd0, 1'b1, 1'b0);
        for (i = 0; i < 16; i = i + 1) begin
            step(1'b1, 1'b0, 8'h10 + i);
            expect_state(i + 1, 1'b0, i == 15);
        end
        step(1'b1, 1'b0, 8'hee);
        expect_state(5'd16, 1'b0, 1'b1);
        for (i = 0; i < 16; i = i + 1) begin
            if (dout !== 8'h10 + i) begin
                errors = errors + 1;
                $display("mismatch: dout=%h, expected %h", dout, 8'h10 + i);
            end
            step(1'b0, 1'b1, 8'h00);
        end
        expect_state(5'd0, 1'b1, 1'b0);
        for (i = 0; i < 20; i = i + 1)
            step(1'b1, i > 2, 8'h40 + i);
        expect_state(5'd3, 1'b0, 1'b0);
        @(negedge clk) clr = 1'b1;
        @(negedge clk) clr = 1'b0;
        expect_state(5'd0, 1'b1, 1'b0);
        if (errors == 0) $display("TEST PASSED");
        else $display("TEST FAILED: %0d mismatches", errors);
        $finish;
    end
endmodule
