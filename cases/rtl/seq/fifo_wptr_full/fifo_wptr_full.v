// Write side of an asynchronous FIFO (8 entries): binary and Gray-coded write pointers,
// a two-flop synchronizer for the read domain's Gray pointer, and the registered full flag.
module fifo_wptr_full (
    input  wire       wclk,
    input  wire       wrst_n,
    input  wire       winc,
    input  wire [3:0] rptr_gray,
    output reg  [3:0] wptr_gray,
    output wire [2:0] waddr,
    output reg        wfull
);
    reg  [3:0] wbin;
    reg  [3:0] rq1;
    reg  [3:0] rq2;

    wire [3:0] wbin_next  = wbin + {3'b000, winc & ~wfull};
    wire [3:0] wgray_next = (wbin_next >> 1) ^ wbin_next;
    // Full: the next write pointer equals the read pointer with the two top Gray bits inverted.
    wire       full_next  = (wgray_next == {~rq2[3:2], rq2[1:0]});

    always @(posedge wclk or negedge wrst_n) begin
        if (!wrst_n) begin
            rq1 <= 4'd0;
            rq2 <= 4'd0;
        end else begin
            rq1 <= rptr_gray;
            rq2 <= rq1;
        end
    end

    always @(posedge wclk or negedge wrst_n) begin
        if (!wrst_n) begin
            wbin      <= 4'd0;
            wptr_gray <= 4'd0;
            wfull     <= 1'b0;
        end else begin
            wbin      <= wbin_next;
            wptr_gray <= wgray_next;
            wfull     <= full_next;
        end
    end

    assign waddr = wbin[2:0];
endmodule
