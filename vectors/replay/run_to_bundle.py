#!/usr/bin/env python3
"""Turn one `pica run` of a command list into a replay bundle (format v1, rtl-contract.md).

A developer tool for checking the RTL against the model before the real bundle writer
(crate pica-vectors) exists: it runs `pica run LIST --beats B.jsonl --regs-json S.json` and
converts the outputs. The list is loaded at --list-addr (default 0x20000000) and kept whole as a
memory image (CMDBUF jumps may land anywhere in it); stim.hex holds size & ~0xF bytes of it.

usage: run_to_bundle.py LIST OUTDIR [--pica BIN] [--case NAME] [--list-addr 0xADDR]
                        [--mem 0xADDR=FILE]... [--max-cycles N]
"""
import argparse
import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

REASON_CODES = {"missing_finalize": 1, "command_past_end": 2, "fetch_unmapped": 3}


def read_words(path):
    """Words of a .hex/.txt (whitespace-separated hex, # and // comments) or binary file."""
    if path.endswith((".hex", ".txt")):
        words = []
        with open(path) as f:
            for line in f:
                line = re.split(r"#|//", line, maxsplit=1)[0]
                for tok in line.split():
                    words.append(int(tok, 16) & 0xFFFFFFFF)
        return words
    data = open(path, "rb").read()
    return list(struct.unpack("<%dI" % (len(data) // 4), data))


def write_words(path, words):
    with open(path, "w") as f:
        for w in words:
            f.write("%08x\n" % w)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("list")
    ap.add_argument("outdir")
    ap.add_argument("--pica", default=os.environ.get("PICA", "target/release/pica"))
    ap.add_argument("--case")
    ap.add_argument("--list-addr", default="0x20000000")
    ap.add_argument("--mem", action="append", default=[])
    ap.add_argument("--max-cycles", type=int, default=100000000)
    a = ap.parse_args()

    os.makedirs(a.outdir, exist_ok=True)
    list_addr = int(a.list_addr, 16)
    words = read_words(a.list)
    size = 4 * len(words)
    with tempfile.TemporaryDirectory() as tmp:
        beats_path = os.path.join(tmp, "b.jsonl")
        state_path = os.path.join(tmp, "s.json")
        cmd = [a.pica, "run", a.list, "--list-addr", a.list_addr, "--max-cycles",
               str(a.max_cycles), "--beats", beats_path, "--regs-json", state_path]
        for m in a.mem:
            cmd += ["--mem", m]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode not in (0, 3, 4):
            sys.exit("pica run failed (%d): %s%s" % (r.returncode, r.stdout, r.stderr))
        beats = [json.loads(l) for l in open(beats_path) if l.strip()]
        state = json.load(open(state_path))

    files = {}
    stim = words[: (size & ~0xF) // 4]
    write_words(os.path.join(a.outdir, "stim.hex"), stim)
    memory = []
    images = [(list_addr, words)] + [
        (int(m.split("=", 1)[0], 16), read_words(m.split("=", 1)[1])) for m in a.mem]
    for base, ws in images:
        name = "mem_%08x.hex" % base
        write_words(os.path.join(a.outdir, name), ws)
        memory.append({"file": name, "base": "0x%08x" % base, "words": len(ws)})

    with open(os.path.join(a.outdir, "regwrite.hex"), "w") as f:
        for b in beats:
            v = (int(b["cycle"]) << 96) | (int(b["mask"], 16) << 81) | (int(b["id"], 16) << 64) \
                | (int(b["param"], 16) << 32) | int(b["value"], 16)
            f.write("%032x\n" % v)
    with open(os.path.join(a.outdir, "regwrite.jsonl"), "w") as f:
        for b in beats:
            f.write(json.dumps(b, sort_keys=True) + "\n")
    write_words(os.path.join(a.outdir, "final_regs.hex"), [int(x, 16) for x in state["regs"]])
    with open(os.path.join(a.outdir, "final_state.json"), "w") as f:
        json.dump(state, f, sort_keys=True, separators=(",", ":"))

    o = state["outcome"]
    kind = o["outcome"]
    if kind == "hang":
        cycle, code = o["cycle"], REASON_CODES.get(o["reason"]["kind"], 0)
    else:
        cycle, code = o["cycles"], 0
    for n in sorted(os.listdir(a.outdir)):
        if n != "manifest.json":
            files[n] = hashlib.sha256(open(os.path.join(a.outdir, n), "rb").read()).hexdigest()
    manifest = {
        "format": "pica-vectors", "version": 1,
        "case": a.case or os.path.splitext(os.path.basename(a.list))[0],
        "provenance": {"source": "model", "generator": "vectors/replay/run_to_bundle.py",
                       "model_version": "0.1.0", "seed": None},
        "submit": {"addr": "0x%08x" % list_addr, "size": "0x%08x" % size},
        "max_cycles": a.max_cycles,
        "stim": {"file": "stim.hex", "words": len(stim)},
        "memory": memory,
        "streams": [{"channel": "regwrite", "hex": "regwrite.hex", "jsonl": "regwrite.jsonl",
                     "beats": len(beats), "width": 128, "cycle_exact": True,
                     "fields": [{"name": "cycle", "lsb": 96, "width": 32},
                                {"name": "mask", "lsb": 81, "width": 4},
                                {"name": "id", "lsb": 64, "width": 17},
                                {"name": "param", "lsb": 32, "width": 32},
                                {"name": "value", "lsb": 0, "width": 32}]}],
        "final_state": {"json": "final_state.json", "regs_hex": "final_regs.hex"},
        "outcome": {"kind": kind, "cycle": cycle, "hang_reason_code": code,
                    "message": o.get("message", "")},
        "files": files,
    }
    with open(os.path.join(a.outdir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
