// pica_f24_mul: f24 a * b, bit-exact with alu::mul (model/src/shader/alu.rs).
//
// Flush both inputs (exponent 0 -> +0); NaN -> canonical NaN (NaN*0 = NaN); inf*0 = +0
// (pica-facts §2: "inf*0 = 0 everywhere a multiply happens"); inf*x = +-inf; 0*x = +0 (no -0).
// Finite: the 17x17-bit significand product is exact (34 bits); its top 17 bits are the truncated
// result. |result| >= 2^64 -> +-inf, < 2^-62 -> +0 (alu.rs `trunc` = F24::from_f64_trunc).
module pica_f24_mul (
  input  logic [23:0] a_i,
  input  logic [23:0] b_i,
  output logic [23:0] y_o
);

  localparam logic [23:0] NaN = 24'h7F8000;

  logic [23:0] a, b;
  logic        a_nan, b_nan, a_inf, b_inf, a_zero, b_zero, sign;
  logic [33:0] prod;
  logic [8:0]  re;
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

  assign prod = {17'h0, 1'b1, a[15:0]} * {17'h0, 1'b1, b[15:0]};
  // value = prod * 2^(ea + eb - 158); leading one at bit 33 or 32.
  assign re   = {2'b00, a[22:16]} + {2'b00, b[22:16]} - 9'd63 + {8'h0, prod[33]};
  assign man  = prod[33] ? prod[32:17] : prod[31:16];

  always_comb begin
    if (a_nan || b_nan) begin
      y_o = NaN;
    end else if ((a_inf && b_zero) || (a_zero && b_inf)) begin
      y_o = 24'h0;
    end else if (a_inf || b_inf) begin
      y_o = {sign, 7'h7F, 16'h0};
    end else if (a_zero || b_zero || re[8] || re == 9'd0) begin
      y_o = 24'h0;
    end else if (re >= 9'd127) begin
      y_o = {sign, 7'h7F, 16'h0};
    end else begin
      y_o = {sign, re[6:0], man};
    end
  end

  logic unused_bits;
  assign unused_bits = ^prod[15:0];

endmodule : pica_f24_mul
