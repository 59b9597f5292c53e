`timescale 1ns/1ps
// The CPU keeps using the memory during a copy: the copy and the CPU's own data both stay intact.
module tb_contend;
`include "dma_tb.vh"
    reg [15:0] st, d;
    integer    i, k;
    initial begin
        reset_dut;
        for (i = 0; i < 32; i = i + 1)
            cpu_write(12'h040 + i, 16'h00c0 ^ i);
        cpu_write(12'h800, 16'h0040);
        cpu_write(12'h801, 16'h0240);
        cpu_write(12'h802, 16'd32);
        cpu_write(12'h803, 16'h0001);
        st = 16'h0001;
        k = 0;
        while (st[1] !== 1'b1 && k < 400) begin
            cpu_write(12'h300 + (k % 16), k & 8'hff);
            cpu_read(12'h300 + ((k + 15) % 16), d);
            if (k > 0 && d !== ((k - 1) & 8'hff) && k >= 16) begin
                errors = errors + 1;
                $display("mismatch: cpu read %h at step %0d", d, k);
            end
            cpu_read(12'h804, st);
            k = k + 1;
        end
        $display("TRACE busy steps %0d", k);
        cpu_write(12'h804, 16'h0002);
        for (i = 0; i < 32; i = i + 1)
            expect_read(12'h240 + i, 16'h00c0 ^ i);
        finish;
    end
endmodule
