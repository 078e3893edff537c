//! Lockstep: the model and the RTL on the same clock, compared beat by beat.
//!
//! Both run the same [`Case`] — all its steps: when both sides finish a submission in the same
//! cycle, the memory fills after it are done on both sides' memory and the next list is
//! submitted to both (the RTL's `cmd_kick_i`, [`RtlGpu::submit`]), so a sequence is compared
//! across every submission. Every cycle the model is stepped and the RTL is evaluated and
//! clocked; the register-write beats of that cycle are compared field by field, cycle stamps
//! included (the regwrite stream is cycle-exact). At the end the outcome (finished / hang with
//! its reason and cycle) and the complete final state (every word of the debug map,
//! [`pica_model::regfile::debug`]) are compared: the RTL's read straight out of the Verilated
//! model in one call by default ([`StateRead::Direct`]), or through its debug port
//! ([`StateRead::DebugPort`], the same words at one clock each). The first difference stops
//! the run and becomes a [`Divergence`]: channel, beat index, cycle, each differing field by
//! its register table name, expected and actual, the 8 beats before it; optionally a VCD of
//! the cycles around it from a second, traced RTL run.

pub mod loops;
pub mod stage_record;
pub mod stages;

use pica_model::beat::RegWriteBeat;
use pica_model::regfile::{debug, RegFile};
use pica_model::regs;
use pica_model::Outcome;
use pica_rtl_bridge::{Rtl, RtlError, RtlGpu, RtlOutcome, Variant};
use pica_vectors::bundle::{beat_json, OutcomeRecord};
use pica_vectors::case::{hang_reason_code, Case, CaseError, Step};
use serde::Serialize;
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Beats shown before a mismatch.
pub const HISTORY: usize = 8;
/// Cycles the other side is run on after a missing or extra beat, to show where its next beat
/// went (report only).
const LOOKAHEAD: u64 = 64;
/// Final-state differences listed in a report (the total is always given).
const STATE_DIFFS_SHOWN: usize = 32;

/// How to run a lockstep comparison.
#[derive(Clone, Debug)]
pub struct Options {
    /// Which RTL build to compare against.
    pub variant: Variant,
    /// On a mismatch, re-run the RTL and write a VCD of this many cycles around it.
    pub trace_window: Option<u64>,
    /// Where that VCD goes.
    pub vcd: PathBuf,
    /// Compare the complete final state (debug map), not only beats and outcome.
    pub compare_state: bool,
    /// How the RTL's final state is read for that comparison.
    pub state_read: StateRead,
    /// Hold REGS on this schedule, on both sides (`--hold`): backpressure the front end alone
    /// never sees otherwise.
    pub hold: Option<HoldSchedule>,
    /// End the run where the model's command stream provably loops ([`loops`]), as at the
    /// cycle limit: both sides' outcome is the cycle limit of that cycle, the final states are
    /// compared there, and the report says why ([`Report::loop_proof`]). `pica fuzz` sets it;
    /// off, a loop runs to the case's cycle limit.
    pub stop_on_loop: bool,
}

/// A deterministic schedule of REGS holds for the front-end lockstep: the model's
/// [`pica_model::Gpu::set_forced_hold`] and the RTL's `hold_i` take the same value every
/// cycle, as if the pipeline after REGS were busy. Without the pipeline the front end is never
/// held, so its CP->REGS FIFO never fills and the CP never stalls on it: a flop that
/// misbehaves only while REGS waits with an entry shows under a hold schedule alone
/// (`pica mutate` found such a front-end mutant).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoldSchedule {
    /// Seed of the schedule.
    pub seed: u64,
    /// Share of single held cycles, in percent (0-100).
    pub percent: u8,
}

impl HoldSchedule {
    /// The schedule `pica fuzz --rtl` (register target) and `pica mutate` give the case of
    /// `case_seed`: half the cases (odd seeds) run held, 25 % single cycles, so a case seed
    /// alone still says everything about a case (`pica fuzz --replay`, shrinking).
    pub fn of_case(case_seed: u64) -> Option<Self> {
        (case_seed & 1 == 1).then_some(Self {
            seed: case_seed,
            percent: 25,
        })
    }

