//! `pica fuzz --target shader`: random shader programs on one unit, shrunk on failure and saved
//! as shader-unit stage bundles.
//!
//! Case `i` of seed `S` is [`generate`]`(`[`case_seed`](crate::fuzz::report::case_seed)`(S, i))` (the generator of
//! `pica_vectors::shader_gen`), so `--shard I/N` splits a campaign exactly as the
//! register-sequence fuzzer does and the reports merge the same way. Without RTL each case
//! checks the model's self-consistency ([`check_model`]: commit path vs plain path vs traced
//! path, decode/encode round trip); with `--rtl` the model's `ShaderUnit` and the Verilated
//! `pica_sh_unit_top` ([`RtlShaderUnit`]) run the case and every commit record, the outcome,
//! every EMIT and the final outputs must agree. A failure is shrunk ([`shrink_steps`]) to the fewest
//! instructions that still fail and written as a stage bundle (`pica_vectors::stage`) under the
//! regressions directory, named `fuzz-shader-<model|variant>-<case seed>`.

use crate::fuzz::campaign::{self, plan_of, Check, Labels, ShrinkStep, Shrinker, StageTarget};
use crate::fuzz::report::FuzzReport;
use pica_model::shader::interp::Knobs;
use pica_model::shader::isa::{encode, Instruction, Opcode};
use pica_rtl_bridge::shader::{RtlEmit, RtlRunEnd, RtlShaderUnit, ShVariant};
use pica_vectors::shader_gen::{
    check_model, compare, generate, run_model, run_model_n, shrink, ShaderCase, ShaderRun,
    MAX_INSTRUCTIONS,
};
use pica_vectors::stage::{write_shader_bundle, StageProvenance};
use std::path::{Path, PathBuf};

/// Parameters of a shader fuzz campaign.
#[derive(Clone, Debug)]
pub struct ShaderFuzzOptions {
    /// Cases in the whole campaign (all shards).
    pub cases: u64,
    /// Campaign seed.
    pub seed: u64,
    /// This shard's index and the shard count.
    pub shard: (u64, u64),
    /// Compare against this RTL build (model self-consistency only when `None`).
    pub rtl: Option<ShVariant>,
    /// Where shrunk failures are written as stage bundles (`None`: not written).
    pub regressions: Option<PathBuf>,
    /// Stop after this many failures.
    pub max_failures: usize,
    /// The shader knobs the model runs with (`--knob`; `None`: those of `rtl`, the defaults
    /// without RTL). With `rtl` they must be the build's ([`ShVariant::knobs`]).
    pub knobs: Option<Knobs>,
}

/// Parses a shader RTL variant name (`default`, `inject_sh_add_round`, `inject_sh_loop_extra`,
/// `knobs_alt`; the `inject_sh_` prefix may be left out; `sh_mut#K`: mutant K of the mutant
/// model, when built).
pub fn parse_sh_variant(s: &str) -> Result<ShVariant, String> {
    if let Some(k) = pica_rtl_bridge::mutants::parse_mutant(s, pica_rtl_bridge::mutants::SH_MODEL) {
        return Ok(ShVariant::Mutant(k));
    }
    ShVariant::ALL
        .into_iter()
        .find(|v| v.name() == s || v.name().strip_prefix("inject_sh_") == Some(s))
        .ok_or_else(|| {
            format!(
                "unknown shader RTL variant '{s}' (one of: {})",
                ShVariant::ALL.map(ShVariant::name).join(", ")
            )
        })
}

/// The RTL define a variant is built with (what a stage bundle's replay needs to reproduce it;
/// none for the default build).
pub fn sh_variant_define(v: ShVariant) -> Option<&'static str> {
    match v {
        ShVariant::Default | ShVariant::Mutant(_) | ShVariant::Coverage => None,
        ShVariant::InjectAddRound => Some("INJECT_SH_ADD_ROUND"),
        ShVariant::InjectLoopExtra => Some("INJECT_SH_LOOP_EXTRA"),
        ShVariant::KnobsAlt => Some("PICA_SH_KNOBS_ALT"),
    }
}

