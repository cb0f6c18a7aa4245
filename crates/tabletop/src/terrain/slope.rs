//! Hill slopes (MOV-R-02): an exact, piecewise-linear height field.
//!
//! # The model
//!
//! A hill is a contour polygon with a `height` `h` (in contour levels) and the table's
//! `slope_band` `w` (inches). The ground inside the contour rises by `h` across a band of width
//! `w` inside the contour line and is a flat plateau beyond it. Hills stack: the elevation of a
//! point is the sum of the contributions of every hill whose polygon contains it (boundary
//! included), so nested contours make terraces.
//!
//! The band is tiled per edge. Edge `k` runs from `v_k` to `v_k+1` with unit direction `e_k`
//! and inward unit normal `n_k`. Its *ramp* is the convex region
//!
//! * between the edge's line and its inward offset by `w`: `0 ≤ (x − v_k)·n_k ≤ w`, and
//! * on the edge's side of the angle bisector at each of its two vertices: at `v_k`,
//!   `(x − v_k)·(e_k−1 + e_k) ≥ 0`, at `v_k+1`, `(x − v_k+1)·(e_k + e_k+1) ≤ 0`.
//!
//! Inside ramp `k` the hill contributes `h · (x − v_k)·n_k / w`: a plane whose gradient is
//! `n_k · h / w`, zero on the contour line and `h` on the inner edge of the band. At a convex
//! vertex the bisector is where the two ramps meet at equal height, so for a convex contour
//! whose inradius is at least `w` this is exactly `h · min(1, distance to the contour / w)`.
//! At a reflex vertex the bisector also separates the two ramps, which then each reach past the
//! vertex: the band's inner edge has a square corner there (the ground rises by the larger of
//! the two edge distances), rather than the rounded corner a true distance field would give.
//! That keeps every region planar, so the rise along a straight piece is a constant.
//!
//! Where ramps overlap (contours narrower than `2w`, or short edges between reflex vertices)
//! the lowest ramp applies, and the pieces are split where two overlapping ramps cross.
//! Points inside the contour but in no ramp are on the plateau (`h`). Points of a ramp outside
//! the contour do not count. With `w ≤ 0` (or not finite) there are no ramps: the hill is a
//! flat-topped step and nothing on it rises.
//!
//! # Rise
//!
//! Along a piece of path the elevation is linear, and its `rise` is the elevation gained per
//! inch travelled: `Σ (n_k · direction) · h / w` over the ramps the piece is on (positive uphill,
//! negative downhill, zero on plateaus and flat ground). Pieces are split exactly where they
//! enter or leave a contour or a ramp, by clipping the segment against each ramp's four
//! half-planes.

use super::convex::{HalfPlane, boxes_meet, norm, shoelace};
use super::polygon::LENGTH_TOLERANCE;
use super::{Area, AreaKind, Polygon, Table};
use crate::geometry::{Point, Vec2};

/// One edge's ramp.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ramp {
    planes: [HalfPlane; 4],
    /// Start vertex of the edge.
    p: Point,
    /// Inward unit normal.
    n: Vec2,
}

impl Ramp {
    fn contains(&self, x: Point) -> bool {
        self.planes.iter().all(|h| h.contains(x))
    }
}

/// A linear piece of one hill's contribution along a segment: `α + β·t` on `[t0, t1]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Linear {
    pub t0: f64,
    pub t1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Linear {
    #[inline]
    pub(crate) fn at(&self, t: f64) -> f64 {
        self.alpha + self.beta * t
    }
}

/// Scratch buffers for hill traces.
#[derive(Default, Debug)]
pub(crate) struct HillScratch {
    ring: Vec<Point>,
    ramps: Vec<Ramp>,
    spans: Vec<(f64, f64, f64, f64)>,
    params: Vec<f64>,
}

impl Area {
    /// True when this area is a hill with a usable (finite, non-zero) height and outline.
    pub(crate) fn is_slope_hill(&self) -> bool {
        self.kind == AreaKind::Hill && self.height.is_finite() && self.height != 0.0
    }
}

/// The hill's outline without repeated consecutive vertices, and its orientation; `None` when
/// it encloses no area.
fn clean_ring(poly: &Polygon, ring: &mut Vec<Point>) -> Option<bool> {
    ring.clear();
    for &p in &poly.points {
        if !p.is_finite() {
            return None;
        }
        if ring.last() != Some(&p) {
            ring.push(p);
        }
    }
    while ring.len() > 1 && ring.first() == ring.last() {
        ring.pop();
    }
    if ring.len() < 3 {
        return None;
    }
    let sa = shoelace(ring);
    (sa.abs() > 1e-12).then_some(sa > 0.0)
}

