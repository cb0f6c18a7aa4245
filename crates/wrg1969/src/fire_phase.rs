//! The shooting part of a period: every missile unit picks its target and the moment of the
//! period it shoots at, the dice go through the game's [`DiceSource`], and all the losses are
//! applied together before the tests they cause (WRG-FIRE-01 .. -16, WRG-ORD-07, WRG-RT-06,
//! WRG-RFAC-16, WRG-GEN-03).
//!
//! The shot may be taken at any moment of the period (WRG-FIRE-01, WRG-R-11): the movement
//! records where every unit stood at the end of each of its 20 time steps, and each shooter
//! takes the step that serves it best, with both units (and everyone in between) where they
//! stood then: never a step in which it was charging (WRG-FIRE-04), and while retreating only
//! if it may shoot behind (WRG-FIRE-06).

use crate::Data;
use crate::casualty::{Reading, men_lost, reading_total, remove};
use crate::combat::{Applied, Cause, From, Protection, Tactical, can_use_shield, tactical_factors};
use crate::fire::{arc_kind, crew_equivalent, missile_factor, reaches};
use crate::melee_phase::CONTACT;
use crate::model::*;
use crate::move_phase::{StepMotion, StepPose};
use crate::orders::Verb;
use crate::random::roll_shooting;
use crate::report::{Fact, Note, Part, Total};
use crate::sight::Grid;
use crate::state::{Motion, State, Unit};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::cell::Cell;
use tabletop::dice::{DiceSource, Roll};
use tabletop::geometry::{
    Facing, Point, Rect, Sector, Vec2, direction_sector, point_segment_distance_squared,
};
use tabletop::rules::{RuleId, Side};
use tabletop::terrain::AreaKind;

/// The time steps of a period (WRG-R-08).
const STEPS: u32 = 20;

/// The size of a scene's grid cells, in inches.
const CELL: f64 = 12.0;

/// What the grid's reach adds to the footprints' own tests, in inches, so that rounding never
/// leaves out a unit they would count.
const SLACK: f64 = 1e-6;

/// What a shot is aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// A unit, by id.
    Unit(u16),
    /// A side's General alone, more than 5" from all his units (WRG-GEN-03).
    General(Side),
}

impl Mark {
    /// The unit aimed at, if it is a unit.
    pub fn unit(self) -> Option<u16> {
        match self {
            Mark::Unit(id) => Some(id),
            Mark::General(_) => None,
        }
    }
}

/// The figures of a shot, with the rule that counts each part.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counted {
    /// The rule.
    pub rule: String,
    /// What they are.
    pub what: String,
    /// How many.
    pub figures: u32,
}

/// One unit's shooting this period.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shot {
    /// The shooter.
    pub shooter: u16,
    /// The target.
    pub target: Mark,
    /// The time step of the period it shot at, 1 to 20 (20: where the movement ended).
    pub step: u32,
    /// The weapon it counts as.
    pub weapon: MissileWeapon,
    /// Figures shooting (after crew equivalents).
    pub figures: u32,
    /// How the figures were counted.
    pub counted: Vec<Counted>,
    /// The red and black dice.
    pub rolls: Vec<Roll>,
    /// Every factor applied: weapon, tactical, random.
    pub factors: Vec<Applied>,
    /// The total factor.
    pub total: i32,
    /// The casualty table read.
    pub reading: Reading,
    /// Men hit.
    pub men: u32,
    /// The further rules the shot applied (overhead fire, moving, shields, the General alone).
    pub rules: Vec<&'static str>,
}

/// The positions of a period's time steps and where the movement began: what shooting "at
/// any suitable time within the period" reads (WRG-FIRE-01, WRG-R-11).
#[derive(Clone, Copy, Debug, Default)]
pub struct Moments<'a> {
    /// Every unit's pose at the end of each time step, one per unit a step (empty: only where
    /// the movement ended counts).
    pub poses: &'a [StepPose],
    /// Where each unit's standard stood when the movement began (empty: unknown).
    pub start: &'a [Point],
}

/// The nearest point of a footprint to `p`.
fn nearest(r: &Rect, p: Point) -> Point {
    let l = r.to_local(p);
    r.to_world(Vec2::new(
        l.x.clamp(-r.width / 2.0, r.width / 2.0),
        l.y.clamp(-r.depth / 2.0, r.depth / 2.0),
    ))
}

/// The front-edge centres of one rank's figures, left to right: `rank` 0 is the front rank.
fn rank_points(data: &Data, u: &Unit, r: &Rect, rank: u32, out: &mut Vec<Point>) {
    out.clear();
    let n = if rank == 0 { u.block.front_rank() } else { u.block.second_rank() };
    let b = data.base(u.troop);
    let y = r.depth / 2.0 - rank as f64 * b.depth;
    let width = n as f64 * b.front;
    for i in 0..n {
        out.push(r.to_world(Vec2::new((i as f64 + 0.5) * b.front - width / 2.0, y)));
    }
}

/// The weapon, figure multiplier, range and cover exemption a unit shoots with, and the
/// crew it shoots as (WRG-FIRE-14).
fn armament(data: &Data, u: &Unit) -> Option<(MissileWeapon, u32, f64, bool, Option<Crew>)> {
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
            Some((e.weapon, e.figures, e.range, e.ignores_cover, Some(c)))
        }
        None => u.missile.map(|w| (w, 1, data.weapon(w).range, false, None)),
    }
}

