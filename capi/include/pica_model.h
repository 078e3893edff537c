/* Generated from capi/src/lib.rs (cbindgen) and the channel table (model/src/beat.rs,
 * pica_model::chan::c_header) by `PICA_BLESS=1 cargo test -p pica-capi --test header`
 * — do not edit. The C ABI of the pica-cosim model: link libpica_capi.a (with
 * -lpthread -ldl -lm) or libpica_capi.so. See capi/README.md. */

#ifndef PICA_MODEL_H
#define PICA_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Channels (model/src/beat.rs Channel order; pica_chan_pkg::CH_*). */
#define PICA_CH_REGWRITE 0 /* regwrite carries pica_reg_write_beat_t */
#define PICA_CH_SHADER_IN 1 /* shader_in carries pica_shader_beat_t */
#define PICA_CH_SHADER_OUT 2 /* shader_out carries pica_shader_beat_t */
#define PICA_CH_COMMIT 3 /* commit carries pica_commit_beat_t */
#define PICA_CH_PRIMITIVE 4 /* primitive carries pica_primitive_beat_t */
#define PICA_CH_FRAGMENT 5 /* fragment carries pica_fragment_beat_t */
#define PICA_CH_PIXEL 6 /* pixel carries pica_pixel_beat_t */
#define PICA_CH_TEXEL 7 /* texel carries pica_texel_beat_t */
#define PICA_CH_COMBINER 8 /* combiner carries pica_combiner_beat_t */
#define PICA_CH_TEX_COLOR 9 /* tex_color carries pica_tex_color_beat_t */
#define PICA_CHANNEL_COUNT 10
/* The widest packed payload in bits (pica_chan_pkg::BEAT_MAX_W). */
#define PICA_BEAT_MAX_W 1792

#ifdef __cplusplus
#define PICA_STATIC_ASSERT(c, m) static_assert(c, m)
#else
#define PICA_STATIC_ASSERT(c, m) _Static_assert(c, m)
#endif

/* One register write as REGS applied it. */
typedef struct pica_reg_write_beat {
  uint64_t cycle; /* Cycle in which REGS applied the write. */
  uint8_t mask; /* The command header's 4-bit byte-enable mask (bit n enables byte n). */
  uint32_t id; /* Register ID written (header ID + n may reach 0x100FE; such writes change nothing). */
  uint32_t param; /* The parameter word as it appeared in the command list. */
  uint32_t value; /* The full 32-bit register value after merging `param` under `mask` (0 for IDs above 0x2FF, which have no storage). */
} pica_reg_write_beat_t;
/* Packed width in bits (pica_chan_pkg::REG_WRITE_BEAT_W; pica_pop_beat_packed). */
#define PICA_REG_WRITE_BEAT_W 128
PICA_STATIC_ASSERT(sizeof(pica_reg_write_beat_t) == 24, "pica_reg_write_beat_t: size differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_reg_write_beat_t, cycle) == 0, "pica_reg_write_beat_t.cycle: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_reg_write_beat_t, mask) == 8, "pica_reg_write_beat_t.mask: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_reg_write_beat_t, id) == 12, "pica_reg_write_beat_t.id: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_reg_write_beat_t, param) == 16, "pica_reg_write_beat_t.param: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_reg_write_beat_t, value) == 20, "pica_reg_write_beat_t.value: offset differs from the library's");

/* One shader register crossing into or out of a unit, as raw f24 bits. */
typedef struct pica_shader_beat {
  uint64_t cycle; /* Cycle of the transfer. */
  uint8_t unit; /* Shader unit 0-3. */
  uint32_t seq; /* Vertex sequence number (VS) or GS invocation number. */
  uint8_t reg; /* Register index: input register vN (shader_in) or output register oN (shader_out). */
  uint32_t xyzw[4]; /* x, y, z, w as 24-bit f24 patterns. */
} pica_shader_beat_t;
/* Packed width in bits (pica_chan_pkg::SHADER_BEAT_W; pica_pop_beat_packed). */
#define PICA_SHADER_BEAT_W 176
PICA_STATIC_ASSERT(sizeof(pica_shader_beat_t) == 40, "pica_shader_beat_t: size differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_shader_beat_t, cycle) == 0, "pica_shader_beat_t.cycle: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_shader_beat_t, unit) == 8, "pica_shader_beat_t.unit: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_shader_beat_t, seq) == 12, "pica_shader_beat_t.seq: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_shader_beat_t, reg) == 16, "pica_shader_beat_t.reg: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_shader_beat_t, xyzw) == 20, "pica_shader_beat_t.xyzw: offset differs from the library's");

