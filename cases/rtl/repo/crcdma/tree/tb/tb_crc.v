`timescale 1ns/1ps
// The CRC unit against the standard check values: "123456789" -> cbf43926, "a" -> e8b7be43, "" -> 0.
module tb_crc;
    reg         clk = 1'b0, rst_n = 1'b0, init = 1'b0, en = 1'b0;
    reg  [7:0]  data = 8'h00;
    wire [31:0] result;
    reg  [7:0]  text [0:8];
    integer     i, errors = 0;

    crc_unit dut (.clk(clk), .rst_n(rst_n), .init(init), .en(en), .data(data), .result(result));

    always #5 clk = ~clk;

    task check(input [31:0] want);
        begin
            #1;
            $display("TRACE crc %h", result);
            if (result !== want) begin
                errors = errors + 1;
                $display("mismatch: crc %h, expected %h", result, want);
            end
        end
    endtask

    initial begin
        for (i = 0; i < 9; i = i + 1)
            text[i] = "1" + i;
        repeat (2) @(posedge clk);
        @(negedge clk) rst_n = 1'b1;
        check(32'h00000000);
        for (i = 0; i < 9; i = i + 1) begin
            @(negedge clk) en = 1'b1; data = text[i];
        end
        @(negedge clk) en = 1'b0;
        check(32'hcbf43926);
        init = 1'b1;
        @(negedge clk) init = 1'b0;
        check(32'h00000000);
        en = 1'b1; data = "a";
        @(negedge clk) en = 1'b0;
        check(32'he8b7be43);
        if (errors == 0) $display("TEST PASSED");
        else $display("TEST FAILED: %0d mismatches", errors);
        $finish;
    end
endmodule
