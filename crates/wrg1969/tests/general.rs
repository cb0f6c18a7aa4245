//! The scripted general (`wrg1969::general`) in play: each behaviour set up from a ready
//! scenario, the general choosing through the game, and his command and the log read back.

mod common;

use common::{id, load};
use tabletop::game::Game;
use tabletop::rules::{Actor, Narrate, Side};
use wrg1969::bot::Scripted;
use wrg1969::orders::{Objective, Order, Verb};
use wrg1969::plan::{Plan, Step};
use wrg1969::reaction::Stance;
use wrg1969::{Command, Event, Wrg1969};

/// The scripted general's command for a side.
fn choose(g: &Game<Wrg1969>, side: Side) -> Command {
    let rules = Wrg1969::new();
    let mut rng = tabletop::SeededDice::new(1);
    bots::Bot::choose(&mut Scripted, &rules, g.state(), side, &mut rng).expect("a command")
}

fn plan_of(c: &Command) -> &Plan {
    match c {
        Command::Plan(p) => p,
        Command::Write { .. } => panic!("a plan was wanted"),
    }
}

/// A game of a ready scenario with both sides' orders written by the scripted general.
fn written(name: &str, seed: u64) -> Game<Wrg1969> {
    let s = load(name);
    let mut g = s.game_unwritten(seed);
    for side in Side::BOTH {
        let c = choose(&g, side);
        g.submit(Actor::Side(side), c).expect("the written orders are accepted");
    }
    g
}

/// Plays the period with these commands; the log's lines.
fn play(g: &mut Game<Wrg1969>, red: Command, blue: Command) -> Vec<String> {
    let mut log = Vec::new();
    for (side, c) in [(Side::Red, red), (Side::Blue, blue)] {
        let events = g.submit(Actor::Side(side), c).expect("the general's plan is accepted");
        log.extend(
            events.iter().filter(|e| matches!(e, Event::Noted(_))).map(|e| e.narrate().text),
        );
    }
    log
}

/// Plays both sides scripted until the end; the log's lines.
fn play_out(g: &mut Game<Wrg1969>) -> Vec<String> {
    let mut log = Vec::new();
    while let Some(&side) = g.pending().sides().first() {
        let c = choose(g, side);
        let events = g.submit(Actor::Side(side), c).expect("the general's command is legal");
        log.extend(events.iter().map(|e| e.narrate().text));
    }
    log
}

fn order_of(g: &Game<Wrg1969>, name: &str) -> Option<Order> {
    g.state().units[id(g, name) as usize].standing.order().cloned()
}

// The battle plan in lanes: archers behind the line, skirmishers in front, a reserve, and
// attacks that never cross.
#[test]
fn the_general_writes_orders_by_lanes_with_a_reserve_and_archers_behind() {
    let g = written("the_hill.toml", 1);
    let st = g.state();
    let archers = order_of(&g, "Cohors I Hamiorum sagittariorum").expect("an order");
    assert!(
        matches!(archers.verb, Verb::Advance { to: Objective::Bearing { .. } }),
        "close-order archers march behind the line, not to attack: {archers:?}"
    );
    assert!(matches!(order_of(&g, "Balearic slingers").unwrap().verb, Verb::Skirmish { .. }));
    let reserves = st
        .units
        .iter()
        .filter(|u| u.side == Side::Red && u.troop.is_infantry() && !u.troop.is_light())
        .filter(|u| u.name.as_ref() != "Cohors I Hamiorum sagittariorum")
        .filter(|u| {
            matches!(
                u.standing.order().map(|o| &o.verb),
                Some(Verb::Advance { to: Objective::Bearing { .. } })
            )
        })
        .count();
    assert_eq!(reserves, 1, "the Romans keep one cohort in reserve");
    // The attacks, left to right, go to enemies left to right.
    let mut attacks: Vec<(f64, f64)> = st
        .units
        .iter()
        .filter(|u| u.side == Side::Red)
        .filter_map(|u| match u.standing.order().map(|o| &o.verb) {
            Some(Verb::Attack { unit }) => Some((u.at.x, st.units[*unit as usize].at.x)),
            _ => None,
        })
        .collect();
    attacks.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert!(attacks.len() >= 3, "{attacks:?}");
    assert!(attacks.windows(2).all(|w| w[0].1 <= w[1].1), "attacks cross: {attacks:?}");
    assert!(
        !attacks.iter().any(|a| (a.0 - a.1).abs() > 30.0),
        "an attack across the field: {attacks:?}"
    );
}

