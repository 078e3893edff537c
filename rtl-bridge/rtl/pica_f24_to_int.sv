// pica_f24_to_int: MOVA's f24 -> i32 conversion, bit-exact with model/src/shader/interp.rs
// (`v.to_f64().trunc() as i32`): no flush, truncation toward zero, Rust `as` saturation
// (>= 2^31 -> i32::MAX, <= -2^31 -> i32::MIN, +-inf saturate), NaN -> 0; subnormals are < 1 -> 0.
module pica_f24_to_int (
  input  logic        [23:0] a_i,
  output logic signed [31:0] y_o
);

  logic [6:0]  e;
  logic [7:0]  eu;     // E - 63, signed
  logic [31:0] mag;

  assign e   = a_i[22:16];
  assign eu  = {1'b0, e} - 8'd63;
  // |x| = 1.m * 2^(eu-16) truncated, for 0 <= eu <= 30: 1.m placed 14 bits up and shifted right
  // by 30 - eu (one shifter; a left shift for eu >= 16 and a right one below gave the same).
  assign mag = {1'b0, 31'({1'b1, a_i[15:0], 14'h0} >> (5'd30 - eu[4:0]))};

  always_comb begin
    if (e == 7'h7F && a_i[15:0] != 16'h0) begin
      y_o = 32'sh0;                                        // NaN -> 0
    end else if (e == 7'd0 || eu[7]) begin
      y_o = 32'sh0;                                        // |x| < 1 (zeros, subnormals)
    end else if (eu >= 8'd31) begin
      y_o = a_i[23] ? 32'sh8000_0000 : 32'sh7FFF_FFFF;     // saturation (and +-inf)
    end else begin
      y_o = a_i[23] ? -$signed(mag) : $signed(mag);
    end
  end

endmodule : pica_f24_to_int
