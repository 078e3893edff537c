#![allow(clippy::unwrap_used)]
//! Frame files (`pica-frame` v1): the schema is fresh, a frame reads into the case it
//! describes, every kind of bad input is an error naming the file and the step or image, and no
//! input — random, truncated or mutated — makes the reader panic.

use pica_vectors::case::{Step, TransferKind};
use pica_vectors::frame::{frame_of, frame_schema, parse_frame};
use pica_vectors::sequences;
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// A loader over an in-memory file table.
fn files(table: &[(&str, Vec<u8>)]) -> impl Fn(&str) -> Result<Vec<u8>, String> {
    let t: BTreeMap<String, Vec<u8>> = table
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    move |name: &str| {
        t.get(name)
            .cloned()
            .ok_or_else(|| format!("{name}: no such file"))
    }
}

/// A list at 0x20000000: FOG_COLOR = 0x00112233, FINALIZE (16 bytes).
fn list_bytes() -> Vec<u8> {
    [0x0011_2233u32, 0x000F_00E1, 0x1234_5678, 0x000F_0010]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

const GOOD: &str = r#"{
  "format": "pica-frame", "version": 1,
  "provenance": { "source": "driver-capture", "library": "citro2d", "program": "demo", "frame": 2 },
  "memory": [ { "addr": "0x20000000", "file": "list.bin" },
              { "addr": "0x18000000", "file": "fb.bin" } ],
  "steps": [
    { "fill": { "start": "0x18000000", "end": "0x18000010", "value": "0x68b0d8ff", "width": 32 } },
    { "submit": { "addr": "0x20000000", "size": 16 } },
    { "fill": { "start": "0x18000010", "end": "0x18000020", "value": "0x1234", "width": 16 } },
    { "submit": { "addr": 536870912, "size": "0x10" } },
    { "transfer": { "kind": "display", "input": "0x18000000", "output": "0x18300000",
                    "params": { "flags": "0x1000" } } }
  ]
}"#;

fn good_files() -> impl Fn(&str) -> Result<Vec<u8>, String> {
    files(&[("list.bin", list_bytes()), ("fb.bin", vec![0xAB; 64])])
}

fn parse(text: &str) -> Result<pica_vectors::case::Case, String> {
    parse_frame("f.json", text, &good_files(), 0).map_err(|e| e.0)
}

#[test]
fn frame_schema_is_fresh() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/frame.v1.schema.json");
    let want = frame_schema();
    if std::env::var_os("PICA_BLESS").is_some() {
        fs::write(&path, &want).unwrap();
    }
    let have = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{} is stale: run `PICA_BLESS=1 cargo test -p pica-vectors --test frame`",
        path.display()
    );
}

#[test]
fn frame_reads_memory_steps_and_provenance() {
    let c = parse(GOOD).unwrap();
    assert_eq!(c.images.len(), 2);
    assert_eq!(c.images[1].words, vec![0xABAB_ABAB; 16]);
    assert_eq!((c.submit_addr, c.submit_size), (0x2000_0000, 16));
    assert!(matches!(&c.before[..], [Step::Fill(f)] if f.value == 0x68b0_d8ff));
    assert_eq!(c.more.len(), 3);
    assert!(matches!(
        c.more[1],
        Step::Submit {
            addr: 0x2000_0000,
            size: 16
        }
    ));
    assert!(
        matches!(&c.more[2], Step::Transfer(t) if t.kind == TransferKind::Display && t.params["flags"] == 0x1000)
    );
    assert_eq!(c.capture["frame"], "2");
    assert_eq!(c.capture["library"], "citro2d");
    assert!(c.pipeline);
    // It runs: both lists finish, the fills land in memory.
    let (run, gpu) = c.run_model_keep().unwrap();
    assert!(matches!(run.outcome, pica_model::Outcome::Finished { .. }));
    assert_eq!(run.steps_run, 5);
    assert_eq!(gpu.mem().read_u32(0x1800_0000).unwrap(), 0x68b0_d8ff);
    assert_eq!(gpu.mem().read_u32(0x1800_0010).unwrap(), 0x1234_1234);
    assert_eq!(gpu.mem().read_u32(0x1800_0020).unwrap(), 0xABAB_ABAB);
    // Two submissions of the same list: two FOG_COLOR writes.
    assert_eq!(
        run.beats.iter().filter(|b| b.id == 0x0E1).count(),
        2,
        "{:?}",
        run.beats
    );
}

