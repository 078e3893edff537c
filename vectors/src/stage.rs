//! Stage bundles (design.md "Stage bundles"): one stage's inputs, memories and expected output
//! streams, replayable on that stage's RTL alone in a plain SystemVerilog testbench.
//!
//! The one stage with a bundle today is the shader unit (`kind` = [`KIND_SHADER_UNIT`],
//! replayed by `rtl-bridge/tb/pica_sh_unit_replay_tb.sv` on `pica_sh_unit_top`). Every file is
//! `$readmemh`-ready: one value per line, most significant digit first, no prefix.
//!
//! | file | lines | bits | what |
//! |---|---|---|---|
//! | `manifest.json` | | | format `pica-vectors` v1, `kind`, provenance, entry point, limits, the packing of every file, outcome, SHA-256 of every other file |
//! | `code.hex` | code words (may be 0) | 32 | code memory from word 0 (zero beyond) |
//! | `opdesc.hex` | 128 | 32 | operand descriptors |
//! | `uniforms.hex` | 96 | 96 | float uniforms c0-c95: w, z, y, x (x in bits 23:0), 24-bit f24 each |
//! | `int_uniforms.hex` | 4 | 32 | i0-i3: x \| y << 8 \| z << 16 \| w << 24 (the top's `int_uniforms_i[n*32 +: 32]`) |
//! | `bool_uniforms.hex` | 1 | 16 | b0-b15, bit n = bn |
//! | `inputs.hex` | 16 | 96 | input registers v0-v15, packed like the uniforms |
//! | `commit.hex` | one per executed instruction | 339 | expected `commit` beats packed as the channel table's `CommitBeat` (cycle = instruction index, unit 0, seq 0: the stage compares transactions, not cycles) |
//! | `commit.jsonl` | same | | the same beats as JSON |
//! | `outputs.hex` | 16 | 96 | expected o0-o15 of the active bank after the run |

use crate::bundle::{pica_model_version, sha256_hex, FORMAT, VERSION};
use crate::shader_gen::{ShaderCase, ShaderRun};
use pica_model::beat::CommitBeat;
use pica_model::chan::Payload;
use pica_model::num::F24;
use pica_model::shader::interp::{Commit, Knobs};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// `kind` of a shader-unit stage bundle.
pub const KIND_SHADER_UNIT: &str = "stage:shader_unit";

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

/// The `kind` of the bundle in `dir`: `None` for a full-top bundle (no `kind`), or an
/// error when the manifest is unreadable.
pub fn bundle_kind(dir: &Path) -> Result<Option<String>, String> {
    let p = dir.join("manifest.json");
    let text = fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))?;
    Ok(v.get("kind").and_then(Value::as_str).map(str::to_string))
}

/// A vec4 of f24 as one 96-bit `$readmemh` line: w z y x (x least significant).
pub fn vec4_hex(v: &[u32; 4]) -> String {
    format!(
        "{:06x}{:06x}{:06x}{:06x}",
        v[3] & 0xFF_FFFF,
        v[2] & 0xFF_FFFF,
        v[1] & 0xFF_FFFF,
        v[0] & 0xFF_FFFF
    )
}

fn parse_vec4_hex(line: &str) -> Option<[u32; 4]> {
    if line.len() != 24 {
        return None;
    }
    let lane = |i: usize| u32::from_str_radix(&line[18 - 6 * i..24 - 6 * i], 16).ok();
    Some([lane(0)?, lane(1)?, lane(2)?, lane(3)?])
}

fn field_list(fields: &[(&str, u32, u32)]) -> Value {
    Value::Array(
        fields
            .iter()
            .map(|(n, lsb, w)| json!({"name": n, "lsb": lsb, "width": w}))
            .collect(),
    )
}

fn vec4_fields() -> Value {
    field_list(&[("w", 72, 24), ("z", 48, 24), ("y", 24, 24), ("x", 0, 24)])
}

/// The knobs of a TEV, FOP or RAST stage bundle's manifest: its `knobs` map (`{name: value}`,
/// the non-default ones, as [`pica_model::knobs::Knobs::to_map`] writes it); none or `null`
/// is the defaults.
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

/// The knobs as the manifest records them.
fn knobs_json(k: &Knobs) -> Value {
    serde_json::to_value(k).unwrap_or(Value::Null)
}

/// The commit beats of a run as the bundle records them (cycle = index, unit 0, seq 0).
pub fn commit_beats(commits: &[Commit]) -> Vec<CommitBeat> {
    commits
        .iter()
        .enumerate()
        .map(|(i, c)| CommitBeat::new(i as u64, 0, 0, c))
        .collect()
}

