//! Fuzzing, one module per target: register sequences on the front end ([`regs`]), shader
//! programs on one shader unit ([`shader`]), the four-unit SH stage in the whole pipeline
//! ([`sh_stage`]), the texture combiners ([`tev`]), the fragment operations ([`fop`]),
//! CLIP + RAST ([`rast`]) and the whole model pipeline ([`pipe`]); the campaign loop the stage
//! targets share ([`campaign`]), coverage-guided fuzzing of register sequences ([`guided`])
//! and of any stage target with an RTL coverage build ([`stage_guided`]).

pub mod campaign;
pub mod fop;
pub mod guided;
pub mod pipe;
pub mod rast;
pub mod regs;
pub mod report;
pub mod sh_stage;
pub mod shader;
pub mod stage_guided;
pub mod tev;
pub mod tex;
