// pica_f24_rsq: f24 1/sqrt(x), bit-exact with alu::rsq (model/src/shader/alu.rs): the largest f24
// g with g^2 * x <= 1 (exact 1/sqrt(x) truncated).
//
// Flush (exponent 0 -> +0); rsq(+-0) = +inf; NaN or negative (including -inf) -> canonical NaN;
// rsq(+inf) = +0 (pica-facts §2). Finite positive x = 1.m * 2^e, e = E - 63: with k = floor(e/2)
// and t = x / 2^(2k) in [1, 4) (t * 2^16 = S' = S or 2S), 1/sqrt(x) = 2^-k / sqrt(t) and the
// result significand is the largest Q with Q^2 * S' <= 2^50 (then Q / 2^17 <= 1/sqrt(t)). It is
// found bit by bit from bit 17 down (restoring square root, exact integer comparisons).
// Q = 2^17 only for t = 1 (exact power of two): biased exponent 63 - k, mantissa 0; otherwise
// Q in [2^16, 2^17): biased exponent 62 - k, mantissa Q[15:0]. No over- or underflow is possible.
module pica_f24_rsq (
  input  logic [23:0] a_i,
  output logic [23:0] y_o
);

  logic [6:0]  e;
  logic [7:0]  eu;         // e = E - 63, signed
  logic [7:0]  k;          // floor(e / 2), signed
  logic [17:0] sp;         // S'
  logic [17:0] q;
  logic [7:0]  re;

  assign e  = a_i[22:16];
  assign eu = {1'b0, e} - 8'd63;
  assign k  = {eu[7], eu[7:1]};
  assign sp = eu[0] ? {1'b1, a_i[15:0], 1'b0} : {1'b0, 1'b1, a_i[15:0]};

  always_comb begin
    logic [17:0] trial;
    logic [53:0] sq;
    q = 18'h0;
    for (int i = 17; i >= 0; i--) begin
      trial = q | (18'h1 << i);
      sq = 54'(trial) * 54'(trial) * 54'(sp);
      if (sq <= 54'h4_0000_0000_0000) q = trial;
    end
  end

  assign re = q[17] ? (8'd63 - k) : (8'd62 - k);

  always_comb begin
    if (e == 7'd0) begin
      y_o = 24'h7F0000;                       // rsq(+-0), flushed subnormals: +inf
    end else if (e == 7'h7F && a_i[15:0] != 16'h0) begin
      y_o = 24'h7F8000;                       // NaN
    end else if (a_i[23]) begin
      y_o = 24'h7F8000;                       // negative (including -inf): NaN
    end else if (e == 7'h7F) begin
      y_o = 24'h0;                            // rsq(+inf) = +0
    end else begin
      y_o = {1'b0, re[6:0], q[17] ? 16'h0 : q[15:0]};
    end
  end

  logic unused_bits;
  assign unused_bits = ^{q[16], re[7]};

endmodule : pica_f24_rsq
