//! `pica shader run`: run one shader program on one unit and print what it wrote.
//!
//! Programs: `.shbin` (SHBIN loader), `.pica` (assembler), or raw little-endian code words
//! (any other extension; operand descriptors from `--opdescs FILE`, entry `--entry N`).
//! Values are `x,y,z,w`, each a decimal (converted with the model's truncation rule,
//! [`F24::from_f64_trunc`]) or `0x` raw f24 bits.
//!
//! The unit starts as [`ShaderUnit::start`] leaves it (stacks empty); the registers a previous
//! invocation would have left — the condition flags, a0 and aL — can be set with `--cmp`,
//! `--a0` and `--al`. The report ends with the control state: a0, aL, the flags, the PC and the
//! CALL, IF and LOOP stacks (oldest entry first).

use super::{fail, EXIT_CYCLE_LIMIT, EXIT_HANG};
use crate::input::InputError;
use pica_model::num::F24;
use pica_model::regfile::unit::UnitConfig;
use pica_model::shader::interp::{Emitted, Knobs, RunEnd, ShaderUnit, Step, TraceReg, Vec4};
use pica_model::shader::shbin::{ConstValue, Shbin};
use pica_model::shader::{asm, disasm};
use serde_json::{json, Map, Value};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `pica shader run` (also its command-line definition).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct ShaderRunArgs {
    /// The program.
    pub program: PathBuf,
    /// Entry label (.shbin: its label table, which `pica asm --labels` writes; .pica: any
    /// procedure) or word address (raw code).
    #[arg(long)]
    pub entry: Option<String>,
    /// Input register: v0=x,y,z,w (decimal, or 0x f24 bits). Repeatable.
    #[arg(long = "in", value_name = "vN=x,y,z,w")]
    pub inputs: Vec<String>,
    /// Float uniform: c4=x,y,z,w. Repeatable.
    #[arg(long = "uniform", value_name = "cN=x,y,z,w")]
    pub uniforms: Vec<String>,
    /// Integer uniform: i0=x,y,z,w (0-255 each). Repeatable.
    #[arg(long = "int", value_name = "iN=x,y,z,w")]
    pub ints: Vec<String>,
    /// Bool uniform: b3=1. Repeatable.
    #[arg(long = "bool", value_name = "bN=0|1")]
    pub bools: Vec<String>,
    /// Run as a geometry shader (geometry DVLE; prints the EMITted vertices).
    #[arg(long)]
    pub gs: bool,
    /// Operand descriptors for raw code: little-endian words.
    #[arg(long, value_name = "FILE")]
    pub opdescs: Option<PathBuf>,
    /// Stop after this many instructions (exit 4).
    #[arg(long, default_value_t = 1_000_000)]
    pub max_instructions: u64,
    /// Print a per-instruction trace (PC, instruction, registers written).
    #[arg(long)]
    pub trace: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// The disputed hardware cases (`--knob NAME=VALUE`, shared with the other commands).
    #[command(flatten)]
    pub knobs: crate::knobs::KnobArgs,
    /// Initial condition flags cmp.x,cmp.y (0/1 or false/true; default 0,0), as a previous
    /// invocation may leave them.
    #[arg(long, value_name = "X,Y")]
    pub cmp: Option<String>,
    /// Initial address registers a0.x,a0.y (integers; default 0,0).
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub a0: Option<String>,
    /// Initial loop counter aL (default 0).
    #[arg(long = "al", value_name = "N", allow_negative_numbers = true)]
    pub al: Option<i32>,
}

/// How a run ended, for the exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// END.
    End,
    /// A hang (exit 3).
    Hang,
    /// The instruction limit (exit 4).
    Limit,
}

/// The printed report and how the run ended.
#[derive(Clone, Debug)]
pub struct ShaderReport {
    /// Text or JSON to print on stdout.
    pub stdout: String,
    /// Message for stderr (hang reason, limit).
    pub stderr: Option<String>,
    /// How it ended.
    pub ended: Ended,
}

fn bad(msg: impl Into<String>) -> InputError {
    InputError(msg.into())
}

/// Little-endian words of a binary file (the `pica run` binary-list rule).
fn read_words(path: &Path) -> Result<Vec<u32>, InputError> {
    crate::input::read_words(path, Some(crate::input::Format::Bin))
}

