//! The owned handle of one Verilated model behind a generated stage shim, and the pieces every
//! shim handle shares (variant names, the coverage counters).
//!
//! Calling C is unsafe by definition; this module and the hand-written FFI modules (`ffi`,
//! `shader`) are where the crate does it. Each call passes a handle that [`Handle`] owns
//! exclusively (created by the shim's `new`, freed once in `Drop`) and pointers to live structs
//! laid out as the shim's (the `#[repr(C)]` mirrors of [`super::abi`], generated from the same
//! description as the shim).
#![allow(unsafe_code)]

use crate::error::RtlError;
use std::ffi::{c_char, c_int, CStr, CString};
use std::fmt;
use std::path::Path;
use std::ptr::NonNull;

/// The entry points of one generated stage shim (`{prefix}_*` of `csrc/{shim}.h`): `I` / `O`
/// its In / Out structs, `H` its opaque handle. The generated [`super::abi`] fills one per stage.
pub(crate) struct Fns<I: 'static, O: 'static, H: 'static> {
    pub(crate) variant_count: unsafe extern "C" fn() -> c_int,
    pub(crate) variant_name: unsafe extern "C" fn(c_int) -> *const c_char,
    pub(crate) new: unsafe extern "C" fn(c_int) -> *mut H,
    pub(crate) free: unsafe extern "C" fn(*mut H),
    pub(crate) eval: unsafe extern "C" fn(*mut H, *const I, *mut O),
    pub(crate) peek: unsafe extern "C" fn(*mut H, *mut O),
    pub(crate) clock: unsafe extern "C" fn(*mut H),
    pub(crate) cycles: unsafe extern "C" fn(*mut H) -> u64,
    pub(crate) trace_open: unsafe extern "C" fn(*mut H, *const c_char) -> c_int,
    pub(crate) trace_close: unsafe extern "C" fn(*mut H),
    pub(crate) set_mutant: unsafe extern "C" fn(*mut H, u32) -> c_int,
    pub(crate) cov_count: unsafe extern "C" fn(*mut H) -> u32,
    pub(crate) cov_read: unsafe extern "C" fn(*mut H, *mut u32),
    pub(crate) cov_load: unsafe extern "C" fn(*mut H, *const u32),
    pub(crate) cov_zero: unsafe extern "C" fn(*mut H),
    pub(crate) cov_write: unsafe extern "C" fn(*mut H, *const c_char) -> c_int,
}

