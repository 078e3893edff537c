//! The model-wide knobs: one per `UNVERIFIED(hw)` choice that changes a result and has a
//! plausible, cheap alternative.
//!
//! [`Knobs`] groups the shader units' ten ([`ShaderKnobs`], `shader::interp::Knobs`) and one
//! field per knob of the other areas. [`Knobs::NAMES`] is the one table of names and values
//! (the default first) that `--knob NAME=VALUE` parsing, `pica knobs`, the hardware-facts
//! ledger ([`crate::facts`]: the fact's alternatives) and bundle manifests read; [`AREA`] adds,
//! for the knobs outside the shader units, the pipeline stage that applies the knob (what an
//! RTL stage must implement to follow it) and the ledger fact it selects.
//!
//! The knobs reach the stages through the register file ([`crate::regfile::RegFile::knobs`]):
//! every stage already reads its configuration from there, so a knob is read where the
//! registers are decoded ([`crate::Gpu::set_knobs`] sets them, and the shader units').
//! Default values are the model's long-standing choices: every golden vector is made with them.

mod doc;

pub use doc::markdown;

use crate::shader::interp::differing;
use crate::shader::interp::Knobs as ShaderKnobs0;
use serde::Serialize;
use std::collections::BTreeMap;

/// The shader units' knobs (`shader::interp::Knobs`), a part of [`Knobs`].
pub type ShaderKnobs = ShaderKnobs0;

/// One knob outside the shader units: where it acts and which fact it selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct KnobInfo {
    /// The `--knob` name.
    pub name: &'static str,
    /// Its values, `|`-separated, the default first.
    pub values: &'static str,
    /// The model stage that applies it: `cp`, `regs`, `vl`, `sh` (the SH stage around its
    /// units, e.g. the GS input assembler), `pa`, `clip`, `rast`, `tex`, `light`, `tev`, `fog`
    /// or `fop` (an RTL implementation of that stage must follow it).
    pub stage: &'static str,
    /// The id of the hardware fact it selects ([`crate::facts`]).
    pub fact: &'static str,
}

