// pica_top: the PICA200 front end — CP, the CP->REGS write FIFO, REGS and the REGS->CP redirect
// link — with the ports of the RTL contract (rtl-bridge/rtl/README.md).
//
// Cycle k after reset release is the model's Gpu::step() number k (model/src/gpu.rs). The two
// links are pica_fifo instances with the model's depths (model/src/timing.rs:
// CP_TO_REGS_DEPTH = 4, REGS_TO_CP_REDIRECT_DEPTH = 1) and Link timing (model/src/link.rs).
module pica_top (
  input  logic        clk_i,
  input  logic        rst_ni,

  input  logic        cmd_valid_i,
  input  logic [31:0] cmd_data_i,
  input  logic        cmd_end_i,
  output logic        cmd_ready_o,

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
  output logic [31:0] dbg_rdata_o
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

  pica_fifo #(.Width(WrW), .Depth(CpToRegsDepth)) u_cp_to_regs (
    .clk_i,
    .rst_ni,
    .push_i  (cp_wr_valid),
    .wdata_i ({cp_wr_id, cp_wr_mask, cp_wr_param}),
    .full_o  (wr_full),
    .pop_i   (wr_pop),
    .valid_o (wr_valid),
    .rdata_o (wr_head),
    .empty_o (wr_empty)
  );

  // A debug read halts the pipeline (the CP above, and REGS applies nothing), so the state read
  // out is the state of the cycle the reads began in, drained or not.
  pica_regs u_regs (
    .clk_i,
    .rst_ni,
    .wr_valid_i    (wr_valid && !dbg_req_i),
    .wr_id_i       (wr_head[WrW-1 -: 17]),
    .wr_mask_i     (wr_head[35:32]),
    .wr_param_i    (wr_head[31:0]),
    .wr_pop_o      (wr_pop),
    .redir_push_o  (redir_push),
    .redir_addr_o  (redir_addr_w),
    .redir_size_o  (redir_size_w),
    .trace_valid_o (trace_rw_valid_o),
    .trace_id_o    (trace_rw_id_o),
    .trace_mask_o  (trace_rw_mask_o),
    .trace_param_o (trace_rw_param_o),
    .trace_value_o (trace_rw_value_o),
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

  // redir_full is implied never set when REGS pushes (one jump in flight); checked in pica_fifo.
  logic unused_full;
  assign unused_full = redir_full;

endmodule : pica_top
