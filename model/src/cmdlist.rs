//! A low-level command-list encoder: the inverse of the [`cp`](crate::cp) decoder.
//!
//! It emits exactly the word layout of seed 002 ("Command Header"): parameter, header, extra
//! parameters, and a zero padding word when needed to keep commands 8-byte aligned.
//! [`CommandList::finalize`] appends the GPUREG_FINALIZE write and pads the list to a multiple
//! of 16 bytes so that the FINALIZE is not dropped by the 16-byte size rule.

use crate::cp::CommandHeader;
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
