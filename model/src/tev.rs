//! TEV: the six texture combiners and the combiner buffer.
//!
//! STUB (issue 6 in progress): passes the primary colour, like stage 0 of a driver's default
//! setup.

use crate::pipe::ShadedFragment;
use crate::regfile::RegFile;

/// One combiner stage's result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageOut {
    /// The stage's output `[r, g, b, a]` ("previous" for the next stage).
    pub color: [u8; 4],
    /// The combiner buffer after the stage ("previous buffer" for the next stage).
    pub buffer: [u8; 4],
}

/// What the combiners produce for one fragment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TevOut {
    /// Each of the six stages.
    pub stages: [StageOut; 6],
    /// The last stage's output.
    pub color: [u8; 4],
}

/// Runs the six combiners on `f`.
pub fn combine(f: &ShadedFragment, regs: &RegFile) -> TevOut {
    let _ = regs;
    let s = StageOut {
        color: f.frag.color,
        buffer: [0; 4],
    };
    TevOut {
        stages: [s; 6],
        color: f.frag.color,
    }
}
