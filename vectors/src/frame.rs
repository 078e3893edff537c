//! Frame files (`pica-frame`, version 1): a captured frame — the memory it reads and the
//! steps the GSP ran (command lists, memory fills, transfers) — that `pica run FRAME.json`
//! runs on the model, and the JSON form of a [`Step`] that bundle manifests share.
//!
//! ```json
//! { "format": "pica-frame", "version": 1,
//!   "provenance": { "source": "driver-capture", "library": "citro2d", "program": "x", "frame": 2 },
//!   "memory": [ { "addr": "0x20000000", "file": "mem_20000000.bin" } ],
//!   "steps": [ { "fill":     { "start": "0x18000000", "end": "0x18046000", "value": "0x68b0d8ff", "width": 32 } },
//!              { "submit":   { "addr": "0x20123400", "size": 4096 } },
//!              { "transfer": { "kind": "display", "input": "0x18000000", "output": "0x18300000" } } ] }
//! ```
//!
//! - `provenance`: free-form; each value a string, number or boolean, shown in summaries and
//!   kept in bundles ([`Case::capture`]).
//! - `memory`: raw little-endian byte files, paths relative to the JSON file, loaded in order
//!   before the first step; addresses 4-aligned, images in mapped memory (VRAM / FCRAM) and not
//!   overlapping one another (an image is padded with zeros to whole words).
//! - `steps`: in order; at least one `submit`. A submission starts when the previous one has
//!   finished, the GPU state carried across ([`crate::case`] "Steps"); a `fill` is a PSC
//!   memory fill ([`pica_model::psc`]: 8-aligned start and end, end above start, width 16,
//!   24 or 32); a `transfer` is recorded and not modelled.
//! - Numbers are JSON integers or `"0x"` hex strings.
//!
//! The JSON Schema is `vectors/schema/frame.v1.schema.json` ([`frame_schema`]). Reading checks
//! everything the schema says and what it cannot (files, alignment, overlaps, mapped
//! addresses); every error names the file and the step or image. Nothing in a frame file
//! makes the reader panic (fuzzed by `vectors/tests/frame.rs`).

use crate::case::{Case, MemImage, Step, Transfer, TransferKind, DEFAULT_MAX_CYCLES};
use crate::words::InputError;
use pica_model::mem::Memory;
use pica_model::psc::{FillWidth, MemoryFill};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The format name of a frame file.
pub const FORMAT: &str = "pica-frame";
/// The frame-file version this code reads.
pub const VERSION: u32 = 1;

/// A 32-bit number: a JSON integer, or a string of `0x` and 1-8 hex digits. Written as
/// `"0x%08x"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hex(pub u32);

impl Serialize for Hex {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("0x{:08x}", self.0))
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Hex;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a 32-bit number: an integer or a \"0x\" hex string")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Hex, E> {
                u32::try_from(v)
                    .map(Hex)
                    .map_err(|_| E::custom(format!("{v} does not fit 32 bits")))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Hex, E> {
                u32::try_from(v)
                    .map(Hex)
                    .map_err(|_| E::custom(format!("{v} is not a 32-bit unsigned number")))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Hex, E> {
                Err(E::custom(format!("{v} is not an integer")))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Hex, E> {
                parse_hex_str(v).map(Hex).map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for Hex {
    fn schema_name() -> String {
        "Hex".into()
    }

    fn json_schema(_: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        let v = serde_json::json!({
            "description": "A 32-bit number: an integer, or \"0x\" and 1-8 hex digits.",
            "anyOf": [
                { "type": "integer", "minimum": 0, "maximum": 4_294_967_295_u64 },
                { "type": "string", "pattern": "^0[xX][0-9a-fA-F]{1,8}$" }
            ]
        });
        serde_json::from_value(v).unwrap_or(schemars::schema::Schema::Bool(true))
    }
}

/// Parses `0x` and 1-8 hex digits.
fn parse_hex_str(v: &str) -> Result<u32, String> {
    let digits = v
        .strip_prefix("0x")
        .or_else(|| v.strip_prefix("0X"))
        .ok_or_else(|| format!("'{v}' is not a \"0x\" hex number"))?;
    if digits.is_empty() || digits.len() > 8 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("'{v}' is not a \"0x\" hex number of 1-8 digits"));
    }
    u32::from_str_radix(digits, 16).map_err(|e| format!("'{v}': {e}"))
}

/// `{"submit": {...}}`: `GX_ProcessCommandList` of a list already in memory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubmitStep {
    /// Physical address of the list (8-aligned).
    pub addr: Hex,
    /// Size in bytes (only `size & ~0xF` is read).
    pub size: Hex,
}

/// `{"fill": {...}}`: a PSC memory fill (`GX SetMemoryFill`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FillStep {
    /// First byte (physical, 8-aligned).
    pub start: Hex,
    /// One past the last byte (physical, 8-aligned, above start).
    pub end: Hex,
    /// The fill value (its low `width` bits).
    pub value: Hex,
    /// Bits per value: 16, 24 or 32.
    pub width: u32,
}

