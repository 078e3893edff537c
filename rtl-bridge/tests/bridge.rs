//! The safe Rust API of the Verilator bridge: variants, reset state read through the debug
//! port, cycle numbering against the model, VCD tracing on and off.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_model::regfile::debug;
use pica_model::{Gpu, HangReason, Memory, Outcome};
use pica_rtl_bridge::{hang_code, Rtl, RtlError, RtlGpu, RtlOutcome, Variant};

const LIST: u32 = 0x2000_0000;

fn memory_with(words: &[u32]) -> Memory {
    let mut m = Memory::new();
    m.write_words(LIST, words).unwrap();
    m
}

#[test]
fn bridge_builds_every_variant() {
    for v in Variant::ALL {
        assert_eq!(Rtl::with_variant(v).unwrap().variant(), v);
        assert_eq!(Variant::from_name(v.name()), Some(v));
    }
    assert_eq!(Variant::from_name("mask"), Some(Variant::InjectMaskBug));
    assert_eq!(Variant::from_name("packer"), Some(Variant::InjectPackerBug));
    assert_eq!(
        Variant::from_name("inject-mask-bug"),
        Some(Variant::InjectMaskBug)
    );
    assert_eq!(Variant::from_name("nope"), None);
}

#[test]
fn bridge_empty_list_hangs_like_the_model_with_zero_state() {
    // A zero-size submission: the CP wants a word in cycle 0 and finds none.
    let mut gpu = Gpu::new(Memory::new());
    gpu.submit(LIST, 0).unwrap();
    let model = gpu.run(100);
    assert!(matches!(
        model,
        Outcome::Hang {
            cycle: 0,
            reason: HangReason::MissingFinalize { .. }
        }
    ));
    let mut rtl = RtlGpu::new(Rtl::new().unwrap(), Memory::new(), LIST, 0);
    assert_eq!(
        rtl.run(100),
        RtlOutcome::Hang {
            cycle: 0,
            code: hang_code::MISSING_FINALIZE
        }
    );
    // Power-on state: every word of the debug map is zero on both sides.
    let dump = rtl.debug_dump();
    assert_eq!(dump.len(), debug::debug_addresses().count());
    assert_eq!(dump, gpu.regs().debug_dump());
}

#[test]
fn bridge_cycles_and_beats_match_the_model() {
    // GPUREG_FOG_COLOR <- 0x600D600D, FINALIZE, padded to 16 bytes.
    let words = [0x600D_600D, 0x000F_00E1, 0x1234_5678, 0x000F_0010];
    let mut gpu = Gpu::new(memory_with(&words));
    gpu.submit(LIST, 16).unwrap();
    let model = gpu.run(100);
    let mut rtl = RtlGpu::new(Rtl::new().unwrap(), memory_with(&words), LIST, 16);
    let got = rtl.run(100);
    assert_eq!(model, Outcome::Finished { cycles: 5 });
    assert_eq!(got, RtlOutcome::Finished { cycles: 5 });
    assert_eq!(rtl.beats(), gpu.regwrite_beats());
    assert_eq!(
        rtl.beats()[0].cycle,
        2,
        "the header is read in cycle 1, applied in cycle 2"
    );
    // A settled view does not change when asked for twice within a cycle.
    assert_eq!(rtl.view(), rtl.view());
    let regs: Vec<u16> = (0..0x300).collect();
    let words = rtl.debug_read(&regs);
    assert_eq!(words[0xE1], 0x600D_600D);
    assert_eq!(words[0x10], 0x1234_5678);
}

/// Back-to-back writes of one register with different byte masks, queued in the CP->REGS FIFO
/// by a hold and then applied one per clock: each merges into the word the previous one wrote
/// in the clock before, which REGS' early register-RAM read (a clock ahead, pica_regs.sv) sees
/// only through its forwarding. The values and the final state are the model's (a hold moves
/// only the cycles), and the writes did come back to back.
#[test]
fn bridge_back_to_back_masked_writes_merge_into_the_previous_one() {
    // GPUREG_TEXENV0_COLOR (0x0C3: ID bits 0 and 1 set, plain storage) and GPUREG_FOG_COLOR
    // (0x0E1), one write per command (param, header), then FINALIZE, padded to 16 bytes.
    let writes: [(u32, u32, u32); 7] = [
        (0x0C3, 0xF, 0x1122_3344),
        (0x0C3, 0x1, 0xAABB_CCDD),
        (0x0C3, 0x6, 0x5566_7788),
        (0x0C3, 0x8, 0x9900_0000),
        (0x0E1, 0xF, 0x0102_0304),
        (0x0E1, 0xA, 0xF0E0_D0C0),
        (0x0E1, 0x5, 0x0B0A_0908),
    ];
    let mut words: Vec<u32> = writes
        .iter()
        .flat_map(|&(id, mask, param)| [param, id | (mask << 16)])
        .collect();
    words.extend([0x1234_5678, 0x000F_0010]);
    while words.len() % 4 != 0 {
        words.push(0);
    }
    let size = 4 * words.len() as u32;
    let mut gpu = Gpu::new(memory_with(&words));
    gpu.submit(LIST, size).unwrap();
    assert!(matches!(gpu.run(200), Outcome::Finished { .. }));
    let mut rtl = RtlGpu::new(Rtl::new().unwrap(), memory_with(&words), LIST, size);
    // Held until the FIFO is full (4 writes), then drained one write per clock.
    for _ in 0..12 {
        rtl.set_hold(true);
        rtl.clock();
    }
    rtl.set_hold(false);
    assert!(matches!(rtl.run(200), RtlOutcome::Finished { .. }));
    let strip = |b: &[pica_model::beat::RegWriteBeat]| -> Vec<(u32, u8, u32, u32)> {
        b.iter().map(|b| (b.id, b.mask, b.param, b.value)).collect()
    };
    assert_eq!(strip(rtl.beats()), strip(gpu.regwrite_beats()));
    assert_eq!(rtl.beats()[3].value, 0x9966_77DD);
    let b = rtl.beats();
    assert!(
        (1..4).all(|i| b[i].cycle == b[i - 1].cycle + 1),
        "the first four writes were applied back to back: {b:?}"
    );
    assert_eq!(rtl.debug_dump(), gpu.regs().debug_dump());
}

