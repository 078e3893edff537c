//! `pica fuzz --target tev`: random combiner configurations and fragment streams on the TEV
//! stage, shrunk on failure and saved as TEV stage bundles (`pica_vectors::stage_tev`).
//!
//! Case `i` of seed `S` is [`generate`]`(`[`case_seed`](crate::fuzz::report::case_seed)`(S, i))`: one to four configurations
//! from [`TevGen`] (every TEXENV field, reserved sources, operands, combine modes and scales
//! and junk in the unused bits included; a later configuration is a new one or the previous one
//! with a few registers taken from another), each written as the register writes that change
//! it (in random order, sometimes with redundant writes), followed by one to six random
//! fragments. `--shard I/N` splits a campaign as the other fuzzers do.
//!
//! - **With RTL** (`--rtl`): the Verilated `pica_tev_top` ([`RtlTev`], `--variant`) runs the
//!   case under random output backpressure, registers written between fragments as the model
//!   applies them, and every result must equal the model's [`tev::combine`] — tag, the six
//!   stage outputs and buffers (the `combiner` beats) and the final colour — fragment by
//!   fragment, in order.
//! - **Without RTL** ([`check_model`]): the model checks itself. Each fragment's six beats must
//!   chain (stage `s` recomputed with [`tev::run_stage`] / [`tev::buffer_after`] from the
//!   *recorded* beat of stage `s - 1` gives the recorded beat `s`; the final colour is stage
//!   5's); an input colour no source names, a stage's constant colour its sources do not name,
//!   and the buffer colour when no stage reads the buffer must not change any stage's colour
//!   when perturbed; and the stage bundle written for the case reads back (SHA-256, formats,
//!   counts) as the same operations and beats.
//!
//! A failure is shrunk by the campaign's loop over [`shrink_steps`]: fewest fragments, then fewest register writes, then
//! simpler values (fragment position 0, colours and channels 0, register nibbles and bits 0,
//! i.e. sources "primary colour", operands "colour", mode REPLACE, scale 1×) — repeated until
//! nothing more goes — and written as `fuzz-tev-<model|variant>-<case seed>/`.

use crate::fuzz::campaign::{self, impl_stage_target, ShrinkStep, Shrinker};
use crate::fuzz::report::FuzzReport;
use pica_model::regfile::RegFile;
use pica_model::regs;
use pica_model::tev::{self, StageRegs, NUM_STAGES, STAGE0_PREVIOUS_BUFFER};
use pica_rtl_bridge::coverage::CoverageSink;
use pica_rtl_bridge::tev_stage::{RtlTev, TevFragment, TevGen, TevResult, TevVariant};
use pica_vectors::stage::StageProvenance;
use pica_vectors::stage_tev::{
    beats_of, compare_beats, parse_tev_bundle, render_tev_bundle, run_model, tev_reg_id,
    tev_reg_slot, tev_words, write_tev_bundle, TevCase, TevOp, TevRun, NUM_TEV_REGS,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Checks tried per shrink (each one model run, and with RTL one RTL run).
pub const MAX_SHRINK_CHECKS: usize = 20_000;

/// Parameters of a TEV fuzz campaign (the one stage-fuzz options type).
pub type TevFuzzOptions = campaign::TargetOptions<TevVariant>;

/// The stages whose knobs `--target tev` applies: the combiners only.
pub const STAGE_KNOBS: &[&str] = &["tev"];

/// The RTL define a TEV variant is built with (none for the default build).
pub fn tev_variant_define(v: TevVariant) -> Option<&'static str> {
    match v {
        TevVariant::Default | TevVariant::Mutant(_) | TevVariant::Coverage => None,
        TevVariant::InjectScaleSat => Some("INJECT_TEV_SCALE_SAT"),
        TevVariant::InjectBuffer => Some("INJECT_TEV_BUFFER"),
    }
}

/// The variant a stage bundle's `defines` select (the default build unless an injected-bug
/// define is listed).
pub fn tev_variant_of_defines<'a>(defines: impl IntoIterator<Item = &'a str>) -> TevVariant {
    let defines: Vec<&str> = defines.into_iter().collect();
    TevVariant::ALL
        .into_iter()
        .find(|v| tev_variant_define(*v).is_some_and(|d| defines.contains(&d)))
        .unwrap_or(TevVariant::Default)
}

