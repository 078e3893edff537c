//! The vertex-shader output map: which output register component carries which fixed-function
//! semantic (seed 002 GPUREG_SH_OUTMAP_Oi), derived from a shader's `.out` table the way a
//! driver derives it.

use pica_model::regs::ShOutmapSemantic;
use pica_model::shader::shbin::Dvle;

/// The most output registers the output map can describe (GPUREG_SH_OUTMAP_O0-O6).
pub const MAX_OUTMAP_SLOTS: usize = 7;

/// The raw semantic of an unused component (seed 002 GPUREG_SH_OUTMAP_Oi: 0x1F).
pub const UNUSED: u32 = 0x1F;

/// One output-map slot: an output register and the semantic of each of its components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutSlot {
    /// The shader output register `o<reg>` (0-15).
    pub reg: u8,
    /// Semantics of components x, y, z, w.
    pub semantics: [ShOutmapSemantic; 4],
}

impl OutSlot {
    /// The GPUREG_SH_OUTMAP_Oi word of this slot.
    pub fn word(&self) -> u32 {
        pica_model::regs::ShOutmapO(0)
            .with_x(self.semantics[0])
            .with_y(self.semantics[1])
            .with_z(self.semantics[2])
            .with_w(self.semantics[3])
            .0
    }

    /// Whether any component carries a semantic in `range` (raw values).
    fn has(&self, range: core::ops::RangeInclusive<u32>) -> bool {
        self.semantics.iter().any(|s| range.contains(&s.bits()))
    }
}

/// An output map: slots in output-register order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct OutMap {
    /// The slots; slot `i` describes the `i`-th enabled output register.
    pub slots: Vec<OutSlot>,
}

/// Why a shader's outputs do not fit the output map.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OutMapError {
    /// More than seven output registers carry semantics.
    #[error("{0} output registers are used; the output map has 7 slots")]
    TooManyRegisters(usize),
    /// An output register number beyond o15.
    #[error("output register o{0} does not exist")]
    BadRegister(u16),
}

/// The raw output-map semantics of a picasso output type (`.out NAME TYPE`; picasso
/// `OUTTYPE_*` numbers, see [`pica_model::shader::shbin::OUTPUT_SEMANTICS`]), assigned in order
/// to the components the `.out` mask enables. The table is citro3d/libctru's
/// (`shaderProgramSetVsh` output-map construction): position, normal quaternion and colour take
/// four consecutive semantics, texcoord0 / texcoord1 / texcoord2 two (u, v), texcoord0w one,
/// view three; `dummy` and unknown types leave the components unused.
fn semantics_of(out_type: u16) -> &'static [u32] {
    match out_type {
        0 => &[0x00, 0x01, 0x02, 0x03], // position
        1 => &[0x04, 0x05, 0x06, 0x07], // normalquat
        2 => &[0x08, 0x09, 0x0A, 0x0B], // color
        3 => &[0x0C, 0x0D],             // texcoord0
        4 => &[0x10],                   // texcoord0w
        5 => &[0x0E, 0x0F],             // texcoord1
        6 => &[0x16, 0x17],             // texcoord2
        8 => &[0x12, 0x13, 0x14],       // view
        _ => &[],
    }
}

impl OutMap {
    /// The output map of a shader executable: one slot per output register its `.out` table
    /// names (ascending register order), each component's semantic taken from the output
    /// entries covering it; components no entry covers are [`UNUSED`].
    pub fn from_dvle(dvle: &Dvle) -> Result<Self, OutMapError> {
        let mut regs: Vec<u16> = dvle.outputs.iter().map(|o| o.reg).collect();
        regs.sort_unstable();
        regs.dedup();
        if let Some(&r) = regs.iter().find(|&&r| r > 15) {
            return Err(OutMapError::BadRegister(r));
        }
        if regs.len() > MAX_OUTMAP_SLOTS {
            return Err(OutMapError::TooManyRegisters(regs.len()));
        }
        let slots = regs
            .iter()
            .map(|&reg| {
                let mut sem = [UNUSED; 4];
                for out in dvle.outputs_of(reg) {
                    let mut next = semantics_of(out.semantic).iter();
                    for (c, s) in sem.iter_mut().enumerate() {
                        if out.mask & (1 << c) != 0 {
                            if let Some(&v) = next.next() {
                                *s = v;
                            }
                        }
                    }
                }
                OutSlot {
                    reg: reg as u8,
                    semantics: sem.map(ShOutmapSemantic::from_bits),
                }
            })
            .collect();
        Ok(Self { slots })
    }

