// pica_f24_rcp_p: f24 1/x as pica_f24_rcp computes it (bit-exact with alu::rcp), pipelined:
// the quotient floor(2^33 / S) by restoring division, Steps quotient bits a stage, for the
// texture units' set-up, which takes a fragment a clock (issue 38: the one-clock reciprocal,
// 17 subtract-and-select steps, was on the set-up's −129 ns paths at an estimated 6.7 MHz).
//
// As in pica_f24_rcp_mc: only the quotient's low 16 bits are used (S = 2^16 has its own
// result; for S > 2^16 the quotient lies in (2^16, 2^17)), so the division starts after bit 16
// with the remainder 2^17 − S and takes 16 more bits: 16 / Steps stages, each behind a
// register. y_o belongs to the operand presented 16 / Steps clocks with en_i earlier; the
// special values (zero exponent, NaN, infinities, over- and underflow) ride along with the
// operand. pica_f24_rcp stays the reference.
module pica_f24_rcp_p #(
  parameter int Steps = 2               // quotient bits a stage; divides 16
) (
  input  logic        clk_i,
  input  logic        en_i,             // the registers load when set (the pipeline moves)
  input  logic [23:0] a_i,
  output logic [23:0] y_o
);

  localparam int Stages = 16 / Steps;

  // Stage k's operand, remainder and quotient bits so far (the newest at bit 0), behind its
  // register, word k of a flat vector; word 0 is the input side. Flat: Icarus 11 does not
  // update a continuous read of an unpacked array's word assigned in a generate loop
  // (pica_delay.sv), and Yosys 0.23 (the mutant netlists) reads no multi-dimensional packed
  // array.
  logic [(Stages+1)*24-1:0] a_q;
  logic [(Stages+1)*17-1:0] rem_q;
  logic [(Stages+1)*16-1:0] q_q;
  assign a_q[23:0]   = a_i;
  assign rem_q[16:0] = 17'(18'h2_0000 - {2'b01, a_i[15:0]});  // 2^17 − S
  assign q_q[15:0]   = '0;

  // Steps restoring-division steps on (remainder, quotient) by the divisor s: a function,
  // not an always_comb loop (rtl/README.md "A rule for Icarus").
  function automatic logic [32:0] divide(input logic [16:0] rem, input logic [15:0] q,
                                         input logic [16:0] s);
    logic [17:0] r;
    logic [16:0] rm;
    logic [15:0] qq;
    rm = rem;
    qq = q;
    for (int i = 0; i < Steps; i++) begin
      r = {rm, 1'b0};
      if (r >= {1'b0, s}) begin
        rm = 17'(r - {1'b0, s});
        qq = {qq[14:0], 1'b1};
      end else begin
        rm = r[16:0];
        qq = {qq[14:0], 1'b0};
      end
    end
    divide = {rm, qq};
  endfunction

  for (genvar k = 0; k < Stages; k++) begin : g_stage
    logic [16:0] rem_d;
    logic [15:0] q_d;
    assign {rem_d, q_d} = divide(rem_q[17*k +: 17], q_q[16*k +: 16], {1'b1, a_q[24*k +: 16]});
    logic [23:0] a_r;
    logic [16:0] rem_r;
    logic [15:0] q_r;
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        a_r   <= a_q[24*k +: 24];
        rem_r <= rem_d;
        q_r   <= q_d;
      end
    end
    assign a_q[24*(k+1) +: 24]   = a_r;
    assign rem_q[17*(k+1) +: 17] = rem_r;
    assign q_q[16*(k+1) +: 16]   = q_r;
  end

  // The result, as pica_f24_rcp selects it.
  logic [23:0] a;
  logic [15:0] q;
  logic [6:0]  e;
  logic [7:0]  re;             // signed
  assign a  = a_q[24*Stages +: 24];
  assign q  = q_q[16*Stages +: 16];
  assign e  = a[22:16];
  assign re = (a[15:0] == 16'h0) ? (8'd126 - {1'b0, e}) : (8'd125 - {1'b0, e});

  always_comb begin
    if (e == 7'd0) begin
      y_o = 24'h7F0000;                        // rcp(+-0), flushed subnormals: +inf
    end else if (e == 7'h7F) begin
      y_o = (a[15:0] != 16'h0) ? 24'h7F8000 : 24'h0;  // NaN; rcp(+-inf) = +0
    end else if (re[7] || re == 8'd0) begin
      y_o = 24'h0;
    end else if (a[15:0] == 16'h0) begin
      y_o = {a[23], re[6:0], 16'h0};
    end else begin
      y_o = {a[23], re[6:0], q};
    end
  end

  logic unused;
  assign unused = ^{rem_q[17*Stages +: 17]};

endmodule : pica_f24_rcp_p
