// pica_f24_rcp_mc: f24 1/x as pica_f24_rcp computes it (bit-exact with alu::rcp), multi-cycle:
// the 34/17-bit division floor(2^33 / S) by restoring division, Steps quotient bits per clock
// (the approach of pica_sh_sfu's RCP, which takes one bit a clock). pica_f24_rcp's unrolled
// divider, 17 subtract-and-select steps in one clock, was the clipper's critical path on the
// ECP5 (issue 36: pica_clip placed at an estimated 12.0 MHz).
//
// Only the quotient's low 16 bits are used (pica_f24_rcp: S = 2^16 has its own result; for
// S > 2^16 the quotient lies in (2^16, 2^17), so its bits 17 and 16 are 0 and 1), so the
// division starts after bit 16 with the remainder 2^17 - S (the dividend's bits above 2^16
// are zero: the bit-17 step takes nothing, the bit-16 step takes S once) and takes 16 more bits.
//
// Timing: start_i latches a_i; y_o is the result from the (16 / Steps + 1)-th clock after the
// start clock on (16 / Steps + 1 clocks after it) until the next start. The special values (zero
// exponent, NaN, infinities, over- and underflow) come from the latched operand alone.
module pica_f24_rcp_mc #(
  parameter int Steps = 2               // quotient bits per clock; divides 16
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,
  input  logic [23:0] a_i,
  output logic [23:0] y_o
);

  logic [23:0] a_q;
  logic [16:0] rem_q;         // partial remainder, < S except for S = 2^16 (result unused)
  logic [15:0] q_q;           // quotient bits so far, the newest at bit 0
  logic [4:0]  n_q;           // steps left

  // Steps restoring-division steps on (rem_q, q_q).
  logic [16:0] rem_d;
  logic [15:0] q_d;
  logic [16:0] s;
  always_comb begin
    logic [17:0] r;
    rem_d = rem_q;
    q_d   = q_q;
    for (int i = 0; i < Steps; i++) begin
      r = {rem_d, 1'b0};
      if (r >= {1'b0, s}) begin
        rem_d = 17'(r - {1'b0, s});
        q_d   = {q_d[14:0], 1'b1};
      end else begin
        rem_d = r[16:0];
        q_d   = {q_d[14:0], 1'b0};
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_q   <= '0;
      rem_q <= '0;
      q_q   <= '0;
      n_q   <= '0;
    end else if (start_i) begin
      a_q   <= a_i;
      rem_q <= 17'(18'h2_0000 - {2'b01, a_i[15:0]});  // 2^17 - S
      n_q   <= 5'(16 / Steps);
    end else if (n_q != 5'd0) begin
      rem_q <= rem_d;
      q_q   <= q_d;
      n_q   <= n_q - 5'd1;
    end
  end

  // The result, as pica_f24_rcp selects it.
  logic [6:0] e;
  logic [7:0] re;             // signed
  assign e  = a_q[22:16];
  assign s  = {1'b1, a_q[15:0]};
  assign re = (a_q[15:0] == 16'h0) ? (8'd126 - {1'b0, e}) : (8'd125 - {1'b0, e});

  always_comb begin
    if (e == 7'd0) begin
      y_o = 24'h7F0000;                        // rcp(+-0), flushed subnormals: +inf
    end else if (e == 7'h7F) begin
      y_o = (a_q[15:0] != 16'h0) ? 24'h7F8000 : 24'h0;  // NaN; rcp(+-inf) = +0
    end else if (re[7] || re == 8'd0) begin
      y_o = 24'h0;
    end else if (a_q[15:0] == 16'h0) begin
      y_o = {a_q[23], re[6:0], 16'h0};
    end else begin
      y_o = {a_q[23], re[6:0], q_q};
    end
  end

endmodule : pica_f24_rcp_mc
