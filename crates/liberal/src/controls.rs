//! What the browser offers a side, its dragged moves measured, and the roster sheet.
//!
//! - The edge: two buttons (LIB-START-03).
//! - The secret deployment: a draft of placements, each unit dragged within 18" of its own
//!   edge (or kept where the scenario put it), sent whole (LIB-START-04/05).
//! - Step A: a draft of every unit's choice, sent as one `declare` (LIB-SEQ-02). A unit dragged
//!   within its allowance makes a normal move (its facing kept, or turned with Shift); dragged
//!   farther it makes a liberal move to the point, and dropped on an enemy a liberal move to
//!   assault it, the measurement showing each step's end and the fire every enemy in range is
//!   expected to pour into it (LIB-LIBERAL-04/05, LIB-R-08). A unit's menu holds the rest:
//!   stand fast (at the best target or a named one), change formation or face where it stands,
//!   mount or dismount, assault each enemy with the preview's expected loss, crew a gun, spike
//!   one; a battery's menu its targets with round shot or grape, and holding its fire.
//! - Between liberal steps: go on, or call a mover off (LIB-LIBERAL-08).
//! - A melee's winner: keep its formation or re-form (LIB-HTH-14).
//!
//! Every entry is checked against `check` before it is offered.

use crate::Liberal;
use crate::data::Kind;
use crate::state::{
    Choice, Command, Flag, Formation, Leg, Objective, Order, Phase, Place, Placement, Role, Shot,
    Stage, State, Status, Unit, UnitId,
};
use serde_json::Value;
use tabletop::controls::{
    Action, Controls, Draft, Drag, MeasureRequest, Measurement, RosterRow, UnitControl,
};
use tabletop::geometry::{Facing, Point};
use tabletop::rules::{Actor, RuleSet, Side, Viewer};

/// The most steps a liberal move is previewed for.
pub const PREVIEW_STEPS: usize = 16;

fn inches(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if (r - r.round()).abs() < 1e-9 { format!("{}", r.round() as i64) } else { format!("{r:.1}") }
}

fn to_json<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// The units `side` gives orders to in step A, in the order of the draft's entries.
pub fn declare_units(st: &State, side: Side) -> Vec<UnitId> {
    st.units_of(side)
        .filter(|u| u.present() && (u.gun.is_some() || u.strength() > 0))
        .map(|u| u.id)
        .collect()
}

/// The step A draft as it starts: every unit standing fast, one entry each.
fn declare_draft(st: &State, side: Side) -> Command {
    Command::Declare {
        orders: declare_units(st, side)
            .into_iter()
            .map(|unit| Order { unit, choice: Choice::StandFast { target: None } })
            .collect(),
    }
}

/// A unit's order put into the step A draft, at its entry.
fn order_action(st: &State, label: String, rules: &[&str], o: &Order) -> Action {
    let side = st.units[o.unit].side;
    let k = declare_units(st, side).iter().position(|u| *u == o.unit).unwrap_or(usize::MAX);
    Action::draft(label, rules, format!("/orders/{k}"), None, to_json(o))
}

fn declare_ok(r: &Liberal, st: &State, side: Side, o: &Order) -> bool {
    r.check(st, Actor::Side(side), &Command::Declare { orders: vec![o.clone()] }).is_ok()
}

fn present_foes(st: &State, side: Side) -> Vec<UnitId> {
    st.units.iter().filter(|u| u.side != side && u.present()).map(|u| u.id).collect()
}

/// Where the front centre goes when the footprint's centre is put at `centre` facing `facing`.
pub fn front_for(r: &Liberal, u: &Unit, centre: Point, facing: Facing) -> Point {
    let off = u.place.at - r.footprint(u).centre;
    let f = u.place.facing;
    let (x, y) = (off.dot(f.right()), off.dot(f.vector()));
    centre + facing.right() * x + facing.vector() * y
}

fn expected(plan: &[(crate::preview::Step, Vec<(UnitId, f64)>)]) -> f64 {
    plan.iter().map(|(_, f)| f.iter().map(|x| x.1).sum::<f64>()).sum()
}

