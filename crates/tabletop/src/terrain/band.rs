//! Linear features as bands, and their fords and bridges as exact regions of the band.
//!
//! # The band
//!
//! A feature's band is the set of points within `width / 2` of its centreline polyline: the
//! union of one capsule (a segment grown by a disc) per centreline segment. Its ends are
//! therefore rounded, and so are the outsides of its bends. A segment meets a capsule in one
//! interval, found exactly from the capsule's rectangle (four half-planes) and its two end discs
//! (a quadratic each).
//!
//! # Crossings
//!
//! A crossing covers the stretch of centreline whose arc length lies in
//! `[at − width/2, at + width/2]` (clipped to the centreline). Its region is the part of the
//! band swept by the centreline's normals over that stretch, built from convex tiles:
//!
//! * for each centreline segment, the part of its rectangle (half-width `width/2`) between the
//!   normals at the stretch's ends, clipped on the inside of each bend by the bisector of the
//!   bend (beyond which points are nearer the neighbouring segment);
//! * at each bend inside the stretch, the wedge of the disc about the bend's vertex between the
//!   normals of its two segments (the outside of the bend, whose nearest centreline point is
//!   the vertex);
//! * at an end of the centreline inside the stretch, the half-disc of the end cap.
//!
//! This is exactly "the points of the band whose nearest centreline point lies in the stretch"
//! wherever that nearest point is found locally (the band does not fold back over itself within
//! its own width); for hairpins tighter than the band the tiles of neighbouring segments may
//! overlap, and such points count as in the crossing if any tile says so. The same tiling over
//! the stretches between crossings gives the band outside its crossings.
//!
//! # Centreline crossings
//!
//! Where a segment meets the centreline (crossing it, touching it at a point, or running along
//! it, reported at the start of the overlap), for rules that charge a surcharge per crossing of
//! a hedge or wall. Meetings at a centreline vertex are reported once.

use super::convex::{
    HalfPlane, Tile, boxes_meet, clip_disc, merge_intervals, merge_intervals_from, norm,
    points_box, segment_box,
};
use super::polygon::{BOUNDARY_TOLERANCE, LENGTH_TOLERANCE};
use super::{Crossing, LinearFeature};
use crate::geometry::{Point, Rect, Vec2, point_segment_distance};

/// One non-degenerate centreline segment with its unit direction and the arc length at its
/// start.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CSeg {
    pub p: Point,
    pub q: Point,
    pub e: Vec2,
    pub len: f64,
    pub s: f64,
}

impl Crossing {
    /// The stretch of centreline arc length it covers, `[at − width/2, at + width/2]`, not yet
    /// clipped to the centreline; `None` when it is empty or not finite.
    pub fn stretch(&self) -> Option<(f64, f64)> {
        let (s0, s1) = (self.at - self.width / 2.0, self.at + self.width / 2.0);
        (s0.is_finite() && s1.is_finite() && s1 > s0).then_some((s0, s1))
    }
}

impl LinearFeature {
    /// Half the width, or zero when the width is negative or not finite.
    pub fn half_width(&self) -> f64 {
        let r = self.width / 2.0;
        if r.is_finite() && r > 0.0 { r } else { 0.0 }
    }

    /// The length of the centreline, in inches.
    pub fn centreline_length(&self) -> f64 {
        self.path.windows(2).map(|w| w[0].distance(w[1])).sum()
    }

    /// The smallest axis-aligned box holding the band, as (min, max); `None` when the
    /// centreline is empty.
    pub fn bounds(&self) -> Option<(Point, Point)> {
        let (lo, hi) = points_box(&self.path)?;
        let r = self.half_width();
        Some((Point::new(lo.x - r, lo.y - r), Point::new(hi.x + r, hi.y + r)))
    }

    /// Shortest distance from `p` to the centreline (infinite when it is empty).
    pub fn distance_to_centreline(&self, p: Point) -> f64 {
        match self.path.len() {
            0 => f64::INFINITY,
            1 => p.distance(self.path[0]),
            _ => self
                .path
                .windows(2)
                .map(|w| point_segment_distance(p, w[0], w[1]))
                .fold(f64::INFINITY, f64::min),
        }
    }

    /// True when `p` is in the band: within `width / 2` of the centreline (boundary included).
    /// A feature of zero width has no band.
    pub fn band_contains(&self, p: Point) -> bool {
        let r = self.half_width();
        r > 0.0 && self.distance_to_centreline(p) <= r + BOUNDARY_TOLERANCE
    }

