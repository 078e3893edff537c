// pica_fop_ds: the depth-stencil part of process_fragment (model/src/fop/mod.rs, fop::ops), for
// both paths of FOP (pica_fop, pica_fop_pipe): the stored depth and stencil from the bits read
// (disabled parts read 0), the stencil test (D24S8 only), the depth test, the stencil action
// and write mask, and whether depth and stencil are written. Combinational.
// INJECT_FOP_STENCIL_ZFAIL (the injected bug of rtl/README.md) lives here, so both paths have it.
module pica_fop_ds (
  input  logic        is_d24s8_i,
  input  logic [23:0] depth_max_i,     // 0xFFFF (D16) or 0xFFFFFF
  input  logic [31:0] ds_bits_i,       // the depth-stencil pixel read (0 where not read)
  input  logic [23:0] frag_depth_i,    // the fragment's depth (any width; masked here)
  input  logic        depth_read_i,
  input  logic        stencil_read_i,
  input  logic        st_test_i,
  input  logic [2:0]  st_func_i,
  input  logic [7:0]  st_ref_i,
  input  logic [7:0]  st_mask_i,
  input  logic [7:0]  st_wmask_i,
  input  logic [2:0]  st_fail_i,
  input  logic [2:0]  st_zfail_i,
  input  logic [2:0]  st_zpass_i,
  input  logic        stencil_wr_allowed_i,
  input  logic        depth_test_i,
  input  logic [2:0]  depth_func_i,
  input  logic        depth_write_i,   // GPUREG_DEPTH_COLOR_MASK's depth write and the access
  output logic [23:0] stored_depth_o,
  output logic [23:0] frag_depth_o,    // masked to the format
  output logic        depth_pass_o,    // stencil and depth test passed
  output logic [7:0]  new_stencil_o,
  output logic        write_stencil_o,
  output logic        write_depth_o
);

  logic [7:0] stored_stencil;
  logic       stencil_on, stencil_pass;
  logic [2:0] st_action;

  assign stored_depth_o = depth_read_i ? (ds_bits_i[23:0] & depth_max_i) : 24'd0;
  assign stored_stencil = (stencil_read_i && is_d24s8_i) ? ds_bits_i[31:24] : 8'd0;
  assign frag_depth_o   = frag_depth_i & depth_max_i;
  assign stencil_on     = st_test_i && is_d24s8_i;
  assign stencil_pass   = !stencil_on || pica_rop_pkg::compare(st_func_i,
                              {16'd0, st_ref_i & st_mask_i}, {16'd0, stored_stencil & st_mask_i});
  assign depth_pass_o   = stencil_pass && (!depth_test_i
                              || pica_rop_pkg::compare(depth_func_i, frag_depth_o, stored_depth_o));
`ifdef INJECT_FOP_STENCIL_ZFAIL
  // The bug: stencil pass + depth fail runs the z-pass action (the z-fail field is unread).
  logic [2:0] unused_zfail;
  assign unused_zfail = st_zfail_i;
  assign st_action = !stencil_pass ? st_fail_i : st_zpass_i;
`else
  assign st_action = !stencil_pass ? st_fail_i : (!depth_pass_o ? st_zfail_i : st_zpass_i);
`endif
  assign write_stencil_o = stencil_on && stencil_wr_allowed_i;
  // ops::masked_stencil(stencil_action(..), stored, write mask).
  assign new_stencil_o = (pica_rop_pkg::stencil_action(st_action, stored_stencil, st_ref_i)
                          & st_wmask_i) | (stored_stencil & ~st_wmask_i);
  assign write_depth_o = depth_pass_o && depth_write_i;

endmodule : pica_fop_ds
