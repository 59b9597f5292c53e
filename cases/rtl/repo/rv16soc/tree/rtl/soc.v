// rv16 system: the core, its data memory, gpio and timer on one bus.
//
// Program memory stays outside (imem_*); the debug port reports every register write-back.
module soc (
    input  wire        clk,
    input  wire        rst_n,
    output wire [11:0] imem_addr,
    input  wire [15:0] imem_data,
    input  wire [7:0]  gpio_in,
    output wire [7:0]  gpio_out,
    output wire        dbg_we,
    output wire [2:0]  dbg_rd,
    output wire [15:0] dbg_data,
    output wire        halted
);
    localparam AW = 10;

    wire        rst_n_s;
    wire        bus_req, bus_we;
    wire [15:0] bus_addr, bus_wdata, bus_rdata;
    wire        ram_en, ram_we;
    wire [AW-1:0] ram_addr;
    wire [15:0] ram_rdata;
    wire        io_we, gpio_sel, timer_sel;
    wire [3:0]  io_addr;
    wire [15:0] io_wdata, gpio_rdata, timer_rdata;

    rst_sync u_rst (.clk(clk), .rst_n_in(rst_n), .rst_n_out(rst_n_s));

    core u_core (
        .clk(clk), .rst_n(rst_n_s), .imem_addr(imem_addr), .imem_data(imem_data),
        .bus_req(bus_req), .bus_we(bus_we), .bus_addr(bus_addr), .bus_wdata(bus_wdata),
        .bus_rdata(bus_rdata), .dbg_we(dbg_we), .dbg_rd(dbg_rd), .dbg_data(dbg_data), .halted(halted)
    );

    bus_ic #(.AW(AW)) u_bus (
        .clk(clk), .rst_n(rst_n_s), .req(bus_req), .we(bus_we), .addr(bus_addr), .wdata(bus_wdata),
        .rdata(bus_rdata), .ram_en(ram_en), .ram_we(ram_we), .ram_addr(ram_addr), .ram_rdata(ram_rdata),
        .io_we(io_we), .io_addr(io_addr), .io_wdata(io_wdata), .gpio_sel(gpio_sel), .gpio_rdata(gpio_rdata),
        .timer_sel(timer_sel), .timer_rdata(timer_rdata)
    );

    dmem #(.AW(AW)) u_ram (
        .clk(clk), .en(ram_en), .we(ram_we), .addr(ram_addr), .wdata(bus_wdata), .rdata(ram_rdata)
    );

    gpio u_gpio (
        .clk(clk), .rst_n(rst_n_s), .sel(gpio_sel), .we(io_we), .addr(io_addr), .wdata(io_wdata),
        .rdata(gpio_rdata), .pins_in(gpio_in), .pins_out(gpio_out)
    );

    timer u_timer (
        .clk(clk), .rst_n(rst_n_s), .sel(timer_sel), .we(io_we), .addr(io_addr), .wdata(io_wdata),
        .rdata(timer_rdata)
    );
endmodule