/// Writes the shader-unit stage bundle of `case` with the expected `run` (the model's, with
/// `knobs`) into `dir`. `defines` are the RTL defines the replay needs (e.g.
/// `PICA_SH_KNOBS_ALT` for non-default knobs). Returns the manifest.
#[allow(clippy::too_many_arguments)]
pub fn write_shader_bundle(
    dir: &Path,
    name: &str,
    description: &str,
    case: &ShaderCase,
    run: &ShaderRun,
    knobs: &Knobs,
    defines: &[&str],
    max_instructions: u64,
    prov: &StageProvenance,
) -> std::io::Result<Value> {
    fs::create_dir_all(dir)?;
    let words = |ws: &[u32], digits: usize| -> String {
        ws.iter().map(|w| format!("{w:0digits$x}\n")).collect()
    };
    let vecs = |vs: &[[u32; 4]]| -> String { vs.iter().map(|v| vec4_hex(v) + "\n").collect() };
    let f24s = |vs: &[[F24; 4]]| -> Vec<[u32; 4]> { vs.iter().map(|v| v.map(F24::bits)).collect() };
    let beats = commit_beats(&run.commits);
    let mut files: Vec<(&str, String)> = vec![
        ("code.hex", words(&case.code, 8)),
        ("opdesc.hex", words(&case.opdescs, 8)),
        ("uniforms.hex", vecs(&f24s(&case.float_uniforms))),
        (
            "int_uniforms.hex",
            words(&case.int_uniforms.map(u32::from_le_bytes), 8),
        ),
        ("bool_uniforms.hex", format!("{:04x}\n", case.bool_uniforms)),
        ("inputs.hex", vecs(&f24s(&case.inputs))),
        (
            "commit.hex",
            beats.iter().map(|b| b.hex_line() + "\n").collect(),
        ),
        (
            "commit.jsonl",
            beats
                .iter()
                .map(|b| format!("{}\n", Value::Object(b.json_fields())))
                .collect(),
        ),
        ("outputs.hex", vecs(&run.outputs)),
    ];
    files.sort_by_key(|f| f.0);
    let mut hashes = BTreeMap::new();
    for (n, data) in &files {
        fs::write(dir.join(n), data)?;
        hashes.insert(n.to_string(), sha256_hex(data.as_bytes()));
    }
    let spec = <CommitBeat as Payload>::SPEC;
    let commit_fields: Vec<Value> = spec
        .layout()
        .into_iter()
        .map(|(n, lsb, w)| json!({"name": n, "lsb": lsb, "width": w}))
        .collect();
    let (kind, hang) = match run.end.split_once(' ') {
        Some(("hang", code)) => ("hang", code.parse::<u8>().unwrap_or(0)),
        _ => (run.end.as_str(), 0),
    };
    let mem = |file: &str, n: usize, width: u32, fields: Value| json!({"file": file, "words": n, "width": width, "fields": fields});
    let word32 = field_list(&[("word", 0, 32)]);
    let manifest = json!({
        "format": FORMAT,
        "version": VERSION,
        "kind": KIND_SHADER_UNIT,
        "case": name,
        "description": description,
        "provenance": {
            "source": "model",
            "generator": prov.generator,
            "model_version": pica_model_version(),
            "origin": prov.origin,
            "seed": prov.seed,
            "case_index": prov.case_index,
            "case_seed": prov.case_seed.map(|s| format!("0x{s:016x}")),
        },
        "dut": "pica_sh_unit_top",
        "knobs": knobs_json(knobs),
        "defines": defines,
        "entry": case.entry,
        "max_instructions": max_instructions,
        "memories": {
            "code": mem("code.hex", case.code.len(), 32, word32.clone()),
            "opdesc": mem("opdesc.hex", case.opdescs.len(), 32, word32.clone()),
            "uniforms": mem("uniforms.hex", case.float_uniforms.len(), 96, vec4_fields()),
            "int_uniforms": mem("int_uniforms.hex", 4, 32,
                field_list(&[("w", 24, 8), ("z", 16, 8), ("y", 8, 8), ("x", 0, 8)])),
            "bool_uniforms": mem("bool_uniforms.hex", 1, 16, field_list(&[("b", 0, 16)])),
            "inputs": mem("inputs.hex", 16, 96, vec4_fields()),
        },
        "streams": [{
            "channel": "commit",
            "hex": "commit.hex",
            "jsonl": "commit.jsonl",
            "beats": beats.len(),
            "width": spec.width(),
            "cycle_exact": false,
            "compared": "every field but cycle, unit and seq, in order",
            "fields": commit_fields,
        }],
        "final_state": {
            "outputs": mem("outputs.hex", 16, 96, vec4_fields()),
        },
        "outcome": {
            "kind": kind,
            "hang_code": hang,
            "instructions": run.commits.len(),
        },
        "files": hashes,
    });
    let text = serde_json::to_string_pretty(&manifest).map_err(std::io::Error::other)?;
    fs::write(dir.join("manifest.json"), format!("{text}\n"))?;
    Ok(manifest)
}

/// A shader-unit stage bundle read back: the case and what it expects.
#[derive(Clone, Debug)]
pub struct ShaderBundle {
    /// The manifest.
    pub manifest: Value,
    /// The case (code, descriptors, uniforms, inputs, entry).
    pub case: ShaderCase,
    /// Expected commit beats (`commit.hex`, unpacked).
    pub commits: Vec<Commit>,
    /// Expected outputs.
    pub outputs: [[u32; 4]; 16],
    /// Expected outcome as [`ShaderRun::end`] writes it.
    pub end: String,
    /// Instruction limit of the run.
    pub max_instructions: u64,
}

