//! The attribute-buffer block (GPUREG 0x200-0x226) decoded into where each attribute of a
//! vertex lives, and the conversion of attribute bytes to f24.
//!
//! Sources: seed 002 "Geometry pipeline registers" (GPUREG_ATTRIBBUFFERS_LOC,
//! GPUREG_ATTRIBBUFFERS_FORMAT_LOW/HIGH, GPUREG_ATTRIBBUFFERi_OFFSET/CONFIG1/CONFIG2), seed 004
//! (the 0x200 parameter layout, "type + (size - 1) * 4"), 3dbrew GPU/Pitfalls ("Vertex attribute
//! alignment", "Vertex stride"), 3dbrew GPU/Programming_Guide ("Fixed Vertex Attributes").

use super::VlHang;
use crate::knobs::{VlDuplicateAttribute, VlF32ToF24, VlMismatchHang, VlType2};
use crate::mem::Memory;
use crate::num::F24;
use crate::regfile::RegFile;
use crate::regs::{self, id};
use crate::shader::interp::Vec4;

/// Number of attribute buffers ("loaders") of the 0x200 block (seed 002: buffers 0-11).
pub const NUM_BUFFERS: usize = 12;

/// Attributes the buffers and the fixed-attribute mask can name (seed 002 component values
/// 0-11; GPUREG_ATTRIBBUFFERS_FORMAT_HIGH bits 16-27).
pub const NUM_ARRAY_ATTRIBS: usize = 12;

/// Attributes a vertex can carry: the 4-bit "total vertex attribute count - 1" field of
/// GPUREG_ATTRIBBUFFERS_FORMAT_HIGH allows 16 (the shader units have 16 input registers).
pub const MAX_ATTRIBS: usize = 16;

/// Components a buffer's component list holds (seed 002: components 1-8 in CONFIG1, 9-12 in
/// CONFIG2).
pub const MAX_COMPONENTS: usize = 12;

/// Component-list codes 12-15 are padding of 4, 8, 12, 16 bytes (seed 002
/// GPUREG_ATTRIBBUFFERi_CONFIG1); paddings start at a 4-byte-aligned offset (3dbrew
/// GPU/Pitfalls "Vertex attribute alignment").
pub const PADDING_ALIGN: u32 = 4;

/// The element type of an array attribute (seed 002 GPUREG_ATTRIBBUFFERS_FORMAT_LOW type
/// values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElemType {
    /// Signed 8-bit integer (0).
    Byte,
    /// Unsigned 8-bit integer (1).
    UByte,
    /// Signed 16-bit integer (2). Seed 004 calls it "GL_UNSIGNED_SHORT/GL_SHORT"; every
    /// emulator reads it signed (Azahar vertex_loader.cpp `LoadAttribute<s16>`).
    // UNVERIFIED(hw) [fact: vl-type2-signed]: type 2 is signed — Azahar, Citra; seed 004 names both GL types.
    Short,
    /// IEEE binary32 (3).
    Float,
}

impl ElemType {
    /// From the 2-bit type field (every value is defined).
    pub const fn from_bits(v: u32) -> Self {
        match v & 3 {
            0 => Self::Byte,
            1 => Self::UByte,
            2 => Self::Short,
            _ => Self::Float,
        }
    }

    /// Bytes per element; also the alignment of the attribute within its buffer (3dbrew
    /// GPU/Pitfalls: "Vertex attributes will be aligned to their component element size").
    pub const fn size(self) -> u32 {
        match self {
            Self::Byte | Self::UByte => 1,
            Self::Short => 2,
            Self::Float => 4,
        }
    }
}

/// Format of one array attribute: element type and 1-4 components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttribFormat {
    /// Element type.
    pub ty: ElemType,
    /// Components, 1-4 (seed 004: the size field is the component count - 1).
    pub comps: u32,
}

impl AttribFormat {
    /// From the 4-bit per-attribute field of GPUREG_ATTRIBBUFFERS_FORMAT_LOW/HIGH: bits 0-1
    /// type, bits 2-3 components - 1 (seed 002; seed 004 "type + (size - 1) * 4").
    pub const fn from_nibble(n: u32) -> Self {
        Self {
            ty: ElemType::from_bits(n),
            comps: ((n >> 2) & 3) + 1,
        }
    }

