//! `pica fuzz --target fop`: random configurations, framebuffers and fragment streams on the
//! fragment operations, shrunk on failure and saved as FOP stage bundles
//! (`pica_vectors::stage_fop`).
//!
//! Case `i` of seed `S` is [`generate`]`(`[`case_seed`](crate::fuzz::report::case_seed)`(S, i))`, the FOP stage generator
//! (`pica_vectors::stage_fop::FopGen`): configurations over every field FOP reads (reserved
//! formats, fragment mode 2, blend equations 5-7 and factor 15, gas and shadow modes with edge
//! f16 constants, read / write enables, junk bits), small framebuffers in both tilings and every
//! format, fragments that hit a few pixels again and again, tile and block edges, some outside
//! the framebuffer, buffers across the end of VRAM / FCRAM or in unmapped memory, one to three
//! configurations per case, and memory images over every buffer a fragment meets.
//!
//! - **With RTL** (`--rtl`): the Verilated `pica_fop_top` ([`RtlFop`], `--variant`, its memory
//!   port answered with `--mem-latency`) takes every register write of the case through its
//!   write port (as the replay testbench does) and the fragments under a pseudo-random output
//!   backpressure; every pixel beat (all fields but `cycle`), the hang and every memory byte
//!   must equal the model's ([`run_model`]), and the bridge must have seen no protocol breach.
//! - **Without RTL** ([`check_model`]): the model checks itself fragment by fragment: the beat
//!   names the fragment's pixel; a fragment outside the framebuffer has addresses 0 and only
//!   DISCARDED and changes no byte; the flags agree with the fragment mode and the
//!   configuration (no colour write on a discarded fragment, a colour write exactly when
//!   allowed and not discarded, no depth or stencil write in gas and shadow mode, a stencil
//!   write only with a D24S8 buffer and the stencil test on, a depth write only when enabled);
//!   only the bytes of the pixels the flags say were written change, and the stored bits the
//!   beat reports are what memory holds there afterwards; the access that hangs changes no
//!   byte (a colour hang in default mode may follow the fragment's own depth-stencil write,
//!   which comes first). Then the case's stage bundle is written and read back (SHA-256,
//!   formats): same operations, images, beats, outcome and final memory.
//!
//! A failure is shrunk by the campaign's loop over [`shrink_steps`]: fewest fragments, then fewest register writes, then
//! simpler values (fragment at 0, 0, depth 0, colours and channels 0, register nibbles and bits
//! cleared, memory image words zeroed), until nothing more goes; its images are then made to
//! cover exactly the buffers its configurations use, and it is written as
//! `fuzz-fop-<model|variant>-<case seed>/`.

