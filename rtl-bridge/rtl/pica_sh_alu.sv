// pica_sh_alu: the shader unit's arithmetic pipeline (ADD, MUL, MAD, DP3/DP4/DPH, DST, LITP,
// FLR, MIN, MAX), bit-exact with the model's alu.rs functions and equal to the one-clock
// datapath of pica_f24_* modules it replaces (formal/ proves it against a reference built from
// them). The unit computes the remaining results itself (SGE/SLT from its comparators, the SFU's
// result, MOV) and passes them in on pre_i, so every instruction takes the same path and leaves
// in order: the result of the instruction presented at op_i/a_i/b_i/c_i/pre_i is on y_o
// `Latency` clocks with en_i later (en_i low holds every stage).
//
// Stages (each ends in a register; the f24 units' own registers by parameter):
//   R0     the operands as presented
//   mul    the four lane multipliers (pica_f24_mul_p, MulReg), FLR, MIN/MAX and LITP's first
//          clamps beside them (its y's second clamp after MulReg, beside the multipliers' end)
//   R1     per lane the adder operands: ADD a + b, MAD a*b + c; for DP the products
//   add 0  lane 0 (DP: x*x' + y*y') and lane 1          (pica_f24_add_p: AddRegA + AddRegB)
//   R2
//   add 1  lane 2 (DP: + z*z')
//   R3
//   add 2  lane 3 (DP: + w*w')
//   R4     the result
// The dot product keeps alu::dot's order ((x + y) + z) + w, each add truncated, on the same four
// adders ADD and MAD use one per lane: so lanes 2 and 3 of ADD/MAD are added one and two adder
// steps later than lanes 0 and 1, their operands waiting in the stage registers.
//
// Injected bug (off by default; see rtl/README.md):
//   INJECT_SH_ADD_ROUND   ADD (the opcode only, not MAD/DP) sets the lowest mantissa bit of its
//                         result when the two operands' exponents differ: a stand-in for "rounds
//                         instead of truncating" that perturbs the last bit like a rounding error.
module pica_sh_alu #(
  parameter bit MaxNegInf = 1'b0,  // Knobs::max_neg_inf: 0 Zero (default), 1 NegInf
  parameter int MulReg    = 1,     // 1: a register behind the multipliers' products
  parameter int AddRegA   = 1,     // 1: a register behind each adder's alignment step
  parameter int AddRegB   = 1,     // 1: a register behind each adder's add step
  // Not to be set: the parent reads it (the unit's commit records are this many clocks long).
  parameter int Latency   = 1 + MulReg + 1 + 3 * (AddRegA + AddRegB + 1)
) (
  input  logic        clk_i,
  input  logic        en_i,
  input  logic [5:0]  op_i,
  input  logic [95:0] a_i,
  input  logic [95:0] b_i,
  input  logic [95:0] c_i,
  input  logic [95:0] pre_i,
  // The unit's comparators on a_i and b_i (flush off; LITP: b's x and w as zero), per lane:
  // MIN, MAX and LITP select with them instead of comparing again here (pica_shader_unit.sv).
  input  logic [3:0]  lt_i,
  input  logic [3:0]  gt_i,
  output logic [95:0] y_o
);

  localparam logic [23:0] F24One  = 24'h3F0000;
  localparam logic [23:0] F24Zero = 24'h000000;
  localparam logic [23:0] LitpPos = 24'h45FFFC;  // alu::LITP_Y_BOUND
  localparam logic [23:0] LitpNeg = 24'hC5FFFC;
  localparam int AddLat = AddRegA + AddRegB;

  localparam logic [5:0] OpAdd = 6'h00, OpDp3 = 6'h01, OpDp4 = 6'h02, OpDph = 6'h03,
                         OpDst = 6'h04, OpLitp = 6'h07, OpMul = 6'h08, OpFlr = 6'h0B,
                         OpMax = 6'h0C, OpMin = 6'h0D, OpDphi = 6'h18, OpDsti = 6'h19;

