// The system bus: one master (the core), three slaves.
//
//   0x0000 + 2**AW words   data memory
//   0x8000 .. 0x800f       gpio
//   0x8010 .. 0x801f       timer
//
// Every slave answers a read in the cycle after the request, so the read data mux follows the
// slave selected in the previous cycle. Anything else reads as zero.
module bus_ic #(parameter AW = 10) (
    input  wire          clk,
    input  wire          rst_n,
    input  wire          req,
    input  wire          we,
    input  wire [15:0]   addr,
    input  wire [15:0]   wdata,
    output reg  [15:0]   rdata,
    output wire          ram_en,
    output wire          ram_we,
    output wire [AW-1:0] ram_addr,
    input  wire [15:0]   ram_rdata,
    output wire          io_we,
    output wire [3:0]    io_addr,
    output wire [15:0]   io_wdata,
    output wire          gpio_sel,
    input  wire [15:0]   gpio_rdata,
    output wire          timer_sel,
    input  wire [15:0]   timer_rdata
);
    localparam SEL_NONE = 2'd0, SEL_RAM = 2'd1, SEL_GPIO = 2'd2, SEL_TIMER = 2'd3;

    wire in_ram   = (addr >> AW) == 16'd0;
    wire in_gpio  = addr[15:4] == 12'h800;
    wire in_timer = addr[15:4] == 12'h801;

    assign ram_en    = req && in_ram;
    assign ram_we    = req && we && in_ram;
    assign ram_addr  = addr[AW-1:0];
    assign io_we     = req && we;
    assign io_addr   = addr[3:0];
    assign io_wdata  = wdata;
    assign gpio_sel  = req && in_gpio;
    assign timer_sel = req && in_timer;

    reg [1:0] sel_q;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            sel_q <= SEL_NONE;
        else if (req)
            sel_q <= in_ram ? SEL_RAM : in_gpio ? SEL_GPIO : in_timer ? SEL_TIMER : SEL_NONE;
        else
            sel_q <= SEL_NONE;
    end

    always @* begin
        case (sel_q)
            SEL_RAM:   rdata = ram_rdata;
            SEL_GPIO:  rdata = gpio_rdata;
            SEL_TIMER: rdata = timer_rdata;
            default:   rdata = 16'd0;
        endcase
    end
endmodule