/// The case of `case_seed`.
pub fn generate(case_seed: u64) -> TevCase {
    let mut g = TevGen::new(case_seed);
    let mut ops = Vec::new();
    let mut cur = [0u32; NUM_TEV_REGS];
    let segments = 1 + g.below(4);
    for seg in 0..segments {
        let target = if seg == 0 || g.below(3) == 0 {
            g.config()
        } else {
            // A few registers change between fragments.
            let other = g.config();
            let mut t = cur;
            for _ in 0..1 + g.below(4) {
                let s = g.below(NUM_TEV_REGS as u32) as usize;
                t[s] = other[s];
            }
            t
        };
        let mut slots: Vec<usize> = (0..NUM_TEV_REGS)
            .filter(|&s| target[s] != cur[s] || g.below(24) == 0)
            .collect();
        for i in (1..slots.len()).rev() {
            let j = g.below(i as u32 + 1) as usize;
            slots.swap(i, j);
        }
        for s in slots {
            if g.below(32) == 0 {
                // A value that a later write replaces.
                ops.push(TevOp::Reg {
                    id: tev_reg_id(s),
                    value: g.next_u64() as u32,
                });
            }
            ops.push(TevOp::Reg {
                id: tev_reg_id(s),
                value: target[s],
            });
        }
        cur = target;
        for _ in 0..1 + g.below(6) {
            let f = g.fragment(0);
            let (x, y) = if g.below(8) == 0 {
                (g.next_u64() as u16, g.next_u64() as u16)
            } else {
                (g.below(1024) as u16, g.below(1024) as u16)
            };
            ops.push(TevOp::Frag {
                x,
                y,
                inputs: f.inputs,
            });
        }
    }
    TevCase {
        ops,
        knobs: Default::default(),
    }
}

/// A register file holding `words` (slot order) and zero elsewhere, with `knobs`.
fn regs_of(words: &[u32; NUM_TEV_REGS], knobs: pica_model::knobs::Knobs) -> RegFile {
    let mut r = RegFile::new();
    r.set_knobs(knobs);
    r.set_record_beats(false);
    for (s, w) in words.iter().enumerate() {
        r.write(tev_reg_id(s), *w);
    }
    r
}

/// Source nibbles of a SOURCE word (RGB 0-2, alpha 0-2).
fn sources(word: u32) -> [u32; 6] {
    [0, 4, 8, 16, 20, 24].map(|sh| word >> sh & 0xF)
}

/// Which of the seven input colours (primary, lighting primary, lighting secondary, textures
/// 0-3) any source of `words` names (stage 0's "previous" reads the primary colour).
fn referenced_inputs(words: &[u32; NUM_TEV_REGS]) -> [bool; 7] {
    let mut r = [false; 7];
    for s in 0..NUM_STAGES {
        for v in sources(words[5 * s]) {
            if v < 7 {
                r[v as usize] = true;
            }
            if s == 0 && v == 15 {
                r[0] = true;
            }
        }
    }
    r
}

/// Every stage colour of `out` (not the buffers).
fn colors(out: &tev::TevOut) -> [[u8; 4]; NUM_STAGES] {
    out.stages.map(|s| s.color)
}

