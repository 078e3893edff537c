//! Reading command lists and memory images from files, with errors that name file and place.

use std::path::{Path, PathBuf};

pub use pica_vectors::words::{parse_bin, parse_hex, text, InputError};

/// How a file of words is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Little-endian binary 32-bit words.
    Bin,
    /// Text: whitespace-separated hex words, `0x` optional, `#` and `//` comments.
    Hex,
}

impl Format {
    /// The format a file name implies: `.bin` binary, `.hex`/`.txt` text.
    pub fn from_path(path: &Path) -> Option<Self> {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("bin") => Some(Format::Bin),
            Some("hex" | "txt") => Some(Format::Hex),
            _ => None,
        }
    }
}

/// The bytes of `path`; a missing file is named as missing, before anything about its type.
pub fn read(path: &Path) -> Result<Vec<u8>, InputError> {
    std::fs::read(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            InputError(format!("{}: no such file", path.display()))
        } else {
            InputError(format!("{}: cannot read: {e}", path.display()))
        }
    })
}

/// Reads a file of words in `format` (or the one its extension implies).
pub fn read_words(path: &Path, format: Option<Format>) -> Result<Vec<u32>, InputError> {
    let name = path.display().to_string();
    let bytes = read(path)?;
    let format = format.or_else(|| Format::from_path(path)).ok_or_else(|| {
        InputError(format!("{name}: unknown file type (use .bin for binary or .hex/.txt for text words, or --format)"))
    })?;
    let format = match format {
        Format::Bin => pica_vectors::words::WordFormat::Bin,
        Format::Hex => pica_vectors::words::WordFormat::Hex,
    };
    pica_vectors::words::parse_words(&name, &bytes, Some(format))
}

/// Parses a number written in decimal or `0x` hex.
pub fn parse_u32(s: &str) -> Result<u32, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|e| format!("'{s}' is not a 32-bit number: {e}"))
}

/// Parses a number written in decimal or `0x` hex, up to 64 bits.
pub fn parse_u64(s: &str) -> Result<u64, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|e| format!("'{s}' is not a 64-bit number: {e}"))
}

/// A `--mem 0xADDR=FILE` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemSpec {
    /// Physical load address.
    pub addr: u32,
    /// The file: `.hex`/`.txt` are words, anything else raw bytes.
    pub path: PathBuf,
}

impl std::str::FromStr for MemSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (a, p) = s
            .split_once('=')
            .ok_or_else(|| format!("--mem '{s}': expected 0xADDR=FILE"))?;
        let addr = parse_u32(a).map_err(|e| format!("--mem '{s}': {e}"))?;
        if p.is_empty() {
            return Err(format!("--mem '{s}': missing file name"));
        }
        Ok(MemSpec {
            addr,
            path: PathBuf::from(p),
        })
    }
}

impl MemSpec {
    /// The bytes to load: words of a `.hex`/`.txt` file (little-endian), or the raw file.
    pub fn bytes(&self) -> Result<Vec<u8>, InputError> {
        match Format::from_path(&self.path) {
            Some(Format::Hex) => Ok(read_words(&self.path, Some(Format::Hex))?
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect()),
            _ => read(&self.path),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_hex_accepts_comments_and_optional_prefix() {
        let w = parse_hex("t", "0xAAAAAAAA 802F011C # c\n bbbbbbbb // d\n\n0xC").unwrap();
        assert_eq!(w, vec![0xAAAA_AAAA, 0x802F_011C, 0xBBBB_BBBB, 0xC]);
    }

    #[test]
    fn input_hex_error_names_line_and_column() {
        let e = parse_hex("list.hex", "1 2\n  0x12 zz").unwrap_err();
        assert_eq!(e.0, "list.hex:2:8: 'zz' is not a hex word");
        let e = parse_hex("l", "123456789").unwrap_err();
        assert_eq!(e.0, "l:1:1: '123456789' has more than 8 hex digits");
        assert!(parse_hex("l", "0x").is_err());
    }

    #[test]
    fn input_bin_rejects_odd_byte_count() {
        assert_eq!(
            parse_bin("b", &[1, 0, 0, 0, 2, 0, 0, 0]).unwrap(),
            vec![1, 2]
        );
        let e = parse_bin("x.bin", &[1, 2, 3, 4, 5]).unwrap_err();
        assert!(
            e.0.starts_with("x.bin: 5 bytes is not a whole number of 32-bit words"),
            "{}",
            e.0
        );
    }

    #[test]
    fn input_mem_spec_parses() {
        let m: MemSpec = "0x20001000=a.bin".parse().unwrap();
        assert_eq!(
            m,
            MemSpec {
                addr: 0x2000_1000,
                path: "a.bin".into()
            }
        );
        assert!("0x2000".parse::<MemSpec>().is_err());
        assert!("zz=a".parse::<MemSpec>().is_err());
        assert!("0x10=".parse::<MemSpec>().is_err());
    }

    proptest::proptest! {
        #[test]
        fn input_hex_parser_never_panics(text in "\\PC*") {
            let _ = parse_hex("p", &text);
        }

        #[test]
        fn input_hex_round_trips_words(words in proptest::collection::vec(proptest::prelude::any::<u32>(), 0..64), prefix in proptest::prelude::any::<bool>()) {
            let text: String = words
                .iter()
                .map(|w| if prefix { format!("0x{w:08X} # c\n") } else { format!("{w:x} // c\n") })
                .collect();
            proptest::prop_assert_eq!(parse_hex("p", &text).unwrap(), words);
        }

        #[test]
        fn input_bin_parser_never_panics(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64)) {
            let r = parse_bin("p", &bytes);
            proptest::prop_assert_eq!(r.is_ok(), bytes.len() % 4 == 0);
        }
    }
}
