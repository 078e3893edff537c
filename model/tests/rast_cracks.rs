//! The no-crack property of RAST on whole meshes: the triangles of a mesh that share edges and
//! vertices cover every pixel of their union exactly once — no cracks, no double hits.
//!
//! Random meshes (jittered grids with random diagonals, strips, closed fans with a shared
//! vertex of valence up to 16, convex polygons fanned from one vertex, ear-clipped star
//! polygons; long thin slivers; vertices on pixel centres, on the 12.4 grid points next to
//! centres and on 12.4 rounding ties; both windings, every vertex order) are drawn with
//! [`rasterize`], triangle by triangle, and the coverage counts are compared with an
//! independent reference: the winding number of the mesh's boundary polygon, in exact integer
//! 12.4 arithmetic. A pixel whose centre lies strictly inside the union (on interior edges and
//! shared vertices too) must be drawn exactly once, one strictly outside never, one on the
//! boundary at most once.
//!
//! The meshes of every other seed are also lifted to clip space (a random viewport that cuts the
//! mesh, per-vertex w, a depth that crosses the planes z = 0 and z = -w, sometimes the user
//! clip plane) and drawn through [`clip::process`] then [`rasterize`]: the clipped fans must
//! tile too, but for the known cracks of CLIP's direction-dependent crossing
//! ([`KNOWN_CLIPPED_CRACKS`]). There the reference is host `f64` geometry with a margin (0.3 pixel) to the mesh
//! boundary and to every clip line: pixels clearly inside exactly once, clearly outside never,
//! anything else at most once.
//!
//! Mesh `i` is generated from seed `i`. `PICA_RAST_MESHES=N` sets how many run (default
//! [`DEFAULT_MESHES`]); `PICA_RAST_MESH_SEED=S` runs from seed S. A failure is shrunk (by
//! removing triangles while the mesh stays a valid tiling and still fails) and printed whole.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use pica_model::clip;
use pica_model::cp::RegWrite;
use pica_model::num::F24;
use pica_model::pipe::{semantic, OutVertex, ScreenTri, ScreenVertex, Triangle};
use pica_model::rast::config::Words;
use pica_model::rast::{rasterize, EarlyDepthBuffer, RastConfig};
use pica_model::regfile::RegFile;
use pica_model::regs::id;

/// Meshes a plain `cargo test` runs (about a second in the test profile; 10,000 is the
/// figure the property is claimed for: `PICA_RAST_MESHES=10000`).
const DEFAULT_MESHES: u64 = 1000;

/// The framebuffer: `FB` × `FB` pixels.
const FB: i64 = 320;

/// Sub-pixel units of the generated coordinates: 1/256 pixel, so that the f24 → 12.4
/// conversion has to round (ties included). Every coordinate is below 512 pixels, so exact
/// in f24.
const FINE: i64 = 256;

/// The margin of the clip-space reference, in pixels.
const MARGIN: f64 = 0.3;

// ---------------------------------------------------------------- random numbers

/// SplitMix64: deterministic, no dependencies.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) ^ 0x9E37_79B9_7F4A_7C15)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

// ---------------------------------------------------------------- meshes

/// A mesh in window coordinates.
#[derive(Clone, Debug)]
struct Mesh {
    /// Which generator made it.
    kind: &'static str,
    /// Vertex positions in 1/256 pixel.
    v: Vec<[i64; 2]>,
    /// Triangles as vertex indices, all with the same orientation (a consistently oriented
    /// triangulated disc).
    tris: Vec<[usize; 3]>,
    /// The vertex order each triangle is drawn in (0-5: the six permutations; 3-5 reverse
    /// the winding).
    order: Vec<u8>,
}

/// The `k`-th permutation of a triangle's vertices (0-2 keep the winding, 3-5 reverse it).
fn permute<T: Copy>(t: [T; 3], k: u8) -> [T; 3] {
    let [a, b, c] = t;
    match k % 6 {
        0 => [a, b, c],
        1 => [b, c, a],
        2 => [c, a, b],
        3 => [a, c, b],
        4 => [c, b, a],
        _ => [b, a, c],
    }
}

/// A 1/256-pixel coordinate in 12.4 units: `round(v / 16)`, halves away from zero — the
/// model's `to_fix12p4` rule, restated on integers.
fn q(v: i64) -> i64 {
    if v >= 0 {
        (v + 8) / 16
    } else {
        -((-v + 8) / 16)
    }
}

fn q2(p: [i64; 2]) -> [i64; 2] {
    [q(p[0]), q(p[1])]
}

/// (b - a) × (c - a), exactly.
fn orient(a: [i64; 2], b: [i64; 2], c: [i64; 2]) -> i64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// Moves a 1/256-pixel coordinate onto a special point near it: a pixel centre, a 12.4 grid
/// point next to a centre, a 12.4 rounding tie, or leaves it.
fn snap(rng: &mut Rng, v: i64) -> i64 {
    let centre = v.div_euclid(FINE) * FINE + FINE / 2;
    match rng.below(8) {
        0 | 1 => centre,
        2 => centre + 16 * if rng.chance(1, 2) { 1 } else { -1 },
        3 => v.div_euclid(16) * 16 + 8,
        4 => v.div_euclid(16) * 16,
        _ => v,
    }
}

fn snap_point(rng: &mut Rng, p: [i64; 2], how: u64) -> [i64; 2] {
    match how {
        // Both coordinates special (vertex exactly on a centre, etc.).
        0 => {
            let k = rng.next();
            let mut r = Rng::new(k);
            let x = snap(&mut r, p[0]);
            let mut r = Rng::new(k);
            [x, snap(&mut r, p[1])]
        }
        1 => [snap(rng, p[0]), snap(rng, p[1])],
        _ => p,
    }
}

