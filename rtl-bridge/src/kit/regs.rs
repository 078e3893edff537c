//! The configuration registers of each register-configured stage, in the stage's slot order
//! (the order its `cfg` port stores them), from the model's own lists: the RTL stores exactly
//! the registers the model's stage reads.

use pica_model::regs::id;
use pica_model::{clip, fop, rast, tev, tex};

/// TEV: stage `s`'s five registers at slots `5s..5s+4` (SOURCE, OPERAND, COMBINER, COLOR,
/// SCALE), then GPUREG_TEXENV_UPDATE_BUFFER and GPUREG_TEXENV_BUFFER_COLOR (seed 002).
pub fn tev() -> Vec<u16> {
    let mut v: Vec<u16> = tev::STAGE_BASE
        .iter()
        .flat_map(|&b| (0..5).map(move |r| b + r))
        .collect();
    v.push(id::TEXENV_UPDATE_BUFFER);
    v.push(id::TEXENV_BUFFER_COLOR);
    v
}

/// FOP: [`fop::CONFIG_REGS`].
pub fn fop() -> Vec<u16> {
    fop::CONFIG_REGS.to_vec()
}

/// CLIP then RAST: [`clip::CONFIG_REGS`], [`rast::CONFIG_REGS`].
pub fn rast() -> Vec<u16> {
    clip::CONFIG_REGS
        .iter()
        .chain(rast::CONFIG_REGS.iter())
        .copied()
        .collect()
}

/// TEX: [`tex::CONFIG_REGS`].
pub fn tex() -> Vec<u16> {
    tex::CONFIG_REGS.to_vec()
}