    /// Whether REGS is held in `cycle`: every cycle of one 16-cycle window in eight (long
    /// enough to fill the 4-entry CP->REGS FIFO), and single cycles at `percent`.
    pub fn held(&self, cycle: u64) -> bool {
        fn mix(mut z: u64) -> u64 {
            // splitmix64's finaliser.
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        if self.percent == 0 {
            return false;
        }
        let window = mix(self.seed ^ (cycle >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        window % 8 == 0 || mix(self.seed.rotate_left(23) ^ cycle) % 100 < u64::from(self.percent)
    }

    /// Parses `SEED[:PERCENT]` (decimal or `0x` hex seed; percent 25 when left out).
    pub fn parse(s: &str) -> Result<Self, String> {
        let (seed, percent) = s.split_once(':').unwrap_or((s, "25"));
        let seed = match seed.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16),
            None => seed.parse(),
        }
        .map_err(|e| format!("hold schedule '{s}': seed: {e}"))?;
        let percent: u8 = percent
            .parse()
            .ok()
            .filter(|p| *p <= 100)
            .ok_or_else(|| format!("hold schedule '{s}': percent must be 0-100"))?;
        Ok(Self { seed, percent })
    }
}

impl std::fmt::Display for HoldSchedule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x{:x}:{}", self.seed, self.percent)
    }
}

/// How lockstep reads the RTL's final state (the words are the same either way: the bridge's
/// tests check it word for word).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StateRead {
    /// Copied straight out of the Verilated model in one call ([`RtlGpu::state_dump`]).
    #[default]
    Direct,
    /// Through `pica_top`'s debug port, one clock per word ([`RtlGpu::debug_dump`]: 26,486
    /// clocks of the whole design) — what a bench without access to the simulator's internals
    /// does.
    DebugPort,
}

/// Compares the model's final state `regs` with the RTL's, read `how`, over the whole debug
/// map and its edge probes ([`debug::edge_probes`]): the first `shown` differing words (named
/// by [`debug::describe`]) and how many differ in all. One pass over the addresses, no dump materialised on either side for
/// [`StateRead::Direct`] (this runs once per `pica fuzz --rtl` case).
pub fn state_diffs(
    regs: &RegFile,
    rtl: &mut RtlGpu,
    how: StateRead,
    shown: usize,
) -> (Vec<FieldDiff>, usize) {
    // A mutant model has no REGS arrays to copy: only its debug port reads its state.
    let how = if rtl.rtl_mut().variant().has_direct_state() {
        how
    } else {
        StateRead::DebugPort
    };
    let mut fields = Vec::new();
    let mut total = 0;
    let mut compare = |addr: u16, want: u32, got: u32| {
        if want != got {
            total += 1;
            if fields.len() < shown {
                fields.push(FieldDiff {
                    name: debug::describe(addr),
                    expected: hex(want),
                    actual: hex(got),
                });
            }
        }
    };
    match how {
        StateRead::Direct => {
            let state = rtl.state();
            // A region at a time on both sides (decoding each of the map's addresses alone
            // cost more than a fuzz case), word by word only where a region differs.
            let (mut want, mut got) = (Vec::new(), Vec::new());
            for r in debug::debug_regions() {
                want.clear();
                got.clear();
                regs.debug_region_words(r, &mut want);
                state.region_words(r, &mut got);
                if want != got {
                    for ((addr, &w), &g) in (r.start..).zip(&want).zip(&got) {
                        compare(addr, w, g);
                    }
                }
            }
        }
        StateRead::DebugPort => {
            for (addr, got) in rtl.debug_dump() {
                compare(addr, regs.debug_read(addr), got);
            }
        }
    }
    // The unmapped addresses at the map's edges read 0 on both sides; only the debug port can
    // show a decode that is off at an edge (a state copy has no holes). A few dozen clocks
    // after the run, so the cycle count and the beats are already compared.
    let probes = debug::edge_probes();
    for (&addr, got) in probes.iter().zip(rtl.debug_read(probes)) {
        compare(addr, regs.debug_read(addr), got);
    }
    (fields, total)
}

impl Default for Options {
    fn default() -> Self {
        Self {
            variant: Variant::Default,
            trace_window: None,
            vcd: PathBuf::from("lockstep.vcd"),
            compare_state: true,
            state_read: StateRead::Direct,
            hold: None,
            stop_on_loop: false,
        }
    }
}

