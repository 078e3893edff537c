// C ABI of the Verilator bridge: the only surface the Rust side (rtl-bridge/src/ffi.rs) sees.
// Keep the two structs in step with `PicaIn` / `PicaOut` in ffi.rs (same field order and types).
#pragma once
#include <stdint.h>

#include "pica_cov.h"
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
  uint32_t kick;
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

// REGS' storage exactly as pica_regs.sv holds it (no decoding), copied out of the Verilated
// model by pica_rtl_state_read: one uint32 per word (narrower words zero-extended), a 96-bit
// word as three uint32, bits 31..0 first. The Rust side (rtl-bridge/src/state.rs) decodes it
// into the debug map the way pica_regs.sv's debug port does. Keep in step with `PicaState` in
// ffi.rs (same field order and sizes; the shim checks each size against the Verilated arrays
// at compile time).
typedef struct {
  uint32_t reg_mem[768];          // the register RAM (IDs 0x000-0x2FF)
  uint32_t shadow[17];            // shadow_q, slot order of pica_regs.sv (SVshFu .. SAddr1)
  uint32_t fu_pend[2][3];         // float-uniform packers [VSH, GSH]: pending words
  uint32_t fu_cnt[2];             //   and their counts
  uint32_t fx_pend[2];            // fixed-attribute packer: pending words
  uint32_t fx_cnt;                //   and its count
  uint32_t bool_u[4];             // per unit: bool uniforms
  uint32_t int_u[4][4];           //   int uniforms i0-i3
  uint32_t outmap[4];             //   output mask
  uint32_t entry[4];              //   entry point
  uint32_t incfg[4];              //   input config
  uint32_t perm[4][2];            //   permutation, low word then high word
  uint32_t proctex[1280];         // u_proctex: 5 slots of 256 words
  uint32_t fog[128];              // u_fog
  uint32_t gas[16];               // u_gas
  uint32_t lighting[6144];        // u_lighting: 24 tables of 256
  uint32_t fixed[12][3];          // u_fixed: {w,z,y,x} f24
  uint32_t code[4][4096];         // g_unit[u].u_code
  uint32_t opdesc[4][128];        // g_unit[u].u_opdesc
  uint32_t float_u[4][96][3];     // g_unit[u].u_float: {w,z,y,x} f24
} PicaState;

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
// Copies REGS' whole state into `out` as it stands now (no clock, no input touched): what the
// debug port would read, in one call instead of one clock per word.
void pica_rtl_state_read(PicaRtl* h, PicaState* out);
// Selects mutant `mutant` of a mutant model (build.rs MUTANT_MODELS; 0 = the original design)
// by driving its `mutsel` input: 0 on success, -1 if the variant is not a mutant model. Its
// state_read gives zeros (no hierarchy in the netlist): read its state through the debug port.
int pica_rtl_set_mutant(PicaRtl* h, uint32_t mutant);
// Code coverage of a coverage build (build.rs COVERAGE_MODELS, verilated with --coverage):
// pica_cov.h.
PICA_COVERAGE_DECLS(pica_rtl, PicaRtl)

#ifdef __cplusplus
}
#endif