thread_local! {
    /// One RTL unit per variant and thread, reset between cases (building a Verilated model
    /// per case cost more than running short programs).
    static UNITS: std::cell::RefCell<Vec<RtlShaderUnit>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `case` on an RTL unit of `variant` in its reset state.
pub fn run_rtl(variant: ShVariant, case: &ShaderCase, max: u64) -> Result<ShaderRun, String> {
    let mut runs = run_rtl_inv(variant, case, max, Invocations::Once)?;
    Ok(runs.remove(0))
}

/// Runs `case` on one RTL unit of `variant` from its reset state, as `inv` says: one
/// [`ShaderRun`] per invocation ([`Invocations::Again`]: a run that does not end in END or a
/// hang is the last, as in [`run_model_n`]).
pub fn run_rtl_inv(
    variant: ShVariant,
    case: &ShaderCase,
    max: u64,
    inv: Invocations,
) -> Result<Vec<ShaderRun>, String> {
    let cached = UNITS.with(|u| {
        let mut units = u.borrow_mut();
        let i = units.iter().position(|x| x.variant() == variant)?;
        Some(units.swap_remove(i))
    });
    let mut u = match cached {
        Some(mut u) => {
            u.reset();
            u
        }
        None => RtlShaderUnit::new(variant).map_err(|e| e.to_string())?,
    };
    let mut runs = vec![run_on(&mut u, case, max)];
    match inv {
        Invocations::Once => {}
        Invocations::Again if runs[0].end == "end" || runs[0].end.starts_with("hang") => {
            runs.push(run_loaded(&mut u, case, max));
        }
        Invocations::Again => {}
        Invocations::AfterReset => {
            u.reset();
            runs.push(run_on(&mut u, case, max));
        }
    }
    // Not a mutant: `pica mutate` goes through hundreds of them, each used for a few cases, and
    // its reset through the write ports costs more than a new model.
    if variant.mutant().is_none() {
        UNITS.with(|units| units.borrow_mut().push(u));
    }
    Ok(runs)
}

/// The model's runs of `case` as `inv` says, the expected side of [`run_rtl_inv`]: after a
/// reset the second run is the first again (a reset unit is a new one).
pub fn run_model_inv(
    case: &ShaderCase,
    knobs: Knobs,
    max: u64,
    inv: Invocations,
) -> Vec<ShaderRun> {
    match inv {
        Invocations::Once => run_model_n(case, knobs, max, 1),
        Invocations::Again => run_model_n(case, knobs, max, 2),
        Invocations::AfterReset => {
            let run = run_model(case, knobs, max);
            vec![run.clone(), run]
        }
    }
}

/// An FNV-1a hash of the case's code, descriptors and entry point: what [`stall_of`] and
/// [`invocations_of`] draw from, so a shrunk case or a bundle replays the same way.
fn case_hash(case: &ShaderCase) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for w in case
        .code
        .iter()
        .chain(&case.opdescs)
        .chain([&u32::from(case.entry)])
    {
        for b in w.to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
        }
    }
    h
}

/// How [`check_with`] runs a case on one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invocations {
    /// Once, on a unit in its reset state.
    Once,
    /// Twice, the second from what the first left (temporaries, a0/aL, the condition flags,
    /// both output banks, and whatever the RTL keeps in its pipeline and stacks), as on a unit
    /// that shades one vertex after another: on a fresh unit every register a program reads
    /// before writing is zero, and state left over from a run that ended (a record still in
    /// the pipeline, a stack entry not cleared at start) is never seen. The model runs twice
    /// on one `ShaderUnit` ([`run_model_n`]).
    Again,
    /// Twice, with a reset and a reload between: the second run must equal the first (a
    /// reset gives the state of a new unit; state the first run left in memories or flops
    /// that a reset does not clear, such as the output RAM behind its valid bits, must not
    /// show).
    AfterReset,
}

/// How [`check_with`] runs `case`, a function of the case alone (so a shrunk case replays
/// the same way): a third of the cases [`Invocations::Again`], a sixth
/// [`Invocations::AfterReset`], the others once.
pub fn invocations_of(case: &ShaderCase) -> Invocations {
    match (case_hash(case) >> 40) % 6 {
        0 | 1 => Invocations::Again,
        2 => Invocations::AfterReset,
        _ => Invocations::Once,
    }
}

/// The backpressure a case runs under on the RTL unit: `(percent, seed)` for
/// [`RtlShaderUnit::set_stall`], a function of the case alone (an FNV-1a hash of its code,
/// descriptors and entry point), so a bundle or a shrunk case replays under the same stalls.
/// One case in four runs without stalls; the others hold the pipeline on 10-40 % of the clocks,
/// as `pica_sh` does when its commit queue fills (`pica mutate --stage sh`: a mutant of the
/// SFU's result register that toggles while held survived every unstalled case).
pub fn stall_of(case: &ShaderCase) -> (u8, u64) {
    let h = case_hash(case);
    let percent = if h % 4 == 0 { 0 } else { 10 + (h >> 8) % 31 };
    (percent as u8, h | 1)
}

