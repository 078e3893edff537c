//! `pica nv2a`: disassemble and run NV2A (Xbox) vertex-program images on the model's
//! [`pica_model::nv2a`] interpreter.
//!
//! Images are raw binary (`.bin`: 16 bytes per slot, four little-endian words, word 0 first) or
//! text (`.hex`/`.txt`: hex words, four per slot, `#` and `//` comments), 1 to 136 slots, with a
//! final marker at or after the start slot. Exit status: 0 ok, 2 bad input (file, arguments,
//! image or a slot that cannot run — the message names the file and slot).

use crate::input::{self, Format, InputError};
use clap::{Subcommand, ValueEnum};
use pica_model::nv2a::{
    self, disasm, Config, Machine, PairedR1, Program, Subnormals, Syntax, ZeroTimes, NUM_CONSTS,
    NUM_INPUTS, OUTPUT_NAMES,
};
use serde_json::{json, Map, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit status for bad input.
const EXIT_BAD_INPUT: u8 = 2;

/// The `pica nv2a` subcommands.
#[derive(Subcommand, Debug)]
pub enum Nv2aCmd {
    /// Disassemble a program image: one line per slot (index, four words, text).
    Disasm {
        /// Program image: .bin (16 bytes per slot) or .hex/.txt (hex words, 4 per slot).
        file: PathBuf,
        /// Text style: NV_vertex_program (`DP4 o[HPOS].x, v[0], c[96]`) or D3D
        /// (`dp4 oPos.x, v0, c[0]`, constants numbered -96..95).
        #[arg(long, value_enum, default_value_t = SyntaxArg::Nv)]
        syntax: SyntaxArg,
        /// Treat the file as this format whatever its extension.
        #[arg(long, value_enum)]
        format: Option<Format>,
    },
    /// Run a program once and print every output register it wrote.
    Run {
        /// Program image: .bin (16 bytes per slot) or .hex/.txt (hex words, 4 per slot).
        file: PathBuf,
        /// Set an input register: v0-v15, four components, decimal or 0x-prefixed f32 bits.
        #[arg(long = "in", value_name = "vN=X,Y,Z,W", value_parser = parse_input)]
        inputs: Vec<RegValue>,
        /// Set a constant register: c0-c191 (seed numbering; D3D's c0 is c96).
        #[arg(long = "const", value_name = "cN=X,Y,Z,W", value_parser = parse_const)]
        consts: Vec<RegValue>,
        /// Slot execution starts at.
        #[arg(long, value_name = "SLOT", default_value_t = 0)]
        start: usize,
        /// Print a JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Treat the file as this format whatever its extension.
        #[arg(long, value_enum)]
        format: Option<Format>,
        /// Product with a zero factor: +0 always (default) or IEEE (0*inf = NaN).
        #[arg(long, value_enum, default_value_t = ZeroArg::Zero)]
        zero_times: ZeroArg,
        /// Subnormal operands and results: keep (IEEE, default) or flush to zero.
        #[arg(long, value_enum, default_value_t = SubnormalArg::Keep)]
        subnormals: SubnormalArg,
        /// Paired MAC and ILU both writing R1: the ILU only (default, xemu) or both, ILU last
        /// (Cxbx).
        #[arg(long, value_enum, default_value_t = PairedArg::IluOnly)]
        paired_r1: PairedArg,
    },
}

/// `--syntax`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SyntaxArg {
    /// NV_vertex_program style.
    Nv,
    /// D3D vs.1.1 style.
    D3d,
}

/// `--zero-times`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ZeroArg {
    /// `0 * x = +0` for every x.
    Zero,
    /// IEEE.
    Ieee,
}

/// `--subnormals`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SubnormalArg {
    /// Keep (IEEE).
    Keep,
    /// Flush to a zero of the same sign.
    Flush,
}

/// `--paired-r1`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PairedArg {
    /// The MAC's write to R1 is dropped.
    IluOnly,
    /// Both write, the ILU last.
    IluOverMac,
}

/// A register assignment from the command line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RegValue {
    /// Register index.
    pub index: usize,
    /// x, y, z, w.
    pub value: [f32; 4],
}

/// Parses one component: a decimal float (`1.5`, `-0`, `inf`, `nan`) or `0x` f32 bits.
pub fn parse_component(s: &str) -> Result<f32, String> {
    let t = s.trim();
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return u32::from_str_radix(h, 16)
            .map(f32::from_bits)
            .map_err(|e| format!("'{t}' is not 32-bit hex: {e}"));
    }
    t.parse::<f32>()
        .map_err(|e| format!("'{t}' is not a decimal float or 0x bits: {e}"))
}

fn parse_reg(s: &str, prefix: char, count: usize, what: &str) -> Result<RegValue, String> {
    let (name, vals) = s
        .split_once('=')
        .ok_or_else(|| format!("'{s}': expected {prefix}N=X,Y,Z,W"))?;
    let index = name
        .trim()
        .strip_prefix(prefix)
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| *n < count)
        .ok_or_else(|| format!("'{name}' is not {what} ({prefix}0-{prefix}{})", count - 1))?;
    let comps: Vec<&str> = vals.split(',').collect();
    if comps.len() != 4 {
        return Err(format!(
            "'{s}': {} component(s); give all four, X,Y,Z,W",
            comps.len()
        ));
    }
    let mut value = [0.0; 4];
    for (v, c) in value.iter_mut().zip(comps) {
        *v = parse_component(c).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(RegValue { index, value })
}

/// Parses `--in vN=X,Y,Z,W`.
pub fn parse_input(s: &str) -> Result<RegValue, String> {
    parse_reg(s, 'v', NUM_INPUTS, "an input register")
}

