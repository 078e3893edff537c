//! Module-level functions and constants: channel and register tables, word parsers, the shader
//! assembler and the scene library.

use crate::{args, beats, errors};
use pica_model::beat::Channel;
use pica_model::cmdlist::FINALIZE_VALUE;
use pica_model::regfile::debug;
use pica_model::regs;
use pica_model::shader::asm;
use pica_vectors::case::{DEFAULT_LIST_ADDR, DEFAULT_MAX_CYCLES};
use pica_vectors::scenes as library;
use pica_vectors::words;
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// The fields of `channel`'s payload as `(name, width in bits, count)`, in table order (a
/// scalar has count 1).
#[pyfunction]
fn channel_fields(channel: &str) -> PyResult<Vec<(&'static str, u32, u32)>> {
    let ch = beats::channel(channel)?;
    Ok(ch
        .payload()
        .fields
        .iter()
        .map(|f| (f.name, f.width, f.count))
        .collect())
}

/// The 3dbrew name of register `id` (`GPUREG_0xxx` for IDs the table does not name,
/// `GPUREG_xxxx (beyond 0x2FF)` above the register space).
#[pyfunction]
fn reg_name(id: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(regs::name(args::u32_arg(id, "id")?))
}

/// The ID of a register name: a 3dbrew name with or without `GPUREG_`, an official name or a
/// hex ID (`"0x10"`); case-insensitive. `KeyError` if unknown.
#[pyfunction]
fn reg_id(name: &str) -> PyResult<u16> {
    regs::by_name(name).ok_or_else(|| {
        PyKeyError::new_err(format!(
            "unknown register name '{name}' (give a 3dbrew name such as GPUREG_FINALIZE, an \
             official name such as PICA_REG_INTERRUPT, or a hex ID such as 0x010)"
        ))
    })
}

/// `value` written to `reg` decoded into its fields: `(field name, value shifted down,
/// text)` in table order. A register without described fields gives one `value` field; set
/// bits outside every field come last as `undescribed_bits`.
#[pyfunction]
fn decode_reg(
    reg: &Bound<'_, PyAny>,
    value: &Bound<'_, PyAny>,
) -> PyResult<Vec<(&'static str, u32, String)>> {
    let id = args::reg(reg, "reg", u32::MAX)?;
    let value = args::u32_arg(value, "value")?;
    Ok(regs::decode_fields(id, value)
        .into_iter()
        .map(|f| (f.name, f.bits, f.text))
        .collect())
}

/// The name of a debug-map address (`"fog_lut[0x003]"`, `"unit0.code[0x010]"`).
#[pyfunction]
fn debug_name(addr: &Bound<'_, PyAny>) -> PyResult<String> {
    let addr = args::uint(addr, "addr", u16::MAX.into())? as u16;
    Ok(debug::describe(addr))
}

/// Parses text words: whitespace separated, `0x` optional, `#` and `//` start comments.
/// `ParseError` names `name`, the line and the column of a bad token.
#[pyfunction]
#[pyo3(signature = (text, name = "<string>"))]
fn parse_hex(text: &str, name: &str) -> PyResult<Vec<u32>> {
    words::parse_hex(name, text).map_err(|e| errors::parse(e.0))
}

/// Parses little-endian binary words (the length must be a multiple of 4).
#[pyfunction]
#[pyo3(signature = (data, name = "<bytes>"))]
fn parse_bin(data: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<u32>> {
    let data = args::bytes(data, "data")?;
    words::parse_bin(name, &data).map_err(|e| errors::parse(e.0))
}

/// Reads a words file: `.bin` binary, `.hex`/`.txt` text (`format` overrides).
#[pyfunction]
#[pyo3(signature = (path, format = None))]
fn read_words(path: std::path::PathBuf, format: Option<&str>) -> PyResult<Vec<u32>> {
    crate::gpu::read_words_file(&path, format)
}

/// Assembles picasso shader assembly into a SHBIN (as `pica asm`): by default byte for byte
/// picasso 2.7.1's output; `auto_nop` inserts picasso's padding NOPs, `labels` lists the
/// procedures in the label table (a pica-cosim extension, off by default). `AsmError` names
/// `name`, the line and the column.
#[pyfunction]
#[pyo3(signature = (source, name = "<string>", auto_nop = true, labels = false))]
fn assemble(source: &str, name: &str, auto_nop: bool, labels: bool) -> PyResult<Vec<u8>> {
    let options = asm::Options { auto_nop, labels };
    asm::assemble_files(&[(name, source)], options)
        .map(|p| p.shbin.to_bytes())
        .map_err(|e| errors::asm(e.to_string()))
}

/// The names of the scene library, in library order.
#[pyfunction]
fn scenes() -> Vec<&'static str> {
    library::list().map(|(n, _)| n).collect()
}

