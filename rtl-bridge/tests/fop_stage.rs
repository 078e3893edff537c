//! The FOP-stage RTL (`pica_fop_top`, [`RtlFop`]) against the model's `process_fragment`:
//! random cases from [`FopGen`] (configurations over every field FOP reads, reserved encodings
//! included, small framebuffers in both tilings and every format, fragments that overlap,
//! leave the framebuffer or hit unmapped memory), compared bit for bit — every pixel beat field
//! but `cycle`, the hang, and every byte of memory — under memory latencies 0, 3 and random up
//! to 7 with output backpressure; directed cases for each format and tiling, straddling and
//! unmapped pixels, reserved formats, gas and shadow; each injected-bug variant must be caught;
//! and stage bundles written, loaded back and replayed with `scripts/replay`.
//!
//! `PICA_FOP_CASES=N` runs N random cases per latency instead of the default.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::beat::PixelBeat;
use pica_model::fop::{FopHang, CONFIG_REGS};
use pica_model::mem::Memory;
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use pica_rtl_bridge::fop_stage::{
    FopFragment, FopResult, FopVariant, MemLatency, Reorder, RtlFop, NUM_CFG,
};
use pica_vectors::case::MemImage;
use pica_vectors::stage::StageProvenance;
use pica_vectors::stage_fop::{
    buffer_ranges, load_fop_bundle, run_model, write_fop_bundle, FopCase, FopGen, FopOp,
};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[path = "common/stage.rs"]
mod stage_util;
use stage_util::{cases_per_run, catch_every_bug, Ready};

/// Random cases per latency unless `PICA_FOP_CASES` says otherwise.
const DEFAULT_CASES: u64 = 10_000;

/// What a run produced (the RTL's or the model's).
#[derive(Debug)]
struct Outcome {
    beats: Vec<PixelBeat>,
    hang: Option<FopHang>,
    mem: Memory,
    violations: Vec<String>,
}

/// How the driver feeds the RTL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Feed {
    /// `sync_config` from a register file before each fragment (the stage adapter's way).
    Sync,
    /// Every register write of the case through `write_reg` (the replay testbench's way).
    Raw,
}

/// Runs `case` on `rtl` (fresh, or reused after a case that did not hang), with the output
/// held not-ready about one clock in four when `ready` is given.
fn run_rtl(rtl: &mut RtlFop, case: &FopCase, feed: Feed, mut ready: Option<&mut Ready>) -> Outcome {
    let mut mem = case.memory();
    let mut regs = RegFile::new();
    let mut out: Vec<FopResult> = Vec::new();
    if feed == Feed::Raw {
        rtl.set_config(&[0; NUM_CFG], &mut mem);
    }
    let mut tag = 0u32;
    let mut stuck = false;
    for op in &case.ops {
        if rtl.hang().is_some() || stuck {
            break;
        }
        match *op {
            FopOp::Reg { id, value } => {
                regs.write(id & 0x3FF, value);
                if feed == Feed::Raw {
                    rtl.write_reg(id, value, &mut mem);
                }
            }
            FopOp::Frag { x, y, depth, color } => {
                if feed == Feed::Sync {
                    rtl.sync_config(&regs, &mut mem);
                }
                rtl.push(FopFragment {
                    tag,
                    x,
                    y,
                    depth,
                    color,
                });
                tag += 1;
                let mut guard = 0;
                while !rtl.can_accept() && rtl.hang().is_none() {
                    let r = ready.as_mut().is_none_or(|g| g.next());
                    if let Some(b) = rtl.tick(&mut mem, r) {
                        out.push(b);
                    }
                    guard += 1;
                    if guard > 20_000 {
                        stuck = true;
                        break;
                    }
                }
            }
        }
    }
    let (rest, hang) = rtl.run(&[], &mut mem);
    out.extend(rest);
    let mut violations = rtl.violations().to_vec();
    for (i, r) in out.iter().enumerate() {
        if r.tag != i as u32 {
            violations.push(format!("beat {i} carries tag {} (order lost)", r.tag));
            break;
        }
    }
    if stuck {
        violations.push("the input port never became ready".into());
    }
    Outcome {
        beats: out.into_iter().map(|r| r.beat).collect(),
        hang,
        mem,
        violations,
    }
}

