//! The variant enum of a described stage (`TevVariant`, `FopVariant`, `RastVariant`), declared
//! from its description: the enum lists the injected-bug builds in the description's order,
//! and everything about them (the shim's name, the define, the list of builds, parsing) is read
//! from [`super::desc::Stage::variants`]; the mutant and coverage builds come from the
//! description's `mutants` / `coverage` rows.

/// Declares a stage's variant enum: `Default` (the description's first build), the injected-bug
/// builds given (in the description's order, each `Inject…` named after its build without
/// `inject_` and the stage prefix), `Mutant(u16)` and `Coverage`, with `mutant`, `ALL`,
/// `name`, `define`, `from_name` and `Display`.
macro_rules! stage_variants {
    ($(
        $(#[$m:meta])*
        pub enum $name:ident for $stage:path, mutants $model:path, coverage $cov:literal {
            $( $(#[$vm:meta])* $v:ident, )+
        }
    )+) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
        pub enum $name {
            /// The RTL as written (plus any `PICA_RTL_DEFINES` given at build time).
            #[default]
            Default,
            $( $(#[$vm])* $v, )+
            #[doc = concat!("Mutant `k` of the stage's mutant model (Yosys mutations of the ",
                "stage top, [`crate::mutants`]; 0 = the unmutated netlist). Not in [`",
                stringify!($name), "::ALL`].")]
            Mutant(u16),
            #[doc = concat!("The RTL as written (plus any `PICA_RTL_DEFINES`), verilated with ",
                "`--coverage` (", $cov, ", read through the crate's `coverage` module): slower, ",
                "and its code-coverage counters can be read. Not in [`", stringify!($name), "::ALL`].")]
            Coverage,
        }

        impl $name {
            #[doc = concat!("The mutant number of a [`", stringify!($name), "::Mutant`].")]
            pub fn mutant(self) -> Option<u16> {
                match self {
                    $name::Mutant(k) => Some(k),
                    _ => None,
                }
            }

            /// Every build of the description, in its order.
            pub const ALL: [$name; 1 + [$(stringify!($v)),+].len()] =
                [$name::Default, $($name::$v),+];

            /// The build of the description this variant is (`None`: mutant, coverage).
            fn build(self) -> Option<&'static crate::kit::desc::Variant> {
                let i = $name::ALL.iter().position(|&v| v == self)?;
                Some(&$stage.variants[i])
            }

            /// The variant's name as the shim reports it.
            pub fn name(self) -> &'static str {
                match self {
                    $name::Mutant(_) => $model,
                    $name::Coverage => $stage.coverage.unwrap_or_default(),
                    v => v.build().map_or("", |b| b.name),
                }
            }

            /// The builds' names as a command line takes them (`default, cache_beat, …`:
            /// without `inject_` and the stage's prefix), in the description's order: the
            /// CLI's help lists them from here, so a build added to the description shows up
            /// there without anyone editing a help text.
            pub fn short_names() -> String {
                let prefix = format!("{}_", $stage.name);
                $name::ALL
                    .iter()
                    .map(|v| {
                        let n = v.name();
                        let n = n.strip_prefix("inject_").unwrap_or(n);
                        n.strip_prefix(prefix.as_str()).unwrap_or(n)
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            }

            /// A help line for a command-line option that picks one of these builds.
            pub fn help() -> String {
                format!(
                    "The RTL {} build: {} (the injected bugs' full names, their defines and \
                     `{}#K`, mutant K, are taken too; `pica stages` describes each build)",
                    $stage.name.to_ascii_uppercase(),
                    $name::short_names(),
                    $model
                )
            }

            /// The define that injects the variant's bug (`None` for the default build).
            pub fn define(self) -> Option<&'static str> {
                self.build().and_then(|b| b.defines.first().copied())
            }

            /// The variant called `name`: its full name (`inject_fop_tile32`), the name without
            /// `inject_` or without `inject_` and its first word (`tile32`,
            /// `clip_plane_order`, `plane_order`), or its define; `-` and `_` alike, any case;
            /// `{model}#K` (`fop_mut#12`): mutant K of the stage's mutant model.
            pub fn from_name(name: &str) -> Option<$name> {
                if let Some(k) = crate::mutants::parse_mutant(name, $model) {
                    return Some($name::Mutant(k));
                }
                let n = name.to_ascii_lowercase().replace('-', "_");
                $name::ALL.into_iter().find(|v| {
                    let full = v.name();
                    let short = full.strip_prefix("inject_");
                    full == n
                        || short == Some(n.as_str())
                        || short.and_then(|s| s.split_once('_')).map(|(_, t)| t)
                            == Some(n.as_str())
                        || v.define().is_some_and(|d| d.eq_ignore_ascii_case(&n))
                })
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        #[cfg(test)]
        impl $name {
            /// Asserts that the enum and the description list the same builds in the same
            /// order: each `Inject…` is named after its build.
            fn check_against_description() {
                assert_eq!($name::ALL.len(), $stage.variants.len());
                assert_eq!($name::Default.name(), "default");
                let idents = [$(stringify!($v)),+];
                for (v, ident) in $name::ALL[1..].iter().zip(idents) {
                    let snake: String = ident
                        .strip_prefix("Inject")
                        .unwrap_or(ident)
                        .chars()
                        .enumerate()
                        .flat_map(|(i, c)| {
                            let sep = (i > 0 && c.is_ascii_uppercase()).then_some('_');
                            sep.into_iter().chain(Some(c.to_ascii_lowercase()))
                        })
                        .collect();
                    assert!(v.name().ends_with(&snake), "{ident} is not {}", v.name());
                    assert_eq!($name::from_name(v.name()), Some(*v));
                    if let Some(d) = v.define() {
                        assert_eq!($name::from_name(d), Some(*v));
                    }
                }
                // The help's short names are names `from_name` takes, one per build.
                let shorts = $name::short_names();
                let shorts: Vec<&str> = shorts.split(", ").collect();
                assert_eq!(shorts.len(), $name::ALL.len());
                for (v, short) in $name::ALL.iter().zip(shorts) {
                    assert_eq!($name::from_name(short), Some(*v), "{short}");
                }
            }
        }
    )+};
}

