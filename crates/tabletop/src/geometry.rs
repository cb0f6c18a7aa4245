//! Plane geometry in inches: points and vectors, facings as unit vectors, oriented rectangles
//! (stand and unit footprints), exact overlap by separating axes, edge-to-edge distance,
//! base-to-base contact, sectors, arcs and wheels.
//!
//! Rules never call `sin` or `cos` on their hot paths: a facing is a unit vector, and a turn
//! through an angle is applied as a rotation by another unit vector. Where an angle must become
//! a vector (a scenario file gives facings in degrees), the portable `libm` functions are used so
//! that every platform computes the same bits.

use serde::{Deserialize, Serialize};
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// Default contact tolerance in inches: edges closer than this touch.
pub const CONTACT_TOLERANCE: f64 = 0.01;

/// A point or a vector on the table, in inches. `x` grows to the right (east), `y` grows up the
/// table (north), as on a map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Vec2 {
    /// East–west coordinate.
    pub x: f64,
    /// South–north coordinate.
    pub y: f64,
}

/// A point is a vector from the table's origin (its south-west corner).
pub type Point = Vec2;

impl Vec2 {
    /// The zero vector.
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };

    /// A vector from its two coordinates.
    pub const fn new(x: f64, y: f64) -> Self {
        Vec2 { x, y }
    }

    /// Dot product.
    #[inline]
    pub fn dot(self, o: Vec2) -> f64 {
        self.x * o.x + self.y * o.y
    }

    /// The z component of the cross product: positive when `o` lies anticlockwise of `self`.
    #[inline]
    pub fn cross(self, o: Vec2) -> f64 {
        self.x * o.y - self.y * o.x
    }

    /// Length, by `sqrt` of the sum of squares: several times faster than `hypot`, and exact
    /// to the last bit or two for table distances (no coordinate on a table is near the
    /// overflow or underflow that `hypot` guards against).
    #[inline]
    pub fn length(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }

    /// Squared length.
    #[inline]
    pub fn length_squared(self) -> f64 {
        self.dot(self)
    }

    /// Distance to another point.
    #[inline]
    pub fn distance(self, o: Vec2) -> f64 {
        (self - o).length()
    }

    /// This vector scaled to length one, or `None` for the zero vector.
    pub fn normalized(self) -> Option<Vec2> {
        let l = self.length();
        (l > 0.0 && l.is_finite()).then(|| Vec2::new(self.x / l, self.y / l))
    }

    /// The vector turned 90° anticlockwise (to the left).
    #[inline]
    pub fn perp_left(self) -> Vec2 {
        Vec2::new(-self.y, self.x)
    }

    /// The vector turned 90° clockwise (to the right).
    #[inline]
    pub fn perp_right(self) -> Vec2 {
        Vec2::new(self.y, -self.x)
    }

    /// Rotates this vector by the rotation that takes east `(1, 0)` to the unit vector `by`.
    #[inline]
    pub fn rotate_by(self, by: Vec2) -> Vec2 {
        Vec2::new(self.x * by.x - self.y * by.y, self.x * by.y + self.y * by.x)
    }

    /// Linear interpolation: `self` at `t = 0`, `o` at `t = 1`.
    #[inline]
    pub fn lerp(self, o: Vec2, t: f64) -> Vec2 {
        self + (o - self) * t
    }

    /// True when both coordinates are finite numbers.
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    #[inline]
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}
impl AddAssign for Vec2 {
    #[inline]
    fn add_assign(&mut self, o: Vec2) {
        self.x += o.x;
        self.y += o.y;
    }
}
impl Sub for Vec2 {
    type Output = Vec2;
    #[inline]
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}
impl SubAssign for Vec2 {
    #[inline]
    fn sub_assign(&mut self, o: Vec2) {
        self.x -= o.x;
        self.y -= o.y;
    }
}
impl Mul<f64> for Vec2 {
    type Output = Vec2;
    #[inline]
    fn mul(self, k: f64) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}
