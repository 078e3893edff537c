//! The CLIP + RAST stage RTL (`pica_rast_top`, [`RtlRast`]) against the model's
//! `clip::process` + `rast::rasterize` ([`run_model`]): random cases from [`RastGen`] (vertices
//! on pixel centres and edges, degenerate, one-pixel and huge triangles, every clip plane, w
//! near zero and negative, ±inf and NaN, random viewports, scissors, depth maps, culling, early
//! depth with clears and a non-empty buffer before, texture units on and off), compared bit for
//! bit — every fragment field including `tex_deriv`, in order, and the early-depth buffer after
//! — under early-depth latencies 0, 3 and random up to 7 with output backpressure; directed
//! cases (fill-rule ties on every edge orientation, shared edges, each clip plane, w- and
//! z-buffer, scissor modes, early-depth functions and clears, texture-coordinate differences);
//! each injected-bug variant must be caught; and stage bundles written, loaded back and
//! replayed with `scripts/replay`.
//!
//! `PICA_RAST_CASES=N` runs N random cases per latency instead of the default.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::num::F24;
use pica_model::pipe::{semantic, Fragment, OutVertex, Triangle};
use pica_model::rast::{EarlyDepthBuffer, EARLY_DEPTH_CLEAR};
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use pica_rtl_bridge::rast_stage::{self, MemLatency, RastVariant, RtlRast, NUM_CFG};
use pica_vectors::stage::StageProvenance;
use pica_vectors::stage_rast::{
    early_same, load_rast_bundle, run_model, write_rast_bundle, RastCase, RastGen, RastOp, RastRun,
    CLEAR_WRITE_VALUE,
};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[path = "common/stage.rs"]
mod stage_util;
use stage_util::{cases_per_run, catch_every_bug, Ready};

/// Random cases per latency unless `PICA_RAST_CASES` says otherwise.
const DEFAULT_CASES: u64 = 400;

/// What a run produced (the RTL's or the model's).
#[derive(Debug)]
struct Outcome {
    fragments: Vec<Fragment>,
    early: EarlyDepthBuffer,
    violations: Vec<String>,
}

/// How the driver feeds the RTL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Feed {
    /// `sync_config` from a register file before each triangle (the stage adapter's way;
    /// clear events through the register file's trigger log).
    Sync,
    /// Every register write and clear of the case through `write_reg` (the replay
    /// testbench's way).
    Raw,
}

/// Clocks without a fragment or progress after which a run is declared stuck.
const STUCK_CLOCKS: u64 = 400_000;

/// Runs `case` on `rtl` (fresh, or idle after an earlier case), with the output held not-ready
/// about one clock in four when `ready` is given.
fn run_rtl(
    rtl: &mut RtlRast,
    case: &RastCase,
    feed: Feed,
    mut ready: Option<&mut Ready>,
) -> Outcome {
    rtl.set_early_depth(case.early.clone());
    let mut regs = RegFile::new();
    regs.set_record_beats(false);
    if feed == Feed::Raw {
        // The power-on configuration (a reused stage may hold another case's).
        rtl.set_config(&[0; NUM_CFG]);
    }
    let mut out: Vec<Fragment> = Vec::new();
    let mut violations = Vec::new();
    let mut tick = |rtl: &mut RtlRast, out: &mut Vec<Fragment>| {
        let r = ready.as_mut().is_none_or(|g| g.next());
        out.extend(rtl.tick(r));
    };
    for op in &case.ops {
        match op {
            RastOp::Reg { id, value } => {
                regs.write(id & 0x3FF, *value);
                if feed == Feed::Raw {
                    rtl.write_reg(*id, *value);
                }
            }
            RastOp::Clear => {
                regs.write(EARLY_DEPTH_CLEAR, CLEAR_WRITE_VALUE);
                if feed == Feed::Raw {
                    rtl.write_reg(EARLY_DEPTH_CLEAR, CLEAR_WRITE_VALUE);
                }
            }
            RastOp::Tri(t) => {
                if feed == Feed::Sync {
                    rtl.sync_config(&regs);
                }
                rtl.push(t);
                let mut guard = 0u64;
                while !rtl.can_accept() {
                    tick(rtl, &mut out);
                    guard += 1;
                    if guard > STUCK_CLOCKS {
                        violations.push("the input port never became ready".to_string());
                        break;
                    }
                }
            }
        }
        if !violations.is_empty() {
            break;
        }
    }
    if feed == Feed::Sync {
        // Clears after the last triangle.
        rtl.sync_config(&regs);
    }
    let mut quiet = 0u64;
    while violations.is_empty() && !(rtl.is_idle() && rtl.pending() == 0) {
        let n = out.len();
        tick(rtl, &mut out);
        quiet = if out.len() > n { 0 } else { quiet + 1 };
        if quiet > STUCK_CLOCKS {
            violations.push(format!(
                "not idle after {STUCK_CLOCKS} clocks without a fragment"
            ));
        }
    }
    violations.splice(0..0, rtl.violations().iter().cloned());
    Outcome {
        fragments: out,
        early: rtl.early_depth().clone(),
        violations,
    }
}

