// fix12p4_p_miter: pica_f24_to_fix12p4_p (two clocked steps) against pica_f24_to_fix12p4 (the
// combinational reference) on a free input and a free en_i, the reference's result delayed by 2
// enabled clocks (see add_p_miter.sv for the scheme).
module fix12p4_p_miter (
  input logic        clk_i,
  input logic        en_i,
  input logic [23:0] a_i
);

  logic [15:0] y_dut, y_ref, y_exp;
  logic        vld;

  pica_f24_to_fix12p4_p u_dut (.clk_i, .en_i, .a_i, .y_o(y_dut));
  pica_f24_to_fix12p4 u_ref (.a_i, .y_o(y_ref));
  pica_formal_delay #(.W(16), .L(2)) u_dly (
    .clk_i, .en_i, .d_i(y_ref), .q_o(y_exp), .vld_o(vld)
  );

  always_comb begin
    if (vld) assert (y_dut == y_exp);
  end

endmodule : fix12p4_p_miter
