// alu_miter: pica_sh_alu (the shader unit's arithmetic pipeline) against pica_sh_alu_ref (the
// same function from the combinational reference units) on free operands, a free pre_i, a free
// en_i and an opcode chosen by Family:
//   0 any opcode (all 64)        1 ADD         2 MUL         3 MAD/MADI (0x30-0x3F)
//   4 DP3          5 DP4         6 DPH/DPHI    7 DST/DSTI    8 LITP        9 FLR
//   10 MAX/MIN     11 every other opcode (the pass-through of pre_i)
// A family fixes the opcode bits it can (constants: Yosys then removes the other opcodes' logic
// from both designs, which leaves the solver two copies of one function), and leaves free only
// the bits that choose inside the family. So every instruction in flight belongs to the same
// family: control taken from the wrong pipeline slot between two families is not covered here
// (docs/src/formal.md: what covers it).
//
// Timing: the reference's operands pass a register like pica_sh_alu's input register R0 (the
// same enable, the same zero start), so that its multipliers see exactly the signals the
// pipeline's multipliers see and the solver can merge the two (proving two different 17x17
// multiplier circuits equal is out of reach of SAT); its result then waits Latency - 1 further
// enabled clocks. The assertion compares y_o with that once Latency enabled clocks have passed.
module alu_miter #(
  parameter bit MaxNegInf = 1'b0,
  parameter bit MulReg    = 1'b1,
  parameter bit AddRegA   = 1'b1,
  parameter bit AddRegB   = 1'b1,
  parameter int Family    = 0,
  parameter bit EnFree    = 1'b1   // 0: en_i tied to 1 (the pipeline never stalls)
) (
  input logic        clk_i,
  input logic        en_i,
  input logic [5:0]  op_i,
  input logic [95:0] a_i,
  input logic [95:0] b_i,
  input logic [95:0] c_i,
  input logic [95:0] pre_i
);

  localparam int L = 1 + int'(MulReg) + 1 + 3 * (int'(AddRegA) + int'(AddRegB) + 1);

  logic [5:0] op;
  always_comb begin
    unique case (Family)
      1:       op = 6'h00;
      2:       op = 6'h08;
      3:       op = {2'b11, op_i[3:0]};
      4:       op = 6'h01;
      5:       op = 6'h02;
      6:       op = op_i[0] ? 6'h18 : 6'h03;
      7:       op = op_i[0] ? 6'h19 : 6'h04;
      8:       op = 6'h07;
      9:       op = 6'h0B;
      10:      op = op_i[0] ? 6'h0D : 6'h0C;
      default: op = op_i;
    endcase
  end

  // Family 11: the opcodes whose result is pre_i.
  logic computed;
  assign computed = op[5:4] == 2'b11 || op == 6'h00 || op == 6'h01 || op == 6'h02 ||
                    op == 6'h03 || op == 6'h04 || op == 6'h07 || op == 6'h08 || op == 6'h0B ||
                    op == 6'h0C || op == 6'h0D || op == 6'h18 || op == 6'h19;
  always_comb begin
    if (Family == 11) assume (!computed);
  end

  logic [95:0] y_dut;
  logic en;
  assign en = EnFree ? en_i : 1'b1;

  // The comparator flags as the unit computes them for MIN, MAX and LITP (pica_shader_unit.sv:
  // LITP compares x and w with zero; flush only for SGE/SLT, whose result is pre_i).
  logic [95:0] cmp_b;
  logic [3:0]  c_lt, c_gt, c_eq;
  assign cmp_b = (op == 6'h07) ? {24'h0, b_i[24 +: 48], 24'h0} : b_i;
  for (genvar l = 0; l < 4; l++) begin : g_cmp
    pica_f24_cmp u_cmp (.a_i(a_i[l*24 +: 24]), .b_i(cmp_b[l*24 +: 24]), .flush_i(1'b0),
                        .lt_o(c_lt[l]), .eq_o(c_eq[l]), .gt_o(c_gt[l]));
  end

  pica_sh_alu #(
    .MaxNegInf(MaxNegInf), .MulReg(MulReg), .AddRegA(AddRegA), .AddRegB(AddRegB)
  ) u_dut (
    .clk_i, .en_i(en), .op_i(op), .a_i, .b_i, .c_i, .pre_i, .lt_i(c_lt), .gt_i(c_gt),
    .y_o(y_dut)
  );

  // The reference, behind its copy of R0.
  logic [5:0]  op0;
  logic [95:0] a0, b0, c0, pre0, y_ref, y_exp;
  always_ff @(posedge clk_i) begin
    if (en) begin
      op0  <= op;
      a0   <= a_i;
      b0   <= b_i;
      c0   <= c_i;
      pre0 <= pre_i;
    end
  end
  pica_sh_alu_ref #(.MaxNegInf(MaxNegInf)) u_ref (
    .op_i(op0), .a_i(a0), .b_i(b0), .c_i(c0), .pre_i(pre0), .y_o(y_ref)
  );
  pica_formal_delay #(.W(96), .L(L - 1)) u_dly (
    .clk_i, .en_i(en), .d_i(y_ref), .q_o(y_exp), .vld_o()
  );
  logic vld;
  pica_formal_delay #(.W(1), .L(L)) u_vld (
    .clk_i, .en_i(en), .d_i(1'b1), .q_o(), .vld_o(vld)
  );

  always_comb begin
    if (vld) assert (y_dut == y_exp);
  end

endmodule : alu_miter
