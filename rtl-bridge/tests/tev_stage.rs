//! The TEV-stage RTL (`pica_tev_top`, [`RtlTev`]) against the model's `tev::combine`: random
//! combiner configurations (from [`TevGen`], seeded, biased to every source, operand, combine
//! mode, scale and buffer-update bit, with reserved encodings and junk in unused bits) times
//! random fragments, compared bit for bit — the final colour and, per stage, the stage output
//! and the combiner buffer (the model's `combiner` beats) — in order, under output
//! backpressure. Each injected-bug variant must be caught; the SV replay testbench must pass a
//! TEV stage bundle (`pica_vectors::stage_tev`) of the same kind of cases under Icarus.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use pica_rtl_bridge::tev_stage::{
    cfg_id, model_combine, model_regs, RtlTev, TevFragment, TevGen, TevResult, TevVariant, NUM_CFG,
};
use pica_vectors::stage::StageProvenance;
use pica_vectors::stage_tev::{tev_reg_id, write_tev_bundle, TevCase, TevOp};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Fragments per configuration.
const FRAGS_PER_CFG: u32 = 8;

/// A mismatch: which configuration, which fragment, and what differed.
fn describe(cfg: &[u32; NUM_CFG], f: &TevFragment, want: &TevResult, got: &TevResult) -> String {
    let mut s = String::from("config:");
    for (slot, w) in cfg.iter().enumerate() {
        s.push_str(&format!(" {:03x}={w:08x}", cfg_id(slot)));
    }
    s.push_str(&format!("\ninputs: {:?}\n", f.inputs));
    for (i, (w, g)) in want.out.stages.iter().zip(&got.out.stages).enumerate() {
        if w != g {
            s.push_str(&format!(
                "first differing stage {i}: model {w:?} rtl {g:?}\n"
            ));
            break;
        }
    }
    s.push_str(&format!(
        "model {:?} tag {:#x}\nrtl   {:?} tag {:#x}",
        want.out, want.tag, got.out, got.tag
    ));
    s
}

/// Runs `n_cfg` random configurations of `FRAGS_PER_CFG` fragments each through `variant` and
/// the model; the first mismatch as (configuration index, description), if any. The output
/// port's ready follows the generator (about one clock in four held), so stalls are covered.
fn campaign(variant: TevVariant, seed: u64, n_cfg: u32) -> Option<(u32, String)> {
    let mut rtl = RtlTev::new(variant).unwrap();
    let mut gen = TevGen::new(seed);
    let mut tag = 0u32;
    for c in 0..n_cfg {
        let cfg = gen.config();
        rtl.set_config(&cfg);
        let regs = model_regs(&cfg);
        let frags: Vec<TevFragment> = (0..FRAGS_PER_CFG)
            .map(|_| {
                tag = tag.wrapping_add(1);
                gen.fragment(tag)
            })
            .collect();
        for f in &frags {
            rtl.push(*f);
        }
        let mut got = Vec::new();
        let mut guard = 0;
        while got.len() < frags.len() && guard < 1000 {
            let ready = gen.below(4) != 0;
            if let Some(r) = rtl.tick(ready) {
                got.push(r);
            }
            guard += 1;
        }
        if got.len() != frags.len() {
            return Some((
                c,
                format!("{} of {} results came out", got.len(), frags.len()),
            ));
        }
        for (f, g) in frags.iter().zip(&got) {
            let want = model_combine(&regs, f);
            if want != *g {
                return Some((c, describe(&cfg, f, &want, g)));
            }
        }
    }
    None
}

#[test]
fn tev_random_configs_match_the_model() {
    // 6,000 configurations × 8 fragments = 48,000 fragments, 288,000 stage results.
    let t = std::time::Instant::now();
    if let Some((c, msg)) = campaign(TevVariant::Default, 0x7E5_0001, 6000) {
        panic!("configuration {c}: RTL differs from the model\n{msg}");
    }
    let s = t.elapsed().as_secs_f64();
    eprintln!(
        "6000 configurations, {} fragments in {s:.2} s ({:.0} fragments/s, RTL and model)",
        6000 * FRAGS_PER_CFG,
        f64::from(6000 * FRAGS_PER_CFG) / s
    );
}

