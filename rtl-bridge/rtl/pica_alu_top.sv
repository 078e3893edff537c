// pica_alu_top: every f24 unit of the shader ALU, and the rasterizer's f24 operations, behind
// one op select: the Verilated test vehicle of `pica alu-check` and rtl-bridge/tests/alu.rs
// (csrc/pica_alu_shim.cpp, src/alu.rs). Purely combinational; not part of pica_top.
//
// Vectors are the packed vec4 `[3:0][23:0]` written flat as [95:0] (lane i = bits [24*i +: 24],
// lane 0 = x): Yosys 0.23 has no packed multidimensional arrays.
//
// op_i (the encoding of rtl-bridge/src/alu.rs `AluOp`; model functions in model/src/shader):
//   0 ADD   y[i] = alu::add(a[i], b[i])          1 MUL   y[i] = alu::mul(a[i], b[i])
//   2 MAD   y[i] = alu::mad(a[i], b[i], c[i])    3 DP3   y[*] = alu::dot(a.xyz, b.xyz)
//   4 DP4   y[*] = alu::dot(a, b)                5 DPH   y[*] = alu::dot((a.xyz, 1.0), b)
//   6 RCP   y[*] = alu::rcp(a.x)                 7 RSQ   y[*] = alu::rsq(a.x)
//   8 EX2   y[*] = alu::ex2(a.x)                 9 LG2   y[*] = alu::lg2(a.x)
//  10 FLR   y[i] = alu::flr(a[i])               11 MAX   y[i] = alu::max(a[i], b[i], knob)
//  12 MIN   y[i] = alu::min(a[i], b[i])         13 SGE   y[i] = alu::sge(a[i], b[i])
//  14 SLT   y[i] = alu::slt(a[i], b[i])
//  15 CMP   y[i] = {21'b0, gt, eq, lt} of a[i] vs b[i], no flush (interp.rs `cmp_op`)
//  16 MOVA  int_o[i] = a[i].to_f64().trunc() as i32 (interp.rs MOVA), y = 0
//  17 F32   y[0] = F24::from_f32_bits(f32_i) (pica_f32_to_f24), other lanes 0
// The rasterizer's f24 operations (model/src/rast; pica_rast):
//  18 DIV     y[i] = rast::interp::div(a[i], b[i])                       (pica_f24_div)
//  19 FIX     int_o[i] = rast::setup::to_fix12p4(a[i]) as i32, y = 0     (pica_f24_to_fix12p4)
//  20 COLOR   y[i] = rast::interp::color_to_u8(a[i]) in bits 7:0        (pica_f24_to_color)
//  21 DEPTH16 y[i] = rast::interp::depth_to_uint(a[i], 16)               (pica_f24_to_depth)
//  22 DEPTH24 y[i] = rast::interp::depth_to_uint(a[i], 24)               (pica_f24_to_depth)
//  23 WEIGHT  y[*] = rast::interp::weight_f24(a_i[35:0] as a signed 36-bit integer: lane 0
//             and the low 12 bits of lane 1)                            (pica_f24_from_int)
//  other    y = 0, int_o = 0
// RCP/RSQ/EX2/LG2 read only a.x and write every lane, as the instructions do (pica-facts §2).
// max_neg_inf_i is the MaxNegInf::NegInf knob of MAX.
module pica_alu_top (
  input  logic [4:0]   op_i,
  input  logic         max_neg_inf_i,
  input  logic [95:0]  a_i,        // [3:0][23:0]
  input  logic [95:0]  b_i,        // [3:0][23:0]
  input  logic [95:0]  c_i,        // [3:0][23:0]
  input  logic [31:0]  f32_i,
  output logic [95:0]  y_o,        // [3:0][23:0]
  output logic [127:0] int_o       // [3:0][31:0], MOVA
);

  localparam logic [4:0] OpAdd = 5'd0, OpMul = 5'd1, OpMad = 5'd2, OpDp3 = 5'd3, OpDp4 = 5'd4,
                         OpDph = 5'd5, OpRcp = 5'd6, OpRsq = 5'd7, OpEx2 = 5'd8, OpLg2 = 5'd9,
                         OpFlr = 5'd10, OpMax = 5'd11, OpMin = 5'd12, OpSge = 5'd13,
                         OpSlt = 5'd14, OpCmp = 5'd15, OpMova = 5'd16, OpF32 = 5'd17,
                         OpDiv = 5'd18, OpFix = 5'd19, OpColor = 5'd20, OpDepth16 = 5'd21,
                         OpDepth24 = 5'd22, OpWeight = 5'd23;
  localparam logic [23:0] One = 24'h3F0000;

  logic [95:0] add_y, mul_y, mad_y, flr_y, max_y, min_y, sge_y, slt_y, cmp_y;
  logic [95:0] div_y, color_y, depth16_y, depth24_y;
  logic [95:0] dot_a;
  logic [23:0] dot_y, rcp_y, rsq_y, ex2_y, lg2_y, f32_y, weight_y;
  logic [127:0] mova_y, fix_y;

  for (genvar i = 0; i < 4; i++) begin : g_lane
    logic [23:0] a, b, c;
    logic        lt_f, eq_f, gt_f, lt_n, eq_n, gt_n;
    assign a = a_i[24*i +: 24];
    assign b = b_i[24*i +: 24];
    assign c = c_i[24*i +: 24];

    pica_f24_add u_add (.a_i(a), .b_i(b), .y_o(add_y[24*i +: 24]));
    pica_f24_mul u_mul (.a_i(a), .b_i(b), .y_o(mul_y[24*i +: 24]));

    // MAD = add(mul(a, b), c): the product is truncated first (alu::mad, "not an FMA").
    pica_f24_add u_mad_add (.a_i(mul_y[24*i +: 24]), .b_i(c), .y_o(mad_y[24*i +: 24]));

    pica_f24_flr u_flr (.a_i(a), .y_o(flr_y[24*i +: 24]));
    pica_f24_minmax u_max (.a_i(a), .b_i(b), .max_i(1'b1), .max_neg_inf_i(max_neg_inf_i),
                           .y_o(max_y[24*i +: 24]));
    pica_f24_minmax u_min (.a_i(a), .b_i(b), .max_i(1'b0), .max_neg_inf_i(max_neg_inf_i),
                           .y_o(min_y[24*i +: 24]));

    // SGE/SLT flush their inputs (alu::sge / alu::slt); CMP does not (interp.rs cmp_op).
    pica_f24_cmp u_cmp_f (.a_i(a), .b_i(b), .flush_i(1'b1), .lt_o(lt_f), .eq_o(eq_f),
                          .gt_o(gt_f));
    pica_f24_cmp u_cmp_n (.a_i(a), .b_i(b), .flush_i(1'b0), .lt_o(lt_n), .eq_o(eq_n),
                          .gt_o(gt_n));
    assign sge_y[24*i +: 24] = (gt_f || eq_f) ? One : 24'h0;
    assign slt_y[24*i +: 24] = lt_f ? One : 24'h0;
    assign cmp_y[24*i +: 24] = {21'h0, gt_n, eq_n, lt_n};

    pica_f24_to_int u_mova (.a_i(a), .y_o(mova_y[32*i +: 32]));

    // The rasterizer's operations.
    logic [15:0] fix;
    logic [7:0]  color;
    pica_f24_div u_div (.a_i(a), .b_i(b), .y_o(div_y[24*i +: 24]));
    pica_f24_to_fix12p4 u_fix (.a_i(a), .y_o(fix));
    pica_f24_to_color u_color (.a_i(a), .y_o(color));
    pica_f24_to_depth u_depth16 (.a_i(a), .bits24_i(1'b0), .y_o(depth16_y[24*i +: 24]));
    pica_f24_to_depth u_depth24 (.a_i(a), .bits24_i(1'b1), .y_o(depth24_y[24*i +: 24]));
    assign fix_y[32*i +: 32]   = {{16{fix[15]}}, fix};
    assign color_y[24*i +: 24] = {16'h0, color};
  end

  // One dot unit for DP3/DP4/DPH: DPH is DP4 with a.w = 1.0 (interp.rs), DP3 its 3-lane sum.
  assign dot_a = (op_i == OpDph) ? {One, a_i[71:0]} : a_i;
  pica_f24_dot u_dot (.a_i(dot_a), .b_i(b_i), .four_i(op_i != OpDp3), .y_o(dot_y));

  pica_f24_rcp u_rcp (.a_i(a_i[23:0]), .y_o(rcp_y));
  pica_f24_rsq u_rsq (.a_i(a_i[23:0]), .y_o(rsq_y));
  pica_f24_ex2 u_ex2 (.a_i(a_i[23:0]), .y_o(ex2_y));
  pica_f24_lg2 u_lg2 (.a_i(a_i[23:0]), .y_o(lg2_y));
  pica_f32_to_f24 u_f32 (.f32_i(f32_i), .f24_o(f32_y));
  pica_f24_from_int u_weight (.a_i(a_i[35:0]), .y_o(weight_y));

  always_comb begin
    int_o = 128'h0;
    unique case (op_i)
      OpAdd:   y_o = add_y;
      OpMul:   y_o = mul_y;
      OpMad:   y_o = mad_y;
      OpDp3, OpDp4, OpDph: y_o = {4{dot_y}};
      OpRcp:   y_o = {4{rcp_y}};
      OpRsq:   y_o = {4{rsq_y}};
      OpEx2:   y_o = {4{ex2_y}};
      OpLg2:   y_o = {4{lg2_y}};
      OpFlr:   y_o = flr_y;
      OpMax:   y_o = max_y;
      OpMin:   y_o = min_y;
      OpSge:   y_o = sge_y;
      OpSlt:   y_o = slt_y;
      OpCmp:   y_o = cmp_y;
      OpMova: begin
        y_o   = 96'h0;
        int_o = mova_y;
      end
      OpF32:   y_o = {72'h0, f32_y};
      OpDiv:   y_o = div_y;
      OpFix: begin
        y_o   = 96'h0;
        int_o = fix_y;
      end
      OpColor:   y_o = color_y;
      OpDepth16: y_o = depth16_y;
      OpDepth24: y_o = depth24_y;
      OpWeight:  y_o = {4{weight_y}};
      default: y_o = 96'h0;
    endcase
  end

endmodule : pica_alu_top
