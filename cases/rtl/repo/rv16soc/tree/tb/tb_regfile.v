`timescale 1ns/1ps
// The register file: writes, r0 stays zero, both read ports, write-then-read timing.
module tb_regfile;
    reg         clk = 1'b0, we = 1'b0;
    reg  [2:0]  wa = 3'd0, ra = 3'd0, rb = 3'd0;
    reg  [15:0] wd = 16'd0;
    wire [15:0] qa, qb;
    reg  [15:0] model [0:7];
    integer     i, errors = 0;

    regfile dut (.clk(clk), .we(we), .wa(wa), .wd(wd), .ra(ra), .rb(rb), .qa(qa), .qb(qb));

    always #5 clk = ~clk;

    initial begin
        for (i = 0; i < 8; i = i + 1)
            model[i] = 16'd0;
        for (i = 0; i < 8; i = i + 1) begin
            @(negedge clk);
            we = 1'b1; wa = i; wd = 16'h1111 * (i + 1);
            @(posedge clk);
            if (i != 0) model[i] = wd;
        end
        for (i = 0; i < 64; i = i + 1) begin
            @(negedge clk);
            we = (i % 3) == 0; wa = (i * 5) % 8; wd = i * 16'h0101;
            ra = i % 8; rb = (i * 3 + 1) % 8;
            #1;
            $display("TRACE %0d qa=%h qb=%h", i, qa, qb);
            if (qa !== model[ra] || qb !== model[rb]) errors = errors + 1;
            @(posedge clk);
            if (we && wa != 3'd0) model[wa] = wd;
        end
        if (errors == 0) $display("TEST PASSED");
        else $display("TEST FAILED: %0d mismatches", errors);
        $finish;
    end
endmodule
