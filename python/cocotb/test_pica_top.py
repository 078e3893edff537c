"""cocotb bench of `pica_top` (rtl-bridge/rtl/pica_top.sv) with the Python model as the scoreboard.

For every case (a command list of vectors/examples/*.hex, or a seeded random list built with
`pica_model.CommandList`) the model runs first — `pica_model.Gpu(front_end=True)`: CP + REGS
alone, as pica_top has them — and gives the expected register-write beats and outcome. Then
the bench drives pica_top cycle by cycle with the protocol of the Rust harness
(rtl-bridge/src/lib.rs `Rtl::reset`, `RtlGpu::view` / `clock` / `outcome`) and compares every
`trace_rw_*` beat in order (cycle, id, mask, param, value) and, at the end, the outcome. The
first difference fails the case with the list, the cycle, the register and the field.

Started by run.py (cocotb_tools.runner), which passes the cases in PICA_COCOTB_CASES (JSON).
"""

import json
import os
import random
from pathlib import Path

import cocotb
from cocotb.triggers import Timer

import pica_model as pm

LIST_ADDR = 0x2000_0000
# Model run bound; the RTL gets the model's outcome cycle plus SLACK before a cycle limit.
MAX_CYCLES = int(os.environ.get("PICA_COCOTB_MAX_CYCLES", "200000"))
SLACK = 64
# Also compare the final state (every word of the debug map, read through the debug port).
FINAL_STATE = os.environ.get("PICA_COCOTB_FINAL_STATE", "0") not in ("", "0")
STATE_DIFFS_SHOWN = 8

# Registers a random list never writes except FINALIZE at its end: FINALIZE, the draw
# triggers (DRAWARRAYS, DRAWELEMENTS, VTX_FUNC, RESTART_PRIMITIVE) and the CMDBUF jumps.
EXCLUDED = frozenset({0x010, 0x22E, 0x22F, 0x231, 0x23C, 0x23D, 0x25F})
# Register groups a random list favours (index/data ports with state: LUT FIFOs, the
# float-uniform packers, code / opdesc upload, fixed attributes, shader-unit config).
HOT_RANGES = (
    (0x0AF, 0x0B7),  # procedural-texture LUT index + data
    (0x0E6, 0x0EF),  # fog LUT
    (0x123, 0x124),  # gas LUT
    (0x1C5, 0x1CF),  # lighting LUT
    (0x229, 0x22A),  # GEOSTAGE_CONFIG
    (0x232, 0x235),  # fixed attributes / immediate vertices
    (0x242, 0x246),  # VSH_NUM_ATTR, VSH_COM_MODE, ...
    (0x280, 0x2AD),  # GSH block
    (0x2B0, 0x2DD),  # VSH block
)

_HERE = Path(__file__).resolve().parent
_DEFAULT_EXAMPLES = _HERE.parent.parent / "vectors" / "examples"


def _cases():
    raw = os.environ.get("PICA_COCOTB_CASES")
    if raw:
        return json.loads(raw)
    return [{"name": p.name, "path": str(p)} for p in sorted(_DEFAULT_EXAMPLES.glob("*.hex"))]


CASES = _cases()
_BY_NAME = {c["name"]: c for c in CASES}


def _words_of(cl):
    w = cl.words
    return list(w() if callable(w) else w)


def _rand_value(rng):
    r = rng.random()
    if r < 0.15:
        return rng.choice((0, 0xFFFF_FFFF, 0x8000_0000, 0x0000_0001, 0x3F00_0000))
    if r < 0.35:
        return rng.getrandbits(8) << (8 * rng.randrange(4))
    return rng.getrandbits(32)


def _rand_reg(rng):
    if rng.random() < 0.5:
        lo, hi = rng.choice(HOT_RANGES)
        reg = rng.randint(lo, hi)
    else:
        reg = rng.randrange(0x300)
    return None if reg in EXCLUDED else reg


def _rand_mask(rng):
    return 0xF if rng.random() < 0.5 else rng.randrange(16)


