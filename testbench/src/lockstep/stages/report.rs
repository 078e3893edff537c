//! What a stage comparison found: the first divergence, the report and its text.

use crate::lockstep::FieldDiff;
use pica_rtl_bridge::kit::tally::Tally;
use pica_vectors::bundle::OutcomeRecord;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What kind of difference stopped a stage comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StageDivergenceKind {
    /// Both sides have the beat and it differs.
    BeatMismatch,
    /// The model has the beat, the mixed run does not.
    MissingBeat,
    /// The mixed run has a beat the model does not.
    ExtraBeat,
    /// The runs end differently (kind or hang reason).
    Outcome,
    /// Streams and outcome agree but the memory (the picture) differs.
    Memory,
    /// The RTL front end's final state (debug map) differs from the model REGS'.
    FinalState,
}

/// The first difference between the model alone and the mixed run.
#[derive(Clone, Debug, Serialize)]
pub struct StageDivergence {
    /// What differed.
    pub kind: StageDivergenceKind,
    /// The channel (or `outcome` / `memory`).
    pub channel: String,
    /// For a keyed channel: the key, as text (`vertex 5`, `GS invocation 2`, `pixel (3, 7)`).
    pub key: Option<String>,
    /// Index of the beat within its key group (keyed) or the channel (in order).
    pub index: usize,
    /// Cycle of the model's beat (or of the mixed run's, when the model has none).
    pub cycle: u64,
    /// The model's beat.
    pub expected: Option<serde_json::Value>,
    /// The mixed run's beat.
    pub actual: Option<serde_json::Value>,
    /// Each differing field (cycle and unit are not compared).
    pub fields: Vec<FieldDiff>,
    /// The instruction, disassembled (commit channel).
    pub instruction: Option<String>,
    /// Its source operands as the model read them (commit channel, VS only).
    pub operands: Vec<(String, String)>,
    /// Up to [`crate::lockstep::HISTORY`] beats before it (equal on both sides).
    pub before: Vec<serde_json::Value>,
    /// Extra words.
    pub note: Option<String>,
    /// The VCD written for it.
    pub vcd: Option<String>,
}

/// The result of one stage comparison.
#[derive(Clone, Debug, Serialize)]
pub struct StageReport {
    /// Case name.
    pub case: String,
    /// The RTL stages (`--rtl-stages`).
    pub stages: String,
    /// `equal` or `mismatch`.
    pub result: String,
    /// Cycles the model alone ran.
    pub model_cycles: u64,
    /// Cycles the mixed run ran.
    pub mixed_cycles: u64,
    /// Beats compared equal, per channel.
    pub compared: BTreeMap<String, usize>,
    /// The model's outcome.
    pub outcome: OutcomeRecord,
    /// The first difference.
    pub divergence: Option<StageDivergence>,
    /// Throughput of each RTL stage in the mixed run, by model slot (`tev`, `fop`, `rast`):
    /// counts and `fragments_per_clock`, `clocks_per_triangle`, … ([`throughput_json`]).
    pub throughput: BTreeMap<String, serde_json::Value>,
}

impl StageReport {
    /// Whether the mixed run agreed with the model on everything.
    pub fn is_equal(&self) -> bool {
        self.divergence.is_none()
    }
}

