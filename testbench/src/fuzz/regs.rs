//! `pica fuzz`: property-based fuzzing of register sequences.
//!
//! A case is a [`FuzzList`]: structured commands (configuration writes to every register
//! group, uniform / code / operand-descriptor / LUT / fixed-attribute uploads with random
//! indices including out-of-range ones, random byte masks, consecutive and repeated writes,
//! CMDBUF jumps into a second buffer, FINALIZE anywhere or nowhere, sizes that break the
//! 16-byte rule) or raw word sequences. Without RTL every case is checked against invariants
//! and an abstract model of the command stream ([`check_model`]); with RTL, model and RTL run
//! in lockstep (on the RTL's front-end build, [`Variant::front_end`]). A case whose command
//! stream provably repeats up to the cycle limit (a jump loop, a walk through zero memory)
//! ends once that is proven, on the model alone and in lockstep alike
//! ([`crate::lockstep::loops`]). A failing case is shrunk with proptest's value trees and
//! written as a bundle.
//!
//! Runs are deterministic: case `i` of seed `S` is generated from its own RNG seeded with
//! [`case_seed`]`(S, i)`, so `--shard I/N` (cases with `i % N == I`) splits a campaign across
//! machines and the union of the shards is exactly the unsharded run.

// The report every target shares ([`super::report`]), by the register fuzzer's name too.
pub use super::report::{case_seed, merge_reports, Failure, FuzzReport};
use crate::lockstep::loops::{LoopDetector, LoopProof};
use crate::lockstep::{self, HoldSchedule, Options};
use pica_model::beat::merge_masked;
use pica_model::cov::{CoverageDb, Hits};
use pica_model::cp::CommandHeader;
use pica_model::regs::{self, id, SideEffect};
use pica_model::{HangReason, Memory, Outcome};
use pica_rtl_bridge::{RtlCoverage, Variant};
use pica_vectors::bundle::write_bundle;
use pica_vectors::case::{Case, MemImage};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::path::{Path, PathBuf};

/// Where the second buffer (the target of CMDBUF jumps) is placed.
pub const JUMP_TARGET: u32 = 0x1800_0000;
/// Cycle limit of a fuzz case (jump loops the loop detection cannot prove end here, on both
/// sides alike; [`crate::lockstep::loops`] ends the others earlier).
pub const FUZZ_MAX_CYCLES: u64 = 20_000;
/// Shrink steps tried per failure.
pub const MAX_SHRINK_STEPS: u32 = 4096;

/// One command of a structured case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// A command: `params` to `id` (consecutive or repeated) under `mask`.
    Write {
        /// First register ID (any 16-bit value).
        id: u16,
        /// Byte-enable mask.
        mask: u8,
        /// Consecutive mode.
        consecutive: bool,
        /// Parameters (1-256).
        params: Vec<u32>,
    },
    /// A jump to the second buffer through channel `ch` (writes ADDRn, SIZEn, JUMPn).
    Jump {
        /// Channel 0 or 1.
        ch: u8,
    },
    /// A jump anywhere through channel `ch`: ADDRn = `addr >> 3`, SIZEn = `size >> 3`, JUMPn
    /// (mostly unmapped memory, addresses with the high bits set, the list itself, near the
    /// jump target: the CP's redirect arithmetic and its unmapped/past-end checks, which
    /// [`Cmd::Jump`]'s one well-formed target never reaches — found by `pica mutate`).
    JumpTo {
        /// Channel 0 or 1.
        ch: u8,
        /// Target address (low 3 bits dropped by the register).
        addr: u32,
        /// Target size in bytes (low 3 bits dropped by the register).
        size: u32,
    },
    /// Raw words spliced into the list as they are.
    Raw(Vec<u32>),
}

/// How the submitted size relates to the list's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeMode {
    /// Exactly the list (padded to 16 bytes).
    Exact,
    /// The list's length with no padding (may lose its last 8 bytes to the 16-byte rule).
    Unpadded,
    /// `n` bytes fewer than the list (a command runs past the end).
    Short(u8),
}

/// A fuzz case before rendering to words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuzzList {
    /// Commands of the submitted list.
    pub main: Vec<Cmd>,
    /// Commands of the jump target buffer.
    pub target: Vec<Cmd>,
    /// Whether the main list ends with FINALIZE.
    pub finalize: bool,
    /// Whether the target buffer ends with FINALIZE.
    pub target_finalize: bool,
    /// Submitted size.
    pub size: SizeMode,
    /// Where the jump target buffer starts ([`JUMP_TARGET`] or just below a power-of-two
    /// boundary above it; see [`target_base`]).
    pub target_base: u32,
}

