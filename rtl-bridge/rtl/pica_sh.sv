// pica_sh: the SH stage — four pica_shader_unit instances, the VS/GS split and the GS input
// assembler, with the same transactions as the model's ShaderCore
// (model/src/shader/stage.rs, model/src/shader/io.rs). Transaction-exact, not cycle-exact:
// the same output items with the same bits in the same order (VS vertices in input `seq`
// order, GS emits in emit order) and, per vertex / invocation, the same commits in program
// order; latency differs.
//
// Configuration (config port, one write per beat; in the GPU REGS forwards its unit writes):
//   bank bit 0 = the VSH bank (units 0-2, always identical in the model: RegFile sends every
//   VSH-block write to all three), bank bit 1 = the GSH bank (unit 3; REGS sets both bits for a
//   VSH-block write that propagates to unit 3). Every unit needs its own concurrent reads of
//   code / opdesc / uniform memory, so the RAMs are replicated per reader: a VSH-bank write is
//   written into the three copies of units 0-2 in the same cycle (one write port each).
//   Scalars (int / bool uniforms, entry point, outmap mask, input config, permutation) are
//   flops per bank. Unit 3 also has an override RAM for the GS invocation's float uniforms
//   (fixed mode) with a valid bit per uniform: its uniform read takes the override where set.
//
// VS: a vertex arrives as one attribute per beat; its first beat picks the lowest unit that
//   is a VS unit (0-2, and 3 unless GEOSTAGE_CONFIG[1:0] == 2) and holds no vertex; the
//   attribute goes through that unit's bank's permutation (attributes at or beyond the input
//   count are dropped, registers not written keep their value); the last beat starts it at its
//   bank's entry point. After END the unit keeps its vertex until it is the next in `seq`
//   order (counted from 0 since reset); then its outputs enabled by the outmap mask (latched
//   at END) leave one register per beat on the output port (GS off) or go to the GS input
//   assembler (GS on), and the unit is free again.
//
// Markers (in_kind_i 1 and 2, one beat each, taken between vertices): VL's ShIn::Begin (a draw
//   or immediate-mode batch begins with the GS in use) and ShIn::GsCount (variable mode: the
//   next primitive's vertex count, in_data_i[15:0]); in_seq_i is the seq of the next vertex.
//   They wait in a 4-deep FIFO (the model's SH_MARKER_DEPTH) and act, in order, once every
//   vertex before their seq has left the VS units (seq - next_out <= 0, signed), before that
//   vertex retires, while unit 3 runs no invocation (the count writes unit 3's override RAM).
//
// GS (GEOSTAGE_CONFIG[1:0] == 2): the assembler mode (GSH_MISC0 / GSH_MISC1) and the point-mode
//   input size are latched at every Begin marker, which also empties the assembler (the
//   model's gs-config-per-draw fact, knob gs-new-draw=reset: the only value this RTL
//   implements); the first cycle the GS is on they are latched too, for a stage driven
//   without markers (the model's GsState made then). The assembler writes straight into
//   unit 3 (point mode: its input registers through the GSH permutation; fixed and variable
//   modes: the override RAM), so it takes a VS vertex only while unit 3 runs no invocation — an
//   invocation queue of depth 0 where the model has GS_INVOCATION_QUEUE_DEPTH = 1: timing only,
//   the transactions are the same. Variable mode (GSH_MISC0[1:0] == 1): a count marker N writes
//   c0 = (N, N, N, N) as f24 and drops a partial primitive; the next N vertices go to c1 on,
//   the first GSH_MISC1[4:0] + 1 with every output, the others with their first; a uniform
//   past c95 is dropped (the vertex still counts); N = 0 runs the GS at once; a vertex while no
//   count is pending is dropped (model GsAssembler). b15 is set after each GS run until the GSH
//   bool uniforms change value (checked when an invocation starts, as the model does).
//
// EMIT (unit 3): the emitted bank (o0-o15) is copied into the vertex slots 0-2 (slot 3 is never
//   read) over 16 cycles while unit 3 is held; with the GS on, the same 16 registers leave as
//   one output item, followed by the primitive's 3 x 16 registers when the EMIT has PRIMEMIT.
//   Unit 3 is held until the item has left: the model's GS_EMIT_BUFFER_DEPTH (4) becomes 1.
//
// Commits: each unit pushes its commit record (with the unit's vertex seq / invocation number)
//   into its own 2-deep FIFO; a unit whose FIFO is full is held in FETCH (stall_i), so nothing
//   is dropped. A round-robin arbiter sends one record per cycle on the commit port. A commit
//   with a hang code latches hang_o (unit, pc, word, code) when it leaves on the commit port.
module pica_sh #(
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
  input  logic [1:0]    in_kind_i,      // 0 vertex attribute, 1 Begin marker, 2 GS count marker
                                        // (in_data_i[15:0]), 3 reserved (taken, ignored)
  input  logic [31:0]   in_seq_i,       // vertex sequence number (same on every beat); marker:
                                        // the seq of the next vertex
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

  // Config kinds.
  localparam logic [3:0] CfgCode     = 4'd0;
  localparam logic [3:0] CfgDesc     = 4'd1;
  localparam logic [3:0] CfgUnif     = 4'd2;
  localparam logic [3:0] CfgInt      = 4'd3;   // addr[1:0] = i0-i3; x | y<<8 | z<<16 | w<<24
  localparam logic [3:0] CfgBool     = 4'd4;
  localparam logic [3:0] CfgEntry    = 4'd5;
  localparam logic [3:0] CfgOutmap   = 4'd6;
  localparam logic [3:0] CfgInCfg    = 4'd7;
  localparam logic [3:0] CfgPermLo   = 4'd8;
  localparam logic [3:0] CfgPermHi   = 4'd9;
  localparam logic [3:0] CfgGeostage = 4'd10;  // GEOSTAGE_CONFIG (bank ignored)
  localparam logic [3:0] CfgGshMisc0 = 4'd11;  // GSH_MISC0
  localparam logic [3:0] CfgGshMisc1 = 4'd12;  // GSH_MISC1 (variable mode: main vertices - 1)

  localparam logic [1:0] InAttr  = 2'd0;
  localparam logic [1:0] InBegin = 2'd1;
  localparam logic [1:0] InCount = 2'd2;

  // GSH_MISC0[1:0] modes (model GsMode::from_regs: 3 reads as point).
  localparam logic [1:0] ModeVariable = 2'd1;
  localparam logic [1:0] ModeFixed    = 2'd2;

  // Markers the stage holds (model timing::SH_MARKER_DEPTH).
  localparam int MarkerDepth = 4;

  localparam logic [1:0] OutVs     = 2'd0;
  localparam logic [1:0] OutVsNone = 2'd1;
  localparam logic [1:0] OutGs     = 2'd2;
  localparam logic [1:0] OutPrim   = 2'd3;

  localparam int CommitW = 32 + 12 + 32 + 8 + 4 + 96 + 2 + 32 + 32 + 32 + 12 + 1 + 3 + 1;

  // ---------------------------------------------------------------------------------------
  // Configuration: per-bank scalars (b = 0 VSH, 1 GSH).
  logic [2*128-1:0] ints_q;
  logic [2*16-1:0]  bools_q, entry_q, outmap_q;
  logic [2*32-1:0]  incfg_q;
  logic [2*64-1:0]  perm_q;
  logic [1:0]       geo_q;
  logic [31:0]      misc0_q, misc1_q;

  logic cfg_we;
  assign cfg_ready_o = 1'b1;
  assign cfg_we = cfg_valid_i;

  // A unit's bank: units 0-2 VSH (0), unit 3 GSH (1).
  function automatic logic bank_of(input logic [1:0] u);
    bank_of = (u == 2'd3);
  endfunction

  logic gs_on;
  assign gs_on = (geo_q == 2'd2);

  // Selects by a run-time index as a compare per candidate, never a part-select at a computed
  // offset (`v[i*96 +: 96]`): Yosys maps the latter to a shifter over the whole vector, whose
  // shift amount is the product (12 bits for the 299-bit commit records), not to a mux.
  function automatic logic [95:0] sel96(input logic [4*96-1:0] v, input logic [1:0] i);
    sel96 = '0;
    for (int k = 0; k < 4; k++) if (i == 2'(k)) sel96 = v[k*96 +: 96];
  endfunction
  function automatic logic [31:0] sel32(input logic [4*32-1:0] v, input logic [1:0] i);
    sel32 = '0;
    for (int k = 0; k < 4; k++) if (i == 2'(k)) sel32 = v[k*32 +: 32];
  endfunction
  function automatic logic [15:0] sel16(input logic [4*16-1:0] v, input logic [1:0] i);
    sel16 = '0;
    for (int k = 0; k < 4; k++) if (i == 2'(k)) sel16 = v[k*16 +: 16];
  endfunction
  // Entry i of a bank's input permutation (16 x 4 bits).
  function automatic logic [3:0] perm_at(input logic [63:0] row, input logic [3:0] i);
    perm_at = '0;
    for (int k = 0; k < 16; k++) if (i == 4'(k)) perm_at = row[k*4 +: 4];
  endfunction

  // ---------------------------------------------------------------------------------------
  // Units and their RAM copies.
  logic [3:0]        u_busy, u_done_st, u_hang_st, u_start, u_in_we, u_stall, u_o_sel;
  logic [4*3-1:0]    u_hang_code;
  logic [4*12-1:0]   u_entry;
  logic [4*4-1:0]    u_in_idx, u_o_idx;
  logic [4*96-1:0]   u_in_data, u_o_data;
  logic [4*16-1:0]   u_bools;
  logic [3:0]        u_cv, u_emit_v, u_emit_wind, u_emit_prim;
  logic [4*2-1:0]    u_emit_vtx;
  logic [4*CommitW-1:0] u_commit;  // the record pushed into the unit's FIFO (seq first)
  logic [3:0]        u_cend;        // commit of an END

  logic [4*32-1:0] u_seq_q;  // vertex seq / GS invocation of each unit's job
  logic [3:0]   u_job_q;    // holds a vertex (VS) from its first input beat until it retires
  logic [3:0]   u_fin_q;    // that vertex's END has executed
  logic [4*16-1:0] u_mask_q; // outmap mask latched at END

  // Overlay (GS float-uniform overrides) of unit 3.
  logic [95:0] ovl_valid_q;
  logic        ovl_we;
  logic [6:0]  ovl_waddr;
  logic [95:0] ovl_wdata;
  logic        run_b15_q;  // b15 forced on during the running GS invocation
  logic        gs_run_q;   // unit 3 runs a GS invocation

  for (genvar u = 0; u < 4; u++) begin : g_unit
    localparam int B = (u == 3) ? 1 : 0;
    logic        code_req, desc_req, unif_req;
    logic [11:0] code_addr;
    logic [6:0]  desc_addr, unif_addr;
    logic [31:0] code_rdata, desc_rdata;
    logic [95:0] unif_rdata, base_rdata;
    logic        bank_we;
    logic [11:0] c_pc;
    logic [31:0] c_word;
    logic [7:0]  c_dst;
    logic [3:0]  c_mask;
    logic [95:0] c_result;
    logic [1:0]  c_cmp;
    logic [31:0] c_a0x, c_a0y, c_al;
    logic [12:0] c_next_pc;
    logic        c_emit, c_end;
    logic [2:0]  c_hang;

    assign bank_we = cfg_we && cfg_bank_i[B];

    // Replicated RAMs (one copy per reading unit; see the header).
    pica_ram #(.Width(32), .Depth(4096)) u_code (
      .clk_i, .we_i(bank_we && cfg_kind_i == CfgCode), .waddr_i(cfg_addr_i),
      .wdata_i(cfg_data_i[31:0]), .re_i(code_req), .raddr_i(code_addr), .rdata_o(code_rdata)
    );
    pica_ram #(.Width(32), .Depth(128)) u_desc (
      .clk_i, .we_i(bank_we && cfg_kind_i == CfgDesc && cfg_addr_i < 12'd128),
      .waddr_i(cfg_addr_i[6:0]), .wdata_i(cfg_data_i[31:0]),
      .re_i(desc_req), .raddr_i(desc_addr), .rdata_o(desc_rdata)
    );
    pica_ram #(.Width(96), .Depth(96)) u_unif (
      .clk_i, .we_i(bank_we && cfg_kind_i == CfgUnif && cfg_addr_i < 12'd96),
      .waddr_i(cfg_addr_i[6:0]), .wdata_i(cfg_data_i),
      .re_i(unif_req), .raddr_i(unif_addr), .rdata_o(base_rdata)
    );

    if (u == 3) begin : g_ovl
      logic [95:0] ovl_rdata;
      logic        ovl_sel_q;
      pica_ram #(.Width(96), .Depth(96)) u_ovl (
        .clk_i, .we_i(ovl_we), .waddr_i(ovl_waddr), .wdata_i(ovl_wdata),
        .re_i(unif_req), .raddr_i(unif_addr), .rdata_o(ovl_rdata)
      );
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) ovl_sel_q <= 1'b0;
        else if (unif_req) ovl_sel_q <= ovl_valid_q[unif_addr];
      end
      assign unif_rdata = ovl_sel_q ? ovl_rdata : base_rdata;
    end else begin : g_no_ovl
      assign unif_rdata = base_rdata;
    end

    pica_shader_unit #(
      .MaxNegInf(MaxNegInf), .Cmp67True(Cmp67True), .CmpUsesMask(CmpUsesMask),
      .IntZSigned(IntZSigned), .PcOverflowWrap(PcOverflowWrap), .UnknownOpNop(UnknownOpNop),
      .LoopAlRestore(LoopAlRestore), .MovFlush(MovFlush), .LoopEndAll(LoopEndAll)
    ) u_unit (
      .clk_i, .rst_ni,
      .start_i(u_start[u]), .entry_i(u_entry[u*12 +: 12]), .busy_o(u_busy[u]),
      .done_o(u_done_st[u]), .hang_o(u_hang_st[u]), .hang_code_o(u_hang_code[u*3 +: 3]),
      .stall_i(u_stall[u]),
      .int_uniforms_i(ints_q[B*128 +: 128]), .bool_uniforms_i(u_bools[u*16 +: 16]),
      .in_we_i(u_in_we[u]), .in_idx_i(u_in_idx[u*4 +: 4]), .in_data_i(u_in_data[u*96 +: 96]),
      .code_req_o(code_req), .code_addr_o(code_addr), .code_rdata_i(code_rdata),
      .desc_req_o(desc_req), .desc_addr_o(desc_addr), .desc_rdata_i(desc_rdata),
      .unif_req_o(unif_req), .unif_addr_o(unif_addr), .unif_rdata_i(unif_rdata),
      .commit_valid_o(u_cv[u]), .commit_pc_o(c_pc), .commit_word_o(c_word),
      .commit_dst_o(c_dst), .commit_mask_o(c_mask), .commit_result_o(c_result),
      .commit_cmp_o(c_cmp), .commit_a0x_o(c_a0x), .commit_a0y_o(c_a0y), .commit_al_o(c_al),
      .commit_next_pc_o(c_next_pc), .commit_emit_o(c_emit), .commit_hang_o(c_hang),
      .commit_end_o(c_end),
      .emit_valid_o(u_emit_v[u]), .emit_vtx_id_o(u_emit_vtx[u*2 +: 2]),
      .emit_winding_o(u_emit_wind[u]), .emit_prim_o(u_emit_prim[u]),
      .o_rd_sel_i(u_o_sel[u]), .o_rd_idx_i(u_o_idx[u*4 +: 4]),
      .o_rd_data_o(u_o_data[u*96 +: 96])
    );

    // next_pc[12] is always 0 (the PC after the stack checks is a code address).
    assign u_commit[u*CommitW +: CommitW] = {u_seq_q[u*32 +: 32], c_pc, c_word, c_dst, c_mask, c_result,
                                             c_cmp, c_a0x, c_a0y, c_al, c_next_pc[11:0],
                                             c_emit, c_hang, c_end};
    assign u_cend[u] = u_cv[u] && c_end;
    logic unused_next_pc_msb;
    assign unused_next_pc_msb = c_next_pc[12];
  end

  // ---------------------------------------------------------------------------------------
  // Commit FIFOs and the round-robin arbiter.
  logic [3:0]           cf_full, cf_valid, cf_pop;
  logic [4*CommitW-1:0] cf_data;
  for (genvar u = 0; u < 4; u++) begin : g_cfifo
    logic cf_empty;
    pica_fifo #(.Width(CommitW), .Depth(2)) u_fifo (
      .clk_i, .rst_ni,
      .push_i(u_cv[u]), .wdata_i(u_commit[u*CommitW +: CommitW]), .full_o(cf_full[u]),
      .pop_i(cf_pop[u]), .valid_o(cf_valid[u]), .rdata_o(cf_data[u*CommitW +: CommitW]),
      .empty_o(cf_empty)
    );
    logic unused_empty;
    assign unused_empty = cf_empty;
  end

  logic [1:0] rr_q, pick;
  logic       pick_v;
  always_comb begin
    pick = rr_q;
    pick_v = 1'b0;
    for (int k = 4; k >= 1; k--) begin
      if (cf_valid[2'(rr_q + 2'(k))]) begin
        pick = 2'(rr_q + 2'(k));
        pick_v = 1'b1;
      end
    end
  end

  logic [CommitW-1:0] chead;
  logic               ctake;
  always_comb begin
    chead = '0;
    for (int k = 0; k < 4; k++) if (pick == 2'(k)) chead = cf_data[k*CommitW +: CommitW];
  end
  assign commit_valid_o = pick_v;
  assign commit_unit_o  = pick;
  assign {commit_seq_o, commit_pc_o, commit_word_o, commit_dst_o, commit_mask_o,
          commit_result_o, commit_cmp_o, commit_a0x_o, commit_a0y_o, commit_al_o,
          commit_next_pc_o, commit_emit_o, commit_hang_o, commit_end_o} = chead;
  assign ctake = pick_v && commit_ready_i;
  always_comb begin
    cf_pop = '0;
    cf_pop[pick] = ctake;
  end

  // ---------------------------------------------------------------------------------------
  // Input, retire, GS assembler, emit stream.
  logic        in_active_q;
  logic [1:0]  in_unit_q;
  logic [31:0] next_out_q;

  logic        rt_active_q, rt_gs_q;
  logic [1:0]  rt_unit_q;
  logic [15:0] rt_rem_q;

  // GS state (GsState of the model).
  logic        gs_made_q;
  logic [1:0]  gs_mode_q;       // GSH_MISC0[1:0] at the draw: 1 variable, 2 fixed, else point
  logic [3:0]  fx_count_q, fx_stride_q;  // minus 1
  logic [7:0]  fx_start_q;
  logic [4:0]  pt_inputs_q;     // point-mode inputs per invocation (1-16)
  logic [5:0]  asm_n_q;         // point: attributes in the pending invocation (saturates)
  logic [4:0]  asm_recv_q;      // fixed: vertices received
  logic [4:0]  asm_i_q;         // attribute index within the vertex being received
  logic [5:0]  var_main_q;      // variable: main vertices (GSH_MISC1[4:0] + 1)
  logic [15:0] var_left_q;      // variable: vertices left in the primitive (0: need a count)
  logic [5:0]  var_recv_q;      // variable: vertices received (saturates at 63)
  logic [6:0]  var_next_q;      // variable: the next uniform (saturates at 96: dropped)
  logic        b15_q;
  logic [15:0] last_bools_q;
  logic [31:0] gs_inv_q;

  logic        em_active_q, em_out_q, em_phase_q, em_wind_q, em_prim_q;
  logic [1:0]  em_vtx_q;
  logic [5:0]  em_idx_q;
  // Vertex slots 0-2 of unit 3, register r of slot s at s*16+r: a RAM with one write and one
  // read a clock (LUT RAM), not 4,608 flops, whose dynamic part-select write and read Yosys
  // maps to two 4,608-bit shifters (about 18,000 LUT6). A RAM has no reset, so slot_ok_q says
  // which slots were written since reset; an unwritten one reads zero as the flops did.
  logic [95:0] slot_mem [64];
  logic [3:0]  slot_ok_q;       // bit 3 never set (slot 3 is never written nor read)

  logic        hang_q;
  logic [1:0]  hang_unit_q;
  logic [11:0] hang_pc_q;
  logic [31:0] hang_word_q;
  logic [2:0]  hang_code_q;

  // VS roles and the free VS unit with the lowest index.
  logic [3:0] vs_role, free;
  logic [1:0] free_pick;
  assign vs_role = {!gs_on, 3'b111};
  assign free = vs_role & ~u_job_q;
  always_comb begin
    free_pick = 2'd0;
    for (int u = 3; u >= 0; u--) if (free[u]) free_pick = 2'(u);
  end

  // Marker FIFO: {kind is count, seq, count}.
  logic        mk_full, mk_valid, mk_empty, mk_push, mk_pop, mk_is_count, mk_due;
  logic [31:0] mk_seq;
  logic [15:0] mk_count;
  logic        in_marker;
  assign in_marker = in_kind_i != InAttr;
  pica_fifo #(.Width(1 + 32 + 16), .Depth(MarkerDepth)) u_markers (
    .clk_i, .rst_ni,
    .push_i(mk_push), .wdata_i({in_kind_i == InCount, in_seq_i, in_data_i[15:0]}),
    .full_o(mk_full),
    .pop_i(mk_pop), .valid_o(mk_valid), .rdata_o({mk_is_count, mk_seq, mk_count}),
    .empty_o(mk_empty)
  );
  // A marker is due once every vertex before its seq has left (signed distance <= 0).
  logic [31:0] mk_dist;
  assign mk_dist = mk_seq - next_out_q;
  assign mk_due = mk_valid && (mk_dist[31] || mk_dist == 32'd0);

  logic [1:0] in_tgt;
  logic       in_take, in_take_attr;
  // A marker beat goes in between vertices while the FIFO has room; attribute beats as
  // before (the vertex's unit, or a free VS unit for its first beat).
  assign in_ready_o = in_marker ? (!in_active_q && !mk_full) : (in_active_q || (|free));
  assign in_take = in_valid_i && in_ready_o;
  assign in_take_attr = in_take && !in_marker;
  // Reserved kind 3 is taken and dropped.
  assign mk_push = in_take && (in_kind_i == InBegin || in_kind_i == InCount);
  assign in_tgt = in_active_q ? in_unit_q : free_pick;

  // The retire candidate: a finished VS vertex whose turn it is.
  logic [1:0] rt_pick;
  logic       rt_pick_v;
  always_comb begin
    rt_pick = 2'd0;
    rt_pick_v = 1'b0;
    for (int u = 3; u >= 0; u--) begin
      if (u_job_q[u] && u_fin_q[u] && u_seq_q[u*32 +: 32] == next_out_q) begin
        rt_pick = 2'(u);
        rt_pick_v = 1'b1;
      end
    end
  end

  // A due marker acts when no vertex is retiring and, with the GS on, unit 3 is idle (a count
  // writes its override RAM and may start it).
  logic mk_apply, mk_begin, mk_cnt_var, mk_launch;
  assign mk_apply = mk_due && !rt_active_q && (!gs_on || (!gs_run_q && !em_active_q));
  assign mk_pop = mk_apply;
  assign mk_begin = mk_apply && gs_on && !mk_is_count;
  assign mk_cnt_var = mk_apply && gs_on && mk_is_count && gs_mode_q == ModeVariable;
  assign mk_launch = mk_cnt_var && mk_count == 16'd0;

  // The f24 of a vertex count (model io::count_to_f24): exponent 63 + the highest set bit,
  // mantissa the bits below it.
  // The shift puts the highest set bit at bit 16 (dropped: the implicit one).
  logic [3:0]  cnt_msb;
  logic [15:0] cnt_mant;
  logic [23:0] cnt_f24;
  always_comb begin
    cnt_msb = 4'd0;
    for (int b = 0; b < 16; b++) if (mk_count[b]) cnt_msb = 4'(b);
    cnt_mant = mk_count << (5'd16 - {1'b0, cnt_msb});
    cnt_f24 = (mk_count == 16'd0) ? 24'd0 : {1'b0, 7'd63 + {3'd0, cnt_msb}, cnt_mant};
  end

  // Lowest set bit of the remaining mask.
  logic [3:0] rt_reg;
  logic       rt_lastbit;
  always_comb begin
    rt_reg = 4'd0;
    for (int r = 15; r >= 0; r--) if (rt_rem_q[r]) rt_reg = 4'(r);
    rt_lastbit = (rt_rem_q & (rt_rem_q - 16'd1)) == 16'd0;  // at most one bit left
  end
  logic [95:0] rt_data;
  assign rt_data = sel96(u_o_data, rt_unit_q);

  // Emit-stream beat.
  logic [95:0] em_data;
  logic [1:0]  em_slot;
  logic [5:0]  em_sidx;
  always_comb begin
    // Phase 1: primitive vertex k = idx / 16 is slot k, or 1, 0, 2 with the winding flag.
    em_slot = em_idx_q[5:4];
    if (em_wind_q && em_idx_q[5:4] == 2'd0) em_slot = 2'd1;
    else if (em_wind_q && em_idx_q[5:4] == 2'd1) em_slot = 2'd0;
    em_sidx = {em_slot, em_idx_q[3:0]};
    em_data = u_o_data[3*96 +: 96];
    if (em_phase_q) em_data = slot_ok_q[em_slot] ? slot_mem[em_sidx] : '0;
  end

  // Output mux: the emit stream (GS) or the retiring VS vertex.
  logic em_owns, rt_owns, out_fire;
  assign em_owns = em_active_q && em_out_q;
  assign rt_owns = rt_active_q && !rt_gs_q && !em_owns;
  assign out_valid_o = em_owns || rt_owns;
  assign out_fire = out_valid_o && out_ready_i;
  always_comb begin
    out_kind_o = OutVs;
    out_id_o = sel32(u_seq_q, rt_unit_q);
    out_reg_o = {2'b00, rt_reg};
    out_data_o = rt_data;
    out_last_o = rt_lastbit;
    out_vtx_id_o = 2'd0;
    out_winding_o = 1'b0;
    out_prim_o = 1'b0;
    if (em_owns) begin
      out_kind_o = em_phase_q ? OutPrim : OutGs;
      out_id_o = u_seq_q[3*32 +: 32];
      out_reg_o = em_idx_q;
      out_data_o = em_data;
      out_last_o = em_phase_q ? (em_idx_q == 6'd47) : (em_idx_q == 6'd15 && !em_prim_q);
      out_vtx_id_o = em_vtx_q;
      out_winding_o = em_wind_q;
      out_prim_o = em_prim_q;
    end else if (rt_rem_q == 16'd0) begin
      out_kind_o = OutVsNone;
      out_last_o = 1'b1;
    end
  end

  // Retire progress this cycle: one attribute (or the empty vertex) taken.
  logic rt_step, rt_done;
  assign rt_step = rt_active_q && (rt_gs_q || (rt_owns && out_ready_i));
  assign rt_done = rt_step && rt_lastbit;

  // Emit progress.
  logic em_step, em_done;
  assign em_step = em_active_q && (!em_out_q || out_fire);
  assign em_done = em_step && (em_phase_q ? (em_idx_q == 6'd47)
                                          : (em_idx_q == 6'd15 && !(em_out_q && em_prim_q)));

  // Phase 0 copies the emitted bank into slot em_vtx_q (none for vertex id 3).
  logic slot_we;
  assign slot_we = !u_emit_v[3] && em_step && !em_phase_q && em_vtx_q != 2'd3;
  always_ff @(posedge clk_i) begin
    if (slot_we) slot_mem[{em_vtx_q, em_idx_q[3:0]}] <= em_data;
  end

  // GS assembler: the attribute of this cycle and the end of the vertex.
  logic        asm_attr, asm_vend, gs_launch, gs_go, mode_fixed, mode_var, mode_point;
  logic        var_take, fx_we, var_we;
  logic [5:0]  asm_n_nx;
  logic [4:0]  asm_cnt3;
  logic [9:0]  fx_idx;
  assign mode_fixed = gs_mode_q == ModeFixed;
  assign mode_var = gs_mode_q == ModeVariable;
  assign mode_point = !mode_fixed && !mode_var;
  assign asm_attr = rt_step && rt_gs_q && (rt_rem_q != 16'd0);
  assign asm_vend = rt_done && rt_gs_q;
  assign asm_cnt3 = {1'b0, incfg_q[32 +: 4]} + 5'd1;
  assign asm_n_nx = (asm_attr && asm_n_q != 6'h3F) ? asm_n_q + 6'd1 : asm_n_q;
  // Fixed mode: uniform start + received * stride + i.
  assign fx_idx = {2'b00, fx_start_q} + {5'b0, asm_recv_q} * ({6'b0, fx_stride_q} + 10'd1)
                + {5'b0, asm_i_q};
  // Variable mode: a main vertex gives every output, the others their first; nothing while
  // no count is pending (the vertex is dropped).
  assign var_take = asm_attr && mode_var && var_left_q != 16'd0
                    && (var_recv_q < var_main_q || asm_i_q == 5'd0);
  always_comb begin
    gs_launch = 1'b0;
    if (asm_vend) begin
      if (mode_fixed) gs_launch = (asm_recv_q + 5'd1) >= ({1'b0, fx_count_q} + 5'd1);
      else if (mode_var) gs_launch = var_left_q == 16'd1;
      else gs_launch = asm_n_nx >= {1'b0, pt_inputs_q};
    end
  end
  assign gs_go = gs_launch || mk_launch;
  assign fx_we = asm_attr && mode_fixed && asm_i_q <= {1'b0, fx_stride_q} && fx_idx < 10'd96;
  assign var_we = var_take && var_next_q < 7'd96;
  // One write port: the assembler's attribute (fixed, variable) or a count's c0 (never in the
  // same cycle: a marker acts only while no vertex retires).
  assign ovl_we = fx_we || var_we || mk_cnt_var;
  always_comb begin
    ovl_waddr = fx_idx[6:0];
    ovl_wdata = rt_data;
    if (var_we) ovl_waddr = var_next_q;
    if (mk_cnt_var) begin
      ovl_waddr = 7'd0;
      ovl_wdata = {cnt_f24, cnt_f24, cnt_f24, cnt_f24};
    end
  end

  // b15 at the start of an invocation.
  logic b15_nx;
  assign b15_nx = (bools_q[16 +: 16] != last_bools_q) ? 1'b0 : b15_q;

  // Unit inputs.
  always_comb begin
    u_start = '0;
    u_entry = '0;
    u_in_we = '0;
    u_in_idx = '0;
    u_in_data = '0;
    u_o_sel = '0;
    u_o_idx = '0;
    for (int u = 0; u < 4; u++) begin
      u_entry[u*12 +: 12] = entry_q[bank_of(2'(u))*16 +: 12];
      u_bools[u*16 +: 16] = bools_q[bank_of(2'(u))*16 +: 16];
      u_stall[u] = cf_full[u];
    end
    if (gs_run_q && run_b15_q) u_bools[3*16 + 15] = 1'b1;
    u_stall[3] = cf_full[3] || em_active_q;
    // Vertex input.
    for (int u = 0; u < 4; u++) begin
      if (in_tgt == 2'(u)) begin
        if (in_take_attr
            && {1'b0, in_attr_i} < {1'b0, incfg_q[bank_of(2'(u))*32 +: 4]} + 6'd1) begin
          u_in_we[u] = 1'b1;
          u_in_idx[u*4 +: 4] = perm_at(perm_q[bank_of(2'(u))*64 +: 64], in_attr_i[3:0]);
          u_in_data[u*96 +: 96] = in_data_i;
        end
        if (in_take_attr && in_last_i) u_start[u] = 1'b1;
      end
    end
    // Point-mode assembler into unit 3's input registers.
    if (asm_attr && mode_point && asm_n_q < {1'b0, asm_cnt3}) begin
      u_in_we[3] = 1'b1;
      u_in_idx[3*4 +: 4] = perm_at(perm_q[64 +: 64], asm_n_q[3:0]);
      u_in_data[3*96 +: 96] = rt_data;
    end
    if (gs_go) u_start[3] = 1'b1;
    // Output-register reads: the retiring unit's active bank; unit 3's emitted bank.
    for (int u = 0; u < 4; u++) if (rt_unit_q == 2'(u)) u_o_idx[u*4 +: 4] = rt_reg;
    if (em_active_q) begin
      u_o_sel[3] = 1'b1;
      u_o_idx[3*4 +: 4] = em_idx_q[3:0];
    end
  end

  assign idle_o = !(|u_job_q) && !in_active_q && !rt_active_q && !gs_run_q && !em_active_q
                  && !(|cf_valid) && !mk_valid;

  assign hang_o      = hang_q;
  assign hang_unit_o = hang_unit_q;
  assign hang_pc_o   = hang_pc_q;
  assign hang_word_o = hang_word_q;
  assign hang_code_o = hang_code_q;

  // ---------------------------------------------------------------------------------------
  // Flops.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ints_q <= '0;
      bools_q <= '0;
      entry_q <= '0;
      outmap_q <= '0;
      incfg_q <= '0;
      perm_q <= '0;
      geo_q <= '0;
      misc0_q <= '0;
      misc1_q <= '0;
      u_seq_q <= '0;
      u_job_q <= '0;
      u_fin_q <= '0;
      u_mask_q <= '0;
      ovl_valid_q <= '0;
      run_b15_q <= 1'b0;
      gs_run_q <= 1'b0;
      rr_q <= 2'd3;
      in_active_q <= 1'b0;
      in_unit_q <= '0;
      next_out_q <= '0;
      rt_active_q <= 1'b0;
      rt_gs_q <= 1'b0;
      rt_unit_q <= '0;
      rt_rem_q <= '0;
      gs_made_q <= 1'b0;
      gs_mode_q <= '0;
      fx_count_q <= '0;
      fx_stride_q <= '0;
      fx_start_q <= '0;
      pt_inputs_q <= '0;
      asm_n_q <= '0;
      asm_recv_q <= '0;
      asm_i_q <= '0;
      var_main_q <= '0;
      var_left_q <= '0;
      var_recv_q <= '0;
      var_next_q <= '0;
      b15_q <= 1'b0;
      last_bools_q <= '0;
      gs_inv_q <= '0;
      em_active_q <= 1'b0;
      em_out_q <= 1'b0;
      em_phase_q <= 1'b0;
      em_wind_q <= 1'b0;
      em_prim_q <= 1'b0;
      em_vtx_q <= '0;
      em_idx_q <= '0;
      slot_ok_q <= '0;
      hang_q <= 1'b0;
      hang_unit_q <= '0;
      hang_pc_q <= '0;
      hang_word_q <= '0;
      hang_code_q <= '0;
    end else begin
      // Configuration scalars.
      if (cfg_we) begin
        for (int b = 0; b < 2; b++) begin
          if (cfg_bank_i[b]) begin
            unique case (cfg_kind_i)
              CfgInt:
                for (int k = 0; k < 4; k++) begin
                  if (cfg_addr_i[1:0] == 2'(k)) ints_q[b*128 + k*32 +: 32] <= cfg_data_i[31:0];
                end
              CfgBool:   bools_q[b*16 +: 16] <= cfg_data_i[15:0];
              CfgEntry:  entry_q[b*16 +: 16] <= cfg_data_i[15:0];
              CfgOutmap: outmap_q[b*16 +: 16] <= cfg_data_i[15:0];
              CfgInCfg:  incfg_q[b*32 +: 32] <= cfg_data_i[31:0];
              CfgPermLo: perm_q[b*64 +: 32] <= cfg_data_i[31:0];
              CfgPermHi: perm_q[b*64 + 32 +: 32] <= cfg_data_i[31:0];
              default: ;
            endcase
          end
        end
        if (cfg_kind_i == CfgGeostage) geo_q <= cfg_data_i[1:0];
        if (cfg_kind_i == CfgGshMisc0) misc0_q <= cfg_data_i[31:0];
        if (cfg_kind_i == CfgGshMisc1) misc1_q <= cfg_data_i[31:0];
      end

      // The GS state is made the first cycle the GS is on (ShaderCore::tick); its assembler
      // configuration is read again, and the assembler emptied, at every Begin marker.
      if (gs_on && !gs_made_q) begin
        gs_made_q <= 1'b1;
        last_bools_q <= bools_q[16 +: 16];
      end
      if ((gs_on && !gs_made_q) || mk_begin) begin
        gs_mode_q <= misc0_q[1:0];
        fx_count_q <= misc0_q[11:8];
        fx_stride_q <= misc0_q[15:12];
        fx_start_q <= misc0_q[23:16];
        pt_inputs_q <= {1'b0, incfg_q[32 +: 4]} + 5'd1;
        var_main_q <= {1'b0, misc1_q[4:0]} + 6'd1;
      end
      if (mk_begin) begin
        asm_n_q <= '0;
        asm_recv_q <= '0;
        asm_i_q <= '0;
        var_left_q <= '0;
        ovl_valid_q <= '0;
      end

      // Vertex input.
      if (in_take_attr) begin
        if (!in_active_q) begin
          u_job_q[in_tgt] <= 1'b1;
          u_fin_q[in_tgt] <= 1'b0;
          for (int u = 0; u < 4; u++) if (in_tgt == 2'(u)) u_seq_q[u*32 +: 32] <= in_seq_i;
        end
        in_active_q <= !in_last_i;
        in_unit_q <= in_tgt;
      end

      // END of a VS vertex: latch the outmap mask of its bank.
      for (int u = 0; u < 4; u++) begin
        if (u_cend[u] && u_job_q[u]) begin
          u_fin_q[u] <= 1'b1;
          u_mask_q[u*16 +: 16] <= outmap_q[bank_of(2'(u))*16 +: 16];
        end
      end

      // Retire.
      if (!rt_active_q) begin
        if (rt_pick_v && !mk_due && (!gs_on || (!gs_run_q && !em_active_q))) begin
          rt_active_q <= 1'b1;
          rt_gs_q <= gs_on;
          rt_unit_q <= rt_pick;
          rt_rem_q <= sel16(u_mask_q, rt_pick);
        end
      end else if (rt_step) begin
        rt_rem_q <= rt_rem_q & (rt_rem_q - 16'd1);
        if (rt_lastbit) begin
          rt_active_q <= 1'b0;
          u_job_q[rt_unit_q] <= 1'b0;
          u_fin_q[rt_unit_q] <= 1'b0;
          next_out_q <= next_out_q + 32'd1;
        end
      end

      // GS assembler.
      if (asm_attr) begin
        asm_n_q <= asm_n_nx;
        asm_i_q <= asm_i_q + 5'd1;
      end
      if (ovl_we && !mk_cnt_var) ovl_valid_q[ovl_waddr] <= 1'b1;
      if (var_take && var_next_q != 7'd96) var_next_q <= var_next_q + 7'd1;
      if (asm_vend) begin
        asm_i_q <= '0;
        if (mode_fixed) asm_recv_q <= gs_launch ? 5'd0 : asm_recv_q + 5'd1;
        if (gs_launch) asm_n_q <= '0;
        if (mode_var && var_left_q != 16'd0) begin
          var_left_q <= var_left_q - 16'd1;
          if (var_recv_q != 6'h3F) var_recv_q <= var_recv_q + 6'd1;
        end
      end
      // A count: c0 only (a partial primitive is dropped), then the next vertices from c1.
      if (mk_cnt_var) begin
        ovl_valid_q <= 96'd1;
        var_left_q <= mk_count;
        var_recv_q <= '0;
        var_next_q <= 7'd1;
      end
      if (gs_go) begin
        gs_run_q <= 1'b1;
        run_b15_q <= b15_nx;
        b15_q <= b15_nx;
        last_bools_q <= bools_q[16 +: 16];
        u_seq_q[3*32 +: 32] <= gs_inv_q;
        gs_inv_q <= gs_inv_q + 32'd1;
      end
      if (gs_run_q && u_cend[3]) begin
        gs_run_q <= 1'b0;
        b15_q <= 1'b1;
        ovl_valid_q <= '0;
      end

      // EMIT of unit 3: copy the bank into the slots (and send it, GS on).
      if (u_emit_v[3]) begin
        em_active_q <= 1'b1;
        em_out_q <= gs_on;
        em_phase_q <= 1'b0;
        em_idx_q <= '0;
        em_vtx_q <= u_emit_vtx[3*2 +: 2];
        em_wind_q <= u_emit_wind[3];
        em_prim_q <= u_emit_prim[3];
      end else if (em_step) begin
        if (slot_we) slot_ok_q[em_vtx_q] <= 1'b1;
        if (em_done) begin
          em_active_q <= 1'b0;
        end else if (!em_phase_q && em_idx_q == 6'd15) begin
          em_phase_q <= 1'b1;
          em_idx_q <= '0;
        end else begin
          em_idx_q <= em_idx_q + 6'd1;
        end
      end

      // Commit arbiter and hang.
      if (ctake) begin
        rr_q <= pick;
        if (commit_hang_o != 3'd0 && !hang_q) begin
          hang_q <= 1'b1;
          hang_unit_q <= pick;
          hang_pc_q <= commit_pc_o;
          hang_word_q <= commit_word_o;
          hang_code_q <= commit_hang_o;
        end
      end
    end
  end

  // Unused: the unit state outputs (the stage tracks END through the commit records), misc0
  // bits the assembler does not use, the upper config address bits for small memories.
  logic unused;
  assign unused = ^{u_busy, u_done_st, u_hang_st, u_hang_code, misc0_q[31:24], misc0_q[7:2],
                    incfg_q[4 +: 28], incfg_q[36 +: 28], u_emit_v[2:0], u_emit_vtx[5:0],
                    u_emit_wind[2:0], u_emit_prim[2:0], entry_q[12 +: 4], entry_q[28 +: 4],
                    misc1_q[31:5], mk_empty};

`ifndef SYNTHESIS
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing to check in reset
    end else begin
      if (u_emit_v[3] && em_active_q) $error("pica_sh: EMIT while unit 3 is held");
      if (in_take_attr && in_last_i && u_busy[in_tgt]) $error("pica_sh: start of a busy unit");
    end
  end
`endif

endmodule : pica_sh
