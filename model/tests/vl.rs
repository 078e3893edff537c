//! The vertex loader (VL): the attribute-buffer block, the index buffer, fixed attributes,
//! immediate mode, the post-vertex cache and the hangs — unit-level (VL ticked with hand-made
//! links, register file and memory) and end to end through `Gpu` with a pass-through vertex
//! shader.

#![allow(clippy::unwrap_used)]

mod common;
use common::LIST;
use pica_model::beat::RegWriteBeat;
use pica_model::cmdlist::CommandList;
use pica_model::cp::RegWrite;
use pica_model::link::Link;
use pica_model::num::F24;
use pica_model::pipe::{PaCmd, VlCmd};
use pica_model::regfile::packer::pack_f24x3;
use pica_model::regfile::RegFile;
use pica_model::regs::id;
use pica_model::shader::asm::assemble;
use pica_model::shader::interp::Vec4;
use pica_model::shader::shbin::ConstValue;
use pica_model::shader::stage::{ShIn, ShadedItem, VertexIn};
use pica_model::timing;
use pica_model::vl::{VertexLoader, VlHang, VlPorts};
use pica_model::{Gpu, HangReason, Memory, Outcome};
use proptest::prelude::*;

/// Where the tests put the vertex arrays (VRAM).
const BASE: u32 = 0x1800_0000;
/// GPUREG_ATTRIBBUFFERS_LOC for `BASE` (physical address >> 3, seed 004).
const LOC: u32 = BASE >> 3;

const TYPE_BYTE: u32 = 0;
const TYPE_UBYTE: u32 = 1;
const TYPE_SHORT: u32 = 2;
const TYPE_FLOAT: u32 = 3;

/// The 4-bit format of an attribute: type + (components - 1) * 4 (seed 004).
fn fmt(ty: u32, comps: u32) -> u32 {
    ty | (comps - 1) << 2
}

fn f24(bits: u32) -> F24 {
    F24::from_bits(bits)
}

fn v4(bits: [u32; 4]) -> Vec4 {
    bits.map(F24::from_bits)
}

fn bits(v: &Vec4) -> [u32; 4] {
    v.map(F24::bits)
}

/// VL with its own links, register file and memory; consumers that pop whatever is visible.
struct Rig {
    regs: RegFile,
    mem: Memory,
    vl: VertexLoader,
    cmd: Link<VlCmd>,
    vs_in: Link<ShIn>,
    to_pa: Link<PaCmd>,
    cycle: u64,
    beats: Vec<RegWriteBeat>,
    /// Vertices that reached the shader units, with the cycle they were taken.
    shaded: Vec<(u64, VertexIn)>,
    /// The GS markers that reached the shader units, in order.
    markers: Vec<ShIn>,
    /// Messages that reached PA, with the cycle they were taken.
    pa: Vec<(u64, PaCmd)>,
    /// Whether the shader side takes vertices (false: it stalls).
    take_sh: bool,
}

impl Rig {
    fn new() -> Self {
        let mut r = Self {
            regs: RegFile::new(),
            mem: Memory::new(),
            vl: VertexLoader::new(),
            cmd: Link::new("regs_to_vl", timing::REGS_TO_VL_DEPTH),
            vs_in: Link::new("vs_in", timing::SHADER_IN_DEPTH),
            to_pa: Link::new("vl_to_pa", timing::VL_TO_PA_DEPTH),
            cycle: 0,
            beats: Vec::new(),
            shaded: Vec::new(),
            markers: Vec::new(),
            pa: Vec::new(),
            take_sh: true,
        };
        r.set(id::ATTRIBBUFFERS_LOC, LOC);
        r
    }

    /// A register write as REGS applies it.
    fn set(&mut self, reg: u16, value: u32) {
        let w = RegWrite {
            id: reg.into(),
            mask: 0xF,
            param: value,
        };
        self.regs.apply(self.cycle, w, &mut self.beats);
    }

    /// Attribute formats (nibbles, attribute 0 first), fixed-attribute mask, attribute count.
    fn formats(&mut self, fmts: &[u32], fixed_mask: u32, count: u32) {
        let mut low = 0u32;
        let mut high = 0u32;
        for (a, f) in fmts.iter().enumerate() {
            if a < 8 {
                low |= f << (4 * a);
            } else {
                high |= f << (4 * (a - 8));
            }
        }
        high |= (fixed_mask & 0xFFF) << 16 | (count - 1) << 28;
        self.set(id::ATTRIBBUFFERS_FORMAT_LOW, low);
        self.set(id::ATTRIBBUFFERS_FORMAT_HIGH, high);
    }

    /// Buffer `b`: offset from the base, component list (codes 0-15), bytes per vertex.
    fn buffer(&mut self, b: u16, offset: u32, comps: &[u32], stride: u32) {
        let mut c1 = 0u32;
        let mut c2 = 0u32;
        for (k, c) in comps.iter().enumerate() {
            if k < 8 {
                c1 |= c << (4 * k);
            } else {
                c2 |= c << (4 * (k - 8));
            }
        }
        c2 |= (stride & 0xFF) << 16 | (comps.len() as u32) << 28;
        let reg = id::ATTRIBBUFFER0_OFFSET + 3 * b;
        self.set(reg, offset);
        self.set(reg + 1, c1);
        self.set(reg + 2, c2);
    }

    fn fixed(&mut self, a: u32, v: Vec4) {
        self.set(id::FIXEDATTRIB_INDEX, a);
        for (k, w) in pack_f24x3(v).into_iter().enumerate() {
            self.set(id::FIXEDATTRIB_DATA0 + k as u16, w);
        }
    }

    fn bytes(&mut self, offset: u32, data: &[u8]) {
        self.mem.write_bytes(BASE + offset, data).unwrap();
    }

    fn tick(&mut self) -> Result<(), VlHang> {
        self.cmd.begin_cycle();
        self.vs_in.begin_cycle();
        self.to_pa.begin_cycle();
        if self.take_sh {
            while let Some(v) = self.vs_in.pop() {
                match v {
                    ShIn::Vertex(v) => self.shaded.push((self.cycle, v)),
                    m => self.markers.push(m),
                }
            }
        }
        while let Some(p) = self.to_pa.pop() {
            self.pa.push((self.cycle, p));
        }
        let r = self.vl.tick(
            self.cycle,
            VlPorts {
                regs: &self.regs,
                mem: &self.mem,
                cmd: &mut self.cmd,
                vs_in: &mut self.vs_in,
                to_pa: &mut self.to_pa,
            },
        );
        self.cycle += 1;
        r
    }

