"""Tests of the pica_model Python package (run: pytest python/tests).

Expected values come from the Rust model through the `pica` CLI (`pica run LIST --front-end
--beats -`, `pica scene render NAME --vectors DIR`, `pica asm`), so these tests check that the
bindings hand out exactly what the model computes.
"""

import hashlib
import struct
from pathlib import Path

import pytest

import pica_model as pm

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "vectors" / "examples"
LIST_ADDR = 0x2000_0000

# `pica run vectors/examples/02_seed_consecutive.hex --front-end --beats -`:
# (cycle, mask, id, param, value)
SEED_BEATS = [
    (2, 0xF, 0x11C, 0xAAAAAAAA, 0xAAAAAAAA),
    (3, 0xF, 0x11D, 0xBBBBBBBB, 0xBBBBBBBB),
    (4, 0xF, 0x11E, 0xCCCCCCCC, 0xCCCCCCCC),
    (6, 0xF, 0x120, 0x11111111, 0x11111111),
    (7, 0xF, 0x120, 0x22222222, 0x22222222),
    (8, 0xF, 0x120, 0x33333333, 0x33333333),
    (10, 0xF, 0x121, 0x44444444, 0x44444444),
    (11, 0xF, 0x121, 0x55555555, 0x55555555),
    (14, 0x0, 0x000, 0x00000000, 0x00000000),
    (16, 0xF, 0x010, 0x12345678, 0x12345678),
]


def beat_tuples(beats):
    return [(b["cycle"], b["mask"], b["id"], b["param"], b["value"]) for b in beats]


def seed_gpu(**kw):
    gpu = pm.Gpu(front_end=True, **kw)
    n = gpu.load_list(EXAMPLES / "02_seed_consecutive.hex")
    gpu.submit(LIST_ADDR, n)
    return gpu


# ---------------------------------------------------------------- package surface


def test_version_and_tables():
    assert isinstance(pm.__version__, str) and pm.__version__.count(".") == 2
    assert pm.CHANNELS == [
        "regwrite",
        "shader_in",
        "shader_out",
        "commit",
        "primitive",
        "fragment",
        "pixel",
        "texel",
        "combiner",
        "tex_color",
    ]
    assert pm.channel_fields("regwrite") == [
        ("cycle", 32, 1),
        ("mask", 4, 1),
        ("id", 17, 1),
        ("param", 32, 1),
        ("value", 32, 1),
    ]
    assert pm.channel_fields("primitive") == [("cycle", 32, 1), ("seq", 32, 1), ("v", 24, 72)]
    assert pm.FINALIZE_VALUE == 0x12345678
    assert pm.DEFAULT_LIST_ADDR == LIST_ADDR
    assert pm.REG_COUNT == 0x300
    assert pm.MEMORY_REGIONS == [
        ("VRAM", 0x18000000, 0x600000),
        ("FCRAM", 0x20000000, 0x8000000),
    ]
    for exc in (pm.UnmappedError, pm.SubmitError, pm.ParseError, pm.AsmError, pm.BusyError):
        assert issubclass(exc, pm.PicaError)
    for exc in (pm.UnmappedError, pm.SubmitError, pm.ParseError, pm.AsmError):
        assert issubclass(exc, ValueError)


# ---------------------------------------------------------------- command lists


def test_seed_list_exact_beats_and_outcome():
    gpu = seed_gpu()
    assert gpu.outcome is None
    out = gpu.run()
    assert out == pm.Outcome("finished", 17, message="finished in 17 cycles")
    assert (out.kind, out.cycle, out.hang_code, out.reason) == ("finished", 17, 0, None)
    assert out.finished
    assert gpu.cycle == 17
    assert gpu.outcome == out
    assert gpu.beat_count("regwrite") == 10
    beats = gpu.pop_beats("regwrite")
    assert beat_tuples(beats) == SEED_BEATS
    assert beats[0] == {
        "channel": "regwrite",
        "cycle": 2,
        "mask": 15,
        "id": 0x11C,
        "param": 0xAAAAAAAA,
        "value": 0xAAAAAAAA,
    }
    assert list(beats[0]) == ["channel", "cycle", "mask", "id", "param", "value"]
    assert gpu.beat_count("regwrite") == 0
    assert gpu.beats_recorded("regwrite") == 10
    assert gpu.pop_beats("regwrite") == []
    assert gpu.pop_beat("regwrite") is None
    # The front end alone: no pipeline beats.
    for ch in pm.CHANNELS[1:]:
        assert gpu.beat_count(ch) == 0
    assert gpu.reg(0x11C) == 0xAAAAAAAA
    assert gpu.reg("GPUREG_GAS_LIGHT_XY") == 0x33333333
    assert gpu.reg("gas_light_z") == 0x55555555
    assert gpu.reg("GPUREG_FINALIZE") == 0x12345678


