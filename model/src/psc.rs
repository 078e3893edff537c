//! PSC: the GPU's memory fill units ("PSC0" / "PSC1", 3dbrew GPU/External_Registers "Memory
//! Fill"; GSP's GX SetMemoryFill).
//!
//! A fill writes one value over `[start, end)` of physical memory, like `memset` with a 16-,
//! 24- or 32-bit pattern. citro3d's `C3D_RenderTargetClear` / `C3D_FrameBufClear` queue one per
//! colour and depth buffer before a frame's command lists, so the pixels a frame does not draw
//! hold the clear value. The registers (3dbrew):
//!
//! | offset | |
//! |---|---|
//! | 0x0 | buffer start physical address >> 3 |
//! | 0x4 | buffer end physical address >> 3 |
//! | 0x8 | fill value |
//! | 0xC | control: bit 0 start/busy, bit 1 finished, bits 8-9 width (0 = 16 bit, 1 or 3 = 24 bit, 2 = 32 bit) |
//!
//! So both addresses are 8-byte aligned. The model performs a fill as one step of a case
//! (`pica_vectors::case::Step::Fill`) between command lists, on the memory the GPU reads
//! ([`crate::Gpu::memory_fill`]); the P3D pipeline's cycle counter does not advance.

use crate::mem::{Memory, Unmapped};

/// The fill width (control bits 8-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FillWidth {
    /// 16-bit values (control width 0): the low half-word of the value, repeated.
    W16,
    /// 24-bit values (control width 1 or 3).
    W24,
    /// 32-bit values (control width 2).
    W32,
}

impl FillWidth {
    /// The width of `bits` bits (16, 24 or 32).
    pub const fn from_bits(bits: u32) -> Option<Self> {
        match bits {
            16 => Some(Self::W16),
            24 => Some(Self::W24),
            32 => Some(Self::W32),
            _ => None,
        }
    }

    /// The width the control register selects (bits 8-9: 0 = 16 bit, 1 or 3 = 24 bit, 2 = 32
    /// bit; 3dbrew GPU/External_Registers "Memory Fill").
    pub const fn from_control(control: u32) -> Self {
        match (control >> 8) & 3 {
            0 => Self::W16,
            2 => Self::W32,
            _ => Self::W24,
        }
    }

    /// Bits per value.
    pub const fn bits(self) -> u32 {
        match self {
            Self::W16 => 16,
            Self::W24 => 24,
            Self::W32 => 32,
        }
    }

    /// Bytes per value (the pattern's period).
    pub const fn bytes(self) -> u32 {
        self.bits() / 8
    }
}

/// One memory fill: `value` as `width`-bit values over `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemoryFill {
    /// First byte (8-aligned: the register holds it >> 3).
    pub start: u32,
    /// One past the last byte (8-aligned).
    pub end: u32,
    /// The fill value (only the low `width` bits are used).
    pub value: u32,
    /// Width of the values.
    pub width: FillWidth,
}

/// A fill that cannot run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FillError {
    /// The start or end is not 8-byte aligned (the registers hold the addresses >> 3).
    #[error("memory fill {which} address 0x{addr:08x} is not 8-byte aligned (the PSC registers hold addresses >> 3)")]
    Unaligned {
        /// `start` or `end`.
        which: &'static str,
        /// The address.
        addr: u32,
    },
    /// `end` is not above `start`.
    #[error("memory fill range 0x{start:08x}..0x{end:08x} is empty or reversed (end must be above start)")]
    Empty {
        /// Start.
        start: u32,
        /// End.
        end: u32,
    },
    /// The range does not lie in one mapped region.
    #[error("memory fill: {0}")]
    Unmapped(#[from] Unmapped),
    /// The GPU is still running a command list (fills run between lists).
    #[error("memory fill while a command list is running: fills run between submissions, after the previous list finished")]
    Busy,
}

impl MemoryFill {
    /// Checks the fill: both addresses 8-aligned, `start < end`, the range in one mapped
    /// region.
    pub fn check(&self) -> Result<(), FillError> {
        for (which, addr) in [("start", self.start), ("end", self.end)] {
            if addr % 8 != 0 {
                return Err(FillError::Unaligned { which, addr });
            }
        }
        if self.end <= self.start {
            return Err(FillError::Empty {
                start: self.start,
                end: self.end,
            });
        }
        let len = self.end - self.start;
        Memory::region_of(self.start, len)
            .map(|_| ())
            .ok_or(Unmapped {
                addr: self.start,
                len,
            })
            .map_err(FillError::from)
    }

    /// The byte the fill writes at `offset` bytes from `start`.
    ///
    /// 16 and 32 bit: the value's low 2 or 4 bytes, little-endian, as a 16- or 32-bit store
    /// would leave them (3dbrew: "fill value"; the RGBA8 clear colour citro3d passes,
    /// `0xRRGGBBAA`, then lies in memory as a, b, g, r — the colour buffer's RGBA8 layout).
    ///
    /// UNVERIFIED(hw) [fact: psc-fill-24bit-order]: 24 bit: the value's low three bytes in
    /// little-endian order (bits 0-7 first), repeated every 3 bytes from `start` — Azahar
    /// (`MemoryFillConfig::value_24bit_r/g/b` = bits 0-7 / 8-15 / 16-23, written in that order,
    /// with a "TODO: Verify component order"); 3dbrew gives only the width encoding.
    pub const fn byte_at(&self, offset: u32) -> u8 {
        let n = self.width.bytes();
        (self.value >> (8 * (offset % n))) as u8
    }

