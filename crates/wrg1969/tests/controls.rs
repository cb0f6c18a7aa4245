//! The browser client's controls for WRG 1969: the written orders and each period's plan as
//! drafts whose every menu action passes `check`, dragged moves measured over the table with
//! the plan check's verdict, and roster sheets that never show a side the other's orders.

use serde_json::Value;
use std::sync::Arc;
use tabletop::controls::{Action, Controls, Drag, Effect, MeasureRequest, apply_draft};
use tabletop::game::Game;
use tabletop::geometry::{Facing, Point};
use tabletop::rules::{Actor, RuleSet, Side, Viewer};
use wrg1969::orders::Verb;
use wrg1969::{Command, Wrg1969};

fn the_ford() -> Game<Wrg1969> {
    the_ford_with("")
}

/// The ford, with `extra` appended to the file (to blue's side, the last).
fn the_ford_with(extra: &str) -> Game<Wrg1969> {
    let path = format!("{}/../../scenarios/wrg1969/the_ford.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("the scenario is there") + extra;
    Game::new(Arc::new(Wrg1969::new()), tabletop::Source::new("the_ford.toml", text), 7)
        .expect("the scenario loads")
}

/// Applies a draft part the way the browser client does (see `Effect::Draft`).
fn apply(draft: &mut Value, action: &Action) {
    let Effect::Draft { at, key, value } = &action.effect else {
        panic!("{} is not a draft part", action.label)
    };
    assert!(draft.pointer(at).is_some(), "{at} is not in the draft {draft}");
    assert!(apply_draft(draft, at, key.as_deref(), value));
}

fn command(draft: &Value) -> Command {
    serde_json::from_value(draft.clone()).unwrap_or_else(|e| panic!("{draft}: {e}"))
}

fn check(g: &Game<Wrg1969>, side: Side, draft: &Value) -> Result<(), String> {
    g.rules()
        .check(g.state(), Actor::Side(side), &command(draft))
        .map_err(|r| format!("[{}] {}", r.rule.as_str(), r.reason))
}

fn controls(g: &Game<Wrg1969>, side: Side) -> Controls {
    g.rules().controls(g.state(), side)
}

/// Every action of the controls, with the unit it belongs to ("" for none).
fn all_actions(c: &Controls) -> Vec<(String, &Action)> {
    let mut out: Vec<(String, &Action)> =
        c.units.iter().flat_map(|u| u.actions.iter().map(move |a| (u.label.clone(), a))).collect();
    out.extend(c.actions.iter().map(|a| (String::new(), a)));
    out
}

/// Every action, put alone into the draft, leaves a command that `check` accepts; and each
/// names its rules.
fn every_action_passes(g: &Game<Wrg1969>, side: Side, c: &Controls) -> usize {
    let draft = c.draft.as_ref().expect("a draft");
    check(g, side, &draft.command).expect("the draft as it stands passes");
    let mut n = 0;
    for (unit, a) in all_actions(c) {
        assert!(!a.rules.is_empty(), "{unit}: {} names no rule", a.label);
        assert!(a.rules.iter().all(|r| r.starts_with("WRG-")), "{unit}: {:?}", a.rules);
        let mut d = draft.command.clone();
        apply(&mut d, a);
        if let Err(e) = check(g, side, &d) {
            panic!("{side} {unit}: `{}` is refused: {e}", a.label);
        }
        n += 1;
    }
    n
}

fn labels<'a>(c: &'a Controls, unit: &str) -> Vec<&'a str> {
    let u = c.units.iter().find(|u| u.label == unit).unwrap_or_else(|| panic!("no {unit}"));
    u.actions.iter().map(|a| a.label.as_str()).collect()
}

fn unit_id(g: &Game<Wrg1969>, name: &str) -> u16 {
    g.state().units.iter().find(|u| &*u.name == name).map(|u| u.id).expect("the unit")
}

/// Both sides send their written-orders drafts as they stand.
fn write_both(g: &mut Game<Wrg1969>) {
    for side in Side::BOTH {
        let c = controls(g, side);
        let cmd = command(&c.draft.expect("a draft").command);
        g.submit(Actor::Side(side), cmd).expect("the written orders are accepted");
    }
}

