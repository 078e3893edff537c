// dot_p_miter: a dot product built from the pipelined units, four pica_f24_mul_p and three
// pica_f24_add_p chained left to right ((x*x' + y*y') + z*z') + w*w', against pica_f24_dot (the
// combinational reference, four pica_f24_mul and three pica_f24_add) on free vectors, a free
// DP3/DP4 select and a free en_i. This is the shape of the shader unit's DP3/DP4/DPH chain: a
// register between the products and the first add and behind every add, so each add_p's
// operands come out of registers and its result goes into the next one. Operands that join the
// chain later (z*z', w*w') and four_i are delayed to meet it (the *_dly registers below), as a
// pipeline must. Latency: MulReg + 1 + 3 * (AddRegA + AddRegB + 1). EnFree = 0 ties the enable
// to 1: the same proof without stalls, which the solver finishes much sooner (formal.md).
module dot_p_miter #(
  parameter bit MulReg  = 1'b1,
  parameter bit AddRegA = 1'b1,
  parameter bit AddRegB = 1'b1,
  parameter bit EnFree  = 1'b1   // 0: en_i tied to 1 (the chain never stalls)
) (
  input logic        clk_i,
  input logic        en_i_free,
  input logic [95:0] a_i,
  input logic [95:0] b_i,
  input logic        four_i
);

  logic en_i;
  assign en_i = EnFree ? en_i_free : 1'b1;

  localparam int LA = int'(AddRegA) + int'(AddRegB);   // one add_p
  localparam int LS = LA + 1;                           // one add step: add_p, its out register
  localparam int L  = int'(MulReg) + 1 + 3 * LS;

  // ---- the pipelined chain
  logic [95:0] prod, prod_q;
  for (genvar i = 0; i < 4; i++) begin : g_mul
    pica_f24_mul_p #(.Reg(MulReg)) u_mul (
      .clk_i, .en_i, .a_i(a_i[24*i +: 24]), .b_i(b_i[24*i +: 24]), .y_o(prod[24*i +: 24])
    );
  end
  logic four_m;  // four_i beside the products
  pica_formal_delay #(.W(1), .L(int'(MulReg))) u_four_m (
    .clk_i, .en_i, .d_i(four_i), .q_o(four_m), .vld_o()
  );
  always_ff @(posedge clk_i) if (en_i) prod_q <= prod;
  logic four_q;
  always_ff @(posedge clk_i) if (en_i) four_q <= four_m;

  // Step k adds product k+1 to the running sum; products 2 and 3 wait k steps for it.
  logic [23:0] s1, s2, s3, s1_q, s2_q, s3_q, p2_d, p3_d, p3_dd;
  logic        four_d;
  pica_f24_add_p #(.RegA(AddRegA), .RegB(AddRegB)) u_add01 (
    .clk_i, .en_i, .a_i(prod_q[23:0]), .b_i(prod_q[47:24]), .y_o(s1)
  );
  always_ff @(posedge clk_i) if (en_i) s1_q <= s1;
  pica_formal_delay #(.W(24), .L(LS)) u_p2 (
    .clk_i, .en_i, .d_i(prod_q[71:48]), .q_o(p2_d), .vld_o()
  );
  pica_formal_delay #(.W(24), .L(2 * LS)) u_p3 (
    .clk_i, .en_i, .d_i(prod_q[95:72]), .q_o(p3_d), .vld_o()
  );
  pica_formal_delay #(.W(1), .L(3 * LS)) u_four (
    .clk_i, .en_i, .d_i(four_q), .q_o(four_d), .vld_o()
  );
  pica_f24_add_p #(.RegA(AddRegA), .RegB(AddRegB)) u_add012 (
    .clk_i, .en_i, .a_i(s1_q), .b_i(p2_d), .y_o(s2)
  );
  always_ff @(posedge clk_i) if (en_i) s2_q <= s2;
  pica_f24_add_p #(.RegA(AddRegA), .RegB(AddRegB)) u_add0123 (
    .clk_i, .en_i, .a_i(s2_q), .b_i(p3_d), .y_o(s3)
  );
  always_ff @(posedge clk_i) if (en_i) s3_q <= s3;
  // DP3's sum s2 leaves the chain one step early; it rides beside the last step.
  pica_formal_delay #(.W(24), .L(LS)) u_s2 (
    .clk_i, .en_i, .d_i(s2_q), .q_o(p3_dd), .vld_o()
  );

  logic [23:0] y_dut;
  assign y_dut = four_d ? s3_q : p3_dd;

  // ---- the reference
  logic [23:0] y_ref, y_exp;
  logic        vld;
  pica_f24_dot u_ref (.a_i, .b_i, .four_i, .y_o(y_ref));
  pica_formal_delay #(.W(24), .L(L)) u_dly (
    .clk_i, .en_i, .d_i(y_ref), .q_o(y_exp), .vld_o(vld)
  );

  always_comb begin
    if (vld) assert (y_dut == y_exp);
  end

endmodule : dot_p_miter