    /// Hands VL a command (as REGS would) without ticking.
    fn send(&mut self, cmd: VlCmd) {
        self.cmd.begin_cycle();
        self.cmd.push(cmd).unwrap();
    }

    /// Runs one command until VL is idle and its links are drained.
    fn exec(&mut self, cmd: VlCmd) -> Result<(), VlHang> {
        self.send(cmd);
        for _ in 0..100_000 {
            self.tick()?;
            if self.vl.is_idle()
                && self.cmd.is_empty()
                && self.vs_in.is_empty()
                && self.to_pa.is_empty()
            {
                return Ok(());
            }
        }
        panic!("VL did not finish: {}", self.vl.snapshot());
    }

    /// Runs a draw of `n` vertices; returns the shaded vertices' attributes (in order) and
    /// what PA received.
    fn draw(&mut self, indexed: bool, n: u32) -> Result<(Vec<VertexIn>, Vec<PaCmd>), VlHang> {
        self.set(id::NUMVERTICES, n);
        self.shaded.clear();
        self.pa.clear();
        self.exec(if indexed {
            VlCmd::DrawElements
        } else {
            VlCmd::DrawArrays
        })?;
        Ok(self.logs())
    }

    fn logs(&self) -> (Vec<VertexIn>, Vec<PaCmd>) {
        (
            self.shaded.iter().map(|s| s.1.clone()).collect(),
            self.pa.iter().map(|p| p.1).collect(),
        )
    }
}

/// `Begin, Vertex(s) for s in seqs, End`.
fn pa_draw(seqs: &[u32]) -> Vec<PaCmd> {
    let mut v = vec![PaCmd::Begin];
    v.extend(seqs.iter().map(|s| PaCmd::Vertex(*s)));
    v.push(PaCmd::End);
    v
}

/// One attribute (attribute 0, four components of type `ty`) in buffer 0, `n` vertices.
fn one_attrib_rig(ty: u32, data: &[u8]) -> Rig {
    let mut r = Rig::new();
    let size = [1, 1, 2, 4][ty as usize];
    r.formats(&[fmt(ty, 4)], 0, 1);
    r.buffer(0, 0x100, &[0], 4 * size);
    r.bytes(0x100, data);
    r
}

// ---- formats ----

#[test]
fn vl_byte_attribute_converts_exactly() {
    let mut r = one_attrib_rig(TYPE_BYTE, &[0xFF, 2, 0x80, 0x7F]);
    let (sh, _) = r.draw(false, 1).unwrap();
    // -1, 2, -128 = -2^7, 127 = 1.984375 * 2^6.
    assert_eq!(
        bits(&sh[0].attrs[0]),
        [0xBF_0000, 0x40_0000, 0xC6_0000, 0x45_FC00]
    );
}

#[test]
fn vl_ubyte_attribute_converts_exactly() {
    let mut r = one_attrib_rig(TYPE_UBYTE, &[0xFF, 0, 1, 0x80]);
    let (sh, _) = r.draw(false, 1).unwrap();
    // 255 = 1.9921875 * 2^7, +0, 1, 128.
    assert_eq!(bits(&sh[0].attrs[0]), [0x46_FE00, 0, 0x3F_0000, 0x46_0000]);
}

#[test]
fn vl_short_attribute_converts_exactly() {
    // -32768, 32767, 256, -3, little-endian.
    let mut r = one_attrib_rig(
        TYPE_SHORT,
        &[0x00, 0x80, 0xFF, 0x7F, 0x00, 0x01, 0xFD, 0xFF],
    );
    let (sh, _) = r.draw(false, 1).unwrap();
    // 32767 = (2 - 2^-14) * 2^14: mantissa 0xFFFC.
    assert_eq!(
        bits(&sh[0].attrs[0]),
        [0xCE_0000, 0x4D_FFFC, 0x47_0000, 0xC0_8000]
    );
}

#[test]
fn vl_float_attribute_truncates_to_f24() {
    let words: [u32; 4] = [0x3F80_0000, 0xC020_0000, 0x3FFF_FFFF, 0x7149_F2CA];
    let data: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut r = one_attrib_rig(TYPE_FLOAT, &data);
    let (sh, _) = r.draw(false, 1).unwrap();
    // 1.0; -2.5 = -1.25 * 2; 1.99999988 truncated to 16 mantissa bits; 1e30 overflows to +inf.
    assert_eq!(
        bits(&sh[0].attrs[0]),
        [0x3F_0000, 0xC0_4000, 0x3F_FFFF, 0x7F_0000]
    );
}

#[test]
fn vl_missing_components_default_to_x_0_0_1() {
    let mut r = Rig::new();
    r.formats(
        &[fmt(TYPE_UBYTE, 1), fmt(TYPE_UBYTE, 2), fmt(TYPE_UBYTE, 3)],
        0,
        3,
    );
    r.buffer(0, 0, &[0, 1, 2], 6);
    r.bytes(0, &[2, 3, 4, 5, 6, 7]);
    let (sh, _) = r.draw(false, 1).unwrap();
    let (one, two, three) = (0x3F_0000, 0x40_0000, 0x40_8000);
    let got: Vec<[u32; 4]> = sh[0].attrs.iter().map(bits).collect();
    assert_eq!(
        got,
        [
            [two, 0, 0, one],
            [three, 0x41_0000, 0, one],
            [0x41_4000, 0x41_8000, 0x41_C000, one]
        ]
    );
}

// ---- layout: padding, alignment, several buffers ----

