// pica_f24_flr: f24 floor(x), bit-exact with alu::flr (model/src/shader/alu.rs): flush
// (exponent 0 -> +0), NaN -> canonical NaN, +-inf unchanged, the exact floor otherwise (the floor
// of an f24 is an f24), never -0.
//
// x = S * 2^(e-16), e = E - 63. e >= 16: already an integer. e < 0: |x| < 1, floor is +0 or -1.
// Otherwise the fraction is the mantissa's low 16 - e bits: they are cleared, and a negative x
// with a non-zero fraction adds one unit of the lowest integer bit to {E, mantissa} as one
// field, so a carry out of the mantissa (the integer part all ones) lands in the exponent with
// a zero mantissa: the next binade without a renormalizing shift (the leading one can only
// stay or move up by one).
module pica_f24_flr (
  input  logic [23:0] a_i,
  output logic [23:0] y_o
);

  logic [6:0]  e;
  logic [7:0]  eu;          // E - 63, signed
  logic [4:0]  sh;          // 16 - e: the fraction's width, for 0 <= e <= 15
  logic [15:0] fmask;       // the fraction's bits of the mantissa
  logic        frac_nz;
  logic [22:0] mag;         // {E, mantissa} of |floor(x)| for 0 <= e <= 15

  assign e  = a_i[22:16];
  assign eu = {1'b0, e} - 8'd63;
  assign sh = 5'd16 - eu[4:0];
  assign fmask = ~(16'hFFFF << sh);
  assign frac_nz = (a_i[15:0] & fmask) != 16'h0;
  assign mag = {e, a_i[15:0] & ~fmask} + ((a_i[23] && frac_nz) ? (23'd1 << sh) : 23'd0);

  always_comb begin
    if (e == 7'd0) begin
      y_o = 24'h0;
    end else if (e == 7'h7F) begin
      y_o = (a_i[15:0] != 16'h0) ? 24'h7F8000 : a_i;
    end else if (eu[7]) begin
      y_o = a_i[23] ? 24'hBF0000 : 24'h0;    // |x| < 1: -1.0 or +0
    end else if (eu >= 8'd16) begin
      y_o = a_i;
    end else begin
      y_o = {a_i[23], mag};
    end
  end

endmodule : pica_f24_flr
