//! The stage comparison: the mixed GPU against the model alone, channel by channel
//! (transaction-exact), then the outcome and the memory ([`stage_lockstep`]).

use super::mixed::{cycle_factor, mixed_gpu, step_sequence, MixedGpu};
use super::options::{StageError, StageOptions, TraceWindow};
use super::report::{StageDivergence, StageDivergenceKind, StageReport};
use super::{Order, StageRow, StageSet};
use crate::lockstep::FieldDiff;
use pica_model::beat::{Beat, Channel, CommitBeat};
use pica_model::chan::Payload;
use pica_model::shader::disasm;
use pica_model::shader::interp::{Knobs as ShaderKnobs, ShaderUnit, Step};
use pica_model::{Gpu, Outcome};
use pica_vectors::bundle::OutcomeRecord;
use pica_vectors::case::{hang_reason_code, Case};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Options of a stage comparison.
#[derive(Clone, Debug, Default)]
pub struct StageLockstepOptions {
    /// The mixed run's options (`commits` is forced on when a row has a commit output).
    pub stage: StageOptions,
    /// On a mismatch, re-run the mixed GPU and write a VCD of this many cycles around it.
    pub trace_window: Option<u64>,
    /// Where that VCD goes.
    pub vcd: PathBuf,
}

pub(super) fn channel_beats(gpu: &Gpu, ch: Channel) -> Vec<Beat> {
    fn wrap<T: Copy>(xs: &[T], f: fn(T) -> Beat) -> Vec<Beat> {
        xs.iter().copied().map(f).collect()
    }
    let p = gpu.pipeline_beats();
    let (shader_in, shader_out) = gpu.shader_beats();
    match ch {
        Channel::RegWrite => wrap(gpu.regwrite_beats(), Beat::RegWrite),
        Channel::ShaderIn => wrap(shader_in, Beat::ShaderIn),
        Channel::ShaderOut => wrap(shader_out, Beat::ShaderOut),
        Channel::Commit => wrap(gpu.commit_beats(), Beat::Commit),
        Channel::Primitive => wrap(p.primitive, Beat::Primitive),
        Channel::Fragment => wrap(p.fragment, Beat::Fragment),
        Channel::Pixel => wrap(p.pixel, Beat::Pixel),
        Channel::Texel => wrap(p.texel, Beat::Texel),
        Channel::Combiner => wrap(p.combiner, Beat::Combiner),
        Channel::TexColor => wrap(p.tex_color, Beat::TexColor),
    }
}

/// A beat without what a transaction-exact comparison ignores: the cycle, the unit, and in a
/// commit the lanes of `result` the instruction did not write (they hold what the unit's
/// earlier jobs left in the register, which depends on which unit ran the vertex — the one
/// thing a transaction-exact comparison lets differ).
pub(super) fn payload(b: &Beat) -> Beat {
    let mut b = *b;
    match &mut b {
        Beat::RegWrite(x) => x.cycle = 0,
        Beat::ShaderIn(x) | Beat::ShaderOut(x) => {
            x.cycle = 0;
            x.unit = 0;
        }
        Beat::Commit(c) => {
            c.cycle = 0;
            c.unit = 0;
            let mask = c.mask;
            for (lane, r) in c.result.iter_mut().enumerate() {
                if (mask >> (3 - lane)) & 1 == 0 {
                    *r = 0;
                }
            }
        }
        Beat::Primitive(x) => x.cycle = 0,
        Beat::Fragment(x) => x.cycle = 0,
        Beat::Pixel(x) => x.cycle = 0,
        Beat::Texel(x) => x.cycle = 0,
        Beat::Combiner(x) => x.cycle = 0,
        Beat::TexColor(x) => x.cycle = 0,
    }
    b
}

