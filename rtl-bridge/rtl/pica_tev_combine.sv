// pica_tev_combine: one channel of a non-DOT3 combine mode on operands a, b, c, bit-exact with
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
// model). The divider: floor(x / 255) = (x + (x >> 8) + 1) >> 8 for every x <= 65534 (checked
// exhaustively), and every numerator here is <= 255*255 = 65025 because MULTIPLY_ADD is computed
// as floor(a*b / 255) + c (255*c divides exactly), so no general divider is needed.
//
// Two clocks: the products (and a + b) are registered when en_i, the divides, clamps and the
// mode select work from those registers, so y_o belongs to the operands of the clock before
// (the products and the divides in one clock were most of TEV's critical path). mode_i is
// read in the second clock (it is configuration, constant while a fragment is in flight).
module pica_tev_combine (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       en_i,
  input  logic [3:0] mode_i,
  input  logic [7:0] a_i,
  input  logic [7:0] b_i,
  input  logic [7:0] c_i,
  output logic [7:0] y_o
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

  // floor(x / 255) for x <= 65534.
  function automatic logic [7:0] div255(input logic [15:0] x);
    // Only the quotient bits are read: x + (x >> 8) + 1 <= 65280 has no bit 16 here.
    /* verilator lint_off UNUSEDSIGNAL */
    logic [16:0] t;
    /* verilator lint_on UNUSEDSIGNAL */
    t = {1'b0, x} + {9'd0, x[15:8]} + 17'd1;
    div255 = t[15:8];
  endfunction

  // First clock: a + b and the products.
  logic [8:0]  sum_d, sum;         // a + b
  logic [7:0]  sum_sat_d;          // min(a + b, 255)
  logic [7:0]  c_inv_d;            // 255 - c
  logic [15:0] ab_d, ac_d, bci_d, addmul_d;
  logic [15:0] ab, ac, bci, addmul;
  logic [7:0]  a, b, c;

  always_comb begin
    sum_d     = {1'b0, a_i} + {1'b0, b_i};
    sum_sat_d = sum_d[8] ? 8'd255 : sum_d[7:0];
    ab_d      = a_i * b_i;
    ac_d      = a_i * c_i;
    c_inv_d   = 8'd255 - c_i;
    bci_d     = b_i * c_inv_d;         // b*(255 - c)
    addmul_d  = sum_sat_d * c_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sum    <= '0;
      ab     <= '0;
      ac     <= '0;
      bci    <= '0;
      addmul <= '0;
      a      <= '0;
      b      <= '0;
      c      <= '0;
    end else if (en_i) begin
      sum    <= sum_d;
      ab     <= ab_d;
      ac     <= ac_d;
      bci    <= bci_d;
      addmul <= addmul_d;
      a      <= a_i;
      b      <= b_i;
      c      <= c_i;
    end
  end

  // Second clock: the divides, clamps and the mode select.
  logic [7:0]  sum_sat;
  logic [15:0] interp;
  logic [8:0]  muladd;      // floor(a*b/255) + c <= 509

  always_comb begin
    sum_sat = sum[8] ? 8'd255 : sum[7:0];
    // a*c + b*(255 - c) <= 255*255: a convex combination, fits 16 bits.
    interp  = ac + bci;
    muladd  = {1'b0, div255(ab)} + {1'b0, c};
    unique case (mode_i)
      Replace:     y_o = a;
      Modulate:    y_o = div255(ab);
      Add:         y_o = sum_sat;
      AddSigned:   y_o = (sum < AddSignedBias) ? 8'd0
                       : (sum - AddSignedBias > 9'd255) ? 8'd255 : 8'(sum - AddSignedBias);
      Interpolate: y_o = div255(interp);
      Subtract:    y_o = (a > b) ? a - b : 8'd0;
      MulAdd:      y_o = muladd[8] ? 8'd255 : muladd[7:0];
      AddMul:      y_o = div255(addmul);
      default:     y_o = ReservedCombine;
    endcase
  end

endmodule : pica_tev_combine
