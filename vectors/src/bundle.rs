//! Golden-vector bundles, format v1 (design.md "Golden vectors").
//!
//! A bundle is a directory any simulator can replay without Rust:
//!
//! | file | what |
//! |---|---|
//! | `manifest.json` | format, case, provenance, streams and their field packing, outcome, SHA-256 of every file ([`Manifest`]; JSON Schema in `vectors/schema/`) |
//! | `stim.hex` | the submitted list's words (16-byte rule applied), one 8-digit hex word per line (`$readmemh`) |
//! | `mem_<base>.hex` | memory images, one word per line from byte address `base` |
//! | `regwrite.hex` | register-write beats, 32 hex digits (128 bits) per line, packed as [`regwrite_fields`] (the channel table) |
//! | `regwrite.jsonl` | the same beats, one JSON object per line |
//! | `final_regs.hex` | the 0x300 register words at the end |
//! | `final_state.json` | the complete final state: outcome, every non-zero debug-map word, trigger and immediate-vertex events ([`final_state_doc`]) |
//! | `steps.hex` | multi-step cases only ([`Sequence`]): one step per line, 40 hex digits ([`steps_hex`]) |
//!
//! A case of several steps (command lists submitted one after another, memory fills between
//! them: [`crate::case`] "Steps") records them in the manifest's optional `sequence` and in
//! `steps.hex`; `stim.hex` then holds every submitted list's words, one list after the other,
//! and `submit` stays the first submission. A bundle without `sequence` is one list, as every
//! bundle written before sequences existed.

use crate::case::{hang_reason_code, Case, MemImage, ModelRun, Source, Step, TransferKind};
use crate::frame::StepJson;
use crate::streams::{channels, final_memory_file};
use pica_model::beat::RegWriteBeat;
use pica_model::chan::Payload;
use pica_model::Outcome;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

pub use crate::streams::Field;

/// The format name in every manifest.
pub const FORMAT: &str = "pica-vectors";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;

/// Bits of one packed register-write beat.
pub const REGWRITE_WIDTH: u32 = 128;

/// Field packing of `regwrite.hex` lines: (name, lsb, width), from the channel table
/// (`RegWriteBeat`; pinned to format v1 by `chan_regwrite_layout_is_format_v1`).
pub fn regwrite_fields() -> Vec<(String, u32, u32)> {
    <RegWriteBeat as Payload>::SPEC.layout()
}

/// `manifest.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Always `pica-vectors`.
    pub format: String,
    /// Format version (1).
    pub version: u32,
    /// Case name (`area/what`).
    pub case: String,
    /// What the case exercises.
    #[serde(default)]
    pub description: String,
    /// Where the data came from.
    pub provenance: Provenance,
    /// The submitted command buffer (with `sequence`: the first submission).
    pub submit: Submit,
    /// A case of several steps: every step in order (the first `submit` is [`Manifest::submit`])
    /// and the file that holds them for a simulator. Absent: one submitted list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence: Option<Sequence>,
    /// Cycle limit of the run.
    pub max_cycles: u64,
    /// Whether draws ran through the geometry and fragment pipeline. `false` (and absent, in
    /// bundles written before the pipeline existed): the front end alone, CP and REGS, which is
    /// what the RTL implements and what its replay testbench checks.
    #[serde(default)]
    pub pipeline: bool,
    /// The knobs (`UNVERIFIED(hw)` choices of every stage, `--knob NAME=VALUE`) the golden
    /// data was made with, `{name: value}`, only those not at their default (`pica knobs` lists names,
    /// values and defaults). Absent or empty: every knob at its default. A replay on the model
    /// sets them; an RTL replay needs a build that implements them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub knobs: BTreeMap<String, String>,
    /// The command-word stream.
    pub stim: StimFile,
    /// Memory images.
    pub memory: Vec<MemFile>,
    /// Recorded channels.
    pub streams: Vec<Stream>,
    /// Final-state files.
    pub final_state: FinalState,
    /// How the run ended.
    pub outcome: OutcomeRecord,
    /// SHA-256 (lower-case hex) of every other file of the bundle, by file name.
    pub files: BTreeMap<String, String>,
}

