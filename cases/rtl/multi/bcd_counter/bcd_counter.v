// Two-digit (00-99) up/down BCD counter built from two bcd_digit instances.
module bcd_counter (
    input  wire       clk,
    input  wire       rst_n,
    input  wire       en,
    input  wire       up,
    output wire [3:0] ones,
    output wire [3:0] tens,
    output wire       wrap
);
    wire ones_carry, ones_borrow, tens_carry, tens_borrow;

    bcd_digit u_ones (
        .clk(clk), .rst_n(rst_n), .inc(en & up), .dec(en & ~up),
        .value(ones), .carry(ones_carry), .borrow(ones_borrow)
    );

    bcd_digit u_tens (
        .clk(clk), .rst_n(rst_n), .inc(ones_carry), .dec(ones_borrow),
        .value(tens), .carry(tens_carry), .borrow(tens_borrow)
    );

    assign wrap = tens_carry | tens_borrow;
endmodule
