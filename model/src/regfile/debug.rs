//! The debug read map: every word of REGS state at a 16-bit word address.
//!
//! The RTL's `pica_top` exposes the same map on its debug read port (`dbg_addr_i` →
//! `dbg_rdata_o`, rtl-bridge/rtl/README.md), so the complete final state of a run can be read
//! out of any simulator and compared word by word with the model. This file is the definition
//! of the map; the SystemVerilog implements it and lockstep checks that both agree on every
//! address listed in [`debug_regions`].
//!
//! Immediate-mode vertices and trigger events are not state but traffic (a later channel), so
//! they are not in the map.

use super::luts::{GAS_ENTRIES, LIGHTING_ENTRIES, LIGHTING_TABLES, PROCTEX_SIZES};
use super::unit::{CODE_WORDS, FLOAT_UNIFORMS, NUM_UNITS, OPDESC_ENTRIES};
use super::{RegFile, FIXED_ATTRIBS, NUM_REGS};
use crate::regs;
use std::sync::OnceLock;

/// First address of the proctex tables (table `t` at `PROCTEX + t * 0x100`).
pub const PROCTEX: u16 = 0x0400;
/// First address of the fog LUT.
pub const FOG: u16 = 0x0900;
/// First address of the gas LUT.
pub const GAS: u16 = 0x0980;
/// First address of the fixed attributes (attribute `a`, component `c` at `+ a * 4 + c`).
pub const FIXED: u16 = 0x0A00;
/// VSH float-uniform packer: pending count, then up to 4 pending words.
pub const VSH_PACKER: u16 = 0x0B00;
/// GSH float-uniform packer: pending count, then up to 4 pending words.
pub const GSH_PACKER: u16 = 0x0B08;
/// Fixed-attribute packer: pending count, then up to 3 pending words.
pub const FIXED_PACKER: u16 = 0x0B10;
/// First address of the lighting LUTs (table `t` at `LIGHTING + t * 0x100`).
pub const LIGHTING: u16 = 0x2000;
/// First address of shader unit 0 (unit `u` at `UNITS + u * UNIT_STRIDE`).
pub const UNITS: u16 = 0x4000;
/// Address distance between two units' blocks.
pub const UNIT_STRIDE: u16 = 0x2000;
/// Offsets inside a unit's block.
pub mod unit_off {
    /// Code memory.
    pub const CODE: u16 = 0x0000;
    /// Operand descriptors.
    pub const OPDESCS: u16 = 0x1000;
    /// Float uniform `i` component `c` at `+ i * 4 + c`.
    pub const FLOAT_UNIFORMS: u16 = 0x1100;
    /// Integer uniforms i0-i3 (`x | y << 8 | z << 16 | w << 24`).
    pub const INT_UNIFORMS: u16 = 0x1300;
    /// Bool uniforms (bit n = bn).
    pub const BOOL_UNIFORMS: u16 = 0x1304;
    /// Entry point.
    pub const ENTRY_POINT: u16 = 0x1305;
    /// Output mask.
    pub const OUTMAP_MASK: u16 = 0x1306;
    /// Raw INPUTBUFFER_CONFIG.
    pub const INPUT_CONFIG: u16 = 0x1307;
    /// Permutation, low word.
    pub const PERM_LOW: u16 = 0x1308;
    /// Permutation, high word.
    pub const PERM_HIGH: u16 = 0x1309;
    /// Words used in a unit's block after [`INT_UNIFORMS`].
    pub const SCALARS: u16 = 10;
}

/// One contiguous range of the debug map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DebugRegion {
    /// Readable name, used in divergence reports (`regs`, `fog`, `unit2.code`, ...).
    pub name: String,
    /// First word address.
    pub start: u16,
    /// Number of words.
    pub len: u16,
}

fn region(name: impl Into<String>, start: u16, len: usize) -> DebugRegion {
    DebugRegion {
        name: name.into(),
        start,
        // Every region is far below 64 Ki words (checked by debug_regions_do_not_overlap).
        len: u16::try_from(len).unwrap_or(u16::MAX),
    }
}

