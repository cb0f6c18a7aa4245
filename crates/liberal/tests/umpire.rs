//! The umpire over whole battles: every ready scenario (`scenarios/liberal/*.toml`), the
//! scripted general on both sides and the random player against it on either side, with no
//! violation allowed; and the umpire itself, shown doctored events, says what is wrong.

mod common;

use liberal::Liberal;
use liberal::state::Event;
use liberal::umpire::{READY_DIR, Violation, audit, audit_events, ready_scenarios};
use tabletop::Source;
use tabletop::dice::SeededDice;
use tabletop::game::Game;
use tabletop::host::{Host, HostedRuleSet};
use tabletop::rules::{Actor, Side};

fn source(name: &str) -> Source {
    let text = std::fs::read_to_string(format!("{READY_DIR}/{name}")).expect("a ready scenario");
    Source::new(format!("scenarios/liberal/{name}"), text)
}

fn host() -> Host<Liberal> {
    liberal::bot::register(bots::with_standard_bots(Host::new(Liberal::new())))
}

/// A battle between two bots (`scripted` or `random`), to its end.
fn battle(host: &Host<Liberal>, name: &str, seed: u64, red: &str, blue: &str) -> Game<Liberal> {
    let mut g = Game::new(host.rules().clone(), source(name), seed).expect("it loads");
    g.set_hashing(false);
    let mut bots = [red, blue].map(|b| host.new_bot(&b.parse().expect("a spec")).expect("a bot"));
    let mut rngs = Side::BOTH.map(|s| SeededDice::new(seed ^ (0x9e37_79b9 + s.index() as u64)));
    while g.outcome().is_none() {
        let side = g.pending().sides()[0];
        let c = bots[side.index()]
            .choose(&g, side, &mut rngs[side.index()])
            .unwrap_or_else(|e| panic!("{name} seed {seed} {red} v {blue}: the {side} bot: {e}"));
        g.submit_json(Actor::Side(side), c).unwrap_or_else(|r| {
            panic!("{name} seed {seed} {red} v {blue}: the {side} bot's command is refused: {r}")
        });
        assert!(g.command_count() < 20_000, "{name} seed {seed} {red} v {blue} does not end");
    }
    g
}

const PAIRS: [(&str, &str); 3] =
    [("scripted", "scripted"), ("random", "scripted"), ("scripted", "random")];

/// Plays `n` battles over every ready scenario and pairing, from `seed`; returns
/// (battles, violations shown).
fn run(n: usize, seed: u64) -> (usize, Vec<String>) {
    let names = ready_scenarios();
    assert!(!names.is_empty(), "no ready scenarios in {READY_DIR}");
    let host = host();
    let mut shown = Vec::new();
    let mut total = 0usize;
    let mut played = 0usize;
    let mut k = 0u64;
    while played < n {
        let name = &names[k as usize % names.len()];
        let (red, blue) = PAIRS[(k as usize / names.len()) % PAIRS.len()];
        let s = seed + k;
        let g = battle(&host, name, s, red, blue);
        let v = audit(&g);
        total += v.len();
        for x in v.iter().take(3) {
            if shown.len() < 30 {
                shown.push(format!("{name} seed {s} {red} v {blue}: {x}"));
            }
        }
        played += 1;
        k += 1;
    }
    eprintln!("{played} battles, {total} violations");
    (played, shown)
}

