//! The C ABI from C: `tests/c/smoke.c` is compiled against `include/pica_model.h` (as C11 and
//! as C++17, so the header's static layout assertions run in both) and linked with the
//! static library this test was built with; its output on every example list must equal
//! what the Rust model says.

use pica_model::{Gpu, Memory, Outcome};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `libpica_capi.a` of this build: the test binary's own `deps/` directory.
fn staticlib() -> PathBuf {
    let exe = std::env::current_exe().expect("test exe");
    let deps = exe.parent().expect("deps dir");
    let lib = deps.join("libpica_capi.a");
    assert!(lib.exists(), "{} missing", lib.display());
    lib
}

fn compile(compiler: &str, lang: &[&str], out: &Path) {
    let st = Command::new(compiler)
        .args(lang)
        .args(["-Wall", "-Wextra", "-Werror", "-O1", "-I"])
        .arg(root().join("include"))
        .arg(root().join("tests/c/smoke.c"))
        // `-x c++` would also read the archive as source: reset the language before it.
        .args(["-x", "none"])
        .arg(staticlib())
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(out)
        .status()
        .expect("run the C compiler");
    assert!(
        st.success(),
        "{compiler} {lang:?} failed on tests/c/smoke.c"
    );
}

/// What smoke.c must print for `list`, from the Rust model.
fn expected(list: &Path) -> String {
    let text = std::fs::read_to_string(list).expect("read list");
    let words = pica_vectors::words::parse_hex("list", &text).expect("parse");
    let mut mem = Memory::new();
    mem.write_words(0x2000_0000, &words).expect("load");
    let mut gpu = Gpu::new(mem);
    gpu.set_pipeline(false);
    gpu.submit(0x2000_0000, words.len() as u32 * 4)
        .expect("submit");
    let o = gpu.run(1_000_000);
    let (kind, cycle, code) = match &o {
        Outcome::Finished { cycles } => (1, *cycles, 0),
        Outcome::Hang { cycle, reason } => (
            2,
            *cycle,
            pica_vectors::case::hang_reason_code(reason) as u32,
        ),
        Outcome::CycleLimit { cycles } => (3, *cycles, 0),
    };
    let mut s = format!("outcome {kind} {cycle} {code}: {o}\n");
    s += &format!("beats {}\n", gpu.regwrite_beats().len());
    for b in gpu.regwrite_beats() {
        s += &format!(
            "beat {} {} 0x{:03x} mask {:x} param {:08x} value {:08x}\n",
            b.cycle,
            pica_model::regs::name(b.id),
            b.id,
            b.mask,
            b.param,
            b.value
        );
    }
    let mut g2 = Gpu::new(Memory::new());
    g2.set_pipeline(false);
    let fog = u32::from(pica_model::regs::by_name("GPUREG_FOG_COLOR").expect("fog"));
    g2.push_write(fog, 0xF, 0x1122_3344).expect("push");
    g2.push_write(fog, 0x5, 0xAABB_CCDD).expect("push");
    let o2 = g2.run(1000);
    s += &format!(
        "pushed 2 GPUREG_FOG_COLOR = {:08x}: {o2}\n",
        g2.regs().reg(fog)
    );
    s
}

#[test]
fn c_api_smoke_matches_the_model_on_every_example() {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("c_api");
    std::fs::create_dir_all(&tmp).expect("tmp");
    let c_exe = tmp.join("smoke_c");
    let cpp_exe = tmp.join("smoke_cpp");
    compile("gcc", &["-std=c11"], &c_exe);
    compile("g++", &["-x", "c++", "-std=c++17"], &cpp_exe);
    let mut lists: Vec<PathBuf> = std::fs::read_dir(root().join("../vectors/examples"))
        .expect("examples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hex"))
        .collect();
    lists.sort();
    assert!(lists.len() >= 11, "examples missing");
    for list in &lists {
        let want = expected(list);
        for exe in [&c_exe, &cpp_exe] {
            let out = Command::new(exe).arg(list).output().expect("run smoke");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{} {}: exit {:?}\n{}{}",
                exe.display(),
                list.display(),
                out.status,
                stdout,
                String::from_utf8_lossy(&out.stderr)
            );
            let (beats, errors): (Vec<&str>, Vec<&str>) =
                stdout.lines().partition(|l| !l.starts_with("error "));
            assert_eq!(beats.join("\n") + "\n", want, "{}", list.display());
            // Seven error paths, each with its code and a message naming the function.
            assert_eq!(errors.len(), 7, "{stdout}");
            for (l, want) in errors.iter().zip([
                "error PICA_ERR_UNMAPPED: pica_mem_read_word: ",
                "error PICA_ERR_CHANNEL: pica_pop_beat: no channel 99",
                "error PICA_ERR_SIZE: pica_pop_beat: out_size 4 is not sizeof(pica_reg_write_beat_t)",
                "error PICA_ERR_NULL: pica_gpu_run: gpu is NULL",
                "error PICA_ERR_ARGUMENT: pica_gpu_write_reg: byte-enable mask 0x10",
                "error PICA_ERR_FILE: pica_load_file: /nonexistent.hex: no such file",
                "error PICA_ERR_CHANNEL: pica_channel_by_name: no channel named \"nope\"",
            ]) {
                assert!(l.starts_with(want), "{l:?} does not start with {want:?}");
            }
        }
    }
}