/// Why lockstep could not run.
#[derive(Debug, thiserror::Error)]
pub enum LockstepError {
    /// The case is bad input.
    #[error(transparent)]
    Case(#[from] CaseError),
    /// The RTL could not be built or traced.
    #[error(transparent)]
    Rtl(#[from] RtlError),
}

/// One differing field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldDiff {
    /// Field name: `cycle`, `id`, `mask`, `param`, `value`, or `GPUREG_X.field` for a field of
    /// the register value, or a debug-map location for final state.
    pub name: String,
    /// The model's value.
    pub expected: String,
    /// The RTL's value.
    pub actual: String,
}

/// What kind of difference stopped the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DivergenceKind {
    /// Both sides produced a beat in this cycle and they differ.
    BeatMismatch,
    /// The model produced a beat in this cycle, the RTL did not.
    MissingBeat,
    /// The RTL produced a beat in this cycle, the model did not.
    ExtraBeat,
    /// The runs ended differently (kind, cycle or hang reason).
    Outcome,
    /// Beats and outcome agree but the final state differs.
    FinalState,
}

/// The first difference between model and RTL.
#[derive(Clone, Debug, Serialize)]
pub struct Divergence {
    /// What differed.
    pub kind: DivergenceKind,
    /// The channel (`regwrite`, or `outcome` / `final_state`).
    pub channel: String,
    /// Index of the beat within the channel (beats both sides agreed on before it).
    pub beat_index: usize,
    /// The cycle.
    pub cycle: u64,
    /// The model's beat, as in `regwrite.jsonl`.
    pub expected: Option<serde_json::Value>,
    /// The RTL's beat.
    pub actual: Option<serde_json::Value>,
    /// Each differing field.
    pub fields: Vec<FieldDiff>,
    /// Total differing words for a final-state divergence (fields lists the first few).
    pub total_differences: usize,
    /// Up to 8 beats before it (both sides agreed on them).
    pub before: Vec<serde_json::Value>,
    /// Where the other side's beat turned up, if it did within a few cycles.
    pub note: Option<String>,
    /// The VCD written for it.
    pub vcd: Option<String>,
}

/// The result of one lockstep run.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Case name.
    pub case: String,
    /// RTL variant compared.
    pub variant: String,
    /// `equal` or `mismatch`.
    pub result: String,
    /// Cycles run.
    pub cycles: u64,
    /// Register-write beats compared equal.
    pub beats: usize,
    /// The model's outcome.
    pub outcome: OutcomeRecord,
    /// The first difference.
    pub divergence: Option<Divergence>,
    /// Why the run ended before the cycle limit with neither side done, when it did: the
    /// model's command stream provably loops ([`Options::stop_on_loop`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loop_proof: Option<loops::LoopProof>,
    /// The RTL's code-coverage counters after the run, when the build is a coverage build
    /// ([`pica_rtl_bridge::coverage`]; `pica lockstep --rtl-coverage`).
    #[serde(skip)]
    pub rtl_coverage: Option<Vec<u32>>,
}

impl Report {
    /// Whether model and RTL agreed on everything.
    pub fn is_equal(&self) -> bool {
        self.divergence.is_none()
    }
}

fn hex(v: u32) -> String {
    format!("0x{v:08x}")
}

/// The fields in which two beats differ, with the register value's fields by name.
pub fn beat_field_diffs(e: &RegWriteBeat, a: &RegWriteBeat) -> Vec<FieldDiff> {
    let mut out = Vec::new();
    let mut push = |name: &str, x: String, y: String| {
        if x != y {
            out.push(FieldDiff {
                name: name.into(),
                expected: x,
                actual: y,
            });
        }
    };
    push("cycle", e.cycle.to_string(), a.cycle.to_string());
    push(
        "id",
        format!("0x{:03x} {}", e.id, regs::name(e.id)),
        format!("0x{:03x} {}", a.id, regs::name(a.id)),
    );
    push("mask", format!("0x{:x}", e.mask), format!("0x{:x}", a.mask));
    push("param", hex(e.param), hex(a.param));
    push("value", hex(e.value), hex(a.value));
    if e.id == a.id && e.value != a.value {
        let name = regs::name(e.id);
        let ef = regs::decode_fields(e.id, e.value);
        let af = regs::decode_fields(a.id, a.value);
        for f in &ef {
            let other = af.iter().find(|g| g.name == f.name);
            let at = other.map_or_else(|| "-".to_string(), |g| g.text.clone());
            if other.map(|g| g.bits) != Some(f.bits) {
                out.push(FieldDiff {
                    name: format!("{name}.{}", f.name),
                    expected: f.text.clone(),
                    actual: at,
                });
            }
        }
        for g in af.iter().filter(|g| !ef.iter().any(|f| f.name == g.name)) {
            out.push(FieldDiff {
                name: format!("{name}.{}", g.name),
                expected: "-".into(),
                actual: g.text.clone(),
            });
        }
    }
    out
}

