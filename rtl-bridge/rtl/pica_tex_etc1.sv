// pica_tex_etc1: the colour of one texel of an ETC1 block (issue 38, the texture units'
// first block). Bit-exact with pica_model::tex::etc1::etc1_texel; the block layout, the
// modifier table and the differential-mode wrap are documented there (model/src/tex/etc1.rs:
// the 64-bit word as read little-endian from memory, Azahar video_core/texture/etc1.cpp's
// fields; the modifier table pica-facts §4, the Khronos ETC1 table).
//
// Combinational: the texture unit registers the block before and the colour after (a texel
// a clock per instance; a bilinear footprint is four instances).
//
// Injected bug (rtl-bridge/tests/tex_rtl.rs must catch it):
//   INJECT_TEX_ETC1_TABLE  one modifier-table entry off by one (table 6, large: 105, not 106)
module pica_tex_etc1 (
  input  logic [63:0] block_i,
  input  logic [1:0]  x_i,      // column inside the 4x4 block
  input  logic [1:0]  y_i,      // row inside the block, memory-row order
  output logic [23:0] rgb_o     // {r, g, b}
);

  // 4-bit and 5-bit fields widened to 8 bits by bit replication (etc1.rs expand4/expand5).
  function automatic logic [7:0] expand4(input logic [3:0] v);
    expand4 = {v, v};
  endfunction
  function automatic logic [7:0] expand5(input logic [4:0] v);
    expand5 = {v, v[4:2]};
  endfunction

  // The modifier magnitude for table t, selector bit `large`.
  function automatic logic [7:0] modifier(input logic [2:0] t, input logic big);
    case ({t, big})
      4'b000_0: modifier = 8'd2;
      4'b000_1: modifier = 8'd8;
      4'b001_0: modifier = 8'd5;
      4'b001_1: modifier = 8'd17;
      4'b010_0: modifier = 8'd9;
      4'b010_1: modifier = 8'd29;
      4'b011_0: modifier = 8'd13;
      4'b011_1: modifier = 8'd42;
      4'b100_0: modifier = 8'd18;
      4'b100_1: modifier = 8'd60;
      4'b101_0: modifier = 8'd24;
      4'b101_1: modifier = 8'd80;
      4'b110_0: modifier = 8'd33;
`ifdef INJECT_TEX_ETC1_TABLE
      4'b110_1: modifier = 8'd105;
`else
      4'b110_1: modifier = 8'd106;
`endif
      4'b111_0: modifier = 8'd47;
      default:  modifier = 8'd183;
    endcase
  endfunction

  logic [3:0] texel;     // 4·x + y: the bit of the per-texel planes
  logic       flip, diff, second;
  assign texel  = {x_i, y_i};
  assign flip   = block_i[32];
  assign diff   = block_i[33];
  // The first sub-block is x < 2 (no flip) or y < 2 (flip).
  assign second = flip ? y_i[1] : x_i[1];

  logic [2:0] table_idx;
  logic [7:0] m;
  logic       neg;
  assign table_idx = second ? block_i[36:34] : block_i[39:37];
  assign m         = modifier(table_idx, block_i[6'(texel)]);
  assign neg       = block_i[16 + 32'(texel)];

  // Per channel (c = 0 red at bits 56-63, 1 green at 48-55, 2 blue at 40-47): the base colour,
  // then base ± m clamped to [0, 255].
  for (genvar c = 0; c < 3; c++) begin : g_ch
    logic [4:0]        b5, b5d;
    logic [2:0]        d3;
    logic [7:0]        base;
    logic signed [9:0] s;
    assign b5  = block_i[59 - 8*c +: 5];
    assign d3  = block_i[56 - 8*c +: 3];
    // Sub-block 2 of differential mode adds the signed 3-bit delta, wrapping to 5 bits
    // (etc1.rs DIFF_OVERFLOW_WRAPS).
    assign b5d = b5 + {{2{d3[2]}}, d3};
    assign base = diff ? expand5(second ? b5d : b5)
                       : expand4(second ? block_i[56 - 8*c +: 4] : block_i[60 - 8*c +: 4]);
    assign s = neg ? $signed({2'b00, base}) - $signed({2'b00, m})
                   : $signed({2'b00, base}) + $signed({2'b00, m});
    assign rgb_o[23 - 8*c -: 8] = s < 0 ? 8'd0 : s > 10'sd255 ? 8'd255 : s[7:0];
  end

endmodule
