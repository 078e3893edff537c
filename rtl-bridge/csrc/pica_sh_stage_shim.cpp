// The SH-stage bridge: a thin C ABI over the Verilated models of pica_sh_top (rows `sh_stage`,
// `sh_stage_inject_add_round`, `sh_stage_inject_loop_extra` of build.rs's model table). Like
// pica_shim.cpp it only moves port values and clock edges; the protocol (config writes, vertex
// beats, output items, commits) lives in rtl-bridge/src/sh_stage.rs.
#include "pica_sh_stage_shim.h"

#include "Vpica_sh_stage.h"
#include "Vpica_sh_stage_inject_add_round.h"
#include "Vpica_sh_stage_inject_loop_extra.h"
#include "pica_vl.h"

#define PICA_SHS_VARIANTS(X)                                  \
  X(Vpica_sh_stage, "default")                                \
  X(Vpica_sh_stage_inject_add_round, "inject_sh_add_round")   \
  X(Vpica_sh_stage_inject_loop_extra, "inject_sh_loop_extra")

namespace {

template <class W>
void set96(W& w, const uint32_t* words) {
  for (int i = 0; i < 3; i++) w[i] = words[i];
}

template <class W>
void get96(const W& w, uint32_t* words) {
  for (int i = 0; i < 3; i++) words[i] = w[i];
}

struct Dut {
  virtual ~Dut() = default;
  virtual void eval(const PicaShsIn* in, PicaShsOut* out) = 0;
  virtual void clock() = 0;
  virtual uint64_t cycles() = 0;
  virtual int trace_open(const char* path) = 0;
  virtual void trace_close() = 0;
};

template <class V>
struct DutImpl final : Dut {
  pica_vl::Model<V> m;

  void eval(const PicaShsIn* in, PicaShsOut* out) override {
    m.enter();
    V* t = m.top.get();
    t->cfg_valid_i = in->cfg_valid & 1;
    t->cfg_bank_i = in->cfg_bank & 3;
    t->cfg_kind_i = in->cfg_kind & 0xF;
    t->cfg_addr_i = in->cfg_addr & 0xFFF;
    set96(t->cfg_data_i, in->cfg_data);
    t->in_valid_i = in->in_valid & 1;
    t->in_seq_i = in->in_seq;
    t->in_attr_i = in->in_attr & 0x1F;
    t->in_last_i = in->in_last & 1;
    set96(t->in_data_i, in->in_data);
    t->out_ready_i = in->out_ready & 1;
    t->commit_ready_i = in->commit_ready & 1;
    t->eval();
    out->cfg_ready = t->cfg_ready_o;
    out->in_ready = t->in_ready_o;
    out->out_valid = t->out_valid_o;
    out->out_kind = t->out_kind_o;
    out->out_id = t->out_id_o;
    out->out_reg = t->out_reg_o;
    get96(t->out_data_o, out->out_data);
    out->out_last = t->out_last_o;
    out->out_vtx_id = t->out_vtx_id_o;
    out->out_winding = t->out_winding_o;
    out->out_prim = t->out_prim_o;
    out->commit_valid = t->commit_valid_o;
    out->commit_unit = t->commit_unit_o;
    out->commit_seq = t->commit_seq_o;
    PicaShCommit& c = out->commit;
    c.pc = t->commit_pc_o;
    c.word = t->commit_word_o;
    c.dst = t->commit_dst_o;
    c.mask = t->commit_mask_o;
    pica_vl::unpack96(t->commit_result_o, c.result);
    c.cmp = t->commit_cmp_o;
    c.a0x = static_cast<int32_t>(t->commit_a0x_o);
    c.a0y = static_cast<int32_t>(t->commit_a0y_o);
    c.al = static_cast<int32_t>(t->commit_al_o);
    c.next_pc = t->commit_next_pc_o;
    c.emit = t->commit_emit_o;
    c.hang = t->commit_hang_o;
    c.end = t->commit_end_o;
    out->hang = t->hang_o;
    out->hang_unit = t->hang_unit_o;
    out->hang_pc = t->hang_pc_o;
    out->hang_word = t->hang_word_o;
    out->hang_code = t->hang_code_o;
    out->idle = t->idle_o;
  }

  void clock() override {
    m.enter();
    m.clock();
  }
  uint64_t cycles() override { return m.cycle; }
  int trace_open(const char* path) override { return m.trace_open(path); }
  void trace_close() override { m.trace_close(); }
};

#define PICA_SHS_VARIANT_ENTRY(cls, name) {name, &pica_vl::make<Dut, DutImpl<cls>>},
const pica_vl::Variant<Dut> kVariants[] = {PICA_SHS_VARIANTS(PICA_SHS_VARIANT_ENTRY)};
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

}  // extern "C"