fn build_regions() -> Vec<DebugRegion> {
    let proctex = ["noise", "rgb_map", "alpha_map", "color", "color_diff"];
    let mut out = vec![region("regs", 0, NUM_REGS)];
    for (t, (name, len)) in proctex.iter().zip(PROCTEX_SIZES).enumerate() {
        out.push(region(
            format!("proctex.{name}"),
            PROCTEX + t as u16 * 0x100,
            len,
        ));
    }
    out.extend([
        region("fog", FOG, 128),
        region("gas", GAS, GAS_ENTRIES),
        region("fixed_attribs", FIXED, FIXED_ATTRIBS * 4),
    ]);
    for (name, start, words) in [
        ("vsh_packer", VSH_PACKER, 4),
        ("gsh_packer", GSH_PACKER, 4),
        ("fixed_packer", FIXED_PACKER, 3),
    ] {
        out.push(region(format!("{name}.count"), start, 1));
        out.push(region(format!("{name}.words"), start + 1, words));
    }
    for t in 0..LIGHTING_TABLES {
        out.push(region(
            format!("lighting[{t}]"),
            LIGHTING + t as u16 * 0x100,
            LIGHTING_ENTRIES,
        ));
    }
    for u in 0..NUM_UNITS {
        let base = UNITS + u as u16 * UNIT_STRIDE;
        out.extend([
            region(format!("unit{u}.code"), base + unit_off::CODE, CODE_WORDS),
            region(
                format!("unit{u}.opdescs"),
                base + unit_off::OPDESCS,
                OPDESC_ENTRIES,
            ),
            region(
                format!("unit{u}.float_uniforms"),
                base + unit_off::FLOAT_UNIFORMS,
                FLOAT_UNIFORMS * 4,
            ),
            region(
                format!("unit{u}.scalars"),
                base + unit_off::INT_UNIFORMS,
                usize::from(unit_off::SCALARS),
            ),
        ]);
    }
    out
}

/// Every readable range of the map.
pub fn debug_regions() -> &'static [DebugRegion] {
    static REGIONS: OnceLock<Vec<DebugRegion>> = OnceLock::new();
    REGIONS.get_or_init(build_regions)
}

/// Every mapped address, in [`debug_regions`] order.
pub fn debug_addresses() -> impl Iterator<Item = u16> {
    debug_regions()
        .iter()
        .flat_map(|r| r.start..r.start + r.len)
}

/// Unmapped addresses next to the map's edges: for every region, the address just before its
/// first word and the one just after its last, where those are in no region, and the first
/// address past the last unit's window (`UNITS + NUM_UNITS * UNIT_STRIDE`: a decoder of the
/// unit windows has its upper bound there, which no region ends at — `pica mutate`: a bound of
/// 0xC200 read unit 0's words at 0xC000-0xC1FF and survived). The debug port reads 0 there
/// ([`RegFile::debug_read`]); an address decode that is off by one at a range edge (or a range
/// compare with a wrong bit) shows only at such an address, which [`debug_addresses`] never
/// visits — so the final-state comparison also reads these.
pub fn edge_probes() -> &'static [u16] {
    static PROBES: OnceLock<Vec<u16>> = OnceLock::new();
    PROBES.get_or_init(|| {
        let mapped = |a: u16| {
            debug_regions()
                .iter()
                .any(|r| (r.start..r.start + r.len).contains(&a))
        };
        let mut out: Vec<u16> = debug_regions()
            .iter()
            .flat_map(|r| [r.start.checked_sub(1), r.start.checked_add(r.len)])
            .flatten()
            .chain(UNITS.checked_add(NUM_UNITS as u16 * UNIT_STRIDE))
            .filter(|&a| !mapped(a))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    })
}

/// A readable name for a debug address: `regs[0x2c0] GPUREG_VSH_FLOATUNIFORM_INDEX`,
/// `unit2.code[0x013]`, `unit0.float_uniforms[c4.y]`, `unmapped 0x1234`.
pub fn describe(addr: u16) -> String {
    let Some(r) = debug_regions()
        .iter()
        .find(|r| (r.start..r.start + r.len).contains(&addr))
    else {
        return format!("unmapped 0x{addr:04x}");
    };
    let i = addr - r.start;
    if r.name == "regs" {
        return format!("regs[0x{i:03x}] {}", regs::name(u32::from(i)));
    }
    if r.name.ends_with("float_uniforms") {
        let c = ["x", "y", "z", "w"][usize::from(i % 4)];
        return format!("{}[c{}.{c}]", r.name, i / 4);
    }
    if r.name == "fixed_attribs" {
        let c = ["x", "y", "z", "w"][usize::from(i % 4)];
        return format!("fixed_attribs[{}.{c}]", i / 4);
    }
    if r.name.ends_with("scalars") {
        let unit = r.name.trim_end_matches(".scalars");
        let what = match i {
            0..=3 => return format!("{unit}.int_uniforms[i{i}]"),
            4 => "bool_uniforms",
            5 => "entry_point",
            6 => "outmap_mask",
            7 => "input_config",
            8 => "permutation_low",
            _ => "permutation_high",
        };
        return format!("{unit}.{what}");
    }
    if r.len == 1 {
        return r.name.to_string();
    }
    format!("{}[0x{i:03x}]", r.name)
}

