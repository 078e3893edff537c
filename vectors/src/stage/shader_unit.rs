//! Shader-unit stage bundles (`kind` = [`KIND_SHADER_UNIT`],
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

use super::bundle::{field_list, word_lines, BundleError, BundleReader, StageBundle};
use super::StageProvenance;
use crate::shader_gen::{ShaderCase, ShaderRun};
use pica_model::beat::CommitBeat;
use pica_model::num::F24;
use pica_model::shader::interp::{Commit, Knobs};
use serde_json::{json, Value};
use std::path::Path;

/// `kind` of a shader-unit stage bundle.
pub const KIND_SHADER_UNIT: &str = "stage:shader_unit";

/// The RTL top a shader-unit stage bundle replays on.
pub const SHADER_UNIT_DUT: &str = "pica_sh_unit_top";

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
    if line.len() != 24 || !line.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let lane = |i: usize| u32::from_str_radix(&line[18 - 6 * i..24 - 6 * i], 16).ok();
    Some([lane(0)?, lane(1)?, lane(2)?, lane(3)?])
}

fn vec4_fields() -> Value {
    field_list(&[("w", 72, 24), ("z", 48, 24), ("y", 24, 24), ("x", 0, 24)])
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
    let vecs = |vs: &[[u32; 4]]| -> String { vs.iter().map(|v| vec4_hex(v) + "\n").collect() };
    let f24s = |vs: &[[F24; 4]]| -> Vec<[u32; 4]> { vs.iter().map(|v| v.map(F24::bits)).collect() };
    let mut b = StageBundle::new(KIND_SHADER_UNIT, name, description, SHADER_UNIT_DUT, prov);
    b.file("code.hex", word_lines(&case.code, 8));
    b.file("opdesc.hex", word_lines(&case.opdescs, 8));
    b.file("uniforms.hex", vecs(&f24s(&case.float_uniforms)));
    b.file(
        "int_uniforms.hex",
        word_lines(&case.int_uniforms.map(u32::from_le_bytes), 8),
    );
    b.file("bool_uniforms.hex", format!("{:04x}\n", case.bool_uniforms));
    b.file("inputs.hex", vecs(&f24s(&case.inputs)));
    b.file("outputs.hex", vecs(&run.outputs));
    let commit = b.stream(
        "commit",
        &commit_beats(&run.commits),
        "every field but cycle, unit and seq, in order",
    );
    let (kind, hang) = match run.end.split_once(' ') {
        Some(("hang", code)) => ("hang", code.parse::<u8>().unwrap_or(0)),
        _ => (run.end.as_str(), 0),
    };
    let mem = |file: &str, n: usize, width: u32, fields: Value| json!({"file": file, "words": n, "width": width, "fields": fields});
    let word32 = field_list(&[("word", 0, 32)]);
    b.set("knobs", knobs_json(knobs))
        .set("defines", json!(defines))
        .set("entry", json!(case.entry))
        .set("max_instructions", json!(max_instructions))
        .set(
            "memories",
            json!({
                "code": mem("code.hex", case.code.len(), 32, word32.clone()),
                "opdesc": mem("opdesc.hex", case.opdescs.len(), 32, word32),
                "uniforms": mem("uniforms.hex", case.float_uniforms.len(), 96, vec4_fields()),
                "int_uniforms": mem("int_uniforms.hex", 4, 32,
                    field_list(&[("w", 24, 8), ("z", 16, 8), ("y", 8, 8), ("x", 0, 8)])),
                "bool_uniforms": mem("bool_uniforms.hex", 1, 16, field_list(&[("b", 0, 16)])),
                "inputs": mem("inputs.hex", 16, 96, vec4_fields()),
            }),
        )
        .set("streams", json!([commit]))
        .set(
            "final_state",
            json!({"outputs": mem("outputs.hex", 16, 96, vec4_fields())}),
        )
        .set(
            "outcome",
            json!({
                "kind": kind,
                "hang_code": hang,
                "instructions": run.commits.len(),
            }),
        );
    b.write(dir)
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
    let b = super::bundle::unpack_line::<CommitBeat>(line).ok()?;
    Some(commit_of(&b))
}

/// The commit a `commit` beat records.
fn commit_of(b: &CommitBeat) -> Commit {
    Commit {
        pc: b.pc,
        word: b.word,
        dst: b.dst,
        mask: b.mask,
        result: b.result,
        cmp: b.cmp,
        a0x: b.a0x,
        a0y: b.a0y,
        al: b.al,
        next_pc: b.next_pc,
        emit: b.emit,
        hang: b.hang,
        end: b.end,
    }
}

/// Reads a shader-unit stage bundle, checking its kind and every file's SHA-256.
pub fn load_shader_bundle(dir: &Path) -> Result<ShaderBundle, BundleError> {
    let r = BundleReader::load(dir, KIND_SHADER_UNIT)?;
    let vecs = |name: &str| -> Result<Vec<[u32; 4]>, BundleError> {
        r.parse_lines(name, |l| {
            parse_vec4_hex(l).ok_or_else(|| format!("bad line `{l}`"))
        })
    };
    let m = r.manifest();
    let mut case = ShaderCase::empty();
    case.code = r.words("code.hex")?;
    case.opdescs = r.words("opdesc.hex")?;
    case.float_uniforms = vecs("uniforms.hex")?
        .into_iter()
        .map(|v| v.map(F24::from_bits))
        .collect();
    for (i, w) in r.words("int_uniforms.hex")?.into_iter().take(4).enumerate() {
        case.int_uniforms[i] = w.to_le_bytes();
    }
    case.bool_uniforms = r.words("bool_uniforms.hex")?.first().copied().unwrap_or(0) as u16;
    for (i, v) in vecs("inputs.hex")?.into_iter().take(16).enumerate() {
        case.inputs[i] = v.map(F24::from_bits);
    }
    case.entry = m["entry"].as_u64().unwrap_or(0) as u16;
    let commits = r
        .parse_lines("commit.hex", super::bundle::unpack_line::<CommitBeat>)?
        .iter()
        .map(commit_of)
        .collect();
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
        manifest: r.into_manifest(),
        case,
        commits,
        outputs,
        end,
        max_instructions,
    })
}
