//! How each unit's moves of the period are told in the log: one line a move, with the facts an
//! umpire checks (`Fact::Moved`: the unit, how it moved, from, to, the allowance spent and the
//! allowance) and totals showing how the allowance was made and, when turns or terrain made
//! it differ from the distance, how it was spent (WRG-MOVE-02 .. -07, -09, -10, -14,
//! WRG-TERR-01 .. -07, WRG-ROUT-02, -04, WRG-PURS-01, WRG-R-22).

use super::finish::Start;
use super::intent::Source;
use super::mover::{Allow, EPS, Held, Kind, Mover};
use super::run::Run;
use super::track::Seg;
use crate::Data;
use crate::ground::WrgGround;
use crate::moves::Going;
use crate::report::{Fact, MoveKind, Note, Total};
use crate::state::{State, Unit};
use tabletop::geometry::Point;

/// One unit's consecutive moves of one kind, told as one.
struct Told {
    first: usize,
    last: usize,
    spent: f64,
    parts: Vec<(&'static str, &'static str, f64)>,
}

/// Tells every unit's moves of the period, in unit order.
pub fn tell(run: &mut Run, start: &[Start]) {
    let n = run.state.units.len();
    let mut by_unit: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, m) in run.movers.iter().enumerate() {
        if !m.undone {
            by_unit[m.id as usize].push(k);
        }
    }
    let mut steps: Vec<(u16, usize, Option<Note>)> = std::mem::take(&mut run.steps_off)
        .into_iter()
        .map(|(u, b, n, _)| (u, b, Some(n)))
        .collect();
    for (id, ks) in by_unit.iter().enumerate() {
        let mut i = 0;
        while i < ks.len() {
            let first = ks[i];
            // Steps taken turning to run before this move (see `Run::steps_off`).
            for (u, before, note) in steps.iter_mut() {
                if *u as usize == id && *before <= first {
                    run.out.notes.extend(note.take());
                }
            }
            let mut told = Told { first, last: first, spent: 0.0, parts: Vec::new() };
            let mut travel = 0.0;
            while i < ks.len() && run.movers[ks[i]].kind == run.movers[first].kind {
                let m = &run.movers[ks[i]];
                told.spent += spent(run.data, run.state, &run.state.units[id], m, &mut told.parts);
                travel += m.param;
                told.last = ks[i];
                i += 1;
            }
            let last = &run.movers[told.last];
            let held = matches!(last.held, Some(Held::Friend(_)));
            // A charger lined up on the face it struck has moved, however little it ran.
            let shifted = i == ks.len()
                && run.state.units[id].at.distance(run.movers[first].track.start.at) > 1e-9;
            if travel <= EPS && !held && !last.manhandled && !shifted {
                continue;
            }
            let source = start.get(id).and_then(|s| s.source.as_ref());
            let note = note(run, id, source, &told);
            run.out.notes.push(note);
        }
        for (u, _, note) in steps.iter_mut() {
            if *u as usize == id {
                run.out.notes.extend(note.take());
            }
        }
    }
}

/// The last move of a unit this period and what is left of its allowance: the first move of
/// its last run of moves of one kind had the allowance, and each spent some of it.
pub fn left_of_move(run: &Run, id: u16) -> Option<(usize, f64)> {
    // The last of its moves that stands: moves undone at the end of the movement are not.
    let slot = run.slot.get(id as usize).copied().flatten()?;
    let last = (0..=slot).rev().find(|&k| run.movers[k].id == id && !run.movers[k].undone)?;
    let kind = run.movers[last].kind;
    let mut first = last;
    let mut spent_all = 0.0;
    let u = &run.state.units[id as usize];
    for k in (0..=last).rev() {
        let m = &run.movers[k];
        if m.id != id {
            continue;
        }
        if m.kind != kind {
            break;
        }
        first = k;
        spent_all += spent(run.data, run.state, u, m, &mut Vec::new());
    }
    Some((last, (run.movers[first].budget - spent_all).max(0.0)))
}

