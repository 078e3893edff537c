//! `pica fuzz --target rast`: random register configurations, early-depth buffers and clip-space
//! triangles on CLIP + RAST, shrunk on failure and saved as RAST stage bundles
//! (`pica_vectors::stage_rast`).
//!
//! Case `i` of seed `S` is [`generate`]`(`[`case_seed`](crate::fuzz::report::case_seed)`(S, i))`, the
//! RAST stage generator (`pica_vectors::stage_rast::RastGen`): vertices on pixel centres and
//! corners (fill-rule ties on every edge orientation), degenerate, one-pixel and huge
//! triangles, triangles crossing every clip plane (w near zero and negative, ±inf and NaN
//! positions, clipped polygons of 8 and more vertices), window coordinates at and past the
//! ends of the 12.4 range, large w, flat and edge-valued attributes, random viewports, scissors, depth maps, culling, early-depth configurations
//! and clears, texture units on and off, an early-depth buffer that already holds values,
//! small framebuffers mostly.
//!
//! - **With RTL** (`--rtl`): the Verilated `pica_rast_top` ([`RtlRast`], `--variant`, its
//!   early-depth port answered with `--mem-latency`) starts from the case's early-depth buffer,
//!   takes every register write and clear through its write port while idle (as the replay
//!   testbench does) and the triangles as its input port allows, under a pseudo-random output
//!   backpressure; every fragment (every field, `tex_deriv` included, in order) and the
//!   early-depth buffer afterwards must equal the model's ([`run_model`]), and the bridge must
//!   have seen no protocol breach.
//! - **Without RTL** ([`check_model`]): the model checks itself. `run_model` must equal the
//!   triangles taken one by one ([`clip::process`], then [`rasterize`] per window-space
//!   triangle); the model's CLIP and RAST *stages* ticked cycle by cycle (links between them,
//!   register writes applied while they are idle, clears as trigger events, a fragment sink
//!   that stalls now and then) must send the same fragments and leave the same early-depth
//!   buffer as the pure functions (both from a power-on buffer: the stage has no way in for
//!   another); every fragment of a window-space triangle names its `seq`, lies in the
//!   framebuffer, in the traversal rectangle and in the scissor's pass region, has a depth
//!   below `2^depth_bits`, no texture differences without a texture unit, comes in traversal
//!   order (rows of increasing y, each in increasing x) and is covered according to an
//!   independent reference (12.4 conversion through host `f64`, exact `i128` edge functions,
//!   the top-left rule restated), and without the early-depth test the fragments are exactly
//!   the reference's covered, scissor-passing pixels. Then the case's stage bundle is written
//!   and read back (SHA-256, formats): same operations, early-depth buffers, fragments.
//!
//! A failure is shrunk by the campaign's loop over [`shrink_steps`]: fewest triangles, then fewest register writes and clears,
//! then simpler values (register nibbles and bits cleared, the early-depth buffer before a
//! power-on one; per triangle semantics zeroed, w made 1 by dividing through or outright,
//! vertices snapped to pixel centres, z put inside both z planes), until nothing more goes,
//! and written as `fuzz-rast-<model|variant>-<case seed>/`.

use crate::fuzz::campaign::{self, impl_stage_target, ShrinkStep, Shrinker};
use crate::fuzz::report::FuzzReport;
use pica_model::clip::{self, ClipPorts, Clipper, Viewport};
use pica_model::knobs::{RastFillRule, RastFix12p4};
use pica_model::link::Link;
use pica_model::num::F24;
use pica_model::pipe::{semantic, Fragment, ScreenTri, Triangle, NUM_SEMANTICS};
use pica_model::rast::{
    rasterize, EarlyDepthBuffer, PreparedTri, RastConfig, RastPorts, Rasterizer, ScissorMode,
    EARLY_DEPTH_CLEAR,
};
use pica_model::regfile::RegFile;
use pica_model::timing;
use pica_rtl_bridge::axi::Reorder;
use pica_rtl_bridge::coverage::{CoverageSink, Gathered};
use pica_rtl_bridge::rast_stage::{MemLatency, RastVariant, RtlRast};
use pica_vectors::stage::StageProvenance;
use pica_vectors::stage_rast::{
    cfg_words, early_request_bound, early_same, load_rast_bundle, run_model, write_rast_bundle,
    RastCase, RastGen, RastOp, RastRun, CLEAR_WRITE_VALUE,
};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Checks tried per shrink (each one model run, and with RTL one RTL run).
pub const MAX_SHRINK_CHECKS: usize = 3_000;

/// Clocks the RTL may run without a fragment out before the case counts as hung.
pub const STALL_CLOCKS: u64 = 200_000;