/// Side lengths (1/256 pixel) of grid cells: tiny, ordinary, or slivers.
fn cell_size(rng: &mut Rng) -> (i64, i64) {
    match rng.below(5) {
        0 => (rng.range(16, 2 * FINE), rng.range(16, 2 * FINE)),
        1 => (rng.range(FINE, 24 * FINE), rng.range(FINE, 24 * FINE)),
        2 => (rng.range(8 * FINE, 60 * FINE), rng.range(16, 96)),
        3 => (rng.range(16, 96), rng.range(8 * FINE, 60 * FINE)),
        _ => (
            rng.range(2 * FINE, 12 * FINE),
            rng.range(2 * FINE, 12 * FINE),
        ),
    }
}

fn origin(rng: &mut Rng) -> [i64; 2] {
    [
        rng.range(-8 * FINE, 120 * FINE),
        rng.range(-8 * FINE, 120 * FINE),
    ]
}

/// A jittered grid of `nx` × `ny` cells, each split along a random diagonal. With `ny = 1`
/// and `strip`, the triangles come in strip order.
fn grid(rng: &mut Rng, strip: bool) -> Mesh {
    let (cw, ch) = cell_size(rng);
    let nx = rng.range(1, (180 * FINE / cw).clamp(1, if strip { 16 } else { 8 }));
    let ny = if strip {
        1
    } else {
        rng.range(1, (180 * FINE / ch).clamp(1, 8))
    };
    let o = origin(rng);
    let jitter = match rng.below(3) {
        0 => 0,
        1 => 8,
        _ => 3,
    };
    let snap_how = rng.below(3);
    let mut v = Vec::new();
    for j in 0..=ny {
        for i in 0..=nx {
            let mut p = [o[0] + i * cw, o[1] + j * ch];
            if jitter > 0 {
                let (ax, ay) = (cw / jitter, ch / jitter);
                p[0] += rng.range(-ax, ax);
                p[1] += rng.range(-ay, ay);
            }
            v.push(snap_point(rng, p, snap_how));
        }
    }
    let at = |i: i64, j: i64| (j * (nx + 1) + i) as usize;
    let mut tris = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
            if rng.chance(1, 2) {
                tris.push([a, b, c]);
                tris.push([a, c, d]);
            } else {
                tris.push([a, b, d]);
                tris.push([b, c, d]);
            }
        }
    }
    Mesh {
        kind: if strip { "strip" } else { "grid" },
        v,
        tris,
        order: Vec::new(),
    }
}

/// `k` sorted angles whose largest gap (cyclically) is below π.
fn angles(rng: &mut Rng, k: usize, closed: bool) -> Vec<f64> {
    loop {
        let mut a: Vec<f64> = (0..k)
            .map(|_| rng.uniform(0.0, std::f64::consts::TAU))
            .collect();
        a.sort_by(f64::total_cmp);
        if !closed {
            return a;
        }
        let gap = (0..k)
            .map(|i| {
                let next = if i + 1 < k {
                    a[i + 1]
                } else {
                    a[0] + std::f64::consts::TAU
                };
                next - a[i]
            })
            .fold(0.0, f64::max);
        if gap < std::f64::consts::PI - 0.05 {
            return a;
        }
    }
}

fn polar(c: [i64; 2], r: f64, a: f64) -> [i64; 2] {
    [
        c[0] + (r * a.cos() * FINE as f64).round() as i64,
        c[1] + (r * a.sin() * FINE as f64).round() as i64,
    ]
}

/// A closed fan: one centre vertex (often exactly on a pixel centre) shared by `k` triangles.
fn fan(rng: &mut Rng) -> Mesh {
    let c0 = [rng.range(20, 160) * FINE, rng.range(20, 160) * FINE];
    let c = snap_point(rng, c0, 0);
    let c = if rng.chance(1, 2) {
        [
            c[0].div_euclid(FINE) * FINE + FINE / 2,
            c[1].div_euclid(FINE) * FINE + FINE / 2,
        ]
    } else {
        c
    };
    let k = rng.range(3, 16) as usize;
    let a = angles(rng, k, true);
    let rmax = [1.0, 6.0, 40.0][rng.below(3) as usize];
    let snap_how = rng.below(3);
    let mut v = vec![c];
    for &ai in &a {
        let p = polar(c, rng.uniform(0.1, rmax), ai);
        v.push(snap_point(rng, p, snap_how));
    }
    let tris = (0..k).map(|i| [0, 1 + i, 1 + (i + 1) % k]).collect();
    Mesh {
        kind: "fan",
        v,
        tris,
        order: Vec::new(),
    }
}

/// The points of a random ellipse (possibly very flat: slivers).
fn ellipse_points(rng: &mut Rng, k: usize) -> Vec<[i64; 2]> {
    let c = [rng.range(20, 160) * FINE, rng.range(20, 160) * FINE];
    let ra = rng.uniform(0.5, 60.0);
    let rb = if rng.chance(1, 3) {
        rng.uniform(0.05, 1.0)
    } else {
        rng.uniform(0.5, 60.0)
    };
    let rot = rng.uniform(0.0, std::f64::consts::PI);
    let snap_how = rng.below(3);
    let a = angles(rng, k, false);
    a.iter()
        .map(|&t| {
            let (x, y) = (ra * t.cos(), rb * t.sin());
            let p = [
                c[0] + ((x * rot.cos() - y * rot.sin()) * FINE as f64).round() as i64,
                c[1] + ((x * rot.sin() + y * rot.cos()) * FINE as f64).round() as i64,
            ];
            snap_point(rng, p, snap_how)
        })
        .collect()
}

/// A convex polygon fanned from one vertex (the vertex shared by every triangle).
fn convex(rng: &mut Rng) -> Mesh {
    let k = rng.range(3, 14) as usize;
    let v = ellipse_points(rng, k);
    let tris = (1..k - 1).map(|i| [0, i, i + 1]).collect();
    Mesh {
        kind: "convex",
        v,
        tris,
        order: Vec::new(),
    }
}

