// Slave side of the register bus handshake.
//
// A master raises `req` (with `we`, `addr`, `wdata`) and holds it until it sees `ack`. The slave
// answers every request with exactly one single-cycle `ack`, in the cycle after it first sees `req`;
// `accept` marks that first cycle, so side effects (FIFO pushes and pops) happen once per request.
module bus_slave (
    input  wire clk,
    input  wire rst_n,
    input  wire req,
    output reg  ack,
    output wire accept
);
    assign accept = req && !ack;

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
            ack <= 1'b0;
        else
            ack <= accept;
    end
endmodule
