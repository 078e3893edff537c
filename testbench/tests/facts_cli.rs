//! `pica facts` end to end (listing, filters, `--json`) and the freshness check of the
//! generated `docs/hardware-facts.md`.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;
use common::*;

use pica_model::shader::interp::Knobs;
use serde_json::Value;

#[test]
fn facts_json_parses_and_has_every_knob_with_its_values() {
    let o = pica(&["facts", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let facts = v.as_array().unwrap();
    assert_eq!(facts.len(), pica_model::facts::all().len());
    for (name, values) in Knobs::NAMES {
        let f: Vec<&Value> = facts.iter().filter(|f| f["knob"] == *name).collect();
        assert_eq!(f.len(), 1, "knob {name}");
        let alts: Vec<&str> = f[0]["alternatives"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert_eq!(alts, values.split('|').collect::<Vec<_>>(), "knob {name}");
        assert_eq!(f[0]["status"], "unverified");
        assert!(!f[0]["settle_by"].as_str().unwrap().is_empty());
    }
    for f in facts {
        for key in ["id", "area", "summary", "status", "sources", "code"] {
            assert!(!f[key].is_null(), "{f}: no {key}");
        }
    }
}

#[test]
fn facts_listing_filters_and_counts() {
    let o = pica(&["facts"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let t = stdout(&o);
    assert!(t.contains("clip-w-epsilon [clip] UNVERIFIED(hw)"), "{t}");
    assert!(t.contains("settle by: "), "{t}");
    assert!(t.lines().last().unwrap().contains(" measured, "), "{t}");

    let o = pica(&["facts", "--status", "measured"]);
    let t = stdout(&o);
    assert!(
        t.contains("tev-dot3-rgb") && !t.contains("UNVERIFIED(hw)"),
        "{t}"
    );

    let o = pica(&["facts", "--area", "clip", "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v.as_array().unwrap().iter().all(|f| f["area"] == "clip"));

    let o = pica(&["facts", "--area", "nope"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn facts_gen_docs_check_fails_on_a_stale_ledger() {
    let dir = tmp("facts_stale_docs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    let o = pica(&["gen", "docs", "--out", d]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = pica(&["gen", "docs", "--check", "--out", d]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let path = dir.join("hardware-facts.md");
    let cur = std::fs::read_to_string(&path).unwrap();
    assert!(cur.contains("Generated from `model/src/facts.rs` by `pica gen docs`"));
    std::fs::write(&path, cur.replace("clip-w-epsilon", "clip-w-eps")).unwrap();
    let o = pica(&["gen", "docs", "--check", "--out", d]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        stderr(&o).contains("hardware-facts.md: stale"),
        "{}",
        text(&o)
    );
}
