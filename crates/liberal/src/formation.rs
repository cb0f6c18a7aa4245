//! Where a unit's figures stand: the shapes of line, column, road column, square and house,
//! a battery's gun and crew, and the footprints used for contact, range and sight.

use crate::Liberal;
use crate::data::Kind;
use crate::state::{Formation, Place, State, Unit};
use tabletop::geometry::{Facing, Point, Rect, Vec2};

impl Liberal {
    /// One figure's frontage in this unit.
    pub fn frontage(&self, u: &Unit) -> f64 {
        self.data.troops[u.troop].frontage
    }

    /// Figures abreast in each rank for `n` figures in this formation.
    pub fn rank_width(&self, f: Formation, n: usize) -> usize {
        let d = &self.data.rules.formation;
        let n = n.max(1);
        match f {
            Formation::Line => n.div_ceil(d.line_ranks),
            Formation::Column => d.column_width.min(n),
            Formation::RoadColumn => d.road_width.min(n),
            Formation::Square => n.div_ceil(4).div_ceil(d.square_ranks).max(1),
            Formation::House => (n as f64).sqrt().ceil() as usize,
        }
    }

    /// The side of a square of `n` figures, inches.
    fn square_side(&self, u: &Unit, n: usize) -> f64 {
        let d = &self.data.rules.formation;
        self.rank_width(Formation::Square, n) as f64 * self.frontage(u)
            + 2.0 * d.square_ranks as f64 * d.rank_gap
    }

    /// Local (right, forward) offset of the `k`-th of `n` figures in the ranks, from the
    /// place's point, and the facing of that figure's rank (a square's faces look out).
    pub fn slot(&self, u: &Unit, place: &Place, k: usize, n: usize) -> (Vec2, Facing) {
        let d = &self.data.rules.formation;
        let fw = self.frontage(u);
        if u.gun.is_some() {
            // The crew stands in a row behind the gun.
            let a = &self.data.rules.artillery;
            let w = n.max(1);
            let x = (k as f64 + 0.5) * fw - w as f64 * fw / 2.0;
            return (Vec2::new(x, -(a.gun_depth + 0.5 * d.rank_gap)), place.facing);
        }
        match place.formation {
            Formation::Square => {
                let per_face = n.div_ceil(4).max(1);
                let face = (k / per_face).min(3);
                let j = k % per_face;
                let w = self.rank_width(Formation::Square, n);
                let (r, f) = (j / w, j % w);
                let side = self.square_side(u, n);
                let x = (f as f64 + 0.5) * fw - w as f64 * fw / 2.0;
                let y = side / 2.0 - (r as f64 + 0.5) * d.rank_gap;
                let out = match face {
                    0 => place.facing,
                    1 => place.facing.turned_right(),
                    2 => place.facing.reversed(),
                    _ => place.facing.turned_left(),
                };
                // Rotate the face's local frame into the unit's frame.
                let rel = rotate_into(place.facing, out, Vec2::new(x, y));
                (rel, out)
            }
            Formation::House => {
                let w = self.rank_width(Formation::House, n).max(1);
                let rows = n.div_ceil(w);
                let (r, f) = (k / w, k % w);
                let x = (f as f64 + 0.5) * fw - w as f64 * fw / 2.0;
                let y = (rows as f64 / 2.0 - r as f64 - 0.5) * fw;
                (Vec2::new(x, y), place.facing)
            }
            _ => {
                let w = self.rank_width(place.formation, n);
                let (r, f) = (k / w, k % w);
                let x = (f as f64 + 0.5) * fw - w as f64 * fw / 2.0;
                let y = -(r as f64 + 0.5) * d.rank_gap;
                (Vec2::new(x, y), place.facing)
            }
        }
    }

    /// Where each figure in the ranks stands, in count order: (figure index, point).
    pub fn positions(&self, u: &Unit) -> Vec<(usize, Point)> {
        self.positions_at(u, &u.place)
    }

    /// Where the figures would stand at `place`.
    pub fn positions_at(&self, u: &Unit, place: &Place) -> Vec<(usize, Point)> {
        let ranks = u.in_ranks();
        let n = ranks.len();
        ranks
            .into_iter()
            .enumerate()
            .map(|(k, i)| {
                let (rel, _) = self.slot(u, place, k, n);
                (i, world(place, rel))
            })
            .collect()
    }