// Checks WRG-ORD-01, WRG-ORD-03, WRG-ORD-11, WRG-ORD-13.
#[test]
fn the_written_orders_draft_and_every_order_choice_pass_check() {
    let g = the_ford();
    for side in Side::BOTH {
        let c = controls(&g, side);
        assert_eq!(c.prompt, "write your orders");
        let own = g.state().units.iter().filter(|u| u.side == side).count();
        assert_eq!(c.units.len(), own, "every unit of {side} is offered");
        assert!(c.units.iter().all(|u| u.drag == Drag::None && !u.actions.is_empty()));
        // The draft writes every unit the order it has now (the scenario's).
        let draft = c.draft.as_ref().unwrap();
        let Command::Write { orders } = command(&draft.command) else { panic!("not a Write") };
        assert_eq!(orders.len(), own);
        for w in &orders {
            let u = &g.state().units[w.unit as usize];
            assert_eq!(w.order.as_ref(), u.standing.order(), "{}", u.name);
        }
        let n = every_action_passes(&g, side, &c);
        assert!(n > own * 5, "{side}: only {n} choices");
    }
    let red = controls(&g, Side::Red);
    let hoplites = labels(&red, "Hoplites of the right");
    for want in ["Hold where they stand", "Advance to The ford", "Attack Gallic warband"] {
        assert!(hoplites.contains(&want), "{want} missing: {hoplites:?}");
    }
    // Heavy foot neither skirmish (WRG-ORD-11) nor evade (WRG-MOVE-08); light foot may.
    assert!(!hoplites.iter().any(|l| l.starts_with("Skirmish") || l.starts_with("Evade")));
    let peltasts = labels(&red, "Thracian peltasts");
    assert!(peltasts.contains(&"Skirmish against Numidian light horse"), "{peltasts:?}");
    assert!(peltasts.contains(&"Evade whatever charges them"));
    // A feature out of sight is not offered (WRG-ORD-03): each offered one passed check.
    assert!(hoplites.contains(&"No order: wait where they stand"));
}

// Checks WRG-ORD-01.
#[test]
fn an_order_chosen_in_the_menu_is_sent_with_the_draft_and_taken() {
    let mut g = the_ford();
    let c = controls(&g, Side::Red);
    let mut draft = c.draft.clone().unwrap().command;
    let unit = c.units.iter().find(|u| u.label == "Hoplites of the right").unwrap();
    let attack = unit.actions.iter().find(|a| a.label == "Attack Gallic warband").unwrap();
    apply(&mut draft, attack);
    g.submit(Actor::Side(Side::Red), command(&draft)).expect("accepted");
    let u = &g.state().units[unit_id(&g, "Hoplites of the right") as usize];
    let gauls = unit_id(&g, "Gallic warband");
    assert_eq!(u.standing.order().map(|o| &o.verb), Some(&Verb::Attack { unit: gauls }));
    // Red has written: it now waits for blue, with nothing to do.
    let c = controls(&g, Side::Red);
    assert!(c.units.is_empty() && c.draft.is_none(), "{c:?}");
    assert!(c.prompt.starts_with("wait for blue"), "{}", c.prompt);
}