/// The note for one told move.
fn note(run: &Run, id: usize, source: Option<&Source>, t: &Told) -> Note {
    let data = run.data;
    let u = &run.state.units[id];
    let (m0, m1) = (&run.movers[t.first], &run.movers[t.last]);
    let allowance = allowance_total(data, u, m0);
    let from = m0.track.start.at;
    let to = end_of(run, id, t.last);
    let distance: f64 = run
        .movers
        .iter()
        .enumerate()
        .filter(|(k, m)| m.id as usize == id && *k >= t.first && *k <= t.last && m.kind == m0.kind)
        .map(|(_, m)| m.track.travel(0.0, m.param))
        .sum();
    let (rule, verb, kind) = words(source, m0);
    let spent = t.spent.min(allowance.value.max(t.spent - 1e-6));
    let mut text = format!("{} {verb} {}\"", u.name, number1(distance));
    let charger = m0.answers.and_then(|c| run.state.units.get(c as usize));
    if let Some(c) = charger {
        text.push_str(&format!(" from {}", c.name));
    }
    let short = m1.param < m1.limit - 0.05;
    let held = match m1.held {
        Some(Held::Friend(f)) if short && !matches!(m1.kind, Kind::Rout | Kind::Evade) => {
            let name = run.state.units.get(f as usize).map_or("?", |x| &*x.name);
            let planned =
                m1.track.travel(0.0, m1.limit) + (distance - m1.track.travel(0.0, m1.param));
            if planned < 0.05 {
                // All it meant to do was turn to face its way.
                text.push_str(&format!(
                    ", held up by {name} as they turned to face their way, at ({:.1}, {:.1})",
                    to.x, to.y
                ));
            } else {
                text.push_str(&format!(
                    " of their {}\" move, held up by {name} in their way at ({:.1}, {:.1})",
                    number1(planned),
                    to.x,
                    to.y
                ));
            }
            true
        }
        _ => false,
    };
    // What stopped routers or evaders short of their run (WRG-ROUT-04 .. -07, WRG-R-08).
    if short && matches!(m1.kind, Kind::Rout | Kind::Evade) {
        let by = |o: u16| {
            run.state.units.get(o as usize).map_or("?".to_string(), |x| x.name.to_string())
        };
        match m1.held {
            Some(Held::Short(o) | Held::Friend(o)) => {
                text.push_str(&format!(", stopped by {} in their way", by(o)));
            }
            Some(Held::Edge) => text.push_str(", stopped at the table's edge"),
            _ => {}
        }
    }
    let mut note = Note::new(rule, text).with_total(allowance.clone());
    if held {
        note = note.and("WRG-R-08").and("WRG-MOVE-01");
    }
    if matches!(m0.allow, Allow::Result { .. }) {
        note = note.and("WRG-RRES-10");
    }
    if m0.kind == Kind::Evade {
        // Who evades, and why (WRG-MOVE-08, WRG-ORD-09, -11, WRG-R-10).
        note = note.and("WRG-MOVE-08").and("WRG-R-10");
        if u.troop.is_light_infantry() && charger.is_some_and(|c| c.troop.is_cavalry()) {
            note = note.and("WRG-ORD-09");
        }
        if matches!(u.standing.order().map(|o| &o.verb), Some(crate::orders::Verb::Skirmish { .. }))
        {
            note = note.and("WRG-ORD-11");
        }
    }
    let show_spent = t.parts.len() > 1
        || t.parts.first().is_some_and(|p| (p.2 - distance).abs() > 0.05 || p.0 != "WRG-MOVE-02");
    if show_spent {
        let mut total = Total::new("spent");
        for &(r, what, v) in &t.parts {
            total = total.plus(r, what, v);
        }
        note = note.with_total(total);
    }
    note.with_fact(Fact::Moved {
        unit: id as u16,
        kind,
        from,
        to,
        spent,
        allowance: allowance.value,
    })
}

/// Where the last move of a chain ended (the unit may have moved again after it).
fn end_of(run: &Run, id: usize, last: usize) -> Point {
    let u = &run.state.units[id];
    let m = &run.movers[last];
    let later = run.movers[last + 1..]
        .iter()
        .any(|x| x.id as usize == id && !x.undone && (x.param > EPS || x.lined_up > 0.0));
    if u.away.is_some() || later { m.pose(m.param).at } else { u.at }
}

