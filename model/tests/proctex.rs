//! The procedural texture unit (texture 3): every mapping function, clamp and shift mode, the
//! mapping- and colour-table interpolation, separate alpha and noise, on hand-chosen
//! coordinates with hand-derived outputs.
//!
//! Registers and LUTs are set through `RegFile::apply`, as REGS would (LUTs through
//! GPUREG_PROCTEX_LUT and the data FIFO). Fixed point: coordinates and mapping outputs have 12
//! fraction bits (1.0 = 4096), see `model/src/tex/proctex.rs`.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::num::F24;
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use pica_model::tex::proctex::{
    coord_from_f24, coords, lod, lookup_value_lut, noise_coefficient, noise_rand_2d, proctex,
    ProctexConfig, NOISE_SCALE, ONE,
};
use proptest::prelude::*;

// GPUREG_PROCTEX_LUT table selectors (seed 002).
const T_NOISE: u32 = 0;
const T_RGB_MAP: u32 = 2;
const T_ALPHA_MAP: u32 = 3;
const T_COLOR: u32 = 4;
const T_COLOR_DIFF: u32 = 5;

// PROCTEX0 field values (seed 002).
const CLAMP_ZERO: u32 = 0;
const CLAMP_EDGE: u32 = 1;
const CLAMP_SYM: u32 = 2;
const CLAMP_MIRROR: u32 = 3;
const CLAMP_PULSE: u32 = 4;
const F_U: u32 = 0;
const F_U2: u32 = 1;
const F_V: u32 = 2;
const F_V2: u32 = 3;
const F_ADD: u32 = 4;
const F_ADD2: u32 = 5;
const F_SQRT: u32 = 6;
const F_MIN: u32 = 7;
const F_MAX: u32 = 8;
const F_RMAX: u32 = 9;
const SHIFT_NONE: u32 = 0;
const SHIFT_ODD: u32 = 1;
const SHIFT_EVEN: u32 = 2;
const SEPARATE_ALPHA: u32 = 1 << 14;
const NOISE: u32 = 1 << 15;

// PROCTEX4 min_filter.
const NEAREST: u32 = 0;
const LINEAR: u32 = 1;
const NEAREST_MIP_NEAREST: u32 = 2;
const NEAREST_MIP_LINEAR: u32 = 4;

// f24 constants (sign 23, exponent 16-22 bias 63, mantissa 0-15).
const F24_0_0625: u32 = 0x3B_0000;
const F24_0_125: u32 = 0x3C_0000;
const F24_0_25: u32 = 0x3D_0000;
const F24_0_40625: u32 = 0x3D_A000; // 1.625 · 2^-2
const F24_0_4375: u32 = 0x3D_C000; // 1.75 · 2^-2
const F24_0_5: u32 = 0x3E_0000;
const F24_0_75: u32 = 0x3E_8000;
const F24_1_0: u32 = 0x3F_0000;
const F24_1_5: u32 = 0x3F_8000;
const F24_1_75: u32 = 0x3F_C000;
const F24_2_25: u32 = 0x40_2000; // 1.125 · 2
const F24_2_5: u32 = 0x40_4000; // 1.25 · 2
const F24_3_5: u32 = 0x40_C000; // 1.75 · 2

fn f(bits: u32) -> F24 {
    F24::from_bits(bits)
}

/// A register file with a proctex set up to make the mapping output readable.
struct Bench {
    regs: RegFile,
}

impl Bench {
    /// Identity RGB and alpha maps and noise table (entry i: value 32·i, difference 32, so
    /// `lut(m) = m` exactly), a colour table whose entry i is `(i, i, i, 255 - i)`, width 129 (the
    /// 8-bit width field cannot hold 256; span 128 makes the index `m / 32`),
    /// offset 0, nearest filter, clamp to edge on both coordinates.
    fn new() -> Self {
        let mut b = Self {
            regs: RegFile::new(),
        };
        let identity: Vec<u32> = (0..128).map(|i| (32 * i) | (32 << 12)).collect();
        b.lut(T_RGB_MAP, 0, &identity);
        b.lut(T_ALPHA_MAP, 0, &identity);
        b.lut(T_NOISE, 0, &identity);
        let colors: Vec<u32> = (0..256)
            .map(|i| i | i << 8 | i << 16 | (255 - i) << 24)
            .collect();
        b.lut(T_COLOR, 0, &colors);
        b.p0(CLAMP_EDGE, CLAMP_EDGE, F_U, F_U, 0);
        b.p4(NEAREST, 129);
        b
    }