fn render(cmds: &[Cmd], target: (u32, u32), finalize: bool) -> Vec<u32> {
    let (target_base, target_bytes) = target;
    let mut w: Vec<u32> = Vec::new();
    let command = |w: &mut Vec<u32>, id: u16, mask: u8, consecutive: bool, params: &[u32]| {
        let Some((first, rest)) = params.split_first() else {
            return;
        };
        let h = CommandHeader {
            id,
            mask,
            extra: rest.len().min(255) as u8,
            consecutive,
        };
        w.push(*first);
        w.push(h.encode());
        w.extend(rest.iter().take(255));
        if w.len() % 2 == 1 {
            w.push(0);
        }
    };
    for c in cmds {
        match c {
            Cmd::Write {
                id,
                mask,
                consecutive,
                params,
            } => command(&mut w, *id, *mask, *consecutive, params),
            Cmd::Jump { ch } => {
                let ch = u16::from(ch & 1);
                command(
                    &mut w,
                    id::CMDBUF_ADDR0 + ch,
                    0xF,
                    false,
                    &[target_base >> 3],
                );
                command(
                    &mut w,
                    id::CMDBUF_SIZE0 + ch,
                    0xF,
                    false,
                    &[target_bytes >> 3],
                );
                command(&mut w, id::CMDBUF_JUMP0 + ch, 0xF, false, &[1]);
            }
            Cmd::JumpTo { ch, addr, size } => {
                let ch = u16::from(ch & 1);
                command(&mut w, id::CMDBUF_ADDR0 + ch, 0xF, false, &[addr >> 3]);
                command(&mut w, id::CMDBUF_SIZE0 + ch, 0xF, false, &[size >> 3]);
                command(&mut w, id::CMDBUF_JUMP0 + ch, 0xF, false, &[1]);
            }
            Cmd::Raw(words) => {
                w.extend(words);
                if w.len() % 2 == 1 {
                    w.push(0);
                }
            }
        }
    }
    if finalize {
        command(&mut w, id::FINALIZE, 0xF, false, &[0x1234_5678]);
    }
    w
}

fn pad16(mut w: Vec<u32>) -> Vec<u32> {
    while w.len() % 4 != 0 {
        w.push(0);
    }
    w
}

impl FuzzList {
    /// Number of commands, the measure of a reproducer's size (FINALIZE included; a jump
    /// counts as its three commands; raw words as one).
    pub fn commands(&self) -> usize {
        let n = |cmds: &[Cmd]| -> usize {
            cmds.iter()
                .map(|c| {
                    if matches!(c, Cmd::Jump { .. } | Cmd::JumpTo { .. }) {
                        3
                    } else {
                        1
                    }
                })
                .sum()
        };
        let jumps = self.main.iter().any(|c| matches!(c, Cmd::Jump { .. }));
        n(&self.main)
            + usize::from(self.finalize)
            + if jumps {
                n(&self.target) + usize::from(self.target_finalize)
            } else {
                0
            }
    }

    /// The case to run: the list at [`pica_vectors::case::DEFAULT_LIST_ADDR`], the jump target at
    /// [`FuzzList::target_base`].
    pub fn to_case(&self, name: &str, seed: Option<u64>) -> Case {
        let target = pad16(render(&self.target, (0, 0), self.target_finalize));
        let target_bytes = (target.len() * 4) as u32;
        let main = render(&self.main, (self.target_base, target_bytes), self.finalize);
        let len = (main.len() * 4) as u32;
        let main = pad16(main);
        let size = match self.size {
            SizeMode::Exact => (main.len() * 4) as u32,
            SizeMode::Unpadded => len,
            SizeMode::Short(n) => len.saturating_sub(u32::from(n) * 4),
        };
        let mut case = Case::from_list(name, "fuzzer case", main);
        case.submit_size = size;
        case.max_cycles = FUZZ_MAX_CYCLES;
        case.seed = seed;
        if !target.is_empty() {
            case.images.push(MemImage {
                base: self.target_base,
                words: target,
            });
        }
        case
    }
}

/// Register IDs worth hitting more often than the rest: every FIFO index and data register,
/// the shader-unit configuration, the CMDBUF registers, FINALIZE and the triggers.
fn interesting_ids() -> Vec<u16> {
    let mut v: Vec<u16> = regs::REGISTERS
        .iter()
        .filter(|r| r.effect != SideEffect::None)
        .map(|r| r.id)
        .filter(|&i| i != id::FINALIZE && !(id::CMDBUF_JUMP0..=id::CMDBUF_JUMP1).contains(&i))
        .collect();
    v.extend([
        id::VSH_COM_MODE,
        id::GEOSTAGE_CONFIG,
        id::VSH_NUM_ATTR,
        id::VSH_BOOLUNIFORM,
        id::VSH_INTUNIFORM_I0,
        id::VSH_ENTRYPOINT,
        id::VSH_OUTMAP_MASK,
        id::VSH_INPUTBUFFER_CONFIG,
        id::VSH_ATTRIBUTES_PERMUTATION_LOW,
        id::GSH_BOOLUNIFORM,
        id::GSH_INTUNIFORM_I3,
        id::GSH_ENTRYPOINT,
        id::GSH_OUTMAP_MASK,
        id::GSH_ATTRIBUTES_PERMUTATION_HIGH,
        id::CMDBUF_ADDR0,
        id::CMDBUF_SIZE1,
    ]);
    // Every per-unit configuration register of both blocks (bool and int uniforms I0-I3,
    // input config, entry point, permutation, output mask: offsets 0x0-0xD of GSH 0x280 and
    // VSH 0x2B0), each held per unit by REGS: `pica mutate` found mutants of unit 1's I3 that
    // no case reached while only I0 (VSH) and I3 (GSH) were listed here.
    for off in 0..=0xD {
        v.push(id::GSH_BOOLUNIFORM + off);
        v.push(id::VSH_BOOLUNIFORM + off);
    }
    v
}

