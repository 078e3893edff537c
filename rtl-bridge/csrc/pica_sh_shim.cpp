// The shader-unit bridge: a thin C ABI over the Verilated models of pica_sh_unit_top.
//
// build.rs verilates rtl/pica_sh_unit_top.sv once per variant (rows `sh`, `sh_inject_add_round`,
// `sh_inject_loop_extra`, `sh_knobs_alt` of its model table, prefix Vpica_<row>); this file includes their
// headers and lists them in PICA_SH_VARIANTS with the names the Rust side asks for.
//
// Loads and input writes go through a backdoor: csrc/pica_sh_unit.vlt makes the three RAM
// arrays and the input registers public, and the shim writes them directly (no clock), which
// is what made a fuzz case cost ~570 clocks of loading; reset() returns a model to its
// freshly built state so that one model serves many cases. The mutant model (build.rs
// MUTANT_MODELS `sh_mut`, a flattened Yosys netlist: no public arrays) is loaded through the
// top's write ports instead, one word per clock.
#include "pica_sh_shim.h"

// Each row only when build.rs built it (its model directory is on the include path): a lean
// build (build.rs, "Lean builds") has none of them, and the Rust side then reports the variant
// missing instead of the build failing.
#if __has_include("Vpica_sh.h")
#include "Vpica_sh.h"
#include "Vpica_sh___024root.h"
#define PICA_SH_V_sh(X) X(Vpica_sh, "default")
#else
#define PICA_SH_V_sh(X)
#endif
#if __has_include("Vpica_sh_inject_add_round.h")
#include "Vpica_sh_inject_add_round.h"
#include "Vpica_sh_inject_add_round___024root.h"
#define PICA_SH_V_sh_inject_add_round(X) X(Vpica_sh_inject_add_round, "inject_sh_add_round")
#else
#define PICA_SH_V_sh_inject_add_round(X)
#endif
#if __has_include("Vpica_sh_inject_loop_extra.h")
#include "Vpica_sh_inject_loop_extra.h"
#include "Vpica_sh_inject_loop_extra___024root.h"
#define PICA_SH_V_sh_inject_loop_extra(X) X(Vpica_sh_inject_loop_extra, "inject_sh_loop_extra")
#else
#define PICA_SH_V_sh_inject_loop_extra(X)
#endif
#if __has_include("Vpica_sh_knobs_alt.h")
#include "Vpica_sh_knobs_alt.h"
#include "Vpica_sh_knobs_alt___024root.h"
#define PICA_SH_V_sh_knobs_alt(X) X(Vpica_sh_knobs_alt, "knobs_alt")
#else
#define PICA_SH_V_sh_knobs_alt(X)
#endif

#define PICA_SH_VARIANTS(X)          \
  PICA_SH_V_sh(X)                    \
  PICA_SH_V_sh_inject_add_round(X)   \
  PICA_SH_V_sh_inject_loop_extra(X)  \
  PICA_SH_V_sh_knobs_alt(X)

#include "pica_vl.h"
#include "pica_sh_shim_mutants.inc"

