//! Argument conversion with errors that name the argument: negative numbers, numbers too wide
//! for their field and unknown register names all raise `ValueError` / `KeyError` / `TypeError`
//! with a message saying which argument and why (never a bare `OverflowError`).

use pica_model::regs;
use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyInt, PyString};

/// An integer argument in `0..=max`; `what` names it in errors (`"addr"`, `"words[3]"`).
pub fn uint(obj: &Bound<'_, PyAny>, what: &str, max: u64) -> PyResult<u64> {
    // Fast path: an int that fits.
    if let Ok(v) = obj.extract::<u64>() {
        if v <= max {
            return Ok(v);
        }
        return Err(PyValueError::new_err(format!(
            "{what} = {v:#x} is too large (at most {max:#x})"
        )));
    }
    if !obj.is_instance_of::<PyInt>() {
        // Accept objects with __index__ (numpy integers, ...), refuse everything else.
        return match obj.call_method0("__index__") {
            Ok(i) if i.is_instance_of::<PyInt>() => uint(&i, what, max),
            _ => Err(PyTypeError::new_err(format!(
                "{what} must be an int, not {}",
                type_name(obj)
            ))),
        };
    }
    match obj.extract::<i128>() {
        Ok(v) if v < 0 => Err(PyValueError::new_err(format!(
            "{what} = {v} is negative (expected 0..={max:#x})"
        ))),
        _ => Err(PyValueError::new_err(format!(
            "{what} = {obj} is too large (at most {max:#x})"
        ))),
    }
}

/// A 32-bit unsigned argument.
pub fn u32_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u32> {
    // Fast path first: most values are plain ints that fit.
    if let Ok(v) = obj.extract::<u32>() {
        return Ok(v);
    }
    uint(obj, what, u32::MAX.into()).map(|v| v as u32)
}

/// The type name of `obj`, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A register given as an ID (0..=`max`) or a name (`"GPUREG_FINALIZE"`, `"FINALIZE"`, an
/// official name, `"0x010"`; case-insensitive).
pub fn reg(obj: &Bound<'_, PyAny>, what: &str, max: u32) -> PyResult<u32> {
    if let Ok(s) = obj.cast::<PyString>() {
        let text = s.to_cow()?;
        return regs::by_name(&text).map(u32::from).ok_or_else(|| {
            PyKeyError::new_err(format!(
                "{what}: unknown register name '{text}' (give a 3dbrew name such as \
                 GPUREG_FINALIZE, an official name such as PICA_REG_INTERRUPT, or a hex ID \
                 such as 0x010)"
            ))
        });
    }
    if obj.is_instance_of::<PyInt>() || obj.hasattr("__index__")? {
        return uint(obj, what, max.into()).map(|v| v as u32);
    }
    Err(PyTypeError::new_err(format!(
        "{what} must be a register ID (int) or name (str), not {}",
        type_name(obj)
    )))
}

/// A list of 32-bit words from any iterable of ints; errors name the element (`words[3]`).
pub fn words(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u32>> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an iterable of ints (32-bit words), not {}",
            type_name(obj)
        )));
    }
    // Fast path: a sequence of ints that all fit.
    if let Ok(v) = obj.extract::<Vec<u32>>() {
        return Ok(v);
    }
    let iter = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} must be an iterable of ints (32-bit words), not {}",
            type_name(obj)
        ))
    })?;
    let mut out = Vec::new();
    for (i, item) in iter.enumerate() {
        out.push(u32_arg(&item?, &format!("{what}[{i}]"))?);
    }
    Ok(out)
}

/// Bytes from `bytes`, `bytearray`, `memoryview` or any iterable of ints 0-255.
pub fn bytes(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(b.to_vec());
    }
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be bytes-like, not str (encode it first)"
        )));
    }
    if obj.is_instance_of::<PyInt>() {
        // bytes(n) would make n zero bytes: refuse instead.
        return Err(PyTypeError::new_err(format!(
            "{what} must be bytes-like, not int"
        )));
    }
    // memoryview and other buffer objects: bytes(obj) copies them.
    if let Ok(b) = obj.py().get_type::<PyBytes>().call1((obj,)) {
        if let Ok(b) = b.cast::<PyBytes>() {
            return Ok(b.as_bytes().to_vec());
        }
    }
    Err(PyTypeError::new_err(format!(
        "{what} must be bytes-like (bytes, bytearray, memoryview) or an iterable of ints 0-255, \
         not {}",
        type_name(obj)
    )))
}