/// Who made the bundle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// `model` (computed by pica-cosim) or `hw-capture` (recorded on hardware).
    pub source: Source,
    /// The program that wrote the bundle (`pica 0.1.0`).
    pub generator: String,
    /// Version of the model crate that computed the golden data.
    pub model_version: String,
    /// The fuzzer seed of the case, if it came from the fuzzer.
    pub seed: Option<u64>,
    /// A captured frame's provenance (the frame file's `provenance`: library, program,
    /// frame ...), free-form. Absent for built-in and fuzzed cases.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub capture: BTreeMap<String, String>,
}

/// The step sequence of a multi-step case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sequence {
    /// `steps.hex`: the steps packed for `$readmemh` ([`steps_hex`]).
    pub file: String,
    /// The steps in order, as in a frame file (`{"submit": {...}}`, `{"fill": {...}}`,
    /// `{"transfer": {...}}`). Each submission's words follow the previous one's in `stim.hex`.
    pub steps: Vec<StepJson>,
}

/// Bits of one `steps.hex` line.
pub const STEP_WIDTH: u32 = 160;

/// `steps.hex` of `case`: one line per step of [`Case::steps`], 40 hex digits = five 32-bit
/// fields, the first most significant: `kind`, then
///
/// | kind | field 1 | field 2 | field 3 | field 4 |
/// |---|---|---|---|---|
/// | 1 submit | address | size in bytes | index of its first word in `stim.hex` | its word count (`size & ~0xF` / 4) |
/// | 2 fill | start | end (exclusive) | value | width in bits (16, 24, 32) |
/// | 3 transfer (not modelled) | input address | output address | 0 display, 1 texture copy | 0 |
pub fn steps_hex(case: &Case) -> String {
    let mut offset = 0u32;
    case.steps()
        .iter()
        .map(|s| {
            let f = match s {
                Step::Submit { addr, size } => {
                    let words = (size & !0xF) / 4;
                    let f = [1, *addr, *size, offset, words];
                    offset = offset.wrapping_add(words);
                    f
                }
                Step::Fill(fl) => [2, fl.start, fl.end, fl.value, fl.width.bits()],
                Step::Transfer(t) => [
                    3,
                    t.input,
                    t.output,
                    u32::from(t.kind == TransferKind::TextureCopy),
                    0,
                ],
            };
            f.iter().map(|w| format!("{w:08x}")).collect::<String>() + "\n"
        })
        .collect()
}

/// The submitted buffer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Submit {
    /// Physical address, `0x%08x`.
    pub addr: String,
    /// Size in bytes as submitted, `0x%08x` (only `size & ~0xF` is read).
    pub size: String,
}

/// `stim.hex`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StimFile {
    /// File name.
    pub file: String,
    /// Number of words.
    pub words: usize,
}

/// One `mem_<base>.hex`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MemFile {
    /// File name.
    pub file: String,
    /// Byte address of the first word, `0x%08x`.
    pub base: String,
    /// Number of words.
    pub words: usize,
}

/// One recorded channel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Stream {
    /// Channel name (`regwrite`).
    pub channel: String,
    /// Packed beats, one per line.
    pub hex: String,
    /// The same beats as JSON lines.
    pub jsonl: String,
    /// Number of beats.
    pub beats: usize,
    /// Bits per packed beat.
    pub width: u32,
    /// Whether cycle stamps must match exactly.
    pub cycle_exact: bool,
    /// Field packing, most significant first.
    pub fields: Vec<Field>,
}

/// The final-state files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FinalState {
    /// Complete state as JSON.
    pub json: String,
    /// The 0x300 registers as hex words.
    pub regs_hex: String,
    /// For pipeline cases: memory at the end of the run over each memory image (colour and
    /// depth buffers included), one `final_mem_<base>.hex` per image.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub memory: Vec<MemFile>,
}

/// How the run ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutcomeRecord {
    /// `finished`, `hang` or `cycle_limit`.
    pub kind: String,
    /// Finished: the first cycle `finished_o` is high. Hang: the cycle the hang was detected
    /// (`hang_o` rises one cycle later). Cycle limit: cycles run.
    pub cycle: u64,
    /// `hang_reason_o` for a hang (1 missing FINALIZE, 2 command past end, 3 unmapped fetch),
    /// else 0.
    pub hang_reason_code: u8,
    /// Readable outcome.
    pub message: String,
}

