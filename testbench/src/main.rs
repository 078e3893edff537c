//! The `pica` command-line tool. `pica --help` lists the commands.

use clap::{CommandFactory, Parser, Subcommand};
use pica_model::{regs, Outcome};
use pica_rtl_bridge::coverage::CoverageBuild;
use pica_testbench::fuzz::FuzzOptions;
use pica_testbench::input;
use pica_testbench::lockstep::Options as LockstepOptions;
use pica_testbench::run::{self, RunArgs};
use pica_testbench::shader_tools_cli;
use pica_testbench::verify_cli;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit status: bad input (unreadable file, bad hex, bad arguments).
const EXIT_BAD_INPUT: u8 = 2;
/// Exit status of `pica run`: the GPU would hang.
const EXIT_HANG: u8 = 3;
/// Exit status of `pica run`: the cycle limit was reached.
const EXIT_CYCLE_LIMIT: u8 = 4;
/// Exit status of `pica gen --check`: a generated file is stale.
const EXIT_STALE: u8 = 1;

#[derive(Parser)]
#[command(
    name = "pica",
    version,
    about = "pica-cosim: a cycle-stepped, register-accurate PICA200 (3DS GPU) model"
)]
struct Cli {
    /// More log output (-v debug, -vv trace); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run command lists on the model and dump the state they leave.
    ///
    /// Several lists run one after another as consecutive submissions on the console: each
    /// starts when the previous one has finished, the GPU state carried across. A frame file
    /// (FRAME.json, format pica-frame: memory images and steps — submit, fill, transfer; schema
    /// vectors/schema/frame.v1.schema.json) runs a captured frame; transfers are recorded, not
    /// modelled.
    ///
    /// Exit status: 0 finished, 2 bad input, 3 hang, 4 cycle limit.
    Run {
        /// Command lists: .bin (little-endian words) or .hex/.txt (hex words, # and //
        /// comments), submitted in order; or one frame file (.json).
        #[arg(required = true, value_name = "LIST|FRAME.json")]
        lists: Vec<PathBuf>,
        #[command(flatten)]
        load: run::LoadOpts,
        /// Write the final state as JSON (- for stdout).
        #[arg(long, value_name = "FILE")]
        regs_json: Option<PathBuf>,
        /// Write the beats of every channel as JSON lines (- for stdout).
        #[arg(long, value_name = "FILE")]
        beats: Option<PathBuf>,
        /// Write the colour buffer (as the registers describe it, de-tiled) as a PNG.
        #[arg(long, value_name = "FILE")]
        png: Option<PathBuf>,
        /// Write the depth buffer as a grey PNG.
        #[arg(long, value_name = "FILE")]
        depth_png: Option<PathBuf>,
        #[command(flatten)]
        dumps: DumpArgs,
        /// Run the front end alone (CP and REGS, as the RTL has it): draws are recorded as
        /// trigger events and not executed.
        #[arg(long)]
        front_end: bool,
        /// With --beats: also write the `commit` channel, one line per instruction a shader
        /// unit retired (unit, vertex, pc, word, destination, mask, result, flags, a0/aL).
        #[arg(long, requires = "beats")]
        commits: bool,
        #[command(flatten)]
        knobs: pica_testbench::knobs::KnobArgs,
    },
    /// List the register table (ID, names, fields).
    Regs {
        /// Emit the whole table as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Regenerate the files derived from the model's tables (registers, shader ISA, channels)
    /// and the docs' generated pages (register, channel, facts, knobs and CLI references).
    Gen {
        /// What to generate.
        #[arg(value_enum)]
        what: GenWhat,
        /// Only check that the checked-in files are fresh (exit 1 if one is stale).
        #[arg(long)]
        check: bool,
        /// Output directory (default: the checked-in location, relative to the repository
        /// root: rtl-bridge/rtl for `rtl`, docs for `docs`).
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
    /// Run the model and the RTL in lockstep and report the first divergence.
    ///
    /// Input: a command list (+ --mem), or --bundle DIR (repeatable), or --corpus \[DIR\].
    /// Exit status: 0 equal, 1 mismatch, 2 bad input.
    Lockstep {
        /// Command lists (.bin or .hex/.txt), submitted one after another, or one frame file
        /// (.json).
        #[arg(value_name = "LIST|FRAME.json")]
        list: Vec<PathBuf>,
        #[command(flatten)]
        load: run::LoadOpts,
        /// Replay a vector bundle (or a directory of bundles).
        #[arg(long, value_name = "DIR")]
        bundle: Vec<PathBuf>,
        /// Run every bundle of the corpus (default vectors/corpus).
        #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "vectors/corpus")]
        corpus: Option<PathBuf>,
        /// RTL build to compare against: default, or an injected-bug build (mask, packer).
        #[arg(long, default_value = "default", value_parser = verify_cli::parse_variant)]
        variant: pica_rtl_bridge::Variant,
        /// On a mismatch, write a VCD of N cycles around it.
        #[arg(long, value_name = "N")]
        trace_window: Option<u64>,
        /// Where the VCD goes.
        #[arg(long, value_name = "FILE", default_value = "lockstep.vcd")]
        vcd: PathBuf,
        /// Write the report as JSON.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        /// Count RTL code coverage: run the coverage build of each RTL stage (pica_top verilated
        /// with --coverage and without the SH stage for the front end, cov_fe; cov_sh, cov_tev,
        /// cov_fop, cov_rast for --rtl-stages sh, tev, fop, rast: pica_sh_top, pica_tev_top,
        /// pica_fop_top, pica_rast_top) and write the line, branch and toggle points hit by all
        /// the cases to FILE (Verilator's coverage.dat: merge with `verilator_coverage
        /// --write`, report with `pica cov rtl report`). With several pipeline stages in RTL,
        /// one file per stage: FILE with the stage before its extension (cov.dat ->
        /// cov.tev.dat, cov.fop.dat). The RTL as written only (--variant and the stage variants
        /// default); the front end counts in the front-end lockstep alone (--rtl-stages fe
        /// without --pipeline-hold), not in a mixed run (exit 2).
        #[arg(long, value_name = "FILE")]
        rtl_coverage: Option<PathBuf>,
        /// Run a scene of the library (repeatable; `pica scene list`).
        #[arg(long, value_name = "NAME")]
        scene: Vec<String>,
        /// Run every scene of the library.
        #[arg(long)]
        scenes: bool,
        /// With the front end alone in RTL: run each case's draws through the model's
        /// pipeline beside it, so REGS is held while the pipeline is busy (`hold_i`, as on the
        /// GPU); the CP->REGS FIFO then fills and the CP stalls. Without it the front end runs
        /// alone and is never held. `pica mutate --stage fe` kills run this way name it.
        #[arg(long)]
        pipeline_hold: bool,
        /// Front-end lockstep: hold REGS on a deterministic schedule, the same cycles on both
        /// sides (`SEED[:PERCENT]`, percent of single held cycles, 25 when left out; plus one
        /// 16-cycle window in eight): backpressure the front end alone never sees, so the
        /// CP->REGS FIFO fills. `pica mutate` kills under a schedule name it.
        #[arg(long, value_name = "SEED[:PERCENT]", value_parser = pica_testbench::lockstep::HoldSchedule::parse)]
        hold: Option<pica_testbench::lockstep::HoldSchedule>,
        /// Default: fe (the front end, cycle-exact). With pipeline stages (sh): the model
        /// alone against the model with those stages in RTL, transaction-exact, down to the
        /// picture.
        #[command(flatten)]
        stages: pica_testbench::stages::RtlStageArgs,
        /// Shader knobs for every case (over a bundle's recorded ones). The front end alone
        /// runs no shader; with the SH stage in RTL, knobs its build does not implement are
        /// refused (exit 2).
        #[command(flatten)]
        knobs: pica_testbench::knobs::KnobArgs,
    },
    /// The hardware-facts ledger: every hardware fact the model relies on beyond the seeds,
    /// with its status (measured, documented or UNVERIFIED(hw) with choice, alternatives, knob
    /// and the hardware test that would settle it).
    Facts(pica_testbench::facts_cli::FactsArgs),
    /// The stage table: which stages can run in RTL (--rtl-stages) and how each is compared.
    Stages,
    /// The knobs (`--knob NAME=VALUE`): the disputed hardware cases the model can answer
    /// either way (today the shader units'), their values and defaults; `pica facts` lists
    /// every other UNVERIFIED(hw) choice.
    Knobs {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Check the Verilated f24 ALU (rtl-bridge/rtl/pica_alu_top.sv) against the model's
    /// shader ALU, op by op.
    ///
    /// Exit status: 0 every result matches, 1 a mismatch, 2 bad arguments.
    AluCheck(pica_testbench::alu_check::AluCheckArgs),
    /// Mutation score of the verification loop: run the corpus and fuzz cases against each
    /// Yosys mutant of a stage's RTL (one Verilator model, mutant chosen at run time).
    ///
    /// Stages: fe (pica_top without the shader units: the corpus in lockstep, then `pica fuzz
    /// --target regs` cases), tev, fop, rast (`pica fuzz --target tev|fop|rast --rtl` cases;
    /// --mem-latency for fop and rast), sh (one shader unit, `pica fuzz --target shader --rtl`
    /// cases; its model is built only with `PICA_MUTANTS=sh cargo build --release -p
    /// pica-testbench --bin pica`). Each fuzz kill is shrunk (unless --no-shrink) and saved
    /// under --regressions as the stage fuzzer saves a failure.
    ///
    /// Exit status: 0 every mutant killed, equivalent or a reviewed survivor, 1 an unreviewed
    /// survivor, 2 bad arguments or a broken harness.
    Mutate(pica_testbench::mutate::MutateArgs),
    /// Functional coverage: `pica cov report SOURCE`, `pica cov ratchet`, `pica cov select`;
    /// RTL code coverage: `pica cov rtl run|gen|report`.
    Cov {
        #[command(subcommand)]
        cmd: pica_testbench::cov_cli::CovCmd,
    },
    /// NV2A (Xbox) vertex programs: disassemble or run a program image.
    ///
    /// Exit status: 0 ok, 2 bad input (the message names file and slot).
    Nv2a {
        #[command(subcommand)]
        cmd: pica_testbench::nv2a_cli::Nv2aCmd,
    },
    /// The scene library: draw calls written as a driver writes them, rendered on the model.
    ///
    /// Exit status: 0 every scene finished, 2 bad input, 3 a hang, 4 a cycle limit.
    Scene {
        #[command(subcommand)]
        cmd: SceneCmd,
    },
    /// Golden-vector bundles: list the case library, generate bundles, check bundles.
    Vectors {
        #[command(subcommand)]
        cmd: VectorsCmd,
    },
    /// Fuzz register sequences (--target regs), shader programs (--target shader), the
    /// texture combiners (--target tev), the fragment operations (--target fop), the
    /// rasterizer (--target rast: CLIP + RAST) or the whole pipeline (--target pipeline:
    /// random writes spliced into the scenes): model invariants, or model vs RTL with --rtl.
    ///
    /// Exit status: 0 no failure, 1 failures (shrunk and saved as bundles), 2 bad input.
    #[command(args_conflicts_with_subcommands = true)]
    Fuzz {
        /// `pica fuzz merge REPORT...`: merge shard reports.
        #[command(subcommand)]
        sub: Option<FuzzCmd>,
        /// What to fuzz: register sequences on pica_top, shader programs on one shader unit
        /// (pica_sh_unit_top), combiner configurations and fragments on the TEV stage
        /// (pica_tev_top), configurations, framebuffers and fragments on the FOP stage
        /// (pica_fop_top), or configurations, early-depth buffers and clip-space triangles on
        /// CLIP + RAST (pica_rast_top); shader, tev, fop and rast failures are saved as stage
        /// bundles.
        #[arg(long, value_enum, default_value = "regs")]
        target: FuzzTarget,
        /// Cases in the campaign.
        #[arg(long, default_value_t = 256)]
        cases: u64,
        /// Campaign seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Run only cases i with i % N == I.
        #[arg(long, value_name = "I/N", default_value = "0/1", value_parser = verify_cli::parse_shard)]
        shard: (u64, u64),
        /// Compare against the RTL in lockstep.
        #[arg(long)]
        rtl: bool,
        /// Stage fuzzing: `sh` runs random shader programs as vertex shaders through the
        /// whole model GPU, model alone vs the SH stage in RTL; `fe` is the register fuzz
        /// with --rtl; `tev`, `fop` and `rast` are --target tev|fop|rast --rtl.
        #[arg(long, value_name = "LIST", value_parser = pica_testbench::stages::StageSet::parse)]
        rtl_stages: Option<pica_testbench::stages::StageSet>,
        /// RTL build for --rtl / --rtl-stages: default, or an injected-bug build (regs: mask,
        /// packer; shader: add_round, loop_extra, knobs_alt; sh stage: add_round, loop_extra;
        /// tev: scale_sat, buffer; fop: blend_factor, stencil_zfail, tile32; rast: fill_rule,
        /// persp, clip_plane_order).
        #[arg(long, default_value = "default")]
        variant: String,
        /// FOP / RAST with --rtl: how the stage's memory port (FOP) or early-depth port (RAST)
        /// is answered: 0 (the clock after the request), N extra clocks, or `rand:MAX[:SEED]`
        /// (random extra clocks up to MAX, and the port busy one clock in five).
        #[arg(long, value_name = "0|N|rand:MAX[:SEED]", default_value = "0",
              value_parser = pica_rtl_bridge::fop_stage::MemLatency::parse)]
        mem_latency: pica_rtl_bridge::fop_stage::MemLatency,
        /// Write the report as JSON.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        /// Where shrunk failures are saved as bundles.
        #[arg(long, value_name = "DIR", default_value = "vectors/regressions")]
        regressions: PathBuf,
        /// Stop after this many failures.
        #[arg(long, default_value_t = 1)]
        max_failures: usize,
        /// Re-check the single case with this case seed (from a report).
        #[arg(long, value_name = "CASE_SEED", value_parser = input::parse_u64)]
        replay: Option<u64>,
        /// --target regs|pipeline: no functional coverage (default: sampled, the database
        /// written beside --report as .cov.json, the bins reached in the summary).
        #[arg(long)]
        no_coverage: bool,
        /// --target regs|pipeline: coverage-guided — keep every case that reached a new
        /// functional bin (regs with --rtl: or hit a new RTL code-coverage point of the front
        /// end's coverage build, cov_fe) and spend half the budget on mutants of those (steered
        /// to bins not reached yet, spliced, a draw duplicated, one command changed); the
        /// summary gives the bins (and RTL points) reached and the pool.
        #[arg(long)]
        guided: bool,
        /// With --guided: write each case that reached a new bin as a bundle in DIR (new corpus
        /// candidates for `pica cov select`; the coverage database names these bundles as first
        /// hits). Without it a mutant's first hit is `guided 0xSEED`, which only a rerun with
        /// --keep-new makes a bundle of.
        #[arg(long, value_name = "DIR", requires = "guided")]
        keep_new: Option<PathBuf>,
        /// With --guided: also run the unguided campaign of the same seed, size and shard and
        /// print both coverage figures (with --guided --rtl, the RTL points hit too).
        #[arg(long, requires = "guided")]
        versus_unguided: bool,
        /// --target regs|tev|fop|rast --rtl, or --rtl-stages with one stage (fe, sh, tev, fop,
        /// rast): run the coverage build of that RTL stage (cov_fe: pica_top verilated with
        /// --coverage, without the SH stage; cov_tev, cov_fop, cov_rast: the stage tops;
        /// cov_sh: pica_sh_top, the four-unit SH stage) and write the RTL line, branch and
        /// toggle points the campaign's cases (and shrink steps) hit to FILE (Verilator's
        /// coverage.dat; each shard writes its own, `verilator_coverage --write` merges them,
        /// `pica cov rtl report` reports them). The RTL as written only (--variant default).
        /// Refused (exit 2) for --target shader (the single shader unit has no coverage build)
        /// and pipeline, and for several --rtl-stages at once (pica lockstep takes those).
        /// --guided --rtl guides by the front end's points with or without FILE.
        #[arg(long, value_name = "FILE")]
        rtl_coverage: Option<PathBuf>,
        /// Knobs every case runs with (regs, shader, pipeline and --rtl-stages sh targets; saved
        /// bundles record them). With RTL, knobs the build does not implement are refused
        /// (exit 2); --target tev|fop|rast take none.
        #[command(flatten)]
        knobs: pica_testbench::knobs::KnobArgs,
    },
    /// Assemble picasso shader sources (.v.pica / .g.pica) into one SHBIN, as picasso does
    /// (-o, -h/--header, -n/--no-nop): by default the bytes picasso 2.7.1 writes; --labels adds
    /// a label table naming every procedure.
    ///
    /// Exit status: 0 assembled, 2 bad input (errors name file:line:col).
    #[command(disable_help_flag = true)]
    Asm(shader_tools_cli::AsmArgs),
    /// Disassemble a SHBIN, or raw code words, into picasso assembly (re-assembles to the same
    /// binary).
    ///
    /// Exit status: 0 done, 2 bad input (SHBIN errors name the byte offset).
    Disasm {
        /// A .shbin, or raw little-endian code words (.bin).
        file: PathBuf,
        /// Operand descriptors for raw code: little-endian words.
        #[arg(long, value_name = "FILE")]
        opdescs: Option<PathBuf>,
        /// Write the assembly here instead of stdout.
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
    /// Shader units: run one program.
    Shader {
        #[command(subcommand)]
        cmd: ShaderCmd,
    },
    /// The float formats (f16, f20, f24, f31) both ways: bits → value, value → bits.
    ///
    /// Exit status: 0 done, 2 bad input.
    Num(pica_testbench::num_cli::NumArgs),
}

/// `--dump ADDR:WxH:FORMAT[:block32]=FILE` (repeatable).
#[derive(clap::Args, Clone, Debug, Default)]
struct DumpArgs {
    /// Write any colour or depth buffer as a PNG, after the run (repeatable): the WxH pixels at
    /// physical address ADDR in FORMAT — rgba8, rgb8, rgb5a1, rgb565, rgba4 (colour), d16,
    /// d24, d24s8 (depth as grey), s8 (the stencil byte of a d24s8 buffer as grey) — in 8x8
    /// tiles, or 32x32 blocks with `:block32`; W and H multiples of the tile size. Decoded by
    /// the model's framebuffer code, top row first as --png writes it. E.g. `--dump
    /// 0x18000000:400x240:rgba8=top.png`.
    #[arg(long = "dump", value_name = "ADDR:WxH:FORMAT[:block32]=FILE",
          value_parser = parse_dump)]
    dump: Vec<pica_testbench::picture::DumpSpec>,
}

