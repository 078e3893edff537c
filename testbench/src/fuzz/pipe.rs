//! `pica fuzz --target pipeline`: random register writes spliced into the scene library's
//! command lists, run through the whole model GPU (command processor to fragment operations).
//!
//! A case takes one scene (of those whose own run ends within [`SCENE_CYCLES`] cycles), parses
//! its command list into commands (seed 002 "Command Header"), inserts 1–6 random commands at
//! random command boundaries — single or consecutive writes, full or partial byte masks, to
//! registers of the table (most often), any ID below 0x300, or any 16-bit ID — and submits the
//! result from a fresh address after the scene's memory images. Such writes change draw
//! modes, vertex formats, viewports, shader code and uniforms, texture and framebuffer
//! configurations in the middle of a frame: the model must take each one without a panic and
//! without an internal error, whatever it renders. The checks ([`check`]):
//!
//! - no panic (caught and reported with its message) and no `HangReason::Internal`;
//! - register-write beats in increasing cycles, in the order and with the values the command
//!   stream gives (the register fuzzer's abstract parse of the list, [`fuzz_regs::abstract_run`]);
//! - a run that finishes has applied every write of the stream (the stream as submitted; when
//!   the pipeline wrote into the list during the run — a spliced write pointed a buffer at
//!   it — the words the CP read depend on timing, and only the first two checks apply:
//!   [`Ending::Overwritten`]). Pipeline hangs (shader,
//!   vertex loader, texture, fragment operations) and the cycle limit ([`CASE_CYCLES`]) are
//!   legitimate outcomes of random configurations and are counted, not failed.
//!
//! A failure is shrunk by dropping spliced commands one at a time while it still fails, and
//! saved as a case bundle under the regressions directory (`fuzz-pipeline-<seed>/`; replay
//! with `pica vectors check` or `pica fuzz --target pipeline --replay SEED`).

use crate::fuzz::guided::{self, GuidedSummary};
use crate::fuzz::regs as fuzz_regs;
use crate::fuzz::report::{case_seed, Failure, FuzzReport};
use pica_model::cmdheader::CommandHeader;
use pica_model::cmdlist::CommandList;
use pica_model::cov::{CoverageDb, Hits};
use pica_model::outcome::HangReason;
use pica_model::{regs, Outcome};
use pica_vectors::bundle::write_bundle;
use pica_vectors::case::{Case, MemImage};
use pica_vectors::scenes;
use pica_vectors::shader_gen::Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Scenes whose unmodified run ends within this many cycles take part (the large bench
/// scenes would make a million-case campaign take days).
pub const SCENE_CYCLES: u64 = 60_000;

/// Cycle limit of one case (a spliced write can turn a small triangle into a full-screen
/// one, or the finalize into a jump into data).
pub const CASE_CYCLES: u64 = 200_000;

/// Options of a pipeline campaign.
#[derive(Clone, Debug)]
pub struct PipeFuzzOptions {
    /// Cases in the campaign.
    pub cases: u64,
    /// Campaign seed.
    pub seed: u64,
    /// `(i, n)`: run only cases `k` with `k % n == i`.
    pub shard: (u64, u64),
    /// Where shrunk failures are saved as bundles.
    pub regressions: PathBuf,
    /// Stop after this many failures.
    pub max_failures: usize,
    /// The knobs every case runs with (recorded in saved bundles).
    pub knobs: pica_model::knobs::Knobs,
}

/// A command of the spliced list: the words of one command (header, parameters, padding).
type Command = Vec<u32>;

/// A generated case: the scene and the commands spliced into it.
#[derive(Clone, Debug)]
pub struct PipeCase {
    /// The scene's name.
    pub scene: String,
    /// `(position, command)`: insert `command` before the scene's command number `position`
    /// (in increasing position order; equal positions keep their order).
    pub splices: Vec<(usize, Command)>,
    /// The case seed.
    pub seed: u64,
}

/// How a case's run ended, for the campaign's tally.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ending {
    /// The list finished and the pipeline drained.
    Finished,
    /// The command stream ends without a finalize, past the end, or in unmapped memory.
    ListHang,
    /// A pipeline stage hangs (shader, vertex loader, texture, fragment operations).
    PipelineHang,
    /// The cycle limit.
    Limit,
    /// The pipeline wrote into the command list during the run (a spliced write pointed a
    /// buffer at it): no panic and no internal error, but the order of the writes is not
    /// checked (the words the CP read depend on timing).
    Overwritten,
}

