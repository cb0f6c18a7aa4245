//! Exact clipping of a segment's parameter range against convex pieces (closed half-planes,
//! closed discs and intersections of both), sorted interval lists, and the positive-area overlap
//! of a rectangle with such a piece.
//!
//! A segment is `a + t·d` for `t` in `[0, 1]`; every function here returns parameter intervals
//! in that range. A line through a convex piece meets it in one interval, so a union of convex
//! pieces along a line is a list of intervals that [`merge_intervals`] sorts and joins.

use crate::geometry::{Point, Rect, Vec2, point_segment_distance};

/// Parallel lines closer than this to a half-plane's boundary count as on it (inside).
const PARALLEL_SLACK: f64 = 1e-12;

/// Intersections of positive area smaller than this (square inches) count as touching.
pub(crate) const AREA_TOLERANCE: f64 = 1e-12;

/// How far inside a disc's rim (inches) a piece must reach to overlap the disc.
const DISC_SLACK: f64 = 1e-9;

/// The closed half-plane `{x : n·x ≤ c}`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HalfPlane {
    pub n: Vec2,
    pub c: f64,
}

impl HalfPlane {
    /// `{x : n·(x − p) ≤ 0}`.
    #[inline]
    pub(crate) fn through(p: Point, n: Vec2) -> HalfPlane {
        HalfPlane { n, c: n.dot(p) }
    }

    /// `{x : n·(x − p) ≤ k}`.
    #[inline]
    pub(crate) fn offset(p: Point, n: Vec2, k: f64) -> HalfPlane {
        HalfPlane { n, c: n.dot(p) + k }
    }

    /// True when `x` is in the half-plane (boundary included).
    #[inline]
    pub(crate) fn contains(&self, x: Point) -> bool {
        self.n.dot(x) <= self.c + PARALLEL_SLACK
    }

    /// Clips `[lo, hi]` of the line `a + t·d` to the half-plane; false when nothing is left.
    #[inline]
    pub(crate) fn clip(&self, a: Point, d: Vec2, lo: &mut f64, hi: &mut f64) -> bool {
        let num = self.c - self.n.dot(a);
        let den = self.n.dot(d);
        if den > 0.0 {
            let t = num / den;
            if t < *hi {
                *hi = t;
            }
        } else if den < 0.0 {
            let t = num / den;
            if t > *lo {
                *lo = t;
            }
        } else if !(num >= -PARALLEL_SLACK) {
            // Parallel and outside (or NaN).
            return false;
        }
        *lo <= *hi
    }
}

/// Clips `[lo, hi]` of the line `a + t·d` to the closed disc of radius `r` about `c`.
#[inline]
pub(crate) fn clip_disc(c: Point, r: f64, a: Point, d: Vec2, lo: &mut f64, hi: &mut f64) -> bool {
    let dd = d.length_squared();
    let ac = a - c;
    if !(dd > 0.0) {
        return ac.length_squared() <= r * r && *lo <= *hi;
    }
    let tc = -ac.dot(d) / dd;
    let perp = ac.cross(d);
    let h2 = r * r - perp * perp / dd;
    if !(h2 >= 0.0) {
        return false;
    }
    let half = (h2 / dd).sqrt();
    if tc - half > *lo {
        *lo = tc - half;
    }
    if tc + half < *hi {
        *hi = tc + half;
    }
    *lo <= *hi
}

/// Most half-planes a [`Tile`] holds.
pub(crate) const MAX_PLANES: usize = 6;

/// A convex piece of the plane: the intersection of up to [`MAX_PLANES`] closed half-planes and
/// optionally one closed disc.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tile {
    planes: [HalfPlane; MAX_PLANES],
    len: usize,
    disc: Option<(Point, f64)>,
}

impl Tile {
    /// The whole plane.
    pub(crate) fn new() -> Tile {
        Tile { planes: [HalfPlane { n: Vec2::ZERO, c: 0.0 }; MAX_PLANES], len: 0, disc: None }
    }

