//! `pica cov`: functional coverage reports, the corpus ratchet and selection
//! ([`crate::cov::functional`]), and RTL code coverage ([`crate::cov::rtl`]).

use crate::cov::functional::*;
use crate::cov::rtl::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `pica cov` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum CovCmd {
    /// Percent per group and the uncovered bins of SOURCE: a fuzz report (its `.cov.json`
    /// beside it), a coverage database, a bundle or a directory of bundles, `corpus`
    /// (vectors/corpus) or `scenes` (the scene library).
    ///
    /// Exit status: 0 done, 2 bad input (the message names the path).
    Report {
        /// What to measure.
        source: String,
        /// Write the database as JSON (per group and in total `total_bins`, `covered_bins`;
        /// every bin with its hits and first case).
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Write a self-contained HTML page.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        /// Print every uncovered bin (default: the first 12 of each group).
        #[arg(long)]
        all: bool,
        /// Write a bundle into DIR for each first case that is not one (fuzz cases, scenes),
        /// and name those bundles in the JSON and HTML.
        #[arg(long, value_name = "DIR")]
        bundles: Option<PathBuf>,
    },
    /// The few bundles of CANDIDATES (a directory of bundles, e.g. the `--keep-new DIR` of a
    /// `pica fuzz --guided` run) that add the most bins to BASE, chosen greedily: the next
    /// corpus additions. With --copy-to, copies them there (e.g. vectors/corpus; then `PICA_BLESS=1
    /// pica cov ratchet` records the new figures).
    ///
    /// Exit status: 0 done, 2 bad input.
    Select {
        /// A directory of bundles to choose from.
        candidates: PathBuf,
        /// What they add to: `corpus`, `scenes`, a bundle directory or a database.
        #[arg(long, default_value = "corpus")]
        base: String,
        /// At most this many bundles.
        #[arg(long, default_value_t = 10)]
        max: usize,
        /// Copy the chosen bundles into DIR (as `guided__NAME`).
        #[arg(long, value_name = "DIR")]
        copy_to: Option<PathBuf>,
    },
    /// The coverage ratchet of the test suite: the corpus's and the scene library's covered
    /// bins per group against vectors/coverage/baseline.json; PICA_BLESS=1 records them.
    ///
    /// Exit status: 0 no group dropped, 1 a group dropped, 2 bad input.
    Ratchet,
    /// RTL code coverage (Verilator line, toggle and branch points): `pica cov rtl run`
    /// replays bundles on coverage builds of the replay testbenches, `pica cov rtl report`
    /// merges the coverage files and prints per stage and module (docs/src/fuzzing.md, "RTL code coverage").
    Rtl {
        #[command(subcommand)]
        /// `run` or `report`.
        cmd: RtlCovCmd,
    },
}

/// Runs `pica cov`.
pub fn main(cmd: CovCmd) -> std::process::ExitCode {
    use std::process::ExitCode;
    let bad = |e: String| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    };
    match cmd {
        CovCmd::Report {
            source,
            json,
            html,
            all,
            bundles,
        } => {
            let (mut db, note) = match collect(&source) {
                Ok(d) => d,
                Err(e) => return bad(e),
            };
            if let Some(dir) = &bundles {
                match write_first_bundles(&mut db, dir) {
                    Ok(n) => println!("{n} first-case bundle(s) written to {}", dir.display()),
                    Err(e) => return bad(e),
                }
            }
            print!("{}", text_report(&db, if all { usize::MAX } else { 12 }));
            if let Some(n) = note {
                println!("note: {n}");
            }
            if let Some(p) = json {
                if let Err(e) = write_db(&p, &db) {
                    return bad(e);
                }
            }
            if let Some(p) = html {
                if let Err(e) = std::fs::write(&p, html_report(&db)) {
                    return bad(format!("{}: cannot write: {e}", p.display()));
                }
            }
            ExitCode::SUCCESS
        }
        CovCmd::Select {
            candidates,
            base,
            max,
            copy_to,
        } => match select(&candidates, &base, max) {
            Ok(chosen) => {
                for (d, gain, total) in &chosen {
                    println!("{}: +{gain} bins ({total} with it)", d.display());
                }
                if chosen.is_empty() {
                    println!("no bundle adds a bin to {base}");
                }
                if let Some(to) = copy_to {
                    for (d, _, _) in &chosen {
                        let name = d.file_name().map(|n| n.to_string_lossy().to_string());
                        let out = to.join(format!("guided__{}", name.unwrap_or_default()));
                        if let Err(e) = copy_dir(d, &out) {
                            return bad(e);
                        }
                        println!("copied to {}", out.display());
                    }
                }
                ExitCode::SUCCESS
            }
            Err(e) => bad(e),
        },
        CovCmd::Rtl { cmd } => main_rtl(cmd),
        CovCmd::Ratchet => {
            let bless = std::env::var_os(BLESS_ENV).is_some_and(|v| !v.is_empty() && v != "0");
            match ratchet(Path::new(CORPUS_DIR), Path::new(BASELINE), bless) {
                Ok(r) => {
                    print!("{}", r.text);
                    if r.drops.is_empty() {
                        ExitCode::SUCCESS
                    } else {
                        println!(
                            "coverage dropped in {} group(s): {}",
                            r.drops.len(),
                            r.drops.join("; ")
                        );
                        ExitCode::from(1)
                    }
                }
                Err(e) => bad(e),
            }
        }
    }
}

