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
//   SETUP   per fragment and enabled unit: unit 0's coordinate transform (projection: u, v
//           times rcp(w) on the shader ALU's f24 blocks; cube maps: pica_tex_cube; the shadow
//           reference depth), the level plan (pica_tex_lod), then per level its size and byte
//           offset (pica_tex_level, a level a clock) and the texel position (pica_tex_coord);
//           then one texel job a clock: four for a linear filter — (i, j), (i+1, j), (i, j+1),
//           (i+1, j+1) — one for nearest, the finer level first. That is the model's read
//           order, and every later step keeps it, so a hang names the model's texel.
//   WRAP    both axes through pica_tex_wrap (a 35-clock pipeline, an index a clock); the
//           job's other fields wait in a FIFO beside it. A credit counter bounds the jobs
//           between issue and the cache to the FIFOs' depth (the wrap pipeline cannot stall).
//   ADDR    the texel's address (pica_tex_addr) from the level's base; border texels and
//           constant jobs (a disabled or reserved unit) read nothing.
//   CACHE   pica_tex_cache: a texel a clock on hits, 16-byte lines filled over AXI4.
//   DECODE  pica_tex_texel (every format, ETC1/ETC1A4), the border colour, the shadow
//           comparison (pica_tex_shadow); an unmapped byte hangs the stage (hang_o, the unit
//           and the byte), as the model's TexHang::Unmapped, or reads 0 (UnmappedZero).
//           Every texel read is reported on fetch_* in order (the model's `texel` beats).
//   FILTER  the four texels of a linear level through pica_tex_filter, then the two levels
//           of a mipmap blend; a unit's colour is kept until the fragment's last unit.
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

  // ------------------------------------------------------------------ SETUP
  typedef enum logic [2:0] {S_IDLE, S_UNIT, S_COORD, S_LOD, S_LVL_START, S_LVL_WAIT, S_ISSUE}
    state_e;
  state_e s_q;

  logic [31:0]  f_tag_q;
  logic         f_flush_q;
  logic [23:0]  f_u_q [3];
  logic [23:0]  f_v_q [3];
  logic [23:0]  f_w_q;
  logic [95:0]  f_d_q [3];
  logic         first_job_q;     // no job of the fragment issued yet

  logic [2:0]   en;              // units enabled
  assign en = r_config[2:0];
  logic [1:0]   unit_q;          // the unit in hand
  logic [1:0]   last_en;         // the fragment's last enabled unit
  assign last_en = en[2] ? 2'd2 : en[1] ? 2'd1 : 2'd0;

  // The unit in hand's registers.
  logic [31:0] cur_param, cur_lod, cur_type, cur_border;
  logic [10:0] cur_width, cur_height;
  assign cur_param  = r_param[unit_q];
  assign cur_lod    = r_lod[unit_q];
  assign cur_type   = r_type[unit_q];
  assign cur_border = swap(r_border[unit_q]);
  assign cur_width  = r_dim[unit_q][26:16];
  assign cur_height = r_dim[unit_q][10:0];

  // Unit 0's type (PARAM 28-30); units 1 and 2 are always 2D.
  logic [2:0] ttype;
  assign ttype = unit_q == 2'd0 ? r_param[0][30:28] : 3'd0;
  logic type_off, fmt_zero;
  assign type_off = ttype == 3'd5 || (ReservedTypeDisabled && ttype[2:1] == 2'b11);
  assign fmt_zero = ReservedZero && cur_type[3:1] == 3'b111;

  // The coordinate set: unit k reads set k, unit 2 set 1 when texture2_coords (bit 13).
  logic [1:0] set;
  assign set = (unit_q == 2'd2 && r_config[13]) ? 2'd1 : unit_q;

  // Unit 0's transforms.
  logic [23:0] rw, pu, pv;
  pica_f24_rcp u_rcp (.a_i(f_w_q), .y_o(rw));
  pica_f24_mul u_pu (.a_i(f_u_q[0]), .b_i(rw), .y_o(pu));
  pica_f24_mul u_pv (.a_i(f_v_q[0]), .b_i(rw), .y_o(pv));
  logic [2:0]  face;
  logic [23:0] cs, ct, czabs;
  pica_tex_cube u_cube (
    .u_i(f_u_q[0]), .v_i(f_v_q[0]), .w_i(f_w_q),
    .face_o(face), .s_o(cs), .t_o(ct), .zabs_o(czabs)
  );
  logic [31:0] face_addr;
  always_comb begin
    if (face == 3'd0 || face > 3'd5) face_addr = {1'b0, r_addr[0][27:0], 3'b000};
    else face_addr = {1'b0, r_addr[0][27:22], r_face[face - 3'd1][21:0], 3'b000};
  end

  // The coordinates after the transform.
  logic [23:0] c_u, c_v, c_shz;
  logic [31:0] c_base;
  logic        c_shadow;
  always_comb begin
    c_u = f_u_q[set];
    c_v = f_v_q[set];
    c_base = {1'b0, r_addr[unit_q][27:0], 3'b000};
    c_shadow = 1'b0;
    c_shz = f_w_q;
    case (ttype)
      3'd3: begin c_u = pu; c_v = pv; end                          // projection
      3'd1, 3'd4: begin                                            // cube, shadow cube
        c_u = cs; c_v = ct; c_base = face_addr;
        c_shadow = ttype == 3'd4; c_shz = czabs;
      end
      3'd2: begin                                                  // shadow 2D
        if (!r_shadow[0]) begin c_u = pu; c_v = pv; end
        c_shadow = 1'b1;
      end
      default: ;
    endcase
  end

  logic [23:0] u_q, v_q, shz_q;
  logic [31:0] base_q;
  logic        shadow_q;

  // The level plan.
  logic [95:0] d_set;
  assign d_set = f_d_q[set];
  logic [3:0] p_level, p_next;
  logic [7:0] p_frac;
  logic       p_two, p_linear;
  pica_tex_lod u_lod (
    .du_dx_i(d_set[23:0]), .dv_dx_i(d_set[47:24]), .du_dy_i(d_set[71:48]),
    .dv_dy_i(d_set[95:72]), .width_i(cur_width), .height_i(cur_height),
    .bias_i(cur_lod[12:0]), .min_level_i(cur_lod[27:24]), .max_level_i(cur_lod[19:16]),
    .mag_linear_i(cur_param[1]), .min_linear_i(cur_param[2]), .mip_linear_i(cur_param[24]),
    .level_o(p_level), .next_o(p_next), .frac_o(p_frac), .two_o(p_two), .linear_o(p_linear)
  );
  logic [3:0] level_q, next_q;
  logic [7:0] frac_q;
  logic       two_q, linear_q, second_q;

  // The level's size and offset.
  logic        lvl_start, lvl_done;
  logic [10:0] lw, lh;
  logic [27:0] lvl_off;
  logic [3:0]  cur_level;
  assign cur_level = second_q ? next_q : level_q;
  assign lvl_start = s_q == S_LVL_START;
  pica_tex_level #(.MinOne(MinOne)) u_level (
    .clk_i, .rst_ni, .start_i(lvl_start), .fmt_i(cur_type[3:0]), .width_i(cur_width),
    .height_i(cur_height), .level_i(cur_level), .lw_o(lw), .lh_o(lh), .done_o(lvl_done),
    .offset_o(lvl_off)
  );

  // The texel position: floor(x · size · 256), less half a texel for a linear filter.
  logic signed [41:0] ps, pt, ps_f, pt_f;
  pica_tex_coord u_cs (.x_i(u_q), .scale_i(lw), .p_o(ps));
  pica_tex_coord u_ct (.x_i(v_q), .scale_i(lh), .p_o(pt));
  assign ps_f = linear_q ? ps - 42'sd128 : ps;
  assign pt_f = linear_q ? pt - 42'sd128 : pt;

  logic signed [33:0] i0_q, j0_q;
  logic [7:0]         fx_q, fy_q;
  logic [10:0]        lw_q, lh_q;
  logic [31:0]        lbase_q;
  logic [1:0]         k_q;
  logic               const_job_q;   // the job to issue is a constant

  // ---- credits: jobs between issue and the cache, at most the FIFOs' depth
  localparam int Depth = 64;
  logic [6:0] credit_q;
  logic       issue, consume;
  logic       can_issue;
  assign can_issue = credit_q < 7'(Depth);

  job_t job;
  logic last_level_now, last_unit_now;
  always_comb begin
    job = '0;
    job.kind_const = const_job_q;
    job.flush      = first_job_q && f_flush_q;
    job.unit       = unit_q;
    job.second     = second_q;
    job.k          = k_q;
    job.last_level = last_level_now;
    job.last_unit  = last_unit_now;
    job.last_frag  = last_unit_now && unit_q == last_en;
    job.tag        = f_tag_q;
    job.lw         = lw_q;
    job.lh         = lh_q;
    job.base       = lbase_q;
    job.fmt        = cur_type[3:0];
    job.border     = cur_border;
    job.shadow     = shadow_q;
    job.shz        = shz_q;
    job.zbias      = r_shadow[23:1];
    job.linear     = linear_q;
    job.two        = two_q;
    job.fx         = fx_q;
    job.fy         = fy_q;
    job.frac       = frac_q;
  end
  assign last_level_now = const_job_q || !linear_q || k_q == 2'd3;
  assign last_unit_now  = last_level_now && (const_job_q || !two_q || second_q);
  assign issue = s_q == S_ISSUE && can_issue;

  // The texel of the footprint: (i + k[0], j + k[1]).