/// The menus of `side` now.
pub fn controls(r: &Liberal, st: &State, side: Side) -> Controls {
    let pending = r.pending(st);
    let mut c = Controls { prompt: pending.what().to_string(), ..Controls::default() };
    if !pending.sides().contains(&side) || st.outcome.is_some() {
        return c;
    }
    match &st.phase {
        Phase::Edge { .. } => {
            let now = st.side(side).south;
            for south in [now, !now] {
                let cmd = Command::ChooseEdge { south };
                let label = format!(
                    "Take the {} edge{}",
                    if south { "south" } else { "north" },
                    if south == now { " (as the scenario has it)" } else { "" }
                );
                c.actions.push(Action::send(label, &["LIB-START-03"], to_json(&cmd)));
            }
        }
        Phase::Deploy { .. } => deploy_controls(r, st, side, &mut c),
        Phase::Turn { stage: Stage::Declare, .. } => declare_controls(r, st, side, &mut c),
        Phase::Turn { stage: Stage::Liberal { .. }, movers, .. } => {
            let ahead = |m: &crate::state::Mover| -> String {
                let next = r.plan_liberal(st, m.unit, m.objective, m.formation, 1);
                match next.first() {
                    Some((_, fire)) => {
                        format!("≈{:.1} casualties expected", fire.iter().map(|f| f.1).sum::<f64>())
                    }
                    None => "no step left".into(),
                }
            };
            let forward: Vec<_> = movers.iter().filter(|m| m.leg == Leg::Forward).collect();
            let mut label = "Go on: the next step".to_string();
            if !forward.is_empty() {
                let parts: Vec<String> = forward
                    .iter()
                    .map(|m| format!("{} {}", st.units[m.unit].name, ahead(m)))
                    .collect();
                label = format!("{label} ({})", parts.join("; "));
            }
            let go = Command::Advance { call_off: Vec::new(), reform: Vec::new() };
            if r.check(st, Actor::Side(side), &go).is_ok() {
                c.actions.push(Action::send(label, &["LIB-LIBERAL-04", "LIB-R-08"], to_json(&go)));
            }
            let callable: Vec<UnitId> =
                forward.iter().filter(|m| m.steps >= 1).map(|m| m.unit).collect();
            for u in &callable {
                let cmd = Command::Advance { call_off: vec![*u], reform: Vec::new() };
                if r.check(st, Actor::Side(side), &cmd).is_ok() {
                    c.actions.push(Action::send(
                        format!(
                            "Call off {}: turn about and go back under fire",
                            st.units[*u].name
                        ),
                        &["LIB-LIBERAL-08", "LIB-LIBERAL-10"],
                        to_json(&cmd),
                    ));
                }
            }
            // A mover may change formation on any step, that step then going at most the
            // formation-change distance (LIB-LIBERAL-07).
            for m in &forward {
                let u = &st.units[m.unit];
                for f in
                    [Formation::Line, Formation::Column, Formation::RoadColumn, Formation::Square]
                {
                    if f == u.place.formation {
                        continue;
                    }
                    let cmd = Command::Advance { call_off: Vec::new(), reform: vec![(m.unit, f)] };
                    if r.check(st, Actor::Side(side), &cmd).is_ok() {
                        let (a, _) = r.allowance(st, u, f, false);
                        c.actions.push(Action::send(
                            format!(
                                "Go on, {} forming {} on its next step (at most {}\")",
                                u.name,
                                f.name(),
                                inches(a)
                            ),
                            &["LIB-LIBERAL-07"],
                            to_json(&cmd),
                        ));
                    }
                }
            }
            if callable.len() > 1 {
                let cmd = Command::Advance { call_off: callable.clone(), reform: Vec::new() };
                if r.check(st, Actor::Side(side), &cmd).is_ok() {
                    c.actions.push(Action::send(
                        "Call off every move",
                        &["LIB-LIBERAL-08"],
                        to_json(&cmd),
                    ));
                }
            }
        }
        Phase::Turn { stage: Stage::Reform { unit, .. }, .. } => {
            let u = &st.units[*unit];
            let keep = Command::Reform { formation: None };
            c.actions.push(Action::send(
                format!("{} keeps its {}", u.name, u.place.formation.name()),
                &["LIB-HTH-14"],
                to_json(&keep),
            ));
            for f in [Formation::Line, Formation::Column, Formation::RoadColumn, Formation::Square]
            {
                if f == u.place.formation {
                    continue;
                }
                let cmd = Command::Reform { formation: Some(f) };
                if r.check(st, Actor::Side(side), &cmd).is_ok() {
                    c.actions.push(Action::send(
                        format!("{} re-forms in {}", u.name, f.name()),
                        &["LIB-HTH-14"],
                        to_json(&cmd),
                    ));
                }
            }
        }
        Phase::Over => {}
    }
    c
}