/// Upload sequences: (index register, data register).
const UPLOADS: [(u16, u16); 11] = [
    (id::VSH_FLOATUNIFORM_INDEX, id::VSH_FLOATUNIFORM_DATA0),
    (id::GSH_FLOATUNIFORM_INDEX, id::GSH_FLOATUNIFORM_DATA0),
    (id::VSH_CODETRANSFER_INDEX, id::VSH_CODETRANSFER_DATA0),
    (id::GSH_CODETRANSFER_INDEX, id::GSH_CODETRANSFER_DATA0),
    (id::VSH_OPDESCS_INDEX, id::VSH_OPDESCS_DATA0),
    // The GSH block's own offset (a shadow flop of its own in REGS: `pica mutate` found a
    // mutant that used the VSH offset for GSH writes, which only this upload tells apart).
    (id::GSH_OPDESCS_INDEX, id::GSH_OPDESCS_DATA0),
    (id::PROCTEX_LUT, id::PROCTEX_LUT_DATA0),
    (id::FOG_LUT_INDEX, id::FOG_LUT_DATA0),
    (id::LIGHTING_LUT_INDEX, id::LIGHTING_LUT_DATA0),
    (id::GAS_LUT_INDEX, id::GAS_LUT_DATA),
    (id::FIXEDATTRIB_INDEX, id::FIXEDATTRIB_DATA0),
];

fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        6 => any::<u32>(),
        // f32 values at f24's edges (f24 bias 63: f32 exponent fields 56..72 convert to f24
        // subnormals or the smallest normals, 185..200 to the largest or overflow): random
        // words almost never land there (`pica mutate`: the f32-to-f24 subnormal shift).
        1 => (prop_oneof![56u32..72, 185u32..200], any::<u32>())
            .prop_map(|(e, m)| (m & 0x807F_FFFF) | (e << 23)),
        // NaNs whose payload sits only in the mantissa bits f24 drops (the f32-to-f24 NaN rule
        // keeps them NaN: `pica mutate` found its compare untested).
        1 => prop::sample::select(vec![
            0u32, 0xFFFF_FFFF, 0x8000_0000, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 0x0000_0001,
            0x007F_FFFF, 0x2080_0000, 0x207F_FFFF, 0x5F80_0000, 0x3F80_0000, 0x7F80_0001,
            0xFF80_007F, 0x7F80_0080,
        ]),
        1 => 0u32..0x200,
    ]
}

/// f32 words at f24's edges: NaNs (payload only in the bits f24 drops, or not), infinities,
/// exponents converting to f24 subnormals or overflow, zeros.
fn f24_edge() -> impl Strategy<Value = u32> {
    prop_oneof![
        2 => prop::sample::select(vec![0x7F80_0000u32, 0xFF80_0000, 0, 0x8000_0000]),
        2 => (any::<bool>(), 0u32..0x80).prop_map(|(s, m)| (u32::from(s) << 31) | 0x7F80_0000 | m),
        1 => (any::<bool>(), any::<u32>()).prop_map(|(s, m)| (u32::from(s) << 31) | 0x7F80_0000 | (m & 0x7F_FFFF)),
        2 => (prop_oneof![0u32..2, 56u32..72, 185u32..200, 254u32..256], any::<u32>())
            .prop_map(|(e, m)| (m & 0x807F_FFFF) | (e << 23)),
    ]
}

fn mask() -> impl Strategy<Value = u8> {
    prop_oneof![4 => Just(0xFu8), 1 => 0u8..16]
}

fn params(max: usize) -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(word(), 1..=max)
}

