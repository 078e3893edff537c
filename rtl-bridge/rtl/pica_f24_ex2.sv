// pica_f24_ex2: f24 2^x, bit-exact with alu::ex2 (model/src/shader/alu.rs), the model's
// fixed-point EX2 (UNVERIFIED(hw), issue 15). Every width and constant below is the model's:
//   flush (exponent 0 -> +0, giving 1.0); NaN -> 0x7F8000; +inf and x >= 64 (E >= 69) -> +inf;
//   -inf and x <= -64 -> +0; -x <= EX2_TINY_NEG_MAX (0x09714 = 2^-54 * (1 + 29012/2^16)) -> 1.0;
//   X = +-(1.m << (E - 1)): x in signed fixed point, 78 fraction bits (exact);
//   i = X >>> 78 (floor), f = X[77:0];
//   P = 1.0 (62 fraction bits); for k = 1..20 with f bit (78 - k) set: P = (P * 2^(2^-k)) >> 62;
//   t = (f[57:0] * ln2) >> 78; P = (P * (2^62 + t + (t*t >> 63))) >> 62;
//   result exponent i + 63 (<= 0 -> +0), mantissa P[61:46].
// The constants are EX2_ROOTS / EX2_LN2 of alu.rs (2^(2^-k), ln 2, 62 fraction bits, truncated).
module pica_f24_ex2 (
  input  logic [23:0] a_i,
  output logic [23:0] y_o
);

  localparam logic [62:0] One = 63'h4000_0000_0000_0000;
  localparam logic [61:0] Ln2 = 62'h2c5c_85fd_f473_de6a;
  localparam logic [22:0] TinyNegMax = {7'd9, 16'd29012};

  function automatic logic [62:0] root(input logic [4:0] k);
    case (k)
      5'd1 : root = 63'h5a82_7999_fcef_3242;
      5'd2 : root = 63'h4c1b_f828_c6dc_54b7;
      5'd3 : root = 63'h45ca_e0f1_f545_eb73;
      5'd4 : root = 63'h42d5_61b3_e624_3d8a;
      5'd5 : root = 63'h4166_c34c_5615_d0eb;
      5'd6 : root = 63'h40b2_68f9_de01_83b9;
      5'd7 : root = 63'h4058_f6a7_eccc_d5b6;
      5'd8 : root = 63'h402c_6be9_6af2_fb58;
      5'd9 : root = 63'h4016_321b_6870_27a8;
      5'd10: root = 63'h400b_1817_8ba3_3b14;
      5'd11: root = 63'h4005_8bce_4101_47e8;
      5'd12: root = 63'h4002_c5d7_bff7_1dae;
      5'd13: root = 63'h4001_62e8_07ee_7e5b;
      5'd14: root = 63'h4000_b173_0df6_a524;
      5'd15: root = 63'h4000_58b9_497b_8151;
      5'd16: root = 63'h4000_2c5c_955d_d701;
      5'd17: root = 63'h4000_162e_46d6_f26b;
      5'd18: root = 63'h4000_0b17_2275_7b1b;
      5'd19: root = 63'h4000_058b_90fd_3e0c;
      5'd20: root = 63'h4000_02c5_c86f_3f26;
      default: root = One;
    endcase
  endfunction

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
  logic [87:0] mag, fx;     // fixed point, 78 fraction bits (fx two's complement)
  logic [9:0]  i;           // floor(x), signed
  logic [77:0] f;
  logic [62:0] p;
  logic [119:0] tl;
  logic [41:0] t;
  logic [83:0] tt;
  logic [62:0] q;
  logic [9:0]  be;

  assign e   = a_i[22:16];
  assign mag = 88'({1'b1, a_i[15:0]}) << (e - 7'd1);
  assign fx  = a_i[23] ? (88'h0 - mag) : mag;
  assign i   = fx[87:78];
  assign f   = fx[77:0];
  assign tl  = 120'(f[57:0]) * 120'(Ln2);
  assign t   = tl[119:78];
  assign tt  = 84'(t) * 84'(t);
  assign q   = One + 63'(t) + 63'(tt[83:63]);

  always_comb begin
    // p < 2^63 throughout (a lower bound of 2^f < 2), so bit 63 of each product is 0.
    /* verilator lint_off UNUSEDSIGNAL */
    logic [63:0] prod;
    /* verilator lint_on UNUSEDSIGNAL */
    p = One;
    for (int k = 1; k <= 20; k++) begin
      if (f[78 - k]) begin
        prod = mul_shr62(p, root(5'(k)));
        p = prod[62:0];
      end
    end
    prod = mul_shr62(p, q);
    p = prod[62:0];
  end

  assign be = i + 10'd63;

  always_comb begin
    if (e == 7'd0) begin
      y_o = 24'h3F0000;                                   // 2^(+0) = 1.0
    end else if (e == 7'h7F && a_i[15:0] != 16'h0) begin
      y_o = 24'h7F8000;                                   // NaN
    end else if (e >= 7'd69) begin
      y_o = a_i[23] ? 24'h0 : 24'h7F0000;                 // +-inf, |x| >= 64
    end else if (a_i[23] && a_i[22:0] <= TinyNegMax) begin
      y_o = 24'h3F0000;                                   // within 2^-54 below 1.0
    end else if (be[9] || be == 10'd0) begin
      y_o = 24'h0;                                        // below 2^-62
    end else begin
      y_o = {1'b0, be[6:0], p[61:46]};
    end
  end

  // mag/fx bits above 85 are sign extension; tt/tl low bits are truncated away by design.
  logic unused_bits;
  assign unused_bits = ^{tl[77:0], tt[62:0], p[62], p[45:0], be[8:7]};

endmodule : pica_f24_ex2
