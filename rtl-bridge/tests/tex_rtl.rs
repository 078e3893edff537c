//! The texture units' first RTL blocks (issue 38) against the model: `pica_tex_addr` (where a
//! texel lies: `pica_model::tex::format::texel_loc`) and `pica_tex_texel` (its bytes to a
//! colour, all 14 formats and ETC1/ETC1A4: `format::decode_with`, with both settings of the
//! knobs `tex-alpha-only-colour` and `tex-reserved-format`).
//!
//! The vectors are made here from the model — every format (and the two reserved values),
//! random bytes, every nibble and every ETC1 texel position, random and edge level widths
//! and texel positions, every texel of small levels — and replayed by the plain-SV
//! testbench `rtl-bridge/tb/pica_tex_tb.sv` under Icarus, which compares every output bit.
//! `pica_tex_filter` (the bilinear and mipmap-level blends: `sample::{bilinear_with,
//! lerp_levels_with}`, both roundings of `tex-filter-rounding`) gets random and extreme
//! texels and weights; `pica_tex_coord` (an f24 coordinate to a fixed-point texel position:
//! `sample::to_fixed`) f24 values at its shifter's edges and the special values;
//! `pica_tex_lod` (`sample::{lod_from_derivs, plan_levels}`) derivatives, sizes, biases,
//! level limits and filters. Each injected bug of the blocks (`INJECT_TEX_MORTON`,
//! `INJECT_TEX_ETC1_TABLE`, `INJECT_TEX_FILTER_WEIGHT`, `INJECT_TEX_COORD_FLOOR`,
//! `INJECT_TEX_LOD_ROUND`, `INJECT_TEX_WRAP_MIRROR`, `INJECT_TEX_LEVEL_MIN`,
//! `INJECT_TEX_SHADOW_STRICT`) must fail the same vectors. `pica_tex_shadow` (`tex::{shadow_ref,
//! shadow_texel}`) gets depths around 1 and stored depths at the reference and either side;
//! `pica_tex_cube` (`tex::cube_coords`, with the shader ALU's f24 blocks) directions with
//! ties between the axes (`INJECT_TEX_CUBE_TIE`). `pica_tex_wrap` (`sample::wrap`, every mode, sizes that are not powers of two
//! too) is clocked: its indices stream in one a clock and its answers are checked in order;
//! `pica_tex_level` (`tex::{level_dim_min, level_offset_min}`, both minimum level sizes) is
//! started and clocked until done. Verilator lint (`-Wall`) and Yosys synthesis of both blocks are checked too.
//!
//! `PICA_TEX_SEED` picks another random stream (default 1); the vector file of a failing run
//! is kept and named.

// The shared replay helpers (common/replay.rs) unwrap the workspace path.
#![allow(clippy::unwrap_used)]

use pica_model::knobs::TexFilterRounding;
use pica_model::num::F24;
use pica_model::regs::TexunitTypeFormat;
use pica_model::regs::{TexunitParamFilter, TexunitParamWrap};
use pica_model::tex::format::{decode_with, texel_loc, Format, TexelLoc, ALPHA_FORMAT_RGB};
use pica_model::tex::sample::{
    bilinear_with, lerp_levels_with, lod_bias, lod_from_derivs, plan_levels, to_fixed, wrap,
    LevelPlan, Wrapped, SUBTEXEL_BITS,
};
use pica_model::tex::{
    cube_coords, level_dim_min, level_offset_min, shadow_ref, shadow_texel, MIN_LEVEL_SIZE,
};
use pica_vectors::shader_gen::Rng;
use replay_util::{require_sim, root};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

#[allow(dead_code)]
#[path = "common/replay.rs"]
mod replay_util;

/// The blocks' sources, in compile order.
fn sources() -> Vec<PathBuf> {
    [
        "pica_tex_etc1.sv",
        "pica_tex_texel.sv",
        "pica_tex_addr.sv",
        "pica_tex_weights.sv",
        "pica_tex_filter.sv",
        "pica_tex_coord.sv",
        "pica_tex_lod.sv",
        "pica_tex_wrap.sv",
        "pica_tex_dim.sv",
        "pica_tex_level.sv",
        "pica_tex_shadow.sv",
        "pica_tex_cube_face.sv",
        "pica_tex_cube.sv",
        "pica_f24_rcp.sv",
        "pica_f24_mul.sv",
        "pica_f24_add.sv",
    ]
    .iter()
    .map(|f| root().join("rtl-bridge/rtl").join(f))
    .collect()
}

