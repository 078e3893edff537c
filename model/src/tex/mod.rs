//! TEX: texture units 0-2 and the procedural texture unit 3.
//!
//! STUB (issue 6 in progress): every unit returns zero.

pub mod proctex;

use crate::mem::Memory;
use crate::pipe::Fragment;
use crate::regfile::RegFile;
use serde::Serialize;
use std::fmt;

/// One texel read from memory, as a beat records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexelFetch {
    /// Texture unit 0-2.
    pub unit: u8,
    /// Physical byte address of what was read: the texel, or for ETC1 / ETC1A4 the 8- or
    /// 16-byte block holding it.
    pub addr: u32,
    /// The bytes read at `addr`, little-endian (texel size: 4 bits to 4 bytes; ETC1 8 bytes,
    /// ETC1A4 16 bytes).
    pub raw: u128,
    /// The decoded texel `[r, g, b, a]`.
    pub rgba: [u8; 4],
}

/// Why a texture unit hangs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum TexHang {
    /// A texel read outside mapped memory.
    Unmapped {
        /// Texture unit 0-2.
        unit: u8,
        /// The address.
        addr: u32,
    },
}

impl fmt::Display for TexHang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TexHang::Unmapped { unit, addr } => {
                write!(f, "texture unit {unit} reads unmapped address 0x{addr:08x}")
            }
        }
    }
}

/// The colours of texture units 0-3 for `frag` (`[r, g, b, a]`; zero for a disabled unit),
/// appending every texel read to `fetches`.
pub fn texture_units(
    frag: &Fragment,
    regs: &RegFile,
    mem: &Memory,
    fetches: &mut Vec<TexelFetch>,
) -> Result<[[u8; 4]; 4], TexHang> {
    let _ = (frag, regs, mem, fetches);
    Ok([[0; 4]; 4])
}