// Checks WRG-R-08, WRG-MOVE-02, WRG-CHORD-04.
#[test]
fn the_plan_draft_and_every_unit_action_pass_check() {
    let mut g = the_ford();
    write_both(&mut g);
    for side in Side::BOTH {
        let c = controls(&g, side);
        assert_eq!(c.prompt, "plan period 1");
        let n = every_action_passes(&g, side, &c);
        assert!(n > 0);
        for u in c.units.iter().filter(|u| !u.unit.starts_with("general")) {
            assert!(u.actions.iter().any(|a| a.label == "Halt"), "{}: no halt", u.label);
            assert!(u.allowance.is_some_and(|a| a > 0.0), "{}", u.label);
            assert!(u.allowance_text.contains("[WRG-MOVE-02]"), "{}", u.allowance_text);
        }
        let general = c.units.iter().find(|u| u.unit == format!("general-{side}")).unwrap();
        assert_eq!(general.drag, Drag::Free);
        // His figure's pace, the trip's gallop not yet spent (WRG-CHORD-03, -04, WRG-M-01).
        let his = wrg1969::state::general(g.state(), side).unwrap();
        let gallop = wrg1969::riders::general_speeds(&g.rules().data, his).1;
        assert_eq!(general.allowance, Some(gallop));
    }
    let red = controls(&g, Side::Red);
    let unit = |name: &str| red.units.iter().find(|u| u.label == name).unwrap();
    // Ordered to advance: free to be dragged, 4" for heavy foot.
    let hoplites = unit("Hoplites of the right");
    assert_eq!(hoplites.drag, Drag::Free);
    assert_eq!(hoplites.allowance, Some(4.0));
    assert!(
        hoplites.allowance_text.starts_with("4\" (heavy infantry"),
        "{}",
        hoplites.allowance_text
    );
    // Ordered to hold: only halt or re-form, never dragged (WRG-ORD-01).
    let horse = unit("Thessalian horse");
    assert_eq!(horse.drag, Drag::None);
    assert!(horse.allowance_text.contains("WRG-ORD-01"), "{}", horse.allowance_text);
    let steps: Vec<&str> = horse.actions.iter().map(|a| a.label.as_str()).collect();
    assert!(!steps.iter().any(|l| l.starts_with("Wheel") || l.starts_with("Charge")), "{steps:?}");
    // Nobody is ordered to attack: no charges anywhere (WRG-MOVE-04).
    assert!(all_actions(&red).iter().all(|(_, a)| !a.label.starts_with("Charge")));
}

// Checks WRG-MOVE-04.
#[test]
fn charges_are_offered_only_against_the_unit_ordered_attacked_and_within_reach() {
    let mut g = the_ford();
    // Red's Spartiates are ordered to attack the Gallic warband; the other units keep theirs.
    let c = controls(&g, Side::Red);
    let mut draft = c.draft.clone().unwrap().command;
    let spartiates = c.units.iter().find(|u| u.label == "Spartiates").unwrap();
    apply(
        &mut draft,
        spartiates.actions.iter().find(|a| a.label == "Attack Gallic warband").unwrap(),
    );
    g.submit(Actor::Side(Side::Red), command(&draft)).unwrap();
    let blue = command(&controls(&g, Side::Blue).draft.unwrap().command);
    g.submit(Actor::Side(Side::Blue), blue).unwrap();
    let c = controls(&g, Side::Red);
    let charges: Vec<&str> =
        labels(&c, "Spartiates").into_iter().filter(|l| l.starts_with("Charge")).collect();
    // 36" away: out of reach of a heavy foot charge, so none is offered; every offer passed check.
    assert!(charges.iter().all(|l| *l == "Charge Gallic warband"), "{charges:?}");
    every_action_passes(&g, Side::Red, &c);
}

fn request(unit: impl ToString, x: f64, y: f64) -> MeasureRequest {
    MeasureRequest { unit: unit.to_string(), to: Point::new(x, y), facing: None }
}

// Checks WRG-MOVE-02.
#[test]
fn a_short_move_is_legal_within_its_allowance_and_joins_the_plan() {
    let mut g = the_ford();
    write_both(&mut g);
    let id = unit_id(&g, "Hoplites of the right");
    let m = g.rules().measure(g.state(), Side::Red, &request(id, 44.0, 8.0)).expect("measured");
    assert!((m.length - 2.0).abs() < 1e-9, "{m:?}");
    assert_eq!(m.allowance, 4.0);
    assert!(m.cost <= m.allowance + 1e-9, "{m:?}");
    assert!((m.within - m.length).abs() < 1e-9, "{m:?}");
    assert_eq!((m.rule.as_ref(), m.reason.as_ref()), (None, None));
    assert_eq!(m.path, vec![Point::new(44.0, 6.0), Point::new(44.0, 8.0)]);
    let action = m.action.expect("a legal move has an action");
    // Dropped into the plan with a General's ride and a halt: the plan is sent and accepted.
    let c = controls(&g, Side::Red);
    let mut draft = c.draft.unwrap().command;
    apply(&mut draft, &action);
    let ride = g
        .rules()
        .measure(g.state(), Side::Red, &request("general-red", 37.0, 6.0))
        .expect("the General is measured");
    assert!(ride.rule.is_none(), "{ride:?}");
    apply(&mut draft, &ride.action.unwrap());
    let horse = c.units.iter().find(|u| u.label == "Thessalian horse").unwrap();
    apply(&mut draft, horse.actions.iter().find(|a| a.label == "Halt").unwrap());
    let Command::Plan(plan) = command(&draft) else { panic!("not a plan") };
    assert_eq!(plan.moves.len(), 2);
    assert!(plan.general.is_some());
    g.submit(Actor::Side(Side::Red), Command::Plan(plan)).expect("the plan is accepted");
    // Planned: nothing more to measure for red.
    assert!(g.rules().measure(g.state(), Side::Red, &request(id, 44.0, 8.0)).is_none());
}

