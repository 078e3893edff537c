//! # pica-capi — the model as a C library
//!
//! A C ABI over [`pica_model`] so that a testbench in another language links the golden model
//! the way benches link Spike or a difftest reference: `libpica_capi.so` / `libpica_capi.a`
//! with the header `capi/include/pica_model.h` (generated from this file by cbindgen plus the
//! channel table, `pica_model::chan::c_header`; `capi/tests/header.rs` checks it is fresh).
//! The SystemVerilog DPI-C package `capi/dpi/pica_model_dpi.sv` imports these functions
//! directly, so every entry point a bench needs has DPI-compatible arguments (handles,
//! 32/64-bit integers, `const char *`, pointers to integers).
//!
//! Rules of the boundary:
//! - Every entry point returns a [`PicaStatus`] (`PICA_OK` = 0, `PICA_EMPTY` = 1, errors
//!   negative) except the few that return a constant string or a number; on an error,
//!   [`pica_last_error`] has a message that names the function and what was wrong.
//! - No panic crosses the boundary: each body runs under `catch_unwind` and a panic becomes
//!   `PICA_ERR_PANIC` (a model bug to report). Null pointers, a handle that is not a live GPU
//!   (checked by a magic word: a best-effort check, a freed handle's memory may be reused),
//!   an unknown channel, an unmapped address and a short buffer each get their own code.
//! - A `pica_gpu_t` is not thread-safe: use one from one thread at a time (several GPUs in
//!   several threads are fine).

// The C boundary: raw pointers come from C callers. Every dereference goes through the
// helpers below, which check for null (and the handle's magic word) first.
#![allow(unsafe_code)]

use pica_model::beat::Channel;
use pica_model::chan::Payload;
use pica_model::mem::{Memory, REGIONS};
use pica_model::{Gpu, Outcome, PushError};
use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

/// The result of an entry point: `PICA_OK` (0), `PICA_EMPTY` (1) or a negative error.
pub type PicaStatus = i32;
/// Success.
pub const PICA_OK: PicaStatus = 0;
/// Success, but nothing to return: no beat is waiting on the channel.
pub const PICA_EMPTY: PicaStatus = 1;
/// A required pointer argument is NULL.
pub const PICA_ERR_NULL: PicaStatus = -1;
/// The handle is not a live GPU made by `pica_gpu_new`.
pub const PICA_ERR_HANDLE: PicaStatus = -2;
/// No such channel number or name.
pub const PICA_ERR_CHANNEL: PicaStatus = -3;
/// The address range is not in mapped memory (VRAM or FCRAM).
pub const PICA_ERR_UNMAPPED: PicaStatus = -4;
/// An argument is out of range (register ID, byte mask, debug address, UTF-8 text, ...).
pub const PICA_ERR_ARGUMENT: PicaStatus = -5;
/// The model refused the request in its current state (a submission it cannot take, a
/// register write while a command list is running).
pub const PICA_ERR_REFUSED: PicaStatus = -6;
/// A file could not be read or parsed.
pub const PICA_ERR_FILE: PicaStatus = -7;
/// A caller's buffer has the wrong size (a beat struct) or is too small.
pub const PICA_ERR_SIZE: PicaStatus = -8;
/// A register write could not be accepted: the GPU hung, or the CP → REGS channel stayed
/// full for `PICA_WRITE_MAX_WAIT` cycles.
pub const PICA_ERR_HUNG: PicaStatus = -9;
/// The model panicked (a model bug: please report it with the inputs).
pub const PICA_ERR_PANIC: PicaStatus = -10;

/// `pica_gpu_new` flag: the front end alone (CP and REGS, as the RTL top `pica_top` has
/// them): draws are recorded as trigger events, nothing runs after REGS.
pub const PICA_GPU_FRONT_END: u32 = 1;
/// `pica_gpu_new` flag: record the shader units' commit trace (channel `commit`).
pub const PICA_GPU_RECORD_COMMITS: u32 = 2;
/// `pica_gpu_new` flag: record no beats (fastest; the pop functions then find nothing).
pub const PICA_GPU_NO_BEATS: u32 = 4;
/// Every flag bit `pica_gpu_new` knows.
pub const PICA_GPU_FLAGS_ALL: u32 = 7;

/// Outcome kind: still running (or never run).
pub const PICA_OUTCOME_RUNNING: u32 = 0;
/// Outcome kind: the command list finished.
pub const PICA_OUTCOME_FINISHED: u32 = 1;
/// Outcome kind: the GPU hung (the hang code and message say why).
pub const PICA_OUTCOME_HANG: u32 = 2;
/// Outcome kind: the cycle limit of `pica_gpu_run` was reached first.
pub const PICA_OUTCOME_CYCLE_LIMIT: u32 = 3;

/// The version of this ABI (`pica_abi_version`): bumped on any incompatible change.
pub const PICA_ABI_VERSION: u32 = 1;

/// The cycles `pica_gpu_write_reg` steps, at most, while the CP → REGS channel is full (REGS
/// holds while a draw drains) before it gives up with `PICA_ERR_HUNG`; the default cycle
/// limit of `pica run`.
pub const PICA_WRITE_MAX_WAIT: u64 = 100_000_000;

const MAGIC: u64 = 0x5049_4341_4750_5531; // "PICAGPU1"

/// An opaque GPU: the model, its memory, and a read cursor per channel.
pub struct PicaGpu {
    magic: u64,
    gpu: Gpu,
    cursors: [usize; Channel::ALL.len()],
    /// The outcome of the last `pica_gpu_run` (a cycle limit is not a state the model keeps).
    last_run: Option<Outcome>,
    message: CString,
}

/// One register write for `pica_gpu_write_regs`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PicaRegWrite {
    /// Register ID (0 ..= 0x100FE; IDs above 0x2FF have no storage and change nothing).
    pub id: u32,
    /// The parameter word.
    pub value: u32,
    /// The command header's byte-enable mask, 0 ..= 0xF (0xF writes the whole word).
    pub mask: u32,
}

