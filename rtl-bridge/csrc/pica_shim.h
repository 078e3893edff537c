// C ABI of the Verilator bridge: the only surface the Rust side (rtl-bridge/src/ffi.rs) sees.
// Keep the two structs in step with `PicaIn` / `PicaOut` in ffi.rs (same field order and types).
#pragma once
#include <stdint.h>

#include "pica_sh_stage_shim.h"

#ifdef __cplusplus
extern "C" {
#endif

// Inputs of pica_top other than the clock, one uint32 per port (rtl-bridge/rtl/README.md).
typedef struct {
  uint32_t rst_n;
  uint32_t cmd_valid;
  uint32_t cmd_data;
  uint32_t cmd_end;
  uint32_t mem_rdata;
  uint32_t mem_err;
  uint32_t dbg_req;
  uint32_t dbg_addr;
  uint32_t hold;
  // The SH ports (sh_* of pica_top). cfg_* are ignored: REGS configures the SH stage.
  PicaShsIn sh;
} PicaIn;

// Outputs of pica_top, one uint32 per port.
typedef struct {
  uint32_t cmd_ready;
  uint32_t mem_req;
  uint32_t mem_addr;
  uint32_t trace_rw_valid;
  uint32_t trace_rw_id;
  uint32_t trace_rw_mask;
  uint32_t trace_rw_param;
  uint32_t trace_rw_value;
  uint32_t finished;
  uint32_t hang;
  uint32_t hang_reason;
  uint32_t idle;
  uint32_t dbg_rdata;
  // The SH ports (sh_* of pica_top); cfg_ready is always 1 (REGS drives the configuration).
  PicaShsOut sh;
} PicaOut;

typedef struct PicaRtl PicaRtl;

// Number of compiled variants (0 = the default build, then one per injected bug).
int pica_rtl_variant_count(void);
// NUL-terminated name of a variant ("default", "inject_mask_bug", ...), NULL if out of range.
const char* pica_rtl_variant_name(int variant);
// Defines the default variant was built with (PICA_RTL_DEFINES), "" if none.
const char* pica_rtl_default_defines(void);
// A new instance of `variant` with the clock low; NULL if out of range.
PicaRtl* pica_rtl_new(int variant);
void pica_rtl_free(PicaRtl* h);
// Applies `in` (clock unchanged), evaluates, and writes the settled outputs to `out`.
void pica_rtl_eval(PicaRtl* h, const PicaIn* in, PicaOut* out);
// One rising and one falling clock edge with the inputs last applied; dumps both to the trace
// file when one is open.
void pica_rtl_clock(PicaRtl* h);
// Opens a VCD file (tracing from now on); 0 on success, -1 if it cannot be opened.
int pica_rtl_trace_open(PicaRtl* h, const char* path);
// Flushes and closes the trace file, if any.
void pica_rtl_trace_close(PicaRtl* h);

#ifdef __cplusplus
}
#endif