fn deploy_controls(r: &Liberal, st: &State, side: Side, c: &mut Controls) {
    let depth = r.data.rules.deployment.depth;
    c.actions.push(Action::send(
        "Keep the scenario's places",
        &["LIB-START-04"],
        to_json(&Command::Deploy { placements: Vec::new() }),
    ));
    c.draft = Some(Draft {
        command: to_json(&Command::Deploy { placements: Vec::new() }),
        label: "Commit the secret plan".into(),
        rules: vec!["LIB-START-04".into(), "LIB-START-05".into()],
    });
    for u in st.units_of(side).filter(|u| u.present()) {
        let mut actions = Vec::new();
        if u.gun.is_none() {
            for f in [Formation::Line, Formation::Column, Formation::RoadColumn, Formation::Square]
            {
                if f == u.place.formation
                    || (f == Formation::Square && r.data.troops[u.troop].kind == Kind::Horse)
                {
                    continue;
                }
                let p = Placement { unit: u.id, place: Place { formation: f, ..u.place } };
                let cmd = Command::Deploy { placements: vec![p.clone()] };
                if r.check(st, Actor::Side(side), &cmd).is_ok() {
                    actions.push(Action::draft(
                        format!("Draw {} up in {} where it stands", u.name, f.name()),
                        &["LIB-START-05"],
                        "/placements",
                        Some("unit"),
                        to_json(&p),
                    ));
                }
            }
        }
        c.units.push(UnitControl {
            unit: u.id.to_string(),
            label: u.name.clone(),
            allowance: Some(depth),
            allowance_text: format!(
                "set up anywhere within {}\" of your edge (LIB-START-05): drag it there",
                inches(depth)
            ),
            drag: Drag::Free,
            actions,
        });
    }
}

fn declare_controls(r: &Liberal, st: &State, side: Side, c: &mut Controls) {
    c.draft = Some(Draft {
        command: to_json(&declare_draft(st, side)),
        label: "Declare the orders (step A)".into(),
        rules: vec!["LIB-SEQ-02".into(), "LIB-CHOICE-01".into()],
    });
    c.prompt = format!(
        "{} Units given no order stand fast. Drag a unit within its allowance for a normal \
         move, beyond it (or onto an enemy) for a liberal move with its preview.",
        c.prompt
    );
    let foes = present_foes(st, side);
    for u in st.units_of(side).filter(|u| u.present()) {
        let mut actions = Vec::new();
        let (allowance, text, drag) = if u.gun.is_some() {
            gun_menu(r, st, side, u, &foes, &mut actions)
        } else if u.strength() > 0 {
            unit_menu(r, st, side, u, &foes, &mut actions)
        } else {
            continue;
        };
        c.units.push(UnitControl {
            unit: u.id.to_string(),
            label: u.name.clone(),
            allowance: Some(allowance),
            allowance_text: text,
            drag,
            actions,
        });
    }
}

