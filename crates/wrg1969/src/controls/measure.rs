//! The measurement of a dragged move (WRG-MOVE-02, -03, -14, WRG-TERR-01, -03, -04, -05,
//! WRG-CHAMP-02): the turn to the way, the way over the ground at the movement code's prices
//! ([`crate::ground`]), how far the allowance carries the unit along it, and the plan check's
//! verdict on the move. The General's ride is measured against his limit (WRG-CHORD-04).

use super::plan::{allowance, inches};
use crate::ground::{WrgGround, reach_on_table};
use crate::moves::Going;
use crate::plan::{GeneralMove, Plan, Step, UnitMove};
use crate::rules_impl::{Command, Wrg1969};
use crate::state::{State, Unit};
use tabletop::controls::{Action, MeasureRequest, Measurement};
use tabletop::geometry::{Facing, Point};
use tabletop::rules::{Actor, RuleSet, Side};
use tabletop::terrain::LineKind;
use tabletop::terrain::cost::{PathCost, path_cost};

const EPS: f64 = 1e-6;

/// Measures a move of `side`'s unit (or its General's ride, `general-<side>`) dragged to
/// `request.to` while the side is planning a period. `None` for an unknown unit, one of the
/// other side or off the table, a point that is not finite, or when the side is not planning.
pub fn measure(
    rules: &Wrg1969,
    st: &State,
    side: Side,
    request: &MeasureRequest,
) -> Option<Measurement> {
    let planning = crate::state::waiting(st).is_empty()
        && st.plans[side.index()].is_none()
        && rules.outcome(st).is_none();
    let facing_ok = request.facing.is_none_or(|f| f.vector().is_finite());
    if !planning || !request.to.is_finite() || !facing_ok {
        return None;
    }
    if request.unit == crate::state::general_piece(side) {
        return general_ride(rules, st, side, request.to);
    }
    let id: u16 = request.unit.parse().ok()?;
    let u = st.units.get(id as usize).filter(|u| u.side == side && u.on_table())?;
    Some(unit_move(rules, st, side, u, request.to, request.facing))
}

/// The cost of turning from `from` to `to` about the standard: an about-turn is free
/// (WRG-MOVE-03), the rest is the arc of the outer figure (WRG-MOVE-14) — the turns
/// [`crate::move_phase::check_move`] charges a move to a point.
fn turn(from: &mut Facing, to: Facing, frontage: f64, why: &str, notes: &mut Vec<String>) -> f64 {
    let mut f = *from;
    if f.vector().dot(to.vector()) < -1e-12 {
        notes.push(format!("about-turn {why}: free [WRG-MOVE-03]"));
        f = f.reversed();
    }
    let deg = f.angle_to(to).to_degrees();
    *from = to;
    if deg <= 1e-6 {
        return 0.0;
    }
    let cost = crate::moves::wheel_distance(frontage, deg);
    notes.push(format!(
        "turn of {deg:.0}° {why}: {} (the outer figure of a {} front) [WRG-MOVE-14]",
        inches(cost),
        inches(frontage)
    ));
    cost
}

/// What one stretch of ground is, with the rule that prices it.
fn ground_note(
    st: &State,
    model: &WrgGround,
    piece: &tabletop::terrain::cost::CostedPiece,
) -> Option<(String, &'static str)> {
    let table = &st.table;
    let going = model.going(table, &piece.ground)?;
    let areas: Vec<&str> = piece
        .ground
        .areas
        .iter()
        .filter_map(|i| table.areas.get(i).map(|a| a.name.as_str()))
        .collect();
    let lines: Vec<&str> = piece
        .ground
        .bands
        .iter()
        .filter_map(|j| table.lines.get(j).map(|l| l.name.as_str()))
        .collect();
    let named = |what: &str, names: &[&str]| {
        if names.is_empty() { what.to_string() } else { format!("{what} ({})", names.join(", ")) }
    };
    match going {
        Going::Open => None,
        Going::Road => Some((named("road", &lines), "WRG-TERR-05")),
        Going::Ford => Some((named("ford", &lines), "WRG-TERR-03")),
        Going::Stream => Some((named("stream bed", &lines), "WRG-CHAMP-02")),
        Going::Bad if piece.ground.rise.abs() > 1e-9 && areas.is_empty() => {
            Some(("slope".into(), "WRG-TERR-04"))
        }
        Going::Bad => Some((named("bad going", &areas), "WRG-TERR-04")),
    }
}