def random_list(seed):
    """A random list: random registers in 0..0x2FF (none of EXCLUDED), random masks, single,
    consecutive and repeated-ID commands of random lengths, FINALIZE at the end."""
    rng = random.Random(seed)
    cl = pm.CommandList()
    # CommandList.command(reg, mask, consecutive, params) (the Rust builder's) gives masked
    # multi-parameter commands; without it, those go unmasked through write_seq/write_repeat.
    command = getattr(cl, "command", None)
    for _ in range(rng.randint(1, 48)):
        kind = rng.random()
        if kind < 0.45:
            reg = _rand_reg(rng)
            if reg is None:
                continue
            mask = _rand_mask(rng)
            if mask == 0xF and rng.random() < 0.5:
                cl.write(reg, _rand_value(rng))
            else:
                cl.write_masked(reg, mask, _rand_value(rng))
            continue
        n = rng.randint(2, 8) if rng.random() < 0.9 else rng.randint(9, 40)
        values = [_rand_value(rng) for _ in range(n)]
        consecutive = kind < 0.75
        reg = _rand_reg(rng)
        if reg is None:
            continue
        if consecutive and any(r in EXCLUDED for r in range(reg, reg + n)):
            continue
        mask = _rand_mask(rng)
        if command is not None and mask != 0xF:
            command(reg, mask, consecutive, values)
        elif consecutive:
            cl.write_seq(reg, values)
        else:
            cl.write_repeat(reg, values)
    cl.finalize()
    return _words_of(cl)