fn model_outcome(case: &FopCase) -> Outcome {
    let run = run_model(case);
    Outcome {
        beats: run
            .beats
            .into_iter()
            .map(|mut b| {
                b.cycle = 0;
                b
            })
            .collect(),
        hang: run.hang,
        mem: run.mem,
        violations: Vec::new(),
    }
}

/// Every allocated byte of `mem`, by page.
fn pages(mem: &Memory) -> BTreeMap<u32, Vec<u8>> {
    mem.pages().map(|(a, d)| (a, d.to_vec())).collect()
}

/// The first memory difference: (address, model byte, RTL byte).
fn mem_diff(want: &Memory, got: &Memory) -> Option<(u32, u8, u8)> {
    let (w, g) = (pages(want), pages(got));
    let zero = vec![0u8; 4096];
    let mut keys: Vec<u32> = w.keys().chain(g.keys()).copied().collect();
    keys.sort_unstable();
    keys.dedup();
    for k in keys {
        let a = w.get(&k).unwrap_or(&zero);
        let b = g.get(&k).unwrap_or(&zero);
        if let Some(i) = (0..a.len().min(b.len())).find(|&i| a[i] != b[i]) {
            return Some((k + i as u32, a[i], b[i]));
        }
    }
    None
}

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

/// `None` if `got` is `want` bit for bit; else what differs first.
fn compare(want: &Outcome, got: &Outcome) -> Option<String> {
    if !got.violations.is_empty() {
        return Some(format!("protocol: {}", got.violations.join("; ")));
    }
    for (i, (w, g)) in want.beats.iter().zip(&got.beats).enumerate() {
        if w != g {
            let diffs: Vec<String> = beat_fields(w)
                .iter()
                .zip(beat_fields(g))
                .filter(|(a, b)| a.1 != b.1)
                .map(|(a, b)| format!("{} model 0x{:x} rtl 0x{:x}", a.0, a.1, b.1))
                .collect();
            return Some(format!(
                "beat {i}: {}\n  model {w:?}\n  rtl   {g:?}",
                diffs.join(", ")
            ));
        }
    }
    if want.beats.len() != got.beats.len() {
        return Some(format!(
            "model {} beats, rtl {} beats",
            want.beats.len(),
            got.beats.len()
        ));
    }
    if want.hang != got.hang {
        return Some(format!("hang: model {:?}, rtl {:?}", want.hang, got.hang));
    }
    mem_diff(&want.mem, &got.mem)
        .map(|(a, w, g)| format!("memory 0x{a:08x}: model 0x{w:02x}, rtl 0x{g:02x}"))
}

/// Totals of a campaign, for the log.
#[derive(Debug, Default)]
struct Totals {
    fragments: usize,
    beats: usize,
    hangs: usize,
    clocks: u64,
    reads: u64,
    writes: u64,
    /// The most AXI4 transactions in flight at once.
    max_outstanding: u64,
}

impl Totals {
    fn add_rtl(&mut self, rtl: &RtlFop) {
        let (r, w) = rtl.mem_stats();
        self.clocks += rtl.cycles();
        self.reads += r;
        self.writes += w;
        self.max_outstanding = self.max_outstanding.max(rtl.axi_tally().max_outstanding);
    }
}

/// Runs `n` cases of seed `seed` on `variant` with `latency`; the first mismatch as (case
/// index, report). One RTL instance is reused until a case hangs (a hang is sticky).
fn campaign(
    variant: FopVariant,
    latency: MemLatency,
    seed: u64,
    n: u64,
    totals: &mut Totals,
) -> Option<(u64, String)> {
    campaign_reordered(variant, latency, Reorder::InOrder, seed, n, totals)
}