fn unit_menu(
    r: &Liberal,
    st: &State,
    side: Side,
    u: &Unit,
    foes: &[UnitId],
    actions: &mut Vec<Action>,
) -> (f64, String, Drag) {
    let kind = r.data.troops[u.troop].kind;
    let form =
        if u.place.formation == Formation::House { Formation::Line } else { u.place.formation };
    let (allowance, basis) = r.allowance(st, u, form, false);
    let mut push = |label: String, rules: &[&str], choice: Choice| {
        let o = Order { unit: u.id, choice };
        if declare_ok(r, st, side, &o) {
            actions.push(order_action(st, label, rules, &o));
        }
    };
    push(
        format!("{}: stand fast, fire at the best target", u.name),
        &["LIB-CHOICE-07"],
        Choice::StandFast { target: None },
    );
    for &e in foes {
        let t = &st.units[e];
        if let Some(s) = r.shooting(st, u, t, true, 1) {
            let x = r.expected_volley(st, &s, u, t);
            push(
                format!(
                    "{}: stand fast, fire at {} ({} figures at {}\", ≈{x:.1} casualties)",
                    u.name,
                    t.name,
                    s.figures,
                    inches(s.distance)
                ),
                &["LIB-CHOICE-07", "LIB-FIRE-04"],
                Choice::StandFast { target: Some(e) },
            );
        }
    }
    for f in [Formation::Line, Formation::Column, Formation::RoadColumn, Formation::Square] {
        if f == u.place.formation {
            continue;
        }
        let rule = if f == Formation::Square || u.place.formation == Formation::Square {
            "LIB-CHOICE-06"
        } else {
            "LIB-CHOICE-05"
        };
        push(
            format!("{}: form {} where it stands", u.name, f.name()),
            &[rule, "LIB-M-04"],
            Choice::Normal {
                to: u.place.at,
                facing: None,
                formation: Some(f),
                mount: None,
                target: None,
            },
        );
    }
    // A formation change on the move drafted for it, dragged or liberal (LIB-CHOICE-05,
    // LIB-LIBERAL-07): offered where the change allows as long a move as its formation does,
    // so that it never makes a drafted move too long.
    let longest = if matches!(form, Formation::Column | Formation::RoadColumn)
        && r.on_road(st, u.place.at, u.place.at)
    {
        allowance.max(r.allowance(st, u, form, true).0)
    } else {
        allowance
    };
    let mut with_move = Vec::new();
    if let Some(k) = declare_units(st, side).iter().position(|x| *x == u.id) {
        for f in [Formation::Line, Formation::Column, Formation::RoadColumn] {
            if f == form {
                continue;
            }
            let (a, _) = r.allowance(st, u, f, false);
            if a + 1e-9 < longest {
                continue;
            }
            with_move.push(Action::draft(
                format!(
                    "{}: form {} on the move dragged for it (a normal move of at most {}\", or \
                     a liberal move's first step)",
                    u.name,
                    f.name(),
                    inches(a)
                ),
                &["LIB-CHOICE-05", "LIB-LIBERAL-07"],
                format!("/orders/{k}/choice/formation"),
                None,
                to_json(&f),
            ));
        }
    }
    for (what, face) in [
        ("face about", u.place.facing.reversed()),
        ("wheel to face right", u.place.facing.turned_right()),
        ("wheel to face left", u.place.facing.turned_left()),
    ] {
        push(
            format!("{}: {what} where it stands", u.name),
            &["LIB-M-06"],
            Choice::Normal {
                to: u.place.at,
                facing: Some(face.bearing_degrees()),
                formation: None,
                mount: None,
                target: None,
            },
        );
    }
    if kind == Kind::Horse {
        let m = !u.mounted;
        push(
            format!("{}: {} (the whole move)", u.name, if m { "mount" } else { "dismount" }),
            &["LIB-M-10"],
            Choice::Normal {
                to: u.place.at,
                facing: None,
                formation: None,
                mount: Some(m),
                target: None,
            },
        );
    }
    for &e in foes {
        let t = &st.units[e];
        if t.strength() == 0 && t.gun.is_none() {
            continue;
        }
        let plan = r.plan_liberal(st, u.id, Objective::Unit { unit: e }, None, PREVIEW_STEPS);
        let reaches = plan.last().is_some_and(|p| p.0.met == Some(e));
        let loss = expected(&plan);
        let how = if reaches {
            format!("contact in {} step{}", plan.len(), if plan.len() == 1 { "" } else { "s" })
        } else {
            format!("not in contact after {} steps", plan.len())
        };
        push(
            format!(
                "{}: liberal move to assault {} ({how}, ≈{loss:.1} casualties expected)",
                u.name, t.name
            ),
            &["LIB-LIBERAL-02", "LIB-LIBERAL-03", "LIB-R-08"],
            Choice::Liberal { objective: Objective::Unit { unit: e }, formation: None },
        );
    }
    // Crew a friendly gun beside it (LIB-ART-01, LIB-M-19).
    if kind == Kind::Foot {
        for g in st.units_of(side).filter(|g| {
            g.id != u.id
                && g.gun.as_ref().is_some_and(|x| !x.spiked && !x.destroyed)
                && r.footprint(u).within(&r.footprint(g), 2.0)
        }) {
            let need = r.data.rules.artillery.crew_needed.saturating_sub(g.strength()).max(1);
            for n in [need, need + 2] {
                push(
                    format!("{}: send {n} figures to crew {}", u.name, g.name),
                    &["LIB-ART-01", "LIB-M-19"],
                    Choice::Crew { gun: g.id, figures: n },
                );
            }
        }
    }
    // Spike an unmanned enemy gun it touches (LIB-R-27).
    for &e in foes {
        if st.units[e].gun.is_some() {
            push(
                format!("{}: spike {}", u.name, st.units[e].name),
                &["LIB-R-27", "LIB-ART-15"],
                Choice::Spike { gun: e },
            );
        }
    }
    // The target of the fire after a dragged normal move (LIB-SEQ-05): any enemy it might
    // reach from where the move could take it.
    if let (Some(k), Some(range)) =
        (declare_units(st, side).iter().position(|x| *x == u.id), r.small_arms_range(u, false))
    {
        for &e in foes {
            let t = &st.units[e];
            if t.strength() == 0 && t.gun.is_none() {
                continue;
            }
            if r.footprint(u).distance(&r.footprint(t)) > range + allowance {
                continue;
            }
            with_move.push(Action::draft(
                format!("{}: after the move dragged for it, fire at {}", u.name, t.name),
                &["LIB-SEQ-05", "LIB-FIRE-01"],
                format!("/orders/{k}/choice/target"),
                None,
                to_json(&e),
            ));
        }
    }
    actions.extend(with_move);
    let text = format!(
        "{}\" a normal move: {basis} (LIB-CHOICE-02); a liberal move goes on in steps of one \
         normal move (LIB-LIBERAL-04)",
        inches(allowance)
    );
    (allowance, text, Drag::Free)
}

