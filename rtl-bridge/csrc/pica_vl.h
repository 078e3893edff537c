// Pieces shared by the shims of the stage tops (pica_sh_shim.cpp, pica_sh_stage_shim.cpp): a
// Verilated model with its own context, reset, clock and VCD trace, a variant table, and the
// 96-bit <-> f24-lane packing of the shader ports.
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <verilated.h>
#include <verilated_vcd_c.h>

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

// One Verilated model V (ports clk_i, rst_ni) in its own VerilatedContext, reset for one clock
// on construction.
template <class V>
struct Model {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<V> top;
  std::unique_ptr<VerilatedVcdC> vcd;
  uint64_t time = 0;  // half clock periods
  uint64_t cycle = 0;

  // See pica_shim.cpp: point Verilator's per-thread context at this model before touching it.
  void enter() { Verilated::threadContextp(ctx.get()); }

  Model() : ctx(new VerilatedContext) {
    enter();
    ctx->traceEverOn(true);
    top.reset(new V(ctx.get(), "TOP"));
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

}  // namespace pica_vl
