//! `pica run`: execute a command list on the model and dump what it left.

use crate::input::{self, Format, InputError, MemSpec};
use pica_model::{Gpu, Memory, Outcome};
use pica_vectors::case::{Case, MemImage};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Default physical address the command list is loaded at (start of FCRAM, where the 3DS
/// linear heap that holds command lists lives).
pub const DEFAULT_LIST_ADDR: u32 = 0x2000_0000;

/// Default cycle limit of `pica run`.
pub const DEFAULT_MAX_CYCLES: u64 = 100_000_000;

/// How a command-list file is loaded and run: the options `pica run` and `pica lockstep` share.
#[derive(Clone, Debug, clap::Args)]
pub struct LoadOpts {
    /// Treat the list as this format whatever its extension.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Load a file into memory first (.hex/.txt as words, anything else as raw bytes).
    #[arg(long, value_name = "0xADDR=FILE")]
    pub mem: Vec<MemSpec>,
    /// Physical address the list is loaded at and run from.
    #[arg(long, value_name = "ADDR", default_value = "0x20000000", value_parser = input::parse_u32)]
    pub list_addr: u32,
    /// Stop after this many cycles.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_CYCLES)]
    pub max_cycles: u64,
}

/// Everything `pica run` needs.
#[derive(Clone, Debug)]
pub struct RunArgs {
    /// The command list file.
    pub list: PathBuf,
    /// Where and how to load and run it.
    pub load: LoadOpts,
    /// Record beats.
    pub record_beats: bool,
    /// Also record the `commit` channel (every retired shader instruction).
    pub record_commits: bool,
    /// Run draws through the geometry and fragment pipeline (off: the front end alone).
    pub pipeline: bool,
    /// The knobs (`--knob`).
    pub knobs: pica_model::knobs::Knobs,
}

/// A finished run: the GPU and how it ended.
pub struct RunResult {
    /// The GPU after the run.
    pub gpu: Gpu,
    /// How it ended.
    pub outcome: Outcome,
    /// Words in the list file.
    pub list_words: usize,
}

/// The case a command-list file and its `--mem` images make: every image, then the list at
/// `--list-addr`, submitted whole. Errors (unreadable files, overlaps, unmapped addresses) are
/// bad input naming the file and option.
pub fn load_case(list: &Path, opts: &LoadOpts) -> Result<Case, InputError> {
    let words = input::read_words(list, opts.format)?;
    let list_len = u32::try_from(words.len() * 4).map_err(|_| {
        InputError(format!(
            "{}: command list larger than 4 GiB",
            list.display()
        ))
    })?;
    let list_range = (
        u64::from(opts.list_addr),
        u64::from(opts.list_addr) + u64::from(list_len),
    );
    let mut images = Vec::new();
    for m in &opts.mem {
        let mut bytes = m.bytes()?;
        let end = u64::from(m.addr) + bytes.len() as u64;
        if u64::from(m.addr) < list_range.1 && end > list_range.0 {
            return Err(InputError(format!(
                "--mem 0x{:08x}={}: overlaps the command list at 0x{:08x}..0x{:08x} (move the list with --list-addr)",
                m.addr,
                m.path.display(),
                list_range.0,
                list_range.1
            )));
        }
        Memory::new()
            .write_bytes(m.addr, &bytes)
            .map_err(|e| InputError(format!("--mem 0x{:08x}={}: {e}", m.addr, m.path.display())))?;
        // Images are whole words; the padding bytes read as zero in memory anyway.
        bytes.resize(bytes.len().div_ceil(4) * 4, 0);
        images.push(MemImage {
            base: m.addr,
            words: input::parse_bin(&m.path.display().to_string(), &bytes)?,
        });
    }
    Memory::new()
        .write_words(opts.list_addr, &words)
        .map_err(|e| {
            InputError(format!(
                "{}: cannot load the list at --list-addr 0x{:08x}: {e}",
                list.display(),
                opts.list_addr
            ))
        })?;
    let mut case = Case::from_list(
        list.display().to_string(),
        "command list from a file",
        words,
    );
    case.images[0].base = opts.list_addr;
    case.submit_addr = opts.list_addr;
    case.submit_size = list_len;
    case.max_cycles = opts.max_cycles;
    // The `--mem` images first, then the list (images load in order).
    case.images.splice(0..0, images);
    Ok(case)
}

/// Loads memory and the list, runs it. Errors are bad input (exit status 2).
pub fn run(args: &RunArgs) -> Result<RunResult, InputError> {
    let mut case = load_case(&args.list, &args.load)?;
    case.knobs = args.knobs;
    let mem = case
        .memory()
        .map_err(|e| InputError(format!("{}: {e}", args.list.display())))?;
    let mut gpu = Gpu::new(mem);
    gpu.set_knobs(case.knobs);
    gpu.set_record_beats(args.record_beats);
    gpu.set_record_commits(args.record_commits);
    gpu.set_pipeline(args.pipeline);
    gpu.submit(case.submit_addr, case.submit_size)
        .map_err(|e| InputError(format!("{}: --list-addr: {e}", args.list.display())))?;
    let outcome = gpu.run(case.max_cycles);
    Ok(RunResult {
        gpu,
        outcome,
        list_words: (case.submit_size / 4) as usize,
    })
}

/// Opens `path` for writing, `-` meaning stdout.
pub fn open_out(path: &Path) -> Result<Box<dyn Write>, InputError> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(std::io::stdout().lock()));
    }
    let f = std::fs::File::create(path)
        .map_err(|e| InputError(format!("{}: cannot create: {e}", path.display())))?;
    Ok(Box::new(std::io::BufWriter::new(f)))
}

/// Writes register-write beats as JSON lines.
pub fn write_beats(gpu: &Gpu, out: &mut dyn Write) -> std::io::Result<()> {
    for b in gpu.regwrite_beats() {
        let mut line = pica_vectors::bundle::beat_json(b);
        if let Some(m) = line.as_object_mut() {
            m.insert("channel".into(), "regwrite".into());
        }
        writeln!(out, "{line}")?;
    }
    // The shader channels, the commit channel (recorded only with --commits), then the
    // pipeline channels, grouped by channel, in the bundle's JSON-lines layout.
    use pica_model::beat::Channel;
    use pica_vectors::streams::json_line;
    let (shader_in, shader_out) = gpu.shader_beats();
    for (channel, beats) in [
        (Channel::ShaderIn, shader_in),
        (Channel::ShaderOut, shader_out),
    ] {
        for b in beats {
            writeln!(out, "{}", json_line(channel, b))?;
        }
    }
    for b in gpu.commit_beats() {
        writeln!(out, "{}", json_line(Channel::Commit, b))?;
    }
    let capture = pica_vectors::case::PipelineCapture::of(gpu, &[]);
    for ch in pica_vectors::streams::channels(&capture) {
        out.write_all(ch.jsonl.as_bytes())?;
    }
    out.flush()
}

/// One-line summary of a run.
pub fn summary(name: &str, r: &RunResult) -> String {
    let regs = r.gpu.regs();
    let stats = r.gpu.pipeline_stats();
    let pipe = if r.gpu.pipeline() {
        format!(
            ", {} draws, {} vertices shaded, {} triangles, {} fragments",
            stats.draws, stats.vertices, stats.triangles, stats.fragments
        )
    } else {
        String::new()
    };
    format!(
        "{name}: {} ({} words, {} register writes, {} triggers, {} immediate vertices{pipe})",
        r.outcome,
        r.list_words,
        regs.writes_applied(),
        regs.triggers().len(),
        regs.immediate_vertices().len()
    )
}
