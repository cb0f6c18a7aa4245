//! The shooting part of a period: every missile unit picks its target and shoots, the dice go
//! through the game's [`DiceSource`], and all the losses are applied together before the
//! tests they cause (WRG-FIRE-01 .. -07, -14, -16, WRG-ORD-07, WRG-RT-06, WRG-RFAC-16).

use crate::Data;
use crate::casualty::{men_lost, remove};
use crate::combat::{Applied, From, Protection, Tactical, can_use_shield, tactical_factors, total};
use crate::fire::{ShooterMove, arc_kind, crew_equivalent, may_shoot, missile_factor, reaches};
use crate::model::*;
use crate::orders::Verb;
use crate::random::roll_shooting;
use crate::state::{Motion, State, Unit};
use serde::{Deserialize, Serialize};
use tabletop::dice::{DiceSource, Roll};
use tabletop::geometry::{Point, Rect, Sector, Vec2};
use tabletop::terrain::AreaKind;

/// One unit's shooting this period.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shot {
    /// The shooter.
    pub shooter: u16,
    /// The target.
    pub target: u16,
    /// The weapon it counts as.
    pub weapon: MissileWeapon,
    /// Figures shooting (after crew equivalents).
    pub figures: u32,
    /// The red and black dice.
    pub rolls: Vec<Roll>,
    /// Every factor applied: weapon, tactical, random.
    pub factors: Vec<Applied>,
    /// The total factor.
    pub total: i32,
    /// Men hit.
    pub men: u32,
}

/// The nearest point of a footprint to `p`.
fn nearest(r: &Rect, p: Point) -> Point {
    let l = r.to_local(p);
    r.to_world(Vec2::new(
        l.x.clamp(-r.width / 2.0, r.width / 2.0),
        l.y.clamp(-r.depth / 2.0, r.depth / 2.0),
    ))
}

/// The front-rank figures' front-edge centres, left to right.
fn front_points(data: &Data, u: &Unit) -> Vec<Point> {
    let r = u.block.footprint(data, u.troop, u.at, u.facing);
    let n = u.block.front_rank();
    let w = data.base(u.troop).front;
    (0..n)
        .map(|i| r.to_world(Vec2::new((i as f64 + 0.5) * w - r.width / 2.0, r.depth / 2.0)))
        .collect()
}

/// The weapon, figure multiplier, range and cover exemption a unit shoots with.
fn armament(data: &Data, u: &Unit) -> Option<(MissileWeapon, u32, f64, bool)> {
    let crew = match u.troop {
        TroopType::Elephant => Some(Crew::Elephant),
        TroopType::Chariot => Some(match u.chariot {
            Some(ChariotKind::Asiatic) => Crew::AsiaticChariot,
            _ => Crew::CelticChariot,
        }),
        TroopType::LightDartEngine | TroopType::LightDartEngineMule => Some(Crew::LightDartEngine),
        TroopType::HeavyDartEngine => Some(Crew::HeavyDartEngine),
        TroopType::StoneThrower => Some(Crew::StoneThrower),
        _ => None,
    };
    match crew {
        Some(c) => {
            let e = crew_equivalent(data, c);
            Some((e.weapon, e.figures, e.range, e.ignores_cover))
        }
        None => u.missile.map(|w| (w, 1, data.weapon(w).range, false)),
    }
}

fn in_cover(state: &State, u: &Unit) -> bool {
    state.table.areas.iter().any(|a| {
        matches!(a.kind, AreaKind::Wood | AreaKind::DenseTrees | AreaKind::Village)
            && a.polygon.contains(u.at)
    })
}

/// Whether the segment a–b passes through the inside of a footprint (Liang–Barsky).
fn crosses(r: &Rect, a: Point, b: Point) -> bool {
    let (p, q) = (r.to_local(a), r.to_local(b));
    let d = q - p;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let (hw, hd) = (r.width / 2.0 - 1e-6, r.depth / 2.0 - 1e-6);
    for (dp, lo, hi, x) in [(d.x, -hw, hw, p.x), (d.y, -hd, hd, p.y)] {
        if dp.abs() < 1e-12 {
            if x < lo || x > hi {
                return false;
            }
        } else {
            let (mut a, mut b) = ((lo - x) / dp, (hi - x) / dp);
            if a > b {
                std::mem::swap(&mut a, &mut b);
            }
            t0 = t0.max(a);
            t1 = t1.min(b);
            if t0 > t1 {
                return false;
            }
        }
    }
    t1 > 1e-9 && t0 < 1.0 - 1e-9
}

