// pica_top: the PICA200 front end — CP, the CP->REGS write FIFO, REGS and the REGS->CP redirect
// link — and the SH stage (pica_sh: four shader units, the VS/GS split) configured by REGS, with
// the ports of the RTL contract (rtl-bridge/rtl/README.md).
//
// Cycle k after reset release is the model's Gpu::step() number k (model/src/gpu.rs). The two
// links have the model's depths (model/src/timing.rs: CP_TO_REGS_DEPTH = 4,
// REGS_TO_CP_REDIRECT_DEPTH = 1) and Link timing (model/src/link.rs): the redirect link is a
// pica_fifo instance, the CP->REGS FIFO is written out below (it also gives REGS its next head).
//
// SH: pica_sh's configuration port is driven by REGS (pica_regs shcfg_*: every write that
// changes a unit's configuration, in the cycle REGS applies it); its vertex input, output and
// commit ports are brought out with an sh_ prefix (names and widths of pica_sh_top). pica_sh
// keeps its own per-unit code / opdesc / float-uniform RAM copies (each unit reads its memories
// concurrently) and REGS keeps its copies for the debug port: REGS is the single write path, so
// the two never disagree. Area cost: REGS' 4 x (4096x32 + 128x32 + 96x96) bits = 0.58 Mbit of
// RAM are held twice (rtl/README.md "pica_top and SH"); reading REGS' RAMs instead would need a
// second read port per RAM (they have one, taken by the debug port) and a mux in each unit's
// one-cycle read path.
// EnableSh = 0 leaves pica_sh out (SH outputs idle: in_ready 0, no output, no commit, idle 1),
// for front-end builds that do not need it (build.rs: the injected front-end bug rows).
module pica_top #(
  parameter bit EnableSh = 1'b1
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  // The pipeline after REGS is busy with earlier work (the model's Gpu::step `hold`: the state
  // at the start of the cycle): REGS applies nothing, like the model's REGS. 0 when the front
  // end runs alone (the model with its pipeline off never holds).
  input  logic        hold_i,

  input  logic        cmd_valid_i,
  input  logic [31:0] cmd_data_i,
  input  logic        cmd_end_i,
  output logic        cmd_ready_o,
  // Next submission (the model's Gpu::submit after Outcome::Finished): high for one cycle in
  // which finished_o is high; the CP reads the new list's first word from the stream in that
  // cycle. Ignored unless the CP is Done. 0 for a single list.
  input  logic        cmd_kick_i,

  output logic        mem_req_o,
  output logic [31:0] mem_addr_o,
  input  logic [31:0] mem_rdata_i,
  input  logic        mem_err_i,

  output logic        trace_rw_valid_o,
  output logic [16:0] trace_rw_id_o,
  output logic [3:0]  trace_rw_mask_o,
  output logic [31:0] trace_rw_param_o,
  output logic [31:0] trace_rw_value_o,

  output logic        finished_o,
  output logic        hang_o,
  output logic [3:0]  hang_reason_o,
  output logic        idle_o,

  input  logic        dbg_req_i,
  input  logic [15:0] dbg_addr_i,
  output logic [31:0] dbg_rdata_o,

  // SH stage ports (pica_sh_top's vertex input, output and commit ports, see pica_sh.sv).
  input  logic          sh_in_valid_i,
  output logic          sh_in_ready_o,
  input  logic [1:0]    sh_in_kind_i,
  input  logic [31:0]   sh_in_seq_i,
  input  logic [4:0]    sh_in_attr_i,
  input  logic          sh_in_last_i,
  input  logic [95:0]   sh_in_data_i,

  output logic          sh_out_valid_o,
  input  logic          sh_out_ready_i,
  output logic [1:0]    sh_out_kind_o,
  output logic [31:0]   sh_out_id_o,
  output logic [5:0]    sh_out_reg_o,
  output logic [95:0]   sh_out_data_o,
  output logic          sh_out_last_o,
  output logic [1:0]    sh_out_vtx_id_o,
  output logic          sh_out_winding_o,
  output logic          sh_out_prim_o,

  output logic          sh_commit_valid_o,
  input  logic          sh_commit_ready_i,
  output logic [1:0]    sh_commit_unit_o,
  output logic [31:0]   sh_commit_seq_o,
  output logic [11:0]   sh_commit_pc_o,
  output logic [31:0]   sh_commit_word_o,
  output logic [7:0]    sh_commit_dst_o,
  output logic [3:0]    sh_commit_mask_o,
  output logic [95:0]   sh_commit_result_o,
  output logic [1:0]    sh_commit_cmp_o,
  output logic [31:0]   sh_commit_a0x_o,
  output logic [31:0]   sh_commit_a0y_o,
  output logic [31:0]   sh_commit_al_o,
  output logic [11:0]   sh_commit_next_pc_o,
  output logic          sh_commit_emit_o,
  output logic [2:0]    sh_commit_hang_o,
  output logic          sh_commit_end_o,

  output logic          sh_hang_o,
  output logic [1:0]    sh_hang_unit_o,
  output logic [11:0]   sh_hang_pc_o,
  output logic [31:0]   sh_hang_word_o,
  output logic [2:0]    sh_hang_code_o,
  output logic          sh_idle_o
);

  localparam int CpToRegsDepth = 4;  // timing::CP_TO_REGS_DEPTH
  localparam int RedirDepth    = 1;  // timing::REGS_TO_CP_REDIRECT_DEPTH
  localparam int WrW           = 17 + 4 + 32;

  // CP -> FIFO
  logic        cp_wr_valid;
  logic [16:0] cp_wr_id;
  logic [3:0]  cp_wr_mask;
  logic [31:0] cp_wr_param;
  logic        wr_full;
  // FIFO -> REGS
  logic        wr_valid, wr_pop, wr_empty;
  logic [WrW-1:0] wr_head;
  // REGS -> redirect link -> CP
  logic        redir_push, redir_full, redir_valid, redir_pop, redir_empty;
  logic [31:0] redir_addr_w, redir_size_w;
  logic [63:0] redir_head;
  logic        cp_done;

  pica_cp u_cp (
    .clk_i,
    .rst_ni,
    .cmd_valid_i,
    .cmd_data_i,
    .cmd_end_i,
    .cmd_ready_o,
    .kick_i        (cmd_kick_i),
    .mem_req_o,
    .mem_addr_o,
    .mem_rdata_i,
    .mem_err_i,
    .wr_valid_o    (cp_wr_valid),
    .wr_id_o       (cp_wr_id),
    .wr_mask_o     (cp_wr_mask),
    .wr_param_o    (cp_wr_param),
    .wr_space_i    (!wr_full),
    .redir_valid_i (redir_valid),
    .redir_addr_i  (redir_head[63:32]),
    .redir_size_i  (redir_head[31:0]),
    .redir_pop_o   (redir_pop),
    .halt_i        (dbg_req_i),
    .done_o        (cp_done),
    .hang_o,
    .hang_reason_o
  );

  // The CP->REGS FIFO: pica_fifo's Link timing (an entry pushed in cycle N is popped no earlier
  // than N+1; full from the occupancy at the start of the cycle), written out here instead of a
  // pica_fifo instance because REGS needs the next clock's head a clock early: it reads the
  // register RAM at that head's ID into a register (pica_regs `wr_next_id_i`), so that a write's
  // merge starts from flops. The head itself is kept in a register too (`wr_head_q`, the same
  // word as the storage slot it mirrors), so that REGS' decode starts from flops rather than
  // from a 4-way mux over the slots.
  logic [WrW-1:0] wr_mem_q [CpToRegsDepth];
  logic [1:0]     wr_rptr_q, wr_wptr_q, wr_rptr_n;  // Depth 4: the pointers wrap by overflow
  logic [2:0]     wr_count_q;
  logic [WrW-1:0] wr_wdata, wr_head_q, wr_head_d;
  logic           wr_push, wr_do_pop;

  assign wr_wdata  = {cp_wr_id, cp_wr_mask, cp_wr_param};
  assign wr_full   = wr_count_q == 3'(CpToRegsDepth);
  assign wr_valid  = wr_count_q != '0;
  assign wr_empty  = !wr_valid;
  assign wr_push   = cp_wr_valid && !wr_full;
  assign wr_do_pop = wr_pop && wr_valid;
  assign wr_rptr_n = wr_do_pop ? wr_rptr_q + 2'd1 : wr_rptr_q;
  // The slot the head is in next clock, as it is after this clock's push.
  assign wr_head_d = (wr_push && wr_wptr_q == wr_rptr_n) ? wr_wdata : wr_mem_q[wr_rptr_n];
  assign wr_head   = wr_head_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_rptr_q  <= '0;
      wr_wptr_q  <= '0;
      wr_count_q <= '0;
      wr_head_q  <= '0;
      for (int i = 0; i < CpToRegsDepth; i++) wr_mem_q[i] <= '0;
    end else begin
      if (wr_push) begin
        wr_mem_q[wr_wptr_q] <= wr_wdata;
        wr_wptr_q           <= wr_wptr_q + 2'd1;
      end
      wr_rptr_q  <= wr_rptr_n;
      wr_count_q <= wr_count_q + 3'(wr_push) - 3'(wr_do_pop);
      wr_head_q  <= wr_head_d;
    end
  end

  // REGS -> SH configuration beats.
  logic        shcfg_valid;
  logic [1:0]  shcfg_bank;
  logic [3:0]  shcfg_kind;
  logic [11:0] shcfg_addr;
  logic [95:0] shcfg_data;

  // A debug read halts the pipeline (the CP above, and REGS applies nothing), so the state read
  // out is the state of the cycle the reads began in, drained or not. hold_i stops REGS alone.
  pica_regs u_regs (
    .clk_i,
    .rst_ni,
    .wr_valid_i    (wr_valid && !dbg_req_i && !hold_i),
    .wr_id_i       (wr_head[WrW-1 -: 17]),
    .wr_mask_i     (wr_head[35:32]),
    .wr_param_i    (wr_head[31:0]),
    .wr_pop_o      (wr_pop),
    .wr_next_id_i  (wr_head_d[WrW-1 -: 17]),
    .redir_push_o  (redir_push),
    .redir_addr_o  (redir_addr_w),
    .redir_size_o  (redir_size_w),
    .trace_valid_o (trace_rw_valid_o),
    .trace_id_o    (trace_rw_id_o),
    .trace_mask_o  (trace_rw_mask_o),
    .trace_param_o (trace_rw_param_o),
    .trace_value_o (trace_rw_value_o),
    .shcfg_valid_o (shcfg_valid),
    .shcfg_bank_o  (shcfg_bank),
    .shcfg_kind_o  (shcfg_kind),
    .shcfg_addr_o  (shcfg_addr),
    .shcfg_data_o  (shcfg_data),
    .dbg_req_i,
    .dbg_addr_i,
    .dbg_rdata_o
  );

  pica_fifo #(.Width(64), .Depth(RedirDepth)) u_regs_to_cp (
    .clk_i,
    .rst_ni,
    .push_i  (redir_push),
    .wdata_i ({redir_addr_w, redir_size_w}),
    .full_o  (redir_full),
    .pop_i   (redir_pop),
    .valid_o (redir_valid),
    .rdata_o (redir_head),
    .empty_o (redir_empty)
  );

  // Gpu::outcome: drained (both links empty) and the CP Done. A hang is reported by hang_o.
  assign idle_o     = wr_empty && redir_empty;
  assign finished_o = cp_done && idle_o;

  if (EnableSh) begin : g_sh
    logic cfg_ready;
    pica_sh u_sh (
      .clk_i,
      .rst_ni,
      .cfg_valid_i      (shcfg_valid),
      .cfg_ready_o      (cfg_ready),
      .cfg_bank_i       (shcfg_bank),
      .cfg_kind_i       (shcfg_kind),
      .cfg_addr_i       (shcfg_addr),
      .cfg_data_i       (shcfg_data),
      .in_valid_i       (sh_in_valid_i),
      .in_ready_o       (sh_in_ready_o),
      .in_kind_i        (sh_in_kind_i),
      .in_seq_i         (sh_in_seq_i),
      .in_attr_i        (sh_in_attr_i),
      .in_last_i        (sh_in_last_i),
      .in_data_i        (sh_in_data_i),
      .out_valid_o      (sh_out_valid_o),
      .out_ready_i      (sh_out_ready_i),
      .out_kind_o       (sh_out_kind_o),
      .out_id_o         (sh_out_id_o),
      .out_reg_o        (sh_out_reg_o),
      .out_data_o       (sh_out_data_o),
      .out_last_o       (sh_out_last_o),
      .out_vtx_id_o     (sh_out_vtx_id_o),
      .out_winding_o    (sh_out_winding_o),
      .out_prim_o       (sh_out_prim_o),
      .commit_valid_o   (sh_commit_valid_o),
      .commit_ready_i   (sh_commit_ready_i),
      .commit_unit_o    (sh_commit_unit_o),
      .commit_seq_o     (sh_commit_seq_o),
      .commit_pc_o      (sh_commit_pc_o),
      .commit_word_o    (sh_commit_word_o),
      .commit_dst_o     (sh_commit_dst_o),
      .commit_mask_o    (sh_commit_mask_o),
      .commit_result_o  (sh_commit_result_o),
      .commit_cmp_o     (sh_commit_cmp_o),
      .commit_a0x_o     (sh_commit_a0x_o),
      .commit_a0y_o     (sh_commit_a0y_o),
      .commit_al_o      (sh_commit_al_o),
      .commit_next_pc_o (sh_commit_next_pc_o),
      .commit_emit_o    (sh_commit_emit_o),
      .commit_hang_o    (sh_commit_hang_o),
      .commit_end_o     (sh_commit_end_o),
      .hang_o           (sh_hang_o),
      .hang_unit_o      (sh_hang_unit_o),
      .hang_pc_o        (sh_hang_pc_o),
      .hang_word_o      (sh_hang_word_o),
      .hang_code_o      (sh_hang_code_o),
      .idle_o           (sh_idle_o)
    );
    // pica_sh always takes configuration (cfg_ready_o is 1), so REGS needs no backpressure.
    logic unused_cfg_ready;
    assign unused_cfg_ready = cfg_ready;
  end else begin : g_no_sh
    assign sh_in_ready_o       = 1'b0;
    assign sh_out_valid_o      = 1'b0;
    assign sh_out_kind_o       = '0;
    assign sh_out_id_o         = '0;
    assign sh_out_reg_o        = '0;
    assign sh_out_data_o       = '0;
    assign sh_out_last_o       = 1'b0;
    assign sh_out_vtx_id_o     = '0;
    assign sh_out_winding_o    = 1'b0;
    assign sh_out_prim_o       = 1'b0;
    assign sh_commit_valid_o   = 1'b0;
    assign sh_commit_unit_o    = '0;
    assign sh_commit_seq_o     = '0;
    assign sh_commit_pc_o      = '0;
    assign sh_commit_word_o    = '0;
    assign sh_commit_dst_o     = '0;
    assign sh_commit_mask_o    = '0;
    assign sh_commit_result_o  = '0;
    assign sh_commit_cmp_o     = '0;
    assign sh_commit_a0x_o     = '0;
    assign sh_commit_a0y_o     = '0;
    assign sh_commit_al_o      = '0;
    assign sh_commit_next_pc_o = '0;
    assign sh_commit_emit_o    = 1'b0;
    assign sh_commit_hang_o    = '0;
    assign sh_commit_end_o     = 1'b0;
    assign sh_hang_o           = 1'b0;
    assign sh_hang_unit_o      = '0;
    assign sh_hang_pc_o        = '0;
    assign sh_hang_word_o      = '0;
    assign sh_hang_code_o      = '0;
    assign sh_idle_o           = 1'b1;
    // Without the SH stage its inputs and REGS' configuration beats go nowhere.
    logic unused_sh;
    assign unused_sh = ^{shcfg_valid, shcfg_bank, shcfg_kind, shcfg_addr, shcfg_data,
                         sh_in_valid_i, sh_in_kind_i, sh_in_seq_i, sh_in_attr_i, sh_in_last_i,
                         sh_in_data_i,
                         sh_out_ready_i, sh_commit_ready_i};
  end

  // redir_full is implied never set when REGS pushes (one jump in flight); checked in pica_fifo.
  logic unused_full;
  assign unused_full = redir_full;

`ifndef SYNTHESIS
  // The CP checks the FIFO's space before it pushes; REGS pops only a valid head; the head
  // register mirrors the storage slot it stands for.
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing to check in reset (rst_ni used only as an async reset: SYNCASYNCNET)
    end else begin
      if (cp_wr_valid && wr_full) $error("pica_top: push into a full CP->REGS FIFO");
      if (wr_pop && !wr_valid) $error("pica_top: pop from an empty CP->REGS FIFO");
      if (wr_valid && wr_head_q != wr_mem_q[wr_rptr_q])
        $error("pica_top: CP->REGS head register differs from its slot");
    end
  end
`endif

endmodule : pica_top
