// pica_f24_lg2: f24 log2(x), bit-exact with alu::lg2 (model/src/shader/alu.rs), the model's
// fixed-point LG2 (UNVERIFIED(hw), issue 15):
//   flush (exponent 0 -> +0): lg2(+-0) = lg2(subnormal) = -inf; NaN and negative -> 0x7F8000;
//   +inf -> +inf (pica-facts §2);
//   y = 1.m with 62 fraction bits; 60 times: y = (y*y) >> 62 (126-bit product, truncated); the
//   next fraction bit of log2(1.m) is (y >= 2), and then y >>= 1 (repeated squaring);
//   L = (E - 63) * 2^60 + bits: signed fixed point, 60 fraction bits;
//   result = L to f24 with the magnitude truncated (leading one at bit p: exponent p + 3,
//   mantissa the 16 bits below it). |L| < 64 and L != 0 => |L| > 2^-18: always normal.
module pica_f24_lg2 (
  input  logic [23:0] a_i,
  output logic [23:0] y_o
);

  // (x * y) >> 62 for x, y < 2^63, truncated: the model's `(a * b) >> 62` on u128. Written with
  // 32-bit limbs (four 32x32->64 products and carry-exact sums) so that simulators evaluate it
  // in 64-bit arithmetic instead of 126-bit wide words (Verilator's wide multiply is several
  // times slower); the value is the same as the 126-bit product's bits [125:62].
  function automatic logic [63:0] mul_shr62(input logic [62:0] x, input logic [62:0] y);
    // ll[31:0] and mid[29:0] lie below bit 62 and upper[63:62] is 0: unused by design.
    /* verilator lint_off UNUSEDSIGNAL */
    logic [63:0] ll, lh, hl, hh, mid, upper;
    /* verilator lint_on UNUSEDSIGNAL */
    ll    = 64'(x[31:0]) * 64'(y[31:0]);
    lh    = 64'(x[31:0]) * 64'(y[62:32]);
    hl    = 64'(x[62:32]) * 64'(y[31:0]);
    hh    = 64'(x[62:32]) * 64'(y[62:32]);
    // Bits 32 and up of (ll + (lh + hl) << 32), before adding the upper halves.
    mid   = 64'(ll[63:32]) + 64'(lh[31:0]) + 64'(hl[31:0]);
    // Bits 64 and up of the product (< 2^62 since x * y < 2^126).
    upper = hh + 64'(lh[63:32]) + 64'(hl[63:32]) + 64'(mid[63:32]);
    mul_shr62 = {upper[61:0], mid[31:30]};
  endfunction

  logic [6:0]  e;
  logic [59:0] bits;
  logic [67:0] l;      // signed, 60 fraction bits
  logic [67:0] mag;
  logic [6:0]  p;
  logic [67:0] norm;

  assign e = a_i[22:16];

  // The 60 fraction bits of log2(1.m). A function with automatic locals rather than an
  // always_comb loop over module-level variables: Icarus 11 re-evaluates such a block on its
  // own intermediate writes and never settles (any input with a non-zero mantissa hung it).
  function automatic logic [59:0] lg2_bits(input logic [15:0] m);
    logic [62:0] y;
    logic [63:0] sq;   // (y * y) >> 62: y^2 in [1, 4) with 62 fraction bits
    logic [59:0] b;
    y = {1'b1, m, 46'h0};
    b = 60'h0;
    for (int k = 0; k < 60; k++) begin
      sq = mul_shr62(y, y);
      b = {b[58:0], sq[63]};
      y = sq[63] ? sq[63:1] : sq[62:0];
    end
    lg2_bits = b;
  endfunction

  assign bits = lg2_bits(a_i[15:0]);

  assign l   = {8'({1'b0, e}) - 8'd63, 60'h0} + 68'(bits);
  assign mag = l[67] ? (68'h0 - l) : l;

  always_comb begin
    p = 7'd0;
    for (int i = 0; i < 68; i++) begin
      if (mag[i]) p = 7'(i);
    end
  end

  assign norm = (p >= 7'd16) ? (mag >> (p - 7'd16)) : (mag << (7'd16 - p));

  always_comb begin
    if (e == 7'd0) begin
      y_o = 24'hFF0000;                          // lg2(+-0), flushed subnormals: -inf
    end else if (e == 7'h7F && a_i[15:0] != 16'h0) begin
      y_o = 24'h7F8000;                          // NaN
    end else if (a_i[23]) begin
      y_o = 24'h7F8000;                          // negative (including -inf): NaN
    end else if (e == 7'h7F) begin
      y_o = 24'h7F0000;                          // lg2(+inf) = +inf
    end else if (l == 68'h0) begin
      y_o = 24'h0;                               // lg2(1) = +0
    end else begin
      y_o = {l[67], 7'(p + 7'd3), norm[15:0]};
    end
  end

  logic unused_bits;
  assign unused_bits = ^norm[67:16];

endmodule : pica_f24_lg2