/* One instruction a shader unit retired (or hung on): what it wrote and the unit's control state after it. Compared keyed by (unit kind, vertex sequence) in program order, so unit assignment and latency may differ between model and RTL. */
typedef struct pica_commit_beat {
  uint64_t cycle; /* Cycle the instruction retired. */
  uint8_t unit; /* Shader unit 0-3. */
  uint32_t seq; /* Vertex sequence number (VS), or bit 31 set + the GS invocation number (GS), so the two kinds never share a key. */
  uint16_t pc; /* Word address of the instruction. */
  uint32_t word; /* The instruction word. */
  uint8_t dst; /* Destination as encoded (0x00-0x0F o0-o15, 0x10-0x1F r0-r15); 0xFF: no o/r write. */
  uint8_t mask; /* Lanes written (bit 3 = x .. bit 0 = w). */
  uint32_t result[4]; /* The whole destination register after the write (f24 bits); zero without one. */
  uint8_t cmp; /* cmp.x (bit 0) and cmp.y (bit 1) after the instruction. */
  int32_t a0x; /* a0.x after the instruction. */
  int32_t a0y; /* a0.y after the instruction. */
  int32_t al; /* The loop counter aL after the instruction. */
  uint16_t next_pc; /* The PC after the instruction (after the stacks' checks). */
  bool emit; /* The instruction was an EMIT. */
  uint8_t hang; /* 0: retired; 1 BREAK on an empty LOOP stack, 2 two MOVAs back to back, 3 PC past the end of code, 4 unknown opcode (the unit hangs on this instruction). */
  bool end; /* The instruction was END. */
} pica_commit_beat_t;
/* Packed width in bits (pica_chan_pkg::COMMIT_BEAT_W; pica_pop_beat_packed). */
#define PICA_COMMIT_BEAT_W 339
PICA_STATIC_ASSERT(sizeof(pica_commit_beat_t) == 72, "pica_commit_beat_t: size differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, cycle) == 0, "pica_commit_beat_t.cycle: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, unit) == 8, "pica_commit_beat_t.unit: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, seq) == 12, "pica_commit_beat_t.seq: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, pc) == 16, "pica_commit_beat_t.pc: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, word) == 20, "pica_commit_beat_t.word: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, dst) == 24, "pica_commit_beat_t.dst: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, mask) == 25, "pica_commit_beat_t.mask: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, result) == 28, "pica_commit_beat_t.result: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, cmp) == 44, "pica_commit_beat_t.cmp: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, a0x) == 48, "pica_commit_beat_t.a0x: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, a0y) == 52, "pica_commit_beat_t.a0y: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, al) == 56, "pica_commit_beat_t.al: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, next_pc) == 60, "pica_commit_beat_t.next_pc: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, emit) == 62, "pica_commit_beat_t.emit: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, hang) == 63, "pica_commit_beat_t.hang: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_commit_beat_t, end) == 64, "pica_commit_beat_t.end: offset differs from the library's");

/* One triangle as primitive assembly sends it to clipping. */
typedef struct pica_primitive_beat {
  uint64_t cycle; /* Cycle PA sent it. */
  uint32_t seq; /* Triangle number of the run. */
  uint32_t v[3][24]; /* Per vertex, the 24 semantics of seed 002 GPUREG_SH_OUTMAP_Oi as f24 bits (index = semantic value; see `crate::pipe::semantic`). */
} pica_primitive_beat_t;
/* Packed width in bits (pica_chan_pkg::PRIMITIVE_BEAT_W; pica_pop_beat_packed). */
#define PICA_PRIMITIVE_BEAT_W 1792
PICA_STATIC_ASSERT(sizeof(pica_primitive_beat_t) == 304, "pica_primitive_beat_t: size differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_primitive_beat_t, cycle) == 0, "pica_primitive_beat_t.cycle: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_primitive_beat_t, seq) == 8, "pica_primitive_beat_t.seq: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_primitive_beat_t, v) == 12, "pica_primitive_beat_t.v: offset differs from the library's");