fn parse_f24(t: &str) -> Result<F24, InputError> {
    let t = t.trim();
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        let v = u32::from_str_radix(h, 16).map_err(|_| bad(format!("bad hex value `{t}`")))?;
        if v > 0xFF_FFFF {
            return Err(bad(format!("`{t}` does not fit in 24 bits")));
        }
        return Ok(F24::from_bits(v));
    }
    let x: f64 = t
        .parse()
        .map_err(|_| bad(format!("bad number `{t}` (decimal or 0x f24 bits)")))?;
    Ok(F24::from_f64_trunc(x))
}

/// Splits `name=value` and parses the register number after `prefix`.
fn reg_assign(arg: &str, prefix: char, limit: usize) -> Result<(usize, &str), InputError> {
    let (name, value) = arg
        .split_once('=')
        .ok_or_else(|| bad(format!("`{arg}`: expected {prefix}N=...")))?;
    let n = name
        .trim()
        .strip_prefix(prefix)
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n < limit)
        .ok_or_else(|| {
            bad(format!(
                "`{name}`: expected {prefix}0-{prefix}{}",
                limit - 1
            ))
        })?;
    Ok((n, value))
}

fn parse_vec4(t: &str) -> Result<Vec4, InputError> {
    let parts: Vec<&str> = t.split(',').collect();
    if parts.len() != 4 {
        return Err(bad(format!("`{t}`: expected four values x,y,z,w")));
    }
    let mut out = [F24::ZERO; 4];
    for (o, p) in out.iter_mut().zip(parts) {
        *o = parse_f24(p)?;
    }
    Ok(out)
}

/// Loads the program into a unit configuration; returns it and the entry point.
fn load(args: &ShaderRunArgs) -> Result<(UnitConfig, u16), InputError> {
    let path = &args.program;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let mut cfg = UnitConfig::default();
    let shbin = match ext {
        "shbin" => {
            let bytes = std::fs::read(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
            Some(Shbin::parse(&bytes).map_err(|e| bad(format!("{}: {e}", path.display())))?)
        }
        "pica" => {
            let src = std::fs::read_to_string(path)
                .map_err(|e| bad(format!("{}: {e}", path.display())))?;
            // With the label table (not picasso's bytes, but nothing is written): `--entry`
            // may name any procedure.
            let name = path.display().to_string();
            let options = asm::Options {
                labels: true,
                ..asm::Options::default()
            };
            let program = asm::assemble_files(&[(name.as_str(), src.as_str())], options)
                .map_err(|e| bad(e.to_string()))?;
            Some(program.shbin)
        }
        _ => None,
    };
    let entry = match shbin {
        Some(s) => {
            copy(&mut cfg.code, &s.code, "code")?;
            copy(&mut cfg.opdescs, &s.opdescs, "operand descriptors")?;
            let dvle = s
                .dvles
                .iter()
                .find(|d| d.geometry == args.gs)
                .or_else(|| s.dvles.first())
                .ok_or_else(|| bad(format!("{}: no DVLE", path.display())))?;
            for c in &dvle.constants {
                let r = usize::from(c.reg);
                match c.value {
                    ConstValue::Bool(b) if r < 16 => {
                        cfg.bool_uniforms = (cfg.bool_uniforms & !(1 << r)) | (u16::from(b) << r)
                    }
                    ConstValue::Int(v) if r < 4 => cfg.int_uniforms[r] = v,
                    ConstValue::Float(v) if r < 96 => cfg.float_uniforms[r] = v,
                    _ => {}
                }
            }
            cfg.outmap_mask = dvle.output_mask;
            match &args.entry {
                Some(name) => {
                    let l = dvle
                        .label(name)
                        .ok_or_else(|| bad(format!("no label `{name}` in the program")))?;
                    l.offset
                }
                None => dvle.entry,
            }
        }
        None => {
            copy(&mut cfg.code, &read_words(path)?, "code")?;
            if let Some(p) = &args.opdescs {
                copy(&mut cfg.opdescs, &read_words(p)?, "operand descriptors")?;
            }
            match &args.entry {
                Some(e) => parse_u32(e)?,
                None => 0,
            }
        }
    };
    let entry = u16::try_from(entry)
        .ok()
        .filter(|&e| e < 4096)
        .ok_or_else(|| bad(format!("entry point {entry} is outside code memory")))?;
    for u in &args.uniforms {
        let (n, v) = reg_assign(u, 'c', 96)?;
        cfg.float_uniforms[n] = parse_vec4(v)?;
    }
    for i in &args.ints {
        let (n, v) = reg_assign(i, 'i', 4)?;
        let parts: Vec<&str> = v.split(',').collect();
        if parts.len() != 4 {
            return Err(bad(format!("`{i}`: expected four values x,y,z,w")));
        }
        for (o, p) in cfg.int_uniforms[n].iter_mut().zip(parts) {
            *o = u8::try_from(parse_u32(p)?).map_err(|_| bad(format!("`{p}` exceeds 255")))?;
        }
    }
    for b in &args.bools {
        let (n, v) = reg_assign(b, 'b', 16)?;
        let on = match v.trim() {
            "1" | "true" => true,
            "0" | "false" => false,
            _ => return Err(bad(format!("`{b}`: expected 0 or 1"))),
        };
        cfg.bool_uniforms = (cfg.bool_uniforms & !(1 << n)) | (u16::from(on) << n);
    }
    Ok((cfg, entry))
}

fn parse_bool(t: &str) -> Result<bool, InputError> {
    match t.trim() {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        other => Err(bad(format!("`{other}`: expected 0, 1, false or true"))),
    }
}

/// `X,Y` into two values.
fn pair<'a>(t: &'a str, what: &str) -> Result<(&'a str, &'a str), InputError> {
    t.split_once(',')
        .filter(|(_, y)| !y.contains(','))
        .ok_or_else(|| bad(format!("--{what} `{t}`: expected X,Y")))
}

