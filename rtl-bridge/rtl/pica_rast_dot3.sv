// pica_rast_dot3: the rasterizer's three-lane f24 dot product, alu::dot's left-to-right sum
// add(add(mul(a0, b0), mul(a1, b1)), mul(a2, b2)) (rast::interp steps 3-5), pipelined so that
// no clock chains more than one step of an operator; it never stalls (every register loads
// every clock):
//   1      operand registers
//   2-3    3 x pica_f24_mul_p (a register behind the product, one behind the result)
//   4-6    add(m0, m1): pica_f24_add_p (two registers), one behind it; m2 delayed alongside
//   7-9    add(that, m2): pica_f24_add_p (two registers), one behind it
// y_o is the dot product of the operands presented 9 clocks earlier. pica_rast runs its
// denominators (den, dsum, den' right / up) and every lane's numerator through one each.
module pica_rast_dot3 (
  input  logic        clk_i,
  input  logic [71:0] a_i,      // lane k at [24*k +: 24]
  input  logic [71:0] b_i,
  output logic [23:0] y_o
);

  logic [71:0] a_q, b_q, prod, prod_q;
  always_ff @(posedge clk_i) begin
    a_q <= a_i;
    b_q <= b_i;
  end

  for (genvar k = 0; k < 3; k++) begin : g_mul
    pica_f24_mul_p #(.Reg(1'b1)) u_mul (
      .clk_i, .en_i(1'b1), .a_i(a_q[24*k +: 24]), .b_i(b_q[24*k +: 24]),
      .y_o(prod[24*k +: 24])
    );
  end

  logic [23:0] sum01, sum01_q, p2_d1_q, p2_d2_q, p2_d3_q, dot, dot_q;
  pica_f24_add_p #(.RegA(1'b1), .RegB(1'b1)) u_add01 (
    .clk_i, .en_i(1'b1), .a_i(prod_q[23:0]), .b_i(prod_q[47:24]), .y_o(sum01)
  );
  pica_f24_add_p #(.RegA(1'b1), .RegB(1'b1)) u_add2 (
    .clk_i, .en_i(1'b1), .a_i(sum01_q), .b_i(p2_d3_q), .y_o(dot)
  );

  always_ff @(posedge clk_i) begin
    prod_q  <= prod;
    p2_d1_q <= prod_q[71:48];
    p2_d2_q <= p2_d1_q;
    p2_d3_q <= p2_d2_q;
    sum01_q <= sum01;
    dot_q   <= dot;
  end

  assign y_o = dot_q;

endmodule : pica_rast_dot3
