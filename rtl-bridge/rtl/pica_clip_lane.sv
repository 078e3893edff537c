// pica_clip_lane: one vertex of pica_clip_pipe's fast path for triangles no plane clips. Three
// lanes run the same static schedule side by side, one per vertex, from the triangle's first
// clock (c_i = 0) to c_i = LastC, and then hold their results while c_i stays at LastC + 1:
//   - the inside tests of the fixed planes (clip::Plane::distance and clip::inside), and of the
//     user plane;
//   - dot(q, q0) < 0 (clip::align_quaternions; vertex 0's lane computes dot(q0, q0), unused);
//   - clip::to_screen: inv_w = rcp(w), the window x, y and z.
// Every value is computed with exactly the model's f24 operations in the model's order and
// operand order (the precision table in model/src/clip.rs; pica_clip does the same, one
// operation at a time, for triangles that a plane clips).
//
// Units: two pica_f24_mul_p (a product 1 clock after its operands), one pica_f24_add_p behind
// operand registers (a sum 3 clocks after its operands), one pica_f24_rcp_mc (the reciprocal
// 9 clocks after its start, held until the next start). mul(v, -1) (the z <= 0 distance and the
// quaternion flip) needs no multiplier: pica_f24_mul flushes a zero exponent to +0, turns a NaN
// into the canonical NaN and otherwise flips the sign exactly (the significand times 1.0).
//
// The schedule (c: operands presented; a multiplier's operands always come from registers, never
// straight from the adder, a multiplier or the reciprocal: the first version chained the
// adder's last step into a multiplier and placed at 50.9 MHz on the LFE5U-85F, with that path
// the worst):
//   c   mul 0           mul 1          add                        takes
//   0   qx*q0x          qy*q0y         w + -x   (x <= w)          rcp(w) starts
//   1   x*c0            y*c1           qx*q0x + qy*q0y
//   2   qz*q0z          z*c2           x*c0 + y*c1
//   3   qw*q0w          w*c3           w + x    (x >= -w)         qz*q0z, z*c2; x <= w
//   4                                  . + qz*q0z                 qw*q0w, w*c3
//   5                                  . + z*c2
//   6                                  w + -y   (y <= w)          x >= -w
//   7                                  . + qw*q0w  (the dot)
//   8                                  . + w*c3    (the user distance)
//   9                                  w + y    (y >= -w)         inv_w; y <= w
//   10  x*inv_w         y*inv_w        w + z    (z >= -w)         dot < 0
//   11  z*inv_w                        x*inv_w + 1                y*inv_w; user inside
//   12                                 y*inv_w + 1                z*inv_w; y >= -w
//   13  .*scale                        w + -eps (w >= eps)        z >= -w
//   14                                 . + offset (z)             x*inv_w + 1
//   15  .*half_w                                                  y*inv_w + 1
//   16  .*half_h                       . + x offset               w >= eps
//   17                                 . + y offset               z
//   19                                                            x
//   20                                                            y
module pica_clip_lane #(
  parameter int LastC = 20              // the schedule's last clock (results held after it)
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  input  logic [4:0]  c_i,              // the schedule's clock; LastC + 1 when there is none
  input  logic [95:0] pos_i,            // x, y, z, w at [24*j +: 24] (semantics 0-3)
  input  logic [95:0] q_i,              // this vertex's quaternion (semantics 4-7)
  input  logic [95:0] q0_i,             // vertex 0's quaternion
  input  logic [95:0] uc_i,             // the user plane's c0-c3
  input  logic [23:0] half_w_i,
  input  logic [23:0] half_h_i,
  input  logic [23:0] dscale_i,
  input  logic [23:0] doff_i,
  input  logic [23:0] off_x_i,
  input  logic [23:0] off_y_i,

  // Valid while c_i == LastC + 1.
  output logic        inside_o,         // inside all seven fixed planes
  output logic        user_in_o,        // inside the user plane
  output logic        flip_o,           // dot(q, q0) < 0
  output logic [23:0] sx_o,
  output logic [23:0] sy_o,
  output logic [23:0] sz_o,
  output logic [23:0] iw_o
);

  localparam logic [23:0] F24One   = 24'h3F0000;
  localparam logic [23:0] SignBit  = 24'h800000;
  // UNVERIFIED(hw): the w >= epsilon guard plane, epsilon = 0x2E4F8B (9.99996e-6) — model
  // clip::W_EPSILON (Azahar sw_rasterizer.cpp), as in pica_clip.
  localparam logic [23:0] WEpsilon = 24'h2E4F8B;

  // `x.to_f64() >= 0.0` (clip::inside: either zero is inside, NaN outside) and `< 0.0`.
  function automatic logic ge0(input logic [23:0] a);
    ge0 = !((a[22:16] == 7'h7F) && (a[15:0] != 16'h0)) && (!a[23] || a[22:0] == 23'h0);
  endfunction
  function automatic logic lt0(input logic [23:0] a);
    lt0 = !((a[22:16] == 7'h7F) && (a[15:0] != 16'h0)) && a[23] && a[22:0] != 23'h0;
  endfunction

  logic [23:0] x, y, z, w, qx, qy, qz, qw, q0x, q0y, q0z, q0w;
  assign {w, z, y, x}         = pos_i;
  assign {qw, qz, qy, qx}     = q_i;
  assign {q0w, q0z, q0y, q0x} = q0_i;

  // ---------------------------------------------------------------- units
  logic [23:0] m0_a, m0_b, m0_y, m1_a, m1_b, m1_y, ad_a, ad_b, ad_y, rc_y;
  logic [23:0] aa_q, bb_q;

  pica_f24_mul_p #(.Reg(1'b1)) u_mul0 (.clk_i, .en_i(1'b1), .a_i(m0_a), .b_i(m0_b), .y_o(m0_y));
  pica_f24_mul_p #(.Reg(1'b1)) u_mul1 (.clk_i, .en_i(1'b1), .a_i(m1_a), .b_i(m1_b), .y_o(m1_y));
  pica_f24_add_p #(.RegA(1'b1), .RegB(1'b1)) u_add (
    .clk_i, .en_i(1'b1), .a_i(aa_q), .b_i(bb_q), .y_o(ad_y)
  );
  pica_f24_rcp_mc #(.Steps(2)) u_rcp (
    .clk_i, .rst_ni, .start_i(c_i == 5'd0), .a_i(w), .y_o(rc_y)
  );

  always_ff @(posedge clk_i) begin
    aa_q <= ad_a;
    bb_q <= ad_b;
  end

  // ---------------------------------------------------------------- the schedule
  logic [23:0] p3_q, u3_q, p4_q, u4_q, r_q, s2_q, s3_q, x1_q, y1_q, sx_q, sy_q, sz_q;
  logic [5:0]  fl_q;                    // x <= w, x >= -w, y <= w, y >= -w, z >= -w, w >= eps
  logic        neg_q, ue_q;

  always_comb begin
    m0_a = 24'h0;
    m0_b = 24'h0;
    m1_a = 24'h0;
    m1_b = 24'h0;
    ad_a = 24'h0;
    ad_b = 24'h0;
    unique case (c_i)
      5'd0:  begin m0_a = qx; m0_b = q0x; m1_a = qy; m1_b = q0y; ad_a = w; ad_b = x ^ SignBit; end
      5'd1:  begin m0_a = x; m0_b = uc_i[0 +: 24]; m1_a = y; m1_b = uc_i[24 +: 24];
                   ad_a = m0_y; ad_b = m1_y; end
      5'd2:  begin m0_a = qz; m0_b = q0z; m1_a = z; m1_b = uc_i[48 +: 24];
                   ad_a = m0_y; ad_b = m1_y; end
      5'd3:  begin m0_a = qw; m0_b = q0w; m1_a = w; m1_b = uc_i[72 +: 24]; ad_a = w; ad_b = x; end
      5'd4:  begin ad_a = ad_y; ad_b = p3_q; end
      5'd5:  begin ad_a = ad_y; ad_b = u3_q; end
      5'd6:  begin ad_a = w; ad_b = y ^ SignBit; end
      5'd7:  begin ad_a = ad_y; ad_b = p4_q; end
      5'd8:  begin ad_a = ad_y; ad_b = u4_q; end
      5'd9:  begin ad_a = w; ad_b = y; end
      5'd10: begin m0_a = x; m0_b = r_q; m1_a = y; m1_b = r_q; ad_a = w; ad_b = z; end
      5'd11: begin m0_a = z; m0_b = r_q; ad_a = m0_y; ad_b = F24One; end
      5'd12: begin ad_a = s2_q; ad_b = F24One; end
      5'd13: begin m0_a = s3_q; m0_b = dscale_i; ad_a = w; ad_b = WEpsilon ^ SignBit; end
      5'd14: begin ad_a = m0_y; ad_b = doff_i; end
      5'd15: begin m0_a = x1_q; m0_b = half_w_i; end
      5'd16: begin m0_a = y1_q; m0_b = half_h_i; ad_a = m0_y; ad_b = off_x_i; end
      5'd17: begin ad_a = m0_y; ad_b = off_y_i; end
      default: ;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p3_q  <= '0;
      u3_q  <= '0;
      p4_q  <= '0;
      u4_q  <= '0;
      r_q   <= '0;
      s2_q  <= '0;
      s3_q  <= '0;
      x1_q  <= '0;
      y1_q  <= '0;
      sx_q  <= '0;
      sy_q  <= '0;
      sz_q  <= '0;
      fl_q  <= '0;
      neg_q <= 1'b0;
      ue_q  <= 1'b0;
    end else begin
      unique case (c_i)
        5'd3:  begin p3_q <= m0_y; u3_q <= m1_y; fl_q[0] <= ge0(ad_y); end
        5'd4:  begin p4_q <= m0_y; u4_q <= m1_y; end
        5'd6:  fl_q[1] <= ge0(ad_y);
        5'd9:  begin r_q <= rc_y; fl_q[2] <= ge0(ad_y); end
        5'd10: neg_q <= lt0(ad_y);
        5'd11: begin s2_q <= m1_y; ue_q <= ge0(ad_y); end
        5'd12: begin s3_q <= m0_y; fl_q[3] <= ge0(ad_y); end
        5'd13: fl_q[4] <= ge0(ad_y);
        5'd14: x1_q <= ad_y;
        5'd15: y1_q <= ad_y;
        5'd16: fl_q[5] <= ge0(ad_y);
        5'd17: sz_q <= ad_y;
        5'd19: sx_q <= ad_y;
        5'(LastC): sy_q <= ad_y;
        default: ;
      endcase
    end
  end

  // z <= 0: mul(z, -1) >= 0, i.e. z flushes to zero, or z is negative and not NaN.
  logic zz_in;
  assign zz_in = (z[22:16] == 7'd0) || (z[23] && !((z[22:16] == 7'h7F) && (z[15:0] != 16'h0)));

  assign inside_o  = (&fl_q) && zz_in;
  assign user_in_o = ue_q;
  assign flip_o    = neg_q;
  assign sx_o      = sx_q;
  assign sy_o      = sy_q;
  assign sz_o      = sz_q;
  assign iw_o      = r_q;

endmodule : pica_clip_lane
