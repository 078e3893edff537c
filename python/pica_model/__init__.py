"""Python bindings of the pica-cosim model of the PICA200, the GPU of the Nintendo 3DS.

The model is register-accurate and cycle-stepped: a :class:`Gpu` owns its memory, command
processor, register file and (unless ``front_end=True``) the geometry and fragment pipeline,
and advances one clock per :meth:`Gpu.step`. What crosses a channel is recorded as a *beat*;
:meth:`Gpu.pop_beat` / :meth:`Gpu.pop_beats` hand them out as dicts keyed by the channel
table's field names (:data:`CHANNELS`, :func:`channel_fields`).

Example::

    import pica_model as pm

    gpu = pm.Gpu(front_end=True)
    cl = pm.CommandList().write("GPUREG_FOG_COLOR", 0x00112233).finalize()
    gpu.submit_words(cl.words)
    print(gpu.run())                       # finished in N cycles
    print(gpu.reg("GPUREG_FOG_COLOR"))     # 1122867
    print(gpu.pop_beats("regwrite"))       # [{'channel': 'regwrite', 'cycle': 2, ...}, ...]

Errors: bad arguments raise ``ValueError`` / ``KeyError`` / ``TypeError`` / ``OSError`` with a
message naming the argument; model errors raise subclasses of :class:`PicaError`
(:class:`UnmappedError`, :class:`SubmitError`, :class:`ParseError` and :class:`AsmError` are also
``ValueError`` subclasses; :class:`BusyError` is raised by a register write the GPU cannot take).
"""

from typing import Any, Dict

from ._native import (
    CHANNELS,
    DEFAULT_LIST_ADDR,
    DEFAULT_MAX_CYCLES,
    FINALIZE_VALUE,
    MEMORY_REGIONS,
    REG_COUNT,
    AsmError,
    BusyError,
    CommandList,
    Gpu,
    Outcome,
    ParseError,
    PicaError,
    SubmitError,
    UnmappedError,
    __version__,
    assemble,
    channel_fields,
    debug_name,
    decode_reg,
    parse_bin,
    parse_hex,
    read_words,
    reg_id,
    reg_name,
    scene,
    scenes,
)

__all__ = [
    "CHANNELS",
    "DEFAULT_LIST_ADDR",
    "DEFAULT_MAX_CYCLES",
    "FINALIZE_VALUE",
    "MEMORY_REGIONS",
    "REG_COUNT",
    "AsmError",
    "BusyError",
    "CommandList",
    "Gpu",
    "Outcome",
    "ParseError",
    "PicaError",
    "SubmitError",
    "UnmappedError",
    "__version__",
    "assemble",
    "channel_fields",
    "debug_name",
    "decode_reg",
    "load_scene",
    "parse_bin",
    "parse_hex",
    "read_words",
    "reg_id",
    "reg_name",
    "scene",
    "scenes",
]


def load_scene(gpu: Gpu, name: str) -> Dict[str, Any]:
    """Loads scene ``name`` of the library into ``gpu`` (its memory images) and submits its
    command list; returns the scene dict of :func:`scene`. ``gpu`` should run the pipeline
    (``front_end=False``) for the scene to draw anything."""
    sc = scene(name)
    for base, words in sc["images"]:
        gpu.write_words(base, words)
    gpu.submit(sc["submit_addr"], sc["submit_size"])
    return sc
