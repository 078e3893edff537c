//! The hardware-facts ledger (`pica_model::facts`) against the code: every `UNVERIFIED(hw)`
//! comment in `model/src` is tagged with a registered fact, every unverified fact is tagged
//! somewhere, every shader knob has exactly one fact whose alternatives are the knob's values,
//! and every `code` path names something that exists.

use pica_model::facts::{self, Fact, Status, AREAS};
use pica_model::knobs::Knobs;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const MARK: &str = "UNVERIFIED(hw)";
const TAG: &str = "UNVERIFIED(hw) [fact: ";

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// (file:line, tag or None) for every `UNVERIFIED(hw)` in a comment of `model/src`. A mention
/// of the convention in backticks is not a site; nor is one outside a comment (a string).
fn sites() -> Vec<(String, Option<String>)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read source");
        let rel = f.strip_prefix(&src).unwrap_or(&f).display().to_string();
        for (n, line) in text.lines().enumerate() {
            let Some(comment) = line.find("//").map(|i| &line[i..]) else {
                continue;
            };
            let mut rest = comment;
            while let Some(i) = rest.find(MARK) {
                let backticked = rest[..i].ends_with('`');
                let here = &rest[i..];
                if !backticked {
                    let tag = here
                        .strip_prefix(TAG)
                        .and_then(|t| t.find(']').map(|j| t[..j].to_string()));
                    out.push((format!("{rel}:{}", n + 1), tag));
                }
                rest = &here[MARK.len()..];
            }
        }
    }
    out
}

#[test]
fn facts_every_unverified_comment_is_tagged_with_a_registered_fact() {
    let ids: BTreeSet<&str> = facts::all().iter().map(|f| f.id).collect();
    let sites = sites();
    assert!(sites.len() > 200, "only {} sites found", sites.len());
    let untagged: Vec<&String> = sites
        .iter()
        .filter(|(_, t)| t.is_none())
        .map(|(s, _)| s)
        .collect();
    assert!(
        untagged.is_empty(),
        "{} UNVERIFIED(hw) comments without a `[fact: ID]` tag:\n{}",
        untagged.len(),
        untagged
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let unknown: Vec<String> = sites
        .iter()
        .filter_map(|(s, t)| t.as_ref().map(|t| (s, t)))
        .filter(|(_, t)| !ids.contains(t.as_str()))
        .map(|(s, t)| format!("{s}: [fact: {t}]"))
        .collect();
    assert!(
        unknown.is_empty(),
        "tags naming no fact of pica_model::facts:\n{}",
        unknown.join("\n")
    );
}

#[test]
fn facts_every_unverified_fact_is_tagged_somewhere() {
    let tagged: BTreeSet<String> = sites().into_iter().filter_map(|(_, t)| t).collect();
    let orphans: Vec<&str> = facts::all()
        .iter()
        .filter(|f| matches!(f.status, Status::Unverified { .. }))
        .filter(|f| !tagged.contains(f.id))
        .map(|f| f.id)
        .collect();
    assert!(
        orphans.is_empty(),
        "unverified facts no UNVERIFIED(hw) comment is tagged with: {orphans:?}"
    );
}

#[test]
fn facts_ids_are_unique_kebab_case_with_a_known_area_and_complete_entries() {
    let mut seen = BTreeSet::new();
    for f in facts::all() {
        assert!(seen.insert(f.id), "duplicate fact id {}", f.id);
        assert!(
            !f.id.is_empty()
                && f.id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !f.id.starts_with('-')
                && !f.id.ends_with('-')
                && !f.id.contains("--"),
            "fact id {:?} is not kebab-case",
            f.id
        );
        assert!(AREAS.contains(&f.area), "{}: unknown area {}", f.id, f.area);
        assert!(!f.summary.is_empty(), "{}: empty summary", f.id);
        assert!(!f.sources.is_empty(), "{}: no source", f.id);
        assert!(!f.code.is_empty(), "{}: no code", f.id);
        match &f.status {
            Status::Measured { by } | Status::Documented { by } => {
                assert!(!by.is_empty(), "{}: empty source of status", f.id)
            }
            Status::Unverified {
                choice,
                alternatives,
                settle_by,
                ..
            } => {
                assert!(!choice.is_empty(), "{}: empty choice", f.id);
                assert!(!settle_by.is_empty(), "{}: empty settle_by", f.id);
                assert!(
                    alternatives.is_empty() || alternatives[0] == *choice,
                    "{}: alternatives {alternatives:?} do not start with the choice {choice}",
                    f.id
                );
            }
        }
    }
}

#[test]
fn facts_every_knob_has_exactly_one_fact_with_its_values() {
    let mut by_knob: BTreeMap<&str, Vec<&Fact>> = BTreeMap::new();
    for f in facts::all() {
        if let Status::Unverified { knob: Some(k), .. } = &f.status {
            by_knob.entry(k).or_default().push(f);
        }
    }
    for (name, values) in Knobs::NAMES {
        let fs = by_knob.get(name).map(Vec::as_slice).unwrap_or_default();
        assert_eq!(
            fs.len(),
            1,
            "knob {name}: {} facts (want exactly 1)",
            fs.len()
        );
        let Status::Unverified {
            choice,
            alternatives,
            ..
        } = &fs[0].status
        else {
            unreachable!()
        };
        let want: Vec<&str> = values.split('|').collect();
        assert_eq!(alternatives, &want, "knob {name}: alternatives");
        assert_eq!(*choice, want[0], "knob {name}: the choice is the default");
        // The default really is the first value: Knobs::default() equals setting it.
        let mut k = Knobs::default();
        k.set(&format!("{name}={}", want[0]))
            .expect("default value accepted");
        assert_eq!(
            k,
            Knobs::default(),
            "knob {name}: first value is not the default"
        );
    }
    // A knob fact naming no knob (a `--knob` name: no spaces) would be a stale copy.
    for (k, fs) in &by_knob {
        if !k.contains(' ') {
            assert!(
                Knobs::NAMES.iter().any(|(n, _)| n == k),
                "facts {:?} name knob {k}, which Knobs::NAMES does not have",
                fs.iter().map(|f| f.id).collect::<Vec<_>>()
            );
        }
    }
}

/// Whether `text` has `decl` followed by something that ends an identifier (`:`, `(`, `,`,
/// ` `, `<`, `;`, `=`, `{`).
fn declares(text: &str, decl: &str) -> bool {
    text.match_indices(decl).any(|(i, _)| {
        text[i + decl.len()..]
            .chars()
            .next()
            .is_some_and(|c| ":(,; <={".contains(c))
    })
}

#[test]
fn facts_code_paths_name_existing_items() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let text: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).expect("read source"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut bad = Vec::new();
    for f in facts::all() {
        for c in f.code {
            // The module part must be a file or directory; the last segment, if it is not a
            // module, must be declared somewhere.
            let segs: Vec<&str> = c.split("::").collect();
            let mut dir = src.clone();
            let mut i = 0;
            while i < segs.len() {
                let d = dir.join(segs[i]);
                if d.is_dir() {
                    dir = d;
                    i += 1;
                } else if dir.join(format!("{}.rs", segs[i])).is_file() {
                    i += 1;
                    break;
                } else {
                    break;
                }
            }
            if i == 0 {
                bad.push(format!("{}: {c}: no module {}", f.id, segs[0]));
                continue;
            }
            for item in &segs[i..] {
                let declared = [
                    "const ", "fn ", "struct ", "enum ", "type ", "static ", "mod ", "pub ", "    ",
                ]
                .iter()
                .any(|k| declares(&text, &format!("{k}{item}")));
                if !declared {
                    bad.push(format!("{}: {c}: {item} is not declared", f.id));
                }
            }
        }
    }
    assert!(bad.is_empty(), "stale code paths:\n{}", bad.join("\n"));
}

