// pica_tex_top — texture units 0-2 as one stage (issue 38): bit-exact with the model's
// `pica_model::tex::texture_units` for units 0-2 (model/src/tex/mod.rs); the procedural
// texture unit 3 stays in the model (the stage table says so).
//
// Register write port: a write of cfg_data_i to register cfg_id_i (a GPUREG ID) while the
// stage is idle (idle_o); the stage keeps the 25 registers the model's units read
// (GPUREG_TEXUNIT_CONFIG, TEXUNIT0 0x081-0x08B and 0x08E, TEXUNIT1 0x091-0x096, TEXUNIT2
// 0x099-0x09E). A write of GPUREG_TEXUNIT_CONFIG with bit 16 set clears the texel cache.
//
// One fragment per handshake on in_*: its tag, its three texture-coordinate sets (set 0 with
// w) and their screen-space derivatives; in_flush_i invalidates the texel cache before the
// fragment's first read (the harness sets it when memory changed under the cache). One result
// per fragment on out_*, in order: the tag and the colours of units 0-2 (lane k: unit k,
// r | g << 8 | b << 16 | a << 24; zero for a disabled unit).
//
// Micro-architecture (transactions, not cycles, are compared with the model):
//   TABLE   each unit's level offsets, computed on pica_tex_level (16 clocks a unit) when the
//           unit's size or format is written, not per fragment.
//   SETUP   a pipeline that takes a unit task a clock (each enabled unit of a fragment, in
//           unit order) and stalls as one: unit 0's coordinate transform (projection: u, v
//           times rcp(w); cube maps: pica_tex_cube_face, then s, t = (x · rcp(z)) · 0.5 + 0.5;
//           the shadow reference depth) on the shader ALU's pipelined f24 blocks
//           (pica_f24_rcp_p, pica_f24_mul_p, pica_f24_add_p), beside the level plan
//           (pica_tex_lod with its four registers).
//   LEVEL   one level task a clock, two for a blend (the finer first): the level's size
//           (pica_tex_dim), its first byte from the table, the texel position
//           (pica_tex_coord, its product registered), into a four-deep level FIFO.
//   ISSUE   from the level FIFO one texel job a clock: four for a linear filter — (i, j),
//           (i+1, j), (i, j+1), (i+1, j+1) — one for nearest. That is the model's read order,
//           and every later step keeps it, so a hang names the model's texel.
//   WRAP    both axes through pica_tex_wrap (a 35-clock pipeline, an index a clock); the
//           job's other fields wait in a FIFO beside it (both FIFOs in LUT RAM). A credit
//           counter bounds the jobs between issue and the cache to the FIFOs' depth (the wrap
//           pipeline cannot stall).
//   ADDR    the texel's address (pica_tex_addr) from the level's base, registered before
//           the cache; border texels and constant jobs (a disabled or reserved unit) read
//           nothing.
//   CACHE   pica_tex_cache: a texel a clock on hits, 16-byte lines filled over AXI4.
//   DECODE  pica_tex_texel (every format, ETC1/ETC1A4), the border colour, the shadow
//           comparison (pica_tex_shadow); an unmapped byte hangs the stage (hang_o, the unit
//           and the byte), as the model's TexHang::Unmapped, or reads 0 (UnmappedZero).
//           Every texel read is reported on fetch_* in order (the model's `texel` beats).
//   FILTER  two clocks: the four texels of a linear level through pica_tex_filter (weights
//           from pica_tex_weights, registered with the decode), then the two levels of a
//           mipmap blend; a unit's colour is kept until the fragment's last unit.
//
// Parameters implement the model's knobs: AlphaWhite (tex-alpha-only-colour=white),
// ReservedZero (tex-reserved-format=zero), MinOne (tex-min-level-size=1), Truncate
// (tex-filter-rounding=truncate), UnmappedZero (tex-unmapped=zero), ReservedTypeDisabled
// (tex-reserved-type=disabled).
//
// Injected bugs (the tex fuzzer must catch them):
//   INJECT_TEX_CACHE_BEAT  a line fill stores beats 0/1 and 2/3 swapped (pica_tex_cache)
//   INJECT_TEX_JOB_ORDER   a linear level's texels (i+1, j) and (i, j+1) are issued swapped
//   and the block-level ones (INJECT_TEX_MORTON, …; rtl-bridge/rtl/README.md).

