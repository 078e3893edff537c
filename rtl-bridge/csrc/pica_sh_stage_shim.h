// C ABI of the SH-stage bridge (Verilated pica_sh_top); the Rust side is
// rtl-bridge/src/sh_stage.rs. Keep PicaShsIn / PicaShsOut in step with the #[repr(C)] mirrors
// there (same field order and types). 96-bit ports travel as three raw 32-bit words (bits 0-31,
// 32-63, 64-95); the commit record (PicaShCommit of pica_sh_shim.h) has f24 lanes.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "pica_cov.h"

#include "pica_sh_shim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t cfg_valid;
  uint32_t cfg_bank;
  uint32_t cfg_kind;
  uint32_t cfg_addr;
  uint32_t cfg_data[3];
  uint32_t in_valid;
  uint32_t in_seq;
  uint32_t in_attr;
  uint32_t in_last;
  uint32_t in_kind;
  uint32_t in_data[3];
  uint32_t out_ready;
  uint32_t commit_ready;
} PicaShsIn;

typedef struct {
  uint32_t cfg_ready;
  uint32_t in_ready;
  uint32_t out_valid;
  uint32_t out_kind;
  uint32_t out_id;
  uint32_t out_reg;
  uint32_t out_data[3];
  uint32_t out_last;
  uint32_t out_vtx_id;
  uint32_t out_winding;
  uint32_t out_prim;
  uint32_t commit_valid;
  uint32_t commit_unit;
  uint32_t commit_seq;
  PicaShCommit commit;
  uint32_t hang;
  uint32_t hang_unit;
  uint32_t hang_pc;
  uint32_t hang_word;
  uint32_t hang_code;
  uint32_t idle;
} PicaShsOut;

typedef struct PicaShs PicaShs;

// Number of compiled variants (0 = default, then one per injected bug).
int pica_shs_variant_count(void);
const char* pica_shs_variant_name(int variant);
// A new stage of `variant`, reset; NULL if out of range.
PicaShs* pica_shs_new(int variant);
void pica_shs_free(PicaShs* h);
// Drives the inputs and evaluates; the outputs are those of the current cycle.
void pica_shs_eval(PicaShs* h, const PicaShsIn* in, PicaShsOut* out);
// One rising and falling clock edge.
void pica_shs_clock(PicaShs* h);
// Clock cycles since reset.
uint64_t pica_shs_cycles(PicaShs* h);
// VCD trace on (0 on success, -1 if the file cannot be opened) / off.
int pica_shs_trace_open(PicaShs* h, const char* path);
void pica_shs_trace_close(PicaShs* h);
// Code coverage of a coverage build (build.rs COVERAGE_MODELS): pica_cov.h.
PICA_COVERAGE_DECLS(pica_shs, PicaShs)

#ifdef __cplusplus
}
#endif
