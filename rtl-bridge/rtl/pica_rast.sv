// pica_rast: the rasterizer (RAST), transaction-exact with pica_model::rast (model/src/rast/):
// for every ScreenTri the same fragments in the same order, with every field bit-exact, the
// same early-depth buffer reads, writes and clears, whatever the early-depth port latency and
// the output backpressure. rtl/README.md "pica_rast_top" is the contract.
//
// One triangle at a time, one pixel at a time, an FSM around one f24 arithmetic pipeline that
// never stalls (every register loads every clock) and is shared by the set-up and the
// interpolation, so that no clock chains more than one pipeline step (rtl/README.md
// "pica_rast", docs/src/rtl.md "The FPGA flow"; until 2026-11-30 the set-up and the
// interpolation ran in single clocks, an estimated 4.0 MHz on the ECP5):
//
//   issue  one op a clock into the operand registers, with a tag (kind, destination)
//   MUL    3 x pica_f24_mul_p (a register behind the product, one behind the result)
//   DOT    add(add(m0, m1), m2): 2 x pica_f24_add_p (two registers in each, one behind each)
//   DIV    pica_f24_div_p (six steps of three quotient bits); the denominator joins here,
//          read from den / dsum / den' by tag (they were retired by earlier ops)
//   DRV    add(div, -attr_s): operand registers, pica_f24_add_p
// An op retires by its tag at the end of its kind's last stage: set-up products (MUL) into the
// attributes, den / dsum / den' (DOT) into their registers, depth and attributes (DIV), the
// texture-coordinate differences (DRV). Ops are issued in an order that makes every value an op
// reads at a later stage retired before it is read.
//
//   IDLE     takes a ScreenTri (x / y to 12.4 by pica_f24_to_fix12p4_p, vertices latched),
//            or serves a pending early-depth clear (CLR_REQ, CLR_RSP: op 2 on the port)
//   SET      5 clocks: twice the signed area (orientation, degenerate), the traversal rect
//            (RastConfig::traversal_rect); nothing to walk -> IDLE. The edge functions' start
//            values are set up meanwhile (pica_rast_edge)
//   SETUP_P  issues p_ks = mul(a_ks, q_k) for the three vertices, one semantic per clock
//            (Interpolator::new)
//   PIX      one pixel: scissor test, coverage (pica_rast_edge, stepped); not drawn -> the next
//            pixel (1 clock per pixel)
//   WGT      the pixel's weights and its neighbours' to f24 (pica_f24_from_int_p, weight_f24)
//   ISS      issues the fragment's ops: den, dsum, depth; (early depth on: WAIT_D for the
//            depth, RD_REQ, RD_RSP: read the stored value, compare; fail -> the next pixel);
//            with a texture unit on den' of the right and upper neighbours, the texture
//            coordinates, the twelve differences; the other semantics
//   DRAIN    until the last op retired
//   OUT      the fragment until out_ready_i
//   WR_REQ, WR_RSP   early depth test on: store the fragment's 24-bit depth (commit on send)
//
// UNVERIFIED(hw): the interpolation structure (attribute·q and q = 1/w interpolated with the
// barycentric weights, one division per semantic), its f24 precision (pica_f24_div truncates)
// and the forward differences of the texture coordinates are the model's choices
// (model/src/rast/interp.rs; the hardware's arithmetic is not public), as is the early-depth
// buffer's behaviour (model/src/rast/early.rs); this RTL follows the model, not a measurement.
//
// The early-depth port has one request outstanding at a time, and a pixel's read is issued
// after the previous fragment's write has been answered, so every read sees every earlier
// write and clear (the port answers in order).
module pica_rast (
  input  logic          clk_i,
  input  logic          rst_ni,

  // rast::CONFIG_REGS, register k at [32*k +: 32]: EARLYDEPTH_FUNC, EARLYDEPTH_TEST1,
  // SCISSORTEST_MODE, SCISSORTEST_POS, SCISSORTEST_DIM, EARLYDEPTH_DATA, DEPTHMAP_ENABLE,
  // TEXUNIT_CONFIG, DEPTHBUFFER_FORMAT, EARLYDEPTH_TEST2, FRAMEBUFFER_DIM. Read while a
  // triangle is in flight: change only while idle_o.
  input  logic [351:0]  cfg_i,
  // One-clock pulse: clear the early-depth buffer to EARLYDEPTH_DATA's clear value (as cfg_i
  // holds it in that clock); only while idle_o.
  input  logic          clear_i,

  // ScreenTri in: seq, per vertex k window x, y, depth-mapped z, 1/w at [24*k +: 24] and the
  // 24 semantics at [24*(24*k + s) +: 24].
  input  logic          in_valid_i,
  output logic          in_ready_o,
  input  logic [31:0]   in_seq_i,
  input  logic [71:0]   in_x_i,
  input  logic [71:0]   in_y_i,
  input  logic [71:0]   in_z_i,
  input  logic [71:0]   in_inv_w_i,
  input  logic [1727:0] in_v_i,

  // Fragments out, one per handshake, in the model's traversal order.
  output logic          out_valid_o,
  input  logic          out_ready_i,
  output logic [31:0]   out_tri_o,
  output logic [15:0]   out_x_o,
  output logic [15:0]   out_y_o,
  output logic [23:0]   out_depth_o,
  output logic [31:0]   out_color_o,
  output logic [575:0]  out_attr_o,
  output logic [287:0]  out_tex_deriv_o,

  // Early-depth buffer port: op 0 read (x, y), 1 write (x, y, data), 2 clear (data); one
  // response per request, in order, at least one clock later.
  output logic          ed_req_valid_o,
  input  logic          ed_req_ready_i,
  output logic [1:0]    ed_req_op_o,
  output logic [15:0]   ed_req_x_o,
  output logic [15:0]   ed_req_y_o,
  output logic [23:0]   ed_req_data_o,
  input  logic          ed_rsp_valid_i,
  output logic          ed_rsp_ready_o,
  input  logic [23:0]   ed_rsp_data_i,

  output logic          idle_o
);

  // ---------------------------------------------------------------- configuration fields
  localparam int SEdFunc   = 0;
  localparam int SEdTest1  = 1;
  localparam int SScMode   = 2;
  localparam int SScPos    = 3;
  localparam int SScDim    = 4;
  localparam int SEdData   = 5;
  localparam int SDmapEn   = 6;
  localparam int STexCfg   = 7;
  localparam int SDbFormat = 8;
  localparam int SEdTest2  = 9;
  localparam int SFbDim    = 10;

  // Only the fields RastConfig decodes are read.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [351:0] cfg;
  /* verilator lint_on UNUSEDSIGNAL */
  assign cfg = cfg_i;

  logic [1:0]  c_ed_func;
  logic        c_ed_test1, c_ed_test2, c_dmap_en;
  logic [1:0]  c_sc_mode, c_dfmt;
  logic [9:0]  c_sx1, c_sy1, c_sx2, c_sy2;
  logic [23:0] c_ed_clear;
  logic [31:0] c_texcfg;
  logic [10:0] c_width;
  logic [9:0]  c_hm1;

  assign c_ed_func  = cfg[32*SEdFunc + pica_regs_pkg::EARLYDEPTH_FUNC_FUNCTION_LSB +: 2];
  assign c_ed_test1 = cfg[32*SEdTest1 + pica_regs_pkg::EARLYDEPTH_TEST1_ENABLED_LSB];
  assign c_ed_test2 = cfg[32*SEdTest2 + pica_regs_pkg::EARLYDEPTH_TEST2_ENABLED_LSB];
  assign c_sc_mode  = cfg[32*SScMode + pica_regs_pkg::SCISSORTEST_MODE_MODE_LSB +: 2];
  assign c_sx1      = cfg[32*SScPos + pica_regs_pkg::SCISSORTEST_POS_X1_LSB +: 10];
  assign c_sy1      = cfg[32*SScPos + pica_regs_pkg::SCISSORTEST_POS_Y1_LSB +: 10];
  assign c_sx2      = cfg[32*SScDim + pica_regs_pkg::SCISSORTEST_DIM_X2_LSB +: 10];
  assign c_sy2      = cfg[32*SScDim + pica_regs_pkg::SCISSORTEST_DIM_Y2_LSB +: 10];
  assign c_ed_clear = cfg[32*SEdData + pica_regs_pkg::EARLYDEPTH_DATA_CLEAR_VALUE_LSB +: 24];
  assign c_dmap_en  = cfg[32*SDmapEn + pica_regs_pkg::DEPTHMAP_ENABLE_ENABLED_LSB];
  assign c_texcfg   = cfg[32*STexCfg +: 32];
  assign c_dfmt     = cfg[32*SDbFormat + pica_regs_pkg::DEPTHBUFFER_FORMAT_FORMAT_LSB +: 2];
  assign c_width    = cfg[32*SFbDim + pica_regs_pkg::FRAMEBUFFER_DIM_WIDTH_LSB +: 11];
  assign c_hm1      = cfg[32*SFbDim + pica_regs_pkg::FRAMEBUFFER_DIM_HEIGHT_MINUS_1_LSB +: 10];

  // ---------------------------------------------------------------- constants and guesses
  localparam logic [23:0] F24One  = 24'h3F0000;
  localparam logic [23:0] F24Sign = 24'h800000;

  // Scissor modes (rast::ScissorMode::from_field). UNVERIFIED(hw): mode 1 draws only the
  // pixels outside the box — model ScissorMode::Outside (Azahar regs_rasterizer.h
  // `Exclude = 1`); mode 2 is treated as disabled — model choice (1 and 3, the modes that
  // test, share bit 0, which 2 has clear).
  localparam logic [1:0] ScModeOutside = 2'd1;
  localparam logic [1:0] ScModeInside  = pica_regs_pkg::SCISSORTEST_MODE_MODE_ENABLED;
  // UNVERIFIED(hw): X2/Y2 are inclusive — model RastConfig::scissor (Azahar adds 1 to them,
  // drivers write the last pixel).
  localparam bit ScissorX2Y2Inclusive = 1'b1;
  // UNVERIFIED(hw): GPUREG_DEPTHBUFFER_FORMAT's undescribed value 1 gives 24-bit depths —
  // model config::RESERVED_DEPTH_FORMAT_BITS = 24 (D16 -> 16, D24 / D24S8 -> 24).
  localparam int ReservedDepthFormatBits = 24;
  localparam logic [1:0] DfmtD16 = pica_regs_pkg::DEPTHBUFFER_FORMAT_FORMAT_D16;
  localparam logic [1:0] DfmtReserved = 2'd1;
  // The early-depth buffer's values are 24-bit — model config::EARLY_DEPTH_BITS (seed 002's
  // GPUREG_EARLYDEPTH_DATA field).
  localparam int EarlyDepthBits = 24;
  // The GPUREG_TEXUNIT_CONFIG enable bits whose units take texture-coordinate differences:
  // units 0-2 and the procedural texture (bit 10) — model config::TEX_DERIV_UNITS.
  localparam logic [31:0] TexDerivUnits = 32'h0000_0407;
  // Early depth functions (seed 002): fragment FUNC stored.
  localparam logic [1:0] EdGreaterEqual = 2'd0;
  localparam logic [1:0] EdGreater      = 2'd1;
  localparam logic [1:0] EdLessEqual    = 2'd2;
  // Semantic indices (pipe::semantic): colour r, g, b, a; the texture coordinates whose
  // differences Interpolator::tex_deriv gives (TEX_DERIV_SEMANTICS: u, v of texcoord0, 1, 2).
  localparam int SemColor = 8;
  localparam int SemTex0U = 12;
  localparam int SemTex1U = 14;
  localparam int SemTex2U = 22;

  logic        sc_empty, sc_inside_mode, sc_outside_mode;
  logic [10:0] sc_x2, sc_y2;        // inclusive X2 / Y2, signed (exclusive: -1 possible)
  logic        early_on, tex_on, zbuffer, depth24;

  // UNVERIFIED(hw): the early depth test is on when GPUREG_EARLYDEPTH_TEST1 bit 0 and
  // GPUREG_EARLYDEPTH_TEST2 bit 0 are both set — model RastConfig::from_words (drivers
  // write the two together).
  assign early_on        = c_ed_test1 && c_ed_test2;
  assign tex_on          = (c_texcfg & TexDerivUnits) != 32'h0;
  // UNVERIFIED(hw): GPUREG_DEPTHMAP_ENABLE = 1 is the z-buffer (depth linear in screen space),
  // 0 the w-buffer — model DepthMode (Azahar `DepthBuffering { WBuffering = 0, ZBuffering = 1 }`).
  assign zbuffer         = c_dmap_en;
  assign depth24         = (c_dfmt == DfmtD16) ? 1'b0
                         : ((c_dfmt == DfmtReserved) ? (ReservedDepthFormatBits == 24) : 1'b1);
  // RastConfig::scissor_rect: empty when X2 < X1 or Y2 < Y1.
  assign sc_x2           = ScissorX2Y2Inclusive ? {1'b0, c_sx2} : {1'b0, c_sx2} - 11'd1;
  assign sc_y2           = ScissorX2Y2Inclusive ? {1'b0, c_sy2} : {1'b0, c_sy2} - 11'd1;
  assign sc_empty        = ($signed(sc_x2) < $signed({1'b0, c_sx1}))
                           || ($signed(sc_y2) < $signed({1'b0, c_sy1}));
  assign sc_inside_mode  = (c_sc_mode == ScModeInside);
  assign sc_outside_mode = (c_sc_mode == ScModeOutside);

  // ---------------------------------------------------------------- state
  typedef enum logic [3:0] {
    SIdle, SClrReq, SClrRsp, SSet, SSetupP, SPix, SWgt, SIss, SWaitD, SRdReq, SRdRsp, SDrain,
    SOut, SWrReq, SWrRsp
  } state_e;

  state_e        state_q, state_d;

  logic [31:0]   seq_q;
  logic [71:0]   z_q, inv_w_q;
  logic [1727:0] p_q;                 // the attributes, then p_ks = mul(a_ks, q_k)
  logic [10:0]   rx0_q, rx1_q;        // traversal rect
  logic [9:0]    ry1_q;               // (rows start at the first pixel's y)
  logic [10:0]   x_q;                 // the pixel
  logic [9:0]    y_q;
  logic [2:0]    cnt_q;               // SET: clocks since the triangle was taken
  logic [4:0]    s_q;                 // SETUP_P: semantic
  logic [5:0]    n_q;                 // ISS: the fragment's op
  logic [23:0]   den_q, dsum_q, denr_q, denu_q, depth_q;
  logic [575:0]  attr_q;
  logic [287:0]  deriv_q;
  logic          clr_pend_q;
  logic [23:0]   clr_val_q;

  // ---------------------------------------------------------------- input conversion
  // The two-clock converters load in the accept clock and the one after it, then hold the
  // triangle's 12.4 positions until the next one is taken.
  logic        fix_en;
  logic [47:0] vx, vy;
  for (genvar k = 0; k < 3; k++) begin : g_fix
    pica_f24_to_fix12p4_p u_fx (.clk_i, .en_i(fix_en), .a_i(in_x_i[24*k +: 24]),
                                .y_o(vx[16*k +: 16]));
    pica_f24_to_fix12p4_p u_fy (.clk_i, .en_i(fix_en), .a_i(in_y_i[24*k +: 24]),
                                .y_o(vy[16*k +: 16]));
  end

  // ---------------------------------------------------------------- set-up: the rect
  // TriSetup::bbox: columns ceil((min_x - 8) / 16) ..= floor((max_x - 8) / 16), rows likewise;
  // then RastConfig::traversal_rect. All 18-bit signed (coordinates are 16-bit). Registered
  // twice (the box, then the box clipped), free-running from the held positions.
  function automatic logic signed [17:0] min3(input logic [47:0] v);
    logic signed [17:0] a, b, c, m;
    a = 18'($signed(v[15:0]));
    b = 18'($signed(v[31:16]));
    c = 18'($signed(v[47:32]));
    m = (a < b) ? a : b;
    min3 = (c < m) ? c : m;
  endfunction

  function automatic logic signed [17:0] max3(input logic [47:0] v);
    logic signed [17:0] a, b, c, m;
    a = 18'($signed(v[15:0]));
    b = 18'($signed(v[31:16]));
    c = 18'($signed(v[47:32]));
    m = (a > b) ? a : b;
    max3 = (c > m) ? c : m;
  endfunction

  function automatic logic signed [17:0] smax(input logic signed [17:0] a,
                                              input logic signed [17:0] b);
    smax = (a > b) ? a : b;
  endfunction

  function automatic logic signed [17:0] smin(input logic signed [17:0] a,
                                              input logic signed [17:0] b);
    smin = (a < b) ? a : b;
  endfunction

  logic signed [17:0] bb_x0_q, bb_x1_q, bb_y0_q, bb_y1_q, fb_x0, fb_x1, fb_y0, fb_y1;
  logic signed [17:0] tr_x0_q, tr_x1_q, tr_y0_q, tr_y1_q;
  logic               rect_empty, area_neg, area_zero;

  // The framebuffer (GPUREG_FRAMEBUFFER_DIM): columns 0 ..= width - 1, rows 0 ..= height - 1.
  // UNVERIFIED(hw): GPUREG_RENDERBUF_DIM is not read — model RastConfig::from_words.
  assign fb_x0 = smax(bb_x0_q, 18'sd0);
  assign fb_y0 = smax(bb_y0_q, 18'sd0);
  assign fb_x1 = smin(bb_x1_q, 18'($signed({1'b0, c_width})) - 18'sd1);
  assign fb_y1 = smin(bb_y1_q, 18'($signed({1'b0, c_hm1})));

  always_ff @(posedge clk_i) begin
    bb_x0_q <= ((min3(vx) - 18'sd9) >>> 4) + 18'sd1;
    bb_y0_q <= ((min3(vy) - 18'sd9) >>> 4) + 18'sd1;
    bb_x1_q <= (max3(vx) - 18'sd8) >>> 4;
    bb_y1_q <= (max3(vy) - 18'sd8) >>> 4;
    tr_x0_q <= sc_inside_mode ? smax(fb_x0, 18'($signed({1'b0, c_sx1}))) : fb_x0;
    tr_y0_q <= sc_inside_mode ? smax(fb_y0, 18'($signed({1'b0, c_sy1}))) : fb_y0;
    tr_x1_q <= sc_inside_mode ? smin(fb_x1, 18'($signed(sc_x2))) : fb_x1;
    tr_y1_q <= sc_inside_mode ? smin(fb_y1, 18'($signed(sc_y2))) : fb_y1;
  end

  assign rect_empty = area_zero || (c_width == 11'd0) || (sc_inside_mode && sc_empty)
                      || (tr_x0_q > tr_x1_q) || (tr_y0_q > tr_y1_q);

  // ---------------------------------------------------------------- edges, weights
  logic [107:0] b_here, b_right, b_up;
  logic         covered, load_edge, step_x, step_row;

  pica_rast_edge u_edge (
    .clk_i, .rst_ni, .vx_i(vx), .vy_i(vy), .x0_i(tr_x0_q[10:0]), .y0_i(tr_y0_q[9:0]),
    .load_i(load_edge), .step_x_i(step_x), .step_row_i(step_row),
    .area_neg_o(area_neg), .area_zero_o(area_zero),
    .b_o(b_here), .b_right_o(b_right), .b_up_o(b_up), .covered_o(covered)
  );

  // The f24 weights of the pixel, its right and its upper neighbour, two clocks after the
  // edge values (which hold while the pixel is worked on).
  logic [71:0] wh, wr, wu;
  for (genvar k = 0; k < 3; k++) begin : g_wf
    pica_f24_from_int_p u_wh (.clk_i, .en_i(1'b1), .a_i(b_here[36*k +: 36]),
                              .y_o(wh[24*k +: 24]));
    pica_f24_from_int_p u_wr (.clk_i, .en_i(1'b1), .a_i(b_right[36*k +: 36]),
                              .y_o(wr[24*k +: 24]));
    pica_f24_from_int_p u_wu (.clk_i, .en_i(1'b1), .a_i(b_up[36*k +: 36]),
                              .y_o(wu[24*k +: 24]));
  end

  // ---------------------------------------------------------------- per-pixel tests
  logic sc_box, sc_pass, last_x, last_y;

  // RastConfig::scissor_passes.
  assign sc_box  = !sc_empty && ({1'b0, c_sx1} <= x_q) && (x_q <= sc_x2)
                   && ({1'b0, c_sy1} <= {1'b0, y_q}) && ({1'b0, y_q} <= sc_y2);
  assign sc_pass = sc_inside_mode ? sc_box : (sc_outside_mode ? !sc_box : 1'b1);
  assign last_x  = (x_q == rx1_q);
  assign last_y  = (y_q == ry1_q);

  // ---------------------------------------------------------------- the ops
  // Kinds, and where each retires (the stage number of its tag, counted from the operand
  // registers = 1).
  localparam logic [1:0] KMul = 2'd0;   // p_ks: retires at 3 (the products)
  localparam logic [1:0] KDot = 2'd1;   // den, dsum, den' right / up: at 9 (the dot product)
  localparam logic [1:0] KDiv = 2'd2;   // depth, attr_s: at 15 (the quotient)
  localparam logic [1:0] KDrv = 2'd3;   // a difference: at 18 (the difference)
  localparam int StMul = 3;
  localparam int StDot = 9;
  localparam int StDiv = 15;
  localparam int StDrv = 18;
  localparam int NSt   = 18;
  // KDot destinations; the KDiv destination of the depth (the others are the semantic).
  localparam logic [4:0] DDen = 5'd0, DDsum = 5'd1, DDenR = 5'd2, DDenU = 5'd3;
  localparam logic [4:0] DDepth = 5'd24;
  // Operand selects: weights of the pixel, its right or its upper neighbour; the other lane
  // q = 1/w, 1.0, z or the semantic's p.
  localparam logic [1:0] AHere = 2'd0, ARight = 2'd1, AUp = 2'd2;
  localparam logic [1:0] BInvW = 2'd0, BOne = 2'd1, BZ = 2'd2, BP = 2'd3;
  // The fragment's ops (n_q): 0 den, 1 dsum, 2 depth (the early-depth test waits after it),
  // then without a texture unit the 24 semantics in order (3-26). With one: 3 den' right,
  // 4 den' up, 5-10 the six texture coordinates, 11-22 their differences (right k = 0-5, then
  // up), 23-40 the other 18 semantics: a difference reads its coordinate when its quotient is
  // done, and the differences' longer tail is hidden behind the last semantics.
  localparam logic [5:0] NDepth = 6'd2;
  localparam logic [5:0] NLastNoTex = 6'd26;
  localparam logic [5:0] NLastTex = 6'd40;

  function automatic logic [4:0] sem_of(input logic [2:0] k);   // texture value k -> semantic
    unique case (k[2:1])
      2'd0:    sem_of = 5'(SemTex0U) + {4'd0, k[0]};
      2'd1:    sem_of = 5'(SemTex1U) + {4'd0, k[0]};
      default: sem_of = 5'(SemTex2U) + {4'd0, k[0]};
    endcase
  endfunction

  // Word `sel` of 24 as an AND-OR of decoded selects (an index computed as 24 * sel became a
  // multiplier block and an adder in front of the select, the worst path). A function, so that
  // the accumulator is no variable of an always_comb: Icarus 11 keeps waking an always_comb
  // that reads a variable it writes, and the block's '0-then-OR toggled that variable in every
  // run, so the RAST replays under Icarus never left the first pixel's time step.
  function automatic logic [23:0] pick24(input logic [575:0] words, input logic [4:0] sel);
    pick24 = '0;
    for (int s = 0; s < 24; s++) pick24 = pick24 | ({24{sel == 5'(s)}} & words[24*s +: 24]);
  endfunction

  // {kind, destination, a select, b select, the semantic of p}
  function automatic logic [15:0] op_of(input logic [5:0] n, input logic tex);
    logic [5:0] j, d;
    logic [4:0] s;
    j = n - 6'd23;
    d = n - 6'd11;
    if (n == 6'd0) op_of = {KDot, DDen, AHere, BInvW, 5'd0};
    else if (n == 6'd1) op_of = {KDot, DDsum, AHere, BOne, 5'd0};
    else if (n == NDepth) op_of = {KDiv, DDepth, AHere, BZ, 5'd0};
    else if (!tex) op_of = {KDiv, 5'(n - 6'd3), AHere, BP, 5'(n - 6'd3)};
    else if (n == 6'd3) op_of = {KDot, DDenR, ARight, BInvW, 5'd0};
    else if (n == 6'd4) op_of = {KDot, DDenU, AUp, BInvW, 5'd0};
    else if (n < 6'd11) begin
      s = sem_of(3'(n - 6'd5));
      op_of = {KDiv, s, AHere, BP, s};
    end else if (n < 6'd23) begin
      // Destination {up, k}: the difference slot 4 * t + c is {k[2:1], up, k[0]}.
      op_of = (d < 6'd6) ? {KDrv, 2'b00, 3'(d), ARight, BP, sem_of(3'(d))}
                         : {KDrv, 2'b01, 3'(d - 6'd6), AUp, BP, sem_of(3'(d - 6'd6))};
    end else begin
      // The other semantics: 0-11, 16-21.
      s = (j < 6'd12) ? 5'(j) : 5'(j + 6'd4);
      op_of = {KDiv, s, AHere, BP, s};
    end
  endfunction

  logic        iss;                   // an op is issued this clock
  logic [15:0] op_d, op_q;
  logic [1:0]  op_kind, op_asel, op_bsel;
  logic [4:0]  op_dst, op_sem, s_d;
  logic [5:0]  n_d;
  logic        mul_next;

  // The op is decoded a clock ahead, from the counters as they will be, so that the operand
  // selects (24-way for p, with a large fanout) start from a register. SETUP_P follows SET
  // (a rejected triangle's MUL op is never issued: IDLE does not issue) and runs to s = 23.
  always_comb begin
    s_d = s_q;
    n_d = n_q;
    if (state_q == SSet) s_d = '0;
    else if (state_q == SSetupP) s_d = s_q + 5'd1;
    if (state_q == SWgt) n_d = '0;
    else if (state_q == SIss) n_d = n_q + 6'd1;
  end
  assign mul_next = (state_q == SSet) || (state_q == SSetupP && s_q != 5'd23);
  assign op_d = mul_next ? {KMul, s_d, AHere, BInvW, s_d} : op_of(n_d, tex_on);
  assign {op_kind, op_dst, op_asel, op_bsel, op_sem} = op_q;
  assign iss = (state_q == SSetupP) || (state_q == SIss);

  // Tags, stage k at [8*k +: 8]: {valid, kind, destination}. An op's tag leaves the pipe
  // where it retires.
  logic [8*(NSt+1)-1:0] tag_q;       // stage 0: the op issued this clock
  logic [8*NSt-1:0]     tagr_q;      // stages 1 ..= NSt
  logic [NSt:1]         tv, ret;
  logic                 busy, busy_next;
  for (genvar k = 1; k <= NSt; k++) begin : g_tag
    logic [1:0] kind;
    assign tv[k] = tag_q[8*k + 7];
    assign kind  = tag_q[8*k + 5 +: 2];
    assign ret[k] = tv[k] && ((k == StMul && kind == KMul) || (k == StDot && kind == KDot)
                              || (k == StDiv && kind == KDiv) || (k == StDrv && kind == KDrv));
  end
  assign tag_q = {tagr_q, iss, op_kind, op_dst};
  // Something in flight; something still in flight after this clock.
  assign busy      = |tv;
  assign busy_next = |(tv & ~ret);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tagr_q <= '0;
    end else begin
      tagr_q[7:0] <= tag_q[7:0];
      for (int k = 2; k <= NSt; k++) begin
        tagr_q[8*(k-1) +: 8] <= {tv[k-1] && !ret[k-1], tag_q[8*(k-1) +: 7]};
      end
    end
  end

  // ---- operands (stage 1)
  logic [71:0] opa_d, opb_d, opa_q, opb_q;
  for (genvar k = 0; k < 3; k++) begin : g_opnd
    logic [23:0] pv, bv;
    // The semantic's p as an AND-OR of 24 decoded words: an index computed as 24 * sem
    // became a multiplier block and an adder in front of the select (the worst path).
    assign pv = pick24(p_q[576*k +: 576], op_sem);
    always_comb begin
      unique case (op_bsel)
        BInvW:   bv = inv_w_q[24*k +: 24];
        BOne:    bv = F24One;
        BZ:      bv = z_q[24*k +: 24];
        default: bv = pv;
      endcase
    end
`ifdef INJECT_RAST_PERSP
    // The bug: texcoord0.u is interpolated in screen space, dot(B, a) / dot(B, 1), from the
    // raw attribute (kept aside at setup) instead of perspective-correct.
    logic [23:0] a12_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) a12_q <= '0;
      else if (state_q == SIdle && in_valid_i && in_ready_o)
        a12_q <= in_v_i[24*(24*k + SemTex0U) +: 24];
    end
    assign opb_d[24*k +: 24] = (op_kind == KDiv && op_dst == 5'(SemTex0U)) ? a12_q : bv;
`else
    assign opb_d[24*k +: 24] = bv;
`endif
    // SETUP_P: mul(a_ks, q_k), the attribute on the a side as in Interpolator::new.
    assign opa_d[24*k +: 24] = (op_kind == KMul) ? pv
                             : (op_asel == ARight) ? wr[24*k +: 24]
                             : (op_asel == AUp) ? wu[24*k +: 24] : wh[24*k +: 24];
  end

  always_ff @(posedge clk_i) begin
    opa_q <= opa_d;
    opb_q <= opb_d;
  end

  // ---- MUL (stages 2-3)
  logic [71:0] prod, prod_q;
  for (genvar k = 0; k < 3; k++) begin : g_mul
    pica_f24_mul_p #(.Reg(1'b1)) u_mul (
      .clk_i, .en_i(1'b1), .a_i(opa_q[24*k +: 24]), .b_i(opb_q[24*k +: 24]),
      .y_o(prod[24*k +: 24])
    );
  end

  // ---- DOT (stages 4-9): the left-to-right sum of alu::dot
  logic [23:0] sum01, sum01_q, p2_d1_q, p2_d2_q, p2_d3_q, dot, dot_q;
  pica_f24_add_p #(.RegA(1'b1), .RegB(1'b1)) u_add01 (
    .clk_i, .en_i(1'b1), .a_i(prod_q[23:0]), .b_i(prod_q[47:24]), .y_o(sum01)
  );
  pica_f24_add_p #(.RegA(1'b1), .RegB(1'b1)) u_add2 (
    .clk_i, .en_i(1'b1), .a_i(sum01_q), .b_i(p2_d3_q), .y_o(dot)
  );

  always_ff @(posedge clk_i) begin
    prod_q  <= prod;
    p2_d1_q <= prod_q[71:48];
    p2_d2_q <= p2_d1_q;
    p2_d3_q <= p2_d2_q;
    sum01_q <= sum01;
    dot_q   <= dot;
  end

  // ---- DIV (stages 10-15): the denominator by the tag at stage 9
  logic [1:0]  t9_kind;
  logic [4:0]  t9_dst;
  logic [23:0] div_den, div_y;
  assign {t9_kind, t9_dst} = tag_q[8*StDot +: 7];
  always_comb begin
    if (t9_kind == KDrv) div_den = t9_dst[3] ? denu_q : denr_q;
    else if (t9_dst == DDepth) div_den = zbuffer ? dsum_q : den_q;
`ifdef INJECT_RAST_PERSP
    else if (t9_dst == 5'(SemTex0U)) div_den = dsum_q;
`endif
    else div_den = den_q;
  end

  pica_f24_div_p u_div (.clk_i, .en_i(1'b1), .a_i(dot_q), .b_i(div_den), .y_o(div_y));

  // ---- DRV (stages 16-18): Interpolator::tex_deriv, add(semantic at the neighbour,
  // -semantic here); the coordinate's quotient retired at least a clock before.
  logic [1:0]  t15_kind;
  logic [4:0]  t15_dst;
  logic [23:0] here_s, drv_a_q, drv_b_q, drv_y;
  assign {t15_kind, t15_dst} = tag_q[8*StDiv +: 7];
  // The six texture coordinates decoded (no computed index: see pick24).
  logic [575:0] tex_words;
  for (genvar j = 0; j < 24; j++) begin : g_texw
    if (j < 6) begin : g_w
      assign tex_words[24*j +: 24] = attr_q[24*sem_of(3'(j)) +: 24];
    end else begin : g_z
      assign tex_words[24*j +: 24] = '0;
    end
  end
  assign here_s = pick24(tex_words, {2'b00, t15_dst[2:0]});

  always_ff @(posedge clk_i) begin
    drv_a_q <= div_y;
    drv_b_q <= here_s ^ F24Sign;
  end

  pica_f24_add_p #(.RegA(1'b1), .RegB(1'b1)) u_add_drv (
    .clk_i, .en_i(1'b1), .a_i(drv_a_q), .b_i(drv_b_q), .y_o(drv_y)
  );

  // ---- retirement
  logic [1:0] t3_kind, t18_kind;
  logic [4:0] t3_dst, t18_dst;
  logic [3:0] dslot;
  assign {t3_kind, t3_dst}   = tag_q[8*StMul +: 7];
  assign {t18_kind, t18_dst} = tag_q[8*StDrv +: 7];
  // Destination {up, k}: texcoord t = k / 2, component (k % 2) + 2 * up.
  assign dslot = {t18_dst[2:1], t18_dst[3], t18_dst[0]};

  // ---------------------------------------------------------------- depth and colour
  logic [23:0] early_depth_q, frag_depth_q, early_depth, frag_depth;
  logic        ed_pass;

  pica_f24_to_depth u_depth_early (.a_i(depth_q), .bits24_i(EarlyDepthBits == 24),
                                   .y_o(early_depth));
  pica_f24_to_depth u_depth_frag (.a_i(depth_q), .bits24_i(depth24), .y_o(frag_depth));

  // Registered: the depth retires at least a clock before RD_REQ and OUT read them.
  always_ff @(posedge clk_i) begin
    early_depth_q <= early_depth;
    frag_depth_q  <= frag_depth;
  end

  // EarlyDepthFunc::passes(fragment, stored).
  always_comb begin
    unique case (c_ed_func)
      EdGreaterEqual: ed_pass = (early_depth_q >= ed_rsp_data_i);
      EdGreater:      ed_pass = (early_depth_q > ed_rsp_data_i);
      EdLessEqual:    ed_pass = (early_depth_q <= ed_rsp_data_i);
      default:        ed_pass = (early_depth_q < ed_rsp_data_i);
    endcase
  end

  for (genvar c = 0; c < 4; c++) begin : g_color
    pica_f24_to_color u_color (.a_i(attr_q[24*(SemColor + c) +: 24]),
                               .y_o(out_color_o[8*c +: 8]));
  end

  // ---------------------------------------------------------------- FSM
  logic accept, advance_done;
  logic [5:0] n_last;

  // A new triangle's attributes are written over p only when no set-up product is in flight.
  assign in_ready_o   = (state_q == SIdle) && !clr_pend_q && !clear_i && !busy;
  assign accept       = in_valid_i && in_ready_o;
  assign advance_done = last_x && last_y;
  assign n_last       = tex_on ? NLastTex : NLastNoTex;
  assign fix_en       = accept || (state_q == SSet && cnt_q == 3'd0);

  // The state after the current pixel: the next one of the rect, or IDLE after the last.
  state_e after_pixel;
  always_comb begin
    if (advance_done) after_pixel = SIdle;
    else after_pixel = SPix;
  end

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      SIdle: begin
        if (clr_pend_q) state_d = SClrReq;
        else if (accept) state_d = SSet;
      end
      SClrReq: if (ed_req_ready_i) state_d = SClrRsp;
      SClrRsp: if (ed_rsp_valid_i) state_d = SIdle;
      // The area and the rect are there 5 clocks after the take (cnt_q = 4).
      SSet: begin
        if (cnt_q == 3'd4) begin
          if (rect_empty) state_d = SIdle;
          else state_d = SSetupP;
        end
      end
      SSetupP: if (s_q == 5'd23) state_d = SPix;
      SPix: begin
        if (sc_pass && covered) state_d = SWgt;
        else state_d = after_pixel;
      end
      SWgt: state_d = SIss;
      SIss: begin
        if (n_q == NDepth && early_on) state_d = SWaitD;
        else if (n_q == n_last) state_d = SDrain;
      end
      SWaitD: if (!busy_next) state_d = SRdReq;
      SRdReq: if (ed_req_ready_i) state_d = SRdRsp;
      SRdRsp: begin
        if (ed_rsp_valid_i) begin
          if (ed_pass) state_d = SIss;
          else state_d = after_pixel;
        end
      end
      SDrain: if (!busy_next) state_d = SOut;
      SOut: begin
        if (out_ready_i) begin
          if (early_on) state_d = SWrReq;
          else state_d = after_pixel;
        end
      end
      SWrReq:  if (ed_req_ready_i) state_d = SWrRsp;
      SWrRsp:  if (ed_rsp_valid_i) state_d = after_pixel;
      default: state_d = SIdle;
    endcase
  end

  // The walk: the first pixel when SETUP_P ends, then one step per pixel left.
  logic next_pixel;
  assign next_pixel = (state_d == SPix) && (state_q != SSetupP);
  assign load_edge  = (state_q == SSetupP) && (state_d == SPix);
  assign step_x     = next_pixel && !last_x;
  assign step_row   = next_pixel && last_x;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= SIdle;
      seq_q      <= '0;
      z_q        <= '0;
      inv_w_q    <= '0;
      p_q        <= '0;
      rx0_q      <= '0;
      rx1_q      <= '0;
      ry1_q      <= '0;
      x_q        <= '0;
      y_q        <= '0;
      cnt_q      <= '0;
      s_q        <= '0;
      n_q        <= '0;
      op_q       <= '0;
      den_q      <= '0;
      dsum_q     <= '0;
      denr_q     <= '0;
      denu_q     <= '0;
      depth_q    <= '0;
      attr_q     <= '0;
      deriv_q    <= '0;
      clr_pend_q <= 1'b0;
      clr_val_q  <= '0;
    end else begin
      state_q <= state_d;
      s_q     <= s_d;
      n_q     <= n_d;
      op_q    <= op_d;

      // Early-depth clear: pending from the pulse until its request is taken.
      if (clear_i) begin
        clr_pend_q <= 1'b1;
        clr_val_q  <= c_ed_clear;
      end else if (state_q == SClrReq && ed_req_ready_i) begin
        clr_pend_q <= 1'b0;
      end

      unique case (state_q)
        SIdle: begin
          if (accept) begin
            seq_q   <= in_seq_i;
            z_q     <= in_z_i;
            inv_w_q <= in_inv_w_i;
            p_q     <= in_v_i;
            cnt_q   <= '0;
          end
        end
        SSet: begin
          cnt_q <= cnt_q + 3'd1;
          rx0_q <= tr_x0_q[10:0];
          rx1_q <= tr_x1_q[10:0];
          ry1_q <= tr_y1_q[9:0];
          x_q   <= tr_x0_q[10:0];
          y_q   <= tr_y0_q[9:0];
        end
        default: ;
      endcase

      // Retirement by tag.
      // Writes decoded per destination word (no computed index: see pick24).
      for (int s = 0; s < 24; s++) begin
        if (tv[StMul] && t3_kind == KMul && t3_dst == 5'(s)) begin
          for (int k = 0; k < 3; k++) p_q[24*(24*k + s) +: 24] <= prod_q[24*k +: 24];
        end
      end
      if (tv[StDot] && t9_kind == KDot) begin
        unique case (t9_dst[1:0])
          2'd0:    den_q  <= dot_q;
          2'd1:    dsum_q <= dot_q;
          2'd2:    denr_q <= dot_q;
          default: denu_q <= dot_q;
        endcase
      end
      if (tv[StDiv] && t15_kind == KDiv) begin
        if (t15_dst == DDepth) depth_q <= div_y;
        for (int s = 0; s < 24; s++) begin
          if (t15_dst == 5'(s)) attr_q[24*s +: 24] <= div_y;
        end
      end
      for (int j = 0; j < 12; j++) begin
        if (tv[StDrv] && t18_kind == KDrv && dslot == 4'(j)) deriv_q[24*j +: 24] <= drv_y;
      end

      // The next pixel of the rect.
      if (next_pixel) begin
        if (!last_x) begin
          x_q <= x_q + 11'd1;
        end else begin
          x_q <= rx0_q;
          y_q <= y_q + 10'd1;
        end
      end
    end
  end

  // ---------------------------------------------------------------- outputs
  assign out_valid_o     = (state_q == SOut);
  assign out_tri_o       = seq_q;
  assign out_x_o         = {5'd0, x_q};
  assign out_y_o         = {6'd0, y_q};
  assign out_depth_o     = frag_depth_q;
  assign out_attr_o      = attr_q;
  // All zero unless a texture unit is on (RastConfig::tex_deriv).
  assign out_tex_deriv_o = tex_on ? deriv_q : 288'h0;

  assign ed_req_valid_o = (state_q == SRdReq) || (state_q == SWrReq) || (state_q == SClrReq);
  assign ed_req_op_o    = (state_q == SClrReq) ? 2'd2 : ((state_q == SWrReq) ? 2'd1 : 2'd0);
  assign ed_req_x_o     = {5'd0, x_q};
  assign ed_req_y_o     = {6'd0, y_q};
  assign ed_req_data_o  = (state_q == SClrReq) ? clr_val_q
                        : ((state_q == SWrReq) ? early_depth_q : 24'h0);
  assign ed_rsp_ready_o = 1'b1;

  assign idle_o = (state_q == SIdle) && !clr_pend_q && !busy;

  // Rect bits above the framebuffer's range are never set once the rect is not empty; the
  // tag's destination of the last stages is read only in part.
  logic unused_bits;
  assign unused_bits = ^{tr_x0_q[17:11], tr_x1_q[17:11], tr_y0_q[17:10], tr_y1_q[17:10],
                         area_neg, t18_dst[4]};

`ifndef SYNTHESIS
  logic [351:0] cfg_seen_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_seen_q <= '0;
    end else begin
      cfg_seen_q <= cfg_i;
      if (ed_rsp_valid_i && !(state_q == SRdRsp || state_q == SWrRsp || state_q == SClrRsp))
        $error("pica_rast: early-depth response with no request outstanding (state %0d)",
               state_q);
      if (clear_i && !idle_o)
        $error("pica_rast: early-depth clear while busy");
      if (!idle_o && state_q != SIdle && cfg_i != cfg_seen_q)
        $error("pica_rast: configuration changed with a triangle in flight");
    end
  end
`endif

endmodule : pica_rast
