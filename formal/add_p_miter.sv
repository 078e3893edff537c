// add_p_miter: pica_f24_add_p (the pipelined adder) against pica_f24_add (the combinational
// reference) on free operands and a free en_i. The reference sees the operands of every clock;
// its result is delayed by pica_formal_delay exactly like the pipeline delays its operands
// (RegA + RegB clocks with en_i), and the pipeline's output must equal it on every clock once
// that many enabled clocks have passed. Computing the reference at the inputs (rather than
// delaying the operands) lets the solver merge the two designs' identical input-side logic.
module add_p_miter #(
  parameter bit RegA = 1'b1,
  parameter bit RegB = 1'b1
) (
  input logic        clk_i,
  input logic        en_i,
  input logic [23:0] a_i,
  input logic [23:0] b_i
);

  localparam int L = int'(RegA) + int'(RegB);

  logic [23:0] y_dut, y_ref, y_exp;
  logic        vld;

  pica_f24_add_p #(.RegA(RegA), .RegB(RegB)) u_dut (
    .clk_i, .en_i, .a_i, .b_i, .y_o(y_dut)
  );
  pica_f24_add u_ref (.a_i, .b_i, .y_o(y_ref));
  pica_formal_delay #(.W(24), .L(L)) u_dly (
    .clk_i, .en_i, .d_i(y_ref), .q_o(y_exp), .vld_o(vld)
  );

  always_comb begin
    if (vld) assert (y_dut == y_exp);
  end

endmodule : add_p_miter