fn model_outcome(case: &RastCase) -> Outcome {
    let RastRun { fragments, early } = run_model(case);
    Outcome {
        fragments,
        early,
        violations: Vec::new(),
    }
}

/// Every field of a fragment, named.
fn fields(f: &Fragment) -> Vec<(String, u32)> {
    let mut v = vec![
        ("tri".to_string(), f.tri),
        ("x".into(), u32::from(f.x)),
        ("y".into(), u32::from(f.y)),
        ("depth".into(), f.depth),
        ("color".into(), u32::from_le_bytes(f.color)),
    ];
    for (s, a) in f.attr.iter().enumerate() {
        v.push((format!("attr[0x{s:02x}]"), a.bits()));
    }
    for (t, d) in f.tex_deriv.iter().enumerate() {
        for (c, x) in d.iter().enumerate() {
            let n = ["du_dx", "dv_dx", "du_dy", "dv_dy"][c];
            v.push((format!("tex_deriv[{t}].{n}"), x.bits()));
        }
    }
    v
}

/// `None` if `got` is `want` bit for bit; else what differs first.
fn compare(want: &Outcome, got: &Outcome) -> Option<String> {
    if !got.violations.is_empty() {
        return Some(format!("protocol: {}", got.violations.join("; ")));
    }
    for (i, (w, g)) in want.fragments.iter().zip(&got.fragments).enumerate() {
        if w != g {
            let diffs: Vec<String> = fields(w)
                .into_iter()
                .zip(fields(g))
                .filter(|(a, b)| a.1 != b.1)
                .map(|(a, b)| format!("{} model 0x{:x} rtl 0x{:x}", a.0, a.1, b.1))
                .collect();
            return Some(format!(
                "fragment {i} (model tri {} at ({}, {})): {}",
                w.tri,
                w.x,
                w.y,
                diffs.join(", ")
            ));
        }
    }
    if want.fragments.len() != got.fragments.len() {
        let n = want.fragments.len().min(got.fragments.len());
        let extra = |v: &[Fragment]| {
            v.get(n)
                .map(|f| format!("tri {} ({}, {})", f.tri, f.x, f.y))
                .unwrap_or_else(|| "-".into())
        };
        return Some(format!(
            "model {} fragments, rtl {} (first extra: model {}, rtl {})",
            want.fragments.len(),
            got.fragments.len(),
            extra(&want.fragments),
            extra(&got.fragments)
        ));
    }
    if want.early != got.early {
        let (a, b) = (&want.early, &got.early);
        if a.clear_value() != b.clear_value() || a.clears() != b.clears() {
            return Some(format!(
                "early-depth buffer: model clear value 0x{:06x} after {} clears, rtl 0x{:06x} \
                 after {}",
                a.clear_value(),
                a.clears(),
                b.clear_value(),
                b.clears()
            ));
        }
        let px = want
            .fragments
            .iter()
            .map(|f| (f.x, f.y))
            .find(|&(x, y)| a.get(x, y) != b.get(x, y));
        return Some(match px {
            Some((x, y)) => format!(
                "early-depth buffer at ({x}, {y}): model 0x{:06x}, rtl 0x{:06x}",
                a.get(x, y),
                b.get(x, y)
            ),
            None if early_same(a, b) => format!(
                "early-depth buffer: same values, but the RTL wrote other pixels ({} written, \
                 model {})",
                b.written(),
                a.written()
            ),
            None => "early-depth buffer differs at a pixel no fragment names".to_string(),
        });
    }
    None
}

/// Totals of a campaign, for the log.
#[derive(Debug, Default)]
struct Totals {
    triangles: usize,
    fragments: usize,
    clocks: u64,
    reads: u64,
    writes: u64,
    clears: u64,
}

impl Totals {
    fn add_rtl(&mut self, rtl: &RtlRast) {
        let s = rtl.ed_stats();
        self.clocks += rtl.cycles();
        self.reads += s.reads;
        self.writes += s.writes;
        self.clears += s.clears;
    }
}