/* One fragment as the rasterizer sends it to the fragment pipeline. */
typedef struct pica_fragment_beat {
  uint64_t cycle; /* Cycle RAST sent it. */
  uint32_t tri; /* The triangle it belongs to. */
  uint16_t x; /* Pixel x. */
  uint16_t y; /* Pixel y (window coordinates). */
  uint32_t depth; /* Depth, 16 or 24 bits per the depth buffer format (`crate::pipe::Fragment::depth`). */
  uint32_t color; /* Primary colour as `r | g << 8 | b << 16 | a << 24`. */
  uint32_t attr[24]; /* Every interpolated semantic as f24 bits. */
} pica_fragment_beat_t;
/* Packed width in bits (pica_chan_pkg::FRAGMENT_BEAT_W; pica_pop_beat_packed). */
#define PICA_FRAGMENT_BEAT_W 728
PICA_STATIC_ASSERT(sizeof(pica_fragment_beat_t) == 120, "pica_fragment_beat_t: size differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_fragment_beat_t, cycle) == 0, "pica_fragment_beat_t.cycle: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_fragment_beat_t, tri) == 8, "pica_fragment_beat_t.tri: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_fragment_beat_t, x) == 12, "pica_fragment_beat_t.x: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_fragment_beat_t, y) == 14, "pica_fragment_beat_t.y: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_fragment_beat_t, depth) == 16, "pica_fragment_beat_t.depth: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_fragment_beat_t, color) == 20, "pica_fragment_beat_t.color: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_fragment_beat_t, attr) == 24, "pica_fragment_beat_t.attr: offset differs from the library's");

/* What the fragment operations did with one fragment. */
typedef struct pica_pixel_beat {
  uint64_t cycle; /* Cycle FOP finished it. */
  uint16_t x; /* Pixel x. */
  uint16_t y; /* Pixel y (window coordinates). */
  uint32_t color_addr; /* Physical address of the colour pixel. */
  uint32_t color; /* The colour pixel's stored bits after the write (format-sized, little end = lowest address). */
  uint32_t depth_addr; /* Physical address of the depth-stencil pixel. */
  uint32_t depth_stencil; /* The depth-stencil pixel's stored bits after the write. */
  uint8_t flags; /* Bit 0: colour written, bit 1: depth written, bit 2: stencil written, bit 3: the fragment was discarded (alpha, stencil or depth test failed). */
} pica_pixel_beat_t;
/* Packed width in bits (pica_chan_pkg::PIXEL_BEAT_W; pica_pop_beat_packed). */
#define PICA_PIXEL_BEAT_W 200
PICA_STATIC_ASSERT(sizeof(pica_pixel_beat_t) == 32, "pica_pixel_beat_t: size differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_pixel_beat_t, cycle) == 0, "pica_pixel_beat_t.cycle: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_pixel_beat_t, x) == 8, "pica_pixel_beat_t.x: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_pixel_beat_t, y) == 10, "pica_pixel_beat_t.y: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_pixel_beat_t, color_addr) == 12, "pica_pixel_beat_t.color_addr: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_pixel_beat_t, color) == 16, "pica_pixel_beat_t.color: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_pixel_beat_t, depth_addr) == 20, "pica_pixel_beat_t.depth_addr: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_pixel_beat_t, depth_stencil) == 24, "pica_pixel_beat_t.depth_stencil: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_pixel_beat_t, flags) == 28, "pica_pixel_beat_t.flags: offset differs from the library's");

