//! The movement part of a period (WRG-MOVE-01, WRG-R-08): both sides move at once, every
//! unit by its order, its reaction result, its rout or pursuit, or the move its side directs
//! in its plan; charges with the charged unit's test, evades and countercharges; terrain and
//! obstacles; units leaving the table.
//!
//! The period runs in 20 time steps, each unit at its own speed. Each unit's intent is worked
//! out first from the state before anything moves (secret plans, then charge declarations,
//! then the charged units' responses); then the steps run, stopping units at contact (a charge)
//! or 1" short of the enemy (anything else), against friends, at the table's edge, and
//! letting the charged units test, evade or countercharge when the charger has used its
//! normal move.

mod check;
mod detour;
mod finish;
mod intent;
mod moved;
pub use moved::moved_note;
mod mover;
mod near;
mod run;
mod track;

use crate::Data;
use crate::after::Left;
use crate::plan::UnitMove;
use crate::reaction::{Effect, Trigger};
use crate::report::Note;
use crate::state::{Motion, State};
use crate::test_phase::Taken;
use finish::Start;
use intent::{
    Cx, Intent, Source, fall_back_mover, order_intent, plan_intent, pursuit_mover, rout_mover,
    running_mover,
};
use mover::{Kind, fighting, footprint, routing};
use run::Run;
use tabletop::dice::DiceSource;
use tabletop::geometry::{Sector, direction_sector};
use tabletop::rules::{Refusal, Side};

/// What the movement part of a period did, for the rest of the period.
#[derive(Clone, Debug, Default)]
pub struct Movement {
    /// What happened, for the log.
    pub notes: Vec<Note>,
    /// Charge tests taken during the move (WRG-RT-03, -12).
    pub tests: Vec<Taken>,
    /// Charges that reached contact: (charger, target).
    pub charges: Vec<(u16, u16)>,
    /// Units charged this period (WRG-RRES-01 reads "being charged").
    pub under_attack: Vec<u16>,
    /// Tests the movement calls for at the end of the period (WRG-RT-02, -04, -11).
    pub triggers: Vec<(u16, Trigger)>,
    /// Units that left the table this period, and why (WRG-LEAVE, WRG-PURS-06).
    pub left_table: Vec<(u16, Left)>,
    /// Where every unit stood at the end of each of the period's time steps, and how it was
    /// moving then: step after step, a pose per unit in id order (WRG-FIRE-01, WRG-R-11).
    pub poses: Vec<StepPose>,
}

/// How a unit was moving in a time step, as shooting reads it (WRG-FIRE-04, -06).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StepMotion {
    /// No move under way.
    #[default]
    Still,
    /// Moving forward or to a place, or pursuing.
    Moving,
    /// Charging or countercharging.
    Charging,
    /// Evading, retreating, retiring, stepping back or routing.
    Retreating,
}

/// A unit's standard and facing at the end of a time step, and how it was moving.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepPose {
    /// Its standard.
    pub at: tabletop::geometry::Point,
    /// Its facing.
    pub facing: tabletop::geometry::Facing,
    /// How it was moving.
    pub going: StepMotion,
}

/// A unit's normal move at its order's pace, halved in a square (WRG-MOVE-02, WRG-ORD-02,
/// WRG-M-08).
pub fn order_allowance(data: &Data, u: &crate::state::Unit) -> f64 {
    intent::order_allowance(data, u)
}

/// Whether `side` may direct this move in its plan: its own unit, on the table, free to
/// move as it likes (not broken, pursuing, or carrying out a reaction result), the move
/// within its order and its allowance. A refusal names the rule.
pub fn check_move(data: &Data, state: &State, side: Side, m: &UnitMove) -> Result<(), Refusal> {
    check::check(data, state, side, m)
}

