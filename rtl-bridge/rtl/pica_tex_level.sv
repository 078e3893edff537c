// pica_tex_level: a mipmap level's size and where it starts (issue 38, the texture units'
// arithmetic). Bit-exact with pica_model::tex::{level_dim_min, level_offset_min}
// (model/src/tex/mod.rs):
//   size    pica_tex_dim (the minimum level size and its knob are there)
//   offset  the bytes of the levels below: the sum over l < level of w_l · h_l · bpp / 8
// The sizes are combinational; the offset iterates, a level a clock (one 11 × 11-bit
// product), as the unit does when its configuration changes — not per fragment: start_i
// takes the inputs, done_o rises with the offset after `level` clocks (one for level 0).
// While busy, offset_o runs through the offsets of levels 0, 1, … a clock apart (the
// texture units' level table records them so).
module pica_tex_level #(
  parameter bit MinOne = 1'b0         // tex-min-level-size=1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,        // take fmt_i, width_i, height_i, level_i
  input  logic [3:0]  fmt_i,          // GPUREG_TEXUNITi_TYPE bits 0-3 (14, 15: RGBA8888)
  input  logic [10:0] width_i,        // level 0
  input  logic [10:0] height_i,
  input  logic [3:0]  level_i,
  output logic [10:0] lw_o,           // level_i's width and height (combinational)
  output logic [10:0] lh_o,
  output logic        done_o,         // offset_o holds the offset of the level started
  output logic [27:0] offset_o        // bytes from the texture's base to the level
);

  pica_tex_dim #(.MinOne(MinOne)) u_lw (.dim_i(width_i), .level_i, .dim_o(lw_o));
  pica_tex_dim #(.MinOne(MinOne)) u_lh (.dim_i(height_i), .level_i, .dim_o(lh_o));

  // ---- the offset: one level's bytes a clock
  logic [3:0]  fmt_q, lvl_q, l_q;
  logic [10:0] w_q, h_q;
  logic        busy_q;
  logic [27:0] acc_q;

  logic [10:0] w_l, h_l;
  pica_tex_dim #(.MinOne(MinOne)) u_wl (.dim_i(w_q), .level_i(l_q), .dim_o(w_l));
  pica_tex_dim #(.MinOne(MinOne)) u_hl (.dim_i(h_q), .level_i(l_q), .dim_o(h_l));
  logic [21:0] texels;
  logic [23:0] bytes;
  assign texels = 22'(w_l) * 22'(h_l);
  always_comb begin
    case (fmt_q)
      4'd1:                         bytes = 24'(texels) * 24'd3;      // 24 bits a texel
      4'd2, 4'd3, 4'd4, 4'd5, 4'd6: bytes = {1'b0, texels, 1'b0};     // 16
      4'd7, 4'd8, 4'd9, 4'd13:      bytes = {2'b00, texels};          // 8
      4'd10, 4'd11, 4'd12:          bytes = {3'b000, texels[21:1]};   // 4
      default:                      bytes = {texels, 2'b00};          // 32
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      done_o <= 1'b0;
    end else if (start_i) begin
      busy_q <= level_i != 4'd0;
      done_o <= level_i == 4'd0;
    end else if (busy_q && l_q + 4'd1 == lvl_q) begin
      busy_q <= 1'b0;
      done_o <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (start_i) begin
      fmt_q <= fmt_i;
      w_q   <= width_i;
      h_q   <= height_i;
      lvl_q <= level_i;
      l_q   <= 4'd0;
      acc_q <= 28'd0;
    end else if (busy_q) begin
      acc_q <= acc_q + 28'(bytes);
      l_q   <= l_q + 4'd1;
    end
  end
  assign offset_o = acc_q;

endmodule