/// The model's self-check of `case` (module docs): `Err` names what broke.
pub fn check_model(case: &TevCase) -> Result<(), String> {
    let run = run_model(case);
    let mut k = 0;
    for op in &case.ops {
        let TevOp::Frag { x, y, inputs } = op else {
            continue;
        };
        let words = &run.configs[k];
        let regs = regs_of(words, case.knobs);
        let out = &run.outs[k];
        let beats = &run.beats[NUM_STAGES * k..NUM_STAGES * (k + 1)];
        let at = format!("fragment {k} (x {x}, y {y})");
        // The six beats chain.
        let update = regs::TexenvUpdateBuffer(words[30]);
        let buffer_color = words[31].to_le_bytes();
        // Stage 0's "previous" (knob `tev-stage0-previous`).
        let first = match case.knobs.tev_stage0_previous {
            pica_model::knobs::TevStage0Previous::Primary => inputs.primary,
            pica_model::knobs::TevStage0Previous::Zero => [0; 4],
        };
        let (mut prev, mut pbuf) = (first, STAGE0_PREVIOUS_BUFFER);
        for (s, b) in beats.iter().enumerate() {
            if (b.cycle, b.x, b.y, usize::from(b.stage)) != (k as u64, *x, *y, s) {
                return Err(format!("{at} stage {s}: beat header {b:?}"));
            }
            let c = tev::run_stage(&StageRegs::read(&regs, s), inputs, prev, pbuf);
            let bu = tev::buffer_after(s, update, buffer_color, prev, pbuf);
            if u32::from_le_bytes(c) != b.color || u32::from_le_bytes(bu) != b.buffer {
                return Err(format!(
                    "{at} stage {s}: recomputed from stage {} gives colour {:08x} buffer {:08x}, \
                     the beat says {:08x} {:08x}",
                    s.saturating_sub(1),
                    u32::from_le_bytes(c),
                    u32::from_le_bytes(bu),
                    b.color,
                    b.buffer
                ));
            }
            prev = b.color.to_le_bytes();
            pbuf = b.buffer.to_le_bytes();
        }
        if out.color != out.stages[5].color {
            return Err(format!("{at}: final colour is not stage 5's"));
        }
        // Inputs no source names do not matter.
        let used = referenced_inputs(words);
        let mut other = *inputs;
        let flip = |c: &mut [u8; 4]| *c = c.map(|v| v ^ 0xA5);
        let slots: [&mut [u8; 4]; 7] = {
            let [t0, t1, t2, t3] = &mut other.tex;
            [
                &mut other.primary,
                &mut other.frag_primary,
                &mut other.frag_secondary,
                t0,
                t1,
                t2,
                t3,
            ]
        };
        for (i, c) in slots.into_iter().enumerate() {
            if !used[i] {
                flip(c);
            }
        }
        let again = tev::combine(&pica_vectors::stage_tev::shaded(*x, *y, &other), &regs);
        if colors(&again) != colors(out) {
            return Err(format!(
                "{at}: an input colour no source names changed the result ({:?} -> {:?})",
                colors(out),
                colors(&again)
            ));
        }
        // A constant colour its stage does not name, and the buffer colour when no stage reads
        // the buffer, do not matter either.
        let mut w2 = *words;
        for s in 0..NUM_STAGES {
            if !sources(words[5 * s]).contains(&14) {
                w2[5 * s + 3] ^= 0x5A5A_5A5A;
            }
        }
        if !(1..NUM_STAGES).any(|s| sources(words[5 * s]).contains(&13)) {
            w2[31] ^= 0x5A5A_5A5A;
        }
        let again = tev::combine(
            &pica_vectors::stage_tev::shaded(*x, *y, inputs),
            &regs_of(&w2, case.knobs),
        );
        if colors(&again) != colors(out) {
            return Err(format!(
                "{at}: a constant or buffer colour no source reads changed the result"
            ));
        }
        k += 1;
    }
    // The stage bundle round trip.
    let prov = StageProvenance::default();
    let files: BTreeMap<String, String> = render_tev_bundle("self-check", "", case, &[], &prov)
        .into_iter()
        .collect();
    let b = parse_tev_bundle("self-check", &files).map_err(|e| format!("bundle: {e}"))?;
    if b.case != *case {
        return Err("bundle: the operations read back differ".into());
    }
    if let Some(d) = compare_beats(&run.beats, &b.beats) {
        return Err(format!("bundle: the beats read back differ: {d}"));
    }
    Ok(())
}

