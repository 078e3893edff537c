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
// Ports: three 8-bit channels packed r | g << 8 | b << 16 (channel i at [8*i +: 8]).
//
// Two clocks, like pica_tev_combine: the products and signs are registered when en_i; the
// rounding, the sum and the clamp work from them, so y_o belongs to the operands of the clock
// before.
module pica_tev_dot3 (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic [23:0] a_i,
  input  logic [23:0] b_i,
  output logic [7:0]  y_o
);

  logic [7:0]         ma   [3];
  logic [7:0]         mb   [3];
  logic               neg_d [3];
  logic [15:0]        prod_d [3];
  logic               neg  [3];
  logic [15:0]        prod [3];   // <= 255 * 255 = 65025
  logic [16:0]        pr   [3];   // prod + 128 <= 65153
  logic [16:0]        qw   [3];   // pr + (pr >> 8) <= 65407
  logic [7:0]         q    [3];   // round(prod / 255) <= 255
  logic signed [9:0]  term [3];   // q or -q - 1: [-256, 255]
  logic signed [11:0] sum;        // [-768, 765]

  // First clock: magnitudes, signs, products.
  always_comb begin
    for (int i = 0; i < 3; i++) begin
      ma[i]     = {a_i[8*i +: 7] ^ {7{~a_i[8*i+7]}}, a_i[8*i+7]};
      mb[i]     = {b_i[8*i +: 7] ^ {7{~b_i[8*i+7]}}, b_i[8*i+7]};
      neg_d[i]  = a_i[8*i+7] ^ b_i[8*i+7];
      prod_d[i] = 16'(ma[i]) * 16'(mb[i]);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < 3; i++) begin
        neg[i]  <= 1'b0;
        prod[i] <= '0;
      end
    end else if (en_i) begin
      for (int i = 0; i < 3; i++) begin
        neg[i]  <= neg_d[i];
        prod[i] <= prod_d[i];
      end
    end
  end

  // Second clock: rounding, sum, clamp.
  always_comb begin
    sum = '0;
    for (int i = 0; i < 3; i++) begin
      pr[i]   = {1'b0, prod[i]} + 17'd128;
      qw[i]   = pr[i] + (pr[i] >> 8);
      q[i]    = qw[i][15:8];
      term[i] = neg[i] ? ~$signed({2'b00, q[i]}) : $signed({2'b00, q[i]});
      sum     = sum + 12'(term[i]);
    end
    if (sum < 0)             y_o = 8'd0;
    else if (sum > 12'sd255) y_o = 8'd255;
    else                     y_o = sum[7:0];
  end

endmodule : pica_tev_dot3