/// Whether routers have outdistanced pursuit: no pursuer in contact and none able to reach
/// them next period (WRG-ROUT-03, WRG-R-23). Routers nobody pursues have.
pub fn outdistanced(data: &Data, state: &State, id: u16) -> bool {
    let Some(u) = state.units.get(id as usize).filter(|u| u.on_table()) else { return false };
    let r = footprint(data, u);
    state.units.iter().filter(|p| p.on_table() && p.pursuit.is_some_and(|x| x.target == id)).all(
        |p| {
            let k = p.pursuit.map_or(1, |x| x.periods.saturating_add(1));
            let gap = footprint(data, p).distance(&r);
            let next = crate::moves::pursuit_speed(data, p.troop, k);
            crate::after::outdistanced(gap, next, gap <= crate::melee_phase::CONTACT)
        },
    )
}

/// Whether `unit` fights `enemy` with its back turned and strikes no blow: it evaded or
/// retreated this period (backs to the enemy; a retire or fall-back keeps its front) and the
/// enemy is in its rear (WRG-MOVE-11, WRG-R-21).
pub fn caught_from_behind(state: &State, unit: u16, enemy: u16) -> bool {
    let (Some(u), Some(e)) = (state.units.get(unit as usize), state.units.get(enemy as usize))
    else {
        return false;
    };
    let keeps_front = u.running.is_some_and(|r| {
        matches!(
            r.effect,
            crate::reaction::Effect::Retire { .. } | crate::reaction::Effect::FallBack { .. }
        )
    });
    u.motion == Motion::Retired
        && !keeps_front
        && direction_sector(u.facing, e.at - u.at) == Sector::Rear
}

/// The notes of a push-back carried out (WRG-AFTER-05): the loser pushed straight away from
/// the winner (along the winner's facing) keeping its own, the winner following up as far
/// the same way, each with its facts;
/// `stood` holds where each unit stood before this after-combat move and is brought up to
/// date.
pub fn pushed_back_notes(
    state: &State,
    stood: &mut [tabletop::geometry::Point],
    [unit, by]: [u16; 2],
    [back_inches, followed]: [f64; 2],
) -> Vec<Note> {
    use crate::report::{MoveKind, Total};
    let mut out = Vec::with_capacity(2);
    let Some(dir) = state.units.get(by as usize).map(|u| u.facing.vector()) else {
        return out;
    };
    for (id, back, inches) in [(unit, true, back_inches), (by, false, followed)] {
        let Some(u) = state.units.get(id as usize) else { continue };
        let Some(at) = stood.get_mut(id as usize) else { continue };
        let from = *at;
        *at = from + dir * inches;
        let (text, what) = if back {
            (format!("{} are pushed back {}\"", u.name, crate::report::number(inches)), "push-back")
        } else {
            (format!("{} follow up {}\"", u.name, crate::report::number(inches)), "following up")
        };
        let allowance = Total::new("allowance").plus("WRG-AFTER-05", what, inches);
        let way = (from, *at);
        out.push(moved::moved_note(u, MoveKind::AfterCombat, way, "WRG-AFTER-05", text, allowance));
    }
    out
}

/// Whether unit `id`, standing where it stands facing `facing`, is clear of every other unit
/// on the table (in touch is clear; inside is not).
pub fn clear_of_all(
    data: &Data,
    state: &State,
    id: u16,
    facing: tabletop::geometry::Facing,
) -> bool {
    state.units.get(id as usize).is_some_and(|u| clear_at(data, state, id, u.at, facing))
}

/// Whether unit `id`, standing at `at` facing `facing`, is clear of every other unit on the
/// table.
pub fn clear_at(
    data: &Data,
    state: &State,
    id: u16,
    at: tabletop::geometry::Point,
    facing: tabletop::geometry::Facing,
) -> bool {
    let Some(u) = state.units.get(id as usize) else { return false };
    let me = sunk(u.block.footprint(data, u.troop, at, facing));
    state
        .units
        .iter()
        .all(|o| o.id == id || !o.on_table() || !me.overlaps(&sunk(footprint(data, o))))
}

/// A footprint less a hundredth of an inch on every side: units in touch are not inside each
/// other.
pub fn sunk(r: tabletop::geometry::Rect) -> tabletop::geometry::Rect {
    const SINK: f64 = 0.01;
    let (w, d) = ((r.width - 2.0 * SINK).max(0.0), (r.depth - 2.0 * SINK).max(0.0));
    tabletop::geometry::Rect::new(r.centre, r.facing, w, d)
}

