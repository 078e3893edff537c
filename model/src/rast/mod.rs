//! RAST: triangle setup, traversal, scissor, interpolation and early depth.
//!
//! For each window-space triangle from CLIP (either winding; culling happened before):
//!
//! 1. **Setup** ([`setup`]): vertex positions to 12.4 fixed point, the three edge functions in
//!    exact integer arithmetic, orientation, the top-left fill rule, the bounding box; the
//!    per-vertex interpolation products ([`interp`]); the register configuration is latched
//!    ([`config`]).
//! 2. **Traversal**: the pixels whose centres lie in the triangle's bounding box, clipped to
//!    the framebuffer (GPUREG_FRAMEBUFFER_DIM) and, in scissor mode "inside", to the scissor
//!    box, are examined in rows of increasing y, each row in increasing x.
//! 3. **Per pixel**, in this order: the scissor test (mode "outside" drops pixels inside the
//!    box), coverage (fill rule), interpolation of every semantic and of depth, the early
//!    depth test ([`early`]). A surviving pixel becomes a [`Fragment`] for the fragment
//!    pipeline (TEX first). With a texture unit 0-2 enabled, the fragment also carries the
//!    differences of its texture coordinates to the neighbouring pixel centres
//!    ([`Interpolator::tex_deriv`]), from which TEX derives the level of detail.
//!
//! [`rasterize`] does all of it for one triangle as a pure function; the stage
//! ([`Rasterizer`]) does the same, one pixel per cycle, and produces identical fragments.
//!
//! # Timing (all in `crate::timing`, section RAST)
//!
//! - A cycle in which RAST holds no triangle it pops one from CLIP (if there is one); that
//!   cycle is the first of [`timing::RAST_SETUP_CYCLES`] setup cycles.
//! - Then each cycle examines up to [`timing::RAST_PIXELS_PER_CYCLE`] pixels of the clipped
//!   bounding box. A pixel that yields a fragment is sent in the cycle it is examined if the
//!   link to FOP has room (registered ready); otherwise traversal stalls on that pixel and
//!   retries it next cycle. Pixels that yield nothing (not covered, scissored, early depth
//!   fail) cost their cycle too.
//! - The triangle is retired in the cycle its last pixel is examined (or its last setup cycle
//!   when there is nothing to walk: zero area, or nothing left after clipping); the next
//!   triangle is popped the cycle after.
//!
//! # Early depth clears
//!
//! GPUREG_EARLYDEPTH_CLEAR writes appear in the register file's trigger log
//! ([`RegFile::triggers`]); RAST keeps the count it has handled and, at the start of each
//! cycle, clears its early-depth buffer once per new event.

pub mod config;
pub mod early;
pub mod interp;
pub mod setup;

pub use config::{DepthMode, EarlyDepthFunc, RastConfig, ScissorMode};
pub use early::EarlyDepthBuffer;
pub use interp::Interpolator;
pub use setup::{to_fix12p4, PixelRect, TriSetup};

use crate::beat::FragmentBeat;
use crate::link::Link;
use crate::pipe::{Fragment, ScreenTri};
use crate::regfile::RegFile;
use crate::regs::{self, id, Trigger};
use crate::timing;
use serde_json::json;

/// Every register RAST reads ([`RastConfig::from_regs`], and GPUREG_EARLYDEPTH_DATA for the
/// value an early-depth clear writes), in ID order: what an implementation of RAST outside
/// the model (the RTL stage top's register write port, a stage bundle's configuration writes)
/// must be given. A write to GPUREG_EARLYDEPTH_CLEAR ([`EARLY_DEPTH_CLEAR`]) is an event, not
/// configuration: it must reach such an implementation as the event it is, whatever its value.
/// The test `rast_reads_only_config_regs` pins that nothing else changes RAST's output.
pub const CONFIG_REGS: [u16; 11] = [
    id::EARLYDEPTH_FUNC,
    id::EARLYDEPTH_TEST1,
    id::SCISSORTEST_MODE,
    id::SCISSORTEST_POS,
    id::SCISSORTEST_DIM,
    id::EARLYDEPTH_DATA,
    id::DEPTHMAP_ENABLE,
    id::TEXUNIT_CONFIG,
    id::DEPTHBUFFER_FORMAT,
    id::EARLYDEPTH_TEST2,
    id::FRAMEBUFFER_DIM,
];