fn cmd() -> impl Strategy<Value = Cmd> {
    let ids = interesting_ids();
    let write = |id: BoxedStrategy<u16>| {
        (id, mask(), any::<bool>(), params(6)).prop_map(|(id, mask, consecutive, params)| {
            Cmd::Write {
                id,
                mask,
                consecutive,
                params,
            }
        })
    };
    let upload = (
        prop::sample::select(UPLOADS.to_vec()),
        word(),
        (mask(), mask()),
        params(12),
        any::<bool>(),
    )
        .prop_map(|((ix, data), index, (index_mask, mask), params, wide)| {
            // Index values: small, near the ends of each table, or anything. The index write
            // is masked too (a kept byte of the old index, which REGS merges from its shadow
            // flop: `pica mutate` found that hole).
            Cmd::Raw({
                let mut w = vec![
                    index,
                    CommandHeader {
                        id: ix,
                        mask: index_mask,
                        extra: 0,
                        consecutive: false,
                    }
                    .encode(),
                ];
                let rest = params.len() - 1;
                w.push(params[0]);
                w.push(
                    CommandHeader {
                        id: data,
                        mask,
                        extra: rest as u8,
                        consecutive: wide && rest < 8,
                    }
                    .encode(),
                );
                w.extend(&params[1..]);
                w
            })
        });
    // Float uniforms in f32 mode (index bit 31) with f24-edge words only: the converter's
    // NaN, infinity and subnormal rules per component, which random words in random uploads
    // almost never reach (`pica mutate`: a NaN compare of one component's converter).
    let f32_uniforms = (
        prop::sample::select(vec![id::VSH_FLOATUNIFORM_INDEX, id::GSH_FLOATUNIFORM_INDEX]),
        0u32..96,
        prop::collection::vec(f24_edge(), 4..=8),
    )
        .prop_map(|(ix, index, words)| {
            Cmd::Raw({
                let mut w = vec![
                    0x8000_0000 | index,
                    CommandHeader {
                        id: ix,
                        mask: 0xF,
                        extra: 0,
                        consecutive: false,
                    }
                    .encode(),
                    words[0],
                    CommandHeader {
                        id: ix + 1,
                        mask: 0xF,
                        extra: (words.len() - 1) as u8,
                        consecutive: false,
                    }
                    .encode(),
                ];
                w.extend(&words[1..]);
                w
            })
        });
    // A register with one ID bit above the 0x300 range set: out of range, so nothing may
    // happen, however REGS decodes the low bits (`pica mutate`: a mutant that dropped ID bit
    // 11 from one group compare turned 0x8B0 into a proctex LUT write).
    let alias = (prop::sample::select(ids.clone()), 10u32..16)
        .prop_map(|(id, b)| id | (1u16 << b))
        .boxed();
    // Whether unit 3 is the GS unit (GEOSTAGE_CONFIG bits 0-1, VSH_COM_MODE bit 0) decides
    // where every VSH upload lands; as two of ~90 interesting IDs they were rarely written
    // before an upload (`pica mutate`: a mutant that sent VSH uniforms to unit 3 while GS
    // was on survived 200 cases).
    let gs_mode = (
        prop::sample::select(vec![id::GEOSTAGE_CONFIG, id::VSH_COM_MODE]),
        0u32..4,
    )
        .prop_map(|(id, v)| Cmd::Write {
            id,
            mask: 0xF,
            consecutive: false,
            params: vec![v],
        });
    // A shader bind: several of one block's per-unit configuration registers (offsets 0x0-0xD
    // of GSH 0x280 / VSH 0x2B0) written back to back in any order, as a driver's program switch
    // does (citro3d's shaderProgramUse writes the entry point, output mask, input config,
    // permutation and uniforms as a group). Single writes among ~90 IDs rarely put two of them
    // in one case (`pica mutate`: a mutant that lost bit 12 of unit 2's output mask whenever
    // another configuration register of the unit was written survived 96 cases).
    let bind = (
        prop::sample::select(vec![id::GSH_BOOLUNIFORM, id::VSH_BOOLUNIFORM]),
        prop::collection::vec((0u16..=0xD, word()), 2..6),
    )
        .prop_map(|(base, regs)| {
            let mut w = Vec::with_capacity(2 * regs.len());
            for (off, v) in regs {
                w.push(v);
                w.push(
                    CommandHeader {
                        id: base + off,
                        mask: 0xF,
                        extra: 0,
                        consecutive: false,
                    }
                    .encode(),
                );
            }
            Cmd::Raw(w)
        });
    prop_oneof![
        3 => write(prop::sample::select(ids).boxed()),
        1 => write(alias),
        1 => gs_mode,
        1 => bind,
        3 => upload,
        1 => f32_uniforms,
        2 => write((0u16..0x300).boxed()),
        1 => write(any::<u16>().boxed()),
        1 => (0u8..2).prop_map(|ch| Cmd::Jump { ch }),
        1 => prop::collection::vec(any::<u32>(), 1..8).prop_map(Cmd::Raw),
        1 => (0u8..2, far_addr(), far_size()).prop_map(|(ch, addr, size)| Cmd::JumpTo {
            ch,
            addr,
            size
        }),
    ]
}

/// Targets of [`Cmd::JumpTo`]: anywhere (mostly unmapped, often at or above 2^31), 8-byte steps
/// into the second buffer, the jump target or the submitted list with one address bit
/// flipped, the list itself, or an address with one bit set.
fn far_addr() -> impl Strategy<Value = u32> {
    prop_oneof![
        2 => any::<u32>(),
        // Into the second buffer at any 8-byte step: a buffer that starts (and so ends) off a
        // 16-byte boundary, where the CP's end-of-buffer compare sees address bit 3 set
        // (`pica mutate`: a mutant that ignored that bit read one word past the end).
        2 => (0u32..16).prop_map(|k| JUMP_TARGET + 8 * k),
        2 => (3u32..32).prop_map(|b| JUMP_TARGET ^ (1 << b)),
        1 => (3u32..32).prop_map(|b| pica_vectors::case::DEFAULT_LIST_ADDR ^ (1 << b)),
        1 => Just(pica_vectors::case::DEFAULT_LIST_ADDR),
        // One address bit set (unmapped but for bit 29): the CP's 33-bit end register then
        // holds a single high bit of the address, whose loss makes the buffer look exhausted
        // before its first word (`pica mutate`: end bit 26 stuck at 0 survived 96 cases).
        1 => (3u32..32).prop_map(|b| 1u32 << b),
    ]
}

/// Sizes of [`Cmd::JumpTo`]: small, or anything the 21-bit SIZE field holds (and beyond).
fn far_size() -> impl Strategy<Value = u32> {
    prop_oneof![2 => 0u32..0x100, 1 => any::<u32>()]
}

/// Where the jump target buffer starts: mostly [`JUMP_TARGET`], else 8 to 24 bytes below the
/// boundary `JUMP_TARGET + 2^b` (b = 5-20), so that the CP reads on across a carry into address
/// bit b, after words whose address has every bit from 3 to b-1 set (`pica mutate`: a mutant
/// that flipped the next word's address bit 10 whenever bit 11 was set survived every buffer
/// of the fuzzer, which all sat at the start of a 2 KiB block).
fn target_base() -> impl Strategy<Value = u32> {
    prop_oneof![
        5 => Just(JUMP_TARGET),
        1 => (5u32..21, 1u32..4).prop_map(|(b, j)| JUMP_TARGET + (1 << b) - 8 * j),
    ]
}

