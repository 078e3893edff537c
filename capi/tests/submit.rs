//! Consecutive submissions and memory fills through the C ABI: once a list finished,
//! `pica_gpu_submit` runs the next on the state the first left; a running list refuses it;
//! `pica_gpu_memory_fill` fills between lists and names bad arguments.

// Test code: the C boundary is called directly.
#![allow(unsafe_code, clippy::unwrap_used)]

use pica_capi::*;
use std::ffi::CStr;

fn last_error() -> String {
    // SAFETY: pica_last_error returns a valid NUL-terminated string.
    unsafe { CStr::from_ptr(pica_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// FOG_COLOR = 0x00112233, FINALIZE.
const LIST1: [u32; 4] = [0x0011_2233, 0x000F_00E1, 0x1234_5678, 0x000F_0010];
/// FOG_COLOR byte 0 = 0xEE (mask 0x1), FINALIZE.
const LIST2: [u32; 4] = [0x0000_00EE, 0x0001_00E1, 0x1234_5678, 0x000F_0010];

#[test]
fn capi_submits_again_after_a_list_finished_and_fills_between() {
    let mut gpu = std::ptr::null_mut();
    // SAFETY: valid out-pointers; every call gets the live handle.
    unsafe {
        assert_eq!(pica_gpu_new(PICA_GPU_FRONT_END, &mut gpu), PICA_OK);
        assert_eq!(
            pica_gpu_submit_words(gpu, 0x2000_0000, LIST1.as_ptr(), LIST1.len()),
            PICA_OK
        );
        assert_eq!(pica_gpu_run(gpu, 1000), PICA_OK);
        let (mut kind, mut first) = (0u32, 0u64);
        assert_eq!(
            pica_gpu_outcome(gpu, &mut kind, &mut first, std::ptr::null_mut()),
            PICA_OK
        );
        assert_eq!(kind, PICA_OUTCOME_FINISHED);
        assert_eq!(
            pica_gpu_memory_fill(gpu, 0x1800_0000, 0x1800_0010, 0x5566, 16),
            PICA_OK,
            "{}",
            last_error()
        );
        let mut w = 0;
        assert_eq!(pica_mem_read_word(gpu, 0x1800_0008, &mut w), PICA_OK);
        assert_eq!(w, 0x5566_5566);
        assert_eq!(
            pica_gpu_submit_words(gpu, 0x2000_1000, LIST2.as_ptr(), LIST2.len()),
            PICA_OK,
            "{}",
            last_error()
        );
        // Running: the next submission and a fill are refused.
        assert_eq!(pica_gpu_step(gpu, 1), PICA_OK);
        assert_eq!(pica_gpu_submit(gpu, 0x2000_0000, 16), PICA_ERR_REFUSED);
        assert!(
            last_error().contains("has not finished"),
            "{}",
            last_error()
        );
        assert_eq!(
            pica_gpu_memory_fill(gpu, 0x1800_0000, 0x1800_0010, 0, 32),
            PICA_ERR_REFUSED
        );
        assert_eq!(pica_gpu_run(gpu, 1000), PICA_OK);
        let mut second = 0u64;
        assert_eq!(
            pica_gpu_outcome(gpu, &mut kind, &mut second, std::ptr::null_mut()),
            PICA_OK
        );
        assert_eq!((kind, second), (PICA_OUTCOME_FINISHED, 2 * first));
        let mut v = 0;
        assert_eq!(pica_gpu_read_reg(gpu, 0x0E1, &mut v), PICA_OK);
        assert_eq!(v, 0x0011_22EE, "the first list's value, merged");
        // Bad fills.
        for (start, end, width, want) in [
            (0x1800_0004, 0x1800_0010, 32, PICA_ERR_ARGUMENT),
            (0x1800_0010, 0x1800_0010, 32, PICA_ERR_ARGUMENT),
            (0x1800_0000, 0x1800_0010, 12, PICA_ERR_ARGUMENT),
            (0x1000_0000, 0x1000_0010, 32, PICA_ERR_UNMAPPED),
        ] {
            assert_eq!(
                pica_gpu_memory_fill(gpu, start, end, 0, width),
                want,
                "{start:x}..{end:x} width {width}"
            );
            assert!(
                last_error().contains("pica_gpu_memory_fill"),
                "{}",
                last_error()
            );
        }
        assert_eq!(
            pica_gpu_memory_fill(std::ptr::null_mut(), 0, 8, 0, 32),
            PICA_ERR_NULL
        );
        assert_eq!(pica_gpu_free(gpu), PICA_OK);
    }
}
