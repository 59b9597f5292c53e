// Two-entry skid buffer: registered ready, full throughput, no combinational path from out_ready.
// While `ce` is low nothing moves.
module skid_buf #(parameter DW = 8) (
    input  wire          clk,
    input  wire          rst_n,
    input  wire          ce,
    input  wire          in_valid,
    output wire          in_ready,
    input  wire [DW-1:0] in_data,
    input  wire          in_last,
    output wire          out_valid,
    input  wire          out_ready,
    output wire [DW-1:0] out_data,
    output wire          out_last
);
    reg [DW:0] main_q, skid_q;
    reg        main_v, skid_v;

    assign in_ready  = ce && !skid_v;
    assign out_valid = main_v;
    assign out_data  = main_q[DW-1:0];
    assign out_last  = main_q[DW];

    always @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            main_q <= {(DW + 1){1'b0}};
            skid_q <= {(DW + 1){1'b0}};
            main_v <= 1'b0;
            skid_v <= 1'b0;
        end else if (ce) begin
            if (!main_v || out_ready) begin
                if (skid_v) begin
                    main_q <= skid_q;
                    main_v <= 1'b1;
                    skid_v <= 1'b0;
                end else begin
                    main_q <= {in_last, in_data};
                    main_v <= in_valid;
                end
            end else if (in_valid && !skid_v) begin
                skid_q <= {in_last, in_data};
                skid_v <= 1'b1;
            end
        end
    end
endmodule
