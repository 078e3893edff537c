//! TEV, the six texture combiners: every source, operand, combine mode and scale, the stage-0
//! rules and the combiner buffer, on hand-made fragments with hand-derived expected bytes.
//!
//! Each test sets the registers through `RegFile::apply` (as REGS would) and calls
//! `tev::combine` directly.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::num::F24;
use pica_model::pipe::{Fragment, OutVertex, ShadedFragment};
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use pica_model::tev::{self, TevOut};
use proptest::prelude::*;

// Inputs: primary, fragment primary / secondary, textures 0-3, constants.
const P: [u8; 4] = [10, 20, 30, 40];
const FP: [u8; 4] = [50, 60, 70, 80];
const FS: [u8; 4] = [90, 100, 110, 120];
const T0: [u8; 4] = [130, 140, 150, 160];
const T1: [u8; 4] = [170, 180, 190, 200];
const T2: [u8; 4] = [210, 220, 230, 240];
const T3: [u8; 4] = [1, 2, 3, 4];
/// TEXENV_BUFFER_COLOR used by most tests.
const BC: [u8; 4] = [11, 12, 13, 14];

// Source values (seed 002 GPUREG_TEXENVi_SOURCE).
const SRC_PRIMARY: u32 = 0;
const SRC_TEX0: u32 = 3;
const SRC_TEX1: u32 = 4;
const SRC_TEX2: u32 = 5;
const SRC_PREV_BUFFER: u32 = 13;
const SRC_CONSTANT: u32 = 14;
const SRC_PREVIOUS: u32 = 15;

// Combine modes (seed 002 GPUREG_TEXENVi_COMBINER).
const REPLACE: u32 = 0;
const DOT3_RGBA: u32 = 7;
const ADD: u32 = 2;

/// Stage register bases (SOURCE; OPERAND .. SCALE follow).
const BASE: [u16; 6] = [0x0C0, 0x0C8, 0x0D0, 0x0D8, 0x0F0, 0x0F8];

fn word(c: [u8; 4]) -> u32 {
    u32::from_le_bytes(c)
}

/// The three RGB and three alpha sources of a SOURCE word.
fn sources(rgb: [u32; 3], alpha: [u32; 3]) -> u32 {
    rgb[0] | rgb[1] << 4 | rgb[2] << 8 | alpha[0] << 16 | alpha[1] << 20 | alpha[2] << 24
}

/// Every source of a SOURCE word set to `s`.
fn all_sources(s: u32) -> u32 {
    sources([s; 3], [s; 3])
}

/// OPERAND word.
fn operands(rgb: [u32; 3], alpha: [u32; 3]) -> u32 {
    rgb[0] | rgb[1] << 4 | rgb[2] << 8 | alpha[0] << 12 | alpha[1] << 16 | alpha[2] << 20
}

/// COMBINER word.
fn modes(rgb: u32, alpha: u32) -> u32 {
    rgb | alpha << 16
}

/// SCALE word.
fn scales(rgb: u32, alpha: u32) -> u32 {
    rgb | alpha << 16
}

/// A register file and the fragment inputs.
struct Bench {
    regs: RegFile,
    f: ShadedFragment,
}

impl Bench {
    /// Stage 0 and every later stage zero (all-zero stages replace with the primary colour),
    /// buffer colour [`BC`], the standard inputs.
    fn new() -> Self {
        let frag = Fragment {
            x: 3,
            y: 4,
            depth: 0,
            color: P,
            attr: OutVertex::ONES.attr,
            tri: 0,
            tex_deriv: [[F24::ZERO; 4]; 3],
        };
        let mut f = ShadedFragment::new(frag);
        f.light_primary = FP;
        f.light_secondary = FS;
        f.tex = [T0, T1, T2, T3];
        let mut b = Self {
            regs: RegFile::new(),
            f,
        };
        b.set(id::TEXENV_BUFFER_COLOR, word(BC));
        b
    }

