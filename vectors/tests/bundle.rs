#![allow(clippy::unwrap_used)]
//! Bundle format v1: write → load round trip, and every kind of damage is rejected with a
//! message naming the file.

use pica_vectors::bundle::{manifest_schema, pack_regwrite, unpack_regwrite, write_bundle, Bundle};
use pica_vectors::library;
use proptest::prelude::*;
use std::fs;
use std::path::{Path, PathBuf};

/// A scratch directory, removed when dropped — also when its test fails.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("pica-bundle-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    Scratch(d)
}

fn written(case: &str, dir_name: &str) -> Scratch {
    let dir = scratch(dir_name);
    let c = library::case(case).unwrap();
    let run = c.run_model().unwrap();
    write_bundle(&dir, &c, &run, "test").unwrap();
    dir
}

fn load_err(dir: &Path) -> String {
    Bundle::load(dir).unwrap_err().to_string()
}

#[test]
fn bundle_round_trips_and_replays_on_the_model() {
    for c in library::cases() {
        let dir = scratch(&c.name.replace('/', "_"));
        let run = c.run_model().unwrap();
        let m = write_bundle(&dir, &c, &run, "test").unwrap();
        let b = Bundle::load(&dir).unwrap();
        assert_eq!(b.manifest, m);
        assert_eq!(b.beats, run.beats, "{}", c.name);
        assert_eq!(b.final_regs, run.final_regs);
        assert_eq!(b.case().unwrap(), c);
        assert_eq!(b.check_model().unwrap(), Vec::<String>::new(), "{}", c.name);
        let _ = fs::remove_dir_all(&dir);
    }
}

#[test]
fn bundle_rejects_a_tampered_file() {
    let dir = written("regs/luts", "tamper");
    let p = dir.join("regwrite.hex");
    let mut text = fs::read_to_string(&p).unwrap();
    // Flip one digit of the first beat's value.
    let last = text.find('\n').unwrap() - 1;
    let c = if &text[last..=last] == "0" { "1" } else { "0" };
    text.replace_range(last..=last, c);
    fs::write(&p, text).unwrap();
    let e = load_err(&dir);
    assert!(e.contains("regwrite.hex: SHA-256 is"), "{e}");
    assert!(e.contains("changed or truncated"), "{e}");
}

#[test]
fn bundle_rejects_a_truncated_file() {
    let dir = written("regs/luts", "truncate");
    let p = dir.join("stim.hex");
    let text = fs::read_to_string(&p).unwrap();
    fs::write(&p, &text[..text.len() / 2]).unwrap();
    assert!(load_err(&dir).contains("stim.hex: SHA-256"));
}

#[test]
fn bundle_rejects_a_consistent_but_wrong_count() {
    // Tamper with both a file and its hash: the count check still catches the truncation.
    let dir = written("regs/luts", "count");
    let p = dir.join("regwrite.hex");
    let text = fs::read_to_string(&p).unwrap();
    let cut: String = text.lines().skip(1).map(|l| format!("{l}\n")).collect();
    fs::write(&p, &cut).unwrap();
    let mpath = dir.join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&mpath).unwrap()).unwrap();
    use sha2::Digest;
    let h: String = sha2::Sha256::digest(cut.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    m["files"]["regwrite.hex"] = serde_json::json!(h);
    fs::write(&mpath, serde_json::to_string(&m).unwrap()).unwrap();
    let e = load_err(&dir);
    assert!(
        e.contains("regwrite.hex:") && e.contains("the manifest says"),
        "{e}"
    );
}

#[test]
fn bundle_rejects_missing_files_and_bad_manifests() {
    let dir = written("examples/01_finalize", "missing");
    fs::remove_file(dir.join("final_regs.hex")).unwrap();
    assert!(load_err(&dir).contains("final_regs.hex: cannot read"));

    let dir = written("examples/01_finalize", "badjson");
    fs::write(dir.join("manifest.json"), "{\"format\": \"pica-vectors\",").unwrap();
    assert!(load_err(&dir).contains("manifest.json:1:"));

    let dir = written("examples/01_finalize", "version");
    let mpath = dir.join("manifest.json");
    let text = fs::read_to_string(&mpath)
        .unwrap()
        .replace("\"version\": 1", "\"version\": 7");
    fs::write(&mpath, text).unwrap();
    assert!(load_err(&dir).contains("format version 7 is not supported"));

    let dir = written("examples/01_finalize", "escape");
    let mut m: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    m["files"]["../x"] = serde_json::json!("00");
    fs::write(
        dir.join("manifest.json"),
        serde_json::to_string(&m).unwrap(),
    )
    .unwrap();
    assert!(load_err(&dir).contains("leaves the bundle"));
}