/// Builds the ramps of a contour for a band of width `w > 0`.
pub(crate) fn ramps_into(poly: &Polygon, w: f64, ring: &mut Vec<Point>, out: &mut Vec<Ramp>) {
    out.clear();
    let Some(ccw) = clean_ring(poly, ring) else {
        return;
    };
    let n = ring.len();
    let unit = |k: usize| {
        let v = ring[(k + 1) % n] - ring[k % n];
        let l = norm(v);
        if l > 0.0 { v * (1.0 / l) } else { Vec2::ZERO }
    };
    let first = unit(0);
    let mut e_prev = unit(n - 1);
    let mut e = first;
    for k in 0..n {
        let v0 = ring[k];
        let v1 = ring[(k + 1) % n];
        let e_next = if k + 1 == n { first } else { unit(k + 1) };
        let nrm = if ccw { e.perp_left() } else { e.perp_right() };
        let inner = HalfPlane::through(v0, -nrm);
        let outer = HalfPlane::offset(v0, nrm, w);
        out.push(Ramp {
            planes: [
                inner,
                outer,
                HalfPlane::through(v0, -(e_prev + e)),
                HalfPlane::through(v1, e + e_next),
            ],
            p: v0,
            n: nrm,
        });
        e_prev = e;
        e = e_next;
    }
}

/// The elevation one hill adds at `x` (zero outside it).
pub(crate) fn hill_elevation(area: &Area, w: f64, x: Point) -> f64 {
    if !area.is_slope_hill() || !area.polygon.contains(x) {
        return 0.0;
    }
    let h = area.height;
    if !(w > 0.0 && w.is_finite()) {
        return h;
    }
    let mut ring = Vec::new();
    let mut ramps = Vec::new();
    ramps_into(&area.polygon, w, &mut ring, &mut ramps);
    let mut best = h;
    for r in ramps.iter().filter(|r| r.contains(x)) {
        let v = h * ((x - r.p).dot(r.n) / w).clamp(0.0, 1.0);
        if h > 0.0 { best = best.min(v) } else { best = best.max(v) }
    }
    best
}

/// Pushes the linear pieces of one hill's contribution along `a`–`b`, given the segment's
/// intervals inside the contour (`inside`, sorted and disjoint). Pieces cover exactly `inside`.
pub(crate) fn hill_trace(
    area: &Area,
    w: f64,
    a: Point,
    b: Point,
    inside: &[(f64, f64)],
    s: &mut HillScratch,
    out: &mut Vec<Linear>,
) {
    if inside.is_empty() || !area.is_slope_hill() {
        return;
    }
    let h = area.height;
    let d = b - a;
    let len = norm(d);
    if !(len > 0.0) || !len.is_finite() {
        return;
    }
    let tol_t = LENGTH_TOLERANCE / len;
    s.spans.clear();
    if w > 0.0 && w.is_finite() {
        ramps_into(&area.polygon, w, &mut s.ring, &mut s.ramps);
        for r in &s.ramps {
            let (mut lo, mut hi) = (0.0, 1.0);
            if r.planes.iter().all(|p| p.clip(a, d, &mut lo, &mut hi)) && hi - lo > tol_t {
                let k = h / w;
                s.spans.push((lo, hi, k * (a - r.p).dot(r.n), k * d.dot(r.n)));
            }
        }
    }
    // Split points: contour entries and exits, ramp ends, and crossings of overlapping ramps.
    s.params.clear();
    for &(t0, t1) in inside {
        s.params.push(t0);
        s.params.push(t1);
    }
    for (i, &(l0, h0, a0, b0)) in s.spans.iter().enumerate() {
        s.params.push(l0);
        s.params.push(h0);
        for &(l1, h1, a1, b1) in &s.spans[i + 1..] {
            let (lo, hi) = (l0.max(l1), h0.min(h1));
            if hi - lo > tol_t && b0 != b1 {
                let t = (a1 - a0) / (b0 - b1);
                if t > lo && t < hi {
                    s.params.push(t);
                }
            }
        }
    }
    s.params.sort_by(f64::total_cmp);
    let mut j = 0;
    for w2 in s.params.windows(2) {
        let (u0, u1) = (w2[0], w2[1]);
        if !(u1 - u0 > tol_t) {
            continue;
        }
        let m = (u0 + u1) / 2.0;
        while j < inside.len() && inside[j].1 < m {
            j += 1;
        }
        if j >= inside.len() || inside[j].0 > m {
            continue;
        }
        // The lowest ramp containing the midpoint, else the plateau.
        let mut best: Option<(f64, f64)> = None;
        for &(l, hh, al, be) in &s.spans {
            if l <= m && m <= hh {
                let v = al + be * m;
                let better = match best {
                    None => true,
                    Some((ba, bb)) => {
                        let cur = ba + bb * m;
                        if h > 0.0 { v < cur } else { v > cur }
                    }
                };
                if better {
                    best = Some((al, be));
                }
            }
        }
        let (alpha, beta) = best.unwrap_or((h, 0.0));
        match out.last_mut() {
            Some(last) if last.t1 == u0 && last.alpha == alpha && last.beta == beta => last.t1 = u1,
            _ => out.push(Linear { t0: u0, t1: u1, alpha, beta }),
        }
    }
}

impl Table {
    /// The ground's elevation at `p`, in contour levels: the sum over the hills containing `p`
    /// of their ramped heights (see the [slope model](crate::terrain::slope)).
    pub fn elevation(&self, p: Point) -> f64 {
        self.areas
            .iter()
            .filter(|a| a.is_slope_hill())
            .filter(|a| a.polygon.bounds().is_some_and(|bb| boxes_meet(bb, (p, p))))
            .map(|a| hill_elevation(a, self.slope_band, p))
            .sum()
    }
}