    /// Bytes the attribute occupies in its buffer.
    pub const fn bytes(self) -> u32 {
        self.ty.size() * self.comps
    }
}

/// One entry of a buffer's component list (seed 002 GPUREG_ATTRIBBUFFERi_CONFIG1 values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Component {
    /// Vertex attribute 0-11.
    Attrib(u8),
    /// 4, 8, 12 or 16 bytes of padding (codes 0xC-0xF).
    Padding(u32),
}

impl Component {
    /// From a 4-bit component code (every value is defined).
    pub const fn from_code(c: u32) -> Self {
        let c = c & 0xF;
        if c < NUM_ARRAY_ATTRIBS as u32 {
            Self::Attrib(c as u8)
        } else {
            Self::Padding((c - 11) * 4)
        }
    }
}

/// Where one array attribute lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttribSource {
    /// Buffer 0-11.
    pub buffer: u8,
    /// Byte offset of the attribute within a vertex of that buffer.
    pub offset: u32,
    /// Its format.
    pub format: AttribFormat,
}

/// One attribute buffer as configured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// Physical address of vertex 0: ATTRIBBUFFERS_LOC base + ATTRIBBUFFERi_OFFSET.
    pub addr: u32,
    /// Bytes per vertex (GPUREG_ATTRIBBUFFERi_CONFIG2 bits 16-23).
    pub stride: u32,
    /// The component list, as many entries as CONFIG2 bits 28-31 give (at most 12).
    pub components: Vec<Component>,
    /// Bytes the component list needs, alignment included.
    pub needed: u32,
}

/// Where each attribute of a vertex comes from, decoded from the 0x200 block at the start of
/// a draw (REGS holds every further write until the draw is done).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Physical base address of all arrays (GPUREG_ATTRIBBUFFERS_LOC).
    pub base: u32,
    /// The 12 buffers.
    pub buffers: Vec<Buffer>,
    /// The array bound to each of attributes 0-11, if any.
    pub sources: [Option<AttribSource>; NUM_ARRAY_ATTRIBS],
    /// GPUREG_ATTRIBBUFFERS_FORMAT_HIGH bits 16-27.
    pub fixed_mask: u16,
    /// Attributes per vertex: GPUREG_ATTRIBBUFFERS_FORMAT_HIGH bits 28-31, plus 1.
    pub count: usize,
    /// Knob `vl-type2`: how type-2 elements read.
    pub type2: VlType2,
    /// Knob `vl-f32-to-f24`: how float32 elements round.
    pub f32_to_f24: VlF32ToF24,
    /// Knob `vl-mismatch-hang`: which buffers [`Layout::check_strides`] checks.
    pub mismatch_hang: VlMismatchHang,
}

/// Where a vertex attribute's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// An attribute buffer.
    Array(AttribSource),
    /// The fixed attribute (GPUREG_FIXEDATTRIB_DATA) of the same index.
    Fixed,
    /// Nothing: the value the attribute slot last carried.
    Retained,
}

/// Physical base address of the arrays: GPUREG_ATTRIBBUFFERS_LOC bits 1-28 hold the address
/// >> 4 (seed 002 bits 1-28; seed 004: the word is the address >> 3, 16-byte aligned).
pub fn base_address(loc: u32) -> u32 {
    regs::AttribbuffersLoc(loc).base_addr() << 4
}

/// Aligns `x` up to a multiple of `a` (a power of two), wrapping (offsets stay small).
const fn align_up(x: u32, a: u32) -> u32 {
    x.wrapping_add(a - 1) & !(a - 1)
}