/// [`campaign`] with the AXI4 port's responses reordered as `reorder` says.
fn campaign_reordered(
    variant: FopVariant,
    latency: MemLatency,
    reorder: Reorder,
    seed: u64,
    n: u64,
    totals: &mut Totals,
) -> Option<(u64, String)> {
    let mut gen = FopGen::new(seed);
    let mut ready = Ready(seed ^ 0xA5A5);
    let mut rtl = RtlFop::with_reorder(variant, latency, reorder).unwrap();
    for i in 0..n {
        let case = gen.case();
        let feed = if i % 2 == 0 { Feed::Sync } else { Feed::Raw };
        let want = model_outcome(&case);
        let got = run_rtl(&mut rtl, &case, feed, Some(&mut ready));
        totals.fragments += case.fragments();
        totals.beats += got.beats.len();
        totals.hangs += usize::from(got.hang.is_some());
        if let Some(msg) = compare(&want, &got) {
            return Some((
                i,
                format!(
                    "{msg}\n{} ({feed:?}, latency {latency}, reorder {reorder}, {} fragments)\n{}",
                    variant.name(),
                    case.fragments(),
                    case.describe()
                ),
            ));
        }
        if got.hang.is_some() || !rtl.is_idle() {
            totals.add_rtl(&rtl);
            rtl = RtlFop::with_reorder(variant, latency, reorder).unwrap();
        }
    }
    totals.add_rtl(&rtl);
    None
}

fn run_campaign(latency: MemLatency, seed: u64) {
    let n = cases_per_run("PICA_FOP_CASES", DEFAULT_CASES);
    let t = Instant::now();
    let mut tot = Totals::default();
    if let Some((i, msg)) = campaign(FopVariant::Default, latency, seed, n, &mut tot) {
        panic!("case {i} of seed {seed:#x}: RTL differs from the model: {msg}");
    }
    eprintln!(
        "latency {latency}: {n} cases in {:.2} s: {} fragments, {} beats, {} hangs; RTL {} \
         clocks, {} memory reads, {} writes",
        t.elapsed().as_secs_f64(),
        tot.fragments,
        tot.beats,
        tot.hangs,
        tot.clocks,
        tot.reads,
        tot.writes
    );
    assert!(tot.beats > 0 && tot.writes > 0 && tot.reads > 0);
}

#[test]
fn fop_random_cases_match_the_model_latency_0() {
    run_campaign(MemLatency::Zero, 0xF0F_0001);
}

#[test]
fn fop_random_cases_match_the_model_latency_3() {
    run_campaign(MemLatency::Fixed(3), 0xF0F_0002);
}

#[test]
fn fop_random_cases_match_the_model_latency_random_7() {
    run_campaign(
        MemLatency::Random {
            max: 7,
            seed: 0x5EED,
        },
        0xF0F_0003,
    );
}

/// The AXI4 port with its responses out of order across IDs, and read bursts of different IDs
/// interleaved: the same beats, hangs and memory as the model (the master's reorder buffer and
/// same-word rule make the order invisible), and no AXI4 rule broken.
#[test]
fn fop_random_cases_match_the_model_reordered() {
    let n = cases_per_run("PICA_FOP_CASES", DEFAULT_CASES) / 2;
    for (reorder, seed) in [
        (Reorder::AcrossIds, 0xF0F_0011u64),
        (Reorder::Interleave, 0xF0F_0012),
    ] {
        let latency = MemLatency::Random { max: 9, seed };
        let mut tot = Totals::default();
        if let Some((i, msg)) =
            campaign_reordered(FopVariant::Default, latency, reorder, seed, n, &mut tot)
        {
            panic!("case {i} of seed {seed:#x}: RTL differs from the model: {msg}");
        }
        eprintln!(
            "reorder {reorder}, latency {latency}: {n} cases: {} beats, RTL {} clocks, {} reads, \
             {} writes, at most {} in flight",
            tot.beats, tot.clocks, tot.reads, tot.writes, tot.max_outstanding
        );
        assert!(tot.beats > 0 && tot.writes > 0 && tot.reads > 0);
        // Posted writes put a read beside a write: the port has something to reorder.
        assert!(tot.max_outstanding >= 2, "never two transactions in flight");
    }
}