/// Runs `n` cases of seed `seed` on `variant` with `latency` and output backpressure,
/// alternating the two feeds; the first mismatch as (case index, report).
fn campaign(
    variant: RastVariant,
    latency: MemLatency,
    seed: u64,
    n: u64,
    totals: &mut Totals,
) -> Option<(u64, String)> {
    let mut gen = RastGen::new(seed);
    let mut ready = Ready(seed ^ 0xA5A5);
    let mut rtl = RtlRast::new(variant, latency).unwrap();
    for i in 0..n {
        let case = gen.case();
        let feed = if i % 2 == 0 { Feed::Raw } else { Feed::Sync };
        if feed == Feed::Sync {
            // A new register file's trigger log starts at zero: a new stage for it.
            totals.add_rtl(&rtl);
            rtl = RtlRast::new(variant, latency).unwrap();
        }
        let want = model_outcome(&case);
        let got = run_rtl(&mut rtl, &case, feed, Some(&mut ready));
        totals.triangles += case.triangles();
        totals.fragments += want.fragments.len();
        if let Some(msg) = compare(&want, &got) {
            return Some((
                i,
                format!(
                    "{msg}\n{} ({feed:?}, latency {latency}, {} triangles, {} fragments)\n{}",
                    variant.name(),
                    case.triangles(),
                    want.fragments.len(),
                    case.describe()
                ),
            ));
        }
        if !rtl.violations().is_empty() || !rtl.is_idle() {
            totals.add_rtl(&rtl);
            rtl = RtlRast::new(variant, latency).unwrap();
        }
    }
    totals.add_rtl(&rtl);
    None
}

fn run_campaign(latency: MemLatency, seed: u64) {
    let n = cases_per_run("PICA_RAST_CASES", DEFAULT_CASES);
    let t = Instant::now();
    let mut tot = Totals::default();
    if let Some((i, msg)) = campaign(RastVariant::Default, latency, seed, n, &mut tot) {
        panic!("case {i} of seed {seed:#x}: RTL differs from the model: {msg}");
    }
    eprintln!(
        "latency {latency}: {n} cases in {:.2} s: {} triangles, {} fragments; RTL {} clocks, \
         early-depth port {} reads, {} writes, {} clears",
        t.elapsed().as_secs_f64(),
        tot.triangles,
        tot.fragments,
        tot.clocks,
        tot.reads,
        tot.writes,
        tot.clears
    );
    assert!(tot.fragments > 0 && tot.reads > 0 && tot.writes > 0 && tot.clears > 0);
}

#[test]
fn rast_random_cases_match_the_model_latency_0() {
    run_campaign(MemLatency::Zero, 0x4A57_0001);
}

#[test]
fn rast_random_cases_match_the_model_latency_3() {
    run_campaign(MemLatency::Fixed(3), 0x4A57_0002);
}

#[test]
fn rast_random_cases_match_the_model_latency_random_7() {
    run_campaign(
        MemLatency::Random {
            max: 7,
            seed: 0x5EED,
        },
        0x4A57_0003,
    );
}

// ---------------------------------------------------------------------------------------------
// Directed cases

/// f24 of `x` (exact for the values used here).
fn f(x: f64) -> F24 {
    F24::from_f64_trunc(x)
}

/// The directed framebuffer: 16 × 16 pixels, the viewport over all of it (half size 8, so a
/// window coordinate `p` is clip x `p / 8 - 1` exactly).
const FB: u32 = 16;

/// A base configuration: 16 × 16 framebuffer and viewport, depth = −z/w (z-buffer), D24, no
/// culling, scissor, early depth or texture units.
fn base_config() -> Vec<(u16, u32)> {
    vec![
        (id::FACECULLING_CONFIG, 0),
        (id::VIEWPORT_WIDTH, f(f64::from(FB) / 2.0).bits()),
        (id::VIEWPORT_HEIGHT, f(f64::from(FB) / 2.0).bits()),
        (id::FRAGOP_CLIP, 0),
        (id::FRAGOP_CLIP_DATA0, 0),
        (id::FRAGOP_CLIP_DATA1, 0),
        (id::FRAGOP_CLIP_DATA2, 0),
        (id::FRAGOP_CLIP_DATA3, 0),
        (id::DEPTHMAP_SCALE, F24::NEG_ONE.bits()),
        (id::DEPTHMAP_OFFSET, 0),
        (id::VIEWPORT_XY, 0),
        (id::EARLYDEPTH_FUNC, 0),
        (id::EARLYDEPTH_TEST1, 0),
        (id::SCISSORTEST_MODE, 0),
        (id::SCISSORTEST_POS, 0),
        (id::SCISSORTEST_DIM, 0),
        (id::EARLYDEPTH_DATA, 0),
        (id::DEPTHMAP_ENABLE, 1),
        (id::TEXUNIT_CONFIG, 0),
        (id::DEPTHBUFFER_FORMAT, 2),
        (id::EARLYDEPTH_TEST2, 0),
        (id::FRAMEBUFFER_DIM, FB | (FB - 1) << 12 | 1 << 24),
    ]
}

