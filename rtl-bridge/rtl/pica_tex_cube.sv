// pica_tex_cube: a cube map's face and face coordinates from a direction (issue 38, the texture
// units' arithmetic). Bit-exact with pica_model::tex::cube_coords (model/src/tex/mod.rs, after
// Azahar's ConvertCubeCoord; NaN handling UNVERIFIED(hw) [fact: tex-cube-nan]):
//   major axis: |u| > |v| and |u| > |w| → ±X, else |v| > |w| → ±Y, else ±Z, the magnitudes
//   compared as f24 bits without the sign (ties go to the later axis); "positive" needs the
//   value > 0 (zero and NaN take the negative face)
//   +X (−w, −v, u)  −X (−w, v, u)  +Y (u, w, v)  −Y (−u, w, v)  +Z (u, −v, w)  −Z (u, v, w)
//   s = (x · rcp(z)) · 0.5 + 0.5, t = (y · rcp(z)) · 0.5 + 0.5 with the shader ALU's rcp, mul
//   and add (pica_f24_*), and |z| for a shadow cube's reference depth
// Combinational here (one reciprocal, four multipliers, two adders: the f24 blocks the shader
// units use); the unit puts registers between them.
//
// Injected bug (rtl-bridge/tests/tex_rtl.rs must catch it):
//   INJECT_TEX_CUBE_TIE  a tie between |u| and |v| goes to X instead of the later axis
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

  function automatic logic positive(input logic [23:0] x);
    positive = !x[23] && x[22:0] != 23'd0 && !(x[22:16] == 7'h7F && x[15:0] != 16'd0);
  endfunction

  logic [22:0] au, av, aw;
  assign au = u_i[22:0];
  assign av = v_i[22:0];
  assign aw = w_i[22:0];

  logic x_axis, y_axis;
`ifdef INJECT_TEX_CUBE_TIE
  assign x_axis = au >= av && au > aw;
`else
  assign x_axis = au > av && au > aw;
`endif
  assign y_axis = !x_axis && av > aw;

  localparam logic [23:0] Sign = 24'h80_0000;
  logic [23:0] x, y, z;
  always_comb begin
    if (x_axis) begin
      z = u_i;
      x = w_i ^ Sign;
      if (positive(u_i)) begin face_o = 3'd0; y = v_i ^ Sign; end
      else               begin face_o = 3'd1; y = v_i;        end
    end else if (y_axis) begin
      z = v_i;
      y = w_i;
      if (positive(v_i)) begin face_o = 3'd2; x = u_i;        end
      else               begin face_o = 3'd3; x = u_i ^ Sign; end
    end else begin
      z = w_i;
      x = u_i;
      if (positive(w_i)) begin face_o = 3'd4; y = v_i ^ Sign; end
      else               begin face_o = 3'd5; y = v_i;        end
    end
  end

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
