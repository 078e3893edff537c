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