fn parse_dump(s: &str) -> Result<pica_testbench::picture::DumpSpec, String> {
    s.parse()
}

#[derive(Subcommand)]
enum SceneCmd {
    /// Name and describe every scene.
    List,
    /// Render one scene: its colour buffer as a PNG, optionally its depth buffer and bundle.
    Render {
        /// Scene name (`pica scene list`).
        name: String,
        /// Where the colour buffer PNG goes.
        #[arg(long, value_name = "FILE")]
        png: Option<PathBuf>,
        /// Where the depth buffer PNG goes.
        #[arg(long, value_name = "FILE")]
        depth_png: Option<PathBuf>,
        #[command(flatten)]
        dumps: DumpArgs,
        /// Write the scene's golden-vector bundle to this directory.
        #[arg(long, value_name = "DIR")]
        vectors: Option<PathBuf>,
        /// Render with these stages in RTL (sh) and compare with the model alone, down to
        /// the picture (exit 1 on a difference).
        #[command(flatten)]
        stages: pica_testbench::stages::RtlStageArgs,
        /// Shader knobs (the bundle records them).
        #[command(flatten)]
        knobs: pica_testbench::knobs::KnobArgs,
    },
    /// Render every scene into DIR (NAME.png, NAME.depth.png; with --vectors a bundle each).
    RenderAll {
        /// Output directory.
        dir: PathBuf,
        /// Also write a bundle per scene.
        #[arg(long)]
        vectors: bool,
        /// Render with these stages in RTL (sh) and compare each scene with the model alone.
        #[command(flatten)]
        stages: pica_testbench::stages::RtlStageArgs,
        /// Shader knobs (the bundles record them).
        #[command(flatten)]
        knobs: pica_testbench::knobs::KnobArgs,
    },
}