impl OutcomeRecord {
    /// The record of a model outcome.
    pub fn of(o: &Outcome) -> Self {
        let (kind, cycle, code) = match o {
            Outcome::Finished { cycles } => ("finished", *cycles, 0),
            Outcome::Hang { cycle, reason } => ("hang", *cycle, hang_reason_code(reason)),
            Outcome::CycleLimit { cycles } => ("cycle_limit", *cycles, 0),
        };
        Self {
            kind: kind.into(),
            cycle,
            hang_reason_code: code,
            message: o.to_string(),
        }
    }
}

/// A bundle that cannot be read or does not hold together. Every message names the bundle
/// directory and the file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{dir}: {msg}")]
pub struct BundleError {
    /// The bundle directory.
    pub dir: String,
    /// What is wrong, naming the file and place.
    pub msg: String,
}

/// A bundle read back from disk and verified (hashes, counts, formats).
#[derive(Clone, Debug)]
pub struct Bundle {
    /// Its directory.
    pub dir: PathBuf,
    /// The manifest.
    pub manifest: Manifest,
    /// The command-word stream.
    pub stim: Vec<u32>,
    /// Memory images.
    pub images: Vec<MemImage>,
    /// Register-write beats.
    pub beats: Vec<RegWriteBeat>,
    /// Final register words.
    pub final_regs: Vec<u32>,
    /// Final state document.
    pub final_state: serde_json::Value,
    /// Every file's text, by name (verified against its SHA-256).
    pub contents: BTreeMap<String, String>,
}

