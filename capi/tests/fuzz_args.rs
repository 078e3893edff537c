//! No panic crosses the C boundary, and no bad argument makes the model panic inside it:
//! random sequences of calls with NULL pointers, handles that are not GPUs, unknown
//! channels, unmapped and unaligned addresses, wrong buffer sizes, out-of-range register IDs
//! and masks, bad file names and files of random bytes, interleaved with real work (random
//! command words submitted and run), must each return a status from the documented set and
//! never `PICA_ERR_PANIC`. An error status always leaves a message naming the function.

#![allow(unsafe_code)] // calls the C ABI's unsafe entry points, as a C caller would

use pica_capi::*;
use proptest::prelude::*;
use std::ffi::{c_char, CStr, CString};
use std::ptr::{null, null_mut};

#[derive(Clone, Copy, Debug)]
enum Handle {
    Null,
    Live,
    /// A readable buffer of zeros: not a GPU (the magic word check must refuse it).
    Fake,
}

#[derive(Clone, Debug)]
enum Call {
    New(u32),
    MemWrite(Handle, u32, usize, bool),
    MemWriteWords(Handle, u32, Vec<u32>),
    MemRead(Handle, u32, usize, bool),
    MemReadWord(Handle, u32, bool),
    Load(Handle, Vec<u8>, u8, u32),
    LoadPath(Handle, String),
    Submit(Handle, u32, u32),
    SubmitWords(Handle, u32, Vec<u32>),
    WriteReg(Handle, u32, u32, u32),
    WriteRegs(Handle, Vec<(u32, u32, u32)>, bool),
    Step(Handle, u64),
    Run(Handle, u64),
    Outcome(Handle, bool),
    Message(Handle),
    ReadReg(Handle, u32, bool),
    DebugRead(Handle, u32),
    Count(Handle, u32, bool),
    Pop(Handle, u32, usize),
    PopPacked(Handle, u32, u32),
    RegByName(Option<String>),
    ChannelByName(Option<String>),
    Statics(u32, i32),
}

fn handle() -> impl Strategy<Value = Handle> {
    prop_oneof![1 => Just(Handle::Null), 6 => Just(Handle::Live), 1 => Just(Handle::Fake)]
}

fn addr() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>(),
        0x1800_0000u32..0x1860_0010,
        0x2000_0000u32..0x2000_1000,
        0x27FF_FF00u32..=0x2800_0010,
    ]
}

fn call() -> impl Strategy<Value = Call> {
    prop_oneof![
        any::<u32>().prop_map(Call::New),
        (handle(), addr(), 0usize..64, any::<bool>())
            .prop_map(|(h, a, n, p)| Call::MemWrite(h, a, n, p)),
        (
            handle(),
            addr(),
            proptest::collection::vec(any::<u32>(), 0..32)
        )
            .prop_map(|(h, a, w)| Call::MemWriteWords(h, a, w)),
        (handle(), addr(), 0usize..64, any::<bool>())
            .prop_map(|(h, a, n, p)| Call::MemRead(h, a, n, p)),
        (handle(), addr(), any::<bool>()).prop_map(|(h, a, p)| Call::MemReadWord(h, a, p)),
        (
            handle(),
            proptest::collection::vec(any::<u8>(), 0..64),
            0u8..4,
            addr()
        )
            .prop_map(|(h, b, e, a)| Call::Load(h, b, e, a)),
        (handle(), "[a-z/.]{0,12}").prop_map(|(h, p)| Call::LoadPath(h, p)),
        (handle(), addr(), any::<u32>()).prop_map(|(h, a, s)| Call::Submit(h, a, s)),
        (
            handle(),
            addr(),
            proptest::collection::vec(any::<u32>(), 0..24)
        )
            .prop_map(|(h, a, w)| Call::SubmitWords(h, a, w)),
        (
            handle(),
            prop_oneof![0u32..0x300, any::<u32>()],
            any::<u32>(),
            prop_oneof![0u32..16, any::<u32>()]
        )
            .prop_map(|(h, i, v, m)| Call::WriteReg(h, i, v, m)),
        (
            handle(),
            proptest::collection::vec((0u32..0x320, any::<u32>(), 0u32..20), 0..8),
            any::<bool>()
        )
            .prop_map(|(h, w, d)| Call::WriteRegs(h, w, d)),
        (handle(), 0u64..200).prop_map(|(h, n)| Call::Step(h, n)),
        (handle(), 0u64..5000).prop_map(|(h, n)| Call::Run(h, n)),
        (handle(), any::<bool>()).prop_map(|(h, p)| Call::Outcome(h, p)),
        handle().prop_map(Call::Message),
        (
            handle(),
            prop_oneof![0u32..0x300, any::<u32>()],
            any::<bool>()
        )
            .prop_map(|(h, i, p)| Call::ReadReg(h, i, p)),
        (handle(), prop_oneof![0u32..0x8000, any::<u32>()])
            .prop_map(|(h, a)| Call::DebugRead(h, a)),
        (handle(), 0u32..12, any::<bool>()).prop_map(|(h, c, p)| Call::Count(h, c, p)),
        (handle(), prop_oneof![0u32..12, any::<u32>()], 0usize..400)
            .prop_map(|(h, c, n)| Call::Pop(h, c, n)),
        (handle(), prop_oneof![0u32..12, any::<u32>()], 0u32..80)
            .prop_map(|(h, c, n)| Call::PopPacked(h, c, n)),
        proptest::option::of("[A-Za-z_0-9]{0,20}").prop_map(Call::RegByName),
        proptest::option::of("[a-z_]{0,12}").prop_map(Call::ChannelByName),
        (any::<u32>(), any::<i32>()).prop_map(|(a, b)| Call::Statics(a, b)),
    ]
}