`ifndef SYNTHESIS
  initial begin
    if (Latency != 1 + MulReg + 1 + 3 * (AddLat + 1)) begin
      $fatal(1, "pica_sh_alu: Latency must not be overridden");
    end
  end
`endif

  // The lane flags of the injected bug (0 without it), computed on the operands as presented.
  logic [3:0] inj;
`ifdef INJECT_SH_ADD_ROUND
  for (genvar l = 0; l < 4; l++) begin : g_inj
    assign inj[l] = op_i == OpAdd && a_i[l*24+16 +: 7] != b_i[l*24+16 +: 7];
  end
`else
  assign inj = 4'd0;
`endif

  function automatic logic f24_nan(input logic [22:0] x);
    f24_nan = x[22:16] == 7'h7F && x[15:0] != 16'h0;
  endfunction

  // pica_f24_minmax from the comparator's flags lt (a < b) and gt (a > b).
  function automatic logic [23:0] mm_sel(input logic [23:0] a, input logic [23:0] b,
                                         input logic is_max, input logic lt, input logic gt);
    if (is_max) begin
      if (MaxNegInf && a[22:0] == 23'h0 && b == 24'hFF0000) mm_sel = b;
      else mm_sel = gt ? a : b;
    end else begin
      mm_sel = lt ? a : b;
    end
  endfunction

  // ---- R0
  logic [5:0]  op0;
  logic [3:0]  inj0, lt0, gt0;
  logic [95:0] a0, b0, c0, pre0;
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      op0  <= op_i;
      inj0 <= inj;
      lt0  <= lt_i;
      gt0  <= gt_i;
      a0   <= a_i;
      b0   <= b_i;
      c0   <= c_i;
      pre0 <= pre_i;
    end
  end

  // ---- mul: the multipliers; FLR, MIN/MAX and LITP (early results) beside them.
  logic        is_lit0, lit_lt_b, lit_gt_nb;
  logic [95:0] dot_a, mul_y, flr_y, mm_b, mm_y, early0;
  logic [3:0]  mm_max, mm_lt, mm_gt;
  logic [23:0] lit_y1;
  assign is_lit0 = (op0 == OpLitp);
  // DPH's a.w = 1.0 goes into lane 3's multiplier.
  assign dot_a  = (op0 == OpDph || op0 == OpDphi) ? {F24One, a0[71:0]} : a0;
  // LITP: (max(x, 0), max(min(y, B), -B), 0, max(w, 0)).
  assign mm_b   = is_lit0 ? {F24Zero, b0[48 +: 24], LitpPos, F24Zero} : b0;
  assign mm_max = is_lit0 ? 4'b1001 : {4{op0 == OpMax}};
  // pica_f24_cmp's lt against the positive constant B (neither zero nor NaN): y < B when y is
  // no NaN and negative or of a smaller magnitude. The other lanes' flags are the unit's.
  assign lit_lt_b = !f24_nan(a0[24 +: 23])
                    && (a0[47] || a0[24 +: 23] < LitpPos[22:0]);
  assign mm_lt  = {lt0[3:2], is_lit0 ? lit_lt_b : lt0[1], lt0[0]};
  assign mm_gt  = gt0;
  for (genvar l = 0; l < 4; l++) begin : g_lane
    pica_f24_mul_p #(.Reg(MulReg != 0)) u_mul (
      .clk_i, .en_i, .a_i(dot_a[l*24 +: 24]), .b_i(b0[l*24 +: 24]), .y_o(mul_y[l*24 +: 24])
    );
    pica_f24_flr u_flr (.a_i(a0[l*24 +: 24]), .y_o(flr_y[l*24 +: 24]));
    assign mm_y[l*24 +: 24] = mm_sel(a0[l*24 +: 24], mm_b[l*24 +: 24], mm_max[l], mm_lt[l],
                                     mm_gt[l]);
  end
  always_comb begin
    unique case (op0)
      // LITP's y is clamped to B here and to -B in the next step (one compare per step).
      OpLitp:       early0 = {mm_y[72 +: 24], F24Zero, mm_y[24 +: 24], mm_y[0 +: 24]};
      OpFlr:        early0 = flr_y;
      OpMax, OpMin: early0 = mm_y;
      default:      early0 = pre0;
    endcase
  end

  // The operands and early results wait for the multipliers (MulReg clocks).
  logic [5:0]  opm;
  logic [3:0]  injm;
  logic [95:0] am, bm, cm, earlym;
  pica_delay #(.W(6 + 4 + 4 * 96), .N(MulReg)) u_dm (
    .clk_i, .en_i, .d_i({op0, inj0, a0, b0, c0, early0}), .q_o({opm, injm, am, bm, cm, earlym})
  );

  // Per lane the adder operands: ADD a + b; MAD a*b + c; DP lane 0 x*x' + y*y', lanes 2 and 3
  // take the running sum (from the adder before) plus their product (in bb).
  logic        is_mad, is_dot, is_dp3, is_addl;
  logic [95:0] aa, bb, ev;
  assign is_mad  = (opm[5:4] == 2'b11);
  assign is_dot  = (opm == OpDp3) || (opm == OpDp4) || (opm == OpDph) || (opm == OpDphi);
  assign is_dp3  = (opm == OpDp3);
  assign is_addl = is_mad || (opm == OpAdd);
  assign aa[0 +: 24]  = (is_dot || is_mad) ? mul_y[0 +: 24] : am[0 +: 24];
  assign bb[0 +: 24]  = is_dot ? mul_y[24 +: 24] : is_mad ? cm[0 +: 24] : bm[0 +: 24];
  for (genvar l = 1; l < 4; l++) begin : g_opnd
    assign aa[l*24 +: 24] = is_mad ? mul_y[l*24 +: 24] : am[l*24 +: 24];
    assign bb[l*24 +: 24] = (is_dot && l > 1) ? mul_y[l*24 +: 24]
                          : is_mad ? cm[l*24 +: 24] : bm[l*24 +: 24];
  end
  // The results that need no adder: MUL, DST, LITP (its y clamped to -B), the early ones.
  // pica_f24_cmp's gt against the negative constant -B (neither zero nor NaN): y > -B when y is
  // no NaN and positive or of a smaller magnitude; -B is not MaxNegInf's -inf.
  assign lit_gt_nb = !f24_nan(earlym[24 +: 23])
                     && (!earlym[47] || earlym[24 +: 23] < LitpNeg[22:0]);
  assign lit_y1 = mm_sel(earlym[24 +: 24], LitpNeg, 1'b1, 1'b0, lit_gt_nb);
  always_comb begin
    unique case (opm)
      OpMul:        ev = mul_y;
      OpLitp:       ev = {earlym[72 +: 24], F24Zero, lit_y1, earlym[0 +: 24]};
      OpDst, OpDsti: ev = {bm[72 +: 24], am[48 +: 24], mul_y[24 +: 24], F24One};
      default:      ev = earlym;
    endcase
  end

  // ---- R1
  logic [3:0]  ctl1, ctl2, ctl3;  // {is_addl, is_dot, is_dp3, op is ADD}
  logic [3:0]  inj1, inj2, inj3;
  logic [95:0] ev1, aa1, bb1;
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      ctl1 <= {is_addl, is_dot, is_dp3, opm == OpAdd};
      inj1 <= injm;
      ev1  <= ev;
      aa1  <= aa;
      bb1  <= bb;
    end
  end

  // ---- add 0: lanes 0 and 1.
  logic [23:0] s0, s1, s2, s3;
  pica_f24_add_p #(.RegA(AddRegA != 0), .RegB(AddRegB != 0)) u_add0 (
    .clk_i, .en_i, .a_i(aa1[0 +: 24]), .b_i(bb1[0 +: 24]), .y_o(s0)
  );
  pica_f24_add_p #(.RegA(AddRegA != 0), .RegB(AddRegB != 0)) u_add1 (
    .clk_i, .en_i, .a_i(aa1[24 +: 24]), .b_i(bb1[24 +: 24]), .y_o(s1)
  );
  logic [3:0]  ctl1d, inj1d;
  logic [95:0] ev1d;
  logic [47:0] aa1d, bb1d;  // lanes 2 and 3
  pica_delay #(.W(8 + 96 + 96), .N(AddLat)) u_d1 (
    .clk_i, .en_i, .d_i({ctl1, inj1, ev1, aa1[48 +: 48], bb1[48 +: 48]}),
    .q_o({ctl1d, inj1d, ev1d, aa1d, bb1d})
  );

  // ---- R2
  logic [95:0] ev2;
  logic [23:0] s0_2, s1_2, aa2_2, bb2_2, aa3_2, bb3_2;
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      ctl2  <= ctl1d;
      inj2  <= inj1d;
      ev2   <= ev1d;
      s0_2  <= s0;
      s1_2  <= s1;
      aa2_2 <= aa1d[0 +: 24];
      bb2_2 <= bb1d[0 +: 24];
      aa3_2 <= aa1d[24 +: 24];
      bb3_2 <= bb1d[24 +: 24];
    end
  end

  // ---- add 1: lane 2 (DP: the running sum + z*z').
  pica_f24_add_p #(.RegA(AddRegA != 0), .RegB(AddRegB != 0)) u_add2 (
    .clk_i, .en_i, .a_i(ctl2[2] ? s0_2 : aa2_2), .b_i(bb2_2), .y_o(s2)
  );
  logic [3:0]  ctl2d, inj2d;
  logic [95:0] ev2d;
  logic [23:0] s0_2d, s1_2d, aa3_2d, bb3_2d;
  pica_delay #(.W(8 + 96 + 4 * 24), .N(AddLat)) u_d2 (
    .clk_i, .en_i, .d_i({ctl2, inj2, ev2, s0_2, s1_2, aa3_2, bb3_2}),
    .q_o({ctl2d, inj2d, ev2d, s0_2d, s1_2d, aa3_2d, bb3_2d})
  );

  // ---- R3
  logic [95:0] ev3;
  logic [23:0] s0_3, s1_3, s2_3, aa3_3, bb3_3;
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      ctl3  <= ctl2d;
      inj3  <= inj2d;
      ev3   <= ev2d;
      s0_3  <= s0_2d;
      s1_3  <= s1_2d;
      s2_3  <= s2;
      aa3_3 <= aa3_2d;
      bb3_3 <= bb3_2d;
    end
  end

  // ---- add 2: lane 3 (DP: the running sum + w*w').
  pica_f24_add_p #(.RegA(AddRegA != 0), .RegB(AddRegB != 0)) u_add3 (
    .clk_i, .en_i, .a_i(ctl3[2] ? s2_3 : aa3_3), .b_i(bb3_3), .y_o(s3)
  );
  logic [3:0]  ctl3d, inj3d;
  logic [95:0] ev3d;
  logic [23:0] s0_3d, s1_3d, s2_3d;
  pica_delay #(.W(8 + 96 + 3 * 24), .N(AddLat)) u_d3 (
    .clk_i, .en_i, .d_i({ctl3, inj3, ev3, s0_3, s1_3, s2_3}),
    .q_o({ctl3d, inj3d, ev3d, s0_3d, s1_3d, s2_3d})
  );

  // ---- R4: the result.
  logic [95:0] lanes, y_d;
  assign lanes = {s3, s2_3d, s1_3d, s0_3d};
  always_comb begin
    if (ctl3d[3]) begin
      for (int l = 0; l < 4; l++) begin
        y_d[l*24 +: 24] = lanes[l*24 +: 24] | {23'h0, ctl3d[0] & inj3d[l]};
      end
    end else if (ctl3d[2]) begin
      y_d = ctl3d[1] ? {4{s2_3d}} : {4{s3}};
    end else begin
      y_d = ev3d;
    end
  end
  always_ff @(posedge clk_i) begin
    if (en_i) y_o <= y_d;
  end
endmodule : pica_sh_alu
