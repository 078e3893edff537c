// pica_f24_div_p: f24 a / b as pica_f24_div computes it (bit-exact with rast::interp::div),
// pipelined for the rasterizer: the 18-bit integer quotient Q = floor(Sa * 2^17 / Sb) by
// restoring division, three quotient bits per clock in six clocked steps, then the exponent and
// the result select (combinational behind the sixth register):
//   1      flush, special values, sign and exponent difference; quotient bits 17-15
//   2 - 6  quotient bits 14-12, ..., 2-0
//   out    Q >= 2^17 ? (Q[16:1], exponent + 1) : Q[15:0]; zero, underflow, overflow, specials
// y_o belongs to the operands presented 6 clocks with en_i earlier. pica_f24_div stays the
// reference (see its header for the rule): `pica alu-check --op div_rast` compares the two
// through the model, rtl-bridge/tests/alu.rs samples it.
//
// Restoring division: r starts at Sa (< 2^17 < 2 Sb); bit 17 is Sa >= Sb, and each further
// bit doubles the remainder (r < Sb, so 2r < 2^18) and subtracts Sb when it fits. After the
// 18 bits r = Sa * 2^17 - Q * Sb lies in [0, Sb): Q is the floor, the model's truncation.
module pica_f24_div_p (
  input  logic        clk_i,
  input  logic        en_i,    // the registers load when set (the pipeline moves)
  input  logic [23:0] a_i,
  input  logic [23:0] b_i,
  output logic [23:0] y_o
);

  localparam logic [23:0] NaN = 24'h7F8000;
  localparam int Steps = 6;

  // One quotient bit: {the bit, the new remainder} from the remainder r (already doubled by
  // the caller) and the divisor sb.
  function automatic logic [17:0] qbit(input logic [17:0] r, input logic [16:0] sb);
    // t[17] is 0 when the subtraction fits (t < sb < 2^17).
    /* verilator lint_off UNUSEDSIGNAL */
    logic [18:0] t;
    /* verilator lint_on UNUSEDSIGNAL */
    t = {1'b0, r} - {2'b00, sb};
    qbit = t[18] ? {1'b0, r[16:0]} : {1'b1, t[16:0]};
  endfunction

  // ---- 1: operands, special values
  logic [23:0] a, b;
  logic        a_nan, b_nan, a_inf, b_inf, a_zero, b_zero;
  logic [1:0]  cls;            // 0 finite, 1 NaN, 2 +-inf, 3 +0
  logic [8:0]  re0;            // Ea - Eb + 62, two's complement

  assign a = (a_i[22:16] == 7'd0) ? 24'h0 : a_i;
  assign b = (b_i[22:16] == 7'd0) ? 24'h0 : b_i;
  assign a_nan  = (a[22:16] == 7'h7F) && (a[15:0] != 16'h0);
  assign b_nan  = (b[22:16] == 7'h7F) && (b[15:0] != 16'h0);
  assign a_inf  = (a[22:16] == 7'h7F) && (a[15:0] == 16'h0);
  assign b_inf  = (b[22:16] == 7'h7F) && (b[15:0] == 16'h0);
  assign a_zero = (a[22:16] == 7'd0);
  assign b_zero = (b[22:16] == 7'd0);
  assign cls = (a_nan || b_nan || (a_inf && b_inf) || (a_zero && b_zero)) ? 2'd1
             : (a_inf || b_zero) ? 2'd2
             : (a_zero || b_inf) ? 2'd3 : 2'd0;
  assign re0 = {2'b00, a[22:16]} - {2'b00, b[22:16]} + 9'd62;

  // The step registers, step k (0-based) at [W*k +: W] of the flat vectors: {cls, sign, re0,
  // the divisor's mantissa} ride along; the remainder and the quotient bits so far (3k + 3).
  localparam int WC = 2 + 1 + 9 + 16;
  logic [Steps*WC-1:0] s_c;
  logic [Steps*17-1:0] s_r;
  logic [Steps*18-1:0] s_q;

  for (genvar k = 0; k < Steps; k++) begin : g_step
    logic [WC-1:0] c_in;
    logic [16:0]   sb;
    logic [17:0]   r2, q_in, b0, b1, b2;
    if (k == 0) begin : g_first
      assign c_in = {cls, a[23] ^ b[23], re0, b[15:0]};
      // Bit 17 compares Sa itself (not doubled) with Sb.
      assign r2   = {1'b0, 1'b1, a[15:0]};
      assign q_in = 18'h0;
    end else begin : g_next
      assign c_in = s_c[WC*(k-1) +: WC];
      assign r2   = {s_r[17*(k-1) +: 17], 1'b0};
      assign q_in = s_q[18*(k-1) +: 18];
    end
    assign sb = {1'b1, c_in[15:0]};
    assign b0 = qbit(r2, sb);
    assign b1 = qbit({b0[16:0], 1'b0}, sb);
    assign b2 = qbit({b1[16:0], 1'b0}, sb);

    always_ff @(posedge clk_i) begin
      if (en_i) begin
        s_c[WC*k +: WC] <= c_in;
        s_r[17*k +: 17] <= b2[16:0];
        s_q[18*k +: 18] <= {q_in[14:0], b0[17], b1[17], b2[17]};
      end
    end

    // The quotient bits before step k are zero there (shifted out of the top at k = 0 too).
    logic unused_q;
    assign unused_q = ^q_in[17:15];
  end

  // ---- out
  logic [17:0] q;
  logic [8:0]  re;
  logic [15:0] man;
  logic        sign;
  logic [1:0]  o_cls;
  logic [8:0]  o_re;
  logic [15:0] o_sbm;
  assign q    = s_q[18*(Steps-1) +: 18];
  assign {o_cls, sign, o_re, o_sbm} = s_c[WC*(Steps-1) +: WC];
  assign re   = o_re + {8'h0, q[17]};
  assign man  = q[17] ? q[16:1] : q[15:0];

  always_comb begin
    unique case (o_cls)
      2'd1: y_o = NaN;
      2'd2: y_o = {sign, 7'h7F, 16'h0};
      2'd3: y_o = 24'h0;
      default: begin
        if (re[8] || re == 9'd0) y_o = 24'h0;              // below 2^-62: +0
        else if (re >= 9'd127) y_o = {sign, 7'h7F, 16'h0};  // at or above 2^64: +-inf
        else y_o = {sign, re[6:0], man};
      end
    endcase
  end

  // The final remainder and the last step's divisor are not needed.
  logic unused_bits;
  assign unused_bits = ^{s_r[17*(Steps-1) +: 17], o_sbm};

endmodule : pica_f24_div_p
