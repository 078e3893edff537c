// pica_tex_addr: where texel (x, y') of a mipmap level lies — the byte offset from the level's
// base, how many bytes to read and how to pick the texel out of them (issue 38, the texture
// units' first block). Bit-exact with pica_model::tex::format::texel_loc; the layout (8x8
// tiles row after row, Morton order inside a tile, ETC1 4x4 blocks in Z order) is documented
// in model/src/tex/format.rs (pica-facts §4; Azahar video_core/texture/texture_decode.cpp).
//
// Combinational; one multiplier ((y' & ~7) · width, 11 × 11 bits). The formats' bits per
// texel: 32 (0; the reserved 14 and 15 decode as RGBA8888 too, pica_model::tex::format::
// RESERVED_FORMAT), 24 (1), 16 (2-6), 8 (7-9, 13), 4 (10-12).
//
// Injected bug (rtl-bridge/tests/tex_rtl.rs must catch it):
//   INJECT_TEX_MORTON  y'[0] and x[1] trade places in the Morton index
module pica_tex_addr (
  input  logic [3:0]  fmt_i,     // GPUREG_TEXUNITi_TYPE bits 0-3
  input  logic [10:0] width_i,   // the level's width in texels
  input  logic [10:0] x_i,       // texel column, 0 .. width - 1
  input  logic [10:0] yr_i,      // texel row in memory order (y' = height - 1 - t)
  output logic [31:0] offset_o,  // byte offset from the level's base address
  output logic [4:0]  len_o,     // bytes to read: 1-4, ETC1 8, ETC1A4 16
  output logic        hi_nib_o,  // 4-bit formats: the texel is the high nibble
  output logic [1:0]  bx_o,      // ETC: column inside the 4x4 block
  output logic [1:0]  by_o       // ETC: row inside the block
);

  logic etc, a4bit;
  assign etc   = fmt_i == 4'd12 || fmt_i == 4'd13;
  assign a4bit = fmt_i == 4'd10 || fmt_i == 4'd11 || fmt_i == 4'd12;

  // Texels before the tile holding (x, y'): (y' & ~7) · width + (x & ~7) · 8. At most
  // 2040 · 2047 + 2040 · 8 < 2^22.
  logic [21:0] tile_texels;
  assign tile_texels = 22'({yr_i[10:3], 3'b000}) * 22'(width_i) + 22'({x_i[10:3], 6'b000000});

  // Their bytes: texels · bits per texel / 8 (floor, as the model's integer division).
  logic [23:0] tile_bytes;
  always_comb begin
    case (fmt_i)
      4'd1:                      tile_bytes = 24'(tile_texels) * 24'd3;            // 24 bits
      4'd2, 4'd3, 4'd4, 4'd5, 4'd6: tile_bytes = {1'b0, tile_texels, 1'b0};          // 16
      4'd7, 4'd8, 4'd9, 4'd13:   tile_bytes = {2'b00, tile_texels};                // 8
      4'd10, 4'd11, 4'd12:       tile_bytes = {3'b000, tile_texels[21:1]};         // 4
      default:                   tile_bytes = {tile_texels, 2'b00};                // 32
    endcase
  end

  // Inside the tile: the Morton index {y2, x2, y1, x1, y0, x0} and its bit offset.
  logic [5:0] m;
`ifdef INJECT_TEX_MORTON
  assign m = {yr_i[2], x_i[2], yr_i[1], yr_i[0], x_i[1], x_i[0]};
`else
  assign m = {yr_i[2], x_i[2], yr_i[1], x_i[1], yr_i[0], x_i[0]};
`endif
  logic [7:0] in_tile;   // bytes from the tile's start to the texel (plain formats)
  always_comb begin
    case (fmt_i)
      4'd1:                         in_tile = 8'(m) * 8'd3;
      4'd2, 4'd3, 4'd4, 4'd5, 4'd6: in_tile = {1'b0, m, 1'b0};
      4'd7, 4'd8, 4'd9, 4'd13:      in_tile = {2'b00, m};
      4'd10, 4'd11, 4'd12:          in_tile = {3'b000, m[5:1]};
      default:                      in_tile = {m, 2'b00};
    endcase
  end

  always_comb begin
    if (etc) begin
      // ETC1 / ETC1A4: block (x & 7) / 4 + 2 · ((y' & 7) / 4) of the tile, 8 or 16 bytes each.
      offset_o = 32'(tile_bytes) + (fmt_i == 4'd13 ? 32'({yr_i[2], x_i[2], 4'b0000})
                                                   : 32'({yr_i[2], x_i[2], 3'b000}));
      len_o    = fmt_i == 4'd13 ? 5'd16 : 5'd8;
      hi_nib_o = 1'b0;
      bx_o     = x_i[1:0];
      by_o     = yr_i[1:0];
    end else begin
      offset_o = 32'(tile_bytes) + 32'(in_tile);
      case (fmt_i)
        4'd1:                         len_o = 5'd3;
        4'd2, 4'd3, 4'd4, 4'd5, 4'd6: len_o = 5'd2;
        4'd7, 4'd8, 4'd9, 4'd10, 4'd11: len_o = 5'd1;
        default:                      len_o = 5'd4;
      endcase
      hi_nib_o = a4bit && m[0];
      bx_o     = 2'b00;
      by_o     = 2'b00;
    end
  end

endmodule