#[test]
fn fop_results_do_not_depend_on_latency() {
    // The same cases under three latencies (and no backpressure): identical beats, hangs and
    // memory, cycle counts aside.
    let lats = [
        MemLatency::Zero,
        MemLatency::Fixed(5),
        MemLatency::Random { max: 7, seed: 9 },
    ];
    let mut gen = FopGen::new(0xF0F_0004);
    let mut cycles = [0u64; 3];
    for i in 0..300 {
        let case = gen.case();
        let outs: Vec<Outcome> = lats
            .iter()
            .enumerate()
            .map(|(k, &l)| {
                let mut rtl = RtlFop::new(FopVariant::Default, l).unwrap();
                let o = run_rtl(&mut rtl, &case, Feed::Sync, None);
                cycles[k] += rtl.cycles();
                o
            })
            .collect();
        for (k, o) in outs.iter().enumerate().skip(1) {
            if let Some(msg) = compare(&outs[0], o) {
                panic!(
                    "case {i}: latency {} differs from latency 0: {msg}\n{}",
                    lats[k],
                    case.describe()
                );
            }
        }
    }
    eprintln!(
        "clocks for 300 cases: latency 0 {}, 5 {}, rand:7 {}",
        cycles[0], cycles[1], cycles[2]
    );
    assert!(
        cycles[0] < cycles[1],
        "latency 5 should take longer than latency 0"
    );
}

// ---------------------------------------------------------------------------------------------
// Directed cases

const VRAM_END: u32 = 0x1860_0000;

/// Register writes for a configuration given as (register, value) pairs over a base
/// configuration that reads and writes everything, blends `src·a + dst·(1-a)`, and tests
/// depth LESS with writes.
fn base_config() -> Vec<(u16, u32)> {
    vec![
        (id::COLOR_OPERATION, 0x00E4_0100),
        (id::BLEND_FUNC, 0x7676_0000),
        (id::LOGIC_OP, 3),
        (id::BLEND_COLOR, 0x8040_20FF),
        (id::FRAGOP_ALPHA_TEST, 0),
        (id::STENCIL_TEST, 0xFF00_FF71),
        (id::STENCIL_OP, 0x0765),
        (id::DEPTH_COLOR_MASK, 0x1F41),
        (id::COLORBUFFER_READ, 0xF),
        (id::COLORBUFFER_WRITE, 0xF),
        (id::DEPTHBUFFER_READ, 3),
        (id::DEPTHBUFFER_WRITE, 3),
        (id::DEPTHBUFFER_FORMAT, 3),
        (id::COLORBUFFER_FORMAT, 0x2),
        (id::FRAMEBUFFER_BLOCK32, 0),
        (id::DEPTHBUFFER_LOC, 0x1810_0000 >> 3),
        (id::COLORBUFFER_LOC, 0x1800_0000 >> 3),
        (id::FRAMEBUFFER_DIM, 32 | 31 << 12 | 1 << 24),
        (id::GAS_DELTAZ_DEPTH, 0x0200_0100),
        (id::FRAGOP_SHADOW, 0xB800_3C00),
    ]
}

/// A case of `regs` (over [`base_config`]) and fragments, images over every buffer filled
/// with a word pattern.
fn directed(regs: &[(u16, u32)], frags: &[(u16, u16, u32, [u8; 4])]) -> FopCase {
    let mut ops: Vec<FopOp> = base_config()
        .into_iter()
        .chain(regs.iter().copied())
        .map(|(id, value)| FopOp::Reg { id, value })
        .collect();
    ops.extend(
        frags
            .iter()
            .map(|&(x, y, depth, color)| FopOp::Frag { x, y, depth, color }),
    );
    let images = buffer_ranges(&ops)
        .into_iter()
        .map(|(s, e)| MemImage {
            base: s as u32,
            words: (0..((e - s) / 4) as u32)
                .map(|i| 0x9E37_79B9u32.wrapping_mul(i + 1) ^ 0x5A5A_0000)
                .collect(),
        })
        .collect();
    FopCase {
        ops,
        images,
        knobs: Default::default(),
    }
}

