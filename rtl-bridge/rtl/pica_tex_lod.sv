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
// Four pica_tex_coord shifters, the maximum, a leading-one detector, adders and the level
// rules. With Reg = 0 combinational (the block test); with Reg = 1 (the texture units'
// set-up) four registers cut it — behind the shifters' products, the shifted magnitudes, rho,
// and l with the level limits and filters — and the outputs belong to the inputs presented
// four clocks with en_i earlier.
//
// Injected bug (rtl-bridge/tests/tex_rtl.rs must catch it):
//   INJECT_TEX_LOD_ROUND  the nearest mipmap level truncates (lc >> 8) instead of rounding
module pica_tex_lod #(
  parameter bit Reg = 1'b0
) (
  input  logic        clk_i,
  input  logic        en_i,         // the registers load when set (the pipeline moves)
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

  // The inputs used after the shifters ride along: {bias, min, max, mag, min, mip}.
  localparam int CW = 13 + 4 + 4 + 3;
  logic [CW-1:0] ctl0, ctl1, ctl2, ctl3, ctl4;
  assign ctl0 = {bias_i, min_level_i, max_level_i, mag_linear_i, min_linear_i, mip_linear_i};

  // rho: the four scaled magnitudes (the sign cleared first).
  logic signed [41:0] p0, p1, p2, p3;
  pica_tex_coord #(.Reg(Reg), .Signed(1'b0)) u_c0 (
    .clk_i, .en_i, .x_i({1'b0, du_dx_i[22:0]}), .scale_i(width_i),  .p_o(p0));
  pica_tex_coord #(.Reg(Reg), .Signed(1'b0)) u_c1 (
    .clk_i, .en_i, .x_i({1'b0, du_dy_i[22:0]}), .scale_i(width_i),  .p_o(p1));
  pica_tex_coord #(.Reg(Reg), .Signed(1'b0)) u_c2 (
    .clk_i, .en_i, .x_i({1'b0, dv_dx_i[22:0]}), .scale_i(height_i), .p_o(p2));
  pica_tex_coord #(.Reg(Reg), .Signed(1'b0)) u_c3 (
    .clk_i, .en_i, .x_i({1'b0, dv_dy_i[22:0]}), .scale_i(height_i), .p_o(p3));

  // Non-negative, at most 2^40: 41 bits.
  logic [40:0] q0, q1, q2, q3;
  logic [40:0] m01, m23, rho_d, rho;
  assign m01   = q0 > q1 ? q0 : q1;
  assign m23   = q2 > q3 ? q2 : q3;
  assign rho_d = m01 > m23 ? m01 : m23;

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
  logic none_d, none;
  assign none_d = rho == 41'd0;

  // l = lod + bias: lod in [−2048, 8447], bias in [−4096, 4095]: 16 bits signed.
  logic signed [15:0] lod, l_d, l;
  logic [12:0] bias;
  assign bias = ctl3[CW-1 -: 13];
  assign lod = $signed({2'd0, msb, lfrac}) - 16'sd2048;
  assign l_d = lod + $signed({{3{bias[12]}}, bias});

  if (Reg) begin : g_reg
    logic [CW-1:0]  c1_q, c2_q, c3_q, c4_q;
    logic [163:0]   p_q;
    logic [40:0]    rho_q;
    logic [15:0]    l_q;
    logic           none_q;
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        c1_q   <= ctl0;
        c2_q   <= ctl1;
        p_q    <= {p0[40:0], p1[40:0], p2[40:0], p3[40:0]};
        c3_q   <= ctl2;
        rho_q  <= rho_d;
        c4_q   <= ctl3;
        l_q    <= l_d;
        none_q <= none_d;
      end
    end
    assign ctl1 = c1_q;
    assign ctl2 = c2_q;
    assign ctl3 = c3_q;
    assign ctl4 = c4_q;
    assign {q0, q1, q2, q3} = p_q;
    assign rho  = rho_q;
    assign l    = l_q;
    assign none = none_q;
  end else begin : g_comb
    assign ctl1 = ctl0;
    assign ctl2 = ctl1;
    assign ctl3 = ctl2;
    assign ctl4 = ctl3;
    assign {q0, q1, q2, q3} = {p0[40:0], p1[40:0], p2[40:0], p3[40:0]};
    assign rho  = rho_d;
    assign l    = l_d;
    assign none = none_d;
    logic unused;
    assign unused = ^{clk_i, en_i};
  end

  // The level rules, on the inputs that came with l.
  logic [3:0] min_level, max_level;
  logic       mag_linear, min_linear, mip_linear;
  assign {min_level, max_level, mag_linear, min_linear, mip_linear} = ctl4[CW-14:0];

  logic [3:0] lo, hi;
  assign lo = min_level < max_level ? min_level : max_level;
  assign hi = max_level;

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
    linear_o = mag_linear;
    if (!none && l > 16'sd0) begin
      linear_o = min_linear;
      if (!mip_linear) begin
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
                    dv_dx_i[23], du_dy_i[23], dv_dy_i[23], ctl4[CW-1 -: 13]};

endmodule
