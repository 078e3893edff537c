#!/usr/bin/env python3
"""Builds pica_axi_master (in tb_axi_master.sv, which names its AXI ports m_axi_*) with Icarus
Verilog and runs the cocotb bench test_axi_master.py against cocotbext-axi's AxiRam.

    target/venv/bin/python python/cocotb/run_axi.py                     # must pass
    target/venv/bin/python python/cocotb/run_axi.py --expect-fail INJECT_AXI_NO_HAZARD
    target/venv/bin/python python/cocotb/run_axi.py --expect-fail INJECT_AXI_DROP_B

Cases: seeds 1..--cases of random traffic (most requests to eight words, so that requests to
the same word meet in flight) with AxiRam's channels pausing 30 % of the clocks, the same
without pauses, and a stream of requests to distinct words offered every clock (its clocks
per request, printed, are the port's throughput). Exit
status 0 when every case passes; with --expect-fail DEFINE, 0 only when the build with DEFINE
fails a case (the failure's message is printed). Builds go to target/cocotb/axi-<defines>/.
"""

import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import BUILD_ROOT, HERE, RTL, failures, get_runner  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--expect-fail", action="append", default=[], metavar="NAME",
                    help="build with define NAME and pass only if the bench catches it")
    ap.add_argument("--cases", type=int, default=6, metavar="N",
                    help="random cases with pauses (default 6)")
    ap.add_argument("--requests", type=int, default=400, help="requests per case (default 400)")
    args = ap.parse_args()

    defines = list(dict.fromkeys(args.expect_fail))
    build_dir = BUILD_ROOT / ("axi" + "".join(f"-{d}" for d in defines))
    build_dir.mkdir(parents=True, exist_ok=True)
    runner = get_runner("icarus")
    runner.log.setLevel(logging.ERROR)
    log = build_dir / "build.log"
    try:
        runner.build(
            sources=[str(RTL / "pica_axi_master.sv"), str(HERE / "tb_axi_master.sv")],
            hdl_toplevel="tb_axi_master",
            defines={d: 1 for d in defines},
            build_dir=str(build_dir),
            timescale=("1ns", "1ps"),
            verbose=False,
            log_file=str(log),
        )
    except (SystemExit, Exception) as e:  # noqa: BLE001
        print(log.read_text(errors="replace")[-4000:] if log.exists() else "")
        print(f"run_axi.py: the Icarus build failed ({e}); log: {log}")
        return 2

    cases = [{"name": f"paused-{s}", "seed": s, "requests": args.requests, "pause": 0.3}
             for s in range(1, args.cases + 1)]
    cases.append({"name": "no-pause", "seed": 100, "requests": args.requests, "pause": 0.0})
    cases.append({"name": "stream", "seed": 101, "requests": args.requests, "pause": 0.0,
                  "stream": True})
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(HERE), os.environ.get("PYTHONPATH", "")) if p)
    os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    results = build_dir / "results.xml"
    if results.exists():
        results.unlink()
    t0 = time.monotonic()
    try:
        runner.test(
            test_module="test_axi_master",
            hdl_toplevel="tb_axi_master",
            build_dir=str(build_dir),
            test_dir=str(build_dir),
            extra_env={"PICA_AXI_CASES": json.dumps(cases)},
            results_xml=str(results),
            verbose=False,
            log_file=str(build_dir / "sim.log"),
        )
    except (SystemExit, Exception):  # noqa: BLE001 - results.xml tells
        pass
    if not results.exists():
        print(f"run_axi.py: no results ({build_dir / 'sim.log'})")
        return 2
    n, failed = failures(results)
    secs = time.monotonic() - t0
    sim_log = (build_dir / "sim.log").read_text(errors="replace")
    for line in sim_log.splitlines():
        if "requests in" in line and "clocks" in line:
            print("  " + line.split("test_axi_master")[-1].strip(" :").strip())
    if args.expect_fail:
        if failed:
            print(f"caught {', '.join(defines)}: {failed[0][1].strip().splitlines()[0]}")
            return 0
        print(f"run_axi.py: the bench did not catch {', '.join(defines)} ({len(cases)} cases)")
        return 1
    for _, msg in failed:
        print(msg.strip().splitlines()[0] if msg.strip() else "(no message)")
    print(f"{len(cases) - len(failed) if not failed else 0} of {len(cases)} cases passed"
          f" ({n} test, {secs:.0f} s)")
    return 1 if failed or n != 1 else 0


if __name__ == "__main__":
    sys.exit(main())