/// Whether a point stands in partial cover: a wood, trees or a village (WRG-TAC-02).
pub fn in_cover(state: &State, at: Point) -> bool {
    state.table.areas.iter().any(|a| {
        matches!(a.kind, AreaKind::Wood | AreaKind::DenseTrees | AreaKind::Village)
            && a.polygon.contains(at)
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

/// Where every unit stands at one moment of the period, with its footprint.
struct Scene {
    /// Each unit's standard and facing.
    at: Vec<(Point, Facing)>,
    /// How each unit was moving.
    going: Vec<StepMotion>,
    /// Each unit's footprint (none off the table).
    prints: Vec<Option<Rect>>,
    /// The footprints' centres bucketed in cells: the units near a footprint are looked for
    /// in the cells around it rather than among every unit on the table.
    grid: Grid,
    /// The largest half-diagonal of any footprint in the scene.
    widest: f64,
    /// The ground's elevation under each unit's standard, worked out when first asked (NaN
    /// until then).
    elevation: Vec<Cell<f64>>,
}

impl Scene {
    /// The scene at time step `step`: from the recorded poses, or from the state for the last
    /// step (where the movement ended, after chargers lined up on their targets).
    fn new(data: &Data, state: &State, m: &Moments, step: u32) -> Scene {
        let n = state.units.len();
        let recorded = |s: u32| {
            let base = (s as usize - 1) * n;
            m.poses.get(base..base + n)
        };
        let mut at = Vec::with_capacity(n);
        let mut going = Vec::with_capacity(n);
        match recorded(step).filter(|_| step < STEPS) {
            Some(poses) => {
                for p in poses {
                    at.push((p.at, p.facing));
                    going.push(p.going);
                }
            }
            None => {
                let last = recorded(STEPS);
                for (i, u) in state.units.iter().enumerate() {
                    at.push((u.at, u.facing));
                    going.push(match last {
                        Some(p) => p[i].going,
                        None => match u.motion {
                            Motion::Charged => StepMotion::Charging,
                            Motion::Retired | Motion::Routing => StepMotion::Retreating,
                            _ if u.moved > 0.0 => StepMotion::Moving,
                            _ => StepMotion::Still,
                        },
                    });
                }
            }
        }
        let prints: Vec<Option<Rect>> = state
            .units
            .iter()
            .zip(&at)
            .map(|(u, &(p, f))| u.on_table().then(|| u.block.footprint(data, u.troop, p, f)))
            .collect();
        let centres: Vec<(u16, Point)> = (prints.iter().enumerate())
            .filter_map(|(i, r)| r.map(|r| (i as u16, r.centre)))
            .collect();
        let grid = Grid::new(state.table.width, state.table.height, CELL, &centres);
        let widest = prints.iter().flatten().map(Rect::half_diagonal).fold(0.0, f64::max);
        let elevation = (0..n).map(|_| Cell::new(f64::NAN)).collect();
        Scene { at, going, prints, grid, widest, elevation }
    }

    /// Calls `f` with every unit on the table whose footprint's circumscribed circle might
    /// come within `d` of `r`'s (a superset of the footprints within `d` of `r`), with its
    /// footprint, cell by cell.
    fn near(&self, r: &Rect, d: f64, mut f: impl FnMut(u16, &Rect)) {
        self.grid.near(r.centre, r.half_diagonal() + self.widest + d + SLACK, |id| {
            if let Some(p) = &self.prints[id as usize] {
                f(id, p);
            }
        });
    }

    /// Calls `f` with every unit on the table whose footprint might reach into the convex hull
    /// of `a` and `b` (a superset of the footprints that a line from a point of `a` to a point
    /// of `b` can pass through), with its footprint, cell by cell. The hull lies within the
    /// larger half-diagonal of the line between their centres.
    fn across(&self, a: &Rect, b: &Rect, mut f: impl FnMut(u16, &Rect)) {
        let w = a.half_diagonal().max(b.half_diagonal());
        let pad = w + self.widest + SLACK;
        let (p, q) = (a.centre, b.centre);
        let lo = Point::new(p.x.min(q.x) - pad, p.y.min(q.y) - pad);
        let hi = Point::new(p.x.max(q.x) + pad, p.y.max(q.y) + pad);
        self.grid.in_box(lo, hi, |id| {
            let Some(r) = &self.prints[id as usize] else { return };
            let reach = r.half_diagonal() + w + SLACK;
            if point_segment_distance_squared(r.centre, p, q) <= reach * reach {
                f(id, r);
            }
        });
    }

    /// Whether the footprint of some unit that `which` accepts touches `r` (as
    /// [`Rect::touches`] with the tolerance of contact, the other footprint first).
    fn touching(&self, r: &Rect, mut which: impl FnMut(u16) -> bool) -> bool {
        let mut found = false;
        self.near(r, CONTACT, |id, p| {
            found = found || (which(id) && p.touches(r, CONTACT));
        });
        found
    }

    /// The ground's elevation under unit `id`'s standard in this scene, in contour levels.
    fn elevation(&self, state: &State, id: u16) -> f64 {
        let cell = &self.elevation[id as usize];
        if cell.get().is_nan() {
            cell.set(state.table.elevation(self.at[id as usize].0));
        }
        cell.get()
    }

    /// Whether nothing at all differs from `o`.
    fn same_as(&self, o: &Scene) -> bool {
        self.at == o.at && self.going == o.going
    }

    /// Which units stand or move otherwise in `o`, by id.
    fn changes(&self, o: &Scene) -> Vec<bool> {
        (self.at.iter().zip(&o.at))
            .zip(self.going.iter().zip(&o.going))
            .map(|((a, b), (x, y))| a != b || x != y)
            .collect()
    }

    /// Whether some unit that `which` accepts has a footprint whose circumscribed circle
    /// comes within the tolerance of contact of the convex hull of `a` and `b`: every unit a
    /// shot between them reads (those that touch either, and those a line of fire from one to
    /// the other may cross) is among them.
    fn stirs(&self, a: &Rect, b: &Rect, mut which: impl FnMut(u16) -> bool) -> bool {
        let w = a.half_diagonal().max(b.half_diagonal()) + CONTACT;
        let pad = w + self.widest + SLACK;
        let (p, q) = (a.centre, b.centre);
        let lo = Point::new(p.x.min(q.x) - pad, p.y.min(q.y) - pad);
        let hi = Point::new(p.x.max(q.x) + pad, p.y.max(q.y) + pad);
        let mut found = false;
        self.grid.in_box(lo, hi, |id| {
            if found || !which(id) {
                return;
            }
            let Some(r) = &self.prints[id as usize] else { return };
            let reach = r.half_diagonal() + w + SLACK;
            found = point_segment_distance_squared(r.centre, p, q) <= reach * reach;
        });
        found
    }
}

/// The steps of the period a shooter may consider: every recorded step, or only the last.
fn steps_of(state: &State, m: &Moments) -> u32 {
    if m.poses.len() >= state.units.len() * STEPS as usize && !state.units.is_empty() {
        STEPS
    } else {
        1
    }
}

/// What a shot is aimed at, as it stands in a scene.
struct Aimed {
    troop: TroopType,
    print: Rect,
    at: Point,
    facing: Facing,
    protection: Protection,
    moved: f64,
}

fn general_print(data: &Data, g: &crate::state::General) -> Rect {
    let b = data.base(g.troop);
    Rect::new(g.at, g.facing, b.front, b.depth)
}

/// Whether a General stands alone: more than 5" from the standard of every unit of his on the
/// table (WRG-GEN-03, WRG-R-38).
fn general_alone(data: &Data, state: &State, scene: &Scene, side: Side, at: Point) -> bool {
    let far: Vec<f64> = state
        .units
        .iter()
        .zip(&scene.at)
        .filter(|(u, _)| u.side == side && u.on_table())
        .map(|(_, (p, _))| p.distance(at))
        .collect();
    crate::after::general_exposed(data, &far)
}

fn aimed(data: &Data, state: &State, scene: &Scene, mark: Mark) -> Option<Aimed> {
    match mark {
        Mark::Unit(id) => {
            let t = state.units.get(id as usize)?;
            let print = scene.prints[id as usize]?;
            let (at, facing) = scene.at[id as usize];
            let busy = t.missile.is_some_and(|w| data.weapon(w).two_handed)
                || data.melee_row(t.melee).two_handed;
            Some(Aimed {
                troop: t.troop,
                print,
                at,
                facing,
                protection: Protection {
                    no_shield: !t.shield,
                    two_handed: busy,
                    fully_armoured: t.fully_armoured,
                },
                moved: t.moved,
            })
        }
        Mark::General(side) => {
            let g = state.generals.iter().find(|g| g.side == side)?;
            if g.risk.fallen(data) || g.attached.is_some() {
                return None;
            }
            if !general_alone(data, state, scene, side, g.at) {
                return None;
            }
            Some(Aimed {
                troop: g.troop,
                print: general_print(data, g),
                at: g.at,
                facing: g.facing,
                protection: Protection::default(),
                moved: g.rode,
            })
        }
    }
}

/// Buffers kept from one reach to the next.
#[derive(Default)]
struct Pad {
    /// A rank's figures.
    pts: Vec<Point>,
    /// The other units near the shooter, with their footprints.
    others: Vec<(u16, Rect)>,
}

/// Which figures reach a target at one moment, and what the overhead rules allowed.
#[derive(Clone, Copy, Debug, Default)]
struct Reach {
    /// Front-rank figures that reach.
    front: u32,
    /// Second-rank figures that reach, over their own front rank (WRG-FIRE-10, -13).
    second: u32,
    /// Some counted figure shoots overhead on the level (WRG-TAC-01).
    overhead_flat: bool,
    /// Over lower troops (WRG-FIRE-08).
    over_lower: bool,
    /// Elephant crews over mounted troops (WRG-FIRE-09).
    over_mounted: bool,
    /// Over one friendly unit (WRG-FIRE-12).
    over_friends: bool,
    /// Some figure was kept from shooting overhead onto an engaged front rank (WRG-FIRE-11).
    kept_off_engaged: bool,
}

/// The figures of `shooter` that reach the target from where they stand in `scene`: range and
/// arc from each figure (WRG-FIRE-03, WRG-R-03), and a clear line or an overhead shot the rules
/// allow (WRG-FIRE-08 .. -13); the second rank of regular close-order archers shoots over the
/// first (WRG-FIRE-10, -13).
#[allow(clippy::too_many_arguments)]
fn reach_in(
    data: &Data,
    state: &State,
    scene: &Scene,
    shooter: &Unit,
    target: &Aimed,
    target_id: Option<u16>,
    range: f64,
    weapon: MissileWeapon,
    pad: &mut Pad,
) -> Reach {
    let kind = arc_kind(shooter.troop, weapon);
    let Some(mut own) = scene.prints[shooter.id as usize] else { return Reach::default() };
    let mut facing = scene.at[shooter.id as usize].1;
    // Shooting behind while retreating: from the side of the unit that faces the enemy
    // (WRG-FIRE-06).
    if scene.going[shooter.id as usize] == StepMotion::Retreating
        && (target.at - own.centre).dot(facing.vector()) < 0.0
    {
        facing = facing.reversed();
        own = Rect::new(own.centre, facing, own.width, own.depth);
    }
    let contour = |id: u16| scene.elevation(state, id).floor() as i32;
    let my_contour = contour(shooter.id);
    // The target's front rank is engaged when it touches one of the shooter's friends.
    let engaged = scene.touching(&target.print, |id| {
        id != shooter.id && state.units[id as usize].side == shooter.side
    });
    // The units a line of fire may cross: every figure shoots from within the shooter's
    // footprint at a point of the target's.
    let Pad { pts, others } = pad;
    others.clear();
    scene.across(&own, &target.print, |id, r| {
        if id != shooter.id && Some(id) != target_id {
            others.push((id, *r));
        }
    });
    // In the order of the units, as every list of the rule set.
    others.sort_unstable_by_key(|(id, _)| *id);
    let second_shoots = shooter.status == Status::Regular
        && matches!(shooter.troop, TroopType::HeavyInfantry | TroopType::MediumInfantry)
        && weapon.is_bow()
        && shooter.block.second_rank() > 0;
    let mut out = Reach::default();
    for rank in 0..(1 + u32::from(second_shoots)) {
        rank_points(data, shooter, &own, rank, pts);
        for &p in pts.iter() {
            let aim = nearest(&target.print, p);
            if reaches(data, p, facing, kind, range, aim).is_err() {
                continue;
            }
            let mut friendly_units = 0;
            let mut enemies_between = false;
            let mut between: [Option<(TroopType, i32, Side)>; 4] = [None; 4];
            let mut crowded = false;
            let mut k = 0;
            if rank == 1 {
                between[0] = Some((shooter.troop, my_contour, shooter.side));
                k = 1;
            }
            for &(id, ref r) in others.iter() {
                if crosses(r, p, aim) {
                    let o = &state.units[id as usize];
                    if o.side == shooter.side {
                        friendly_units += 1;
                    } else {
                        enemies_between = true;
                    }
                    if k < between.len() {
                        between[k] = Some((o.troop, contour(id), o.side));
                        k += 1;
                    } else {
                        crowded = true;
                    }
                }
            }
            if crowded {
                continue;
            }
            let mut ok = true;
            let mut r = Reach::default();
            for (troop, c, side) in between.iter().flatten().copied() {
                let shot = crate::fire::Overhead {
                    shooter_contour: my_contour,
                    intervening_contour: c,
                    shooter: shooter.troop,
                    status: shooter.status,
                    weapon,
                    intervening: troop,
                    units_over: friendly_units,
                    ranks: rank + 1,
                    onto_engaged_front: engaged && side == shooter.side,
                };
                match crate::fire::overhead(&shot) {
                    Ok((penalty, rule)) => {
                        r.overhead_flat |= penalty;
                        r.over_lower |= rule == "WRG-FIRE-08";
                        r.over_mounted |= rule == "WRG-FIRE-09";
                    }
                    Err(rule) => {
                        out.kept_off_engaged |= rule == "WRG-FIRE-11";
                        ok = false;
                    }
                }
            }
            // Overhead fire on the level falls on the foremost enemy in front, over one
            // friendly unit (WRG-FIRE-12).
            if friendly_units > 0 && enemies_between {
                ok = false;
            }
            if ok {
                if rank == 0 {
                    out.front += 1;
                } else {
                    out.second += 1;
                }
                out.overhead_flat |= r.overhead_flat;
                out.over_lower |= r.over_lower;
                out.over_mounted |= r.over_mounted;
                out.over_friends |= friendly_units > 0 && r.overhead_flat;
            }
        }
    }
    out
}

/// The figures of `shooter` that reach `target` where they stand now (see the module's rules),
/// before crew multipliers.
pub fn figures_in_reach(
    data: &Data,
    state: &State,
    shooter: &Unit,
    target: &Unit,
    range: f64,
    weapon: MissileWeapon,
) -> u32 {
    let scene = Scene::new(data, state, &Moments::default(), STEPS);
    let Some(t) = aimed(data, state, &scene, Mark::Unit(target.id)) else { return 0 };
    let mut pad = Pad::default();
    let r = reach_in(data, state, &scene, shooter, &t, Some(target.id), range, weapon, &mut pad);
    r.front + r.second
}

/// One moment a shooter could take, with what it would do then.
struct Moment {
    step: u32,
    reach: Reach,
    tactical: Tactical,
    shield_rule: &'static str,
    factor: i32,
    men: u32,
}

/// The tactical situation of a shot at one moment (WRG-TAC-01 .. -07, WRG-SHLD-01 .. -03).
fn shot_tactical(
    state: &State,
    shooter: &Unit,
    shooter_at: Point,
    t: &Aimed,
    reach: &Reach,
    ignores_cover: bool,
    elevations: (f64, f64),
) -> (Tactical, &'static str) {
    let from = match direction_sector(t.facing, shooter_at - t.at) {
        Sector::Front => From::Front,
        Sector::Left => From::Left,
        Sector::Right => From::Right,
        Sector::Rear => From::Rear,
    };
    let (shielded, shield_rule) = can_use_shield(t.troop, t.protection, from);
    let tactical = Tactical {
        overhead_on_flat: reach.overhead_flat,
        target_in_cover: in_cover(state, t.at),
        stone_thrower: ignores_cover,
        disorganised: !disorganisation(shooter).is_empty(),
        target_moved_six: t.moved >= 6.0,
        target_shieldless: !shielded,
        higher_ground: elevations.0 > elevations.1 + 0.5,
        ..Default::default()
    };
    (tactical, shield_rule)
}

/// The causes that disorganise a unit now: its own, and pursuing (WRG-DIS-05).
pub fn disorganisation(u: &Unit) -> Vec<Cause> {
    let mut causes = u.causes.clone();
    if u.pursuit.is_some() {
        causes.push(Cause::Pursuit);
    }
    crate::combat::effective_causes(u.troop, u.status, &causes)
}

/// Whether a shooter that may shoot behind while retreating (light horse archers, chariot and
/// elephant crews) has the target behind it at this moment: on the far side from the way it
/// has gone since the movement began (WRG-FIRE-06).
fn behind(m: &Moments, id: u16, at: Point, target: Point) -> bool {
    let Some(start) = m.start.get(id as usize) else { return false };
    let way = at - *start;
    way.length_squared() > 1e-12 && (target - at).dot(way) < 0.0
}

/// Whether a troop type shoots behind while retreating (WRG-FIRE-06).
fn shoots_behind(troop: TroopType, weapon: MissileWeapon) -> bool {
    (troop == TroopType::LightCavalry && weapon.is_bow())
        || matches!(troop, TroopType::Chariot | TroopType::Elephant)
}

/// Works out every unit's shooting this period from the moments of the movement, rolling the
/// dice; nothing is changed (WRG-FIRE-01). Targets: the unit named by a skirmish or attack
/// order if it can be reached, otherwise the nearest enemy that can (WRG-ORD-07, WRG-M-19);
/// a General alone may be singled out (WRG-GEN-03). Each shooter takes the moment of the
/// period at which it would hit hardest (ties to the later moment).
pub fn shoot_all(data: &Data, state: &State, m: &Moments, dice: &mut dyn DiceSource) -> Vec<Shot> {
    let mut out = Vec::new();
    let last = steps_of(state, m);
    let first = if last == STEPS { 1 } else { STEPS };
    let mut scenes: Vec<Option<Scene>> = (0..=STEPS).map(|_| None).collect();
    let mut skip: Vec<Option<bool>> = vec![None; STEPS as usize + 1];
    // The units whose pose differs from each step to the next.
    let mut changed: Vec<Vec<bool>> = vec![Vec::new(); STEPS as usize + 1];
    let mut pad = Pad::default();
    let swept = sweeps(state, m, first);
    let shooters: Vec<u16> = state
        .units
        .iter()
        .filter(|u| u.on_table() && u.motion != Motion::Routing)
        .filter(|u| armament(data, u).is_some())
        .filter(|u| crate::orders::shoots_at_will(u.standing.order()))
        .map(|u| u.id)
        .collect();
    for sid in shooters {
        let s = &state.units[sid as usize];
        let Some((weapon, per_figure, range, ignores_cover, crew)) = armament(data, s) else {
            continue;
        };
        // Engines, staff-slings and crossbows shoot only in a period they did not move
        // (WRG-FIRE-05).
        let stands = !data.weapon(weapon).moving;
        if stands && s.moved > 0.0 {
            continue;
        }
        let named = match s.standing.order().map(|o| &o.verb) {
            Some(Verb::Skirmish { unit } | Verb::Attack { unit }) => Some(*unit),
            _ => None,
        };
        let my_radius = half_diagonal(s.block.size(data, s.troop));
        // Only targets that come within reach at some moment (the quick test below, on the
        // boxes the two standards keep to over the period).
        let mine = swept[sid as usize];
        let may_reach = |b: (Point, Point), half_diagonal: f64| {
            let lim = range + my_radius + half_diagonal + SLACK;
            box_gap_squared(mine, b) <= lim * lim
        };
        let mut candidates: Vec<(u32, f64, u32, Mark)> = state
            .units
            .iter()
            .filter(|t| t.side != s.side && t.on_table())
            .filter(|t| may_reach(swept[t.id as usize], half_diagonal(t.block.size(data, t.troop))))
            .map(|t| (u32::from(Some(t.id) != named), s.at.distance(t.at), 0, Mark::Unit(t.id)))
            .collect();
        candidates.extend(
            state
                .generals
                .iter()
                .filter(|g| g.side != s.side && g.attached.is_none() && !g.risk.fallen(data))
                .filter(|g| may_reach((g.at, g.at), general_print(data, g).half_diagonal()))
                .map(|g| (1, s.at.distance(g.at), 1, Mark::General(g.side))),
        );
        candidates.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then(a.1.total_cmp(&b.1))
                .then(a.2.cmp(&b.2))
                .then(mark_key(a.3).cmp(&mark_key(b.3)))
        });
        let mut best: Option<(Mark, Moment)> = None;
        // Whether the shooter is in hand-to-hand at each step, worked out when first asked.
        let mut fights = [None; STEPS as usize + 1];
        for &(_, _, _, mark) in &candidates {
            let mut pick: Option<Moment> = None;
            for step in (first..=STEPS).rev() {
                // A step exactly like the next one gives nothing new; nor does one in which
                // nothing that the shot reads has changed since (ties go to the later step).
                if step < STEPS {
                    let i = step as usize;
                    if skip[i].is_none() {
                        ensure(&mut scenes, data, state, m, step + 1);
                        ensure(&mut scenes, data, state, m, step);
                        let (same, moved) = match (&scenes[i], &scenes[i + 1]) {
                            (Some(a), Some(b)) => (a.same_as(b), a.changes(b)),
                            _ => (false, vec![true; state.units.len()]),
                        };
                        skip[i] = Some(same);
                        changed[i] = moved;
                    }
                    if skip[i] == Some(true) {
                        continue;
                    }
                    if let (Mark::Unit(tid), Some(a), Some(b)) = (mark, &scenes[i], &scenes[i + 1])
                        && quiet(a, b, &changed[i], sid, tid)
                    {
                        continue;
                    }
                }
                ensure(&mut scenes, data, state, m, step);
                let Some(scene) = scenes[step as usize].as_ref() else { continue };
                let Some(own) = scene.prints[sid as usize] else { continue };
                let (s_at, _) = scene.at[sid as usize];
                let Some(t) = aimed(data, state, scene, mark) else { continue };
                // Quick reach: the two footprints' circles.
                let gap = s_at.distance(t.at) - my_radius - t.print.half_diagonal();
                if gap > range + 1e-9 || !own.within(&t.print, range + 1e-9) {
                    continue;
                }
                match scene.going[sid as usize] {
                    StepMotion::Charging => continue,
                    StepMotion::Retreating
                        if !(shoots_behind(s.troop, weapon) && behind(m, sid, s_at, t.at)) =>
                    {
                        continue;
                    }
                    _ => {}
                }
                // Figures fighting hand-to-hand at that moment do not shoot.
                let fighting = *fights[step as usize].get_or_insert_with(|| {
                    scene.touching(&own, |id| state.units[id as usize].side != s.side)
                });
                if fighting {
                    continue;
                }
                let reach =
                    reach_in(data, state, scene, s, &t, mark.unit(), range, weapon, &mut pad);
                let n = (reach.front + reach.second).saturating_mul(per_figure);
                if n == 0 {
                    continue;
                }
                let heights = (
                    scene.elevation(state, sid),
                    match mark {
                        Mark::Unit(id) => scene.elevation(state, id),
                        Mark::General(_) => state.table.elevation(t.at),
                    },
                );
                let (tactical, shield_rule) =
                    shot_tactical(state, s, s_at, &t, &reach, ignores_cover, heights);
                let factor = missile_factor(data, weapon, t.troop)
                    + crate::combat::total(&tactical_factors(&tactical, true));
                let men = men_lost(data, factor, n).men;
                let better = pick.as_ref().is_none_or(|p| {
                    (men, n) > (p.men, (p.reach.front + p.reach.second) * per_figure)
                });
                if better {
                    pick = Some(Moment { step, reach, tactical, shield_rule, factor, men });
                }
            }
            let Some(p) = pick else { continue };
            // The named target whenever it can be hit; otherwise the enemy hit hardest, the
            // nearest on a tie (WRG-ORD-07).
            if Some(mark) == named.map(Mark::Unit) {
                best = Some((mark, p));
                break;
            }
            let n = |p: &Moment| p.reach.front + p.reach.second;
            if best.as_ref().is_none_or(|(_, b)| (p.men, n(&p)) > (b.men, n(b))) {
                best = Some((mark, p));
            }
        }
        let Some((mark, p)) = best else { continue };
        let scene = scenes[p.step as usize].as_ref().expect("the scene of the shot");
        let t = aimed(data, state, scene, mark).expect("the target of the shot");
        let (random, rolls) = roll_shooting(data, dice);
        let wf = missile_factor(data, weapon, t.troop);
        let row = &data.weapon(weapon).row;
        let mut factors = vec![Applied::new(
            "WRG-FIRE-07",
            wf,
            format!(
                "{} against {} (T6 row {}, column {})",
                words(weapon.name()),
                words(t.troop.name()),
                words(row.name()),
                t.troop.column().name().to_uppercase()
            ),
        )];
        factors.extend(tactical_factors(&p.tactical, true).into_iter().map(|mut a| {
            if a.rule == "WRG-TAC-05" {
                a.why = shield_words(p.shield_rule, t.protection);
            }
            a
        }));
        let (red, black) = (rolls[0].value, rolls[1].value);
        let dice_words = match random {
            r if r > 0 => format!("black {black} beats red {red}"),
            r if r < 0 => format!("red {red} beats black {black}"),
            _ => format!("red and black both {red}"),
        };
        factors.push(Applied::new("WRG-RAND-01", random, dice_words));
        let total_factor = p.factor + random;
        let figures = (p.reach.front + p.reach.second).saturating_mul(per_figure);
        let reading = men_lost(data, total_factor, figures);
        let mut counted = vec![Counted {
            rule: "WRG-FIRE-03".into(),
            what: "front rank in range and arc".into(),
            figures: p.reach.front,
        }];
        if p.reach.second > 0 {
            counted.push(Counted {
                rule: "WRG-FIRE-13".into(),
                what: "second rank over the first".into(),
                figures: p.reach.second,
            });
        }
        if per_figure > 1 {
            counted.push(Counted {
                rule: "WRG-FIRE-14".into(),
                what: format!(
                    "{} {} figures for each {}",
                    per_figure,
                    words(weapon.name()),
                    crew.map_or("figure".to_string(), |c| words(c.name()))
                ),
                figures: figures - (p.reach.front + p.reach.second),
            });
        }
        let mut rules = vec!["WRG-FIRE-01", "WRG-FIRE-02", "WRG-ORD-07", "WRG-RAND-05"];
        if s.moved > 0.0 {
            rules.push("WRG-FIRE-04");
        }
        if stands {
            rules.push("WRG-FIRE-05");
        }
        if scene.going[sid as usize] == StepMotion::Retreating {
            rules.push("WRG-FIRE-06");
        }
        if p.reach.over_lower {
            rules.push("WRG-FIRE-08");
        }
        if p.reach.over_mounted {
            rules.push("WRG-FIRE-09");
        }
        if p.reach.overhead_flat {
            rules.push("WRG-FIRE-10");
        }
        if p.reach.kept_off_engaged {
            rules.push("WRG-FIRE-11");
        }
        if p.reach.over_friends {
            rules.push("WRG-FIRE-12");
        }
        if crew.is_some() {
            rules.push("WRG-FIRE-14");
        }
        if t.troop.is_engine() {
            rules.push("WRG-FIRE-16");
        }
        if p.tactical.target_shieldless || p.shield_rule == "WRG-SHLD-03" {
            rules.push(p.shield_rule);
        }
        if p.tactical.disorganised {
            rules.push("WRG-DIS-01");
            rules.extend(disorganisation(s).iter().map(|c| c.rule()));
        }
        if matches!(mark, Mark::General(_)) {
            rules.push("WRG-GEN-03");
        }
        out.push(Shot {
            shooter: sid,
            target: mark,
            step: p.step,
            weapon,
            figures,
            counted,
            rolls: rolls.to_vec(),
            factors,
            total: total_factor,
            men: reading.men,
            reading,
            rules,
        });
    }
    out
}

/// Why a target cannot use its shield (WRG-SHLD-01, -02).
pub fn shield_words(rule: &str, p: Protection) -> String {
    match rule {
        "WRG-SHLD-01" => "enemy cannot use shields: struck from the rear or right flank".into(),
        _ if p.no_shield => "enemy cannot use shields: they have none".into(),
        _ => "enemy cannot use shields: their weapons need both hands".into(),
    }
}

/// A data name in words: `foot_self_bow` is "foot self bow".
fn words(name: &str) -> String {
    name.replace('_', " ")
}

/// Whether a shot of `shooter` at unit `target` reads the same in scene `a` as in the next
/// scene `b`: neither has moved (`changed` says who has, by id), and no unit that has moved
/// stands, in either scene, where the shot could read it (see [`Scene::stirs`]).
fn quiet(a: &Scene, b: &Scene, changed: &[bool], shooter: u16, target: u16) -> bool {
    let (s, t) = (shooter as usize, target as usize);
    if changed[s] || changed[t] {
        return false;
    }
    let (Some(own), Some(print)) = (a.prints[s], a.prints[t]) else { return false };
    let moved = |id: u16| changed[id as usize];
    !a.stirs(&own, &print, moved) && !b.stirs(&own, &print, moved)
}

/// Half the diagonal of a footprint `(width, depth)`, as [`Rect::half_diagonal`].
fn half_diagonal((w, d): (f64, f64)) -> f64 {
    0.5 * (w * w + d * d).sqrt()
}

/// The box (least and greatest corner) each unit's standard keeps to over the steps a shooter
/// may take, `first` to the last: where [`Scene::new`] puts it at each of them.
fn sweeps(state: &State, m: &Moments, first: u32) -> Vec<(Point, Point)> {
    let n = state.units.len();
    let mut out: Vec<(Point, Point)> = state.units.iter().map(|u| (u.at, u.at)).collect();
    for step in first..STEPS {
        let base = (step as usize - 1) * n;
        let Some(poses) = m.poses.get(base..base + n) else { continue };
        for (b, p) in out.iter_mut().zip(poses) {
            b.0 = Point::new(b.0.x.min(p.at.x), b.0.y.min(p.at.y));
            b.1 = Point::new(b.1.x.max(p.at.x), b.1.y.max(p.at.y));
        }
    }
    out
}

/// The square of the least distance between two boxes (0 when they meet).
fn box_gap_squared(a: (Point, Point), b: (Point, Point)) -> f64 {
    let dx = (a.0.x - b.1.x).max(b.0.x - a.1.x).max(0.0);
    let dy = (a.0.y - b.1.y).max(b.0.y - a.1.y).max(0.0);
    dx * dx + dy * dy
}

fn mark_key(m: Mark) -> (u8, u16) {
    match m {
        Mark::Unit(id) => (0, id),
        Mark::General(s) => (1, s.index() as u16),
    }
}

fn ensure(scenes: &mut [Option<Scene>], data: &Data, state: &State, m: &Moments, step: u32) {
    if scenes[step as usize].is_none() {
        scenes[step as usize] = Some(Scene::new(data, state, m, step));
    }
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
    /// Figures it had before.
    #[serde(default)]
    pub figures_before: u32,
    /// Men it carried before (WRG-CAS-03).
    #[serde(default)]
    pub carried_before: u32,
    /// Men it carries now.
    #[serde(default)]
    pub carried: u32,
}

/// Applies every shot at a unit together, after all are worked out (WRG-FIRE-01,
/// WRG-CAS-03, WRG-RT-06). Shots at a General alone are applied by
/// [`apply_general_shots`].
pub fn apply_shots(data: &Data, state: &mut State, shots: &[Shot]) -> Vec<Hit> {
    let mut hits: Vec<Hit> = Vec::new();
    for sh in shots {
        let Mark::Unit(target) = sh.target else { continue };
        match hits.iter_mut().find(|h| h.unit == target) {
            Some(h) => {
                h.men = h.men.saturating_add(sh.men);
                h.shot_at_by = h.shot_at_by.saturating_add(sh.figures);
            }
            None => hits.push(Hit {
                unit: target,
                men: sh.men,
                figures_removed: 0,
                shot_at_by: sh.figures,
                must_test: false,
                figures_before: 0,
                carried_before: 0,
                carried: 0,
            }),
        }
    }
    hits.sort_by_key(|h| h.unit);
    for h in &mut hits {
        let u = &mut state.units[h.unit as usize];
        let r = remove(data, u.block.figures, u.carried, h.men);
        h.figures_before = u.block.figures;
        h.carried_before = u.carried;
        u.block.lose(r.figures_removed);
        u.carried = r.carried;
        h.figures_removed = r.figures_removed;
        h.carried = r.carried;
        h.must_test = r.figures_removed >= 3;
    }
    hits
}

/// Applies the shots at Generals standing alone: his figure takes every man hit, and he falls
/// at 20 (WRG-GEN-01 .. -03). Returns what happened, for the log.
pub fn apply_general_shots(data: &Data, state: &mut State, shots: &[Shot]) -> Vec<Note> {
    let mut notes = Vec::new();
    for side in Side::BOTH {
        let men: u32 = shots
            .iter()
            .filter(|s| s.target == Mark::General(side))
            .map(|s| s.men)
            .fold(0, u32::saturating_add);
        if men == 0 {
            continue;
        }
        let Some(g) = state.generals.iter_mut().find(|g| g.side == side) else { continue };
        let before = g.risk.losses;
        let fallen = g.risk.share(data, men, 1);
        let mut n =
            Note::new(
                "WRG-GEN-01",
                format!(
                    "{side}'s General, alone, loses {men} men of his figure{}",
                    if fallen { ": he falls" } else { "" }
                ),
            )
            .and("WRG-GEN-03")
            .with_total(
                Total::new("men of his figure lost")
                    .plus("WRG-GEN-01", "lost before", before)
                    .plus("WRG-FIRE-07", "men hit", men as f64),
            );
        if fallen {
            n = n.and("WRG-GEN-02");
        }
        notes.push(n);
    }
    notes
}

/// Adds a part with a rule given as text.
fn part(t: &mut Total, rule: &str, what: impl Into<String>, value: f64) {
    t.value += value;
    t.parts.push(Part { rule: RuleId(Cow::Owned(rule.to_string())), what: what.into(), value });
}

/// The name of what a shot is aimed at.
fn mark_name(state: &State, m: Mark) -> String {
    match m {
        Mark::Unit(id) => state.units.get(id as usize).map_or("?".into(), |u| u.name.to_string()),
        Mark::General(side) => format!("{side}'s General"),
    }
}

/// A shot told for the log: who shot at whom and when, the figures counted, every factor with
/// its rule, the dice, the row of the casualty table and the men hit (WRG-FIRE-07, WRG-CAS-01).
pub fn shot_note(state: &State, s: &Shot) -> Note {
    let shooter = state.units.get(s.shooter as usize).map_or("?", |u| &u.name);
    let target = mark_name(state, s.target);
    let when = if s.step == STEPS {
        "as the move ends".to_string()
    } else {
        format!("at step {} of {STEPS}", s.step)
    };
    let mut figures = Total::new("figures shooting");
    for c in &s.counted {
        part(&mut figures, &c.rule, c.what.clone(), c.figures as f64);
    }
    let mut factor = Total::new("factor");
    for a in &s.factors {
        part(&mut factor, &a.rule, a.why.clone(), a.delta as f64);
    }
    let mut n = Note::new(
        "WRG-FIRE-07",
        format!(
            "{shooter} shoot at {target} {when}: {} figures, factor {}, {} men hit",
            s.figures, s.total, s.men
        ),
    )
    .and("WRG-FIRE-03")
    .and("WRG-CAS-01")
    .with_rolls(s.rolls.clone())
    .with_total(figures)
    .with_total(factor)
    .with_total(reading_total(&s.reading));
    if s.factors.len() > 2 {
        n = n.and("WRG-TAC-08");
    }
    for r in s.reading.rules.iter().chain(&s.rules) {
        if !n.rules.iter().any(|x| x.as_str() == *r) {
            n = n.and(r);
        }
    }
    n.with_fact(Fact::Shot {
        shooter: s.shooter,
        target: s.target.unit(),
        general: match s.target {
            Mark::General(side) => Some(side),
            Mark::Unit(_) => None,
        },
        step: s.step,
        figures: s.figures,
        factor: s.total,
        row: s.reading.row,
        men: s.men,
    })
}

/// What a unit lost to missiles, for the log: men, figures removed, men carried
/// (WRG-CAS-03, WRG-FIRE-15).
pub fn hit_note(data: &Data, state: &State, h: &Hit) -> Note {
    let Some(u) = state.units.get(h.unit as usize) else { return Note::new("WRG-CAS-03", "?") };
    let mut n = crate::casualty::losses_note(
        data,
        &u.name,
        h.unit,
        "to missiles",
        h.men,
        h.figures_before,
        h.carried_before,
        h.figures_removed,
        h.carried,
    );
    if matches!(u.troop, TroopType::Elephant | TroopType::Chariot) || u.troop.is_engine() {
        n = n.and("WRG-FIRE-15");
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shooter_behind_takes_the_far_side_of_its_way() {
        let start = [Point::new(0.0, 0.0)];
        let m = Moments { poses: &[], start: &start };
        // Gone north 10": a target to the south is behind, one to the north is not.
        assert!(behind(&m, 0, Point::new(0.0, 10.0), Point::new(0.0, 2.0)));
        assert!(!behind(&m, 0, Point::new(0.0, 10.0), Point::new(0.0, 14.0)));
        // Not gone anywhere: nothing is behind.
        assert!(!behind(&m, 0, Point::new(0.0, 0.0), Point::new(0.0, -2.0)));
    }
}
