//! `pica_gpu_set_knob`: a knob set through the C ABI changes what the model does, a bad name
//! or value is `PICA_ERR_ARGUMENT` with a message listing the valid ones, and knobs are
//! refused once the GPU has run.

// Test code: the C boundary is called directly.
#![allow(unsafe_code, clippy::unwrap_used)]

use pica_capi::*;
use std::ffi::{CStr, CString};

fn last_error() -> String {
    // SAFETY: pica_last_error returns a valid NUL-terminated string.
    unsafe { CStr::from_ptr(pica_last_error()) }
        .to_string_lossy()
        .into_owned()
}

fn set(gpu: *mut PicaGpu, name: &str, value: &str) -> PicaStatus {
    let (n, v) = (CString::new(name).unwrap(), CString::new(value).unwrap());
    // SAFETY: a live handle and NUL-terminated strings.
    unsafe { pica_gpu_set_knob(gpu, n.as_ptr(), v.as_ptr()) }
}

/// Runs the list of `knob_cp_end_value_nonzero_runs_past_a_zero_finalize`
/// (`model/tests/knobs.rs`: FINALIZE 0, SCISSORTEST_POS = 0xABCD, FINALIZE 1) with `knobs`
/// set first; SCISSORTEST_POS afterwards.
fn run(knobs: &[(&str, &str)]) -> u32 {
    let words = [
        0u32,
        0x000F_0010,
        0xABCD,
        0x000F_0066, // GPUREG_SCISSORTEST_POS
        1,
        0x000F_0010,
        0,
        0x000F_0000,
    ];
    let mut gpu = std::ptr::null_mut();
    // SAFETY: valid out-pointer; every call below gets the live handle.
    unsafe {
        assert_eq!(pica_gpu_new(0, &mut gpu), PICA_OK);
        for (n, v) in knobs {
            assert_eq!(set(gpu, n, v), PICA_OK, "{n}={v}: {}", last_error());
        }
        assert_eq!(
            pica_gpu_submit_words(gpu, 0x2000_0000, words.as_ptr(), words.len()),
            PICA_OK
        );
        assert_eq!(pica_gpu_run(gpu, 1000), PICA_OK);
        let mut v = 0;
        assert_eq!(pica_gpu_read_reg(gpu, 0x66, &mut v), PICA_OK);
        // Once run, knobs are refused.
        assert_eq!(set(gpu, "cp-end-value", "any"), PICA_ERR_REFUSED);
        assert!(
            last_error().contains("pica_gpu_set_knob"),
            "{}",
            last_error()
        );
        assert_eq!(pica_gpu_free(gpu), PICA_OK);
        v
    }
}

#[test]
fn set_knob_changes_the_result() {
    assert_eq!(run(&[]), 0);
    assert_eq!(run(&[("cp-end-value", "nonzero")]), 0xABCD);
    // A later setting wins, as with --knob.
    assert_eq!(
        run(&[("cp-end-value", "nonzero"), ("cp-end-value", "any")]),
        0
    );
    // A shader-unit knob is accepted too.
    assert_eq!(run(&[("min-subnormal", "flush")]), 0);
}

#[test]
fn set_knob_refuses_bad_names_values_and_pointers() {
    let mut gpu = std::ptr::null_mut();
    // SAFETY: valid out-pointer; the handle is live until freed.
    unsafe {
        assert_eq!(pica_gpu_new(0, &mut gpu), PICA_OK);
        assert_eq!(set(gpu, "no-such-knob", "x"), PICA_ERR_ARGUMENT);
        assert!(last_error().contains("cp-end-value"), "{}", last_error());
        assert_eq!(set(gpu, "cp-end-value", "sometimes"), PICA_ERR_ARGUMENT);
        assert!(last_error().contains("any|nonzero"), "{}", last_error());
        let n = CString::new("cp-end-value").unwrap();
        assert_eq!(
            pica_gpu_set_knob(gpu, n.as_ptr(), std::ptr::null()),
            PICA_ERR_NULL
        );
        assert_eq!(
            pica_gpu_set_knob(std::ptr::null_mut(), n.as_ptr(), n.as_ptr()),
            PICA_ERR_NULL
        );
        assert_eq!(pica_gpu_free(gpu), PICA_OK);
    }
}