    fn set(&mut self, reg: u16, value: u32) {
        self.regs.write(reg, value);
    }

    fn lut(&mut self, table: u32, index: u32, words: &[u32]) {
        self.set(id::PROCTEX_LUT, table << 8 | index);
        for &w in words {
            self.set(id::PROCTEX_LUT_DATA0, w);
        }
    }

    /// PROCTEX0 with clamps, functions and extra bits (shifts, separate alpha, noise).
    fn p0(&mut self, u_clamp: u32, v_clamp: u32, rgb: u32, alpha: u32, extra: u32) {
        self.set(
            id::TEXUNIT3_PROCTEX0,
            u_clamp | v_clamp << 3 | rgb << 6 | alpha << 10 | extra,
        );
    }

    fn p4(&mut self, filter: u32, width: u32) {
        self.set(id::TEXUNIT3_PROCTEX4, filter | width << 11);
    }

    fn run(&self, u: u32, v: u32) -> [u8; 4] {
        proctex(f(u), f(v), [F24::ZERO; 4], &self.regs)
    }

    /// The clamped coordinates the mapping functions see.
    fn coords(&self, u: u32, v: u32) -> (u32, u32) {
        let cfg = ProctexConfig::read(&self.regs);
        coords(
            coord_from_f24(f(u)),
            coord_from_f24(f(v)),
            &cfg,
            &self.regs.luts().proctex[0],
        )
    }
}

/// Nearest lookup in the bench's colour table: index `round(m · 128 / 4096)`, half up.
fn nearest_index(m: u32) -> u8 {
    ((m * 128 + 2048) >> 12) as u8
}

/// The separate-alpha channel of a mapping output: `round(m · 255 / 4096)`, half up.
fn alpha_of(m: u32) -> u8 {
    ((m * 255 + 2048) >> 12) as u8
}

#[test]
fn proctex_mapping_functions_hand_derived() {
    // u = 0.75 (3072), v = 0.25 (1024); outputs in units of 2^-12, truncated:
    //   U 3072; U² 3072²/4096 = 2304; V 1024; V² 256; (U+V)/2 2048;
    //   (U²+V²)/2 = (9437184 + 1048576) >> 13 = 1280;
    //   sqrt(U²+V²) = isqrt(10485760) = 3238 (sqrt(0.625) = 0.79057 · 4096 = 3238.2);
    //   min 1024; max 3072;
    //   rmax = (u + v + 2·3238) >> 2 = 10572 >> 2 = 2643 ((0.5 + 0.79057) / 2 · 4096 = 2643.1).
    let cases = [
        (F_U, 3072),
        (F_U2, 2304),
        (F_V, 1024),
        (F_V2, 256),
        (F_ADD, 2048),
        (F_ADD2, 1280),
        (F_SQRT, 3238),
        (F_MIN, 1024),
        (F_MAX, 3072),
        (F_RMAX, 2643),
    ];
    let mut b = Bench::new();
    for (func, m) in cases {
        b.p0(CLAMP_EDGE, CLAMP_EDGE, func, func, SEPARATE_ALPHA);
        let i = nearest_index(m);
        assert_eq!(
            b.run(F24_0_75, F24_0_25),
            [i, i, i, alpha_of(m)],
            "function {func}, m = {m}"
        );
    }
    // The same outputs as bytes, spelt out: rgb = round(m / 32), a = round(m·255/4096)
    // (2643·255/4096 = 164.54 → 165; 2048·255/4096 = 127.5 → 128).
    b.p0(CLAMP_EDGE, CLAMP_EDGE, F_SQRT, F_RMAX, SEPARATE_ALPHA);
    assert_eq!(b.run(F24_0_75, F24_0_25), [101, 101, 101, 165]);
    b.p0(CLAMP_EDGE, CLAMP_EDGE, F_ADD, F_ADD, SEPARATE_ALPHA);
    assert_eq!(b.run(F24_0_75, F24_0_25), [64, 64, 64, 128]);
}

#[test]
fn proctex_sqrt_and_rmax_clamp_to_one() {
    // u = v = 1.0: sqrt(2) → 1.0; rmax (1 + sqrt 2) / 2 → 1.0.
    let mut b = Bench::new();
    b.p0(CLAMP_EDGE, CLAMP_EDGE, F_SQRT, F_RMAX, SEPARATE_ALPHA);
    assert_eq!(b.run(F24_1_0, F24_1_0), [128, 128, 128, 255]);
}