/// Applies `--cmp`, `--a0` and `--al` to a started unit.
fn initial_state(args: &ShaderRunArgs, unit: &mut ShaderUnit) -> Result<(), InputError> {
    if let Some(c) = &args.cmp {
        let (x, y) = pair(c, "cmp")?;
        unit.cmp = [parse_bool(x)?, parse_bool(y)?];
    }
    if let Some(a) = &args.a0 {
        let (x, y) = pair(a, "a0")?;
        let int = |t: &str| {
            t.trim()
                .parse::<i32>()
                .map_err(|_| bad(format!("--a0: `{}` is not an integer", t.trim())))
        };
        unit.a0 = [int(x)?, int(y)?];
    }
    if let Some(al) = args.al {
        unit.al = al;
    }
    Ok(())
}

/// The control state a run ends with, as JSON.
fn state_json(unit: &ShaderUnit) -> Value {
    json!({
        "pc": unit.pc,
        "a0": unit.a0,
        "al": unit.al,
        "cmp": {"x": unit.cmp[0], "y": unit.cmp[1]},
        "call_stack": unit.call_stack.entries(),
        "if_stack": unit.if_stack.entries(),
        "loop_stack": unit.loop_stack.entries(),
    })
}

/// The control state a run ends with, as text lines.
fn state_text(unit: &ShaderUnit) -> String {
    let mut t = format!(
        "a0 = ({}, {})  aL = {}  cmp = (x {}, y {})  pc = 0x{:03x}\n",
        unit.a0[0],
        unit.a0[1],
        unit.al,
        u8::from(unit.cmp[0]),
        u8::from(unit.cmp[1]),
        unit.pc
    );
    let list = |items: Vec<String>| {
        if items.is_empty() {
            "empty".to_string()
        } else {
            items.join(", ")
        }
    };
    let calls = unit
        .call_stack
        .entries()
        .iter()
        .map(|c| format!("[at 0x{:03x} return to 0x{:03x}]", c.trigger, c.ret))
        .collect();
    let ifs = unit
        .if_stack
        .entries()
        .iter()
        .map(|e| format!("[at 0x{:03x} go to 0x{:03x}]", e.trigger, e.target))
        .collect();
    let loops = unit
        .loop_stack
        .entries()
        .iter()
        .map(|l| {
            format!(
                "[body 0x{:03x}-0x{:03x}, {} more, step {}, aL before {}]",
                l.start,
                l.end.wrapping_sub(1),
                l.remaining,
                l.step,
                l.saved_al
            )
        })
        .collect();
    let _ = writeln!(t, "call stack (oldest first): {}", list(calls));
    let _ = writeln!(t, "if stack (oldest first): {}", list(ifs));
    let _ = writeln!(t, "loop stack (oldest first): {}", list(loops));
    t
}

fn parse_u32(t: &str) -> Result<u32, InputError> {
    let t = t.trim();
    let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16),
        None => t.parse(),
    };
    r.map_err(|_| bad(format!("bad number `{t}`")))
}

fn copy(dst: &mut [u32], src: &[u32], what: &str) -> Result<(), InputError> {
    if src.len() > dst.len() {
        return Err(bad(format!(
            "{} words of {what} exceed the unit's {}",
            src.len(),
            dst.len()
        )));
    }
    dst[..src.len()].copy_from_slice(src);
    Ok(())
}

fn hex4(v: &Vec4) -> Vec<String> {
    v.iter().map(|c| format!("0x{:06x}", c.bits())).collect()
}

