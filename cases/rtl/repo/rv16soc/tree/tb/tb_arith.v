`timescale 1ns/1ps
// Runs sw/arith.s on the soc: traces every register write-back and gpio change, checks the result.
module tb_arith;
    reg         clk = 1'b0, rst_n = 1'b0;
    reg  [15:0] rom [0:4095];
    wire [11:0] imem_addr;
    wire [15:0] imem_data = rom[imem_addr];
    reg  [7:0]  gpio_in = 8'h5a;
    wire [7:0]  gpio_out;
    wire        dbg_we, halted;
    wire [2:0]  dbg_rd;
    wire [15:0] dbg_data;
    reg  [7:0]  last_out = 8'h00;
    integer     i, cycles = 0, writes = 0;

    soc dut (
        .clk(clk), .rst_n(rst_n), .imem_addr(imem_addr), .imem_data(imem_data), .gpio_in(gpio_in),
        .gpio_out(gpio_out), .dbg_we(dbg_we), .dbg_rd(dbg_rd), .dbg_data(dbg_data), .halted(halted)
    );

    always #5 clk = ~clk;

    always @(posedge clk) begin
        if (rst_n) begin
            cycles = cycles + 1;
            if (dbg_we) begin
                writes = writes + 1;
                $display("TRACE wb r%0d=%h", dbg_rd, dbg_data);
            end
            if (gpio_out !== last_out) begin
                $display("TRACE gpio %h", gpio_out);
                last_out = gpio_out;
            end
        end
    end

    initial begin
        for (i = 0; i < 4096; i = i + 1)
            rom[i] = 16'hf000;
        rom[0] = 16'h2217;  // ldi  r1, 23
        rom[1] = 16'h25fb;  // ldi  r2, -5
        rom[2] = 16'h0650;  // add  r3, r1, r2
        rom[3] = 16'h08c9;  // sub  r4, r3, r1
        rom[4] = 16'h0b1c;  // xor  r5, r4, r3
        rom[5] = 16'h2c03;  // ldi  r6, 3
        rom[6] = 16'h0b75;  // shl  r5, r5, r6
        rom[7] = 16'h0d0f;  // slt  r6, r4, r1
        rom[8] = 16'h0b70;  // add  r5, r5, r6
        rom[9] = 16'h0753;  // or   r3, r5, r2
        rom[10] = 16'h08ca;  // and  r4, r3, r1
        rom[11] = 16'h0936;  // shr  r4, r4, r6
        rom[12] = 16'h1909;  // addi r4, r4, 9
        rom[13] = 16'h0c57;  // slt  r6, r1, r2
        rom[14] = 16'h0930;  // add  r4, r4, r6
        rom[15] = 16'h8f00;  // lui  r7, 0x100
        rom[16] = 16'h0328;  // add  r1, r4, r5
        rom[17] = 16'h43c0;  // sw   r1, 0(r7)
        rom[18] = 16'hf000;  // halt
        repeat (3) @(posedge clk);
        rst_n = 1'b1;
        while (!halted && cycles < 2380)
            @(posedge clk);
        repeat (2) @(posedge clk);
        if (!halted)
            $display("TEST FAILED: no halt within 2380 cycles");
        else if (gpio_out !== 8'h5b)
            $display("TEST FAILED: gpio_out = %h, expected 5b", gpio_out);
        else if (writes != 17)
            $display("TEST FAILED: %0d register writes, expected 17", writes);
        else
            $display("TEST PASSED");
        $finish;
    end
endmodule
