//! The trait every pipeline stage implements.

use crate::gpu::HangReason;

/// A pipeline stage of the cycle-stepped core (design.md "Stages").
///
/// A stage owns its state (no global state) and talks to its neighbours only through the
/// [`Link`](crate::link::Link)s passed to it in [`Stage::Ports`] each cycle.
pub trait Stage {
    /// What the stage reads and writes in one cycle: its links, memory, the beat log.
    type Ports<'a>;

    /// The stage's name (also the `tracing` target).
    fn name(&self) -> &'static str;

    /// Returns to the power-on state.
    fn reset(&mut self);

    /// Advances the stage by one cycle. An `Err` means the GPU hangs in this stage.
    fn tick(&mut self, cycle: u64, ports: Self::Ports<'_>) -> Result<(), HangReason>;

    /// Whether the stage has no work in flight.
    fn is_idle(&self) -> bool;

    /// The stage's internal state, for dumps and divergence reports.
    fn snapshot(&self) -> serde_json::Value;
}

/// The pipeline stages of issue 5 behind the common trait: each keeps its inherent `tick`
/// (whose error, if any, is the stage's own hang type) and this maps it to [`HangReason`].
macro_rules! pipeline_stage {
    ($ty:ty, $ports:ident, $name:literal, |$s:ident, $c:ident, $p:ident| $tick:expr) => {
        impl Stage for $ty {
            type Ports<'a> = $ports<'a>;

            fn name(&self) -> &'static str {
                $name
            }

            fn reset(&mut self) {
                *self = <$ty>::new();
            }

            fn tick(&mut self, cycle: u64, ports: $ports<'_>) -> Result<(), HangReason> {
                let ($s, $c, $p) = (self, cycle, ports);
                $tick
            }

            fn is_idle(&self) -> bool {
                <$ty>::is_idle(self)
            }

            fn snapshot(&self) -> serde_json::Value {
                <$ty>::snapshot(self)
            }
        }
    };
}

use crate::clip::{ClipPorts, Clipper};
use crate::fop::{FopPorts, FragmentOps};
use crate::pa::{PaPorts, PrimitiveAssembler};
use crate::rast::{RastPorts, Rasterizer};
use crate::vl::{VertexLoader, VlPorts};

pipeline_stage!(VertexLoader, VlPorts, "vl", |s, c, p| {
    VertexLoader::tick(s, c, p).map_err(HangReason::VertexLoader)
});
pipeline_stage!(PrimitiveAssembler, PaPorts, "pa", |s, c, p| {
    PrimitiveAssembler::tick(s, c, p);
    Ok(())
});
pipeline_stage!(Clipper, ClipPorts, "clip", |s, c, p| {
    Clipper::tick(s, c, p);
    Ok(())
});
pipeline_stage!(Rasterizer, RastPorts, "rast", |s, c, p| {
    Rasterizer::tick(s, c, p);
    Ok(())
});
pipeline_stage!(FragmentOps, FopPorts, "fop", |s, c, p| {
    FragmentOps::tick(s, c, p).map_err(HangReason::FragmentOps)
});
