#!/usr/bin/env python3
"""Compare a replay_tb +dump (debug-port words) with the model's `pica run --regs-json` state.

usage: compare_state.py DUMP STATE_JSON

Maps every field of the state JSON (regs, luts, fixed_attribs, fifos, units) to its debug-port
address (rtl-bridge/rtl/README.md "Debug read map") and prints the first mismatches; exit 1 on any.
Addresses the dump has but the map does not (they read 0) are ignored.
"""
import json, sys
dump = {}
for l in open(sys.argv[1]):
    a, d = l.split()
    dump[int(a, 16)] = int(d, 16)
st = json.load(open(sys.argv[2]))
v = lambda x: int(x, 16) if isinstance(x, str) else int(x)
exp = {}
for i, r in enumerate(st["regs"]): exp[i] = v(r)
pt = st["luts"]["proctex"]
for t, name in enumerate(["noise", "rgb_map", "alpha_map", "color", "color_diff"]):
    for i in range(256):
        exp[0x400 + t * 0x100 + i] = v(pt[name][i]) if i < len(pt[name]) else 0
for i, w in enumerate(st["luts"]["fog"]): exp[0x900 + i] = v(w)
for i, w in enumerate(st["luts"]["gas"]): exp[0x980 + i] = v(w)
for a, vec in enumerate(st["fixed_attribs"]):
    for c in range(4): exp[0xA00 + a * 4 + c] = v(vec[c])
for base, key, n in [(0xB00, "vsh_float_uniform_pending", 4), (0xB08, "gsh_float_uniform_pending", 4), (0xB10, "fixed_attrib_pending", 3)]:
    p = st["fifos"][key]
    exp[base] = len(p)
    for k in range(n): exp[base + 1 + k] = v(p[k]) if k < len(p) else 0
for t, tab in enumerate(st["luts"]["lighting"]):
    for i, w in enumerate(tab): exp[0x2000 + t * 0x100 + i] = v(w)
for u, un in enumerate(st["units"]):
    b = 0x4000 + u * 0x2000
    for i, w in enumerate(un["code"]): exp[b + i] = v(w)
    for i, w in enumerate(un["opdescs"]): exp[b + 0x1000 + i] = v(w)
    for i, vec in enumerate(un["float_uniforms"]):
        for c in range(4): exp[b + 0x1100 + i * 4 + c] = v(vec[c])
    for i, vec in enumerate(un["int_uniforms"]):
        exp[b + 0x1300 + i] = sum(v(x) << (8 * k) for k, x in enumerate(vec))
    exp[b + 0x1304] = v(un["bool_uniforms"]); exp[b + 0x1305] = v(un["entry_point"])
    exp[b + 0x1306] = v(un["outmap_mask"]); exp[b + 0x1307] = v(un["input_config"])
    p = v(un["permutation"]); exp[b + 0x1308] = p & 0xFFFFFFFF; exp[b + 0x1309] = p >> 32
bad = 0
for a in sorted(set(exp) | set(dump)):
    e, d = exp.get(a), dump.get(a)
    if e is None and d == 0:
        continue  # an address outside the map reads 0
    if e != d:
        bad += 1
        if bad <= 10: print("state mismatch at 0x%04x: model %s rtl %s" % (a, None if e is None else hex(e), None if d is None else hex(d)))
print("STATE %s (%d addresses, %d mismatches)" % ("OK" if bad == 0 else "BAD", len(exp), bad))
sys.exit(1 if bad else 0)
