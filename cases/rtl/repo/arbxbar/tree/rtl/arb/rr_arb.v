// Round-robin arbiter with locking.
//
// Among the requesters, the first one at or after the priority pointer is granted; the pointer then
// moves past it. A requester granted with `lock` set keeps the grant for its following requests
// (a read-modify-write, a burst) until it is granted one without `lock` or stops requesting.
module rr_arb #(parameter N = 3, parameter IW = 2) (
    input  wire          clk,
    input  wire          rst_n,
    input  wire [N-1:0]  req,
    input  wire [N-1:0]  lock,
    output reg  [N-1:0]  grant,
    output wire [IW-1:0] grant_idx,
    output wire          any
);
    reg [IW-1:0] ptr, owner;
    reg          locked;
    integer      k, j;

    always @* begin
        grant = {N{1'b0}};
        if (locked && req[owner]) begin
            grant[owner] = 1'b1;
        end else begin
            // the last hit wins: the requester nearest at or after ptr
            for (k = N - 1; k >= 0; k = k - 1) begin
                j = (ptr + k) % N;
                if (req[j])
                    grant = {{(N - 1){1'b0}}, 1'b1} << j;
            end
        end
    end

    onehot_idx #(.N(N), .IW(IW)) u_idx (.oh(grant), .idx(grant_idx));

    assign any = |req;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            ptr    <= {IW{1'b0}};
            owner  <= {IW{1'b0}};
            locked <= 1'b0;
        end else if (any) begin
            ptr    <= (grant_idx == N - 1) ? {IW{1'b0}} : grant_idx + 1'b1;
            owner  <= grant_idx;
            locked <= |(grant & lock);
        end else begin
            locked <= 1'b0;
        end
    end
endmodule