#[test]
fn vl_padding_codes_skip_4_8_12_16_bytes_from_4_byte_alignment() {
    let mut r = Rig::new();
    r.formats(
        &[
            fmt(TYPE_UBYTE, 1),
            fmt(TYPE_FLOAT, 1),
            fmt(TYPE_SHORT, 1),
            fmt(TYPE_UBYTE, 1),
        ],
        0,
        4,
    );
    // a0 @0 (1 byte); pad4 aligns 1 -> 4, ends at 8; a1 @8 (4); pad8 12..20; a2 @20 (2);
    // pad12 aligns 22 -> 24, ends at 36; a3 @36 (1); pad16 aligns 37 -> 40, ends at 56.
    r.buffer(0, 0, &[0, 0xC, 1, 0xD, 2, 0xE, 3, 0xF], 56);
    let mut v = vec![0xEEu8; 2 * 56];
    for base in [0usize, 56] {
        let k = (base / 56) as u8;
        v[base] = 10 + k;
        v[base + 8..base + 12].copy_from_slice(&(20.0f32 + f32::from(k)).to_bits().to_le_bytes());
        v[base + 20..base + 22].copy_from_slice(&(-30i16 - i16::from(k)).to_le_bytes());
        v[base + 36] = 40 + k;
    }
    r.bytes(0, &v);
    let (sh, _) = r.draw(false, 2).unwrap();
    let x = |s: &VertexIn| -> Vec<f64> { s.attrs.iter().map(|a| a[0].to_f64()).collect() };
    assert_eq!(x(&sh[0]), [10.0, 20.0, -30.0, 40.0]);
    assert_eq!(x(&sh[1]), [11.0, 21.0, -31.0, 41.0]);
}

#[test]
fn vl_attributes_align_to_their_element_size() {
    let mut r = Rig::new();
    // ubyte x3 @0..3, short x1 aligned to 4, float x1 aligned from 6 to 8: stride 12.
    r.formats(
        &[fmt(TYPE_UBYTE, 3), fmt(TYPE_SHORT, 1), fmt(TYPE_FLOAT, 1)],
        0,
        3,
    );
    r.buffer(0, 0, &[0, 1, 2], 12);
    let mut v = vec![0x55u8; 12];
    v[..3].copy_from_slice(&[1, 2, 3]);
    v[4..6].copy_from_slice(&7i16.to_le_bytes());
    v[8..12].copy_from_slice(&0x3F80_0000u32.to_le_bytes());
    r.bytes(0, &v);
    let (sh, _) = r.draw(false, 1).unwrap();
    let x: Vec<u32> = sh[0].attrs.iter().map(|a| a[0].bits()).collect();
    assert_eq!(x, [0x3F_0000, 0x41_C000, 0x3F_0000]);
}

#[test]
fn vl_buffers_interleave_attributes_in_loader_order() {
    let mut r = Rig::new();
    // Buffer 3 holds attribute 2 then attribute 0; buffer 7 holds attribute 1. The vertex
    // carries them in attribute order (the permutation is the shader stage's job).
    r.formats(&[fmt(TYPE_UBYTE, 1); 3], 0, 3);
    r.buffer(3, 0x40, &[2, 0], 2);
    r.buffer(7, 0x80, &[1], 1);
    r.bytes(0x40, &[12, 10, 22, 20]);
    r.bytes(0x80, &[11, 21]);
    let (sh, _) = r.draw(false, 2).unwrap();
    let x = |s: &VertexIn| -> Vec<f64> { s.attrs.iter().map(|a| a[0].to_f64()).collect() };
    assert_eq!(x(&sh[0]), [10.0, 11.0, 12.0]);
    assert_eq!(x(&sh[1]), [20.0, 21.0, 22.0]);
}

// ---- fixed attributes ----

#[test]
fn vl_array_overrides_fixed_attribute_and_fixed_fills_the_rest() {
    let mut r = Rig::new();
    let fixed0 = v4([0x40_0000; 4]);
    let fixed1 = v4([0x3F_0000, 0x40_0000, 0x40_8000, 0x41_0000]);
    r.fixed(0, fixed0);
    r.fixed(1, fixed1);
    // Both attributes flagged fixed, but attribute 0 also has an array: the array wins
    // (3dbrew GPU/Programming_Guide; pica-facts §3).
    r.formats(&[fmt(TYPE_UBYTE, 1), fmt(TYPE_UBYTE, 1)], 0b11, 2);
    r.buffer(0, 0, &[0], 1);
    r.bytes(0, &[5]);
    let (sh, _) = r.draw(false, 1).unwrap();
    assert_eq!(bits(&sh[0].attrs[0]), [0x41_4000, 0, 0, 0x3F_0000]);
    assert_eq!(sh[0].attrs[1], fixed1);
}

#[test]
fn vl_attribute_without_source_keeps_its_last_value() {
    let mut r = Rig::new();
    r.formats(&[fmt(TYPE_UBYTE, 1), fmt(TYPE_UBYTE, 1)], 0, 2);
    r.buffer(0, 0, &[0], 1);
    r.bytes(0, &[5]);
    // Power-on: zero.
    let (sh, _) = r.draw(false, 1).unwrap();
    assert_eq!(bits(&sh[0].attrs[1]), [0; 4]);
    // An immediate vertex sets the slot; the next draw's attribute 1 has no source.
    let imm = vec![v4([1, 2, 3, 4]), v4([0x3F_0000; 4])];
    r.exec(VlCmd::Immediate {
        attrs: imm,
        batch_start: true,
    })
    .unwrap();
    let (sh, _) = r.draw(false, 1).unwrap();
    assert_eq!(bits(&sh[0].attrs[1]), [0x3F_0000; 4]);
}

// ---- index buffer, VERTEX_OFFSET ----

/// Attribute 0 = short x1 in buffer 0 holding 100 + vertex index for vertices 0-299; the
/// post-vertex cache off.
fn indexed_rig() -> Rig {
    let mut r = Rig::new();
    r.formats(&[fmt(TYPE_SHORT, 1)], 0, 1);
    r.buffer(0, 0, &[0], 2);
    let data: Vec<u8> = (0..300i16).flat_map(|i| (100 + i).to_le_bytes()).collect();
    r.bytes(0, &data);
    r.set(id::POST_VERTEX_CACHE_NUM, 0);
    r
}

fn xs(sh: &[VertexIn]) -> Vec<f64> {
    sh.iter().map(|s| s.attrs[0][0].to_f64()).collect()
}