/// A vertex at clip position `p` whose other semantics are distinct functions of `k`.
fn vertex(p: [f64; 4], k: u32) -> OutVertex {
    let mut v = OutVertex::ONES;
    for (s, a) in v.attr.iter_mut().enumerate() {
        let x = f64::from((k * 7 + s as u32 * 3) % 11) / 10.0;
        *a = f(if (semantic::COLOR..semantic::COLOR + 4).contains(&s) {
            x
        } else {
            2.0 * x - 0.75 + f64::from(k)
        });
    }
    for (c, x) in p.iter().enumerate() {
        v.attr[c] = f(*x);
    }
    v
}

/// A triangle from window points `(x, y, depth, w)` under [`base_config`]'s viewport.
fn wtri(seq: u32, pts: [(f64, f64, f64, f64); 3]) -> Triangle {
    let h = f64::from(FB) / 2.0;
    let mut k = 0;
    Triangle {
        seq,
        v: pts.map(|(x, y, d, w)| {
            k += 1;
            vertex([(x / h - 1.0) * w, (y / h - 1.0) * w, -d * w, w], k + seq)
        }),
    }
}

/// A triangle at clip positions.
fn ctri(seq: u32, p: [[f64; 4]; 3]) -> Triangle {
    let mut k = 0;
    Triangle {
        seq,
        v: p.map(|q| {
            k += 1;
            vertex(q, k + seq)
        }),
    }
}

/// A case of `regs` (over [`base_config`]) then `ops`.
fn directed(regs: &[(u16, u32)], ops: Vec<RastOp>, early: EarlyDepthBuffer) -> RastCase {
    let mut all: Vec<RastOp> = base_config()
        .into_iter()
        .chain(regs.iter().copied())
        .map(|(id, value)| RastOp::Reg { id, value })
        .collect();
    all.extend(ops);
    RastCase {
        ops: all,
        early,
        knobs: Default::default(),
    }
}

fn tris(t: &[Triangle]) -> Vec<RastOp> {
    t.iter().map(|t| RastOp::Tri(*t)).collect()
}

/// Checks `case` on the RTL under three latencies and both feeds against the model; returns
/// the model's run.
fn check(what: &str, case: &RastCase) -> Outcome {
    let want = model_outcome(case);
    for (k, lat) in [
        MemLatency::Zero,
        MemLatency::Fixed(3),
        MemLatency::Random { max: 7, seed: 3 },
    ]
    .into_iter()
    .enumerate()
    {
        for feed in [Feed::Raw, Feed::Sync] {
            let mut rtl = RtlRast::new(RastVariant::Default, lat).unwrap();
            let mut ready = Ready(k as u64 + 11);
            let got = run_rtl(&mut rtl, case, feed, (k > 0).then_some(&mut ready));
            if let Some(msg) = compare(&want, &got) {
                panic!(
                    "{what} ({feed:?}, latency {lat}): RTL differs from the model: {msg}\n{}",
                    case.describe()
                );
            }
        }
    }
    want
}

/// The pixels of `out`'s fragments, as a set.
fn pixels(out: &Outcome) -> std::collections::BTreeSet<(u16, u16)> {
    out.fragments.iter().map(|f| (f.x, f.y)).collect()
}

