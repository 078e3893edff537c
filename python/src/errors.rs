//! The exception classes of `pica_model`.
//!
//! `PicaError` is the base of every model error. The subclasses for bad input also derive from
//! `ValueError` (so `except ValueError` catches a bad address or a bad hex file as Python code
//! expects); they are made with `type(name, bases, dict)` because `create_exception!` takes one
//! base only.

use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

pyo3::create_exception!(
    pica_model,
    PicaError,
    PyException,
    "Base class of every error the pica model raises (submit refused, unmapped address, ...)."
);

/// One exception class made at first use.
struct ExcClass {
    name: &'static str,
    doc: &'static str,
    /// Whether it also derives from `ValueError`.
    value_error: bool,
    cell: PyOnceLock<Py<PyType>>,
}

impl ExcClass {
    const fn new(name: &'static str, value_error: bool, doc: &'static str) -> Self {
        Self {
            name,
            doc,
            value_error,
            cell: PyOnceLock::new(),
        }
    }

    /// The class, made on first use.
    fn get<'py>(&self, py: Python<'py>) -> PyResult<&Bound<'py, PyType>> {
        self.cell
            .get_or_try_init(py, || {
                let base = py.get_type::<PicaError>();
                let bases = if self.value_error {
                    PyTuple::new(py, [base, py.get_type::<PyValueError>()])?
                } else {
                    PyTuple::new(py, [base])?
                };
                let ns = PyDict::new(py);
                ns.set_item("__module__", "pica_model")?;
                ns.set_item("__doc__", self.doc)?;
                let ty = py.get_type::<PyType>().call1((self.name, bases, ns))?;
                Ok(ty.cast_into::<PyType>()?.unbind())
            })
            .map(|t| t.bind(py))
    }

    /// An exception of this class with `msg`.
    fn err(&self, msg: impl Into<String>) -> PyErr {
        let msg = msg.into();
        Python::attach(|py| match self.get(py) {
            Ok(ty) => PyErr::from_type(ty.clone(), msg),
            Err(e) => e,
        })
    }
}

static UNMAPPED: ExcClass = ExcClass::new(
    "UnmappedError",
    true,
    "An address range outside VRAM (0x18000000-0x185fffff) and FCRAM (0x20000000-0x27ffffff).",
);
static SUBMIT: ExcClass = ExcClass::new(
    "SubmitError",
    true,
    "The GPU refused a command-list submission (unaligned or unmapped buffer).",
);
static PARSE: ExcClass = ExcClass::new(
    "ParseError",
    true,
    "Bad words text or binary (the message names the file or string, the line and column).",
);
static ASM: ExcClass = ExcClass::new(
    "AsmError",
    true,
    "Shader assembly failed (the message names the source, the line and column).",
);
static BUSY: ExcClass = ExcClass::new(
    "BusyError",
    false,
    "A register write was refused: a submitted command list is still running, or the GPU hung.",
);

/// `UnmappedError(msg)`.
pub fn unmapped(msg: impl Into<String>) -> PyErr {
    UNMAPPED.err(msg)
}

/// `SubmitError(msg)`.
pub fn submit(msg: impl Into<String>) -> PyErr {
    SUBMIT.err(msg)
}

/// `ParseError(msg)`.
pub fn parse(msg: impl Into<String>) -> PyErr {
    PARSE.err(msg)
}

/// `AsmError(msg)`.
pub fn asm(msg: impl Into<String>) -> PyErr {
    ASM.err(msg)
}

/// `BusyError(msg)`.
pub fn busy(msg: impl Into<String>) -> PyErr {
    BUSY.err(msg)
}

/// `PicaError(msg)`.
pub fn pica(msg: impl Into<String>) -> PyErr {
    PicaError::new_err(msg.into())
}

/// Adds every exception class to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PicaError", py.get_type::<PicaError>())?;
    for c in [&UNMAPPED, &SUBMIT, &PARSE, &ASM, &BUSY] {
        m.add(c.name, c.get(py)?)?;
    }
    Ok(())
}
