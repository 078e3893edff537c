//! LIGHT: fragment lighting.
//!
//! STUB (issue 6 in progress): lighting off.

use crate::pipe::Fragment;
use crate::regfile::RegFile;

/// The fragment-lighting colours handed to the combiners.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LightOut {
    /// Primary colour `[r, g, b, a]`.
    pub primary: [u8; 4],
    /// Secondary colour `[r, g, b, a]`.
    pub secondary: [u8; 4],
}

/// Fragment lighting of `frag` with the texture colours `tex` (bump / shadow sources).
pub fn lighting(frag: &Fragment, tex: &[[u8; 4]; 4], regs: &RegFile) -> LightOut {
    let _ = (frag, tex, regs);
    LightOut::default()
}
