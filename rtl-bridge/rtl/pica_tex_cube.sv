// pica_tex_cube: a cube map's face and face coordinates from a direction (issue 38, the texture
// units' arithmetic). Bit-exact with pica_model::tex::cube_coords (model/src/tex/mod.rs, after
// Azahar's ConvertCubeCoord; NaN handling UNVERIFIED(hw) [fact: tex-cube-nan]):
//   the face and (x, y, z) as pica_tex_cube_face picks them (the rules are there);
//   s = (x · rcp(z)) · 0.5 + 0.5, t = (y · rcp(z)) · 0.5 + 0.5 with the shader ALU's rcp, mul
//   and add (pica_f24_*), and |z| for a shadow cube's reference depth
// Combinational (pica_tex_cube_face, then one reciprocal, four multipliers, two adders: the f24
// blocks the shader units use): the reference the block test checks; pica_tex_top pipelines
// the same steps (pica_tex_cube_face, pica_f24_rcp_p, pica_f24_mul_p, pica_f24_add_p).
// The injected bug INJECT_TEX_CUBE_TIE lives in pica_tex_cube_face.
module pica_tex_cube (
  input  logic [23:0] u_i,
  input  logic [23:0] v_i,
  input  logic [23:0] w_i,
  output logic [2:0]  face_o,   // 0-5: +X, −X, +Y, −Y, +Z, −Z
  output logic [23:0] s_o,
  output logic [23:0] t_o,
  output logic [23:0] zabs_o
);

  localparam logic [23:0] Half = 24'h3E_0000;   // 0.5

  logic [23:0] x, y, z;
  pica_tex_cube_face u_face (.u_i, .v_i, .w_i, .face_o, .x_o(x), .y_o(y), .z_o(z));

  logic [23:0] r, xr, yr, xh, yh;
  pica_f24_rcp u_rcp (.a_i(z), .y_o(r));
  pica_f24_mul u_mxr (.a_i(x), .b_i(r), .y_o(xr));
  pica_f24_mul u_myr (.a_i(y), .b_i(r), .y_o(yr));
  pica_f24_mul u_mxh (.a_i(xr), .b_i(Half), .y_o(xh));
  pica_f24_mul u_myh (.a_i(yr), .b_i(Half), .y_o(yh));
  pica_f24_add u_as (.a_i(xh), .b_i(Half), .y_o(s_o));
  pica_f24_add u_at (.a_i(yh), .b_i(Half), .y_o(t_o));
  assign zabs_o = {1'b0, z[22:0]};

endmodule