#[test]
fn bundle_rejects_absurd_counts_without_allocating() {
    let edit = |name: &str, f: &dyn Fn(&mut serde_json::Value)| {
        let dir = written("examples/01_finalize", name);
        let mpath = dir.join("manifest.json");
        let mut m: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&mpath).unwrap()).unwrap();
        f(&mut m);
        fs::write(&mpath, serde_json::to_string(&m).unwrap()).unwrap();
        load_err(&dir)
    };
    let e = edit("absurd-stim", &|m| {
        m["stim"]["words"] = serde_json::json!(u64::MAX)
    });
    assert!(e.contains("stim.words says 18446744073709551615"), "{e}");
    let e = edit("absurd-size", &|m| {
        m["submit"]["size"] = serde_json::json!("0xfffffff0")
    });
    assert!(
        e.contains("submit.size 0xfffffff0 means 1073741820 stream words"),
        "{e}"
    );
    let e = edit("absurd-beats", &|m| {
        m["streams"][0]["beats"] = serde_json::json!(1u64 << 60)
    });
    assert!(
        e.contains("regwrite.hex:") && e.contains("the manifest says"),
        "{e}"
    );
    let e = edit("absurd-mem", &|m| {
        m["memory"][0]["words"] = serde_json::json!(1u64 << 62)
    });
    assert!(
        e.contains("mem_20000000.hex:") && e.contains("the manifest says"),
        "{e}"
    );
}

#[test]
fn bundle_check_reports_golden_data_the_model_does_not_reproduce() {
    // A consistent bundle (hashes updated) whose recorded outcome was edited.
    let dir = written("examples/01_finalize", "golden");
    let mpath = dir.join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&mpath).unwrap()).unwrap();
    m["outcome"]["cycle"] = serde_json::json!(99);
    fs::write(&mpath, serde_json::to_string(&m).unwrap()).unwrap();
    let diffs = Bundle::load(&dir).unwrap().check_model().unwrap();
    assert_eq!(diffs.len(), 1, "{diffs:?}");
    assert!(diffs[0].starts_with("outcome: recorded"), "{diffs:?}");
}

#[test]
fn bundle_schema_is_fresh() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/manifest.v1.schema.json");
    let want = manifest_schema();
    if std::env::var_os("PICA_BLESS").is_some() {
        fs::write(&path, &want).unwrap();
    }
    let have = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{} is stale: run `PICA_BLESS=1 cargo test -p pica-vectors --test bundle`",
        path.display()
    );
}

proptest! {
    #[test]
    fn bundle_regwrite_packing_round_trips(cycle in any::<u32>(), id in 0u32..0x2_0000, mask in 0u8..16, param in any::<u32>(), value in any::<u32>()) {
        let b = pica_model::beat::RegWriteBeat { cycle: u64::from(cycle), id, mask, param, value };
        prop_assert_eq!(unpack_regwrite(pack_regwrite(&b)), b);
    }

    #[test]
    fn bundle_load_never_panics_on_garbage(name in "[a-z_]{1,12}\\.hex", data in proptest::collection::vec(any::<u8>(), 0..200)) {
        let dir = scratch("garbage");
        fs::create_dir_all(&dir).unwrap();
        let _ = fs::write(dir.join("manifest.json"), &data);
        let _ = Bundle::load(&dir);
        let src = written("examples/01_finalize", "garbage2");
        let _ = fs::write(src.join(&name), &data);
        let _ = fs::write(src.join("regwrite.hex"), &data);
        prop_assert!(Bundle::load(&src).is_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn bundle_load_and_check_never_panic_on_edited_manifests(
        base in any::<u32>(),
        addr in any::<u32>(),
        size in any::<u32>(),
        words in any::<u64>(),
        beats in any::<u64>(),
        max_cycles in 0u64..5000,
    ) {
        let dir = written("examples/09_cmdbuf_jump", "edited");
        let mpath = dir.join("manifest.json");
        let mut m: serde_json::Value = serde_json::from_str(&fs::read_to_string(&mpath).unwrap()).unwrap();
        m["memory"][0]["base"] = serde_json::json!(format!("0x{base:08x}"));
        m["submit"]["addr"] = serde_json::json!(format!("0x{addr:08x}"));
        m["submit"]["size"] = serde_json::json!(format!("0x{size:08x}"));
        m["max_cycles"] = serde_json::json!(max_cycles);
        if words % 3 == 0 {
            m["memory"][0]["words"] = serde_json::json!(words);
        }
        if beats % 3 == 0 {
            m["streams"][0]["beats"] = serde_json::json!(beats);
        }
        fs::write(&mpath, serde_json::to_string(&m).unwrap()).unwrap();
        if let Ok(b) = Bundle::load(&dir) {
            let _ = b.check_model();
        }
    }
}