type Fail = (PicaStatus, String);
type Res<T> = Result<T, Fail>;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_error(msg: String) {
    let c = CString::new(msg.replace('\0', "\\0")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// Runs `f` under `catch_unwind`, turning its error or panic into a status and a message.
fn guard(name: &str, f: impl FnOnce() -> Res<PicaStatus>) -> PicaStatus {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(s)) => s,
        Ok(Err((s, m))) => {
            set_error(format!("{name}: {m}"));
            s
        }
        Err(p) => {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            set_error(format!(
                "{name}: internal panic in the model ({what}); please report it with the inputs"
            ));
            PICA_ERR_PANIC
        }
    }
}

fn err<T>(s: PicaStatus, m: impl Into<String>) -> Res<T> {
    Err((s, m.into()))
}

/// The GPU behind `p`, checked for null and for the magic word.
///
/// # Safety
/// `p` is null or points to readable memory the size of a `PicaGpu` (a live handle).
unsafe fn gpu_ref<'a>(p: *const PicaGpu) -> Res<&'a PicaGpu> {
    // SAFETY: null is checked first; the caller promises a handle from pica_gpu_new.
    match unsafe { p.as_ref() } {
        None => err(PICA_ERR_NULL, "gpu is NULL"),
        Some(g) if g.magic != MAGIC => err(
            PICA_ERR_HANDLE,
            "gpu is not a live GPU made by pica_gpu_new (freed, or not a handle)",
        ),
        Some(g) => Ok(g),
    }
}

/// Mutable form of [`gpu_ref`].
///
/// # Safety
/// As [`gpu_ref`], and no other reference to the GPU is live.
unsafe fn gpu_mut<'a>(p: *mut PicaGpu) -> Res<&'a mut PicaGpu> {
    // SAFETY: as gpu_ref.
    match unsafe { p.as_mut() } {
        None => err(PICA_ERR_NULL, "gpu is NULL"),
        Some(g) if g.magic != MAGIC => err(
            PICA_ERR_HANDLE,
            "gpu is not a live GPU made by pica_gpu_new (freed, or not a handle)",
        ),
        Some(g) => Ok(g),
    }
}

/// Writes `v` through the out-pointer `p`.
///
/// # Safety
/// `p` is null or valid for a write of `T`.
unsafe fn put<T>(p: *mut T, what: &str, v: T) -> Res<()> {
    if p.is_null() {
        return err(PICA_ERR_NULL, format!("{what} is NULL"));
    }
    // SAFETY: not null; the caller promises it is writable.
    unsafe { p.write(v) };
    Ok(())
}

/// The slice `p[0..n]`; NULL is allowed only when `n` is 0.
///
/// # Safety
/// `p` is null or valid for reads of `n` elements.
unsafe fn slice<'a, T>(p: *const T, n: usize, what: &str) -> Res<&'a [T]> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return err(PICA_ERR_NULL, format!("{what} is NULL (with {n} elements)"));
    }
    // SAFETY: not null; the caller promises n readable elements.
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

/// The mutable slice `p[0..n]`; NULL is allowed only when `n` is 0.
///
/// # Safety
/// `p` is null or valid for writes of `n` elements.
unsafe fn slice_mut<'a, T>(p: *mut T, n: usize, what: &str) -> Res<&'a mut [T]> {
    if n == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return err(PICA_ERR_NULL, format!("{what} is NULL (with {n} elements)"));
    }
    // SAFETY: not null; the caller promises n writable elements.
    Ok(unsafe { std::slice::from_raw_parts_mut(p, n) })
}

/// The UTF-8 text of the C string `p`.
///
/// # Safety
/// `p` is null or a NUL-terminated string.
unsafe fn text<'a>(p: *const c_char, what: &str) -> Res<&'a str> {
    if p.is_null() {
        return err(PICA_ERR_NULL, format!("{what} is NULL"));
    }
    // SAFETY: not null; the caller promises NUL termination.
    unsafe { CStr::from_ptr(p) }
        .to_str()
        .or_else(|e| err(PICA_ERR_ARGUMENT, format!("{what} is not UTF-8: {e}")))
}

fn channel(ch: u32) -> Res<Channel> {
    Channel::ALL.get(ch as usize).copied().ok_or_else(|| {
        (
            PICA_ERR_CHANNEL,
            format!(
                "no channel {ch} (channels are 0 ..= {}: {})",
                Channel::ALL.len() - 1,
                Channel::ALL.map(Channel::name).join(", ")
            ),
        )
    })
}

