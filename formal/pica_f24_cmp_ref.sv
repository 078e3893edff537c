// pica_f24_cmp_ref: the comparator as first written (signed keys +-magnitude, one negation per
// operand, then a signed compare), kept as the reference that formal/cmp.ys proves
// rtl-bridge/rtl/pica_f24_cmp.sv (magnitude compares and the signs) equal to on every input.
// Ordered comparison of two f24 values, as the model's `a.to_f64() < b.to_f64()` etc. (IEEE: any
// NaN makes lt, eq and gt all 0; -0 == +0; subnormals compare by value).
//
// flush_i = 1: both inputs flushed first (exponent 0 -> +0), as alu::sge / alu::slt do.
// flush_i = 0: no flush, as alu::max / alu::min and the CMP instruction (interp.rs `cmp_op`: "CMP
// does not flush subnormal inputs") do.
//
// For non-NaN patterns the 23 magnitude bits order like the magnitudes (subnormals and infinities
// included), so the values order like the signed integers +-magnitude.
module pica_f24_cmp_ref (
  input  logic [23:0] a_i,
  input  logic [23:0] b_i,
  input  logic        flush_i,
  output logic        lt_o,
  output logic        eq_o,
  output logic        gt_o
);

  logic [23:0] a, b;
  logic        nan;
  logic [23:0] ka, kb;   // signed keys: +-magnitude

  assign a = (flush_i && a_i[22:16] == 7'd0) ? 24'h0 : a_i;
  assign b = (flush_i && b_i[22:16] == 7'd0) ? 24'h0 : b_i;
  assign nan = ((a[22:16] == 7'h7F) && (a[15:0] != 16'h0))
            || ((b[22:16] == 7'h7F) && (b[15:0] != 16'h0));
  assign ka = a[23] ? (24'h0 - {1'b0, a[22:0]}) : {1'b0, a[22:0]};
  assign kb = b[23] ? (24'h0 - {1'b0, b[22:0]}) : {1'b0, b[22:0]};

  assign lt_o = !nan && ($signed(ka) <  $signed(kb));
  assign eq_o = !nan && (ka == kb);
  assign gt_o = !nan && ($signed(ka) >  $signed(kb));

endmodule : pica_f24_cmp_ref
