//! The word packers behind the float-uniform and fixed-attribute FIFOs.

use crate::num::F24;
use serde::Serialize;

/// How a packer assembles a vec4 from 32-bit words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PackMode {
    /// Three words carry four f24 values (pica-facts §1): read W:Z:Y:X as one 96-bit number,
    /// W in the most significant bits; the first word written is its top 32 bits.
    F24x3,
    /// Four IEEE float32 words in the order W, Z, Y, X, each converted to f24 with
    /// [`F24::from_f32_bits`] (truncating; UNVERIFIED(hw) [fact: f32-to-f24-uniform], see there).
    F32x4,
    /// As [`PackMode::F32x4`], converting with [`F24::from_f32_bits_nearest`] (knob
    /// `f32-to-f24-uniform=nearest`).
    F32x4Nearest,
}

impl PackMode {
    /// Words needed for one vec4.
    pub const fn words(self) -> usize {
        match self {
            PackMode::F24x3 => 3,
            PackMode::F32x4 | PackMode::F32x4Nearest => 4,
        }
    }
}

/// Unpacks three words in f24 transfer order into `[x, y, z, w]` (pica-facts §1; seed 002
/// GPUREG_FIXEDATTRIB_DATAi gives the same layout field by field).
pub const fn unpack_f24x3(w: [u32; 3]) -> [F24; 4] {
    let wv = w[0] >> 8;
    let z = ((w[0] & 0xFF) << 16) | (w[1] >> 16);
    let y = ((w[1] & 0xFFFF) << 8) | (w[2] >> 24);
    let x = w[2] & 0xFF_FFFF;
    [
        F24::from_bits(x),
        F24::from_bits(y),
        F24::from_bits(z),
        F24::from_bits(wv),
    ]
}

/// Packs `[x, y, z, w]` into the three transfer words (inverse of [`unpack_f24x3`]).
pub const fn pack_f24x3(v: [F24; 4]) -> [u32; 3] {
    let (x, y, z, w) = (v[0].bits(), v[1].bits(), v[2].bits(), v[3].bits());
    [
        (w << 8) | (z >> 16),
        ((z & 0xFFFF) << 16) | (y >> 8),
        ((y & 0xFF) << 24) | x,
    ]
}

/// A FIFO that collects words until a vec4 is complete.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Packer {
    words: Vec<u32>,
}

impl Packer {
    /// Words collected towards the next vec4.
    pub fn pending(&self) -> &[u32] {
        &self.words
    }

    /// Drops a partial vec4 (on a write to the FIFO's index register).
    ///
    /// UNVERIFIED(hw) [fact: regs-packer-reset]: writing the index register discards a partially sent vec4 — model
    /// choice (Azahar resets its immediate-mode queue the same way).
    pub fn clear(&mut self) {
        self.words.clear();
    }

    /// Adds a word; returns the vec4 `[x, y, z, w]` when `mode`'s word count is reached.
    pub fn push(&mut self, word: u32, mode: PackMode) -> Option<[F24; 4]> {
        self.words.push(word);
        if self.words.len() < mode.words() {
            return None;
        }
        let v = match mode {
            PackMode::F24x3 => unpack_f24x3([self.words[0], self.words[1], self.words[2]]),
            PackMode::F32x4 => {
                let c = |i: usize| F24::from_f32_bits(self.words[i]);
                [c(3), c(2), c(1), c(0)]
            }
            PackMode::F32x4Nearest => {
                let c = |i: usize| F24::from_f32_bits_nearest(self.words[i]);
                [c(3), c(2), c(1), c(0)]
            }
        };
        self.words.clear();
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(b: u32) -> F24 {
        F24::from_bits(b)
    }

    #[test]
    fn packer_f24_layout_matches_pica_facts() {
        // x=1.0 (0x3F0000), y=0.5 (0x3E0000), z=3.0 (0x408000), w=-1.0 (0xBF0000).
        let v = [f(0x3F_0000), f(0x3E_0000), f(0x40_8000), f(0xBF_0000)];
        let words = pack_f24x3(v);
        // word0 = W << 8 | Z >> 16; word1 = (Z & 0xFFFF) << 16 | Y >> 8; word2 = (Y & 0xFF) << 24 | X
        assert_eq!(words, [0xBF00_0040, 0x8000_3E00, 0x003F_0000]);
        assert_eq!(unpack_f24x3(words), v);
    }

    #[test]
    fn packer_collects_three_or_four_words() {
        let mut p = Packer::default();
        assert_eq!(p.push(0xBF00_0040, PackMode::F24x3), None);
        assert_eq!(p.push(0x8000_3E00, PackMode::F24x3), None);
        let v = p.push(0x003F_0000, PackMode::F24x3).unwrap();
        assert_eq!(
            v.map(F24::bits),
            [0x3F_0000, 0x3E_0000, 0x40_8000, 0xBF_0000]
        );
        assert!(p.pending().is_empty());
        // f32 mode: W, Z, Y, X = 4.0, 3.0, 2.0, 1.0
        for w in [0x4080_0000, 0x4040_0000, 0x4000_0000] {
            assert_eq!(p.push(w, PackMode::F32x4), None);
        }
        let v = p.push(0x3F80_0000, PackMode::F32x4).unwrap();
        assert_eq!(
            v.map(F24::bits),
            [0x3F_0000, 0x40_0000, 0x40_8000, 0x41_0000]
        );
    }
}
