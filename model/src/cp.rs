//! CP: the command processor.
//!
//! Reads a command buffer from memory one word per cycle and turns it into register writes
//! (seed 002 "Overview", "Command Header", "Parameter masking"; seed 001):
//!
//! - a command is a parameter word followed by a header word, then `extra` more parameter
//!   words, then one padding word if needed so the next command starts 8-byte aligned;
//! - header bits 0-15 = register ID, 16-19 = byte-enable mask, 20-27 = extra parameter count,
//!   31 = consecutive mode (each further parameter goes to the next ID; otherwise all go to the
//!   same ID);
//! - a buffer's size is honoured only down to a multiple of 16 bytes (the lower bits are
//!   cleared), so a FINALIZE in the last 8 bytes of a list whose size is an odd multiple of 8 is
//!   never seen and the GPU hangs;
//! - a write to GPUREG_FINALIZE ends the list: nothing after it is read;
//! - a write to GPUREG_CMDBUF_JUMPn continues execution in buffer n (GPUREG_CMDBUF_ADDRn /
//!   SIZEn), whose address and size REGS sends back once it has applied the jump.

use crate::beat::RegWriteBeat;
use crate::knobs::{CpEndValue, CpJumpRest};
use crate::link::Link;
use crate::mem::Memory;
use crate::outcome::HangReason;
use crate::regs::{self, SideEffect, Trigger};
use crate::stage::Stage;
use crate::timing;
use serde::Serialize;
use serde_json::json;

pub use crate::cmdheader::CommandHeader;

/// The register ID of GPUREG_FINALIZE (kept local so the hot loop needs no table lookup).
const FINALIZE: u32 = regs::id::FINALIZE as u32;

/// One register write travelling from CP to REGS.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RegWrite {
    /// Register ID (may exceed 0x2FF).
    pub id: u32,
    /// Byte-enable mask from the header.
    pub mask: u8,
    /// Parameter word.
    pub param: u32,
}

impl RegWrite {
    /// The beat REGS records for this write once merged to `value` in `cycle`.
    pub fn beat(self, cycle: u64, value: u32) -> RegWriteBeat {
        RegWriteBeat {
            cycle,
            id: self.id,
            mask: self.mask,
            param: self.param,
            value,
        }
    }
}

/// The address and size of the buffer a CMDBUF jump continues in, sent REGS → CP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Redirect {
    /// Which channel's registers were used (0 or 1).
    pub channel: u8,
    /// Physical byte address (GPUREG_CMDBUF_ADDRn << 3).
    pub addr: u32,
    /// Size in bytes (GPUREG_CMDBUF_SIZEn << 3), before the 16-byte rule.
    pub size: u32,
}

/// The buffer the CP is reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Buffer {
    /// First byte of the buffer.
    pub base: u32,
    /// Size in bytes as given.
    pub size: u32,
    /// Address of the next word to read.
    pub next: u32,
}

impl Buffer {
    /// A buffer starting at `base` of `size` bytes.
    pub fn new(base: u32, size: u32) -> Self {
        Self {
            base,
            size,
            next: base,
        }
    }

    /// Bytes the CP actually reads: the size with its low 4 bits cleared (seed 001: command
    /// buffer sizes must be 0x10-aligned; a list that is not loses its last 8 bytes).
    pub fn effective_size(&self) -> u32 {
        self.size & !0xF
    }

    /// One past the last byte read.
    pub fn end(&self) -> u64 {
        u64::from(self.base) + u64::from(self.effective_size())
    }

    fn exhausted(&self) -> bool {
        u64::from(self.next) >= self.end()
    }
}

/// Where the CP is within a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum CpState {
    /// No buffer submitted yet.
    Idle,
    /// Expecting the first parameter word of a command.
    Param0,
    /// Expecting the header; the first parameter was read from `param_addr`.
    Header {
        /// The first parameter.
        param0: u32,
        /// Its address.
        param_addr: u32,
    },
    /// Expecting parameter `n` (1-based among the extras) of the command at `header_addr`.
    Extra {
        /// The header word.
        header: u32,
        /// Address of the header word.
        header_addr: u32,
        /// Index of the next parameter (1 ..= extra).
        n: u32,
    },
    /// Skipping the padding word that keeps the next command 8-byte aligned.
    Pad,
    /// Issued a CMDBUF jump; waiting for REGS to send the new buffer.
    WaitRedirect,
    /// Issued GPUREG_FINALIZE: the list is done.
    Done,
    /// The CP stopped with a hang.
    Hung,
}