impl Layout {
    /// Decodes the block from the register file. Never fails: stride checks are separate
    /// ([`Layout::check_strides`]).
    pub fn decode(regs: &RegFile) -> Self {
        let r = |id: u16| regs.reg(id.into());
        let base = base_address(r(id::ATTRIBBUFFERS_LOC));
        let low = r(id::ATTRIBBUFFERS_FORMAT_LOW);
        let high = regs::AttribbuffersFormatHigh(r(id::ATTRIBBUFFERS_FORMAT_HIGH));
        let format = |a: usize| {
            let word = if a < 8 { low } else { high.0 };
            AttribFormat::from_nibble(word >> (4 * (a % 8)))
        };
        let mut sources = [None; NUM_ARRAY_ATTRIBS];
        let mut buffers = Vec::with_capacity(NUM_BUFFERS);
        for b in 0..NUM_BUFFERS {
            let reg = id::ATTRIBBUFFER0_OFFSET + 3 * b as u16;
            let offset = regs::AttribbufferOffset(r(reg)).offset();
            let c1 = r(reg + 1);
            let c2 = regs::AttribbufferConfig2(r(reg + 2));
            // UNVERIFIED(hw) [fact: vl-component-count-overflow]: a component count of 13-15 reads only the 12 components the
            // registers hold — Azahar skips the extra ones with an error message.
            let n = (c2.component_count() as usize).min(MAX_COMPONENTS);
            let code = |k: usize| {
                if k < 8 {
                    c1 >> (4 * k)
                } else {
                    c2.0 >> (4 * (k - 8))
                }
            };
            let mut components = Vec::with_capacity(n);
            let mut at = 0u32;
            for k in 0..n {
                let c = Component::from_code(code(k));
                components.push(c);
                match c {
                    Component::Attrib(a) => {
                        let f = format(usize::from(a));
                        at = align_up(at, f.ty.size());
                        // UNVERIFIED(hw) [fact: vl-duplicate-attribute]: an attribute named by more than one component takes
                        // the last one (buffer order, then list order) — Azahar overwrites
                        // the same way; the bytes of every occurrence still count (knob
                        // `vl-duplicate-attribute=first`: the first one).
                        let keep_first =
                            regs.knobs().vl_duplicate_attribute == VlDuplicateAttribute::First;
                        if let Some(s) = sources
                            .get_mut(usize::from(a))
                            .filter(|s| !(keep_first && s.is_some()))
                        {
                            *s = Some(AttribSource {
                                buffer: b as u8,
                                offset: at,
                                format: f,
                            });
                        }
                        at = at.wrapping_add(f.bytes());
                    }
                    Component::Padding(bytes) => {
                        at = align_up(at, PADDING_ALIGN).wrapping_add(bytes);
                    }
                }
            }
            buffers.push(Buffer {
                // UNVERIFIED(hw) [fact: vl-address-wrap]: address arithmetic wraps at 32 bits — model choice (a
                // wrapped address is outside memory and hangs as an unmapped read).
                addr: base.wrapping_add(offset),
                stride: c2.bytes_per_vertex(),
                components,
                needed: at,
            });
        }
        Self {
            base,
            buffers,
            sources,
            fixed_mask: high.fixed_attrib_mask() as u16,
            count: high.attrib_count_minus_1() as usize + 1,
            type2: regs.knobs().vl_type2,
            f32_to_f24: regs.knobs().vl_f32_to_f24,
            mismatch_hang: regs.knobs().vl_mismatch_hang,
        }
    }

    /// A buffer with a non-empty component list whose stride is not exactly the bytes its
    /// components need (alignment included, no padding at the end) hangs the GPU (3dbrew
    /// GPU/Pitfalls "Vertex stride": "must match the actual size of the vertex ... or the PICA
    /// will freeze or it won't draw anything"; seed 004 "the GPU may hang").
    // UNVERIFIED(hw) [fact: vl-mismatch-hang]: every mismatching buffer hangs, whether or not the draw reads its
    // attributes, and the hang happens when the draw starts — model choice (the freeze is
    // documented, its timing is not). Buffers with an empty list are unused (seed 004: unused
    // entries are all zero) and not checked.
    pub fn check_strides(&self) -> Result<(), VlHang> {
        // Knob `vl-mismatch-hang=read`: only buffers feeding an attribute the draw reads.
        let read = |b: usize| {
            self.sources
                .iter()
                .take(self.count)
                .any(|s| s.is_some_and(|s| usize::from(s.buffer) == b))
        };
        for (b, buf) in self.buffers.iter().enumerate() {
            if self.mismatch_hang == VlMismatchHang::Read && !read(b) {
                continue;
            }
            if !buf.components.is_empty() && buf.stride != buf.needed {
                return Err(VlHang::StrideMismatch {
                    buffer: b as u8,
                    stride: buf.stride,
                    needed: buf.needed,
                });
            }
        }
        Ok(())
    }

