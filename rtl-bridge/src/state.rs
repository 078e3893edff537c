//! REGS' final state read straight out of the Verilated `pica_top`, without the debug port.
//!
//! The debug port (`dbg_addr_i` → `dbg_rdata_o`) reads one word per clock, and a clock of
//! `pica_top` evaluates the whole design (the four shader units included): reading the 26,486
//! words of the debug map that way cost far more than the run it checks. Instead
//! `csrc/pica_top.vlt` makes REGS' arrays and the RAMs' storage public, the shim copies them
//! all in one call ([`crate::Rtl::state`]) and [`RegsState::debug_read`] decodes that copy
//! into the debug map exactly as `pica_regs.sv`'s debug read decodes `dbg_addr_i` — the same
//! address ranges, the same shadow registers over the register RAM, the same packer words and
//! f24 lanes. `tests/state.rs` checks that both reads give the same words, word for word, on
//! the example lists, random register lists and the injected-bug builds. The port stays for
//! benches that cannot reach into a simulator ([`crate::RtlGpu::debug_dump`]).

use crate::ffi::PicaState;
use pica_model::regfile::debug;
use pica_model::regs::id;

/// The registers `pica_regs.sv` keeps in shadow flops instead of the register RAM, in its slot
/// order (`SVshFu` .. `SAddr1`, its `shadow_id` function): the debug port reads these IDs from
/// the flops, every other ID below 0x300 from the RAM.
pub const SHADOW_IDS: [u16; 17] = [
    id::VSH_FLOATUNIFORM_INDEX,
    id::GSH_FLOATUNIFORM_INDEX,
    id::VSH_CODETRANSFER_INDEX,
    id::GSH_CODETRANSFER_INDEX,
    id::VSH_OPDESCS_INDEX,
    id::GSH_OPDESCS_INDEX,
    id::PROCTEX_LUT,
    id::FOG_LUT_INDEX,
    id::LIGHTING_LUT_INDEX,
    id::GAS_LUT_INDEX,
    id::FIXEDATTRIB_INDEX,
    id::VSH_COM_MODE,
    id::GEOSTAGE_CONFIG,
    id::CMDBUF_SIZE0,
    id::CMDBUF_SIZE1,
    id::CMDBUF_ADDR0,
    id::CMDBUF_ADDR1,
];

/// Registers with storage (`NumRegs` of pica_regs.sv).
const NUM_REGS: u16 = 0x300;

/// Lane `c` (0 = x) of a 96-bit `{w,z,y,x}` f24 word stored low word first.
fn lane(w: &[u32; 3], c: usize) -> u32 {
    let bits = u128::from(w[0]) | u128::from(w[1]) << 32 | u128::from(w[2]) << 64;
    ((bits >> (24 * c)) & 0xFF_FFFF) as u32
}

/// Pending word `k` (1-based slot in the map) of a packer holding `cnt` words
/// (`pend_word` of pica_regs.sv).
fn pend_word(words: [u32; 3], cnt: u32, k: u16) -> u32 {
    match k {
        1..=3 if cnt >= u32::from(k) => words[usize::from(k) - 1],
        _ => 0,
    }
}

/// A copy of REGS' whole state, taken in one call ([`crate::Rtl::state`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegsState(Box<PicaState>);

impl RegsState {
    pub(crate) fn new(raw: Box<PicaState>) -> Self {
        Self(raw)
    }

    /// The word the debug port returns for `addr` (0 for unmapped addresses).
    pub fn debug_read(&self, addr: u16) -> u32 {
        let s = &*self.0;
        let a = usize::from(addr);
        match addr {
            0x0000..NUM_REGS => SHADOW_IDS
                .iter()
                .position(|&i| i == addr)
                .map_or(s.reg_mem[a], |k| s.shadow[k]),
            // Proctex tables 0-2 have 128 entries: i >= 128 is no entry and reads 0.
            0x0400..0x0900 if addr >= 0x0700 || addr & 0x80 == 0 => s.proctex[a - 0x0400],
            0x0900..0x0980 => s.fog[a & 0x7F] & 0xFF_FFFF,
            0x0980..0x0990 => s.gas[a & 0xF],
            0x0A00..0x0A30 => lane(&s.fixed[(a >> 2) & 0xF], a & 3),
            0x0B00..0x0B05 | 0x0B08..0x0B0D => {
                let b = usize::from(addr >= 0x0B08);
                let k = addr & 7;
                let cnt = s.fu_cnt[b] & 3;
                if k == 0 {
                    cnt
                } else {
                    pend_word(s.fu_pend[b], cnt, k)
                }
            }
            0x0B10..0x0B14 => {
                let k = addr & 7;
                let cnt = s.fx_cnt & 3;
                if k == 0 {
                    cnt
                } else {
                    pend_word([s.fx_pend[0], s.fx_pend[1], 0], cnt, k)
                }
            }
            0x2000..0x3800 => s.lighting[a & 0x1FFF] & 0xFF_FFFF,
            0x4000..0xC000 => {
                let u = (a >> 13) - 2;
                let o = a & 0x1FFF;
                match o {
                    0x0000..0x1000 => s.code[u][o],
                    0x1000..0x1080 => s.opdesc[u][o & 0x7F],
                    0x1100..0x1280 => lane(&s.float_u[u][(o - 0x1100) >> 2], a & 3),
                    0x1300..0x1304 => s.int_u[u][o & 3],
                    0x1304 => s.bool_u[u] & 0xFFFF,
                    0x1305 => s.entry[u] & 0xFFFF,
                    0x1306 => s.outmap[u] & 0xFFFF,
                    0x1307 => s.incfg[u],
                    0x1308 => s.perm[u][0],
                    0x1309 => s.perm[u][1],
                    _ => 0,
                }
            }
            _ => 0,
        }
    }

