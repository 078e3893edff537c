//! # pica-vectors
//!
//! Golden-vector bundles (format v1: [`bundle`]), the cases they are made from ([`case`]),
//! captured frames to run ([`frame`]: `pica-frame` files),
//! the library of built-in cases ([`library`]), the word-file parsers ([`words`]), the
//! command-list builder that writes draw calls as a driver does ([`builder`]) and the scene
//! library built with it ([`scenes`]), the shader-unit program generator and shrinker
//! ([`shader_gen`]) and stage bundles ([`stage`]: one reader/writer, [`stage::bundle`], and per
//! stage the shader unit, [`stage::tev`] the texture combiners, [`stage::fop`] the fragment
//! operations and [`stage::rast`] CLIP + RAST).

pub mod builder;
pub mod bundle;
pub mod case;
pub mod frame;
pub mod library;
pub mod scenes;
pub mod sequences;
pub mod shader_gen;
pub mod stage;
/// The FOP stage's cases and bundles ([`stage::fop`], by its older name).
pub use stage::fop as stage_fop;
/// The RAST stage's cases and bundles ([`stage::rast`], by its older name).
pub use stage::rast as stage_rast;
/// The TEV stage's cases and bundles ([`stage::tev`], by its older name).
pub use stage::tev as stage_tev;
pub use stage::tex as stage_tex;
pub mod streams;
pub mod words;

pub use builder::{Builder, Scene};