/// [`payload`] as JSON fields, for reports.
pub(super) fn payload_json(b: &Beat) -> serde_json::Map<String, serde_json::Value> {
    let mut m = beat_fields(&payload(b));
    m.remove("cycle");
    // The shader unit (not the texture unit of a texel beat) is not compared.
    if matches!(b, Beat::ShaderIn(_) | Beat::ShaderOut(_) | Beat::Commit(_)) {
        m.remove("unit");
    }
    m
}

pub(super) fn beat_fields(b: &Beat) -> serde_json::Map<String, serde_json::Value> {
    match b {
        Beat::RegWrite(x) => x.json_fields(),
        Beat::ShaderIn(x) | Beat::ShaderOut(x) => x.json_fields(),
        Beat::Commit(x) => x.json_fields(),
        Beat::Primitive(x) => x.json_fields(),
        Beat::Fragment(x) => x.json_fields(),
        Beat::Pixel(x) => x.json_fields(),
        Beat::Texel(x) => x.json_fields(),
        Beat::Combiner(x) => x.json_fields(),
        Beat::TexColor(x) => x.json_fields(),
    }
}

pub(super) fn beat_value(b: &Beat) -> serde_json::Value {
    let mut m = beat_fields(b);
    m.insert("channel".into(), b.channel().name().into());
    serde_json::Value::Object(m)
}

pub(super) fn field_diffs(
    e: &serde_json::Map<String, serde_json::Value>,
    a: &serde_json::Map<String, serde_json::Value>,
) -> Vec<FieldDiff> {
    let show = |v: Option<&serde_json::Value>| {
        v.map_or_else(
            || "-".into(),
            |v| v.to_string().trim_matches('"').to_string(),
        )
    };
    let mut names: Vec<&String> = e.keys().collect();
    names.extend(a.keys().filter(|k| !e.contains_key(*k)));
    names
        .into_iter()
        .filter(|k| e.get(*k) != a.get(*k))
        .map(|k| FieldDiff {
            name: k.clone(),
            expected: show(e.get(k)),
            actual: show(a.get(k)),
        })
        .collect()
}

pub(super) fn seq_key_text(seq: u32) -> String {
    if seq & CommitBeat::GS_SEQ_FLAG != 0 {
        format!("GS invocation {}", seq & !CommitBeat::GS_SEQ_FLAG)
    } else {
        format!("vertex {seq}")
    }
}

pub(super) fn beat_seq(b: &Beat) -> u32 {
    match b {
        Beat::Commit(c) => c.seq,
        Beat::ShaderIn(s) | Beat::ShaderOut(s) => s.seq,
        _ => 0,
    }
}

/// The pixel a fragment-path beat belongs to (`None`: a channel without one).
pub(super) fn beat_pixel(b: &Beat) -> Option<(u16, u16)> {
    match b {
        Beat::Fragment(x) => Some((x.x, x.y)),
        Beat::Pixel(x) => Some((x.x, x.y)),
        Beat::Texel(x) => Some((x.x, x.y)),
        Beat::Combiner(x) => Some((x.x, x.y)),
        Beat::TexColor(x) => Some((x.x, x.y)),
        _ => None,
    }
}

/// How a divergence names a pixel.
fn pixel_key_text((x, y): (u16, u16)) -> String {
    format!("pixel ({x}, {y})")
}

