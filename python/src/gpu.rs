//! `pica_model.Gpu` and `pica_model.Outcome`.

use crate::{args, beats, errors};
use pica_model::beat::Channel;
use pica_model::gpu::MAX_PUSH_ID;
use pica_model::mem::Memory;
use pica_model::regfile::NUM_REGS;
use pica_model::{Gpu, HangReason, Outcome, PushError, SubmitError};
use pica_vectors::case::{hang_reason_code, DEFAULT_LIST_ADDR, DEFAULT_MAX_CYCLES};
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyKeyError, PyOSError, PyPermissionError,
    PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use std::path::PathBuf;

/// Cycles between two checks for Ctrl-C in long loops (`run`, `step`, a full channel).
const SIGNAL_CHECK_CYCLES: u64 = 1 << 20;

/// How a run ended (`Gpu.run`, `Gpu.outcome`).
#[pyclass(module = "pica_model", name = "Outcome", frozen, eq, hash)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PyOutcome {
    /// `"finished"`, `"hang"` or `"cycle_limit"`.
    #[pyo3(get)]
    kind: String,
    /// Cycles stepped (finished, cycle_limit) or the cycle of the hang.
    #[pyo3(get)]
    cycle: u64,
    /// The RTL's `hang_reason_o` code of a hang (`pica_vectors::case::hang_reason_code`;
    /// 0 for hangs the front end does not encode and for non-hangs).
    #[pyo3(get)]
    hang_code: u8,
    /// The hang reason's kind (`"command_past_end"`, ...), `None` if not a hang.
    #[pyo3(get)]
    reason: Option<String>,
    /// The model's text (`"finished in 17 cycles"`).
    #[pyo3(get)]
    message: String,
}

impl PyOutcome {
    /// The Python view of a model outcome.
    pub fn from_outcome(o: &Outcome) -> Self {
        let message = o.to_string();
        match o {
            Outcome::Finished { cycles } => Self {
                kind: "finished".into(),
                cycle: *cycles,
                hang_code: 0,
                reason: None,
                message,
            },
            Outcome::CycleLimit { cycles } => Self {
                kind: "cycle_limit".into(),
                cycle: *cycles,
                hang_code: 0,
                reason: None,
                message,
            },
            Outcome::Hang { cycle, reason } => Self {
                kind: "hang".into(),
                cycle: *cycle,
                hang_code: hang_reason_code(reason),
                reason: Some(reason_kind(reason).into()),
                message,
            },
        }
    }
}

/// The snake_case name of a hang reason's kind (the model's JSON `kind` tag).
fn reason_kind(r: &HangReason) -> &'static str {
    match r {
        HangReason::MissingFinalize { .. } => "missing_finalize",
        HangReason::CommandPastEnd { .. } => "command_past_end",
        HangReason::FetchUnmapped { .. } => "fetch_unmapped",
        HangReason::NotSubmitted => "not_submitted",
        HangReason::Shader { .. } => "shader",
        HangReason::VertexLoader(_) => "vertex_loader",
        HangReason::FragmentOps(_) => "fragment_ops",
        HangReason::Texture(_) => "texture",
        HangReason::Internal(_) => "internal",
        // `HangReason` is non-exhaustive: a kind added later shows as "other" until named here.
        _ => "other",
    }
}

#[pymethods]
impl PyOutcome {
    /// An outcome built by hand (to compare with one the model gave).
    #[new]
    #[pyo3(
        signature = (kind, cycle, hang_code = None, message = String::new(), reason = None),
        text_signature = "(kind, cycle, hang_code=0, message='', reason=None)"
    )]
    fn new(
        kind: String,
        cycle: &Bound<'_, PyAny>,
        hang_code: Option<&Bound<'_, PyAny>>,
        message: String,
        reason: Option<String>,
    ) -> PyResult<Self> {
        if !matches!(kind.as_str(), "finished" | "hang" | "cycle_limit") {
            return Err(PyValueError::new_err(format!(
                "kind = '{kind}' is not one of 'finished', 'hang', 'cycle_limit'"
            )));
        }
        Ok(Self {
            kind,
            cycle: args::uint(cycle, "cycle", u64::MAX)?,
            hang_code: match hang_code {
                Some(h) => args::uint(h, "hang_code", 0xFF)? as u8,
                None => 0,
            },
            reason,
            message,
        })
    }

    /// Whether the run finished (the list ended with FINALIZE and all work drained).
    #[getter]
    fn finished(&self) -> bool {
        self.kind == "finished"
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let r = |s: &str| -> PyResult<String> { Ok(PyString::new(py, s).repr()?.to_string()) };
        Ok(format!(
            "Outcome(kind={}, cycle={}, hang_code={}, message={})",
            r(&self.kind)?,
            self.cycle,
            self.hang_code,
            r(&self.message)?
        ))
    }

    fn __str__(&self) -> String {
        self.message.clone()
    }
}

