//! `pica run`: execute a command list on the model and dump what it left.

use crate::input::{self, Format, InputError, MemSpec};
use pica_model::{Gpu, Memory, Outcome};
use pica_vectors::case::{Case, MemImage, Step};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Default physical address the command list is loaded at (start of FCRAM, where the 3DS
/// linear heap that holds command lists lives).
pub const DEFAULT_LIST_ADDR: u32 = pica_vectors::case::DEFAULT_LIST_ADDR;

/// Default cycle limit of `pica run`.
pub const DEFAULT_MAX_CYCLES: u64 = 100_000_000;

/// How command-list files are loaded and run: the options `pica run` and `pica lockstep` share.
#[derive(Clone, Debug, clap::Args)]
pub struct LoadOpts {
    /// Treat the lists as this format whatever their extension.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Load a file into memory first (.hex/.txt as words, anything else as raw bytes).
    #[arg(long, value_name = "0xADDR=FILE")]
    pub mem: Vec<MemSpec>,
    /// Physical address a list is loaded at and run from (default 0x20000000). Once per list,
    /// or once (or not at all) for several lists: they are then placed one after another
    /// from it, each at the next 16-byte boundary.
    #[arg(long, value_name = "ADDR", value_parser = input::parse_u32)]
    pub list_addr: Vec<u32>,
    /// Stop after this many cycles (all lists together).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_CYCLES)]
    pub max_cycles: u64,
}

/// Everything `pica run` needs.
#[derive(Clone, Debug)]
pub struct RunArgs {
    /// The command-list files, submitted one after another (or one `pica-frame` JSON file).
    pub lists: Vec<PathBuf>,
    /// Where and how to load and run them.
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
    /// Words in the list files (every submitted list's size / 4).
    pub list_words: usize,
    /// The case that ran (its steps, provenance).
    pub case: Case,
    /// Steps performed ([`pica_vectors::case::Ran::steps_run`]).
    pub steps_run: usize,
}

/// Whether `path` names a frame file (`.json`).
pub fn is_frame(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// The name of a run of `lists` in messages and summaries.
pub fn lists_name(lists: &[PathBuf]) -> String {
    lists
        .iter()
        .map(|l| l.display().to_string())
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The case command-list files (or one frame file) and their `--mem` images make: every image,
/// then the lists, the first submitted, each further one after the previous finished. A frame
/// file (`.json`, [`pica_vectors::frame`]) carries its own memory and steps. Errors
/// (unreadable files, overlaps, unmapped addresses, bad frame files) are bad input naming the
/// file and option or step.
pub fn load_case(lists: &[PathBuf], opts: &LoadOpts) -> Result<Case, InputError> {
    let Some(first) = lists.first() else {
        return Err(InputError("no command list given".into()));
    };
    if lists.iter().any(|l| is_frame(l)) {
        if lists.len() > 1 {
            return Err(InputError(format!(
                "{}: a frame file runs alone (it holds its own steps); give it as the only input",
                lists_name(lists)
            )));
        }
        if !opts.mem.is_empty() || !opts.list_addr.is_empty() || opts.format.is_some() {
            return Err(InputError(format!(
                "{}: --mem, --list-addr and --format are for command-list files; a frame file names its memory and steps itself",
                first.display()
            )));
        }
        return pica_vectors::frame::load_frame(first, opts.max_cycles);
    }
    if opts.list_addr.len() > 1 && opts.list_addr.len() != lists.len() {
        return Err(InputError(format!(
            "--list-addr given {} times for {} lists: give it once per list, or once for all (placed one after another)",
            opts.list_addr.len(),
            lists.len()
        )));
    }
    // Each list, its address and byte range.
    let mut placed: Vec<(PathBuf, u32, Vec<u32>)> = Vec::new();
    let mut at = u64::from(opts.list_addr.first().copied().unwrap_or(DEFAULT_LIST_ADDR));
    for (i, list) in lists.iter().enumerate() {
        let words = input::read_words(list, opts.format)?;
        let addr = match opts.list_addr.get(i) {
            Some(a) if opts.list_addr.len() == lists.len() => u64::from(*a),
            _ => at,
        };
        let len = words.len() as u64 * 4;
        let addr32 = u32::try_from(addr).map_err(|_| {
            InputError(format!(
                "{}: placed at 0x{addr:x}, past the 32-bit address space",
                list.display()
            ))
        })?;
        if addr32 % 8 != 0 {
            return Err(InputError(format!(
                "{}: --list-addr 0x{addr32:08x} is not 8-byte aligned (command buffers are addressed >> 3)",
                list.display()
            )));
        }
        Memory::new().write_words(addr32, &words).map_err(|e| {
            InputError(format!(
                "{}: cannot load the list at 0x{addr32:08x}: {e}",
                list.display()
            ))
        })?;
        if let Some((other, oa, ow)) = placed.iter().find(|(_, oa, ow)| {
            addr < u64::from(*oa) + ow.len() as u64 * 4 && u64::from(*oa) < addr + len
        }) {
            return Err(InputError(format!(
                "{} at 0x{addr32:08x}..0x{:08x} overlaps {} at 0x{oa:08x}..0x{:08x} (give each its own --list-addr)",
                list.display(),
                addr + len,
                other.display(),
                u64::from(*oa) + ow.len() as u64 * 4
            )));
        }
        at = (addr + len).div_ceil(16) * 16;
        placed.push((list.clone(), addr32, words));
    }
    let mut images = Vec::new();
    for m in &opts.mem {
        let mut bytes = m.bytes()?;
        let end = u64::from(m.addr) + bytes.len() as u64;
        for (list, la, lw) in &placed {
            let (ls, le) = (u64::from(*la), u64::from(*la) + lw.len() as u64 * 4);
            if u64::from(m.addr) < le && end > ls {
                return Err(InputError(format!(
                    "--mem 0x{:08x}={}: overlaps the command list {} at 0x{ls:08x}..0x{le:08x} (move the list with --list-addr)",
                    m.addr,
                    m.path.display(),
                    list.display()
                )));
            }
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
    let mut case = Case::from_list(lists_name(lists), "command list from a file", Vec::new());
    case.images = images;
    for (i, (_, addr, words)) in placed.into_iter().enumerate() {
        let size = (words.len() * 4) as u32;
        if i == 0 {
            case.submit_addr = addr;
            case.submit_size = size;
        } else {
            case.more.push(Step::Submit { addr, size });
        }
        // The `--mem` images first, then the lists (images load in order).
        case.images.push(MemImage { base: addr, words });
    }
    if lists.len() > 1 {
        case.description = format!("{} command lists from files", lists.len());
    }
    case.max_cycles = opts.max_cycles;
    Ok(case)
}

/// Loads memory and the lists (or the frame file), runs every step. Errors are bad input
/// (exit status 2).
pub fn run(args: &RunArgs) -> Result<RunResult, InputError> {
    let mut case = load_case(&args.lists, &args.load)?;
    case.knobs = args.knobs;
    case.pipeline = args.pipeline;
    let name = lists_name(&args.lists);
    let mut gpu = case
        .gpu()
        .map_err(|e| InputError(format!("{name}: {}", case_error_text(&e))))?;
    gpu.set_record_beats(args.record_beats);
    gpu.set_record_commits(args.record_commits);
    let ran = case
        .run_steps(&mut gpu, case.max_cycles)
        .map_err(|e| InputError(format!("{name}: {}", case_error_text(&e))))?;
    let list_words = case
        .steps()
        .iter()
        .map(|s| match s {
            Step::Submit { size, .. } => (size / 4) as usize,
            _ => 0,
        })
        .sum();
    Ok(RunResult {
        gpu,
        outcome: ran.outcome,
        list_words,
        case,
        steps_run: ran.steps_run,
    })
}

/// A case error without the case name (the caller names the file).
fn case_error_text(e: &pica_vectors::case::CaseError) -> String {
    use pica_vectors::case::CaseError;
    match e {
        CaseError::Step {
            index, kind, msg, ..
        } => format!("step {index} ({kind}): {msg}"),
        CaseError::Submit { err, .. } => format!("the first submission: {err}"),
        other => other.to_string(),
    }
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

/// One-line summary of a run: the outcome and the work done, and for a sequence its steps
/// (submissions, fills, transfers recorded but not modelled, where it stopped) and a frame's
/// provenance.
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
    let mut seq = String::new();
    if r.case.is_sequence() {
        let c = r.case.step_counts();
        let n = |k: usize, what: &str| format!("{k} {what}{}", if k == 1 { "" } else { "s" });
        seq = format!(
            "{}, {}, {} (recorded, not modelled)",
            n(c.submits, "submission"),
            n(c.fills, "fill"),
            n(c.transfers, "transfer")
        );
        let steps = r.case.steps();
        if r.steps_run < steps.len() {
            let last = r.steps_run.saturating_sub(1);
            seq.push_str(&format!(
                ", ended at steps[{last}] ({}) of {}",
                steps.get(last).map(|s| s.describe()).unwrap_or_default(),
                steps.len()
            ));
        }
        seq.push_str("; ");
    }
    let prov = if r.case.capture.is_empty() {
        String::new()
    } else {
        let items: Vec<String> = r
            .case
            .capture
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!(" [{}]", items.join(", "))
    };
    format!(
        "{name}{prov}: {} ({seq}{} words, {} register writes, {} triggers, {} immediate vertices{pipe})",
        r.outcome,
        r.list_words,
        regs.writes_applied(),
        regs.triggers().len(),
        regs.immediate_vertices().len()
    )
}
