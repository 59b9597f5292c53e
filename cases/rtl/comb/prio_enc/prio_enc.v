// 16-input priority encoder: the highest-numbered enabled request wins.
module prio_enc (
    input  wire [15:0] req,
    input  wire [15:0] mask,
    output reg  [3:0]  idx,
    output reg         valid,
    output wire [15:0] onehot
);
    wire [15:0] active = req & mask;
    integer i;

    always @* begin
        idx   = 4'd0;
        valid = 1'b0;
        for (i = 0; i < 16; i = i + 1) begin
            if (active[i]) begin
                idx   = i[3:0];
                valid = 1'b1;
            end
        end
    end

    assign onehot = valid ? (16'd1 << idx) : 16'd0;
endmodule
