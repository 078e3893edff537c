"""Type stubs of the native module ``pica_model._native`` (python/src/*.rs)."""

import os
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union, final

__all__ = [
    "__version__",
    "PicaError",
    "UnmappedError",
    "SubmitError",
    "ParseError",
    "AsmError",
    "BusyError",
    "Gpu",
    "Outcome",
    "CommandList",
    "CHANNELS",
    "FINALIZE_VALUE",
    "DEFAULT_LIST_ADDR",
    "DEFAULT_MAX_CYCLES",
    "MEMORY_REGIONS",
    "REG_COUNT",
    "channel_fields",
    "reg_name",
    "reg_id",
    "decode_reg",
    "debug_name",
    "parse_hex",
    "parse_bin",
    "read_words",
    "assemble",
    "scenes",
    "scene",
]

__version__: str

_Reg = Union[int, str]
"""A register: an ID or a name (``"GPUREG_FINALIZE"``, ``"FINALIZE"``, an official name such
as ``"PICA_REG_INTERRUPT"``, or ``"0x010"``; case-insensitive)."""

_BytesLike = Union[bytes, bytearray, memoryview, Iterable[int]]

CHANNELS: List[str]
"""Every channel name, in channel-table order: regwrite, shader_in, shader_out, commit,
primitive, fragment, pixel, texel, combiner."""
FINALIZE_VALUE: int
"""The value written to GPUREG_FINALIZE by :meth:`CommandList.finalize` (0x12345678)."""
DEFAULT_LIST_ADDR: int
"""Where command lists go unless told otherwise (0x20000000, start of FCRAM)."""
DEFAULT_MAX_CYCLES: int
"""The default cycle limit of :meth:`Gpu.run` (100,000,000)."""
MEMORY_REGIONS: List[Tuple[str, int, int]]
"""The mapped regions as ``(name, start, size)``: VRAM and FCRAM."""
REG_COUNT: int
"""Number of register IDs (0x300)."""

class PicaError(Exception):
    """Base class of every error the model raises."""

class UnmappedError(PicaError, ValueError):
    """An address range outside VRAM (0x18000000-0x185fffff) and FCRAM (0x20000000-0x27ffffff)."""

class SubmitError(PicaError, ValueError):
    """The GPU refused a command-list submission (unaligned or unmapped buffer)."""

class ParseError(PicaError, ValueError):
    """Bad words text or binary; the message names the file or string, the line and column."""

class AsmError(PicaError, ValueError):
    """Shader assembly failed; the message names the source, the line and column."""

class BusyError(PicaError):
    """A register write was refused: a submitted command list is still running, or the GPU hung."""

