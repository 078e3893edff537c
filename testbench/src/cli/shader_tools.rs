//! `pica asm` and `pica disasm`: the shader assembler and disassembler on files.
//!
//! Both report bad input as an [`InputError`] naming the file (and, for assembly errors, the
//! line and column; for SHBIN errors, the byte offset); `main` turns it into exit status 2.

use super::fail;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use pica_model::shader::{asm, disasm, shbin::Shbin};

use crate::input::InputError;

fn read(path: &Path) -> Result<Vec<u8>, InputError> {
    std::fs::read(path).map_err(|e| InputError(format!("{}: {e}", path.display())))
}

/// Arguments of `pica asm` (picasso's command line: `-o`, `-h`, `-n`). By default the SHBIN and
/// the header are byte for byte what picasso 2.7.1 writes for the same sources (the exceptions
/// are listed in [`pica_model::shader::asm`]'s module docs).
#[derive(Clone, Debug, clap::Args)]
pub struct AsmArgs {
    /// Source files, assembled in this order into one SHBIN (one DVLE per file unless it says
    /// `.nodvle`; procedures and vertex uniforms are shared).
    #[arg(required = true, value_name = "FILE.pica")]
    pub files: Vec<PathBuf>,
    /// Output SHBIN.
    #[arg(short, long, value_name = "OUT.shbin")]
    pub out: PathBuf,
    /// Also write picasso's C header with the uniform locations.
    #[arg(short = 'h', long, value_name = "FILE.h")]
    pub header: Option<PathBuf>,
    /// Insert no padding NOPs (picasso -n).
    #[arg(short = 'n', long)]
    pub no_nop: bool,
    /// Also list every procedure in each DVLE's label table (a pica-cosim extension that
    /// `pica disasm` and `pica shader run --entry NAME` use to name procedures). Without it the
    /// label table is empty and the SHBIN is byte for byte the one picasso 2.7.1 writes.
    #[arg(long)]
    pub labels: bool,
    /// No effect: an empty label table (picasso's bytes) is the default. Accepted so that
    /// command lines written for earlier versions keep working.
    #[arg(long, hide = true, conflicts_with = "labels")]
    pub no_labels: bool,
    /// Print help (-h is picasso's --header).
    #[arg(long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
}

/// `pica asm FILE.pica... -o OUT.shbin [-h FILE.h] [-n] [--labels]`: assembles the files (in order, linked
/// as picasso links them) and writes the SHBIN to `out` and, with `header`, picasso's C header.
/// Returns the one-line summary to print.
pub fn assemble(args: &AsmArgs) -> Result<String, InputError> {
    let mut sources = Vec::new();
    for f in &args.files {
        let text = String::from_utf8(read(f)?)
            .map_err(|e| InputError(format!("{}: not UTF-8 text: {e}", f.display())))?;
        sources.push((f.display().to_string(), text));
    }
    let refs: Vec<(&str, &str)> = sources
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let options = asm::Options {
        auto_nop: !args.no_nop,
        labels: args.labels,
    };
    let program = asm::assemble_files(&refs, options).map_err(|e| InputError(e.to_string()))?;
    let out = &args.out;
    std::fs::write(out, program.shbin.to_bytes())
        .map_err(|e| InputError(format!("{}: {e}", out.display())))?;
    if let Some(h) = &args.header {
        std::fs::write(h, program.header())
            .map_err(|e| InputError(format!("{}: {e}", h.display())))?;
    }
    let shbin = &program.shbin;
    let what = match shbin.dvles.as_slice() {
        [] => "no DVLE (.nodvle)".to_string(),
        [d] => format!(
            "entry 0x{:03x}, {} shader",
            d.entry,
            if d.geometry { "geometry" } else { "vertex" }
        ),
        ds => {
            let kinds: Vec<&str> = ds
                .iter()
                .map(|d| if d.geometry { "geometry" } else { "vertex" })
                .collect();
            format!("{} DVLEs ({})", ds.len(), kinds.join(", "))
        }
    };
    let inputs: Vec<String> = args.files.iter().map(|f| f.display().to_string()).collect();
    Ok(format!(
        "{}: {} instructions, {} operand descriptors, {what} -> {}{}",
        inputs.join(" + "),
        shbin.code.len(),
        shbin.opdescs.len(),
        out.display(),
        args.header
            .as_ref()
            .map_or_else(String::new, |h| format!(", header {}", h.display()))
    ))
}

/// `pica asm FILE.pica -o OUT.shbin`: assembles one file and writes the SHBIN (picasso's bytes)
/// to `out`.
/// Returns the one-line summary to print.
pub fn assemble_file(input: &Path, out: &Path) -> Result<String, InputError> {
    assemble(&AsmArgs {
        files: vec![input.to_path_buf()],
        out: out.to_path_buf(),
        header: None,
        no_nop: false,
        labels: false,
        no_labels: false,
        help: None,
    })
}

/// Little-endian code or descriptor words (the `pica run` binary-list rule).
fn words(bytes: &[u8], path: &Path) -> Result<Vec<u32>, InputError> {
    crate::input::parse_bin(&path.display().to_string(), bytes)
}

/// `pica disasm FILE [--opdescs FILE]`: disassembles a SHBIN (recognised by its `DVLB` magic) or
/// raw little-endian code words (with operand descriptors as little-endian words from
/// `opdescs`). Returns the assembly text.
pub fn disassemble_file(input: &Path, opdescs: Option<&Path>) -> Result<String, InputError> {
    let bytes = read(input)?;
    if bytes.starts_with(b"DVLB") {
        if opdescs.is_some() {
            return Err(InputError(format!(
                "{}: a SHBIN carries its own operand descriptors; --opdescs is for raw code",
                input.display()
            )));
        }
        let s =
            Shbin::parse(&bytes).map_err(|e| InputError(format!("{}: {e}", input.display())))?;
        return Ok(disasm::shbin(&s));
    }
    let code = words(&bytes, input)?;
    let descs = match opdescs {
        Some(p) => words(&read(p)?, p)?,
        None => Vec::new(),
    };
    Ok(disasm::code(&code, &descs))
}

/// The arguments of `pica disasm`.
#[derive(clap::Args)]
pub struct DisasmArgs {
    /// A .shbin, or raw little-endian code words (.bin).
    file: PathBuf,
    /// Operand descriptors for raw code: little-endian words.
    #[arg(long, value_name = "FILE")]
    opdescs: Option<PathBuf>,
    /// Write the assembly here instead of stdout.
    #[arg(short, long)]
    out: Option<PathBuf>,
}

/// Runs `pica disasm`.
pub fn disasm_main(args: DisasmArgs) -> ExitCode {
    let DisasmArgs { file, opdescs, out } = args;
    match disassemble_file(&file, opdescs.as_deref()) {
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