/// The strategy of fuzz cases.
pub fn fuzz_list() -> impl Strategy<Value = FuzzList> {
    let size = prop_oneof![
        8 => Just(SizeMode::Exact),
        1 => Just(SizeMode::Unpadded),
        1 => (1u8..8).prop_map(SizeMode::Short),
    ];
    (
        prop::collection::vec(cmd(), 0..24),
        prop::collection::vec(cmd(), 0..6),
        prop::bool::weighted(0.9),
        prop::bool::weighted(0.9),
        size,
        target_base(),
    )
        .prop_map(
            |(main, target, finalize, target_finalize, size, target_base)| FuzzList {
                main,
                target,
                finalize,
                target_finalize,
                size,
                target_base,
            },
        )
}

/// The abstract model's prediction for a command stream: the writes in order and how the list
/// ends. It knows nothing of cycles, FIFOs or side effects beyond CMDBUF jumps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abstract {
    /// `(id, mask, param)` of every write.
    pub writes: Vec<(u32, u8, u32)>,
    /// `finished`, `hang` (with the model's reason kind) or `limit`.
    pub end: String,
}

/// Parses the submitted buffer as seed 002 describes, following CMDBUF jumps, without the
/// cycle-stepped machinery. At most `max_writes` writes are produced (then `end` = `limit`).
pub fn abstract_run(mem: &Memory, addr: u32, size: u32, max_writes: usize) -> Abstract {
    let mut regs = vec![0u32; 0x300];
    let mut writes = Vec::new();
    let (mut next, mut end) = (u64::from(addr), u64::from(addr) + u64::from(size & !0xF));
    let fetch = |a: u64| -> Result<u32, String> {
        u32::try_from(a)
            .ok()
            .and_then(|a| mem.read_u32(a).ok())
            .ok_or_else(|| "hang:fetch_unmapped".to_string())
    };
    let out = |writes, end: &str| Abstract {
        writes,
        end: end.into(),
    };
    loop {
        // Param0.
        if next >= end {
            return out(writes, "hang:missing_finalize");
        }
        let p0 = match fetch(next) {
            Ok(w) => w,
            Err(e) => return out(writes, &e),
        };
        if next + 4 >= end {
            return out(writes, "hang:command_past_end");
        }
        let h = match fetch(next + 4) {
            Ok(w) => CommandHeader::decode(w),
            Err(e) => return out(writes, &e),
        };
        next += 8;
        let mut redirect = None;
        for n in 0..=u32::from(h.extra) {
            let p = if n == 0 {
                p0
            } else {
                if next >= end {
                    return out(writes, "hang:command_past_end");
                }
                let w = match fetch(next) {
                    Ok(w) => w,
                    Err(e) => return out(writes, &e),
                };
                next += 4;
                w
            };
            let reg = h.id_of_param(n);
            writes.push((reg, h.mask, p));
            if writes.len() >= max_writes {
                return out(writes, "limit");
            }
            if let Some(r) = regs.get_mut(reg as usize) {
                *r = merge_masked(*r, p, h.mask);
            }
            if reg == u32::from(id::FINALIZE) {
                return out(writes, "finished");
            }
            if reg == u32::from(id::CMDBUF_JUMP0) || reg == u32::from(id::CMDBUF_JUMP1) {
                let ch = (reg - u32::from(id::CMDBUF_JUMP0)) as usize;
                let a = regs[usize::from(id::CMDBUF_ADDR0) + ch] & 0x1FFF_FFFF;
                let s = regs[usize::from(id::CMDBUF_SIZE0) + ch] & 0x1F_FFFF;
                redirect = Some((u64::from(a) << 3, u64::from(s) << 3));
                break;
            }
        }
        if let Some((a, s)) = redirect {
            next = a;
            end = a + (s & !0xF);
            continue;
        }
        if (2 + u32::from(h.extra)) % 2 == 1 {
            // The padding word is fetched like any other.
            if next >= end {
                return out(writes, "hang:missing_finalize");
            }
            if let Err(e) = fetch(next) {
                return out(writes, &e);
            }
            next += 4;
        }
    }
}

/// Checks the model on `case` against invariants and the abstract model. `Err` says which
/// invariant broke.
pub fn check_model(case: &Case) -> Result<(), String> {
    check_model_cov(case, false).0
}

/// [`check_model`], with the run's functional coverage when `cov` ([`pica_model::cov`]).
pub fn check_model_cov(case: &Case, cov: bool) -> (Result<(), String>, Option<Hits>) {
    let (result, hits, _) = check_model_looped(case, cov);
    (result, hits)
}

/// [`check_model_cov`], ending the run where the command stream provably loops
/// ([`loops`]: as at the cycle limit, which it would otherwise run to), and saying so.
fn check_model_looped(
    case: &Case,
    cov: bool,
) -> (Result<(), String>, Option<Hits>, Option<LoopProof>) {
    let mut gpu = match case.gpu() {
        Ok(g) => g,
        Err(e) => return (Err(e.to_string()), None, None),
    };
    gpu.set_coverage(cov);
    let mut detector = LoopDetector::new(case.max_cycles);
    let mut proof = None;
    let outcome = loop {
        // One cycle per call: `run` keeps its rules for the outcome and the limit.
        let o = gpu.run((gpu.cycle() + 1).min(case.max_cycles));
        if !matches!(o, Outcome::CycleLimit { .. }) || gpu.cycle() >= case.max_cycles {
            break o;
        }
        proof = detector.observe(&gpu);
        if proof.is_some() {
            break o;
        }
    };
    let hits = gpu.coverage(Some(&outcome));
    (invariants(case, &gpu, outcome), hits, proof)
}

