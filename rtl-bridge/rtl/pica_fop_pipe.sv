// pica_fop_pipe: FOP with a pipelined fast path in front of pica_fop (issue 37 item 3). Same
// ports and contract as pica_fop (rtl/README.md "pica_fop"), plus cfg_we_i; transaction-exact
// with pica_model::fop::process_fragment like it: the same pixel beats in order, the same
// memory bytes, the same hang.
//
// The fast path takes the common configuration — the default fragment mode, RGBA8 colour,
// D24S8 depth-stencil (4-byte, word-aligned pixels), colour and depth buffers that do not
// overlap — and a fragment inside the framebuffer, one per clock through seven stages:
//   0  the fragment, its pixel index (pica_fop_addr), registered
//   1  the colour and depth word addresses, the alpha test, which buffers it may touch; the
//      tag lookups and the same-pixel matches for the fragment stage 2 holds next
//   2  the checks, all on registers: a stage leaves only with every line it needs present (a
//      miss stops it and the controller fills the line), with no fragment in stages 3-6 on
//      the same colour or depth word (the same-pixel rule: it never reads a word an earlier
//      fragment in flight will write); the data RAMs read its words as it leaves
//   3  the words as the model reads them (0 where a read is off), the error bits
//   4  stencil and depth tests, the stencil action, the depth-stencil word and its byte
//      enables, the beat's depth part, which access hangs (the first, in the model's order,
//      whose word is not mapped), the colour decoded
//   5  the blend products (pica_fop_blend step 1)
//   6  blend or logic op (step 2) and the channel masks
//   7  encode; the depth-stencil and colour writes into the caches; the beat
// Anything else (gas, shadow, other formats, a fragment outside, overlapping buffers) goes to
// pica_fop after the fast path has drained and its caches are written back and emptied; the
// fast path takes fragments again once pica_fop is idle. So beats leave in input order.
//
// The caches (pica_fop_cache, two, direct mapped, 16 lines of a 2x2 quad) are write-back: a
// line is filled by four word reads (the error of each remembered: a word of a line may be
// unmapped where the pixel's is not), written back (the dirty bytes only) when evicted, when
// the stage has had no fragment for IdleFlush clocks (then emptied: memory is up to date and
// nothing is cached whenever idle_o is high, so nothing cached goes stale while others write
// memory), before pica_fop runs, and before a hang is reported. A miss takes the fragment's
// missing lines together (depth and colour): one job, one pipeline drain, its reads and the
// victims' writes queued one a clock, and only the reads awaited (see "the controller").
module pica_fop_pipe #(
  parameter int LineBits  = 4,
  parameter int IdleFlush = 64
) (
  input  logic         clk_i,
  input  logic         rst_ni,

  input  logic [639:0] cfg_i,
  input  logic         cfg_we_i,       // a register write this clock (the fast path re-decides)

  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  logic [31:0]  in_tag_i,
  input  logic [15:0]  in_x_i,
  input  logic [15:0]  in_y_i,
  input  logic [23:0]  in_depth_i,
  input  logic [31:0]  in_color_i,

  output logic         out_valid_o,
  input  logic         out_ready_i,
  output logic [31:0]  out_tag_o,
  output logic [15:0]  out_x_o,
  output logic [15:0]  out_y_o,
  output logic [31:0]  out_color_addr_o,
  output logic [31:0]  out_color_o,
  output logic [31:0]  out_depth_addr_o,
  output logic [31:0]  out_depth_stencil_o,
  output logic [7:0]   out_flags_o,

  output logic         mem_req_valid_o,
  input  logic         mem_req_ready_i,
  output logic         mem_req_we_o,
  output logic [31:0]  mem_req_addr_o,
  output logic [3:0]   mem_req_be_o,
  output logic [31:0]  mem_req_wdata_o,
  input  logic         mem_rsp_valid_i,
  output logic         mem_rsp_ready_o,
  input  logic [31:0]  mem_rsp_rdata_i,
  input  logic         mem_rsp_err_i,

  output logic         hang_o,
  output logic [1:0]   hang_kind_o,
  output logic         hang_buffer_o,
  output logic [31:0]  hang_addr_o,
  output logic [2:0]   hang_value_o,

  output logic         idle_o
);


  localparam int LW = LineBits + 2;          // {line, word}
  localparam int TW = 28 - LineBits;         // tag

  // ---------------------------------------------------------------- configuration
  // The decoded fields (pica_fop_cfg); gas and shadow are pica_fop's.
  logic [1:0]  c_mode;
  logic        c_blend_en;
  logic [2:0]  c_rgb_eq, c_a_eq;
  logic [3:0]  c_rgb_src, c_rgb_dst, c_a_src, c_a_dst, c_logic_op;
  logic [31:0] c_const;
  logic        c_alpha_test;
  logic [2:0]  c_alpha_func;
  logic [7:0]  c_alpha_ref;
  logic        c_st_test;
  logic [2:0]  c_st_func;
  logic [7:0]  c_st_wmask, c_st_ref, c_st_mask;
  logic [2:0]  c_st_fail, c_st_zfail, c_st_zpass;
  logic        c_depth_test;
  logic [2:0]  c_depth_func;
  logic [3:0]  c_cmask;
  logic        c_depth_write;
  logic [3:0]  c_cb_read, c_cb_write;
  logic        c_depth_read, c_stencil_read, c_depth_wr_allowed, c_stencil_wr_allowed;
  logic [1:0]  c_dfmt;
  logic [2:0]  c_cfmt;
  logic        c_block32;
  logic [27:0] c_dloc, c_cloc;
  logic [10:0] c_width;
  logic [9:0]  c_hm1;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [23:0] c_gas_k;
  logic [1:0]  c_gas_func;
  logic [15:0] c_sh_c, c_sh_l;
  /* verilator lint_on UNUSEDSIGNAL */

  pica_fop_cfg u_cfg (
    .cfg_i,
    .mode_o(c_mode),
    .blend_en_o(c_blend_en),
    .rgb_eq_o(c_rgb_eq),
    .a_eq_o(c_a_eq),
    .rgb_src_o(c_rgb_src),
    .rgb_dst_o(c_rgb_dst),
    .a_src_o(c_a_src),
    .a_dst_o(c_a_dst),
    .logic_op_o(c_logic_op),
    .const_o(c_const),
    .alpha_test_o(c_alpha_test),
    .alpha_func_o(c_alpha_func),
    .alpha_ref_o(c_alpha_ref),
    .st_test_o(c_st_test),
    .st_func_o(c_st_func),
    .st_wmask_o(c_st_wmask),
    .st_ref_o(c_st_ref),
    .st_mask_o(c_st_mask),
    .st_fail_o(c_st_fail),
    .st_zfail_o(c_st_zfail),
    .st_zpass_o(c_st_zpass),
    .depth_test_o(c_depth_test),
    .depth_func_o(c_depth_func),
    .cmask_o(c_cmask),
    .depth_write_o(c_depth_write),
    .cb_read_o(c_cb_read),
    .cb_write_o(c_cb_write),
    .depth_read_o(c_depth_read),
    .stencil_read_o(c_stencil_read),
    .depth_wr_allowed_o(c_depth_wr_allowed),
    .stencil_wr_allowed_o(c_stencil_wr_allowed),
    .dfmt_o(c_dfmt),
    .cfmt_o(c_cfmt),
    .block32_o(c_block32),
    .dloc_o(c_dloc),
    .cloc_o(c_cloc),
    .width_o(c_width),
    .hm1_o(c_hm1),
    .gas_k_o(c_gas_k),
    .gas_func_o(c_gas_func),
    .sh_c_o(c_sh_c),
    .sh_l_o(c_sh_l)
  );

  logic        color_read, color_write, stencil_on, ds_read, st_wr, dp_wr;
  assign color_read  = pica_rop_pkg::access_enabled(c_cb_read);
  assign color_write = pica_rop_pkg::access_enabled(c_cb_write);
  assign stencil_on  = c_st_test;                        // D24S8: the stencil byte exists
  assign ds_read     = c_depth_read || c_stencil_read;
  assign st_wr       = stencil_on && c_stencil_wr_allowed;
  assign dp_wr       = c_depth_write && c_depth_wr_allowed;

  // The fast configuration, decided a clock after the registers settle (cfg_we_i holds the
  // input for two clocks). A buffer's extent: a pixel inside the framebuffer has an index
  // below pad(height) * pad(width), pad rounding up to the block (8, or 32 in block32 mode):
  // pica_fop_addr's row offset (y' & ~(b - 1)) * width plus (x & ~(b - 1)) * b plus the Z order
  // index stays below it. Pixels of 4 bytes.
  logic        fast_cfg_q, settle_q, settle2_q;
  logic [31:0] cbase, dbase;
  logic [10:0] hpad;
  logic [11:0] wpad;
  logic [21:0] npix;
  logic [31:0] span;
  logic        overlap;
  assign cbase   = {1'b0, c_cloc, 3'd0};
  assign dbase   = {1'b0, c_dloc, 3'd0};
  assign hpad    = c_block32 ? (({1'b0, c_hm1} + 11'd32) & 11'h7E0)
                             : (({1'b0, c_hm1} + 11'd8) & 11'h7F8);
  assign wpad    = c_block32 ? (({1'b0, c_width} + 12'd31) & 12'hFE0)
                             : (({1'b0, c_width} + 12'd7) & 12'hFF8);
  assign npix    = 22'(hpad) * 22'(wpad);
  assign span    = {8'd0, npix, 2'b00};
  assign overlap = (cbase < dbase + span) && (dbase < cbase + span);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fast_cfg_q <= 1'b0;
      settle_q   <= 1'b1;
      settle2_q  <= 1'b1;
    end else begin
      // UNVERIFIED(hw) choices of the model stay pica_fop's: fragment mode 2 runs the default
      // path, so every mode but gas and shadow is fast.
      fast_cfg_q <= (c_mode != pica_regs_pkg::COLOR_OPERATION_FRAGMENT_MODE_GAS)
                    && (c_mode != pica_regs_pkg::COLOR_OPERATION_FRAGMENT_MODE_SHADOW)
                    && (c_cfmt == pica_regs_pkg::COLORBUFFER_FORMAT_FORMAT_RGBA8)
                    && (c_dfmt == pica_regs_pkg::DEPTHBUFFER_FORMAT_FORMAT_D24_S8)
                    && !overlap;
      settle_q  <= cfg_we_i;
      settle2_q <= settle_q;
    end
  end

  // ---------------------------------------------------------------- routing
  // owner: the fast path (0) or pica_fop (1); it changes only with both sides empty.
  logic        gen_q;
  logic        in_outside;
  logic [22:0] in_pixel;
  logic        in_fast;
  pica_fop_addr u_in_addr (
    .x_i(in_x_i), .y_i(in_y_i), .width_i(c_width), .height_m1_i(c_hm1),
    .block32_i(c_block32), .outside_o(in_outside), .pixel_o(in_pixel)
  );
  assign in_fast = fast_cfg_q && !in_outside;
  logic  in_fast_ok;                         // taken by the fast path (not while settling)
  assign in_fast_ok = in_fast && !settle_q && !settle2_q;

  // ---------------------------------------------------------------- the general path
  logic        g_in_valid, g_in_ready, g_out_valid, g_idle, g_hang;
  logic        g_req_valid, g_req_we, g_rsp_ready;
  logic [31:0] g_req_addr, g_req_wdata;
  logic [3:0]  g_req_be;
  logic [31:0] g_tag, g_caddr, g_color, g_daddr, g_ds;
  logic [15:0] g_x, g_y;
  logic [7:0]  g_flags;
  logic [1:0]  g_hang_kind;
  logic        g_hang_buf;
  logic [31:0] g_hang_addr;
  logic [2:0]  g_hang_value;

  pica_fop u_gen (
    .clk_i, .rst_ni, .cfg_i,
    .in_valid_i(g_in_valid), .in_ready_o(g_in_ready), .in_tag_i, .in_x_i, .in_y_i,
    .in_depth_i, .in_color_i,
    .out_valid_o(g_out_valid), .out_ready_i(out_ready_i && gen_q), .out_tag_o(g_tag),
    .out_x_o(g_x), .out_y_o(g_y), .out_color_addr_o(g_caddr), .out_color_o(g_color),
    .out_depth_addr_o(g_daddr), .out_depth_stencil_o(g_ds), .out_flags_o(g_flags),
    .mem_req_valid_o(g_req_valid), .mem_req_ready_i(mem_req_ready_i && gen_q),
    .mem_req_we_o(g_req_we), .mem_req_addr_o(g_req_addr), .mem_req_be_o(g_req_be),
    .mem_req_wdata_o(g_req_wdata), .mem_rsp_valid_i(mem_rsp_valid_i && gen_q),
    .mem_rsp_ready_o(g_rsp_ready), .mem_rsp_rdata_i, .mem_rsp_err_i,
    .hang_o(g_hang), .hang_kind_o(g_hang_kind), .hang_buffer_o(g_hang_buf),
    .hang_addr_o(g_hang_addr), .hang_value_o(g_hang_value), .idle_o(g_idle)
  );

  // ---------------------------------------------------------------- fast pipeline registers
  typedef struct packed {
    logic [31:0] tag;
    logic [15:0] x, y;
    logic [23:0] depth;
    logic [31:0] src;
  } frag_t;

  // Stage 0.
  logic        v0;
  frag_t       f0;
  logic [22:0] pix0;
  // Stage 1.
  logic        v1, ap1, nz1, nc1;                 // alpha pass; needs the depth / colour line
  frag_t       f1;
  logic [31:0] ca1, da1;
  // Stage 2 (lookup; the RAM words arrive here).
  logic        v2, ap2, nz2, nc2;
  frag_t       f2;
  logic [31:0] ca2, da2;
  // Stage 3.
  logic        v3, ap3, ez3, ec3;
  frag_t       f3;
  logic [31:0] ca3, da3, ds3, cb3;              // ds3, cb3: the RAM words (wires)
  // Stage 4.
  logic        v4, h4, hb4, dpass4, dsw4;
  frag_t       f4;
  logic [31:0] ca4, da4, ha4, dsd4, cb4, dst4, bds4;
  logic [3:0]  dsbe4;
  logic [7:0]  fl4;
  // Stage 5.
  logic        v5, h5, hb5, dpass5, dsw5;
  frag_t       f5;
  logic [31:0] ca5, da5, ha5, dsd5, cb5, dst5, bds5;
  logic [3:0]  dsbe5;
  logic [7:0]  fl5;
  logic [127:0] prod5;
  // Stage 6 (its fragment's depth and colour are no longer read).
  logic        v6, h6, hb6, dpass6, dsw6;
  /* verilator lint_off UNUSEDSIGNAL */
  frag_t       f6;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0] ca6, da6, ha6, dsd6, cb6, bds6, out6;
  logic [3:0]  dsbe6;
  logic [7:0]  fl6;

  // ---------------------------------------------------------------- caches
  logic        z_hit, z_err, c_hit, c_err;
  logic [29:0] z_lk_word, c_lk_word;
  logic [LW-1:0] z_rd_idx, c_rd_idx;
  logic [31:0] z_rd, c_rd;
  logic        z_wr, c_wr;
  logic [31:0] c_wdata;
  logic        z_fill, c_fill, z_tag_we, c_tag_we, z_clean, c_clean, inv_all;
  logic [LW-1:0] fill_idx;
  logic [LineBits-1:0] zline_q, cline_q;       // the job's lines (depth, colour)
  logic        z_ev_valid, c_ev_valid, z_any_valid, c_any_valid;
  logic [TW-1:0] z_ev_tag, c_ev_tag, ztag_q, ctag_q;
  logic [15:0] z_ev_dirty, c_ev_dirty;
  logic [(1<<LineBits)-1:0] z_dirty_lines, c_dirty_lines;

  pica_fop_cache #(.LineBits(LineBits)) u_zc (
    .clk_i, .rst_ni,
    .lk_word_i(z_lk_word), .lk_hit_o(z_hit), .lk_err_o(z_err),
    .rd_en_i(back_move), .rd_idx_i(z_rd_idx), .rd_data_o(z_rd),
    .wr_i(z_wr), .wr_idx_i(da6[LW+1:2]), .wr_be_i(dsbe6), .wr_data_i(dsd6),
    .fill_i(z_fill), .fill_idx_i(fill_idx), .fill_data_i(mem_rsp_rdata_i),
    .fill_err_i(mem_rsp_err_i),
    .tag_we_i(z_tag_we), .tag_line_i(zline_q), .tag_i(ztag_q),
    .ev_line_i(zline_q), .ev_valid_o(z_ev_valid), .ev_tag_o(z_ev_tag), .ev_dirty_o(z_ev_dirty),
    .clean_i(z_clean), .dirty_lines_o(z_dirty_lines), .any_valid_o(z_any_valid),
    .inv_all_i(inv_all)
  );

  pica_fop_cache #(.LineBits(LineBits)) u_cc (
    .clk_i, .rst_ni,
    .lk_word_i(c_lk_word), .lk_hit_o(c_hit), .lk_err_o(c_err),
    .rd_en_i(back_move), .rd_idx_i(c_rd_idx), .rd_data_o(c_rd),
    .wr_i(c_wr), .wr_idx_i(ca6[LW+1:2]), .wr_be_i(4'hF), .wr_data_i(c_wdata),
    .fill_i(c_fill), .fill_idx_i(fill_idx), .fill_data_i(mem_rsp_rdata_i),
    .fill_err_i(mem_rsp_err_i),
    .tag_we_i(c_tag_we), .tag_line_i(cline_q), .tag_i(ctag_q),
    .ev_line_i(cline_q), .ev_valid_o(c_ev_valid), .ev_tag_o(c_ev_tag), .ev_dirty_o(c_ev_dirty),
    .clean_i(c_clean), .dirty_lines_o(c_dirty_lines), .any_valid_o(c_any_valid),
    .inv_all_i(inv_all)
  );

  // ---------------------------------------------------------------- stage 2: the checks
  // Every input of stage 2's decision is a register (the 16-line build's worst path ran from
  // stage 3's depth test through the hang check, s2_go and the RAM read address): the lookups
  // and the same-pixel matches are made a clock ahead, for the fragment stage 2 holds next.
  logic hazard, hits_ok, hang_block, ctl_idle, out_full, back_move, s2_go, s1_go, s0_go;
  logic s2_stays;

  // The lookups, registered: for stage 2's fragment if it stays, else for stage 1's (which
  // moves in). A tag write, a fill or the invalidation changes what a lookup answers: the
  // clock after one, the registered answers are stale (look_fresh_q low) and stage 2 waits.
  logic zhit_q, zerr_q, chit_q, cerr_q, look_fresh_q;
  assign z_lk_word = s2_stays ? da2[31:2] : da1[31:2];
  assign c_lk_word = s2_stays ? ca2[31:2] : ca1[31:2];

  // The same-pixel rule: an earlier fragment in stages 3-6 writes (or may write) the word
  // stage 2's fragment reads. match_q[k] says the fragment in stage k (3..6) shares its colour
  // or depth word; it is computed in stage 1 against where the fragments ahead will be (the
  // back stages 3-6 move together) and shifted while the fragment waits.
  logic [6:3] match_q, m1;                   // m1[k]: stage 1's fragment against stage k's
  logic       m12;                           // ... against stage 2's
  assign m12   = (ca1[31:2] == ca2[31:2]) || (da1[31:2] == da2[31:2]);
  assign m1[3] = v3 && ((ca1[31:2] == ca3[31:2]) || (da1[31:2] == da3[31:2]));
  assign m1[4] = v4 && ((ca1[31:2] == ca4[31:2]) || (da1[31:2] == da4[31:2]));
  assign m1[5] = v5 && ((ca1[31:2] == ca5[31:2]) || (da1[31:2] == da5[31:2]));
  assign m1[6] = v6 && ((ca1[31:2] == ca6[31:2]) || (da1[31:2] == da6[31:2]));
`ifdef INJECT_FOP_PIPE_HAZARD
  // The bug: the fragment right ahead (stage 3) is left out of the same-pixel rule, so a
  // fragment may read a word that the one before it is about to write.
  assign hazard = |match_q[6:4];
`else
  assign hazard = |match_q;
`endif
  assign hits_ok = look_fresh_q && (!nz2 || zhit_q) && (!nc2 || chit_q);
  // A fragment that hangs stops everything behind it: none follows it into stage 3. Whether
  // stage 3's fragment hangs is known only after its depth test, so stage 2 waits behind any
  // stage-3 fragment with an unmapped word (one clock, unless it hangs).
  logic hang3;
  assign hang3      = v3 && (ez3 || ec3);
  assign hang_block = hang3 || (v4 && h4) || (v5 && h5) || (v6 && h6) || hang_pend_q || hang_q;

  // The back stages (3-7) move together unless the beat cannot leave.
  assign back_move = !(v6 && !h6 && out_full);
  assign s2_go = v2 && !hazard && hits_ok && !hang_block && ctl_idle && back_move;
  assign s1_go = v1 && (!v2 || s2_go);
  assign s0_go = v0 && (!v1 || s1_go);
  assign s2_stays = v2 && !s2_go;

  // The RAMs read stage 2's words (or the controller's) whenever the back stages move: the
  // words stage 3 holds are read in the clock its fragment leaves stage 2, after every earlier
  // write (a write in that same clock would be a fragment in stages 3-6 on the same word, or a
  // fill, which only a busy controller makes) and held while the back stages stall.
  logic [LW-1:0] ctl_rd_idx;
  logic          ctl_rd_z;                     // the controller reads the depth RAM (else colour)
  assign z_rd_idx = !ctl_idle && ctl_rd_z ? ctl_rd_idx : da2[LW+1:2];
  assign c_rd_idx = !ctl_idle && !ctl_rd_z ? ctl_rd_idx : ca2[LW+1:2];
  assign ds3 = ds_read ? z_rd : 32'd0;
  assign cb3 = color_read ? c_rd : 32'd0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      zhit_q       <= 1'b0;
      zerr_q       <= 1'b0;
      chit_q       <= 1'b0;
      cerr_q       <= 1'b0;
      look_fresh_q <= 1'b0;
      match_q      <= '0;
    end else begin
      zhit_q       <= z_hit;
      zerr_q       <= z_err;
      chit_q       <= c_hit;
      cerr_q       <= c_err;
      look_fresh_q <= !(z_tag_we || c_tag_we || z_fill || c_fill || inv_all);
      if (s1_go) begin
        // Stage 2 takes stage 1's fragment; the back stages move (or stage 2 was empty).
        match_q <= back_move ? {m1[5:3], s2_go && m12} : m1;
      end else if (s2_stays && back_move) begin
        match_q <= {match_q[5:3], 1'b0};
      end else if (!s2_stays) begin
        match_q <= '0;
      end
    end
  end

  // ---------------------------------------------------------------- stage 4: the tests
  logic [31:0] ds_bits;
  logic [23:0] frag_depth;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [23:0] stored_depth;                 // gas reads it (pica_fop)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [7:0]  new_stencil;
  logic        depth_pass, write_depth, st_wr_d;
  logic        hz_rd, hz_wr, hc, dsw;
  logic [31:0] dst_rgba;

  assign ds_bits = ds3;
  pica_fop_ds u_ds (
    .is_d24s8_i(1'b1), .depth_max_i(24'hFF_FFFF), .ds_bits_i(ds_bits),
    .frag_depth_i(f3.depth), .depth_read_i(c_depth_read), .stencil_read_i(c_stencil_read),
    .st_test_i(c_st_test), .st_func_i(c_st_func), .st_ref_i(c_st_ref), .st_mask_i(c_st_mask),
    .st_wmask_i(c_st_wmask), .st_fail_i(c_st_fail), .st_zfail_i(c_st_zfail),
    .st_zpass_i(c_st_zpass), .stencil_wr_allowed_i(c_stencil_wr_allowed),
    .depth_test_i(c_depth_test), .depth_func_i(c_depth_func), .depth_write_i(dp_wr),
    .stored_depth_o(stored_depth), .frag_depth_o(frag_depth), .depth_pass_o(depth_pass),
    .new_stencil_o(new_stencil), .write_stencil_o(st_wr_d), .write_depth_o(write_depth)
  );
  assign dsw            = write_depth || st_wr_d;
  // Which access hangs first, in the model's order: the depth-stencil read, its write, the
  // colour read, the colour write (the last two only after a pass).
  assign hz_rd = ds_read && ez3;
  assign hz_wr = dsw && ez3;
  assign hc    = depth_pass && (color_read || color_write) && ec3;

  pica_fop_color u_dec (
    .fmt_i(c_cfmt), .dec_bits_i(cb3), .dec_rgba_o(dst_rgba),
    .enc_rgba_i(out6), .enc_bits_o(c_wdata)
  );

  // ---------------------------------------------------------------- stages 5-6: blend
  logic [127:0] prod;
  logic [31:0]  blended, merged;
  /* verilator lint_off PINCONNECTEMPTY */
  pica_fop_blend u_blend1 (
    .blend_en_i(c_blend_en), .rgb_eq_i(c_rgb_eq), .alpha_eq_i(c_a_eq),
    .rgb_src_i(c_rgb_src), .rgb_dst_i(c_rgb_dst), .alpha_src_i(c_a_src),
    .alpha_dst_i(c_a_dst), .constant_i(c_const), .logic_op_i(c_logic_op),
    .src_i(f4.src), .dst_i(dst4), .prod_o(prod), .prod_i(128'd0), .out_o()
  );
  pica_fop_blend u_blend2 (
    .blend_en_i(c_blend_en), .rgb_eq_i(c_rgb_eq), .alpha_eq_i(c_a_eq),
    .rgb_src_i(c_rgb_src), .rgb_dst_i(c_rgb_dst), .alpha_src_i(c_a_src),
    .alpha_dst_i(c_a_dst), .constant_i(c_const), .logic_op_i(c_logic_op),
    .src_i(f5.src), .dst_i(dst5), .prod_o(), .prod_i(prod5), .out_o(blended)
  );
  /* verilator lint_on PINCONNECTEMPTY */
  for (genvar ch = 0; ch < 4; ch++) begin : g_mask
    assign merged[8*ch +: 8] = c_cmask[ch] ? blended[8*ch +: 8] : dst5[8*ch +: 8];
  end

  // ---------------------------------------------------------------- stage 7: writes and the beat
  logic c_wr_go;
  assign z_wr    = v6 && dsw6 && back_move;
  assign c_wr_go = v6 && !h6 && dpass6 && color_write && back_move;
  assign c_wr    = c_wr_go;

  // The beat FIFO (two entries).
  typedef struct packed {
    logic [31:0] tag;
    logic [15:0] x, y;
    logic [31:0] caddr, color, daddr, ds;
    logic [7:0]  flags;
  } beat_t;
  beat_t       bq0, bq1, bout;
  logic [1:0]  bcount_q;
  logic        brd_q, bwr_q;
  beat_t       beat6;
  logic        push, pop;
  assign out_full = (bcount_q == 2'd2);
  // The beat's colour: the bits written, or read (0: not read, or no pass: no colour access).
  assign beat6 = {f6.tag, f6.x, f6.y, ca6,
                  !dpass6 ? 32'd0 : color_write ? c_wdata : cb6,
                  da6, bds6, fl6 | ((dpass6 && color_write) ? pica_rop_pkg::FlagColor : 8'd0)};
  assign push = v6 && !h6 && back_move;
  assign pop  = !gen_q && (bcount_q != 2'd0) && out_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bcount_q <= '0;
      brd_q    <= 1'b0;
      bwr_q    <= 1'b0;
      bq0      <= '0;
      bq1      <= '0;
    end else begin
      if (push) begin
        if (bwr_q) bq1 <= beat6;
        else bq0 <= beat6;
        bwr_q     <= !bwr_q;
      end
      if (pop) brd_q <= !brd_q;
      bcount_q <= bcount_q + {1'b0, push} - {1'b0, pop};
    end
  end

  // ---------------------------------------------------------------- the pipeline
  logic        hang_pend_q, hang_q;
  logic        hang_buf_q;
  logic [31:0] hang_addr_q;
  logic        in_take;
  logic        fast_empty;

  assign fast_empty = !v0 && !v1 && !v2 && !v3 && !v4 && !v5 && !v6 && (bcount_q == 2'd0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v0 <= 1'b0; v1 <= 1'b0; v2 <= 1'b0; v3 <= 1'b0; v4 <= 1'b0; v5 <= 1'b0; v6 <= 1'b0;
      f0 <= '0; f1 <= '0; f2 <= '0; f3 <= '0; f4 <= '0; f5 <= '0; f6 <= '0;
      pix0 <= '0;
      ap1 <= 1'b0; nz1 <= 1'b0; nc1 <= 1'b0; ca1 <= '0; da1 <= '0;
      ap2 <= 1'b0; nz2 <= 1'b0; nc2 <= 1'b0; ca2 <= '0; da2 <= '0;
      ap3 <= 1'b0; ez3 <= 1'b0; ec3 <= 1'b0; ca3 <= '0; da3 <= '0;
      h4 <= 1'b0; hb4 <= 1'b0; dpass4 <= 1'b0; dsw4 <= 1'b0; ca4 <= '0; da4 <= '0; ha4 <= '0;
      dsd4 <= '0; cb4 <= '0; dst4 <= '0; bds4 <= '0; dsbe4 <= '0; fl4 <= '0;
      h5 <= 1'b0; hb5 <= 1'b0; dpass5 <= 1'b0; dsw5 <= 1'b0; ca5 <= '0; da5 <= '0; ha5 <= '0;
      dsd5 <= '0; cb5 <= '0; dst5 <= '0; bds5 <= '0; dsbe5 <= '0; fl5 <= '0; prod5 <= '0;
      h6 <= 1'b0; hb6 <= 1'b0; dpass6 <= 1'b0; dsw6 <= 1'b0; ca6 <= '0; da6 <= '0; ha6 <= '0;
      dsd6 <= '0; cb6 <= '0; bds6 <= '0; out6 <= '0; dsbe6 <= '0; fl6 <= '0;
    end else begin
      // 0
      if (in_take) begin
        v0   <= 1'b1;
        f0   <= {in_tag_i, in_x_i, in_y_i, in_depth_i, in_color_i};
        pix0 <= in_pixel;
      end else if (s0_go) begin
        v0 <= 1'b0;
      end
      // 1
      if (s0_go) begin
        v1  <= 1'b1;
        f1  <= f0;
        ca1 <= cbase + {7'd0, pix0, 2'b00};
        da1 <= dbase + {7'd0, pix0, 2'b00};
        ap1 <= !c_alpha_test || pica_rop_pkg::compare(c_alpha_func, {16'd0, f0.src[31:24]},
                                         {16'd0, c_alpha_ref});
        nz1 <= ds_read || dp_wr || st_wr;
        nc1 <= color_read || color_write;
      end else if (s1_go) begin
        v1 <= 1'b0;
      end
      // 2
      if (s1_go) begin
        v2  <= 1'b1;
        f2  <= f1;
        ca2 <= ca1;
        da2 <= da1;
        ap2 <= ap1;
        nz2 <= nz1 && ap1;
        nc2 <= nc1 && ap1;
      end else if (s2_go) begin
        v2 <= 1'b0;
      end
      if (back_move) begin
        // 3: the words as read (0 where the read is off).
        v3  <= s2_go;
        f3  <= f2;
        ap3 <= ap2;
        ca3 <= ca2;
        da3 <= da2;
        ez3 <= nz2 && zerr_q;
        ec3 <= nc2 && cerr_q;
        // 4: tests, the depth-stencil write, the hang, the colour decoded.
        v4     <= v3;
        f4     <= f3;
        ca4    <= ca3;
        da4    <= da3;
        cb4    <= cb3;
        dst4   <= dst_rgba;
        if (!ap3) begin
          // Alpha test failed: no access (model process_fragment).
          h4 <= 1'b0; hb4 <= pica_rop_pkg::BufDepth; ha4 <= '0; dpass4 <= 1'b0; dsw4 <= 1'b0;
          dsbe4 <= '0; dsd4 <= '0; bds4 <= '0; fl4 <= pica_rop_pkg::FlagDiscard;
        end else begin
          h4     <= hz_rd || hz_wr || hc;
          hb4    <= (hz_rd || hz_wr) ? pica_rop_pkg::BufDepth : pica_rop_pkg::BufColor;
          // A stencil-only write hangs at its byte, depth + 3 (rtl/README.md "pica_fop").
          ha4    <= (hz_rd || hz_wr) ? ((!hz_rd && !write_depth) ? da3 + 32'd3 : da3) : ca3;
          dpass4 <= depth_pass && !hz_rd && !hz_wr;
          dsw4   <= dsw && !hz_rd && !hz_wr;
          dsd4   <= {new_stencil, frag_depth};
          dsbe4  <= {st_wr_d, {3{write_depth}}};
          if (write_depth && st_wr_d) begin
            bds4 <= {new_stencil, frag_depth};
            fl4  <= pica_rop_pkg::FlagDepth | pica_rop_pkg::FlagStencil;
          end else if (write_depth) begin
            bds4 <= {ds_bits[31:24], frag_depth};
            fl4  <= pica_rop_pkg::FlagDepth;
          end else if (st_wr_d) begin
            bds4 <= {new_stencil, ds_bits[23:0]};
            fl4  <= pica_rop_pkg::FlagStencil;
          end else begin
            bds4 <= ds_bits;
            fl4  <= '0;
          end
          if (!depth_pass) fl4[3] <= 1'b1;   // pica_rop_pkg::FlagDiscard (set with the write flags)
        end
        // 5: the blend products.
        v5 <= v4; f5 <= f4; h5 <= h4; hb5 <= hb4; ha5 <= ha4; dpass5 <= dpass4; dsw5 <= dsw4;
        ca5 <= ca4; da5 <= da4; dsd5 <= dsd4; cb5 <= cb4; dst5 <= dst4; bds5 <= bds4;
        dsbe5 <= dsbe4; fl5 <= fl4; prod5 <= prod;
        // 6: blend and masks.
        v6 <= v5; f6 <= f5; h6 <= h5; hb6 <= hb5; ha6 <= ha5; dpass6 <= dpass5; dsw6 <= dsw5;
        ca6 <= ca5; da6 <= da5; dsd6 <= dsd5; cb6 <= cb5; bds6 <= bds5; dsbe6 <= dsbe5;
        fl6 <= fl5; out6 <= merged;
      end
    end
  end

  // ---------------------------------------------------------------- the controller
  // Misses, flushes, write-backs. A miss job takes every line stage 2's fragment lacks (the
  // depth and the colour line at once), a flush job one dirty line. A job visits its lines'
  // words (slots: depth words 0-3, then colour words 0-3) and queues its requests, one a
  // clock, into a two-entry request queue: in a slot's first clock (CRd) it reads the victim's
  // word from the RAM and, in a miss, queues the new line's read of that word; in a second
  // clock (CWr), only if the victim's word is dirty, it queues the victim's write of the word
  // read. A fill response comes back no earlier than two clocks after its read was queued
  // (the queue's and the port's registers), so it never overwrites a victim word before the
  // word was read; the word to write is kept (wbd_q) while the queue is full.
  //
  // The port answers in request order (its rule): a bit per queued request (kind: 1 = a fill
  // read) tells the fill responses from the write responses. A miss job ends when its fills
  // are answered; its writes' responses are not awaited (a later read of the same word stays
  // behind the write in the port: pica_axi_master's same-address rule). A flush job waits for
  // them (memory holds the line before the line is marked clean), and so do the owner change
  // to pica_fop, a hang report and idle_o.
  typedef enum logic [3:0] {
    CIdle, CScanW, CScan, CJob, CRd, CWr, CWait, CDrain, CTag, CInv, CHang
  } ctl_e;
  ctl_e        ctl_q;
  logic        job_fill_q;                     // a miss (evict, then fill) or a flush (evict)
  logic        job_z_q, job_c_q;               // the job's caches
  logic        flush_inv_q;                    // a flush ends by emptying both caches
  logic [7:0]  slots_q;                        // the slots not yet visited: {colour, depth} words
  logic [7:0]  fslots_q;                       // the fill reads not yet answered, same layout
  logic [2:0]  slot_q;                         // CWr's slot
  logic        wfirst_q;                       // CWr's first clock: the RAM word is on rd_data
  logic [31:0] wbd_q;                          // the word to write, kept while the queue is full
  logic [31:0] evd_q;                          // the victims' dirty masks {colour, depth}
  logic [TW-1:0] evtz_q, evtc_q;               // the victims' tags
  logic [4:0]  out_q;                          // requests queued and not yet answered
  logic [31:0] kind_q;                         // per queued request: a fill read
  logic [4:0]  kwp_q, krp_q;
  logic        rsp, rsp_fill;
  logic        quiet_reset;
  logic [7:0]  quiet_q;
  logic        want_gen, miss, any_dirty, want_flush;
  logic [LineBits-1:0] scan_line, scan_line_q;
  logic        scan_z, scan_found, scan_z_q, scan_found_q;

  // The lowest set bit of an 8-bit mask, and its index (the slot visited, the fill answered).
  function automatic logic [2:0] low8(input logic [7:0] m);
    logic [2:0] r;
    r = 3'd7;
    for (int i = 6; i >= 0; i--) if (m[i]) r = 3'(i);
    low8 = r;
  endfunction
  logic [2:0]  cur_slot, ans_slot, rd_slot;
  assign cur_slot = low8(slots_q);
  assign ans_slot = low8(fslots_q);
  assign rd_slot  = (ctl_q == CWr) ? slot_q : cur_slot;

  assign ctl_idle   = (ctl_q == CIdle);
  assign ctl_rd_z   = !rd_slot[2];
  assign ctl_rd_idx = {rd_slot[2] ? cline_q : zline_q, rd_slot[1:0]};
  assign fill_idx   = {ans_slot[2] ? cline_q : zline_q, ans_slot[1:0]};

  // The request queue.
  logic        q_push, q_full, q_empty, rq_v, rq_we, mem_hs;
  logic [31:0] rq_addr, rq_wdata;
  logic [3:0]  rq_be;
  logic        c_req_we;
  logic [31:0] c_req_addr, c_req_wdata;
  logic [3:0]  c_req_be;
  assign q_push = !q_full && (((ctl_q == CRd) && job_fill_q && (slots_q != 8'h0))
                              || (ctl_q == CWr));
  assign c_req_we    = (ctl_q == CWr);
  assign c_req_addr  = (ctl_q == CWr)
                       ? {slot_q[2] ? evtc_q : evtz_q, slot_q[2] ? cline_q : zline_q,
                          slot_q[1:0], 2'b00}
                       : {cur_slot[2] ? ctag_q : ztag_q, cur_slot[2] ? cline_q : zline_q,
                          cur_slot[1:0], 2'b00};
  assign c_req_be    = (ctl_q == CWr) ? evd_q[4*slot_q +: 4] : 4'hF;
  assign c_req_wdata = (ctl_q != CWr) ? 32'd0
                     : wfirst_q ? (slot_q[2] ? c_rd : z_rd) : wbd_q;
  pica_fifo #(.Width(69), .Depth(2)) u_rq (
    .clk_i, .rst_ni,
    .push_i(q_push), .wdata_i({c_req_we, c_req_addr, c_req_be, c_req_wdata}), .full_o(q_full),
    .pop_i(mem_hs), .valid_o(rq_v), .rdata_o({rq_we, rq_addr, rq_be, rq_wdata}),
    .empty_o(q_empty)
  );
  assign mem_hs   = rq_v && mem_req_ready_i && !gen_q;
  assign rsp      = mem_rsp_valid_i && !gen_q;
  assign rsp_fill = rsp && kind_q[krp_q];
  assign z_fill   = rsp_fill && !ans_slot[2];
  assign c_fill   = rsp_fill && ans_slot[2];
  assign z_tag_we = (ctl_q == CTag) && job_z_q;
  assign c_tag_we = (ctl_q == CTag) && job_c_q;
  assign z_clean  = (ctl_q == CDrain) && (out_q == 5'd0) && q_empty && job_z_q;
  assign c_clean  = (ctl_q == CDrain) && (out_q == 5'd0) && q_empty && job_c_q;
  assign inv_all  = (ctl_q == CInv);

  // The first dirty line (depth cache first), from the lowest set bit of each cache's dirty
  // lines (x & -x: a carry chain, then an OR per index bit), registered: CScan acts on it one
  // clock after CScanW, in which nothing writes the caches.
  localparam int NL = 1 << LineBits;
  logic [NL-1:0] z_low, c_low;
  logic [LineBits-1:0] z_low_idx, c_low_idx;
  assign z_low = z_dirty_lines & (~z_dirty_lines + NL'(1));
  assign c_low = c_dirty_lines & (~c_dirty_lines + NL'(1));
  always_comb begin
    z_low_idx = '0;
    c_low_idx = '0;
    for (int l = 0; l < NL; l++) begin
      z_low_idx = z_low_idx | (z_low[l] ? LineBits'(l) : '0);
      c_low_idx = c_low_idx | (c_low[l] ? LineBits'(l) : '0);
    end
  end
  assign scan_z     = |z_dirty_lines;
  assign scan_found = scan_z || (|c_dirty_lines);
  assign scan_line  = scan_z ? z_low_idx : c_low_idx;
  assign any_dirty = |{z_dirty_lines, c_dirty_lines};

  // Work for the controller, when it is idle.
  logic        mz2, mc2;                       // stage 2's fragment lacks its depth / colour line
  assign mz2       = nz2 && !zhit_q;
  assign mc2       = nc2 && !chit_q;
  assign miss      = v2 && look_fresh_q && !hits_ok && !hazard && !hang_block
                     && !v3 && !v4 && !v5 && !v6;
  assign want_gen  = !gen_q && in_valid_i && !in_fast && !settle_q && !settle2_q;
  assign want_flush = (quiet_q == 8'(IdleFlush)) || (want_gen && fast_empty);
  // Clocks without a fast fragment (none inside, none offered).
  assign quiet_reset = !fast_empty || (in_valid_i && in_fast) || !ctl_idle || gen_q;

  // The victims' dirty masks, of the job's caches only (a line not valid writes nothing).
  logic [15:0] evz_mask, evc_mask;
`ifdef INJECT_FOP_PIPE_EVICT
  // The bug: a miss replaces its lines without writing the victims' dirty words back (only
  // the flushes write back).
  assign evz_mask = (z_ev_valid && !job_fill_q) ? z_ev_dirty : 16'h0;
  assign evc_mask = (c_ev_valid && !job_fill_q) ? c_ev_dirty : 16'h0;
`else
  assign evz_mask = z_ev_valid ? z_ev_dirty : 16'h0;
  assign evc_mask = c_ev_valid ? c_ev_dirty : 16'h0;
`endif

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ctl_q       <= CIdle;
      job_fill_q  <= 1'b0;
      job_z_q     <= 1'b0;
      job_c_q     <= 1'b0;
      flush_inv_q <= 1'b0;
      zline_q     <= '0;
      cline_q     <= '0;
      ztag_q      <= '0;
      ctag_q      <= '0;
      slots_q     <= '0;
      fslots_q    <= '0;
      slot_q      <= '0;
      wfirst_q    <= 1'b0;
      wbd_q       <= '0;
      evd_q       <= '0;
      evtz_q      <= '0;
      evtc_q      <= '0;
      out_q       <= '0;
      kind_q      <= '0;
      kwp_q       <= '0;
      krp_q       <= '0;
      scan_found_q <= 1'b0;
      scan_z_q    <= 1'b0;
      scan_line_q <= '0;
      quiet_q     <= '0;
      gen_q       <= 1'b0;
      hang_pend_q <= 1'b0;
      hang_q      <= 1'b0;
      hang_buf_q  <= 1'b0;
      hang_addr_q <= '0;
    end else begin
      out_q <= out_q + {4'b0, q_push} - {4'b0, rsp};
      if (q_push) begin
        kind_q[kwp_q] <= !c_req_we;
        kwp_q         <= kwp_q + 5'd1;
      end
      if (rsp) krp_q <= krp_q + 5'd1;
      if (rsp_fill) fslots_q[ans_slot] <= 1'b0;
      scan_found_q <= scan_found;
      scan_z_q     <= scan_z;
      scan_line_q  <= scan_line;
      if (quiet_reset) quiet_q <= '0;
      else if (quiet_q != 8'(IdleFlush)) quiet_q <= quiet_q + 8'd1;
      // A hanging fragment reaches stage 7: its allowed writes happen, no beat; then flush.
      if (v6 && h6 && back_move && !hang_pend_q) begin
        hang_pend_q <= 1'b1;
        hang_buf_q  <= hb6;
        hang_addr_q <= ha6;
      end
      // Owner changes: to pica_fop once the fast side is empty and written back; back when
      // pica_fop is idle with nothing outstanding.
      if (!gen_q && want_gen && fast_empty && ctl_idle && !any_dirty && !z_any_valid
          && !c_any_valid && out_q == 5'd0 && q_empty && !hang_pend_q && !hang_q) begin
        gen_q <= 1'b1;
      end else if (gen_q && g_idle && !g_hang && !(in_valid_i && !in_fast_ok)) begin
        gen_q <= 1'b0;
      end
      unique case (ctl_q)
        CIdle: begin
          if (hang_pend_q && !hang_q) begin
            flush_inv_q <= 1'b0;
            ctl_q       <= CScanW;
          end else if (!hang_pend_q && !hang_q && miss) begin
            job_fill_q <= 1'b1;
            job_z_q    <= mz2;
            job_c_q    <= mc2;
            slots_q    <= {{4{mc2}}, {4{mz2}}};
            zline_q    <= da2[LW+1:4];
            ztag_q     <= da2[31:LW+2];
            cline_q    <= ca2[LW+1:4];
            ctag_q     <= ca2[31:LW+2];
            ctl_q      <= CJob;
          end else if (!hang_pend_q && !hang_q && want_flush && fast_empty
                       && (any_dirty || z_any_valid || c_any_valid)) begin
            flush_inv_q <= 1'b1;
            ctl_q       <= CScanW;
          end
        end
        CScanW: ctl_q <= CScan;
        CScan: begin
          if (scan_found_q) begin
            job_fill_q <= 1'b0;
            job_z_q    <= scan_z_q;
            job_c_q    <= !scan_z_q;
            slots_q    <= scan_z_q ? 8'h0F : 8'hF0;
            if (scan_z_q) zline_q <= scan_line_q;
            else          cline_q <= scan_line_q;
            ctl_q      <= CJob;
          end else if (hang_pend_q) begin
            // The beats of the fragments before the hanging one leave first, and every write
            // is answered.
            if (bcount_q == 2'd0 && out_q == 5'd0 && q_empty) ctl_q <= CHang;
          end else begin
            ctl_q <= flush_inv_q ? CInv : CIdle;
          end
        end
        // The victims' tags and dirty masks, latched (the lines are the job's until it ends).
        CJob: begin
          evd_q    <= {job_c_q ? evc_mask : 16'h0, job_z_q ? evz_mask : 16'h0};
          evtz_q   <= z_ev_tag;
          evtc_q   <= c_ev_tag;
          fslots_q <= job_fill_q ? slots_q : 8'h0;
          ctl_q    <= CRd;
        end
        CRd: begin
          if (slots_q == 8'h0) begin
            ctl_q <= job_fill_q ? CWait : CDrain;
          end else if (!job_fill_q || !q_full) begin
            slots_q[cur_slot] <= 1'b0;
            slot_q            <= cur_slot;
            wfirst_q          <= 1'b1;
            if (evd_q[4*cur_slot +: 4] != 4'h0) ctl_q <= CWr;
          end
        end
        CWr: begin
          wfirst_q <= 1'b0;
          if (wfirst_q) wbd_q <= slot_q[2] ? c_rd : z_rd;
          if (!q_full) ctl_q <= CRd;
        end
        CWait: begin
          if (fslots_q == 8'h0) ctl_q <= CTag;
        end
        CDrain: begin
          if (out_q == 5'd0 && q_empty) ctl_q <= CScanW;
        end
        CTag: ctl_q <= CIdle;
        CInv: ctl_q <= CIdle;
        CHang: begin
          hang_q <= 1'b1;
        end
        default: ctl_q <= CIdle;
      endcase
    end
  end

  // ---------------------------------------------------------------- ports
  assign in_take    = !gen_q && in_valid_i && in_fast_ok && (!v0 || s0_go) && !hang_block
                      && ctl_idle;
  assign g_in_valid = gen_q && in_valid_i && !in_fast_ok;
  assign in_ready_o = gen_q ? (g_in_ready && g_in_valid) : in_take;

  assign bout = brd_q ? bq1 : bq0;
  assign out_valid_o         = gen_q ? g_out_valid : (bcount_q != 2'd0);
  assign out_tag_o           = gen_q ? g_tag   : bout.tag;
  assign out_x_o             = gen_q ? g_x     : bout.x;
  assign out_y_o             = gen_q ? g_y     : bout.y;
  assign out_color_addr_o    = gen_q ? g_caddr : bout.caddr;
  assign out_color_o         = gen_q ? g_color : bout.color;
  assign out_depth_addr_o    = gen_q ? g_daddr : bout.daddr;
  assign out_depth_stencil_o = gen_q ? g_ds    : bout.ds;
  assign out_flags_o         = gen_q ? g_flags : bout.flags;

  assign mem_req_valid_o = gen_q ? g_req_valid : rq_v;
  assign mem_req_we_o    = gen_q ? g_req_we    : rq_we;
  assign mem_req_addr_o  = gen_q ? g_req_addr  : rq_addr;
  assign mem_req_be_o    = gen_q ? g_req_be    : rq_be;
  assign mem_req_wdata_o = gen_q ? g_req_wdata : rq_wdata;
  assign mem_rsp_ready_o = gen_q ? g_rsp_ready : 1'b1;

  assign hang_o        = g_hang || hang_q;
  assign hang_kind_o   = g_hang ? g_hang_kind : pica_rop_pkg::HangUnmapped;
  assign hang_buffer_o = g_hang ? g_hang_buf : hang_buf_q;
`ifdef INJECT_FOP_HANG_MOVES
  // The injected bug: the hang's address and value move a clock after hang_o rises (a
  // testbench that reads them at the end sees other fields than one that read them at the
  // hang). The bridge requires the fields to hold with hang_o, and catches it.
  logic hang_seen_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) hang_seen_q <= 1'b0;
    else if (hang_o) hang_seen_q <= 1'b1;
  end
  assign hang_addr_o   = (g_hang ? g_hang_addr : hang_addr_q) ^ {29'd0, hang_seen_q, 2'd0};
  assign hang_value_o  = (g_hang ? g_hang_value : 3'd0) ^ {2'd0, hang_seen_q};
`else
  assign hang_addr_o   = g_hang ? g_hang_addr : hang_addr_q;
  assign hang_value_o  = g_hang ? g_hang_value : 3'd0;
`endif

  assign idle_o = (gen_q ? g_idle
                         : (fast_empty && ctl_idle && !any_dirty && !z_any_valid && !c_any_valid
                            && out_q == 5'd0 && q_empty && !hang_pend_q))
                  || hang_q || g_hang;

endmodule : pica_fop_pipe