@final
class Outcome:
    """How a run ended. Outcomes compare equal when every attribute is equal."""

    kind: str
    """``"finished"``, ``"hang"`` or ``"cycle_limit"``."""
    cycle: int
    """Cycles stepped (finished, cycle_limit) or the cycle in which the hang was detected."""
    hang_code: int
    """The RTL's ``hang_reason_o`` code of a hang: 1 missing FINALIZE, 2 command past the end
    of the buffer, 3 fetch from unmapped memory; 0 for other hangs and for non-hangs."""
    reason: Optional[str]
    """The hang reason's kind (``"missing_finalize"``, ``"command_past_end"``,
    ``"fetch_unmapped"``, ``"not_submitted"``, ``"shader"``, ``"vertex_loader"``,
    ``"fragment_ops"``, ``"texture"``, ``"internal"``, ``"other"``); ``None`` if not a hang."""
    message: str
    """The model's text, e.g. ``"finished in 17 cycles"``."""
    finished: bool
    """``kind == "finished"``."""

    def __new__(
        cls,
        kind: str,
        cycle: int,
        hang_code: int = 0,
        message: str = "",
        reason: Optional[str] = None,
    ) -> "Outcome": ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Gpu:
    """The GPU model: memory, command processor, register file and (unless ``front_end``) the
    geometry and fragment pipeline, all advanced by one clock.

    ``front_end=True`` turns the pipeline off: the CP and REGS alone, as the RTL's ``pica_top``
    has it (draw triggers are recorded and nothing else happens). ``record_commits`` records
    the shader ``commit`` channel (one beat per shader instruction). ``record_beats=False``
    stops recording beats (faster when nobody reads them).
    """

    def __new__(
        cls, front_end: bool = False, record_commits: bool = False, record_beats: bool = True
    ) -> "Gpu": ...
    @property
    def front_end(self) -> bool: ...

    # -- memory --
    def write_mem(self, addr: int, data: _BytesLike) -> None:
        """Copies ``data`` to physical address ``addr``; the range must lie in VRAM or FCRAM
        (else :class:`UnmappedError`)."""
    def write_words(self, addr: int, words: Iterable[int]) -> None:
        """Writes little-endian 32-bit words from ``addr`` on."""
    def read_mem(self, addr: int, n: int) -> bytes:
        """Reads ``n`` bytes from ``addr`` (unwritten mapped memory reads as zero)."""
    def read_word(self, addr: int) -> int:
        """Reads the little-endian word at ``addr`` (need not be aligned)."""
    def load_list(
        self,
        path: Union[str, "os.PathLike[str]"],
        addr: int = 0x20000000,
        format: Optional[str] = None,
    ) -> int:
        """Loads a words file at ``addr``: ``.bin`` little-endian binary, ``.hex``/``.txt``
        text words (``#`` and ``//`` comments); ``format="bin"``/``"hex"`` overrides the
        extension. Returns the bytes written. Missing file: ``FileNotFoundError``; bad text:
        :class:`ParseError` naming the line."""

    # -- command lists --
    def submit(self, addr: int, size: int) -> None:
        """Starts the command buffer at ``addr`` (8-byte aligned) of ``size`` bytes; only
        ``size & ~0xF`` bytes are read (the 16-byte rule). After a list finished, the next one:
        consecutive submissions with the GPU state carried across. :class:`SubmitError` if
        refused (a list still running, a hang, a bad address)."""
    def memory_fill(self, start: int, end: int, value: int, width: int = 32) -> None:
        """A PSC memory fill (GX SetMemoryFill) between command lists: ``value`` as
        ``width``-bit values (16, 24 or 32) over ``[start, end)`` (8-aligned physical
        addresses). ``ValueError`` for a bad width, alignment or range, :class:`UnmappedError`
        outside VRAM / FCRAM, :class:`BusyError` while a list runs."""
    def submit_words(self, words: Iterable[int], addr: int = 0x20000000) -> None:
        """Writes ``words`` at ``addr`` and submits ``4 * len(words)`` bytes."""

    # -- register writes without a list --
    def write_reg(self, reg: _Reg, value: int, mask: int = 0xF) -> None:
        """Puts one register write into the CP -> REGS channel, as the CP would, stepping the
        clock while the channel is full. REGS applies it (merging ``value`` under the 4-bit
        byte-enable ``mask``: bit n enables byte n) in a later cycle: :meth:`step` or
        :meth:`run` to see it. With writes pushed and no list, :meth:`run` returns a
        ``finished`` outcome once they drained. IDs up to 0x100FE are accepted (as a command
        header can reach; writes above 0x2FF change nothing). :class:`BusyError` while a
        submitted list is running or when the GPU hung."""
    def write_regs(
        self, writes: Iterable[Union[Tuple[_Reg, int], Tuple[_Reg, int, int]]]
    ) -> int:
        """:meth:`write_reg` for each ``(reg, value)`` or ``(reg, value, mask)``, in one call.
        Returns the number of writes. On a bad element (the error names ``writes[i]``) the
        writes before it have been pushed."""
    @property
    def pushed_writes(self) -> int:
        """Register writes pushed with :meth:`write_reg` / :meth:`write_regs` so far."""

    # -- knobs --
    def set_knob(self, name: str, value: str) -> None:
        """Sets one knob, the model's answer to a disputed hardware case (``UNVERIFIED(hw)``):
        the same ``name`` and ``value`` as ``--knob NAME=VALUE`` of the ``pica`` command
        (``pica knobs``, ``docs/knobs.md``). Before the GPU runs: :class:`BusyError` once the
        clock has advanced; ``KeyError`` for an unknown knob, ``ValueError`` for a value it
        does not have."""
    @property
    def knobs(self) -> Dict[str, str]:
        """The knobs whose value is not the default, ``{name: value}``."""

    # -- the clock --
    def step(self, n: int = 1) -> None:
        """Advances the clock ``n`` cycles."""
    def run(self, max_cycles: int = 100_000_000) -> Outcome:
        """Steps until the run finishes, the GPU hangs, or the cycle count reaches
        ``max_cycles`` (counted from power-on, not from this call). A GPU with neither a list
        submitted nor writes pushed returns a ``not_submitted`` hang at once."""
    @property
    def outcome(self) -> Optional[Outcome]:
        """The outcome if the run is over, ``None`` while work remains."""
    @property
    def cycle(self) -> int:
        """Cycles stepped so far."""

    # -- state --
    def reg(self, reg: _Reg) -> int:
        """The current value of register ``reg`` (ID 0x000-0x2FF or a name)."""
    def regs(self) -> List[int]:
        """All 0x300 register words."""
    def debug_read(self, addr: int) -> int:
        """One word of the debug map (0x0000-0xFFFF; what the RTL's debug port returns)."""
    def debug_dump(self) -> List[Tuple[int, int]]:
        """The whole debug map as ``(address, word)`` pairs (:func:`debug_name` names them)."""
    def pipeline_stats(self) -> Tuple[int, int, int, int]:
        """``(draws, vertices, triangles, fragments)`` processed so far."""

    # -- beats --
    def beat_count(self, channel: str) -> int:
        """Beats of ``channel`` recorded and not yet popped (``KeyError`` for an unknown
        channel)."""
    def beats_recorded(self, channel: str) -> int:
        """Beats of ``channel`` recorded so far, popped or not."""
    def pop_beat(self, channel: str) -> Optional[Dict[str, Any]]:
        """The oldest not-yet-popped beat of ``channel``, or ``None``.

        A beat is a dict: ``"channel"`` and one key per field of :func:`channel_fields`, e.g.
        ``{"channel": "regwrite", "cycle": 2, "mask": 15, "id": 0x11c, "param": ...,
        "value": ...}``. Values are ints (the full model value: the cycle is not truncated to
        its packed width; signed fields may be negative), bools for 1-bit flags, lists for
        arrays, and the primitive beat's ``v`` a list of 3 lists of 24 semantics."""
    def pop_beats(self, channel: str) -> List[Dict[str, Any]]:
        """Every not-yet-popped beat of ``channel``, oldest first (see :meth:`pop_beat`)."""

