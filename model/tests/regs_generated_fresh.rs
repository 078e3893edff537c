//! The checked-in files generated from the register table (`docs/registers.md`,
//! `rtl-bridge/rtl/pica_regs_pkg.sv`) must match what the generators produce now.
//!
//! Regenerate them with `PICA_BLESS=1 cargo test -p pica-model --test regs_generated_fresh`.

use std::path::PathBuf;

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn check(relative: &str, generated: &str) -> Result<(), String> {
    let path = repo_root().join(relative);
    if std::env::var_os("PICA_BLESS").is_some_and(|v| v == "1") {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(&path, generated).map_err(|e| format!("cannot write {relative}: {e}"))?;
        return Ok(());
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current == generated {
        return Ok(());
    }
    let line = current
        .lines()
        .zip(generated.lines())
        .position(|(a, b)| a != b)
        .map_or_else(
            || current.lines().count().min(generated.lines().count()) + 1,
            |i| i + 1,
        );
    Err(format!(
        "{relative} is out of date with model/regs/registers.toml (first difference at line {line}); \
         run `PICA_BLESS=1 cargo test -p pica-model --test regs_generated_fresh` to regenerate it"
    ))
}

#[test]
fn regs_docs_markdown_is_fresh() {
    if let Err(e) = check("docs/registers.md", &pica_model::regs::markdown()) {
        panic!("{e}");
    }
}

#[test]
fn regs_sv_package_is_fresh() {
    if let Err(e) = check(
        "rtl-bridge/rtl/pica_regs_pkg.sv",
        &pica_model::regs::sv_package(),
    ) {
        panic!("{e}");
    }
}