/// The figures of `shooter` that reach `target`: range and arc from each front-rank figure
/// (WRG-FIRE-03, WRG-R-03), and a clear line or an overhead shot the rules allow
/// (WRG-FIRE-08 .. -13), before crew multipliers. The second value says whether any counted
/// figure shoots overhead on the level (WRG-TAC-01).
pub fn reach_and_overhead(
    data: &Data,
    state: &State,
    shooter: &Unit,
    target: &Unit,
    range: f64,
    weapon: MissileWeapon,
) -> (u32, bool) {
    reach_among(data, state, &footprints(data, state), shooter, target, range, weapon)
}

/// Every unit's footprint by id (none for units off the table), for the lines of fire.
fn footprints(data: &Data, state: &State) -> Vec<Option<Rect>> {
    let print = |u: &Unit| u.block.footprint(data, u.troop, u.at, u.facing);
    state.units.iter().map(|u| u.on_table().then(|| print(u))).collect()
}

/// [`reach_and_overhead`] with every unit's footprint worked out already.
fn reach_among(
    data: &Data,
    state: &State,
    prints: &[Option<Rect>],
    shooter: &Unit,
    target: &Unit,
    range: f64,
    weapon: MissileWeapon,
) -> (u32, bool) {
    let kind = arc_kind(shooter.troop, weapon);
    let tr = prints[target.id as usize]
        .unwrap_or_else(|| target.block.footprint(data, target.troop, target.at, target.facing));
    let contour = |u: &Unit| state.table.elevation(u.at).floor() as i32;
    let mut n = 0;
    let mut overhead_flat = false;
    // Every other unit on the table: the line from each figure is checked against them.
    let others: Vec<(&Unit, Rect)> = state
        .units
        .iter()
        .zip(prints)
        .filter(|(o, _)| o.id != shooter.id && o.id != target.id)
        .filter_map(|(o, r)| r.map(|r| (o, r)))
        .collect();
    for p in front_points(data, shooter) {
        let aim = nearest(&tr, p);
        if reaches(data, p, shooter.facing, kind, range, aim).is_err() {
            continue;
        }
        let between: Vec<&Unit> =
            others.iter().filter(|(_, r)| crosses(r, p, aim)).map(|(o, _)| *o).collect();
        let friendly_units = between.iter().filter(|o| o.side == shooter.side).count() as u32;
        let mut ok = true;
        let mut penalty = false;
        for o in &between {
            let shot = crate::fire::Overhead {
                shooter_contour: contour(shooter),
                intervening_contour: contour(o),
                shooter: shooter.troop,
                status: shooter.status,
                weapon,
                intervening: o.troop,
                units_over: friendly_units,
                ranks: 1,
                onto_engaged_front: false,
            };
            match crate::fire::overhead(&shot) {
                Ok(p) => penalty |= p,
                Err(_) => ok = false,
            }
        }
        if ok {
            n += 1;
            overhead_flat |= penalty;
        }
    }
    (n, overhead_flat)
}

/// The figures of `shooter` that reach `target` (see [`reach_and_overhead`]).
pub fn figures_in_reach(
    data: &Data,
    state: &State,
    shooter: &Unit,
    target: &Unit,
    range: f64,
    weapon: MissileWeapon,
) -> u32 {
    reach_and_overhead(data, state, shooter, target, range, weapon).0
}