/// GPUREG_EARLYDEPTH_CLEAR: the trigger that clears the early-depth buffer (see the module
/// docs, "Early depth clears").
pub const EARLY_DEPTH_CLEAR: u16 = id::EARLYDEPTH_CLEAR;

/// What RAST touches in one cycle.
pub struct RastPorts<'a> {
    /// Configuration (and trigger events, for GPUREG_EARLYDEPTH_CLEAR).
    pub regs: &'a RegFile,
    /// Window-space triangles from CLIP.
    pub input: &'a mut Link<ScreenTri>,
    /// Fragments to FOP.
    pub out: &'a mut Link<Fragment>,
    /// Where fragment beats go (`None`: not recorded).
    pub beats: Option<&'a mut Vec<FragmentBeat>>,
}

/// What became of one examined pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PixelOutcome {
    /// Dropped by the scissor test (mode "outside", pixel in the box).
    Scissored,
    /// Not covered by the triangle (fill rule).
    NotCovered,
    /// Covered, but the early depth test failed.
    EarlyDepthFail,
    /// A fragment for FOP; `early_depth` is its 24-bit depth, which the early-depth buffer
    /// stores when the fragment is sent (with the test on).
    Fragment {
        /// The fragment.
        fragment: Fragment,
        /// Its depth quantized to 24 bits (the early-depth buffer's format).
        early_depth: u32,
    },
}

/// A triangle after setup, with the configuration it is drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreparedTri {
    /// The [`ScreenTri::seq`] it came from.
    pub seq: u32,
    /// Edge functions and fill rule.
    pub setup: TriSetup,
    /// Interpolation products.
    pub interp: Interpolator,
    /// The registers as latched at setup.
    pub cfg: RastConfig,
    /// The pixels traversal walks (`None`: nothing).
    pub rect: Option<PixelRect>,
}

impl PreparedTri {
    /// Sets up `tri` for drawing with `cfg`.
    pub fn new(tri: &ScreenTri, cfg: RastConfig) -> Self {
        let setup = TriSetup::with_knobs(tri, cfg.fix12p4, cfg.fill_rule);
        let rect = setup.bbox().and_then(|b| cfg.traversal_rect(b));
        Self {
            seq: tri.seq,
            setup,
            interp: Interpolator::new(tri),
            cfg,
            rect,
        }
    }

    /// Examines pixel (`x`, `y`) against the early-depth buffer `early` (read only).
    pub fn pixel(&self, x: i32, y: i32, early: &EarlyDepthBuffer) -> PixelOutcome {
        self.pixel_cached(x, y, early, &mut NeighbourCache::default())
    }

    /// [`PreparedTri::pixel`], keeping the texture coordinates interpolated at neighbouring
    /// centres in `cache` (which must be [`NeighbourCache::reset`] for this triangle) and
    /// taking them from there when traversal comes back to the same centre: the upper
    /// neighbour of a pixel in one row is the right neighbour of the pixel to its left in
    /// the next. The result is [`PreparedTri::pixel`]'s (a cached value is the one computed
    /// at the same centre of the same triangle).
    pub fn pixel_cached(
        &self,
        x: i32,
        y: i32,
        early: &EarlyDepthBuffer,
        cache: &mut NeighbourCache,
    ) -> PixelOutcome {
        if !self.cfg.scissor_passes(x, y) {
            return PixelOutcome::Scissored;
        }
        let Some(b) = self.setup.cover(x, y) else {
            return PixelOutcome::NotCovered;
        };
        // Traversal stays inside the framebuffer (at most 2047 × 1024), so both fit; a pixel
        // outside it (a direct caller) is reported as not covered rather than wrapped.
        let (Ok(fx), Ok(fy)) = (u16::try_from(x), u16::try_from(y)) else {
            return PixelOutcome::NotCovered;
        };
        let it = self.interp.at(b, self.cfg.depth_mode);
        let dc = self.cfg.depth_conversion;
        let early_depth = interp::depth_to_uint_with(it.depth, config::EARLY_DEPTH_BITS, dc);
        if let Some(func) = self.cfg.early_depth {
            if !early.passes(func, fx, fy, early_depth) {
                return PixelOutcome::EarlyDepthFail;
            }
        }
        let mut neighbours = || {
            let (rx, uy) = (x.saturating_add(1), y.saturating_add(1));
            let right = match cache.get(rx, y) {
                Some(v) => v,
                None => self.interp.tex_values(self.setup.weights(rx, y)?),
            };
            let up = self.interp.tex_values(self.setup.weights(x, uy)?);
            cache.put(x, uy, up);
            Some(interp::tex_deriv_from(&it.attr, &right, &up))
        };
        let tex_deriv = if self.cfg.tex_deriv {
            neighbours()
        } else {
            None
        }
        .unwrap_or([[crate::num::F24::ZERO; 4]; 3]);
        PixelOutcome::Fragment {
            fragment: Fragment {
                x: fx,
                y: fy,
                depth: interp::depth_to_uint_with(it.depth, self.cfg.depth_bits, dc),
                color: interp::color_of_with(&it.attr, self.cfg.color_conversion),
                attr: it.attr,
                tri: self.seq,
                tex_deriv,
            },
            early_depth,
        }
    }

