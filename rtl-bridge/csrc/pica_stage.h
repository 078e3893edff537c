// What every generated stage shim header (csrc/pica_<stage>_shim.h, `pica gen rtl`) shares: its
// In / Out structs have one field per port of the stage top (clk_i and rst_ni are the shim's),
// each widened to 32 bits (signed ports as int32_t); a wide port is one uint32_t per lane (lane k
// at bits lane*k +: lane); inputs are masked to their port's width. Between PICA_STAGE_C_BEGIN
// and PICA_STAGE_C_END (extern "C" in C++), PICA_STAGE_DECLS declares its C entry points
// (pica_vl.h's PICA_VL_STAGE_ABI defines them; the Rust mirrors are src/kit/abi.rs). For
// PICA_STAGE_DECLS(pica_tev, PicaTev, PicaTevIn, PicaTevOut):
//   int pica_tev_variant_count(void);   number of compiled variants: the description's builds,
//                                       then the mutant and coverage models of build.rs
//   const char* pica_tev_variant_name(int variant);   name of a variant; NULL if out of range
//   PicaTev* pica_tev_new(int variant);   a new model of `variant`, reset; NULL if out of range
//   void pica_tev_free(PicaTev* h);
//   void pica_tev_eval(h, in, out);   applies `in` (the clock stays where it is), settles, and
//                                     reads the outputs
//   void pica_tev_peek(h, out);   reads the outputs as they are (no input change, no
//                                 evaluation): after pica_tev_clock, the state the clock edge
//                                 produced with the inputs last applied
//   void pica_tev_clock(h);   one full clock period with the inputs last applied
//   uint64_t pica_tev_cycles(h);   clock cycles since reset
//   int pica_tev_trace_open(h, path);   VCD of every following clock edge to `path`; 0 on success
//   void pica_tev_trace_close(h);
//   int pica_tev_set_mutant(h, k);   selects mutant `k` of a mutant model (build.rs
//                                    MUTANT_MODELS; 0 = the unmutated netlist) by driving its
//                                    `mutsel` input, and resets the model: 0 on success, -1 if
//                                    the variant is not a mutant model
//   and the code coverage of a coverage build (build.rs COVERAGE_MODELS): pica_cov.h.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "pica_cov.h"

#ifdef __cplusplus
#define PICA_STAGE_C_BEGIN extern "C" {
#define PICA_STAGE_C_END }
#else
#define PICA_STAGE_C_BEGIN
#define PICA_STAGE_C_END
#endif

#define PICA_STAGE_DECLS(PREFIX, H, IN, OUT)                   \
  int PREFIX##_variant_count(void);                            \
  const char* PREFIX##_variant_name(int variant);              \
  H* PREFIX##_new(int variant);                                \
  void PREFIX##_free(H* h);                                    \
  void PREFIX##_eval(H* h, const IN* in, OUT* out);            \
  void PREFIX##_peek(H* h, OUT* out);                          \
  void PREFIX##_clock(H* h);                                   \
  uint64_t PREFIX##_cycles(H* h);                              \
  int PREFIX##_trace_open(H* h, const char* path);             \
  void PREFIX##_trace_close(H* h);                             \
  int PREFIX##_set_mutant(H* h, uint32_t k);                   \
  PICA_COVERAGE_DECLS(PREFIX, H)