#[test]
fn proctex_reserved_mapping_function_reads_entry_zero() {
    // Function 12 (reserved) gives 0 → map entry 0 (value 0) → colour entry 0.
    let mut b = Bench::new();
    b.p0(CLAMP_EDGE, CLAMP_EDGE, 12, 12, SEPARATE_ALPHA);
    assert_eq!(b.run(F24_0_75, F24_0_25), [0, 0, 0, 0]);
}

#[test]
fn proctex_clamp_modes() {
    let mut b = Bench::new();
    // (clamp, u, expected u in units of 2^-12)
    let cases = [
        (CLAMP_ZERO, F24_0_5, 2048),
        (CLAMP_ZERO, F24_1_0, 4096), // 1.0 is not above 1.0
        (CLAMP_ZERO, F24_1_75, 0),
        (CLAMP_EDGE, F24_1_75, 4096),
        (CLAMP_EDGE, F24_0_75, 3072),
        (CLAMP_SYM, F24_1_75, 3072),
        (CLAMP_SYM, F24_2_25, 1024),
        (CLAMP_SYM, F24_1_0, 0),
        (CLAMP_MIRROR, F24_1_75, 1024), // odd integer part: 1 - 0.75
        (CLAMP_MIRROR, F24_2_25, 1024), // even: 0.25
        (CLAMP_MIRROR, F24_1_0, 4096),  // odd, fraction 0: 1.0
        (CLAMP_MIRROR, F24_0_75, 3072),
        (CLAMP_PULSE, F24_0_5, 0), // 0.5 is not above 0.5
        (CLAMP_PULSE, F24_0_75, 4096),
        (CLAMP_PULSE, F24_2_25, 4096),
        (5, F24_1_75, 4096), // reserved: clamp to edge
    ];
    for (clamp, u, want) in cases {
        b.p0(clamp, clamp, F_U, F_V, 0);
        assert_eq!(b.coords(u, u), (want, want), "clamp {clamp}, u {u:#x}");
        let i = nearest_index(want);
        assert_eq!(
            b.run(u, F24_0_25),
            [i, i, i, 255 - i],
            "clamp {clamp}, u {u:#x}"
        );
    }
}

#[test]
fn proctex_negative_and_special_coordinates() {
    let mut b = Bench::new();
    b.p0(CLAMP_EDGE, CLAMP_EDGE, F_U, F_U, 0);
    // -0.75 → |u| = 0.75.
    assert_eq!(b.coords(F24_0_75 | 0x80_0000, 0), (3072, 0));
    // +inf saturates (clamp to edge → 1.0), NaN reads 0.
    assert_eq!(b.coords(0x7F_0000, 0x7F_8000), (4096, 0));
    b.p0(CLAMP_SYM, CLAMP_SYM, F_U, F_U, 0);
    // Saturated coordinate: fraction of u32::MAX / 4096 = 4095.
    assert_eq!(b.coords(0x7F_0000, 0), (4095, 0));
}

#[test]
fn proctex_shift_modes() {
    let mut b = Bench::new();
    // u = 0.25 shifted by the V coordinate's integer part. Odd: on for int(v) / 2 odd.
    b.p0(CLAMP_EDGE, CLAMP_EDGE, F_U, F_U, SHIFT_ODD << 16);
    assert_eq!(b.coords(F24_0_25, F24_0_5).0, 1024); // int 0 → off
    assert_eq!(b.coords(F24_0_25, F24_1_5).0, 1024); // int 1 → 0 → off
    assert_eq!(b.coords(F24_0_25, F24_2_5).0, 3072); // int 2 → 1 → +0.5
    assert_eq!(b.coords(F24_0_25, F24_3_5).0, 3072); // int 3 → 1 → +0.5
                                                     // Even: on for (int(v) + 1) / 2 odd.
    b.p0(CLAMP_EDGE, CLAMP_EDGE, F_U, F_U, SHIFT_EVEN << 16);
    assert_eq!(b.coords(F24_0_25, F24_0_5).0, 1024); // (0+1)/2 = 0
    assert_eq!(b.coords(F24_0_25, F24_1_5).0, 3072); // (1+1)/2 = 1
    assert_eq!(b.coords(F24_0_25, F24_2_5).0, 3072); // (2+1)/2 = 1
    assert_eq!(b.coords(F24_0_25, F24_3_5).0, 1024); // (3+1)/2 = 2
                                                     // Mirrored repeat shifts by 1.0: 0.25 + 1.0 = 1.25 → odd → 1 - 0.25 = 0.75.
    b.p0(CLAMP_MIRROR, CLAMP_EDGE, F_U, F_U, SHIFT_ODD << 16);
    assert_eq!(b.coords(F24_0_25, F24_2_5).0, 3072);
    // Symmetrical repeat with a 0.5 shift: 0.75 + 0.5 = 1.25 → 0.25.
    b.p0(CLAMP_SYM, CLAMP_EDGE, F_U, F_U, SHIFT_ODD << 16);
    assert_eq!(b.coords(F24_0_75, F24_2_5).0, 1024);
    // V shift from U: v = 0.25, u = 1.5 (Even: on), v becomes 0.75; u unshifted.
    b.p0(
        CLAMP_SYM,
        CLAMP_EDGE,
        F_U,
        F_U,
        SHIFT_NONE << 16 | SHIFT_EVEN << 18,
    );
    assert_eq!(b.coords(F24_1_5, F24_0_25), (2048, 3072));
    // Reserved shift 3: no offset.
    b.p0(CLAMP_EDGE, CLAMP_EDGE, F_U, F_U, 3 << 16);
    assert_eq!(b.coords(F24_0_25, F24_2_5).0, 1024);
    // End to end: Odd shift, v = 2.5 → u 0.75 → colour index 3072 / 32 = 96.
    b.p0(CLAMP_EDGE, CLAMP_EDGE, F_U, F_U, SHIFT_ODD << 16);
    assert_eq!(b.run(F24_0_25, F24_2_5), [96, 96, 96, 159]);
}