impl Neg for Vec2 {
    type Output = Vec2;
    #[inline]
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}

/// A facing: the unit vector a unit's front points along.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Vec2", into = "Vec2")]
pub struct Facing(Vec2);

impl Facing {
    /// Facing north (up the table).
    pub const NORTH: Facing = Facing(Vec2::new(0.0, 1.0));
    /// Facing south.
    pub const SOUTH: Facing = Facing(Vec2::new(0.0, -1.0));
    /// Facing east.
    pub const EAST: Facing = Facing(Vec2::new(1.0, 0.0));
    /// Facing west.
    pub const WEST: Facing = Facing(Vec2::new(-1.0, 0.0));

    /// A facing from any non-zero vector.
    pub fn from_vector(v: Vec2) -> Option<Facing> {
        v.normalized().map(Facing)
    }

    /// A facing from a compass bearing in degrees: 0 is north (up the table), 90 east.
    /// Whole multiples of 90° are exact.
    pub fn from_bearing_degrees(deg: f64) -> Facing {
        let d = deg.rem_euclid(360.0);
        let exact =
            [(0.0, Self::NORTH), (90.0, Self::EAST), (180.0, Self::SOUTH), (270.0, Self::WEST)];
        for (a, f) in exact {
            if d == a {
                return f;
            }
        }
        let r = d.to_radians();
        Facing(Vec2::new(libm::sin(r), libm::cos(r)))
    }

    /// The compass bearing in degrees, in `[0, 360)`.
    pub fn bearing_degrees(self) -> f64 {
        libm::atan2(self.0.x, self.0.y).to_degrees().rem_euclid(360.0)
    }

    /// The unit vector.
    #[inline]
    pub fn vector(self) -> Vec2 {
        self.0
    }

    /// The unit vector to the unit's right.
    #[inline]
    pub fn right(self) -> Vec2 {
        self.0.perp_right()
    }

    /// The unit vector to the unit's left.
    #[inline]
    pub fn left(self) -> Vec2 {
        self.0.perp_left()
    }

    /// Turned 90° to the right.
    pub fn turned_right(self) -> Facing {
        Facing(self.0.perp_right())
    }

    /// Turned 90° to the left.
    pub fn turned_left(self) -> Facing {
        Facing(self.0.perp_left())
    }

    /// Turned about, 180°.
    pub fn reversed(self) -> Facing {
        Facing(-self.0)
    }

    /// Rotated anticlockwise by the turn `by` (a unit vector, east meaning no turn).
    pub fn rotated(self, by: Vec2) -> Facing {
        Facing(self.0.rotate_by(by))
    }

    /// The unsigned angle in radians between two facings, in `[0, π]`.
    pub fn angle_to(self, o: Facing) -> f64 {
        libm::atan2(self.0.cross(o.0).abs(), self.0.dot(o.0))
    }
}

impl TryFrom<Vec2> for Facing {
    type Error = String;
    /// A vector that is already of unit length (to 1e-9) is kept bit for bit, so a facing
    /// survives a serde round trip exactly; any other non-zero vector is normalised.
    fn try_from(v: Vec2) -> Result<Self, String> {
        if v.is_finite() && (v.length_squared() - 1.0).abs() < 1e-9 {
            return Ok(Facing(v));
        }
        Facing::from_vector(v).ok_or_else(|| "a facing must be a non-zero vector".to_string())
    }
}

impl From<Facing> for Vec2 {
    fn from(f: Facing) -> Vec2 {
        f.0
    }
}

/// The rotation, as a unit vector, that turns anticlockwise through `radians`.
pub fn rotation(radians: f64) -> Vec2 {
    Vec2::new(libm::cos(radians), libm::sin(radians))
}

/// One of the four 90° sectors around a unit, centred on its front, flanks and rear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sector {
    /// Within 45° of the facing (exactly 45° counts here).
    Front,
    /// The right flank.
    Right,
    /// The left flank.
    Left,
    /// Within 45° of the reverse facing (exactly 45° counts as a flank).
    Rear,
}

