//! FOG (plain fog mode): LUT interpolation at entry boundaries and fractions, the z flip, the
//! 16-bit depth widening (bit replication), the exact colour blend, fog off — hand-derived
//! expected bytes.
//!
//! The arithmetic (see `pica_model::fog`): `z` = 24-bit fog coordinate, entry `z >> 17`,
//! fraction `t = z & 0x1FFFF`, `F = value·2^17 + difference·t` (units 2^-28, clamped to
//! [0, 2^28]), channel = `(color·F + fog·(2^28 − F)) >> 28`.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::fog;
use pica_model::num::F24;
use pica_model::pipe::{Fragment, OutVertex, ShadedFragment};
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use proptest::prelude::*;

/// Combiner output entering FOG.
const COLOR: [u8; 4] = [200, 100, 0, 77];
/// GPUREG_FOG_COLOR: r 0, g 255, b 50 (bits 24-31 are not a field: set them to check they
/// are ignored).
const FOG_COLOR: u32 = 0xAB32_FF00;

const MODE_FOG: u32 = 5;
const Z_FLIP: u32 = 1 << 16;

// GPUREG_DEPTHBUFFER_FORMAT values.
const D16: u32 = 0;
const D24: u32 = 2;
const D24S8: u32 = 3;

/// A fog LUT word: value (0.0.11) in bits 13-23, difference (1.1.11) in bits 0-12.
fn entry(value: u32, difference: u32) -> u32 {
    value << 13 | difference
}

struct Bench {
    regs: RegFile,
}

impl Bench {
    /// LUT: entry 0 = 0.5 + 0.25 difference, entry 1 = 0, entry 2 = 2047/2048 + 4095/2048
    /// (clamps to 1), entry 3 = 0 − 1/2048 (clamps to 0), entry 127 = 2047/2048 + 1/2048;
    /// the others 0.
    fn new(update: u32, depth_format: u32) -> Self {
        let mut b = Self {
            regs: RegFile::new(),
        };
        b.set(id::TEXENV_UPDATE_BUFFER, update);
        b.set(id::DEPTHBUFFER_FORMAT, depth_format);
        b.set(id::FOG_COLOR, FOG_COLOR);
        b.set(id::FOG_LUT_INDEX, 0);
        for w in [
            entry(1024, 512),
            entry(0, 0),
            entry(2047, 0xFFF),
            entry(0, 0x1FFF),
        ] {
            b.set(id::FOG_LUT_DATA0, w);
        }
        b.set(id::FOG_LUT_INDEX, 127);
        b.set(id::FOG_LUT_DATA3, entry(2047, 1));
        b
    }

    fn set(&mut self, reg: u16, value: u32) {
        self.regs.write(reg, value);
    }

    /// FOG's output for a fragment at `depth` whose combiner output is [`COLOR`].
    fn fog(&self, depth: u32) -> [u8; 4] {
        let mut f = ShadedFragment::new(Fragment {
            x: 0,
            y: 0,
            depth,
            color: [1, 2, 3, 4],
            attr: OutVertex::ONES.attr,
            tri: 0,
            tex_deriv: [[F24::ZERO; 4]; 3],
        });
        f.color = COLOR;
        fog::apply(&mut f, &self.regs);
        f.color
    }
}

#[test]
fn fog_lut_entry_boundaries_and_fractions() {
    let b = Bench::new(MODE_FOG, D24);
    // Entry 0 start: F = 0.5 → 200/2 = 100, (100 + 255)/2 = 177.5 → 177, 50/2 = 25.
    assert_eq!(b.fog(0), [100, 177, 25, 77]);
    // Halfway: F = 0.5 + 0.25·0.5 = 0.625 → 125, 62.5 + 95.625 = 158.1 → 158,
    // 50·0.375 = 18.75 → 18.
    assert_eq!(b.fog(0x01_0000), [125, 158, 18, 77]);
    // Last fraction of entry 0: F = (2^27 + 512·0x1FFFF)/2^28 = 0.749998 → 149.9996 → 149
    // (the blend truncates), 138.75 − ε → 138, 12.5000x → 12.
    assert_eq!(b.fog(0x01_FFFF), [149, 138, 12, 77]);
    // Entry 1 start: F = 0 → the fog colour.
    assert_eq!(b.fog(0x02_0000), [0, 255, 50, 77]);
    // Last entry, last fraction: F = (2047·2^17 + 0x1FFFF)/2^28 = 1 − 2^-28 →
    // 200 − ε → 199, 100 + ε → 100, ε → 0.
    assert_eq!(b.fog(0xFF_FFFF), [199, 100, 0, 77]);
}