/// Checks `case` on the RTL under three latencies against the model; returns the model's run.
fn check(what: &str, case: &FopCase) -> Outcome {
    let want = model_outcome(case);
    for lat in [
        MemLatency::Zero,
        MemLatency::Fixed(3),
        MemLatency::Random { max: 7, seed: 3 },
    ] {
        for feed in [Feed::Sync, Feed::Raw] {
            let mut rtl = RtlFop::new(FopVariant::Default, lat).unwrap();
            let got = run_rtl(&mut rtl, case, feed, None);
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

/// Fragments over a `w`×`h` buffer: every pixel of a few rows and columns, then a few pixels
/// again (read-after-write), with varied colours and depths.
fn sweep(w: u16, h: u16) -> Vec<(u16, u16, u32, [u8; 4])> {
    let mut v = Vec::new();
    let mut k = 1u32;
    let mut push = |x: u16, y: u16, v: &mut Vec<(u16, u16, u32, [u8; 4])>| {
        k = k.wrapping_mul(0x0101_0101).wrapping_add(0x3F1D_2A57);
        v.push((x, y, k & 0xFF_FFFF, k.rotate_left(7).to_le_bytes()));
    };
    for y in [0, 1, 7, 8, 31, h - 1] {
        for x in 0..w {
            if y < h {
                push(x, y, &mut v);
            }
        }
    }
    for x in [0, 3, 7, 8, 31, w - 1] {
        for y in 0..h {
            if x < w {
                push(x, y, &mut v);
            }
        }
    }
    for _ in 0..2 {
        for (x, y) in [(0, 0), (5, 9), (w - 1, h - 1)] {
            push(x, y, &mut v);
        }
    }
    v
}

#[test]
fn fop_directed_every_color_format_and_tiling() {
    for fmt in 0..5u32 {
        for block32 in [0, 1] {
            for (w, h) in [(32u16, 32u16), (64, 40)] {
                let dim = u32::from(w) | u32::from(h - 1) << 12 | 1 << 24;
                let regs = [
                    (id::COLORBUFFER_FORMAT, fmt << 16),
                    (id::FRAMEBUFFER_BLOCK32, block32),
                    (id::FRAMEBUFFER_DIM, dim),
                    (id::DEPTH_COLOR_MASK, 0x1F71), // depth GREATER_EQUAL
                ];
                check(
                    &format!("colour format {fmt}, block32 {block32}, {w}x{h}"),
                    &directed(&regs, &sweep(w, h)),
                );
            }
        }
    }
}

#[test]
fn fop_directed_every_depth_format_and_tiling() {
    for fmt in [0u32, 2, 3] {
        for block32 in [0, 1] {
            for func in [1u32, 4, 7] {
                let regs = [
                    (id::DEPTHBUFFER_FORMAT, fmt),
                    (id::FRAMEBUFFER_BLOCK32, block32),
                    (id::DEPTH_COLOR_MASK, 0x1F01 | func << 4),
                    (id::COLORBUFFER_FORMAT, 1 << 16),
                ];
                check(
                    &format!("depth format {fmt}, block32 {block32}, function {func}"),
                    &directed(&regs, &sweep(32, 32)),
                );
            }
        }
    }
}

#[test]
fn fop_directed_straddling_rgb8_and_d24_pixels() {
    // RGB8 colour and D24 depth: 3-byte pixels, three of every four cross a word boundary.
    let regs = [
        (id::COLORBUFFER_FORMAT, 1 << 16),
        (id::DEPTHBUFFER_FORMAT, 2),
        (id::DEPTH_COLOR_MASK, 0x1F11),
    ];
    let mut frags = Vec::new();
    for x in 0..8u16 {
        frags.push((x, 31, 0x10_0000 * u32::from(x), [x as u8 * 30, 1, 2, 200]));
    }
    // Again, read-modify-write of pixels that straddle.
    for x in 0..8u16 {
        frags.push((x, 31, 0x12_3456, [9, 8, 7, 100]));
    }
    check("RGB8 / D24 straddling words", &directed(&regs, &frags));
}

#[test]
fn fop_directed_straddle_and_unmapped_at_the_end_of_vram() {
    // Buffers based 8 bytes before the end of VRAM, 8x8 tiles: memory row 0 is window y = 7,
    // pixel (x, y) has index morton(x, 7 - y). RGB8 / D24: index 0 at bytes 0-2, index 1 at
    // 3-5, index 2 ((0, 6)) at 6-8 — straddling the end of VRAM —, index 3 ((1, 6)) and index
    // 4 ((2, 7)) beyond it.
    let base = VRAM_END - 8;
    for (read, what) in [(0xF, "reads on"), (0, "reads off")] {
        for (x, y) in [(0u16, 6u16), (1, 6), (2, 7)] {
            let regs = [
                (id::COLORBUFFER_FORMAT, 1 << 16),
                (id::COLORBUFFER_LOC, base >> 3),
                (id::COLORBUFFER_READ, read),
                (id::DEPTH_COLOR_MASK, 0x0F00), // no depth test, no depth write
                (id::DEPTHBUFFER_READ, 0),
                (id::DEPTHBUFFER_WRITE, 0),
                (id::FRAMEBUFFER_DIM, 8 | 7 << 12 | 1 << 24),
            ];
            // Pixels 0 and 1 first (mapped, the word before the end written), then the one
            // at the end: nothing of it may be written.
            let frags = [
                (0, 7, 5, [1, 2, 3, 4]),
                (1, 7, 5, [5, 6, 7, 8]),
                (x, y, 5, [9; 4]),
            ];
            let out = check(
                &format!("RGB8 at the end of VRAM, ({x}, {y}), {what}"),
                &directed(&regs, &frags),
            );
            assert!(
                matches!(
                    out.hang,
                    Some(FopHang::Unmapped {
                        buffer: "color",
                        ..
                    })
                ),
                "({x}, {y}) {what}: {:?}",
                out.hang
            );
        }
    }
    // Depth at the end of VRAM with reads off: D24 written whole (depth ALWAYS) across the
    // end; D24S8 with depth NEVER writes only the stencil byte (depth_addr + 3), beyond the
    // end for index 2 and mapped for index 1.
    for (fmt, func, (x, y), hangs) in [
        (2u32, 1u32, (0u16, 6u16), true),
        (2, 1, (1, 7), false),
        (3, 0, (0, 6), true),
        (3, 0, (1, 7), false),
    ] {
        let regs = [
            (id::DEPTHBUFFER_FORMAT, fmt),
            (id::DEPTHBUFFER_LOC, base >> 3),
            (id::DEPTHBUFFER_READ, 0),
            (id::DEPTH_COLOR_MASK, 0x1F01 | func << 4),
            (id::STENCIL_TEST, 0xFFFF_FF11),
            (id::FRAMEBUFFER_DIM, 8 | 7 << 12 | 1 << 24),
        ];
        let frags = [(0, 7, 5, [1, 2, 3, 4]), (x, y, 0x77_7777, [9; 4])];
        let out = check(
            &format!("depth format {fmt} at the end of VRAM, ({x}, {y})"),
            &directed(&regs, &frags),
        );
        assert_eq!(
            matches!(
                out.hang,
                Some(FopHang::Unmapped {
                    buffer: "depth",
                    ..
                })
            ),
            hangs,
            "depth format {fmt} ({x}, {y}): {:?}",
            out.hang
        );
    }
}

#[test]
fn fop_directed_reserved_formats_hang_first() {
    for (cf, df) in [(5u32, 0u32), (6, 3), (7, 2), (0, 1), (5, 1), (4, 3)] {
        for (x, y) in [(3u16, 3u16), (100, 3)] {
            let regs = [
                (id::COLORBUFFER_FORMAT, cf << 16),
                (id::DEPTHBUFFER_FORMAT, df),
            ];
            let frags = [(x, y, 5, [1, 2, 3, 4]), (1, 1, 5, [1, 2, 3, 4])];
            let out = check(
                &format!("colour format {cf}, depth format {df}, fragment at ({x}, {y})"),
                &directed(&regs, &frags),
            );
            if cf >= 5 || df == 1 {
                assert!(matches!(out.hang, Some(FopHang::ReservedFormat { .. })));
                assert!(out.beats.is_empty());
            }
        }
    }
    // A reserved fragment mode (2) runs as default.
    check(
        "fragment mode 2",
        &directed(&[(id::COLOR_OPERATION, 0x00E4_0102)], &sweep(32, 32)),
    );
}

#[test]
fn fop_directed_gas() {
    for func in 0..4u32 {
        for (k, df) in [(0x100u32, 3u32), (0x80, 0), (0xFF_FFFF, 2), (0, 3)] {
            for cf in [0u32, 2] {
                let regs = [
                    (id::COLOR_OPERATION, 0x00E4_0001),
                    (id::GAS_DELTAZ_DEPTH, k | func << 24),
                    (id::DEPTHBUFFER_FORMAT, df),
                    (id::COLORBUFFER_FORMAT, cf << 16),
                    (id::DEPTH_COLOR_MASK, 0x0B00 | 0x1071),
                ];
                check(
                    &format!("gas: function {func}, k {k:#x}, depth format {df}, colour {cf}"),
                    &directed(&regs, &sweep(32, 32)),
                );
            }
        }
    }
}

#[test]
fn fop_directed_shadow() {
    let f16s: [u32; 10] = [
        0x3C00, 0xB800, 0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x0001, 0x7BFF, 0x4000,
    ];
    for (i, &c) in f16s.iter().enumerate() {
        for &l in f16s.iter().skip(i % 3).step_by(3) {
            for df in [0u32, 3] {
                let regs = [
                    (id::COLOR_OPERATION, 0x00E4_0003),
                    (id::FRAGOP_SHADOW, c | l << 16),
                    (id::DEPTHBUFFER_FORMAT, df),
                    (id::COLORBUFFER_FORMAT, 0),
                ];
                check(
                    &format!("shadow: C {c:#06x}, L {l:#06x}, depth format {df}"),
                    &directed(&regs, &sweep(32, 32)),
                );
            }
        }
    }
    // Shadow mode in a 16-bit colour format, reads off.
    check(
        "shadow in RGB565, reads off",
        &directed(
            &[
                (id::COLOR_OPERATION, 0x00E4_0003),
                (id::COLORBUFFER_FORMAT, 3 << 16),
                (id::COLORBUFFER_READ, 0),
            ],
            &sweep(32, 32),
        ),
    );
}

// ---------------------------------------------------------------------------------------------
// Injected bugs

#[test]
fn fop_random_catches_every_injected_bug() {
    // Each bug within 2,000 cases of each of five seeds; the case index of the first catch is
    // logged per seed.
    catch_every_bug(
        &[
            FopVariant::InjectBlendFactor,
            FopVariant::InjectStencilZfail,
            FopVariant::InjectTile32,
        ],
        FopVariant::name,
        5,
        3,
        |variant, seed, n| {
            let latency = MemLatency::Fixed(1);
            campaign(
                variant,
                latency,
                0xF0F_0000 + seed,
                n,
                &mut Totals::default(),
            )
        },
    );
}

/// The bugs only a design with several memory transactions in flight can have (both in
/// `pica_axi_master`, built into the FOP top): caught by the same random cases once the AXI4
/// port answers at random latency out of order across IDs.
#[test]
fn fop_random_catches_the_pipelined_only_bugs() {
    catch_every_bug(
        &[FopVariant::InjectAxiNoHazard, FopVariant::InjectAxiDropB],
        FopVariant::name,
        5,
        3,
        |variant, seed, n| {
            let latency = MemLatency::Random {
                max: 6,
                seed: 0xA11 + seed,
            };
            campaign_reordered(
                variant,
                latency,
                Reorder::AcrossIds,
                0xF0F_0100 + seed,
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

#[test]
fn fop_bundles_round_trip_and_replay() {
    let base = target_dir().join("fop_bundles");
    let _ = std::fs::remove_dir_all(&base);
    let mut gen = FopGen::new(0xB0B);
    let prov = StageProvenance {
        generator: "rtl-bridge/tests/fop_stage.rs".into(),
        seed: Some(0xB0B),
        case_index: None,
        case_seed: None,
        origin: "FopGen".into(),
    };
    let mut dirs = Vec::new();
    for i in 0..20u64 {
        let case = gen.case();
        let dir = base.join(format!("fop-{i:02}"));
        write_fop_bundle(
            &dir,
            &format!("fop/random_{i:02}"),
            "random FOP case",
            &case,
            &prov,
        )
        .unwrap();
        let (m, back, run) = load_fop_bundle(&dir).unwrap();
        assert_eq!(m["kind"], "stage:fop");
        assert_eq!(back, case, "bundle {i}: the case does not round-trip");
        let want = run_model(&case);
        assert_eq!(run.hang, want.hang, "bundle {i}: hang");
        assert_eq!(run.beats, want.beats, "bundle {i}: beats");
        assert_eq!(
            pica_vectors::stage_fop::image_words(&run.mem, &case.images),
            want.final_images(&case.images),
            "bundle {i}: final memory"
        );
        dirs.push((run.beats.len(), run.hang.is_some(), dir));
    }
    let mut picks: Vec<PathBuf> = Vec::new();
    let mut by_beats: Vec<&(usize, bool, PathBuf)> = dirs.iter().filter(|d| !d.1).collect();
    by_beats.sort_by_key(|d| std::cmp::Reverse(d.0));
    picks.extend(by_beats.iter().take(4).map(|d| d.2.clone()));
    picks.extend(dirs.iter().filter(|d| d.1).take(1).map(|d| d.2.clone()));
    let tb = root().join("rtl-bridge/tb/pica_fop_replay_tb.sv");
    if !tb.is_file() {
        eprintln!("SKIPPED the replays: {} does not exist yet", tb.display());
        return;
    }
    for sim in ["icarus", "verilator"] {
        require_sim(sim);
        // A few bundles — the four with the most beats and the first that hangs — one of them
        // under random latency with output backpressure, one under latency 3.
        replay_passes(&picks, sim, Duration::from_secs(600));
        // The replay must reject an RTL with a bug the bundle shows: a 32×32-block buffer
        // with fragments on memory row y' = 31 (window y = 64 - 1 - 31), built with
        // INJECT_FOP_TILE32.
        let regs = [
            (id::FRAMEBUFFER_BLOCK32, 1),
            (id::FRAMEBUFFER_DIM, 32 | 63 << 12 | 1 << 24),
        ];
        let case = directed(&regs, &[(3, 32, 5, [1, 2, 3, 4]), (17, 32, 6, [5; 4])]);
        let dir = base.join("fop-tile32");
        write_fop_bundle(&dir, "fop/tile32", "block-row edge", &case, &prov).unwrap();
        replay_passes(&[&dir], sim, Duration::from_secs(600));
        replay_rejects(&dir, sim, "INJECT_FOP_TILE32", Duration::from_secs(600));
    }
}

#[test]
fn fop_config_regs_are_the_model_table() {
    // The bridge's slot order is the model's table (the RTL port takes IDs, so any order
    // works, but NUM_CFG must match).
    assert_eq!(NUM_CFG, CONFIG_REGS.len());
    assert_eq!(
        "rand:7:5".parse::<MemLatency>(),
        Ok(MemLatency::Random { max: 7, seed: 5 })
    );
    assert_eq!("0".parse::<MemLatency>(), Ok(MemLatency::Zero));
    assert_eq!("3".parse::<MemLatency>(), Ok(MemLatency::Fixed(3)));
    assert_eq!(
        "rand:4".parse::<MemLatency>(),
        Ok(MemLatency::Random { max: 4, seed: 0 })
    );
    assert!("rand:x".parse::<MemLatency>().is_err());
    for l in [
        MemLatency::Zero,
        MemLatency::Fixed(9),
        MemLatency::Random { max: 3, seed: 77 },
    ] {
        assert_eq!(l.to_string().parse::<MemLatency>(), Ok(l));
    }
    let names = RtlFop::variants();
    for v in FopVariant::ALL {
        assert!(
            names.iter().any(|n| n == v.name()),
            "{} not built",
            v.name()
        );
        assert_eq!(FopVariant::from_name(v.name()), Some(v));
    }
    assert_eq!(
        FopVariant::from_name("tile32"),
        Some(FopVariant::InjectTile32)
    );
}
