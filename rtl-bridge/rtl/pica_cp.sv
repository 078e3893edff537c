// pica_cp: the command processor (model/src/cp.rs), cycle-exact with the model.
//
// Reads one command word per cycle (timing::CP_WORDS_PER_CYCLE = 1) and turns it into register
// writes for REGS (seed 002 "Command Header"): param0, header (ID 0-15, mask 16-19, extra 20-27,
// consecutive 31; bits 28-30 ignored), `extra` more params, then a padding word when 2 + extra
// is odd. The write for param0 leaves in the cycle the header is read; the write for extra param
// n in the cycle that word is read.
//
// Sources: the command-word stream (the submitted list) until the first CMDBUF jump, then the
// memory port for every buffer reached through a jump (rtl-bridge/rtl/README.md).
//
// Consecutive submissions (model: Gpu::submit after Outcome::Finished): kick_i in a cycle where
// the CP is Done starts the next list on the command stream in that same cycle, as the model's
// CP reads the first word of a list submitted before the step (a new Buffer, state Param0);
// everything else (REGS, the links) carries over. Ignored unless Done (the model refuses a
// submission while a list runs, and after a hang).
//
// Timing rules copied from CommandProcessor::tick / step_word:
// - a word that produces a write (Header, Extra) is read only when the CP->REGS FIFO had space at
//   the start of the cycle (wr_space_i, the FIFO's registered not-full); Param0/Pad need none;
// - the end-of-buffer check comes after the FIFO check, so a stalled CP does not hang;
// - after a write to GPUREG_FINALIZE the CP is Done; after a write to GPUREG_CMDBUF_JUMPn it waits
//   for REGS' redirect, takes it in the cycle it is visible and reads the new buffer's first word
//   in that same cycle.
module pica_cp (
  input  logic        clk_i,
  input  logic        rst_ni,

  // Command-word stream (see pica_top).
  input  logic        cmd_valid_i,
  input  logic [31:0] cmd_data_i,
  input  logic        cmd_end_i,
  output logic        cmd_ready_o,
  input  logic        kick_i,       // next submission: the stream restarts with its words

  // Memory read port, answered combinationally.
  output logic        mem_req_o,
  output logic [31:0] mem_addr_o,
  input  logic [31:0] mem_rdata_i,
  input  logic        mem_err_i,

  // Register writes into the CP->REGS FIFO.
  output logic        wr_valid_o,
  output logic [16:0] wr_id_o,
  output logic [3:0]  wr_mask_o,
  output logic [31:0] wr_param_o,
  input  logic        wr_space_i,   // FIFO not full at the start of the cycle

  // CMDBUF jump target from REGS (the REGS->CP redirect link).
  input  logic        redir_valid_i,
  input  logic [31:0] redir_addr_i,
  input  logic [31:0] redir_size_i,
  output logic        redir_pop_o,

  // Debug halt (pica_top: dbg_req_i): while high the CP reads no word and takes no redirect,
  // so the debug port reads a frozen state, also in the middle of a run (at a cycle limit).
  input  logic        halt_i,

  output logic        done_o,        // FINALIZE issued (CpState::Done)
  output logic        hang_o,        // flop: set at the end of the hang cycle
  output logic [3:0]  hang_reason_o  // 1 missing FINALIZE, 2 command past end, 3 unmapped fetch
);

  // IDs whose writes stop the CP (generated package; model: regs::id::FINALIZE and the
  // Trigger(CmdbufJump(n)) side effect of model/regs/registers.toml).
  localparam logic [16:0] IdFinalize = 17'(pica_regs_pkg::REG_FINALIZE);
  localparam logic [16:0] IdJump0    = 17'(pica_regs_pkg::REG_CMDBUF_JUMP0);
  localparam logic [16:0] IdJump1    = 17'(pica_regs_pkg::REG_CMDBUF_JUMP1);

  localparam logic [3:0] HangNone           = 4'd0;
  localparam logic [3:0] HangMissingFinalize = 4'd1;
  localparam logic [3:0] HangPastEnd        = 4'd2;
  localparam logic [3:0] HangUnmapped       = 4'd3;

  // CpState of the model (Idle is never entered: the stream is the submitted buffer from reset).
  typedef enum logic [2:0] {
    StParam0   = 3'd0,
    StHeader   = 3'd1,
    StExtra    = 3'd2,
    StPad      = 3'd3,
    StWaitRedir = 3'd4,
    StDone     = 3'd5,
    StHung     = 3'd6
  } cp_state_e;

  cp_state_e   state_q, state_d;
  logic        src_mem_q, src_mem_d;   // 0: stream, 1: memory buffer (after a jump)
  logic [31:0] next_q, next_d;         // Buffer::next (memory buffers)
  logic [32:0] end_q, end_d;           // Buffer::end(), base + (size & ~0xF) without overflow
  logic [31:0] param0_q, param0_d;
  logic [16:0] cur_id_q, cur_id_d;     // ID of the next extra param (header ID + n if consecutive)
  logic [3:0]  mask_q, mask_d;
  logic [7:0]  extra_q, extra_d;
  logic [7:0]  n_q, n_d;               // index of the next extra param, 1..extra
  logic        consec_q, consec_d;
  logic        hang_q, hang_d;
  logic [3:0]  reason_q, reason_d;

  // ---- The cycle's view after taking a pending redirect (CommandProcessor::tick).
  logic        take_redir, kick;
  cp_state_e   st;
  logic        src_mem;
  logic [31:0] next;
  logic [32:0] buf_end;

  assign take_redir  = (state_q == StWaitRedir) && redir_valid_i && !halt_i;
  assign redir_pop_o = take_redir;
  // A kick returns to the stream (the new list), also after a list that ended in a jumped-to
  // buffer; Done and WaitRedir exclude each other, so at most one of the two applies.
  assign kick        = kick_i && (state_q == StDone) && !halt_i;
  assign st          = (take_redir || kick) ? StParam0 : state_q;
  assign src_mem     = take_redir ? 1'b1 : (kick ? 1'b0 : src_mem_q);
  assign next        = take_redir ? redir_addr_i : next_q;
  assign buf_end     = take_redir ? ({1'b0, redir_addr_i} + {1'b0, redir_size_i & ~32'hF})
                                  : end_q;

  // ---- step_word
  logic reading, produces_write, want, exhausted, fetch, got_word;
  logic [31:0] word;

  assign reading        = (st == StParam0) || (st == StHeader) || (st == StExtra) || (st == StPad);
  assign produces_write = (st == StHeader) || (st == StExtra);
  assign want           = reading && !halt_i && (!produces_write || wr_space_i);
  // Buffer::exhausted for memory; for the stream: no word now and none will ever come.
  assign exhausted      = src_mem ? ({1'b0, next} >= buf_end) : (cmd_end_i && !cmd_valid_i);
  assign fetch          = want && !exhausted && (src_mem || cmd_valid_i);
  assign got_word       = fetch && !(src_mem && mem_err_i);
  assign word           = src_mem ? mem_rdata_i : cmd_data_i;

  assign cmd_ready_o = want && !src_mem;
  assign mem_req_o   = want && src_mem && !exhausted;
  assign mem_addr_o  = next;

  // The write this cycle (issue): header -> param0 to the header's ID; extra -> param n.
  logic        is_header;
  logic [16:0] hdr_id;
  logic        stop_finalize, stop_jump;

  assign is_header  = (st == StHeader);
  assign hdr_id     = {1'b0, word[15:0]};
  assign wr_valid_o = got_word && produces_write;
  assign wr_id_o    = is_header ? hdr_id : cur_id_q;
  assign wr_mask_o  = is_header ? word[19:16] : mask_q;
  assign wr_param_o = is_header ? param0_q : word;

  assign stop_finalize = wr_id_o == IdFinalize;
  assign stop_jump     = (wr_id_o == IdJump0) || (wr_id_o == IdJump1);

  always_comb begin
    state_d   = st;
    src_mem_d = src_mem;
    next_d    = next;
    end_d     = buf_end;
    param0_d  = param0_q;
    cur_id_d  = cur_id_q;
    mask_d    = mask_q;
    extra_d   = extra_q;
    n_d       = n_q;
    consec_d  = consec_q;
    hang_d    = hang_q;
    reason_d  = reason_q;

    if (want && exhausted) begin
      // CommandProcessor::end_of_buffer
      state_d  = StHung;
      hang_d   = 1'b1;
      reason_d = produces_write ? HangPastEnd : HangMissingFinalize;
    end else if (fetch && src_mem && mem_err_i) begin
      state_d  = StHung;
      hang_d   = 1'b1;
      reason_d = HangUnmapped;
    end else if (got_word) begin
      next_d = next + 32'd4;
      unique case (st)
        StParam0: begin
          param0_d = word;
          state_d  = StHeader;
        end
        StHeader: begin
          mask_d   = word[19:16];
          extra_d  = word[27:20];
          consec_d = word[31];
          n_d      = 8'd1;
          cur_id_d = word[31] ? hdr_id + 17'd1 : hdr_id;
          if (stop_finalize)           state_d = StDone;
          else if (stop_jump)          state_d = StWaitRedir;
          else if (word[27:20] != '0)  state_d = StExtra;
          else                         state_d = StParam0;
        end
        StExtra: begin
          if (stop_finalize)           state_d = StDone;
          else if (stop_jump)          state_d = StWaitRedir;
          else if (n_q < extra_q) begin
            state_d  = StExtra;
            n_d      = n_q + 8'd1;
            cur_id_d = consec_q ? cur_id_q + 17'd1 : cur_id_q;
          end
          // 2 + extra words, rounded up to even (CommandHeader::total_words).
          else if (extra_q[0])         state_d = StPad;
          else                         state_d = StParam0;
        end
        StPad:   state_d = StParam0;
        default: state_d = st;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StParam0;   // the list is submitted at reset (Gpu::submit before cycle 0)
      src_mem_q <= 1'b0;
      next_q    <= '0;
      end_q     <= '0;
      param0_q  <= '0;
      cur_id_q  <= '0;
      mask_q    <= '0;
      extra_q   <= '0;
      n_q       <= '0;
      consec_q  <= 1'b0;
      hang_q    <= 1'b0;
      reason_q  <= HangNone;
    end else begin
      state_q   <= state_d;
      src_mem_q <= src_mem_d;
      next_q    <= next_d;
      end_q     <= end_d;
      param0_q  <= param0_d;
      cur_id_q  <= cur_id_d;
      mask_q    <= mask_d;
      extra_q   <= extra_d;
      n_q       <= n_d;
      consec_q  <= consec_d;
      hang_q    <= hang_d;
      reason_q  <= reason_d;
    end
  end

  assign done_o        = state_q == StDone;
  assign hang_o        = hang_q;
  assign hang_reason_o = reason_q;

`ifndef SYNTHESIS
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // nothing to check in reset (rst_ni used only as an async reset: SYNCASYNCNET)
    end else begin
      // Only one jump is in flight: the redirect arrives while the CP waits for it.
      if (redir_valid_i && state_q != StWaitRedir)
        $error("pica_cp: redirect while not waiting for one");
      if (wr_valid_o && !wr_space_i)
        $error("pica_cp: write issued without FIFO space");
      if (hang_q && state_q != StHung)
        $error("pica_cp: hang flag outside the Hung state");
    end
  end
`endif

endmodule : pica_cp
