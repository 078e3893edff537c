// pica_sh_unit_replay_tb: replays a shader-unit stage bundle (kind "stage:shader_unit"; README
// "Stage bundles", vectors/src/stage/shader_unit.rs) on pica_sh_unit_top.
//
// Plain SystemVerilog, no DPI: runs under Icarus (iverilog -g2012) and Verilator (--binary).
// scripts/replay detects the bundle kind and builds the plusargs from its manifest.json:
//
//   +code=FILE +code_words=N       code.hex: code words from address 0 (N may be 0)
//   +opdesc=FILE                   opdesc.hex: 128 operand descriptors
//   +uniforms=FILE                 uniforms.hex: 96 float uniforms, 96 bits (x in bits 23:0)
//   +int_uniforms=FILE             int_uniforms.hex: i0-i3, x | y << 8 | z << 16 | w << 24
//   +bool_uniforms=FILE            bool_uniforms.hex: one 16-bit word
//   +inputs=FILE                   inputs.hex: v0-v15, 96 bits
//   +entry=N                       entry point
//   +beats=FILE +nbeats=N          commit.hex: expected commit beats (commit_beat_t)
//   +outputs=FILE                  outputs.hex: expected o0-o15 after the run
//   +outcome=end|hang|limit +max_instructions=N
//   +stall_cycles=N                fail as stalled when the unit runs and no commit beat comes
//                                  for N clocks (default 100,000; 0 = off), as the kit's
//                                  generated testbenches do (scripts/replay --stall-cycles N)
//
// Sequence: reset; load code, descriptors, uniforms and inputs through the top's write ports
// (one word per clock); pulse start_i with the entry point; compare every commit beat in order
// (every field but cycle, unit and seq, which the stage does not promise); after the last one
// (END, a hang, or max_instructions beats) one more clock, then o0-o15 of the active bank
// through the output read port.
//
// Prints PASS, or FAIL: <first mismatch, by field> and stops with $fatal (non-zero exit in
// both simulators).
`timescale 1ns / 1ps
module pica_sh_unit_replay_tb;
  import pica_chan_pkg::*;

  localparam int MaxCode  = 4096;
  localparam int MaxBeats = 1 << 20;

  logic clk = 1'b0;
  logic rst_ni = 1'b0;
  always #5 clk = ~clk;

  // DUT ports
  logic          code_we, desc_we, unif_we, in_we, start;
  logic [11:0]   code_waddr, entry;
  logic [31:0]   code_wdata, desc_wdata;
  logic [6:0]    desc_waddr, unif_waddr;
  logic [95:0]   unif_wdata, in_data;
  logic [3:0]    in_idx;
  logic [127:0]  int_unif;
  logic [15:0]   bool_unif;
  logic          busy, done, hang;
  logic [2:0]    hang_code;
  logic          c_valid, c_emit, c_end;
  logic [11:0]   c_pc;
  logic [31:0]   c_word, c_a0x, c_a0y, c_al;
  logic [7:0]    c_dst;
  logic [3:0]    c_mask;
  logic [95:0]   c_result;
  logic [1:0]    c_cmp;
  logic [12:0]   c_next_pc;
  logic [2:0]    c_hang;
  logic          e_valid, e_winding, e_prim;
  logic [1:0]    e_vtx;
  logic          o_sel;
  logic [3:0]    o_idx;
  logic [95:0]   o_data;

  pica_sh_unit_top dut (
    .clk_i(clk), .rst_ni,
    .code_we_i(code_we), .code_waddr_i(code_waddr), .code_wdata_i(code_wdata),
    .desc_we_i(desc_we), .desc_waddr_i(desc_waddr), .desc_wdata_i(desc_wdata),
    .unif_we_i(unif_we), .unif_waddr_i(unif_waddr), .unif_wdata_i(unif_wdata),
    .int_uniforms_i(int_unif), .bool_uniforms_i(bool_unif),
    .in_we_i(in_we), .in_idx_i(in_idx), .in_data_i(in_data),
    .start_i(start), .entry_i(entry), .stall_i(1'b0), .busy_o(busy), .done_o(done), .hang_o(hang),
    .hang_code_o(hang_code),
    .commit_valid_o(c_valid), .commit_pc_o(c_pc), .commit_word_o(c_word),
    .commit_dst_o(c_dst), .commit_mask_o(c_mask), .commit_result_o(c_result),
    .commit_cmp_o(c_cmp), .commit_a0x_o(c_a0x), .commit_a0y_o(c_a0y), .commit_al_o(c_al),
    .commit_next_pc_o(c_next_pc), .commit_emit_o(c_emit), .commit_hang_o(c_hang),
    .commit_end_o(c_end),
    .emit_valid_o(e_valid), .emit_vtx_id_o(e_vtx), .emit_winding_o(e_winding),
    .emit_prim_o(e_prim),
    .o_rd_sel_i(o_sel), .o_rd_idx_i(o_idx), .o_rd_data_o(o_data)
  );

  // ---- Bundle contents
  logic [31:0]              code [MaxCode];
  logic [31:0]              opdesc [128];
  logic [95:0]              unif [96];
  logic [31:0]              ints [4];
  logic [15:0]              bools [1];
  logic [95:0]              inputs [16];
  logic [COMMIT_BEAT_W-1:0] beats [MaxBeats];
  logic [95:0]              outputs [16];

  string  f_code, f_desc, f_unif, f_ints, f_bools, f_inputs, f_beats, f_outputs, outcome;
  int     code_words, nbeats, entry_arg;
  longint max_instr;

  task automatic fail(input string msg);
    $display("FAIL: %s", msg);
    $fatal(1, "pica_sh_unit_replay_tb: FAIL");
  endtask

  task automatic tick;
    @(posedge clk);
    #1;
  endtask

  // One field of beat `bi`: fails naming it when expected and actual differ.
  task automatic field(input int bi, input logic [11:0] pc, input string name,
                       input logic [95:0] exp, input logic [95:0] act);
    if (exp !== act)
      fail($sformatf("commit %0d (pc 0x%03h): field %s expected 0x%0h actual 0x%0h",
                     bi, pc, name, exp, act));
  endtask

  task automatic check_beat(input int bi);
    commit_beat_t e;
    e = beats[bi];
    field(bi, e.pc, "pc", 96'(e.pc), 96'(c_pc));
    field(bi, e.pc, "word", 96'(e.word), 96'(c_word));
    field(bi, e.pc, "dst", 96'(e.dst), 96'(c_dst));
    field(bi, e.pc, "mask", 96'(e.mask), 96'(c_mask));
    field(bi, e.pc, "result.x", 96'(e.result[0]), 96'(c_result[23:0]));
    field(bi, e.pc, "result.y", 96'(e.result[1]), 96'(c_result[47:24]));
    field(bi, e.pc, "result.z", 96'(e.result[2]), 96'(c_result[71:48]));
    field(bi, e.pc, "result.w", 96'(e.result[3]), 96'(c_result[95:72]));
    field(bi, e.pc, "cmp", 96'(e.cmp), 96'(c_cmp));
    field(bi, e.pc, "a0x", 96'(e.a0x), 96'(c_a0x));
    field(bi, e.pc, "a0y", 96'(e.a0y), 96'(c_a0y));
    field(bi, e.pc, "al", 96'(e.al), 96'(c_al));
    field(bi, e.pc, "next_pc", 96'(e.next_pc), 96'(c_next_pc));
    field(bi, e.pc, "emit", 96'(e.emit), 96'(c_emit));
    field(bi, e.pc, "hang", 96'(e.hang), 96'(c_hang));
    field(bi, e.pc, "end", 96'(e.end_f), 96'(c_end));
  endtask

  int     bi;
  longint guard;
  // Stall watchdog: clocks since the last commit beat (or since start_i) while running.
  longint stall_cycles, quiet, last_beat;
  logic   stop;
  string  kind;

  initial begin
    code_we = 1'b0; desc_we = 1'b0; unif_we = 1'b0; in_we = 1'b0; start = 1'b0;
    code_waddr = '0; code_wdata = '0; desc_waddr = '0; desc_wdata = '0;
    unif_waddr = '0; unif_wdata = '0; in_idx = '0; in_data = '0; entry = '0;
    int_unif = '0; bool_unif = '0; o_sel = 1'b0; o_idx = '0;

    if (!$value$plusargs("code=%s", f_code)) fail("missing +code=FILE");
    if (!$value$plusargs("code_words=%d", code_words)) fail("missing +code_words=N");
    if (!$value$plusargs("opdesc=%s", f_desc)) fail("missing +opdesc=FILE");
    if (!$value$plusargs("uniforms=%s", f_unif)) fail("missing +uniforms=FILE");
    if (!$value$plusargs("int_uniforms=%s", f_ints)) fail("missing +int_uniforms=FILE");
    if (!$value$plusargs("bool_uniforms=%s", f_bools)) fail("missing +bool_uniforms=FILE");
    if (!$value$plusargs("inputs=%s", f_inputs)) fail("missing +inputs=FILE");
    if (!$value$plusargs("entry=%d", entry_arg)) entry_arg = 0;
    if (!$value$plusargs("beats=%s", f_beats)) fail("missing +beats=FILE");
    if (!$value$plusargs("nbeats=%d", nbeats)) fail("missing +nbeats=N");
    if (!$value$plusargs("outputs=%s", f_outputs)) fail("missing +outputs=FILE");
    if (!$value$plusargs("outcome=%s", outcome)) fail("missing +outcome=KIND");
    if (!$value$plusargs("max_instructions=%d", max_instr)) fail("missing +max_instructions=N");
    if (!$value$plusargs("stall_cycles=%d", stall_cycles)) stall_cycles = 100000;
    if (code_words < 0 || code_words > MaxCode) fail($sformatf("code_words %0d exceeds %0d", code_words, MaxCode));
    if (nbeats < 0 || nbeats > MaxBeats) fail($sformatf("nbeats %0d exceeds %0d", nbeats, MaxBeats));
    if (outcome != "end" && outcome != "hang" && outcome != "limit")
      fail($sformatf("unknown outcome kind '%s'", outcome));

    if (code_words > 0) $readmemh(f_code, code, 0, code_words - 1);
    $readmemh(f_desc, opdesc, 0, 127);
    $readmemh(f_unif, unif, 0, 95);
    $readmemh(f_ints, ints, 0, 3);
    $readmemh(f_bools, bools, 0, 0);
    $readmemh(f_inputs, inputs, 0, 15);
    if (nbeats > 0) $readmemh(f_beats, beats, 0, nbeats - 1);
    $readmemh(f_outputs, outputs, 0, 15);

    // Reset, released between edges.
    repeat (2) @(posedge clk);
    #1;
    rst_ni = 1'b1;

    // Memories and inputs through the write ports, one word per clock.
    for (int a = 0; a < code_words; a++) begin
      code_we = 1'b1; code_waddr = 12'(a); code_wdata = code[a];
      tick;
    end
    code_we = 1'b0;
    for (int a = 0; a < 128; a++) begin
      desc_we = 1'b1; desc_waddr = 7'(a); desc_wdata = opdesc[a];
      tick;
    end
    desc_we = 1'b0;
    for (int a = 0; a < 96; a++) begin
      unif_we = 1'b1; unif_waddr = 7'(a); unif_wdata = unif[a];
      tick;
    end
    unif_we = 1'b0;
    for (int a = 0; a < 16; a++) begin
      in_we = 1'b1; in_idx = 4'(a); in_data = inputs[a];
      tick;
    end
    in_we = 1'b0;
    int_unif = {ints[3], ints[2], ints[1], ints[0]};
    bool_unif = bools[0];

    // Run.
    entry = 12'(entry_arg);
    start = 1'b1;
    tick;
    start = 1'b0;
    bi = 0;
    stop = 1'b0;
    kind = "";
    guard = 0;
    quiet = 0;
    last_beat = 0;
    while (!stop) begin
      if (c_valid) begin
        quiet = 0;
        last_beat = guard;
        if (bi >= nbeats)
          fail($sformatf("commit %0d (pc 0x%03h): extra beat (expected %0d beats, outcome %s)",
                         bi, c_pc, nbeats, outcome));
        check_beat(bi);
        bi++;
        if (c_end) begin stop = 1'b1; kind = "end"; end
        else if (c_hang != 3'd0) begin stop = 1'b1; kind = "hang"; end
        else if (longint'(bi) >= max_instr) begin stop = 1'b1; kind = "limit"; end
      end
      tick;
      guard++;
      quiet++;
      // The slowest instruction (LG2 on the multi-cycle SFU) retires a few hundred clocks
      // after the one before it; far more with no beat is a stuck unit, reported at once
      // instead of after the whole budget below.
      if (!stop && stall_cycles != 0 && quiet > stall_cycles)
        fail($sformatf("stalled: the unit runs and no commit beat came for %0d clocks (the last at clock %0d after start; +stall_cycles=N sets the limit)",
                       stall_cycles, last_beat));
      // The unit retires one instruction per 3 cycles, an SFU instruction (RCP, RSQ, EX2,
      // LG2) in at most 307; this only catches a stuck unit.
      if (!stop && guard > 320 * max_instr + 16)
        fail($sformatf("commit %0d: no beat for %0d cycles (unit stuck; expected %0d beats)",
                       bi, guard, nbeats));
    end
    if (bi < nbeats)
      fail($sformatf("commit %0d: missing beat (the run ended with %s after %0d beats)",
                     bi, kind, bi));
    if (kind != outcome)
      fail($sformatf("outcome: expected %s actual %s", outcome, kind));

    // Final outputs of the active bank.
    o_sel = 1'b0;
    for (int r = 0; r < 16; r++) begin
      o_idx = 4'(r);
      #1;
      if (o_data !== outputs[r])
        fail($sformatf("output o%0d: expected %024h actual %024h", r, outputs[r], o_data));
    end

    $display("PASS: %0d commit beats, %s, 16 outputs", nbeats, kind);
    $finish;
  end

endmodule : pica_sh_unit_replay_tb