    /// Where attribute `a` (0-15) of every vertex comes from.
    ///
    /// An array bound to the attribute wins over the fixed-attribute mask bit (3dbrew
    /// GPU/Programming_Guide: "Any configured arrays will override the fixed value, regardless
    /// of the bit setting"; pica-facts §3). Azahar gives the mask precedence instead.
    pub fn source(&self, a: usize) -> Source {
        if let Some(Some(s)) = self.sources.get(a) {
            return Source::Array(*s);
        }
        if a < NUM_ARRAY_ATTRIBS && (self.fixed_mask >> a) & 1 != 0 {
            return Source::Fixed;
        }
        // UNVERIFIED(hw) [fact: vl-attribute-unset]: an attribute with neither an array nor its fixed-mask bit keeps the
        // value it last had — Azahar vertex_loader.cpp comment ("no data gets loaded and the
        // vertex remains with the last value it had"), not measured.
        Source::Retained
    }

    /// Reads attribute `src` of vertex `vertex` and converts it to f24, missing components
    /// defaulting to (x, 0, 0, 1) (pica-facts §3).
    pub fn read(&self, mem: &Memory, src: &AttribSource, vertex: u32) -> Result<Vec4, VlHang> {
        let buf = &self.buffers[usize::from(src.buffer) % NUM_BUFFERS];
        let start = buf
            .addr
            .wrapping_add(buf.stride.wrapping_mul(vertex))
            .wrapping_add(src.offset);
        let mut out = [F24::ZERO, F24::ZERO, F24::ZERO, F24::ONE];
        let size = src.format.ty.size();
        // Fast path: the whole element in one read (at most 4 components of 4 bytes). If any
        // byte is unmapped the byte-by-byte loop below finds the first one for the hang.
        let comps = (src.format.comps as usize).min(4);
        let mut bytes = [0u8; 16];
        if let Some(buf) = bytes.get_mut(..size as usize * comps) {
            if mem.read_into(start, buf).is_ok() {
                for (slot, raw) in out.iter_mut().zip(buf.chunks_exact(size.max(1) as usize)) {
                    let raw = raw
                        .iter()
                        .rev()
                        .fold(0u32, |acc, &b| acc << 8 | u32::from(b));
                    *slot = convert_with(src.format.ty, raw, self.type2, self.f32_to_f24);
                }
                return Ok(out);
            }
        }
        for (c, slot) in out.iter_mut().enumerate().take(src.format.comps as usize) {
            let at = start.wrapping_add(size * c as u32);
            let mut raw = 0u32;
            for i in 0..size {
                let addr = at.wrapping_add(i);
                let byte = mem.read_u8(addr).map_err(|_| VlHang::ReadUnmapped {
                    buffer: Some(src.buffer),
                    addr,
                    index: vertex,
                })?;
                // Little-endian, as everything the 3DS's ARM11 writes.
                raw |= u32::from(byte) << (8 * i);
            }
            *slot = convert_with(src.format.ty, raw, self.type2, self.f32_to_f24);
        }
        Ok(out)
    }
}

/// Converts one element's raw little-endian bits to f24.
///
/// - byte, ubyte, short: the integer value, exactly (every 16-bit integer fits the 17
///   significant bits of f24), see [`f24_from_int`];
/// - float: [`F24::from_f32_bits`], the model's one float32 → f24 rule (mantissa truncated,
///   exponent rebiased, overflow to infinity, gradual underflow, NaN kept).
// UNVERIFIED(hw) [fact: vl-f32-to-f24]: the loader's float32 → f24 rounding is not measured (pica-facts §2); the
// model uses the same truncation as float32-mode uniform uploads.
pub fn convert(ty: ElemType, raw: u32) -> F24 {
    convert_with(ty, raw, VlType2::Signed, VlF32ToF24::Truncate)
}

