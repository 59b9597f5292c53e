`timescale 1ns/1ps
// Runs sw/branch.s on the soc: traces every register write-back and gpio change, checks the result.
module tb_branch;
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
        rom[0] = 16'h2200;  // ldi  r1, 0
        rom[1] = 16'h240a;  // ldi  r2, 10
        rom[2] = 16'h2600;  // ldi  r3, 0
        rom[3] = 16'h2c00;  // ldi  r6, 0
        rom[4] = 16'h0250;  // add  r1, r1, r2
        rom[5] = 16'h14bf;  // addi r2, r2, -1
        rom[6] = 16'h64fd;  // bne  r2, r3, loop
        rom[7] = 16'h1d81;  // addi r6, r6, 1
        rom[8] = 16'h2805;  // ldi  r4, 5
        rom[9] = 16'h5902;  // beq  r4, r4, skip
        rom[10] = 16'h1d90;  // addi r6, r6, 16
        rom[11] = 16'h1da0;  // addi r6, r6, 32
        rom[12] = 16'h700e;  // jmp  tail
        rom[13] = 16'h1d88;  // addi r6, r6, 8
        rom[14] = 16'h0270;  // add  r1, r1, r6
        rom[15] = 16'h8f00;  // lui  r7, 0x100
        rom[16] = 16'h43c0;  // sw   r1, 0(r7)
        rom[17] = 16'hf000;  // halt
        repeat (3) @(posedge clk);
        rst_n = 1'b1;
        while (!halted && cycles < 2360)
            @(posedge clk);
        repeat (2) @(posedge clk);
        if (!halted)
            $display("TEST FAILED: no halt within 2360 cycles");
        else if (gpio_out !== 8'h38)
            $display("TEST FAILED: gpio_out = %h, expected 38", gpio_out);
        else if (writes != 28)
            $display("TEST FAILED: %0d register writes, expected 28", writes);
        else
            $display("TEST PASSED");
        $finish;
    end
endmodule