fn check_range(addr: u32, len: usize) -> Res<()> {
    let ok = u32::try_from(len)
        .ok()
        .filter(|&l| Memory::region_of(addr, l.max(1)).is_some());
    match ok {
        Some(_) => Ok(()),
        None => err(
            PICA_ERR_UNMAPPED,
            format!(
                "0x{addr:08x} + {len} bytes is not inside one mapped region ({})",
                REGIONS
                    .iter()
                    .map(|r| format!(
                        "{} 0x{:08x}-0x{:08x}",
                        r.name,
                        r.start,
                        r.start + (r.size - 1)
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    }
}

/// The `i`-th recorded beat of channel `$ch` bound to `$b` (any payload type) in `$body`.
macro_rules! with_beat {
    ($gpu:expr, $ch:expr, $i:expr, |$b:ident| $body:expr) => {{
        let g: &Gpu = $gpu;
        let i: usize = $i;
        match $ch {
            Channel::RegWrite => g.regwrite_beats().get(i).map(|$b| $body),
            Channel::ShaderIn => g.shader_beats().0.get(i).map(|$b| $body),
            Channel::ShaderOut => g.shader_beats().1.get(i).map(|$b| $body),
            Channel::Commit => g.commit_beats().get(i).map(|$b| $body),
            Channel::Primitive => g.pipeline_beats().primitive.get(i).map(|$b| $body),
            Channel::Fragment => g.pipeline_beats().fragment.get(i).map(|$b| $body),
            Channel::Pixel => g.pipeline_beats().pixel.get(i).map(|$b| $body),
            Channel::Texel => g.pipeline_beats().texel.get(i).map(|$b| $body),
            Channel::Combiner => g.pipeline_beats().combiner.get(i).map(|$b| $body),
            Channel::TexColor => g.pipeline_beats().tex_color.get(i).map(|$b| $body),
        }
    }};
}

fn recorded(g: &Gpu, ch: Channel) -> usize {
    let p = g.pipeline_beats();
    match ch {
        Channel::RegWrite => g.regwrite_beats().len(),
        Channel::ShaderIn => g.shader_beats().0.len(),
        Channel::ShaderOut => g.shader_beats().1.len(),
        Channel::Commit => g.commit_beats().len(),
        Channel::Primitive => p.primitive.len(),
        Channel::Fragment => p.fragment.len(),
        Channel::Pixel => p.pixel.len(),
        Channel::Texel => p.texel.len(),
        Channel::Combiner => p.combiner.len(),
        Channel::TexColor => p.tex_color.len(),
    }
}

fn outcome_of(g: &PicaGpu) -> Option<Outcome> {
    g.gpu.outcome().or_else(|| {
        g.last_run
            .clone()
            .filter(|o| matches!(o, Outcome::CycleLimit { cycles } if *cycles == g.gpu.cycle()))
    })
}

/// The ABI version this library implements (`PICA_ABI_VERSION`).
#[no_mangle]
pub extern "C" fn pica_abi_version() -> u32 {
    PICA_ABI_VERSION
}

/// The name of a status code (`"PICA_ERR_UNMAPPED"`); `"PICA_UNKNOWN_STATUS"` for others.
/// The string is static.
#[no_mangle]
pub extern "C" fn pica_status_name(status: PicaStatus) -> *const c_char {
    let s: &'static CStr = match status {
        PICA_OK => c"PICA_OK",
        PICA_EMPTY => c"PICA_EMPTY",
        PICA_ERR_NULL => c"PICA_ERR_NULL",
        PICA_ERR_HANDLE => c"PICA_ERR_HANDLE",
        PICA_ERR_CHANNEL => c"PICA_ERR_CHANNEL",
        PICA_ERR_UNMAPPED => c"PICA_ERR_UNMAPPED",
        PICA_ERR_ARGUMENT => c"PICA_ERR_ARGUMENT",
        PICA_ERR_REFUSED => c"PICA_ERR_REFUSED",
        PICA_ERR_FILE => c"PICA_ERR_FILE",
        PICA_ERR_SIZE => c"PICA_ERR_SIZE",
        PICA_ERR_HUNG => c"PICA_ERR_HUNG",
        PICA_ERR_PANIC => c"PICA_ERR_PANIC",
        _ => c"PICA_UNKNOWN_STATUS",
    };
    s.as_ptr()
}

/// The message of the last failed call on this thread (`""` if none failed yet). The
/// pointer stays valid until the next failing call on this thread; copy it to keep it.
#[no_mangle]
pub extern "C" fn pica_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Makes a GPU in its power-on state with empty memory (VRAM and FCRAM, see
/// `pica_mem_region`) and stores its handle in `*out`. `flags`: `PICA_GPU_FRONT_END`,
/// `PICA_GPU_RECORD_COMMITS`, `PICA_GPU_NO_BEATS`, or 0. Free it with `pica_gpu_free`.
///
/// # Safety
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn pica_gpu_new(flags: u32, out: *mut *mut PicaGpu) -> PicaStatus {
    guard("pica_gpu_new", || {
        if out.is_null() {
            return err(PICA_ERR_NULL, "out is NULL");
        }
        if flags & !PICA_GPU_FLAGS_ALL != 0 {
            return err(
                PICA_ERR_ARGUMENT,
                format!("unknown flag bits 0x{:x}", flags & !PICA_GPU_FLAGS_ALL),
            );
        }
        let mut gpu = Gpu::new(Memory::new());
        gpu.set_pipeline(flags & PICA_GPU_FRONT_END == 0);
        gpu.set_record_commits(flags & PICA_GPU_RECORD_COMMITS != 0);
        gpu.set_record_beats(flags & PICA_GPU_NO_BEATS == 0);
        let b = Box::new(PicaGpu {
            magic: MAGIC,
            gpu,
            cursors: [0; Channel::ALL.len()],
            last_run: None,
            message: CString::default(),
        });
        // SAFETY: checked not null above.
        unsafe { put(out, "out", Box::into_raw(b)) }?;
        Ok(PICA_OK)
    })
}

/// Frees a GPU made by `pica_gpu_new`. NULL is accepted and does nothing.
///
/// # Safety
/// `gpu` is NULL or a live handle, not used again afterwards.
#[no_mangle]
pub unsafe extern "C" fn pica_gpu_free(gpu: *mut PicaGpu) -> PicaStatus {
    guard("pica_gpu_free", || {
        if gpu.is_null() {
            return Ok(PICA_OK);
        }
        // SAFETY: the caller promises a handle; the magic word is checked.
        let g = unsafe { gpu_mut(gpu) }?;
        g.magic = 0;
        // SAFETY: made by Box::into_raw in pica_gpu_new and checked live.
        drop(unsafe { Box::from_raw(gpu) });
        Ok(PICA_OK)
    })
}

/// The number of memory regions (`pica_mem_region`).
#[no_mangle]
pub extern "C" fn pica_mem_region_count() -> u32 {
    REGIONS.len() as u32
}

/// Region `index`: its first byte address, its size in bytes and its name (static string).
///
/// # Safety
/// Each out-pointer is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn pica_mem_region(
    index: u32,
    base: *mut u32,
    size: *mut u32,
    name: *mut *const c_char,
) -> PicaStatus {
    guard("pica_mem_region", || {
        let Some(r) = REGIONS.get(index as usize) else {
            return err(
                PICA_ERR_ARGUMENT,
                format!("no region {index} (there are {})", REGIONS.len()),
            );
        };
        let n: &'static CStr = if r.name == "VRAM" { c"VRAM" } else { c"FCRAM" };
        // SAFETY: checked by put.
        unsafe {
            put(base, "base", r.start)?;
            put(size, "size", r.size)?;
            put(name, "name", n.as_ptr())?;
        }
        Ok(PICA_OK)
    })
}

/// Copies `len` bytes to memory at `addr` (the range must lie in one region).
///
/// # Safety
/// `gpu` is a live handle; `data` is valid for `len` bytes (NULL only when `len` is 0).
#[no_mangle]
pub unsafe extern "C" fn pica_mem_write(
    gpu: *mut PicaGpu,
    addr: u32,
    data: *const u8,
    len: usize,
) -> PicaStatus {
    guard("pica_mem_write", || {
        // SAFETY: see the function's contract.
        let (g, d) = unsafe { (gpu_mut(gpu)?, slice(data, len, "data")?) };
        check_range(addr, len)?;
        g.gpu
            .mem_mut()
            .write_bytes(addr, d)
            .or_else(|e| err(PICA_ERR_UNMAPPED, e.to_string()))?;
        Ok(PICA_OK)
    })
}

/// Writes `n` little-endian 32-bit words to memory at `addr`.
///
/// # Safety
/// `gpu` is a live handle; `words` is valid for `n` words (NULL only when `n` is 0).
#[no_mangle]
pub unsafe extern "C" fn pica_mem_write_words(
    gpu: *mut PicaGpu,
    addr: u32,
    words: *const u32,
    n: usize,
) -> PicaStatus {
    guard("pica_mem_write_words", || {
        // SAFETY: see the function's contract.
        let (g, w) = unsafe { (gpu_mut(gpu)?, slice(words, n, "words")?) };
        check_range(addr, n.saturating_mul(4))?;
        g.gpu
            .mem_mut()
            .write_words(addr, w)
            .or_else(|e| err(PICA_ERR_UNMAPPED, e.to_string()))?;
        Ok(PICA_OK)
    })
}

/// Copies `len` bytes of memory at `addr` to `out`.
///
/// # Safety
/// `gpu` is a live handle; `out` is valid for `len` bytes (NULL only when `len` is 0).
#[no_mangle]
pub unsafe extern "C" fn pica_mem_read(
    gpu: *const PicaGpu,
    addr: u32,
    out: *mut u8,
    len: usize,
) -> PicaStatus {
    guard("pica_mem_read", || {
        // SAFETY: see the function's contract.
        let (g, o) = unsafe { (gpu_ref(gpu)?, slice_mut(out, len, "out")?) };
        check_range(addr, len)?;
        for (i, b) in o.iter_mut().enumerate() {
            *b = g
                .gpu
                .mem()
                .read_u8(addr.wrapping_add(i as u32))
                .or_else(|e| err(PICA_ERR_UNMAPPED, e.to_string()))?;
        }
        Ok(PICA_OK)
    })
}

/// Reads the little-endian word at `addr` into `*out` (`PICA_ERR_UNMAPPED` outside memory:
/// what a bench answers on the RTL's memory port as an error).
///
/// # Safety
/// `gpu` is a live handle; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn pica_mem_read_word(
    gpu: *const PicaGpu,
    addr: u32,
    out: *mut u32,
) -> PicaStatus {
    guard("pica_mem_read_word", || {
        // SAFETY: see the function's contract.
        let g = unsafe { gpu_ref(gpu) }?;
        let w = g
            .gpu
            .mem()
            .read_u32(addr)
            .or_else(|e| err(PICA_ERR_UNMAPPED, e.to_string()))?;
        // SAFETY: checked by put.
        unsafe { put(out, "out", w) }?;
        Ok(PICA_OK)
    })
}

/// Loads a file of words into memory at `addr`: text words for `.hex` / `.txt` (whitespace
/// separated hex, `0x` optional, `#` and `//` comments: `vectors/examples/*.hex`), little-
/// endian binary for `.bin`. `*bytes` (if not NULL) receives the bytes written, which is the
/// size to give `pica_gpu_submit` for a command list.
///
/// # Safety
/// `gpu` is a live handle; `path` a NUL-terminated string; `bytes` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn pica_load_file(
    gpu: *mut PicaGpu,
    path: *const c_char,
    addr: u32,
    bytes: *mut u32,
) -> PicaStatus {
    guard("pica_load_file", || {
        // SAFETY: see the function's contract.
        let (g, p) = unsafe { (gpu_mut(gpu)?, text(path, "path")?) };
        let words = read_words(p)?;
        let len = words.len().saturating_mul(4);
        check_range(addr, len)?;
        g.gpu
            .mem_mut()
            .write_words(addr, &words)
            .or_else(|e| err(PICA_ERR_UNMAPPED, e.to_string()))?;
        if !bytes.is_null() {
            // SAFETY: not null; the caller promises it is writable.
            unsafe { put(bytes, "bytes", len as u32) }?;
        }
        Ok(PICA_OK)
    })
}

fn read_words(path: &str) -> Res<Vec<u32>> {
    let data = std::fs::read(path).or_else(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            err(PICA_ERR_FILE, format!("{path}: no such file"))
        } else {
            err(PICA_ERR_FILE, format!("{path}: cannot read: {e}"))
        }
    })?;
    pica_vectors::words::parse_words(path, &data, None)
        .or_else(|e| err(PICA_ERR_FILE, e.to_string()))
}

