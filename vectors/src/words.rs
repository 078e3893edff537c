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

/// How a file of words is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordFormat {
    /// Little-endian binary 32-bit words.
    Bin,
    /// Text: whitespace-separated hex words, `0x` optional, `#` and `//` comments.
    Hex,
}

impl WordFormat {
    /// The format a file name implies: `.bin` binary, `.hex` / `.txt` text.
    pub fn of_name(name: &str) -> Option<Self> {
        let ext = std::path::Path::new(name)
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("bin") => Some(WordFormat::Bin),
            Some("hex" | "txt") => Some(WordFormat::Hex),
            _ => None,
        }
    }
}

/// The bytes of the text file `name` as UTF-8, or an error pointing at the first bad byte.
pub fn text<'a>(name: &str, bytes: &'a [u8]) -> Result<&'a str, InputError> {
    std::str::from_utf8(bytes).map_err(|e| {
        InputError(format!(
            "{name}: not UTF-8 text at byte offset {} (is it a .bin file?)",
            e.valid_up_to()
        ))
    })
}

/// The words in `bytes`, the contents of the file `name`, in `format` or else the format its
/// name implies (the one reader of the CLI, the C ABI and the Python package).
pub fn parse_words(
    name: &str,
    bytes: &[u8],
    format: Option<WordFormat>,
) -> Result<Vec<u32>, InputError> {
    match format.or_else(|| WordFormat::of_name(name)) {
        Some(WordFormat::Bin) => parse_bin(name, bytes),
        Some(WordFormat::Hex) => parse_hex(name, text(name, bytes)?),
        None => Err(InputError(format!(
            "{name}: unknown file type (use .bin for binary or .hex/.txt for text words)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The format comes from the argument, else the name; each path gives its own error.
    #[test]
    fn parse_words_by_format_and_name() {
        let bin = [0x78, 0x56, 0x34, 0x12];
        assert_eq!(parse_words("a.BIN", &bin, None), Ok(vec![0x1234_5678]));
        assert_eq!(
            parse_words("a.txt", b"0x10 # c\n20", None),
            Ok(vec![0x10, 0x20])
        );
        assert_eq!(
            parse_words("a.dat", b"10", Some(WordFormat::Hex)),
            Ok(vec![0x10])
        );
        let e = parse_words("a.dat", b"10", None).unwrap_err();
        assert_eq!(
            e.0,
            "a.dat: unknown file type (use .bin for binary or .hex/.txt for text words)"
        );
        let e = parse_words("a.hex", &[0x31, 0xFF], None).unwrap_err();
        assert!(
            e.0.starts_with("a.hex: not UTF-8 text at byte offset 1"),
            "{}",
            e.0
        );
    }
}