#[test]
fn rast_directed_fill_rule_ties_on_every_edge() {
    // Right triangles with vertices on pixel centres: a horizontal, a vertical and a 45° edge,
    // each through a row of pixel centres. Four orientations (the right angle at each corner)
    // × both windings: top and bottom, left and right edges, owned and not.
    let (a, b) = (2.5, 11.5);
    let corners = [
        [(a, a), (b, a), (a, b)],
        [(b, a), (b, b), (a, a)],
        [(b, b), (a, b), (b, a)],
        [(a, b), (a, a), (b, b)],
    ];
    for (i, c) in corners.iter().enumerate() {
        for rev in [false, true] {
            let mut p = c.map(|(x, y)| (x, y, 0.5, 1.0));
            if rev {
                p.swap(1, 2);
            }
            let out = check(
                &format!("right triangle {i}, reversed {rev}"),
                &directed(&[], tris(&[wtri(1, p)]), EarlyDepthBuffer::new()),
            );
            // 55 centres in the closed triangle, 10 on each edge (a vertex on two). Right
            // angle at (a, a): a left and a top leg (owned), the hypotenuse a right edge: 45
            // drawn. At (b, a): the bottom leg and the hypotenuse (a left edge) owned: 45. At
            // (b, b) and (a, b) only one edge is owned: 36.
            let want = if i >= 2 { 36 } else { 45 };
            assert_eq!(
                out.fragments.len(),
                want,
                "right triangle {i}, reversed {rev}"
            );
        }
    }
    // Two triangles sharing the diagonal, both windings: every pixel centre of the square
    // drawn exactly once but those on its right and top sides (not owned): 9 × 9.
    for rev in [false, true] {
        let mut t1 = [(a, a, 0.5, 1.0), (b, a, 0.5, 1.0), (a, b, 0.5, 1.0)];
        let mut t2 = [(b, a, 0.25, 1.0), (b, b, 0.25, 1.0), (a, b, 0.25, 1.0)];
        if rev {
            t1.swap(1, 2);
            t2.swap(0, 2);
        }
        let out = check(
            &format!("shared diagonal, reversed {rev}"),
            &directed(
                &[],
                tris(&[wtri(1, t1), wtri(2, t2)]),
                EarlyDepthBuffer::new(),
            ),
        );
        assert_eq!(out.fragments.len(), 81, "shared diagonal, reversed {rev}");
        assert_eq!(pixels(&out).len(), 81);
    }
    // Slopes 1:2 and 2:1 through centres, a fan of thin triangles around one centre, and
    // vertices at pixel corners (edges through centres at half steps).
    let c = (7.5, 7.5, 0.5, 1.0);
    let fan = [
        (13.5, 10.5),
        (10.5, 13.5),
        (1.5, 10.5),
        (4.5, 1.5),
        (13.5, 4.5),
    ];
    let mut ts = Vec::new();
    for i in 0..fan.len() {
        let (p, q) = (fan[i], fan[(i + 1) % fan.len()]);
        ts.push(wtri(
            i as u32,
            [c, (p.0, p.1, 0.5, 1.0), (q.0, q.1, 0.5, 1.0)],
        ));
    }
    let out = check(
        "fan around a centre",
        &directed(&[], tris(&ts), EarlyDepthBuffer::new()),
    );
    assert_eq!(
        out.fragments.len(),
        pixels(&out).len(),
        "a fan draws no pixel twice"
    );
    check(
        "corner vertices",
        &directed(
            &[],
            tris(&[
                wtri(
                    1,
                    [
                        (1.0, 1.0, 0.3, 1.0),
                        (9.0, 5.0, 0.3, 1.0),
                        (3.0, 13.0, 0.3, 1.0),
                    ],
                ),
                wtri(
                    2,
                    [
                        (9.0, 5.0, 0.3, 1.0),
                        (15.0, 15.0, 0.3, 1.0),
                        (3.0, 13.0, 0.3, 1.0),
                    ],
                ),
            ]),
            EarlyDepthBuffer::new(),
        ),
    );
}