const DOCUMENTED: [PicaStatus; 12] = [
    PICA_OK,
    PICA_EMPTY,
    PICA_ERR_NULL,
    PICA_ERR_HANDLE,
    PICA_ERR_CHANNEL,
    PICA_ERR_UNMAPPED,
    PICA_ERR_ARGUMENT,
    PICA_ERR_REFUSED,
    PICA_ERR_FILE,
    PICA_ERR_SIZE,
    PICA_ERR_HUNG,
    PICA_ERR_PANIC,
];

struct World {
    live: *mut PicaGpu,
    fake: Vec<u64>,
    buf: Vec<u8>,
    dir: std::path::PathBuf,
}

impl World {
    fn h(&mut self, h: Handle) -> *mut PicaGpu {
        match h {
            Handle::Null => null_mut(),
            Handle::Live => self.live,
            Handle::Fake => self.fake.as_mut_ptr().cast(),
        }
    }
}

fn last_error() -> String {
    // SAFETY: pica_last_error never returns NULL and the string is NUL-terminated.
    unsafe { CStr::from_ptr(pica_last_error()) }
        .to_string_lossy()
        .into_owned()
}

fn cstr(s: &Option<String>) -> (Option<CString>, *const c_char) {
    match s {
        None => (None, null()),
        Some(t) => {
            let c = CString::new(t.as_str()).unwrap_or_default();
            let p = c.as_ptr();
            (Some(c), p)
        }
    }
}