#[test]
fn tev_random_configs_cover_every_field_value() {
    // The generator's bias, checked: every source (including reserved 7-12), RGB operand,
    // alpha operand, combine mode (including reserved 10-15), scale and buffer-update bit
    // value turns up in every stage within the campaign's first 2,000 configurations.
    let mut gen = TevGen::new(0x7E5_0001);
    let mut src = [[false; 16]; 6];
    let mut rop = [[false; 16]; 6];
    let mut aop = [[false; 8]; 6];
    let mut mode = [[[false; 16]; 2]; 6];
    let mut scale = [[[false; 4]; 2]; 6];
    let mut upd = [[false; 2]; 8];
    for _ in 0..2000 {
        let w = gen.config();
        for s in 0..6 {
            let b = 5 * s;
            for sh in [0, 4, 8, 16, 20, 24] {
                src[s][(w[b] >> sh & 0xF) as usize] = true;
            }
            for sh in [0, 4, 8] {
                rop[s][(w[b + 1] >> sh & 0xF) as usize] = true;
            }
            for sh in [12, 16, 20] {
                aop[s][(w[b + 1] >> sh & 7) as usize] = true;
            }
            mode[s][0][(w[b + 2] & 0xF) as usize] = true;
            mode[s][1][(w[b + 2] >> 16 & 0xF) as usize] = true;
            scale[s][0][(w[b + 4] & 3) as usize] = true;
            scale[s][1][(w[b + 4] >> 16 & 3) as usize] = true;
        }
        for (bit, seen) in upd.iter_mut().enumerate() {
            seen[(w[30] >> (8 + bit) & 1) as usize] = true;
        }
    }
    let all = |v: &[bool]| v.iter().all(|&b| b);
    for s in 0..6 {
        assert!(all(&src[s]), "stage {s}: a source value never generated");
        assert!(all(&rop[s]), "stage {s}: an RGB operand never generated");
        assert!(all(&aop[s]), "stage {s}: an alpha operand never generated");
        assert!(
            all(&mode[s][0]) && all(&mode[s][1]),
            "stage {s}: a mode never generated"
        );
        assert!(
            all(&scale[s][0]) && all(&scale[s][1]),
            "stage {s}: a scale never generated"
        );
    }
    assert!(
        upd.iter().all(|u| all(u)),
        "an UPDATE_BUFFER bit value never generated"
    );
}

#[test]
fn tev_directed_edges_match_the_model() {
    // Stage-0 quirks (previous = primary colour, previous buffer = 0), DOT3_RGBA overriding
    // alpha with the alpha scale, every UPDATE_BUFFER pattern with the buffer colour, and a
    // 4x scale that saturates.
    let mut rtl = RtlTev::new(TevVariant::Default).unwrap();
    let mut gen = TevGen::new(5);
    let mut cases: Vec<[u32; NUM_CFG]> = Vec::new();
    for upd in 0..256u32 {
        let mut w = [0u32; NUM_CFG];
        for s in 0..6 {
            // RGB: ADD(previous, previous buffer); alpha: SUBTRACT(previous, previous buffer).
            w[5 * s] = 0xF | 0xD << 4 | 0xF << 16 | 0xD << 20;
            w[5 * s + 2] = 2 | 5 << 16;
            w[5 * s + 4] = ((upd + s as u32) % 3) | ((upd % 4) << 16);
        }
        w[30] = upd << 8;
        w[31] = 0x8040_2010;
        cases.push(w);
    }
    // DOT3_RGBA in every stage with every scale.
    for sc in 0..16u32 {
        let mut w = [0u32; NUM_CFG];
        for s in 0..6 {
            w[5 * s] = 0x3 | 0x4 << 4 | 0xF0F << 16;
            w[5 * s + 2] = 7 | 9 << 16;
            w[5 * s + 4] = sc & 3 | (sc >> 2) << 16;
        }
        cases.push(w);
    }
    for cfg in &cases {
        rtl.set_config(cfg);
        let regs = model_regs(cfg);
        let frags: Vec<TevFragment> = (0..4).map(|t| gen.fragment(t)).collect();
        let got = rtl.run(&frags);
        assert_eq!(got.len(), frags.len());
        for (f, g) in frags.iter().zip(&got) {
            let want = model_combine(&regs, f);
            assert!(want == *g, "{}", describe(cfg, f, &want, g));
        }
    }
}