fn gun_menu(
    r: &Liberal,
    st: &State,
    side: Side,
    u: &Unit,
    foes: &[UnitId],
    actions: &mut Vec<Action>,
) -> (f64, String, Drag) {
    let Some(g) = &u.gun else { return (0.0, String::new(), Drag::None) };
    let (allowance, basis) = r.allowance(st, u, u.place.formation, false);
    let mut push = |label: String, rules: &[&str], choice: Choice| {
        let o = Order { unit: u.id, choice };
        if declare_ok(r, st, side, &o) {
            actions.push(order_action(st, label, rules, &o));
        }
    };
    push(
        format!("{}: hold its fire", u.name),
        &["LIB-SEQ-03"],
        Choice::Gun { to: None, facing: None, target: None, shot: Shot::Round },
    );
    for &e in foes {
        let t = &st.units[e];
        for shot in [Shot::Round, Shot::Grape] {
            if let Ok(d) = r.gun_reach(st, u, t, shot) {
                let x = r.expected_cannon(st, u, t, shot);
                let (what, rule) = match shot {
                    Shot::Round => ("round shot", "LIB-ART-09"),
                    Shot::Grape => ("grape", "LIB-ART-12"),
                };
                push(
                    format!(
                        "{}: fire {what} at {} ({}\", ≈{x:.1} casualties)",
                        u.name,
                        t.name,
                        inches(d)
                    ),
                    &["LIB-SEQ-04", rule],
                    Choice::Gun { to: None, facing: None, target: Some(e), shot },
                );
            }
        }
    }
    push(
        format!("{}: spike the gun", u.name),
        &["LIB-R-27", "LIB-ART-15"],
        Choice::Spike { gun: u.id },
    );
    let movable = !g.destroyed && !g.spiked && u.strength() >= r.data.rules.artillery.crew_needed;
    let text = if movable {
        format!(
            "{}\" a move: {basis} (LIB-CHOICE-04); drag it to move it in step B",
            inches(allowance)
        )
    } else {
        format!(
            "cannot move: {} crew, a gun needs {} (LIB-CHOICE-08)",
            u.strength(),
            r.data.rules.artillery.crew_needed
        )
    };
    (allowance, text, if movable { Drag::Free } else { Drag::None })
}