/// `pica cov rtl` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum RtlCovCmd {
    /// Replay bundles (full bundles on pica_top, stage bundles on their stage top) under
    /// Verilator coverage builds of the replay testbenches (`scripts/replay --coverage`, built
    /// once per source content under target/replay/), one coverage file per bundle in OUT.
    ///
    /// Exit status: 0 every replay passed, 1 a replay failed (it has no .dat), 2 bad input.
    Run {
        /// Bundles, or directories of bundles (one level).
        #[arg(required = true)]
        bundles: Vec<PathBuf>,
        /// Directory of the coverage files (`<stage>-<bundle>.dat`).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Only the bundles of this stage (fe, sh, tev, fop, rast).
        #[arg(long, value_name = "STAGE")]
        stage: Option<String>,
    },
    /// Write the cases of a fuzz campaign as bundles for `run` (case i from the campaign's
    /// case seed, as `pica fuzz --target TARGET --seed SEED` generates it, with the model's
    /// expected results): a campaign's RTL coverage without a coverage build of the bridge.
    ///
    /// Exit status: 0 written, 2 bad input.
    Gen {
        /// Output directory (`<target>-<i>/` per case).
        out: PathBuf,
        /// The fuzz target: regs (full bundles, fe), shader (sh), tex, tev, fop, rast.
        #[arg(long)]
        target: String,
        /// Cases.
        #[arg(long, default_value_t = 100)]
        cases: u64,
        /// Campaign seed (as `pica fuzz --seed`).
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Merge coverage files (`verilator_coverage --write`) and print covered/total line,
    /// toggle and branch points per stage and RTL module.
    ///
    /// Exit status: 0 done, 1 a --require'd stage has no covered point, 2 bad input (the
    /// message names the file and line).
    Report {
        /// Coverage files, or directories of `*.dat`.
        #[arg(required = true)]
        dats: Vec<PathBuf>,
        /// Write the merged coverage file here (default: a temporary file, removed after).
        #[arg(long, value_name = "FILE")]
        merged: Option<PathBuf>,
        /// Write the sources annotated with each point's hits into DIR.
        #[arg(long, value_name = "DIR")]
        annotate: Option<PathBuf>,
        /// Write the figures as JSON.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// A point is covered at this many hits or more.
        #[arg(long, default_value_t = 1, value_name = "N")]
        min: u64,
        /// Fail (exit status 1) unless each of these stages (comma-separated) has a covered
        /// point: what the test suite requires of fe,sh,tev,fop,rast.
        #[arg(long, value_name = "STAGES", value_delimiter = ',')]
        require: Vec<String>,
    },
}

/// Runs `pica cov rtl`.
pub fn main_rtl(cmd: RtlCovCmd) -> std::process::ExitCode {
    use std::process::ExitCode;
    let bad = |e: String| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    };
    match cmd {
        RtlCovCmd::Run {
            bundles,
            out,
            stage,
        } => {
            let results = match run(&bundles, &out, stage.as_deref()) {
                Ok(r) => r,
                Err(e) => return bad(e),
            };
            let mut per: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
            for r in &results {
                let e = per.entry(r.stage.as_str()).or_default();
                e.0 += 1;
                if r.dat.is_some() {
                    e.1 += 1;
                } else {
                    eprintln!("{}: {}", r.bundle.display(), r.message);
                }
            }
            for (s, (n, ok)) in &per {
                println!(
                    "{s}: {ok} of {n} bundle(s) replayed with coverage -> {}",
                    out.display()
                );
            }
            if results.iter().all(|r| r.dat.is_some()) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        RtlCovCmd::Gen {
            out,
            target,
            cases,
            seed,
        } => match gen(&out, &target, cases, seed) {
            Ok(v) => {
                println!("{} {target} bundle(s) -> {}", v.len(), out.display());
                ExitCode::SUCCESS
            }
            Err(e) => bad(e),
        },
        RtlCovCmd::Report {
            dats,
            merged,
            annotate: ann,
            json,
            min,
            require,
        } => {
            let inputs = match dat_files(&dats) {
                Ok(v) => v,
                Err(e) => return bad(e),
            };
            let tmp = std::env::temp_dir().join(format!("pica-rtl-cov-{}.dat", std::process::id()));
            let path = merged.clone().unwrap_or_else(|| tmp.clone());
            let res = (|| -> Result<RtlReport, String> {
                merge(&inputs, &path)?;
                let r = report(&read_dat(&path)?, min);
                if let Some(d) = &ann {
                    annotate(&path, d, min)?;
                }
                Ok(r)
            })();
            if merged.is_none() {
                let _ = std::fs::remove_file(&tmp);
            }
            let r = match res {
                Ok(r) => r,
                Err(e) => return bad(e),
            };
            print!("{}", r.text());
            println!(
                "\n{} file(s) merged: {} points ({} of the testbenches, left out)",
                inputs.len(),
                r.points,
                r.testbench_points
            );
            if let Some(d) = &ann {
                println!("annotated sources: {}", d.display());
            }
            if let Some(p) = json {
                let text = match serde_json::to_string_pretty(&r) {
                    Ok(t) => t,
                    Err(e) => return bad(format!("encoding the report: {e}")),
                };
                if let Err(e) = std::fs::write(&p, text + "\n") {
                    return bad(format!("{}: cannot write: {e}", p.display()));
                }
            }
            let missing = missing_stages(&r, &require);
            if missing.is_empty() {
                ExitCode::SUCCESS
            } else {
                eprintln!(
                    "error: no covered RTL point of stage(s) {} in the merged files",
                    missing.join(", ")
                );
                ExitCode::from(1)
            }
        }
    }
}
