//! # pica-vectors
//!
//! Golden-vector bundles and the bundled example command lists.
