// pica_tev_dot3: the DOT3_RGB / DOT3_RGBA value of two RGB operands, bit-exact with
// `pica_model::tev::dot3` (model/src/tev.rs):
//
//   clamp(sum over r, g, b of ((2a - 255)(2b - 255) + 128) / 256, 0, 255)
//
// each division truncating toward zero (C / Rust integer division of a possibly negative
// product). Kept in its own module because the model's formula is expected to change (a later
// issue replaces it): swapping this file is the whole RTL side of that change.
//
// UNVERIFIED(hw): the formula is Azahar `sw_texturing.cpp` `ColorCombine` ("Not fully
// accurate. Worst case scenario seems to yield a +/-3 error"), as the model documents.
//
// Ports: three 8-bit channels packed r | g << 8 | b << 16 (channel i at [8*i +: 8]).
module pica_tev_dot3 (
  input  logic [23:0] a_i,
  input  logic [23:0] b_i,
  output logic [7:0]  y_o
);

  // One term: 2a - 255 is in [-255, 255] (10 signed bits); the product is in [-65025, 65025]
  // and + 128 fits 20 signed bits; the quotient by 256 is in [-254, 254].
  logic signed [9:0]  da   [3];
  logic signed [9:0]  db   [3];
  logic signed [19:0] prod [3];
  logic        [15:0] mag  [3];   // |prod| <= 65153
  logic signed [9:0]  quot [3];
  logic signed [11:0] sum;

  always_comb begin
    sum = '0;
    for (int i = 0; i < 3; i++) begin
      da[i]   = $signed({1'b0, a_i[8*i +: 8], 1'b0}) - 10'sd255;
      db[i]   = $signed({1'b0, b_i[8*i +: 8], 1'b0}) - 10'sd255;
      prod[i] = 20'(da[i] * db[i]) + 20'sd128;
      // Truncation toward zero: divide the magnitude, restore the sign.
      mag[i]  = prod[i][19] ? 16'(-prod[i]) : 16'(prod[i]);
      quot[i] = $signed({2'b00, mag[i][15:8]});
      if (prod[i][19]) quot[i] = -quot[i];
      sum     = sum + 12'(quot[i]);
    end
    if (sum < 0)             y_o = 8'd0;
    else if (sum > 12'sd255) y_o = 8'd255;
    else                     y_o = sum[7:0];
  end

endmodule : pica_tev_dot3
