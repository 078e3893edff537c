// C ABI of the TEV-stage bridge (Verilated pica_tev_top); the Rust side is
// rtl-bridge/src/tev_stage.rs. Keep PicaTevIn / PicaTevOut in step with the #[repr(C)] mirrors
// there (same field order and types). Colours are r | g << 8 | b << 16 | a << 24; the 128-bit
// texture port travels as four words (texture n = word n), the 192-bit per-stage ports as six
// (stage s = word s).
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
  uint32_t in_primary;
  uint32_t in_frag_primary;
  uint32_t in_frag_secondary;
  uint32_t in_tex[4];
  uint32_t out_ready;
} PicaTevIn;

typedef struct {
  uint32_t in_ready;
  uint32_t out_valid;
  uint32_t out_tag;
  uint32_t out_color;
  uint32_t out_stage_color[6];
  uint32_t out_stage_buffer[6];
  uint32_t idle;
} PicaTevOut;

typedef struct PicaTev PicaTev;

int pica_tev_variant_count(void);
// Name of variant `variant` (default, inject_tev_scale_sat, inject_tev_buffer); NULL if out
// of range.
const char* pica_tev_variant_name(int variant);
// A new model of `variant`, reset; NULL if out of range.
PicaTev* pica_tev_new(int variant);
void pica_tev_free(PicaTev* h);
// Applies `in` (the clock stays where it is), settles, and reads the outputs.
void pica_tev_eval(PicaTev* h, const PicaTevIn* in, PicaTevOut* out);
// One full clock period with the inputs last applied.
void pica_tev_clock(PicaTev* h);
// VCD of every following clock edge to `path`; 0 on success.
int pica_tev_trace_open(PicaTev* h, const char* path);
void pica_tev_trace_close(PicaTev* h);
// Selects mutant `k` of a mutant model (build.rs MUTANT_MODELS; 0 = the unmutated netlist) by
// driving its `mutsel` input, and resets the model: 0 on success, -1 if the variant is not a
// mutant model.
int pica_tev_set_mutant(PicaTev* h, uint32_t k);
// Code coverage of a coverage build (build.rs COVERAGE_MODELS): pica_cov.h.
PICA_COVERAGE_DECLS(pica_tev, PicaTev)

#ifdef __cplusplus
}
#endif