#[test]
fn battles_on_every_ready_scenario_break_no_rule() {
    // LIBERAL_UMPIRE_BATTLES and LIBERAL_UMPIRE_SEED override the number and the first seed
    // (for a longer search).
    let n = std::env::var("LIBERAL_UMPIRE_BATTLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 45 } else { 1000 });
    let seed = std::env::var("LIBERAL_UMPIRE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let (played, shown) = run(n, seed);
    assert_eq!(played, n);
    assert!(shown.is_empty(), "violations:\n{}", shown.join("\n"));
}

/// A scripted battle and the first event `pick` finds in it.
fn battle_with(pick: impl Fn(&Event) -> bool) -> (Game<Liberal>, usize) {
    let host = host();
    for seed in 1..40 {
        let g = battle(&host, "courthouse.toml", seed, "scripted", "scripted");
        if let Some(k) = g.events().iter().position(&pick) {
            return (g, k);
        }
    }
    panic!("no battle has such an event");
}

fn with_event(g: &Game<Liberal>, k: usize, change: impl FnOnce(&mut Event)) -> Vec<Violation> {
    let mut events = g.events().to_vec();
    change(&mut events[k]);
    audit_events(g.rules(), &g.scenario().state, &events)
}

#[test]
fn the_umpire_catches_doctored_events() {
    // A normal move over its allowance.
    let (g, k) = battle_with(
        |e| matches!(e, Event::Moved { rules, .. } if rules.iter().any(|r| r.as_str() == "LIB-CHOICE-02")),
    );
    assert!(audit(&g).is_empty(), "{:?}", audit(&g));
    let v = with_event(&g, k, |e| {
        if let Event::Moved { moved, .. } = e {
            moved.used = moved.allowance + 0.5;
        }
    });
    assert!(v.iter().any(|v| v.event == k && v.rule.starts_with("LIB-CHOICE")), "{v:?}");
    // An allowance that is not the table's.
    let v = with_event(&g, k, |e| {
        if let Event::Moved { moved, .. } = e {
            moved.allowance += 3.0;
        }
    });
    assert!(v.iter().any(|v| v.event == k && v.what.contains("the table gives")), "{v:?}");

    // A volley with one casualty too many.
    let (g, k) = battle_with(|e| matches!(e, Event::Fired { volley, .. } if volley.casualties > 0));
    let v = with_event(&g, k, |e| {
        if let Event::Fired { volley, .. } = e {
            volley.casualties += 1;
        }
    });
    assert!(v.iter().any(|v| v.event == k && v.rule == "LIB-R-01"), "{v:?}");

    // A hit whose fate is not the fire column's.
    let v = with_event(&g, k, |e| {
        if let Event::Fired { hits, .. } = e {
            hits[0].fate = if hits[0].die == 3 {
                liberal::data::Fate::Runs
            } else {
                liberal::data::Fate::Dead
            };
        }
    });
    assert!(v.iter().any(|v| v.event == k && v.rule == "LIB-R-02"), "{v:?}");

    // A single fight won by the lower total.
    let (g, k) = battle_with(|e| {
        matches!(e, Event::Melee { fights, .. }
            if fights.iter().any(|f| f.attacker_roll.0 as i32 + f.attacker_roll.1
                != f.defender_roll.0 as i32 + f.defender_roll.1))
    });
    let v = with_event(&g, k, |e| {
        if let Event::Melee { fights, .. } = e {
            let f = fights
                .iter_mut()
                .find(|f| {
                    f.attacker_roll.0 as i32 + f.attacker_roll.1
                        != f.defender_roll.0 as i32 + f.defender_roll.1
                })
                .unwrap();
            f.attacker_won = !f.attacker_won;
        }
    });
    assert!(v.iter().any(|v| v.event == k && v.rule == "LIB-HTH-04"), "{v:?}");

    // A night in the wrong place, or a battle whose points are not the count.
    let (g, k) = battle_with(|e| matches!(e, Event::Ended { .. }));
    let v = with_event(&g, k, |e| {
        if let Event::Ended { points, .. } = e {
            points[0] += 1;
        }
    });
    assert!(v.iter().any(|v| v.event == k && v.rule == "LIB-M-17"), "{v:?}");
    let mut events = g.events().to_vec();
    let n = events.iter().position(|e| matches!(e, Event::Night { .. })).expect("a night");
    let night = events.remove(n);
    let t = events.iter().position(|e| matches!(e, Event::TurnBegins { .. })).expect("a turn");
    events.insert(t + 1, night);
    let v = audit_events(g.rules(), &g.scenario().state, &events);
    assert!(v.iter().any(|v| v.rule == "LIB-DAY-01"), "{v:?}");
}

/// Dismounted cavalry changes formation as infantry does (LIB-M-10): the engine's allowance is
/// the umpire's reading of the table.
#[test]
fn dismounted_cavalry_changes_formation_at_the_infantry_rate() {
    use liberal::state::Formation;
    let rules = Liberal::new();
    let sc = tabletop::rules::RuleSet::load_scenario(&rules, &source("courthouse.toml")).unwrap();
    let st = sc.state;
    let horse = st
        .units
        .iter()
        .find(|u| rules.data.troops[u.troop].kind == liberal::data::Kind::Horse)
        .expect("cavalry in the courthouse");
    let mut u = horse.clone();
    u.mounted = false;
    u.place.formation = Formation::Line;
    let foot = &rules.data.troops[rules.data.troop("infantry").unwrap()];
    assert_eq!(rules.allowance(&st, &u, Formation::Column, false).0, foot.line_to_column);
    u.place.formation = Formation::Column;
    assert_eq!(rules.allowance(&st, &u, Formation::Line, false).0, foot.column_to_line);
    u.mounted = true;
    let own = &rules.data.troops[u.troop];
    assert_eq!(rules.allowance(&st, &u, Formation::Line, false).0, own.column_to_line);
}

/// A gun served only by infantry that fired in game turn 3 does not fire in game turn 4, not
/// even at a liberal mover in the enemy's step E (LIB-R-26, LIB-R-09): the umpire holds the
/// engine to it.
#[test]
fn an_infantry_gun_does_not_fire_at_liberal_movers_the_game_turn_after_it_fired() {
    use common::{T, scenario, unit};
    use liberal::state::{Choice, Command, Objective, Order, Phase, Shot, Stage};
    use tabletop::geometry::Point;
    use tabletop::rules::RuleSet;
    // Red's horse gun loses its four artillerymen to blue's gun in game turn 1; two red
    // infantrymen crew it in game turn 2.
    let body = unit("red", "horse_artillery", 36.0, 10.0, 0.0, "")
        + &unit("red", "infantry", 40.5, 8.0, 180.0, "figures = 12")
        + &unit("blue", "horse_artillery", 36.0, 36.0, 180.0, "")
        + &unit("blue", "infantry", 10.0, 44.0, 180.0, "figures = 12");
    let text = scenario("", &body);
    let mut t = T::at_red_turn(&text);
    let fire = |gun: usize, at: usize| Order {
        unit: gun,
        choice: Choice::Gun { to: None, facing: None, target: Some(at), shot: Shot::Round },
    };
    t.declare(Side::Red, vec![], &[]);
    t.declare(Side::Blue, vec![fire(2, 0)], &[2, 4, 3, 3, 3, 3, 1]);
    assert_eq!(t.rules.artillerymen(&t.st.units[0]), 0);
    t.declare(Side::Red, vec![Order { unit: 1, choice: Choice::Crew { gun: 0, figures: 2 } }], &[]);
    t.declare(Side::Blue, vec![], &[]);
    // Game turn 3: the infantry gun fires.
    assert_eq!(t.st.game_turn, 3);
    t.declare(Side::Red, vec![fire(0, 2)], &[1, 1]);
    // Then blue's infantry makes liberal moves across the gun's front, east then west, never
    // facing its crew (so it never fires at them), until game turn 4 ends.
    let goal = |gt: u32| if gt == 3 { Point::new(66.0, 30.0) } else { Point::new(8.0, 30.0) };
    let mut dice = SeededDice::new(5);
    let mut n = 0;
    while t.st.game_turn <= 4 && t.st.outcome.is_none() {
        let side = t.rules.pending(&t.st).sides()[0];
        let c = match &t.st.phase {
            Phase::Turn { stage: Stage::Declare, .. } if side == Side::Blue => Command::Declare {
                orders: vec![Order {
                    unit: 3,
                    choice: Choice::Liberal {
                        objective: Objective::Point { at: goal(t.st.game_turn) },
                        formation: None,
                    },
                }],
            },
            Phase::Turn { stage: Stage::Declare, .. } => Command::Declare { orders: vec![] },
            Phase::Turn { stage: Stage::Liberal { .. }, .. } => {
                serde_json::from_value(serde_json::json!({ "kind": "advance" })).unwrap()
            }
            _ => Command::Reform { formation: None },
        };
        let ev = t.rules.perform(&mut t.st, Actor::Side(side), &c, &mut dice).expect("legal");
        t.events.extend(ev);
        n += 1;
        assert!(n < 200);
    }
    let start = t.rules.load_scenario(&Source::new("test.toml", text.as_str())).unwrap().state;
    let v = audit_events(&t.rules, &start, &t.events);
    let gun_fired = |gt: u32| {
        let mut turn = 0;
        t.events.iter().any(|e| {
            if let Event::TurnBegins { game_turn, side, .. } = e {
                turn = if *side == Side::Blue { *game_turn } else { 0 };
            }
            turn == gt && matches!(e, Event::Cannon { shot, .. } if shot.gun == 0)
        })
    };
    assert!(gun_fired(3), "the infantry gun fires at the mover in blue's turn 3");
    assert!(t.st.units[0].strength() >= 2, "the infantry crew stands");
    assert!(!gun_fired(4), "the infantry gun fired in game turn 4: {v:?}");
    assert!(v.is_empty(), "{v:?}");
}
