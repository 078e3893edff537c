// Pieces shared by the shims of the stage tops (the hand-written pica_sh_shim.cpp and the
// stage shims generated from rtl-bridge/src/kit/desc.rs: pica_sh_stage_shim.cpp,
// pica_tev_shim.cpp, pica_fop_shim.cpp, pica_rast_shim.cpp): a Verilated model with its own
// context, reset, clock, VCD trace and code-coverage counters (the counters also serve
// pica_shim.cpp's pica_top models), a variant table, the C entry points of the counters, and the
// packing of wide ports into lanes (pack_lanes; pack96 for the shader unit's f24 vectors).
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <verilated.h>
#include <verilated_cov.h>
#include <verilated_vcd_c.h>

#include <atomic>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>

namespace pica_vl {

// Whether V is a mutant model (rtl-bridge/build.rs MUTANT_MODELS): a Yosys netlist of a stage
// top with the extra `mutsel` input. Detected from the class, so one shim template drives both
// the hand-written RTL and its mutant model.
template <class V, class = void>
struct HasMutsel : std::false_type {};
template <class V>
struct HasMutsel<V, std::void_t<decltype(std::declval<V&>().mutsel)>> : std::true_type {};

// 96-bit port <-> four f24 lanes (lane l at bits 24l+23..24l).
template <class W>
void pack96(W& w, const uint32_t* lanes) {
  uint32_t x = lanes[0] & 0xFFFFFF, y = lanes[1] & 0xFFFFFF, z = lanes[2] & 0xFFFFFF,
           ww = lanes[3] & 0xFFFFFF;
  w[0] = x | (y << 24);
  w[1] = (y >> 8) | (z << 16);
  w[2] = (z >> 16) | (ww << 8);
}

template <class W>
void unpack96(const W& w, uint32_t* lanes) {
  lanes[0] = w[0] & 0xFFFFFF;
  lanes[1] = ((w[0] >> 24) | (w[1] << 8)) & 0xFFFFFF;
  lanes[2] = ((w[1] >> 16) | (w[2] << 16)) & 0xFFFFFF;
  lanes[3] = (w[2] >> 8) & 0xFFFFFF;
}

// A port of `bits * n` bits cut into n lanes of `bits` bits each (bits <= 32; lane i at bits
// bits*i +: bits), one uint32_t per lane: the layout of the generated stage shims' wide ports
// (f24 vectors, raw words). W is Verilator's type of the port: VlWide (32-bit words) above 64
// bits, QData (uint64_t) from 33 to 64. Inputs are masked to the lane width.
template <class W>
void pack_lanes(W& w, const uint32_t* lanes, int bits, int n) {
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  if constexpr (std::is_integral_v<W>) {
    uint64_t x = 0;
    for (int i = 0; i < n; ++i) x |= (lanes[i] & mask) << (bits * i);
    w = x;
  } else {
    const int words = (bits * n + 31) / 32;
    for (int i = 0; i < words; ++i) w[i] = 0;
    for (int i = 0; i < n; ++i) {
      const uint64_t v = lanes[i] & mask;
      const int bit = bits * i, wd = bit >> 5, sh = bit & 31;
      w[wd] |= static_cast<uint32_t>(v << sh);
      if (sh + bits > 32) w[wd + 1] |= static_cast<uint32_t>(v >> (32 - sh));
    }
  }
}

// The reverse of pack_lanes.
template <class W>
void unpack_lanes(const W& w, uint32_t* lanes, int bits, int n) {
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  for (int i = 0; i < n; ++i) {
    const int bit = bits * i;
    uint64_t x;
    if constexpr (std::is_integral_v<W>) {
      x = static_cast<uint64_t>(w) >> bit;
    } else {
      const int wd = bit >> 5, sh = bit & 31;
      x = static_cast<uint64_t>(w[wd]) >> sh;
      if (sh + bits > 32) x |= static_cast<uint64_t>(w[wd + 1]) << (32 - sh);
    }
    lanes[i] = static_cast<uint32_t>(x & mask);
  }
}

// The code-coverage counters of one model (build.rs COVERAGE_MODELS: verilated with
// --coverage); a model without coverage has 0 points. A virtual interface, so that a shim's
// Dut hands out its model's counters with one method and the C entry points
// (PICA_VL_COVERAGE_ABI) are the same for every shim.
struct Counters {
  virtual ~Counters() = default;
  virtual uint32_t cov_count() = 0;
  virtual void cov_read(uint32_t* dst) = 0;
  virtual void cov_load(const uint32_t* src) = 0;
  virtual void cov_zero() = 0;
  // Writes the points and counts (coverage.dat format): 0, or -1 without coverage. The caller
  // checks that `path` can be written: VerilatedCovContext::write stops the process when it
  // cannot open the file.
  virtual int cov_write(const char* path) = 0;
};

// The Counters of model `top` in its own context `ctx` (both set once the model is built; the
// model owns them). kCov: V is a coverage row (build.rs COVERAGE_MODELS), whose symbol table
// holds one counter per coverage point (`__Vcoverage`, in the order the model registers the
// points with its context's VerilatedCovContext at construction, so the same index is the same
// point in every instance of V); its root and symbol-table headers must be included (the
// generated `{shim stem}_coverage.inc` does). The context is the model's own, so the points of
// two models alive at once never mix. The counters are read and written in place (one load or
// store per point) rather than through a written coverage file: a campaign reads them from
// every model it drops, a guided one after every case.
template <class V, bool kCov>
struct CovOf final : Counters {
  VerilatedContext* ctx = nullptr;
  V* top = nullptr;

