// pica_tev_stage: one texture-combiner stage over three clocks, bit-exact with
// `pica_model::tev::run_stage` and `pica_model::tev::buffer_after` (model/src/tev.rs) for stage
// `Stage`: three sources per half (seed 002 GPUREG_TEXENVi_SOURCE), their operands
// (GPUREG_TEXENVi_OPERAND), the combine (GPUREG_TEXENVi_COMBINER; pica_tev_combine per
// channel, pica_tev_dot3 for the DOT3 modes), the scale with saturation (GPUREG_TEXENVi_SCALE),
// and the combiner buffer the stage passes on (GPUREG_TEXENV_UPDATE_BUFFER, _BUFFER_COLOR).
//
// Three clocks (each register loads when en_i): the sources and operands are computed from
// the inputs, and pica_tev_combine registers, per channel, its multiplier's operands and the
// results of the modes without a product (the buffer beside them); then the product; then the
// divides, clamps, DOT3's sum and the scale, so color_o and buffer_o belong to the inputs of
// two clocks before. Why: the whole stage in one clock
// (configuration register, source select, operand, 8x8 products, the divide by 255, scale) was
// TEV's critical path, 24.9 MHz on the LFE5U-85F; the operands alone in a clock of their own
// gave 35.5 MHz, with the products and the divides still in one (docs/src/rtl.md). pica_tev
// delays what rides along by the same two clocks. The configuration is read directly in every
// clock (it is constant while a fragment is in flight, see pica_tev).
//
// Colours are packed r | g << 8 | b << 16 | a << 24 (the `combiner` channel's packing).
// `prev_i` / `prev_buf_i` are what the stage receives: for stage 0, the primary colour and zero
// (seed 002: "Using previous source in the first TEV stage returns the primary color, while
// previous buffer returns zero"); pica_tev supplies them.
//
// Injected bugs (rtl-bridge/rtl/README.md "pica_tev"): INJECT_TEV_SCALE_SAT (the 4x scale
// does not saturate: the low 8 bits of x << 2) and INJECT_TEV_BUFFER (stage k of 1-4 takes its
// RGB buffer-input bit from stage k+1's bit, stage 4 from none: off by one stage).
module pica_tev_stage #(
  parameter int Stage = 0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         en_i,             // the pipeline moves: register this clock's operands
  input  logic [31:0]  primary_i,        // primary colour (interpolated vertex colour)
  input  logic [31:0]  frag_primary_i,   // fragment-lighting primary colour
  input  logic [31:0]  frag_secondary_i, // fragment-lighting secondary colour
  input  logic [127:0] tex_i,            // texture n at [32*n +: 32]
  input  logic [31:0]  prev_i,           // "previous"
  input  logic [31:0]  prev_buf_i,       // "previous buffer"
  // Whole registers come in; a stage reads only its fields (and only stage 0 the buffer
  // colour, only stages 1-4 their UPDATE_BUFFER bits).
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [31:0]  source_i,         // GPUREG_TEXENVi_SOURCE
  input  logic [31:0]  operand_i,        // GPUREG_TEXENVi_OPERAND
  input  logic [31:0]  combiner_i,       // GPUREG_TEXENVi_COMBINER
  input  logic [31:0]  const_i,          // GPUREG_TEXENVi_COLOR
  input  logic [31:0]  scale_i,          // GPUREG_TEXENVi_SCALE
  input  logic [31:0]  update_i,         // GPUREG_TEXENV_UPDATE_BUFFER
  input  logic [31:0]  buffer_color_i,   // GPUREG_TEXENV_BUFFER_COLOR
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [31:0]  color_o,          // the stage's output ("previous" of the next stage)
  output logic [31:0]  buffer_o          // the buffer after the stage ("previous buffer" next)
                                         // (both for the inputs of two clocks before)
);

  // Field positions and encodings (generated from model/regs/registers.toml).
  localparam int RgbSrc0   = pica_regs_pkg::TEXENV_SOURCE_RGB_SOURCE0_LSB;
  localparam int RgbSrc1   = pica_regs_pkg::TEXENV_SOURCE_RGB_SOURCE1_LSB;
  localparam int RgbSrc2   = pica_regs_pkg::TEXENV_SOURCE_RGB_SOURCE2_LSB;
  localparam int ASrc0     = pica_regs_pkg::TEXENV_SOURCE_ALPHA_SOURCE0_LSB;
  localparam int ASrc1     = pica_regs_pkg::TEXENV_SOURCE_ALPHA_SOURCE1_LSB;
  localparam int ASrc2     = pica_regs_pkg::TEXENV_SOURCE_ALPHA_SOURCE2_LSB;
  localparam int RgbOp0    = pica_regs_pkg::TEXENV_OPERAND_RGB_OPERAND0_LSB;
  localparam int RgbOp1    = pica_regs_pkg::TEXENV_OPERAND_RGB_OPERAND1_LSB;
  localparam int RgbOp2    = pica_regs_pkg::TEXENV_OPERAND_RGB_OPERAND2_LSB;
  localparam int AOp0      = pica_regs_pkg::TEXENV_OPERAND_ALPHA_OPERAND0_LSB;
  localparam int AOp1      = pica_regs_pkg::TEXENV_OPERAND_ALPHA_OPERAND1_LSB;
  localparam int AOp2      = pica_regs_pkg::TEXENV_OPERAND_ALPHA_OPERAND2_LSB;
  localparam int RgbMode   = pica_regs_pkg::TEXENV_COMBINER_RGB_COMBINE_LSB;
  localparam int AMode     = pica_regs_pkg::TEXENV_COMBINER_ALPHA_COMBINE_LSB;
  localparam int RgbScale  = pica_regs_pkg::TEXENV_SCALE_RGB_SCALE_LSB;
  localparam int AScale    = pica_regs_pkg::TEXENV_SCALE_ALPHA_SCALE_LSB;
  localparam int UpdRgb1   = pica_regs_pkg::TEXENV_UPDATE_BUFFER_TEXENV1_RGB_BUFFER_INPUT_LSB;
  localparam int UpdA1     = pica_regs_pkg::TEXENV_UPDATE_BUFFER_TEXENV1_ALPHA_BUFFER_INPUT_LSB;

  localparam logic [3:0] SrcPrimary   = pica_regs_pkg::TEXENV_SOURCE_INPUT_PRIMARY_COLOR;
  localparam logic [3:0] SrcFragPri   = pica_regs_pkg::TEXENV_SOURCE_INPUT_FRAGMENT_PRIMARY_COLOR;
  localparam logic [3:0] SrcFragSec   = pica_regs_pkg::TEXENV_SOURCE_INPUT_FRAGMENT_SECONDARY_COLOR;
  localparam logic [3:0] SrcTex0      = pica_regs_pkg::TEXENV_SOURCE_INPUT_TEXTURE0;
  localparam logic [3:0] SrcTex1      = pica_regs_pkg::TEXENV_SOURCE_INPUT_TEXTURE1;
  localparam logic [3:0] SrcTex2      = pica_regs_pkg::TEXENV_SOURCE_INPUT_TEXTURE2;
  localparam logic [3:0] SrcTex3      = pica_regs_pkg::TEXENV_SOURCE_INPUT_TEXTURE3;
  localparam logic [3:0] SrcPrevBuf   = pica_regs_pkg::TEXENV_SOURCE_INPUT_PREVIOUS_BUFFER;
  localparam logic [3:0] SrcConstant  = pica_regs_pkg::TEXENV_SOURCE_INPUT_CONSTANT;
  localparam logic [3:0] SrcPrevious  = pica_regs_pkg::TEXENV_SOURCE_INPUT_PREVIOUS;
  localparam logic [3:0] ModeDot3Rgb  = pica_regs_pkg::TEXENV_COMBINER_MODE_DOT3_RGB;
  localparam logic [3:0] ModeDot3Rgba = pica_regs_pkg::TEXENV_COMBINER_MODE_DOT3_RGBA;
  localparam logic [1:0] ScaleX1      = pica_regs_pkg::TEXENV_SCALE_FACTOR_X1;
  localparam logic [1:0] ScaleX2      = pica_regs_pkg::TEXENV_SCALE_FACTOR_X2;
  localparam logic [1:0] ScaleX4      = pica_regs_pkg::TEXENV_SCALE_FACTOR_X4;
  localparam logic       UpdPrevious  = pica_regs_pkg::TEXENV_UPDATE_BUFFER_INPUT_PREVIOUS;

  // UNVERIFIED(hw): a reserved source (7-12) reads zero — model RESERVED_SOURCE (Azahar
  // WriteTevConfig "unknown source").
  localparam logic [31:0] ReservedSource = 32'd0;
  // UNVERIFIED(hw): the reserved scale 3 shifts by 0 (1x) — model RESERVED_SCALE_SHIFT (Azahar
  // GetColorMultiplier returns 1 for scale >= 3).
  localparam int ReservedScaleShift = 0;

  // Where source k's field starts in GPUREG_TEXENVi_SOURCE.
  function automatic int src_lsb(input int k);
    unique case (k)
      0:       src_lsb = RgbSrc0;
      1:       src_lsb = RgbSrc1;
      2:       src_lsb = RgbSrc2;
      3:       src_lsb = ASrc0;
      4:       src_lsb = ASrc1;
      default: src_lsb = ASrc2;
    endcase
  endfunction

  // The colour a source value selects (model `tev::source`).
  function automatic logic [31:0] pick_source(input logic [3:0] src, input logic [31:0] pri,
                                              input logic [31:0] fpri, input logic [31:0] fsec,
                                              input logic [127:0] tex, input logic [31:0] k,
                                              input logic [31:0] prev, input logic [31:0] pbuf);
    unique case (src)
      SrcPrimary:  pick_source = pri;
      SrcFragPri:  pick_source = fpri;
      SrcFragSec:  pick_source = fsec;
      SrcTex0:     pick_source = tex[31:0];
      SrcTex1:     pick_source = tex[63:32];
      SrcTex2:     pick_source = tex[95:64];
      SrcTex3:     pick_source = tex[127:96];
      SrcPrevBuf:  pick_source = pbuf;
      SrcConstant: pick_source = k;
      SrcPrevious: pick_source = prev;
      default:     pick_source = ReservedSource;
    endcase
  endfunction

  // An RGB operand (model `tev::rgb_operand`): bits 3:2 pick the channel (0: colour or alpha
  // by bit 1, 1 r, 2 g, 3 b), bit 0 inverts. The reserved values decode the same way (model
  // choice, UNVERIFIED(hw) there).
  function automatic logic [23:0] rgb_operand(input logic [3:0] op, input logic [31:0] c);
    logic [23:0] p;
    unique case (op[3:2])
      2'd0:    p = op[1] ? {3{c[31:24]}} : c[23:0];
      2'd1:    p = {3{c[7:0]}};
      2'd2:    p = {3{c[15:8]}};
      default: p = {3{c[23:16]}};
    endcase
    rgb_operand = op[0] ? ~p : p;  // 255 - x per channel
  endfunction

  // An alpha operand (model `tev::alpha_operand`): bits 2:1 pick a, r, g, b; bit 0 inverts.
  function automatic logic [7:0] alpha_operand(input logic [2:0] op, input logic [31:0] c);
    logic [7:0] x;
    unique case (op[2:1])
      2'd0:    x = c[31:24];
      2'd1:    x = c[7:0];
      2'd2:    x = c[15:8];
      default: x = c[23:16];
    endcase
    alpha_operand = op[0] ? ~x : x;
  endfunction

  // The scale with saturation (model `tev::scale`).
  function automatic logic [7:0] do_scale(input logic [7:0] x, input logic [1:0] s);
    logic [9:0] w;
    unique case (s)
      ScaleX1: w = {2'b00, x};
      ScaleX2: w = {1'b0, x, 1'b0};
      ScaleX4: begin
        w = {x, 2'b00};
`ifdef INJECT_TEV_SCALE_SAT
        // Injected bug: 4x wraps instead of saturating.
        w[9:8] = 2'b00;
`endif
      end
      default: w = {2'b00, x} << ReservedScaleShift;
    endcase
    do_scale = (w > 10'd255) ? 8'd255 : w[7:0];
  endfunction

  // Source k: RGB sources 0-2 (k = 0..2), then alpha sources 0-2 (k = 3..5).
  logic [31:0] src [6];
  logic [23:0] ra, rb, rc;
  logic [7:0]  aa, ab, ac;
  logic [31:0] buf_d, buf_q;
  logic [3:0]  rgb_mode;
  logic        dot3_mode;
  logic [23:0] rgb_comb;
  logic [47:0] dot3_prod;
  logic [2:0]  dot3_neg;
  logic [7:0]  dot3;
  logic [7:0]  alpha_comb, alpha;
  logic [23:0] rgb;

  always_comb begin
    for (int k = 0; k < 6; k++) begin
      src[k] = pick_source(source_i[src_lsb(k) +: 4], primary_i,
                           frag_primary_i, frag_secondary_i, tex_i, const_i, prev_i,
                           prev_buf_i);
    end
    ra = rgb_operand(operand_i[RgbOp0 +: 4], src[0]);
    rb = rgb_operand(operand_i[RgbOp1 +: 4], src[1]);
    rc = rgb_operand(operand_i[RgbOp2 +: 4], src[2]);
    aa = alpha_operand(operand_i[AOp0 +: 3], src[3]);
    ab = alpha_operand(operand_i[AOp1 +: 3], src[4]);
    ac = alpha_operand(operand_i[AOp2 +: 3], src[5]);
  end

  // The buffer, registered beside the first clock's operands (inside pica_tev_combine) and
  // again beside the products, so it leaves with color_o.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      buf_q <= '0;
      buffer_o <= '0;
    end else if (en_i) begin
      buf_q <= buf_d;
      buffer_o <= buf_q;
    end
  end

  // The three clocks of the combine (pica_tev_combine per channel, the RGB channels also
  // computing DOT3's products), then DOT3's rounding and sum, the DOT3 select and the scale in
  // the third.
  assign rgb_mode  = combiner_i[RgbMode +: 4];
  assign dot3_mode = (rgb_mode == ModeDot3Rgb) || (rgb_mode == ModeDot3Rgba);

  for (genvar i = 0; i < 3; i++) begin : g_rgb
    pica_tev_combine u_rgb (
      .clk_i, .rst_ni, .en_i, .mode_i(rgb_mode), .dot3_i(dot3_mode),
      .a_i(ra[8*i +: 8]), .b_i(rb[8*i +: 8]), .c_i(rc[8*i +: 8]),
      .y_o(rgb_comb[8*i +: 8]), .prod_o(dot3_prod[16*i +: 16]), .neg_o(dot3_neg[i])
    );
  end

  // The alpha channel never computes DOT3 (DOT3_RGBA's alpha is the RGB channels' value).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0] alpha_prod_unused;
  logic        alpha_neg_unused;
  /* verilator lint_on UNUSEDSIGNAL */
  pica_tev_combine u_alpha (
    .clk_i, .rst_ni, .en_i, .mode_i(combiner_i[AMode +: 4]), .dot3_i(1'b0),
    .a_i(aa), .b_i(ab), .c_i(ac), .y_o(alpha_comb), .prod_o(alpha_prod_unused),
    .neg_o(alpha_neg_unused)
  );

  pica_tev_dot3 u_dot3 (.prod_i(dot3_prod), .neg_i(dot3_neg), .y_o(dot3));

  always_comb begin
    // DOT3 puts one value in every RGB channel; DOT3_RGBA also in alpha, which then ignores
    // the alpha half's own sources, operands and mode but keeps the alpha scale (model
    // run_stage; UNVERIFIED(hw) there, Azahar WriteTevConfig).
    if (dot3_mode) rgb = {3{dot3}};
    else           rgb = rgb_comb;
    alpha = (rgb_mode == ModeDot3Rgba) ? dot3 : alpha_comb;
    color_o = {do_scale(alpha, scale_i[AScale +: 2]),
               do_scale(rgb[23:16], scale_i[RgbScale +: 2]),
               do_scale(rgb[15:8], scale_i[RgbScale +: 2]),
               do_scale(rgb[7:0], scale_i[RgbScale +: 2])};
  end

  // The buffer this stage passes on (model buffer_after; registered with the operands): stage
  // 0 the buffer colour; stages 1-4 per channel group "previous" (the stage's own previous
  // input) or "previous buffer" as UPDATE_BUFFER bit 7+k (RGB) / 11+k (alpha) says; stage 5
  // its previous buffer unchanged.
  logic upd_rgb, upd_alpha;
  always_comb begin
    upd_rgb   = 1'b0;
    upd_alpha = 1'b0;
    if (Stage >= 1 && Stage <= 4) begin
`ifdef INJECT_TEV_BUFFER
      // Injected bug: the RGB bit of the next stage (none for stage 4).
      upd_rgb = (Stage <= 3) ? update_i[UpdRgb1 + Stage] : 1'b0;
`else
      upd_rgb = update_i[UpdRgb1 + Stage - 1];
`endif
      upd_alpha = update_i[UpdA1 + Stage - 1];
    end
    if (Stage == 0) begin
      buf_d = buffer_color_i;
    end else begin
      buf_d[23:0]  = (upd_rgb == UpdPrevious) ? prev_i[23:0] : prev_buf_i[23:0];
      buf_d[31:24] = (upd_alpha == UpdPrevious) ? prev_i[31:24] : prev_buf_i[31:24];
    end
  end

endmodule : pica_tev_stage
