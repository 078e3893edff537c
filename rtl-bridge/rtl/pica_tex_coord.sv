// pica_tex_coord: an f24 coordinate (or derivative) to a fixed-point texel position, exactly:
// floor(x · scale · 2^8), saturated to ±2^40 (issue 38, the texture units' arithmetic).
// Bit-exact with pica_model::tex::sample::to_fixed(x, scale, SUBTEXEL_BITS): exponent 0
// (zero, subnormals: the ALU's flush), NaN and scale 0 give 0, ±inf the saturation
// (UNVERIFIED(hw) [fact: tex-coord-precision] in the model: the exact product, 8 sub-texel
// bits and the floor are the model's choices; model/src/tex/sample.rs).
//
// The value is (2^16 + mantissa) · scale · 2^(exponent − 71) in units of 2^-8 texel; the
// product m (28 bits) is placed at bit 40 of a 68-bit word and shifted right by 40 − (exponent
// − 71): one barrel shifter, the bits shifted out say whether a negative value's floor is one
// more in magnitude. Reg puts a register behind the product (where an FPGA's multiplier block
// has its own), before the shifter: p_o then belongs to the operands presented one clock with
// en_i earlier; with Reg = 0 the block is combinational (clk_i and en_i unused). Signed = 0
// (the level of detail's magnitudes) leaves out the negative side: no floor to take.
//
// Injected bug (rtl-bridge/tests/tex_rtl.rs must catch it):
//   INJECT_TEX_COORD_FLOOR  a negative value truncates toward zero (Azahar's rounding, the
//                           model's documented difference) instead of taking the floor
module pica_tex_coord #(
  parameter bit Reg    = 1'b0,
  parameter bit Signed = 1'b1     // 0: x_i is a magnitude (its sign bit is ignored)
) (
  input  logic               clk_i,
  input  logic               en_i,     // the register loads when set (the pipeline moves)
  input  logic [23:0]        x_i,      // f24: sign 23, exponent 22-16 (bias 63), mantissa 15-0
  input  logic [10:0]        scale_i,  // texels on the axis (0-2047)
  output logic signed [41:0] p_o       // floor(x · scale · 256), in [−2^40, 2^40]
);

  localparam logic [40:0] Sat = 41'h100_0000_0000;  // 2^40

  logic       neg_d, zero_d, nan, inf_d;
  logic [6:0] e_d;
  assign neg_d  = Signed && x_i[23];
  assign e_d    = x_i[22:16];
  assign nan    = e_d == 7'h7F && x_i[15:0] != 16'd0;
  assign inf_d  = e_d == 7'h7F && x_i[15:0] == 16'd0;
  assign zero_d = e_d == 7'd0 || nan || scale_i == 11'd0;

  logic [27:0] m_d;
  assign m_d = 28'({1'b1, x_i[15:0]}) * 28'(scale_i);

  // The product and the operand's class, behind the optional register.
  localparam int W = 3 + 7 + 28;
  logic [W-1:0] r_d, r_q;
  assign r_d = {neg_d, zero_d, inf_d, e_d, m_d};
  if (Reg) begin : g_r
    always_ff @(posedge clk_i) if (en_i) r_q <= r_d;
  end else begin : g_r_n
    assign r_q = r_d;
    logic unused;
    assign unused = ^{clk_i, en_i};
  end
  logic        neg, zero, inf;
  logic [6:0]  e;
  logic [27:0] m;
  assign {neg, zero, inf, e, m} = r_q;

  // Right shift r = 40 − (e − 71) = 111 − e: e ≥ 112 overflows (the value is at least m · 2^41
  // ≥ 2^57 units); e ≤ 43 leaves nothing (r ≥ 68) but the inexact bit.
  logic [6:0]  r;
  logic        over;
  logic [67:0] v, shifted, lost_mask;
  assign over      = e >= 7'd112;
  assign r         = 7'd111 - e;
  assign v         = {m, 40'd0};
  assign shifted   = r >= 7'd68 ? 68'd0 : v >> r;
  assign lost_mask = r >= 7'd68 ? {68{1'b1}} : ~({68{1'b1}} << r);

  logic        inexact, big;
  logic [40:0] mag;
  // Nothing is dropped by a left shift (e ≥ 71, r ≤ 40, v's low 40 bits zero) — nor when
  // the value overflows (r would wrap).
  assign inexact = !over && (v & lost_mask) != 68'd0;
  assign big     = over || shifted[67:40] != 28'd0;
  assign mag     = big ? Sat : shifted[40:0];

  always_comb begin
    if (zero) begin
      p_o = '0;
    end else if (inf) begin
      p_o = neg ? -42'sh100_0000_0000 : 42'sh100_0000_0000;
    end else if (neg) begin
`ifdef INJECT_TEX_COORD_FLOOR
      p_o = -$signed({1'b0, mag});
`else
      // floor of a negative value: one more in magnitude when bits were dropped.
      p_o = -$signed({1'b0, mag}) - 42'(inexact);
`endif
    end else begin
      p_o = $signed({1'b0, mag});
    end
  end

endmodule
