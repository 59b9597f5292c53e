// Address map: 0x00-0x7f slave 0, 0x80-0xff slave 1; the slave sees the offset in its region.
module addr_dec (
    input  wire [7:0] addr,
    output wire       slave,
    output wire [6:0] offset
);
    assign slave  = addr[7];
    assign offset = addr[6:0];
endmodule