/// The GPU model: memory, command processor, register file and (unless `front_end`) the
/// geometry and fragment pipeline, advanced by one clock.
#[pyclass(module = "pica_model", name = "Gpu", unsendable)]
pub struct PyGpu {
    gpu: Gpu,
    front_end: bool,
    /// Beats already popped, per channel (index into [`Channel::ALL`]).
    popped: [usize; Channel::ALL.len()],
}

/// An `Unmapped` model error as `UnmappedError`.
fn unmapped(e: impl std::fmt::Display) -> PyErr {
    errors::unmapped(e.to_string())
}

/// Steps `gpu` `n` times, checking for Ctrl-C now and then.
fn step_n(py: Python<'_>, gpu: &mut Gpu, n: u64) -> PyResult<()> {
    let mut left = n;
    while left > 0 {
        let chunk = left.min(SIGNAL_CHECK_CYCLES);
        for _ in 0..chunk {
            gpu.step();
        }
        left -= chunk;
        if left > 0 {
            py.check_signals()?;
        }
    }
    Ok(())
}

/// Pushes one register write, stepping the clock while the CP -> REGS channel is full.
fn push(py: Python<'_>, gpu: &mut Gpu, id: u32, mask: u8, param: u32) -> PyResult<()> {
    let mut spins: u64 = 0;
    loop {
        match gpu.push_write(id, mask, param) {
            Ok(()) => return Ok(()),
            Err(PushError::Full) => {
                if let Some(o @ Outcome::Hang { .. }) = gpu.outcome() {
                    return Err(errors::busy(format!(
                        "cannot write register {id:#x}: the GPU hung and no longer takes \
                         writes ({o})"
                    )));
                }
                gpu.step();
                spins += 1;
                if spins % SIGNAL_CHECK_CYCLES == 0 {
                    py.check_signals()?;
                }
            }
            Err(PushError::ListRunning) => {
                return Err(errors::busy(match gpu.outcome() {
                    Some(o @ Outcome::Hang { .. }) => {
                        format!("cannot write register {id:#x}: the GPU hung ({o})")
                    }
                    _ => format!(
                        "cannot write register {id:#x}: {} (run() it to the end first)",
                        PushError::ListRunning
                    ),
                }));
            }
            Err(e @ (PushError::BadMask(_) | PushError::BadId(_))) => {
                return Err(PyValueError::new_err(e.to_string()));
            }
        }
    }
}

/// `(reg, value)` or `(reg, value, mask)` of `write_regs`, element `i`.
fn write_item(item: &Bound<'_, PyAny>, i: usize) -> PyResult<(u32, u32, u8)> {
    // Fast path: a tuple of in-range ints (or a register name); anything else takes the slow
    // path below, which names the bad part.
    if let Some(w) = item.cast::<PyTuple>().ok().and_then(fast_write_item) {
        return Ok(w);
    }
    slow_write_item(item, i)
}

/// A well-formed `write_regs` tuple, or `None` (then [`slow_write_item`] says what is wrong).
fn fast_write_item(t: &Bound<'_, PyTuple>) -> Option<(u32, u32, u8)> {
    let len = t.len();
    if len != 2 && len != 3 {
        return None;
    }
    let reg = t.get_borrowed_item(0).ok()?;
    let id = match reg.cast::<PyString>() {
        Ok(s) => u32::from(pica_model::regs::by_name(&s.to_cow().ok()?)?),
        Err(_) => reg.extract::<u32>().ok()?,
    };
    let value = t.get_borrowed_item(1).ok()?.extract::<u32>().ok()?;
    let mask = if len == 3 {
        t.get_borrowed_item(2).ok()?.extract::<u8>().ok()?
    } else {
        0xF
    };
    (id <= MAX_PUSH_ID && mask <= 0xF).then_some((id, value, mask))
}

