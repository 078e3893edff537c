// pica_fop_addr: where a fragment's pixel lies in a framebuffer, bit-exact with
// `pica_model::fop::fb::pixel_offset` (model/src/fop/fb.rs) before the multiplication by the
// bytes per pixel (the caller scales the pixel index for each buffer's format).
//
// Combinational. For a fragment at window (x, y) in a width x height buffer:
//
//   outside  x >= width or y >= height               (fb::pixel_offset returns None)
//   yr       (height - 1) - y                         (fb::memory_row: memory row 0 = top)
//   8x8      (yr & ~7)  * width + (x & ~7)  * 8  + morton(x, yr, 3 bits)
//   32x32    (yr & ~31) * width + (x & ~31) * 32 + morton(x, yr, 5 bits)   (BLOCK32_ZORDER)
//
// Widths: width <= 2047 (11 bits), height - 1 <= 1023, so the index is below 2^22 and never
// overflows (the model's u32::try_from cannot fail for register values).
//
// Injected bug INJECT_FOP_TILE32: in 32x32 mode the block-row offset is taken from memory row
// yr + 1 (((yr + 1) & ~31) * width), an off-by-one that moves the last row of every block row.
module pica_fop_addr (
  input  logic [15:0] x_i,
  input  logic [15:0] y_i,
  input  logic [10:0] width_i,       // GPUREG_FRAMEBUFFER_DIM bits 0-10
  input  logic [9:0]  height_m1_i,   // GPUREG_FRAMEBUFFER_DIM bits 12-21 (height - 1)
  input  logic        block32_i,     // GPUREG_FRAMEBUFFER_BLOCK32 bit 0
  output logic        outside_o,
  output logic [22:0] pixel_o        // pixel index from the buffer base (valid when !outside_o)
);

  // UNVERIFIED(hw): in 32x32 mode the whole block is in 5-bit Z order (the sixteen 8x8 tiles
  // of a block follow each other in Z order) — model fop::fb::BLOCK32_ZORDER = true. This RTL
  // implements only that choice.
  localparam bit Block32Zorder = 1'b1;

  logic [9:0]  yr;          // memory row
  logic [10:0] row_y;       // yr with the block's low bits cleared (11 bits: the injected bug)
  logic [21:0] row_off;     // row_y * width
  logic [16:0] col_off;     // (x & ~(block - 1)) * block
  logic [9:0]  morton;      // Z-order index inside the block
  /* verilator lint_off UNUSEDSIGNAL */
  logic [10:0] yr_row;      // the memory row the block-row offset is taken from (low bits cleared)
  /* verilator lint_on UNUSEDSIGNAL */

  assign outside_o = ({5'd0, width_i} <= x_i) || ({6'd0, height_m1_i} < y_i);
  assign yr = height_m1_i - y_i[9:0];

`ifdef INJECT_FOP_TILE32
  assign yr_row = block32_i ? ({1'b0, yr} + 11'd1) : {1'b0, yr};
`else
  assign yr_row = {1'b0, yr};
`endif

  assign row_y = block32_i ? {yr_row[10:5], 5'd0} : {yr_row[10:3], 3'd0};
  assign row_off = row_y * width_i;
  assign col_off = block32_i ? {1'b0, x_i[10:5], 10'd0} : {3'd0, x_i[10:3], 6'd0};

  // fb::morton_interleave: x bit i at 2i, y bit i at 2i + 1; 3 bits in 8x8 mode, 5 in 32x32.
  assign morton = block32_i
      ? {yr[4], x_i[4], yr[3], x_i[3], yr[2], x_i[2], yr[1], x_i[1], yr[0], x_i[0]}
      : {4'd0, yr[2], x_i[2], yr[1], x_i[1], yr[0], x_i[0]};

  assign pixel_o = {1'b0, row_off} + {6'd0, col_off} + {13'd0, morton};

`ifndef SYNTHESIS
  initial begin
    if (!Block32Zorder) $error("pica_fop_addr: only BLOCK32_ZORDER = true is implemented");
  end
`endif

endmodule : pica_fop_addr
