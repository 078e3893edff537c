//! The raw C ABI of `csrc/pica_shim.h`. Only [`crate::Rtl`] calls these.
//!
//! This is the one place in the workspace that uses `unsafe`: calling C functions is unsafe by
//! definition. Each call passes a handle that [`crate::Rtl`] owns exclusively (created by
//! `pica_rtl_new`, freed once in `Drop`) and pointers to live, properly laid-out structs.
#![allow(unsafe_code)]

use crate::kit::abi::sh::{PicaShsIn, PicaShsOut};
pub(crate) use crate::kit::handle::names_of;
use crate::kit::handle::static_str;
use std::ffi::{c_char, c_int};
use std::ptr::NonNull;

/// Inputs of `pica_top` (mirror of `PicaIn` in pica_shim.h: same order, same types).
/// `Default` is reset asserted with every other input 0 except the SH port's `out_ready` and
/// `commit_ready` (1: nothing downstream holds the SH stage).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PicaIn {
    /// `rst_ni`.
    pub rst_n: u32,
    /// `cmd_valid_i`.
    pub cmd_valid: u32,
    /// `cmd_data_i`.
    pub cmd_data: u32,
    /// `cmd_end_i`.
    pub cmd_end: u32,
    /// `mem_rdata_i`.
    pub mem_rdata: u32,
    /// `mem_err_i`.
    pub mem_err: u32,
    /// `dbg_req_i`.
    pub dbg_req: u32,
    /// `dbg_addr_i`.
    pub dbg_addr: u32,
    /// `hold_i`: the pipeline after REGS is busy (REGS applies nothing).
    pub hold: u32,
    /// `cmd_kick_i`: the next submission starts on the command stream this cycle.
    pub kick: u32,
    /// The `sh_*` ports (`cfg_*` are ignored: REGS configures the SH stage).
    pub sh: PicaShsIn,
}

impl Default for PicaIn {
    fn default() -> Self {
        Self {
            rst_n: 0,
            cmd_valid: 0,
            cmd_data: 0,
            cmd_end: 0,
            mem_rdata: 0,
            mem_err: 0,
            dbg_req: 0,
            dbg_addr: 0,
            hold: 0,
            kick: 0,
            sh: PicaShsIn {
                out_ready: 1,
                commit_ready: 1,
                ..PicaShsIn::default()
            },
        }
    }
}

/// Outputs of `pica_top` (mirror of `PicaOut` in pica_shim.h).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PicaOut {
    /// `cmd_ready_o`.
    pub cmd_ready: u32,
    /// `mem_req_o`.
    pub mem_req: u32,
    /// `mem_addr_o`.
    pub mem_addr: u32,
    /// `trace_rw_valid_o`.
    pub trace_rw_valid: u32,
    /// `trace_rw_id_o`.
    pub trace_rw_id: u32,
    /// `trace_rw_mask_o`.
    pub trace_rw_mask: u32,
    /// `trace_rw_param_o`.
    pub trace_rw_param: u32,
    /// `trace_rw_value_o`.
    pub trace_rw_value: u32,
    /// `finished_o`.
    pub finished: u32,
    /// `hang_o`.
    pub hang: u32,
    /// `hang_reason_o`.
    pub hang_reason: u32,
    /// `idle_o`.
    pub idle: u32,
    /// `dbg_rdata_o`.
    pub dbg_rdata: u32,
    /// The `sh_*` ports (`cfg_ready` is always 1).
    pub sh: PicaShsOut,
}