fn words_at(words: &[u32], i: u16) -> u32 {
    words.get(usize::from(i)).copied().unwrap_or(0)
}

impl RegFile {
    /// Reads one word of the debug map (0 for unmapped addresses), exactly what the RTL's debug
    /// port returns for the same address.
    pub fn debug_read(&self, addr: u16) -> u32 {
        let in_range = |start: u16, len: usize| addr >= start && usize::from(addr - start) < len;
        if usize::from(addr) < NUM_REGS {
            return self.reg(u32::from(addr));
        }
        for (t, (table, &len)) in self.luts.proctex.iter().zip(&PROCTEX_SIZES).enumerate() {
            let start = PROCTEX + (t as u16) * 0x100;
            if in_range(start, len) {
                return words_at(table, addr - start);
            }
        }
        if in_range(FOG, self.luts.fog.len()) {
            return words_at(&self.luts.fog, addr - FOG);
        }
        if in_range(GAS, self.luts.gas.len()) {
            return words_at(&self.luts.gas, addr - GAS);
        }
        if in_range(FIXED, FIXED_ATTRIBS * 4) {
            let i = usize::from(addr - FIXED);
            return self.fixed_attribs[i / 4][i % 4].bits();
        }
        for (start, pending) in [
            (VSH_PACKER, self.uniform_packers[0].pending()),
            (GSH_PACKER, self.uniform_packers[1].pending()),
            (FIXED_PACKER, self.fixed_packer.pending()),
        ] {
            if addr == start {
                return pending.len() as u32;
            }
            let words = if start == FIXED_PACKER { 3 } else { 4 };
            if in_range(start + 1, words) {
                return words_at(pending, addr - start - 1);
            }
        }
        if in_range(LIGHTING, LIGHTING_TABLES * 0x100) {
            let i = usize::from(addr - LIGHTING);
            return self
                .luts
                .lighting
                .get(i / 0x100)
                .map_or(0, |t| words_at(t, (i % 0x100) as u16));
        }
        if addr >= UNITS {
            let rel = addr - UNITS;
            let (u, o) = (usize::from(rel / UNIT_STRIDE), rel % UNIT_STRIDE);
            let Some(unit) = self.units.get(u) else {
                return 0;
            };
            let off = |start: u16, len: usize| {
                (o >= start && usize::from(o - start) < len).then(|| o - start)
            };
            if let Some(i) = off(unit_off::CODE, CODE_WORDS) {
                return words_at(&unit.code, i);
            }
            if let Some(i) = off(unit_off::OPDESCS, OPDESC_ENTRIES) {
                return words_at(&unit.opdescs, i);
            }
            if let Some(i) = off(unit_off::FLOAT_UNIFORMS, FLOAT_UNIFORMS * 4) {
                let i = usize::from(i);
                return unit.float_uniforms[i / 4][i % 4].bits();
            }
            if let Some(i) = off(unit_off::INT_UNIFORMS, 4) {
                return u32::from_le_bytes(unit.int_uniforms[usize::from(i)]);
            }
            return match o {
                unit_off::BOOL_UNIFORMS => u32::from(unit.bool_uniforms),
                unit_off::ENTRY_POINT => u32::from(unit.entry_point),
                unit_off::OUTMAP_MASK => u32::from(unit.outmap_mask),
                unit_off::INPUT_CONFIG => unit.input_config,
                unit_off::PERM_LOW => unit.permutation as u32,
                unit_off::PERM_HIGH => (unit.permutation >> 32) as u32,
                _ => 0,
            };
        }
        0
    }

    /// The whole debug map as `(address, word)` pairs in [`debug_regions`] order.
    pub fn debug_dump(&self) -> Vec<(u16, u32)> {
        debug_addresses().map(|a| (a, self.debug_read(a))).collect()
    }

