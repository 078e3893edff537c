// pica_rast: the rasterizer (RAST), transaction-exact with pica_model::rast (model/src/rast/):
// for every ScreenTri the same fragments in the same order, with every field bit-exact, the
// same early-depth buffer reads, writes and clears, whatever the early-depth port latency and
// the output backpressure. rtl/README.md "pica_rast_top" is the contract.
//
// A pipeline in which nothing waits on the arithmetic (issue 37: traversal at one pixel a
// clock, interpolation pipelined, the set-up of a triangle overlapped with the walk of the one
// before it). The stations, each joined to the next by a register or a FIFO:
//
//   set-up    (TFE) takes a ScreenTri into one of two triangle slots (attributes, z, 1/w,
//             seq), converts x / y to 12.4 and finds the rect and the orientation (5 clocks)
//             while p_ks = mul(a_ks, q_k) runs beside it, SetupSem semantics a clock
//             (3 * SetupSem multipliers, 24 / SetupSem clocks), all while the walker still
//             walks the triangle before it
//   walk      one pixel a clock over the rect (pica_rast_edge, stepped; scissor, coverage):
//             a drawn pixel goes into the pixel FIFO with its slot and its edge weights; the
//             end of a triangle goes in as a marker, which frees the slot when it is issued
//   pop       a pixel leaves the FIFO at most every G clocks and only when the output FIFO
//             has room for it (credits: pixels in flight + fragments queued <= ODepth); with
//             the early depth test on, only when nothing is in flight
//   weights   the pixel's, its right and its upper neighbour's weights to f24 (2 clocks)
//   issue     G clocks a pixel: in group g lane j works op n = g * Lanes + j of the pixel's
//             37 ops (25 without a texture unit): 0 the depth, 1-24 the semantics, 25-36 the
//             texture coordinates at the right (25-30) and the upper (31-36) neighbour;
//             beside the lanes pica_rast_dot3 x 4 make the pixel's den, dsum, den' right / up
//   lanes     Lanes x (pica_rast_dot3 -> pica_f24_div_p): the numerator, then the quotient by
//             the denominator the op names, which the denominators' dot products deliver in
//             the same clock (both 9 clocks behind the issue); the result 15 clocks after
//   collect   the results of a pixel's groups into one record; when its last group is in,
//             the fragment (depth and colour converted) goes into the output FIFO, and its
//             texture-coordinate differences (12 x pica_f24_add_p) two clocks later
//   early     with the early depth test on, the record waits for the stored value (read),
//   depth     goes out on a pass, and its depth is stored once it has been taken (write)
//
// G = ceil(ops / Lanes): Lanes = 37 gives one fragment a clock with a texture unit on, 25
// without; fewer lanes trade clocks per fragment for area (docs/src/rtl.md, the FPGA table).
// The early depth test serializes the pixels (the read of a pixel must see every earlier
// write, and the port has one request outstanding at a time).
//
// UNVERIFIED(hw): the interpolation structure (attribute·q and q = 1/w interpolated with the
// barycentric weights, one division per semantic), its f24 precision (pica_f24_div truncates)
// and the forward differences of the texture coordinates are the model's choices
// (model/src/rast/interp.rs; the hardware's arithmetic is not public), as is the early-depth
// buffer's behaviour (model/src/rast/early.rs); this RTL follows the model, not a measurement.
//
// Injected bugs (pica_rast_top lists them all):
//   INJECT_RAST_PERSP        texcoord0.u interpolated linearly in screen space
//   INJECT_RAST_SLOT_EARLY   a triangle slot is freed when its walk ends, not when its last
//                            pixel is issued: the next set-up may overwrite attributes that
//                            pixels still queued will read (a pipelined-only bug)
//   INJECT_RAST_CREDIT       the output FIFO's credit check off by one: under backpressure a
//                            fragment is written over the oldest one queued (pipelined-only)
module pica_rast #(
  parameter int Lanes    = 13,  // interpolation lanes: clocks per fragment = ceil(37 / Lanes)
  parameter int SetupSem = 4,   // set-up products: semantics per clock (3 multipliers each)
  parameter int ODepth   = 32   // output FIFO entries (credits)
) (
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

  // ---------------------------------------------------------------- the ops
  // Op n of a pixel (n = g * Lanes + j: group g, lane j): 0 the depth, div(dot(B, z), den or
  // dsum); 1-24 semantic n - 1, div(dot(B, p_s), den); 25-30 texture value k = n - 25 at the
  // right neighbour, div(dot(B', p_s), den' right); 31-36 the same at the upper neighbour.
  // Texture value k is u (k even) or v of texcoord k / 2 (Interpolator::tex_deriv).
  localparam int NOps   = 37;
  localparam int NOpsNt = 25;
  localparam int GMax   = (NOps + Lanes - 1) / Lanes;
  localparam int GNoTex = (NOpsNt + Lanes - 1) / Lanes;
  localparam int GW     = (GMax > 1) ? $clog2(GMax) : 1;
  localparam int PDepth = 4;            // pixel FIFO entries

  // The semantic whose p op n reads (n >= 1). Evaluated at elaboration only (localparams), so
  // out of Verilator's coverage: its points can never be hit by a run.
  /* verilator coverage_off */
  function automatic int op_sem(input int n);
    int k;
    k = (n - 25) % 6;
    if (n < 25) op_sem = n - 1;
    else if (k < 2) op_sem = SemTex0U + k;
    else if (k < 4) op_sem = SemTex1U + k - 2;
    else op_sem = SemTex2U + k - 4;
  endfunction
  /* verilator coverage_on */

  // Word `sel` of 24 as an AND-OR of decoded selects (an index computed as 24 * sel became a
  // multiplier block and an adder in front of the select). A function, so that the
  // accumulator is no variable of an always_comb: Icarus 11 keeps waking an always_comb that
  // reads a variable it writes.
  function automatic logic [23:0] pick24(input logic [575:0] words, input logic [4:0] sel);
    pick24 = '0;
    for (int s = 0; s < 24; s++) pick24 = pick24 | ({24{sel == 5'(s)}} & words[24*s +: 24]);
  endfunction

  // Candidate g of GMax (72 bits each) by the group counter.
  function automatic logic [71:0] pick_g72(input logic [72*GMax-1:0] c, input logic [GW-1:0] g);
    pick_g72 = '0;
    for (int k = 0; k < GMax; k++) pick_g72 = pick_g72 | ({72{g == GW'(k)}} & c[72*k +: 72]);
  endfunction

  function automatic logic [23:0] pick_g24(input logic [24*GMax-1:0] c, input logic [GW-1:0] g);
    pick_g24 = '0;
    for (int k = 0; k < GMax; k++) pick_g24 = pick_g24 | ({24{g == GW'(k)}} & c[24*k +: 24]);
  endfunction

  // ---------------------------------------------------------------- triangle slots
  // Two slots: the set-up fills one while the walk and the issue still read the other.
  logic [3455:0] ps_q;          // slot k: the attributes, then p_ks, at [1728*k +: 1728]
  logic [143:0]  zs_q, qs_q;    // slot k: z and 1/w per vertex at [72*k +: 72]
  logic [63:0]   seqs_q;        // slot k: seq at [32*k +: 32]
  logic [1:0]    sbusy_q;       // slot k holds a triangle whose last pixel is not yet issued
  logic          wslot_q;       // the slot the set-up fills
`ifdef INJECT_RAST_PERSP
  logic [143:0]  a12s_q;        // slot k: texcoord0.u as it came in (the injected bug's operand)
`endif

  // ---------------------------------------------------------------- set-up (TFE)
  typedef enum logic [1:0] {TIdle, TSet, TReady} tf_e;
  tf_e        tf_q;
  logic [2:0] cnt_q;            // TSet: clocks since the triangle was taken
  logic [4:0] s_q;              // TSet: the next set-up products' first semantic
  logic       accept, take, clr_pend_q;
  logic [23:0] clr_val_q;

  assign in_ready_o = (tf_q == TIdle) && !sbusy_q[wslot_q] && !clr_pend_q && !clear_i;
  assign accept     = in_valid_i && in_ready_o;

  // The two-clock converters load in the accept clock and the one after it, then hold the
  // triangle's 12.4 positions until the next one is taken (the walk has its own copies).
  logic        fix_en;
  logic [47:0] vx, vy;
  assign fix_en = accept || (tf_q == TSet && cnt_q == 3'd0);
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


  // ---- the set-up products p_ks = mul(a_ks, q_k) (Interpolator::new): SetupSem semantics a
  // clock into 3 * SetupSem multipliers from the clock after the take; each product is
  // written back over its attribute 3 clocks after its issue. The set-up is done when the
  // rect is known (5 clocks) and the last product is written.
  localparam int SuW = 3 * SetupSem;
  logic            su_iss, su_done;
  logic [24*SuW-1:0] su_a, su_b, su_a_q, su_b_q, su_prod, su_prod_q;
  logic [3:1]      su_v_q;
  logic [14:0]     su_s_q;      // stage k's first semantic at [5*(k-1) +: 5]
  assign su_iss  = (tf_q == TSet) && (s_q < 5'd24);
  assign su_done = (tf_q == TSet) && (cnt_q == 3'd4) && !su_iss && (su_v_q == '0);
  for (genvar i = 0; i < SetupSem; i++) begin : g_su
    for (genvar k = 0; k < 3; k++) begin : g_k
      localparam int L = 3 * i + k;
      assign su_a[24*L +: 24] = pick24(ps_q[1728*wslot_q + 576*k +: 576], s_q + 5'(i));
      assign su_b[24*L +: 24] = qs_q[72*wslot_q + 24*k +: 24];
      pica_f24_mul_p #(.Reg(1'b1)) u_mul (
        .clk_i, .en_i(1'b1), .a_i(su_a_q[24*L +: 24]), .b_i(su_b_q[24*L +: 24]),
        .y_o(su_prod[24*L +: 24])
      );
    end
  end
  always_ff @(posedge clk_i) begin
    su_a_q    <= su_a;
    su_b_q    <= su_b;
    su_prod_q <= su_prod;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      su_v_q <= '0;
      su_s_q <= '0;
    end else begin
      su_v_q <= {su_v_q[2:1], su_iss};
      su_s_q <= {su_s_q[9:0], s_q};
    end
  end

  // ---------------------------------------------------------------- walk
  typedef enum logic {WIdle, WWalk} wk_e;
  wk_e          wk_q;
  logic         wk_slot_q;
  logic [10:0]  rx0_q, rx1_q, x_q;
  logic [9:0]   ry1_q, y_q;
  logic [107:0] b_here, b_right, b_up;
  logic         covered, sc_box, sc_pass, last_x, last_y, last_pix;
  logic         pf_room, walk, step_x, step_row;

  assign take = (wk_q == WIdle) && (tf_q == TReady);

  pica_rast_edge u_edge (
    .clk_i, .rst_ni, .vx_i(vx), .vy_i(vy), .x0_i(tr_x0_q[10:0]), .y0_i(tr_y0_q[9:0]),
    .load_i(take), .step_x_i(step_x), .step_row_i(step_row),
    .area_neg_o(area_neg), .area_zero_o(area_zero),
    .b_o(b_here), .b_right_o(b_right), .b_up_o(b_up), .covered_o(covered)
  );

  // RastConfig::scissor_passes.
  assign sc_box   = !sc_empty && ({1'b0, c_sx1} <= x_q) && (x_q <= sc_x2)
                    && ({1'b0, c_sy1} <= {1'b0, y_q}) && ({1'b0, y_q} <= sc_y2);
  assign sc_pass  = sc_inside_mode ? sc_box : (sc_outside_mode ? !sc_box : 1'b1);
  assign last_x   = (x_q == rx1_q);
  assign last_y   = (y_q == ry1_q);
  assign last_pix = last_x && last_y;
  // One pixel a clock while the pixel FIFO has room: a drawn pixel goes in, and the rect's
  // last pixel always does (drawn or not), marked as the triangle's end.
  assign walk     = (wk_q == WWalk) && pf_room;
  assign step_x   = walk && !last_x;
  assign step_row = walk && last_x && !last_y;

  // ---------------------------------------------------------------- pixel FIFO
  // Entry: {draw, end, slot, x, y, b here, b right, b up}.
  localparam int PW = 3 + 11 + 10 + 324;
  logic [PW-1:0] pf_mem [PDepth];
  logic [1:0]    pf_wp_q, pf_rp_q;
  logic [2:0]    pf_cnt_q;
  logic          pf_push, pf_pop;
  logic [PW-1:0] pf_in, pf_head;
  logic          h_draw;

  assign pf_room = (pf_cnt_q != 3'(PDepth));
  assign pf_push = walk && ((covered && sc_pass) || last_pix);
  assign pf_in   = {covered && sc_pass, last_pix, wk_slot_q, x_q, y_q, b_here, b_right, b_up};
  assign pf_head = pf_mem[pf_rp_q];
  assign h_draw  = pf_head[PW-1];

  always_ff @(posedge clk_i) begin
    if (pf_push) pf_mem[pf_wp_q] <= pf_in;
  end

  // ---------------------------------------------------------------- pop and credits
  logic [GW-1:0] g_last;        // the last group of a pixel (G - 1)
  logic [GW-1:0] hold_q;        // clocks until the next pop may go
  logic [6:0]    inflight_q;    // drawn pixels popped, not yet queued or discarded
  logic [6:0]    ocount_q;      // fragments queued in the output FIFO
  logic          credit_ok, ser_ok, pd2_v_q, discard;

  typedef enum logic [2:0] {EIdle, EClrReq, EClrRsp, ERdReq, ERdRsp, EWait, EWrReq, EWrRsp} ed_e;
  ed_e ed_q;

  assign g_last = tex_on ? GW'(GMax - 1) : GW'(GNoTex - 1);
`ifdef INJECT_RAST_CREDIT
  assign credit_ok = (inflight_q + ocount_q) <= 7'(ODepth);
`else
  assign credit_ok = (inflight_q + ocount_q) < 7'(ODepth);
`endif
  // The early depth test serializes the pixels: a read must see every earlier write.
  assign ser_ok = !early_on || (ed_q == EIdle && inflight_q == '0 && ocount_q == '0);
  assign pf_pop = (pf_cnt_q != '0) && (hold_q == '0) && (!h_draw || credit_ok) && ser_ok;

  // ---------------------------------------------------------------- weights
  // pq: the popped entry; cv1, cv2: beside the two-clock weight converters.
  logic          pq_v_q;
  logic [PW-1:0] pq_q;
  logic [24:0]   cv1_q, cv2_q;  // {valid, draw, end, slot, x, y}
  logic [215:0]  wf;            // weights here, right, up (f24), 3 lanes each
  for (genvar k = 0; k < 9; k++) begin : g_wf
    // pq_q's weights: here at [216 +: 108], right at [108 +: 108], up at [0 +: 108].
    localparam int Base = (k < 3) ? 216 : ((k < 6) ? 108 : 0);
    pica_f24_from_int_p u_w (.clk_i, .en_i(1'b1), .a_i(pq_q[Base + 36*(k % 3) +: 36]),
                             .y_o(wf[24*k +: 24]));
  end

  // ---------------------------------------------------------------- issue
  logic          iss_v_q, iss_end_q, iss_slot_q;
  logic [GW-1:0] iss_g_q;
  logic [10:0]   iss_x_q;
  logic [9:0]    iss_y_q;
  logic [215:0]  iss_w_q;       // wh (k 0-2), wr (3-5), wu (6-8) at [24*k +: 24]
  logic          iss_last;
  assign iss_last = iss_v_q && (iss_g_q == g_last);

  // The slot is free once no pixel of its triangle will read it: its last pixel has presented
  // its last group, or an end marker without a pixel reached the issue. Both can happen in one
  // clock (a triangle's last pixel ends its groups as the next triangle's pure end marker
  // arrives; the fuzzer found a slot kept busy forever when only one was freed).
  logic free_a, free_b, free_a_slot, free_b_slot;
`ifdef INJECT_RAST_SLOT_EARLY
  assign free_a      = walk && last_pix;
  assign free_a_slot = wk_slot_q;
  assign free_b      = 1'b0;
  assign free_b_slot = 1'b0;
  logic unused_end;
  assign unused_end = iss_end_q;
`else
  assign free_a      = iss_last && iss_end_q;
  assign free_a_slot = iss_slot_q;
  assign free_b      = cv2_q[24] && !cv2_q[23] && cv2_q[22];
  assign free_b_slot = cv2_q[21];
`endif

  // The slot's operands at the issue.
  logic [1727:0] p_iss;
  logic [71:0]   z_iss, q_iss, wh, wr, wu;
  assign p_iss = ps_q[1728*iss_slot_q +: 1728];
  assign z_iss = zs_q[72*iss_slot_q +: 72];
  assign q_iss = qs_q[72*iss_slot_q +: 72];
  assign wh    = iss_w_q[71:0];
  assign wr    = iss_w_q[143:72];
  assign wu    = iss_w_q[215:144];

  // ---- the denominators: den = dot(B, q), dsum = dot(B, 1), den' = dot(B', q)
  logic [23:0] den, dsum, denr, denu;
  pica_rast_dot3 u_den  (.clk_i, .a_i(wh), .b_i(q_iss), .y_o(den));
  pica_rast_dot3 u_dsum (.clk_i, .a_i(wh), .b_i({3{F24One}}), .y_o(dsum));
  pica_rast_dot3 u_denr (.clk_i, .a_i(wr), .b_i(q_iss), .y_o(denr));
  pica_rast_dot3 u_denu (.clk_i, .a_i(wu), .b_i(q_iss), .y_o(denu));

  // ---- side band beside the lanes: stage k (1-16) at [SB*(k-1) +: SB]:
  // {valid, last group, g, x, y, seq}
  localparam int SB = 2 + GW + 11 + 10 + 32;
  logic [16*SB-1:0] sb_q;
  logic [SB-1:0]    sb0, sb9, sb16;
  assign sb0  = {iss_v_q, iss_last, iss_g_q, iss_x_q, iss_y_q, seqs_q[32*iss_slot_q +: 32]};
  assign sb9  = sb_q[SB*8 +: SB];
  assign sb16 = sb_q[SB*15 +: SB];
  logic [GW-1:0] g9, g16;
  assign g9  = sb9[SB-3 -: GW];
  assign g16 = sb16[SB-3 -: GW];

  // ---- the lanes
  logic [24*Lanes-1:0] res_q;
  for (genvar j = 0; j < Lanes; j++) begin : g_lane
    logic [72*GMax-1:0] ca, cb;
    logic [24*GMax-1:0] cd;
    for (genvar g = 0; g < GMax; g++) begin : g_op
      localparam int N = g * Lanes + j;
      if (N >= NOps) begin : g_none
        assign ca[72*g +: 72] = '0;
        assign cb[72*g +: 72] = '0;
        assign cd[24*g +: 24] = '0;
      end else begin : g_n
        assign ca[72*g +: 72] = (N < 25) ? wh : ((N < 31) ? wr : wu);
        if (N == 0) begin : g_depth
          assign cb[72*g +: 72] = z_iss;
          // w-buffer: div(dot(B, z), den); z-buffer: div(dot(B, z), dot(B, 1)).
          assign cd[24*g +: 24] = zbuffer ? dsum : den;
`ifdef INJECT_RAST_PERSP
        end else if (N == 1 + SemTex0U) begin : g_bug
          // The bug: texcoord0.u interpolated in screen space, dot(B, a) / dot(B, 1), from
          // the attribute as it came in instead of perspective-correct.
          assign cb[72*g +: 72] = a12s_q[72*iss_slot_q +: 72];
          assign cd[24*g +: 24] = dsum;
`endif
        end else begin : g_sem
          localparam int S = op_sem(N);
          assign cb[72*g +: 72] = {p_iss[24*(48 + S) +: 24], p_iss[24*(24 + S) +: 24],
                                   p_iss[24*S +: 24]};
          assign cd[24*g +: 24] = (N < 25) ? den : ((N < 31) ? denr : denu);
        end
      end
    end

    logic [23:0] num, q;
    pica_rast_dot3 u_num (.clk_i, .a_i(pick_g72(ca, iss_g_q)), .b_i(pick_g72(cb, iss_g_q)),
                          .y_o(num));
    // The denominators of the group at the divider (9 clocks after the issue).
    pica_f24_div_p u_div (.clk_i, .en_i(1'b1), .a_i(num), .b_i(pick_g24(cd, g9)), .y_o(q));
    always_ff @(posedge clk_i) res_q[24*j +: 24] <= q;
  end

  // ---------------------------------------------------------------- collect
  logic [24*NOps-1:0] rec_q;    // op n's result at [24*n +: 24]
  logic               complete_q;
  logic [52:0]        meta_q;   // {x, y, seq} of the record
  logic [23:0]        frag_depth, early_depth, ed_depth_q;
  logic [31:0]        color;
  logic               push, ed_pass;

  pica_f24_to_depth u_depth_early (.a_i(rec_q[23:0]), .bits24_i(EarlyDepthBits == 24),
                                   .y_o(early_depth));
  pica_f24_to_depth u_depth_frag (.a_i(rec_q[23:0]), .bits24_i(depth24), .y_o(frag_depth));
  for (genvar c = 0; c < 4; c++) begin : g_color
    pica_f24_to_color u_color (.a_i(rec_q[24*(1 + SemColor + c) +: 24]), .y_o(color[8*c +: 8]));
  end

  // EarlyDepthFunc::passes(fragment, stored).
  always_comb begin
    unique case (c_ed_func)
      EdGreaterEqual: ed_pass = (ed_depth_q >= ed_rsp_data_i);
      EdGreater:      ed_pass = (ed_depth_q > ed_rsp_data_i);
      EdLessEqual:    ed_pass = (ed_depth_q <= ed_rsp_data_i);
      default:        ed_pass = (ed_depth_q < ed_rsp_data_i);
    endcase
  end

  assign push    = (complete_q && !early_on) || (ed_q == ERdRsp && ed_rsp_valid_i && ed_pass);
  assign discard = (ed_q == ERdRsp && ed_rsp_valid_i && !ed_pass);

  // ---- the texture-coordinate differences, two clocks behind the push:
  // Interpolator::tex_deriv, add(value at the neighbour, -value here); slot 4 * t + 2 * up + c.
  logic [287:0] deriv;
  for (genvar d = 0; d < 2; d++) begin : g_dir
    for (genvar k = 0; k < 6; k++) begin : g_k
      localparam int N = 25 + 6 * d + k;
      localparam int H = 1 + op_sem(N);
      localparam int Slot = 4 * (k / 2) + 2 * d + (k % 2);
      pica_f24_add_p #(.RegA(1'b1), .RegB(1'b1)) u_add (
        .clk_i, .en_i(1'b1), .a_i(rec_q[24*N +: 24]), .b_i(rec_q[24*H +: 24] ^ F24Sign),
        .y_o(deriv[24*Slot +: 24])
      );
    end
  end

  // ---------------------------------------------------------------- output FIFO
  // Entry {seq, x, y, depth, colour, attributes}; the differences in a memory of their own,
  // written two clocks later at the same index; an entry is visible from then on.
  localparam int OW = 32 + 11 + 10 + 24 + 32 + 576;
  localparam int OA = $clog2(ODepth);
  (* ram_style = "distributed" *) logic [OW-1:0]  om [ODepth];
  (* ram_style = "distributed" *) logic [287:0]   dm [ODepth];
  logic [OA-1:0] wp_q, rp_q, pd1_i_q, pd2_i_q;
  logic          pd1_v_q, take_out;
  logic [OW-1:0] o_head;

  always_ff @(posedge clk_i) begin
    if (push) om[wp_q] <= {meta_q[31:0], meta_q[52:32], frag_depth, color, rec_q[24 +: 576]};
    if (pd2_v_q) dm[pd2_i_q] <= deriv;
  end
  assign o_head   = om[rp_q];
  assign take_out = out_valid_o && out_ready_i;

  // ---------------------------------------------------------------- sequential
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tf_q       <= TIdle;
      cnt_q      <= '0;
      s_q        <= '0;
      wslot_q    <= 1'b0;
      sbusy_q    <= '0;
      ps_q       <= '0;
      zs_q       <= '0;
      qs_q       <= '0;
      seqs_q     <= '0;
`ifdef INJECT_RAST_PERSP
      a12s_q     <= '0;
`endif
      clr_pend_q <= 1'b0;
      clr_val_q  <= '0;
      wk_q       <= WIdle;
      wk_slot_q  <= 1'b0;
      rx0_q      <= '0;
      rx1_q      <= '0;
      ry1_q      <= '0;
      x_q        <= '0;
      y_q        <= '0;
      pf_wp_q    <= '0;
      pf_rp_q    <= '0;
      pf_cnt_q   <= '0;
      hold_q     <= '0;
      inflight_q <= '0;
      ocount_q   <= '0;
      pq_v_q     <= 1'b0;
      pq_q       <= '0;
      cv1_q      <= '0;
      cv2_q      <= '0;
      iss_v_q    <= 1'b0;
      iss_end_q  <= 1'b0;
      iss_slot_q <= 1'b0;
      iss_g_q    <= '0;
      iss_x_q    <= '0;
      iss_y_q    <= '0;
      iss_w_q    <= '0;
      sb_q       <= '0;
      rec_q      <= '0;
      complete_q <= 1'b0;
      meta_q     <= '0;
      ed_q       <= EIdle;
      ed_depth_q <= '0;
      wp_q       <= '0;
      rp_q       <= '0;
      pd1_v_q    <= 1'b0;
      pd2_v_q    <= 1'b0;
      pd1_i_q    <= '0;
      pd2_i_q    <= '0;
    end else begin
      // ---- early-depth clear: pending from the pulse until its request is taken
      if (clear_i) begin
        clr_pend_q <= 1'b1;
        clr_val_q  <= c_ed_clear;
      end else if (ed_q == EClrReq && ed_req_ready_i) begin
        clr_pend_q <= 1'b0;
      end

      // ---- set-up
      unique case (tf_q)
        TIdle: begin
          if (accept) begin
            tf_q  <= TSet;
            cnt_q <= '0;
            s_q   <= '0;
          end
        end
        // The area and the rect are there 5 clocks after the take (cnt_q = 4) and hold.
        TSet: begin
          if (cnt_q != 3'd4) cnt_q <= cnt_q + 3'd1;
          if (su_iss) s_q <= s_q + 5'(SetupSem);
          if (su_done) tf_q <= rect_empty ? TIdle : TReady;
        end
        TReady:  if (take) tf_q <= TIdle;
        default: tf_q <= TIdle;
      endcase
      if (take) wslot_q <= !wslot_q;

      // Slot writes: the triangle as taken, then the set-up products over its attributes.
      for (int sl = 0; sl < 2; sl++) begin
        if (accept && wslot_q == 1'(sl)) begin
          ps_q[1728*sl +: 1728] <= in_v_i;
          zs_q[72*sl +: 72]     <= in_z_i;
          qs_q[72*sl +: 72]     <= in_inv_w_i;
          seqs_q[32*sl +: 32]   <= in_seq_i;
`ifdef INJECT_RAST_PERSP
          for (int k = 0; k < 3; k++)
            a12s_q[72*sl + 24*k +: 24] <= in_v_i[24*(24*k + SemTex0U) +: 24];
`endif
        end
        for (int s = 0; s < 24; s++) begin
          for (int i = 0; i < SetupSem; i++) begin
            if (su_v_q[3] && su_s_q[14:10] + 5'(i) == 5'(s) && wslot_q == 1'(sl)) begin
              for (int k = 0; k < 3; k++)
                ps_q[1728*sl + 24*(24*k + s) +: 24] <= su_prod_q[24*(3*i + k) +: 24];
            end
          end
        end
      end
      // A slot is busy from the take to its end at the issue (or the rect found empty).
      for (int sl = 0; sl < 2; sl++) begin
        if (accept && wslot_q == 1'(sl)) sbusy_q[sl] <= 1'b1;
        else if (su_done && rect_empty && wslot_q == 1'(sl))
          sbusy_q[sl] <= 1'b0;
        else if ((free_a && free_a_slot == 1'(sl)) || (free_b && free_b_slot == 1'(sl)))
          sbusy_q[sl] <= 1'b0;
      end

      // ---- walk
      unique case (wk_q)
        WIdle: begin
          if (take) begin
            wk_q      <= WWalk;
            wk_slot_q <= wslot_q;
            rx0_q     <= tr_x0_q[10:0];
            rx1_q     <= tr_x1_q[10:0];
            ry1_q     <= tr_y1_q[9:0];
            x_q       <= tr_x0_q[10:0];
            y_q       <= tr_y0_q[9:0];
          end
        end
        default: begin
          if (walk) begin
            if (last_pix) begin
              wk_q <= WIdle;
            end else if (!last_x) begin
              x_q <= x_q + 11'd1;
            end else begin
              x_q <= rx0_q;
              y_q <= y_q + 10'd1;
            end
          end
        end
      endcase

      // ---- pixel FIFO
      if (pf_push) pf_wp_q <= pf_wp_q + 2'd1;
      if (pf_pop) pf_rp_q <= pf_rp_q + 2'd1;
      pf_cnt_q <= pf_cnt_q + 3'(pf_push) - 3'(pf_pop);

      // ---- pop, weights
      if (pf_pop) hold_q <= g_last;
      else if (hold_q != '0) hold_q <= hold_q - GW'(1);
      pq_v_q <= pf_pop;
      if (pf_pop) pq_q <= pf_head;
      cv1_q <= {pq_v_q, pq_q[PW-1 -: 24]};
      cv2_q <= cv1_q;

      // ---- issue: a converted entry is loaded; a pixel presents groups 0 ..= G - 1
      if (cv2_q[24]) begin
        iss_v_q    <= cv2_q[23];
        iss_end_q  <= cv2_q[22];
        iss_slot_q <= cv2_q[21];
        iss_x_q    <= cv2_q[20:10];
        iss_y_q    <= cv2_q[9:0];
        iss_g_q    <= '0;
        iss_w_q    <= wf;
      end else if (iss_last) begin
        iss_v_q <= 1'b0;
      end else if (iss_v_q) begin
        iss_g_q <= iss_g_q + GW'(1);
      end
      sb_q <= {sb_q[SB*15-1:0], sb0};

      // ---- collect
      for (int n = 0; n < NOps; n++) begin
        if (sb16[SB-1] && g16 == GW'(n / Lanes)) rec_q[24*n +: 24] <= res_q[24*(n % Lanes) +: 24];
      end
      complete_q <= sb16[SB-1] && sb16[SB-2];
      if (sb16[SB-1] && sb16[SB-2]) meta_q <= sb16[52:0];

      // ---- early depth and clears
      unique case (ed_q)
        EIdle: begin
          if (clr_pend_q && tf_q == TIdle && wk_q == WIdle && sbusy_q == '0
              && inflight_q == '0 && ocount_q == '0)
            ed_q <= EClrReq;
          else if (complete_q && early_on) begin
            ed_q       <= ERdReq;
            ed_depth_q <= early_depth;
          end
        end
        EClrReq: if (ed_req_ready_i) ed_q <= EClrRsp;
        EClrRsp: if (ed_rsp_valid_i) ed_q <= EIdle;
        ERdReq:  if (ed_req_ready_i) ed_q <= ERdRsp;
        ERdRsp:  if (ed_rsp_valid_i) ed_q <= ed_pass ? EWait : EIdle;
        // Commit on send: the depth is stored once the fragment has been taken.
        EWait:   if (inflight_q == '0 && ocount_q == '0) ed_q <= EWrReq;
        EWrReq:  if (ed_req_ready_i) ed_q <= EWrRsp;
        EWrRsp:  if (ed_rsp_valid_i) ed_q <= EIdle;
        default: ed_q <= EIdle;
      endcase

      // ---- output FIFO and credits
      if (push) wp_q <= wp_q + OA'(1);
      pd1_v_q <= push;
      pd1_i_q <= wp_q;
      pd2_v_q <= pd1_v_q;
      pd2_i_q <= pd1_i_q;
      if (take_out) rp_q <= rp_q + OA'(1);
      ocount_q   <= ocount_q + 7'(pd2_v_q) - 7'(take_out);
      inflight_q <= inflight_q + 7'(pf_pop && h_draw) - 7'(pd2_v_q) - 7'(discard);
    end
  end

  // ---------------------------------------------------------------- outputs
  assign out_valid_o     = (ocount_q != '0);
  assign {out_tri_o, out_x_o[10:0], out_y_o[9:0], out_depth_o, out_color_o, out_attr_o} = o_head;
  assign out_x_o[15:11]  = '0;
  assign out_y_o[15:10]  = '0;
  // All zero unless a texture unit is on (RastConfig::tex_deriv).
  assign out_tex_deriv_o = tex_on ? dm[rp_q] : 288'h0;

  assign ed_req_valid_o = (ed_q == ERdReq) || (ed_q == EWrReq) || (ed_q == EClrReq);
  assign ed_req_op_o    = (ed_q == EClrReq) ? 2'd2 : ((ed_q == EWrReq) ? 2'd1 : 2'd0);
  assign ed_req_x_o     = {5'd0, meta_q[52:42]};
  assign ed_req_y_o     = {6'd0, meta_q[41:32]};
  assign ed_req_data_o  = (ed_q == EClrReq) ? clr_val_q
                        : ((ed_q == EWrReq) ? ed_depth_q : 24'h0);
  assign ed_rsp_ready_o = 1'b1;

  assign idle_o = (tf_q == TIdle) && (wk_q == WIdle) && (sbusy_q == '0) && (pf_cnt_q == '0)
                  && !pq_v_q && !cv1_q[24] && !cv2_q[24] && !iss_v_q && (inflight_q == '0)
                  && (ocount_q == '0) && (ed_q == EIdle) && !clr_pend_q;

  // Rect bits above the framebuffer's range are never set once the rect is not empty; the
  // orientation is the edge unit's own business; the rest of the side band is read at 9 and 16.
  logic unused_bits;
  assign unused_bits = ^{tr_x0_q[17:11], tr_x1_q[17:11], tr_y0_q[17:10], tr_y1_q[17:10],
                         area_neg, sb9[SB-1:SB-2], sb9[SB-3-GW:0]};

`ifndef SYNTHESIS
  logic [351:0] cfg_seen_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_seen_q <= '0;
    end else begin
      cfg_seen_q <= cfg_i;
      if (ed_rsp_valid_i && !(ed_q == ERdRsp || ed_q == EWrRsp || ed_q == EClrRsp))
        $error("pica_rast: early-depth response with no request outstanding (state %0d)", ed_q);
      if (clear_i && !idle_o)
        $error("pica_rast: early-depth clear while busy");
      if (!idle_o && cfg_i != cfg_seen_q)
        $error("pica_rast: configuration changed with a triangle in flight");
    end
  end
`endif

endmodule : pica_rast
