//! Fog, gas, procedural texture and shadow setup (seed 002 GPUREG_TEXENV_UPDATE_BUFFER fog
//! fields, GPUREG_FOG_*, GPUREG_GAS_*, GPUREG_TEXUNIT3_PROCTEX*, GPUREG_PROCTEX_LUT*,
//! GPUREG_FRAGOP_SHADOW, GPUREG_COLOR_OPERATION fragment mode), and render targets other than
//! the scene's framebuffer (the shadow-map pass).

use super::{BuildError, Builder, ColorFormat, DepthFormat};
use pica_model::num::{Fix0_0_11, Fix1_1_11, F16};
use pica_model::regs::{
    self, id, ColorOperationBlendMode, ColorOperationFragmentMode, ProctexLutTable,
    TexenvUpdateBufferDensitySource, TexenvUpdateBufferFogMode,
};

/// A fog LUT entry (seed 002 GPUREG_FOG_LUT_DATAi): the difference to the next entry,
/// fixed1.1.11, in bits 0-12 and the value, fixed0.0.11, in bits 13-23.
pub fn fog_lut_entry(value: u32, diff: i32) -> u32 {
    Fix1_1_11::from_raw(i64::from(diff)).bits() & 0x1FFF
        | (Fix0_0_11::from_bits(value & 0x7FF).bits()) << 13
}

/// A 128-entry fog LUT that is the linear ramp through (`i0`, 0) and (`i1`, 0x7FF), 0 before
/// `i0` and 0x7FF after `i1`, with the differences that make each entry reach the next.
pub fn fog_lut_ramp(i0: u32, i1: u32) -> Vec<u32> {
    let span = i1.saturating_sub(i0).max(1);
    let value = |i: u32| -> u32 {
        if i <= i0 {
            0
        } else if i >= i1 {
            0x7FF
        } else {
            (i - i0) * 0x7FF / span
        }
    };
    (0..128)
        .map(|i| {
            let next = if i == 127 { value(i) } else { value(i + 1) };
            fog_lut_entry(value(i), next as i32 - value(i) as i32)
        })
        .collect()
}

/// A host float as f16 bits (truncating).
fn f16(x: f32) -> u32 {
    F16::from_f64_trunc(f64::from(x)).bits()
}

impl Builder {
    /// Fog / gas mode: GPUREG_TEXENV_UPDATE_BUFFER fog mode (bits 0-2), shading density source
    /// (bit 3) and z flip (bit 16), written with byte mask 0x5 (seed 002: "the gas/fog mode
    /// configuration is typically written with a mask of 0x5") so the combiner-buffer bits
    /// stay.
    pub fn fog_mode(
        &mut self,
        mode: TexenvUpdateBufferFogMode,
        density: TexenvUpdateBufferDensitySource,
        z_flip: bool,
    ) -> &mut Self {
        let w = regs::TexenvUpdateBuffer(0)
            .with_fog_mode(mode)
            .with_shading_density_source(density)
            .with_z_flip(z_flip)
            .0;
        self.list.write_masked(id::TEXENV_UPDATE_BUFFER, 0x5, w);
        self
    }

    /// GPUREG_FOG_COLOR.
    pub fn fog_color(&mut self, [r, g, b]: [u8; 3]) -> &mut Self {
        self.list.write(
            id::FOG_COLOR,
            regs::FogColor(0)
                .with_red(r.into())
                .with_green(g.into())
                .with_blue(b.into())
                .0,
        );
        self
    }

    /// Uploads the fog LUT (at most 128 entries, [`fog_lut_entry`]): GPUREG_FOG_LUT_INDEX = 0,
    /// then the entries through GPUREG_FOG_LUT_DATA0 (a FIFO, seed 002) as repeated-ID writes.
    pub fn fog_lut(&mut self, entries: &[u32]) -> &mut Self {
        self.list
            .write(id::FOG_LUT_INDEX, regs::FogLutIndex(0).with_index(0).0);
        let n = entries.len().min(128);
        self.list.write_repeat(id::FOG_LUT_DATA0, &entries[..n]);
        self
    }

    /// The procedural texture unit: GPUREG_TEXUNIT3_PROCTEX0-5, one consecutive write.
    pub fn proctex(&mut self, words: &[u32; 6]) -> &mut Self {
        self.list.write_seq(id::TEXUNIT3_PROCTEX0, words);
        self
    }

    /// Uploads `entries` into procedural-texture LUT `table` from `index`:
    /// GPUREG_PROCTEX_LUT, then the entries through GPUREG_PROCTEX_LUT_DATA0 (a FIFO).
    pub fn proctex_lut(
        &mut self,
        table: ProctexLutTable,
        index: u32,
        entries: &[u32],
    ) -> &mut Self {
        self.list.write(
            id::PROCTEX_LUT,
            regs::ProctexLut(0)
                .with_table(table)
                .with_index(index & 0xFF)
                .0,
        );
        let n = entries.len().min(256);
        self.list.write_repeat(id::PROCTEX_LUT_DATA0, &entries[..n]);
        self
    }

