// pica_alu_mc_top: the multi-cycle f24 units behind one start / done handshake, the Verilated
// `sfu` model of `pica alu-check` and tests/alu.rs (not part of any stage top). Each unit is
// checked here on its own, on all 2^24 inputs, against the combinational module it replaces
// (issue 36 item 4: the unary operations exhaustively), without evaluating its stage.
//
//   op_i 0-3  pica_sh_sfu: the shader unit's RCP, RSQ, EX2, LG2 (`rcp_sfu` ... `lg2_sfu`)
//   op_i 4    pica_f24_rcp_mc with the clipper's configuration (`rcp_clip`): the reciprocal
//             of pica_clip's perspective division, against pica_f24_rcp
//   op_i 5    pica_f24_div_p (`div_rast`): pica_rast's pipelined division a_i / b_i, against
//             pica_f24_div (`div`); its operands are zero on every other clock, so a result
//             taken a clock early or late is wrong
//   op_i 6    pica_f24_rcp_p with the texture units' configuration (`rcp_tex`): the reciprocal
//             of pica_tex_top's projection and cube maps, against pica_f24_rcp; pipelined,
//             its operand present in the start clock only, like op 5
//
// start_i for one clock with op_i, a_i (and b_i); done_o for one clock with y_o valid.
module pica_alu_mc_top (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,
  input  logic [2:0]  op_i,
  input  logic [23:0] a_i,
  input  logic [23:0] b_i,
  output logic        done_o,
  output logic [23:0] y_o
);

  localparam logic [2:0] OpRcpClip = 3'd4;
  // pica_clip's RcpSteps (pica_clip.sv): the configuration the clipper instantiates.
  localparam int ClipRcpSteps = 2;
  // pica_f24_rcp_mc: the quotient is complete 16 / Steps clocks after the start clock's edge.
  localparam int ClipRcpClocks = 16 / ClipRcpSteps;
  localparam logic [2:0] OpDivRast = 3'd5;
  // pica_f24_div_p: the quotient is there 6 clocks after the operands (6 steps, a register
  // behind each).
  localparam int DivClocks = 6;
  localparam logic [2:0] OpRcpTex = 3'd6;
  // pica_tex_top's RcpSteps: 2 quotient bits a stage, 8 stages.
  localparam int TexRcpSteps = 2;
  localparam int TexRcpClocks = 16 / TexRcpSteps;

  logic        sfu_start, sfu_done, rc_start;
  logic [23:0] sfu_y, rc_y;
  /* verilator lint_off UNUSEDSIGNAL */
  logic        sfu_busy;
  /* verilator lint_on UNUSEDSIGNAL */

  assign sfu_start = start_i && !op_i[2];
  assign rc_start  = start_i && (op_i == OpRcpClip);

  pica_sh_sfu u_sfu (
    .clk_i, .rst_ni, .start_i(sfu_start), .op_i(op_i[1:0]), .a_i,
    .busy_o(sfu_busy), .done_o(sfu_done), .y_o(sfu_y)
  );

  pica_f24_rcp_mc #(.Steps(ClipRcpSteps)) u_rcp_clip (
    .clk_i, .rst_ni, .start_i(rc_start), .a_i, .y_o(rc_y)
  );

  // The reciprocal has no done: count its clocks.
  logic       rc_run_q;
  logic [4:0] rc_n_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rc_run_q <= 1'b0;
      rc_n_q   <= '0;
    end else if (rc_start) begin
      rc_run_q <= 1'b1;
      rc_n_q   <= 5'(ClipRcpClocks);
    end else if (rc_run_q) begin
      if (rc_n_q == 5'd0) rc_run_q <= 1'b0;
      else rc_n_q <= rc_n_q - 5'd1;
    end
  end

  // The pipelined divider sees the operands in the start clock only.
  logic        dv_start;
  logic [23:0] dv_a, dv_b, dv_y;
  assign dv_start = start_i && (op_i == OpDivRast);
  assign dv_a     = dv_start ? a_i : 24'h0;
  assign dv_b     = dv_start ? b_i : 24'h0;
  pica_f24_div_p u_div_rast (.clk_i, .en_i(1'b1), .a_i(dv_a), .b_i(dv_b), .y_o(dv_y));

  // Its done: a one-hot run of DivClocks clocks from the start.
  logic [DivClocks-1:0] dv_sr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) dv_sr_q <= '0;
    else dv_sr_q <= {dv_sr_q[DivClocks-2:0], dv_start};
  end

  // The texture units' pipelined reciprocal, the same way.
  logic        tr_start;
  logic [23:0] tr_a, tr_y;
  assign tr_start = start_i && (op_i == OpRcpTex);
  assign tr_a     = tr_start ? a_i : 24'h0;
  pica_f24_rcp_p #(.Steps(TexRcpSteps)) u_rcp_tex (
    .clk_i, .en_i(1'b1), .a_i(tr_a), .y_o(tr_y)
  );
  logic [TexRcpClocks-1:0] tr_sr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) tr_sr_q <= '0;
    else tr_sr_q <= {tr_sr_q[TexRcpClocks-2:0], tr_start};
  end
  assign done_o = sfu_done || (rc_run_q && rc_n_q == 5'd0) || dv_sr_q[DivClocks-1]
               || tr_sr_q[TexRcpClocks-1];
  assign y_o    = dv_sr_q[DivClocks-1] ? dv_y
                : tr_sr_q[TexRcpClocks-1] ? tr_y
                : ((rc_run_q && rc_n_q == 5'd0) ? rc_y : sfu_y);

endmodule : pica_alu_mc_top