    fn set(&mut self, reg: u16, value: u32) {
        self.regs.write(reg, value);
    }

    /// Writes stage `i`'s five registers.
    fn stage(&mut self, i: usize, src: u32, op: u32, comb: u32, color: u32, scale: u32) {
        let b = BASE[i];
        self.set(b, src);
        self.set(b + 1, op);
        self.set(b + 2, comb);
        self.set(b + 3, color);
        self.set(b + 4, scale);
    }

    /// Stage `i`: replace with source `s` (all channels, operands "source colour/alpha").
    fn replace(&mut self, i: usize, s: u32, constant: [u8; 4]) {
        self.stage(i, all_sources(s), 0, REPLACE, word(constant), 0);
    }

    /// Stages `from..6` pass the previous stage on.
    fn pass_from(&mut self, from: usize) {
        for i in from..6 {
            self.replace(i, SRC_PREVIOUS, [0; 4]);
        }
    }

    fn run(&self) -> TevOut {
        tev::combine(&self.f, &self.regs)
    }
}

#[test]
fn tev_all_zero_registers_pass_primary() {
    let mut b = Bench::new();
    b.set(id::TEXENV_BUFFER_COLOR, 0);
    let out = b.run();
    assert_eq!(out.color, P);
    for s in out.stages {
        assert_eq!(s.color, P);
    }
}

#[test]
fn tev_default_driver_setup_passes_primary() {
    let mut b = Bench::new();
    b.replace(0, SRC_PRIMARY, [0; 4]);
    b.pass_from(1);
    let out = b.run();
    assert_eq!(out.color, P);
    assert_eq!(out.stages[5].color, P);
}

#[test]
fn tev_every_source_in_stage0() {
    let k = [5, 6, 7, 8];
    let expect: [[u8; 4]; 16] = [
        P, FP, FS, T0, T1, T2, T3, // Reserved 7-12: zero (model choice).
        [0; 4], [0; 4], [0; 4], [0; 4], [0; 4], [0; 4],
        // 13: previous buffer in stage 0 reads zero even with a buffer colour set (seed).
        [0; 4], k, // 15: previous in stage 0 reads the primary colour (seed).
        P,
    ];
    for (s, e) in expect.iter().enumerate() {
        let mut b = Bench::new();
        b.replace(0, s as u32, k);
        b.pass_from(1);
        let out = b.run();
        assert_eq!(out.stages[0].color, *e, "source {s}");
        assert_eq!(out.color, *e, "source {s}");
    }
}

#[test]
fn tev_previous_and_previous_buffer_in_stage1() {
    let k0 = [21, 22, 23, 24];
    let mut b = Bench::new();
    b.replace(0, SRC_CONSTANT, k0);
    b.replace(1, SRC_PREVIOUS, [0; 4]);
    b.pass_from(2);
    assert_eq!(b.run().color, k0);

    // Stage 1's previous buffer is the buffer colour, even with every update bit set: the
    // buffer after stage 0 is not stage 0's output.
    let mut b = Bench::new();
    b.set(id::TEXENV_UPDATE_BUFFER, 0xFF00);
    b.replace(0, SRC_CONSTANT, k0);
    b.replace(1, SRC_PREV_BUFFER, [0; 4]);
    b.pass_from(2);
    assert_eq!(b.run().color, BC);
}

#[test]
fn tev_previous_buffer_in_stage2_follows_bits_8_and_12() {
    let k0 = [21, 22, 23, 24];
    let k1 = [31, 32, 33, 34];
    for (mask, expect) in [
        (0x0000, BC),
        (0x0100, [21, 22, 23, 14]),
        (0x1000, [11, 12, 13, 24]),
        (0x1100, k0),
        // Bits 9/13 (TexEnv 2) do not affect what stage 2 reads.
        (0x2200, BC),
    ] {
        let mut b = Bench::new();
        b.set(id::TEXENV_UPDATE_BUFFER, mask);
        b.replace(0, SRC_CONSTANT, k0);
        b.replace(1, SRC_CONSTANT, k1);
        b.replace(2, SRC_PREV_BUFFER, [0; 4]);
        b.pass_from(3);
        assert_eq!(b.run().color, expect, "mask {mask:#x}");
    }
}