/// Starts the command list at `addr` of `size` bytes (what the GSP does to kick a list;
/// only `size & ~0xF` bytes are read). Once a list has finished (`PICA_OUTCOME_FINISHED`)
/// the next one can be submitted: consecutive submissions, the GPU state (registers, shader
/// units, LUTs, the cycle counter) carried across. Refused (`PICA_ERR_REFUSED`) while a list
/// is still running and after a hang.
///
/// # Safety
/// `gpu` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn pica_gpu_submit(gpu: *mut PicaGpu, addr: u32, size: u32) -> PicaStatus {
    guard("pica_gpu_submit", || {
        // SAFETY: see the function's contract.
        let g = unsafe { gpu_mut(gpu) }?;
        g.gpu.submit(addr, size).or_else(|e| {
            let s = match e {
                pica_model::SubmitError::Unmapped(_) => PICA_ERR_UNMAPPED,
                _ => PICA_ERR_REFUSED,
            };
            err(s, e.to_string())
        })?;
        Ok(PICA_OK)
    })
}

/// A PSC memory fill (`GX SetMemoryFill`, 3dbrew GPU/External_Registers "Memory Fill"):
/// `value` as `width`-bit values (16, 24 or 32) over the physical range `[start, end)`, as
/// citro3d clears a render target before a frame's lists. Between lists: refused
/// (`PICA_ERR_REFUSED`) while one is running. `PICA_ERR_ARGUMENT` for a width other than 16,
/// 24, 32, an address that is not 8-aligned or an empty range; `PICA_ERR_UNMAPPED` for a
/// range outside VRAM and FCRAM.
///
/// # Safety
/// `gpu` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn pica_gpu_memory_fill(
    gpu: *mut PicaGpu,
    start: u32,
    end: u32,
    value: u32,
    width: u32,
) -> PicaStatus {
    use pica_model::psc::{FillError, FillWidth, MemoryFill};
    guard("pica_gpu_memory_fill", || {
        // SAFETY: see the function's contract.
        let g = unsafe { gpu_mut(gpu) }?;
        let width = FillWidth::from_bits(width).ok_or_else(|| {
            (
                PICA_ERR_ARGUMENT,
                format!("width {width} is not 16, 24 or 32"),
            )
        })?;
        let fill = MemoryFill {
            start,
            end,
            value,
            width,
        };
        g.gpu.memory_fill(&fill).or_else(|e| {
            let s = match e {
                FillError::Unmapped(_) => PICA_ERR_UNMAPPED,
                FillError::Busy => PICA_ERR_REFUSED,
                FillError::Unaligned { .. } | FillError::Empty { .. } => PICA_ERR_ARGUMENT,
            };
            err(s, e.to_string())
        })?;
        Ok(PICA_OK)
    })
}

