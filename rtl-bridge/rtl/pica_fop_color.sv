// pica_fop_color: colour-buffer pixel decode and encode, bit-exact with
// `pica_model::fop::fb::ColorFormat::decode` / `::encode` (model/src/fop/fb.rs).
//
// Combinational; two independent paths sharing the format:
//   dec  stored bits (format-sized, lowest address = least significant byte) -> RGBA
//   enc  RGBA -> stored bits
// RGBA is packed r | g << 8 | b << 16 | a << 24. Stored bits put red in the most significant
// bits (RGBA8 = r << 24 | g << 16 | b << 8 | a; seed 002 "reverse byte order").
//
//   format      stored bits                             decode of channels without bits
//   0 RGBA8     r g b a (8 each)
//   1 RGB8      r g b (8 each, 3 bytes)                 a = 255
//   2 RGB5A1    r5 g5 b5 a1
//   3 RGB565    r5 g6 b5                                a = 255
//   4 RGBA4     r4 g4 b4 a4
//   5-7         reserved: decode 0, encode 0 (never used: the stage hangs first)
//
// UNVERIFIED(hw): encode truncates (fb::to_bits, Azahar Convert8To5 = v >> 3), decode
// replicates bits (fb::from_bits = num::replicate_bits, Azahar Convert5To8). Bits above the
// format's size are ignored by decode.
module pica_fop_color (
  input  logic [2:0]  fmt_i,       // GPUREG_COLORBUFFER_FORMAT bits 16-18
  input  logic [31:0] dec_bits_i,
  output logic [31:0] dec_rgba_o,
  input  logic [31:0] enc_rgba_i,
  output logic [31:0] enc_bits_o
);

  localparam logic [2:0] FmtRgba8  = pica_regs_pkg::COLORBUFFER_FORMAT_FORMAT_RGBA8;
  // UNVERIFIED(hw): format 1 = RGB8 (3 bytes) — model fop::fb::ColorFormat::Rgb8 (seed 000,
  // ctrulib GPU_RB_RGB8, Azahar); seed 002 lists no value 1, so pica_regs_pkg has no name.
  localparam logic [2:0] FmtRgb8   = 3'd1;
  localparam logic [2:0] FmtRgb5a1 = pica_regs_pkg::COLORBUFFER_FORMAT_FORMAT_RGB5A1;
  localparam logic [2:0] FmtRgb565 = pica_regs_pkg::COLORBUFFER_FORMAT_FORMAT_RGB565;
  localparam logic [2:0] FmtRgba4  = pica_regs_pkg::COLORBUFFER_FORMAT_FORMAT_RGBA4;

  // num::replicate_bits(v, n, 8) for n = 4, 5, 6.
  function automatic logic [7:0] rep4(input logic [3:0] v);
    rep4 = {v, v};
  endfunction
  function automatic logic [7:0] rep5(input logic [4:0] v);
    rep5 = {v, v[4:2]};
  endfunction
  function automatic logic [7:0] rep6(input logic [5:0] v);
    rep6 = {v, v[5:4]};
  endfunction

  logic [15:0] b16;
  logic [7:0]  er, eg, eb, ea;

  assign b16 = dec_bits_i[15:0];
  assign er = enc_rgba_i[7:0];
  assign eg = enc_rgba_i[15:8];
  assign eb = enc_rgba_i[23:16];
  assign ea = enc_rgba_i[31:24];

  // Each format's result as a whole signal, then the select (Icarus: no part-selects inside
  // the always_comb).
  logic [31:0] d_rgba8, d_rgb8, d_rgb5a1, d_rgb565, d_rgba4;
  logic [31:0] e_rgba8, e_rgb8, e_rgb5a1, e_rgb565, e_rgba4;

  assign d_rgba8  = {dec_bits_i[7:0], dec_bits_i[15:8], dec_bits_i[23:16], dec_bits_i[31:24]};
  assign d_rgb8   = {8'hFF, dec_bits_i[7:0], dec_bits_i[15:8], dec_bits_i[23:16]};
  assign d_rgb5a1 = {{8{b16[0]}}, rep5(b16[5:1]), rep5(b16[10:6]), rep5(b16[15:11])};
  assign d_rgb565 = {8'hFF, rep5(b16[4:0]), rep6(b16[10:5]), rep5(b16[15:11])};
  assign d_rgba4  = {rep4(b16[3:0]), rep4(b16[7:4]), rep4(b16[11:8]), rep4(b16[15:12])};

  assign e_rgba8  = {er, eg, eb, ea};
  assign e_rgb8   = {8'd0, er, eg, eb};
  assign e_rgb5a1 = {16'd0, er[7:3], eg[7:3], eb[7:3], ea[7]};
  assign e_rgb565 = {16'd0, er[7:3], eg[7:2], eb[7:3]};
  assign e_rgba4  = {16'd0, er[7:4], eg[7:4], eb[7:4], ea[7:4]};

  always_comb begin
    unique case (fmt_i)
      FmtRgba8:  dec_rgba_o = d_rgba8;
      FmtRgb8:   dec_rgba_o = d_rgb8;
      FmtRgb5a1: dec_rgba_o = d_rgb5a1;
      FmtRgb565: dec_rgba_o = d_rgb565;
      FmtRgba4:  dec_rgba_o = d_rgba4;
      default:   dec_rgba_o = '0;
    endcase
  end

  always_comb begin
    unique case (fmt_i)
      FmtRgba8:  enc_bits_o = e_rgba8;
      FmtRgb8:   enc_bits_o = e_rgb8;
      FmtRgb5a1: enc_bits_o = e_rgb5a1;
      FmtRgb565: enc_bits_o = e_rgb565;
      FmtRgba4:  enc_bits_o = e_rgba4;
      default:   enc_bits_o = '0;
    endcase
  end

endmodule : pica_fop_color
