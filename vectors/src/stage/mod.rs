//! Stage bundles (design.md "Stage bundles"): one stage's register writes, input stream,
//! memories and expected output beats, replayable on that stage's RTL alone in a plain
//! SystemVerilog testbench.
//!
//! [`bundle`] is the one writer and reader: manifest (format, version, `kind`, provenance, the
//! packing of every file, SHA-256 of every other file), `$readmemh`-ready files and their
//! `.jsonl` mirrors, and reading all of it back with errors naming file and line. Each stage
//! module brings only what is its own — its case type, the model run, its record layouts and
//! its checks:
//!
//! | module | `kind` | RTL top |
//! |---|---|---|
//! | [`shader_unit`] | `stage:shader_unit` | `pica_sh_unit_top` |
//! | [`tev`] | `stage:tev` | `pica_tev_top` |
//! | [`fop`] | `stage:fop` | `pica_fop_top` |
//! | [`rast`] | `stage:rast` | `pica_rast_top` |
//! | [`tex`] | `stage:tex` | `pica_tex_top` |
//!
//! The shader unit's items are also here (`pica_vectors::stage::write_shader_bundle`), as
//! they were before the stages shared a module; the other stages are also
//! `pica_vectors::stage_tev`, `stage_fop` and `stage_rast`.

pub mod bundle;
pub mod fop;
pub mod rast;
pub mod shader_unit;
pub mod tev;
pub mod tex;

pub use bundle::{bundle_kind, manifest_knobs, BundleError, StageProvenance};
pub use shader_unit::*;

/// An ID one bit away from a register a stage decodes: one of `decoded` (chosen by the low bits
/// of `bits`) with one of its ten bits flipped (chosen by the next bits), unless that lands on
/// another decoded ID (then `None`). The stage must ignore a write there, and only a decoder
/// that compares every ID bit does: a mutant that drops one bit of an ID compare (0x263 taken
/// for GPUREG_EARLYDEPTH_CLEAR 0x063, 0x0C8 for 0x048) survived the rast generator's fixed list
/// of ignored IDs (`rtl-bridge/mutants/rast_mut.notes`, #77 and #211).
pub(crate) fn aliasing_id(decoded: &[u16], bits: u64) -> Option<u16> {
    let n = decoded.len() as u64;
    if n == 0 {
        return None;
    }
    one_bit_alias(
        decoded,
        decoded[(bits % n) as usize],
        ((bits / n) % 10) as u32,
    )
}

/// `base` (10 bits) with bit `bit` flipped, unless that is one of `decoded` (then `None`): the
/// one rule of [`aliasing_id`] and of the rast generator's storm of every such ID.
pub(crate) fn one_bit_alias(decoded: &[u16], base: u16, bit: u32) -> Option<u16> {
    let id = (base & 0x3FF) ^ (1 << bit);
    (!decoded.iter().any(|&d| d & 0x3FF == id)).then_some(id)
}

/// Every one-bit alias of every ID of `decoded` ([`one_bit_alias`]), in the order of `decoded`
/// and then of the bit: what the generators' alias storms write (`RastGen::alias_storm`,
/// `FopGen::case`), one random value each.
pub(crate) fn one_bit_aliases(decoded: &[u16]) -> Vec<u16> {
    decoded
        .iter()
        .flat_map(|&d| (0..10).filter_map(move |bit| one_bit_alias(decoded, d, bit)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::aliasing_id;

    #[test]
    fn aliasing_ids_are_one_bit_from_a_decoded_id_and_never_decoded() {
        let decoded = [0x063u16, 0x048, 0x049];
        let mut seen = std::collections::BTreeSet::new();
        for bits in 0..3 * 10 {
            match aliasing_id(&decoded, bits) {
                Some(id) => {
                    assert!(!decoded.contains(&id), "{id:#05x} is decoded");
                    assert!(
                        decoded.iter().any(|&d| (d ^ id).count_ones() == 1),
                        "{id:#05x} is not one bit from a decoded ID"
                    );
                    seen.insert(id);
                }
                // 0x048 ^ 1 and 0x049 ^ 1 are each other.
                None => assert!(matches!(bits, 1 | 2)),
            }
        }
        // Both mutants' IDs are among them.
        assert!(seen.contains(&0x263) && seen.contains(&0x0C8), "{seen:x?}");
        assert_eq!(seen.len(), 28);
    }
}