/// Writes `n` words at `addr` and submits them as a command list of `4 n` bytes.
///
/// # Safety
/// `gpu` is a live handle; `words` is valid for `n` words (NULL only when `n` is 0).
#[no_mangle]
pub unsafe extern "C" fn pica_gpu_submit_words(
    gpu: *mut PicaGpu,
    addr: u32,
    words: *const u32,
    n: usize,
) -> PicaStatus {
    // SAFETY: same contract.
    let s = unsafe { pica_mem_write_words(gpu, addr, words, n) };
    if s != PICA_OK {
        return s;
    }
    guard("pica_gpu_submit_words", || {
        let size = u32::try_from(n.saturating_mul(4))
            .or_else(|_| err(PICA_ERR_ARGUMENT, format!("{n} words is too long a list")))?;
        // SAFETY: same contract.
        match unsafe { pica_gpu_submit(gpu, addr, size) } {
            PICA_OK => Ok(PICA_OK),
            s => Err((
                s,
                LAST_ERROR.with(|e| e.borrow().to_string_lossy().into_owned()),
            )),
        }
    })
}

fn write_one(g: &mut PicaGpu, id: u32, value: u32, mask: u32) -> Res<()> {
    let m = u8::try_from(mask).unwrap_or(0xFF);
    let mut waited = 0u64;
    loop {
        match g.gpu.push_write(id, m, value) {
            Ok(()) => return Ok(()),
            Err(PushError::Full) => {
                if let Some(o @ Outcome::Hang { .. }) = g.gpu.outcome() {
                    return err(
                        PICA_ERR_HUNG,
                        format!("register 0x{id:03x} not written: {o}"),
                    );
                }
                if waited >= PICA_WRITE_MAX_WAIT {
                    return err(
                        PICA_ERR_HUNG,
                        format!("register 0x{id:03x} not written: the CP -> REGS channel stayed full for {waited} cycles"),
                    );
                }
                g.gpu.step();
                waited += 1;
            }
            Err(e @ PushError::ListRunning) => return err(PICA_ERR_REFUSED, e.to_string()),
            Err(e @ (PushError::BadMask(_) | PushError::BadId(_))) => {
                let msg = if mask > 0xF {
                    format!("byte-enable mask 0x{mask:x} has bits above bit 3 (it is the header's 4-bit mask)")
                } else {
                    e.to_string()
                };
                return err(PICA_ERR_ARGUMENT, msg);
            }
        }
    }
}

/// Pushes one register write straight into the CP → REGS channel, as a testbench drives
/// REGS without a command list: REGS merges `value` under the byte-enable `mask` (0 ..= 0xF)
/// with every side effect and records its `regwrite` beat in a later cycle. When the
/// channel is full the clock is stepped until it takes the write (`PICA_ERR_HUNG` if the GPU
/// hangs first). Refused (`PICA_ERR_REFUSED`) while a submitted list is still running. A GPU
/// with pushed writes and no list finishes when they and their work have drained.
///
/// # Safety
/// `gpu` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn pica_gpu_write_reg(
    gpu: *mut PicaGpu,
    id: u32,
    value: u32,
    mask: u32,
) -> PicaStatus {
    guard("pica_gpu_write_reg", || {
        // SAFETY: see the function's contract.
        let g = unsafe { gpu_mut(gpu) }?;
        write_one(g, id, value, mask)?;
        Ok(PICA_OK)
    })
}

