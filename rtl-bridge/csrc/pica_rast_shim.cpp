// The CLIP + RAST stage bridge: a thin C ABI over the Verilated models of pica_rast_top (rows
// `rast`, `rast_inject_fill_rule`, `rast_inject_persp`, `rast_inject_clip_plane_order` of
// build.rs's model table). Like the other shims it only moves port values and clock edges; the
// protocol (register writes and clear events while idle, triangles in, fragments out, the
// early-depth port served from the model's EarlyDepthBuffer with a chosen latency) lives in
// rtl-bridge/src/rast_stage.rs.
#include "pica_rast_shim.h"

#include "Vpica_rast.h"
#include "Vpica_rast_inject_clip_plane_order.h"
#include "Vpica_rast_inject_fill_rule.h"
#include "Vpica_rast_inject_persp.h"
#include "pica_vl.h"
#include "pica_rast_shim_mutants.inc"
#include "pica_rast_shim_coverage.inc"

#define PICA_RAST_VARIANTS(X)                                           \
  X(Vpica_rast, "default")                                              \
  X(Vpica_rast_inject_fill_rule, "inject_rast_fill_rule")               \
  X(Vpica_rast_inject_persp, "inject_rast_persp")                       \
  X(Vpica_rast_inject_clip_plane_order, "inject_clip_plane_order")

namespace {

// n f24 lanes (lane i at bits 24i+23..24i) into a Verilator wide port of `words` 32-bit words.
template <class W>
void pack24(W& w, int words, const uint32_t* lanes, int n) {
  for (int i = 0; i < words; ++i) w[i] = 0;
  for (int i = 0; i < n; ++i) {
    const uint32_t v = lanes[i] & 0xFFFFFF;
    const int bit = 24 * i, wd = bit >> 5, sh = bit & 31;
    w[wd] |= v << sh;
    if (sh > 8) w[wd + 1] |= v >> (32 - sh);
  }
}

// The reverse of pack24.
template <class W>
void unpack24(const W& w, uint32_t* lanes, int n) {
  for (int i = 0; i < n; ++i) {
    const int bit = 24 * i, wd = bit >> 5, sh = bit & 31;
    uint64_t x = static_cast<uint64_t>(w[wd]) >> sh;
    if (sh > 8) x |= static_cast<uint64_t>(w[wd + 1]) << (32 - sh);
    lanes[i] = static_cast<uint32_t>(x & 0xFFFFFF);
  }
}

struct Dut {
  virtual ~Dut() = default;
  virtual void eval(const PicaRastIn* in, PicaRastOut* out) = 0;
  virtual void peek(PicaRastOut* out) = 0;
  virtual void clock() = 0;
  virtual int trace_open(const char* path) = 0;
  virtual void trace_close() = 0;
  // The model's code-coverage counters (0 points unless a coverage row).
  virtual pica_vl::Counters* cov() = 0;
  virtual int set_mutant(uint32_t k) = 0;
};

// kCov: V is a coverage row of build.rs (COVERAGE_MODELS), see pica_vl::Model.
template <class V, bool kCov = false>
struct DutImpl final : Dut {
  pica_vl::Model<V, kCov> m;

  void read(PicaRastOut* out) {
    V* t = m.top.get();
    out->in_ready = t->in_ready_o;
    out->out_valid = t->out_valid_o;
    out->out_tri = t->out_tri_o;
    out->out_x = t->out_x_o;
    out->out_y = t->out_y_o;
    out->out_depth = t->out_depth_o;
    out->out_color = t->out_color_o;
    unpack24(t->out_attr_o, out->out_attr, 24);
    unpack24(t->out_tex_deriv_o, out->out_tex_deriv, 12);
    out->ed_req_valid = t->ed_req_valid_o;
    out->ed_req_op = t->ed_req_op_o;
    out->ed_req_x = t->ed_req_x_o;
    out->ed_req_y = t->ed_req_y_o;
    out->ed_req_data = t->ed_req_data_o;
    out->ed_rsp_ready = t->ed_rsp_ready_o;
    out->idle = t->idle_o;
  }

  void eval(const PicaRastIn* in, PicaRastOut* out) override {
    m.enter();
    V* t = m.top.get();
    t->cfg_we_i = in->cfg_we & 1;
    t->cfg_id_i = in->cfg_id & 0x3FF;
    t->cfg_data_i = in->cfg_data;
    t->in_valid_i = in->in_valid & 1;
    t->in_seq_i = in->in_seq;
    pack24(t->in_v_i, 54, in->in_v, 72);
    t->out_ready_i = in->out_ready & 1;
    t->ed_req_ready_i = in->ed_req_ready & 1;
    t->ed_rsp_valid_i = in->ed_rsp_valid & 1;
    t->ed_rsp_data_i = in->ed_rsp_data & 0xFFFFFF;
    t->eval();
    read(out);
  }

  void peek(PicaRastOut* out) override {
    m.enter();
    read(out);
  }

  void clock() override {
    m.enter();
    m.clock();
  }
  int trace_open(const char* path) override { return m.trace_open(path); }
  void trace_close() override { m.trace_close(); }
  pica_vl::Counters* cov() override { return &m.cov; }
  int set_mutant(uint32_t k) override { return m.set_mutant(k); }
};

#define PICA_RAST_VARIANT_ENTRY(cls, name) {name, &pica_vl::make<Dut, DutImpl<cls>>},
#define PICA_RAST_COVERAGE_ENTRY(cls, name) {name, &pica_vl::make<Dut, DutImpl<cls, true>>},
// The hand-written rows, then the mutant models (build.rs MUTANT_MODELS, named by row), then
// the coverage rows (COVERAGE_MODELS, named by row).
const pica_vl::Variant<Dut> kVariants[] = {PICA_RAST_VARIANTS(PICA_RAST_VARIANT_ENTRY)
                                               PICA_MUTANT_VARIANTS(PICA_RAST_VARIANT_ENTRY)
                                                   PICA_COVERAGE_VARIANTS(PICA_RAST_COVERAGE_ENTRY)};
constexpr int kVariantCount = sizeof(kVariants) / sizeof(kVariants[0]);

}  // namespace

struct PicaRast {
  std::unique_ptr<Dut> dut;
};

extern "C" {

int pica_rast_variant_count(void) { return kVariantCount; }

const char* pica_rast_variant_name(int variant) {
  if (variant < 0 || variant >= kVariantCount) return nullptr;
  return kVariants[variant].name;
}

PicaRast* pica_rast_new(int variant) {
  if (variant < 0 || variant >= kVariantCount) return nullptr;
  try {
    std::unique_ptr<PicaRast> h(new PicaRast);
    h->dut.reset(kVariants[variant].make());
    return h.release();
  } catch (...) {
    return nullptr;
  }
}

void pica_rast_free(PicaRast* h) { delete h; }

void pica_rast_eval(PicaRast* h, const PicaRastIn* in, PicaRastOut* out) { h->dut->eval(in, out); }

void pica_rast_peek(PicaRast* h, PicaRastOut* out) { h->dut->peek(out); }

void pica_rast_clock(PicaRast* h) { h->dut->clock(); }

int pica_rast_trace_open(PicaRast* h, const char* path) { return h->dut->trace_open(path); }

void pica_rast_trace_close(PicaRast* h) { h->dut->trace_close(); }

int pica_rast_set_mutant(PicaRast* h, uint32_t k) { return h->dut->set_mutant(k); }

PICA_VL_COVERAGE_ABI(pica_rast, PicaRast)

}  // extern "C"
