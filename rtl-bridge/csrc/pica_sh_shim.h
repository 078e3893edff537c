// C ABI of the shader-unit bridge (Verilated pica_sh_unit_top); the Rust side is
// rtl-bridge/src/shader.rs. Keep PicaShCommit / PicaShEmit in step with the #[repr(C)] mirrors
// there (same field order and types).
#pragma once
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// One commit record (model: pica_model::shader::interp::Commit).
typedef struct {
  uint32_t pc;
  uint32_t word;
  uint32_t dst;
  uint32_t mask;
  uint32_t result[4];  // lane 0 = x, f24 bits
  uint32_t cmp;
  int32_t a0x;
  int32_t a0y;
  int32_t al;
  uint32_t next_pc;
  uint32_t emit;
  uint32_t hang;
  uint32_t end;
} PicaShCommit;

// One EMIT beat with the emitted bank o0-o15.
typedef struct {
  uint32_t vtx_id;
  uint32_t winding;
  uint32_t prim_emit;
  uint32_t outputs[16][4];
} PicaShEmit;

typedef struct PicaSh PicaSh;

// Number of compiled variants (0 = default, then one per injected bug).
int pica_sh_variant_count(void);
const char* pica_sh_variant_name(int variant);
// A new unit of `variant`, reset; NULL if out of range.
PicaSh* pica_sh_new(int variant);
void pica_sh_free(PicaSh* h);
// Writes `n` words into the code / opdesc RAM from `offset` (one clock per word).
void pica_sh_load_code(PicaSh* h, uint32_t offset, const uint32_t* words, size_t n);
void pica_sh_load_opdescs(PicaSh* h, uint32_t offset, const uint32_t* words, size_t n);
// Writes `n` float uniforms from `offset`; `lanes` holds 4 f24 words per uniform (x first).
void pica_sh_load_uniforms(PicaSh* h, uint32_t offset, const uint32_t* lanes, size_t n);
// i0-i3 as x | y << 8 | z << 16 | w << 24; bool uniforms bit n = b_n.
void pica_sh_set_uniforms(PicaSh* h, const uint32_t ints[4], uint32_t bools);
// Writes input register v[idx] (4 f24 words, x first).
void pica_sh_set_input(PicaSh* h, uint32_t idx, const uint32_t lanes[4]);

// Resets the registers and zeroes the memories: the state of a new unit.
void pica_sh_reset(PicaSh* h);
// Runs one invocation from `entry` until END, a hang or `max_instructions` commits. Stores up to
// `commit_cap` commits and `emit_cap` emits, and their total counts in *n_commits / *n_emits.
// Returns 0 END, 1 hang, 2 instruction limit, 3 no progress (cycle guard), 4 done_o / hang_o
// disagree with the commits (up while instructions retire, or not showing how the run ended,
// hang_code_o not the hanging commit's code), or the unit is not quiet in the 24 clocks after
// END or a hang (a commit or EMIT, or the status dropping).
int pica_sh_run(PicaSh* h, uint32_t entry, uint64_t max_instructions, PicaShCommit* commits,
                size_t commit_cap, size_t* n_commits, PicaShEmit* emits, size_t emit_cap,
                size_t* n_emits);
// o0-o15 of the active bank (`other` = 1: the other bank), 4 f24 words each.
void pica_sh_read_outputs(PicaSh* h, int other, uint32_t out[16][4]);
// Clock cycles since reset.
uint64_t pica_sh_cycles(PicaSh* h);

// Clocks of the last pica_sh_run, from its start clock to the clock after its last commit
// (the clocks the shim then watches for a quiet unit after END or a hang are not counted).
uint64_t pica_sh_run_clocks(PicaSh* h);
// VCD trace on (0 on success, -1 if the file cannot be opened) / off.
int pica_sh_trace_open(PicaSh* h, const char* path);
void pica_sh_trace_close(PicaSh* h);
// Selects mutant `k` of the mutant model (build.rs MUTANT_MODELS `sh_mut`; 0 = the unmutated
// netlist) by driving its `mutsel` input, and resets the unit: 0 on success, -1 if the variant
// is not a mutant model.
int pica_sh_set_mutant(PicaSh* h, uint32_t k);
// run() drives stall_i high on about `percent` % of its clocks (0: never, at most 99), drawn
// from a xorshift64 sequence restarted from `seed` at every run: the held pipeline the SH
// stage produces (a full commit queue, an EMIT copy), reproducible per case.
void pica_sh_set_stall(PicaSh* h, uint32_t percent, uint64_t seed);

#ifdef __cplusplus
}
#endif
