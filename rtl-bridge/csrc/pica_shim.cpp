// The Verilator bridge: a thin C ABI over the Verilated models of pica_top.
//
// build.rs verilates rtl/ once per variant (the default build and one per injected bug, each
// with its own --prefix) and generates pica_variants.inc, which includes the header of each
// model it built (a lean build, build.rs "Lean builds", leaves some out) and defines
// PICA_VARIANTS(X) listing them. Everything else the Rust side does (stream,
// memory port, lockstep) stays in Rust; this file only moves port values and clock edges,
// and copies REGS' state out for the final-state comparison (pica_rtl_state_read, below).
#include "pica_shim.h"

#include <verilated.h>
#include <verilated_vcd_c.h>

#include <cstring>
#include <iterator>
#include <memory>

#include "pica_sh_ports.h"
#include "pica_vl.h"
#include "pica_shim_coverage.inc"
#include "pica_shim_mutants.inc"
#include "pica_variants.inc"

namespace {

struct Dut {
  virtual ~Dut() = default;
  virtual void eval(const PicaIn* in, PicaOut* out) = 0;
  virtual void clock() = 0;
  virtual int trace_open(const char* path) = 0;
  virtual void trace_close() = 0;
  virtual void state_read(PicaState* out) = 0;
  virtual int set_mutant(uint32_t mutant) = 0;
  // Coverage counters of a coverage row (build.rs COVERAGE_MODELS); 0 points for the others.
  virtual pica_vl::Counters* cov() = 0;
};

// Copies of REGS' arrays into PicaState, each checked at compile time to have the depth the
// C struct gives it (a resized RAM in pica_regs.sv fails the build here, not silently).
template <class T, size_t D, size_t N>
void copy_words(uint32_t (&dst)[N], const VlUnpacked<T, D>& src) {
  static_assert(D == N, "PicaState and the Verilated array differ in depth");
  for (size_t i = 0; i < N; i++) dst[i] = static_cast<uint32_t>(src[i]);
}

template <size_t D, size_t N>
void copy_words(uint32_t (&dst)[N][3], const VlUnpacked<VlWide<3>, D>& src) {
  static_assert(D == N, "PicaState and the Verilated array differ in depth");
  for (size_t i = 0; i < N; i++) {
    for (size_t k = 0; k < 3; k++) dst[i][k] = src[i][k];
  }
}

// kCov: V is a coverage row of build.rs (COVERAGE_MODELS: verilated with --coverage), whose
// counters `counters` reads and writes (pica_vl::CovOf).
// kMutant: V is a mutant model of build.rs's MUTANT_MODELS (Yosys netlist of pica_top with a
// `mutsel` input): it has `mutsel`, and no REGS arrays to copy (the flattened netlist has no
// hierarchy; the Rust side reads its state through the debug port instead).
template <class V, bool kMutant = false, bool kCov = false>
struct DutImpl final : Dut {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<V> top;
  std::unique_ptr<VerilatedVcdC> vcd;
  uint64_t time = 0;  // in half clock periods
  pica_vl::CovOf<V, kCov> counters;

  // Verilator keeps a per-thread "current context" that model construction, destruction and
  // scope bookkeeping use. With several models alive in one process (lockstep re-runs one for
  // the VCD window, the fuzzer builds one per case) it must point at *this* model's context
  // whenever we touch the model, or a destructor locks another (possibly freed) context.
  void enter() { Verilated::threadContextp(ctx.get()); }

  DutImpl() : ctx(pica_vl::new_context()) {
    enter();
    // Tracing must be enabled before the model is built so it can be switched on later.
    ctx->traceEverOn(true);
    top.reset(new V(ctx.get(), "TOP"));
    counters.ctx = ctx.get();
    counters.top = top.get();
    top->clk_i = 0;
    top->rst_ni = 0;
    top->eval();
  }

  ~DutImpl() override {
    enter();
    trace_close();
    top->final();
    top.reset();
    vcd.reset();
  }

  void eval(const PicaIn* in, PicaOut* out) override {
    enter();
    top->rst_ni = in->rst_n & 1;
    top->cmd_valid_i = in->cmd_valid & 1;
    top->cmd_data_i = in->cmd_data;
    top->cmd_end_i = in->cmd_end & 1;
    top->mem_rdata_i = in->mem_rdata;
    top->mem_err_i = in->mem_err & 1;
    top->dbg_req_i = in->dbg_req & 1;
    top->dbg_addr_i = in->dbg_addr & 0xFFFF;
    top->hold_i = in->hold & 1;
    top->cmd_kick_i = in->kick & 1;
    PICA_SH_PORTS_IN(top, &in->sh, sh_);
    top->eval();
    out->cmd_ready = top->cmd_ready_o;
    out->mem_req = top->mem_req_o;
    out->mem_addr = top->mem_addr_o;
    out->trace_rw_valid = top->trace_rw_valid_o;
    out->trace_rw_id = top->trace_rw_id_o;
    out->trace_rw_mask = top->trace_rw_mask_o;
    out->trace_rw_param = top->trace_rw_param_o;
    out->trace_rw_value = top->trace_rw_value_o;
    out->finished = top->finished_o;
    out->hang = top->hang_o;
    out->hang_reason = top->hang_reason_o;
    out->idle = top->idle_o;
    out->dbg_rdata = top->dbg_rdata_o;
    out->sh.cfg_ready = 1;
    PICA_SH_PORTS_OUT(top, &out->sh, sh_);
  }