fn invariants(case: &Case, gpu: &pica_model::Gpu, outcome: Outcome) -> Result<(), String> {
    if let Outcome::Hang {
        reason: HangReason::Internal(s),
        ..
    } = &outcome
    {
        return Err(format!("internal model error: {s}"));
    }
    let beats = gpu.regwrite_beats();
    if let Some(w) = beats.windows(2).find(|w| w[1].cycle <= w[0].cycle) {
        return Err(format!(
            "beat cycles not increasing: {} then {}",
            w[0].cycle, w[1].cycle
        ));
    }
    // The CP reads one word per cycle, so no more writes than cycles can be applied.
    let abs = abstract_run(
        gpu.mem(),
        case.submit_addr,
        case.submit_size,
        beats.len() + 1,
    );
    let got: Vec<(u32, u8, u32)> = beats.iter().map(|b| (b.id, b.mask, b.param)).collect();
    let n = got.len().min(abs.writes.len());
    if let Some(i) = (0..n).find(|&i| got[i] != abs.writes[i]) {
        return Err(format!(
            "write #{i}: model applied {:x?}, the command stream says {:x?}",
            got[i], abs.writes[i]
        ));
    }
    // Values: registers without FIFO-pointer side effects hold exactly the masked merges.
    let index_regs: Vec<u32> = regs::REGISTERS
        .iter()
        .filter(|r| matches!(r.effect, SideEffect::FifoIndex(_)))
        .map(|r| u32::from(r.id))
        .collect();
    let mut shadow = vec![0u32; 0x300];
    for (i, b) in beats.iter().enumerate() {
        let Some(old) = shadow.get(b.id as usize).copied() else {
            if b.value != 0 {
                return Err(format!(
                    "write #{i} to 0x{:x} > 0x2FF has value {:#x}",
                    b.id, b.value
                ));
            }
            continue;
        };
        let v = merge_masked(old, b.param, b.mask);
        shadow[b.id as usize] = v;
        if !index_regs.contains(&b.id) && b.value != v {
            return Err(format!(
                "write #{i} to {}: value {:#010x}, masked merge gives {v:#010x}",
                regs::name(b.id),
                b.value
            ));
        }
    }
    let kind = match &outcome {
        Outcome::Finished { .. } => "finished".to_string(),
        Outcome::Hang { reason, .. } => match reason {
            HangReason::MissingFinalize { .. } => "hang:missing_finalize".into(),
            HangReason::CommandPastEnd { .. } => "hang:command_past_end".into(),
            HangReason::FetchUnmapped { .. } => "hang:fetch_unmapped".into(),
            other => format!("hang:{other:?}"),
        },
        Outcome::CycleLimit { .. } => "limit".into(),
    };
    if kind == "limit" {
        // The abstract parse must not have ended before the model's cycle budget ran out.
        if abs.end != "limit" && got.len() >= abs.writes.len() {
            return Err(format!(
                "model hit the cycle limit; the command stream ends: {}",
                abs.end
            ));
        }
    } else if abs.end != kind || got.len() != abs.writes.len() {
        return Err(format!(
            "model: {kind} after {} writes; the command stream: {} after {} writes",
            got.len(),
            abs.end,
            abs.writes.len()
        ));
    }
    Ok(())
}

/// Fuzzing parameters.
#[derive(Clone, Debug)]
pub struct FuzzOptions {
    /// Cases in the whole campaign (all shards).
    pub cases: u64,
    /// Campaign seed.
    pub seed: u64,
    /// This shard's index and the shard count.
    pub shard: (u64, u64),
    /// Compare against this RTL build in lockstep (model invariants only when `None`).
    pub rtl: Option<Variant>,
    /// Where shrunk failures are written as bundles.
    pub regressions: PathBuf,
    /// Stop after this many failures.
    pub max_failures: usize,
    /// The knobs every case runs with (`--knob`); saved bundles record them.
    pub knobs: pica_model::knobs::Knobs,
}

fn runner_for(seed: u64) -> TestRunner {
    let mut bytes = [0u8; 32];
    for (k, chunk) in bytes.chunks_mut(8).enumerate() {
        chunk.copy_from_slice(&case_seed(seed, k as u64).to_le_bytes());
    }
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
    )
}

/// The case generated from `case_seed` (what `--replay` reproduces).
pub fn generate(case_seed: u64) -> Option<FuzzList> {
    let mut runner = runner_for(case_seed);
    fuzz_list().new_tree(&mut runner).ok().map(|t| t.current())
}

/// Checks one case: `Err(message)` if it fails.
pub fn check(list: &FuzzList, rtl: Option<Variant>) -> Result<(), String> {
    check_with(list, rtl, &pica_model::knobs::Knobs::default())
}

/// [`check`] with the model running with `knobs`.
pub fn check_with(
    list: &FuzzList,
    rtl: Option<Variant>,
    knobs: &pica_model::knobs::Knobs,
) -> Result<(), String> {
    check_held(list, rtl, knobs, None)
}

/// [`check_with`], the lockstep holding REGS on `hold` ([`HoldSchedule`]).
pub fn check_held(
    list: &FuzzList,
    rtl: Option<Variant>,
    knobs: &pica_model::knobs::Knobs,
    hold: Option<HoldSchedule>,
) -> Result<(), String> {
    check_cov(list, rtl, knobs, false, hold).0
}

