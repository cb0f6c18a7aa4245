//! The reaction test's situation read off the table: which units are within 15" and in view,
//! which face the tested unit, which are advancing, retiring or routing, who secures its flanks
//! and supports its rear, the slope, cover near by and the cover it stands behind, fire, the
//! square, the C-in-C (T9, WRG-RDEF-01 .. -06, WRG-R-01, -12, -13, -14, -16).
//!
//! [`Sightlines`] holds where every unit stands at one moment, bucketed in a [`Grid`], and
//! answers who sees whom from the cells near the two units rather than from every unit on the
//! table; a batch of tests reads every situation through one of them.

use crate::Data;
use crate::orders::Formation;
use crate::reaction::Situation;
use crate::scenario::eye;
use crate::sight::{Grid, Standing as SightStanding, height};
use crate::state::{Motion, State, Unit};
use std::cell::{Cell, OnceCell};
use tabletop::geometry::{
    Point, Rect, Sector, Vec2, direction_sector, point_segment_distance_squared,
};
use tabletop::terrain::{AreaKind, DefaultSightRule, LineKind, line_of_sight};

/// How close to the line between two standards a unit must stand to screen it, in inches.
const SCREEN: f64 = 0.5;

/// The height of ground that counts as higher or lower, in contour levels: half a contour, as
/// for fighting from higher ground (WRG-TAC-07).
pub const HIGHER: f64 = 0.5;

/// The size of the grid's cells, in inches: the reaction test's 15".
const CELL: f64 = 15.0;

/// Where every unit stands at one moment, and who sees whom (WRG-R-01, -02, WRG-RDEF-01, -02).
pub struct Sightlines<'a> {
    /// The tables (none when only sight is asked).
    data: Option<&'a Data>,
    state: &'a State,
    grid: Grid,
    /// Each unit's ground elevation (by id), for screening, uphill and downhill, worked out
    /// when first asked (NaN until then).
    elevation: Vec<Cell<f64>>,
    /// Whether the table has hills at all (elsewhere the ground is level).
    hills: bool,
    /// Whether the table has a river (the only impassable linear obstacle).
    rivers: bool,
    /// Each unit's hand-to-hand, worked out when first asked (by id: 0 not yet, 1 not
    /// fighting, 2 fighting).
    fighting: Vec<Cell<u8>>,
    /// The largest half-diagonal of any unit's footprint, inches, worked out when first asked.
    widest: OnceCell<f64>,
}

