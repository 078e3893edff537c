// C ABI of the Verilated pica_alu_top (rtl/pica_alu_top.sv) and pica_alu_mc_top
// (rtl/pica_alu_mc_top.sv): the surface rtl-bridge/src/alu.rs sees. Ops 0-23 are the op_i
// encoding documented in pica_alu_top.sv; ops 24-27 (RCP, RSQ, EX2, LG2) run on pica_sh_sfu,
// op 28 on the clipper's pica_f24_rcp_mc and op 29 (a / b per lane) on the rasterizer's
// pica_f24_div_p, clocked to done.
#pragma once
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct PicaAlu PicaAlu;

// A new instance; NULL on failure.
PicaAlu* pica_alu_new(void);
void pica_alu_free(PicaAlu* h);
// Evaluates `n` independent operand sets with op_i = op and max_neg_inf_i = knob & 1. a, b, c
// and out each hold 4*n words: lane l of set k is word 4*k + l (lane 0 = x), an f24 in bits
// 23:0 (higher bits ignored). For op 17 (F32) lane 0 of a is the f32 input (all 32 bits).
// out receives y_o's lanes (f24 / CMP bits), or int_o's lanes for ops 16 (MOVA) and 19
// (to_fix12p4), i32 bits. Op 23 (WEIGHT) reads lane 0's 24 bits and lane 1's low 12 bits as
// one signed 36-bit integer. Ops 24-27 read lane 0 of a and write the SFU's result to every
// lane (0xFFFFFFFF if it never signals done).
void pica_alu_eval_batch(PicaAlu* h, uint32_t op, uint32_t knob, uint64_t n, const uint32_t* a,
                         const uint32_t* b, const uint32_t* c, uint32_t* out);

#ifdef __cplusplus
}
#endif