module pica_tex_top #(
  parameter bit AlphaWhite           = 1'b0,
  parameter bit ReservedZero         = 1'b0,
  parameter bit MinOne               = 1'b0,
  parameter bit Truncate             = 1'b0,
  parameter bit UnmappedZero         = 1'b0,
  parameter bit ReservedTypeDisabled = 1'b0
) (
  input  logic         clk_i,
  input  logic         rst_ni,

  input  logic         cfg_we_i,
  input  logic [9:0]   cfg_id_i,
  input  logic [31:0]  cfg_data_i,

  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  logic [31:0]  in_tag_i,
  input  logic         in_flush_i,
  input  logic [71:0]  in_tc0_i,     // f24 lanes u, v, w of texcoord0
  input  logic [47:0]  in_tc1_i,     // u, v of texcoord1
  input  logic [47:0]  in_tc2_i,     // u, v of texcoord2
  input  logic [95:0]  in_d0_i,      // du/dx, dv/dx, du/dy, dv/dy of set 0
  input  logic [95:0]  in_d1_i,
  input  logic [95:0]  in_d2_i,

  output logic         out_valid_o,
  input  logic         out_ready_i,
  output logic [31:0]  out_tag_o,
  output logic [95:0]  out_tex_o,

  output logic         mem_awvalid_o,
  input  logic         mem_awready_i,
  output logic [1:0]   mem_awid_o,
  output logic [31:0]  mem_awaddr_o,
  output logic [7:0]   mem_awlen_o,
  output logic [2:0]   mem_awsize_o,
  output logic [1:0]   mem_awburst_o,
  output logic         mem_wvalid_o,
  input  logic         mem_wready_i,
  output logic [31:0]  mem_wdata_o,
  output logic [3:0]   mem_wstrb_o,
  output logic         mem_wlast_o,
  input  logic         mem_bvalid_i,
  output logic         mem_bready_o,
  input  logic [1:0]   mem_bid_i,
  input  logic [1:0]   mem_bresp_i,
  output logic         mem_arvalid_o,
  input  logic         mem_arready_i,
  output logic [1:0]   mem_arid_o,
  output logic [31:0]  mem_araddr_o,
  output logic [7:0]   mem_arlen_o,
  output logic [2:0]   mem_arsize_o,
  output logic [1:0]   mem_arburst_o,
  input  logic         mem_rvalid_i,
  output logic         mem_rready_o,
  input  logic [1:0]   mem_rid_i,
  input  logic [31:0]  mem_rdata_i,
  input  logic [1:0]   mem_rresp_i,
  input  logic         mem_rlast_i,

  output logic         fetch_valid_o,  // one texel read (the model's `texel` beat)
  output logic [31:0]  fetch_tag_o,
  output logic [1:0]   fetch_unit_o,
  output logic [31:0]  fetch_addr_o,
  output logic [127:0] fetch_raw_o,
  output logic [31:0]  fetch_rgba_o,   // r | g << 8 | b << 16 | a << 24

  output logic         hang_o,         // an unmapped texel byte: the stage has stopped
  output logic [1:0]   hang_kind_o,    // 1: unmapped (FOP's code for the same hang)
  output logic [1:0]   hang_unit_o,
  output logic [31:0]  hang_addr_o,
  output logic         idle_o
);

  // ------------------------------------------------------------------ registers
  logic [31:0] r_config;
  logic [31:0] r_border [3];
  logic [31:0] r_dim    [3];
  logic [31:0] r_param  [3];
  logic [31:0] r_lod    [3];
  logic [31:0] r_addr   [3];
  logic [31:0] r_type   [3];
  logic [31:0] r_face   [5];   // TEXUNIT0_ADDR2-6
  logic [31:0] r_shadow;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_config <= '0;
      r_shadow <= '0;
      for (int u = 0; u < 3; u++) begin
        r_border[u] <= '0; r_dim[u] <= '0; r_param[u] <= '0;
        r_lod[u] <= '0; r_addr[u] <= '0; r_type[u] <= '0;
      end
      for (int f = 0; f < 5; f++) r_face[f] <= '0;
    end else if (cfg_we_i) begin
      case (cfg_id_i)
        10'h080: r_config    <= cfg_data_i;
        10'h081: r_border[0] <= cfg_data_i;
        10'h082: r_dim[0]    <= cfg_data_i;
        10'h083: r_param[0]  <= cfg_data_i;
        10'h084: r_lod[0]    <= cfg_data_i;
        10'h085: r_addr[0]   <= cfg_data_i;
        10'h086: r_face[0]   <= cfg_data_i;
        10'h087: r_face[1]   <= cfg_data_i;
        10'h088: r_face[2]   <= cfg_data_i;
        10'h089: r_face[3]   <= cfg_data_i;
        10'h08A: r_face[4]   <= cfg_data_i;
        10'h08B: r_shadow    <= cfg_data_i;
        10'h08E: r_type[0]   <= cfg_data_i;
        10'h091: r_border[1] <= cfg_data_i;
        10'h092: r_dim[1]    <= cfg_data_i;
        10'h093: r_param[1]  <= cfg_data_i;
        10'h094: r_lod[1]    <= cfg_data_i;
        10'h095: r_addr[1]   <= cfg_data_i;
        10'h096: r_type[1]   <= cfg_data_i;
        10'h099: r_border[2] <= cfg_data_i;
        10'h09A: r_dim[2]    <= cfg_data_i;
        10'h09B: r_param[2]  <= cfg_data_i;
        10'h09C: r_lod[2]    <= cfg_data_i;
        10'h09D: r_addr[2]   <= cfg_data_i;
        10'h09E: r_type[2]   <= cfg_data_i;
        default: ;
      endcase
    end
  end

  // {r, g, b, a} (the blocks' order, r in bits 31-24) <-> r | g << 8 | b << 16 | a << 24.
  function automatic logic [31:0] swap(input logic [31:0] c);
    swap = {c[7:0], c[15:8], c[23:16], c[31:24]};
  endfunction

  // ------------------------------------------------------------------ the job
  // One texel of one level of one unit, or a constant (kind_const: a unit that reads nothing,
  // or a fragment with no unit enabled), in the model's read order.
  typedef struct packed {
    logic        kind_const;
    logic        flush;       // invalidate the cache before this job (the fragment's first)
    logic [1:0]  unit;
    logic        second;      // the coarser level of a blend
    logic [1:0]  k;           // texel of the footprint
    logic        last_level;  // the level's last texel
    logic        last_unit;
    logic        last_frag;
    logic [31:0] tag;
    logic [10:0] lw, lh;
    logic [31:0] base;        // the level's first byte
    logic [3:0]  fmt;
    logic [31:0] border;      // {r, g, b, a}
    logic        shadow;
    logic [23:0] shz;         // f24 depth of the shadow comparison
    logic [22:0] zbias;
    logic        linear;
    logic        two;
    logic [7:0]  fx, fy, frac;
  } job_t;

  // ------------------------------------------------------------------ LEVEL TABLE
  // Each unit's level offsets (bytes from its base to level l), computed when the unit's size
  // or format is written — 16 clocks a unit on pica_tex_level, whose offset runs through the
  // levels a clock apart — not per fragment. The stage takes no fragment meanwhile.
  logic [2:0] tab_we;             // a unit's DIM or TYPE written
  always_comb begin
    tab_we = '0;
    if (cfg_we_i) begin
      case (cfg_id_i)
        10'h082, 10'h08E: tab_we[0] = 1'b1;
        10'h092, 10'h096: tab_we[1] = 1'b1;
        10'h09A, 10'h09E: tab_we[2] = 1'b1;
        default: ;
      endcase
    end
  end
  logic [2:0] tab_dirty_q, tab_pick_1h;
  logic       tab_busy_q, tab_start, tab_ready;
  logic [1:0] tab_unit_q, tab_pick;
  logic [3:0] tab_n_q;
  assign tab_start   = !tab_busy_q && tab_dirty_q != 3'd0;
  assign tab_pick    = tab_dirty_q[0] ? 2'd0 : tab_dirty_q[1] ? 2'd1 : 2'd2;
  assign tab_pick_1h = tab_start ? 3'd1 << tab_pick : 3'd0;
  assign tab_ready   = !tab_busy_q && tab_dirty_q == 3'd0;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tab_dirty_q <= 3'b111;      // the reset sizes (0: levels of one texel) have offsets too
      tab_busy_q  <= 1'b0;
      tab_unit_q  <= '0;
      tab_n_q     <= '0;
    end else begin
      if (tab_start) begin
        tab_busy_q <= 1'b1;
        tab_unit_q <= tab_pick;
        tab_n_q    <= '0;
      end else if (tab_busy_q) begin
        tab_n_q <= tab_n_q + 4'd1;
        if (tab_n_q == 4'd15) tab_busy_q <= 1'b0;
      end
      // A write in the clock the unit starts makes it dirty again: computed once more.
      tab_dirty_q <= (tab_dirty_q & ~tab_pick_1h) | tab_we;
    end
  end
  logic [27:0] tab_acc;
  /* verilator lint_off PINCONNECTEMPTY */
  pica_tex_level #(.MinOne(MinOne)) u_tab (
    .clk_i, .rst_ni, .start_i(tab_start), .fmt_i(r_type[tab_pick][3:0]),
    .width_i(r_dim[tab_pick][26:16]), .height_i(r_dim[tab_pick][10:0]), .level_i(4'd15),
    .lw_o(), .lh_o(), .done_o(), .offset_o(tab_acc)
  );
  /* verilator lint_on PINCONNECTEMPTY */
  logic [27:0] tab_off [64];      // {unit, level}: LUT RAM
  always_ff @(posedge clk_i) begin
    if (tab_busy_q) tab_off[{tab_unit_q, tab_n_q}] <= tab_acc;
  end

  // ------------------------------------------------------------------ FRAGMENT
  // The fragment in hand: one unit task a clock leaves it, in unit order.
  logic         f_valid_q;
  logic [31:0]  f_tag_q;
  logic         f_flush_q;
  logic [23:0]  f_u_q [3];
  logic [23:0]  f_v_q [3];
  logic [23:0]  f_w_q;
  logic [95:0]  f_d_q [3];
  logic         t_first_q;       // no task of the fragment out yet
  logic [1:0]   t_unit_q;        // the unit of the next task

  logic [2:0]   en;              // units enabled
  assign en = r_config[2:0];
  logic [1:0]   first_en, last_en, next_unit;
  assign first_en = en[0] ? 2'd0 : en[1] ? 2'd1 : en[2] ? 2'd2 : 2'd0;
  assign last_en  = en[2] ? 2'd2 : en[1] ? 2'd1 : 2'd0;
  assign next_unit = (t_unit_q == 2'd0 && en[1]) ? 2'd1 : 2'd2;

  logic adv;                     // the level stages move (the level FIFO has room)
  logic adv_up;                  // the unit-task stages move (and LEVEL takes a task)
  logic t_fire, t_last, f_take_in;
  assign t_last    = en == 3'd0 || t_unit_q == last_en;
  assign t_fire    = f_valid_q && adv_up;
  assign in_ready_o = tab_ready && (!f_valid_q || (t_fire && t_last));
  assign f_take_in = in_valid_i && in_ready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_valid_q <= 1'b0; f_tag_q <= '0; f_flush_q <= 1'b0; f_w_q <= '0;
      t_first_q <= 1'b0; t_unit_q <= '0;
      for (int s = 0; s < 3; s++) begin f_u_q[s] <= '0; f_v_q[s] <= '0; f_d_q[s] <= '0; end
    end else if (f_take_in) begin
      f_valid_q <= 1'b1;
      f_tag_q   <= in_tag_i;
      f_flush_q <= in_flush_i;
      f_u_q[0] <= in_tc0_i[23:0];  f_v_q[0] <= in_tc0_i[47:24]; f_w_q <= in_tc0_i[71:48];
      f_u_q[1] <= in_tc1_i[23:0];  f_v_q[1] <= in_tc1_i[47:24];
      f_u_q[2] <= in_tc2_i[23:0];  f_v_q[2] <= in_tc2_i[47:24];
      f_d_q[0] <= in_d0_i; f_d_q[1] <= in_d1_i; f_d_q[2] <= in_d2_i;
      t_first_q <= 1'b1;
      t_unit_q  <= first_en;
    end else if (t_fire) begin
      t_first_q <= 1'b0;
      if (t_last) f_valid_q <= 1'b0;
      else t_unit_q <= next_unit;
    end
  end

  // The unit task: what the unit needs of the fragment. A constant task reads nothing (no unit
  // enabled: one task carries the fragment; unit 0 of type 5 or a reserved type disabled by the
  // knob; a reserved format read as zero by the knob).
  typedef struct packed {
    logic [31:0] tag;
    logic        flush;       // the fragment's first task: invalidate the cache first
    logic [1:0]  unit;
    logic        last_frag;   // the fragment's last task
    logic        cnst;
    logic [2:0]  ttype;       // unit 0's type (PARAM 28-30); units 1 and 2 are 2D
    logic [23:0] u, v, w;     // the unit's coordinate set; w of set 0
  } task_t;
  localparam int TaskW = 112;    // $bits(task_t), spelled out for Yosys 0.23

  logic [1:0] t_set;             // unit k reads set k, unit 2 set 1 when texture2_coords (bit 13)
  assign t_set = (t_unit_q == 2'd2 && r_config[13]) ? 2'd1 : t_unit_q;
  logic [2:0] t_ttype;
  assign t_ttype = t_unit_q == 2'd0 ? r_param[0][30:28] : 3'd0;
  logic t_disabled, t_zero;
  assign t_disabled = t_ttype == 3'd5 || (ReservedTypeDisabled && t_ttype[2:1] == 2'b11);
  assign t_zero = ReservedZero && r_type[t_unit_q][3:1] == 3'b111;
  task_t t_new;
  always_comb begin
    t_new.tag       = f_tag_q;
    t_new.flush     = t_first_q && f_flush_q;
    t_new.unit      = t_unit_q;
    t_new.last_frag = t_last;
    t_new.cnst      = en == 3'd0 || t_disabled || t_zero;
    t_new.ttype     = t_ttype;
    t_new.u         = f_u_q[t_set];
    t_new.v         = f_v_q[t_set];
    t_new.w         = f_w_q;
  end

  // ------------------------------------------------------------------ SETUP
  // A unit task a clock through a pipeline that stalls as one (adv_up), stage k at
  // tk[k] (behind k + 1 registers):
  //   0      the task and its derivatives; unit 0's cube face and (x, y, z); the LOD's inputs
  //   1      the reciprocal's operand (z of a cube, else w), then RcpStages of pica_f24_rcp_p
  //   S_RR   rcp; the two lanes (s, t) multiply x · rcp (cube) or u · rcp (projection)
  //   S_M1   the products (the projection's coordinates); times 0.5 (pica_f24_mul_p)
  //   S_M2   the halves; plus 0.5 (pica_f24_add_p, two registers)
  //   S_AD   the cube's s and t; the coordinates, base and shadow depth chosen by the type
  // while the level of detail (pica_tex_lod, four registers) is ready at S_PL. Behind S_AD,
  // LEVEL takes the task.
  localparam int RcpSteps  = 2;
  localparam int RcpStages = 16 / RcpSteps;
  localparam int S_RR = 2 + RcpStages;   // rcp registered
  localparam int S_M1 = S_RR + 2;         // mul_p's register, then ours
  localparam int S_M2 = S_M1 + 2;
  localparam int S_AD = S_M2 + 3;         // add_p's two registers, then ours
  localparam int S_PL = 5;                // the LOD's four registers, then ours
  localparam int NS   = S_AD + 1;

  logic [NS-1:0] tv_q;                    // stage k holds a task
  // The task at stage 0, at S_RR and at S_AD (the stages that read it).
  logic [TaskW-1:0] tk0_raw, tk_rr_raw, tk_ad_raw;
  task_t tk0, tk_rr, tk_ad;
  pica_delay #(.W(TaskW), .N(1)) u_tk0 (
    .clk_i, .en_i(adv_up), .d_i(t_new), .q_o(tk0_raw));
  pica_delay #(.W(TaskW), .N(S_RR)) u_tk_rr (
    .clk_i, .en_i(adv_up), .d_i(tk0_raw), .q_o(tk_rr_raw));
  pica_delay #(.W(TaskW), .N(S_AD - S_RR)) u_tk_ad (
    .clk_i, .en_i(adv_up), .d_i(tk_rr_raw), .q_o(tk_ad_raw));
  assign tk0   = tk0_raw;
  assign tk_rr = tk_rr_raw;
  assign tk_ad = tk_ad_raw;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) tv_q <= '0;
    else if (adv_up) tv_q <= {tv_q[NS-2:0], t_fire};
  end

  logic [95:0] d0_q;                      // stage 0's derivatives
  always_ff @(posedge clk_i) if (adv_up) d0_q <= f_d_q[t_set];

  // Unit 0's cube face and the reciprocal's operand.
  logic        t0_cube;
  logic [2:0]  face;
  logic [23:0] cx, cy, cz;
  assign t0_cube = tk0.ttype == 3'd1 || tk0.ttype == 3'd4;
  pica_tex_cube_face u_face (
    .u_i(tk0.u), .v_i(tk0.v), .w_i(tk0.w), .face_o(face), .x_o(cx), .y_o(cy), .z_o(cz)
  );
  logic [23:0] op_q;
  always_ff @(posedge clk_i) if (adv_up) op_q <= t0_cube ? cz : tk0.w;
  // The face and |z| until the select; x and y until the multipliers.
  logic [26:0] fz_ad;
  logic [47:0] xy_rr;
  pica_delay #(.W(27), .N(S_AD)) u_fz (
    .clk_i, .en_i(adv_up), .d_i({face, 1'b0, cz[22:0]}), .q_o(fz_ad));
  pica_delay #(.W(48), .N(S_RR)) u_xy (
    .clk_i, .en_i(adv_up), .d_i({cx, cy}), .q_o(xy_rr));

  logic [23:0] rcp, rr_q;
  pica_f24_rcp_p #(.Steps(RcpSteps)) u_rcp (.clk_i, .en_i(adv_up), .a_i(op_q), .y_o(rcp));
  always_ff @(posedge clk_i) if (adv_up) rr_q <= rcp;

  // The two lanes: (x, y) · rcp for a cube, (u, v) · rcp for a projection; · 0.5; + 0.5.
  localparam logic [23:0] Half = 24'h3E_0000;   // 0.5
  logic        rr_cube;
  assign rr_cube = tk_rr.ttype == 3'd1 || tk_rr.ttype == 3'd4;
  logic [23:0] m1s, m1t, m1s_q, m1t_q, m2s, m2t, m2s_q, m2t_q, as, at, as_q, at_q;
  pica_f24_mul_p u_m1s (.clk_i, .en_i(adv_up), .a_i(rr_cube ? xy_rr[47:24] : tk_rr.u),
                        .b_i(rr_q), .y_o(m1s));
  pica_f24_mul_p u_m1t (.clk_i, .en_i(adv_up), .a_i(rr_cube ? xy_rr[23:0] : tk_rr.v),
                        .b_i(rr_q), .y_o(m1t));
  pica_f24_mul_p u_m2s (.clk_i, .en_i(adv_up), .a_i(m1s_q), .b_i(Half), .y_o(m2s));
  pica_f24_mul_p u_m2t (.clk_i, .en_i(adv_up), .a_i(m1t_q), .b_i(Half), .y_o(m2t));
  pica_f24_add_p u_as (.clk_i, .en_i(adv_up), .a_i(m2s_q), .b_i(Half), .y_o(as));
  pica_f24_add_p u_at (.clk_i, .en_i(adv_up), .a_i(m2t_q), .b_i(Half), .y_o(at));
  always_ff @(posedge clk_i) begin
    if (adv_up) begin
      m1s_q <= m1s; m1t_q <= m1t;
      m2s_q <= m2s; m2t_q <= m2t;
      as_q  <= as;  at_q  <= at;
    end
  end
  logic [47:0] pj_ad;                     // the projection's (u, v) at S_AD
  pica_delay #(.W(48), .N(S_AD - S_M1)) u_pj (
    .clk_i, .en_i(adv_up), .d_i({m1s_q, m1t_q}), .q_o(pj_ad));

  // The level of detail, from stage 0's derivatives and unit.
  logic [3:0] p_level, p_next;
  logic [7:0] p_frac;
  logic       p_two, p_linear;
  logic [31:0] lod0, param0;
  assign lod0   = r_lod[tk0.unit];
  assign param0 = r_param[tk0.unit];
  pica_tex_lod #(.Reg(1'b1)) u_lod (
    .clk_i, .en_i(adv_up),
    .du_dx_i(d0_q[23:0]), .dv_dx_i(d0_q[47:24]), .du_dy_i(d0_q[71:48]),
    .dv_dy_i(d0_q[95:72]), .width_i(r_dim[tk0.unit][26:16]), .height_i(r_dim[tk0.unit][10:0]),
    .bias_i(lod0[12:0]), .min_level_i(lod0[27:24]), .max_level_i(lod0[19:16]),
    .mag_linear_i(param0[1]), .min_linear_i(param0[2]), .mip_linear_i(param0[24]),
    .level_o(p_level), .next_o(p_next), .frac_o(p_frac), .two_o(p_two), .linear_o(p_linear)
  );
  logic [17:0] pl_ad;                     // {level, next, frac, two, linear} at S_AD
  pica_delay #(.W(18), .N(S_AD - S_PL + 1)) u_pl (
    .clk_i, .en_i(adv_up), .d_i({p_level, p_next, p_frac, p_two, p_linear}), .q_o(pl_ad));

  // The coordinates after the transform (S_AD).
  logic [2:0]  a_face;
  logic [23:0] a_zabs;
  assign a_face = fz_ad[26:24];
  assign a_zabs = fz_ad[23:0];
  logic [31:0] face_addr;
  always_comb begin
    if (a_face == 3'd0 || a_face > 3'd5) face_addr = {1'b0, r_addr[0][27:0], 3'b000};
    else face_addr = {1'b0, r_addr[0][27:22], r_face[a_face - 3'd1][21:0], 3'b000};
  end
  logic [23:0] c_u, c_v, c_shz;
  logic [31:0] c_base;
  logic        c_shadow;
  always_comb begin
    c_u = tk_ad.u;
    c_v = tk_ad.v;
    c_base = {1'b0, r_addr[tk_ad.unit][27:0], 3'b000};
    c_shadow = 1'b0;
    c_shz = tk_ad.w;
    case (tk_ad.ttype)
      3'd3: begin c_u = pj_ad[47:24]; c_v = pj_ad[23:0]; end      // projection
      3'd1, 3'd4: begin                                            // cube, shadow cube
        c_u = as_q; c_v = at_q; c_base = face_addr;
        c_shadow = tk_ad.ttype == 3'd4; c_shz = a_zabs;
      end
      3'd2: begin                                                  // shadow 2D
        if (!r_shadow[0]) begin c_u = pj_ad[47:24]; c_v = pj_ad[23:0]; end
        c_shadow = 1'b1;
      end
      default: ;
    endcase
  end

  // ------------------------------------------------------------------ LEVEL
  // The set-up unit task: one level task out a clock, two for a blend of levels (the finer
  // first); the unit-task stages wait while the second goes.
  typedef struct packed {
    logic [31:0] tag;
    logic        flush;
    logic [1:0]  unit;
    logic        last_frag;
    logic        cnst;
    logic [23:0] u, v, shz;
    logic [31:0] base;
    logic        shadow;
    logic [3:0]  level, next;
    logic [7:0]  frac;
    logic        two, linear;
  } utask_t;
  utask_t ut_d, ut_q;
  logic   ut_v_q, ut_second_q, ut_more;
  always_comb begin
    ut_d.tag       = tk_ad.tag;
    ut_d.flush     = tk_ad.flush;
    ut_d.unit      = tk_ad.unit;
    ut_d.last_frag = tk_ad.last_frag;
    ut_d.cnst      = tk_ad.cnst;
    ut_d.u         = c_u;
    ut_d.v         = c_v;
    ut_d.shz       = c_shz;
    ut_d.base      = c_base;
    ut_d.shadow    = c_shadow;
    {ut_d.level, ut_d.next, ut_d.frac, ut_d.two, ut_d.linear} = pl_ad;
  end
  assign ut_more = ut_v_q && !ut_q.cnst && ut_q.two && !ut_second_q;
  assign adv_up  = adv && !ut_more;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ut_v_q <= 1'b0; ut_q <= '0; ut_second_q <= 1'b0;
    end else if (adv) begin
      if (ut_more) begin
        ut_second_q <= 1'b1;
      end else begin
        ut_second_q <= 1'b0;
        ut_v_q <= tv_q[NS-1];
        ut_q   <= ut_d;
      end
    end
  end

  // The level task: the level's size from the table's unit, its first byte, its coordinates.
  logic [3:0]  l_level;
  logic [10:0] l_w, l_h;
  assign l_level = ut_second_q ? ut_q.next : ut_q.level;
  pica_tex_dim #(.MinOne(MinOne)) u_lw (
    .dim_i(r_dim[ut_q.unit][26:16]), .level_i(l_level), .dim_o(l_w));
  pica_tex_dim #(.MinOne(MinOne)) u_lh (
    .dim_i(r_dim[ut_q.unit][10:0]), .level_i(l_level), .dim_o(l_h));

  typedef struct packed {
    logic [31:0] tag;
    logic        flush;       // the fragment's first level task
    logic [1:0]  unit;
    logic        second;      // the coarser level of a blend
    logic        last_frag;
    logic        cnst;
    logic [10:0] lw, lh;
    logic [31:0] base;        // the level's first byte
    logic        shadow;
    logic [23:0] shz;
    logic        linear, two;
    logic [7:0]  frac;
  } lvl_t;
  localparam int LvlW = 127;              // $bits(lvl_t)
  lvl_t lv_d, lv_q, lv2;
  logic lv_v_q, lv2_v_q;
  always_comb begin
    lv_d.tag       = ut_q.tag;
    lv_d.flush     = ut_q.flush && !ut_second_q;
    lv_d.unit      = ut_q.unit;
    lv_d.second    = ut_second_q;
    lv_d.last_frag = ut_q.last_frag;
    lv_d.cnst      = ut_q.cnst;
    lv_d.lw        = l_w;
    lv_d.lh        = l_h;
    lv_d.base      = ut_q.base + 32'(tab_off[{ut_q.unit, l_level}]);
    lv_d.shadow    = ut_q.shadow;
    lv_d.shz       = ut_q.shz;
    lv_d.linear    = ut_q.linear;
    lv_d.two       = ut_q.two;
    lv_d.frac      = ut_q.frac;
  end
  // The texel position: floor(x · size · 256) (pica_tex_coord, its product registered), less
  // half a texel for a linear filter.
  logic [47:0] uv_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lv_v_q <= 1'b0; lv_q <= '0; uv_q <= '0; lv2_v_q <= 1'b0;
    end else if (adv) begin
      lv_v_q  <= ut_v_q;
      lv_q    <= lv_d;
      uv_q    <= {ut_q.u, ut_q.v};
      lv2_v_q <= lv_v_q;
    end
  end
  logic [LvlW-1:0] lv2_raw;
  pica_delay #(.W(LvlW), .N(1)) u_lv2 (.clk_i, .en_i(adv), .d_i(lv_q), .q_o(lv2_raw));
  assign lv2 = lv2_raw;
  logic signed [41:0] ps, pt, ps_f, pt_f;
  pica_tex_coord #(.Reg(1'b1)) u_cs (
    .clk_i, .en_i(adv), .x_i(uv_q[47:24]), .scale_i(lv_q.lw), .p_o(ps));
  pica_tex_coord #(.Reg(1'b1)) u_ct (
    .clk_i, .en_i(adv), .x_i(uv_q[23:0]), .scale_i(lv_q.lh), .p_o(pt));
  assign ps_f = lv2.linear ? ps - 42'sd128 : ps;
  assign pt_f = lv2.linear ? pt - 42'sd128 : pt;

  // Into the level FIFO: the level task and its first texel (i, j) with the weights.
  typedef struct packed {
    lvl_t               l;
    logic signed [33:0] i0, j0;
    logic [7:0]         fx, fy;
  } lq_t;
  localparam int LqW = LvlW + 84;
  lq_t lq_in, lq;
  assign lq_in.l  = lv2;
  assign lq_in.i0 = 34'(ps_f >>> 8);
  assign lq_in.j0 = 34'(pt_f >>> 8);
  assign lq_in.fx = lv2.linear ? ps_f[7:0] : 8'd0;
  assign lq_in.fy = lv2.linear ? pt_f[7:0] : 8'd0;
  logic lq_full, lq_valid, lq_pop;
  logic [LqW-1:0] lq_raw;
  /* verilator lint_off PINCONNECTEMPTY */
  pica_fifo #(.Width(LqW), .Depth(4)) u_lq (
    .clk_i, .rst_ni, .push_i(adv && lv2_v_q), .wdata_i(lq_in), .full_o(lq_full),
    .pop_i(lq_pop), .valid_o(lq_valid), .rdata_o(lq_raw), .empty_o()
  );
  /* verilator lint_on PINCONNECTEMPTY */
  assign lq  = lq_raw;
  assign adv = !lq_full;

  // ------------------------------------------------------------------ ISSUE
  // The level FIFO's head: one texel job a clock — four for a linear filter, (i, j), (i+1, j),
  // (i, j+1), (i+1, j+1), one for nearest — in the model's read order.
  localparam int Depth = 64;
  logic [6:0] credit_q;           // jobs between issue and the cache, at most the FIFOs' depth
  logic       issue, consume, can_issue;
  assign can_issue = credit_q < 7'(Depth);
  logic [1:0] k_q;
  logic       last_level_now, last_unit_now;
  assign last_level_now = lq.l.cnst || !lq.l.linear || k_q == 2'd3;
  assign last_unit_now  = last_level_now && (lq.l.cnst || !lq.l.two || lq.l.second);
  assign issue  = lq_valid && can_issue;
  assign lq_pop = issue && last_level_now;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) k_q <= '0;
    else if (issue) k_q <= last_level_now ? 2'd0 : k_q + 2'd1;
  end

  // The border colour by a continuous assignment: a function called from two always_comb
  // blocks (this one and FILTER's) made Icarus wake each from the other without end
  // (rtl/README.md "A rule for Icarus").
  logic [31:0] lq_border;
  assign lq_border = swap(r_border[lq.l.unit]);
  job_t job;
  always_comb begin
    job = '0;
    job.kind_const = lq.l.cnst;
    job.flush      = lq.l.flush && k_q == 2'd0;
    job.unit       = lq.l.unit;
    job.second     = lq.l.second;
    job.k          = k_q;
    job.last_level = last_level_now;
    job.last_unit  = last_unit_now;
    job.last_frag  = last_unit_now && lq.l.last_frag;
    job.tag        = lq.l.tag;
    job.lw         = lq.l.lw;
    job.lh         = lq.l.lh;
    job.base       = lq.l.base;
    job.fmt        = r_type[lq.l.unit][3:0];
    job.border     = lq_border;
    job.shadow     = lq.l.shadow;
    job.shz        = lq.l.shz;
    job.zbias      = r_shadow[23:1];
    job.linear     = lq.l.linear;
    job.two        = lq.l.two;
    job.fx         = lq.fx;
    job.fy         = lq.fy;
    job.frac       = lq.l.frac;
  end

  // The texel of the footprint: (i + k[0], j + k[1]).