/// [`convert`] with the loader knobs: `vl-type2=unsigned` reads type 2 as an unsigned 16-bit
/// integer, `vl-f32-to-f24=nearest` rounds float32 to nearest ([`F24::from_f32_bits_nearest`]).
pub fn convert_with(ty: ElemType, raw: u32, type2: VlType2, f32: VlF32ToF24) -> F24 {
    match ty {
        ElemType::Short if type2 == VlType2::Unsigned => f24_from_int(i32::from(raw as u16)),
        ElemType::Float if f32 == VlF32ToF24::Nearest => F24::from_f32_bits_nearest(raw),
        ElemType::Byte => f24_from_int(i32::from(raw as u8 as i8)),
        ElemType::UByte => f24_from_int(i32::from(raw as u8)),
        ElemType::Short => f24_from_int(i32::from(raw as u16 as i16)),
        ElemType::Float => F24::from_f32_bits(raw),
    }
}

/// An integer in [-65536, 65536] as f24, exactly, by integer arithmetic: 0 gives +0;
/// otherwise sign, exponent `floor(log2 |v|) + 63`, and the bits below the leading one as the
/// mantissa. Values outside the range are clamped to it first (the loader never produces
/// them).
pub fn f24_from_int(v: i32) -> F24 {
    let neg = v < 0;
    let m = v.unsigned_abs().min(1 << 16);
    if m == 0 {
        return F24::ZERO;
    }
    let e = 31 - m.leading_zeros(); // 0..=16: m < 2^(e+1)
    let mant = (m << (16 - e)) & 0xFFFF;
    F24::from_parts(neg, e + F24::BIAS, mant)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vl_f24_from_int_is_exact_for_every_i16_and_u8() {
        // Oracle: the host f32 holds every i16 exactly and from_f32_bits keeps 16 mantissa
        // bits, so the f32 path is exact too.
        for v in i32::from(i16::MIN)..=i32::from(u16::MAX) {
            assert_eq!(
                f24_from_int(v),
                F24::from_f32_bits((v as f32).to_bits()),
                "{v}"
            );
        }
        assert_eq!(f24_from_int(1).bits(), 0x3F_0000);
        assert_eq!(f24_from_int(-1).bits(), 0xBF_0000);
        assert_eq!(f24_from_int(3).bits(), 0x40_8000);
        assert_eq!(f24_from_int(-32768).bits(), 0xCE_0000);
        assert_eq!(f24_from_int(0).bits(), 0);
    }

    #[test]
    fn vl_convert_reads_signedness_per_type() {
        assert_eq!(convert(ElemType::Byte, 0xFF), f24_from_int(-1));
        assert_eq!(convert(ElemType::UByte, 0xFF), f24_from_int(255));
        assert_eq!(convert(ElemType::Short, 0x8000), f24_from_int(-32768));
        assert_eq!(convert(ElemType::Float, 0x3F80_0000), F24::ONE);
        // float32 1 + 2^-23: the low mantissa bits are truncated.
        assert_eq!(convert(ElemType::Float, 0x3F80_0001), F24::ONE);
    }

    #[test]
    fn vl_component_codes_map_to_attribs_and_paddings() {
        assert_eq!(Component::from_code(0), Component::Attrib(0));
        assert_eq!(Component::from_code(11), Component::Attrib(11));
        assert_eq!(Component::from_code(0xC), Component::Padding(4));
        assert_eq!(Component::from_code(0xF), Component::Padding(16));
        assert_eq!(
            AttribFormat::from_nibble(0xB),
            AttribFormat {
                ty: ElemType::Float,
                comps: 3
            }
        );
    }

    #[test]
    fn vl_base_address_is_loc_bits_1_28_times_16() {
        assert_eq!(base_address(0x0300_0000), 0x1800_0000);
        assert_eq!(base_address(0x0300_0001), 0x1800_0000, "bit 0 ignored");
        assert_eq!(base_address(0xE300_0002), 0x1800_0010, "bits 29-31 ignored");
    }
}
