// pica_tex_lod: level of detail and the mipmap levels a fragment samples (issue 38, the
// texture units' arithmetic). Bit-exact with pica_model::tex::sample::{lod_from_derivs,
// plan_levels} (model/src/tex/sample.rs, where the rules and their sources are):
//   rho  = max(|du/dx|·w, |du/dy|·w, |dv/dx|·h, |dv/dy|·h), each floor(· 2^8) exactly
//          (pica_tex_coord)
//   lod  = log2(rho / 2^8) in 4.8 fixed point: the leading one's index minus 8, and the 8 bits
//          below it as the fraction (rho = 0: far below any bias: magnified)
//   l    = lod + bias; l ≤ 0 magnifies (level min(min, max), the magnification filter);
//          otherwise lc = clamp(l, lo·256, hi·256) and the mipmap filter picks one level
//          (nearest: (lc + 128) >> 8) or blends lc >> 8 with the next by lc & 255
// The per-axis maximum, the log2 approximation and the level rules are UNVERIFIED(hw)
// [fact: tex-lod] in the model.
//
// Combinational (four pica_tex_coord shifters, a leading-one detector, adders); the unit
// registers around it.
//
// Injected bug (rtl-bridge/tests/tex_rtl.rs must catch it):
//   INJECT_TEX_LOD_ROUND  the nearest mipmap level truncates (lc >> 8) instead of rounding
module pica_tex_lod (
  input  logic [23:0] du_dx_i,
  input  logic [23:0] dv_dx_i,
  input  logic [23:0] du_dy_i,
  input  logic [23:0] dv_dy_i,
  input  logic [10:0] width_i,      // level 0's width and height
  input  logic [10:0] height_i,
  input  logic [12:0] bias_i,       // GPUREG_TEXUNITi_LOD bits 0-12 (fixed 1.4.8)
  input  logic [3:0]  min_level_i,  // bits 24-27
  input  logic [3:0]  max_level_i,  // bits 16-19
  input  logic        mag_linear_i, // GPUREG_TEXUNITi_PARAM bit 1
  input  logic        min_linear_i, // bit 2
  input  logic        mip_linear_i, // bit 24
  output logic [3:0]  level_o,      // the (finer) level
  output logic [3:0]  next_o,       // the coarser level of a blend
  output logic [7:0]  frac_o,       // weight of next_o, of 256
  output logic        two_o,        // blend two levels
  output logic        linear_o      // texel filter within a level
);

  // rho: the four scaled magnitudes (the sign cleared first).
  logic signed [41:0] p0, p1, p2, p3;
  pica_tex_coord u_c0 (.x_i({1'b0, du_dx_i[22:0]}), .scale_i(width_i),  .p_o(p0));
  pica_tex_coord u_c1 (.x_i({1'b0, du_dy_i[22:0]}), .scale_i(width_i),  .p_o(p1));
  pica_tex_coord u_c2 (.x_i({1'b0, dv_dx_i[22:0]}), .scale_i(height_i), .p_o(p2));
  pica_tex_coord u_c3 (.x_i({1'b0, dv_dy_i[22:0]}), .scale_i(height_i), .p_o(p3));

  // Non-negative, at most 2^40: 41 bits.
  logic [40:0] m01, m23, rho;
  assign m01 = p0[40:0] > p1[40:0] ? p0[40:0] : p1[40:0];
  assign m23 = p2[40:0] > p3[40:0] ? p2[40:0] : p3[40:0];
  assign rho = m01 > m23 ? m01 : m23;

  // log2: the leading one (0-40) and the 8 bits below it.
  // A function, not an always_comb loop: rtl/README.md "A rule for Icarus".
  function automatic logic [5:0] lead_one(input logic [40:0] v);
    lead_one = 6'd0;
    for (int k = 0; k < 41; k++) begin
      if (v[k]) lead_one = 6'(k);
    end
  endfunction
  logic [5:0] msb;
  assign msb = lead_one(rho);
  logic [48:0] rho_ext;     // rho with 8 zero bits below: the fraction of a small rho
  logic [7:0]  lfrac;
  assign rho_ext = {rho, 8'd0};
  assign lfrac   = rho_ext[msb +: 8];
  logic none;
  assign none = rho == 41'd0;

  // l = lod + bias: lod in [−2048, 8447], bias in [−4096, 4095]: 16 bits signed.
  logic signed [15:0] lod, l;
  assign lod = $signed({2'd0, msb, lfrac}) - 16'sd2048;
  assign l   = lod + $signed({{3{bias_i[12]}}, bias_i});

  logic [3:0] lo, hi;
  assign lo = min_level_i < max_level_i ? min_level_i : max_level_i;
  assign hi = max_level_i;

  // lc = clamp(l, lo·256, hi·256), l > 0 here.
  logic [11:0] lc;
  logic [3:0]  near, lvl_hi;
  assign lc = l < $signed({4'd0, lo, 8'd0}) ? {lo, 8'd0}
            : l > $signed({4'd0, hi, 8'd0}) ? {hi, 8'd0} : l[11:0];
`ifdef INJECT_TEX_LOD_ROUND
  assign near = lc[11:8];
`else
  // (lc + 128) >> 8 is at most hi (lc ≤ hi·256) and at least lo: the model's clamp after it
  // never bites.
  assign near = lc[11:8] + 4'(lc[7]);
`endif
  assign lvl_hi = lc[11:8] < hi ? lc[11:8] : hi;

  always_comb begin
    level_o  = lo;
    next_o   = lo;
    frac_o   = 8'd0;
    two_o    = 1'b0;
    linear_o = mag_linear_i;
    if (!none && l > 16'sd0) begin
      linear_o = min_linear_i;
      if (!mip_linear_i) begin
        level_o = near;
        next_o  = near;
      end else if (lc[7:0] == 8'd0 || lc[11:8] >= hi) begin
        level_o = lvl_hi;
        next_o  = lvl_hi;
      end else begin
        level_o = lc[11:8];
        next_o  = lc[11:8] + 4'd1;
        frac_o  = lc[7:0];
        two_o   = 1'b1;
      end
    end
  end

  logic unused;
  // The signs: |d| is never negative (the sign bit is cleared before the shift).
  assign unused = ^{p0[41], p1[41], p2[41], p3[41], rho_ext[7:0], du_dx_i[23],
                    dv_dx_i[23], du_dy_i[23], dv_dy_i[23]};

endmodule