#[test]
fn tev_buffer_update_masks_across_stages() {
    let k: [[u8; 4]; 5] = [
        [1, 2, 3, 4],
        [11, 12, 13, 24],
        [21, 22, 23, 34],
        [31, 32, 33, 44],
        [41, 42, 43, 54],
    ];
    let bc_rgb = |a: u8| [BC[0], BC[1], BC[2], a];
    let cases: [(u32, [[u8; 4]; 6]); 5] = [
        (0x0000, [BC, BC, BC, BC, BC, BC]),
        (0x0100, {
            let b1 = [1, 2, 3, BC[3]];
            [BC, b1, b1, b1, b1, b1]
        }),
        (0xFF00, [BC, k[0], k[1], k[2], k[3], k[3]]),
        (0x2000, {
            let b2 = bc_rgb(k[1][3]);
            [BC, BC, b2, b2, b2, b2]
        }),
        (0x4800, {
            let b3 = bc_rgb(k[2][3]);
            let b4 = [31, 32, 33, k[2][3]];
            [BC, BC, BC, b3, b4, b4]
        }),
    ];
    for (mask, buffers) in cases {
        let mut b = Bench::new();
        b.set(id::TEXENV_UPDATE_BUFFER, mask);
        for (i, c) in k.iter().enumerate() {
            b.replace(i, SRC_CONSTANT, *c);
        }
        b.replace(5, SRC_PREV_BUFFER, [0; 4]);
        let out = b.run();
        for (i, e) in buffers.iter().enumerate() {
            assert_eq!(out.stages[i].buffer, *e, "mask {mask:#x} stage {i}");
        }
        for (i, c) in k.iter().enumerate() {
            assert_eq!(out.stages[i].color, *c, "mask {mask:#x} stage {i}");
        }
        // Stage 5 reads the buffer stage 4 passed on.
        assert_eq!(out.color, buffers[4], "mask {mask:#x}");
    }
}

#[test]
fn tev_fog_bits_do_not_disturb_the_buffer() {
    // Fog mode 5 and z flip in the same register leave the buffer inputs alone.
    let mut b = Bench::new();
    b.set(id::TEXENV_UPDATE_BUFFER, 0x1_0005);
    b.replace(0, SRC_CONSTANT, [1, 2, 3, 4]);
    b.replace(1, SRC_CONSTANT, [5, 6, 7, 8]);
    b.replace(2, SRC_PREV_BUFFER, [0; 4]);
    b.pass_from(3);
    assert_eq!(b.run().color, BC);
}

#[test]
fn tev_every_rgb_operand() {
    // Source texture 0 = [130, 140, 150, 160]; inverse = [125, 115, 105, 95].
    let expect: [[u8; 3]; 16] = [
        [130, 140, 150],
        [125, 115, 105],
        [160; 3],
        [95; 3],
        [130; 3],
        [125; 3],
        // 6, 7 reserved: red, inverted red (model choice).
        [130; 3],
        [125; 3],
        [140; 3],
        [115; 3],
        // 10, 11 reserved: green.
        [140; 3],
        [115; 3],
        [150; 3],
        [105; 3],
        // 14, 15 reserved: blue.
        [150; 3],
        [105; 3],
    ];
    for (op, e) in expect.iter().enumerate() {
        let mut b = Bench::new();
        b.stage(
            0,
            all_sources(SRC_TEX0),
            operands([op as u32, 0, 0], [0; 3]),
            REPLACE,
            0,
            0,
        );
        b.pass_from(1);
        let c = b.run().color;
        assert_eq!([c[0], c[1], c[2]], *e, "rgb operand {op}");
        assert_eq!(c[3], 160, "rgb operand {op}");
    }
}