// Checks WRG-MOVE-02, WRG-CHORD-04.
#[test]
fn a_move_past_the_allowance_is_refused_with_its_rule() {
    let mut g = the_ford();
    write_both(&mut g);
    let id = unit_id(&g, "Hoplites of the right");
    let m = g.rules().measure(g.state(), Side::Red, &request(id, 44.0, 20.0)).unwrap();
    assert!((m.length - 14.0).abs() < 1e-9);
    assert_eq!(m.rule.as_deref(), Some("WRG-MOVE-02"), "{m:?}");
    assert!(m.reason.is_some() && m.action.is_none());
    assert!(m.within < m.length);
    assert!((m.within - 4.0).abs() < 1e-6, "{m:?}");
    assert!(m.cost > m.allowance);
    // The plan check gives the same refusal.
    let step = wrg1969::plan::Step::MoveTo { x: 44.0, y: 20.0, facing: None };
    let plan = wrg1969::plan::Plan {
        moves: vec![wrg1969::plan::UnitMove { unit: id, step }],
        ..Default::default()
    };
    let e = g.rules().check(g.state(), Actor::Side(Side::Red), &Command::Plan(plan)).unwrap_err();
    assert_eq!(Some(e.rule.as_str()), m.rule.as_deref());
    // The General rides no farther than his figure's gallop, 6" on foot (WRG-CHORD-04).
    let far = g.rules().measure(g.state(), Side::Red, &request("general-red", 37.0, 30.0)).unwrap();
    assert_eq!(far.rule.as_deref(), Some("WRG-CHORD-04"));
    assert!(far.within < far.length && far.action.is_none());
}

// Checks WRG-CHAMP-02, WRG-MOVE-14.
#[test]
fn the_stream_bed_costs_more_than_its_length() {
    let mut g = the_ford();
    write_both(&mut g);
    // Numidian light horse at (64, 42) facing south, 16": 15" of open ground to the stream's
    // bank at y = 27, then the bed at a quarter speed.
    let id = unit_id(&g, "Numidian light horse");
    let m = g.rules().measure(g.state(), Side::Blue, &request(id, 64.0, 26.8)).unwrap();
    assert!((m.length - 15.2).abs() < 1e-9);
    assert!((m.cost - 15.8).abs() < 1e-6, "{m:?}");
    assert!(m.cost > m.length);
    assert!(m.notes.iter().any(|n| n.contains("stream bed") && n.contains("[WRG-CHAMP-02]")));
    assert!(m.action.is_some() && m.rule.is_none(), "{m:?}");
    assert!((m.within - m.length).abs() < 1e-9);
    // A little farther into the bed and the allowance runs out in it.
    let m = g.rules().measure(g.state(), Side::Blue, &request(id, 64.0, 26.0)).unwrap();
    assert!((m.cost - 19.0).abs() < 1e-6, "{m:?}");
    assert_eq!(m.rule.as_deref(), Some("WRG-MOVE-02"));
    assert!((m.within - 15.25).abs() < 1e-6, "{m:?}");
    // A turn costs the outer figure's arc (WRG-MOVE-14): a quarter turn of an 11.25" front.
    let mut r = request(id, 64.0, 40.0);
    r.facing = Some(Facing::from_bearing_degrees(90.0));
    let m = g.rules().measure(g.state(), Side::Blue, &r).unwrap();
    let arc = 11.25 * std::f64::consts::FRAC_PI_2;
    assert!((m.cost - (2.0 + arc)).abs() < 1e-6, "{m:?}");
    assert!(m.notes.iter().any(|n| n.contains("[WRG-MOVE-14]")));
}

