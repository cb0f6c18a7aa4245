//! What the browser client offers an O/THW player: the units the phasing side may command, each
//! with its move allowance, the squares it may be dragged to and a menu of its other actions;
//! the side's actions that belong to no one unit (group moves, standing orders, ending the
//! phase); and the roster sheet of both armies (O/THW hides nothing, OTHW-M-18).
//!
//! The controls are built from [`Othw::legal`], which lists every legal command exhaustively:
//! every command it lists appears exactly once (a move as a square target, anything else as a
//! menu entry), so the client offers all that is legal and nothing else. The one addition is the
//! general's standing orders ([`Command::Orders`]), which cost no action and which `check`
//! always accepts from the phasing side: they are offered as toggles of the orders in force.

use crate::Othw;
use crate::data::Special;
use crate::state::{
    Command, GoneHow, Orders, State, Status, Unit, UnitId, cell_name, facing_name, flags,
};
use tabletop::controls::{Action, Controls, Drag, RosterRow, SquareTarget, UnitControl};
use tabletop::grid::{CellPos, GridFacing};
use tabletop::rules::{Pending, RuleSet, Side};

/// The controls `side` may use now: empty of units and actions unless it is the phasing side
/// of a battle still going on.
pub fn controls(r: &Othw, st: &State, side: Side) -> Controls {
    let pending = r.pending(st);
    let prompt = match (&pending, &st.outcome) {
        (_, Some(o)) => format!("the battle is over: {}", o.reason),
        (Pending::Side { side: s, what }, None) if *s == side => what.clone(),
        _ => format!("{}'s phase: wait for it to end", st.side(st.phasing).name),
    };
    let mut out = Controls { prompt, ..Controls::default() };
    if st.outcome.is_some() || st.phasing != side {
        return out;
    }
    // Each unit's entry in `out.units`, by unit ID.
    let mut slot: Vec<Option<usize>> = vec![None; st.units.len()];
    let mut group_moves = Vec::new();
    let mut end_phase = None;
    for command in r.legal(st, side) {
        let Ok(json) = serde_json::to_value(&command) else { continue };
        let unit = match &command {
            Command::Move { unit, .. }
            | Command::Attack { unit, .. }
            | Command::Mahouts { unit } => *unit,
            Command::GroupMove { units, facing, steps } => {
                let (label, rules) = group_move(st, units, *facing, *steps);
                group_moves.push(Action::send(label, &rules, json));
                continue;
            }
            Command::EndPhase => {
                let rules: &[&str] =
                    if st.phase_over { &["OTHW-SEQ-09", "OTHW-SEQ-07"] } else { &["OTHW-SEQ-09"] };
                end_phase = Some(Action::send("End the phase", rules, json));
                continue;
            }
            Command::Orders { .. } => continue,
        };
        let Some(x) = st.unit(unit) else { continue };
        let i = *slot[unit as usize].get_or_insert_with(|| {
            out.units.push(unit_control(r, st, x));
            out.units.len() - 1
        });
        let control = &mut out.units[i];
        match command {
            Command::Move { to, facing, .. } if to != x.pos => {
                let (label, rules) = move_label(st, x, to, facing);
                let target = SquareTarget {
                    col: to.col.max(0) as u32,
                    row: to.row.max(0) as u32,
                    action: Action::send(label, &rules, json),
                };
                match &mut control.drag {
                    Drag::Squares { targets } => targets.push(target),
                    drag => *drag = Drag::Squares { targets: vec![target] },
                }
            }
            Command::Move { to, facing, .. } => {
                let (label, rules) = move_label(st, x, to, facing);
                control.actions.push(Action::send(label, &rules, json));
            }
            Command::Attack { from, facing, general_dice, .. } => {
                let (label, rules) = attack_label(st, x, from, facing, general_dice);
                control.actions.push(Action::send(label, &rules, json));
            }
            _ => {
                let label = format!(
                    "Order the mahouts to turn on the rampaging {} (it attacks itself)",
                    x.name
                );
                control.actions.push(Action::send(label, &["OTHW-CMB-21"], json));
            }
        }
    }
    out.actions = group_moves;
    out.actions.extend(standing_orders(st, side));
    out.actions.extend(end_phase);
    out
}

/// The roster sheet: one row per unit of both armies, red first, each in scenario order.
/// Nothing is hidden from any viewer (OTHW-M-18).
pub fn roster(st: &State) -> Vec<RosterRow> {
    let rows = |side: Side| {
        st.units.iter().filter(move |u| u.side == side).map(move |u| RosterRow {
            side: side.name().to_string(),
            unit: u.id.to_string(),
            label: u.name.to_string(),
            kind: u.type_name.to_string(),
            strength: format!("{}/{}", u.sp, u.s),
            losses: format!("{} SP", u.s.saturating_sub(u.sp)),
            state: unit_state(st, u),
        })
    };
    rows(Side::Red).chain(rows(Side::Blue)).collect()
}