/* One texel read by a texture unit. */
typedef struct pica_texel_beat {
  uint64_t cycle; /* Cycle TEX read it. */
  uint16_t x; /* Pixel x of the fragment it is for. */
  uint16_t y; /* Pixel y of the fragment it is for. */
  uint8_t unit; /* Texture unit 0-2. */
  uint32_t addr; /* Physical byte address read (the texel, or the ETC1 / ETC1A4 block holding it). */
  uint64_t raw[2]; /* The bytes read, little-endian (`crate::tex::TexelFetch::raw`): the texel, or the 8-/16-byte ETC1/ETC1A4 block. */
  uint32_t rgba; /* The decoded texel as `r | g << 8 | b << 16 | a << 24`. */
} pica_texel_beat_t;
/* Packed width in bits (pica_chan_pkg::TEXEL_BEAT_W; pica_pop_beat_packed). */
#define PICA_TEXEL_BEAT_W 264
PICA_STATIC_ASSERT(sizeof(pica_texel_beat_t) == 48, "pica_texel_beat_t: size differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_texel_beat_t, cycle) == 0, "pica_texel_beat_t.cycle: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_texel_beat_t, x) == 8, "pica_texel_beat_t.x: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_texel_beat_t, y) == 10, "pica_texel_beat_t.y: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_texel_beat_t, unit) == 12, "pica_texel_beat_t.unit: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_texel_beat_t, addr) == 16, "pica_texel_beat_t.addr: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_texel_beat_t, raw) == 24, "pica_texel_beat_t.raw: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_texel_beat_t, rgba) == 40, "pica_texel_beat_t.rgba: offset differs from the library's");

/* One texture-combiner stage's output for one fragment. */
typedef struct pica_combiner_beat {
  uint64_t cycle; /* Cycle TEV computed it. */
  uint16_t x; /* Pixel x. */
  uint16_t y; /* Pixel y. */
  uint8_t stage; /* Combiner stage 0-5. */
  uint32_t color; /* The stage's output as `r | g << 8 | b << 16 | a << 24`. */
  uint32_t buffer; /* The combiner buffer after the stage, same packing. */
} pica_combiner_beat_t;
/* Packed width in bits (pica_chan_pkg::COMBINER_BEAT_W; pica_pop_beat_packed). */
#define PICA_COMBINER_BEAT_W 136
PICA_STATIC_ASSERT(sizeof(pica_combiner_beat_t) == 24, "pica_combiner_beat_t: size differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_combiner_beat_t, cycle) == 0, "pica_combiner_beat_t.cycle: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_combiner_beat_t, x) == 8, "pica_combiner_beat_t.x: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_combiner_beat_t, y) == 10, "pica_combiner_beat_t.y: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_combiner_beat_t, stage) == 12, "pica_combiner_beat_t.stage: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_combiner_beat_t, color) == 16, "pica_combiner_beat_t.color: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_combiner_beat_t, buffer) == 20, "pica_combiner_beat_t.buffer: offset differs from the library's");

/* One fragment's texture-unit colours as TEX hands them on. */
typedef struct pica_tex_color_beat {
  uint64_t cycle; /* Cycle TEX computed them. */
  uint16_t x; /* Pixel x. */
  uint16_t y; /* Pixel y. */
  uint32_t unit0; /* Texture unit 0's colour as `r | g << 8 | b << 16 | a << 24` (0: disabled). */
  uint32_t unit1; /* Texture unit 1's colour, same packing. */
  uint32_t unit2; /* Texture unit 2's colour, same packing. */
  uint32_t unit3; /* Texture unit 3's (the procedural texture's) colour, same packing. */
} pica_tex_color_beat_t;
/* Packed width in bits (pica_chan_pkg::TEX_COLOR_BEAT_W; pica_pop_beat_packed). */
#define PICA_TEX_COLOR_BEAT_W 192
PICA_STATIC_ASSERT(sizeof(pica_tex_color_beat_t) == 32, "pica_tex_color_beat_t: size differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_tex_color_beat_t, cycle) == 0, "pica_tex_color_beat_t.cycle: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_tex_color_beat_t, x) == 8, "pica_tex_color_beat_t.x: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_tex_color_beat_t, y) == 10, "pica_tex_color_beat_t.y: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_tex_color_beat_t, unit0) == 12, "pica_tex_color_beat_t.unit0: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_tex_color_beat_t, unit1) == 16, "pica_tex_color_beat_t.unit1: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_tex_color_beat_t, unit2) == 20, "pica_tex_color_beat_t.unit2: offset differs from the library's");
PICA_STATIC_ASSERT(offsetof(pica_tex_color_beat_t, unit3) == 24, "pica_tex_color_beat_t.unit3: offset differs from the library's");



