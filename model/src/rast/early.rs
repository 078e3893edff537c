//! The early depth test: a depth buffer of RAST's own that drops fragments before FOP.
//!
//! No public emulator implements the PICA200's early depth test as the registers describe it
//! (Azahar sw_rasterizer.cpp tests against the framebuffer's depth buffer with an 8-way compare
//! function that does not match seed 002's 2-bit GPUREG_EARLYDEPTH_FUNC, and has no clear
//! value). What is known (seed 002): a 2-bit function (0 `>=`, 1 `>`, 2 `<=`, 3 `<`), two
//! enable bits (GPUREG_EARLYDEPTH_TEST1, TEST2), a 24-bit clear value
//! (GPUREG_EARLYDEPTH_DATA) and a clear trigger (GPUREG_EARLYDEPTH_CLEAR). The clear value
//! implies storage the GPU clears by itself, separate from the framebuffer's depth buffer.
//!
//! UNVERIFIED(hw) [fact: rast-early-depth]: the whole model below is a model choice built from those facts:
//! - RAST keeps one 24-bit value per framebuffer pixel (window coordinates); power-on contents
//!   are [`EARLY_DEPTH_POWER_ON`];
//! - a write to GPUREG_EARLYDEPTH_CLEAR sets every value to GPUREG_EARLYDEPTH_DATA as the
//!   register holds it when RAST sees the trigger (the cycle after REGS applied it; REGS
//!   holds register writes while a draw is in flight, so this is between draws);
//! - with the test on, a covered pixel's depth quantized to 24 bits (independent of
//!   GPUREG_DEPTHBUFFER_FORMAT) is compared `fragment FUNC stored`; a failing fragment is
//!   dropped (FOP never sees it), a passing one replaces the stored value when RAST sends it;
//! - with the test off the buffer is neither read nor written.

use std::collections::HashMap;

use super::config::EarlyDepthFunc;

/// Early-depth buffer contents at power-on.
///
/// UNVERIFIED(hw) [fact: rast-early-depth]: 0 — model choice (registers and buffers of the model start at 0).
pub const EARLY_DEPTH_POWER_ON: u32 = 0;

/// The early-depth buffer: a value per pixel, stored sparsely (pixels never written since the
/// last clear hold the clear value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EarlyDepthBuffer {
    clear_value: u32,
    written: HashMap<(u16, u16), u32>,
    clears: u64,
}

impl Default for EarlyDepthBuffer {
    fn default() -> Self {
        Self::new()
    }
}

impl EarlyDepthBuffer {
    /// Power-on state: every pixel [`EARLY_DEPTH_POWER_ON`].
    pub fn new() -> Self {
        Self {
            clear_value: EARLY_DEPTH_POWER_ON,
            written: HashMap::new(),
            clears: 0,
        }
    }

    /// Sets every pixel to `value` (masked to 24 bits).
    pub fn clear(&mut self, value: u32) {
        self.clear_value = value & 0xFF_FFFF;
        self.written.clear();
        self.clears += 1;
    }

    /// The stored value of pixel (`x`, `y`).
    pub fn get(&self, x: u16, y: u16) -> u32 {
        self.written
            .get(&(x, y))
            .copied()
            .unwrap_or(self.clear_value)
    }

    /// Whether a fragment of 24-bit depth `depth` at (`x`, `y`) passes `func`.
    pub fn passes(&self, func: EarlyDepthFunc, x: u16, y: u16, depth: u32) -> bool {
        func.passes(depth, self.get(x, y))
    }

    /// Stores `depth` (masked to 24 bits) for pixel (`x`, `y`).
    pub fn store(&mut self, x: u16, y: u16, depth: u32) {
        self.written.insert((x, y), depth & 0xFF_FFFF);
    }

    /// The value of every pixel not written since the last clear.
    pub fn clear_value(&self) -> u32 {
        self.clear_value
    }

    /// Pixels written since the last clear.
    pub fn written(&self) -> usize {
        self.written.len()
    }

    /// Clears performed since power-on.
    pub fn clears(&self) -> u64 {
        self.clears
    }

    /// Every pixel written since the last clear as `(x, y, value)`, sorted by (y, x) (some
    /// may hold the clear value again; every other pixel holds the clear value).
    pub fn entries(&self) -> Vec<(u16, u16, u32)> {
        let mut v: Vec<(u16, u16, u32)> = self
            .written
            .iter()
            .map(|(&(x, y), &value)| (x, y, value))
            .collect();
        v.sort_unstable_by_key(|&(x, y, _)| (y, x));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rast_early_buffer_clear_store_get() {
        let mut b = EarlyDepthBuffer::new();
        assert_eq!(b.get(3, 4), EARLY_DEPTH_POWER_ON);
        b.store(3, 4, 0x1234_5678);
        assert_eq!(b.get(3, 4), 0x34_5678);
        assert_eq!(b.get(4, 3), EARLY_DEPTH_POWER_ON);
        assert!(b.passes(EarlyDepthFunc::Less, 3, 4, 0x34_5677));
        assert!(!b.passes(EarlyDepthFunc::Less, 3, 4, 0x34_5678));
        b.store(9, 2, 5);
        assert_eq!(b.entries(), vec![(9, 2, 5), (3, 4, 0x34_5678)]);
        b.clear(0xABCD_EF01);
        assert_eq!(b.entries(), vec![]);
        assert_eq!(b.get(3, 4), 0xCD_EF01);
        assert_eq!(
            (b.written(), b.clears(), b.clear_value()),
            (0, 1, 0xCD_EF01)
        );
    }
}