/// The model's format for a 4-bit field value (14 and 15 decode as RGBA8888).
fn format_of(fmt: u32) -> Format {
    Format::from_reg(TexunitTypeFormat::from_bits(fmt))
}

/// A decode line: the default knobs, then alpha-only colour white and reserved formats zero.
fn decode_line(out: &mut String, fmt: u32, raw: u128, hi: bool, bx: u32, by: u32) {
    let f = format_of(fmt);
    let loc = TexelLoc {
        offset: 0,
        len: 16,
        high_nibble: hi,
        bx,
        by,
    };
    let rgba = u32::from_be_bytes(decode_with(f, raw, &loc, ALPHA_FORMAT_RGB));
    // tex-reserved-format=zero: the model reads nothing and gives (0, 0, 0, 0)
    // (pica_model::tex::sample_unit); tex-alpha-only-colour=white: A8 and A4 give 255.
    let knobs = if fmt >= 14 {
        0
    } else {
        u32::from_be_bytes(decode_with(f, raw, &loc, [255; 3]))
    };
    let _ = writeln!(
        out,
        "D {fmt:x} {raw:x} {:x} {bx:x} {by:x} {rgba:08x} {knobs:08x}",
        u8::from(hi)
    );
}

/// An address line.
fn addr_line(out: &mut String, fmt: u32, width: u32, x: u32, yr: u32) {
    let loc = texel_loc(format_of(fmt), width, x, yr);
    let _ = writeln!(
        out,
        "A {fmt:x} {width:x} {x:x} {yr:x} {:x} {:x} {:x} {:x} {:x}",
        loc.offset,
        loc.len,
        u8::from(loc.high_nibble),
        loc.bx,
        loc.by
    );
}

/// A filter line: the bilinear and level blends, rounded half up and truncated.
fn filter_line(out: &mut String, c: [u32; 4], fx: u32, fy: u32, lvl: [u32; 2], f: u32) {
    let bytes = c.map(u32::to_be_bytes);
    let [a, b] = lvl.map(u32::to_be_bytes);
    let be = u32::from_be_bytes;
    let mut blends = [0u32; 4];
    for (k, r) in [TexFilterRounding::HalfUp, TexFilterRounding::Truncate]
        .into_iter()
        .enumerate()
    {
        blends[2 * k] = be(bilinear_with(bytes, fx, fy, r));
        blends[2 * k + 1] = be(lerp_levels_with(a, b, f, r));
    }
    let _ = writeln!(
        out,
        "F {:x} {:x} {:x} {:x} {fx:x} {fy:x} {:x} {:x} {f:x} {:x} {:x} {:x} {:x}",
        c[0], c[1], c[2], c[3], lvl[0], lvl[1], blends[0], blends[1], blends[2], blends[3]
    );
}

/// A coordinate line: `to_fixed(x, scale, 8)` as 42-bit two's complement.
fn coord_line(out: &mut String, x: u32, scale: u32) {
    let p = to_fixed(F24::from_bits(x), scale, SUBTEXEL_BITS);
    let _ = writeln!(out, "C {x:x} {scale:x} {:x}", (p as u64) & ((1 << 42) - 1));
}