/// How far a unit can go straight along `dir`, up to `most` inches, before its footprint would
/// overlap another unit or leave the table. `ignore`, the enemy it fights, is in touch: the
/// unit may go away from it or along it but not into it (unless the two already overlap).
pub fn room(
    data: &Data,
    state: &State,
    id: u16,
    dir: tabletop::geometry::Vec2,
    most: f64,
    ignore: u16,
) -> f64 {
    let Some(u) = state.units.get(id as usize) else { return 0.0 };
    let others: Vec<tabletop::geometry::Rect> = state
        .units
        .iter()
        .filter(|o| o.id != id && o.id != ignore && o.on_table())
        .map(|o| footprint(data, o))
        .collect();
    let fought = state
        .units
        .get(ignore as usize)
        .filter(|o| o.id != id && o.on_table())
        .map(|o| sunk(footprint(data, o)))
        .filter(|f| !f.overlaps(&footprint(data, u)));
    let free = |d: f64| {
        let r = u.block.footprint(data, u.troop, u.at + dir * d, u.facing);
        state.table.contains_rect(&r)
            && !others.iter().any(|o| o.overlaps(&r))
            && !fought.is_some_and(|f| f.overlaps(&r))
    };
    if free(most) {
        return most;
    }
    let (mut a, mut b) = (0.0, most);
    for _ in 0..30 {
        let mid = 0.5 * (a + b);
        if free(mid) {
            a = mid;
        } else {
            b = mid;
        }
    }
    a
}

/// Where unit `id`, facing `facing`, may be placed at `at` or the nearest point to it along
/// its frontage's line, up to 24" either way, clear of every other unit and on the table
/// (troops returning to the table, WRG-LEAVE-02).
pub fn clear_place(
    data: &Data,
    state: &State,
    id: u16,
    at: tabletop::geometry::Point,
    facing: tabletop::geometry::Facing,
) -> Option<tabletop::geometry::Point> {
    let u = state.units.get(id as usize)?;
    let others: Vec<tabletop::geometry::Rect> = state
        .units
        .iter()
        .filter(|o| o.id != id && o.on_table())
        .map(|o| footprint(data, o))
        .collect();
    let side = facing.right();
    (0..=48).map(|k| if k % 2 == 0 { k as f64 / 2.0 } else { -(k as f64 + 1.0) / 2.0 }).find_map(
        |d| {
            let p = at + side * d;
            let r = u.block.footprint(data, u.troop, p, facing);
            (state.table.contains_rect(&r) && !others.iter().any(|o| o.overlaps(&r))).then_some(p)
        },
    )
}

/// The note of a fall-back ordered by the after-combat rules, made next period
/// (WRG-AFTER-02, -04, WRG-DIS-06, -14).
pub fn fall_back_note(state: &State, unit: u16, inches: f64) -> Note {
    let Some(u) = state.units.get(unit as usize) else { return Note::new("WRG-AFTER-02", "?") };
    if u.falling_back.is_some_and(|f| !f.repulsed) {
        return Note::new(
            "WRG-AFTER-04",
            format!(
                "{} have fought 3 periods undecided: they rally {inches}\" back next period",
                u.name
            ),
        );
    }
    let note = Note::new(
        "WRG-AFTER-02",
        format!(
            "{} are repulsed: they rally {inches}\" back next period, disorganised, and cannot \
             countercharge",
            u.name
        ),
    );
    if u.troop.is_cavalry() { note.and("WRG-DIS-06").and("WRG-DIS-14") } else { note }
}