fn text4(v: &Vec4) -> String {
    let hex = v
        .iter()
        .map(|c| format!("0x{:06x}", c.bits()))
        .collect::<Vec<_>>()
        .join(" ");
    let dec = v
        .iter()
        .map(|c| format!("{}", c.to_f64()))
        .collect::<Vec<_>>()
        .join(", ");
    format!("{hex}  ({dec})")
}

fn emitted_json(e: &Emitted, mask: u16) -> Value {
    let mut outs = Map::new();
    for (i, v) in e.outputs.iter().enumerate() {
        if (mask >> i) & 1 != 0 || mask == 0 {
            outs.insert(format!("o{i}"), json!(hex4(v)));
        }
    }
    json!({
        "vtx_id": e.vtx_id,
        "winding": e.winding,
        "primitive": e.primitive.is_some(),
        "outputs": outs,
    })
}

/// Runs `pica shader run`.
pub fn run(args: &ShaderRunArgs) -> Result<ShaderReport, InputError> {
    let (cfg, entry) = load(args)?;
    let knobs: Knobs = args.knobs.shader_knobs().map_err(bad)?;
    let mut unit = ShaderUnit::new(knobs);
    for v in &args.inputs {
        let (n, val) = reg_assign(v, 'v', 16)?;
        unit.inputs[n] = parse_vec4(val)?;
    }
    let mut emitted = Vec::new();
    let mut trace_text = String::new();
    let mut written: u64 = 0;
    unit.start(entry);
    initial_state(args, &mut unit)?;
    let end = loop {
        if unit.executed >= args.max_instructions {
            break RunEnd::Limit;
        }
        let pc = unit.pc;
        let word = cfg.code.get(usize::from(pc)).copied().unwrap_or(0);
        let mut writes = Vec::new();
        let before = emitted.len();
        let step = unit.step(&cfg, args.trace.then_some(&mut writes), &mut emitted);
        written |= unit.written_mask();
        if args.trace {
            let _ = write!(
                trace_text,
                "{pc:03x}: {:08x}  {:<40}",
                word,
                disasm::describe(word, &cfg.opdescs)
            );
            for w in &writes {
                let name = match w.reg {
                    TraceReg::Dst(d) => d.to_string(),
                    TraceReg::A0 => "a0".into(),
                    TraceReg::Cmp => "cmp".into(),
                };
                let _ = write!(trace_text, " {name} = {}", text4(&w.value));
            }
            if emitted.len() > before {
                let _ = write!(trace_text, " [emit]");
            }
            trace_text.push('\n');
        }
        match step {
            Step::Continue => {}
            Step::End => break RunEnd::End,
            Step::Hang(h) => break RunEnd::Hang(h),
        }
    };
    let (ended, stderr) = match end {
        RunEnd::End => (Ended::End, None),
        RunEnd::Hang(h) => (Ended::Hang, Some(format!("hang: {h}"))),
        RunEnd::Limit => (
            Ended::Limit,
            Some(format!(
                "instruction limit of {} reached",
                args.max_instructions
            )),
        ),
    };
    let outs: Vec<(usize, Vec4)> = (0..16)
        .filter(|i| (written >> (4 * i)) & 0xF != 0)
        .map(|i| (i, unit.outputs()[i]))
        .collect();
    let stdout = if args.json {
        let mut o = Map::new();
        for (i, v) in &outs {
            o.insert(format!("o{i}"), json!(hex4(v)));
        }
        let mut outcome = serde_json::to_value(end).unwrap_or_else(|_| json!({}));
        if let (Some(m), Some(msg)) = (outcome.as_object_mut(), &stderr) {
            m.insert("message".into(), json!(msg));
        }
        let mut doc = json!({
            "outputs": o,
            "emitted": emitted.iter().map(|e| emitted_json(e, cfg.outmap_mask)).collect::<Vec<_>>(),
            "outcome": outcome,
            "instructions": unit.executed,
            "state": state_json(&unit),
        });
        if args.trace {
            doc["trace"] = json!(trace_text.lines().collect::<Vec<_>>());
        }
        serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
    } else {
        let mut t = trace_text;
        for (i, v) in &outs {
            let _ = writeln!(t, "o{i:<2} = {}", text4(v));
        }
        for (n, e) in emitted.iter().enumerate() {
            let _ = writeln!(
                t,
                "emit {n}: slot {}{}{}",
                e.vtx_id,
                if e.primitive.is_some() {
                    ", primitive"
                } else {
                    ""
                },
                if e.winding { ", winding" } else { "" }
            );
            for (i, v) in e.outputs.iter().enumerate() {
                if (cfg.outmap_mask >> i) & 1 != 0 {
                    let _ = writeln!(t, "  o{i:<2} = {}", text4(v));
                }
            }
        }
        t.push_str(&state_text(&unit));
        let _ = writeln!(t, "{} instructions", unit.executed);
        t
    };
    Ok(ShaderReport {
        stdout,
        stderr,
        ended,
    })
}