/// The sector a direction lies in relative to a facing. Exactly 45° from the front is front;
/// exactly 45° from the rear is a flank. The zero vector is front.
pub fn direction_sector(facing: Facing, dir: Vec2) -> Sector {
    let f = facing.vector();
    let along = dir.dot(f);
    let across = dir.dot(facing.right());
    if along >= across.abs() {
        Sector::Front
    } else if -along > across.abs() {
        Sector::Rear
    } else if across > 0.0 {
        Sector::Right
    } else {
        Sector::Left
    }
}

/// True when `target` lies within the arc of `half_angle` radians either side of `facing`,
/// seen from `origin` (boundary included).
pub fn in_arc(origin: Point, facing: Facing, half_angle: f64, target: Point) -> bool {
    let d = target - origin;
    let len = d.length();
    if len == 0.0 {
        return true;
    }
    d.dot(facing.vector()) >= libm::cos(half_angle) * len - 1e-12 * len
}

/// The front corner a wheel pivots on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pivot {
    /// The left front corner stays still; the right flank sweeps forward and the unit turns left.
    Left,
    /// The right front corner stays still; the left flank sweeps forward and the unit turns right.
    Right,
}

/// An oriented rectangle: a stand's or a unit's footprint. The front edge is the edge in the
/// facing direction; `width` is the frontage (measured along the front edge), `depth` is
/// measured along the facing.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    /// The centre.
    pub centre: Point,
    /// The direction the front edge faces.
    pub facing: Facing,
    /// Frontage, in inches.
    pub width: f64,
    /// Depth, in inches.
    pub depth: f64,
}

impl Rect {
    /// A rectangle from its centre, facing, frontage and depth.
    pub fn new(centre: Point, facing: Facing, width: f64, depth: f64) -> Rect {
        Rect { centre, facing, width, depth }
    }

    /// A rectangle placed by the midpoint of its front edge.
    pub fn from_front_centre(front_centre: Point, facing: Facing, width: f64, depth: f64) -> Rect {
        Rect::new(front_centre - facing.vector() * (depth / 2.0), facing, width, depth)
    }

    /// Half extents along the right and facing axes.
    #[inline]
    fn half(&self) -> (Vec2, Vec2) {
        (self.facing.right() * (self.width / 2.0), self.facing.vector() * (self.depth / 2.0))
    }

    /// The four corners in order: front-left, front-right, rear-right, rear-left.
    pub fn corners(&self) -> [Point; 4] {
        let (r, f) = self.half();
        let c = self.centre;
        [c + f - r, c + f + r, c - f + r, c - f - r]
    }

    /// Midpoint of the front edge.
    pub fn front_centre(&self) -> Point {
        self.centre + self.facing.vector() * (self.depth / 2.0)
    }

    /// Front-left corner.
    pub fn front_left(&self) -> Point {
        self.corners()[0]
    }

    /// Front-right corner.
    pub fn front_right(&self) -> Point {
        self.corners()[1]
    }

    /// The same rectangle moved by `d`.
    pub fn translated(&self, d: Vec2) -> Rect {
        Rect { centre: self.centre + d, ..*self }
    }

    /// The rectangle rotated about `pivot` by the unit-vector rotation `by` (anticlockwise).
    pub fn rotated_about(&self, pivot: Point, by: Vec2) -> Rect {
        Rect {
            centre: pivot + (self.centre - pivot).rotate_by(by),
            facing: self.facing.rotated(by),
            ..*self
        }
    }

    /// The point in local coordinates (`x` to the right, `y` forward) relative to the centre.
    #[inline]
    pub fn to_local(&self, p: Point) -> Vec2 {
        let d = p - self.centre;
        Vec2::new(d.dot(self.facing.right()), d.dot(self.facing.vector()))
    }