/// `{"transfer": {...}}`: a display transfer or texture copy, recorded and not modelled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TransferStep {
    /// `display` (GX DisplayTransfer) or `texture_copy` (GX TextureCopy).
    pub kind: TransferKind,
    /// Physical input address.
    pub input: Hex,
    /// Physical output address.
    pub output: Hex,
    /// Other parameters as captured (dimensions, gaps, flags), by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, Hex>,
}

/// One step in JSON: exactly one of `submit`, `fill`, `transfer`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum StepJson {
    /// A command list.
    Submit(SubmitStep),
    /// A memory fill.
    Fill(FillStep),
    /// A transfer (not modelled).
    Transfer(TransferStep),
}

impl StepJson {
    /// The JSON form of `step`.
    pub fn of(step: &Step) -> Self {
        match step {
            Step::Submit { addr, size } => StepJson::Submit(SubmitStep {
                addr: Hex(*addr),
                size: Hex(*size),
            }),
            Step::Fill(f) => StepJson::Fill(FillStep {
                start: Hex(f.start),
                end: Hex(f.end),
                value: Hex(f.value),
                width: f.width.bits(),
            }),
            Step::Transfer(t) => StepJson::Transfer(TransferStep {
                kind: t.kind,
                input: Hex(t.input),
                output: Hex(t.output),
                params: t.params.iter().map(|(k, v)| (k.clone(), Hex(*v))).collect(),
            }),
        }
    }

    /// The step, or what is wrong with it (a fill width other than 16, 24, 32).
    pub fn to_step(&self) -> Result<Step, String> {
        Ok(match self {
            StepJson::Submit(s) => Step::Submit {
                addr: s.addr.0,
                size: s.size.0,
            },
            StepJson::Fill(f) => Step::Fill(MemoryFill {
                start: f.start.0,
                end: f.end.0,
                value: f.value.0,
                width: FillWidth::from_bits(f.width)
                    .ok_or_else(|| format!("width {} is not 16, 24 or 32", f.width))?,
            }),
            StepJson::Transfer(t) => Step::Transfer(Transfer {
                kind: t.kind,
                input: t.input.0,
                output: t.output.0,
                params: t.params.iter().map(|(k, v)| (k.clone(), v.0)).collect(),
            }),
        })
    }
}

/// A provenance value: a string, number or boolean (shown as text).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    /// A string.
    Text(String),
    /// A number.
    Number(serde_json::Number),
    /// A boolean.
    Bool(bool),
}

impl Scalar {
    /// The value as text.
    pub fn text(&self) -> String {
        match self {
            Scalar::Text(s) => s.clone(),
            Scalar::Number(n) => n.to_string(),
            Scalar::Bool(b) => b.to_string(),
        }
    }
}

impl JsonSchema for Scalar {
    fn schema_name() -> String {
        "Scalar".into()
    }

    fn json_schema(_: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        let v = serde_json::json!({
            "description": "A free-form provenance value.",
            "type": ["string", "number", "boolean"]
        });
        serde_json::from_value(v).unwrap_or(schemars::schema::Schema::Bool(true))
    }
}

/// One memory image of a frame file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FrameImage {
    /// Physical address of the first byte (4-aligned).
    pub addr: Hex,
    /// Raw little-endian bytes, the path relative to the frame file.
    pub file: String,
}

/// A frame file (`pica-frame`, version 1; see the [module docs](self)).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FrameFile {
    /// Always `pica-frame`.
    pub format: String,
    /// Format version (1).
    pub version: u32,
    /// Where the frame came from (`source`, `library`, `program`, `frame`, ...): free-form,
    /// shown in summaries and kept in bundles.
    #[serde(default)]
    pub provenance: BTreeMap<String, Scalar>,
    /// Memory images, loaded in order before the first step.
    #[serde(default)]
    pub memory: Vec<FrameImage>,
    /// The steps, in order; at least one `submit`.
    pub steps: Vec<StepJson>,
}