/// A random star-shaped polygon, triangulated by ear clipping (in 12.4 units, exactly).
fn polygon(rng: &mut Rng) -> Mesh {
    let k = rng.range(4, 18) as usize;
    let c = [rng.range(30, 150) * FINE, rng.range(30, 150) * FINE];
    let a = angles(rng, k, true);
    let rmax = [4.0, 30.0][rng.below(2) as usize];
    let snap_how = rng.below(3);
    let v: Vec<[i64; 2]> = a
        .iter()
        .map(|&t| {
            let p = polar(c, rng.uniform(0.2, 1.0) * rmax, t);
            snap_point(rng, p, snap_how)
        })
        .collect();
    let qv: Vec<[i64; 2]> = v.iter().map(|&p| q2(p)).collect();
    let mut left: Vec<usize> = (0..k).collect();
    let mut tris = Vec::new();
    let start = rng.below(k as u64) as usize;
    left.rotate_left(start);
    while left.len() > 3 {
        let n = left.len();
        let ear = (0..n).find(|&i| {
            let (a, b, c) = (left[(i + n - 1) % n], left[i], left[(i + 1) % n]);
            if orient(qv[a], qv[b], qv[c]) <= 0 {
                return false;
            }
            left.iter().all(|&o| {
                o == a
                    || o == b
                    || o == c
                    || !(orient(qv[a], qv[b], qv[o]) >= 0
                        && orient(qv[b], qv[c], qv[o]) >= 0
                        && orient(qv[c], qv[a], qv[o]) >= 0)
            })
        });
        let Some(i) = ear else {
            // Not a simple polygon after quantization: return what we have (invalid;
            // the validity check rejects it).
            break;
        };
        tris.push([left[(i + n - 1) % n], left[i], left[(i + 1) % n]]);
        left.remove(i);
    }
    if left.len() == 3 {
        tris.push([left[0], left[1], left[2]]);
    }
    Mesh {
        kind: "polygon",
        v,
        tris,
        order: Vec::new(),
    }
}

/// Mesh `seed`: a random kind, sometimes mirrored (the other orientation), every triangle in
/// a random vertex order. Retries until the mesh is a valid tiling in 12.4 units.
fn generate(seed: u64) -> (Mesh, Boundary) {
    let mut rng = Rng::new(seed);
    for _ in 0..1000 {
        let mut m = match rng.below(6) {
            0 | 1 => grid(&mut rng, false),
            2 => grid(&mut rng, true),
            3 => fan(&mut rng),
            4 => convex(&mut rng),
            _ => polygon(&mut rng),
        };
        if rng.chance(1, 2) {
            let mx = rng.range(150, 250) * FINE + rng.range(0, FINE - 1);
            for p in &mut m.v {
                p[0] = mx - p[0];
            }
        }
        m.order = (0..m.tris.len()).map(|_| rng.below(6) as u8).collect();
        if let Ok(b) = check_mesh(&m) {
            return (m, b);
        }
    }
    panic!("seed {seed}: no valid mesh in 1000 tries");
}

// ---------------------------------------------------------------- validity, reference

/// The boundary of a valid mesh: its vertex cycle, in 12.4 units.
#[derive(Clone, Debug)]
struct Boundary {
    cycle: Vec<[i64; 2]>,
    /// The cycle's vertex indices.
    idx: Vec<usize>,
}

/// Whether closed segments a-b and c-d share a point (exactly).
fn segments_touch(a: [i64; 2], b: [i64; 2], c: [i64; 2], d: [i64; 2]) -> bool {
    let (o1, o2) = (orient(a, b, c).signum(), orient(a, b, d).signum());
    let (o3, o4) = (orient(c, d, a).signum(), orient(c, d, b).signum());
    if o1 * o2 < 0 && o3 * o4 < 0 {
        return true;
    }
    let on = |p: [i64; 2], s: [i64; 2], e: [i64; 2]| {
        orient(s, e, p) == 0
            && p[0] >= s[0].min(e[0])
            && p[0] <= s[0].max(e[0])
            && p[1] >= s[1].min(e[1])
            && p[1] <= s[1].max(e[1])
    };
    on(c, a, b) || on(d, a, b) || on(a, c, d) || on(b, c, d)
}

/// Checks that the mesh is a consistently oriented triangulated disc whose triangles all have
/// the same non-zero orientation in 12.4 units and whose boundary is a simple polygon: then it
/// tiles the boundary polygon's interior exactly once (a degree argument). Returns the
/// boundary.
fn check_mesh(m: &Mesh) -> Result<Boundary, String> {
    if m.tris.is_empty() {
        return Err("no triangles".into());
    }
    let p: Vec<[i64; 2]> = m.v.iter().map(|&v| q2(v)).collect();
    if m.v.iter().any(|v| v.iter().any(|&c| c.abs() >= 500 * FINE)) {
        return Err("coordinate out of range".into());
    }
    let s0 = orient(p[m.tris[0][0]], p[m.tris[0][1]], p[m.tris[0][2]]).signum();
    if s0 == 0 {
        return Err("degenerate".into());
    }
    let mut directed = HashSet::new();
    let mut used = HashSet::new();
    for t in &m.tris {
        if orient(p[t[0]], p[t[1]], p[t[2]]).signum() != s0 {
            return Err(format!("triangle {t:?} flipped or degenerate"));
        }
        for i in 0..3 {
            used.insert(t[i]);
            if !directed.insert((t[i], t[(i + 1) % 3])) {
                return Err("directed edge twice".into());
            }
        }
    }
    let mut next = HashMap::new();
    let mut edges = HashSet::new();
    for &(a, b) in &directed {
        edges.insert((a.min(b), a.max(b)));
        if !directed.contains(&(b, a)) && next.insert(a, b).is_some() {
            return Err("pinched boundary vertex".into());
        }
    }
    let euler = used.len() as i64 - edges.len() as i64 + m.tris.len() as i64;
    if euler != 1 {
        return Err(format!("Euler characteristic {euler}"));
    }
    let Some(&first) = next.keys().min() else {
        return Err("no boundary".into());
    };
    let mut cycle = vec![first];
    let mut cur = first;
    loop {
        cur = next[&cur];
        if cur == first {
            break;
        }
        if cycle.len() > next.len() {
            return Err("boundary does not close".into());
        }
        cycle.push(cur);
    }
    if cycle.len() != next.len() {
        return Err("more than one boundary cycle".into());
    }
    let pts: Vec<[i64; 2]> = cycle.iter().map(|&i| p[i]).collect();
    let n = pts.len();
    for i in 0..n {
        let (a, b) = (pts[i], pts[(i + 1) % n]);
        let c = pts[(i + 2) % n];
        // Adjacent segments folding back onto each other.
        let (u, w) = ([a[0] - b[0], a[1] - b[1]], [c[0] - b[0], c[1] - b[1]]);
        if u[0] * w[1] - u[1] * w[0] == 0 && u[0] * w[0] + u[1] * w[1] > 0 {
            return Err("boundary folds back".into());
        }
        for j in i + 2..n {
            if (j + 1) % n == i {
                continue;
            }
            if segments_touch(a, b, pts[j], pts[(j + 1) % n]) {
                return Err("boundary not simple".into());
            }
        }
    }
    Ok(Boundary {
        cycle: pts,
        idx: cycle,
    })
}