/// REGS' storage as `pica_regs.sv` holds it (mirror of `PicaState` in pica_shim.h: same
/// order, same sizes; all `u32`, so no padding). Filled by `pica_rtl_state_read`; decoded into
/// the debug map by [`crate::state::RegsState`].
#[repr(C)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PicaState {
    pub reg_mem: [u32; 768],
    pub shadow: [u32; 17],
    pub fu_pend: [[u32; 3]; 2],
    pub fu_cnt: [u32; 2],
    pub fx_pend: [u32; 2],
    pub fx_cnt: u32,
    pub bool_u: [u32; 4],
    pub int_u: [[u32; 4]; 4],
    pub outmap: [u32; 4],
    pub entry: [u32; 4],
    pub incfg: [u32; 4],
    pub perm: [[u32; 2]; 4],
    pub proctex: [u32; 1280],
    pub fog: [u32; 128],
    pub gas: [u32; 16],
    pub lighting: [u32; 6144],
    pub fixed: [[u32; 3]; 12],
    pub code: [[u32; 4096]; 4],
    pub opdesc: [[u32; 128]; 4],
    pub float_u: [[[u32; 3]; 96]; 4],
}

impl PicaState {
    /// All zero, on the heap (the struct is about 106 KiB).
    pub(crate) fn boxed() -> Box<Self> {
        Box::new(Self {
            reg_mem: [0; 768],
            shadow: [0; 17],
            fu_pend: [[0; 3]; 2],
            fu_cnt: [0; 2],
            fx_pend: [0; 2],
            fx_cnt: 0,
            bool_u: [0; 4],
            int_u: [[0; 4]; 4],
            outmap: [0; 4],
            entry: [0; 4],
            incfg: [0; 4],
            perm: [[0; 2]; 4],
            proctex: [0; 1280],
            fog: [0; 128],
            gas: [0; 16],
            lighting: [0; 6144],
            fixed: [[0; 3]; 12],
            code: [[0; 4096]; 4],
            opdesc: [[0; 128]; 4],
            float_u: [[[0; 3]; 96]; 4],
        })
    }
}

#[repr(C)]
pub(crate) struct PicaRtl {
    _opaque: [u8; 0],
}

extern "C" {
    fn pica_rtl_variant_count() -> c_int;
    fn pica_rtl_variant_name(variant: c_int) -> *const c_char;
    fn pica_rtl_default_defines() -> *const c_char;
    fn pica_rtl_new(variant: c_int) -> *mut PicaRtl;
    fn pica_rtl_free(h: *mut PicaRtl);
    fn pica_rtl_eval(h: *mut PicaRtl, inp: *const PicaIn, out: *mut PicaOut);
    fn pica_rtl_clock(h: *mut PicaRtl);
    fn pica_rtl_trace_open(h: *mut PicaRtl, path: *const c_char) -> c_int;
    fn pica_rtl_trace_close(h: *mut PicaRtl);
    fn pica_rtl_state_read(h: *mut PicaRtl, out: *mut PicaState);
    fn pica_rtl_set_mutant(h: *mut PicaRtl, mutant: u32) -> c_int;
    fn pica_rtl_cov_count(h: *mut PicaRtl) -> u32;
    fn pica_rtl_cov_read(h: *mut PicaRtl, dst: *mut u32);
    fn pica_rtl_cov_load(h: *mut PicaRtl, src: *const u32);
    fn pica_rtl_cov_zero(h: *mut PicaRtl);
    fn pica_rtl_cov_write(h: *mut PicaRtl, path: *const c_char) -> c_int;
}

