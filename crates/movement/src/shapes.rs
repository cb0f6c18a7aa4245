//! Small exact shape tests the chapter needs beyond tabletop's rectangles: convex hulls of swept
//! footprints, convex-versus-polygon overlap, and the time of first contact of a translating
//! rectangle.

use tabletop::geometry::{Point, Rect, Vec2, segment_intersection};

/// Overlap below this depth (inches) counts as touching, not overlapping.
pub const EPS: f64 = 1e-9;

/// The box around some points: (lowest corner, highest corner); for no points an empty box
/// (lowest corner at +∞), apart from every other.
pub fn box_around(points: impl IntoIterator<Item = Point>) -> (Point, Point) {
    let mut lo = Point::new(f64::INFINITY, f64::INFINITY);
    let mut hi = Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for p in points {
        lo = Point::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = Point::new(hi.x.max(p.x), hi.y.max(p.y));
    }
    (lo, hi)
}

/// A box grown by `pad` on every side.
pub fn padded((lo, hi): (Point, Point), pad: f64) -> (Point, Point) {
    (Point::new(lo.x - pad, lo.y - pad), Point::new(hi.x + pad, hi.y + pad))
}

/// True when two boxes are more than `eps` apart along either axis.
pub fn boxes_apart(a: (Point, Point), b: (Point, Point), eps: f64) -> bool {
    a.1.x < b.0.x - eps || b.1.x < a.0.x - eps || a.1.y < b.0.y - eps || b.1.y < a.0.y - eps
}

/// The convex hull of a set of points, anticlockwise (Andrew's monotone chain), starting from
/// the lowest point by x then y; points within 1e-12 of one another count once, and points on
/// an edge are dropped.
pub fn convex_hull(points: &[Point]) -> Vec<Point> {
    // A few points (a swept stand has eight) are sorted on the stack: one allocation in all.
    let mut small = [Point::new(0.0, 0.0); 16];
    let mut large = Vec::new();
    let p: &mut [Point] = if points.len() <= small.len() {
        small[..points.len()].copy_from_slice(points);
        &mut small[..points.len()]
    } else {
        large.extend_from_slice(points);
        &mut large
    };
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let mut m = 0;
    for i in 0..p.len() {
        let q = p[i];
        if m > 0 && (q.x - p[m - 1].x).abs() < 1e-12 && (q.y - p[m - 1].y).abs() < 1e-12 {
            continue;
        }
        p[m] = q;
        m += 1;
    }
    let p = &p[..m];
    if p.len() < 3 {
        return p.to_vec();
    }
    // The lower chain, then the upper one back from the last point, in one list.
    let mut hull: Vec<Point> = Vec::with_capacity(2 * p.len());
    for &q in p {
        while hull.len() >= 2 {
            let n = hull.len();
            if (hull[n - 1] - hull[n - 2]).cross(q - hull[n - 2]) <= 0.0 {
                hull.pop();
            } else {
                break;
            }
        }
        hull.push(q);
    }
    let lower = hull.len();
    for &q in p.iter().rev().skip(1) {
        while hull.len() > lower {
            let n = hull.len();
            if (hull[n - 1] - hull[n - 2]).cross(q - hull[n - 2]) <= 0.0 {
                hull.pop();
            } else {
                break;
            }
        }
        hull.push(q);
    }
    hull.pop();
    hull
}

/// The area a rectangle sweeps while translated by `d`.
pub fn swept(rect: &Rect, d: Vec2) -> Vec<Point> {
    let c = rect.corners();
    let mut pts: Vec<Point> = c.to_vec();
    pts.extend(c.iter().map(|p| *p + d));
    convex_hull(&pts)
}

fn axes(poly: &[Point]) -> impl Iterator<Item = Vec2> + '_ {
    (0..poly.len()).filter_map(move |i| {
        let e = poly[(i + 1) % poly.len()] - poly[i];
        e.perp_left().normalized()
    })
}

fn project(poly: &[Point], axis: Vec2) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for p in poly {
        let v = p.dot(axis);
        lo = lo.min(v);
        hi = hi.max(v);
    }
    (lo, hi)
}

/// True when two convex polygons overlap with positive area (touching is not overlapping).
pub fn convex_overlap(a: &[Point], b: &[Point]) -> bool {
    if a.len() < 3 || b.len() < 3 {
        return false;
    }
    for ax in axes(a).chain(axes(b)) {
        let (a0, a1) = project(a, ax);
        let (b0, b1) = project(b, ax);
        if a1 <= b0 + EPS || b1 <= a0 + EPS {
            return false;
        }
    }
    true
}

/// Point in a simple polygon (even–odd rule; boundary points may go either way).
pub fn point_in_polygon(p: Point, poly: &[Point]) -> bool {
    let mut inside = false;
    let n = poly.len();
    let mut j = n.wrapping_sub(1);
    for i in 0..n {
        let (a, b) = (poly[i], poly[j]);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
            if p.x < x {
                inside = !inside;
            }
        }
        j = i;
    }
    inside
}

