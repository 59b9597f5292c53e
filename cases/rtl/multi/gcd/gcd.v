// Greatest common divisor of two 8-bit numbers by repeated subtraction: a small controller
// around the gcd_dp datapath.
module gcd (
    input  wire       clk,
    input  wire       rst_n,
    input  wire       start,
    input  wire [7:0] a,
    input  wire [7:0] b,
    output reg  [7:0] g,
    output reg        done,
    output wire       busy
);
    localparam IDLE = 1'b0, RUN = 1'b1;

    reg        state;
    wire       fin;
    wire [7:0] res;

    gcd_dp u_dp (
        .clk(clk), .load(state == IDLE && start), .step(state == RUN),
        .a_in(a), .b_in(b), .finished(fin), .result(res)
    );

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            state <= IDLE;
            g     <= 8'h00;
            done  <= 1'b0;
        end else begin
            done <= 1'b0;
            case (state)
                IDLE: if (start) state <= RUN;
                RUN: if (fin) begin
                    g     <= res;
                    done  <= 1'b1;
                    state <= IDLE;
                end
                default: state <= IDLE;
            endcase
        end
    end

    assign busy = (state == RUN);
endmodule