    /// True when `p` lies in the region of crossing `index` (see the module documentation).
    /// False for an index out of range.
    pub fn in_crossing(&self, index: usize, p: Point) -> bool {
        let Some((s0, s1)) = self.crossings.get(index).and_then(Crossing::stretch) else {
            return false;
        };
        let mut segs = Vec::new();
        let mut tiles = Vec::new();
        self.segments_into(&mut segs);
        self.stretch_tiles(&segs, s0, s1, &mut tiles);
        tiles.iter().any(|t| t.contains(p))
    }

    /// The index of the first crossing whose region holds `p`.
    pub fn crossing_at(&self, p: Point) -> Option<usize> {
        (0..self.crossings.len()).find(|&i| self.in_crossing(i, p))
    }

    /// The parameter intervals of the segment `a`–`b` inside the band, sorted and disjoint.
    pub fn band_intervals(&self, a: Point, b: Point) -> Vec<(f64, f64)> {
        let mut segs = Vec::new();
        let mut out = Vec::new();
        self.segments_into(&mut segs);
        self.band_intervals_into(&segs, a, b, &mut out);
        out
    }

    /// The parameter intervals of the segment `a`–`b` inside the region of crossing `index`,
    /// sorted and disjoint; empty for an index out of range.
    pub fn crossing_intervals(&self, index: usize, a: Point, b: Point) -> Vec<(f64, f64)> {
        let mut out = Vec::new();
        let Some((s0, s1)) = self.crossings.get(index).and_then(Crossing::stretch) else {
            return out;
        };
        let mut segs = Vec::new();
        let mut tiles = Vec::new();
        self.segments_into(&mut segs);
        self.stretch_tiles(&segs, s0, s1, &mut tiles);
        clip_tiles(&tiles, a, b, &mut out);
        out
    }

    /// The parameters along `a`–`b` where the segment meets the centreline, sorted, with
    /// meetings closer than [`LENGTH_TOLERANCE`] reported once.
    pub fn centreline_crossings(&self, a: Point, b: Point) -> Vec<f64> {
        let mut segs = Vec::new();
        let mut out = Vec::new();
        self.segments_into(&mut segs);
        centreline_meets(&segs, a, b, &mut out);
        let len = a.distance(b);
        if len > 0.0 {
            dedupe(&mut out, LENGTH_TOLERANCE / len);
        }
        out
    }

    /// True when the rectangle and the band share a region of positive area (the rectangle
    /// reaches more than 1e-9 inches into the band).
    pub fn band_overlaps_rect(&self, rect: &Rect) -> bool {
        let r = self.half_width();
        if r == 0.0 {
            return false;
        }
        let Some(bb) = self.bounds() else {
            return false;
        };
        if !boxes_meet(bb, rect.bounds()) {
            return false;
        }
        let lim = r - BOUNDARY_TOLERANCE;
        match self.path.len() {
            1 => rect.distance_to_point(self.path[0]) < lim,
            _ => self.path.windows(2).any(|w| segment_rect_distance(w[0], w[1], rect) < lim),
        }
    }

    /// True when the rectangle shares a region of positive area with the band outside every
    /// ford and bridge (MOV-TER-06: "no footprint may overlap river area outside a ford or
    /// bridge").
    pub fn band_overlaps_rect_outside_crossings(&self, rect: &Rect) -> bool {
        if !self.band_overlaps_rect(rect) {
            return false;
        }
        let mut segs = Vec::new();
        let mut tiles = Vec::new();
        self.segments_into(&mut segs);
        let total = segs.last().map_or(0.0, |s| s.s + s.len);
        let mut cover: Vec<(f64, f64)> =
            self.crossings.iter().filter_map(Crossing::stretch).collect();
        merge_intervals(&mut cover, 0.0);
        // The stretches between crossings, each closed.
        let mut from = 0.0;
        for &(s0, s1) in &cover {
            if s0 > from {
                self.stretch_tiles(&segs, from, s0.min(total), &mut tiles);
            }
            from = from.max(s1);
        }
        if from < total || (segs.is_empty() && cover.is_empty()) {
            self.stretch_tiles(&segs, from, total, &mut tiles);
        }
        tiles.iter().any(|t| t.overlaps_rect(rect))
    }

    /// True when the rectangle shares a region of positive area with the region of crossing
    /// `index`; false for an index out of range.
    pub fn crossing_overlaps_rect(&self, index: usize, rect: &Rect) -> bool {
        let Some((s0, s1)) = self.crossings.get(index).and_then(Crossing::stretch) else {
            return false;
        };
        let mut segs = Vec::new();
        let mut tiles = Vec::new();
        self.segments_into(&mut segs);
        self.stretch_tiles(&segs, s0, s1, &mut tiles);
        tiles.iter().any(|t| t.overlaps_rect(rect))
    }

