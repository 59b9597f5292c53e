// Load/store lane logic of the rv32i_pipe core. The data port is one little-endian 32-bit word:
// byte lane k (dmem_be[k], bits [8k+7:8k]) holds the byte at word address + k.

// EX stage: the byte lanes and the lane-aligned store data of an access, and whether it is
// misaligned (a halfword at an odd address, a word at an address that is not a multiple of four).
// size is the low two bits of the load's or store's funct3: 00 byte, 01 half, 10 word.
module rv32i_mem_align (
    input  wire [1:0]  offset,
    input  wire [1:0]  size,
    input  wire        access,
    input  wire [31:0] store_data,
    output reg  [3:0]  be,
    output reg  [31:0] lane_data,
    output reg         misaligned
);
    always @* begin
        be         = 4'b0000;
        lane_data  = 32'd0;
        misaligned = 1'b0;
        if (access) begin
            case (size)
                2'b00: begin
                    be        = 4'b0001 << offset;
                    lane_data = {24'd0, store_data[7:0]} << {offset, 3'b000};
                end
                2'b01: begin
                    if (offset[0]) begin
                        misaligned = 1'b1;
                    end else begin
                        be        = offset[1] ? 4'b1100 : 4'b0011;
                        lane_data = offset[1] ? {store_data[15:0], 16'd0} : {16'd0, store_data[15:0]};
                    end
                end
                2'b10: begin
                    if (offset != 2'b00) begin
                        misaligned = 1'b1;
                    end else begin
                        be        = 4'b1111;
                        lane_data = store_data;
                    end
                end
                default: misaligned = 1'b1;
            endcase
        end
    end
endmodule

// WB stage: the register value of a load from the word read and the access's offset and funct3:
//   000 LB  001 LH  010 LW  100 LBU  101 LHU (sign- or zero-extended to 32 bits).
module rv32i_load_ext (
    input  wire [31:0] word,
    input  wire [1:0]  offset,
    input  wire [2:0]  funct3,
    output reg  [31:0] value
);
    wire [7:0]  byte_sel = word[{offset, 3'b000} +: 8];
    wire [15:0] half_sel = offset[1] ? word[31:16] : word[15:0];

    always @* begin
        case (funct3)
            3'b000:  value = {{24{byte_sel[7]}}, byte_sel};
            3'b001:  value = {{16{half_sel[15]}}, half_sel};
            3'b010:  value = word;
            3'b100:  value = {24'd0, byte_sel};
            3'b101:  value = {16'd0, half_sel};
            default: value = 32'd0;
        endcase
    end
endmodule