#[test]
fn vl_vertex_offset_selects_the_first_vertex_of_draw_arrays() {
    let mut r = indexed_rig();
    r.set(id::VERTEX_OFFSET, 7);
    let (sh, pa) = r.draw(false, 3).unwrap();
    assert_eq!(xs(&sh), [107.0, 108.0, 109.0]);
    assert_eq!(pa, pa_draw(&[0, 1, 2]));
}

#[test]
fn vl_index_buffer_u8_reads_byte_indices() {
    let mut r = indexed_rig();
    r.set(id::VERTEX_OFFSET, 50); // not used by indexed draws
    r.bytes(0x1000, &[3, 0, 255, 1]);
    r.set(id::INDEXBUFFER_CONFIG, 0x1000);
    let (sh, _) = r.draw(true, 4).unwrap();
    assert_eq!(xs(&sh), [103.0, 100.0, 355.0, 101.0]);
}

#[test]
fn vl_index_buffer_u16_reads_little_endian_indices() {
    let mut r = indexed_rig();
    // 0x0102 = 258, 5, 0x0100 = 256; the index buffer at an odd offset.
    r.bytes(0x1001, &[0x02, 0x01, 0x05, 0x00, 0x00, 0x01]);
    r.set(id::INDEXBUFFER_CONFIG, 0x8000_1001);
    let (sh, _) = r.draw(true, 3).unwrap();
    assert_eq!(xs(&sh), [358.0, 105.0, 356.0]);
}

// ---- post-vertex cache ----

#[test]
fn vl_post_vertex_cache_hits_name_the_earlier_shading() {
    let mut r = indexed_rig();
    r.bytes(0x1000, &[0, 1, 2, 2, 1, 3, 0]);
    r.set(id::INDEXBUFFER_CONFIG, 0x1000);
    r.set(id::POST_VERTEX_CACHE_NUM, 4);
    let (sh, pa) = r.draw(true, 7).unwrap();
    // Indices 0, 1, 2, 3 are shaded once each, as seq 0-3.
    assert_eq!(xs(&sh), [100.0, 101.0, 102.0, 103.0]);
    assert_eq!(sh.iter().map(|s| s.seq).collect::<Vec<_>>(), [0, 1, 2, 3]);
    assert_eq!(pa, pa_draw(&[0, 1, 2, 2, 1, 3, 0]));
    assert_eq!(r.vl.stats().cache_hits, 3);
    assert_eq!(r.vl.stats().shaded, 4);
}

#[test]
fn vl_post_vertex_cache_replaces_first_in_first_out() {
    let mut r = indexed_rig();
    r.bytes(0x1000, &[0, 1, 0, 2, 0, 1]);
    r.set(id::INDEXBUFFER_CONFIG, 0x1000);
    r.set(id::POST_VERTEX_CACHE_NUM, 2);
    let (sh, pa) = r.draw(true, 6).unwrap();
    // 0 miss (s0) [0]; 1 miss (s1) [0 1]; 0 hit; 2 miss (s2) evicts 0 [1 2]; 0 miss (s3)
    // evicts 1 [2 0]; 1 miss (s4).
    assert_eq!(xs(&sh), [100.0, 101.0, 102.0, 100.0, 101.0]);
    assert_eq!(pa, pa_draw(&[0, 1, 0, 2, 3, 4]));
}

#[test]
fn vl_post_vertex_cache_lru_knob_refreshes_on_a_hit() {
    let mut r = indexed_rig();
    let mut k = pica_model::knobs::Knobs::default();
    k.set("vl-cache-policy=lru").unwrap();
    r.regs.set_knobs(k);
    r.bytes(0x1000, &[0, 1, 0, 2, 0, 1]);
    r.set(id::INDEXBUFFER_CONFIG, 0x1000);
    r.set(id::POST_VERTEX_CACHE_NUM, 2);
    let (sh, pa) = r.draw(true, 6).unwrap();
    // 0 miss (s0) [0]; 1 miss (s1) [0 1]; 0 hit [1 0]; 2 miss (s2) evicts 1 [0 2]; 0 hit
    // [2 0]; 1 miss (s3) evicts 2 (FIFO: 0 evicted at 2, so 0 and 1 miss again).
    assert_eq!(xs(&sh), [100.0, 101.0, 102.0, 101.0]);
    assert_eq!(pa, pa_draw(&[0, 1, 0, 2, 0, 3]));
}

#[test]
fn vl_post_vertex_cache_off_with_zero_entries_and_for_draw_arrays() {
    let mut r = indexed_rig();
    r.bytes(0x1000, &[4, 4, 4]);
    r.set(id::INDEXBUFFER_CONFIG, 0x1000);
    r.set(id::POST_VERTEX_CACHE_NUM, 0);
    let (sh, pa) = r.draw(true, 3).unwrap();
    assert_eq!(sh.len(), 3);
    assert_eq!(pa, pa_draw(&[0, 1, 2]));
    // DrawArrays never uses the cache, whatever its size.
    r.set(id::POST_VERTEX_CACHE_NUM, 8);
    let (sh, _) = r.draw(false, 3).unwrap();
    assert_eq!(sh.len(), 3);
    assert_eq!(r.vl.stats().cache_hits, 0);
}

#[test]
fn vl_post_vertex_cache_is_off_with_the_geometry_shader() {
    let mut r = indexed_rig();
    r.bytes(0x1000, &[4, 4, 4]);
    r.set(id::INDEXBUFFER_CONFIG, 0x1000);
    r.set(id::POST_VERTEX_CACHE_NUM, 4);
    r.set(id::GEOSTAGE_CONFIG, 2);
    let (sh, _) = r.draw(true, 3).unwrap();
    assert_eq!(sh.len(), 3);
    r.set(id::GEOSTAGE_CONFIG, 0);
    let (sh, _) = r.draw(true, 3).unwrap();
    assert_eq!(sh.len(), 1);
}

