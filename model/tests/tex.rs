//! Texture units 0-2 end to end: register file + memory in, colours and texel fetches out.
//!
//! Every expected value is derived by hand in the comments (texel bytes, Morton offsets, ETC1
//! block fields, filter weights); none is computed by the model's decoders.
#![allow(clippy::unwrap_used)]

use pica_model::num::F24;
use pica_model::pipe::{semantic, Fragment, NUM_SEMANTICS};
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use pica_model::tex::{texture_units, TexHang, TexelFetch};
use pica_model::Memory;
use proptest::prelude::*;

/// Texture base address (VRAM).
const BASE: u32 = 0x1800_0000;

/// PARAM bits.
const MAG_LINEAR: u32 = 1 << 1;
const MIN_LINEAR: u32 = 1 << 2;
const MIP_LINEAR: u32 = 1 << 24;
const fn wrap_s(m: u32) -> u32 {
    m << 12
}
const fn wrap_t(m: u32) -> u32 {
    m << 8
}
const fn ty(t: u32) -> u32 {
    t << 28
}

struct Bench {
    regs: RegFile,
    mem: Memory,
    frag: Fragment,
}

fn f(x: f64) -> F24 {
    let v = F24::from_f64_trunc(x);
    assert_eq!(v.to_f64(), x, "test value {x} must be exact in f24");
    v
}

impl Bench {
    /// Unit 0 enabled, `w` × `h`, format `fmt`, at BASE, nearest, clamp to edge.
    fn new(w: u32, h: u32, fmt: u32) -> Self {
        let mut b = Self {
            regs: RegFile::new(),
            mem: Memory::new(),
            frag: Fragment {
                x: 0,
                y: 0,
                depth: 0,
                color: [0; 4],
                attr: [F24::ZERO; NUM_SEMANTICS],
                tri: 0,
                tex_deriv: [[F24::ZERO; 4]; 3],
            },
        };
        b.set(id::TEXUNIT_CONFIG, 0x1001);
        b.set(id::TEXUNIT0_DIM, w << 16 | h);
        b.set(id::TEXUNIT0_ADDR1, BASE >> 3);
        b.set(id::TEXUNIT0_TYPE, fmt);
        b.set(id::TEXUNIT0_PARAM, 0);
        b
    }

    fn set(&mut self, reg: u16, value: u32) {
        self.regs.write(reg, value);
    }

    fn put(&mut self, off: u32, bytes: &[u8]) {
        self.mem.write_bytes(BASE + off, bytes).unwrap();
    }

    fn uv(&mut self, u: f64, v: f64) {
        self.frag.attr[semantic::TEXCOORD0] = f(u);
        self.frag.attr[semantic::TEXCOORD0 + 1] = f(v);
    }

    fn run(&self) -> (Result<[[u8; 4]; 4], TexHang>, Vec<TexelFetch>) {
        let mut fetches = Vec::new();
        let r = texture_units(&self.frag, &self.regs, &self.mem, &mut fetches);
        (r, fetches)
    }

    /// Points cube faces 1-5 (ADDR2-6, low 22 bits; the upper bits come from ADDR1) at BASE,
    /// so every face reads the same image.
    fn all_faces_at_base(&mut self) {
        for r in [
            id::TEXUNIT0_ADDR2,
            id::TEXUNIT0_ADDR3,
            id::TEXUNIT0_ADDR4,
            id::TEXUNIT0_ADDR5,
            id::TEXUNIT0_ADDR6,
        ] {
            self.set(r, (BASE >> 3) & 0x3F_FFFF);
        }
    }

    /// Unit 0's colour at (u, v).
    fn at(&mut self, u: f64, v: f64) -> [u8; 4] {
        self.uv(u, v);
        self.run().0.unwrap()[0]
    }
}

/// Morton index inside an 8×8 tile, written out from the pica-facts §4 tables.
fn morton(x: u32, y: u32) -> u32 {
    const XS: [u32; 8] = [0, 1, 4, 5, 16, 17, 20, 21];
    const YS: [u32; 8] = [0, 2, 8, 10, 32, 34, 40, 42];
    XS[x as usize] + YS[y as usize]
}

