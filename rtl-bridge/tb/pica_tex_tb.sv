// pica_tex_tb: replays texel vectors made by the model (rtl-bridge/tests/tex_rtl.rs) through
// the texture units' address and decode blocks (pica_tex_addr, pica_tex_texel with both knob
// settings) and compares every output bit. A plain-SV testbench (Icarus, Verilator --binary):
//
//   +vec=FILE  the vectors, one a line, hexadecimal fields:
//     D fmt raw hi bx by rgba rgba_knobs   decode: pica_tex_texel with the default knobs and
//                                          with tex-alpha-only-colour=white,
//                                          tex-reserved-format=zero
//     A fmt width x yr offset len hi bx by pica_tex_addr
//     F c00 c10 c01 c11 fx fy a b f bi lvl bi_t lvl_t
//                                          pica_tex_weights and pica_tex_filter: the bilinear
//                                          and level blends
//                                          rounded half up and (…_t) with
//                                          tex-filter-rounding=truncate
//     C x scale p                          pica_tex_coord (p: 42-bit two's complement)
//     L du_dx dv_dx du_dy dv_dy width height bias min max mag min mip level next frac two lin
//                                          pica_tex_lod
//     V fmt width height level w h offset w1 h1 offset1
//                                          pica_tex_level with levels stopping at 8 texels
//                                          and (…1) with tex-min-level-size=1
//     S z zbias texel rgba                 pica_tex_shadow
//     K u v w face s t zabs                pica_tex_cube
//     W mode i n border idx                pica_tex_wrap (i: 34-bit two's complement; idx
//                                          compared when not border): one index a clock,
//                                          the answers checked in order as they come out
//
// Prints one line per mismatch and then "PASS <n>" or "FAIL <k> of <n>" (it stops reading at
// the twentieth mismatch).
module pica_tex_tb;
  logic [3:0]   fmt;
  logic [127:0] raw;
  logic         hi;
  logic [1:0]   bx, by;
  logic [31:0]  rgba0, rgba1;
  logic [10:0]  width, x, yr;
  logic [31:0]  a_off;
  logic [4:0]   a_len;
  logic         a_hi;
  logic [1:0]   a_bx, a_by;

  pica_tex_texel #(.AlphaWhite(1'b0), .ReservedZero(1'b0)) u_dec (
    .fmt_i(fmt), .raw_i(raw), .hi_nib_i(hi), .bx_i(bx), .by_i(by), .rgba_o(rgba0)
  );
  pica_tex_texel #(.AlphaWhite(1'b1), .ReservedZero(1'b1)) u_dec_knobs (
    .fmt_i(fmt), .raw_i(raw), .hi_nib_i(hi), .bx_i(bx), .by_i(by), .rgba_o(rgba1)
  );
  logic [31:0] c00, c10, c01, c11, la, lb, bi0, bi1, lv0, lv1;
  logic [7:0]  fx, fy, lf;
  logic [16:0] w00, w10, w01, w11;
  pica_tex_weights u_wts (
    .fx_i(fx), .fy_i(fy), .w00_o(w00), .w10_o(w10), .w01_o(w01), .w11_o(w11)
  );
  pica_tex_filter #(.Truncate(1'b0)) u_filt (
    .c00_i(c00), .c10_i(c10), .c01_i(c01), .c11_i(c11),
    .w00_i(w00), .w10_i(w10), .w01_i(w01), .w11_i(w11),
    .bilinear_o(bi0), .lvl_a_i(la), .lvl_b_i(lb), .lvl_f_i(lf), .levels_o(lv0)
  );
  pica_tex_filter #(.Truncate(1'b1)) u_filt_t (
    .c00_i(c00), .c10_i(c10), .c01_i(c01), .c11_i(c11),
    .w00_i(w00), .w10_i(w10), .w01_i(w01), .w11_i(w11),
    .bilinear_o(bi1), .lvl_a_i(la), .lvl_b_i(lb), .lvl_f_i(lf), .levels_o(lv1)
  );
  logic [23:0]        cx, d0, d1, d2, d3;
  logic [10:0]        cscale, lw, lh;
  logic signed [41:0] cp;
  logic [12:0]        lbias;
  logic [3:0]         lmin, lmax, l_level, l_next;
  logic               lmag, lminf, lmip, l_two, l_lin;
  logic [7:0]         l_frac;
  pica_tex_coord u_coord (.clk_i(1'b0), .en_i(1'b0), .x_i(cx), .scale_i(cscale), .p_o(cp));
  pica_tex_lod u_lod (
    .clk_i(1'b0), .en_i(1'b0), .du_dx_i(d0), .dv_dx_i(d1), .du_dy_i(d2), .dv_dy_i(d3),
    .width_i(lw), .height_i(lh),
    .bias_i(lbias), .min_level_i(lmin), .max_level_i(lmax), .mag_linear_i(lmag),
    .min_linear_i(lminf), .mip_linear_i(lmip), .level_o(l_level), .next_o(l_next),
    .frac_o(l_frac), .two_o(l_two), .linear_o(l_lin)
  );
  // pica_tex_wrap: clocked, streamed; the expected answers wait in a ring.
  logic               clk, rst_n, w_valid, w_valid_o, w_border;
  logic [2:0]         w_mode;
  logic signed [33:0] w_i;
  logic [10:0]        w_n, w_idx;
  logic [11:0]        w_exp [64];   // {border, idx}
  logic [63:0]        w_line [64];  // the vector number, for the report
  int                 w_head, w_tail;
  pica_tex_wrap u_wrap (
    .clk_i(clk), .rst_ni(rst_n), .valid_i(w_valid), .mode_i(w_mode), .i_i(w_i), .n_i(w_n),
    .valid_o(w_valid_o), .border_o(w_border), .idx_o(w_idx)
  );
  // pica_tex_level: started, then clocked until both instances are done.
  logic        v_start, v_done0, v_done1;
  logic [3:0]  v_level;
  logic [10:0] v_w, v_h, v_lw0, v_lh0, v_lw1, v_lh1;
  logic [27:0] v_off0, v_off1;
  pica_tex_level #(.MinOne(1'b0)) u_level (
    .clk_i(clk), .rst_ni(rst_n), .start_i(v_start), .fmt_i(fmt), .width_i(v_w), .height_i(v_h),
    .level_i(v_level), .lw_o(v_lw0), .lh_o(v_lh0), .done_o(v_done0), .offset_o(v_off0)
  );
  pica_tex_level #(.MinOne(1'b1)) u_level1 (
    .clk_i(clk), .rst_ni(rst_n), .start_i(v_start), .fmt_i(fmt), .width_i(v_w), .height_i(v_h),
    .level_i(v_level), .lw_o(v_lw1), .lh_o(v_lh1), .done_o(v_done1), .offset_o(v_off1)
  );
  logic [23:0] s_z;
  logic [22:0] s_bias;
  logic [31:0] s_texel, s_rgba;
  pica_tex_shadow u_shadow (.z_i(s_z), .zbias_i(s_bias), .texel_i(s_texel), .rgba_o(s_rgba));
  logic [23:0] k_u, k_v, k_w, k_s, k_t, k_z;
  logic [2:0]  k_face;
  pica_tex_cube u_cube (
    .u_i(k_u), .v_i(k_v), .w_i(k_w), .face_o(k_face), .s_o(k_s), .t_o(k_t), .zabs_o(k_z)
  );
  pica_tex_addr u_addr (
    .fmt_i(fmt), .width_i(width), .x_i(x), .yr_i(yr), .offset_o(a_off), .len_o(a_len),
    .hi_nib_o(a_hi), .bx_o(a_bx), .by_o(a_by)
  );

  // One clock; an answer that comes out is compared with the oldest expected one.
  task automatic tick(inout int n_bad);
    #1 clk = 1'b1;
    #1 clk = 1'b0;
    if (w_valid_o) begin
      if (w_head == w_tail) begin
        n_bad++;
        $display("MISMATCH wrap: an answer with none expected");
      end else begin
        if (w_border !== w_exp[w_head % 64][11]
            || (!w_border && w_idx !== w_exp[w_head % 64][10:0])) begin
          n_bad++;
          if (n_bad <= 20)
            $display("MISMATCH wrap #%0d: border %0d idx %0d (model %0d %0d)",
                     w_line[w_head % 64], w_border, w_idx, w_exp[w_head % 64][11],
                     w_exp[w_head % 64][10:0]);
        end
        w_head++;
      end
    end
  endtask

  initial begin
    string path;
    int fd, n, bad, got;
    logic [7:0]  kind;
    logic [31:0] f_fmt, f_hi, f_bx, f_by, e0, e1, f_w, f_x, f_yr, e_off, e_len, e_hi, e_bx, e_by;
    logic [127:0] f_raw;
    logic [31:0] h[17];
    logic [63:0] e_p;
    logic [31:0] g00, g10, g01, g11, gfx, gfy, ga, gb, gf, e_bi0, e_lv0, e_bi1, e_lv1;
    n = 0;
    bad = 0;
    if (!$value$plusargs("vec=%s", path)) begin
      $display("FAIL: missing +vec=FILE");
      $finish;
    end
    fd = $fopen(path, "r");
    if (fd == 0) begin
      $display("FAIL: cannot open %s", path);
      $finish;
    end
    s_z = '0; s_bias = '0; s_texel = '0; k_u = '0; k_v = '0; k_w = '0;
    v_start = 1'b0; v_level = '0; v_w = '0; v_h = '0;
    clk = 1'b0; rst_n = 1'b0; w_valid = 1'b0; w_mode = '0; w_i = '0; w_n = '0;
    w_head = 0; w_tail = 0;
    tick(bad);
    rst_n = 1'b1;
    cx = '0; cscale = '0; d0 = '0; d1 = '0; d2 = '0; d3 = '0; lw = '0; lh = '0; lbias = '0;
    lmin = '0; lmax = '0; lmag = 1'b0; lminf = 1'b0; lmip = 1'b0;
    c00 = '0; c10 = '0; c01 = '0; c11 = '0; la = '0; lb = '0; fx = '0; fy = '0; lf = '0;
    fmt = '0; raw = '0; hi = 1'b0; bx = '0; by = '0; width = '0; x = '0; yr = '0;
    got = $fscanf(fd, " %c", kind);
    while (got == 1) begin
      if (kind == "D") begin
        got = $fscanf(fd, " %h %h %h %h %h %h %h", f_fmt, f_raw, f_hi, f_bx, f_by, e0, e1);
        if (got != 7) begin
          $display("FAIL: bad D line after %0d vectors", n);
          $finish;
        end
        fmt = f_fmt[3:0]; raw = f_raw; hi = f_hi[0]; bx = f_bx[1:0]; by = f_by[1:0];
        #1;
        n++;
        if (rgba0 !== e0 || rgba1 !== e1) begin
          bad++;
          if (bad <= 20)
            $display("MISMATCH decode #%0d fmt %0d raw %h hi %0d bx %0d by %0d: rgba %h (model %h), knobs %h (model %h)",
                     n, fmt, raw, hi, bx, by, rgba0, e0, rgba1, e1);
        end
      end else if (kind == "A") begin
        got = $fscanf(fd, " %h %h %h %h %h %h %h %h %h", f_fmt, f_w, f_x, f_yr, e_off, e_len,
                      e_hi, e_bx, e_by);
        if (got != 9) begin
          $display("FAIL: bad A line after %0d vectors", n);
          $finish;
        end
        fmt = f_fmt[3:0]; width = f_w[10:0]; x = f_x[10:0]; yr = f_yr[10:0];
        #1;
        n++;
        if (a_off !== e_off || 32'(a_len) !== e_len || 32'(a_hi) !== e_hi
            || 32'(a_bx) !== e_bx || 32'(a_by) !== e_by) begin
          bad++;
          if (bad <= 20)
            $display("MISMATCH addr #%0d fmt %0d width %0d x %0d y' %0d: offset %h len %0d hi %0d bx %0d by %0d (model %h %0d %0d %0d %0d)",
                     n, fmt, width, x, yr, a_off, a_len, a_hi, a_bx, a_by, e_off, e_len,
                     e_hi, e_bx, e_by);
        end
      end else if (kind == "F") begin
        got = $fscanf(fd, " %h %h %h %h %h %h %h %h %h %h %h %h %h", g00, g10, g01, g11, gfx, gfy,
                      ga, gb, gf, e_bi0, e_lv0, e_bi1, e_lv1);
        if (got != 13) begin
          $display("FAIL: bad F line after %0d vectors", n);
          $finish;
        end
        c00 = g00; c10 = g10; c01 = g01; c11 = g11; fx = gfx[7:0]; fy = gfy[7:0];
        la = ga; lb = gb; lf = gf[7:0];
        #1;
        n++;
        if (bi0 !== e_bi0 || lv0 !== e_lv0 || bi1 !== e_bi1 || lv1 !== e_lv1) begin
          bad++;
          if (bad <= 20)
            $display("MISMATCH filter #%0d c %h %h %h %h fx %0d fy %0d: %h (model %h), truncated %h (model %h); levels %h %h f %0d: %h (model %h), truncated %h (model %h)",
                     n, c00, c10, c01, c11, fx, fy, bi0, e_bi0, bi1, e_bi1, la, lb, lf, lv0,
                     e_lv0, lv1, e_lv1);
        end
      end else if (kind == "K") begin
        got = $fscanf(fd, " %h %h %h %h %h %h %h", h[0], h[1], h[2], h[3], h[4], h[5], h[6]);
        if (got != 7) begin
          $display("FAIL: bad K line after %0d vectors", n);
          $finish;
        end
        k_u = h[0][23:0]; k_v = h[1][23:0]; k_w = h[2][23:0];
        #1;
        n++;
        if (32'(k_face) !== h[3] || 32'(k_s) !== h[4] || 32'(k_t) !== h[5]
            || 32'(k_z) !== h[6]) begin
          bad++;
          if (bad <= 20)
            $display("MISMATCH cube #%0d u %h v %h w %h: face %0d s %h t %h |z| %h (model %0d %h %h %h)",
                     n, k_u, k_v, k_w, k_face, k_s, k_t, k_z, h[3], h[4], h[5], h[6]);
        end
      end else if (kind == "S") begin
        got = $fscanf(fd, " %h %h %h %h", h[0], h[1], h[2], h[3]);
        if (got != 4) begin
          $display("FAIL: bad S line after %0d vectors", n);
          $finish;
        end
        s_z = h[0][23:0]; s_bias = h[1][22:0]; s_texel = h[2];
        #1;
        n++;
        if (s_rgba !== h[3]) begin
          bad++;
          if (bad <= 20)
            $display("MISMATCH shadow #%0d z %h bias %h texel %h: %h (model %h)", n, s_z, s_bias,
                     s_texel, s_rgba, h[3]);
        end
      end else if (kind == "V") begin
        got = $fscanf(fd, " %h %h %h %h %h %h %h %h %h %h", h[0], h[1], h[2], h[3], h[4], h[5],
                      h[6], h[7], h[8], h[9]);
        if (got != 10) begin
          $display("FAIL: bad V line after %0d vectors", n);
          $finish;
        end
        n++;
        fmt = h[0][3:0]; v_w = h[1][10:0]; v_h = h[2][10:0]; v_level = h[3][3:0];
        v_start = 1'b1;
        tick(bad);
        v_start = 1'b0;
        for (int k = 0; k < 20 && !(v_done0 && v_done1); k++) tick(bad);
        if (!v_done0 || !v_done1 || 32'(v_lw0) !== h[4] || 32'(v_lh0) !== h[5]
            || 32'(v_off0) !== h[6] || 32'(v_lw1) !== h[7] || 32'(v_lh1) !== h[8]
            || 32'(v_off1) !== h[9]) begin
          bad++;
          if (bad <= 20)
            $display("MISMATCH level #%0d fmt %0d %0dx%0d level %0d: done %0d%0d, %0dx%0d at %h, min 1: %0dx%0d at %h (model %0dx%0d at %h, %0dx%0d at %h)",
                     n, fmt, v_w, v_h, v_level, v_done0, v_done1, v_lw0, v_lh0, v_off0, v_lw1,
                     v_lh1, v_off1, h[4], h[5], h[6], h[7], h[8], h[9]);
        end
      end else if (kind == "W") begin
        got = $fscanf(fd, " %h %h %h %h %h", h[0], e_p, h[1], h[2], h[3]);
        if (got != 5) begin
          $display("FAIL: bad W line after %0d vectors", n);
          $finish;
        end
        n++;
        w_mode = h[0][2:0]; w_i = e_p[33:0]; w_n = h[1][10:0]; w_valid = 1'b1;
        w_exp[w_tail % 64] = {h[2][0], h[3][10:0]};
        w_line[w_tail % 64] = 64'(n);
        w_tail++;
        tick(bad);
        w_valid = 1'b0;
      end else if (kind == "C") begin
        got = $fscanf(fd, " %h %h %h", h[0], h[1], e_p);
        if (got != 3) begin
          $display("FAIL: bad C line after %0d vectors", n);
          $finish;
        end
        cx = h[0][23:0]; cscale = h[1][10:0];
        #1;
        n++;
        if (cp !== e_p[41:0]) begin
          bad++;
          if (bad <= 20)
            $display("MISMATCH coord #%0d x %h scale %0d: %h (model %h)", n, cx, cscale, cp,
                     e_p[41:0]);
        end
      end else if (kind == "L") begin
        got = $fscanf(fd, " %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h", h[0], h[1],
                      h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9], h[10], h[11], h[12], h[13],
                      h[14], h[15], h[16]);
        if (got != 17) begin
          $display("FAIL: bad L line after %0d vectors", n);
          $finish;
        end
        d0 = h[0][23:0]; d1 = h[1][23:0]; d2 = h[2][23:0]; d3 = h[3][23:0];
        lw = h[4][10:0]; lh = h[5][10:0]; lbias = h[6][12:0]; lmin = h[7][3:0];
        lmax = h[8][3:0]; lmag = h[9][0]; lminf = h[10][0]; lmip = h[11][0];
        #1;
        n++;
        if (32'(l_level) !== h[12] || 32'(l_next) !== h[13] || 32'(l_frac) !== h[14]
            || 32'(l_two) !== h[15] || 32'(l_lin) !== h[16]) begin
          bad++;
          if (bad <= 20)
            $display("MISMATCH lod #%0d d %h %h %h %h size %0dx%0d bias %h levels %0d-%0d filters %0d%0d%0d: level %0d next %0d frac %0d two %0d linear %0d (model %0d %0d %0d %0d %0d)",
                     n, d0, d1, d2, d3, lw, lh, lbias, lmin, lmax, lmag, lminf, lmip, l_level,
                     l_next, l_frac, l_two, l_lin, h[12], h[13], h[14], h[15], h[16]);
        end
      end else begin
        $display("FAIL: unknown line kind '%c' after %0d vectors", kind, n);
        $finish;
      end
      got = $fscanf(fd, " %c", kind);
      // Twenty mismatches say enough (the injected-bug runs end here).
      if (bad >= 20) got = 0;
    end
    $fclose(fd);
    // The last wrapped indices still in the pipeline.
    for (int k = 0; k < 40; k++) tick(bad);
    if (w_head != w_tail) begin
      bad++;
      $display("MISMATCH wrap: %0d answers never came out", w_tail - w_head);
    end
    if (bad == 0 && n > 0) $display("PASS %0d", n);
    else $display("FAIL %0d of %0d", bad, n);
    $finish;
  end
endmodule