/// A level-of-detail line: the derivatives, sizes, LOD register fields and filters, then the
/// model's plan (level, next, frac, two, linear); returns which of the plan's four cases it
/// is (0 magnified, 1 one level by the nearest mipmap, 2 one level of a linear mipmap, 3 two
/// levels).
fn lod_line(
    out: &mut String,
    d: [u32; 4],
    size: [u32; 2],
    lod_reg: [u32; 3],
    filt: [u32; 3],
) -> usize {
    let [w, h] = size;
    let [bias, min, max] = lod_reg;
    let f = |b: u32| TexunitParamFilter::from_bits(b);
    let lod = lod_from_derivs(d.map(F24::from_bits), w, h);
    let plan = plan_levels(
        lod,
        lod_bias(bias),
        min,
        max,
        f(filt[0]),
        f(filt[1]),
        f(filt[2]),
    );
    let lin = |f: TexunitParamFilter| u32::from(f == TexunitParamFilter::Linear);
    let (level, next, frac, two, linear) = match plan {
        LevelPlan::One { level, filter } => (level, level, 0, 0, lin(filter)),
        LevelPlan::Two {
            level,
            next,
            frac,
            filter,
        } => (level, next, frac, 1, lin(filter)),
    };
    let _ = writeln!(
        out,
        "L {:x} {:x} {:x} {:x} {w:x} {h:x} {bias:x} {min:x} {max:x} {:x} {:x} {:x} \
         {level:x} {next:x} {frac:x} {two:x} {linear:x}",
        d[0], d[1], d[2], d[3], filt[0], filt[1], filt[2]
    );
    if lod == pica_model::tex::sample::LOD_NONE || lod + lod_bias(bias) <= 0 {
        0
    } else {
        [1, 2][filt[2] as usize] + two as usize
    }
}

/// A level line: the level's size and offset with levels stopping at 8 texels and at 1.
fn level_line(out: &mut String, fmt: u32, w: u32, h: u32, level: u32) {
    let f = format_of(fmt);
    let mut line = format!("V {fmt:x} {w:x} {h:x} {level:x}");
    for min in [MIN_LEVEL_SIZE, 1] {
        let _ = write!(
            line,
            " {:x} {:x} {:x}",
            level_dim_min(w, level, min),
            level_dim_min(h, level, min),
            level_offset_min(f, w, h, level, min)
        );
    }
    let _ = writeln!(out, "{line}");
}

/// A cube line: the direction, then face, s, t and |z|.
fn cube_line(out: &mut String, d: [u32; 3]) {
    let [u, v, w] = d.map(F24::from_bits);
    let (face, s, t, z) = cube_coords(u, v, w);
    let _ = writeln!(
        out,
        "K {:x} {:x} {:x} {face:x} {:x} {:x} {:x}",
        d[0],
        d[1],
        d[2],
        s.bits(),
        t.bits(),
        z.bits()
    );
}

/// A shadow line: depth, z-bias field, texel, result.
fn shadow_line(out: &mut String, z: u32, zbias: u32, texel: u32) {
    let z_int = shadow_ref(F24::from_bits(z), zbias << 1);
    let rgba = u32::from_be_bytes(shadow_texel(texel.to_be_bytes(), z_int));
    let _ = writeln!(out, "S {z:x} {zbias:x} {texel:x} {rgba:x}");
}

/// A wrap line: mode, index (34-bit two's complement), size, then border and texel.
fn wrap_line(out: &mut String, mode: u32, i: i64, n: u32) {
    let (border, idx) = match wrap(TexunitParamWrap::from_bits(mode), i, n) {
        Wrapped::Texel(t) => (0, t),
        Wrapped::Border => (1, 0),
    };
    let _ = writeln!(
        out,
        "W {mode:x} {:x} {n:x} {border:x} {idx:x}",
        (i as u64) & ((1 << 34) - 1)
    );
}

/// A random f24 whose exponent is drawn from `exps` (or any) half of the time, and the
/// special values now and then: zero and subnormals (exponent 0), infinities and NaNs
/// (exponent 127), either sign.
fn f24(rng: &mut Rng, exps: std::ops::RangeInclusive<u32>) -> u32 {
    let bits = rng.next_u64() as u32 & 0xFF_FFFF;
    let exp = match rng.below(8) {
        0 => 0,
        1 => 127,
        2..=5 => exps.start() + rng.below(u64::from(exps.end() - exps.start() + 1)) as u32,
        _ => return bits,
    };
    let mant = if rng.below(4) == 0 { 0 } else { bits & 0xFFFF };
    (bits & 0x80_0000) | (exp << 16) | mant
}