    /// A local point (`x` right, `y` forward from the centre) back to table coordinates.
    #[inline]
    pub fn to_world(&self, l: Vec2) -> Point {
        self.centre + self.facing.right() * l.x + self.facing.vector() * l.y
    }

    /// True when the point is inside or on the boundary.
    pub fn contains(&self, p: Point) -> bool {
        let l = self.to_local(p);
        l.x.abs() <= self.width / 2.0 && l.y.abs() <= self.depth / 2.0
    }

    /// Exact overlap test by separating axes. Rectangles that only touch along an edge or at a
    /// corner do not overlap; any positive-area intersection does (up to `1e-9` inches).
    #[inline]
    pub fn overlaps(&self, o: &Rect) -> bool {
        crate::budget::tick();
        const EPS: f64 = 1e-9;
        let d = o.centre - self.centre;
        let (a_r, a_f) = (self.facing.right(), self.facing.vector());
        let (b_r, b_f) = (o.facing.right(), o.facing.vector());
        let (aw, ad, bw, bd) = (self.width / 2.0, self.depth / 2.0, o.width / 2.0, o.depth / 2.0);
        // Projections of the other rectangle's half extents on an axis.
        let rr = a_r.dot(b_r).abs();
        let rf = a_r.dot(b_f).abs();
        let fr = a_f.dot(b_r).abs();
        let ff = a_f.dot(b_f).abs();
        if d.dot(a_r).abs() >= aw + bw * rr + bd * rf - EPS {
            return false;
        }
        if d.dot(a_f).abs() >= ad + bw * fr + bd * ff - EPS {
            return false;
        }
        if d.dot(b_r).abs() >= bw + aw * rr + ad * fr - EPS {
            return false;
        }
        if d.dot(b_f).abs() >= bd + aw * rf + ad * ff - EPS {
            return false;
        }
        true
    }

    /// Shortest edge-to-edge distance between two rectangles; zero when they touch or overlap.
    pub fn distance(&self, o: &Rect) -> f64 {
        crate::budget::tick();
        if self.overlaps(o) {
            return 0.0;
        }
        let a = self.corners();
        let b = o.corners();
        // Every corner's distance to every edge of the other, estimated in the other's own
        // frame; only the pairs whose estimate comes within a hair of the least are measured
        // exactly, and the least of those is the least of all 32 (the estimates and the exact
        // figures differ by rounding, some 1e-12", far below the hair).
        let near_a = self.edge_estimates(&b);
        let near_b = o.edge_estimates(&a);
        let least = near_a.iter().chain(&near_b).flatten().fold(f64::INFINITY, |m, &d| m.min(d));
        let hair = least.sqrt() * (1.0 + 1e-9) + 1e-6;
        let cut = hair * hair;
        let all = !cut.is_finite();
        let mut best = f64::INFINITY;
        for i in 0..4 {
            let (a0, a1) = (a[i], a[(i + 1) % 4]);
            let (b0, b1) = (b[i], b[(i + 1) % 4]);
            for j in 0..4 {
                if all || near_a[i][j] <= cut {
                    best = best.min(point_segment_distance_squared(b[j], a0, a1));
                }
                if all || near_b[i][j] <= cut {
                    best = best.min(point_segment_distance_squared(a[j], b0, b1));
                }
            }
        }
        best.sqrt()
    }

    /// Estimates of the squared distance from each point to each edge (front, right, rear,
    /// left, as [`Rect::corners`] joins them), in this rectangle's frame: `[edge][point]`.
    fn edge_estimates(&self, pts: &[Point; 4]) -> [[f64; 4]; 4] {
        let (hw, hd) = (self.width / 2.0, self.depth / 2.0);
        let mut out = [[0.0; 4]; 4];
        for (j, p) in pts.iter().enumerate() {
            let l = self.to_local(*p);
            let ox = (l.x.abs() - hw).max(0.0);
            let oy = (l.y.abs() - hd).max(0.0);
            let sq = |u: f64, v: f64| u * u + v * v;
            out[0][j] = sq(ox, l.y - hd);
            out[1][j] = sq(l.x - hw, oy);
            out[2][j] = sq(ox, l.y + hd);
            out[3][j] = sq(l.x + hw, oy);
        }
        out
    }

