// pica_f24_add: f24 a + b, bit-exact with alu::add (model/src/shader/alu.rs).
//
// The model's rule: flush both inputs (exponent 0 -> +0), take the exact sum, truncate it toward
// zero to f24; |result| < 2^-62 -> +0 (no subnormals, no -0), |result| >= 2^64 -> +-inf; any NaN
// and inf + -inf -> the canonical NaN 0x7F8000.
//
// Datapath (why it is exact): the larger magnitude A and the smaller B are aligned on a grid three
// guard bits finer than A's ulp. Bits of B shifted below the grid only set a sticky bit. For an
// effective subtraction with sticky set the exact difference lies strictly between D-1 and D
// (D = A' - B'), so D - 1 is its floor on the fine grid; truncating that floor to 17 significant
// bits gives the floor of the exact value, because the result's ulp is a multiple of the fine
// grid's unit whenever sticky can be set (exponent difference >= 4 keeps the leading one at or
// above bit 18). Exponent differences 0 and 1 (where cancellation shifts left) never set sticky,
// so the difference is exact.
module pica_f24_add (
  input  logic [23:0] a_i,
  input  logic [23:0] b_i,
  output logic [23:0] y_o
);

  localparam logic [23:0] NaN = 24'h7F8000;

  logic [23:0] a, b;        // flushed inputs
  logic [23:0] hi_op, lo_op;  // by magnitude
  logic        a_nan, b_nan, a_inf, b_inf;

  assign a = (a_i[22:16] == 7'd0) ? 24'h0 : a_i;
  assign b = (b_i[22:16] == 7'd0) ? 24'h0 : b_i;
  assign a_nan = (a[22:16] == 7'h7F) && (a[15:0] != 16'h0);
  assign b_nan = (b[22:16] == 7'h7F) && (b[15:0] != 16'h0);
  assign a_inf = (a[22:16] == 7'h7F) && (a[15:0] == 16'h0);
  assign b_inf = (b[22:16] == 7'h7F) && (b[15:0] == 16'h0);

  // The magnitude bits order like the values (for non-NaN patterns).
  assign hi_op   = (a[22:0] >= b[22:0]) ? a : b;
  assign lo_op = (a[22:0] >= b[22:0]) ? b : a;

  logic [6:0]  eb, es;      // biased exponents (0 for zero)
  logic [16:0] sb, ss;      // significands with the hidden bit (0 for zero)
  logic [6:0]  d;           // exponent difference, >= 0
  logic [5:0]  dc;          // clamped to 40: from 20 on B lies entirely below the window
  logic [56:0] bsh;         // {ss, 40 zeros} >> dc: window [56:37] = ss << 3 aligned
  logic [19:0] a_al, b_al;  // A and B on the fine grid (3 guard bits)
  logic        sticky;
  logic        sub;
  logic [20:0] dsum;        // exact sum / floored difference on the fine grid

  assign eb = hi_op[22:16];
  assign es = lo_op[22:16];
  assign sb = {eb != 7'd0, hi_op[15:0]};
  assign ss = {es != 7'd0, lo_op[15:0]};
  assign d  = eb - es;
  assign dc = (d > 7'd40) ? 6'd40 : d[5:0];
  assign bsh = {ss, 40'h0} >> dc;
  assign a_al = {sb, 3'b000};
  assign b_al = bsh[56:37];
  assign sticky = (bsh[36:0] != 37'h0);
  assign sub = hi_op[23] ^ lo_op[23];
  assign dsum = sub ? ({1'b0, a_al} - {1'b0, b_al} - {20'h0, sticky})
                    : ({1'b0, a_al} + {1'b0, b_al});

  // Normalization: leading one at bit p; value = dsum * 2^(eb - 82), biased exponent eb + p - 19.
  logic [4:0]  p;
  logic [8:0]  re;          // signed result exponent
  logic [15:0] man;
  logic [20:0] norm;

  always_comb begin
    p = 5'd0;
    for (int i = 0; i < 21; i++) begin
      if (dsum[i]) p = 5'(i);
    end
  end

  assign norm = (p >= 5'd16) ? (dsum >> (p - 5'd16)) : (dsum << (5'd16 - p));
  assign man  = norm[15:0];
  assign re   = {2'b00, eb} + {4'b0000, p} - 9'd19;

  always_comb begin
    if (a_nan || b_nan || (a_inf && b_inf && (a[23] != b[23]))) begin
      y_o = NaN;
    end else if (a_inf) begin
      y_o = a;
    end else if (b_inf) begin
      y_o = b;
    end else if (dsum == 21'h0 || re[8] || re == 9'd0) begin
      y_o = 24'h0;                          // exact zero or below 2^-62: +0
    end else if (re >= 9'd127) begin
      y_o = {hi_op[23], 7'h7F, 16'h0};        // at or above 2^64: +-inf
    end else begin
      y_o = {hi_op[23], re[6:0], man};
    end
  end

  // norm[20:16] is the leading one and the zeros above it, dropped by design.
  logic unused_bits;
  assign unused_bits = ^{norm[20:16], d[6]};

endmodule : pica_f24_add
