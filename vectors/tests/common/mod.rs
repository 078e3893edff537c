//! Helpers shared by the scene test files (`scenes.rs`, `driver_scenes.rs`).

use pica_model::fop::fb::{read_color_image, Image};
use pica_model::{Gpu, Outcome};
use pica_vectors::builder::Scene;

/// What running a scene gives: how the run ended, the colour buffer read back, and the GPU
/// (for the bytes in memory).
pub struct Rendered {
    pub outcome: Outcome,
    /// De-tiled RGBA8, top row first ([`read_color_image`]).
    pub image: Image,
    pub gpu: Gpu,
}

/// Runs `scene` on the model (pipeline on) and reads the colour buffer back.
pub fn render(scene: &Scene) -> Rendered {
    let mut gpu = scene.case.gpu().unwrap();
    let outcome = gpu.run(scene.case.max_cycles);
    let image = read_color_image(gpu.regs(), gpu.mem());
    Rendered {
        outcome,
        image,
        gpu,
    }
}