/// The scenes that take part, with their parsed command lists (built once).
fn pool() -> &'static [(Case, Vec<Command>)] {
    static POOL: OnceLock<Vec<(Case, Vec<Command>)>> = OnceLock::new();
    POOL.get_or_init(|| {
        scenes::scenes()
            .into_iter()
            .filter_map(|s| {
                let case = s.case;
                let mut gpu = case.gpu().ok()?;
                gpu.set_record_beats(false);
                match gpu.run(SCENE_CYCLES) {
                    Outcome::Finished { .. } => {}
                    _ => return None,
                }
                let cmds = commands(&case)?;
                Some((case, cmds))
            })
            .collect()
    })
}

/// The scene's submitted list split into commands (the tail that is not a whole command, if
/// any, is one more entry).
fn commands(case: &Case) -> Option<Vec<Command>> {
    let image = case.images.iter().find(|i| i.base == case.submit_addr)?;
    let len = (case.submit_size as usize / 4).min(image.words.len());
    let words = &image.words[..len];
    let mut out = Vec::new();
    let mut p = 0;
    while p < words.len() {
        let end = match words.get(p + 1) {
            Some(&h) => (p + CommandHeader::decode(h).total_words() as usize).min(words.len()),
            None => words.len(),
        };
        out.push(words[p..end].to_vec());
        p = end;
    }
    Some(out)
}

/// Register IDs of the table (the writes that change what the pipeline does).
fn table_ids() -> &'static [u16] {
    static IDS: OnceLock<Vec<u16>> = OnceLock::new();
    // Without the command-buffer jump registers (0x238-0x23D): a random address there ends
    // the list at once; the any-ID branches of [`random_command`] still reach them.
    IDS.get_or_init(|| {
        regs::REGISTERS
            .iter()
            .map(|r| r.id)
            .filter(|id| !(0x238..=0x23D).contains(id))
            .collect()
    })
}

fn value(r: &mut Rng) -> u32 {
    match r.below(8) {
        0 => 0,
        1 => u32::MAX,
        2 => 1 << r.below(32),
        3 => r.below(16) as u32,
        4 => !(1 << r.below(32)),
        _ => r.next_u64() as u32,
    }
}

/// One random command.
fn random_command(r: &mut Rng) -> Command {
    let ids = table_ids();
    let id = match r.below(10) {
        0 => r.below(0x10000) as u16,
        1 | 2 => r.below(0x300) as u16,
        _ => ids[r.below(ids.len() as u64) as usize],
    };
    let mask = if r.chance(70) { 0xF } else { r.below(16) as u8 };
    let n = if r.chance(75) { 1 } else { 2 + r.below(6) };
    let params: Vec<u32> = (0..n).map(|_| value(r)).collect();
    let mut l = CommandList::new();
    l.command(u32::from(id), mask, r.chance(50), &params);
    l.into_words()
}

/// The case of `case_seed`.
pub fn generate(case_seed: u64) -> PipeCase {
    let mut r = Rng(case_seed);
    let pool = pool();
    if pool.is_empty() {
        return PipeCase {
            scene: String::new(),
            splices: Vec::new(),
            seed: case_seed,
        };
    }
    let (case, cmds) = &pool[r.below(pool.len() as u64) as usize];
    let mut splices: Vec<(usize, Command)> = (0..1 + r.below(6))
        .map(|_| {
            (
                r.below(cmds.len() as u64 + 1) as usize,
                random_command(&mut r),
            )
        })
        .collect();
    splices.sort_by_key(|s| s.0);
    PipeCase {
        scene: case.name.clone(),
        splices,
        seed: case_seed,
    }
}