/// Parameters of a RAST fuzz campaign (the one stage-fuzz options type).
pub type RastFuzzOptions = campaign::TargetOptions<RastVariant>;

/// The stages whose knobs `--target rast` applies: clipping and the rasterizer.
pub const STAGE_KNOBS: &[&str] = &["clip", "rast"];

/// The case of `case_seed`.
pub fn generate(case_seed: u64) -> RastCase {
    RastGen::new(case_seed).case()
}

// ---------------------------------------------------------------------------------------------
// The model's self-check

/// Applies a register write as [`run_model`] does (ID cut to the port's 10 bits).
fn write(regs: &mut RegFile, id: u16, value: u32) {
    regs.write(id & 0x3FF, value);
}

/// The first difference between two fragment lists: `None` if equal.
pub fn fragment_diff(want: &[Fragment], got: &[Fragment]) -> Option<String> {
    for (i, (m, r)) in want.iter().zip(got).enumerate() {
        if m == r {
            continue;
        }
        let f = fragment_fields(m)
            .into_iter()
            .zip(fragment_fields(r))
            .find(|(a, b)| a.1 != b.1);
        let (name, mv, rv) = match f {
            Some(((n, a), (_, b))) => (n, a, b),
            None => ("?".into(), 0, 0),
        };
        return Some(format!(
            "fragment {i} (tri {}, x {}, y {}): field {name} expected 0x{mv:08x} actual 0x{rv:08x}",
            m.tri, m.x, m.y
        ));
    }
    if want.len() != got.len() {
        let next = |v: &[Fragment]| {
            v.get(want.len().min(got.len()))
                .map(|f| format!(" (next: tri {}, x {}, y {})", f.tri, f.x, f.y))
                .unwrap_or_default()
        };
        return Some(format!(
            "{} fragments expected{}, {} actual{}",
            want.len(),
            next(want),
            got.len(),
            next(got)
        ));
    }
    None
}

/// Every field of a fragment by name, `tex_deriv` included.
fn fragment_fields(f: &Fragment) -> Vec<(String, u32)> {
    let mut v = vec![
        ("tri".to_string(), f.tri),
        ("x".to_string(), u32::from(f.x)),
        ("y".to_string(), u32::from(f.y)),
        ("depth".to_string(), f.depth),
        ("color".to_string(), u32::from_le_bytes(f.color)),
    ];
    v.extend(
        f.attr
            .iter()
            .enumerate()
            .map(|(s, a)| (format!("attr[{s}]"), a.bits())),
    );
    for (t, d) in f.tex_deriv.iter().enumerate() {
        for (c, x) in d.iter().enumerate() {
            let n = ["du_dx", "dv_dx", "du_dy", "dv_dy"][c];
            v.push((format!("tex_deriv[{t}].{n}"), x.bits()));
        }
    }
    v
}

/// Whether two early-depth buffers agree: clear value, clears performed, pixels written since
/// the last clear, and the value of every pixel in `pixels` (the pixels any fragment of either
/// run touched — the only ones a run can have written). `None` if they agree.
pub fn early_diff(
    want: &EarlyDepthBuffer,
    got: &EarlyDepthBuffer,
    pixels: impl IntoIterator<Item = (u16, u16)>,
) -> Option<String> {
    if want.clear_value() != got.clear_value() {
        return Some(format!(
            "early-depth clear value expected 0x{:06x} actual 0x{:06x}",
            want.clear_value(),
            got.clear_value()
        ));
    }
    if want.clears() != got.clears() {
        return Some(format!(
            "early-depth clears expected {} actual {}",
            want.clears(),
            got.clears()
        ));
    }
    let set: BTreeSet<(u16, u16)> = pixels.into_iter().collect();
    for &(x, y) in &set {
        let (a, b) = (want.get(x, y), got.get(x, y));
        if a != b {
            return Some(format!(
                "early depth at ({x}, {y}) expected 0x{a:06x} actual 0x{b:06x}"
            ));
        }
    }
    if want.written() != got.written() {
        return Some(format!(
            "early-depth pixels written since the last clear: expected {} actual {}",
            want.written(),
            got.written()
        ));
    }
    None
}

fn pixels_of<'a>(runs: impl IntoIterator<Item = &'a [Fragment]>) -> Vec<(u16, u16)> {
    runs.into_iter()
        .flat_map(|r| r.iter().map(|f| (f.x, f.y)))
        .collect()
}

