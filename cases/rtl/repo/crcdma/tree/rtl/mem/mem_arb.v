// Memory arbiter, fixed priority: the CPU port first, then the DMA. A granted read's byte comes back
// in the next cycle with the requester's own rvalid.
module mem_arb #(parameter AW = 10) (
    input  wire          clk,
    input  wire          rst_n,
    input  wire          cpu_req,
    input  wire          cpu_we,
    input  wire [AW-1:0] cpu_addr,
    input  wire [7:0]    cpu_wdata,
    output reg           cpu_rvalid,
    input  wire          dma_req,
    input  wire          dma_we,
    input  wire [AW-1:0] dma_addr,
    input  wire [7:0]    dma_wdata,
    output wire          dma_gnt,
    output reg           dma_rvalid,
    output wire          mem_en,
    output wire          mem_we,
    output wire [AW-1:0] mem_addr,
    output wire [7:0]    mem_wdata
);
    assign dma_gnt   = dma_req && !cpu_req;
    assign mem_en    = cpu_req || dma_req;
    assign mem_we    = cpu_req ? cpu_we : dma_we;
    assign mem_addr  = cpu_req ? cpu_addr : dma_addr;
    assign mem_wdata = cpu_req ? cpu_wdata : dma_wdata;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            cpu_rvalid <= 1'b0;
            dma_rvalid <= 1'b0;
        end else begin
            cpu_rvalid <= cpu_req && !cpu_we;
            dma_rvalid <= dma_gnt && !dma_we;
        end
    end
endmodule
