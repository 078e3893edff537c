// The Verilator bridge of pica_alu_top: one Verilated model, evaluated in batches so that a
// sweep of 2^24 operands costs one FFI call per batch instead of one per evaluation.
#include "pica_alu_shim.h"

#include <verilated.h>

#include <memory>

#include "Vpica_alu.h"

namespace {

constexpr uint32_t kOpMova = 16;
constexpr uint32_t kOpF32 = 17;
constexpr uint32_t kOpFix = 19;  // to_fix12p4: int_o, like MOVA

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

  // Verilator's per-thread current context must be this model's whenever we touch it (several
  // models may live in one process; see pica_shim.cpp).
  void enter() { Verilated::threadContextp(ctx.get()); }

  PicaAlu() : ctx(new VerilatedContext) {
    enter();
    top.reset(new Vpica_alu(ctx.get(), "TOP"));
  }

  ~PicaAlu() {
    enter();
    top->final();
    top.reset();
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
