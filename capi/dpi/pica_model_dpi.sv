// pica_model_dpi: the pica-cosim model (the C ABI of crate pica-capi, capi/include/pica_model.h)
// as SystemVerilog DPI-C imports, so a plain-SV bench can run the model as its scoreboard.
//
// Every C function of the ABI already has a DPI-compatible signature, so they are imported
// directly under their C names: no C shim. To use the model in your own bench:
//
//   1. compile rtl-bridge/rtl/pica_chan_pkg.sv, then this file, before your bench;
//   2. `import pica_model_dpi::*;` (or use `pica_model_dpi::` names) in the bench;
//   3. link the model: `cargo build --release -p pica-capi`, then add
//        target/release/libpica_capi.a  -LDFLAGS "-lpthread -ldl -lm"
//      to the verilator command line (or link target/release/libpica_capi.so instead).
//
// A typical run (see capi/dpi/pica_top_dpi_tb.sv for the whole bench):
//
//   chandle gpu;  int unsigned bytes;  pica_chan_pkg::reg_write_beat_t b;
//   check(pica_gpu_new(PICA_GPU_FRONT_END, gpu), "pica_gpu_new");
//   check(pica_load_file(gpu, "list.hex", 32'h2000_0000, bytes), "pica_load_file");
//   check(pica_gpu_submit(gpu, 32'h2000_0000, bytes), "pica_gpu_submit");
//   check(pica_gpu_run(gpu, 64'd1_000_000), "pica_gpu_run");
//   while (pop_regwrite(gpu, b)) ... compare b with the DUT's trace port ...
//   check(pica_gpu_free(gpu), "pica_gpu_free");
//
// Status convention: every int-returning import gives PICA_OK (0), PICA_EMPTY (1: no beat
// waiting) or a negative error; after an error pica_last_error() says what went wrong.
// Type mapping used below (IEEE 1800 annex H): chandle = pica_gpu_t*, `output chandle` =
// pica_gpu_t**, int = int32_t, int unsigned = uint32_t, longint unsigned = uint64_t, string =
// const char*, `output bit [N-1:0]` = uint32_t* (svBitVecVal, word 0 least significant).
package pica_model_dpi;

  // ---------------------------------------------------------------------------------------------
  // Constants of pica_model.h.

  // A table of constants: a bench uses a few of them (Verilator -Wall waiver).
  /* verilator lint_off UNUSEDPARAM */

  // The ABI version this package was written against (pica_abi_version() must return it).
  localparam int unsigned PICA_ABI_VERSION = 32'd1;

  // Status codes (int32_t returns).
  localparam int PICA_OK           = 0;    // success
  localparam int PICA_EMPTY        = 1;    // pica_pop_beat_packed: no beat waiting (not an error)
  localparam int PICA_ERR_NULL     = -1;   // a required pointer argument is null
  localparam int PICA_ERR_HANDLE   = -2;   // not a live GPU made by pica_gpu_new
  localparam int PICA_ERR_CHANNEL  = -3;   // no such channel
  localparam int PICA_ERR_UNMAPPED = -4;   // address not in mapped memory (VRAM or FCRAM)
  localparam int PICA_ERR_ARGUMENT = -5;   // an argument out of range
  localparam int PICA_ERR_REFUSED  = -6;   // the model refused the request in its state
  localparam int PICA_ERR_FILE     = -7;   // a file could not be read or parsed
  localparam int PICA_ERR_SIZE     = -8;   // a buffer too small (n_words)
  localparam int PICA_ERR_HUNG     = -9;   // a register write could not be accepted
  localparam int PICA_ERR_PANIC    = -10;  // the model panicked (a model bug)

  // pica_gpu_new flags.
  localparam int unsigned PICA_GPU_FRONT_END      = 32'd1;  // pipeline off: CP + REGS, as pica_top
  localparam int unsigned PICA_GPU_RECORD_COMMITS = 32'd2;  // record the commit channel
  localparam int unsigned PICA_GPU_NO_BEATS       = 32'd4;  // record no beats (fastest)
  localparam int unsigned PICA_GPU_FLAGS_ALL      = 32'd7;  // every flag bit

  // pica_gpu_outcome kinds.
  localparam int unsigned PICA_OUTCOME_RUNNING     = 32'd0;
  localparam int unsigned PICA_OUTCOME_FINISHED    = 32'd1;  // cycle = cycles taken
  localparam int unsigned PICA_OUTCOME_HANG        = 32'd2;  // cycle = the hang cycle
  localparam int unsigned PICA_OUTCOME_CYCLE_LIMIT = 32'd3;  // cycle = cycles run

  // Channel numbers: the same as pica_chan_pkg::CH_*.
  localparam int unsigned PICA_CH_REGWRITE = 32'(pica_chan_pkg::CH_REGWRITE);

  // The widest beat payload of the channel table, in bits: the size of the buffer
  // pica_pop_beat_packed fills (one import serves every channel, so it is declared with the
  // widest payload; a channel's struct is the low <CHANNEL>_BEAT_W bits).
  localparam int BEAT_MAX_W = pica_chan_pkg::BEAT_MAX_W;
  localparam int BEAT_MAX_WORDS = (BEAT_MAX_W + 31) / 32;

  /* verilator lint_on UNUSEDPARAM */
  typedef bit [BEAT_MAX_W-1:0] beat_buf_t;

  // ---------------------------------------------------------------------------------------------
  // The C ABI, imported under its own names.

  // The ABI version the linked library implements (PICA_ABI_VERSION).
  import "DPI-C" function int unsigned pica_abi_version();

  // Creates a model GPU; flags: PICA_GPU_FRONT_END (CP + REGS alone, as pica_top) or 0 (the
  // whole pipeline). *gpu is the handle every other call takes.
  import "DPI-C" function int pica_gpu_new(input int unsigned flags, output chandle gpu);

  // Frees a GPU made by pica_gpu_new (null is accepted).
  import "DPI-C" function int pica_gpu_free(input chandle gpu);

  // Loads a file into model memory at addr: .hex / .txt (text words, `#` comments) or .bin
  // (raw bytes); bytes = the number of bytes written (the list size to submit for a .hex list).
  import "DPI-C" function int pica_load_file(input chandle gpu, input string path,
                                             input int unsigned addr, output int unsigned bytes);

  // Submits the command list at addr of size bytes (the CP reads size & ~0xF of them).
  import "DPI-C" function int pica_gpu_submit(input chandle gpu, input int unsigned addr,
                                              input int unsigned size);

  // Steps until the list finishes, hangs, or max_cycles cycles have run.
  import "DPI-C" function int pica_gpu_run(input chandle gpu, input longint unsigned max_cycles);

  // Steps exactly `cycles` cycles.
  import "DPI-C" function int pica_gpu_step(input chandle gpu, input longint unsigned cycles);

  // How the run ended: kind (PICA_OUTCOME_*), cycle (finished: cycles taken; hang: the hang
  // cycle, one before hang_o rises on pica_top), hang_code (pica_top's hang_reason_o code).
  import "DPI-C" function int pica_gpu_outcome(input chandle gpu, output int unsigned kind,
                                               output longint unsigned cycle,
                                               output int unsigned hang_code);

  // The outcome as text ("finished in 7 cycles", "hang at cycle 12: ...").
  import "DPI-C" function string pica_gpu_outcome_message(input chandle gpu);

  // Reads the 32-bit word at addr of model memory; PICA_ERR_UNMAPPED if not mapped.
  import "DPI-C" function int pica_mem_read_word(input chandle gpu, input int unsigned addr,
                                                 output int unsigned data);

  // The number of beats of `channel` recorded and not yet popped.
  import "DPI-C" function int pica_beat_count(input chandle gpu, input int unsigned channel,
                                              output longint unsigned waiting);

  // Pops the oldest waiting beat of `channel` into `words`, packed as the channel's
  // pica_chan_pkg struct in the low bits (cast `words[<CH>_BEAT_W-1:0]` to the struct);
  // n_words = BEAT_MAX_WORDS. PICA_EMPTY when no beat is waiting.
  import "DPI-C" function int pica_pop_beat_packed(input chandle gpu, input int unsigned channel,
                                                   output beat_buf_t words,
                                                   input int unsigned n_words);

  // The number of addresses of the debug map (pica_top's dbg_addr_i / dbg_rdata_o port: the
  // registers at 0x000-0x2FF, then the FIFO-backed memories; docs/registers.md "Debug map").
  import "DPI-C" function int unsigned pica_debug_address_count();

  // The index-th debug-map address, ascending.
  import "DPI-C" function int pica_debug_address(input int unsigned index,
                                                 output int unsigned addr);

  // The model's word at debug address addr (what pica_top's debug port shows for it).
  import "DPI-C" function int pica_gpu_debug_read(input chandle gpu, input int unsigned addr,
                                                  output int unsigned data);

  // The register's name ("GPUREG_FOG_COLOR"; a hex form for an unnamed ID), never null.
  import "DPI-C" function string pica_reg_name(input int unsigned id);
  // What a debug-map address holds ("GPUREG_FOG_COLOR", "unit0.float_uniforms[c4.y]").
  import "DPI-C" function string pica_debug_describe(input int unsigned addr);

  // A status code's name ("PICA_OK", "PICA_ERR_UNMAPPED", ...).
  import "DPI-C" function string pica_status_name(input int status);

  // The message of the last error on this thread.
  import "DPI-C" function string pica_last_error();

  // ---------------------------------------------------------------------------------------------
  // Helpers.

  // Stops the simulation with the model's message when `status` is an error (negative);
  // passes PICA_OK and PICA_EMPTY through.
  function automatic int check(input int status, input string what);
    if (status < 0) begin
      $fatal(1, "pica_model_dpi: %s failed: %s: %s", what, pica_status_name(status),
             pica_last_error());
    end
    return status;
  endfunction

  // check() for calls whose PICA_OK / PICA_EMPTY answer is not needed.
  task automatic check_ok(input int status, input string what);
    void'(check(status, what));
  endtask

  // Stops unless the linked library implements the ABI this package declares.
  task automatic check_abi();
    if (pica_abi_version() != PICA_ABI_VERSION) begin
      $fatal(1, "pica_model_dpi: libpica_capi implements ABI version %0d, this package version %0d: rebuild the library or update the package",
             pica_abi_version(), PICA_ABI_VERSION);
    end
  endtask

  // A new model GPU (checks the ABI version first; stops on failure).
  function automatic chandle new_gpu(input int unsigned flags);
    chandle gpu;
    check_abi();
    void'(check(pica_gpu_new(flags, gpu), "pica_gpu_new"));
    return gpu;
  endfunction

  // Loads `path` at addr (stops on failure); returns the bytes written.
  function automatic int unsigned load_file(input chandle gpu, input string path,
                                            input int unsigned addr);
    int unsigned bytes;
    void'(check(pica_load_file(gpu, path, addr, bytes), {"pica_load_file(", path, ")"}));
    return bytes;
  endfunction

  // Pops the model's next register-write beat into b: 1 if there was one, 0 if none is waiting
  // (b is then all zero); stops on an error.
  function automatic bit pop_regwrite(input chandle gpu,
                                      output pica_chan_pkg::reg_write_beat_t b);
    // The buffer is sized for every channel; a register write is its low bits (waiver).
    /* verilator lint_off UNUSEDSIGNAL */
    beat_buf_t buf_w;
    /* verilator lint_on UNUSEDSIGNAL */
    int st;
    st = check(pica_pop_beat_packed(gpu, PICA_CH_REGWRITE, buf_w, BEAT_MAX_WORDS),
               "pica_pop_beat_packed(regwrite)");
    b = (st == PICA_OK) ? buf_w[pica_chan_pkg::REG_WRITE_BEAT_W-1:0] : '0;
    if (b.pad_0 != '0) begin
      // The C side packs pads as zero: anything else is a layout disagreement between the
      // library and this pica_chan_pkg (built from different channel tables).
      $fatal(1, "pica_model_dpi: regwrite beat with non-zero pad bits 0x%h: libpica_capi and pica_chan_pkg disagree on reg_write_beat_t",
             buf_w[pica_chan_pkg::REG_WRITE_BEAT_W-1:0]);
    end
    return st == PICA_OK;
  endfunction

  // A register-write beat as text: "cycle 12 GPUREG_FOG_COLOR (id 0x000e1) mask 0xf param
  // 0x11223344 value 0x11223344".
  function automatic string beat_text(input pica_chan_pkg::reg_write_beat_t b);
    // pad_0 is zero (pop_regwrite checks it): not shown (waiver).
    /* verilator lint_off UNUSEDSIGNAL */
    pica_chan_pkg::reg_write_beat_t t;
    /* verilator lint_on UNUSEDSIGNAL */
    t = b;
    return $sformatf("cycle %0d %s (id 0x%05h) mask 0x%h param 0x%08h value 0x%08h", t.cycle,
                     pica_reg_name(32'(t.id)), t.id, t.mask, t.param, t.value);
  endfunction

  // Register-write beats of the model not yet popped (stops on an error).
  function automatic longint unsigned regwrite_waiting(input chandle gpu);
    longint unsigned n;
    void'(check(pica_beat_count(gpu, PICA_CH_REGWRITE, n), "pica_beat_count(regwrite)"));
    return n;
  endfunction

  // Reads a word of model memory for a memory port: 1 and data if mapped, 0 (data 0) if not.
  function automatic bit mem_read(input chandle gpu, input int unsigned addr,
                                  output int unsigned data);
    int unsigned w;
    if (pica_mem_read_word(gpu, addr, w) == PICA_OK) begin
      data = w;
      return 1'b1;
    end
    data = '0;
    return 1'b0;
  endfunction

  // The name of an outcome kind.
  function automatic string outcome_name(input int unsigned kind);
    case (kind)
      PICA_OUTCOME_RUNNING:     return "running";
      PICA_OUTCOME_FINISHED:    return "finished";
      PICA_OUTCOME_HANG:        return "hang";
      PICA_OUTCOME_CYCLE_LIMIT: return "cycle_limit";
      default:                  return $sformatf("outcome_%0d", kind);
    endcase
  endfunction

endpackage : pica_model_dpi
