//! The written orders before the battle as a draft, and the menu of orders a unit may be
//! given, written or dictated (WRG-ORD-01 .. -04, -09, -11, -13, WRG-MOVE-08, -14).

use super::{passes, unit_name};
use crate::orders::{Formation, Objective, Order, Verb};
use crate::rules_impl::{Command, Wrg1969};
use crate::scenario::{eye, sees_area};
use crate::state::{State, Unit, Written};
use tabletop::controls::{Action, Controls, Draft, Drag, UnitControl};
use tabletop::rules::Side;

/// One order a unit might be given: its label, its rules, the order (none: it waits).
pub(super) struct Choice {
    pub label: String,
    pub rules: &'static [&'static str],
    pub order: Option<Order>,
}

/// The orders worth offering a unit standing where it stands: hold, advance to or hold each
/// feature it can see, advance along its front, attack (or, for light troops, skirmish
/// against) each enemy unit on the table, evade (troops that may), wheel, retire straight back
/// (WRG-ORD-01, -03, -04, -09, -11, WRG-MOVE-08, -14). Whether each is legal is for `check`.
pub(super) fn choices(rules: &Wrg1969, st: &State, u: &Unit) -> Vec<Choice> {
    let data = rules.data_for(st);
    let mut out = Vec::new();
    let mut add = |label: String, rules: &'static [&'static str], verb: Verb| {
        out.push(Choice { label, rules, order: Some(Order::new(verb)) });
    };
    add("Hold where they stand".into(), &["WRG-ORD-01"], Verb::Hold { at: None });
    for (i, a) in st.table.areas.iter().enumerate() {
        if !sees_area(&st.table, u.at, eye(u.troop), i) {
            continue;
        }
        let id = Objective::Feature { id: a.name.clone() };
        add(
            format!("Advance to {}", a.name),
            &["WRG-ORD-03", "WRG-ORD-04"],
            Verb::Advance { to: id.clone() },
        );
        add(format!("Hold {}", a.name), &["WRG-ORD-01", "WRG-ORD-03"], Verb::Hold { at: Some(id) });
    }
    let ahead = round(u.facing.bearing_degrees());
    add(
        format!("Advance straight ahead (bearing {ahead}°)"),
        &["WRG-ORD-03", "WRG-ORD-04"],
        Verb::Advance { to: Objective::Bearing { degrees: ahead } },
    );
    for e in st.units.iter().filter(|e| e.side != u.side && e.on_table()) {
        add(
            format!("Attack {}", e.name),
            &["WRG-ORD-01", "WRG-MOVE-04"],
            Verb::Attack { unit: e.id },
        );
        if u.troop.is_light() {
            let skirmish = Verb::Skirmish { unit: e.id };
            add(format!("Skirmish against {}", e.name), &["WRG-ORD-11", "WRG-ORD-12"], skirmish);
        }
    }
    if crate::moves::can_evade(&data, u.troop) {
        add("Evade whatever charges them".into(), &["WRG-ORD-09", "WRG-MOVE-08"], Verb::Evade);
    }
    for (deg, words) in
        [(90.0, "90° right"), (-90.0, "90° left"), (45.0, "45° right"), (-45.0, "45° left")]
    {
        add(
            format!("Wheel {words}, then halt"),
            &["WRG-ORD-01", "WRG-MOVE-14"],
            Verb::Wheel { degrees: deg },
        );
    }
    let back = round((u.facing.bearing_degrees() + 180.0).rem_euclid(360.0));
    add(
        format!("Retire straight back (bearing {back}°)"),
        &["WRG-ORD-01", "WRG-ORD-04"],
        Verb::Retire { to: Objective::Bearing { degrees: back } },
    );
    out
}

fn round(deg: f64) -> f64 {
    let r = deg.round();
    if r >= 360.0 { r - 360.0 } else { r }
}

/// The draft of the side's written orders (every unit with the order it has now: the
/// scenario's), and per unit the orders `check` accepts in its place.
pub(super) fn write_controls(rules: &Wrg1969, st: &State, side: Side, out: &mut Controls) {
    let own: Vec<&Unit> = st.units.iter().filter(|u| u.side == side).collect();
    let orders: Vec<Written> =
        own.iter().map(|u| Written { unit: u.id, order: u.standing.order().cloned() }).collect();
    let base = match serde_json::to_value(Command::Write { orders }) {
        Ok(v) => v,
        Err(_) => return,
    };
    for u in own {
        let mut menu = choices(rules, st, u);
        menu.push(Choice {
            label: "No order: wait where they stand".into(),
            rules: &["WRG-ORD-13"],
            order: None,
        });
        let mut actions = Vec::new();
        for c in menu {
            let Ok(value) = serde_json::to_value(Written { unit: u.id, order: c.order }) else {
                continue;
            };
            let mut trial = base.clone();
            if tabletop::controls::apply_draft(&mut trial, "/orders", Some("unit"), &value)
                && passes(rules, st, side, &trial)
            {
                actions.push(Action::draft(c.label, c.rules, "/orders", Some("unit"), value));
            }
        }
        let (allowance, allowance_text) = super::plan::allowance(rules, st, u);
        out.units.push(UnitControl {
            unit: u.id.to_string(),
            label: u.name.to_string(),
            allowance: Some(allowance),
            allowance_text,
            drag: Drag::None,
            actions,
        });
    }
    out.draft = Some(Draft {
        command: base,
        label: "Send the written orders".into(),
        rules: vec!["WRG-ORD-01".into(), "WRG-ORD-03".into()],
    });
}

/// An order in words ("advance to The ford, in column, at half pace").
pub fn order_words(st: &State, o: &Order) -> String {
    let place = |obj: &Objective| match obj {
        Objective::Point { x, y } => format!("the point ({x:.1}, {y:.1})"),
        Objective::Feature { id } => id.clone(),
        Objective::Bearing { degrees } => format!("bearing {degrees:.0}°"),
    };
    let mut s = match &o.verb {
        Verb::Advance { to } => format!("advance to {}", place(to)),
        Verb::Attack { unit } => format!("attack {}", unit_name(st, *unit)),
        Verb::Hold { at: None } => "hold".into(),
        Verb::Hold { at: Some(at) } => format!("hold {}", place(at)),
        Verb::Skirmish { unit } => format!("skirmish against {}", unit_name(st, *unit)),
        Verb::Evade => "evade".into(),
        Verb::Wheel { degrees } if *degrees >= 0.0 => format!("wheel {degrees:.0}° right"),
        Verb::Wheel { degrees } => format!("wheel {:.0}° left", -degrees),
        Verb::Retire { to } => format!("retire to {}", place(to)),
    };
    if !o.route.is_empty() {
        s.push_str(&format!(" by {} route points", o.route.len()));
    }
    if let Some(f) = o.formation {
        let f = match f {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Square => "square",
            Formation::Skirmish => "skirmish order",
        };
        s.push_str(&format!(", in {f}"));
    }
    if let Some(p) = o.pace {
        s.push_str(&format!(", at {:.0}% pace", p * 100.0));
    }
    for (flag, words) in [
        (o.no_evade, ", not to evade"),
        (o.no_countercharge, ", not to countercharge"),
        (o.hold_fire, ", holding fire"),
    ] {
        if flag {
            s.push_str(words);
        }
    }
    s
}
