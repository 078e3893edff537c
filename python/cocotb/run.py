#!/usr/bin/env python3
"""Builds pica_top with Icarus Verilog and runs the cocotb bench (test_pica_top.py) on it.

Cases: every vectors/examples/*.hex list plus --random seeded random lists (seeds --seed ..
--seed + N - 1). The model (pica_model, front end alone) is the scoreboard.

    target/venv/bin/python python/cocotb/run.py                     # corpus + random lists
    target/venv/bin/python python/cocotb/run.py --expect-fail INJECT_MASK_BUG

Exit status: 0 when every case passes; with --expect-fail DEFINE, 0 only when the build with
DEFINE fails at least one case and a failure message names a register (GPUREG_... (0x...), or
with --final-state a debug-map word). The last line of a plain run is "N passed, M failed".
Builds go to target/cocotb/<variant>/ (Icarus rebuilds only when a source is newer).
"""

import argparse
import copy
import json
import logging
import os
import re
import sys
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RTL = ROOT / "rtl-bridge" / "rtl"
EXAMPLES = ROOT / "vectors" / "examples"
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

    seed = args.seed
    if seed < 0:
        seed = int.from_bytes(os.urandom(4), "little")
    cases = [{"name": p.name, "path": str(p)}
             for p in (sorted(EXAMPLES.glob(args.lists)) if args.lists else [])]
    cases += [{"name": f"random_seed_{s}", "seed": s} for s in range(seed, seed + args.random)]
    if not cases:
        sys.exit("run.py: no cases")
    if args.random:
        print(f"random lists: seeds {seed}..{seed + args.random - 1}")

    defines = list(dict.fromkeys(args.define + args.expect_fail))
    enable_sh = 1 if args.full else 0
    variant = ("full" if args.full else "fe") + "".join(f"-{d}" for d in defines)
    if args.waves:
        variant += "-waves"  # the build differs (Icarus dump module)
    build_dir = BUILD_ROOT / variant

    runner = get_runner("icarus")
    runner.log.setLevel(logging.ERROR)  # not the "Skipping compilation ..." notes
    build_dir.mkdir(parents=True, exist_ok=True)
    build_log = build_dir / "build.log"
    tb = time.monotonic()
    try:
        runner.build(
            sources=[str(p) for p in sources()],
            hdl_toplevel="pica_top",
            parameters={"EnableSh": enable_sh},
            defines={d: 1 for d in defines},
            build_dir=str(build_dir),
            timescale=("1ns", "1ps"),
            waves=args.waves,
            verbose=False,
            log_file=str(build_log),  # Icarus 11's "sorry: constant selects" notes go here
        )
    except Exception as e:  # noqa: BLE001
        log = build_log.read_text(errors="replace") if build_log.exists() else ""
        print("\n".join(l for l in log.splitlines() if "sorry:" not in l)[-4000:])
        print(f"run.py: the Icarus build failed ({e}); log: {build_log}")
        return 2
    build_s = time.monotonic() - tb

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
                plusargs=[f"+dumpfile_path={case_dir / 'pica_top.fst'}"] if args.waves else [],
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
            print(f"bench catches {label}; {timing}")
            return 0
        why = "no case failed" if not failed else "no failure message names a register"
        for n, m in failed:
            print(f"  {n}: {m}")
        print(f"expect-fail {label}: NOT caught ({why}); {timing}")
        return 1

    for n, m in failed:
        print(f"FAIL {m}")
    if failed:
        print(f"logs: {cases_dir}/<case>/sim.log")
    print(f"pica_top cocotb bench ({variant}): {len(cases)} lists, {timing}")
    print(f"{len(cases) - len(failed)} passed, {len(failed)} failed")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
