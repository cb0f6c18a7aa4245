//! The reaction test's situation read off the table: which units are within 15" and in view,
//! which face the tested unit, which are advancing, retiring or routing, cover near by
//! (T9, WRG-RDEF-01, -02, WRG-R-01, -12, -13, -16).

use crate::Data;
use crate::reaction::Situation;
use crate::scenario::eye;
use crate::sight::{Standing as SightStanding, screened};
use crate::state::{Motion, State, Unit};
use tabletop::geometry::{Sector, direction_sector};
use tabletop::terrain::{AreaKind, DefaultSightRule, line_of_sight};

/// Whether unit `a` can see unit `b`: the ground and woods allow it, and no unit standing
/// between hides it (WRG-R-02, WRG-CHAMP-05 .. -08).
pub fn unit_sees(state: &State, a: &Unit, b: &Unit) -> bool {
    let rule = DefaultSightRule { see_into: 3.0 };
    if !line_of_sight(&state.table, a.at, eye(a.troop), b.at, eye(b.troop), &rule) {
        return false;
    }
    let contour = |u: &Unit| state.table.elevation(u.at).floor() as i32;
    let viewer = SightStanding { troop: a.troop, contour: contour(a) };
    let target = SightStanding { troop: b.troop, contour: contour(b) };
    let between: Vec<SightStanding> = state
        .units
        .iter()
        .filter(|c| c.id != a.id && c.id != b.id && c.on_table())
        .filter(|c| {
            // Standing across the line between the two standards.
            tabletop::geometry::point_segment_distance(c.at, a.at, b.at) < 0.5
                && c.at.distance(a.at) < a.at.distance(b.at)
                && c.at.distance(b.at) < a.at.distance(b.at)
        })
        .map(|c| SightStanding { troop: c.troop, contour: contour(c) })
        .collect();
    !screened(viewer, target, &between)
}

/// Whether `enemy` faces `unit`: the unit's standard lies in the enemy's front sector
/// (WRG-R-12).
pub fn faces(enemy: &Unit, unit: &Unit) -> bool {
    direction_sector(enemy.facing, unit.at - enemy.at) == Sector::Front
}

/// The T9 situation of a unit, read from the state: unit counts within 15" (standard to
/// standard, in view), units in sight beyond, enemy cavalry, advancing, retiring and routing
/// units, enemies on its flanks or rear, cover within 10", figures lost, disorganisation.
/// Flank and rear support, secure flanks, slopes, fire and the C-in-C are left for the caller
/// (they need the period's events).
pub fn read(data: &Data, state: &State, unit: &Unit) -> Situation {
    let within = data.movement.distances.reaction_within;
    let mut s = Situation::default();
    for o in state.units.iter().filter(|o| o.id != unit.id && o.on_table()) {
        if !unit_sees(state, unit, o) {
            continue;
        }
        let near = unit.at.distance(o.at) <= within + 1e-9;
        if o.side == unit.side {
            if near {
                s.friends_within += 1;
                match o.motion {
                    Motion::Advanced => s.friend_advancing_within = true,
                    Motion::Charged => s.friend_charging_within = true,
                    Motion::Retired => s.friend_retiring_within = true,
                    Motion::Routing => s.friends_routing_within += 1,
                    Motion::Still => {}
                }
            } else {
                s.other_friends_in_sight = true;
            }
        } else if near {
            match o.motion {
                Motion::Routing => s.enemies_routing_within += 1,
                Motion::Retired => s.enemy_retiring_within = true,
                Motion::Advanced | Motion::Charged => s.enemy_advancing_within = true,
                Motion::Still => {}
            }
            if o.motion != Motion::Routing && faces(o, unit) {
                s.enemies_facing_within += 1;
            }
            if o.troop.is_cavalry() {
                s.enemy_cavalry_within = true;
            }
            if matches!(
                direction_sector(o.facing, unit.at - o.at),
                Sector::Left | Sector::Right | Sector::Rear
            ) && o.motion != Motion::Routing
            {
                s.enemy_showing_flank_within = true;
            }
            match direction_sector(unit.facing, o.at - unit.at) {
                Sector::Left | Sector::Right => s.enemy_on_flank = true,
                Sector::Rear => s.enemy_in_rear = true,
                Sector::Front => {}
            }
        } else {
            s.other_enemy_in_sight = true;
        }
    }
    // Cover within 10": friendly when held by friends or free of enemy (WRG-RDEF-05, -06).
    let cover_within = data.movement.distances.cover_within;
    for (i, a) in state.table.areas.iter().enumerate() {
        if !matches!(a.kind, AreaKind::Wood | AreaKind::DenseTrees | AreaKind::Village) {
            continue;
        }
        let poly = &a.polygon;
        let edge = poly.distance_to_boundary(unit.at);
        if !(poly.contains(unit.at) || edge <= cover_within + 1e-9) {
            continue;
        }
        let held_by = |friend: bool| {
            state
                .units
                .iter()
                .any(|o| (o.side == unit.side) == friend && o.on_table() && poly.contains(o.at))
        };
        let known_empty = crate::scenario::sees_area(&state.table, unit.at, eye(unit.troop), i)
            && !held_by(false);
        if held_by(true) || known_empty {
            s.friendly_cover_within = true;
        } else {
            s.unfriendly_cover_within = true;
        }
    }
    s.figures_lost = unit.start_figures - unit.block.figures;
    s.retiring = unit.motion == Motion::Retired;
    s.disorganised = crate::combat::disorganisation_penalty(&crate::combat::effective_causes(
        unit.troop,
        unit.status,
        &unit.causes,
    )) < 0;
    s
}
