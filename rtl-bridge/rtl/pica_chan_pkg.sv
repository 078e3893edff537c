// Generated from the channel table (model/src/beat.rs) by `pica gen rtl` — do not edit.
//
// The payload of every channel as a packed struct: the first field is the most
// significant, element i of an array is its index i (element 0 least significant), pad_*
// bits are zero. A
// bundle's <channel>.hex line is exactly this struct's bits (design.md "One channel
// table"; docs/channels.md). Use as `pica_chan_pkg::fragment_beat_t`. A member whose
// name is an SV keyword gets `_f` appended (`reg_f`, `tri_f`, `end_f`).

package pica_chan_pkg;

  // A table of types: any one module uses few of them (Verilator -Wall waiver).
  /* verilator lint_off UNUSEDPARAM */

  // One register write as REGS applied it.
  typedef struct packed {
    logic [31:0]           cycle;  // Cycle in which REGS applied the write.
    logic [10:0]           pad_0;  // zero
    logic [3:0]            mask;  // The command header's 4-bit byte-enable mask (bit n enables byte n).
    logic [16:0]           id;  // Register ID written (header ID + n may reach 0x100FE; such writes change nothing).
    logic [31:0]           param;  // The parameter word as it appeared in the command list.
    logic [31:0]           value;  // The full 32-bit register value after merging `param` under `mask` (0 for IDs above 0x2FF, which have no storage).
  } reg_write_beat_t;
  localparam int REG_WRITE_BEAT_W = 128;

  // One shader register crossing into or out of a unit, as raw f24 bits.
  typedef struct packed {
    logic [31:0]           cycle;  // Cycle of the transfer.
    logic [7:0]            unit;  // Shader unit 0-3.
    logic [31:0]           seq;  // Vertex sequence number (VS) or GS invocation number.
    logic [7:0]            reg_f;  // Register index: input register vN (shader_in) or output register oN (shader_out).
    logic [3:0][23:0]      xyzw;  // x, y, z, w as 24-bit f24 patterns.
  } shader_beat_t;
  localparam int SHADER_BEAT_W = 176;

  // One instruction a shader unit retired (or hung on): what it wrote and the unit's control state after it. Compared keyed by (unit kind, vertex sequence) in program order, so unit assignment and latency may differ between model and RTL.
  typedef struct packed {
    logic [31:0]           cycle;  // Cycle the instruction retired.
    logic [7:0]            unit;  // Shader unit 0-3.
    logic [31:0]           seq;  // Vertex sequence number (VS), or bit 31 set + the GS invocation number (GS), so the two kinds never share a key.
    logic [11:0]           pc;  // Word address of the instruction.
    logic [31:0]           word;  // The instruction word.
    logic [7:0]            dst;  // Destination as encoded (0x00-0x0F o0-o15, 0x10-0x1F r0-r15); 0xFF: no o/r write.
    logic [3:0]            mask;  // Lanes written (bit 3 = x .. bit 0 = w).
    logic [3:0][23:0]      result;  // The whole destination register after the write (f24 bits); zero without one.
    logic [1:0]            cmp;  // cmp.x (bit 0) and cmp.y (bit 1) after the instruction.
    logic [31:0]           a0x;  // a0.x after the instruction.
    logic [31:0]           a0y;  // a0.y after the instruction.
    logic [31:0]           al;  // The loop counter aL after the instruction.
    logic [11:0]           next_pc;  // The PC after the instruction (after the stacks' checks).
    logic                  emit;  // The instruction was an EMIT.
    logic [2:0]            hang;  // 0: retired; 1 BREAK on an empty LOOP stack, 2 two MOVAs back to back, 3 PC past the end of code, 4 unknown opcode (the unit hangs on this instruction).
    logic                  end_f;  // The instruction was END.
  } commit_beat_t;
  localparam int COMMIT_BEAT_W = 339;

  // One triangle as primitive assembly sends it to clipping.
  typedef struct packed {
    logic [31:0]           cycle;  // Cycle PA sent it.
    logic [31:0]           seq;  // Triangle number of the run.
    logic [71:0][23:0]     v;  // Per vertex, the 24 semantics of seed 002 GPUREG_SH_OUTMAP_Oi as f24 bits (index = semantic value; see `crate::pipe::semantic`).
  } primitive_beat_t;
  localparam int PRIMITIVE_BEAT_W = 1792;

  // One fragment as the rasterizer sends it to the fragment pipeline.
  typedef struct packed {
    logic [31:0]           cycle;  // Cycle RAST sent it.
    logic [31:0]           tri_f;  // The triangle it belongs to.
    logic [15:0]           x;  // Pixel x.
    logic [15:0]           y;  // Pixel y (window coordinates).
    logic [23:0]           depth;  // Depth, 16 or 24 bits per the depth buffer format (`crate::pipe::Fragment::depth`).
    logic [31:0]           color;  // Primary colour as `r | g << 8 | b << 16 | a << 24`.
    logic [23:0][23:0]     attr;  // Every interpolated semantic as f24 bits.
  } fragment_beat_t;
  localparam int FRAGMENT_BEAT_W = 728;

  // What the fragment operations did with one fragment.
  typedef struct packed {
    logic [31:0]           cycle;  // Cycle FOP finished it.
    logic [15:0]           x;  // Pixel x.
    logic [15:0]           y;  // Pixel y (window coordinates).
    logic [31:0]           color_addr;  // Physical address of the colour pixel.
    logic [31:0]           color;  // The colour pixel's stored bits after the write (format-sized, little end = lowest address).
    logic [31:0]           depth_addr;  // Physical address of the depth-stencil pixel.
    logic [31:0]           depth_stencil;  // The depth-stencil pixel's stored bits after the write.
    logic [7:0]            flags;  // Bit 0: colour written, bit 1: depth written, bit 2: stencil written, bit 3: the fragment was discarded (alpha, stencil or depth test failed).
  } pixel_beat_t;
  localparam int PIXEL_BEAT_W = 200;

  // One texel read by a texture unit.
  typedef struct packed {
    logic [31:0]           cycle;  // Cycle TEX read it.
    logic [15:0]           x;  // Pixel x of the fragment it is for.
    logic [15:0]           y;  // Pixel y of the fragment it is for.
    logic [7:0]            unit;  // Texture unit 0-2.
    logic [31:0]           addr;  // Physical byte address read (the texel, or the ETC1 / ETC1A4 block holding it).
    logic [127:0]          raw;  // The bytes read, little-endian (`crate::tex::TexelFetch::raw`): the texel, or the 8-/16-byte ETC1/ETC1A4 block.
    logic [31:0]           rgba;  // The decoded texel as `r | g << 8 | b << 16 | a << 24`.
  } texel_beat_t;
  localparam int TEXEL_BEAT_W = 264;

  // One texture-combiner stage's output for one fragment.
  typedef struct packed {
    logic [31:0]           cycle;  // Cycle TEV computed it.
    logic [15:0]           x;  // Pixel x.
    logic [15:0]           y;  // Pixel y.
    logic [7:0]            stage;  // Combiner stage 0-5.
    logic [31:0]           color;  // The stage's output as `r | g << 8 | b << 16 | a << 24`.
    logic [31:0]           buffer;  // The combiner buffer after the stage, same packing.
  } combiner_beat_t;
  localparam int COMBINER_BEAT_W = 136;

  // One fragment's texture-unit colours as TEX hands them on.
  typedef struct packed {
    logic [31:0]           cycle;  // Cycle TEX computed them.
    logic [15:0]           x;  // Pixel x.
    logic [15:0]           y;  // Pixel y.
    logic [31:0]           unit0;  // Texture unit 0's colour as `r | g << 8 | b << 16 | a << 24` (0: disabled).
    logic [31:0]           unit1;  // Texture unit 1's colour, same packing.
    logic [31:0]           unit2;  // Texture unit 2's colour, same packing.
    logic [31:0]           unit3;  // Texture unit 3's (the procedural texture's) colour, same packing.
  } tex_color_beat_t;
  localparam int TEX_COLOR_BEAT_W = 192;

  // Channel numbers (beat.rs Channel order) and names, for trace ports and reports.
  localparam int CH_REGWRITE = 0;  // regwrite carries reg_write_beat_t
  localparam int CH_SHADER_IN = 1;  // shader_in carries shader_beat_t
  localparam int CH_SHADER_OUT = 2;  // shader_out carries shader_beat_t
  localparam int CH_COMMIT = 3;  // commit carries commit_beat_t
  localparam int CH_PRIMITIVE = 4;  // primitive carries primitive_beat_t
  localparam int CH_FRAGMENT = 5;  // fragment carries fragment_beat_t
  localparam int CH_PIXEL = 6;  // pixel carries pixel_beat_t
  localparam int CH_TEXEL = 7;  // texel carries texel_beat_t
  localparam int CH_COMBINER = 8;  // combiner carries combiner_beat_t
  localparam int CH_TEX_COLOR = 9;  // tex_color carries tex_color_beat_t

  // The widest payload: a buffer of this many bits holds any beat (DPI benches,
  // capi/dpi/pica_model_dpi.sv).
  localparam int BEAT_MAX_W = 1792;

  /* verilator lint_on UNUSEDPARAM */

endpackage : pica_chan_pkg
