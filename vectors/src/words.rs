//! Files of 32-bit words: command lists and memory images (binary or hex text).

use std::fmt;

/// A problem with user input: always names the file (or argument) and the position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError(pub String);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// Parses little-endian binary words. The byte count must be a multiple of 4.
pub fn parse_bin(name: &str, bytes: &[u8]) -> Result<Vec<u32>, InputError> {
    if bytes.len() % 4 != 0 {
        return Err(InputError(format!(
            "{name}: {} bytes is not a whole number of 32-bit words (the last word at byte offset {} has only {} byte(s))",
            bytes.len(),
            bytes.len() - bytes.len() % 4,
            bytes.len() % 4
        )));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// Parses text words: whitespace separated, `0x` optional, `#` and `//` start comments.
pub fn parse_hex(name: &str, text: &str) -> Result<Vec<u32>, InputError> {
    let mut words = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        let code = match (line.find('#'), line.find("//")) {
            (Some(a), Some(b)) => &line[..a.min(b)],
            (Some(a), None) | (None, Some(a)) => &line[..a],
            (None, None) => line,
        };
        let mut rest = code;
        while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
            let tok_start = &rest[start..];
            let len = tok_start
                .find(char::is_whitespace)
                .unwrap_or(tok_start.len());
            let tok = &tok_start[..len];
            let col = code.len() - tok_start.len() + 1;
            let digits = tok
                .strip_prefix("0x")
                .or_else(|| tok.strip_prefix("0X"))
                .unwrap_or(tok);
            let at = || format!("{name}:{}:{col}", ln + 1);
            if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
                return Err(InputError(format!("{}: '{tok}' is not a hex word", at())));
            }
            if digits.len() > 8 {
                return Err(InputError(format!(
                    "{}: '{tok}' has more than 8 hex digits",
                    at()
                )));
            }
            // Checked above: 1-8 hex digits always parse.
            words.push(
                u32::from_str_radix(digits, 16)
                    .map_err(|e| InputError(format!("{}: {e}", at())))?,
            );
            rest = &tok_start[len..];
        }
    }
    Ok(words)
}
