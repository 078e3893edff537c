//! The lookup-table memories filled through the LUT FIFOs.

use super::hex_words;
use serde_json::{json, Value};

/// Entries of each procedural-texture table (seed 002 GPUREG_PROCTEX_LUT_DATAi): noise, RGB
/// map and alpha map hold 128 entries; colour and colour-difference tables 256.
pub const PROCTEX_SIZES: [usize; 5] = [128, 128, 128, 256, 256];
/// Fog LUT entries (seed 002 GPUREG_FOG_LUT_DATAi: 128 elements).
pub const FOG_ENTRIES: usize = 128;
/// Entries of each lighting LUT (seed 002 GPUREG_LIGHTING_LUT_DATAi: 256 entries).
pub const LIGHTING_ENTRIES: usize = 256;
/// Lighting LUT slots addressed by GPUREG_LIGHTING_LUT_INDEX bits 8-12.
///
/// UNVERIFIED(hw) [fact: regs-lut-slots]: 24 slots (values 0-23, including the unnamed 2 and 7, which store data like
/// the others); writes selecting 24-31 are dropped — model choice (Azahar keeps 24 tables).
pub const LIGHTING_TABLES: usize = 24;
/// Gas LUT entries (seed 002 GPUREG_GAS_LUT_DATA: 16 elements).
///
/// UNVERIFIED(hw) [fact: regs-lut-index-wrap]: the 16-bit index wraps modulo 16 — model choice.
pub const GAS_ENTRIES: usize = 16;

/// Bits kept of a fog LUT word (seed 002: `0-23 LUT data`).
pub const FOG_DATA_MASK: u32 = 0x00FF_FFFF;
/// Bits kept of a lighting LUT word (seed 002: `0-23 LUT data`).
pub const LIGHTING_DATA_MASK: u32 = 0x00FF_FFFF;

/// The contents of every LUT.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Luts {
    /// Proctex tables in GPUREG_PROCTEX_LUT order: noise, RGB map, alpha map, colour,
    /// colour difference.
    pub proctex: [Vec<u32>; 5],
    /// Fog LUT.
    pub fog: Vec<u32>,
    /// Lighting LUTs by table number (0 D0, 1 D1, 3 FR, 4 RB, 5 RG, 6 RR, 8-15 SP0-7,
    /// 16-23 DA0-7).
    pub lighting: Vec<Vec<u32>>,
    /// Gas LUT.
    pub gas: Vec<u32>,
}

impl Default for Luts {
    fn default() -> Self {
        Self {
            proctex: PROCTEX_SIZES.map(|n| vec![0; n]),
            fog: vec![0; FOG_ENTRIES],
            lighting: vec![vec![0; LIGHTING_ENTRIES]; LIGHTING_TABLES],
            gas: vec![0; GAS_ENTRIES],
        }
    }
}

impl Luts {
    /// Slot of a proctex table selector in [`Luts::proctex`], `None` for reserved selectors.
    pub fn proctex_slot(table: u32) -> Option<usize> {
        // Seed 002 GPUREG_PROCTEX_LUT: 0 noise, 2 RGB map, 3 alpha map, 4 colour, 5 colour diff.
        // UNVERIFIED(hw) [fact: regs-lut-slots]: writes with a reserved selector (1, 6-15) are dropped — model choice.
        match table {
            0 => Some(0),
            2..=5 => Some(table as usize - 1),
            _ => None,
        }
    }

    /// The LUTs as JSON (hex words).
    pub fn to_json(&self) -> Value {
        json!({
            "proctex": {
                "noise": hex_words(&self.proctex[0]),
                "rgb_map": hex_words(&self.proctex[1]),
                "alpha_map": hex_words(&self.proctex[2]),
                "color": hex_words(&self.proctex[3]),
                "color_diff": hex_words(&self.proctex[4]),
            },
            "fog": hex_words(&self.fog),
            "lighting": self.lighting.iter().map(|t| hex_words(t)).collect::<Vec<_>>(),
            "gas": hex_words(&self.gas),
        })
    }
}
