//! Whether a side may direct a unit's move in its plan: its own unit on the table, free to
//! move as it likes, the move within its order and its allowance (WRG-ORD-01, -05, -06, -10,
//! -13, WRG-MOVE-02 .. -06, -14 .. -16, WRG-RRES-10, WRG-ROUT-01, WRG-PURS-01, WRG-BRK-01).

use super::intent::{Cx, charge_way, move_to, pose_of};
use super::mover::{footprint, in_fight, reach, routing};
use super::track::Track;
use crate::Data;
use crate::moves::{check_normal_move, check_step_back};
use crate::orders::{Order, Verb, may_halt};
use crate::plan::{Step, UnitMove};
use crate::reaction::Effect;
use crate::state::State;
use tabletop::geometry::{Facing, Point};
use tabletop::rules::{Refusal, Side};

fn finite(step: &Step) -> bool {
    match *step {
        Step::Halt | Step::Charge { .. } | Step::Form { .. } => true,
        Step::MoveTo { x, y, facing } => {
            x.is_finite() && y.is_finite() && facing.is_none_or(f64::is_finite)
        }
        Step::Wheel { degrees } => degrees.is_finite(),
        Step::StepBack { inches } => inches.is_finite() && inches >= 0.0,
    }
}

/// Whether the unit's order (or its lack of one) lets it make this kind of move.
fn within_order(order: Option<&Order>, step: &Step, name: &str) -> Result<(), Refusal> {
    let keep_still = matches!(step, Step::Halt | Step::Form { .. });
    match order.map(|o| &o.verb) {
        None if !keep_still => Err(Refusal::new(
            "WRG-ORD-13",
            format!("{name} have no order: they wait, and may only halt or re-form"),
        )),
        Some(Verb::Hold { .. }) if !keep_still => Err(Refusal::new(
            "WRG-ORD-01",
            format!("{name} are ordered to hold: they may only halt or re-form"),
        )),
        Some(Verb::Evade) if !(keep_still || matches!(step, Step::StepBack { .. })) => {
            Err(Refusal::new(
                "WRG-ORD-01",
                format!(
                    "{name} are ordered to evade what charges them: they stand, step back or re-form"
                ),
            ))
        }
        Some(Verb::Wheel { .. }) if !(keep_still || matches!(step, Step::Wheel { .. })) => {
            Err(Refusal::new("WRG-ORD-01", format!("{name} are ordered to wheel, then halt")))
        }
        Some(v) if matches!(step, Step::Charge { .. }) && !matches!(v, Verb::Attack { .. }) => {
            Err(Refusal::new(
                "WRG-MOVE-04",
                format!("{name} have no order to attack: they may not charge"),
            ))
        }
        _ => Ok(()),
    }
}