namespace {

using pica_vl::pack96;
using pica_vl::unpack96;

struct Dut {
  virtual ~Dut() = default;
  virtual void load(int mem, uint32_t offset, const uint32_t* words, size_t n) = 0;
  virtual void set_uniforms(const uint32_t ints[4], uint32_t bools) = 0;
  virtual void set_input(uint32_t idx, const uint32_t lanes[4]) = 0;
  virtual void reset() = 0;
  virtual int run(uint32_t entry, uint64_t max, PicaShCommit* commits, size_t commit_cap,
                  size_t* n_commits, PicaShEmit* emits, size_t emit_cap, size_t* n_emits) = 0;
  virtual void read_outputs(int other, uint32_t out[16][4]) = 0;
  virtual uint64_t cycles() = 0;
  virtual uint64_t run_clocks() = 0;
  virtual int trace_open(const char* path) = 0;
  virtual void trace_close() = 0;
  virtual int set_mutant(uint32_t k) = 0;
  virtual void set_stall(uint32_t percent, uint64_t seed) = 0;
};

// Depths of the code, operand-descriptor and uniform RAMs of pica_sh_unit_top.
constexpr size_t kCodeWords = 4096;
constexpr size_t kDescWords = 128;
constexpr size_t kUniforms = 96;
// A bound on the clocks between two commits, for the stuck-unit guard: an instruction waits in E
// at most for the one before it to leave the 12-clock arithmetic pipeline, an SFU instruction
// (LG2: 365 clocks in E) then takes its SFU time on top (rtl/pica_shader_unit.sv).
constexpr uint64_t kClocksPerInstrMax = 400;

template <class V>
struct DutImpl final : Dut {
  // A mutant model has no backdoor: it is loaded through the write ports.
  static constexpr bool kPorts = pica_vl::HasMutsel<V>::value;
  pica_vl::Model<V> m;
  V* top = m.top.get();
  // stall_i during run(): held high on about `stall_pct` % of the clocks, drawn from a
  // xorshift64 sequence that restarts from `stall_seed` at every run (reproducible per case).
  uint32_t stall_pct = 0;
  uint64_t stall_seed = 1;
  uint64_t stall_state = 1;
  // Clocks of the last run up to the clock after its last commit (pica_sh_run_clocks).
  uint64_t last_run_clocks = 0;

  bool next_stall() {
    if (stall_pct == 0) return false;
    stall_state ^= stall_state << 13;
    stall_state ^= stall_state >> 7;
    stall_state ^= stall_state << 17;
    return (stall_state % 100) < stall_pct;
  }

  // One word into memory `mem` (0 code, 1 descriptors, 2 uniforms) through its write port.
  void port_write(int mem, uint32_t a, const uint32_t* w) {
    switch (mem) {
      case 0:
        top->code_we_i = 1;
        top->code_waddr_i = a & 0xFFF;
        top->code_wdata_i = w[0];
        break;
      case 1:
        top->desc_we_i = 1;
        top->desc_waddr_i = a & 0x7F;
        top->desc_wdata_i = w[0];
        break;
      default:
        top->unif_we_i = 1;
        top->unif_waddr_i = a & 0x7F;
        pack96(top->unif_wdata_i, w);
        break;
    }
    top->eval();
    clock();
    top->code_we_i = 0;
    top->desc_we_i = 0;
    top->unif_we_i = 0;
    top->eval();
  }

  void enter() { m.enter(); }
  void clock() {
    scramble_idle();
    m.clock();
  }

  // Every input the unit must ignore in a clock gets fresh garbage before that clock's edge: a
  // write port's address and data while its enable is low, the input-vertex port while
  // in_we_i is low, the entry point while start_i is low. Left at their last values (the last
  // word loaded), a write enable stuck at 1 would only rewrite that word with itself, and an
  // entry point read after the start would read the right one (both survived `pica mutate`:
  // rtl-bridge/mutants/sh_mut.notes). A fixed xorshift64 sequence from every reset and start,
  // so a case replays the same clocks.
  uint64_t idle_state = kIdleSeed;
  static constexpr uint64_t kIdleSeed = 0x9E3779B97F4A7C15ull;
  uint32_t idle_word() {
    idle_state ^= idle_state << 13;
    idle_state ^= idle_state >> 7;
    idle_state ^= idle_state << 17;
    return static_cast<uint32_t>(idle_state >> 16);
  }
  void scramble_idle() {
    if (!top->code_we_i) {
      top->code_waddr_i = idle_word() & 0xFFF;
      top->code_wdata_i = idle_word();
    }
    if (!top->desc_we_i) {
      top->desc_waddr_i = idle_word() & 0x7F;
      top->desc_wdata_i = idle_word();
    }
    if (!top->unif_we_i) {
      // Below 96 as often as not: writes to 96-127 are dropped by design.
      top->unif_waddr_i = idle_word() & 0x7F;
      const uint32_t w[4] = {idle_word(), idle_word(), idle_word(), idle_word()};
      pack96(top->unif_wdata_i, w);
    }
    if (!top->in_we_i) {
      top->in_idx_i = idle_word() & 15;
      const uint32_t w[4] = {idle_word(), idle_word(), idle_word(), idle_word()};
      pack96(top->in_data_i, w);
    }
    if (!top->start_i) top->entry_i = idle_word() & 0xFFF;
  }