    /// A disc.
    pub(crate) fn disc(c: Point, r: f64) -> Tile {
        let mut t = Tile::new();
        t.disc = Some((c, r));
        t
    }

    /// Adds a half-plane (ignored beyond [`MAX_PLANES`], which callers never reach).
    pub(crate) fn with(mut self, h: HalfPlane) -> Tile {
        if self.len < MAX_PLANES {
            self.planes[self.len] = h;
            self.len += 1;
        }
        self
    }

    /// The half-planes.
    #[inline]
    pub(crate) fn planes(&self) -> &[HalfPlane] {
        &self.planes[..self.len]
    }

    /// The parameter interval of `a + t·d`, `t` in `[0, 1]`, inside the tile.
    #[inline]
    pub(crate) fn clip(&self, a: Point, d: Vec2) -> Option<(f64, f64)> {
        let (mut lo, mut hi) = (0.0, 1.0);
        for h in self.planes() {
            if !h.clip(a, d, &mut lo, &mut hi) {
                return None;
            }
        }
        if let Some((c, r)) = self.disc
            && !clip_disc(c, r, a, d, &mut lo, &mut hi)
        {
            return None;
        }
        Some((lo, hi))
    }

    /// True when `p` lies in the tile (boundary included).
    pub(crate) fn contains(&self, p: Point) -> bool {
        self.planes().iter().all(|h| h.contains(p))
            && self.disc.is_none_or(|(c, r)| (p - c).length_squared() <= r * r)
    }

    /// True when the tile and the rectangle share a region of positive area.
    pub(crate) fn overlaps_rect(&self, rect: &Rect) -> bool {
        let mut poly = ConvexPoly::from_rect(rect);
        for h in self.planes() {
            poly.clip(h);
            if poly.len < 3 {
                return false;
            }
        }
        if poly.area() <= AREA_TOLERANCE {
            return false;
        }
        match self.disc {
            None => true,
            Some((c, r)) => poly.distance_to(c) < r - DISC_SLACK,
        }
    }
}

/// The four half-planes whose intersection is the rectangle.
pub(crate) fn rect_planes(rect: &Rect) -> [HalfPlane; 4] {
    let (r, f) = (rect.facing.right(), rect.facing.vector());
    let (hw, hd) = (rect.width / 2.0, rect.depth / 2.0);
    let c = rect.centre;
    [
        HalfPlane::offset(c, r, hw),
        HalfPlane::offset(c, -r, hw),
        HalfPlane::offset(c, f, hd),
        HalfPlane::offset(c, -f, hd),
    ]
}

/// A small convex polygon on the stack, for clipping rectangles by a few half-planes.
struct ConvexPoly {
    pts: [Point; 4 + MAX_PLANES],
    len: usize,
}

impl ConvexPoly {
    fn from_rect(rect: &Rect) -> ConvexPoly {
        let mut pts = [Point::ZERO; 4 + MAX_PLANES];
        pts[..4].copy_from_slice(&rect.corners());
        ConvexPoly { pts, len: 4 }
    }

    /// Sutherland–Hodgman against one half-plane.
    fn clip(&mut self, h: &HalfPlane) {
        let mut out = [Point::ZERO; 4 + MAX_PLANES];
        let mut n = 0;
        for i in 0..self.len {
            let p = self.pts[i];
            let q = self.pts[(i + 1) % self.len];
            let fp = h.n.dot(p) - h.c;
            let fq = h.n.dot(q) - h.c;
            if fp <= 0.0 {
                if n < out.len() {
                    out[n] = p;
                    n += 1;
                }
                if fq > 0.0 && n < out.len() {
                    out[n] = p.lerp(q, fp / (fp - fq));
                    n += 1;
                }
            } else if fq <= 0.0 && n < out.len() {
                out[n] = p.lerp(q, fp / (fp - fq));
                n += 1;
            }
        }
        self.pts = out;
        self.len = n;
    }

    fn area(&self) -> f64 {
        shoelace(&self.pts[..self.len]).abs() / 2.0
    }