/// The command processor stage.
#[derive(Clone, Debug)]
pub struct CommandProcessor {
    state: CpState,
    buffer: Option<Buffer>,
    words_read: u64,
    writes_issued: u64,
    /// Knob `cp-end-value` (kept across reset).
    end_value: CpEndValue,
    /// Knob `cp-jump-rest` (kept across reset).
    jump_rest: CpJumpRest,
    /// CMDBUF jumps issued whose redirect the CP has not taken yet: with `cp-jump-rest=execute`
    /// the rest of the command may jump again, and the last jump wins.
    jumps_due: u32,
}

/// What the CP touches in one cycle.
pub struct CpPorts<'a> {
    /// Physical memory the command buffers live in.
    pub mem: &'a Memory,
    /// Register writes to REGS.
    pub writes: &'a mut Link<RegWrite>,
    /// Jump targets back from REGS.
    pub redirect: &'a mut Link<Redirect>,
}

impl Default for CommandProcessor {
    fn default() -> Self {
        Self::new()
    }
}

impl CommandProcessor {
    /// A CP in the idle state.
    pub fn new() -> Self {
        Self {
            state: CpState::Idle,
            buffer: None,
            words_read: 0,
            writes_issued: 0,
            end_value: CpEndValue::Any,
            jump_rest: CpJumpRest::Drop,
            jumps_due: 0,
        }
    }

    /// Chooses which FINALIZE writes end a list (knob `cp-end-value`; [`crate::Gpu::set_knobs`]).
    pub fn set_end_value(&mut self, v: CpEndValue) {
        self.end_value = v;
    }

    /// Chooses what happens to the rest of a command whose parameter jumps (knob
    /// `cp-jump-rest`; [`crate::Gpu::set_knobs`]).
    pub fn set_jump_rest(&mut self, v: CpJumpRest) {
        self.jump_rest = v;
    }

    /// Starts executing the buffer at `base` of `size` bytes, as the GSP's kick does.
    pub fn submit(&mut self, base: u32, size: u32) {
        self.buffer = Some(Buffer::new(base, size));
        self.state = CpState::Param0;
    }

    /// The current state.
    pub fn state(&self) -> CpState {
        self.state
    }

    /// Whether the list ended with FINALIZE.
    pub fn is_done(&self) -> bool {
        self.state == CpState::Done
    }

    /// Command words read so far.
    pub fn words_read(&self) -> u64 {
        self.words_read
    }

    /// Register writes issued so far.
    pub fn writes_issued(&self) -> u64 {
        self.writes_issued
    }

    /// The buffer being read, if any.
    pub fn buffer(&self) -> Option<Buffer> {
        self.buffer
    }

    /// The hang reason for running off the end of `buf` in `state`.
    fn end_of_buffer(&self, mem: &Memory, buf: Buffer) -> HangReason {
        let dropped = buf.size - buf.effective_size();
        match self.state {
            CpState::Param0 | CpState::Pad => {
                // Was there a FINALIZE among the bytes the 16-byte rule dropped?
                let end = buf.base.wrapping_add(buf.effective_size());
                let dropped_finalize = dropped >= 8
                    && mem
                        .read_u32(end.wrapping_add(4))
                        .map(|h| CommandHeader::decode(h).id_of_param(0) == FINALIZE)
                        .unwrap_or(false);
                HangReason::MissingFinalize {
                    base: buf.base,
                    size: buf.size,
                    effective_size: buf.effective_size(),
                    dropped_finalize,
                }
            }
            CpState::Header { param_addr, .. } => HangReason::CommandPastEnd {
                base: buf.base,
                effective_size: buf.effective_size(),
                command_addr: param_addr,
                header: None,
            },
            CpState::Extra {
                header,
                header_addr,
                ..
            } => HangReason::CommandPastEnd {
                base: buf.base,
                effective_size: buf.effective_size(),
                command_addr: header_addr.wrapping_sub(4),
                header: Some(header),
            },
            CpState::Idle | CpState::WaitRedirect | CpState::Done | CpState::Hung => {
                HangReason::Internal(format!("CP end of buffer in state {:?}", self.state))
            }
        }
    }