/// Unpacks one `commit.hex` line.
pub fn parse_commit_line(line: &str) -> Option<Commit> {
    let mut bits: Vec<bool> = Vec::with_capacity(line.len() * 4);
    for ch in line.chars() {
        let d = ch.to_digit(16)?;
        bits.extend((0..4).rev().map(|i| (d >> i) & 1 == 1));
    }
    let total = bits.len();
    let get = |lsb: u32, width: u32| -> u64 {
        (0..width).fold(0u64, |acc, i| {
            let pos = total - 1 - (lsb + width - 1 - i) as usize;
            acc << 1 | u64::from(bits.get(pos).copied().unwrap_or(false))
        })
    };
    let spec = <CommitBeat as Payload>::SPEC;
    if total < spec.width() as usize {
        return None;
    }
    let mut c = Commit::default();
    for (name, lsb, width) in spec.layout() {
        let v = get(lsb, width);
        match name.as_str() {
            "pc" => c.pc = v as u16,
            "word" => c.word = v as u32,
            "dst" => c.dst = v as u8,
            "mask" => c.mask = v as u8,
            "result.x" => c.result[0] = v as u32,
            "result.y" => c.result[1] = v as u32,
            "result.z" => c.result[2] = v as u32,
            "result.w" => c.result[3] = v as u32,
            "cmp" => c.cmp = v as u8,
            "a0x" => c.a0x = v as u32 as i32,
            "a0y" => c.a0y = v as u32 as i32,
            "al" => c.al = v as u32 as i32,
            "next_pc" => c.next_pc = v as u16,
            "emit" => c.emit = v != 0,
            "hang" => c.hang = v as u8,
            "end" => c.end = v != 0,
            _ => {}
        }
    }
    Some(c)
}

/// Reads a shader-unit stage bundle, checking its kind and every file's SHA-256.
pub fn load_shader_bundle(dir: &Path) -> Result<ShaderBundle, String> {
    let p = dir.join("manifest.json");
    let text = fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
    let m: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))?;
    if m["format"] != FORMAT || m["version"] != VERSION || m["kind"] != KIND_SHADER_UNIT {
        return Err(format!(
            "{}: not a {KIND_SHADER_UNIT} bundle",
            dir.display()
        ));
    }
    let mut contents = BTreeMap::new();
    for (name, sha) in m["files"].as_object().into_iter().flatten() {
        let f = dir.join(name);
        let data = fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        if Some(sha256_hex(data.as_bytes()).as_str()) != sha.as_str() {
            return Err(format!(
                "{}: SHA-256 does not match the manifest",
                f.display()
            ));
        }
        contents.insert(name.clone(), data);
    }
    let lines = |name: &str| -> Result<Vec<String>, String> {
        contents
            .get(name)
            .map(|t| t.lines().map(str::to_string).collect())
            .ok_or_else(|| format!("{}: no {name}", dir.display()))
    };
    let words = |name: &str| -> Result<Vec<u32>, String> {
        lines(name)?
            .iter()
            .map(|l| u32::from_str_radix(l, 16).map_err(|_| format!("{name}: bad line `{l}`")))
            .collect()
    };
    let vecs = |name: &str| -> Result<Vec<[u32; 4]>, String> {
        lines(name)?
            .iter()
            .map(|l| parse_vec4_hex(l).ok_or_else(|| format!("{name}: bad line `{l}`")))
            .collect()
    };
    let mut case = ShaderCase::empty();
    case.code = words("code.hex")?;
    case.opdescs = words("opdesc.hex")?;
    case.float_uniforms = vecs("uniforms.hex")?
        .into_iter()
        .map(|v| v.map(F24::from_bits))
        .collect();
    for (i, w) in words("int_uniforms.hex")?.into_iter().take(4).enumerate() {
        case.int_uniforms[i] = w.to_le_bytes();
    }
    case.bool_uniforms = words("bool_uniforms.hex")?.first().copied().unwrap_or(0) as u16;
    for (i, v) in vecs("inputs.hex")?.into_iter().take(16).enumerate() {
        case.inputs[i] = v.map(F24::from_bits);
    }
    case.entry = m["entry"].as_u64().unwrap_or(0) as u16;
    let commits = lines("commit.hex")?
        .iter()
        .map(|l| parse_commit_line(l).ok_or_else(|| format!("commit.hex: bad line `{l}`")))
        .collect::<Result<Vec<_>, _>>()?;
    let mut outputs = [[0u32; 4]; 16];
    for (i, v) in vecs("outputs.hex")?.into_iter().take(16).enumerate() {
        outputs[i] = v;
    }
    let o = &m["outcome"];
    let end = match o["kind"].as_str().unwrap_or("") {
        "hang" => format!("hang {}", o["hang_code"].as_u64().unwrap_or(0)),
        k => k.to_string(),
    };
    let max_instructions = m["max_instructions"].as_u64().unwrap_or(0);
    Ok(ShaderBundle {
        manifest: m,
        case,
        commits,
        outputs,
        end,
        max_instructions,
    })
}