def test_pop_beat_one_at_a_time():
    gpu = seed_gpu()
    gpu.run()
    got = []
    while True:
        assert gpu.beat_count("regwrite") == 10 - len(got)
        b = gpu.pop_beat("regwrite")
        if b is None:
            break
        got.append(b)
    assert beat_tuples(got) == SEED_BEATS


def test_beats_pop_as_they_happen_while_stepping():
    gpu = seed_gpu()
    gpu.step(5)
    assert gpu.cycle == 5
    assert beat_tuples(gpu.pop_beats("regwrite")) == SEED_BEATS[:3]
    gpu.step()
    gpu.step(1)
    assert beat_tuples(gpu.pop_beats("regwrite")) == SEED_BEATS[3:4]
    assert gpu.run().cycle == 17
    assert beat_tuples(gpu.pop_beats("regwrite")) == SEED_BEATS[4:]


def test_cycle_limit_then_continue():
    gpu = seed_gpu()
    out = gpu.run(max_cycles=5)
    assert (out.kind, out.cycle, out.hang_code) == ("cycle_limit", 5, 0)
    assert out.message == "cycle limit reached after 5 cycles"
    assert gpu.outcome is None
    assert gpu.run().cycle == 17


def test_same_list_four_ways():
    text = (EXAMPLES / "02_seed_consecutive.hex").read_text()
    words = pm.parse_hex(text, "02.hex")
    assert len(words) == 16 and words[:2] == [0xAAAAAAAA, 0x802F011C]
    assert pm.read_words(EXAMPLES / "02_seed_consecutive.hex") == words

    a = pm.Gpu(front_end=True)
    a.submit_words(words)
    b = pm.Gpu(front_end=True)
    b.write_words(0x2010_0000, words)
    b.submit(0x2010_0000, 64)
    c = pm.Gpu(front_end=True)
    c.write_mem(LIST_ADDR, struct.pack("<16I", *words))
    assert c.read_mem(LIST_ADDR, 64) == struct.pack("<16I", *words)
    assert c.read_word(LIST_ADDR + 4) == 0x802F011C
    c.submit(LIST_ADDR, 64)
    for gpu in (a, b, c):
        assert gpu.run().cycle == 17
        assert beat_tuples(gpu.pop_beats("regwrite")) == SEED_BEATS


def test_load_list_binary(tmp_path):
    words = pm.read_words(EXAMPLES / "02_seed_consecutive.hex")
    path = tmp_path / "seed.bin"
    path.write_bytes(struct.pack("<16I", *words))
    gpu = pm.Gpu(front_end=True)
    assert gpu.load_list(str(path), addr=0x1800_0000) == 64
    assert gpu.read_mem(0x1800_0000, 64) == path.read_bytes()
    gpu.submit(0x1800_0000, 64)
    assert gpu.run().cycle == 17
    assert beat_tuples(gpu.pop_beats("regwrite")) == SEED_BEATS
    assert pm.parse_bin(path.read_bytes()) == words
    # An odd extension with an explicit format.
    other = tmp_path / "seed.dat"
    other.write_bytes(path.read_bytes())
    assert pm.Gpu().load_list(other, format="bin") == 64


def test_read_mem_unwritten_and_unaligned():
    gpu = pm.Gpu()
    assert gpu.read_mem(0x1800_0001, 7) == bytes(7)
    gpu.write_mem(0x1800_0FFE, b"\x44\x33\x22\x11")
    assert gpu.read_word(0x1800_0FFE) == 0x11223344
    assert gpu.read_mem(0x1800_0FFD, 6) == b"\x00\x44\x33\x22\x11\x00"
    assert gpu.read_mem(0x1800_0000, 0) == b""
    gpu.write_mem(0x2000_0000, bytearray(b"\x01\x02"))
    gpu.write_mem(0x2000_0002, memoryview(b"\x03\x04"))
    assert gpu.read_word(0x2000_0000) == 0x04030201