    /// Issues one write; returns whether the CP must stop reading the current command.
    fn issue(&mut self, ports: &mut CpPorts<'_>, w: RegWrite) -> Result<bool, HangReason> {
        ports
            .writes
            .push(w)
            .map_err(|e| HangReason::Internal(e.to_string()))?;
        self.writes_issued += 1;
        tracing::trace!(target: "cp", id = w.id, mask = w.mask, param = w.param, "write");
        let ends = match self.end_value {
            CpEndValue::Any => true,
            CpEndValue::Nonzero => w.mask != 0 && w.param != 0,
        };
        if w.id == FINALIZE && ends {
            // Seed 002 GPUREG_FINALIZE: any command following it is ignored.
            // UNVERIFIED(hw) [fact: cp-end-any-value]: the write ends the list whatever its value and mask — seed 002
            // says the value does not appear to matter (knob `cp-end-value=nonzero`: only a
            // non-zero value under a non-zero mask ends it).
            self.state = CpState::Done;
            return Ok(true);
        }
        if let Some(info) = regs::info(w.id) {
            if let SideEffect::Trigger(Trigger::CmdbufJump(_)) = info.effect {
                // UNVERIFIED(hw) [fact: cp-jump-drops-rest]: the rest of a command whose parameter triggers a jump is
                // dropped; execution continues at the start of the new buffer — model choice
                // (knob `cp-jump-rest=execute`: the rest is written first, see `step_word`).
                self.jumps_due += 1;
                if self.jump_rest == CpJumpRest::Drop {
                    self.state = CpState::WaitRedirect;
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Reads and acts on one command word; `Ok(false)` when no word could be read.
    fn step_word(&mut self, ports: &mut CpPorts<'_>) -> Result<bool, HangReason> {
        let Some(mut buf) = self.buffer else {
            return Ok(false);
        };
        match self.state {
            CpState::Idle | CpState::Done | CpState::Hung | CpState::WaitRedirect => {
                return Ok(false)
            }
            _ => {}
        }
        // A word that produces a write may only be read when REGS can take the write.
        let produces_write = matches!(self.state, CpState::Header { .. } | CpState::Extra { .. });
        if produces_write && !ports.writes.can_push() {
            return Ok(false);
        }
        if buf.exhausted() {
            let reason = self.end_of_buffer(ports.mem, buf);
            self.state = CpState::Hung;
            return Err(reason);
        }
        let addr = buf.next;
        let word = match ports.mem.read_u32(addr) {
            Ok(w) => w,
            Err(e) => {
                self.state = CpState::Hung;
                return Err(HangReason::FetchUnmapped { addr: e.addr });
            }
        };
        buf.next = addr.wrapping_add(4);
        self.buffer = Some(buf);
        self.words_read += 1;

        self.state = match self.state {
            CpState::Param0 => CpState::Header {
                param0: word,
                param_addr: addr,
            },
            CpState::Header { param0, .. } => {
                let h = CommandHeader::decode(word);
                let w = RegWrite {
                    id: h.id_of_param(0),
                    mask: h.mask,
                    param: param0,
                };
                if self.issue(ports, w)? {
                    return Ok(false);
                }
                if h.extra > 0 {
                    CpState::Extra {
                        header: word,
                        header_addr: addr,
                        n: 1,
                    }
                } else {
                    CpState::Param0
                }
            }
            CpState::Extra {
                header,
                header_addr,
                n,
            } => {
                let h = CommandHeader::decode(header);
                let w = RegWrite {
                    id: h.id_of_param(n),
                    mask: h.mask,
                    param: word,
                };
                if self.issue(ports, w)? {
                    return Ok(false);
                }
                if n < u32::from(h.extra) {
                    CpState::Extra {
                        header,
                        header_addr,
                        n: n + 1,
                    }
                } else if h.total_words() > 2 + u32::from(h.extra) {
                    CpState::Pad
                } else {
                    CpState::Param0
                }
            }
            CpState::Pad => CpState::Param0,
            s @ (CpState::Idle | CpState::WaitRedirect | CpState::Done | CpState::Hung) => s,
        };
        // Knob `cp-jump-rest=execute`: a jump issued inside the command takes effect at its
        // end (the padding word, if any, is in the buffer left behind).
        if self.jumps_due > 0 && matches!(self.state, CpState::Param0 | CpState::Pad) {
            self.state = CpState::WaitRedirect;
            return Ok(false);
        }
        Ok(true)
    }
}

impl Stage for CommandProcessor {
    type Ports<'a> = CpPorts<'a>;

    fn name(&self) -> &'static str {
        "cp"
    }

    fn reset(&mut self) {
        let (end_value, jump_rest) = (self.end_value, self.jump_rest);
        *self = Self::new();
        self.end_value = end_value;
        self.jump_rest = jump_rest;
    }

    fn tick(&mut self, _cycle: u64, mut ports: CpPorts<'_>) -> Result<(), HangReason> {
        if self.state == CpState::WaitRedirect {
            // One redirect per jump issued; the last one is where execution continues.
            while self.jumps_due > 0 {
                let Some(r) = ports.redirect.pop() else {
                    return Ok(());
                };
                self.jumps_due -= 1;
                tracing::debug!(target: "cp", addr = %format_args!("{:#010x}", r.addr), size = r.size, "cmdbuf jump");
                self.buffer = Some(Buffer::new(r.addr, r.size));
            }
            self.state = CpState::Param0;
        }
        for _ in 0..timing::CP_WORDS_PER_CYCLE {
            if !self.step_word(&mut ports)? {
                break;
            }
        }
        Ok(())
    }

    fn is_idle(&self) -> bool {
        matches!(self.state, CpState::Idle | CpState::Done | CpState::Hung)
    }

    fn snapshot(&self) -> serde_json::Value {
        json!({
            "state": self.state,
            "buffer": self.buffer,
            "words_read": self.words_read,
            "writes_issued": self.writes_issued,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cp_header_decodes_seed_example() {
        // Seed 002: 0x802F011C = consecutive, 2 extra params, mask 0xF, ID 0x11C.
        let h = CommandHeader::decode(0x802F_011C);
        assert_eq!(
            h,
            CommandHeader {
                id: 0x11C,
                mask: 0xF,
                extra: 2,
                consecutive: true
            }
        );
        assert_eq!(h.encode(), 0x802F_011C);
        assert_eq!(
            [h.id_of_param(0), h.id_of_param(1), h.id_of_param(2)],
            [0x11C, 0x11D, 0x11E]
        );
        assert_eq!(h.total_words(), 4);
        let h = CommandHeader::decode(0x002F_011C);
        assert_eq!([h.id_of_param(0), h.id_of_param(2)], [0x11C, 0x11C]);
    }

    #[test]
    fn cp_header_ignores_unused_bits() {
        assert_eq!(
            CommandHeader::decode(0x700F_0010),
            CommandHeader::decode(0x000F_0010)
        );
    }

    #[test]
    fn cp_padding_keeps_commands_8_byte_aligned() {
        assert_eq!(CommandHeader::decode(0x000F_0000).total_words(), 2);
        assert_eq!(CommandHeader::decode(0x001F_0000).total_words(), 4);
        assert_eq!(CommandHeader::decode(0x002F_0000).total_words(), 4);
        assert_eq!(CommandHeader::decode(0x0FFF_0000).total_words(), 258);
    }

    #[test]
    fn cp_effective_size_clears_low_four_bits() {
        assert_eq!(Buffer::new(0, 0x18).effective_size(), 0x10);
        assert_eq!(Buffer::new(0, 0x20).effective_size(), 0x20);
        assert_eq!(Buffer::new(0, 0x8).effective_size(), 0);
    }
}