#[test]
fn measuring_odd_requests_gives_none_or_a_refusal_and_never_panics() {
    let mut g = the_ford();
    // Before the orders are written nothing is measured.
    assert!(g.rules().measure(g.state(), Side::Red, &request(0, 44.0, 8.0)).is_none());
    write_both(&mut g);
    let r = g.rules();
    let st = g.state();
    let blue = unit_id(&g, "Elephants");
    for (side, unit) in [
        (Side::Red, "999".to_string()),
        (Side::Red, "-1".to_string()),
        (Side::Red, "abc".to_string()),
        (Side::Red, String::new()),
        (Side::Red, blue.to_string()),
        (Side::Red, "general-blue".to_string()),
    ] {
        assert!(r.measure(st, side, &request(unit.clone(), 44.0, 8.0)).is_none(), "{unit}");
    }
    for (x, y) in [(f64::NAN, 8.0), (44.0, f64::INFINITY), (f64::NEG_INFINITY, 0.0)] {
        assert!(r.measure(st, Side::Red, &request(0, x, y)).is_none());
        assert!(r.measure(st, Side::Red, &request("general-red", x, y)).is_none());
    }
    for (x, y) in [(-5.0, 6.0), (44.0, 1e300), (44.0, 6.0), (1e-300, -1e-300)] {
        for unit in ["0", "general-red"] {
            let m = r.measure(st, Side::Red, &request(unit, x, y)).expect("measured");
            assert!(m.action.is_some() != m.rule.is_some(), "{m:?}");
            assert!(m.within <= m.length + 1e-9);
        }
    }
}

fn row_text(r: &tabletop::controls::RosterRow) -> String {
    format!("{} {} {} {} {}", r.label, r.kind, r.strength, r.losses, r.state)
}

// Checks WRG-ORD-01.
#[test]
fn a_side_sees_its_own_orders_on_the_roster_never_the_other_sides() {
    let mut g = the_ford();
    write_both(&mut g);
    let r = g.rules();
    let st = g.state();
    let red = r.roster(st, Viewer::Side(Side::Red));
    let units = st.units.len();
    assert_eq!(red.len(), units + 2, "every unit and both Generals");
    assert_eq!(red[0].side, "red", "own side first");
    for row in red.iter().filter(|x| !x.unit.starts_with("general")) {
        let text = row_text(row);
        if row.side == "red" {
            assert!(row.state.contains("order:"), "{text}");
        } else {
            // Blue's Elephants and Gallic warband are ordered to the ford; red must not know.
            assert!(!text.contains("order") && !text.contains("The ford"), "{text}");
            assert!(!text.contains("skirmish") && !text.contains("waiting"), "{text}");
        }
    }
    let elephants = red.iter().find(|x| x.label == "Elephants").unwrap();
    assert_eq!(elephants.strength, "4/4 figures, 4 abreast");
    assert_eq!(elephants.state, "formed");
    let blue = r.roster(st, Viewer::Side(Side::Blue));
    assert_eq!(blue[0].side, "blue");
    let own = blue.iter().find(|x| x.label == "Elephants").unwrap();
    assert!(own.state.contains("order: advance to The ford"), "{}", own.state);
    for row in r.roster(st, Viewer::Spectator) {
        let text = row_text(&row);
        assert!(!text.contains("order") && !text.contains("The ford"), "{text}");
    }
    let umpire = r.roster(st, Viewer::Umpire);
    let with_orders = umpire.iter().filter(|x| x.state.contains("order:")).count();
    assert_eq!(with_orders, units, "the umpire sees every order");
}

/// Sends `side`'s draft as it stands.
fn send_draft(g: &mut Game<Wrg1969>, side: Side) {
    let cmd = command(&controls(g, side).draft.expect("a draft").command);
    g.submit(Actor::Side(side), cmd).expect("the draft is accepted");
}

