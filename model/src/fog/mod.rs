//! FOG: fog and gas.
//!
//! STUB (issue 6 in progress): fog does nothing; gas mode goes to [`gas`].

pub mod gas;

use crate::pipe::ShadedFragment;
use crate::regfile::RegFile;
use crate::regs::{self, id, TexenvUpdateBufferFogMode};

/// Applies fog or gas (GPUREG_TEXENV_UPDATE_BUFFER fog mode) to `f.color`.
pub fn apply(f: &mut ShadedFragment, regs: &RegFile) {
    let mode = regs::TexenvUpdateBuffer(regs.reg(id::TEXENV_UPDATE_BUFFER.into())).fog_mode();
    if mode == TexenvUpdateBufferFogMode::Gas {
        gas::apply(f, regs);
    }
}
