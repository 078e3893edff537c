// The SH-stage bridge: a thin C ABI over the Verilated models of pica_sh_top (rows `sh_stage`,
// `sh_stage_inject_add_round`, `sh_stage_inject_loop_extra` of build.rs's model table). Like
// pica_shim.cpp it only moves port values and clock edges; the protocol (config writes, vertex
// beats, output items, commits) lives in rtl-bridge/src/sh_stage.rs.
#include "pica_sh_stage_shim.h"

#include "Vpica_sh_stage.h"
#include "Vpica_sh_stage_inject_add_round.h"
#include "Vpica_sh_stage_inject_loop_extra.h"
#include "pica_sh_ports.h"
#include "pica_vl.h"
#include "pica_sh_stage_shim_coverage.inc"

#define PICA_SHS_VARIANTS(X)                                  \
  X(Vpica_sh_stage, "default")                                \
  X(Vpica_sh_stage_inject_add_round, "inject_sh_add_round")   \
  X(Vpica_sh_stage_inject_loop_extra, "inject_sh_loop_extra")

namespace {

struct Dut {
  virtual ~Dut() = default;
  virtual void eval(const PicaShsIn* in, PicaShsOut* out) = 0;
  virtual void clock() = 0;
  virtual uint64_t cycles() = 0;
  virtual int trace_open(const char* path) = 0;
  virtual void trace_close() = 0;
  // The model's code-coverage counters (0 points unless a coverage row).
  virtual pica_vl::Counters* cov() = 0;
};

// kCov: V is a coverage row of build.rs (COVERAGE_MODELS), see pica_vl::Model.
template <class V, bool kCov = false>
struct DutImpl final : Dut {
  pica_vl::Model<V, kCov> m;

  void eval(const PicaShsIn* in, PicaShsOut* out) override {
    m.enter();
    V* t = m.top.get();
    t->cfg_valid_i = in->cfg_valid & 1;
    t->cfg_bank_i = in->cfg_bank & 3;
    t->cfg_kind_i = in->cfg_kind & 0xF;
    t->cfg_addr_i = in->cfg_addr & 0xFFF;
    pica_sh_ports::set96(t->cfg_data_i, in->cfg_data);
    PICA_SH_PORTS_IN(t, in, );
    t->eval();
    out->cfg_ready = t->cfg_ready_o;
    PICA_SH_PORTS_OUT(t, out, );
  }

  void clock() override {
    m.enter();
    m.clock();
  }
  uint64_t cycles() override { return m.cycle; }
  int trace_open(const char* path) override { return m.trace_open(path); }
  void trace_close() override { m.trace_close(); }
  pica_vl::Counters* cov() override { return &m.cov; }
};

#define PICA_SHS_VARIANT_ENTRY(cls, name) {name, &pica_vl::make<Dut, DutImpl<cls>>},
#define PICA_SHS_COVERAGE_ENTRY(cls, name) {name, &pica_vl::make<Dut, DutImpl<cls, true>>},
// The hand-written rows, then the coverage rows (build.rs COVERAGE_MODELS, named by row).
const pica_vl::Variant<Dut> kVariants[] = {PICA_SHS_VARIANTS(PICA_SHS_VARIANT_ENTRY)
                                               PICA_COVERAGE_VARIANTS(PICA_SHS_COVERAGE_ENTRY)};
constexpr int kVariantCount = sizeof(kVariants) / sizeof(kVariants[0]);

}  // namespace

struct PicaShs {
  std::unique_ptr<Dut> dut;
};

extern "C" {

int pica_shs_variant_count(void) { return kVariantCount; }

const char* pica_shs_variant_name(int variant) {
  if (variant < 0 || variant >= kVariantCount) return nullptr;
  return kVariants[variant].name;
}

PicaShs* pica_shs_new(int variant) {
  if (variant < 0 || variant >= kVariantCount) return nullptr;
  PicaShs* h = new PicaShs;
  h->dut.reset(kVariants[variant].make());
  return h;
}

void pica_shs_free(PicaShs* h) { delete h; }

void pica_shs_eval(PicaShs* h, const PicaShsIn* in, PicaShsOut* out) { h->dut->eval(in, out); }

void pica_shs_clock(PicaShs* h) { h->dut->clock(); }

uint64_t pica_shs_cycles(PicaShs* h) { return h->dut->cycles(); }

int pica_shs_trace_open(PicaShs* h, const char* path) { return h->dut->trace_open(path); }

void pica_shs_trace_close(PicaShs* h) { h->dut->trace_close(); }

PICA_VL_COVERAGE_ABI(pica_shs, PicaShs)

}  // extern "C"