    /// Gas: GPUREG_GAS_ATTENUATION and GAS_ACCMAX (f16, one consecutive write), GAS_LIGHT_XY,
    /// GAS_LIGHT_Z, GAS_LIGHT_Z_COLOR (one consecutive write) and GAS_DELTAZ_DEPTH.
    pub fn gas(
        &mut self,
        attenuation: f32,
        accmax: f32,
        light: [u32; 3],
        deltaz_depth: regs::GasDeltazDepth,
    ) -> &mut Self {
        self.list.write_seq(
            id::GAS_ATTENUATION,
            &[
                regs::GasAttenuation(0).with_attenuation(f16(attenuation)).0,
                regs::GasAccmax(0).with_max_accumulation(f16(accmax)).0,
            ],
        );
        self.list.write_seq(id::GAS_LIGHT_XY, &light);
        self.list.write(id::GAS_DELTAZ_DEPTH, deltaz_depth.0);
        self
    }

    /// Uploads the 16-entry gas LUT: GPUREG_GAS_LUT_INDEX = 0, then GPUREG_GAS_LUT_DATA
    /// repeated (a FIFO; entries 0-7 colour differences, sign-magnitude per channel as
    /// `regs::GasLutFirstEntry` describes them, 8-15 colours, seed 002).
    pub fn gas_lut(&mut self, entries: &[u32]) -> &mut Self {
        self.list
            .write(id::GAS_LUT_INDEX, regs::GasLutIndex(0).with_index(0).0);
        let n = entries.len().min(16);
        self.list.write_repeat(id::GAS_LUT_DATA, &entries[..n]);
        self
    }

    /// GPUREG_FRAGOP_SHADOW: penumbra scale + bias and the negated penumbra scale, f16.
    pub fn fragop_shadow(&mut self, scale: f32, bias: f32) -> &mut Self {
        self.list.write(
            id::FRAGOP_SHADOW,
            regs::FragopShadow(0)
                .with_penumbra_scale_plus_bias(f16(scale + bias))
                .with_neg_penumbra_scale(f16(-scale))
                .0,
        );
        self
    }

    /// GPUREG_COLOR_OPERATION with fragment mode `mode` (default, gas, shadow), blending on,
    /// the required 0xE4 in bits 16-25. The blend function is left as it is.
    pub fn fragment_mode(&mut self, mode: ColorOperationFragmentMode) -> &mut Self {
        self.list.write(
            id::COLOR_OPERATION,
            regs::ColorOperation(0)
                .with_fragment_mode(mode)
                .with_blend_mode(ColorOperationBlendMode::Blend)
                .with_reserved_16_25(0xE4)
                .0,
        );
        self
    }

    /// Renders into another buffer (a shadow map, a render-to-texture pass): FLUSH +
    /// INVALIDATE, then GPUREG_DEPTHBUFFER_LOC, COLORBUFFER_LOC and FRAMEBUFFER_DIM (one
    /// consecutive write), RENDERBUF_DIM and the two formats, as [`Builder::framebuffer`] does
    /// for the scene's own buffer; the viewport follows the size. [`Builder::finish`] still
    /// reads the scene's framebuffer: switch back with [`Builder::framebuffer`] before the
    /// scene's own draws. `w`, `h` must be multiples of 8.
    pub fn render_target(
        &mut self,
        color_addr: u32,
        depth_addr: u32,
        w: u32,
        h: u32,
        color: ColorFormat,
        depth: DepthFormat,
    ) -> Result<&mut Self, BuildError> {
        if w == 0 || h == 0 || w % 8 != 0 || h % 8 != 0 || w > 1024 || h > 1024 {
            return Err(BuildError::Framebuffer(format!(
                "render target {w}x{h} is not a multiple of 8 up to 1024"
            )));
        }
        let dim = regs::FramebufferDim(0)
            .with_width(w)
            .with_height_minus_1(h - 1)
            .with_reserved_24(1)
            .0;
        self.flush_invalidate();
        self.list.write_seq(
            id::DEPTHBUFFER_LOC,
            &[
                regs::DepthbufferLoc(0).with_addr(depth_addr >> 3).0,
                regs::ColorbufferLoc(0).with_addr(color_addr >> 3).0,
                dim,
            ],
        );
        self.list.write(id::RENDERBUF_DIM, dim);
        self.list.write_seq(
            id::DEPTHBUFFER_FORMAT,
            &[
                regs::DepthbufferFormat(0)
                    .with_format(depth.register_format())
                    .0,
                regs::ColorbufferFormat(0)
                    .with_pixel_size(color.register_pixel_size())
                    .with_format(color.register_format())
                    .0,
            ],
        );
        self.viewport(0, 0, w, h);
        Ok(self)
    }
}