/// The owned handle of one Verilated model behind a shim, the part every shim has alike:
/// `new(variant)` (NULL from the shim's range check becomes `None`), the raw pointer `p`,
/// VCD tracing (`trace_open`, `trace_close`) and the shim's `free` in `Drop`. A shim module's
/// own calls (`eval`, `clock`, loads, ...) go in a second `impl` block next to it. Expands
/// inside the shim's FFI module, which allows `unsafe_code` for exactly these calls.
///
/// A shim whose variants include a mutant model (build.rs `MUTANT_MODELS`) also names its
/// `set_mutant` entry point, which becomes `set_mutant(k) -> bool` (false: not a mutant model).
/// A shim whose variants include a coverage build (build.rs `COVERAGE_MODELS`) names its five
/// coverage entry points (`coverage: [count, read, load, zero, write]`, `csrc/pica_cov.h`),
/// which implement [`crate::kit::handle::Counters`] for the handle.
macro_rules! shim_handle {
    ($vis:vis $handle:ident($opaque:ty) { new: $new:ident, free: $free:ident,
      trace_open: $topen:ident, trace_close: $tclose:ident
      $(, set_mutant: $smut:ident)?
      $(, coverage: [$ccount:ident, $cread:ident, $cload:ident, $czero:ident, $cwrite:ident])? }) => {
        /// An owned instance of the shim's Verilated model.
        #[derive(Debug)]
        $vis struct $handle(std::ptr::NonNull<$opaque>);

        impl $handle {
            $vis fn new(variant: usize) -> Option<Self> {
                let v = std::ffi::c_int::try_from(variant).ok()?;
                // SAFETY: the shim range-checks `v` and returns NULL when it is out of range.
                std::ptr::NonNull::new(unsafe { $new(v) }).map($handle)
            }

            /// The model's pointer, for the shim calls (the handle is live and exclusively
            /// borrowed while it is used).
            #[allow(dead_code)]
            fn p(&mut self) -> *mut $opaque {
                self.0.as_ptr()
            }

            $vis fn trace_open(&mut self, path: &str) -> bool {
                let Ok(c) = std::ffi::CString::new(path) else {
                    return false;
                };
                // SAFETY: live, exclusively borrowed handle; `c` outlives the call.
                unsafe { $topen(self.0.as_ptr(), c.as_ptr()) == 0 }
            }

            $vis fn trace_close(&mut self) {
                // SAFETY: live, exclusively borrowed handle.
                unsafe { $tclose(self.0.as_ptr()) }
            }

            $(
            /// Selects mutant `k` of a mutant model (and resets it); false if this variant is
            /// not one.
            $vis fn set_mutant(&mut self, k: u16) -> bool {
                // SAFETY: live, exclusively borrowed handle.
                unsafe { $smut(self.0.as_ptr(), u32::from(k)) == 0 }
            }
            )?
        }

        $(
        impl crate::kit::handle::Counters for $handle {
            fn cov_read(&mut self) -> Vec<u32> {
                // SAFETY: live, exclusively borrowed handle.
                let n = unsafe { $ccount(self.0.as_ptr()) } as usize;
                let mut v = vec![0u32; n];
                if n > 0 {
                    // SAFETY: live handle; `v` holds exactly the `n` counters the shim writes.
                    unsafe { $cread(self.0.as_ptr(), v.as_mut_ptr()) }
                }
                v
            }

            fn cov_load(&mut self, src: &[u32]) -> bool {
                // SAFETY: live, exclusively borrowed handle.
                let n = unsafe { $ccount(self.0.as_ptr()) } as usize;
                if n == 0 || src.len() != n {
                    return false;
                }
                // SAFETY: live handle; `src` holds exactly the `n` counters the shim reads.
                unsafe { $cload(self.0.as_ptr(), src.as_ptr()) }
                true
            }

            fn cov_zero(&mut self) {
                // SAFETY: live, exclusively borrowed handle.
                unsafe { $czero(self.0.as_ptr()) }
            }

            fn cov_write(&mut self, path: &str) -> bool {
                let Ok(c) = std::ffi::CString::new(path) else {
                    return false;
                };
                // SAFETY: live, exclusively borrowed handle; `c` outlives the call.
                unsafe { $cwrite(self.0.as_ptr(), c.as_ptr()) == 0 }
            }
        }
        )?

        impl Drop for $handle {
            fn drop(&mut self) {
                // SAFETY: created by the shim's `new` and freed exactly once, here.
                unsafe { $free(self.0.as_ptr()) }
            }
        }
    };
}
pub(crate) use shim_handle;

/// Names of the compiled variants of `pica_top`, index = variant number.
pub(crate) fn variant_names() -> Vec<String> {
    names_of(pica_rtl_variant_count, pica_rtl_variant_name)
}