/// Compares one channel; `Some` on the first difference.
pub(super) fn compare_channel(
    ch: Channel,
    order: Order,
    want: &[Beat],
    got: &[Beat],
    complete: bool,
    compared: &mut usize,
) -> Option<StageDivergence> {
    let mk =
        |kind, key: Option<String>, index, e: Option<&Beat>, a: Option<&Beat>, before: &[Beat]| {
            let fields = match (e, a) {
                (Some(e), Some(a)) => field_diffs(&payload_json(e), &payload_json(a)),
                _ => Vec::new(),
            };
            StageDivergence {
                kind,
                channel: ch.name().into(),
                key,
                index,
                cycle: e.or(a).map_or(0, Beat::cycle),
                expected: e.map(beat_value),
                actual: a.map(beat_value),
                fields,
                instruction: None,
                operands: Vec::new(),
                before: before
                    .iter()
                    .rev()
                    .take(crate::lockstep::HISTORY)
                    .rev()
                    .map(beat_value)
                    .collect(),
                note: None,
                vcd: None,
            }
        };
    match order {
        Order::InOrder => {
            for (i, e) in want.iter().enumerate() {
                let Some(a) = got.get(i) else {
                    if !complete {
                        return None;
                    }
                    return Some(mk(
                        StageDivergenceKind::MissingBeat,
                        None,
                        i,
                        Some(e),
                        None,
                        &want[..i],
                    ));
                };
                if payload(e) != payload(a) {
                    return Some(mk(
                        StageDivergenceKind::BeatMismatch,
                        None,
                        i,
                        Some(e),
                        Some(a),
                        &want[..i],
                    ));
                }
                *compared += 1;
            }
            if complete && got.len() > want.len() {
                let i = want.len();
                return Some(mk(
                    StageDivergenceKind::ExtraBeat,
                    None,
                    i,
                    None,
                    Some(&got[i]),
                    want,
                ));
            }
            None
        }
        Order::KeyedByPixel => {
            // Each pixel's beats in order; the model's beats walked in the model's order, so
            // the divergence reported is the earliest one there. `before` is the pixel's
            // history: the model's earlier beats of that pixel.
            let px = |b: &Beat| beat_pixel(b).unwrap_or((u16::MAX, u16::MAX));
            let mut got_of: BTreeMap<(u16, u16), Vec<Beat>> = BTreeMap::new();
            for b in got {
                got_of.entry(px(b)).or_default().push(*b);
            }
            let mut want_of: BTreeMap<(u16, u16), Vec<Beat>> = BTreeMap::new();
            for e in want {
                let k = px(e);
                let history = want_of.entry(k).or_default();
                let i = history.len();
                match got_of.get(&k).and_then(|g| g.get(i)) {
                    None if complete => {
                        return Some(mk(
                            StageDivergenceKind::MissingBeat,
                            Some(pixel_key_text(k)),
                            i,
                            Some(e),
                            None,
                            history,
                        ));
                    }
                    None => {}
                    Some(a) if payload(e) != payload(a) => {
                        return Some(mk(
                            StageDivergenceKind::BeatMismatch,
                            Some(pixel_key_text(k)),
                            i,
                            Some(e),
                            Some(a),
                            history,
                        ));
                    }
                    Some(_) => *compared += 1,
                }
                history.push(*e);
            }
            if complete {
                // The first beat in the mixed run's order past its pixel's model beats.
                let mut seen: BTreeMap<(u16, u16), usize> = BTreeMap::new();
                for a in got {
                    let k = px(a);
                    let n = seen.entry(k).or_default();
                    *n += 1;
                    let empty = Vec::new();
                    let history = want_of.get(&k).unwrap_or(&empty);
                    if *n > history.len() {
                        return Some(mk(
                            StageDivergenceKind::ExtraBeat,
                            Some(pixel_key_text(k)),
                            history.len(),
                            None,
                            Some(a),
                            history,
                        ));
                    }
                }
            }
            None
        }
        Order::KeyedBySeq => {
            let group = |bs: &[Beat]| {
                let mut m: BTreeMap<u32, Vec<Beat>> = BTreeMap::new();
                for b in bs {
                    m.entry(beat_seq(b)).or_default().push(*b);
                }
                m
            };
            let (w, g) = (group(want), group(got));
            let mut keys: Vec<u32> = w.keys().chain(g.keys()).copied().collect();
            keys.sort_unstable();
            keys.dedup();
            let empty = Vec::new();
            // The job whose commits end in a hang is compared whole even when the run is not.
            let hangs = |bs: &[Beat]| {
                bs.iter()
                    .any(|b| matches!(b, Beat::Commit(c) if c.hang != 0))
            };
            for k in keys {
                let (we, ge) = (w.get(&k).unwrap_or(&empty), g.get(&k).unwrap_or(&empty));
                let complete = complete || hangs(we) || hangs(ge);
                for (i, e) in we.iter().enumerate() {
                    let key = Some(seq_key_text(k));
                    let Some(a) = ge.get(i) else {
                        if !complete {
                            break;
                        }
                        return Some(mk(
                            StageDivergenceKind::MissingBeat,
                            key,
                            i,
                            Some(e),
                            None,
                            &we[..i],
                        ));
                    };
                    if payload(e) != payload(a) {
                        return Some(mk(
                            StageDivergenceKind::BeatMismatch,
                            key,
                            i,
                            Some(e),
                            Some(a),
                            &we[..i],
                        ));
                    }
                    *compared += 1;
                }
                if complete && ge.len() > we.len() {
                    let i = we.len();
                    return Some(mk(
                        StageDivergenceKind::ExtraBeat,
                        Some(seq_key_text(k)),
                        i,
                        None,
                        Some(&ge[i]),
                        we,
                    ));
                }
            }
            None
        }
    }
}

