//! FOP stage cases and stage bundles (`kind` = [`KIND_FOP`]): a stream of register writes and
//! fragments into the fragment operations, the memory images they read and write, and what the
//! model expects — the pixel beats, the outcome (finished or a [`FopHang`]) and the memory over
//! every image afterwards. Replayed on `pica_fop_top` by `rtl-bridge/tb/pica_fop_replay_tb.sv`
//! (`scripts/replay`), run on the Verilated stage by `pica_rtl_bridge::fop_stage::RtlFop`.
//!
//! A [`FopCase`] is a plain list of operations ([`FopOp`]) plus memory images, so a shrinker can
//! delete and simplify operations freely; [`run_model`] runs one on the model
//! ([`process_fragment`] per fragment, [`FopConfig::from_regs`] of the register file as the
//! writes so far left it); [`FopGen`] makes random ones.
//!
//! # Bundle files
//!
//! Every file is `$readmemh`-ready: one value per line, most significant digit first, no prefix.
//!
//! | file | lines | bits | what |
//! |---|---|---|---|
//! | `manifest.json` | | | format `pica-vectors` v1, `kind`, case, provenance, `dut`, `defines`, `ops` (count), `fragments`, `memory` [{file, base, words}], `streams` (the pixel stream's packing), `final_memory` [{file, base, words}], `outcome`, `mem_latency`, SHA-256 of every other file |
//! | `ops.hex` | one per operation | 96 | bits 95-88 the kind: 0 register write (bits 41-32 the ID, 31-0 the value), 1 fragment (bits 87-72 x, 71-56 y, 55-32 depth, 31-0 colour `r \| g << 8 \| b << 16 \| a << 24`) |
//! | `mem_<base>.hex` | image words | 32 | initial memory from byte address `base` (4-aligned), little-endian words |
//! | `pixel.hex` | one per fragment processed | 200 | expected pixel beats packed as the channel table's `PixelBeat` (`pica_chan_pkg::pixel_beat_t`); `cycle` = the fragment's index (the stage promises transactions, not cycles) |
//! | `pixel.jsonl` | same | | the same beats as JSON |
//! | `final_mem_<base>.hex` | image words | 32 | expected memory over each image after the run |
//!
//! The images cover every word FOP may touch (the colour and depth buffer of every
//! configuration a fragment meets, clipped to mapped memory); a replay treats mapped addresses
//! outside every image as reading 0 (writes there are ignored) and answers unmapped addresses
//! (outside VRAM and FCRAM) with an error.

use super::bundle::{field_list, unpack_line, word_lines, BundleError, BundleReader, StageBundle};
use super::StageProvenance;
use crate::case::MemImage;
use pica_model::beat::PixelBeat;
use pica_model::fop::fb::{self, FbLayout};
use pica_model::fop::ops::blend_factor;
use pica_model::fop::{process_fragment, FopConfig, FopHang, CONFIG_REGS};
use pica_model::mem::{Memory, FCRAM, REGIONS, VRAM};
use pica_model::num::F24;
use pica_model::pipe::{Fragment, NUM_SEMANTICS};
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use serde_json::{json, Value};
use std::path::Path;

/// `kind` of a FOP stage bundle.
pub const KIND_FOP: &str = "stage:fop";

/// The RTL top a FOP stage bundle is replayed on.
pub const FOP_DUT: &str = "pica_fop_top";

/// Bits of one `ops.hex` line.
pub const OP_WIDTH: u32 = 96;

/// Number of configuration registers ([`CONFIG_REGS`]).
pub const NUM_CFG: usize = CONFIG_REGS.len();

/// Register IDs travel on a 10-bit port (`cfg_id_i`): higher bits are dropped.
const ID_MASK: u16 = 0x3FF;

/// Fragment depths travel on a 24-bit port (`in_depth_i`).
const DEPTH_MASK: u32 = 0xFF_FFFF;

/// One operation of a FOP case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FopOp {
    /// A register write: the full value (after any byte-mask merge). IDs outside
    /// [`CONFIG_REGS`] change nothing FOP reads (the RTL ignores them; the model's register
    /// file stores them). Only the low 10 bits of `id` count (the width of the RTL's port).
    Reg {
        /// Register ID.
        id: u16,
        /// The register's new value.
        value: u32,
    },
    /// A fragment as FOG hands it to FOP.
    Frag {
        /// Pixel x.
        x: u16,
        /// Pixel y (window coordinates, 0 = bottom row).
        y: u16,
        /// Depth (`pica_model::pipe::Fragment::depth`); only the low 24 bits count (the RTL
        /// port's width), and the model uses 16 or 24 of them per the depth format.
        depth: u32,
        /// The combiner output after fog, `[r, g, b, a]`.
        color: [u8; 4],
    },
}

impl FopOp {
    /// The operation's `ops.hex` line (24 hex digits, no newline).
    pub fn hex_line(&self) -> String {
        let v: u128 = match *self {
            FopOp::Reg { id, value } => u128::from(id & ID_MASK) << 32 | u128::from(value),
            FopOp::Frag { x, y, depth, color } => {
                1u128 << 88
                    | u128::from(x) << 72
                    | u128::from(y) << 56
                    | u128::from(depth & DEPTH_MASK) << 32
                    | u128::from(u32::from_le_bytes(color))
            }
        };
        format!("{v:024x}")
    }

    /// Parses an `ops.hex` line; `None` if it is not one (bad digits, unknown kind, bits set
    /// outside the kind's fields).
    pub fn parse_hex_line(line: &str) -> Option<Self> {
        let line = line.trim();
        if line.is_empty() || line.len() > 24 {
            return None;
        }
        let v = u128::from_str_radix(line, 16).ok()?;
        let kind = (v >> 88) & 0xFF;
        let field = |lsb: u32, width: u32| ((v >> lsb) & ((1u128 << width) - 1)) as u32;
        match kind {
            0 if v >> 42 == 0 => Some(FopOp::Reg {
                id: field(32, 10) as u16,
                value: field(0, 32),
            }),
            1 if (v >> 88) == 1 => Some(FopOp::Frag {
                x: field(72, 16) as u16,
                y: field(56, 16) as u16,
                depth: field(32, 24),
                color: field(0, 32).to_le_bytes(),
            }),
            _ => None,
        }
    }
}

/// A FOP case: operations in order and the initial memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FopCase {
    /// Register writes and fragments, in order.
    pub ops: Vec<FopOp>,
    /// Initial memory images (4-aligned bases, inside mapped memory); mapped memory outside
    /// them reads 0.
    pub images: Vec<MemImage>,
    /// The model's knobs (`--knob`, [`pica_model::knobs`]; the defaults unless a caller sets
    /// them): the model stage runs with them and a bundle records the non-default ones in its
    /// manifest (`knobs`), so a replay makes the same choices.
    pub knobs: pica_model::knobs::Knobs,
}

impl FopCase {
    /// Number of fragments.
    pub fn fragments(&self) -> usize {
        self.ops
            .iter()
            .filter(|o| matches!(o, FopOp::Frag { .. }))
            .count()
    }

    /// Number of register writes.
    pub fn reg_writes(&self) -> usize {
        self.ops.len() - self.fragments()
    }

    /// The initial memory: every image loaded (words outside mapped memory are skipped).
    pub fn memory(&self) -> Memory {
        let mut mem = Memory::new();
        for im in &self.images {
            if mem.write_words(im.base, &im.words).is_err() {
                for (i, w) in im.words.iter().enumerate() {
                    let _ = mem.write_u32(im.base.wrapping_add(4 * i as u32), *w);
                }
            }
        }
        mem
    }

    /// The case as readable text: one operation per line (register names from the table).
    pub fn describe(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        for op in &self.ops {
            match *op {
                FopOp::Reg { id, value } => {
                    let name = pica_model::regs::name(u32::from(id & ID_MASK));
                    let _ = writeln!(s, "reg 0x{id:03x} {name} = 0x{value:08x}");
                }
                FopOp::Frag { x, y, depth, color } => {
                    let _ = writeln!(s, "frag x={x} y={y} depth=0x{depth:06x} color={color:02x?}");
                }
            }
        }
        for im in &self.images {
            let _ = writeln!(s, "image 0x{:08x} {} words", im.base, im.words.len());
        }
        s
    }
}

/// What the model does with a case.
#[derive(Clone, Debug)]
pub struct FopRun {
    /// One pixel beat per fragment processed, `cycle` = the fragment's index.
    pub beats: Vec<PixelBeat>,
    /// The hang, if the run stopped at one (the hanging fragment has no beat).
    pub hang: Option<FopHang>,
    /// Memory after the run.
    pub mem: Memory,
}

impl FopRun {
    /// The memory after the run over each of `images`' ranges.
    pub fn final_images(&self, images: &[MemImage]) -> Vec<MemImage> {
        image_words(&self.mem, images)
    }
}

/// The words of `mem` over each of `images`' ranges (0 where unmapped).
pub fn image_words(mem: &Memory, images: &[MemImage]) -> Vec<MemImage> {
    images
        .iter()
        .map(|im| MemImage {
            base: im.base,
            words: (0..im.words.len())
                .map(|i| {
                    mem.read_u32(im.base.wrapping_add(4 * i as u32))
                        .unwrap_or(0)
                })
                .collect(),
        })
        .collect()
}

/// The model's fragment for a [`FopOp::Frag`] (depth cut to the port's 24 bits).
pub fn model_fragment(x: u16, y: u16, depth: u32, color: [u8; 4]) -> Fragment {
    Fragment {
        x,
        y,
        depth: depth & DEPTH_MASK,
        color,
        attr: [F24::ZERO; NUM_SEMANTICS],
        tri: 0,
        tex_deriv: [[F24::ZERO; 4]; 3],
    }
}

/// Runs `case` on the model: a power-on register file with the register writes applied in
/// order (IDs cut to 10 bits, as the RTL port takes them), each fragment through
/// [`process_fragment`] with [`FopConfig::from_regs`] of the registers at that point, stamped
/// with its index; stops at the first hang.
pub fn run_model(case: &FopCase) -> FopRun {
    let mut regs = RegFile::new();
    regs.set_knobs(case.knobs);
    let mut mem = case.memory();
    let mut beats = Vec::new();
    let mut hang = None;
    let mut index = 0u64;
    for op in &case.ops {
        match *op {
            FopOp::Reg { id, value } => {
                regs.write(id & ID_MASK, value);
            }
            FopOp::Frag { x, y, depth, color } => {
                let cfg = FopConfig::from_regs(&regs);
                let frag = model_fragment(x, y, depth, color);
                match process_fragment(&cfg, &frag, color, &mut mem, index) {
                    Ok(b) => beats.push(b),
                    Err(h) => {
                        hang = Some(h);
                        break;
                    }
                }
                index += 1;
            }
        }
    }
    FopRun { beats, hang, mem }
}