#[test]
fn tev_output_held_long_loses_and_reorders_nothing() {
    // The pipeline never stalls: with the output held, fragments pile up in the skid FIFO
    // until the credits (32) run out and the input port stops taking them. Hold it for far
    // longer than the pipeline is deep with more fragments queued than there are credits,
    // then release it: every result comes out, in order, equal to the model's, and idle_o
    // agreed with the fragments in flight throughout.
    let mut rtl = RtlTev::new(TevVariant::Default).unwrap();
    let mut gen = TevGen::new(0x7E5_0003);
    for round in 0..4 {
        let cfg = gen.config();
        rtl.set_config(&cfg);
        let regs = model_regs(&cfg);
        let frags: Vec<TevFragment> = (0..100).map(|t| gen.fragment(t)).collect();
        for f in &frags {
            rtl.push(*f);
        }
        for clock in 0..300 {
            assert!(
                rtl.tick(false).is_none(),
                "round {round}: a result left a held port at {clock}"
            );
        }
        let mut got = Vec::new();
        let mut guard = 0;
        while got.len() < frags.len() && guard < 2000 {
            // After the first release, the ready alternates in bursts (the FIFO drains while
            // the pipeline refills it).
            if let Some(r) = rtl.tick(guard % 7 < 4) {
                got.push(r);
            }
            guard += 1;
        }
        assert_eq!(got.len(), frags.len(), "round {round}");
        for (f, g) in frags.iter().zip(&got) {
            let want = model_combine(&regs, f);
            assert!(want == *g, "round {round}: {}", describe(&cfg, f, &want, g));
        }
        assert_eq!(rtl.take_idle_mismatch(), None, "round {round}");
    }
}

#[test]
fn tev_random_catches_every_injected_bug() {
    for variant in [TevVariant::InjectScaleSat, TevVariant::InjectBuffer] {
        let found = campaign(variant, 0x7E5_0001, 2000);
        let Some((c, msg)) = found else {
            panic!("{} not caught in 2,000 configurations", variant.name());
        };
        eprintln!("{} caught at configuration {c}:\n{msg}", variant.name());
    }
}

/// The workspace target directory (CARGO_TARGET_DIR or `<workspace>/target`).
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"))
}

/// Writes a TEV stage bundle of `n_cfg` random configurations (`FRAGS_PER_CFG` fragments each)
/// into `dir`; returns (operations, combiner beats).
fn write_vectors(dir: &Path, seed: u64, n_cfg: u32) -> (usize, usize) {
    let mut gen = TevGen::new(seed);
    let mut ops = Vec::new();
    let mut shadow = [0u32; NUM_CFG];
    for _ in 0..n_cfg {
        let cfg = gen.config();
        for (slot, (&w, s)) in cfg.iter().zip(shadow.iter_mut()).enumerate() {
            if w != *s {
                assert_eq!(tev_reg_id(slot), cfg_id(slot));
                ops.push(TevOp::Reg {
                    id: cfg_id(slot),
                    value: w,
                });
                *s = w;
            }
        }
        for i in 0..FRAGS_PER_CFG {
            let f = gen.fragment(0);
            ops.push(TevOp::Frag {
                x: i as u16,
                y: ops.len() as u16,
                inputs: f.inputs,
            });
        }
    }
    let case = TevCase {
        ops,
        knobs: Default::default(),
    };
    let prov = StageProvenance {
        generator: "tests/tev_stage.rs".into(),
        ..StageProvenance::default()
    };
    let m = write_tev_bundle(
        dir,
        "tev_replay",
        "random configurations",
        &case,
        &[],
        &prov,
    )
    .unwrap();
    (
        case.ops.len(),
        m["streams"][0]["beats"].as_u64().unwrap() as usize,
    )
}

#[test]
fn tev_replay_tb_passes_under_icarus() {
    let found = Command::new("sh")
        .args(["-c", "command -v iverilog"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "iverilog is not installed: run scripts/setup (as root)"
    );
    let dir = target_dir().join("tev_replay");
    let (nops, nbeats) = write_vectors(&dir, 0x7E5_0002, 100);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rtl = root.join("rtl");
    let mut srcs: Vec<PathBuf> = std::fs::read_dir(&rtl)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            n == "pica_regs_pkg.sv"
                || n == "pica_chan_pkg.sv"
                || n == "pica_ram_fifo.sv"
                || (n.starts_with("pica_tev") && n.ends_with(".sv"))
        })
        .collect();
    srcs.sort_by_key(|p| (!p.to_string_lossy().ends_with("_pkg.sv"), p.clone()));
    let vvp = dir.join("pica_tev_replay_tb.vvp");
    let out = Command::new("iverilog")
        .args(["-g2012", "-s", "pica_tev_replay_tb", "-o"])
        .arg(&vvp)
        .args(&srcs)
        .arg(root.join("tb/pica_tev_replay_tb.sv"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "iverilog failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new("vvp")
        .arg("-n")
        .arg(&vvp)
        .arg(format!("+ops={}", dir.join("ops.hex").display()))
        .arg(format!("+nops={nops}"))
        .arg(format!("+beats={}", dir.join("combiner.hex").display()))
        .arg(format!("+nbeats={nbeats}"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("PASS"),
        "replay failed:\n{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
