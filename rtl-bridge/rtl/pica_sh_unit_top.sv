// pica_sh_unit_top: the stage top of one shader unit for stage-level co-verification: the unit
// (pica_shader_unit) with its own code (4096 x 32), operand-descriptor (128 x 32) and
// float-uniform (96 x 96) RAMs, each with a write port to load it. In the 4-unit stage these
// RAMs belong to the register file (pica_regs); here the testbench fills them.
//
// Every other port is the unit's (see pica_shader_unit.sv and rtl/README.md); the parameters
// are the model's Knobs with the model's defaults.
module pica_sh_unit_top #(
  parameter bit MaxNegInf      = 1'b0,
  parameter bit Cmp67True      = 1'b1,
  parameter bit CmpUsesMask    = 1'b0,
  parameter bit IntZSigned     = 1'b0,
  parameter bit PcOverflowWrap = 1'b0,
  parameter bit UnknownOpNop   = 1'b0,
  parameter bit LoopAlRestore  = 1'b0,
  parameter bit MovFlush       = 1'b0,
  parameter bit LoopEndAll     = 1'b0
) (
  input  logic          clk_i,
  input  logic          rst_ni,

  // Memory load ports (one word per cycle each; uniforms: lane 0 = x in bits 23:0).
  input  logic          code_we_i,
  input  logic [11:0]   code_waddr_i,
  input  logic [31:0]   code_wdata_i,
  input  logic          desc_we_i,
  input  logic [6:0]    desc_waddr_i,
  input  logic [31:0]   desc_wdata_i,
  input  logic          unif_we_i,
  input  logic [6:0]    unif_waddr_i,     // writes to 96-127 are dropped
  input  logic [95:0]   unif_wdata_i,

  input  logic [127:0]  int_uniforms_i,   // i_n at [n*32 +: 32]: x | y << 8 | z << 16 | w << 24
  input  logic [15:0]   bool_uniforms_i,

  input  logic          in_we_i,
  input  logic [3:0]    in_idx_i,
  input  logic [95:0]   in_data_i,

  input  logic          start_i,
  input  logic [11:0]   entry_i,
  // Holds the unit's pipeline for the clock, as pica_sh does when its commit queue is full or
  // unit 3 copies an EMIT: the harness drives random stalls so the single-unit fuzzer
  // exercises the held pipeline the SH stage produces (tie 0 for none).
  input  logic          stall_i,
  output logic          busy_o,
  output logic          done_o,
  output logic          hang_o,
  output logic [2:0]    hang_code_o,

  output logic          commit_valid_o,
  output logic [11:0]   commit_pc_o,
  output logic [31:0]   commit_word_o,
  output logic [7:0]    commit_dst_o,
  output logic [3:0]    commit_mask_o,
  output logic [95:0]   commit_result_o,
  output logic [1:0]    commit_cmp_o,
  output logic [31:0]   commit_a0x_o,
  output logic [31:0]   commit_a0y_o,
  output logic [31:0]   commit_al_o,
  output logic [12:0]   commit_next_pc_o,
  output logic          commit_emit_o,
  output logic [2:0]    commit_hang_o,
  output logic          commit_end_o,

  output logic          emit_valid_o,
  output logic [1:0]    emit_vtx_id_o,
  output logic          emit_winding_o,
  output logic          emit_prim_o,

  input  logic          o_rd_sel_i,
  input  logic [3:0]    o_rd_idx_i,
  output logic [95:0]   o_rd_data_o
);

  // PICA_SH_KNOBS_ALT (a test build): every knob takes the other value than its parameter, so
  // one extra Verilated model checks the non-default side of every knob against the model.
`ifdef PICA_SH_KNOBS_ALT
  localparam bit AltKnobs = 1'b1;
`else
  localparam bit AltKnobs = 1'b0;
`endif

  logic        code_req, desc_req, unif_req;
  logic [11:0] code_addr;
  logic [6:0]  desc_addr, unif_addr;
  logic [31:0] code_rdata, desc_rdata;
  logic [95:0] unif_rdata;

  pica_ram #(.Width(32), .Depth(4096)) u_code (
    .clk_i, .we_i(code_we_i), .waddr_i(code_waddr_i), .wdata_i(code_wdata_i),
    .re_i(code_req), .raddr_i(code_addr), .rdata_o(code_rdata)
  );
  pica_ram #(.Width(32), .Depth(128)) u_desc (
    .clk_i, .we_i(desc_we_i), .waddr_i(desc_waddr_i), .wdata_i(desc_wdata_i),
    .re_i(desc_req), .raddr_i(desc_addr), .rdata_o(desc_rdata)
  );
  pica_ram #(.Width(96), .Depth(96)) u_unif (
    .clk_i, .we_i(unif_we_i && unif_waddr_i < 7'd96), .waddr_i(unif_waddr_i),
    .wdata_i(unif_wdata_i), .re_i(unif_req), .raddr_i(unif_addr), .rdata_o(unif_rdata)
  );

  pica_shader_unit #(
    .MaxNegInf(MaxNegInf ^ AltKnobs), .Cmp67True(Cmp67True ^ AltKnobs),
    .CmpUsesMask(CmpUsesMask ^ AltKnobs), .IntZSigned(IntZSigned ^ AltKnobs),
    .PcOverflowWrap(PcOverflowWrap ^ AltKnobs), .UnknownOpNop(UnknownOpNop ^ AltKnobs),
    .LoopAlRestore(LoopAlRestore ^ AltKnobs), .MovFlush(MovFlush ^ AltKnobs),
    .LoopEndAll(LoopEndAll ^ AltKnobs)
  ) u_unit (
    .clk_i, .rst_ni,
    .start_i, .entry_i, .busy_o, .done_o, .hang_o, .hang_code_o, .stall_i,
    .int_uniforms_i, .bool_uniforms_i,
    .in_we_i, .in_idx_i, .in_data_i,
    .code_req_o(code_req), .code_addr_o(code_addr), .code_rdata_i(code_rdata),
    .desc_req_o(desc_req), .desc_addr_o(desc_addr), .desc_rdata_i(desc_rdata),
    .unif_req_o(unif_req), .unif_addr_o(unif_addr), .unif_rdata_i(unif_rdata),
    .commit_valid_o, .commit_pc_o, .commit_word_o, .commit_dst_o, .commit_mask_o,
    .commit_result_o, .commit_cmp_o, .commit_a0x_o, .commit_a0y_o, .commit_al_o,
    .commit_next_pc_o, .commit_emit_o, .commit_hang_o, .commit_end_o,
    .emit_valid_o, .emit_vtx_id_o, .emit_winding_o, .emit_prim_o,
    .o_rd_sel_i, .o_rd_idx_i, .o_rd_data_o
  );

endmodule : pica_sh_unit_top