    fn distance_to(&self, c: Point) -> f64 {
        let pts = &self.pts[..self.len];
        // Inside a convex polygon: on the same side of every edge.
        let mut pos = false;
        let mut neg = false;
        let mut best = f64::INFINITY;
        for i in 0..pts.len() {
            let (p, q) = (pts[i], pts[(i + 1) % pts.len()]);
            let s = (q - p).cross(c - p);
            pos |= s > 0.0;
            neg |= s < 0.0;
            best = best.min(point_segment_distance(c, p, q));
        }
        if pos && neg { best } else { 0.0 }
    }
}

/// Twice the signed area of a closed ring (positive when anticlockwise).
pub(crate) fn shoelace(pts: &[Point]) -> f64 {
    let n = pts.len();
    let mut s = 0.0;
    for i in 0..n {
        s += pts[i].cross(pts[(i + 1) % n]);
    }
    s
}

/// Sorts intervals by start, joins those that overlap or lie within `tol` of each other, and
/// drops what is left no longer than `tol`.
pub(crate) fn merge_intervals(v: &mut Vec<(f64, f64)>, tol: f64) {
    merge_intervals_from(v, 0, tol);
}

/// [`merge_intervals`] on `v[start..]`, leaving `v[..start]` alone.
pub(crate) fn merge_intervals_from(v: &mut Vec<(f64, f64)>, start: usize, tol: f64) {
    if v.len() > start + 1 {
        v[start..].sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.total_cmp(&y.1)));
    }
    let mut w = start;
    for i in start..v.len() {
        let (s, e) = v[i];
        if !(e >= s) {
            continue;
        }
        if w > start && s <= v[w - 1].1 + tol {
            if e > v[w - 1].1 {
                v[w - 1].1 = e;
            }
        } else {
            v[w] = (s, e);
            w += 1;
        }
    }
    v.truncate(w);
    let mut k = start;
    for i in start..v.len() {
        if v[i].1 - v[i].0 > tol {
            v[k] = v[i];
            k += 1;
        }
    }
    v.truncate(k);
}

/// Length of a vector by `sqrt` (faster than `hypot`; exact enough for lengths in inches).
#[inline]
pub(crate) fn norm(v: Vec2) -> f64 {
    (v.x * v.x + v.y * v.y).sqrt()
}

/// Squared distance from `p` to the segment `a`–`b`.
#[inline]
pub(crate) fn point_segment_distance2(p: Point, a: Point, b: Point) -> f64 {
    let ab = b - a;
    let l2 = ab.length_squared();
    let ap = p - a;
    if !(l2 > 0.0) {
        return ap.length_squared();
    }
    let t = (ap.dot(ab) / l2).clamp(0.0, 1.0);
    (ap - ab * t).length_squared()
}

/// The axis-aligned box of a segment: (min, max).
#[inline]
pub(crate) fn segment_box(a: Point, b: Point) -> (Point, Point) {
    (Point::new(a.x.min(b.x), a.y.min(b.y)), Point::new(a.x.max(b.x), a.y.max(b.y)))
}

/// True when two axis-aligned boxes meet (closed).
#[inline]
pub(crate) fn boxes_meet(a: (Point, Point), b: (Point, Point)) -> bool {
    a.0.x <= b.1.x && b.0.x <= a.1.x && a.0.y <= b.1.y && b.0.y <= a.1.y
}

/// The axis-aligned box of some points, as (min, max); `None` when there are none. Plain
/// comparisons, so a NaN coordinate is skipped rather than spread.
#[inline]
pub(crate) fn points_box(pts: &[Point]) -> Option<(Point, Point)> {
    let first = *pts.first()?;
    let (mut lo, mut hi) = (first, first);
    for p in &pts[1..] {
        if p.x < lo.x {
            lo.x = p.x;
        }
        if p.x > hi.x {
            hi.x = p.x;
        }
        if p.y < lo.y {
            lo.y = p.y;
        }
        if p.y > hi.y {
            hi.y = p.y;
        }
    }
    Some((lo, hi))
}