#[test]
fn proctex_mapping_table_interpolates_with_difference() {
    let mut b = Bench::new();
    // Entry 64: value 1000, difference +256; entry 65: value 3000, difference -512;
    // entry 66: value 1000, difference -1.
    b.lut(
        T_RGB_MAP,
        64,
        &[
            1000 | 256 << 12,
            3000 | (0x1000 - 512) << 12,
            1000 | 0xFFF << 12,
        ],
    );
    let map = b.regs.luts().proctex[1].clone();
    // coord 2056 = 64/128 + 0.25/128: 1000 + 256 · 0.25 = 1064.
    assert_eq!(lookup_value_lut(&map, 2056), 1064);
    // coord 2104 = 65/128 + 0.75/128: 3000 - 512 · 0.75 = 2616.
    assert_eq!(lookup_value_lut(&map, 2104), 2616);
    // coord 2128 = 66/128 + 0.5/128: 1000 - 0.5 floors to 999.
    assert_eq!(lookup_value_lut(&map, 2128), 999);
    // At an entry boundary the value alone.
    assert_eq!(lookup_value_lut(&map, 2048), 1000);
    // End to end: u = 0.501953125 (f24 0x3E0100) = 2056 → m = 1064 →
    // colour index round(1064 / 32) = round(33.25) = 33.
    b.p0(CLAMP_EDGE, CLAMP_EDGE, F_U, F_U, 0);
    assert_eq!(b.run(0x3E_0100, 0), [33, 33, 33, 222]);
}

#[test]
fn proctex_color_table_linear_uses_half_differences() {
    let mut b = Bench::new();
    // Width 9 (span 8), offset 16, linear.
    b.p4(LINEAR, 9);
    b.set(id::TEXUNIT3_PROCTEX5, 16);
    // Entry 16 + 3: colour (100, 200, 50, 255), half differences (10, -20, 127, -128);
    // entry 16 + 4: colour (250, 0, 0, 10), half differences (127, -1, 0, 0).
    b.lut(
        T_COLOR,
        19,
        &[100 | 200 << 8 | 50 << 16 | 255 << 24, 250 | 10 << 24],
    );
    b.lut(
        T_COLOR_DIFF,
        19,
        &[
            10 | (256 - 20) << 8 | 127 << 16 | 0x80 << 24,
            127 | 0xFF << 8,
        ],
    );
    // u = 0.40625 → m = 1664 → position 1664 · 8 = 3.25 entries: i = 3, fraction 0.25:
    // r 100 + 2·10·0.25 = 105; g 200 - 40·0.25 = 190; b 50 + 254·0.25 = 113.5 → 113;
    // a 255 - 256·0.25 = 191.
    assert_eq!(b.run(F24_0_40625, 0), [105, 190, 113, 191]);
    // u = 0.5625 (f24 0x3E2000) → m = 2304 → 4.5 entries: i = 4, fraction 0.5:
    // r 250 + 127 = 377 → clamps to 255; g 0 - 1 → clamps to 0; b 0; a 10.
    assert_eq!(b.run(0x3E_2000, 0), [255, 0, 0, 10]);
    // Mipmap-linear filters act as Linear at level 0.
    b.p4(5, 9);
    assert_eq!(b.run(F24_0_40625, 0), [105, 190, 113, 191]);
}