// `pica_gpu_new` flag: the front end alone (CP and REGS, as the RTL top `pica_top` has
// them): draws are recorded as trigger events, nothing runs after REGS.
#define PICA_GPU_FRONT_END 1

// `pica_gpu_new` flag: record the shader units' commit trace (channel `commit`).
#define PICA_GPU_RECORD_COMMITS 2

// `pica_gpu_new` flag: record no beats (fastest; the pop functions then find nothing).
#define PICA_GPU_NO_BEATS 4

// Every flag bit `pica_gpu_new` knows.
#define PICA_GPU_FLAGS_ALL 7

// Outcome kind: still running (or never run).
#define PICA_OUTCOME_RUNNING 0

// Outcome kind: the command list finished.
#define PICA_OUTCOME_FINISHED 1

// Outcome kind: the GPU hung (the hang code and message say why).
#define PICA_OUTCOME_HANG 2

// Outcome kind: the cycle limit of `pica_gpu_run` was reached first.
#define PICA_OUTCOME_CYCLE_LIMIT 3

// The version of this ABI (`pica_abi_version`): bumped on any incompatible change.
#define PICA_ABI_VERSION 1

// The cycles `pica_gpu_write_reg` steps, at most, while the CP → REGS channel is full (REGS
// holds while a draw drains) before it gives up with `PICA_ERR_HUNG`; the default cycle
// limit of `pica run`.
#define PICA_WRITE_MAX_WAIT 100000000

// An opaque GPU: the model, its memory, and a read cursor per channel.
typedef struct pica_gpu_t pica_gpu_t;

// The result of an entry point: `PICA_OK` (0), `PICA_EMPTY` (1) or a negative error.
typedef int32_t pica_status_t;

// One register write for `pica_gpu_write_regs`.
typedef struct {
  // Register ID (0 ..= 0x100FE; IDs above 0x2FF have no storage and change nothing).
  uint32_t id;
  // The parameter word.
  uint32_t value;
  // The command header's byte-enable mask, 0 ..= 0xF (0xF writes the whole word).
  uint32_t mask;
} pica_reg_write_t;

// Success.
#define PICA_OK 0

// Success, but nothing to return: no beat is waiting on the channel.
#define PICA_EMPTY 1

// A required pointer argument is NULL.
#define PICA_ERR_NULL -1

// The handle is not a live GPU made by `pica_gpu_new`.
#define PICA_ERR_HANDLE -2

// No such channel number or name.
#define PICA_ERR_CHANNEL -3

// The address range is not in mapped memory (VRAM or FCRAM).
#define PICA_ERR_UNMAPPED -4

// An argument is out of range (register ID, byte mask, debug address, UTF-8 text, ...).
#define PICA_ERR_ARGUMENT -5

// The model refused the request in its current state (a submission it cannot take, a
// register write while a command list is running).
#define PICA_ERR_REFUSED -6

// A file could not be read or parsed.
#define PICA_ERR_FILE -7

// A caller's buffer has the wrong size (a beat struct) or is too small.
#define PICA_ERR_SIZE -8

// A register write could not be accepted: the GPU hung, or the CP → REGS channel stayed
// full for `PICA_WRITE_MAX_WAIT` cycles.
#define PICA_ERR_HUNG -9

// The model panicked (a model bug: please report it with the inputs).
#define PICA_ERR_PANIC -10

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

// The ABI version this library implements (`PICA_ABI_VERSION`).
uint32_t pica_abi_version(void);

// The name of a status code (`"PICA_ERR_UNMAPPED"`); `"PICA_UNKNOWN_STATUS"` for others.
// The string is static.
const char *pica_status_name(pica_status_t status);

// The message of the last failed call on this thread (`""` if none failed yet). The
// pointer stays valid until the next failing call on this thread; copy it to keep it.
const char *pica_last_error(void);