/// Works out every unit's shooting this period from the state after movement, rolling the
/// dice; nothing is changed (WRG-FIRE-01). Targets: the unit named by a skirmish or attack
/// order if it can be reached, otherwise the nearest enemy that can (WRG-ORD-07, WRG-M-19).
pub fn shoot_all(data: &Data, state: &State, dice: &mut dyn DiceSource) -> Vec<Shot> {
    let mut out = Vec::new();
    let prints = footprints(data, state);
    for s in state.units.iter().filter(|u| u.on_table() && u.motion != Motion::Routing) {
        let Some((weapon, per_figure, range, ignores_cover)) = armament(data, s) else { continue };
        if !crate::orders::shoots_at_will(s.standing.order()) {
            continue;
        }
        let moved = match s.motion {
            Motion::Charged => ShooterMove::Charged,
            Motion::Retired => ShooterMove::Retreating,
            _ if s.moved > 0.0 => ShooterMove::Moved,
            _ => ShooterMove::Still,
        };
        if may_shoot(data, s.troop, weapon, moved, false).is_err() {
            continue;
        }
        let named = match s.standing.order().map(|o| &o.verb) {
            Some(Verb::Skirmish { unit } | Verb::Attack { unit }) => Some(*unit),
            _ => None,
        };
        let Some(own) = prints[s.id as usize] else { continue };
        // The enemies in range of the whole unit, the named one first, then the nearest: the
        // first that any figure reaches is the target.
        let mut candidates: Vec<(u32, f64, u16)> = state
            .units
            .iter()
            .filter(|t| t.side != s.side)
            // No figure reaches a target whose footprint is out of range of the whole unit's.
            .filter(|t| prints[t.id as usize].is_some_and(|r| own.within(&r, range + 1e-9)))
            .map(|t| (u32::from(Some(t.id) != named), s.at.distance(t.at), t.id))
            .collect();
        candidates.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
        let Some((t, (reach, overhead_flat))) = candidates.iter().find_map(|&(_, _, tid)| {
            let t = &state.units[tid as usize];
            let r = reach_among(data, state, &prints, s, t, range, weapon);
            (r.0 > 0).then_some((t, r))
        }) else {
            continue;
        };
        let figures = reach.saturating_mul(per_figure);
        // The target's shields: shot from its rear or right flank, or shieldless, or busy with
        // a two-handed weapon of its own (WRG-SHLD-01 .. -03).
        let from = match tabletop::geometry::direction_sector(t.facing, s.at - t.at) {
            Sector::Front => From::Front,
            Sector::Left => From::Left,
            Sector::Right => From::Right,
            Sector::Rear => From::Rear,
        };
        let busy = t.missile.is_some_and(|w| data.weapon(w).two_handed)
            || data.melee_row(t.melee).two_handed;
        let protection =
            Protection { no_shield: !t.shield, two_handed: busy, fully_armoured: t.fully_armoured };
        let shielded = can_use_shield(t.troop, protection, from).0;
        let tactical = Tactical {
            overhead_on_flat: overhead_flat,
            target_in_cover: in_cover(state, t),
            stone_thrower: ignores_cover,
            disorganised: crate::combat::disorganisation_penalty(&crate::combat::effective_causes(
                s.troop, s.status, &s.causes,
            )) < 0,
            target_moved_six: t.moved >= 6.0,
            target_shieldless: !shielded,
            higher_ground: state.table.elevation(s.at) > state.table.elevation(t.at) + 0.5,
            ..Default::default()
        };
        let (random, rolls) = roll_shooting(data, dice);
        let wf = missile_factor(data, weapon, t.troop);
        let mut factors =
            vec![Applied::new("WRG-FIRE-07", wf, format!("{weapon} against {}", t.troop))];
        factors.extend(tactical_factors(&tactical, true));
        factors.push(Applied::new("WRG-RAND-01", random, "red and black dice"));
        let total_factor = wf + total(&factors[1..factors.len() - 1]) + random;
        let men = men_lost(data, total_factor, figures).men;
        out.push(Shot {
            shooter: s.id,
            target: t.id,
            weapon,
            figures,
            rolls: rolls.to_vec(),
            factors,
            total: total_factor,
            men,
        });
    }
    out
}

/// What the shooting did to one unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    /// The unit.
    pub unit: u16,
    /// Men hit this period.
    pub men: u32,
    /// Figures removed.
    pub figures_removed: u32,
    /// Enemy figures that shot at it (WRG-RFAC-16).
    pub shot_at_by: u32,
    /// It must test for losing 3 or more figures to missiles (WRG-RT-06).
    pub must_test: bool,
}

/// Applies every shot together, after all are worked out (WRG-FIRE-01, WRG-CAS-03,
/// WRG-RT-06).
pub fn apply_shots(data: &Data, state: &mut State, shots: &[Shot]) -> Vec<Hit> {
    let mut hits: Vec<Hit> = Vec::new();
    for sh in shots {
        match hits.iter_mut().find(|h| h.unit == sh.target) {
            Some(h) => {
                h.men = h.men.saturating_add(sh.men);
                h.shot_at_by = h.shot_at_by.saturating_add(sh.figures);
            }
            None => hits.push(Hit {
                unit: sh.target,
                men: sh.men,
                figures_removed: 0,
                shot_at_by: sh.figures,
                must_test: false,
            }),
        }
    }
    hits.sort_by_key(|h| h.unit);
    for h in &mut hits {
        let u = &mut state.units[h.unit as usize];
        let r = remove(data, u.block.figures, u.carried, h.men);
        u.block.lose(r.figures_removed);
        u.carried = r.carried;
        h.figures_removed = r.figures_removed;
        h.must_test = r.figures_removed >= 3;
    }
    hits
}
