//! Exact polygon measures: area, containment (boundary inside), the parameter intervals of a
//! segment lying inside, and the positive-area overlap of a polygon with a rectangle.
//!
//! The inside intervals come from segment–edge intersections: the segment is split at every
//! parameter where it meets an edge (proper crossings, touches at vertices within
//! [`BOUNDARY_TOLERANCE`], and both ends of collinear overlaps), and each piece between
//! consecutive splits is classified by testing its midpoint. A piece has no edge crossing in its
//! interior, so the midpoint speaks for the whole piece; extra splits never change the result.

use super::Polygon;
use super::convex::{
    AREA_TOLERANCE, boxes_meet, merge_intervals, point_segment_distance2, points_box, rect_planes,
    segment_box, shoelace,
};
use crate::geometry::{Point, Rect, point_segment_distance};

/// Points within this distance (inches) of a polygon's boundary count as on it, and so inside.
pub const BOUNDARY_TOLERANCE: f64 = 1e-9;

/// Pieces of a segment shorter than this (inches) are not told apart from their neighbours:
/// intervals closer than this are joined and shorter ones dropped.
pub const LENGTH_TOLERANCE: f64 = 1e-9;

impl Polygon {
    /// A polygon from its vertices.
    pub fn new(points: Vec<Point>) -> Polygon {
        Polygon { points }
    }

