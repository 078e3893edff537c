//! The front-end mutant model (build.rs "Mutant models"): one Verilator build of Yosys'
//! mutants of `pica_top` (`EnableSh = 0`), the mutant chosen at run time through `mutsel`.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::regs::id;
use pica_model::{Gpu, Memory};
use pica_rtl_bridge::mutants::{self, FE_MODEL};
use pica_rtl_bridge::{Rtl, RtlError, RtlGpu, Variant};

const LIST: u32 = 0x2000_0000;

/// A list writing one register, then FINALIZE (the 16-byte rule: four words).
fn list() -> Memory {
    let mut m = Memory::new();
    let header = |reg: u16| u32::from(reg) | (0xF << 16);
    m.write_words(
        LIST,
        &[
            0x1234_5678,
            header(id::VSH_BOOLUNIFORM),
            1,
            header(id::FINALIZE),
        ],
    )
    .unwrap();
    m
}

#[test]
fn mutants_fe_model_has_its_list_and_mutant_zero_is_the_design() {
    let list_of = mutants::fe_mutations().unwrap();
    if list_of.is_empty() {
        // Built without Yosys (a warning at build time): nothing else to check.
        assert!(matches!(
            Rtl::with_variant(Variant::FeMutant(0)),
            Err(RtlError::MissingVariant(FE_MODEL, _))
        ));
        return;
    }
    assert_eq!(list_of.len(), 256);
    assert_eq!(Variant::from_name("fe_mut#7"), Some(Variant::FeMutant(7)));
    assert_eq!(Variant::FeMutant(7).label(), "fe_mut#7");
    assert!(!Variant::FeMutant(7).has_direct_state());
    assert!(Variant::Default.has_direct_state());

    let mut gpu = Gpu::new(list());
    gpu.submit(LIST, 16).unwrap();
    gpu.set_pipeline(false);
    let _ = gpu.run(200);
    let want: Vec<_> = gpu.regwrite_beats().to_vec();
    // mutsel 0: the netlist as Yosys read the RTL, beat for beat and word for word.
    let mut rtl = RtlGpu::new(
        Rtl::with_variant(Variant::FeMutant(0)).unwrap(),
        list(),
        LIST,
        16,
    );
    let _ = rtl.run(200);
    assert_eq!(rtl.beats(), &want[..]);
    assert_eq!(rtl.debug_dump(), gpu.regs().debug_dump());
}

/// The mutants a stage's notes call "SAT-proved (scripts/mutant-equiv STAGE K, instance …)",
/// proved again on this build's netlist (the instance proofs take about half a second each;
/// the cone proofs, up to minutes, are left to the script). A note whose key is not in this
/// build's sample (an RTL edit re-drew it) is skipped. The negative control: a mutant that
/// inverts a bit of a combinationally driven output (`*_o`) must not be proved.
#[test]
fn mutants_sat_proofs_in_the_notes_hold() {
    use std::process::Command;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for m in mutants::MODELS {
        let (Some(dir), Ok(list)) = (m.netlist_dir(), m.mutations()) else {
            continue;
        };
        let notes = root.join(format!("rtl-bridge/mutants/{}.notes", m.name));
        let Ok(text) = std::fs::read_to_string(&notes) else {
            continue;
        };
        let marker = format!("SAT-proved (scripts/mutant-equiv {} ", m.stage);
        let mut proved: Vec<u16> = Vec::new();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let Some(key) = line.split(" | ").next() else {
                continue;
            };
            let Some(at) = line.find(&marker) else {
                continue;
            };
            if !line[at..].contains(", instance ") {
                continue;
            }
            if let Some(mu) = list.iter().find(|mu| mu.key() == key.trim()) {
                proved.push(mu.index);
            }
        }
        let control = list.iter().find(|mu| {
            mu.mode == "inv"
                && mu.port != "Q"
                && mu.wire.as_ref().is_some_and(|(w, _)| w.ends_with("_o"))
        });
        let run = |ks: &[u16]| {
            let arg: Vec<String> = ks.iter().map(u16::to_string).collect();
            let out = Command::new("python3")
                .arg(root.join("scripts/mutant-equiv"))
                .args([m.stage, &arg.join(","), "--dir", dir])
                .output()
                .expect("python3 scripts/mutant-equiv");
            let log = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            (out.status.code(), log)
        };
        if !proved.is_empty() {
            let (code, log) = run(&proved);
            assert_eq!(
                code,
                Some(0),
                "{}: proofs in the notes no longer hold:\n{log}",
                m.name
            );
            assert_eq!(log.matches(" PASS ").count(), proved.len(), "{log}");
        }
        if let Some(c) = control {
            let (code, log) = run(&[c.index]);
            assert_eq!(
                code,
                Some(1),
                "{}: #{} proved equivalent:\n{log}",
                m.name,
                c.index
            );
            assert!(log.contains(" FAIL "), "{log}");
        }
    }
}
