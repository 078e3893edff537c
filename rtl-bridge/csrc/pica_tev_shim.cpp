// The TEV-stage bridge: a thin C ABI over the Verilated models of pica_tev_top (rows `tev`,
// `tev_inject_scale_sat`, `tev_inject_buffer` of build.rs's model table). Like the other shims
// it only moves port values and clock edges; the protocol (register writes while idle,
// fragments in, combined colours out) lives in rtl-bridge/src/tev_stage.rs.
#include "pica_tev_shim.h"

#include "Vpica_tev.h"
#include "Vpica_tev_inject_buffer.h"
#include "Vpica_tev_inject_scale_sat.h"
#include "pica_vl.h"
#include "pica_tev_shim_mutants.inc"
#include "pica_tev_shim_coverage.inc"

#define PICA_TEV_VARIANTS(X)                                \
  X(Vpica_tev, "default")                                   \
  X(Vpica_tev_inject_scale_sat, "inject_tev_scale_sat")     \
  X(Vpica_tev_inject_buffer, "inject_tev_buffer")

namespace {

struct Dut {
  virtual ~Dut() = default;
  virtual void eval(const PicaTevIn* in, PicaTevOut* out) = 0;
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

  void eval(const PicaTevIn* in, PicaTevOut* out) override {
    m.enter();
    V* t = m.top.get();
    t->cfg_we_i = in->cfg_we & 1;
    t->cfg_id_i = in->cfg_id & 0x3FF;
    t->cfg_data_i = in->cfg_data;
    t->in_valid_i = in->in_valid & 1;
    t->in_tag_i = in->in_tag;
    t->in_primary_i = in->in_primary;
    t->in_frag_primary_i = in->in_frag_primary;
    t->in_frag_secondary_i = in->in_frag_secondary;
    for (int i = 0; i < 4; i++) t->in_tex_i[i] = in->in_tex[i];
    t->out_ready_i = in->out_ready & 1;
    t->eval();
    out->in_ready = t->in_ready_o;
    out->out_valid = t->out_valid_o;
    out->out_tag = t->out_tag_o;
    out->out_color = t->out_color_o;
    for (int i = 0; i < 6; i++) {
      out->out_stage_color[i] = t->out_stage_color_o[i];
      out->out_stage_buffer[i] = t->out_stage_buffer_o[i];
    }
    out->idle = t->idle_o;
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

#define PICA_TEV_VARIANT_ENTRY(cls, name) {name, &pica_vl::make<Dut, DutImpl<cls>>},
#define PICA_TEV_COVERAGE_ENTRY(cls, name) {name, &pica_vl::make<Dut, DutImpl<cls, true>>},
// The hand-written rows, then the mutant models (build.rs MUTANT_MODELS, named by row), then
// the coverage rows (COVERAGE_MODELS, named by row).
const pica_vl::Variant<Dut> kVariants[] = {PICA_TEV_VARIANTS(PICA_TEV_VARIANT_ENTRY)
                                               PICA_MUTANT_VARIANTS(PICA_TEV_VARIANT_ENTRY)
                                                   PICA_COVERAGE_VARIANTS(PICA_TEV_COVERAGE_ENTRY)};
constexpr int kVariantCount = sizeof(kVariants) / sizeof(kVariants[0]);

}  // namespace

struct PicaTev {
  std::unique_ptr<Dut> dut;
};

extern "C" {

int pica_tev_variant_count(void) { return kVariantCount; }

const char* pica_tev_variant_name(int variant) {
  if (variant < 0 || variant >= kVariantCount) return nullptr;
  return kVariants[variant].name;
}

PicaTev* pica_tev_new(int variant) {
  if (variant < 0 || variant >= kVariantCount) return nullptr;
  try {
    std::unique_ptr<PicaTev> h(new PicaTev);
    h->dut.reset(kVariants[variant].make());
    return h.release();
  } catch (...) {
    return nullptr;
  }
}

void pica_tev_free(PicaTev* h) { delete h; }

void pica_tev_eval(PicaTev* h, const PicaTevIn* in, PicaTevOut* out) { h->dut->eval(in, out); }

void pica_tev_clock(PicaTev* h) { h->dut->clock(); }

int pica_tev_trace_open(PicaTev* h, const char* path) { return h->dut->trace_open(path); }

void pica_tev_trace_close(PicaTev* h) { h->dut->trace_close(); }

int pica_tev_set_mutant(PicaTev* h, uint32_t k) { return h->dut->set_mutant(k); }

PICA_VL_COVERAGE_ABI(pica_tev, PicaTev)

}  // extern "C"
