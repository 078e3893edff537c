// pica_f24_from_int_p: pica_f24_from_int (rast::interp::weight_f24, a signed 36-bit integer to
// f24 truncated to 17 significant bits) cut into two clocked steps, for the rasterizer's
// per-pixel weights:
//   1  the magnitude (a 36-bit negation) and the first three normalization stages (32, 16, 8)
//   2  the last three stages (4, 2, 1), the exponent and the result select
// y_o belongs to the a_i presented two clocks with en_i earlier (a register behind each step).
// pica_f24_from_int stays the reference (formal/from_int_p.ys proves the two equal).
module pica_f24_from_int_p (
  input  logic        clk_i,
  input  logic        en_i,      // the registers load when set
  input  logic [35:0] a_i,       // signed
  output logic [23:0] y_o
);

  // ---- 1
  logic [35:0] mag;
  logic [63:0] n0, n1, n2, n3;
  logic        z5, z4, z3;

  assign mag = a_i[35] ? (36'h0 - a_i) : a_i;
  assign n0  = {28'h0, mag};
  assign z5  = (n0[63:32] == 32'h0);
  assign n1  = z5 ? {n0[31:0], 32'h0} : n0;
  assign z4  = (n1[63:48] == 16'h0);
  assign n2  = z4 ? {n1[47:0], 16'h0} : n1;
  assign z3  = (n2[63:56] == 8'h0);
  assign n3  = z3 ? {n2[55:0], 8'h0} : n2;

  // 1 -> 2: {sign, zero, z5, z4, z3, n3[63:40]}. Only the top 24 bits of n3 can reach the
  // result: the last stages shift by at most 7 and keep n6[62:47].
  logic        r_sign, r_zero, r_z5, r_z4, r_z3;
  logic [23:0] r_n3;
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      r_sign <= a_i[35];
      r_zero <= (mag == 36'h0);
      r_z5   <= z5;
      r_z4   <= z4;
      r_z3   <= z3;
      r_n3   <= n3[63:40];
    end
  end

  // ---- 2
  logic [23:0] n4, n5, n6;
  logic        z2, z1, z0;
  logic [5:0]  lz;
  logic [23:0] y_d;

  assign z2 = (r_n3[23:20] == 4'h0);
  assign n4 = z2 ? {r_n3[19:0], 4'h0} : r_n3;
  assign z1 = (n4[23:22] == 2'h0);
  assign n5 = z1 ? {n4[21:0], 2'h0} : n4;
  assign z0 = !n5[23];
  assign n6 = z0 ? {n5[22:0], 1'b0} : n5;
  assign lz = {r_z5, r_z4, r_z3, z2, z1, z0};
  // |v| < 2^36: lz >= 28, so the biased exponent 126 - lz lies in 63 ..= 98.
  assign y_d = r_zero ? 24'h0 : {r_sign, 7'(7'd126 - {1'b0, lz}), n6[22:7]};

  always_ff @(posedge clk_i) begin
    if (en_i) y_o <= y_d;
  end

  // n3[39:0] only ever fills the bits below the kept 16 (truncated); n6[23] is the leading
  // one, n6[6:0] truncated.
  logic unused_bits;
  assign unused_bits = ^{n3[39:0], n6[23], n6[6:0]};

endmodule : pica_f24_from_int_p