/// The position of register `reg` in [`CONFIG_REGS`].
pub fn cfg_slot(reg: u16) -> Option<usize> {
    CONFIG_REGS.iter().position(|&r| r == reg)
}

/// `(kind, buffer code, addr, value)` of a hang as the RTL's hang port shows it: kind 1
/// unmapped, 2 reserved format; buffer 0 colour, 1 depth.
pub fn hang_code(h: &FopHang) -> (u8, u8, u32, u32) {
    let buf = |b: &str| u8::from(b == "depth");
    match h {
        FopHang::Unmapped { buffer, addr } => (1, buf(buffer), *addr, 0),
        FopHang::ReservedFormat { buffer, value } => (2, buf(buffer), 0, *value),
        _ => (0, 0, 0, 0),
    }
}

/// The hang of an RTL hang port reading (see [`hang_code`]); `None` for an unknown kind.
pub fn hang_of_code(kind: u8, buffer: u8, addr: u32, value: u32) -> Option<FopHang> {
    let buffer = if buffer != 0 { "depth" } else { "color" };
    match kind {
        1 => Some(FopHang::Unmapped { buffer, addr }),
        2 => Some(FopHang::ReservedFormat { buffer, value }),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Bundles

/// The `outcome` object of a run.
fn outcome_json(run: &FopRun) -> Value {
    match &run.hang {
        None => json!({
            "kind": "finished",
            "hang_kind": 0,
            "buffer": "",
            "buffer_code": 0,
            "addr": 0,
            "value": 0,
            "fragments": run.beats.len(),
            "message": format!("finished: {} fragments", run.beats.len()),
        }),
        Some(h) => {
            let (kind, buf, addr, value) = hang_code(h);
            json!({
                "kind": "hang",
                "hang_kind": kind,
                "buffer": if buf == 1 { "depth" } else { "color" },
                "buffer_code": buf,
                "addr": format!("0x{addr:08x}"),
                "value": value,
                "fragments": run.beats.len(),
                "message": h.to_string(),
            })
        }
    }
}

/// Writes the FOP stage bundle of `case` (expected data from [`run_model`]) into `dir`
/// (created if needed). Returns the manifest.
pub fn write_fop_bundle(
    dir: &Path,
    name: &str,
    description: &str,
    case: &FopCase,
    prov: &StageProvenance,
) -> std::io::Result<Value> {
    let run = run_model(case);
    let mut b = StageBundle::new(KIND_FOP, name, description, FOP_DUT, prov);
    b.file(
        "ops.hex",
        case.ops.iter().map(|o| o.hex_line() + "\n").collect(),
    );
    // `mem_<base>.hex` (prefix "") and `final_mem_<base>.hex` (prefix "final_").
    let mut images = |prefix: &str, images: &[MemImage]| -> Vec<Value> {
        images
            .iter()
            .map(|im| {
                let f = format!("{prefix}mem_{:08x}.hex", im.base);
                b.file(f.clone(), word_lines(&im.words, 8));
                json!({"file": f, "base": format!("0x{:08x}", im.base), "words": im.words.len()})
            })
            .collect()
    };
    let memory = images("", &case.images);
    let final_memory = images("final_", &run.final_images(&case.images));
    let pixel = b.stream("pixel", &run.beats, "every field but cycle, in order");
    b.set("defines", json!([]))
        .set("knobs", json!(case.knobs.to_map()))
        .set("ops", json!(case.ops.len()))
        .set("fragments", json!(case.fragments()))
        .set(
            "ops_file",
            json!({
                "file": "ops.hex",
                "lines": case.ops.len(),
                "width": OP_WIDTH,
                "register_write": field_list(&[("kind", 88, 8), ("id", 32, 10), ("value", 0, 32)]),
                "fragment": field_list(&[("kind", 88, 8), ("x", 72, 16), ("y", 56, 16),
                    ("depth", 32, 24), ("color", 0, 32)]),
            }),
        )
        .set("memory", json!(memory))
        .set("streams", json!([pixel]))
        .set("final_memory", json!(final_memory))
        .set("outcome", outcome_json(&run))
        .set("mem_latency", json!(0));
    b.write(dir)
}

/// Unpacks one `pixel.hex` line.
pub fn parse_pixel_line(line: &str) -> Option<PixelBeat> {
    unpack_line(line).ok()
}

/// A manifest's hex string (`"0x…"`) or number as a `u32` (also read by the TEX bundles).
pub(crate) fn parse_hex_u32(v: &Value) -> Option<u32> {
    match v {
        Value::String(s) => u32::from_str_radix(s.strip_prefix("0x").unwrap_or(s), 16).ok(),
        Value::Number(n) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
        _ => None,
    }
}

/// Reads a FOP stage bundle, checking its format, kind and every file's SHA-256. Returns the
/// manifest, the case and the expected run (its `mem`: the initial images with the expected
/// final images written over them).
pub fn load_fop_bundle(dir: &Path) -> Result<(Value, FopCase, FopRun), BundleError> {
    let r = BundleReader::load(dir, KIND_FOP)?;
    let m = r.manifest();
    let images_of = |key: &str| -> Result<Vec<MemImage>, BundleError> {
        let mut out = Vec::new();
        for e in m[key].as_array().into_iter().flatten() {
            let file = e["file"].as_str().ok_or_else(|| {
                r.error("manifest.json", None, format!("{key} entry without a file"))
            })?;
            let base = parse_hex_u32(&e["base"])
                .ok_or_else(|| r.error("manifest.json", None, format!("{key} {file}: bad base")))?;
            let words = r.words(file)?;
            r.check_count(file, words.len(), &e["words"], "words")?;
            out.push(MemImage { base, words });
        }
        Ok(out)
    };
    let ops = r.parse_lines("ops.hex", |l| {
        FopOp::parse_hex_line(l).ok_or_else(|| format!("bad line `{l}`"))
    })?;
    r.check_count("ops.hex", ops.len(), &m["ops"], "operations")?;
    let case = FopCase {
        ops,
        images: images_of("memory")?,
        knobs: r.knobs()?,
    };
    let beats = r.stream_beats::<PixelBeat>("pixel")?;
    let o = &m["outcome"];
    let hang = match o["kind"].as_str() {
        Some("finished") => None,
        Some("hang") => {
            let kind = o["hang_kind"].as_u64().unwrap_or(0) as u8;
            let buf = u8::from(o["buffer"] == "depth");
            let addr = parse_hex_u32(&o["addr"]).unwrap_or(0);
            let value = o["value"].as_u64().unwrap_or(0) as u32;
            Some(hang_of_code(kind, buf, addr, value).ok_or_else(|| {
                r.error("manifest.json", None, format!("unknown hang kind {kind}"))
            })?)
        }
        other => {
            return Err(r.error(
                "manifest.json",
                None,
                format!("unknown outcome kind {other:?}"),
            ))
        }
    };
    let mut mem = case.memory();
    for im in images_of("final_memory")? {
        for (i, w) in im.words.iter().enumerate() {
            let _ = mem.write_u32(im.base.wrapping_add(4 * i as u32), *w);
        }
    }
    Ok((r.into_manifest(), case, FopRun { beats, hang, mem }))
}

// ---------------------------------------------------------------------------------------------
// The generator

/// Bytes per pixel of a colour format field value (0 for the reserved 5-7).
fn color_bpp(field: u32) -> u32 {
    fb::ColorFormat::from_field(field).map_or(0, fb::ColorFormat::bytes_per_pixel)
}

/// Bytes per pixel of a depth format field value (0 for the reserved 1).
fn depth_bpp(field: u32) -> u32 {
    fb::DepthFormat::from_field(field).map_or(0, fb::DepthFormat::bytes_per_pixel)
}

/// f16 values the shadow-mode divisor must survive: zeros, ±1, ±0.5, ±2, the largest and
/// smallest magnitudes, subnormals, ±infinity and NaNs.
const F16_EDGES: [u16; 20] = [
    0x0000, 0x8000, 0x3C00, 0xBC00, 0x3800, 0xB800, 0x4000, 0xC000, 0x7BFF, 0xFBFF, 0x0001, 0x8001,
    0x03FF, 0x0400, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE00, 0x3555,
];

/// IDs outside [`CONFIG_REGS`] a case may write (FOP must ignore them): unused IDs near the
/// FOP block, the FLUSH / INVALIDATE triggers, early depth, the gas LUT index, and IDs the
/// register file does not store.
const OTHER_IDS: [u16; 8] = [0x108, 0x10C, 0x110, 0x111, 0x118, 0x11F, 0x127, 0x3FF];

/// Where the buffers lie and how they are laid out (the layout part of a configuration).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    color_base: u32,
    depth_base: u32,
    width: u32,
    height: u32,
    block32: bool,
    color_fmt: u32,
    depth_fmt: u32,
}

/// A seeded generator of random FOP cases (SplitMix64; the same seed gives the same cases).
///
/// Biased so that the RTL-versus-model comparison and the fuzzer find bugs fast:
///
/// - configurations over every field FOP reads, reserved encodings included (colour formats
///   5-7, depth format 1, fragment mode 2, blend equations 5-7, blend factor 15), gas and
///   shadow modes (shadow constants often from a list of edges: ±0, ±inf, NaN, subnormals,
///   ...), read and write enables on and off, junk in unused bits now and then;
/// - small framebuffers (1-64 pixels a side, mostly multiples of 8; 32×32 blocks mostly 32 or
///   64 wide), both tilings, every format, colour and depth buffers next to each other, the
///   same, or apart, in VRAM or FCRAM;
/// - about a third of the cases without a focus (a second random stream decides) in the
///   layout `pica_fop_pipe`'s fast path takes — RGBA8 colour, D24S8 depth, the depth buffer
///   past the colour buffer's extent, never gas or shadow — so its caches, its same-pixel rule
///   and its write-backs see many cases (random layouts gave it about 6 %);
/// - from a third stream (the other streams' draws stay as they were): in fast layouts,
///   rectangles of fragments in raster order (cache hits that fill the pipeline), the depth
///   buffer moved to the other memory region, the colour buffer past a region's end or across
///   0x8000_0000 (fast-path hangs); in gas cases products just past 2^33..2^47; in any layout,
///   runs of 2-6 fragments on one hot pixel;
/// - from a fourth stream (the other three stay): in 6 % of fast layouts a large framebuffer
///   (2^17 to 2^19 pixels, up to 1,016 wide and 512 high) in VRAM or in FCRAM past 8 MiB;
/// - fragments that hit a few "hot" pixels again and again (so read-after-write counts), tile
///   and block edges, repeated depths (test boundaries), some outside the framebuffer;
/// - 1-3 configurations per case, later ones changing a few registers (formats and tiling too,
///   so a fragment reads pixels written in another layout);
/// - rarely a buffer placed across the end or start of VRAM / FCRAM, or in unmapped memory,
///   with fragments aimed at the pixels that straddle the boundary or lie beyond it;
/// - now and then (4 %) every one-bit alias of every stored register ID written with a random
///   value right after the configuration;
/// - about one case in four aimed at one datapath ([`Focus`]): the shadow penumbra and the gas
///   depth weight with operands solved to put the floored result on a boundary, blending with
///   products a few units apart (gas also a product exactly 2^32 + 2^j past the cap, shadow
///   also infinite constants with single-bit depths), or writes (reads off) of the last pixels
///   before the end of a region, mostly those whose 3-byte access straddles it. Found by `pica mutate --stage fop`: random operands left mutants of those
///   datapaths alive (rtl-bridge/mutants/fop_mut.notes).
#[derive(Clone, Debug)]
pub struct FopGen {
    state: u64,
    /// The datapath the case being generated aims at ([`FopGen::case`]).
    focus: Focus,
    /// A second stream (SplitMix64) for the choice of a fast layout, so adding it left every
    /// other draw of a seed's cases as it was.
    fast: u64,
    /// The layout being drawn is one `pica_fop_pipe`'s fast path takes: RGBA8 colour, D24S8
    /// depth, buffers apart, the default fragment mode (about a third of the cases without a
    /// focus; random layouts give the fast path about 6 % of the cases).
    fast_layout: bool,
    /// A third stream (SplitMix64) for arms added after the second: drawing from it leaves
    /// both other streams' draws, and the mutants they kill, as they were.
    extra: u64,
    /// A fourth stream (SplitMix64), for the arms added after the third, likewise.
    big: u64,
}

/// A datapath a case may aim at: its configurations, images and fragments are then drawn so
/// that the datapath's arithmetic shows at the ports. The shadow penumbra and the gas depth
/// weight end in a floor to 8 bits; with random operands a slip in a low bit of the divisor
/// or of the weight rarely moves the floored value, so these cases solve for operands that
/// put the exact quotient on (or one step off) an integer boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Focus {
    /// No aim (most cases).
    None,
    /// Shadow mode with finite penumbra constants; images filled with one byte `fill` (a known
    /// stored depth and intensity) and fragments whose intensity and depth put
    /// `s · depth · 2^24 / N` on a quotient boundary ([`FopGen::shadow_target`]).
    Shadow { fill: u8 },
    /// Gas mode with a large or power-of-two proportion k; images filled with one byte `fill`
    /// (a known stored depth) and fragments whose density and depth distance put
    /// `ρ · F32 / 2^32` on a boundary ([`FopGen::gas_target`]).
    Gas { fill: u8 },
    /// Default mode with a buffer across the end or start of a mapped region, 3-byte pixels
    /// (RGB8, D24: some straddle two words), reads mostly off and writes on, fragments aimed
    /// at the pixels at the boundary: a write of a pixel this fragment did not read must probe
    /// its second word before writing the first (pica_fop.sv `probe_ds`, `probe_col`), and
    /// only then, so that a pixel half outside mapped memory hangs with no byte written.
    Straddle,
    /// Default mode blending with subtract, reverse subtract, min or max over images filled
    /// with one byte `fill` (a known destination), fragments whose products lie a few units
    /// apart ([`FopGen::blend_target`]).
    Blend { fill: u8 },
}

