// pica_f24_to_fix12p4_p: pica_f24_to_fix12p4 (rast::setup::to_fix12p4, a window coordinate to
// signed 12.4, rounded halves away from zero and saturated) cut into two clocked steps, for the
// rasterizer's input:
//   1  classification (NaN / zero / subnormal, saturation) and the alignment shift
//   2  the rounding add, the range test, the negation and the result select
// y_o belongs to the a_i presented two clocks with en_i earlier (a register behind each step).
// pica_f24_to_fix12p4 stays the reference (formal/fix12p4_p.ys proves the two equal); the
// UNVERIFIED(hw) range and rounding are its (and the model's) choices.
module pica_f24_to_fix12p4_p (
  input  logic        clk_i,
  input  logic        en_i,      // the registers load when set
  input  logic [23:0] a_i,
  output logic [15:0] y_o        // signed 12.4
);

  localparam logic [15:0] FixMax = 16'h7FFF;
  localparam logic [15:0] FixMin = 16'h8000;

  // ---- 1
  logic [6:0]  e;
  logic [16:0] s;
  logic [6:0]  r;
  logic [33:0] sh;               // {S, 17 zeros} >> r: integer part at [33:17], half at [16]

  assign e  = a_i[22:16];
  assign s  = {1'b1, a_i[15:0]};
  assign r  = 7'd75 - e;         // meaningful for 1 <= e < 75
  assign sh = (r > 7'd18) ? 34'h0 : ({s, 17'h0} >> r);

  // 1 -> 2: {zero (NaN, zero, subnormal), sat, sign, sh[33:16]}
  logic        r_zero, r_sat, r_sign;
  logic [17:0] r_sh;
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      r_zero <= (e == 7'h7F && a_i[15:0] != 16'h0) || e == 7'd0;
      r_sat  <= (e == 7'h7F) || (e >= 7'd75);
      r_sign <= a_i[23];
      r_sh   <= sh[33:16];
    end
  end

  // ---- 2
  logic [16:0] mag;              // rounded magnitude, <= 2^16
  logic [15:0] y_d;
  assign mag = r_sh[17:1] + {16'h0, r_sh[0]};

  always_comb begin
    if (r_zero) begin
      y_d = 16'h0;
    end else if (r_sat) begin
      y_d = r_sign ? FixMin : FixMax;
    end else if (r_sign) begin
      y_d = (mag > 17'h0_8000) ? FixMin : 16'(17'h0 - mag);
    end else begin
      y_d = (mag > 17'h0_7FFF) ? FixMax : mag[15:0];
    end
  end

  always_ff @(posedge clk_i) begin
    if (en_i) y_o <= y_d;
  end

  // Bits below the half are dropped by the rounding.
  logic unused_bits;
  assign unused_bits = ^sh[15:0];

endmodule : pica_f24_to_fix12p4_p