#[test]
fn tev_every_alpha_operand() {
    let expect: [u8; 8] = [160, 95, 130, 125, 140, 115, 150, 105];
    for (op, e) in expect.iter().enumerate() {
        let mut b = Bench::new();
        b.stage(
            0,
            all_sources(SRC_TEX0),
            operands([0; 3], [op as u32, 0, 0]),
            REPLACE,
            0,
            0,
        );
        b.pass_from(1);
        let c = b.run().color;
        assert_eq!(c, [130, 140, 150, *e], "alpha operand {op}");
    }
}

#[test]
fn tev_operands_apply_to_second_and_third_inputs() {
    // Interpolate(a = T0.r·3, b = 1 - T1, c = T2.a): operand slots 1 and 2 matter.
    // rgb: a = [130;3] (source red), b = 255 - [170, 180, 190] = [85, 75, 65], c = [240;3]:
    //   (130·240 + 85·15) / 255 = (31200 + 1275) / 255 = 127.35 → 127
    //   (31200 + 75·15 = 1125) = 32325 / 255 = 126.76 → 126
    //   (31200 + 65·15 = 975) = 32175 / 255 = 126.17 → 126
    // alpha: a = T0 green 140, b = 1 - T1 blue = 65, c = T2 red 210:
    //   (140·210 + 65·45) / 255 = (29400 + 2925) / 255 = 126.76 → 126
    let mut b = Bench::new();
    b.stage(
        0,
        sources(
            [SRC_TEX0, SRC_TEX1, SRC_TEX2],
            [SRC_TEX0, SRC_TEX1, SRC_TEX2],
        ),
        operands([4, 1, 2], [4, 7, 2]),
        modes(4, 4),
        0,
        0,
    );
    b.pass_from(1);
    assert_eq!(b.run().color, [127, 126, 126, 126]);
}

/// Inputs for the combine-mode test: a = texture 0, b = texture 1, c = texture 2.
const A: [u8; 4] = [200, 100, 0, 255];
const B: [u8; 4] = [100, 30, 50, 128];
const C: [u8; 4] = [128, 255, 0, 64];

#[test]
fn tev_every_combine_mode() {
    let expect: [[u8; 4]; 16] = [
        // 0 replace
        [200, 100, 0, 255],
        // 1 modulate a·b/255: 20000/255 = 78.4, 3000/255 = 11.8, 0, 32640/255 = 128
        [78, 11, 0, 128],
        // 2 add, saturating: 300 → 255, 130, 50, 383 → 255
        [255, 130, 50, 255],
        // 3 add signed a + b - 128: 172, 2, -78 → 0, 255
        [172, 2, 0, 255],
        // 4 interpolate (a·c + b·(255-c))/255:
        //   (25600 + 12700)/255 = 150.2, 25500/255 = 100, 12750/255 = 50,
        //   (16320 + 24448)/255 = 159.9
        [150, 100, 50, 159],
        // 5 subtract, clamped at 0: 100, 70, -50 → 0, 127
        [100, 70, 0, 127],
        // 6 dot3 RGB (`tev::dot3`: one's-complement operands, magnitude 2x - 255 or
        //   254 - 2x): r 145·54 = 7830 / 255 → 31, signs differ → !31 = -32; g 54·194 = 10476
        //   / 255 → 41; b 254·154 = 39116 / 255 → 153; sum 162. Alpha mode 6 is dot3 too: 0
        //   (model choice).
        [162, 162, 162, 0],
        // 7 dot3 RGBA: the dot3 value in alpha as well.
        [162, 162, 162, 162],
        // 8 multiply-add min((a·b + 255·c)/255, 255): 52640/255 = 206.4,
        //   68025/255 = 266.8 → 255, 0, 48960/255 = 192
        [206, 255, 0, 192],
        // 9 add-multiply min(a + b, 255)·c/255: 255·128/255 = 128, 130·255/255 = 130, 0,
        //   255·64/255 = 64
        [128, 130, 0, 64],
        // 10-15 reserved: 0 (model choice).
        [0; 4],
        [0; 4],
        [0; 4],
        [0; 4],
        [0; 4],
        [0; 4],
    ];
    for (mode, e) in expect.iter().enumerate() {
        let mut b = Bench::new();
        b.f.tex = [A, B, C, T3];
        b.stage(
            0,
            sources(
                [SRC_TEX0, SRC_TEX1, SRC_TEX2],
                [SRC_TEX0, SRC_TEX1, SRC_TEX2],
            ),
            0,
            modes(mode as u32, mode as u32),
            0,
            0,
        );
        b.pass_from(1);
        assert_eq!(b.run().color, *e, "mode {mode}");
    }
}

