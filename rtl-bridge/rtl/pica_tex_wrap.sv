// pica_tex_wrap: a texel index wrapped onto an axis of n texels (issue 38, the texture units'
// arithmetic). Bit-exact with pica_model::tex::sample::wrap (model/src/tex/sample.rs):
//   0 clamp to edge      clamp(i, 0, n − 1)
//   1 clamp to border    i in [0, n − 1], else the border colour
//   2 repeat             i mod n (Euclidean)
//   3 mirrored repeat    m = i mod 2n; m < n ? m : 2n − 1 − m
//   4, 5 (reserved)      repeat for i < 0, else clamp to edge (4) or to border (5)
//   6, 7 (reserved)      repeat
// (4-7: UNVERIFIED(hw) [fact: tex-wrap-reserved], Azahar's GetWrappedTexCoord.)
//
// n need not be a power of two (a level's size is any width the registers allow), so the
// remainder is a division: |i| (at most 2^32: texel positions saturate at ±2^40 in 1/256
// units) by n or 2n, one quotient bit per stage — restoring division over 33 registered
// stages, one index a clock, latency 35 clocks (Latency). The clamps and the range test are
// decided as the index enters and travel with it.
//
// Injected bug (rtl-bridge/tests/tex_rtl.rs must catch it):
//   INJECT_TEX_WRAP_MIRROR  mirrored repeat gives 2n − m instead of 2n − 1 − m
module pica_tex_wrap (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               valid_i,
  input  logic [2:0]         mode_i,    // GPUREG_TEXUNITi_PARAM wrap S (12-14) or T (8-10)
  input  logic signed [33:0] i_i,       // texel index
  input  logic [10:0]        n_i,       // texels on the axis, 1-2047 (0 acts as 1)
  output logic               valid_o,
  output logic               border_o,  // the border colour, not a texel
  output logic [10:0]        idx_o      // the texel, 0 .. n − 1
);

  localparam int Bits = 33;              // |i| ≤ 2^32
  localparam int Latency = Bits + 2;     // entry, the stages, the output register

  // ---- entry: what does not need the remainder
  logic [10:0] n;
  logic [11:0] d;                        // the divisor: 2n for mirrored repeat, else n
  logic        neg, in_range, use_rem;
  logic [10:0] clamped;
  logic [32:0] mag;
  assign n        = n_i == 11'd0 ? 11'd1 : n_i;
  assign d        = mode_i == 3'd3 ? {n, 1'b0} : {1'b0, n};
  assign neg      = i_i < 0;
  assign in_range = !neg && i_i < $signed({23'd0, n});
  assign clamped  = neg ? 11'd0 : in_range ? i_i[10:0] : n - 11'd1;
  assign mag      = neg ? 33'(-i_i) : i_i[32:0];
  // The remainder decides the texel for repeat, mirrored repeat and the reserved modes'
  // negative side.
  assign use_rem  = mode_i == 3'd2 || mode_i == 3'd3 || mode_i[2:1] == 2'b11
                 || (mode_i[2:1] == 2'b10 && neg);

  // ---- the division stages: stage k brings in bit Bits−1−k of |i|.
  logic [Bits:0]  v_q;                   // valid per stage (v_q[0] the entry register)
  // Per stage, flat (word k of each vector is stage k's): Icarus 11 does not update a
  // continuous or always_comb read of an unpacked array's word assigned in a generate loop
  // (rtl/README.md "A rule for Icarus"), which left the first index after reset undefined.
  logic [(Bits+1)*12-1:0] r_q;           // partial remainder (< d)
  // The dividend's bits not yet brought in: stage k keeps Bits − k of them (the top one is
  // next), flat at AOff(k), so no register holds a bit that can no longer matter.
  function automatic int AOff(input int k);
    AOff = k * Bits - (k * (k - 1)) / 2;
  endfunction
  logic [AOff(Bits)-1:0] a_q;
  logic [(Bits+1)*12-1:0] d_q;
  logic [(Bits+1)*11-1:0] n_q;
  logic [(Bits+1)*11-1:0] cl_q;
  logic [Bits:0]  neg_q, rng_q, rem_q, mir_q, bord_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v_q <= '0;
    else         v_q <= {v_q[Bits-1:0], valid_i};
  end

  always_ff @(posedge clk_i) begin
    r_q[11:0] <= 12'd0;
    a_q[AOff(0) +: Bits] <= mag;
    d_q[11:0] <= d;
    n_q[10:0] <= n;
    cl_q[10:0] <= clamped;
    neg_q[0]  <= neg;
    rng_q[0]  <= in_range;
    rem_q[0]  <= use_rem;
    mir_q[0]  <= mode_i == 3'd3;
    // Clamp to border (1), and 5 for i ≥ 0: the border when outside.
    bord_q[0] <= mode_i == 3'd1 || (mode_i == 3'd5 && !neg);
  end

  for (genvar k = 0; k < Bits; k++) begin : g_div
    localparam int W = Bits - k;         // stage k's dividend bits
    logic [12:0] t;
    assign t = {r_q[12*k +: 12], a_q[AOff(k) + W - 1]};
    always_ff @(posedge clk_i) begin
      r_q[12*(k+1) +: 12] <= t >= {1'b0, d_q[12*k +: 12]} ? 12'(t - {1'b0, d_q[12*k +: 12]})
                                                            : t[11:0];
      if (W > 1) a_q[AOff(k + 1) +: (W > 1 ? W - 1 : 1)] <= a_q[AOff(k) +: (W > 1 ? W - 1 : 1)];
      d_q[12*(k+1) +: 12]  <= d_q[12*k +: 12];
      n_q[11*(k+1) +: 11]  <= n_q[11*k +: 11];
      cl_q[11*(k+1) +: 11] <= cl_q[11*k +: 11];
      neg_q[k+1]  <= neg_q[k];
      rng_q[k+1]  <= rng_q[k];
      rem_q[k+1]  <= rem_q[k];
      mir_q[k+1]  <= mir_q[k];
      bord_q[k+1] <= bord_q[k];
    end
  end

  // ---- the answer: |i| mod d made Euclidean, then mirrored or chosen.
  logic [11:0] r, m, dd;
  logic [10:0] nn, cl;
  assign r  = r_q[12*Bits +: 12];
  assign dd = d_q[12*Bits +: 12];
  assign nn = n_q[11*Bits +: 11];
  assign cl = cl_q[11*Bits +: 11];
  assign m  = neg_q[Bits] && r != 12'd0 ? dd - r : r;

  logic [10:0] idx;
  always_comb begin
    if (!rem_q[Bits]) begin
      idx = cl;
    end else if (mir_q[Bits] && m >= {1'b0, nn}) begin
`ifdef INJECT_TEX_WRAP_MIRROR
      idx = 11'(dd - m);
`else
      idx = 11'(dd - 12'd1 - m);
`endif
    end else begin
      idx = m[10:0];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_o <= 1'b0;
    end else begin
      valid_o <= v_q[Bits];
    end
  end
  always_ff @(posedge clk_i) begin
    idx_o    <= idx;
    border_o <= bord_q[Bits] && !rng_q[Bits];
  end

  // The latency is the same for every index.
  logic unused;
  assign unused = ^{Latency};

endmodule