// ---- formats ---------------------------------------------------------------------------------
//
// 8×8 textures; the texel under test is column x = 1, row t = 6 counted from v = 0, sampled at
// its centre u = 1.5/8, v = 6.5/8. Memory row y' = 7 - 6 = 1, Morton index morton(1, 1) = 3.

const U: f64 = 0.1875;
const V: f64 = 0.8125;

fn one_texel(fmt: u32, off: u32, bytes: &[u8]) -> [u8; 4] {
    let mut b = Bench::new(8, 8, fmt);
    b.put(off, bytes);
    b.at(U, V)
}

#[test]
fn tex_format_rgba8888() {
    // Bytes a, b, g, r at 4 · 3.
    assert_eq!(
        one_texel(0, 12, &[0x44, 0x33, 0x22, 0x11]),
        [0x11, 0x22, 0x33, 0x44]
    );
}

#[test]
fn tex_format_rgb888() {
    // Bytes b, g, r at 3 · 3.
    assert_eq!(
        one_texel(1, 9, &[0x33, 0x22, 0x11]),
        [0x11, 0x22, 0x33, 255]
    );
}

#[test]
fn tex_format_rgba5551() {
    // r=16 g=8 b=4 a=1: 0b10000_01000_00100_1 = 0x8209. 16 → 0b10000_100 = 0x84,
    // 8 → 0b01000_010 = 0x42, 4 → 0b00100_001 = 0x21.
    assert_eq!(one_texel(2, 6, &[0x09, 0x82]), [0x84, 0x42, 0x21, 255]);
    // Alpha bit clear.
    assert_eq!(one_texel(2, 6, &[0x08, 0x82]), [0x84, 0x42, 0x21, 0]);
}

#[test]
fn tex_format_rgb565() {
    // r=31 g=32 b=1: 0xF800 | 0x0400 | 0x0001 = 0xFC01. 32 → 0b100000_10 = 0x82, 1 → 0x08.
    assert_eq!(one_texel(3, 6, &[0x01, 0xFC]), [0xFF, 0x82, 0x08, 255]);
}

#[test]
fn tex_format_rgba4444() {
    assert_eq!(one_texel(4, 6, &[0x34, 0x12]), [0x11, 0x22, 0x33, 0x44]);
}

#[test]
fn tex_format_ia8() {
    // Byte 0 alpha, byte 1 intensity.
    assert_eq!(one_texel(5, 6, &[0x80, 0x40]), [0x40, 0x40, 0x40, 0x80]);
}

#[test]
fn tex_format_hilo8() {
    // Byte 1 → red, byte 0 → green.
    assert_eq!(one_texel(6, 6, &[0x12, 0x34]), [0x34, 0x12, 0, 255]);
}

#[test]
fn tex_format_i8() {
    assert_eq!(one_texel(7, 3, &[0x5A]), [0x5A, 0x5A, 0x5A, 255]);
}

#[test]
fn tex_format_a8() {
    assert_eq!(one_texel(8, 3, &[0x5A]), [0, 0, 0, 0x5A]);
}

#[test]
fn tex_format_ia44() {
    // High nibble intensity 9 → 0x99, low nibble alpha 0xC → 0xCC.
    assert_eq!(one_texel(9, 3, &[0x9C]), [0x99, 0x99, 0x99, 0xCC]);
}

#[test]
fn tex_format_i4_nibble_order() {
    // Morton index 3 is odd: byte 1, high nibble. Index 2 (x = 0, y' = 1 → t = 6) is the low
    // nibble of the same byte.
    let mut b = Bench::new(8, 8, 10);
    b.put(1, &[0x7B]);
    assert_eq!(b.at(U, V), [0x77, 0x77, 0x77, 255]);
    assert_eq!(b.at(0.0625, V), [0xBB, 0xBB, 0xBB, 255]);
    let (_, fetches) = b.run();
    assert_eq!(fetches[0].addr, BASE + 1);
    assert_eq!(fetches[0].raw, 0x7B);
}