/// The vectors of seed `seed` and how many there are.
fn vectors(seed: u64) -> (String, usize) {
    let mut rng = Rng(seed);
    let mut out = String::new();
    let mut n = 0;
    for fmt in 0..16u32 {
        // Decode: random bytes (the bytes a format does not read are random too: the block
        // must ignore them) at every nibble and ETC texel position.
        for k in 0..2_000u32 {
            let raw = (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64());
            // Every fourth ETC block with equal colour fields and deltas of ±0-3: the
            // differential sums near 0 and 31 and the clamps at 0 and 255 come often.
            let raw = if k % 4 == 0 && (fmt == 12 || fmt == 13) {
                let c = rng.below(32) as u128;
                let shift = if fmt == 13 { 64 } else { 0 };
                let colour = (c << 59) | (c << 51) | (c << 43);
                (raw & !(0x00F8_F8F8_u128 << (40 + shift))) | (colour << shift)
            } else {
                raw
            };
            decode_line(&mut out, fmt, raw, k & 1 != 0, (k >> 1) & 3, (k >> 3) & 3);
            n += 1;
        }
        // Address: every texel of small levels (widths 8, 16 and 24), then random widths
        // (any 1-2047: the arithmetic, not only the hardware's multiples of 8) and positions,
        // with the largest values.
        for width in [8u32, 16, 24] {
            for yr in 0..16 {
                for x in 0..width {
                    addr_line(&mut out, fmt, width, x, yr);
                    n += 1;
                }
            }
        }
        for k in 0..1_500u32 {
            let width = match k % 5 {
                0 => 2047,
                1 => 8 << rng.below(8),
                _ => 1 + rng.below(2047) as u32,
            };
            let x = if k % 7 == 0 {
                width - 1
            } else {
                rng.below(u64::from(width)) as u32
            };
            let yr = if k % 11 == 0 {
                2047
            } else {
                rng.below(2048) as u32
            };
            addr_line(&mut out, fmt, width, x, yr);
            n += 1;
        }
    }
    // Filters: random texels and weights, and the extremes (0 and 255 everywhere, weights 0,
    // 1, 128, 255) where the rounding term decides.
    let edge = [0u32, 1, 127, 128, 129, 254, 255];
    for k in 0..20_000u32 {
        let pick = |rng: &mut Rng| -> u32 {
            if k % 3 == 0 {
                let mut v = 0;
                for _ in 0..4 {
                    v = (v << 8) | [0, 255, 128, 1][rng.below(4) as usize];
                }
                v
            } else {
                rng.next_u64() as u32
            }
        };
        let c = [
            pick(&mut rng),
            pick(&mut rng),
            pick(&mut rng),
            pick(&mut rng),
        ];
        let lvl = [pick(&mut rng), pick(&mut rng)];
        let w = |rng: &mut Rng| -> u32 {
            if k % 2 == 0 {
                edge[rng.below(edge.len() as u64) as usize]
            } else {
                rng.below(256) as u32
            }
        };
        let (fx, fy, f) = (w(&mut rng), w(&mut rng), w(&mut rng));
        filter_line(&mut out, c, fx, fy, lvl, f);
        n += 1;
    }
    // Coordinates: exponents around the shifter's edges (43-44: the last bits shifted out,
    // 71: no shift, 111-112: the saturation) and any; scales 0, 1, powers of two, 2047, any.
    for k in 0..20_000u32 {
        let x = f24(
            &mut rng,
            [40, 71, 108][(k % 3) as usize]..=[47, 75, 113][(k % 3) as usize],
        );
        let scale = match k % 6 {
            0 => [0, 1, 2047][rng.below(3) as usize],
            1 => 1 << rng.below(11),
            _ => rng.below(2048) as u32,
        };
        coord_line(&mut out, x, scale);
        n += 1;
    }
    // Level of detail: derivatives from a tenth of a texel to thousands of texels a pixel
    // (exponents 50-70 on sizes up to 1024) and the special values; power-of-two and any
    // sizes; any bias, level limits (min above max too) and filters.
    let mut cases = [0usize; 4];
    for k in 0..20_000u32 {
        // Every other draw: derivatives of a quarter texel to 2^9 texels a pixel on 256 texels
        // (finite, either sign), the LOD range of the level limits below.
        let d = if k % 2 == 0 {
            [0; 4].map(|_| {
                let b = rng.next_u64() as u32;
                (b & 0x80_FFFF) | ((53 + (b >> 24) % 10) << 16)
            })
        } else {
            [0; 4].map(|_| f24(&mut rng, 50..=70))
        };
        let size = [0; 2].map(|_| match k % 4 {
            0 => 256,
            1 | 2 => 8 << rng.below(8),
            _ => rng.below(2048) as u32,
        });
        // Half the time a bias within two levels and at least two levels between the limits,
        // where two-level blends happen; otherwise any bias and limits (min above max too).
        let lod_reg = if k % 2 == 0 {
            let min = rng.below(8) as u32;
            [
                (rng.below(1024) as u32).wrapping_sub(512) & 0x1FFF,
                min,
                min + 2 + rng.below(6) as u32,
            ]
        } else {
            [
                rng.below(1 << 13) as u32,
                rng.below(16) as u32,
                rng.below(16) as u32,
            ]
        };
        let filt = [0; 3].map(|_| rng.below(2) as u32);
        cases[lod_line(&mut out, d, size, lod_reg, filt)] += 1;
        n += 1;
    }
    // Cube directions: components near ±1 and anywhere, the special values, and ties of the
    // magnitudes (two or three components equal up to the sign, where the later axis wins).
    for k in 0..8_000u32 {
        let mut d = [0; 3].map(|_| f24(&mut rng, 55..=70));
        if k % 4 == 0 {
            let (a, b) = (rng.below(3) as usize, rng.below(3) as usize);
            d[a] = (d[b] & 0x7F_FFFF) | (d[a] & 0x80_0000);
        }
        cube_line(&mut out, d);
        n += 1;
    }
    // Shadow comparisons: depths below 1 (exponents 40-62), at and above it, the special
    // values; small and any biases; texels whose stored depth is the fragment's reference or
    // one either side of it (where ≥ and > differ), and any.
    for k in 0..12_000u32 {
        let z = f24(&mut rng, 40..=64);
        let zbias = if k % 2 == 0 {
            rng.below(64) as u32
        } else {
            rng.next_u64() as u32 & 0x7F_FFFF
        };
        let z_int = shadow_ref(F24::from_bits(z), zbias << 1);
        let stored = if k % 3 == 0 {
            rng.next_u64() as u32 & 0xFF_FFFF
        } else {
            (z_int + rng.below(3) as i64 - 1).clamp(0, 0xFF_FFFF) as u32
        };
        let intensity = rng.next_u64() as u32 & 0xFF;
        // {r, g, b, a} with the stored depth a << 16 | b << 8 | g.
        let texel = intensity << 24 | (stored & 0xFF) << 16 | (stored & 0xFF00) | stored >> 16;
        shadow_line(&mut out, z, zbias, texel);
        n += 1;
    }
    // Level sizes and offsets: every format and level; power-of-two, small (below one
    // tile: where the two minimum sizes differ), zero and any sizes.
    for k in 0..4_000u32 {
        let dim = |rng: &mut Rng| match rng.below(4) {
            0 => 8 << rng.below(8),
            1 => rng.below(17) as u32,
            2 => 2047,
            _ => rng.below(2048) as u32,
        };
        let (w, h) = (dim(&mut rng), dim(&mut rng));
        level_line(&mut out, k % 16, w, h, (k / 16) % 16);
        n += 1;
    }
    // Wrapping: every mode; sizes 0 (acts as 1), small, powers of two and any; indices
    // near the axis (a few sizes either side, where every mode turns), at exact multiples
    // of the size and around them, and anywhere in the range texel positions reach
    // (|i| ≤ 2^32 + 1), the extremes included.
    for k in 0..16_000u32 {
        let mode = k % 8;
        let size = match (k / 8) % 4 {
            0 => [0, 1, 2, 3, 2047][rng.below(5) as usize],
            1 => 1 << rng.below(11),
            2 => 1 + rng.below(16) as u32,
            _ => 1 + rng.below(2047) as u32,
        };
        let nn = i64::from(size.max(1));
        let lim = (1i64 << 32) + 1;
        let i = match (k / 32) % 4 {
            0 => rng.below(8 * nn as u64) as i64 - 4 * nn,
            1 => (rng.below(64) as i64 - 32) * nn + rng.below(3) as i64 - 1,
            2 => [lim, -lim, lim - 1, -lim + 1, 1 << 32, -(1 << 32)][rng.below(6) as usize],
            _ => rng.below(2 * lim as u64 + 1) as i64 - lim,
        };
        wrap_line(&mut out, mode, i, size);
        n += 1;
    }
    // Every case of the level plan, often (the vectors must reach what they test).
    assert!(
        cases.iter().all(|&c| c >= 1_000),
        "level plans (magnified, nearest mip, linear one level, two levels): {cases:?}"
    );
    (out, n)
}

