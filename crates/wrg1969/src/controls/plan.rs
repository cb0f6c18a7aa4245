//! A period's secret plan as a draft (WRG-R-08): each unit's legal steps, its allowance and
//! free drag, the orders the General may dictate, his signals, his ride, and breaking off
//! (WRG-MOVE-02 .. -05, -14 .. -16, WRG-ORD-05, WRG-CHORD-01 .. -10, WRG-RRES-05, WRG-BRK-01).

use super::orders::{choices, order_words};
use super::{passes, troop_words, unit_name};
use crate::ground::WrgGround;
use crate::moves::Going;
use crate::orders::Order;
use crate::plan::{Dictation, GeneralMove, Plan, Step, UnitMove};
use crate::rules_impl::{Command, Wrg1969};
use crate::state::{State, Unit};
use serde_json::Value;
use tabletop::controls::apply_draft;
use tabletop::controls::{Action, Controls, Draft, Drag, UnitControl};
use tabletop::rules::Side;
use tabletop::terrain::cost::path_cost;

/// Inches in words: whole numbers without decimals.
pub(super) fn inches(x: f64) -> String {
    if (x - x.round()).abs() < 1e-6 { format!("{:.0}\"", x) } else { format!("{x:.1}\"") }
}

/// A unit's move allowance this period and what sets it: its troop type's normal move (T3),
/// the pace its order sets, and the ground it stands on (WRG-MOVE-02, WRG-ORD-02,
/// WRG-TERR-03, -04, WRG-CHAMP-02). The same allowance the plan's check applies.
pub(super) fn allowance(rules: &Wrg1969, st: &State, u: &Unit) -> (f64, String) {
    let data = rules.data_for(st);
    let normal = data.moves(u.troop).normal;
    let order = u.standing.order();
    let pace = order.map_or(1.0, Order::pace);
    let a = normal * pace;
    let mut text = format!("{} ({} normal move, T3 [WRG-MOVE-02]", inches(a), troop_words(u.troop));
    if pace < 1.0 {
        text.push_str(&format!(
            "; {} at {:.0}% pace by its order [WRG-ORD-02]",
            inches(normal),
            pace * 100.0
        ));
    }
    text.push_str(&format!("; {} figures {} abreast", u.block.figures, u.block.files));
    if let Some(f) = order.and_then(|o| o.formation) {
        let f = format!("{f:?}").to_lowercase();
        text.push_str(&format!(", ordered to move in {f} [WRG-ORD-02]"));
    }
    let model = WrgGround { data: &data, troop: u.troop };
    let probe = [u.at, u.at + u.facing.vector() * 0.01];
    let going = path_cost(&st.table, &probe, &model)
        .ok()
        .and_then(|c| c.pieces.first().and_then(|p| model.going(&st.table, &p.ground)));
    let per = |g: Going| inches(crate::moves::cost_per_inch(&data, u.troop, g));
    match going {
        Some(Going::Bad) => text.push_str(&format!(
            "; standing in bad going: each inch of it costs {} [WRG-TERR-04]",
            per(Going::Bad)
        )),
        Some(Going::Stream) => text.push_str(&format!(
            "; standing in the stream bed: each inch of it costs {} [WRG-CHAMP-02]",
            per(Going::Stream)
        )),
        Some(Going::Ford) => text.push_str("; at a ford: no penalty [WRG-TERR-03]"),
        _ => {}
    }
    text.push(')');
    (a, text)
}