/// Notes on the ground a costed path crosses, consecutive pieces of the same ground together.
fn ground_notes(st: &State, model: &WrgGround, cost: &PathCost, notes: &mut Vec<String>) {
    let mut runs: Vec<(String, &'static str, f64, f64)> = Vec::new();
    for p in &cost.pieces {
        let Some((what, rule)) = ground_note(st, model, p) else { continue };
        match runs.last_mut() {
            Some(last) if last.0 == what => {
                last.2 += p.length;
                last.3 += p.cost;
            }
            _ => runs.push((what, rule, p.length, p.cost)),
        }
    }
    for (what, rule, len, cost) in runs {
        let at = if (cost - len).abs() < EPS {
            "no penalty".to_string()
        } else {
            format!("costs {}", inches(cost))
        };
        notes.push(format!("{what}: {} {at} [{rule}]", inches(len)));
    }
}

/// The first `d` inches of the straight way from `a` to `b`.
fn upto(a: Point, b: Point, d: f64) -> Vec<Point> {
    let len = a.distance(b);
    if len <= EPS { vec![a] } else { vec![a, a.lerp(b, (d / len).clamp(0.0, 1.0))] }
}

fn unit_move(
    rules: &Wrg1969,
    st: &State,
    side: Side,
    u: &Unit,
    to: Point,
    facing: Option<Facing>,
) -> Measurement {
    let data = rules.data_for(st);
    let (allowance, _) = allowance(rules, st, u);
    let (frontage, _) = u.block.size(&data, u.troop);
    let path = vec![u.at, to];
    let length = u.at.distance(to);
    let mut notes = Vec::new();
    let mut now = u.facing;
    let mut turns = 0.0;
    if length > EPS
        && let Some(way) = Facing::from_vector(to - u.at)
    {
        turns += turn(&mut now, way, frontage, "to face the way", &mut notes);
    }
    let turns_before = turns;
    if let Some(f) = facing {
        turns += turn(&mut now, f, frontage, "to the final facing", &mut notes);
    }
    let model = WrgGround { data: &data, troop: u.troop };
    let mut ground_cost = 0.0;
    if length > EPS {
        let costed = match path_cost(&st.table, &path, &model) {
            Ok(c) => Some(c),
            Err(b) => {
                notes.push(format!(
                    "impassable ground {} along the way [WRG-TERR-03]",
                    inches(b.distance)
                ));
                path_cost(&st.table, &upto(u.at, to, b.distance), &model).ok()
            }
        };
        if let Some(c) = costed {
            ground_notes(st, &model, &c, &mut notes);
            ground_cost = c.cost;
            for x in &c.crossings {
                if let Some(l) = st
                    .table
                    .lines
                    .get(x.feature)
                    .filter(|l| matches!(l.kind, LineKind::Wall | LineKind::Hedge))
                {
                    let at = inches(x.distance);
                    notes.push(format!("crosses {} {at} along the way [WRG-TERR-01]", l.name));
                }
            }
        }
    }
    let left = (allowance - turns_before).max(0.0);
    let (within, cut) = if length <= EPS || left <= EPS {
        (0.0, false)
    } else {
        let (adv, cut) =
            reach_on_table(&data, &st.table, u.troop, &path, allowance.max(0.0), turns_before);
        (adv.distance.clamp(0.0, length), cut)
    };
    let mut cost = turns + ground_cost;
    if cut {
        // The obstacle takes its share of the whole period's allowance (WRG-TERR-01, WRG-R-31).
        let lost = allowance - crate::moves::obstacle_allowance(&data, u.troop, allowance);
        notes.push(format!(
            "crossing an obstacle costs {} of the period's allowance [WRG-TERR-01]",
            inches(lost)
        ));
        cost += lost;
    }
    let step = Step::MoveTo { x: to.x, y: to.y, facing: facing.map(Facing::bearing_degrees) };
    let m = UnitMove { unit: u.id, step };
    let plan = Plan { moves: vec![m.clone()], ..Plan::default() };
    let (action, rule, reason) = match rules.check(st, Actor::Side(side), &Command::Plan(plan)) {
        Ok(()) => {
            let label = format!("{}: move to ({:.1}, {:.1})", u.name, to.x, to.y);
            let action = serde_json::to_value(&m).ok().map(|v| {
                Action::draft(label, &["WRG-MOVE-02", "WRG-R-08"], "/moves", Some("unit"), v)
            });
            (action, None, None)
        }
        Err(r) => (None, Some(r.rule.as_str().to_string()), Some(r.reason)),
    };
    Measurement {
        unit: u.id.to_string(),
        path,
        length,
        cost,
        allowance,
        within,
        notes,
        action,
        rule,
        reason,
    }
}

fn general_ride(rules: &Wrg1969, st: &State, side: Side, to: Point) -> Option<Measurement> {
    let data = rules.data_for(st);
    let g = crate::state::general(st, side).filter(|g| !g.risk.fallen(&data))?;
    let leg = crate::riders::ride_toward(&data, &st.table, g.troop, g.at, to, g.galloped);
    let ride = leg.allowance.value;
    let length = g.at.distance(to);
    let gm = GeneralMove { x: to.x, y: to.y, join: None };
    let plan = Plan { general: Some(gm.clone()), ..Plan::default() };
    let (action, rule, reason) = match rules.check(st, Actor::Side(side), &Command::Plan(plan)) {
        Ok(()) => {
            let label = format!("General: ride to ({:.1}, {:.1})", to.x, to.y);
            let action = serde_json::to_value(&gm)
                .ok()
                .map(|v| Action::draft(label, &["WRG-CHORD-04"], "/general", None, v));
            (action, None, None)
        }
        Err(r) => (None, Some(r.rule.as_str().to_string()), Some(r.reason)),
    };
    Some(Measurement {
        unit: crate::state::general_piece(side),
        path: vec![g.at, to],
        length,
        cost: leg.spent,
        allowance: ride,
        within: g.at.distance(leg.end),
        notes: vec![format!(
            "the General rides at his figure's pace, paying the ground, {} this period{} \
             [WRG-CHORD-04, WRG-CHORD-03, WRG-M-01]; he rides on next period if it does not \
             get him there",
            inches(ride),
            if leg.gallop { " at the trip's one gallop" } else { "" }
        )],
        action,
        rule,
        reason,
    })
}