def test_hang_past_end():
    gpu = pm.Gpu(front_end=True)
    assert gpu.load_list(EXAMPLES / "11_hang_past_end.hex") == 16
    gpu.submit(LIST_ADDR, 16)
    out = gpu.run()
    assert (out.kind, out.cycle, out.hang_code, out.reason) == ("hang", 4, 2, "command_past_end")
    assert not out.finished
    assert out.message == (
        "hang at cycle 4: command at 0x20000000 runs past the end of the buffer "
        "0x20000000+0x10 (header 0x803f011c: GPUREG_DEPTHBUFFER_LOC with 3 extra parameter(s))"
    )
    assert beat_tuples(gpu.pop_beats("regwrite")) == SEED_BEATS[:3]
    assert "hang" in repr(out) and "hang_code=2" in repr(out)
    assert str(out) == out.message


def test_hang_16_byte_rule_code():
    gpu = pm.Gpu(front_end=True)
    gpu.load_list(EXAMPLES / "10_hang_16byte_rule.hex")
    gpu.submit(LIST_ADDR, 24)
    out = gpu.run()
    assert (out.kind, out.cycle, out.hang_code, out.reason) == ("hang", 4, 1, "missing_finalize")


def test_consecutive_submissions_and_memory_fill():
    # Two lists on one GPU: the second is submitted once the first finished and merges a
    # masked write into the value the first left; a fill between them changes memory only.
    gpu = pm.Gpu(front_end=True)
    gpu.submit_words([0x0011_2233, 0x000F_00E1, 0x1234_5678, 0x000F_0010])
    first = gpu.run()
    assert first.finished
    gpu.memory_fill(0x1800_0000, 0x1800_0010, 0x00AB_CDEF, width=24)
    assert gpu.read_word(0x1800_0000) == 0xEFABCDEF
    gpu.submit_words([0x0000_00EE, 0x0001_00E1, 0x1234_5678, 0x000F_0010], addr=0x2000_1000)
    second = gpu.run()
    assert second.finished and second.cycle == 2 * first.cycle
    assert gpu.reg(0x0E1) == 0x0011_22EE
    with pytest.raises(ValueError):
        gpu.memory_fill(0x1800_0004, 0x1800_0010, 0, width=32)
    with pytest.raises(ValueError):
        gpu.memory_fill(0x1800_0000, 0x1800_0010, 0, width=8)
    with pytest.raises(pm.UnmappedError):
        gpu.memory_fill(0x1000_0000, 0x1000_0010, 0)
    # A list that is still running refuses the next submission.
    gpu.submit_words([0x0000_00EE, 0x0001_00E1, 0x1234_5678, 0x000F_0010], addr=0x2000_2000)
    gpu.step()
    with pytest.raises(pm.SubmitError):
        gpu.submit(0x2000_1000, 16)
    with pytest.raises(pm.BusyError):
        gpu.memory_fill(0x1800_0000, 0x1800_0010, 0)


def test_not_submitted():
    out = pm.Gpu().run()
    assert (out.kind, out.cycle, out.hang_code, out.reason) == ("hang", 0, 0, "not_submitted")
    assert out.message == "hang at cycle 0: no command buffer was submitted"


def test_outcome_value_semantics():
    a = pm.Outcome("hang", 4, hang_code=2, message="m", reason="command_past_end")
    b = pm.Outcome("hang", 4, 2, "m", "command_past_end")
    assert a == b and hash(a) == hash(b)
    assert a != pm.Outcome("hang", 5, 2, "m", "command_past_end")
    assert a != "hang"
    assert repr(pm.Outcome("finished", 3, message="x")) == (
        "Outcome(kind='finished', cycle=3, hang_code=0, message='x')"
    )
    with pytest.raises(ValueError, match="kind = 'done'"):
        pm.Outcome("done", 1)


# ---------------------------------------------------------------- register writes


def test_write_reg_masking_merges_bytes():
    gpu = pm.Gpu()
    gpu.write_reg("GPUREG_FOG_COLOR", 0x11223344)
    gpu.write_reg(0x0E1, 0xAABBCCDD, mask=0x6)
    gpu.write_reg(0x0E1, 0xEEFFFFFF, 0x8)
    assert gpu.pushed_writes == 3
    out = gpu.run()
    assert (out.kind, out.cycle) == ("finished", 3)
    assert gpu.reg(0x0E1) == 0xEEBBCC44
    assert beat_tuples(gpu.pop_beats("regwrite")) == [
        (0, 0xF, 0x0E1, 0x11223344, 0x11223344),
        (1, 0x6, 0x0E1, 0xAABBCCDD, 0x11BBCC44),
        (2, 0x8, 0x0E1, 0xEEFFFFFF, 0xEEBBCC44),
    ]


