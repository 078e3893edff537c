//! Python bindings of the pica-cosim model: the native module `pica_model._native`.
//!
//! The Python package `pica_model` (python/pica_model/) re-exports everything defined here; its
//! type stubs (`_native.pyi`) document the Python API. Built with maturin (`pip install
//! ./python`); `extension-module` is switched on by maturin only, so this crate also builds
//! (and lints) as an ordinary workspace member.
//!
//! Rules kept throughout: no panics on bad input (every bad argument raises a Python exception
//! whose message names the argument and what is wrong with it), and batch operations
//! (`Gpu.write_regs`, `Gpu.pop_beats`, `Gpu.write_words`) do their whole loop in Rust.

mod args;
mod beats;
mod cmdlist;
mod errors;
mod gpu;
mod tables;

use pyo3::prelude::*;

/// The native module `pica_model._native`.
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    m.add_class::<gpu::PyGpu>()?;
    m.add_class::<gpu::PyOutcome>()?;
    m.add_class::<cmdlist::PyCommandList>()?;
    tables::register(py, m)?;
    Ok(())
}