/// A string the shim returns, `None` for NULL.
pub(crate) fn static_str(p: *const c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: the shims return pointers to NUL-terminated string literals with static lifetime.
    Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// Names of the compiled variants of one shim, index = variant number, from its
/// `*_variant_count` and `*_variant_name` entry points (every shim has the pair).
pub(crate) fn names_of(
    count: unsafe extern "C" fn() -> c_int,
    name: unsafe extern "C" fn(c_int) -> *const c_char,
) -> Vec<String> {
    // SAFETY: no arguments; the shim reads a constant.
    let n = unsafe { count() };
    // SAFETY: `i` is within the count the shim reported; it returns a static string or NULL.
    (0..n)
        .filter_map(|i| static_str(unsafe { name(i) }))
        .collect()
}

/// The code-coverage counters of one model behind a shim: the five coverage entry points every
/// shim has (`csrc/pica_cov.h`), implemented by [`Handle`] and by `ffi::shim_handle!`. A build
/// without coverage has no counters.
pub(crate) trait Counters {
    /// The counters (empty for a build without coverage).
    fn cov_read(&mut self) -> Vec<u32>;
    /// Sets the counters; false (nothing set) unless `src` has one count per counter.
    fn cov_load(&mut self, src: &[u32]) -> bool;
    /// Zeroes the counters (nothing for a build without coverage).
    fn cov_zero(&mut self);
    /// Writes the coverage file; false for a build without coverage or a path with a NUL. The
    /// path must be writable (the caller checks: Verilator exits when it is not).
    fn cov_write(&mut self, path: &str) -> bool;
}

/// A bridge model with coverage counters (the front end and each stage top), so that one
/// `RtlCoverage` reads and writes any build through a model of it.
pub(crate) trait CoverageModel {
    /// The model's counters.
    fn counters(&mut self) -> &mut dyn Counters;
}

/// The counters of a model, `None` for a build without coverage.
pub(crate) fn read(c: &mut dyn Counters) -> Option<Vec<u32>> {
    let v = c.cov_read();
    (!v.is_empty()).then_some(v)
}

/// Writes the coverage of the model behind `c` (of the build called `name`) to `path`, after
/// checking that the file can be created: Verilator's writer ends the process when it cannot.
pub(crate) fn write_model(
    c: &mut dyn Counters,
    name: &'static str,
    path: &Path,
) -> Result<(), RtlError> {
    let shown = path.display().to_string();
    // Before the file is created, so that a build without coverage leaves `path` alone.
    if c.cov_read().is_empty() {
        return Err(RtlError::NoCoverage(name));
    }
    std::fs::File::create(path)
        .map_err(|e| RtlError::CoverageWrite(shown.clone(), e.to_string()))?;
    let Some(p) = path.to_str() else {
        return Err(RtlError::CoverageWrite(
            shown,
            "the path is not UTF-8".to_string(),
        ));
    };
    if c.cov_write(p) {
        Ok(())
    } else {
        Err(RtlError::NoCoverage(name))
    }
}

/// The coverage methods of a bridge type whose shim handle is the field path `$($h).+` (it
/// implements [`Counters`]) and whose build is named by `self.variant.name()`: [`CoverageModel`]
/// and the public `coverage`, `coverage_zero` and `write_coverage`, alike for the front end and
/// every stage top.
macro_rules! coverage_methods {
    ($ty:ty, $build:literal, $($h:ident).+) => {
        impl crate::kit::handle::CoverageModel for $ty {
            fn counters(&mut self) -> &mut dyn crate::kit::handle::Counters {
                &mut self.$($h).+
            }
        }

        impl $ty {
            #[doc = concat!("The code-coverage counters of the coverage build (", $build, "): one")]
            /// count per point, in the model's point order (the same in every instance of the
            /// build; [`crate::RtlCoverage::add_counts`] totals them); `None` for a build
            /// without coverage.
            pub fn coverage(&mut self) -> Option<Vec<u32>> {
                crate::kit::handle::read(&mut self.$($h).+)
            }

            /// Zeroes the code-coverage counters (nothing for a build without coverage).
            pub fn coverage_zero(&mut self) {
                crate::kit::handle::Counters::cov_zero(&mut self.$($h).+);
            }

            /// Writes the code coverage counted so far to `path` in Verilator's
            /// `coverage.dat` format (`verilator_coverage` merges and annotates it; `pica cov
            /// rtl report` reads it); [`crate::RtlError::NoCoverage`] for a build without
            /// coverage.
            pub fn write_coverage(
                &mut self,
                path: &std::path::Path,
            ) -> Result<(), crate::RtlError> {
                let name = self.variant.name();
                crate::kit::handle::write_model(&mut self.$($h).+, name, path)
            }
        }
    };
}
pub(crate) use coverage_methods;

/// An owned instance of a generated shim's Verilated model.
pub(crate) struct Handle<I: 'static, O: 'static, H: 'static> {
    p: NonNull<H>,
    fns: &'static Fns<I, O, H>,
}

impl<I, O, H> fmt::Debug for Handle<I, O, H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Handle").field(&self.p).finish()
    }
}

impl<I: Copy, O: Copy + Default, H> Handle<I, O, H> {
    /// A new model of variant `variant` (index into [`names_of`]); `None` when the shim
    /// refuses (out of range, or the model could not be built).
    pub(crate) fn new(fns: &'static Fns<I, O, H>, variant: usize) -> Option<Self> {
        let v = c_int::try_from(variant).ok()?;
        // SAFETY: the shim range-checks `v` and returns NULL when it is out of range.
        NonNull::new(unsafe { (fns.new)(v) }).map(|p| Self { p, fns })
    }