impl PipeCase {
    /// The runnable case: the scene with the spliced list at a fresh address. `None` when the
    /// scene is not in the pool (an empty library) or no memory is left after its images.
    pub fn to_case(&self) -> Option<Case> {
        let (scene, cmds) = pool().iter().find(|(c, _)| c.name == self.scene)?;
        let mut words = Vec::new();
        let mut next = self.splices.iter().peekable();
        for (k, c) in cmds.iter().enumerate() {
            while let Some((_, s)) = next.next_if(|s| s.0 <= k) {
                words.extend_from_slice(s);
            }
            words.extend_from_slice(c);
        }
        for (_, s) in next {
            words.extend_from_slice(s);
        }
        if words.len() % 4 != 0 {
            // The CP reads `size & !0xF` bytes (the 16-byte rule): a list of an odd number of
            // 8-byte commands would lose its last one (the finalize). Lead with a write that
            // changes nothing (mask 0 to GPUREG_FOG_COLOR, a register without side effects).
            let pad = CommandHeader {
                id: regs::id::FOG_COLOR,
                mask: 0,
                extra: 0,
                consecutive: false,
            };
            words.splice(0..0, [0, pad.encode()]);
        }
        // A fresh, 16-byte-aligned place after every image of the scene, in mapped memory.
        let end = scene
            .images
            .iter()
            .map(|i| i.base as u64 + 4 * i.words.len() as u64)
            .max()
            .unwrap_or(0);
        let base = u32::try_from((end + 0xFF) & !0xFF).ok()?;
        let size = u32::try_from(4 * words.len()).ok()?;
        pica_model::mem::Memory::region_of(base, size.max(4))?;
        let mut case = scene.clone();
        case.name = format!("fuzz/pipeline/{}/{:016x}", self.scene, self.seed);
        case.description = format!(
            "{} with {} random command(s) spliced into its list",
            self.scene,
            self.splices.len()
        );
        case.images.push(MemImage { base, words });
        case.submit_addr = base;
        case.submit_size = size;
        case.max_cycles = CASE_CYCLES;
        case.seed = Some(self.seed);
        Some(case)
    }
}

/// Runs `case` and checks the invariants of the module doc; `Ok` tells how it ended.
pub fn check_case(case: &Case) -> Result<Ending, String> {
    check_case_cov(case, false).0
}

/// [`check_case`], with the run's functional coverage when `cov` ([`pica_model::cov`]).
pub fn check_case_cov(case: &Case, cov: bool) -> (Result<Ending, String>, Option<Hits>) {
    let mut hits = None;
    let r = check_run(case, cov.then_some(&mut hits));
    (r, hits)
}

fn check_run(case: &Case, hits: Option<&mut Option<Hits>>) -> Result<Ending, String> {
    let run = catch_unwind(AssertUnwindSafe(|| -> Result<_, String> {
        let mut gpu = case.gpu().map_err(|e| e.to_string())?;
        gpu.set_coverage(hits.is_some());
        let outcome = gpu.run(case.max_cycles);
        if let Some(h) = hits {
            *h = gpu.coverage(Some(&outcome));
        }
        let beats = gpu.regwrite_beats().to_vec();
        // The command stream as submitted: a spliced write can point a colour or depth
        // buffer at the list, and the stream read back after the run would be pixels.
        let initial = case.memory().map_err(|e| e.to_string())?;
        let abs = fuzz_regs::abstract_run(
            &initial,
            case.submit_addr,
            case.submit_size,
            beats.len() + 1,
        );
        let list = |m: &pica_model::Memory| {
            (0..case.submit_size / 4)
                .map(|k| m.read_u32(case.submit_addr + 4 * k).ok())
                .collect::<Vec<_>>()
        };
        let overwritten = list(&initial) != list(gpu.mem());
        Ok((outcome, beats, abs, overwritten))
    }));
    let (outcome, beats, abs, overwritten) = match run {
        Ok(r) => r?,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| p.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            return Err(format!("panic: {msg}"));
        }
    };
    if let Some(w) = beats.windows(2).find(|w| w[1].cycle <= w[0].cycle) {
        return Err(format!(
            "beat cycles not increasing: {} then {}",
            w[0].cycle, w[1].cycle
        ));
    }
    if let Outcome::Hang {
        reason: HangReason::Internal(s),
        ..
    } = &outcome
    {
        return Err(format!("internal model error: {s}"));
    }
    if overwritten {
        // The pipeline wrote into the list while the CP read it: which words the CP saw
        // depends on timing the abstract parse does not model, so the order is not checked.
        return Ok(Ending::Overwritten);
    }
    let got: Vec<(u32, u8, u32)> = beats.iter().map(|b| (b.id, b.mask, b.param)).collect();
    let n = got.len().min(abs.writes.len());
    if let Some(i) = (0..n).find(|&i| got[i] != abs.writes[i]) {
        return Err(format!(
            "write #{i}: model applied {:x?}, the command stream says {:x?}",
            got[i], abs.writes[i]
        ));
    }
    match outcome {
        Outcome::Finished { .. } if abs.end != "finished" || got.len() != abs.writes.len() => {
            Err(format!(
                "model finished after {} writes; the command stream: {} after {} writes",
                got.len(),
                abs.end,
                abs.writes.len()
            ))
        }
        Outcome::Finished { .. } => Ok(Ending::Finished),
        Outcome::CycleLimit { .. } => Ok(Ending::Limit),
        Outcome::Hang {
            reason:
                HangReason::Shader { .. }
                | HangReason::VertexLoader(_)
                | HangReason::FragmentOps(_)
                | HangReason::Texture(_),
            ..
        } => Ok(Ending::PipelineHang),
        // Internal errors returned above.
        Outcome::Hang { .. } => Ok(Ending::ListHang),
    }
}