/// A unit's move allowance for one move action now, in squares, and the words for it: its
/// profile's M, or the single point left to it in woods or a ford (OTHW-MOV-11).
fn allowance(r: &Othw, st: &State, x: &Unit) -> (f64, String) {
    let mv = &r.data.rules.movement;
    let step = f64::from(mv.step_cost.max(1));
    let exempt = x.ignores_restricted();
    let squares = |points: u8| {
        let n = (f64::from(points) / step).floor();
        (n, if n == 1.0 { "1 square".to_string() } else { format!("{n} squares") })
    };
    if !exempt && st.board.restricted(x.pos) {
        let (n, words) = squares(mv.restricted_points);
        return (n, format!("{words} (in woods or a ford) [OTHW-MOV-11]"));
    }
    let (n, words) = squares(x.m);
    let free = if x.has(Special::FreeFacing) { ", turns free [OTHW-MOV-03]" } else { "" };
    let further = if x.flag(flags::MOVED) { ", further move [OTHW-MOV-09]" } else { "" };
    (n, format!("{words} ({}) [OTHW-MOV-02]{free}{further}", x.type_name.to_lowercase()))
}

/// A unit's entry, with its allowance and an empty menu. A rampaging elephant is out of its
/// owner's control (OTHW-CMB-20): it has no allowance to spend, only the mahouts' action.
fn unit_control(r: &Othw, st: &State, x: &Unit) -> UnitControl {
    let (allowance, allowance_text) = if x.status == Status::Rampaging {
        (None, "none: rampaging, out of control [OTHW-CMB-20, OTHW-SEQ-10]".to_string())
    } else {
        let (n, text) = allowance(r, st, x);
        (Some(n), text)
    };
    UnitControl {
        unit: x.id.to_string(),
        label: x.name.to_string(),
        allowance,
        allowance_text,
        drag: Drag::None,
        actions: Vec::new(),
    }
}

/// The rule of the phase-end roll an action by `units` takes: none for the general's unit or a
/// group including it (OTHW-SEQ-05, GEN-02), the roll otherwise (OTHW-SEQ-04).
fn phase_end_rule(st: &State, units: &[UnitId]) -> &'static str {
    if units.iter().any(|&u| st.has_general(u)) { "OTHW-GEN-02" } else { "OTHW-SEQ-04" }
}

/// A move's label and rules: a move or a further move (after a leadership test, OTHW-MOV-09),
/// to a square, or a turn where the unit stands.
fn move_label(
    st: &State,
    x: &Unit,
    to: CellPos,
    facing: GridFacing,
) -> (String, Vec<&'static str>) {
    let further = x.flag(flags::MOVED);
    let mut rules = vec![if further { "OTHW-MOV-09" } else { "OTHW-MOV-02" }];
    if x.has(Special::FreeFacing) && facing != x.facing {
        rules.push("OTHW-MOV-03");
    }
    let exempt = x.ignores_restricted();
    if !exempt && (st.board.restricted(x.pos) || st.board.restricted(to)) {
        rules.push("OTHW-MOV-11");
    }
    rules.push(phase_end_rule(st, &[x.id]));
    let what = if to == x.pos {
        format!("turn to face {}", facing_name(facing))
    } else {
        format!("move to {} facing {}", cell_name(to), facing_name(facing))
    };
    let label = if further {
        format!("Further move: {what} (leadership test first)")
    } else {
        capitalised(&what)
    };
    (label, rules)
}

/// An attack's label and rules: a standing combat (OTHW-CMB-02) or a charge (OTHW-MOV-08)
/// against the unit in front of `from`, with or without the general's attack dice (GEN-04).
fn attack_label(
    st: &State,
    x: &Unit,
    from: CellPos,
    facing: GridFacing,
    general_dice: bool,
) -> (String, Vec<&'static str>) {
    let standing = from == x.pos && (facing == x.facing || x.has(Special::FreeFacing));
    let target = st.at(from.step(facing)).and_then(|t| st.unit(t));
    let whom = match target {
        Some(t) if t.side == x.side => format!("our rampaging {}", t.name),
        Some(t) => t.name.to_string(),
        None => format!("the unit on {}", cell_name(from.step(facing))),
    };
    let mut rules = Vec::new();
    let mut label = if standing {
        rules.push("OTHW-CMB-02");
        if facing != x.facing {
            rules.push("OTHW-TRT-09");
            format!("Attack {whom} (standing combat, turning to face {})", facing_name(facing))
        } else {
            format!("Attack {whom} (standing combat)")
        }
    } else {
        rules.push("OTHW-MOV-08");
        format!("Charge {whom} (from {}, facing {})", cell_name(from), facing_name(facing))
    };
    if target.is_some_and(|t| t.side == x.side) {
        rules.push("OTHW-CMB-21");
    }
    if general_dice && let Some(g) = st.active_general(x.side) {
        let dice = if g.attack == 1 { "die" } else { "dice" };
        label.push_str(&format!(", with {}'s {} attack {dice}", g.name, g.attack));
        rules.extend(["OTHW-GEN-04", "OTHW-GEN-06"]);
    }
    rules.push(phase_end_rule(st, &[x.id]));
    (label, rules)
}