/// The channels of the pipeline compared after the stage rows' own outputs.
pub(super) const DOWNSTREAM: &[Channel] = &[
    Channel::ShaderOut,
    Channel::Primitive,
    Channel::Fragment,
    Channel::Texel,
    Channel::TexColor,
    Channel::Combiner,
    Channel::Pixel,
];

/// The channels `--match-pixels` matches by pixel ([`Order::KeyedByPixel`]).
pub(super) const PIXEL_CHANNELS: &[Channel] = &[
    Channel::Fragment,
    Channel::Texel,
    Channel::TexColor,
    Channel::Combiner,
    Channel::Pixel,
];

/// Runs `case` on the model alone and with the pipeline stages of `set` in RTL, and compares
/// them (see the module docs).
pub fn stage_lockstep(
    case: &Case,
    set: &StageSet,
    opts: &StageLockstepOptions,
) -> Result<StageReport, StageError> {
    stage_lockstep_keep(case, set, opts).map(|(r, _)| r)
}

/// [`stage_lockstep`], also returning the mixed GPU after its run (its memory holds the
/// picture the RTL stages helped to render).
pub fn stage_lockstep_keep(
    case: &Case,
    set: &StageSet,
    opts: &StageLockstepOptions,
) -> Result<(StageReport, Gpu), StageError> {
    let rows: Vec<&StageRow> = set.pipeline_rows().collect();
    stage_lockstep_with(case, &set.names(), &rows, opts, &|o| {
        mixed_gpu(case, set, o)
    })
}

