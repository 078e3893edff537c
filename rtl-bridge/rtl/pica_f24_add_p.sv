// pica_f24_add_p: f24 a + b as pica_f24_add computes it (bit-exact with alu::add), cut into
// three steps by up to two pipeline registers, for a clock an FPGA can reach (the one-clock
// adder is the deepest cone of the shader unit's execute stage):
//   A  flush, special values, order by magnitude, alignment of the smaller operand, sticky bit
//   B  the add or floored subtract on the fine grid, the leading-one position
//   C  normalization and the result select (NaN, inf, zero, over- and underflow)
// RegA / RegB put a register behind A / B; the result belongs to the operands presented
// RegA + RegB clocks with en_i earlier (with both 0 there is no register). Every step is
// the arithmetic of pica_f24_add, which stays the reference (see its header for why the
// datapath is exact; formal/ proves the two equal).
module pica_f24_add_p #(
  parameter bit RegA = 1'b1,
  parameter bit RegB = 1'b1
) (
  input  logic        clk_i,
  input  logic        en_i,    // the registers load when set (the pipeline moves)
  input  logic [23:0] a_i,
  input  logic [23:0] b_i,
  output logic [23:0] y_o
);

  localparam logic [23:0] NaN = 24'h7F8000;

  // ---- A
  logic [23:0] a, b, hi_op, lo_op;
  logic        a_nan, b_nan, a_inf, b_inf;
  logic [6:0]  eb, es, d;
  logic [16:0] ss;
  logic [19:0] al, lost;      // the aligned smaller operand on the fine grid; its lost bits
  logic        far;
  logic        spec;          // the result is a special value: spec_y
  logic [23:0] spec_y;

  assign a = (a_i[22:16] == 7'd0) ? 24'h0 : a_i;
  assign b = (b_i[22:16] == 7'd0) ? 24'h0 : b_i;
  assign a_nan = (a[22:16] == 7'h7F) && (a[15:0] != 16'h0);
  assign b_nan = (b[22:16] == 7'h7F) && (b[15:0] != 16'h0);
  assign a_inf = (a[22:16] == 7'h7F) && (a[15:0] == 16'h0);
  assign b_inf = (b[22:16] == 7'h7F) && (b[15:0] == 16'h0);
  assign hi_op = (a[22:0] >= b[22:0]) ? a : b;
  assign lo_op = (a[22:0] >= b[22:0]) ? b : a;
  assign eb  = hi_op[22:16];
  assign es  = lo_op[22:16];
  assign ss  = {es != 7'd0, lo_op[15:0]};
  assign d   = eb - es;
  // Aligned on the fine grid (3 bits below the mantissa): a shift of 20 or more leaves
  // nothing, and every bit of ss is then lost into the sticky bit. A 20-bit shifter and a
  // thermometer mask instead of shifting ss into a 57-bit field (the same bits: pica_f24_add).
  assign far  = d >= 7'd20;
  assign al   = far ? 20'h0 : ({ss, 3'b000} >> d[4:0]);
  assign lost = far ? {ss, 3'b000} : ({ss, 3'b000} & ~(20'hF_FFFF << d[4:0]));
  assign spec   = a_nan || b_nan || a_inf || b_inf;
  assign spec_y = (a_nan || b_nan || (a_inf && b_inf && (a[23] != b[23]))) ? NaN
                : a_inf ? a : b;

  // A -> B: {spec, spec_y, sign, eb, sb, b_al, sticky, sub}
  localparam int WA = 1 + 24 + 1 + 7 + 17 + 20 + 1 + 1;
  logic [WA-1:0] ra_d, ra_q;
  assign ra_d = {spec, spec_y, hi_op[23], eb, eb != 7'd0, hi_op[15:0], al,
                 lost != 20'h0, hi_op[23] ^ lo_op[23]};
  if (RegA) begin : g_ra
    always_ff @(posedge clk_i) if (en_i) ra_q <= ra_d;
  end else begin : g_ra_n
    assign ra_q = ra_d;
  end

  // ---- B
  logic        b_spec, b_sign, sticky, sub;
  logic [23:0] b_spec_y;
  logic [6:0]  b_eb;
  logic [16:0] sb;
  logic [19:0] a_al, b_al;
  logic [20:0] dsum;
  logic [4:0]  p;
  assign {b_spec, b_spec_y, b_sign, b_eb, sb, b_al, sticky, sub} = ra_q;
  assign a_al = {sb, 3'b000};
  assign dsum = sub ? ({1'b0, a_al} - {1'b0, b_al} - {20'h0, sticky})
                    : ({1'b0, a_al} + {1'b0, b_al});
  always_comb begin
    p = 5'd0;
    for (int i = 0; i < 21; i++) begin
      if (dsum[i]) p = 5'(i);
    end
  end

  // B -> C: {spec, spec_y, sign, eb, dsum, p}
  localparam int WB = 1 + 24 + 1 + 7 + 21 + 5;
  logic [WB-1:0] rb_d, rb_q;
  assign rb_d = {b_spec, b_spec_y, b_sign, b_eb, dsum, p};
  if (RegB) begin : g_rb
    always_ff @(posedge clk_i) if (en_i) rb_q <= rb_d;
  end else begin : g_rb_n
    assign rb_q = rb_d;
  end

  // ---- C
  logic        c_spec, c_sign;
  logic [23:0] c_spec_y;
  logic [6:0]  c_eb;
  logic [20:0] c_dsum, norm;
  logic [4:0]  c_p;
  logic [8:0]  re;
  assign {c_spec, c_spec_y, c_sign, c_eb, c_dsum, c_p} = rb_q;
  // One left shift puts the leading one at bit 20 (a right shift of up to 4 and a left shift of
  // up to 16, selected by c_p, gave the same bits).
  assign norm = c_dsum << (5'd20 - c_p);
  assign re   = {2'b00, c_eb} + {4'b0000, c_p} - 9'd19;

  always_comb begin
    if (c_spec) begin
      y_o = c_spec_y;
    end else if (c_dsum == 21'h0 || re[8] || re == 9'd0) begin
      y_o = 24'h0;                            // exact zero or below 2^-62: +0
    end else if (re >= 9'd127) begin
      y_o = {c_sign, 7'h7F, 16'h0};           // at or above 2^64: +-inf
    end else begin
      y_o = {c_sign, re[6:0], norm[19:4]};
    end
  end

  // norm[20] is the leading one, norm[3:0] zeros below the mantissa: dropped by design.
  logic unused_bits;
  assign unused_bits = ^{norm[20], norm[3:0]};

endmodule : pica_f24_add_p
