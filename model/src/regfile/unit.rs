//! The configuration each of the four shader units holds.

use crate::num::F24;

/// Words of shader code memory per unit.
///
/// UNVERIFIED(hw) [fact: regs-shader-upload-sizes]: 4096 words, the reach of the 12-bit GPUREG_SH_CODETRANSFER_INDEX — seed 002
/// and pica-facts §1 (real programs stay under 512 instructions).
pub const CODE_WORDS: usize = 4096;

/// Operand-descriptor entries per unit.
///
/// UNVERIFIED(hw) [fact: regs-shader-upload-sizes]: 128 entries (7-bit descriptor index of the instruction formats; pica-facts
/// §1). Writes at an index of 128 or more are dropped while the index still advances.
pub const OPDESC_ENTRIES: usize = 128;

/// Float uniforms c0–c95 (seed 002 GPUREG_SH_FLOATUNIFORM_INDEX: range 0-95).
pub const FLOAT_UNIFORMS: usize = 96;

/// Number of shader units (pica-facts §1).
pub const NUM_UNITS: usize = 4;

/// The unit that runs the geometry shader when it is in use, and takes the GSH block's
/// configuration (pica-facts §1).
pub const GS_UNIT: usize = 3;

/// Everything a register write can set in one shader unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitConfig {
    /// Program code memory.
    pub code: Box<[u32]>,
    /// Operand-descriptor memory.
    pub opdescs: Box<[u32]>,
    /// Float uniforms c0–c95 as `[x, y, z, w]`.
    pub float_uniforms: Box<[[F24; 4]]>,
    /// Integer uniforms i0–i3 as `[x, y, z, w]` (x = count, y = start, z = step).
    pub int_uniforms: [[u8; 4]; 4],
    /// Bool uniforms b0–b15, bit n = bn.
    pub bool_uniforms: u16,
    /// Entry point in words (GPUREG_xSH_ENTRYPOINT bits 0-15).
    pub entry_point: u16,
    /// Output register enable mask (GPUREG_xSH_OUTMAP_MASK bits 0-15).
    pub outmap_mask: u16,
    /// Raw GPUREG_xSH_INPUTBUFFER_CONFIG.
    pub input_config: u32,
    /// Input permutation: GPUREG_xSH_ATTRIBUTES_PERMUTATION_HIGH:LOW.
    pub permutation: u64,
}

impl Default for UnitConfig {
    fn default() -> Self {
        Self {
            code: vec![0; CODE_WORDS].into_boxed_slice(),
            opdescs: vec![0; OPDESC_ENTRIES].into_boxed_slice(),
            float_uniforms: vec![[F24::from_bits(0); 4]; FLOAT_UNIFORMS].into_boxed_slice(),
            int_uniforms: [[0; 4]; 4],
            bool_uniforms: 0,
            entry_point: 0,
            outmap_mask: 0,
            input_config: 0,
            permutation: 0,
        }
    }
}

impl UnitConfig {
    /// The state as JSON, every number as a hex string (the `pica run --regs-json` layout).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "code": super::hex_words(&self.code),
            "opdescs": super::hex_words(&self.opdescs),
            // F24 serializes as its zero-padded hex bits ("0x3f0000").
            "float_uniforms": self.float_uniforms,
            "int_uniforms": self.int_uniforms.iter()
                .map(|v| v.iter().map(|c| format!("0x{c:02x}")).collect::<Vec<_>>())
                .collect::<Vec<_>>(),
            // Small scalars as plain numbers (bit n of bool_uniforms = bn), as the issue's
            // layout gives them; 32/64-bit words as hex strings like the register array.
            "bool_uniforms": self.bool_uniforms,
            "entry_point": self.entry_point,
            "outmap_mask": self.outmap_mask,
            "input_config": format!("0x{:08x}", self.input_config),
            "permutation": format!("0x{:016x}", self.permutation),
        })
    }
}
