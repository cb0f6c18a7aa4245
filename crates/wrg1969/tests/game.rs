//! The rule set as a game: written orders then secret plans, the period played when both have
//! planned, refusals that leave the game untouched, what each viewer sees, the time limit.

use std::sync::Arc;
use tabletop::game::Game;
use tabletop::rules::{Actor, Pending, RuleSet, Side, Viewer};
use wrg1969::orders::{Objective, Order, Verb};
use wrg1969::plan::{Dictation, GeneralMove, Plan};
use wrg1969::state::Written;
use wrg1969::{Command, Wrg1969};

fn scenario(name: &str) -> String {
    let path = format!("{}/../../scenarios/wrg1969/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("the scenario is there")
}

fn game(name: &str, text: String, seed: u64) -> Game<Wrg1969> {
    Game::new(Arc::new(Wrg1969::new()), tabletop::Source::new(name, text), seed)
        .expect("the scenario loads")
}

fn plan(g: &mut Game<Wrg1969>, side: Side, p: Plan) {
    g.submit(Actor::Side(side), Command::Plan(p)).expect("the plan is accepted");
}

fn write_both(g: &mut Game<Wrg1969>) {
    for side in Side::BOTH {
        g.submit(Actor::Side(side), Command::Write { orders: vec![] }).expect("accepted");
    }
}

// Checks WRG-CHAMP-12 (and WRG-M-12's default).
#[test]
fn wrg_champ_12_the_time_limit_defaults_to_30_periods_then_the_score_decides() {
    let text = scenario("the_wells.toml");
    let cut: String =
        text.lines().filter(|l| !l.starts_with("periods")).collect::<Vec<_>>().join("\n");
    assert_ne!(cut, text, "the scenario names its time limit");
    let mut g = game("the_wells.toml", cut, 5);
    assert_eq!(g.state().limit, 30);
    write_both(&mut g);
    let mut periods = 0;
    while g.pending() != Pending::Over {
        plan(&mut g, Side::Red, Plan::default());
        plan(&mut g, Side::Blue, Plan::default());
        periods += 1;
        assert!(periods <= 30, "the battle runs past its time limit");
    }
    let r = Wrg1969::new();
    let scores = wrg1969::scoring::scores(&r.data, g.state());
    let outcome = r.outcome(g.state()).expect("over");
    assert!(outcome.reason.starts_with("[WRG-VIC-01]"), "{}", outcome.reason);
    assert!(outcome.reason.contains(&format!("red scores {}, blue {}", scores[0], scores[1])));
    let want = match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => Some(Side::Red),
        std::cmp::Ordering::Less => Some(Side::Blue),
        std::cmp::Ordering::Equal => None,
    };
    assert_eq!(outcome.winner, want);
    // Unless one side was swept from the table first, the limit ended it.
    if g.state().period < 30 {
        assert!(outcome.reason.contains("no troops left"), "{}", outcome.reason);
    } else {
        assert!(outcome.reason.contains("time limit of 30 periods"), "{}", outcome.reason);
    }
}

#[test]
fn the_period_is_played_only_when_both_sides_have_planned() {
    let mut g = game("the_ford.toml", scenario("the_ford.toml"), 1);
    assert_eq!(
        g.pending(),
        Pending::Both { waiting: vec![Side::Red, Side::Blue], what: "write your orders".into() }
    );
    write_both(&mut g);
    plan(&mut g, Side::Blue, Plan::default());
    assert_eq!(g.state().period, 0, "nothing moves on one plan");
    assert_eq!(g.pending().sides(), vec![Side::Red]);
    // A second plan from the same side is refused, naming the rule.
    let again = g.submit(Actor::Side(Side::Blue), Command::Plan(Plan::default())).unwrap_err();
    assert_eq!(again.rule.as_str(), "WRG-R-08");
    plan(&mut g, Side::Red, Plan::default());
    assert_eq!(g.state().period, 1);
    assert_eq!(g.pending().sides(), vec![Side::Red, Side::Blue]);
}

/// Submits `c` and checks it is refused under `rule` with the game exactly as before.
fn refused(g: &mut Game<Wrg1969>, side: Side, c: Command, rule: &str) {
    let before = g.state_hash();
    let n = g.command_count();
    let e = g.submit(Actor::Side(side), c).unwrap_err();
    assert_eq!(e.rule.as_str(), rule, "{e}");
    assert_eq!(g.state_hash(), before, "a refusal changed the state");
    assert_eq!(g.command_count(), n);
}

