// Reset synchroniser: asserts asynchronously, releases two clock edges after the input does.
module rst_sync (
    input  wire clk,
    input  wire rst_n_in,
    output wire rst_n_out
);
    reg [1:0] sync;

    always @(posedge clk or negedge rst_n_in) begin
        if (!rst_n_in)
            sync <= 2'b00;
        else
            sync <= {sync[0], 1'b1};
    end

    assign rst_n_out = sync[1];
endmodule