    /// The pixel traversal examines after (`x`, `y`), `None` after the last.
    pub fn next_pixel(&self, x: i32, y: i32) -> Option<(i32, i32)> {
        let r = self.rect?;
        if x < r.x1 {
            Some((x + 1, y))
        } else if y < r.y1 {
            Some((r.x0, y + 1))
        } else {
            None
        }
    }

    /// The first pixel traversal examines.
    pub fn first_pixel(&self) -> Option<(i32, i32)> {
        self.rect.map(|r| (r.x0, r.y0))
    }

    /// Records that `outcome` was sent: a passing fragment updates the early-depth buffer when
    /// the test is on.
    pub fn commit(&self, outcome: &PixelOutcome, early: &mut EarlyDepthBuffer) {
        if let (
            PixelOutcome::Fragment {
                fragment,
                early_depth,
            },
            Some(_),
        ) = (outcome, self.cfg.early_depth)
        {
            early.store(fragment.x, fragment.y, *early_depth);
        }
    }
}

/// The texture coordinates of one centre ([`Interpolator::tex_values`]).
type TexValues = [crate::num::F24; 6];

/// One row of a [`NeighbourCache`]: which row it holds, and its values by column.
type CachedRow = (Option<i32>, Vec<Option<TexValues>>);

/// The texture coordinates ([`Interpolator::tex_values`]) at the pixel centres of the last
/// two rows for which one was computed as a neighbour, for [`PreparedTri::pixel_cached`].
/// Rows alternate between two slots by the parity of `y`; a slot is emptied when a new row
/// takes it. A pure memo: what it holds is what the interpolator gives again at that centre.
#[derive(Clone, Debug, Default)]
pub struct NeighbourCache {
    /// Leftmost column of the triangle's traversal (slot index 0).
    x0: i32,
    /// Columns per row.
    width: usize,
    /// Per slot: the row it holds, and its values by column.
    rows: [CachedRow; 2],
}

impl NeighbourCache {
    /// Empties the cache for a triangle traversing `rect` (plus the column right of it).
    pub fn reset(&mut self, rect: Option<PixelRect>) {
        let Some(r) = rect else {
            self.width = 0;
            self.rows = Default::default();
            return;
        };
        self.x0 = r.x0;
        // The right neighbour of the last column is one further; i64 avoids any overflow.
        self.width = usize::try_from(i64::from(r.x1) - i64::from(r.x0) + 2).unwrap_or(0);
        for (row, vals) in &mut self.rows {
            *row = None;
            vals.clear();
        }
    }

    fn column(&self, x: i32) -> Option<usize> {
        usize::try_from(i64::from(x) - i64::from(self.x0))
            .ok()
            .filter(|&c| c < self.width)
    }

    /// The values at centre (`x`, `y`), if held.
    fn get(&self, x: i32, y: i32) -> Option<TexValues> {
        let c = self.column(x)?;
        let (row, vals) = &self.rows[(y & 1) as usize];
        (*row == Some(y)).then(|| vals.get(c).copied().flatten())?
    }

    /// Keeps the values at centre (`x`, `y`).
    fn put(&mut self, x: i32, y: i32, v: TexValues) {
        let Some(c) = self.column(x) else {
            return;
        };
        let (row, vals) = &mut self.rows[(y & 1) as usize];
        if *row != Some(y) {
            *row = Some(y);
            vals.clear();
            vals.resize(self.width, None);
        }
        if let Some(slot) = vals.get_mut(c) {
            *slot = Some(v);
        }
    }
}