#[test]
fn fog_factor_clamps_to_one_and_zero() {
    let b = Bench::new(MODE_FOG, D24S8);
    // Entry 2 near its end: 2047/2048 + 4095/2048·(almost 1) > 1 → clamped: colour unchanged.
    assert_eq!(b.fog(0x05_FFFF), COLOR);
    // Entry 3 halfway: 0 − 1/2048·0.5 < 0 → clamped: the fog colour.
    assert_eq!(b.fog(0x07_0000), [0, 255, 50, 77]);
}

#[test]
fn fog_z_flip_uses_complement() {
    let b = Bench::new(MODE_FOG | Z_FLIP, D24);
    // depth 0 → z = 0xFFFFFF (entry 127, last fraction).
    assert_eq!(b.fog(0), [199, 100, 0, 77]);
    // depth 0xFFFFFF → z = 0 (entry 0 start).
    assert_eq!(b.fog(0xFF_FFFF), [100, 177, 25, 77]);
    // depth 0xFDFFFF → z = 0x020000 (entry 1 start).
    assert_eq!(b.fog(0xFD_FFFF), [0, 255, 50, 77]);
    // depth 0xFEFFFF → z = 0x010000 (entry 0 halfway).
    assert_eq!(b.fog(0xFE_FFFF), [125, 158, 18, 77]);
}

#[test]
fn fog_d16_depth_is_replicated_to_24_bits() {
    // D16 depths widen by bit replication, d << 8 | d >> 8
    // (pica_model::num::depth_to_24).
    let b = Bench::new(MODE_FOG, D16);
    // 0x0100 → 0x010001: entry 0, t = 0x10001: F = (2^27 + 512·0x10001)/2^28 = 0.6250019 →
    // 125.0004 → 125, 62.5002 + 95.6245 = 158.12 → 158, 50·0.3749981 = 18.7499 → 18.
    assert_eq!(b.fog(0x0100), [125, 158, 18, 77]);
    // 0x00FF → 0xFF00 (0xFF >> 8 = 0): F = (2^27 + 512·0xFF00)/2^28 = 0.62451 → 124.9 → 124,
    // 158, 18.
    assert_eq!(b.fog(0x00FF), [124, 158, 18, 77]);
    // 0x0200 → 0x020002: entry 1 (F = 0): the fog colour.
    assert_eq!(b.fog(0x0200), [0, 255, 50, 77]);
    let b = Bench::new(MODE_FOG | Z_FLIP, D16);
    // The far plane 0xFFFF → 0xFFFFFF, flipped 0: entry 0 start, F = 0.5 → 100, 177, 25
    // (a shift, 0xFFFF00, would leave t = 0xFF: 24 in blue).
    assert_eq!(b.fog(0xFFFF), [100, 177, 25, 77]);
    // 0xFF00 → 0xFF00FF, flipped 0x00FF00: F = 0.62451 as above.
    assert_eq!(b.fog(0xFF00), [124, 158, 18, 77]);
}

#[test]
fn fog_off_and_unused_modes_leave_color() {
    for mode in [0, 1, 2, 3, 4, 6] {
        let b = Bench::new(mode, D24);
        for depth in [0, 0x01_0000, 0x02_0000, 0xFF_FFFF] {
            assert_eq!(b.fog(depth), COLOR, "mode {mode} depth {depth:#x}");
        }
    }
}

#[test]
fn fog_buffer_bits_do_not_matter() {
    // The combiner-buffer bits in the same register do not change fog.
    let b = Bench::new(MODE_FOG | 0xFF00, D24);
    assert_eq!(b.fog(0x01_0000), [125, 158, 18, 77]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// With any LUT word, depth, format and flip, each fogged RGB channel lies between the
    /// combiner colour and the fog colour, and alpha is unchanged.
    #[test]
    fn prop_fog_blend_between_color_and_fog_color(
        lut_word in any::<u32>(),
        depth in any::<u32>(),
        format in 0u32..4,
        flip in any::<bool>(),
        color in any::<[u8; 4]>(),
        fog_color in any::<u32>(),
    ) {
        let mut b = Bench::new(MODE_FOG | if flip { Z_FLIP } else { 0 }, format);
        b.set(id::FOG_COLOR, fog_color);
        // Fill every entry with the same word so whichever entry the depth selects is it.
        b.set(id::FOG_LUT_INDEX, 0);
        for _ in 0..128 {
            b.set(id::FOG_LUT_DATA0, lut_word);
        }
        let mut f = ShadedFragment::new(Fragment {
            x: 0,
            y: 0,
            depth,
            color,
            attr: OutVertex::ONES.attr,
            tri: 0,
            tex_deriv: [[F24::ZERO; 4]; 3],
        });
        f.color = color;
        fog::apply(&mut f, &b.regs);
        let k = fog_color.to_le_bytes();
        for i in 0..3 {
            prop_assert!(f.color[i] >= color[i].min(k[i]) && f.color[i] <= color[i].max(k[i]));
        }
        prop_assert_eq!(f.color[3], color[3]);
    }
}
