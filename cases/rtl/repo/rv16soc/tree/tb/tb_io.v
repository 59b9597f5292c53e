`timescale 1ns/1ps
// Runs sw/io.s on the soc: traces every register write-back and gpio change, checks the result.
module tb_io;
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
        rom[0] = 16'h8f00;  // lui  r7, 0x100
        rom[1] = 16'h33c1;  // lw   r1, 1(r7)
        rom[2] = 16'h15d0;  // addi r2, r7, 16
        rom[3] = 16'h2601;  // ldi  r3, 1
        rom[4] = 16'h4682;  // sw   r3, 2(r2)
        rom[5] = 16'h2828;  // ldi  r4, 40
        rom[6] = 16'h4881;  // sw   r4, 1(r2)
        rom[7] = 16'h3a80;  // lw   r5, 0(r2)
        rom[8] = 16'h0000;  // add  r0, r0, r0
        rom[9] = 16'h0000;  // add  r0, r0, r0
        rom[10] = 16'h3c80;  // lw   r6, 0(r2)
        rom[11] = 16'h0da9;  // sub  r6, r6, r5
        rom[12] = 16'h3682;  // lw   r3, 2(r2)
        rom[13] = 16'h2802;  // ldi  r4, 2
        rom[14] = 16'h06e2;  // and  r3, r3, r4
        rom[15] = 16'h563c;  // beq  r3, r0, wait
        rom[16] = 16'h2803;  // ldi  r4, 3
        rom[17] = 16'h4882;  // sw   r4, 2(r2)
        rom[18] = 16'h3682;  // lw   r3, 2(r2)
        rom[19] = 16'h0270;  // add  r1, r1, r6
        rom[20] = 16'h0258;  // add  r1, r1, r3
        rom[21] = 16'h43c0;  // sw   r1, 0(r7)
        rom[22] = 16'hf000;  // halt
        repeat (3) @(posedge clk);
        rst_n = 1'b1;
        while (!halted && cycles < 2460)
            @(posedge clk);
        repeat (2) @(posedge clk);
        if (!halted)
            $display("TEST FAILED: no halt within 2460 cycles");
        else if (gpio_out !== 8'h5e)
            $display("TEST FAILED: gpio_out = %h, expected 5e", gpio_out);
        else if (writes != 36)
            $display("TEST FAILED: %0d register writes, expected 36", writes);
        else
            $display("TEST PASSED");
        $finish;
    end
endmodule