/// An f16 `x` (bits) as `(m, sh)` with `x · 2^24 = m · 2^sh` exactly (m signed, with the
/// hidden bit; sh = e - 1, 0 for subnormals): the terms of `fop::shadow::penumbra`'s divisor
/// (pica_fop_penumbra.sv `c_mag`, `c_sh`). `None` for infinities and NaNs.
fn f16_fixed(bits: u32) -> Option<(i128, u32)> {
    let e = (bits >> 10) & 0x1F;
    let m = i128::from(bits & 0x3FF);
    let (m, sh) = match e {
        0x1F => return None,
        0 => (m, 0),
        _ => (m | 0x400, e - 1),
    };
    Some((if bits & 0x8000 != 0 { -m } else { m }, sh))
}

/// `a / b` rounded up, for `b > 0`.
fn div_ceil_i(a: i128, b: i128) -> i128 {
    a.div_euclid(b) + i128::from(a.rem_euclid(b) != 0)
}

/// SplitMix64: advances `state` and returns its next 64 bits.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl FopGen {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            state: seed,
            focus: Focus::None,
            fast: seed ^ 0xFA57_FA57_0F0F_1234,
            fast_layout: false,
            extra: seed ^ 0xE7_7A5E_ED00_5EED,
            big: seed ^ 0xB16F_B16F_0000_B16F,
        }
    }

    /// The fourth stream's next draw below `n` (0 for `n` = 0).
    fn big_below(&mut self, n: u64) -> u64 {
        splitmix64(&mut self.big) % n.max(1)
    }

    /// The second stream's next draw below 100.
    fn fast_percent(&mut self) -> u64 {
        splitmix64(&mut self.fast) % 100
    }

    /// The third stream's next draw below `n` (0 for `n` = 0).
    fn extra_below(&mut self, n: u64) -> u64 {
        splitmix64(&mut self.extra) % n.max(1)
    }

    /// The next 64 random bits (SplitMix64).
    pub fn next_u64(&mut self) -> u64 {
        splitmix64(&mut self.state)
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A uniform value below `n` (0 for `n` = 0).
    pub fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        (((self.next_u64() >> 32) * u64::from(n)) >> 32) as u32
    }

    /// True with `percent` % probability.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len() as u32) as usize]
    }

    /// One 8-bit value, biased towards the edges.
    pub fn channel(&mut self) -> u8 {
        match self.below(8) {
            0 => self.pick(&[0, 1, 127, 128, 254, 255]),
            _ => self.below(256) as u8,
        }
    }

    /// A random colour.
    pub fn color(&mut self) -> [u8; 4] {
        [
            self.channel(),
            self.channel(),
            self.channel(),
            self.channel(),
        ]
    }

    fn f16(&mut self) -> u32 {
        match self.below(10) {
            0..=3 => u32::from(self.pick(&F16_EDGES)),
            4..=7 => {
                // A finite value of moderate size (2^-3 .. 2^4), either sign.
                let sign = u32::from(self.chance(25)) << 15;
                sign | (12 + self.below(6)) << 10 | self.below(1024)
            }
            _ => self.below(0x1_0000),
        }
    }

    fn depth24(&mut self) -> u32 {
        match self.below(10) {
            0 => self.pick(&[0, 1, 0xFFFF, 0x1_0000, 0xFF_FFFE, 0xFF_FFFF, 0x80_0000]),
            1 => self.below(0x1_0000),
            _ => self.next_u32() & DEPTH_MASK,
        }
    }

    fn color_format(&mut self) -> u32 {
        match self.below(100) {
            0..=29 => 0,
            30..=47 => 1,
            48..=63 => 2,
            64..=79 => 3,
            80..=95 => 4,
            _ => 5 + self.below(3),
        }
    }

    fn depth_format(&mut self) -> u32 {
        match self.below(100) {
            0..=29 => 0,
            30..=54 => 2,
            55..=96 => 3,
            _ => 1,
        }
    }

    /// A framebuffer size for the tiling.
    fn dims(&mut self, block32: bool) -> (u32, u32) {
        let w = if block32 && self.chance(75) {
            self.pick(&[32, 64])
        } else if self.chance(12) {
            1 + self.below(64)
        } else if self.chance(2) {
            0
        } else {
            8 * (1 + self.below(8))
        };
        let h = match self.below(10) {
            0 => 1 + self.below(64),
            1..=3 => self.pick(&[32, 64, 40, 33]),
            _ => 8 * (1 + self.below(8)),
        };
        (w, h)
    }

    /// A buffer of `size` bytes: a base in VRAM or FCRAM (8-aligned).
    fn base_normal(&mut self) -> u32 {
        let (start, span) = if self.chance(70) {
            (VRAM.start, VRAM.size)
        } else {
            (FCRAM.start, 0x40_0000)
        };
        start + 8 * self.below((span - 0x10_0000) / 8)
    }

    /// A base that puts part of a `size`-byte buffer across a region boundary or in unmapped
    /// memory.
    fn base_edge(&mut self, size: u32) -> u32 {
        let m = 1 + self.below(size.div_ceil(8).max(1));
        match self.below(6) {
            0 => VRAM.start + VRAM.size - 8 * m,
            1 => FCRAM.start + FCRAM.size - 8 * m,
            2 => VRAM.start.wrapping_sub(8 * m),
            3 => FCRAM.start.wrapping_sub(8 * m),
            4 => VRAM.start + VRAM.size - 8 * m.min(3),
            // Unmapped, also with address bit 30 set (a location register reaches 0x7FFF_FFF8):
            // a hang reports the whole address.
            _ => self.pick(&[
                0,
                0x1000_0000,
                VRAM.start + VRAM.size,
                0x3000_0000,
                0x4000_0000,
                0x7FFF_F000,
            ]),
        }
    }

    fn layout(&mut self, force_edge: bool) -> (Layout, bool) {
        let block32 = self.chance(45);
        let (width, height) = self.dims(block32);
        let color_fmt = self.color_format();
        let depth_fmt = self.depth_format();
        let csize = width * height * color_bpp(color_fmt).max(4);
        let dsize = width * height * depth_bpp(depth_fmt).max(4);
        let edge = force_edge || self.chance(8);
        let color_base = self.base_normal();
        let mut depth_base = match self.below(100) {
            0..=59 => color_base + csize.div_ceil(8) * 8 + 8 * self.below(16),
            60..=64 => color_base,
            65..=69 => color_base + 8 * self.below((csize / 8).max(1)),
            _ => self.base_normal(),
        };
        let mut color_base = color_base;
        // The fast path's layout (pica_fop_pipe: RGBA8, D24S8, the depth buffer past the colour
        // buffer's extent, pad(height) * pad(width) pixels of 4 bytes, pad rounding up to the
        // block).
        self.fast_layout = self.focus == Focus::None && !edge && self.fast_percent() < 35;
        let (mut width, mut height) = (width, height);
        let (color_fmt, depth_fmt) = if self.fast_layout {
            // Fourth stream: a large framebuffer (2^17 to 2^19 pixels of 4 bytes, up to 2 MiB a
            // buffer) in VRAM or in FCRAM past 8 MiB (address bit 23): pixel indices past
            // 4,095 and row offsets past 2^17, which 64 x 64 never reaches (#45 and #55 of the
            // sample of pica_fop_pipe's new controller: bits of the fast path's pixel index and
            // of its address unit's row offset).
            if self.big_below(100) < 6 {
                (width, height) = match self.big_below(4) {
                    0 => (512, 512),
                    1 => (1024, 256),
                    2 => (8 * (40 + self.big_below(88) as u32), 512),
                    _ => (768, 8 * (24 + self.big_below(40) as u32)),
                };
                // A buffer's padded extent (to 32 x 32 blocks at most), and a gap.
                let bytes = width.div_ceil(32) * 32 * height.div_ceil(32) * 32 * 4 + 0x1_0000;
                color_base = if self.big_below(2) == 0 {
                    VRAM.start + 8 * self.big_below(u64::from(VRAM.size - 2 * bytes) / 8) as u32
                } else {
                    FCRAM.start + 0x80_0000 + 8 * self.big_below(0x80_0000 / 8) as u32
                };
            }
            let b = if block32 { 32 } else { 8 };
            let span = height.div_ceil(b) * b * width.div_ceil(b) * b * 4;
            let gap = 8 * (self.fast_percent() as u32 % 16);
            depth_base = color_base + span + gap;
            // Third stream: the colour buffer's extent runs past the end of VRAM or FCRAM
            // (the depth buffer before it, mapped), or across 0x8000_0000 (both unmapped): the
            // fast path's hangs, with addresses at or above 2^31 (#30 of pica_fop_pipe's
            // sample: the hang address's bit 31; no fast-path case hung before).
            if self.extra_below(100) < 8 {
                let m = 1 + self.extra_below(u64::from(span / 8).max(1)) as u32;
                match self.extra_below(3) {
                    0 => color_base = VRAM.start + VRAM.size - 8 * m,
                    1 => color_base = FCRAM.start + FCRAM.size - 8 * m,
                    _ => color_base = 0x8000_0000 - 8 * m,
                }
                depth_base = if color_base < 0x8000_0000 - span {
                    color_base - span - gap
                } else {
                    color_base + span + gap
                };
            }
            (0, 3)
        } else {
            (color_fmt, depth_fmt)
        };
        if edge {
            match self.below(3) {
                0 => color_base = self.base_edge(csize),
                1 => depth_base = self.base_edge(dsize),
                _ => {
                    color_base = self.base_edge(csize);
                    depth_base = color_base.wrapping_add(csize.div_ceil(8) * 8);
                }
            }
        }
        (
            Layout {
                color_base,
                depth_base,
                width,
                height,
                block32,
                color_fmt,
                depth_fmt,
            },
            edge,
        )
    }

    /// The value of configuration slot `slot` ([`CONFIG_REGS`] order) for `lay`.
    fn slot_value(&mut self, slot: usize, lay: &Layout) -> u32 {
        let junk = self.chance(8);
        let r = CONFIG_REGS[slot];
        if let Some(v) = self.focus_slot_value(r) {
            return v;
        }
        let mut v = match r {
            id::COLOR_OPERATION => {
                let mode = match self.below(100) {
                    0..=59 => 0,
                    60..=73 => 1,
                    74..=89 => 3,
                    _ => 2,
                };
                // Gas and shadow are not the fast path's.
                let mode = if self.fast_layout && (mode == 1 || mode == 3) {
                    0
                } else {
                    mode
                };
                let blend = u32::from(self.chance(55));
                mode | blend << 8 | 0xE4 << 16
            }
            id::BLEND_FUNC => {
                let mut f = || {
                    if self.chance(25) {
                        7
                    } else {
                        self.below(16)
                    }
                };
                let (rs, rd, a_s, ad) = (f(), f(), f(), f());
                self.below(8) | self.below(8) << 8 | rs << 16 | rd << 20 | a_s << 24 | ad << 28
            }
            id::LOGIC_OP => self.below(16),
            id::BLEND_COLOR => u32::from_le_bytes(self.color()),
            id::FRAGOP_ALPHA_TEST => {
                u32::from(self.chance(40)) | self.below(8) << 4 | u32::from(self.channel()) << 8
            }
            id::STENCIL_TEST => {
                let wmask = if self.chance(50) {
                    0xFF
                } else {
                    self.below(256)
                };
                let mask = if self.chance(50) {
                    0xFF
                } else {
                    self.below(256)
                };
                u32::from(self.chance(55))
                    | self.below(8) << 4
                    | wmask << 8
                    | u32::from(self.channel()) << 16
                    | mask << 24
            }
            id::STENCIL_OP => self.below(8) | self.below(8) << 4 | self.below(8) << 8,
            id::DEPTH_COLOR_MASK => {
                let cmask = if self.chance(50) { 0xF } else { self.below(16) };
                u32::from(self.chance(65))
                    | self.below(8) << 4
                    | cmask << 8
                    | u32::from(self.chance(65)) << 12
            }
            id::COLORBUFFER_READ | id::COLORBUFFER_WRITE => match self.below(100) {
                0..=64 => 0xF,
                65..=84 => 0,
                _ => 1 + self.below(15),
            },
            id::DEPTHBUFFER_READ | id::DEPTHBUFFER_WRITE => {
                if self.chance(55) {
                    3
                } else {
                    self.below(4)
                }
            }
            id::DEPTHBUFFER_FORMAT => lay.depth_fmt,
            id::COLORBUFFER_FORMAT => {
                let size = match lay.color_fmt {
                    0 => 2,
                    1 => 1,
                    _ => 0,
                };
                let size = if self.chance(10) { self.below(4) } else { size };
                lay.color_fmt << 16 | size
            }
            id::FRAMEBUFFER_BLOCK32 => u32::from(lay.block32),
            id::DEPTHBUFFER_LOC => lay.depth_base >> 3,
            id::COLORBUFFER_LOC => lay.color_base >> 3,
            id::FRAMEBUFFER_DIM => lay.width | (lay.height.max(1) - 1) << 12 | 1 << 24,
            id::GAS_DELTAZ_DEPTH => {
                let k = match self.below(8) {
                    0 => 0,
                    1 => 0x100,
                    2 => 0x80,
                    3 => 0x200,
                    4 => 0xFF_FFFF,
                    5 => self.below(0x1000),
                    _ => self.next_u32() & 0xFF_FFFF,
                };
                k | self.below(4) << 24
            }
            id::FRAGOP_SHADOW => self.f16() | self.f16() << 16,
            _ => 0,
        };
        if junk {
            // Bits no field FOP reads uses: the RTL must ignore them as the model does.
            let unused: u32 = match r {
                id::COLOR_OPERATION => 0xFC00_FEFC,
                id::BLEND_FUNC => 0x0000_F8F8,
                id::LOGIC_OP => 0xFFFF_FFF0,
                id::FRAGOP_ALPHA_TEST => 0xFFFF_008E,
                id::STENCIL_TEST => 0x0000_008E,
                id::STENCIL_OP => 0xFFFF_F888,
                id::DEPTH_COLOR_MASK => 0xFFFF_E08E,
                id::COLORBUFFER_READ | id::COLORBUFFER_WRITE => 0xFFFF_FFF0,
                id::DEPTHBUFFER_READ | id::DEPTHBUFFER_WRITE => 0xFFFF_FFFC,
                id::DEPTHBUFFER_FORMAT => 0xFFFF_FFFC,
                id::COLORBUFFER_FORMAT => 0xFFF8_FFFC,
                id::FRAMEBUFFER_BLOCK32 => 0xFFFF_FFFE,
                id::DEPTHBUFFER_LOC | id::COLORBUFFER_LOC => 0xF000_0000,
                id::FRAMEBUFFER_DIM => 0xFFC0_0800,
                id::GAS_DELTAZ_DEPTH => 0xFC00_0000,
                _ => 0,
            };
            v |= self.next_u32() & unused;
        }
        v
    }

    /// The value of register `r` in a focused case (`None`: drawn as in any case): the
    /// fragment mode of the focus (mostly), colour reads and writes on, the alpha test mostly
    /// off, and the focus' own registers drawn for it.
    fn focus_slot_value(&mut self, r: u16) -> Option<u32> {
        let f = self.focus;
        let (mode, blend) = match f {
            Focus::None => return None,
            Focus::Shadow { .. } => (3, false),
            Focus::Gas { .. } => (1, false),
            Focus::Straddle => (0, false),
            Focus::Blend { .. } => (0, true),
        };
        match (f, r) {
            // Straddle: reads mostly off, writes on, the depth test off (the stored depth
            // reads 0), depth writes on.
            (Focus::Straddle, id::COLORBUFFER_READ | id::DEPTHBUFFER_READ) if self.chance(60) => {
                Some(0)
            }
            (Focus::Straddle, id::COLORBUFFER_WRITE) => Some(0xF),
            (Focus::Straddle, id::DEPTHBUFFER_WRITE) => Some(3),
            (Focus::Straddle, id::DEPTH_COLOR_MASK) => Some(self.below(0x1_0000) & !1 | 0x1000),
            // Blend: subtract, reverse subtract, min or max (where the products are compared),
            // factors whose products move in small steps: the source colour or its complement
            // (p = s · s or s · (255 - s)), or a constant colour / alpha that is often small
            // (p = s · k, q = d · k: steps of k); no depth or stencil test, every channel
            // written. Then a product a few units from the other exists for most destinations.
            (Focus::Blend { .. }, id::BLEND_FUNC) => {
                let mut eq = || 1 + self.below(4);
                let (rgb, alpha) = (eq(), eq());
                let mut src = || match self.below(5) {
                    0 | 1 => 2 + self.below(2),
                    2 => 10 + 2 * self.below(2),
                    _ => self.below(16),
                };
                let (rs, a_s) = (src(), src());
                let mut dst = || {
                    if self.chance(50) {
                        10 + 2 * self.below(2)
                    } else {
                        self.below(16)
                    }
                };
                let (rd, ad) = (dst(), dst());
                Some(rgb | alpha << 8 | rs << 16 | rd << 20 | a_s << 24 | ad << 28)
            }
            (Focus::Blend { .. }, id::BLEND_COLOR) if self.chance(50) => Some(u32::from_le_bytes(
                [0; 4].map(|_: u8| 1 + self.below(15) as u8),
            )),
            (Focus::Blend { .. }, id::DEPTH_COLOR_MASK) => Some(self.below(0x1_0000) & !1 | 0xF00),
            (Focus::Blend { .. }, id::STENCIL_TEST) => Some(0),
            (_, id::COLOR_OPERATION) if self.chance(90) => {
                Some(mode | u32::from(blend || self.chance(50)) << 8 | 0xE4 << 16)
            }
            (_, id::COLORBUFFER_READ | id::COLORBUFFER_WRITE) if self.chance(90) => Some(0xF),
            (_, id::FRAGOP_ALPHA_TEST) if self.chance(85) => Some(0),
            // Gas: depth reads on (a known stored depth), the green (depth density) mask on.
            (Focus::Gas { .. }, id::DEPTHBUFFER_READ) if self.chance(80) => Some(3),
            (Focus::Gas { .. }, id::DEPTH_COLOR_MASK) => Some(self.below(0x1_0000) | 0x200),
            (Focus::Gas { .. }, id::GAS_DELTAZ_DEPTH) => {
                let k = match self.below(10) {
                    // Bit 23 set: dz · k stays below 2^32 only for dz < 512.
                    0..=3 => 0x80_0000 | self.below(0x80_0000),
                    4 => 0xFF_FFFF,
                    5 | 6 => 1 << self.below(24),
                    // Small and odd: then dz · k can hit an exact boundary ([`gas_target`]).
                    7 => 1 + 2 * self.below(1024),
                    _ => self.next_u32() & 0xFF_FFFF,
                };
                Some(k | self.below(4) << 24)
            }
            (Focus::Shadow { .. }, id::FRAGOP_SHADOW) => Some(self.shadow_constants()),
            _ => None,
        }
    }

    /// A blend source colour over the destination `dst` whose products `p = s · sf` and
    /// `q = d · df` (`fop::ops::blend_factor` of the configuration `cfg`) differ by a small
    /// amount in every channel (mostly q a little above p): where subtract, min and max
    /// compare and cut them (pica_fop_blend.sv `blend_ch`). Alpha first: the colour channels'
    /// factors may read it.
    fn blend_target(&mut self, cfg: &[u32; NUM_CFG], dst: [u8; 4], mut src: [u8; 4]) -> [u8; 4] {
        let mut regs = RegFile::new();
        for (&r, &v) in CONFIG_REGS.iter().zip(cfg) {
            regs.write(r, v);
        }
        let b = FopConfig::from_regs(&regs).blend;
        for c in [3, 0, 1, 2] {
            let (sf, df) = if c == 3 {
                (b.alpha_src, b.alpha_dst)
            } else {
                (b.rgb_src, b.rgb_dst)
            };
            // p - q in -15..=3: subtract cuts at p < q (a wrap there saturates to 255), min and
            // max pick the other product within a few units.
            let delta = i64::from(self.below(19)) - 15;
            let mut best = (i64::MAX, src[c]);
            for s in 0..=255 {
                src[c] = s;
                let p = i64::from(s) * i64::from(blend_factor(sf, c, src, dst, b.constant));
                let q = i64::from(dst[c]) * i64::from(blend_factor(df, c, src, dst, b.constant));
                if (p - q - delta).abs() < best.0 {
                    best = ((p - q - delta).abs(), s);
                }
            }
            src[c] = best.1;
        }
        src
    }

    /// GPUREG_FRAGOP_SHADOW with both constants finite (C bits 0-15, L bits 16-31), drawn in
    /// the shapes a divisor `C + L · d / depth` takes: C a power of two and L = ±0 (an exact
    /// quotient s / C), bias + scale (C > 0 > L), both positive, C negative under a larger L
    /// (positive only for d near depth), and a subnormal on either side.
    fn shadow_constants(&mut self) -> u32 {
        let mant = |g: &mut Self| if g.chance(25) { 0 } else { g.below(1024) };
        // Sign, exponent field (1..=30) and mantissa of a normal f16.
        let f16 =
            |neg: bool, e: i32, m: u32| u32::from(neg) << 15 | (e.clamp(1, 30) as u32) << 10 | m;
        let ec = 15 + self.below(12) as i32 - 7;
        let (c, l) = match self.below(10) {
            // L tiny (a subnormal with a small mantissa): N = C · depth · 2^24 + a few units,
            // so the quotient sits just below s / C and the divider's last remainders are
            // within a few units of the divisor.
            0 | 6 => {
                let l = if self.chance(50) {
                    self.pick(&[0x0000, 0x8000])
                } else {
                    u32::from(self.chance(30)) << 15 | self.below(1024) >> self.below(11)
                };
                (f16(false, ec, 0), l)
            }
            1 | 2 => {
                let el = ec - self.below(8) as i32;
                (f16(false, ec, mant(self)), f16(true, el, mant(self)))
            }
            3 => {
                let el = ec + self.below(9) as i32 - 4;
                (f16(false, ec, mant(self)), f16(false, el, mant(self)))
            }
            4 => {
                let el = ec + 1 + self.below(3) as i32;
                (f16(true, ec, mant(self)), f16(false, el, mant(self)))
            }
            // Infinite L (C finite or +inf): the divisor is +inf for d > 0 and NaN for d = 0.
            7 | 8 => {
                let l = u32::from(self.chance(25)) << 15 | 0x7C00;
                let c = if self.chance(25) {
                    0x7C00
                } else {
                    f16(false, ec, mant(self))
                };
                (c, l)
            }
            _ => {
                let sub = u32::from(self.chance(30)) << 15 | self.below(1024);
                let normal = f16(false, ec, mant(self));
                if self.chance(50) {
                    (sub, normal)
                } else {
                    (normal, sub)
                }
            }
        };
        c | l << 16
    }

    /// A shadow fragment `(s, d)` in front of the stored depth `depth` whose penumbra
    /// `floor(s · depth · 2^24 / N)`, `N = C · depth · 2^24 + L · d · 2^24` (the model's exact
    /// integers, `fop::shadow::penumbra`), sits on a quotient boundary: `d` is the depth
    /// where `N` first reaches `s · depth · 2^24 / q` for a quotient `q` below `max_q` that
    /// some `d` reaches, moved by -1, 0 or +1. `None` when the constants are not finite or no
    /// such `d` exists.
    fn shadow_target(&mut self, constants: u32, depth: u32, max_q: u8) -> Option<(u8, u32)> {
        let (mc, sc) = f16_fixed(constants & 0xFFFF)?;
        let (ml, sl) = f16_fixed(constants >> 16)?;
        let depth = i128::from(depth);
        let (a, b) = ((mc * depth) << sc, ml << sl);
        let s = if self.chance(50) {
            255 - self.below(64)
        } else {
            1 + self.below(255)
        };
        let num = (i128::from(s) * depth) << 24;
        // N over d in 0..depth is monotonic: its extremes bound the quotients reached.
        let (n0, n1) = (a, a + b * (depth - 1));
        let (lo, hi) = (n0.min(n1), n0.max(n1));
        if hi <= 0 {
            return None;
        }
        if b == 0 {
            // L = ±0: the quotient is the same for every d.
            return Some((s as u8, self.below(depth as u32)));
        }
        let q_min = (num / hi).max(1);
        let q_max = (num / lo.max(1)).min(i128::from(max_q) - 1);
        if q_min > q_max {
            return None;
        }
        let q = q_min + i128::from(self.below((q_max - q_min + 1).min(1 << 20) as u32));
        // q · (a + b · d) >= num, the d closest to equality.
        let d = if b > 0 {
            div_ceil_i(num - q * a, q * b)
        } else {
            (q * a - num).div_euclid(-q * b)
        };
        let d = d + i128::from(self.below(3)) - 1;
        (0..depth).contains(&d).then_some((s as u8, d as u32))
    }

    /// A gas fragment `(rho, dz)` for the proportion `k` and depth function `func` whose depth
    /// density `(rho · F32) >> 32` sits on a boundary: `X32 = dz · k` is the closest product
    /// at or past `ceil(m · 2^32 / rho)` (less) or at or below `2^32 - ceil(m · 2^32 / rho)`
    /// (greater), `m < rho` (the model's `fop::gas::contributions`); for never and always a
    /// `dz` that keeps `X32` below 2^32 (an unsaturated weight). `dz` is moved by -1, 0 or +1.
    fn gas_target(&mut self, k: u32, func: u32) -> (u8, u32) {
        let k = u64::from(k.max(1));
        let one = 1u64 << 32;
        // With an odd k, most of the time: an odd X32 = dz · k that lies exactly on a boundary
        // of rho · F32 / 2^32, so the floor moves when X32 moves by one (less: F32 = X32 just
        // reaching j · 2^32 / rho; greater: F32 = 2^32 − X32 just below it). A slip in X32's
        // bit 0 survived 10,240 cases with the nearest dz alone (fop_mut.notes, gas_x32_q).
        // The cap: X32 = min(2^32, dz · k) with dz · k = 2^32 + 2^j exactly, where a slip in
        // bit j of the product decides the compare with 2^32 (fop_mut.notes, gas `w > 2^32`).
        if matches!(func, 2 | 3) && self.chance(40) {
            // Bits below k's lowest set bit cannot be hit exactly (2^32 + 2^j must be a
            // multiple of k).
            let tz = k.trailing_zeros().min(31);
            let j = tz + self.below(32 - tz);
            let w = one + (1u64 << j);
            if w % k == 0 && w / k <= u64::from(DEPTH_MASK) {
                return ((2 + self.below(254)) as u8, (w / k) as u32);
            }
        }
        if k & 1 == 1 && matches!(func, 2 | 3) && self.chance(70) {
            let r0 = self.below(254);
            for i in 0..254u32 {
                let rho = 2 + (r0 + i) % 254;
                for j in 1..rho {
                    let x = match func {
                        3 => (u64::from(j) * one).div_ceil(u64::from(rho)),
                        _ => one - u64::from(j) * one / u64::from(rho),
                    };
                    let dz = x / k;
                    if x % k == 0 && x & 1 == 1 && dz <= u64::from(DEPTH_MASK) {
                        return (rho as u8, dz as u32);
                    }
                }
            }
        }
        let rho = 2 + self.below(254);
        let t = (u64::from(1 + self.below(rho - 1)) * one).div_ceil(u64::from(rho));
        let dz = match func {
            3 => t.div_ceil(k),
            2 => (one - t) / k,
            _ => u64::from(self.next_u32()) % (one / k).max(1),
        };
        let dz = (dz + u64::from(self.below(3))).saturating_sub(1);
        // From the third stream (the draws above stay): dz · k just past 2^h for an h above
        // the cap (33-47), so that dropping bit h of the product (pica_fop_gas `w_o`, 48 bits)
        // leaves it below 2^32 and uncapped: `pica mutate --stage fop` #115 of pica_fop_pipe's
        // sample (product bit 37 tied to 0) survived 10,240 cases of random and 2^32 + 2^j
        // products.
        if matches!(func, 2 | 3) && self.extra_below(100) < 30 {
            let h = 33 + self.extra_below(15) as u32;
            let dz_h = (1u64 << h).div_ceil(k) + self.extra_below(2);
            if dz_h <= u64::from(DEPTH_MASK) {
                return (rho as u8, dz_h as u32);
            }
        }
        (rho as u8, dz.min(u64::from(DEPTH_MASK)) as u32)
    }

    /// A random configuration for `lay`: the [`CONFIG_REGS`] words in order.
    fn config(&mut self, lay: &Layout) -> [u32; NUM_CFG] {
        std::array::from_fn(|slot| self.slot_value(slot, lay))
    }

    /// A random configuration with a random layout: the [`CONFIG_REGS`] words in order.
    pub fn config_words(&mut self) -> [u32; NUM_CFG] {
        let (lay, _) = self.layout(false);
        self.config(&lay)
    }

    /// A changed layout: formats, tiling or size switched, the buffers where they were.
    fn mutate_layout(&mut self, lay: &Layout) -> Layout {
        let mut l = *lay;
        match self.below(4) {
            0 => l.color_fmt = self.color_format(),
            1 => l.depth_fmt = self.depth_format(),
            2 => l.block32 = !l.block32,
            _ => {
                let (w, h) = self.dims(l.block32);
                l.width = w.min(l.width.max(1));
                l.height = h.min(l.height);
            }
        }
        l
    }

    /// Pixels of `lay` whose colour or depth access is not wholly inside mapped memory.
    fn boundary_pixels(lay: &Layout) -> Vec<(u16, u16)> {
        let mut out = Vec::new();
        let (cb, db) = (color_bpp(lay.color_fmt), depth_bpp(lay.depth_fmt));
        if cb == 0 || db == 0 {
            return out;
        }
        for y in 0..lay.height {
            for x in 0..lay.width {
                let bad = |base: u32, bpp: u32| {
                    fb::pixel_offset(x, y, lay.width, lay.height, bpp, lay.block32)
                        .and_then(|o| base.checked_add(o))
                        .is_some_and(|a| Memory::region_of(a, bpp).is_none())
                };
                if bad(lay.color_base, cb) || bad(lay.depth_base, db) {
                    out.push((x as u16, y as u16));
                }
            }
        }
        out
    }

    /// Pixels of `lay` whose colour or depth access starts in a mapped word followed by an
    /// unmapped one (the last pixels before the end of a region): a write there that straddles
    /// must hang before its first word is written, and one that does not must not hang.
    fn end_pixels(lay: &Layout) -> Vec<(u16, u16)> {
        let mapped = |a: u32| Memory::region_of(a, 4).is_some();
        let mut out = Vec::new();
        for y in 0..lay.height {
            for x in 0..lay.width {
                let at_end = |base: u32, bpp: u32| {
                    fb::pixel_offset(x, y, lay.width, lay.height, bpp, lay.block32)
                        .and_then(|o| base.checked_add(o))
                        .is_some_and(|a| mapped(a & !3) && !mapped((a & !3).wrapping_add(4)))
                };
                let c = at_end(lay.color_base, color_bpp(lay.color_fmt));
                if c || at_end(lay.depth_base, depth_bpp(lay.depth_fmt)) {
                    out.push((x as u16, y as u16));
                }
            }
        }
        out
    }

    /// The pixels of [`FopGen::end_pixels`] whose 3-byte access straddles the end: it starts
    /// at byte 2 or 3 of the last mapped word, so its first word is mapped and its second is
    /// not. Only these tell a write that probes its second word first from one that does not
    /// (pica_fop.sv `probe_ds`, `probe_col`), and a second-word read error from a first-word
    /// one (the hang's kind and address).
    fn straddle_pixels(lay: &Layout) -> Vec<(u16, u16)> {
        let mapped = |a: u32| Memory::region_of(a, 4).is_some();
        let mut out = Vec::new();
        for y in 0..lay.height {
            for x in 0..lay.width {
                let straddles = |base: u32, bpp: u32| {
                    bpp == 3
                        && fb::pixel_offset(x, y, lay.width, lay.height, bpp, lay.block32)
                            .and_then(|o| base.checked_add(o))
                            .is_some_and(|a| {
                                a & 3 >= 2 && mapped(a & !3) && !mapped((a & !3).wrapping_add(4))
                            })
                };
                if straddles(lay.color_base, color_bpp(lay.color_fmt))
                    || straddles(lay.depth_base, depth_bpp(lay.depth_fmt))
                {
                    out.push((x as u16, y as u16));
                }
            }
        }
        out
    }

    /// A fragment for the configuration `cfg` of layout `lay`.
    fn fragment(
        &mut self,
        lay: &Layout,
        cfg: &[u32; NUM_CFG],
        hot: &[(u16, u16)],
        depths: &[u32],
    ) -> FopOp {
        let (w, h) = (lay.width.max(1), lay.height.max(1));
        let edge = |g: &mut Self, n: u32| -> u32 {
            let e = g.pick(&[0, 7, 8, 15, 16, 31, 32, 63]);
            if g.chance(50) {
                e.min(n - 1)
            } else {
                // Memory-row edges: y' = h - 1 - y.
                (n - 1).saturating_sub(e)
            }
        };
        // Straddle: most fragments at the pixels at the end of a region (any other pixel of
        // the buffer may lie beyond it and hang first).
        let aim = if self.focus == Focus::Straddle {
            93
        } else {
            45
        };
        let (x, y) = match self.below(100) {
            r if r < aim && !hot.is_empty() => self.pick(hot),
            0..=82 => (self.below(w) as u16, self.below(h) as u16),
            83..=92 => (edge(self, w) as u16, edge(self, h) as u16),
            93..=97 => {
                if self.chance(50) {
                    ((w + self.below(8)) as u16, self.below(h) as u16)
                } else {
                    (self.below(w) as u16, (h + self.below(8)) as u16)
                }
            }
            _ => (
                self.pick(&[0, 0xFFFF, 0x7FF, 0x800]),
                self.pick(&[0xFFFF, 0x400, 0x3FF]),
            ),
        };
        let depth = if !depths.is_empty() && self.chance(40) {
            self.pick(depths)
        } else {
            self.depth24()
        };
        let mut color = self.color();
        let alpha_ref = (cfg[4] >> 8) as u8;
        if self.chance(12) {
            color[3] = alpha_ref.wrapping_add(self.pick(&[0, 0, 1, 255]));
        }
        if self.chance(10) {
            color[1] = 0; // shadow mode: an opaque occluder
        }
        let mut depth = depth;
        // A focused case aims most fragments at a boundary of its datapath, while the
        // configuration is the focus' mode and the pixel still holds the fill; shadow and gas
        // also need a D24 depth format (the fragment depth is then the 24-bit depth their
        // datapath takes).
        let d24 = matches!(cfg[12] & 3, 2 | 3);
        if self.chance(80) {
            match self.focus {
                Focus::Shadow { fill } if d24 && cfg[0] & 3 == 3 => {
                    let stored = u32::from(fill) * 0x01_0101;
                    if let Some((s, d)) = self.shadow_target(cfg[19], stored, fill) {
                        (color[1], depth) = (s, d);
                    } else {
                        // Infinite or NaN constants: a depth that is a single bit (or 0), where
                        // inf · d is +inf or NaN by d's zero test alone (fop::shadow::penumbra;
                        // a zero test that ignored one bit of d survived, fop_mut.notes).
                        let d = match self.below(4) {
                            0 => 0,
                            _ => 1 << self.below(24),
                        };
                        if d < stored {
                            depth = d;
                        }
                    }
                }
                Focus::Gas { fill } if d24 && cfg[0] & 3 == 1 => {
                    let (k, func) = (cfg[18] & DEPTH_MASK, cfg[18] >> 24 & 3);
                    let (rho, dz) = self.gas_target(k, func);
                    // zs is 0 with depth reads off (DEPTHBUFFER_READ bit 1).
                    let zs = if cfg[10] & 2 != 0 {
                        u32::from(fill) * 0x01_0101
                    } else {
                        0
                    };
                    color[0] = rho;
                    depth = if zs >= dz && (self.chance(50) || zs + dz > DEPTH_MASK) {
                        zs - dz
                    } else {
                        (zs + dz).min(DEPTH_MASK)
                    };
                }
                Focus::Blend { fill } if cfg[0] & 0x103 == 0x100 => {
                    color = self.blend_target(cfg, [fill; 4], color);
                }
                _ => {}
            }
        }
        FopOp::Frag { x, y, depth, color }
    }

    /// A random case.
    pub fn case(&mut self) -> FopCase {
        // A fill byte near the top: a shadow pixel then holds a depth most fragments are in
        // front of and an intensity most penumbras are below.
        self.focus = match self.below(100) {
            0..=9 => Focus::Shadow {
                fill: self.pick(&[0xFF, 0xFF, 0xFE, 0xF1, 0xC6, 0x80]),
            },
            10..=15 => Focus::Gas {
                fill: self.below(255) as u8,
            },
            16..=20 => Focus::Straddle,
            21..=27 => Focus::Blend {
                fill: self.below(256) as u8,
            },
            _ => Focus::None,
        };
        let straddle = self.focus == Focus::Straddle;
        let (mut lay, mut edge) = self.layout(straddle);
        if straddle {
            if self.chance(70) {
                lay.color_fmt = 1;
            }
            if self.chance(70) {
                lay.depth_fmt = 2;
            }
            // A few more draws (3-byte formats) for a layout with a pixel that straddles the
            // end of a region: about a third of edge layouts end on a pixel boundary, and
            // with random bases 2,048 cases held about two such pixels (mutants of the probe
            // and of the second word's hang survived, fop_mut.notes).
            for _ in 0..6 {
                if !Self::straddle_pixels(&lay).is_empty() {
                    break;
                }
                (lay, edge) = self.layout(true);
                lay.color_fmt = 1;
                lay.depth_fmt = 2;
            }
        } else if self.focus != Focus::None && self.chance(90) {
            lay.color_fmt = 0;
            lay.depth_fmt = self.pick(&[2, 3]);
        }
        let mut cfg = self.config(&lay);
        let mut hot: Vec<(u16, u16)> = (0..1 + self.below(4))
            .map(|_| {
                (
                    self.below(lay.width.max(1)) as u16,
                    self.below(lay.height.max(1)) as u16,
                )
            })
            .collect();
        if edge {
            let b = Self::boundary_pixels(&lay);
            // Straddle: the pixels at the end of a region, not the ones wholly beyond it (a
            // fragment there hangs and ends the case).
            let e = if straddle {
                let p = Self::straddle_pixels(&lay);
                if p.is_empty() || self.chance(20) {
                    Self::end_pixels(&lay)
                } else {
                    p
                }
            } else {
                Vec::new()
            };
            let b = if e.is_empty() {
                b
            } else {
                hot.clear();
                e
            };
            for _ in 0..if straddle { 6 } else { 2 } {
                if !b.is_empty() {
                    hot.push(self.pick(&b));
                }
            }
        }
        let depths: Vec<u32> = (0..1 + self.below(3)).map(|_| self.depth24()).collect();
        let mut ops = Vec::new();
        // First block: every configuration register, in a random order, some written twice.
        let mut order: Vec<usize> = (0..NUM_CFG).collect();
        for i in (1..order.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            order.swap(i, j);
        }
        for slot in order {
            if self.chance(5) {
                let v = self.next_u32();
                ops.push(FopOp::Reg {
                    id: CONFIG_REGS[slot],
                    value: v,
                });
            }
            ops.push(FopOp::Reg {
                id: CONFIG_REGS[slot],
                value: cfg[slot],
            });
        }
        // Now and then every one-bit alias of every stored register, with random values,
        // right after the configuration: a write port whose ID compare ignores one bit takes
        // one of them (3% of fragments write a single alias, which left such a mutant alive
        // for 2,048 cases; fop_mut.notes, pica_fop_top.sv's ID compare).
        if self.chance(4) {
            for id in super::one_bit_aliases(&CONFIG_REGS) {
                let value = self.next_u32();
                ops.push(FopOp::Reg { id, value });
            }
        }
        let blocks = match self.below(20) {
            0..=9 => 1,
            10..=16 => 2,
            _ => 3,
        };
        for b in 0..blocks {
            if b > 0 {
                if self.chance(30) {
                    lay = self.mutate_layout(&lay);
                    for slot in [12, 13, 14, 17] {
                        let v = self.slot_value(slot, &lay);
                        if v != cfg[slot] {
                            cfg[slot] = v;
                            ops.push(FopOp::Reg {
                                id: CONFIG_REGS[slot],
                                value: v,
                            });
                        }
                    }
                }
                // Third stream: the depth buffer moves to the other memory region (VRAM <->
                // FCRAM), so cache lines are refilled under tags that differ in high bits
                // (#26 of pica_fop_pipe's mutation sample: a tag bit that a refill ORs in).
                if self.fast_layout && self.extra_below(100) < 25 {
                    let slot = CONFIG_REGS.iter().position(|&r| r == id::DEPTHBUFFER_LOC);
                    if let (Some(base), Some(slot)) = (self.other_region(&lay), slot) {
                        lay.depth_base = base;
                        cfg[slot] = base >> 3;
                        ops.push(FopOp::Reg {
                            id: id::DEPTHBUFFER_LOC,
                            value: cfg[slot],
                        });
                    }
                }
                for _ in 0..1 + self.below(4) {
                    let slot = self.pick(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 18, 19]);
                    cfg[slot] = self.slot_value(slot, &lay);
                    ops.push(FopOp::Reg {
                        id: CONFIG_REGS[slot],
                        value: cfg[slot],
                    });
                }
            }
            for _ in 0..1 + self.below(10) {
                if self.chance(3) {
                    let id = self.pick(&OTHER_IDS);
                    let bits = self.next_u64();
                    // Half of them one ID bit away from a stored register instead (the value's
                    // draw chooses, so the cases' random stream stays as it was).
                    let id = match bits & 1 {
                        1 => super::aliasing_id(&CONFIG_REGS, bits >> 1).unwrap_or(id),
                        _ => id,
                    };
                    ops.push(FopOp::Reg {
                        id,
                        value: (bits >> 32) as u32,
                    });
                }
                ops.push(self.fragment(&lay, &cfg, &hot, &depths));
            }
            // Third stream: a rasterizer's fragments, a rectangle in raster order once or
            // twice, so that a pipelined FOP hits its caches with every stage full and stalls
            // that way under output backpressure (#201 of pica_fop_pipe's sample: a bit of
            // the colour RAM's held word survived 10,240 cases of scattered hot pixels).
            if self.fast_layout && self.extra_below(100) < 40 {
                let span = self.span_fragments(&lay);
                ops.extend(span);
            }
            // Third stream, any layout: 2-6 fragments in a row on one hot pixel, each reading
            // the word the one before it writes while that write may still be in flight (a
            // memory port's same-word rule, a pipeline's same-pixel rule).
            if !hot.is_empty() && self.extra_below(100) < 30 {
                let (x, y) = hot[self.extra_below(hot.len() as u64) as usize];
                for _ in 0..2 + self.extra_below(5) {
                    ops.push(self.extra_fragment(x, y));
                }
            }
        }
        let images = self.images_for(&ops);
        self.focus = Focus::None;
        FopCase {
            ops,
            images,
            knobs: Default::default(),
        }
    }

    /// A depth-buffer base in the memory region other than both buffers' (None when they
    /// are in different regions already: a second move could land on the colour buffer).
    fn other_region(&mut self, lay: &Layout) -> Option<u32> {
        let region = |a: u32| Memory::region_of(a, 4).map(|r| r.start);
        if region(lay.color_base) != region(lay.depth_base) {
            return None;
        }
        Some(if region(lay.depth_base) == Some(VRAM.start) {
            // Past the part of FCRAM base_normal draws from.
            FCRAM.start + 0x50_0000 + 8 * self.extra_below(0x10_0000 / 8) as u32
        } else {
            VRAM.start + 8 * self.extra_below(u64::from(VRAM.size - 0x10_0000) / 8) as u32
        })
    }

    /// Fragments over a rectangle of `lay` (2-16 by 1-8 pixels, at most 64) in raster order,
    /// once or twice, colours and depths from the third stream.
    fn span_fragments(&mut self, lay: &Layout) -> Vec<FopOp> {
        let (w, h) = (u64::from(lay.width.max(1)), u64::from(lay.height.max(1)));
        let rw = (2 + self.extra_below(15)).min(w);
        let rh = (1 + self.extra_below(8)).min(h).min((64 / rw).max(1));
        let x0 = self.extra_below(w - rw + 1);
        let y0 = self.extra_below(h - rh + 1);
        let mut out = Vec::new();
        for _ in 0..1 + self.extra_below(2) {
            for y in y0..y0 + rh {
                for x in x0..x0 + rw {
                    out.push(self.extra_fragment(x as u16, y as u16));
                }
            }
        }
        out
    }

    /// A fragment at (`x`, `y`) with a depth and a colour from the third stream.
    fn extra_fragment(&mut self, x: u16, y: u16) -> FopOp {
        let bits = splitmix64(&mut self.extra);
        FopOp::Frag {
            x,
            y,
            depth: (bits as u32) & DEPTH_MASK,
            color: ((bits >> 32) as u32).to_le_bytes(),
        }
    }

    /// Memory images covering the colour and depth buffer of every configuration a fragment
    /// of `ops` meets, clipped to mapped memory, filled with random words.
    fn images_for(&mut self, ops: &[FopOp]) -> Vec<MemImage> {
        let ranges = buffer_ranges(ops);
        let mut out = Vec::new();
        for (start, end) in ranges {
            let n = ((end - start) / 4) as usize;
            let fill = match self.focus {
                Focus::Shadow { fill } | Focus::Gas { fill } | Focus::Blend { fill } => {
                    Some(u32::from(fill))
                }
                Focus::None | Focus::Straddle => None,
            };
            // A focused case's fill: every byte the same, so every pixel of every format and
            // tiling decodes to a value the fragments were solved against.
            let words: Vec<u32> = match (fill, self.below(10)) {
                (Some(f), _) => vec![f * 0x0101_0101; n],
                (None, 0) => vec![0; n],
                (None, 1) => vec![0xFFFF_FFFF; n],
                (None, 2) => {
                    let w = self.next_u32();
                    vec![w; n]
                }
                (None, _) => (0..n).map(|_| self.next_u32()).collect(),
            };
            out.push(MemImage {
                base: start as u32,
                words,
            });
        }
        out
    }
}