  // The memories as the model holds them (public through pica_sh_unit.vlt).
  auto& code_mem() { return top->rootp->pica_sh_unit_top__DOT__u_code__DOT__mem; }
  auto& desc_mem() { return top->rootp->pica_sh_unit_top__DOT__u_desc__DOT__mem; }
  auto& unif_mem() { return top->rootp->pica_sh_unit_top__DOT__u_unif__DOT__mem; }

  // Same addresses as through the write ports (code wraps at 12 bits, descriptors at 7;
  // uniforms from 96 on are dropped), written into the arrays directly.
  void load(int mem, uint32_t offset, const uint32_t* words, size_t n) override {
    enter();
    for (size_t i = 0; i < n; i++) {
      uint32_t a = offset + static_cast<uint32_t>(i);
      if (mem == 2 && a >= kUniforms) return;
      const uint32_t* w = mem == 2 ? &words[4 * i] : &words[i];
      if constexpr (kPorts) {
        port_write(mem, a, w);
      } else {
        switch (mem) {
          case 0:
            code_mem()[a & 0xFFF] = w[0];
            break;
          case 1:
            desc_mem()[a & 0x7F] = w[0];
            break;
          default:
            pack96(unif_mem()[a], w);
            break;
        }
      }
    }
  }

  // Registers back to reset, memories to zero: the state of a new model.
  void reset() override {
    enter();
    idle_state = kIdleSeed;
    top->start_i = 0;
    top->rst_ni = 0;
    top->eval();
    clock();
    top->rst_ni = 1;
    top->eval();
    const uint32_t zero[4] = {0, 0, 0, 0};
    if constexpr (kPorts) {
      for (uint32_t a = 0; a < kCodeWords; a++) port_write(0, a, zero);
      for (uint32_t a = 0; a < kDescWords; a++) port_write(1, a, zero);
      for (uint32_t a = 0; a < kUniforms; a++) port_write(2, a, zero);
    } else {
      // (VlUnpacked has no iterators in Verilator 5.006: sizes of pica_sh_unit_top's RAMs.)
      for (size_t a = 0; a < kCodeWords; a++) code_mem()[a] = 0;
      for (size_t a = 0; a < kDescWords; a++) desc_mem()[a] = 0;
      for (size_t a = 0; a < kUniforms; a++) pack96(unif_mem()[a], zero);
    }
  }

  void set_uniforms(const uint32_t ints[4], uint32_t bools) override {
    enter();
    for (int i = 0; i < 4; i++) top->int_uniforms_i[i] = ints[i];
    top->bool_uniforms_i = bools & 0xFFFF;
    top->eval();
  }

  // v[idx] is word idx of vin_mem (three 32-bit words), made readable by its valid bit.
  void set_input(uint32_t idx, const uint32_t lanes[4]) override {
    enter();
    if constexpr (kPorts) {
      top->in_we_i = 1;
      top->in_idx_i = idx & 15;
      pack96(top->in_data_i, lanes);
      top->eval();
      clock();
      top->in_we_i = 0;
      top->eval();
    } else {
      uint32_t w[3];
      pack96(w, lanes);
      auto& vin = top->rootp->pica_sh_unit_top__DOT__u_unit__DOT__vin_mem;
      for (int k = 0; k < 3; k++) vin[idx & 15][k] = w[k];
      top->rootp->pica_sh_unit_top__DOT__u_unit__DOT__vin_vld_q |= 1u << (idx & 15);
      top->eval();
    }
  }

  void read_bank(int other, uint32_t out[16][4]) {
    top->o_rd_sel_i = other & 1;
    for (uint32_t r = 0; r < 16; r++) {
      top->o_rd_idx_i = r;
      top->eval();
      unpack96(top->o_rd_data_o, out[r]);
    }
  }

