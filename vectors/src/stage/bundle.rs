//! The one stage-bundle writer and reader every stage shares (design.md "Stage bundles").
//!
//! A stage module describes its bundle to a [`StageBundle`] — its own manifest entries, its
//! data files, its channel streams — and the writer adds what every stage bundle has: format,
//! version, `kind`, case, description, provenance, `dut` and the SHA-256 of every file but the
//! manifest. A [`BundleReader`] reads one back: it checks format, version and `kind`, that
//! every file the manifest lists is there with its SHA-256, and hands the stage its lines,
//! words and beats; anything wrong is a [`BundleError`] naming the file and, where there is
//! one, the line.
//!
//! Beats are read back through the channel table's own packing ([`Payload`]): [`unpack_line`]
//! splits a `.hex` line by [`pica_model::chan::PayloadSpec`]'s layout and insists the beat
//! re-packs to the same line, so nothing hides in bits outside the fields.

use crate::bundle::{pica_model_version, sha256_hex, FORMAT, VERSION};
use pica_model::beat::{
    CombinerBeat, CommitBeat, FragmentBeat, PixelBeat, TexColorBeat, TexelBeat,
};
use pica_model::chan::Payload;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::Path;

/// Who made a stage bundle and from what.
#[derive(Clone, Debug, Default)]
pub struct StageProvenance {
    /// The program that wrote it (`pica 0.1.0`).
    pub generator: String,
    /// Fuzz campaign seed, if any.
    pub seed: Option<u64>,
    /// Case index in the campaign, if any.
    pub case_index: Option<u64>,
    /// The case's own seed (what regenerates the unshrunk case), if any.
    pub case_seed: Option<u64>,
    /// Where the program came from (a file name, `pica fuzz --target shader`, ...).
    pub origin: String,
}

impl StageProvenance {
    /// The manifest's `provenance` object (expectations always come from the model).
    pub fn json(&self) -> Value {
        json!({
            "source": "model",
            "generator": self.generator,
            "model_version": pica_model_version(),
            "origin": self.origin,
            "seed": self.seed,
            "case_index": self.case_index,
            "case_seed": self.case_seed.map(|s| format!("0x{s:016x}")),
        })
    }
}