/// The byte ranges `[start, end)` (4-aligned, inside mapped memory, merged when they overlap
/// or lie within 4 KiB of each other inside one region) of the colour and depth buffers of
/// every configuration a fragment of `ops` meets.
pub fn buffer_ranges(ops: &[FopOp]) -> Vec<(u64, u64)> {
    let mut regs = RegFile::new();
    let mut layouts: Vec<FbLayout> = Vec::new();
    for op in ops {
        match *op {
            FopOp::Reg { id, value } => {
                regs.write(id & ID_MASK, value);
            }
            FopOp::Frag { .. } => {
                let l = FbLayout::from_regs(&regs);
                if !layouts.contains(&l) {
                    layouts.push(l);
                }
            }
        }
    }
    let mut raw: Vec<(u64, u64)> = Vec::new();
    for l in &layouts {
        let bufs = [
            (
                l.color_base,
                l.color_format.ok().map(|f| f.bytes_per_pixel()),
            ),
            (
                l.depth_base,
                l.depth_format.ok().map(|f| f.bytes_per_pixel()),
            ),
        ];
        for (base, bpp) in bufs {
            let Some(bpp) = bpp else { continue };
            let mut max_off = None::<u32>;
            for y in 0..l.height {
                for x in 0..l.width {
                    if let Some(o) = fb::pixel_offset(x, y, l.width, l.height, bpp, l.block32) {
                        max_off = Some(max_off.map_or(o, |m| m.max(o)));
                    }
                }
            }
            let Some(max_off) = max_off else { continue };
            let start = u64::from(base) & !3;
            let end = (u64::from(base) + u64::from(max_off) + u64::from(bpp) + 3) & !3;
            raw.push((start, end));
        }
    }
    // Clip to each mapped region, then merge within a region.
    let mut clipped: Vec<(u64, u64)> = Vec::new();
    for (s, e) in raw {
        for r in REGIONS {
            let (rs, re) = (u64::from(r.start), u64::from(r.start) + u64::from(r.size));
            let (cs, ce) = (s.max(rs), e.min(re));
            if cs < ce {
                clipped.push((cs, ce));
            }
        }
    }
    clipped.sort_unstable();
    let region_of = |a: u64| REGIONS.iter().position(|r| r.contains(a as u32, 1));
    let mut merged: Vec<(u64, u64)> = Vec::new();
    for (s, e) in clipped {
        if let Some(last) = merged.last_mut() {
            if s <= last.1 + 4096 && region_of(s) == region_of(last.0) {
                last.1 = last.1.max(e);
                continue;
            }
        }
        merged.push((s, e));
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use pica_model::chan::Payload;

    #[test]
    fn fop_op_hex_lines_round_trip() {
        let ops = [
            FopOp::Reg {
                id: 0x11E,
                value: 0x0100_F020,
            },
            FopOp::Frag {
                x: 0xFFFF,
                y: 3,
                depth: 0xAB_CDEF,
                color: [1, 2, 3, 4],
            },
        ];
        assert_eq!(ops[0].hex_line(), "000000000000011e0100f020");
        assert_eq!(ops[1].hex_line(), "01ffff0003abcdef04030201");
        for op in ops {
            assert_eq!(FopOp::parse_hex_line(&op.hex_line()), Some(op));
        }
        assert_eq!(FopOp::parse_hex_line("020000000000000000000000"), None);
    }

    #[test]
    fn fop_gen_is_deterministic_and_images_are_mapped() {
        let a = FopGen::new(7).case();
        let b = FopGen::new(7).case();
        assert_eq!(a, b);
        let mut g = FopGen::new(1);
        for _ in 0..300 {
            let c = g.case();
            assert!(c.fragments() > 0);
            for im in &c.images {
                assert_eq!(im.base % 4, 0);
                let len = 4 * im.words.len() as u32;
                assert!(Memory::region_of(im.base, len).is_some(), "{im:?}");
            }
        }
    }

    #[test]
    fn fop_pixel_lines_round_trip() {
        let mut g = FopGen::new(3);
        let mut n = 0;
        for _ in 0..50 {
            let run = run_model(&g.case());
            for b in &run.beats {
                assert_eq!(parse_pixel_line(&b.hex_line()), Some(*b));
                n += 1;
            }
        }
        assert!(n > 100);
    }
}

#[cfg(test)]
mod coverage {
    use super::*;
    use pica_model::beat::PixelBeat;
    use std::collections::BTreeMap;

    /// Every field value FOP reads turns up at a fragment within the first 2,000 cases of a
    /// seed, and the outcomes the RTL must reproduce all occur.
    /// The arms added for mutants that random cases left alive (fop_mut.notes): straddling
    /// pixels at a region's end hang with their first word mapped, for each buffer and for
    /// reads and writes; alias storms write every one-bit alias of the stored IDs.
    #[test]
    fn fop_gen_reaches_straddles_and_alias_storms() {
        let mut g = FopGen::new(0xF0F0_0002);
        let mut straddles = BTreeMap::new();
        let mut storms = 0;
        for _ in 0..3000 {
            let case = g.case();
            let aliases = case
                .ops
                .iter()
                .filter(|op| matches!(op, FopOp::Reg { id, .. } if !CONFIG_REGS.contains(id)))
                .count();
            if aliases >= 100 {
                storms += 1;
            }
            let run = run_model(&case);
            if let Some(FopHang::Unmapped { buffer, addr }) = run.hang {
                let first_mapped = Memory::region_of(addr & !3, 4).is_some();
                if addr & 3 >= 2 && first_mapped {
                    *straddles.entry(buffer).or_insert(0) += 1;
                }
            }
        }
        assert!(storms >= 40, "{storms} alias storms");
        for b in ["color", "depth"] {
            assert!(
                straddles.get(b).copied().unwrap_or(0) >= 10,
                "{straddles:?}"
            );
        }
    }

    #[test]
    fn fop_gen_covers_every_field_value_and_outcome() {
        let mut g = FopGen::new(0xF0F0_0001);
        let mut seen: BTreeMap<&str, [bool; 16]> = BTreeMap::new();
        let mut mark = |k: &'static str, v: u32| {
            seen.entry(k).or_insert([false; 16])[(v & 15) as usize] = true;
        };
        let want: &[(&str, u32)] = &[
            ("color_fmt", 8),
            ("depth_fmt", 4),
            ("frag_mode", 4),
            ("blend_mode", 2),
            ("rgb_eq", 8),
            ("alpha_eq", 8),
            ("rgb_src", 16),
            ("rgb_dst", 16),
            ("alpha_src", 16),
            ("alpha_dst", 16),
            ("logic_op", 16),
            ("alpha_test", 2),
            ("alpha_func", 8),
            ("stencil_test", 2),
            ("stencil_func", 8),
            ("stencil_fail", 8),
            ("stencil_zfail", 8),
            ("stencil_zpass", 8),
            ("depth_test", 2),
            ("depth_func", 8),
            ("depth_write", 2),
            ("color_mask_r", 2),
            ("color_mask_a", 2),
            ("color_read", 2),
            ("color_write", 2),
            ("ds_read", 4),
            ("ds_write", 4),
            ("block32", 2),
            ("gas_func", 4),
            ("shadow_c_class", 5),
            ("shadow_l_class", 5),
            ("outcome", 7),
        ];
        // f16 class: 0 finite positive, 1 finite negative, 2 zero, 3 infinity, 4 NaN.
        let class = |h: u32| -> u32 {
            let (e, m, s) = ((h >> 10) & 31, h & 0x3FF, h >> 15 & 1);
            match (e, m) {
                (31, 0) => 3,
                (31, _) => 4,
                (0, 0) => 2,
                _ => s,
            }
        };
        let (mut frags, mut hangs, mut cases, mut images) = (0, 0, 0, 0usize);
        for _ in 0..2000 {
            let case = g.case();
            cases += 1;
            images += case.images.len();
            let mut regs = RegFile::new();
            for op in &case.ops {
                match *op {
                    FopOp::Reg { id, value } => {
                        regs.write(id, value);
                    }
                    FopOp::Frag { .. } => {
                        frags += 1;
                        let w = pica_model::fop::config_words(&regs);
                        mark("color_fmt", w[13] >> 16 & 7);
                        mark("depth_fmt", w[12] & 3);
                        mark("frag_mode", w[0] & 3);
                        mark("blend_mode", w[0] >> 8 & 1);
                        mark("rgb_eq", w[1] & 7);
                        mark("alpha_eq", w[1] >> 8 & 7);
                        mark("rgb_src", w[1] >> 16 & 15);
                        mark("rgb_dst", w[1] >> 20 & 15);
                        mark("alpha_src", w[1] >> 24 & 15);
                        mark("alpha_dst", w[1] >> 28 & 15);
                        mark("logic_op", w[2] & 15);
                        mark("alpha_test", w[4] & 1);
                        mark("alpha_func", w[4] >> 4 & 7);
                        mark("stencil_test", w[5] & 1);
                        mark("stencil_func", w[5] >> 4 & 7);
                        mark("stencil_fail", w[6] & 7);
                        mark("stencil_zfail", w[6] >> 4 & 7);
                        mark("stencil_zpass", w[6] >> 8 & 7);
                        mark("depth_test", w[7] & 1);
                        mark("depth_func", w[7] >> 4 & 7);
                        mark("color_mask_r", w[7] >> 8 & 1);
                        mark("color_mask_a", w[7] >> 11 & 1);
                        mark("depth_write", w[7] >> 12 & 1);
                        mark("color_read", u32::from(w[8] & 15 != 0));
                        mark("color_write", u32::from(w[9] & 15 != 0));
                        mark("ds_read", w[10] & 3);
                        mark("ds_write", w[11] & 3);
                        mark("block32", w[14] & 1);
                        mark("gas_func", w[18] >> 24 & 3);
                        mark("shadow_c_class", class(w[19] & 0xFFFF));
                        mark("shadow_l_class", class(w[19] >> 16));
                    }
                }
            }
            let run = run_model(&case);
            // Outcome classes: 0 written, 1 discarded by a test, 2 outside, 3 unmapped colour,
            // 4 unmapped depth, 5 reserved colour, 6 reserved depth.
            for b in &run.beats {
                if b.flags & PixelBeat::DISCARDED == 0 {
                    mark("outcome", 0);
                } else if b.color_addr == 0 && b.depth_addr == 0 {
                    mark("outcome", 2);
                } else {
                    mark("outcome", 1);
                }
            }
            if let Some(h) = &run.hang {
                hangs += 1;
                let (kind, buf, _, _) = hang_code(h);
                mark("outcome", 1 + 2 * u32::from(kind) + u32::from(buf));
            }
        }
        for (k, n) in want {
            let s = seen.get(k).copied().unwrap_or([false; 16]);
            let missing: Vec<usize> = (0..*n as usize).filter(|&i| !s[i]).collect();
            assert!(
                missing.is_empty(),
                "{k}: values {missing:?} never generated"
            );
        }
        eprintln!("{cases} cases, {frags} fragments, {hangs} hangs, {images} images");
        assert!(hangs * 4 < cases, "too many cases hang: {hangs} of {cases}");
    }
}