pub(crate) fn sha256_hex(data: &[u8]) -> String {
    Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn hex32(v: u32) -> String {
    format!("0x{v:08x}")
}

/// Packs a beat into its 128-bit `regwrite.hex` form (the channel table's layout).
pub fn pack_regwrite(b: &RegWriteBeat) -> u128 {
    b.packed()
        .iter()
        .fold(0u128, |acc, (_, width, v)| (acc << width) | v)
}

/// Unpacks a `regwrite.hex` line's value (the channel table's layout).
pub fn unpack_regwrite(v: u128) -> RegWriteBeat {
    let mut b = RegWriteBeat::default();
    for (name, lsb, width) in <RegWriteBeat as Payload>::SPEC.layout() {
        let f = (v >> lsb) & ((1u128 << width) - 1);
        match name.as_str() {
            "cycle" => b.cycle = f as u64,
            "mask" => b.mask = f as u8,
            "id" => b.id = f as u32,
            "param" => b.param = f as u32,
            _ => b.value = f as u32,
        }
    }
    b
}

/// The JSON line of a beat in `regwrite.jsonl`: the channel table's fields plus the register
/// name.
pub fn beat_json(b: &RegWriteBeat) -> serde_json::Value {
    let mut m = b.json_fields();
    m.insert(
        "name".into(),
        serde_json::Value::String(pica_model::regs::name(b.id)),
    );
    serde_json::Value::Object(m)
}

fn lines_of_words(words: &[u32]) -> String {
    words.iter().map(|w| format!("{w:08x}\n")).collect()
}

/// Writes the bundle of `case` with the model's golden data `run` into `dir` (created if
/// needed; files of an older bundle there are replaced). Returns the manifest.
pub fn write_bundle(
    dir: &Path,
    case: &Case,
    run: &ModelRun,
    generator: &str,
) -> std::io::Result<Manifest> {
    fs::create_dir_all(dir)?;
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let stim = case.stim();
    files.push(("stim.hex".into(), lines_of_words(&stim).into_bytes()));
    let mut memory = Vec::new();
    for im in &case.images {
        let name = format!("mem_{:08x}.hex", im.base);
        memory.push(MemFile {
            file: name.clone(),
            base: hex32(im.base),
            words: im.words.len(),
        });
        files.push((name, lines_of_words(&im.words).into_bytes()));
    }
    let hex: String = run
        .beats
        .iter()
        .map(|b| format!("{:032x}\n", pack_regwrite(b)))
        .collect();
    files.push(("regwrite.hex".into(), hex.into_bytes()));
    let jsonl: String = run
        .beats
        .iter()
        .map(|b| format!("{}\n", beat_json(b)))
        .collect();
    files.push(("regwrite.jsonl".into(), jsonl.into_bytes()));
    files.push((
        "final_regs.hex".into(),
        lines_of_words(&run.final_regs).into_bytes(),
    ));
    let state =
        serde_json::to_string_pretty(&final_state_doc(run)).map_err(std::io::Error::other)?;
    files.push(("final_state.json".into(), format!("{state}\n").into_bytes()));
    let (pipe_streams, final_memory, pipe_files) = pipeline_files(run);
    files.extend(pipe_files);
    let sequence = case.is_sequence().then(|| {
        files.push(("steps.hex".into(), steps_hex(case).into_bytes()));
        Sequence {
            file: "steps.hex".into(),
            steps: case.steps().iter().map(StepJson::of).collect(),
        }
    });

    let mut hashes = BTreeMap::new();
    for (name, data) in &files {
        fs::write(dir.join(name), data)?;
        hashes.insert(name.clone(), sha256_hex(data));
    }
    let manifest = Manifest {
        format: FORMAT.into(),
        version: VERSION,
        case: case.name.clone(),
        description: case.description.clone(),
        provenance: Provenance {
            source: Source::Model,
            generator: generator.into(),
            model_version: pica_model_version(),
            seed: case.seed,
            capture: case.capture.clone(),
        },
        submit: Submit {
            addr: hex32(case.submit_addr),
            size: hex32(case.submit_size),
        },
        sequence,
        max_cycles: case.max_cycles,
        pipeline: case.pipeline,
        knobs: case
            .knobs
            .non_default()
            .into_iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        stim: StimFile {
            file: "stim.hex".into(),
            words: stim.len(),
        },
        memory,
        streams: std::iter::once(Stream {
            channel: "regwrite".into(),
            hex: "regwrite.hex".into(),
            jsonl: "regwrite.jsonl".into(),
            beats: run.beats.len(),
            width: REGWRITE_WIDTH,
            cycle_exact: true,
            fields: regwrite_fields()
                .into_iter()
                .map(|(name, lsb, width)| Field { name, lsb, width })
                .collect(),
        })
        .chain(pipe_streams)
        .collect(),
        final_state: FinalState {
            json: "final_state.json".into(),
            regs_hex: "final_regs.hex".into(),
            memory: final_memory,
        },
        outcome: OutcomeRecord::of(&run.outcome),
        files: hashes,
    };
    let text = serde_json::to_string_pretty(&manifest).map_err(std::io::Error::other)?;
    fs::write(dir.join("manifest.json"), format!("{text}\n"))?;
    Ok(manifest)
}

/// The pipeline streams, final memory images and their files of a run (all empty for a
/// front-end case).
#[allow(clippy::type_complexity)]
fn pipeline_files(run: &ModelRun) -> (Vec<Stream>, Vec<MemFile>, Vec<(String, Vec<u8>)>) {
    let Some(p) = &run.pipeline else {
        return (Vec::new(), Vec::new(), Vec::new());
    };
    let mut streams = Vec::new();
    let mut files = Vec::new();
    for ch in channels(p) {
        let hex = format!("{}.hex", ch.channel);
        let jsonl = format!("{}.jsonl", ch.channel);
        streams.push(Stream {
            channel: ch.channel.into(),
            hex: hex.clone(),
            jsonl: jsonl.clone(),
            beats: ch.beats,
            width: ch.width(),
            cycle_exact: true,
            fields: ch.fields(),
        });
        files.push((hex, ch.hex.into_bytes()));
        files.push((jsonl, ch.jsonl.into_bytes()));
    }
    let mut memory = Vec::new();
    for im in &p.final_memory {
        let name = final_memory_file(im);
        memory.push(MemFile {
            file: name.clone(),
            base: hex32(im.base),
            words: im.words.len(),
        });
        files.push((name, lines_of_words(&im.words).into_bytes()));
    }
    (streams, memory, files)
}

/// The `final_state.json` document of a run: the outcome, every non-zero word of the debug
/// map (`pica_model::regfile::debug`) as a list of regions `{region, start, len, words:
/// {"index": "value"}}` — every word not listed is zero, so this is the complete state, and a
/// simulator can compare its debug port with it directly — and the event lists (trigger writes and
/// immediate-mode vertices) of the `pica run --regs-json` document.
pub fn final_state_doc(run: &ModelRun) -> serde_json::Value {
    let mut map = Vec::new();
    for r in pica_model::regfile::debug::debug_regions() {
        let words: serde_json::Map<String, serde_json::Value> = run
            .dump
            .iter()
            .filter(|(a, w)| *w != 0 && (r.start..r.start + r.len).contains(a))
            .map(|(a, w)| {
                (
                    format!("0x{:03x}", a - r.start),
                    serde_json::json!(hex32(*w)),
                )
            })
            .collect();
        if !words.is_empty() {
            map.push(serde_json::json!({
                "region": r.name,
                "start": format!("0x{:04x}", r.start),
                "len": r.len,
                "words": words,
            }));
        }
    }
    serde_json::json!({
        "outcome": OutcomeRecord::of(&run.outcome),
        "note": "debug_map: per region of the debug read map (start = word address), every non-zero word by index; all other words are 0",
        "debug_map": map,
        "triggers": run.state_json.get("triggers").cloned().unwrap_or_default(),
        "immediate_vertices": run.state_json.get("immediate_vertices").cloned().unwrap_or_default(),
    })
}

/// The version of the model crate (the golden data's provenance).
pub fn pica_model_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The JSON Schema of `manifest.json`, as checked in under `vectors/schema/`.
pub fn manifest_schema() -> String {
    let schema = schemars::schema_for!(Manifest);
    let text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    format!("{text}\n")
}

fn parse_u32_hex(s: &str) -> Option<u32> {
    u32::from_str_radix(s.strip_prefix("0x")?, 16).ok()
}

/// Parses a file of fixed-width hex lines; `digits` per line, exactly `count` lines.
fn parse_fixed_hex(
    name: &str,
    text: &str,
    digits: usize,
    count: usize,
) -> Result<Vec<u128>, String> {
    parse_fixed_hex_lines(name, text, digits, count)?
        .into_iter()
        .enumerate()
        .map(|(i, l)| u128::from_str_radix(l, 16).map_err(|e| format!("{name}:{}: {e}", i + 1)))
        .collect()
}

/// The lines of `text`, checked to be `count` lines of exactly `digits` hex digits (lines too
/// wide for a number are checked as text). Not sized from `count`: a manifest is input, and a
/// huge count must not allocate.
fn parse_fixed_hex_lines<'t>(
    name: &str,
    text: &'t str,
    digits: usize,
    count: usize,
) -> Result<Vec<&'t str>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim_end_matches('\r');
        if l.len() != digits || !l.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!(
                "{name}:{}: expected {digits} hex digits, found '{}'",
                i + 1,
                l.chars().take(40).collect::<String>()
            ));
        }
        out.push(l);
    }
    if out.len() != count {
        return Err(format!(
            "{name}: {} line(s), the manifest says {count} (truncated or extended file)",
            out.len()
        ));
    }
    Ok(out)
}