#[test]
fn bridge_traces_a_vcd_on_demand() {
    let path = std::env::temp_dir().join(format!("pica-bridge-{}.vcd", std::process::id()));
    let mut rtl = RtlGpu::new(Rtl::new().unwrap(), Memory::new(), LIST, 0);
    rtl.clock();
    rtl.rtl_mut().trace_vcd(&path).unwrap();
    assert!(rtl.rtl_mut().is_tracing());
    for _ in 0..4 {
        rtl.clock();
    }
    rtl.rtl_mut().trace_off();
    assert!(!rtl.rtl_mut().is_tracing());
    let vcd = std::fs::read_to_string(&path).unwrap();
    assert!(vcd.contains("$enddefinitions"));
    assert!(vcd.contains("clk_i") && vcd.contains("hang_o"));
    let _ = std::fs::remove_file(&path);
    let bad = std::path::Path::new("/no/such/dir/x.vcd");
    assert!(matches!(
        rtl.rtl_mut().trace_vcd(bad),
        Err(RtlError::Trace(_))
    ));
}

/// The coverage build counts its points as it runs, zeroes them on request and writes them as a
/// Verilator coverage file; a total over runs counts a point's first hit once; the other builds
/// count nothing, and an unwritable file is an error, not a stopped process.
#[test]
fn bridge_coverage_build_counts_zeroes_and_writes() {
    use pica_rtl_bridge::RtlCoverage;
    let mut rtl = Rtl::with_variant(Variant::FeCoverage).unwrap();
    assert_eq!(Variant::from_name("cov_fe"), Some(Variant::FeCoverage));
    rtl.reset();
    assert!(rtl.coverage().unwrap().iter().any(|&c| c > 0));
    rtl.coverage_zero();
    assert!(rtl.coverage().unwrap().iter().all(|&c| c == 0));
    rtl.clock();
    let after = rtl.coverage().unwrap();
    assert!(after.iter().any(|&c| c > 0), "a clock toggles clk_i");
    let mut total = RtlCoverage::new(Variant::FeCoverage).unwrap();
    assert_eq!(total.points(), after.len());
    let first = total.add(&mut rtl);
    assert_eq!(first, after.iter().filter(|&&c| c > 0).count());
    assert_eq!((total.add(&mut rtl), total.hit()), (0, first));

    let path = std::env::temp_dir().join(format!("pica-bridge-{}.dat", std::process::id()));
    total.write(&path).unwrap();
    let dat = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(dat.starts_with("# SystemC::Coverage-3"));
    let hit_lines = dat
        .lines()
        .filter(|l| l.starts_with("C '") && !l.ends_with("' 0"))
        .count();
    assert!(hit_lines >= first.min(1) && dat.contains("TOP.pica_top.u_cp"));
    let bad = std::path::Path::new("/no/such/dir/x.dat");
    assert!(matches!(total.write(bad), Err(RtlError::CoverageWrite(..))));

    let mut plain = Rtl::new().unwrap();
    assert!(plain.coverage().is_none());
    assert!(matches!(
        plain.write_coverage(bad),
        Err(RtlError::NoCoverage(_))
    ));
    assert!(RtlCoverage::new(Variant::Default).is_err());
}

/// A report names the defines a default build took from `PICA_RTL_DEFINES` (issue 19: a run
/// with `PICA_RTL_DEFINES=INJECT_MASK_BUG` used to say "RTL variant default").
#[test]
fn variant_label_names_the_defines_of_a_default_build() {
    assert_eq!(Variant::Default.label_with(""), "default");
    assert_eq!(Variant::Default.label_with(" "), "default");
    assert_eq!(
        Variant::Default.label_with("INJECT_MASK_BUG"),
        "default[INJECT_MASK_BUG]"
    );
    assert_eq!(Variant::Default.label_with("A, B C"), "default[A,B,C]");
    // The bug variants are their own builds: their names say what they are.
    assert_eq!(Variant::InjectMaskBug.label_with("X"), "inject_mask_bug");
    // This build's label agrees with the defines it was built with.
    let d = pica_rtl_bridge::default_defines();
    let want = if d.trim().is_empty() {
        "default".to_string()
    } else {
        Variant::Default.label_with(&d)
    };
    assert_eq!(Variant::Default.label(), want);
}