def test_write_reg_steps_while_channel_full():
    gpu = pm.Gpu(front_end=True)
    for i in range(10):
        gpu.write_reg(0x0E1, i)
    # The CP -> REGS channel holds 4 writes and REGS takes one per cycle, with the channel's
    # registered ready: write_reg stepped the clock 7 times to get the 10 writes in.
    assert gpu.cycle == 7
    assert gpu.run().cycle == 10
    beats = gpu.pop_beats("regwrite")
    assert [(b["cycle"], b["value"]) for b in beats] == [(i, i) for i in range(10)]


def test_write_regs_batch_equals_single_writes():
    writes = [(0x0E1, 0x1000 + i) for i in range(50)]
    writes += [("GPUREG_FOG_COLOR", 0xFFFFFFFF, 0x1), ("0x0e1", 0x0, 0x2), [0x0E1, 7, 0x4]]
    one = pm.Gpu()
    for w in writes:
        one.write_reg(*w)
    batch = pm.Gpu()
    assert batch.write_regs(writes) == len(writes)
    assert batch.write_regs(iter([])) == 0
    assert batch.cycle == one.cycle
    assert one.run() == batch.run()
    assert one.pop_beats("regwrite") == batch.pop_beats("regwrite")
    # 0x1031, then byte 0 <- 0xFF, byte 1 <- 0x00, byte 2 <- 0x00 (7 has no bits there).
    assert batch.reg(0x0E1) == 0x000000FF


def test_write_reg_after_list_and_beyond_register_space():
    gpu = seed_gpu()
    gpu.run()
    gpu.write_reg(0x100FE, 0x1234)  # the highest ID a header can reach: no storage
    gpu.write_reg("GPUREG_FOG_COLOR", 5)
    out = gpu.run()
    assert (out.kind, out.cycle) == ("finished", 19)
    assert beat_tuples(gpu.pop_beats("regwrite"))[-2:] == [
        (17, 0xF, 0x100FE, 0x1234, 0),
        (18, 0xF, 0x0E1, 5, 5),
    ]


def test_write_reg_refused_while_list_runs():
    gpu = seed_gpu()
    gpu.step(3)
    with pytest.raises(pm.BusyError, match="still running"):
        gpu.write_reg(0x0E1, 1)
    with pytest.raises(pm.PicaError):
        gpu.write_regs([(0x0E1, 1)])


def test_set_knob_changes_the_result_and_is_checked():
    # FINALIZE 0, SCISSORTEST_POS = 0xABCD, FINALIZE 1 (model/tests/knobs.rs,
    # knob_cp_end_value_nonzero_runs_past_a_zero_finalize).
    words = [0, 0x000F0010, 0xABCD, 0x000F0066, 1, 0x000F0010, 0, 0x000F0000]

    def run(**knobs):
        gpu = pm.Gpu(front_end=True)
        for name, value in knobs.items():
            gpu.set_knob(name.replace("_", "-"), value)
        assert gpu.knobs == {n.replace("_", "-"): v for n, v in knobs.items()}
        gpu.submit_words(words)
        assert gpu.run().kind == "finished"
        return gpu

    assert run().reg(0x066) == 0
    gpu = run(cp_end_value="nonzero")
    assert gpu.reg(0x066) == 0xABCD
    with pytest.raises(pm.BusyError, match="before it runs"):
        gpu.set_knob("cp-end-value", "any")
    fresh = pm.Gpu()
    with pytest.raises(KeyError, match="unknown knob 'nope'"):
        fresh.set_knob("nope", "x")
    with pytest.raises(ValueError, match="any\\|nonzero"):
        fresh.set_knob("cp-end-value", "sometimes")
    fresh.set_knob("min-subnormal", "flush")
    assert fresh.knobs == {"min-subnormal": "flush"}


# ---------------------------------------------------------------- register table


