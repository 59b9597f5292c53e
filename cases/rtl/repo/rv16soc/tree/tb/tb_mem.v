`timescale 1ns/1ps
// Runs sw/mem.s on the soc: traces every register write-back and gpio change, checks the result.
module tb_mem;
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
        rom[0] = 16'h2477;  // ldi  r2, 0x77
        rom[1] = 16'h4400;  // sw   r2, 0(r0)
        rom[2] = 16'h2240;  // ldi  r1, 0x40
        rom[3] = 16'h2612;  // ldi  r3, 0x12
        rom[4] = 16'h4641;  // sw   r3, 1(r1)
        rom[5] = 16'h8802;  // lui  r4, 0x2
        rom[6] = 16'h2a55;  // ldi  r5, 0x55
        rom[7] = 16'h4b00;  // sw   r5, 0(r4)
        rom[8] = 16'h8c06;  // lui  r6, 0x6
        rom[9] = 16'h2b9c;  // ldi  r5, -100
        rom[10] = 16'h4b83;  // sw   r5, 3(r6)
        rom[11] = 16'h3400;  // lw   r2, 0(r0)
        rom[12] = 16'h3641;  // lw   r3, 1(r1)
        rom[13] = 16'h0498;  // add  r2, r2, r3
        rom[14] = 16'h3b00;  // lw   r5, 0(r4)
        rom[15] = 16'h04a8;  // add  r2, r2, r5
        rom[16] = 16'h3b83;  // lw   r5, 3(r6)
        rom[17] = 16'h04a8;  // add  r2, r2, r5
        rom[18] = 16'h8f00;  // lui  r7, 0x100
        rom[19] = 16'h45c0;  // sw   r2, 0(r7)
        rom[20] = 16'hf000;  // halt
        repeat (3) @(posedge clk);
        rst_n = 1'b1;
        while (!halted && cycles < 2420)
            @(posedge clk);
        repeat (2) @(posedge clk);
        if (!halted)
            $display("TEST FAILED: no halt within 2420 cycles");
        else if (gpio_out !== 8'h7a)
            $display("TEST FAILED: gpio_out = %h, expected 7a", gpio_out);
        else if (writes != 15)
            $display("TEST FAILED: %0d register writes, expected 15", writes);
        else
            $display("TEST PASSED");
        $finish;
    end
endmodule
