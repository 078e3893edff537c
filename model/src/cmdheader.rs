//! The command header word of a command list (seed 002 "Command Header"): decoded by the
//! command processor ([`crate::cp`], which re-exports [`CommandHeader`]), encoded by the
//! command-list builder ([`crate::cmdlist`]) and shown in hang reports
//! ([`crate::outcome::HangReason::CommandPastEnd`]). It is a format, not a stage, so it sits
//! below all three.

use serde::Serialize;

/// A decoded command header word (seed 002 "Command Header").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CommandHeader {
    /// Bits 0-15: the first register ID written.
    pub id: u16,
    /// Bits 16-19: byte-enable mask (bit n enables byte n of the parameter).
    pub mask: u8,
    /// Bits 20-27: number of parameter words after the first.
    pub extra: u8,
    /// Bit 31: consecutive mode (ID increments after each parameter).
    pub consecutive: bool,
}

impl CommandHeader {
    /// Decodes a header word. Bits 28-30 are unused by the hardware and ignored.
    pub const fn decode(word: u32) -> Self {
        Self {
            id: (word & 0xFFFF) as u16,
            mask: ((word >> 16) & 0xF) as u8,
            extra: ((word >> 20) & 0xFF) as u8,
            consecutive: word >> 31 == 1,
        }
    }

    /// Encodes the header (unused bits 28-30 zero).
    pub const fn encode(self) -> u32 {
        self.id as u32
            | ((self.mask as u32 & 0xF) << 16)
            | ((self.extra as u32) << 20)
            | ((self.consecutive as u32) << 31)
    }

    /// The register ID that parameter `n` (0 = the first) of this command writes.
    pub const fn id_of_param(self, n: u32) -> u32 {
        if self.consecutive {
            self.id as u32 + n
        } else {
            self.id as u32
        }
    }

    /// Total words of the command including the padding word: 2 + extra, rounded up to even.
    pub const fn total_words(self) -> u32 {
        let w = 2 + self.extra as u32;
        w + (w & 1)
    }
}
