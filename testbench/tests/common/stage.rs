//! What the stage-fuzz tests (`tev_fuzz`, `fop_fuzz`, `rast_fuzz`, `shader_fuzz`) share: the
//! campaign options, the passing default campaigns, the shard partition, an injected bug
//! caught, and the CLI's model-only half campaign — one stage's test differs from another's
//! only in its stage ([`StageVariant`]) and in what its bundles hold.

use super::{caught, pica, text};
use pica_rtl_bridge::kit::side::MemLatency;
use pica_testbench::fuzz::campaign::{run_stage, StageTarget, StageVariant, TargetOptions};
use pica_testbench::fuzz::regs::case_seed;
use pica_testbench::fuzz::report::{Failure, FuzzReport};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The side-port latencies the default builds of FOP and RAST must pass a campaign under: the
/// clock after the request, three clocks, random up to five with the port sometimes busy.
pub const LATENCIES: [MemLatency; 3] = [
    MemLatency::Zero,
    MemLatency::Fixed(3),
    MemLatency::Random { max: 5, seed: 7 },
];

/// One `#[test]` per argument: `name => arg` is a test `name` that runs `check(arg)` (each
/// injected bug of a stage its own test, so they run in parallel and fail apart).
#[allow(unused_macros)]
macro_rules! tests_of {
    ($check:ident: $($name:ident => $arg:expr),+ $(,)?) => {
        $(
            #[test]
            fn $name() {
                $check($arg);
            }
        )+
    };
}
#[allow(unused_imports)]
pub(crate) use tests_of;

/// A campaign of `cases` of seed 0 against `rtl`, its failures saved under `dir`.
pub fn opts<V>(rtl: Option<V>, cases: u64, dir: Option<PathBuf>) -> TargetOptions<V> {
    TargetOptions {
        regressions: dir,
        ..TargetOptions::new(rtl, cases)
    }
}

/// The model's self-check passes `model_cases`, and the default build `default` passes
/// `rtl_cases` under each of `latencies`; every case runs.
pub fn default_campaign_passes<V: StageVariant>(
    default: V,
    model_cases: u64,
    rtl_cases: u64,
    latencies: &[MemLatency],
) {
    let t = Instant::now();
    let name = V::STAGE.name;
    let r = run_stage(&opts::<V>(None, model_cases, None), |_, _, _| {});
    assert_eq!(r.cases_run, model_cases);
    assert_eq!(r.against, format!("{name}:model"));
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    for &latency in latencies {
        let mut o = opts(Some(default), rtl_cases, None);
        o.latency = latency;
        let r = run_stage(&o, |_, _, _| {});
        assert_eq!(r.cases_run, rtl_cases);
        assert_eq!(r.against, format!("{name}:rtl:default"));
        assert!(r.failures.is_empty(), "latency {latency}: {:?}", r.failures);
    }
    eprintln!(
        "{model_cases} model cases and {} x {rtl_cases} RTL cases in {:.2} s",
        latencies.len(),
        t.elapsed().as_secs_f64()
    );
}

/// Three shards of a 30-case campaign run every case once, each shard some; case `i` of seed
/// `S` is the same case whichever shard runs it, and cases differ.
pub fn shards_partition_the_campaign<V: StageVariant>() {
    let mut seen = 0;
    for k in 0..3 {
        let mut o = opts::<V>(None, 30, None);
        o.shard = (k, 3);
        let n = run_stage(&o, |_, _, _| {}).cases_run;
        assert!(n > 0, "shard {k}/3 ran no case");
        seen += n;
    }
    assert_eq!(seen, 30);
    let t = V::target(&opts::<V>(None, 1, None));
    let a = t.generate(case_seed(0, 7));
    assert!(a == t.generate(case_seed(0, 7)));
    assert!(a != t.generate(case_seed(0, 8)));
}

/// The campaign against `variant` (failures saved under `dir`) fails within `cases` cases of
/// seed 0, and the default build `default` passes every case it ran; the report and its first
/// failure (`unit`: what its commands are).
pub fn caught_by<V: StageVariant>(
    variant: V,
    default: V,
    cases: u64,
    dir: &Path,
    unit: &str,
) -> (FuzzReport, Failure) {
    let t = Instant::now();
    let r = run_stage(
        &opts(Some(variant), cases, Some(dir.to_path_buf())),
        |_, _, _| {},
    );
    let name = format!("{variant:?}");
    assert!(r.against.starts_with(&format!("{}:rtl:", V::STAGE.name)));
    let f = caught(&r, &name, cases, t, unit).clone();
    assert!(f.original_commands >= f.commands);
    let d = run_stage(&opts(Some(default), r.cases_run, None), |_, _, _| {});
    assert_eq!(d.cases_run, r.cases_run);
    assert!(d.failures.is_empty(), "{:?}", d.failures);
    (r, f)
}

/// `pica fuzz --target TARGET --cases CASES --seed 5 --shard 1/2` on the model alone, its
/// report written under `dir`: it passes, runs half the cases, names the model and lists no
/// failure.
pub fn cli_model_half_campaign(target: &str, cases: u64, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let report = dir.join("report.json");
    let (n, rep) = (cases.to_string(), report.display().to_string());
    let o = pica(&[
        "fuzz", "--target", target, "--cases", &n, "--seed", "5", "--shard", "1/2", "--report",
        &rep,
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let j: serde_json::Value = std::fs::read_to_string(&report)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| panic!("{rep}: no JSON report"));
    assert_eq!(j["cases_run"], cases / 2);
    assert_eq!(j["against"], format!("{target}:model"));
    assert_eq!(j["failures"].as_array().map(Vec::len), Some(0));
}
