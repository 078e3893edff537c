//! Builds the Verilated models of `rtl/pica_top.sv` and the C++ shim that the Rust API calls.
//!
//! One model per variant, each with its own `--prefix`:
//! - `default`: the RTL as written, plus any defines named in the `PICA_RTL_DEFINES`
//!   environment variable (comma- or space-separated, e.g. `PICA_RTL_DEFINES=INJECT_MASK_BUG`);
//! - one per injected bug (`INJECT_MASK_BUG`, `INJECT_PACKER_BUG`), so the test suite can show
//!   that lockstep and the fuzzer catch each bug without a second build of the workspace.
//!
//! The shader-unit stage top (`rtl/pica_sh_unit_top.sv`) is built the same way, as its own
//! models (prefix `Vpica_sh_<variant>`): `default` plus one per shader bug
//! ([`SH_INJECTED`]), with the shim `csrc/pica_sh_shim.cpp`. It needs the f24 modules
//! ([`F24_MODULES`], branch `alu`); while any is missing from `rtl/` the shader models are
//! skipped and the shim is built with no variants (`RtlShaderUnit::new` then reports the
//! variant missing).
//!
//! Cargo reruns this script only when a file under `rtl/` or `csrc/` or `PICA_RTL_DEFINES`
//! changes. Needs the system Verilator (Debian's 5.006); `scripts/setup` installs it.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The bug-injection variants: (variant name, define).
const INJECTED: &[(&str, &str)] = &[
    ("inject_mask_bug", "INJECT_MASK_BUG"),
    ("inject_packer_bug", "INJECT_PACKER_BUG"),
];

/// The shader-unit bug-injection variants: (variant name, define).
const SH_INJECTED: &[(&str, &str)] = &[
    ("inject_sh_add_round", "INJECT_SH_ADD_ROUND"),
    ("inject_sh_loop_extra", "INJECT_SH_LOOP_EXTRA"),
];

/// The f24 arithmetic modules the shader unit instantiates, one file each in `rtl/`.
const F24_MODULES: &[&str] = &[
    "pica_f24_add",
    "pica_f24_mul",
    "pica_f24_dot",
    "pica_f24_rcp",
    "pica_f24_rsq",
    "pica_f24_ex2",
    "pica_f24_lg2",
    "pica_f24_flr",
    "pica_f24_cmp",
    "pica_f24_minmax",
    "pica_f24_to_int",
];

fn fail(msg: &str) -> ! {
    // A build script reports errors by failing; the message is what the user sees.
    eprintln!("error: {msg}");
    std::process::exit(1);
}

fn verilator() -> String {
    let bin = env::var("VERILATOR").unwrap_or_else(|_| "verilator".into());
    match Command::new(&bin).arg("--version").output() {
        Ok(o) if o.status.success() => bin,
        _ => fail(&format!(
            "Verilator not found (tried `{bin}`): run scripts/setup (as root) to install \
             verilator, iverilog and yosys, or set VERILATOR to its path"
        )),
    }
}