/// The report as text for people.
pub fn text_report(r: &StageReport) -> String {
    let mut out = String::new();
    let counts: Vec<String> = r
        .compared
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(c, n)| format!("{c} {n}"))
        .collect();
    let Some(d) = &r.divergence else {
        let _ = writeln!(
            out,
            "EQUAL  {} with RTL stages {}: {} (transaction-exact); model {} cycles, mixed {} cycles; {}",
            r.case,
            r.stages,
            if counts.is_empty() {
                "no beats".to_string()
            } else {
                counts.join(", ")
            },
            r.model_cycles,
            r.mixed_cycles,
            r.outcome.message
        );
        throughput_text(r, &mut out);
        return out;
    };
    let what = match d.kind {
        StageDivergenceKind::BeatMismatch => "beats differ",
        StageDivergenceKind::MissingBeat => "the mixed run lacks a beat the model has",
        StageDivergenceKind::ExtraBeat => "the mixed run has a beat the model lacks",
        StageDivergenceKind::Outcome => "the runs end differently",
        StageDivergenceKind::Memory => "the final memory (picture) differs",
        StageDivergenceKind::FinalState => "the RTL front end's final state differs",
    };
    let _ = writeln!(
        out,
        "MISMATCH  {} with RTL stages {}: {what} — channel {}{}, beat #{}, cycle {}",
        r.case,
        r.stages,
        d.channel,
        d.key
            .as_ref()
            .map(|k| format!(" ({k})"))
            .unwrap_or_default(),
        d.index,
        d.cycle
    );
    if let Some(i) = &d.instruction {
        let pc = d
            .expected
            .as_ref()
            .or(d.actual.as_ref())
            .and_then(|v| v.get("pc"))
            .map(|v| v.to_string().trim_matches('"').to_string())
            .unwrap_or_default();
        let _ = writeln!(out, "  instruction: {pc}: {i}");
    }
    for (n, v) in &d.operands {
        let _ = writeln!(out, "    {n:<20} = {v}");
    }
    let show = |v: &Option<serde_json::Value>| {
        v.as_ref()
            .map_or_else(|| "(none)".into(), |v| v.to_string())
    };
    if d.expected.is_some() || d.actual.is_some() {
        let _ = writeln!(out, "  expected (model): {}", show(&d.expected));
        let _ = writeln!(out, "  actual   (mixed): {}", show(&d.actual));
    }
    if !d.fields.is_empty() {
        let _ = writeln!(out, "  differing fields:");
        let w = d.fields.iter().map(|f| f.name.len()).max().unwrap_or(0);
        for f in &d.fields {
            let _ = writeln!(
                out,
                "    {:<w$}  expected {:<28} actual {}",
                f.name, f.expected, f.actual
            );
        }
    }
    if let Some(n) = &d.note {
        let _ = writeln!(out, "  note: {n}");
    }
    if !d.before.is_empty() {
        let keyed_by_pixel = d.key.as_deref().is_some_and(|k| k.starts_with("pixel ("));
        let _ = writeln!(
            out,
            "  the {} beat(s) before it{} (equal on both sides):",
            d.before.len(),
            if keyed_by_pixel {
                " at this pixel: the fragments that touched it"
            } else {
                ""
            }
        );
        for b in &d.before {
            let _ = writeln!(out, "    {b}");
        }
    }
    if let Some(v) = &d.vcd {
        let _ = writeln!(out, "  waveform: {v}");
    }
    throughput_text(r, &mut out);
    out
}

/// `noun` without its plural `s` ("triangles" -> "triangle").
fn singular(noun: &str) -> &str {
    noun.strip_suffix('s').unwrap_or(noun)
}

/// `n / d` to four decimals (`None` when `d` is 0): a measured ratio for the report, not a
/// hardware number.
fn ratio(n: u64, d: u64) -> Option<f64> {
    (d > 0).then(|| (n as f64 / d as f64 * 1e4).round() / 1e4)
}

/// The JSON a stage adapter puts under `throughput` in its snapshot, which the report carries
/// per RTL stage: the counts of `t`, then, against the busy clocks (clocks with work in the
/// stage; a stage waiting for its producer is not charged), `<results>_per_clock`,
/// `clocks_per_<item>`, `clocks_per_<result>`; with a side port its requests and bytes per
/// result.
pub fn throughput_json(t: &Tally) -> serde_json::Value {
    let (item, result) = (singular(t.items_noun), singular(t.results_noun));
    let mut m = serde_json::Map::new();
    let mut put = |k: String, v: serde_json::Value| {
        m.insert(k, v);
    };
    put("clocks".into(), t.clocks.into());
    put("busy_clocks".into(), t.busy_clocks.into());
    put(format!("{}_in", t.items_noun), t.items.into());
    put(format!("{}_out", t.results_noun), t.results.into());
    put(
        format!("{}_per_clock", t.results_noun),
        ratio(t.results, t.busy_clocks).into(),
    );
    put(
        format!("clocks_per_{item}"),
        ratio(t.busy_clocks, t.items).into(),
    );
    if result != item {
        put(
            format!("clocks_per_{result}"),
            ratio(t.busy_clocks, t.results).into(),
        );
    }
    put("out_stall_clocks".into(), t.out_stall_clocks.into());
    if let Some(m) = t.max_in_flight {
        put("max_in_flight".into(), m.into());
    }
    if let Some(side) = t.side_noun {
        put("side_port".into(), side.into());
        put("side_requests".into(), t.side_requests.into());
        put("side_bytes".into(), t.side_bytes.into());
        put("max_side_outstanding".into(), t.max_side_outstanding.into());
        put(
            format!("side_requests_per_{result}"),
            ratio(t.side_requests, t.results).into(),
        );
        put(
            format!("bytes_per_{result}"),
            ratio(t.side_bytes, t.results).into(),
        );
    }
    serde_json::Value::Object(m)
}

/// One line per RTL stage of `r`'s throughput, for the text report.
fn throughput_text(r: &StageReport, out: &mut String) {
    for (slot, v) in &r.throughput {
        let Some(o) = v.as_object() else { continue };
        let parts: Vec<String> = o
            .iter()
            .filter(|(k, _)| k.as_str() != "side_port")
            .map(|(k, v)| {
                format!(
                    "{k} {}",
                    if v.is_null() {
                        "-".into()
                    } else {
                        v.to_string()
                    }
                )
            })
            .collect();
        let _ = writeln!(out, "  throughput {slot}: {}", parts.join(", "));
    }
}