/// What is wrong with a stage bundle: the file (as `bundle/file`), the line (1-based) when the
/// fault is on one, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleError {
    /// The file, prefixed with the bundle (its directory, or the name a caller gave it).
    pub file: String,
    /// The line of the file, 1-based, if the fault is on one line.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl BundleError {
    /// An error in `file` (on `line`, if any).
    pub fn new(file: impl Into<String>, line: Option<usize>, message: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for BundleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(n) => write!(f, "{} line {n}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for BundleError {}

// Callers that report errors as text keep using `?`.
impl From<BundleError> for String {
    fn from(e: BundleError) -> Self {
        e.to_string()
    }
}

/// A packing as the manifest records it: `[{name, lsb, width}, ...]`.
pub fn field_list<S: AsRef<str>>(fields: &[(S, u32, u32)]) -> Value {
    Value::Array(
        fields
            .iter()
            .map(|(n, lsb, w)| json!({"name": n.as_ref(), "lsb": lsb, "width": w}))
            .collect(),
    )
}

/// One 32-bit word per line, `digits` hex digits each.
pub fn word_lines(words: &[u32], digits: usize) -> String {
    words.iter().map(|w| format!("{w:0digits$x}\n")).collect()
}

/// A stage bundle being written: the manifest entries and the data files.
#[derive(Clone, Debug)]
pub struct StageBundle {
    manifest: Map<String, Value>,
    files: BTreeMap<String, String>,
}

impl StageBundle {
    /// A bundle of `kind` for the case `name`, replayed on `dut`, with what every stage
    /// bundle's manifest holds.
    pub fn new(
        kind: &str,
        name: &str,
        description: &str,
        dut: &str,
        prov: &StageProvenance,
    ) -> Self {
        let mut manifest = Map::new();
        manifest.insert("format".into(), json!(FORMAT));
        manifest.insert("version".into(), json!(VERSION));
        manifest.insert("kind".into(), json!(kind));
        manifest.insert("case".into(), json!(name));
        manifest.insert("description".into(), json!(description));
        manifest.insert("provenance".into(), prov.json());
        manifest.insert("dut".into(), json!(dut));
        Self {
            manifest,
            files: BTreeMap::new(),
        }
    }

    /// Sets manifest entry `key` (the manifest's keys come out sorted whatever the order).
    pub fn set(&mut self, key: &str, value: Value) -> &mut Self {
        self.manifest.insert(key.to_string(), value);
        self
    }

    /// Adds data file `name`. A second file of the same name is dropped: the first one
    /// stands (two memory images at one base share their file).
    pub fn file(&mut self, name: impl Into<String>, contents: String) -> &mut Self {
        self.files.entry(name.into()).or_insert(contents);
        self
    }

    /// Adds `<channel>.hex` and `<channel>.jsonl` with `beats` packed as the channel table
    /// packs them, and returns the stream's manifest entry (`compared` says what a replay
    /// compares).
    pub fn stream<P: Payload>(&mut self, channel: &str, beats: &[P], compared: &str) -> Value {
        let (hex, jsonl) = (format!("{channel}.hex"), format!("{channel}.jsonl"));
        self.file(
            hex.clone(),
            beats.iter().map(|b| b.hex_line() + "\n").collect(),
        );
        self.file(
            jsonl.clone(),
            beats
                .iter()
                .map(|b| format!("{}\n", Value::Object(b.json_fields())))
                .collect(),
        );
        json!({
            "channel": channel,
            "hex": hex,
            "jsonl": jsonl,
            "beats": beats.len(),
            "width": P::SPEC.width(),
            "cycle_exact": false,
            "compared": compared,
            "fields": field_list(&P::SPEC.layout()),
        })
    }

    /// The manifest (with `files`: the SHA-256 of every data file).
    pub fn manifest(&self) -> Value {
        let hashes: Map<String, Value> = self
            .files
            .iter()
            .map(|(n, d)| (n.clone(), Value::String(sha256_hex(d.as_bytes()))))
            .collect();
        let mut m = self.manifest.clone();
        m.insert("files".into(), Value::Object(hashes));
        Value::Object(m)
    }

    /// Every file as `(name, contents)`: `manifest.json` first, then the data files by name.
    pub fn render(&self) -> Vec<(String, String)> {
        // A `Value` with string keys always serialises.
        let text = serde_json::to_string_pretty(&self.manifest()).unwrap_or_default();
        let mut out = vec![("manifest.json".to_string(), format!("{text}\n"))];
        out.extend(self.files.iter().map(|(n, d)| (n.clone(), d.clone())));
        out
    }

    /// Writes every file into `dir` (created if needed). Returns the manifest.
    pub fn write(&self, dir: &Path) -> std::io::Result<Value> {
        fs::create_dir_all(dir)?;
        for (n, data) in self.render() {
            fs::write(dir.join(n), data)?;
        }
        Ok(self.manifest())
    }
}

/// The `kind` of the bundle in `dir`: `None` for a full-top bundle (no `kind`), or an
/// error when the manifest is unreadable.
pub fn bundle_kind(dir: &Path) -> Result<Option<String>, BundleError> {
    let m = read_manifest(dir)?.1;
    Ok(m.get("kind").and_then(Value::as_str).map(str::to_string))
}

/// `manifest.json` of `dir`: its text and its JSON.
fn read_manifest(dir: &Path) -> Result<(String, Value), BundleError> {
    let p = dir.join("manifest.json");
    let file = p.display().to_string();
    let text = fs::read_to_string(&p).map_err(|e| BundleError::new(&file, None, e.to_string()))?;
    let m = serde_json::from_str(&text)
        .map_err(|e| BundleError::new(&file, Some(e.line()), e.to_string()))?;
    Ok((text, m))
}

/// The knobs a stage bundle's manifest records: its `knobs` map (`{name: value}`, the
/// non-default ones, as [`pica_model::knobs::Knobs::to_map`] writes it); none or `null` is
/// the defaults.
pub fn manifest_knobs(m: &Value) -> Result<pica_model::knobs::Knobs, String> {
    let Some(map) = m.get("knobs").filter(|v| !v.is_null()) else {
        return Ok(pica_model::knobs::Knobs::default());
    };
    let obj = map
        .as_object()
        .ok_or_else(|| "manifest.json: `knobs` is not a map".to_string())?;
    let mut pairs = BTreeMap::new();
    for (n, v) in obj {
        let v = v
            .as_str()
            .ok_or_else(|| format!("manifest.json: knob {n} is not a string"))?;
        pairs.insert(n.clone(), v.to_string());
    }
    pica_model::knobs::Knobs::from_map(&pairs).map_err(|e| format!("manifest.json: {e}"))
}

/// A stage bundle read back: the manifest and every file it lists, SHA-256 checked.
#[derive(Clone, Debug)]
pub struct BundleReader {
    what: String,
    manifest: Value,
    files: BTreeMap<String, String>,
}

impl BundleReader {
    /// Reads the bundle of `kind` in `dir`: the manifest, then every file it lists (names
    /// must stay inside `dir`).
    pub fn load(dir: &Path, kind: &str) -> Result<Self, BundleError> {
        let what = dir.display().to_string();
        let (text, m) = read_manifest(dir)?;
        let mut files = BTreeMap::new();
        for name in m["files"].as_object().into_iter().flatten().map(|(n, _)| n) {
            if name.contains('/') || name.contains('\\') || name.contains("..") {
                return Err(BundleError::new(
                    format!("{what}/manifest.json"),
                    None,
                    format!("bad file name `{name}`"),
                ));
            }
            let f = dir.join(name);
            let data = fs::read_to_string(&f)
                .map_err(|e| BundleError::new(f.display().to_string(), None, e.to_string()))?;
            files.insert(name.clone(), data);
        }
        files.insert("manifest.json".to_string(), text);
        Self::parse(&what, &files, kind)
    }

    /// The bundle of `kind` from its files (`name` → contents, `manifest.json` among them):
    /// checks format, version and kind and every SHA-256 the manifest lists. `what` names
    /// the bundle in errors.
    pub fn parse(
        what: &str,
        files: &BTreeMap<String, String>,
        kind: &str,
    ) -> Result<Self, BundleError> {
        let mf = format!("{what}/manifest.json");
        let text = files
            .get("manifest.json")
            .ok_or_else(|| BundleError::new(&mf, None, "missing"))?;
        let manifest: Value = serde_json::from_str(text)
            .map_err(|e| BundleError::new(&mf, Some(e.line()), e.to_string()))?;
        if manifest["format"] != FORMAT
            || manifest["version"] != VERSION
            || manifest["kind"] != kind
        {
            return Err(BundleError::new(
                &mf,
                None,
                format!("not a {kind} bundle (format {FORMAT} v{VERSION})"),
            ));
        }
        let listed = manifest["files"]
            .as_object()
            .ok_or_else(|| BundleError::new(&mf, None, "no `files`"))?;
        let mut out = BTreeMap::new();
        for (name, sha) in listed {
            let f = format!("{what}/{name}");
            let data = files
                .get(name)
                .ok_or_else(|| BundleError::new(&f, None, "missing"))?;
            if Some(sha256_hex(data.as_bytes()).as_str()) != sha.as_str() {
                return Err(BundleError::new(
                    &f,
                    None,
                    "SHA-256 does not match the manifest",
                ));
            }
            out.insert(name.clone(), data.clone());
        }
        Ok(Self {
            what: what.to_string(),
            manifest,
            files: out,
        })
    }

    /// The manifest.
    pub fn manifest(&self) -> &Value {
        &self.manifest
    }

    /// The manifest, the reader done with.
    pub fn into_manifest(self) -> Value {
        self.manifest
    }

    /// An error in `file` of this bundle (on `line`, if any).
    pub fn error(
        &self,
        file: &str,
        line: Option<usize>,
        message: impl Into<String>,
    ) -> BundleError {
        BundleError::new(format!("{}/{file}", self.what), line, message)
    }

    /// The non-blank lines of listed file `name` with their 1-based numbers.
    pub fn lines(&self, name: &str) -> Result<Vec<(usize, &str)>, BundleError> {
        let text = self.files.get(name).ok_or_else(|| {
            self.error(
                "manifest.json",
                None,
                format!("{name} is not listed in `files`"),
            )
        })?;
        Ok(text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (i + 1, l.trim()))
            .collect())
    }

    /// Every non-blank line of `name` through `parse`; a line it refuses is an error naming
    /// the file and line.
    pub fn parse_lines<T>(
        &self,
        name: &str,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<Vec<T>, BundleError> {
        self.lines(name)?
            .into_iter()
            .map(|(n, l)| parse(l).map_err(|e| self.error(name, Some(n), e)))
            .collect()
    }

    /// The 32-bit words of `name`, one per line.
    pub fn words(&self, name: &str) -> Result<Vec<u32>, BundleError> {
        self.parse_lines(name, |l| {
            u32::from_str_radix(l, 16).map_err(|_| format!("bad line `{l}`"))
        })
    }

    /// The manifest's entry for stream `channel`.
    pub fn stream(&self, channel: &str) -> Result<&Value, BundleError> {
        self.manifest["streams"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["channel"] == channel))
            .ok_or_else(|| self.error("manifest.json", None, format!("no {channel} stream")))
    }

    /// The beats of stream `channel` (its `hex` file, `<channel>.hex` if the manifest names
    /// none), as many as the manifest says.
    pub fn stream_beats<P: Unpack>(&self, channel: &str) -> Result<Vec<P>, BundleError> {
        let s = self.stream(channel)?;
        let hex = s["hex"]
            .as_str()
            .map_or(format!("{channel}.hex"), str::to_string);
        let beats = self.parse_lines(&hex, unpack_line::<P>)?;
        self.check_count(&hex, beats.len(), &s["beats"], "beats")?;
        Ok(beats)
    }

    /// An error unless `got` `what` (lines, beats, ...) of `file` is what the manifest says
    /// (`want`).
    pub fn check_count(
        &self,
        file: &str,
        got: usize,
        want: &Value,
        what: &str,
    ) -> Result<(), BundleError> {
        if want.as_u64() == Some(got as u64) {
            Ok(())
        } else {
            Err(self.error(
                file,
                None,
                format!("{got} {what}, the manifest says {want}"),
            ))
        }
    }

    /// The knobs the manifest records ([`manifest_knobs`]).
    pub fn knobs(&self) -> Result<pica_model::knobs::Knobs, BundleError> {
        manifest_knobs(&self.manifest).map_err(|e| {
            let e = e.strip_prefix("manifest.json: ").unwrap_or(&e).to_string();
            self.error("manifest.json", None, e)
        })
    }
}

/// A beat's element values, per field of its channel-table row (element 0 first).
pub struct Fields {
    spec: &'static pica_model::chan::PayloadSpec,
    values: Vec<Vec<u128>>,
}

impl Fields {
    /// The elements of field `name` (empty if the row has none such).
    pub fn elems(&self, name: &str) -> &[u128] {
        self.spec
            .fields
            .iter()
            .position(|f| f.name == name)
            .and_then(|i| self.values.get(i))
            .map_or(&[], Vec::as_slice)
    }
}

/// A channel-table beat that can be read back from its `.hex` line ([`unpack_line`]).
pub trait Unpack: Payload + Sized {
    /// The beat holding `f`'s values.
    fn from_fields(f: &Fields) -> Self;
}

/// Unpacks one `.hex` line of `P`: exactly the packed width in hex digits, and nothing set
/// outside the fields (the beat re-packs to the same line).
pub fn unpack_line<P: Unpack>(line: &str) -> Result<P, String> {
    let spec = P::SPEC;
    let line = line.trim();
    let digits = spec.width().div_ceil(4) as usize;
    if line.len() != digits || !line.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("not a {} ({digits} hex digits)", spec.rust));
    }
    let bits: Vec<bool> = line
        .chars()
        .flat_map(|ch| {
            let d = ch.to_digit(16).unwrap_or(0);
            (0..4).rev().map(move |i| (d >> i) & 1 == 1)
        })
        .collect();
    let total = bits.len();
    // Bit `lsb` .. `lsb + width - 1` of the beat (bit 0 is the last digit's lowest).
    let get = |lsb: u32, width: u32| -> u128 {
        (0..width).rev().fold(0u128, |acc, i| {
            let pos = total - 1 - (lsb + i) as usize;
            acc << 1 | u128::from(bits[pos])
        })
    };
    let mut lsb = spec.width();
    let mut values = Vec::with_capacity(spec.fields.len());
    for f in spec.fields {
        let mut elems = vec![0u128; f.count as usize];
        for i in (0..f.count as usize).rev() {
            lsb -= f.width;
            elems[i] = get(lsb, f.width);
        }
        lsb -= spec
            .pads
            .iter()
            .filter(|p| p.0 == f.name)
            .map(|p| p.1)
            .sum::<u32>();
        values.push(elems);
    }
    let beat = P::from_fields(&Fields { spec, values });
    if !beat.hex_line().eq_ignore_ascii_case(line) {
        return Err(format!("bits set outside the fields of a {}", spec.rust));
    }
    Ok(beat)
}

