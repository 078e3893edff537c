// pica_top_dpi_tb: runs pica_top (the RTL front end: CP + REGS) on one command list with the
// pica-cosim model as its scoreboard, through DPI-C only (package pica_model_dpi over the model's
// C ABI, libpica_capi). No C++ of ours: build with `verilator --binary` (capi/dpi/run.sh).
//
// Plusargs:
//   +list=FILE        the command list (.hex text words as in vectors/examples, or .bin), loaded
//                     at 0x20000000 and submitted with its whole size (as `pica run FILE` does)
//   +max_cycles=N     cycle limit of both runs (default 100000000, as pica run's)
//   +addr=H           load and submit the list at hex address H instead of 20000000
//   +size=N           submit N bytes (decimal) instead of the list file's size
//   +no_state         skip step 5 (the final-state comparison)
//   +memK=FILE +memK_addr=H   (K = 0..15) more memory: FILE (.hex / .bin) loaded at hex
//                     address H before the run (buffers reached through CMDBUF jumps; a
//                     pica-vectors bundle's `memory` entries, with the first as +list)
//
// What it does (the same as the Rust lockstep, rtl-bridge/src/lib.rs RtlGpu, does):
//   1. The model (PICA_GPU_FRONT_END: CP + REGS alone, as pica_top has them) loads and runs the
//      list to its end; its register-write beats wait in the model's regwrite channel.
//   2. pica_top is reset (rst_ni low for two clocks, then high: cycle 0 begins) and driven:
//      the command stream is the list's first size & ~0xF bytes as words (read back from the
//      model's memory), cmd_end_i = 1 after the last; the memory port is combinational: when
//      mem_req_o is high mem_rdata_i answers from the model's memory in the same cycle, or
//      mem_err_i = 1 for an unmapped address; hold_i, dbg_req_i = 0; SH inputs idle.
//   3. In every cycle that trace_rw_valid_o is high, the model's next beat is popped and
//      compared: cycle (this bench's cycle counter, low 32 bits), id, mask, param, value. The
//      first difference stops the run with $fatal:
//        FAIL list L: beat B (cycle C) GPUREG_X (id 0x..): value: model 0x.. RTL 0x..
//   4. When the RTL's run is over (finished_o: finished in that cycle; hang_o && idle_o: a hang,
//      whose cycle is one before the cycle hang_o first rose, with the hang_reason_o code then;
//      or the cycle limit) the outcome must equal the model's, and the model must have no beat
//      left.
//   5. The final state: every address of the debug map is read through pica_top's debug port
//      (one per clock, pipelined; dbg_req_i halts the design) and compared with the model's
//      (pica_gpu_debug_read), as the Rust lockstep's compare_state does. This is what catches
//      a wrong value that leaves no trace beat (a shader RAM or a uniform). +no_state skips it.
//   Then one line: PASS list L: N beats, <outcome> ..., D debug words equal
//
// Parameter EnableSh (default 0) is pica_top's: 0 leaves the SH stage out (it takes no part in a
// command-list run; the build is much faster).
`timescale 1ns / 1ps
module pica_top_dpi_tb #(
  parameter bit EnableSh = 1'b0
);
  import pica_model_dpi::*;

  localparam int unsigned DefaultListAddr = 32'h2000_0000;
  localparam int MaxMems = 16;
  localparam longint unsigned DefaultMaxCycles = 64'd100_000_000;

  // ---------------------------------------------------------------------------------------------
  // pica_top and its ports.

  logic          clk_i = 1'b0;
  logic          rst_ni = 1'b0;
  logic          cmd_valid_i = 1'b0;
  logic [31:0]   cmd_data_i = '0;
  logic          cmd_end_i = 1'b0;
  logic          cmd_ready_o;
  logic          mem_req_o;
  logic [31:0]   mem_addr_o;
  logic [31:0]   mem_rdata_i;
  logic          mem_err_i;
  logic          trace_rw_valid_o;
  logic [16:0]   trace_rw_id_o;
  logic [3:0]    trace_rw_mask_o;
  logic [31:0]   trace_rw_param_o;
  logic [31:0]   trace_rw_value_o;
  logic          finished_o;
  logic          hang_o;
  logic [3:0]    hang_reason_o;
  logic          idle_o;
  logic          dbg_req_i = 1'b0;
  logic [15:0]   dbg_addr_i = '0;
  logic [31:0]   dbg_rdata_o;

  // SH ports: inputs idle (no vertex, outputs always taken); outputs unused.
  logic          sh_in_ready_o;
  logic          sh_out_valid_o;
  logic [1:0]    sh_out_kind_o;
  logic [31:0]   sh_out_id_o;
  logic [5:0]    sh_out_reg_o;
  logic [95:0]   sh_out_data_o;
  logic          sh_out_last_o;
  logic [1:0]    sh_out_vtx_id_o;
  logic          sh_out_winding_o;
  logic          sh_out_prim_o;
  logic          sh_commit_valid_o;
  logic [1:0]    sh_commit_unit_o;
  logic [31:0]   sh_commit_seq_o;
  logic [11:0]   sh_commit_pc_o;
  logic [31:0]   sh_commit_word_o;
  logic [7:0]    sh_commit_dst_o;
  logic [3:0]    sh_commit_mask_o;
  logic [95:0]   sh_commit_result_o;
  logic [1:0]    sh_commit_cmp_o;
  logic [31:0]   sh_commit_a0x_o;
  logic [31:0]   sh_commit_a0y_o;
  logic [31:0]   sh_commit_al_o;
  logic [11:0]   sh_commit_next_pc_o;
  logic          sh_commit_emit_o;
  logic [2:0]    sh_commit_hang_o;
  logic          sh_commit_end_o;
  logic          sh_hang_o;
  logic [1:0]    sh_hang_unit_o;
  logic [11:0]   sh_hang_pc_o;
  logic [31:0]   sh_hang_word_o;
  logic [2:0]    sh_hang_code_o;
  logic          sh_idle_o;

  pica_top #(.EnableSh(EnableSh)) dut (
    .clk_i,
    .rst_ni,
    .hold_i              (1'b0),
    .cmd_valid_i,
    .cmd_data_i,
    .cmd_end_i,
    .cmd_ready_o,
    .cmd_kick_i          (1'b0),   // one list per run
    .mem_req_o,
    .mem_addr_o,
    .mem_rdata_i,
    .mem_err_i,
    .trace_rw_valid_o,
    .trace_rw_id_o,
    .trace_rw_mask_o,
    .trace_rw_param_o,
    .trace_rw_value_o,
    .finished_o,
    .hang_o,
    .hang_reason_o,
    .idle_o,
    .dbg_req_i,
    .dbg_addr_i,
    .dbg_rdata_o,
    .sh_in_valid_i       (1'b0),
    .sh_in_ready_o,
    .sh_in_kind_i        (2'h0),
    .sh_in_seq_i         (32'h0),
    .sh_in_attr_i        (5'h0),
    .sh_in_last_i        (1'b0),
    .sh_in_data_i        (96'h0),
    .sh_out_valid_o,
    .sh_out_ready_i      (1'b1),
    .sh_out_kind_o,
    .sh_out_id_o,
    .sh_out_reg_o,
    .sh_out_data_o,
    .sh_out_last_o,
    .sh_out_vtx_id_o,
    .sh_out_winding_o,
    .sh_out_prim_o,
    .sh_commit_valid_o,
    .sh_commit_ready_i   (1'b1),
    .sh_commit_unit_o,
    .sh_commit_seq_o,
    .sh_commit_pc_o,
    .sh_commit_word_o,
    .sh_commit_dst_o,
    .sh_commit_mask_o,
    .sh_commit_result_o,
    .sh_commit_cmp_o,
    .sh_commit_a0x_o,
    .sh_commit_a0y_o,
    .sh_commit_al_o,
    .sh_commit_next_pc_o,
    .sh_commit_emit_o,
    .sh_commit_hang_o,
    .sh_commit_end_o,
    .sh_hang_o,
    .sh_hang_unit_o,
    .sh_hang_pc_o,
    .sh_hang_word_o,
    .sh_hang_code_o,
    .sh_idle_o
  );

  // The SH stage takes no part in a command-list run.
  logic unused_ok;
  assign unused_ok = ^{sh_in_ready_o, sh_out_valid_o, sh_out_kind_o, sh_out_id_o,
                       sh_out_reg_o, sh_out_data_o, sh_out_last_o, sh_out_vtx_id_o,
                       sh_out_winding_o, sh_out_prim_o, sh_commit_valid_o, sh_commit_unit_o,
                       sh_commit_seq_o, sh_commit_pc_o, sh_commit_word_o, sh_commit_dst_o,
                       sh_commit_mask_o, sh_commit_result_o, sh_commit_cmp_o, sh_commit_a0x_o,
                       sh_commit_a0y_o, sh_commit_al_o, sh_commit_next_pc_o, sh_commit_emit_o,
                       sh_commit_hang_o, sh_commit_end_o, sh_hang_o, sh_hang_unit_o,
                       sh_hang_pc_o, sh_hang_word_o, sh_hang_code_o, sh_idle_o};

  // ---------------------------------------------------------------------------------------------
  // The model, and the memory port served from its memory (combinational, like an async-read
  // SRAM: answered in the cycle of the request).

  chandle gpu = null;

  always_comb begin
    mem_rdata_i = '0;
    mem_err_i   = 1'b0;
    if (mem_req_o && gpu != null) begin
      mem_err_i = !mem_read(gpu, mem_addr_o, mem_rdata_i);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // The run.

  string           list;
  longint unsigned max_cycles = DefaultMaxCycles;
  int unsigned     stream[$];          // the command-word stream
  int unsigned     next_word = 0;      // index of the word on cmd_data_i
  longint unsigned cycle = 0;          // RTL cycle (0 = first after reset)
  longint unsigned beats = 0;          // beats compared so far
  bit              hang_seen = 1'b0;   // hang_o has risen
  longint unsigned hang_first = 0;     // ... first in this cycle
  logic [3:0]      hang_code = '0;     // ... with this hang_reason_o

  // Stops with the divergence message (one field, model vs RTL).
  task automatic fail_field(input logic [16:0] id, input string field,
                            input longint unsigned want, input longint unsigned got);
    $fatal(1, "FAIL list %s: beat %0d (cycle %0d) %s (id 0x%05h): %s: model 0x%0h RTL 0x%0h",
           list, beats, cycle, pica_reg_name(32'(id)), id, field, want, got);
  endtask

  // Compares the beat on the trace port with the model's next beat.
  task automatic compare_beat();
    pica_chan_pkg::reg_write_beat_t m, r;
    if (!pop_regwrite(gpu, m)) begin
      $fatal(1, "FAIL list %s: beat %0d (cycle %0d) %s (id 0x%05h): the RTL wrote value 0x%08h (mask 0x%h, param 0x%08h) but the model has no beat left",
             list, beats, cycle, pica_reg_name(32'(trace_rw_id_o)), trace_rw_id_o,
             trace_rw_value_o, trace_rw_mask_o, trace_rw_param_o);
    end
    // The RTL's beat in the same struct (the cycle as the channel carries it: 32 bits).
    r = '{cycle: cycle[31:0], pad_0: '0, mask: trace_rw_mask_o, id: trace_rw_id_o,
          param: trace_rw_param_o, value: trace_rw_value_o};
    if (m != r) begin
      if (m.cycle != r.cycle) fail_field(m.id, "cycle", 64'(m.cycle), 64'(r.cycle));
      if (m.id != r.id) begin
        $fatal(1, "FAIL list %s: beat %0d (cycle %0d) %s (id 0x%05h): id: model 0x%05h (%s) RTL 0x%05h (%s)",
               list, beats, cycle, pica_reg_name(32'(m.id)), m.id, m.id,
               pica_reg_name(32'(m.id)), r.id, pica_reg_name(32'(r.id)));
      end
      if (m.mask != r.mask) fail_field(m.id, "mask", 64'(m.mask), 64'(r.mask));
      if (m.param != r.param) fail_field(m.id, "param", 64'(m.param), 64'(r.param));
      if (m.value != r.value) fail_field(m.id, "value", 64'(m.value), 64'(r.value));
      fail_field(m.id, "pad_0", 64'(m.pad_0), 64'(r.pad_0));
    end
    beats++;
  endtask

  // A debug-map address as text (registers by name, memories by unit, table and entry).
  function automatic string debug_name(input int unsigned a);
    return $sformatf("0x%04h %s", a, pica_debug_describe(a));
  endfunction

  // Step 5: reads the whole debug map through the debug port and compares it with the model's;
  // n = the number of words compared. Prints the first 8 differences, then stops with $fatal.
  task automatic compare_state(output int unsigned n);
    int unsigned addrs[];
    int unsigned a, want, got, diffs, first;
    n = pica_debug_address_count();
    addrs = new[n];
    for (int unsigned i = 0; i < n; i++) begin
      // Through a: Verilator 5.006 (V3Timing) cannot take an array element as an output
      // argument in a task with delays.
      check_ok(pica_debug_address(i, a), "pica_debug_address");
      addrs[i] = a;
    end
    diffs = 0;
    first = 0;
    cmd_valid_i = 1'b0;
    cmd_data_i  = '0;
    cmd_end_i   = 1'b1;
    // dbg_rdata_o shows the word of the address presented in the previous clock.
    for (int unsigned i = 0; i <= n; i++) begin
      dbg_req_i  = i < n;
      dbg_addr_i = i < n ? 16'(addrs[i]) : '0;
      #2;
      if (i > 0) begin
        got = dbg_rdata_o;
        check_ok(pica_gpu_debug_read(gpu, addrs[i-1], want), "pica_gpu_debug_read");
        if (got != want) begin
          if (diffs == 0) first = i - 1;
          diffs++;
          if (diffs <= 8) begin
            $display("FAIL list %s: final state: %s: model 0x%08h RTL 0x%08h", list,
                     debug_name(addrs[i-1]), want, got);
          end
        end
      end
      if (i < n) tick();
    end
    dbg_req_i = 1'b0;
    if (diffs != 0) begin
      $fatal(1, "FAIL list %s: final state: %0d of %0d debug words differ, the first %s",
             list, diffs, n, debug_name(addrs[first]));
    end
  endtask

  task automatic tick();
    clk_i = 1'b1;
    #5;
    clk_i = 1'b0;
    #3;
  endtask

  initial begin : run
    int unsigned     bytes, addr, mem_addr;
    string           mem_file;
    int unsigned     w;
    int unsigned     m_kind, m_code, r_kind, r_code;
    longint unsigned m_cycle, r_cycle, m_left;
    int unsigned     n_state;
    string           m_msg;

    if (!$value$plusargs("list=%s", list)) begin
      $fatal(1, "usage: +list=FILE (a command list .hex or .bin) [+max_cycles=N]");
    end
    void'($value$plusargs("max_cycles=%d", max_cycles));

    // 1. The model.
    addr = DefaultListAddr;
    void'($value$plusargs("addr=%h", addr));
    gpu = new_gpu(PICA_GPU_FRONT_END);
    bytes = load_file(gpu, list, addr);
    void'($value$plusargs("size=%d", bytes));
    for (int k = 0; k < MaxMems; k++) begin
      if ($value$plusargs($sformatf("mem%0d=%%s", k), mem_file)) begin
        if (!$value$plusargs($sformatf("mem%0d_addr=%%h", k), mem_addr)) begin
          $fatal(1, "+mem%0d=%s needs +mem%0d_addr=HEX", k, mem_file, k);
        end
        void'(load_file(gpu, mem_file, mem_addr));
      end
    end
    for (int unsigned i = 0; i < (bytes & ~32'hF) / 4; i++) begin
      // An unreadable word streams as 0 (the model's submit refuses such a list anyway).
      if (!mem_read(gpu, addr + 4 * i, w)) w = '0;
      stream.push_back(w);
    end
    check_ok(pica_gpu_submit(gpu, addr, bytes), "pica_gpu_submit");
    check_ok(pica_gpu_run(gpu, max_cycles), "pica_gpu_run");
    check_ok(pica_gpu_outcome(gpu, m_kind, m_cycle, m_code), "pica_gpu_outcome");
    m_msg = pica_gpu_outcome_message(gpu);

    // 2. Reset: two clocks with rst_ni low; cycle 0 begins when it is released.
    #2;
    tick();
    #2;
    tick();
    rst_ni = 1'b1;

    // 3. The RTL, cycle by cycle.
    forever begin
      cmd_valid_i = next_word < stream.size();
      cmd_data_i  = cmd_valid_i ? stream[next_word] : '0;
      cmd_end_i   = !cmd_valid_i;
      #2;  // the logic settles, the memory port answers
      if (hang_o && !hang_seen) begin
        hang_seen  = 1'b1;
        hang_first = cycle;
        hang_code  = hang_reason_o;
      end
      if (finished_o) begin
        r_kind  = PICA_OUTCOME_FINISHED;
        r_cycle = cycle;
        r_code  = 0;
        break;
      end
      if (hang_o && idle_o) begin
        r_kind  = PICA_OUTCOME_HANG;
        r_cycle = hang_first == 0 ? 0 : hang_first - 1;
        r_code  = 32'(hang_code);
        break;
      end
      if (cycle >= max_cycles) begin
        r_kind  = PICA_OUTCOME_CYCLE_LIMIT;
        r_cycle = cycle;
        r_code  = 0;
        break;
      end
      if (trace_rw_valid_o) compare_beat();
      if (cmd_valid_i && cmd_ready_o) next_word++;
      tick();
      cycle++;
    end

    // 4. The outcome and the beats left.
    if (r_kind != m_kind || r_cycle != m_cycle ||
        (m_kind == PICA_OUTCOME_HANG && r_code != m_code)) begin
      $fatal(1, "FAIL list %s: outcome after %0d beats: model %s cycle %0d code %0d (%s), RTL %s cycle %0d code %0d",
             list, beats, outcome_name(m_kind), m_cycle, m_code, m_msg, outcome_name(r_kind),
             r_cycle, r_code);
    end
    m_left = regwrite_waiting(gpu);
    if (m_left != 0) begin
      pica_chan_pkg::reg_write_beat_t m;
      void'(pop_regwrite(gpu, m));
      $fatal(1, "FAIL list %s: the RTL ended (%s) after %0d beats but the model has %0d more; the next: %s",
             list, outcome_name(r_kind), beats, m_left, beat_text(m));
    end
    // 5. The final state.
    n_state = 0;
    if (!$test$plusargs("no_state")) compare_state(n_state);
    $display("PASS list %s: %0d beats, %s at cycle %0d%s (model: %s), %0d command words, %0d debug words equal",
             list, beats, outcome_name(r_kind), r_cycle,
             r_kind == PICA_OUTCOME_HANG ? $sformatf(" code %0d", r_code) : "", m_msg,
             stream.size(), n_state);
    check_ok(pica_gpu_free(gpu), "pica_gpu_free");
    gpu = null;
    $finish;
  end

endmodule : pica_top_dpi_tb
