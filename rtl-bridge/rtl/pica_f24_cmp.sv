// pica_f24_cmp: ordered comparison of two f24 values, as the model's `a.to_f64() < b.to_f64()`
// etc. (IEEE: any NaN makes lt, eq and gt all 0; -0 == +0; subnormals compare by value).
//
// flush_i = 1: both inputs flushed first (exponent 0 -> +0), as alu::sge / alu::slt do.
// flush_i = 0: no flush, as alu::max / alu::min and the CMP instruction (interp.rs `cmp_op`: "CMP
// does not flush subnormal inputs") do.
//
// For non-NaN patterns the 23 magnitude bits order like the magnitudes (subnormals and infinities
// included), so the values order like the signed integers +-magnitude.
module pica_f24_cmp (
  input  logic [23:0] a_i,
  input  logic [23:0] b_i,
  input  logic        flush_i,
  output logic        lt_o,
  output logic        eq_o,
  output logic        gt_o
);

  logic [23:0] a, b;
  logic        nan, zero, mlt, mgt;

  assign a = (flush_i && a_i[22:16] == 7'd0) ? 24'h0 : a_i;
  assign b = (flush_i && b_i[22:16] == 7'd0) ? 24'h0 : b_i;
  assign nan = ((a[22:16] == 7'h7F) && (a[15:0] != 16'h0))
            || ((b[22:16] == 7'h7F) && (b[15:0] != 16'h0));
  // The order of the signed keys +-magnitude, from one unsigned compare of the magnitudes per
  // direction and the signs, instead of negating each magnitude and comparing the keys (two
  // carry chains in a row, on the shader unit's critical path on the ECP5). Only +-0 has two
  // keys that are equal with different signs.
  assign zero = (a[22:0] == 23'd0) && (b[22:0] == 23'd0);
  assign mlt = a[22:0] < b[22:0];
  assign mgt = a[22:0] > b[22:0];

  assign lt_o = !nan && !zero && (a[23] ? (!b[23] || mgt) : (!b[23] && mlt));
  assign gt_o = !nan && !zero && (b[23] ? (!a[23] || mlt) : (!a[23] && mgt));
  assign eq_o = !nan && (zero || (a[23] == b[23] && a[22:0] == b[22:0]));

endmodule : pica_f24_cmp
