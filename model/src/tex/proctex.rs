//! The procedural texture unit (texture 3).
//!
//! STUB (issue 6 in progress): returns zero.

use crate::num::F24;
use crate::regfile::RegFile;

/// The procedural texture's colour `[r, g, b, a]` at texture coordinates (`u`, `v`).
pub fn proctex(u: F24, v: F24, regs: &RegFile) -> [u8; 4] {
    let _ = (u, v, regs);
    [0; 4]
}
