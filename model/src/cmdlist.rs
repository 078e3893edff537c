//! A low-level command-list encoder: the inverse of the [`cp`](crate::cp) decoder.
//!
//! It emits exactly the word layout of seed 002 ("Command Header"): parameter, header, extra
//! parameters, and a zero padding word when needed to keep commands 8-byte aligned.
//! [`CommandList::finalize`] appends the GPUREG_FINALIZE write and pads the list to a multiple
//! of 16 bytes so that the FINALIZE is not dropped by the 16-byte size rule.

use crate::cmdheader::CommandHeader;
use crate::num::F24;
use crate::regfile::packer::pack_f24x3;
use crate::regs::id;

/// The value commercial software writes to GPUREG_FINALIZE (seed 002).
pub const FINALIZE_VALUE: u32 = 0x1234_5678;

/// A command list under construction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandList {
    words: Vec<u32>,
}

impl CommandList {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// The words so far.
    pub fn words(&self) -> &[u32] {
        &self.words
    }

    /// Consumes the builder, returning the words.
    pub fn into_words(self) -> Vec<u32> {
        self.words
    }

    /// Size in bytes.
    pub fn byte_len(&self) -> u32 {
        (self.words.len() * 4) as u32
    }

    /// One command: `params` (at least one) to register `reg` under byte mask `mask`,
    /// consecutive IDs if `consecutive`. Extra parameters beyond 256 are split into further
    /// commands (the extra-count field holds at most 255).
    pub fn command(&mut self, reg: u32, mask: u8, consecutive: bool, params: &[u32]) -> &mut Self {
        let mut reg = reg;
        for chunk in params.chunks(256) {
            let header = CommandHeader {
                id: reg as u16,
                mask: mask & 0xF,
                extra: (chunk.len() - 1) as u8,
                consecutive,
            };
            self.words.push(chunk[0]);
            self.words.push(header.encode());
            self.words.extend_from_slice(&chunk[1..]);
            if self.words.len() % 2 == 1 {
                self.words.push(0);
            }
            if consecutive {
                reg += chunk.len() as u32;
            }
        }
        self
    }

    /// A plain 32-bit write.
    pub fn write(&mut self, reg: u16, value: u32) -> &mut Self {
        self.command(reg.into(), 0xF, false, &[value])
    }

    /// A write of only the bytes enabled in `mask`.
    pub fn write_masked(&mut self, reg: u16, mask: u8, value: u32) -> &mut Self {
        self.command(reg.into(), mask, false, &[value])
    }

    /// Consecutive writes to `reg`, `reg + 1`, ...
    pub fn write_seq(&mut self, reg: u16, values: &[u32]) -> &mut Self {
        if values.is_empty() {
            return self;
        }
        self.command(reg.into(), 0xF, true, values)
    }

    /// Repeated writes to the same register (a FIFO data port).
    pub fn write_repeat(&mut self, reg: u16, values: &[u32]) -> &mut Self {
        if values.is_empty() {
            return self;
        }
        self.command(reg.into(), 0xF, false, values)
    }

    /// Pads with a harmless write so that, after a FINALIZE command, the list is a multiple of
    /// 16 bytes, then appends the FINALIZE.
    pub fn finalize(&mut self) -> &mut Self {
        if self.words.len() % 4 == 0 {
            // A zero-mask write changes nothing: used as a NOP to keep 16-byte alignment.
            self.command(0, 0, false, &[0]);
        }
        self.write(id::FINALIZE, FINALIZE_VALUE)
    }
}

/// A representative frame-setup list, the workload of the benchmarks and of the
/// `bench/frame_setup` vector case: about 250 configuration writes (rasterizer, texturing,
/// framebuffer and lighting blocks), a vertex-shader upload (512 code words, 32 operand
/// descriptors, all 96 float uniforms, int and bool uniforms), lighting D0/D1 and fog LUTs.
/// 2200 words, 1823 register writes.
pub fn frame_setup() -> Vec<u32> {
    let mut l = CommandList::new();
    // Configuration as a driver sets it up before a draw: rasterizer, texturing, framebuffer
    // and lighting blocks, one plain write per register (most drivers do exactly this).
    for reg in (0x040..0x070)
        .chain(0x080..0x0B0)
        .chain(0x0C0..0x100)
        .chain(0x100..0x130)
        .chain(0x140..0x1C0)
    {
        l.write(reg, u32::from(reg).wrapping_mul(0x9E37_79B9));
    }
    // Vertex shader: 512 code words, 32 operand descriptors, 96 uniforms, int/bool uniforms.
    l.write(id::VSH_CODETRANSFER_INDEX, 0);
    let code: Vec<u32> = (0..512u32).map(|i| 0x4C00_0000 | (i & 0xFFF)).collect();
    for chunk in code.chunks(128) {
        l.write_seq(id::VSH_CODETRANSFER_DATA0, &chunk[..8]);
        l.write_repeat(id::VSH_CODETRANSFER_DATA0, &chunk[8..]);
    }
    l.write(id::VSH_CODETRANSFER_END, 1);
    l.write(id::VSH_OPDESCS_INDEX, 0);
    l.write_repeat(
        id::VSH_OPDESCS_DATA0,
        &(0..32u32).map(|i| 0x36F | (i << 23)).collect::<Vec<_>>(),
    );
    l.write(id::VSH_FLOATUNIFORM_INDEX, 0);
    let words: Vec<u32> = (0..96u32)
        .flat_map(|i| {
            pack_f24x3([0x3F_0000 + i, 0x3E_0000, 0x40_8000 ^ i, 0xBF_0000].map(F24::from_bits))
        })
        .collect();
    l.write_repeat(id::VSH_FLOATUNIFORM_DATA0, &words);
    l.write_seq(id::VSH_INTUNIFORM_I0, &[0x0001_0003, 0x0001_0004, 0, 0]);
    l.write(id::VSH_BOOLUNIFORM, 0x7FFF_0001);
    // Lighting LUTs D0, D1 and fog: 256 + 256 + 128 entries.
    for table in [0u32, 1] {
        l.write(id::LIGHTING_LUT_INDEX, table << 8);
        l.write_repeat(0x1C8, &(0..256u32).map(|i| i * 0x10).collect::<Vec<_>>());
    }
    l.write(id::FOG_LUT_INDEX, 0);
    l.write_repeat(0xE8, &(0..128u32).collect::<Vec<_>>());
    l.write(0x22E, 1);
    l.finalize();
    l.into_words()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cmdlist_encodes_seed_example() {
        let mut l = CommandList::new();
        l.write_seq(0x11C, &[0xAAAA_AAAA, 0xBBBB_BBBB, 0xCCCC_CCCC]);
        assert_eq!(
            l.words(),
            &[0xAAAA_AAAA, 0x802F_011C, 0xBBBB_BBBB, 0xCCCC_CCCC]
        );
    }

    #[test]
    fn cmdlist_pads_odd_commands_and_finalizes_on_16_bytes() {
        let mut l = CommandList::new();
        l.write_repeat(0x2CC, &[1, 2]);
        assert_eq!(l.words(), &[1, 0x001F_02CC, 2, 0]);
        l.finalize();
        assert_eq!(l.byte_len() % 16, 0);
        assert_eq!(
            &l.words()[l.words().len() - 2..],
            &[FINALIZE_VALUE, 0x000F_0010]
        );
    }
}
