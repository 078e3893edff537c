// The C entry points of the code-coverage counters, alike in every stage shim (pica_vl.h's
// PICA_VL_COVERAGE_ABI defines them): PICA_COVERAGE_DECLS(pica_tev, PicaTev) declares
//   uint32_t pica_tev_cov_count(PicaTev* h);   number of coverage points (counters) of the
//                                              model: 0 for a build without coverage (only the
//                                              rows of build.rs COVERAGE_MODELS have some)
//   void pica_tev_cov_read(PicaTev* h, uint32_t* dst);        copies the counters into dst
//   void pica_tev_cov_load(PicaTev* h, const uint32_t* src);  sets the counters from src
//   void pica_tev_cov_zero(PicaTev* h);                       zeroes them
//   int pica_tev_cov_write(PicaTev* h, const char* path);     writes the points with their
//                                              counts to path (coverage.dat, what
//                                              verilator_coverage reads): 0, or -1 without
//                                              coverage; path must be writable (Verilator
//                                              stops the process when it cannot open it)
#pragma once
#include <stdint.h>

#define PICA_COVERAGE_DECLS(PREFIX, H)                 \
  uint32_t PREFIX##_cov_count(H* h);                   \
  void PREFIX##_cov_read(H* h, uint32_t* dst);         \
  void PREFIX##_cov_load(H* h, const uint32_t* src);   \
  void PREFIX##_cov_zero(H* h);                        \
  int PREFIX##_cov_write(H* h, const char* path);