/// The defines the default variant was built with.
pub(crate) fn default_defines() -> String {
    // SAFETY: no arguments; returns a static string.
    static_str(unsafe { pica_rtl_default_defines() }).unwrap_or_default()
}

shim_handle!(pub(crate) Handle(PicaRtl) {
    new: pica_rtl_new, free: pica_rtl_free,
    trace_open: pica_rtl_trace_open, trace_close: pica_rtl_trace_close,
    coverage: [pica_rtl_cov_count, pica_rtl_cov_read, pica_rtl_cov_load, pica_rtl_cov_zero,
               pica_rtl_cov_write]
});

impl Handle {
    pub(crate) fn eval(&mut self, inp: &PicaIn) -> PicaOut {
        let mut out = PicaOut::default();
        // SAFETY: the handle is live and exclusively borrowed; both pointers are to live structs
        // with the C layout.
        unsafe { pica_rtl_eval(self.p(), inp, &mut out) };
        out
    }

    pub(crate) fn clock(&mut self) {
        // SAFETY: the handle is live and exclusively borrowed.
        unsafe { pica_rtl_clock(self.p()) }
    }

    pub(crate) fn state_read(&mut self, out: &mut PicaState) {
        // SAFETY: the handle is live and exclusively borrowed; `out` is a live struct with the
        // C layout of PicaState, which the shim fills and does not keep.
        unsafe { pica_rtl_state_read(self.p(), out) }
    }

    /// Drives `mutsel` of a mutant model; false if this variant is not one.
    pub(crate) fn set_mutant(&mut self, mutant: u32) -> bool {
        // SAFETY: the handle is live and exclusively borrowed.
        unsafe { pica_rtl_set_mutant(self.p(), mutant) == 0 }
    }
}

// The ALU model (csrc/pica_alu_shim.h).

#[repr(C)]
pub(crate) struct PicaAlu {
    _opaque: [u8; 0],
}

extern "C" {
    fn pica_alu_new() -> *mut PicaAlu;
    fn pica_alu_free(h: *mut PicaAlu);
    fn pica_alu_eval_batch(
        h: *mut PicaAlu,
        op: u32,
        knob: u32,
        n: u64,
        a: *const u32,
        b: *const u32,
        c: *const u32,
        out: *mut u32,
    );
}

/// An owned instance of the Verilated `pica_alu_top`.
#[derive(Debug)]
pub(crate) struct AluHandle(NonNull<PicaAlu>);

impl AluHandle {
    pub(crate) fn new() -> Option<Self> {
        // SAFETY: no arguments; the shim returns NULL on failure.
        NonNull::new(unsafe { pica_alu_new() }).map(AluHandle)
    }

    /// Evaluates `out.len()` operand sets; `a`, `b`, `c` must be at least as long as `out`.
    pub(crate) fn eval_batch(
        &mut self,
        op: u32,
        knob: u32,
        a: &[[u32; 4]],
        b: &[[u32; 4]],
        c: &[[u32; 4]],
        out: &mut [[u32; 4]],
    ) {
        let n = out.len();
        assert!(
            a.len() >= n && b.len() >= n && c.len() >= n,
            "operand slices too short"
        );
        // SAFETY: the handle is live and exclusively borrowed; `[u32; 4]` slices are contiguous
        // u32 arrays of 4 * len words, and the shim reads 4 * n words of a, b, c and writes
        // 4 * n words of out, all within the slices (checked above).
        unsafe {
            pica_alu_eval_batch(
                self.0.as_ptr(),
                op,
                knob,
                n as u64,
                a.as_ptr().cast(),
                b.as_ptr().cast(),
                c.as_ptr().cast(),
                out.as_mut_ptr().cast(),
            )
        }
    }
}

impl Drop for AluHandle {
    fn drop(&mut self) {
        // SAFETY: created by pica_alu_new and freed exactly once, here.
        unsafe { pica_alu_free(self.0.as_ptr()) }
    }
}