fn verilator_root(bin: &str) -> PathBuf {
    let out = Command::new(bin)
        .args(["--getenv", "VERILATOR_ROOT"])
        .output()
        .unwrap_or_else(|e| fail(&format!("running {bin} --getenv: {e}")));
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The RTL sources in compile order: packages first, then the rest, both sorted by name.
fn sources(rtl: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(rtl)
        .unwrap_or_else(|e| fail(&format!("reading {}: {e}", rtl.display())))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sv"))
        .collect();
    files.sort_by_key(|p| {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        (!name.ends_with("_pkg.sv"), name)
    });
    files
}

fn verilate(
    bin: &str,
    rtl: &Path,
    out: &Path,
    (top, prefix): (&str, &str),
    variant: &str,
    defines: &[String],
) -> PathBuf {
    let prefix = format!("{prefix}{variant}");
    let mdir = out.join(format!("vl_{prefix}"));
    let mut cmd = Command::new(bin);
    cmd.args(["--cc", "--build", "--trace", "-j", "2"])
        .args(["--top-module", top, "--prefix", &prefix])
        .arg("--Mdir")
        .arg(&mdir)
        .arg(format!("-I{}", rtl.display()))
        .args(["-CFLAGS", "-fPIC"])
        .args(["-MAKEFLAGS", "OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2"]);
    for d in defines {
        cmd.arg(format!("-D{d}"));
    }
    cmd.args(sources(rtl));
    let status = cmd
        .status()
        .unwrap_or_else(|e| fail(&format!("running {bin}: {e}")));
    if !status.success() {
        fail(&format!(
            "verilating variant {variant} failed ({status}); see the output above"
        ));
    }
    // Give the model archive a name the linker finds with `-l`.
    let lib = mdir.join(format!("lib{prefix}.a"));
    fs::copy(mdir.join(format!("{prefix}__ALL.a")), &lib)
        .unwrap_or_else(|e| fail(&format!("copying the {variant} archive: {e}")));
    mdir
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    let out = PathBuf::from(env::var("OUT_DIR").unwrap_or_else(|_| fail("OUT_DIR is not set")));
    let rtl = manifest.join("rtl");
    let csrc = manifest.join("csrc");
    println!("cargo:rerun-if-changed={}", rtl.display());
    println!("cargo:rerun-if-changed={}", csrc.display());
    println!("cargo:rerun-if-env-changed=PICA_RTL_DEFINES");
    println!("cargo:rerun-if-env-changed=VERILATOR");

    let bin = verilator();
    let root = verilator_root(&bin);
    let user_defines: Vec<String> = env::var("PICA_RTL_DEFINES")
        .unwrap_or_default()
        .split([',', ' '])
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();

    let mut variants = vec![("default".to_string(), user_defines.clone())];
    variants.extend(
        INJECTED
            .iter()
            .map(|(name, def)| (name.to_string(), vec![def.to_string()])),
    );
    let mdirs: Vec<PathBuf> = variants
        .iter()
        .map(|(name, defs)| verilate(&bin, &rtl, &out, ("pica_top", "Vpica_"), name, defs))
        .collect();

    // The shader-unit stage top, when the f24 modules are there.
    let have_f24 = F24_MODULES
        .iter()
        .all(|m| rtl.join(format!("{m}.sv")).exists());
    let mut sh_variants = Vec::new();
    if have_f24 {
        sh_variants.push(("default".to_string(), user_defines.clone()));
        sh_variants.extend(
            SH_INJECTED
                .iter()
                .map(|(name, def)| (name.to_string(), vec![def.to_string()])),
        );
    }
    let sh_top = ("pica_sh_unit_top", "Vpica_sh_");
    let sh_mdirs: Vec<PathBuf> = sh_variants
        .iter()
        .map(|(name, defs)| verilate(&bin, &rtl, &out, sh_top, name, defs))
        .collect();
    let mut sh_inc = String::from("// Generated by rtl-bridge/build.rs — do not edit.\n");
    if sh_variants.is_empty() {
        let _ = writeln!(sh_inc, "#define PICA_SH_NO_MODELS 1");
    }
    for (name, _) in &sh_variants {
        let _ = writeln!(sh_inc, "#include \"Vpica_sh_{name}.h\"");
    }
    let _ = write!(sh_inc, "#define PICA_SH_VARIANTS(X)");
    for (name, _) in &sh_variants {
        let _ = write!(sh_inc, " X(Vpica_sh_{name}, \"{name}\")");
    }
    let _ = writeln!(sh_inc);
    fs::write(out.join("pica_sh_variants.inc"), sh_inc)
        .unwrap_or_else(|e| fail(&format!("writing pica_sh_variants.inc: {e}")));

    // pica_variants.inc: the model headers and the variant list the shim instantiates.
    let mut inc = String::from("// Generated by rtl-bridge/build.rs — do not edit.\n");
    for (name, _) in &variants {
        let _ = writeln!(inc, "#include \"Vpica_{name}.h\"");
    }
    let _ = write!(inc, "#define PICA_VARIANTS(X)");
    for (name, _) in &variants {
        let _ = write!(inc, " X(Vpica_{name}, \"{name}\")");
    }
    let _ = writeln!(
        inc,
        "\n#define PICA_DEFAULT_DEFINES \"{}\"",
        user_defines.join(",").replace(['"', '\\'], "")
    );
    fs::write(out.join("pica_variants.inc"), inc)
        .unwrap_or_else(|e| fail(&format!("writing pica_variants.inc: {e}")));

    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .file(csrc.join("pica_shim.cpp"))
        .file(csrc.join("pica_sh_shim.cpp"))
        .include(&csrc)
        .include(&out)
        .include(root.join("include"))
        .include(root.join("include").join("vltstd"))
        .flag_if_supported("-Wno-unused-parameter")
        .define("VM_TRACE", "1")
        .define("VM_TRACE_VCD", "1");
    // The Verilator runtime, compiled once for every variant.
    for rt in [
        "verilated.cpp",
        "verilated_vcd_c.cpp",
        "verilated_threads.cpp",
    ] {
        build.file(root.join("include").join(rt));
    }
    for m in mdirs.iter().chain(&sh_mdirs) {
        build.include(m);
    }
    build.compile("pica_shim");

    for (m, (name, _)) in mdirs.iter().zip(&variants) {
        println!("cargo:rustc-link-search=native={}", m.display());
        println!("cargo:rustc-link-lib=static=Vpica_{name}");
    }
    for (m, (name, _)) in sh_mdirs.iter().zip(&sh_variants) {
        println!("cargo:rustc-link-search=native={}", m.display());
        println!("cargo:rustc-link-lib=static=Vpica_sh_{name}");
    }
    println!("cargo:rustc-link-lib=dylib=stdc++");
    println!("cargo:rustc-link-lib=dylib=pthread");
}
