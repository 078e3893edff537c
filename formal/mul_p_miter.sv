// mul_p_miter: pica_f24_mul_p (the multiplier with a register behind the significand product)
// against pica_f24_mul (the combinational reference) on free operands and a free en_i, the
// reference's result delayed by Reg enabled clocks (see add_p_miter.sv for the scheme). Both
// designs form the 17x17 product from the same flushed operands with the same expression, so
// Yosys (opt_merge) and ABC (structural hashing) merge the two multipliers into one: the solver
// never has to prove two different multiplier circuits equal, which SAT cannot do at this width.
module mul_p_miter #(
  parameter bit Reg = 1'b1
) (
  input logic        clk_i,
  input logic        en_i,
  input logic [23:0] a_i,
  input logic [23:0] b_i
);

  localparam int L = int'(Reg);

  logic [23:0] y_dut, y_ref, y_exp;
  logic        vld;

  pica_f24_mul_p #(.Reg(Reg)) u_dut (.clk_i, .en_i, .a_i, .b_i, .y_o(y_dut));
  pica_f24_mul u_ref (.a_i, .b_i, .y_o(y_ref));
  pica_formal_delay #(.W(24), .L(L)) u_dly (
    .clk_i, .en_i, .d_i(y_ref), .q_o(y_exp), .vld_o(vld)
  );

  always_comb begin
    if (vld) assert (y_dut == y_exp);
  end

endmodule : mul_p_miter