    /// Shortest distance from a point to the rectangle (zero inside).
    pub fn distance_to_point(&self, p: Point) -> f64 {
        let l = self.to_local(p);
        let dx = (l.x.abs() - self.width / 2.0).max(0.0);
        let dy = (l.y.abs() - self.depth / 2.0).max(0.0);
        (dx * dx + dy * dy).sqrt()
    }

    /// Whether the rectangles come within `d` inches of each other (`distance(o) <= d`), deciding
    /// pairs whose circumscribed circles are farther apart than `d` without the edge distances.
    pub fn within(&self, o: &Rect, d: f64) -> bool {
        let reach = self.half_diagonal() + o.half_diagonal() + d;
        if (o.centre - self.centre).length_squared() > reach * reach {
            return false;
        }
        self.distance(o) <= d
    }

    /// Base-to-base contact: the rectangles do not overlap and their edges are within
    /// `tolerance` inches.
    pub fn touches(&self, o: &Rect, tolerance: f64) -> bool {
        // Rectangles whose circumscribed circles are farther apart than the tolerance cannot
        // touch: most pairs on a table are decided here, without the edge distances.
        let reach = self.half_diagonal() + o.half_diagonal() + tolerance;
        if (o.centre - self.centre).length_squared() > reach * reach {
            return false;
        }
        !self.overlaps(o) && self.distance(o) <= tolerance
    }

    /// The rectangle with every edge moved in by `d` (never below nothing): a footprint less a
    /// contact tolerance, so that stands that only touch do not overlap.
    pub fn inset(&self, d: f64) -> Rect {
        Rect::new(
            self.centre,
            self.facing,
            (self.width - 2.0 * d).max(0.0),
            (self.depth - 2.0 * d).max(0.0),
        )
    }

    /// Half the diagonal: the radius of the circle through the corners.
    pub fn half_diagonal(&self) -> f64 {
        0.5 * (self.width * self.width + self.depth * self.depth).sqrt()
    }

    /// The sector of this rectangle in which a point lies, judged from the centre by the
    /// diagonals' 45° rule of [`direction_sector`].
    pub fn sector_of(&self, p: Point) -> Sector {
        direction_sector(self.facing, p - self.centre)
    }

    /// The sector a whole other rectangle lies in: the sector of the other's centre.
    pub fn sector_of_rect(&self, o: &Rect) -> Sector {
        self.sector_of(o.centre)
    }

    /// The smallest axis-aligned box holding the rectangle: (min, max).
    pub fn bounds(&self) -> (Point, Point) {
        let c = self.corners();
        let mut lo = c[0];
        let mut hi = c[0];
        for p in &c[1..] {
            lo.x = lo.x.min(p.x);
            lo.y = lo.y.min(p.y);
            hi.x = hi.x.max(p.x);
            hi.y = hi.y.max(p.y);
        }
        (lo, hi)
    }

    /// The pivot point of a wheel on this rectangle's front edge.
    pub fn pivot_point(&self, pivot: Pivot) -> Point {
        match pivot {
            Pivot::Left => self.front_left(),
            Pivot::Right => self.front_right(),
        }
    }
}

/// A wheel: a rotation about a front corner. Positive `radians` always swings the free flank
/// forward (a forward wheel); negative swings it back (a backward wheel).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Wheel {
    /// Which front corner stays still.
    pub pivot: Pivot,
    /// The angle turned, in radians; negative for a backward wheel.
    pub radians: f64,
}