// Makes a GPU in its power-on state with empty memory (VRAM and FCRAM, see
// `pica_mem_region`) and stores its handle in `*out`. `flags`: `PICA_GPU_FRONT_END`,
// `PICA_GPU_RECORD_COMMITS`, `PICA_GPU_NO_BEATS`, or 0. Free it with `pica_gpu_free`.
//
// # Safety
// `out` is NULL or writable.
pica_status_t pica_gpu_new(uint32_t flags, pica_gpu_t **out);

// Frees a GPU made by `pica_gpu_new`. NULL is accepted and does nothing.
//
// # Safety
// `gpu` is NULL or a live handle, not used again afterwards.
pica_status_t pica_gpu_free(pica_gpu_t *gpu);

// The number of memory regions (`pica_mem_region`).
uint32_t pica_mem_region_count(void);

// Region `index`: its first byte address, its size in bytes and its name (static string).
//
// # Safety
// Each out-pointer is NULL or writable.
pica_status_t pica_mem_region(uint32_t index, uint32_t *base, uint32_t *size, const char **name);

// Copies `len` bytes to memory at `addr` (the range must lie in one region).
//
// # Safety
// `gpu` is a live handle; `data` is valid for `len` bytes (NULL only when `len` is 0).
pica_status_t pica_mem_write(pica_gpu_t *gpu, uint32_t addr, const uint8_t *data, size_t len);

// Writes `n` little-endian 32-bit words to memory at `addr`.
//
// # Safety
// `gpu` is a live handle; `words` is valid for `n` words (NULL only when `n` is 0).
pica_status_t pica_mem_write_words(pica_gpu_t *gpu, uint32_t addr, const uint32_t *words, size_t n);

// Copies `len` bytes of memory at `addr` to `out`.
//
// # Safety
// `gpu` is a live handle; `out` is valid for `len` bytes (NULL only when `len` is 0).
pica_status_t pica_mem_read(const pica_gpu_t *gpu, uint32_t addr, uint8_t *out, size_t len);

// Reads the little-endian word at `addr` into `*out` (`PICA_ERR_UNMAPPED` outside memory:
// what a bench answers on the RTL's memory port as an error).
//
// # Safety
// `gpu` is a live handle; `out` is NULL or writable.
pica_status_t pica_mem_read_word(const pica_gpu_t *gpu, uint32_t addr, uint32_t *out);

// Loads a file of words into memory at `addr`: text words for `.hex` / `.txt` (whitespace
// separated hex, `0x` optional, `#` and `//` comments: `vectors/examples/*.hex`), little-
// endian binary for `.bin`. `*bytes` (if not NULL) receives the bytes written, which is the
// size to give `pica_gpu_submit` for a command list.
//
// # Safety
// `gpu` is a live handle; `path` a NUL-terminated string; `bytes` NULL or writable.
pica_status_t pica_load_file(pica_gpu_t *gpu, const char *path, uint32_t addr, uint32_t *bytes);

// Starts the command list at `addr` of `size` bytes (what the GSP does to kick a list;
// only `size & ~0xF` bytes are read). Once a list has finished (`PICA_OUTCOME_FINISHED`)
// the next one can be submitted: consecutive submissions, the GPU state (registers, shader
// units, LUTs, the cycle counter) carried across. Refused (`PICA_ERR_REFUSED`) while a list
// is still running and after a hang.
//
// # Safety
// `gpu` is a live handle.
pica_status_t pica_gpu_submit(pica_gpu_t *gpu, uint32_t addr, uint32_t size);

// A PSC memory fill (`GX SetMemoryFill`, 3dbrew GPU/External_Registers "Memory Fill"):
// `value` as `width`-bit values (16, 24 or 32) over the physical range `[start, end)`, as
// citro3d clears a render target before a frame's lists. Between lists: refused
// (`PICA_ERR_REFUSED`) while one is running. `PICA_ERR_ARGUMENT` for a width other than 16,
// 24, 32, an address that is not 8-aligned or an empty range; `PICA_ERR_UNMAPPED` for a
// range outside VRAM and FCRAM.
//
// # Safety
// `gpu` is a live handle.
pica_status_t pica_gpu_memory_fill(pica_gpu_t *gpu,
                                   uint32_t start,
                                   uint32_t end,
                                   uint32_t value,
                                   uint32_t width);