/// A unit breaking off from hand-to-hand turns about and runs its first period's rout
/// distance straight back, paying terrain and going round impassable ground; it has then
/// outdistanced pursuit unless one of `enemies` (those it was fighting) could reach it at
/// its first period's pursuit speed (WRG-BRK-01, -03, WRG-R-26). Returns the note of its
/// move and whether it counts as routed.
pub fn break_off_run(data: &Data, state: &mut State, id: u16, enemies: &[u16]) -> (Note, BrokeOff) {
    let u = state.units[id as usize].clone();
    let speed = crate::moves::rout_speed(data, u.troop, 1);
    let back = u.facing.reversed();
    let mut m = {
        let mut cx = Cx { data, state, fighting: &[], pad: Default::default() };
        intent::run_straight(&mut cx, &u, back, speed, Kind::Rout)
    };
    // Its standard crossing the table's edge, it leaves the table there (WRG-LEAVE-01).
    let mut left_table = false;
    if let Some(m) = m.as_mut()
        && !state.table.contains_point(m.pose(m.limit).at)
    {
        let (mut a, mut b) = (0.0, m.limit);
        for _ in 0..40 {
            let mid = 0.5 * (a + b);
            if state.table.contains_point(m.pose(mid).at) {
                a = mid;
            } else {
                b = mid;
            }
        }
        m.limit = a;
        left_table = true;
    }
    // It runs through friends as routers do, but does not stop among them, nor inside an
    // enemy: it stops short at the last place it stands clear (WRG-R-08).
    if let Some(m) = m.as_mut()
        && !left_table
    {
        let clear = |p: f64| {
            let pose = m.pose(p);
            clear_at(data, state, id, pose.at, pose.facing)
        };
        if let Some(p) = run::last_clear(m.limit, clear) {
            m.limit = p;
        }
    }
    let from = u.at;
    let note = {
        let unit = &mut state.units[id as usize];
        unit.facing = back;
        if let Some(m) = &m {
            let end = m.pose(m.limit);
            unit.at = end.at;
            unit.facing = end.facing;
            unit.moved = m.track.travel(0.0, m.limit);
        }
        unit.motion = Motion::Retired;
        unit.fight_periods = 0;
        unit.pushed_back = 0;
        let unit = &state.units[id as usize];
        let text = format!("{} break off and run {:.1}\"", unit.name, unit.moved);
        match &m {
            Some(m) => {
                let mut m = m.clone();
                m.param = m.limit;
                m.allow = mover::Allow::Rout { k: 1 };
                moved::single_note(data, state, unit, &m, from, "WRG-BRK-01", text)
            }
            None => Note::new("WRG-BRK-01", text),
        }
    };
    if left_table {
        return (note, BrokeOff::LeftTable);
    }
    let me = footprint(data, &state.units[id as usize]);
    let caught = enemies.iter().filter_map(|&e| state.units.get(e as usize)).any(|e| {
        e.on_table()
            && footprint(data, e).distance(&me)
                <= crate::moves::pursuit_speed(data, e.troop, 1) + 1e-9
    });
    (note, if caught { BrokeOff::Routed } else { BrokeOff::Clear })
}

/// How a break-off ended (WRG-BRK-03).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrokeOff {
    /// It outdistanced pursuit.
    Clear,
    /// The enemy could still reach it at pursuit speed: it is routed.
    Routed,
    /// It ran off the table.
    LeftTable,
}

/// A pursuit ends (the routers rallied, left the table or are gone; or the pursuers reached
/// an obstacle, `why`): the pursuers fall back 10" from the farthest point they reached, along
/// their line of pursuit (WRG-PURS-03, -04).
pub fn pursuit_ends(data: &Data, state: &mut State, id: u16, why: &'static str) -> Option<Note> {
    use crate::report::{MoveKind, Total};
    let u = state.units.get_mut(id as usize)?;
    let p = u.pursuit.take()?;
    if !u.on_table() {
        return None;
    }
    let from = u.at;
    let back = crate::after::pursuer_rally_point(data, p.farthest);
    let dir = u.at - p.from;
    let len = dir.length();
    if len > 1e-9 {
        // Back along the line, as far as other units and the table's edge leave room.
        let goal = p.from + dir * (back.min(len) / len);
        let (way, far) = ((goal - from), goal.distance(from));
        if far > 1e-9 {
            let got = room(data, state, id, way * (1.0 / far), far, id);
            state.units[id as usize].at = from + way * (got / far);
        }
    }
    let u = &state.units[id as usize];
    let fall = data.movement.distances.pursuer_fall_back;
    let text = if why == "WRG-PURS-03" && p.farthest <= 0.0 {
        format!("{} give up the pursuit", u.name)
    } else {
        format!("{} give up the pursuit and fall back {:.1}\"", u.name, from.distance(u.at))
    };
    let allowance = Total::new("allowance").plus("WRG-PURS-04", "pursuers rally back", fall);
    let u = &state.units[id as usize];
    let note = moved::moved_note(u, MoveKind::AfterCombat, (from, u.at), why, text, allowance);
    Some(note.and("WRG-PURS-04"))
}