#[test]
fn rast_directed_each_clip_plane() {
    let inside = [-0.5, -0.5, -0.5, 1.0];
    type Case = (&'static str, [[f64; 4]; 3], Vec<(u16, u32)>);
    let cases: [Case; 10] = [
        (
            "x <= w",
            [inside, [1.8, 0.0, -0.5, 1.0], [0.0, 0.7, -0.5, 1.0]],
            vec![],
        ),
        (
            "x >= -w",
            [[-1.8, 0.0, -0.5, 1.0], inside, [0.5, 0.7, -0.2, 1.0]],
            vec![],
        ),
        (
            "y <= w",
            [inside, [0.5, 1.9, -0.5, 1.0], [0.7, 0.0, -0.5, 1.0]],
            vec![],
        ),
        (
            "y >= -w",
            [[0.0, -1.7, -0.5, 1.0], [0.7, 0.5, -0.5, 1.0], inside],
            vec![],
        ),
        (
            "z <= 0",
            [inside, [0.6, 0.0, 0.5, 1.0], [0.0, 0.6, -0.5, 1.0]],
            vec![],
        ),
        (
            "z >= -w",
            [inside, [0.6, 0.0, -1.6, 1.0], [0.0, 0.6, -0.3, 1.0]],
            vec![],
        ),
        (
            "both z planes",
            [
                [-0.6, -0.6, 0.4, 1.0],
                [0.7, -0.2, -1.8, 1.0],
                [0.0, 0.8, -0.5, 1.0],
            ],
            vec![],
        ),
        (
            "w >= epsilon",
            [
                [-0.3, -0.3, -0.2, 0.5],
                [0.5, 0.1, 0.2, -0.5],
                [0.0, 0.6, -0.5, 1.0],
            ],
            vec![],
        ),
        (
            "all frustum planes",
            [
                [-9.0, -9.0, -0.5, 1.0],
                [9.0, -9.0, -0.5, 1.0],
                [0.0, 12.0, -0.5, 1.0],
            ],
            vec![],
        ),
        (
            "user plane x + 0.25 y + 0.1 >= 0",
            [inside, [0.8, -0.2, -0.5, 1.0], [-0.1, 0.9, -0.5, 1.0]],
            vec![
                (id::FRAGOP_CLIP, 1),
                (id::FRAGOP_CLIP_DATA0, f(1.0).bits()),
                (id::FRAGOP_CLIP_DATA1, f(0.25).bits()),
                (id::FRAGOP_CLIP_DATA3, f(0.1).bits()),
            ],
        ),
    ];
    for (what, p, regs) in cases {
        // Perspective too: the same triangle with w scaled per vertex.
        for scale in [[1.0, 1.0, 1.0], [1.0, 2.0, 0.5]] {
            let q: [[f64; 4]; 3] = std::array::from_fn(|k| p[k].map(|c| c * scale[k]));
            let out = check(
                &format!("{what}, w scale {scale:?}"),
                &directed(&regs, tris(&[ctri(3, q)]), EarlyDepthBuffer::new()),
            );
            assert!(!out.fragments.is_empty(), "{what}: nothing drawn");
        }
    }
}

#[test]
fn rast_directed_depth_modes_and_formats() {
    let t = wtri(
        1,
        [
            (1.0, 1.0, 0.1, 1.0),
            (15.0, 3.0, 0.9, 4.0),
            (4.0, 14.0, 0.5, 0.5),
        ],
    );
    for enable in [0u32, 1] {
        for fmt in [0u32, 1, 2, 3] {
            for (scale, offset) in [(-1.0, 0.0), (0.5, 0.75), (-2.0, -0.5)] {
                check(
                    &format!(
                        "DEPTHMAP_ENABLE {enable}, format {fmt}, scale {scale} offset {offset}"
                    ),
                    &directed(
                        &[
                            (id::DEPTHMAP_ENABLE, enable),
                            (id::DEPTHBUFFER_FORMAT, fmt),
                            (id::DEPTHMAP_SCALE, f(scale).bits()),
                            (id::DEPTHMAP_OFFSET, f(offset).bits()),
                        ],
                        tris(&[t]),
                        EarlyDepthBuffer::new(),
                    ),
                );
            }
        }
    }
}

#[test]
fn rast_directed_scissor_and_culling() {
    let t = wtri(
        1,
        [
            (0.5, 0.5, 0.5, 1.0),
            (15.5, 2.5, 0.5, 1.0),
            (6.5, 15.5, 0.5, 1.0),
        ],
    );
    let mut r = t;
    r.v.swap(1, 2);
    for mode in 0..4u32 {
        for (pos, dim) in [
            (3 | 4 << 16, 10 | 12 << 16),
            (0, 15 | 15 << 16),
            (9 | 9 << 16, 8 | 12 << 16),
        ] {
            let out = check(
                &format!("scissor mode {mode}, box {pos:#x} {dim:#x}"),
                &directed(
                    &[
                        (id::SCISSORTEST_MODE, mode),
                        (id::SCISSORTEST_POS, pos),
                        (id::SCISSORTEST_DIM, dim),
                    ],
                    tris(&[t]),
                    EarlyDepthBuffer::new(),
                ),
            );
            if mode == 3 && pos == 3 | 4 << 16 {
                assert!(out
                    .fragments
                    .iter()
                    .all(|f| (3..=10).contains(&f.x) && (4..=12).contains(&f.y)));
            }
        }
    }
    for cull in 0..4u32 {
        check(
            &format!("culling {cull}"),
            &directed(
                &[(id::FACECULLING_CONFIG, cull)],
                tris(&[t, r]),
                EarlyDepthBuffer::new(),
            ),
        );
    }
}

#[test]
fn rast_directed_early_depth_functions_and_clears() {
    // Two overlapping triangles, the second nearer in part, drawn twice: each function with
    // the test on, clears to 0, the middle and 1 between them, a buffer holding values before.
    let t1 = wtri(
        1,
        [
            (0.5, 0.5, 0.3, 1.0),
            (15.5, 0.5, 0.6, 2.0),
            (0.5, 15.5, 0.9, 1.0),
        ],
    );
    let t2 = wtri(
        2,
        [
            (15.5, 15.5, 0.2, 1.0),
            (0.5, 3.5, 0.7, 1.0),
            (12.5, 0.5, 0.4, 0.5),
        ],
    );
    let mut before = EarlyDepthBuffer::new();
    before.clear(0x40_0000);
    for i in 0..16u16 {
        before.store(i, i, 0x10_0000 * u32::from(i));
    }
    for func in 0..4u32 {
        for clear in [0u32, 0x80_0000, 0xFF_FFFF] {
            for (t1on, t2on) in [(1, 1), (1, 0)] {
                let regs = [
                    (id::EARLYDEPTH_FUNC, func),
                    (id::EARLYDEPTH_TEST1, t1on),
                    (id::EARLYDEPTH_TEST2, t2on),
                    (id::EARLYDEPTH_DATA, clear),
                ];
                let mut ops = tris(&[t1, t2]);
                ops.push(RastOp::Clear);
                ops.extend(tris(&[t2, t1, t1]));
                ops.push(RastOp::Reg {
                    id: id::EARLYDEPTH_DATA,
                    value: 0x12_3456,
                });
                ops.push(RastOp::Reg {
                    id: EARLY_DEPTH_CLEAR,
                    value: 0,
                });
                ops.extend(tris(&[t2]));
                let out = check(
                    &format!("early depth function {func}, clear 0x{clear:06x}, test {t1on}{t2on}"),
                    &directed(&regs, ops, before.clone()),
                );
                assert_eq!(out.early.clears(), before.clears() + 2);
            }
        }
    }
}

#[test]
fn rast_directed_texture_coordinate_differences() {
    let t = wtri(
        1,
        [
            (0.5, 0.5, 0.3, 1.0),
            (15.5, 4.5, 0.6, 4.0),
            (3.5, 15.5, 0.9, 0.25),
        ],
    );
    for cfg in [0u32, 1, 2, 4, 7, 1 << 10, 0x1000_0008, 0xFFFF_FFFF] {
        let out = check(
            &format!("TEXUNIT_CONFIG 0x{cfg:08x}"),
            &directed(
                &[(id::TEXUNIT_CONFIG, cfg)],
                tris(&[t]),
                EarlyDepthBuffer::new(),
            ),
        );
        let any = out
            .fragments
            .iter()
            .any(|f| f.tex_deriv != [[F24::ZERO; 4]; 3]);
        assert_eq!(any, cfg & 0x407 != 0, "TEXUNIT_CONFIG 0x{cfg:08x}");
    }
}

// ---------------------------------------------------------------------------------------------
// Injected bugs

#[test]
fn rast_random_catches_every_injected_bug() {
    // Each bug within 2,000 cases of each of three seeds; the case index of the first catch
    // is logged per seed.
    catch_every_bug(
        &[
            RastVariant::InjectFillRule,
            RastVariant::InjectPersp,
            RastVariant::InjectClipPlaneOrder,
            RastVariant::InjectClipFastOverwrite,
            RastVariant::InjectClipFastOrder,
            RastVariant::InjectSlotEarly,
            RastVariant::InjectCredit,
        ],
        RastVariant::name,
        3,
        2,
        |variant, seed, n| {
            let latency = MemLatency::Fixed(1);
            campaign(
                variant,
                latency,
                0x4A57_0000 + seed,
                n,
                &mut Totals::default(),
            )
        },
    );
}

// ---------------------------------------------------------------------------------------------
// Stage bundles

#[path = "common/replay.rs"]
mod replay_util;
use replay_util::{replay_passes, replay_rejects, require_sim, root, target_dir};

/// `scripts/replay` names a manifest number that is not one and stops (exit 2) before it
/// builds a model: the kept regression bundle with its `ready_seed` spoiled.
#[test]
fn replay_names_a_bad_manifest_number() {
    let src = root().join("vectors/regressions/fuzz-rast-default-296a0e365de45193");
    let dir = target_dir().join("rast_bad_manifest");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(&src).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
    }
    let manifest = dir.join("manifest.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    assert!(
        text.contains("\"ready_seed\": 1"),
        "the bundle names its ready seed"
    );
    std::fs::write(
        &manifest,
        text.replace("\"ready_seed\": 1", "\"ready_seed\": \"x12\""),
    )
    .unwrap();
    let (passed, out) = replay_util::replay(&dir, "icarus", &[], Duration::from_secs(60));
    assert!(!passed, "a spoiled manifest replayed:\n{out}");
    assert!(
        out.contains("manifest.json: ready_seed is not a number: 'x12'"),
        "no message naming the field:\n{out}"
    );
    assert!(
        !out.contains("built icarus model") && !out.contains("FAIL"),
        "it went on past the manifest:\n{out}"
    );
}

