//! The FPGA flow's stage table (`scripts/fpga.py`, `STAGES`) agrees with the kit's stage
//! description: every described stage has a row whose top (or, for a stage mapped in parts,
//! whose `part_of`) is the stage's RTL top, and every row's top is a module of `rtl/`. The flow
//! itself (Yosys and nextpnr from PyPI, minutes to hours) is a script, not a test.

use pica_rtl_bridge::kit::desc::STAGES;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits in the workspace")
        .to_path_buf()
}

/// One row of `STAGES` in scripts/fpga.py: (name, top, part_of).
fn rows() -> Vec<(String, String, Option<String>)> {
    let text = std::fs::read_to_string(root().join("scripts/fpga.py")).expect("scripts/fpga.py");
    let start = text.find("STAGES = {").expect("a STAGES table");
    let end = start + text[start..].find("\n}\n").expect("the table's end");
    let mut out = Vec::new();
    // Each row starts `"name": dict(top="...",` and may name `part_of="..."` before the next row.
    let body = &text[start..end];
    let starts: Vec<usize> = body
        .match_indices(": dict(top=\"")
        .map(|(i, _)| i)
        .collect();
    for (n, &i) in starts.iter().enumerate() {
        let row_end = starts.get(n + 1).copied().unwrap_or(body.len());
        let name_end = body[..i].rfind('"').expect("a quoted name");
        let name_start = body[..name_end].rfind('"').expect("a quoted name") + 1;
        let rest = &body[i + ": dict(top=\"".len()..row_end];
        let top = &rest[..rest.find('"').expect("a quoted top")];
        let part_of = rest.find("part_of=\"").map(|p| {
            let r = &rest[p + "part_of=\"".len()..];
            r[..r.find('"').expect("a quoted part_of")].to_string()
        });
        out.push((
            body[name_start..name_end].to_string(),
            top.to_string(),
            part_of,
        ));
    }
    out
}

#[test]
fn every_kit_stage_has_a_row_in_the_fpga_flow() {
    let rows = rows();
    assert!(rows.len() >= STAGES.len(), "rows: {rows:?}");
    for s in STAGES {
        let row = rows.iter().find(|(n, _, _)| n == s.name);
        let Some((_, top, part_of)) = row else {
            panic!(
                "scripts/fpga.py has no row `{}` (kit stage, top {})",
                s.name, s.top
            );
        };
        assert!(
            top == s.top || part_of.as_deref() == Some(s.top),
            "scripts/fpga.py row `{}` maps {top} (part of {part_of:?}), the kit's top is {}",
            s.name,
            s.top
        );
    }
}

#[test]
fn every_fpga_row_names_a_module_of_the_rtl() {
    let mut modules = String::new();
    let dir = root().join("rtl-bridge/rtl");
    for e in std::fs::read_dir(&dir).expect("rtl/") {
        let p = e.expect("a directory entry").path();
        if p.extension().is_some_and(|x| x == "sv") {
            modules.push_str(&std::fs::read_to_string(&p).expect("an SV file"));
        }
    }
    for (name, top, part_of) in rows() {
        for m in std::iter::once(&top).chain(part_of.as_ref()) {
            let declared = modules.match_indices(&format!("module {m}")).any(|(i, k)| {
                // Not a longer name that starts with this one (pica_rast / pica_rast_top).
                let next = modules[i + k.len()..].chars().next();
                !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            assert!(
                declared,
                "scripts/fpga.py row `{name}`: no module {m} in rtl-bridge/rtl"
            );
        }
    }
}