class Expected:
    """The model's run of one case: the stream, the memory and the expected beats/outcome."""

    def __init__(self, case):
        self.name = case["name"]
        gpu = pm.Gpu(front_end=True)
        self.mem = pm.Gpu(front_end=True)  # the memory image the RTL's port reads
        self.max_cycles = MAX_CYCLES
        self.addr = LIST_ADDR
        if "seed" in case:
            words = random_list(case["seed"])
            gpu.submit_words(words, addr=LIST_ADDR)
            self.mem.write_words(LIST_ADDR, words)
            size = 4 * len(words)
        elif "bundle" in case:
            # A golden-vector bundle (vectors/corpus): its memory images, submission and cycle
            # limit from the manifest (docs/src/bundles.md, "Golden-vector bundles").
            d = Path(case["bundle"])
            m = json.loads((d / "manifest.json").read_text())
            for im in m["memory"]:
                for g in (gpu, self.mem):
                    g.load_list(d / im["file"], addr=int(im["base"], 16))
            self.addr = int(m["submit"]["addr"], 16)
            size = int(m["submit"]["size"], 16)
            self.max_cycles = int(m["max_cycles"])
            gpu.submit(self.addr, size)
        else:
            size = gpu.load_list(case["path"], addr=LIST_ADDR)
            self.mem.load_list(case["path"], addr=LIST_ADDR)
            gpu.submit(LIST_ADDR, size)
        self.size = size
        # The command stream: the first size & ~0xF bytes (the 16-byte rule), as RtlGpu::new.
        self.stream = []
        for i in range((size & ~0xF) // 4):
            try:
                self.stream.append(self.mem.read_word(self.addr + 4 * i))
            except pm.PicaError:
                self.stream.append(0)
        self.outcome = gpu.run(self.max_cycles)
        self.beats = gpu.pop_beats("regwrite")
        self.state = gpu.debug_dump() if FINAL_STATE else None

    def outcome_text(self):
        o = self.outcome
        if o.kind == "hang":
            return f"hang (code {o.hang_code}) at cycle {o.cycle}"
        return f"{o.kind} at cycle {o.cycle}"


def _reg(id_):
    try:
        name = pm.reg_name(id_)
    except Exception:  # noqa: BLE001 - a name is only decoration
        name = "?"
    return f"{name} (0x{id_:03x})"


def _debug_name(addr):
    try:
        return pm.debug_name(addr)
    except Exception:  # noqa: BLE001 - a name is only decoration
        return f"debug 0x{addr:04x}"


_FIELDS = (("cycle", "{}"), ("id", "0x{:03x}"), ("mask", "0x{:x}"), ("param", "0x{:08x}"),
           ("value", "0x{:08x}"))


def _beat_text(b):
    return (f"{_reg(b['id'])} mask 0x{b['mask']:x} param 0x{b['param']:08x} "
            f"value 0x{b['value']:08x}")


class Bench:
    def __init__(self, dut, exp):
        self.dut = dut
        self.exp = exp
        self.cycle = 0

    def rd(self, name):
        """The value of output `name` as an int. The bits come as a string ("0101", "x", ...)
        on every simulator; one not 0 or 1 (Icarus: X or Z; Verilator has two states) fails."""
        s = str(getattr(self.dut, name).value)
        if s.strip("01"):
            self.fail(f"cycle {self.cycle}: {name} is {s}")
        return int(s, 2)

    def fail(self, msg):
        raise AssertionError(f"{self.exp.name}: {msg}")

    async def tick(self, settle=True):
        d = self.dut
        d.clk_i.value = 1
        await Timer(1, "ns")
        d.clk_i.value = 0
        if settle:
            await Timer(1, "ns")

    async def reset(self):
        """Rtl::reset: rst_ni = 0, two clocks, rst_ni = 1; cycle 0 begins."""
        d = self.dut
        d.clk_i.value = 0
        d.rst_ni.value = 0
        d.hold_i.value = 0
        d.cmd_valid_i.value = 0
        d.cmd_data_i.value = 0
        d.cmd_end_i.value = 0
        d.cmd_kick_i.value = 0  # one list per run (the next submission's kick)
        d.mem_rdata_i.value = 0
        d.mem_err_i.value = 0
        d.dbg_req_i.value = 0
        d.dbg_addr_i.value = 0
        d.sh_in_valid_i.value = 0
        d.sh_in_kind_i.value = 0
        d.sh_in_seq_i.value = 0
        d.sh_in_attr_i.value = 0
        d.sh_in_last_i.value = 0
        d.sh_in_data_i.value = 0
        d.sh_out_ready_i.value = 1
        d.sh_commit_ready_i.value = 1
        await Timer(1, "ns")
        await self.tick()
        await self.tick()
        d.rst_ni.value = 1
        await Timer(1, "ns")

    def check_beat(self, k, got):
        """Compares the RTL's beat with the model's beat number k."""
        if k >= len(self.exp.beats):
            self.fail(f"beat {k} at cycle {self.cycle}: RTL wrote {_beat_text(got)}, "
                      f"the model has no more beats ({len(self.exp.beats)} in all)")
        want = self.exp.beats[k]
        for field, fmt in _FIELDS:
            if want[field] != got[field]:
                self.fail(f"beat {k} at cycle {self.cycle}: {_reg(want['id'])} {field}: "
                          f"model {fmt.format(want[field])}, RTL {fmt.format(got[field])} "
                          f"(model beat: {_beat_text(want)}; RTL beat: {_beat_text(got)})")

    async def run(self):
        d, exp = self.dut, self.exp
        await self.reset()
        # A case that ends at its cycle limit (a bundle's max_cycles) ends there for the RTL
        # too, as RtlGpu::run; otherwise the RTL gets SLACK cycles more than the model took.
        limit = exp.outcome.cycle + (0 if exp.outcome.kind == "cycle_limit" else SLACK)
        nxt = 0
        k = 0  # beats compared
        hang_seen = None
        while True:
            # Settle the cycle: the stream word, then the combinational memory port.
            have = nxt < len(exp.stream)
            d.cmd_valid_i.value = int(have)
            d.cmd_data_i.value = exp.stream[nxt] if have else 0
            d.cmd_end_i.value = int(not have)
            d.mem_rdata_i.value = 0
            d.mem_err_i.value = 0
            await Timer(1, "ns")
            if self.rd("mem_req_o"):
                addr = self.rd("mem_addr_o")
                try:
                    d.mem_rdata_i.value = exp.mem.read_word(addr)
                except pm.PicaError:
                    d.mem_err_i.value = 1
                await Timer(1, "ns")
            finished = self.rd("finished_o")
            hang = self.rd("hang_o")
            code = self.rd("hang_reason_o")
            idle = self.rd("idle_o")
            if hang and hang_seen is None:
                hang_seen = (self.cycle, code)
            # RtlGpu::outcome: finished, or hung with nothing in flight; hang_o is a flop set at
            # the end of the hang cycle, so the hang cycle is the one before it rose.
            got = None
            if finished:
                got = ("finished", self.cycle, 0)
            elif hang and idle:
                got = ("hang", max(hang_seen[0] - 1, 0), hang_seen[1])
            elif self.cycle >= limit:
                got = ("cycle_limit", self.cycle, 0)
            if got is not None:
                return self.finish(k, got)
            if self.rd("trace_rw_valid_o"):
                beat = {
                    "cycle": self.cycle,
                    "id": self.rd("trace_rw_id_o"),
                    "mask": self.rd("trace_rw_mask_o"),
                    "param": self.rd("trace_rw_param_o"),
                    "value": self.rd("trace_rw_value_o"),
                }
                self.check_beat(k, beat)
                k += 1
            elif k < len(exp.beats) and exp.beats[k]["cycle"] <= self.cycle:
                want = exp.beats[k]
                self.fail(f"beat {k} at cycle {want['cycle']}: {_reg(want['id'])}: the model "
                          f"wrote {_beat_text(want)}, the RTL wrote nothing in cycle "
                          f"{self.cycle}")
            if have and self.rd("cmd_ready_o"):
                nxt += 1
            await self.tick(settle=False)
            self.cycle += 1

    async def final_state(self):
        """Reads the whole debug map through the debug port (dbg_rdata_o holds the word of the
        address presented in the previous cycle) and compares it with Gpu.debug_dump()."""
        d, want = self.dut, self.exp.state
        d.cmd_valid_i.value = 0
        d.cmd_end_i.value = 1
        d.dbg_req_i.value = 1
        diffs = []
        if want:
            d.dbg_addr_i.value = want[0][0]
            await Timer(1, "ns")
        for i, (addr, word) in enumerate(want):
            # The clock edge takes the address presented this cycle; the next one goes with
            # the falling edge.
            d.clk_i.value = 1
            await Timer(1, "ns")
            got = self.rd("dbg_rdata_o")
            d.clk_i.value = 0
            if i + 1 < len(want):
                d.dbg_addr_i.value = want[i + 1][0]
            await Timer(1, "ns")
            if got != word:
                diffs.append((addr, word, got))
        d.dbg_req_i.value = 0
        await Timer(1, "ns")
        if diffs:
            shown = "; ".join(f"0x{a:04x} {_debug_name(a)}: model 0x{w:08x}, RTL 0x{g:08x}"
                              for a, w, g in diffs[:STATE_DIFFS_SHOWN])
            self.fail(f"final state: {len(diffs)} of {len(want)} debug words differ: {shown}")
        return len(want)

    def finish(self, k, got):
        exp = self.exp
        o = exp.outcome
        kind, cycle, code = got
        want = (o.kind, o.cycle, o.hang_code if o.kind == "hang" else 0)
        if want != got:
            rtl = f"hang (code {code}) at cycle {cycle}" if kind == "hang" else \
                f"{kind} at cycle {cycle}"
            self.fail(f"outcome: model {exp.outcome_text()}, RTL {rtl} "
                      f"({k} of {len(exp.beats)} beats compared; model: {o.message})")
        if k < len(exp.beats):
            want_b = exp.beats[k]
            self.fail(f"beat {k} at cycle {want_b['cycle']}: {_reg(want_b['id'])}: the model "
                      f"wrote {_beat_text(want_b)}, the RTL ended ({kind} at cycle {cycle}) "
                      f"before writing it")
        return k


@cocotb.test()
@cocotb.parametrize(case=[c["name"] for c in CASES])
async def lockstep(dut, case):
    """One command list: model beats and outcome vs pica_top's."""
    spec = _BY_NAME[case]
    if "seed" in spec:
        dut._log.info("%s: random list, seed %d", case, spec["seed"])
    exp = Expected(spec)
    if exp.outcome.kind == "cycle_limit" and exp.max_cycles == MAX_CYCLES:
        raise AssertionError(f"{case}: the model did not end within {MAX_CYCLES} cycles")
    bench = Bench(dut, exp)
    n = await bench.run()
    dut._log.info("%s: %d beats equal, %s (%d stream words)", case, n, exp.outcome_text(),
                  len(exp.stream))
    if FINAL_STATE:
        words = await bench.final_state()
        dut._log.info("%s: final state equal (%d debug words)", case, words)