#[test]
fn tex_format_a4_nibble_order() {
    let mut b = Bench::new(8, 8, 11);
    b.put(1, &[0x7B]);
    assert_eq!(b.at(U, V), [0, 0, 0, 0x77]);
    assert_eq!(b.at(0.0625, V), [0, 0, 0, 0xBB]);
}

// ---- ETC1 ------------------------------------------------------------------------------------
//
// Texel (x = 1, t = 5) of an 8×8 texture: y' = 2, block 0 (x < 4, y' < 4), in-block (1, 2),
// per-texel bit index 4·1 + 2 = 6.

/// Individual mode: r1=0xA r2=0x5 g1=0x3 g2=0x7 b1=0x0 b2=0xF, table 1 = 2 ({9, 29}),
/// table 2 = 5 ({24, 80}); texel 6 selects large (bit 6) and negative (bit 22).
fn individual_block(flip: bool) -> u64 {
    (0xA5u64 << 56)
        | (0x37u64 << 48)
        | (0x0Fu64 << 40)
        | (2u64 << 37)
        | (5u64 << 34)
        | (u64::from(flip) << 32)
        | (1 << 22)
        | (1 << 6)
}

#[test]
fn tex_etc1_individual_mode_and_clamps() {
    let mut b = Bench::new(8, 8, 12);
    let block = individual_block(false);
    b.put(0, &block.to_le_bytes());
    // Sub-block 1 (x < 2): 0xAA − 29 = 141, 0x33 − 29 = 22, 0x00 − 29 → clamped to 0.
    assert_eq!(b.at(1.5 / 8.0, 5.5 / 8.0), [141, 22, 0, 255]);
    let (_, fetches) = b.run();
    assert_eq!(fetches.len(), 1);
    assert_eq!(fetches[0].addr, BASE);
    assert_eq!(fetches[0].raw, u128::from(block));
    // Texel (3, y' = 0) (t = 7), index 12: sub-block 2, small positive +24:
    // 0x55 + 24 = 109, 0x77 + 24 = 143, 0xFF + 24 → clamped to 255.
    assert_eq!(b.at(3.5 / 8.0, 7.5 / 8.0), [109, 143, 255, 255]);
}

#[test]
fn tex_etc1_flip_splits_top_bottom() {
    let mut b = Bench::new(8, 8, 12);
    b.put(0, &individual_block(true).to_le_bytes());
    // Flip: y' = 2 ≥ 2 → sub-block 2, table 5 large negative −80:
    // 0x55 − 80 = 5, 0x77 − 80 = 39, 0xFF − 80 = 175.
    assert_eq!(b.at(1.5 / 8.0, 5.5 / 8.0), [5, 39, 175, 255]);
}

#[test]
fn tex_etc1_differential_mode() {
    // r = 20, dr = −3 (0b101); g = 10, dg = +3 (0b011); b = 31, db = −1 (0b111);
    // table 1 = 0 ({2, 8}), table 2 = 7 ({47, 183}); diff bit 33.
    let block: u64 = (20u64 << 59)
        | (0b101u64 << 56)
        | (10u64 << 51)
        | (0b011u64 << 48)
        | (31u64 << 43)
        | (0b111u64 << 40)
        | (7u64 << 34)
        | (1u64 << 33)
        | (1 << 25)
        | (1 << 9);
    let mut b = Bench::new(8, 8, 12);
    b.put(0, &block.to_le_bytes());
    // (0, y' = 0), index 0, +2: 20 → 0b10100_101 = 165 → 167; 10 → 0b01010_010 = 82 → 84;
    // 31 → 255 → 257 clamped to 255.
    assert_eq!(b.at(0.5 / 8.0, 7.5 / 8.0), [167, 84, 255, 255]);
    // (2, y' = 1) → t = 6, index 9: sub-block 2 = (17, 13, 30) → 140, 107, 247; −183:
    // 0, 0, 64.
    assert_eq!(b.at(2.5 / 8.0, 6.5 / 8.0), [0, 0, 64, 255]);
}