def test_reg_names_round_trip():
    for i in range(0x300):
        name = pm.reg_name(i)
        assert name.startswith("GPUREG_")
        assert pm.reg_id(name) == i
        assert pm.reg_id(name.lower()) == i
    assert pm.reg_name(0x010) == "GPUREG_FINALIZE"
    assert pm.reg_id("FINALIZE") == 0x010
    assert pm.reg_id("0x0e1") == 0x0E1
    assert pm.reg_name(0x100FE) == "GPUREG_100FE (beyond 0x2FF)"


def test_decode_reg():
    assert pm.decode_reg("GPUREG_FACECULLING_CONFIG", 2) == [("mode", 2, "BackCcw (2)")]
    assert pm.decode_reg(0x010, 0x12345678) == pm.decode_reg("GPUREG_FINALIZE", 0x12345678)
    fields = pm.decode_reg(0x2FF, 5)
    assert fields == [("value", 5, "5")]


def test_regs_and_debug_map():
    gpu = seed_gpu()
    gpu.run()
    regs = gpu.regs()
    assert len(regs) == 0x300 and regs[0x11D] == 0xBBBBBBBB
    assert gpu.debug_read(0x11D) == 0xBBBBBBBB
    dump = gpu.debug_dump()
    assert dump[0x11D] == (0x11D, 0xBBBBBBBB)
    assert dict(dump)[0x010] == 0x12345678
    assert len(dump) > 0x300
    assert pm.debug_name(0x903) == "fog[0x003]"
    assert pm.debug_name(0x4010) == "unit0.code[0x010]"


# ---------------------------------------------------------------- CommandList


def test_command_list_encoding():
    cl = pm.CommandList()
    assert cl.write_seq(0x11C, [0xAAAAAAAA, 0xBBBBBBBB, 0xCCCCCCCC]) is cl
    assert cl.words == [0xAAAAAAAA, 0x802F011C, 0xBBBBBBBB, 0xCCCCCCCC]
    cl = pm.CommandList().write_repeat(0x2CC, [1, 2])
    assert cl.words == [1, 0x001F02CC, 2, 0]
    cl.finalize()
    assert cl.byte_len % 16 == 0 and cl.byte_len == 4 * len(cl)
    assert cl.words[-2:] == [pm.FINALIZE_VALUE, 0x000F0010]
    assert pm.CommandList().write_masked("GPUREG_FOG_COLOR", 0x6, 5).words == [5, 0x000600E1]
    assert pm.CommandList().write("FINALIZE", 1).words == [1, 0x000F0010]
    assert pm.CommandList().command(0x11C, 0xF, True, [1, 2]).words == [1, 0x801F011C, 2, 0]
    assert pm.CommandList().to_bytes() == b""
    assert pm.CommandList().write(1, 2) == pm.CommandList().write(1, 2)


def test_command_list_reproduces_seed_example():
    cl = (
        pm.CommandList()
        .write_seq(0x11C, [0xAAAAAAAA, 0xBBBBBBBB, 0xCCCCCCCC])
        .write_repeat(0x120, [0x11111111, 0x22222222, 0x33333333])
        .write_repeat(0x121, [0x44444444, 0x55555555])
        .finalize()
    )
    assert cl.words == pm.read_words(EXAMPLES / "02_seed_consecutive.hex")
    gpu = pm.Gpu(front_end=True)
    gpu.submit_words(cl.words)
    assert gpu.run().cycle == 17


# ---------------------------------------------------------------- bad arguments


def test_bad_addresses_raise():
    gpu = pm.Gpu()
    with pytest.raises(pm.UnmappedError, match="0x00000000"):
        gpu.write_mem(0x0, b"\x01")
    with pytest.raises(ValueError, match="outside VRAM"):
        gpu.read_word(0x0)
    with pytest.raises(pm.UnmappedError):
        gpu.read_mem(0x185F_FFFE, 4)  # straddles the end of VRAM
    with pytest.raises(pm.UnmappedError):
        gpu.write_words(0x0, [1])
    with pytest.raises(pm.SubmitError, match="not 8-byte aligned"):
        gpu.submit(0x2000_0004, 16)
    with pytest.raises(pm.SubmitError, match="outside VRAM"):
        gpu.submit(0x0, 16)
    with pytest.raises(pm.UnmappedError):
        gpu.submit_words([0, 0], addr=0x1000)