#[test]
fn proctex_color_table_nearest_rounds_half_up() {
    let mut b = Bench::new();
    b.p4(NEAREST, 9);
    b.set(id::TEXUNIT3_PROCTEX5, 16);
    // 3.25 → entry 16 + 3 = 19; 3.5 → entry 20 (the bench's colour i = (i, i, i, 255 - i)).
    assert_eq!(b.run(F24_0_40625, 0), [19, 19, 19, 236]);
    assert_eq!(b.run(F24_0_4375, 0), [20, 20, 20, 235]);
    // Mipmap-nearest filters act as Nearest at level 0; reserved 7 too.
    b.p4(2, 9);
    assert_eq!(b.run(F24_0_4375, 0), [20, 20, 20, 235]);
    b.p4(7, 9);
    assert_eq!(b.run(F24_0_4375, 0), [20, 20, 20, 235]);
    // Only level0_offset matters (the level 1-3 offsets are ignored at LOD 0).
    b.set(
        id::TEXUNIT3_PROCTEX5,
        16 | 0x80 << 8 | 0xC0 << 16 | 0xE0 << 24,
    );
    assert_eq!(b.run(F24_0_4375, 0), [20, 20, 20, 235]);
}

#[test]
fn proctex_separate_alpha_uses_the_alpha_map() {
    let mut b = Bench::new();
    // Alpha map: every entry value 2048, difference 0 → alpha round(2048·255/4096) =
    // round(127.5) = 128, whatever the alpha function's input.
    b.lut(T_ALPHA_MAP, 0, &[2048; 128]);
    b.p0(CLAMP_EDGE, CLAMP_EDGE, F_U, F_V, SEPARATE_ALPHA);
    assert_eq!(b.run(F24_0_75, F24_0_25), [96, 96, 96, 128]);
    // A full-scale entry (0xFFF, what drivers write for 1.0) is opaque: 4095·255/4096 =
    // 254.94 → 255.
    b.lut(T_ALPHA_MAP, 0, &[0xFFF; 128]);
    assert_eq!(b.run(F24_0_75, F24_0_25), [96, 96, 96, 255]);
    // Without separate alpha the colour table's alpha (255 - 96 = 159).
    b.p0(CLAMP_EDGE, CLAMP_EDGE, F_U, F_V, 0);
    assert_eq!(b.run(F24_0_75, F24_0_25), [96, 96, 96, 159]);
}

#[test]
fn proctex_noise_rand_hand_derived() {
    // Hand-derived from the rule (see noise_rand_2d's docs):
    // R(1,0): u2 = 9, v2 = 6 → +4 = 10 → ^6 = 12 → +19 = 31 & 15 = 15 → ^T2[9]=13 → 2 → -11.
    // R(2,0): u2 = 12, v2 = 6 → 6 + 22 = 28 & 15 = 12 → ^T2[12]=13 → 1 → -13.
    // R(1,1): u2 = 9, v2 = 9 → 13 → ^6 = 11 → +19 = 30 & 15 = 14 → ^13 = 3 → -9.
    // R(2,1): u2 = 12, v2 = 9 → 31 & 15 = 15 → ^13 = 2 → -11.
    assert_eq!(noise_rand_2d(1, 0), -11);
    assert_eq!(noise_rand_2d(2, 0), -13);
    assert_eq!(noise_rand_2d(1, 1), -9);
    assert_eq!(noise_rand_2d(2, 1), -11);
}