/// Rasterizes one triangle completely: the fragments in the order the stage sends them, with
/// the early-depth buffer read and updated as the stage does.
pub fn rasterize(tri: &ScreenTri, cfg: RastConfig, early: &mut EarlyDepthBuffer) -> Vec<Fragment> {
    let t = PreparedTri::new(tri, cfg);
    let mut cache = NeighbourCache::default();
    cache.reset(t.rect);
    let mut out = Vec::new();
    let mut cur = t.first_pixel();
    while let Some((x, y)) = cur {
        let o = t.pixel_cached(x, y, early, &mut cache);
        t.commit(&o, early);
        if let PixelOutcome::Fragment { fragment, .. } = o {
            out.push(fragment);
        }
        cur = t.next_pixel(x, y);
    }
    out
}

/// The triangle the stage is working on.
#[derive(Clone, Debug)]
struct Active {
    tri: PreparedTri,
    /// Setup cycles still to spend (the pop cycle counts as the first).
    setup_left: u32,
    /// The next pixel to examine (`None`: done).
    cursor: Option<(i32, i32)>,
}

/// Counters for reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RastStats {
    /// Triangles taken from CLIP.
    pub triangles: u64,
    /// Pixels examined (each costs a cycle).
    pub pixels: u64,
    /// Fragments sent to FOP.
    pub fragments: u64,
    /// Covered pixels the early depth test dropped.
    pub early_depth_dropped: u64,
    /// Cycles a fragment waited for room on the link to FOP.
    pub stalls: u64,
}

/// The RAST stage.
#[derive(Clone, Debug, Default)]
pub struct Rasterizer {
    active: Option<Active>,
    /// The active triangle's [`NeighbourCache`] (kept between triangles for its allocation).
    neighbours: NeighbourCache,
    early: EarlyDepthBuffer,
    /// Trigger events of the register file already handled.
    triggers_seen: usize,
    stats: RastStats,
}

impl Rasterizer {
    /// Power-on state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Advances one cycle.
    pub fn tick(&mut self, cycle: u64, mut ports: RastPorts<'_>) {
        self.take_triggers(ports.regs);
        if self.active.is_none() {
            if let Some(tri) = ports.input.pop() {
                let tri = PreparedTri::new(&tri, RastConfig::from_regs(ports.regs));
                tracing::trace!(target: "rast", cycle, seq = tri.seq, rect = ?tri.rect, "setup");
                self.stats.triangles += 1;
                self.neighbours.reset(tri.rect);
                self.active = Some(Active {
                    cursor: tri.first_pixel(),
                    tri,
                    setup_left: timing::RAST_SETUP_CYCLES,
                });
            }
        }
        let Some(a) = self.active.as_mut() else {
            return;
        };
        if a.setup_left > 0 {
            a.setup_left -= 1;
            if a.setup_left == 0 && a.cursor.is_none() {
                self.active = None;
            }
            return;
        }
        for _ in 0..timing::RAST_PIXELS_PER_CYCLE {
            let Some((x, y)) = a.cursor else {
                break;
            };
            let o = a.tri.pixel_cached(x, y, &self.early, &mut self.neighbours);
            match o {
                PixelOutcome::Fragment { fragment, .. } => {
                    if !ports.out.can_push() {
                        self.stats.stalls += 1;
                        return;
                    }
                    if ports.out.push(fragment).is_err() {
                        // can_push() said yes: unreachable unless the link is broken.
                        tracing::error!(target: "rast", cycle, "push into full link");
                        return;
                    }
                    a.tri.commit(&o, &mut self.early);
                    self.stats.fragments += 1;
                    if let Some(beats) = ports.beats.as_deref_mut() {
                        beats.push(fragment_beat(cycle, &fragment));
                    }
                }
                PixelOutcome::EarlyDepthFail => self.stats.early_depth_dropped += 1,
                PixelOutcome::Scissored | PixelOutcome::NotCovered => {}
            }
            self.stats.pixels += 1;
            a.cursor = a.tri.next_pixel(x, y);
        }
        if a.cursor.is_none() {
            tracing::trace!(target: "rast", cycle, seq = a.tri.seq, "retired");
            self.active = None;
        }
    }

    /// Handles the GPUREG_EARLYDEPTH_CLEAR events REGS logged since the last cycle.
    fn take_triggers(&mut self, regs: &RegFile) {
        for ev in regs.triggers_since(&mut self.triggers_seen) {
            if ev.trigger == Trigger::EarlyDepthClear {
                let v = regs::EarlydepthData(regs.reg(id::EARLYDEPTH_DATA.into())).clear_value();
                tracing::debug!(target: "rast", at = ev.cycle, value = v, "early depth clear");
                self.early.clear(v);
            }
        }
    }