def test_bad_numbers_raise_value_error_naming_the_argument():
    gpu = pm.Gpu()
    with pytest.raises(ValueError, match="addr = -4 is negative"):
        gpu.write_mem(-4, b"x")
    with pytest.raises(ValueError, match=r"value = -1 is negative"):
        gpu.write_reg(0x0E1, -1)
    with pytest.raises(ValueError, match=r"value = 0x100000000 is too large"):
        gpu.write_reg(0x0E1, 1 << 32)
    with pytest.raises(ValueError, match="too large"):
        gpu.write_reg(0x0E1, 1 << 200)
    with pytest.raises(ValueError, match=r"mask = 0x10 is too large \(at most 0xf\)"):
        gpu.write_reg(0x0E1, 1, mask=0x10)
    with pytest.raises(ValueError, match=r"reg = 0x10100 is too large"):
        gpu.write_reg(0x10100, 1)
    with pytest.raises(ValueError, match=r"words\[1\] = -2 is negative"):
        gpu.write_words(0x2000_0000, [1, -2])
    with pytest.raises(ValueError, match=r"reg = 0x300 is too large"):
        gpu.reg(0x300)
    with pytest.raises(ValueError, match="addr = 0x10000 is too large"):
        gpu.debug_read(0x10000)
    with pytest.raises(ValueError, match="n = -1 is negative"):
        gpu.step(-1)
    with pytest.raises(ValueError, match="max_cycles"):
        gpu.run(-5)
    with pytest.raises(ValueError, match="mask"):
        pm.CommandList().write_masked(0x10, 0x1F, 0)
    with pytest.raises(ValueError, match="params is empty"):
        pm.CommandList().command(0x10, 0xF, False, [])
    with pytest.raises(ValueError, match=r"reg = 0x10000 is too large"):
        pm.CommandList().write(0x10000, 0)
    assert gpu.pushed_writes == 0  # nothing half-done


def test_bad_types_raise_type_error():
    gpu = pm.Gpu()
    with pytest.raises(TypeError, match="value must be an int, not str"):
        gpu.write_reg(0x0E1, "1")
    with pytest.raises(TypeError, match="reg must be a register ID"):
        gpu.write_reg(1.5, 1)
    with pytest.raises(TypeError, match="data must be bytes-like, not str"):
        gpu.write_mem(0x2000_0000, "abc")
    with pytest.raises(TypeError, match="not int"):
        gpu.write_mem(0x2000_0000, 5)
    with pytest.raises(TypeError, match="iterable of ints"):
        gpu.write_words(0x2000_0000, "abc")
    with pytest.raises(TypeError, match="writes must be an iterable"):
        gpu.write_regs(5)


def test_write_regs_names_the_bad_element():
    gpu = pm.Gpu()
    with pytest.raises(TypeError, match=r"writes\[1\] must be a \(reg, value\)"):
        gpu.write_regs([(0x0E1, 1), (0x0E1,)])
    with pytest.raises(ValueError, match=r"writes\[2\] mask = 0x1f is too large"):
        gpu.write_regs([(0x0E1, 1), (0x0E1, 2), (0x0E1, 3, 0x1F)])
    with pytest.raises(KeyError, match=r"writes\[0\] reg: unknown register name 'NOPE'"):
        gpu.write_regs([("NOPE", 1)])
    # The good writes before the bad one went in.
    assert gpu.pushed_writes == 3


def test_unknown_names_raise_key_error():
    gpu = pm.Gpu()
    with pytest.raises(KeyError, match="unknown channel 'nope'"):
        gpu.pop_beat("nope")
    with pytest.raises(KeyError, match="unknown channel"):
        gpu.pop_beats("RegWrite")
    with pytest.raises(KeyError, match="unknown channel"):
        gpu.beat_count("")
    with pytest.raises(KeyError, match="unknown channel"):
        pm.channel_fields("x")
    with pytest.raises(KeyError, match="unknown register name 'GPUREG_NOPE'"):
        pm.reg_id("GPUREG_NOPE")
    with pytest.raises(KeyError, match="unknown register name"):
        gpu.write_reg("GPUREG_NOPE", 1)
    with pytest.raises(KeyError, match="unknown register name"):
        gpu.reg("0x300")
    with pytest.raises(KeyError, match="unknown scene"):
        pm.scene("prim/nope")


