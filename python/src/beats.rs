//! Beats as Python dicts, driven by the channel table (`pica_model::chan`).
//!
//! A beat dict has `"channel"` and one key per field of the channel's payload, in table order.
//! Values are the full Rust values (the cycle is not truncated to its packed width): `int` for
//! numbers (signed fields as negative ints), `bool` for 1-bit flags, lists for arrays, and the
//! primitive beat's per-vertex semantics as a list of three lists.

use pica_model::beat::Channel;
use pica_model::chan::{Elem, FieldSpec, Json, Payload};
use pica_model::Gpu;
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};
use std::ops::Range;

/// The channel called `name`, or a `KeyError` listing the names.
pub fn channel(name: &str) -> PyResult<Channel> {
    Channel::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Channel::ALL.iter().map(|c| c.name()).collect();
        PyKeyError::new_err(format!(
            "unknown channel '{name}' (channels: {})",
            names.join(", ")
        ))
    })
}

/// The index of `ch` in [`Channel::ALL`].
pub fn index(ch: Channel) -> usize {
    Channel::ALL.iter().position(|c| *c == ch).unwrap_or(0)
}

/// Beats recorded on `ch` so far.
pub fn recorded(gpu: &Gpu, ch: Channel) -> usize {
    let p = gpu.pipeline_beats();
    match ch {
        Channel::RegWrite => gpu.regwrite_beats().len(),
        Channel::ShaderIn => gpu.shader_beats().0.len(),
        Channel::ShaderOut => gpu.shader_beats().1.len(),
        Channel::Commit => gpu.commit_beats().len(),
        Channel::Primitive => p.primitive.len(),
        Channel::Fragment => p.fragment.len(),
        Channel::Pixel => p.pixel.len(),
        Channel::Texel => p.texel.len(),
        Channel::Combiner => p.combiner.len(),
        Channel::TexColor => p.tex_color.len(),
    }
}

/// Appends the beats `range` of `ch` (a range within [`recorded`]) to `out` as dicts.
pub fn append(
    py: Python<'_>,
    gpu: &Gpu,
    ch: Channel,
    range: Range<usize>,
    out: &Bound<'_, PyList>,
) -> PyResult<()> {
    let p = gpu.pipeline_beats();
    let name = ch.name();
    match ch {
        Channel::RegWrite => dicts(py, name, slice(gpu.regwrite_beats(), range), out),
        Channel::ShaderIn => dicts(py, name, slice(gpu.shader_beats().0, range), out),
        Channel::ShaderOut => dicts(py, name, slice(gpu.shader_beats().1, range), out),
        Channel::Commit => dicts(py, name, slice(gpu.commit_beats(), range), out),
        Channel::Primitive => dicts(py, name, slice(p.primitive, range), out),
        Channel::Fragment => dicts(py, name, slice(p.fragment, range), out),
        Channel::Pixel => dicts(py, name, slice(p.pixel, range), out),
        Channel::Texel => dicts(py, name, slice(p.texel, range), out),
        Channel::Combiner => dicts(py, name, slice(p.combiner, range), out),
        Channel::TexColor => dicts(py, name, slice(p.tex_color, range), out),
    }
}

/// `beats[range]`, empty where the range is out of bounds (never panics).
fn slice<T>(beats: &[T], range: Range<usize>) -> &[T] {
    beats.get(range).unwrap_or(&[])
}

/// Appends one dict per beat.
fn dicts<P: Payload>(
    py: Python<'_>,
    channel: &str,
    beats: &[P],
    out: &Bound<'_, PyList>,
) -> PyResult<()> {
    let spec = P::SPEC;
    let channel = PyString::intern(py, channel);
    let channel_key = PyString::intern(py, "channel");
    let keys: Vec<Bound<'_, PyString>> = spec
        .fields
        .iter()
        .map(|f| PyString::intern(py, f.name))
        .collect();
    let mut vals = Vec::with_capacity(64);
    for b in beats {
        vals.clear();
        b.values(&mut vals);
        let d = PyDict::new(py);
        d.set_item(&channel_key, &channel)?;
        let mut it = vals.iter().copied();
        for (f, key) in spec.fields.iter().zip(&keys) {
            d.set_item(key, field(py, f, &mut it)?)?;
        }
        out.append(d)?;
    }
    Ok(())
}

/// One field's value: a scalar, a list, or (vertex semantics) a list of three lists.
fn field<'py>(
    py: Python<'py>,
    f: &FieldSpec,
    it: &mut impl Iterator<Item = u128>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut next = || scalar(py, f, it.next().unwrap_or(0));
    match f.elem {
        Elem::Scalar => next(),
        Elem::VertexSemantic => {
            let per_vertex = (f.count / 3) as usize;
            let verts = PyList::empty(py);
            for _ in 0..3 {
                let v = PyList::empty(py);
                for _ in 0..per_vertex {
                    v.append(next()?)?;
                }
                verts.append(v)?;
            }
            Ok(verts.into_any())
        }
        Elem::Index | Elem::Lanes | Elem::Semantic => {
            let l = PyList::empty(py);
            for _ in 0..f.count {
                l.append(next()?)?;
            }
            Ok(l.into_any())
        }
    }
}

/// One element as a Python value.
fn scalar<'py>(py: Python<'py>, f: &FieldSpec, v: u128) -> PyResult<Bound<'py, PyAny>> {
    Ok(match f.json {
        Json::Bool => PyBool::new(py, v != 0).to_owned().into_any(),
        // Signed fields are `i32` in the table, pushed as their 32-bit two's complement
        // (`chan::Lanes for i32`): give the Rust value back.
        Json::Signed => (v as u32 as i32).into_pyobject(py)?.into_any(),
        Json::Dec | Json::Hex | Json::HexMin(_) => match u64::try_from(v) {
            Ok(small) => small.into_pyobject(py)?.into_any(),
            Err(_) => v.into_pyobject(py)?.into_any(),
        },
    })
}
