// pica_tev_dot3: the DOT3_RGB / DOT3_RGBA value of two RGB operands, bit-exact with
// `pica_model::tev::dot3` (model/src/tev.rs), which fits every point of the hardware table
// ../shared/hw-data/dot3-rgb.tsv (real 3DS, 1,792 points). Per channel:
//
//   d(x) = {~x[7], x[6:0], 1}            9-bit 2x - 255, read as ONE's complement:
//   s(x) = ~x[7]                         sign
//   m(x) = {x[6:0] ^ {7{~x[7]}}, x[7]}   magnitude: x >= 128 ? 2x - 255 : 254 - 2x
//   p    = m(a) * m(b)                   8 x 8 unsigned
//   q    = (p + 128 + ((p + 128) >> 8)) >> 8       round(p / 255), exact for p < 2^16
//   term = s(a) ^ s(b) ? ~q : q          one's-complement negation: ~q = -q - 1
//
// then clamp(term_r + term_g + term_b, 0, 255).
//
// UNVERIFIED(hw): a term with differing signs is measured at one point only (p = 0 -> -1);
// see the model's doc comment.
//
// Where it is computed: the magnitudes and the 8x8 products in the RGB channels' multipliers
// (pica_tev_combine with dot3_i: x = m(a), y = m(b), registered in its second clock, prod_o and
// neg_o), so DOT3 costs no multiplier of its own; this module is the third clock's part: the
// rounding, the one's-complement negation, the sum and the clamp, combinational.
//
// Ports: channel i's product and sign at prod_i[16*i +: 16], neg_i[i].
module pica_tev_dot3 (
  input  logic [47:0] prod_i,
  input  logic [2:0]  neg_i,
  output logic [7:0]  y_o
);

  logic [16:0]        pr   [3];   // prod + 128 <= 65153
  logic [16:0]        qw   [3];   // pr + (pr >> 8) <= 65407
  logic [7:0]         q    [3];   // round(prod / 255) <= 255
  logic signed [9:0]  term [3];   // q or -q - 1: [-256, 255]
  logic signed [11:0] sum;        // [-768, 765]

  always_comb begin
    sum = '0;
    for (int i = 0; i < 3; i++) begin
      pr[i]   = {1'b0, prod_i[16*i +: 16]} + 17'd128;
      qw[i]   = pr[i] + (pr[i] >> 8);
      q[i]    = qw[i][15:8];
      term[i] = neg_i[i] ? ~$signed({2'b00, q[i]}) : $signed({2'b00, q[i]});
      sum     = sum + 12'(term[i]);
    end
    if (sum < 0)             y_o = 8'd0;
    else if (sum > 12'sd255) y_o = 8'd255;
    else                     y_o = sum[7:0];
  end

endmodule : pica_tev_dot3
