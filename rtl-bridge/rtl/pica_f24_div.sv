// pica_f24_div: f24 a / b, bit-exact with rast::interp::div (model/src/rast/interp.rs), the
// rasterizer's perspective division.
//
// The model's rule: flush both inputs (exponent 0 -> +0, shader ALU rule), take the exact
// quotient and truncate it toward zero to f24; |result| < 2^-62 -> +0 (no subnormals, no -0),
// |result| >= 2^64 -> +-inf; NaN -> the canonical NaN 0x7F8000. Special values (the host f64
// division's): NaN / x, x / NaN, 0 / 0 and inf / inf -> NaN; x / 0 -> +-inf and inf / x ->
// +-inf (sign a ^ b, where a flushed zero is +0); 0 / x and x / inf -> +0.
//
// Finite non-zero a = Sa * 2^(Ea-79), b = Sb * 2^(Eb-79) (S = 1.m as a 17-bit integer): the
// integer quotient Q = floor(Sa * 2^17 / Sb) lies in (2^16, 2^18). Q >= 2^17 (Sa >= Sb): the
// result is Q/2^17 * 2^(Ea-Eb), biased exponent Ea - Eb + 63, mantissa Q[16:1] (floor(Q/2) =
// floor(Sa * 2^16 / Sb)); else biased exponent Ea - Eb + 62, mantissa Q[15:0]. The integer
// division floors, which is the truncation of the exact quotient toward zero.
module pica_f24_div (
  input  logic [23:0] a_i,
  input  logic [23:0] b_i,
  output logic [23:0] y_o
);

  localparam logic [23:0] NaN = 24'h7F8000;

  logic [23:0] a, b;
  logic        a_nan, b_nan, a_inf, b_inf, a_zero, b_zero, sign;
  logic [33:0] q;
  logic [8:0]  re;          // biased result exponent, two's complement
  logic [15:0] man;

  assign a = (a_i[22:16] == 7'd0) ? 24'h0 : a_i;
  assign b = (b_i[22:16] == 7'd0) ? 24'h0 : b_i;
  assign a_nan  = (a[22:16] == 7'h7F) && (a[15:0] != 16'h0);
  assign b_nan  = (b[22:16] == 7'h7F) && (b[15:0] != 16'h0);
  assign a_inf  = (a[22:16] == 7'h7F) && (a[15:0] == 16'h0);
  assign b_inf  = (b[22:16] == 7'h7F) && (b[15:0] == 16'h0);
  assign a_zero = (a[22:16] == 7'd0);
  assign b_zero = (b[22:16] == 7'd0);
  assign sign   = a[23] ^ b[23];

  assign q   = {1'b1, a[15:0], 17'h0} / {17'h0, 1'b1, b[15:0]};
  assign re  = {2'b00, a[22:16]} - {2'b00, b[22:16]} + 9'd62 + {8'h0, q[17]};
  assign man = q[17] ? q[16:1] : q[15:0];

  always_comb begin
    if (a_nan || b_nan || (a_inf && b_inf) || (a_zero && b_zero)) begin
      y_o = NaN;
    end else if (a_inf || b_zero) begin
      y_o = {sign, 7'h7F, 16'h0};
    end else if (a_zero || b_inf) begin
      y_o = 24'h0;
    end else if (re[8] || re == 9'd0) begin
      y_o = 24'h0;                          // below 2^-62: +0
    end else if (re >= 9'd127) begin
      y_o = {sign, 7'h7F, 16'h0};           // at or above 2^64: +-inf
    end else begin
      y_o = {sign, re[6:0], man};
    end
  end

  // q < 2^18: the upper bits are always zero.
  logic unused_bits;
  assign unused_bits = ^q[33:18];

endmodule : pica_f24_div