/// A dragged unit measured: a placement in the deployment; in step A a normal move within the
/// allowance, a liberal move (to the point, or to assault the enemy it is dropped on) with each
/// step's end and the fire it draws, or a battery's move.
pub fn measure(r: &Liberal, st: &State, side: Side, req: &MeasureRequest) -> Option<Measurement> {
    let id: UnitId = req.unit.parse().ok()?;
    let u = st.units.get(id)?;
    if u.side != side || !u.present() || !r.pending(st).sides().contains(&side) {
        return None;
    }
    if !req.to.is_finite() {
        return None;
    }
    let facing = req.facing.unwrap_or(u.place.facing);
    let front = front_for(r, u, req.to, facing);
    let centre = r.footprint(u).centre;
    let length = centre.distance(req.to);
    let mut m = Measurement {
        unit: req.unit.clone(),
        path: vec![centre, req.to],
        length,
        cost: length,
        allowance: length,
        within: length,
        notes: Vec::new(),
        action: None,
        rule: None,
        reason: None,
    };
    let refuse = |m: &mut Measurement, rule: &str, why: String| {
        m.rule = Some(rule.to_string());
        m.reason = Some(why);
    };
    match &st.phase {
        Phase::Deploy { .. } => {
            let depth = r.data.rules.deployment.depth;
            m.allowance = depth;
            m.notes.push(format!(
                "every figure within {}\" of your edge [LIB-START-05]",
                inches(depth)
            ));
            let p = Placement {
                unit: id,
                place: Place { at: front, facing, formation: u.place.formation },
            };
            match r.check(st, Actor::Side(side), &Command::Deploy { placements: vec![p.clone()] }) {
                Ok(()) => {
                    m.action = Some(Action::draft(
                        format!("Plan {} here", u.name),
                        &["LIB-START-04", "LIB-START-05"],
                        "/placements",
                        Some("unit"),
                        to_json(&p),
                    ));
                }
                Err(e) => {
                    m.within = 0.0;
                    refuse(&mut m, e.rule.as_str(), e.reason);
                }
            }
            Some(m)
        }
        Phase::Turn { stage: Stage::Declare, .. } if u.gun.is_some() => {
            measure_gun(r, st, side, u, front, facing, m)
        }
        Phase::Turn { stage: Stage::Declare, .. } => {
            if u.strength() == 0 {
                return None;
            }
            // Dropped on an enemy: a liberal move to assault it.
            let foe = st
                .units
                .iter()
                .find(|e| e.side != side && e.present() && r.footprint(e).contains(req.to));
            if let Some(e) = foe {
                return Some(measure_liberal(r, st, side, u, Objective::Unit { unit: e.id }, m));
            }
            let mut form = if u.place.formation == Formation::House {
                Formation::Line
            } else {
                u.place.formation
            };
            if r.house_at(st, front).is_some() {
                form = Formation::House;
            }
            let road = matches!(form, Formation::Column | Formation::RoadColumn)
                && r.on_road(st, u.place.at, front);
            let (allowance, basis) = r.allowance(st, u, form, road);
            let cost = r.move_cost(u, &u.place, &Place { at: front, facing, formation: form });
            if cost > allowance + 1e-6 {
                return Some(measure_liberal(r, st, side, u, Objective::Point { at: front }, m));
            }
            m.cost = cost;
            m.allowance = allowance;
            m.within = length;
            m.notes.push(format!("{}\" a normal move: {basis} [LIB-CHOICE-02]", inches(allowance)));
            let wheel = cost - u.place.at.distance(front);
            if wheel > 0.05 {
                m.notes.push(format!(
                    "{}\" of it the wheel of the outer figure [LIB-M-06]",
                    inches(wheel)
                ));
            }
            if form == Formation::House {
                m.notes.push("into the house [LIB-HOUSE-01]".into());
            }
            m.notes.push("drag beyond the allowance, or onto an enemy, for a liberal move".into());
            let o = Order {
                unit: id,
                choice: Choice::Normal {
                    to: front,
                    facing: Some(facing.bearing_degrees()),
                    formation: None,
                    mount: None,
                    target: None,
                },
            };
            match r.check(st, Actor::Side(side), &Command::Declare { orders: vec![o.clone()] }) {
                Ok(()) => {
                    m.action = Some(order_action(
                        st,
                        format!("{}: normal move {}\"", u.name, inches(u.place.at.distance(front))),
                        &["LIB-CHOICE-02", "LIB-CHOICE-09"],
                        &o,
                    ))
                }
                Err(e) => refuse(&mut m, e.rule.as_str(), e.reason),
            }
            Some(m)
        }
        _ => None,
    }
}

fn measure_liberal(
    r: &Liberal,
    st: &State,
    side: Side,
    u: &Unit,
    objective: Objective,
    mut m: Measurement,
) -> Measurement {
    let plan = r.plan_liberal(st, u.id, objective, None, PREVIEW_STEPS);
    let mut path = vec![r.footprint(u).centre];
    let mut notes = Vec::new();
    let aim = match objective {
        Objective::Unit { unit } => format!("to assault {}", st.units[unit].name),
        Objective::Point { at } => {
            format!("to the point ({}, {})", inches(at.x), inches(at.y))
        }
    };
    let allowance = plan.first().map_or(0.0, |p| p.0.allowance);
    notes.push(format!(
        "liberal move {aim}: in steps of {}\" ({}) [LIB-LIBERAL-04]",
        inches(allowance),
        plan.first().map_or(String::new(), |p| p.0.basis.clone())
    ));
    let mut used = 0.0;
    let mut total = 0.0;
    for (k, (step, fire)) in plan.iter().enumerate() {
        let mut moved = u.clone();
        moved.place = step.to;
        path.push(r.footprint(&moved).centre);
        used += step.used;
        let sum: f64 = fire.iter().map(|f| f.1).sum();
        total += sum;
        let who: Vec<String> =
            fire.iter().map(|(e, x)| format!("{} {x:.1}", st.units[*e].name)).collect();
        let contact = match step.met {
            Some(e) => format!(", contact with {}", st.units[e].name),
            None => String::new(),
        };
        notes.push(format!(
            "step {}: {}\"{contact}; fire ≈{sum:.1}{} [LIB-LIBERAL-05, LIB-R-08]",
            k + 1,
            inches(step.used),
            if who.is_empty() {
                " (no enemy in range)".to_string()
            } else {
                format!(": {}", who.join(", "))
            }
        ));
    }
    let arrived = plan.last().is_some_and(|p| p.0.arrived || p.0.met.is_some());
    if !arrived {
        notes.push(format!("not there after {} steps", plan.len()));
    }
    notes.push(format!("≈{total:.1} casualties expected in all, of {} in the ranks", u.strength()));
    let length: f64 = path.windows(2).map(|w| w[0].distance(w[1])).sum();
    m.path = path;
    m.length = length;
    // A liberal move has no limit on its length (LIB-LIBERAL-01): the whole path is allowed;
    // each step's allowance is in the notes.
    m.cost = used;
    m.allowance = used.max(allowance);
    m.within = length;
    m.notes = notes;
    let o = Order { unit: u.id, choice: Choice::Liberal { objective, formation: None } };
    match r.check(st, Actor::Side(side), &Command::Declare { orders: vec![o.clone()] }) {
        Ok(()) => {
            m.action = Some(order_action(
                st,
                format!(
                    "{}: liberal move {aim}, {} step{}, ≈{total:.1} casualties expected",
                    u.name,
                    plan.len(),
                    if plan.len() == 1 { "" } else { "s" }
                ),
                &["LIB-LIBERAL-02", "LIB-LIBERAL-04"],
                &o,
            ))
        }
        Err(e) => {
            m.rule = Some(e.rule.as_str().to_string());
            m.reason = Some(e.reason);
        }
    }
    m
}