macro_rules! area_knobs {
    ($(
        $(#[$doc:meta])*
        $field:ident: $Enum:ident = $name:literal, stage $stage:literal, fact $fact:literal {
            $(#[$d0:meta])* $V0:ident = $v0:literal
            $(, $(#[$d:meta])* $V:ident = $v:literal)* $(,)?
        }
    )*) => {
        $(
            $(#[$doc])*
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
            pub enum $Enum {
                $(#[$d0])*
                #[default]
                $V0,
                $($(#[$d])* $V,)*
            }

            impl $Enum {
                /// The `--knob` spelling of the value.
                pub const fn value(self) -> &'static str {
                    match self {
                        Self::$V0 => $v0,
                        $(Self::$V => $v,)*
                    }
                }

                fn parse(s: &str) -> Option<Self> {
                    match s {
                        $v0 => Some(Self::$V0),
                        $($v => Some(Self::$V),)*
                        _ => None,
                    }
                }
            }
        )*

        /// The knobs outside the shader units, in [`Knobs::NAMES`] order (after the shader
        /// units' ten).
        pub const AREA: &[KnobInfo] = &[$(
            KnobInfo {
                name: $name,
                values: concat!($v0 $(, "|", $v)*),
                stage: $stage,
                fact: $fact,
            },
        )*];

        /// Every knob of the model: the shader units' and one per other `UNVERIFIED(hw)`
        /// choice that can be switched. The default is the model's choice everywhere.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
        pub struct Knobs {
            /// The shader units' knobs.
            pub shader: ShaderKnobs,
            $($(#[$doc])* pub $field: $Enum,)*
        }

        impl Knobs {
            fn area_values(&self) -> Vec<(&'static str, &'static str)> {
                vec![$(($name, self.$field.value()),)*]
            }

            /// `Some(true)` when `name` is an area knob and `value` one of its values (then
            /// set), `Some(false)` for a bad value, `None` for no such knob.
            fn set_area(&mut self, name: &str, value: &str) -> Option<bool> {
                match name {
                    $($name => Some(match $Enum::parse(value) {
                        Some(v) => {
                            self.$field = v;
                            true
                        }
                        None => false,
                    }),)*
                    _ => None,
                }
            }
        }
    };
}

area_knobs! {
    // ---- cp -------------------------------------------------------------------------------
    /// Which writes to GPUREG_FINALIZE end a command list.
    cp_end_value: CpEndValue = "cp-end-value", stage "cp", fact "cp-end-any-value" {
        /// Every write ends the list (seed 002: "the value does not appear to matter").
        Any = "any",
        /// Only a write with a non-zero byte mask and a non-zero parameter ends it; others are
        /// ordinary register writes.
        Nonzero = "nonzero",
    }
    /// What happens to the rest of a command whose parameter triggers a jump
    /// (GPUREG_CMDBUF_JUMP0/1 written inside a burst).
    cp_jump_rest: CpJumpRest = "cp-jump-rest", stage "cp", fact "cp-jump-drops-rest" {
        /// The rest is dropped; execution continues at the new buffer.
        Drop = "drop",
        /// The rest of the command is executed first, then execution continues at the new
        /// buffer (the jump takes effect at the command's end).
        Execute = "execute",
    }
    // ---- regs -----------------------------------------------------------------------------
    /// Whether a trigger register fires on every write.
    regs_trigger_value: RegsTriggerValue = "regs-trigger-value", stage "regs", fact "regs-trigger-any-value" {
        /// Every write fires (Azahar).
        Any = "any",
        /// Only a write whose resulting value is non-zero fires (the seed's wording).
        Nonzero = "nonzero",
    }
    /// What the reserved GEOSTAGE_CONFIG values 1 and 3 mean for VSH-configuration
    /// propagation to unit 3.
    regs_geostage_reserved: RegsGeostageReserved = "regs-geostage-reserved", stage "regs", fact "regs-geostage-reserved" {
        /// GS in use: VSH configuration does not reach unit 3 (only value 0 propagates).
        Gs = "gs",
        /// Not a GS: VSH configuration reaches unit 3 unless the value is 2.
        Vs = "vs",
    }
    /// Which VSH-block configuration writes reach unit 3 while they propagate (no geometry
    /// shader, GPUREG_VSH_COM_MODE bit 0 = 0).
    regs_unit3_config: RegsUnit3Config = "regs-unit3-config", stage "regs", fact "regs-unit3-config" {
        /// Every one: uniforms, output mask, code, operand descriptors, and the entry point,
        /// input-buffer configuration and attribute permutation (libctru / citro3d programs
        /// render as on the console; Azahar shades every vertex with the VS configuration).
        Propagate = "propagate",
        /// Only the four kinds the seed lists (uniforms, output mask, code, operand
        /// descriptors): unit 3 keeps the GSH block's entry point, input-buffer configuration
        /// and permutation.
        Seed = "seed",
    }
    /// What a FIFO data register's byte mask does to the word pushed.
    regs_fifo_data_mask: RegsFifoDataMask = "regs-fifo-data-mask", stage "regs", fact "regs-fifo-data-mask" {
        /// Masked-off bytes keep the register's previous contents (like any register).
        Merge = "merge",
        /// The raw parameter is pushed whatever the mask (Azahar).
        Raw = "raw",
    }
    /// What a write to a float-uniform index register does to a partially sent vec4.
    regs_packer_reset: RegsPackerReset = "regs-packer-reset", stage "regs", fact "regs-packer-reset" {
        /// The partial vec4 is discarded.
        Discard = "discard",
        /// The words sent so far stay and the next ones complete the vec4.
        Keep = "keep",
    }
    /// How float32-mode uniform uploads round to f24.
    f32_to_f24_uniform: F32ToF24Uniform = "f32-to-f24-uniform", stage "regs", fact "f32-to-f24-uniform" {
        /// Truncate the mantissa (every public assembler).
        Truncate = "truncate",
        /// Round to nearest, ties to even.
        Nearest = "nearest",
    }
    // ---- vl -------------------------------------------------------------------------------
    /// How the loader reads attribute type 2.
    vl_type2: VlType2 = "vl-type2", stage "vl", fact "vl-type2-signed" {
        /// Signed 16-bit (Azahar, Citra).
        Signed = "signed",
        /// Unsigned 16-bit.
        Unsigned = "unsigned",
    }
    /// How the loader rounds float32 attributes to f24.
    vl_f32_to_f24: VlF32ToF24 = "vl-f32-to-f24", stage "vl", fact "vl-f32-to-f24" {
        /// Truncate the mantissa (as uniform uploads).
        Truncate = "truncate",
        /// Round to nearest, ties to even.
        Nearest = "nearest",
    }
    /// Which loader component wins when several name one attribute.
    vl_duplicate_attribute: VlDuplicateAttribute = "vl-duplicate-attribute", stage "vl", fact "vl-duplicate-attribute" {
        /// The last one (buffer order, then list order; Azahar).
        Last = "last",
        /// The first one.
        First = "first",
    }
    /// Which loader buffers a stride that disagrees with their components hangs.
    vl_mismatch_hang: VlMismatchHang = "vl-mismatch-hang", stage "vl", fact "vl-mismatch-hang" {
        /// Every buffer with a component list, read by the draw or not.
        All = "all",
        /// Only buffers that feed an attribute the draw reads (below the attribute count).
        Read = "read",
    }
    /// How the post-vertex cache replaces its entries.
    vl_cache_policy: VlCachePolicy = "vl-cache-policy", stage "vl", fact "vl-cache-policy" {
        /// First in, first out: a hit does not refresh the entry (Azahar's "circular
        /// replacement").
        Fifo = "fifo",
        /// Least recently used: a hit makes the entry the newest.
        Lru = "lru",
    }
    // ---- sh (the SH stage around the units: the GS input assembler) ------------------------
    /// What a new draw (or immediate-mode batch) does to the GS input buffer.
    gs_new_draw: GsNewDraw = "gs-new-draw", stage "sh", fact "gs-config-per-draw" {
        /// The GS configuration is read at the draw and the input buffer starts empty: a
        /// partially filled buffer of the previous draw is dropped, variable mode waits for a
        /// count (Azahar's `GeometryPipeline::Reconfigure` at every draw and batch).
        Reset = "reset",
        /// The configuration is read at the draw; when it is the same as the previous draw's,
        /// the partially filled buffer (and a variable-mode primitive under way) carries over
        /// into the new draw. VL keeps its count state likewise.
        Keep = "keep",
    }
    // ---- pa -------------------------------------------------------------------------------
    /// What colour saturation makes of a NaN component.
    pa_color_nan: PaColorNan = "pa-color-nan", stage "pa", fact "pa-color-saturate" {
        /// 1.0 (Azahar's `c < 1 ? c : 1` on `|c|`).
        One = "one",
        /// 0.0.
        Zero = "zero",
    }
    /// Whether a draw restarts primitive assembly.
    pa_draw_restarts: PaDrawRestarts = "pa-draw-restarts", stage "pa", fact "pa-draw-restarts" {
        /// Every draw starts a new primitive: strip and fan vertices of the previous draw
        /// are dropped (Azahar).
        Restart = "restart",
        /// The vertices buffered by the previous draw stay, so the first vertices of the next
        /// draw complete triangles with them (Azahar, whose comment says they "should leak");
        /// only GPUREG_RESTART_PRIMITIVE or a change of primitive mode starts a new primitive.
        Leak = "leak",
    }
    // ---- clip -----------------------------------------------------------------------------
    /// Where the w guard plane lies.
    clip_w_plane: ClipWPlane = "clip-w-plane", stage "clip", fact "clip-w-epsilon" {
        /// `w ≥ ε` (Azahar's stated intent: every output w positive).
        Eps = "eps",
        /// `w ≥ −ε` (what Azahar's code tests: it adds ε as a bias).
        NegEps = "neg-eps",
    }
    /// What the reserved face-culling mode 3 does.
    clip_cull_reserved: ClipCullReserved = "clip-cull-reserved", stage "clip", fact "clip-cull-reserved" {
        /// Like mode 2 (Azahar).
        Like2 = "like-2",
        /// Like mode 1.
        Like1 = "like-1",
        /// No culling (like mode 0).
        None = "none",
    }
    /// In which direction a clip-plane intersection is computed.
    clip_edge_order: ClipEdgeOrder = "clip-edge-order", stage "clip", fact "clip-edge-order" {
        /// From the edge's first vertex towards its second, as the polygon is walked
        /// (Azahar `sw_clipper.cpp`): an edge clipped in the two directions can give two
        /// slightly different points.
        Direction = "direction",
        /// From the end point inside the plane towards the one outside, whatever the edge's
        /// direction: an edge shared by two triangles is cut at the same point (watertight).
        Ordered = "ordered",
    }
    // ---- rast -----------------------------------------------------------------------------
    /// What scissor mode 2 does.
    rast_scissor_mode2: RastScissorMode2 = "rast-scissor-mode2", stage "rast", fact "rast-scissor-modes" {
        /// No scissor test.
        Disabled = "disabled",
        /// Like mode 3: only pixels inside the box.
        Inside = "inside",
        /// Like mode 1: only pixels outside the box.
        Outside = "outside",
    }
    /// Whether the scissor box's X2/Y2 bounds are inside the box.
    rast_scissor_x2y2: RastScissorX2Y2 = "rast-scissor-x2y2", stage "rast", fact "rast-scissor-inclusive" {
        /// Inclusive (Azahar adds 1; drivers write the last pixel).
        Inclusive = "inclusive",
        /// Exclusive (X2/Y2 are one past the box).
        Exclusive = "exclusive",
    }
    /// Which GPUREG_DEPTHMAP_ENABLE value selects the w-buffer.
    rast_wbuffer: RastWbuffer = "rast-wbuffer", stage "rast", fact "rast-wbuffer-select" {
        /// 0 is the w-buffer, 1 the z-buffer (Azahar).
        Zero = "zero",
        /// 1 is the w-buffer, 0 the z-buffer.
        One = "one",
    }
    /// The depth bits of the reserved depth-buffer format 1.
    rast_depth_format1: RastDepthFormat1 = "rast-depth-format1", stage "rast", fact "rast-depth-format-reserved" {
        /// 24 bits.
        D24 = "24",
        /// 16 bits.
        D16 = "16",
    }
    /// How window coordinates convert to 12.4 fixed point.
    rast_fix12p4: RastFix12p4 = "rast-fix12p4", stage "rast", fact "rast-fix12p4" {
        /// Round half away from zero (Azahar's C `round`).
        Round = "round",
        /// Truncate toward zero.
        Truncate = "truncate",
    }
    /// Which edges own the pixel centres exactly on them.
    rast_fill_rule: RastFillRule = "rast-fill-rule", stage "rast", fact "rast-fill-rule" {
        /// Left and top edges (Azahar's `IsRightSideOrFlatBottomEdge`, applied exactly).
        Azahar = "azahar",
        /// The opposite edges: right and bottom.
        Opposite = "opposite",
        /// Every edge (pixels on a shared edge are drawn twice).
        Inclusive = "inclusive",
    }
    /// How the interpolated colour converts to bytes.
    rast_color_conversion: RastColorConversion = "rast-color-conversion", stage "rast", fact "rast-color-conversion" {
        /// `round(c · 255)`, halves away from zero (Azahar).
        Round = "round",
        /// `floor(c · 255)`.
        Truncate = "truncate",
    }
    /// How the interpolated depth converts to the buffer format.
    rast_depth_conversion: RastDepthConversion = "rast-depth-conversion", stage "rast", fact "rast-depth-conversion" {
        /// Clamp to [0, 1] and truncate (Azahar).
        Truncate = "truncate",
        /// Clamp to [0, 1] and round to nearest.
        Round = "round",
    }
    // ---- tex ------------------------------------------------------------------------------
    /// Which texture coordinates the reserved `texture3_coords` value 3 gives unit 3.
    tex3_reserved_coords: Tex3ReservedCoords = "tex3-reserved-coords", stage "tex", fact "tex3-reserved-coords" {
        /// texcoord0.
        Texcoord0 = "texcoord0",
        /// texcoord1.
        Texcoord1 = "texcoord1",
        /// texcoord2.
        Texcoord2 = "texcoord2",
    }
    /// What the reserved texture types 6 and 7 of unit 0 do.
    tex_reserved_type: TexReservedType = "tex-reserved-type", stage "tex", fact "tex-reserved-type" {
        /// Sample as a 2D texture (Azahar, after logging).
        Tex2d = "2d",
        /// Act as disabled: (0, 0, 0, 0).
        Disabled = "disabled",
    }
    /// How texture units 0-2 round their bilinear and mipmap-level blends.
    tex_filter_rounding: TexFilterRounding = "tex-filter-rounding", stage "tex", fact "tex-filter-weights" {
        /// Round half up.
        HalfUp = "half-up",
        /// Truncate.
        Truncate = "truncate",
    }
    /// What a texel read from unmapped memory does.
    tex_unmapped: TexUnmapped = "tex-unmapped", stage "tex", fact "tex-unmapped-hang" {
        /// The GPU hangs (the model stops, naming the address).
        Hang = "hang",
        /// The bytes read as zero and drawing goes on.
        Zero = "zero",
    }
    /// The procedural-texture noise amplitude's unit.
    proctex_noise_amplitude: ProctexNoiseAmplitude = "proctex-noise-amplitude", stage "tex", fact "proctex-noise-amplitude" {
        /// 1/4096 (the fixed1.3.12 reading, citro3d's encoding).
        Div4096 = "4096",
        /// 1/4095 (Azahar).
        Div4095 = "4095",
    }
    /// The smallest size a mipmap level shrinks to on each axis.
    tex_min_level_size: TexMinLevelSize = "tex-min-level-size", stage "tex", fact "tex-min-level-size" {
        /// 8 texels (one tile): `max(dim >> level, min(dim, 8))`.
        Tile = "8",
        /// 1 texel: `max(dim >> level, 1)`, levels below 8×8 being partial tiles.
        One = "1",
    }
    /// What the reserved texture formats 14 and 15 decode as.
    ///
    /// UNVERIFIED(hw) [fact: tex-reserved-format]: no source describes these formats; the
    /// alternative is the most plausible other one (a decoder with no case for them yielding
    /// nothing, as a disabled unit does) — model choice.
    tex_reserved_format: TexReservedFormat = "tex-reserved-format", stage "tex", fact "tex-reserved-format" {
        /// RGBA8888 (the model's long-standing choice).
        Rgba8888 = "rgba8888",
        /// Every texel is (0, 0, 0, 0) and no memory is read.
        Zero = "zero",
    }
    /// The colour the alpha-only formats A8 and A4 give.
    tex_alpha_only_colour: TexAlphaOnlyColour = "tex-alpha-only-colour", stage "tex", fact "tex-alpha-only-colour" {
        /// (0, 0, 0) (Azahar `texture_decode.cpp`, the OpenGL alpha-texture convention).
        Black = "black",
        /// (255, 255, 255).
        White = "white",
    }
    // ---- lighting -------------------------------------------------------------------------
    /// What a lighting LUT input outside the table's domain does.
    light_lut_clamp: LightLutClamp = "light-lut-clamp", stage "light", fact "light-lut-clamp" {
        /// The input is clamped first: the index and the fraction both stay inside the table.
        Clamp = "clamp",
        /// Azahar's extrapolation (`GetLutIndex`): the index is clamped, the fraction is not,
        /// so the end entries' differences extend the table linearly beyond its ends. The
        /// distance-attenuation LUT, whose input Azahar clamps too, is unaffected.
        Extrapolate = "extrapolate",
    }
    /// What abs mode does to a negative LUT input of a one-sided light.
    light_abs_one_sided: LightAbsOneSided = "light-abs-one-sided", stage "light", fact "light-abs-one-sided" {
        /// Clamp it to 0 (Azahar's software renderer and shader generator).
        Clamp = "clamp",
        /// Take its absolute value, as for a two-sided light.
        Abs = "abs",
    }
    /// Which registers switch fragment lighting on.
    light_enable: LightEnable = "light-enable", stage "light", fact "light-enable" {
        /// ENABLE0 bit 0 set and ENABLE1 bit 0 clear (seed 002 documents both).
        Both = "both",
        /// ENABLE1 bit 0 clear alone (Azahar's software renderer).
        Enable1 = "enable1",
    }
    /// The weight of a fixed1.1.11 field (spot directions).
    light_fixed_1_1_11: LightFixed1111 = "light-fixed-1-1-11", stage "light", fact "light-fixed-1-1-11" {
        /// 1/2048, as the format says and citro3d writes it.
        Div2048 = "2048",
        /// 1/2047 (Azahar).
        Div2047 = "2047",
    }
    /// How the lighting sums convert to bytes.
    light_output_rounding: LightOutputRounding = "light-output-rounding", stage "light", fact "light-output-rounding" {
        /// Clamp, then round to nearest (halves up).
        Nearest = "nearest",
        /// Clamp, then truncate (Azahar's cast).
        Truncate = "truncate",
    }
    /// What the primary shadow multiplies.
    light_shadow_primary: LightShadowPrimary = "light-shadow-primary", stage "light", fact "light-shadow-primary" {
        /// The diffuse term only (Azahar's shader generator).
        Diffuse = "diffuse",
        /// Diffuse plus the light's ambient (the older Citra software renderer).
        DiffuseAmbient = "diffuse-ambient",
    }
    // ---- tev ------------------------------------------------------------------------------
    /// What "previous" reads in combiner stage 0.
    tev_stage0_previous: TevStage0Previous = "tev-stage0-previous", stage "tev", fact "tev-stage0-previous" {
        /// The primary colour (seed 002).
        Primary = "primary",
        /// Zero (Azahar's starting `combiner_output`).
        Zero = "zero",
    }
    // ---- fog ------------------------------------------------------------------------------
    /// How a D16 depth widens to the 24-bit fog coordinate.
    fog_depth_widen: FogDepthWiden = "fog-depth-widen", stage "fog", fact "fog-index" {
        /// Bit replication (`d << 8 | d >> 8`: the far plane stays all ones).
        Replicate = "replicate",
        /// A shift (`d << 8`).
        Shift = "shift",
    }
    /// What the reserved fog modes (GPUREG_TEXENV_UPDATE_BUFFER bits 0-2: 1-4 and 6) do.
    ///
    /// UNVERIFIED(hw) [fact: fog-reserved-modes]: no source describes them; the alternative is
    /// the most plausible other one (a decoder that tests only "not gas, not off" applying fog)
    /// — model choice.
    fog_reserved_modes: FogReservedModes = "fog-reserved-modes", stage "fog", fact "fog-reserved-modes" {
        /// Nothing, as mode 0 (Azahar acts only on 5 and 7).
        Off = "off",
        /// Fog, as mode 5.
        Fog = "fog",
    }
    // ---- fop ------------------------------------------------------------------------------
    /// What the undescribed blend factor 15 is.
    fop_blend_factor15: FopBlendFactor15 = "fop-blend-factor15", stage "fop", fact "fop-blend-factor-15" {
        /// One (Azahar's OpenGL back end).
        One = "one",
        /// Zero.
        Zero = "zero",
    }
    /// How the blend equation divides by 255.
    fop_blend_rounding: FopBlendRounding = "fop-blend-rounding", stage "fop", fact "fop-blend-rounding" {
        /// Truncating (Azahar `EvaluateBlendEquation`).
        Truncate = "truncate",
        /// Rounding to nearest (halves up).
        Nearest = "nearest",
    }
    /// What a reserved colour or depth buffer format does at the first fragment.
    fop_bad_format: FopBadFormat = "fop-bad-format", stage "fop", fact "fop-bad-format-hang" {
        /// The GPU hangs (seed 000: "seems to freeze the GPU").
        Hang = "hang",
        /// The fragment is discarded without a memory access; drawing goes on.
        Drop = "drop",
    }
    /// Where the shadow word's bytes sit in the RGBA8 stored bits.
    fop_shadow_word: FopShadowWord = "fop-shadow-word", stage "fop", fact "fop-shadow-word-layout" {
        /// Byte-swapped (Azahar's software renderer).
        Swapped = "swapped",
        /// As they are (depth in red, green, blue; intensity in alpha).
        Native = "native",
    }
    /// The byte order of colour-buffer format 1 (RGB8).
    fop_rgb8_order: FopRgb8Order = "fop-rgb8-order", stage "fop", fact "fop-rgb8-format" {
        /// Blue, green, red at increasing addresses (seed 000, ctrulib, Azahar).
        Bgr = "bgr",
        /// Red, green, blue at increasing addresses.
        Rgb = "rgb",
    }
    /// How an 8-bit channel reduces to a narrower colour-buffer field.
    fop_color_conversion: FopColorConversion = "fop-color-conversion", stage "fop", fact "fop-color-conversion" {
        /// Keep the top bits (Azahar `Convert8To5` = `v >> 3`).
        Truncate = "truncate",
        /// Round to the nearest of the field's levels (`(v·(2^n − 1) + 127) / 255`).
        Nearest = "nearest",
    }
}

const N_SHADER: usize = ShaderKnobs::NAMES.len();

impl Knobs {
    /// Every knob's name and values (`|`-separated, the default first): the shader units'
    /// ten ([`ShaderKnobs::NAMES`]), then [`AREA`]. The one table `--knob` parsing,
    /// `pica knobs`, the facts ledger and manifests read.
    pub const NAMES: [(&'static str, &'static str); N_SHADER + AREA.len()] = {
        let mut out = [("", ""); N_SHADER + AREA.len()];
        let mut i = 0;
        while i < N_SHADER {
            out[i] = ShaderKnobs::NAMES[i];
            i += 1;
        }
        let mut j = 0;
        while j < AREA.len() {
            out[N_SHADER + j] = (AREA[j].name, AREA[j].values);
            j += 1;
        }
        out
    };

    /// Every knob's current value, by name, in [`Knobs::NAMES`] order.
    pub fn values(&self) -> Vec<(&'static str, &'static str)> {
        let mut v: Vec<_> = self.shader.values().to_vec();
        v.extend(self.area_values());
        v
    }

    /// The knobs whose value is not the default, as `(name, value)` in [`Knobs::NAMES`] order
    /// (empty for [`Knobs::default`]): what a manifest records.
    pub fn non_default(&self) -> Vec<(&'static str, &'static str)> {
        differing(self.values(), Knobs::default().values())
    }

    /// The non-default knobs as a manifest's `knobs` map (`{name: value}`).
    pub fn to_map(&self) -> BTreeMap<String, String> {
        self.non_default()
            .into_iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    /// The defaults with every `{name: value}` of `map` set (a manifest's `knobs`).
    pub fn from_map<'a, I>(map: I) -> Result<Self, String>
    where
        I: IntoIterator<Item = (&'a String, &'a String)>,
    {
        let mut k = Knobs::default();
        for (n, v) in map {
            k.set(&format!("{n}={v}"))?;
        }
        Ok(k)
    }

    /// Sets one knob from `NAME=VALUE` (names and values in [`Knobs::NAMES`]); the error names
    /// the valid values, or every knob for an unknown name.
    pub fn set(&mut self, assignment: &str) -> Result<(), String> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| format!("knob '{assignment}': expected NAME=VALUE"))?;
        if ShaderKnobs::NAMES.iter().any(|(n, _)| *n == name) {
            return self.shader.set(assignment);
        }
        match self.set_area(name, value) {
            Some(true) => Ok(()),
            Some(false) => Err(format!(
                "knob {name}: '{value}' is not one of {}",
                values_of(name).unwrap_or("")
            )),
            None => {
                let names: Vec<&str> = Self::NAMES.iter().map(|(n, _)| *n).collect();
                Err(format!(
                    "unknown knob '{name}' (one of: {})",
                    names.join(", ")
                ))
            }
        }
    }

    /// The non-default knobs applied by `stage` (`sh` for the shader units' knobs), as
    /// `name=value`.
    pub fn non_default_in(&self, stage: &str) -> Vec<String> {
        self.non_default()
            .into_iter()
            .filter(|(n, _)| stage_of(n) == Some(stage))
            .map(|(n, v)| format!("{n}={v}"))
            .collect()
    }
}

/// The `|`-separated values of knob `name` (the default first).
pub fn values_of(name: &str) -> Option<&'static str> {
    Knobs::NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
}

/// The stage that applies knob `name`: `sh` for the shader units' knobs, else its
/// [`KnobInfo::stage`].
pub fn stage_of(name: &str) -> Option<&'static str> {
    if ShaderKnobs::NAMES.iter().any(|(n, _)| *n == name) {
        return Some("sh");
    }
    AREA.iter().find(|k| k.name == name).map(|k| k.stage)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knobs_names_unique_and_parse_every_value() {
        let mut seen = std::collections::HashSet::new();
        for (n, vals) in Knobs::NAMES {
            assert!(seen.insert(n), "duplicate knob {n}");
            for v in vals.split('|') {
                let mut k = Knobs::default();
                k.set(&format!("{n}={v}")).unwrap();
                let got = k.values().into_iter().find(|(a, _)| *a == n).unwrap().1;
                assert_eq!(got, v, "{n}");
            }
            let first = vals.split('|').next().unwrap();
            let d = Knobs::default().values();
            assert_eq!(
                d.iter().find(|(a, _)| *a == n).unwrap().1,
                first,
                "{n} default"
            );
        }
    }

    #[test]
    fn knobs_bad_names_and_values_are_errors() {
        let mut k = Knobs::default();
        assert!(k.set("no-such=1").unwrap_err().contains("cp-end-value"));
        assert!(k
            .set("rast-fix12p4=up")
            .unwrap_err()
            .contains("round|truncate"));
        assert!(k.set("max-neg-inf=x").is_err());
        assert!(k.set("novalue").is_err());
        assert_eq!(k, Knobs::default());
    }

    #[test]
    fn knobs_map_round_trip() {
        let mut k = Knobs::default();
        k.set("rast-scissor-x2y2=exclusive").unwrap();
        k.set("int-z=signed").unwrap();
        let m = k.to_map();
        assert_eq!(m.len(), 2);
        assert_eq!(Knobs::from_map(&m).unwrap(), k);
        assert_eq!(k.non_default_in("rast"), ["rast-scissor-x2y2=exclusive"]);
        assert_eq!(k.non_default_in("sh"), ["int-z=signed"]);
    }
}
