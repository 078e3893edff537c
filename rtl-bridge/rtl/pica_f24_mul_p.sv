// pica_f24_mul_p: f24 a * b as pica_f24_mul computes it (bit-exact with alu::mul), with an
// optional pipeline register behind the 17x17 significand product (Reg), which is where an
// FPGA's multiplier block has its own output register:
//   M1  flush, special values, the product
//   M2  the exponent, the truncated significand, the result select
// The result belongs to the operands presented Reg clocks with en_i earlier. pica_f24_mul stays
// the reference (formal/ proves the two equal).
module pica_f24_mul_p #(
  parameter bit Reg = 1'b1
) (
  input  logic        clk_i,
  input  logic        en_i,    // the register loads when set (the pipeline moves)
  input  logic [23:0] a_i,
  input  logic [23:0] b_i,
  output logic [23:0] y_o
);

  localparam logic [23:0] NaN = 24'h7F8000;

  // ---- M1
  logic [23:0] a, b;
  logic        a_nan, b_nan, a_inf, b_inf, a_zero, b_zero;
  logic [1:0]  cls;           // 0 finite, 1 NaN, 2 inf * 0 or 0 * x (+0), 3 inf
  logic [33:0] prod;

  assign a = (a_i[22:16] == 7'd0) ? 24'h0 : a_i;
  assign b = (b_i[22:16] == 7'd0) ? 24'h0 : b_i;
  assign a_nan  = (a[22:16] == 7'h7F) && (a[15:0] != 16'h0);
  assign b_nan  = (b[22:16] == 7'h7F) && (b[15:0] != 16'h0);
  assign a_inf  = (a[22:16] == 7'h7F) && (a[15:0] == 16'h0);
  assign b_inf  = (b[22:16] == 7'h7F) && (b[15:0] == 16'h0);
  assign a_zero = (a[22:16] == 7'd0);
  assign b_zero = (b[22:16] == 7'd0);
  assign cls = (a_nan || b_nan) ? 2'd1
             : ((a_inf && b_zero) || (a_zero && b_inf)) ? 2'd2
             : (a_inf || b_inf) ? 2'd3
             : (a_zero || b_zero) ? 2'd2 : 2'd0;
  assign prod = {17'h0, 1'b1, a[15:0]} * {17'h0, 1'b1, b[15:0]};

  // M1 -> M2: {cls, sign, ea, eb, prod[33:16]}
  localparam int W = 2 + 1 + 7 + 7 + 18;
  logic [W-1:0] r_d, r_q;
  assign r_d = {cls, a[23] ^ b[23], a[22:16], b[22:16], prod[33:16]};
  if (Reg) begin : g_r
    always_ff @(posedge clk_i) if (en_i) r_q <= r_d;
  end else begin : g_r_n
    assign r_q = r_d;
  end

  // ---- M2
  logic [1:0]  m_cls;
  logic        sign;
  logic [6:0]  ea, eb;
  logic [17:0] ph;            // prod[33:16]
  logic [8:0]  re;
  logic [15:0] man;
  assign {m_cls, sign, ea, eb, ph} = r_q;
  // value = prod * 2^(ea + eb - 158); leading one at bit 33 or 32.
  assign re  = {2'b00, ea} + {2'b00, eb} - 9'd63 + {8'h0, ph[17]};
  assign man = ph[17] ? ph[16:1] : ph[15:0];

  always_comb begin
    unique case (m_cls)
      2'd1: y_o = NaN;
      2'd2: y_o = 24'h0;
      2'd3: y_o = {sign, 7'h7F, 16'h0};
      default: begin
        if (re[8] || re == 9'd0) y_o = 24'h0;
        else if (re >= 9'd127) y_o = {sign, 7'h7F, 16'h0};
        else y_o = {sign, re[6:0], man};
      end
    endcase
  end

  logic unused_bits;
  assign unused_bits = ^prod[15:0];

endmodule : pica_f24_mul_p