  uint32_t cov_count() override {
    if constexpr (kCov) {
      return static_cast<uint32_t>(std::size(top->rootp->vlSymsp->__Vcoverage));
    } else {
      return 0;
    }
  }

  void cov_read(uint32_t* dst) override {
    if constexpr (kCov) {
      auto& c = top->rootp->vlSymsp->__Vcoverage;
      for (size_t i = 0; i < std::size(c); i++) dst[i] = c[i].load(std::memory_order_relaxed);
    } else {
      (void)dst;
    }
  }

  void cov_load(const uint32_t* src) override {
    if constexpr (kCov) {
      auto& c = top->rootp->vlSymsp->__Vcoverage;
      for (size_t i = 0; i < std::size(c); i++) c[i].store(src[i], std::memory_order_relaxed);
    } else {
      (void)src;
    }
  }

  // Verilator's per-thread current context must be the model's own (see Model::enter).
  void cov_zero() override {
    if constexpr (kCov) {
      Verilated::threadContextp(ctx);
      ctx->coveragep()->zero();
    }
  }

  int cov_write(const char* path) override {
    if constexpr (kCov) {
      Verilated::threadContextp(ctx);
      ctx->coveragep()->write(path);
      return 0;
    } else {
      (void)path;
      return -1;
    }
  }
};

// A context for one single-threaded model. Verilator 5.006's VerilatedContext defaults to one
// simulation thread per hardware thread and starts that many minus one worker threads when the
// first model is added, which a model verilated without --threads never uses: on the 2-core
// machine that was a thread started and joined for every model built (a fuzz case builds one),
// a tenth of a register-fuzz case's time.
inline VerilatedContext* new_context() {
  VerilatedContext* ctx = new VerilatedContext;
  ctx->threads(1);
  return ctx;
}

// One Verilated model V (ports clk_i, rst_ni) in its own VerilatedContext, reset for one clock
// on construction; kCov: V is a coverage row, whose counters `cov` reads (CovOf).
template <class V, bool kCov = false>
struct Model {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<V> top;
  std::unique_ptr<VerilatedVcdC> vcd;
  uint64_t time = 0;  // half clock periods
  uint64_t cycle = 0;
  CovOf<V, kCov> cov;

  // See pica_shim.cpp: point Verilator's per-thread context at this model before touching it.
  void enter() { Verilated::threadContextp(ctx.get()); }

  Model() : ctx(new_context()) {
    enter();
    ctx->traceEverOn(true);
    top.reset(new V(ctx.get(), "TOP"));
    cov.ctx = ctx.get();
    cov.top = top.get();
    top->clk_i = 0;
    reset();
  }

  // One clock with rst_ni low.
  void reset() {
    top->rst_ni = 0;
    top->eval();
    clock();
    top->rst_ni = 1;
    top->eval();
  }

  // Selects mutant k (0 = the unmutated netlist) of a mutant model and resets it again, so
  // that a mutation of the reset logic acts too; the clock count stays that of a new model.
  // -1 if V is not a mutant model.
  int set_mutant(uint32_t k) {
    if constexpr (HasMutsel<V>::value) {
      enter();
      top->mutsel = k;
      const uint64_t c = cycle;
      reset();
      cycle = c;
      return 0;
    } else {
      (void)k;
      return -1;
    }
  }

  ~Model() {
    enter();
    trace_close();
    top->final();
    top.reset();
    vcd.reset();
  }

  void clock() {
    if (vcd) vcd->dump(time);
    top->clk_i = 1;
    top->eval();
    time++;
    if (vcd) vcd->dump(time);
    top->clk_i = 0;
    top->eval();
    time++;
    cycle++;
  }