/// The steps worth offering a unit: halt, charge each enemy unit, wheel, step back, re-form
/// (WRG-ORD-05, WRG-MOVE-03, -04, -05, -14, -15, -16). Whether each is legal is for `check`.
fn steps(st: &State, u: &Unit) -> Vec<(String, &'static [&'static str], Step)> {
    let mut out: Vec<(String, &'static [&'static str], Step)> =
        vec![("Halt".into(), &["WRG-ORD-05"], Step::Halt)];
    for e in st.units.iter().filter(|e| e.side != u.side && e.on_table()) {
        out.push((
            format!("Charge {}", e.name),
            &["WRG-MOVE-04", "WRG-MOVE-05"],
            Step::Charge { target: e.id },
        ));
    }
    for (deg, words) in
        [(45.0, "45° right"), (-45.0, "45° left"), (90.0, "90° right"), (-90.0, "90° left")]
    {
        out.push((format!("Wheel {words}"), &["WRG-MOVE-14"], Step::Wheel { degrees: deg }));
    }
    for inches in [1.0, 2.0, 3.0] {
        out.push((format!("Step back {inches:.0}\""), &["WRG-MOVE-03"], Step::StepBack { inches }));
    }
    let figs = u.block.figures;
    let mut files: Vec<u32> = vec![u.block.files / 2, u.block.files * 2, figs];
    files.retain(|&f| f >= 1 && f <= figs && f != u.block.files);
    files.sort_unstable();
    files.dedup();
    for f in files {
        let ranks = figs.div_ceil(f);
        out.push((
            format!("Re-form {f} abreast ({ranks} rank{})", if ranks == 1 { "" } else { "s" }),
            &["WRG-MOVE-15", "WRG-MOVE-16"],
            Step::Form { files: f },
        ));
    }
    out
}

/// Pushes `action` when `value` at `at` (keyed by `key`) keeps the draft `base` legal.
fn offer(
    rules: &Wrg1969,
    st: &State,
    side: Side,
    base: &Value,
    (at, key): (&str, Option<&str>),
    (label, rule_ids, value): (String, &[&str], Value),
    out: &mut Vec<Action>,
) {
    let mut trial = base.clone();
    if apply_draft(&mut trial, at, key, &value) && passes(rules, st, side, &trial) {
        out.push(Action::draft(label, rule_ids, at, key, value));
    }
}

/// The plan's draft (an empty plan: every unit follows its order) and each unit's menu.
pub(super) fn plan_controls(rules: &Wrg1969, st: &State, side: Side, out: &mut Controls) {
    let Ok(base) = serde_json::to_value(Command::Plan(Plan::default())) else { return };
    let data = rules.data_for(st);
    let contacts = crate::melee_phase::contacts(&data, st);
    for u in st.units.iter().filter(|u| u.side == side && u.on_table()) {
        let (allowance, mut allowance_text) = allowance(rules, st, u);
        let stay =
            UnitMove { unit: u.id, step: Step::MoveTo { x: u.at.x, y: u.at.y, facing: None } };
        let drag = match crate::move_phase::check_move(&data, st, side, &stay) {
            Ok(()) => Drag::Free,
            Err(r) => {
                allowance_text
                    .push_str(&format!("; not to be moved now: {} [{}]", r.reason, r.rule));
                Drag::None
            }
        };
        let mut actions = Vec::new();
        for (label, rule_ids, step) in steps(st, u) {
            let Ok(value) = serde_json::to_value(UnitMove { unit: u.id, step }) else { continue };
            let slot = ("/moves", Some("unit"));
            offer(rules, st, side, &base, slot, (label, rule_ids, value), &mut actions);
        }
        let attached = crate::state::general(st, side).is_some_and(|g| g.attached == Some(u.id));
        let (how, how_rules): (&str, &[&str]) = if u.awaiting_order {
            ("Order at once (after its test)", &["WRG-RRES-05"])
        } else if attached {
            ("Order at once (the General is with them)", &["WRG-CHORD-10"])
        } else {
            ("Send a messenger", &["WRG-CHORD-01", "WRG-CHORD-02"])
        };
        for c in choices(rules, st, u) {
            let Some(order) = c.order else { continue };
            let Ok(value) = serde_json::to_value(Dictation { unit: u.id, order }) else { continue };
            let label = format!("{how}: {}", lower_first(&c.label));
            let ids: Vec<&str> = how_rules.iter().chain(c.rules).copied().collect();
            let slot = ("/dictate", Some("unit"));
            offer(rules, st, side, &base, slot, (label, &ids, value), &mut actions);
        }
        if contacts.iter().any(|&(a, b)| a == u.id || b == u.id) {
            // The plan lists the units that break off; the client sets the list whole.
            let label = "Break off the fight and retire".to_string();
            let part = (label, &["WRG-BRK-01"][..], serde_json::json!([u.id]));
            offer(rules, st, side, &base, ("/break_off", None), part, &mut actions);
        }
        out.units.push(UnitControl {
            unit: u.id.to_string(),
            label: u.name.to_string(),
            allowance: Some(allowance),
            allowance_text,
            drag,
            actions,
        });
    }
    general_control(rules, st, side, &base, out);
    let signals = st.signals.get(side.index()).map_or(&[][..], Vec::as_slice);
    for (k, (order, units)) in signals.iter().enumerate() {
        let to = if units.is_empty() {
            "every unit within 25\" that sees the General".to_string()
        } else {
            units.iter().map(|&i| unit_name(st, i)).collect::<Vec<_>>().join(", ")
        };
        let label = format!("Give signal {}: {} (for {to})", k + 1, order_words(st, order));
        let value = Value::from(k as u64);
        let ids: &[&str] = &["WRG-CHORD-07", "WRG-CHORD-08", "WRG-CHORD-09"];
        offer(rules, st, side, &base, ("/signal", None), (label, ids, value), &mut out.actions);
    }
    out.draft = Some(Draft {
        command: base,
        label: format!("Send the plan for period {}", st.period + 1),
        rules: vec!["WRG-R-08".into(), "WRG-MOVE-01".into()],
    });
}

