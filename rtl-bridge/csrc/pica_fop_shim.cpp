// The FOP-stage bridge: a thin C ABI over the Verilated models of pica_fop_top (rows `fop`,
// `fop_inject_blend_factor`, `fop_inject_stencil_zfail`, `fop_inject_tile32` of build.rs's
// model table). Like the other shims it only moves port values and clock edges; the protocol
// (register writes while idle, fragments in, pixel beats out, the memory port served from the
// model's memory with a chosen latency) lives in rtl-bridge/src/fop_stage.rs.
#include "pica_fop_shim.h"

#include "Vpica_fop.h"
#include "Vpica_fop_inject_blend_factor.h"
#include "Vpica_fop_inject_stencil_zfail.h"
#include "Vpica_fop_inject_tile32.h"
#include "pica_vl.h"
#include "pica_fop_shim_mutants.inc"
#include "pica_fop_shim_coverage.inc"

#define PICA_FOP_VARIANTS(X)                                        \
  X(Vpica_fop, "default")                                           \
  X(Vpica_fop_inject_blend_factor, "inject_fop_blend_factor")       \
  X(Vpica_fop_inject_stencil_zfail, "inject_fop_stencil_zfail")     \
  X(Vpica_fop_inject_tile32, "inject_fop_tile32")

namespace {

struct Dut {
  virtual ~Dut() = default;
  virtual void eval(const PicaFopIn* in, PicaFopOut* out) = 0;
  virtual void peek(PicaFopOut* out) = 0;
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

  void read(PicaFopOut* out) {
    V* t = m.top.get();
    out->in_ready = t->in_ready_o;
    out->out_valid = t->out_valid_o;
    out->out_tag = t->out_tag_o;
    out->out_x = t->out_x_o;
    out->out_y = t->out_y_o;
    out->out_color_addr = t->out_color_addr_o;
    out->out_color = t->out_color_o;
    out->out_depth_addr = t->out_depth_addr_o;
    out->out_depth_stencil = t->out_depth_stencil_o;
    out->out_flags = t->out_flags_o;
    out->mem_req_valid = t->mem_req_valid_o;
    out->mem_req_we = t->mem_req_we_o;
    out->mem_req_addr = t->mem_req_addr_o;
    out->mem_req_be = t->mem_req_be_o;
    out->mem_req_wdata = t->mem_req_wdata_o;
    out->mem_rsp_ready = t->mem_rsp_ready_o;
    out->hang = t->hang_o;
    out->hang_kind = t->hang_kind_o;
    out->hang_buffer = t->hang_buffer_o;
    out->hang_addr = t->hang_addr_o;
    out->hang_value = t->hang_value_o;
    out->idle = t->idle_o;
  }

  void eval(const PicaFopIn* in, PicaFopOut* out) override {
    m.enter();
    V* t = m.top.get();
    t->cfg_we_i = in->cfg_we & 1;
    t->cfg_id_i = in->cfg_id & 0x3FF;
    t->cfg_data_i = in->cfg_data;
    t->in_valid_i = in->in_valid & 1;
    t->in_tag_i = in->in_tag;
    t->in_x_i = in->in_x & 0xFFFF;
    t->in_y_i = in->in_y & 0xFFFF;
    t->in_depth_i = in->in_depth & 0xFFFFFF;
    t->in_color_i = in->in_color;
    t->out_ready_i = in->out_ready & 1;
    t->mem_req_ready_i = in->mem_req_ready & 1;
    t->mem_rsp_valid_i = in->mem_rsp_valid & 1;
    t->mem_rsp_rdata_i = in->mem_rsp_rdata;
    t->mem_rsp_err_i = in->mem_rsp_err & 1;
    t->eval();
    read(out);
  }

  void peek(PicaFopOut* out) override {
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

#define PICA_FOP_VARIANT_ENTRY(cls, name) {name, &pica_vl::make<Dut, DutImpl<cls>>},
#define PICA_FOP_COVERAGE_ENTRY(cls, name) {name, &pica_vl::make<Dut, DutImpl<cls, true>>},
// The hand-written rows, then the mutant models (build.rs MUTANT_MODELS, named by row), then
// the coverage rows (COVERAGE_MODELS, named by row).
const pica_vl::Variant<Dut> kVariants[] = {PICA_FOP_VARIANTS(PICA_FOP_VARIANT_ENTRY)
                                               PICA_MUTANT_VARIANTS(PICA_FOP_VARIANT_ENTRY)
                                                   PICA_COVERAGE_VARIANTS(PICA_FOP_COVERAGE_ENTRY)};
constexpr int kVariantCount = sizeof(kVariants) / sizeof(kVariants[0]);

}  // namespace

struct PicaFop {
  std::unique_ptr<Dut> dut;
};

extern "C" {

int pica_fop_variant_count(void) { return kVariantCount; }

const char* pica_fop_variant_name(int variant) {
  if (variant < 0 || variant >= kVariantCount) return nullptr;
  return kVariants[variant].name;
}

PicaFop* pica_fop_new(int variant) {
  if (variant < 0 || variant >= kVariantCount) return nullptr;
  try {
    std::unique_ptr<PicaFop> h(new PicaFop);
    h->dut.reset(kVariants[variant].make());
    return h.release();
  } catch (...) {
    return nullptr;
  }
}

void pica_fop_free(PicaFop* h) { delete h; }

void pica_fop_eval(PicaFop* h, const PicaFopIn* in, PicaFopOut* out) { h->dut->eval(in, out); }

void pica_fop_peek(PicaFop* h, PicaFopOut* out) { h->dut->peek(out); }

void pica_fop_clock(PicaFop* h) { h->dut->clock(); }

int pica_fop_trace_open(PicaFop* h, const char* path) { return h->dut->trace_open(path); }

void pica_fop_trace_close(PicaFop* h) { h->dut->trace_close(); }

int pica_fop_set_mutant(PicaFop* h, uint32_t k) { return h->dut->set_mutant(k); }

PICA_VL_COVERAGE_ABI(pica_fop, PicaFop)

}  // extern "C"