#[test]
fn frame_of_a_case_reads_back_as_that_case() {
    let (case, _) = sequences::two_targets().unwrap();
    let (frame, bins) = frame_of(&case);
    let text = serde_json::to_string_pretty(&frame).unwrap();
    let table: Vec<(&str, Vec<u8>)> = bins.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    let back = parse_frame("t.json", &text, &files(&table), case.max_cycles).unwrap();
    assert_eq!(back.steps(), case.steps());
    assert_eq!(back.images, case.images);
}

/// Replaces the first `from` in GOOD with `to` and returns the error.
fn err_with(from: &str, to: &str) -> String {
    assert!(GOOD.contains(from), "{from}");
    parse(&GOOD.replacen(from, to, 1)).unwrap_err()
}

#[test]
fn frame_errors_name_the_file_and_the_step() {
    let cases: &[(&str, &str, &[&str])] = &[
        // bad hex
        (
            "\"0x68b0d8ff\"",
            "\"0x68b0z8ff\"",
            &["f.json", "steps[0]", "0x68b0z8ff"],
        ),
        (
            "\"size\": 16",
            "\"size\": \"16\"",
            &["f.json", "steps[1]", "'16'"],
        ),
        ("\"size\": 16", "\"size\": -1", &["f.json", "steps[1]"]),
        (
            "\"size\": 16",
            "\"size\": 4294967296",
            &["f.json", "steps[1]", "32 bits"],
        ),
        // an unknown step
        (
            "{ \"submit\": { \"addr\": 536870912",
            "{ \"blit\": { \"addr\": 536870912",
            &["f.json", "steps[3]", "blit"],
        ),
        // an unknown field
        (
            "\"width\": 16 }",
            "\"width\": 16, \"colour\": 1 }",
            &["f.json", "steps[2]", "colour"],
        ),
        // a fill width
        (
            "\"width\": 16",
            "\"width\": 12",
            &["f.json", "steps[2] (fill)", "width 12"],
        ),
        // unaligned fill, reversed fill
        (
            "\"end\": \"0x18000010\"",
            "\"end\": \"0x18000014\"",
            &["f.json", "steps[0] (fill)", "aligned"],
        ),
        (
            "\"end\": \"0x18000010\"",
            "\"end\": \"0x18000000\"",
            &["f.json", "steps[0] (fill)", "empty"],
        ),
        // unmapped fill, unmapped and unaligned submissions
        (
            "\"start\": \"0x18000010\"",
            "\"start\": \"0x10000010\"",
            &["f.json", "steps[2] (fill)", "outside"],
        ),
        (
            "\"addr\": 536870912",
            "\"addr\": 268435456",
            &["f.json", "steps[3] (submit)", "outside"],
        ),
        (
            "\"addr\": 536870912",
            "\"addr\": 536870916",
            &["f.json", "steps[3] (submit)", "aligned"],
        ),
        // memory: a missing file, an overlap, an unmapped image, an unaligned image
        (
            "\"fb.bin\"",
            "\"nothere.bin\"",
            &["f.json", "memory[1]", "nothere.bin", "no such file"],
        ),
        (
            "\"addr\": \"0x18000000\", \"file\"",
            "\"addr\": \"0x2000000c\", \"file\"",
            &["f.json", "memory[1]", "overlaps memory[0]"],
        ),
        (
            "\"addr\": \"0x18000000\", \"file\"",
            "\"addr\": \"0x185ffff0\", \"file\"",
            &["f.json", "memory[1]", "outside"],
        ),
        (
            "\"addr\": \"0x18000000\", \"file\"",
            "\"addr\": \"0x18000002\", \"file\"",
            &["f.json", "memory[1]", "4-aligned"],
        ),
        // format, version, syntax
        (
            "\"pica-frame\"",
            "\"pica-vectors\"",
            &["f.json", "format is 'pica-vectors'"],
        ),
        ("\"version\": 1", "\"version\": 2", &["f.json", "version 2"]),
        (
            "\"version\": 1,",
            "\"version\": 1",
            &["f.json", "line 3 column 3"],
        ),
    ];
    for (from, to, want) in cases {
        let e = err_with(from, to);
        for w in *want {
            assert!(e.contains(w), "{from} -> {to}: {e:?} lacks {w:?}");
        }
    }
    // No submit at all.
    let no_submit = r#"{"format":"pica-frame","version":1,"steps":[{"fill":{"start":"0x18000000","end":"0x18000008","value":0,"width":32}}]}"#;
    assert!(parse(no_submit).unwrap_err().contains("no submit step"));
    // Not an object; an empty file.
    assert!(parse("[1]").unwrap_err().contains("not a JSON object"));
    assert!(parse("").unwrap_err().starts_with("f.json:"));
}

