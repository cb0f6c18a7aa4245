//! A unit's way through one period as a chain of turns and straight legs, and where it stands
//! after spending part of its allowance on it (WRG-MOVE-02, -05, -06, -14).
//!
//! The way is measured in inches of allowance: a turn costs what its outer figure travels
//! (frontage × angle, WRG-MOVE-14), a leg costs its length; terrain is paid by limiting how
//! far along the legs the unit gets (see `plan_limit` in the parent module).

use tabletop::geometry::{Facing, Point, Rect, Vec2, rotation};

/// Where a unit stands and which way it faces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Its standard.
    pub at: Point,
    /// Its facing.
    pub facing: Facing,
}

/// One piece of a way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Seg {
    /// A turn about `pivot` (the standard, or a front corner for a wheel), anticlockwise by
    /// `by` radians, costing `cost` inches of allowance.
    Turn {
        /// The fixed point.
        pivot: Point,
        /// The pose before the turn.
        start: Pose,
        /// Radians, anticlockwise.
        by: f64,
        /// Inches of allowance.
        cost: f64,
    },
    /// A straight leg facing `facing` (not always the way it goes: a retiring unit keeps its
    /// front to the enemy).
    Line {
        /// Where it starts.
        from: Point,
        /// The unit direction it goes.
        dir: Vec2,
        /// The facing kept along it.
        facing: Facing,
        /// Inches.
        len: f64,
    },
}

impl Seg {
    /// What the piece costs in allowance.
    pub fn cost(&self) -> f64 {
        match self {
            Seg::Turn { cost, .. } => *cost,
            Seg::Line { len, .. } => *len,
        }
    }

    fn at(&self, q: f64) -> Pose {
        match *self {
            Seg::Turn { pivot, start, by, cost } => {
                let f = if cost > 0.0 { (q / cost).clamp(0.0, 1.0) } else { 1.0 };
                let r = rotation(by * f);
                Pose {
                    at: pivot + (start.at - pivot).rotate_by(r),
                    facing: start.facing.rotated(r),
                }
            }
            Seg::Line { from, dir, facing, len } => {
                Pose { at: from + dir * q.clamp(0.0, len), facing }
            }
        }
    }

    fn end(&self) -> Pose {
        self.at(self.cost())
    }
}

/// A way: the pose it starts from and its pieces.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    /// The pose before any piece.
    pub start: Pose,
    /// The pieces in order.
    pub segs: Vec<Seg>,
}

impl Track {
    /// A way with no pieces yet.
    pub fn new(start: Pose) -> Track {
        Track { start, segs: Vec::new() }
    }

    /// The pose after the last piece.
    pub fn end(&self) -> Pose {
        self.segs.last().map_or(self.start, Seg::end)
    }

    /// The whole cost.
    pub fn cost(&self) -> f64 {
        self.segs.iter().map(Seg::cost).sum()
    }

    /// The pose after spending `p` inches of allowance.
    pub fn pose(&self, p: f64) -> Pose {
        let mut left = p.max(0.0);
        let mut cur = self.start;
        for s in &self.segs {
            let c = s.cost();
            if left < c {
                return s.at(left);
            }
            left -= c;
            cur = s.end();
        }
        cur
    }

    /// How far the standard travels between spending `p0` and `p1` (along legs and round the
    /// arcs of wheels).
    pub fn travel(&self, p0: f64, p1: f64) -> f64 {
        let (lo, hi) = (p0.min(p1), p0.max(p1));
        let mut at = 0.0;
        let mut out = 0.0;
        for s in &self.segs {
            let c = s.cost();
            let (a, b) = (lo.max(at), hi.min(at + c));
            if b > a {
                out += match *s {
                    Seg::Line { .. } => b - a,
                    Seg::Turn { pivot, start, by, cost } => {
                        let share = if cost > 0.0 { (b - a) / cost } else { 0.0 };
                        (start.at - pivot).length_squared().sqrt() * by.abs() * share
                    }
                };
            }
            at += c;
            if at >= hi {
                break;
            }
        }
        out
    }

    /// Turns about the standard to face `to`, paying the outer figure's arc; a turn of more
    /// than 90° is an about-turn (free, WRG-MOVE-03) and the rest (WRG-MOVE-14).
    pub fn turn_to(&mut self, to: Facing, frontage: f64, free: bool) {
        let from = self.end();
        let mut f = from.facing;
        if f.vector().dot(to.vector()) < -1e-12 {
            self.segs.push(Seg::Turn {
                pivot: from.at,
                start: from,
                by: std::f64::consts::PI,
                cost: 0.0,
            });
            f = f.reversed();
        }
        let by = signed_angle(f, to);
        if by.abs() > 1e-9 {
            let start = Pose { at: from.at, facing: f };
            let cost = if free { 0.0 } else { frontage * by.abs() };
            self.segs.push(Seg::Turn { pivot: from.at, start, by, cost });
        }
    }

    /// Wheels about a front corner through `clockwise` radians (positive: to the right, the
    /// right front corner fixed), paying the outer figure's arc (WRG-MOVE-14).
    pub fn wheel(&mut self, rect: &Rect, clockwise: f64) {
        if clockwise.abs() <= 1e-12 {
            return;
        }
        let from = self.end();
        let pivot = if clockwise > 0.0 {
            rect_corner(rect, from, true)
        } else {
            rect_corner(rect, from, false)
        };
        self.segs.push(Seg::Turn {
            pivot,
            start: from,
            by: -clockwise,
            cost: rect.width * clockwise.abs(),
        });
    }

    /// A straight leg to `to`, facing `facing` (the way it goes when `None`).
    pub fn line_to(&mut self, to: Point, facing: Option<Facing>) {
        let from = self.end();
        let d = to - from.at;
        let len = d.length_squared().sqrt();
        let Some(dir) = d.normalized() else { return };
        if !len.is_finite() {
            return;
        }
        let facing = facing.unwrap_or_else(|| Facing::from_vector(dir).unwrap_or(from.facing));
        self.segs.push(Seg::Line { from: from.at, dir, facing, len });
    }

    /// A straight leg of `len` inches along `dir`, keeping `facing`.
    pub fn line(&mut self, dir: Vec2, len: f64, facing: Facing) {
        let from = self.end();
        if let Some(dir) = dir.normalized()
            && len > 0.0
            && len.is_finite()
        {
            self.segs.push(Seg::Line { from: from.at, dir, facing, len });
        }
    }

    /// The allowance spent before the first leg (turns and wheels).
    pub fn turn_cost_before_legs(&self) -> f64 {
        self.segs.iter().take_while(|s| matches!(s, Seg::Turn { .. })).map(Seg::cost).sum()
    }

    /// The polyline of the legs, from the start of the first (empty when none).
    pub fn leg_points(&self, out: &mut Vec<Point>) {
        out.clear();
        for s in &self.segs {
            if let Seg::Line { from, dir, len, .. } = *s {
                if out.is_empty() {
                    out.push(from);
                }
                out.push(from + dir * len);
            }
        }
    }
}

/// The front corner of a unit standing at `pose` with the size of `rect`: right or left.
fn rect_corner(rect: &Rect, pose: Pose, right: bool) -> Point {
    let r = Rect::new(pose.at, pose.facing, rect.width, rect.depth);
    if right { r.front_right() } else { r.front_left() }
}

/// The signed angle from `a` to `b`, anticlockwise positive, in (−π, π].
pub fn signed_angle(a: Facing, b: Facing) -> f64 {
    let a_to_b = a.angle_to(b);
    if a.vector().cross(b.vector()) < 0.0 { -a_to_b } else { a_to_b }
}