/// [`stage_lockstep`] with the mixed GPU built by `build` (the table's adapters, or a test
/// double); `rows` say which channels are the stages' own outputs.
pub fn stage_lockstep_with(
    case: &Case,
    label: &str,
    rows: &[&StageRow],
    opts: &StageLockstepOptions,
    build: &dyn Fn(&StageOptions) -> Result<MixedGpu, StageError>,
) -> Result<(StageReport, Gpu), StageError> {
    let commits = rows
        .iter()
        .any(|r| r.outputs.iter().any(|(c, _)| *c == Channel::Commit));
    let mut sopts = opts.stage.clone();
    sopts.commits |= commits;
    // The model answers the disputed cases as the case's knobs say (`Case::gpu`); the mixed
    // GPU's RTL SH build must implement the same ones (`check_knobs` in `mixed_gpu`).
    let mut reference = case.gpu()?;
    reference.set_record_commits(sopts.commits);
    // Every step of the case on both: each submission after the previous one finished.
    let mo = case.run_steps(&mut reference, case.max_cycles)?.outcome;
    let mut run = build(&sopts)?;
    let xo = case
        .run_steps(&mut run, case.max_cycles.saturating_mul(cycle_factor(rows)))?
        .outcome;
    // A model run cut by the cycle limit is compared on the prefix both sides produced; so is
    // a run both sides stopped on a shader hang (the module docs), whose outcome must agree.
    let shader_hang = |o: &Outcome| {
        matches!(
            o,
            Outcome::Hang {
                reason: pica_model::gpu::HangReason::Shader { .. },
                ..
            }
        )
    };
    let both_hang = shader_hang(&mo) && shader_hang(&xo);
    let complete = !matches!(mo, Outcome::CycleLimit { .. }) && !both_hang;
    let mut compared = BTreeMap::new();
    // The rows' own checks first (the front end's cycle-exact beats, then its final state):
    // a front-end difference is the cause of whatever differs downstream.
    let mut divergence = run.divergence().cloned();
    for h in &mut run.hooks {
        let (name, n) = h.compared();
        compared.insert(name.to_string(), n);
        if divergence.is_none() {
            divergence = h.finish(&run.gpu);
        }
    }
    let mixed = run.gpu;
    let mut done: Vec<Channel> = Vec::new();
    let outputs = rows
        .iter()
        .flat_map(|r| r.outputs.iter().copied())
        .chain(DOWNSTREAM.iter().map(|c| (*c, Order::InOrder)));
    for (ch, order) in outputs {
        if divergence.is_some() {
            break;
        }
        let order = if sopts.match_pixels && PIXEL_CHANNELS.contains(&ch) {
            Order::KeyedByPixel
        } else {
            order
        };
        if done.contains(&ch) {
            continue;
        }
        done.push(ch);
        let n = compared.entry(ch.name().to_string()).or_insert(0usize);
        let (w, g) = (channel_beats(&reference, ch), channel_beats(&mixed, ch));
        if let Some(d) = compare_channel(ch, order, &w, &g, complete, n) {
            divergence = Some(d);
            break;
        }
    }
    if divergence.is_none() && (complete || both_hang) {
        divergence = compare_outcome(&mo, &xo);
    }
    if divergence.is_none() && complete {
        divergence = compare_memory(case, &reference, &mixed);
    }
    if let Some(d) = &mut divergence {
        if d.channel == "commit" {
            explain_commit(case, d, case.knobs.shader);
        }
        if let Some(w) = opts.trace_window {
            let from = d.cycle.saturating_sub(w / 2);
            let to = d.cycle + w.div_ceil(2);
            let mut topts = sopts.clone();
            topts.trace = Some(TraceWindow {
                path: opts.vcd.clone(),
                from,
                to,
            });
            let mut g = build(&topts)?;
            step_sequence(
                case,
                &mut g,
                |g| g.gpu.outcome(),
                MixedGpu::step,
                |g| g.gpu.cycle() > to,
            );
            drop(g);
            d.vcd = Some(format!("{} (cycles {from}..={to})", opts.vcd.display()));
        }
    }
    let report = StageReport {
        case: case.name.clone(),
        stages: label.to_string(),
        result: if divergence.is_some() {
            "mismatch"
        } else {
            "equal"
        }
        .into(),
        model_cycles: reference.cycle(),
        mixed_cycles: mixed.cycle(),
        compared,
        outcome: OutcomeRecord::of(&mo),
        divergence,
        throughput: rtl_throughput(&mixed),
    };
    Ok((report, mixed))
}

pub(super) fn compare_outcome(mo: &Outcome, xo: &Outcome) -> Option<StageDivergence> {
    let (w, g) = (OutcomeRecord::of(mo), OutcomeRecord::of(xo));
    let mut fields = Vec::new();
    if w.kind != g.kind {
        fields.push(FieldDiff {
            name: "kind".into(),
            expected: w.kind.clone(),
            actual: g.kind.clone(),
        });
    }
    let reason = |o: &Outcome| match o {
        Outcome::Hang { reason, .. } => Some((hang_reason_code(reason), reason.to_string())),
        _ => None,
    };
    if reason(mo) != reason(xo) {
        fields.push(FieldDiff {
            name: "hang_reason".into(),
            expected: reason(mo).map_or("-".into(), |r| r.1),
            actual: reason(xo).map_or("-".into(), |r| r.1),
        });
    }
    (!fields.is_empty()).then(|| StageDivergence {
        kind: StageDivergenceKind::Outcome,
        channel: "outcome".into(),
        key: None,
        index: 0,
        cycle: g.cycle,
        expected: serde_json::to_value(&w).ok(),
        actual: serde_json::to_value(&g).ok(),
        fields,
        instruction: None,
        operands: Vec::new(),
        before: Vec::new(),
        note: Some("outcomes are compared by kind and reason; cycles may differ".into()),
        vcd: None,
    })
}

