// Round-robin arbiter over the five input ports: the search starts at input `ptr` and wraps around,
// so the input that won last (its owner moves `ptr` past it) has the lowest priority next time.
module noc_arbiter (
    input  wire [4:0] req,
    input  wire [2:0] ptr,
    output reg  [4:0] grant,
    output reg  [2:0] grant_idx,
    output wire       any
);
    integer   k;
    reg [3:0] sum;
    reg [2:0] cand;
    reg       found;

    assign any = |req;

    always @* begin
        grant     = 5'd0;
        grant_idx = 3'd0;
        found     = 1'b0;
        sum       = 4'd0;
        cand      = 3'd0;
        for (k = 0; k < 5; k = k + 1) begin
            sum = {1'b0, ptr} + k[3:0];
            if (sum >= 4'd5)
                sum = sum - 4'd5;
            cand = sum[2:0];
            if (!found && req[cand]) begin
                found       = 1'b1;
                grant[cand] = 1'b1;
                grant_idx   = cand;
            end
        end
    end
endmodule
