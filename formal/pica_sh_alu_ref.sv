// pica_sh_alu_ref: the function of pica_sh_alu without its pipeline, built only from the
// combinational reference units (pica_f24_add, pica_f24_mul, pica_f24_dot, pica_f24_minmax,
// pica_f24_flr). It is the result mux of the shader unit's one-clock execute stage before the
// pipeline replaced it (pica_shader_unit.sv at d7eda9e, `value`), reduced to what pica_sh_alu
// computes: the results the unit makes itself (SGE/SLT, the SFU's EX2/LG2/RCP/RSQ, MOV) and every
// other opcode pass pre_i through. Each opcode has its own units here (no sharing of adders
// between ADD, MAD and the dot product), so that it reads as the specification:
//   ADD          per lane add(a, b)
//   MUL          per lane mul(a, b)
//   MAD, MADI    per lane add(mul(a, b), c)             (op[5:4] = 2'b11)
//   DP3, DP4     {4{dot(a, b)}}, ((x*x' + y*y') + z*z') [+ w*w'], each step truncated
//   DPH, DPHI    DP4 with a.w = 1.0
//   DST, DSTI    {b.w, a.z, mul(a.y, b.y), 1.0}
//   LITP         {max(a.w, 0), 0, max(min(a.y, B), -B), max(a.x, 0)}, B = alu::LITP_Y_BOUND
//   FLR          per lane flr(a)
//   MAX, MIN     per lane max / min (MaxNegInf as the knob)
//   otherwise    pre_i
// The multipliers take the same operands as pica_sh_alu's (DPH's a.w = 1.0 already applied, the
// same expression), so that the solver merges them with the pipeline's.
module pica_sh_alu_ref #(
  parameter bit MaxNegInf = 1'b0
) (
  input  logic [5:0]  op_i,
  input  logic [95:0] a_i,
  input  logic [95:0] b_i,
  input  logic [95:0] c_i,
  input  logic [95:0] pre_i,
  output logic [95:0] y_o
);

  localparam logic [23:0] F24One  = 24'h3F0000;
  localparam logic [23:0] F24Zero = 24'h000000;
  localparam logic [23:0] LitpPos = 24'h45FFFC;  // alu::LITP_Y_BOUND
  localparam logic [23:0] LitpNeg = 24'hC5FFFC;

  localparam logic [5:0] OpAdd = 6'h00, OpDp3 = 6'h01, OpDp4 = 6'h02, OpDph = 6'h03,
                         OpDst = 6'h04, OpLitp = 6'h07, OpMul = 6'h08, OpFlr = 6'h0B,
                         OpMax = 6'h0C, OpMin = 6'h0D, OpDphi = 6'h18, OpDsti = 6'h19;

  logic        is_lit;
  logic [95:0] dot_a, mul_y, add_y, mad_y, flr_y, mm_b, mm_y;
  logic [3:0]  mm_max;
  logic [23:0] dot_y, lit_y1;

  assign is_lit = (op_i == OpLitp);
  assign dot_a  = (op_i == OpDph || op_i == OpDphi) ? {F24One, a_i[71:0]} : a_i;
  assign mm_b   = is_lit ? {F24Zero, b_i[48 +: 24], LitpPos, F24Zero} : b_i;
  assign mm_max = is_lit ? 4'b1001 : {4{op_i == OpMax}};

  for (genvar l = 0; l < 4; l++) begin : g_lane
    pica_f24_mul u_mul (.a_i(dot_a[l*24 +: 24]), .b_i(b_i[l*24 +: 24]), .y_o(mul_y[l*24 +: 24]));
    pica_f24_add u_add (.a_i(a_i[l*24 +: 24]), .b_i(b_i[l*24 +: 24]), .y_o(add_y[l*24 +: 24]));
    pica_f24_add u_mad (.a_i(mul_y[l*24 +: 24]), .b_i(c_i[l*24 +: 24]),
                        .y_o(mad_y[l*24 +: 24]));
    pica_f24_flr u_flr (.a_i(a_i[l*24 +: 24]), .y_o(flr_y[l*24 +: 24]));
    pica_f24_minmax u_mm (.a_i(a_i[l*24 +: 24]), .b_i(mm_b[l*24 +: 24]), .max_i(mm_max[l]),
                          .max_neg_inf_i(MaxNegInf), .y_o(mm_y[l*24 +: 24]));
  end
  pica_f24_minmax u_lit_y (.a_i(mm_y[24 +: 24]), .b_i(LitpNeg), .max_i(1'b1),
                           .max_neg_inf_i(MaxNegInf), .y_o(lit_y1));
  pica_f24_dot u_dot (.a_i(dot_a), .b_i(b_i), .four_i(op_i != OpDp3), .y_o(dot_y));

  always_comb begin
    if (op_i[5:4] == 2'b11) begin
      y_o = mad_y;                                  // MAD, MADI
    end else begin
      unique case (op_i)
        OpAdd:                       y_o = add_y;
        OpMul:                       y_o = mul_y;
        OpDp3, OpDp4, OpDph, OpDphi: y_o = {4{dot_y}};
        OpDst, OpDsti:               y_o = {b_i[72 +: 24], a_i[48 +: 24], mul_y[24 +: 24], F24One};
        OpLitp:                      y_o = {mm_y[72 +: 24], F24Zero, lit_y1, mm_y[0 +: 24]};
        OpFlr:                       y_o = flr_y;
        OpMax, OpMin:                y_o = mm_y;
        default:                     y_o = pre_i;  // SGE/SLT, EX2/LG2/RCP/RSQ, MOV, the rest
      endcase
    end
  end

endmodule : pica_sh_alu_ref