#[test]
fn bad_commands_are_refused_with_their_rule_and_change_nothing() {
    let mut g = game("the_hill.toml", scenario("the_hill.toml"), 2);
    // An order naming a feature the unit cannot see.
    let unseen = g.state().table.areas.iter().map(|a| a.name.clone()).find(|name| {
        let order = Order::new(Verb::Advance { to: Objective::Feature { id: name.clone() } });
        let w = vec![Written { unit: 0, order: Some(order) }];
        wrg1969::state::check_written(g.state(), Side::Red, &w)
            .is_err_and(|e| e.rule.as_str() == "WRG-ORD-03")
    });
    let name = unseen.expect("some feature is out of the first red unit's sight");
    let order = Order::new(Verb::Advance { to: Objective::Feature { id: name } });
    refused(
        &mut g,
        Side::Red,
        Command::Write { orders: vec![Written { unit: 0, order: Some(order) }] },
        "WRG-ORD-03",
    );
    // Orders for the other side's unit.
    let blue = g.state().units.iter().find(|u| u.side == Side::Blue).unwrap().id;
    refused(
        &mut g,
        Side::Red,
        Command::Write {
            orders: vec![Written { unit: blue, order: Some(Order::new(Verb::Evade)) }],
        },
        "WRG-ORD-01",
    );
    // A plan before the orders are written.
    refused(&mut g, Side::Red, Command::Plan(Plan::default()), "WRG-ORD-01");
    write_both(&mut g);
    // Writing again after the battle has begun.
    refused(&mut g, Side::Red, Command::Write { orders: vec![] }, "WRG-ORD-01");
    // The General riding farther than a messenger's normal move.
    let g_at = wrg1969::state::general(g.state(), Side::Red).unwrap().at;
    let far = Plan {
        general: Some(GeneralMove { x: g_at.x, y: g_at.y + 20.0, join: None }),
        ..Plan::default()
    };
    refused(&mut g, Side::Red, Command::Plan(far), "WRG-CHORD-04");
    // A signal the side never arranged.
    let n = g.state().signals[0].len() as u8;
    refused(
        &mut g,
        Side::Red,
        Command::Plan(Plan { signal: Some(n), ..Plan::default() }),
        "WRG-CHORD-07",
    );
    // A dictation in the first period: nothing has happened for the General to answer.
    let dictate = Plan {
        dictate: vec![Dictation { unit: 0, order: Order::new(Verb::Hold { at: None }) }],
        ..Plan::default()
    };
    refused(&mut g, Side::Red, Command::Plan(dictate), "WRG-ORD-01");
    // A move past the unit's allowance.
    let u0 = g.state().units[0].clone();
    let far = u0.at + u0.facing.vector() * 30.0;
    let past = Plan {
        moves: vec![wrg1969::plan::UnitMove {
            unit: 0,
            step: wrg1969::plan::Step::MoveTo { x: far.x, y: far.y, facing: None },
        }],
        ..Plan::default()
    };
    refused(&mut g, Side::Red, Command::Plan(past), "WRG-MOVE-02");
    // Breaking off when not fighting.
    refused(
        &mut g,
        Side::Red,
        Command::Plan(Plan { break_off: vec![0], ..Plan::default() }),
        "WRG-BRK-01",
    );
}

#[test]
fn a_side_sees_neither_the_other_sides_orders_nor_its_plan() {
    let mut g = game("the_ford.toml", scenario("the_ford.toml"), 3);
    write_both(&mut g);
    let p = Plan { general: Some(GeneralMove { x: 37.0, y: 4.0, join: None }), ..Plan::default() };
    plan(&mut g, Side::Red, p);
    let r = Wrg1969::new();
    for (viewer, red_orders) in [
        (Viewer::Side(Side::Blue), false),
        (Viewer::Spectator, false),
        (Viewer::Side(Side::Red), true),
        (Viewer::Umpire, true),
    ] {
        let v = serde_json::to_value(r.view(g.state(), viewer)).unwrap();
        let text = v.to_string();
        assert!(!text.contains("\"general\":{\"x\""), "a plan leaked to {viewer:?}");
        let units = v["units"].as_array().unwrap();
        let red_with_orders =
            units.iter().filter(|u| u["side"] == "red" && u.get("order").is_some()).count();
        assert_eq!(red_with_orders > 0, red_orders, "{viewer:?}");
        assert_eq!(v["planned"], serde_json::json!([true, false]));
    }
}

#[test]
fn the_scripted_general_changes_orders_only_by_messenger_or_at_a_units_request() {
    let rules = Arc::new(Wrg1969::new());
    let mut g = game("the_hill.toml", scenario("the_hill.toml"), 11);
    let mut bot = wrg1969::bot::Scripted;
    let mut rng = tabletop::SeededDice::new(1);
    let mut dictated = 0;
    while let Some(&side) = g.pending().sides().first() {
        let c = bots::Bot::choose(&mut bot, &*rules, g.state(), side, &mut rng).unwrap();
        if let Command::Plan(p) = &c {
            for d in &p.dictate {
                let u = &g.state().units[d.unit as usize];
                assert_eq!(u.side, side, "a dictation to the enemy's unit");
                let with_general = wrg1969::state::general(g.state(), side)
                    .is_some_and(|gl| gl.attached == Some(d.unit));
                assert!(
                    u.awaiting_order || with_general || g.state().free_messengers[side.index()] > 0,
                    "an order with no messenger to carry it"
                );
                dictated += 1;
            }
        }
        g.submit(Actor::Side(side), c).expect("the bot's command is legal");
    }
    assert!(dictated > 0, "the scripted general never changed an order");
}