`ifdef INJECT_TEX_JOB_ORDER
  logic [1:0] kk;
  assign kk = {k_q[0], k_q[1]};
`else
  logic [1:0] kk;
  assign kk = k_q;
`endif
  logic signed [33:0] ji, jj;
  assign ji = lq.i0 + 34'(kk[0]);
  assign jj = lq.j0 + 34'(kk[1]);
  logic [31:0] cur_param;
  assign cur_param = r_param[lq.l.unit];

  // ------------------------------------------------------------------ WRAP
  logic        ws_valid, ws_border, wt_border;
  logic [10:0] ws_idx, wt_idx;
  logic        wrap_in;
  assign wrap_in = issue;
  pica_tex_wrap u_wrap_s (
    .clk_i, .rst_ni, .valid_i(wrap_in), .mode_i(cur_param[14:12]), .i_i(ji), .n_i(lq.l.lw),
    .valid_o(ws_valid), .border_o(ws_border), .idx_o(ws_idx)
  );
  /* verilator lint_off PINCONNECTEMPTY */
  pica_tex_wrap u_wrap_t (
    .clk_i, .rst_ni, .valid_i(wrap_in), .mode_i(cur_param[10:8]), .i_i(jj), .n_i(lq.l.lh),
    .valid_o(), .border_o(wt_border), .idx_o(wt_idx)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // $bits(job_t), spelled out for Yosys 0.23 (Verilator -Wall checks the widths agree).
  localparam int JobW = 206;
  logic        meta_valid, wr_valid;
  logic [JobW-1:0] meta_raw;
  job_t        meta;
  assign meta = meta_raw;
  logic [22:0] wr_head;
  // In LUT RAM (the jobs in block RAM, pica_bram_fifo, with PICA_TEX_JOBS_BRAM: the jobs_bram
  // build); credits keep both within Depth entries. An empty FIFO's head is undefined (x: Icarus,
  // given x through ADDR into the cache's request, never left the time step): it reads as zero.
  logic [JobW-1:0] meta_ram;
  logic [22:0]     wr_ram;
  `ifdef PICA_TEX_JOBS_BRAM pica_bram_fifo `else pica_ram_fifo `endif #(.Width(JobW), .Depth(Depth)) u_meta (
    .clk_i, .rst_ni, .push_i(issue), .wdata_i(job),
    .pop_i(consume), .valid_o(meta_valid), .rdata_o(meta_ram)
  );
  pica_ram_fifo #(.Width(23), .Depth(Depth)) u_wrapped (
    .clk_i, .rst_ni, .push_i(ws_valid), .wdata_i({ws_border | wt_border, ws_idx, wt_idx}),
    .pop_i(consume), .valid_o(wr_valid), .rdata_o(wr_ram)
  );
  assign meta_raw = meta_valid ? meta_ram : '0;
  assign wr_head  = wr_valid ? wr_ram : '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) credit_q <= '0;
    else credit_q <= credit_q + 7'(issue) - 7'(consume);
  end

  // ------------------------------------------------------------------ ADDR
  logic        a_border;
  logic [10:0] a_x, a_t, a_yr;
  assign {a_border, a_x, a_t} = wr_head;
  assign a_yr = meta.lh - 11'd1 - a_t;
  logic [31:0] t_off;
  logic [4:0]  t_len;
  logic        t_hi;
  logic [1:0]  t_bx, t_by;
  pica_tex_addr u_addr (
    .fmt_i(meta.fmt), .width_i(meta.lw), .x_i(a_x), .yr_i(a_yr),
    .offset_o(t_off), .len_o(t_len), .hi_nib_o(t_hi), .bx_o(t_bx), .by_o(t_by)
  );

  // What travels through the cache with a read.
  typedef struct packed {
    logic        kind_const;
    logic        border;
    logic [1:0]  unit;
    logic        second;
    logic [1:0]  k;
    logic        last_level;
    logic        last_unit;
    logic        last_frag;
    logic [31:0] tag;
    logic [31:0] addr;
    logic [3:0]  fmt;
    logic        hi;
    logic [1:0]  bx, by;
    logic [31:0] border_c;
    logic        shadow;
    logic [23:0] shz;
    logic [22:0] zbias;
    logic        linear;
    logic        two;
    logic [7:0]  fx, fy, frac;
  } rd_t;
  localparam int RdW = 189;             // $bits(rd_t)

  rd_t rd;
  always_comb begin
    rd.kind_const = meta.kind_const;
    rd.border     = a_border && !meta.kind_const;
    rd.unit       = meta.unit;
    rd.second     = meta.second;
    rd.k          = meta.k;
    rd.last_level = meta.last_level;
    rd.last_unit  = meta.last_unit;
    rd.last_frag  = meta.last_frag;
    rd.tag        = meta.tag;
    rd.addr       = meta.base + t_off;
    rd.fmt        = meta.fmt;
    rd.hi         = t_hi;
    rd.bx         = t_bx;
    rd.by         = t_by;
    rd.border_c   = meta.border;
    rd.shadow     = meta.shadow;
    rd.shz        = meta.shz;
    rd.zbias      = meta.zbias;
    rd.linear     = meta.linear;
    rd.two        = meta.two;
    rd.fx         = meta.fx;
    rd.fy         = meta.fy;
    rd.frac       = meta.frac;
  end

  logic        hang_q;             // an unmapped texel: the stage has stopped (DECODE)
  logic        c_req_ready, c_rsp_valid, c_rsp_ready, c_err, c_busy, c_filling;
  logic [127:0] c_raw;
  logic [31:0] c_err_addr;
  logic [RdW-1:0] c_user_raw;
  rd_t         c_user;
  assign c_user = c_user_raw;

  // The ADDR register: the read as the cache takes it. The address (a product of the tile row
  // and the level's width, the texel's offset and the level's base, after the FIFOs' LUT RAM
  // read) and the cache's lookup in one clock were the unit's longest path (33.1 ns on the
  // LFE5U-85F, 2026-12-02).
  logic        a_valid_q, a_take, a_flush_q;
  rd_t         a_rd_q;
  logic [4:0]  a_len_q;
  assign a_take  = a_valid_q && c_req_ready && !hang_q;
  assign consume = meta_valid && wr_valid && !hang_q && (!a_valid_q || a_take);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_valid_q <= 1'b0; a_rd_q <= '0; a_len_q <= '0; a_flush_q <= 1'b0;
    end else if (consume) begin
      a_valid_q <= 1'b1;
      a_rd_q    <= rd;
      a_len_q   <= (meta.kind_const || a_border) ? 5'd0 : t_len;
      a_flush_q <= meta.flush;
    end else if (a_take) begin
      a_valid_q <= 1'b0;
    end
  end

  logic inv;
  assign inv = cfg_we_i && cfg_id_i == 10'h080 && cfg_data_i[16];

  pica_tex_cache #(.SetBits(6), .UserW(RdW), .IdBits(2)) u_cache (
    .clk_i, .rst_ni, .inv_i(inv), .stop_i(hang_q),
    .req_valid_i(a_valid_q && !hang_q), .req_ready_o(c_req_ready),
    .req_addr_i(a_rd_q.addr), .req_len_i(a_len_q), .req_flush_i(a_flush_q), .req_user_i(a_rd_q),
    .rsp_valid_o(c_rsp_valid), .rsp_ready_i(c_rsp_ready), .rsp_raw_o(c_raw),
    .rsp_err_o(c_err), .rsp_err_addr_o(c_err_addr), .rsp_user_o(c_user_raw),
    .arvalid_o(mem_arvalid_o), .arready_i(mem_arready_i), .arid_o(mem_arid_o),
    .araddr_o(mem_araddr_o), .arlen_o(mem_arlen_o), .arsize_o(mem_arsize_o),
    .arburst_o(mem_arburst_o), .rvalid_i(mem_rvalid_i), .rready_o(mem_rready_o),
    .rid_i(mem_rid_i), .rdata_i(mem_rdata_i), .rresp_i(mem_rresp_i), .rlast_i(mem_rlast_i),
    .busy_o(c_busy), .filling_o(c_filling)
  );

  // The texture units only read: the write channels stay quiet.
  assign mem_awvalid_o = 1'b0;
  assign mem_awid_o    = '0;
  assign mem_awaddr_o  = '0;
  assign mem_awlen_o   = '0;
  assign mem_awsize_o  = '0;
  assign mem_awburst_o = '0;
  assign mem_wvalid_o  = 1'b0;
  assign mem_wdata_o   = '0;
  assign mem_wstrb_o   = '0;
  assign mem_wlast_o   = 1'b0;
  assign mem_bready_o  = 1'b1;

  // ------------------------------------------------------------------ DECODE
  logic [31:0] texel, texel_sh, colour;
  pica_tex_texel #(.AlphaWhite(AlphaWhite), .ReservedZero(ReservedZero)) u_texel (
    .fmt_i(c_user.fmt), .raw_i(c_raw), .hi_nib_i(c_user.hi), .bx_i(c_user.bx),
    .by_i(c_user.by), .rgba_o(texel)
  );
  logic [31:0] plain;
  assign plain = c_user.kind_const ? 32'd0 : c_user.border ? c_user.border_c : texel;
  pica_tex_shadow u_shadow (
    .z_i(c_user.shz), .zbias_i(c_user.zbias), .texel_i(plain), .rgba_o(texel_sh)
  );
  assign colour = (c_user.shadow && !c_user.kind_const) ? texel_sh : plain;

  logic fetched, hang_now;
  assign fetched  = !c_user.kind_const && !c_user.border;
  assign hang_now = c_rsp_valid && fetched && c_err && !UnmappedZero;

  // The decode register (d_*): the texel's colour and its bookkeeping, into FILTER.
  logic        d_valid_q;
  rd_t         d_q;
  logic [31:0] d_col_q;
  logic [16:0] d_w00_q, d_w10_q, d_w01_q, d_w11_q;  // the footprint's weights (FILTER)
  logic        f_take, e_take, e_valid_q, out_full;
  assign f_take = d_valid_q && (!e_valid_q || e_take);
  assign c_rsp_ready = !hang_q && (!d_valid_q || f_take);

  // The bilinear weights from the response's fractions, registered beside its colour so that
  // FILTER's first clock starts at the colour products.
  logic [16:0] w00, w10, w01, w11;
  pica_tex_weights u_weights (
    .fx_i(c_user.fx), .fy_i(c_user.fy), .w00_o(w00), .w10_o(w10), .w01_o(w01), .w11_o(w11)
  );

  logic [1:0]  hang_unit_q;
  logic [31:0] hang_addr_q;
  logic        fv_q;
  logic [31:0] ftag_q, faddr_q, frgba_q;
  logic [1:0]  funit_q;
  logic [127:0] fraw_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      d_valid_q <= 1'b0; d_q <= '0; d_col_q <= '0;
      d_w00_q <= '0; d_w10_q <= '0; d_w01_q <= '0; d_w11_q <= '0;
      hang_q <= 1'b0; hang_unit_q <= '0; hang_addr_q <= '0;
      fv_q <= 1'b0; ftag_q <= '0; faddr_q <= '0; frgba_q <= '0; funit_q <= '0; fraw_q <= '0;
    end else begin
      fv_q <= 1'b0;
      if (hang_now && !hang_q) begin
        // The first unmapped read only: the read in hand behind it (the cache took it with the
        // hanging response) may answer with an error a clock later, and the fields must hold.
        hang_q      <= 1'b1;
        hang_unit_q <= c_user.unit;
        hang_addr_q <= c_err_addr;
      end else if (c_rsp_valid && c_rsp_ready) begin
        d_valid_q <= 1'b1;
        d_q       <= c_user;
        d_col_q   <= colour;
        d_w00_q   <= w00;
        d_w10_q   <= w10;
        d_w01_q   <= w01;
        d_w11_q   <= w11;
        if (fetched) begin
          fv_q    <= 1'b1;
          ftag_q  <= c_user.tag;
          funit_q <= c_user.unit;
          faddr_q <= c_user.addr;
          fraw_q  <= c_raw;
          frgba_q <= swap(texel);
        end
      end else if (f_take) begin
        d_valid_q <= 1'b0;
      end
    end
  end

  assign fetch_valid_o = fv_q;
  assign fetch_tag_o   = ftag_q;
  assign fetch_unit_o  = funit_q;
  assign fetch_addr_o  = faddr_q;
  assign fetch_raw_o   = fraw_q;
  assign fetch_rgba_o  = frgba_q;
  assign hang_o        = hang_q;
  assign hang_kind_o   = {1'b0, hang_q};
  assign hang_unit_o   = hang_unit_q;
  assign hang_addr_o   = hang_addr_q;

  // ------------------------------------------------------------------ FILTER
  // Two clocks: the bilinear blend of the level's four texels (decode register -> e_*), then
  // the blend of two mipmap levels and the fragment's unit colours (e_* -> tex_q, u_out).
  logic [31:0] fc_q [3];            // the level's first three texels
  logic [31:0] lvl_a_q;             // the finer level's colour of a blend
  logic [31:0] tex_q [3];           // the fragment's unit colours, {r, g, b, a}
  rd_t         e_q;                 // the level's last texel's bookkeeping
  logic [31:0] e_col_q;             // ... and the level's colour
  logic [31:0] bil, lerp, lvl_col, unit_col;
  pica_tex_filter #(.Truncate(Truncate)) u_filter (
    .c00_i(fc_q[0]), .c10_i(fc_q[1]), .c01_i(fc_q[2]), .c11_i(d_col_q),
    .w00_i(d_w00_q), .w10_i(d_w10_q), .w01_i(d_w01_q), .w11_i(d_w11_q), .bilinear_o(bil),
    .lvl_a_i(lvl_a_q), .lvl_b_i(e_col_q), .lvl_f_i(e_q.frac), .levels_o(lerp)
  );
  assign lvl_col  = d_q.linear && !d_q.kind_const ? bil : d_col_q;
  assign unit_col = e_q.two && e_q.second && !e_q.kind_const ? lerp : e_col_q;
  assign e_take   = e_valid_q && !(e_q.last_frag && out_full);

  logic [95:0] out_word;
  always_comb begin
    out_word = {swap(tex_q[2]), swap(tex_q[1]), swap(tex_q[0])};
    out_word[32*e_q.unit +: 32] = swap(unit_col);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int k = 0; k < 3; k++) begin fc_q[k] <= '0; tex_q[k] <= '0; end
      lvl_a_q <= '0; e_valid_q <= 1'b0; e_q <= '0; e_col_q <= '0;
    end else begin
      if (f_take) begin
        if (d_q.k != 2'd3) fc_q[d_q.k] <= d_col_q;
        e_valid_q <= 1'b1;
        e_q       <= d_q;
        e_col_q   <= lvl_col;
      end else if (e_take) begin
        e_valid_q <= 1'b0;
      end
      if (e_take) begin
        if (e_q.last_level && !e_q.second) lvl_a_q <= e_col_q;
        if (e_q.last_unit) tex_q[e_q.unit] <= unit_col;
        if (e_q.last_frag) for (int k = 0; k < 3; k++) tex_q[k] <= '0;
      end
    end
  end

  logic [127:0] out_head;
  logic         out_push;
  assign out_push = e_take && e_q.last_frag;
  /* verilator lint_off PINCONNECTEMPTY */
  pica_fifo #(.Width(128), .Depth(4)) u_out (
    .clk_i, .rst_ni, .push_i(out_push), .wdata_i({e_q.tag, out_word}), .full_o(out_full),
    .pop_i(out_valid_o && out_ready_i), .valid_o(out_valid_o), .rdata_o(out_head),
    .empty_o()
  );
  /* verilator lint_on PINCONNECTEMPTY */
  assign out_tag_o = out_head[127:96];
  assign out_tex_o = out_head[95:0];

  // Idle: nothing inside; or hung (nothing more will happen) with no burst still owed, as
  // pica_fop's hang state (the testbench drains to idle before it checks the outcome).
  assign idle_o = (hang_q && !c_filling)
                || (tab_ready && !f_valid_q && tv_q == '0 && !ut_v_q && !lv_v_q && !lv2_v_q
                    && !lq_valid && credit_q == 7'd0 && !a_valid_q && !c_busy && !d_valid_q && !e_valid_q && !out_valid_o);

  logic unused;
  assign unused = ^{mem_awready_i, mem_wready_i, mem_bvalid_i, mem_bid_i, mem_bresp_i,
                    r_config[31:14], r_config[12:3], cur_param, lod0, param0, r_type[0],
                    r_type[1], r_type[2], r_shadow[31:24], r_dim[0][31:27],
                    r_dim[0][15:11], r_dim[1], r_dim[2], r_addr[0][31:29], r_addr[1][31:29],
                    r_addr[2][31:29], r_face[0][31:22], r_face[1][31:22], r_face[2][31:22],
                    r_face[3][31:22], r_face[4][31:22], meta.k, meta.second, meta.linear, d_q, e_q, tk0, tk_rr};
endmodule