use crate::fuzz::campaign::{self, impl_stage_target, ShrinkStep, Shrinker};
use crate::fuzz::report::FuzzReport;
use pica_model::beat::PixelBeat;
use pica_model::fop::fb;
use pica_model::fop::{process_fragment, FopConfig, FopHang};
use pica_model::mem::Memory;
use pica_model::regfile::RegFile;
use pica_model::regs::ColorOperationFragmentMode;
use pica_rtl_bridge::coverage::{CoverageSink, Gathered};
use pica_rtl_bridge::fop_stage::{FopFragment, FopResult, FopVariant, MemLatency, Reorder, RtlFop};
use pica_vectors::case::MemImage;
use pica_vectors::stage::StageProvenance;
use pica_vectors::stage_fop::{
    buffer_ranges, image_words, load_fop_bundle, model_fragment, run_model, write_fop_bundle,
    FopCase, FopGen, FopOp, FopRun,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Checks tried per shrink.
pub const MAX_SHRINK_CHECKS: usize = 6_000;

/// Parameters of a FOP fuzz campaign (the one stage-fuzz options type).
pub type FopFuzzOptions = campaign::TargetOptions<FopVariant>;

/// The stages whose knobs `--target fop` applies: the fragment operations only.
pub const STAGE_KNOBS: &[&str] = &["fop"];

/// Parses a FOP RTL variant name (`default`, `blend_factor`, ..., the full `inject_fop_…`
/// names or the defines; the list in the error is the description's).
pub fn parse_fop_variant(s: &str) -> Result<FopVariant, String> {
    FopVariant::from_name(s).ok_or_else(|| {
        format!(
            "unknown FOP RTL variant '{s}' (one of: {})",
            FopVariant::short_names()
        )
    })
}

/// The case of `case_seed`.
pub fn generate(case_seed: u64) -> FopCase {
    FopGen::new(case_seed).case()
}

/// Every byte address at which `a` and `b` differ (unallocated pages read as zero).
pub fn mem_diff(a: &Memory, b: &Memory) -> Vec<u32> {
    let pa: BTreeMap<u32, &[u8]> = a.pages().collect();
    let pb: BTreeMap<u32, &[u8]> = b.pages().collect();
    let mut keys: Vec<u32> = pa.keys().chain(pb.keys()).copied().collect();
    keys.sort_unstable();
    keys.dedup();
    let mut out = Vec::new();
    for k in keys {
        let (x, y) = (pa.get(&k).copied(), pb.get(&k).copied());
        let len = x.map_or(0, <[u8]>::len).max(y.map_or(0, <[u8]>::len));
        for i in 0..len {
            let ax = x.and_then(|p| p.get(i)).copied().unwrap_or(0);
            let bx = y.and_then(|p| p.get(i)).copied().unwrap_or(0);
            if ax != bx {
                out.push(k.wrapping_add(i as u32));
            }
        }
    }
    out
}

/// The model's self-check of `case` (module docs): `Err` names what broke.
pub fn check_model(case: &FopCase) -> Result<(), String> {
    let mut regs = RegFile::new();
    regs.set_knobs(case.knobs);
    regs.set_record_beats(false);
    let mut mem = case.memory();
    let mut index = 0u64;
    for op in &case.ops {
        let (x, y, depth, color) = match *op {
            FopOp::Reg { id, value } => {
                regs.write(id & 0x3FF, value);
                continue;
            }
            FopOp::Frag { x, y, depth, color } => (x, y, depth, color),
        };
        let at = format!("fragment {index} (x {x}, y {y})");
        let cfg = FopConfig::from_regs(&regs);
        let before = mem.clone();
        let r = process_fragment(
            &cfg,
            &model_fragment(x, y, depth, color),
            color,
            &mut mem,
            index,
        );
        let changed = mem_diff(&before, &mem);
        let b = match r {
            Err(h) => {
                // The access that hangs changes nothing (the model checks a whole pixel access
                // before touching it). In default mode the depth-stencil write comes before
                // the colour access, so a colour hang may follow a depth-stencil write of
                // this fragment's own pixel — and nothing else.
                let ds = hang_may_follow_ds_write(&cfg, &h, u32::from(x), u32::from(y));
                if let Some(&a) = changed.iter().find(|a| !ds.contains(a)) {
                    return Err(format!("{at}: hang {h} after changing memory at 0x{a:08x}"));
                }
                break;
            }
            Ok(b) => b,
        };
        check_beat(&cfg, &b, &mem, &changed, (index, x, y)).map_err(|e| format!("{at}: {e}"))?;
        index += 1;
    }
    round_trip(case)
}

/// The bytes a fragment at `(x, y)` may have written before it hangs with `h`: its
/// depth-stencil pixel when the colour buffer hangs in the default fragment mode (the order of
/// `process_fragment`: depth-stencil read and write, then the colour read and write); none
/// otherwise.
fn hang_may_follow_ds_write(cfg: &FopConfig, h: &FopHang, x: u32, y: u32) -> std::ops::Range<u32> {
    use pica_model::regs::ColorOperationFragmentMode as Mode;
    let colour_hang = matches!(
        h,
        FopHang::Unmapped {
            buffer: "color",
            ..
        }
    );
    let default_mode = matches!(cfg.fragment_mode, Mode::Default | Mode::Reserved(_));
    match (
        colour_hang && default_mode,
        cfg.layout.depth_format,
        cfg.layout.depth_addr(x, y),
    ) {
        (true, Ok(fmt), Some(a)) => a..a.saturating_add(fmt.bytes_per_pixel()),
        _ => 0..0,
    }
}

/// The flag and memory rules for one beat (module docs).
fn check_beat(
    cfg: &FopConfig,
    b: &PixelBeat,
    mem: &Memory,
    changed: &[u32],
    (index, x, y): (u64, u16, u16),
) -> Result<(), String> {
    let has = |f: u8| b.flags & f != 0;
    if (b.cycle, b.x, b.y) != (index, x, y) {
        return Err(format!("beat names {:?}", (b.cycle, b.x, b.y)));
    }
    if b.flags & !0xF != 0 {
        return Err(format!("unknown flags 0x{:02x}", b.flags));
    }
    if u32::from(x) >= cfg.layout.width || u32::from(y) >= cfg.layout.height {
        // Outside the framebuffer: dropped without an access.
        if (b.color_addr, b.depth_addr, b.flags) != (0, 0, PixelBeat::DISCARDED) {
            return Err(format!(
                "outside the framebuffer but addresses 0x{:08x} 0x{:08x}, flags 0x{:02x}",
                b.color_addr, b.depth_addr, b.flags
            ));
        }
        if !changed.is_empty() {
            return Err("a fragment outside the framebuffer changed memory".into());
        }
        return Ok(());
    }
    let discarded = has(PixelBeat::DISCARDED);
    let special = matches!(
        cfg.fragment_mode,
        ColorOperationFragmentMode::Gas | ColorOperationFragmentMode::Shadow
    );
    if discarded && has(PixelBeat::COLOR_WRITTEN) {
        return Err("discarded and colour written".into());
    }
    if !discarded && has(PixelBeat::COLOR_WRITTEN) != cfg.color_write_allowed {
        return Err(format!(
            "colour written {} with COLORBUFFER_WRITE {}",
            has(PixelBeat::COLOR_WRITTEN),
            cfg.color_write_allowed
        ));
    }
    let ds_written = has(PixelBeat::DEPTH_WRITTEN) || has(PixelBeat::STENCIL_WRITTEN);
    if special && ds_written {
        return Err(format!(
            "depth/stencil written in fragment mode {:?}",
            cfg.fragment_mode
        ));
    }
    let d24s8 = cfg.layout.depth_format.is_ok_and(|f| f.has_stencil());
    if has(PixelBeat::STENCIL_WRITTEN) && !(d24s8 && cfg.stencil_test) {
        return Err("stencil written without a stencil buffer and test".into());
    }
    if has(PixelBeat::DEPTH_WRITTEN) && !(cfg.depth_write && cfg.depth_write_allowed) {
        return Err("depth written while depth writes are off".into());
    }
    // Only the written pixels' bytes change, and they hold what the beat says was stored.
    let c_len = cfg.layout.color_format.map_or(0, |f| f.bytes_per_pixel());
    let d_len = cfg.layout.depth_format.map_or(0, |f| f.bytes_per_pixel());
    let within = |a: u32, base: u32, len: u32| a.wrapping_sub(base) < len;
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    if has(PixelBeat::COLOR_WRITTEN) {
        ranges.push((b.color_addr, c_len));
    }
    if ds_written {
        ranges.push((b.depth_addr, d_len));
    }
    if let Some(a) = changed
        .iter()
        .find(|&&a| !ranges.iter().any(|&(base, len)| within(a, base, len)))
    {
        return Err(format!(
            "byte 0x{a:08x} changed outside the written pixels (flags 0x{:02x})",
            b.flags
        ));
    }
    let overlap = has(PixelBeat::COLOR_WRITTEN)
        && ds_written
        && (within(b.color_addr, b.depth_addr, d_len) || within(b.depth_addr, b.color_addr, c_len));
    let read = |addr: u32, len: u32| fb::read_pixel(mem, addr, len).ok();
    if has(PixelBeat::COLOR_WRITTEN) && read(b.color_addr, c_len) != Some(b.color) {
        return Err(format!(
            "colour 0x{:08x} reported written, memory holds {:?}",
            b.color,
            read(b.color_addr, c_len)
        ));
    }
    if ds_written && !overlap {
        let (stored, want) = match (
            has(PixelBeat::DEPTH_WRITTEN),
            has(PixelBeat::STENCIL_WRITTEN),
        ) {
            (true, true) => (read(b.depth_addr, d_len), b.depth_stencil),
            (true, false) => {
                let max = cfg.layout.depth_format.map_or(0, |f| f.depth_max());
                let bytes = cfg.layout.depth_format.map_or(0, |f| f.depth_bits() / 8);
                (read(b.depth_addr, bytes), b.depth_stencil & max)
            }
            _ => (read(b.depth_addr.wrapping_add(3), 1), b.depth_stencil >> 24),
        };
        if stored != Some(want) {
            return Err(format!(
                "depth-stencil 0x{:08x} reported written, memory holds {stored:?}",
                b.depth_stencil
            ));
        }
    }
    Ok(())
}

/// A hex-line round trip keeps 10 bits of an ID and 24 of a depth.
fn normalized(ops: &[FopOp]) -> Vec<FopOp> {
    ops.iter()
        .map(|o| match *o {
            FopOp::Reg { id, value } => FopOp::Reg {
                id: id & 0x3FF,
                value,
            },
            FopOp::Frag { x, y, depth, color } => FopOp::Frag {
                x,
                y,
                depth: depth & 0xFF_FFFF,
                color,
            },
        })
        .collect()
}

thread_local! {
    /// This thread's scratch directory for bundle round trips.
    static SCRATCH: PathBuf = std::env::temp_dir().join(format!(
        "pica-fop-fuzz-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ).replace(['(', ')'], ""));
}

/// Writes the case's stage bundle and reads it back: the same case and expectations.
fn round_trip(case: &FopCase) -> Result<(), String> {
    let dir = SCRATCH.with(Clone::clone);
    let prov = StageProvenance::default();
    write_fop_bundle(&dir, "self-check", "", case, &prov).map_err(|e| format!("bundle: {e}"))?;
    let (_, back, expected) = load_fop_bundle(&dir).map_err(|e| format!("bundle: {e}"))?;
    let _ = std::fs::remove_dir_all(&dir);
    if normalized(&back.ops) != normalized(&case.ops) || back.images != case.images {
        return Err("bundle: the operations or images read back differ".into());
    }
    let run = run_model(case);
    if expected.beats != run.beats || expected.hang != run.hang {
        return Err("bundle: the expected beats or outcome read back differ".into());
    }
    if image_words(&expected.mem, &case.images) != run.final_images(&case.images) {
        return Err("bundle: the final memory read back differs".into());
    }
    Ok(())
}

/// The tag [`run_rtl`] gives fragment `i` of a case: `i` times an odd constant (a bijection
/// on u32, so tags stay distinct), which sets high tag bits from the second fragment on.
pub fn tag_of(i: u32) -> u32 {
    i.wrapping_mul(0x9E37_79B9)
}

/// What the RTL did with a case.
#[derive(Debug)]
pub struct RtlRun {
    /// The pixel beats, in order (`cycle` = index).
    pub beats: Vec<PixelBeat>,
    /// The hang it reported.
    pub hang: Option<FopHang>,
    /// Memory afterwards.
    pub mem: Memory,
    /// Protocol breaches the bridge saw, and order or liveness problems.
    pub violations: Vec<String>,
}

/// The consumer's `ready` while fragments are fed: low about one clock in four, and with
/// probability 1/64 a clock starts a run of 3-12 clocks low. The runs fill the RTL's output
/// FIFO so that a pipelined FOP stalls with fragments in every stage (a hold path nothing
/// else reaches: `pica mutate --stage fop` #201 of pica_fop_pipe's sample, a bit of the
/// colour RAM's held word, survived 10,240 cases with single low clocks only).
pub(crate) struct OutReady {
    gen: FopGen,
    low_run: u32,
}

impl OutReady {
    pub(crate) fn new() -> Self {
        Self {
            gen: FopGen::new(0xF0_BAC4),
            low_run: 0,
        }
    }

    pub(crate) fn next(&mut self) -> bool {
        if self.low_run > 0 {
            self.low_run -= 1;
            return false;
        }
        let r = self.gen.below(256);
        if r < 4 {
            self.low_run = 2 + self.gen.below(10);
            return false;
        }
        r % 4 != 0
    }
}

/// Runs `case` on a new RTL stage of `variant` whose memory port answers with `latency`:
/// every register write through the write port, fragments fed as the input port allows,
/// output held not-ready about one clock in four and now and then for a run of clocks
/// ([`OutReady`]).
/// A coverage build's counters go to `cov`.
pub fn run_rtl(
    variant: FopVariant,
    latency: MemLatency,
    case: &FopCase,
    cov: Option<&CoverageSink>,
) -> Result<RtlRun, String> {
    run_rtl_reordered(variant, latency, Reorder::InOrder, case, cov)
}

/// [`run_rtl`] with the AXI4 memory port's responses reordered across IDs as `reorder` says.
pub fn run_rtl_reordered(
    variant: FopVariant,
    latency: MemLatency,
    reorder: Reorder,
    case: &FopCase,
    cov: Option<&CoverageSink>,
) -> Result<RtlRun, String> {
    let rtl = RtlFop::with_reorder(variant, latency, reorder).map_err(|e| e.to_string())?;
    let mut rtl = Gathered::new(rtl, cov);
    let mut mem = case.memory();
    rtl.set_config(&[0; pica_rtl_bridge::fop_stage::NUM_CFG], &mut mem);
    let mut ready = OutReady::new();
    let mut out: Vec<FopResult> = Vec::new();
    let mut violations = Vec::new();
    // Fragment i carries tag_of(i): every tag bit toggles across a case, so a slip in any
    // bit of the tag register shows (counting tags 0, 1, 2, ... would leave the high bits 0).
    let mut i = 0u32;
    'ops: for op in &case.ops {
        if rtl.hang().is_some() {
            break;
        }
        match *op {
            FopOp::Reg { id, value } => rtl.write_reg(id, value, &mut mem),
            FopOp::Frag { x, y, depth, color } => {
                rtl.push(FopFragment {
                    tag: tag_of(i),
                    x,
                    y,
                    depth,
                    color,
                });
                i += 1;
                let mut guard = 0;
                while !rtl.can_accept() && rtl.hang().is_none() {
                    if let Some(b) = rtl.tick(&mut mem, ready.next()) {
                        out.push(b);
                    }
                    guard += 1;
                    if guard > 20_000 {
                        violations.push("the input port never became ready".to_string());
                        break 'ops;
                    }
                }
            }
        }
    }
    let (rest, hang) = rtl.run(&[], &mut mem);
    out.extend(rest);
    violations.splice(0..0, rtl.violations().iter().cloned());
    if let Some((i, r)) = out
        .iter()
        .enumerate()
        .find(|(i, r)| r.tag != tag_of(*i as u32))
    {
        violations.push(format!("beat {i} carries tag {} (order lost)", r.tag));
    }
    Ok(RtlRun {
        beats: out
            .into_iter()
            .enumerate()
            .map(|(i, r)| PixelBeat {
                cycle: i as u64,
                ..r.beat
            })
            .collect(),
        hang,
        mem,
        violations,
    })
}

/// The fields of a pixel beat compared (all but `cycle`).
fn beat_fields(b: &PixelBeat) -> [(&'static str, u32); 7] {
    [
        ("x", u32::from(b.x)),
        ("y", u32::from(b.y)),
        ("color_addr", b.color_addr),
        ("color", b.color),
        ("depth_addr", b.depth_addr),
        ("depth_stencil", b.depth_stencil),
        ("flags", u32::from(b.flags)),
    ]
}

/// Compares an RTL run with the model's: `None` if equal, else the first difference (beat by
/// fragment and field, then the hang, then the first differing memory byte).
pub fn compare_rtl(model: &FopRun, rtl: &RtlRun) -> Option<String> {
    if let Some(v) = rtl.violations.first() {
        return Some(format!("protocol: {v}"));
    }
    for (i, (m, r)) in model.beats.iter().zip(&rtl.beats).enumerate() {
        if let Some(((f, mv), (_, rv))) = beat_fields(m)
            .into_iter()
            .zip(beat_fields(r))
            .find(|(a, b)| a.1 != b.1)
        {
            return Some(format!(
                "fragment {i} (x {}, y {}): field {f} expected 0x{mv:08x} actual 0x{rv:08x}",
                m.x, m.y
            ));
        }
    }
    if model.beats.len() != rtl.beats.len() {
        return Some(format!(
            "{} pixel beats expected, {} actual",
            model.beats.len(),
            rtl.beats.len()
        ));
    }
    if model.hang != rtl.hang {
        return Some(format!(
            "hang: expected {:?}, actual {:?}",
            model.hang, rtl.hang
        ));
    }
    let d = mem_diff(&model.mem, &rtl.mem);
    d.first().map(|&a| {
        let byte = |m: &Memory| m.read_u8(a).unwrap_or(0);
        format!(
            "memory 0x{a:08x}: expected 0x{:02x} actual 0x{:02x} ({} byte(s) differ)",
            byte(&model.mem),
            byte(&rtl.mem),
            d.len()
        )
    })
}

/// Checks one case: `Err(message)` if it fails.
/// A coverage build's counters go to `cov`.
pub fn check(
    case: &FopCase,
    rtl: Option<FopVariant>,
    latency: MemLatency,
    reorder: Reorder,
    cov: Option<&CoverageSink>,
) -> Result<(), String> {
    match rtl {
        None => check_model(case).map_err(|e| format!("model: {e}")),
        Some(v) => {
            let got = run_rtl_reordered(v, latency, reorder, case, cov)?;
            compare_rtl(&run_model(case), &got).map_or(Ok(()), |d| {
                Err(format!(
                    "rtl ({}, latency {latency}, reorder {reorder}) differs: {d}",
                    v.name()
                ))
            })
        }
    }
}

/// `case` with images that cover exactly the buffers its configurations use
/// ([`buffer_ranges`]), filled from its current memory.
pub fn covering_images(case: &FopCase) -> FopCase {
    let mem = case.memory();
    let images: Vec<MemImage> = buffer_ranges(&case.ops)
        .into_iter()
        .map(|(s, e)| MemImage {
            base: s as u32,
            words: vec![0; ((e - s) / 4) as usize],
        })
        .collect();
    FopCase {
        ops: case.ops.clone(),
        images: image_words(&mem, &images),
        knobs: case.knobs,
    }
}

/// The shrink steps of a FOP case, run by the campaign's loop ([`campaign::shrink`]): round
/// after round until nothing more goes, fewest fragments, then fewest register writes, then
/// simpler values, then memory images zeroed; once after that, images covering exactly the
/// buffers used ([`covering_images`]).
pub fn shrink_steps<'t>() -> Vec<ShrinkStep<'t, FopCase>> {
    fn ops(c: &mut FopCase) -> &mut Vec<FopOp> {
        &mut c.ops
    }
    vec![
        ShrinkStep::drop_ops("fragments", ops, |o| matches!(o, FopOp::Frag { .. })),
        ShrinkStep::drop_ops("register writes", ops, |o| matches!(o, FopOp::Reg { .. })),
        ShrinkStep::each_round("values", simpler_values),
        ShrinkStep::each_round("memory images", |sh| {
            campaign::zero_images(sh, |c: &mut FopCase| &mut c.images)
        }),
        // Tried even when the rounds used the budget up: it only tidies the bundle.
        ShrinkStep::once("covering images", |sh| {
            let covered = covering_images(&sh.best);
            sh.attempt_unbudgeted(covered);
        }),
    ]
}

/// Simpler values, operation by operation: a register's nibbles, then bits; a fragment's
/// position, depth and colour, then each channel.
fn simpler_values(sh: &mut Shrinker<'_, FopCase>) {
    fn reg_value(c: &mut FopCase, k: usize) -> Option<&mut u32> {
        let FopOp::Reg { value, .. } = &mut c.ops[k] else {
            return None;
        };
        Some(value)
    }
    for k in 0..sh.best.ops.len() {
        if !sh.clear_reg_bits(k, reg_value) {
            (0..9).for_each(|step| {
                sh.attempt_with(|c| match (&mut c.ops[k], step) {
                    (FopOp::Frag { x, y, .. }, 0) => (*x, *y) = (0, 0),
                    (FopOp::Frag { x, .. }, 1) => *x = 0,
                    (FopOp::Frag { y, .. }, 2) => *y = 0,
                    (FopOp::Frag { depth, .. }, 3) => *depth = 0,
                    (FopOp::Frag { color, .. }, 4) => *color = [0; 4],
                    (FopOp::Frag { color, .. }, c) => color[c - 5] = 0,
                    (FopOp::Reg { .. }, _) => {}
                });
            });
        }
    }
}

/// The one-line summary of a case's size.
pub fn describe(case: &FopCase) -> String {
    format!(
        "{} fragment(s), {} register write(s)",
        case.fragments(),
        case.reg_writes()
    )
}

/// Writes `case` as a FOP stage bundle `dir/name` (the model's expectations); its directory.
pub fn save_bundle(
    case: &FopCase,
    dir: &Path,
    name: &str,
    description: &str,
    prov: &StageProvenance,
) -> Result<PathBuf, String> {
    campaign::bundle_at(dir, name, |out| {
        write_fop_bundle(out, name, description, case, prov)
    })
}

/// The FOP stage as a fuzz target ([`campaign::StageTarget`]: its generator,
/// verdict, shrink steps and bundle).
pub type FopTarget = campaign::SidePortTarget<FopVariant>;

impl_stage_target!(
    FopTarget,
    FopCase,
    "fop",
    fragments,
    [latency, reorder] + coverage,
    FopVariant::Coverage => pica_rtl_bridge::coverage::CoverageBuild::Fop,
    FOP, parse_fop_variant, RtlFop,
    |t| format!(", memory latency {}, reorder {}", t.latency, t.reorder)
);

/// Runs a campaign ([`campaign::run_stage`]); `progress` is called after each case with (done,
/// total for this shard, failures so far).
pub fn run(opts: &FopFuzzOptions, progress: impl FnMut(u64, u64, usize)) -> FuzzReport {
    campaign::run_stage(opts, progress)
}