/// Words of memory listed in a report (the total is always given).
pub(super) const MEMORY_DIFFS_SHOWN: usize = 16;

pub(super) fn compare_memory(case: &Case, reference: &Gpu, mixed: &Gpu) -> Option<StageDivergence> {
    let mut fields = Vec::new();
    let mut total = 0usize;
    let mut first = None;
    for im in &case.images {
        for i in 0..im.words.len() as u32 {
            let addr = im.base.wrapping_add(i * 4);
            let (w, g) = (
                reference.mem().read_u32(addr).unwrap_or(0),
                mixed.mem().read_u32(addr).unwrap_or(0),
            );
            if w != g {
                total += 1;
                first.get_or_insert(addr);
                if fields.len() < MEMORY_DIFFS_SHOWN {
                    fields.push(FieldDiff {
                        name: format!("mem[0x{addr:08x}]"),
                        expected: format!("0x{w:08x}"),
                        actual: format!("0x{g:08x}"),
                    });
                }
            }
        }
    }
    (total > 0).then(|| StageDivergence {
        kind: StageDivergenceKind::Memory,
        channel: "memory".into(),
        key: None,
        index: 0,
        cycle: mixed.cycle(),
        expected: None,
        actual: None,
        fields,
        instruction: None,
        operands: Vec::new(),
        before: Vec::new(),
        note: Some(format!(
            "{total} word(s) of memory differ, the first at 0x{:08x}",
            first.unwrap_or(0)
        )),
        vcd: None,
    })
}