fn measure_gun(
    r: &Liberal,
    st: &State,
    side: Side,
    u: &Unit,
    front: Point,
    facing: Facing,
    mut m: Measurement,
) -> Option<Measurement> {
    let g = u.gun.as_ref()?;
    let road = r.on_road(st, u.place.at, front);
    let (allowance, basis) = r.allowance(st, u, u.place.formation, road);
    let to = Place { at: front, facing, formation: u.place.formation };
    let cost = r.move_cost(u, &u.place, &to);
    m.cost = cost;
    m.allowance = allowance;
    m.within = if cost <= allowance + 1e-6 || cost <= 0.0 {
        m.length
    } else {
        m.length * (allowance / cost).clamp(0.0, 1.0)
    };
    m.notes.push(format!("{}\" a move: {basis} [LIB-CHOICE-04]", inches(allowance)));
    let mut choice = Choice::Gun {
        to: Some(front),
        facing: Some(facing.bearing_degrees()),
        target: None,
        shot: Shot::Round,
    };
    let plain = Order { unit: u.id, choice: choice.clone() };
    if let Err(e) = r.check(st, Actor::Side(side), &Command::Declare { orders: vec![plain] }) {
        m.rule = Some(e.rule.as_str().to_string());
        m.reason = Some(e.reason);
        return Some(m);
    }
    let mut label = format!("{}: move {}\"", u.name, inches(u.place.at.distance(front)));
    // A horse gun may move and fire: at the best target from where it ends (LIB-ART-04).
    if r.data.guns[r.gun_kind(g)].move_and_fire {
        let mut s = st.clone();
        s.units[u.id].place = to;
        let foes = present_foes(st, side);
        if let Some((t, shot)) = crate::turn::best_target(r, &s, u.id, true, &foes) {
            let shot = shot.unwrap_or(Shot::Round);
            let with = Choice::Gun {
                to: Some(front),
                facing: Some(facing.bearing_degrees()),
                target: Some(t),
                shot,
            };
            let o = Order { unit: u.id, choice: with.clone() };
            if declare_ok(r, st, side, &o) {
                choice = with;
                label = format!(
                    "{label} and fire {} at {}",
                    if shot == Shot::Grape { "grape" } else { "round shot" },
                    st.units[t].name
                );
                m.notes.push("a horse gun moves and fires [LIB-ART-04]".into());
            }
        }
    } else {
        m.notes.push("a foot gun that moves does not fire this turn [LIB-ART-04]".into());
    }
    let o = Order { unit: u.id, choice };
    m.action = Some(order_action(st, label, &["LIB-SEQ-03", "LIB-CHOICE-04"], &o));
    Some(m)
}

