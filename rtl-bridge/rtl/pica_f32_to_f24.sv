// pica_f32_to_f24: IEEE binary32 bits -> float1.7.16 bits, the float32-mode uniform upload.
//
// Bit-exact with F24::from_f32_bits (model/src/num/float.rs, via num/codec.rs decode/encode with
// Underflow::Gradual). With e = f32 exponent field, m = 23-bit mantissa:
//   e == 255, m == 0   -> +-inf (exponent 0x7F, mantissa 0)
//   e == 255, m != 0   -> NaN keeping the top 16 payload bits (m >> 7), forced to 1 if those are 0
//   e == 0             -> signed zero (every f32 subnormal is far below the f24 subnormal range)
//   e >= 191           -> +-inf (value >= 2^64 = 2^(bias+1))
//   65 <= e <= 190     -> normal: exponent e - 64 (rebias 127 -> 63), mantissa m >> 7 (truncate)
//   1 <= e <= 64       -> f24 subnormal: (1.m as 24 bits) >> (72 - e), truncated (gradual
//                         underflow; shifts of 24 or more give a signed zero)
module pica_f32_to_f24 (
  input  logic [31:0] f32_i,
  output logic [23:0] f24_o
);

  logic       sign;
  logic [7:0] exp;
  logic [22:0] man;
  logic [23:0] sig;     // significand with the hidden bit
  logic [23:0] sub;     // subnormal significand after the shift
  logic [7:0]  sub_sh;  // 72 - e, in 8..71 when used

  assign sign   = f32_i[31];
  assign exp    = f32_i[30:23];
  assign man    = f32_i[22:0];
  assign sig    = {1'b1, man};
  assign sub_sh = 8'd72 - exp;
  assign sub    = sig >> sub_sh;

  always_comb begin
    if (exp == 8'hFF) begin
      f24_o = {sign, 7'h7F, (man == '0) ? 16'h0000 : ((man[22:7] == '0) ? 16'h0001 : man[22:7])};
    end else if (exp == 8'h00) begin
      f24_o = {sign, 23'h0};
    end else if (exp >= 8'd191) begin
      f24_o = {sign, 7'h7F, 16'h0000};
    end else if (exp >= 8'd65) begin
      f24_o = {sign, 7'(exp - 8'd64), man[22:7]};
    end else begin
      f24_o = {sign, 7'h00, sub[15:0]};
    end
  end

  // sub[23:16] is always zero (the shift is at least 8); man[6:0] is truncated away.
  logic unused_bits;
  assign unused_bits = ^{sub[23:16], man[6:0]};

endmodule : pica_f32_to_f24
