"""cocotb bench of pica_axi_master (rtl-bridge/rtl/pica_axi_master.sv) against cocotbext-axi's
AxiRam, an AXI4 subordinate written independently of this project.

A driver offers random word reads and writes on the request port (most of them to eight words,
so that requests to the same word are often in flight together) and holds each until it is
taken; a monitor takes the responses with a random READY and checks each against a reference
memory updated in request order: the response of request k (they come back in request order)
carries the data the reference held when request k was taken. AxiRam's five channels pause at
random (cocotbext-axi pause generators), so responses of different IDs, and reads against
writes, come back in other orders than requested. At the end AxiRam's memory must equal the
reference. A case that makes no progress for 4,000 clocks fails, naming the oldest request
still unanswered.

Cases come from PICA_AXI_CASES (JSON: [{"name", "seed", "requests", "pause", "stream"}]), set
by run_axi.py; without it a default list runs. A `stream` case offers a request every clock,
each to its own word, with no pauses: its clocks per request are the port's throughput.
"""

import json
import os
import random
from collections import deque

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer
from cocotbext.axi import AxiBus, AxiRam

BASE = 0x100
HOT_WORDS = 8
STALL_LIMIT = 4000


def bits(sig):
    """The value of `sig` as an int (a bit that is not 0 or 1 fails)."""
    s = str(sig.value)
    if s.strip("01"):
        raise AssertionError(f"{sig._name} is {s}")
    return int(s, 2)


def pauses(rng, fraction):
    """A cocotbext-axi pause generator: True (pause) for about `fraction` of the clocks."""
    while True:
        yield rng.random() < fraction


def requests(rng, n, stream=False):
    """n random requests: (we, addr, be, wdata); `stream`: every request to its own word."""
    out = []
    for i in range(n):
        if stream:
            addr = BASE + 0x1000 + 4 * i
        elif rng.random() < 0.8:
            addr = BASE + 4 * rng.randrange(HOT_WORDS)
        else:
            addr = BASE + 0x400 + 4 * rng.randrange(256)
        we = rng.random() < 0.5
        be = rng.randrange(16) if we else 0xF
        out.append((we, addr, be, rng.getrandbits(32)))
    return out


MEM_SIZE = 2**16


async def run_case(dut, ram, case):
    rng = random.Random(case["seed"])
    stream = case.get("stream", False)
    reqs = requests(rng, case["requests"], stream)
    ram.write(0, bytes(MEM_SIZE))
    p = case["pause"]
    for ch in (ram.write_if.aw_channel, ram.write_if.w_channel, ram.write_if.b_channel,
               ram.read_if.ar_channel, ram.read_if.r_channel):
        ch.set_pause_generator(pauses(random.Random(rng.getrandbits(32)), p) if p else None)
        ch.pause = False  # clearing a generator leaves its last value

    dut.req_valid.value = 0
    dut.req_we.value = 0
    dut.req_addr.value = 0
    dut.req_be.value = 0
    dut.req_wdata.value = 0
    dut.rsp_ready.value = 0
    dut.rst_n.value = 0
    for _ in range(4):
        await RisingEdge(dut.clk)
    dut.rst_n.value = 1
    await RisingEdge(dut.clk)

    ref = {}           # word address -> value, in request order
    expected = deque()  # (k, we, addr, value at acceptance) per request taken
    pending = deque(enumerate(reqs))
    offered = None
    answered = 0
    stalled = 0
    clocks = 0
    while answered < len(reqs):
        await RisingEdge(dut.clk)
        clocks += 1
        progress = False
        # Handshakes of the clock that just ended (the values before the edge).
        if offered is not None and bits(dut.req_valid) and bits(dut.req_ready):
            k, (we, addr, be, data) = offered
            old = ref.get(addr, 0)
            if we:
                mask = sum(0xFF << (8 * i) for i in range(4) if be >> i & 1)
                ref[addr] = (old & ~mask) | (data & mask)
            expected.append((k, we, addr, old))
            offered = None
            progress = True
        if bits(dut.rsp_valid) and bits(dut.rsp_ready):
            if not expected:
                raise AssertionError(f"{case['name']}: a response with no request in flight "
                                     f"(clock {clocks})")
            k, we, addr, old = expected.popleft()
            err = bits(dut.rsp_err)
            got = None if we else bits(dut.rsp_rdata)  # a write's response carries no data
            if err:
                raise AssertionError(f"{case['name']}: response #{k} ({'write' if we else 'read'}"
                                     f" {addr:#06x}) has the error flag (clock {clocks})")
            if not we and got != old:
                raise AssertionError(
                    f"{case['name']}: response #{k} (read {addr:#06x}) returned {got:#010x}, "
                    f"the memory held {old:#010x} when it was requested (clock {clocks}; a "
                    f"write requested before it had not landed, or a stale slot)")
            answered += 1
            progress = True
        stalled = 0 if progress else stalled + 1
        if stalled > STALL_LIMIT:
            oldest = expected[0] if expected else None
            what = (f"request #{oldest[0]} ({'write' if oldest[1] else 'read'} {oldest[2]:#06x})"
                    if oldest else f"request #{pending[0][0]} (never taken)")
            raise AssertionError(f"{case['name']}: no progress for {STALL_LIMIT} clocks: "
                                 f"{what} is unanswered ({answered} of {len(reqs)} answered)")
        # Next clock's drive.
        if offered is None and pending and (stream or rng.random() < 0.85):
            offered = pending.popleft()
            _, (we, addr, be, data) = offered
            dut.req_we.value = int(we)
            dut.req_addr.value = addr
            dut.req_be.value = be
            dut.req_wdata.value = data
        dut.req_valid.value = int(offered is not None)
        dut.rsp_ready.value = int(rng.random() < (0.7 if p else 1.0))

    dut.req_valid.value = 0
    # Every request answered: the master says it is idle (nothing in flight).
    await RisingEdge(dut.clk)
    if not bits(dut.idle):
        raise AssertionError(f"{case['name']}: idle_o low with every request answered")
    for _ in range(8):
        await RisingEdge(dut.clk)
    for addr, value in sorted(ref.items()):
        got = int.from_bytes(ram.read(addr, 4), "little")
        if got != value:
            raise AssertionError(f"{case['name']}: memory word {addr:#06x} is {got:#010x} after "
                                 f"the run, the requests wrote {value:#010x}")
    dut._log.info("%s: %d requests in %d clocks", case["name"], len(reqs), clocks)
    return clocks


DEFAULT_CASES = [
    {"name": "paused-1", "seed": 1, "requests": 400, "pause": 0.3},
    {"name": "no-pause", "seed": 2, "requests": 200, "pause": 0.0},
]


@cocotb.test()
async def axi_master_cases(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    await Timer(1, "ns")
    cases = json.loads(os.environ.get("PICA_AXI_CASES") or "null") or DEFAULT_CASES
    ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst_n,
                 reset_active_level=False, size=MEM_SIZE)
    for case in cases:
        await run_case(dut, ram, case)