  // After END or a hang the unit must stay quiet "until the next start": no commit, no emit,
  // done_o / hang_o and hang_code_o held, busy_o low. Checked for kQuietClocks clocks (longer than the
  // arithmetic pipeline and the R/E stages, so an instruction fetched past END would have
  // retired by then); a unit that breaks the promise gets status 4 (BadStatus).
  static constexpr int kQuietClocks = 24;
  int check_quiet(int status, uint8_t hang_code) {
    for (int i = 0; i < kQuietClocks; i++) {
      top->stall_i = next_stall();
      top->eval();
      const bool loud = top->commit_valid_o || top->emit_valid_o;
      const bool held = !top->busy_o && top->done_o == (status == 0) && top->hang_o == (status == 1) &&
                        (status != 1 || top->hang_code_o == hang_code);
      if (loud || !held) return 4;
      clock();
    }
    return status;
  }

  int run(uint32_t entry, uint64_t max, PicaShCommit* commits, size_t commit_cap,
          size_t* n_commits, PicaShEmit* emits, size_t emit_cap, size_t* n_emits) override {
    enter();
    const uint64_t t0 = m.cycle;
    last_run_clocks = 0;
    size_t nc = 0, ne = 0;
    int status = 3;
    uint8_t hang_code = 0;
    if (max == 0) {
      status = 2;
    } else {
      idle_state = kIdleSeed;
      top->entry_i = entry & 0xFFF;
      top->start_i = 1;
      top->eval();
      clock();
      top->start_i = 0;
      top->eval();
      // The guard (kClocksPerInstrMax per commit) only catches a stuck unit.
      stall_state = stall_seed ? stall_seed : 1;
      // Stalls stretch the run by 100 / (100 - stall_pct) on average: the guard allows twice
      // that (a stuck mutant of `pica mutate` runs to the guard, so it stays tight).
      const uint64_t guard_max =
          (kClocksPerInstrMax * max + 16) * (stall_pct ? 1 + 200 / (100 - uint64_t{stall_pct}) : 1);
      for (uint64_t guard = 0; guard < guard_max; guard++) {
        top->stall_i = next_stall();
        top->eval();
        // done_o and hang_o promise END or a hang "until the next start": while instructions
        // still retire neither may be up (a unit that shows them early lies to its stage).
        // busy_o is what a stage reads before it starts the unit ("start_i taken when
        // !busy_o"): up on every clock of a run until the clock after its last commit.
        if (top->done_o || top->hang_o || !top->busy_o) {
          status = 4;
          break;
        }
        if (top->emit_valid_o) {
          if (ne < emit_cap) {
            PicaShEmit& e = emits[ne];
            e.vtx_id = top->emit_vtx_id_o;
            e.winding = top->emit_winding_o;
            e.prim_emit = top->emit_prim_o;
            read_bank(0, e.outputs);
          }
          ne++;
        }
        bool stop = false;
        if (top->commit_valid_o) {
          if (nc < commit_cap) {
            PicaShCommit& c = commits[nc];
            c.pc = top->commit_pc_o;
            c.word = top->commit_word_o;
            c.dst = top->commit_dst_o;
            c.mask = top->commit_mask_o;
            unpack96(top->commit_result_o, c.result);
            c.cmp = top->commit_cmp_o;
            c.a0x = static_cast<int32_t>(top->commit_a0x_o);
            c.a0y = static_cast<int32_t>(top->commit_a0y_o);
            c.al = static_cast<int32_t>(top->commit_al_o);
            c.next_pc = top->commit_next_pc_o;
            c.emit = top->commit_emit_o;
            c.hang = top->commit_hang_o;
            c.end = top->commit_end_o;
          }
          hang_code = top->commit_hang_o;
          nc++;
          if (top->commit_end_o) {
            status = 0;
            stop = true;
          } else if (top->commit_hang_o) {
            status = 1;
            stop = true;
          } else if (nc >= max) {
            status = 2;
            stop = true;
          }
        }
        clock();
        if (stop) {
          // The clock after the last commit: END shows done_o, a hang hang_o, a run cut at
          // the instruction limit neither (the unit is still running).
          const bool done_ok = top->done_o == (status == 0) && top->busy_o == (status == 2);
          const bool hang_ok = top->hang_o == (status == 1);
          if (!done_ok || !hang_ok) status = 4;
          // A hang names its reason on hang_code_o too (the stage reads it there).
          if (status == 1 && top->hang_code_o != hang_code) status = 4;
          last_run_clocks = m.cycle - t0;
          if (status <= 1) status = check_quiet(status, hang_code);
          break;
        }
      }
      top->stall_i = 0;
      top->eval();
    }
    if (last_run_clocks == 0) last_run_clocks = m.cycle - t0;
    *n_commits = nc;
    *n_emits = ne;
    return status;
  }