#[test]
fn frame_load_names_a_missing_file() {
    let e = pica_vectors::frame::load_frame(Path::new("/nonexistent/frame.json"), 0).unwrap_err();
    assert_eq!(e.0, "/nonexistent/frame.json: no such file");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn frame_parser_never_panics_on_random_text(text in "\\PC{0,300}") {
        let _ = parse(&text);
    }

    #[test]
    fn frame_parser_never_panics_on_truncated_frames(cut in 0usize..GOOD.len()) {
        let end = (0..=cut).rev().find(|&i| GOOD.is_char_boundary(i)).unwrap_or(0);
        let _ = parse(&GOOD[..end]);
    }

    #[test]
    fn frame_parser_never_panics_on_mutated_frames(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0usize..4, any::<char>(), 0usize..12), 1..6)
    ) {
        let mut t: Vec<char> = GOOD.chars().collect();
        for (at, op, c, len) in edits {
            if t.is_empty() {
                break;
            }
            let i = at.index(t.len());
            match op {
                0 => t[i] = c,
                1 => t.insert(i, c),
                2 => { t.drain(i..(i + len).min(t.len())); }
                _ => {
                    // Swap in a token that changes a number or a kind.
                    let tok = ["0", "-1", "\"0x\"", "null", "{}", "[]", "1e9", "\"fill\"", "24"][len % 9];
                    t.splice(i..(i + 1).min(t.len()), tok.chars());
                }
            }
        }
        let text: String = t.into_iter().collect();
        let _ = parse(&text);
    }
}

/// The example frame shipped in `vectors/examples/frames/two_targets/` (what `scripts/run` and
/// the README run) is `sequences::two_targets` written as a frame file.
#[test]
fn frame_example_is_fresh() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/frames/two_targets");
    let (mut case, _) = sequences::two_targets().unwrap();
    case.capture = BTreeMap::from([
        ("source".to_string(), "model".to_string()),
        (
            "generator".to_string(),
            "pica_vectors::sequences::two_targets".to_string(),
        ),
        (
            "note".to_string(),
            "fill A, list 1 draws into A (RGBA8), fill B, list 2 draws into B (RGB565), a display transfer".to_string(),
        ),
    ]);
    let (frame, bins) = frame_of(&case);
    let json = serde_json::to_string_pretty(&frame).unwrap() + "\n";
    let mut want = vec![("frame.json".to_string(), json.into_bytes())];
    want.extend(bins);
    if std::env::var_os("PICA_BLESS").is_some() {
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        for (name, data) in &want {
            fs::write(dir.join(name), data).unwrap();
        }
    }
    let mut have: Vec<String> = fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    have.sort();
    let mut names: Vec<String> = want.iter().map(|(n, _)| n.clone()).collect();
    names.sort();
    let stale = format!(
        "{} is stale: run `PICA_BLESS=1 cargo test -p pica-vectors --test frame`",
        dir.display()
    );
    assert_eq!(have, names, "{stale}");
    for (name, data) in &want {
        assert!(
            fs::read(dir.join(name)).unwrap_or_default() == *data,
            "{name}: {stale}"
        );
    }
    // It reads back as the case.
    let back = pica_vectors::frame::load_frame(&dir.join("frame.json"), case.max_cycles).unwrap();
    assert_eq!(back.steps(), case.steps());
    assert_eq!(back.capture, case.capture);
}
