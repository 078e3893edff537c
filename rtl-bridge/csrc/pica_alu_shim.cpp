// The Verilator bridge of pica_alu_top and pica_alu_mc_top: two Verilated models, evaluated in
// batches so that a sweep of 2^24 operands costs one FFI call per batch instead of one per
// evaluation. pica_alu_top is combinational (one eval per set); pica_alu_mc_top (ops 24-29:
// pica_sh_sfu, the clipper's pica_f24_rcp_mc and the rasterizer's pica_f24_div_p) is clocked
// through its start/done handshake for every set (for every lane of op 29, a per-lane op).
#include "pica_alu_shim.h"

// Both models only when build.rs built them (their directories are on the include path): a lean
// build (build.rs, "Lean builds") has neither, and then pica_alu_new returns NULL, which the
// Rust side reports, instead of the build failing.
#if __has_include("Vpica_alu.h") && __has_include("Vpica_sfu.h")

#include <verilated.h>

#include <memory>

#include "Vpica_alu.h"
#include "Vpica_sfu.h"

namespace {

constexpr uint32_t kOpMova = 16;
constexpr uint32_t kOpF32 = 17;
constexpr uint32_t kOpFix = 19;  // to_fix12p4: int_o, like MOVA
// Ops 24-30 on pica_alu_mc_top (its op_i = op - 24): RCP, RSQ, EX2, LG2 on pica_sh_sfu, then
// the clipper's reciprocal pica_f24_rcp_mc, the rasterizer's divider pica_f24_div_p (a / b
// per lane, like op 18 DIV) and the texture units' reciprocal pica_f24_rcp_p.
constexpr uint32_t kOpSfuFirst = 24;
constexpr uint32_t kOpSfuLast = 30;
constexpr uint32_t kOpDivRast = 29;
// Clocks after which a set that never signals done gives kSfuTimeout in every lane (not an
// f24: a mismatch the checker reports, never a hang). The unit needs at most 380 (LG2).
constexpr uint32_t kSfuMaxClocks = 4096;
constexpr uint32_t kSfuTimeout = 0xFFFFFFFFu;

// Packs four 24-bit lanes into a 96-bit port (lane l at bits [24*l +: 24]).
template <class W>
void pack(W& w, const uint32_t* l) {
  const uint32_t l0 = l[0] & 0xFFFFFF, l1 = l[1] & 0xFFFFFF, l2 = l[2] & 0xFFFFFF,
                 l3 = l[3] & 0xFFFFFF;
  w[0] = l0 | (l1 << 24);
  w[1] = (l1 >> 8) | (l2 << 16);
  w[2] = (l2 >> 16) | (l3 << 8);
}

template <class W>
void unpack(const W& w, uint32_t* l) {
  l[0] = w[0] & 0xFFFFFF;
  l[1] = ((w[0] >> 24) | (w[1] << 8)) & 0xFFFFFF;
  l[2] = ((w[1] >> 16) | (w[2] << 16)) & 0xFFFFFF;
  l[3] = (w[2] >> 8) & 0xFFFFFF;
}

}  // namespace

struct PicaAlu {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vpica_alu> top;
  std::unique_ptr<Vpica_sfu> sfu;

  // Verilator's per-thread current context must be this model's whenever we touch it (several
  // models may live in one process; see pica_shim.cpp).
  void enter() { Verilated::threadContextp(ctx.get()); }

  PicaAlu() : ctx(new VerilatedContext) {
    enter();
    top.reset(new Vpica_alu(ctx.get(), "TOP"));
    sfu.reset(new Vpica_sfu(ctx.get(), "SFU"));
    sfu->clk_i = 0;
    sfu->start_i = 0;
    sfu->rst_ni = 0;
    sfu->eval();
    sfu->rst_ni = 1;
    sfu->eval();
  }

  // One rising and one falling edge of the SFU's clock.
  void sfu_clock() {
    sfu->clk_i = 1;
    sfu->eval();
    sfu->clk_i = 0;
    sfu->eval();
  }

  // Runs one SFU operation to done (or to kSfuMaxClocks).
  uint32_t sfu_run(uint32_t op, uint32_t a, uint32_t b) {
    sfu->op_i = op & 7;
    sfu->a_i = a & 0xFFFFFF;
    sfu->b_i = b & 0xFFFFFF;
    sfu->start_i = 1;
    sfu_clock();
    sfu->start_i = 0;
    for (uint32_t n = 0; n < kSfuMaxClocks; ++n) {
      sfu_clock();
      if (sfu->done_o) return sfu->y_o & 0xFFFFFF;
    }
    return kSfuTimeout;
  }

  ~PicaAlu() {
    enter();
    top->final();
    sfu->final();
    top.reset();
    sfu.reset();
  }
};

extern "C" {

PicaAlu* pica_alu_new(void) {
  try {
    return new PicaAlu();
  } catch (...) {
    return nullptr;
  }
}

void pica_alu_free(PicaAlu* h) { delete h; }

void pica_alu_eval_batch(PicaAlu* h, uint32_t op, uint32_t knob, uint64_t n, const uint32_t* a,
                         const uint32_t* b, const uint32_t* c, uint32_t* out) {
  h->enter();
  if (op == kOpDivRast) {
    for (uint64_t k = 0; k < 4 * n; ++k) out[k] = h->sfu_run(op - kOpSfuFirst, a[k], b[k]);
    return;
  }
  if (op >= kOpSfuFirst && op <= kOpSfuLast) {
    for (uint64_t k = 0; k < n; ++k) {
      const uint32_t y = h->sfu_run(op - kOpSfuFirst, a[4 * k], 0);
      for (int l = 0; l < 4; ++l) out[4 * k + l] = y;
    }
    return;
  }
  Vpica_alu* t = h->top.get();
  t->op_i = op & 0x1F;
  t->max_neg_inf_i = knob & 1;
  t->f32_i = 0;
  for (uint64_t k = 0; k < n; ++k) {
    const uint32_t* ak = a + 4 * k;
    pack(t->a_i, ak);
    pack(t->b_i, b + 4 * k);
    pack(t->c_i, c + 4 * k);
    if (op == kOpF32) t->f32_i = ak[0];
    t->eval();
    uint32_t* o = out + 4 * k;
    if (op == kOpMova || op == kOpFix) {
      for (int l = 0; l < 4; ++l) o[l] = t->int_o[l];
    } else {
      unpack(t->y_o, o);
    }
  }
}

}  // extern "C"

#else  // no ALU models in this build

struct PicaAlu {};

extern "C" {

PicaAlu* pica_alu_new(void) { return nullptr; }

void pica_alu_free(PicaAlu* h) { delete h; }

void pica_alu_eval_batch(PicaAlu* h, uint32_t op, uint32_t knob, uint64_t n, const uint32_t* a,
                         const uint32_t* b, const uint32_t* c, uint32_t* out) {
  (void)h, (void)op, (void)knob, (void)n, (void)a, (void)b, (void)c, (void)out;
}

}  // extern "C"

#endif
