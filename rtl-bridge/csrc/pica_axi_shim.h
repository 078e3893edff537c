// The C ABI of the Verilated pica_axi_master (rtl/pica_axi_master.sv, IdW 2, Outstanding 4;
// rows `axi`, `axi_inject_no_hazard`, `axi_inject_drop_b` of build.rs's model table): the
// stage-shim entry points of pica_stage.h over one In / Out struct pair, one field per port
// (clk_i and rst_ni are the shim's). The Rust side is src/axi/rtl.rs.
#pragma once
#include "pica_stage.h"

PICA_STAGE_C_BEGIN

typedef struct PicaAxiIn {
  uint32_t req_valid, req_we, req_addr, req_be, req_wdata, rsp_ready;
  uint32_t awready, wready, bvalid, bid, bresp, arready, rvalid, rid, rdata, rresp, rlast;
} PicaAxiIn;

typedef struct PicaAxiOut {
  uint32_t req_ready, rsp_valid, rsp_rdata, rsp_err;
  uint32_t awvalid, awid, awaddr, awlen, awsize, awburst;
  uint32_t wvalid, wdata, wstrb, wlast, bready;
  uint32_t arvalid, arid, araddr, arlen, arsize, arburst, rready;
} PicaAxiOut;

typedef struct PicaAxi PicaAxi;

PICA_STAGE_DECLS(pica_axi, PicaAxi, PicaAxiIn, PicaAxiOut)

PICA_STAGE_C_END
