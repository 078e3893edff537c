//! # pica-rtl-bridge
//!
//! Home of the SystemVerilog reimplementation (`rtl/`), its Verilator build and the safe Rust
//! API that drives it. This crate is a skeleton until the RTL front-end issue lands; see
//! `README.md` for why we do not use the crates.io `verilated` crate.
