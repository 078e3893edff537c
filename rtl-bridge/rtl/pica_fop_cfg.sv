// pica_fop_cfg: FopConfig::from_regs' fields (model/src/fop/mod.rs) from the 20 registers of
// pica_model::fop::CONFIG_REGS (register k at [32*k +: 32], pica_rop_pkg::S*), for both paths of
// FOP (pica_fop, pica_fop_pipe): each field is decoded in this one place. Combinational.
module pica_fop_cfg (
  input  logic [639:0] cfg_i,
  output logic [1:0]   mode_o,
  output logic         blend_en_o,
  output logic [2:0]   rgb_eq_o,
  output logic [2:0]   a_eq_o,
  output logic [3:0]   rgb_src_o,
  output logic [3:0]   rgb_dst_o,
  output logic [3:0]   a_src_o,
  output logic [3:0]   a_dst_o,
  output logic [3:0]   logic_op_o,
  output logic [31:0]  const_o,
  output logic         alpha_test_o,
  output logic [2:0]   alpha_func_o,
  output logic [7:0]   alpha_ref_o,
  output logic         st_test_o,
  output logic [2:0]   st_func_o,
  output logic [7:0]   st_wmask_o,
  output logic [7:0]   st_ref_o,
  output logic [7:0]   st_mask_o,
  output logic [2:0]   st_fail_o,
  output logic [2:0]   st_zfail_o,
  output logic [2:0]   st_zpass_o,
  output logic         depth_test_o,
  output logic [2:0]   depth_func_o,
  output logic [3:0]   cmask_o,
  output logic         depth_write_o,
  output logic [3:0]   cb_read_o,
  output logic [3:0]   cb_write_o,
  output logic         depth_read_o,
  output logic         stencil_read_o,
  output logic         depth_wr_allowed_o,
  output logic         stencil_wr_allowed_o,
  output logic [1:0]   dfmt_o,
  output logic [2:0]   cfmt_o,
  output logic         block32_o,
  output logic [27:0]  dloc_o,
  output logic [27:0]  cloc_o,
  output logic [10:0]  width_o,
  output logic [9:0]   hm1_o,
  output logic [23:0]  gas_k_o,
  output logic [1:0]   gas_func_o,
  output logic [15:0]  sh_c_o,
  output logic [15:0]  sh_l_o
);

  // Only the fields FopConfig decodes are read.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [639:0] cfg;
  /* verilator lint_on UNUSEDSIGNAL */
  assign cfg = cfg_i;

  assign mode_o = cfg[32*pica_rop_pkg::SColorOp + pica_regs_pkg::COLOR_OPERATION_FRAGMENT_MODE_LSB +: 2];
  assign blend_en_o = cfg[32*pica_rop_pkg::SColorOp + pica_regs_pkg::COLOR_OPERATION_BLEND_MODE_LSB];
  assign rgb_eq_o = cfg[32*pica_rop_pkg::SBlendFunc + pica_regs_pkg::BLEND_FUNC_RGB_EQUATION_LSB +: 3];
  assign a_eq_o = cfg[32*pica_rop_pkg::SBlendFunc + pica_regs_pkg::BLEND_FUNC_ALPHA_EQUATION_LSB +: 3];
  assign rgb_src_o = cfg[32*pica_rop_pkg::SBlendFunc + pica_regs_pkg::BLEND_FUNC_RGB_SRC_FUNC_LSB +: 4];
  assign rgb_dst_o = cfg[32*pica_rop_pkg::SBlendFunc + pica_regs_pkg::BLEND_FUNC_RGB_DST_FUNC_LSB +: 4];
  assign a_src_o = cfg[32*pica_rop_pkg::SBlendFunc + pica_regs_pkg::BLEND_FUNC_ALPHA_SRC_FUNC_LSB +: 4];
  assign a_dst_o = cfg[32*pica_rop_pkg::SBlendFunc + pica_regs_pkg::BLEND_FUNC_ALPHA_DST_FUNC_LSB +: 4];
  assign logic_op_o = cfg[32*pica_rop_pkg::SLogicOp + pica_regs_pkg::LOGIC_OP_OP_LSB +: 4];
  assign const_o = {cfg[32*pica_rop_pkg::SBlendCol + pica_regs_pkg::BLEND_COLOR_ALPHA_LSB +: 8],
                         cfg[32*pica_rop_pkg::SBlendCol + pica_regs_pkg::BLEND_COLOR_BLUE_LSB +: 8],
                         cfg[32*pica_rop_pkg::SBlendCol + pica_regs_pkg::BLEND_COLOR_GREEN_LSB +: 8],
                         cfg[32*pica_rop_pkg::SBlendCol + pica_regs_pkg::BLEND_COLOR_RED_LSB +: 8]};
  assign alpha_test_o = cfg[32*pica_rop_pkg::SAlpha + pica_regs_pkg::FRAGOP_ALPHA_TEST_ENABLED_LSB];
  assign alpha_func_o = cfg[32*pica_rop_pkg::SAlpha + pica_regs_pkg::FRAGOP_ALPHA_TEST_FUNCTION_LSB +: 3];
  assign alpha_ref_o = cfg[32*pica_rop_pkg::SAlpha + pica_regs_pkg::FRAGOP_ALPHA_TEST_REFERENCE_LSB +: 8];
  assign st_test_o = cfg[32*pica_rop_pkg::SStencil + pica_regs_pkg::STENCIL_TEST_ENABLED_LSB];
  assign st_func_o = cfg[32*pica_rop_pkg::SStencil + pica_regs_pkg::STENCIL_TEST_FUNCTION_LSB +: 3];
  assign st_wmask_o = cfg[32*pica_rop_pkg::SStencil + pica_regs_pkg::STENCIL_TEST_BUFFER_MASK_LSB +: 8];
  // The raw bits 16-23 (the seed's "signed" reference; FopConfig::stencil_ref).
  assign st_ref_o = cfg[32*pica_rop_pkg::SStencil + pica_regs_pkg::STENCIL_TEST_REFERENCE_LSB +: 8];
  assign st_mask_o = cfg[32*pica_rop_pkg::SStencil + pica_regs_pkg::STENCIL_TEST_MASK_LSB +: 8];
  assign st_fail_o = cfg[32*pica_rop_pkg::SStencilOp + pica_regs_pkg::STENCIL_OP_FAIL_OP_LSB +: 3];
  assign st_zfail_o = cfg[32*pica_rop_pkg::SStencilOp + pica_regs_pkg::STENCIL_OP_ZFAIL_OP_LSB +: 3];
  assign st_zpass_o = cfg[32*pica_rop_pkg::SStencilOp + pica_regs_pkg::STENCIL_OP_ZPASS_OP_LSB +: 3];
  assign depth_test_o = cfg[32*pica_rop_pkg::SDcMask + pica_regs_pkg::DEPTH_COLOR_MASK_DEPTH_TEST_ENABLED_LSB];
  assign depth_func_o = cfg[32*pica_rop_pkg::SDcMask + pica_regs_pkg::DEPTH_COLOR_MASK_DEPTH_FUNCTION_LSB +: 3];
  assign cmask_o = {cfg[32*pica_rop_pkg::SDcMask + pica_regs_pkg::DEPTH_COLOR_MASK_ALPHA_WRITE_ENABLED_LSB],
                         cfg[32*pica_rop_pkg::SDcMask + pica_regs_pkg::DEPTH_COLOR_MASK_BLUE_WRITE_ENABLED_LSB],
                         cfg[32*pica_rop_pkg::SDcMask + pica_regs_pkg::DEPTH_COLOR_MASK_GREEN_WRITE_ENABLED_LSB],
                         cfg[32*pica_rop_pkg::SDcMask + pica_regs_pkg::DEPTH_COLOR_MASK_RED_WRITE_ENABLED_LSB]};
  assign depth_write_o = cfg[32*pica_rop_pkg::SDcMask + pica_regs_pkg::DEPTH_COLOR_MASK_DEPTH_WRITE_ENABLED_LSB];
  assign cb_read_o = cfg[32*pica_rop_pkg::SCbRead + pica_regs_pkg::COLORBUFFER_READ_ALLOW_READ_LSB +: 4];
  assign cb_write_o = cfg[32*pica_rop_pkg::SCbWrite + pica_regs_pkg::COLORBUFFER_WRITE_ALLOW_WRITE_LSB +: 4];
  assign depth_read_o = cfg[32*pica_rop_pkg::SDbRead + pica_regs_pkg::DEPTHBUFFER_READ_ALLOW_DEPTH_READ_LSB];
  assign stencil_read_o = cfg[32*pica_rop_pkg::SDbRead + pica_regs_pkg::DEPTHBUFFER_READ_ALLOW_STENCIL_READ_LSB];
  assign depth_wr_allowed_o = cfg[32*pica_rop_pkg::SDbWrite + pica_regs_pkg::DEPTHBUFFER_WRITE_ALLOW_DEPTH_WRITE_LSB];
  assign stencil_wr_allowed_o = cfg[32*pica_rop_pkg::SDbWrite + pica_regs_pkg::DEPTHBUFFER_WRITE_ALLOW_STENCIL_WRITE_LSB];
  assign dfmt_o = cfg[32*pica_rop_pkg::SDbFormat + pica_regs_pkg::DEPTHBUFFER_FORMAT_FORMAT_LSB +: 2];
  assign cfmt_o = cfg[32*pica_rop_pkg::SCbFormat + pica_regs_pkg::COLORBUFFER_FORMAT_FORMAT_LSB +: 3];
  assign block32_o = cfg[32*pica_rop_pkg::SBlock32 + pica_regs_pkg::FRAMEBUFFER_BLOCK32_BLOCK_MODE_LSB];
  assign dloc_o = cfg[32*pica_rop_pkg::SDbLoc + pica_regs_pkg::DEPTHBUFFER_LOC_ADDR_LSB +: 28];
  assign cloc_o = cfg[32*pica_rop_pkg::SCbLoc + pica_regs_pkg::COLORBUFFER_LOC_ADDR_LSB +: 28];
  assign width_o = cfg[32*pica_rop_pkg::SDim + pica_regs_pkg::FRAMEBUFFER_DIM_WIDTH_LSB +: 11];
  assign hm1_o = cfg[32*pica_rop_pkg::SDim + pica_regs_pkg::FRAMEBUFFER_DIM_HEIGHT_MINUS_1_LSB +: 10];
  assign gas_k_o = cfg[32*pica_rop_pkg::SGas + pica_regs_pkg::GAS_DELTAZ_DEPTH_DEPTH_ATTENUATION_LSB +: 24];
  assign gas_func_o = cfg[32*pica_rop_pkg::SGas + pica_regs_pkg::GAS_DELTAZ_DEPTH_DEPTH_FUNCTION_LSB +: 2];
  assign sh_c_o = cfg[32*pica_rop_pkg::SShadow + pica_regs_pkg::FRAGOP_SHADOW_PENUMBRA_SCALE_PLUS_BIAS_LSB +: 16];
  assign sh_l_o = cfg[32*pica_rop_pkg::SShadow + pica_regs_pkg::FRAGOP_SHADOW_NEG_PENUMBRA_SCALE_LSB +: 16];

endmodule : pica_fop_cfg