/// [`write_item`] with errors naming `writes[i]` and the part that is wrong.
fn slow_write_item(item: &Bound<'_, PyAny>, i: usize) -> PyResult<(u32, u32, u8)> {
    let what = |f: &str| format!("writes[{i}] {f}");
    let t = item.cast::<PyTuple>().ok();
    let len = match &t {
        Some(t) => t.len(),
        None => item.len().unwrap_or(usize::MAX),
    };
    if len != 2 && len != 3 {
        return Err(PyTypeError::new_err(format!(
            "writes[{i}] must be a (reg, value) or (reg, value, mask) tuple, not {}",
            if len == usize::MAX {
                args::type_name(item)
            } else {
                format!("a sequence of {len}")
            }
        )));
    }
    let get = |k: usize| -> PyResult<Bound<'_, PyAny>> {
        match &t {
            Some(t) => t.get_item(k),
            None => item.get_item(k),
        }
    };
    let id = args::reg(&get(0)?, &what("reg"), MAX_PUSH_ID)?;
    let value = args::u32_arg(&get(1)?, &what("value"))?;
    let mask = if len == 3 {
        args::uint(&get(2)?, &what("mask"), 0xF)? as u8
    } else {
        0xF
    };
    Ok((id, value, mask))
}

#[pymethods]
impl PyGpu {
    /// A GPU in its power-on state with empty memory.
    ///
    /// `front_end=True` turns the pipeline off (CP and REGS alone, as the RTL's `pica_top`);
    /// `record_commits` records the shader `commit` channel; `record_beats=False` stops
    /// recording beats (faster for long runs whose beats nobody reads).
    #[new]
    #[pyo3(signature = (front_end = false, record_commits = false, record_beats = true))]
    fn new(front_end: bool, record_commits: bool, record_beats: bool) -> Self {
        let mut gpu = Gpu::new(Memory::new());
        gpu.set_pipeline(!front_end);
        gpu.set_record_commits(record_commits);
        if !record_beats {
            gpu.set_record_beats(false);
        }
        Self {
            gpu,
            front_end,
            popped: [0; Channel::ALL.len()],
        }
    }

    /// Whether the pipeline is off (the front end alone).
    #[getter]
    fn front_end(&self) -> bool {
        self.front_end
    }

    /// Copies `data` to physical address `addr` (the range must lie in VRAM or FCRAM).
    fn write_mem(&mut self, addr: &Bound<'_, PyAny>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let addr = args::u32_arg(addr, "addr")?;
        let data = args::bytes(data, "data")?;
        self.gpu
            .mem_mut()
            .write_bytes(addr, &data)
            .map_err(unmapped)
    }

    /// Writes little-endian 32-bit words from `addr` on.
    fn write_words(&mut self, addr: &Bound<'_, PyAny>, words: &Bound<'_, PyAny>) -> PyResult<()> {
        let addr = args::u32_arg(addr, "addr")?;
        let words = args::words(words, "words")?;
        self.gpu
            .mem_mut()
            .write_words(addr, &words)
            .map_err(unmapped)
    }

