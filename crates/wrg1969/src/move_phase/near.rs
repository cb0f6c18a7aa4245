//! The broad phase of the movement's "units a mover may meet": the standards on the table
//! sorted across it, so that each mover looks only at the units within its longest reach of
//! the ground it sweeps instead of at every unit on the table.

use crate::state::Unit;
use tabletop::geometry::{Point, point_segment_distance};

/// What the longest reach adds, in inches, so that rounding never leaves out a unit that the
/// exact test below would count.
const SLACK: f64 = 1e-6;

/// The standards of the units on the table, sorted by `x`, with the largest radius and the
/// longest move left of any of them.
pub struct Standards {
    /// (x, id), ascending x then id.
    by_x: Vec<(f64, u16)>,
    /// The largest of the units' radii.
    widest: f64,
    /// The longest move left of any unit.
    farthest: f64,
}

impl Standards {
    /// The units on the table, with each unit's radius (`sizes`' third value) and the move it
    /// has left (`travel`), by id.
    pub fn new(units: &[Unit], sizes: &[(f64, f64, f64)], travel: &[f64]) -> Standards {
        let mut by_x: Vec<(f64, u16)> = Vec::with_capacity(units.len());
        let (mut widest, mut farthest) = (0.0f64, 0.0f64);
        for (o, u) in units.iter().enumerate() {
            if !u.on_table() {
                continue;
            }
            by_x.push((u.at.x, o as u16));
            widest = widest.max(sizes[o].2);
            farthest = farthest.max(travel[o]);
        }
        by_x.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        Standards { by_x, widest, farthest }
    }

    /// The units on the table other than `me` whose standard lies within `r` plus their own
    /// radius, `short`, their move left and `slack` of the points `pts` (of the segments
    /// between them when there are several), in ascending id: the units a mover of radius `r`
    /// sweeping `pts` may meet.
    #[allow(clippy::too_many_arguments)]
    pub fn near(
        &self,
        units: &[Unit],
        sizes: &[(f64, f64, f64)],
        travel: &[f64],
        me: usize,
        r: f64,
        short: f64,
        slack: f64,
        pts: &[Point],
    ) -> Vec<u16> {
        let mut near = Vec::new();
        let Some(first) = pts.first() else { return near };
        let (lo, hi) = pts.iter().fold((*first, *first), |(lo, hi), p| {
            (Point::new(lo.x.min(p.x), lo.y.min(p.y)), Point::new(hi.x.max(p.x), hi.y.max(p.y)))
        });
        // No unit farther across than this from the points' box can be within its reach.
        let most = r + self.widest + short + self.farthest + slack + SLACK;
        let start = self.by_x.partition_point(|&(x, _)| x < lo.x - most);
        for &(x, o) in &self.by_x[start..] {
            if x > hi.x + most {
                break;
            }
            let o = o as usize;
            let u = &units[o];
            if o == me || u.at.y < lo.y - most || u.at.y > hi.y + most {
                continue;
            }
            let reach = r + sizes[o].2 + short + travel[o] + slack;
            let d = if pts.len() == 1 {
                pts[0].distance(u.at)
            } else {
                pts.windows(2)
                    .map(|w| point_segment_distance(u.at, w[0], w[1]))
                    .fold(f64::INFINITY, f64::min)
            };
            if d <= reach {
                near.push(o as u16);
            }
        }
        near.sort_unstable();
        near
    }
}