#[test]
fn tev_dot3_rgba_ignores_alpha_combiner_and_uses_alpha_scale() {
    // RGB dot3 RGBA as in the mode test (162); the alpha combiner says "add constant", which
    // is ignored; the alpha scale 2× applies to the dot3 value: 324 → 255.
    let mut b = Bench::new();
    b.f.tex = [A, B, C, T3];
    b.stage(
        0,
        sources(
            [SRC_TEX0, SRC_TEX1, SRC_TEX2],
            [SRC_CONSTANT, SRC_CONSTANT, SRC_CONSTANT],
        ),
        0,
        modes(DOT3_RGBA, ADD),
        word([1, 1, 1, 1]),
        scales(0, 1),
    );
    b.pass_from(1);
    assert_eq!(b.run().color, [162, 162, 162, 255]);
}

#[test]
fn tev_dot3_rgb_keeps_alpha_combiner() {
    let mut b = Bench::new();
    b.f.tex = [A, B, C, T3];
    b.stage(
        0,
        sources(
            [SRC_TEX0, SRC_TEX1, SRC_TEX2],
            [SRC_CONSTANT, SRC_CONSTANT, SRC_CONSTANT],
        ),
        0,
        modes(6, ADD),
        word([1, 1, 1, 70]),
        0,
    );
    b.pass_from(1);
    assert_eq!(b.run().color, [162, 162, 162, 140]);
}

#[test]
fn tev_every_scale_saturates() {
    let k = [100, 50, 70, 60];
    for (rgb, alpha, e) in [
        (0, 0, [100, 50, 70, 60]),
        (1, 1, [200, 100, 140, 120]),
        (2, 2, [255, 200, 255, 240]),
        // Reserved 3: 1× (model choice).
        (3, 3, [100, 50, 70, 60]),
        // Independent halves.
        (2, 0, [255, 200, 255, 60]),
        (0, 2, [100, 50, 70, 240]),
    ] {
        let mut b = Bench::new();
        b.stage(
            0,
            all_sources(SRC_CONSTANT),
            0,
            REPLACE,
            word(k),
            scales(rgb, alpha),
        );
        b.pass_from(1);
        assert_eq!(b.run().color, e, "scale {rgb}/{alpha}");
    }
}

#[test]
fn tev_scaled_output_is_next_stage_previous() {
    // Stage 0: constant [100, 50, 70, 60] × 4 → [255, 200, 255, 240]; stage 1 modulates
    // previous with texture 3 = [1, 2, 3, 4]: 255·1/255 = 1, 400/255 = 1, 765/255 = 3,
    // 960/255 = 3.
    let mut b = Bench::new();
    b.stage(
        0,
        all_sources(SRC_CONSTANT),
        0,
        REPLACE,
        word([100, 50, 70, 60]),
        scales(2, 2),
    );
    b.stage(
        1,
        sources([SRC_PREVIOUS, 6, 0], [SRC_PREVIOUS, 6, 0]),
        0,
        modes(1, 1),
        0,
        0,
    );
    b.pass_from(2);
    let out = b.run();
    assert_eq!(out.stages[0].color, [255, 200, 255, 240]);
    assert_eq!(out.color, [1, 1, 3, 3]);
}