/// [`check_with`], with the model run's functional coverage when `cov`, the lockstep holding
/// REGS on `hold`.
pub fn check_cov(
    list: &FuzzList,
    rtl: Option<Variant>,
    knobs: &pica_model::knobs::Knobs,
    cov: bool,
    hold: Option<HoldSchedule>,
) -> (Result<(), String>, Option<Hits>) {
    let c = check_full(list, rtl, knobs, cov, hold);
    (c.result, c.hits)
}

/// What [`check_full`] found about one case.
#[derive(Clone, Debug)]
pub struct Checked {
    /// `Err(message)` if the case fails.
    pub result: Result<(), String>,
    /// The model run's functional coverage (when asked for).
    pub hits: Option<Hits>,
    /// The RTL's code-coverage counters of the lockstep run, when `rtl` is a coverage build
    /// ([`Variant::has_coverage`]).
    pub rtl_coverage: Option<Vec<u32>>,
    /// Where the run stopped because the command stream provably loops (the lockstep's proof
    /// with RTL, the model run's without).
    pub loop_proof: Option<LoopProof>,
}

/// [`check_cov`], with the RTL's code-coverage counters of the run when `rtl` is a coverage
/// build (the model invariants failing, the RTL does not run).
pub fn check_full(
    list: &FuzzList,
    rtl: Option<Variant>,
    knobs: &pica_model::knobs::Knobs,
    cov: bool,
    hold: Option<HoldSchedule>,
) -> Checked {
    let mut case = list.to_case("fuzz", None);
    case.knobs = *knobs;
    let (r, hits, model_loop) = check_model_looped(&case, cov);
    let (result, rtl_coverage, rtl_loop) = match r {
        Err(e) => (Err(format!("model invariant: {e}")), None, None),
        Ok(()) => check_rtl(&case, rtl, hold),
    };
    Checked {
        result,
        hits,
        rtl_coverage,
        loop_proof: if rtl.is_some() { rtl_loop } else { model_loop },
    }
}

fn check_rtl(
    case: &Case,
    rtl: Option<Variant>,
    hold: Option<HoldSchedule>,
) -> (Result<(), String>, Option<Vec<u32>>, Option<LoopProof>) {
    let Some(variant) = rtl else {
        return (Ok(()), None, None);
    };
    let opts = Options {
        variant,
        hold,
        stop_on_loop: true,
        ..Options::default()
    };
    match lockstep::lockstep(case, &opts) {
        Err(e) => (Err(format!("lockstep: {e}")), None, None),
        Ok(mut r) => {
            let counts = r.rtl_coverage.take();
            if r.is_equal() {
                return (Ok(()), counts, r.loop_proof);
            }
            let text = lockstep::text_report(&r);
            let mut first = text.lines().next().unwrap_or("mismatch").to_string();
            // A final state compared where the loop was proven, not at the cycle limit: say
            // so, since a replay of the saved bundle runs on to the limit.
            if let (Some(p), Some(lockstep::DivergenceKind::FinalState)) =
                (r.loop_proof, r.divergence.as_ref().map(|d| d.kind))
            {
                first.push_str(&format!(" (compared in cycle {}: {p})", r.cycles));
            }
            (Err(first), counts, r.loop_proof)
        }
    }
}

/// Shrinks a failing case of `case_seed`: the simplest case that still fails, and its message.
pub fn shrink(case_seed: u64, rtl: Option<Variant>) -> Option<(FuzzList, String, usize)> {
    shrink_with(case_seed, rtl, &pica_model::knobs::Knobs::default())
}

/// [`shrink`] with the model running with `knobs` (and the lockstep holding REGS on the
/// case's schedule, [`HoldSchedule::of_case`]).
pub fn shrink_with(
    case_seed: u64,
    rtl: Option<Variant>,
    knobs: &pica_model::knobs::Knobs,
) -> Option<(FuzzList, String, usize)> {
    let hold = HoldSchedule::of_case(case_seed);
    let check = |l: &FuzzList, rtl| check_held(l, rtl, knobs, hold);
    let mut runner = runner_for(case_seed);
    let mut tree = fuzz_list().new_tree(&mut runner).ok()?;
    let original = tree.current();
    let mut msg = check(&original, rtl).err()?;
    let mut best = original.clone();
    let mut steps = 0;
    if tree.simplify() {
        loop {
            steps += 1;
            if steps > MAX_SHRINK_STEPS {
                break;
            }
            let cur = tree.current();
            match check(&cur, rtl) {
                Err(m) => {
                    best = cur;
                    msg = m;
                    if !tree.simplify() {
                        break;
                    }
                }
                Ok(()) => {
                    if !tree.complicate() {
                        break;
                    }
                }
            }
        }
    }
    Some((best, msg, original.commands()))
}

/// Runs a campaign; `progress` is called after each case with (done, total for this shard,
/// failures so far).
pub fn run(opts: &FuzzOptions, progress: impl FnMut(u64, u64, usize)) -> FuzzReport {
    run_cov(opts, None, progress)
}

/// [`run`], adding every case's functional coverage to `cov` when given (a bin's first case
/// is `fuzz 0x<case seed>`: `pica fuzz --replay` reruns it).
pub fn run_cov(
    opts: &FuzzOptions,
    cov: Option<&mut CoverageDb>,
    progress: impl FnMut(u64, u64, usize),
) -> FuzzReport {
    run_rtl_cov(opts, cov, None, progress)
}

