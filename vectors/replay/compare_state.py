#!/usr/bin/env python3
"""Compare a replay_tb +dump (debug-port words) with a bundle's final_state.json.

usage: compare_state.py DUMP FINAL_STATE_JSON

final_state.json (bundle format v1) lists, per debug-map region, its start address and every
non-zero word; every other word of the region is 0. This checks every address of every listed
region and every address in the dump; prints the first mismatches and exits 1 on any.
"""
import json, sys
dump = {}
for l in open(sys.argv[1]):
    a, d = l.split()
    dump[int(a, 16)] = int(d, 16)
st = json.load(open(sys.argv[2]))
exp = {}
for r in st["debug_map"]:
    start = int(r["start"], 16)
    for i in range(r["len"]):
        exp[start + i] = 0
    for i, w in r["words"].items():
        exp[start + int(i, 16)] = int(w, 16)
bad = 0
for a in sorted(set(exp) | set(dump)):
    e, d = exp.get(a, 0), dump.get(a)
    if d is None:
        continue  # not dumped by the testbench
    if e != d:
        bad += 1
        if bad <= 10:
            print("state mismatch at 0x%04x: model 0x%08x rtl 0x%08x" % (a, e, d))
print("STATE %s (%d addresses, %d mismatches)" % ("OK" if bad == 0 else "BAD", len(dump), bad))
sys.exit(1 if bad else 0)
