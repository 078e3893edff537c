// pica_tex_weights: the four bilinear weights of a 2x2 texel footprint from the column and
// row fractions (issue 38), as pica_model::tex::sample::bilinear_with forms them:
//   w00 = (256−fx)(256−fy), w10 = fx(256−fy), w01 = (256−fx)fy, w11 = fx·fy
// Each is at most 2^16 (17 bits); they sum to 2^16. Split from pica_tex_filter so that
// pica_tex_top can register the weights beside the texel's decode, a clock before the
// colour products: weights, products and the level blend in one clock were the unit's
// longest path (36.9 ns on the LFE5U-85F, docs/src/rtl.md).
//
// Injected bug (rtl-bridge/tests/tex_rtl.rs must catch it):
//   INJECT_TEX_FILTER_WEIGHT  the lower right weight fx·fy one short when both are nonzero
module pica_tex_weights (
  input  logic [7:0]  fx_i,    // column weight of the right texels, of 256
  input  logic [7:0]  fy_i,    // row weight of the lower texels, of 256
  output logic [16:0] w00_o,
  output logic [16:0] w10_o,
  output logic [16:0] w01_o,
  output logic [16:0] w11_o
);

  logic [8:0] nfx, nfy;
  assign nfx   = 9'd256 - {1'b0, fx_i};
  assign nfy   = 9'd256 - {1'b0, fy_i};
  assign w00_o = 17'(nfx) * 17'(nfy);
  assign w10_o = 17'(fx_i) * 17'(nfy);
  assign w01_o = 17'(nfx) * 17'(fy_i);
`ifdef INJECT_TEX_FILTER_WEIGHT
  // The lower right weight one unit short: the weights no longer sum to 2^16.
  assign w11_o = 17'(fx_i) * 17'(fy_i) - 17'(fx_i != 8'd0 && fy_i != 8'd0);
`else
  assign w11_o = 17'(fx_i) * 17'(fy_i);
`endif

endmodule