    /// Names of the compiled variants of the shim, index = variant number.
    pub(crate) fn names(fns: &'static Fns<I, O, H>) -> Vec<String> {
        names_of(fns.variant_count, fns.variant_name)
    }

    /// Applies `inp`, settles, and reads the outputs.
    pub(crate) fn eval(&mut self, inp: &I) -> O {
        let mut out = O::default();
        // SAFETY: live, exclusively borrowed handle; both structs are live #[repr(C)] mirrors of
        // the shim's.
        unsafe { (self.fns.eval)(self.p.as_ptr(), inp, &mut out) };
        out
    }

    /// The outputs as they are (after a clock: what its edge produced).
    pub(crate) fn peek(&mut self) -> O {
        let mut out = O::default();
        // SAFETY: live, exclusively borrowed handle; `out` is a live #[repr(C)] mirror.
        unsafe { (self.fns.peek)(self.p.as_ptr(), &mut out) };
        out
    }

    /// One full clock period.
    pub(crate) fn clock(&mut self) {
        // SAFETY: live, exclusively borrowed handle.
        unsafe { (self.fns.clock)(self.p.as_ptr()) }
    }

    /// Clock cycles since reset, as the shim counts them.
    pub(crate) fn cycles(&self) -> u64 {
        // SAFETY: live handle; the shim only reads a counter.
        unsafe { (self.fns.cycles)(self.p.as_ptr()) }
    }

    /// Opens a VCD of every following clock edge; false if it cannot be opened.
    pub(crate) fn trace_open(&mut self, path: &str) -> bool {
        let Ok(c) = CString::new(path) else {
            return false;
        };
        // SAFETY: live, exclusively borrowed handle; `c` outlives the call.
        unsafe { (self.fns.trace_open)(self.p.as_ptr(), c.as_ptr()) == 0 }
    }

    /// Closes the VCD, if one is open.
    pub(crate) fn trace_close(&mut self) {
        // SAFETY: live, exclusively borrowed handle.
        unsafe { (self.fns.trace_close)(self.p.as_ptr()) }
    }

    /// Selects mutant `k` of a mutant model (and resets it); false if this variant is not one.
    pub(crate) fn set_mutant(&mut self, k: u16) -> bool {
        // SAFETY: live, exclusively borrowed handle.
        unsafe { (self.fns.set_mutant)(self.p.as_ptr(), u32::from(k)) == 0 }
    }
}

impl<I, O, H> Counters for Handle<I, O, H> {
    fn cov_read(&mut self) -> Vec<u32> {
        // SAFETY: live, exclusively borrowed handle.
        let n = unsafe { (self.fns.cov_count)(self.p.as_ptr()) } as usize;
        let mut v = vec![0u32; n];
        if n > 0 {
            // SAFETY: live handle; `v` holds exactly the `n` counters the shim writes.
            unsafe { (self.fns.cov_read)(self.p.as_ptr(), v.as_mut_ptr()) }
        }
        v
    }

    fn cov_load(&mut self, src: &[u32]) -> bool {
        // SAFETY: live, exclusively borrowed handle.
        let n = unsafe { (self.fns.cov_count)(self.p.as_ptr()) } as usize;
        if n == 0 || src.len() != n {
            return false;
        }
        // SAFETY: live handle; `src` holds exactly the `n` counters the shim reads.
        unsafe { (self.fns.cov_load)(self.p.as_ptr(), src.as_ptr()) }
        true
    }

    fn cov_zero(&mut self) {
        // SAFETY: live, exclusively borrowed handle.
        unsafe { (self.fns.cov_zero)(self.p.as_ptr()) }
    }

    fn cov_write(&mut self, path: &str) -> bool {
        let Ok(c) = CString::new(path) else {
            return false;
        };
        // SAFETY: live, exclusively borrowed handle; `c` outlives the call.
        unsafe { (self.fns.cov_write)(self.p.as_ptr(), c.as_ptr()) == 0 }
    }
}

impl<I, O, H> Drop for Handle<I, O, H> {
    fn drop(&mut self) {
        // SAFETY: created by the shim's `new` and freed exactly once, here.
        unsafe { (self.fns.free)(self.p.as_ptr()) }
    }
}