impl Wheel {
    /// The anticlockwise rotation angle this wheel applies. Pivoting on the left corner, the
    /// right flank comes forward: the unit turns to the left (anticlockwise). Pivoting on the
    /// right corner, it turns to the right (clockwise).
    pub fn signed_rotation(&self) -> f64 {
        match self.pivot {
            Pivot::Left => self.radians,
            Pivot::Right => -self.radians,
        }
    }

    /// Applies the wheel to a footprint whose frontage is `rect.width`, pivoting on the front
    /// corner of `frame` (the formed unit's outline) and returning the moved rectangle.
    pub fn apply(&self, frame: &Rect, rect: &Rect) -> Rect {
        let pivot = frame.pivot_point(self.pivot);
        rect.rotated_about(pivot, rotation(self.signed_rotation()))
    }

    /// The arc length swept by a point at `radius` from the pivot: the measure of a wheel on the
    /// outside of the turn.
    pub fn arc_length(&self, radius: f64) -> f64 {
        radius * self.radians.abs()
    }

    /// Points along the arc swept by `p` during the wheel, `n + 1` of them including both ends,
    /// for drawing and for costing terrain along the arc.
    pub fn arc_points(&self, frame: &Rect, p: Point, n: usize) -> Vec<Point> {
        let pivot = frame.pivot_point(self.pivot);
        let total = self.signed_rotation();
        (0..=n)
            .map(|i| pivot + (p - pivot).rotate_by(rotation(total * i as f64 / n.max(1) as f64)))
            .collect()
    }
}

/// Shortest distance from `p` to the segment `a`–`b`.
pub fn point_segment_distance(p: Point, a: Point, b: Point) -> f64 {
    point_segment_distance_squared(p, a, b).sqrt()
}

/// The square of the shortest distance from `p` to the segment `a`–`b`.
#[inline]
pub fn point_segment_distance_squared(p: Point, a: Point, b: Point) -> f64 {
    let ab = b - a;
    let l2 = ab.length_squared();
    if l2 == 0.0 {
        return (p - a).length_squared();
    }
    let t = ((p - a).dot(ab) / l2).clamp(0.0, 1.0);
    (p - (a + ab * t)).length_squared()
}

