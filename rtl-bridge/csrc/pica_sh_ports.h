// The SH-stage ports of a Verilated top, moved to and from PicaShsIn / PicaShsOut: shared by
// pica_sh_stage_shim.cpp (pica_sh_top: bare port names, configuration port included) and
// pica_shim.cpp (pica_top: the same ports with an `sh_` prefix; configuration comes from REGS
// inside the top). P is the port-name prefix (empty or sh_).
#pragma once

#include "pica_sh_stage_shim.h"
#include "pica_vl.h"

namespace pica_sh_ports {

template <class W>
void set96(W& w, const uint32_t* words) {
  for (int i = 0; i < 3; i++) w[i] = words[i];
}

template <class W>
void get96(const W& w, uint32_t* words) {
  for (int i = 0; i < 3; i++) words[i] = w[i];
}

}  // namespace pica_sh_ports

// Vertex input and the two ready inputs.
#define PICA_SH_PORTS_IN(t, in, P)                         \
  do {                                                     \
    (t)->P##in_valid_i = (in)->in_valid & 1;               \
    (t)->P##in_seq_i = (in)->in_seq;                       \
    (t)->P##in_attr_i = (in)->in_attr & 0x1F;              \
    (t)->P##in_last_i = (in)->in_last & 1;                 \
    (t)->P##in_kind_i = (in)->in_kind & 3;                 \
    pica_sh_ports::set96((t)->P##in_data_i, (in)->in_data); \
    (t)->P##out_ready_i = (in)->out_ready & 1;             \
    (t)->P##commit_ready_i = (in)->commit_ready & 1;       \
  } while (0)

// Everything but cfg_ready.
#define PICA_SH_PORTS_OUT(t, out, P)                            \
  do {                                                          \
    (out)->in_ready = (t)->P##in_ready_o;                       \
    (out)->out_valid = (t)->P##out_valid_o;                     \
    (out)->out_kind = (t)->P##out_kind_o;                       \
    (out)->out_id = (t)->P##out_id_o;                           \
    (out)->out_reg = (t)->P##out_reg_o;                         \
    pica_sh_ports::get96((t)->P##out_data_o, (out)->out_data);  \
    (out)->out_last = (t)->P##out_last_o;                       \
    (out)->out_vtx_id = (t)->P##out_vtx_id_o;                   \
    (out)->out_winding = (t)->P##out_winding_o;                 \
    (out)->out_prim = (t)->P##out_prim_o;                       \
    (out)->commit_valid = (t)->P##commit_valid_o;               \
    (out)->commit_unit = (t)->P##commit_unit_o;                 \
    (out)->commit_seq = (t)->P##commit_seq_o;                   \
    PicaShCommit& c_ = (out)->commit;                           \
    c_.pc = (t)->P##commit_pc_o;                                \
    c_.word = (t)->P##commit_word_o;                            \
    c_.dst = (t)->P##commit_dst_o;                              \
    c_.mask = (t)->P##commit_mask_o;                            \
    pica_vl::unpack96((t)->P##commit_result_o, c_.result);      \
    c_.cmp = (t)->P##commit_cmp_o;                              \
    c_.a0x = static_cast<int32_t>((t)->P##commit_a0x_o);        \
    c_.a0y = static_cast<int32_t>((t)->P##commit_a0y_o);        \
    c_.al = static_cast<int32_t>((t)->P##commit_al_o);          \
    c_.next_pc = (t)->P##commit_next_pc_o;                      \
    c_.emit = (t)->P##commit_emit_o;                            \
    c_.hang = (t)->P##commit_hang_o;                            \
    c_.end = (t)->P##commit_end_o;                              \
    (out)->hang = (t)->P##hang_o;                               \
    (out)->hang_unit = (t)->P##hang_unit_o;                     \
    (out)->hang_pc = (t)->P##hang_pc_o;                         \
    (out)->hang_word = (t)->P##hang_word_o;                     \
    (out)->hang_code = (t)->P##hang_code_o;                     \
    (out)->idle = (t)->P##idle_o;                               \
  } while (0)