  void clock() override {
    enter();
    if (vcd) vcd->dump(time);
    top->clk_i = 1;
    top->eval();
    time++;
    if (vcd) vcd->dump(time);
    top->clk_i = 0;
    // The falling edge moves nothing in pica_top (every flop is posedge clk_i with an
    // asynchronous reset), and the next eval (new inputs, clk_i low) recomputes everything
    // this one would, so it is left to that one: a third of the evals of a front-end
    // lockstep cycle. Kept where the difference shows: a VCD (the dump at the falling edge),
    // a coverage row (its counters count evals) and a mutant netlist (a mutated clock input
    // can make a flop act on the falling edge).
    if (vcd || kCov || kMutant) top->eval();
    time++;
  }

  int trace_open(const char* path) override {
    enter();
    trace_close();
    vcd.reset(new VerilatedVcdC);
    top->trace(vcd.get(), 99);
    vcd->open(path);
    if (!vcd->isOpen()) {
      vcd.reset();
      return -1;
    }
    return 0;
  }

  void trace_close() override {
    if (vcd) {
      vcd->dump(time);
      vcd->close();
      vcd.reset();
    }
  }

  // The final state straight out of the model. Why this way: csrc/pica_top.vlt marks REGS'
  // arrays and pica_ram's `mem` public_flat_rd, so Verilator 5.006 keeps each one as a member
  // of the root class under its flat hierarchical name (pica_top__DOT__u_regs__DOT__...), the
  // same name in every pica_top variant, and this template reads them like any C++ array. It
  // needs no change to the RTL (a DPI export or `$c` would put simulator-specific code into
  // files Icarus and Yosys also read), costs no clock (the debug port takes one clock of the
  // whole design, SH stage included, per word: 26,486 of them), and a renamed or resized array
  // fails to compile here instead of reading the wrong thing. The decoding into the debug map
  // (shadow registers over the register RAM, packer words, f24 lanes) is the Rust side's
  // (src/state.rs), checked word for word against the debug port by tests/state.rs.
  void state_read(PicaState* out) override {
    if constexpr (kMutant) {
      std::memset(out, 0, sizeof *out);
    } else {
      state_read_direct(out);
    }
  }

  // Selects mutant `mutant` (0 = the original design) of a mutant model; -1 for any other.
  int set_mutant(uint32_t mutant) override {
    if constexpr (kMutant) {
      enter();
      top->mutsel = mutant;
      top->eval();
      return 0;
    } else {
      (void)mutant;
      return -1;
    }
  }

  pica_vl::Counters* cov() override { return &counters; }