stage_variants! {
    /// A build of the TEV stage: the RTL as written or with one injected bug (each its own
    /// Verilated model, the builds of [`crate::kit::desc::TEV`]).
    pub enum TevVariant for crate::kit::desc::TEV, mutants crate::mutants::TEV_MODEL,
        coverage "`cov_tev`" {
        /// `INJECT_TEV_SCALE_SAT`: the 4× scale wraps (low 8 bits of `x << 2`) instead of
        /// saturating.
        InjectScaleSat,
        /// `INJECT_TEV_BUFFER`: stages 1-4 take the RGB buffer-input bit of the next stage
        /// (stage 4: none), so GPUREG_TEXENV_UPDATE_BUFFER's RGB bits act one stage early.
        InjectBuffer,
    }

    /// A build of the FOP stage: the RTL as written or with one injected bug (each its own
    /// Verilated model, the builds of [`crate::kit::desc::FOP`]).
    pub enum FopVariant for crate::kit::desc::FOP, mutants crate::mutants::FOP_MODEL,
        coverage "`cov_fop`" {
        /// `INJECT_FOP_BLEND_FACTOR`: the blend factor ONE_MINUS_SRC_ALPHA uses the destination
        /// alpha.
        InjectBlendFactor,
        /// `INJECT_FOP_STENCIL_ZFAIL`: stencil pass with depth fail runs the z-pass action.
        InjectStencilZfail,
        /// `INJECT_FOP_TILE32`: an off-by-one in the 32×32 block tiling address.
        InjectTile32,
        /// `INJECT_AXI_NO_HAZARD` (in `pica_axi_master`): the same-word rule left out, so a
        /// read may pass the posted write to its word.
        InjectAxiNoHazard,
        /// `INJECT_AXI_DROP_B` (in `pica_axi_master`): a write response arriving in the same
        /// clock as a read response is lost, and the port stops.
        InjectAxiDropB,
        /// `INJECT_FOP_PIPE_HAZARD` (in `pica_fop_pipe`): the same-pixel rule leaves out the
        /// fragment right ahead, so a fragment may read a word the one before it will write.
        InjectPipeHazard,
        /// `INJECT_FOP_PIPE_EVICT` (in `pica_fop_pipe`): a cache miss replaces its line
        /// without writing the victim's dirty words back.
        InjectPipeEvict,
        /// `INJECT_FOP_HANG_MOVES` (in `pica_fop_pipe`): the hang's address and value move a
        /// clock after `hang_o` rises.
        InjectHangMoves,
    }

    /// A build of the TEX stage (texture units 0-2): the RTL as written, with one injected
    /// bug, or with the other value of every `tex-*` knob it implements (each its own
    /// Verilated model, the builds of [`crate::kit::desc::TEX`]).
    pub enum TexVariant for crate::kit::desc::TEX, mutants crate::mutants::TEX_MODEL,
        coverage "`cov_tex`" {
        /// `INJECT_TEX_CACHE_BEAT` (in `pica_tex_cache`): a line fill stores beats 0/1 and
        /// 2/3 swapped.
        InjectCacheBeat,
        /// `INJECT_TEX_JOB_ORDER`: a linear level's texels (i+1, j) and (i, j+1) are
        /// fetched swapped.
        InjectJobOrder,
        /// `INJECT_TEX_MORTON` (in `pica_tex_addr`): two bits of the Morton order swapped.
        InjectMorton,
        /// `INJECT_TEX_LOD_ROUND` (in `pica_tex_lod`): the nearest level truncates instead of
        /// rounding.
        InjectLodRound,
        /// Every `tex-*` knob the stage implements at its other value (`tex-alpha-only-colour`
        /// white, `tex-reserved-format` zero, `tex-min-level-size` 1, `tex-filter-rounding`
        /// truncate, `tex-unmapped` zero, `tex-reserved-type` disabled).
        KnobsAlt,
        /// `PICA_TEX_JOBS_BRAM`: the RTL with its job FIFO in block RAM with a registered head
        /// (`pica_bram_fifo`), the FPGA build; the same transactions as the default.
        JobsBram,
    }

    /// A build of the CLIP + RAST stage: the RTL as written or with one injected bug (each its
    /// own Verilated model, the builds of [`crate::kit::desc::RAST`]).
    pub enum RastVariant for crate::kit::desc::RAST, mutants crate::mutants::RAST_MODEL,
        coverage "`cov_rast`" {
        /// `INJECT_RAST_FILL_RULE`: the top-left tie broken the wrong way (a pixel centre
        /// exactly on an edge is covered when the edge does not own it, and not when it does).
        InjectFillRule,
        /// `INJECT_RAST_PERSP`: texcoord0.u interpolated linearly in screen space (no
        /// perspective correction).
        InjectPersp,
        /// `INJECT_CLIP_PLANE_ORDER`: the z ≤ 0 and z ≥ −w planes clipped in swapped order.
        InjectClipPlaneOrder,
        /// `INJECT_CLIP_FAST_OVERWRITE`: CLIP's fast path hands an unclipped triangle to its
        /// output register while that still holds one, which is lost (a pipelined-only bug).
        InjectClipFastOverwrite,
        /// `INJECT_CLIP_FAST_ORDER`: CLIP's general path starts on a clipped triangle while the
        /// fast path still holds an older one, and its output goes first (a pipelined-only bug).
        InjectClipFastOrder,
        /// `INJECT_RAST_SLOT_EARLY`: RAST frees a triangle slot when the walk of its triangle
        /// ends instead of when its last pixel has been issued, so the next set-up may
        /// overwrite attributes that queued pixels still read (a pipelined-only bug).
        InjectSlotEarly,
        /// `INJECT_RAST_CREDIT`: RAST's output FIFO credit check is off by one, so under
        /// output backpressure a fragment is written over the oldest one queued (a
        /// pipelined-only bug).
        InjectCredit,
        /// `Lanes = 7`: the RTL as written with seven interpolation lanes instead of 13 (6
        /// clocks a fragment with a texture unit on instead of 3): the smaller RAST of the
        /// whole-GPU budget on one XC7A200T, verified like the default build.
        Lanes7,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_follow_the_description() {
        TevVariant::check_against_description();
        FopVariant::check_against_description();
        RastVariant::check_against_description();
        TexVariant::check_against_description();
    }
}