/// The JSON Schema of frame files, as checked in under `vectors/schema/`.
pub fn frame_schema() -> String {
    let schema = schemars::schema_for!(FrameFile);
    let text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    format!("{text}\n")
}

/// Reads the frame file at `path` into a case (named after the file), its memory files read
/// relative to it. Every error names the file and the step or image.
pub fn load_frame(path: &Path, max_cycles: u64) -> Result<Case, InputError> {
    let name = path.display().to_string();
    let text = std::fs::read(path).map_err(|e| {
        InputError(if e.kind() == std::io::ErrorKind::NotFound {
            format!("{name}: no such file")
        } else {
            format!("{name}: cannot read: {e}")
        })
    })?;
    let text = String::from_utf8(text).map_err(|e| {
        InputError(format!(
            "{name}: not UTF-8 at byte {}",
            e.utf8_error().valid_up_to()
        ))
    })?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let load = |file: &str| -> Result<Vec<u8>, String> {
        let p = dir.join(file);
        std::fs::read(&p).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                format!("{}: no such file", p.display())
            } else {
                format!("{}: cannot read: {e}", p.display())
            }
        })
    };
    parse_frame(&name, &text, &load, max_cycles)
}

/// Parses frame-file `text` (called `name` in messages) into a case; `load` reads a memory
/// file named in it. [`load_frame`] with the files on disk; tests pass their own loader.
pub fn parse_frame(
    name: &str,
    text: &str,
    load: &dyn Fn(&str) -> Result<Vec<u8>, String>,
    max_cycles: u64,
) -> Result<Case, InputError> {
    let err = |msg: String| InputError(format!("{name}: {msg}"));
    // (serde_json's message ends "at line L column C".)
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| err(e.to_string()))?;
    let obj = value
        .as_object()
        .ok_or_else(|| err("not a JSON object (a pica-frame file is one object)".into()))?;
    // Format and version first, so a bundle manifest or another JSON file says what it is not.
    match obj.get("format").and_then(|f| f.as_str()) {
        Some(FORMAT) => {}
        Some(other) => {
            return Err(err(format!(
                "format is '{other}', expected '{FORMAT}' (a frame file; see vectors/schema/frame.v1.schema.json)"
            )))
        }
        None => return Err(err(format!("no \"format\": \"{FORMAT}\""))),
    }
    match obj.get("version").and_then(serde_json::Value::as_u64) {
        Some(v) if v == u64::from(VERSION) => {}
        Some(v) => {
            return Err(err(format!(
                "version {v} is not supported (this reads version {VERSION})"
            )))
        }
        None => return Err(err("no \"version\" number".into())),
    }
    // Steps and images one by one, so a bad one is named by its index.
    let list = |key: &str| -> Vec<serde_json::Value> {
        obj.get(key)
            .and_then(serde_json::Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    for (i, s) in list("steps").into_iter().enumerate() {
        serde_json::from_value::<StepJson>(s).map_err(|e| {
            err(format!(
                "steps[{i}]: {e} (a step is {{\"submit\"|\"fill\"|\"transfer\": {{...}}}})"
            ))
        })?;
    }
    for (i, m) in list("memory").into_iter().enumerate() {
        serde_json::from_value::<FrameImage>(m).map_err(|e| err(format!("memory[{i}]: {e}")))?;
    }
    let frame: FrameFile = serde_json::from_value(value).map_err(|e| err(e.to_string()))?;
    frame_case(name, &frame, load, max_cycles)
}

/// The case of a parsed frame file: images read and checked, steps converted and checked.
fn frame_case(
    name: &str,
    frame: &FrameFile,
    load: &dyn Fn(&str) -> Result<Vec<u8>, String>,
    max_cycles: u64,
) -> Result<Case, InputError> {
    let err = |msg: String| InputError(format!("{name}: {msg}"));
    let mut images: Vec<MemImage> = Vec::new();
    let mut ranges: Vec<(u64, u64)> = Vec::new();
    for (i, m) in frame.memory.iter().enumerate() {
        let what = format!("memory[{i}] ({} at 0x{:08x})", m.file, m.addr.0);
        if m.addr.0 % 4 != 0 {
            return Err(err(format!("{what}: address is not 4-aligned")));
        }
        let mut bytes = load(&m.file).map_err(|e| err(format!("{what}: {e}")))?;
        bytes.resize(bytes.len().div_ceil(4) * 4, 0);
        let len =
            u32::try_from(bytes.len()).map_err(|_| err(format!("{what}: larger than 4 GiB")))?;
        if !bytes.is_empty() && Memory::region_of(m.addr.0, len).is_none() {
            return Err(err(format!(
                "{what}: 0x{:08x}..0x{:08x} is outside VRAM (0x18000000-0x185fffff) and FCRAM (0x20000000-0x27ffffff)",
                m.addr.0,
                u64::from(m.addr.0) + u64::from(len)
            )));
        }
        let r = (u64::from(m.addr.0), u64::from(m.addr.0) + u64::from(len));
        if let Some(j) = ranges.iter().position(|o| r.0 < o.1 && o.0 < r.1) {
            return Err(err(format!(
                "{what}: 0x{:08x}..0x{:08x} overlaps memory[{j}] ({} at 0x{:08x}..0x{:08x})",
                r.0, r.1, frame.memory[j].file, ranges[j].0, ranges[j].1
            )));
        }
        ranges.push(r);
        images.push(MemImage {
            base: m.addr.0,
            words: bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        });
    }
    let mut steps = Vec::new();
    for (i, s) in frame.steps.iter().enumerate() {
        let kind = match s {
            StepJson::Submit(_) => "submit",
            StepJson::Fill(_) => "fill",
            StepJson::Transfer(_) => "transfer",
        };
        steps.push(
            s.to_step()
                .map_err(|e| err(format!("steps[{i}] ({kind}): {e}")))?,
        );
    }
    let first = steps
        .iter()
        .position(|s| matches!(s, Step::Submit { .. }))
        .ok_or_else(|| err("no submit step: a frame needs at least one command list".into()))?;
    let (before, rest) = steps.split_at(first);
    let Some((Step::Submit { addr, size }, more)) = rest.split_first() else {
        return Err(err("no submit step".into()));
    };
    let capture: BTreeMap<String, String> = frame
        .provenance
        .iter()
        .map(|(k, v)| (k.clone(), v.text()))
        .collect();
    let mut case = Case::from_list(name, describe(&capture), Vec::new());
    case.images = images;
    case.before = before.to_vec();
    case.submit_addr = *addr;
    case.submit_size = *size;
    case.more = more.to_vec();
    case.max_cycles = if max_cycles == 0 {
        DEFAULT_MAX_CYCLES
    } else {
        max_cycles
    };
    case.pipeline = true;
    case.capture = capture;
    case.check_steps().map_err(|e| match e {
        crate::case::CaseError::Step {
            index, kind, msg, ..
        } => err(format!("steps[{index}] ({kind}): {msg}")),
        other => err(other.to_string()),
    })?;
    // Every image loads (checked above image by image; this is the case's own check).
    case.memory().map_err(|e| err(e.to_string()))?;
    Ok(case)
}

/// A one-line description of a frame from its provenance (`citro2d program x frame 2`).
fn describe(capture: &BTreeMap<String, String>) -> String {
    if capture.is_empty() {
        return "frame file".into();
    }
    let items: Vec<String> = capture.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("frame file ({})", items.join(", "))
}

/// The frame file of `case` (its images written as `mem_<addr>.bin` by the caller:
/// `(file name, bytes)` pairs are returned beside the JSON).
pub fn frame_of(case: &Case) -> (FrameFile, Vec<(String, Vec<u8>)>) {
    let files: Vec<(String, Vec<u8>)> = case
        .images
        .iter()
        .map(|im| {
            (
                format!("mem_{:08x}.bin", im.base),
                im.words.iter().flat_map(|w| w.to_le_bytes()).collect(),
            )
        })
        .collect();
    let frame = FrameFile {
        format: FORMAT.into(),
        version: VERSION,
        provenance: case
            .capture
            .iter()
            .map(|(k, v)| (k.clone(), Scalar::Text(v.clone())))
            .collect(),
        memory: case
            .images
            .iter()
            .zip(&files)
            .map(|(im, (f, _))| FrameImage {
                addr: Hex(im.base),
                file: f.clone(),
            })
            .collect(),
        steps: case.steps().iter().map(StepJson::of).collect(),
    };
    (frame, files)
}
