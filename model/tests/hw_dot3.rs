//! The model against measured hardware tables (`../shared/hw-data/*.tsv`, read with
//! `pica_model::hwdata`): every row must match.

use pica_model::hwdata::Table;
use pica_model::tev::dot3;

/// TEV DOT3_RGB on a real 3DS (combiner 0 = DOT3_RGB(constant, texture 0), red byte of the
/// colour buffer): 7 configurations × 256 inputs.
#[test]
fn hw_dot3_rgb_matches_every_measured_point() {
    let t = Table::load_shared("dot3-rgb.tsv").unwrap_or_else(|e| panic!("{e}"));
    let rows = t
        .select(["config", "a_r", "a_g", "a_b", "b_r", "b_g", "b_b", "hw"])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rows.len(), 7 * 256, "{}: expected 1,792 points", t.source);
    let byte = |v: i64, line: usize| {
        u8::try_from(v).unwrap_or_else(|_| panic!("{}: {v} is not a byte", t.at(line)))
    };
    let mut bad = Vec::new();
    for (line, [cfg, ar, ag, ab, br, bg, bb, hw]) in rows {
        let a = [ar, ag, ab].map(|v| byte(v, line));
        let b = [br, bg, bb].map(|v| byte(v, line));
        let got = dot3(a, b);
        if i64::from(got) != hw {
            bad.push(format!(
                "{}: config {cfg}: dot3({a:?}, {b:?}) = {got}, hardware {hw}",
                t.at(line)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of 1,792 points differ:\n{}",
        bad.len(),
        bad.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
}