    /// The non-degenerate centreline segments, with arc lengths.
    pub(crate) fn segments_into(&self, out: &mut Vec<CSeg>) {
        out.clear();
        let mut s = 0.0;
        for w in self.path.windows(2) {
            let (p, q) = (w[0], w[1]);
            let len = norm(q - p);
            if len > 0.0 && len.is_finite() {
                out.push(CSeg { p, q, e: (q - p) * (1.0 / len), len, s });
                s += len;
            }
        }
    }

    /// The band's intervals along `a`–`b`, from the capsules of `segs` (or the disc of a
    /// one-point centreline).
    pub(crate) fn band_intervals_into(
        &self,
        segs: &[CSeg],
        a: Point,
        b: Point,
        out: &mut Vec<(f64, f64)>,
    ) {
        out.clear();
        let r = self.half_width();
        let d = b - a;
        if r == 0.0 || !(d.length_squared() > 0.0) {
            return;
        }
        if segs.is_empty() {
            if let Some(&c) = self.path.first() {
                let (mut lo, mut hi) = (0.0, 1.0);
                if clip_disc(c, r, a, d, &mut lo, &mut hi) {
                    out.push((lo, hi));
                }
            }
        } else {
            let (lo, hi) = segment_box(a, b);
            for sg in segs {
                // Capsules whose box misses the segment's cannot meet it.
                if sg.p.x.max(sg.q.x) + r < lo.x
                    || sg.p.x.min(sg.q.x) - r > hi.x
                    || sg.p.y.max(sg.q.y) + r < lo.y
                    || sg.p.y.min(sg.q.y) - r > hi.y
                {
                    continue;
                }
                if let Some(iv) = capsule_interval(sg, r, a, d) {
                    out.push(iv);
                }
            }
        }
        merge_intervals(out, LENGTH_TOLERANCE / norm(d));
    }

    /// Pushes the convex tiles making up the band's stretch `[s0, s1]` of arc length.
    pub(crate) fn stretch_tiles(&self, segs: &[CSeg], s0: f64, s1: f64, out: &mut Vec<Tile>) {
        let r = self.half_width();
        if r == 0.0 {
            return;
        }
        let Some(last) = segs.last() else {
            if let Some(&c) = self.path.first()
                && s0 <= 0.0
                && s1 >= 0.0
            {
                out.push(Tile::disc(c, r));
            }
            return;
        };
        let total = last.s + last.len;
        let (s0, s1) = (s0.max(0.0), s1.min(total));
        if !(s1 > s0) {
            return;
        }
        let first = segs[0];
        if s0 <= 0.0 {
            out.push(Tile::disc(first.p, r).with(HalfPlane::through(first.p, first.e)));
        }
        if s1 >= total {
            out.push(Tile::disc(last.q, r).with(HalfPlane::through(last.q, -last.e)));
        }
        for (i, sg) in segs.iter().enumerate() {
            let (lo, hi) = (s0.max(sg.s), s1.min(sg.s + sg.len));
            if hi > lo {
                let n = sg.e.perp_left();
                let mut t = Tile::new()
                    .with(HalfPlane::offset(sg.p, n, r))
                    .with(HalfPlane::offset(sg.p, -n, r))
                    .with(HalfPlane::offset(sg.p, -sg.e, -(lo - sg.s)))
                    .with(HalfPlane::offset(sg.p, sg.e, hi - sg.s));
                if i > 0 {
                    t = t.with(HalfPlane::through(sg.p, -(segs[i - 1].e + sg.e)));
                }
                if let Some(next) = segs.get(i + 1) {
                    t = t.with(HalfPlane::through(sg.q, sg.e + next.e));
                }
                out.push(t);
            }
            if i > 0 && s0 <= sg.s && sg.s <= s1 {
                let prev = segs[i - 1].e;
                let straight = prev.cross(sg.e).abs() <= 1e-12 && prev.dot(sg.e) > 0.0;
                if !straight {
                    out.push(
                        Tile::disc(sg.p, r)
                            .with(HalfPlane::through(sg.p, -prev))
                            .with(HalfPlane::through(sg.p, sg.e)),
                    );
                }
            }
        }
    }
}