/// What a pixel's coverage count must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Zero,
    One,
    AtMostOne,
}

impl Expect {
    fn allows(self, n: u32) -> bool {
        match self {
            Expect::Zero => n == 0,
            Expect::One => n == 1,
            Expect::AtMostOne => n <= 1,
        }
    }
}

/// The exact reference at the 12.4 point `s`: on the boundary at most once, else the
/// winding number of the boundary polygon (0 or ±1).
fn expect_exact(b: &Boundary, s: [i64; 2]) -> Expect {
    let n = b.cycle.len();
    let mut wn = 0i32;
    for i in 0..n {
        let (a, e) = (b.cycle[i], b.cycle[(i + 1) % n]);
        let o = orient(a, e, s);
        if o == 0
            && s[0] >= a[0].min(e[0])
            && s[0] <= a[0].max(e[0])
            && s[1] >= a[1].min(e[1])
            && s[1] <= a[1].max(e[1])
        {
            return Expect::AtMostOne;
        }
        if a[1] <= s[1] {
            if e[1] > s[1] && o > 0 {
                wn += 1;
            }
        } else if e[1] <= s[1] && o < 0 {
            wn -= 1;
        }
    }
    match wn.abs() {
        0 => Expect::Zero,
        1 => Expect::One,
        w => panic!("winding number {w} of a valid mesh"),
    }
}

// ---------------------------------------------------------------- drawing

/// The exact f24 value of a 1/256-pixel coordinate.
fn fine_f24(v: i64) -> F24 {
    let x = v as f64 / FINE as f64;
    let f = F24::from_f64_trunc(x);
    assert_eq!(f.to_f64(), x, "{v}/256 is not an f24 value");
    f
}

/// A `FB` × `FB` D24 framebuffer, z-buffer, no scissor, no early depth, no texture units.
fn rast_config() -> RastConfig {
    RastConfig::from_words(Words {
        framebuffer_dim: FB as u32 | ((FB as u32 - 1) << 12) | (1 << 24),
        depthbuffer_format: 2,
        depthmap_enable: 1,
        ..Words::default()
    })
}

/// Coverage counts, `FB` × `FB`, with the triangles that drew each pixel.
struct Coverage {
    count: HashMap<(u16, u16), Vec<usize>>,
}

impl Coverage {
    fn new() -> Self {
        Self {
            count: HashMap::new(),
        }
    }

    fn add(&mut self, tri: usize, frags: &[pica_model::pipe::Fragment]) {
        for f in frags {
            self.count.entry((f.x, f.y)).or_default().push(tri);
        }
    }

    fn at(&self, x: i64, y: i64) -> u32 {
        self.count
            .get(&(x as u16, y as u16))
            .map_or(0, |v| v.len() as u32)
    }
}

/// Draws every triangle straight into RAST (window coordinates exactly the mesh's).
fn draw_direct(m: &Mesh) -> Coverage {
    let cfg = rast_config();
    let mut cov = Coverage::new();
    for (i, (t, &k)) in m.tris.iter().zip(&m.order).enumerate() {
        let v = permute(*t, k).map(|vi| ScreenVertex {
            x: fine_f24(m.v[vi][0]),
            y: fine_f24(m.v[vi][1]),
            z: F24::from_f64_trunc(0.5),
            inv_w: F24::ONE,
            v: OutVertex::ONES,
        });
        let st = ScreenTri { seq: i as u32, v };
        cov.add(i, &rasterize(&st, cfg, &mut EarlyDepthBuffer::new()));
    }
    cov
}

/// The first pixel whose count the exact reference does not allow.
fn check_direct(m: &Mesh, b: &Boundary) -> Option<String> {
    let cov = draw_direct(m);
    let xs = b.cycle.iter().map(|p| p[0]);
    let ys = b.cycle.iter().map(|p| p[1]);
    let lo = |v: i64| (v.div_euclid(16) - 1).max(0);
    let hi = |v: i64| (v.div_euclid(16) + 1).min(FB - 1);
    let (x0, x1) = (lo(xs.clone().min()?), hi(xs.max()?));
    let (y0, y1) = (lo(ys.clone().min()?), hi(ys.max()?));
    for (&(x, y), by) in &cov.count {
        let (x, y) = (i64::from(x), i64::from(y));
        if x < x0 || x > x1 || y < y0 || y > y1 {
            return Some(format!("pixel ({x}, {y}) outside the mesh drawn by {by:?}"));
        }
    }
    for y in y0..=y1 {
        for x in x0..=x1 {
            let e = expect_exact(b, [16 * x + 8, 16 * y + 8]);
            let n = cov.at(x, y);
            if !e.allows(n) {
                let by = cov.count.get(&(x as u16, y as u16)).cloned();
                return Some(format!(
                    "pixel ({x}, {y}) drawn {n} times (by triangles {by:?}), expected {e:?}"
                ));
            }
        }
    }
    None
}

// ---------------------------------------------------------------- clip space

/// A mesh lifted to clip space, with the registers CLIP reads.
#[derive(Clone, Debug)]
struct Lifted {
    regs: Vec<(u16, u32)>,
    /// Clip-space vertices (every semantic), one per mesh vertex.
    v: Vec<OutVertex>,
    /// The user plane, when on.
    user: Option<[F24; 4]>,
}