#[test]
fn vl_vtx_func_clears_the_cache_and_draws_start_empty() {
    let mut r = indexed_rig();
    r.bytes(0x1000, &[1, 2, 1]);
    r.set(id::INDEXBUFFER_CONFIG, 0x1000);
    r.set(id::POST_VERTEX_CACHE_NUM, 4);
    r.draw(true, 3).unwrap();
    assert_eq!(r.vl.cache().entries().collect::<Vec<_>>(), [(1, 0), (2, 1)]);
    let before = r.logs();
    r.exec(VlCmd::ClearVertexCache).unwrap();
    assert!(r.vl.cache().is_empty());
    // VTX_FUNC sends nothing anywhere.
    assert_eq!(r.logs(), before);
    // A new draw never hits entries of an earlier one: both indices are shaded again.
    r.draw(true, 3).unwrap();
    let (sh, pa) = r.logs();
    assert_eq!(sh.len(), 2);
    assert_eq!(pa, pa_draw(&[2, 3, 2]));
}

// ---- immediate mode, restart, the protocol ----

#[test]
fn vl_immediate_vertex_sends_only_its_vertex_and_continues_the_seq() {
    let mut r = indexed_rig();
    r.draw(false, 2).unwrap();
    r.shaded.clear();
    r.pa.clear();
    let attrs = vec![v4([1, 2, 3, 4]), v4([5, 6, 7, 8]), v4([9, 10, 11, 12])];
    r.exec(VlCmd::Immediate {
        attrs: attrs.clone(),
        batch_start: true,
    })
    .unwrap();
    let (sh, pa) = r.logs();
    assert_eq!(sh, [VertexIn { seq: 2, attrs }]);
    assert_eq!(pa, [PaCmd::Vertex(2)]);
}

#[test]
fn vl_restart_primitive_sends_restart() {
    let mut r = Rig::new();
    r.exec(VlCmd::RestartPrimitive).unwrap();
    assert_eq!(r.logs(), (vec![], vec![PaCmd::Restart]));
}

#[test]
fn vl_draw_of_zero_vertices_sends_begin_and_end() {
    let mut r = indexed_rig();
    let (sh, pa) = r.draw(false, 0).unwrap();
    assert!(sh.is_empty());
    assert_eq!(pa, pa_draw(&[]));
}

#[test]
fn vl_draw_in_start_draw_func0_configuration_mode_runs_as_in_drawing_mode() {
    // UNVERIFIED(hw) choice (vl::DRAW_IN_CONFIGURATION_MODE); the driver brackets every draw
    // with START_DRAW_FUNC0 = 0 / 1, and GEOSTAGE_CONFIG2 bit 0 does not matter to VL either.
    let mut r = indexed_rig();
    r.set(id::START_DRAW_FUNC0, 0);
    let (a, pa_a) = r.draw(false, 2).unwrap();
    r.set(id::START_DRAW_FUNC0, 1);
    r.set(id::GEOSTAGE_CONFIG2, 1);
    let (b, pa_b) = r.draw(false, 2).unwrap();
    assert_eq!(xs(&a), xs(&b));
    assert_eq!((pa_a, pa_b), (pa_draw(&[0, 1]), pa_draw(&[2, 3])));
}

#[test]
fn vl_seq_counts_on_across_draws() {
    let mut r = indexed_rig();
    let (a, _) = r.draw(false, 3).unwrap();
    let (b, pb) = r.draw(false, 2).unwrap();
    assert_eq!(a.iter().map(|s| s.seq).collect::<Vec<_>>(), [0, 1, 2]);
    assert_eq!(b.iter().map(|s| s.seq).collect::<Vec<_>>(), [3, 4]);
    assert_eq!(pb, pa_draw(&[3, 4]));
}

#[test]
fn vl_timing_is_one_pa_message_per_cycle() {
    let mut r = indexed_rig();
    r.set(id::NUMVERTICES, 3);
    r.send(VlCmd::DrawArrays);
    let start = r.cycle;
    // VL takes the command in `start` and sends in the same cycle (latency 0); PA sees each
    // message one cycle after it was sent.
    for _ in 0..20 {
        r.tick().unwrap();
    }
    let cycles: Vec<u64> = r.pa.iter().map(|p| p.0 - start).collect();
    assert_eq!(cycles, [1, 2, 3, 4, 5]);
    let sh_cycles: Vec<u64> = r.shaded.iter().map(|s| s.0 - start).collect();
    assert_eq!(sh_cycles, [2, 3, 4]);
}

#[test]
fn vl_stalls_while_the_shader_link_is_full_and_is_busy_meanwhile() {
    let mut r = indexed_rig();
    r.take_sh = false;
    r.set(id::NUMVERTICES, 10);
    r.send(VlCmd::DrawArrays);
    for _ in 0..50 {
        r.tick().unwrap();
    }
    assert!(!r.vl.is_idle());
    assert_eq!(r.vs_in.len(), timing::SHADER_IN_DEPTH);
    // Begin and the vertices that fit: PA is not told about vertices not yet sent.
    assert_eq!(r.pa.len(), 1 + timing::SHADER_IN_DEPTH);
    r.take_sh = true;
    for _ in 0..50 {
        r.tick().unwrap();
    }
    assert!(r.vl.is_idle());
    let (sh, pa) = r.logs();
    assert_eq!(
        sh.iter().map(|s| s.seq).collect::<Vec<_>>(),
        (0..10).collect::<Vec<_>>()
    );
    assert_eq!(pa, pa_draw(&(0..10).collect::<Vec<_>>()));
}

// ---- hangs ----

#[test]
fn vl_stride_mismatch_hangs_naming_the_buffer() {
    let mut r = Rig::new();
    r.formats(&[fmt(TYPE_FLOAT, 3), fmt(TYPE_UBYTE, 4)], 0, 2);
    r.buffer(0, 0, &[0], 12);
    // Buffer 5: float x3 + ubyte x4 = 16 bytes, declared 20.
    r.buffer(5, 0x100, &[0, 1], 20);
    let e = r.draw(false, 3).unwrap_err();
    assert_eq!(
        e,
        VlHang::StrideMismatch {
            buffer: 5,
            stride: 20,
            needed: 16
        }
    );
    assert!(e.to_string().contains("attribute buffer 5"), "{e}");
    assert!(
        e.to_string().contains("GPUREG_ATTRIBBUFFER5_CONFIG2"),
        "{e}"
    );
    // Nothing was sent, and VL stays stopped.
    assert!(r.pa.is_empty() && r.shaded.is_empty());
    assert!(!r.vl.is_idle());
}

