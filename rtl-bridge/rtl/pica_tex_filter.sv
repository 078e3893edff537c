// pica_tex_filter: the texture units' filter arithmetic (issue 38): the bilinear blend of a
// 2x2 texel footprint and the blend of two mipmap levels. Bit-exact with
// pica_model::tex::sample::{bilinear_with, lerp_levels_with}:
//   bilinear  per channel (c00·(256−fx)(256−fy) + c10·fx(256−fy) + c01·(256−fx)fy + c11·fx·fy
//             + h) >> 16, h = 2^15 (round half up) or 0 (knob tex-filter-rounding=truncate)
//   levels    per channel (a·(256−f) + b·f + h) >> 8, h = 128 or 0
// The weights' precision and the rounding are UNVERIFIED(hw) [fact: tex-filter-weights] in
// the model (model/src/tex/sample.rs).
//
// The bilinear weights come from pica_tex_weights (which holds INJECT_TEX_FILTER_WEIGHT).
//
// Combinational (the unit registers around it, and between the two blends: pica_tex_top's
// FILTER): sixteen 8 × 17-bit products for the four channels of a bilinear sample, eight
// 8 × 9-bit products for the level blend.
module pica_tex_filter #(
  parameter bit Truncate = 1'b0   // tex-filter-rounding=truncate
) (
  input  logic [31:0] c00_i,   // {r, g, b, a} at (i0, j0)
  input  logic [31:0] c10_i,   // (i0 + 1, j0)
  input  logic [31:0] c01_i,   // (i0, j0 + 1)
  input  logic [31:0] c11_i,   // (i0 + 1, j0 + 1)
  input  logic [16:0] w00_i,   // the texels' weights, of 2^16 (pica_tex_weights)
  input  logic [16:0] w10_i,
  input  logic [16:0] w01_i,
  input  logic [16:0] w11_i,
  output logic [31:0] bilinear_o,

  input  logic [31:0] lvl_a_i, // the finer level's colour
  input  logic [31:0] lvl_b_i, // the coarser level's colour
  input  logic [7:0]  lvl_f_i, // weight of the coarser level, of 256
  output logic [31:0] levels_o
);

  localparam logic [24:0] HalfBi  = Truncate ? 25'd0 : 25'd32768;
  localparam logic [16:0] HalfLvl = Truncate ? 17'd0 : 17'd128;

  logic [8:0] nf;
  assign nf = 9'd256 - {1'b0, lvl_f_i};

  for (genvar ch = 0; ch < 4; ch++) begin : g_ch
    // Sum of the products: at most 255 · 2^16 + 2^15 < 2^25.
    logic [24:0] sum;
    logic [16:0] lsum;
    assign sum = 25'(c00_i[8*ch +: 8]) * 25'(w00_i) + 25'(c10_i[8*ch +: 8]) * 25'(w10_i)
               + 25'(c01_i[8*ch +: 8]) * 25'(w01_i) + 25'(c11_i[8*ch +: 8]) * 25'(w11_i) + HalfBi;
    assign bilinear_o[8*ch +: 8] = sum[23:16];
    // At most 255 · 256 + 128 < 2^17.
    assign lsum = 17'(lvl_a_i[8*ch +: 8]) * 17'(nf) + 17'(lvl_b_i[8*ch +: 8]) * 17'(lvl_f_i)
                + HalfLvl;
    assign levels_o[8*ch +: 8] = lsum[15:8];
    logic unused;
    assign unused = ^{sum[24], sum[15:0], lsum[16], lsum[7:0]};  // rounded off; always 0
  end

endmodule