/// The step a side's plan directs for a unit, if any (the first one).
fn directed(state: &State, id: u16, side: Side) -> Option<&crate::plan::Step> {
    state.plans.get(side.index())?.as_ref()?.moves.iter().find(|m| m.unit == id).map(|m| &m.step)
}

/// What one unit means to do (pursuers are done after, once the routers' runs are known).
fn intend(cx: &mut Cx, id: usize, notes: &mut Vec<Note>) -> Intent {
    let state = cx.state;
    let u = &state.units[id];
    if routing(u) {
        let k = u.rout.map_or(1, |r| r.periods.saturating_add(1));
        let mover = rout_mover(cx, u, k, 1.0);
        return Intent { mover, source: Source::Rout { k }, reform: None };
    }
    if let Some(f) = u.falling_back {
        let mover = fall_back_mover(cx, u, f);
        return Intent { mover, source: Source::FallBack, reform: None };
    }
    if let Some(r) = u.running {
        let mover = running_mover(cx, u, r.effect, 1.0);
        return Intent { mover, source: Source::Running, reform: None };
    }
    if cx.fighting.get(id).copied().unwrap_or(false) {
        return Intent { mover: None, source: Source::Still, reform: None };
    }
    if let Some(step) = directed(state, u.id, u.side) {
        let m = crate::plan::UnitMove { unit: u.id, step: step.clone() };
        match check::check(cx.data, state, u.side, &m) {
            Ok(()) => return plan_intent(cx, u, step),
            Err(e) => notes.push(Note::new(
                "WRG-ORD-01",
                format!("{}'s directed move is refused: {}", u.name, e.reason),
            )),
        }
    }
    if u.awaiting_order {
        return Intent { mover: None, source: Source::Still, reform: None };
    }
    match u.standing.order() {
        Some(order) => order_intent(cx, u, order),
        None => Intent { mover: None, source: Source::Still, reform: None },
    }
}

/// Whether the charged unit evades: light troops that may, and must (light infantry
/// charged by cavalry), or are ordered to evade or to skirmish (WRG-MOVE-08, WRG-ORD-09,
/// -11, -12).
fn evades(data: &Data, t: &crate::state::Unit, charger: &crate::state::Unit) -> bool {
    let order = t.standing.order();
    let (may, must) = crate::orders::evade_choice(data, t.troop, order, charger.troop);
    let ordered = matches!(order.map(|o| &o.verb), Some(crate::orders::Verb::Evade));
    let skirmishing = crate::orders::skirmisher_may_evade(data, t.troop, order, true);
    may && (must || ordered || skirmishing)
}