/// [`run_cov`], also adding every case's RTL code coverage to `rtl_cov` when given (`opts.rtl`
/// must then be its coverage build; shrinking reruns are not counted).
pub fn run_rtl_cov(
    opts: &FuzzOptions,
    mut cov: Option<&mut CoverageDb>,
    mut rtl_cov: Option<&mut RtlCoverage>,
    mut progress: impl FnMut(u64, u64, usize),
) -> FuzzReport {
    let (index, count) = (opts.shard.0, opts.shard.1.max(1));
    let mine: Vec<u64> = (0..opts.cases).filter(|i| i % count == index).collect();
    let total = mine.len() as u64;
    let mut failures = Vec::new();
    let mut done = 0;
    let mut loops = 0;
    for i in mine {
        let seed = case_seed(opts.seed, i);
        let failed = generate(seed).is_some_and(|l| {
            let c = check_full(
                &l,
                opts.rtl,
                &opts.knobs,
                cov.is_some(),
                HoldSchedule::of_case(seed),
            );
            if let (Some(db), Some(h)) = (cov.as_deref_mut(), c.hits) {
                db.add(&h, &format!("fuzz 0x{seed:016x}"));
            }
            if let (Some(rc), Some(counts)) = (rtl_cov.as_deref_mut(), c.rtl_coverage) {
                rc.add_counts(&counts);
            }
            loops += u64::from(c.loop_proof.is_some());
            c.result.is_err()
        });
        if failed {
            if let Some((list, message, original_commands)) =
                shrink_with(seed, opts.rtl, &opts.knobs)
            {
                let kind = if opts.rtl.is_some() {
                    "lockstep"
                } else {
                    "model"
                };
                let name = format!("fuzz-{kind}-{seed:016x}");
                failures.push(failure(
                    opts,
                    &list,
                    &name,
                    (i, seed),
                    message,
                    original_commands,
                ));
            }
        }
        done += 1;
        progress(done, total, failures.len());
        if failures.len() >= opts.max_failures {
            break;
        }
    }
    FuzzReport {
        seed: opts.seed,
        cases: opts.cases,
        shard: format!("{index}/{count}"),
        against: opts
            .rtl
            .map_or_else(|| "model".to_string(), |v| format!("rtl:{}", v.label())),
        cases_run: done,
        failures,
        loops,
        guided: None,
    }
}

/// A shrunk failure of case `(index, seed)`: `list` saved as the bundle `name` under the
/// regressions directory (run with `opts`' knobs), and its report entry.
pub(crate) fn failure(
    opts: &FuzzOptions,
    list: &FuzzList,
    name: &str,
    (case_index, seed): (u64, u64),
    message: String,
    original_commands: usize,
) -> Failure {
    let dir = opts.regressions.join(name);
    let mut case = list.to_case(&format!("regressions/{name}"), Some(seed));
    case.knobs = opts.knobs;
    let bundle = match case.run_model().map_err(|e| e.to_string()).and_then(|run| {
        write_bundle(&dir, &case, &run, &crate::generator()).map_err(|e| e.to_string())
    }) {
        Ok(_) => dir.display().to_string(),
        Err(e) => format!("(not written: {e})"),
    };
    // A lockstep failure of a held case replays with its schedule.
    let message = match (opts.rtl, HoldSchedule::of_case(seed)) {
        (Some(v), Some(h)) => format!(
            "{message} (REGS held on {h}: pica lockstep --bundle {bundle} --variant {} --hold {h})",
            v.label()
        ),
        _ => message,
    };
    Failure {
        case_index,
        case_seed: format!("0x{seed:016x}"),
        message,
        commands: list.commands(),
        original_commands,
        bundle,
    }
}

/// The unguided campaign of `opts`' shard for its coverage alone (`pica fuzz --guided
/// --versus-unguided`): every case runs, its hits go to `cov` (and its RTL code coverage to
/// `rtl_cov` when given), failures are not shrunk or saved. Returns the cases run.
pub fn run_cov_unsaved(
    opts: &FuzzOptions,
    cov: &mut CoverageDb,
    mut rtl_cov: Option<&mut RtlCoverage>,
) -> u64 {
    let (index, count) = (opts.shard.0, opts.shard.1.max(1));
    let mut n = 0;
    for i in (0..opts.cases).filter(|i| i % count == index) {
        let seed = case_seed(opts.seed, i);
        if let Some(l) = generate(seed) {
            let c = check_full(&l, opts.rtl, &opts.knobs, true, HoldSchedule::of_case(seed));
            if let Some(h) = c.hits {
                cov.add(&h, &format!("fuzz 0x{seed:016x}"));
            }
            if let (Some(rc), Some(counts)) = (rtl_cov.as_deref_mut(), c.rtl_coverage) {
                rc.add_counts(&counts);
            }
        }
        n += 1;
    }
    n
}

/// Writes `list` as a bundle named `name` under `dir` (used by tests and `--replay`).
pub fn save(list: &FuzzList, dir: &Path, name: &str, seed: Option<u64>) -> Result<PathBuf, String> {
    let case = list.to_case(name, seed);
    let run = case.run_model().map_err(|e| e.to_string())?;
    let out = dir.join(name.replace('/', "_"));
    write_bundle(&out, &case, &run, &crate::generator()).map_err(|e| e.to_string())?;
    Ok(out)
}