#[test]
fn rast_bundles_round_trip_and_replay() {
    let base = target_dir().join("rast_bundles");
    let _ = std::fs::remove_dir_all(&base);
    let mut gen = RastGen::new(0xB0B);
    let prov = StageProvenance {
        generator: "rtl-bridge/tests/rast_stage.rs".into(),
        seed: Some(0xB0B),
        case_index: None,
        case_seed: None,
        origin: "RastGen".into(),
    };
    let mut dirs = Vec::new();
    for i in 0..20u64 {
        let case = gen.case();
        let dir = base.join(format!("rast-{i:02}"));
        write_rast_bundle(
            &dir,
            &format!("rast/random_{i:02}"),
            "random RAST case",
            &case,
            &prov,
        )
        .unwrap();
        let (m, back, run) = load_rast_bundle(&dir).unwrap();
        assert_eq!(m["kind"], "stage:rast");
        assert_eq!(back.ops, case.ops, "bundle {i}: the ops do not round-trip");
        assert!(
            early_same(&back.early, &case.early),
            "bundle {i}: the early-depth buffer before does not round-trip"
        );
        let want = run_model(&case);
        assert_eq!(run.fragments, want.fragments, "bundle {i}: fragments");
        assert!(
            early_same(&run.early, &want.early),
            "bundle {i}: early-depth buffer after"
        );
        dirs.push((run.fragments.len(), dir));
    }
    // A directed bundle with fill-rule ties on every edge, for the injected-bug replay.
    let ties = directed(
        &[(id::TEXUNIT_CONFIG, 1)],
        tris(&[
            wtri(
                1,
                [
                    (2.5, 2.5, 0.5, 1.0),
                    (11.5, 2.5, 0.5, 1.0),
                    (2.5, 11.5, 0.5, 1.0),
                ],
            ),
            wtri(
                2,
                [
                    (11.5, 2.5, 0.4, 1.0),
                    (11.5, 11.5, 0.4, 1.0),
                    (2.5, 11.5, 0.4, 1.0),
                ],
            ),
        ]),
        EarlyDepthBuffer::new(),
    );
    let ties_dir = base.join("rast-ties");
    write_rast_bundle(&ties_dir, "rast/ties", "fill-rule ties", &ties, &prov).unwrap();
    let tb = root().join("rtl-bridge/tb/pica_rast_replay_tb.sv");
    if !tb.is_file() {
        eprintln!(
            "SKIPPED the replays: {} does not exist yet (21 bundles written and loaded back)",
            tb.display()
        );
        return;
    }
    dirs.sort_by_key(|d| std::cmp::Reverse(d.0));
    let picks: Vec<PathBuf> = dirs.iter().take(3).map(|d| d.1.clone()).collect();
    // The three bundles with the most fragments, one under random latency with output
    // backpressure, one under latency 3, and the ties bundle.
    let mut all: Vec<&PathBuf> = picks.iter().collect();
    all.push(&ties_dir);
    for sim in ["icarus", "verilator"] {
        require_sim(sim);
        replay_passes(&all, sim, Duration::from_secs(900));
        // The replay must reject an RTL with a bug the bundle shows.
        replay_rejects(
            &ties_dir,
            sim,
            "INJECT_RAST_FILL_RULE",
            Duration::from_secs(900),
        );
    }
}

