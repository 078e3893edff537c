//! The `pica` command-line tool. `pica --help` lists the commands.

use clap::{CommandFactory, Parser, Subcommand};
use pica_model::regs;
use pica_testbench::cli::{self, fail, EXIT_BAD_INPUT};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

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
    Run(cli::run::RunCmdArgs),
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
    Lockstep(cli::lockstep::LockstepArgs),
    /// The hardware-facts ledger: every hardware fact the model relies on beyond the seeds,
    /// with its status (measured, documented or UNVERIFIED(hw) with choice, alternatives, knob
    /// and the hardware test that would settle it).
    Facts(cli::facts::FactsArgs),
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
    AluCheck(cli::alu_check::AluCheckArgs),
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
        cmd: cli::cov::CovCmd,
    },
    /// NV2A (Xbox) vertex programs: disassemble or run a program image.
    ///
    /// Exit status: 0 ok, 2 bad input (the message names file and slot).
    Nv2a {
        #[command(subcommand)]
        cmd: cli::nv2a::Nv2aCmd,
    },
    /// The scene library: draw calls written as a driver writes them, rendered on the model.
    ///
    /// Exit status: 0 every scene finished, 2 bad input, 3 a hang, 4 a cycle limit.
    Scene {
        #[command(subcommand)]
        cmd: cli::scene::SceneCmd,
    },
    /// Golden-vector bundles: list the case library, generate bundles, check bundles.
    Vectors {
        #[command(subcommand)]
        cmd: cli::vectors::VectorsCmd,
    },
    /// Fuzz register sequences (--target regs), shader programs (--target shader), the
    /// texture combiners (--target tev), the fragment operations (--target fop), the
    /// rasterizer (--target rast: CLIP + RAST) or the whole pipeline (--target pipeline:
    /// random writes spliced into the scenes): model invariants, or model vs RTL with --rtl.
    ///
    /// Exit status: 0 no failure, 1 failures (shrunk and saved as bundles), 2 bad input.
    #[command(args_conflicts_with_subcommands = true)]
    Fuzz(cli::fuzz::FuzzArgs),
    /// Assemble picasso shader sources (.v.pica / .g.pica) into one SHBIN, as picasso does
    /// (-o, -h/--header, -n/--no-nop): by default the bytes picasso 2.7.1 writes; --labels adds
    /// a label table naming every procedure.
    ///
    /// Exit status: 0 assembled, 2 bad input (errors name file:line:col).
    #[command(disable_help_flag = true)]
    Asm(cli::shader_tools::AsmArgs),
    /// Disassemble a SHBIN, or raw code words, into picasso assembly (re-assembles to the same
    /// binary).
    ///
    /// Exit status: 0 done, 2 bad input (SHBIN errors name the byte offset).
    Disasm(cli::shader_tools::DisasmArgs),
    /// Shader units: run one program.
    Shader {
        #[command(subcommand)]
        cmd: cli::shader::ShaderCmd,
    },
    /// The float formats (f16, f20, f24, f31) both ways: bits → value, value → bits.
    ///
    /// Exit status: 0 done, 2 bad input.
    Num(cli::num::NumArgs),
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum GenWhat {
    /// rtl-bridge/rtl/pica_regs_pkg.sv (register table), pica_isa_pkg.sv (shader ISA) and
    /// pica_chan_pkg.sv (channel table); the stage kit's shims (rtl-bridge/csrc), Rust FFI
    /// (rtl-bridge/src/kit/abi.rs) and build.rs rows (rtl-bridge/stage_models.rs), from
    /// rtl-bridge/src/kit/desc.rs
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
        Cmd::Run(args) => cli::run::main(args),
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
        Cmd::Lockstep(args) => cli::lockstep::main(args),
        Cmd::Facts(args) => cli::facts::main(&args),
        Cmd::Stages => {
            print!("{}", pica_testbench::lockstep::stages::table_text());
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
        Cmd::Scene { cmd } => cli::scene::main(cmd),
        Cmd::Vectors { cmd } => cli::vectors::main(cmd),
        Cmd::Fuzz(args) => cli::fuzz::main(args),
        Cmd::Nv2a { cmd } => cli::nv2a::main(cmd),
        Cmd::AluCheck(args) => cli::alu_check::main(args),
        Cmd::Mutate(args) => pica_testbench::mutate::main(&args),
        Cmd::Cov { cmd } => cli::cov::main(cmd),
        Cmd::Num(args) => match cli::num::main(&args) {
            Ok(text) => {
                let _ = write!(std::io::stdout().lock(), "{text}");
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        },
        Cmd::Asm(args) => match cli::shader_tools::assemble(&args) {
            Ok(line) => {
                println!("{line}");
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        },
        Cmd::Shader { cmd } => cli::shader::main(cmd),
        Cmd::Disasm(args) => cli::shader_tools::disasm_main(args),
    }
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
    // The stage kit's files (shims, FFI, build.rs rows, replay testbenches) each have their own
    // directory.
    let kit = match what {
        GenWhat::Rtl => {
            let mut kit = pica_rtl_bridge::kit::gen::files();
            kit.extend(pica_rtl_bridge::kit::gen_tb::files());
            kit
        }
        GenWhat::Docs => Vec::new(),
    };
    // The link check reads the checked-in README.md and docs/, so only without --out.
    let check_links = check && out.is_none() && matches!(what, GenWhat::Docs);
    // With --out every file goes there under its own name.
    let place = |p: &std::path::Path| match &out {
        Some(o) => o.join(p.file_name().unwrap_or_default()),
        None => p.to_path_buf(),
    };
    let files = files
        .into_iter()
        .map(|(n, t)| (place(&std::path::Path::new(dir).join(n)), t))
        .chain(
            kit.into_iter()
                .map(|(n, t)| (place(std::path::Path::new(&n)), t)),
        );
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
