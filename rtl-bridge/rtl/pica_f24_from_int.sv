// pica_f24_from_int: a signed integer to f24, truncating toward zero to 17 significant bits:
// rast::interp::weight_f24 (model/src/rast/interp.rs), the edge weights of the interpolator.
//
// 0 -> +0; otherwise sign, biased exponent 63 + p (p = position of the leading one of |v|,
// at most 35: no overflow) and the 16 bits below the leading one (zero-filled when p < 16).
// The magnitude is normalized in six shift stages (32, 16, 8, 4, 2, 1) that count the leading
// zeros of its 64-bit extension: p = 63 - lz.
module pica_f24_from_int (
  input  logic [35:0] a_i,       // signed
  output logic [23:0] y_o
);

  logic [35:0] mag;
  logic [63:0] n0, n1, n2, n3, n4, n5, n6;
  logic        z5, z4, z3, z2, z1, z0;   // the stage shifted
  logic [5:0]  lz;

  assign mag = a_i[35] ? (36'h0 - a_i) : a_i;
  assign n0  = {28'h0, mag};
  assign z5 = (n0[63:32] == 32'h0);
  assign n1  = z5 ? {n0[31:0], 32'h0} : n0;
  assign z4 = (n1[63:48] == 16'h0);
  assign n2  = z4 ? {n1[47:0], 16'h0} : n1;
  assign z3 = (n2[63:56] == 8'h0);
  assign n3  = z3 ? {n2[55:0], 8'h0} : n2;
  assign z2 = (n3[63:60] == 4'h0);
  assign n4  = z2 ? {n3[59:0], 4'h0} : n3;
  assign z1 = (n4[63:62] == 2'h0);
  assign n5  = z1 ? {n4[61:0], 2'h0} : n4;
  assign z0 = !n5[63];
  assign n6  = z0 ? {n5[62:0], 1'b0} : n5;

  assign lz  = {z5, z4, z3, z2, z1, z0};

  // |v| < 2^36: lz >= 28, so the biased exponent 126 - lz lies in 63 ..= 98.
  assign y_o = (mag == 36'h0) ? 24'h0 : {a_i[35], 7'(7'd126 - {1'b0, lz}), n6[62:47]};

  // The bits below the 16 kept ones are truncated; bit 63 is the leading one.
  logic unused_bits;
  assign unused_bits = ^{n6[63], n6[46:0]};

endmodule : pica_f24_from_int
