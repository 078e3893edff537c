//! `pica run`: command lists (or a frame) on the model, and the state, beats and pictures they
//! leave.

use super::{fail, EXIT_CYCLE_LIMIT, EXIT_HANG};
use crate::input;
use crate::run::{self, RunArgs};
use pica_model::Outcome;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// The arguments of `pica run`.
#[derive(clap::Args)]
pub struct RunCmdArgs {
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
    knobs: crate::knobs::KnobArgs,
}

/// `--dump ADDR:WxH:FORMAT[:block32]=FILE` (repeatable).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct DumpArgs {
    /// Write any colour or depth buffer as a PNG, after the run (repeatable): the WxH pixels at
    /// physical address ADDR in FORMAT — rgba8, rgb8, rgb5a1, rgb565, rgba4 (colour), d16,
    /// d24, d24s8 (depth as grey), s8 (the stencil byte of a d24s8 buffer as grey) — in 8x8
    /// tiles, or 32x32 blocks with `:block32`; W and H multiples of the tile size. Decoded by
    /// the model's framebuffer code, top row first as --png writes it. E.g. `--dump
    /// 0x18000000:400x240:rgba8=top.png`.
    #[arg(long = "dump", value_name = "ADDR:WxH:FORMAT[:block32]=FILE",
          value_parser = parse_dump)]
    pub(crate) dump: Vec<crate::picture::DumpSpec>,
}

fn parse_dump(s: &str) -> Result<crate::picture::DumpSpec, String> {
    s.parse()
}

fn cmd_run(
    args: &RunArgs,
    regs_json: Option<PathBuf>,
    beats: Option<PathBuf>,
    [png, depth_png]: [Option<PathBuf>; 2],
    dumps: &[crate::picture::DumpSpec],
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
            if let Err(e) = crate::picture::write_png(p, &img) {
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

/// Runs `pica run`.
pub fn main(args: RunCmdArgs) -> ExitCode {
    let RunCmdArgs {
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
    } = args;
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