#[test]
fn vl_unmapped_attribute_read_hangs_naming_the_buffer() {
    let mut r = Rig::new();
    r.formats(&[fmt(TYPE_SHORT, 2)], 0, 1);
    // VRAM ends at 0x18600000: vertices 0 and 1 of buffer 9 are its last 8 bytes, vertex 2
    // starts just past the end.
    r.buffer(9, 0x5F_FFF8, &[0], 4);
    let e = r.draw(false, 4).unwrap_err();
    assert_eq!(
        e,
        VlHang::ReadUnmapped {
            buffer: Some(9),
            addr: 0x1860_0000,
            index: 2
        }
    );
    assert!(e.to_string().contains("attribute buffer 9"), "{e}");
    // Vertices 0 and 1 went out before the hang.
    assert_eq!(r.shaded.len(), 2);
}

#[test]
fn vl_unmapped_index_read_hangs_naming_the_index_buffer() {
    let mut r = indexed_rig();
    r.set(id::INDEXBUFFER_CONFIG, 0x8000_0000 | 0x5F_FFFE);
    let e = r.draw(true, 3).unwrap_err();
    assert_eq!(
        e,
        VlHang::ReadUnmapped {
            buffer: None,
            addr: 0x1860_0000,
            index: 1
        }
    );
    assert!(e.to_string().starts_with("index buffer"), "{e}");
}

// ---- properties ----

#[derive(Clone, Copy, Debug)]
enum Comp {
    /// An attribute of this 4-bit format.
    Attr(u32),
    /// Padding code 0xC + n.
    Pad(u32),
}

fn comp() -> impl Strategy<Value = Comp> {
    prop_oneof![
        3 => (0u32..16).prop_map(Comp::Attr),
        1 => (0u32..4).prop_map(Comp::Pad),
    ]
}

/// A buffer layout: components, which attribute each `Attr` is, which buffer, its offset.
fn layout() -> impl Strategy<Value = (Vec<Comp>, Vec<u32>, u16, u32)> {
    (
        prop::collection::vec(comp(), 1..=12),
        Just((0..12u32).collect::<Vec<_>>()).prop_shuffle(),
        0u16..12,
        0u32..64,
    )
}

/// The test's own placement of the components: (attribute, format, byte offset) and the
/// stride, by the rules of 3dbrew GPU/Pitfalls (elements aligned to their size, padding to 4).
fn place(comps: &[Comp], order: &[u32]) -> (Vec<(u32, u32, u32)>, Vec<u32>, u32) {
    let mut at = 0u32;
    let mut placed = Vec::new();
    let mut codes = Vec::new();
    let mut next = order.iter();
    for c in comps {
        match *c {
            Comp::Attr(f) => {
                let a = *next.next().unwrap();
                let size = [1, 1, 2, 4][(f & 3) as usize];
                at = at.div_ceil(size) * size;
                placed.push((a, f, at));
                codes.push(a);
                at += size * ((f >> 2) + 1);
            }
            Comp::Pad(p) => {
                at = at.div_ceil(4) * 4 + 4 * (p + 1);
                codes.push(0xC + p);
            }
        }
    }
    (placed, codes, at)
}

/// Sets up a rig with the layout; returns it with the placement and the stride.
fn layout_rig(
    comps: &[Comp],
    order: &[u32],
    b: u16,
    offset: u32,
    stride_delta: u32,
) -> (Rig, Vec<(u32, u32, u32)>, u32) {
    let (placed, codes, stride) = place(comps, order);
    let mut r = Rig::new();
    let mut fmts = [0u32; 12];
    for (a, f, _) in &placed {
        fmts[*a as usize] = *f;
    }
    r.formats(&fmts, 0, 12);
    r.buffer(b, offset, &codes, (stride + stride_delta) & 0xFF);
    (r, placed, stride)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Every format, size and padding combination reads back the bytes it was given: the
    /// integers exactly, floats bit for bit (values that are f24 values), missing components
    /// (x, 0, 0, 1), attributes not in the buffer untouched (zero).
    #[test]
    fn vl_every_format_size_padding_reads_back_its_bytes(
        (comps, order, b, offset) in layout(),
        first in 0u32..3,
        n in 1u32..4,
        noise in prop::collection::vec(any::<u8>(), 1400),
        floats in prop::collection::vec(0u32..0x100_0000, 7 * 12 * 4),
    ) {
        let (mut r, placed, stride) = layout_rig(&comps, &order, b, offset, 0);
        let mut mem = noise.clone();
        // Float elements hold f32 patterns of f24 values (the only floats that survive the
        // f24 conversion unchanged).
        let mut fl = floats.iter();
        for v in 0..first + n {
            for (_, f, off) in &placed {
                if f & 3 == TYPE_FLOAT {
                    for c in 0..(f >> 2) + 1 {
                        let at = (stride * v + off + 4 * c) as usize;
                        let w = F24::from_bits(*fl.next().unwrap()).to_f32_bits();
                        mem[at..at + 4].copy_from_slice(&w.to_le_bytes());
                    }
                }
            }
        }
        r.bytes(offset, &mem);
        r.set(id::VERTEX_OFFSET, first);
        let (sh, pa) = r.draw(false, n).unwrap();
        prop_assert_eq!(sh.len() as u32, n);
        prop_assert_eq!(pa.len() as u32, n + 2);
        for (k, s) in sh.iter().enumerate() {
            let v = first + k as u32;
            prop_assert_eq!(s.attrs.len(), 12);
            for (a, f, off) in &placed {
                let got = s.attrs[*a as usize];
                let comps = (f >> 2) + 1;
                let size = [1u32, 1, 2, 4][(f & 3) as usize];
                for c in 0..4u32 {
                    let g = got[c as usize];
                    if c >= comps {
                        let want = if c == 3 { F24::ONE } else { F24::ZERO };
                        prop_assert_eq!(g, want, "default component {} of attribute {}", c, a);
                        continue;
                    }
                    let at = (stride * v + off + size * c) as usize;
                    let raw = &mem[at..at + size as usize];
                    match f & 3 {
                        TYPE_FLOAT => prop_assert_eq!(
                            g.to_f32_bits(),
                            u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]])
                        ),
                        ty => {
                            let want = match ty {
                                TYPE_BYTE => f64::from(raw[0] as i8),
                                TYPE_UBYTE => f64::from(raw[0]),
                                _ => f64::from(i16::from_le_bytes([raw[0], raw[1]])),
                            };
                            prop_assert_eq!(g.to_f64(), want);
                            prop_assert!(!g.is_sign_negative() || want < 0.0, "{:?}", g);
                        }
                    }
                }
            }
            for a in 0..12u32 {
                if !placed.iter().any(|p| p.0 == a) {
                    prop_assert_eq!(s.attrs[a as usize], [F24::ZERO; 4]);
                }
            }
        }
    }

    /// Any stride other than the bytes the components need hangs, naming the buffer.
    #[test]
    fn vl_any_other_stride_hangs_naming_the_buffer(
        (comps, order, b, offset) in layout(),
        delta in 1u32..256,
    ) {
        let (mut r, _, stride) = layout_rig(&comps, &order, b, offset, delta);
        let e = r.draw(false, 1).unwrap_err();
        prop_assert_eq!(e, VlHang::StrideMismatch {
            buffer: b as u8,
            stride: (stride + delta) & 0xFF,
            needed: stride,
        });
    }

    /// No register value and no command panics VL; a draw ends, hangs or is still running.
    #[test]
    fn vl_random_registers_never_panic(
        block in prop::collection::vec(any::<u32>(), 0x2E),
        cache in any::<u32>(),
        geo in any::<u32>(),
        cmds in prop::collection::vec(0u8..5, 1..4),
        data in prop::collection::vec(any::<u8>(), 64),
    ) {
        let mut r = Rig::new();
        for (k, v) in block.iter().enumerate() {
            // 0x200-0x22D, skipping the trigger registers 0x22E/0x22F (REGS's business).
            r.set(0x200 + k as u16, *v);
        }
        r.set(id::POST_VERTEX_CACHE_NUM, cache);
        r.set(id::GEOSTAGE_CONFIG, geo);
        r.mem.write_bytes(BASE, &data).unwrap();
        for c in cmds {
            let cmd = match c {
                0 => VlCmd::DrawArrays,
                1 => VlCmd::DrawElements,
                2 => VlCmd::Immediate {
                    attrs: vec![[F24::ONE; 4]; usize::from(data[0] % 17)],
                    batch_start: data[0] & 0x80 != 0,
                },
                3 => VlCmd::ClearVertexCache,
                _ => VlCmd::RestartPrimitive,
            };
            if !r.vl.is_idle() {
                break;
            }
            r.send(cmd);
            for _ in 0..64 {
                if r.tick().is_err() {
                    break;
                }
            }
        }
    }
}

