// pica_f24_to_color: a colour channel (f24) to 8 bits, bit-exact with rast::interp::color_to_u8
// (model/src/rast/interp.rs): round(c * 255), halves away from zero, computed exactly, with c
// saturated to [0, 1] first (+inf -> 255, negative and -inf -> 0), NaN -> 0.
//
// c = S * 2^(E-79) (S = 1.m as a 17-bit integer), E <= 62: c * 255 = S * 255 / 2^r with
// r = 79 - E >= 17; r >= 26 gives 0 (S * 255 < 2^25 <= 2^(r-1)), else (S*255 + 2^(r-1)) >> r.
module pica_f24_to_color (
  input  logic [23:0] a_i,
  output logic [7:0]  y_o
);

  // UNVERIFIED(hw): round(c * 255) halves away from zero, saturating, NaN -> 0 — model
  // interp::color_to_u8 (Azahar converts with `round(c * 255)` in host float).

  logic [6:0]  e;
  logic [6:0]  r;
  logic [24:0] v;                // S * 255 < 2^25
  logic [25:0] rounded;          // v + 2^(r-1)
  logic [25:0] shifted;

  assign e       = a_i[22:16];
  assign r       = 7'd79 - e;    // meaningful for 1 <= e <= 62 (17 ..= 78)
  assign v       = {1'b1, a_i[15:0]} * 25'd255;
  assign rounded = {1'b0, v} + (26'h1 << (r[4:0] - 5'd1));
  assign shifted = rounded >> r[4:0];

  always_comb begin
    if ((e == 7'h7F && a_i[15:0] != 16'h0) || a_i[23] || e == 7'd0) begin
      y_o = 8'h0;                                  // NaN, negative, zero, subnormal
    end else if (e >= 7'd63) begin
      y_o = 8'hFF;                                 // >= 1.0, +inf
    end else if (r >= 7'd26) begin
      y_o = 8'h0;
    end else begin
      y_o = shifted[7:0];                          // c < 1: at most 255
    end
  end

  logic unused_bits;
  assign unused_bits = ^shifted[25:8];

endmodule : pica_f24_to_color
