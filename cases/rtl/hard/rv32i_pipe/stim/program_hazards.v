// Directed run: the `hazards` program of scripts/rv32i_pipe_stimuli.py (generated; do not edit).
// Instruction fetches are answered from the program by fetch address (words past its end are
// NOPs); loads and stores go to a 1 KiB data memory (address bits [9:2]) whose contents start as
// a fixed pattern. Both answer the golden core's requests, which the candidate must make alike.
reg [31:0] dmem [0:255];
integer i;
if (cycle == 0)
  for (i = 0; i < 256; i = i + 1)
    dmem[i] = (i * 32'h9e3779b9) ^ (i << 27) ^ 32'h80ff7f01;
case (gold_imem_addr[11:2])
    10'd0: in_imem_rdata = 32'h00500093;
    10'd1: in_imem_rdata = 32'h00708113;
    10'd2: in_imem_rdata = 32'h002081b3;
    10'd3: in_imem_rdata = 32'h40118233;
    10'd4: in_imem_rdata = 32'h004142b3;
    10'd5: in_imem_rdata = 32'hfff00313;
    10'd6: in_imem_rdata = 32'hffe30313;
    10'd7: in_imem_rdata = 32'h006303b3;
    10'd8: in_imem_rdata = 32'h06400413;
    10'd9: in_imem_rdata = 32'h0c800413;
    10'd10: in_imem_rdata = 32'h00000013;
    10'd11: in_imem_rdata = 32'h000404b3;
    10'd12: in_imem_rdata = 32'h03700013;
    10'd13: in_imem_rdata = 32'h00000533;
    10'd14: in_imem_rdata = 32'h00108013;
    10'd15: in_imem_rdata = 32'h00000013;
    10'd16: in_imem_rdata = 32'h001005b3;
    10'd17: in_imem_rdata = 32'h04000613;
    10'd18: in_imem_rdata = 32'h00562023;
    10'd19: in_imem_rdata = 32'h00062683;
    10'd20: in_imem_rdata = 32'h00168713;
    10'd21: in_imem_rdata = 32'h00062783;
    10'd22: in_imem_rdata = 32'h00f08833;
    10'd23: in_imem_rdata = 32'h00062883;
    10'd24: in_imem_rdata = 32'h01162223;
    10'd25: in_imem_rdata = 32'h00462903;
    10'd26: in_imem_rdata = 32'h00590463;
    10'd27: in_imem_rdata = 32'h06f00993;
    10'd28: in_imem_rdata = 32'h00062003;
    10'd29: in_imem_rdata = 32'h00100a33;
    10'd30: in_imem_rdata = 32'h00062a83;
    10'd31: in_imem_rdata = 32'h00000013;
    10'd32: in_imem_rdata = 32'h015a8b33;
    10'd33: in_imem_rdata = 32'h00462b83;
    10'd34: in_imem_rdata = 32'h00000013;
    10'd35: in_imem_rdata = 32'h00000013;
    10'd36: in_imem_rdata = 32'h000b8c33;
    10'd37: in_imem_rdata = 32'h00100c93;
    10'd38: in_imem_rdata = 32'h000c9663;
    10'd39: in_imem_rdata = 32'h00100d13;
    10'd40: in_imem_rdata = 32'h00200d93;
    10'd41: in_imem_rdata = 32'h06800e6f;
    10'd42: in_imem_rdata = 32'h003d0d13;
    10'd43: in_imem_rdata = 32'h004d8d93;
    10'd44: in_imem_rdata = 32'h00000e97;
    10'd45: in_imem_rdata = 32'h014e8f13;
    10'd46: in_imem_rdata = 32'h000f0fe7;
    10'd47: in_imem_rdata = 32'h00900d13;
    10'd48: in_imem_rdata = 32'h00900d93;
    10'd49: in_imem_rdata = 32'h000f8093;
    10'd50: in_imem_rdata = 32'h01fe0133;
    10'd51: in_imem_rdata = 32'h00034463;
    10'd52: in_imem_rdata = 32'h00100193;
    10'd53: in_imem_rdata = 32'h02036063;
    10'd54: in_imem_rdata = 32'h00200213;
    10'd55: in_imem_rdata = 32'h00605463;
    10'd56: in_imem_rdata = 32'h00300213;
    10'd57: in_imem_rdata = 32'h00607863;
    10'd58: in_imem_rdata = 32'h00400293;
    10'd59: in_imem_rdata = 32'h00062383;
    10'd60: in_imem_rdata = 32'h00738463;
    10'd61: in_imem_rdata = 32'h00d00413;
    10'd62: in_imem_rdata = 32'h00862423;
    10'd63: in_imem_rdata = 32'h00862483;
    10'd64: in_imem_rdata = 32'h00962623;
    10'd65: in_imem_rdata = 32'h00c62503;
    10'd66: in_imem_rdata = 32'h00c0006f;
    10'd67: in_imem_rdata = 32'h000e0c13;
    10'd68: in_imem_rdata = 32'h000e0067;
    10'd69: in_imem_rdata = 32'h00700593;
    10'd70: in_imem_rdata = 32'hfff58593;
    10'd71: in_imem_rdata = 32'hfe059ee3;
    10'd72: in_imem_rdata = 32'h00000073;
    10'd73: in_imem_rdata = 32'h00100073;
    10'd74: in_imem_rdata = 32'h0ff0000f;
    10'd75: in_imem_rdata = 32'h0000707f;
    10'd76: in_imem_rdata = 32'h02000033;
    10'd77: in_imem_rdata = 32'h00262083;
    10'd78: in_imem_rdata = 32'h00108133;
    10'd79: in_imem_rdata = 32'h0000006f;
  default: in_imem_rdata = 32'h00000013;
endcase
in_dmem_rdata = dmem[gold_dmem_addr[9:2]];
if (gold_dmem_we) begin
  if (gold_dmem_be[0]) dmem[gold_dmem_addr[9:2]][7:0] = gold_dmem_wdata[7:0];
  if (gold_dmem_be[1]) dmem[gold_dmem_addr[9:2]][15:8] = gold_dmem_wdata[15:8];
  if (gold_dmem_be[2]) dmem[gold_dmem_addr[9:2]][23:16] = gold_dmem_wdata[23:16];
  if (gold_dmem_be[3]) dmem[gold_dmem_addr[9:2]][31:24] = gold_dmem_wdata[31:24];
end