// Writes `n` words at `addr` and submits them as a command list of `4 n` bytes.
//
// # Safety
// `gpu` is a live handle; `words` is valid for `n` words (NULL only when `n` is 0).
pica_status_t pica_gpu_submit_words(pica_gpu_t *gpu,
                                    uint32_t addr,
                                    const uint32_t *words,
                                    size_t n);

// Pushes one register write straight into the CP → REGS channel, as a testbench drives
// REGS without a command list: REGS merges `value` under the byte-enable `mask` (0 ..= 0xF)
// with every side effect and records its `regwrite` beat in a later cycle. When the
// channel is full the clock is stepped until it takes the write (`PICA_ERR_HUNG` if the GPU
// hangs first). Refused (`PICA_ERR_REFUSED`) while a submitted list is still running. A GPU
// with pushed writes and no list finishes when they and their work have drained.
//
// # Safety
// `gpu` is a live handle.
pica_status_t pica_gpu_write_reg(pica_gpu_t *gpu, uint32_t id, uint32_t value, uint32_t mask);

// `pica_gpu_write_reg` for `n` writes in one call; `*done` (if not NULL) receives how many
// were pushed (all of them on `PICA_OK`, the index of the failing one otherwise).
//
// # Safety
// `gpu` is a live handle; `writes` valid for `n` entries (NULL only when `n` is 0); `done`
// NULL or writable.
pica_status_t pica_gpu_write_regs(pica_gpu_t *gpu,
                                  const pica_reg_write_t *writes,
                                  size_t n,
                                  size_t *done);

// Sets one knob, the model's answer to a disputed hardware case (`UNVERIFIED(hw)`): the same
// `name` and `value` as `--knob NAME=VALUE` of the `pica` command (`pica knobs` lists them,
// the default first; `docs/knobs.md`). Knobs are chosen before the GPU runs: refused
// (`PICA_ERR_REFUSED`) once the clock has advanced (a shader-unit knob resets the units). An
// unknown name or a value the knob does not have is `PICA_ERR_ARGUMENT`, with a message that
// lists the valid ones.
//
// # Safety
// `gpu` is a live handle; `name` and `value` NUL-terminated strings.
pica_status_t pica_gpu_set_knob(pica_gpu_t *gpu, const char *name, const char *value);

// Advances the clock by `cycles` cycles (whatever the outcome).
//
// # Safety
// `gpu` is a live handle.
pica_status_t pica_gpu_step(pica_gpu_t *gpu, uint64_t cycles);

// Steps until the command list (or the pushed writes) finish, the GPU hangs, or
// `max_cycles` cycles have been stepped in total; read the result with `pica_gpu_outcome`.
//
// # Safety
// `gpu` is a live handle.
pica_status_t pica_gpu_run(pica_gpu_t *gpu, uint64_t max_cycles);

// The outcome so far: `*kind` one of `PICA_OUTCOME_*`; `*cycle` the cycles run
// (finished, cycle limit, running) or the cycle of the hang; `*hang_code` the RTL's
// `hang_reason_o` code of the hang (1 missing FINALIZE, 2 command past the end, 3 fetch
// from unmapped memory; 0 for the hangs the front-end RTL does not report, and when not
// hung). Any out-pointer may be NULL.
//
// # Safety
// `gpu` is a live handle; each out-pointer NULL or writable.
pica_status_t pica_gpu_outcome(const pica_gpu_t *gpu,
                               uint32_t *kind,
                               uint64_t *cycle,
                               uint32_t *hang_code);

// The outcome as the model words it (`"finished in 17 cycles"`, `"hang at cycle 9: ..."`,
// `"running (cycle 4)"`); `""` for a bad handle. Valid until the next call with this GPU.
//
// # Safety
// `gpu` is NULL or a live handle.
const char *pica_gpu_outcome_message(pica_gpu_t *gpu);

// The current cycle (cycles stepped so far).
//
// # Safety
// `gpu` is a live handle; `out` NULL or writable.
pica_status_t pica_gpu_cycle(const pica_gpu_t *gpu, uint64_t *out);