// The first signal ("advance to the ford") is never repeated to pile the army on the ford.
#[test]
fn the_general_does_not_pile_his_army_on_the_ford_by_signal() {
    let mut g = written("the_ford.toml", 7);
    let log = play_out(&mut g);
    for side in ["red", "blue"] {
        let signals =
            log.iter().filter(|l| l.contains(&format!("{side}'s General gives signal"))).count();
        assert!(signals <= 1, "{side} gave {signals} signals");
    }
    let at_ford = g
        .state()
        .units
        .iter()
        .filter(|u| {
            matches!(
                u.standing.order().map(|o| &o.verb),
                Some(Verb::Advance { to: Objective::Feature { id } }) if id == "The ford"
            )
        })
        .count();
    assert!(at_ford <= 2, "{at_ford} units sent to the ford");
}

// Close-order archers shoot from behind their line and never charge.
#[test]
fn archers_keep_behind_the_line_and_never_charge() {
    let mut g = written("the_hill.toml", 1);
    let archers = id(&g, "Cohors I Hamiorum sagittariorum");
    let mut directed = 0;
    for _ in 0..8 {
        let (red, blue) = (choose(&g, Side::Red), choose(&g, Side::Blue));
        if plan_of(&red).moves.iter().any(|m| m.unit == archers) {
            directed += 1;
        }
        let log = play(&mut g, red, blue);
        assert!(
            !log.iter().any(|l| l.contains("Cohors I Hamiorum sagittariorum charge")),
            "the archers charged"
        );
        let st = g.state();
        let front = st
            .units
            .iter()
            .filter(|u| u.side == Side::Red && u.on_table() && u.id != archers)
            .filter(|u| u.troop.is_infantry() && !u.troop.is_light())
            .map(|u| u.at.y)
            .fold(f64::MIN, f64::max);
        assert!(st.units[archers as usize].at.y <= front + 0.5, "the archers are in front");
    }
    assert!(directed >= 4, "the archers were moved behind the line {directed} times");
}

// A unit whose way a standing friend bars steps round it, within its order.
#[test]
fn horse_barred_by_a_friend_step_round_it() {
    let s = load("the_ford.toml")
        .quiet()
        .put(Side::Red, "Thessalian horse", 30.0, 2.5, 0.0, 4)
        .put(Side::Red, "Hoplites of the left", 30.0, 6.0, 0.0, 12);
    let libyans = s.index(Side::Blue, "Libyan spearmen");
    let s = s.order(Side::Red, "Thessalian horse", common::attack(libyans));
    let mut g = s.game(3);
    let horse = id(&g, "Thessalian horse");
    let red = choose(&g, Side::Red);
    let m = plan_of(&red).moves.iter().find(|m| m.unit == horse).expect("the horse are moved");
    assert!(matches!(m.step, Step::MoveTo { .. }), "{m:?}");
    let before = g.state().units[horse as usize].at;
    let log = play(&mut g, red, Command::Plan(Plan::default()));
    let after = g.state().units[horse as usize].at;
    assert!(after.distance(before) > 1.0, "the horse stood: {log:#?}");
    assert!(!log.iter().any(|l| l.contains("Thessalian horse") && l.contains("held up")));
}

// A unit in a fight it cannot win breaks off when it outruns the enemy's charge
// (WRG-BRK-01 .. -03).
#[test]
fn horse_outnumbered_in_a_fight_break_off_when_they_outrun_the_enemy() {
    // The Thessalian horse (8 figures) meet the Gallic warband (30) front to front: outnumbered
    // more than two to one, and faster than the foot can charge, they break off.
    let mut g = load("the_ford.toml")
        .quiet()
        .put(Side::Blue, "Gallic warband", 36.0, 30.0, 180.0, 15)
        .put(Side::Red, "Thessalian horse", 36.0, 27.74, 0.0, 4)
        .game(5);
    let horse = id(&g, "Thessalian horse");
    let red = choose(&g, Side::Red);
    assert_eq!(plan_of(&red).break_off, vec![horse], "{red:?}");
    let log = play(&mut g, red, Command::Plan(Plan::default()));
    assert!(log.iter().any(|l| l.contains("Thessalian horse break off")), "{log:#?}");
    assert!(g.state().units[horse as usize].rout.is_none(), "the horse were caught: {log:#?}");
}