    /// Reads `n` bytes from `addr` (unwritten mapped memory reads as zero).
    fn read_mem<'py>(
        &self,
        py: Python<'py>,
        addr: &Bound<'_, PyAny>,
        n: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let addr = args::u32_arg(addr, "addr")?;
        let n = args::u32_arg(n, "n")?;
        if n > 0 && Memory::region_of(addr, n).is_none() {
            return Err(unmapped(pica_model::mem::Unmapped { addr, len: n }));
        }
        let mem = self.gpu.mem();
        let mut out = Vec::with_capacity(n as usize);
        let mut a = addr;
        let end = u64::from(addr) + u64::from(n);
        while u64::from(a) + 4 <= end {
            out.extend_from_slice(&mem.read_u32(a).map_err(unmapped)?.to_le_bytes());
            a = a.wrapping_add(4);
        }
        while u64::from(a) < end {
            out.push(mem.read_u8(a).map_err(unmapped)?);
            a = a.wrapping_add(1);
        }
        Ok(PyBytes::new(py, &out))
    }

    /// Reads the little-endian word at `addr` (need not be aligned).
    fn read_word(&self, addr: &Bound<'_, PyAny>) -> PyResult<u32> {
        let addr = args::u32_arg(addr, "addr")?;
        self.gpu.mem().read_u32(addr).map_err(unmapped)
    }

    /// Loads a command list (or any words file) at `addr`: `.bin` little-endian binary,
    /// `.hex`/`.txt` text words; `format` ("bin" / "hex") overrides the extension. Returns the
    /// bytes written.
    #[pyo3(
        signature = (path, addr = None, format = None),
        text_signature = "($self, path, addr=0x20000000, format=None)"
    )]
    fn load_list(
        &mut self,
        path: PathBuf,
        addr: Option<&Bound<'_, PyAny>>,
        format: Option<&str>,
    ) -> PyResult<usize> {
        let addr = list_addr(addr)?;
        let words = read_words_file(&path, format)?;
        self.gpu
            .mem_mut()
            .write_words(addr, &words)
            .map_err(unmapped)?;
        Ok(words.len() * 4)
    }

    /// Starts the command buffer at `addr` of `size` bytes (only `size & ~0xF` bytes are read:
    /// the 16-byte rule). After a list finished, the next one: consecutive submissions, the
    /// GPU state carried across (refused while a list runs and after a hang).
    fn submit(&mut self, addr: &Bound<'_, PyAny>, size: &Bound<'_, PyAny>) -> PyResult<()> {
        let addr = args::u32_arg(addr, "addr")?;
        let size = args::u32_arg(size, "size")?;
        self.gpu.submit(addr, size).map_err(submit_err)
    }

    /// Writes `words` at `addr` and submits them (4 * len(words) bytes).
    #[pyo3(
        signature = (words, addr = None),
        text_signature = "($self, words, addr=0x20000000)"
    )]
    fn submit_words(
        &mut self,
        words: &Bound<'_, PyAny>,
        addr: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let addr = list_addr(addr)?;
        let words = args::words(words, "words")?;
        let size = u32::try_from(words.len() * 4).map_err(|_| {
            PyValueError::new_err(format!("{} words do not fit in 4 GiB", words.len()))
        })?;
        self.gpu
            .mem_mut()
            .write_words(addr, &words)
            .map_err(unmapped)?;
        self.gpu.submit(addr, size).map_err(submit_err)
    }

    /// A PSC memory fill (`GX SetMemoryFill`): `value` as `width`-bit values (16, 24, 32) over
    /// `[start, end)` (8-aligned physical addresses), between command lists. `ValueError` for a
    /// bad width, alignment or range, `UnmappedError` outside VRAM / FCRAM, `BusyError` while a
    /// list runs.
    #[pyo3(
        signature = (start, end, value, width = None),
        text_signature = "($self, start, end, value, width=32)"
    )]
    fn memory_fill(
        &mut self,
        start: &Bound<'_, PyAny>,
        end: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
        width: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        use pica_model::psc::{FillError, FillWidth, MemoryFill};
        let start = args::u32_arg(start, "start")?;
        let end = args::u32_arg(end, "end")?;
        let value = args::u32_arg(value, "value")?;
        let bits = match width {
            Some(w) => args::u32_arg(w, "width")?,
            None => 32,
        };
        let width = FillWidth::from_bits(bits)
            .ok_or_else(|| PyValueError::new_err(format!("width {bits} is not 16, 24 or 32")))?;
        let fill = MemoryFill {
            start,
            end,
            value,
            width,
        };
        self.gpu.memory_fill(&fill).map_err(|e| match e {
            FillError::Unmapped(_) => unmapped(e),
            FillError::Busy => errors::busy(e.to_string()),
            FillError::Unaligned { .. } | FillError::Empty { .. } => {
                PyValueError::new_err(e.to_string())
            }
        })
    }

    /// Puts one register write into the CP -> REGS channel (as the CP would), stepping the
    /// clock while the channel is full. REGS applies it (merging `value` under the byte-enable
    /// `mask`) in a later cycle: `step()` or `run()` to see it. `reg` is an ID or a name.
    #[pyo3(
        signature = (reg, value, mask = None),
        text_signature = "($self, reg, value, mask=0xF)"
    )]
    fn write_reg(
        &mut self,
        py: Python<'_>,
        reg: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
        mask: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let id = args::reg(reg, "reg", MAX_PUSH_ID)?;
        let value = args::u32_arg(value, "value")?;
        let mask = match mask {
            Some(m) => args::uint(m, "mask", 0xF)? as u8,
            None => 0xF,
        };
        push(py, &mut self.gpu, id, mask, value)
    }

    /// `write_reg` for every `(reg, value)` or `(reg, value, mask)` of `writes`, in one call.
    /// On a bad element, the writes before it have been pushed.
    fn write_regs(&mut self, py: Python<'_>, writes: &Bound<'_, PyAny>) -> PyResult<usize> {
        let iter = writes.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "writes must be an iterable of (reg, value[, mask]) tuples, not {}",
                args::type_name(writes)
            ))
        })?;
        let mut n = 0;
        for (i, item) in iter.enumerate() {
            let (id, value, mask) = write_item(&item?, i)?;
            push(py, &mut self.gpu, id, mask, value)?;
            n += 1;
        }
        Ok(n)
    }

    /// Advances the clock `n` cycles.
    #[pyo3(signature = (n = None), text_signature = "($self, n=1)")]
    fn step(&mut self, py: Python<'_>, n: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let n = match n {
            Some(n) => args::uint(n, "n", u64::MAX)?,
            None => 1,
        };
        step_n(py, &mut self.gpu, n)
    }

    /// Steps until the run finishes, the GPU hangs, or the cycle count reaches `max_cycles`
    /// (counted from power-on, not from this call).
    #[pyo3(
        signature = (max_cycles = None),
        text_signature = "($self, max_cycles=100000000)"
    )]
    fn run(
        &mut self,
        py: Python<'_>,
        max_cycles: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyOutcome> {
        let max = match max_cycles {
            Some(m) => args::uint(m, "max_cycles", u64::MAX)?,
            None => DEFAULT_MAX_CYCLES,
        };
        loop {
            let stop = max.min(self.gpu.cycle().saturating_add(SIGNAL_CHECK_CYCLES));
            let o = self.gpu.run(stop);
            match o {
                // Only this chunk's limit: go on (run() with a larger limit behaves the same).
                Outcome::CycleLimit { .. } if stop < max => py.check_signals()?,
                _ => return Ok(PyOutcome::from_outcome(&o)),
            }
        }
    }

    /// The outcome if the run is over, `None` while work remains.
    #[getter]
    fn outcome(&self) -> Option<PyOutcome> {
        self.gpu.outcome().as_ref().map(PyOutcome::from_outcome)
    }

    /// Sets one knob, the model's answer to a disputed hardware case (`UNVERIFIED(hw)`): the
    /// same `name` and `value` as `--knob NAME=VALUE` of the `pica` command (`pica knobs`,
    /// `docs/knobs.md`; the first value is the default). Knobs are chosen before the GPU runs:
    /// `BusyError` once the clock has advanced; `KeyError` for an unknown knob, `ValueError`
    /// for a value it does not have (both list the valid ones).
    fn set_knob(&mut self, name: &str, value: &str) -> PyResult<()> {
        if self.gpu.cycle() != 0 {
            return Err(errors::busy(format!(
                "knob {name}: the GPU has run {} cycles; knobs are set before it runs",
                self.gpu.cycle()
            )));
        }
        if pica_model::knobs::values_of(name).is_none() {
            let names: Vec<&str> = pica_model::knobs::Knobs::NAMES
                .iter()
                .map(|(n, _)| *n)
                .collect();
            return Err(PyKeyError::new_err(format!(
                "unknown knob '{name}' (one of: {})",
                names.join(", ")
            )));
        }
        let mut k = self.gpu.knobs();
        k.set(&format!("{name}={value}"))
            .map_err(PyValueError::new_err)?;
        self.gpu.set_knobs(k);
        Ok(())
    }

    /// The knobs whose value is not the default, as `{name: value}` (what a bundle's manifest
    /// records).
    #[getter]
    fn knobs(&self) -> std::collections::BTreeMap<String, String> {
        self.gpu.knobs().to_map()
    }

    /// Cycles stepped so far.
    #[getter]
    fn cycle(&self) -> u64 {
        self.gpu.cycle()
    }

    /// Register writes pushed with `write_reg` / `write_regs` so far.
    #[getter]
    fn pushed_writes(&self) -> u64 {
        self.gpu.pushed_writes()
    }

    /// The current value of register `reg` (ID 0x000-0x2FF or a name).
    fn reg(&self, reg: &Bound<'_, PyAny>) -> PyResult<u32> {
        let id = args::reg(reg, "reg", (NUM_REGS - 1) as u32)?;
        Ok(self.gpu.regs().reg(id))
    }

    /// All 0x300 register words.
    fn regs(&self) -> Vec<u32> {
        self.gpu.regs().regs().to_vec()
    }

    /// One word of the debug map (what the RTL's debug port returns for `addr`).
    fn debug_read(&self, addr: &Bound<'_, PyAny>) -> PyResult<u32> {
        let addr = args::uint(addr, "addr", u16::MAX.into())? as u16;
        Ok(self.gpu.regs().debug_read(addr))
    }

    /// The whole debug map as `(address, word)` pairs.
    fn debug_dump(&self) -> Vec<(u16, u32)> {
        self.gpu.regs().debug_dump()
    }

    /// Beats of `channel` recorded and not yet popped.
    fn beat_count(&self, channel: &str) -> PyResult<usize> {
        let ch = beats::channel(channel)?;
        let rec = beats::recorded(&self.gpu, ch);
        Ok(rec.saturating_sub(self.popped[beats::index(ch)]))
    }

    /// Beats of `channel` recorded so far, popped or not.
    fn beats_recorded(&self, channel: &str) -> PyResult<usize> {
        Ok(beats::recorded(&self.gpu, beats::channel(channel)?))
    }

    /// The oldest not-yet-popped beat of `channel` as a dict, or `None`.
    fn pop_beat<'py>(
        &mut self,
        py: Python<'py>,
        channel: &str,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let ch = beats::channel(channel)?;
        let i = beats::index(ch);
        let start = self.popped[i];
        if start >= beats::recorded(&self.gpu, ch) {
            return Ok(None);
        }
        let out = PyList::empty(py);
        beats::append(py, &self.gpu, ch, start..start + 1, &out)?;
        self.popped[i] = start + 1;
        out.get_item(0).map(Some)
    }

    /// Every not-yet-popped beat of `channel`, in order, as dicts.
    fn pop_beats<'py>(&mut self, py: Python<'py>, channel: &str) -> PyResult<Bound<'py, PyList>> {
        let ch = beats::channel(channel)?;
        let i = beats::index(ch);
        let (start, end) = (self.popped[i], beats::recorded(&self.gpu, ch));
        let out = PyList::empty(py);
        if start < end {
            beats::append(py, &self.gpu, ch, start..end, &out)?;
            self.popped[i] = end;
        }
        Ok(out)
    }

    /// Work counts of the pipeline: draws, vertices, triangles, fragments.
    fn pipeline_stats(&self) -> (u64, u64, u64, u64) {
        let s = self.gpu.pipeline_stats();
        (s.draws, s.vertices, s.triangles, s.fragments)
    }

    fn __repr__(&self) -> String {
        let state = match self.gpu.outcome() {
            Some(o) => o.to_string(),
            None => "running".into(),
        };
        format!(
            "Gpu(front_end={}, cycle={}, {state})",
            if self.front_end { "True" } else { "False" },
            self.gpu.cycle()
        )
    }
}