/// Moves every unit for this period, with both sides' plans in `state.plans`.
pub fn move_all(data: &Data, state: &mut State, dice: &mut dyn DiceSource) -> Movement {
    let mut out = Movement::default();
    let fights = fighting(data, state);
    let n = state.units.len();
    let mut intents: Vec<Option<Intent>> = Vec::with_capacity(n);
    {
        let mut cx = Cx { data, state, fighting: &fights, pad: Default::default() };
        for id in 0..n {
            let u = &state.units[id];
            // Pursuers wait for the routers' runs; a unit that has already moved this period
            // (breaking off, WRG-BRK-01) does not move again.
            let later = u.pursuit.is_some() && !routing(u);
            let moves = u.on_table() && !later && u.moved <= 0.0;
            intents.push(moves.then(|| intend(&mut cx, id, &mut out.notes)));
        }
        detour::detours(&mut cx, &mut intents, &mut out.notes);
        for id in 0..n {
            let u = &state.units[id];
            let Some(p) = u.pursuit.filter(|_| u.on_table() && !routing(u) && u.moved <= 0.0)
            else {
                continue;
            };
            let k = p.periods.saturating_add(1);
            let target = state.units.get(p.target as usize).filter(|t| t.on_table() && routing(t));
            let (mover, at_obstacle) = match target {
                Some(t) => {
                    let aim = intents[t.id as usize]
                        .as_ref()
                        .and_then(|i| i.mover.as_ref())
                        .map_or(t.at, |m| m.pose(m.limit).at);
                    pursuit_mover(&mut cx, u, t.id, k, aim)
                }
                None => (None, false),
            };
            let source = Source::Pursuit { k, at_obstacle };
            intents[id] = Some(Intent { mover, source, reform: None });
        }
    }
    light_infantry_charges(state, &mut intents, &mut out.notes);
    tests_before_charging(data, state, &fights, &mut intents, dice, &mut out.notes);
    // Changes of formation first, keeping the standard (WRG-MOVE-15, -16).
    for (id, it) in intents.iter().enumerate() {
        if let Some(files) = it.as_ref().and_then(|i| i.reform) {
            let u = &mut state.units[id];
            u.block.reform(data, u.troop, files);
            out.notes.push(Note::new("WRG-MOVE-15", format!("{} re-form {files} abreast", u.name)));
        }
    }
    let start: Vec<Start> = state
        .units
        .iter()
        .zip(&intents)
        .map(|(u, it)| Start {
            at: u.at,
            source: it.as_ref().map(|i| i.source.clone()),
            mover: None,
            running: u.running,
            fresh: u.on_table()
                && !routing(u)
                && u.running.is_none()
                && !fights.get(u.id as usize).copied().unwrap_or(false)
                && crate::combat::effective_causes(u.troop, u.status, &u.causes).is_empty(),
        })
        .collect();
    let mut start = start;
    let mut run = Run::new(data, state, dice, &mut out, fights);
    for (id, it) in intents.into_iter().enumerate() {
        if let Some(m) = it.and_then(|i| i.mover) {
            start[id].mover = Some(run.set_mover(m, 0));
        }
    }
    declare(&mut run);
    run.steps();
    // Chargers in contact line up on the face they struck (WRG-MELEE-01).
    // Lining up is paid from what is left of the charge (WRG-MOVE-04). A charger that met
    // more than one enemy lines up once, on the first it struck.
    let mut lined: Vec<u16> = Vec::new();
    for k in 0..run.out.charges.len() {
        let (charger, target) = run.out.charges[k];
        if lined.contains(&charger) {
            continue;
        }
        lined.push(charger);
        let Some((last, left)) = moved::left_of_move(&run, charger) else { continue };
        // One that has since turned to another move (it falls back) does not line up.
        if !matches!(run.movers[last].kind, Kind::Charge { .. } | Kind::Counter { .. }) {
            continue;
        }
        let shift = crate::contact::line_up_within(data, run.state, charger, target, left);
        run.movers[last].lined_up = shift;
    }
    moved::tell(&mut run, &start);
    finish::finish(&mut run, &start);
    drop(run);
    out
}

/// Light infantry may charge cavalry only if the cavalry stand: they stood last period (the
/// plan's check and the intent saw that) and declare no move this period, which only now is
/// known. A charge at cavalry that move is not made: the light infantry stand, and the log
/// says why (WRG-ORD-10, WRG-R-27).
fn light_infantry_charges(state: &State, intents: &mut [Option<Intent>], notes: &mut Vec<Note>) {
    for id in 0..intents.len() {
        let Some(Kind::Charge { target, .. }) =
            intents[id].as_ref().and_then(|i| i.mover.as_ref()).map(|m| m.kind)
        else {
            continue;
        };
        let (u, t) = (&state.units[id], &state.units[target as usize]);
        if !u.troop.is_light_infantry() || !t.troop.is_cavalry() {
            continue;
        }
        let moving = intents[target as usize].as_ref().is_some_and(|i| i.mover.is_some());
        if !moving {
            continue;
        }
        notes.push(
            Note::new(
                "WRG-ORD-10",
                format!(
                    "{} may not charge {}: the cavalry are on the move, not standing",
                    u.name, t.name
                ),
            )
            .and("WRG-R-27"),
        );
        if let Some(it) = intents[id].as_mut() {
            it.mover = None;
        }
    }
}

