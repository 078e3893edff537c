// pica_tev_combine: one channel of a combine mode on operands a, b, c, bit-exact with
// `pica_model::tev::combine_channel` (model/src/tev.rs; seed 002 GPUREG_TEXENVi_COMBINER):
//
//   REPLACE       a
//   MODULATE      a*b / 255
//   ADD           min(a + b, 255)
//   ADD_SIGNED    clamp(a + b - 128, 0, 255)
//   INTERPOLATE   (a*c + b*(255 - c)) / 255
//   SUBTRACT      max(a - b, 0)
//   MULTIPLY_ADD  min((a*b + 255*c) / 255, 255)
//   ADD_MULTIPLY  min(a + b, 255)*c / 255
//   DOT3_RGB/RGBA 0 (ALPHA_DOT3: the RGB half takes DOT3 from pica_tev_dot3)
//   10-15         0 (RESERVED_COMBINE)
//
// Division truncates. UNVERIFIED(hw): the formulas are Azahar `sw_texturing.cpp` (see the
// model).
//
// One multiplier per channel: every mode needs at most one product once INTERPOLATE is
// rewritten as 255*b + (a - b)*c (equal to a*c + b*(255 - c) for every a, b, c), so the mode
// (configuration, constant while a fragment is in flight) picks its operands x, y and an addend
// 255*k:
//
//   MODULATE       x = a,           y = b, k = 0
//   MULTIPLY_ADD   x = a,           y = b, k = c   floor((a*b + 255*c)/255) = floor(a*b/255) + c
//   INTERPOLATE    x = a - b (+/-), y = c, k = b
//   ADD_MULTIPLY   x = min(a+b,255), y = c, k = 0
//   DOT3 (dot3_i)  x = m(a),        y = m(b)       (pica_tev_dot3's magnitudes; it rounds and
//                                                   sums the three channels' products, prod_o)
//
// and the result is floor(t / 255) of t = x*y + 255*k, saturated at 255 (only MULTIPLY_ADD
// reaches t >= 255*256). The divider: floor(t / 255) = (t + (t >> 8) + 1) >> 8 for every
// t <= 65534 (checked exhaustively), and a t at or above 65280 = 255*256 saturates before it is
// used. Why: the earlier four products per channel (a*b, a*c, b*(255-c), (a+b)*c) made TEV 114
// multipliers of the LFE5U-85F's 156 once registered, and the router did not converge
// (docs/src/rtl.md); one per channel is 24 for the six stages.
//
// Three clocks, each register loading when en_i: (1) the sums, the modes without a product
// (REPLACE, ADD, ADD_SIGNED, SUBTRACT: `direct`) and the multiplier's operands; (2) the product
// and 255*k; (3) the sum, the divide, the saturation and the mode select into y_o, so y_o
// belongs to the operands of two clocks before (prod_o and neg_o to those of one clock before
// that: registered in the second clock). mode_i and dot3_i are read in every clock (they are
// configuration).
module pica_tev_combine (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic [3:0]  mode_i,
  input  logic        dot3_i,   // this channel computes its DOT3 product (an RGB channel in a
                                // DOT3 mode); y_o is then unused
  input  logic [7:0]  a_i,
  input  logic [7:0]  b_i,
  input  logic [7:0]  c_i,
  output logic [7:0]  y_o,
  output logic [15:0] prod_o,   // DOT3: m(a)*m(b), registered in the second clock
  output logic        neg_o     // DOT3: the signs of a and b differ
);

  localparam logic [3:0] Replace     = pica_regs_pkg::TEXENV_COMBINER_MODE_REPLACE;
  localparam logic [3:0] Modulate    = pica_regs_pkg::TEXENV_COMBINER_MODE_MODULATE;
  localparam logic [3:0] Add         = pica_regs_pkg::TEXENV_COMBINER_MODE_ADD;
  localparam logic [3:0] AddSigned   = pica_regs_pkg::TEXENV_COMBINER_MODE_ADD_SIGNED;
  localparam logic [3:0] Interpolate = pica_regs_pkg::TEXENV_COMBINER_MODE_INTERPOLATE;
  localparam logic [3:0] Subtract    = pica_regs_pkg::TEXENV_COMBINER_MODE_SUBTRACT;
  localparam logic [3:0] MulAdd      = pica_regs_pkg::TEXENV_COMBINER_MODE_MULTIPLY_THEN_ADD;
  localparam logic [3:0] AddMul      = pica_regs_pkg::TEXENV_COMBINER_MODE_ADD_THEN_MULTIPLY;

  // UNVERIFIED(hw): 128, the 8-bit 0.5 of ADD_SIGNED — model ADD_SIGNED_BIAS (Azahar).
  localparam logic [8:0] AddSignedBias = 9'd128;
  // UNVERIFIED(hw): 0 for DOT3 modes in a single channel and reserved modes 10-15 — model
  // ALPHA_DOT3 / RESERVED_COMBINE (Azahar AlphaCombine / ColorCombine default).
  localparam logic [7:0] ReservedCombine = 8'd0;
  // 255*256: the smallest t whose quotient exceeds 255.
  localparam logic [16:0] SatFrom = 17'd65280;

  // The modes whose result is the product path's.
  logic use_prod;
  assign use_prod = (mode_i == Modulate) || (mode_i == Interpolate) || (mode_i == MulAdd)
                 || (mode_i == AddMul);

  // First clock: the sums, the direct modes, the multiplier's operands.
  logic [8:0]        sum;
  logic [7:0]        sum_sat;
  logic [7:0]        direct_d, direct_q, direct2_q;
  logic signed [8:0] x_d, x_q;
  logic [7:0]        y_d, y_q, k_d, k_q;
  logic              neg_d, neg_q;

  always_comb begin
    sum     = {1'b0, a_i} + {1'b0, b_i};
    sum_sat = sum[8] ? 8'd255 : sum[7:0];
    unique case (mode_i)
      Replace:   direct_d = a_i;
      Add:       direct_d = sum_sat;
      AddSigned: direct_d = (sum < AddSignedBias) ? 8'd0
                          : (sum - AddSignedBias > 9'd255) ? 8'd255 : 8'(sum - AddSignedBias);
      Subtract:  direct_d = (a_i > b_i) ? a_i - b_i : 8'd0;
      default:   direct_d = ReservedCombine;
    endcase
    x_d = '0;
    y_d = '0;
    k_d = '0;
    if (dot3_i) begin
      // pica_tev_dot3: m(v) = {v[6:0] ^ {7{~v[7]}}, v[7]}, |2v - 255| in one's complement.
      x_d = $signed({1'b0, a_i[6:0] ^ {7{~a_i[7]}}, a_i[7]});
      y_d = {b_i[6:0] ^ {7{~b_i[7]}}, b_i[7]};
    end else begin
      unique case (mode_i)
        Modulate: begin
          x_d = $signed({1'b0, a_i});
          y_d = b_i;
        end
        MulAdd: begin
          x_d = $signed({1'b0, a_i});
          y_d = b_i;
          k_d = c_i;
        end
        Interpolate: begin
          x_d = $signed({1'b0, a_i}) - $signed({1'b0, b_i});
          y_d = c_i;
          k_d = b_i;
        end
        AddMul: begin
          x_d = $signed({1'b0, sum_sat});
          y_d = c_i;
        end
        default: ;
      endcase
    end
    neg_d = a_i[7] ^ b_i[7];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      direct_q <= '0;
      x_q      <= '0;
      y_q      <= '0;
      k_q      <= '0;
      neg_q    <= 1'b0;
    end else if (en_i) begin
      direct_q <= direct_d;
      x_q      <= x_d;
      y_q      <= y_d;
      k_q      <= k_d;
      neg_q    <= neg_d;
    end
  end

  // Second clock: the product (|x*y| <= 255*255) and 255*k.
  logic signed [17:0] prod_d, prod_q;
  logic [15:0]        kk_d, kk_q;
  assign prod_d = x_q * $signed({1'b0, y_q});
  assign kk_d   = {k_q, 8'd0} - {8'd0, k_q};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prod_q    <= '0;
      kk_q      <= '0;
      direct2_q <= '0;
      neg_o     <= 1'b0;
    end else if (en_i) begin
      prod_q    <= prod_d;
      kk_q      <= kk_d;
      direct2_q <= direct_q;
      neg_o     <= neg_q;
    end
  end

  // DOT3's product is never negative (both magnitudes are).
  assign prod_o = prod_q[15:0];

  // Third clock: t = x*y + 255*k in [0, 2*255*255], the divide, the saturation, the select.
  // Only t's low 17 bits are read: it is never negative and below 2^17.
  /* verilator lint_off UNUSEDSIGNAL */
  logic signed [17:0] t_s;
  logic [17:0]        q;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [16:0]        t;
  logic [7:0]         prod_res;

  always_comb begin
    t_s      = prod_q + $signed({2'b00, kk_q});
    t        = t_s[16:0];
    q        = {1'b0, t} + {9'd0, t[16:8]} + 18'd1;
    prod_res = (t >= SatFrom) ? 8'd255 : q[15:8];
    y_o      = use_prod ? prod_res : direct2_q;
  end

endmodule : pica_tev_combine