/// See [`super::check_move`].
pub fn check(data: &Data, state: &State, side: Side, m: &UnitMove) -> Result<(), Refusal> {
    let u =
        state.units.get(m.unit as usize).filter(|u| u.side == side && u.on_table()).ok_or_else(
            || Refusal::new("WRG-ORD-01", format!("{side} has no unit {} on the table", m.unit)),
        )?;
    if !finite(&m.step) {
        return Err(Refusal::new(
            "WRG-ORD-14",
            "a move's numbers must be finite (and a step back not negative)",
        ));
    }
    if routing(u) {
        return Err(Refusal::new(
            "WRG-ROUT-01",
            format!("{} are broken and running: they cannot be directed", u.name),
        ));
    }
    if u.pursuit.is_some() {
        return Err(Refusal::new(
            "WRG-PURS-01",
            format!("{} are pursuing: they follow the routers", u.name),
        ));
    }
    if let Some(r) = u.running {
        let halting = matches!(r.effect, Effect::Halt { .. } | Effect::HaltDisorganised { .. });
        if m.step == Step::Halt {
            return may_halt(!halting);
        }
        return Err(Refusal::new(
            "WRG-RRES-10",
            format!(
                "{} are carrying out a reaction result ({})",
                u.name,
                crate::period::effect_words(r.effect)
            ),
        ));
    }
    if m.step == Step::Halt {
        return Ok(());
    }
    let order = u.standing.order();
    within_order(order, &m.step, &u.name)?;
    if !matches!(m.step, Step::Form { .. }) && in_fight(data, state, u) {
        return Err(Refusal::new(
            "WRG-BRK-01",
            format!("{} are in hand-to-hand: they fight on or break off", u.name),
        ));
    }
    let allowance = super::intent::order_allowance(data, u);
    let mut cx = Cx { data, state, fighting: &[], pad: Default::default() };
    match m.step {
        Step::Halt => Ok(()),
        Step::Form { files } => {
            if files == 0 || files > u.block.figures {
                return Err(Refusal::new(
                    "WRG-MOVE-15",
                    format!(
                        "{} have {} figures: they cannot form {files} abreast",
                        u.name, u.block.figures
                    ),
                ));
            }
            let moved = u.block.clone().reform(data, u.troop, files);
            check_normal_move(allowance, moved).map_err(|e| Refusal::new("WRG-MOVE-16", e.reason))
        }
        Step::StepBack { inches } => {
            check_step_back(data, inches)?;
            check_normal_move(allowance, inches)?;
            let mut track = Track::new(pose_of(u));
            track.line(-u.facing.vector(), inches, u.facing);
            let r = reach(data, state, u.troop, &track, allowance, &mut cx.pad);
            if r.limit + 1e-6 < inches {
                return Err(ground_refusal(r.blocked_at.is_some(), inches, r.limit));
            }
            on_table(data, state, u, track.end().at, track.end().facing)?;
            clear_of_friends(data, state, u, &track, inches)
        }
        Step::Wheel { degrees } => {
            let (w, _) = u.block.size(data, u.troop);
            // The outer figure's arc, at the going it wheels on (WRG-MOVE-14, WRG-TERR-04).
            let per = crate::ground::going_multiplier(data, &state.table, u.troop, u.at, u.facing);
            let arc = crate::moves::wheel_distance(w, degrees) * per;
            check_normal_move(allowance, arc)?;
            let mut track = Track::new(pose_of(u));
            track.wheel(&footprint(data, u), degrees.to_radians());
            on_table(data, state, u, track.end().at, track.end().facing)?;
            clear_of_friends(data, state, u, &track, track.cost())
        }
        Step::MoveTo { x, y, facing } => {
            let to = Point::new(x, y);
            if !state.table.contains_point(to) {
                return Err(Refusal::new("WRG-MOVE-02", "the point is off the table"));
            }
            let Some(mv) = move_to(&mut cx, u, to, facing, allowance) else { return Ok(()) };
            let need = mv.track.cost();
            if mv.limit + 1e-6 < need {
                let blocked = {
                    reach(data, state, u.troop, &mv.track, need * 100.0 + 1.0, &mut cx.pad)
                        .blocked_at
                        .is_some()
                };
                return Err(ground_refusal(blocked, need, mv.limit));
            }
            on_table(data, state, u, mv.track.end().at, mv.track.end().facing)?;
            clear_of_friends(data, state, u, &mv.track, mv.limit)
        }
        Step::Charge { target } => {
            let t = state
                .units
                .get(target as usize)
                .filter(|t| t.side != side && t.on_table())
                .ok_or_else(|| {
                    Refusal::new(
                        "WRG-ORD-14",
                        format!("there is no enemy unit {target} on the table"),
                    )
                })?;
            if let Some(Verb::Attack { unit }) = order.map(|o| &o.verb)
                && *unit != target
            {
                return Err(Refusal::new(
                    "WRG-ORD-01",
                    format!(
                        "{} are ordered to attack {}, not {}",
                        u.name,
                        state.units.get(*unit as usize).map_or("?", |x| &x.name),
                        t.name
                    ),
                ));
            }
            super::intent::may_charge(u, t)?;
            charge_way(&mut cx, u, t, 1.0, true).map(|_| ())
        }
    }
}