fn number1(v: f64) -> String {
    format!("{v:.1}")
}

/// The rule, the verb and the kind of a move.
fn words(source: Option<&Source>, m: &Mover) -> (&'static str, &'static str, MoveKind) {
    match m.kind {
        Kind::Rout => ("WRG-ROUT-01", "run", MoveKind::Rout),
        Kind::Pursue { .. } => ("WRG-PURS-01", "pursue", MoveKind::Pursuit),
        Kind::Charge { .. } => ("WRG-MOVE-04", "charge", MoveKind::Charge),
        Kind::Counter { .. } => ("WRG-ORD-08", "countercharge", MoveKind::Countercharge),
        Kind::Evade => ("WRG-MOVE-09", "evade", MoveKind::Evade),
        Kind::Forward | Kind::Back => {
            if let Allow::Fixed { rule, .. } = m.allow {
                return (rule, "rally back", MoveKind::AfterCombat);
            }
            if let Allow::Result { rule } = m.allow {
                let verb = match rule {
                    "WRG-RRES-01" => "retreat",
                    "WRG-RRES-02" | "WRG-RRES-07" => "retire",
                    "WRG-RRES-08" => "fall back",
                    "WRG-RRES-06" => "advance out of control",
                    _ => "move on the enemy",
                };
                let kind = if m.kind == Kind::Back { MoveKind::Back } else { MoveKind::Normal };
                return (rule, verb, kind);
            }
            if m.step_back {
                return ("WRG-MOVE-03", "step back", MoveKind::StepBack);
            }
            let wheel = m.track.segs.iter().all(|s| matches!(s, Seg::Turn { .. }));
            let verb = match (wheel, m.kind, source) {
                (true, _, _) => "wheel",
                (_, Kind::Back, _) => "retire",
                (_, _, Some(Source::Plan)) => "move",
                _ => "advance",
            };
            ("WRG-MOVE-02", verb, MoveKind::Normal)
        }
    }
}

/// How a mover's allowance was made, each part with its rule; the parts add up to its budget.
pub fn allowance_total(data: &Data, u: &Unit, m: &Mover) -> Total {
    let row = data.moves(u.troop);
    let charge = row.charge.unwrap_or(row.normal);
    let d = &data.movement.distances;
    let mut t = Total::new("allowance");
    let base = match m.allow {
        Allow::Normal { pace, square } => {
            t = t.plus("WRG-MOVE-02", normal_words(u), row.normal);
            if (pace - 1.0).abs() > 1e-9 {
                t = t.plus("WRG-ORD-02", "the order's pace", row.normal * (pace - 1.0));
            }
            let paced = row.normal * pace;
            if square {
                t = t.plus("WRG-M-08", "in square, half speed", -paced / 2.0);
                paced / 2.0
            } else {
                paced
            }
        }
        Allow::Result { rule } => {
            t = t.plus(rule, normal_words(u), row.normal);
            row.normal
        }
        Allow::Charge => {
            t = t.plus("WRG-MOVE-02", normal_words(u), row.normal).plus(
                "WRG-MOVE-07",
                "charge bonus",
                charge - row.normal,
            );
            charge
        }
        Allow::Counter => {
            t = t.plus("WRG-ORD-08", "charge move", charge);
            charge
        }
        Allow::Evade => {
            let e = row.evade.unwrap_or(0.0);
            t = t.plus("WRG-MOVE-09", "evade", e);
            e
        }
        Allow::Rout { k } => {
            let v = crate::moves::rout_speed(data, u.troop, k);
            t = t.plus("WRG-ROUT-02", "charge move", charge).plus(
                "WRG-R-22",
                slowdown_words(k, d.rout_slowdown, data),
                v - charge,
            );
            v
        }
        Allow::Fixed { rule, what, inches } => {
            t = t.plus(rule, what, inches);
            inches
        }
        Allow::Pursuit { k } => {
            let v = crate::moves::pursuit_speed(data, u.troop, k);
            t = t.plus("WRG-PURS-01", "charge move", charge).plus(
                "WRG-R-22",
                slowdown_words(k, d.pursuit_slowdown, data),
                v - charge,
            );
            v
        }
    };
    if m.share < 1.0 - 1e-9 {
        t = t.plus("WRG-R-08", "the part of the period left", base * (m.share - 1.0));
    }
    let before_cut = base * m.share.min(1.0);
    if m.cut {
        t = t.plus("WRG-TERR-01", "crossing an obstacle", m.budget - before_cut);
    } else if (m.budget - before_cut).abs() > 1e-6 {
        // What remained of an earlier move of the same kind (a charger turning on a caught
        // evader runs on with what its charge has left).
        t = t.plus("WRG-R-08", "already used", m.budget - before_cut);
    }
    t
}

