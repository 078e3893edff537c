//! # pica-vectors
//!
//! Golden-vector bundles (format v1: [`bundle`]), the cases they are made from ([`case`]),
//! the library of built-in cases ([`library`]) and the word-file parsers ([`words`]).

pub mod bundle;
pub mod case;
pub mod library;
pub mod streams;
pub mod words;