#[test]
fn facts_markdown_has_every_fact_and_the_header() {
    let md = facts::markdown();
    assert!(
        md.contains("generated from model/src/facts.rs")
            || md.contains("Generated from `model/src/facts.rs`")
    );
    for f in facts::all() {
        assert!(md.contains(&format!("`{}`", f.id)), "{} missing", f.id);
    }
    let all: Vec<&Fact> = facts::all().iter().collect();
    let (m, d, u) = facts::counts(&all);
    assert!(
        m >= 1 && d >= 1 && u > 100,
        "{m} measured, {d} documented, {u} unverified"
    );
}

#[test]
fn facts_every_unverified_fact_has_a_knob_or_says_why_not() {
    for f in facts::all() {
        if let Status::Unverified { knob, no_knob, .. } = &f.status {
            assert!(
                knob.is_some() != no_knob.is_some(),
                "{}: knob {knob:?}, no_knob {no_knob:?} (want exactly one: add the fact to \
                 pica_model::facts::NO_KNOB or give it a knob)",
                f.id
            );
            if let Some(r) = no_knob {
                assert!(r.starts_with("no knob"), "{}: reason {r:?}", f.id);
            }
        }
    }
    for (id, _) in facts::NO_KNOB {
        let f = facts::get(id).unwrap_or_else(|| panic!("NO_KNOB names no fact {id}"));
        assert!(
            matches!(f.status, Status::Unverified { knob: None, .. }),
            "NO_KNOB names {id}, which is not an unverified fact without a knob"
        );
    }
    // Every area knob names an unverified fact, and a different one.
    let mut seen = BTreeSet::new();
    for k in pica_model::knobs::AREA {
        assert!(seen.insert(k.fact), "two knobs select fact {}", k.fact);
        let f = facts::get(k.fact).unwrap_or_else(|| panic!("knob {} names no fact", k.name));
        assert!(
            matches!(f.status, Status::Unverified { knob: Some(n), .. } if n == k.name),
            "knob {}: fact {} does not name it",
            k.name,
            k.fact
        );
    }
}