fn rtl_outcome_record(o: &RtlOutcome) -> (String, u64, u8) {
    match *o {
        RtlOutcome::Finished { cycles } => ("finished".into(), cycles, 0),
        RtlOutcome::Hang { cycle, code } => ("hang".into(), cycle, code),
        RtlOutcome::CycleLimit { cycles } => ("cycle_limit".into(), cycles, 0),
    }
}

/// Runs `case` on the model and on the RTL in lockstep. With a coverage build
/// ([`Variant::has_coverage`]) the report carries the RTL's coverage counters of the run.
pub fn lockstep(case: &Case, opts: &Options) -> Result<Report, LockstepError> {
    let mut gpu = case.gpu()?;
    // The RTL implements the front end (CP and REGS): compare the model's front end with it.
    gpu.set_pipeline(false);
    // With the pipeline off no draw reaches the shader units, so the SH stage inside
    // `pica_top` would only be clocked idle: run the build without it (same beats, outcome and
    // state; a few times faster per cycle).
    let mut rtl = rtl_gpu(case, opts.variant.front_end())?;
    let mut report = compare(case, opts, &mut gpu, &mut rtl)?;
    // Read before the model is dropped: its counters go with it.
    report.rtl_coverage = rtl.rtl_mut().coverage();
    Ok(report)
}

/// The RTL `variant` with `case` loaded: its memory with the fills before the first list
/// done, the first list on the command stream.
pub fn rtl_gpu(case: &Case, variant: Variant) -> Result<RtlGpu, LockstepError> {
    let mut mem = case.memory()?;
    for (i, step) in case.before.iter().enumerate() {
        if let Step::Fill(f) = step {
            f.apply(&mut mem).map_err(|e| CaseError::Step {
                case: case.name.clone(),
                index: i,
                kind: step.kind(),
                msg: e.to_string(),
            })?;
        }
    }
    Ok(RtlGpu::new(
        Rtl::with_variant(variant)?,
        mem,
        case.submit_addr,
        case.submit_size,
    ))
}