fn normal_words(u: &Unit) -> &'static str {
    if u.troop.is_engine() { "normal move of the engine" } else { "normal move" }
}

/// The slow-down of routers or pursuers: per period, cumulative or flat (WRG-R-22).
fn slowdown_words(k: u32, per: f64, data: &Data) -> String {
    let per = crate::report::number(per);
    match data.movement.rout.slowdown {
        crate::data::Slowdown::Cumulative if k > 1 => format!("less {per}\" a period, {k} periods"),
        _ => format!("less {per}\" a period, 1 period"),
    }
}

/// The allowance mover `m` spent, adding its parts (turns, ground, going round) to `parts`.
pub(super) fn spent(
    data: &Data,
    state: &State,
    u: &Unit,
    m: &Mover,
    parts: &mut Vec<(&'static str, &'static str, f64)>,
) -> f64 {
    if m.manhandled {
        parts.push(("WRG-TERR-02", "man-handled over the obstacle", m.budget));
        return m.budget;
    }
    let charge = matches!(m.kind, Kind::Charge { .. } | Kind::Counter { .. });
    let forced = matches!(m.kind, Kind::Rout | Kind::Evade | Kind::Pursue { .. }) || charge;
    let mut left = m.param;
    let mut total = 0.0;
    let mut legs: Vec<Point> = Vec::new();
    let mut leg_len = 0.0;
    for s in &m.track.segs {
        if left <= 0.0 {
            break;
        }
        let c = s.cost();
        let used = c.min(left);
        left -= used;
        match *s {
            Seg::Turn { by, cost, .. } => {
                if cost <= 0.0 && by.abs() > 3.0 {
                    push(parts, "WRG-MOVE-03", "about turn, free", 0.0);
                } else if used > 0.0 {
                    let rule = if charge { "WRG-MOVE-06" } else { "WRG-MOVE-14" };
                    push(parts, rule, "wheeling, outer figure", used);
                    total += used;
                    if m.turn_rate > 1.0 {
                        let extra = used * (m.turn_rate - 1.0);
                        push(parts, "WRG-TERR-04", "wheeling in bad going", extra);
                        total += extra;
                    }
                }
            }
            Seg::Line { from, dir, len, .. } => {
                let go = used.min(len);
                if legs.is_empty() {
                    legs.push(from);
                }
                legs.push(from + dir * go);
                leg_len += go;
            }
        }
    }
    if leg_len > 0.0 {
        if m.slowed {
            total += ground(data, state, u, &legs, forced, m.kind, parts);
        } else {
            let (rule, what) = match m.kind {
                Kind::Charge { .. } => ("WRG-MOVE-05", "straight run"),
                _ if m.step_back => ("WRG-MOVE-03", "straight back"),
                _ => ("WRG-MOVE-02", "ground"),
            };
            push(parts, rule, what, leg_len);
            total += leg_len;
        }
    }
    if m.lined_up > 0.0 {
        push(parts, "WRG-MELEE-01", "lining up on the face struck", m.lined_up);
        total += m.lined_up;
    }
    if m.lost > 0.0 {
        let rule = if m.kind == Kind::Evade { "WRG-MOVE-10" } else { "WRG-ROUT-04" };
        push(parts, rule, "going round", m.lost);
        total += m.lost;
    }
    total
}