/// Checks the case of `case_seed` with the default knobs.
pub fn check(c: &PipeCase) -> Result<Ending, String> {
    check_cov(c, &pica_model::knobs::Knobs::default(), false).0
}

/// [`check`] with `knobs`, with the run's functional coverage when `cov`.
pub fn check_cov(
    c: &PipeCase,
    knobs: &pica_model::knobs::Knobs,
    cov: bool,
) -> (Result<Ending, String>, Option<Hits>) {
    match c.to_case() {
        Some(mut case) => {
            case.knobs = *knobs;
            check_case_cov(&case, cov)
        }
        None => (
            Err(format!(
                "scene '{}' has no case (empty library or no memory after it)",
                c.scene
            )),
            None,
        ),
    }
}

/// The smallest set of the failing case's splices (dropping one at a time) that still fails,
/// and its message.
pub fn shrink(c: &PipeCase, knobs: &pica_model::knobs::Knobs, msg: String) -> (PipeCase, String) {
    shrink_by(c, msg, |t| check_cov(t, knobs, false).0.err())
}

/// Drops splices of `c` one at a time while `fails` still finds a failure (its message), and
/// returns the smallest case and the message of its failure (`msg`, the failure of `c`, when
/// no splice can go). The shrinking loop of [`shrink`], for any failure: `pica mutate` uses
/// it with a mutant model in place of the RTL.
pub fn shrink_by(
    c: &PipeCase,
    mut msg: String,
    fails: impl Fn(&PipeCase) -> Option<String>,
) -> (PipeCase, String) {
    let mut best = c.clone();
    let mut k = 0;
    while k < best.splices.len() {
        let mut t = best.clone();
        t.splices.remove(k);
        match fails(&t) {
            Some(m) => {
                best = t;
                msg = m;
            }
            None => k += 1,
        }
    }
    (best, msg)
}

/// Outcomes of a campaign, by kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Runs that finished.
    pub finished: u64,
    /// Command-list hangs.
    pub list_hang: u64,
    /// Pipeline-stage hangs.
    pub pipeline_hang: u64,
    /// Runs stopped by the cycle limit.
    pub limit: u64,
    /// Runs whose command list the pipeline overwrote ([`Ending::Overwritten`]).
    pub overwritten: u64,
}

impl Tally {
    fn add(&mut self, e: Ending) {
        match e {
            Ending::Finished => self.finished += 1,
            Ending::ListHang => self.list_hang += 1,
            Ending::PipelineHang => self.pipeline_hang += 1,
            Ending::Limit => self.limit += 1,
            Ending::Overwritten => self.overwritten += 1,
        }
    }
}

/// Runs a campaign; `progress` is called after each case with (done, total for this shard,
/// failures so far). Also returns the tally of outcomes. With `cov`, every case's functional
/// coverage is added to it (a bin's first case is `fuzz pipeline 0x<case seed>`).
pub fn run(
    opts: &PipeFuzzOptions,
    cov: Option<&mut CoverageDb>,
    progress: &mut dyn FnMut(u64, u64, usize),
) -> (FuzzReport, Tally) {
    let (r, t, _) = run_inner(opts, cov, None, progress);
    (r, t)
}