/// True when a convex polygon and a simple (possibly concave) polygon overlap with positive area.
pub fn convex_overlaps_polygon(convex: &[Point], poly: &[Point]) -> bool {
    if convex.len() < 3 || poly.len() < 3 {
        return false;
    }
    // A proper edge crossing.
    for i in 0..convex.len() {
        let (a0, a1) = (convex[i], convex[(i + 1) % convex.len()]);
        for j in 0..poly.len() {
            let (b0, b1) = (poly[j], poly[(j + 1) % poly.len()]);
            if let Some((t, u)) = segment_intersection(a0, a1, b0, b1)
                && t > EPS
                && t < 1.0 - EPS
                && u > EPS
                && u < 1.0 - EPS
            {
                return true;
            }
        }
    }
    // One inside the other: test an interior point of each.
    let centroid = convex.iter().fold(Vec2::ZERO, |s, p| s + *p) * (1.0 / convex.len() as f64);
    if point_in_polygon(centroid, poly) {
        return true;
    }
    poly.iter().any(|p| strictly_inside_convex(*p, convex))
        || (0..poly.len()).any(|j| {
            let m = poly[j].lerp(poly[(j + 1) % poly.len()], 0.5);
            strictly_inside_convex(m, convex)
        })
}

/// True when `p` is strictly inside an anticlockwise convex polygon.
pub fn strictly_inside_convex(p: Point, convex: &[Point]) -> bool {
    (0..convex.len()).all(|i| {
        let a = convex[i];
        let b = convex[(i + 1) % convex.len()];
        (b - a).cross(p - a) > EPS
    })
}

/// The interval of `t` in which a rectangle translated by `t·d` overlaps a fixed rectangle
/// (separating-axis sweep); `None` when they never overlap for any real `t`.
pub fn sweep_interval(moving: &Rect, d: Vec2, fixed: &Rect) -> Option<(f64, f64)> {
    tabletop::budget::tick();
    let a = moving.corners();
    let b = fixed.corners();
    let axes_list = [
        moving.facing.vector(),
        moving.facing.right(),
        fixed.facing.vector(),
        fixed.facing.right(),
    ];
    let mut enter = f64::NEG_INFINITY;
    let mut exit = f64::INFINITY;
    let mut touch = f64::NEG_INFINITY;
    for ax in axes_list {
        let (a0, a1) = project(&a, ax);
        let (b0, b1) = project(&b, ax);
        let v = d.dot(ax);
        // Overlap on this axis while a1 + v t > b0 + EPS and b1 > a0 + v t + EPS.
        if v.abs() < 1e-15 {
            if a1 <= b0 + EPS || b1 <= a0 + EPS {
                return None;
            }
            continue;
        }
        let t1 = (b0 + EPS - a1) / v;
        let t2 = (b1 - EPS - a0) / v;
        let (lo, hi) = if t1 < t2 { (t1, t2) } else { (t2, t1) };
        enter = enter.max(lo);
        exit = exit.min(hi);
        if enter >= exit {
            return None;
        }
        // The moment of touching, without the overlap margin.
        let u1 = (b0 - a1) / v;
        let u2 = (b1 - a0) / v;
        touch = touch.max(u1.min(u2));
    }
    Some((touch.min(enter), exit))
}

/// The rectangle's outline as a polygon.
pub fn rect_poly(r: &Rect) -> Vec<Point> {
    let mut c = r.corners().to_vec();
    // corners() runs front-left, front-right, rear-right, rear-left: clockwise; reverse it.
    c.reverse();
    c
}

/// Distance from a point to a polyline, and the arc length along it of the nearest point.
pub fn polyline_distance(p: Point, line: &[Point]) -> (f64, f64) {
    let mut best = (f64::INFINITY, 0.0);
    let mut run = 0.0;
    for w in line.windows(2) {
        let (a, b) = (w[0], w[1]);
        let ab = b - a;
        let l2 = ab.length_squared();
        let t = if l2 == 0.0 { 0.0 } else { ((p - a).dot(ab) / l2).clamp(0.0, 1.0) };
        let q = a + ab * t;
        let dist = p.distance(q);
        if dist < best.0 {
            best = (dist, run + t * l2.sqrt());
        }
        run += l2.sqrt();
    }
    if line.len() == 1 {
        return (p.distance(line[0]), 0.0);
    }
    best
}

/// The point at arc length `s` along a polyline and the unit tangent there.
pub fn polyline_at(line: &[Point], s: f64) -> Option<(Point, Vec2)> {
    let mut run = 0.0;
    for w in line.windows(2) {
        let l = w[0].distance(w[1]);
        if s <= run + l || l == 0.0 {
            let t = if l == 0.0 { 0.0 } else { ((s - run) / l).clamp(0.0, 1.0) };
            return Some((w[0].lerp(w[1], t), (w[1] - w[0]).normalized()?));
        }
        run += l;
    }
    let n = line.len();
    if n >= 2 {
        return Some((line[n - 1], (line[n - 1] - line[n - 2]).normalized()?));
    }
    None
}

