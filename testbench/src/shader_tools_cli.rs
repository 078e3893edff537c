//! `pica asm` and `pica disasm`: the shader assembler and disassembler on files.
//!
//! Both report bad input as an [`InputError`] naming the file (and, for assembly errors, the
//! line and column; for SHBIN errors, the byte offset); `main` turns it into exit status 2.

use std::path::Path;

use pica_model::shader::{asm, disasm, shbin::Shbin};

use crate::input::InputError;

fn read(path: &Path) -> Result<Vec<u8>, InputError> {
    std::fs::read(path).map_err(|e| InputError(format!("{}: {e}", path.display())))
}

/// `pica asm FILE.pica -o OUT.shbin`: assembles `input` and writes the SHBIN to `out`.
/// Returns the one-line summary to print.
pub fn assemble_file(input: &Path, out: &Path) -> Result<String, InputError> {
    let bytes = read(input)?;
    let src = String::from_utf8(bytes)
        .map_err(|e| InputError(format!("{}: not UTF-8 text: {e}", input.display())))?;
    let shbin =
        asm::assemble(&src, &input.display().to_string()).map_err(|e| InputError(e.to_string()))?;
    std::fs::write(out, shbin.to_bytes())
        .map_err(|e| InputError(format!("{}: {e}", out.display())))?;
    let what = match shbin.dvles.first() {
        Some(d) => format!(
            "entry 0x{:03x}, {} shader",
            d.entry,
            if d.geometry { "geometry" } else { "vertex" }
        ),
        None => "no DVLE (.nodvle)".to_string(),
    };
    Ok(format!(
        "{}: {} instructions, {} operand descriptors, {what} -> {}",
        input.display(),
        shbin.code.len(),
        shbin.opdescs.len(),
        out.display()
    ))
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