    /// Performs the fill on `mem`.
    ///
    /// UNVERIFIED(hw) [fact: psc-fill-24bit-end]: a 24-bit fill whose range is not a whole
    /// number of 3-byte values (`end - start` is a multiple of 8, so it never is unless it is a
    /// multiple of 24) writes the last value's first bytes only and stops at `end`. Azahar's
    /// loop (`for (ptr = start; ptr < end; ptr += 3)` writing 3 bytes) would write up to 2
    /// bytes past `end`, which reads as an emulator artefact, not a documented behaviour; the
    /// drivers' buffers (width × height × 3 bytes, width and height multiples of 8) are whole
    /// multiples of 24 bytes, so real frames do not show the difference.
    pub fn apply(&self, mem: &mut Memory) -> Result<(), FillError> {
        self.check()?;
        // In chunks, so a fill of all of FCRAM does not allocate 128 MiB at once; every chunk
        // but the last is a whole number of periods (4096 = 2^12 is not a multiple of 3, so
        // the offset is carried).
        const CHUNK: u32 = 4096 * 3;
        let mut off = 0u32;
        let len = self.end - self.start;
        let mut buf = Vec::with_capacity(CHUNK.min(len) as usize);
        while off < len {
            let n = CHUNK.min(len - off);
            buf.clear();
            buf.extend((off..off + n).map(|o| self.byte_at(o)));
            mem.write_bytes(self.start + off, &buf)?;
            off += n;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill(start: u32, end: u32, value: u32, width: FillWidth) -> MemoryFill {
        MemoryFill {
            start,
            end,
            value,
            width,
        }
    }

    #[test]
    fn psc_fill_patterns_by_width() {
        let base = 0x1800_0000;
        let mut mem = Memory::new();
        fill(base, base + 16, 0x1122_3344, FillWidth::W32)
            .apply(&mut mem)
            .unwrap();
        assert_eq!(mem.read_u32(base).unwrap(), 0x1122_3344);
        assert_eq!(mem.read_u32(base + 12).unwrap(), 0x1122_3344);
        assert_eq!(mem.read_u32(base + 16).unwrap(), 0, "end is exclusive");
        fill(base, base + 8, 0xAAAA_5566, FillWidth::W16)
            .apply(&mut mem)
            .unwrap();
        assert_eq!(mem.read_u32(base).unwrap(), 0x5566_5566);
        let mut mem = Memory::new();
        fill(base, base + 16, 0xFF11_2233, FillWidth::W24)
            .apply(&mut mem)
            .unwrap();
        let bytes: Vec<u8> = (0..17).map(|i| mem.read_u8(base + i).unwrap()).collect();
        assert_eq!(
            bytes,
            [
                0x33, 0x22, 0x11, 0x33, 0x22, 0x11, 0x33, 0x22, 0x11, 0x33, 0x22, 0x11, 0x33, 0x22,
                0x11, 0x33, 0
            ]
        );
    }

    #[test]
    fn psc_fill_24bit_period_carries_across_chunks() {
        let base = 0x2000_0000;
        let len = 3 * 4096 * 2 + 24;
        let mut mem = Memory::new();
        fill(base, base + len, 0x00AB_CDEF, FillWidth::W24)
            .apply(&mut mem)
            .unwrap();
        for o in [0, 1, 2, 12_287, 12_288, 12_289, len - 1] {
            let want = [0xEF, 0xCD, 0xAB][(o % 3) as usize];
            assert_eq!(mem.read_u8(base + o).unwrap(), want, "offset {o}");
        }
    }

    #[test]
    fn psc_fill_rejects_bad_ranges() {
        let e = |f: MemoryFill| f.apply(&mut Memory::new()).unwrap_err();
        assert!(matches!(
            e(fill(0x1800_0004, 0x1800_0010, 0, FillWidth::W32)),
            FillError::Unaligned { which: "start", .. }
        ));
        assert!(matches!(
            e(fill(0x1800_0000, 0x1800_000C, 0, FillWidth::W32)),
            FillError::Unaligned { which: "end", .. }
        ));
        assert!(matches!(
            e(fill(0x1800_0010, 0x1800_0010, 0, FillWidth::W32)),
            FillError::Empty { .. }
        ));
        assert!(matches!(
            e(fill(0x185F_FFF8, 0x1860_0008, 0, FillWidth::W32)),
            FillError::Unmapped(_)
        ));
        assert!(matches!(
            e(fill(0x1000_0000, 0x1000_0008, 0, FillWidth::W32)),
            FillError::Unmapped(_)
        ));
    }

    #[test]
    fn psc_width_from_control_follows_3dbrew() {
        assert_eq!(FillWidth::from_control(0x001), FillWidth::W16);
        assert_eq!(FillWidth::from_control(0x101), FillWidth::W24);
        assert_eq!(FillWidth::from_control(0x201), FillWidth::W32);
        assert_eq!(FillWidth::from_control(0x301), FillWidth::W24);
        assert_eq!(FillWidth::from_bits(24), Some(FillWidth::W24));
        assert_eq!(FillWidth::from_bits(8), None);
    }
}
