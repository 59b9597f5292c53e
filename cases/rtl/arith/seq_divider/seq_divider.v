// Sequential restoring divider: 8-bit unsigned quotient and remainder, one quotient bit per cycle.
module seq_divider (
    input  wire       clk,
    input  wire       rst_n,
    input  wire       start,
    input  wire [7:0] dividend,
    input  wire [7:0] divisor,
    output reg  [7:0] quotient,
    output reg  [7:0] remainder,
    output reg        done,
    output reg        div_by_zero,
    output wire       busy
);
    reg       running;
    reg [3:0] steps;
    reg [7:0] dvsr;
    reg [7:0] rem;
    reg [7:0] quo;

    // Shift the next dividend bit into the partial remainder and try to subtract the divisor.
    wire [8:0] shifted = {rem, quo[7]};
    wire [8:0] trial   = shifted - {1'b0, dvsr};
    wire       fits    = ~trial[8];
    wire [7:0] rem_nxt = fits ? trial[7:0] : shifted[7:0];
    wire [7:0] quo_nxt = {quo[6:0], fits};

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            running     <= 1'b0;
            steps       <= 4'd0;
            dvsr        <= 8'h00;
            rem         <= 8'h00;
            quo         <= 8'h00;
            quotient    <= 8'h00;
            remainder   <= 8'h00;
            done        <= 1'b0;
            div_by_zero <= 1'b0;
        end else begin
            done <= 1'b0;
            if (!running) begin
                if (start) begin
                    if (divisor == 8'h00) begin
                        quotient    <= 8'hFF;
                        remainder   <= dividend;
                        div_by_zero <= 1'b1;
                        done        <= 1'b1;
                    end else begin
                        div_by_zero <= 1'b0;
                        running     <= 1'b1;
                        steps       <= 4'd0;
                        dvsr        <= divisor;
                        rem         <= 8'h00;
                        quo         <= dividend;
                    end
                end
            end else begin
                rem   <= rem_nxt;
                quo   <= quo_nxt;
                steps <= steps + 4'd1;
                if (steps == 4'd7) begin
                    running   <= 1'b0;
                    quotient  <= quo_nxt;
                    remainder <= rem_nxt;
                    done      <= 1'b1;
                end
            end
        end
    end

    assign busy = running;
endmodule
