//! `capi/include/pica_model.h` is what cbindgen and the channel table make of `src/lib.rs`
//! today. Regenerate after an ABI change with
//! `PICA_BLESS=1 cargo test -p pica-capi --test header`.

use std::path::PathBuf;

fn generate() -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut config = cbindgen::Config {
        language: cbindgen::Language::C,
        include_guard: Some("PICA_MODEL_H".into()),
        cpp_compat: true,
        no_includes: true,
        sys_includes: ["stdbool.h", "stddef.h", "stdint.h"]
            .map(String::from)
            .to_vec(),
        header: Some(
            "/* Generated from capi/src/lib.rs (cbindgen) and the channel table (model/src/beat.rs,\n \
             * pica_model::chan::c_header) by `PICA_BLESS=1 cargo test -p pica-capi --test header`\n \
             * — do not edit. The C ABI of the pica-cosim model: link libpica_capi.a (with\n \
             * -lpthread -ldl -lm) or libpica_capi.so. See capi/README.md. */"
                .into(),
        ),
        after_includes: Some(format!("\n{}", pica_model::chan::c_header())),
        documentation: true,
        documentation_style: cbindgen::DocumentationStyle::C99,
        usize_is_size_t: true,
        style: cbindgen::Style::Type,
        ..Default::default()
    };
    for (from, to) in [
        ("PicaGpu", "pica_gpu_t"),
        ("PicaStatus", "pica_status_t"),
        ("PicaRegWrite", "pica_reg_write_t"),
    ] {
        config.export.rename.insert(from.into(), to.into());
    }
    let mut out = Vec::new();
    match cbindgen::Builder::new()
        .with_config(config)
        .with_src(dir.join("src/lib.rs"))
        .generate()
    {
        Ok(b) => {
            b.write(&mut out);
        }
        Err(e) => panic!("cbindgen: {e}"),
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn header_is_fresh() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("include/pica_model.h");
    let want = generate();
    if std::env::var_os("PICA_BLESS").is_some() {
        std::fs::write(&path, &want).expect("write the header");
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{} is stale: regenerate with `PICA_BLESS=1 cargo test -p pica-capi --test header`",
        path.display()
    );
}
