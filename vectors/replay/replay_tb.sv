// replay_tb: replays a golden-vector bundle (format v1: README.md "Golden-vector bundles", rtl-bridge/rtl/README.md) on pica_top.
//
// Plain SystemVerilog, no DPI: runs under Icarus (iverilog -g2012) and Verilator (--binary).
// scripts/replay builds the plusargs from the bundle's manifest.json:
//
//   +stim=FILE +stim_words=N               the submitted lists' words (16-byte rule applied), one
//                                          list after the other
//   +memI=FILE +memI_base=HEX +memI_words=N  memory images, I = 0..15 (optional)
//   +steps=FILE +nsteps=N                  optional: steps.hex of a multi-step bundle (several
//                                          lists submitted one after another, memory fills)
//   +beats=FILE +nbeats=N                  regwrite.hex: 128-bit beats
//   +final_regs=FILE                       final_regs.hex: 0x300 words (optional)
//   +outcome=finished|hang|cycle_limit +outcome_cycle=N +hang_reason=N
//   +max_cycles=N
//   +dump=FILE                             optional: every mapped debug-port word as "addr data"
//
// Timing: reset is released between edges; cycle k is the k-th cycle after that (the model's
// Gpu::step() number k). Inputs change just after a rising edge, outputs are checked at the
// falling edge. The stream is valid while words remain and cmd_end_i is set after the last one;
// the memory port is answered combinationally from the images (zero elsewhere in VRAM/FCRAM,
// mem_err_i outside them, as the model maps memory).
//
// Steps (steps.hex, 160-bit lines: kind, then four 32-bit fields; README "Golden-vector
// bundles"): 1 submit (address, size, first word in stim, word count), 2 memory fill (start,
// end, value, width in bits), 3 transfer (not modelled: skipped). The steps before the first
// submit run before reset is released; each further submit starts in the cycle finished_o is
// high after the previous one (cmd_kick_i high for that cycle, the stream switched to the new
// list's words), after the fills before it — the model's Gpu::submit after Outcome::Finished.
// A fill writes the memory the port answers from (the PSC's pattern: pica_model::psc).
//
// Prints PASS, or FAIL: <first mismatch> and stops with $fatal (non-zero exit in both simulators).
`timescale 1ns / 1ps
module replay_tb;

  // Capacities (words); a bundle larger than these is rejected with a FAIL naming the limit.
  localparam int MaxStim  = 1 << 20;
  localparam int MaxMem   = 1 << 20;   // words of all images together
  localparam int MaxImages = 16;
  localparam int MaxBeats = 1 << 20;
  localparam int NumRegs  = 768;
  localparam int MaxSteps = 4096;
  localparam int MaxFills = 256;

  logic clk = 1'b0;
  logic rst_ni = 1'b0;
  always #5 clk = ~clk;

  // DUT ports
  logic        cmd_valid, cmd_end, cmd_ready, cmd_kick;
  logic [31:0] cmd_data;
  logic        mem_req, mem_err;
  logic [31:0] mem_addr, mem_rdata;
  logic        tr_valid;
  logic [16:0] tr_id;
  logic [3:0]  tr_mask;
  logic [31:0] tr_param, tr_value;
  logic        finished, hang, idle;
  logic [3:0]  hang_reason;
  logic        dbg_req;
  logic [15:0] dbg_addr;
  logic [31:0] dbg_rdata;

  // The front end only (EnableSh = 0): a bundle's stimulus is a command list and its checks are
  // the register-write beats, the outcome and the debug map, none of which the SH stage drives;
  // without it Icarus does not evaluate four idle shader units every cycle.
  pica_top #(.EnableSh(1'b0)) dut (
    .clk_i            (clk),
    .rst_ni           (rst_ni),
    .hold_i           (1'b0),
    .cmd_valid_i      (cmd_valid),
    .cmd_data_i       (cmd_data),
    .cmd_end_i        (cmd_end),
    .cmd_ready_o      (cmd_ready),
    .cmd_kick_i       (cmd_kick),
    .mem_req_o        (mem_req),
    .mem_addr_o       (mem_addr),
    .mem_rdata_i      (mem_rdata),
    .mem_err_i        (mem_err),
    .trace_rw_valid_o (tr_valid),
    .trace_rw_id_o    (tr_id),
    .trace_rw_mask_o  (tr_mask),
    .trace_rw_param_o (tr_param),
    .trace_rw_value_o (tr_value),
    .finished_o       (finished),
    .hang_o           (hang),
    .hang_reason_o    (hang_reason),
    .idle_o           (idle),
    .dbg_req_i        (dbg_req),
    .dbg_addr_i       (dbg_addr),
    .dbg_rdata_o      (dbg_rdata),
    // SH ports: no vertex goes in; outputs would always be accepted.
    .sh_in_valid_i    (1'b0),
    .sh_in_ready_o    (),
    .sh_in_kind_i     ('0),
    .sh_in_seq_i      ('0),
    .sh_in_attr_i     ('0),
    .sh_in_last_i     (1'b0),
    .sh_in_data_i     ('0),
    .sh_out_valid_o   (),
    .sh_out_ready_i   (1'b1),
    .sh_out_kind_o    (),
    .sh_out_id_o      (),
    .sh_out_reg_o     (),
    .sh_out_data_o    (),
    .sh_out_last_o    (),
    .sh_out_vtx_id_o  (),
    .sh_out_winding_o (),
    .sh_out_prim_o    (),
    .sh_commit_valid_o(),
    .sh_commit_ready_i(1'b1),
    .sh_commit_unit_o (),
    .sh_commit_seq_o  (),
    .sh_commit_pc_o   (),
    .sh_commit_word_o (),
    .sh_commit_dst_o  (),
    .sh_commit_mask_o (),
    .sh_commit_result_o(),
    .sh_commit_cmp_o  (),
    .sh_commit_a0x_o  (),
    .sh_commit_a0y_o  (),
    .sh_commit_al_o   (),
    .sh_commit_next_pc_o(),
    .sh_commit_emit_o (),
    .sh_commit_hang_o (),
    .sh_commit_end_o  (),
    .sh_hang_o        (),
    .sh_hang_unit_o   (),
    .sh_hang_pc_o     (),
    .sh_hang_word_o   (),
    .sh_hang_code_o   (),
    .sh_idle_o        ()
  );

  // ---- Bundle contents
  logic [31:0]  stim [MaxStim];
  logic [31:0]  img [MaxMem];          // every image, one after the other (img_off)
  logic [127:0] beats [MaxBeats];
  logic [31:0]  final_regs [NumRegs];
  logic [159:0] steps [MaxSteps];

  int          stim_words, nbeats, nsteps, mem_used;
  int          img_words [MaxImages];
  int          img_off [MaxImages];
  logic [31:0] img_base [MaxImages];
  string       stim_file, beats_file, regs_file, dump_file, outcome_kind, fname, steps_file;
  int          outcome_cycle, hang_reason_exp;
  longint      max_cycles;
  logic        have_regs, have_dump;
  logic [31:0] base_arg;
  int          words_arg;

  // Memory fills done so far, in order (a later one wins where they overlap).
  logic [31:0] fill_start [MaxFills];
  logic [31:0] fill_end   [MaxFills];
  logic [31:0] fill_value [MaxFills];
  int          fill_bytes [MaxFills];   // 2, 3 or 4
  int          nfills = 0;

  // ---- Memory port: combinational lookup in the images (64-bit compare, no wrap), then the
  // fills done so far. Physical memory as the model maps it (model/src/mem.rs): VRAM
  // 0x18000000-0x185FFFFF and FCRAM 0x20000000-0x27FFFFFF read as zero outside the images;
  // anything else is unmapped. Fills are 8-aligned, so a word is inside a fill or outside.
  function automatic logic [32:0] mem_lookup(input logic [31:0] addr);
    longint a, b, o;
    logic mapped;
    logic [31:0] w;
    mapped = (addr >= 32'h1800_0000 && addr <= 32'h185F_FFFC) ||
             (addr >= 32'h2000_0000 && addr <= 32'h27FF_FFFC);
    w = 32'h0;
    a = longint'(addr);
    for (int i = 0; i < MaxImages; i++) begin
      b = longint'(img_base[i]);
      if (img_words[i] > 0 && a >= b && a < b + 4 * longint'(img_words[i]))
        w = img[img_off[i] + int'((a - b) >> 2)];
    end
    for (int f = 0; f < nfills; f++) begin
      if (a >= longint'(fill_start[f]) && a < longint'(fill_end[f])) begin
        for (int j = 0; j < 4; j++) begin
          // pica_model::psc::MemoryFill::byte_at: byte (offset % width) of the value, low first.
          o = a + j - longint'(fill_start[f]);
          w[8*j +: 8] = 8'(fill_value[f] >> (8 * int'(o % longint'(fill_bytes[f]))));
        end
      end
    end
    mem_lookup = {!mapped, mapped ? w : 32'h0};  // {err, data}
  endfunction

  // Sensitive to the address (and the load and the fills) only: an always_comb would be
  // sensitive to every word of the images, which makes Icarus elaborate for minutes.
  logic images_loaded = 1'b0;
  always @(mem_addr or images_loaded or nfills) begin
    {mem_err, mem_rdata} = mem_lookup(mem_addr);
  end

  // ---- Failure reporting
  task automatic fail(input string msg);
    $display("FAIL: %s", msg);
    $fatal(1, "replay_tb: FAIL");
  endtask

  // ---- Stimulus: the current submission's words stim[widx .. sub_end).
  int widx, sub_end, sidx;
  task automatic drive_stream;
    cmd_valid = widx < sub_end;
    cmd_end   = widx >= sub_end;
    cmd_data  = (widx < sub_end) ? stim[widx] : 32'h0;
  endtask

  // The steps from sidx up to and including the next submit: fills recorded for the memory
  // port, transfers skipped, the submit's words made the stream. Returns whether a list was
  // submitted.
  task automatic next_steps(output logic submitted);
    logic [159:0] st;
    submitted = 1'b0;
    while (!submitted && sidx < nsteps) begin
      st = steps[sidx];
      sidx++;
      case (st[159:128])
        32'd1: begin
          if (int'(st[63:32]) + int'(st[31:0]) > stim_words)
            fail($sformatf("step %0d: submit words %0d..%0d beyond stim_words %0d", sidx - 1,
                           st[63:32], int'(st[63:32]) + int'(st[31:0]), stim_words));
          widx      = int'(st[63:32]);
          sub_end   = widx + int'(st[31:0]);
          submitted = 1'b1;
        end
        32'd2: begin
          if (nfills >= MaxFills) fail($sformatf("more than %0d fills", MaxFills));
          fill_start[nfills] = st[127:96];
          fill_end[nfills]   = st[95:64];
          fill_value[nfills] = st[63:32];
          fill_bytes[nfills] = int'(st[31:0]) / 8;
          if (fill_bytes[nfills] < 2 || fill_bytes[nfills] > 4)
            fail($sformatf("step %0d: fill width %0d", sidx - 1, st[31:0]));
          nfills = nfills + 1;
        end
        32'd3: ;  // transfer: not modelled
        default: fail($sformatf("step %0d: unknown kind %0d", sidx - 1, st[159:128]));
      endcase
    end
  endtask

  // ---- Debug-port read: present the address for one cycle, the word comes the next.
  task automatic dbg_read(input logic [15:0] a, output logic [31:0] d);
    dbg_req  = 1'b1;
    dbg_addr = a;
    @(posedge clk);
    #1;
    dbg_req = 1'b0;
    d = dbg_rdata;
  endtask

  task automatic dump_range(input int fd, input int lo, input int hi);  // [lo, hi)
    logic [31:0] d;
    for (int a = lo; a < hi; a++) begin
      dbg_read(16'(a), d);
      $fwrite(fd, "%04x %08x\n", a[15:0], d);
    end
  endtask

  // One cycle of the replay: beat check and stream handshake, then the clock edge.
  task automatic step_cycle;
    logic [127:0] e;
    logic         fire;
    if (outcome_kind != "cycle_limit" && cycle > longint'(outcome_cycle) + 1000)
      fail($sformatf("outcome: expected %s at cycle %0d, still running at cycle %0d",
                     outcome_kind, outcome_cycle, cycle));
    if (tr_valid) begin
      if (bi >= nbeats)
        fail($sformatf("beat %0d cycle %0d: extra beat (expected %0d beats) id 0x%0h param 0x%08h",
                       bi, cycle, nbeats, tr_id, tr_param));
      e = beats[bi];
      if (longint'(e[127:96]) != cycle)
        fail($sformatf("beat %0d cycle %0d: field cycle expected %0d actual %0d (id 0x%0h)",
                       bi, cycle, e[127:96], cycle, tr_id));
      if (e[80:64] != tr_id)
        fail($sformatf("beat %0d cycle %0d: field id expected 0x%0h actual 0x%0h",
                       bi, cycle, e[80:64], tr_id));
      if (e[84:81] != tr_mask)
        fail($sformatf("beat %0d cycle %0d: field mask expected 0x%0h actual 0x%0h",
                       bi, cycle, e[84:81], tr_mask));
      if (e[63:32] != tr_param)
        fail($sformatf("beat %0d cycle %0d: field param expected 0x%08h actual 0x%08h",
                       bi, cycle, e[63:32], tr_param));
      if (e[31:0] != tr_value)
        fail($sformatf("beat %0d cycle %0d: field value expected 0x%08h actual 0x%08h (id 0x%0h)",
                       bi, cycle, e[31:0], tr_value, tr_id));
      bi++;
    end
    fire = cmd_valid && cmd_ready;
    @(posedge clk);
    #1;
    if (fire) widx++;
    cmd_kick = 1'b0;  // a kick lasts one cycle
    drive_stream;
    cycle++;
  endtask

  // ---- Main
  longint cycle;
  int     bi;
  longint hang_first;
  string  kind;
  logic [31:0]  d;

  logic submitted;

  initial begin
    cmd_valid = 1'b0;
    cmd_end   = 1'b0;
    cmd_kick  = 1'b0;
    cmd_data  = '0;
    dbg_req   = 1'b0;
    dbg_addr  = '0;
    for (int i = 0; i < MaxImages; i++) begin
      img_words[i] = 0;
      img_off[i]   = 0;
      img_base[i]  = '0;
    end

    // Plusargs
    if (!$value$plusargs("stim=%s", stim_file)) fail("missing +stim=FILE");
    if (!$value$plusargs("stim_words=%d", stim_words)) fail("missing +stim_words=N");
    if (!$value$plusargs("beats=%s", beats_file)) fail("missing +beats=FILE");
    if (!$value$plusargs("nbeats=%d", nbeats)) fail("missing +nbeats=N");
    if (!$value$plusargs("outcome=%s", outcome_kind)) fail("missing +outcome=KIND");
    if (!$value$plusargs("outcome_cycle=%d", outcome_cycle)) fail("missing +outcome_cycle=N");
    if (!$value$plusargs("hang_reason=%d", hang_reason_exp)) hang_reason_exp = 0;
    if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 100000000;
    have_regs = $value$plusargs("final_regs=%s", regs_file);
    have_dump = $value$plusargs("dump=%s", dump_file);
    if (!$value$plusargs("nsteps=%d", nsteps)) nsteps = 0;
    if (nsteps < 0 || nsteps > MaxSteps) fail($sformatf("nsteps %0d exceeds %0d", nsteps, MaxSteps));
    if (nsteps > 0) begin
      if (!$value$plusargs("steps=%s", steps_file)) fail("missing +steps=FILE");
      $readmemh(steps_file, steps, 0, nsteps - 1);
    end
    if (stim_words < 0 || stim_words > MaxStim) fail($sformatf("stim_words %0d exceeds %0d", stim_words, MaxStim));
    if (nbeats < 0 || nbeats > MaxBeats) fail($sformatf("nbeats %0d exceeds %0d", nbeats, MaxBeats));
    if (outcome_kind != "finished" && outcome_kind != "hang" && outcome_kind != "cycle_limit")
      fail($sformatf("unknown outcome kind '%s'", outcome_kind));

    if (stim_words > 0) $readmemh(stim_file, stim, 0, stim_words - 1);
    if (nbeats > 0) $readmemh(beats_file, beats, 0, nbeats - 1);
    if (have_regs) $readmemh(regs_file, final_regs, 0, NumRegs - 1);
    mem_used = 0;
    for (int i = 0; i < MaxImages; i++) begin
      if ($value$plusargs($sformatf("mem%0d=%%s", i), fname)) begin
        // Plain variables: Icarus' $value$plusargs cannot write an array element.
        if (!$value$plusargs($sformatf("mem%0d_base=%%h", i), base_arg))
          fail($sformatf("missing +mem%0d_base", i));
        if (!$value$plusargs($sformatf("mem%0d_words=%%d", i), words_arg))
          fail($sformatf("missing +mem%0d_words", i));
        img_base[i]  = base_arg;
        img_words[i] = words_arg;
        img_off[i]   = mem_used;
        if (words_arg < 0 || mem_used + words_arg > MaxMem)
          fail($sformatf("mem%0d_words: the images exceed %0d words in all", i, MaxMem));
        if (img_words[i] > 0) $readmemh(fname, img, img_off[i], img_off[i] + img_words[i] - 1);
        mem_used = mem_used + words_arg;
      end
    end

    images_loaded = 1'b1;

    // The steps before the first list (fills), then the first list on the stream; without
    // steps.hex, the one list is the whole stim.
    widx    = 0;
    sub_end = stim_words;
    sidx    = 0;
    if (nsteps > 0) begin
      next_steps(submitted);
      if (!submitted) fail("steps.hex has no submit step");
    end

    // Reset, released between edges.
    drive_stream;
    repeat (2) @(posedge clk);
    #1;
    rst_ni = 1'b1;

    cycle      = 0;
    bi         = 0;
    hang_first = -1;
    kind       = "";
    // (No `break`: Icarus 11 does not support it; `kind` ends the loop.)
    while (kind == "") begin
      @(negedge clk);
      if (hang && hang_first < 0) hang_first = cycle;
      // Gpu::run order: outcome (drained), then the cycle limit, then step. A finished list
      // with another after it: the next submission starts in this cycle (Case::run_steps).
      if (finished) begin
        next_steps(submitted);
        if (submitted) begin
          cmd_kick = 1'b1;
          drive_stream;
          #1;  // let cmd_ready_o follow the kick before step_cycle samples the handshake
          if (cycle >= max_cycles) begin
            kind     = "cycle_limit";
            cmd_kick = 1'b0;
          end else step_cycle;
        end else kind = "finished";
      end
      else if (hang && idle) kind = "hang";
      else if (cycle >= max_cycles) kind = "cycle_limit";
      else step_cycle;
    end

    // Outcome
    if (bi < nbeats)
      fail($sformatf("beat %0d cycle %0d: field cycle expected %0d actual none (run ended: %s)",
                     bi, beats[bi][127:96], beats[bi][127:96], kind));
    if (kind != outcome_kind)
      fail($sformatf("outcome: kind expected %s actual %s at cycle %0d", outcome_kind, kind, cycle));
    if (kind == "finished" && cycle != longint'(outcome_cycle))
      fail($sformatf("outcome: finished_o first high expected cycle %0d actual %0d",
                     outcome_cycle, cycle));
    if (kind == "hang") begin
      if (hang_first != longint'(outcome_cycle) + 1)
        fail($sformatf("outcome: hang_o first high expected cycle %0d actual %0d",
                       outcome_cycle + 1, hang_first));
      if (int'(hang_reason) != hang_reason_exp)
        fail($sformatf("outcome: hang reason expected %0d actual %0d",
                       hang_reason_exp, hang_reason));
    end
    if (kind == "cycle_limit" && cycle != longint'(outcome_cycle))
      fail($sformatf("outcome: cycle limit expected at %0d actual %0d", outcome_cycle, cycle));

    // Final registers through the debug port (a debug read halts the pipeline, so this also
    // holds at a cycle limit, where the run has not drained).
    if (have_regs) begin
      for (int a = 0; a < NumRegs; a++) begin
        dbg_read(16'(a), d);
        if (d !== final_regs[a])
          fail($sformatf("final register 0x%03h: expected 0x%08h actual 0x%08h",
                         a, final_regs[a], d));
      end
    end

    if (have_dump) begin : dump
      int fd;
      fd = $fopen(dump_file, "w");
      if (fd == 0) fail($sformatf("cannot write %s", dump_file));
      dump_range(fd, 'h0000, 'h0300);
      dump_range(fd, 'h0400, 'h0900);
      dump_range(fd, 'h0900, 'h0990);
      dump_range(fd, 'h0A00, 'h0A30);
      dump_range(fd, 'h0B00, 'h0B14);
      dump_range(fd, 'h2000, 'h3800);
      for (int u = 0; u < 4; u++) begin
        dump_range(fd, 'h4000 + u * 'h2000, 'h4000 + u * 'h2000 + 'h1080);
        dump_range(fd, 'h4000 + u * 'h2000 + 'h1100, 'h4000 + u * 'h2000 + 'h1280);
        dump_range(fd, 'h4000 + u * 'h2000 + 'h1300, 'h4000 + u * 'h2000 + 'h130A);
      end
      $fclose(fd);
    end

    $display("PASS: %0d beats, %s at cycle %0d", nbeats, kind,
             (kind == "hang") ? hang_first - 1 : cycle);
    $finish;
  end

endmodule : replay_tb