// ---- end to end through the GPU ----

/// A pass-through vertex shader: position 0 (every triangle degenerate and clipped, so
/// nothing reaches the framebuffer), colour = v0, texcoord0 = v1.
const PASS_THROUGH: &str = "
.constf zero(0.0, 0.0, 0.0, 0.0)
.out outpos position
.out outclr color
.out outtc texcoord0
.proc main
    mov outpos, zero
    mov outclr, v0
    mov outtc, v1
    end
.end
";

/// Uploads the pass-through shader (two inputs, attribute n -> v_n) and the array setup
/// shared by the end-to-end tests: attribute 0 = ubyte x4 and attribute 1 = short x2 in
/// buffer 0 (stride 8), vertex v holding (v, v+1, v+2, v+3) and (-v, 1000 + v).
fn e2e_setup() -> (CommandList, Vec<u8>) {
    let shbin = assemble(PASS_THROUGH, "pass.v.pica").unwrap();
    let d = &shbin.dvles[0];
    let mut l = CommandList::new();
    l.write(id::VSH_CODETRANSFER_INDEX, 0);
    l.write_repeat(id::VSH_CODETRANSFER_DATA0, &shbin.code);
    l.write(id::VSH_CODETRANSFER_END, 1);
    l.write(id::VSH_OPDESCS_INDEX, 0);
    l.write_repeat(id::VSH_OPDESCS_DATA0, &shbin.opdescs);
    for c in &d.constants {
        if let ConstValue::Float(v) = c.value {
            l.write(id::VSH_FLOATUNIFORM_INDEX, u32::from(c.reg));
            l.write_seq(id::VSH_FLOATUNIFORM_DATA0, &pack_f24x3(v));
        }
    }
    l.write(id::VSH_ENTRYPOINT, 0x7FFF_0000 | d.entry);
    l.write(id::VSH_OUTMAP_MASK, u32::from(d.output_mask));
    l.write(id::VSH_INPUTBUFFER_CONFIG, 0xA000_0001);
    l.write(id::VSH_NUM_ATTR, 1);
    l.write(id::VSH_ATTRIBUTES_PERMUTATION_LOW, 0x10);
    // Unit 3 runs the vertex shader too (no GS); the VSH writes above reach it (fact
    // regs-unit3-config), the GSH copies keep it right under knob regs-unit3-config=seed.
    l.write(id::GSH_ENTRYPOINT, 0x7FFF_0000 | d.entry);
    l.write(id::GSH_INPUTBUFFER_CONFIG, 0xA000_0001);
    l.write(id::GSH_ATTRIBUTES_PERMUTATION_LOW, 0x10);
    // Framebuffers in VRAM, in case a later stage writes.
    l.write(id::COLORBUFFER_LOC, 0x1810_0000 >> 3);
    l.write(id::DEPTHBUFFER_LOC, 0x1820_0000 >> 3);
    l.write(id::ATTRIBBUFFERS_LOC, LOC);
    l.write(
        id::ATTRIBBUFFERS_FORMAT_LOW,
        fmt(TYPE_UBYTE, 4) | fmt(TYPE_SHORT, 2) << 4,
    );
    l.write(id::ATTRIBBUFFERS_FORMAT_HIGH, 1 << 28);
    l.write(id::ATTRIBBUFFER0_OFFSET, 0);
    l.write(id::ATTRIBBUFFER0_CONFIG1, 0x10);
    l.write(id::ATTRIBBUFFER0_CONFIG2, 2 << 28 | 8 << 16);
    let data: Vec<u8> = (0..16u8)
        .flat_map(|v| {
            let mut b = vec![v, v + 1, v + 2, v + 3];
            b.extend((-i16::from(v)).to_le_bytes());
            b.extend((1000 + i16::from(v)).to_le_bytes());
            b
        })
        .collect();
    (l, data)
}

