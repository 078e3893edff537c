// pica_f24_minmax: MAX / MIN, bit-exact with alu::max / alu::min (model/src/shader/alu.rs).
//
// No flush (3dbrew: max(s, 0) = s): the selected input is passed through unchanged (subnormals and
// -0 included). max = (a > b) ? a : b, min = (a < b) ? a : b on the values (pica_f24_cmp without
// flush), which gives max(0, NaN) = NaN, max(NaN, 0) = 0 (pica-facts §2). With max_neg_inf_i
// (MaxNegInf::NegInf, 3dbrew) max(+-0, -inf) = -inf instead of 0 (the disputed entry).
module pica_f24_minmax (
  input  logic [23:0] a_i,
  input  logic [23:0] b_i,
  input  logic        max_i,          // 1: MAX, 0: MIN
  input  logic        max_neg_inf_i,  // MaxNegInf::NegInf
  output logic [23:0] y_o
);

  logic lt, gt;
  logic eq_unused;

  pica_f24_cmp u_cmp (
    .a_i    (a_i),
    .b_i    (b_i),
    .flush_i(1'b0),
    .lt_o   (lt),
    .eq_o   (eq_unused),
    .gt_o   (gt)
  );

  always_comb begin
    if (max_i) begin
      if (max_neg_inf_i && a_i[22:0] == 23'h0 && b_i == 24'hFF0000) begin
        y_o = b_i;
      end else begin
        y_o = gt ? a_i : b_i;
      end
    end else begin
      y_o = lt ? a_i : b_i;
    end
  end

  logic unused_bits;
  assign unused_bits = eq_unused;

endmodule : pica_f24_minmax