impl<'a> Sightlines<'a> {
    /// The units as they stand now.
    pub fn new(data: &'a Data, state: &'a State) -> Sightlines<'a> {
        Sightlines::build(Some(data), state)
    }

    fn build(data: Option<&'a Data>, state: &'a State) -> Sightlines<'a> {
        let on: Vec<(u16, Point)> =
            state.units.iter().filter(|u| u.on_table()).map(|u| (u.id, u.at)).collect();
        let grid = Grid::new(state.table.width, state.table.height, CELL, &on);
        let hills = state.table.areas.iter().any(|a| a.kind == AreaKind::Hill);
        let elevation = (0..state.units.len()).map(|_| Cell::new(f64::NAN)).collect();
        let fighting = (0..state.units.len()).map(|_| Cell::new(0)).collect();
        let rivers = state.table.lines.iter().any(|l| l.kind == LineKind::River);
        Sightlines {
            widest: OnceCell::new(),
            data,
            state,
            grid,
            elevation,
            hills,
            rivers,
            fighting,
        }
    }

    /// The ground's elevation under a unit's standard, in contour levels.
    fn elevation(&self, id: u16) -> f64 {
        if !self.hills {
            return 0.0;
        }
        let Some(cell) = self.elevation.get(id as usize) else { return 0.0 };
        if cell.get().is_nan() {
            cell.set(self.state.table.elevation(self.state.units[id as usize].at));
        }
        cell.get()
    }

    /// The contour a unit stands on (0 on level ground).
    fn contour(&self, id: u16) -> i32 {
        self.elevation(id).floor() as i32
    }

    /// The largest half-diagonal of any unit's footprint on the table.
    fn widest(&self) -> f64 {
        *self.widest.get_or_init(|| {
            let Some(data) = self.data else { return 0.0 };
            self.state
                .units
                .iter()
                .filter(|u| u.on_table())
                .map(|u| u.block.footprint(data, u.troop, u.at, u.facing).half_diagonal())
                .fold(0.0, f64::max)
        })
    }

    /// The state read.
    pub fn state(&self) -> &'a State {
        self.state
    }

    /// Calls `f` with every unit on the table standing within `radius` of `p`.
    pub fn within(&self, p: Point, radius: f64, mut f: impl FnMut(&'a Unit)) {
        let units = &self.state.units;
        let r2 = (radius + 1e-9) * (radius + 1e-9);
        self.grid.near(p, radius, |id| {
            let o = &units[id as usize];
            if (o.at - p).length_squared() <= r2 {
                f(o);
            }
        });
    }

    /// Whether unit `a` can see unit `b`: no unit standing between hides it, and the ground and
    /// woods allow it (WRG-R-02, WRG-CHAMP-05 .. -08).
    pub fn sees(&self, a: &Unit, b: &Unit) -> bool {
        !self.screened(a, b)
            && line_of_sight(
                &self.state.table,
                a.at,
                eye(a.troop),
                b.at,
                eye(b.troop),
                &DefaultSightRule { see_into: 3.0 },
            )
    }

    /// Whether units standing across the line between the two standards hide `b` from `a`.
    fn screened(&self, a: &Unit, b: &Unit) -> bool {
        if b.troop == crate::model::TroopType::Elephant {
            return false;
        }
        let viewer = SightStanding { troop: a.troop, contour: self.contour(a.id) };
        let target = SightStanding { troop: b.troop, contour: self.contour(b.id) };
        let top = |s: SightStanding| s.contour * crate::sight::CONTOUR + height(s.troop);
        let (lo, hi) = (
            Point::new(a.at.x.min(b.at.x) - SCREEN, a.at.y.min(b.at.y) - SCREEN),
            Point::new(a.at.x.max(b.at.x) + SCREEN, a.at.y.max(b.at.y) + SCREEN),
        );
        let len2 = (a.at - b.at).length_squared();
        let mut hidden = false;
        self.grid.in_box(lo, hi, |id| {
            if hidden || id == a.id || id == b.id {
                return;
            }
            let c = &self.state.units[id as usize];
            let across = point_segment_distance_squared(c.at, a.at, b.at) < SCREEN * SCREEN
                && (c.at - a.at).length_squared() < len2
                && (c.at - b.at).length_squared() < len2;
            if !across {
                return;
            }
            // Only what could hide the target matters: a screen as tall as it, not below the
            // viewer's contour.
            let s = SightStanding { troop: c.troop, contour: self.contour(id) };
            if viewer.contour <= s.contour && top(s) >= top(target) {
                hidden = true;
            }
        });
        hidden
    }

    /// Whether an impassable obstacle (a river away from its fords and bridges) lies between
    /// two points (WRG-RDEF-02).
    pub fn across_impassable(&self, a: Point, b: Point) -> bool {
        self.rivers
            && self.state.table.lines.iter().filter(|l| l.kind == LineKind::River).any(|l| {
                l.band_intervals(a, b).iter().any(|&(t0, t1)| {
                    let mid = a.lerp(b, 0.5 * (t0 + t1));
                    l.crossing_at(mid).is_none()
                })
            })
    }

    /// Whether a unit is in hand-to-hand with an enemy (neither running).
    pub fn fighting(&self, id: u16) -> bool {
        let Some(known) = self.fighting.get(id as usize) else { return false };
        if known.get() == 0 {
            known.set(1 + u8::from(self.in_contact(id)));
        }
        known.get() == 2
    }

    /// Whether a unit touches an enemy, neither running, as hand-to-hand reads it: each pair
    /// measured from the footprint of its lower id, among the units near it.
    fn in_contact(&self, id: u16) -> bool {
        let Some(data) = self.data else { return false };
        let units = &self.state.units;
        let live = |u: &Unit| u.on_table() && u.motion != Motion::Routing;
        let print = |u: &Unit| u.block.footprint(data, u.troop, u.at, u.facing);
        let a = &units[id as usize];
        if !live(a) {
            return false;
        }
        let ra = print(a);
        let mut found = false;
        let reach = 2.0 * self.widest() + crate::melee_phase::CONTACT + 1e-6;
        self.grid.near(a.at, reach, |j| {
            let b = &units[j as usize];
            if found || b.side == a.side || !live(b) {
                return;
            }
            let rb = print(b);
            let (lo, hi) = if a.id < b.id { (&ra, &rb) } else { (&rb, &ra) };
            found = lo.touches(hi, crate::melee_phase::CONTACT)
                && crate::melee_phase::engaged(data, a, b);
        });
        found
    }

    /// Calls `f` with every unit on the table that `u` counts "within" `radius`: standard to
    /// standard, in view, not across an impassable obstacle (WRG-RDEF-01, -02). The second value
    /// says whether any unit was left out for the obstacle alone.
    pub fn counted_within(&self, u: &Unit, radius: f64, mut f: impl FnMut(&'a Unit)) -> bool {
        let mut impassable = false;
        self.within(u.at, radius, |o| {
            if o.id == u.id || !self.sees(u, o) {
                return;
            }
            if self.across_impassable(u.at, o.at) {
                impassable = true;
                return;
            }
            f(o);
        });
        impassable
    }
}

/// Whether unit `a` can see unit `b` (WRG-R-02, WRG-CHAMP-05 .. -08); see [`Sightlines::sees`].
pub fn unit_sees(state: &State, a: &Unit, b: &Unit) -> bool {
    Sightlines::build(None, state).sees(a, b)
}

/// Whether `enemy` faces `unit`: the unit's standard lies in the enemy's front sector
/// (WRG-R-12).
pub fn faces(enemy: &Unit, unit: &Unit) -> bool {
    direction_sector(enemy.facing, unit.at - enemy.at) == Sector::Front
}

/// Whether a unit is disorganised now (WRG-DIS-01).
pub fn disorganised(u: &Unit) -> bool {
    crate::combat::disorganisation_penalty(&crate::combat::effective_causes(
        u.troop, u.status, &u.causes,
    )) < 0
}

/// The cover areas: woods, dense trees and villages.
fn is_cover(kind: AreaKind) -> bool {
    matches!(kind, AreaKind::Wood | AreaKind::DenseTrees | AreaKind::Village)
}

/// Whether a piece of cover counts as friendly to `unit`: known to hold its own troops, or
/// seen from where it stands to hold no enemy (WRG-RDEF-05); otherwise it is unfriendly
/// (WRG-RDEF-06).
fn cover_friendly(sl: &Sightlines, unit: &Unit, area: usize) -> bool {
    let st = sl.state;
    let poly = &st.table.areas[area].polygon;
    let held_by = |friend: bool| {
        let (lo, hi) = poly_box(poly);
        let mut held = false;
        sl.grid.in_box(lo, hi, |id| {
            let o = &st.units[id as usize];
            if !held && (o.side == unit.side) == friend && o.on_table() && poly.contains(o.at) {
                held = true;
            }
        });
        held
    };
    held_by(true)
        || (!held_by(false)
            && crate::scenario::sees_area(&st.table, unit.at, eye(unit.troop), area))
}

fn poly_box(poly: &tabletop::terrain::Polygon) -> (Point, Point) {
    poly.points.iter().fold(
        (
            Point::new(f64::INFINITY, f64::INFINITY),
            Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
        ),
        |(lo, hi), p| {
            (Point::new(lo.x.min(p.x), lo.y.min(p.y)), Point::new(hi.x.max(p.x), hi.y.max(p.y)))
        },
    )
}

/// Whether `f`, its footprint `gap` inches from the unit's, would support `unit` (from behind
/// or on a flank): within its own normal move, not disorganised, at least half the unit's
/// present figures, not fighting, able to move up (WRG-RDEF-03, -04, WRG-R-14).
fn supports(data: &Data, sl: &Sightlines, unit: &Unit, f: &Unit, gap: f64) -> bool {
    let s = crate::reaction::Supporter {
        distance: gap,
        normal_move: data.moves(f.troop).normal,
        disorganised: disorganised(f),
        figures: f.block.figures,
        in_close_combat: sl.fighting(f.id),
        can_move_up: f.rout.is_none() && !sl.across_impassable(unit.at, f.at),
    };
    crate::reaction::supports(&s, unit.block.figures)
}

/// The longest normal move of any troops (the farthest a supporter may stand).
fn longest_normal_move(data: &Data) -> f64 {
    crate::model::TroopType::ALL.iter().map(|t| data.moves(*t).normal).fold(0.0, f64::max)
}

/// Which of the unit's left flank, right flank and rear a friend supports (WRG-RDEF-03, -04):
/// a friend beside the flank or behind, its footprint within its own normal move of the unit's,
/// in view, meeting the conditions of [`supports`].
fn support(data: &Data, sl: &Sightlines, unit: &Unit, rect: &Rect) -> [bool; 3] {
    let mut have = [false; 3];
    let reach = longest_normal_move(data) + rect.half_diagonal() + sl.widest();
    sl.within(unit.at, reach, |f| {
        if f.side != unit.side || f.id == unit.id {
            return;
        }
        let slot = match direction_sector(unit.facing, f.at - unit.at) {
            Sector::Left => 0,
            Sector::Right => 1,
            Sector::Rear => 2,
            Sector::Front => return,
        };
        if have[slot] {
            return;
        }
        let gap = rect.distance(&f.block.footprint(data, f.troop, f.at, f.facing));
        if supports(data, sl, unit, f, gap) && sl.sees(unit, f) {
            have[slot] = true;
        }
    });
    have
}

/// The T9 situation of a unit read through `sl` (T9, WRG-RDEF-01 .. -06). The C-in-C and the
/// count of figures shooting at it come from the state; the caller adds what only the period
/// knows (being charged, pursuing).
pub fn read_in(data: &Data, sl: &Sightlines, unit: &Unit) -> Situation {
    let st = sl.state;
    let within = data.movement.distances.reaction_within;
    let mut s = Situation::default();
    let impassable = sl.counted_within(unit, within, |o| {
        if o.side == unit.side {
            s.friends_within += 1;
            match o.motion {
                Motion::Advanced => s.friend_advancing_within = true,
                Motion::Charged => s.friend_charging_within = true,
                Motion::Retired => s.friend_retiring_within = true,
                Motion::Routing => s.friends_routing_within += 1,
                Motion::Still => {}
            }
            return;
        }
        match o.motion {
            Motion::Routing => s.enemies_routing_within += 1,
            Motion::Retired => s.enemy_retiring_within = true,
            Motion::Advanced | Motion::Charged => s.enemy_advancing_within = true,
            Motion::Still => {}
        }
        let running = o.motion == Motion::Routing;
        if !running && faces(o, unit) {
            s.enemies_facing_within += 1;
        }
        if o.troop.is_cavalry() {
            s.enemy_cavalry_within = true;
        }
        if !running
            && matches!(
                direction_sector(o.facing, unit.at - o.at),
                Sector::Left | Sector::Right | Sector::Rear
            )
        {
            s.enemy_showing_flank_within = true;
        }
        match direction_sector(unit.facing, o.at - unit.at) {
            Sector::Left | Sector::Right => s.enemy_on_flank = true,
            Sector::Rear => s.enemy_in_rear = true,
            Sector::Front => {}
        }
        let (mine, theirs) = (sl.elevation(unit.id), sl.elevation(o.id));
        if mine > theirs + HIGHER {
            s.uphill_of_enemy = true;
        } else if theirs > mine + HIGHER {
            s.downhill_of_enemy = true;
        }
    });
    s.impassable_left_out = impassable;
    // Units in sight beyond 15": the nearest cells first, until one of each side is seen.
    let (mut friend, mut enemy) = (false, false);
    sl.grid.outward(unit.at, |id| {
        let o = &st.units[id as usize];
        let other = if o.side == unit.side { friend } else { enemy };
        if o.id == unit.id || other || unit.at.distance(o.at) <= within + 1e-9 {
            return false;
        }
        if sl.sees(unit, o) && !sl.across_impassable(unit.at, o.at) {
            if o.side == unit.side {
                friend = true;
            } else {
                enemy = true;
            }
        }
        friend && enemy
    });
    s.other_friends_in_sight = friend;
    s.other_enemy_in_sight = enemy;
    // Cover: within 10" (friendly or not), within 1" of a flank, or stood in.
    let cover_within = data.movement.distances.cover_within;
    let rect = unit.block.footprint(data, unit.troop, unit.at, unit.facing);
    let [left, right, rear] = support(data, sl, unit, &rect);
    s.rear_support = rear;
    let flank_neighbour = [left, right];
    let flanks = [
        rect.to_world(Vec2::new(-rect.width / 2.0, 0.0)),
        rect.to_world(Vec2::new(rect.width / 2.0, 0.0)),
    ];
    let mut flank_secure = flank_neighbour;
    for (i, a) in st.table.areas.iter().enumerate() {
        if !is_cover(a.kind) {
            continue;
        }
        let poly = &a.polygon;
        let inside = poly.contains(unit.at);
        if inside {
            s.behind_cover = true;
        }
        let edge = poly.distance_to_boundary(unit.at);
        let near_flank: Vec<usize> = (0..2)
            .filter(|&k| poly.contains(flanks[k]) || poly.distance_to_boundary(flanks[k]) <= 1.0)
            .collect();
        if !(inside || edge <= cover_within + 1e-9 || !near_flank.is_empty()) {
            continue;
        }
        let friendly = cover_friendly(sl, unit, i);
        if inside || edge <= cover_within + 1e-9 {
            if friendly {
                s.friendly_cover_within = true;
            } else {
                s.unfriendly_cover_within = true;
            }
        }
        if friendly {
            for k in near_flank {
                flank_secure[k] = true;
            }
        }
    }
    for l in &st.table.lines {
        match l.kind {
            // A flank resting on a river away from its crossings (WRG-RDEF-04).
            LineKind::River => {
                for (k, p) in flanks.iter().enumerate() {
                    if l.distance_to_centreline(*p) <= l.width / 2.0 + 1.0
                        && l.crossing_at(*p).is_none()
                    {
                        flank_secure[k] = true;
                    }
                }
            }
            // A wall or hedge just in front: behind field defences (WRG-RFAC-28).
            LineKind::Wall | LineKind::Hedge => {
                let front = rect.front_centre();
                let ahead = front + unit.facing.vector() * 1.0;
                if !l.band_intervals(unit.at, ahead).is_empty()
                    || l.distance_to_centreline(front) <= l.width / 2.0 + 1.0
                {
                    s.behind_cover = true;
                }
            }
            _ => {}
        }
    }
    s.flanks_secure = flank_secure.iter().filter(|x| **x).count() as u32;
    s.figures_lost = unit.start_figures.saturating_sub(unit.block.figures);
    s.retiring = unit.motion == Motion::Retired;
    s.disorganised = disorganised(unit);
    s.shot_at_by = unit.shot_at;
    s.in_square = unit.standing.order().and_then(|o| o.formation) == Some(Formation::Square);
    // The C-in-C: with the unit, or within 15" and in view, not himself retreating or routing.
    if let Some(g) = st.generals.iter().find(|g| g.side == unit.side && !g.risk.fallen(data)) {
        s.general_with_unit = g.attached == Some(unit.id);
        s.general_within = !s.general_with_unit
            && g.at.distance(unit.at) <= within + 1e-9
            && line_of_sight(
                &st.table,
                unit.at,
                eye(unit.troop),
                g.at,
                eye(g.troop),
                &DefaultSightRule { see_into: 3.0 },
            );
        s.general_retreating = g
            .attached
            .and_then(|j| st.units.get(j as usize))
            .is_some_and(|u| matches!(u.motion, Motion::Retired | Motion::Routing));
    }
    s
}

/// The T9 situation of a unit, read from the state as it stands (see [`read_in`]).
pub fn read(data: &Data, state: &State, unit: &Unit) -> Situation {
    read_in(data, &Sightlines::new(data, state), unit)
}