#[test]
fn tex_etc1a4_alpha_precedes_colour() {
    let mut b = Bench::new(8, 8, 13);
    // Block 0: alpha word, texel index 6 → bits 24-27 = 9 → 0x99; colour = individual block.
    let alpha: u64 = 0x9 << 24;
    b.put(0, &alpha.to_le_bytes());
    b.put(8, &individual_block(false).to_le_bytes());
    assert_eq!(b.at(1.5 / 8.0, 5.5 / 8.0), [141, 22, 0, 0x99]);
    let (_, fetches) = b.run();
    assert_eq!(fetches[0].addr, BASE);
    assert_eq!(
        fetches[0].raw,
        u128::from(alpha) | u128::from(individual_block(false)) << 64
    );
    // Block 1 (x ≥ 4, y' < 4) at 16 bytes: texel (4, y' = 0) → t = 7, index 0, alpha 3;
    // zero colour block: base 0, table 0 small positive → 2.
    b.put(16, &[0x03, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(b.at(4.5 / 8.0, 7.5 / 8.0), [2, 2, 2, 0x33]);
    let (_, fetches) = b.run();
    assert_eq!(fetches[0].addr, BASE + 16);
}

// ---- Morton addressing -----------------------------------------------------------------------

#[test]
fn tex_morton_addressing_across_tiles() {
    // 16×16 I8 whose byte k holds k (k < 256).
    let mut b = Bench::new(16, 16, 7);
    let bytes: Vec<u8> = (0..=255).collect();
    b.put(0, &bytes);
    // Texel (9, t = 2): y' = 13. Tile row 1 (8·16 = 128 texels before), tile column 1 (64),
    // in-tile (1, 5): x bit 0 → 1, y bits 0 and 2 → 2 + 32: 35. Offset 227.
    assert_eq!(b.at(9.5 / 16.0, 2.5 / 16.0), [227, 227, 227, 255]);
    let (_, fetches) = b.run();
    assert_eq!(fetches[0].addr, BASE + 227);
    // Texel (6, t = 15): y' = 0, tile 0, in-tile (6, 0) → 16 + 4 = 20.
    assert_eq!(b.at(6.5 / 16.0, 15.5 / 16.0), [20, 20, 20, 255]);
}

// ---- wrap and filter -------------------------------------------------------------------------

/// 8×8 I8 texture whose texel (x, t) holds x·16 + t.
fn pattern(extra_param: u32) -> Bench {
    let mut b = Bench::new(8, 8, 7);
    for x in 0..8 {
        for t in 0..8 {
            b.put(morton(x, 7 - t), &[(x * 16 + t) as u8]);
        }
    }
    b.set(id::TEXUNIT0_PARAM, extra_param);
    b.set(id::TEXUNIT0_BORDER_COLOR, 0x4433_2211);
    b
}

#[test]
fn tex_wrap_modes_outside_unit_range() {
    // u = −5/16 → u·8 = −2.5 → texel −3; u = 21/16 → 10.5 → texel 10. v = 1/16 → t = 0.
    let cases: [(u32, [u8; 2]); 4] = [
        (0, [0x00, 0x70]), // clamp to edge: 0, 7
        (2, [0x50, 0x20]), // repeat: 5, 2
        (3, [0x20, 0x50]), // mirrored: −3 → 13 → 2; 10 → 15 − 10 = 5
        (4, [0x50, 0x70]), // reserved 4: repeat when negative, else clamp
    ];
    for (mode, [neg, pos]) in cases {
        let mut b = pattern(wrap_s(mode));
        assert_eq!(b.at(-0.3125, 0.0625)[0], neg, "mode {mode} negative");
        assert_eq!(b.at(1.3125, 0.0625)[0], pos, "mode {mode} positive");
    }
    // Clamp to border: the border colour, no memory read.
    let mut b = pattern(wrap_s(1));
    assert_eq!(b.at(-0.3125, 0.0625), [0x11, 0x22, 0x33, 0x44]);
    assert!(b.run().1.is_empty());
    assert_eq!(b.at(1.3125, 0.0625), [0x11, 0x22, 0x33, 0x44]);
    // Reserved 5: repeat when negative, border beyond the far edge.
    let mut b = pattern(wrap_s(5));
    assert_eq!(b.at(-0.3125, 0.0625)[0], 0x50);
    assert_eq!(b.at(1.3125, 0.0625), [0x11, 0x22, 0x33, 0x44]);
    // T axis: repeat, v = −5/16 → t = −3 → 5; u = 1/16 → x = 0.
    let mut b = pattern(wrap_t(2));
    assert_eq!(b.at(0.0625, -0.3125)[0], 0x05);
    // Mirrored on T: v = 21/16 → t = 10 → 5.
    let mut b = pattern(wrap_t(3));
    assert_eq!(b.at(0.0625, 1.3125)[0], 0x05);
}

#[test]
fn tex_nearest_vs_linear_exact() {
    let mut b = pattern(0);
    // Nearest at (0.25, 0.25): texel (2, 2) = 0x22.
    assert_eq!(b.at(0.25, 0.25), [0x22, 0x22, 0x22, 255]);
    // Linear (mag, LOD 0 with zero derivatives): position 2.0 − 0.5 = 1.5 on both axes:
    // texels (1,1)=17, (2,1)=33, (1,2)=18, (2,2)=34, weights ¼: 25.5 → rounds up to 26.
    let mut b = pattern(MAG_LINEAR);
    assert_eq!(b.at(0.25, 0.25), [26, 26, 26, 255]);
    assert_eq!(b.run().1.len(), 4);
    // u = 9/32: 2.25 − 0.5 = 1.75 → texels 1, 2 with weight 192/256 on 2; v = 1/16 → 0.0:
    // row 0 only: (16·64 + 32·192) / 256 = 28.
    assert_eq!(b.at(0.28125, 0.0625), [28, 28, 28, 255]);
}

// ---- mipmaps ---------------------------------------------------------------------------------

/// 16×16 I8: level 0 all 0x10 (256 bytes), level 1 (8×8) 0x80 at 256, level 2 (8×8, levels stop
/// at one tile) 0xF0 at 320.
fn mip_bench(param: u32, lod: u32) -> Bench {
    let mut b = Bench::new(16, 16, 7);
    b.put(0, &[0x10; 256]);
    b.put(256, &[0x80; 64]);
    b.put(320, &[0xF0; 64]);
    b.set(id::TEXUNIT0_PARAM, param);
    b.set(id::TEXUNIT0_LOD, lod);
    b
}

fn at_deriv(b: &mut Bench, dudx: f64) -> u8 {
    b.frag.tex_deriv[0] = [f(dudx), F24::ZERO, F24::ZERO, F24::ZERO];
    b.at(0.5, 0.5)[0]
}

const fn lod_reg(bias: u32, max: u32, min: u32) -> u32 {
    (bias & 0x1FFF) | max << 16 | min << 24
}

#[test]
fn tex_mipmap_level_selection() {
    let mut b = mip_bench(0, lod_reg(0, 2, 0));
    // 1/16 · 16 = 1 texel per pixel: LOD 0 → magnified, level 0.
    assert_eq!(at_deriv(&mut b, 0.0625), 0x10);
    // 2 texels: LOD 1.0 → level 1.
    assert_eq!(at_deriv(&mut b, 0.125), 0x80);
    // 1.5 texels: rho = 384/256, log2 ≈ 0 + 128/256 → LOD 0.5 → nearest rounds up: level 1.
    assert_eq!(at_deriv(&mut b, 0.09375), 0x80);
    // 16 texels: LOD 4 → clamped to max level 2.
    assert_eq!(at_deriv(&mut b, 1.0), 0xF0);
    // Linear mipmap at LOD 0.5: (0x10·128 + 0x80·128 + 128) >> 8 = 72.
    let mut b = mip_bench(MIP_LINEAR, lod_reg(0, 2, 0));
    assert_eq!(at_deriv(&mut b, 0.09375), 72);
    // Max level 1.
    let mut b = mip_bench(0, lod_reg(0, 1, 0));
    assert_eq!(at_deriv(&mut b, 1.0), 0x80);
}

#[test]
fn tex_mipmap_bias_and_clamps() {
    // Bias +1.0 (0x100) on LOD 0 → minified, level 1.
    let mut b = mip_bench(0, lod_reg(0x100, 2, 0));
    assert_eq!(at_deriv(&mut b, 0.0625), 0x80);
    // Bias −1.0 (13-bit two's complement 0x1F00) on LOD 1 → 0 → magnified, level 0.
    let mut b = mip_bench(0, lod_reg(0x1F00, 2, 0));
    assert_eq!(at_deriv(&mut b, 0.125), 0x10);
    // Min level 2 clamps LOD 1 up to level 2.
    let mut b = mip_bench(0, lod_reg(0, 2, 2));
    assert_eq!(at_deriv(&mut b, 0.125), 0xF0);
    // Magnification with min level 1 samples level 1.
    let mut b = mip_bench(0, lod_reg(0, 2, 1));
    assert_eq!(at_deriv(&mut b, 0.0), 0x80);
}

#[test]
fn tex_mag_and_min_filters_chosen_by_lod() {
    // Mag linear, min nearest: with derivatives (minified, LOD 1, one level only) nearest.
    let mut b = pattern(MAG_LINEAR);
    b.frag.tex_deriv[0] = [f(0.25), F24::ZERO, F24::ZERO, F24::ZERO];
    assert_eq!(b.at(0.25, 0.25)[0], 0x22);
    let mut b = pattern(MIN_LINEAR);
    b.frag.tex_deriv[0] = [f(0.25), F24::ZERO, F24::ZERO, F24::ZERO];
    assert_eq!(b.at(0.25, 0.25)[0], 26);
}

// ---- cube, shadow, projection ----------------------------------------------------------------

#[test]
fn tex_cube_face_selection_six_axes() {
    // Faces in FCRAM: ADDR1's field 0x0400_0000 holds bits 22-27 for the other five, whose
    // registers get only their low 22 bits.
    const FC: u32 = 0x2000_0000;
    let mut b = Bench::new(8, 8, 7);
    b.set(id::TEXUNIT0_ADDR1, FC >> 3);
    let regs = [
        id::TEXUNIT0_ADDR2,
        id::TEXUNIT0_ADDR3,
        id::TEXUNIT0_ADDR4,
        id::TEXUNIT0_ADDR5,
        id::TEXUNIT0_ADDR6,
    ];
    for (k, r) in regs.into_iter().enumerate() {
        b.set(r, ((FC + 0x100 * (k as u32 + 1)) >> 3) & 0x3F_FFFF);
    }
    for k in 0..6u32 {
        b.mem
            .write_bytes(FC + 0x100 * k, &[0x10 * (k as u8 + 1); 64])
            .unwrap();
    }
    b.set(id::TEXUNIT0_PARAM, ty(1));
    let dirs = [
        (1.0, 0.25, 0.25),
        (-1.0, 0.25, 0.25),
        (0.25, 1.0, 0.25),
        (0.25, -1.0, 0.25),
        (0.25, 0.25, 1.0),
        (0.25, 0.25, -1.0),
    ];
    for (face, (u, v, w)) in dirs.into_iter().enumerate() {
        b.frag.attr[semantic::TEXCOORD0_W] = f(w);
        let got = b.at(u, v);
        assert_eq!(got[0], 0x10 * (face as u8 + 1), "face {face}");
        let (_, fetches) = b.run();
        assert_eq!(fetches[0].addr & !0xFF, FC + 0x100 * face as u32);
    }
}

#[test]
fn tex_cube_face_coordinates() {
    // +Z face, direction (0.5, 0.25, 1): s = 0.5·0.5 + 0.5 = 0.75 → x = 6;
    // t = −0.25·0.5 + 0.5 = 0.375 → t = 3: pattern value 0x63.
    let mut b = pattern(ty(1));
    b.all_faces_at_base();
    b.frag.attr[semantic::TEXCOORD0_W] = f(1.0);
    assert_eq!(b.at(0.5, 0.25)[0], 0x63);
}

#[test]
fn tex_shadow_compare_pass_fail_bias() {
    // RGBA8 texels: bytes [0x80, 0, 0, 0xC8] → depth 0x800000, intensity 0xC8.
    let mut b = Bench::new(8, 8, 0);
    for i in 0..64 {
        b.put(4 * i, &[0x80, 0x00, 0x00, 0xC8]);
    }
    // Shadow 2D, orthographic (no divide).
    b.set(id::TEXUNIT0_PARAM, ty(2) | 1 << 20);
    b.set(id::TEXUNIT0_SHADOW, 1);
    // w = 0.25: floor(0.25 · 0xFFFFFF) = 0x3FFFFF ≤ 0x800000 → lit.
    b.frag.attr[semantic::TEXCOORD0_W] = f(0.25);
    assert_eq!(b.at(0.5, 0.5), [0xC8; 4]);
    // w = 0.75: 0xBFFFFF > 0x800000 → shadowed.
    b.frag.attr[semantic::TEXCOORD0_W] = f(0.75);
    assert_eq!(b.at(0.5, 0.5), [0; 4]);
    // Bias field 0x200000 (register bits 1-23) subtracts 0x400000: 0x7FFFFF → lit.
    b.set(id::TEXUNIT0_SHADOW, 0x200000 << 1 | 1);
    assert_eq!(b.at(0.5, 0.5), [0xC8; 4]);
}

#[test]
fn tex_shadow_2d_perspective_divides_by_w() {
    // Every texel lit (depth 0xFFFFFF: bytes A, B, G = 0xFF) with intensity 0x10·x + y' in
    // its R byte (memory column x, memory row y').
    let mut b = Bench::new(8, 8, 0);
    for x in 0..8 {
        for y in 0..8 {
            b.put(4 * morton(x, y), &[0xFF, 0xFF, 0xFF, (0x10 * x + y) as u8]);
        }
    }
    b.set(id::TEXUNIT0_PARAM, ty(2));
    b.frag.attr[semantic::TEXCOORD0_W] = f(0.5);
    // Perspective (SHADOW bit 0 = 0): (0.125, 0.125) / 0.5 = (0.25, 0.25) → x = 2, t = 2,
    // memory row 7 - 2 = 5 → 0x25.
    b.set(id::TEXUNIT0_SHADOW, 0);
    assert_eq!(b.at(0.125, 0.125), [0x25; 4]);
    // Orthographic (bit 0 = 1): undivided → x = 1, t = 1, row 6 → 0x16.
    b.set(id::TEXUNIT0_SHADOW, 1);
    assert_eq!(b.at(0.125, 0.125), [0x16; 4]);
}

#[test]
fn tex_shadow_cube_depth_is_the_major_axis() {
    // All six faces at BASE (ADDR2-6 take ADDR1's upper bits), every texel depth 0x800000
    // (bytes A = 0x80, B = G = 0) and intensity 0xC8.
    let mut b = Bench::new(8, 8, 0);
    b.all_faces_at_base();
    for i in 0..64 {
        b.put(4 * i, &[0x80, 0x00, 0x00, 0xC8]);
    }
    b.set(id::TEXUNIT0_PARAM, ty(4));
    // +Z face (|w| = 0.5 largest): z_int = floor(0.5 · 0xFFFFFF) = 0x7FFFFF ≤ 0x800000 → lit.
    b.frag.attr[semantic::TEXCOORD0_W] = f(0.5);
    assert_eq!(b.at(0.25, 0.25), [0xC8; 4]);
    // −Y face (|v| = 0.75 largest): 0xBFFFFF > 0x800000 → shadowed, although |w| is 0.5.
    assert_eq!(b.at(0.25, -0.75), [0; 4]);
    // −X face, |u| = 1: 0xFFFFFF, shadowed; a bias field of 0x400000 (register bits 1-23)
    // subtracts 0x800000 → 0x7FFFFF → lit.
    assert_eq!(b.at(-1.0, 0.25), [0; 4]);
    b.set(id::TEXUNIT0_SHADOW, 0x40_0000 << 1);
    assert_eq!(b.at(-1.0, 0.25), [0xC8; 4]);
}

#[test]
fn tex_projection_divides_by_w() {
    let mut b = pattern(ty(3));
    b.frag.attr[semantic::TEXCOORD0_W] = f(2.0);
    // (0.5, 0.25) / 2 = (0.25, 0.125) → texel (2, 1) = 0x21 (undivided it would be 0x42).
    assert_eq!(b.at(0.5, 0.25)[0], 0x21);
    let mut b = pattern(0);
    b.frag.attr[semantic::TEXCOORD0_W] = f(2.0);
    assert_eq!(b.at(0.5, 0.25)[0], 0x42);
}

// ---- units -----------------------------------------------------------------------------------

#[test]
fn tex_disabled_units_are_zero_and_read_nothing() {
    let mut b = pattern(0);
    b.set(id::TEXUNIT_CONFIG, 0x1000);
    b.uv(0.25, 0.25);
    let (r, fetches) = b.run();
    assert_eq!(r.unwrap(), [[0; 4]; 4]);
    assert!(fetches.is_empty());
    // Type 5 "disabled" on unit 0.
    let mut b = pattern(ty(5));
    b.uv(0.25, 0.25);
    assert_eq!(b.run().0.unwrap()[0], [0; 4]);
}

#[test]
fn tex_unit2_can_use_texcoord1() {
    let mut b = pattern(0);
    b.set(id::TEXUNIT_CONFIG, 0x1004 | 1 << 13);
    b.set(id::TEXUNIT2_DIM, 8 << 16 | 8);
    b.set(id::TEXUNIT2_ADDR, BASE >> 3);
    b.set(id::TEXUNIT2_TYPE, 7);
    b.frag.attr[semantic::TEXCOORD1] = f(0.25);
    b.frag.attr[semantic::TEXCOORD1 + 1] = f(0.125);
    let (r, fetches) = b.run();
    assert_eq!(r.unwrap()[2], [0x21, 0x21, 0x21, 255]);
    assert_eq!(fetches[0].unit, 2);
}

#[test]
fn tex_unmapped_read_hangs() {
    let mut b = pattern(0);
    b.set(id::TEXUNIT0_ADDR1, 0);
    b.uv(0.0, 0.0);
    assert_eq!(
        b.run().0,
        Err(TexHang::Unmapped {
            unit: 0,
            // Texel (0, t = 0) is memory row 7: Morton index morton(0, 7) = 42.
            addr: 42,
        })
    );
}

proptest! {
    #[test]
    fn prop_tex_no_panic(
        words in proptest::collection::vec(any::<u32>(), 0x20),
        mapped in any::<[bool; 3]>(),
        attr in proptest::collection::vec(any::<u32>(), NUM_SEMANTICS),
        deriv in any::<[u32; 12]>(),
        data in proptest::collection::vec(any::<u8>(), 0..2048),
    ) {
        let mut b = Bench::new(8, 8, 0);
        for (i, w) in words.iter().enumerate() {
            b.set(0x80 + i as u16, *w);
        }
        // Often point the units at the texture so the mapped paths run.
        let addrs = [id::TEXUNIT0_ADDR1, id::TEXUNIT1_ADDR, id::TEXUNIT2_ADDR];
        for (r, m) in addrs.into_iter().zip(mapped) {
            if m {
                b.set(r, (BASE >> 3) | (words[r as usize - 0x80] & 0x3FF));
            }
        }
        b.put(0, &data);
        for (a, bits) in b.frag.attr.iter_mut().zip(&attr) {
            *a = F24::from_bits(*bits);
        }
        for (k, bits) in deriv.iter().enumerate() {
            b.frag.tex_deriv[k / 4][k % 4] = F24::from_bits(*bits);
        }
        let (r, fetches) = b.run();
        // At most 2 levels × 4 texels per unit, each read from mapped memory.
        prop_assert!(fetches.len() <= 24);
        for fe in &fetches {
            prop_assert!(Memory::region_of(fe.addr, 1).is_some());
        }
        if let Err(TexHang::Unmapped { unit, addr }) = r {
            prop_assert!(unit < 3);
            prop_assert!(Memory::region_of(addr, 1).is_none());
        }
    }
}
