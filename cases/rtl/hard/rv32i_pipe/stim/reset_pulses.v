// Directed run: the constrained-random instruction stream of stream.v with the reset asserted again
// for one cycle every 23 cycles once the pipeline is full. Each pulse lands on a different mix of
// instructions in flight (often a taken branch or a jump in EX): every control bit of every stage
// must be cleared by the reset, since the first fetch after it follows whatever redirect is left.
reg [31:0] r;
reg [31:0] s;
reg [4:0]  rd;
reg [4:0]  rs1;
reg [4:0]  rs2;
reg [11:0] imm;
reg [2:0]  f3;
reg [31:0] word;
next_random;
r = rng;
next_random;
s = rng;
rd  = (r[2:0] < 3'd6) ? {3'd0, r[4:3]} : r[9:5];
rs1 = (r[12:10] < 3'd6) ? {3'd0, r[14:13]} : r[19:15];
rs2 = (r[22:20] < 3'd6) ? {3'd0, r[24:23]} : r[29:25];
case (s[1:0])
  2'd0: imm = {{8{s[7]}}, s[7:4]};
  2'd1: case (s[5:4])
          2'd0: imm = 12'h7ff;
          2'd1: imm = 12'h800;
          2'd2: imm = 12'hfff;
          default: imm = 12'h001;
        endcase
  default: imm = s[15:4];
endcase
f3 = s[22:20];
case (s[19:16])
  4'd0, 4'd1, 4'd2, 4'd3:
    word = {1'b0, s[23] && (f3 == 3'd0 || f3 == 3'd5), 5'd0, rs2, rs1, f3, rd, 7'b0110011};
  4'd4, 4'd5, 4'd6:
    if (f3 == 3'd1 || f3 == 3'd5)
      word = {1'b0, s[23] && f3 == 3'd5, 5'd0, s[28:24], rs1, f3, rd, 7'b0010011};
    else
      word = {imm, rs1, f3, rd, 7'b0010011};
  4'd7, 4'd8: begin
    // Byte, half and word loads, signed and unsigned; aligned half of the time.
    case (f3)
      3'd3: f3 = 3'd2;
      3'd6: f3 = 3'd0;
      3'd7: f3 = 3'd4;
      default: ;
    endcase
    if (s[24]) imm[1:0] = 2'b00;
    word = {imm, s[25] ? 5'd0 : rs1, f3, rd, 7'b0000011};
  end
  4'd9, 4'd10: begin
    f3 = {1'b0, (f3[1:0] == 2'd3) ? 2'd2 : f3[1:0]};
    if (s[24]) imm[1:0] = 2'b00;
    word = {imm[11:5], rs2, s[25] ? 5'd0 : rs1, f3, imm[4:0], 7'b0100011};
  end
  4'd11, 4'd12: begin
    if (f3 == 3'd2 || f3 == 3'd3) f3 = {2'b00, f3[0]};
    word = {s[31], s[29:24], rs2, rs1, f3, s[27:24], s[30], 7'b1100011};
  end
  4'd13:
    if (s[23])
      word = {s[31:12], rd, 7'b1101111};
    else
      word = {imm, rs1, 3'd0, rd, 7'b1100111};
  4'd14:
    word = {r[31:12], rd, s[23] ? 7'b0110111 : 7'b0010111};
  default:
    case (s[25:23])
      3'd0: word = 32'h0ff0000f;
      3'd1: word = 32'h00000073;
      3'd2: word = 32'h00100073;
      3'd3: word = {7'b0000001, rs2, rs1, f3, rd, 7'b0110011};
      3'd4: word = {imm, rs1, 3'd3, rd, 7'b0000011};
      3'd5: word = {imm, rs1, 3'd1, rd, 7'b0001111};
      default: word = r;
    endcase
endcase
in_imem_rdata = word;
if (cycle > 40 && cycle % 23 == 0)
  in_rst_n = 1'b0;
