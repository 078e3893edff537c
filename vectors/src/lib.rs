//! # pica-vectors
//!
//! Golden-vector bundles (format v1: [`bundle`]), the cases they are made from ([`case`]),
//! captured frames to run ([`frame`]: `pica-frame` files),
//! the library of built-in cases ([`library`]), the word-file parsers ([`words`]), the
//! command-list builder that writes draw calls as a driver does ([`builder`]) and the scene
//! library built with it ([`scenes`]), the shader-unit program generator and shrinker
//! ([`shader_gen`]) and stage bundles ([`stage`]: the shader unit; [`stage_tev`]: the texture
//! combiners; [`stage_fop`]: the fragment operations; [`stage_rast`]: CLIP + RAST).

pub mod builder;
pub mod bundle;
pub mod case;
pub mod frame;
pub mod library;
pub mod scenes;
pub mod sequences;
pub mod shader_gen;
pub mod stage;
pub mod stage_fop;
pub mod stage_rast;
pub mod stage_tev;
pub mod streams;
pub mod words;

pub use builder::{Builder, Scene};