/// Compiles the testbench under Icarus with `defines`, runs it on `vec` and returns its output.
fn run_icarus(dir: &Path, vec: &Path, defines: &[&str]) -> String {
    let exe = dir.join(format!("tb{}", defines.join("_")));
    let mut cmd = Command::new("iverilog");
    cmd.args(["-g2012", "-s", "pica_tex_tb", "-o"])
        .arg(&exe)
        .args(defines.iter().map(|d| format!("-D{d}")))
        .args(sources())
        .arg(root().join("rtl-bridge/tb/pica_tex_tb.sv"));
    let out = cmd.output().expect("iverilog runs");
    assert!(
        out.status.success(),
        "iverilog rejected the texture blocks ({defines:?}):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new("vvp")
        .arg("-n")
        .arg(&exe)
        .arg(format!("+vec={}", vec.display()))
        .output()
        .expect("vvp runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn seed() -> u64 {
    std::env::var("PICA_TEX_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

fn work_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pica-tex-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn tex_blocks_match_the_model_under_icarus() {
    require_sim("icarus");
    let dir = work_dir("match");
    let (text, n) = vectors(seed());
    let vec = dir.join("tex.vec");
    std::fs::write(&vec, text).expect("write vectors");
    let out = run_icarus(&dir, &vec, &[]);
    assert!(
        out.contains(&format!("PASS {n}\n")),
        "pica_tex_addr / pica_tex_texel differ from the model (seed {}; vectors kept in {}):\n{out}",
        seed(),
        vec.display()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tex_blocks_injected_bugs_are_caught() {
    require_sim("icarus");
    let dir = work_dir("bugs");
    let (text, _) = vectors(seed());
    let vec = dir.join("tex.vec");
    std::fs::write(&vec, text).expect("write vectors");
    for bug in [
        "INJECT_TEX_MORTON",
        "INJECT_TEX_ETC1_TABLE",
        "INJECT_TEX_FILTER_WEIGHT",
        "INJECT_TEX_COORD_FLOOR",
        "INJECT_TEX_LOD_ROUND",
        "INJECT_TEX_WRAP_MIRROR",
        "INJECT_TEX_LEVEL_MIN",
        "INJECT_TEX_SHADOW_STRICT",
        "INJECT_TEX_CUBE_TIE",
    ] {
        let out = run_icarus(&dir, &vec, &[bug]);
        assert!(
            out.contains("MISMATCH") && out.contains("\nFAIL "),
            "the vectors do not catch {bug}:\n{out}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tex_blocks_are_lint_clean_and_synthesize() {
    require_sim("verilator");
    for top in [
        "pica_tex_texel",
        "pica_tex_addr",
        "pica_tex_weights",
        "pica_tex_filter",
        "pica_tex_lod",
        "pica_tex_wrap",
        "pica_tex_level",
        "pica_tex_shadow",
        "pica_tex_cube",
    ] {
        let out = Command::new("verilator")
            .args(["--lint-only", "-Wall", "--top-module", top])
            .args(sources())
            .output()
            .expect("verilator runs");
        let t = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.status.success() && !t.contains("%Warning") && !t.contains("%Error"),
            "verilator --lint-only -Wall {top} is not clean:\n{t}"
        );
        let mut script = String::from("read_verilog -sv");
        for s in sources() {
            script.push(' ');
            script.push_str(&s.to_string_lossy());
        }
        script.push_str(&format!(
            "; synth -flatten -top {top} -run begin:fine; check -assert"
        ));
        let out = Command::new("yosys")
            .args(["-q", "-p", &script])
            .output()
            .expect("yosys runs (scripts/setup installs it)");
        assert!(
            out.status.success(),
            "yosys rejected {top}:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