/// The steps of `case.more` from `*next` up to and including the next submission, done on the
/// RTL side: fills on its memory, then the submission (a kick). Returns whether a list was
/// submitted (false: no submission is left; the fills after the last one are done).
pub fn rtl_next_steps(case: &Case, next: &mut usize, rtl: &mut RtlGpu) -> Result<bool, CaseError> {
    while let Some(step) = case.more.get(*next) {
        let index = case.before.len() + 1 + *next;
        *next += 1;
        match step {
            Step::Fill(f) => f.apply(rtl.mem_mut()).map_err(|e| CaseError::Step {
                case: case.name.clone(),
                index,
                kind: step.kind(),
                msg: e.to_string(),
            })?,
            Step::Transfer(_) => {}
            Step::Submit { addr, size } => {
                rtl.submit(*addr, *size);
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// [`rtl_next_steps`] on the model's side (fills on its memory, then [`pica_model::Gpu::submit`]).
pub fn model_next_steps(
    case: &Case,
    next: &mut usize,
    gpu: &mut pica_model::Gpu,
) -> Result<bool, CaseError> {
    while let Some(step) = case.more.get(*next) {
        let index = case.before.len() + 1 + *next;
        *next += 1;
        let err = |msg: String| CaseError::Step {
            case: case.name.clone(),
            index,
            kind: step.kind(),
            msg,
        };
        match step {
            Step::Fill(f) => gpu.memory_fill(f).map_err(|e| err(e.to_string()))?,
            Step::Transfer(_) => {}
            Step::Submit { addr, size } => {
                gpu.submit(*addr, *size).map_err(|e| err(e.to_string()))?;
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// The lockstep loop of [`lockstep`] on a model and an RTL both at cycle 0.
fn compare(
    case: &Case,
    opts: &Options,
    gpu: &mut pica_model::Gpu,
    rtl: &mut RtlGpu,
) -> Result<Report, LockstepError> {
    let mut history: VecDeque<RegWriteBeat> = VecDeque::with_capacity(HISTORY);
    let mut compared = 0usize;
    let mut model_seen = 0usize;
    let mut detector = opts
        .stop_on_loop
        .then(|| loops::LoopDetector::new(case.max_cycles));
    let mut loop_proof: Option<loops::LoopProof> = None;
    let report = |outcome: &Outcome,
                  cycles: u64,
                  compared: usize,
                  divergence: Option<Divergence>,
                  loop_proof: Option<loops::LoopProof>| Report {
        case: case.name.clone(),
        variant: opts.variant.label(),
        result: if divergence.is_some() {
            "mismatch"
        } else {
            "equal"
        }
        .into(),
        cycles,
        beats: compared,
        outcome: OutcomeRecord::of(outcome),
        divergence,
        loop_proof,
        rtl_coverage: None,
    };
    let before = |h: &VecDeque<RegWriteBeat>| h.iter().map(beat_json).collect::<Vec<_>>();
    // The next step of `case.more` (both sides walk the steps together: they finish each
    // submission in the same cycle, or the run ends there with an outcome divergence).
    let mut next_step = 0usize;
    loop {
        let k = gpu.cycle();
        let mo = gpu.outcome();
        let ro = rtl.outcome();
        // A proven loop ends the run as the cycle limit does, in the cycle after the proof.
        let limit = k >= case.max_cycles || loop_proof.is_some();
        if mo.is_some() || ro.is_some() || limit {
            let mo = mo.unwrap_or(Outcome::CycleLimit { cycles: k });
            let ro = ro.unwrap_or(RtlOutcome::CycleLimit { cycles: k });
            let want = OutcomeRecord::of(&mo);
            let (kind, cycle, code) = rtl_outcome_record(&ro);
            let mut fields = Vec::new();
            if want.kind != kind {
                fields.push(FieldDiff {
                    name: "kind".into(),
                    expected: want.kind.clone(),
                    actual: kind.clone(),
                });
            }
            if want.cycle != cycle {
                fields.push(FieldDiff {
                    name: "cycle".into(),
                    expected: want.cycle.to_string(),
                    actual: cycle.to_string(),
                });
            }
            if let Outcome::Hang { reason, .. } = &mo {
                if hang_reason_code(reason) != code {
                    fields.push(FieldDiff {
                        name: "hang_reason_code".into(),
                        expected: format!("{} ({reason})", hang_reason_code(reason)),
                        actual: code.to_string(),
                    });
                }
            }
            if !fields.is_empty() {
                let d = Divergence {
                    kind: DivergenceKind::Outcome,
                    channel: "outcome".into(),
                    beat_index: compared,
                    cycle: k,
                    expected: serde_json::to_value(&want).ok(),
                    actual: Some(
                        serde_json::json!({ "kind": kind, "cycle": cycle, "hang_reason_code": code }),
                    ),
                    fields,
                    total_differences: 1,
                    before: before(&history),
                    note: (next_step > 0).then(|| {
                        format!("after {next_step} step(s) of the sequence beyond the first list")
                    }),
                    vcd: None,
                };
                return Ok(report(
                    &mo,
                    k,
                    compared,
                    Some(finish(case, opts, d)?),
                    loop_proof,
                ));
            }
            // Both finished this submission in this cycle: do the steps up to the next one on
            // both sides and step on (the next list starts in this cycle). None left: the
            // sequence is over (its last fills done); compare the end.
            let finished = matches!(mo, Outcome::Finished { .. });
            let mut rtl_next = next_step;
            // At the cycle limit a next list is still submitted: it then stops at the limit
            // before its first word, as `Case::run_steps` on the model alone has it.
            if finished
                && model_next_steps(case, &mut next_step, gpu)?
                && rtl_next_steps(case, &mut rtl_next, rtl)?
            {
                // (rtl_next == next_step: the same steps.)
            } else {
                if finished {
                    // The fills after the last list, on the RTL's memory too.
                    rtl_next_steps(case, &mut rtl_next, rtl)?;
                }
                if opts.compare_state {
                    let (fields, total) =
                        state_diffs(gpu.regs(), rtl, opts.state_read, STATE_DIFFS_SHOWN);
                    if total > 0 {
                        let d = Divergence {
                            kind: DivergenceKind::FinalState,
                            channel: "final_state".into(),
                            beat_index: compared,
                            cycle: k,
                            expected: None,
                            actual: None,
                            fields,
                            total_differences: total,
                            before: before(&history),
                            note: None,
                            vcd: None,
                        };
                        return Ok(report(&mo, k, compared, Some(d), loop_proof));
                    }
                }
                return Ok(report(&mo, k, compared, None, loop_proof));
            }
        }
        if let Some(h) = &opts.hold {
            let on = h.held(k);
            gpu.set_forced_hold(on);
            rtl.set_hold(on);
        }
        gpu.step();
        let mb = gpu.regwrite_beats().get(model_seen).copied();
        if mb.is_some() {
            model_seen += 1;
        }
        let rb = rtl.clock().beat;
        if let Some(d) = detector.as_mut() {
            // Looked at after this cycle's beats are compared below: the proof ends the run
            // at the top of the next iteration, this cycle included.
            loop_proof = loop_proof.or_else(|| d.observe(gpu));
        }
        let kind = match (mb, rb) {
            (None, None) => continue,
            (Some(m), Some(r)) if m == r => {
                if history.len() == HISTORY {
                    history.pop_front();
                }
                history.push_back(m);
                compared += 1;
                continue;
            }
            (Some(_), Some(_)) => DivergenceKind::BeatMismatch,
            (Some(_), None) => DivergenceKind::MissingBeat,
            (None, Some(_)) => DivergenceKind::ExtraBeat,
        };
        let mut fields = match (mb, rb) {
            (Some(m), Some(r)) => beat_field_diffs(&m, &r),
            _ => Vec::new(),
        };
        // Look a little further on the side that had no beat, to say where it went.
        let note = match kind {
            DivergenceKind::MissingBeat => {
                let next = (0..LOOKAHEAD).find_map(|_| {
                    if rtl.outcome().is_some() {
                        return None;
                    }
                    rtl.clock().beat
                });
                if let (Some(m), Some(r)) = (mb, next) {
                    fields = beat_field_diffs(&m, &r);
                }
                Some(match next {
                    Some(r) => format!(
                        "the RTL's next beat came at cycle {} ({:+} cycles)",
                        r.cycle,
                        r.cycle as i64 - k as i64
                    ),
                    None => format!("the RTL gave no beat in the next {LOOKAHEAD} cycles"),
                })
            }
            DivergenceKind::ExtraBeat => {
                let next = (0..LOOKAHEAD).find_map(|_| {
                    if gpu.outcome().is_some() {
                        return None;
                    }
                    gpu.step();
                    gpu.regwrite_beats().get(model_seen).copied()
                });
                if let (Some(m), Some(r)) = (next, rb) {
                    fields = beat_field_diffs(&m, &r);
                }
                Some(match next {
                    Some(m) => format!(
                        "the model's next beat came at cycle {} ({:+} cycles)",
                        m.cycle,
                        m.cycle as i64 - k as i64
                    ),
                    None => format!("the model gave no beat in the next {LOOKAHEAD} cycles"),
                })
            }
            _ => None,
        };
        let d = Divergence {
            kind,
            channel: "regwrite".into(),
            beat_index: compared,
            cycle: k,
            expected: mb.as_ref().map(beat_json),
            actual: rb.as_ref().map(beat_json),
            fields,
            total_differences: 1,
            before: before(&history),
            note,
            vcd: None,
        };
        let mo = gpu.outcome().unwrap_or(Outcome::CycleLimit { cycles: k });
        return Ok(report(&mo, k, compared, Some(finish(case, opts, d)?), None));
    }
}

/// Adds the VCD of the cycles around a divergence, if asked for.
fn finish(case: &Case, opts: &Options, mut d: Divergence) -> Result<Divergence, LockstepError> {
    if let Some(w) = opts.trace_window {
        let (from, to) = trace_window_vcd(case, opts.variant.front_end(), d.cycle, w, &opts.vcd)?;
        d.vcd = Some(format!("{} (cycles {from}..={to})", opts.vcd.display()));
    }
    Ok(d)
}

/// Re-runs the RTL alone and writes a VCD of `window` cycles centred on `cycle` to `path`.
/// Returns the first and last cycle traced.
pub fn trace_window_vcd(
    case: &Case,
    variant: Variant,
    cycle: u64,
    window: u64,
    path: &Path,
) -> Result<(u64, u64), LockstepError> {
    let from = cycle.saturating_sub(window / 2);
    let to = cycle + window.div_ceil(2);
    let mut rtl = rtl_gpu(case, variant)?;
    // Alone, the RTL starts each further list when its own run finishes, as in lockstep.
    let mut next = 0usize;
    let mut clock = |rtl: &mut RtlGpu| -> Result<(), LockstepError> {
        if matches!(rtl.outcome(), Some(RtlOutcome::Finished { .. })) {
            rtl_next_steps(case, &mut next, rtl)?;
        }
        rtl.clock();
        Ok(())
    };
    while rtl.cycle() < from {
        clock(&mut rtl)?;
    }
    rtl.rtl_mut().trace_vcd(path)?;
    while rtl.cycle() <= to {
        clock(&mut rtl)?;
    }
    rtl.rtl_mut().trace_off();
    Ok((from, to))
}

fn beat_line(v: &serde_json::Value) -> String {
    let s = |k: &str| {
        v.get(k)
            .map(|x| x.to_string().trim_matches('"').to_string())
            .unwrap_or_default()
    };
    format!(
        "cycle {:>6}  id {} {:<32} mask {}  param {}  value {}",
        s("cycle"),
        s("id"),
        s("name"),
        s("mask"),
        s("param"),
        s("value")
    )
}

/// The report as text for people.
pub fn text_report(r: &Report) -> String {
    let mut out = String::new();
    let Some(d) = &r.divergence else {
        let _ = writeln!(
            out,
            "EQUAL  {}: {} beats, {} cycles, {} (RTL variant {})",
            r.case, r.beats, r.cycles, r.outcome.message, r.variant
        );
        if let Some(p) = &r.loop_proof {
            let _ = writeln!(out, "  ended early: {p}");
        }
        return out;
    };
    let what = match d.kind {
        DivergenceKind::BeatMismatch => "beats differ",
        DivergenceKind::MissingBeat => "the RTL has no beat where the model has one",
        DivergenceKind::ExtraBeat => "the RTL has a beat where the model has none",
        DivergenceKind::Outcome => "the runs end differently",
        DivergenceKind::FinalState => "the final state differs",
    };
    let _ = writeln!(
        out,
        "MISMATCH  {}: {what} — channel {}, beat #{}, cycle {} (RTL variant {})",
        r.case, d.channel, d.beat_index, d.cycle, r.variant
    );
    if d.channel == "regwrite" {
        let show =
            |v: &Option<serde_json::Value>| v.as_ref().map_or_else(|| "(none)".into(), beat_line);
        let _ = writeln!(out, "  expected (model): {}", show(&d.expected));
        let _ = writeln!(out, "  actual   (RTL)  : {}", show(&d.actual));
    }
    if !d.fields.is_empty() {
        let _ = writeln!(out, "  differing fields:");
        let w = d.fields.iter().map(|f| f.name.len()).max().unwrap_or(0);
        for f in &d.fields {
            let _ = writeln!(
                out,
                "    {:<w$}  expected {:<24} actual {}",
                f.name, f.expected, f.actual
            );
        }
        if d.total_differences > d.fields.len() {
            let _ = writeln!(out, "    … {} differing words in all", d.total_differences);
        }
    }
    if let Some(n) = &d.note {
        let _ = writeln!(out, "  note: {n}");
    }
    if !d.before.is_empty() {
        let _ = writeln!(
            out,
            "  the {} beat(s) before it (equal on both sides):",
            d.before.len()
        );
        for b in &d.before {
            let _ = writeln!(out, "    {}", beat_line(b));
        }
    }
    if let Some(v) = &d.vcd {
        let _ = writeln!(out, "  waveform: {v}");
    }
    out
}