#[test]
fn proctex_noise_on_off_hand_derived() {
    let mut b = Bench::new();
    // Frequencies 1.0 (f16 0x3C00), phases 0, U amplitude 1.0 (fixed1.3.12 0x1000), V 0.
    b.set(id::TEXUNIT3_PROCTEX1, 0x1000);
    b.set(id::TEXUNIT3_PROCTEX2, 0);
    b.set(id::TEXUNIT3_PROCTEX3, 0x3C00 | 0x3C00 << 16);
    // u = 0.125, v = 0.0625: noise off → (512, 256).
    b.p0(CLAMP_EDGE, CLAMP_EDGE, F_U, F_U, 0);
    assert_eq!(b.coords(F24_0_125, F24_0_0625), (512, 256));
    assert_eq!(b.run(F24_0_125, F24_0_0625), [16, 16, 16, 239]);
    // Noise on. Grid: x = 9 · 0.125 = 1.125 (xi 1, xf 512), y = 9 · 0.0625 = 0.5625
    // (yi 0, yf 2304); t = xf + yf = 2816.
    // g0 = R(1,0)·t = -11·2816 = -30976; g1 = R(2,0)·(t - 4096) = -13·-1280 = 16640;
    // g2 = R(1,1)·(t - 4096) = -9·-1280 = 11520; g3 = R(2,1)·(t - 8192) = -11·-5376 = 59136.
    // Identity noise table: wx = 512, wy = 2304.
    // x0 = -30976·3584 + 16640·512 = -102498304; x1 = 11520·3584 + 59136·512 = 71565312;
    // n = -102498304·1792 + 71565312·2304 = -18790481920 (over 15·2^36: -0.018229).
    b.p0(CLAMP_EDGE, CLAMP_EDGE, F_U, F_U, NOISE);
    let cfg = ProctexConfig::read(&b.regs);
    let n = noise_coefficient(512, 256, &cfg, &b.regs.luts().proctex[0]);
    assert_eq!(n, -18_790_481_920);
    assert_eq!(NOISE_SCALE, 15 << 36);
    // U offset = trunc(n · 4096 / NOISE_SCALE) = trunc(-74.67) = -74 → u = 438; v unchanged.
    assert_eq!(b.coords(F24_0_125, F24_0_0625), (438, 256));
    // Colour index round(438 / 32) = round(13.69) = 14.
    assert_eq!(b.run(F24_0_125, F24_0_0625), [14, 14, 14, 241]);
    // The same noise on V with amplitude -0.5 (0xF800): offset trunc(n·-2048/scale) = 37.
    b.set(id::TEXUNIT3_PROCTEX2, 0xF800);
    assert_eq!(b.coords(F24_0_125, F24_0_0625), (438, 293));
}

#[test]
fn proctex_noise_abs_after_negative_offset() {
    let mut b = Bench::new();
    // As above but amplitude 8.0 - 2^-12 (0x7FFF): offset trunc(n · 32767 / scale)
    // = trunc(-597.31) = -597 → |512 - 597| = 85.
    b.set(id::TEXUNIT3_PROCTEX1, 0x7FFF);
    b.set(id::TEXUNIT3_PROCTEX3, 0x3C00 | 0x3C00 << 16);
    b.p0(CLAMP_EDGE, CLAMP_EDGE, F_U, F_U, NOISE);
    assert_eq!(b.coords(F24_0_125, F24_0_0625), (85, 256));
}

#[test]
fn proctex_lod_bias_is_split_over_two_registers() {
    let mut b = Bench::new();
    // f16 0x3CAB: low byte 0xAB in PROCTEX0 bits 20-27, high byte 0x3C in PROCTEX4
    // bits 19-26.
    b.set(id::TEXUNIT3_PROCTEX0, 0xAB << 20);
    b.set(id::TEXUNIT3_PROCTEX4, 0x3C << 19);
    assert_eq!(ProctexConfig::read(&b.regs).lod_bias().bits(), 0x3CAB);
}

// ---- Level of detail and mipmap levels ------------------------------------------------------

/// 2^e as f24 (e in -62..=63).
fn pow2(e: i32) -> F24 {
    F24::from_parts(false, (63 + e) as u32, 0)
}

/// 1.5 · 2^e as f24.
fn pow2_x1_5(e: i32) -> F24 {
    F24::from_parts(false, (63 + e) as u32, 0x8000)
}

/// The bench with colour-table width 128, the mipmap filter `filter`, LOD range
/// `min..=max`, the f16 bias `bias` (split over PROCTEX0 bits 20-27 and PROCTEX4 19-26) and
/// level offsets 0, 0x80, 0xC0, 0xE0 (citro3d's defaults).
fn mip_bench(filter: u32, min: u32, max: u32, bias: u32) -> Bench {
    let mut b = Bench::new();
    b.set(
        id::TEXUNIT3_PROCTEX0,
        CLAMP_EDGE | CLAMP_EDGE << 3 | F_U << 6 | F_U << 10 | (bias & 0xFF) << 20,
    );
    b.set(
        id::TEXUNIT3_PROCTEX4,
        filter | min << 3 | max << 7 | 128 << 11 | (bias >> 8) << 19,
    );
    b.set(id::TEXUNIT3_PROCTEX5, 0xE0C0_8000);
    b
}