    /// Whether nothing is in flight.
    pub fn is_idle(&self) -> bool {
        self.active.is_none()
    }

    /// The early-depth buffer.
    pub fn early_depth(&self) -> &EarlyDepthBuffer {
        &self.early
    }

    /// Counters since power-on.
    pub fn stats(&self) -> RastStats {
        self.stats
    }

    /// Internal state for reports.
    pub fn snapshot(&self) -> serde_json::Value {
        let active = self.active.as_ref().map(|a| {
            json!({
                "seq": a.tri.seq,
                "setup_left": a.setup_left,
                "cursor": a.cursor,
                "rect": a.tri.rect,
                "area2": a.tri.setup.area2,
                "vertices_12_4": a.tri.setup.pos,
                "config": a.tri.cfg,
            })
        });
        json!({
            "active": active,
            "early_depth": {
                "clear_value": self.early.clear_value(),
                "written": self.early.written(),
                "clears": self.early.clears(),
            },
            "triggers_seen": self.triggers_seen,
            "stats": self.stats,
        })
    }
}

/// The beat of a fragment sent in `cycle`.
pub fn fragment_beat(cycle: u64, f: &Fragment) -> FragmentBeat {
    FragmentBeat {
        cycle,
        tri: f.tri,
        x: f.x,
        y: f.y,
        depth: f.depth,
        color: u32::from_le_bytes(f.color),
        attr: f.attr.map(|a| a.bits()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cp::RegWrite;

    fn write(regs: &mut RegFile, id: u32, param: u32) {
        regs.apply(
            0,
            RegWrite {
                id,
                mask: 0xF,
                param,
            },
            &mut Vec::new(),
        );
    }

    #[test]
    fn rast_reads_only_config_regs() {
        use crate::num::F24;
        use crate::pipe::{OutVertex, ScreenVertex};
        let f = |x: f64| F24::from_f64_trunc(x);
        // Every register RAST reads set: a 32x32 D24 framebuffer, scissor inside, early depth
        // on (<=, cleared to 0x800000), w-buffer, texture unit 0 on (differences).
        let config = [
            (id::EARLYDEPTH_FUNC, 2),
            (id::EARLYDEPTH_TEST1, 1),
            (id::SCISSORTEST_MODE, 3),
            (id::SCISSORTEST_POS, 2 | 3 << 16),
            (id::SCISSORTEST_DIM, 28 | 27 << 16),
            (id::EARLYDEPTH_DATA, 0x80_0000),
            (id::DEPTHMAP_ENABLE, 0),
            (id::TEXUNIT_CONFIG, 1),
            (id::DEPTHBUFFER_FORMAT, 2),
            (id::EARLYDEPTH_TEST2, 1),
            (id::FRAMEBUFFER_DIM, 32 | 31 << 12),
        ];
        assert_eq!(
            config.iter().map(|c| c.0).collect::<Vec<_>>(),
            CONFIG_REGS.to_vec()
        );
        let vertex = |x: f64, y: f64, z: f64, w: f64| {
            let mut v = OutVertex::ONES;
            v.attr[crate::pipe::semantic::TEXCOORD0] = f(x / 32.0);
            v.attr[crate::pipe::semantic::COLOR] = f(y / 32.0);
            ScreenVertex {
                x: f(x),
                y: f(y),
                z: f(z),
                inv_w: f(1.0 / w),
                v,
            }
        };
        let tri = ScreenTri {
            seq: 3,
            v: [
                vertex(1.0, 0.5, 0.25, 1.0),
                vertex(30.5, 4.0, 0.5, 2.0),
                vertex(12.0, 31.0, 0.75, 4.0),
            ],
        };
        let run = |regs: &RegFile| {
            let mut early = EarlyDepthBuffer::new();
            early.clear(0x80_0000);
            rasterize(&tri, RastConfig::from_regs(regs), &mut early)
        };
        let base = run(&crate::pa::tests::regs_with(&config));
        assert!(base.len() > 20, "{} fragments", base.len());
        assert_eq!(
            run(&crate::pa::tests::noisy_regs(&config, &CONFIG_REGS)),
            base
        );
    }

    /// Traversal with the neighbour cache ([`rasterize`], the stage) gives the fragments of
    /// [`PreparedTri::pixel`] at every pixel (no cache), on random triangles whose texture
    /// coordinate sets repeat, differ or are constant, with early depth on.
    #[test]
    fn rast_neighbour_cache_changes_no_fragment() {
        use crate::num::F24;
        use crate::pipe::{semantic, OutVertex, ScreenVertex};
        let mut state = 0x1357_9BDF_u32;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        let f = |x: f64| F24::from_f64_trunc(x);
        let config = [
            (id::EARLYDEPTH_FUNC, 2),
            (id::EARLYDEPTH_TEST1, 1),
            (id::TEXUNIT_CONFIG, 7),
            (id::DEPTHBUFFER_FORMAT, 2),
            (id::EARLYDEPTH_TEST2, 1),
            (id::FRAMEBUFFER_DIM, 48 | 47 << 12),
        ];
        let cfg = RastConfig::from_regs(&crate::pa::tests::regs_with(&config));
        assert!(cfg.tex_deriv);
        let mut fragments = 0;
        for case in 0..200 {
            let mut vertex = |_| {
                let mut v = OutVertex::ONES;
                let mut r = |scale: f64| f(f64::from(next() % 4096) / 4096.0 * scale);
                v.attr[semantic::TEXCOORD0] = r(4.0);
                v.attr[semantic::TEXCOORD0 + 1] = r(4.0);
                // Set 1 a copy of set 0 or its own; set 2 constant or its own.
                let (u, w) = (v.attr[semantic::TEXCOORD0], v.attr[semantic::TEXCOORD0 + 1]);
                v.attr[semantic::TEXCOORD1] = if case % 2 == 0 { u } else { r(2.0) };
                v.attr[semantic::TEXCOORD1 + 1] = if case % 2 == 0 { w } else { r(2.0) };
                v.attr[semantic::TEXCOORD2] = if case % 3 == 0 { F24::ONE } else { r(8.0) };
                ScreenVertex {
                    x: r(48.0),
                    y: r(48.0),
                    z: r(1.0),
                    inv_w: f(1.0 / (1.0 + f64::from(next() % 8))),
                    v,
                }
            };
            let tri = ScreenTri {
                seq: case,
                v: [vertex(0), vertex(1), vertex(2)],
            };
            let mut early = EarlyDepthBuffer::new();
            early.clear(0x80_0000);
            let cached = rasterize(&tri, cfg, &mut early);
            // The same walk, one uncached `pixel` per pixel.
            let t = PreparedTri::new(&tri, cfg);
            let mut early = EarlyDepthBuffer::new();
            early.clear(0x80_0000);
            let mut plain = Vec::new();
            let mut cur = t.first_pixel();
            while let Some((x, y)) = cur {
                let o = t.pixel(x, y, &early);
                t.commit(&o, &mut early);
                if let PixelOutcome::Fragment { fragment, .. } = o {
                    plain.push(fragment);
                }
                cur = t.next_pixel(x, y);
            }
            assert_eq!(cached, plain, "case {case}");
            fragments += cached.len();
        }
        assert!(fragments > 1_000, "{fragments} fragments");
    }

    #[test]
    fn rast_early_depth_clear_once_per_trigger_event() {
        let mut regs = RegFile::new();
        write(&mut regs, u32::from(id::EARLYDEPTH_DATA), 0x12_3456);
        write(&mut regs, u32::from(id::EARLYDEPTH_CLEAR), 1);
        write(&mut regs, u32::from(id::EARLYDEPTH_CLEAR), 0); // every write clears
        let mut r = Rasterizer::new();
        let mut input = Link::new("in", 2);
        let mut out = Link::new("out", 2);
        for cycle in 0..3 {
            input.begin_cycle();
            out.begin_cycle();
            r.tick(
                cycle,
                RastPorts {
                    regs: &regs,
                    input: &mut input,
                    out: &mut out,
                    beats: None,
                },
            );
        }
        assert_eq!(r.early_depth().clears(), 2);
        assert_eq!(r.early_depth().clear_value(), 0x12_3456);
        assert!(r.is_idle());
        // A fresh register file (shorter log): its events are handled from the start.
        let mut regs = RegFile::new();
        write(&mut regs, u32::from(id::EARLYDEPTH_DATA), 0x42);
        write(&mut regs, u32::from(id::EARLYDEPTH_CLEAR), 1);
        input.begin_cycle();
        out.begin_cycle();
        r.tick(
            3,
            RastPorts {
                regs: &regs,
                input: &mut input,
                out: &mut out,
                beats: None,
            },
        );
        assert_eq!(r.early_depth().clears(), 3);
        assert_eq!(r.early_depth().clear_value(), 0x42);
        assert_eq!(r.snapshot()["triggers_seen"], 1);
    }
}
