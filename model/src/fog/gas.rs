//! Gas mode of the FOG stage (GPUREG_TEXENV_UPDATE_BUFFER fog mode 7).
//!
//! STUB (issue 6 in progress): does nothing.

use crate::pipe::ShadedFragment;
use crate::regfile::RegFile;

/// Gas shading of `f` (changes `f.color`).
pub fn apply(f: &mut ShadedFragment, regs: &RegFile) {
    let _ = (f, regs);
}