  void read_outputs(int other, uint32_t out[16][4]) override {
    enter();
    read_bank(other, out);
  }

  uint64_t cycles() override { return m.cycle; }

  uint64_t run_clocks() override { return last_run_clocks; }

  int trace_open(const char* path) override { return m.trace_open(path); }

  void trace_close() override { m.trace_close(); }

  int set_mutant(uint32_t k) override { return m.set_mutant(k); }

  void set_stall(uint32_t percent, uint64_t seed) override {
    stall_pct = percent > 99 ? 99 : percent;
    stall_seed = seed;
  }
};

#define PICA_SH_VARIANT_ENTRY(cls, name) {name, &pica_vl::make<Dut, DutImpl<cls>>},
// The hand-written rows, then the mutant model when built (build.rs MUTANT_MODELS), then an
// end mark that is not a variant: a lean build has no row at all, and C++ has no empty array.
const pica_vl::Variant<Dut> kVariants[] = {PICA_SH_VARIANTS(PICA_SH_VARIANT_ENTRY)
                                               PICA_MUTANT_VARIANTS(PICA_SH_VARIANT_ENTRY){
                                                   nullptr, nullptr}};
constexpr int kVariantCount = sizeof(kVariants) / sizeof(kVariants[0]) - 1;

}  // namespace

struct PicaSh {
  std::unique_ptr<Dut> dut;
};

extern "C" {

int pica_sh_variant_count(void) { return kVariantCount; }

const char* pica_sh_variant_name(int variant) {
  if (variant < 0 || variant >= kVariantCount) return nullptr;
  return kVariants[variant].name;
}

PicaSh* pica_sh_new(int variant) {
  if (variant < 0 || variant >= kVariantCount) return nullptr;
  PicaSh* h = new PicaSh;
  h->dut.reset(kVariants[variant].make());
  return h;
}

void pica_sh_free(PicaSh* h) { delete h; }

void pica_sh_load_code(PicaSh* h, uint32_t offset, const uint32_t* words, size_t n) {
  h->dut->load(0, offset, words, n);
}

void pica_sh_load_opdescs(PicaSh* h, uint32_t offset, const uint32_t* words, size_t n) {
  h->dut->load(1, offset, words, n);
}

void pica_sh_load_uniforms(PicaSh* h, uint32_t offset, const uint32_t* lanes, size_t n) {
  h->dut->load(2, offset, lanes, n);
}

void pica_sh_set_uniforms(PicaSh* h, const uint32_t ints[4], uint32_t bools) {
  h->dut->set_uniforms(ints, bools);
}

void pica_sh_set_input(PicaSh* h, uint32_t idx, const uint32_t lanes[4]) {
  h->dut->set_input(idx, lanes);
}

void pica_sh_reset(PicaSh* h) { h->dut->reset(); }

int pica_sh_run(PicaSh* h, uint32_t entry, uint64_t max_instructions, PicaShCommit* commits,
                size_t commit_cap, size_t* n_commits, PicaShEmit* emits, size_t emit_cap,
                size_t* n_emits) {
  return h->dut->run(entry, max_instructions, commits, commit_cap, n_commits, emits, emit_cap,
                     n_emits);
}

void pica_sh_read_outputs(PicaSh* h, int other, uint32_t out[16][4]) {
  h->dut->read_outputs(other, out);
}

uint64_t pica_sh_cycles(PicaSh* h) { return h->dut->cycles(); }

uint64_t pica_sh_run_clocks(PicaSh* h) { return h->dut->run_clocks(); }

int pica_sh_trace_open(PicaSh* h, const char* path) { return h->dut->trace_open(path); }

void pica_sh_trace_close(PicaSh* h) { h->dut->trace_close(); }

int pica_sh_set_mutant(PicaSh* h, uint32_t k) { return h->dut->set_mutant(k); }

void pica_sh_set_stall(PicaSh* h, uint32_t percent, uint64_t seed) {
  h->dut->set_stall(percent, seed);
}

}  // extern "C"

