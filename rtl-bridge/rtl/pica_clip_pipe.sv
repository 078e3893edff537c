// pica_clip_pipe: CLIP (`pica_model::clip::process`, model/src/clip.rs) bit for bit, with a
// pipelined fast path for the common triangle that no plane clips (issue 37: CLIP <= 24 clocks
// per unclipped triangle; pica_clip alone takes 263). The ports and the contract are
// pica_clip's (rtl/README.md "pica_clip").
//
//   in --> A (classify, 21 clocks) --all inside--> B (signed area, culling) --> out
//                                  \--otherwise--> pica_clip (the general path) --> out
//
// A: three pica_clip_lane, one per vertex, on one static schedule (21 clocks): the seven fixed
//    planes' and the user plane's inside tests, dot(q_k, q_0) < 0, and to_screen (inv_w,
//    window x, y, z), all of them for every triangle (the model's own fast path, clip::clip_triangle: a
//    triangle inside every plane is the aligned input). It takes a triangle every 22 clocks.
// B: the aligned vertices and their window coordinates; clip::signed_area (4 differences on one
//    adder, 2 products, 1 difference: 12 clocks, none with culling off) and CullMode::keeps;
//    then the ScreenTri until out_ready_i.
// The general path, pica_clip, gets the input triangle as it came (it aligns again).
//
// Order: A hands its triangle on only when B is empty and pica_clip is idle, so B and
// pica_clip never hold results at once and ScreenTris leave in input order. A works on the
// next triangle while B waits for out_ready_i or pica_clip clips.
//
// Clocks with the output always ready: an unclipped triangle every 22 clocks in a stream (A's
// schedule and its hand-off); one alone leaves 23 (culling off) or 35 clocks after its input
// handshake. A clipped one costs A's 22 clocks plus pica_clip's.
//
// Injected bugs (defines, off by default; bugs that only a pipelined clipper can have):
//   INJECT_CLIP_FAST_OVERWRITE  A hands a triangle to B while B still holds one (it is lost)
//   INJECT_CLIP_FAST_ORDER      A hands a clipped triangle to pica_clip while B still holds an
//                               older one, and the output prefers pica_clip's (out of order)
module pica_clip_pipe (
  input  logic          clk_i,
  input  logic          rst_ni,

  input  logic [351:0]  cfg_i,

  input  logic          in_valid_i,
  output logic          in_ready_o,
  input  logic [31:0]   in_seq_i,
  input  logic [1727:0] in_v_i,          // vertex k semantic s at [24*(24*k + s) +: 24]

  output logic          out_valid_o,
  input  logic          out_ready_i,
  output logic [31:0]   out_seq_o,
  output logic [71:0]   out_x_o,         // vertex k at [24*k +: 24]
  output logic [71:0]   out_y_o,
  output logic [71:0]   out_z_o,
  output logic [71:0]   out_inv_w_o,
  output logic [1727:0] out_v_o,         // ScreenVertex::v, as in_v_i

  output logic          idle_o
);

  localparam int VW    = 576;            // one vertex: 24 semantics x 24 bits
  localparam int LastC = 20;             // pica_clip_lane's last scheduled clock
  localparam int DoneC = LastC + 1;
  localparam logic [23:0] SignBit = 24'h800000;

  // ---------------------------------------------------------------- configuration
  logic [1:0]  c_cull;
  logic        c_user_en;
  logic [95:0] c_uc;
  logic [23:0] c_half_w, c_half_h, c_dscale, c_doff, c_off_x, c_off_y;

  pica_clip_cfg u_cfg (
    .cfg_i,
    .cull_o    (c_cull),
    .user_en_o (c_user_en),
    .uc_o      (c_uc),
    .half_w_o  (c_half_w),
    .half_h_o  (c_half_h),
    .dscale_o  (c_dscale),
    .doff_o    (c_doff),
    .off_x_o   (c_off_x),
    .off_y_o   (c_off_y)
  );

  // CullMode::from_regs. UNVERIFIED(hw): the reserved mode 3 culls like mode 2 (BackCcw) —
  // model CullMode::from_regs (Azahar ProcessTriangle), as in pica_clip.
  localparam logic [1:0] CullNone = pica_regs_pkg::FACECULLING_CONFIG_MODE_NONE;
  localparam logic [1:0] CullCcw  = pica_regs_pkg::FACECULLING_CONFIG_MODE_FRONT_CCW;

  // mul(v, -1) as pica_f24_mul computes it (see pica_clip_lane).
  function automatic logic [23:0] neg_mul(input logic [23:0] a);
    if (a[22:16] == 7'd0)                          neg_mul = 24'h0;
    else if (a[22:16] == 7'h7F && a[15:0] != '0)   neg_mul = 24'h7F8000;
    else                                           neg_mul = a ^ SignBit;
  endfunction

  // ---------------------------------------------------------------- A: classify
  logic            a_busy_q;
  logic [4:0]      a_c_q;
  logic [31:0]     a_seq_q;
  logic [3*VW-1:0] a_v_q;
  logic [2:0]      l_inside, l_user_in, l_flip;
  logic [71:0]     l_sx, l_sy, l_sz, l_iw;

  for (genvar k = 0; k < 3; k++) begin : g_lane
    pica_clip_lane #(.LastC(LastC)) u_lane (
      .clk_i,
      .rst_ni,
      .c_i       (a_c_q),
      .pos_i     (a_v_q[VW*k +: 96]),
      .q_i       (a_v_q[VW*k + 96 +: 96]),
      .q0_i      (a_v_q[96 +: 96]),
      .uc_i      (c_uc),
      .half_w_i  (c_half_w),
      .half_h_i  (c_half_h),
      .dscale_i  (c_dscale),
      .doff_i    (c_doff),
      .off_x_i   (c_off_x),
      .off_y_i   (c_off_y),
      .inside_o  (l_inside[k]),
      .user_in_o (l_user_in[k]),
      .flip_o    (l_flip[k]),
      .sx_o      (l_sx[24*k +: 24]),
      .sy_o      (l_sy[24*k +: 24]),
      .sz_o      (l_sz[24*k +: 24]),
      .iw_o      (l_iw[24*k +: 24])
    );
  end

  // The aligned vertices: vertex 1's and 2's quaternions flipped where dot(q_k, q_0) < 0.
  logic [3*VW-1:0] aligned;
  always_comb begin
    aligned = a_v_q;
    for (int k = 1; k < 3; k++) begin
      if (l_flip[k]) begin
        for (int j = 0; j < 4; j++) begin
          aligned[VW*k + 96 + 24*j +: 24] = neg_mul(a_v_q[VW*k + 96 + 24*j +: 24]);
        end
      end
    end
  end

  // ---------------------------------------------------------------- hand-off
  typedef enum logic [1:0] { BEmpty, BCalc, BOut } b_state_e;
  b_state_e    b_state_q;
  logic        slow_idle, slow_valid, slow_out_valid;
  logic        a_done, all_in, to_b, to_slow;

  assign a_done = a_busy_q && (a_c_q == 5'(DoneC));
  assign all_in = (&l_inside) && (!c_user_en || (&l_user_in));
`ifdef INJECT_CLIP_FAST_OVERWRITE
  // Injected bug: B is not asked whether it still holds a triangle.
  assign to_b       = a_done && all_in && slow_idle;
`else
  assign to_b       = a_done && all_in && (b_state_q == BEmpty) && slow_idle;
`endif
`ifdef INJECT_CLIP_FAST_ORDER
  // Injected bug: the general path starts while B still holds an older triangle.
  assign slow_valid = a_done && !all_in;
`else
  assign slow_valid = a_done && !all_in && (b_state_q == BEmpty);
`endif
  assign to_slow    = slow_valid && slow_idle;   // pica_clip takes a triangle when idle

  assign in_ready_o = !a_busy_q || to_b || to_slow;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_busy_q <= 1'b0;
      a_c_q    <= 5'(DoneC);
      a_seq_q  <= '0;
      a_v_q    <= '0;
    end else begin
      if (in_valid_i && in_ready_o) begin
        a_busy_q <= 1'b1;
        a_c_q    <= '0;
        a_seq_q  <= in_seq_i;
        a_v_q    <= in_v_i;
      end else begin
        if (to_b || to_slow) a_busy_q <= 1'b0;
        if (a_c_q != 5'(DoneC)) a_c_q <= a_c_q + 5'd1;
      end
    end
  end

  // ---------------------------------------------------------------- B: area and culling
  logic [4:0]      b_c_q;
  logic [31:0]     b_seq_q;
  logic [3*VW-1:0] b_v_q;
  logic [71:0]     b_x_q, b_y_q, b_z_q, b_iw_q;
  logic [23:0]     ea_q, eb_q, ec_q, ed_q;
  logic [23:0]     bm0_a, bm0_b, bm0_y, bm1_a, bm1_b, bm1_y, bad_a, bad_b, bad_y;
  logic [23:0]     baa_q, bbb_q;

  pica_f24_mul_p #(.Reg(1'b1)) u_bmul0 (
    .clk_i, .en_i(1'b1), .a_i(bm0_a), .b_i(bm0_b), .y_o(bm0_y)
  );
  pica_f24_mul_p #(.Reg(1'b1)) u_bmul1 (
    .clk_i, .en_i(1'b1), .a_i(bm1_a), .b_i(bm1_b), .y_o(bm1_y)
  );
  pica_f24_add_p #(.RegA(1'b1), .RegB(1'b1)) u_badd (
    .clk_i, .en_i(1'b1), .a_i(baa_q), .b_i(bbb_q), .y_o(bad_y)
  );

  always_ff @(posedge clk_i) begin
    baa_q <= bad_a;
    bbb_q <= bad_b;
  end

  // clip::signed_area(v0, v1, v2): p = (x1 - x0)(y2 - y0), q = (x2 - x0)(y1 - y0), p - q.
  //   b  0: x1 - x0   1: y2 - y0   2: x2 - x0   3: y1 - y0   7: both products   8: p - q
  //   11: the area, CullMode::keeps. The products' operands come from registers (see
  //   pica_clip_lane: no adder output straight into a multiplier).
  always_comb begin
    bm0_a = 24'h0;
    bm0_b = 24'h0;
    bm1_a = 24'h0;
    bm1_b = 24'h0;
    bad_a = 24'h0;
    bad_b = 24'h0;
    if (b_state_q == BCalc) begin
      unique case (b_c_q)
        5'd0: begin bad_a = b_x_q[24 +: 24]; bad_b = b_x_q[0 +: 24] ^ SignBit; end
        5'd1: begin bad_a = b_y_q[48 +: 24]; bad_b = b_y_q[0 +: 24] ^ SignBit; end
        5'd2: begin bad_a = b_x_q[48 +: 24]; bad_b = b_x_q[0 +: 24] ^ SignBit; end
        5'd3: begin bad_a = b_y_q[24 +: 24]; bad_b = b_y_q[0 +: 24] ^ SignBit; end
        5'd7: begin bm0_a = ea_q; bm0_b = eb_q; bm1_a = ec_q; bm1_b = ed_q; end
        5'd8: begin bad_a = bm0_y; bad_b = bm1_y ^ SignBit; end
        default: ;
      endcase
    end
  end

  // CullMode::keeps on the signed area.
  logic keep;
  always_comb begin
    if (c_cull == CullNone) keep = 1'b1;
    else if (c_cull == CullCcw) begin
      keep = !((bad_y[22:16] == 7'h7F) && (bad_y[15:0] != 16'h0)) && bad_y[23]
             && bad_y[22:0] != 23'h0;
    end else begin
      keep = !((bad_y[22:16] == 7'h7F) && (bad_y[15:0] != 16'h0)) && !bad_y[23]
             && bad_y[22:0] != 23'h0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      b_state_q <= BEmpty;
      b_c_q     <= '0;
      b_seq_q   <= '0;
      b_v_q     <= '0;
      b_x_q     <= '0;
      b_y_q     <= '0;
      b_z_q     <= '0;
      b_iw_q    <= '0;
      ea_q      <= '0;
      eb_q      <= '0;
      ec_q      <= '0;
      ed_q      <= '0;
    end else begin
      if (to_b) begin
        b_state_q <= (c_cull == CullNone) ? BOut : BCalc;
        b_c_q     <= '0;
        b_seq_q   <= a_seq_q;
        b_v_q     <= aligned;
        b_x_q     <= l_sx;
        b_y_q     <= l_sy;
        b_z_q     <= l_sz;
        b_iw_q    <= l_iw;
      end else begin
        unique case (b_state_q)
          BCalc: begin
            b_c_q <= b_c_q + 5'd1;
            if (b_c_q == 5'd3) ea_q <= bad_y;
            if (b_c_q == 5'd4) eb_q <= bad_y;
            if (b_c_q == 5'd5) ec_q <= bad_y;
            if (b_c_q == 5'd6) ed_q <= bad_y;
            if (b_c_q == 5'd11) b_state_q <= keep ? BOut : BEmpty;
          end
          BOut: if (out_ready_i) b_state_q <= BEmpty;
          default: ;
        endcase
      end
    end
  end

  // ---------------------------------------------------------------- the general path
  logic          slow_ready;
  logic [31:0]   slow_seq;
  logic [71:0]   slow_x, slow_y, slow_z, slow_iw;
  logic [1727:0] slow_v;
  logic          fast_out;

  pica_clip u_clip (
    .clk_i,
    .rst_ni,
    .cfg_i,
    .in_valid_i  (slow_valid),
    .in_ready_o  (slow_ready),
    .in_seq_i    (a_seq_q),
    .in_v_i      (a_v_q),
    .out_valid_o (slow_out_valid),
    .out_ready_i (out_ready_i && !fast_out),
    .out_seq_o   (slow_seq),
    .out_x_o     (slow_x),
    .out_y_o     (slow_y),
    .out_z_o     (slow_z),
    .out_inv_w_o (slow_iw),
    .out_v_o     (slow_v),
    .idle_o      (slow_idle)
  );

  // ---------------------------------------------------------------- outputs
`ifdef INJECT_CLIP_FAST_ORDER
  assign fast_out = (b_state_q == BOut) && !slow_out_valid;
`else
  assign fast_out = (b_state_q == BOut);
`endif
  assign out_valid_o = fast_out || slow_out_valid;
  assign out_seq_o   = fast_out ? b_seq_q : slow_seq;
  assign out_x_o     = fast_out ? b_x_q : slow_x;
  assign out_y_o     = fast_out ? b_y_q : slow_y;
  assign out_z_o     = fast_out ? b_z_q : slow_z;
  assign out_inv_w_o = fast_out ? b_iw_q : slow_iw;
  assign out_v_o     = fast_out ? b_v_q : slow_v;
  assign idle_o      = !a_busy_q && (b_state_q == BEmpty) && slow_idle;

  logic unused_ready;
  assign unused_ready = slow_ready;   // == slow_idle: pica_clip takes a triangle while idle

`ifndef SYNTHESIS
  // B and the general path never hold results at once (the order rule above); the
  // configuration is stable while a triangle is in flight.
  logic [351:0] cfg_seen_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_seen_q <= '0;
    end else begin
      cfg_seen_q <= cfg_i;
`ifndef INJECT_CLIP_FAST_ORDER
      if (b_state_q != BEmpty && !slow_idle)
        $error("pica_clip_pipe: the fast and the general path both hold a triangle");
`endif
      if (!idle_o && cfg_i != cfg_seen_q)
        $error("pica_clip_pipe: configuration changed while a triangle is in flight");
    end
  end
`endif

endmodule : pica_clip_pipe