/// Shortens a way worked out round obstacles (a swerve, a detour) so that what it spends,
/// the going and the loss for going round counted, stays within `cap`, what is left of the
/// allowance.
pub(super) fn fit_to_budget(data: &Data, state: &State, u: &Unit, m: &mut Mover, cap: f64) {
    let spent_at = |m: &mut Mover, p: f64| {
        let keep = m.param;
        m.param = p;
        let s = spent(data, state, u, m, &mut Vec::new());
        m.param = keep;
        s
    };
    if spent_at(m, m.limit) <= cap + 1e-9 {
        return;
    }
    let (mut a, mut b) = (0.0, m.limit);
    for _ in 0..40 {
        let mid = 0.5 * (a + b);
        if spent_at(m, mid) <= cap + 1e-9 {
            a = mid;
        } else {
            b = mid;
        }
    }
    m.limit = a;
}

/// The cost of the ground along `legs`, each kind of going with its rule.
fn ground(
    data: &Data,
    state: &State,
    u: &Unit,
    legs: &[Point],
    forced: bool,
    kind: Kind,
    parts: &mut Vec<(&'static str, &'static str, f64)>,
) -> f64 {
    let model = WrgGround { data, troop: u.troop };
    let table = &state.table;
    let Ok(cost) = tabletop::terrain::path_cost(table, legs, &model) else {
        let len: f64 = legs.windows(2).map(|w| w[0].distance(w[1])).sum();
        push(parts, "WRG-MOVE-02", "ground", len);
        return len;
    };
    let mut total = 0.0;
    for p in &cost.pieces {
        let going = model.going(table, &p.ground).unwrap_or(Going::Open);
        let (rule, what) = match going {
            Going::Open => match kind {
                Kind::Charge { .. } => ("WRG-MOVE-05", "straight run"),
                _ => ("WRG-MOVE-02", "ground"),
            },
            Going::Road => ("WRG-TERR-05", "road, no bonus"),
            Going::Ford => ("WRG-TERR-03", "ford, no obstacle"),
            Going::Bad if u.troop.is_engine() => ("WRG-TERR-06", "bad going"),
            Going::Bad if forced => ("WRG-TERR-07", "bad going"),
            Going::Bad => ("WRG-TERR-04", "bad going"),
            Going::Stream => ("WRG-CHAMP-02", "stream bed"),
        };
        push(parts, rule, what, p.cost);
        total += p.cost;
    }
    total
}

/// Adds to a part with the same rule and words, or a new one.
fn push(
    parts: &mut Vec<(&'static str, &'static str, f64)>,
    rule: &'static str,
    what: &'static str,
    v: f64,
) {
    match parts.iter_mut().find(|p| p.0 == rule && p.1 == what) {
        Some(p) => p.2 += v,
        None => parts.push((rule, what, v)),
    }
}

/// The note of a single move made outside the period's time steps (breaking off), told as
/// the movement tells its moves.
pub fn single_note(
    data: &Data,
    state: &State,
    u: &Unit,
    m: &Mover,
    from: Point,
    rule: &'static str,
    text: String,
) -> Note {
    let mut parts = Vec::new();
    let spent = spent(data, state, u, m, &mut parts);
    let allowance = allowance_total(data, u, m);
    let mut total = Total::new("spent");
    for &(r, what, v) in &parts {
        total = total.plus(r, what, v);
    }
    Note::new(rule, text).with_total(allowance.clone()).with_total(total).with_fact(Fact::Moved {
        unit: u.id,
        kind: MoveKind::BreakOff,
        from,
        to: u.at,
        spent: spent.min(allowance.value),
        allowance: allowance.value,
    })
}

/// A unit moved outside the movement (breaking off, after combat, pursuers falling back): its
/// note with the facts, the allowance a single part (WRG-R-13).
pub fn moved_note(
    u: &Unit,
    kind: MoveKind,
    (from, to): (Point, Point),
    rule: &'static str,
    text: String,
    allowance: Total,
) -> Note {
    let spent = from.distance(to);
    Note::new(rule, text).with_total(allowance.clone()).with_fact(Fact::Moved {
        unit: u.id,
        kind,
        from,
        to,
        spent,
        allowance: allowance.value,
    })
}