/// A guided pipeline campaign (`pica fuzz --target pipeline --guided`, as
/// [`crate::fuzz::guided`] for register sequences): cases that reach a new bin join a pool, and half
/// the later cases are mutants of pool cases — settings of a bin not reached yet written just
/// before one of the scene's draws, the splices of two pool cases joined, a scene's draw
/// repeated later in its list, one splice added, removed or changed. `keep` receives a bundle
/// of each case that reached a new bin (the database then names it as the bin's first case).
pub fn run_guided(
    opts: &PipeFuzzOptions,
    db: &mut CoverageDb,
    keep: Option<&Path>,
    progress: &mut dyn FnMut(u64, u64, usize),
) -> (FuzzReport, Tally, GuidedSummary) {
    let (mut r, t, g) = run_inner(opts, Some(db), Some(keep), progress);
    r.against = "model:pipeline (guided)".to_string();
    (r, t, g.unwrap_or_default())
}

/// Indices of the scene's draw commands (DRAWARRAYS, DRAWELEMENTS).
fn draw_positions(cmds: &[Command]) -> Vec<usize> {
    (0..cmds.len())
        .filter(|&k| {
            cmds[k].get(1).is_some_and(|&h| {
                let id = CommandHeader::decode(h).id;
                id == regs::id::DRAWARRAYS || id == regs::id::DRAWELEMENTS
            })
        })
        .collect()
}

/// At most this many splices in a guided mutant (the strategy makes at most 6).
const MAX_GUIDED_SPLICES: usize = 24;

/// A mutant of a pool case ([`run_guided`]), with case seed `seed`.
fn mutate(
    pool: &[PipeCase],
    db: &CoverageDb,
    op: guided::Op,
    rng: &mut guided::Rng,
    seed: u64,
) -> PipeCase {
    let mut c = pool[rng.below(pool.len())].clone();
    c.seed = seed;
    let no_cmds: &[Command] = &[];
    let cmds = self::pool()
        .iter()
        .find(|(s, _)| s.name == c.scene)
        .map_or(no_cmds, |(_, cmds)| cmds.as_slice());
    let draws = draw_positions(cmds);
    let mut r = Rng(rng.bits());
    let command = |id: u16, mask: u8, params: &[u32]| {
        let mut l = CommandList::new();
        l.command(u32::from(id), mask, false, params);
        l.into_words()
    };
    match op {
        guided::Op::Steer => {
            let st = guided::pick_steer(db, rng);
            let at = if draws.is_empty() {
                rng.below(cmds.len() + 1)
            } else {
                draws[rng.below(draws.len())]
            };
            for s in st {
                let word = (rng.bits() as u32 & !s.mask) | s.value;
                c.splices
                    .push((at, command(s.id, guided::byte_enables(s.mask), &[word])));
            }
        }
        guided::Op::Splice => {
            let other = &pool[rng.below(pool.len())];
            let len = cmds.len();
            c.splices.extend(
                other
                    .splices
                    .iter()
                    .map(|(p, w)| ((*p).min(len), w.clone())),
            );
        }
        guided::Op::DupDraw => {
            if let Some(&d) = draws.get(rng.below(draws.len().max(1))) {
                let at = d + 1 + rng.below(cmds.len() - d);
                c.splices.push((at, cmds[d].clone()));
            } else {
                c.splices
                    .push((rng.below(cmds.len() + 1), random_command(&mut r)));
            }
        }
        guided::Op::Tweak => match rng.below(3) {
            0 if !c.splices.is_empty() => {
                c.splices.remove(rng.below(c.splices.len()));
            }
            1 if !c.splices.is_empty() => {
                let k = rng.below(c.splices.len());
                if let Some(w) = c.splices[k].1.first_mut() {
                    *w = value(&mut r);
                }
            }
            _ => c
                .splices
                .push((rng.below(cmds.len() + 1), random_command(&mut r))),
        },
    }
    c.splices.sort_by_key(|s| s.0);
    c.splices.truncate(MAX_GUIDED_SPLICES);
    c
}