/// Runs one call; returns its status (statics that return no status give `PICA_OK`).
fn apply(w: &mut World, c: &Call) -> PicaStatus {
    let mut word = 0u32;
    let mut wide = 0u64;
    let mut size = 0usize;
    // SAFETY (all calls below): every non-NULL pointer passed points to live memory of at
    // least the size given (`w.buf` is 4096 bytes, `w.fake` 4096 zero bytes); NULL and
    // fake handles are exactly the bad arguments the ABI must refuse.
    unsafe {
        match c {
            Call::New(flags) => {
                let mut g = null_mut();
                let s = pica_gpu_new(*flags, &mut g);
                if s == PICA_OK {
                    assert!(!g.is_null());
                    assert_eq!(pica_gpu_free(g), PICA_OK);
                }
                s
            }
            Call::MemWrite(h, a, n, p) => {
                let d = if *p { w.buf.as_ptr() } else { null() };
                pica_mem_write(w.h(*h), *a, d, *n)
            }
            Call::MemWriteWords(h, a, ws) => {
                pica_mem_write_words(w.h(*h), *a, ws.as_ptr(), ws.len())
            }
            Call::MemRead(h, a, n, p) => {
                let d = if *p { w.buf.as_mut_ptr() } else { null_mut() };
                pica_mem_read(w.h(*h), *a, d, *n)
            }
            Call::MemReadWord(h, a, p) => {
                let o = if *p {
                    &mut word as *mut u32
                } else {
                    null_mut()
                };
                pica_mem_read_word(w.h(*h), *a, o)
            }
            Call::Load(h, bytes, ext, a) => {
                let name = w
                    .dir
                    .join(format!("f.{}", ["hex", "bin", "txt", "dat"][*ext as usize]));
                std::fs::write(&name, bytes).expect("write temp file");
                let p = CString::new(name.to_string_lossy().as_bytes()).unwrap_or_default();
                pica_load_file(w.h(*h), p.as_ptr(), *a, &mut word)
            }
            Call::LoadPath(h, path) => {
                let p = CString::new(path.as_str()).unwrap_or_default();
                pica_load_file(w.h(*h), p.as_ptr(), 0x2000_0000, null_mut())
            }
            Call::Submit(h, a, s) => pica_gpu_submit(w.h(*h), *a, *s),
            Call::SubmitWords(h, a, ws) => {
                pica_gpu_submit_words(w.h(*h), *a, ws.as_ptr(), ws.len())
            }
            Call::WriteReg(h, i, v, m) => pica_gpu_write_reg(w.h(*h), *i, *v, *m),
            Call::WriteRegs(h, ws, d) => {
                let v: Vec<PicaRegWrite> = ws
                    .iter()
                    .map(|&(id, value, mask)| PicaRegWrite { id, value, mask })
                    .collect();
                let dp = if *d {
                    &mut size as *mut usize
                } else {
                    null_mut()
                };
                pica_gpu_write_regs(w.h(*h), v.as_ptr(), v.len(), dp)
            }
            Call::Step(h, n) => pica_gpu_step(w.h(*h), *n),
            Call::Run(h, n) => {
                let g = w.h(*h);
                let mut cyc = 0u64;
                let _ = pica_gpu_cycle(g, &mut cyc);
                pica_gpu_run(g, cyc + n)
            }
            Call::Outcome(h, p) => {
                let (k, cy, hc) = if *p {
                    (&mut word as *mut u32, &mut wide as *mut u64, null_mut())
                } else {
                    (null_mut(), null_mut(), null_mut())
                };
                pica_gpu_outcome(w.h(*h), k, cy, hc)
            }
            Call::Message(h) => {
                let m = pica_gpu_outcome_message(w.h(*h));
                assert!(!m.is_null());
                PICA_OK
            }
            Call::ReadReg(h, i, p) => {
                let o = if *p {
                    &mut word as *mut u32
                } else {
                    null_mut()
                };
                pica_gpu_read_reg(w.h(*h), *i, o)
            }
            Call::DebugRead(h, a) => pica_gpu_debug_read(w.h(*h), *a, &mut word),
            Call::Count(h, ch, p) => {
                let o = if *p {
                    &mut wide as *mut u64
                } else {
                    null_mut()
                };
                pica_beat_count(w.h(*h), *ch, o)
            }
            Call::Pop(h, ch, n) => pica_pop_beat(w.h(*h), *ch, w.buf.as_mut_ptr().cast(), *n),
            Call::PopPacked(h, ch, n) => {
                pica_pop_beat_packed(w.h(*h), *ch, w.buf.as_mut_ptr().cast(), *n)
            }
            Call::RegByName(n) => {
                let (_keep, p) = cstr(n);
                pica_reg_by_name(p, &mut word)
            }
            Call::ChannelByName(n) => {
                let (_keep, p) = cstr(n);
                pica_channel_by_name(p, &mut word)
            }
            Call::Statics(a, s) => {
                assert!(!pica_reg_name(*a).is_null());
                assert!(!pica_status_name(*s).is_null());
                assert!(!pica_debug_describe(*a).is_null());
                let _ = pica_channel_name(*a);
                let mut base = 0u32;
                let mut name = null();
                let r = pica_mem_region(*a % 4, &mut base, &mut word, &mut name);
                if r != PICA_OK {
                    return r;
                }
                pica_debug_address(*a % 40_000, &mut word)
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn bad_arguments_get_a_status_and_a_message(calls in proptest::collection::vec(call(), 1..40)) {
        let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuzz_args");
        std::fs::create_dir_all(&dir).expect("tmp dir");
        let mut live = null_mut();
        // SAFETY: a valid out-pointer.
        prop_assert_eq!(unsafe { pica_gpu_new(0, &mut live) }, PICA_OK);
        let mut w = World { live, fake: vec![0; 512], buf: vec![0; 4096], dir };
        for c in &calls {
            let s = apply(&mut w, c);
            prop_assert!(DOCUMENTED.contains(&s), "{:?} returned undocumented status {}", c, s);
            prop_assert_ne!(s, PICA_ERR_PANIC, "{:?} panicked inside: {}", c, last_error());
            if s < 0 {
                let m = last_error();
                prop_assert!(m.starts_with("pica_"), "{:?}: message {:?} does not name the function", c, m);
            }
        }
        // SAFETY: the live handle, freed once.
        prop_assert_eq!(unsafe { pica_gpu_free(w.live) }, PICA_OK);
    }
}

/// A readable buffer that is not a GPU, and NULL out-pointers, get their own codes and
/// exact messages.
#[test]
fn fake_handles_and_nulls_are_refused() {
    let mut fake = vec![0u64; 512];
    let mut word = 0u32;
    // SAFETY: `fake` is readable memory; it is not a GPU, which is what is checked.
    let s = unsafe { pica_gpu_read_reg(fake.as_mut_ptr().cast(), 0, &mut word) };
    assert_eq!(s, PICA_ERR_HANDLE);
    assert!(last_error().contains("not a live GPU"), "{}", last_error());
    // SAFETY: NULL is the bad argument.
    assert_eq!(unsafe { pica_gpu_new(0, null_mut()) }, PICA_ERR_NULL);
    assert_eq!(last_error(), "pica_gpu_new: out is NULL");
}