fn reg_file(writes: &[(u16, u32)]) -> RegFile {
    let mut r = RegFile::new();
    for &(reg, value) in writes {
        r.apply(
            0,
            RegWrite {
                id: reg.into(),
                mask: 0xF,
                param: value,
            },
            &mut Vec::new(),
        );
    }
    r
}

/// Lifts mesh `m` to clip space: a viewport that cuts it, a per-vertex w, a depth that
/// crosses z = 0 and z = -w, sometimes the user plane through it.
fn lift(rng: &mut Rng, m: &Mesh) -> Lifted {
    let t = |x: f64| F24::from_f64_trunc(x);
    let xs = m.v.iter().map(|p| p[0] / FINE);
    let ys = m.v.iter().map(|p| p[1] / FINE);
    let (mx0, mx1) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
    let (my0, my1) = (ys.clone().min().unwrap_or(0), ys.max().unwrap_or(0));
    // A viewport edge inside the mesh's extent (or not), sizes powers of two or any integer.
    let axis = |rng: &mut Rng, lo: i64, hi: i64| -> (i64, i64) {
        let half = if rng.chance(1, 2) {
            1 << rng.range(3, 7)
        } else {
            rng.range(((hi - lo) / 2).clamp(8, 150), 160)
        };
        let edge = rng.range(lo - 4, hi + 4);
        let off = match rng.below(3) {
            0 => edge,
            1 => edge - 2 * half,
            // The whole extent inside (if it fits): no clipping on this axis.
            _ => (lo + hi) / 2 - half,
        };
        (half, off.clamp(-512, 511))
    };
    let (hw, ox) = axis(rng, mx0, mx1);
    let (hh, oy) = axis(rng, my0, my1);
    let (gx, gy) = (rng.uniform(-0.03, 0.03), rng.uniform(-0.03, 0.03));
    let cx = rng.uniform(-1.6, 0.6);
    let (cxm, cym) = ((mx0 + mx1) as f64 / 2.0, (my0 + my1) as f64 / 2.0);
    let w_mode = rng.below(3);
    let mut ndc = Vec::new();
    let v: Vec<OutVertex> =
        m.v.iter()
            .map(|p| {
                let (x, y) = (p[0] as f64 / FINE as f64, p[1] as f64 / FINE as f64);
                let w = match w_mode {
                    0 => 1.0,
                    1 => rng.uniform(0.25, 4.0),
                    _ => 1.0 + 0.02 * (x - cxm) - 0.01 * (y - cym).abs().min(40.0),
                }
                .max(0.25);
                let nx = (x - ox as f64) / hw as f64 - 1.0;
                let ny = (y - oy as f64) / hh as f64 - 1.0;
                let nz = cx + gx * (x - cxm) + gy * (y - cym) + rng.uniform(-0.2, 0.2);
                ndc.push([nx, ny, nz]);
                let mut o = OutVertex::ONES;
                o.attr[semantic::POSITION] = t(nx * w);
                o.attr[semantic::POSITION + 1] = t(ny * w);
                o.attr[semantic::POSITION + 2] = t(nz * w);
                o.attr[semantic::POSITION + 3] = t(w);
                for s in semantic::QUATERNION..pica_model::pipe::NUM_SEMANTICS {
                    o.attr[s] = t(rng.uniform(-1.0, 1.0));
                }
                for c in 0..4 {
                    o.attr[semantic::COLOR + c] = t(rng.unit());
                }
                o
            })
            .collect();
    let user = rng.chance(1, 3).then(|| {
        let c: [f64; 3] = [
            rng.uniform(-1.0, 1.0),
            rng.uniform(-1.0, 1.0),
            rng.uniform(-0.5, 0.5),
        ];
        let at = ndc[rng.below(ndc.len() as u64) as usize];
        let c3 = -(c[0] * at[0] + c[1] * at[1] + c[2] * at[2]) + rng.uniform(-0.05, 0.05);
        [t(c[0]), t(c[1]), t(c[2]), t(c3)]
    });
    let bits = |x: i64| (x as u32) & 0x3FF;
    let mut regs = vec![
        (id::FACECULLING_CONFIG, 0),
        (id::VIEWPORT_WIDTH, t(hw as f64).bits()),
        (id::VIEWPORT_HEIGHT, t(hh as f64).bits()),
        (id::VIEWPORT_XY, bits(ox) | bits(oy) << 16),
        (id::DEPTHMAP_SCALE, t(-1.0).bits()),
        (id::DEPTHMAP_OFFSET, 0),
        (id::FRAGOP_CLIP, u32::from(user.is_some())),
    ];
    if let Some(c) = user {
        for (i, ci) in c.iter().enumerate() {
            regs.push((id::FRAGOP_CLIP_DATA0 + i as u16, ci.bits()));
        }
    }
    Lifted { regs, v, user }
}

/// The clip-space mesh's window geometry in host `f64`, for the reference.
struct Projected {
    /// Window position per vertex.
    p: Vec<[f64; 2]>,
    /// Per vertex, the clip planes' distances divided by w (screen-affine inside a
    /// triangle): x ≤ w, x ≥ -w, y ≤ w, y ≥ -w, z ≤ 0, z ≥ -w, w ≥ ε, user.
    g: Vec<[f64; 8]>,
}

fn project(l: &Lifted) -> Projected {
    let rf = reg_file(&l.regs);
    let vp = clip::Viewport::from_regs(&rf);
    let eps = clip::W_EPSILON.to_f64();
    let mut p = Vec::new();
    let mut g = Vec::new();
    for v in &l.v {
        let [x, y, z, w] = v.position().map(F24::to_f64);
        p.push([
            (x / w + 1.0) * vp.half_width.to_f64() + vp.x.to_f64(),
            (y / w + 1.0) * vp.half_height.to_f64() + vp.y.to_f64(),
        ]);
        let user = l.user.map_or(1.0, |c| {
            let c = c.map(F24::to_f64);
            (c[0] * x + c[1] * y + c[2] * z + c[3] * w) / w
        });
        g.push([
            1.0 - x / w,
            1.0 + x / w,
            1.0 - y / w,
            1.0 + y / w,
            -z / w,
            1.0 + z / w,
            1.0 - eps / w,
            user,
        ]);
    }
    Projected { p, g }
}