/// A beat struct's field type, read from the field's element values.
trait FromLanes {
    fn from_lanes(e: &[u128]) -> Self;
}

macro_rules! from_lanes {
    ($($t:ty),*) => {$(
        impl FromLanes for $t {
            fn from_lanes(e: &[u128]) -> Self {
                e.first().copied().unwrap_or(0) as $t
            }
        }
    )*};
}
from_lanes!(u8, u16, u32, u64, u128);

impl FromLanes for i32 {
    fn from_lanes(e: &[u128]) -> Self {
        // Two's complement of the field width, as the packer wrote it.
        u32::from_lanes(e) as i32
    }
}

impl FromLanes for bool {
    fn from_lanes(e: &[u128]) -> Self {
        e.first().is_some_and(|&v| v != 0)
    }
}

impl<const N: usize> FromLanes for [u32; N] {
    fn from_lanes(e: &[u128]) -> Self {
        std::array::from_fn(|i| e.get(i).copied().unwrap_or(0) as u32)
    }
}

/// [`Unpack`] for beat structs whose fields are all named in the channel table (the struct
/// literal makes the compiler check every field is listed).
macro_rules! unpack {
    ($($beat:ident { $($field:ident),* $(,)? })*) => {$(
        impl Unpack for $beat {
            fn from_fields(f: &Fields) -> Self {
                Self { $($field: FromLanes::from_lanes(f.elems(stringify!($field))),)* }
            }
        }
    )*};
}

