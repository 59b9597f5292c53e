`timescale 1ns/1ps
// The ALU against a reference model on directed and pseudo-random operands.
module tb_alu;
    reg  [2:0]  op;
    reg  [15:0] a, b;
    wire [15:0] y;
    reg  [15:0] want;
    reg  [31:0] lfsr = 32'h1234_5678;
    integer     i, errors = 0;

    alu dut (.op(op), .a(a), .b(b), .y(y));

    function [15:0] model(input [2:0] f, input [15:0] x, input [15:0] z);
        case (f)
            3'd0: model = x + z;
            3'd1: model = x - z;
            3'd2: model = x & z;
            3'd3: model = x | z;
            3'd4: model = x ^ z;
            3'd5: model = x << z[3:0];
            3'd6: model = x >> z[3:0];
            default: model = ($signed(x) < $signed(z)) ? 16'd1 : 16'd0;
        endcase
    endfunction

    task check;
        begin
            #1;
            want = model(op, a, b);
            $display("TRACE op=%0d a=%h b=%h y=%h", op, a, b, y);
            if (y !== want) begin
                errors = errors + 1;
                $display("mismatch: op=%0d a=%h b=%h y=%h expected %h", op, a, b, y, want);
            end
        end
    endtask

    initial begin
        for (i = 0; i < 8; i = i + 1) begin
            op = i; a = 16'h8000; b = 16'h0001; check;
            op = i; a = 16'h0001; b = 16'h8000; check;
            op = i; a = 16'hfffb; b = 16'h0017; check;
        end
        for (i = 0; i < 400; i = i + 1) begin
            lfsr = {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
            op = lfsr[2:0];
            a = lfsr[18:3];
            lfsr = {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
            b = lfsr[31:16];
            check;
        end
        if (errors == 0) $display("TEST PASSED");
        else $display("TEST FAILED: %0d mismatches", errors);
        $finish;
    end
endmodule
