// pica_tex_texel: one texel's bytes to its colour, for all 14 texture formats (issue 38, the
// texture units' first block). Bit-exact with pica_model::tex::format::decode_with; the rules
// (little-endian texels with red in the most significant bits, bit replication of narrow
// fields, the nibble order of 4-bit formats, ETC1/ETC1A4) are documented in
// model/src/tex/format.rs and etc1.rs, after Azahar video_core/texture/texture_decode.cpp and
// common/color.h.
//
// Combinational: raw_i is what pica_tex_addr says to read (len_o bytes from offset_o, little
// endian, the rest zero), hi_nib_i / bx_i / by_i come from the same address unit.
//
// Parameters are the model's texture knobs:
//   AlphaWhite    tex-alpha-only-colour=white: A8 and A4 give colour 255 (the default, 0,
//                 is UNVERIFIED(hw) [fact: tex-alpha-only-colour] in the model)
//   ReservedZero  tex-reserved-format=zero: formats 14 and 15 give (0, 0, 0, 0); by default
//                 they decode as RGBA8888 (UNVERIFIED(hw) [fact: tex-reserved-format])
module pica_tex_texel #(
  parameter bit AlphaWhite   = 1'b0,
  parameter bit ReservedZero = 1'b0
) (
  input  logic [3:0]   fmt_i,     // GPUREG_TEXUNITi_TYPE bits 0-3
  input  logic [127:0] raw_i,     // the texel's bytes, little endian (ETC1A4: 16)
  input  logic         hi_nib_i,  // 4-bit formats: the high nibble of byte 0
  input  logic [1:0]   bx_i,      // ETC: column inside the 4x4 block
  input  logic [1:0]   by_i,      // ETC: row inside the block (memory-row order)
  output logic [31:0]  rgba_o     // {r, g, b, a}
);

  function automatic logic [7:0] expand4(input logic [3:0] v);
    expand4 = {v, v};
  endfunction
  function automatic logic [7:0] expand5(input logic [4:0] v);
    expand5 = {v, v[4:2]};
  endfunction
  function automatic logic [7:0] expand6(input logic [5:0] v);
    expand6 = {v, v[5:4]};
  endfunction

  localparam logic [7:0] Z = AlphaWhite ? 8'hFF : 8'h00;

  logic [7:0]  b0, b1, b2, b3;
  logic [15:0] v16;
  logic [3:0]  nib;
  assign b0  = raw_i[7:0];
  assign b1  = raw_i[15:8];
  assign b2  = raw_i[23:16];
  assign b3  = raw_i[31:24];
  assign v16 = raw_i[15:0];
  assign nib = hi_nib_i ? b0[7:4] : b0[3:0];

  // One ETC1 decoder: ETC1's block is bytes 0-7, ETC1A4's colour block bytes 8-15 (after the
  // alpha word).
  logic [23:0] etc_rgb;
  logic [3:0]  etc_alpha;
  pica_tex_etc1 u_etc1 (
    .block_i(fmt_i == 4'd13 ? raw_i[127:64] : raw_i[63:0]),
    .x_i(bx_i),
    .y_i(by_i),
    .rgb_o(etc_rgb)
  );
  // ETC1A4's alpha: texel (x, y)'s nibble at 4·(4·x + y) of the alpha word.
  assign etc_alpha = raw_i[4*{bx_i, by_i} +: 4];

  always_comb begin
    case (fmt_i)
      4'd1:  rgba_o = {b2, b1, b0, 8'hFF};                                    // RGB888
      4'd2:  rgba_o = {expand5(v16[15:11]), expand5(v16[10:6]), expand5(v16[5:1]),
                       {8{v16[0]}}};                                           // RGBA5551
      4'd3:  rgba_o = {expand5(v16[15:11]), expand6(v16[10:5]), expand5(v16[4:0]),
                       8'hFF};                                                 // RGB565
      4'd4:  rgba_o = {expand4(v16[15:12]), expand4(v16[11:8]), expand4(v16[7:4]),
                       expand4(v16[3:0])};                                     // RGBA4444
      4'd5:  rgba_o = {b1, b1, b1, b0};                                       // IA8
      4'd6:  rgba_o = {b1, b0, 8'h00, 8'hFF};                                 // HILO8
      4'd7:  rgba_o = {b0, b0, b0, 8'hFF};                                    // I8
      4'd8:  rgba_o = {Z, Z, Z, b0};                                          // A8
      4'd9:  rgba_o = {expand4(b0[7:4]), expand4(b0[7:4]), expand4(b0[7:4]),
                       expand4(b0[3:0])};                                      // IA44
      4'd10: rgba_o = {expand4(nib), expand4(nib), expand4(nib), 8'hFF};      // I4
      4'd11: rgba_o = {Z, Z, Z, expand4(nib)};                                // A4
      4'd12: rgba_o = {etc_rgb, 8'hFF};                                       // ETC1
      4'd13: rgba_o = {etc_rgb, expand4(etc_alpha)};                          // ETC1A4
      4'd0:  rgba_o = {b3, b2, b1, b0};                                       // RGBA8888
      default: rgba_o = ReservedZero ? 32'h0 : {b3, b2, b1, b0};              // 14, 15
    endcase
  end

endmodule