unpack! {
    CommitBeat {
        cycle, unit, seq, pc, word, dst, mask, result, cmp, a0x, a0y, al, next_pc, emit, hang, end,
    }
    CombinerBeat { cycle, x, y, stage, color, buffer }
    PixelBeat { cycle, x, y, color_addr, color, depth_addr, depth_stencil, flags }
    TexelBeat { cycle, x, y, unit, addr, raw, rgba }
    TexColorBeat { cycle, x, y, unit0, unit1, unit2, unit3 }
    FragmentBeat { cycle, tri, x, y, depth, color, attr }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_bundle_round_trips_and_names_file_and_line() {
        let beats = [
            CombinerBeat {
                cycle: 0,
                x: 1,
                y: 2,
                stage: 3,
                color: 0xDEAD_BEEF,
                buffer: 5,
            },
            CombinerBeat::default(),
        ];
        let mut b = StageBundle::new("stage:test", "c", "d", "top", &StageProvenance::default());
        let s = b.stream("combiner", &beats, "all");
        b.set("streams", json!([s]));
        b.file("ops.hex", word_lines(&[1, 2], 8));
        let files: BTreeMap<String, String> = b.render().into_iter().collect();
        let r = BundleReader::parse("t", &files, "stage:test").unwrap();
        assert_eq!(r.stream_beats::<CombinerBeat>("combiner").unwrap(), beats);
        assert_eq!(r.words("ops.hex").unwrap(), [1, 2]);
        assert!(BundleReader::parse("t", &files, "stage:other").is_err());
        let mut bad = files.clone();
        bad.insert("ops.hex".into(), "1\n".into());
        let e = BundleReader::parse("t", &bad, "stage:test").unwrap_err();
        assert_eq!(e.file, "t/ops.hex");
        let e = r
            .parse_lines("ops.hex", |_| Err::<(), _>("no".to_string()))
            .unwrap_err();
        assert_eq!(e.to_string(), "t/ops.hex line 1: no");
    }

    #[test]
    fn unpack_line_refuses_bits_outside_the_fields() {
        let b = CommitBeat {
            a0x: -3,
            result: [1, 2, 3, 0xFF_FFFF],
            emit: true,
            ..CommitBeat::default()
        };
        assert_eq!(unpack_line::<CommitBeat>(&b.hex_line()), Ok(b));
        let f = FragmentBeat {
            attr: std::array::from_fn(|i| i as u32 * 0x1234),
            ..FragmentBeat::default()
        };
        assert_eq!(unpack_line::<FragmentBeat>(&f.hex_line()), Ok(f));
        assert!(unpack_line::<PixelBeat>("12").is_err());
        // 200-bit pixel beat: 50 digits, every bit a field bit; a 0x prefix is refused.
        let p = PixelBeat::default().hex_line();
        assert!(unpack_line::<PixelBeat>(&format!("0x{}", &p[2..])).is_err());
    }
}