fn run_inner(
    opts: &PipeFuzzOptions,
    mut cov: Option<&mut CoverageDb>,
    guide: Option<Option<&Path>>,
    progress: &mut dyn FnMut(u64, u64, usize),
) -> (FuzzReport, Tally, Option<GuidedSummary>) {
    let (index, count) = (opts.shard.0, opts.shard.1.max(1));
    let total = (opts.cases + count - 1 - index.min(count - 1)) / count;
    let mut failures = Vec::new();
    let mut tally = Tally::default();
    let mut done = 0;
    let mut i = index;
    let mut sum = GuidedSummary::default();
    let mut kept: Vec<PipeCase> = Vec::new();
    while i < opts.cases {
        let seed = case_seed(opts.seed, i);
        let mut rng = guided::Rng(seed ^ guided::RNG_SALT);
        let op = match (guide, cov.as_deref()) {
            (Some(_), Some(db)) => guided::choose(kept.is_empty(), &mut rng, &mut sum)
                .map(|op| mutate(&kept, db, op, &mut rng, seed)),
            _ => None,
        };
        let mutant = op.is_some();
        let c = op.unwrap_or_else(|| generate(seed));
        let (r, hits) = check_cov(&c, &opts.knobs, cov.is_some());
        if let (Some(db), Some(h)) = (cov.as_deref_mut(), hits) {
            let mut label = if mutant {
                format!("guided pipeline 0x{seed:016x}")
            } else {
                format!("fuzz pipeline 0x{seed:016x}")
            };
            if let Some(keep) = guide {
                if h.iter().any(|(b, _)| !db.is_hit(b)) {
                    sum.pool += 1;
                    sum.pool_from_mutants += u64::from(mutant);
                    if let Some(dir) = keep {
                        if let Some(p) = save_kept(&c, opts, dir) {
                            label = p;
                        }
                    }
                    kept.push(c.clone());
                }
            }
            db.add(&h, &label);
        }
        match r {
            Ok(e) => tally.add(e),
            Err(msg) => {
                let (small, message) = shrink(&c, &opts.knobs, msg);
                let name = format!("fuzz-pipeline-{seed:016x}");
                let dir = opts.regressions.join(&name);
                let bundle = match small.to_case().map(|mut case| {
                    case.knobs = opts.knobs;
                    case.run_model().map_err(|e| e.to_string()).and_then(|run| {
                        write_bundle(&dir, &case, &run, &crate::generator())
                            .map_err(|e| e.to_string())
                    })
                }) {
                    Some(Ok(_)) => dir.display().to_string(),
                    Some(Err(e)) => format!("(not written: {e})"),
                    None => "(not written: no case)".to_string(),
                };
                failures.push(Failure {
                    case_index: i,
                    case_seed: format!("0x{seed:016x}"),
                    message,
                    commands: small.splices.len(),
                    original_commands: c.splices.len(),
                    bundle,
                });
            }
        }
        done += 1;
        progress(done, total, failures.len());
        if failures.len() >= opts.max_failures {
            break;
        }
        i += count;
    }
    let report = FuzzReport {
        seed: opts.seed,
        cases: opts.cases,
        shard: format!("{index}/{count}"),
        against: "model:pipeline".to_string(),
        cases_run: done,
        failures,
        loops: 0,
        guided: None,
    };
    if let (Some(_), Some(db)) = (guide, cov) {
        sum.covered_bins = db.total().0;
        return (report, tally, Some(sum));
    }
    (report, tally, None)
}