// Checks WRG-CHORD-01, WRG-CHORD-02, WRG-ORD-13.
#[test]
fn a_unit_left_without_an_order_lets_the_general_send_messengers() {
    let mut g = the_ford();
    send_draft(&mut g, Side::Red);
    let c = controls(&g, Side::Blue);
    let mut draft = c.draft.clone().unwrap().command;
    let slingers = c.units.iter().find(|u| u.label == "Balearic slingers").unwrap();
    let wait = slingers.actions.iter().find(|a| a.label == "No order: wait where they stand");
    apply(&mut draft, wait.unwrap());
    g.submit(Actor::Side(Side::Blue), command(&draft)).unwrap();
    // Orders are not sent while the first period is planned (WRG-ORD-01): none offered.
    let c = controls(&g, Side::Blue);
    assert!(all_actions(&c).iter().all(|(_, a)| !a.label.starts_with("Send a messenger")));
    send_draft(&mut g, Side::Red);
    send_draft(&mut g, Side::Blue);
    // A unit without an order is something the General must answer (WRG-CHORD-01).
    let c = controls(&g, Side::Blue);
    every_action_passes(&g, Side::Blue, &c);
    let u = c.units.iter().find(|u| u.label == "Balearic slingers").unwrap();
    let send = u
        .actions
        .iter()
        .find(|a| a.label.starts_with("Send a messenger: attack"))
        .unwrap_or_else(|| panic!("{:?}", labels(&c, "Balearic slingers")));
    assert!(send.rules.iter().any(|r| r == "WRG-CHORD-02"));
    // Without an order the slingers may only halt or re-form (WRG-ORD-13): no drag.
    assert_eq!(u.drag, Drag::None);
    assert!(u.allowance_text.contains("WRG-ORD-13"), "{}", u.allowance_text);
    let mut draft = c.draft.clone().unwrap().command;
    apply(&mut draft, send);
    let free = g.state().free_messengers[1];
    g.submit(Actor::Side(Side::Blue), command(&draft)).expect("the dictation is accepted");
    send_draft(&mut g, Side::Red);
    assert_eq!(g.state().free_messengers[1], free - 1, "a messenger rides");
    let own = g.rules().roster(g.state(), Viewer::Side(Side::Blue));
    let row = own.iter().find(|r| r.label == "Balearic slingers").unwrap();
    assert!(row.state.contains("messenger") || row.state.contains("new order"), "{}", row.state);
    let seen_by_red = g.rules().roster(g.state(), Viewer::Side(Side::Red));
    let row = seen_by_red.iter().find(|r| r.label == "Balearic slingers").unwrap();
    assert!(!row.state.contains("messenger") && !row.state.contains("order"), "{}", row.state);
}