  int trace_open(const char* path) {
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

  void trace_close() {
    if (vcd) {
      vcd->dump(time);
      vcd->close();
      vcd.reset();
    }
  }
};

// A table of variants of one interface D: name and factory of each.
template <class D>
struct Variant {
  const char* name;
  D* (*make)();
};

template <class D, class Impl>
D* make() {
  return new Impl();
}

// The model behind a generated stage shim (rtl-bridge/src/kit/gen.rs), as an interface over its
// ABI structs In / Out, so one handle type serves every build (variant) of the stage.
template <class In, class Out>
struct StageDut {
  virtual ~StageDut() = default;
  // Applies `in` (the clock stays where it is), settles, and reads the outputs.
  virtual void eval(const In* in, Out* out) = 0;
  // Reads the outputs as they are (after clock(): what the edge produced).
  virtual void peek(Out* out) = 0;
  virtual void clock() = 0;
  virtual uint64_t cycles() = 0;
  virtual int trace_open(const char* path) = 0;
  virtual void trace_close() = 0;
  // The model's code-coverage counters (0 points unless a coverage row).
  virtual Counters* cov() = 0;
  virtual int set_mutant(uint32_t k) = 0;
};

// StageDut over the Verilated top V (a coverage row when kCov, see Model). Ports is the one
// stage-specific part, generated from the stage's description: `Ports::write(V*, const In*)`
// drives the inputs, `Ports::read(V*, Out*)` reads the outputs. Everything else is the same for
// every stage, so it is written here once rather than in every generated shim.
template <class In, class Out, class Ports, class V, bool kCov = false>
struct StageDutImpl final : StageDut<In, Out> {
  Model<V, kCov> m;

  void eval(const In* in, Out* out) override {
    m.enter();
    Ports::write(m.top.get(), in);
    m.top->eval();
    Ports::read(m.top.get(), out);
  }
  void peek(Out* out) override {
    m.enter();
    Ports::read(m.top.get(), out);
  }
  void clock() override {
    m.enter();
    m.clock();
  }
  uint64_t cycles() override { return m.cycle; }
  int trace_open(const char* path) override { return m.trace_open(path); }
  void trace_close() override { m.trace_close(); }
  Counters* cov() override { return &m.cov; }
  int set_mutant(uint32_t k) override { return m.set_mutant(k); }
};

}  // namespace pica_vl

// The C entry points of a generated stage shim whose handle type H holds
// `std::unique_ptr<pica_vl::StageDut<IN, OUT>> dut`, over its table VARIANTS of COUNT entries
// (pica_vl::Variant): PREFIX_variant_count, _variant_name, _new, _free, _eval, _peek, _clock,
// _cycles, _trace_open, _trace_close, _set_mutant and the coverage counters (declared in the
// generated header). Expands inside `extern "C"`.
#define PICA_VL_STAGE_ABI(PREFIX, H, IN, OUT, VARIANTS, COUNT)                              \
  int PREFIX##_variant_count(void) { return COUNT; }                                         \
  const char* PREFIX##_variant_name(int variant) {                                           \
    if (variant < 0 || variant >= COUNT) return nullptr;                                     \
    return VARIANTS[variant].name;                                                           \
  }                                                                                          \
  H* PREFIX##_new(int variant) {                                                             \
    if (variant < 0 || variant >= COUNT) return nullptr;                                     \
    try {                                                                                    \
      std::unique_ptr<H> h(new H);                                                           \
      h->dut.reset(VARIANTS[variant].make());                                                \
      return h.release();                                                                    \
    } catch (...) {                                                                          \
      return nullptr;                                                                        \
    }                                                                                        \
  }                                                                                          \
  void PREFIX##_free(H* h) { delete h; }                                                     \
  void PREFIX##_eval(H* h, const IN* in, OUT* out) { h->dut->eval(in, out); }                \
  void PREFIX##_peek(H* h, OUT* out) { h->dut->peek(out); }                                  \
  void PREFIX##_clock(H* h) { h->dut->clock(); }                                             \
  uint64_t PREFIX##_cycles(H* h) { return h->dut->cycles(); }                                \
  int PREFIX##_trace_open(H* h, const char* path) { return h->dut->trace_open(path); }       \
  void PREFIX##_trace_close(H* h) { h->dut->trace_close(); }                                 \
  int PREFIX##_set_mutant(H* h, uint32_t k) { return h->dut->set_mutant(k); }                \
  PICA_VL_COVERAGE_ABI(PREFIX, H)

// The C entry points of the coverage counters of a shim whose handle type H holds
// `std::unique_ptr<Dut> dut` and whose Dut has `pica_vl::Counters* cov()`: PREFIX_cov_count,
// _cov_read, _cov_load, _cov_zero, _cov_write (declared in the shim's header by
// PICA_VL_COVERAGE_DECLS). Expands inside `extern "C"`.
#define PICA_VL_COVERAGE_ABI(PREFIX, H)                                                        \
  uint32_t PREFIX##_cov_count(H* h) { return h->dut->cov()->cov_count(); }                    \
  void PREFIX##_cov_read(H* h, uint32_t* dst) { h->dut->cov()->cov_read(dst); }               \
  void PREFIX##_cov_load(H* h, const uint32_t* src) { h->dut->cov()->cov_load(src); }         \
  void PREFIX##_cov_zero(H* h) { h->dut->cov()->cov_zero(); }                                 \
  int PREFIX##_cov_write(H* h, const char* path) { return h->dut->cov()->cov_write(path); }