/// A group move's label and rules (OTHW-MOV-06).
fn group_move(
    st: &State,
    units: &[UnitId],
    facing: GridFacing,
    steps: u8,
) -> (String, Vec<&'static str>) {
    let names: Vec<&str> = units.iter().filter_map(|&u| st.unit(u)).map(|u| &*u.name).collect();
    let who = match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    };
    let how = match steps {
        0 => format!("turn to face {}", facing_name(facing)),
        1 => format!("face {} and advance 1 square", facing_name(facing)),
        n => format!("face {} and advance {n} squares", facing_name(facing)),
    };
    (format!("Group move of {who}: {how}"), vec!["OTHW-MOV-06", phase_end_rule(st, units)])
}

/// The standing orders `side` may change now, each as the toggle of one order in force:
/// rerolls and rally dice while the general is with the army (OTHW-GEN-03, GEN-05, GEN-11),
/// follow-ups (OTHW-CMB-17), and the Phalanx cancel where the army has phalanxes (OTHW-TRT-04).
fn standing_orders(st: &State, side: Side) -> Vec<Action> {
    let s = st.side(side);
    let o = s.orders;
    let general = s.general.as_ref().filter(|g| !g.lost);
    let phalanx =
        st.units.iter().any(|u| u.side == side && u.on_board() && u.has(Special::Phalanx));
    let mut out = Vec::new();
    let mut offer = |on: bool, yes: &str, no: &str, rules: &[&str], orders: Orders| {
        let label = format!("Standing orders: {}", if on { no } else { yes });
        if let Ok(json) = serde_json::to_value(Command::Orders { orders }) {
            out.push(Action::send(label, rules, json));
        }
    };
    if let Some(g) = general {
        offer(
            o.reroll,
            &format!("{} rerolls his unit's failed leadership tests", g.name),
            &format!("{} does not reroll his unit's failed leadership tests", g.name),
            &["OTHW-GEN-03", "OTHW-GEN-11"],
            Orders { reroll: !o.reroll, ..o },
        );
        if g.rally > 0 {
            offer(
                o.rally,
                &format!("{} rolls his rally dice when his unit is hit", g.name),
                &format!("{} does not roll his rally dice", g.name),
                &["OTHW-GEN-05", "OTHW-GEN-11"],
                Orders { rally: !o.rally, ..o },
            );
        }
    }
    offer(
        o.follow_up,
        "winners test to follow up",
        "winners do not follow up (impetuous units still must)",
        &["OTHW-CMB-17", "OTHW-TRT-08"],
        Orders { follow_up: !o.follow_up, ..o },
    );
    if phalanx {
        offer(
            o.phalanx,
            "phalanxes test to cancel a hit",
            "phalanxes do not test to cancel hits",
            &["OTHW-TRT-04"],
            Orders { phalanx: !o.phalanx, ..o },
        );
    }
    out
}

/// A unit's state in words for the roster: its standing, what it has done this phase, where
/// it stands, and the general with it.
fn unit_state(st: &State, u: &Unit) -> String {
    let name = |v: UnitId| st.unit(v).map_or_else(|| format!("unit {v}"), |t| t.name.to_string());
    let mut words = match u.status {
        Status::Ready => match u.pursuing {
            Some(t) => format!("pursuing {}", name(t)),
            None if u.flag(flags::DONE) => "pursuit ended: done this phase".to_string(),
            None => {
                let done: Vec<&str> = [
                    (flags::MOVED, "moved"),
                    (flags::GROUP_MOVED, "moved in a group"),
                    (flags::FURTHER, "made its further move"),
                    (flags::FOUGHT, "fought"),
                ]
                .into_iter()
                .filter(|&(f, _)| u.flag(f))
                .map(|(_, w)| w)
                .collect();
                if done.is_empty() {
                    "ready".to_string()
                } else {
                    format!("activated ({})", done.join(", "))
                }
            }
        },
        Status::Fleeing => "fleeing".to_string(),
        Status::Rampaging => "rampaging".to_string(),
        Status::Gone => match u.gone {
            Some(GoneHow::FledOff) => "lost: fled off the board".to_string(),
            Some(GoneHow::PushedOff) => "lost: pushed off the board".to_string(),
            Some(GoneHow::Slaughtered) => "lost: slaughtered while fleeing".to_string(),
            Some(GoneHow::Destroyed) => "lost: destroyed".to_string(),
            None => "lost: off the board".to_string(),
        },
    };
    if u.on_board() {
        words.push_str(&format!(", on {} facing {}", cell_name(u.pos), facing_name(u.facing)));
    }
    if let Some(g) = st.side(u.side).general.as_ref().filter(|g| g.unit == u.id) {
        words.push_str(&if g.lost {
            format!(", its general {} lost", g.name)
        } else if st.active_general(u.side).is_none() {
            format!(", general {} attached (away this phase)", g.name)
        } else {
            format!(", general {} attached", g.name)
        });
    }
    words
}

/// `s` with its first letter upper-case.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}