/// Loads `case` into `u` (a new or reset unit) and runs it, under the case's [`stall_of`].
pub fn run_on(u: &mut RtlShaderUnit, case: &ShaderCase, max: u64) -> ShaderRun {
    let (percent, seed) = stall_of(case);
    u.set_stall(percent, seed);
    u.load_code(0, &case.code);
    u.load_opdescs(0, &case.opdescs);
    u.load_uniforms(0, &case.float_uniforms);
    u.set_uniforms(case.int_uniforms, case.bool_uniforms);
    for (i, v) in case.inputs.iter().enumerate() {
        u.set_input(i as u8, *v);
    }
    run_loaded(u, case, max)
}

/// Runs `case` once more on `u`, loaded by [`run_on`] (registers as the last run left them).
fn run_loaded(u: &mut RtlShaderUnit, case: &ShaderCase, max: u64) -> ShaderRun {
    let mut commits = Vec::new();
    let mut emits: Vec<RtlEmit> = Vec::new();
    let end = match u.run(case.entry, max, &mut commits, &mut emits) {
        RtlRunEnd::End => "end".to_string(),
        RtlRunEnd::Hang(code) => format!("hang {code}"),
        RtlRunEnd::Limit => "limit".to_string(),
        RtlRunEnd::Stuck => "stuck".to_string(),
        RtlRunEnd::BadStatus => {
            "done_o/hang_o/hang_code_o disagree with the commits, or the unit went on after END or a hang"
                .to_string()
        }
    };
    ShaderRun {
        commits,
        end,
        outputs: u.outputs(),
        emits: emits
            .iter()
            .map(|e| (e.vtx_id, e.winding, e.prim_emit, e.outputs))
            .collect(),
    }
}

/// The knobs the model runs with against `rtl` (the defaults without RTL).
pub fn knobs_for(rtl: Option<ShVariant>) -> Knobs {
    rtl.map_or_else(Knobs::default, ShVariant::knobs)
}

/// Checks one case: `Err(message)` if it fails.
pub fn check(case: &ShaderCase, rtl: Option<ShVariant>) -> Result<(), String> {
    check_with(case, rtl, knobs_for(rtl))
}

/// [`check`] with the model running with `knobs` (with `rtl`, the build must implement them).
pub fn check_with(case: &ShaderCase, rtl: Option<ShVariant>, knobs: Knobs) -> Result<(), String> {
    match rtl {
        None => check_model(case, knobs, MAX_INSTRUCTIONS).map_err(|e| format!("model: {e}")),
        Some(v) => {
            let inv = invocations_of(case);
            let model = run_model_inv(case, knobs, MAX_INSTRUCTIONS, inv);
            let rtl = run_rtl_inv(v, case, MAX_INSTRUCTIONS, inv)?;
            for (i, (m, r)) in model.iter().zip(&rtl).enumerate() {
                if let Some(e) = compare(case, m, r) {
                    return Err(match (i, inv) {
                        (0, _) => e,
                        (_, Invocations::AfterReset) => {
                            format!("second run, after a reset and a reload of the unit: {e}")
                        }
                        _ => format!(
                            "invocation {} on the same unit (registers as the first left them): {e}",
                            i + 1
                        ),
                    });
                }
            }
            match (model.len(), rtl.len()) {
                (m, r) if m != r => Err(format!("model ran {m} invocation(s), rtl {r}")),
                _ => Ok(()),
            }
        }
    }
}

/// Writes `case` as a stage bundle `dir/name` with the model's expected run (knobs of `rtl`).
pub fn save_bundle(
    case: &ShaderCase,
    dir: &Path,
    name: &str,
    description: &str,
    rtl: Option<ShVariant>,
    prov: &StageProvenance,
) -> Result<PathBuf, String> {
    save_bundle_with(case, dir, name, description, knobs_for(rtl), prov)
}

/// [`save_bundle`] with the model's expected run made with `knobs`; the manifest records
/// them, with the define the RTL build needs (`PICA_SH_KNOBS_ALT` for every knob flipped; a
/// replay of other mixes has no RTL build, only the model).
pub fn save_bundle_with(
    case: &ShaderCase,
    dir: &Path,
    name: &str,
    description: &str,
    knobs: Knobs,
    prov: &StageProvenance,
) -> Result<PathBuf, String> {
    let run = run_model(case, knobs, MAX_INSTRUCTIONS);
    // Knob builds need their define to replay; injected bugs do not (the bundle holds the
    // model's answer, which the default build reproduces).
    let defines: Vec<&str> = if knobs == ShVariant::KnobsAlt.knobs() {
        vec!["PICA_SH_KNOBS_ALT"]
    } else {
        Vec::new()
    };
    let out = dir.join(name);
    write_shader_bundle(
        &out,
        name,
        description,
        case,
        &run,
        &knobs,
        &defines,
        MAX_INSTRUCTIONS,
        prov,
    )
    .map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(out)
}

