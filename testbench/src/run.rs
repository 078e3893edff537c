//! `pica run`: execute a command list on the model and dump what it left.

use crate::input::{self, Format, InputError, MemSpec};
use pica_model::{regs, Gpu, Memory, Outcome};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Default physical address the command list is loaded at (start of FCRAM, where the 3DS
/// linear heap that holds command lists lives).
pub const DEFAULT_LIST_ADDR: u32 = 0x2000_0000;

/// Default cycle limit of `pica run`.
pub const DEFAULT_MAX_CYCLES: u64 = 100_000_000;

/// Everything `pica run` needs.
#[derive(Clone, Debug)]
pub struct RunArgs {
    /// The command list file.
    pub list: PathBuf,
    /// Its format, if not implied by the extension.
    pub format: Option<Format>,
    /// Memory images to load first.
    pub mem: Vec<MemSpec>,
    /// Physical address to load the list at.
    pub list_addr: u32,
    /// Cycle limit.
    pub max_cycles: u64,
    /// Record beats.
    pub record_beats: bool,
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

/// Loads memory and the list, runs it. Errors are bad input (exit status 2).
pub fn run(args: &RunArgs) -> Result<RunResult, InputError> {
    let words = input::read_words(&args.list, args.format)?;
    let list_len = u32::try_from(words.len() * 4).map_err(|_| {
        InputError(format!(
            "{}: command list larger than 4 GiB",
            args.list.display()
        ))
    })?;
    let mut mem = Memory::new();
    let list_range = (
        u64::from(args.list_addr),
        u64::from(args.list_addr) + u64::from(list_len),
    );
    for m in &args.mem {
        let bytes = m.bytes()?;
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
        mem.write_bytes(m.addr, &bytes)
            .map_err(|e| InputError(format!("--mem 0x{:08x}={}: {e}", m.addr, m.path.display())))?;
    }
    mem.write_words(args.list_addr, &words).map_err(|e| {
        InputError(format!(
            "{}: cannot load the list at --list-addr 0x{:08x}: {e}",
            args.list.display(),
            args.list_addr
        ))
    })?;
    let mut gpu = Gpu::new(mem);
    gpu.set_record_beats(args.record_beats);
    gpu.submit(args.list_addr, list_len)
        .map_err(|e| InputError(format!("{}: --list-addr: {e}", args.list.display())))?;
    let outcome = gpu.run(args.max_cycles);
    Ok(RunResult {
        gpu,
        outcome,
        list_words: words.len(),
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
        let line = serde_json::json!({
            "cycle": b.cycle,
            "channel": "regwrite",
            "id": format!("0x{:03x}", b.id),
            "name": regs::name(b.id),
            "mask": format!("0x{:x}", b.mask),
            "param": format!("0x{:08x}", b.param),
            "value": format!("0x{:08x}", b.value),
        });
        writeln!(out, "{line}")?;
    }
    out.flush()
}

/// One-line summary of a run.
pub fn summary(name: &str, r: &RunResult) -> String {
    let regs = r.gpu.regs();
    format!(
        "{name}: {} ({} words, {} register writes, {} triggers, {} immediate vertices)",
        r.outcome,
        r.list_words,
        regs.writes_applied(),
        regs.triggers().len(),
        regs.immediate_vertices().len()
    )
}