/// One scene of the library, built: a dict with `name`, `description`, `images` (a list of
/// `(base address, words)`; the command list is one of them), `submit_addr`, `submit_size`,
/// `max_cycles`, `pipeline` (bool) and `fb` (the framebuffer it renders to: `width`,
/// `height`, `block32`, `color_addr`, `color_format`, `color_bytes`, `depth_addr`,
/// `depth_format`, `depth_bytes`).
#[pyfunction]
fn scene<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyDict>> {
    if !library::list().any(|(n, _)| n == name) {
        return Err(PyKeyError::new_err(format!(
            "unknown scene '{name}' (pica_model.scenes() lists them)"
        )));
    }
    let s = library::scene(name)
        .ok_or_else(|| errors::pica(format!("scene '{name}' does not build")))?;
    let c = &s.case;
    let d = PyDict::new(py);
    d.set_item("name", &c.name)?;
    d.set_item("description", &c.description)?;
    let images = PyList::empty(py);
    for im in &c.images {
        images.append((im.base, im.words.clone()))?;
    }
    d.set_item("images", images)?;
    d.set_item("submit_addr", c.submit_addr)?;
    d.set_item("submit_size", c.submit_size)?;
    d.set_item("max_cycles", c.max_cycles)?;
    d.set_item("pipeline", c.pipeline)?;
    let fb = PyDict::new(py);
    fb.set_item("width", s.fb.width)?;
    fb.set_item("height", s.fb.height)?;
    fb.set_item("block32", s.fb.block32)?;
    fb.set_item("color_addr", s.fb.color_addr)?;
    fb.set_item("color_format", s.fb.color_format.name())?;
    fb.set_item("color_bytes", s.fb.color_bytes())?;
    fb.set_item("depth_addr", s.fb.depth_addr)?;
    fb.set_item("depth_format", s.fb.depth_format.name())?;
    fb.set_item("depth_bytes", s.fb.depth_bytes())?;
    d.set_item("fb", fb)?;
    Ok(d)
}

/// Adds the functions and constants to the module.
pub fn register(py: Python<'_>, m: &Bound<'_, PyModule>) -> PyResult<()> {
    let names: Vec<&str> = Channel::ALL.iter().map(|c| c.name()).collect();
    m.add("CHANNELS", PyList::new(py, names)?)?;
    m.add("FINALIZE_VALUE", FINALIZE_VALUE)?;
    m.add("DEFAULT_LIST_ADDR", DEFAULT_LIST_ADDR)?;
    m.add("DEFAULT_MAX_CYCLES", DEFAULT_MAX_CYCLES)?;
    let regions: Vec<(&str, u32, u32)> = pica_model::mem::REGIONS
        .iter()
        .map(|r| (r.name, r.start, r.size))
        .collect();
    m.add("MEMORY_REGIONS", regions)?;
    m.add("REG_COUNT", regs::REG_COUNT)?;
    m.add_function(wrap_pyfunction!(channel_fields, m)?)?;
    m.add_function(wrap_pyfunction!(reg_name, m)?)?;
    m.add_function(wrap_pyfunction!(reg_id, m)?)?;
    m.add_function(wrap_pyfunction!(decode_reg, m)?)?;
    m.add_function(wrap_pyfunction!(debug_name, m)?)?;
    m.add_function(wrap_pyfunction!(parse_hex, m)?)?;
    m.add_function(wrap_pyfunction!(parse_bin, m)?)?;
    m.add_function(wrap_pyfunction!(read_words, m)?)?;
    m.add_function(wrap_pyfunction!(assemble, m)?)?;
    m.add_function(wrap_pyfunction!(scenes, m)?)?;
    m.add_function(wrap_pyfunction!(scene, m)?)?;
    Ok(())
}