/// `pica_gpu_write_reg` for `n` writes in one call; `*done` (if not NULL) receives how many
/// were pushed (all of them on `PICA_OK`, the index of the failing one otherwise).
///
/// # Safety
/// `gpu` is a live handle; `writes` valid for `n` entries (NULL only when `n` is 0); `done`
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn pica_gpu_write_regs(
    gpu: *mut PicaGpu,
    writes: *const PicaRegWrite,
    n: usize,
    done: *mut usize,
) -> PicaStatus {
    guard("pica_gpu_write_regs", || {
        // SAFETY: see the function's contract.
        let (g, w) = unsafe { (gpu_mut(gpu)?, slice(writes, n, "writes")?) };
        let mut count = 0usize;
        let result = w.iter().try_for_each(|x| {
            write_one(g, x.id, x.value, x.mask)
                .map_err(|(s, m)| (s, format!("write {count}: {m}")))?;
            count += 1;
            Ok(())
        });
        if !done.is_null() {
            // SAFETY: not null; the caller promises it is writable.
            unsafe { put(done, "done", count) }?;
        }
        result.map(|()| PICA_OK)
    })
}

/// Sets one knob, the model's answer to a disputed hardware case (`UNVERIFIED(hw)`): the same
/// `name` and `value` as `--knob NAME=VALUE` of the `pica` command (`pica knobs` lists them,
/// the default first; `docs/knobs.md`). Knobs are chosen before the GPU runs: refused
/// (`PICA_ERR_REFUSED`) once the clock has advanced (a shader-unit knob resets the units). An
/// unknown name or a value the knob does not have is `PICA_ERR_ARGUMENT`, with a message that
/// lists the valid ones.
///
/// # Safety
/// `gpu` is a live handle; `name` and `value` NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn pica_gpu_set_knob(
    gpu: *mut PicaGpu,
    name: *const c_char,
    value: *const c_char,
) -> PicaStatus {
    guard("pica_gpu_set_knob", || {
        // SAFETY: see the function's contract.
        let (g, n, v) = unsafe { (gpu_mut(gpu)?, text(name, "name")?, text(value, "value")?) };
        if g.gpu.cycle() != 0 {
            return err(
                PICA_ERR_REFUSED,
                format!(
                    "knob {n}: the GPU has run {} cycles; knobs are set before it runs",
                    g.gpu.cycle()
                ),
            );
        }
        let mut k = g.gpu.knobs();
        k.set(&format!("{n}={v}"))
            .or_else(|e| err(PICA_ERR_ARGUMENT, e))?;
        g.gpu.set_knobs(k);
        Ok(PICA_OK)
    })
}

/// Advances the clock by `cycles` cycles (whatever the outcome).
///
/// # Safety
/// `gpu` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn pica_gpu_step(gpu: *mut PicaGpu, cycles: u64) -> PicaStatus {
    guard("pica_gpu_step", || {
        // SAFETY: see the function's contract.
        let g = unsafe { gpu_mut(gpu) }?;
        for _ in 0..cycles {
            g.gpu.step();
        }
        Ok(PICA_OK)
    })
}

/// Steps until the command list (or the pushed writes) finish, the GPU hangs, or
/// `max_cycles` cycles have been stepped in total; read the result with `pica_gpu_outcome`.
///
/// # Safety
/// `gpu` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn pica_gpu_run(gpu: *mut PicaGpu, max_cycles: u64) -> PicaStatus {
    guard("pica_gpu_run", || {
        // SAFETY: see the function's contract.
        let g = unsafe { gpu_mut(gpu) }?;
        let o = g.gpu.run(max_cycles);
        g.last_run = Some(o);
        Ok(PICA_OK)
    })
}

/// The outcome so far: `*kind` one of `PICA_OUTCOME_*`; `*cycle` the cycles run
/// (finished, cycle limit, running) or the cycle of the hang; `*hang_code` the RTL's
/// `hang_reason_o` code of the hang (1 missing FINALIZE, 2 command past the end, 3 fetch
/// from unmapped memory; 0 for the hangs the front-end RTL does not report, and when not
/// hung). Any out-pointer may be NULL.
///
/// # Safety
/// `gpu` is a live handle; each out-pointer NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn pica_gpu_outcome(
    gpu: *const PicaGpu,
    kind: *mut u32,
    cycle: *mut u64,
    hang_code: *mut u32,
) -> PicaStatus {
    guard("pica_gpu_outcome", || {
        // SAFETY: see the function's contract.
        let g = unsafe { gpu_ref(gpu) }?;
        let (k, c, h) = match outcome_of(g) {
            None => (PICA_OUTCOME_RUNNING, g.gpu.cycle(), 0),
            Some(Outcome::Finished { cycles }) => (PICA_OUTCOME_FINISHED, cycles, 0),
            Some(Outcome::CycleLimit { cycles }) => (PICA_OUTCOME_CYCLE_LIMIT, cycles, 0),
            Some(Outcome::Hang { cycle, reason }) => (
                PICA_OUTCOME_HANG,
                cycle,
                u32::from(pica_vectors::case::hang_reason_code(&reason)),
            ),
        };
        // SAFETY: each checked for null before the write.
        unsafe {
            if !kind.is_null() {
                put(kind, "kind", k)?;
            }
            if !cycle.is_null() {
                put(cycle, "cycle", c)?;
            }
            if !hang_code.is_null() {
                put(hang_code, "hang_code", h)?;
            }
        }
        Ok(PICA_OK)
    })
}

/// The outcome as the model words it (`"finished in 17 cycles"`, `"hang at cycle 9: ..."`,
/// `"running (cycle 4)"`); `""` for a bad handle. Valid until the next call with this GPU.
///
/// # Safety
/// `gpu` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn pica_gpu_outcome_message(gpu: *mut PicaGpu) -> *const c_char {
    let mut p: *const c_char = c"".as_ptr();
    let s = guard("pica_gpu_outcome_message", || {
        // SAFETY: see the function's contract.
        let g = unsafe { gpu_mut(gpu) }?;
        let m = match outcome_of(g) {
            Some(o) => o.to_string(),
            None => format!("running (cycle {})", g.gpu.cycle()),
        };
        g.message = CString::new(m).unwrap_or_default();
        p = g.message.as_ptr();
        Ok(PICA_OK)
    });
    if s == PICA_OK {
        p
    } else {
        c"".as_ptr()
    }
}