    /// The edges, the closing edge (last vertex to first) included. A polygon of one vertex has
    /// one zero-length edge; an empty one has none.
    pub fn edges(&self) -> impl Iterator<Item = (Point, Point)> + '_ {
        let n = self.points.len();
        (0..n).map(move |i| (self.points[i], self.points[(i + 1) % n]))
    }

    /// The signed area by the shoelace formula: positive when the vertices run anticlockwise.
    pub fn signed_area(&self) -> f64 {
        shoelace(&self.points) / 2.0
    }

    /// The area enclosed, in square inches.
    pub fn area(&self) -> f64 {
        self.signed_area().abs()
    }

    /// The centre of the enclosed area; the mean of the vertices for a polygon with no area;
    /// `None` when it has no vertices.
    pub fn centroid(&self) -> Option<Point> {
        let n = self.points.len();
        if n == 0 {
            return None;
        }
        let a = self.signed_area();
        if a.abs() < 1e-12 {
            let (sx, sy) = self.points.iter().fold((0.0, 0.0), |(x, y), p| (x + p.x, y + p.y));
            return Some(Point::new(sx / n as f64, sy / n as f64));
        }
        let (mut cx, mut cy) = (0.0, 0.0);
        for (p, q) in self.edges() {
            let c = p.x * q.y - q.x * p.y;
            cx += (p.x + q.x) * c;
            cy += (p.y + q.y) * c;
        }
        Some(Point::new(cx / (6.0 * a), cy / (6.0 * a)))
    }

    /// The smallest axis-aligned box holding the polygon, as (min, max); `None` when empty.
    pub fn bounds(&self) -> Option<(Point, Point)> {
        points_box(&self.points)
    }

    /// True when `p` is inside the polygon or within [`BOUNDARY_TOLERANCE`] of its boundary.
    /// Uses the even–odd rule, so it gives an answer (and never panics) for self-intersecting or
    /// degenerate input too.
    pub fn contains(&self, p: Point) -> bool {
        self.crosses_odd(p) || self.on_boundary(p)
    }

    /// The even–odd ray-crossing test (boundary points may go either way).
    #[inline]
    fn crosses_odd(&self, p: Point) -> bool {
        let mut inside = false;
        for (p0, p1) in self.edges() {
            if (p0.y > p.y) != (p1.y > p.y) {
                let x = p0.x + (p.y - p0.y) * (p1.x - p0.x) / (p1.y - p0.y);
                if p.x < x {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// True when `p` is within [`BOUNDARY_TOLERANCE`] of an edge.
    pub fn on_boundary(&self, p: Point) -> bool {
        const T: f64 = BOUNDARY_TOLERANCE;
        self.edges().any(|(p0, p1)| {
            // Cheap box rejection before the exact distance.
            !(p.x < p0.x.min(p1.x) - T
                || p.x > p0.x.max(p1.x) + T
                || p.y < p0.y.min(p1.y) - T
                || p.y > p0.y.max(p1.y) + T)
                && point_segment_distance2(p, p0, p1) <= T * T
        })
    }

    /// Shortest distance from `p` to the boundary (infinite for an empty polygon).
    pub fn distance_to_boundary(&self, p: Point) -> f64 {
        self.edges().map(|(p0, p1)| point_segment_distance(p, p0, p1)).fold(f64::INFINITY, f64::min)
    }

    /// The parameter intervals `[t0, t1]` (`0` at `a`, `1` at `b`) of the segment `a`–`b` that lie
    /// inside the polygon (boundary included), sorted and disjoint. Empty for a zero-length or
    /// non-finite segment.
    pub fn segment_intervals(&self, a: Point, b: Point) -> Vec<(f64, f64)> {
        let mut params = Vec::new();
        let mut out = Vec::new();
        self.segment_intervals_into(a, b, &mut params, &mut out);
        out
    }

    /// The length of the segment `a`–`b` inside the polygon, in inches.
    pub fn length_inside(&self, a: Point, b: Point) -> f64 {
        let len = a.distance(b);
        self.segment_intervals(a, b).iter().map(|(s, e)| (e - s) * len).sum()
    }

    /// [`Polygon::segment_intervals`] into caller-owned buffers (`params` is scratch).
    pub(crate) fn segment_intervals_into(
        &self,
        a: Point,
        b: Point,
        params: &mut Vec<f64>,
        out: &mut Vec<(f64, f64)>,
    ) {
        out.clear();
        params.clear();
        let r = b - a;
        let rr = r.length_squared();
        if !(rr > 0.0) || !rr.is_finite() || self.points.is_empty() {
            return;
        }
        let len = rr.sqrt();
        let tol_t = LENGTH_TOLERANCE / len;
        params.push(0.0);
        params.push(1.0);
        let (lo, hi) = segment_box(a, b);
        const T: f64 = BOUNDARY_TOLERANCE;
        // Without an edge along the segment, no piece between splits can lie on the boundary
        // (touches and crossings are all splits), so the parity test alone classifies pieces.
        let mut collinear = false;
        for (p, q) in self.edges() {
            // Edges whose box misses the segment's cannot meet it.
            if p.x.max(q.x) < lo.x - T
                || p.x.min(q.x) > hi.x + T
                || p.y.max(q.y) < lo.y - T
                || p.y.min(q.y) > hi.y + T
            {
                continue;
            }
            let s = q - p;
            let ss = s.length_squared();
            if !(ss > 0.0) {
                continue;
            }
            let ap = p - a;
            let denom = r.cross(s);
            if denom.abs() > 1e-12 * (rr * ss).sqrt() {
                let t = ap.cross(s) / denom;
                let u = ap.cross(r) / denom;
                let u_slack = BOUNDARY_TOLERANCE / ss.sqrt();
                if u >= -u_slack && u <= 1.0 + u_slack && t > 0.0 && t < 1.0 {
                    params.push(t);
                }
            } else if ap.cross(r).abs() / len <= BOUNDARY_TOLERANCE {
                // Collinear: split at both ends of the edge.
                collinear = true;
                for v in [p, q] {
                    let t = (v - a).dot(r) / rr;
                    if t > 0.0 && t < 1.0 {
                        params.push(t);
                    }
                }
            }
        }
        params.sort_by(f64::total_cmp);
        for w in params.windows(2) {
            let (t0, t1) = (w[0], w[1]);
            if !(t1 - t0 > tol_t) {
                continue;
            }
            let m = a.lerp(b, (t0 + t1) / 2.0);
            if self.crosses_odd(m) || (collinear && self.on_boundary(m)) {
                match out.last_mut() {
                    Some(last) if last.1 >= t0 - tol_t => last.1 = t1,
                    _ => out.push((t0, t1)),
                }
            }
        }
        merge_intervals(out, tol_t);
    }

    /// The area shared by the polygon and the rectangle, in square inches (Sutherland–Hodgman
    /// clipping of the polygon by the rectangle, which is exact in area for any simple polygon).
    pub fn intersection_area_with_rect(&self, rect: &Rect) -> f64 {
        let mut cur: Vec<Point> = self.points.clone();
        let mut next = Vec::with_capacity(cur.len() + 4);
        for h in rect_planes(rect) {
            next.clear();
            let n = cur.len();
            for i in 0..n {
                let p = cur[i];
                let q = cur[(i + 1) % n];
                let fp = h.n.dot(p) - h.c;
                let fq = h.n.dot(q) - h.c;
                if fp <= 0.0 {
                    next.push(p);
                    if fq > 0.0 {
                        next.push(p.lerp(q, fp / (fp - fq)));
                    }
                } else if fq <= 0.0 {
                    next.push(p.lerp(q, fp / (fp - fq)));
                }
            }
            std::mem::swap(&mut cur, &mut next);
            if cur.len() < 3 {
                return 0.0;
            }
        }
        shoelace(&cur).abs() / 2.0
    }

    /// True when the polygon and the rectangle share a region of positive area (more than
    /// 1e-12 square inches): touching along an edge or at a corner is not overlapping, as for
    /// [`Rect::overlaps`].
    pub fn overlaps_rect(&self, rect: &Rect) -> bool {
        let Some(pb) = self.bounds() else {
            return false;
        };
        if !boxes_meet(pb, rect.bounds()) {
            return false;
        }
        self.intersection_area_with_rect(rect) > AREA_TOLERANCE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centroid_of_an_l_shape_and_of_degenerate_polygons() {
        // An L of a 4x2 bar and a 2x2 square on its left end: areas 8 and 4.
        let l = Polygon::new(vec![
            Point::new(0.0, 0.0),
            Point::new(4.0, 0.0),
            Point::new(4.0, 2.0),
            Point::new(2.0, 2.0),
            Point::new(2.0, 4.0),
            Point::new(0.0, 4.0),
        ]);
        let c = l.centroid().unwrap();
        // (8·(2,1) + 4·(1,3)) / 12 = (20/12, 20/12).
        assert!((c.x - 20.0 / 12.0).abs() < 1e-12 && (c.y - 20.0 / 12.0).abs() < 1e-12);
        let flat = Polygon::new(vec![Point::new(0.0, 0.0), Point::new(2.0, 0.0)]);
        assert_eq!(flat.centroid(), Some(Point::new(1.0, 0.0)));
        assert_eq!(Polygon::new(vec![]).centroid(), None);
    }
}