// Reads register `id` (0 ..= 0x2FF) as REGS holds it.
//
// # Safety
// `gpu` is a live handle; `out` NULL or writable.
pica_status_t pica_gpu_read_reg(const pica_gpu_t *gpu, uint32_t id, uint32_t *out);

// Reads one word of the debug map (the RTL's `dbg_addr_i` / `dbg_rdata_o` port: the
// registers, then the FIFO-backed memories; `docs/registers.md` "Debug map"). Addresses
// outside the map are `PICA_ERR_ARGUMENT`.
//
// # Safety
// `gpu` is a live handle; `out` NULL or writable.
pica_status_t pica_gpu_debug_read(const pica_gpu_t *gpu, uint32_t addr, uint32_t *out);

// The number of debug-map addresses (`pica_debug_address`).
uint32_t pica_debug_address_count(void);

// The `index`-th debug-map address, ascending.
//
// # Safety
// `out` is NULL or writable.
pica_status_t pica_debug_address(uint32_t index, uint32_t *out);

// What the debug-map address `addr` holds (`"GPUREG_FOG_COLOR"`,
// `"unit0.float_uniforms[c4.y]"`), for reports; `"(not in the debug map)"` otherwise.
// Valid until the next call of this function on this thread.
const char *pica_debug_describe(uint32_t addr);

// The register table's name of `id` (`"GPUREG_FOG_COLOR"`; `"GPUREG_0xxx"` for unnamed
// IDs); `"GPUREG_BEYOND_0x2FF"` for IDs without storage. Static; never NULL.
const char *pica_reg_name(uint32_t id);

// The ID of a register name (3dbrew or official name, with or without `GPUREG_`, or a hex
// ID `0x10`; case-insensitive).
//
// # Safety
// `name` is NULL or a NUL-terminated string; `out` NULL or writable.
pica_status_t pica_reg_by_name(const char *name, uint32_t *out);

// The name of channel `ch` (`"regwrite"`), or NULL for an unknown channel. Static.
const char *pica_channel_name(uint32_t ch);

// The number of a channel name (`"fragment"` → `PICA_CH_FRAGMENT`).
//
// # Safety
// `name` is NULL or a NUL-terminated string; `out` NULL or writable.
pica_status_t pica_channel_by_name(const char *name, uint32_t *out);

// The sizes of channel `ch`'s beat: `*c_size` the bytes of its C struct
// (`sizeof(pica_<payload>_t)`), `*packed_bits` its packed width (the
// `pica_chan_pkg` struct). Either out-pointer may be NULL.
//
// # Safety
// Each out-pointer is NULL or writable.
pica_status_t pica_beat_size(uint32_t ch, size_t *c_size, uint32_t *packed_bits);

// How many beats of channel `ch` were recorded and not yet popped.
//
// # Safety
// `gpu` is a live handle; `waiting` NULL or writable.
pica_status_t pica_beat_count(const pica_gpu_t *gpu, uint32_t ch, uint64_t *waiting);

// Pops the oldest not-yet-popped beat of channel `ch` into `*out`, the channel's C struct
// (`pica_reg_write_beat_t` for `PICA_CH_REGWRITE`, ...); `out_size` must be its `sizeof`.
// `PICA_EMPTY` (and `*out` untouched) when none is waiting.
//
// # Safety
// `gpu` is a live handle; `out` valid for `out_size` bytes.
pica_status_t pica_pop_beat(pica_gpu_t *gpu, uint32_t ch, void *out, size_t out_size);

// Pops the oldest not-yet-popped beat of channel `ch` as its packed bits (the channel
// table's packing: `rtl-bridge/rtl/pica_chan_pkg.sv`'s struct, first field most
// significant; the `cycle` field keeps its low 32 bits) into `words[0 .. n_words]`, word 0
// least significant and unused bits zero: the `svBitVecVal` layout of a DPI
// `output bit [N-1:0]`. `n_words` must cover the payload (`PICA_<PAYLOAD>_W` bits).
// `PICA_EMPTY` when none is waiting.
//
// # Safety
// `gpu` is a live handle; `words` valid for `n_words` words.
pica_status_t pica_pop_beat_packed(pica_gpu_t *gpu, uint32_t ch, uint32_t *words, uint32_t n_words);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* PICA_MODEL_H */
