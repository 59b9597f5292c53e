// Reference arithmetic of the streamdsp stages at width DW (integers, exact).
    function integer sat_dw(input integer v);
        begin
            if (v > (1 << (DW - 1)) - 1) sat_dw = (1 << (DW - 1)) - 1;
            else if (v < -(1 << (DW - 1))) sat_dw = -(1 << (DW - 1));
            else sat_dw = v;
        end
    endfunction

    function integer sext_dw(input [DW-1:0] x);
        sext_dw = x[DW-1] ? x - (1 << DW) : x;
    endfunction

    function integer gain_model(input integer x, input integer g);
        gain_model = sat_dw((x * g) >>> 4);
    endfunction

    function integer offset_model(input integer x, input integer off);
        offset_model = sat_dw(x + off);
    endfunction

    function [DW-1:0] as_bits(input integer v);
        as_bits = v;
    endfunction

    // A pseudo-random sample: a third of them near the ends of the range.
    function [DW-1:0] sample(input [31:0] r);
        begin
            case (r[1:0])
                2'd0: sample = {1'b0, {(DW - 1){1'b1}}} - r[7:2];
                2'd1: sample = {1'b1, {(DW - 1){1'b0}}} + r[7:2];
                default: sample = r[DW+7:8];
            endcase
        end
    endfunction