/// The interval of `a + t·d`, `t` in `[0, 1]`, inside the capsule of radius `r` about `sg`.
#[inline]
fn capsule_interval(sg: &CSeg, r: f64, a: Point, d: Vec2) -> Option<(f64, f64)> {
    let n = sg.e.perp_left();
    let mut best: Option<(f64, f64)> = None;
    let mut take = |iv: Option<(f64, f64)>| {
        if let Some((lo, hi)) = iv {
            best = Some(match best {
                None => (lo, hi),
                Some((l, h)) => (l.min(lo), h.max(hi)),
            });
        }
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    let body = HalfPlane::offset(sg.p, n, r).clip(a, d, &mut lo, &mut hi)
        && HalfPlane::offset(sg.p, -n, r).clip(a, d, &mut lo, &mut hi)
        && HalfPlane::through(sg.p, -sg.e).clip(a, d, &mut lo, &mut hi)
        && HalfPlane::through(sg.q, sg.e).clip(a, d, &mut lo, &mut hi);
    take(body.then_some((lo, hi)));
    for c in [sg.p, sg.q] {
        let (mut lo, mut hi) = (0.0, 1.0);
        take(clip_disc(c, r, a, d, &mut lo, &mut hi).then_some((lo, hi)));
    }
    best
}

/// Clips a segment against each tile and merges the pieces.
pub(crate) fn clip_tiles(tiles: &[Tile], a: Point, b: Point, out: &mut Vec<(f64, f64)>) {
    let d = b - a;
    let len = norm(d);
    if !(len > 0.0) || !len.is_finite() {
        return;
    }
    let start = out.len();
    for t in tiles {
        if let Some(iv) = t.clip(a, d) {
            out.push(iv);
        }
    }
    merge_intervals_from(out, start, LENGTH_TOLERANCE / len);
}

/// Pushes the parameters in `[0, 1]` where `a`–`b` meets the centreline segments (unsorted,
/// possibly repeated at shared vertices).
pub(crate) fn centreline_meets(segs: &[CSeg], a: Point, b: Point, out: &mut Vec<f64>) {
    let r = b - a;
    let rr = r.length_squared();
    if !(rr > 0.0) || !rr.is_finite() {
        return;
    }
    let len = rr.sqrt();
    let (lo, hi) = segment_box(a, b);
    const T: f64 = BOUNDARY_TOLERANCE;
    for sg in segs {
        if sg.p.x.max(sg.q.x) + T < lo.x
            || sg.p.x.min(sg.q.x) - T > hi.x
            || sg.p.y.max(sg.q.y) + T < lo.y
            || sg.p.y.min(sg.q.y) - T > hi.y
        {
            continue;
        }
        let s = sg.q - sg.p;
        let ap = sg.p - a;
        let denom = r.cross(s);
        if denom.abs() > 1e-12 * len * sg.len {
            let t = ap.cross(s) / denom;
            let u = ap.cross(r) / denom;
            let u_slack = BOUNDARY_TOLERANCE / sg.len;
            let t_slack = BOUNDARY_TOLERANCE / len;
            if u >= -u_slack && u <= 1.0 + u_slack && t >= -t_slack && t <= 1.0 + t_slack {
                out.push(t.clamp(0.0, 1.0));
            }
        } else if ap.cross(r).abs() / len <= BOUNDARY_TOLERANCE {
            let tp = ap.dot(r) / rr;
            let tq = (sg.q - a).dot(r) / rr;
            let (lo, hi) = (tp.min(tq).max(0.0), tp.max(tq).min(1.0));
            if lo <= hi {
                out.push(lo);
            }
        }
    }
}

/// Sorts and drops values within `tol` of the previous kept one.
pub(crate) fn dedupe(v: &mut Vec<f64>, tol: f64) {
    v.sort_by(f64::total_cmp);
    let mut w = 0;
    for i in 0..v.len() {
        if w == 0 || v[i] - v[w - 1] > tol {
            v[w] = v[i];
            w += 1;
        }
    }
    v.truncate(w);
}

/// Shortest distance between the segment `p`–`q` and the rectangle (zero when they meet).
pub(crate) fn segment_rect_distance(p: Point, q: Point, rect: &Rect) -> f64 {
    if rect.contains(p) || rect.contains(q) {
        return 0.0;
    }
    let c = rect.corners();
    let mut best = f64::INFINITY;
    for i in 0..4 {
        let (c0, c1) = (c[i], c[(i + 1) % 4]);
        if crate::geometry::segment_intersection(p, q, c0, c1).is_some() {
            return 0.0;
        }
        best = best
            .min(point_segment_distance(c0, p, q))
            .min(point_segment_distance(p, c0, c1))
            .min(point_segment_distance(q, c0, c1));
    }
    best
}