#[test]
fn rast_config_ids_variants_and_bridge_basics() {
    let ids = rast_stage::cfg_ids();
    assert_eq!(ids.len(), NUM_CFG);
    assert_eq!(NUM_CFG, 22);
    assert_eq!(ids, pica_vectors::stage_rast::cfg_ids());
    assert_eq!(ids[0], id::FACECULLING_CONFIG);
    assert_eq!(ids[NUM_CFG - 1], id::FRAMEBUFFER_DIM);
    let names = RtlRast::variants();
    for v in RastVariant::ALL {
        assert!(
            names.iter().any(|n| n == v.name()),
            "{} not built",
            v.name()
        );
        assert_eq!(RastVariant::from_name(v.name()), Some(v));
        if let Some(d) = v.define() {
            assert_eq!(RastVariant::from_name(d), Some(v));
        }
    }
    assert_eq!(
        RastVariant::from_name("fill-rule"),
        Some(RastVariant::InjectFillRule)
    );
    assert_eq!(
        RastVariant::from_name("persp"),
        Some(RastVariant::InjectPersp)
    );
    assert_eq!(
        RastVariant::from_name("plane_order"),
        Some(RastVariant::InjectClipPlaneOrder)
    );
    assert_eq!(
        RastVariant::from_name("clip_plane_order"),
        Some(RastVariant::InjectClipPlaneOrder)
    );
    // An idle stage with a power-on configuration draws nothing (framebuffer width 0) and
    // does not touch the early-depth buffer; `run` finishes.
    let mut rtl = RtlRast::new(RastVariant::Default, MemLatency::Zero).unwrap();
    rtl.sync_config(&RegFile::new());
    let out = rtl.run(&[wtri(
        0,
        [
            (1.0, 1.0, 0.5, 1.0),
            (9.0, 1.0, 0.5, 1.0),
            (1.0, 9.0, 0.5, 1.0),
        ],
    )]);
    assert!(out.is_empty() && rtl.violations().is_empty() && rtl.is_idle());
    assert_eq!(rtl.ed_stats(), Default::default());
    assert_eq!(rtl.counts(), (1, 0));
}