def test_bad_hex_names_the_line():
    with pytest.raises(pm.ParseError, match=r"^t\.hex:2:10: 'zz' is not a hex word$"):
        pm.parse_hex("00000000\n12345678 zz  # comment\n", name="t.hex")
    with pytest.raises(ValueError, match=r"<string>:1:1: '123456789' has more than 8 hex digits"):
        pm.parse_hex("123456789")
    assert pm.parse_hex("# only a comment\n0x1 // c\n  2\t3") == [1, 2, 3]
    with pytest.raises(pm.ParseError, match="5 bytes is not a whole number of 32-bit words"):
        pm.parse_bin(b"12345")


def test_load_list_file_errors(tmp_path):
    gpu = pm.Gpu()
    with pytest.raises(FileNotFoundError, match="missing.hex"):
        gpu.load_list(tmp_path / "missing.hex")
    odd = tmp_path / "list.dat"
    odd.write_text("0 0")
    with pytest.raises(ValueError, match="unknown file type"):
        gpu.load_list(odd)
    with pytest.raises(ValueError, match="format = 'xml'"):
        gpu.load_list(odd, format="xml")
    bad = tmp_path / "bad.hex"
    bad.write_text("00000000 00000000\n0000000g\n")
    with pytest.raises(pm.ParseError, match=r"bad\.hex:2:1: '0000000g' is not a hex word"):
        gpu.load_list(bad)
    folder = tmp_path / "dir.hex"
    folder.mkdir()
    with pytest.raises(IsADirectoryError, match="dir.hex"):
        gpu.load_list(folder)
    with pytest.raises(ValueError, match="addr = -8 is negative"):
        gpu.load_list(EXAMPLES / "01_finalize.hex", addr=-8)


# ---------------------------------------------------------------- shaders and scenes


def test_assemble_matches_pica_asm():
    src = (EXAMPLES / "shaders" / "vshader.v.pica").read_text()
    shbin = pm.assemble(src, "vshader.v.pica")
    # `pica asm vectors/examples/shaders/vshader.v.pica -o v.shbin`: picasso 2.7.1's bytes
    # (model/tests/picasso/vshader.v.shbin)
    assert len(shbin) == 280 and shbin[:4] == b"DVLB"
    assert (
        hashlib.sha256(shbin).hexdigest()
        == "c78296c0f1cb988b1befb9e4214d606374bfc90a62d5bf88ea42c6d6bb5cd0f8"
    )
    assert len(pm.assemble(src, "vshader.v.pica", labels=True)) > 280
    with pytest.raises(pm.AsmError, match=r"^bad\.pica:2:1: instruction outside a \.proc block$"):
        pm.assemble("; comment\nmov r0, v0\n", "bad.pica")


def test_scene_list():
    names = pm.scenes()
    assert "prim/triangle" in names and len(names) == len(set(names)) > 50
    sc = pm.scene("prim/triangle")
    assert sc["name"] == "prim/triangle"
    assert sc["description"] == "one triangle with red, green and blue corners (draw arrays)"
    assert sc["pipeline"] is True and sc["submit_addr"] == LIST_ADDR
    assert sc["fb"] == {
        "width": 32,
        "height": 32,
        "block32": False,
        "color_addr": 0x18000000,
        "color_format": "rgba8",
        "color_bytes": 4096,
        "depth_addr": 0x18300000,
        "depth_format": "d24s8",
        "depth_bytes": 4096,
    }
    assert sorted(base for base, _ in sc["images"]) == [
        0x18000000,
        0x18300000,
        0x20000000,
        0x20800000,
    ]


