// C ABI of the CLIP + RAST stage bridge (Verilated pica_rast_top); the Rust side is
// rtl-bridge/src/rast_stage.rs. Keep PicaRastIn / PicaRastOut in step with the #[repr(C)]
// mirrors there (same field order and types). One field per port of pica_rast_top (clk_i and
// rst_ni are the shim's), each widened to 32 bits; the wide f24 ports are one f24 per element
// (low 24 bits): in_v[24 * k + s] is vertex k semantic s (in_v_i[24*(24*k + s) +: 24]),
// out_attr[s] semantic s, out_tex_deriv[4 * t + c] texcoord t component c. Colours are
// r | g << 8 | b << 16 | a << 24.
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
  uint32_t in_seq;
  uint32_t in_v[72];
  uint32_t out_ready;
  uint32_t ed_req_ready;
  uint32_t ed_rsp_valid;
  uint32_t ed_rsp_data;
} PicaRastIn;

typedef struct {
  uint32_t in_ready;
  uint32_t out_valid;
  uint32_t out_tri;
  uint32_t out_x;
  uint32_t out_y;
  uint32_t out_depth;
  uint32_t out_color;
  uint32_t out_attr[24];
  uint32_t out_tex_deriv[12];
  uint32_t ed_req_valid;
  uint32_t ed_req_op;
  uint32_t ed_req_x;
  uint32_t ed_req_y;
  uint32_t ed_req_data;
  uint32_t ed_rsp_ready;
  uint32_t idle;
} PicaRastOut;

typedef struct PicaRast PicaRast;

int pica_rast_variant_count(void);
// Name of variant `variant` (default, inject_rast_fill_rule, inject_rast_persp,
// inject_clip_plane_order); NULL if out of range.
const char* pica_rast_variant_name(int variant);
// A new model of `variant`, reset; NULL if out of range.
PicaRast* pica_rast_new(int variant);
void pica_rast_free(PicaRast* h);
// Applies `in` (the clock stays where it is), settles, and reads the outputs.
void pica_rast_eval(PicaRast* h, const PicaRastIn* in, PicaRastOut* out);
// Reads the outputs as they are (no input change, no evaluation): after pica_rast_clock, the
// state the clock edge produced with the inputs last applied.
void pica_rast_peek(PicaRast* h, PicaRastOut* out);
// One full clock period with the inputs last applied.
void pica_rast_clock(PicaRast* h);
// VCD of every following clock edge to `path`; 0 on success.
int pica_rast_trace_open(PicaRast* h, const char* path);
void pica_rast_trace_close(PicaRast* h);
// Selects mutant `k` of a mutant model (build.rs MUTANT_MODELS; 0 = the unmutated netlist) by
// driving its `mutsel` input, and resets the model: 0 on success, -1 if the variant is not a
// mutant model.
int pica_rast_set_mutant(PicaRast* h, uint32_t k);
// Code coverage of a coverage build (build.rs COVERAGE_MODELS): pica_cov.h.
PICA_COVERAGE_DECLS(pica_rast, PicaRast)

#ifdef __cplusplus
}
#endif
