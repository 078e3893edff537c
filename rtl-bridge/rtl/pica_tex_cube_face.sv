// pica_tex_cube_face: a cube map's face and the direction's three components in the face's
// frame (issue 38): the comparisons and selects of pica_tex_cube, without its arithmetic, so
// the texture units' set-up can put registers between the reciprocal, the multipliers and the
// adders (pica_tex_top) while the block pica_tex_cube computes all of it in one clock.
//   major axis: |u| > |v| and |u| > |w| → ±X, else |v| > |w| → ±Y, else ±Z, the magnitudes
//   compared as f24 bits without the sign (ties go to the later axis); "positive" needs the
//   value > 0 (zero and NaN take the negative face)
//   +X (−w, −v, u)  −X (−w, v, u)  +Y (u, w, v)  −Y (−u, w, v)  +Z (u, −v, w)  −Z (u, v, w)
// as (x, y, z); s = (x · rcp(z)) · 0.5 + 0.5, t likewise from y.
//
// Injected bug (rtl-bridge/tests/tex_rtl.rs must catch it):
//   INJECT_TEX_CUBE_TIE  a tie between |u| and |v| goes to X instead of the later axis
module pica_tex_cube_face (
  input  logic [23:0] u_i,
  input  logic [23:0] v_i,
  input  logic [23:0] w_i,
  output logic [2:0]  face_o,   // 0-5: +X, −X, +Y, −Y, +Z, −Z
  output logic [23:0] x_o,
  output logic [23:0] y_o,
  output logic [23:0] z_o
);

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
  always_comb begin
    if (x_axis) begin
      z_o = u_i;
      x_o = w_i ^ Sign;
      if (positive(u_i)) begin face_o = 3'd0; y_o = v_i ^ Sign; end
      else               begin face_o = 3'd1; y_o = v_i;        end
    end else if (y_axis) begin
      z_o = v_i;
      y_o = w_i;
      if (positive(v_i)) begin face_o = 3'd2; x_o = u_i;        end
      else               begin face_o = 3'd3; x_o = u_i ^ Sign; end
    end else begin
      z_o = w_i;
      x_o = u_i;
      if (positive(w_i)) begin face_o = 3'd4; y_o = v_i ^ Sign; end
      else               begin face_o = 3'd5; y_o = v_i;        end
    end
  end

endmodule : pica_tex_cube_face