/// `(b - a) × (p - a)`, exactly.
fn orient(a: (i128, i128), b: (i128, i128), p: (i128, i128)) -> i128 {
    (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
}

/// A window coordinate in 12.4 units, independently of the model's `to_fix12p4`: host `f64`
/// `round` (halves away from zero; knob `rast-fix12p4=truncate`: `trunc`), saturated to 16
/// bits, NaN 0.
fn ref_fix(x: F24, rule: RastFix12p4) -> i128 {
    let v = x.to_f64();
    if v.is_nan() {
        return 0;
    }
    let v = match rule {
        RastFix12p4::Round => (v * 16.0).round(),
        RastFix12p4::Truncate => (v * 16.0).trunc(),
    };
    v.clamp(-32768.0, 32767.0) as i128
}

/// The reference's triangle: 12.4 vertices ordered to positive area (`None`: zero area).
fn ref_tri(t: &ScreenTri, rule: RastFix12p4) -> Option<[(i128, i128); 3]> {
    let mut p = t.v.map(|v| (ref_fix(v.x, rule), ref_fix(v.y, rule)));
    let area = orient(p[0], p[1], p[2]);
    if area == 0 {
        return None;
    }
    if area < 0 {
        p.swap(1, 2);
    }
    Some(p)
}

/// Whether the reference covers the centre of pixel (`x`, `y`): strictly inside every edge,
/// or on an edge that is a left edge (runs toward -y with the interior on its left) or a top
/// edge (horizontal, runs toward +x: the triangle's smallest y) — knob `rast-fill-rule`:
/// on every other edge (`opposite`), on every edge (`inclusive`).
fn ref_covers(p: &[(i128, i128); 3], x: i64, y: i64, fill: RastFillRule) -> bool {
    let s = (i128::from(x) * 16 + 8, i128::from(y) * 16 + 8);
    (0..3).all(|i| {
        let (a, b) = (p[i], p[(i + 1) % 3]);
        let o = orient(a, b, s);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let top_left = dy < 0 || (dy == 0 && dx > 0);
        let owns = match fill {
            RastFillRule::Azahar => top_left,
            RastFillRule::Opposite => !top_left,
            RastFillRule::Inclusive => true,
        };
        o > 0 || (o == 0 && owns)
    })
}

/// The pixels whose centres lie in the reference triangle's vertex box.
fn ref_box(p: &[(i128, i128); 3]) -> (i64, i64, i64, i64) {
    let lo = |v: i128| ((v - 9).div_euclid(16) + 1) as i64;
    let hi = |v: i128| (v - 8).div_euclid(16) as i64;
    let xs = p.map(|q| q.0);
    let ys = p.map(|q| q.1);
    let min = |v: [i128; 3]| v[0].min(v[1]).min(v[2]);
    let max = |v: [i128; 3]| v[0].max(v[1]).max(v[2]);
    (lo(min(xs)), lo(min(ys)), hi(max(xs)), hi(max(ys)))
}

/// The rules one window-space triangle's fragments must keep (module docs).
fn check_screen_tri(st: &ScreenTri, cfg: &RastConfig, frags: &[Fragment]) -> Result<(), String> {
    let t = PreparedTri::new(st, *cfg);
    let max_depth = 1u64 << cfg.depth_bits.min(24);
    let reference = ref_tri(st, cfg.fix12p4);
    let mut last: Option<(u16, u16)> = None;
    for f in frags {
        let at = format!("fragment (x {}, y {})", f.x, f.y);
        if f.tri != st.seq {
            return Err(format!("{at} names triangle {} for seq {}", f.tri, st.seq));
        }
        if u32::from(f.x) >= cfg.fb_width || u32::from(f.y) >= cfg.fb_height {
            return Err(format!(
                "{at} outside the {}x{} framebuffer",
                cfg.fb_width, cfg.fb_height
            ));
        }
        let (x, y) = (i32::from(f.x), i32::from(f.y));
        if !t.rect.is_some_and(|r| r.contains(x, y)) {
            return Err(format!("{at} outside the traversal rectangle {:?}", t.rect));
        }
        if !cfg.scissor_passes(x, y) {
            return Err(format!(
                "{at} fails the scissor test ({:?})",
                cfg.scissor_mode
            ));
        }
        if u64::from(f.depth) >= max_depth {
            return Err(format!(
                "{at} depth 0x{:x} has more than {} bits",
                f.depth, cfg.depth_bits
            ));
        }
        if !cfg.tex_deriv && f.tex_deriv.iter().flatten().any(|d| d.bits() != 0) {
            return Err(format!(
                "{at} has texture differences with no texture unit on"
            ));
        }
        if last.is_some_and(|(lx, ly)| (ly, lx) >= (f.y, f.x)) {
            return Err(format!("{at} out of traversal order after {last:?}"));
        }
        last = Some((f.x, f.y));
        if !reference
            .as_ref()
            .is_some_and(|p| ref_covers(p, f.x.into(), f.y.into(), cfg.fill_rule))
        {
            return Err(format!("{at} not covered by the reference edge functions"));
        }
    }
    if cfg.early_depth.is_some() {
        return Ok(());
    }
    // Without the early-depth test: exactly the covered, scissor-passing pixels of the
    // framebuffer (and of the scissor box in mode "inside").
    let Some(p) = reference else {
        return if frags.is_empty() {
            Ok(())
        } else {
            Err("fragments of a zero-area triangle".into())
        };
    };
    let (x0, y0, x1, y1) = ref_box(&p);
    let (mut x0, mut y0) = (x0.max(0), y0.max(0));
    let (mut x1, mut y1) = (
        x1.min(i64::from(cfg.fb_width) - 1),
        y1.min(i64::from(cfg.fb_height) - 1),
    );
    if cfg.scissor_mode == ScissorMode::Inside {
        let s = cfg.scissor.map(i64::from);
        (x0, y0, x1, y1) = (x0.max(s[0]), y0.max(s[1]), x1.min(s[2]), y1.min(s[3]));
    }
    let got: BTreeSet<(i64, i64)> = frags
        .iter()
        .map(|f| (i64::from(f.x), i64::from(f.y)))
        .collect();
    let mut want = 0usize;
    for y in y0..=y1 {
        for x in x0..=x1 {
            let pass =
                cfg.scissor_passes(x as i32, y as i32) && ref_covers(&p, x, y, cfg.fill_rule);
            want += usize::from(pass);
            if pass != got.contains(&(x, y)) {
                return Err(format!(
                    "pixel ({x}, {y}): the reference says {}covered, the model {}",
                    if pass { "" } else { "not " },
                    if pass { "drew nothing" } else { "drew it" }
                ));
            }
        }
    }
    if want != frags.len() {
        return Err(format!(
            "{} fragments, the reference covers {want} pixels",
            frags.len()
        ));
    }
    Ok(())
}

/// The model's CLIP and RAST stages ticked cycle by cycle over `case` from a power-on
/// early-depth buffer: (fragments in the order sent, the early-depth buffer after).
pub fn run_stages(case: &RastCase) -> Result<(Vec<Fragment>, EarlyDepthBuffer), String> {
    let mut regs = RegFile::new();
    regs.set_knobs(case.knobs);
    regs.set_record_beats(false);
    let mut pa = Link::new("pa_to_clip", timing::PA_TO_CLIP_DEPTH);
    let mut mid = Link::new("clip_to_rast", timing::CLIP_TO_RAST_DEPTH);
    let mut out: Link<Fragment> = Link::new("rast_to_tex", timing::RAST_TO_TEX_DEPTH);
    let (mut clipper, mut rast) = (Clipper::new(), Rasterizer::new());
    let mut sink = RastGen::new(0x51_4B);
    let mut got = Vec::new();
    let mut cycle = 0u64;
    // One cycle of the three: RAST, CLIP, then the sink (order is free: links are registered).
    let mut step = |regs: &RegFile,
                    pa: &mut Link<Triangle>,
                    mid: &mut Link<ScreenTri>,
                    out: &mut Link<Fragment>,
                    clipper: &mut Clipper,
                    rast: &mut Rasterizer,
                    got: &mut Vec<Fragment>| {
        pa.begin_cycle();
        mid.begin_cycle();
        out.begin_cycle();
        rast.tick(
            cycle,
            RastPorts {
                regs,
                input: mid,
                out,
                beats: None,
            },
        );
        clipper.tick(
            cycle,
            ClipPorts {
                regs,
                input: pa,
                out: mid,
            },
        );
        if sink.next_u64() % 4 != 0 {
            got.extend(out.pop());
        }
        cycle += 1;
    };
    // Generous: the generator bounds the pixels a case walks, every triangle costs its setup.
    let budget = 50_000 + 4 * pica_vectors::stage_rast::MAX_CASE_PIXELS;
    let mut spent = 0u64;
    for op in &case.ops {
        match op {
            RastOp::Tri(t) => {
                while !pa.can_push() {
                    step(
                        &regs,
                        &mut pa,
                        &mut mid,
                        &mut out,
                        &mut clipper,
                        &mut rast,
                        &mut got,
                    );
                    spent += 1;
                }
                pa.push(*t).map_err(|e| e.to_string())?;
            }
            RastOp::Reg { .. } | RastOp::Clear => {
                // REGS holds writes while the pipeline is busy.
                while !(pa.is_empty()
                    && mid.is_empty()
                    && out.is_empty()
                    && clipper.is_idle()
                    && rast.is_idle())
                {
                    step(
                        &regs,
                        &mut pa,
                        &mut mid,
                        &mut out,
                        &mut clipper,
                        &mut rast,
                        &mut got,
                    );
                    spent += 1;
                    if spent > budget * 16 {
                        return Err("the model stages never went idle".into());
                    }
                }
                match op {
                    RastOp::Reg { id, value } => write(&mut regs, *id, *value),
                    _ => write(&mut regs, EARLY_DEPTH_CLEAR, CLEAR_WRITE_VALUE),
                }
            }
        }
    }
    // Drain, and one more cycle for a clear logged last.
    loop {
        step(
            &regs,
            &mut pa,
            &mut mid,
            &mut out,
            &mut clipper,
            &mut rast,
            &mut got,
        );
        spent += 1;
        if pa.is_empty() && mid.is_empty() && out.is_empty() && clipper.is_idle() && rast.is_idle()
        {
            break;
        }
        if spent > budget * 16 {
            return Err("the model stages never went idle".into());
        }
    }
    Ok((got, rast.early_depth().clone()))
}

/// The model's self-check of `case` (module docs): `Err` names what broke.
pub fn check_model(case: &RastCase) -> Result<(), String> {
    let run = run_model(case);
    // The triangles one by one, with the rules of each window-space triangle.
    let mut regs = RegFile::new();
    regs.set_knobs(case.knobs);
    regs.set_record_beats(false);
    let mut early = case.early.clone();
    let mut frags = Vec::new();
    for (k, op) in case.ops.iter().enumerate() {
        let t = match op {
            RastOp::Reg { id, value } => {
                write(&mut regs, *id, *value);
                if id & 0x3FF == EARLY_DEPTH_CLEAR {
                    early.clear(early_clear_value(&regs));
                }
                continue;
            }
            RastOp::Clear => {
                early.clear(early_clear_value(&regs));
                continue;
            }
            RastOp::Tri(t) => t,
        };
        let cfg = RastConfig::from_regs(&regs);
        for (p, st) in clip::process(&regs, t).iter().enumerate() {
            let f = rasterize(st, cfg, &mut early);
            check_screen_tri(st, &cfg, &f)
                .map_err(|e| format!("op {k} (triangle seq {}), piece {p}: {e}", t.seq))?;
            frags.extend(f);
        }
    }
    if let Some(d) = fragment_diff(&frags, &run.fragments) {
        return Err(format!(
            "run_model differs from the triangles one by one: {d}"
        ));
    }
    if let Some(d) = early_diff(&early, &run.early, pixels_of([frags.as_slice()])) {
        return Err(format!(
            "run_model differs from the triangles one by one: {d}"
        ));
    }
    // The stages, cycle by cycle, against the pure functions (both from power-on).
    let fresh = RastCase {
        ops: case.ops.clone(),
        early: EarlyDepthBuffer::new(),
        knobs: case.knobs,
    };
    let pure = run_model(&fresh);
    let (sf, se) = run_stages(&fresh)?;
    if let Some(d) = fragment_diff(&pure.fragments, &sf) {
        return Err(format!(
            "the CLIP and RAST stages differ from the functions: {d}"
        ));
    }
    if let Some(d) = early_diff(
        &pure.early,
        &se,
        pixels_of([pure.fragments.as_slice(), &sf]),
    ) {
        return Err(format!(
            "the CLIP and RAST stages differ from the functions: {d}"
        ));
    }
    round_trip(case, &run)
}

fn early_clear_value(regs: &RegFile) -> u32 {
    pica_model::regs::EarlydepthData(regs.reg(pica_model::regs::id::EARLYDEPTH_DATA.into()))
        .clear_value()
}

/// A hex-line round trip keeps 10 bits of an ID.
fn normalized(ops: &[RastOp]) -> Vec<RastOp> {
    ops.iter()
        .map(|o| match *o {
            RastOp::Reg { id, value } => RastOp::Reg {
                id: id & 0x3FF,
                value,
            },
            other => other,
        })
        .collect()
}

thread_local! {
    /// This thread's scratch directory for bundle round trips.
    static SCRATCH: PathBuf = std::env::temp_dir().join(format!(
        "pica-rast-fuzz-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ).replace(['(', ')'], ""));
}

/// Writes the case's stage bundle and reads it back: the same case and expectations.
fn round_trip(case: &RastCase, run: &RastRun) -> Result<(), String> {
    let dir = SCRATCH.with(Clone::clone);
    let prov = StageProvenance::default();
    write_rast_bundle(&dir, "self-check", "", case, &prov).map_err(|e| format!("bundle: {e}"))?;
    let (_, back, expected) = load_rast_bundle(&dir).map_err(|e| format!("bundle: {e}"))?;
    let _ = std::fs::remove_dir_all(&dir);
    if normalized(&back.ops) != normalized(&case.ops) {
        return Err("bundle: the operations read back differ".into());
    }
    if !early_same(&back.early, &case.early) {
        return Err("bundle: the early-depth buffer before read back differs".into());
    }
    if let Some(d) = fragment_diff(&run.fragments, &expected.fragments) {
        return Err(format!("bundle: the fragments read back differ: {d}"));
    }
    if !early_same(&expected.early, &run.early) {
        return Err("bundle: the early-depth buffer after read back differs".into());
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The RTL

/// What the RTL did with a case.
#[derive(Debug)]
pub struct RtlRun {
    /// The fragments, in order.
    pub fragments: Vec<Fragment>,
    /// The early-depth buffer its port served, afterwards.
    pub early: EarlyDepthBuffer,
    /// Protocol breaches the bridge saw, and liveness problems.
    pub violations: Vec<String>,
}

/// The consumer's `ready`: low about one clock in four; with probability 1/128 a clock starts
/// a run of 2-11 clocks low and with 1/256 one of 16-127 clocks. The long runs fill the
/// pipelined RAST's output FIFO (32 fragments) so that its credit check decides, and hold its
/// pixel FIFO full behind it (`INJECT_RAST_CREDIT` was caught only at case 1,504 of seed 0,
/// as a hang, with single low clocks).
struct OutReady {
    gen: RastGen,
    low_run: u64,
}

impl OutReady {
    fn new() -> Self {
        Self {
            gen: RastGen::new(0xF0_BAC4),
            low_run: 0,
        }
    }

    fn next(&mut self) -> bool {
        if self.low_run > 0 {
            self.low_run -= 1;
            return false;
        }
        let r = self.gen.next_u64();
        match r % 256 {
            0 => {
                self.low_run = 15 + (r >> 8) % 112;
                false
            }
            1 | 2 => {
                self.low_run = 1 + (r >> 8) % 10;
                false
            }
            _ => (r >> 8) % 4 != 0,
        }
    }
}

/// Runs `case` on a new RTL stage of `variant` whose early-depth port answers with `latency`:
/// the early-depth buffer set to the case's, every register write and clear through the write
/// port once the stage is idle, triangles fed as the input port allows, output held not-ready
/// about one clock in four and now and then for a run of clocks ([`OutReady`]).
pub fn run_rtl(
    variant: RastVariant,
    latency: MemLatency,
    case: &RastCase,
) -> Result<RtlRun, String> {
    run_rtl_at_most(variant, latency, case, usize::MAX, None)
}

/// [`run_rtl`], giving up (with a violation) once the stage has sent more than `limit`
/// fragments: a broken RTL (a mutant whose clipper re-emits a triangle forever) would otherwise
/// never go idle, while fragments keep the stall watchdog quiet.
pub fn run_rtl_at_most(
    variant: RastVariant,
    latency: MemLatency,
    case: &RastCase,
    limit: usize,
    cov: Option<&CoverageSink>,
) -> Result<RtlRun, String> {
    let rtl = RtlRast::new(variant, latency).map_err(|e| e.to_string())?;
    let mut rtl = Gathered::new(rtl, cov);
    rtl.set_fragment_limit(u64::try_from(limit).unwrap_or(u64::MAX));
    rtl.set_early_depth(case.early.clone());
    rtl.set_config(&cfg_words(&RegFile::new()));
    let ed_limit = early_request_bound(case);
    rtl.set_early_depth_limit(ed_limit);
    let mut ready = OutReady::new();
    let mut out: Vec<Fragment> = Vec::new();
    let mut violations = Vec::new();
    // Clocks the stage until `done` holds; the reason if it stalls (no fragment for
    // STALL_CLOCKS), sends more fragments than the model or takes more early-depth requests
    // than the case's traversal rectangles allow (a livelock: an access repeated forever).
    let mut clock_until = |rtl: &mut RtlRast, out: &mut Vec<Fragment>, idle: bool| {
        let mut quiet = 0u64;
        loop {
            let done = if idle {
                rtl.is_idle() && rtl.pending() == 0
            } else {
                rtl.can_accept()
            };
            if done {
                return Ok(());
            }
            match rtl.tick(ready.next()) {
                Some(f) => {
                    out.push(f);
                    quiet = 0;
                }
                None => quiet += 1,
            }
            if out.len() > limit {
                return Err(format!("more than the model's {limit} fragments"));
            }
            if rtl.early_depth_limit_passed() {
                return Err(format!(
                    "more than {ed_limit} early-depth requests (two per traversal pixel, one \
                     per clear): an access repeated"
                ));
            }
            if quiet > STALL_CLOCKS {
                return Err(format!(
                    "no fragment and no progress for {STALL_CLOCKS} clocks{}",
                    if idle {
                        " (the stage never went idle)"
                    } else {
                        ""
                    }
                ));
            }
        }
    };
    // A failed op stops the run: the register write port drains the stage first, which a
    // stalled or livelocked RTL never lets end.
    for (k, op) in case.ops.iter().enumerate() {
        let idle = !matches!(op, RastOp::Tri(_));
        if let Err(why) = clock_until(&mut rtl, &mut out, idle) {
            violations.push(format!("op {k}: {why}"));
            break;
        }
        match op {
            RastOp::Reg { id, value } => rtl.write_reg(*id, *value),
            RastOp::Clear => rtl.write_reg(EARLY_DEPTH_CLEAR, CLEAR_WRITE_VALUE),
            RastOp::Tri(t) => rtl.push(t),
        }
    }
    if violations.is_empty() {
        if let Err(why) = clock_until(&mut rtl, &mut out, true) {
            violations.push(format!("after the last op: {why}"));
        }
    }
    if violations.is_empty() {
        // Idle already: checks that every clear event was performed.
        out.extend(rtl.run(&[]));
    }
    violations.splice(0..0, rtl.violations().iter().cloned());
    Ok(RtlRun {
        fragments: out,
        early: rtl.early_depth().clone(),
        violations,
    })
}

/// Compares an RTL run with the model's: `None` if equal, else the first difference
/// (protocol, then fragment by fragment and field, then the early-depth buffer).
pub fn compare_rtl(model: &RastRun, rtl: &RtlRun) -> Option<String> {
    if let Some(v) = rtl.violations.first() {
        return Some(format!("protocol: {v}"));
    }
    fragment_diff(&model.fragments, &rtl.fragments).or_else(|| {
        early_diff(
            &model.early,
            &rtl.early,
            pixels_of([model.fragments.as_slice(), &rtl.fragments]),
        )
    })
}

/// Checks one case: `Err(message)` if it fails.
/// A coverage build's counters go to `cov`.
pub fn check(
    case: &RastCase,
    rtl: Option<RastVariant>,
    latency: MemLatency,
    _reorder: Reorder,
    cov: Option<&CoverageSink>,
) -> Result<(), String> {
    match rtl {
        None => check_model(case).map_err(|e| format!("model: {e}")),
        Some(v) => {
            // The model first: an RTL that sends more fragments than it is stopped there.
            let model = run_model(case);
            let got = run_rtl_at_most(v, latency, case, model.fragments.len(), cov)?;
            compare_rtl(&model, &got).map_or(Ok(()), |d| {
                Err(format!(
                    "rtl ({}, latency {latency}) differs: {d}",
                    v.name()
                ))
            })
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Shrinking

/// The register file as the operations before `k` leave it.
fn regs_before(case: &RastCase, k: usize) -> RegFile {
    let mut regs = RegFile::new();
    regs.set_knobs(case.knobs);
    regs.set_record_beats(false);
    for op in &case.ops[..k] {
        if let RastOp::Reg { id, value } = op {
            write(&mut regs, *id, *value);
        }
    }
    regs
}

/// Simpler versions of triangle `k`'s vertices, simplest first: all semantics but the
/// position zero, then each semantic zero; per vertex: w made 1 by dividing through and
/// outright, the window position snapped to the pixel centre, z inside both z planes.
fn vertex_candidates(case: &RastCase, k: usize) -> Vec<Triangle> {
    let RastOp::Tri(t) = case.ops[k] else {
        return Vec::new();
    };
    let f = F24::from_f64_trunc;
    let mut out = Vec::new();
    let mut all = t;
    for v in &mut all.v {
        v.attr[semantic::QUATERNION..].fill(F24::ZERO);
    }
    out.push(all);
    for s in semantic::QUATERNION..NUM_SEMANTICS {
        let mut c = t;
        for v in &mut c.v {
            v.attr[s] = F24::ZERO;
        }
        out.push(c);
    }
    let vp = Viewport::from_regs(&regs_before(case, k));
    for j in 0..3 {
        let [x, y, z, w] = t.v[j].position().map(F24::to_f64);
        let mut set = |p: [f64; 4]| {
            let mut c = t;
            for (i, v) in p.into_iter().enumerate() {
                c.v[j].attr[semantic::POSITION + i] = f(v);
            }
            out.push(c);
        };
        if w != 0.0 && w.is_finite() {
            set([x / w, y / w, z / w, 1.0]);
        }
        set([x, y, z, 1.0]);
        // The pixel centre nearest the vertex's window position, back to clip space.
        let (hw, hh) = (vp.half_width.to_f64(), vp.half_height.to_f64());
        if w != 0.0 && hw != 0.0 && hh != 0.0 {
            let win = |c: f64, half: f64, off: f64| (c / w + 1.0) * half + off;
            let back = |p: f64, half: f64, off: f64| ((p - off) / half - 1.0) * w;
            let (wx, wy) = (win(x, hw, vp.x.to_f64()), win(y, hh, vp.y.to_f64()));
            if wx.is_finite() && wy.is_finite() {
                let (cx, cy) = (wx.floor() + 0.5, wy.floor() + 0.5);
                set([
                    back(cx, hw, vp.x.to_f64()),
                    back(cy, hh, vp.y.to_f64()),
                    z,
                    w,
                ]);
            }
        }
        set([x, y, -0.5 * w, w]);
        set([x, y, 0.0, w]);
    }
    out
}

/// The shrink steps of a RAST case, run by the campaign's loop ([`campaign::shrink`]) round
/// after round until nothing more goes: fewest triangles, then fewest register writes and
/// clears, then an empty early-depth buffer, then simpler values.
pub fn shrink_steps<'t>() -> Vec<ShrinkStep<'t, RastCase>> {
    fn ops(c: &mut RastCase) -> &mut Vec<RastOp> {
        &mut c.ops
    }
    vec![
        ShrinkStep::drop_ops("triangles", ops, |o| matches!(o, RastOp::Tri(_))),
        ShrinkStep::drop_ops("register writes and clears", ops, |o| {
            matches!(o, RastOp::Reg { .. } | RastOp::Clear)
        }),
        ShrinkStep::each_round("early-depth buffer", |sh: &mut Shrinker<'_, RastCase>| {
            let mut cand = sh.best.clone();
            cand.early = EarlyDepthBuffer::new();
            sh.attempt(cand);
        }),
        ShrinkStep::each_round("values", simpler_values),
    ]
}

/// Simpler values, operation by operation: a register's nibbles, then bits; a triangle's
/// vertices ([`vertex_candidates`]).
fn simpler_values(sh: &mut Shrinker<'_, RastCase>) {
    for k in 0..sh.best.ops.len() {
        match sh.best.ops[k] {
            RastOp::Reg { .. } => sh.clear_bits(k, |c, k| match &mut c.ops[k] {
                RastOp::Reg { value, .. } => Some(value),
                _ => None,
            }),
            RastOp::Tri(_) => {
                // Each candidate is made from the best case so far (one that went changes
                // what the next is made from).
                let mut i = 0;
                while let Some(&t) = vertex_candidates(&sh.best, k).get(i) {
                    let mut cand = sh.best.clone();
                    cand.ops[k] = RastOp::Tri(t);
                    sh.attempt(cand);
                    i += 1;
                }
            }
            RastOp::Clear => {}
        }
    }
}

/// The one-line summary of a case's size.
pub fn describe(case: &RastCase) -> String {
    format!(
        "{} triangle(s), {} register write(s), {} clear(s)",
        case.triangles(),
        case.reg_writes(),
        case.clears()
    )
}

/// Writes `case` as a RAST stage bundle `dir/name` (the model's expectations); its directory.
pub fn save_bundle(
    case: &RastCase,
    dir: &Path,
    name: &str,
    description: &str,
    prov: &StageProvenance,
) -> Result<PathBuf, String> {
    campaign::bundle_at(dir, name, |out| {
        write_rast_bundle(out, name, description, case, prov)
    })
}

/// CLIP + RAST as a fuzz target ([`campaign::StageTarget`]: its generator,
/// verdict, shrink steps and bundle).
pub type RastTarget = campaign::SidePortTarget<RastVariant>;

impl_stage_target!(
    RastTarget,
    RastCase,
    "rast",
    triangles,
    [latency, reorder] + coverage,
    RastVariant::Coverage => pica_rtl_bridge::coverage::CoverageBuild::Rast,
    RAST, crate::lockstep::stages::parse_rast_variant, RtlRast,
    |t| format!(", early-depth latency {}", t.latency)
);

/// Runs a campaign ([`campaign::run_stage`]); `progress` is called after each case with (done,
/// total for this shard, failures so far).
pub fn run(opts: &RastFuzzOptions, progress: impl FnMut(u64, u64, usize)) -> FuzzReport {
    campaign::run_stage(opts, progress)
}