    /// The number of slots (GPUREG_SH_OUTMAP_TOTAL).
    pub fn total(&self) -> u32 {
        self.slots.len() as u32
    }

    /// GPUREG_VSH_OUTMAP_MASK bits 0-15: the enabled output registers.
    pub fn register_mask(&self) -> u32 {
        self.slots.iter().fold(0, |m, s| m | (1u32 << (s.reg & 15)))
    }

    /// The GPUREG_SH_OUTMAP_O0-O6 words (slots beyond the map all [`UNUSED`]).
    pub fn words(&self) -> [u32; MAX_OUTMAP_SLOTS] {
        let mut w = [0x1F1F_1F1F; MAX_OUTMAP_SLOTS];
        for (dst, s) in w.iter_mut().zip(&self.slots) {
            *dst = s.word();
        }
        w
    }

    /// The GPUREG_SH_OUTATTR_CLOCK word: which attribute groups the map carries (seed 002
    /// GPUREG_SH_OUTATTR_CLOCK; citro3d computes it from the same output map).
    pub fn clock(&self) -> u32 {
        let any = |r: core::ops::RangeInclusive<u32>| self.slots.iter().any(|s| s.has(r.clone()));
        pica_model::regs::ShOutattrClock(0)
            .with_position_z_present(any(0x02..=0x02))
            .with_color_present(any(0x08..=0x0B))
            .with_texcoord0_present(any(0x0C..=0x0D))
            .with_texcoord1_present(any(0x0E..=0x0F))
            .with_texcoord2_present(any(0x16..=0x17))
            .with_texcoord0_w_present(any(0x10..=0x10))
            .with_normquat_or_view_present(any(0x04..=0x07) || any(0x12..=0x14))
            .0
    }

    /// GPUREG_SH_OUTATTR_MODE bit 0: whether any texture coordinate is output.
    pub fn uses_texcoords(&self) -> bool {
        self.slots
            .iter()
            .any(|s| s.has(0x0C..=0x10) || s.has(0x16..=0x17))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pica_model::shader::shbin::Output;

    fn out(semantic: u16, reg: u16, mask: u16) -> Output {
        Output {
            semantic,
            reg,
            mask,
            unknown: 0,
        }
    }

    #[test]
    fn outmap_from_outputs_in_register_order() {
        let dvle = Dvle {
            outputs: vec![
                out(2, 1, 0xF), // color -> o1
                out(0, 0, 0xF), // position -> o0
                out(3, 2, 0x3), // texcoord0 -> o2.xy
                out(4, 2, 0x4), // texcoord0w -> o2.z
                out(8, 5, 0x7), // view -> o5.xyz
            ],
            ..Dvle::default()
        };
        let m = OutMap::from_dvle(&dvle).unwrap();
        assert_eq!(m.total(), 4);
        assert_eq!(m.register_mask(), 0b10_0111);
        assert_eq!(
            m.words(),
            [
                0x0302_0100,
                0x0B0A_0908,
                0x1F10_0D0C,
                0x1F14_1312,
                0x1F1F_1F1F,
                0x1F1F_1F1F,
                0x1F1F_1F1F
            ]
        );
        // position z, colour, texcoord0, texcoord0.w, view
        assert_eq!(m.clock(), 0x0101_0103);
        assert!(m.uses_texcoords());
    }

    #[test]
    fn outmap_rejects_eight_registers() {
        let dvle = Dvle {
            outputs: (0..8).map(|r| out(2, r, 0xF)).collect(),
            ..Dvle::default()
        };
        assert_eq!(
            OutMap::from_dvle(&dvle),
            Err(OutMapError::TooManyRegisters(8))
        );
    }
}