    /// Appends the words of region `r` of [`debug::debug_regions`] to `out`, one per address
    /// from `r.start` on, as [`RegsState::debug_read`] reads them, the big arrays a slice at a
    /// time: `pica fuzz --rtl` compares the whole map once per case, and decoding its 26,486
    /// addresses one by one was the largest cost of a case.
    pub fn region_words(&self, r: &debug::DebugRegion, out: &mut Vec<u32>) {
        let s = &*self.0;
        let (start, len) = (usize::from(r.start), usize::from(r.len));
        let slice = |words: &[u32], from: usize, mask: u32| -> Option<Vec<u32>> {
            words
                .get(from..from + len)
                .map(|w| w.iter().map(|&x| x & mask).collect())
        };
        let fast = match r.start {
            0 if len <= usize::from(NUM_REGS) => {
                let mut w = s.reg_mem[..len].to_vec();
                for (k, &i) in SHADOW_IDS.iter().enumerate() {
                    if let Some(slot) = w.get_mut(usize::from(i)) {
                        *slot = s.shadow[k];
                    }
                }
                Some(w)
            }
            0x2000..0x3800 => slice(&s.lighting, start & 0x1FFF, 0xFF_FFFF),
            0x4000..0xC000 => {
                let u = (start >> 13) - 2;
                match start & 0x1FFF {
                    0x0000 => slice(&s.code[u], 0, u32::MAX),
                    0x1000 => slice(&s.opdesc[u], 0, u32::MAX),
                    _ => None,
                }
            }
            _ => None,
        };
        match fast {
            Some(w) => out.extend(w),
            None => out.extend((r.start..r.start + r.len).map(|a| self.debug_read(a))),
        }
    }

    /// `addrs` as the debug port reads them ([`crate::RtlGpu::debug_read`]).
    pub fn read(&self, addrs: &[u16]) -> Vec<u32> {
        addrs.iter().map(|&a| self.debug_read(a)).collect()
    }

    /// The whole debug map as `(address, word)`, in the order of
    /// [`pica_model::regfile::debug::debug_addresses`] (as [`crate::RtlGpu::debug_dump`]).
    pub fn dump(&self) -> Vec<(u16, u32)> {
        debug::debug_addresses()
            .map(|a| (a, self.debug_read(a)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_lanes_and_packer_words_decode_like_the_port() {
        let w = [0x3456_7801, 0x9ABC_DE12, 0x1357_9BDF];
        // {w,z,y,x}: x = bits 23..0, y = 47..24, z = 71..48, w = 95..72.
        assert_eq!(lane(&w, 0), 0x56_7801);
        assert_eq!(lane(&w, 1), 0xDE_1234);
        assert_eq!(lane(&w, 2), 0xDF_9ABC);
        assert_eq!(lane(&w, 3), 0x13_579B);
        assert_eq!(pend_word([1, 2, 3], 2, 1), 1);
        assert_eq!(pend_word([1, 2, 3], 2, 2), 2);
        assert_eq!(pend_word([1, 2, 3], 2, 3), 0, "not pending");
        assert_eq!(pend_word([1, 2, 3], 3, 4), 0, "no fourth slot");
    }

    #[test]
    fn state_region_words_read_as_debug_read() {
        // Every word a different value, so a word read from the wrong place shows.
        let mut raw = PicaState::boxed();
        let mut n = 0x0100_0001u32;
        let mut next = || {
            n = n.wrapping_mul(0x9E37_79B9).wrapping_add(0x7F4A_7C15);
            n
        };
        raw.reg_mem.iter_mut().for_each(|w| *w = next());
        raw.shadow.iter_mut().for_each(|w| *w = next());
        raw.lighting.iter_mut().for_each(|w| *w = next());
        raw.code.iter_mut().flatten().for_each(|w| *w = next());
        raw.opdesc.iter_mut().flatten().for_each(|w| *w = next());
        raw.float_u
            .iter_mut()
            .flatten()
            .flatten()
            .for_each(|w| *w = next());
        raw.proctex.iter_mut().for_each(|w| *w = next());
        let st = RegsState::new(raw);
        let mut words = Vec::new();
        for r in debug::debug_regions() {
            words.clear();
            st.region_words(r, &mut words);
            let want: Vec<u32> = (r.start..r.start + r.len)
                .map(|a| st.debug_read(a))
                .collect();
            assert_eq!(words, want, "region {}", r.name);
        }
    }

    #[test]
    fn state_shadow_ids_are_distinct_registers() {
        for (k, a) in SHADOW_IDS.iter().enumerate() {
            assert!(*a < NUM_REGS);
            assert!(!SHADOW_IDS[..k].contains(a), "0x{a:03x} twice");
        }
    }
}