/// The shrink steps of a shader case (`case`: the failure as generated; the model runs with
/// `knobs`), both once, in order: the shader generator's shrinker (fewest instructions, then
/// simpler descriptors, inputs and uniforms), keeping a reproducer that ran to END or a hang
/// doing so (no shrinking into code that runs off into zero words until the instruction
/// limit); then, for one that runs into the limit, END after each of its first few words,
/// shrunk again from the first that still fails (such a reproducer is easier to read).
pub fn shrink_steps<'t>(knobs: Knobs, case: &ShaderCase) -> Vec<ShrinkStep<'t, ShaderCase>> {
    let stops = move |c: &ShaderCase| run_model(c, knobs, MAX_INSTRUCTIONS).end != "limit";
    let must_stop = stops(case);
    vec![
        ShrinkStep::once("program", move |sh: &mut Shrinker<'_, ShaderCase>| {
            let best = sh.best.clone();
            let msg = sh.message.clone();
            let (small, message) = shrink(&best, msg, |c| {
                if must_stop && !stops(c) {
                    return None;
                }
                sh.fails(c)
            });
            (sh.best, sh.message) = (small, message);
        }),
        ShrinkStep::once(
            "END after the first words",
            move |sh: &mut Shrinker<'_, ShaderCase>| {
                if stops(&sh.best) {
                    return;
                }
                for k in 0..8 {
                    let mut cand = sh.best.clone();
                    cand.code.resize(cand.code.len().max(k), 0);
                    cand.code.truncate(k);
                    cand.code.push(encode(&Instruction::Plain(Opcode::End)));
                    if let Some(m) = sh.fails(&cand) {
                        let (small, message) = shrink(&cand, m, |c| {
                            if !stops(c) {
                                return None;
                            }
                            sh.fails(c)
                        });
                        (sh.best, sh.message) = (small, message);
                        break;
                    }
                }
            },
        ),
    ]
}

/// One shader unit as a fuzz target ([`StageTarget`]): random programs, the model's run
/// checked against itself or the RTL unit, shrunk to the fewest instructions.
#[derive(Clone, Copy, Debug)]
pub struct ShaderTarget {
    /// Compare against this RTL build (model self-check only when `None`).
    pub rtl: Option<ShVariant>,
    /// The shader knobs the model runs with.
    pub knobs: Knobs,
}

impl StageTarget for ShaderTarget {
    type Case = ShaderCase;

    fn labels(&self) -> Labels {
        Labels::of("shader", self.rtl.map(ShVariant::name), "")
    }

    fn generate(&self, case_seed: u64) -> ShaderCase {
        generate(case_seed)
    }

    fn check(&self, case: &ShaderCase) -> Check {
        Check::of(check_with(case, self.rtl, self.knobs))
    }

    /// The generator's shrinker keeps its own budget.
    fn shrink_budget(&self) -> usize {
        usize::MAX
    }

    fn shrink_steps(&self, case: &ShaderCase) -> Vec<ShrinkStep<'_, ShaderCase>> {
        shrink_steps(self.knobs, case)
    }

    fn size(case: &ShaderCase) -> usize {
        case.instructions()
    }

    fn describe(case: &ShaderCase) -> String {
        format!("{} instruction(s)", case.instructions())
    }

    fn save_bundle(
        &self,
        case: &ShaderCase,
        dir: &Path,
        name: &str,
        description: &str,
        prov: &StageProvenance,
    ) -> Result<PathBuf, String> {
        save_bundle_with(case, dir, name, description, self.knobs, prov)
    }
}

/// Runs a campaign ([`campaign::run_target`]); `progress` is called after each case with (done,
/// total for this shard, failures so far). `commands` counts instructions.
pub fn run(opts: &ShaderFuzzOptions, progress: impl FnMut(u64, u64, usize)) -> FuzzReport {
    let target = ShaderTarget {
        rtl: opts.rtl,
        knobs: opts.knobs.unwrap_or_else(|| knobs_for(opts.rtl)),
    };
    campaign::run_target(&target, plan_of!(opts), progress)
}