/// The General as a unit of the controls: his ride dragged freely, joining a unit, staying
/// (WRG-CHORD-04, -10, WRG-M-02).
fn general_control(rules: &Wrg1969, st: &State, side: Side, base: &Value, out: &mut Controls) {
    let data = rules.data_for(st);
    let Some(g) = crate::state::general(st, side).filter(|g| !g.risk.fallen(&data)) else {
        return;
    };
    let (ride, gallop) = crate::riders::general_speeds(&data, g);
    let mut actions = Vec::new();
    let stay = ("Stay where he is".to_string(), &["WRG-CHORD-04"][..], Value::Null);
    offer(rules, st, side, base, ("/general", None), stay, &mut actions);
    for u in st.units.iter().filter(|u| u.side == side && u.on_table()) {
        let Ok(value) =
            serde_json::to_value(GeneralMove { x: u.at.x, y: u.at.y, join: Some(u.id) })
        else {
            continue;
        };
        let label = format!("Ride to {} and take command at their head", u.name);
        let ids: &[&str] = &["WRG-CHORD-04", "WRG-CHORD-10"];
        offer(rules, st, side, base, ("/general", None), (label, ids, value), &mut actions);
    }
    let here = GeneralMove { x: g.at.x, y: g.at.y, join: None };
    let mut trial = base.clone();
    let movable = serde_json::to_value(here).is_ok_and(|v| {
        apply_draft(&mut trial, "/general", None, &v) && passes(rules, st, side, &trial)
    });
    out.units.push(UnitControl {
        unit: crate::state::general_piece(side),
        label: "General".into(),
        allowance: Some(if g.galloped { ride } else { gallop }),
        allowance_text: format!(
            "{} a period at his figure's pace, ground paid for{} [WRG-CHORD-04, WRG-CHORD-03, WRG-M-01]",
            inches(ride),
            if g.galloped {
                String::new()
            } else {
                format!(", {} for the one period at the gallop this trip", inches(gallop))
            }
        ),
        drag: if movable { Drag::Free } else { Drag::None },
        actions,
    });
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}