/// Writes a case that reached a new bin as a bundle under `dir`; its path.
fn save_kept(c: &PipeCase, opts: &PipeFuzzOptions, dir: &Path) -> Option<String> {
    let mut case = c.to_case()?;
    case.knobs = opts.knobs;
    let out = dir.join(format!("guided-pipeline-{:016x}", c.seed));
    let run = case.run_model().ok()?;
    write_bundle(&out, &case, &run, &crate::generator()).ok()?;
    Some(out.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splicing_nothing_gives_the_scene_back() {
        let c = generate(7);
        let bare = PipeCase {
            splices: Vec::new(),
            ..c
        };
        let case = bare.to_case().expect("case");
        let (scene, cmds) = pool()
            .iter()
            .find(|(s, _)| s.name == bare.scene)
            .expect("scene");
        let words: Vec<u32> = cmds.concat();
        assert_eq!(
            words.len() % 4,
            0,
            "the scene's own list keeps the 16-byte rule"
        );
        assert_eq!(case.images.last().map(|i| &i.words), Some(&words));
        // The same frame as the scene itself, from the new address.
        let a = scene.run_model().expect("scene runs");
        let b = case.run_model().expect("case runs");
        assert_eq!(a.beats.len(), b.beats.len());
        assert_eq!(
            a.pipeline.as_ref().map(|p| &p.pixel),
            b.pipeline.as_ref().map(|p| &p.pixel)
        );
    }

    #[test]
    fn splices_land_at_their_positions() {
        let c = generate(11);
        let case = c.to_case().expect("case");
        let spliced: usize = c.splices.iter().map(|s| s.1.len()).sum();
        let (_, cmds) = pool()
            .iter()
            .find(|(s, _)| s.name == c.scene)
            .expect("scene");
        let scene_words: usize = cmds.iter().map(Vec::len).sum();
        let words = scene_words + spliced;
        let pad = if words % 4 == 0 { 0 } else { 2 };
        assert_eq!(case.submit_size as usize, 4 * (words + pad));
        assert_eq!(case.submit_size % 16, 0);
    }

    #[test]
    fn a_case_that_cannot_run_fails_the_check() {
        // Memory outside every region: an error naming the image, not a panic or a pass.
        let c = generate(3);
        let mut case = c.to_case().expect("case");
        assert!(check_case(&case).is_ok(), "seed 3 passes");
        case.images.push(MemImage {
            base: 0xFFFF_FFF0,
            words: vec![0; 8],
        });
        assert!(
            check_case(&case).is_err(),
            "an unbuildable case is reported"
        );
    }

    /// A spliced write that points the colour buffer at the command list: the pipeline writes
    /// pixels over the list during the run. The order check (which reads the stream as
    /// submitted) is skipped and such a case passes as `Overwritten`, never as a failure.
    #[test]
    fn a_list_overwritten_by_the_pipeline_is_tallied_not_failed() {
        let mut overwritten = 0;
        let target = u32::from(regs::id::COLORBUFFER_LOC);
        for (scene, cmds) in pool() {
            // Right after the scene's own colour-buffer address write.
            let writes_it = |c: &Command| {
                c.get(1).is_some_and(|&h| {
                    let h = CommandHeader::decode(h);
                    let first = u32::from(h.id);
                    let last = if h.consecutive {
                        first + u32::from(h.extra)
                    } else {
                        first
                    };
                    (first..=last).contains(&target)
                })
            };
            let Some(at) = cmds.iter().rposition(writes_it) else {
                continue;
            };
            let base = PipeCase {
                scene: scene.name.clone(),
                splices: Vec::new(),
                seed: 0,
            };
            let list = base.to_case().expect("scene in the pool").submit_addr;
            let mut l = CommandList::new();
            l.write(regs::id::COLORBUFFER_LOC, list >> 3);
            let c = PipeCase {
                splices: vec![(at + 1, l.into_words())],
                ..base
            };
            match check(&c) {
                Ok(Ending::Overwritten) => overwritten += 1,
                Ok(_) => {}
                Err(e) => panic!("{}: {e}", scene.name),
            }
        }
        assert!(overwritten > 0, "no scene draws over its own list");
    }

    #[test]
    fn a_small_campaign_runs_clean() {
        let opts = PipeFuzzOptions {
            cases: 200,
            seed: 1,
            shard: (0, 1),
            regressions: std::env::temp_dir().join("pica-pipe-fuzz-test"),
            max_failures: 1,
            knobs: pica_model::knobs::Knobs::default(),
        };
        let mut db = CoverageDb::new("test");
        let (r, t) = run(&opts, Some(&mut db), &mut |_, _, _| {});
        assert_eq!(r.failures, Vec::new());
        // Spliced writes reach the pipeline: more than the scenes alone cover.
        let (covered, total) = db.total();
        assert!(covered > 1000 && covered < total, "{covered}/{total}");
        assert_eq!(r.cases_run, 200);
        assert_eq!(
            t.finished + t.list_hang + t.pipeline_hang + t.limit + t.overwritten,
            200
        );
        assert!(
            t.finished > 0 && t.pipeline_hang + t.limit + t.list_hang > 0,
            "{t:?}"
        );
    }
}