/// The roster sheet: every unit's figures in the ranks and lost by fate, its formation, flag,
/// gun and the order it was given this turn (orders are public: LIB-LIBERAL-02).
pub fn roster(r: &Liberal, st: &State, _viewer: Viewer) -> Vec<RosterRow> {
    let (orders, movers) = match &st.phase {
        Phase::Turn { orders, movers, .. } => (orders.clone(), movers.clone()),
        _ => (Vec::new(), Vec::new()),
    };
    st.units
        .iter()
        .filter(|u| !u.figures.is_empty() || u.gun.is_some())
        .map(|u| {
            let count =
                |f: &dyn Fn(&Status) -> bool| u.figures.iter().filter(|x| f(&x.status)).count();
            let dead = count(&|s| *s == Status::Dead);
            let wounded = count(&|s| matches!(s, Status::Wounded { .. } | Status::Evacuated));
            let walking = count(&|s| *s == Status::Hospital);
            let ran = count(&|s| *s == Status::Ran);
            let captured = count(&|s| *s == Status::Captured);
            let mut losses = Vec::new();
            for (n, what) in [
                (dead, "dead"),
                (wounded, "wounded"),
                (walking, "walking wounded"),
                (ran, "ran"),
                (captured, "captured"),
            ] {
                if n > 0 {
                    losses.push(format!("{n} {what}"));
                }
            }
            let officers: Vec<&str> = [
                (Role::Commander, "commander"),
                (Role::Second, "second"),
                (Role::Colours, "colours"),
            ]
            .into_iter()
            .filter(|(role, _)| {
                u.figures.iter().any(|f| f.role == *role && f.status == Status::Ranks)
            })
            .map(|(_, w)| w)
            .collect();
            let mut state = Vec::new();
            match &u.gun {
                Some(g) => {
                    state.push(if g.destroyed {
                        "gun destroyed".to_string()
                    } else if g.spiked {
                        "gun spiked".to_string()
                    } else if u.strength() < r.data.rules.artillery.crew_needed {
                        "gun unmanned".to_string()
                    } else {
                        format!("gun ready, {} artillerymen", r.artillerymen(u))
                    });
                }
                None => {
                    state.push(u.place.formation.name().to_string());
                    if r.data.troops[u.troop].kind == Kind::Horse {
                        state.push(if u.mounted { "mounted" } else { "dismounted" }.into());
                    }
                }
            }
            state.push(
                match u.flag {
                    Flag::None => "no colours",
                    Flag::Carried => "colours carried",
                    Flag::Retired => "colours retired",
                    Flag::Lost => "colours lost",
                }
                .into(),
            );
            if !officers.is_empty() && u.gun.is_none() {
                state.push(format!("in the ranks: {}", officers.join(", ")));
            }
            if let Some(h) = u.house {
                state.push(format!("holds {}", st.table.areas[h].name));
            }
            if let Some(o) = orders.iter().find(|o| o.unit == u.id) {
                state.push(format!("order: {}", describe_choice(st, &o.choice)));
            }
            if let Some(m) = movers.iter().find(|m| m.unit == u.id) {
                state.push(format!(
                    "liberal move: {} step{}, {}",
                    m.steps,
                    if m.steps == 1 { "" } else { "s" },
                    match m.leg {
                        Leg::Forward => "going forward",
                        Leg::Back => "going back",
                        Leg::Done => "done",
                    }
                ));
            }
            if !u.present() {
                state.insert(0, "gone from the table".into());
            }
            RosterRow {
                side: u.side.to_string(),
                unit: u.id.to_string(),
                label: u.name.clone(),
                kind: match &u.gun {
                    Some(g) => r.data.guns[r.gun_kind(g)].name.clone(),
                    None => r.data.troops[u.troop].name.clone(),
                },
                strength: format!("{} of {}", u.strength(), u.figures.len()),
                losses: if losses.is_empty() { "none".into() } else { losses.join(", ") },
                state: state.join(", "),
            }
        })
        .collect()
}

/// A choice in words.
pub fn describe_choice(st: &State, c: &Choice) -> String {
    let name = |u: UnitId| st.units.get(u).map_or(format!("unit {u}"), |x| x.name.clone());
    match c {
        Choice::StandFast { target: None } => "stand fast".into(),
        Choice::StandFast { target: Some(t) } => format!("stand fast, fire at {}", name(*t)),
        Choice::Normal { mount: Some(m), .. } => if *m { "mount" } else { "dismount" }.into(),
        Choice::Normal { to, formation, .. } => match formation {
            Some(f) => {
                format!("normal move to ({}, {}) in {}", inches(to.x), inches(to.y), f.name())
            }
            None => format!("normal move to ({}, {})", inches(to.x), inches(to.y)),
        },
        Choice::Liberal { objective: Objective::Unit { unit }, .. } => {
            format!("liberal move to assault {}", name(*unit))
        }
        Choice::Liberal { objective: Objective::Point { at }, .. } => {
            format!("liberal move to ({}, {})", inches(at.x), inches(at.y))
        }
        Choice::Gun { to, target, shot, .. } => {
            let mut v = Vec::new();
            if let Some(p) = to {
                v.push(format!("move to ({}, {})", inches(p.x), inches(p.y)));
            }
            match target {
                Some(t) => v.push(format!(
                    "fire {} at {}",
                    if *shot == Shot::Grape { "grape" } else { "round shot" },
                    name(*t)
                )),
                None => v.push("hold fire".into()),
            }
            v.join(", ")
        }
        Choice::Spike { gun } => format!("spike {}", name(*gun)),
        Choice::Crew { gun, figures } => format!("send {figures} to crew {}", name(*gun)),
    }
}
