// Index of the set bit of a one-hot vector (0 when none is set).
module onehot_idx #(parameter N = 3, parameter IW = 2) (
    input  wire [N-1:0]  oh,
    output reg  [IW-1:0] idx
);
    integer i;

    always @* begin
        idx = {IW{1'b0}};
        for (i = 0; i < N; i = i + 1)
            if (oh[i])
                idx = i;
    end
endmodule
