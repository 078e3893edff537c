//! `pica_model.CommandList`: the low-level command-list encoder (`pica_model::cmdlist`).

use crate::args;
use pica_model::cmdlist::CommandList;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The highest register ID a command header can name (its 16-bit ID field).
const MAX_HEADER_ID: u32 = 0xFFFF;

/// A command list under construction: every method appends commands (the word layout of
/// seed 002) and returns the list itself, so calls chain.
#[pyclass(module = "pica_model", name = "CommandList")]
#[derive(Clone, Debug, Default)]
pub struct PyCommandList {
    list: CommandList,
}

/// A non-empty list of values for `write_seq` / `write_repeat` / `command`.
fn values(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    args::words(obj, "values")
}

#[pymethods]
impl PyCommandList {
    /// An empty list.
    #[new]
    fn new() -> Self {
        Self::default()
    }

    /// One command: `params` (at least one) to `reg` under the byte-enable `mask`, to
    /// consecutive IDs if `consecutive`; more than 256 parameters are split into further
    /// commands.
    #[pyo3(signature = (reg, mask, consecutive, params))]
    fn command<'py>(
        mut slf: PyRefMut<'py, Self>,
        reg: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        consecutive: bool,
        params: &Bound<'_, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let reg = args::reg(reg, "reg", MAX_HEADER_ID)?;
        let mask = args::uint(mask, "mask", 0xF)? as u8;
        let params = args::words(params, "params")?;
        if params.is_empty() {
            return Err(PyValueError::new_err(
                "params is empty (a command carries at least one parameter)",
            ));
        }
        slf.list.command(reg, mask, consecutive, &params);
        Ok(slf)
    }

    /// A plain 32-bit write of `value` to `reg` (an ID or a name).
    fn write<'py>(
        mut slf: PyRefMut<'py, Self>,
        reg: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let reg = args::reg(reg, "reg", MAX_HEADER_ID)? as u16;
        let value = args::u32_arg(value, "value")?;
        slf.list.write(reg, value);
        Ok(slf)
    }

    /// A write of only the bytes of `value` enabled in `mask` (bit n enables byte n).
    fn write_masked<'py>(
        mut slf: PyRefMut<'py, Self>,
        reg: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let reg = args::reg(reg, "reg", MAX_HEADER_ID)? as u16;
        let mask = args::uint(mask, "mask", 0xF)? as u8;
        let value = args::u32_arg(value, "value")?;
        slf.list.write_masked(reg, mask, value);
        Ok(slf)
    }

    /// Consecutive writes: `values[i]` to `reg + i` (nothing for an empty list).
    fn write_seq<'py>(
        mut slf: PyRefMut<'py, Self>,
        reg: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let reg = args::reg(reg, "reg", MAX_HEADER_ID)? as u16;
        let values = self::values(values)?;
        slf.list.write_seq(reg, &values);
        Ok(slf)
    }

    /// Repeated writes of `values` to the same register (a FIFO data port).
    fn write_repeat<'py>(
        mut slf: PyRefMut<'py, Self>,
        reg: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        let reg = args::reg(reg, "reg", MAX_HEADER_ID)? as u16;
        let values = self::values(values)?;
        slf.list.write_repeat(reg, &values);
        Ok(slf)
    }

    /// Pads so that the list ends on a 16-byte boundary after the FINALIZE command, then
    /// appends the write of 0x12345678 to GPUREG_FINALIZE.
    fn finalize(mut slf: PyRefMut<'_, Self>) -> PyRefMut<'_, Self> {
        slf.list.finalize();
        slf
    }

    /// The words so far.
    #[getter]
    fn words(&self) -> Vec<u32> {
        self.list.words().to_vec()
    }

    /// Size in bytes (4 per word).
    #[getter]
    fn byte_len(&self) -> usize {
        self.list.words().len() * 4
    }

    /// The words as little-endian bytes (what goes to memory).
    fn to_bytes(&self) -> Vec<u8> {
        self.list
            .words()
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect()
    }

    fn __len__(&self) -> usize {
        self.list.words().len()
    }

    fn __repr__(&self) -> String {
        format!("CommandList({} words)", self.list.words().len())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Self>()
            .map(|o| o.borrow().list == self.list)
            .unwrap_or(false)
    }
}