    /// The `k`-th figure's rank (0 the front rank) in a line or column.
    pub fn rank_of(&self, u: &Unit, k: usize, n: usize) -> usize {
        match u.place.formation {
            Formation::Square => {
                let per_face = n.div_ceil(4).max(1);
                (k % per_face) / self.rank_width(Formation::Square, n)
            }
            Formation::House => 0,
            f => k / self.rank_width(f, n),
        }
    }

    /// The unit's footprint at `place`.
    pub fn footprint_at(&self, u: &Unit, place: &Place) -> Rect {
        self.footprint_of(u, place, u.strength().max(1))
    }

    /// A radius round the unit's point that holds its footprint, its gun and every figure
    /// however many it has lost: the footprint of all its figures, which holds the footprint
    /// of any fewer (every shape grows with its figures from the same point). A cheap bound to
    /// pass over far units before measuring them.
    pub fn reach_bound(&self, u: &Unit) -> f64 {
        let r = self.footprint_of(u, &u.place, u.figures.len().max(1));
        r.centre.distance(u.place.at) + 0.5 * (r.width * r.width + r.depth * r.depth).sqrt()
    }

    /// The footprint at `place` with `n` figures in the ranks.
    fn footprint_of(&self, u: &Unit, place: &Place, n: usize) -> Rect {
        let d = &self.data.rules.formation;
        let fw = self.frontage(u);
        if let Some(_g) = &u.gun {
            let a = &self.data.rules.artillery;
            let w = a.gun_width.max(n as f64 * fw);
            return Rect::from_front_centre(place.at, place.facing, w, a.gun_depth + d.rank_gap);
        }
        match place.formation {
            Formation::Square => {
                let s = self.square_side(u, n);
                Rect::new(place.at, place.facing, s, s)
            }
            Formation::House => {
                let w = self.rank_width(Formation::House, n) as f64 * fw;
                Rect::new(place.at, place.facing, w.max(fw), w.max(fw))
            }
            f => {
                let w = self.rank_width(f, n);
                let ranks = n.div_ceil(w);
                Rect::from_front_centre(
                    place.at,
                    place.facing,
                    w as f64 * fw,
                    ranks as f64 * d.rank_gap,
                )
            }
        }
    }

    /// The unit's footprint now.
    pub fn footprint(&self, u: &Unit) -> Rect {
        self.footprint_at(u, &u.place)
    }

    /// The gun model's outline.
    pub fn gun_rect(&self, u: &Unit) -> Option<Rect> {
        let a = &self.data.rules.artillery;
        u.gun
            .as_ref()
            .map(|_| Rect::from_front_centre(u.place.at, u.place.facing, a.gun_width, a.gun_depth))
    }

    /// The unit's frontage, inches.
    pub fn width(&self, u: &Unit) -> f64 {
        self.footprint(u).width
    }

    /// Whether the unit is mounted cavalry.
    pub fn is_mounted(&self, u: &Unit) -> bool {
        u.mounted && self.data.troops[u.troop].kind == Kind::Horse
    }

    /// The house (area index) containing `p`, if any.
    pub fn house_at(&self, st: &State, p: Point) -> Option<usize> {
        st.table
            .areas
            .iter()
            .enumerate()
            .position(|(i, a)| st.houses.get(i).is_some_and(|c| *c > 0) && a.polygon.contains(p))
    }

    /// Whether the segment stays on a road (LIB-R-17): its ends and every inch between lie in
    /// a road's band.
    pub fn on_road(&self, st: &State, a: Point, b: Point) -> bool {
        use tabletop::terrain::LineKind;
        let roads: Vec<_> = st
            .table
            .lines
            .iter()
            .filter(|l| matches!(l.kind, LineKind::PavedRoad | LineKind::DirtRoad))
            .collect();
        if roads.is_empty() {
            return false;
        }
        let len = a.distance(b);
        let n = (len.ceil() as usize).max(1);
        (0..=n).all(|i| {
            let p = a.lerp(b, i as f64 / n as f64);
            roads.iter().any(|r| r.band_contains(p))
        })
    }
}

/// A point from a place and a local (right, forward) offset.
pub fn world(place: &Place, rel: Vec2) -> Point {
    place.at + place.facing.right() * rel.x + place.facing.vector() * rel.y
}

/// An offset given in the frame of facing `out` expressed in the frame of `base`.
fn rotate_into(base: Facing, out: Facing, v: Vec2) -> Vec2 {
    let w = out.right() * v.x + out.vector() * v.y;
    Vec2::new(w.dot(base.right()), w.dot(base.vector()))
}