def test_scene_draw_matches_the_rust_model():
    """prim/triangle through the whole pipeline; expected values from
    `pica scene render prim/triangle --png t.png --vectors DIR` (the bundle's .jsonl files)."""
    gpu = pm.Gpu(record_commits=True)
    sc = pm.load_scene(gpu, "prim/triangle")
    out = gpu.run(sc["max_cycles"])
    assert out == pm.Outcome("finished", 841, message="finished in 841 cycles")
    assert gpu.pipeline_stats() == (1, 3, 1, 288)
    counts = {ch: gpu.beat_count(ch) for ch in pm.CHANNELS}
    assert counts["regwrite"] == 167
    assert counts["primitive"] == 1
    assert counts["fragment"] == 288
    assert counts["pixel"] == 288
    assert counts["texel"] == 0
    assert counts["combiner"] == 1728

    (prim,) = gpu.pop_beats("primitive")
    assert (prim["cycle"], prim["seq"]) == (242, 0)
    assert len(prim["v"]) == 3 and all(len(v) == 24 for v in prim["v"])
    assert prim["v"][0][:12] == [
        0xBE8000, 0xBE8000, 0xBE0000, 0x3F0000, 0x3F0000, 0x3F0000,
        0x3F0000, 0x3F0000, 0x3F0000, 0x000000, 0x000000, 0x3F0000,
    ]  # fmt: skip
    assert prim["v"][1][:3] == [0x3E8000, 0xBE8000, 0xBE0000]

    frag = gpu.pop_beat("fragment")
    assert {k: frag[k] for k in ("cycle", "tri", "x", "y", "depth", "color")} == {
        "cycle": 248,
        "tri": 0,
        "x": 4,
        "y": 4,
        "depth": 0x7FFFFF,
        "color": 0xFF0503F7,
    }
    assert frag["attr"][:3] == [0xBE7000, 0xBE7000, 0xBE0000] and len(frag["attr"]) == 24

    pixels = gpu.pop_beats("pixel")
    assert pixels[0] == {
        "channel": "pixel",
        "cycle": 253,
        "x": 4,
        "y": 4,
        "color_addr": 0x18000C68,
        "color": 0xF70305FF,
        "depth_addr": 0x18300C68,
        "depth_stencil": 0x00FFFFFF,
        "flags": 1,
    }
    assert (pixels[-1]["cycle"], pixels[-1]["x"], pixels[-1]["y"], pixels[-1]["color"]) == (
        793,
        16,
        26,
        0x030DEFFF,
    )
    comb = gpu.pop_beat("combiner")
    assert comb == {
        "channel": "combiner",
        "cycle": 251,
        "x": 4,
        "y": 4,
        "stage": 0,
        "color": 0xFF0503F7,
        "buffer": 0,
    }
    # The colour buffer after the run (bundle final_mem_18000000.hex).
    fb = gpu.read_mem(sc["fb"]["color_addr"], sc["fb"]["color_bytes"])
    assert (
        hashlib.sha256(fb).hexdigest()
        == "aa96565902a22086e98c1be55ff0c81ed1e602e592f485adf720f90af13d81ef"
    )

    # Commits: one END per shaded vertex; typed fields.
    commits = gpu.pop_beats("commit")
    assert sum(c["end"] for c in commits) == 3
    c = commits[0]
    assert isinstance(c["emit"], bool) and isinstance(c["end"], bool)
    assert isinstance(c["a0x"], int) and len(c["result"]) == 4
    shader_in = gpu.pop_beats("shader_in")
    assert shader_in and len(shader_in[0]["xyzw"]) == 4


def test_scene_on_the_front_end_alone_draws_nothing():
    gpu = pm.Gpu(front_end=True)
    assert gpu.front_end
    pm.load_scene(gpu, "prim/triangle")
    assert gpu.run().kind == "finished"
    assert gpu.beat_count("regwrite") == 167
    assert gpu.beat_count("primitive") == 0 and gpu.beat_count("pixel") == 0


def test_record_beats_off():
    gpu = pm.Gpu(front_end=True, record_beats=False)
    gpu.write_regs([(0x0E1, i) for i in range(100)])
    assert gpu.run().kind == "finished"
    assert gpu.beat_count("regwrite") == 0
    assert gpu.reg(0x0E1) == 99


def test_pipeline_hang_then_writes_refused():
    gpu = pm.Gpu()
    pm.load_scene(gpu, "prim/triangle")
    assert gpu.run().cycle == 841
    # Draw again from an attribute buffer at physical address 0: the vertex loader hangs.
    gpu.write_regs([("GPUREG_ATTRIBBUFFERS_LOC", 0), ("GPUREG_DRAWARRAYS", 1)])
    out = gpu.run()
    assert (out.kind, out.cycle, out.hang_code, out.reason) == ("hang", 844, 0, "vertex_loader")
    assert out.message == (
        "hang at cycle 844: vertex loader: attribute buffer 0: vertex 0 reads unmapped address "
        "0x00000000 (GPUREG_ATTRIBBUFFERS_LOC + GPUREG_ATTRIBBUFFER0_OFFSET + stride * vertex)"
    )
    # The hung pipeline holds REGS: writes fill the channel, then are refused (no endless wait).
    with pytest.raises(pm.BusyError, match="the GPU hung and no longer takes writes"):
        for i in range(20):
            gpu.write_reg(0x0E1, i)
