// pica_f24_flr: f24 floor(x), bit-exact with alu::flr (model/src/shader/alu.rs): flush
// (exponent 0 -> +0), NaN -> canonical NaN, +-inf unchanged, the exact floor otherwise (the floor
// of an f24 is an f24), never -0.
//
// x = S * 2^(e-16), e = E - 63. e >= 16: already an integer. e < 0: |x| < 1, floor is +0 or -1.
// Otherwise the integer part M = S >> (16 - e) (17 bits); a negative x with a non-zero fraction
// floors to -(M + 1), which may carry into the next binade, so M is renormalized.
module pica_f24_flr (
  input  logic [23:0] a_i,
  output logic [23:0] y_o
);

  logic [6:0]  e;
  logic [7:0]  eu;          // E - 63, signed
  logic [16:0] s;
  logic [4:0]  sh;          // 16 - e for 0 <= e <= 15
  logic [16:0] ip;          // integer part of |x|
  logic        frac_nz;
  logic [17:0] m;           // |floor(x)| for 0 <= e <= 15
  logic [4:0]  p;           // leading one of m
  logic [17:0] norm;

  assign e  = a_i[22:16];
  assign eu = {1'b0, e} - 8'd63;
  assign s  = {1'b1, a_i[15:0]};
  assign sh = 5'd16 - eu[4:0];
  assign ip = s >> sh;
  assign frac_nz = ((s & ~(17'h1_FFFF << sh)) != 17'h0);
  assign m = {1'b0, ip} + {17'h0, a_i[23] & frac_nz};

  always_comb begin
    p = 5'd0;
    for (int i = 0; i < 18; i++) begin
      if (m[i]) p = 5'(i);
    end
  end

  assign norm = m << (5'd17 - p);   // leading one at bit 17

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
      y_o = {a_i[23], 7'(8'd63 + {3'b000, p}), norm[16:1]};
    end
  end

  logic unused_bits;
  assign unused_bits = ^{norm[17], norm[0]};

endmodule : pica_f24_flr
