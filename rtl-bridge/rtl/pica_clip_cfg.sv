// pica_clip_cfg: the fields of clip::CONFIG_REGS that CLIP decodes (model/src/clip.rs:
// CullMode::from_regs, Viewport::from_regs, user_plane), shared by pica_clip's general path and
// pica_clip_pipe's fast path so that both read the registers one way.
//
// cfg_i holds pica_model::clip::CONFIG_REGS in that order, register k at [32*k +: 32].
module pica_clip_cfg (
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [351:0] cfg_i,            // only the fields the model decodes are read
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [1:0]   cull_o,           // GPUREG_FACECULLING_CONFIG mode
  output logic         user_en_o,        // the user clip plane is on
  output logic [95:0]  uc_o,             // its coefficients c0-c3 at [24*j +: 24]
  output logic [23:0]  half_w_o,
  output logic [23:0]  half_h_o,
  output logic [23:0]  dscale_o,
  output logic [23:0]  doff_o,
  output logic [23:0]  off_x_o,          // the viewport offset as f24
  output logic [23:0]  off_y_o
);

  localparam int SCull   = 0;   // GPUREG_FACECULLING_CONFIG
  localparam int SWidth  = 1;   // GPUREG_VIEWPORT_WIDTH
  localparam int SHeight = 2;   // GPUREG_VIEWPORT_HEIGHT
  localparam int SUclip  = 3;   // GPUREG_FRAGOP_CLIP
  localparam int SUdata0 = 4;   // GPUREG_FRAGOP_CLIP_DATA0-3
  localparam int SDScale = 8;   // GPUREG_DEPTHMAP_SCALE
  localparam int SDOff   = 9;   // GPUREG_DEPTHMAP_OFFSET
  localparam int SXy     = 10;  // GPUREG_VIEWPORT_XY

  // A 10-bit signed integer as f24, exactly (Viewport::from_regs: |v| <= 512).
  function automatic logic [23:0] int10_to_f24(input logic [9:0] v);
    logic [10:0] mag;
    logic [3:0]  lead;
    logic [15:0] mant;
    mag  = v[9] ? (11'd0 - {1'b1, v}) : {1'b0, v};
    lead = 4'd0;
    for (int b = 0; b < 11; b++) begin
      if (mag[b]) lead = 4'(b);
    end
    mant = 16'({16'd0, mag} << (5'd16 - {1'b0, lead}));  // the leading one shifted out
    if (mag == 11'd0) int10_to_f24 = 24'h0;
    else              int10_to_f24 = {v[9], 7'd63 + {3'd0, lead}, mant};
  endfunction

  assign cull_o    = cfg_i[32*SCull + pica_regs_pkg::FACECULLING_CONFIG_MODE_LSB +: 2];
  assign half_w_o  = cfg_i[32*SWidth + pica_regs_pkg::VIEWPORT_WIDTH_HALF_WIDTH_LSB +: 24];
  assign half_h_o  = cfg_i[32*SHeight + pica_regs_pkg::VIEWPORT_HEIGHT_HALF_HEIGHT_LSB +: 24];
  assign user_en_o = cfg_i[32*SUclip + pica_regs_pkg::FRAGOP_CLIP_ENABLED_LSB];
  for (genvar j = 0; j < 4; j++) begin : g_uc
    assign uc_o[24*j +: 24] =
      cfg_i[32*(SUdata0+j) + pica_regs_pkg::FRAGOP_CLIP_DATA_COEFFICIENT_LSB +: 24];
  end
  assign dscale_o  = cfg_i[32*SDScale + pica_regs_pkg::DEPTHMAP_SCALE_SCALE_LSB +: 24];
  assign doff_o    = cfg_i[32*SDOff + pica_regs_pkg::DEPTHMAP_OFFSET_OFFSET_LSB +: 24];
  assign off_x_o   = int10_to_f24(cfg_i[32*SXy + pica_regs_pkg::VIEWPORT_XY_X_LSB +: 10]);
  assign off_y_o   = int10_to_f24(cfg_i[32*SXy + pica_regs_pkg::VIEWPORT_XY_Y_LSB +: 10]);

endmodule : pica_clip_cfg
