// The bridge of pica_axi_master (see pica_axi_shim.h): port moves only; the harness that serves
// its AXI side from the model's memory is src/axi/rtl.rs.
#include "pica_axi_shim.h"

#include "pica_vl.h"

// Each row only when build.rs built it (its model directory is on the include path): a lean
// build (build.rs, "Lean builds") has none of them, and the Rust side then reports the variant
// missing instead of the build failing.
#if __has_include("Vpica_axi.h")
#include "Vpica_axi.h"
#define PICA_AXI_V_axi(X) X(Vpica_axi, "axi")
#else
#define PICA_AXI_V_axi(X)
#endif
#if __has_include("Vpica_axi_inject_no_hazard.h")
#include "Vpica_axi_inject_no_hazard.h"
#define PICA_AXI_V_axi_inject_no_hazard(X) X(Vpica_axi_inject_no_hazard, "axi_inject_no_hazard")
#else
#define PICA_AXI_V_axi_inject_no_hazard(X)
#endif
#if __has_include("Vpica_axi_inject_drop_b.h")
#include "Vpica_axi_inject_drop_b.h"
#define PICA_AXI_V_axi_inject_drop_b(X) X(Vpica_axi_inject_drop_b, "axi_inject_drop_b")
#else
#define PICA_AXI_V_axi_inject_drop_b(X)
#endif

namespace {

struct Ports {
  template <class V>
  static void write(V* t, const PicaAxiIn* in) {
    t->req_valid_i = in->req_valid & 1u;
    t->req_we_i = in->req_we & 1u;
    t->req_addr_i = in->req_addr;
    t->req_be_i = in->req_be & 0xFu;
    t->req_wdata_i = in->req_wdata;
    t->rsp_ready_i = in->rsp_ready & 1u;
    t->awready_i = in->awready & 1u;
    t->wready_i = in->wready & 1u;
    t->bvalid_i = in->bvalid & 1u;
    t->bid_i = in->bid & 3u;
    t->bresp_i = in->bresp & 3u;
    t->arready_i = in->arready & 1u;
    t->rvalid_i = in->rvalid & 1u;
    t->rid_i = in->rid & 3u;
    t->rdata_i = in->rdata;
    t->rresp_i = in->rresp & 3u;
    t->rlast_i = in->rlast & 1u;
  }

  template <class V>
  static void read(V* t, PicaAxiOut* out) {
    out->req_ready = t->req_ready_o;
    out->rsp_valid = t->rsp_valid_o;
    out->rsp_rdata = t->rsp_rdata_o;
    out->rsp_err = t->rsp_err_o;
    out->awvalid = t->awvalid_o;
    out->awid = t->awid_o;
    out->awaddr = t->awaddr_o;
    out->awlen = t->awlen_o;
    out->awsize = t->awsize_o;
    out->awburst = t->awburst_o;
    out->wvalid = t->wvalid_o;
    out->wdata = t->wdata_o;
    out->wstrb = t->wstrb_o;
    out->wlast = t->wlast_o;
    out->bready = t->bready_o;
    out->arvalid = t->arvalid_o;
    out->arid = t->arid_o;
    out->araddr = t->araddr_o;
    out->arlen = t->arlen_o;
    out->arsize = t->arsize_o;
    out->arburst = t->arburst_o;
    out->rready = t->rready_o;
  }
};

using Dut = pica_vl::StageDut<PicaAxiIn, PicaAxiOut>;
template <class V>
using DutImpl = pica_vl::StageDutImpl<PicaAxiIn, PicaAxiOut, Ports, V>;

#define PICA_AXI_ENTRY(cls, name) {name, &pica_vl::make<Dut, DutImpl<cls>>},
// The built rows, then an end mark that is not a variant (a lean build has no row at all, and
// C++ has no empty array).
const pica_vl::Variant<Dut> kVariants[] = {
    PICA_AXI_V_axi(PICA_AXI_ENTRY) PICA_AXI_V_axi_inject_no_hazard(PICA_AXI_ENTRY)
        PICA_AXI_V_axi_inject_drop_b(PICA_AXI_ENTRY){nullptr, nullptr}};
constexpr int kVariantCount = sizeof(kVariants) / sizeof(kVariants[0]) - 1;

}  // namespace

struct PicaAxi {
  std::unique_ptr<Dut> dut;
};

extern "C" {

PICA_VL_STAGE_ABI(pica_axi, PicaAxi, PicaAxiIn, PicaAxiOut, kVariants, kVariantCount)

}  // extern "C"