// Checks WRG-R-45: a battle may be played with another reading of a doubtful cell.
#[test]
fn wrg_r_45_a_scenario_chooses_its_readings_and_a_bad_choice_is_located() {
    let text = scenario("the_ford.toml");
    let chosen = text.replacen(
        "periods = 30",
        "periods = 30\nvariants = { rout_slowdown = \"flat\", push_back = \"reaction_aside\" }",
        1,
    );
    let g = game("the_ford.toml", chosen, 1);
    let r = Wrg1969::new();
    let d = r.data_for(g.state());
    assert_eq!(d.movement.distances.push_back, 2.5);
    assert_eq!(d.movement.rout.slowdown, wrg1969::data::Slowdown::Flat);
    assert_eq!(r.data.movement.distances.push_back, 3.0, "the default tables are untouched");
    let bad = text.replacen("periods = 30", "periods = 30\nvariants = { push_back = \"far\" }", 1);
    let e = r.load_scenario(&tabletop::Source::new("bad.toml", bad)).unwrap_err().to_string();
    assert!(e.contains("bad.toml:") && e.contains("variants.push_back"), "{e}");
    assert!(e.contains("no option `far`"), "{e}");
}

#[test]
fn a_plan_reads_back_from_json_and_unknown_fields_are_refused() {
    let text = r#"{"command":"plan","moves":[{"unit":12,"step":{"kind":"halt"}}],
        "dictate":[],"signal":null,"general":null,"break_off":[]}"#;
    let c: Command = serde_json::from_str(text).expect("a plan parses");
    let Command::Plan(p) = &c else { panic!("not a plan") };
    assert_eq!(p.moves[0].step, wrg1969::plan::Step::Halt);
    let round: Command = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
    assert_eq!(round, c);
    let bad = text.replace("\"unit\":12,", "\"unit\":12,\"speed\":3,");
    let e = serde_json::from_str::<Command>(&bad).unwrap_err().to_string();
    assert!(e.contains("speed"), "{e}");
}

// Checks WRG-ORD-14, WRG-ORD-02, WRG-ORD-04: written orders with numbers no order could mean
// are refused with the rule, and the game is as it was.
#[test]
fn wrg_ord_14_impossible_numbers_in_written_orders_are_refused() {
    let mut g = game("the_hill.toml", scenario("the_hill.toml"), 2);
    let write =
        |order: Order| Command::Write { orders: vec![Written { unit: 0, order: Some(order) }] };
    // A wheel of more than a whole turn (it would wheel for ever).
    refused(&mut g, Side::Red, write(Order::new(Verb::Wheel { degrees: 1e308 })), "WRG-ORD-14");
    refused(&mut g, Side::Red, write(Order::new(Verb::Wheel { degrees: 361.0 })), "WRG-ORD-14");
    // A point, or a route's point, far off the table.
    let far = Objective::Point { x: 1e9, y: 10.0 };
    refused(&mut g, Side::Red, write(Order::new(Verb::Advance { to: far })), "WRG-ORD-14");
    let mut routed = Order::new(Verb::Advance { to: Objective::Point { x: 30.0, y: 30.0 } });
    routed.route = vec![[30.0, -500.0]];
    refused(&mut g, Side::Red, write(routed.clone()), "WRG-ORD-14");
    routed.route = vec![[30.0, 20.0]; 33];
    refused(&mut g, Side::Red, write(routed), "WRG-ORD-04");
    // A pace too slow to move in any of the period's twenty steps.
    let mut slow = Order::new(Verb::Advance { to: Objective::Point { x: 30.0, y: 30.0 } });
    slow.pace = Some(1e-300);
    refused(&mut g, Side::Red, write(slow), "WRG-ORD-02");
    // The table's edge is a place an order may send a unit, and a whole turn is a wheel.
    let edge = Objective::Point { x: 30.0, y: 0.0 };
    g.submit(Actor::Side(Side::Red), write(Order::new(Verb::Retire { to: edge })))
        .expect("a point on the edge is accepted");
    let mut g = game("the_hill.toml", scenario("the_hill.toml"), 2);
    g.submit(Actor::Side(Side::Red), write(Order::new(Verb::Wheel { degrees: -360.0 })))
        .expect("a whole turn is accepted");
}
