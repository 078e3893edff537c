// C ABI of the FOP-stage bridge (Verilated pica_fop_top); the Rust side is
// rtl-bridge/src/fop_stage.rs. Keep PicaFopIn / PicaFopOut in step with the #[repr(C)] mirrors
// there (same field order and types). One field per port of pica_fop_top (clk_i and rst_ni are
// the shim's), each widened to 32 bits; colours are r | g << 8 | b << 16 | a << 24.
#pragma once
#include <stdint.h>

#include "pica_cov.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t cfg_we;
  uint32_t cfg_id;
  uint32_t cfg_data;
  uint32_t in_valid;
  uint32_t in_tag;
  uint32_t in_x;
  uint32_t in_y;
  uint32_t in_depth;
  uint32_t in_color;
  uint32_t out_ready;
  uint32_t mem_req_ready;
  uint32_t mem_rsp_valid;
  uint32_t mem_rsp_rdata;
  uint32_t mem_rsp_err;
} PicaFopIn;

typedef struct {
  uint32_t in_ready;
  uint32_t out_valid;
  uint32_t out_tag;
  uint32_t out_x;
  uint32_t out_y;
  uint32_t out_color_addr;
  uint32_t out_color;
  uint32_t out_depth_addr;
  uint32_t out_depth_stencil;
  uint32_t out_flags;
  uint32_t mem_req_valid;
  uint32_t mem_req_we;
  uint32_t mem_req_addr;
  uint32_t mem_req_be;
  uint32_t mem_req_wdata;
  uint32_t mem_rsp_ready;
  uint32_t hang;
  uint32_t hang_kind;
  uint32_t hang_buffer;
  uint32_t hang_addr;
  uint32_t hang_value;
  uint32_t idle;
} PicaFopOut;

typedef struct PicaFop PicaFop;

int pica_fop_variant_count(void);
// Name of variant `variant` (default, inject_fop_blend_factor, inject_fop_stencil_zfail,
// inject_fop_tile32); NULL if out of range.
const char* pica_fop_variant_name(int variant);
// A new model of `variant`, reset; NULL if out of range.
PicaFop* pica_fop_new(int variant);
void pica_fop_free(PicaFop* h);
// Applies `in` (the clock stays where it is), settles, and reads the outputs.
void pica_fop_eval(PicaFop* h, const PicaFopIn* in, PicaFopOut* out);
// Reads the outputs as they are (no input change, no evaluation): after pica_fop_clock, the
// state the clock edge produced with the inputs last applied.
void pica_fop_peek(PicaFop* h, PicaFopOut* out);
// One full clock period with the inputs last applied.
void pica_fop_clock(PicaFop* h);
// VCD of every following clock edge to `path`; 0 on success.
int pica_fop_trace_open(PicaFop* h, const char* path);
void pica_fop_trace_close(PicaFop* h);
// Selects mutant `k` of a mutant model (build.rs MUTANT_MODELS; 0 = the unmutated netlist) by
// driving its `mutsel` input, and resets the model: 0 on success, -1 if the variant is not a
// mutant model.
int pica_fop_set_mutant(PicaFop* h, uint32_t k);
// Code coverage of a coverage build (build.rs COVERAGE_MODELS): pica_cov.h.
PICA_COVERAGE_DECLS(pica_fop, PicaFop)

#ifdef __cplusplus
}
#endif
