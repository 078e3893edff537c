//! `pica alu-check`: the Verilated f24 ALU (`rtl-bridge/rtl/pica_alu_top.sv`, and the shader
//! unit's multi-cycle special-function unit `pica_sh_sfu.sv` as the `*_sfu` ops, the clipper's
//! multi-cycle reciprocal `pica_f24_rcp_mc.sv` as `rcp_clip`, the rasterizer's pipelined divider
//! `pica_f24_div_p.sv` as `div_rast`, the texture units' pipelined reciprocal
//! `pica_f24_rcp_p.sv` as `rcp_tex`) against the model
//! (`pica_model::shader::alu`, and the rasterizer's f24 operations of `pica_model::rast`), op by
//! op.
//!
//! The operand plans and the comparison live in `pica_rtl_bridge::alu` (shared with
//! `rtl-bridge/tests/alu.rs`); this module parses the arguments, runs the plans and reports.

use pica_rtl_bridge::alu::{self, AluOp, CheckTally, RtlAlu};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Exit status: a mismatch.
const EXIT_MISMATCH: u8 = 1;
/// Exit status: bad arguments.
const EXIT_BAD_ARGS: u8 = 2;
/// Operand sets per FFI call.
const BATCH: usize = 1 << 14;

/// Arguments of `pica alu-check`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
Coverage of --exhaustive:
  rcp, rsq, ex2, lg2, flr, mova, fix12p4, color_u8, depth16, depth24: all 2^24 f24 input
    patterns. rcp_sfu, rsq_sfu, ex2_sfu, lg2_sfu: the same functions on the shader unit's
    multi-cycle special-function unit (pica_sh_sfu, clocked to done for each input; the one
    the shader units use), all 2^24 patterns too; rcp_clip: rcp on the clipper's multi-cycle
    reciprocal (pica_f24_rcp_mc, 2 quotient bits a clock, as pica_clip has it), all 2^24;
    rcp_tex: rcp on the texture units' pipelined reciprocal (pica_f24_rcp_p, 2 quotient bits
    a stage, as pica_tex_top has it), all 2^24.
  weight (rast::interp::weight_f24, a signed 36-bit integer to f24): every integer in
    -2^23..2^23-1 and +-(2^p + d) for every p < 36 and |d| <= 4096 (about 17.4 million inputs).
  f32_to_f24: a windowed sweep (2^32 inputs would take hours): every exponent field x both
    signs x 4096 strided mantissas plus the 128 lowest and highest mantissas, and all 2^16
    values of the low mantissa bits for the edge exponents 0 1 2 63 64 65 66 127 189 190 191
    192 254 255 (about 4.0 million inputs).
  add, mul, mad, dp3, dp4, dph, max, min, sge, slt, cmp, div: every pair of the special-value set
    (+-0, subnormals, +-min normal, +-max, 2^63, +-inf, six NaN patterns, +-1 and neighbours,
    0.5 2 3 +-1.5 0.1, 2^-31, +-2^31, 2^32, +-62 -63 +-64, the EX2 tiny-negative edge,
    +-2^-16, ...; 56 values) -- every triple for mad -- then, for the biased exponents
    1 2 62 63 64 125 126 and both signs, every mantissa of a against 4 seeded partners b (and
    c) biased towards special values, exponent edges and values close to +-a (cancellation,
    ties). The dot products take four consecutive operand pairs as their four lanes.
    div_rast: div's plan on the rasterizer's pipelined divider (pica_f24_div_p, clocked to
    done for each lane).

--random N draws N inputs per op (N results compared: one per lane for per-lane ops), a from
specials / edge exponents / uniform patterns, b and c from the same mix or close to +-a; the
same --seed gives the same operands on every host.")]
pub struct AluCheckArgs {
    /// Op to check (add mul mad dp3 dp4 dph rcp rsq ex2 lg2 flr max min sge slt cmp mova
    /// f32_to_f24; the rasterizer's div fix12p4 color_u8 depth16 depth24 weight; the shader
    /// unit's special-function unit rcp_sfu rsq_sfu ex2_sfu lg2_sfu; the clipper's multi-cycle
    /// reciprocal rcp_clip; the rasterizer's pipelined divider div_rast; the texture units'
    /// pipelined reciprocal rcp_tex), or `all`.
    #[arg(long, value_name = "OP")]
    pub op: String,
    /// Sweep the op's exhaustive plan (see below).
    #[arg(long, conflicts_with = "random")]
    pub exhaustive: bool,
    /// Check N random inputs per op.
    #[arg(long, value_name = "N")]
    pub random: Option<u64>,
    /// Seed of the random operands (and of the exhaustive plan's partners).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A knob: `max-neg-inf=zero|neg-inf|both` (default both: the MAX check runs once per
    /// setting; other ops ignore it).
    #[arg(long, value_name = "KNOB=VALUE")]
    pub knob: Vec<String>,
    /// Also write the report as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// How many mismatches to print per op.
    #[arg(long, default_value_t = 5)]
    pub show: usize,
}