`ifdef INJECT_TEX_JOB_ORDER
  logic [1:0] kk;
  assign kk = {k_q[0], k_q[1]};
`else
  logic [1:0] kk;
  assign kk = k_q;
`endif
  logic signed [33:0] ji, jj;
  assign ji = i0_q + 34'(kk[0]);
  assign jj = j0_q + 34'(kk[1]);

  // The next enabled unit after unit_q.
  logic [1:0] next_unit;
  always_comb begin
    next_unit = 2'd2;
    if (unit_q == 2'd0 && en[1]) next_unit = 2'd1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_q <= S_IDLE;
      f_tag_q <= '0; f_flush_q <= 1'b0; f_w_q <= '0; first_job_q <= 1'b0;
      for (int s = 0; s < 3; s++) begin f_u_q[s] <= '0; f_v_q[s] <= '0; f_d_q[s] <= '0; end
      unit_q <= '0; u_q <= '0; v_q <= '0; shz_q <= '0; base_q <= '0; shadow_q <= 1'b0;
      level_q <= '0; next_q <= '0; frac_q <= '0; two_q <= 1'b0; linear_q <= 1'b0;
      second_q <= 1'b0; i0_q <= '0; j0_q <= '0; fx_q <= '0; fy_q <= '0; lw_q <= '0;
      lh_q <= '0; lbase_q <= '0; k_q <= '0; const_job_q <= 1'b0;
    end else begin
      case (s_q)
        S_IDLE: if (in_valid_i) begin
          f_tag_q   <= in_tag_i;
          f_flush_q <= in_flush_i;
          f_u_q[0] <= in_tc0_i[23:0];  f_v_q[0] <= in_tc0_i[47:24]; f_w_q <= in_tc0_i[71:48];
          f_u_q[1] <= in_tc1_i[23:0];  f_v_q[1] <= in_tc1_i[47:24];
          f_u_q[2] <= in_tc2_i[23:0];  f_v_q[2] <= in_tc2_i[47:24];
          f_d_q[0] <= in_d0_i; f_d_q[1] <= in_d1_i; f_d_q[2] <= in_d2_i;
          first_job_q <= 1'b1;
          second_q <= 1'b0;
          k_q <= '0;
          if (en == 3'd0) begin
            // No unit: one constant job carries the fragment to the output.
            const_job_q <= 1'b1;
            unit_q <= 2'd0;
            s_q <= S_ISSUE;
          end else begin
            unit_q <= en[0] ? 2'd0 : en[1] ? 2'd1 : 2'd2;
            s_q <= S_UNIT;
          end
        end
        S_UNIT: begin
          second_q <= 1'b0;
          k_q <= '0;
          if (type_off || fmt_zero) begin
            const_job_q <= 1'b1;
            s_q <= S_ISSUE;
          end else begin
            const_job_q <= 1'b0;
            s_q <= S_COORD;
          end
        end
        S_COORD: begin
          u_q <= c_u; v_q <= c_v; base_q <= c_base; shadow_q <= c_shadow; shz_q <= c_shz;
          s_q <= S_LOD;
        end
        S_LOD: begin
          level_q <= p_level; next_q <= p_next; frac_q <= p_frac;
          two_q <= p_two; linear_q <= p_linear;
          s_q <= S_LVL_START;
        end
        S_LVL_START: s_q <= S_LVL_WAIT;
        S_LVL_WAIT: if (lvl_done) begin
          i0_q <= 34'(ps_f >>> 8);
          j0_q <= 34'(pt_f >>> 8);
          fx_q <= linear_q ? ps_f[7:0] : 8'd0;
          fy_q <= linear_q ? pt_f[7:0] : 8'd0;
          lw_q <= lw; lh_q <= lh;
          lbase_q <= base_q + 32'(lvl_off);
          k_q <= '0;
          s_q <= S_ISSUE;
        end
        S_ISSUE: if (issue) begin
          first_job_q <= 1'b0;
          k_q <= k_q + 2'd1;
          if (last_level_now) begin
            if (!last_unit_now) begin
              second_q <= 1'b1;
              s_q <= S_LVL_START;
            end else if (job.last_frag) begin
              s_q <= S_IDLE;
            end else begin
              unit_q <= next_unit;
              s_q <= S_UNIT;
            end
          end
        end
        default: s_q <= S_IDLE;
      endcase
    end
  end
  assign in_ready_o = s_q == S_IDLE;

  // ------------------------------------------------------------------ WRAP
  logic        ws_valid, ws_border, wt_border;
  logic [10:0] ws_idx, wt_idx;
  logic        wrap_in;
  assign wrap_in = issue;
  pica_tex_wrap u_wrap_s (
    .clk_i, .rst_ni, .valid_i(wrap_in), .mode_i(cur_param[14:12]), .i_i(ji), .n_i(lw_q),
    .valid_o(ws_valid), .border_o(ws_border), .idx_o(ws_idx)
  );
  /* verilator lint_off PINCONNECTEMPTY */
  pica_tex_wrap u_wrap_t (
    .clk_i, .rst_ni, .valid_i(wrap_in), .mode_i(cur_param[10:8]), .i_i(jj), .n_i(lh_q),
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
  /* verilator lint_off PINCONNECTEMPTY */
  pica_fifo #(.Width(JobW), .Depth(Depth)) u_meta (
    .clk_i, .rst_ni, .push_i(issue), .wdata_i(job), .full_o(),
    .pop_i(consume), .valid_o(meta_valid), .rdata_o(meta_raw), .empty_o()
  );
  pica_fifo #(.Width(23), .Depth(Depth)) u_wrapped (
    .clk_i, .rst_ni, .push_i(ws_valid), .wdata_i({ws_border | wt_border, ws_idx, wt_idx}),
    .full_o(), .pop_i(consume), .valid_o(wr_valid), .rdata_o(wr_head), .empty_o()
  );
  /* verilator lint_on PINCONNECTEMPTY */

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
  logic        c_req_ready, c_rsp_valid, c_rsp_ready, c_err, c_busy;
  logic [127:0] c_raw;
  logic [31:0] c_err_addr;
  logic [RdW-1:0] c_user_raw;
  rd_t         c_user;
  assign c_user = c_user_raw;
  assign consume = meta_valid && wr_valid && c_req_ready && !hang_q;

  logic inv;
  assign inv = cfg_we_i && cfg_id_i == 10'h080 && cfg_data_i[16];

  pica_tex_cache #(.SetBits(6), .UserW(RdW), .IdBits(2)) u_cache (
    .clk_i, .rst_ni, .inv_i(inv), .stop_i(hang_q),
    .req_valid_i(meta_valid && wr_valid && !hang_q), .req_ready_o(c_req_ready),
    .req_addr_i(rd.addr),
    .req_len_i((meta.kind_const || a_border) ? 5'd0 : t_len),
    .req_flush_i(meta.flush), .req_user_i(rd),
    .rsp_valid_o(c_rsp_valid), .rsp_ready_i(c_rsp_ready), .rsp_raw_o(c_raw),
    .rsp_err_o(c_err), .rsp_err_addr_o(c_err_addr), .rsp_user_o(c_user_raw),
    .arvalid_o(mem_arvalid_o), .arready_i(mem_arready_i), .arid_o(mem_arid_o),
    .araddr_o(mem_araddr_o), .arlen_o(mem_arlen_o), .arsize_o(mem_arsize_o),
    .arburst_o(mem_arburst_o), .rvalid_i(mem_rvalid_i), .rready_o(mem_rready_o),
    .rid_i(mem_rid_i), .rdata_i(mem_rdata_i), .rresp_i(mem_rresp_i), .rlast_i(mem_rlast_i),
    .busy_o(c_busy)
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
  logic        f_take, out_full;
  assign f_take = d_valid_q && !(d_q.last_frag && out_full);
  assign c_rsp_ready = !hang_q && (!d_valid_q || f_take);

  logic [1:0]  hang_unit_q;
  logic [31:0] hang_addr_q;
  logic        fv_q;
  logic [31:0] ftag_q, faddr_q, frgba_q;
  logic [1:0]  funit_q;
  logic [127:0] fraw_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      d_valid_q <= 1'b0; d_q <= '0; d_col_q <= '0;
      hang_q <= 1'b0; hang_unit_q <= '0; hang_addr_q <= '0;
      fv_q <= 1'b0; ftag_q <= '0; faddr_q <= '0; frgba_q <= '0; funit_q <= '0; fraw_q <= '0;
    end else begin
      fv_q <= 1'b0;
      if (hang_now) begin
        hang_q      <= 1'b1;
        hang_unit_q <= c_user.unit;
        hang_addr_q <= c_err_addr;
      end else if (c_rsp_valid && c_rsp_ready) begin
        d_valid_q <= 1'b1;
        d_q       <= c_user;
        d_col_q   <= colour;
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
  logic [31:0] fc_q [3];            // the level's first three texels
  logic [31:0] lvl_a_q;             // the finer level's colour of a blend
  logic [31:0] tex_q [3];           // the fragment's unit colours, {r, g, b, a}
  logic [31:0] bil, lerp, lvl_col, unit_col;
  pica_tex_filter #(.Truncate(Truncate)) u_filter (
    .c00_i(fc_q[0]), .c10_i(fc_q[1]), .c01_i(fc_q[2]), .c11_i(d_col_q),
    .fx_i(d_q.fx), .fy_i(d_q.fy), .bilinear_o(bil),
    .lvl_a_i(lvl_a_q), .lvl_b_i(lvl_col), .lvl_f_i(d_q.frac), .levels_o(lerp)
  );
  assign lvl_col  = d_q.linear && !d_q.kind_const ? bil : d_col_q;
  assign unit_col = d_q.two && d_q.second && !d_q.kind_const ? lerp : lvl_col;

  logic [95:0] out_word;
  always_comb begin
    out_word = {swap(tex_q[2]), swap(tex_q[1]), swap(tex_q[0])};
    out_word[32*d_q.unit +: 32] = swap(unit_col);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int k = 0; k < 3; k++) begin fc_q[k] <= '0; tex_q[k] <= '0; end
      lvl_a_q <= '0;
    end else if (f_take) begin
      if (d_q.k != 2'd3) fc_q[d_q.k] <= d_col_q;
      if (d_q.last_level && !d_q.second) lvl_a_q <= lvl_col;
      if (d_q.last_unit) tex_q[d_q.unit] <= unit_col;
      if (d_q.last_frag) for (int k = 0; k < 3; k++) tex_q[k] <= '0;
    end
  end

  logic [127:0] out_head;
  logic         out_push;
  assign out_push = f_take && d_q.last_frag;
  /* verilator lint_off PINCONNECTEMPTY */
  pica_fifo #(.Width(128), .Depth(4)) u_out (
    .clk_i, .rst_ni, .push_i(out_push), .wdata_i({d_q.tag, out_word}), .full_o(out_full),
    .pop_i(out_valid_o && out_ready_i), .valid_o(out_valid_o), .rdata_o(out_head),
    .empty_o()
  );
  /* verilator lint_on PINCONNECTEMPTY */
  assign out_tag_o = out_head[127:96];
  assign out_tex_o = out_head[95:0];

  assign idle_o = s_q == S_IDLE && credit_q == 7'd0 && !c_busy && !d_valid_q && !out_valid_o;

  logic unused;
  assign unused = ^{mem_awready_i, mem_wready_i, mem_bvalid_i, mem_bid_i, mem_bresp_i,
                    r_config[31:14], r_config[12:3], cur_param, cur_lod[31:28], cur_lod[23:20],
                    cur_lod[15:13], cur_type[31:4], r_shadow[31:24], r_dim[0][31:27],
                    r_dim[0][15:11], r_dim[1], r_dim[2], r_addr[0][31:29], r_addr[1][31:29],
                    r_addr[2][31:29], r_face[0][31:22], r_face[1][31:22], r_face[2][31:22],
                    r_face[3][31:22], r_face[4][31:22], meta.k, meta.second, meta.linear, d_q};
endmodule