/// A list address argument, [`DEFAULT_LIST_ADDR`] when not given.
fn list_addr(addr: Option<&Bound<'_, PyAny>>) -> PyResult<u32> {
    match addr {
        Some(a) => args::u32_arg(a, "addr"),
        None => Ok(DEFAULT_LIST_ADDR),
    }
}

/// A refused submission as `SubmitError`.
fn submit_err(e: SubmitError) -> PyErr {
    errors::submit(format!("cannot submit the command list: {e}"))
}

/// The words of a `.bin` / `.hex` / `.txt` file (`format` overrides the extension).
pub fn read_words_file(path: &std::path::Path, format: Option<&str>) -> PyResult<Vec<u32>> {
    use pica_vectors::words::{parse_words, WordFormat};
    let name = path.display().to_string();
    let format = match format.map(str::to_ascii_lowercase).as_deref() {
        Some("bin") => Some(WordFormat::Bin),
        Some("hex" | "txt") => Some(WordFormat::Hex),
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "format = '{other}' is not 'bin' or 'hex'"
            )))
        }
        None => match WordFormat::of_name(&name) {
            Some(f) => Some(f),
            None => {
                return Err(PyValueError::new_err(format!(
                    "{name}: unknown file type (use .bin for binary or .hex/.txt for text \
                     words, or format='bin'/'hex')"
                )))
            }
        },
    };
    let bytes = std::fs::read(path).map_err(|e| {
        let msg = format!("{name}: {e}");
        match e.kind() {
            std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(msg),
            std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(msg),
            std::io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(msg),
            _ => PyOSError::new_err(msg),
        }
    })?;
    parse_words(&name, &bytes, format).map_err(|e| errors::parse(e.0))
}