impl Bundle {
    /// Reads and verifies the bundle in `dir`: manifest format and version, SHA-256 of every
    /// file, line formats and counts, and that `regwrite.jsonl` agrees with `regwrite.hex`.
    pub fn load(dir: &Path) -> Result<Bundle, BundleError> {
        let err = |msg: String| BundleError {
            dir: dir.display().to_string(),
            msg,
        };
        let mpath = dir.join("manifest.json");
        let text = fs::read_to_string(&mpath)
            .map_err(|e| err(format!("manifest.json: cannot read: {e}")))?;
        let manifest: Manifest = serde_json::from_str(&text)
            .map_err(|e| err(format!("manifest.json:{}:{}: {e}", e.line(), e.column())))?;
        if manifest.format != FORMAT {
            return Err(err(format!(
                "manifest.json: format is '{}', expected '{FORMAT}'",
                manifest.format
            )));
        }
        if manifest.version != VERSION {
            return Err(err(format!(
                "manifest.json: format version {} is not supported (this is version {VERSION})",
                manifest.version
            )));
        }
        // Every file the manifest refers to must be hashed, and every hash must match.
        let mut referenced = vec![
            manifest.stim.file.clone(),
            manifest.final_state.json.clone(),
            manifest.final_state.regs_hex.clone(),
        ];
        referenced.extend(manifest.memory.iter().map(|m| m.file.clone()));
        referenced.extend(manifest.final_state.memory.iter().map(|m| m.file.clone()));
        referenced.extend(manifest.sequence.iter().map(|s| s.file.clone()));
        for s in &manifest.streams {
            referenced.push(s.hex.clone());
            referenced.push(s.jsonl.clone());
        }
        for f in &referenced {
            if !manifest.files.contains_key(f) {
                return Err(err(format!("manifest.json: no SHA-256 for {f}")));
            }
        }
        let mut contents = BTreeMap::new();
        for (name, want) in &manifest.files {
            if name.contains('/') || name.contains('\\') || name.starts_with('.') {
                return Err(err(format!(
                    "manifest.json: file name '{name}' leaves the bundle"
                )));
            }
            let data =
                fs::read(dir.join(name)).map_err(|e| err(format!("{name}: cannot read: {e}")))?;
            let got = sha256_hex(&data);
            if &got != want {
                return Err(err(format!(
                    "{name}: SHA-256 is {got}, the manifest says {want}: the file was changed or truncated after the bundle was written"
                )));
            }
            let text = String::from_utf8(data).map_err(|e| {
                err(format!(
                    "{name}: not UTF-8 at byte {}",
                    e.utf8_error().valid_up_to()
                ))
            })?;
            contents.insert(name.clone(), text);
        }
        let get = |name: &str| contents.get(name).map(String::as_str).unwrap_or("");
        let words = |name: &str, n: usize| -> Result<Vec<u32>, BundleError> {
            parse_fixed_hex(name, get(name), 8, n)
                .map(|v| v.into_iter().map(|x| x as u32).collect())
                .map_err(&err)
        };
        // The stream is the submitted buffer(s) after the 16-byte rule: the sizes and the word
        // count must agree (checked before anything is sized from the manifest's numbers).
        let size = parse_u32_hex(&manifest.submit.size).ok_or_else(|| {
            err(format!(
                "manifest.json: submit.size '{}' is not 0x-hex",
                manifest.submit.size
            ))
        })?;
        let stream_words: u64 = match &manifest.sequence {
            None => u64::from((size & !0xF) / 4),
            Some(seq) => seq
                .steps
                .iter()
                .map(|s| match s {
                    StepJson::Submit(sub) => u64::from((sub.size.0 & !0xF) / 4),
                    _ => 0,
                })
                .sum(),
        };
        if stream_words != manifest.stim.words as u64 {
            let what = match manifest.sequence {
                None => format!("submit.size 0x{size:x}"),
                Some(_) => "the submit sizes of sequence.steps".to_string(),
            };
            return Err(err(format!(
                "manifest.json: {what} means {stream_words} stream words, stim.words says {}",
                manifest.stim.words
            )));
        }
        let stim = words(&manifest.stim.file, manifest.stim.words)?;
        let mut images = Vec::new();
        for m in &manifest.memory {
            let base = parse_u32_hex(&m.base).ok_or_else(|| {
                err(format!(
                    "manifest.json: memory base '{}' is not 0x-hex",
                    m.base
                ))
            })?;
            images.push(MemImage {
                base,
                words: words(&m.file, m.words)?,
            });
        }
        let final_regs = words(
            &manifest.final_state.regs_hex,
            pica_model::regfile::NUM_REGS,
        )?;
        let stream = manifest
            .streams
            .iter()
            .find(|s| s.channel == "regwrite")
            .ok_or_else(|| err("manifest.json: no regwrite stream".into()))?;
        let want_fields = regwrite_fields();
        let got_fields: Vec<(String, u32, u32)> = stream
            .fields
            .iter()
            .map(|f| (f.name.clone(), f.lsb, f.width))
            .collect();
        if stream.width != REGWRITE_WIDTH || got_fields != want_fields {
            return Err(err(
                "manifest.json: the regwrite packing differs from format v1".into(),
            ));
        }
        let beats: Vec<RegWriteBeat> =
            parse_fixed_hex(&stream.hex, get(&stream.hex), 32, stream.beats)
                .map_err(&err)?
                .into_iter()
                .map(unpack_regwrite)
                .collect();
        let jsonl: Vec<&str> = get(&stream.jsonl).lines().collect();
        if jsonl.len() != beats.len() {
            return Err(err(format!(
                "{}: {} line(s), {} has {} beat(s)",
                stream.jsonl,
                jsonl.len(),
                stream.hex,
                beats.len()
            )));
        }
        for (i, (line, b)) in jsonl.iter().zip(&beats).enumerate() {
            let v: serde_json::Value = serde_json::from_str(line)
                .map_err(|e| err(format!("{}:{}: {e}", stream.jsonl, i + 1)))?;
            if v != beat_json(b) {
                return Err(err(format!(
                    "{}:{}: does not match line {} of {}",
                    stream.jsonl,
                    i + 1,
                    i + 1,
                    stream.hex
                )));
            }
        }
        // The pipeline streams: as many lines as beats, each as wide as the packing says.
        for st in manifest.streams.iter().filter(|s| s.channel != "regwrite") {
            let digits = st.width.div_ceil(4) as usize;
            parse_fixed_hex_lines(&st.hex, get(&st.hex), digits, st.beats).map_err(&err)?;
            let n = get(&st.jsonl).lines().count();
            if n != st.beats {
                return Err(err(format!(
                    "{}: {n} line(s), the manifest says {} beat(s)",
                    st.jsonl, st.beats
                )));
            }
        }
        for m in &manifest.final_state.memory {
            words(&m.file, m.words)?;
        }
        let final_state = serde_json::from_str(get(&manifest.final_state.json)).map_err(|e| {
            err(format!(
                "{}:{}:{}: {e}",
                manifest.final_state.json,
                e.line(),
                e.column()
            ))
        })?;
        let bundle = Bundle {
            dir: dir.to_path_buf(),
            manifest,
            stim,
            images,
            beats,
            final_regs,
            final_state,
            contents,
        };
        // A sequence must be a case's: its steps convert, the first submission is `submit`,
        // and steps.hex is their packing.
        if let Some(seq) = &bundle.manifest.sequence {
            let case = bundle.case()?;
            let first = seq.steps.iter().find_map(|s| match s {
                StepJson::Submit(sub) => Some((sub.addr.0, sub.size.0)),
                _ => None,
            });
            if first != Some((case.submit_addr, case.submit_size)) {
                return Err(err(format!(
                    "manifest.json: the first submit of sequence.steps is {first:08x?}, submit says 0x{:08x} +0x{:x}",
                    case.submit_addr, case.submit_size
                )));
            }
            let want = steps_hex(&case);
            let got = bundle
                .contents
                .get(&seq.file)
                .map(String::as_str)
                .unwrap_or("");
            if got != want {
                let line = want
                    .lines()
                    .zip(got.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or_else(|| want.lines().count().min(got.lines().count()));
                return Err(err(format!(
                    "{}:{}: does not match sequence.steps in manifest.json (expected {:?})",
                    seq.file,
                    line + 1,
                    want.lines().nth(line).unwrap_or("<end>")
                )));
            }
        }
        Ok(bundle)
    }

    /// The case the bundle records (to replay it).
    pub fn case(&self) -> Result<Case, BundleError> {
        let err = |msg: String| BundleError {
            dir: self.dir.display().to_string(),
            msg,
        };
        let m = &self.manifest;
        let addr = parse_u32_hex(&m.submit.addr).ok_or_else(|| {
            err(format!(
                "manifest.json: submit.addr '{}' is not 0x-hex",
                m.submit.addr
            ))
        })?;
        let size = parse_u32_hex(&m.submit.size).ok_or_else(|| {
            err(format!(
                "manifest.json: submit.size '{}' is not 0x-hex",
                m.submit.size
            ))
        })?;
        let knobs = pica_model::knobs::Knobs::from_map(&m.knobs)
            .map_err(|e| err(format!("manifest.json: knobs: {e}")))?;
        let (mut before, mut more) = (Vec::new(), Vec::new());
        if let Some(seq) = &m.sequence {
            let mut seen_first = false;
            for (i, s) in seq.steps.iter().enumerate() {
                let step = s
                    .to_step()
                    .map_err(|e| err(format!("manifest.json: sequence.steps[{i}]: {e}")))?;
                match (&step, seen_first) {
                    (Step::Submit { .. }, false) => seen_first = true,
                    (_, false) => before.push(step),
                    (_, true) => more.push(step),
                }
            }
            if !seen_first {
                return Err(err(
                    "manifest.json: sequence.steps has no submit step".into()
                ));
            }
        }
        let case = Case {
            name: m.case.clone(),
            description: m.description.clone(),
            images: self.images.clone(),
            before,
            submit_addr: addr,
            submit_size: size,
            more,
            max_cycles: m.max_cycles,
            seed: m.provenance.seed,
            pipeline: m.pipeline,
            knobs,
            capture: m.provenance.capture.clone(),
        };
        case.check_steps()
            .map_err(|e| err(format!("manifest.json: {e}")))?;
        Ok(case)
    }

    /// Replays the bundle on the model and lists every difference from the recorded data
    /// (empty when the model reproduces it exactly).
    pub fn check_model(&self) -> Result<Vec<String>, BundleError> {
        let case = self.case()?;
        if case.stim() != self.stim {
            return Ok(vec![format!(
                "{}: differs from the submitted buffer in the memory images",
                self.manifest.stim.file
            )]);
        }
        let run = case.run_model().map_err(|e| BundleError {
            dir: self.dir.display().to_string(),
            msg: e.to_string(),
        })?;
        let mut diffs = Vec::new();
        let outcome = OutcomeRecord::of(&run.outcome);
        if outcome != self.manifest.outcome {
            diffs.push(format!(
                "outcome: recorded {:?} at cycle {}, model gives {:?} at cycle {} ({})",
                self.manifest.outcome.kind,
                self.manifest.outcome.cycle,
                outcome.kind,
                outcome.cycle,
                outcome.message
            ));
        }
        if let Some(i) = (0..run.beats.len().max(self.beats.len()))
            .find(|&i| run.beats.get(i) != self.beats.get(i))
        {
            diffs.push(format!(
                "regwrite beat {i}: recorded {:?}, model gives {:?}",
                self.beats.get(i),
                run.beats.get(i)
            ));
        }
        if let Some(i) =
            (0..run.final_regs.len()).find(|&i| run.final_regs.get(i) != self.final_regs.get(i))
        {
            diffs.push(format!(
                "final_regs[0x{i:03x}] {}: recorded {:08x?}, model gives {:08x?}",
                pica_model::regs::name(i as u32),
                self.final_regs.get(i),
                run.final_regs.get(i)
            ));
        }
        if final_state_doc(&run) != self.final_state {
            diffs.push(format!(
                "{}: differs from the model's final state",
                self.manifest.final_state.json
            ));
        }
        // Pipeline streams and final memory: the model's files must equal the recorded ones.
        let (_, _, files) = pipeline_files(&run);
        let pipe_streams = self.manifest.streams.len().saturating_sub(1);
        if files.len() != 2 * pipe_streams + self.manifest.final_state.memory.len() {
            diffs.push(format!(
                "pipeline: the bundle records {} stream(s) and {} final image(s); the model gives {} file(s)",
                pipe_streams,
                self.manifest.final_state.memory.len(),
                files.len()
            ));
        }
        for (name, data) in files {
            let want = self.contents.get(&name).map(String::as_str).unwrap_or("");
            let got = String::from_utf8_lossy(&data);
            if want != got {
                let line = want
                    .lines()
                    .zip(got.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or_else(|| want.lines().count().min(got.lines().count()));
                diffs.push(format!(
                    "{name}:{}: recorded {:?}, model gives {:?}",
                    line + 1,
                    want.lines().nth(line).unwrap_or("<end>"),
                    got.lines().nth(line).unwrap_or("<end>")
                ));
            }
        }
        Ok(diffs)
    }
}