/// Adds the disassembled instruction and the model's operand values to a commit divergence.
///
/// Every earlier commit of the vertex agreed, so both sides entered the instruction with the
/// same registers: the operands shown are the ones the RTL should have read too (unless its
/// operand fetch itself is at fault — then the result differs with these same inputs).
pub(super) fn explain_commit(case: &Case, d: &mut StageDivergence, knobs: ShaderKnobs) {
    let Some(e) = d.expected.as_ref().or(d.actual.as_ref()) else {
        return;
    };
    let num = |k: &str| {
        e.get(k).and_then(|v| {
            v.as_u64().or_else(|| {
                v.as_str()
                    .and_then(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok())
            })
        })
    };
    let (Some(seq), Some(word), Some(cycle)) = (num("seq"), num("word"), num("cycle")) else {
        return;
    };
    let unit = num("unit").unwrap_or(0) as usize;
    // The configuration the instruction ran with: REGS as it stood when it retired.
    let Ok(mut gpu) = case.gpu() else { return };
    gpu.set_shader_knobs(knobs);
    gpu.set_record_beats(true);
    step_sequence(case, &mut gpu, Gpu::outcome, Gpu::step, |g| {
        g.cycle() >= cycle
    });
    let cfg = gpu.regs().units()[unit.min(3)].clone();
    d.instruction = Some(
        disasm::instruction(word as u32, &cfg.opdescs)
            .unwrap_or_else(|| format!("(unknown opcode) 0x{word:08x}")),
    );
    let seq = seq as u32;
    if seq & CommitBeat::GS_SEQ_FLAG != 0 || d.expected.is_none() {
        d.note.get_or_insert_with(|| {
            "operand values are shown for vertex-shader instructions the model retired".into()
        });
        return;
    }
    // Re-run the vertex on one model unit up to the instruction and read its operands.
    let (ins, _) = gpu.shader_beats();
    let mut unitm = ShaderUnit::new(knobs);
    for b in ins.iter().filter(|b| b.seq == seq) {
        unitm.inputs[usize::from(b.reg & 15)] = b.xyzw.map(pica_model::num::F24::from_bits);
    }
    unitm.start(cfg.entry_point);
    let mut emitted = Vec::new();
    for _ in 0..d.index {
        if unitm.step(&cfg, None, &mut emitted) != Step::Continue {
            return;
        }
    }
    d.operands = unitm
        .operands(&cfg)
        .into_iter()
        .map(|(n, v)| {
            (
                n,
                v.iter()
                    .map(|c| format!("0x{:06x} ({})", c.bits(), c.to_f64()))
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        })
        .collect();
}

/// Every RTL stage's `throughput` (its adapter's snapshot) in the mixed run, by model slot.
fn rtl_throughput(gpu: &Gpu) -> BTreeMap<String, serde_json::Value> {
    let snap = gpu.snapshot();
    let Some(slots) = snap.as_object() else {
        return BTreeMap::new();
    };
    slots
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), v.get("state")?.get("throughput")?.clone())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pica_model::beat::FragmentBeat;
    use pica_vectors::shader_gen::Rng;

    fn frag(tri: u32, x: u16, y: u16, depth: u32) -> Beat {
        Beat::Fragment(FragmentBeat {
            cycle: u64::from(tri) * 7 + u64::from(x),
            tri,
            x,
            y,
            depth,
            color: 0,
            attr: [0; pica_model::pipe::NUM_SEMANTICS],
        })
    }

    fn compare(order: Order, want: &[Beat], got: &[Beat]) -> Option<StageDivergence> {
        let mut n = 0;
        compare_channel(Channel::Fragment, order, want, got, true, &mut n)
    }

    /// The randomized checks' generator.
    fn next(s: &mut Rng) -> u64 {
        s.next_u64()
    }

    /// A random fragment stream over a few pixels (several fragments per pixel).
    fn stream(s: &mut Rng) -> Vec<Beat> {
        let n = 1 + next(s) % 40;
        (0..n)
            .map(|i| {
                frag(
                    i as u32 / 4,
                    (next(s) % 4) as u16,
                    (next(s) % 3) as u16,
                    i as u32,
                )
            })
            .collect()
    }

    /// A random interleaving of `want` that keeps each pixel's order.
    fn shuffle_across_pixels(s: &mut Rng, want: &[Beat]) -> Vec<Beat> {
        let mut queues: BTreeMap<(u16, u16), Vec<Beat>> = BTreeMap::new();
        for b in want.iter().rev() {
            queues.entry(beat_pixel(b).unwrap()).or_default().push(*b);
        }
        let mut out = Vec::new();
        while !queues.is_empty() {
            let keys: Vec<(u16, u16)> = queues.keys().copied().collect();
            let k = keys[(next(s) % keys.len() as u64) as usize];
            let q = queues.get_mut(&k).unwrap();
            out.push(q.pop().unwrap());
            if q.is_empty() {
                queues.remove(&k);
            }
        }
        out
    }

    #[test]
    fn keyed_by_pixel_accepts_any_order_across_pixels_and_in_order_does_not() {
        let want = [frag(0, 1, 1, 10), frag(0, 2, 1, 11), frag(1, 1, 1, 12)];
        let got = [frag(0, 2, 1, 11), frag(0, 1, 1, 10), frag(1, 1, 1, 12)];
        assert!(compare(Order::KeyedByPixel, &want, &got).is_none());
        let d = compare(Order::InOrder, &want, &got).expect("in order sees the swap");
        assert_eq!(d.kind, StageDivergenceKind::BeatMismatch);
    }

    #[test]
    fn keyed_by_pixel_names_the_pixel_and_its_history_when_a_pixel_is_out_of_order() {
        // Pixel (1, 1)'s two fragments swapped: the depth test would see them the wrong way.
        let want = [frag(0, 1, 1, 10), frag(0, 2, 1, 11), frag(1, 1, 1, 12)];
        let got = [frag(1, 1, 1, 12), frag(0, 2, 1, 11), frag(0, 1, 1, 10)];
        let d = compare(Order::KeyedByPixel, &want, &got).expect("caught");
        assert_eq!(d.kind, StageDivergenceKind::BeatMismatch);
        assert_eq!(d.key.as_deref(), Some("pixel (1, 1)"));
        assert_eq!(d.index, 0);
        // The second fragment of the pixel differs too; the first is reported, with no history.
        assert!(d.before.is_empty());
        let got = [frag(0, 1, 1, 10), frag(0, 2, 1, 11), frag(1, 1, 1, 99)];
        let d = compare(Order::KeyedByPixel, &want, &got).expect("caught");
        assert_eq!((d.key.as_deref(), d.index), (Some("pixel (1, 1)"), 1));
        assert_eq!(
            d.before.len(),
            1,
            "the pixel's earlier fragment is its history"
        );
        assert_eq!(d.before[0], beat_value(&want[0]));
    }

    #[test]
    fn keyed_by_pixel_reports_missing_and_extra_fragments() {
        let want = [frag(0, 1, 1, 10), frag(0, 2, 1, 11)];
        let d = compare(Order::KeyedByPixel, &want, &want[1..]).expect("missing");
        assert_eq!(d.kind, StageDivergenceKind::MissingBeat);
        assert_eq!(d.key.as_deref(), Some("pixel (1, 1)"));
        let got = [frag(0, 2, 1, 11), frag(0, 3, 3, 5), frag(0, 1, 1, 10)];
        let d = compare(Order::KeyedByPixel, &want, &got).expect("extra");
        assert_eq!(d.kind, StageDivergenceKind::ExtraBeat);
        assert_eq!(d.key.as_deref(), Some("pixel (3, 3)"));
        // An unfinished run (the model stopped at its cycle limit) compares what both have.
        let mut n = 0;
        let partial = compare_channel(
            Channel::Fragment,
            Order::KeyedByPixel,
            &want,
            &want[1..],
            false,
            &mut n,
        );
        assert!(partial.is_none());
        assert_eq!(n, 1);
    }

    #[test]
    fn keyed_by_pixel_randomized_reorders_pass_and_every_corruption_is_caught_first() {
        let mut s = Rng(0x5EED_0037);
        for _ in 0..500 {
            let want = stream(&mut s);
            let got = shuffle_across_pixels(&mut s, &want);
            assert!(compare(Order::KeyedByPixel, &want, &got).is_none());
            // Corrupt one fragment: the divergence is at its pixel, or at an earlier (model
            // order) fragment of another pixel never (only the corrupted one differs).
            let i = (next(&mut s) % want.len() as u64) as usize;
            let target = want[i];
            let mut bad = got.clone();
            let j = bad.iter().position(|b| *b == target).unwrap();
            if let Beat::Fragment(f) = &mut bad[j] {
                f.depth ^= 1 << (next(&mut s) % 24);
            }
            let d = compare(Order::KeyedByPixel, &want, &bad).expect("corruption caught");
            let (x, y) = beat_pixel(&target).unwrap();
            assert_eq!(d.key, Some(format!("pixel ({x}, {y})")));
            assert_eq!(d.kind, StageDivergenceKind::BeatMismatch);
            // Swap two fragments of one pixel (if it has two): caught at that pixel.
            let k = beat_pixel(&target).unwrap();
            let same: Vec<usize> = (0..got.len())
                .filter(|&j| beat_pixel(&got[j]) == Some(k))
                .collect();
            if same.len() >= 2 && payload(&got[same[0]]) != payload(&got[same[1]]) {
                let mut sw = got.clone();
                sw.swap(same[0], same[1]);
                let d = compare(Order::KeyedByPixel, &want, &sw).expect("swap caught");
                assert_eq!(d.key, Some(format!("pixel ({x}, {y})")));
            }
        }
    }
}