  void state_read_direct(PicaState* out) {
    enter();
    auto* r = top->rootp;
    copy_words(out->reg_mem, r->pica_top__DOT__u_regs__DOT__reg_mem);
    copy_words(out->shadow, r->pica_top__DOT__u_regs__DOT__shadow_q);
    for (int b = 0; b < 2; b++) {
      copy_words(out->fu_pend[b], r->pica_top__DOT__u_regs__DOT__fu_pend_q[b]);
    }
    copy_words(out->fu_cnt, r->pica_top__DOT__u_regs__DOT__fu_cnt_q);
    copy_words(out->fx_pend, r->pica_top__DOT__u_regs__DOT__fx_pend_q);
    out->fx_cnt = r->pica_top__DOT__u_regs__DOT__fx_cnt_q;
    copy_words(out->bool_u, r->pica_top__DOT__u_regs__DOT__bool_q);
    for (int u = 0; u < 4; u++) {
      copy_words(out->int_u[u], r->pica_top__DOT__u_regs__DOT__int_q[u]);
    }
    copy_words(out->outmap, r->pica_top__DOT__u_regs__DOT__outmap_q);
    copy_words(out->entry, r->pica_top__DOT__u_regs__DOT__entry_q);
    copy_words(out->incfg, r->pica_top__DOT__u_regs__DOT__incfg_q);
    for (int u = 0; u < 4; u++) {
      uint64_t p = r->pica_top__DOT__u_regs__DOT__perm_q[u];
      out->perm[u][0] = static_cast<uint32_t>(p);
      out->perm[u][1] = static_cast<uint32_t>(p >> 32);
    }
    copy_words(out->proctex, r->pica_top__DOT__u_regs__DOT__u_proctex__DOT__mem);
    copy_words(out->fog, r->pica_top__DOT__u_regs__DOT__u_fog__DOT__mem);
    copy_words(out->gas, r->pica_top__DOT__u_regs__DOT__u_gas__DOT__mem);
    copy_words(out->lighting, r->pica_top__DOT__u_regs__DOT__u_lighting__DOT__mem);
    copy_words(out->fixed, r->pica_top__DOT__u_regs__DOT__u_fixed__DOT__mem);
// g_unit[u].<ram>.mem (generate blocks flatten to __BRA__u__KET__). A coverage build keeps the
// four units' RAMs as cells of their own (their coverage points make them too big to inline),
// reached through a pointer in the root; the other builds inline them into the root.
#define PICA_UNIT_RAM_INLINED(u, ram) \
  r->pica_top__DOT__u_regs__DOT__g_unit__BRA__##u##__KET____DOT__##ram##__DOT__mem
#define PICA_UNIT_RAM_CELL(u, ram) \
  r->__PVT__pica_top__DOT__u_regs__DOT__g_unit__BRA__##u##__KET____DOT__##ram->mem
#define PICA_UNIT_RAMS(u, AT)                        \
  copy_words(out->code[u], AT(u, u_code));           \
  copy_words(out->opdesc[u], AT(u, u_opdesc));       \
  copy_words(out->float_u[u], AT(u, u_float));
#define PICA_ALL_UNIT_RAMS(AT) \
  PICA_UNIT_RAMS(0, AT)        \
  PICA_UNIT_RAMS(1, AT)        \
  PICA_UNIT_RAMS(2, AT)        \
  PICA_UNIT_RAMS(3, AT)
    if constexpr (kCov) {
      PICA_ALL_UNIT_RAMS(PICA_UNIT_RAM_CELL)
    } else {
      PICA_ALL_UNIT_RAMS(PICA_UNIT_RAM_INLINED)
    }
#undef PICA_ALL_UNIT_RAMS
#undef PICA_UNIT_RAMS
#undef PICA_UNIT_RAM_CELL
#undef PICA_UNIT_RAM_INLINED
    // A completed float-uniform vec4 reaches the units' RAMs a clock after its write
    // (pica_regs.sv fwq_*): the state as the model holds it has it already.
    const uint32_t units = r->pica_top__DOT__u_regs__DOT__fwq_units_q;
    const uint32_t addr = r->pica_top__DOT__u_regs__DOT__fwq_addr_q;
    for (int u = 0; u < 4; u++) {
      if (((units >> u) & 1) != 0 && addr < 96) {
        for (int k = 0; k < 3; k++) {
          out->float_u[u][addr][k] = r->pica_top__DOT__u_regs__DOT__fwq_vec[k];
        }
      }
    }
  }
};

struct VariantInfo {
  const char* name;
  Dut* (*make)();
};

template <class V, bool kMutant = false, bool kCov = false>
Dut* make() {
  return new DutImpl<V, kMutant, kCov>();
}

#define PICA_VARIANT_ENTRY(cls, name) {name, &make<cls>},
#define PICA_MUTANT_ENTRY(cls, name) {name, &make<cls, true>},
#define PICA_COVERAGE_ENTRY(cls, name) {name, &make<cls, false, true>},
// The pica_top rows, then the mutant models (build.rs: MUTANT_MODELS), then the coverage rows
// (COVERAGE_MODELS).
const VariantInfo kVariants[] = {PICA_VARIANTS(PICA_VARIANT_ENTRY)
                                     PICA_MUTANT_VARIANTS(PICA_MUTANT_ENTRY)
                                         PICA_COVERAGE_VARIANTS(PICA_COVERAGE_ENTRY)};
constexpr int kVariantCount = sizeof(kVariants) / sizeof(kVariants[0]);

}  // namespace

struct PicaRtl {
  std::unique_ptr<Dut> dut;
};

extern "C" {

int pica_rtl_variant_count(void) { return kVariantCount; }

const char* pica_rtl_variant_name(int variant) {
  if (variant < 0 || variant >= kVariantCount) return nullptr;
  return kVariants[variant].name;
}

const char* pica_rtl_default_defines(void) { return PICA_DEFAULT_DEFINES; }

PicaRtl* pica_rtl_new(int variant) {
  if (variant < 0 || variant >= kVariantCount) return nullptr;
  PicaRtl* h = new PicaRtl;
  h->dut.reset(kVariants[variant].make());
  return h;
}

void pica_rtl_free(PicaRtl* h) { delete h; }

void pica_rtl_eval(PicaRtl* h, const PicaIn* in, PicaOut* out) { h->dut->eval(in, out); }

void pica_rtl_clock(PicaRtl* h) { h->dut->clock(); }

int pica_rtl_trace_open(PicaRtl* h, const char* path) { return h->dut->trace_open(path); }

void pica_rtl_trace_close(PicaRtl* h) { h->dut->trace_close(); }

void pica_rtl_state_read(PicaRtl* h, PicaState* out) { h->dut->state_read(out); }

int pica_rtl_set_mutant(PicaRtl* h, uint32_t mutant) { return h->dut->set_mutant(mutant); }

PICA_VL_COVERAGE_ABI(pica_rtl, PicaRtl)

}  // extern "C"