// The General rides out of reach of the enemy when he finds himself among them.
#[test]
fn the_general_rides_out_of_the_enemys_reach() {
    let mut g = load("the_ford.toml").quiet().general(Side::Red, 36.0, 38.0).game(9);
    let near = |g: &Game<Wrg1969>| {
        let at = wrg1969::state::general(g.state(), Side::Red).unwrap().at;
        g.state()
            .units
            .iter()
            .filter(|u| u.side == Side::Blue && u.on_table())
            .map(|u| u.at.distance(at))
            .fold(f64::MAX, f64::min)
    };
    let start = near(&g);
    let red = choose(&g, Side::Red);
    assert!(plan_of(&red).general.is_some(), "the General stays among the enemy");
    play(&mut g, red, Command::Plan(Plan::default()));
    assert!(near(&g) > start + 3.0, "the General stays near the enemy: {} -> {}", start, near(&g));
}

// The reserve goes in when an enemy comes near it.
#[test]
fn the_reserve_is_committed_when_the_enemy_comes_near() {
    let reserve = Order::new(Verb::Advance { to: Objective::Bearing { degrees: 0.0 } });
    let mut g = load("the_hill.toml")
        .quiet()
        .order(Side::Red, "Cohors I Batavorum", reserve)
        .put(Side::Red, "Cohors I Batavorum", 44.0, 10.0, 0.0, 8)
        .put(Side::Blue, "Warband of the Trinovantes", 44.0, 22.0, 180.0, 20)
        .game(2);
    // A period for the General to see something to answer (WRG-CHORD-01).
    common::quiet_period(&mut g);
    let bat = id(&g, "Cohors I Batavorum");
    let red = choose(&g, Side::Red);
    let d = plan_of(&red).dictate.iter().find(|d| d.unit == bat).expect("the reserve is called");
    let trinovantes = id(&g, "Warband of the Trinovantes");
    assert_eq!(d.order.verb, Verb::Attack { unit: trinovantes });
}

// Units about to charge are roused; the rest keep the steady choice (WRG-R-17).
#[test]
fn units_about_to_charge_are_roused() {
    let s = load("the_hill.toml")
        .quiet()
        .put(Side::Red, "Legio XX, first cohort", 30.0, 14.0, 0.0, 10)
        .put(Side::Blue, "Warband of the Iceni", 30.0, 22.0, 180.0, 20);
    let iceni = s.index(Side::Blue, "Warband of the Iceni");
    let g = s.order(Side::Red, "Legio XX, first cohort", common::attack(iceni)).game(4);
    let first = id(&g, "Legio XX, first cohort");
    let red = choose(&g, Side::Red);
    let p = plan_of(&red);
    assert!(
        p.stances.iter().any(|s| s.unit == first && s.stance == Stance::Rouse),
        "{:?}",
        p.stances
    );
    assert!(p.stances.iter().all(|s| s.unit == first), "only the attacker is roused");
}

// The general never reads the enemy's orders: his plan is the same whatever they are.
#[test]
fn the_plan_does_not_depend_on_the_enemys_orders() {
    let a = written("the_wells.toml", 3);
    let mut s = load("the_wells.toml");
    for p in &mut s.sc.sides[1].units {
        p.order = Some(Order::new(Verb::Hold { at: None }));
    }
    let mut b = s.game_unwritten(3);
    let red = choose(&b, Side::Red);
    b.submit(Actor::Side(Side::Red), red).unwrap();
    b.submit(Actor::Side(Side::Blue), Command::Write { orders: vec![] }).unwrap();
    assert_eq!(plan_of(&choose(&a, Side::Red)), plan_of(&choose(&b, Side::Red)));
}