/// One op's result, as printed and written to the JSON report.
#[derive(Debug, serde::Serialize)]
pub struct OpReport {
    /// Op name.
    pub op: &'static str,
    /// The MAX knob (`max_neg_inf`) this run used.
    pub max_neg_inf: bool,
    /// `exhaustive` or `random`.
    pub mode: &'static str,
    /// Totals and the first mismatches.
    #[serde(flatten)]
    pub tally: CheckTally,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Inputs per second.
    pub inputs_per_second: f64,
}

fn bad(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("pica alu-check: {msg}");
    ExitCode::from(EXIT_BAD_ARGS)
}

/// Parses `--knob` values: which MAX knob settings to run.
fn knob_settings(knobs: &[String]) -> Result<Vec<bool>, String> {
    let mut settings = vec![false, true];
    for k in knobs {
        let (name, value) = k
            .split_once('=')
            .ok_or_else(|| format!("--knob {k}: expected NAME=VALUE"))?;
        if name.replace('_', "-") != "max-neg-inf" {
            return Err(format!("--knob {k}: unknown knob (known: max-neg-inf)"));
        }
        settings = match value.replace('_', "-").as_str() {
            "zero" | "0" | "false" => vec![false],
            "neg-inf" | "neginf" | "1" | "true" => vec![true],
            "both" => vec![false, true],
            _ => return Err(format!("--knob {k}: expected zero, neg-inf or both")),
        };
    }
    Ok(settings)
}

fn hex4(w: [u32; 4], n: usize) -> String {
    let v: Vec<String> = w[..n].iter().map(|x| format!("{x:06x}")).collect();
    v.join(",")
}

/// Runs `pica alu-check`.
pub fn main(args: AluCheckArgs) -> ExitCode {
    let ops: Vec<AluOp> = if args.op.eq_ignore_ascii_case("all") {
        AluOp::ALL.to_vec()
    } else {
        match AluOp::from_name(&args.op) {
            Some(op) => vec![op],
            None => return bad(format!("unknown op `{}`", args.op)),
        }
    };
    if !args.exhaustive && args.random.is_none() {
        return bad("give --exhaustive or --random N");
    }
    let knobs = match knob_settings(&args.knob) {
        Ok(k) => k,
        Err(e) => return bad(e),
    };
    let mut rtl = match RtlAlu::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("pica alu-check: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mode = if args.exhaustive {
        "exhaustive"
    } else {
        "random"
    };
    let mut reports = Vec::new();
    for op in ops {
        let settings: &[bool] = if op == AluOp::Max { &knobs } else { &[false] };
        for &knob in settings {
            let mut tally = CheckTally::default();
            let start = Instant::now();
            let mut run = |sets: &[alu::OperandSet]| {
                alu::check_batch(&mut rtl, op, knob, sets, args.show, &mut tally);
            };
            match args.random {
                Some(n) if !args.exhaustive => {
                    let per = alu::results_per_set(op) as u64;
                    alu::random_plan(op, n.div_ceil(per), args.seed, BATCH, &mut run);
                }
                _ => alu::exhaustive_plan(op, args.seed, BATCH, &mut run),
            }
            let seconds = start.elapsed().as_secs_f64();
            let r = OpReport {
                op: op.name(),
                max_neg_inf: knob,
                mode,
                inputs_per_second: tally.inputs as f64 / seconds.max(1e-9),
                tally,
                seconds,
            };
            print_report(op, &r);
            reports.push(r);
        }
    }
    let total: u64 = reports.iter().map(|r| r.tally.mismatches).sum();
    let inputs: u64 = reports.iter().map(|r| r.tally.inputs).sum();
    let secs: f64 = reports.iter().map(|r| r.seconds).sum();
    println!(
        "total: {inputs} inputs, {total} mismatching sets, {secs:.1} s ({})",
        if total == 0 { "PASS" } else { "FAIL" }
    );
    if let Some(path) = &args.json {
        let doc = serde_json::json!({
            "mode": mode,
            "seed": args.seed,
            "ops": reports,
            "total_inputs": inputs,
            "total_mismatches": total,
            "seconds": secs,
        });
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        if let Err(e) = std::fs::write(path, text + "\n") {
            return bad(format!("{}: {e}", path.display()));
        }
    }
    if total == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_MISMATCH)
    }
}

fn print_report(op: AluOp, r: &OpReport) {
    let knob = if op == AluOp::Max {
        if r.max_neg_inf {
            " [max-neg-inf=neg-inf]"
        } else {
            " [max-neg-inf=zero]"
        }
    } else {
        ""
    };
    println!(
        "{:<10}{knob} {} inputs ({} sets), {} mismatching sets, {:.2} s, {:.2} M inputs/s",
        r.op,
        r.tally.inputs,
        r.tally.sets,
        r.tally.mismatches,
        r.seconds,
        r.inputs_per_second / 1e6
    );
    // WEIGHT's integer spans lanes x and y.
    let lanes = if op == AluOp::Weight {
        2
    } else if op.scalar() {
        1
    } else {
        4
    };
    for m in &r.tally.first {
        println!(
            "  a=[{}] b=[{}] c=[{}]: rtl=[{}] model=[{}]",
            hex4(m.a, lanes),
            hex4(m.b, lanes),
            hex4(m.c, lanes),
            hex4(m.rtl, lanes),
            hex4(m.model, lanes)
        );
    }
}
