// pica_f24_to_fix12p4: a window coordinate (f24, pixels) to signed 12.4 fixed point (1/16-pixel
// units), bit-exact with rast::setup::to_fix12p4 (model/src/rast/setup.rs).
//
// Rule: |x| * 16 = S * 2^(E-75) (S = 1.m as a 17-bit integer) rounded to the nearest integer,
// halves away from zero, then saturated to FixMin ..= FixMax; +-inf saturate; NaN, zeros and
// subnormals (exponent 0) give 0.
//   E >= 75: |x| * 16 >= 2^16, beyond the range: saturates.
//   E <  75: r = 75 - E; r > 18 gives 0 (S < 2^17 < 2^(r-1)), else (S + 2^(r-1)) >> r <= 2^16.
module pica_f24_to_fix12p4 (
  input  logic [23:0] a_i,
  output logic [15:0] y_o        // signed 12.4
);

  // UNVERIFIED(hw): the coordinates are signed 16-bit 12.4 values (-2048.0 ..= 2047.9375) —
  // model setup::FIX_MIN / FIX_MAX (Azahar's Fix12P4 is unsigned 16-bit; a signed range keeps
  // triangles of a viewport at a negative GPUREG_VIEWPORT_XY intact).
  // UNVERIFIED(hw): rounding halves away from zero (Azahar `round(x * 16)`) and NaN -> 0 — model
  // setup::to_fix12p4.
  localparam logic [15:0] FixMax = 16'h7FFF;
  localparam logic [15:0] FixMin = 16'h8000;

  logic [6:0]  e;
  logic [16:0] s;
  logic [6:0]  r;
  logic [33:0] sh;               // {S, 17 zeros} >> r: integer part at [33:17], half at [16]
  logic [16:0] mag;              // rounded magnitude, <= 2^16
  logic        sat;

  assign e   = a_i[22:16];
  assign s   = {1'b1, a_i[15:0]};
  assign r   = 7'd75 - e;        // meaningful for 1 <= e < 75 (1 ..= 74)
  assign sh  = (r > 7'd18) ? 34'h0 : ({s, 17'h0} >> r);
  assign mag = sh[33:17] + {16'h0, sh[16]};
  assign sat = (e == 7'h7F) || (e >= 7'd75);

  always_comb begin
    if ((e == 7'h7F && a_i[15:0] != 16'h0) || e == 7'd0) begin
      y_o = 16'h0;                                  // NaN, zero, subnormal
    end else if (sat) begin
      y_o = a_i[23] ? FixMin : FixMax;
    end else if (a_i[23]) begin
      y_o = (mag > 17'h0_8000) ? FixMin : 16'(17'h0 - mag);
    end else begin
      y_o = (mag > 17'h0_7FFF) ? FixMax : mag[15:0];
    end
  end

  // Bits below the half are dropped by the rounding.
  logic unused_bits;
  assign unused_bits = ^sh[15:0];

endmodule : pica_f24_to_fix12p4
