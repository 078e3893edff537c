// pica_fop_penumbra: the shadow-map penumbra intensity, bit-exact with
// `pica_model::fop::shadow::penumbra` (model/src/fop/shadow.rs):
//
//   floor(s / (C + L * d / depth)), saturated to 0..255
//
// with C = GPUREG_FRAGOP_SHADOW bits 0-15 and L = bits 16-31 (f16). The model computes it
// exactly on integers: with C = mc * 2^ec, L = ml * 2^el (f16 mantissa with the hidden bit,
// signed; ec, el in -24..5) the divisor times depth * 2^24 is
//   N = mc * depth * 2^(ec + 24) + ml * d * 2^(el + 24)      (|N| < 2^66)
// and the result is floor(s * depth * 2^24 / N) (numerator < 2^56).
//
// Special cases (the model's choices, UNVERIFIED(hw) there):
//   - both finite and N <= 0                                         -> 255
//   - C or L infinite / NaN: 0 when C is finite or +inf and L is finite or +inf with d != 0
//     (the divisor is +inf), otherwise 255 (NaN, -inf, or inf * 0 = NaN)
//   - depth = 0 -> 255 (cannot occur: the caller calls only for d < depth)
//
// Micro-architecture: a restoring divider with 9 quotient bits, one per clock. Bit 8 set
// means q >= 256, which saturates to 255; otherwise the 8 low bits are the exact quotient.
// start_i (one clock) samples the inputs and registers the products (mc * depth, ml * d,
// s * depth) and the f16 classes; the next clock shifts and adds them into N, decides the
// special cases and loads the divider (products, shifts, the 67-bit add and the tests in one
// clock were FOP's worst path, 27.8 ns on the LFE5U-85F, 2026-11-30). done_o drops with
// start_i, rises 2 clocks later for a special case, 11 clocks later otherwise, and stays up
// until the next start_i. The inputs need not be held.
module pica_fop_penumbra (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,
  input  logic [15:0] c_i,       // f16 "penumbra scale + bias" (Azahar shadow.constant)
  input  logic [15:0] l_i,       // f16 "-penumbra scale" (Azahar shadow.linear)
  input  logic [7:0]  s_i,       // fragment intensity
  input  logic [23:0] d_i,       // fragment depth (24 bits)
  input  logic [23:0] depth_i,   // stored depth (24 bits)
  output logic        done_o,
  output logic [7:0]  q_o
);

  localparam int W = 76;         // divider width: N << 8 < 2^74

  // f16 fields.
  logic        c_neg, l_neg, c_fin, l_fin, c_nan, l_nan;
  logic [4:0]  c_exp, l_exp, c_sh, l_sh;
  logic [10:0] c_mag, l_mag;
  logic [34:0] c_prod, l_prod;
  logic [63:0] c_term, l_term;
  // Registered at start_i (the set-up clock reads them).
  logic        c_neg_q, l_neg_q, c_fin_q, l_fin_q, c_nan_q, l_nan_q, dep0_q, d0_q, setup_q;
  logic [4:0]  c_sh_q, l_sh_q;
  logic [34:0] c_prod_q, l_prod_q;
  logic [31:0] sd_q;
  logic [66:0] n;                // signed N
  logic        special;
  logic [7:0]  special_q;
  logic [31:0] sd;               // s * depth
  logic [55:0] num;

  assign c_neg = c_i[15];
  assign l_neg = l_i[15];
  assign c_exp = c_i[14:10];
  assign l_exp = l_i[14:10];
  assign c_fin = (c_exp != 5'h1F);
  assign l_fin = (l_exp != 5'h1F);
  assign c_nan = !c_fin && (c_i[9:0] != 10'd0);
  assign l_nan = !l_fin && (l_i[9:0] != 10'd0);
  // shadow::f16_parts: mantissa with the hidden bit (none for subnormals), exponent e - 25
  // (-24 for subnormals), so the shift exp + 24 is e - 1 (0 for subnormals).
  assign c_mag = (c_exp == 5'd0) ? {1'b0, c_i[9:0]} : {1'b1, c_i[9:0]};
  assign l_mag = (l_exp == 5'd0) ? {1'b0, l_i[9:0]} : {1'b1, l_i[9:0]};
  assign c_sh  = (c_exp == 5'd0) ? 5'd0 : c_exp - 5'd1;
  assign l_sh  = (l_exp == 5'd0) ? 5'd0 : l_exp - 5'd1;
  assign c_prod = c_mag * depth_i;
  assign l_prod = l_mag * d_i;
  assign sd     = s_i * depth_i;
  // The set-up clock, from the registered products and classes.
  assign c_term = {29'd0, c_prod_q} << c_sh_q;
  assign l_term = {29'd0, l_prod_q} << l_sh_q;
  assign n = (c_neg_q ? -{3'd0, c_term} : {3'd0, c_term})
           + (l_neg_q ? -{3'd0, l_term} : {3'd0, l_term});
  assign num = {sd_q, 24'd0};

  logic n_le0, inf_zero;
  assign n_le0 = n[66] || (n == 67'd0);
  // Some C or L infinite / NaN: the divisor is +inf (result 0) iff neither is NaN, neither is
  // -inf, and an infinite L does not meet d = 0 (inf * 0 = NaN).
  assign inf_zero = !c_nan_q && (c_fin_q || !c_neg_q) && !l_nan_q
                    && (l_fin_q || (!l_neg_q && !d0_q));
  assign special   = dep0_q || !(c_fin_q && l_fin_q) || n_le0;
  assign special_q = (!dep0_q && !(c_fin_q && l_fin_q) && inf_zero) ? 8'd0 : 8'd255;

  logic [W-1:0] rem_q, dvs_q;
  logic [8:0]   quo_q;
  logic [3:0]   cnt_q;
  logic         done_q;
  logic         ge;

  assign ge = (rem_q >= dvs_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c_neg_q  <= 1'b0;
      l_neg_q  <= 1'b0;
      c_fin_q  <= 1'b0;
      l_fin_q  <= 1'b0;
      c_nan_q  <= 1'b0;
      l_nan_q  <= 1'b0;
      dep0_q   <= 1'b0;
      d0_q     <= 1'b0;
      c_sh_q   <= '0;
      l_sh_q   <= '0;
      c_prod_q <= '0;
      l_prod_q <= '0;
      sd_q     <= '0;
      setup_q  <= 1'b0;
    end else begin
      setup_q <= start_i;
      if (start_i) begin
        c_neg_q  <= c_neg;
        l_neg_q  <= l_neg;
        c_fin_q  <= c_fin;
        l_fin_q  <= l_fin;
        c_nan_q  <= c_nan;
        l_nan_q  <= l_nan;
        dep0_q   <= (depth_i == 24'd0);
        d0_q     <= (d_i == 24'd0);
        c_sh_q   <= c_sh;
        l_sh_q   <= l_sh;
        c_prod_q <= c_prod;
        l_prod_q <= l_prod;
        sd_q     <= sd;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rem_q  <= '0;
      dvs_q  <= '0;
      quo_q  <= '0;
      cnt_q  <= '0;
      done_q <= 1'b0;
    end else if (start_i) begin
      cnt_q  <= 4'd0;
      done_q <= 1'b0;
    end else if (setup_q) begin
      rem_q <= W'(num);
      dvs_q <= W'(n[65:0]) << 8;
      // A special result is loaded as a quotient: bit 8 set saturates to 255.
      quo_q  <= special ? {special_q == 8'd255, 8'd0} : 9'd0;
      cnt_q  <= special ? 4'd0 : 4'd9;
      done_q <= special;
    end else if (cnt_q != 4'd0) begin
      rem_q  <= ge ? rem_q - dvs_q : rem_q;
      dvs_q  <= dvs_q >> 1;
      quo_q  <= {quo_q[7:0], ge};
      cnt_q  <= cnt_q - 4'd1;
      done_q <= (cnt_q == 4'd1);
    end
  end

  assign done_o = done_q;
  assign q_o    = quo_q[8] ? 8'd255 : quo_q[7:0];

endmodule : pica_fop_penumbra
