// pica_clip: CLIP, bit-exact with `pica_model::clip::process` (model/src/clip.rs): quaternion
// alignment, Sutherland-Hodgman clipping, the fan, perspective division, viewport, depth map
// and face culling, every step with exactly the model's f24 operations in the model's order
// (the precision table in clip.rs's module docs). rtl/README.md "pica_clip" is the contract.
//
// In: one Triangle (seq, 3 vertices x 24 semantics). Out: zero or more ScreenTris, one per
// handshake, in the model's fan order. One triangle at a time (in_ready_o only while idle).
//
// Micro-architecture: a multi-cycle FSM around one pipelined f24 datapath — two
// pica_f24_mul_p (a register behind the significand product), the products registered as the
// adder's operands (which can be either product, its negation or another value), one
// pica_f24_add_p (registers behind its alignment and add steps) and the multi-cycle
// pica_f24_rcp_mc (2 quotient bits a clock) — and a vertex pool (pica_ram, 128 x 576 bits, one
// vertex with its 24 semantics per word). A state that uses the datapath holds its operands and
// acts in the clock its result arrives (w_q counts; `lat` per state); INT, SC1 and A0 stream one
// operation a clock. Issue 36: with the multipliers feeding the adder in one clock and the
// unrolled divider the clipper placed at an estimated 12.0 MHz on the ECP5; now 65 MHz.
//
//   IDLE        takes a triangle: vertices into in_q, pool entries 0-2, polygon = [0, 1, 2]
//   QD0-QD2     dot(q_k, q_0) for k = 1, 2 (clip::align_quaternions), < 0 -> QF0-QF1
//   QF0-QF1     q_k := mul(q_k, -1), two components per step
//   WR          in_q's three (aligned) vertices into pool entries 0, 1, 2
//   PLANE       starts one plane (clip::clip_polygon): the walk begins with the last vertex
//   RD          reads that vertex from the pool (later vertices are read ahead in D0)
//   LD          the vertex into cur_q; a fixed plane's distance add starts from the pool output
//   D0(-D2)     its distance (Plane::distance): one add / mul, or the user plane's dot
//   DEC         the inside tests of cur and prev: keep, drop or intersect
//   T0-T2       t = mul(d_prev, rcp(add(d_prev, -d))), u = add(1, -t)   (clip::intersect)
//   INT         semantic s = add(mul(cur_s, t), mul(prev_s, u)), one semantic a clock
//   IW, PUSHC   the new vertex into the pool and the output polygon; then cur if inside
//   PEND        fewer than 3 vertices: dropped; else the next plane or the output
//   ORD, OLD    reads final polygon vertex j; OLD starts rcp(w)
//   SC0-SC1     clip::to_screen: inv_w, then x, y, z interleaved
//   PLACE       fan slots: vertex 0 stays in slot 0, slots 1-2 shift (fan (p0, p(j-1), p(j)))
//   A0, A4      clip::signed_area and CullMode::keeps (skipped in mode 0)
//   OUT         the ScreenTri until out_ready_i
//
// Clocks (output always ready; rtl/README.md "pica_clip" has the sum): an unclipped triangle
// with the user plane and culling off takes 263 (164 with the one-clock datapath).
//
// Polygons are lists of pool indices (two banks of a small RAM, ping-pong per plane): a kept
// vertex costs no data movement, only an intersection writes a new pool entry. Bounds (any
// input, NaN and rounding included): a plane turns n vertices into at most 1.5 n (k inside
// vertices and at most 2 min(k, n - k) crossings), so 3 -> 4 -> 6 -> 9 -> 13 -> 19 -> 28 ->
// 42 -> 63 after the 8 planes (MaxPoly), and all planes create at most 120 new vertices
// (3 + 120 <= PoolDepth).
//
// Configuration: cfg_i holds pica_model::clip::CONFIG_REGS in that order, register k at
// [32*k +: 32]. It is read while a triangle is in flight: change it only while idle_o.
//
// `INJECT_CLIP_PLANE_ORDER`: the z <= 0 and z >= -w planes are tested in swapped order.
module pica_clip (
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

  // ---------------------------------------------------------------- sizes
  localparam int VW        = 576;              // one vertex: 24 semantics x 24 bits
  localparam int MaxPoly   = 63;               // longest polygon (see the header)
  localparam int PoolDepth = 128;              // 3 input vertices + at most 120 crossings
  localparam int PW        = $clog2(PoolDepth);
  localparam int NW        = 6;                // polygon lengths 0..63

  // ---------------------------------------------------------------- f24 constants
  localparam logic [23:0] F24One    = 24'h3F0000;
  localparam logic [23:0] F24NegOne = 24'hBF0000;
  localparam logic [23:0] SignBit   = 24'h800000;
  // UNVERIFIED(hw): the w >= epsilon guard plane, epsilon = 0x2E4F8B (9.99996e-6) — model
  // clip::W_EPSILON (Azahar sw_rasterizer.cpp; the model tests w >= eps, not Azahar's -eps).
  localparam logic [23:0] WEpsilon  = 24'h2E4F8B;

  // ---------------------------------------------------------------- helpers
  function automatic logic f24_is_nan(input logic [22:0] a);
    f24_is_nan = (a[22:16] == 7'h7F) && (a[15:0] != 16'h0);
  endfunction

  function automatic logic f24_is_zero(input logic [22:0] a);
    f24_is_zero = (a[22:0] == 23'h0);
  endfunction

  // `x.to_f64() >= 0.0`: clip::inside (either zero is inside; NaN is outside).
  function automatic logic f24_ge0(input logic [23:0] a);
    f24_ge0 = !f24_is_nan(a[22:0]) && (!a[23] || f24_is_zero(a[22:0]));
  endfunction

  // `x.to_f64() < 0.0` (align_quaternions, CullMode::CullCcw).
  function automatic logic f24_lt0(input logic [23:0] a);
    f24_lt0 = !f24_is_nan(a[22:0]) && a[23] && !f24_is_zero(a[22:0]);
  endfunction

  // `x.to_f64() > 0.0` (CullMode::CullCw).
  function automatic logic f24_gt0(input logic [23:0] a);
    f24_gt0 = !f24_is_nan(a[22:0]) && !a[23] && !f24_is_zero(a[22:0]);
  endfunction

  // ---------------------------------------------------------------- configuration
  logic [1:0]  c_cull;
  logic        c_user_en;
  logic [23:0] c_uc0, c_uc1, c_uc2, c_uc3, c_half_w, c_half_h, c_dscale, c_doff, c_off_x, c_off_y;

  pica_clip_cfg u_cfg (
    .cfg_i,
    .cull_o    (c_cull),
    .user_en_o (c_user_en),
    .uc_o      ({c_uc3, c_uc2, c_uc1, c_uc0}),
    .half_w_o  (c_half_w),
    .half_h_o  (c_half_h),
    .dscale_o  (c_dscale),
    .doff_o    (c_doff),
    .off_x_o   (c_off_x),
    .off_y_o   (c_off_y)
  );

  // CullMode::from_regs. UNVERIFIED(hw): the reserved mode 3 culls like mode 2 (BackCcw) —
  // model CullMode::from_regs (Azahar ProcessTriangle: every mode but 0 and 1 keeps CCW).
  localparam logic [1:0] CullNone = pica_regs_pkg::FACECULLING_CONFIG_MODE_NONE;
  localparam logic [1:0] CullCcw  = pica_regs_pkg::FACECULLING_CONFIG_MODE_FRONT_CCW;

  // ---------------------------------------------------------------- planes
  // clip::Plane in the model's order (Plane::FIXED, then the user plane).
  localparam logic [2:0] PXPos  = 3'd0;   // x <= w:  add(w, -x)
  localparam logic [2:0] PXNeg  = 3'd1;   // x >= -w: add(w, x)
  localparam logic [2:0] PYPos  = 3'd2;   // y <= w:  add(w, -y)
  localparam logic [2:0] PYNeg  = 3'd3;   // y >= -w: add(w, y)
  localparam logic [2:0] PZZero = 3'd4;   // z <= 0:  mul(z, -1)
  localparam logic [2:0] PZNegW = 3'd5;   // z >= -w: add(w, z)
  localparam logic [2:0] PWMin  = 3'd6;   // w >= eps: add(w, -eps)
  localparam logic [2:0] PUser  = 3'd7;   // dot([x, y, z, w], [c0, c1, c2, c3])

  // ---------------------------------------------------------------- state
  typedef enum logic [5:0] {
    SIdle, SQd0, SQd1, SQd2, SQf0, SQf1, SWr,
    SPlane, SRd, SLd, SD0, SD1, SD2, SDec, ST0, ST1, ST2, SInt, SIw, SPushC, SPend,
    SORd, SOLd, SSc0, SSc1, SPlace, SA0, SA4, SOut
  } state_e;

  state_e            state_q;
  logic [31:0]       seq_q;
  logic [3*VW-1:0]   in_q;          // the input triangle, quaternions aligned in place
  logic [1:0]        k_q;           // QD/QF: vertex 1 or 2; WR: vertex 0-2
  // Polygons: bank src_q is the plane's input (n_src_q entries), the other its output;
  // bank b's entry j at list_q[{b, j}] (a small RAM: one write, one asynchronous read).
  logic [PW-1:0]     list_q [2 * 64];
  logic              src_q;
  logic [NW-1:0]     n_src_q, n_dst_q, i_q;
  logic [PW-1:0]     pool_n_q;      // next free pool entry
  logic [2:0]        plane_q;       // position in the plane order
  logic              first_q;       // the walk's first step: the last vertex -> prev
  logic [VW-1:0]     cur_q, prev_q, nv_q;
  logic [PW-1:0]     cur_idx_q;
  logic [PW-1:0]     nxt_idx_q;     // the pool index of the vertex read ahead (pool_rdata)
  logic [23:0]       d_q, dprev_q, acc_q, t_q, u_q;
  logic [4:0]        s_q;           // INT: semantic
  // Output: the staged vertex's window coordinates and the three fan slots.
  logic [23:0]       sx_q, sy_q, sz_q, siw_q;
  // Fan slot k (vertex k of the ScreenTri) at [VW*k +: VW] / [24*k +: 24].
  logic [3*VW-1:0]   slot_v_q;
  logic [71:0]       slot_x_q, slot_y_q, slot_z_q, slot_iw_q;
  logic [23:0]       ea_q, eb_q, ec_q, ed_q;   // signed_area's four differences
  // Clocks spent in the current state: a state that uses the datapath keeps its operands
  // while the pipeline works and acts in the clock its result arrives (w_q == lat).
  logic [3:0]        w_q;

  // ---------------------------------------------------------------- plane order
  logic [2:0] plane_kind;
`ifdef INJECT_CLIP_PLANE_ORDER
  // Injected bug: z >= -w is tested before z <= 0.
  always_comb begin
    if (plane_q == PZZero)      plane_kind = PZNegW;
    else if (plane_q == PZNegW) plane_kind = PZZero;
    else                        plane_kind = plane_q;
  end
`else
  assign plane_kind = plane_q;
`endif

  logic last_plane;
  assign last_plane = (plane_q == PUser) || (plane_q == PWMin && !c_user_en);

  // ---------------------------------------------------------------- polygon lists
  logic [NW-1:0] rd_pos;
  logic [PW-1:0] rd_idx;

  // RD: the walk starts with the last vertex; D0 reads the walk's next vertex ahead (the
  // first after the last, else the one after i_q; after the walk's end an unused entry);
  // ORD reads final vertex i_q.
  always_comb begin
    if (state_q == SRd)      rd_pos = n_src_q - NW'(1);
    else if (state_q == SD0) rd_pos = first_q ? NW'(0) : i_q + NW'(1);
    else                     rd_pos = i_q;
  end
  assign rd_idx   = list_q[{src_q, rd_pos}];

  // ---------------------------------------------------------------- vertex pool
  logic          pool_we, pool_re;
  logic [PW-1:0] pool_waddr;
  logic [VW-1:0] pool_wdata, pool_rdata;

  always_comb begin
    pool_we    = 1'b0;
    pool_waddr = pool_n_q;
    pool_wdata = nv_q;
    if (state_q == SWr) begin
      pool_we    = 1'b1;
      pool_waddr = PW'(k_q);
      pool_wdata = in_q[VW*k_q +: VW];
    end else if (state_q == SIw) begin
      pool_we    = 1'b1;
    end
  end
  assign pool_re = (state_q == SRd) || (state_q == SORd) || (state_q == SD0 && w_q == 4'd0);

  pica_ram #(.Width(VW), .Depth(PoolDepth)) u_pool (
    .clk_i   (clk_i),
    .we_i    (pool_we),
    .waddr_i (pool_waddr),
    .wdata_i (pool_wdata),
    .re_i    (pool_re),
    .raddr_i (rd_idx),
    .rdata_o (pool_rdata)
  );

  // ---------------------------------------------------------------- f24 datapath
  // Vertex fields used below.
  logic [23:0] cx, cy, cz, cw;      // cur_q's position
  logic [23:0] lx, ly, lz, lw;      // the adder's: LD's pool output, else cur_q's
  logic [23:0] q0x, q0y, q0z, q0w;  // vertex 0's quaternion
  logic [23:0] qkx, qky, qkz, qkw;  // vertex k_q's quaternion (k = 1, 2)
  assign {cw, cz, cy, cx} = cur_q[95:0];
  // LD issues a fixed plane's distance add from the pool's output, which cur_q takes in the
  // same clock. Not the multipliers: the block RAM's 5.8 ns clock-to-out before their operand
  // muxes and the MULT18X18D was the worst path on the ECP5 (48.5 MHz).
  assign {lw, lz, ly, lx} = (state_q == SLd) ? pool_rdata[95:0] : cur_q[95:0];
  assign {q0w, q0z, q0y, q0x} = in_q[24*4 +: 96];
  assign {qkw, qkz, qky, qkx} = (k_q == 2'd2) ? in_q[VW*2 + 24*4 +: 96] : in_q[VW + 24*4 +: 96];

  // A pipeline that never stalls (every register loads every clock):
  //   clock c    the multipliers' operands (m*_a, m*_b), the significand products into the
  //              multipliers' registers (pica_f24_mul_p, Reg = 1);
  //   clock c+1  the products (m*_y) and the adder's operands (ad_a, ad_b: a product, its
  //              negation or any other value) into aa_q / bb_q;
  //   c+2, c+3   pica_f24_add_p's alignment and add steps (RegA, RegB);
  //   then       the sum (ad_y), and a clock later its copy y_q.
  // So a product is on m*_y 1 clock after its operands, a sum on ad_y 3 clocks after its
  // operands and `add(mul(a, b), c)` 4 clocks after a and b (LatMul, LatAdd, LatMulAdd); the
  // reciprocal (pica_f24_rcp_mc, restoring division, 2 quotient bits a clock) LatRcp clocks
  // after its start. LD and OLD start a fixed plane's distance add (D0) and SC0's reciprocal
  // one clock early, from the pool's output. Combinational mul -> add -> result in one clock
  // and the unrolled divider placed the clipper at an estimated 12.0 MHz on the ECP5 (issue
  // 36); this pipeline routes at 65.1 MHz (docs/src/rtl.md, the FPGA table).
  localparam int RcpSteps  = 2;
  localparam int LatMul    = 1;
  localparam int LatAdd    = 3;
  localparam int LatMulAdd = 4;
  localparam int LatRcp    = 16 / RcpSteps + 1;

  logic [23:0] m0_a, m0_b, m0_y, m1_a, m1_b, m1_y, ad_a, ad_b, ad_y, rc_a, rc_y;
  logic [23:0] aa_q, bb_q, y_q;
  logic        rc_start;

  pica_f24_mul_p #(.Reg(1'b1)) u_mul0 (.clk_i, .en_i(1'b1), .a_i(m0_a), .b_i(m0_b), .y_o(m0_y));
  pica_f24_mul_p #(.Reg(1'b1)) u_mul1 (.clk_i, .en_i(1'b1), .a_i(m1_a), .b_i(m1_b), .y_o(m1_y));
  pica_f24_add_p #(.RegA(1'b1), .RegB(1'b1)) u_add (
    .clk_i, .en_i(1'b1), .a_i(aa_q), .b_i(bb_q), .y_o(ad_y)
  );
  pica_f24_rcp_mc #(.Steps(RcpSteps)) u_rcp (
    .clk_i, .rst_ni, .start_i(rc_start), .a_i(rc_a), .y_o(rc_y)
  );

  always_ff @(posedge clk_i) begin
    aa_q <= ad_a;
    bb_q <= ad_b;
    y_q  <= ad_y;
  end

  // The clock of the current state in which its result is there (0: no datapath result).
  logic [3:0] lat;
  always_comb begin
    unique case (state_q)
      SQd0, SQd1, SD1, SD2, ST2: lat = 4'(LatMulAdd);
      SQd2, SA4:   lat = 4'(LatMulAdd + 1);              // decides on y_q
      SQf0, SQf1:  lat = 4'(LatMul);
      SD0: begin
        if (plane_kind == PUser)        lat = 4'(LatMulAdd);
        else if (plane_kind == PZZero)  lat = 4'(LatMul);
        else                            lat = 4'(LatAdd - 1);   // started in LD
      end
      ST0:         lat = 4'(LatAdd);
      ST1:         lat = 4'(LatRcp);
      SSc0:        lat = 4'(LatRcp - 1);                 // started in OLD
      SSc1:        lat = 4'(10);                         // the to_screen schedule below
      SA0:         lat = 4'(LatAdd + 3);                 // four differences, one a clock
      default:     lat = 4'd0;
    endcase
  end
  logic fire;
  assign fire = (w_q == lat);

  // Multiplier operands. Most states hold them until their result is there; SInt, SSc1 and
  // SA0 stream (one operation a clock, each result taken when it arrives).
  always_comb begin
    m0_a = 24'h0;
    m0_b = 24'h0;
    m1_a = 24'h0;
    m1_b = 24'h0;
    unique case (state_q)
      SQd0: begin m0_a = qkx; m0_b = q0x; m1_a = qky; m1_b = q0y; end
      SQd1: begin m0_a = qkz; m0_b = q0z; end
      SQd2: begin m0_a = qkw; m0_b = q0w; end
      SQf0: begin m0_a = qkx; m0_b = F24NegOne; m1_a = qky; m1_b = F24NegOne; end
      SQf1: begin m0_a = qkz; m0_b = F24NegOne; m1_a = qkw; m1_b = F24NegOne; end
      SD0: begin
        if (plane_kind == PUser) begin
          m0_a = cx; m0_b = c_uc0; m1_a = cy; m1_b = c_uc1;
        end else begin
          m0_a = cz; m0_b = F24NegOne;                 // ZZero: mul(z, -1)
        end
      end
      SD1:  begin m0_a = cz; m0_b = c_uc2; end
      SD2:  begin m0_a = cw; m0_b = c_uc3; end
      ST2:  begin m0_a = dprev_q; m0_b = acc_q; end      // t = mul(d_prev, rcp(..))
      SInt: begin m0_a = cur_q[23:0]; m0_b = t_q; m1_a = prev_q[23:0]; m1_b = u_q; end
      // clip::to_screen, three chains interleaved (the products' clocks; sums 4 later):
      //   0: x * inv_w, z * inv_w   1: y * inv_w   2: sz * scale   5: sx * half_w
      //   6: sy * half_h
      SSc1: begin
        unique case (w_q)
          4'd0: begin m0_a = cx; m0_b = siw_q; m1_a = cz; m1_b = siw_q; end
          4'd1: begin m0_a = cy; m0_b = siw_q; end
          4'd2: begin m0_a = sz_q; m0_b = c_dscale; end
          4'd5: begin m0_a = sx_q; m0_b = c_half_w; end
          4'd6: begin m0_a = sy_q; m0_b = c_half_h; end
          default: ;
        endcase
      end
      SA4:  begin m0_a = ea_q; m0_b = eb_q; m1_a = ec_q; m1_b = ed_q; end
      default: ;
    endcase
  end

  // Adder operands: a product (of the multipliers' operands one clock earlier) or a value.
  always_comb begin
    ad_a = 24'h0;
    ad_b = 24'h0;
    unique case (state_q)
      SQd0: begin ad_a = m0_y; ad_b = m1_y; end
      SQd1, SQd2, SD1, SD2: begin ad_a = acc_q; ad_b = m0_y; end
      SLd, SD0: begin
        unique case (plane_kind)
          PXPos:   begin ad_a = lw; ad_b = lx ^ SignBit; end
          PXNeg:   begin ad_a = lw; ad_b = lx; end
          PYPos:   begin ad_a = lw; ad_b = ly ^ SignBit; end
          PYNeg:   begin ad_a = lw; ad_b = ly; end
          PZNegW:  begin ad_a = lw; ad_b = lz; end
          PWMin:   begin ad_a = lw; ad_b = WEpsilon ^ SignBit; end
          PUser:   begin ad_a = m0_y; ad_b = m1_y; end
          default: ;                                    // ZZero: the product alone
        endcase
      end
      ST0:  begin ad_a = dprev_q; ad_b = d_q ^ SignBit; end   // add(d_prev, -d)
      ST2:  begin ad_a = F24One; ad_b = m0_y ^ SignBit; end   // u = add(1, -t)
      SInt: begin ad_a = m0_y; ad_b = m1_y; end
      SSc1: begin
        unique case (w_q)
          4'd1, 4'd2: begin ad_a = m0_y; ad_b = F24One; end   // add(mul(x | y, inv_w), 1)
          4'd3:       begin ad_a = m0_y; ad_b = c_doff; end   // add(mul(., scale), offset)
          4'd6:       begin ad_a = m0_y; ad_b = c_off_x; end  // add(mul(., half_w), x offset)
          4'd7:       begin ad_a = m0_y; ad_b = c_off_y; end
          default: ;
        endcase
      end
      // clip::signed_area's differences, one a clock (ea_q-ed_q 3 clocks later).
      SA0: begin
        unique case (w_q)
          4'd0: begin ad_a = slot_x_q[24 +: 24]; ad_b = slot_x_q[0 +: 24] ^ SignBit; end
          4'd1: begin ad_a = slot_y_q[48 +: 24]; ad_b = slot_y_q[0 +: 24] ^ SignBit; end
          4'd2: begin ad_a = slot_x_q[48 +: 24]; ad_b = slot_x_q[0 +: 24] ^ SignBit; end
          4'd3: begin ad_a = slot_y_q[24 +: 24]; ad_b = slot_y_q[0 +: 24] ^ SignBit; end
          default: ;
        endcase
      end
      SA4:  begin ad_a = m0_y; ad_b = m1_y ^ SignBit; end
      default: ;
    endcase
  end

  assign rc_a     = (state_q == SOLd) ? pool_rdata[72 +: 24] : acc_q;   // OLD: w
  assign rc_start = (state_q == SOLd) || (state_q == ST1 && w_q == 4'd0);

  // The distance D0 computes for a fixed plane.
  logic [23:0] d_fixed;
  assign d_fixed = (plane_kind == PZZero) ? m0_y : ad_y;

  // ---------------------------------------------------------------- decisions
  logic in_cur, in_prev, keep;
  assign in_cur  = f24_ge0(d_q);
  assign in_prev = f24_ge0(dprev_q);

  // CullMode::keeps on the signed area (SA4, on y_q).
  always_comb begin
    if (c_cull == CullNone)     keep = 1'b1;
    else if (c_cull == CullCcw) keep = f24_lt0(y_q);
    else                        keep = f24_gt0(y_q);
  end

  // Pushes onto the output polygon.
  logic          push;
  logic [PW-1:0] push_idx;
  always_comb begin
    push     = 1'b0;
    push_idx = cur_idx_q;
    if (state_q == SDec && !first_q && in_cur && in_prev) push = 1'b1;
    if (state_q == SPushC) push = 1'b1;
    if (state_q == SIw) begin
      push     = 1'b1;
      push_idx = pool_n_q;
    end
  end

  // After a vertex: it becomes prev, the walk advances.
  logic          walk_last;
  assign walk_last = (i_q + NW'(1) == n_src_q);

  // ---------------------------------------------------------------- sequential
  // The polygon lists (no reset: an entry is written before it is read). WR writes the input
  // polygon [0, 1, 2] into bank 0, one entry a clock; nothing is pushed then.
  always_ff @(posedge clk_i) begin
    if (state_q == SWr)  list_q[{1'b0, NW'(k_q)}] <= PW'(k_q);
    else if (push)       list_q[{~src_q, n_dst_q}] <= push_idx;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= SIdle;
      w_q       <= '0;
      seq_q     <= '0;
      in_q      <= '0;
      k_q       <= '0;
      src_q     <= 1'b0;
      n_src_q   <= '0;
      n_dst_q   <= '0;
      i_q       <= '0;
      pool_n_q  <= '0;
      plane_q   <= '0;
      first_q   <= 1'b0;
      cur_q     <= '0;
      prev_q    <= '0;
      nv_q      <= '0;
      cur_idx_q <= '0;
      nxt_idx_q <= '0;
      d_q       <= '0;
      dprev_q   <= '0;
      acc_q     <= '0;
      t_q       <= '0;
      u_q       <= '0;
      s_q       <= '0;
      sx_q      <= '0;
      sy_q      <= '0;
      sz_q      <= '0;
      siw_q     <= '0;
      ea_q      <= '0;
      eb_q      <= '0;
      ec_q      <= '0;
      ed_q      <= '0;
      slot_v_q  <= '0;
      slot_x_q  <= '0;
      slot_y_q  <= '0;
      slot_z_q  <= '0;
      slot_iw_q <= '0;
    end else begin
      if (push) n_dst_q <= n_dst_q + NW'(1);

      // D0's first clock reads the walk's next vertex ahead (LD takes it).
      if (state_q == SD0 && w_q == 4'd0) nxt_idx_q <= rd_idx;

      // Streamed results (SSc1, SA0), taken when they arrive (see the datapath).
      if (state_q == SSc1) begin
        unique case (w_q)
          4'd1:  sz_q <= m1_y;                          // mul(z, inv_w)
          4'd4:  sx_q <= ad_y;                          // add(mul(x, inv_w), 1)
          4'd5:  sy_q <= ad_y;                          // add(mul(y, inv_w), 1)
          4'd6:  sz_q <= ad_y;                          // add(mul(., scale), offset)
          4'd9:  sx_q <= ad_y;                          // add(mul(., half_w), x offset)
          4'd10: sy_q <= ad_y;                          // add(mul(., half_h), y offset)
          default: ;
        endcase
      end
      if (state_q == SA0) begin
        unique case (w_q)
          4'd3: ea_q <= ad_y;
          4'd4: eb_q <= ad_y;
          4'd5: ec_q <= ad_y;
          4'd6: ed_q <= ad_y;
          default: ;
        endcase
      end

      if (!fire) begin
        w_q <= w_q + 4'd1;
      end else begin
        w_q <= '0;
        unique case (state_q)
          SIdle: begin
            if (in_valid_i) begin
              seq_q   <= in_seq_i;
              in_q    <= in_v_i;
              k_q     <= 2'd1;
              state_q <= SQd0;
            end
          end

          // ---- clip::align_quaternions
          SQd0, SQd1: begin
            acc_q   <= ad_y;
            state_q <= (state_q == SQd0) ? SQd1 : SQd2;
          end
          SQd2: begin
            if (f24_lt0(y_q)) begin
              state_q <= SQf0;
            end else if (k_q == 2'd1) begin
              k_q     <= 2'd2;
              state_q <= SQd0;
            end else begin
              k_q     <= 2'd0;
              state_q <= SWr;
            end
          end
          SQf0, SQf1: begin
            if (k_q == 2'd1) begin
              if (state_q == SQf0) in_q[VW + 24*4 +: 48] <= {m1_y, m0_y};
              else                 in_q[VW + 24*6 +: 48] <= {m1_y, m0_y};
            end else begin
              if (state_q == SQf0) in_q[2*VW + 24*4 +: 48] <= {m1_y, m0_y};
              else                 in_q[2*VW + 24*6 +: 48] <= {m1_y, m0_y};
            end
            if (state_q == SQf0) begin
              state_q <= SQf1;
            end else if (k_q == 2'd1) begin
              k_q     <= 2'd2;
              state_q <= SQd0;
            end else begin
              k_q     <= 2'd0;
              state_q <= SWr;
            end
          end

          // ---- the input polygon [0, 1, 2] (pool entries 0-2)
          SWr: begin
            k_q <= k_q + 2'd1;
            if (k_q == 2'd2) begin
              src_q    <= 1'b0;
              n_src_q  <= NW'(3);
              pool_n_q <= PW'(3);
              plane_q  <= PXPos;
              state_q  <= SPlane;
            end
          end

          // ---- clip::clip_polygon, one plane
          SPlane: begin
            first_q <= 1'b1;
            i_q     <= '0;
            n_dst_q <= '0;
            state_q <= SRd;
          end
          SRd: begin
            nxt_idx_q <= rd_idx;
            state_q   <= SLd;
          end
          SLd: begin
            cur_q     <= pool_rdata;
            cur_idx_q <= nxt_idx_q;
            state_q   <= SD0;
          end
          SD0: begin
            if (plane_kind == PUser) begin
              acc_q   <= ad_y;
              state_q <= SD1;
            end else begin
              d_q     <= d_fixed;
              state_q <= SDec;
            end
          end
          SD1: begin
            acc_q   <= ad_y;
            state_q <= SD2;
          end
          SD2: begin
            d_q     <= ad_y;
            state_q <= SDec;
          end
          SDec: begin
            if (first_q) begin
              // The walk starts with the edge from the last vertex to the first.
              first_q <= 1'b0;
              prev_q  <= cur_q;
              dprev_q <= d_q;
              state_q <= SLd;
            end else if (in_cur != in_prev) begin
              state_q <= ST0;
            end else begin
              prev_q  <= cur_q;
              dprev_q <= d_q;
              i_q     <= i_q + NW'(1);
              state_q <= walk_last ? SPend : SLd;
            end
          end

          // ---- clip::intersect
          ST0: begin
            acc_q   <= ad_y;
            state_q <= ST1;
          end
          ST1: begin
            acc_q   <= rc_y;
            state_q <= ST2;
          end
          ST2: begin
            t_q     <= m0_y;
            u_q     <= ad_y;
            s_q     <= '0;
            state_q <= SInt;
          end
          SInt: begin
            // Semantic s_q enters the datapath in clock s_q (cur_q and prev_q rotate by one
            // semantic, whole again after 24) and its sum leaves LatMulAdd clocks later.
            if (s_q < 5'd24) begin
              cur_q  <= {cur_q[23:0], cur_q[VW-1:24]};
              prev_q <= {prev_q[23:0], prev_q[VW-1:24]};
            end
            if (s_q >= 5'(LatMulAdd)) nv_q <= {ad_y, nv_q[VW-1:24]};
            s_q <= s_q + 5'd1;
            if (s_q == 5'(23 + LatMulAdd)) state_q <= SIw;
          end
          SIw: begin
            pool_n_q <= pool_n_q + PW'(1);
            if (in_cur) begin
              state_q <= SPushC;
            end else begin
              prev_q  <= cur_q;
              dprev_q <= d_q;
              i_q     <= i_q + NW'(1);
              state_q <= walk_last ? SPend : SLd;
            end
          end
          SPushC: begin
            prev_q  <= cur_q;
            dprev_q <= d_q;
            i_q     <= i_q + NW'(1);
            state_q <= walk_last ? SPend : SLd;
          end
          SPend: begin
            if (n_dst_q < NW'(3)) begin
              state_q <= SIdle;                           // nothing left: no ScreenTri
            end else begin
              src_q   <= ~src_q;
              n_src_q <= n_dst_q;
              if (last_plane) begin
                i_q     <= '0;
                state_q <= SORd;
              end else begin
                plane_q <= plane_q + 3'd1;
                state_q <= SPlane;
              end
            end
          end

          // ---- clip::to_screen of final vertex i_q
          SORd: state_q <= SOLd;
          SOLd: begin
            cur_q   <= pool_rdata;
            state_q <= SSc0;
          end
          SSc0: begin
            siw_q   <= rc_y;                              // inv_w = rcp(w)
            state_q <= SSc1;
          end
          SSc1: state_q <= SPlace;                        // x, y, z taken above

          // ---- the fan (p0, p(i-1), p(i)) and culling
          SPlace: begin
            if (i_q == '0) begin
              slot_v_q[0 +: VW]  <= cur_q;
              slot_x_q[0 +: 24]  <= sx_q;
              slot_y_q[0 +: 24]  <= sy_q;
              slot_z_q[0 +: 24]  <= sz_q;
              slot_iw_q[0 +: 24] <= siw_q;
            end else begin
              slot_v_q[VW +: 2*VW] <= {cur_q, slot_v_q[2*VW +: VW]};
              slot_x_q[24 +: 48]   <= {sx_q, slot_x_q[48 +: 24]};
              slot_y_q[24 +: 48]   <= {sy_q, slot_y_q[48 +: 24]};
              slot_z_q[24 +: 48]   <= {sz_q, slot_z_q[48 +: 24]};
              slot_iw_q[24 +: 48]  <= {siw_q, slot_iw_q[48 +: 24]};
            end
            if (i_q >= NW'(2)) begin
              state_q <= (c_cull == CullNone) ? SOut : SA0;
            end else begin
              i_q     <= i_q + NW'(1);
              state_q <= SORd;
            end
          end
          SA0: state_q <= SA4;                            // ea_q-ed_q taken above
          SA4: begin
            if (keep) begin
              state_q <= SOut;
            end else begin
              i_q     <= i_q + NW'(1);
              state_q <= walk_last ? SIdle : SORd;
            end
          end
          SOut: begin
            if (out_ready_i) begin
              i_q     <= i_q + NW'(1);
              state_q <= walk_last ? SIdle : SORd;
            end
          end

          default: state_q <= SIdle;
        endcase
      end
    end
  end

  // ---------------------------------------------------------------- outputs
  assign in_ready_o  = (state_q == SIdle);
  assign idle_o      = (state_q == SIdle);
  assign out_valid_o = (state_q == SOut);
  assign out_seq_o   = seq_q;
  assign out_x_o     = slot_x_q;
  assign out_y_o     = slot_y_q;
  assign out_z_o     = slot_z_q;
  assign out_inv_w_o = slot_iw_q;
  assign out_v_o     = slot_v_q;

`ifndef SYNTHESIS
  // The bounds of the header hold for every input; the configuration is stable while busy.
  logic [351:0] cfg_seen_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_seen_q <= '0;
    end else begin
      cfg_seen_q <= cfg_i;
      if (push && n_dst_q == NW'(MaxPoly))
        $error("pica_clip: polygon longer than %0d vertices", MaxPoly);
      if (state_q == SIw && pool_n_q == PW'(PoolDepth - 1))
        $error("pica_clip: vertex pool overflow");
      if (state_q != SIdle && cfg_i != cfg_seen_q)
        $error("pica_clip: configuration changed while a triangle is in flight");
    end
  end
`endif

endmodule : pica_clip
