// pica_f24_rcp: f24 1/x, bit-exact with alu::rcp (model/src/shader/alu.rs).
//
// Flush (exponent 0 -> +0); rcp(+-0) = +inf, rcp(+-inf) = +0 (no -0), NaN -> canonical NaN
// (pica-facts §2). Finite x = S * 2^(E-79) with S = 1.m as a 17-bit integer:
//   S == 2^16  -> exactly 2^(63-(E-63)): biased exponent 126 - E, mantissa 0;
//   otherwise  -> 1/x = floor(2^33 / S) * 2^(46-E), the quotient in (2^16, 2^17): biased exponent
//                 125 - E and its low 16 bits. The integer division truncates, which is the
//                 model's "exact 1/x truncated" (2^33/S is never an integer here).
// Biased exponent <= 0 (x >= 2^62 in magnitude) -> +0.
module pica_f24_rcp (
  input  logic [23:0] a_i,
  output logic [23:0] y_o
);

  logic [6:0]  e;
  logic [16:0] s;
  logic [33:0] q;
  logic [7:0]  re;  // signed

  assign e  = a_i[22:16];
  assign s  = {1'b1, a_i[15:0]};
  assign q  = 34'h2_0000_0000 / {17'h0, s};
  assign re = (a_i[15:0] == 16'h0) ? (8'd126 - {1'b0, e}) : (8'd125 - {1'b0, e});

  always_comb begin
    if (e == 7'd0) begin
      y_o = 24'h7F0000;                        // rcp(+-0), flushed subnormals: +inf
    end else if (e == 7'h7F) begin
      y_o = (a_i[15:0] != 16'h0) ? 24'h7F8000 : 24'h0;  // NaN; rcp(+-inf) = +0
    end else if (re[7] || re == 8'd0) begin
      y_o = 24'h0;
    end else if (a_i[15:0] == 16'h0) begin
      y_o = {a_i[23], re[6:0], 16'h0};
    end else begin
      y_o = {a_i[23], re[6:0], q[15:0]};
    end
  end

  logic unused_bits;
  assign unused_bits = ^q[33:16];

endmodule : pica_f24_rcp