// Checks WRG-R-08, WRG-MOVE-04, WRG-BRK-01.
#[test]
fn through_a_battle_every_offered_action_and_measured_move_passes_check() {
    let mut g = the_ford();
    // Everyone who may attacks the nearest enemy line: the armies close and fight.
    for (side, orders) in [
        (
            Side::Red,
            [
                ("Thessalian horse", "Spanish cavalry"),
                ("Spartiates", "Gallic warband"),
                ("Hoplites of the right", "Libyan spearmen"),
            ],
        ),
        (
            Side::Blue,
            [
                ("Spanish cavalry", "Thessalian horse"),
                ("Gallic warband", "Spartiates"),
                ("Libyan spearmen", "Hoplites of the right"),
            ],
        ),
    ] {
        let c = controls(&g, side);
        let mut draft = c.draft.clone().unwrap().command;
        for (unit, enemy) in orders {
            let u = c.units.iter().find(|u| u.label == unit).unwrap();
            let label = format!("Attack {enemy}");
            apply(&mut draft, u.actions.iter().find(|a| a.label == label).unwrap());
        }
        g.submit(Actor::Side(side), command(&draft)).unwrap();
    }
    let mut offered = Vec::new();
    let mut charged = false;
    for _ in 0..20 {
        if g.rules().outcome(g.state()).is_some() {
            break;
        }
        for side in Side::BOTH {
            // The roster never shows the other side's orders, messengers or test results.
            for row in g.rules().roster(g.state(), Viewer::Side(side)) {
                if row.side != side.to_string() {
                    let secret = ["order", "messenger", "reaction result:"];
                    assert!(!secret.iter().any(|w| row.state.contains(w)), "{row:?}");
                }
            }
            let c = controls(&g, side);
            every_action_passes(&g, side, &c);
            offered.extend(all_actions(&c).iter().map(|(_, a)| a.label.clone()));
            let draft = c.draft.unwrap().command;
            for u in c.units.iter().filter(|u| u.drag == Drag::Free) {
                for (dx, dy) in [(0.0, 2.0), (0.0, -2.0), (3.0, 0.0), (0.0, 30.0)] {
                    let at = g.state().units.iter().find(|x| x.id.to_string() == u.unit);
                    let from = at.map_or(Point::new(36.0, 24.0), |x| x.at);
                    let r = request(&u.unit, from.x + dx, from.y + dy);
                    let m = g.rules().measure(g.state(), side, &r).expect("measured");
                    assert!(m.action.is_some() != m.rule.is_some(), "{m:?}");
                    assert!(m.within <= m.length + 1e-9 && m.cost >= 0.0, "{m:?}");
                    if let Some(a) = &m.action {
                        let mut d = draft.clone();
                        apply(&mut d, a);
                        check(&g, side, &d).expect("a measured legal move passes");
                        assert!((m.within - m.length).abs() < 1e-6, "{m:?}");
                    }
                }
            }
            // The two attackers are driven at each other by measured moves until a charge is
            // offered, which is then sent.
            let (mine, theirs) = match side {
                Side::Red => ("Thessalian horse", "Spanish cavalry"),
                Side::Blue => ("Spanish cavalry", "Thessalian horse"),
            };
            let mut plan = draft.clone();
            let driver = c.units.iter().find(|u| u.label == mine);
            let charge = format!("Charge {theirs}");
            if let Some(d) = driver {
                if let Some(a) = d.actions.iter().find(|a| a.label == charge) {
                    apply(&mut plan, a);
                    charged = true;
                } else if d.drag == Drag::Free {
                    let st = g.state();
                    let (a, b) = (
                        &st.units[unit_id(&g, mine) as usize],
                        &st.units[unit_id(&g, theirs) as usize],
                    );
                    let gap = a.at.distance(b.at);
                    let go = (d.allowance.unwrap() * 0.9).min(gap - 7.0).max(0.5);
                    let to = a.at.lerp(b.at, go / gap);
                    let m = g.rules().measure(st, side, &request(&d.unit, to.x, to.y)).unwrap();
                    let short = a.at.lerp(b.at, m.within * 0.95 / gap);
                    let m = match m.action {
                        Some(_) => m,
                        None => g
                            .rules()
                            .measure(st, side, &request(&d.unit, short.x, short.y))
                            .unwrap(),
                    };
                    if let Some(a) = &m.action {
                        apply(&mut plan, a);
                    }
                }
            }
            let cmd = command(&plan);
            g.submit(Actor::Side(side), cmd).expect("the empty plan is accepted");
        }
    }
    assert!(g.state().period >= 6, "period {}", g.state().period);
    assert!(offered.iter().any(|l| l.starts_with("Charge")), "no charge was ever offered");
    assert!(charged, "the attackers never came within a charge");
    let break_off = "Break off the fight and retire";
    assert!(offered.iter().any(|l| l == break_off), "no break-off was offered in the fight");
}

// Checks WRG-CHORD-07, WRG-CHORD-08.
#[test]
fn a_written_signal_is_offered_in_the_plan() {
    let signal = "\n[[side.signal]]\norder = { action = { verb = \"hold\" } }\nunits = [\"Gallic warband\"]\n";
    let mut g = the_ford_with(signal);
    write_both(&mut g);
    let c = controls(&g, Side::Blue);
    // After the two the scenario writes for each side.
    let give = c.actions.iter().find(|a| a.label == "Give signal 3: hold (for Gallic warband)");
    let give = give.unwrap_or_else(|| panic!("{:?}", c.actions));
    assert_eq!(give.effect, Effect::Draft { at: "/signal".into(), key: None, value: 2.into() });
    every_action_passes(&g, Side::Blue, &c);
    // Red has only the scenario's two.
    let red = controls(&g, Side::Red).actions;
    assert_eq!(red.iter().filter(|a| a.label.starts_with("Give signal")).count(), 2, "{red:?}");
}
