//! # pica-model
//!
//! A register-accurate, cycle-stepped reference model of the DMP PICA200, the GPU of the
//! Nintendo 3DS. It is the golden reference that RTL reimplementations are compared against.
//!
//! The model is organised as the hardware pipeline is: stages (command processor [`cp`],
//! register file [`regfile`], ...) joined by bounded [`link`]s, all advanced by one clock
//! ([`Gpu::step`]). Every value the hardware computes lives in a bit-exact number type from
//! [`num`]; every register fact lives in the one register table in [`regs`]; every timing figure
//! in [`timing`]. What crosses a channel is recorded as a [`beat`]; how a run ends, and why
//! the GPU hangs, is an [`outcome`].
//!
//! ```
//! use pica_model::{Gpu, Memory, Outcome};
//! let mut mem = Memory::new();
//! // Write 0x12345678 to GPUREG_FINALIZE (0x010), then a padding command to reach 16 bytes.
//! mem.write_words(0x2000_0000, &[0x1234_5678, 0x000F_0010, 0, 0x000F_0000]).unwrap();
//! let mut gpu = Gpu::new(mem);
//! gpu.submit(0x2000_0000, 16).unwrap();
//! assert_eq!(gpu.run(1000), Outcome::Finished { cycles: 3 });
//! ```
//!
//! See `shared/design.md` of the project for the architecture and the user guide (`docs/`, an mdBook) for the CLI.

pub mod beat;
pub mod chan;
pub mod clip;
pub mod cmdheader;
pub mod cmdlist;
pub mod cov;
pub mod cp;
pub mod facts;
pub mod fog;
pub mod fop;
pub mod frag;
pub mod gpu;
pub mod hwdata;
pub mod knobs;
pub mod light;
pub mod link;
pub mod mem;
pub mod num;
pub mod nv2a;
pub mod outcome;
pub mod pa;
pub mod pipe;
pub mod psc;
pub mod rast;
pub mod regfile;
pub mod regs;
pub mod shader;
pub mod stage;
pub mod tev;
pub mod tex;
pub mod timing;
pub mod vl;

pub use gpu::{Gpu, PushError, SubmitError};
pub use mem::Memory;
pub use outcome::{HangReason, Outcome};