/// The current cycle (cycles stepped so far).
///
/// # Safety
/// `gpu` is a live handle; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn pica_gpu_cycle(gpu: *const PicaGpu, out: *mut u64) -> PicaStatus {
    guard("pica_gpu_cycle", || {
        // SAFETY: see the function's contract.
        let g = unsafe { gpu_ref(gpu) }?;
        // SAFETY: checked by put.
        unsafe { put(out, "out", g.gpu.cycle()) }?;
        Ok(PICA_OK)
    })
}

/// Reads register `id` (0 ..= 0x2FF) as REGS holds it.
///
/// # Safety
/// `gpu` is a live handle; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn pica_gpu_read_reg(
    gpu: *const PicaGpu,
    id: u32,
    out: *mut u32,
) -> PicaStatus {
    guard("pica_gpu_read_reg", || {
        // SAFETY: see the function's contract.
        let g = unsafe { gpu_ref(gpu) }?;
        if id > 0x2FF {
            return err(
                PICA_ERR_ARGUMENT,
                format!("register 0x{id:x} is beyond 0x2FF (no storage)"),
            );
        }
        // SAFETY: checked by put.
        unsafe { put(out, "out", g.gpu.regs().reg(id)) }?;
        Ok(PICA_OK)
    })
}

/// Reads one word of the debug map (the RTL's `dbg_addr_i` / `dbg_rdata_o` port: the
/// registers, then the FIFO-backed memories; `docs/registers.md` "Debug map"). Addresses
/// outside the map are `PICA_ERR_ARGUMENT`.
///
/// # Safety
/// `gpu` is a live handle; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn pica_gpu_debug_read(
    gpu: *const PicaGpu,
    addr: u32,
    out: *mut u32,
) -> PicaStatus {
    guard("pica_gpu_debug_read", || {
        // SAFETY: see the function's contract.
        let g = unsafe { gpu_ref(gpu) }?;
        let a = u16::try_from(addr)
            .ok()
            .filter(|a| debug_map().binary_search(a).is_ok())
            .ok_or_else(|| {
                (
                    PICA_ERR_ARGUMENT,
                    format!("0x{addr:x} is not a debug-map address"),
                )
            })?;
        // SAFETY: checked by put.
        unsafe { put(out, "out", g.gpu.regs().debug_read(a)) }?;
        Ok(PICA_OK)
    })
}

fn debug_map() -> &'static [u16] {
    static MAP: OnceLock<Vec<u16>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut v: Vec<u16> = pica_model::regfile::debug::debug_addresses().collect();
        v.sort_unstable();
        v.dedup();
        v
    })
}

/// The number of debug-map addresses (`pica_debug_address`).
#[no_mangle]
pub extern "C" fn pica_debug_address_count() -> u32 {
    debug_map().len() as u32
}

/// The `index`-th debug-map address, ascending.
///
/// # Safety
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn pica_debug_address(index: u32, out: *mut u32) -> PicaStatus {
    guard("pica_debug_address", || {
        let a = debug_map().get(index as usize).ok_or_else(|| {
            (
                PICA_ERR_ARGUMENT,
                format!("no debug address {index} (there are {})", debug_map().len()),
            )
        })?;
        // SAFETY: checked by put.
        unsafe { put(out, "out", u32::from(*a)) }?;
        Ok(PICA_OK)
    })
}

/// What the debug-map address `addr` holds (`"GPUREG_FOG_COLOR"`,
/// `"unit0.float_uniforms[c4.y]"`), for reports; `"(not in the debug map)"` otherwise.
/// Valid until the next call of this function on this thread.
#[no_mangle]
pub extern "C" fn pica_debug_describe(addr: u32) -> *const c_char {
    thread_local! {
        static TEXT: RefCell<CString> = RefCell::new(CString::default());
    }
    let t = match u16::try_from(addr)
        .ok()
        .filter(|a| debug_map().binary_search(a).is_ok())
    {
        Some(a) => catch_unwind(|| pica_model::regfile::debug::describe(a))
            .unwrap_or_else(|_| format!("debug address 0x{addr:04x}")),
        None => "(not in the debug map)".to_string(),
    };
    TEXT.with(|c| {
        *c.borrow_mut() = CString::new(t).unwrap_or_default();
        c.borrow().as_ptr()
    })
}

fn names() -> &'static [CString] {
    static NAMES: OnceLock<Vec<CString>> = OnceLock::new();
    NAMES.get_or_init(|| {
        (0..=0x2FFu32)
            .map(|id| CString::new(pica_model::regs::name(id)).unwrap_or_default())
            .collect()
    })
}

/// The register table's name of `id` (`"GPUREG_FOG_COLOR"`; `"GPUREG_0xxx"` for unnamed
/// IDs); `"GPUREG_BEYOND_0x2FF"` for IDs without storage. Static; never NULL.
#[no_mangle]
pub extern "C" fn pica_reg_name(id: u32) -> *const c_char {
    names()
        .get(id as usize)
        .map_or(c"GPUREG_BEYOND_0x2FF".as_ptr(), |c| c.as_ptr())
}

/// The ID of a register name (3dbrew or official name, with or without `GPUREG_`, or a hex
/// ID `0x10`; case-insensitive).
///
/// # Safety
/// `name` is NULL or a NUL-terminated string; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn pica_reg_by_name(name: *const c_char, out: *mut u32) -> PicaStatus {
    guard("pica_reg_by_name", || {
        // SAFETY: see the function's contract.
        let t = unsafe { text(name, "name") }?;
        let id = pica_model::regs::by_name(t)
            .ok_or_else(|| (PICA_ERR_ARGUMENT, format!("no register named {t:?}")))?;
        // SAFETY: checked by put.
        unsafe { put(out, "out", u32::from(id)) }?;
        Ok(PICA_OK)
    })
}

