// pica_sh_top: the stage top of the SH stage for stage-level co-verification
// (design.md "Stage-level co-verification"): pica_sh with its configuration write port, vertex
// input, output and commit ports brought out as flat ports (see pica_sh.sv and rtl/README.md
// "pica_sh — the SH stage"). The Verilated `sh_stage*` models (rtl-bridge/src/sh_stage.rs,
// RtlSh) are built from it; the shader unit's INJECT_SH_* defines reach the four units through
// it. The parameters are the model's Knobs with the model's defaults.
module pica_sh_top #(
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

  // Configuration write port.
  input  logic          cfg_valid_i,
  output logic          cfg_ready_o,
  input  logic [1:0]    cfg_bank_i,     // bit 0: VSH bank (units 0-2); bit 1: GSH bank (unit 3)
  input  logic [3:0]    cfg_kind_i,     // CfgCode .. CfgGshMisc1 below
  input  logic [11:0]   cfg_addr_i,     // code word / opdesc / uniform / int-uniform index
  input  logic [95:0]   cfg_data_i,     // uniforms: lane 0 = x at [23:0]; others: [31:0]

  // Vertex input: one attribute per beat, or one marker beat.
  input  logic          in_valid_i,
  output logic          in_ready_o,
  input  logic [1:0]    in_kind_i,      // 0 attribute, 1 Begin marker, 2 GS count marker
  input  logic [31:0]   in_seq_i,       // vertex sequence number (same on every beat)
  input  logic [4:0]    in_attr_i,      // input-buffer attribute index (>= input count: dropped)
  input  logic          in_last_i,      // last beat of the vertex
  input  logic [95:0]   in_data_i,

  // Output: one register per beat.
  output logic          out_valid_o,
  input  logic          out_ready_i,
  output logic [1:0]    out_kind_o,     // 0 VS output register, 1 VS vertex without outputs,
                                        // 2 GS emitted register, 3 GS primitive register
  output logic [31:0]   out_id_o,       // vertex seq (VS) / GS invocation number
  output logic [5:0]    out_reg_o,      // oN; kind 3: vertex k (0-2) * 16 + N
  output logic [95:0]   out_data_o,
  output logic          out_last_o,     // last beat of the item
  output logic [1:0]    out_vtx_id_o,   // GS: SETEMIT vertex id of the EMIT
  output logic          out_winding_o,  // GS: winding flag
  output logic          out_prim_o,     // GS: the EMIT emitted a primitive (kind 3 beats follow)

  // Commit trace: one retired instruction per beat.
  output logic          commit_valid_o,
  input  logic          commit_ready_i,
  output logic [1:0]    commit_unit_o,
  output logic [31:0]   commit_seq_o,
  output logic [11:0]   commit_pc_o,
  output logic [31:0]   commit_word_o,
  output logic [7:0]    commit_dst_o,
  output logic [3:0]    commit_mask_o,
  output logic [95:0]   commit_result_o,
  output logic [1:0]    commit_cmp_o,
  output logic [31:0]   commit_a0x_o,
  output logic [31:0]   commit_a0y_o,
  output logic [31:0]   commit_al_o,
  output logic [11:0]   commit_next_pc_o,
  output logic          commit_emit_o,
  output logic [2:0]    commit_hang_o,
  output logic          commit_end_o,

  // Hang: the first hanging instruction sent on the commit port (sticky until reset).
  output logic          hang_o,
  output logic [1:0]    hang_unit_o,
  output logic [11:0]   hang_pc_o,
  output logic [31:0]   hang_word_o,
  output logic [2:0]    hang_code_o,

  output logic          idle_o          // no vertex, invocation, emit or commit in flight
);

  pica_sh #(
    .MaxNegInf(MaxNegInf), .Cmp67True(Cmp67True), .CmpUsesMask(CmpUsesMask),
    .IntZSigned(IntZSigned), .PcOverflowWrap(PcOverflowWrap), .UnknownOpNop(UnknownOpNop),
    .LoopAlRestore(LoopAlRestore), .MovFlush(MovFlush), .LoopEndAll(LoopEndAll)
  ) u_sh (
    .clk_i,
    .rst_ni,
    .cfg_valid_i,
    .cfg_ready_o,
    .cfg_bank_i,
    .cfg_kind_i,
    .cfg_addr_i,
    .cfg_data_i,
    .in_valid_i,
    .in_ready_o,
    .in_kind_i,
    .in_seq_i,
    .in_attr_i,
    .in_last_i,
    .in_data_i,
    .out_valid_o,
    .out_ready_i,
    .out_kind_o,
    .out_id_o,
    .out_reg_o,
    .out_data_o,
    .out_last_o,
    .out_vtx_id_o,
    .out_winding_o,
    .out_prim_o,
    .commit_valid_o,
    .commit_ready_i,
    .commit_unit_o,
    .commit_seq_o,
    .commit_pc_o,
    .commit_word_o,
    .commit_dst_o,
    .commit_mask_o,
    .commit_result_o,
    .commit_cmp_o,
    .commit_a0x_o,
    .commit_a0y_o,
    .commit_al_o,
    .commit_next_pc_o,
    .commit_emit_o,
    .commit_hang_o,
    .commit_end_o,
    .hang_o,
    .hang_unit_o,
    .hang_pc_o,
    .hang_word_o,
    .hang_code_o,
    .idle_o
  );

endmodule : pica_sh_top