@final
class CommandList:
    """A command list under construction (the word layout of seed 002: parameter, header,
    extra parameters, a zero padding word to keep commands 8-byte aligned). Every method
    returns the list itself, so calls chain."""

    def __new__(cls) -> "CommandList": ...
    def command(
        self, reg: _Reg, mask: int, consecutive: bool, params: Iterable[int]
    ) -> "CommandList":
        """One command: ``params`` (at least one) to ``reg`` under the byte-enable ``mask``, to
        consecutive IDs if ``consecutive``; more than 256 parameters become several commands."""
    def write(self, reg: _Reg, value: int) -> "CommandList":
        """A plain 32-bit write."""
    def write_masked(self, reg: _Reg, mask: int, value: int) -> "CommandList":
        """A write of the bytes of ``value`` enabled in ``mask`` (bit n enables byte n)."""
    def write_seq(self, reg: _Reg, values: Iterable[int]) -> "CommandList":
        """Consecutive writes: ``values[i]`` to ``reg + i``."""
    def write_repeat(self, reg: _Reg, values: Iterable[int]) -> "CommandList":
        """Repeated writes to one register (a FIFO data port)."""
    def finalize(self) -> "CommandList":
        """Pads to end on a 16-byte boundary and appends the GPUREG_FINALIZE write."""
    @property
    def words(self) -> List[int]:
        """The words so far."""
    @property
    def byte_len(self) -> int:
        """Size in bytes (``4 * len(words)``)."""
    def to_bytes(self) -> bytes:
        """The words as little-endian bytes."""
    def __len__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...

def channel_fields(channel: str) -> List[Tuple[str, int, int]]:
    """The fields of ``channel``'s payload as ``(name, width in bits, count)`` in table order
    (count 1 for a scalar). ``KeyError`` for an unknown channel."""

def reg_name(id: int) -> str:
    """The 3dbrew name of register ``id`` (``GPUREG_0xxx`` for IDs the table does not name,
    ``GPUREG_xxxx (beyond 0x2FF)`` above the register space)."""

def reg_id(name: str) -> int:
    """The ID of a register name: a 3dbrew name with or without ``GPUREG_``, an official name
    (``"PICA_REG_INTERRUPT"``) or a hex ID (``"0x010"``); case-insensitive. ``KeyError`` if
    unknown."""

def decode_reg(reg: _Reg, value: int) -> List[Tuple[str, int, str]]:
    """``value`` written to ``reg`` decoded into ``(field name, field value shifted down,
    text)`` in table order, e.g. ``("mode", 2, "BackCcw (2)")``. A register without described
    fields gives one ``("value", value, text)``; set bits outside every field come last as
    ``("undescribed_bits", bits in place, text)``."""

def debug_name(addr: int) -> str:
    """The name of a debug-map address (``"fog_lut[0x003]"``, ``"unit0.code[0x010]"``)."""

def parse_hex(text: str, name: str = "<string>") -> List[int]:
    """Parses text words: whitespace separated, ``0x`` optional, ``#`` and ``//`` comments.
    :class:`ParseError` names ``name``, the line and the column of a bad token."""

def parse_bin(data: _BytesLike, name: str = "<bytes>") -> List[int]:
    """Parses little-endian binary words (length a multiple of 4, else :class:`ParseError`)."""

def read_words(path: Union[str, "os.PathLike[str]"], format: Optional[str] = None) -> List[int]:
    """Reads a words file (``.bin`` binary, ``.hex``/``.txt`` text; ``format`` overrides)."""

def assemble(
    source: str, name: str = "<string>", auto_nop: bool = True, labels: bool = False
) -> bytes:
    """Assembles picasso shader assembly into a SHBIN, as ``pica asm`` does: by default byte
    for byte picasso 2.7.1's output. ``auto_nop`` inserts picasso's padding NOPs;
    ``labels=True`` also lists the procedures in the label table (a pica-cosim extension).
    :class:`AsmError` names ``name``, the line and the column."""

def scenes() -> List[str]:
    """The names of the scene library (``"prim/triangle"``, ...), in library order."""

def scene(name: str) -> Dict[str, Any]:
    """One scene, built: ``name``, ``description``, ``images`` (list of ``(base address,
    words)``; the command list is one of them), ``submit_addr``, ``submit_size``,
    ``max_cycles``, ``pipeline`` (bool) and ``fb`` (``width``, ``height``, ``block32``,
    ``color_addr``, ``color_format``, ``color_bytes``, ``depth_addr``, ``depth_format``,
    ``depth_bytes``). ``KeyError`` for an unknown name."""