/// The name of channel `ch` (`"regwrite"`), or NULL for an unknown channel. Static.
#[no_mangle]
pub extern "C" fn pica_channel_name(ch: u32) -> *const c_char {
    static NAMES: OnceLock<Vec<CString>> = OnceLock::new();
    let n = NAMES.get_or_init(|| {
        Channel::ALL
            .iter()
            .map(|c| CString::new(c.name()).unwrap_or_default())
            .collect()
    });
    n.get(ch as usize).map_or(std::ptr::null(), |c| c.as_ptr())
}

/// The number of a channel name (`"fragment"` → `PICA_CH_FRAGMENT`).
///
/// # Safety
/// `name` is NULL or a NUL-terminated string; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn pica_channel_by_name(name: *const c_char, out: *mut u32) -> PicaStatus {
    guard("pica_channel_by_name", || {
        // SAFETY: see the function's contract.
        let t = unsafe { text(name, "name") }?;
        let i = Channel::ALL
            .iter()
            .position(|c| c.name() == t)
            .ok_or_else(|| {
                (
                    PICA_ERR_CHANNEL,
                    format!(
                        "no channel named {t:?} (channels: {})",
                        Channel::ALL.map(Channel::name).join(", ")
                    ),
                )
            })?;
        // SAFETY: checked by put.
        unsafe { put(out, "out", i as u32) }?;
        Ok(PICA_OK)
    })
}

/// The sizes of channel `ch`'s beat: `*c_size` the bytes of its C struct
/// (`sizeof(pica_<payload>_t)`), `*packed_bits` its packed width (the
/// `pica_chan_pkg` struct). Either out-pointer may be NULL.
///
/// # Safety
/// Each out-pointer is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn pica_beat_size(
    ch: u32,
    c_size: *mut usize,
    packed_bits: *mut u32,
) -> PicaStatus {
    guard("pica_beat_size", || {
        let p = channel(ch)?.payload();
        // SAFETY: each checked for null before the write.
        unsafe {
            if !c_size.is_null() {
                put(c_size, "c_size", p.c_size() as usize)?;
            }
            if !packed_bits.is_null() {
                put(packed_bits, "packed_bits", p.width())?;
            }
        }
        Ok(PICA_OK)
    })
}

/// How many beats of channel `ch` were recorded and not yet popped.
///
/// # Safety
/// `gpu` is a live handle; `waiting` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn pica_beat_count(
    gpu: *const PicaGpu,
    ch: u32,
    waiting: *mut u64,
) -> PicaStatus {
    guard("pica_beat_count", || {
        // SAFETY: see the function's contract.
        let g = unsafe { gpu_ref(gpu) }?;
        let c = channel(ch)?;
        let n = recorded(&g.gpu, c).saturating_sub(g.cursors[ch as usize]);
        // SAFETY: checked by put.
        unsafe { put(waiting, "waiting", n as u64) }?;
        Ok(PICA_OK)
    })
}

/// Pops the oldest not-yet-popped beat of channel `ch` into `*out`, the channel's C struct
/// (`pica_reg_write_beat_t` for `PICA_CH_REGWRITE`, ...); `out_size` must be its `sizeof`.
/// `PICA_EMPTY` (and `*out` untouched) when none is waiting.
///
/// # Safety
/// `gpu` is a live handle; `out` valid for `out_size` bytes.
#[no_mangle]
pub unsafe extern "C" fn pica_pop_beat(
    gpu: *mut PicaGpu,
    ch: u32,
    out: *mut std::ffi::c_void,
    out_size: usize,
) -> PicaStatus {
    guard("pica_pop_beat", || {
        // SAFETY: see the function's contract.
        let g = unsafe { gpu_mut(gpu) }?;
        let c = channel(ch)?;
        let want = c.payload().c_size() as usize;
        if out_size != want {
            return err(
                PICA_ERR_SIZE,
                format!(
                    "out_size {out_size} is not sizeof({}) = {want}",
                    c.payload().c_type()
                ),
            );
        }
        // SAFETY: see the function's contract.
        let o = unsafe { slice_mut(out.cast::<u8>(), out_size, "out") }?;
        let i = g.cursors[ch as usize];
        match with_beat!(&g.gpu, c, i, |b| b.c_bytes()) {
            None => Ok(PICA_EMPTY),
            Some(bytes) => {
                o.copy_from_slice(&bytes);
                g.cursors[ch as usize] += 1;
                Ok(PICA_OK)
            }
        }
    })
}

/// Pops the oldest not-yet-popped beat of channel `ch` as its packed bits (the channel
/// table's packing: `rtl-bridge/rtl/pica_chan_pkg.sv`'s struct, first field most
/// significant; the `cycle` field keeps its low 32 bits) into `words[0 .. n_words]`, word 0
/// least significant and unused bits zero: the `svBitVecVal` layout of a DPI
/// `output bit [N-1:0]`. `n_words` must cover the payload (`PICA_<PAYLOAD>_W` bits).
/// `PICA_EMPTY` when none is waiting.
///
/// # Safety
/// `gpu` is a live handle; `words` valid for `n_words` words.
#[no_mangle]
pub unsafe extern "C" fn pica_pop_beat_packed(
    gpu: *mut PicaGpu,
    ch: u32,
    words: *mut u32,
    n_words: u32,
) -> PicaStatus {
    guard("pica_pop_beat_packed", || {
        // SAFETY: see the function's contract.
        let g = unsafe { gpu_mut(gpu) }?;
        let c = channel(ch)?;
        let need = c.payload().width().div_ceil(32);
        if n_words < need {
            return err(
                PICA_ERR_SIZE,
                format!(
                    "{n_words} words cannot hold a {} beat ({} bits = {need} words)",
                    c.name(),
                    c.payload().width()
                ),
            );
        }
        // SAFETY: see the function's contract.
        let o = unsafe { slice_mut(words, n_words as usize, "words") }?;
        let i = g.cursors[ch as usize];
        match with_beat!(&g.gpu, c, i, |b| b.packed_words()) {
            None => Ok(PICA_EMPTY),
            Some(w) => {
                o.fill(0);
                o[..w.len()].copy_from_slice(&w);
                g.cursors[ch as usize] += 1;
                Ok(PICA_OK)
            }
        }
    })
}
