// Generated from model/regs/registers.toml by `pica gen rtl` — do not edit.
//
// PICA200 register IDs, field positions and enum encodings: the register table of the
// pica-cosim reference model. Field parameters are named after the register layout
// (one layout per register family; see docs/registers.md for which IDs use which).

package pica_regs_pkg;

  // A table of constants: any one module uses few of them (Verilator -Wall waiver).
  /* verilator lint_off UNUSEDPARAM */

  localparam int REG_COUNT = 768;

  // ---- Register IDs (3dbrew names without GPUREG_)
  localparam int REG_FINALIZE = 'h010;  // PICA_REG_INTERRUPT
  localparam int REG_FACECULLING_CONFIG = 'h040;  // PICA_REG_CULL_FACE
  localparam int REG_VIEWPORT_WIDTH = 'h041;  // PICA_REG_VIEWPORT_WIDTH1
  localparam int REG_VIEWPORT_INVW = 'h042;  // PICA_REG_VIEWPORT_WIDTH2
  localparam int REG_VIEWPORT_HEIGHT = 'h043;  // PICA_REG_VIEWPORT_HEIGHT1
  localparam int REG_VIEWPORT_INVH = 'h044;  // PICA_REG_VIEWPORT_HEIGHT2
  localparam int REG_FRAGOP_CLIP = 'h047;  // PICA_REG_FRAGOP_CLIP (uncertain)
  localparam int REG_FRAGOP_CLIP_DATA0 = 'h048;  // PICA_REG_FRAGOP_CLIP_DATA1 (uncertain)
  localparam int REG_FRAGOP_CLIP_DATA1 = 'h049;  // PICA_REG_FRAGOP_CLIP_DATA2 (uncertain)
  localparam int REG_FRAGOP_CLIP_DATA2 = 'h04A;  // PICA_REG_FRAGOP_CLIP_DATA3 (uncertain)
  localparam int REG_FRAGOP_CLIP_DATA3 = 'h04B;  // PICA_REG_FRAGOP_CLIP_DATA4 (uncertain)
  localparam int REG_DEPTHMAP_SCALE = 'h04D;  // PICA_REG_FRAGOP_WSCALE_DATA1
  localparam int REG_DEPTHMAP_OFFSET = 'h04E;  // PICA_REG_FRAGOP_WSCALE_DATA2
  localparam int REG_SH_OUTMAP_TOTAL = 'h04F;  // PICA_REG_GS_OUT_REG_NUM0 / PICA_REG_VS_OUT_REG_NUM0
  localparam int REG_SH_OUTMAP_O0 = 'h050;  // PICA_REG_GS_OUT_ATTR0 / PICA_REG_VS_OUT_ATTR0
  localparam int REG_SH_OUTMAP_O1 = 'h051;  // PICA_REG_GS_OUT_ATTR1 / PICA_REG_VS_OUT_ATTR1
  localparam int REG_SH_OUTMAP_O2 = 'h052;  // PICA_REG_GS_OUT_ATTR2 / PICA_REG_VS_OUT_ATTR2
  localparam int REG_SH_OUTMAP_O3 = 'h053;  // PICA_REG_GS_OUT_ATTR3 / PICA_REG_VS_OUT_ATTR3
  localparam int REG_SH_OUTMAP_O4 = 'h054;  // PICA_REG_GS_OUT_ATTR4 / PICA_REG_VS_OUT_ATTR4
  localparam int REG_SH_OUTMAP_O5 = 'h055;  // PICA_REG_GS_OUT_ATTR5 / PICA_REG_VS_OUT_ATTR5
  localparam int REG_SH_OUTMAP_O6 = 'h056;  // PICA_REG_GS_OUT_ATTR6 / PICA_REG_VS_OUT_ATTR6
  localparam int REG_EARLYDEPTH_FUNC = 'h061;  // PICA_REG_EARLY_DEPTH_FUNC (uncertain)
  localparam int REG_EARLYDEPTH_TEST1 = 'h062;  // PICA_REG_EARLY_DEPTH_TEST1 (uncertain)
  localparam int REG_EARLYDEPTH_CLEAR = 'h063;  // PICA_REG_EARLY_DEPTH_CLEAR
  localparam int REG_SH_OUTATTR_MODE = 'h064;  // PICA_REG_GS_OUT_ATTR_MODE / PICA_REG_VS_OUT_ATTR_MODE (uncertain)
  localparam int REG_SCISSORTEST_MODE = 'h065;  // PICA_REG_SCISSOR
  localparam int REG_SCISSORTEST_POS = 'h066;  // PICA_REG_SCISSOR_XY
  localparam int REG_SCISSORTEST_DIM = 'h067;  // PICA_REG_SCISSOR_SIZE
  localparam int REG_VIEWPORT_XY = 'h068;  // PICA_REG_VIEWPORT_XY
  localparam int REG_EARLYDEPTH_DATA = 'h06A;  // PICA_REG_EARLY_DEPTH_DATA
  localparam int REG_DEPTHMAP_ENABLE = 'h06D;  // PICA_REG_FRAGOP_WSCALE (uncertain)
  localparam int REG_RENDERBUF_DIM = 'h06E;  // PICA_REG_RENDER_BUF_RESOLUTION1 (uncertain)
  localparam int REG_SH_OUTATTR_CLOCK = 'h06F;  // PICA_REG_GS_OUT_ATTR_CLK / PICA_REG_VS_OUT_ATTR_CLK (uncertain)
  localparam int REG_TEXUNIT_CONFIG = 'h080;  // PICA_REG_TEXTURE_FUNC
  localparam int REG_TEXUNIT0_BORDER_COLOR = 'h081;  // PICA_REG_TEXTURE0_BORDER_COLOR
  localparam int REG_TEXUNIT0_DIM = 'h082;  // PICA_REG_TEXTURE0_SIZE
  localparam int REG_TEXUNIT0_PARAM = 'h083;  // PICA_REG_TEXTURE0_WRAP_FILTER
  localparam int REG_TEXUNIT0_LOD = 'h084;  // PICA_REG_TEXTURE0_LOD (uncertain)
  localparam int REG_TEXUNIT0_ADDR1 = 'h085;  // PICA_REG_TEXTURE0_ADDR1
  localparam int REG_TEXUNIT0_ADDR2 = 'h086;  // PICA_REG_TEXTURE0_ADDR2
  localparam int REG_TEXUNIT0_ADDR3 = 'h087;  // PICA_REG_TEXTURE0_ADDR3
  localparam int REG_TEXUNIT0_ADDR4 = 'h088;  // PICA_REG_TEXTURE0_ADDR4
  localparam int REG_TEXUNIT0_ADDR5 = 'h089;  // PICA_REG_TEXTURE0_ADDR5
  localparam int REG_TEXUNIT0_ADDR6 = 'h08A;  // PICA_REG_TEXTURE0_ADDR6
  localparam int REG_TEXUNIT0_SHADOW = 'h08B;  // PICA_REG_TEXTURE0_SHADOW (uncertain)
  localparam int REG_TEXUNIT0_TYPE = 'h08E;  // PICA_REG_TEXTURE0_FORMAT (uncertain)
  localparam int REG_LIGHTING_ENABLE0 = 'h08F;  // PICA_REG_FRAG_LIGHT_EN0 (uncertain)
  localparam int REG_TEXUNIT1_BORDER_COLOR = 'h091;  // PICA_REG_TEXTURE1_BORDER_COLOR
  localparam int REG_TEXUNIT1_DIM = 'h092;  // PICA_REG_TEXTURE1_SIZE
  localparam int REG_TEXUNIT1_PARAM = 'h093;  // PICA_REG_TEXTURE1_WRAP_FILTER
  localparam int REG_TEXUNIT1_LOD = 'h094;  // PICA_REG_TEXTURE1_LOD (uncertain)
  localparam int REG_TEXUNIT1_ADDR = 'h095;  // PICA_REG_TEXTURE1_ADDR
  localparam int REG_TEXUNIT1_TYPE = 'h096;  // PICA_REG_TEXTURE1_FORMAT
  localparam int REG_TEXUNIT2_BORDER_COLOR = 'h099;  // PICA_REG_TEXTURE2_BORDER_COLOR
  localparam int REG_TEXUNIT2_DIM = 'h09A;  // PICA_REG_TEXTURE2_SIZE
  localparam int REG_TEXUNIT2_PARAM = 'h09B;  // PICA_REG_TEXTURE2_WRAP_FILTER
  localparam int REG_TEXUNIT2_LOD = 'h09C;  // PICA_REG_TEXTURE2_LOD (uncertain)
  localparam int REG_TEXUNIT2_ADDR = 'h09D;  // PICA_REG_TEXTURE2_ADDR
  localparam int REG_TEXUNIT2_TYPE = 'h09E;  // PICA_REG_TEXTURE2_FORMAT
  localparam int REG_TEXUNIT3_PROCTEX0 = 'h0A8;  // PICA_REG_TEXTURE3_PROCTEX0 (uncertain)
  localparam int REG_TEXUNIT3_PROCTEX1 = 'h0A9;  // PICA_REG_TEXTURE3_PROCTEX1 (uncertain)
  localparam int REG_TEXUNIT3_PROCTEX2 = 'h0AA;  // PICA_REG_TEXTURE3_PROCTEX2 (uncertain)
  localparam int REG_TEXUNIT3_PROCTEX3 = 'h0AB;  // PICA_REG_TEXTURE3_PROCTEX3 (uncertain)
  localparam int REG_TEXUNIT3_PROCTEX4 = 'h0AC;  // PICA_REG_TEXTURE3_PROCTEX4 (uncertain)
  localparam int REG_TEXUNIT3_PROCTEX5 = 'h0AD;  // PICA_REG_TEXTURE3_PROCTEX5 (uncertain)
  localparam int REG_PROCTEX_LUT = 'h0AF;  // PICA_REG_PROCTEX_LUT (uncertain)
  localparam int REG_PROCTEX_LUT_DATA0 = 'h0B0;  // PICA_REG_PROCTEX_LUT_DATA0 (uncertain)
  localparam int REG_PROCTEX_LUT_DATA1 = 'h0B1;  // PICA_REG_PROCTEX_LUT_DATA1 (uncertain)
  localparam int REG_PROCTEX_LUT_DATA2 = 'h0B2;  // PICA_REG_PROCTEX_LUT_DATA2 (uncertain)
  localparam int REG_PROCTEX_LUT_DATA3 = 'h0B3;  // PICA_REG_PROCTEX_LUT_DATA3 (uncertain)
  localparam int REG_PROCTEX_LUT_DATA4 = 'h0B4;  // PICA_REG_PROCTEX_LUT_DATA4 (uncertain)
  localparam int REG_PROCTEX_LUT_DATA5 = 'h0B5;  // PICA_REG_PROCTEX_LUT_DATA5 (uncertain)
  localparam int REG_PROCTEX_LUT_DATA6 = 'h0B6;  // PICA_REG_PROCTEX_LUT_DATA6 (uncertain)
  localparam int REG_PROCTEX_LUT_DATA7 = 'h0B7;  // PICA_REG_PROCTEX_LUT_DATA7 (uncertain)
  localparam int REG_TEXENV0_SOURCE = 'h0C0;  // PICA_REG_TEX_ENV_0
  localparam int REG_TEXENV0_OPERAND = 'h0C1;  // PICA_REG_TEX_ENV_0_OPERAND
  localparam int REG_TEXENV0_COMBINER = 'h0C2;  // PICA_REG_TEX_ENV_0_COMBINE
  localparam int REG_TEXENV0_COLOR = 'h0C3;  // PICA_REG_TEX_ENV_0_COLOR
  localparam int REG_TEXENV0_SCALE = 'h0C4;  // PICA_REG_TEX_ENV_0_SCALE
  localparam int REG_TEXENV1_SOURCE = 'h0C8;  // PICA_REG_TEX_ENV_1
  localparam int REG_TEXENV1_OPERAND = 'h0C9;  // PICA_REG_TEX_ENV_1_OPERAND
  localparam int REG_TEXENV1_COMBINER = 'h0CA;  // PICA_REG_TEX_ENV_1_COMBINE
  localparam int REG_TEXENV1_COLOR = 'h0CB;  // PICA_REG_TEX_ENV_1_COLOR
  localparam int REG_TEXENV1_SCALE = 'h0CC;  // PICA_REG_TEX_ENV_1_SCALE
  localparam int REG_TEXENV2_SOURCE = 'h0D0;  // PICA_REG_TEX_ENV_2
  localparam int REG_TEXENV2_OPERAND = 'h0D1;  // PICA_REG_TEX_ENV_2_OPERAND
  localparam int REG_TEXENV2_COMBINER = 'h0D2;  // PICA_REG_TEX_ENV_2_COMBINE
  localparam int REG_TEXENV2_COLOR = 'h0D3;  // PICA_REG_TEX_ENV_2_COLOR
  localparam int REG_TEXENV2_SCALE = 'h0D4;  // PICA_REG_TEX_ENV_2_SCALE
  localparam int REG_TEXENV3_SOURCE = 'h0D8;  // PICA_REG_TEX_ENV_3
  localparam int REG_TEXENV3_OPERAND = 'h0D9;  // PICA_REG_TEX_ENV_3_OPERAND
  localparam int REG_TEXENV3_COMBINER = 'h0DA;  // PICA_REG_TEX_ENV_3_COMBINE
  localparam int REG_TEXENV3_COLOR = 'h0DB;  // PICA_REG_TEX_ENV_3_COLOR
  localparam int REG_TEXENV3_SCALE = 'h0DC;  // PICA_REG_TEX_ENV_3_SCALE
  localparam int REG_TEXENV_UPDATE_BUFFER = 'h0E0;  // PICA_REG_GAS_FOG_MODE / PICA_REG_TEX_ENV_BUF_INPUT (uncertain)
  localparam int REG_FOG_COLOR = 'h0E1;  // PICA_REG_FOG_COLOR (uncertain)
  localparam int REG_GAS_ATTENUATION = 'h0E4;  // PICA_REG_GAS_ATTENUATION (uncertain)
  localparam int REG_GAS_ACCMAX = 'h0E5;  // PICA_REG_GAS_ACCMAX (uncertain)
  localparam int REG_FOG_LUT_INDEX = 'h0E6;  // PICA_REG_FOG_LUT_INDEX (uncertain)
  localparam int REG_FOG_LUT_DATA0 = 'h0E8;  // PICA_REG_FOG_LUT_DATA0 (uncertain)
  localparam int REG_FOG_LUT_DATA1 = 'h0E9;  // PICA_REG_FOG_LUT_DATA1 (uncertain)
  localparam int REG_FOG_LUT_DATA2 = 'h0EA;  // PICA_REG_FOG_LUT_DATA2 (uncertain)
  localparam int REG_FOG_LUT_DATA3 = 'h0EB;  // PICA_REG_FOG_LUT_DATA3 (uncertain)
  localparam int REG_FOG_LUT_DATA4 = 'h0EC;  // PICA_REG_FOG_LUT_DATA4 (uncertain)
  localparam int REG_FOG_LUT_DATA5 = 'h0ED;  // PICA_REG_FOG_LUT_DATA5 (uncertain)
  localparam int REG_FOG_LUT_DATA6 = 'h0EE;  // PICA_REG_FOG_LUT_DATA6 (uncertain)
  localparam int REG_FOG_LUT_DATA7 = 'h0EF;  // PICA_REG_FOG_LUT_DATA7 (uncertain)
  localparam int REG_TEXENV4_SOURCE = 'h0F0;  // PICA_REG_TEX_ENV_4
  localparam int REG_TEXENV4_OPERAND = 'h0F1;  // PICA_REG_TEX_ENV_4_OPERAND
  localparam int REG_TEXENV4_COMBINER = 'h0F2;  // PICA_REG_TEX_ENV_4_COMBINE
  localparam int REG_TEXENV4_COLOR = 'h0F3;  // PICA_REG_TEX_ENV_4_COLOR
  localparam int REG_TEXENV4_SCALE = 'h0F4;  // PICA_REG_TEX_ENV_4_SCALE
  localparam int REG_TEXENV5_SOURCE = 'h0F8;  // PICA_REG_TEX_ENV_5
  localparam int REG_TEXENV5_OPERAND = 'h0F9;  // PICA_REG_TEX_ENV_5_OPERAND
  localparam int REG_TEXENV5_COMBINER = 'h0FA;  // PICA_REG_TEX_ENV_5_COMBINE
  localparam int REG_TEXENV5_COLOR = 'h0FB;  // PICA_REG_TEX_ENV_5_COLOR
  localparam int REG_TEXENV5_SCALE = 'h0FC;  // PICA_REG_TEX_ENV_5_SCALE
  localparam int REG_TEXENV_BUFFER_COLOR = 'h0FD;  // PICA_REG_TEX_ENV_BUF_COLOR (uncertain)
  localparam int REG_COLOR_OPERATION = 'h100;  // PICA_REG_COLOR_OPERATION
  localparam int REG_BLEND_FUNC = 'h101;  // PICA_REG_BLEND_FUNC
  localparam int REG_LOGIC_OP = 'h102;  // PICA_REG_LOGIC_OP
  localparam int REG_BLEND_COLOR = 'h103;  // PICA_REG_BLEND_COLOR
  localparam int REG_FRAGOP_ALPHA_TEST = 'h104;  // PICA_REG_FRAGOP_ALPHA_TEST
  localparam int REG_STENCIL_TEST = 'h105;  // PICA_REG_STENCIL_TEST
  localparam int REG_STENCIL_OP = 'h106;  // PICA_REG_STENCIL_OP
  localparam int REG_DEPTH_COLOR_MASK = 'h107;  // PICA_REG_DEPTH_COLOR_MASK
  localparam int REG_FRAMEBUFFER_INVALIDATE = 'h110;  // PICA_REG_COLOR_BUFFER_CLEAR0
  localparam int REG_FRAMEBUFFER_FLUSH = 'h111;  // PICA_REG_COLOR_BUFFER_CLEAR1
  localparam int REG_COLORBUFFER_READ = 'h112;  // PICA_REG_COLOR_BUFFER_READ
  localparam int REG_COLORBUFFER_WRITE = 'h113;  // PICA_REG_COLOR_BUFFER_WRITE
  localparam int REG_DEPTHBUFFER_READ = 'h114;  // PICA_REG_DEPTH_STENCIL_READ
  localparam int REG_DEPTHBUFFER_WRITE = 'h115;  // PICA_REG_DEPTH_STENCIL_WRITE
  localparam int REG_DEPTHBUFFER_FORMAT = 'h116;  // PICA_REG_RENDER_BUF_DEPTH_MODE
  localparam int REG_COLORBUFFER_FORMAT = 'h117;  // PICA_REG_RENDER_BUF_COLOR_MODE
  localparam int REG_EARLYDEPTH_TEST2 = 'h118;  // PICA_REG_EARLY_DEPTH_TEST2 (uncertain)
  localparam int REG_FRAMEBUFFER_BLOCK32 = 'h11B;  // PICA_REG_RENDER_BLOCK_FORMAT
  localparam int REG_DEPTHBUFFER_LOC = 'h11C;  // PICA_REG_RENDER_BUF_DEPTH_ADDR
  localparam int REG_COLORBUFFER_LOC = 'h11D;  // PICA_REG_RENDER_BUF_COLOR_ADDR
  localparam int REG_FRAMEBUFFER_DIM = 'h11E;  // PICA_REG_RENDER_BUF_RESOLUTION0
  localparam int REG_GAS_LIGHT_XY = 'h120;  // PICA_REG_GAS_LIGHT_XY (uncertain)
  localparam int REG_GAS_LIGHT_Z = 'h121;  // PICA_REG_GAS_LIGHT_Z (uncertain)
  localparam int REG_GAS_LIGHT_Z_COLOR = 'h122;  // PICA_REG_GAS_LIGHT_Z_COLOR (uncertain)
  localparam int REG_GAS_LUT_INDEX = 'h123;  // PICA_REG_GAS_LUT_INDEX (uncertain)
  localparam int REG_GAS_LUT_DATA = 'h124;  // PICA_REG_GAS_LUT_DATA (uncertain)
  localparam int REG_GAS_DELTAZ_DEPTH = 'h126;  // PICA_REG_GAS_DELTAZ_DEPTH (uncertain)
  localparam int REG_FRAGOP_SHADOW = 'h130;  // PICA_REG_FRAGOP_SHADOW (uncertain)
  localparam int REG_LIGHT0_SPECULAR0 = 'h140;  // PICA_REG_FRAG_LIGHT0_SPECULAR0 / PICA_REG_FRAG_LIGHT_START (uncertain)
  localparam int REG_LIGHT0_SPECULAR1 = 'h141;  // PICA_REG_FRAG_LIGHT0_SPECULAR1 (uncertain)
  localparam int REG_LIGHT0_DIFFUSE = 'h142;  // PICA_REG_FRAG_LIGHT0_DIFFUSE (uncertain)
  localparam int REG_LIGHT0_AMBIENT = 'h143;  // PICA_REG_FRAG_LIGHT0_AMBIENT (uncertain)
  localparam int REG_LIGHT0_XY = 'h144;  // PICA_REG_FRAG_LIGHT0_POSITION_XY (uncertain)
  localparam int REG_LIGHT0_Z = 'h145;  // PICA_REG_FRAG_LIGHT0_POSITION_Z (uncertain)
  localparam int REG_LIGHT0_SPOTDIR_XY = 'h146;  // PICA_REG_FRAG_LIGHT0_SPOT_XY (uncertain)
  localparam int REG_LIGHT0_SPOTDIR_Z = 'h147;  // PICA_REG_FRAG_LIGHT0_SPOT_Z (uncertain)
  localparam int REG_LIGHT0_CONFIG = 'h149;  // PICA_REG_FRAG_LIGHT0_TYPE
  localparam int REG_LIGHT0_ATTENUATION_BIAS = 'h14A;  // PICA_REG_FRAG_LIGHT0_DIST_ATTN_BIAS (uncertain)
  localparam int REG_LIGHT0_ATTENUATION_SCALE = 'h14B;  // PICA_REG_FRAG_LIGHT0_DIST_ATTN_SCALE (uncertain)
  localparam int REG_LIGHT1_SPECULAR0 = 'h150;  // PICA_REG_FRAG_LIGHT1_SPECULAR0 (uncertain)
  localparam int REG_LIGHT1_SPECULAR1 = 'h151;  // PICA_REG_FRAG_LIGHT1_SPECULAR1 (uncertain)
  localparam int REG_LIGHT1_DIFFUSE = 'h152;  // PICA_REG_FRAG_LIGHT1_DIFFUSE (uncertain)
  localparam int REG_LIGHT1_AMBIENT = 'h153;  // PICA_REG_FRAG_LIGHT1_AMBIENT (uncertain)
  localparam int REG_LIGHT1_XY = 'h154;  // PICA_REG_FRAG_LIGHT1_POSITION_XY (uncertain)
  localparam int REG_LIGHT1_Z = 'h155;  // PICA_REG_FRAG_LIGHT1_POSITION_Z (uncertain)
  localparam int REG_LIGHT1_SPOTDIR_XY = 'h156;  // PICA_REG_FRAG_LIGHT1_SPOT_XY (uncertain)
  localparam int REG_LIGHT1_SPOTDIR_Z = 'h157;  // PICA_REG_FRAG_LIGHT1_SPOT_Z (uncertain)
  localparam int REG_LIGHT1_CONFIG = 'h159;  // PICA_REG_FRAG_LIGHT1_TYPE (uncertain)
  localparam int REG_LIGHT1_ATTENUATION_BIAS = 'h15A;  // PICA_REG_FRAG_LIGHT1_DIST_ATTN_BIAS (uncertain)
  localparam int REG_LIGHT1_ATTENUATION_SCALE = 'h15B;  // PICA_REG_FRAG_LIGHT1_DIST_ATTN_SCALE (uncertain)
  localparam int REG_LIGHT2_SPECULAR0 = 'h160;  // PICA_REG_FRAG_LIGHT2_SPECULAR0 (uncertain)
  localparam int REG_LIGHT2_SPECULAR1 = 'h161;  // PICA_REG_FRAG_LIGHT2_SPECULAR1 (uncertain)
  localparam int REG_LIGHT2_DIFFUSE = 'h162;  // PICA_REG_FRAG_LIGHT2_DIFFUSE (uncertain)
  localparam int REG_LIGHT2_AMBIENT = 'h163;  // PICA_REG_FRAG_LIGHT2_AMBIENT (uncertain)
  localparam int REG_LIGHT2_XY = 'h164;  // PICA_REG_FRAG_LIGHT2_POSITION_XY (uncertain)
  localparam int REG_LIGHT2_Z = 'h165;  // PICA_REG_FRAG_LIGHT2_POSITION_Z (uncertain)
  localparam int REG_LIGHT2_SPOTDIR_XY = 'h166;  // PICA_REG_FRAG_LIGHT2_SPOT_XY (uncertain)
  localparam int REG_LIGHT2_SPOTDIR_Z = 'h167;  // PICA_REG_FRAG_LIGHT2_SPOT_Z (uncertain)
  localparam int REG_LIGHT2_CONFIG = 'h169;  // PICA_REG_FRAG_LIGHT2_TYPE (uncertain)
  localparam int REG_LIGHT2_ATTENUATION_BIAS = 'h16A;  // PICA_REG_FRAG_LIGHT2_DIST_ATTN_BIAS (uncertain)
  localparam int REG_LIGHT2_ATTENUATION_SCALE = 'h16B;  // PICA_REG_FRAG_LIGHT2_DIST_ATTN_SCALE (uncertain)
  localparam int REG_LIGHT3_SPECULAR0 = 'h170;  // PICA_REG_FRAG_LIGHT3_SPECULAR0 (uncertain)
  localparam int REG_LIGHT3_SPECULAR1 = 'h171;  // PICA_REG_FRAG_LIGHT3_SPECULAR1 (uncertain)
  localparam int REG_LIGHT3_DIFFUSE = 'h172;  // PICA_REG_FRAG_LIGHT3_DIFFUSE (uncertain)
  localparam int REG_LIGHT3_AMBIENT = 'h173;  // PICA_REG_FRAG_LIGHT3_AMBIENT (uncertain)
  localparam int REG_LIGHT3_XY = 'h174;  // PICA_REG_FRAG_LIGHT3_POSITION_XY (uncertain)
  localparam int REG_LIGHT3_Z = 'h175;  // PICA_REG_FRAG_LIGHT3_POSITION_Z (uncertain)
  localparam int REG_LIGHT3_SPOTDIR_XY = 'h176;  // PICA_REG_FRAG_LIGHT3_SPOT_XY (uncertain)
  localparam int REG_LIGHT3_SPOTDIR_Z = 'h177;  // PICA_REG_FRAG_LIGHT3_SPOT_Z (uncertain)
  localparam int REG_LIGHT3_CONFIG = 'h179;  // PICA_REG_FRAG_LIGHT3_TYPE (uncertain)
  localparam int REG_LIGHT3_ATTENUATION_BIAS = 'h17A;  // PICA_REG_FRAG_LIGHT3_DIST_ATTN_BIAS (uncertain)
  localparam int REG_LIGHT3_ATTENUATION_SCALE = 'h17B;  // PICA_REG_FRAG_LIGHT3_DIST_ATTN_SCALE (uncertain)
  localparam int REG_LIGHT4_SPECULAR0 = 'h180;  // PICA_REG_FRAG_LIGHT4_SPECULAR0 (uncertain)
  localparam int REG_LIGHT4_SPECULAR1 = 'h181;  // PICA_REG_FRAG_LIGHT4_SPECULAR1 (uncertain)
  localparam int REG_LIGHT4_DIFFUSE = 'h182;  // PICA_REG_FRAG_LIGHT4_DIFFUSE (uncertain)
  localparam int REG_LIGHT4_AMBIENT = 'h183;  // PICA_REG_FRAG_LIGHT4_AMBIENT (uncertain)
  localparam int REG_LIGHT4_XY = 'h184;  // PICA_REG_FRAG_LIGHT4_POSITION_XY (uncertain)
  localparam int REG_LIGHT4_Z = 'h185;  // PICA_REG_FRAG_LIGHT4_POSITION_Z (uncertain)
  localparam int REG_LIGHT4_SPOTDIR_XY = 'h186;  // PICA_REG_FRAG_LIGHT4_SPOT_XY (uncertain)
  localparam int REG_LIGHT4_SPOTDIR_Z = 'h187;  // PICA_REG_FRAG_LIGHT4_SPOT_Z (uncertain)
  localparam int REG_LIGHT4_CONFIG = 'h189;  // PICA_REG_FRAG_LIGHT4_TYPE (uncertain)
  localparam int REG_LIGHT4_ATTENUATION_BIAS = 'h18A;  // PICA_REG_FRAG_LIGHT4_DIST_ATTN_BIAS (uncertain)
  localparam int REG_LIGHT4_ATTENUATION_SCALE = 'h18B;  // PICA_REG_FRAG_LIGHT4_DIST_ATTN_SCALE (uncertain)
  localparam int REG_LIGHT5_SPECULAR0 = 'h190;  // PICA_REG_FRAG_LIGHT5_SPECULAR0 (uncertain)
  localparam int REG_LIGHT5_SPECULAR1 = 'h191;  // PICA_REG_FRAG_LIGHT5_SPECULAR1 (uncertain)
  localparam int REG_LIGHT5_DIFFUSE = 'h192;  // PICA_REG_FRAG_LIGHT5_DIFFUSE (uncertain)
  localparam int REG_LIGHT5_AMBIENT = 'h193;  // PICA_REG_FRAG_LIGHT5_AMBIENT (uncertain)
  localparam int REG_LIGHT5_XY = 'h194;  // PICA_REG_FRAG_LIGHT5_POSITION_XY (uncertain)
  localparam int REG_LIGHT5_Z = 'h195;  // PICA_REG_FRAG_LIGHT5_POSITION_Z (uncertain)
  localparam int REG_LIGHT5_SPOTDIR_XY = 'h196;  // PICA_REG_FRAG_LIGHT5_SPOT_XY (uncertain)
  localparam int REG_LIGHT5_SPOTDIR_Z = 'h197;  // PICA_REG_FRAG_LIGHT5_SPOT_Z (uncertain)
  localparam int REG_LIGHT5_CONFIG = 'h199;  // PICA_REG_FRAG_LIGHT5_TYPE (uncertain)
  localparam int REG_LIGHT5_ATTENUATION_BIAS = 'h19A;  // PICA_REG_FRAG_LIGHT5_DIST_ATTN_BIAS
  localparam int REG_LIGHT5_ATTENUATION_SCALE = 'h19B;  // PICA_REG_FRAG_LIGHT5_DIST_ATTN_SCALE
  localparam int REG_LIGHT6_SPECULAR0 = 'h1A0;  // PICA_REG_FRAG_LIGHT6_SPECULAR0 (uncertain)
  localparam int REG_LIGHT6_SPECULAR1 = 'h1A1;  // PICA_REG_FRAG_LIGHT6_SPECULAR1 (uncertain)
  localparam int REG_LIGHT6_DIFFUSE = 'h1A2;  // PICA_REG_FRAG_LIGHT6_DIFFUSE
  localparam int REG_LIGHT6_AMBIENT = 'h1A3;  // PICA_REG_FRAG_LIGHT6_AMBIENT
  localparam int REG_LIGHT6_XY = 'h1A4;  // PICA_REG_FRAG_LIGHT6_POSITION_XY
  localparam int REG_LIGHT6_Z = 'h1A5;  // PICA_REG_FRAG_LIGHT6_POSITION_Z
  localparam int REG_LIGHT6_SPOTDIR_XY = 'h1A6;  // PICA_REG_FRAG_LIGHT6_SPOT_XY (uncertain)
  localparam int REG_LIGHT6_SPOTDIR_Z = 'h1A7;  // PICA_REG_FRAG_LIGHT6_SPOT_Z (uncertain)
  localparam int REG_LIGHT6_CONFIG = 'h1A9;  // PICA_REG_FRAG_LIGHT6_TYPE (uncertain)
  localparam int REG_LIGHT6_ATTENUATION_BIAS = 'h1AA;  // PICA_REG_FRAG_LIGHT6_DIST_ATTN_BIAS
  localparam int REG_LIGHT6_ATTENUATION_SCALE = 'h1AB;  // PICA_REG_FRAG_LIGHT6_DIST_ATTN_SCALE
  localparam int REG_LIGHT7_SPECULAR0 = 'h1B0;  // PICA_REG_FRAG_LIGHT7_SPECULAR0 (uncertain)
  localparam int REG_LIGHT7_SPECULAR1 = 'h1B1;  // PICA_REG_FRAG_LIGHT7_SPECULAR1 (uncertain)
  localparam int REG_LIGHT7_DIFFUSE = 'h1B2;  // PICA_REG_FRAG_LIGHT7_DIFFUSE (uncertain)
  localparam int REG_LIGHT7_AMBIENT = 'h1B3;  // PICA_REG_FRAG_LIGHT7_AMBIENT (uncertain)
  localparam int REG_LIGHT7_XY = 'h1B4;  // PICA_REG_FRAG_LIGHT7_POSITION_XY (uncertain)
  localparam int REG_LIGHT7_Z = 'h1B5;  // PICA_REG_FRAG_LIGHT7_POSITION_Z (uncertain)
  localparam int REG_LIGHT7_SPOTDIR_XY = 'h1B6;  // PICA_REG_FRAG_LIGHT7_SPOT_XY (uncertain)
  localparam int REG_LIGHT7_SPOTDIR_Z = 'h1B7;  // PICA_REG_FRAG_LIGHT7_SPOT_Z (uncertain)
  localparam int REG_LIGHT7_CONFIG = 'h1B9;  // PICA_REG_FRAG_LIGHT7_TYPE (uncertain)
  localparam int REG_LIGHT7_ATTENUATION_BIAS = 'h1BA;  // PICA_REG_FRAG_LIGHT7_DIST_ATTN_BIAS
  localparam int REG_LIGHT7_ATTENUATION_SCALE = 'h1BB;  // PICA_REG_FRAG_LIGHT7_DIST_ATTN_SCALE
  localparam int REG_LIGHTING_AMBIENT = 'h1C0;  // PICA_REG_FRAG_LIGHT_AMBIENT (uncertain)
  localparam int REG_LIGHTING_NUM_LIGHTS = 'h1C2;  // PICA_REG_FRAG_LIGHT_SRC_NUM (uncertain)
  localparam int REG_LIGHTING_CONFIG0 = 'h1C3;  // PICA_REG_FRAG_LIGHT_FUNC_MODE0 (uncertain)
  localparam int REG_LIGHTING_CONFIG1 = 'h1C4;  // PICA_REG_FRAG_LIGHT_FUNC_MODE1 (uncertain)
  localparam int REG_LIGHTING_LUT_INDEX = 'h1C5;  // PICA_REG_FRAG_LIGHT_LUT (uncertain)
  localparam int REG_LIGHTING_ENABLE1 = 'h1C6;  // PICA_REG_FRAG_LIGHT_EN1 (uncertain)
  localparam int REG_LIGHTING_LUT_DATA0 = 'h1C8;  // PICA_REG_FRAG_LIGHT_LUT_DATA0 (uncertain)
  localparam int REG_LIGHTING_LUT_DATA1 = 'h1C9;  // PICA_REG_FRAG_LIGHT_LUT_DATA1 (uncertain)
  localparam int REG_LIGHTING_LUT_DATA2 = 'h1CA;  // PICA_REG_FRAG_LIGHT_LUT_DATA2 (uncertain)
  localparam int REG_LIGHTING_LUT_DATA3 = 'h1CB;  // PICA_REG_FRAG_LIGHT_LUT_DATA3 (uncertain)
  localparam int REG_LIGHTING_LUT_DATA4 = 'h1CC;  // PICA_REG_FRAG_LIGHT_LUT_DATA4 (uncertain)
  localparam int REG_LIGHTING_LUT_DATA5 = 'h1CD;  // PICA_REG_FRAG_LIGHT_LUT_DATA5 (uncertain)
  localparam int REG_LIGHTING_LUT_DATA6 = 'h1CE;  // PICA_REG_FRAG_LIGHT_LUT_DATA6 (uncertain)
  localparam int REG_LIGHTING_LUT_DATA7 = 'h1CF;  // PICA_REG_FRAG_LIGHT_LUT_DATA7 (uncertain)
  localparam int REG_LIGHTING_LUTINPUT_ABS = 'h1D0;  // PICA_REG_FRAG_LIGHT_ABSLUTINPUT (uncertain)
  localparam int REG_LIGHTING_LUTINPUT_SELECT = 'h1D1;  // PICA_REG_FRAG_LIGHT_LUTINPUT (uncertain)
  localparam int REG_LIGHTING_LUTINPUT_SCALE = 'h1D2;  // PICA_REG_FRAG_LIGHT_LUTSCALE (uncertain)
  localparam int REG_LIGHTING_LIGHT_PERMUTATION = 'h1D9;  // PICA_REG_FRAG_LIGHT_SRC_EN_ID (uncertain)
  localparam int REG_ATTRIBBUFFERS_LOC = 'h200;  // PICA_REG_VTX_ATTR_ARRAYS_BASE_ADDR
  localparam int REG_ATTRIBBUFFERS_FORMAT_LOW = 'h201;  // PICA_REG_VTX_ATTR_ARRAYS0
  localparam int REG_ATTRIBBUFFERS_FORMAT_HIGH = 'h202;  // PICA_REG_VTX_ATTR_ARRAYS1
  localparam int REG_ATTRIBBUFFER0_OFFSET = 'h203;  // PICA_REG_LOAD_ARRAY0_ATTR_OFFSET
  localparam int REG_ATTRIBBUFFER0_CONFIG1 = 'h204;  // PICA_REG_LOAD_ARRAY0_ELEMENT0
  localparam int REG_ATTRIBBUFFER0_CONFIG2 = 'h205;  // PICA_REG_LOAD_ARRAY0_ELEMENT1
  localparam int REG_ATTRIBBUFFER1_OFFSET = 'h206;
  localparam int REG_ATTRIBBUFFER1_CONFIG1 = 'h207;
  localparam int REG_ATTRIBBUFFER1_CONFIG2 = 'h208;
  localparam int REG_ATTRIBBUFFER2_OFFSET = 'h209;
  localparam int REG_ATTRIBBUFFER2_CONFIG1 = 'h20A;
  localparam int REG_ATTRIBBUFFER2_CONFIG2 = 'h20B;
  localparam int REG_ATTRIBBUFFER3_OFFSET = 'h20C;
  localparam int REG_ATTRIBBUFFER3_CONFIG1 = 'h20D;
  localparam int REG_ATTRIBBUFFER3_CONFIG2 = 'h20E;
  localparam int REG_ATTRIBBUFFER4_OFFSET = 'h20F;
  localparam int REG_ATTRIBBUFFER4_CONFIG1 = 'h210;
  localparam int REG_ATTRIBBUFFER4_CONFIG2 = 'h211;
  localparam int REG_ATTRIBBUFFER5_OFFSET = 'h212;
  localparam int REG_ATTRIBBUFFER5_CONFIG1 = 'h213;
  localparam int REG_ATTRIBBUFFER5_CONFIG2 = 'h214;
  localparam int REG_ATTRIBBUFFER6_OFFSET = 'h215;
  localparam int REG_ATTRIBBUFFER6_CONFIG1 = 'h216;
  localparam int REG_ATTRIBBUFFER6_CONFIG2 = 'h217;
  localparam int REG_ATTRIBBUFFER7_OFFSET = 'h218;
  localparam int REG_ATTRIBBUFFER7_CONFIG1 = 'h219;
  localparam int REG_ATTRIBBUFFER7_CONFIG2 = 'h21A;
  localparam int REG_ATTRIBBUFFER8_OFFSET = 'h21B;
  localparam int REG_ATTRIBBUFFER8_CONFIG1 = 'h21C;
  localparam int REG_ATTRIBBUFFER8_CONFIG2 = 'h21D;
  localparam int REG_ATTRIBBUFFER9_OFFSET = 'h21E;
  localparam int REG_ATTRIBBUFFER9_CONFIG1 = 'h21F;
  localparam int REG_ATTRIBBUFFER9_CONFIG2 = 'h220;
  localparam int REG_ATTRIBBUFFER10_OFFSET = 'h221;
  localparam int REG_ATTRIBBUFFER10_CONFIG1 = 'h222;
  localparam int REG_ATTRIBBUFFER10_CONFIG2 = 'h223;
  localparam int REG_ATTRIBBUFFER11_OFFSET = 'h224;
  localparam int REG_ATTRIBBUFFER11_CONFIG1 = 'h225;
  localparam int REG_ATTRIBBUFFER11_CONFIG2 = 'h226;
  localparam int REG_INDEXBUFFER_CONFIG = 'h227;  // PICA_REG_INDEX_ARRAY_ADDR_OFFSET
  localparam int REG_NUMVERTICES = 'h228;  // PICA_REG_DRAW_VERTEX_NUM
  localparam int REG_GEOSTAGE_CONFIG = 'h229;  // PICA_REG_DRAW_MODE0 (uncertain)
  localparam int REG_VERTEX_OFFSET = 'h22A;  // PICA_REG_DRAW_VERTEX_OFFSET
  localparam int REG_POST_VERTEX_CACHE_NUM = 'h22D;  // PICA_REG_POST_VERTEX_CACHE_NUM
  localparam int REG_DRAWARRAYS = 'h22E;  // PICA_REG_START_DRAW_ARRAY
  localparam int REG_DRAWELEMENTS = 'h22F;  // PICA_REG_START_DRAW_ELEMENT
  localparam int REG_VTX_FUNC = 'h231;  // PICA_REG_VTX_FUNC (uncertain)
  localparam int REG_FIXEDATTRIB_INDEX = 'h232;  // PICA_REG_VS_FIXED_ATTR (uncertain)
  localparam int REG_FIXEDATTRIB_DATA0 = 'h233;  // PICA_REG_VS_FIXED_ATTR_DATA0 (uncertain)
  localparam int REG_FIXEDATTRIB_DATA1 = 'h234;  // PICA_REG_VS_FIXED_ATTR_DATA1 (uncertain)
  localparam int REG_FIXEDATTRIB_DATA2 = 'h235;  // PICA_REG_VS_FIXED_ATTR_DATA2 (uncertain)
  localparam int REG_CMDBUF_SIZE0 = 'h238;  // PICA_REG_COMMAND_BUF_SIZE_CH0
  localparam int REG_CMDBUF_SIZE1 = 'h239;  // PICA_REG_COMMAND_BUF_SIZE_CH1
  localparam int REG_CMDBUF_ADDR0 = 'h23A;  // PICA_REG_COMMAND_BUF_ADDR_CH0
  localparam int REG_CMDBUF_ADDR1 = 'h23B;  // PICA_REG_COMMAND_BUF_ADDR_CH1
  localparam int REG_CMDBUF_JUMP0 = 'h23C;  // PICA_REG_COMMAND_BUF_KICK_CH0
  localparam int REG_CMDBUF_JUMP1 = 'h23D;  // PICA_REG_COMMAND_BUF_KICK_CH1
  localparam int REG_VSH_NUM_ATTR = 'h242;  // PICA_REG_VS_ATTR_NUM1 (uncertain)
  localparam int REG_VSH_COM_MODE = 'h244;  // PICA_REG_VS_COM_MODE (uncertain)
  localparam int REG_START_DRAW_FUNC0 = 'h245;  // PICA_REG_START_DRAW_FUNC0 (uncertain)
  localparam int REG_VSH_OUTMAP_TOTAL1 = 'h24A;  // PICA_REG_VS_OUT_REG_NUM1 (uncertain)
  localparam int REG_VSH_OUTMAP_TOTAL2 = 'h251;  // PICA_REG_VS_OUT_REG_NUM2 (uncertain)
  localparam int REG_GSH_MISC0 = 'h252;  // PICA_REG_GS_MISC_REG0 (uncertain)
  localparam int REG_GEOSTAGE_CONFIG2 = 'h253;  // PICA_REG_DRAW_MODE1 (uncertain)
  localparam int REG_GSH_MISC1 = 'h254;  // PICA_REG_GS_MISC_REG1 (uncertain)
  localparam int REG_PRIMITIVE_CONFIG = 'h25E;  // PICA_REG_GS_OUT_REG_NUM3 / PICA_REG_DRAW_MODE2 / PICA_REG_VS_OUT_REG_NUM3 (uncertain)
  localparam int REG_RESTART_PRIMITIVE = 'h25F;  // PICA_REG_START_DRAW_FUNC1 (uncertain)
  localparam int REG_GSH_BOOLUNIFORM = 'h280;  // PICA_REG_GS_BOOL
  localparam int REG_GSH_INTUNIFORM_I0 = 'h281;  // PICA_REG_GS_INT0
  localparam int REG_GSH_INTUNIFORM_I1 = 'h282;  // PICA_REG_GS_INT1
  localparam int REG_GSH_INTUNIFORM_I2 = 'h283;  // PICA_REG_GS_INT2
  localparam int REG_GSH_INTUNIFORM_I3 = 'h284;  // PICA_REG_GS_INT3
  localparam int REG_GSH_INPUTBUFFER_CONFIG = 'h289;  // PICA_REG_GS_ATTR_NUM
  localparam int REG_GSH_ENTRYPOINT = 'h28A;  // PICA_REG_GS_START_ADDR
  localparam int REG_GSH_ATTRIBUTES_PERMUTATION_LOW = 'h28B;  // PICA_REG_GS_ATTR_IN_REG_MAP0
  localparam int REG_GSH_ATTRIBUTES_PERMUTATION_HIGH = 'h28C;  // PICA_REG_GS_ATTR_IN_REG_MAP1
  localparam int REG_GSH_OUTMAP_MASK = 'h28D;  // PICA_REG_GS_OUT_REG_MASK
  localparam int REG_GSH_CODETRANSFER_END = 'h28F;  // PICA_REG_GS_PROG_RENEWAL_END
  localparam int REG_GSH_FLOATUNIFORM_INDEX = 'h290;  // PICA_REG_GS_FLOAT_ADDR
  localparam int REG_GSH_FLOATUNIFORM_DATA0 = 'h291;  // PICA_REG_GS_FLOAT_DATA0
  localparam int REG_GSH_FLOATUNIFORM_DATA1 = 'h292;  // PICA_REG_GS_FLOAT_DATA1
  localparam int REG_GSH_FLOATUNIFORM_DATA2 = 'h293;  // PICA_REG_GS_FLOAT_DATA2
  localparam int REG_GSH_FLOATUNIFORM_DATA3 = 'h294;  // PICA_REG_GS_FLOAT_DATA3
  localparam int REG_GSH_FLOATUNIFORM_DATA4 = 'h295;  // PICA_REG_GS_FLOAT_DATA4
  localparam int REG_GSH_FLOATUNIFORM_DATA5 = 'h296;  // PICA_REG_GS_FLOAT_DATA5
  localparam int REG_GSH_FLOATUNIFORM_DATA6 = 'h297;  // PICA_REG_GS_FLOAT_DATA6
  localparam int REG_GSH_FLOATUNIFORM_DATA7 = 'h298;  // PICA_REG_GS_FLOAT_DATA7
  localparam int REG_GSH_CODETRANSFER_INDEX = 'h29B;  // PICA_REG_GS_PROG_ADDR (uncertain)
  localparam int REG_GSH_CODETRANSFER_DATA0 = 'h29C;  // PICA_REG_GS_PROG_DATA0
  localparam int REG_GSH_CODETRANSFER_DATA1 = 'h29D;  // PICA_REG_GS_PROG_DATA1
  localparam int REG_GSH_CODETRANSFER_DATA2 = 'h29E;  // PICA_REG_GS_PROG_DATA2
  localparam int REG_GSH_CODETRANSFER_DATA3 = 'h29F;  // PICA_REG_GS_PROG_DATA3
  localparam int REG_GSH_CODETRANSFER_DATA4 = 'h2A0;  // PICA_REG_GS_PROG_DATA4
  localparam int REG_GSH_CODETRANSFER_DATA5 = 'h2A1;  // PICA_REG_GS_PROG_DATA5
  localparam int REG_GSH_CODETRANSFER_DATA6 = 'h2A2;  // PICA_REG_GS_PROG_DATA6
  localparam int REG_GSH_CODETRANSFER_DATA7 = 'h2A3;  // PICA_REG_GS_PROG_DATA7
  localparam int REG_GSH_OPDESCS_INDEX = 'h2A5;  // PICA_REG_GS_PROG_SWIZZLE_ADDR
  localparam int REG_GSH_OPDESCS_DATA0 = 'h2A6;  // PICA_REG_GS_PROG_SWIZZLE_DATA0
  localparam int REG_GSH_OPDESCS_DATA1 = 'h2A7;  // PICA_REG_GS_PROG_SWIZZLE_DATA1
  localparam int REG_GSH_OPDESCS_DATA2 = 'h2A8;  // PICA_REG_GS_PROG_SWIZZLE_DATA2
  localparam int REG_GSH_OPDESCS_DATA3 = 'h2A9;  // PICA_REG_GS_PROG_SWIZZLE_DATA3
  localparam int REG_GSH_OPDESCS_DATA4 = 'h2AA;  // PICA_REG_GS_PROG_SWIZZLE_DATA4
  localparam int REG_GSH_OPDESCS_DATA5 = 'h2AB;  // PICA_REG_GS_PROG_SWIZZLE_DATA5
  localparam int REG_GSH_OPDESCS_DATA6 = 'h2AC;  // PICA_REG_GS_PROG_SWIZZLE_DATA6
  localparam int REG_GSH_OPDESCS_DATA7 = 'h2AD;  // PICA_REG_GS_PROG_SWIZZLE_DATA7
  localparam int REG_VSH_BOOLUNIFORM = 'h2B0;  // PICA_REG_VS_BOOL
  localparam int REG_VSH_INTUNIFORM_I0 = 'h2B1;  // PICA_REG_VS_INT0
  localparam int REG_VSH_INTUNIFORM_I1 = 'h2B2;  // PICA_REG_VS_INT1
  localparam int REG_VSH_INTUNIFORM_I2 = 'h2B3;  // PICA_REG_VS_INT2
  localparam int REG_VSH_INTUNIFORM_I3 = 'h2B4;  // PICA_REG_VS_INT3
  localparam int REG_VSH_INPUTBUFFER_CONFIG = 'h2B9;  // PICA_REG_VS_ATTR_NUM0
  localparam int REG_VSH_ENTRYPOINT = 'h2BA;  // PICA_REG_VS_START_ADDR
  localparam int REG_VSH_ATTRIBUTES_PERMUTATION_LOW = 'h2BB;  // PICA_REG_VS_ATTR_IN_REG_MAP0
  localparam int REG_VSH_ATTRIBUTES_PERMUTATION_HIGH = 'h2BC;  // PICA_REG_VS_ATTR_IN_REG_MAP1
  localparam int REG_VSH_OUTMAP_MASK = 'h2BD;  // PICA_REG_VS_OUT_REG_MASK
  localparam int REG_VSH_CODETRANSFER_END = 'h2BF;  // PICA_REG_VS_PROG_RENEWAL_END
  localparam int REG_VSH_FLOATUNIFORM_INDEX = 'h2C0;  // PICA_REG_VS_FLOAT_ADDR
  localparam int REG_VSH_FLOATUNIFORM_DATA0 = 'h2C1;  // PICA_REG_VS_FLOAT_DATA0
  localparam int REG_VSH_FLOATUNIFORM_DATA1 = 'h2C2;  // PICA_REG_VS_FLOAT_DATA1
  localparam int REG_VSH_FLOATUNIFORM_DATA2 = 'h2C3;  // PICA_REG_VS_FLOAT_DATA2
  localparam int REG_VSH_FLOATUNIFORM_DATA3 = 'h2C4;  // PICA_REG_VS_FLOAT_DATA3
  localparam int REG_VSH_FLOATUNIFORM_DATA4 = 'h2C5;  // PICA_REG_VS_FLOAT_DATA4
  localparam int REG_VSH_FLOATUNIFORM_DATA5 = 'h2C6;  // PICA_REG_VS_FLOAT_DATA5
  localparam int REG_VSH_FLOATUNIFORM_DATA6 = 'h2C7;  // PICA_REG_VS_FLOAT_DATA6
  localparam int REG_VSH_FLOATUNIFORM_DATA7 = 'h2C8;  // PICA_REG_VS_FLOAT_DATA7
  localparam int REG_VSH_CODETRANSFER_INDEX = 'h2CB;  // PICA_REG_VS_PROG_ADDR (uncertain)
  localparam int REG_VSH_CODETRANSFER_DATA0 = 'h2CC;  // PICA_REG_VS_PROG_DATA0
  localparam int REG_VSH_CODETRANSFER_DATA1 = 'h2CD;  // PICA_REG_VS_PROG_DATA1
  localparam int REG_VSH_CODETRANSFER_DATA2 = 'h2CE;  // PICA_REG_VS_PROG_DATA2
  localparam int REG_VSH_CODETRANSFER_DATA3 = 'h2CF;  // PICA_REG_VS_PROG_DATA3
  localparam int REG_VSH_CODETRANSFER_DATA4 = 'h2D0;  // PICA_REG_VS_PROG_DATA4
  localparam int REG_VSH_CODETRANSFER_DATA5 = 'h2D1;  // PICA_REG_VS_PROG_DATA5
  localparam int REG_VSH_CODETRANSFER_DATA6 = 'h2D2;  // PICA_REG_VS_PROG_DATA6
  localparam int REG_VSH_CODETRANSFER_DATA7 = 'h2D3;  // PICA_REG_VS_PROG_DATA7
  localparam int REG_VSH_OPDESCS_INDEX = 'h2D5;  // PICA_REG_VS_PROG_SWIZZLE_ADDR (uncertain)
  localparam int REG_VSH_OPDESCS_DATA0 = 'h2D6;  // PICA_REG_VS_PROG_SWIZZLE_DATA0
  localparam int REG_VSH_OPDESCS_DATA1 = 'h2D7;  // PICA_REG_VS_PROG_SWIZZLE_DATA1
  localparam int REG_VSH_OPDESCS_DATA2 = 'h2D8;  // PICA_REG_VS_PROG_SWIZZLE_DATA2
  localparam int REG_VSH_OPDESCS_DATA3 = 'h2D9;  // PICA_REG_VS_PROG_SWIZZLE_DATA3
  localparam int REG_VSH_OPDESCS_DATA4 = 'h2DA;  // PICA_REG_VS_PROG_SWIZZLE_DATA4
  localparam int REG_VSH_OPDESCS_DATA5 = 'h2DB;  // PICA_REG_VS_PROG_SWIZZLE_DATA5
  localparam int REG_VSH_OPDESCS_DATA6 = 'h2DC;  // PICA_REG_VS_PROG_SWIZZLE_DATA6
  localparam int REG_VSH_OPDESCS_DATA7 = 'h2DD;  // PICA_REG_VS_PROG_SWIZZLE_DATA7

  // ---- Alias groups: consecutive IDs writing the same transfer FIFO
  localparam int ALIAS_PROCTEX_LUT_DATA_FIRST = 'h0B0;
  localparam int ALIAS_PROCTEX_LUT_DATA_COUNT = 8;
  localparam int ALIAS_FOG_LUT_DATA_FIRST = 'h0E8;
  localparam int ALIAS_FOG_LUT_DATA_COUNT = 8;
  localparam int ALIAS_LIGHTING_LUT_DATA_FIRST = 'h1C8;
  localparam int ALIAS_LIGHTING_LUT_DATA_COUNT = 8;
  localparam int ALIAS_FIXEDATTRIB_DATA_FIRST = 'h233;
  localparam int ALIAS_FIXEDATTRIB_DATA_COUNT = 3;
  localparam int ALIAS_GSH_FLOATUNIFORM_DATA_FIRST = 'h291;
  localparam int ALIAS_GSH_FLOATUNIFORM_DATA_COUNT = 8;
  localparam int ALIAS_GSH_CODETRANSFER_DATA_FIRST = 'h29C;
  localparam int ALIAS_GSH_CODETRANSFER_DATA_COUNT = 8;
  localparam int ALIAS_GSH_OPDESCS_DATA_FIRST = 'h2A6;
  localparam int ALIAS_GSH_OPDESCS_DATA_COUNT = 8;
  localparam int ALIAS_VSH_FLOATUNIFORM_DATA_FIRST = 'h2C1;
  localparam int ALIAS_VSH_FLOATUNIFORM_DATA_COUNT = 8;
  localparam int ALIAS_VSH_CODETRANSFER_DATA_FIRST = 'h2CC;
  localparam int ALIAS_VSH_CODETRANSFER_DATA_COUNT = 8;
  localparam int ALIAS_VSH_OPDESCS_DATA_FIRST = 'h2D6;
  localparam int ALIAS_VSH_OPDESCS_DATA_COUNT = 8;

  // ---- Register fields: <LAYOUT>_<FIELD>_LSB / _WIDTH / _MASK (_VALUE: required bits)

  // GPUREG_FINALIZE (Finalize): IDs 0x010
  // 0-31: Trigger P3D Interrupt (0 = idle, non-zero = trigger) (trigger)
  localparam int FINALIZE_TRIGGER_LSB = 0;
  localparam int FINALIZE_TRIGGER_WIDTH = 32;
  localparam logic [31:0] FINALIZE_TRIGGER_MASK = 32'hffffffff;

  // GPUREG_FACECULLING_CONFIG (FacecullingConfig): IDs 0x040
  // 0-1: Culling mode (enum FacecullingConfigMode)
  localparam int FACECULLING_CONFIG_MODE_LSB = 0;
  localparam int FACECULLING_CONFIG_MODE_WIDTH = 2;
  localparam logic [31:0] FACECULLING_CONFIG_MODE_MASK = 32'h00000003;

  // GPUREG_VIEWPORT_WIDTH (ViewportWidth): IDs 0x041
  // 0-23: width / 2 (f24)
  localparam int VIEWPORT_WIDTH_HALF_WIDTH_LSB = 0;
  localparam int VIEWPORT_WIDTH_HALF_WIDTH_WIDTH = 24;
  localparam logic [31:0] VIEWPORT_WIDTH_HALF_WIDTH_MASK = 32'h00ffffff;

  // GPUREG_VIEWPORT_INVW (ViewportInvw): IDs 0x042
  // 1-31: 2 / width (f31)
  localparam int VIEWPORT_INVW_INV_HALF_WIDTH_LSB = 1;
  localparam int VIEWPORT_INVW_INV_HALF_WIDTH_WIDTH = 31;
  localparam logic [31:0] VIEWPORT_INVW_INV_HALF_WIDTH_MASK = 32'hfffffffe;

  // GPUREG_VIEWPORT_HEIGHT (ViewportHeight): IDs 0x043
  // 0-23: height / 2 (f24)
  localparam int VIEWPORT_HEIGHT_HALF_HEIGHT_LSB = 0;
  localparam int VIEWPORT_HEIGHT_HALF_HEIGHT_WIDTH = 24;
  localparam logic [31:0] VIEWPORT_HEIGHT_HALF_HEIGHT_MASK = 32'h00ffffff;

  // GPUREG_VIEWPORT_INVH (ViewportInvh): IDs 0x044
  // 1-31: 2 / height (f31)
  localparam int VIEWPORT_INVH_INV_HALF_HEIGHT_LSB = 1;
  localparam int VIEWPORT_INVH_INV_HALF_HEIGHT_WIDTH = 31;
  localparam logic [31:0] VIEWPORT_INVH_INV_HALF_HEIGHT_MASK = 32'hfffffffe;

  // GPUREG_FRAGOP_CLIP (FragopClip): IDs 0x047
  // 0: Enabled (0 = disabled, 1 = enabled) (bool)
  localparam int FRAGOP_CLIP_ENABLED_LSB = 0;
  localparam int FRAGOP_CLIP_ENABLED_WIDTH = 1;
  localparam logic [31:0] FRAGOP_CLIP_ENABLED_MASK = 32'h00000001;

  // GPUREG_FRAGOP_CLIP_DATAi (FragopClipData): IDs 0x048, 0x049, 0x04A, 0x04B
  // 0-23: Clipping plane coefficient i (f24)
  localparam int FRAGOP_CLIP_DATA_COEFFICIENT_LSB = 0;
  localparam int FRAGOP_CLIP_DATA_COEFFICIENT_WIDTH = 24;
  localparam logic [31:0] FRAGOP_CLIP_DATA_COEFFICIENT_MASK = 32'h00ffffff;

  // GPUREG_DEPTHMAP_SCALE (DepthmapScale): IDs 0x04D
  // 0-23: Near - Far (f24)
  localparam int DEPTHMAP_SCALE_SCALE_LSB = 0;
  localparam int DEPTHMAP_SCALE_SCALE_WIDTH = 24;
  localparam logic [31:0] DEPTHMAP_SCALE_SCALE_MASK = 32'h00ffffff;

  // GPUREG_DEPTHMAP_OFFSET (DepthmapOffset): IDs 0x04E
  // 0-23: Near + Polygon Offset (f24)
  localparam int DEPTHMAP_OFFSET_OFFSET_LSB = 0;
  localparam int DEPTHMAP_OFFSET_OFFSET_WIDTH = 24;
  localparam logic [31:0] DEPTHMAP_OFFSET_OFFSET_MASK = 32'h00ffffff;

  // GPUREG_SH_OUTMAP_TOTAL (ShOutmapTotal): IDs 0x04F
  // 0-2: Number of following attributes (unsigned)
  localparam int SH_OUTMAP_TOTAL_TOTAL_LSB = 0;
  localparam int SH_OUTMAP_TOTAL_TOTAL_WIDTH = 3;
  localparam logic [31:0] SH_OUTMAP_TOTAL_TOTAL_MASK = 32'h00000007;

  // GPUREG_SH_OUTMAP_Oi (ShOutmapO): IDs 0x050, 0x051, 0x052, 0x053, 0x054, 0x055, 0x056
  // 0-4: Semantic for the x component of the register. (enum ShOutmapSemantic)
  localparam int SH_OUTMAP_O_X_LSB = 0;
  localparam int SH_OUTMAP_O_X_WIDTH = 5;
  localparam logic [31:0] SH_OUTMAP_O_X_MASK = 32'h0000001f;
  // 8-12: Semantic for the y component of the register. (enum ShOutmapSemantic)
  localparam int SH_OUTMAP_O_Y_LSB = 8;
  localparam int SH_OUTMAP_O_Y_WIDTH = 5;
  localparam logic [31:0] SH_OUTMAP_O_Y_MASK = 32'h00001f00;
  // 16-20: Semantic for the z component of the register. (enum ShOutmapSemantic)
  localparam int SH_OUTMAP_O_Z_LSB = 16;
  localparam int SH_OUTMAP_O_Z_WIDTH = 5;
  localparam logic [31:0] SH_OUTMAP_O_Z_MASK = 32'h001f0000;
  // 24-28: Semantic for the w component of the register. (enum ShOutmapSemantic)
  localparam int SH_OUTMAP_O_W_LSB = 24;
  localparam int SH_OUTMAP_O_W_WIDTH = 5;
  localparam logic [31:0] SH_OUTMAP_O_W_MASK = 32'h1f000000;

  // GPUREG_EARLYDEPTH_FUNC (EarlydepthFunc): IDs 0x061
  // 0-1: Early depth function (enum EarlydepthFunction)
  localparam int EARLYDEPTH_FUNC_FUNCTION_LSB = 0;
  localparam int EARLYDEPTH_FUNC_FUNCTION_WIDTH = 2;
  localparam logic [31:0] EARLYDEPTH_FUNC_FUNCTION_MASK = 32'h00000003;

  // GPUREG_EARLYDEPTH_TEST1 (EarlydepthTest1): IDs 0x062
  // 0: Enabled (0 = disabled, 1 = enabled) (bool)
  localparam int EARLYDEPTH_TEST1_ENABLED_LSB = 0;
  localparam int EARLYDEPTH_TEST1_ENABLED_WIDTH = 1;
  localparam logic [31:0] EARLYDEPTH_TEST1_ENABLED_MASK = 32'h00000001;

  // GPUREG_EARLYDEPTH_CLEAR (EarlydepthClear): IDs 0x063
  // 0: Trigger (0 = idle, 1 = clear) (trigger)
  localparam int EARLYDEPTH_CLEAR_TRIGGER_LSB = 0;
  localparam int EARLYDEPTH_CLEAR_TRIGGER_WIDTH = 1;
  localparam logic [31:0] EARLYDEPTH_CLEAR_TRIGGER_MASK = 32'h00000001;

  // GPUREG_SH_OUTATTR_MODE (ShOutattrMode): IDs 0x064
  // 0: Use texture coordinates (0 = don't use, 1 = use) (bool)
  localparam int SH_OUTATTR_MODE_USE_TEXCOORDS_LSB = 0;
  localparam int SH_OUTATTR_MODE_USE_TEXCOORDS_WIDTH = 1;
  localparam logic [31:0] SH_OUTATTR_MODE_USE_TEXCOORDS_MASK = 32'h00000001;

  // GPUREG_SCISSORTEST_MODE (ScissortestMode): IDs 0x065
  // 0-1: Enabled (0 = disabled, 3 = enabled) (enum ScissortestModeMode)
  localparam int SCISSORTEST_MODE_MODE_LSB = 0;
  localparam int SCISSORTEST_MODE_MODE_WIDTH = 2;
  localparam logic [31:0] SCISSORTEST_MODE_MODE_MASK = 32'h00000003;

  // GPUREG_SCISSORTEST_POS (ScissortestPos): IDs 0x066
  // 0-9: X1 (unsigned)
  localparam int SCISSORTEST_POS_X1_LSB = 0;
  localparam int SCISSORTEST_POS_X1_WIDTH = 10;
  localparam logic [31:0] SCISSORTEST_POS_X1_MASK = 32'h000003ff;
  // 16-25: Y1 (unsigned)
  localparam int SCISSORTEST_POS_Y1_LSB = 16;
  localparam int SCISSORTEST_POS_Y1_WIDTH = 10;
  localparam logic [31:0] SCISSORTEST_POS_Y1_MASK = 32'h03ff0000;

  // GPUREG_SCISSORTEST_DIM (ScissortestDim): IDs 0x067
  // 0-9: X2 (unsigned)
  localparam int SCISSORTEST_DIM_X2_LSB = 0;
  localparam int SCISSORTEST_DIM_X2_WIDTH = 10;
  localparam logic [31:0] SCISSORTEST_DIM_X2_MASK = 32'h000003ff;
  // 16-25: Y2 (unsigned)
  localparam int SCISSORTEST_DIM_Y2_LSB = 16;
  localparam int SCISSORTEST_DIM_Y2_WIDTH = 10;
  localparam logic [31:0] SCISSORTEST_DIM_Y2_MASK = 32'h03ff0000;

  // GPUREG_VIEWPORT_XY (ViewportXy): IDs 0x068
  // 0-9: X (signed)
  localparam int VIEWPORT_XY_X_LSB = 0;
  localparam int VIEWPORT_XY_X_WIDTH = 10;
  localparam logic [31:0] VIEWPORT_XY_X_MASK = 32'h000003ff;
  // 16-25: Y (signed)
  localparam int VIEWPORT_XY_Y_LSB = 16;
  localparam int VIEWPORT_XY_Y_WIDTH = 10;
  localparam logic [31:0] VIEWPORT_XY_Y_MASK = 32'h03ff0000;

  // GPUREG_EARLYDEPTH_DATA (EarlydepthData): IDs 0x06A
  // 0-23: Clear value (unsigned)
  localparam int EARLYDEPTH_DATA_CLEAR_VALUE_LSB = 0;
  localparam int EARLYDEPTH_DATA_CLEAR_VALUE_WIDTH = 24;
  localparam logic [31:0] EARLYDEPTH_DATA_CLEAR_VALUE_MASK = 32'h00ffffff;

  // GPUREG_DEPTHMAP_ENABLE (DepthmapEnable): IDs 0x06D
  // 0: Enabled (0 = disabled, 1 = enabled) (bool)
  localparam int DEPTHMAP_ENABLE_ENABLED_LSB = 0;
  localparam int DEPTHMAP_ENABLE_ENABLED_WIDTH = 1;
  localparam logic [31:0] DEPTHMAP_ENABLE_ENABLED_MASK = 32'h00000001;

  // GPUREG_RENDERBUF_DIM (RenderbufDim): IDs 0x06E
  // 0-10: Width (unsigned)
  localparam int RENDERBUF_DIM_WIDTH_LSB = 0;
  localparam int RENDERBUF_DIM_WIDTH_WIDTH = 11;
  localparam logic [31:0] RENDERBUF_DIM_WIDTH_MASK = 32'h000007ff;
  // 12-21: Height - 1 (unsigned)
  localparam int RENDERBUF_DIM_HEIGHT_MINUS_1_LSB = 12;
  localparam int RENDERBUF_DIM_HEIGHT_MINUS_1_WIDTH = 10;
  localparam logic [31:0] RENDERBUF_DIM_HEIGHT_MINUS_1_MASK = 32'h003ff000;
  // 24: Must be 0x1 (const 0x1)
  localparam int RENDERBUF_DIM_RESERVED_24_LSB = 24;
  localparam int RENDERBUF_DIM_RESERVED_24_WIDTH = 1;
  localparam logic [31:0] RENDERBUF_DIM_RESERVED_24_MASK = 32'h01000000;
  localparam logic [0:0] RENDERBUF_DIM_RESERVED_24_VALUE = 1'h1;

  // GPUREG_SH_OUTATTR_CLOCK (ShOutattrClock): IDs 0x06F
  // 0: 'position.z' present (0 = absent, 1 = present) (bool)
  localparam int SH_OUTATTR_CLOCK_POSITION_Z_PRESENT_LSB = 0;
  localparam int SH_OUTATTR_CLOCK_POSITION_Z_PRESENT_WIDTH = 1;
  localparam logic [31:0] SH_OUTATTR_CLOCK_POSITION_Z_PRESENT_MASK = 32'h00000001;
  // 1: 'color' component present (0 = absent, 1 = present) (bool)
  localparam int SH_OUTATTR_CLOCK_COLOR_PRESENT_LSB = 1;
  localparam int SH_OUTATTR_CLOCK_COLOR_PRESENT_WIDTH = 1;
  localparam logic [31:0] SH_OUTATTR_CLOCK_COLOR_PRESENT_MASK = 32'h00000002;
  // 8: 'texcoord0' component present (0 = absent, 1 = present) (bool)
  localparam int SH_OUTATTR_CLOCK_TEXCOORD0_PRESENT_LSB = 8;
  localparam int SH_OUTATTR_CLOCK_TEXCOORD0_PRESENT_WIDTH = 1;
  localparam logic [31:0] SH_OUTATTR_CLOCK_TEXCOORD0_PRESENT_MASK = 32'h00000100;
  // 9: 'texcoord1' component present (0 = absent, 1 = present) (bool)
  localparam int SH_OUTATTR_CLOCK_TEXCOORD1_PRESENT_LSB = 9;
  localparam int SH_OUTATTR_CLOCK_TEXCOORD1_PRESENT_WIDTH = 1;
  localparam logic [31:0] SH_OUTATTR_CLOCK_TEXCOORD1_PRESENT_MASK = 32'h00000200;
  // 10: 'texcoord2' component present (0 = absent, 1 = present) (bool)
  localparam int SH_OUTATTR_CLOCK_TEXCOORD2_PRESENT_LSB = 10;
  localparam int SH_OUTATTR_CLOCK_TEXCOORD2_PRESENT_WIDTH = 1;
  localparam logic [31:0] SH_OUTATTR_CLOCK_TEXCOORD2_PRESENT_MASK = 32'h00000400;
  // 16: 'texcoord0.w' present (0 = absent, 1 = present) (bool)
  localparam int SH_OUTATTR_CLOCK_TEXCOORD0_W_PRESENT_LSB = 16;
  localparam int SH_OUTATTR_CLOCK_TEXCOORD0_W_PRESENT_WIDTH = 1;
  localparam logic [31:0] SH_OUTATTR_CLOCK_TEXCOORD0_W_PRESENT_MASK = 32'h00010000;
  // 24: 'normquat' or 'view' component present (0 = absent, 1 = present) (bool)
  localparam int SH_OUTATTR_CLOCK_NORMQUAT_OR_VIEW_PRESENT_LSB = 24;
  localparam int SH_OUTATTR_CLOCK_NORMQUAT_OR_VIEW_PRESENT_WIDTH = 1;
  localparam logic [31:0] SH_OUTATTR_CLOCK_NORMQUAT_OR_VIEW_PRESENT_MASK = 32'h01000000;

  // GPUREG_TEXUNIT_CONFIG (TexunitConfig): IDs 0x080
  // 0: Texture 0 enabled (0 = disabled, 1 = enabled) (bool)
  localparam int TEXUNIT_CONFIG_TEXTURE0_ENABLED_LSB = 0;
  localparam int TEXUNIT_CONFIG_TEXTURE0_ENABLED_WIDTH = 1;
  localparam logic [31:0] TEXUNIT_CONFIG_TEXTURE0_ENABLED_MASK = 32'h00000001;
  // 1: Texture 1 enabled (0 = disabled, 1 = enabled) (bool)
  localparam int TEXUNIT_CONFIG_TEXTURE1_ENABLED_LSB = 1;
  localparam int TEXUNIT_CONFIG_TEXTURE1_ENABLED_WIDTH = 1;
  localparam logic [31:0] TEXUNIT_CONFIG_TEXTURE1_ENABLED_MASK = 32'h00000002;
  // 2: Texture 2 enabled (0 = disabled, 1 = enabled) (bool)
  localparam int TEXUNIT_CONFIG_TEXTURE2_ENABLED_LSB = 2;
  localparam int TEXUNIT_CONFIG_TEXTURE2_ENABLED_WIDTH = 1;
  localparam logic [31:0] TEXUNIT_CONFIG_TEXTURE2_ENABLED_MASK = 32'h00000004;
  // 3: Must be 0x0 (const 0x0)
  localparam int TEXUNIT_CONFIG_RESERVED_3_LSB = 3;
  localparam int TEXUNIT_CONFIG_RESERVED_3_WIDTH = 1;
  localparam logic [31:0] TEXUNIT_CONFIG_RESERVED_3_MASK = 32'h00000008;
  localparam logic [0:0] TEXUNIT_CONFIG_RESERVED_3_VALUE = 1'h0;
  // 8-9: Texture 3 coordinates (enum TexunitConfigTexture3Coords)
  localparam int TEXUNIT_CONFIG_TEXTURE3_COORDS_LSB = 8;
  localparam int TEXUNIT_CONFIG_TEXTURE3_COORDS_WIDTH = 2;
  localparam logic [31:0] TEXUNIT_CONFIG_TEXTURE3_COORDS_MASK = 32'h00000300;
  // 10: Texture 3 enabled (0 = disabled, 1 = enabled) (bool)
  localparam int TEXUNIT_CONFIG_TEXTURE3_ENABLED_LSB = 10;
  localparam int TEXUNIT_CONFIG_TEXTURE3_ENABLED_WIDTH = 1;
  localparam logic [31:0] TEXUNIT_CONFIG_TEXTURE3_ENABLED_MASK = 32'h00000400;
  // 12: Must be 0x1 (const 0x1)
  localparam int TEXUNIT_CONFIG_RESERVED_12_LSB = 12;
  localparam int TEXUNIT_CONFIG_RESERVED_12_WIDTH = 1;
  localparam logic [31:0] TEXUNIT_CONFIG_RESERVED_12_MASK = 32'h00001000;
  localparam logic [0:0] TEXUNIT_CONFIG_RESERVED_12_VALUE = 1'h1;
  // 13: Texture 2 coordinates (enum TexunitConfigTexture2Coords)
  localparam int TEXUNIT_CONFIG_TEXTURE2_COORDS_LSB = 13;
  localparam int TEXUNIT_CONFIG_TEXTURE2_COORDS_WIDTH = 1;
  localparam logic [31:0] TEXUNIT_CONFIG_TEXTURE2_COORDS_MASK = 32'h00002000;
  // 16: Clear texture cache (0 = don't clear, 1 = clear) (bool)
  localparam int TEXUNIT_CONFIG_CLEAR_TEXTURE_CACHE_LSB = 16;
  localparam int TEXUNIT_CONFIG_CLEAR_TEXTURE_CACHE_WIDTH = 1;
  localparam logic [31:0] TEXUNIT_CONFIG_CLEAR_TEXTURE_CACHE_MASK = 32'h00010000;
  // 17-31: Must be 0x0 (const 0x0)
  localparam int TEXUNIT_CONFIG_RESERVED_17_31_LSB = 17;
  localparam int TEXUNIT_CONFIG_RESERVED_17_31_WIDTH = 15;
  localparam logic [31:0] TEXUNIT_CONFIG_RESERVED_17_31_MASK = 32'hfffe0000;
  localparam logic [14:0] TEXUNIT_CONFIG_RESERVED_17_31_VALUE = 15'h0;

  // GPUREG_TEXUNITi_BORDER_COLOR (TexunitBorderColor): IDs 0x081, 0x091, 0x099
  // 0-7: Red (unsigned)
  localparam int TEXUNIT_BORDER_COLOR_RED_LSB = 0;
  localparam int TEXUNIT_BORDER_COLOR_RED_WIDTH = 8;
  localparam logic [31:0] TEXUNIT_BORDER_COLOR_RED_MASK = 32'h000000ff;
  // 8-15: Green (unsigned)
  localparam int TEXUNIT_BORDER_COLOR_GREEN_LSB = 8;
  localparam int TEXUNIT_BORDER_COLOR_GREEN_WIDTH = 8;
  localparam logic [31:0] TEXUNIT_BORDER_COLOR_GREEN_MASK = 32'h0000ff00;
  // 16-23: Blue (unsigned)
  localparam int TEXUNIT_BORDER_COLOR_BLUE_LSB = 16;
  localparam int TEXUNIT_BORDER_COLOR_BLUE_WIDTH = 8;
  localparam logic [31:0] TEXUNIT_BORDER_COLOR_BLUE_MASK = 32'h00ff0000;
  // 24-31: Alpha (unsigned)
  localparam int TEXUNIT_BORDER_COLOR_ALPHA_LSB = 24;
  localparam int TEXUNIT_BORDER_COLOR_ALPHA_WIDTH = 8;
  localparam logic [31:0] TEXUNIT_BORDER_COLOR_ALPHA_MASK = 32'hff000000;

  // GPUREG_TEXUNITi_DIM (TexunitDim): IDs 0x082, 0x092, 0x09A
  // 0-10: Height (unsigned)
  localparam int TEXUNIT_DIM_HEIGHT_LSB = 0;
  localparam int TEXUNIT_DIM_HEIGHT_WIDTH = 11;
  localparam logic [31:0] TEXUNIT_DIM_HEIGHT_MASK = 32'h000007ff;
  // 16-26: Width (unsigned)
  localparam int TEXUNIT_DIM_WIDTH_LSB = 16;
  localparam int TEXUNIT_DIM_WIDTH_WIDTH = 11;
  localparam logic [31:0] TEXUNIT_DIM_WIDTH_MASK = 32'h07ff0000;

  // GPUREG_TEXUNITi_PARAM (TexunitParam): IDs 0x083, 0x093, 0x09B
  // 1: Magnification filter (enum TexunitParamFilter)
  localparam int TEXUNIT_PARAM_MAG_FILTER_LSB = 1;
  localparam int TEXUNIT_PARAM_MAG_FILTER_WIDTH = 1;
  localparam logic [31:0] TEXUNIT_PARAM_MAG_FILTER_MASK = 32'h00000002;
  // 2: Minification filter (enum TexunitParamFilter)
  localparam int TEXUNIT_PARAM_MIN_FILTER_LSB = 2;
  localparam int TEXUNIT_PARAM_MIN_FILTER_WIDTH = 1;
  localparam logic [31:0] TEXUNIT_PARAM_MIN_FILTER_MASK = 32'h00000004;
  // 4-5: ETC1 (0 = not ETC1, 2 = ETC1) note: still 0 for ETC1A4 (enum TexunitParamEtc1)
  localparam int TEXUNIT_PARAM_ETC1_LSB = 4;
  localparam int TEXUNIT_PARAM_ETC1_WIDTH = 2;
  localparam logic [31:0] TEXUNIT_PARAM_ETC1_MASK = 32'h00000030;
  // 8-10: Wrap T (enum TexunitParamWrap)
  localparam int TEXUNIT_PARAM_WRAP_T_LSB = 8;
  localparam int TEXUNIT_PARAM_WRAP_T_WIDTH = 3;
  localparam logic [31:0] TEXUNIT_PARAM_WRAP_T_MASK = 32'h00000700;
  // 12-14: Wrap S (enum TexunitParamWrap)
  localparam int TEXUNIT_PARAM_WRAP_S_LSB = 12;
  localparam int TEXUNIT_PARAM_WRAP_S_WIDTH = 3;
  localparam logic [31:0] TEXUNIT_PARAM_WRAP_S_MASK = 32'h00007000;
  // 16-17: Must be 0x0 (const 0x0)
  localparam int TEXUNIT_PARAM_RESERVED_16_17_LSB = 16;
  localparam int TEXUNIT_PARAM_RESERVED_16_17_WIDTH = 2;
  localparam logic [31:0] TEXUNIT_PARAM_RESERVED_16_17_MASK = 32'h00030000;
  localparam logic [1:0] TEXUNIT_PARAM_RESERVED_16_17_VALUE = 2'h0;
  // 20: Shadow (Texture 0 only, 0 = not shadow, 1 = shadow) (bool)
  localparam int TEXUNIT_PARAM_SHADOW_LSB = 20;
  localparam int TEXUNIT_PARAM_SHADOW_WIDTH = 1;
  localparam logic [31:0] TEXUNIT_PARAM_SHADOW_MASK = 32'h00100000;
  // 24: Mipmap filter (enum TexunitParamFilter)
  localparam int TEXUNIT_PARAM_MIPMAP_FILTER_LSB = 24;
  localparam int TEXUNIT_PARAM_MIPMAP_FILTER_WIDTH = 1;
  localparam logic [31:0] TEXUNIT_PARAM_MIPMAP_FILTER_MASK = 32'h01000000;
  // 28-30: Type (Texture 0 only) (enum TexunitParamType)
  localparam int TEXUNIT_PARAM_TEXTURE_TYPE_LSB = 28;
  localparam int TEXUNIT_PARAM_TEXTURE_TYPE_WIDTH = 3;
  localparam logic [31:0] TEXUNIT_PARAM_TEXTURE_TYPE_MASK = 32'h70000000;

  // GPUREG_TEXUNITi_LOD (TexunitLod): IDs 0x084, 0x094, 0x09C
  // 0-12: Bias (fixed1.4.8)
  localparam int TEXUNIT_LOD_BIAS_LSB = 0;
  localparam int TEXUNIT_LOD_BIAS_WIDTH = 13;
  localparam logic [31:0] TEXUNIT_LOD_BIAS_MASK = 32'h00001fff;
  // 16-19: Max Level (unsigned)
  localparam int TEXUNIT_LOD_MAX_LEVEL_LSB = 16;
  localparam int TEXUNIT_LOD_MAX_LEVEL_WIDTH = 4;
  localparam logic [31:0] TEXUNIT_LOD_MAX_LEVEL_MASK = 32'h000f0000;
  // 24-27: Min Level (unsigned)
  localparam int TEXUNIT_LOD_MIN_LEVEL_LSB = 24;
  localparam int TEXUNIT_LOD_MIN_LEVEL_WIDTH = 4;
  localparam logic [31:0] TEXUNIT_LOD_MIN_LEVEL_MASK = 32'h0f000000;

  // GPUREG_TEXUNITi_ADDRi (first) (TexunitAddr): IDs 0x085, 0x095, 0x09D
  // 0-27: Texture physical address >> 3 (unsigned)
  localparam int TEXUNIT_ADDR_ADDR_LSB = 0;
  localparam int TEXUNIT_ADDR_ADDR_WIDTH = 28;
  localparam logic [31:0] TEXUNIT_ADDR_ADDR_MASK = 32'h0fffffff;

  // GPUREG_TEXUNITi_ADDRi (subsequent) (TexunitAddrSubsequent): IDs 0x086, 0x087, 0x088, 0x089, 0x08A
  // 0-21: Texture physical address >> 3 (upper 6 bits reused from first ADDR register) (unsigned)
  localparam int TEXUNIT_ADDR_SUBSEQUENT_ADDR_LSB = 0;
  localparam int TEXUNIT_ADDR_SUBSEQUENT_ADDR_WIDTH = 22;
  localparam logic [31:0] TEXUNIT_ADDR_SUBSEQUENT_ADDR_MASK = 32'h003fffff;

  // GPUREG_TEXUNITi_SHADOW (TexunitShadow): IDs 0x08B
  // 0: Perspective (0 = perspective, 1 = not perspective) (bool)
  localparam int TEXUNIT_SHADOW_ORTHOGRAPHIC_LSB = 0;
  localparam int TEXUNIT_SHADOW_ORTHOGRAPHIC_WIDTH = 1;
  localparam logic [31:0] TEXUNIT_SHADOW_ORTHOGRAPHIC_MASK = 32'h00000001;
  // 1-23: Z bias (upper 23 bits) (fixed0.0.24)
  localparam int TEXUNIT_SHADOW_Z_BIAS_LSB = 1;
  localparam int TEXUNIT_SHADOW_Z_BIAS_WIDTH = 23;
  localparam logic [31:0] TEXUNIT_SHADOW_Z_BIAS_MASK = 32'h00fffffe;

  // GPUREG_TEXUNITi_TYPE (TexunitType): IDs 0x08E, 0x096, 0x09E
  // 0-3: Format (enum TexunitTypeFormat)
  localparam int TEXUNIT_TYPE_FORMAT_LSB = 0;
  localparam int TEXUNIT_TYPE_FORMAT_WIDTH = 4;
  localparam logic [31:0] TEXUNIT_TYPE_FORMAT_MASK = 32'h0000000f;

  // GPUREG_LIGHTING_ENABLE0 (LightingEnable0): IDs 0x08F
  // 0: Enabled (0 = disabled, 1 = enabled) (bool)
  localparam int LIGHTING_ENABLE0_ENABLED_LSB = 0;
  localparam int LIGHTING_ENABLE0_ENABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_ENABLE0_ENABLED_MASK = 32'h00000001;

  // GPUREG_TEXUNIT3_PROCTEX0 (Texunit3Proctex0): IDs 0x0A8
  // 0-2: U-direction clamp (enum ProctexClamp)
  localparam int TEXUNIT3_PROCTEX0_U_CLAMP_LSB = 0;
  localparam int TEXUNIT3_PROCTEX0_U_CLAMP_WIDTH = 3;
  localparam logic [31:0] TEXUNIT3_PROCTEX0_U_CLAMP_MASK = 32'h00000007;
  // 3-5: V-direction clamp (enum ProctexClamp)
  localparam int TEXUNIT3_PROCTEX0_V_CLAMP_LSB = 3;
  localparam int TEXUNIT3_PROCTEX0_V_CLAMP_WIDTH = 3;
  localparam logic [31:0] TEXUNIT3_PROCTEX0_V_CLAMP_MASK = 32'h00000038;
  // 6-9: RGB mapping function (enum ProctexMappingFunction)
  localparam int TEXUNIT3_PROCTEX0_RGB_FUNC_LSB = 6;
  localparam int TEXUNIT3_PROCTEX0_RGB_FUNC_WIDTH = 4;
  localparam logic [31:0] TEXUNIT3_PROCTEX0_RGB_FUNC_MASK = 32'h000003c0;
  // 10-13: Alpha mapping function (enum ProctexMappingFunction)
  localparam int TEXUNIT3_PROCTEX0_ALPHA_FUNC_LSB = 10;
  localparam int TEXUNIT3_PROCTEX0_ALPHA_FUNC_WIDTH = 4;
  localparam logic [31:0] TEXUNIT3_PROCTEX0_ALPHA_FUNC_MASK = 32'h00003c00;
  // 14: Handle alpha separately (0 = don't separate, 1 = separate) (bool)
  localparam int TEXUNIT3_PROCTEX0_SEPARATE_ALPHA_LSB = 14;
  localparam int TEXUNIT3_PROCTEX0_SEPARATE_ALPHA_WIDTH = 1;
  localparam logic [31:0] TEXUNIT3_PROCTEX0_SEPARATE_ALPHA_MASK = 32'h00004000;
  // 15: Noise enabled (0 = disabled, 1 = enabled) (bool)
  localparam int TEXUNIT3_PROCTEX0_NOISE_ENABLED_LSB = 15;
  localparam int TEXUNIT3_PROCTEX0_NOISE_ENABLED_WIDTH = 1;
  localparam logic [31:0] TEXUNIT3_PROCTEX0_NOISE_ENABLED_MASK = 32'h00008000;
  // 16-17: U-direction shift (enum ProctexShift)
  localparam int TEXUNIT3_PROCTEX0_U_SHIFT_LSB = 16;
  localparam int TEXUNIT3_PROCTEX0_U_SHIFT_WIDTH = 2;
  localparam logic [31:0] TEXUNIT3_PROCTEX0_U_SHIFT_MASK = 32'h00030000;
  // 18-19: V-direction shift (enum ProctexShift)
  localparam int TEXUNIT3_PROCTEX0_V_SHIFT_LSB = 18;
  localparam int TEXUNIT3_PROCTEX0_V_SHIFT_WIDTH = 2;
  localparam logic [31:0] TEXUNIT3_PROCTEX0_V_SHIFT_MASK = 32'h000c0000;
  // 20-27: Texture bias (lower 8 bits) (raw bits of a partial float1.5.10 value) (unsigned)
  localparam int TEXUNIT3_PROCTEX0_BIAS_LOW_LSB = 20;
  localparam int TEXUNIT3_PROCTEX0_BIAS_LOW_WIDTH = 8;
  localparam logic [31:0] TEXUNIT3_PROCTEX0_BIAS_LOW_MASK = 32'h0ff00000;

  // GPUREG_TEXUNIT3_PROCTEX1 (Texunit3Proctex1): IDs 0x0A9
  // 0-15: U-direction noise amplitude (fixed1.3.12)
  localparam int TEXUNIT3_PROCTEX1_U_NOISE_AMPLITUDE_LSB = 0;
  localparam int TEXUNIT3_PROCTEX1_U_NOISE_AMPLITUDE_WIDTH = 16;
  localparam logic [31:0] TEXUNIT3_PROCTEX1_U_NOISE_AMPLITUDE_MASK = 32'h0000ffff;
  // 16-31: U-direction noise phase (f16)
  localparam int TEXUNIT3_PROCTEX1_U_NOISE_PHASE_LSB = 16;
  localparam int TEXUNIT3_PROCTEX1_U_NOISE_PHASE_WIDTH = 16;
  localparam logic [31:0] TEXUNIT3_PROCTEX1_U_NOISE_PHASE_MASK = 32'hffff0000;

  // GPUREG_TEXUNIT3_PROCTEX2 (Texunit3Proctex2): IDs 0x0AA
  // 0-15: V-direction noise amplitude (fixed1.3.12)
  localparam int TEXUNIT3_PROCTEX2_V_NOISE_AMPLITUDE_LSB = 0;
  localparam int TEXUNIT3_PROCTEX2_V_NOISE_AMPLITUDE_WIDTH = 16;
  localparam logic [31:0] TEXUNIT3_PROCTEX2_V_NOISE_AMPLITUDE_MASK = 32'h0000ffff;
  // 16-31: V-direction noise phase (f16)
  localparam int TEXUNIT3_PROCTEX2_V_NOISE_PHASE_LSB = 16;
  localparam int TEXUNIT3_PROCTEX2_V_NOISE_PHASE_WIDTH = 16;
  localparam logic [31:0] TEXUNIT3_PROCTEX2_V_NOISE_PHASE_MASK = 32'hffff0000;

  // GPUREG_TEXUNIT3_PROCTEX3 (Texunit3Proctex3): IDs 0x0AB
  // 0-15: U-direction noise frequency (f16)
  localparam int TEXUNIT3_PROCTEX3_U_NOISE_FREQUENCY_LSB = 0;
  localparam int TEXUNIT3_PROCTEX3_U_NOISE_FREQUENCY_WIDTH = 16;
  localparam logic [31:0] TEXUNIT3_PROCTEX3_U_NOISE_FREQUENCY_MASK = 32'h0000ffff;
  // 16-31: V-direction noise frequency (f16)
  localparam int TEXUNIT3_PROCTEX3_V_NOISE_FREQUENCY_LSB = 16;
  localparam int TEXUNIT3_PROCTEX3_V_NOISE_FREQUENCY_WIDTH = 16;
  localparam logic [31:0] TEXUNIT3_PROCTEX3_V_NOISE_FREQUENCY_MASK = 32'hffff0000;

  // GPUREG_TEXUNIT3_PROCTEX4 (Texunit3Proctex4): IDs 0x0AC
  // 0-2: Minification filter (enum ProctexMinFilter)
  localparam int TEXUNIT3_PROCTEX4_MIN_FILTER_LSB = 0;
  localparam int TEXUNIT3_PROCTEX4_MIN_FILTER_WIDTH = 3;
  localparam logic [31:0] TEXUNIT3_PROCTEX4_MIN_FILTER_MASK = 32'h00000007;
  // 3-6: Min LOD (usually 0) (unsigned)
  localparam int TEXUNIT3_PROCTEX4_MIN_LOD_LSB = 3;
  localparam int TEXUNIT3_PROCTEX4_MIN_LOD_WIDTH = 4;
  localparam logic [31:0] TEXUNIT3_PROCTEX4_MIN_LOD_MASK = 32'h00000078;
  // 7-10: Max LOD (usually 6) (unsigned)
  localparam int TEXUNIT3_PROCTEX4_MAX_LOD_LSB = 7;
  localparam int TEXUNIT3_PROCTEX4_MAX_LOD_WIDTH = 4;
  localparam logic [31:0] TEXUNIT3_PROCTEX4_MAX_LOD_MASK = 32'h00000780;
  // 11-18: Texture width (unsigned)
  localparam int TEXUNIT3_PROCTEX4_WIDTH_LSB = 11;
  localparam int TEXUNIT3_PROCTEX4_WIDTH_WIDTH = 8;
  localparam logic [31:0] TEXUNIT3_PROCTEX4_WIDTH_MASK = 32'h0007f800;
  // 19-26: Texture bias (upper 8 bits) (raw bits of a partial float1.5.10 value) (unsigned)
  localparam int TEXUNIT3_PROCTEX4_BIAS_HIGH_LSB = 19;
  localparam int TEXUNIT3_PROCTEX4_BIAS_HIGH_WIDTH = 8;
  localparam logic [31:0] TEXUNIT3_PROCTEX4_BIAS_HIGH_MASK = 32'h07f80000;

  // GPUREG_TEXUNIT3_PROCTEX5 (Texunit3Proctex5): IDs 0x0AD
  // 0-7: Texture offset (Mipmap level 0 / base level) (unsigned)
  localparam int TEXUNIT3_PROCTEX5_LEVEL0_OFFSET_LSB = 0;
  localparam int TEXUNIT3_PROCTEX5_LEVEL0_OFFSET_WIDTH = 8;
  localparam logic [31:0] TEXUNIT3_PROCTEX5_LEVEL0_OFFSET_MASK = 32'h000000ff;
  // 8-15: mipmap level 1 offset (usually 0x80) (unsigned)
  localparam int TEXUNIT3_PROCTEX5_LEVEL1_OFFSET_LSB = 8;
  localparam int TEXUNIT3_PROCTEX5_LEVEL1_OFFSET_WIDTH = 8;
  localparam logic [31:0] TEXUNIT3_PROCTEX5_LEVEL1_OFFSET_MASK = 32'h0000ff00;
  // 16-23: mipmap level 2 offset (usually 0xC0) (unsigned)
  localparam int TEXUNIT3_PROCTEX5_LEVEL2_OFFSET_LSB = 16;
  localparam int TEXUNIT3_PROCTEX5_LEVEL2_OFFSET_WIDTH = 8;
  localparam logic [31:0] TEXUNIT3_PROCTEX5_LEVEL2_OFFSET_MASK = 32'h00ff0000;
  // 24-31: mipmap level 3 offset (usually 0xE0) (unsigned)
  localparam int TEXUNIT3_PROCTEX5_LEVEL3_OFFSET_LSB = 24;
  localparam int TEXUNIT3_PROCTEX5_LEVEL3_OFFSET_WIDTH = 8;
  localparam logic [31:0] TEXUNIT3_PROCTEX5_LEVEL3_OFFSET_MASK = 32'hff000000;

  // GPUREG_PROCTEX_LUT (ProctexLut): IDs 0x0AF
  // 0-7: Index (unsigned)
  localparam int PROCTEX_LUT_INDEX_LSB = 0;
  localparam int PROCTEX_LUT_INDEX_WIDTH = 8;
  localparam logic [31:0] PROCTEX_LUT_INDEX_MASK = 32'h000000ff;
  // 8-11: Reference table (enum ProctexLutTable)
  localparam int PROCTEX_LUT_TABLE_LSB = 8;
  localparam int PROCTEX_LUT_TABLE_WIDTH = 4;
  localparam logic [31:0] PROCTEX_LUT_TABLE_MASK = 32'h00000f00;

  // GPUREG_PROCTEX_LUT_DATAi (ProctexLutData): IDs 0x0B0, 0x0B1, 0x0B2, 0x0B3, 0x0B4, 0x0B5, 0x0B6, 0x0B7
  // 0-31: LUT data (data)
  localparam int PROCTEX_LUT_DATA_DATA_LSB = 0;
  localparam int PROCTEX_LUT_DATA_DATA_WIDTH = 32;
  localparam logic [31:0] PROCTEX_LUT_DATA_DATA_MASK = 32'hffffffff;

  // LUT entry: Noise table (ProctexNoiseEntry, 128 elements)
  // 0-11: Value (fixed0.0.12)
  localparam int PROCTEX_NOISE_ENTRY_VALUE_LSB = 0;
  localparam int PROCTEX_NOISE_ENTRY_VALUE_WIDTH = 12;
  localparam logic [31:0] PROCTEX_NOISE_ENTRY_VALUE_MASK = 32'h00000fff;
  // 12-23: Difference from next element (fixed0.0.12 with two's complement; raw, scale UNVERIFIED(hw), see the table) (signed)
  localparam int PROCTEX_NOISE_ENTRY_DIFFERENCE_LSB = 12;
  localparam int PROCTEX_NOISE_ENTRY_DIFFERENCE_WIDTH = 12;
  localparam logic [31:0] PROCTEX_NOISE_ENTRY_DIFFERENCE_MASK = 32'h00fff000;

  // LUT entry: RGB mapping function table (ProctexRgbMapEntry, 128 elements)
  // 0-11: Value (fixed0.0.12)
  localparam int PROCTEX_RGB_MAP_ENTRY_VALUE_LSB = 0;
  localparam int PROCTEX_RGB_MAP_ENTRY_VALUE_WIDTH = 12;
  localparam logic [31:0] PROCTEX_RGB_MAP_ENTRY_VALUE_MASK = 32'h00000fff;
  // 12-23: Difference from next element (fixed0.0.12 with two's complement; raw, scale UNVERIFIED(hw), see the table) (signed)
  localparam int PROCTEX_RGB_MAP_ENTRY_DIFFERENCE_LSB = 12;
  localparam int PROCTEX_RGB_MAP_ENTRY_DIFFERENCE_WIDTH = 12;
  localparam logic [31:0] PROCTEX_RGB_MAP_ENTRY_DIFFERENCE_MASK = 32'h00fff000;

  // LUT entry: Alpha mapping function table (ProctexAlphaMapEntry, 128 elements)
  // 0-11: Value (fixed0.0.12)
  localparam int PROCTEX_ALPHA_MAP_ENTRY_VALUE_LSB = 0;
  localparam int PROCTEX_ALPHA_MAP_ENTRY_VALUE_WIDTH = 12;
  localparam logic [31:0] PROCTEX_ALPHA_MAP_ENTRY_VALUE_MASK = 32'h00000fff;
  // 12-23: Difference from next element (fixed0.0.12 with two's complement; raw, scale UNVERIFIED(hw), see the table) (signed)
  localparam int PROCTEX_ALPHA_MAP_ENTRY_DIFFERENCE_LSB = 12;
  localparam int PROCTEX_ALPHA_MAP_ENTRY_DIFFERENCE_WIDTH = 12;
  localparam logic [31:0] PROCTEX_ALPHA_MAP_ENTRY_DIFFERENCE_MASK = 32'h00fff000;

  // LUT entry: Color table (ProctexColorEntry, 256 elements)
  // 0-7: Red (unsigned)
  localparam int PROCTEX_COLOR_ENTRY_RED_LSB = 0;
  localparam int PROCTEX_COLOR_ENTRY_RED_WIDTH = 8;
  localparam logic [31:0] PROCTEX_COLOR_ENTRY_RED_MASK = 32'h000000ff;
  // 8-15: Green (unsigned)
  localparam int PROCTEX_COLOR_ENTRY_GREEN_LSB = 8;
  localparam int PROCTEX_COLOR_ENTRY_GREEN_WIDTH = 8;
  localparam logic [31:0] PROCTEX_COLOR_ENTRY_GREEN_MASK = 32'h0000ff00;
  // 16-23: Blue (unsigned)
  localparam int PROCTEX_COLOR_ENTRY_BLUE_LSB = 16;
  localparam int PROCTEX_COLOR_ENTRY_BLUE_WIDTH = 8;
  localparam logic [31:0] PROCTEX_COLOR_ENTRY_BLUE_MASK = 32'h00ff0000;
  // 24-31: Alpha (unsigned)
  localparam int PROCTEX_COLOR_ENTRY_ALPHA_LSB = 24;
  localparam int PROCTEX_COLOR_ENTRY_ALPHA_WIDTH = 8;
  localparam logic [31:0] PROCTEX_COLOR_ENTRY_ALPHA_MASK = 32'hff000000;

  // LUT entry: Color difference table (ProctexColorDiffEntry, 256 elements)
  // 0-7: Half of red difference between current and next color table elements (signed)
  localparam int PROCTEX_COLOR_DIFF_ENTRY_RED_LSB = 0;
  localparam int PROCTEX_COLOR_DIFF_ENTRY_RED_WIDTH = 8;
  localparam logic [31:0] PROCTEX_COLOR_DIFF_ENTRY_RED_MASK = 32'h000000ff;
  // 8-15: Half of green difference between current and next color table elements (signed)
  localparam int PROCTEX_COLOR_DIFF_ENTRY_GREEN_LSB = 8;
  localparam int PROCTEX_COLOR_DIFF_ENTRY_GREEN_WIDTH = 8;
  localparam logic [31:0] PROCTEX_COLOR_DIFF_ENTRY_GREEN_MASK = 32'h0000ff00;
  // 16-23: Half of blue difference between current and next color table elements (signed)
  localparam int PROCTEX_COLOR_DIFF_ENTRY_BLUE_LSB = 16;
  localparam int PROCTEX_COLOR_DIFF_ENTRY_BLUE_WIDTH = 8;
  localparam logic [31:0] PROCTEX_COLOR_DIFF_ENTRY_BLUE_MASK = 32'h00ff0000;
  // 24-31: Half of alpha difference between current and next color table elements (signed)
  localparam int PROCTEX_COLOR_DIFF_ENTRY_ALPHA_LSB = 24;
  localparam int PROCTEX_COLOR_DIFF_ENTRY_ALPHA_WIDTH = 8;
  localparam logic [31:0] PROCTEX_COLOR_DIFF_ENTRY_ALPHA_MASK = 32'hff000000;

  // GPUREG_TEXENVi_SOURCE (TexenvSource): IDs 0x0C0, 0x0C8, 0x0D0, 0x0D8, 0x0F0, 0x0F8
  // 0-3: RGB source 0 (enum TexenvSourceInput)
  localparam int TEXENV_SOURCE_RGB_SOURCE0_LSB = 0;
  localparam int TEXENV_SOURCE_RGB_SOURCE0_WIDTH = 4;
  localparam logic [31:0] TEXENV_SOURCE_RGB_SOURCE0_MASK = 32'h0000000f;
  // 4-7: RGB source 1 (enum TexenvSourceInput)
  localparam int TEXENV_SOURCE_RGB_SOURCE1_LSB = 4;
  localparam int TEXENV_SOURCE_RGB_SOURCE1_WIDTH = 4;
  localparam logic [31:0] TEXENV_SOURCE_RGB_SOURCE1_MASK = 32'h000000f0;
  // 8-11: RGB source 2 (enum TexenvSourceInput)
  localparam int TEXENV_SOURCE_RGB_SOURCE2_LSB = 8;
  localparam int TEXENV_SOURCE_RGB_SOURCE2_WIDTH = 4;
  localparam logic [31:0] TEXENV_SOURCE_RGB_SOURCE2_MASK = 32'h00000f00;
  // 16-19: Alpha source 0 (enum TexenvSourceInput)
  localparam int TEXENV_SOURCE_ALPHA_SOURCE0_LSB = 16;
  localparam int TEXENV_SOURCE_ALPHA_SOURCE0_WIDTH = 4;
  localparam logic [31:0] TEXENV_SOURCE_ALPHA_SOURCE0_MASK = 32'h000f0000;
  // 20-23: Alpha source 1 (enum TexenvSourceInput)
  localparam int TEXENV_SOURCE_ALPHA_SOURCE1_LSB = 20;
  localparam int TEXENV_SOURCE_ALPHA_SOURCE1_WIDTH = 4;
  localparam logic [31:0] TEXENV_SOURCE_ALPHA_SOURCE1_MASK = 32'h00f00000;
  // 24-27: Alpha source 2 (enum TexenvSourceInput)
  localparam int TEXENV_SOURCE_ALPHA_SOURCE2_LSB = 24;
  localparam int TEXENV_SOURCE_ALPHA_SOURCE2_WIDTH = 4;
  localparam logic [31:0] TEXENV_SOURCE_ALPHA_SOURCE2_MASK = 32'h0f000000;

  // GPUREG_TEXENVi_OPERAND (TexenvOperand): IDs 0x0C1, 0x0C9, 0x0D1, 0x0D9, 0x0F1, 0x0F9
  // 0-3: RGB operand 0 (enum TexenvOperandRgb)
  localparam int TEXENV_OPERAND_RGB_OPERAND0_LSB = 0;
  localparam int TEXENV_OPERAND_RGB_OPERAND0_WIDTH = 4;
  localparam logic [31:0] TEXENV_OPERAND_RGB_OPERAND0_MASK = 32'h0000000f;
  // 4-7: RGB operand 1 (enum TexenvOperandRgb)
  localparam int TEXENV_OPERAND_RGB_OPERAND1_LSB = 4;
  localparam int TEXENV_OPERAND_RGB_OPERAND1_WIDTH = 4;
  localparam logic [31:0] TEXENV_OPERAND_RGB_OPERAND1_MASK = 32'h000000f0;
  // 8-11: RGB operand 2 (enum TexenvOperandRgb)
  localparam int TEXENV_OPERAND_RGB_OPERAND2_LSB = 8;
  localparam int TEXENV_OPERAND_RGB_OPERAND2_WIDTH = 4;
  localparam logic [31:0] TEXENV_OPERAND_RGB_OPERAND2_MASK = 32'h00000f00;
  // 12-14: Alpha operand 0 (enum TexenvOperandAlpha)
  localparam int TEXENV_OPERAND_ALPHA_OPERAND0_LSB = 12;
  localparam int TEXENV_OPERAND_ALPHA_OPERAND0_WIDTH = 3;
  localparam logic [31:0] TEXENV_OPERAND_ALPHA_OPERAND0_MASK = 32'h00007000;
  // 16-18: Alpha operand 1 (enum TexenvOperandAlpha)
  localparam int TEXENV_OPERAND_ALPHA_OPERAND1_LSB = 16;
  localparam int TEXENV_OPERAND_ALPHA_OPERAND1_WIDTH = 3;
  localparam logic [31:0] TEXENV_OPERAND_ALPHA_OPERAND1_MASK = 32'h00070000;
  // 20-22: Alpha operand 2 (enum TexenvOperandAlpha)
  localparam int TEXENV_OPERAND_ALPHA_OPERAND2_LSB = 20;
  localparam int TEXENV_OPERAND_ALPHA_OPERAND2_WIDTH = 3;
  localparam logic [31:0] TEXENV_OPERAND_ALPHA_OPERAND2_MASK = 32'h00700000;

  // GPUREG_TEXENVi_COMBINER (TexenvCombiner): IDs 0x0C2, 0x0CA, 0x0D2, 0x0DA, 0x0F2, 0x0FA
  // 0-3: RGB combine (enum TexenvCombinerMode)
  localparam int TEXENV_COMBINER_RGB_COMBINE_LSB = 0;
  localparam int TEXENV_COMBINER_RGB_COMBINE_WIDTH = 4;
  localparam logic [31:0] TEXENV_COMBINER_RGB_COMBINE_MASK = 32'h0000000f;
  // 16-19: Alpha combine (enum TexenvCombinerMode)
  localparam int TEXENV_COMBINER_ALPHA_COMBINE_LSB = 16;
  localparam int TEXENV_COMBINER_ALPHA_COMBINE_WIDTH = 4;
  localparam logic [31:0] TEXENV_COMBINER_ALPHA_COMBINE_MASK = 32'h000f0000;

  // GPUREG_TEXENVi_COLOR (TexenvColor): IDs 0x0C3, 0x0CB, 0x0D3, 0x0DB, 0x0F3, 0x0FB
  // 0-7: Red (unsigned)
  localparam int TEXENV_COLOR_RED_LSB = 0;
  localparam int TEXENV_COLOR_RED_WIDTH = 8;
  localparam logic [31:0] TEXENV_COLOR_RED_MASK = 32'h000000ff;
  // 8-15: Green (unsigned)
  localparam int TEXENV_COLOR_GREEN_LSB = 8;
  localparam int TEXENV_COLOR_GREEN_WIDTH = 8;
  localparam logic [31:0] TEXENV_COLOR_GREEN_MASK = 32'h0000ff00;
  // 16-23: Blue (unsigned)
  localparam int TEXENV_COLOR_BLUE_LSB = 16;
  localparam int TEXENV_COLOR_BLUE_WIDTH = 8;
  localparam logic [31:0] TEXENV_COLOR_BLUE_MASK = 32'h00ff0000;
  // 24-31: Alpha (unsigned)
  localparam int TEXENV_COLOR_ALPHA_LSB = 24;
  localparam int TEXENV_COLOR_ALPHA_WIDTH = 8;
  localparam logic [31:0] TEXENV_COLOR_ALPHA_MASK = 32'hff000000;

  // GPUREG_TEXENVi_SCALE (TexenvScale): IDs 0x0C4, 0x0CC, 0x0D4, 0x0DC, 0x0F4, 0x0FC
  // 0-1: RGB scale (enum TexenvScaleFactor)
  localparam int TEXENV_SCALE_RGB_SCALE_LSB = 0;
  localparam int TEXENV_SCALE_RGB_SCALE_WIDTH = 2;
  localparam logic [31:0] TEXENV_SCALE_RGB_SCALE_MASK = 32'h00000003;
  // 16-17: Alpha scale (enum TexenvScaleFactor)
  localparam int TEXENV_SCALE_ALPHA_SCALE_LSB = 16;
  localparam int TEXENV_SCALE_ALPHA_SCALE_WIDTH = 2;
  localparam logic [31:0] TEXENV_SCALE_ALPHA_SCALE_MASK = 32'h00030000;

  // GPUREG_TEXENV_UPDATE_BUFFER (TexenvUpdateBuffer): IDs 0x0E0
  // 0-2: Fog mode (enum TexenvUpdateBufferFogMode)
  localparam int TEXENV_UPDATE_BUFFER_FOG_MODE_LSB = 0;
  localparam int TEXENV_UPDATE_BUFFER_FOG_MODE_WIDTH = 3;
  localparam logic [31:0] TEXENV_UPDATE_BUFFER_FOG_MODE_MASK = 32'h00000007;
  // 3: Shading density source (enum TexenvUpdateBufferDensitySource)
  localparam int TEXENV_UPDATE_BUFFER_SHADING_DENSITY_SOURCE_LSB = 3;
  localparam int TEXENV_UPDATE_BUFFER_SHADING_DENSITY_SOURCE_WIDTH = 1;
  localparam logic [31:0] TEXENV_UPDATE_BUFFER_SHADING_DENSITY_SOURCE_MASK = 32'h00000008;
  // 8: TexEnv 1 RGB buffer input (enum TexenvUpdateBufferInput)
  localparam int TEXENV_UPDATE_BUFFER_TEXENV1_RGB_BUFFER_INPUT_LSB = 8;
  localparam int TEXENV_UPDATE_BUFFER_TEXENV1_RGB_BUFFER_INPUT_WIDTH = 1;
  localparam logic [31:0] TEXENV_UPDATE_BUFFER_TEXENV1_RGB_BUFFER_INPUT_MASK = 32'h00000100;
  // 9: TexEnv 2 RGB buffer input (enum TexenvUpdateBufferInput)
  localparam int TEXENV_UPDATE_BUFFER_TEXENV2_RGB_BUFFER_INPUT_LSB = 9;
  localparam int TEXENV_UPDATE_BUFFER_TEXENV2_RGB_BUFFER_INPUT_WIDTH = 1;
  localparam logic [31:0] TEXENV_UPDATE_BUFFER_TEXENV2_RGB_BUFFER_INPUT_MASK = 32'h00000200;
  // 10: TexEnv 3 RGB buffer input (enum TexenvUpdateBufferInput)
  localparam int TEXENV_UPDATE_BUFFER_TEXENV3_RGB_BUFFER_INPUT_LSB = 10;
  localparam int TEXENV_UPDATE_BUFFER_TEXENV3_RGB_BUFFER_INPUT_WIDTH = 1;
  localparam logic [31:0] TEXENV_UPDATE_BUFFER_TEXENV3_RGB_BUFFER_INPUT_MASK = 32'h00000400;
  // 11: TexEnv 4 RGB buffer input (enum TexenvUpdateBufferInput)
  localparam int TEXENV_UPDATE_BUFFER_TEXENV4_RGB_BUFFER_INPUT_LSB = 11;
  localparam int TEXENV_UPDATE_BUFFER_TEXENV4_RGB_BUFFER_INPUT_WIDTH = 1;
  localparam logic [31:0] TEXENV_UPDATE_BUFFER_TEXENV4_RGB_BUFFER_INPUT_MASK = 32'h00000800;
  // 12: TexEnv 1 alpha buffer input (enum TexenvUpdateBufferInput)
  localparam int TEXENV_UPDATE_BUFFER_TEXENV1_ALPHA_BUFFER_INPUT_LSB = 12;
  localparam int TEXENV_UPDATE_BUFFER_TEXENV1_ALPHA_BUFFER_INPUT_WIDTH = 1;
  localparam logic [31:0] TEXENV_UPDATE_BUFFER_TEXENV1_ALPHA_BUFFER_INPUT_MASK = 32'h00001000;
  // 13: TexEnv 2 alpha buffer input (enum TexenvUpdateBufferInput)
  localparam int TEXENV_UPDATE_BUFFER_TEXENV2_ALPHA_BUFFER_INPUT_LSB = 13;
  localparam int TEXENV_UPDATE_BUFFER_TEXENV2_ALPHA_BUFFER_INPUT_WIDTH = 1;
  localparam logic [31:0] TEXENV_UPDATE_BUFFER_TEXENV2_ALPHA_BUFFER_INPUT_MASK = 32'h00002000;
  // 14: TexEnv 3 alpha buffer input (enum TexenvUpdateBufferInput)
  localparam int TEXENV_UPDATE_BUFFER_TEXENV3_ALPHA_BUFFER_INPUT_LSB = 14;
  localparam int TEXENV_UPDATE_BUFFER_TEXENV3_ALPHA_BUFFER_INPUT_WIDTH = 1;
  localparam logic [31:0] TEXENV_UPDATE_BUFFER_TEXENV3_ALPHA_BUFFER_INPUT_MASK = 32'h00004000;
  // 15: TexEnv 4 alpha buffer input (enum TexenvUpdateBufferInput)
  localparam int TEXENV_UPDATE_BUFFER_TEXENV4_ALPHA_BUFFER_INPUT_LSB = 15;
  localparam int TEXENV_UPDATE_BUFFER_TEXENV4_ALPHA_BUFFER_INPUT_WIDTH = 1;
  localparam logic [31:0] TEXENV_UPDATE_BUFFER_TEXENV4_ALPHA_BUFFER_INPUT_MASK = 32'h00008000;
  // 16: Z flip (0 = don't flip, 1 = flip) (bool)
  localparam int TEXENV_UPDATE_BUFFER_Z_FLIP_LSB = 16;
  localparam int TEXENV_UPDATE_BUFFER_Z_FLIP_WIDTH = 1;
  localparam logic [31:0] TEXENV_UPDATE_BUFFER_Z_FLIP_MASK = 32'h00010000;
  // 24-25: Must be 0x0 (const 0x0)
  localparam int TEXENV_UPDATE_BUFFER_RESERVED_24_25_LSB = 24;
  localparam int TEXENV_UPDATE_BUFFER_RESERVED_24_25_WIDTH = 2;
  localparam logic [31:0] TEXENV_UPDATE_BUFFER_RESERVED_24_25_MASK = 32'h03000000;
  localparam logic [1:0] TEXENV_UPDATE_BUFFER_RESERVED_24_25_VALUE = 2'h0;

  // GPUREG_FOG_COLOR (FogColor): IDs 0x0E1
  // 0-7: Red (unsigned)
  localparam int FOG_COLOR_RED_LSB = 0;
  localparam int FOG_COLOR_RED_WIDTH = 8;
  localparam logic [31:0] FOG_COLOR_RED_MASK = 32'h000000ff;
  // 8-15: Green (unsigned)
  localparam int FOG_COLOR_GREEN_LSB = 8;
  localparam int FOG_COLOR_GREEN_WIDTH = 8;
  localparam logic [31:0] FOG_COLOR_GREEN_MASK = 32'h0000ff00;
  // 16-23: Blue (unsigned)
  localparam int FOG_COLOR_BLUE_LSB = 16;
  localparam int FOG_COLOR_BLUE_WIDTH = 8;
  localparam logic [31:0] FOG_COLOR_BLUE_MASK = 32'h00ff0000;

  // GPUREG_GAS_ATTENUATION (GasAttenuation): IDs 0x0E4
  // 0-15: Gas density attenuation (f16)
  localparam int GAS_ATTENUATION_ATTENUATION_LSB = 0;
  localparam int GAS_ATTENUATION_ATTENUATION_WIDTH = 16;
  localparam logic [31:0] GAS_ATTENUATION_ATTENUATION_MASK = 32'h0000ffff;

  // GPUREG_GAS_ACCMAX (GasAccmax): IDs 0x0E5
  // 0-15: Gas maximum density accumulation (f16)
  localparam int GAS_ACCMAX_MAX_ACCUMULATION_LSB = 0;
  localparam int GAS_ACCMAX_MAX_ACCUMULATION_WIDTH = 16;
  localparam logic [31:0] GAS_ACCMAX_MAX_ACCUMULATION_MASK = 32'h0000ffff;

  // GPUREG_FOG_LUT_INDEX (FogLutIndex): IDs 0x0E6
  // 0-15: Index (unsigned)
  localparam int FOG_LUT_INDEX_INDEX_LSB = 0;
  localparam int FOG_LUT_INDEX_INDEX_WIDTH = 16;
  localparam logic [31:0] FOG_LUT_INDEX_INDEX_MASK = 32'h0000ffff;

  // GPUREG_FOG_LUT_DATAi (FogLutData): IDs 0x0E8, 0x0E9, 0x0EA, 0x0EB, 0x0EC, 0x0ED, 0x0EE, 0x0EF
  // 0-23: LUT data (data)
  localparam int FOG_LUT_DATA_DATA_LSB = 0;
  localparam int FOG_LUT_DATA_DATA_WIDTH = 24;
  localparam logic [31:0] FOG_LUT_DATA_DATA_MASK = 32'h00ffffff;

  // LUT entry: Fog look-up table (FogLutEntry, 128 elements)
  // 0-12: Difference from next element (fixed1.1.11)
  localparam int FOG_LUT_ENTRY_DIFFERENCE_LSB = 0;
  localparam int FOG_LUT_ENTRY_DIFFERENCE_WIDTH = 13;
  localparam logic [31:0] FOG_LUT_ENTRY_DIFFERENCE_MASK = 32'h00001fff;
  // 13-23: Value (fixed0.0.11)
  localparam int FOG_LUT_ENTRY_VALUE_LSB = 13;
  localparam int FOG_LUT_ENTRY_VALUE_WIDTH = 11;
  localparam logic [31:0] FOG_LUT_ENTRY_VALUE_MASK = 32'h00ffe000;

  // GPUREG_TEXENV_BUFFER_COLOR (TexenvBufferColor): IDs 0x0FD
  // 0-7: Red (unsigned)
  localparam int TEXENV_BUFFER_COLOR_RED_LSB = 0;
  localparam int TEXENV_BUFFER_COLOR_RED_WIDTH = 8;
  localparam logic [31:0] TEXENV_BUFFER_COLOR_RED_MASK = 32'h000000ff;
  // 8-15: Green (unsigned)
  localparam int TEXENV_BUFFER_COLOR_GREEN_LSB = 8;
  localparam int TEXENV_BUFFER_COLOR_GREEN_WIDTH = 8;
  localparam logic [31:0] TEXENV_BUFFER_COLOR_GREEN_MASK = 32'h0000ff00;
  // 16-23: Blue (unsigned)
  localparam int TEXENV_BUFFER_COLOR_BLUE_LSB = 16;
  localparam int TEXENV_BUFFER_COLOR_BLUE_WIDTH = 8;
  localparam logic [31:0] TEXENV_BUFFER_COLOR_BLUE_MASK = 32'h00ff0000;
  // 24-31: Alpha (unsigned)
  localparam int TEXENV_BUFFER_COLOR_ALPHA_LSB = 24;
  localparam int TEXENV_BUFFER_COLOR_ALPHA_WIDTH = 8;
  localparam logic [31:0] TEXENV_BUFFER_COLOR_ALPHA_MASK = 32'hff000000;

  // GPUREG_COLOR_OPERATION (ColorOperation): IDs 0x100
  // 0-1: Fragment operation mode (enum ColorOperationFragmentMode)
  localparam int COLOR_OPERATION_FRAGMENT_MODE_LSB = 0;
  localparam int COLOR_OPERATION_FRAGMENT_MODE_WIDTH = 2;
  localparam logic [31:0] COLOR_OPERATION_FRAGMENT_MODE_MASK = 32'h00000003;
  // 8: Blend mode (enum ColorOperationBlendMode)
  localparam int COLOR_OPERATION_BLEND_MODE_LSB = 8;
  localparam int COLOR_OPERATION_BLEND_MODE_WIDTH = 1;
  localparam logic [31:0] COLOR_OPERATION_BLEND_MODE_MASK = 32'h00000100;
  // 16-25: Must be 0x0E4 (const 0xe4)
  localparam int COLOR_OPERATION_RESERVED_16_25_LSB = 16;
  localparam int COLOR_OPERATION_RESERVED_16_25_WIDTH = 10;
  localparam logic [31:0] COLOR_OPERATION_RESERVED_16_25_MASK = 32'h03ff0000;
  localparam logic [9:0] COLOR_OPERATION_RESERVED_16_25_VALUE = 10'he4;

  // GPUREG_BLEND_FUNC (BlendFunc): IDs 0x101
  // 0-2: RGB equation (enum BlendFuncEquation)
  localparam int BLEND_FUNC_RGB_EQUATION_LSB = 0;
  localparam int BLEND_FUNC_RGB_EQUATION_WIDTH = 3;
  localparam logic [31:0] BLEND_FUNC_RGB_EQUATION_MASK = 32'h00000007;
  // 8-10: Alpha equation (enum BlendFuncEquation)
  localparam int BLEND_FUNC_ALPHA_EQUATION_LSB = 8;
  localparam int BLEND_FUNC_ALPHA_EQUATION_WIDTH = 3;
  localparam logic [31:0] BLEND_FUNC_ALPHA_EQUATION_MASK = 32'h00000700;
  // 16-19: RGB source function (enum BlendFuncFactor)
  localparam int BLEND_FUNC_RGB_SRC_FUNC_LSB = 16;
  localparam int BLEND_FUNC_RGB_SRC_FUNC_WIDTH = 4;
  localparam logic [31:0] BLEND_FUNC_RGB_SRC_FUNC_MASK = 32'h000f0000;
  // 20-23: RGB destination function (enum BlendFuncFactor)
  localparam int BLEND_FUNC_RGB_DST_FUNC_LSB = 20;
  localparam int BLEND_FUNC_RGB_DST_FUNC_WIDTH = 4;
  localparam logic [31:0] BLEND_FUNC_RGB_DST_FUNC_MASK = 32'h00f00000;
  // 24-27: Alpha source function (enum BlendFuncFactor)
  localparam int BLEND_FUNC_ALPHA_SRC_FUNC_LSB = 24;
  localparam int BLEND_FUNC_ALPHA_SRC_FUNC_WIDTH = 4;
  localparam logic [31:0] BLEND_FUNC_ALPHA_SRC_FUNC_MASK = 32'h0f000000;
  // 28-31: Alpha destination function (enum BlendFuncFactor)
  localparam int BLEND_FUNC_ALPHA_DST_FUNC_LSB = 28;
  localparam int BLEND_FUNC_ALPHA_DST_FUNC_WIDTH = 4;
  localparam logic [31:0] BLEND_FUNC_ALPHA_DST_FUNC_MASK = 32'hf0000000;

  // GPUREG_LOGIC_OP (LogicOp): IDs 0x102
  // 0-3: Logic op (enum LogicOpOperation)
  localparam int LOGIC_OP_OP_LSB = 0;
  localparam int LOGIC_OP_OP_WIDTH = 4;
  localparam logic [31:0] LOGIC_OP_OP_MASK = 32'h0000000f;

  // GPUREG_BLEND_COLOR (BlendColor): IDs 0x103
  // 0-7: Red (unsigned)
  localparam int BLEND_COLOR_RED_LSB = 0;
  localparam int BLEND_COLOR_RED_WIDTH = 8;
  localparam logic [31:0] BLEND_COLOR_RED_MASK = 32'h000000ff;
  // 8-15: Green (unsigned)
  localparam int BLEND_COLOR_GREEN_LSB = 8;
  localparam int BLEND_COLOR_GREEN_WIDTH = 8;
  localparam logic [31:0] BLEND_COLOR_GREEN_MASK = 32'h0000ff00;
  // 16-23: Blue (unsigned)
  localparam int BLEND_COLOR_BLUE_LSB = 16;
  localparam int BLEND_COLOR_BLUE_WIDTH = 8;
  localparam logic [31:0] BLEND_COLOR_BLUE_MASK = 32'h00ff0000;
  // 24-31: Alpha (unsigned)
  localparam int BLEND_COLOR_ALPHA_LSB = 24;
  localparam int BLEND_COLOR_ALPHA_WIDTH = 8;
  localparam logic [31:0] BLEND_COLOR_ALPHA_MASK = 32'hff000000;

  // GPUREG_FRAGOP_ALPHA_TEST (FragopAlphaTest): IDs 0x104
  // 0: Enabled (0 = disabled, 1 = enabled) (bool)
  localparam int FRAGOP_ALPHA_TEST_ENABLED_LSB = 0;
  localparam int FRAGOP_ALPHA_TEST_ENABLED_WIDTH = 1;
  localparam logic [31:0] FRAGOP_ALPHA_TEST_ENABLED_MASK = 32'h00000001;
  // 4-6: Function (enum CompareFunction)
  localparam int FRAGOP_ALPHA_TEST_FUNCTION_LSB = 4;
  localparam int FRAGOP_ALPHA_TEST_FUNCTION_WIDTH = 3;
  localparam logic [31:0] FRAGOP_ALPHA_TEST_FUNCTION_MASK = 32'h00000070;
  // 8-15: Reference value (unsigned)
  localparam int FRAGOP_ALPHA_TEST_REFERENCE_LSB = 8;
  localparam int FRAGOP_ALPHA_TEST_REFERENCE_WIDTH = 8;
  localparam logic [31:0] FRAGOP_ALPHA_TEST_REFERENCE_MASK = 32'h0000ff00;

  // GPUREG_STENCIL_TEST (StencilTest): IDs 0x105
  // 0: Enabled (0 = disabled, 1 = enabled) (bool)
  localparam int STENCIL_TEST_ENABLED_LSB = 0;
  localparam int STENCIL_TEST_ENABLED_WIDTH = 1;
  localparam logic [31:0] STENCIL_TEST_ENABLED_MASK = 32'h00000001;
  // 4-6: Function (enum CompareFunction)
  localparam int STENCIL_TEST_FUNCTION_LSB = 4;
  localparam int STENCIL_TEST_FUNCTION_WIDTH = 3;
  localparam logic [31:0] STENCIL_TEST_FUNCTION_MASK = 32'h00000070;
  // 8-15: Buffer mask (unsigned)
  localparam int STENCIL_TEST_BUFFER_MASK_LSB = 8;
  localparam int STENCIL_TEST_BUFFER_MASK_WIDTH = 8;
  localparam logic [31:0] STENCIL_TEST_BUFFER_MASK_MASK = 32'h0000ff00;
  // 16-23: Reference value (signed)
  localparam int STENCIL_TEST_REFERENCE_LSB = 16;
  localparam int STENCIL_TEST_REFERENCE_WIDTH = 8;
  localparam logic [31:0] STENCIL_TEST_REFERENCE_MASK = 32'h00ff0000;
  // 24-31: Mask (unsigned)
  localparam int STENCIL_TEST_MASK_LSB = 24;
  localparam int STENCIL_TEST_MASK_WIDTH = 8;
  localparam logic [31:0] STENCIL_TEST_MASK_MASK = 32'hff000000;

  // GPUREG_STENCIL_OP (StencilOp): IDs 0x106
  // 0-2: Fail operation (enum StencilOpAction)
  localparam int STENCIL_OP_FAIL_OP_LSB = 0;
  localparam int STENCIL_OP_FAIL_OP_WIDTH = 3;
  localparam logic [31:0] STENCIL_OP_FAIL_OP_MASK = 32'h00000007;
  // 4-6: Z-fail operation (enum StencilOpAction)
  localparam int STENCIL_OP_ZFAIL_OP_LSB = 4;
  localparam int STENCIL_OP_ZFAIL_OP_WIDTH = 3;
  localparam logic [31:0] STENCIL_OP_ZFAIL_OP_MASK = 32'h00000070;
  // 8-10: Z-pass operation (enum StencilOpAction)
  localparam int STENCIL_OP_ZPASS_OP_LSB = 8;
  localparam int STENCIL_OP_ZPASS_OP_WIDTH = 3;
  localparam logic [31:0] STENCIL_OP_ZPASS_OP_MASK = 32'h00000700;

  // GPUREG_DEPTH_COLOR_MASK (DepthColorMask): IDs 0x107
  // 0: Depth test enabled (0 = disabled, 1 = enabled) (bool)
  localparam int DEPTH_COLOR_MASK_DEPTH_TEST_ENABLED_LSB = 0;
  localparam int DEPTH_COLOR_MASK_DEPTH_TEST_ENABLED_WIDTH = 1;
  localparam logic [31:0] DEPTH_COLOR_MASK_DEPTH_TEST_ENABLED_MASK = 32'h00000001;
  // 4-6: Depth function (enum CompareFunction)
  localparam int DEPTH_COLOR_MASK_DEPTH_FUNCTION_LSB = 4;
  localparam int DEPTH_COLOR_MASK_DEPTH_FUNCTION_WIDTH = 3;
  localparam logic [31:0] DEPTH_COLOR_MASK_DEPTH_FUNCTION_MASK = 32'h00000070;
  // 8: Red write enabled (0 = disabled, 1 = enabled) (bool)
  localparam int DEPTH_COLOR_MASK_RED_WRITE_ENABLED_LSB = 8;
  localparam int DEPTH_COLOR_MASK_RED_WRITE_ENABLED_WIDTH = 1;
  localparam logic [31:0] DEPTH_COLOR_MASK_RED_WRITE_ENABLED_MASK = 32'h00000100;
  // 9: Green write enabled (0 = disabled, 1 = enabled) (bool)
  localparam int DEPTH_COLOR_MASK_GREEN_WRITE_ENABLED_LSB = 9;
  localparam int DEPTH_COLOR_MASK_GREEN_WRITE_ENABLED_WIDTH = 1;
  localparam logic [31:0] DEPTH_COLOR_MASK_GREEN_WRITE_ENABLED_MASK = 32'h00000200;
  // 10: Blue write enabled (0 = disabled, 1 = enabled) (bool)
  localparam int DEPTH_COLOR_MASK_BLUE_WRITE_ENABLED_LSB = 10;
  localparam int DEPTH_COLOR_MASK_BLUE_WRITE_ENABLED_WIDTH = 1;
  localparam logic [31:0] DEPTH_COLOR_MASK_BLUE_WRITE_ENABLED_MASK = 32'h00000400;
  // 11: Alpha write enabled (0 = disabled, 1 = enabled) (bool)
  localparam int DEPTH_COLOR_MASK_ALPHA_WRITE_ENABLED_LSB = 11;
  localparam int DEPTH_COLOR_MASK_ALPHA_WRITE_ENABLED_WIDTH = 1;
  localparam logic [31:0] DEPTH_COLOR_MASK_ALPHA_WRITE_ENABLED_MASK = 32'h00000800;
  // 12: Depth write enabled (0 = disabled, 1 = enabled) (bool)
  localparam int DEPTH_COLOR_MASK_DEPTH_WRITE_ENABLED_LSB = 12;
  localparam int DEPTH_COLOR_MASK_DEPTH_WRITE_ENABLED_WIDTH = 1;
  localparam logic [31:0] DEPTH_COLOR_MASK_DEPTH_WRITE_ENABLED_MASK = 32'h00001000;

  // GPUREG_FRAMEBUFFER_INVALIDATE (FramebufferInvalidate): IDs 0x110
  // 0: Trigger (0 = idle, 1 = invalidate) (trigger)
  localparam int FRAMEBUFFER_INVALIDATE_TRIGGER_LSB = 0;
  localparam int FRAMEBUFFER_INVALIDATE_TRIGGER_WIDTH = 1;
  localparam logic [31:0] FRAMEBUFFER_INVALIDATE_TRIGGER_MASK = 32'h00000001;
  // 1-31: Must be 0x0 (const 0x0)
  localparam int FRAMEBUFFER_INVALIDATE_RESERVED_1_31_LSB = 1;
  localparam int FRAMEBUFFER_INVALIDATE_RESERVED_1_31_WIDTH = 31;
  localparam logic [31:0] FRAMEBUFFER_INVALIDATE_RESERVED_1_31_MASK = 32'hfffffffe;
  localparam logic [30:0] FRAMEBUFFER_INVALIDATE_RESERVED_1_31_VALUE = 31'h0;

  // GPUREG_FRAMEBUFFER_FLUSH (FramebufferFlush): IDs 0x111
  // 0: Trigger (0 = idle, 1 = flush) (trigger)
  localparam int FRAMEBUFFER_FLUSH_TRIGGER_LSB = 0;
  localparam int FRAMEBUFFER_FLUSH_TRIGGER_WIDTH = 1;
  localparam logic [31:0] FRAMEBUFFER_FLUSH_TRIGGER_MASK = 32'h00000001;
  // 1-31: Must be 0x0 (const 0x0)
  localparam int FRAMEBUFFER_FLUSH_RESERVED_1_31_LSB = 1;
  localparam int FRAMEBUFFER_FLUSH_RESERVED_1_31_WIDTH = 31;
  localparam logic [31:0] FRAMEBUFFER_FLUSH_RESERVED_1_31_MASK = 32'hfffffffe;
  localparam logic [30:0] FRAMEBUFFER_FLUSH_RESERVED_1_31_VALUE = 31'h0;

  // GPUREG_COLORBUFFER_READ (ColorbufferRead): IDs 0x112
  // 0-3: Allow read (0 = disable, 0xF = enable) (unsigned)
  localparam int COLORBUFFER_READ_ALLOW_READ_LSB = 0;
  localparam int COLORBUFFER_READ_ALLOW_READ_WIDTH = 4;
  localparam logic [31:0] COLORBUFFER_READ_ALLOW_READ_MASK = 32'h0000000f;

  // GPUREG_COLORBUFFER_WRITE (ColorbufferWrite): IDs 0x113
  // 0-3: Allow write (0 = disable, 0xF = enable) (unsigned)
  localparam int COLORBUFFER_WRITE_ALLOW_WRITE_LSB = 0;
  localparam int COLORBUFFER_WRITE_ALLOW_WRITE_WIDTH = 4;
  localparam logic [31:0] COLORBUFFER_WRITE_ALLOW_WRITE_MASK = 32'h0000000f;

  // GPUREG_DEPTHBUFFER_READ (DepthbufferRead): IDs 0x114
  // 0: Allow stencil read (0 = disable, 1 = enable) (bool)
  localparam int DEPTHBUFFER_READ_ALLOW_STENCIL_READ_LSB = 0;
  localparam int DEPTHBUFFER_READ_ALLOW_STENCIL_READ_WIDTH = 1;
  localparam logic [31:0] DEPTHBUFFER_READ_ALLOW_STENCIL_READ_MASK = 32'h00000001;
  // 1: Allow depth read (0 = disable, 1 = enable) (bool)
  localparam int DEPTHBUFFER_READ_ALLOW_DEPTH_READ_LSB = 1;
  localparam int DEPTHBUFFER_READ_ALLOW_DEPTH_READ_WIDTH = 1;
  localparam logic [31:0] DEPTHBUFFER_READ_ALLOW_DEPTH_READ_MASK = 32'h00000002;

  // GPUREG_DEPTHBUFFER_WRITE (DepthbufferWrite): IDs 0x115
  // 0: Allow stencil write (0 = disable, 1 = enable) (bool)
  localparam int DEPTHBUFFER_WRITE_ALLOW_STENCIL_WRITE_LSB = 0;
  localparam int DEPTHBUFFER_WRITE_ALLOW_STENCIL_WRITE_WIDTH = 1;
  localparam logic [31:0] DEPTHBUFFER_WRITE_ALLOW_STENCIL_WRITE_MASK = 32'h00000001;
  // 1: Allow depth write (0 = disable, 1 = enable) (bool)
  localparam int DEPTHBUFFER_WRITE_ALLOW_DEPTH_WRITE_LSB = 1;
  localparam int DEPTHBUFFER_WRITE_ALLOW_DEPTH_WRITE_WIDTH = 1;
  localparam logic [31:0] DEPTHBUFFER_WRITE_ALLOW_DEPTH_WRITE_MASK = 32'h00000002;

  // GPUREG_DEPTHBUFFER_FORMAT (DepthbufferFormat): IDs 0x116
  // 0-1: Format (enum DepthbufferFormatFormat)
  localparam int DEPTHBUFFER_FORMAT_FORMAT_LSB = 0;
  localparam int DEPTHBUFFER_FORMAT_FORMAT_WIDTH = 2;
  localparam logic [31:0] DEPTHBUFFER_FORMAT_FORMAT_MASK = 32'h00000003;

  // GPUREG_COLORBUFFER_FORMAT (ColorbufferFormat): IDs 0x117
  // 0-1: Pixel size (enum ColorbufferFormatPixelSize)
  localparam int COLORBUFFER_FORMAT_PIXEL_SIZE_LSB = 0;
  localparam int COLORBUFFER_FORMAT_PIXEL_SIZE_WIDTH = 2;
  localparam logic [31:0] COLORBUFFER_FORMAT_PIXEL_SIZE_MASK = 32'h00000003;
  // 16-18: Format (enum ColorbufferFormatFormat)
  localparam int COLORBUFFER_FORMAT_FORMAT_LSB = 16;
  localparam int COLORBUFFER_FORMAT_FORMAT_WIDTH = 3;
  localparam logic [31:0] COLORBUFFER_FORMAT_FORMAT_MASK = 32'h00070000;

  // GPUREG_EARLYDEPTH_TEST2 (EarlydepthTest2): IDs 0x118
  // 0: Enabled (0 = disabled, 1 = enabled) (bool)
  localparam int EARLYDEPTH_TEST2_ENABLED_LSB = 0;
  localparam int EARLYDEPTH_TEST2_ENABLED_WIDTH = 1;
  localparam logic [31:0] EARLYDEPTH_TEST2_ENABLED_MASK = 32'h00000001;

  // GPUREG_FRAMEBUFFER_BLOCK32 (FramebufferBlock32): IDs 0x11B
  // 0: Render block mode (enum FramebufferBlock32Mode)
  localparam int FRAMEBUFFER_BLOCK32_BLOCK_MODE_LSB = 0;
  localparam int FRAMEBUFFER_BLOCK32_BLOCK_MODE_WIDTH = 1;
  localparam logic [31:0] FRAMEBUFFER_BLOCK32_BLOCK_MODE_MASK = 32'h00000001;

  // GPUREG_DEPTHBUFFER_LOC (DepthbufferLoc): IDs 0x11C
  // 0-27: Depth buffer physical address >> 3 (unsigned)
  localparam int DEPTHBUFFER_LOC_ADDR_LSB = 0;
  localparam int DEPTHBUFFER_LOC_ADDR_WIDTH = 28;
  localparam logic [31:0] DEPTHBUFFER_LOC_ADDR_MASK = 32'h0fffffff;

  // GPUREG_COLORBUFFER_LOC (ColorbufferLoc): IDs 0x11D
  // 0-27: Color buffer physical address >> 3 (unsigned)
  localparam int COLORBUFFER_LOC_ADDR_LSB = 0;
  localparam int COLORBUFFER_LOC_ADDR_WIDTH = 28;
  localparam logic [31:0] COLORBUFFER_LOC_ADDR_MASK = 32'h0fffffff;

  // GPUREG_FRAMEBUFFER_DIM (FramebufferDim): IDs 0x11E
  // 0-10: Width (unsigned)
  localparam int FRAMEBUFFER_DIM_WIDTH_LSB = 0;
  localparam int FRAMEBUFFER_DIM_WIDTH_WIDTH = 11;
  localparam logic [31:0] FRAMEBUFFER_DIM_WIDTH_MASK = 32'h000007ff;
  // 12-21: Height - 1 (unsigned)
  localparam int FRAMEBUFFER_DIM_HEIGHT_MINUS_1_LSB = 12;
  localparam int FRAMEBUFFER_DIM_HEIGHT_MINUS_1_WIDTH = 10;
  localparam logic [31:0] FRAMEBUFFER_DIM_HEIGHT_MINUS_1_MASK = 32'h003ff000;
  // 24: Must be 0x1 (const 0x1)
  localparam int FRAMEBUFFER_DIM_RESERVED_24_LSB = 24;
  localparam int FRAMEBUFFER_DIM_RESERVED_24_WIDTH = 1;
  localparam logic [31:0] FRAMEBUFFER_DIM_RESERVED_24_MASK = 32'h01000000;
  localparam logic [0:0] FRAMEBUFFER_DIM_RESERVED_24_VALUE = 1'h1;

  // GPUREG_GAS_LIGHT_XY (GasLightXy): IDs 0x120
  // 0-7: Planar shading minimum intensity (unsigned)
  localparam int GAS_LIGHT_XY_PLANAR_MIN_INTENSITY_LSB = 0;
  localparam int GAS_LIGHT_XY_PLANAR_MIN_INTENSITY_WIDTH = 8;
  localparam logic [31:0] GAS_LIGHT_XY_PLANAR_MIN_INTENSITY_MASK = 32'h000000ff;
  // 8-15: Planar shading maximum intensity (unsigned)
  localparam int GAS_LIGHT_XY_PLANAR_MAX_INTENSITY_LSB = 8;
  localparam int GAS_LIGHT_XY_PLANAR_MAX_INTENSITY_WIDTH = 8;
  localparam logic [31:0] GAS_LIGHT_XY_PLANAR_MAX_INTENSITY_MASK = 32'h0000ff00;
  // 16-23: Planar shading density attenuation (unsigned)
  localparam int GAS_LIGHT_XY_PLANAR_DENSITY_ATTENUATION_LSB = 16;
  localparam int GAS_LIGHT_XY_PLANAR_DENSITY_ATTENUATION_WIDTH = 8;
  localparam logic [31:0] GAS_LIGHT_XY_PLANAR_DENSITY_ATTENUATION_MASK = 32'h00ff0000;

  // GPUREG_GAS_LIGHT_Z (GasLightZ): IDs 0x121
  // 0-7: View shading minimum intensity (unsigned)
  localparam int GAS_LIGHT_Z_VIEW_MIN_INTENSITY_LSB = 0;
  localparam int GAS_LIGHT_Z_VIEW_MIN_INTENSITY_WIDTH = 8;
  localparam logic [31:0] GAS_LIGHT_Z_VIEW_MIN_INTENSITY_MASK = 32'h000000ff;
  // 8-15: View shading maximum intensity (unsigned)
  localparam int GAS_LIGHT_Z_VIEW_MAX_INTENSITY_LSB = 8;
  localparam int GAS_LIGHT_Z_VIEW_MAX_INTENSITY_WIDTH = 8;
  localparam logic [31:0] GAS_LIGHT_Z_VIEW_MAX_INTENSITY_MASK = 32'h0000ff00;
  // 16-23: View shading density attenuation (unsigned)
  localparam int GAS_LIGHT_Z_VIEW_DENSITY_ATTENUATION_LSB = 16;
  localparam int GAS_LIGHT_Z_VIEW_DENSITY_ATTENUATION_WIDTH = 8;
  localparam logic [31:0] GAS_LIGHT_Z_VIEW_DENSITY_ATTENUATION_MASK = 32'h00ff0000;

  // GPUREG_GAS_LIGHT_Z_COLOR (GasLightZColor): IDs 0x122
  // 0-7: View shading effect in line-of-sight direction (unsigned)
  localparam int GAS_LIGHT_Z_COLOR_LINE_OF_SIGHT_EFFECT_LSB = 0;
  localparam int GAS_LIGHT_Z_COLOR_LINE_OF_SIGHT_EFFECT_WIDTH = 8;
  localparam logic [31:0] GAS_LIGHT_Z_COLOR_LINE_OF_SIGHT_EFFECT_MASK = 32'h000000ff;
  // 8: Gas color LUT input (enum GasLightZColorLutInput)
  localparam int GAS_LIGHT_Z_COLOR_COLOR_LUT_INPUT_LSB = 8;
  localparam int GAS_LIGHT_Z_COLOR_COLOR_LUT_INPUT_WIDTH = 1;
  localparam logic [31:0] GAS_LIGHT_Z_COLOR_COLOR_LUT_INPUT_MASK = 32'h00000100;

  // GPUREG_GAS_LUT_INDEX (GasLutIndex): IDs 0x123
  // 0-15: Index (unsigned)
  localparam int GAS_LUT_INDEX_INDEX_LSB = 0;
  localparam int GAS_LUT_INDEX_INDEX_WIDTH = 16;
  localparam logic [31:0] GAS_LUT_INDEX_INDEX_MASK = 32'h0000ffff;

  // GPUREG_GAS_LUT_DATA (GasLutData): IDs 0x124
  // 0-31: LUT data (data)
  localparam int GAS_LUT_DATA_DATA_LSB = 0;
  localparam int GAS_LUT_DATA_DATA_WIDTH = 32;
  localparam logic [31:0] GAS_LUT_DATA_DATA_MASK = 32'hffffffff;

  // LUT entry: Gas look-up table, first 8 elements (GasLutFirstEntry, 8 elements)
  // 0-6: Red difference magnitude (1/127 of full scale; UNVERIFIED(hw), see the entry) (unsigned)
  localparam int GAS_LUT_FIRST_ENTRY_RED_MAGNITUDE_LSB = 0;
  localparam int GAS_LUT_FIRST_ENTRY_RED_MAGNITUDE_WIDTH = 7;
  localparam logic [31:0] GAS_LUT_FIRST_ENTRY_RED_MAGNITUDE_MASK = 32'h0000007f;
  // 7: Red difference sign: 1 = negative (UNVERIFIED(hw), see the entry) (bool)
  localparam int GAS_LUT_FIRST_ENTRY_RED_NEGATIVE_LSB = 7;
  localparam int GAS_LUT_FIRST_ENTRY_RED_NEGATIVE_WIDTH = 1;
  localparam logic [31:0] GAS_LUT_FIRST_ENTRY_RED_NEGATIVE_MASK = 32'h00000080;
  // 8-14: Green difference magnitude (1/127 of full scale; UNVERIFIED(hw), see the entry) (unsigned)
  localparam int GAS_LUT_FIRST_ENTRY_GREEN_MAGNITUDE_LSB = 8;
  localparam int GAS_LUT_FIRST_ENTRY_GREEN_MAGNITUDE_WIDTH = 7;
  localparam logic [31:0] GAS_LUT_FIRST_ENTRY_GREEN_MAGNITUDE_MASK = 32'h00007f00;
  // 15: Green difference sign: 1 = negative (UNVERIFIED(hw), see the entry) (bool)
  localparam int GAS_LUT_FIRST_ENTRY_GREEN_NEGATIVE_LSB = 15;
  localparam int GAS_LUT_FIRST_ENTRY_GREEN_NEGATIVE_WIDTH = 1;
  localparam logic [31:0] GAS_LUT_FIRST_ENTRY_GREEN_NEGATIVE_MASK = 32'h00008000;
  // 16-22: Blue difference magnitude (1/127 of full scale; UNVERIFIED(hw), see the entry) (unsigned)
  localparam int GAS_LUT_FIRST_ENTRY_BLUE_MAGNITUDE_LSB = 16;
  localparam int GAS_LUT_FIRST_ENTRY_BLUE_MAGNITUDE_WIDTH = 7;
  localparam logic [31:0] GAS_LUT_FIRST_ENTRY_BLUE_MAGNITUDE_MASK = 32'h007f0000;
  // 23: Blue difference sign: 1 = negative (UNVERIFIED(hw), see the entry) (bool)
  localparam int GAS_LUT_FIRST_ENTRY_BLUE_NEGATIVE_LSB = 23;
  localparam int GAS_LUT_FIRST_ENTRY_BLUE_NEGATIVE_WIDTH = 1;
  localparam logic [31:0] GAS_LUT_FIRST_ENTRY_BLUE_NEGATIVE_MASK = 32'h00800000;

  // LUT entry: Gas look-up table, last 8 elements (GasLutLastEntry, 8 elements)
  // 0-7: Red (unsigned)
  localparam int GAS_LUT_LAST_ENTRY_RED_LSB = 0;
  localparam int GAS_LUT_LAST_ENTRY_RED_WIDTH = 8;
  localparam logic [31:0] GAS_LUT_LAST_ENTRY_RED_MASK = 32'h000000ff;
  // 8-15: Green (unsigned)
  localparam int GAS_LUT_LAST_ENTRY_GREEN_LSB = 8;
  localparam int GAS_LUT_LAST_ENTRY_GREEN_WIDTH = 8;
  localparam logic [31:0] GAS_LUT_LAST_ENTRY_GREEN_MASK = 32'h0000ff00;
  // 16-23: Blue (unsigned)
  localparam int GAS_LUT_LAST_ENTRY_BLUE_LSB = 16;
  localparam int GAS_LUT_LAST_ENTRY_BLUE_WIDTH = 8;
  localparam logic [31:0] GAS_LUT_LAST_ENTRY_BLUE_MASK = 32'h00ff0000;

  // GPUREG_GAS_DELTAZ_DEPTH (GasDeltazDepth): IDs 0x126
  // 0-23: Depth direction attenuation proportion (fixed0.16.8)
  localparam int GAS_DELTAZ_DEPTH_DEPTH_ATTENUATION_LSB = 0;
  localparam int GAS_DELTAZ_DEPTH_DEPTH_ATTENUATION_WIDTH = 24;
  localparam logic [31:0] GAS_DELTAZ_DEPTH_DEPTH_ATTENUATION_MASK = 32'h00ffffff;
  // 24-25: Depth function. UNVERIFIED(hw): the model uses it as the weight of the depth density, not as a test that discards (never 0, always 1, greater 1 - X, less X, with X the depth weight; see pica_model::fop::gas); libctru GPU_GASDEPTHFUNC annotates the values (0), (1), (1-X), (X), and citro3d C3Di_EffectBind rewrites the field from the depth-test function (GPU_MAKEGASDEPTHFUNC: ALWAYS gives never) (enum GasDeltazDepthFunction)
  localparam int GAS_DELTAZ_DEPTH_DEPTH_FUNCTION_LSB = 24;
  localparam int GAS_DELTAZ_DEPTH_DEPTH_FUNCTION_WIDTH = 2;
  localparam logic [31:0] GAS_DELTAZ_DEPTH_DEPTH_FUNCTION_MASK = 32'h03000000;

  // GPUREG_FRAGOP_SHADOW (FragopShadow): IDs 0x130
  // 0-15: Sum of penumbra scale and penumbra bias (f16)
  localparam int FRAGOP_SHADOW_PENUMBRA_SCALE_PLUS_BIAS_LSB = 0;
  localparam int FRAGOP_SHADOW_PENUMBRA_SCALE_PLUS_BIAS_WIDTH = 16;
  localparam logic [31:0] FRAGOP_SHADOW_PENUMBRA_SCALE_PLUS_BIAS_MASK = 32'h0000ffff;
  // 16-31: Penumbra scale with reversed sign (f16)
  localparam int FRAGOP_SHADOW_NEG_PENUMBRA_SCALE_LSB = 16;
  localparam int FRAGOP_SHADOW_NEG_PENUMBRA_SCALE_WIDTH = 16;
  localparam logic [31:0] FRAGOP_SHADOW_NEG_PENUMBRA_SCALE_MASK = 32'hffff0000;

  // GPUREG_LIGHTi_SPECULAR0 (LightSpecular0): IDs 0x140, 0x150, 0x160, 0x170, 0x180, 0x190, 0x1A0, 0x1B0
  // 0-9: Blue (unsigned)
  localparam int LIGHT_SPECULAR0_BLUE_LSB = 0;
  localparam int LIGHT_SPECULAR0_BLUE_WIDTH = 10;
  localparam logic [31:0] LIGHT_SPECULAR0_BLUE_MASK = 32'h000003ff;
  // 10-19: Green (unsigned)
  localparam int LIGHT_SPECULAR0_GREEN_LSB = 10;
  localparam int LIGHT_SPECULAR0_GREEN_WIDTH = 10;
  localparam logic [31:0] LIGHT_SPECULAR0_GREEN_MASK = 32'h000ffc00;
  // 20-29: Red (unsigned)
  localparam int LIGHT_SPECULAR0_RED_LSB = 20;
  localparam int LIGHT_SPECULAR0_RED_WIDTH = 10;
  localparam logic [31:0] LIGHT_SPECULAR0_RED_MASK = 32'h3ff00000;

  // GPUREG_LIGHTi_SPECULAR1 (LightSpecular1): IDs 0x141, 0x151, 0x161, 0x171, 0x181, 0x191, 0x1A1, 0x1B1
  // 0-9: Blue (unsigned)
  localparam int LIGHT_SPECULAR1_BLUE_LSB = 0;
  localparam int LIGHT_SPECULAR1_BLUE_WIDTH = 10;
  localparam logic [31:0] LIGHT_SPECULAR1_BLUE_MASK = 32'h000003ff;
  // 10-19: Green (unsigned)
  localparam int LIGHT_SPECULAR1_GREEN_LSB = 10;
  localparam int LIGHT_SPECULAR1_GREEN_WIDTH = 10;
  localparam logic [31:0] LIGHT_SPECULAR1_GREEN_MASK = 32'h000ffc00;
  // 20-29: Red (unsigned)
  localparam int LIGHT_SPECULAR1_RED_LSB = 20;
  localparam int LIGHT_SPECULAR1_RED_WIDTH = 10;
  localparam logic [31:0] LIGHT_SPECULAR1_RED_MASK = 32'h3ff00000;

  // GPUREG_LIGHTi_DIFFUSE (LightDiffuse): IDs 0x142, 0x152, 0x162, 0x172, 0x182, 0x192, 0x1A2, 0x1B2
  // 0-9: Blue (unsigned)
  localparam int LIGHT_DIFFUSE_BLUE_LSB = 0;
  localparam int LIGHT_DIFFUSE_BLUE_WIDTH = 10;
  localparam logic [31:0] LIGHT_DIFFUSE_BLUE_MASK = 32'h000003ff;
  // 10-19: Green (unsigned)
  localparam int LIGHT_DIFFUSE_GREEN_LSB = 10;
  localparam int LIGHT_DIFFUSE_GREEN_WIDTH = 10;
  localparam logic [31:0] LIGHT_DIFFUSE_GREEN_MASK = 32'h000ffc00;
  // 20-29: Red (unsigned)
  localparam int LIGHT_DIFFUSE_RED_LSB = 20;
  localparam int LIGHT_DIFFUSE_RED_WIDTH = 10;
  localparam logic [31:0] LIGHT_DIFFUSE_RED_MASK = 32'h3ff00000;

  // GPUREG_LIGHTi_AMBIENT (LightAmbient): IDs 0x143, 0x153, 0x163, 0x173, 0x183, 0x193, 0x1A3, 0x1B3
  // 0-9: Blue (unsigned)
  localparam int LIGHT_AMBIENT_BLUE_LSB = 0;
  localparam int LIGHT_AMBIENT_BLUE_WIDTH = 10;
  localparam logic [31:0] LIGHT_AMBIENT_BLUE_MASK = 32'h000003ff;
  // 10-19: Green (unsigned)
  localparam int LIGHT_AMBIENT_GREEN_LSB = 10;
  localparam int LIGHT_AMBIENT_GREEN_WIDTH = 10;
  localparam logic [31:0] LIGHT_AMBIENT_GREEN_MASK = 32'h000ffc00;
  // 20-29: Red (unsigned)
  localparam int LIGHT_AMBIENT_RED_LSB = 20;
  localparam int LIGHT_AMBIENT_RED_WIDTH = 10;
  localparam logic [31:0] LIGHT_AMBIENT_RED_MASK = 32'h3ff00000;

  // GPUREG_LIGHTi_XY (LightXy): IDs 0x144, 0x154, 0x164, 0x174, 0x184, 0x194, 0x1A4, 0x1B4
  // 0-15: X coordinate (f16)
  localparam int LIGHT_XY_X_LSB = 0;
  localparam int LIGHT_XY_X_WIDTH = 16;
  localparam logic [31:0] LIGHT_XY_X_MASK = 32'h0000ffff;
  // 16-31: Y coordinate (f16)
  localparam int LIGHT_XY_Y_LSB = 16;
  localparam int LIGHT_XY_Y_WIDTH = 16;
  localparam logic [31:0] LIGHT_XY_Y_MASK = 32'hffff0000;

  // GPUREG_LIGHTi_Z (LightZ): IDs 0x145, 0x155, 0x165, 0x175, 0x185, 0x195, 0x1A5, 0x1B5
  // 0-15: Z coordinate (f16)
  localparam int LIGHT_Z_Z_LSB = 0;
  localparam int LIGHT_Z_Z_WIDTH = 16;
  localparam logic [31:0] LIGHT_Z_Z_MASK = 32'h0000ffff;

  // GPUREG_LIGHTi_SPOTDIR_XY (LightSpotdirXy): IDs 0x146, 0x156, 0x166, 0x176, 0x186, 0x196, 0x1A6, 0x1B6
  // 0-12: X coordinate (negated) (fixed1.1.11)
  localparam int LIGHT_SPOTDIR_XY_X_LSB = 0;
  localparam int LIGHT_SPOTDIR_XY_X_WIDTH = 13;
  localparam logic [31:0] LIGHT_SPOTDIR_XY_X_MASK = 32'h00001fff;
  // 16-28: Y coordinate (negated) (fixed1.1.11)
  localparam int LIGHT_SPOTDIR_XY_Y_LSB = 16;
  localparam int LIGHT_SPOTDIR_XY_Y_WIDTH = 13;
  localparam logic [31:0] LIGHT_SPOTDIR_XY_Y_MASK = 32'h1fff0000;

  // GPUREG_LIGHTi_SPOTDIR_Z (LightSpotdirZ): IDs 0x147, 0x157, 0x167, 0x177, 0x187, 0x197, 0x1A7, 0x1B7
  // 0-12: Z coordinate (negated) (fixed1.1.11)
  localparam int LIGHT_SPOTDIR_Z_Z_LSB = 0;
  localparam int LIGHT_SPOTDIR_Z_Z_WIDTH = 13;
  localparam logic [31:0] LIGHT_SPOTDIR_Z_Z_MASK = 32'h00001fff;

  // GPUREG_LIGHTi_CONFIG (LightConfig): IDs 0x149, 0x159, 0x169, 0x179, 0x189, 0x199, 0x1A9, 0x1B9
  // 0: Light type (0 = positional light, 1 = directional light) (enum LightConfigType)
  localparam int LIGHT_CONFIG_LIGHT_TYPE_LSB = 0;
  localparam int LIGHT_CONFIG_LIGHT_TYPE_WIDTH = 1;
  localparam logic [31:0] LIGHT_CONFIG_LIGHT_TYPE_MASK = 32'h00000001;
  // 1: Two side diffuse (0 = one side, 1 = both sides) (bool)
  localparam int LIGHT_CONFIG_TWO_SIDE_DIFFUSE_LSB = 1;
  localparam int LIGHT_CONFIG_TWO_SIDE_DIFFUSE_WIDTH = 1;
  localparam logic [31:0] LIGHT_CONFIG_TWO_SIDE_DIFFUSE_MASK = 32'h00000002;
  // 2: Use geometric factor 0 (0 = don't use, 1 = use) (bool)
  localparam int LIGHT_CONFIG_USE_GEOMETRIC_FACTOR0_LSB = 2;
  localparam int LIGHT_CONFIG_USE_GEOMETRIC_FACTOR0_WIDTH = 1;
  localparam logic [31:0] LIGHT_CONFIG_USE_GEOMETRIC_FACTOR0_MASK = 32'h00000004;
  // 3: Use geometric factor 1 (0 = don't use, 1 = use) (bool)
  localparam int LIGHT_CONFIG_USE_GEOMETRIC_FACTOR1_LSB = 3;
  localparam int LIGHT_CONFIG_USE_GEOMETRIC_FACTOR1_WIDTH = 1;
  localparam logic [31:0] LIGHT_CONFIG_USE_GEOMETRIC_FACTOR1_MASK = 32'h00000008;

  // GPUREG_LIGHTi_ATTENUATION_BIAS (LightAttenuationBias): IDs 0x14A, 0x15A, 0x16A, 0x17A, 0x18A, 0x19A, 0x1AA, 0x1BA
  // 0-19: Distance attenuation bias (f20)
  localparam int LIGHT_ATTENUATION_BIAS_BIAS_LSB = 0;
  localparam int LIGHT_ATTENUATION_BIAS_BIAS_WIDTH = 20;
  localparam logic [31:0] LIGHT_ATTENUATION_BIAS_BIAS_MASK = 32'h000fffff;

  // GPUREG_LIGHTi_ATTENUATION_SCALE (LightAttenuationScale): IDs 0x14B, 0x15B, 0x16B, 0x17B, 0x18B, 0x19B, 0x1AB, 0x1BB
  // 0-19: Distance attenuation scale (f20)
  localparam int LIGHT_ATTENUATION_SCALE_SCALE_LSB = 0;
  localparam int LIGHT_ATTENUATION_SCALE_SCALE_WIDTH = 20;
  localparam logic [31:0] LIGHT_ATTENUATION_SCALE_SCALE_MASK = 32'h000fffff;

  // GPUREG_LIGHTING_AMBIENT (LightingAmbient): IDs 0x1C0
  // 0-9: Blue (unsigned)
  localparam int LIGHTING_AMBIENT_BLUE_LSB = 0;
  localparam int LIGHTING_AMBIENT_BLUE_WIDTH = 10;
  localparam logic [31:0] LIGHTING_AMBIENT_BLUE_MASK = 32'h000003ff;
  // 10-19: Green (unsigned)
  localparam int LIGHTING_AMBIENT_GREEN_LSB = 10;
  localparam int LIGHTING_AMBIENT_GREEN_WIDTH = 10;
  localparam logic [31:0] LIGHTING_AMBIENT_GREEN_MASK = 32'h000ffc00;
  // 20-29: Red (unsigned)
  localparam int LIGHTING_AMBIENT_RED_LSB = 20;
  localparam int LIGHTING_AMBIENT_RED_WIDTH = 10;
  localparam logic [31:0] LIGHTING_AMBIENT_RED_MASK = 32'h3ff00000;

  // GPUREG_LIGHTING_NUM_LIGHTS (LightingNumLights): IDs 0x1C2
  // 0-2: Number of active lights - 1 (unsigned)
  localparam int LIGHTING_NUM_LIGHTS_NUM_LIGHTS_MINUS_1_LSB = 0;
  localparam int LIGHTING_NUM_LIGHTS_NUM_LIGHTS_MINUS_1_WIDTH = 3;
  localparam logic [31:0] LIGHTING_NUM_LIGHTS_NUM_LIGHTS_MINUS_1_MASK = 32'h00000007;

  // GPUREG_LIGHTING_CONFIG0 (LightingConfig0): IDs 0x1C3
  // 0: Shadow factor enabled (0 = disabled, 1 = enabled) (usually accompanied by bit 16, 17, or 18) (bool)
  localparam int LIGHTING_CONFIG0_SHADOW_FACTOR_ENABLED_LSB = 0;
  localparam int LIGHTING_CONFIG0_SHADOW_FACTOR_ENABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG0_SHADOW_FACTOR_ENABLED_MASK = 32'h00000001;
  // 2-3: Fresnel selector (enum LightingConfig0FresnelSelector)
  localparam int LIGHTING_CONFIG0_FRESNEL_SELECTOR_LSB = 2;
  localparam int LIGHTING_CONFIG0_FRESNEL_SELECTOR_WIDTH = 2;
  localparam logic [31:0] LIGHTING_CONFIG0_FRESNEL_SELECTOR_MASK = 32'h0000000c;
  // 4-7: Light environment configuration (enum LightingConfig0LightEnv)
  localparam int LIGHTING_CONFIG0_LIGHT_ENV_CONFIG_LSB = 4;
  localparam int LIGHTING_CONFIG0_LIGHT_ENV_CONFIG_WIDTH = 4;
  localparam logic [31:0] LIGHTING_CONFIG0_LIGHT_ENV_CONFIG_MASK = 32'h000000f0;
  // 8-11: Must be 0x4 (const 0x4)
  localparam int LIGHTING_CONFIG0_RESERVED_8_11_LSB = 8;
  localparam int LIGHTING_CONFIG0_RESERVED_8_11_WIDTH = 4;
  localparam logic [31:0] LIGHTING_CONFIG0_RESERVED_8_11_MASK = 32'h00000f00;
  localparam logic [3:0] LIGHTING_CONFIG0_RESERVED_8_11_VALUE = 4'h4;
  // 16: Apply shadow attenuation to primary color (0 = don't apply, 1 = apply) (bool)
  localparam int LIGHTING_CONFIG0_SHADOW_PRIMARY_LSB = 16;
  localparam int LIGHTING_CONFIG0_SHADOW_PRIMARY_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG0_SHADOW_PRIMARY_MASK = 32'h00010000;
  // 17: Apply shadow attenuation to secondary color (0 = don't apply, 1 = apply) (bool)
  localparam int LIGHTING_CONFIG0_SHADOW_SECONDARY_LSB = 17;
  localparam int LIGHTING_CONFIG0_SHADOW_SECONDARY_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG0_SHADOW_SECONDARY_MASK = 32'h00020000;
  // 18: Invert shadow attenuation (0 = don't invert, 1 = invert) (bool)
  localparam int LIGHTING_CONFIG0_SHADOW_INVERT_LSB = 18;
  localparam int LIGHTING_CONFIG0_SHADOW_INVERT_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG0_SHADOW_INVERT_MASK = 32'h00040000;
  // 19: Apply shadow attenuation to alpha component (0 = don't apply, 1 = apply) (bool)
  localparam int LIGHTING_CONFIG0_SHADOW_ALPHA_LSB = 19;
  localparam int LIGHTING_CONFIG0_SHADOW_ALPHA_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG0_SHADOW_ALPHA_MASK = 32'h00080000;
  // 22-23: Bump map texture unit (unsigned)
  localparam int LIGHTING_CONFIG0_BUMP_MAP_UNIT_LSB = 22;
  localparam int LIGHTING_CONFIG0_BUMP_MAP_UNIT_WIDTH = 2;
  localparam logic [31:0] LIGHTING_CONFIG0_BUMP_MAP_UNIT_MASK = 32'h00c00000;
  // 24-25: Shadow map texture unit (unsigned)
  localparam int LIGHTING_CONFIG0_SHADOW_MAP_UNIT_LSB = 24;
  localparam int LIGHTING_CONFIG0_SHADOW_MAP_UNIT_WIDTH = 2;
  localparam logic [31:0] LIGHTING_CONFIG0_SHADOW_MAP_UNIT_MASK = 32'h03000000;
  // 27: Clamp highlights (0 = disabled, 1 = enabled) (bool)
  localparam int LIGHTING_CONFIG0_CLAMP_HIGHLIGHTS_LSB = 27;
  localparam int LIGHTING_CONFIG0_CLAMP_HIGHLIGHTS_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG0_CLAMP_HIGHLIGHTS_MASK = 32'h08000000;
  // 28-29: Bump mode (enum LightingConfig0BumpMode)
  localparam int LIGHTING_CONFIG0_BUMP_MODE_LSB = 28;
  localparam int LIGHTING_CONFIG0_BUMP_MODE_WIDTH = 2;
  localparam logic [31:0] LIGHTING_CONFIG0_BUMP_MODE_MASK = 32'h30000000;
  // 30: Recalculate bump vectors (0 = enabled, 1 = disabled) (usually set to 1 when bump mode is not 0) (bool)
  localparam int LIGHTING_CONFIG0_BUMP_RECALC_DISABLED_LSB = 30;
  localparam int LIGHTING_CONFIG0_BUMP_RECALC_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG0_BUMP_RECALC_DISABLED_MASK = 32'h40000000;
  // 31: Must be 0x1 (const 0x1)
  localparam int LIGHTING_CONFIG0_RESERVED_31_LSB = 31;
  localparam int LIGHTING_CONFIG0_RESERVED_31_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG0_RESERVED_31_MASK = 32'h80000000;
  localparam logic [0:0] LIGHTING_CONFIG0_RESERVED_31_VALUE = 1'h1;

  // GPUREG_LIGHTING_CONFIG1 (LightingConfig1): IDs 0x1C4
  // 0: Fragment light source 0 shadows disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT0_SHADOW_DISABLED_LSB = 0;
  localparam int LIGHTING_CONFIG1_LIGHT0_SHADOW_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT0_SHADOW_DISABLED_MASK = 32'h00000001;
  // 1: Fragment light source 1 shadows disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT1_SHADOW_DISABLED_LSB = 1;
  localparam int LIGHTING_CONFIG1_LIGHT1_SHADOW_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT1_SHADOW_DISABLED_MASK = 32'h00000002;
  // 2: Fragment light source 2 shadows disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT2_SHADOW_DISABLED_LSB = 2;
  localparam int LIGHTING_CONFIG1_LIGHT2_SHADOW_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT2_SHADOW_DISABLED_MASK = 32'h00000004;
  // 3: Fragment light source 3 shadows disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT3_SHADOW_DISABLED_LSB = 3;
  localparam int LIGHTING_CONFIG1_LIGHT3_SHADOW_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT3_SHADOW_DISABLED_MASK = 32'h00000008;
  // 4: Fragment light source 4 shadows disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT4_SHADOW_DISABLED_LSB = 4;
  localparam int LIGHTING_CONFIG1_LIGHT4_SHADOW_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT4_SHADOW_DISABLED_MASK = 32'h00000010;
  // 5: Fragment light source 5 shadows disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT5_SHADOW_DISABLED_LSB = 5;
  localparam int LIGHTING_CONFIG1_LIGHT5_SHADOW_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT5_SHADOW_DISABLED_MASK = 32'h00000020;
  // 6: Fragment light source 6 shadows disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT6_SHADOW_DISABLED_LSB = 6;
  localparam int LIGHTING_CONFIG1_LIGHT6_SHADOW_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT6_SHADOW_DISABLED_MASK = 32'h00000040;
  // 7: Fragment light source 7 shadows disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT7_SHADOW_DISABLED_LSB = 7;
  localparam int LIGHTING_CONFIG1_LIGHT7_SHADOW_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT7_SHADOW_DISABLED_MASK = 32'h00000080;
  // 8: Fragment light source 0 spot light disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT0_SPOT_DISABLED_LSB = 8;
  localparam int LIGHTING_CONFIG1_LIGHT0_SPOT_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT0_SPOT_DISABLED_MASK = 32'h00000100;
  // 9: Fragment light source 1 spot light disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT1_SPOT_DISABLED_LSB = 9;
  localparam int LIGHTING_CONFIG1_LIGHT1_SPOT_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT1_SPOT_DISABLED_MASK = 32'h00000200;
  // 10: Fragment light source 2 spot light disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT2_SPOT_DISABLED_LSB = 10;
  localparam int LIGHTING_CONFIG1_LIGHT2_SPOT_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT2_SPOT_DISABLED_MASK = 32'h00000400;
  // 11: Fragment light source 3 spot light disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT3_SPOT_DISABLED_LSB = 11;
  localparam int LIGHTING_CONFIG1_LIGHT3_SPOT_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT3_SPOT_DISABLED_MASK = 32'h00000800;
  // 12: Fragment light source 4 spot light disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT4_SPOT_DISABLED_LSB = 12;
  localparam int LIGHTING_CONFIG1_LIGHT4_SPOT_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT4_SPOT_DISABLED_MASK = 32'h00001000;
  // 13: Fragment light source 5 spot light disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT5_SPOT_DISABLED_LSB = 13;
  localparam int LIGHTING_CONFIG1_LIGHT5_SPOT_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT5_SPOT_DISABLED_MASK = 32'h00002000;
  // 14: Fragment light source 6 spot light disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT6_SPOT_DISABLED_LSB = 14;
  localparam int LIGHTING_CONFIG1_LIGHT6_SPOT_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT6_SPOT_DISABLED_MASK = 32'h00004000;
  // 15: Fragment light source 7 spot light disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT7_SPOT_DISABLED_LSB = 15;
  localparam int LIGHTING_CONFIG1_LIGHT7_SPOT_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT7_SPOT_DISABLED_MASK = 32'h00008000;
  // 16: Term 0 distribution component D0 LUT disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_D0_LUT_DISABLED_LSB = 16;
  localparam int LIGHTING_CONFIG1_D0_LUT_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_D0_LUT_DISABLED_MASK = 32'h00010000;
  // 17: Term 1 distribution component D1 LUT disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_D1_LUT_DISABLED_LSB = 17;
  localparam int LIGHTING_CONFIG1_D1_LUT_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_D1_LUT_DISABLED_MASK = 32'h00020000;
  // 18: Must be 0x1 (const 0x1)
  localparam int LIGHTING_CONFIG1_RESERVED_18_LSB = 18;
  localparam int LIGHTING_CONFIG1_RESERVED_18_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_RESERVED_18_MASK = 32'h00040000;
  localparam logic [0:0] LIGHTING_CONFIG1_RESERVED_18_VALUE = 1'h1;
  // 19: Fresnel FR LUT disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_FR_LUT_DISABLED_LSB = 19;
  localparam int LIGHTING_CONFIG1_FR_LUT_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_FR_LUT_DISABLED_MASK = 32'h00080000;
  // 20: Term 1 reflection component RB LUT disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_RB_LUT_DISABLED_LSB = 20;
  localparam int LIGHTING_CONFIG1_RB_LUT_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_RB_LUT_DISABLED_MASK = 32'h00100000;
  // 21: Term 1 reflection component RG LUT disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_RG_LUT_DISABLED_LSB = 21;
  localparam int LIGHTING_CONFIG1_RG_LUT_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_RG_LUT_DISABLED_MASK = 32'h00200000;
  // 22: Term 1 reflection component RR LUT disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_RR_LUT_DISABLED_LSB = 22;
  localparam int LIGHTING_CONFIG1_RR_LUT_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_RR_LUT_DISABLED_MASK = 32'h00400000;
  // 24: Fragment light source 0 distance attenuation disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT0_DIST_ATTEN_DISABLED_LSB = 24;
  localparam int LIGHTING_CONFIG1_LIGHT0_DIST_ATTEN_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT0_DIST_ATTEN_DISABLED_MASK = 32'h01000000;
  // 25: Fragment light source 1 distance attenuation disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT1_DIST_ATTEN_DISABLED_LSB = 25;
  localparam int LIGHTING_CONFIG1_LIGHT1_DIST_ATTEN_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT1_DIST_ATTEN_DISABLED_MASK = 32'h02000000;
  // 26: Fragment light source 2 distance attenuation disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT2_DIST_ATTEN_DISABLED_LSB = 26;
  localparam int LIGHTING_CONFIG1_LIGHT2_DIST_ATTEN_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT2_DIST_ATTEN_DISABLED_MASK = 32'h04000000;
  // 27: Fragment light source 3 distance attenuation disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT3_DIST_ATTEN_DISABLED_LSB = 27;
  localparam int LIGHTING_CONFIG1_LIGHT3_DIST_ATTEN_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT3_DIST_ATTEN_DISABLED_MASK = 32'h08000000;
  // 28: Fragment light source 4 distance attenuation disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT4_DIST_ATTEN_DISABLED_LSB = 28;
  localparam int LIGHTING_CONFIG1_LIGHT4_DIST_ATTEN_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT4_DIST_ATTEN_DISABLED_MASK = 32'h10000000;
  // 29: Fragment light source 5 distance attenuation disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT5_DIST_ATTEN_DISABLED_LSB = 29;
  localparam int LIGHTING_CONFIG1_LIGHT5_DIST_ATTEN_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT5_DIST_ATTEN_DISABLED_MASK = 32'h20000000;
  // 30: Fragment light source 6 distance attenuation disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT6_DIST_ATTEN_DISABLED_LSB = 30;
  localparam int LIGHTING_CONFIG1_LIGHT6_DIST_ATTEN_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT6_DIST_ATTEN_DISABLED_MASK = 32'h40000000;
  // 31: Fragment light source 7 distance attenuation disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_CONFIG1_LIGHT7_DIST_ATTEN_DISABLED_LSB = 31;
  localparam int LIGHTING_CONFIG1_LIGHT7_DIST_ATTEN_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_CONFIG1_LIGHT7_DIST_ATTEN_DISABLED_MASK = 32'h80000000;

  // GPUREG_LIGHTING_LUT_INDEX (LightingLutIndex): IDs 0x1C5
  // 0-7: Starting index (unsigned)
  localparam int LIGHTING_LUT_INDEX_INDEX_LSB = 0;
  localparam int LIGHTING_LUT_INDEX_INDEX_WIDTH = 8;
  localparam logic [31:0] LIGHTING_LUT_INDEX_INDEX_MASK = 32'h000000ff;
  // 8-12: Look-up table (enum LightingLutIndexTable)
  localparam int LIGHTING_LUT_INDEX_TABLE_LSB = 8;
  localparam int LIGHTING_LUT_INDEX_TABLE_WIDTH = 5;
  localparam logic [31:0] LIGHTING_LUT_INDEX_TABLE_MASK = 32'h00001f00;

  // GPUREG_LIGHTING_ENABLE1 (LightingEnable1): IDs 0x1C6
  // 0: Disabled (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_ENABLE1_DISABLED_LSB = 0;
  localparam int LIGHTING_ENABLE1_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_ENABLE1_DISABLED_MASK = 32'h00000001;

  // GPUREG_LIGHTING_LUT_DATAi (LightingLutData): IDs 0x1C8, 0x1C9, 0x1CA, 0x1CB, 0x1CC, 0x1CD, 0x1CE, 0x1CF
  // 0-23: LUT data (data)
  localparam int LIGHTING_LUT_DATA_DATA_LSB = 0;
  localparam int LIGHTING_LUT_DATA_DATA_WIDTH = 24;
  localparam logic [31:0] LIGHTING_LUT_DATA_DATA_MASK = 32'h00ffffff;

  // LUT entry: Lighting LUT entry (LightingLutEntry, 256 elements)
  // 0-11: Entry value (fixed0.0.12)
  localparam int LIGHTING_LUT_ENTRY_VALUE_LSB = 0;
  localparam int LIGHTING_LUT_ENTRY_VALUE_WIDTH = 12;
  localparam logic [31:0] LIGHTING_LUT_ENTRY_VALUE_MASK = 32'h00000fff;
  // 12-22: Magnitude of the difference between the next entry and this entry, used to implement linear interpolation (UNVERIFIED(hw), see the table) (fixed0.0.11)
  localparam int LIGHTING_LUT_ENTRY_DIFFERENCE_LSB = 12;
  localparam int LIGHTING_LUT_ENTRY_DIFFERENCE_WIDTH = 11;
  localparam logic [31:0] LIGHTING_LUT_ENTRY_DIFFERENCE_MASK = 32'h007ff000;
  // 23: 1: the difference is negative (UNVERIFIED(hw), see the table) (bool)
  localparam int LIGHTING_LUT_ENTRY_DIFFERENCE_NEGATIVE_LSB = 23;
  localparam int LIGHTING_LUT_ENTRY_DIFFERENCE_NEGATIVE_WIDTH = 1;
  localparam logic [31:0] LIGHTING_LUT_ENTRY_DIFFERENCE_NEGATIVE_MASK = 32'h00800000;

  // GPUREG_LIGHTING_LUTINPUT_ABS (LightingLutinputAbs): IDs 0x1D0
  // 1: abs() flag for the input of D0 (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_LUTINPUT_ABS_D0_ABS_DISABLED_LSB = 1;
  localparam int LIGHTING_LUTINPUT_ABS_D0_ABS_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_LUTINPUT_ABS_D0_ABS_DISABLED_MASK = 32'h00000002;
  // 5: abs() flag for the input of D1 (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_LUTINPUT_ABS_D1_ABS_DISABLED_LSB = 5;
  localparam int LIGHTING_LUTINPUT_ABS_D1_ABS_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_LUTINPUT_ABS_D1_ABS_DISABLED_MASK = 32'h00000020;
  // 9: abs() flag for the input of SP (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_LUTINPUT_ABS_SP_ABS_DISABLED_LSB = 9;
  localparam int LIGHTING_LUTINPUT_ABS_SP_ABS_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_LUTINPUT_ABS_SP_ABS_DISABLED_MASK = 32'h00000200;
  // 13: abs() flag for the input of FR (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_LUTINPUT_ABS_FR_ABS_DISABLED_LSB = 13;
  localparam int LIGHTING_LUTINPUT_ABS_FR_ABS_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_LUTINPUT_ABS_FR_ABS_DISABLED_MASK = 32'h00002000;
  // 17: abs() flag for the input of RB (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_LUTINPUT_ABS_RB_ABS_DISABLED_LSB = 17;
  localparam int LIGHTING_LUTINPUT_ABS_RB_ABS_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_LUTINPUT_ABS_RB_ABS_DISABLED_MASK = 32'h00020000;
  // 21: abs() flag for the input of RG (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_LUTINPUT_ABS_RG_ABS_DISABLED_LSB = 21;
  localparam int LIGHTING_LUTINPUT_ABS_RG_ABS_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_LUTINPUT_ABS_RG_ABS_DISABLED_MASK = 32'h00200000;
  // 25: abs() flag for the input of RR (0 = enabled, 1 = disabled) (bool)
  localparam int LIGHTING_LUTINPUT_ABS_RR_ABS_DISABLED_LSB = 25;
  localparam int LIGHTING_LUTINPUT_ABS_RR_ABS_DISABLED_WIDTH = 1;
  localparam logic [31:0] LIGHTING_LUTINPUT_ABS_RR_ABS_DISABLED_MASK = 32'h02000000;

  // GPUREG_LIGHTING_LUTINPUT_SELECT (LightingLutinputSelect): IDs 0x1D1
  // 0-2: Input selector for D0 (enum LightingLutinputSelectInput)
  localparam int LIGHTING_LUTINPUT_SELECT_D0_INPUT_LSB = 0;
  localparam int LIGHTING_LUTINPUT_SELECT_D0_INPUT_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LUTINPUT_SELECT_D0_INPUT_MASK = 32'h00000007;
  // 4-6: Input selector for D1 (enum LightingLutinputSelectInput)
  localparam int LIGHTING_LUTINPUT_SELECT_D1_INPUT_LSB = 4;
  localparam int LIGHTING_LUTINPUT_SELECT_D1_INPUT_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LUTINPUT_SELECT_D1_INPUT_MASK = 32'h00000070;
  // 8-10: Input selector for SP (enum LightingLutinputSelectInput)
  localparam int LIGHTING_LUTINPUT_SELECT_SP_INPUT_LSB = 8;
  localparam int LIGHTING_LUTINPUT_SELECT_SP_INPUT_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LUTINPUT_SELECT_SP_INPUT_MASK = 32'h00000700;
  // 12-14: Input selector for FR (enum LightingLutinputSelectInput)
  localparam int LIGHTING_LUTINPUT_SELECT_FR_INPUT_LSB = 12;
  localparam int LIGHTING_LUTINPUT_SELECT_FR_INPUT_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LUTINPUT_SELECT_FR_INPUT_MASK = 32'h00007000;
  // 16-18: Input selector for RB (enum LightingLutinputSelectInput)
  localparam int LIGHTING_LUTINPUT_SELECT_RB_INPUT_LSB = 16;
  localparam int LIGHTING_LUTINPUT_SELECT_RB_INPUT_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LUTINPUT_SELECT_RB_INPUT_MASK = 32'h00070000;
  // 20-22: Input selector for RG (enum LightingLutinputSelectInput)
  localparam int LIGHTING_LUTINPUT_SELECT_RG_INPUT_LSB = 20;
  localparam int LIGHTING_LUTINPUT_SELECT_RG_INPUT_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LUTINPUT_SELECT_RG_INPUT_MASK = 32'h00700000;
  // 24-26: Input selector for RR (enum LightingLutinputSelectInput)
  localparam int LIGHTING_LUTINPUT_SELECT_RR_INPUT_LSB = 24;
  localparam int LIGHTING_LUTINPUT_SELECT_RR_INPUT_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LUTINPUT_SELECT_RR_INPUT_MASK = 32'h07000000;

  // GPUREG_LIGHTING_LUTINPUT_SCALE (LightingLutinputScale): IDs 0x1D2
  // 0-2: Scaler selector for D0 (enum LightingLutinputScaleFactor)
  localparam int LIGHTING_LUTINPUT_SCALE_D0_SCALE_LSB = 0;
  localparam int LIGHTING_LUTINPUT_SCALE_D0_SCALE_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LUTINPUT_SCALE_D0_SCALE_MASK = 32'h00000007;
  // 4-6: Scaler selector for D1 (enum LightingLutinputScaleFactor)
  localparam int LIGHTING_LUTINPUT_SCALE_D1_SCALE_LSB = 4;
  localparam int LIGHTING_LUTINPUT_SCALE_D1_SCALE_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LUTINPUT_SCALE_D1_SCALE_MASK = 32'h00000070;
  // 8-10: Scaler selector for SP (enum LightingLutinputScaleFactor)
  localparam int LIGHTING_LUTINPUT_SCALE_SP_SCALE_LSB = 8;
  localparam int LIGHTING_LUTINPUT_SCALE_SP_SCALE_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LUTINPUT_SCALE_SP_SCALE_MASK = 32'h00000700;
  // 12-14: Scaler selector for FR (enum LightingLutinputScaleFactor)
  localparam int LIGHTING_LUTINPUT_SCALE_FR_SCALE_LSB = 12;
  localparam int LIGHTING_LUTINPUT_SCALE_FR_SCALE_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LUTINPUT_SCALE_FR_SCALE_MASK = 32'h00007000;
  // 16-18: Scaler selector for RB (enum LightingLutinputScaleFactor)
  localparam int LIGHTING_LUTINPUT_SCALE_RB_SCALE_LSB = 16;
  localparam int LIGHTING_LUTINPUT_SCALE_RB_SCALE_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LUTINPUT_SCALE_RB_SCALE_MASK = 32'h00070000;
  // 20-22: Scaler selector for RG (enum LightingLutinputScaleFactor)
  localparam int LIGHTING_LUTINPUT_SCALE_RG_SCALE_LSB = 20;
  localparam int LIGHTING_LUTINPUT_SCALE_RG_SCALE_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LUTINPUT_SCALE_RG_SCALE_MASK = 32'h00700000;
  // 24-26: Scaler selector for RR (enum LightingLutinputScaleFactor)
  localparam int LIGHTING_LUTINPUT_SCALE_RR_SCALE_LSB = 24;
  localparam int LIGHTING_LUTINPUT_SCALE_RR_SCALE_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LUTINPUT_SCALE_RR_SCALE_MASK = 32'h07000000;

  // GPUREG_LIGHTING_LIGHT_PERMUTATION (LightingLightPermutation): IDs 0x1D9
  // 0-2: ID of the 1st enabled light (unsigned)
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT0_LIGHT_ID_LSB = 0;
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT0_LIGHT_ID_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LIGHT_PERMUTATION_SLOT0_LIGHT_ID_MASK = 32'h00000007;
  // 4-6: ID of the 2nd enabled light (unsigned)
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT1_LIGHT_ID_LSB = 4;
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT1_LIGHT_ID_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LIGHT_PERMUTATION_SLOT1_LIGHT_ID_MASK = 32'h00000070;
  // 8-10: ID of the 3rd enabled light (unsigned)
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT2_LIGHT_ID_LSB = 8;
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT2_LIGHT_ID_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LIGHT_PERMUTATION_SLOT2_LIGHT_ID_MASK = 32'h00000700;
  // 12-14: ID of the 4th enabled light (unsigned)
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT3_LIGHT_ID_LSB = 12;
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT3_LIGHT_ID_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LIGHT_PERMUTATION_SLOT3_LIGHT_ID_MASK = 32'h00007000;
  // 16-18: ID of the 5th enabled light (unsigned)
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT4_LIGHT_ID_LSB = 16;
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT4_LIGHT_ID_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LIGHT_PERMUTATION_SLOT4_LIGHT_ID_MASK = 32'h00070000;
  // 20-22: ID of the 6th enabled light (unsigned)
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT5_LIGHT_ID_LSB = 20;
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT5_LIGHT_ID_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LIGHT_PERMUTATION_SLOT5_LIGHT_ID_MASK = 32'h00700000;
  // 24-26: ID of the 7th enabled light (unsigned)
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT6_LIGHT_ID_LSB = 24;
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT6_LIGHT_ID_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LIGHT_PERMUTATION_SLOT6_LIGHT_ID_MASK = 32'h07000000;
  // 28-30: ID of the 8th enabled light (unsigned)
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT7_LIGHT_ID_LSB = 28;
  localparam int LIGHTING_LIGHT_PERMUTATION_SLOT7_LIGHT_ID_WIDTH = 3;
  localparam logic [31:0] LIGHTING_LIGHT_PERMUTATION_SLOT7_LIGHT_ID_MASK = 32'h70000000;

  // GPUREG_ATTRIBBUFFERS_LOC (AttribbuffersLoc): IDs 0x200
  // 1-28: Vertex arrays base address (unsigned)
  localparam int ATTRIBBUFFERS_LOC_BASE_ADDR_LSB = 1;
  localparam int ATTRIBBUFFERS_LOC_BASE_ADDR_WIDTH = 28;
  localparam logic [31:0] ATTRIBBUFFERS_LOC_BASE_ADDR_MASK = 32'h1ffffffe;

  // GPUREG_ATTRIBBUFFERS_FORMAT_LOW (AttribbuffersFormatLow): IDs 0x201
  // 0-1: Vertex attribute 0 type (enum AttribFormatType)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR0_TYPE_LSB = 0;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR0_TYPE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR0_TYPE_MASK = 32'h00000003;
  // 2-3: Vertex attribute 0 size (enum AttribFormatSize)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR0_SIZE_LSB = 2;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR0_SIZE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR0_SIZE_MASK = 32'h0000000c;
  // 4-5: Vertex attribute 1 type (enum AttribFormatType)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR1_TYPE_LSB = 4;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR1_TYPE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR1_TYPE_MASK = 32'h00000030;
  // 6-7: Vertex attribute 1 size (enum AttribFormatSize)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR1_SIZE_LSB = 6;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR1_SIZE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR1_SIZE_MASK = 32'h000000c0;
  // 8-9: Vertex attribute 2 type (enum AttribFormatType)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR2_TYPE_LSB = 8;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR2_TYPE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR2_TYPE_MASK = 32'h00000300;
  // 10-11: Vertex attribute 2 size (enum AttribFormatSize)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR2_SIZE_LSB = 10;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR2_SIZE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR2_SIZE_MASK = 32'h00000c00;
  // 12-13: Vertex attribute 3 type (enum AttribFormatType)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR3_TYPE_LSB = 12;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR3_TYPE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR3_TYPE_MASK = 32'h00003000;
  // 14-15: Vertex attribute 3 size (enum AttribFormatSize)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR3_SIZE_LSB = 14;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR3_SIZE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR3_SIZE_MASK = 32'h0000c000;
  // 16-17: Vertex attribute 4 type (enum AttribFormatType)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR4_TYPE_LSB = 16;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR4_TYPE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR4_TYPE_MASK = 32'h00030000;
  // 18-19: Vertex attribute 4 size (enum AttribFormatSize)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR4_SIZE_LSB = 18;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR4_SIZE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR4_SIZE_MASK = 32'h000c0000;
  // 20-21: Vertex attribute 5 type (enum AttribFormatType)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR5_TYPE_LSB = 20;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR5_TYPE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR5_TYPE_MASK = 32'h00300000;
  // 22-23: Vertex attribute 5 size (enum AttribFormatSize)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR5_SIZE_LSB = 22;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR5_SIZE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR5_SIZE_MASK = 32'h00c00000;
  // 24-25: Vertex attribute 6 type (enum AttribFormatType)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR6_TYPE_LSB = 24;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR6_TYPE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR6_TYPE_MASK = 32'h03000000;
  // 26-27: Vertex attribute 6 size (enum AttribFormatSize)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR6_SIZE_LSB = 26;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR6_SIZE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR6_SIZE_MASK = 32'h0c000000;
  // 28-29: Vertex attribute 7 type (enum AttribFormatType)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR7_TYPE_LSB = 28;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR7_TYPE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR7_TYPE_MASK = 32'h30000000;
  // 30-31: Vertex attribute 7 size (enum AttribFormatSize)
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR7_SIZE_LSB = 30;
  localparam int ATTRIBBUFFERS_FORMAT_LOW_ATTR7_SIZE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_LOW_ATTR7_SIZE_MASK = 32'hc0000000;

  // GPUREG_ATTRIBBUFFERS_FORMAT_HIGH (AttribbuffersFormatHigh): IDs 0x202
  // 0-1: Vertex attribute 8 type (enum AttribFormatType)
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR8_TYPE_LSB = 0;
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR8_TYPE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_HIGH_ATTR8_TYPE_MASK = 32'h00000003;
  // 2-3: Vertex attribute 8 size (enum AttribFormatSize)
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR8_SIZE_LSB = 2;
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR8_SIZE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_HIGH_ATTR8_SIZE_MASK = 32'h0000000c;
  // 4-5: Vertex attribute 9 type (enum AttribFormatType)
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR9_TYPE_LSB = 4;
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR9_TYPE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_HIGH_ATTR9_TYPE_MASK = 32'h00000030;
  // 6-7: Vertex attribute 9 size (enum AttribFormatSize)
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR9_SIZE_LSB = 6;
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR9_SIZE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_HIGH_ATTR9_SIZE_MASK = 32'h000000c0;
  // 8-9: Vertex attribute 10 type (enum AttribFormatType)
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR10_TYPE_LSB = 8;
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR10_TYPE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_HIGH_ATTR10_TYPE_MASK = 32'h00000300;
  // 10-11: Vertex attribute 10 size (enum AttribFormatSize)
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR10_SIZE_LSB = 10;
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR10_SIZE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_HIGH_ATTR10_SIZE_MASK = 32'h00000c00;
  // 12-13: Vertex attribute 11 type (enum AttribFormatType)
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR11_TYPE_LSB = 12;
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR11_TYPE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_HIGH_ATTR11_TYPE_MASK = 32'h00003000;
  // 14-15: Vertex attribute 11 size (enum AttribFormatSize)
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR11_SIZE_LSB = 14;
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTR11_SIZE_WIDTH = 2;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_HIGH_ATTR11_SIZE_MASK = 32'h0000c000;
  // 16-27: Fixed vertex attribute mask (unsigned)
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_FIXED_ATTRIB_MASK_LSB = 16;
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_FIXED_ATTRIB_MASK_WIDTH = 12;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_HIGH_FIXED_ATTRIB_MASK_MASK = 32'h0fff0000;
  // 28-31: Total vertex attribute count - 1 (unsigned)
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTRIB_COUNT_MINUS_1_LSB = 28;
  localparam int ATTRIBBUFFERS_FORMAT_HIGH_ATTRIB_COUNT_MINUS_1_WIDTH = 4;
  localparam logic [31:0] ATTRIBBUFFERS_FORMAT_HIGH_ATTRIB_COUNT_MINUS_1_MASK = 32'hf0000000;

  // GPUREG_ATTRIBBUFFERi_OFFSET (AttribbufferOffset): IDs 0x203, 0x206, 0x209, 0x20C, 0x20F, 0x212, 0x215, 0x218, 0x21B, 0x21E, 0x221, 0x224
  // 0-27: Offset from base vertex arrays address (unsigned)
  localparam int ATTRIBBUFFER_OFFSET_OFFSET_LSB = 0;
  localparam int ATTRIBBUFFER_OFFSET_OFFSET_WIDTH = 28;
  localparam logic [31:0] ATTRIBBUFFER_OFFSET_OFFSET_MASK = 32'h0fffffff;

  // GPUREG_ATTRIBBUFFERi_CONFIG1 (AttribbufferConfig1): IDs 0x204, 0x207, 0x20A, 0x20D, 0x210, 0x213, 0x216, 0x219, 0x21C, 0x21F, 0x222, 0x225
  // 0-3: Component 1 (enum AttribbufferComponent)
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT1_LSB = 0;
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT1_WIDTH = 4;
  localparam logic [31:0] ATTRIBBUFFER_CONFIG1_COMPONENT1_MASK = 32'h0000000f;
  // 4-7: Component 2 (enum AttribbufferComponent)
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT2_LSB = 4;
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT2_WIDTH = 4;
  localparam logic [31:0] ATTRIBBUFFER_CONFIG1_COMPONENT2_MASK = 32'h000000f0;
  // 8-11: Component 3 (enum AttribbufferComponent)
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT3_LSB = 8;
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT3_WIDTH = 4;
  localparam logic [31:0] ATTRIBBUFFER_CONFIG1_COMPONENT3_MASK = 32'h00000f00;
  // 12-15: Component 4 (enum AttribbufferComponent)
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT4_LSB = 12;
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT4_WIDTH = 4;
  localparam logic [31:0] ATTRIBBUFFER_CONFIG1_COMPONENT4_MASK = 32'h0000f000;
  // 16-19: Component 5 (enum AttribbufferComponent)
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT5_LSB = 16;
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT5_WIDTH = 4;
  localparam logic [31:0] ATTRIBBUFFER_CONFIG1_COMPONENT5_MASK = 32'h000f0000;
  // 20-23: Component 6 (enum AttribbufferComponent)
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT6_LSB = 20;
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT6_WIDTH = 4;
  localparam logic [31:0] ATTRIBBUFFER_CONFIG1_COMPONENT6_MASK = 32'h00f00000;
  // 24-27: Component 7 (enum AttribbufferComponent)
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT7_LSB = 24;
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT7_WIDTH = 4;
  localparam logic [31:0] ATTRIBBUFFER_CONFIG1_COMPONENT7_MASK = 32'h0f000000;
  // 28-31: Component 8 (enum AttribbufferComponent)
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT8_LSB = 28;
  localparam int ATTRIBBUFFER_CONFIG1_COMPONENT8_WIDTH = 4;
  localparam logic [31:0] ATTRIBBUFFER_CONFIG1_COMPONENT8_MASK = 32'hf0000000;

  // GPUREG_ATTRIBBUFFERi_CONFIG2 (AttribbufferConfig2): IDs 0x205, 0x208, 0x20B, 0x20E, 0x211, 0x214, 0x217, 0x21A, 0x21D, 0x220, 0x223, 0x226
  // 0-3: Component 9 (enum AttribbufferComponent)
  localparam int ATTRIBBUFFER_CONFIG2_COMPONENT9_LSB = 0;
  localparam int ATTRIBBUFFER_CONFIG2_COMPONENT9_WIDTH = 4;
  localparam logic [31:0] ATTRIBBUFFER_CONFIG2_COMPONENT9_MASK = 32'h0000000f;
  // 4-7: Component 10 (enum AttribbufferComponent)
  localparam int ATTRIBBUFFER_CONFIG2_COMPONENT10_LSB = 4;
  localparam int ATTRIBBUFFER_CONFIG2_COMPONENT10_WIDTH = 4;
  localparam logic [31:0] ATTRIBBUFFER_CONFIG2_COMPONENT10_MASK = 32'h000000f0;
  // 8-11: Component 11 (enum AttribbufferComponent)
  localparam int ATTRIBBUFFER_CONFIG2_COMPONENT11_LSB = 8;
  localparam int ATTRIBBUFFER_CONFIG2_COMPONENT11_WIDTH = 4;
  localparam logic [31:0] ATTRIBBUFFER_CONFIG2_COMPONENT11_MASK = 32'h00000f00;
  // 12-15: Component 12 (enum AttribbufferComponent)
  localparam int ATTRIBBUFFER_CONFIG2_COMPONENT12_LSB = 12;
  localparam int ATTRIBBUFFER_CONFIG2_COMPONENT12_WIDTH = 4;
  localparam logic [31:0] ATTRIBBUFFER_CONFIG2_COMPONENT12_MASK = 32'h0000f000;
  // 16-23: Bytes per vertex (unsigned)
  localparam int ATTRIBBUFFER_CONFIG2_BYTES_PER_VERTEX_LSB = 16;
  localparam int ATTRIBBUFFER_CONFIG2_BYTES_PER_VERTEX_WIDTH = 8;
  localparam logic [31:0] ATTRIBBUFFER_CONFIG2_BYTES_PER_VERTEX_MASK = 32'h00ff0000;
  // 28-31: Total number of components (unsigned)
  localparam int ATTRIBBUFFER_CONFIG2_COMPONENT_COUNT_LSB = 28;
  localparam int ATTRIBBUFFER_CONFIG2_COMPONENT_COUNT_WIDTH = 4;
  localparam logic [31:0] ATTRIBBUFFER_CONFIG2_COMPONENT_COUNT_MASK = 32'hf0000000;

  // GPUREG_INDEXBUFFER_CONFIG (IndexbufferConfig): IDs 0x227
  // 0-27: Offset from base vertex arrays address (unsigned)
  localparam int INDEXBUFFER_CONFIG_OFFSET_LSB = 0;
  localparam int INDEXBUFFER_CONFIG_OFFSET_WIDTH = 28;
  localparam logic [31:0] INDEXBUFFER_CONFIG_OFFSET_MASK = 32'h0fffffff;
  // 31: Index type (0 = unsigned byte, 1 = unsigned short or drawing arrays) (enum IndexbufferConfigIndexType)
  localparam int INDEXBUFFER_CONFIG_INDEX_TYPE_LSB = 31;
  localparam int INDEXBUFFER_CONFIG_INDEX_TYPE_WIDTH = 1;
  localparam logic [31:0] INDEXBUFFER_CONFIG_INDEX_TYPE_MASK = 32'h80000000;

  // GPUREG_NUMVERTICES (Numvertices): IDs 0x228
  // 0-31: Number of vertices to render (unsigned)
  localparam int NUMVERTICES_COUNT_LSB = 0;
  localparam int NUMVERTICES_COUNT_WIDTH = 32;
  localparam logic [31:0] NUMVERTICES_COUNT_MASK = 32'hffffffff;

  // GPUREG_GEOSTAGE_CONFIG (GeostageConfig): IDs 0x229
  // 0-1: Geometry shader in use (0 = not in use, 2 = in use) (enum GeostageConfigGsMode)
  localparam int GEOSTAGE_CONFIG_GS_MODE_LSB = 0;
  localparam int GEOSTAGE_CONFIG_GS_MODE_WIDTH = 2;
  localparam logic [31:0] GEOSTAGE_CONFIG_GS_MODE_MASK = 32'h00000003;
  // 8: Drawing triangle elements (0 = not, 1 = drawing triangle elements) (bool)
  localparam int GEOSTAGE_CONFIG_DRAWING_TRIANGLE_ELEMENTS_LSB = 8;
  localparam int GEOSTAGE_CONFIG_DRAWING_TRIANGLE_ELEMENTS_WIDTH = 1;
  localparam logic [31:0] GEOSTAGE_CONFIG_DRAWING_TRIANGLE_ELEMENTS_MASK = 32'h00000100;
  // 9: Must be 0x0 (const 0x0)
  localparam int GEOSTAGE_CONFIG_RESERVED_9_LSB = 9;
  localparam int GEOSTAGE_CONFIG_RESERVED_9_WIDTH = 1;
  localparam logic [31:0] GEOSTAGE_CONFIG_RESERVED_9_MASK = 32'h00000200;
  localparam logic [0:0] GEOSTAGE_CONFIG_RESERVED_9_VALUE = 1'h0;
  // 31: Use reserved geometry shader subdivision (0 = don't use, 1 = use) (bool)
  localparam int GEOSTAGE_CONFIG_USE_RESERVED_SUBDIVISION_LSB = 31;
  localparam int GEOSTAGE_CONFIG_USE_RESERVED_SUBDIVISION_WIDTH = 1;
  localparam logic [31:0] GEOSTAGE_CONFIG_USE_RESERVED_SUBDIVISION_MASK = 32'h80000000;

  // GPUREG_VERTEX_OFFSET (VertexOffset): IDs 0x22A
  // 0-31: Starting vertex offset (unsigned)
  localparam int VERTEX_OFFSET_OFFSET_LSB = 0;
  localparam int VERTEX_OFFSET_OFFSET_WIDTH = 32;
  localparam logic [31:0] VERTEX_OFFSET_OFFSET_MASK = 32'hffffffff;

  // GPUREG_POST_VERTEX_CACHE_NUM (PostVertexCacheNum): IDs 0x22D
  // 0-7: Number of entries in the post-vertex cache (usually 0x4 or 0x84) (unsigned)
  localparam int POST_VERTEX_CACHE_NUM_ENTRIES_LSB = 0;
  localparam int POST_VERTEX_CACHE_NUM_ENTRIES_WIDTH = 8;
  localparam logic [31:0] POST_VERTEX_CACHE_NUM_ENTRIES_MASK = 32'h000000ff;

  // GPUREG_DRAWARRAYS (Drawarrays): IDs 0x22E
  // 0-31: Trigger (0 = idle, non-zero = draw arrays) (trigger)
  localparam int DRAWARRAYS_TRIGGER_LSB = 0;
  localparam int DRAWARRAYS_TRIGGER_WIDTH = 32;
  localparam logic [31:0] DRAWARRAYS_TRIGGER_MASK = 32'hffffffff;

  // GPUREG_DRAWELEMENTS (Drawelements): IDs 0x22F
  // 0-31: Trigger (0 = idle, non-zero = draw elements) (trigger)
  localparam int DRAWELEMENTS_TRIGGER_LSB = 0;
  localparam int DRAWELEMENTS_TRIGGER_WIDTH = 32;
  localparam logic [31:0] DRAWELEMENTS_TRIGGER_MASK = 32'hffffffff;

  // GPUREG_VTX_FUNC (VtxFunc): IDs 0x231
  // 0-31: Trigger (0 = idle, non-zero = clear post-vertex cache) (trigger)
  localparam int VTX_FUNC_TRIGGER_LSB = 0;
  localparam int VTX_FUNC_TRIGGER_WIDTH = 32;
  localparam logic [31:0] VTX_FUNC_TRIGGER_MASK = 32'hffffffff;

  // GPUREG_FIXEDATTRIB_INDEX (FixedattribIndex): IDs 0x232
  // 0-3: Fixed attribute index (0-11, 0xF = immediate-mode submission) (unsigned)
  localparam int FIXEDATTRIB_INDEX_INDEX_LSB = 0;
  localparam int FIXEDATTRIB_INDEX_INDEX_WIDTH = 4;
  localparam logic [31:0] FIXEDATTRIB_INDEX_INDEX_MASK = 32'h0000000f;

  // GPUREG_FIXEDATTRIB_DATA0 (FixedattribData0): IDs 0x233
  // 0-7: Vertex attribute element 3 (Z) (bits 16-23) (raw bits of a partial float1.7.16 value) (unsigned)
  localparam int FIXEDATTRIB_DATA0_Z_HIGH_LSB = 0;
  localparam int FIXEDATTRIB_DATA0_Z_HIGH_WIDTH = 8;
  localparam logic [31:0] FIXEDATTRIB_DATA0_Z_HIGH_MASK = 32'h000000ff;
  // 8-31: Vertex attribute element 4 (W) (f24)
  localparam int FIXEDATTRIB_DATA0_W_LSB = 8;
  localparam int FIXEDATTRIB_DATA0_W_WIDTH = 24;
  localparam logic [31:0] FIXEDATTRIB_DATA0_W_MASK = 32'hffffff00;

  // GPUREG_FIXEDATTRIB_DATA1 (FixedattribData1): IDs 0x234
  // 0-15: Vertex attribute element 2 (Y) (bits 8-23) (raw bits of a partial float1.7.16 value) (unsigned)
  localparam int FIXEDATTRIB_DATA1_Y_HIGH_LSB = 0;
  localparam int FIXEDATTRIB_DATA1_Y_HIGH_WIDTH = 16;
  localparam logic [31:0] FIXEDATTRIB_DATA1_Y_HIGH_MASK = 32'h0000ffff;
  // 16-31: Vertex attribute element 3 (Z) (bits 0-15) (raw bits of a partial float1.7.16 value) (unsigned)
  localparam int FIXEDATTRIB_DATA1_Z_LOW_LSB = 16;
  localparam int FIXEDATTRIB_DATA1_Z_LOW_WIDTH = 16;
  localparam logic [31:0] FIXEDATTRIB_DATA1_Z_LOW_MASK = 32'hffff0000;

  // GPUREG_FIXEDATTRIB_DATA2 (FixedattribData2): IDs 0x235
  // 0-23: Vertex attribute element 1 (X) (f24)
  localparam int FIXEDATTRIB_DATA2_X_LSB = 0;
  localparam int FIXEDATTRIB_DATA2_X_WIDTH = 24;
  localparam logic [31:0] FIXEDATTRIB_DATA2_X_MASK = 32'h00ffffff;
  // 24-31: Vertex attribute element 2 (Y) (bits 0-7) (raw bits of a partial float1.7.16 value) (unsigned)
  localparam int FIXEDATTRIB_DATA2_Y_LOW_LSB = 24;
  localparam int FIXEDATTRIB_DATA2_Y_LOW_WIDTH = 8;
  localparam logic [31:0] FIXEDATTRIB_DATA2_Y_LOW_MASK = 32'hff000000;

  // GPUREG_CMDBUF_SIZEi (CmdbufSize): IDs 0x238, 0x239
  // 0-20: Size of command buffer i >> 3 (unsigned)
  localparam int CMDBUF_SIZE_SIZE_LSB = 0;
  localparam int CMDBUF_SIZE_SIZE_WIDTH = 21;
  localparam logic [31:0] CMDBUF_SIZE_SIZE_MASK = 32'h001fffff;

  // GPUREG_CMDBUF_ADDRi (CmdbufAddr): IDs 0x23A, 0x23B
  // 0-28: Physical address of command buffer i >> 3 (unsigned)
  localparam int CMDBUF_ADDR_ADDR_LSB = 0;
  localparam int CMDBUF_ADDR_ADDR_WIDTH = 29;
  localparam logic [31:0] CMDBUF_ADDR_ADDR_MASK = 32'h1fffffff;

  // GPUREG_CMDBUF_JUMPi (CmdbufJump): IDs 0x23C, 0x23D
  // 0-31: Trigger (0 = idle, non-zero = execute command buffer i) (trigger)
  localparam int CMDBUF_JUMP_TRIGGER_LSB = 0;
  localparam int CMDBUF_JUMP_TRIGGER_WIDTH = 32;
  localparam logic [31:0] CMDBUF_JUMP_TRIGGER_MASK = 32'hffffffff;

  // GPUREG_VSH_NUM_ATTR (VshNumAttr): IDs 0x242
  // 0-3: Number of vertex shader input attributes - 1 (unsigned)
  localparam int VSH_NUM_ATTR_NUM_ATTR_MINUS_1_LSB = 0;
  localparam int VSH_NUM_ATTR_NUM_ATTR_MINUS_1_WIDTH = 4;
  localparam logic [31:0] VSH_NUM_ATTR_NUM_ATTR_MINUS_1_MASK = 32'h0000000f;

  // GPUREG_VSH_COM_MODE (VshComMode): IDs 0x244
  // 0: Geometry shader configuration enabled (0 = disabled, 1 = enabled) (bool)
  localparam int VSH_COM_MODE_GS_CONFIG_ENABLED_LSB = 0;
  localparam int VSH_COM_MODE_GS_CONFIG_ENABLED_WIDTH = 1;
  localparam logic [31:0] VSH_COM_MODE_GS_CONFIG_ENABLED_MASK = 32'h00000001;

  // GPUREG_START_DRAW_FUNC0 (StartDrawFunc0): IDs 0x245
  // 0: Mode (0 = drawing, 1 = configuration) (enum StartDrawFunc0Mode)
  localparam int START_DRAW_FUNC0_MODE_LSB = 0;
  localparam int START_DRAW_FUNC0_MODE_WIDTH = 1;
  localparam logic [31:0] START_DRAW_FUNC0_MODE_MASK = 32'h00000001;
  // 1-7: Must be 0x0 (const 0x0)
  localparam int START_DRAW_FUNC0_RESERVED_1_7_LSB = 1;
  localparam int START_DRAW_FUNC0_RESERVED_1_7_WIDTH = 7;
  localparam logic [31:0] START_DRAW_FUNC0_RESERVED_1_7_MASK = 32'h000000fe;
  localparam logic [6:0] START_DRAW_FUNC0_RESERVED_1_7_VALUE = 7'h0;

  // GPUREG_VSH_OUTMAP_TOTAL1 (VshOutmapTotal1): IDs 0x24A
  // 0-3: Number of vertex shader output map registers - 1 (unsigned)
  localparam int VSH_OUTMAP_TOTAL1_OUTMAP_TOTAL_MINUS_1_LSB = 0;
  localparam int VSH_OUTMAP_TOTAL1_OUTMAP_TOTAL_MINUS_1_WIDTH = 4;
  localparam logic [31:0] VSH_OUTMAP_TOTAL1_OUTMAP_TOTAL_MINUS_1_MASK = 32'h0000000f;

  // GPUREG_VSH_OUTMAP_TOTAL2 (VshOutmapTotal2): IDs 0x251
  // 0-3: Number of vertex shader output map registers - 1 (unsigned)
  localparam int VSH_OUTMAP_TOTAL2_OUTMAP_TOTAL_MINUS_1_LSB = 0;
  localparam int VSH_OUTMAP_TOTAL2_OUTMAP_TOTAL_MINUS_1_WIDTH = 4;
  localparam logic [31:0] VSH_OUTMAP_TOTAL2_OUTMAP_TOTAL_MINUS_1_MASK = 32'h0000000f;

  // GPUREG_GSH_MISC0 (GshMisc0): IDs 0x252
  // 0-31: Misc data (0x00000001 = Reserved geometry shader subdivision in use, 0x01004302 = Particle system in use, 0 otherwise) (unsigned)
  localparam int GSH_MISC0_MISC_LSB = 0;
  localparam int GSH_MISC0_MISC_WIDTH = 32;
  localparam logic [31:0] GSH_MISC0_MISC_MASK = 32'hffffffff;

  // GPUREG_GEOSTAGE_CONFIG2 (GeostageConfig2): IDs 0x253
  // 0: Function indicator (with vertex buffers: 0 = draw elements, 1 = draw arrays, without: 0 = not inputting, 1 = inputting vertex attribute data) (bool)
  localparam int GEOSTAGE_CONFIG2_FUNCTION_INDICATOR_LSB = 0;
  localparam int GEOSTAGE_CONFIG2_FUNCTION_INDICATOR_WIDTH = 1;
  localparam logic [31:0] GEOSTAGE_CONFIG2_FUNCTION_INDICATOR_MASK = 32'h00000001;
  // 8: Drawing triangle elements (0 = not, 1 = drawing triangle elements) (bool)
  localparam int GEOSTAGE_CONFIG2_DRAWING_TRIANGLE_ELEMENTS_LSB = 8;
  localparam int GEOSTAGE_CONFIG2_DRAWING_TRIANGLE_ELEMENTS_WIDTH = 1;
  localparam logic [31:0] GEOSTAGE_CONFIG2_DRAWING_TRIANGLE_ELEMENTS_MASK = 32'h00000100;

  // GPUREG_GSH_MISC1 (GshMisc1): IDs 0x254
  // 0-4: Reserved geometry shader subdivision type (2 = Loop, 3 = Catmull-Clark) (enum GshMisc1SubdivisionType)
  localparam int GSH_MISC1_SUBDIVISION_TYPE_LSB = 0;
  localparam int GSH_MISC1_SUBDIVISION_TYPE_WIDTH = 5;
  localparam logic [31:0] GSH_MISC1_SUBDIVISION_TYPE_MASK = 32'h0000001f;

  // GPUREG_PRIMITIVE_CONFIG (PrimitiveConfig): IDs 0x25E
  // 0-3: Number of vertex shader output map registers - 1 (unsigned)
  localparam int PRIMITIVE_CONFIG_OUTMAP_TOTAL_MINUS_1_LSB = 0;
  localparam int PRIMITIVE_CONFIG_OUTMAP_TOTAL_MINUS_1_WIDTH = 4;
  localparam logic [31:0] PRIMITIVE_CONFIG_OUTMAP_TOTAL_MINUS_1_MASK = 32'h0000000f;
  // 8-9: Primitive mode (enum PrimitiveConfigMode)
  localparam int PRIMITIVE_CONFIG_PRIMITIVE_MODE_LSB = 8;
  localparam int PRIMITIVE_CONFIG_PRIMITIVE_MODE_WIDTH = 2;
  localparam logic [31:0] PRIMITIVE_CONFIG_PRIMITIVE_MODE_MASK = 32'h00000300;

  // GPUREG_RESTART_PRIMITIVE (RestartPrimitive): IDs 0x25F
  // 0: Trigger (0 = idle, 1 = reset primitive) (trigger)
  localparam int RESTART_PRIMITIVE_TRIGGER_LSB = 0;
  localparam int RESTART_PRIMITIVE_TRIGGER_WIDTH = 1;
  localparam logic [31:0] RESTART_PRIMITIVE_TRIGGER_MASK = 32'h00000001;
  // 1-31: Must be 0x0 (const 0x0)
  localparam int RESTART_PRIMITIVE_RESERVED_1_31_LSB = 1;
  localparam int RESTART_PRIMITIVE_RESERVED_1_31_WIDTH = 31;
  localparam logic [31:0] RESTART_PRIMITIVE_RESERVED_1_31_MASK = 32'hfffffffe;
  localparam logic [30:0] RESTART_PRIMITIVE_RESERVED_1_31_VALUE = 31'h0;

  // GPUREG_SH_BOOLUNIFORM (ShBooluniform): IDs 0x280, 0x2B0
  // 0-15: Boolean registers b0-b15: bit n is the value of bn (0 = false, 1 = true) (unsigned)
  localparam int SH_BOOLUNIFORM_BOOLS_LSB = 0;
  localparam int SH_BOOLUNIFORM_BOOLS_WIDTH = 16;
  localparam logic [31:0] SH_BOOLUNIFORM_BOOLS_MASK = 32'h0000ffff;
  // 16-31: Must be 0x7FFF (const 0x7fff)
  localparam int SH_BOOLUNIFORM_RESERVED_16_31_LSB = 16;
  localparam int SH_BOOLUNIFORM_RESERVED_16_31_WIDTH = 16;
  localparam logic [31:0] SH_BOOLUNIFORM_RESERVED_16_31_MASK = 32'hffff0000;
  localparam logic [15:0] SH_BOOLUNIFORM_RESERVED_16_31_VALUE = 16'h7fff;

  // GPUREG_SH_INTUNIFORM_Ii (ShIntuniform): IDs 0x281, 0x282, 0x283, 0x284, 0x2B1, 0x2B2, 0x2B3, 0x2B4
  // 0-7: Integer register ii X value (unsigned)
  localparam int SH_INTUNIFORM_X_LSB = 0;
  localparam int SH_INTUNIFORM_X_WIDTH = 8;
  localparam logic [31:0] SH_INTUNIFORM_X_MASK = 32'h000000ff;
  // 8-15: Integer register ii Y value (unsigned)
  localparam int SH_INTUNIFORM_Y_LSB = 8;
  localparam int SH_INTUNIFORM_Y_WIDTH = 8;
  localparam logic [31:0] SH_INTUNIFORM_Y_MASK = 32'h0000ff00;
  // 16-23: Integer register ii Z value (unsigned)
  localparam int SH_INTUNIFORM_Z_LSB = 16;
  localparam int SH_INTUNIFORM_Z_WIDTH = 8;
  localparam logic [31:0] SH_INTUNIFORM_Z_MASK = 32'h00ff0000;
  // 24-31: Integer register ii W value (unsigned)
  localparam int SH_INTUNIFORM_W_LSB = 24;
  localparam int SH_INTUNIFORM_W_WIDTH = 8;
  localparam logic [31:0] SH_INTUNIFORM_W_MASK = 32'hff000000;

  // GPUREG_SH_INPUTBUFFER_CONFIG (ShInputbufferConfig): IDs 0x289, 0x2B9
  // 0-3: Input vertex attributes - 1 (unsigned)
  localparam int SH_INPUTBUFFER_CONFIG_INPUT_COUNT_MINUS_1_LSB = 0;
  localparam int SH_INPUTBUFFER_CONFIG_INPUT_COUNT_MINUS_1_WIDTH = 4;
  localparam logic [31:0] SH_INPUTBUFFER_CONFIG_INPUT_COUNT_MINUS_1_MASK = 32'h0000000f;
  // 8-15: Use reserved geometry shader subdivision (0 = don't use, 1 = use) (always 0 for vertex shaders) (unsigned)
  localparam int SH_INPUTBUFFER_CONFIG_USE_SUBDIVISION_LSB = 8;
  localparam int SH_INPUTBUFFER_CONFIG_USE_SUBDIVISION_WIDTH = 8;
  localparam logic [31:0] SH_INPUTBUFFER_CONFIG_USE_SUBDIVISION_MASK = 32'h0000ff00;
  // 16-23: Must be 0x0 (const 0x0)
  localparam int SH_INPUTBUFFER_CONFIG_RESERVED_16_23_LSB = 16;
  localparam int SH_INPUTBUFFER_CONFIG_RESERVED_16_23_WIDTH = 8;
  localparam logic [31:0] SH_INPUTBUFFER_CONFIG_RESERVED_16_23_MASK = 32'h00ff0000;
  localparam logic [7:0] SH_INPUTBUFFER_CONFIG_RESERVED_16_23_VALUE = 8'h0;
  // 24-31: Use geometry shader (0x8 = use, 0xA0 = don't use) (always 0xA0 for vertex shaders) (enum ShInputbufferConfigGsUse)
  localparam int SH_INPUTBUFFER_CONFIG_USE_GEOMETRY_SHADER_LSB = 24;
  localparam int SH_INPUTBUFFER_CONFIG_USE_GEOMETRY_SHADER_WIDTH = 8;
  localparam logic [31:0] SH_INPUTBUFFER_CONFIG_USE_GEOMETRY_SHADER_MASK = 32'hff000000;

  // GPUREG_SH_ENTRYPOINT (ShEntrypoint): IDs 0x28A, 0x2BA
  // 0-15: Code entry point offset, in 32-bit words (unsigned)
  localparam int SH_ENTRYPOINT_ENTRY_LSB = 0;
  localparam int SH_ENTRYPOINT_ENTRY_WIDTH = 16;
  localparam logic [31:0] SH_ENTRYPOINT_ENTRY_MASK = 32'h0000ffff;
  // 16-31: Must be 0x7FFF (const 0x7fff)
  localparam int SH_ENTRYPOINT_RESERVED_16_31_LSB = 16;
  localparam int SH_ENTRYPOINT_RESERVED_16_31_WIDTH = 16;
  localparam logic [31:0] SH_ENTRYPOINT_RESERVED_16_31_MASK = 32'hffff0000;
  localparam logic [15:0] SH_ENTRYPOINT_RESERVED_16_31_VALUE = 16'h7fff;

  // GPUREG_SH_ATTRIBUTES_PERMUTATION_LOW (ShAttributesPermutationLow): IDs 0x28B, 0x2BB
  // 0-3: Vertex attribute 0 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR0_LSB = 0;
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR0_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_LOW_ATTR0_MASK = 32'h0000000f;
  // 4-7: Vertex attribute 1 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR1_LSB = 4;
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR1_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_LOW_ATTR1_MASK = 32'h000000f0;
  // 8-11: Vertex attribute 2 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR2_LSB = 8;
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR2_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_LOW_ATTR2_MASK = 32'h00000f00;
  // 12-15: Vertex attribute 3 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR3_LSB = 12;
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR3_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_LOW_ATTR3_MASK = 32'h0000f000;
  // 16-19: Vertex attribute 4 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR4_LSB = 16;
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR4_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_LOW_ATTR4_MASK = 32'h000f0000;
  // 20-23: Vertex attribute 5 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR5_LSB = 20;
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR5_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_LOW_ATTR5_MASK = 32'h00f00000;
  // 24-27: Vertex attribute 6 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR6_LSB = 24;
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR6_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_LOW_ATTR6_MASK = 32'h0f000000;
  // 28-31: Vertex attribute 7 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR7_LSB = 28;
  localparam int SH_ATTRIBUTES_PERMUTATION_LOW_ATTR7_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_LOW_ATTR7_MASK = 32'hf0000000;

  // GPUREG_SH_ATTRIBUTES_PERMUTATION_HIGH (ShAttributesPermutationHigh): IDs 0x28C, 0x2BC
  // 0-3: Vertex attribute 8 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR8_LSB = 0;
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR8_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR8_MASK = 32'h0000000f;
  // 4-7: Vertex attribute 9 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR9_LSB = 4;
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR9_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR9_MASK = 32'h000000f0;
  // 8-11: Vertex attribute 10 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR10_LSB = 8;
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR10_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR10_MASK = 32'h00000f00;
  // 12-15: Vertex attribute 11 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR11_LSB = 12;
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR11_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR11_MASK = 32'h0000f000;
  // 16-19: Vertex attribute 12 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR12_LSB = 16;
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR12_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR12_MASK = 32'h000f0000;
  // 20-23: Vertex attribute 13 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR13_LSB = 20;
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR13_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR13_MASK = 32'h00f00000;
  // 24-27: Vertex attribute 14 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR14_LSB = 24;
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR14_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR14_MASK = 32'h0f000000;
  // 28-31: Vertex attribute 15 input register index (unsigned)
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR15_LSB = 28;
  localparam int SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR15_WIDTH = 4;
  localparam logic [31:0] SH_ATTRIBUTES_PERMUTATION_HIGH_ATTR15_MASK = 32'hf0000000;

  // GPUREG_SH_OUTMAP_MASK (ShOutmapMask): IDs 0x28D, 0x2BD
  // 0: Output register o0 enabled (0 = disabled, 1 = enabled) (bool)
  localparam int SH_OUTMAP_MASK_O0_LSB = 0;
  localparam int SH_OUTMAP_MASK_O0_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O0_MASK = 32'h00000001;
  // 1: Output register o1 enabled (0 = disabled, 1 = enabled) (bool)
  localparam int SH_OUTMAP_MASK_O1_LSB = 1;
  localparam int SH_OUTMAP_MASK_O1_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O1_MASK = 32'h00000002;
  // 2: Output register o2 enabled (0 = disabled, 1 = enabled) (bool)
  localparam int SH_OUTMAP_MASK_O2_LSB = 2;
  localparam int SH_OUTMAP_MASK_O2_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O2_MASK = 32'h00000004;
  // 3: Output register o3 enabled (0 = disabled, 1 = enabled) (bool)
  localparam int SH_OUTMAP_MASK_O3_LSB = 3;
  localparam int SH_OUTMAP_MASK_O3_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O3_MASK = 32'h00000008;
  // 4: Output register o4 enabled (0 = disabled, 1 = enabled) (bool)
  localparam int SH_OUTMAP_MASK_O4_LSB = 4;
  localparam int SH_OUTMAP_MASK_O4_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O4_MASK = 32'h00000010;
  // 5: Output register o5 enabled (0 = disabled, 1 = enabled) (bool)
  localparam int SH_OUTMAP_MASK_O5_LSB = 5;
  localparam int SH_OUTMAP_MASK_O5_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O5_MASK = 32'h00000020;
  // 6: Output register o6 enabled (0 = disabled, 1 = enabled) (bool)
  localparam int SH_OUTMAP_MASK_O6_LSB = 6;
  localparam int SH_OUTMAP_MASK_O6_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O6_MASK = 32'h00000040;
  // 7: Output register o7 enabled (0 = disabled, 1 = enabled) (vertex shader only) (bool)
  localparam int SH_OUTMAP_MASK_O7_LSB = 7;
  localparam int SH_OUTMAP_MASK_O7_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O7_MASK = 32'h00000080;
  // 8: Output register o8 enabled (0 = disabled, 1 = enabled) (vertex shader only) (bool)
  localparam int SH_OUTMAP_MASK_O8_LSB = 8;
  localparam int SH_OUTMAP_MASK_O8_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O8_MASK = 32'h00000100;
  // 9: Output register o9 enabled (0 = disabled, 1 = enabled) (vertex shader only) (bool)
  localparam int SH_OUTMAP_MASK_O9_LSB = 9;
  localparam int SH_OUTMAP_MASK_O9_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O9_MASK = 32'h00000200;
  // 10: Output register o10 enabled (0 = disabled, 1 = enabled) (vertex shader only) (bool)
  localparam int SH_OUTMAP_MASK_O10_LSB = 10;
  localparam int SH_OUTMAP_MASK_O10_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O10_MASK = 32'h00000400;
  // 11: Output register o11 enabled (0 = disabled, 1 = enabled) (vertex shader only) (bool)
  localparam int SH_OUTMAP_MASK_O11_LSB = 11;
  localparam int SH_OUTMAP_MASK_O11_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O11_MASK = 32'h00000800;
  // 12: Output register o12 enabled (0 = disabled, 1 = enabled) (vertex shader only) (bool)
  localparam int SH_OUTMAP_MASK_O12_LSB = 12;
  localparam int SH_OUTMAP_MASK_O12_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O12_MASK = 32'h00001000;
  // 13: Output register o13 enabled (0 = disabled, 1 = enabled) (vertex shader only) (bool)
  localparam int SH_OUTMAP_MASK_O13_LSB = 13;
  localparam int SH_OUTMAP_MASK_O13_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O13_MASK = 32'h00002000;
  // 14: Output register o14 enabled (0 = disabled, 1 = enabled) (vertex shader only) (bool)
  localparam int SH_OUTMAP_MASK_O14_LSB = 14;
  localparam int SH_OUTMAP_MASK_O14_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O14_MASK = 32'h00004000;
  // 15: Output register o15 enabled (0 = disabled, 1 = enabled) (vertex shader only) (bool)
  localparam int SH_OUTMAP_MASK_O15_LSB = 15;
  localparam int SH_OUTMAP_MASK_O15_WIDTH = 1;
  localparam logic [31:0] SH_OUTMAP_MASK_O15_MASK = 32'h00008000;
  // 16-31: Must be 0x0 (const 0x0)
  localparam int SH_OUTMAP_MASK_RESERVED_16_31_LSB = 16;
  localparam int SH_OUTMAP_MASK_RESERVED_16_31_WIDTH = 16;
  localparam logic [31:0] SH_OUTMAP_MASK_RESERVED_16_31_MASK = 32'hffff0000;
  localparam logic [15:0] SH_OUTMAP_MASK_RESERVED_16_31_VALUE = 16'h0;

  // GPUREG_SH_CODETRANSFER_END (ShCodetransferEnd): IDs 0x28F, 0x2BF
  // 0-31: Signal transfer end (0 = idle, non-zero = signal) (trigger)
  localparam int SH_CODETRANSFER_END_TRIGGER_LSB = 0;
  localparam int SH_CODETRANSFER_END_TRIGGER_WIDTH = 32;
  localparam logic [31:0] SH_CODETRANSFER_END_TRIGGER_MASK = 32'hffffffff;

  // GPUREG_SH_FLOATUNIFORM_INDEX (ShFloatuniformIndex): IDs 0x290, 0x2C0
  // 0-7: Target floating-point register index (range 0-95, where 0 = c0 and 95 = c95) (unsigned)
  localparam int SH_FLOATUNIFORM_INDEX_INDEX_LSB = 0;
  localparam int SH_FLOATUNIFORM_INDEX_INDEX_WIDTH = 8;
  localparam logic [31:0] SH_FLOATUNIFORM_INDEX_INDEX_MASK = 32'h000000ff;
  // 31: Transfer mode (0 = float1.7.16, 1 = float1.8.23) (enum ShFloatuniformIndexMode)
  localparam int SH_FLOATUNIFORM_INDEX_MODE_LSB = 31;
  localparam int SH_FLOATUNIFORM_INDEX_MODE_WIDTH = 1;
  localparam logic [31:0] SH_FLOATUNIFORM_INDEX_MODE_MASK = 32'h80000000;

  // GPUREG_SH_FLOATUNIFORM_DATAi (ShFloatuniformData): IDs 0x291, 0x292, 0x293, 0x294, 0x295, 0x296, 0x297, 0x298, 0x2C1, 0x2C2, 0x2C3, 0x2C4, 0x2C5, 0x2C6, 0x2C7, 0x2C8
  // 0-31: Floating-point register component data (data)
  localparam int SH_FLOATUNIFORM_DATA_DATA_LSB = 0;
  localparam int SH_FLOATUNIFORM_DATA_DATA_WIDTH = 32;
  localparam logic [31:0] SH_FLOATUNIFORM_DATA_DATA_MASK = 32'hffffffff;

  // GPUREG_SH_CODETRANSFER_INDEX (ShCodetransferIndex): IDs 0x29B, 0x2CB
  // 0-11: Target shader code offset (unsigned)
  localparam int SH_CODETRANSFER_INDEX_OFFSET_LSB = 0;
  localparam int SH_CODETRANSFER_INDEX_OFFSET_WIDTH = 12;
  localparam logic [31:0] SH_CODETRANSFER_INDEX_OFFSET_MASK = 32'h00000fff;

  // GPUREG_SH_CODETRANSFER_DATAi (ShCodetransferData): IDs 0x29C, 0x29D, 0x29E, 0x29F, 0x2A0, 0x2A1, 0x2A2, 0x2A3, 0x2CC, 0x2CD, 0x2CE, 0x2CF, 0x2D0, 0x2D1, 0x2D2, 0x2D3
  // 0-31: Shader instruction data (data)
  localparam int SH_CODETRANSFER_DATA_DATA_LSB = 0;
  localparam int SH_CODETRANSFER_DATA_DATA_WIDTH = 32;
  localparam logic [31:0] SH_CODETRANSFER_DATA_DATA_MASK = 32'hffffffff;

  // GPUREG_SH_OPDESCS_INDEX (ShOpdescsIndex): IDs 0x2A5, 0x2D5
  // 0-11: Target shader operand descriptor offset (unsigned)
  localparam int SH_OPDESCS_INDEX_OFFSET_LSB = 0;
  localparam int SH_OPDESCS_INDEX_OFFSET_WIDTH = 12;
  localparam logic [31:0] SH_OPDESCS_INDEX_OFFSET_MASK = 32'h00000fff;

  // GPUREG_SH_OPDESCS_DATAi (ShOpdescsData): IDs 0x2A6, 0x2A7, 0x2A8, 0x2A9, 0x2AA, 0x2AB, 0x2AC, 0x2AD, 0x2D6, 0x2D7, 0x2D8, 0x2D9, 0x2DA, 0x2DB, 0x2DC, 0x2DD
  // 0-31: Shader operand descriptor data (data)
  localparam int SH_OPDESCS_DATA_DATA_LSB = 0;
  localparam int SH_OPDESCS_DATA_DATA_WIDTH = 32;
  localparam logic [31:0] SH_OPDESCS_DATA_DATA_MASK = 32'hffffffff;

  // ---- Enum encodings: <ENUM>_<VALUE>

  // FacecullingConfigMode (Culling mode values, 2 bits)
  localparam logic [1:0] FACECULLING_CONFIG_MODE_NONE = 2'd0;  // None
  localparam logic [1:0] FACECULLING_CONFIG_MODE_FRONT_CCW = 2'd1;  // Front Face (Counter Clockwise)
  localparam logic [1:0] FACECULLING_CONFIG_MODE_BACK_CCW = 2'd2;  // Back Face (Counter Clockwise)

  // ShOutmapSemantic (Semantic values, 5 bits)
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_POSITION_X = 5'd0;  // position.x (Vertex Position)
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_POSITION_Y = 5'd1;  // position.y
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_POSITION_Z = 5'd2;  // position.z
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_POSITION_W = 5'd3;  // position.w
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_NORMQUAT_X = 5'd4;  // normquat.x (Quaternion specifying the normal/tangent frame (for fragment lighting))
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_NORMQUAT_Y = 5'd5;  // normquat.y
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_NORMQUAT_Z = 5'd6;  // normquat.z
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_NORMQUAT_W = 5'd7;  // normquat.w
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_COLOR_R = 5'd8;  // color.r (Vertex color)
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_COLOR_G = 5'd9;  // color.g
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_COLOR_B = 5'd10;  // color.b
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_COLOR_A = 5'd11;  // color.a
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_TEXCOORD0_U = 5'd12;  // texcoord0.u (Texture coordinates for texture 0)
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_TEXCOORD0_V = 5'd13;  // texcoord0.v
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_TEXCOORD1_U = 5'd14;  // texcoord1.u (Texture coordinates for texture 1)
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_TEXCOORD1_V = 5'd15;  // texcoord1.v
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_TEXCOORD0_W = 5'd16;  // texcoord0.w
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_VIEW_X = 5'd18;  // view.x (View vector (for fragment lighting))
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_VIEW_Y = 5'd19;  // view.y
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_VIEW_Z = 5'd20;  // view.z
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_TEXCOORD2_U = 5'd22;  // texcoord2.u (Texture coordinates for texture 2)
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_TEXCOORD2_V = 5'd23;  // texcoord2.v
  localparam logic [4:0] SH_OUTMAP_SEMANTIC_UNUSED = 5'd31;  // Unused component (Should be set for unused components of the output register)

  // EarlydepthFunction (Early depth function values, 2 bits)
  localparam logic [1:0] EARLYDEPTH_FUNCTION_GREATER_EQUAL = 2'd0;  // >=
  localparam logic [1:0] EARLYDEPTH_FUNCTION_GREATER = 2'd1;  // >
  localparam logic [1:0] EARLYDEPTH_FUNCTION_LESS_EQUAL = 2'd2;  // <=
  localparam logic [1:0] EARLYDEPTH_FUNCTION_LESS = 2'd3;  // <

  // ScissortestModeMode (Scissor mode values (from the field description), 2 bits)
  localparam logic [1:0] SCISSORTEST_MODE_MODE_DISABLED = 2'd0;  // Disabled
  localparam logic [1:0] SCISSORTEST_MODE_MODE_ENABLED = 2'd3;  // Enabled

  // TexunitConfigTexture3Coords (Texture 3 coordinates values, 2 bits)
  localparam logic [1:0] TEXUNIT_CONFIG_TEXTURE3_COORDS_TEXTURE0 = 2'd0;  // Texture 0
  localparam logic [1:0] TEXUNIT_CONFIG_TEXTURE3_COORDS_TEXTURE1 = 2'd1;  // Texture 1
  localparam logic [1:0] TEXUNIT_CONFIG_TEXTURE3_COORDS_TEXTURE2 = 2'd2;  // Texture 2

  // TexunitConfigTexture2Coords (Texture 2 coordinates values, 1 bits)
  localparam logic [0:0] TEXUNIT_CONFIG_TEXTURE2_COORDS_TEXTURE2 = 1'd0;  // Texture 2
  localparam logic [0:0] TEXUNIT_CONFIG_TEXTURE2_COORDS_TEXTURE1 = 1'd1;  // Texture 1

  // TexunitParamFilter (Filter values, 1 bits)
  localparam logic [0:0] TEXUNIT_PARAM_FILTER_NEAREST = 1'd0;  // Nearest
  localparam logic [0:0] TEXUNIT_PARAM_FILTER_LINEAR = 1'd1;  // Linear

  // TexunitParamWrap (Wrap values, 3 bits)
  localparam logic [2:0] TEXUNIT_PARAM_WRAP_CLAMP_TO_EDGE = 3'd0;  // Clamp to edge
  localparam logic [2:0] TEXUNIT_PARAM_WRAP_CLAMP_TO_BORDER = 3'd1;  // Clamp to border
  localparam logic [2:0] TEXUNIT_PARAM_WRAP_REPEAT = 3'd2;  // Repeat
  localparam logic [2:0] TEXUNIT_PARAM_WRAP_MIRRORED_REPEAT = 3'd3;  // Mirrored repeat

  // TexunitParamType (Type values, 3 bits)
  localparam logic [2:0] TEXUNIT_PARAM_TYPE_TEXTURE2_D = 3'd0;  // 2D
  localparam logic [2:0] TEXUNIT_PARAM_TYPE_CUBE_MAP = 3'd1;  // Cube map
  localparam logic [2:0] TEXUNIT_PARAM_TYPE_SHADOW2_D = 3'd2;  // Shadow 2D
  localparam logic [2:0] TEXUNIT_PARAM_TYPE_PROJECTION = 3'd3;  // Projection
  localparam logic [2:0] TEXUNIT_PARAM_TYPE_SHADOW_CUBE = 3'd4;  // Shadow cube
  localparam logic [2:0] TEXUNIT_PARAM_TYPE_DISABLED = 3'd5;  // Disabled

  // TexunitParamEtc1 (ETC1 values (from the field description), 2 bits)
  localparam logic [1:0] TEXUNIT_PARAM_ETC1_NOT_ETC1 = 2'd0;  // Not ETC1 (also used for ETC1A4)
  localparam logic [1:0] TEXUNIT_PARAM_ETC1_ETC1 = 2'd2;  // ETC1

  // TexunitTypeFormat (Format values, 4 bits)
  localparam logic [3:0] TEXUNIT_TYPE_FORMAT_RGBA8888 = 4'd0;  // RGBA8888 (GL_RGBA, GL_UNSIGNED_BYTE)
  localparam logic [3:0] TEXUNIT_TYPE_FORMAT_RGB888 = 4'd1;  // RGB888 (GL_RGB, GL_UNSIGNED_BYTE)
  localparam logic [3:0] TEXUNIT_TYPE_FORMAT_RGBA5551 = 4'd2;  // RGBA5551 (GL_RGBA, GL_UNSIGNED_SHORT_5_5_5_1)
  localparam logic [3:0] TEXUNIT_TYPE_FORMAT_RGB565 = 4'd3;  // RGB565 (GL_RGB, GL_UNSIGNED_SHORT_5_6_5)
  localparam logic [3:0] TEXUNIT_TYPE_FORMAT_RGBA4444 = 4'd4;  // RGBA4444 (GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4)
  localparam logic [3:0] TEXUNIT_TYPE_FORMAT_IA8 = 4'd5;  // IA8 (GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE)
  localparam logic [3:0] TEXUNIT_TYPE_FORMAT_HILO8 = 4'd6;  // HILO8
  localparam logic [3:0] TEXUNIT_TYPE_FORMAT_I8 = 4'd7;  // I8 (GL_LUMINANCE, GL_UNSIGNED_BYTE)
  localparam logic [3:0] TEXUNIT_TYPE_FORMAT_A8 = 4'd8;  // A8 (GL_ALPHA, GL_UNSIGNED_BYTE)
  localparam logic [3:0] TEXUNIT_TYPE_FORMAT_IA44 = 4'd9;  // IA44 (GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE_4_4_EXT)
  localparam logic [3:0] TEXUNIT_TYPE_FORMAT_I4 = 4'd10;  // I4
  localparam logic [3:0] TEXUNIT_TYPE_FORMAT_A4 = 4'd11;  // A4 (GL_ALPHA, GL_UNSIGNED_NIBBLE_EXT)
  localparam logic [3:0] TEXUNIT_TYPE_FORMAT_ETC1 = 4'd12;  // ETC1 (GL_ETC1_RGB8_OES)
  localparam logic [3:0] TEXUNIT_TYPE_FORMAT_ETC1A4 = 4'd13;  // ETC1A4

  // ProctexClamp (Clamp values, 3 bits)
  localparam logic [2:0] PROCTEX_CLAMP_CLAMP_TO_ZERO = 3'd0;  // Clamp to zero
  localparam logic [2:0] PROCTEX_CLAMP_CLAMP_TO_EDGE = 3'd1;  // Clamp to edge
  localparam logic [2:0] PROCTEX_CLAMP_SYMMETRICAL_REPEAT = 3'd2;  // Symmetrical repeat
  localparam logic [2:0] PROCTEX_CLAMP_MIRRORED_REPEAT = 3'd3;  // Mirrored repeat
  localparam logic [2:0] PROCTEX_CLAMP_PULSE = 3'd4;  // Pulse

  // ProctexMappingFunction (Mapping function values, 4 bits)
  localparam logic [3:0] PROCTEX_MAPPING_FUNCTION_U = 4'd0;  // U
  localparam logic [3:0] PROCTEX_MAPPING_FUNCTION_U_SQUARED = 4'd1;  // U^2
  localparam logic [3:0] PROCTEX_MAPPING_FUNCTION_V = 4'd2;  // V
  localparam logic [3:0] PROCTEX_MAPPING_FUNCTION_V_SQUARED = 4'd3;  // V^2
  localparam logic [3:0] PROCTEX_MAPPING_FUNCTION_U_PLUS_V = 4'd4;  // (U + V) / 2
  localparam logic [3:0] PROCTEX_MAPPING_FUNCTION_U_SQUARED_PLUS_V_SQUARED = 4'd5;  // (U^2 + V^2) / 2
  localparam logic [3:0] PROCTEX_MAPPING_FUNCTION_SQRT = 4'd6;  // sqrt(U^2 + V^2)
  localparam logic [3:0] PROCTEX_MAPPING_FUNCTION_MIN = 4'd7;  // Minimum
  localparam logic [3:0] PROCTEX_MAPPING_FUNCTION_MAX = 4'd8;  // Maximum
  localparam logic [3:0] PROCTEX_MAPPING_FUNCTION_RMAX = 4'd9;  // Rmax

  // ProctexShift (Shift values, 2 bits)
  localparam logic [1:0] PROCTEX_SHIFT_NONE = 2'd0;  // None
  localparam logic [1:0] PROCTEX_SHIFT_ODD = 2'd1;  // Odd
  localparam logic [1:0] PROCTEX_SHIFT_EVEN = 2'd2;  // Even

  // ProctexMinFilter (Minification filter values, 3 bits)
  localparam logic [2:0] PROCTEX_MIN_FILTER_NEAREST = 3'd0;  // Nearest
  localparam logic [2:0] PROCTEX_MIN_FILTER_LINEAR = 3'd1;  // Linear
  localparam logic [2:0] PROCTEX_MIN_FILTER_NEAREST_MIPMAP_NEAREST = 3'd2;  // Nearest, Mipmap Nearest
  localparam logic [2:0] PROCTEX_MIN_FILTER_LINEAR_MIPMAP_NEAREST = 3'd3;  // Linear, Mipmap Nearest
  localparam logic [2:0] PROCTEX_MIN_FILTER_NEAREST_MIPMAP_LINEAR = 3'd4;  // Nearest, Mipmap Linear
  localparam logic [2:0] PROCTEX_MIN_FILTER_LINEAR_MIPMAP_LINEAR = 3'd5;  // Linear, Mipmap Linear

  // ProctexLutTable (Reference table values, 4 bits)
  localparam logic [3:0] PROCTEX_LUT_TABLE_NOISE = 4'd0;  // Noise table
  localparam logic [3:0] PROCTEX_LUT_TABLE_RGB_MAP = 4'd2;  // RGB mapping function table
  localparam logic [3:0] PROCTEX_LUT_TABLE_ALPHA_MAP = 4'd3;  // Alpha mapping function table
  localparam logic [3:0] PROCTEX_LUT_TABLE_COLOR = 4'd4;  // Color table
  localparam logic [3:0] PROCTEX_LUT_TABLE_COLOR_DIFF = 4'd5;  // Color difference table

  // TexenvSourceInput (Source values, 4 bits)
  localparam logic [3:0] TEXENV_SOURCE_INPUT_PRIMARY_COLOR = 4'd0;  // Primary color
  localparam logic [3:0] TEXENV_SOURCE_INPUT_FRAGMENT_PRIMARY_COLOR = 4'd1;  // Fragment primary color
  localparam logic [3:0] TEXENV_SOURCE_INPUT_FRAGMENT_SECONDARY_COLOR = 4'd2;  // Fragment secondary color
  localparam logic [3:0] TEXENV_SOURCE_INPUT_TEXTURE0 = 4'd3;  // Texture 0
  localparam logic [3:0] TEXENV_SOURCE_INPUT_TEXTURE1 = 4'd4;  // Texture 1
  localparam logic [3:0] TEXENV_SOURCE_INPUT_TEXTURE2 = 4'd5;  // Texture 2
  localparam logic [3:0] TEXENV_SOURCE_INPUT_TEXTURE3 = 4'd6;  // Texture 3
  localparam logic [3:0] TEXENV_SOURCE_INPUT_PREVIOUS_BUFFER = 4'd13;  // Previous buffer
  localparam logic [3:0] TEXENV_SOURCE_INPUT_CONSTANT = 4'd14;  // Constant (from GPUREG_TEXENVi_COLOR)
  localparam logic [3:0] TEXENV_SOURCE_INPUT_PREVIOUS = 4'd15;  // Previous

  // TexenvOperandRgb (RGB operand values, 4 bits)
  localparam logic [3:0] TEXENV_OPERAND_RGB_SOURCE_COLOR = 4'd0;  // Source color
  localparam logic [3:0] TEXENV_OPERAND_RGB_ONE_MINUS_SOURCE_COLOR = 4'd1;  // One minus source color
  localparam logic [3:0] TEXENV_OPERAND_RGB_SOURCE_ALPHA = 4'd2;  // Source alpha
  localparam logic [3:0] TEXENV_OPERAND_RGB_ONE_MINUS_SOURCE_ALPHA = 4'd3;  // One minus source alpha
  localparam logic [3:0] TEXENV_OPERAND_RGB_SOURCE_RED = 4'd4;  // Source red
  localparam logic [3:0] TEXENV_OPERAND_RGB_ONE_MINUS_SOURCE_RED = 4'd5;  // One minus source red
  localparam logic [3:0] TEXENV_OPERAND_RGB_SOURCE_GREEN = 4'd8;  // Source green
  localparam logic [3:0] TEXENV_OPERAND_RGB_ONE_MINUS_SOURCE_GREEN = 4'd9;  // One minus source green
  localparam logic [3:0] TEXENV_OPERAND_RGB_SOURCE_BLUE = 4'd12;  // Source blue
  localparam logic [3:0] TEXENV_OPERAND_RGB_ONE_MINUS_SOURCE_BLUE = 4'd13;  // One minus source blue

  // TexenvOperandAlpha (Alpha operand values, 3 bits)
  localparam logic [2:0] TEXENV_OPERAND_ALPHA_SOURCE_ALPHA = 3'd0;  // Source alpha
  localparam logic [2:0] TEXENV_OPERAND_ALPHA_ONE_MINUS_SOURCE_ALPHA = 3'd1;  // One minus source alpha
  localparam logic [2:0] TEXENV_OPERAND_ALPHA_SOURCE_RED = 3'd2;  // Source red
  localparam logic [2:0] TEXENV_OPERAND_ALPHA_ONE_MINUS_SOURCE_RED = 3'd3;  // One minus source red
  localparam logic [2:0] TEXENV_OPERAND_ALPHA_SOURCE_GREEN = 3'd4;  // Source green
  localparam logic [2:0] TEXENV_OPERAND_ALPHA_ONE_MINUS_SOURCE_GREEN = 3'd5;  // One minus source green
  localparam logic [2:0] TEXENV_OPERAND_ALPHA_SOURCE_BLUE = 3'd6;  // Source blue
  localparam logic [2:0] TEXENV_OPERAND_ALPHA_ONE_MINUS_SOURCE_BLUE = 3'd7;  // One minus source blue

  // TexenvCombinerMode (Combine values, 4 bits)
  localparam logic [3:0] TEXENV_COMBINER_MODE_REPLACE = 4'd0;  // Replace
  localparam logic [3:0] TEXENV_COMBINER_MODE_MODULATE = 4'd1;  // Modulate
  localparam logic [3:0] TEXENV_COMBINER_MODE_ADD = 4'd2;  // Add
  localparam logic [3:0] TEXENV_COMBINER_MODE_ADD_SIGNED = 4'd3;  // Add signed
  localparam logic [3:0] TEXENV_COMBINER_MODE_INTERPOLATE = 4'd4;  // Interpolate
  localparam logic [3:0] TEXENV_COMBINER_MODE_SUBTRACT = 4'd5;  // Subtract
  localparam logic [3:0] TEXENV_COMBINER_MODE_DOT3_RGB = 4'd6;  // Dot3 RGB
  localparam logic [3:0] TEXENV_COMBINER_MODE_DOT3_RGBA = 4'd7;  // Dot3 RGBA
  localparam logic [3:0] TEXENV_COMBINER_MODE_MULTIPLY_THEN_ADD = 4'd8;  // Multiply then add
  localparam logic [3:0] TEXENV_COMBINER_MODE_ADD_THEN_MULTIPLY = 4'd9;  // Add then multiply

  // TexenvScaleFactor (Scale values, 2 bits)
  localparam logic [1:0] TEXENV_SCALE_FACTOR_X1 = 2'd0;  // 1x
  localparam logic [1:0] TEXENV_SCALE_FACTOR_X2 = 2'd1;  // 2x
  localparam logic [1:0] TEXENV_SCALE_FACTOR_X4 = 2'd2;  // 4x

  // TexenvUpdateBufferFogMode (Fog mode values, 3 bits)
  localparam logic [2:0] TEXENV_UPDATE_BUFFER_FOG_MODE_DISABLED = 3'd0;  // Disabled
  localparam logic [2:0] TEXENV_UPDATE_BUFFER_FOG_MODE_FOG = 3'd5;  // Fog
  localparam logic [2:0] TEXENV_UPDATE_BUFFER_FOG_MODE_GAS = 3'd7;  // Gas

  // TexenvUpdateBufferDensitySource (Shading density source values, 1 bits)
  localparam logic [0:0] TEXENV_UPDATE_BUFFER_DENSITY_SOURCE_PLAIN_DENSITY = 1'd0;  // Plain density
  localparam logic [0:0] TEXENV_UPDATE_BUFFER_DENSITY_SOURCE_DEPTH_DENSITY = 1'd1;  // Depth density

  // TexenvUpdateBufferInput (Buffer input values, 1 bits)
  localparam logic [0:0] TEXENV_UPDATE_BUFFER_INPUT_PREVIOUS_BUFFER = 1'd0;  // Previous buffer
  localparam logic [0:0] TEXENV_UPDATE_BUFFER_INPUT_PREVIOUS = 1'd1;  // Previous

  // ColorOperationFragmentMode (Fragment operation mode values, 2 bits)
  localparam logic [1:0] COLOR_OPERATION_FRAGMENT_MODE_DEFAULT = 2'd0;  // Default
  localparam logic [1:0] COLOR_OPERATION_FRAGMENT_MODE_GAS = 2'd1;  // Gas
  localparam logic [1:0] COLOR_OPERATION_FRAGMENT_MODE_SHADOW = 2'd3;  // Shadow

  // ColorOperationBlendMode (Blend mode values, 1 bits)
  localparam logic [0:0] COLOR_OPERATION_BLEND_MODE_LOGIC_OP = 1'd0;  // Logic op
  localparam logic [0:0] COLOR_OPERATION_BLEND_MODE_BLEND = 1'd1;  // Blend

  // BlendFuncEquation (Equation values, 3 bits)
  localparam logic [2:0] BLEND_FUNC_EQUATION_ADD = 3'd0;  // Add
  localparam logic [2:0] BLEND_FUNC_EQUATION_SUBTRACT = 3'd1;  // Subtract
  localparam logic [2:0] BLEND_FUNC_EQUATION_REVERSE_SUBTRACT = 3'd2;  // Reverse subtract
  localparam logic [2:0] BLEND_FUNC_EQUATION_MIN = 3'd3;  // Minimum
  localparam logic [2:0] BLEND_FUNC_EQUATION_MAX = 3'd4;  // Maximum

  // BlendFuncFactor (Function values, 4 bits)
  localparam logic [3:0] BLEND_FUNC_FACTOR_ZERO = 4'd0;  // Zero
  localparam logic [3:0] BLEND_FUNC_FACTOR_ONE = 4'd1;  // One
  localparam logic [3:0] BLEND_FUNC_FACTOR_SOURCE_COLOR = 4'd2;  // Source color
  localparam logic [3:0] BLEND_FUNC_FACTOR_ONE_MINUS_SOURCE_COLOR = 4'd3;  // One minus source color
  localparam logic [3:0] BLEND_FUNC_FACTOR_DESTINATION_COLOR = 4'd4;  // Destination color
  localparam logic [3:0] BLEND_FUNC_FACTOR_ONE_MINUS_DESTINATION_COLOR = 4'd5;  // One minus destination color
  localparam logic [3:0] BLEND_FUNC_FACTOR_SOURCE_ALPHA = 4'd6;  // Source alpha
  localparam logic [3:0] BLEND_FUNC_FACTOR_ONE_MINUS_SOURCE_ALPHA = 4'd7;  // One minus source alpha
  localparam logic [3:0] BLEND_FUNC_FACTOR_DESTINATION_ALPHA = 4'd8;  // Destination alpha
  localparam logic [3:0] BLEND_FUNC_FACTOR_ONE_MINUS_DESTINATION_ALPHA = 4'd9;  // One minus destination alpha
  localparam logic [3:0] BLEND_FUNC_FACTOR_CONSTANT_COLOR = 4'd10;  // Constant color
  localparam logic [3:0] BLEND_FUNC_FACTOR_ONE_MINUS_CONSTANT_COLOR = 4'd11;  // One minus constant color
  localparam logic [3:0] BLEND_FUNC_FACTOR_CONSTANT_ALPHA = 4'd12;  // Constant alpha
  localparam logic [3:0] BLEND_FUNC_FACTOR_ONE_MINUS_CONSTANT_ALPHA = 4'd13;  // One minus constant alpha
  localparam logic [3:0] BLEND_FUNC_FACTOR_SOURCE_ALPHA_SATURATE = 4'd14;  // Source alpha saturate

  // LogicOpOperation (Logic op values, 4 bits)
  localparam logic [3:0] LOGIC_OP_OPERATION_CLEAR = 4'd0;  // Clear
  localparam logic [3:0] LOGIC_OP_OPERATION_AND = 4'd1;  // AND
  localparam logic [3:0] LOGIC_OP_OPERATION_REVERSE_AND = 4'd2;  // Reverse AND
  localparam logic [3:0] LOGIC_OP_OPERATION_COPY = 4'd3;  // Copy
  localparam logic [3:0] LOGIC_OP_OPERATION_SET = 4'd4;  // Set
  localparam logic [3:0] LOGIC_OP_OPERATION_INVERTED_COPY = 4'd5;  // Inverted copy
  localparam logic [3:0] LOGIC_OP_OPERATION_NOOP = 4'd6;  // Noop
  localparam logic [3:0] LOGIC_OP_OPERATION_INVERT = 4'd7;  // Invert
  localparam logic [3:0] LOGIC_OP_OPERATION_NAND = 4'd8;  // NAND
  localparam logic [3:0] LOGIC_OP_OPERATION_OR = 4'd9;  // OR
  localparam logic [3:0] LOGIC_OP_OPERATION_NOR = 4'd10;  // NOR
  localparam logic [3:0] LOGIC_OP_OPERATION_XOR = 4'd11;  // XOR
  localparam logic [3:0] LOGIC_OP_OPERATION_EQUIVALENT = 4'd12;  // Equivalent
  localparam logic [3:0] LOGIC_OP_OPERATION_INVERTED_AND = 4'd13;  // Inverted AND
  localparam logic [3:0] LOGIC_OP_OPERATION_REVERSE_OR = 4'd14;  // Reverse OR
  localparam logic [3:0] LOGIC_OP_OPERATION_INVERTED_OR = 4'd15;  // Inverted OR

  // CompareFunction (Function values, 3 bits)
  localparam logic [2:0] COMPARE_FUNCTION_NEVER = 3'd0;  // Never
  localparam logic [2:0] COMPARE_FUNCTION_ALWAYS = 3'd1;  // Always
  localparam logic [2:0] COMPARE_FUNCTION_EQUAL = 3'd2;  // Equal
  localparam logic [2:0] COMPARE_FUNCTION_NOT_EQUAL = 3'd3;  // Not equal
  localparam logic [2:0] COMPARE_FUNCTION_LESS = 3'd4;  // Less than
  localparam logic [2:0] COMPARE_FUNCTION_LESS_EQUAL = 3'd5;  // Less than or equal
  localparam logic [2:0] COMPARE_FUNCTION_GREATER = 3'd6;  // Greater than
  localparam logic [2:0] COMPARE_FUNCTION_GREATER_EQUAL = 3'd7;  // Greater than or equal

  // StencilOpAction (Operation values, 3 bits)
  localparam logic [2:0] STENCIL_OP_ACTION_KEEP = 3'd0;  // Keep
  localparam logic [2:0] STENCIL_OP_ACTION_ZERO = 3'd1;  // Zero
  localparam logic [2:0] STENCIL_OP_ACTION_REPLACE = 3'd2;  // Replace
  localparam logic [2:0] STENCIL_OP_ACTION_INCREMENT = 3'd3;  // Increment
  localparam logic [2:0] STENCIL_OP_ACTION_DECREMENT = 3'd4;  // Decrement
  localparam logic [2:0] STENCIL_OP_ACTION_INVERT = 3'd5;  // Invert
  localparam logic [2:0] STENCIL_OP_ACTION_INCREMENT_WRAP = 3'd6;  // Increment and wrap
  localparam logic [2:0] STENCIL_OP_ACTION_DECREMENT_WRAP = 3'd7;  // Decrement and wrap

  // DepthbufferFormatFormat (Format values, 2 bits)
  localparam logic [1:0] DEPTHBUFFER_FORMAT_FORMAT_D16 = 2'd0;  // 16-bit depth
  localparam logic [1:0] DEPTHBUFFER_FORMAT_FORMAT_D24 = 2'd2;  // 24-bit depth
  localparam logic [1:0] DEPTHBUFFER_FORMAT_FORMAT_D24_S8 = 2'd3;  // 24-bit depth + 8-bit stencil

  // ColorbufferFormatPixelSize (Pixel size values, 2 bits)
  localparam logic [1:0] COLORBUFFER_FORMAT_PIXEL_SIZE_BITS16 = 2'd0;  // 16-bit color
  localparam logic [1:0] COLORBUFFER_FORMAT_PIXEL_SIZE_BITS32 = 2'd2;  // 32-bit color

  // ColorbufferFormatFormat (Format values, 3 bits)
  localparam logic [2:0] COLORBUFFER_FORMAT_FORMAT_RGBA8 = 3'd0;  // RGBA8/Gas
  localparam logic [2:0] COLORBUFFER_FORMAT_FORMAT_RGB5A1 = 3'd2;  // RGB5A1
  localparam logic [2:0] COLORBUFFER_FORMAT_FORMAT_RGB565 = 3'd3;  // RGB565
  localparam logic [2:0] COLORBUFFER_FORMAT_FORMAT_RGBA4 = 3'd4;  // RGBA4

  // FramebufferBlock32Mode (Render block mode values, 1 bits)
  localparam logic [0:0] FRAMEBUFFER_BLOCK32_MODE_BLOCKS8X8 = 1'd0;  // 8x8 blocks
  localparam logic [0:0] FRAMEBUFFER_BLOCK32_MODE_BLOCKS32X32 = 1'd1;  // 32x32 blocks

  // GasLightZColorLutInput (Color LUT input values, 1 bits)
  localparam logic [0:0] GAS_LIGHT_Z_COLOR_LUT_INPUT_GAS_DENSITY = 1'd0;  // Gas density
  localparam logic [0:0] GAS_LIGHT_Z_COLOR_LUT_INPUT_LIGHT_FACTOR = 1'd1;  // Light factor

  // GasDeltazDepthFunction (Gas depth function values, 2 bits)
  localparam logic [1:0] GAS_DELTAZ_DEPTH_FUNCTION_NEVER = 2'd0;  // Never
  localparam logic [1:0] GAS_DELTAZ_DEPTH_FUNCTION_ALWAYS = 2'd1;  // Always
  localparam logic [1:0] GAS_DELTAZ_DEPTH_FUNCTION_GREATER = 2'd2;  // Greater than/Greater than or equal
  localparam logic [1:0] GAS_DELTAZ_DEPTH_FUNCTION_LESS = 2'd3;  // Less than/Less than or equal/Equal/Not equal

  // LightConfigType (Light type values (from the field description), 1 bits)
  localparam logic [0:0] LIGHT_CONFIG_TYPE_POSITIONAL = 1'd0;  // Positional light
  localparam logic [0:0] LIGHT_CONFIG_TYPE_DIRECTIONAL = 1'd1;  // Directional light

  // LightingConfig0FresnelSelector (Fresnel selector values, 2 bits)
  localparam logic [1:0] LIGHTING_CONFIG0_FRESNEL_SELECTOR_NONE = 2'd0;  // None
  localparam logic [1:0] LIGHTING_CONFIG0_FRESNEL_SELECTOR_PRIMARY_ALPHA = 2'd1;  // Primary alpha
  localparam logic [1:0] LIGHTING_CONFIG0_FRESNEL_SELECTOR_SECONDARY_ALPHA = 2'd2;  // Secondary alpha
  localparam logic [1:0] LIGHTING_CONFIG0_FRESNEL_SELECTOR_PRIMARY_AND_SECONDARY_ALPHA = 2'd3;  // Primary and secondary alpha

  // LightingConfig0LightEnv (Light environment configuration values, 4 bits)
  localparam logic [3:0] LIGHTING_CONFIG0_LIGHT_ENV_CONFIG0 = 4'd0;  // Configuration 0; available LUTs: D0, RR, SP, DA
  localparam logic [3:0] LIGHTING_CONFIG0_LIGHT_ENV_CONFIG1 = 4'd1;  // Configuration 1; available LUTs: FR, RR, SP, DA
  localparam logic [3:0] LIGHTING_CONFIG0_LIGHT_ENV_CONFIG2 = 4'd2;  // Configuration 2; available LUTs: D0, D1, RR, DA
  localparam logic [3:0] LIGHTING_CONFIG0_LIGHT_ENV_CONFIG3 = 4'd3;  // Configuration 3; available LUTs: D0, D1, FR, DA
  localparam logic [3:0] LIGHTING_CONFIG0_LIGHT_ENV_CONFIG4 = 4'd4;  // Configuration 4; available LUTs: All except for FR
  localparam logic [3:0] LIGHTING_CONFIG0_LIGHT_ENV_CONFIG5 = 4'd5;  // Configuration 5; available LUTs: All except for D1
  localparam logic [3:0] LIGHTING_CONFIG0_LIGHT_ENV_CONFIG6 = 4'd6;  // Configuration 6; available LUTs: All except for RB and RG
  localparam logic [3:0] LIGHTING_CONFIG0_LIGHT_ENV_CONFIG7 = 4'd8;  // Configuration 7; available LUTs: All

  // LightingConfig0BumpMode (Bump mode values, 2 bits)
  localparam logic [1:0] LIGHTING_CONFIG0_BUMP_MODE_NOT_USED = 2'd0;  // Not used
  localparam logic [1:0] LIGHTING_CONFIG0_BUMP_MODE_BUMP_MAP = 2'd1;  // Use as bump map
  localparam logic [1:0] LIGHTING_CONFIG0_BUMP_MODE_TANGENT_MAP = 2'd2;  // Use as tangent map

  // LightingLutIndexTable (Lookup table values, 5 bits)
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_D0 = 5'd0;  // D0
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_D1 = 5'd1;  // D1
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_FR = 5'd3;  // FR
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_RB = 5'd4;  // RB
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_RG = 5'd5;  // RG
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_RR = 5'd6;  // RR
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_SP0 = 5'd8;  // SP0
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_SP1 = 5'd9;  // SP1
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_SP2 = 5'd10;  // SP2
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_SP3 = 5'd11;  // SP3
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_SP4 = 5'd12;  // SP4
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_SP5 = 5'd13;  // SP5
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_SP6 = 5'd14;  // SP6
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_SP7 = 5'd15;  // SP7
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_DA0 = 5'd16;  // DA0
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_DA1 = 5'd17;  // DA1
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_DA2 = 5'd18;  // DA2
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_DA3 = 5'd19;  // DA3
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_DA4 = 5'd20;  // DA4
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_DA5 = 5'd21;  // DA5
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_DA6 = 5'd22;  // DA6
  localparam logic [4:0] LIGHTING_LUT_INDEX_TABLE_DA7 = 5'd23;  // DA7

  // LightingLutinputSelectInput (Input selector values, 3 bits)
  localparam logic [2:0] LIGHTING_LUTINPUT_SELECT_INPUT_N_DOT_H = 3'd0;  // N.H
  localparam logic [2:0] LIGHTING_LUTINPUT_SELECT_INPUT_V_DOT_H = 3'd1;  // V.H
  localparam logic [2:0] LIGHTING_LUTINPUT_SELECT_INPUT_N_DOT_V = 3'd2;  // N.V
  localparam logic [2:0] LIGHTING_LUTINPUT_SELECT_INPUT_L_DOT_N = 3'd3;  // L.N
  localparam logic [2:0] LIGHTING_LUTINPUT_SELECT_INPUT_NEG_L_DOT_P = 3'd4;  // -L.P (aka Spotlight aka SP)
  localparam logic [2:0] LIGHTING_LUTINPUT_SELECT_INPUT_COS_PHI = 3'd5;  // cos phi (aka CP)

  // LightingLutinputScaleFactor (Scaler selector values, 3 bits)
  localparam logic [2:0] LIGHTING_LUTINPUT_SCALE_FACTOR_X1 = 3'd0;  // 1x
  localparam logic [2:0] LIGHTING_LUTINPUT_SCALE_FACTOR_X2 = 3'd1;  // 2x
  localparam logic [2:0] LIGHTING_LUTINPUT_SCALE_FACTOR_X4 = 3'd2;  // 4x
  localparam logic [2:0] LIGHTING_LUTINPUT_SCALE_FACTOR_X8 = 3'd3;  // 8x
  localparam logic [2:0] LIGHTING_LUTINPUT_SCALE_FACTOR_QUARTER = 3'd6;  // 0.25x
  localparam logic [2:0] LIGHTING_LUTINPUT_SCALE_FACTOR_HALF = 3'd7;  // 0.5x

  // AttribFormatType (Vertex attribute type values, 2 bits)
  localparam logic [1:0] ATTRIB_FORMAT_TYPE_BYTE = 2'd0;  // Byte
  localparam logic [1:0] ATTRIB_FORMAT_TYPE_UNSIGNED_BYTE = 2'd1;  // Unsigned byte
  localparam logic [1:0] ATTRIB_FORMAT_TYPE_SHORT = 2'd2;  // Short
  localparam logic [1:0] ATTRIB_FORMAT_TYPE_FLOAT = 2'd3;  // Float

  // AttribFormatSize (Vertex attribute size values, 2 bits)
  localparam logic [1:0] ATTRIB_FORMAT_SIZE_COMPONENTS1 = 2'd0;  // 8 bits
  localparam logic [1:0] ATTRIB_FORMAT_SIZE_COMPONENTS2 = 2'd1;  // 16 bits
  localparam logic [1:0] ATTRIB_FORMAT_SIZE_COMPONENTS3 = 2'd2;  // 24 bits
  localparam logic [1:0] ATTRIB_FORMAT_SIZE_COMPONENTS4 = 2'd3;  // 32 bits

  // AttribbufferComponent (Component values, 4 bits)
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_ATTRIBUTE0 = 4'd0;  // Vertex attribute 0
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_ATTRIBUTE1 = 4'd1;  // Vertex attribute 1
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_ATTRIBUTE2 = 4'd2;  // Vertex attribute 2
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_ATTRIBUTE3 = 4'd3;  // Vertex attribute 3
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_ATTRIBUTE4 = 4'd4;  // Vertex attribute 4
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_ATTRIBUTE5 = 4'd5;  // Vertex attribute 5
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_ATTRIBUTE6 = 4'd6;  // Vertex attribute 6
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_ATTRIBUTE7 = 4'd7;  // Vertex attribute 7
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_ATTRIBUTE8 = 4'd8;  // Vertex attribute 8
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_ATTRIBUTE9 = 4'd9;  // Vertex attribute 9
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_ATTRIBUTE10 = 4'd10;  // Vertex attribute 10
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_ATTRIBUTE11 = 4'd11;  // Vertex attribute 11
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_PADDING4 = 4'd12;  // 4-byte padding
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_PADDING8 = 4'd13;  // 8-byte padding
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_PADDING12 = 4'd14;  // 12-byte padding
  localparam logic [3:0] ATTRIBBUFFER_COMPONENT_PADDING16 = 4'd15;  // 16-byte padding

  // IndexbufferConfigIndexType (Index type values (from the field description), 1 bits)
  localparam logic [0:0] INDEXBUFFER_CONFIG_INDEX_TYPE_U8 = 1'd0;  // Unsigned byte
  localparam logic [0:0] INDEXBUFFER_CONFIG_INDEX_TYPE_U16 = 1'd1;  // Unsigned short, or drawing arrays

  // GeostageConfigGsMode (Geometry shader mode values (from the field description), 2 bits)
  localparam logic [1:0] GEOSTAGE_CONFIG_GS_MODE_VERTEX_ONLY = 2'd0;  // Geometry shader not in use: all 4 shader units run the vertex shader
  localparam logic [1:0] GEOSTAGE_CONFIG_GS_MODE_GEOMETRY_SHADER = 2'd2;  // Geometry shader in use: unit 3 runs it, units 0-2 the vertex shader

  // StartDrawFunc0Mode (Mode values (from the field description), 1 bits)
  localparam logic [0:0] START_DRAW_FUNC0_MODE_DRAWING = 1'd0;  // Drawing
  localparam logic [0:0] START_DRAW_FUNC0_MODE_CONFIGURATION = 1'd1;  // Configuration

  // GshMisc1SubdivisionType (Subdivision type values (from the field description), 5 bits)
  localparam logic [4:0] GSH_MISC1_SUBDIVISION_TYPE_LOOP = 5'd2;  // Loop
  localparam logic [4:0] GSH_MISC1_SUBDIVISION_TYPE_CATMULL_CLARK = 5'd3;  // Catmull-Clark

  // PrimitiveConfigMode (Primitive mode value, 2 bits)
  localparam logic [1:0] PRIMITIVE_CONFIG_MODE_TRIANGLES = 2'd0;  // Triangles
  localparam logic [1:0] PRIMITIVE_CONFIG_MODE_TRIANGLE_STRIP = 2'd1;  // Triangle strip
  localparam logic [1:0] PRIMITIVE_CONFIG_MODE_TRIANGLE_FAN = 2'd2;  // Triangle fan
  localparam logic [1:0] PRIMITIVE_CONFIG_MODE_GEOMETRY_PRIMITIVE = 2'd3;  // Geometry primitive

  // ShInputbufferConfigGsUse (Geometry shader use values (from the field description), 8 bits)
  localparam logic [7:0] SH_INPUTBUFFER_CONFIG_GS_USE_USE = 8'd8;  // Geometry shader in use (0x08)
  localparam logic [7:0] SH_INPUTBUFFER_CONFIG_GS_USE_DONT_USE = 8'd160;  // Geometry shader not in use (0xA0); always for vertex shaders

  // ShFloatuniformIndexMode (Transfer mode values (from the field description), 1 bits)
  localparam logic [0:0] SH_FLOATUNIFORM_INDEX_MODE_F24 = 1'd0;  // float1.7.16: one vec4 in 3 words
  localparam logic [0:0] SH_FLOATUNIFORM_INDEX_MODE_F32 = 1'd1;  // float1.8.23: one vec4 in 4 words

  /* verilator lint_on UNUSEDPARAM */

endpackage : pica_regs_pkg