/// The LOD of `b` for differences `[du/dx, dv/dx, du/dy, dv/dy]`.
fn lod_of(b: &Bench, d: [F24; 4]) -> i32 {
    lod(&ProctexConfig::read(&b.regs), d)
}

#[test]
fn proctex_lod_sums_the_per_axis_maxima_inside_the_log() {
    // Width 128, bias 1.0 (f16 0x3C00): lod = log2(128 · (max|du| + max|dv|)), 4.8 fixed.
    let b = mip_bench(NEAREST_MIP_NEAREST, 0, 7, 0x3C00);
    let z = F24::ZERO;
    // du/dx = 1/128: 128 · 2^-7 = 1 → log2 1 = 0.
    assert_eq!(lod_of(&b, [pow2(-7), z, z, z]), 0);
    // du/dx = 1/32: 4 → 2.0.
    assert_eq!(lod_of(&b, [pow2(-5), z, z, z]), 512);
    // du/dx = 3/128, dv/dy = 1/128: max u 3 + max v 1 = 4 → 2.0 (the axes add).
    assert_eq!(lod_of(&b, [pow2_x1_5(-6), z, z, pow2(-7)]), 512);
    // du/dx = 1/128, du/dy = 3/128: the u maximum 3 alone → log2 3 ≈ 1 + 0.5 (the
    // piecewise-linear log2: 3 = 2 · 1.5) = 384. Signs do not matter.
    assert_eq!(lod_of(&b, [pow2(-7), z, pow2_x1_5(-6).negate(), z]), 384);
    // Bias 0.5 (0x3800) halves the product: 4 · 0.5 = 2 → 1.0. Bias -0.5 too (|bias|).
    let b = mip_bench(NEAREST_MIP_NEAREST, 0, 7, 0x3800);
    assert_eq!(lod_of(&b, [pow2(-5), z, z, z]), 256);
    let b = mip_bench(NEAREST_MIP_NEAREST, 0, 7, 0xB800);
    assert_eq!(lod_of(&b, [pow2(-5), z, z, z]), 256);
}

#[test]
fn proctex_lod_clamps_and_zero_bias() {
    let z = F24::ZERO;
    // Max LOD 1: a LOD of 5 (du/dx = 1/4 → 32) clamps to 1.0.
    let b = mip_bench(NEAREST_MIP_NEAREST, 0, 1, 0x3C00);
    assert_eq!(lod_of(&b, [pow2(-2), z, z, z]), 256);
    // Min LOD 2: no differences (log2 0) clamps up to 2.0.
    let b = mip_bench(NEAREST_MIP_NEAREST, 2, 7, 0x3C00);
    assert_eq!(lod_of(&b, [z; 4]), 512);
    // Max LOD 15 (4-bit field) is limited to 7.
    let b = mip_bench(NEAREST_MIP_NEAREST, 0, 15, 0x3C00);
    assert_eq!(lod_of(&b, [pow2(10), z, z, z]), 7 * 256);
    // Bias 0 (+0 or -0): LOD 0 whatever the differences, then the clamp.
    for bias in [0x0000, 0x8000] {
        let b = mip_bench(NEAREST_MIP_NEAREST, 0, 7, bias);
        assert_eq!(lod_of(&b, [pow2(-2), z, z, z]), 0);
        let b = mip_bench(NEAREST_MIP_NEAREST, 3, 7, bias);
        assert_eq!(lod_of(&b, [pow2(-2), z, z, z]), 3 * 256);
    }
    // Min above max acts as min = max.
    let b = mip_bench(NEAREST_MIP_NEAREST, 6, 2, 0x3C00);
    assert_eq!(lod_of(&b, [z; 4]), 512);
}

