// pica_rast: the rasterizer (RAST), transaction-exact with pica_model::rast (model/src/rast/):
// for every ScreenTri the same fragments in the same order, with every field bit-exact, the
// same early-depth buffer reads, writes and clears, whatever the early-depth port latency and
// the output backpressure. rtl/README.md "pica_rast_top" is the contract.
//
// One triangle at a time, one pixel at a time: a multi-cycle FSM around one f24 datapath
// (a three-lane dot product, one divider, one adder):
//
//   IDLE     takes a ScreenTri (positions to 12.4 by pica_f24_to_fix12p4, vertices latched),
//            or serves a pending early-depth clear (CLR_REQ, CLR_RSP: op 2 on the port)
//   EDGE     twice the signed area (E_0 at v0) -> orientation and the fill rule's owned edges;
//            the bounding box clipped to the framebuffer and, in scissor mode "inside", to the
//            scissor box (RastConfig::traversal_rect); nothing to walk -> IDLE
//   SETUP_P  p_ks = mul(a_ks, q_k) for the three vertices, one semantic per clock (24 clocks),
//            written over the attributes (Interpolator::new)
//   PIX      one pixel of the traversal rect: scissor test, coverage (pica_rast_edge); not
//            drawn -> the next pixel (1 clock per pixel), else the weights of the pixel and of
//            its right and upper neighbours to f24 (pica_f24_from_int, weight_f24)
//   DEN      den  = dot(B, q)
//   DSUM     dsum = dot(B, (1, 1, 1))
//   DEPTH    depth = div(dot(B, z), dsum) (z-buffer) or div(dot(B, z), den) (w-buffer)
//   RD_REQ, RD_RSP   early depth test on: read the stored value, compare; fail -> next pixel
//   ATTR     attr_s = div(dot(B, p_s), den), s = 0..23, one per clock
//   DEN2, DRV        texture unit on: for the right, then the upper neighbour, den' and the six
//            differences add(div(dot(B', p_s), den'), -attr_s) (Interpolator::tex_deriv)
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
  typedef enum logic [4:0] {
    SIdle, SClrReq, SClrRsp, SEdge, SSetupP, SPix, SDen, SDsum, SDepth, SRdReq, SRdRsp,
    SAttr, SDen2, SDrv, SOut, SWrReq, SWrRsp
  } state_e;

  state_e        state_q, state_d;

  logic [31:0]   seq_q;
  logic [47:0]   vx_q, vy_q;          // 12.4 positions, vertex k at [16*k +: 16]
  logic [71:0]   z_q, inv_w_q;
  logic [1727:0] p_q;                 // the attributes, then p_ks = mul(a_ks, q_k)
  logic          neg_q;               // twice the signed area < 0
  logic [2:0]    owns_q;
  logic [10:0]   rx0_q, rx1_q;        // traversal rect
  logic [9:0]    ry1_q;            // (rows start at the first pixel's y)
  logic [10:0]   x_q;                 // the pixel
  logic [9:0]    y_q;
  logic [4:0]    s_q;                 // semantic (SETUP_P, ATTR) / difference (DRV) counter
  logic          up_q;                // DEN2 / DRV: 0 the right neighbour, 1 the upper one
  logic [71:0]   wh_q, wr_q, wu_q;    // f24 weights: here, right, up (lane k at [24*k +: 24])
  logic [23:0]   den_q, dsum_q, depth_q, den2_q;
  logic [575:0]  attr_q;
  logic [287:0]  deriv_q;
  logic          clr_pend_q;
  logic [23:0]   clr_val_q;

  // ---------------------------------------------------------------- input conversion
  logic [47:0] in_fx, in_fy;
  for (genvar k = 0; k < 3; k++) begin : g_fix
    pica_f24_to_fix12p4 u_fx (.a_i(in_x_i[24*k +: 24]), .y_o(in_fx[16*k +: 16]));
    pica_f24_to_fix12p4 u_fy (.a_i(in_y_i[24*k +: 24]), .y_o(in_fy[16*k +: 16]));
  end

  // ---------------------------------------------------------------- edges
  // The point: the pixel centre in PIX, vertex 0 in EDGE (E_0(v0) = twice the signed area).
  logic [17:0]  pt_x, pt_y;
  logic [107:0] e_raw, b_here, b_right, b_up;
  logic         covered;

  assign pt_x = (state_q == SEdge) ? 18'($signed(vx_q[15:0])) : {3'b000, x_q, 4'b1000};
  assign pt_y = (state_q == SEdge) ? 18'($signed(vy_q[15:0])) : {4'b0000, y_q, 4'b1000};

  pica_rast_edge u_edge (
    .vx_i(vx_q), .vy_i(vy_q), .neg_i(neg_q), .owns_i(owns_q), .px_i(pt_x), .py_i(pt_y),
    .e_o(e_raw), .b_o(b_here), .b_right_o(b_right), .b_up_o(b_up), .covered_o(covered)
  );

  logic [71:0] wf_here, wf_right, wf_up;
  for (genvar k = 0; k < 3; k++) begin : g_wf
    pica_f24_from_int u_wh (.a_i(b_here[36*k +: 36]),  .y_o(wf_here[24*k +: 24]));
    pica_f24_from_int u_wr (.a_i(b_right[36*k +: 36]), .y_o(wf_right[24*k +: 24]));
    pica_f24_from_int u_wu (.a_i(b_up[36*k +: 36]),    .y_o(wf_up[24*k +: 24]));
  end

  // ---------------------------------------------------------------- setup: orientation, rect
  logic signed [35:0] area2;
  logic        area_neg, degenerate;
  logic [2:0]  owns_d;

  assign area2      = $signed(e_raw[35:0]);
  assign area_neg   = area2 < 36'sd0;
  assign degenerate = (area2 == 36'sd0);

  // TriSetup::from_fixed: edge i owns its centres when n = s * (-(B.y - A.y), B.x - A.x) has
  // n.x > 0, or n.x = 0 and n.y > 0. UNVERIFIED(hw): the top-left rule of Azahar
  // `IsRightSideOrFlatBottomEdge` ("these are the PSP filling rules"), applied exactly —
  // model TriSetup docs.
  for (genvar i = 0; i < 3; i++) begin : g_owns
    localparam int A = (i + 1) % 3;
    localparam int B = (i + 2) % 3;
    logic signed [16:0] dx, dy;
    assign dx = 17'($signed(vx_q[16*B +: 16])) - 17'($signed(vx_q[16*A +: 16]));
    assign dy = 17'($signed(vy_q[16*B +: 16])) - 17'($signed(vy_q[16*A +: 16]));
    // s = +1: n = (-dy, dx); s = -1: n = (dy, -dx).
    assign owns_d[i] = area_neg ? ((dy > 17'sd0) || (dy == 17'sd0 && dx < 17'sd0))
                                : ((dy < 17'sd0) || (dy == 17'sd0 && dx > 17'sd0));
  end

  // TriSetup::bbox: columns ceil((min_x - 8) / 16) ..= floor((max_x - 8) / 16), rows likewise;
  // then RastConfig::traversal_rect. All 18-bit signed (coordinates are 16-bit).
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

  logic signed [17:0] bb_x0, bb_x1, bb_y0, bb_y1, fb_x0, fb_x1, fb_y0, fb_y1;
  logic signed [17:0] tr_x0, tr_x1, tr_y0, tr_y1;
  logic               rect_empty;

  assign bb_x0 = ((min3(vx_q) - 18'sd9) >>> 4) + 18'sd1;
  assign bb_y0 = ((min3(vy_q) - 18'sd9) >>> 4) + 18'sd1;
  assign bb_x1 = (max3(vx_q) - 18'sd8) >>> 4;
  assign bb_y1 = (max3(vy_q) - 18'sd8) >>> 4;
  // The framebuffer (GPUREG_FRAMEBUFFER_DIM): columns 0 ..= width - 1, rows 0 ..= height - 1.
  // UNVERIFIED(hw): GPUREG_RENDERBUF_DIM is not read — model RastConfig::from_words.
  assign fb_x0 = smax(bb_x0, 18'sd0);
  assign fb_y0 = smax(bb_y0, 18'sd0);
  assign fb_x1 = smin(bb_x1, 18'($signed({1'b0, c_width})) - 18'sd1);
  assign fb_y1 = smin(bb_y1, 18'($signed({1'b0, c_hm1})));
  assign tr_x0 = sc_inside_mode ? smax(fb_x0, 18'($signed({1'b0, c_sx1}))) : fb_x0;
  assign tr_y0 = sc_inside_mode ? smax(fb_y0, 18'($signed({1'b0, c_sy1}))) : fb_y0;
  assign tr_x1 = sc_inside_mode ? smin(fb_x1, 18'($signed(sc_x2))) : fb_x1;
  assign tr_y1 = sc_inside_mode ? smin(fb_y1, 18'($signed(sc_y2))) : fb_y1;
  assign rect_empty = degenerate || (c_width == 11'd0) || (sc_inside_mode && sc_empty)
                      || (tr_x0 > tr_x1) || (tr_y0 > tr_y1);

  // ---------------------------------------------------------------- per-pixel tests
  logic sc_box, sc_pass, last_x, last_y;

  // RastConfig::scissor_passes.
  assign sc_box  = !sc_empty && ({1'b0, c_sx1} <= x_q) && (x_q <= sc_x2)
                   && ({1'b0, c_sy1} <= {1'b0, y_q}) && ({1'b0, y_q} <= sc_y2);
  assign sc_pass = sc_inside_mode ? sc_box : (sc_outside_mode ? !sc_box : 1'b1);
  assign last_x  = (x_q == rx1_q);
  assign last_y  = (y_q == ry1_q);

  // ---------------------------------------------------------------- the f24 datapath
  // Three products summed left to right (alu::dot of three lanes), the divider after it, and
  // the adder of the texture-coordinate differences.
  function automatic logic [4:0] sem_of(input logic [2:0] k);   // DRV: difference k -> semantic
    unique case (k[2:1])
      2'd0:    sem_of = 5'(SemTex0U) + {4'd0, k[0]};
      2'd1:    sem_of = 5'(SemTex1U) + {4'd0, k[0]};
      default: sem_of = 5'(SemTex2U) + {4'd0, k[0]};
    endcase
  endfunction

  logic [71:0] dot_a, dot_b, prod, wsel;
  logic [23:0] sum01, dot_y, div_den, div_y, drv_y, here_s;
  logic [4:0]  sem;               // the semantic the datapath works on
  logic [3:0]  dslot;             // DRV: the difference written, 4 * t + c

  assign sem   = (state_q == SDrv) ? sem_of(s_q[2:0]) : s_q;
  // Texcoord t = k / 2, component (k % 2) + 2 * up: [du/dx, dv/dx, du/dy, dv/dy].
  assign dslot = {s_q[2:1], up_q, s_q[0]};
  assign wsel = (state_q == SDen2 || state_q == SDrv) ? (up_q ? wu_q : wr_q) : wh_q;

  for (genvar k = 0; k < 3; k++) begin : g_lane
    logic [23:0] v;
    always_comb begin
      unique case (state_q)
        SDen, SDen2: v = inv_w_q[24*k +: 24];
        SDsum:       v = F24One;
        SDepth:      v = z_q[24*k +: 24];
        default:     v = p_q[24*(24*k + sem) +: 24];     // SETUP_P, ATTR, DRV
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
    assign dot_a[24*k +: 24] = (state_q == SSetupP) ? v : wsel[24*k +: 24];
    assign dot_b[24*k +: 24] = (state_q == SSetupP) ? inv_w_q[24*k +: 24]
                             : (state_q == SAttr && s_q == 5'(SemTex0U)) ? a12_q : v;
`else
    assign dot_a[24*k +: 24] = (state_q == SSetupP) ? v : wsel[24*k +: 24];
    assign dot_b[24*k +: 24] = (state_q == SSetupP) ? inv_w_q[24*k +: 24] : v;
`endif
    pica_f24_mul u_mul (.a_i(dot_a[24*k +: 24]), .b_i(dot_b[24*k +: 24]),
                        .y_o(prod[24*k +: 24]));
  end

  pica_f24_add u_add01 (.a_i(prod[23:0]), .b_i(prod[47:24]), .y_o(sum01));
  pica_f24_add u_add2  (.a_i(sum01), .b_i(prod[71:48]), .y_o(dot_y));

  always_comb begin
    unique case (state_q)
      SDepth:  div_den = zbuffer ? dsum_q : den_q;
      SDrv:    div_den = den2_q;
`ifdef INJECT_RAST_PERSP
      SAttr:   div_den = (s_q == 5'(SemTex0U)) ? dsum_q : den_q;
`endif
      default: div_den = den_q;
    endcase
  end

  pica_f24_div u_div (.a_i(dot_y), .b_i(div_den), .y_o(div_y));

  // Interpolator::tex_deriv: add(semantic at the neighbour, -semantic here). The operands are
  // held at 0 outside DRV (no toggling; it also keeps event-driven simulators fast).
  logic        drv_on;
  logic [23:0] drv_a, drv_b;
  assign drv_on = (state_q == SDrv);
  assign here_s = attr_q[24*sem +: 24];
  assign drv_a  = drv_on ? div_y : 24'h0;
  assign drv_b  = drv_on ? (here_s ^ F24Sign) : 24'h0;
  pica_f24_add u_add_drv (.a_i(drv_a), .b_i(drv_b), .y_o(drv_y));

  // ---------------------------------------------------------------- depth and colour
  logic [23:0] early_depth, frag_depth;
  logic        ed_pass;

  pica_f24_to_depth u_depth_early (.a_i(depth_q), .bits24_i(EarlyDepthBits == 24),
                                   .y_o(early_depth));
  pica_f24_to_depth u_depth_frag (.a_i(depth_q), .bits24_i(depth24), .y_o(frag_depth));

  // EarlyDepthFunc::passes(fragment, stored).
  always_comb begin
    unique case (c_ed_func)
      EdGreaterEqual: ed_pass = (early_depth >= ed_rsp_data_i);
      EdGreater:      ed_pass = (early_depth > ed_rsp_data_i);
      EdLessEqual:    ed_pass = (early_depth <= ed_rsp_data_i);
      default:        ed_pass = (early_depth < ed_rsp_data_i);
    endcase
  end

  for (genvar c = 0; c < 4; c++) begin : g_color
    pica_f24_to_color u_color (.a_i(attr_q[24*(SemColor + c) +: 24]),
                               .y_o(out_color_o[8*c +: 8]));
  end

  // ---------------------------------------------------------------- FSM
  logic accept, advance_done;

  assign in_ready_o   = (state_q == SIdle) && !clr_pend_q && !clear_i;
  assign accept       = in_valid_i && in_ready_o;
  assign advance_done = last_x && last_y;

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
        else if (accept) state_d = SEdge;
      end
      SClrReq: if (ed_req_ready_i) state_d = SClrRsp;
      SClrRsp: if (ed_rsp_valid_i) state_d = SIdle;
      SEdge: begin
        if (rect_empty) state_d = SIdle;
        else state_d = SSetupP;
      end
      SSetupP: if (s_q == 5'd23) state_d = SPix;
      SPix: begin
        if (sc_pass && covered) state_d = SDen;
        else state_d = after_pixel;
      end
      SDen:    state_d = SDsum;
      SDsum:   state_d = SDepth;
      SDepth: begin
        if (early_on) state_d = SRdReq;
        else state_d = SAttr;
      end
      SRdReq:  if (ed_req_ready_i) state_d = SRdRsp;
      SRdRsp: begin
        if (ed_rsp_valid_i) begin
          if (ed_pass) state_d = SAttr;
          else state_d = after_pixel;
        end
      end
      SAttr: begin
        if (s_q == 5'd23) begin
          if (tex_on) state_d = SDen2;
          else state_d = SOut;
        end
      end
      SDen2:   state_d = SDrv;
      SDrv: begin
        if (s_q == 5'd5) begin
          if (up_q) state_d = SOut;
          else state_d = SDen2;
        end
      end
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

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= SIdle;
      seq_q      <= '0;
      vx_q       <= '0;
      vy_q       <= '0;
      z_q        <= '0;
      inv_w_q    <= '0;
      p_q        <= '0;
      neg_q      <= 1'b0;
      owns_q     <= '0;
      rx0_q      <= '0;
      rx1_q      <= '0;
      ry1_q      <= '0;
      x_q        <= '0;
      y_q        <= '0;
      s_q        <= '0;
      up_q       <= 1'b0;
      wh_q       <= '0;
      wr_q       <= '0;
      wu_q       <= '0;
      den_q      <= '0;
      dsum_q     <= '0;
      depth_q    <= '0;
      den2_q     <= '0;
      attr_q     <= '0;
      deriv_q    <= '0;
      clr_pend_q <= 1'b0;
      clr_val_q  <= '0;
    end else begin
      state_q <= state_d;

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
            vx_q    <= in_fx;
            vy_q    <= in_fy;
            z_q     <= in_z_i;
            inv_w_q <= in_inv_w_i;
            p_q     <= in_v_i;
          end
        end
        SEdge: begin
          neg_q  <= area_neg;
          owns_q <= owns_d;
          rx0_q  <= tr_x0[10:0];
          rx1_q  <= tr_x1[10:0];
          ry1_q  <= tr_y1[9:0];
          x_q    <= tr_x0[10:0];
          y_q    <= tr_y0[9:0];
          s_q    <= '0;
        end
        SSetupP: begin
          for (int k = 0; k < 3; k++) p_q[24*(24*k + 32'(s_q)) +: 24] <= prod[24*k +: 24];
          s_q <= (s_q == 5'd23) ? 5'd0 : s_q + 5'd1;
        end
        SPix: begin
          wh_q <= wf_here;
          wr_q <= wf_right;
          wu_q <= wf_up;
          s_q  <= '0;
          up_q <= 1'b0;
        end
        SDen:   den_q  <= dot_y;
        SDsum:  dsum_q <= dot_y;
        SDepth: depth_q <= div_y;
        SAttr: begin
          attr_q[24*sem +: 24] <= div_y;
          s_q <= (s_q == 5'd23) ? 5'd0 : s_q + 5'd1;
        end
        SDen2:  den2_q <= dot_y;
        SDrv: begin
          deriv_q[24*dslot +: 24] <= drv_y;
          if (s_q == 5'd5) begin
            s_q  <= '0;
            up_q <= 1'b1;
          end else begin
            s_q <= s_q + 5'd1;
          end
        end
        default: ;
      endcase

      // The next pixel of the rect.
      if (state_d == SPix && state_q != SSetupP) begin
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
  assign out_depth_o     = frag_depth;
  assign out_attr_o      = attr_q;
  // All zero unless a texture unit is on (RastConfig::tex_deriv).
  assign out_tex_deriv_o = tex_on ? deriv_q : 288'h0;

  assign ed_req_valid_o = (state_q == SRdReq) || (state_q == SWrReq) || (state_q == SClrReq);
  assign ed_req_op_o    = (state_q == SClrReq) ? 2'd2 : ((state_q == SWrReq) ? 2'd1 : 2'd0);
  assign ed_req_x_o     = {5'd0, x_q};
  assign ed_req_y_o     = {6'd0, y_q};
  assign ed_req_data_o  = (state_q == SClrReq) ? clr_val_q
                        : ((state_q == SWrReq) ? early_depth : 24'h0);
  assign ed_rsp_ready_o = 1'b1;

  assign idle_o = (state_q == SIdle) && !clr_pend_q;

  logic unused_bits;
  assign unused_bits = ^e_raw[107:36];

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