fn cross(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

fn seg_dist(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let l2 = dx * dx + dy * dy;
    let t = if l2 > 0.0 {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((p[0] - a[0] - t * dx).powi(2) + (p[1] - a[1] - t * dy).powi(2)).sqrt()
}

/// Whether the projected mesh is safely a tiling (every triangle clearly the mesh's
/// orientation, no sliver that f24 rounding could flip).
fn projected_ok(m: &Mesh, pr: &Projected, sign: i64) -> bool {
    m.tris.iter().all(|t| {
        let [a, b, c] = t.map(|i| pr.p[i]);
        let area = cross(a, b, c) * sign as f64;
        let longest = [seg_dist(a, b, b), seg_dist(b, c, c), seg_dist(c, a, a)]
            .into_iter()
            .fold(0.0, f64::max);
        area > 0.0 && area / longest > 0.5
    })
}

/// Draws every triangle through CLIP then RAST; also counts the window-space triangles and the
/// input triangles CLIP cut (some output vertex is new).
fn draw_clipped(m: &Mesh, l: &Lifted) -> (Coverage, usize, usize) {
    let rf = reg_file(&l.regs);
    let cfg = rast_config();
    let mut cov = Coverage::new();
    let (mut pieces, mut cut) = (0, 0);
    for (i, (t, &k)) in m.tris.iter().zip(&m.order).enumerate() {
        let tri = Triangle {
            seq: i as u32,
            v: permute(*t, k).map(|vi| l.v[vi]),
        };
        let out = clip::process(&rf, &tri);
        if out
            .iter()
            .flat_map(|st| st.v.iter())
            .any(|sv| !tri.v.contains(&sv.v))
        {
            cut += 1;
        }
        for st in out {
            pieces += 1;
            cov.add(i, &rasterize(&st, cfg, &mut EarlyDepthBuffer::new()));
        }
    }
    (cov, pieces, cut)
}

/// The first pixel whose count the `f64` clip-space reference does not allow.
fn check_clipped(m: &Mesh, b: &Boundary, l: &Lifted) -> Option<String> {
    let pr = project(l);
    let (cov, _, _) = draw_clipped(m, l);
    // Which triangle holds each pixel centre (f64 barycentrics), and its plane distances.
    let mut holder: HashMap<(i64, i64), usize> = HashMap::new();
    for (ti, t) in m.tris.iter().enumerate() {
        let [a, bb, c] = t.map(|i| pr.p[i]);
        let area = cross(a, bb, c);
        let x0 = (a[0].min(bb[0]).min(c[0]) - 0.5).floor().max(0.0) as i64;
        let x1 = (a[0].max(bb[0]).max(c[0]) - 0.5)
            .ceil()
            .min(FB as f64 - 1.0) as i64;
        let y0 = (a[1].min(bb[1]).min(c[1]) - 0.5).floor().max(0.0) as i64;
        let y1 = (a[1].max(bb[1]).max(c[1]) - 0.5)
            .ceil()
            .min(FB as f64 - 1.0) as i64;
        for y in y0..=y1 {
            for x in x0..=x1 {
                let s = [x as f64 + 0.5, y as f64 + 0.5];
                let l = [cross(bb, c, s), cross(c, a, s), cross(a, bb, s)].map(|v| v / area);
                if l.iter().all(|&v| v >= -1e-9) {
                    holder.entry((x, y)).or_insert(ti);
                }
            }
        }
    }
    let boundary: Vec<[f64; 2]> = b.idx.iter().map(|&i| pr.p[i]).collect();
    let bdist = |s: [f64; 2]| {
        (0..boundary.len())
            .map(|i| seg_dist(s, boundary[i], boundary[(i + 1) % boundary.len()]))
            .fold(f64::INFINITY, f64::min)
    };
    let expect = |x: i64, y: i64| -> Expect {
        let s = [x as f64 + 0.5, y as f64 + 0.5];
        let Some(&ti) = holder.get(&(x, y)) else {
            return if bdist(s) >= MARGIN {
                Expect::Zero
            } else {
                Expect::AtMostOne
            };
        };
        let t = m.tris[ti];
        let [a, bb, c] = t.map(|i| pr.p[i]);
        let area = cross(a, bb, c);
        let l = [cross(bb, c, s), cross(c, a, s), cross(a, bb, s)].map(|v| v / area);
        // ∇λ_i: perpendicular of the opposite edge over the area.
        let grad = |p: [f64; 2], q: [f64; 2]| [(p[1] - q[1]) / area, (q[0] - p[0]) / area];
        let gl = [grad(bb, c), grad(c, a), grad(a, bb)];
        let mut inside = bdist(s) >= MARGIN;
        for k in 0..8 {
            let gv = t.map(|i| pr.g[i][k]);
            let val: f64 = (0..3).map(|i| l[i] * gv[i]).sum();
            let gx: f64 = (0..3).map(|i| gl[i][0] * gv[i]).sum();
            let gy: f64 = (0..3).map(|i| gl[i][1] * gv[i]).sum();
            let norm = (gx * gx + gy * gy).sqrt();
            let d = if norm > 1e-12 {
                val / norm
            } else if val > 0.0 {
                f64::INFINITY
            } else {
                f64::NEG_INFINITY
            };
            if d <= -MARGIN {
                return Expect::Zero;
            }
            if d < MARGIN {
                inside = false;
            }
        }
        if inside {
            Expect::One
        } else {
            Expect::AtMostOne
        }
    };
    for y in 0..FB {
        for x in 0..FB {
            let n = cov.at(x, y);
            if n == 0 && !holder.contains_key(&(x, y)) {
                continue;
            }
            let e = expect(x, y);
            if !e.allows(n) {
                let by = cov.count.get(&(x as u16, y as u16)).cloned();
                return Some(format!(
                    "pixel ({x}, {y}) drawn {n} times (by triangles {by:?}), expected {e:?}"
                ));
            }
        }
    }
    None
}

/// Every `CLIP_EVERY`-th seed also gives a mesh drawn through CLIP.
const CLIP_EVERY: u64 = 2;

/// The clip-space mesh of `seed`: a mesh (without slivers that f24 rounding could flip)
/// lifted to clip space.
fn generate_clipped(seed: u64) -> (Mesh, Boundary, Lifted) {
    let mut rng = Rng::new(seed ^ 0xC11F_0000_0000);
    for _ in 0..1000 {
        let (m, b) = generate(rng.next());
        let l = lift(&mut rng, &m);
        let p0 = m.tris[0].map(|i| q2(m.v[i]));
        let sign = orient(p0[0], p0[1], p0[2]).signum();
        if projected_ok(&m, &project(&l), sign) {
            return (m, b, l);
        }
    }
    panic!("seed {seed}: no clip-space mesh in 1000 tries");
}

// ---------------------------------------------------------------- failures

/// Removes triangles while the mesh stays valid and `fails` still finds a failure.
fn shrink(mut m: Mesh, fails: impl Fn(&Mesh, &Boundary) -> Option<String>) -> Mesh {
    loop {
        let mut progress = false;
        let mut i = 0;
        while i < m.tris.len() {
            let mut c = m.clone();
            c.tris.remove(i);
            c.order.remove(i);
            if let Ok(b) = check_mesh(&c) {
                if fails(&c, &b).is_some() {
                    m = c;
                    progress = true;
                    continue;
                }
            }
            i += 1;
        }
        if !progress {
            return m;
        }
    }
}

fn describe(seed: u64, m: &Mesh, l: Option<&Lifted>, what: &str) -> String {
    let mut s = format!(
        "mesh seed {seed} ({}, {} triangles): {what}\n",
        m.kind,
        m.tris.len()
    );
    for (i, (t, &k)) in m.tris.iter().zip(&m.order).enumerate() {
        let vs = permute(*t, k);
        let _ = write!(s, "  triangle {i}: vertices {vs:?} =");
        for vi in vs {
            let p = m.v[vi];
            let _ = write!(
                s,
                " ({}, {}) px [12.4 ({}, {})]",
                p[0] as f64 / FINE as f64,
                p[1] as f64 / FINE as f64,
                q(p[0]),
                q(p[1])
            );
        }
        s.push('\n');
    }
    if let Some(l) = l {
        let _ = writeln!(s, "  registers {:x?}", l.regs);
        let used: HashSet<usize> = m.tris.iter().flatten().copied().collect();
        let mut used: Vec<usize> = used.into_iter().collect();
        used.sort_unstable();
        for vi in used {
            let _ = writeln!(
                s,
                "  vertex {vi} position {:06x?}",
                l.v[vi].position().map(F24::bits)
            );
        }
    }
    s
}

// ---------------------------------------------------------------- the test

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The property on window-space meshes drawn straight into RAST, over `PICA_RAST_MESHES`
/// meshes from seed `PICA_RAST_MESH_SEED`.
#[test]
fn rast_meshes_tile_without_cracks() {
    let n = env_u64("PICA_RAST_MESHES", DEFAULT_MESHES);
    let first = env_u64("PICA_RAST_MESH_SEED", 0);
    let start = std::time::Instant::now();
    let mut triangles = 0;
    let mut kinds: HashMap<&str, u64> = HashMap::new();
    for seed in first..first + n {
        let (m, b) = generate(seed);
        *kinds.entry(m.kind).or_default() += 1;
        triangles += m.tris.len();
        if let Some(what) = check_direct(&m, &b) {
            let small = shrink(m, check_direct);
            let b = check_mesh(&small).unwrap();
            let what = check_direct(&small, &b).unwrap_or(what);
            panic!("{}", describe(seed, &small, None, &what));
        }
    }
    eprintln!(
        "{n} meshes ({triangles} triangles; {kinds:?}): no cracks, no double hits, {:.1} s",
        start.elapsed().as_secs_f64()
    );
}

/// The mesh seeds below 4,000 whose clipped mesh cracks or is drawn twice somewhere, all
/// because CLIP's edge/plane crossing depends on the edge's direction (`model/src/clip.rs`,
/// "Precision": UNVERIFIED(hw) whether the hardware does the same).
const KNOWN_CLIPPED_CRACKS: &[u64] = &[1046, 2474, 3018];

/// The property on meshes drawn through CLIP then RAST (every `CLIP_EVERY`-th seed of
/// `PICA_RAST_MESHES` (default 4,000) from `PICA_RAST_MESH_SEED`).
///
/// The model does not hold it everywhere (about one clipped mesh in 700, for two reasons):
///
/// - **Shared edges** (most cases, shrunk to the two or three triangles around the edge):
///   CLIP computes the vertex where an edge crosses a plane from the edge's direction
///   (`intersect(cur, prev)`: `t = d_prev / (d_prev - d)`, `cur·t + prev·(1 - t)`), and the
///   two triangles that share an edge walk it in opposite directions, so they can get f24
///   vertices one ulp apart; where those round to different 12.4 points the shared edge splits
///   in two and the pixels between are drawn by neither (a crack) or by both.
///   [`rast_clipped_shared_edge_crack`] is the smallest case.
/// - **Fan fold-over**: the clipped polygon of one triangle has two vertices on the plane
///   close together; snapped to 12.4 the thin first fan triangle turns over (the opposite
///   orientation to the rest of the fan), and since RAST draws both windings the pixels it
///   then shares with the next fan triangle are drawn twice. [`rast_clipped_fan_fold_over`] is
///   the case.
///
/// Whether the hardware does the same is not known, so the test pins the model: over the
/// default range exactly the meshes of [`KNOWN_CLIPPED_CRACKS`] fail, and a change to CLIP that
/// makes a new one crack (or mends one) fails it. With other `PICA_RAST_MESHES` /
/// `PICA_RAST_MESH_SEED` it prints the failing seeds, and fails on any outside that list.
#[test]
fn rast_clipped_meshes_tile_except_known_cracks() {
    let n = env_u64("PICA_RAST_MESHES", 4 * DEFAULT_MESHES);
    let first = env_u64("PICA_RAST_MESH_SEED", 0);
    let default_range = first == 0 && n == 4 * DEFAULT_MESHES;
    let start = std::time::Instant::now();
    let mut failed = Vec::new();
    let (mut meshes, mut triangles, mut cut, mut pieces) = (0, 0, 0, 0);
    for seed in (first..first + n).filter(|s| s % CLIP_EVERY == 0) {
        let (m, b, l) = generate_clipped(seed);
        meshes += 1;
        let (_, p, c) = draw_clipped(&m, &l);
        pieces += p;
        cut += c;
        triangles += m.tris.len();
        if let Some(what) = check_clipped(&m, &b, &l) {
            if !KNOWN_CLIPPED_CRACKS.contains(&seed) {
                let lc = l.clone();
                let small = shrink(m, move |m, b| check_clipped(m, b, &lc));
                let b = check_mesh(&small).unwrap();
                let what = check_clipped(&small, &b, &l).unwrap_or(what);
                eprintln!("{}", describe(seed, &small, Some(&l), &what));
            }
            failed.push(seed);
        }
    }
    eprintln!(
        "{meshes} meshes through CLIP ({triangles} triangles, {cut} cut by a plane, {pieces} \
         window-space triangles), {:.1} s: {} with a crack or double hit {failed:?}",
        start.elapsed().as_secs_f64(),
        failed.len()
    );
    let new: Vec<u64> = failed
        .iter()
        .copied()
        .filter(|s| !KNOWN_CLIPPED_CRACKS.contains(s))
        .collect();
    assert!(
        new.is_empty(),
        "clipped meshes crack outside the known cases: {new:?}"
    );
    if default_range {
        assert_eq!(
            failed, KNOWN_CLIPPED_CRACKS,
            "the known clipped cracks changed (CLIP's crossing arithmetic moved)"
        );
    }
    assert!(
        cut * 5 >= triangles,
        "too few triangles cut: {cut} of {triangles}"
    );
}

/// The smallest known crack of [`rast_clipped_meshes_tile_except_known_cracks`] (mesh seed 3018,
/// shrunk): two triangles with w = 1 sharing the edge v0-v7, which the plane y = -w cuts (the
/// viewport's bottom edge, window y = 87). Triangle 0 walks the edge v7 → v0 and gets the
/// crossing at window x 46.59326171875 (12.4: 745), triangle 1 walks v0 → v7 and gets
/// 46.59375 (746); pixel (49, 89), inside the union, is drawn by neither. Pins the model's
/// direction-dependent crossing (UNVERIFIED(hw)).
#[test]
fn rast_clipped_shared_edge_crack() {
    let (m, _, l) = generate_clipped(3018);
    let lc = l.clone();
    let small = shrink(m, move |m, b| check_clipped(m, b, &lc));
    let b = check_mesh(&small).unwrap();
    assert_eq!(small.tris.len(), 2);
    let what = check_clipped(&small, &b, &l).expect("the known crack is gone");
    eprintln!("{}", describe(3018, &small, Some(&l), &what));
}

/// The fan fold-over of [`rast_clipped_meshes_tile_except_known_cracks`] (mesh seed 4052,
/// shrunk): one thin triangle (w = 1) cut by the user plane into the polygon (12.4) (1717,
/// 200), (1727, 200), (1928, 207), (1784, 195), a polygon whose first fan triangle turns
/// over when snapped to 12.4 (the opposite winding to the rest of the fan), so one pixel is
/// drawn by two fan triangles. Pins the model (UNVERIFIED(hw)).
#[test]
fn rast_clipped_fan_fold_over() {
    let (m, _, l) = generate_clipped(4052);
    let lc = l.clone();
    let small = shrink(m, move |m, b| check_clipped(m, b, &lc));
    let b = check_mesh(&small).unwrap();
    assert_eq!(small.tris.len(), 1);
    let what = check_clipped(&small, &b, &l).expect("the known fold-over is gone");
    eprintln!("{}", describe(4052, &small, Some(&l), &what));
}

/// The reference itself: a 2 × 2 pixel square split along its diagonal, at pixel corners:
/// four pixels, each once; and a closed fan around a pixel centre (valence 8).
#[test]
fn rast_cracks_reference_sanity() {
    let sq = Mesh {
        kind: "square",
        v: vec![[0, 0], [2 * FINE, 0], [2 * FINE, 2 * FINE], [0, 2 * FINE]],
        tris: vec![[0, 1, 2], [0, 2, 3]],
        order: vec![0, 4],
    };
    let b = check_mesh(&sq).unwrap();
    assert_eq!(expect_exact(&b, [8, 8]), Expect::One);
    assert_eq!(expect_exact(&b, [40, 8]), Expect::Zero);
    assert_eq!(check_direct(&sq, &b), None);
    let cov = draw_direct(&sq);
    assert_eq!(cov.count.len(), 4);
    // A flipped triangle is rejected.
    let mut bad = sq.clone();
    bad.tris[1] = [0, 3, 2];
    assert!(check_mesh(&bad).is_err());
    // Valence 8 around the centre of pixel (10, 10).
    let c = [10 * FINE + FINE / 2, 10 * FINE + FINE / 2];
    let mut v = vec![c];
    for (dx, dy) in [
        (3, 0),
        (3, 3),
        (0, 3),
        (-3, 3),
        (-3, 0),
        (-3, -3),
        (0, -3),
        (3, -3),
    ] {
        v.push([c[0] + dx * FINE, c[1] + dy * FINE]);
    }
    let fan = Mesh {
        kind: "fan",
        v,
        tris: (0..8).map(|i| [0, 1 + i, 1 + (i + 1) % 8]).collect(),
        order: (0..8).map(|i| i as u8).collect(),
    };
    let b = check_mesh(&fan).unwrap();
    assert_eq!(check_direct(&fan, &b), None);
    assert_eq!(draw_direct(&fan).at(10, 10), 1);
}
