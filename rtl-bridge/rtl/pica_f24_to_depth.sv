// pica_f24_to_depth: a depth value (f24) to an unsigned 16- or 24-bit integer, bit-exact with
// rast::interp::depth_to_uint (model/src/rast/interp.rs) for bits = 16 and 24:
// floor(d * (2^bits - 1)) computed exactly, d saturated to [0, 1] first (+inf -> all ones,
// negative and -inf -> 0), NaN -> 0.
//
// d = S * 2^(E-79) (S = 1.m, 17 bits), E <= 62: d * max = S * max / 2^r with r = 79 - E >= 17;
// S * max < 2^41, so r >= 41 gives 0.
module pica_f24_to_depth (
  input  logic [23:0] a_i,
  input  logic        bits24_i,  // 1: 24 bits, 0: 16 bits
  output logic [23:0] y_o
);

  // UNVERIFIED(hw): floor(d * (2^bits - 1)) with d clamped to [0, 1], NaN -> 0 — model
  // interp::depth_to_uint (Azahar clamps and truncates `depth * ((1 << bits) - 1)`).

  logic [6:0]  e;
  logic [6:0]  r;
  logic [23:0] max;
  logic [40:0] prod;
  logic [40:0] shifted;

  assign e       = a_i[22:16];
  assign r       = 7'd79 - e;    // meaningful for 1 <= e <= 62 (17 ..= 78)
  assign max     = bits24_i ? 24'hFF_FFFF : 24'h00_FFFF;
  assign prod    = 41'({1'b1, a_i[15:0]}) * 41'(max);
  assign shifted = (r >= 7'd41) ? 41'h0 : (prod >> r);

  always_comb begin
    if ((e == 7'h7F && a_i[15:0] != 16'h0) || a_i[23] || e == 7'd0) begin
      y_o = 24'h0;                                 // NaN, negative, zero, subnormal
    end else if (e >= 7'd63) begin
      y_o = max;                                   // >= 1.0, +inf
    end else begin
      y_o = shifted[23:0];                         // d < 1: below max
    end
  end

  logic unused_bits;
  assign unused_bits = ^shifted[40:24];

endmodule : pica_f24_to_depth