#[test]
fn tev_lighting_and_texture_sources_combine() {
    // Stage 0: texture 0 modulate fragment primary: 130·50/255 = 25.5 → 25,
    //   140·60/255 = 32.9 → 32, 150·70/255 = 41.2 → 41, 160·80/255 = 50.2 → 50.
    // Stage 1: previous add fragment secondary: 115, 132, 151, 170.
    let mut b = Bench::new();
    b.stage(
        0,
        sources([SRC_TEX0, 1, 0], [SRC_TEX0, 1, 0]),
        0,
        modes(1, 1),
        0,
        0,
    );
    b.stage(
        1,
        sources([SRC_PREVIOUS, 2, 0], [SRC_PREVIOUS, 2, 0]),
        0,
        modes(ADD, ADD),
        0,
        0,
    );
    b.pass_from(2);
    let out = b.run();
    assert_eq!(out.stages[0].color, [25, 32, 41, 50]);
    assert_eq!(out.color, [115, 132, 151, 170]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random TEV and fog registers and inputs never panic, and the final colour is stage 5's.
    #[test]
    fn prop_tev_no_panic(
        stage_words in proptest::collection::vec(any::<u32>(), 30),
        update in any::<u32>(),
        buffer in any::<u32>(),
        fog_color in any::<u32>(),
        depth_format in any::<u32>(),
        lut in proptest::collection::vec(any::<u32>(), 4),
        inputs in proptest::collection::vec(any::<[u8; 4]>(), 7),
        depth in any::<u32>(),
    ) {
        let mut b = Bench::new();
        for (i, w) in stage_words.chunks(5).enumerate() {
            b.stage(i, w[0], w[1], w[2], w[3], w[4]);
        }
        b.set(id::TEXENV_UPDATE_BUFFER, update);
        b.set(id::TEXENV_BUFFER_COLOR, buffer);
        b.set(id::FOG_COLOR, fog_color);
        b.set(id::DEPTHBUFFER_FORMAT, depth_format);
        b.set(id::FOG_LUT_INDEX, (depth >> 8) & 0x7F);
        for w in lut {
            b.set(id::FOG_LUT_DATA0, w);
        }
        b.f.frag.color = inputs[0];
        b.f.light_primary = inputs[1];
        b.f.light_secondary = inputs[2];
        b.f.tex = [inputs[3], inputs[4], inputs[5], inputs[6]];
        b.f.frag.depth = depth;
        let out = b.run();
        prop_assert_eq!(out.color, out.stages[5].color);
        let mut f = b.f;
        f.color = out.color;
        pica_model::fog::apply(&mut f, &b.regs);
        // Fog (every mode but gas, which is another stage's business) never changes alpha.
        if update & 7 != 7 {
            prop_assert_eq!(f.color[3], out.color[3]);
        }
    }
}

#[test]
fn tev_stage0_previous_in_any_slot_is_primary() {
    // Stage 0 add(texture 3, previous) with texture 1 in slot 2: previous reads the primary
    // colour (seed), so [1, 2, 3, 4] + [10, 20, 30, 40]. (Azahar would substitute slot 2's
    // texture 1 for an RGB "previous" in slot 0/1: [171, 182, 193, ...].)
    let mut b = Bench::new();
    b.stage(
        0,
        sources([6, SRC_PREVIOUS, SRC_TEX1], [6, SRC_PREVIOUS, SRC_TEX1]),
        0,
        modes(ADD, ADD),
        0,
        0,
    );
    b.pass_from(1);
    assert_eq!(b.run().color, [11, 22, 33, 44]);
}