/// `pica shader bundle`: writes the shader-unit stage bundle of the program in `args` (its
/// inputs, uniforms, entry point, knobs and instruction limit) into `out`. Returns a summary
/// line.
pub fn bundle(args: &ShaderRunArgs, out: &Path) -> Result<String, InputError> {
    use pica_vectors::shader_gen::{run_model, ShaderCase};
    use pica_vectors::stage::{write_shader_bundle, StageProvenance};
    let (cfg, entry) = load(args)?;
    if args.cmp.is_some() || args.a0.is_some() || args.al.is_some() {
        return Err(bad(
            "a shader bundle starts from a reset unit: --cmp, --a0 and --al are for \
             `pica shader run` only",
        ));
    }
    let knobs: Knobs = args.knobs.shader_knobs().map_err(bad)?;
    let mut inputs = [[F24::ZERO; 4]; 16];
    for v in &args.inputs {
        let (n, val) = reg_assign(v, 'v', 16)?;
        inputs[n] = parse_vec4(val)?;
    }
    let case = ShaderCase::from_config(&cfg, cfg.code.len(), inputs, entry);
    let run = run_model(&case, knobs, args.max_instructions);
    let defines: &[&str] = if knobs == Knobs::default() {
        &[]
    } else if knobs == pica_rtl_bridge::shader::ShVariant::KnobsAlt.knobs() {
        &["PICA_SH_KNOBS_ALT"]
    } else {
        return Err(bad(
            "the RTL builds implement the default knobs or all of them flipped (pica_sh_unit_top \
             PICA_SH_KNOBS_ALT); other knob mixes have no replayable build",
        ));
    };
    let name = args.program.file_stem().map_or_else(
        || "shader".to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    let prov = StageProvenance {
        generator: crate::generator(),
        origin: args.program.display().to_string(),
        ..StageProvenance::default()
    };
    write_shader_bundle(
        out,
        &name,
        &format!("pica shader bundle {}", args.program.display()),
        &case,
        &run,
        &knobs,
        defines,
        args.max_instructions,
        &prov,
    )
    .map_err(|e| bad(format!("{}: {e}", out.display())))?;
    Ok(format!(
        "{}: {} code words, {} commit beats, {}",
        out.display(),
        case.code.len(),
        run.commits.len(),
        run.end
    ))
}

/// `pica shader` subcommands.
#[derive(clap::Subcommand)]
pub enum ShaderCmd {
    /// Run a shader program (.shbin, .pica, or raw little-endian code words) on one unit and
    /// print every output register it wrote (f24 hex and decimal).
    ///
    /// Exit status: 0 END reached, 2 bad input, 3 the shader hangs, 4 instruction limit.
    Run(ShaderRunArgs),
    /// Write the shader-unit stage bundle of a program (code, descriptors, uniforms, inputs,
    /// the expected commit beats and outputs; docs/src/bundles.md, "Stage bundles") for
    /// `scripts/replay DIR`. Takes the options of `pica shader run` (--in, --uniform, --int,
    /// --bool, --entry, --opdescs, --max-instructions, --knob).
    ///
    /// Exit status: 0 written, 2 bad input.
    Bundle {
        /// The program and its inputs, as for `pica shader run`.
        #[command(flatten)]
        args: ShaderRunArgs,
        /// Output directory.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
}

/// Runs `pica shader`.
pub fn main(cmd: ShaderCmd) -> ExitCode {
    match cmd {
        ShaderCmd::Run(args) => match run(&args) {
            Ok(r) => {
                let _ = write!(std::io::stdout().lock(), "{}", r.stdout);
                if let Some(m) = &r.stderr {
                    eprintln!("{m}");
                }
                match r.ended {
                    Ended::End => ExitCode::SUCCESS,
                    Ended::Hang => ExitCode::from(EXIT_HANG),
                    Ended::Limit => ExitCode::from(EXIT_CYCLE_LIMIT),
                }
            }
            Err(e) => fail(e),
        },
        ShaderCmd::Bundle { args, out } => match bundle(&args, &out) {
            Ok(line) => {
                println!("{line}");
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        },
    }
}