fn ground_refusal(blocked: bool, need: f64, got: f64) -> Refusal {
    if blocked {
        Refusal::new(
            "WRG-TERR-03",
            format!("the way is impassable: it gets {got:.2}\" of {need:.2}\""),
        )
    } else {
        Refusal::new(
            "WRG-MOVE-02",
            format!("the move needs {need:.2}\" of allowance, the ground allows only {got:.2}\""),
        )
    }
}

fn on_table(
    data: &Data,
    state: &State,
    u: &crate::state::Unit,
    at: Point,
    facing: Facing,
) -> Result<(), Refusal> {
    let r = u.block.footprint(data, u.troop, at, facing);
    if state.table.contains_rect(&r) || !state.table.contains_rect(&footprint(data, u)) {
        Ok(())
    } else {
        Err(Refusal::new("WRG-MOVE-02", format!("the move would take {} off the table", u.name)))
    }
}

/// Whether a friend stands where it is this period, as its side knows when planning: in
/// hand-to-hand, halted by its reaction result, or holding (or without an order) with no new
/// order on its way and no General with it to give one at once (WRG-ORD-01, -13, WRG-RRES-10).
fn stands(data: &Data, state: &State, f: &crate::state::Unit) -> bool {
    if !f.on_table() || routing(f) || f.pursuit.is_some() {
        return false;
    }
    if let Some(r) = f.running {
        return matches!(r.effect, Effect::Halt { .. } | Effect::HaltDisorganised { .. });
    }
    if in_fight(data, state, f) {
        return true;
    }
    let general_with =
        crate::state::general(state, f.side).is_some_and(|g| g.attached == Some(f.id));
    if f.incoming.is_some() || f.awaiting_order || general_with {
        return false;
    }
    match f.standing.order().map(|o| &o.verb) {
        None | Some(Verb::Hold { at: None }) => true,
        Some(Verb::Hold { at: Some(o) }) => super::intent::reached(state, o, f.at),
        Some(_) => false,
    }
}

/// A directed move may not run into a friend that stands this period: only evaders and
/// routers pass through friends, and the movement would stop the unit against it
/// (WRG-MOVE-01, WRG-R-08). The way is walked in steps of 0.05" of allowance.
fn clear_of_friends(
    data: &Data,
    state: &State,
    u: &crate::state::Unit,
    track: &Track,
    limit: f64,
) -> Result<(), Refusal> {
    const STEP: f64 = 0.05;
    if !limit.is_finite() || limit <= 0.0 {
        return Ok(());
    }
    let (w, d) = u.block.size(data, u.troop);
    let start = footprint(data, u);
    let reach = 0.5 * (w * w + d * d).sqrt() + limit + 1.0;
    // The cheap tests first: whether a friend stands looks at the fighting round it.
    let friends: Vec<(&crate::state::Unit, tabletop::geometry::Rect)> = state
        .units
        .iter()
        .filter(|f| f.side == u.side && f.id != u.id && f.on_table())
        .map(|f| (f, footprint(data, f)))
        .filter(|(_, r)| !r.overlaps(&start) && r.distance(&start) <= reach)
        .filter(|(f, _)| stands(data, state, f))
        .collect();
    if friends.is_empty() {
        return Ok(());
    }
    let n = (limit / STEP).ceil().min(100_000.0) as usize;
    for k in 1..=n {
        let p = (k as f64 * STEP).min(limit);
        let pose = track.pose(p);
        let r = tabletop::geometry::Rect::new(pose.at, pose.facing, w, d);
        if let Some((f, _)) = friends.iter().find(|(_, fr)| r.overlaps(fr)) {
            let gone = track.travel(0.0, p);
            return Err(Refusal::new(
                "WRG-R-08",
                format!(
                    "{} would run into {} after {gone:.1}\", at ({:.1}, {:.1}): {} stand this \
                     period, and only evaders and routers pass through friends",
                    u.name, f.name, pose.at.x, pose.at.y, f.name
                ),
            ));
        }
    }
    Ok(())
}