/// Where two segments `p0`–`p1` and `q0`–`q1` cross, as the parameter along the first
/// (`0` at `p0`, `1` at `p1`) and along the second; `None` when they are parallel or miss.
pub fn segment_intersection(p0: Point, p1: Point, q0: Point, q1: Point) -> Option<(f64, f64)> {
    crate::budget::tick();
    let r = p1 - p0;
    let s = q1 - q0;
    let denom = r.cross(s);
    if denom == 0.0 {
        return None;
    }
    let qp = q0 - p0;
    let t = qp.cross(s) / denom;
    let u = qp.cross(r) / denom;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then_some((t, u))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touching_rectangles_do_not_overlap_but_are_in_contact() {
        let a = Rect::new(Vec2::new(0.0, 0.0), Facing::NORTH, 2.0, 1.0);
        let b = Rect::new(Vec2::new(2.0, 0.0), Facing::NORTH, 2.0, 1.0);
        assert!(!a.overlaps(&b));
        assert!(a.touches(&b, CONTACT_TOLERANCE));
        let c = Rect::new(Vec2::new(1.9, 0.0), Facing::NORTH, 2.0, 1.0);
        assert!(a.overlaps(&c));
        let d = Rect::new(Vec2::new(2.5, 0.0), Facing::NORTH, 2.0, 1.0);
        assert!((a.distance(&d) - 0.5).abs() < 1e-12);
        assert!(!a.touches(&d, CONTACT_TOLERANCE));
    }

    #[test]
    fn rotated_rectangle_overlap_uses_all_four_axes() {
        let a = Rect::new(Vec2::new(0.0, 0.0), Facing::NORTH, 2.0, 2.0);
        // A square turned 45° has its vertices on the axes through its centre; its edge facing
        // the origin is the line x + y = 2c - sqrt(2). It reaches `a`'s corner (1, 1) only when
        // 2c - sqrt(2) < 2.
        let b = Rect::new(Vec2::new(1.6, 1.6), Facing::from_bearing_degrees(45.0), 2.0, 2.0);
        assert!(a.overlaps(&b));
        // At c = 1.8 the squares are apart, and only the turned square's own axes show it.
        let c = Rect::new(Vec2::new(1.8, 1.8), Facing::from_bearing_degrees(45.0), 2.0, 2.0);
        assert!(!c.overlaps(&a));
    }

    #[test]
    fn sectors_follow_the_45_degree_rule() {
        let f = Facing::NORTH;
        assert_eq!(direction_sector(f, Vec2::new(1.0, 1.0)), Sector::Front);
        assert_eq!(direction_sector(f, Vec2::new(1.0, 0.99)), Sector::Right);
        assert_eq!(direction_sector(f, Vec2::new(-1.0, 0.0)), Sector::Left);
        assert_eq!(direction_sector(f, Vec2::new(-1.0, -1.0)), Sector::Left);
        assert_eq!(direction_sector(f, Vec2::new(0.0, -1.0)), Sector::Rear);
    }

    #[test]
    fn wheel_of_six_inch_frontage_through_ninety_degrees() {
        let r = Rect::from_front_centre(Vec2::new(0.0, 0.0), Facing::NORTH, 6.0, 1.0);
        let w = Wheel { pivot: Pivot::Left, radians: std::f64::consts::FRAC_PI_2 };
        assert!((w.arc_length(r.width) - 9.42477796).abs() < 1e-6);
        let after = w.apply(&r, &r);
        // Pivoting on the left front corner (-3, 0) and swinging the right flank forward turns
        // the unit to face west.
        assert!((after.facing.vector() - Facing::WEST.vector()).length() < 1e-12);
        assert!((after.front_left() - Vec2::new(-3.0, 0.0)).length() < 1e-12);
        assert!((after.front_right() - Vec2::new(-3.0, 6.0)).length() < 1e-12);
    }

    #[test]
    fn facings_survive_a_serde_round_trip_bit_for_bit() {
        for deg in [0.0, 17.0, 33.3, 45.0, 100.0, 271.9] {
            let f = Facing::from_bearing_degrees(deg).rotated(rotation(0.123));
            let back: Facing = serde_json::from_str(&serde_json::to_string(&f).unwrap()).unwrap();
            assert_eq!(back.vector().x.to_bits(), f.vector().x.to_bits());
            assert_eq!(back.vector().y.to_bits(), f.vector().y.to_bits());
        }
        let skew: Facing = serde_json::from_str(r#"{"x":3.0,"y":4.0}"#).unwrap();
        assert_eq!(skew.vector(), Vec2::new(0.6, 0.8));
        assert!(serde_json::from_str::<Facing>(r#"{"x":0.0,"y":0.0}"#).is_err());
    }

    #[test]
    fn within_agrees_with_the_edge_distance() {
        let a = Rect::new(Point::new(0.0, 0.0), Facing::NORTH, 6.0, 2.0);
        for (x, y, deg) in
            [(10.0, 0.0, 0.0), (7.0, 0.0, 90.0), (3.0, 5.0, 45.0), (30.0, 30.0, 10.0)]
        {
            let b = Rect::new(Point::new(x, y), Facing::from_bearing_degrees(deg), 4.0, 1.0);
            let d = a.distance(&b);
            for range in [0.0, d - 0.01, d, d + 0.01, 100.0] {
                assert_eq!(a.within(&b, range), d <= range, "{x},{y},{deg}: {d} against {range}");
            }
        }
    }

    #[test]
    fn bearings_are_exact_on_right_angles() {
        assert_eq!(Facing::from_bearing_degrees(90.0), Facing::EAST);
        assert_eq!(Facing::from_bearing_degrees(-90.0), Facing::WEST);
        assert!((Facing::from_bearing_degrees(30.0).bearing_degrees() - 30.0).abs() < 1e-12);
    }
}
