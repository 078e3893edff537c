//! Stand-in for the texture combiners (TEV) until the combiner work (issue 6) replaces it.
//!
//! Issue 5 needs only what a driver's default setup draws: combiner stage 0 passing the
//! primary colour through (source = primary colour, operand = colour / alpha, operation =
//! replace), stages 1-5 passing "previous" on. So the combiner output is the fragment's
//! primary colour, whatever GPUREG_TEXENVi_* hold.
//!
//! UNVERIFIED(hw): not a hardware fact but a deliberate simplification — the TEV registers
//! are ignored. Swapping in the real combiners means replacing [`combiner_output`] only; FOP
//! calls nothing else.

use crate::pipe::Fragment;
use crate::regfile::RegFile;

/// The colour `[r, g, b, a]` the fragment operations receive for `frag`: its primary colour.
///
/// `regs` is taken (and ignored) so the real combiners can slot in without changing callers.
pub fn combiner_output(frag: &Fragment, regs: &RegFile) -> [u8; 4] {
    let _ = regs;
    frag.color
}