    /// Appends the words of region `r` of [`debug_regions`] to `out`, one per address from
    /// `r.start` on, as [`RegFile::debug_read`] reads them, a whole array at a time: the
    /// final-state comparison of `pica fuzz --rtl` reads the whole map once per case, and the
    /// address search of `debug_read` for each of its 26,486 words cost more than the case.
    pub fn debug_region_words(&self, r: &DebugRegion, out: &mut Vec<u32>) {
        let len = usize::from(r.len);
        let table = |out: &mut Vec<u32>, words: &[u32]| {
            out.extend((0..len).map(|i| words.get(i).copied().unwrap_or(0)));
        };
        if r.start == 0 {
            return table(out, &self.regs);
        }
        if (LIGHTING..UNITS).contains(&r.start) {
            let t = usize::from(r.start - LIGHTING) / 0x100;
            return table(out, self.luts.lighting.get(t).map_or(&[], |t| &t[..]));
        }
        if r.start >= UNITS {
            let rel = r.start - UNITS;
            if let Some(unit) = self.units.get(usize::from(rel / UNIT_STRIDE)) {
                match rel % UNIT_STRIDE {
                    unit_off::CODE => return table(out, &unit.code),
                    unit_off::OPDESCS => return table(out, &unit.opdescs),
                    unit_off::FLOAT_UNIFORMS => {
                        let lanes = unit.float_uniforms.iter().flatten().map(|f| f.bits());
                        out.extend(lanes.chain(std::iter::repeat(0)).take(len));
                        return;
                    }
                    _ => {}
                }
            }
        }
        // The small regions: address by address.
        out.extend((r.start..r.start + r.len).map(|a| self.debug_read(a)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_state_compares_state_not_traffic() {
        let mut a = RegFile::default();
        a.write(regs::id::FOG_COLOR, 5);
        let copy = a.state_copy();
        assert!(a.same_state(&copy) && copy.same_state(&a));
        // The same value again: the same state.
        a.write(regs::id::FOG_COLOR, 5);
        assert!(a.same_state(&copy));
        // A code word: the unit's memory and the upload index change.
        a.write(regs::id::VSH_CODETRANSFER_DATA0, 7);
        assert!(!a.same_state(&copy));
        // Only the code memory differs (the index written back, the data register too).
        let (mut b, mut c) = (copy.state_copy(), copy.state_copy());
        for (rf, first) in [(&mut b, 7), (&mut c, 0)] {
            rf.write(regs::id::VSH_CODETRANSFER_DATA0, first);
            rf.write(regs::id::VSH_CODETRANSFER_DATA0, 0);
            rf.write(regs::id::VSH_CODETRANSFER_INDEX, 0);
        }
        assert_eq!(b.regs(), c.regs());
        assert!(
            !b.same_state(&c),
            "code words differ: {:?}",
            &b.units()[0].code[..2]
        );
    }

    #[test]
    fn debug_region_words_read_as_debug_read() {
        let mut rf = RegFile::default();
        // Words in every kind of region: registers, code and descriptors of two units, float
        // uniforms, a lighting LUT, the fog LUT, fixed attributes.
        let writes: &[(u16, u32)] = &[
            (regs::id::VSH_CODETRANSFER_INDEX, 5),
            (regs::id::VSH_CODETRANSFER_DATA0, 0x1234_5678),
            (regs::id::VSH_CODETRANSFER_DATA0, 0x9ABC_DEF0),
            (regs::id::GSH_OPDESCS_INDEX, 3),
            (regs::id::GSH_OPDESCS_DATA0, 0x00AB_CDEF),
            (regs::id::VSH_FLOATUNIFORM_INDEX, 0x8000_0002),
            (regs::id::VSH_FLOATUNIFORM_DATA0, 0x3F80_0000),
            (regs::id::VSH_FLOATUNIFORM_DATA0, 0xC000_0000),
            (regs::id::VSH_FLOATUNIFORM_DATA0, 0x7F80_0000),
            (regs::id::VSH_FLOATUNIFORM_DATA0, 0x0000_0001),
            (regs::id::LIGHTING_LUT_INDEX, 0x0000_0305),
            (regs::id::LIGHTING_LUT_DATA0, 0x0012_3456),
            (regs::id::FOG_LUT_INDEX, 7),
            (regs::id::FOG_LUT_DATA0, 0xFFFF_FFFF),
            (regs::id::FIXEDATTRIB_INDEX, 2),
            (regs::id::FIXEDATTRIB_DATA0, 0x1122_3344),
            (0x0123, 0xDEAD_BEEF),
        ];
        for &(id, value) in writes {
            rf.write(id, value);
        }
        let mut words = Vec::new();
        for r in debug_regions() {
            words.clear();
            rf.debug_region_words(r, &mut words);
            let want: Vec<u32> = (r.start..r.start + r.len)
                .map(|a| rf.debug_read(a))
                .collect();
            assert_eq!(words, want, "region {}", r.name);
        }
    }

    #[test]
    fn edge_probes_are_unmapped_and_touch_every_region() {
        let probes = edge_probes();
        let rf = RegFile::default();
        for &a in probes {
            assert!(describe(a).starts_with("unmapped"), "{a:#06x} is mapped");
            assert_eq!(rf.debug_read(a), 0);
        }
        // Every region that does not abut another has a probe on each open side.
        for r in debug_regions() {
            let end = r.start + r.len;
            let abuts = |a: u16| {
                debug_regions()
                    .iter()
                    .any(|o| o.start == a || o.start + o.len == a)
            };
            if !abuts(end) {
                assert!(probes.contains(&end), "no probe after {}", r.name);
            }
        }
        assert!(
            probes.contains(&0x0A30),
            "the fixed attributes end at 0xA2F"
        );
        assert!(probes.contains(&0x0480), "proctex noise ends at 0x47F");
        assert!(probes.contains(&0xC000), "the unit windows end at 0xBFFF");
    }

    #[test]
    fn debug_regions_do_not_overlap() {
        let mut spans: Vec<(u32, u32, &str)> = debug_regions()
            .iter()
            .map(|r| {
                (
                    u32::from(r.start),
                    u32::from(r.start) + u32::from(r.len),
                    r.name.as_str(),
                )
            })
            .collect();
        spans.sort();
        for w in spans.windows(2) {
            assert!(w[0].1 <= w[1].0, "{} overlaps {}", w[0].2, w[1].2);
        }
        // The last unit ends inside the 16-bit space.
        let last = spans.last().unwrap();
        assert!(last.1 <= 0x1_0000);
    }

    #[test]
    fn debug_describe_names_registers_and_uniforms() {
        assert_eq!(describe(0x2C0), "regs[0x2c0] GPUREG_VSH_FLOATUNIFORM_INDEX");
        assert_eq!(
            describe(UNITS + 2 * UNIT_STRIDE + 0x13),
            "unit2.code[0x013]"
        );
        assert_eq!(
            describe(UNITS + unit_off::FLOAT_UNIFORMS + 4 * 4 + 1),
            "unit0.float_uniforms[c4.y]"
        );
        assert_eq!(
            describe(UNITS + 3 * UNIT_STRIDE + 0x1305),
            "unit3.entry_point"
        );
        assert_eq!(describe(VSH_PACKER), "vsh_packer.count");
        assert_eq!(describe(0x0300), "unmapped 0x0300");
    }

    #[test]
    fn debug_read_reflects_state() {
        let mut rf = RegFile::new();
        let mut beats = Vec::new();
        let w = |id: u16, param: u32| crate::cp::RegWrite {
            id: u32::from(id),
            mask: 0xF,
            param,
        };
        rf.apply(0, w(regs::id::VSH_CODETRANSFER_INDEX, 5), &mut beats);
        rf.apply(
            1,
            w(regs::id::VSH_CODETRANSFER_DATA0, 0xDEAD_BEEF),
            &mut beats,
        );
        rf.apply(
            2,
            w(regs::id::VSH_FLOATUNIFORM_DATA0, 0x1234_5678),
            &mut beats,
        );
        for u in 0..4u16 {
            assert_eq!(rf.debug_read(UNITS + u * UNIT_STRIDE + 5), 0xDEAD_BEEF);
        }
        assert_eq!(rf.debug_read(VSH_PACKER), 1);
        assert_eq!(rf.debug_read(VSH_PACKER + 1), 0x1234_5678);
        assert_eq!(rf.debug_read(VSH_PACKER + 2), 0);
        assert_eq!(
            rf.debug_read(regs::id::VSH_CODETRANSFER_INDEX),
            6,
            "the index advanced"
        );
        assert_eq!(rf.debug_dump().len(), debug_addresses().count());
        // 0x300 registers, 896 proctex, 128 fog, 16 gas, 48 fixed-attribute words, 14 packer
        // words, 24 x 256 lighting, 4 x (4096 code + 128 opdescs + 384 uniform + 10 scalar).
        assert_eq!(debug_addresses().count(), 26_486);
    }
}