/// Parameters in (0, 1) where the segment `a`–`b` meets the circle of centre `c` and radius `r`.
pub fn segment_circle(a: Point, b: Point, c: Point, r: f64, out: &mut Vec<f64>) {
    let d = b - a;
    let f = a - c;
    let qa = d.dot(d);
    if qa == 0.0 {
        return;
    }
    let qb = 2.0 * f.dot(d);
    let qc = f.dot(f) - r * r;
    let disc = qb * qb - 4.0 * qa * qc;
    if disc < 0.0 {
        return;
    }
    let s = disc.sqrt();
    for t in [(-qb - s) / (2.0 * qa), (-qb + s) / (2.0 * qa)] {
        if t > 0.0 && t < 1.0 {
            out.push(t);
        }
    }
}

/// Parameters in (0, 1) where the segment `a`–`b` crosses the segment `q0`–`q1`.
pub fn segment_cuts(a: Point, b: Point, q0: Point, q1: Point, out: &mut Vec<f64>) {
    if let Some((t, _)) = segment_intersection(a, b, q0, q1)
        && t > 0.0
        && t < 1.0
    {
        out.push(t);
    }
}

/// Half the diagonal of a rectangle: every point of it lies within this of its centre.
#[inline]
pub fn rect_radius(r: &Rect) -> f64 {
    0.5 * (r.width * r.width + r.depth * r.depth).sqrt()
}

/// A lower bound of the edge-to-edge distance, from the bounding circles.
#[inline]
pub fn rect_distance_lower_bound(a: &Rect, b: &Rect) -> f64 {
    let d = a.centre - b.centre;
    (d.dot(d).sqrt() - rect_radius(a) - rect_radius(b)).max(0.0)
}

/// True when two rectangles are within `d` of each other, edge to edge.
#[inline]
pub fn within(a: &Rect, b: &Rect, d: f64) -> bool {
    rect_distance_lower_bound(a, b) <= d && a.distance(b) <= d
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop::geometry::Facing;

    /// The monotone chain as first written, two lists and all: the hull must match it point
    /// for point.
    fn hull_as_before(points: &[Point]) -> Vec<Point> {
        let mut p: Vec<Point> = points.to_vec();
        p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        p.dedup_by(|a, b| (a.x - b.x).abs() < 1e-12 && (a.y - b.y).abs() < 1e-12);
        if p.len() < 3 {
            return p;
        }
        let chain = |it: &mut dyn Iterator<Item = Point>| {
            let mut c: Vec<Point> = Vec::new();
            for q in it {
                while c.len() >= 2
                    && (c[c.len() - 1] - c[c.len() - 2]).cross(q - c[c.len() - 2]) <= 0.0
                {
                    c.pop();
                }
                c.push(q);
            }
            c
        };
        let mut lower = chain(&mut p.iter().copied());
        let mut upper = chain(&mut p.iter().rev().copied());
        lower.pop();
        upper.pop();
        lower.extend(upper);
        lower
    }

    #[test]
    fn the_hull_is_the_one_it_always_was() {
        let mut seed: u64 = 7;
        let mut next = move || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            // Coarse values, so that duplicates and collinear points are common.
            ((seed >> 33) % 9) as f64 * 0.5
        };
        for n in 0..24 {
            for _ in 0..200 {
                let pts: Vec<Point> = (0..n).map(|_| Point::new(next(), next())).collect();
                assert_eq!(convex_hull(&pts), hull_as_before(&pts), "{pts:?}");
            }
        }
        let r = Rect::new(Point::new(3.0, 4.0), Facing::from_bearing_degrees(30.0), 2.0, 1.0);
        let c = r.corners();
        let mut pts = c.to_vec();
        pts.extend(c.iter().map(|p| *p + Vec2::new(1.5, -0.25)));
        assert_eq!(convex_hull(&pts), hull_as_before(&pts));
    }

    #[test]
    fn sweep_finds_first_contact() {
        let a = Rect::new(Vec2::new(0.0, 0.0), Facing::NORTH, 2.0, 1.0);
        let b = Rect::new(Vec2::new(0.0, 10.0), Facing::SOUTH, 2.0, 1.0);
        let (enter, _) = sweep_interval(&a, Vec2::new(0.0, 10.0), &b).unwrap();
        assert!((enter - 0.9).abs() < 1e-6, "{enter}");
    }

    #[test]
    fn fast_distance_agrees_with_tabletop() {
        let a = Rect::new(Vec2::new(0.0, 0.0), Facing::NORTH, 2.0, 1.0);
        for (x, y, deg) in [(3.0, 0.5, 10.0), (0.5, 4.0, 45.0), (1.0, 0.2, 0.0), (-5.0, -5.0, 80.0)]
        {
            let b = Rect::new(Vec2::new(x, y), Facing::from_bearing_degrees(deg), 1.5, 1.0);
            assert!(rect_distance_lower_bound(&a, &b) <= a.distance(&b) + 1e-12);
        }
    }

    #[test]
    fn hull_of_square() {
        let h = convex_hull(&[
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(0.5, 0.5),
        ]);
        assert_eq!(h.len(), 4);
    }
}