/// Parses `--const cN=X,Y,Z,W`.
pub fn parse_const(s: &str) -> Result<RegValue, String> {
    parse_reg(s, 'c', NUM_CONSTS, "a constant register")
}

/// Reads a program image, checking for a final marker from `start` on.
pub fn load(path: &Path, format: Option<Format>, start: usize) -> Result<Program, InputError> {
    let name = path.display().to_string();
    let bytes = input::read(path)?;
    let format = format.or_else(|| Format::from_path(path)).ok_or_else(|| {
        InputError(format!(
            "{name}: unknown file type (use .bin for binary or .hex/.txt for text words, or --format)"
        ))
    })?;
    let prog = match format {
        Format::Bin => Program::from_bytes_at(&bytes, start),
        Format::Hex => Program::from_words_at(
            &input::parse_hex(&name, input::text(&name, &bytes)?)?,
            start,
        ),
    };
    prog.map_err(|e| InputError(format!("{name}: {e}")))
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(EXIT_BAD_INPUT)
}

fn print(text: &str) -> ExitCode {
    // A closed pipe (| head) is not an error worth reporting.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    ExitCode::SUCCESS
}

/// A component as JSON: a number when finite, else `"inf"`, `"-inf"` or `"nan"`.
fn json_num(x: f32) -> Value {
    if x.is_finite() {
        json!(x)
    } else if x.is_nan() {
        json!("nan")
    } else if x > 0.0 {
        json!("inf")
    } else {
        json!("-inf")
    }
}

fn reg_json(index: usize, v: [f32; 4]) -> Value {
    json!({
        "index": index,
        "bits": v.iter().map(|c| format!("0x{:08x}", c.to_bits())).collect::<Vec<_>>(),
        "values": v.iter().map(|c| json_num(*c)).collect::<Vec<_>>(),
    })
}

fn reg_line(name: &str, v: [f32; 4]) -> String {
    format!(
        "{name:<5} 0x{:08x} 0x{:08x} 0x{:08x} 0x{:08x}  ({}, {}, {}, {})\n",
        v[0].to_bits(),
        v[1].to_bits(),
        v[2].to_bits(),
        v[3].to_bits(),
        v[0],
        v[1],
        v[2],
        v[3]
    )
}

/// Runs a `pica nv2a` subcommand; prints its result or a one-line error.
pub fn main(cmd: Nv2aCmd) -> ExitCode {
    match cmd {
        Nv2aCmd::Disasm {
            file,
            syntax,
            format,
        } => {
            let prog = match load(&file, format, 0) {
                Ok(p) => p,
                Err(e) => return fail(e),
            };
            let syntax = match syntax {
                SyntaxArg::Nv => Syntax::Nv,
                SyntaxArg::D3d => Syntax::D3d,
            };
            print(&disasm::program_text(&prog, syntax))
        }
        Nv2aCmd::Run {
            file,
            inputs,
            consts,
            start,
            json,
            format,
            zero_times,
            subnormals,
            paired_r1,
        } => {
            let prog = match load(&file, format, start) {
                Ok(p) => p,
                Err(e) => return fail(e),
            };
            let cfg = Config {
                zero_times: match zero_times {
                    ZeroArg::Zero => ZeroTimes::Zero,
                    ZeroArg::Ieee => ZeroTimes::Ieee,
                },
                subnormals: match subnormals {
                    SubnormalArg::Keep => Subnormals::Keep,
                    SubnormalArg::Flush => Subnormals::Flush,
                },
                paired_r1: match paired_r1 {
                    PairedArg::IluOnly => PairedR1::IluOnly,
                    PairedArg::IluOverMac => PairedR1::IluOverMac,
                },
                ..Config::default()
            };
            let mut m = Machine::new(cfg);
            for r in inputs {
                m.inputs[r.index] = r.value;
            }
            for r in consts {
                m.consts[r.index] = r.value;
            }
            let summary = match m.run(&prog, start) {
                Ok(s) => s,
                Err(e) => return fail(format!("{}: {e}", file.display())),
            };
            let outputs: Vec<(usize, &str)> = OUTPUT_NAMES
                .iter()
                .enumerate()
                .filter_map(|(i, n)| n.map(|(_, d3d)| (i, d3d)))
                .filter(|(i, _)| m.outputs_written[*i])
                .collect();
            let written_consts: Vec<usize> = (0..nv2a::NUM_CONSTS)
                .filter(|i| m.consts_written[*i])
                .collect();
            if json {
                let mut outs = Map::new();
                for (i, name) in &outputs {
                    outs.insert((*name).to_string(), reg_json(*i, m.outputs[*i]));
                }
                let mut cs = Map::new();
                for i in &written_consts {
                    cs.insert(format!("c{i}"), reg_json(*i, m.consts[*i]));
                }
                let doc = json!({
                    "file": file.display().to_string(),
                    "start": start,
                    "final_slot": summary.final_slot,
                    "slots_run": summary.slots_run,
                    "a0": m.a0,
                    "outputs": outs,
                    "consts": cs,
                });
                let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
                print(&format!("{text}\n"))
            } else {
                let mut text = format!(
                    "{}: ran slots {}..{} ({} slots), a0.x = {}\n",
                    file.display(),
                    start,
                    summary.final_slot,
                    summary.slots_run,
                    m.a0
                );
                for (i, name) in &outputs {
                    text.push_str(&reg_line(name, m.outputs[*i]));
                }
                for i in &written_consts {
                    text.push_str(&reg_line(&format!("c{i}"), m.consts[*i]));
                }
                print(&text)
            }
        }
    }
}