#[test]
fn proctex_mipmap_levels_use_their_offsets_and_widths() {
    // u = 0.75 → m = 3072 (identity map). Level L has width 128 >> L (span width - 1) and
    // starts at its offset; nearest index = (3072 · span + 2048) >> 12; the bench's colour
    // entry i is (i, i, i, 255 - i).
    //   L0: span 127 → 392192 >> 12 = 95, offset 0    → entry 95
    //   L1: span 63  → 195584 >> 12 = 47, offset 0x80 → entry 175
    //   L2: span 31  →  97280 >> 12 = 23, offset 0xC0 → entry 215
    //   L5: span 3   →  11264 >> 12 = 2,  offset 0xF8 → entry 250 (hardcoded offset)
    let z = F24::ZERO;
    let b = mip_bench(NEAREST_MIP_NEAREST, 0, 7, 0x3C00);
    let at = |d: [F24; 4]| proctex(f(F24_0_75), f(F24_0_25), d, &b.regs);
    assert_eq!(at([pow2(-7), z, z, z]), [95, 95, 95, 160]);
    assert_eq!(at([pow2(-6), z, z, z]), [175, 175, 175, 80]);
    assert_eq!(at([pow2(-5), z, z, z]), [215, 215, 215, 40]);
    assert_eq!(at([pow2(-2), z, z, z]), [250, 250, 250, 5]);
    // LOD 1.5 rounds half up to level 2.
    assert_eq!(at([pow2_x1_5(-6), z, z, z]), [215, 215, 215, 40]);
    // Mipmap linear at LOD 1.5: levels 1 and 2 blended half and half,
    // (175·128 + 215·128 + 128) >> 8 = 195, (80·128 + 40·128 + 128) >> 8 = 60.
    let b = mip_bench(NEAREST_MIP_LINEAR, 0, 7, 0x3C00);
    let at = |d: [F24; 4]| proctex(f(F24_0_75), f(F24_0_25), d, &b.regs);
    assert_eq!(at([pow2_x1_5(-6), z, z, z]), [195, 195, 195, 60]);
    // At an integer LOD only that level is read.
    assert_eq!(at([pow2(-6), z, z, z]), [175, 175, 175, 80]);
    // Plain Nearest ignores the LOD: level 0.
    let b = mip_bench(NEAREST, 0, 7, 0x3C00);
    let at = |d: [F24; 4]| proctex(f(F24_0_75), f(F24_0_25), d, &b.regs);
    assert_eq!(at([pow2(-2), z, z, z]), [95, 95, 95, 160]);
}

#[test]
fn proctex_default_registers_read_zero_tables() {
    // Fresh register file: every table zero → black, transparent.
    let regs = RegFile::new();
    assert_eq!(proctex(F24::ONE, F24::ONE, [F24::ZERO; 4], &regs), [0; 4]);
    assert_eq!(ONE, 4096);
}

fn f24_any() -> impl Strategy<Value = F24> {
    prop_oneof![
        (0u32..0x100_0000).prop_map(F24::from_bits),
        // Mostly the interesting range [0, 16).
        (0x30_0000u32..0x43_0000).prop_map(F24::from_bits),
        Just(F24::NAN),
        Just(F24::INFINITY),
        Just(F24::NEG_INFINITY),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any PROCTEX0-5 values, any LUT contents and any coordinates: no panic, and the result
    /// depends only on the inputs.
    #[test]
    fn proctex_prop_never_panics(
        p in prop::array::uniform6(any::<u32>()),
        noise in prop::collection::vec(any::<u32>(), 128),
        maps in prop::collection::vec(any::<u32>(), 256),
        color in prop::collection::vec(any::<u32>(), 256),
        diff in prop::collection::vec(any::<u32>(), 256),
        coords in prop::collection::vec((f24_any(), f24_any()), 8),
        deriv in prop::array::uniform4(f24_any()),
    ) {
        let mut b = Bench { regs: RegFile::new() };
        let ids = [
            id::TEXUNIT3_PROCTEX0,
            id::TEXUNIT3_PROCTEX1,
            id::TEXUNIT3_PROCTEX2,
            id::TEXUNIT3_PROCTEX3,
            id::TEXUNIT3_PROCTEX4,
            id::TEXUNIT3_PROCTEX5,
        ];
        b.lut(T_NOISE, 0, &noise);
        b.lut(T_RGB_MAP, 0, &maps[..128]);
        b.lut(T_ALPHA_MAP, 0, &maps[128..]);
        b.lut(T_COLOR, 0, &color);
        b.lut(T_COLOR_DIFF, 0, &diff);
        for (reg, value) in ids.into_iter().zip(p) {
            b.set(reg, value);
        }
        for (u, v) in coords {
            let a = proctex(u, v, deriv, &b.regs);
            prop_assert_eq!(a, proctex(u, v, deriv, &b.regs));
            let cfg = ProctexConfig::read(&b.regs);
            let l = lod(&cfg, deriv);
            prop_assert!((0..=7 * 256).contains(&l));
            let cfg = ProctexConfig::read(&b.regs);
            let (cu, cv) = pica_model::tex::proctex::coords(
                coord_from_f24(u),
                coord_from_f24(v),
                &cfg,
                &noise,
            );
            prop_assert!(cu <= ONE && cv <= ONE);
        }
    }
}
