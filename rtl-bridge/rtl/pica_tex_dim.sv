// pica_tex_dim: a mipmap level's width or height (issue 38, the texture units' arithmetic).
// Bit-exact with pica_model::tex::level_dim_min (model/src/tex/mod.rs):
//   max(dim >> level, min(dim, Min)), at least 1 — Min = 8 (one tile) by default, 1 with knob
//   tex-min-level-size=1 (parameter MinOne; the 8 is UNVERIFIED(hw) [fact: tex-min-level-size])
// Combinational; pica_tex_level (the offsets) and pica_tex_top (each level's size) use it.
//
// Injected bug (rtl-bridge/tests/tex_rtl.rs must catch it):
//   INJECT_TEX_LEVEL_MIN  levels stop shrinking at Min even when the level-0 size is smaller
//                         (max(dim >> level, Min) instead of min(dim, Min))
module pica_tex_dim #(
  parameter bit MinOne = 1'b0         // tex-min-level-size=1
) (
  input  logic [10:0] dim_i,          // level 0's width or height
  input  logic [3:0]  level_i,
  output logic [10:0] dim_o
);

  localparam logic [10:0] Min = MinOne ? 11'd1 : 11'd8;

  logic [10:0] sh, fl, r;
  assign sh = dim_i >> level_i;
`ifdef INJECT_TEX_LEVEL_MIN
  assign fl = Min;
`else
  assign fl = dim_i < Min ? dim_i : Min;
`endif
  assign r     = sh > fl ? sh : fl;
  assign dim_o = r == 11'd0 ? 11'd1 : r;

endmodule : pica_tex_dim
