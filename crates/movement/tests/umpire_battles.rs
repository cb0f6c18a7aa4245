//! The umpire over whole battles: every ready scenario, played by the scripted and the random
//! bots, must pass every check of `umpire` with no violation; and the umpire must catch a
//! tampered log. (The thousand-battle run is `cargo run --release -p movement --example
//! umpire`.)
#[path = "umpire/mod.rs"]
mod umpire;

use movement::bot::Scripted;
use movement::state::Event;
use umpire::{BotBox, check_game, play, ready_scenarios};

fn bot(name: &str) -> BotBox {
    match name {
        "scripted" => Box::new(Scripted::default()),
        _ => Box::new(bots::RandomBot),
    }
}

#[test]
fn the_umpire_finds_no_violation_in_battles_on_every_ready_scenario() {
    let pairs = [
        ("scripted", "scripted"),
        ("random", "scripted"),
        ("scripted", "random"),
        ("random", "random"),
    ];
    let mut battles = 0;
    let mut moves = 0;
    for (name, text) in ready_scenarios() {
        for (k, (r, b)) in pairs.iter().enumerate() {
            let seed = 1 + k as u64;
            let g = play(&text, &name, seed, &mut bot(r), &mut bot(b));
            assert!(g.outcome().is_some(), "{name} {r} v {b} seed {seed} did not end");
            let (v, tally) = check_game(&g);
            assert!(
                v.is_empty(),
                "{name} {r} v {b} seed {seed}: {}",
                v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("\n")
            );
            battles += 1;
            moves += tally.moves;
        }
    }
    assert!(battles >= 12 && moves > 200, "{battles} battles, {moves} moves");
}

#[test]
fn the_umpire_catches_a_tampered_move() {
    let (name, text) =
        ready_scenarios().into_iter().find(|(n, _)| n.ends_with("ford.toml")).unwrap();
    let g = play(&text, &name, 3, &mut bot("scripted"), &mut bot("scripted"));
    assert!(check_game(&g).0.is_empty());
    // The same battle with one move made cheaper than its parts: replayed by hand.
    let mut events = g.events().to_vec();
    let k = events
        .iter()
        .position(|e| matches!(e, Event::Moved { items, .. } if !items.is_empty()))
        .unwrap();
    if let Event::Moved { cost, .. } = &mut events[k] {
        *cost *= 0.5;
    }
    let rules = movement::Movement::new();
    let mut u = umpire::Umpire::new(&rules, rules.initial_state(g.scenario()));
    let starts = g.command_starts();
    let mut next = 0;
    for (i, e) in events.iter().enumerate() {
        while next < starts.len() && starts[next] == i {
            let c = serde_json::from_value(g.commands()[next].command.clone()).unwrap();
            u.command(g.commands()[next].actor, c);
            next += 1;
        }
        u.event(i, e);
    }
    let (v, _) = u.finish();
    assert!(v.iter().any(|x| x.event == k && x.what.contains("items sum")), "{v:?}");
}