/// Appends a draw as a driver does (3dbrew GPU/Programming_Guide "Drawing elements").
fn e2e_draw(l: &mut CommandList, indexed: bool, n: u32) {
    l.write(id::NUMVERTICES, n);
    l.write(id::START_DRAW_FUNC0, 0);
    l.write(
        if indexed {
            id::DRAWELEMENTS
        } else {
            id::DRAWARRAYS
        },
        1,
    );
    l.write(id::START_DRAW_FUNC0, 1);
    l.write(id::VTX_FUNC, 1);
}

fn e2e_run(mut l: CommandList, data: &[u8], extra: &[(u32, &[u8])]) -> (Gpu, Outcome) {
    l.finalize();
    let mut mem = Memory::new();
    mem.write_words(LIST, l.words()).unwrap();
    mem.write_bytes(BASE, data).unwrap();
    for (a, d) in extra {
        mem.write_bytes(*a, d).unwrap();
    }
    let mut gpu = Gpu::new(mem);
    gpu.set_keep_shaded(true);
    gpu.submit(LIST, l.byte_len()).unwrap();
    let o = gpu.run(100_000);
    (gpu, o)
}

fn f(x: i32) -> u32 {
    F24::from_f32_bits((x as f32).to_bits()).bits()
}

/// (seq, v0 bits, v1 bits) of every vertex loaded into the shader units.
fn shader_inputs(gpu: &Gpu) -> Vec<(u32, [u32; 4], [u32; 4])> {
    let (bin, _) = gpu.shader_beats();
    let mut seqs: Vec<u32> = bin.iter().map(|b| b.seq).collect();
    seqs.dedup();
    seqs.iter()
        .map(|s| {
            let reg = |r: u8| {
                bin.iter()
                    .find(|b| b.seq == *s && b.reg == r)
                    .map(|b| b.xyzw)
                    .unwrap()
            };
            (*s, reg(0), reg(1))
        })
        .collect()
}

fn want_input(seq: u32, v: i32) -> (u32, [u32; 4], [u32; 4]) {
    (
        seq,
        [f(v), f(v + 1), f(v + 2), f(v + 3)],
        [f(-v), f(1000 + v), 0, 0x3F_0000],
    )
}

#[test]
fn vl_gpu_draw_arrays_loads_shader_inputs() {
    let (mut l, data) = e2e_setup();
    l.write(id::VERTEX_OFFSET, 2);
    e2e_draw(&mut l, false, 6);
    let (gpu, o) = e2e_run(l, &data, &[]);
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    let want: Vec<_> = (0..6).map(|k| want_input(k, 2 + k as i32)).collect();
    assert_eq!(shader_inputs(&gpu), want);
    // VL sends one vertex per cycle: the draw spreads over several units.
    let units: std::collections::BTreeSet<u8> =
        gpu.shader_beats().0.iter().map(|b| b.unit).collect();
    assert!(units.len() > 1, "{units:?}");
    // The pass-through shader hands v0 on as o1 (colour) in seq order.
    let o1: Vec<[u32; 4]> = gpu
        .shaded()
        .iter()
        .map(|s| match s {
            ShadedItem::Vertex { outputs, .. } => bits(&outputs[1].1),
            ShadedItem::GsVertex { .. } => panic!("no GS"),
        })
        .collect();
    assert_eq!(o1, want.iter().map(|w| w.1).collect::<Vec<_>>());
}

#[test]
fn vl_gpu_draw_elements_shades_cache_hits_once() {
    let (mut l, data) = e2e_setup();
    l.write(id::INDEXBUFFER_CONFIG, 0x8000_0400);
    l.write(id::POST_VERTEX_CACHE_NUM, 4);
    e2e_draw(&mut l, true, 6);
    // Two triangles of a quad: 0 1 2, 2 1 3.
    let idx: Vec<u8> = [0u16, 1, 2, 2, 1, 3]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    let (gpu, o) = e2e_run(l, &data, &[(BASE + 0x400, &idx)]);
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    // Four vertices shaded, not six: two shader_in beats each.
    let want: Vec<_> = (0..4).map(|k| want_input(k, k as i32)).collect();
    assert_eq!(shader_inputs(&gpu), want);
    assert_eq!(gpu.shader_beats().0.len(), 8);
    assert_eq!(gpu.vl().stats().cache_hits, 2);
}

#[test]
fn vl_gpu_immediate_vertex_reaches_the_shader_inputs() {
    let (mut l, data) = e2e_setup();
    l.write(id::FIXEDATTRIB_INDEX, 0xF);
    for a in [[1, 2, 3, 4], [5, 6, 7, 8]] {
        l.write_seq(id::FIXEDATTRIB_DATA0, &pack_f24x3(a.map(|x| f24(f(x)))));
    }
    let (gpu, o) = e2e_run(l, &data, &[]);
    assert!(matches!(o, Outcome::Finished { .. }), "{o}");
    assert_eq!(
        shader_inputs(&gpu),
        [(0, [1, 2, 3, 4].map(f), [5, 6, 7, 8].map(f))]
    );
}

#[test]
fn vl_gpu_stride_mismatch_is_a_hang_naming_the_buffer() {
    let (mut l, data) = e2e_setup();
    l.write(id::ATTRIBBUFFER0_CONFIG2, 2 << 28 | 9 << 16);
    e2e_draw(&mut l, false, 3);
    let (gpu, o) = e2e_run(l, &data, &[]);
    match &o {
        Outcome::Hang {
            reason:
                HangReason::VertexLoader(VlHang::StrideMismatch {
                    buffer: 0,
                    stride: 9,
                    needed: 8,
                }),
            ..
        } => {}
        o => panic!("{o}"),
    }
    assert!(o.to_string().contains("attribute buffer 0"), "{o}");
    assert!(gpu.shader_beats().0.is_empty());
}
