// pica_sh_sfu: the shader unit's special-function unit (RCP, RSQ, EX2, LG2), multi-cycle,
// bit-exact with the combinational reference modules pica_f24_rcp / _rsq / _ex2 / _lg2 (and so
// with alu::rcp / rsq / ex2 / lg2 of model/src/shader/alu.rs): the same algorithms, one step
// per clock instead of unrolled (issue 36: the unrolled EX2 / LG2 chains alone cost about
// 27,000 LUT6 and 1,050 DSP48E1 per unit under Yosys synth_xilinx).
//
//   RCP  floor(2^33 / S) by restoring division, one quotient bit per clock (18 clocks);
//   RSQ  the largest Q with Q^2 * S' <= 2^50, one bit per clock from bit 17 down, with
//        Q^2 * S' and Q * S' kept incrementally so that each step is two additions and a
//        compare, no multiplier (18 clocks): with A = q^2 S', U = 2^(i+1) q S', T = 2^(2i) S'
//        at bit i, (q + 2^i)^2 S' = A + U + T; taking the bit adds 2T to U; then U halves and T
//        quarters (both exact: U = 2^(i+1) * integer, T = 2^(2i) * S');
//   EX2  the model's fixed-point product chain (t = f * ln2, t^2, up to 20 products by the
//        roots 2^(2^-k), one product by 1 + t + t^2/2): one product at a time;
//   LG2  the model's 60 squarings, one at a time.
// Products: one 32 x 32 -> 64 multiplier (four DSP48E1 or MULT18X18 tiles); a 64 x 64
// product takes five clocks (the limb products x_lo y_lo, x_lo y_hi, x_hi y_lo, x_hi y_hi,
// one per clock into a register, each added into a 128-bit accumulator at its weight the
// clock after: the multiplier and the 128-bit add in one clock were the unit's critical path
// on the ECP5), so every truncated product of the reference (`mul_shr62`, tl, tt) is a bit
// range of the exact product. EX2's operand shift (x = 1.m 2^(e-63) in fixed point) and LG2's
// normalization are one left shifter stepping 8 or 1 bits a clock (sh_q) instead of a barrel
// shifter, a leading-one search and a two-way shifter. done_o is high in the 21st clock after
// the start clock for RCP and RSQ, at most the 177th for EX2 (up to 15 clocks of shifting,
// then every root taken), the 380th for LG2 (6 clocks per squaring, then up to 17 of
// normalization), the 3rd for an RCP, RSQ or LG2 input whose result is a special value (zero
// exponent, NaN, infinities), for an EX2 one one clock later plus its shift clocks.
//
// Handshake: start_i (any state; a running operation is abandoned) latches op_i and a_i;
// done_o is high for one clock when y_o holds the result, which stays until the next start.
module pica_sh_sfu (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,
  input  logic [1:0]  op_i,     // SfuRcp, SfuRsq, SfuEx2, SfuLg2 below
  input  logic [23:0] a_i,
  output logic        busy_o,
  output logic        done_o,
  output logic [23:0] y_o
);

  localparam logic [1:0] SfuRcp = 2'd0, SfuRsq = 2'd1, SfuEx2 = 2'd2, SfuLg2 = 2'd3;

  // EX2 constants (EX2_ROOTS / EX2_LN2 of alu.rs; the same as pica_f24_ex2).
  localparam logic [62:0] One = 63'h4000_0000_0000_0000;
  localparam logic [61:0] Ln2 = 62'h2c5c_85fd_f473_de6a;
  localparam logic [22:0] TinyNegMax = {7'd9, 16'd29012};

  function automatic logic [62:0] root(input logic [4:0] k);
    case (k)
      5'd1 : root = 63'h5a82_7999_fcef_3242;
      5'd2 : root = 63'h4c1b_f828_c6dc_54b7;
      5'd3 : root = 63'h45ca_e0f1_f545_eb73;
      5'd4 : root = 63'h42d5_61b3_e624_3d8a;
      5'd5 : root = 63'h4166_c34c_5615_d0eb;
      5'd6 : root = 63'h40b2_68f9_de01_83b9;
      5'd7 : root = 63'h4058_f6a7_eccc_d5b6;
      5'd8 : root = 63'h402c_6be9_6af2_fb58;
      5'd9 : root = 63'h4016_321b_6870_27a8;
      5'd10: root = 63'h400b_1817_8ba3_3b14;
      5'd11: root = 63'h4005_8bce_4101_47e8;
      5'd12: root = 63'h4002_c5d7_bff7_1dae;
      5'd13: root = 63'h4001_62e8_07ee_7e5b;
      5'd14: root = 63'h4000_b173_0df6_a524;
      5'd15: root = 63'h4000_58b9_497b_8151;
      5'd16: root = 63'h4000_2c5c_955d_d701;
      5'd17: root = 63'h4000_162e_46d6_f26b;
      5'd18: root = 63'h4000_0b17_2275_7b1b;
      5'd19: root = 63'h4000_058b_90fd_3e0c;
      5'd20: root = 63'h4000_02c5_c86f_3f26;
      default: root = One;
    endcase
  endfunction

  typedef enum logic [3:0] {
    StIdle  = 4'd0,
    StBegin = 4'd1,  // special values finish here; otherwise the op's first step
    StDiv   = 4'd2,  // RCP: one quotient bit per clock
    StRsq   = 4'd3,  // RSQ: one root bit per clock
    StMul   = 4'd4,  // a product in the multiplier (EX2, LG2)
    StNext  = 4'd5,  // EX2 / LG2: take the product, start the next one or finish
    StRoot  = 4'd6,  // EX2: root k's product if f has its bit, else the next k
    StFinal = 4'd7,  // the result from the op's state
    StShift = 4'd8,  // EX2, before StBegin: x's fixed-point value shifted into place
    StLgAbs = 4'd9,  // LG2: |log2| into the shifter
    StNorm  = 4'd10  // LG2: |log2| shifted left until its leading one is at the top
  } state_e;

  // EX2 phases of StNext: which product just finished.
  localparam logic [1:0] PhTl = 2'd0, PhTt = 2'd1, PhRoot = 2'd2, PhLast = 2'd3;

  state_e      state_q;
  logic [1:0]  op_q;
  logic [23:0] a_q;
  logic        done_q;
  logic [23:0] y_q;
  // RCP / RSQ: the quotient or root bits so far and the step counter.
  logic [17:0] q_q;
  logic [4:0]  n_q;
  logic [16:0] rem_q;      // RCP partial remainder (< S < 2^17)
  logic [56:0] ra_q, ru_q, rt_q;  // RSQ: A, U, T
  // EX2 / LG2.
  logic [59:0] bits_q;     // LG2: the fraction bits of log2(1.m) so far
  logic [5:0]  it_q;       // LG2: squarings left
  logic [62:0] p_q;        // EX2: P
  logic [62:0] qx_q;       // EX2: 1 + t + t^2 / 2
  logic [41:0] t_q;        // EX2: t
  logic [4:0]  k_q;        // EX2: the next root index (1-20)
  logic [1:0]  ph_q;       // EX2: the product in the multiplier
  // Multiplier: operands, limb counter (0-3 while running), 128-bit accumulator.
  logic [63:0] mx_q, my_q;
  logic [1:0]  mk_q;
  logic        mrun_q;
  logic [63:0] mp_q;       // the limb product of the clock before, its limb, and whether
  logic [1:0]  pk_q;       // it is still to be added
  logic        pv_q;
  logic [127:0] acc_q;
  // EX2 / LG2: a left shifter that takes 8 or 1 bit per clock (the 88-bit shift of EX2's
  // operand and LG2's normalization were a barrel shifter and a leading-one search with a
  // two-way shifter, about 640 LUT6). EX2: the operand's fixed-point value (fx below); LG2:
  // |log2| normalized, its leading one at bit 67, sn_q the leading one's position.
  logic [87:0] sh_q;
  logic [6:0]  sn_q;       // EX2: shifts left; LG2: the leading one's position

  // ---------------------------------------------------------------------------------------
  // Operand decode (of the latched operand).
  logic [6:0]  e;
  logic [7:0]  eu;         // RSQ: E - 63, signed
  logic [7:0]  rk;         // RSQ: floor((E - 63) / 2), signed
  logic [17:0] sp;         // RSQ: S'
  logic [16:0] s;          // RCP: 1.m
  logic [7:0]  rcp_re;     // RCP: biased result exponent, signed
  logic [87:0] fx;         // EX2: x in fixed point, 78 fraction bits, two's complement
  logic [9:0]  ex_i;       // EX2: floor(x)
  logic [77:0] ex_f;       // EX2: frac(x)
  logic [9:0]  ex_be;      // EX2: biased result exponent
  logic        nan_in;

  assign e      = a_q[22:16];
  assign nan_in = (e == 7'h7F) && (a_q[15:0] != 16'h0);
  assign eu     = {1'b0, e} - 8'd63;
  assign rk     = {eu[7], eu[7:1]};
  assign sp     = eu[0] ? {1'b1, a_q[15:0], 1'b0} : {1'b0, 1'b1, a_q[15:0]};
  assign s      = {1'b1, a_q[15:0]};
  assign rcp_re = (a_q[15:0] == 16'h0) ? (8'd126 - {1'b0, e}) : (8'd125 - {1'b0, e});
  assign fx     = sh_q;     // (-1.m) 2^(e-1) is -(1.m 2^(e-1)): negated before the shift
  assign ex_i   = fx[87:78];
  assign ex_f   = fx[77:0];
  assign ex_be  = ex_i + 10'd63;

  // Inputs whose result needs no iteration (the constant arms of the reference modules).
  logic early;
  always_comb begin
    unique case (op_q)
      SfuRcp: early = (e == 7'd0) || (e == 7'h7F) || rcp_re[7] || (rcp_re == 8'd0) ||
                      (a_q[15:0] == 16'h0);
      SfuRsq: early = (e == 7'd0) || (e == 7'h7F) || a_q[23];
      SfuEx2: early = (e == 7'd0) || (e >= 7'd69) || (a_q[23] && a_q[22:0] <= TinyNegMax) ||
                      ex_be[9] || (ex_be == 10'd0);
      default: early = (e == 7'd0) || (e == 7'h7F) || a_q[23];  // LG2
    endcase
  end

  // ---------------------------------------------------------------------------------------
  // The multiplier: limb k multiplies x_lo/x_hi by y_lo/y_hi (k = 0: lo lo, 1: lo hi,
  // 2: hi lo, 3: hi hi) into mp_q; the clock after, mp_q is added at weight
  // 2^(32 * (k[0] + k[1])).
  logic [31:0]  mul_a, mul_b;
  logic [63:0]  mul_p;
  logic [127:0] mul_term;
  assign mul_a    = mk_q[1] ? mx_q[63:32] : mx_q[31:0];
  assign mul_b    = mk_q[0] ? my_q[63:32] : my_q[31:0];
  assign mul_p    = 64'(mul_a) * 64'(mul_b);
  assign mul_term = (pk_q == 2'd0) ? {64'h0, mp_q} :
                    (pk_q == 2'd3) ? {mp_q, 64'h0} : {32'h0, mp_q, 32'h0};

  // The reference's truncated products, as bit ranges of the exact product.
  logic [63:0] sq;  // LG2: (y * y) >> 62
  assign sq = acc_q[125:62];

  // ---------------------------------------------------------------------------------------
  // Results (the arms of the reference modules).
  logic [67:0] lg_l, lg_mag;
  logic        lg_zero;
  assign lg_l    = {8'({1'b0, e}) - 8'd63, 60'h0} + 68'(bits_q);
  assign lg_mag  = lg_l[67] ? (68'h0 - lg_l) : lg_l;
  assign lg_zero = (lg_l == 68'h0);

  logic [7:0] rsq_re;
  assign rsq_re = q_q[17] ? (8'd63 - rk) : (8'd62 - rk);

  logic [23:0] y_rcp, y_rsq, y_ex2, y_lg2, y_d;
  always_comb begin
    if (e == 7'd0) y_rcp = 24'h7F0000;
    else if (e == 7'h7F) y_rcp = nan_in ? 24'h7F8000 : 24'h0;
    else if (rcp_re[7] || rcp_re == 8'd0) y_rcp = 24'h0;
    else if (a_q[15:0] == 16'h0) y_rcp = {a_q[23], rcp_re[6:0], 16'h0};
    else y_rcp = {a_q[23], rcp_re[6:0], q_q[15:0]};
  end
  always_comb begin
    if (e == 7'd0) y_rsq = 24'h7F0000;
    else if (nan_in || a_q[23]) y_rsq = 24'h7F8000;
    else if (e == 7'h7F) y_rsq = 24'h0;
    else y_rsq = {1'b0, rsq_re[6:0], q_q[17] ? 16'h0 : q_q[15:0]};
  end
  always_comb begin
    if (e == 7'd0) y_ex2 = 24'h3F0000;
    else if (nan_in) y_ex2 = 24'h7F8000;
    else if (e >= 7'd69) y_ex2 = a_q[23] ? 24'h0 : 24'h7F0000;
    else if (a_q[23] && a_q[22:0] <= TinyNegMax) y_ex2 = 24'h3F0000;
    else if (ex_be[9] || ex_be == 10'd0) y_ex2 = 24'h0;
    else y_ex2 = {1'b0, ex_be[6:0], p_q[61:46]};
  end
  always_comb begin
    if (e == 7'd0) y_lg2 = 24'hFF0000;
    else if (nan_in || a_q[23]) y_lg2 = 24'h7F8000;
    else if (e == 7'h7F) y_lg2 = 24'h7F0000;
    else if (lg_zero) y_lg2 = 24'h0;
    else y_lg2 = {lg_l[67], 7'(sn_q + 7'd3), sh_q[66:51]};
  end
  always_comb begin
    unique case (op_q)
      SfuRcp:  y_d = y_rcp;
      SfuRsq:  y_d = y_rsq;
      SfuEx2:  y_d = y_ex2;
      default: y_d = y_lg2;
    endcase
  end

  // ---------------------------------------------------------------------------------------
  // RCP and RSQ steps.
  logic [17:0] div_r;      // remainder shifted in
  logic        div_take;
  assign div_r    = {rem_q, 1'b0};
  assign div_take = div_r >= {1'b0, s};

  logic [56:0] rsq_x;
  logic        rsq_take;
  assign rsq_x    = ra_q + ru_q + rt_q;
  assign rsq_take = rsq_x <= 57'h4_0000_0000_0000;

  // EX2: f's bit for root k (2^-k); k_q = 21 once every root was looked at.
  logic ex_bit;
  assign ex_bit = (k_q != 5'd21) && ex_f[7'd78 - 7'(k_q)];

  // ---------------------------------------------------------------------------------------
  // Control.
  logic        go;          // start a product of go_x and go_y
  logic [63:0] go_x, go_y;
  always_comb begin
    go = 1'b0;
    go_x = 64'h0;
    go_y = 64'h0;
    unique case (state_q)
      StBegin: begin
        if (!early && op_q == SfuEx2) begin
          go = 1'b1;                               // tl = f[57:0] * ln2
          go_x = 64'(ex_f[57:0]);
          go_y = 64'(Ln2);
        end else if (!early && op_q == SfuLg2) begin
          go = 1'b1;                               // the first squaring, of y = 1.m
          go_x = {1'b0, 1'b1, a_q[15:0], 46'h0};
          go_y = go_x;
        end
      end
      StNext: begin
        if (op_q == SfuLg2 && it_q != 6'd1) begin
          go = 1'b1;                               // the next squaring (y halved if >= 2)
          go_x = sq[63] ? {1'b0, sq[63:1]} : {1'b0, sq[62:0]};
          go_y = go_x;
        end else if (op_q == SfuEx2 && ph_q == PhTl) begin
          go = 1'b1;                               // tt = t * t
          go_x = 64'(acc_q[119:78]);
          go_y = go_x;
        end
      end
      StRoot: begin
        go = ex_bit || (k_q == 5'd21);
        go_x = {1'b0, p_q};
        go_y = {1'b0, (k_q == 5'd21) ? qx_q : root(k_q)};  // P * 2^(2^-k), or P * q
      end
      default: ;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      op_q <= SfuRcp;
      a_q <= '0;
      done_q <= 1'b0;
      y_q <= '0;
      q_q <= '0;
      n_q <= '0;
      rem_q <= '0;
      ra_q <= '0;
      ru_q <= '0;
      rt_q <= '0;
      bits_q <= '0;
      it_q <= '0;
      p_q <= '0;
      qx_q <= '0;
      t_q <= '0;
      k_q <= '0;
      ph_q <= PhTl;
      mx_q <= '0;
      my_q <= '0;
      mk_q <= '0;
      mrun_q <= 1'b0;
      mp_q <= '0;
      pk_q <= '0;
      pv_q <= 1'b0;
      acc_q <= '0;
      sh_q <= '0;
      sn_q <= '0;
    end else begin
      done_q <= 1'b0;
      // The multiplier: latched operands, then four limb products, each added into the
      // accumulator the clock after it. A product only starts once the last one is complete
      // (StNext or StRoot, or StBegin after a start), so no limb is pending on `go`.
      pv_q <= 1'b0;
      if (go) begin
        mx_q <= go_x;
        my_q <= go_y;
        mk_q <= 2'd0;
        mrun_q <= 1'b1;
        acc_q <= '0;
      end else begin
        if (mrun_q) begin
          mp_q <= mul_p;
          pk_q <= mk_q;
          pv_q <= 1'b1;
          mk_q <= mk_q + 2'd1;
          if (mk_q == 2'd3) mrun_q <= 1'b0;
        end
        if (pv_q) acc_q <= acc_q + mul_term;
      end
      if (start_i) begin
        state_q <= (op_i == SfuEx2) ? StShift : StBegin;
        op_q <= op_i;
        a_q <= a_i;
        mrun_q <= 1'b0;
        pv_q <= 1'b0;
        sh_q <= 88'($signed(a_i[23] ? (18'h0 - {2'b01, a_i[15:0]}) : {2'b01, a_i[15:0]}));
        // e - 1 shifts for the exponents EX2 iterates on (1-68); none for the others, which
        // StBegin finishes early.
        sn_q <= (a_i[22:16] != 7'd0 && a_i[22:16] < 7'd69) ? (a_i[22:16] - 7'd1) : 7'd0;
      end else begin
        unique case (state_q)
          StBegin: begin
            if (early) begin
              state_q <= StFinal;
            end else begin
              unique case (op_q)
                SfuRcp: begin
                  rem_q <= 17'h8000;  // 2^33 >> 18: the dividend above the quotient's 18 bits
                  q_q <= '0;
                  n_q <= 5'd18;
                  state_q <= StDiv;
                end
                SfuRsq: begin
                  ra_q <= '0;
                  ru_q <= '0;
                  rt_q <= 57'(sp) << 34;
                  q_q <= '0;
                  n_q <= 5'd18;
                  state_q <= StRsq;
                end
                SfuEx2: begin
                  ph_q <= PhTl;
                  p_q <= One;
                  k_q <= 5'd1;
                  state_q <= StMul;
                end
                default: begin  // LG2
                  bits_q <= '0;
                  it_q <= 6'd60;
                  state_q <= StMul;
                end
              endcase
            end
          end
          StDiv: begin
            rem_q <= div_take ? 17'(div_r - {1'b0, s}) : div_r[16:0];
            q_q <= {q_q[16:0], div_take};
            n_q <= n_q - 5'd1;
            if (n_q == 5'd1) state_q <= StFinal;
          end
          StRsq: begin
            if (rsq_take) begin
              ra_q <= rsq_x;
              ru_q <= (ru_q + {rt_q[55:0], 1'b0}) >> 1;
            end else begin
              ru_q <= ru_q >> 1;
            end
            rt_q <= rt_q >> 2;
            q_q <= {q_q[16:0], rsq_take};
            n_q <= n_q - 5'd1;
            if (n_q == 5'd1) state_q <= StFinal;
          end
          StShift: begin
            if (sn_q >= 7'd8) begin
              sh_q <= {sh_q[79:0], 8'h0};
              sn_q <= sn_q - 7'd8;
            end else if (sn_q != 7'd0) begin
              sh_q <= {sh_q[86:0], 1'b0};
              sn_q <= sn_q - 7'd1;
            end else begin
              state_q <= StBegin;
            end
          end
          StLgAbs: begin
            sh_q <= {20'h0, lg_mag};
            sn_q <= 7'd67;
            state_q <= StNorm;
          end
          StNorm: begin
            if (lg_zero || sh_q[67]) begin
              state_q <= StFinal;
            end else if (sh_q[67:60] == 8'h0) begin
              sh_q <= {sh_q[79:0], 8'h0};
              sn_q <= sn_q - 7'd8;
            end else begin
              sh_q <= {sh_q[86:0], 1'b0};
              sn_q <= sn_q - 7'd1;
            end
          end
          StMul: begin
            // The last limb is added in this clock: the product is complete in StNext.
            if (pv_q && pk_q == 2'd3) state_q <= StNext;
          end
          StNext: begin
            if (op_q == SfuLg2) begin
              bits_q <= {bits_q[58:0], sq[63]};
              it_q <= it_q - 6'd1;
              state_q <= (it_q == 6'd1) ? StLgAbs : StMul;
            end else begin
              unique case (ph_q)
                PhTl: begin
                  t_q <= acc_q[119:78];
                  ph_q <= PhTt;
                  state_q <= StMul;
                end
                PhTt: begin
                  qx_q <= One + 63'(t_q) + 63'(acc_q[83:63]);
                  state_q <= StRoot;
                end
                PhRoot: begin
                  p_q <= acc_q[124:62];
                  state_q <= StRoot;
                end
                default: begin  // PhLast
                  p_q <= acc_q[124:62];
                  state_q <= StFinal;
                end
              endcase
            end
          end
          StRoot: begin
            if (k_q == 5'd21) begin
              ph_q <= PhLast;
              state_q <= StMul;
            end else begin
              k_q <= k_q + 5'd1;
              if (ex_bit) begin
                ph_q <= PhRoot;
                state_q <= StMul;
              end
            end
          end
          StFinal: begin
            y_q <= y_d;
            done_q <= 1'b1;
            state_q <= StIdle;
          end
          default: ;
        endcase
      end
    end
  end

  assign busy_o = (state_q != StIdle);
  assign done_o = done_q;
  assign y_o    = y_q;

  // t_q's top bits and the products' unused ends are truncated away by design.
  logic unused_bits;
  assign unused_bits = ^{acc_q[127:126], acc_q[61:0], ex_i[9:7], ex_be[8:7], rsq_re[7],
                         q_q[16], t_q[41], p_q[62], p_q[45:0]};

endmodule : pica_sh_sfu