thread_local! {
    /// One RTL stage per variant and thread, reused between cases (its registers are brought
    /// back to zero at the start of each).
    static STAGES: std::cell::RefCell<Vec<RtlTev>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `case` on `rtl` (any state with nothing pending): the registers start at zero, each
/// fragment goes in with the registers written before it, the output's ready follows a fixed
/// pseudo-random pattern. `Err` if the stage stops producing results or its `idle_o` says
/// otherwise than the fragments in flight.
pub fn run_on(rtl: &mut RtlTev, case: &TevCase) -> Result<Vec<TevResult>, String> {
    let mut regs = RegFile::new();
    regs.set_record_beats(false);
    rtl.set_config(&[0; NUM_TEV_REGS]);
    let mut ready = TevGen::new(0x7E5_BAC4);
    let mut out = Vec::new();
    let n = case.fragments();
    let mut budget = 64 + 16 * n as u64;
    let mut tick = |rtl: &mut RtlTev, out: &mut Vec<TevResult>| -> Result<(), String> {
        if budget == 0 {
            return Err(format!(
                "the RTL stage stopped: {} of {n} results came out",
                out.len()
            ));
        }
        budget -= 1;
        if let Some(r) = rtl.tick(ready.below(4) != 0) {
            out.push(r);
        }
        Ok(())
    };
    for op in &case.ops {
        match op {
            TevOp::Reg { id, value } => {
                regs.write(*id, *value);
            }
            TevOp::Frag { x, y, inputs } => {
                rtl.set_config(&tev_words(&regs));
                rtl.push(TevFragment {
                    tag: TevOp::tag(*x, *y),
                    inputs: *inputs,
                });
                while !rtl.can_accept() {
                    tick(rtl, &mut out)?;
                }
            }
        }
    }
    while !rtl.is_idle() {
        tick(rtl, &mut out)?;
    }
    if let Some(m) = rtl.take_idle_mismatch() {
        return Err(format!("protocol: {m}"));
    }
    Ok(out)
}

/// Runs `case` on an RTL stage of `variant` (one per variant and thread, reused).
/// A coverage build's counters go to `cov`.
pub fn run_rtl(
    variant: TevVariant,
    case: &TevCase,
    cov: Option<&CoverageSink>,
) -> Result<Vec<TevResult>, String> {
    let cached = STAGES.with(|s| {
        let mut v = s.borrow_mut();
        let i = v.iter().position(|x| x.variant() == variant)?;
        Some(v.swap_remove(i))
    });
    let mut rtl = match cached {
        Some(r) => r,
        None => RtlTev::new(variant).map_err(|e| e.to_string())?,
    };
    let r = run_on(&mut rtl, case);
    if let Some(s) = cov {
        s.gather(&mut rtl);
    }
    // A stage that stopped is dropped (a new one is built next time), and so is a mutant
    // (`pica mutate` goes through hundreds, each for a few cases) and a coverage build (its
    // counters went to `cov` above; a thread's cache would count them again).
    if r.is_ok() && variant.mutant().is_none() && variant != TevVariant::Coverage {
        STAGES.with(|s| s.borrow_mut().push(rtl));
    }
    r
}

/// Compares RTL results with the model's run of `case`: `None` if equal, else the first
/// difference, named by fragment, stage and field.
pub fn compare_rtl(case: &TevCase, model: &TevRun, rtl: &[TevResult]) -> Option<String> {
    let frags: Vec<(u16, u16)> = case
        .ops
        .iter()
        .filter_map(|o| match o {
            TevOp::Frag { x, y, .. } => Some((*x, *y)),
            TevOp::Reg { .. } => None,
        })
        .collect();
    let got: Vec<_> = rtl
        .iter()
        .enumerate()
        .flat_map(|(i, r)| beats_of(i as u64, r.tag as u16, (r.tag >> 16) as u16, &r.out))
        .collect();
    if let Some(d) = compare_beats(&model.beats, &got) {
        return Some(d);
    }
    for (i, (r, (x, y))) in rtl.iter().zip(&frags).enumerate() {
        if r.out.color != r.out.stages[5].color {
            return Some(format!(
                "fragment {i} (x {x}, y {y}): final colour {:08x} is not stage 5's {:08x}",
                u32::from_le_bytes(r.out.color),
                u32::from_le_bytes(r.out.stages[5].color)
            ));
        }
    }
    None
}

/// Checks one case: `Err(message)` if it fails.
/// A coverage build's counters go to `cov`.
pub fn check(
    case: &TevCase,
    rtl: Option<TevVariant>,
    cov: Option<&CoverageSink>,
) -> Result<(), String> {
    match rtl {
        None => check_model(case).map_err(|e| format!("model: {e}")),
        Some(v) => {
            let model = run_model(case);
            let got = run_rtl(v, case, cov)?;
            compare_rtl(case, &model, &got)
                .map_or(Ok(()), |d| Err(format!("rtl ({}) differs: {d}", v.name())))
        }
    }
}

/// The shrink steps of a TEV case, run by the campaign's loop ([`campaign::shrink`]) round
/// after round until nothing more goes: fewest fragments, then fewest register writes (chunks,
/// then one at a time), then simpler values.
pub fn shrink_steps<'t>() -> Vec<ShrinkStep<'t, TevCase>> {
    fn ops(c: &mut TevCase) -> &mut Vec<TevOp> {
        &mut c.ops
    }
    vec![
        ShrinkStep::drop_ops("fragments", ops, |o| matches!(o, TevOp::Frag { .. })),
        ShrinkStep::drop_ops("register writes", ops, |o| matches!(o, TevOp::Reg { .. })),
        ShrinkStep::each_round("values", simpler_values),
    ]
}

/// Simpler values, operation by operation: a register's nibbles (sources to primary, operands
/// to colour, modes to REPLACE, scales to 1x, colour channels towards 0), then single bits; a
/// fragment's position, then its inputs, colour by colour, then channel by channel.
fn simpler_values(sh: &mut Shrinker<'_, TevCase>) {
    fn reg_value(c: &mut TevCase, k: usize) -> Option<&mut u32> {
        match &mut c.ops[k] {
            TevOp::Reg { value, .. } => Some(value),
            TevOp::Frag { .. } => None,
        }
    }
    for k in 0..sh.best.ops.len() {
        if sh.clear_reg_bits(k, reg_value) {
            continue;
        }
        for step in 0..2 {
            let mut cand = sh.best.clone();
            if let TevOp::Frag { x, y, inputs } = &mut cand.ops[k] {
                if step == 0 {
                    (*x, *y) = (0, 0);
                } else {
                    *inputs = Default::default();
                }
            }
            sh.attempt(cand);
        }
        for c in 0..7 {
            for ch in [None, Some(0), Some(1), Some(2), Some(3)] {
                let mut cand = sh.best.clone();
                if let TevOp::Frag { inputs, .. } = &mut cand.ops[k] {
                    let col = match c {
                        0 => &mut inputs.primary,
                        1 => &mut inputs.frag_primary,
                        2 => &mut inputs.frag_secondary,
                        t => &mut inputs.tex[t - 3],
                    };
                    match ch {
                        None => *col = [0; 4],
                        Some(i) => col[i] = 0,
                    }
                }
                sh.attempt(cand);
            }
        }
    }
}

/// Writes `case` as a TEV stage bundle `dir/name` (the model's expected beats). Returns its
/// directory.
pub fn save_bundle(
    case: &TevCase,
    dir: &Path,
    name: &str,
    description: &str,
    prov: &StageProvenance,
) -> Result<PathBuf, String> {
    campaign::bundle_at(dir, name, |out| {
        write_tev_bundle(out, name, description, case, &[], prov)
    })
}

/// The one-line summary of a case's size.
pub fn describe(case: &TevCase) -> String {
    format!(
        "{} fragment(s), {} register write(s)",
        case.fragments(),
        case.reg_writes()
    )
}

/// The register writes of a case as `0x0c0=0x00000002` text (for reports).
pub fn writes_text(case: &TevCase) -> String {
    case.ops
        .iter()
        .filter_map(|o| match o {
            TevOp::Reg { id, value } => Some(format!(
                "0x{id:03x}(slot {})=0x{value:08x}",
                tev_reg_slot(*id).unwrap_or(99)
            )),
            TevOp::Frag { .. } => None,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The TEV stage as a fuzz target ([`campaign::StageTarget`]: its generator,
/// verdict, shrink steps and bundle).
#[derive(Clone, Debug)]
pub struct TevTarget {
    /// Compare against this RTL build (model self-check only when `None`).
    pub rtl: Option<TevVariant>,
    /// The knobs every case runs with.
    pub knobs: pica_model::knobs::Knobs,
    /// Where the RTL coverage build's counters go (`--rtl-coverage`; `None`: not gathered).
    pub coverage: Option<CoverageSink>,
}

impl campaign::BundleNotes for TevTarget {}

impl_stage_target!(
    TevTarget,
    TevCase,
    "tev",
    fragments,
    [] + coverage,
    TevVariant::Coverage => pica_rtl_bridge::coverage::CoverageBuild::Tev,
    TEV, crate::lockstep::stages::parse_tev_variant, RtlTev,
    |_t| ""
);

/// Runs a campaign ([`campaign::run_stage`]); `progress` is called after each case with (done,
/// total for this shard, failures so far).
pub fn run(opts: &TevFuzzOptions, progress: impl FnMut(u64, u64, usize)) -> FuzzReport {
    campaign::run_stage(opts, progress)
}
