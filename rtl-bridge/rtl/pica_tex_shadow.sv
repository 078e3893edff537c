// pica_tex_shadow: the shadow texture's comparison (issue 38, the texture units' arithmetic).
// Bit-exact with pica_model::tex::{shadow_ref, shadow_texel} (model/src/tex/mod.rs; the rule
// is Azahar's software renderer's, UNVERIFIED(hw) [fact: tex-shadow-compare]):
//   z_int = min(floor(|z| · 0xFFFFFF), 0xFFFFFF) − (z_bias << 1)   (NaN z: 0 − bias)
//   z_ref = a << 16 | b << 8 | g of the texel (the depth FOP's shadow mode wrote)
//   the result is r (the intensity) in all four channels when z_ref ≥ z_int, else 0
// z_int is a per-fragment value (the unit computes it once and compares each texel of the
// footprint with it); here both halves sit in one combinational block: one 17 × 24-bit
// product and a right shift.
//
// Injected bug (rtl-bridge/tests/tex_rtl.rs must catch it):
//   INJECT_TEX_SHADOW_STRICT  lit only when z_ref > z_int (Azahar's GLSL path's rule)
module pica_tex_shadow (
  input  logic [23:0] z_i,       // f24 depth of the fragment
  input  logic [22:0] zbias_i,   // GPUREG_TEXUNIT0_SHADOW bits 1-23
  input  logic [31:0] texel_i,   // {r, g, b, a}
  output logic [31:0] rgba_o
);

  logic [6:0]  e;
  logic        nan, one;
  assign e   = z_i[22:16];
  assign nan = e == 7'h7F && z_i[15:0] != 16'd0;
  // |z| ≥ 1 (exponent 63 and up, infinity included): the product is at least 0xFFFFFF.
  assign one = e >= 7'd63 && !nan;

  // Below 1: floor((2^16 + mantissa) · 0xFFFFFF · 2^(e − 79)), a right shift of 17 to 79.
  logic [40:0] m;
  logic [6:0]  r;
  logic [23:0] zf;
  assign m  = 41'({1'b1, z_i[15:0]}) * 41'(24'hFF_FFFF);
  assign r  = 7'd79 - e;
  assign zf = nan || e == 7'd0 || r > 7'd40 ? 24'd0 : 24'(m >> r);

  logic signed [25:0] z_int, z_ref;
  assign z_int = $signed({2'b00, one ? 24'hFF_FFFF : zf}) - $signed({2'b00, zbias_i, 1'b0});
  assign z_ref = $signed({2'b00, texel_i[7:0], texel_i[15:8], texel_i[23:16]});

  logic lit;
`ifdef INJECT_TEX_SHADOW_STRICT
  assign lit = z_ref > z_int;
`else
  assign lit = z_ref >= z_int;
`endif
  assign rgba_o = lit ? {4{texel_i[31:24]}} : 32'd0;

  // |z|: the sign does not count.
  logic unused;
  assign unused = z_i[23];

endmodule