#[derive(Subcommand)]
enum FuzzCmd {
    /// Merge the JSON reports (--report) of the shards of one campaign (--shard I/N, every I of
    /// one N once) into the report of the whole campaign: cases summed, failures in case
    /// order. Prints it, or writes it with --report.
    ///
    /// Exit status: 0 no failure, 1 failures, 2 bad input (reports of different campaigns, a
    /// shard missing or given twice).
    Merge {
        /// The shard reports.
        #[arg(required = true)]
        reports: Vec<PathBuf>,
        /// Write the merged report here instead of standard output.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum VectorsCmd {
    /// Name every case of the library.
    List,
    /// Write a bundle per library case (or per --case) under OUT; with --stage, a stage
    /// bundle per scene of the scene library.
    Gen {
        /// Output directory.
        out: PathBuf,
        /// Only this case (repeatable; with --stage a scene name, `pica scene list`).
        #[arg(long = "case", value_name = "NAME")]
        cases: Vec<String>,
        /// Write stage bundles of this stage instead (tev, fop, rast): each scene runs on the
        /// model GPU with a recorder in the stage's slot (rast: the CLIP slot, CLIP + RAST);
        /// scenes whose fragments (rast: triangles) never reach it are skipped.
        #[arg(long, value_name = "STAGE", conflicts_with = "rtl_stages")]
        stage: Option<String>,
        /// With pipeline stages (sh): each case must also agree with those stages in RTL.
        #[command(flatten)]
        stages: pica_testbench::stages::RtlStageArgs,
        /// Shader knobs every case runs with; each manifest records them (`knobs`).
        #[command(flatten)]
        knobs: pica_testbench::knobs::KnobArgs,
    },
    /// Verify bundles and replay them on the model (and the RTL with --rtl).
    ///
    /// Exit status: 0 all good, 1 a bundle is corrupt or does not replay, 2 bad arguments.
    Check {
        /// Bundles, or directories of bundles.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Also run each bundle in lockstep against the RTL.
        #[arg(long)]
        rtl: bool,
        /// With pipeline stages (sh): also replay each bundle with those stages in RTL.
        #[command(flatten)]
        stages: pica_testbench::stages::RtlStageArgs,
    },
}

#[derive(Subcommand)]
enum ShaderCmd {
    /// Run a shader program (.shbin, .pica, or raw little-endian code words) on one unit and
    /// print every output register it wrote (f24 hex and decimal).
    ///
    /// Exit status: 0 END reached, 2 bad input, 3 the shader hangs, 4 instruction limit.
    Run(pica_testbench::shader_cli::ShaderRunArgs),
    /// Write the shader-unit stage bundle of a program (code, descriptors, uniforms, inputs,
    /// the expected commit beats and outputs; docs/src/bundles.md, "Stage bundles") for
    /// `scripts/replay DIR`. Takes the options of `pica shader run` (--in, --uniform, --int,
    /// --bool, --entry, --opdescs, --max-instructions, --knob).
    ///
    /// Exit status: 0 written, 2 bad input.
    Bundle {
        /// The program and its inputs, as for `pica shader run`.
        #[command(flatten)]
        args: pica_testbench::shader_cli::ShaderRunArgs,
        /// Output directory.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FuzzTarget {
    /// Register sequences on pica_top (proptest strategies, bundles).
    Regs,
    /// Shader programs on one shader unit (stage bundles).
    Shader,
    /// Combiner configurations and fragment streams on the TEV stage (pica_tev_top; stage
    /// bundles).
    Tev,
    /// Configurations, framebuffers and fragment streams on the FOP stage (pica_fop_top;
    /// stage bundles).
    Fop,
    /// Configurations, early-depth buffers and clip-space triangles on CLIP + RAST
    /// (pica_rast_top; stage bundles).
    Rast,
    /// Random register writes spliced into the scene library's command lists, through the
    /// whole model GPU (model alone; case bundles).
    Pipeline,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum GenWhat {
    /// rtl-bridge/rtl/pica_regs_pkg.sv (register table), pica_isa_pkg.sv (shader ISA) and
    /// pica_chan_pkg.sv (channel table)
    Rtl,
    /// docs/registers.md, docs/channels.md, docs/hardware-facts.md, docs/knobs.md and
    /// docs/cli.md (this tool's CLI reference); with --check, also the relative links of
    /// README.md and docs/ (files and headings)
    Docs,
}

fn init_tracing(verbose: u8) {
    use tracing_subscriber::EnvFilter;
    let default = match verbose {
        0 => "warn",
        1 => "debug",
        _ => "trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// Makes a closed standard output (`pica vectors list | head`) end the program quietly, as a
/// Unix tool does on SIGPIPE, instead of `println!`'s panic; every other panic reports as usual.
fn exit_quietly_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.starts_with("failed printing to stdout") && msg.contains("Broken pipe") {
            // 128 + SIGPIPE, what a shell reports for a tool killed by the signal.
            std::process::exit(141);
        }
        default(info);
    }));
}

fn main() -> ExitCode {
    exit_quietly_on_broken_pipe();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_BAD_INPUT } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    init_tracing(cli.verbose);
    match cli.cmd {
        Cmd::Run {
            lists,
            load,
            regs_json,
            beats,
            png,
            depth_png,
            dumps,
            front_end,
            commits,
            knobs,
        } => {
            let args = RunArgs {
                lists,
                load,
                record_beats: beats.is_some(),
                record_commits: commits,
                pipeline: !front_end,
                knobs: knobs.knobs(),
            };
            cmd_run(&args, regs_json, beats, [png, depth_png], &dumps.dump)
        }
        Cmd::Regs { json } => {
            let text = if json {
                serde_json::to_string_pretty(&regs::to_json()).unwrap_or_default()
            } else {
                regs::text_listing()
            };
            let mut out = std::io::stdout().lock();
            // A closed pipe (pica regs | head) is not an error worth reporting.
            let _ = writeln!(out, "{text}");
            ExitCode::SUCCESS
        }
        Cmd::Gen { what, check, out } => cmd_gen(what, check, out),
        Cmd::Lockstep {
            list,
            load,
            bundle,
            corpus,
            variant,
            trace_window,
            vcd,
            report,
            rtl_coverage,
            scene,
            scenes,
            pipeline_hold,
            hold,
            stages,
            knobs,
        } => {
            let mut cases = Vec::new();
            let names: Vec<String> = if scenes {
                pica_vectors::scenes::list()
                    .map(|(n, _)| n.to_string())
                    .collect()
            } else {
                scene
            };
            for n in &names {
                match pica_vectors::scenes::scene(n) {
                    Some(s) => cases.push(s.case),
                    None => return fail(format!("no scene named '{n}' (see `pica scene list`)")),
                }
            }
            if !list.is_empty() {
                match run::load_case(&list, &load) {
                    Ok(c) => cases.push(c),
                    Err(e) => return fail(e),
                }
            }
            let mut dirs = bundle;
            dirs.extend(corpus);
            match verify_cli::load_bundles(&dirs) {
                Ok(bs) => {
                    for b in bs {
                        match b.case() {
                            Ok(c) => cases.push(c),
                            Err(e) => return fail(e),
                        }
                    }
                }
                Err(e) => return fail(e),
            }
            if cases.is_empty() {
                return fail(
                    "nothing to run: give a command list, --bundle DIR, --corpus, --scene NAME or --scenes",
                );
            }
            let set = stages
                .rtl_stages
                .clone()
                .unwrap_or_else(pica_testbench::stages::StageSet::front_end);
            // Every case runs with its own knobs (a bundle's recorded ones) and --knob over
            // them; an RTL SH build that cannot follow them is refused before anything runs.
            for c in &mut cases {
                knobs.apply(&mut c.knobs);
                if let Err(e) =
                    pica_testbench::stages::check_knobs(&set, stages.sh_variant, &c.knobs)
                {
                    return fail(format!("{}: {e}", c.name));
                }
            }
            let mixed = set.has_pipeline_stages() || (pipeline_hold && set.has_front_end());
            if mixed {
                if hold.is_some() {
                    return fail(
                        "--hold schedules the front-end lockstep: in a mixed run (--pipeline-hold, \
                         pipeline stages) the model's pipeline holds REGS",
                    );
                }
                let mut stage = stages.options();
                stage.fe_variant = variant;
                let builds = match rtl_coverage.as_ref().map(|_| stage.use_coverage(&set)) {
                    Some(Err(e)) => return fail(e),
                    Some(Ok(b)) => b,
                    None => Vec::new(),
                };
                let sopts = pica_testbench::stages::StageLockstepOptions {
                    stage,
                    trace_window,
                    vcd: vcd.clone(),
                };
                // With fe listed too, this one mixed run covers the front end (pica_top,
                // cycle-exact beside the model GPU): no separate front-end lockstep.
                return verify_cli::with_stage_coverage(&builds, rtl_coverage.as_deref(), || {
                    verify_cli::stage_lockstep(&cases, &set, &sopts, report.as_deref())
                });
            }
            if !set.has_front_end() {
                return ExitCode::SUCCESS;
            }
            let opts = LockstepOptions {
                variant,
                trace_window,
                vcd,
                hold,
                ..LockstepOptions::default()
            };
            verify_cli::lockstep(cases, &opts, report.as_deref(), rtl_coverage.as_deref())
        }
        Cmd::Facts(args) => pica_testbench::facts_cli::main(&args),
        Cmd::Stages => {
            print!("{}", pica_testbench::stages::table_text());
            ExitCode::SUCCESS
        }
        Cmd::Knobs { json } => {
            let _ = write!(
                std::io::stdout().lock(),
                "{}",
                pica_testbench::knobs::list(json)
            );
            ExitCode::SUCCESS
        }
        Cmd::Scene { cmd } => cmd_scene(cmd),
        Cmd::Vectors { cmd } => match cmd {
            VectorsCmd::List => verify_cli::vectors_list(),
            VectorsCmd::Gen {
                out,
                cases,
                stage: Some(stage),
                knobs,
                ..
            } => {
                if !knobs.is_empty() {
                    return fail(format!(
                        "--stage {stage} with --knob: stage bundles record the stage's own inputs \
                         and do not rerun shaders; generate them with the default knobs"
                    ));
                }
                verify_cli::vectors_gen_stage(&out, &stage, &cases)
            }
            VectorsCmd::Gen {
                out,
                cases,
                stages,
                stage: None,
                knobs,
            } => {
                let knobs = knobs.knobs();
                if let Some(set) = &stages.rtl_stages {
                    if let Err(e) =
                        pica_testbench::stages::check_knobs(set, stages.sh_variant, &knobs)
                    {
                        return fail(e);
                    }
                }
                let sc = stage_check(&stages);
                verify_cli::vectors_gen(&out, &cases, sc.as_ref(), knobs)
            }
            VectorsCmd::Check { dirs, rtl, stages } => {
                let sc = stage_check(&stages);
                verify_cli::vectors_check(
                    &dirs,
                    rtl.then_some(pica_rtl_bridge::Variant::Default),
                    sc.as_ref(),
                )
            }
        },
        Cmd::Fuzz {
            sub: Some(FuzzCmd::Merge { reports, report }),
            ..
        } => fuzz_merge(&reports, report.as_deref()),
        Cmd::Fuzz {
            sub: None,
            target,
            cases,
            seed,
            shard,
            rtl,
            rtl_stages,
            variant,
            mem_latency,
            report,
            regressions,
            max_failures,
            replay,
            no_coverage,
            guided,
            keep_new,
            versus_unguided,
            rtl_coverage,
            knobs,
        } => {
            if rtl_coverage.is_some()
                && rtl_stages.is_none()
                && matches!(target, FuzzTarget::Shader | FuzzTarget::Pipeline)
            {
                return fail(
                    "--rtl-coverage counts the code coverage of an RTL stage: --target regs, \
                     tev, fop or rast with --rtl, or --rtl-stages fe|sh|tev|fop|rast (--target \
                     shader runs the single shader unit, which has no coverage build: \
                     --rtl-stages sh counts the SH stage's; --target pipeline runs no RTL)",
                );
            }
            if guided
                && (!matches!(target, FuzzTarget::Regs | FuzzTarget::Pipeline)
                    || rtl_stages.is_some())
            {
                return fail(
                    "--guided fuzzes register sequences (--target regs, with or without --rtl) \
                     and the pipeline (--target pipeline); the stage targets are not guided yet",
                );
            }
            if guided && (no_coverage || replay.is_some()) {
                return fail(
                    "--guided needs functional coverage and a campaign (not --no-coverage or \
                     --replay; replay a guided mutant from its bundle with pica vectors check)",
                );
            }
            let knobs = match fuzz_knobs(target, rtl, rtl_stages.as_ref(), &variant, &knobs) {
                Ok(k) => k,
                Err(e) => return fail(e),
            };
            match (target, rtl_stages) {
                (_, Some(set)) => {
                    let opts = verify_cli::StageFuzzArgs {
                        set,
                        cases,
                        seed,
                        shard,
                        variant,
                        regressions,
                        max_failures: max_failures.max(1),
                        mem_latency,
                        knobs,
                    };
                    verify_cli::fuzz_stages(
                        &opts,
                        report.as_deref(),
                        replay,
                        rtl_coverage.as_deref(),
                    )
                }
                (FuzzTarget::Regs, None) => {
                    let variant = match verify_cli::parse_variant(&variant) {
                        Ok(v) => v,
                        Err(e) => return fail(e),
                    };
                    let opts = FuzzOptions {
                        cases,
                        seed,
                        shard,
                        rtl: rtl.then_some(variant),
                        regressions,
                        max_failures: max_failures.max(1),
                        knobs,
                    };
                    if guided {
                        return verify_cli::fuzz_guided(
                            &opts,
                            report.as_deref(),
                            keep_new.as_deref(),
                            versus_unguided,
                            rtl_coverage.as_deref(),
                        );
                    }
                    verify_cli::fuzz(
                        &opts,
                        report.as_deref(),
                        replay,
                        !no_coverage,
                        rtl_coverage.as_deref(),
                    )
                }
                (FuzzTarget::Fop, None) => {
                    let cov = match verify_cli::fuzz_coverage_build(
                        CoverageBuild::Fop,
                        rtl,
                        &variant,
                        rtl_coverage.as_deref(),
                    ) {
                        Ok(c) => c,
                        Err(e) => return fail(e),
                    };
                    let variant = match pica_testbench::fop_fuzz::parse_fop_variant(&variant) {
                        Ok(_) if cov.is_some() => pica_rtl_bridge::fop_stage::FopVariant::Coverage,
                        Ok(v) => v,
                        Err(e) => return fail(e),
                    };
                    let opts = pica_testbench::fop_fuzz::FopFuzzOptions {
                        cases,
                        seed,
                        shard,
                        rtl: rtl.then_some(variant),
                        latency: mem_latency,
                        regressions: Some(regressions),
                        max_failures: max_failures.max(1),
                        knobs,
                    };
                    verify_cli::with_stage_coverage(cov.as_slice(), rtl_coverage.as_deref(), || {
                        verify_cli::fuzz_fop(&opts, report.as_deref(), replay)
                    })
                }
                (FuzzTarget::Rast, None) => {
                    let cov = match verify_cli::fuzz_coverage_build(
                        CoverageBuild::Rast,
                        rtl,
                        &variant,
                        rtl_coverage.as_deref(),
                    ) {
                        Ok(c) => c,
                        Err(e) => return fail(e),
                    };
                    let variant = match pica_testbench::stages::parse_rast_variant(&variant) {
                        Ok(_) if cov.is_some() => {
                            pica_rtl_bridge::rast_stage::RastVariant::Coverage
                        }
                        Ok(v) => v,
                        Err(e) => return fail(e),
                    };
                    let opts = pica_testbench::rast_fuzz::RastFuzzOptions {
                        cases,
                        seed,
                        shard,
                        rtl: rtl.then_some(variant),
                        latency: mem_latency,
                        regressions: Some(regressions),
                        max_failures: max_failures.max(1),
                        knobs,
                    };
                    verify_cli::with_stage_coverage(cov.as_slice(), rtl_coverage.as_deref(), || {
                        verify_cli::fuzz_rast(&opts, report.as_deref(), replay)
                    })
                }
                (FuzzTarget::Tev, None) => {
                    let cov = match verify_cli::fuzz_coverage_build(
                        CoverageBuild::Tev,
                        rtl,
                        &variant,
                        rtl_coverage.as_deref(),
                    ) {
                        Ok(c) => c,
                        Err(e) => return fail(e),
                    };
                    let variant = match pica_testbench::stages::parse_tev_variant(&variant) {
                        Ok(_) if cov.is_some() => pica_rtl_bridge::tev_stage::TevVariant::Coverage,
                        Ok(v) => v,
                        Err(e) => return fail(e),
                    };
                    let opts = pica_testbench::tev_fuzz::TevFuzzOptions {
                        cases,
                        seed,
                        shard,
                        rtl: rtl.then_some(variant),
                        regressions: Some(regressions),
                        max_failures: max_failures.max(1),
                        knobs,
                    };
                    verify_cli::with_stage_coverage(cov.as_slice(), rtl_coverage.as_deref(), || {
                        verify_cli::fuzz_tev(&opts, report.as_deref(), replay)
                    })
                }
                (FuzzTarget::Pipeline, None) => {
                    if rtl {
                        return fail(
                            "--target pipeline runs the model alone (no RTL of the whole \
                             pipeline yet); use --rtl-stages for the RTL stages",
                        );
                    }
                    let opts = pica_testbench::pipe_fuzz::PipeFuzzOptions {
                        cases,
                        seed,
                        shard,
                        regressions,
                        max_failures: max_failures.max(1),
                        knobs,
                    };
                    if guided {
                        return verify_cli::fuzz_pipeline_guided(
                            &opts,
                            report.as_deref(),
                            keep_new.as_deref(),
                            versus_unguided,
                        );
                    }
                    verify_cli::fuzz_pipeline(&opts, report.as_deref(), replay, !no_coverage)
                }
                (FuzzTarget::Shader, None) => {
                    let variant = match pica_testbench::shader_fuzz::parse_sh_variant(&variant) {
                        Ok(v) => v,
                        Err(e) => return fail(e),
                    };
                    let opts = pica_testbench::shader_fuzz::ShaderFuzzOptions {
                        cases,
                        seed,
                        shard,
                        rtl: rtl.then_some(variant),
                        regressions: Some(regressions),
                        max_failures: max_failures.max(1),
                        knobs: (knobs != pica_model::knobs::Knobs::default())
                            .then_some(knobs.shader),
                    };
                    verify_cli::fuzz_shader(&opts, report.as_deref(), replay)
                }
            }
        }
        Cmd::Nv2a { cmd } => pica_testbench::nv2a_cli::main(cmd),
        Cmd::AluCheck(args) => pica_testbench::alu_check::main(args),
        Cmd::Mutate(args) => pica_testbench::mutate::main(&args),
        Cmd::Cov { cmd } => pica_testbench::cov_cli::main(cmd),
        Cmd::Num(args) => match pica_testbench::num_cli::main(&args) {
            Ok(text) => {
                let _ = write!(std::io::stdout().lock(), "{text}");
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        },
        Cmd::Asm(args) => match shader_tools_cli::assemble(&args) {
            Ok(line) => {
                println!("{line}");
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        },
        Cmd::Shader {
            cmd: ShaderCmd::Run(args),
        } => match pica_testbench::shader_cli::run(&args) {
            Ok(r) => {
                let _ = write!(std::io::stdout().lock(), "{}", r.stdout);
                if let Some(m) = &r.stderr {
                    eprintln!("{m}");
                }
                match r.ended {
                    pica_testbench::shader_cli::Ended::End => ExitCode::SUCCESS,
                    pica_testbench::shader_cli::Ended::Hang => ExitCode::from(EXIT_HANG),
                    pica_testbench::shader_cli::Ended::Limit => ExitCode::from(EXIT_CYCLE_LIMIT),
                }
            }
            Err(e) => fail(e),
        },
        Cmd::Shader {
            cmd: ShaderCmd::Bundle { args, out },
        } => match pica_testbench::shader_cli::bundle(&args, &out) {
            Ok(line) => {
                println!("{line}");
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        },
        Cmd::Disasm { file, opdescs, out } => {
            match shader_tools_cli::disassemble_file(&file, opdescs.as_deref()) {
                Ok(text) => match out {
                    Some(p) => match std::fs::write(&p, text) {
                        Ok(()) => ExitCode::SUCCESS,
                        Err(e) => fail(format!("{}: {e}", p.display())),
                    },
                    None => {
                        // A closed pipe (pica disasm x | head) is not an error worth reporting.
                        let _ = write!(std::io::stdout().lock(), "{text}");
                        ExitCode::SUCCESS
                    }
                },
                Err(e) => fail(e),
            }
        }
    }
}

fn scene_stages(
    a: &pica_testbench::stages::RtlStageArgs,
) -> Option<(
    pica_testbench::stages::StageSet,
    pica_testbench::stages::StageLockstepOptions,
)> {
    let set = a.rtl_stages.clone()?;
    Some((
        set,
        pica_testbench::stages::StageLockstepOptions {
            stage: a.options(),
            ..Default::default()
        },
    ))
}

/// A scene's exit status: a difference from the model alone (with RTL stages) is 1 unless
/// the run itself hung or hit the limit (3, 4).
fn scene_status(r: &pica_testbench::scene_cli::Rendered) -> u8 {
    let s = outcome_status(&r.outcome);
    match &r.stages {
        Some(st) if !st.is_equal() && s == 0 => verify_cli::EXIT_MISMATCH,
        _ => s,
    }
}

fn stage_check(a: &pica_testbench::stages::RtlStageArgs) -> Option<verify_cli::StageCheck> {
    verify_cli::StageCheck::new(
        a.rtl_stages.clone(),
        pica_testbench::stages::StageLockstepOptions {
            stage: a.options(),
            ..Default::default()
        },
    )
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(EXIT_BAD_INPUT)
}

fn cmd_run(
    args: &RunArgs,
    regs_json: Option<PathBuf>,
    beats: Option<PathBuf>,
    [png, depth_png]: [Option<PathBuf>; 2],
    dumps: &[pica_testbench::picture::DumpSpec],
) -> ExitCode {
    let r = match run::run(args) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let (regs, mem) = (r.gpu.regs(), r.gpu.mem());
    for (path, img) in [
        (
            &png,
            png.as_ref()
                .map(|_| pica_model::fop::fb::read_color_image(regs, mem)),
        ),
        (
            &depth_png,
            depth_png
                .as_ref()
                .map(|_| pica_model::fop::fb::read_depth_image(regs, mem)),
        ),
    ] {
        if let (Some(p), Some(img)) = (path, img) {
            if let Err(e) = pica_testbench::picture::write_png(p, &img) {
                return fail(e);
            }
        }
    }
    let order = regs.knobs().fop_rgb8_order;
    for d in dumps {
        if let Err(e) = d.write(mem, order) {
            return fail(e);
        }
    }
    if let Some(p) = &beats {
        let res = run::open_out(p).and_then(|mut o| {
            run::write_beats(&r.gpu, &mut *o)
                .map_err(|e| input::InputError(format!("{}: {e}", p.display())))
        });
        if let Err(e) = res {
            return fail(e);
        }
    }
    if let Some(p) = &regs_json {
        let mut doc = r.gpu.state_json(&r.outcome);
        // Where each stage stood at the end (CP state and buffer, link occupancy): what a
        // hang report needs besides the registers.
        doc["pipeline"] = r.gpu.snapshot();
        let res = run::open_out(p).and_then(|mut o| {
            serde_json::to_writer_pretty(&mut *o, &doc)
                .map_err(std::io::Error::from)
                .and_then(|()| writeln!(o))
                .and_then(|()| o.flush())
                .map_err(|e| input::InputError(format!("{}: {e}", p.display())))
        });
        if let Err(e) = res {
            return fail(e);
        }
    }
    let to_stdout = |p: &Option<PathBuf>| p.as_ref().is_some_and(|p| p.as_os_str() == "-");
    let line = run::summary(&run::lists_name(&args.lists), &r);
    // Keep stdout machine-readable when JSON goes there.
    if to_stdout(&regs_json) || to_stdout(&beats) {
        eprintln!("{line}");
    } else {
        println!("{line}");
    }
    match r.outcome {
        Outcome::Finished { .. } => ExitCode::SUCCESS,
        Outcome::Hang { .. } => ExitCode::from(EXIT_HANG),
        Outcome::CycleLimit { .. } => ExitCode::from(EXIT_CYCLE_LIMIT),
    }
}

fn outcome_status(o: &Outcome) -> u8 {
    match o {
        Outcome::Finished { .. } => 0,
        Outcome::Hang { .. } => EXIT_HANG,
        Outcome::CycleLimit { .. } => EXIT_CYCLE_LIMIT,
    }
}

fn cmd_scene(cmd: SceneCmd) -> ExitCode {
    use pica_testbench::scene_cli;
    let line = |r: &scene_cli::Rendered| {
        let mut l = format!(
            "{:<28} {:>6} triangles {:>8} fragments  {}",
            r.name, r.triangles, r.fragments, r.outcome
        );
        if let Some(st) = &r.stages {
            if st.is_equal() {
                l.push_str(&format!(
                    "  [RTL {}: same picture as the model alone; {} commits equal]",
                    st.stages,
                    st.compared.get("commit").copied().unwrap_or(0)
                ));
            } else {
                l.push('\n');
                l.push_str(&pica_testbench::stages::text_report(st));
            }
        }
        l
    };
    match cmd {
        SceneCmd::List => {
            let _ = write!(std::io::stdout().lock(), "{}", scene_cli::list_text());
            ExitCode::SUCCESS
        }
        SceneCmd::Render {
            name,
            png,
            depth_png,
            dumps,
            vectors,
            stages,
            knobs,
        } => {
            let knobs = knobs.knobs();
            if let Some(e) = scene_knob_check(&stages, &knobs) {
                return e;
            }
            let out = scene_cli::Outputs {
                png,
                depth_png,
                dumps: dumps.dump,
                vectors,
                stages: scene_stages(&stages),
                knobs,
            };
            match scene_cli::render(&name, &out) {
                Ok(r) => {
                    println!("{}", line(&r));
                    ExitCode::from(scene_status(&r))
                }
                Err(e) => fail(e),
            }
        }
        SceneCmd::RenderAll {
            dir,
            vectors,
            stages,
            knobs,
        } => {
            let knobs = knobs.knobs();
            if let Some(e) = scene_knob_check(&stages, &knobs) {
                return e;
            }
            match scene_cli::render_all(&dir, vectors, scene_stages(&stages).as_ref(), knobs) {
                Ok(rs) => {
                    let mut status = 0;
                    for r in &rs {
                        println!("{}", line(r));
                        status = status.max(scene_status(r));
                    }
                    println!("{} scenes rendered into {}/", rs.len(), dir.display());
                    ExitCode::from(status)
                }
                Err(e) => fail(e),
            }
        }
    }
}

/// `pica fuzz merge REPORT... [--report FILE]`.
fn fuzz_merge(paths: &[PathBuf], out: Option<&std::path::Path>) -> ExitCode {
    let mut reports = Vec::new();
    for p in paths {
        let text = match std::fs::read_to_string(p) {
            Ok(t) => t,
            Err(e) => return fail(format!("{}: cannot read: {e}", p.display())),
        };
        match serde_json::from_str::<pica_testbench::fuzz::FuzzReport>(&text) {
            Ok(r) => reports.push(r),
            Err(e) => return fail(format!("{}: not a fuzz report: {e}", p.display())),
        }
    }
    let merged = match pica_testbench::fuzz::merge_reports(&reports) {
        Ok(m) => m,
        Err(e) => return fail(e),
    };
    let json = match serde_json::to_string_pretty(&merged) {
        Ok(j) => j,
        Err(e) => return fail(e.to_string()),
    };
    match out {
        Some(p) => {
            if let Err(e) = std::fs::write(p, format!("{json}\n")) {
                return fail(format!("{}: cannot write: {e}", p.display()));
            }
            println!(
                "fuzz merge: {} shard report(s) of seed {} against {}: {} of {} case(s), {} failure(s) -> {}",
                reports.len(),
                merged.seed,
                merged.against,
                merged.cases_run,
                merged.cases,
                merged.failures.len(),
                p.display()
            );
        }
        None => println!("{json}"),
    }
    let shards: Vec<(u64, PathBuf)> = reports
        .iter()
        .zip(paths)
        .map(|(r, p)| {
            let i = r.shard.split('/').next().and_then(|i| i.parse().ok());
            (i.unwrap_or(0), p.clone())
        })
        .collect();
    match pica_testbench::cov_cli::merge_beside(&shards, out) {
        Ok(Some(db)) if out.is_some() => {
            let (c, t) = db.total();
            println!("coverage: {c}/{t} bins");
        }
        Ok(_) => {}
        Err(e) => return fail(e),
    }
    if merged.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The knobs of `pica fuzz`, or why they cannot run (exit 2): every target takes the syntax,
/// and where the model runs a whole GPU (`--target regs`, `--rtl-stages` with `sh`) or one
/// shader unit (`--target shader`: its knobs only) they reach it; against RTL they must be ones
/// the build implements ([`pica_testbench::stages::check_knobs`]; the one-unit RTL: its
/// variant's knobs). `--target tev|fop|rast` (and `--rtl-stages tev|fop|rast`) run one model
/// stage: they take the knobs of the stages they run (`STAGE_KNOBS` of each fuzzer: TEV; FOP;
/// CLIP and RAST), which their cases and saved stage bundles carry; another stage's knob
/// would do nothing and is refused, and so is a non-default one against the RTL stage, which
/// implements the defaults only.
fn fuzz_knobs(
    target: FuzzTarget,
    rtl: bool,
    rtl_stages: Option<&pica_testbench::stages::StageSet>,
    variant: &str,
    args: &pica_testbench::knobs::KnobArgs,
) -> Result<pica_model::knobs::Knobs, String> {
    use pica_testbench::stages::{check_knobs, StageSet};
    let knobs = args.knobs();
    if args.is_empty() {
        return Ok(knobs);
    }
    // A one-stage fuzzer: the knobs of its own stages only; with RTL, the defaults only.
    let one_stage = |what: &str, stages: &[&str], rtl: Option<&StageSet>| {
        if let Some(s) = args
            .knobs
            .iter()
            .find(|s| !stages.contains(&pica_model::knobs::stage_of(s.name).unwrap_or("")))
        {
            return Err(format!(
                "--knob {s}: a knob of stage {}, which {what} does not run (it takes the knobs \
                 of {}; run other knobs through the whole GPU: pica fuzz --target regs, \
                 pica lockstep or pica scene render)",
                pica_model::knobs::stage_of(s.name).unwrap_or("?"),
                stages.join(", ")
            ));
        }
        if let Some(set) = rtl {
            check_knobs(set, pica_rtl_bridge::shader::ShVariant::Default, &knobs)?;
        }
        Ok(knobs)
    };
    let stage_set = |name: &str| StageSet::parse(name);
    let sh_default = pica_rtl_bridge::shader::ShVariant::Default;
    if let Some(set) = rtl_stages {
        if set.rows_named(&["sh"]) {
            check_knobs(set, sh_default, &knobs)?;
            return Ok(knobs);
        }
        match set.names().as_str() {
            "tev" => {
                let k = pica_testbench::tev_fuzz::STAGE_KNOBS;
                return one_stage("--rtl-stages tev", k, Some(set));
            }
            "fop" => {
                let k = pica_testbench::fop_fuzz::STAGE_KNOBS;
                return one_stage("--rtl-stages fop", k, Some(set));
            }
            "rast" => {
                let k = pica_testbench::rast_fuzz::STAGE_KNOBS;
                return one_stage("--rtl-stages rast", k, Some(set));
            }
            _ => {}
        }
        if set.has_pipeline_stages() {
            return Err(format!(
                "--rtl-stages {} runs RTL stages without the whole GPU: --knob is not \
                 supported there (run the knob through the whole GPU: pica fuzz --target regs, \
                 --rtl-stages with sh, pica lockstep or pica scene render)",
                set.names()
            ));
        }
        check_knobs(&StageSet::front_end(), sh_default, &knobs)?;
        return Ok(knobs);
    }
    match target {
        FuzzTarget::Regs => {
            if rtl {
                check_knobs(&StageSet::front_end(), sh_default, &knobs)?;
            }
            Ok(knobs)
        }
        FuzzTarget::Shader => {
            let shader = args.shader_knobs()?;
            if rtl {
                let v = pica_testbench::shader_fuzz::parse_sh_variant(variant)?;
                if v.knobs() != shader {
                    return Err(format!(
                        "--target shader --rtl --variant {}: that build implements {}; the \
                         knobs given differ (--variant knobs_alt is every shader knob flipped but \
                         min-subnormal)",
                        v.name(),
                        if v.knobs() == pica_model::knobs::ShaderKnobs::default() {
                            "the default knobs"
                        } else {
                            "every shader knob but min-subnormal flipped"
                        }
                    ));
                }
            }
            Ok(knobs)
        }
        FuzzTarget::Tev => one_stage(
            "--target tev",
            pica_testbench::tev_fuzz::STAGE_KNOBS,
            rtl.then(|| stage_set("tev")).transpose()?.as_ref(),
        ),
        FuzzTarget::Fop => one_stage(
            "--target fop",
            pica_testbench::fop_fuzz::STAGE_KNOBS,
            rtl.then(|| stage_set("fop")).transpose()?.as_ref(),
        ),
        FuzzTarget::Rast => one_stage(
            "--target rast",
            pica_testbench::rast_fuzz::STAGE_KNOBS,
            rtl.then(|| stage_set("rast")).transpose()?.as_ref(),
        ),
        // The model alone, the whole GPU: every knob applies.
        FuzzTarget::Pipeline => Ok(knobs),
    }
}

/// With RTL stages: refuses knobs the RTL stages cannot follow (exit 2).
fn scene_knob_check(
    a: &pica_testbench::stages::RtlStageArgs,
    knobs: &pica_model::knobs::Knobs,
) -> Option<ExitCode> {
    let set = a.rtl_stages.as_ref()?;
    pica_testbench::stages::check_knobs(set, a.sh_variant, knobs)
        .err()
        .map(fail)
}

fn cmd_gen(what: GenWhat, check: bool, out: Option<PathBuf>) -> ExitCode {
    let (dir, files) = match what {
        GenWhat::Rtl => (
            "rtl-bridge/rtl",
            vec![
                ("pica_regs_pkg.sv", regs::sv_package()),
                ("pica_isa_pkg.sv", pica_model::shader::isa::sv::sv_package()),
                ("pica_chan_pkg.sv", pica_model::chan::sv_package()),
            ],
        ),
        GenWhat::Docs => (
            "docs",
            vec![
                ("registers.md", regs::markdown()),
                ("channels.md", pica_model::chan::markdown()),
                ("hardware-facts.md", pica_model::facts::markdown()),
                ("knobs.md", pica_model::knobs::markdown()),
                (
                    "cli.md",
                    pica_testbench::docs_gen::cli_markdown(Cli::command()),
                ),
            ],
        ),
    };
    // The link check reads the checked-in README.md and docs/, so only without --out.
    let check_links = check && out.is_none() && matches!(what, GenWhat::Docs);
    let dir = out.clone().unwrap_or_else(|| PathBuf::from(dir));
    let mut files: Vec<(PathBuf, String)> =
        files.into_iter().map(|(n, t)| (dir.join(n), t)).collect();
    if matches!(what, GenWhat::Rtl) {
        // The stages' replay testbenches, at their own paths (under --out: in DIR too).
        for (path, text) in pica_rtl_bridge::kit::gen_tb::files() {
            let path = PathBuf::from(path);
            let path = match &out {
                Some(o) => o.join(path.file_name().expect("a file name")),
                None => path,
            };
            files.push((path, text));
        }
    }
    let mut status = ExitCode::SUCCESS;
    for (path, text) in files {
        if check {
            match std::fs::read_to_string(&path) {
                Ok(cur) if cur == text => println!("{}: fresh", path.display()),
                Ok(_) => {
                    eprintln!(
                        "{}: stale; run `pica gen {}` to regenerate",
                        path.display(),
                        default_name(what)
                    );
                    status = ExitCode::from(EXIT_STALE);
                }
                Err(e) => return fail(format!("{}: {e}", path.display())),
            }
            continue;
        }
        match std::fs::write(&path, text) {
            Ok(()) => println!("wrote {}", path.display()),
            Err(e) => return fail(format!("{}: {e}", path.display())),
        }
    }
    if check_links {
        // The links of the checked-in README.md and docs/ (the repository root is the
        // working directory, as for the default output paths).
        use pica_testbench::docs_gen;
        let root = std::path::Path::new(".");
        let files = docs_gen::markdown_files(root);
        let errors = docs_gen::check_links(root, &files);
        for e in &errors {
            eprintln!("{e}");
        }
        if errors.is_empty() {
            println!(
                "links: {} markdown files, every relative link resolves",
                files.len()
            );
        } else {
            eprintln!("links: {} broken", errors.len());
            status = ExitCode::from(EXIT_STALE);
        }
    }
    status
}

fn default_name(w: GenWhat) -> &'static str {
    match w {
        GenWhat::Rtl => "rtl",
        GenWhat::Docs => "docs",
    }
}