/// A unit ordered to attack tests as it sets out to charge, and the result governs the charge:
/// carry on (or better) and it charges; a halt, retire, retreat or fall-back replaces the
/// charge with that result (this period its first); a break routs it (WRG-RT-04, WRG-R-18,
/// -20). Its enemies' charges declared this period count as "being charged" (WRG-RRES-01).
fn tests_before_charging(
    data: &Data,
    state: &mut State,
    fights: &[bool],
    intents: &mut [Option<Intent>],
    dice: &mut dyn DiceSource,
    notes: &mut Vec<Note>,
) {
    let charge = |it: &Option<Intent>| {
        it.as_ref().and_then(|i| i.mover.as_ref()).and_then(|m| match m.kind {
            Kind::Charge { target, ordered } => Some((target, ordered)),
            _ => None,
        })
    };
    let testers: Vec<u16> = intents
        .iter()
        .enumerate()
        .filter(|(_, it)| charge(it).is_some_and(|(_, ordered)| ordered))
        .map(|(id, _)| id as u16)
        .collect();
    if testers.is_empty() {
        return;
    }
    let charged: Vec<u16> = intents.iter().filter_map(|it| charge(it).map(|(t, _)| t)).collect();
    for id in testers {
        let taken = crate::test_phase::take_tests(
            data,
            state,
            &[(id, Trigger::BeforeContact)],
            &charged,
            dice,
        );
        let Some(tk) = taken.into_iter().next() else { continue };
        notes.extend(crate::period::test_notes(state, &tk));
        let effect = tk.outcome.effect;
        let u = state.units[id as usize].clone();
        let mut cx = Cx { data, state, fighting: fights, pad: Default::default() };
        let it = &mut intents[id as usize];
        match effect {
            Effect::CarryOn | Effect::NewOrder | Effect::UncontrolledAdvance { .. } => {}
            Effect::Break => {
                let mover = rout_mover(&mut cx, &u, 1, 1.0);
                *it = Some(Intent { mover, source: Source::Rout { k: 1 }, reform: None });
            }
            e => {
                let mover = running_mover(&mut cx, &u, e, 1.0);
                *it = Some(Intent { mover, source: Source::Running, reform: None });
            }
        }
    }
}

/// The charges declared, and the charged units' answers (WRG-R-08): the charged unit is
/// under attack (WRG-RRES-01); an evader stands until the charger has used its normal move
/// (WRG-R-10). Each mover shows how
/// it moves from the start, for the tests taken during the move (WRG-R-13).
fn declare(run: &mut Run) {
    for i in 0..run.movers.len() {
        let (id, kind) = (run.movers[i].id, run.movers[i].kind);
        let motion = match kind {
            Kind::Charge { .. } | Kind::Counter { .. } => Motion::Charged,
            Kind::Rout => Motion::Routing,
            Kind::Back | Kind::Evade => Motion::Retired,
            Kind::Forward | Kind::Pursue { .. } => Motion::Advanced,
        };
        run.state.units[id as usize].motion = motion;
        let Kind::Charge { target, .. } = kind else { continue };
        let text = format!(
            "{} charge {}",
            run.state.units[id as usize].name, run.state.units[target as usize].name
        );
        run.out.notes.push(Note::new("WRG-MOVE-04", text).and("WRG-MOVE-05").and("WRG-R-08"));
        if !run.out.under_attack.contains(&target) {
            run.out.under_attack.push(target);
        }
        let t = &run.state.units[target as usize];
        let charging = run.slot[target as usize]
            .is_some_and(|k| matches!(run.movers[k].kind, Kind::Charge { .. }));
        let free = !routing(t)
            && t.running.is_none()
            && t.pursuit.is_none()
            && !run.fighting.get(target as usize).copied().unwrap_or(false);
        if run.evading[target as usize].is_none()
            && free
            && !charging
            && evades(run.data, t, &run.state.units[id as usize])
        {
            run.evading[target as usize] = Some(id);
            if let Some(k) = run.slot[target as usize] {
                run.movers[k].stopped = true;
            }
            run.state.units[target as usize].motion = Motion::Still;
        }
    }
}
