//! The umpire (`tests/umpire/mod.rs`) reads whole battles on every ready scenario, scripted
//! against scripted, scripted against a uniform pick of the legal commands and uniform picks
//! against each other, and finds no event that breaks a rule. `cargo run --release -p othw
//! --example umpire` reads thousands more.
mod common;
mod umpire;
use common::*;
use umpire::{Player, Verdict, umpire_battle};

const READY: [&str; 7] = [
    "open_field.toml",
    "river_ford.toml",
    "hills_woods.toml",
    "generic.toml",
    "gaugamela.toml",
    "raphia.toml",
    "zama.toml",
];

#[test]
fn the_umpire_finds_nothing_wrong_in_battles_on_every_scenario() {
    let r = rules();
    let mut verdict = Verdict::default();
    let seeds = if cfg!(debug_assertions) { 2 } else { 10 };
    for name in READY {
        let sc = load(&ready(name));
        for seed in 1..=seeds {
            for players in [
                [Player::Scripted, Player::Scripted],
                [Player::Scripted, Player::Random],
                [Player::Random, Player::Random],
            ] {
                umpire_battle(&r, name, &sc, seed, players, &mut verdict);
            }
        }
    }
    eprintln!(
        "{} battles, {} commands, {} events read; {} violations",
        verdict.battles,
        verdict.commands,
        verdict.events,
        verdict.violations.len()
    );
    assert!(verdict.events > 1000, "{verdict:?}");
    assert!(
        verdict.violations.is_empty(),
        "{}",
        verdict.violations[..verdict.violations.len().min(20)].join("\n")
    );
}

/// The umpire is not blind: a battle's events, each broken in one way, are each caught.
#[test]
fn the_umpire_catches_events_that_break_the_rules() {
    use othw::state::{Event, Placement};
    use tabletop::grid::CellPos;
    let r = rules();
    let sc = load(&ready("generic.toml"));
    let b = umpire::play(&r, &sc, 3, [Player::Scripted, Player::Random]);
    assert!(umpire::read(&r, &b).0.is_empty(), "the battle itself is clean");
    type Tamper = fn(&mut Event) -> bool;
    let cases: [(&str, Tamper); 7] = [
        ("a die too many", |e| match e {
            Event::Combat { attacker_rolls, .. } => {
                attacker_rolls.push(attacker_rolls[0].clone());
                true
            }
            _ => false,
        }),
        ("an easier score", |e| match e {
            Event::Combat { attacker_need, .. } if *attacker_need > 2 => {
                *attacker_need -= 1;
                true
            }
            _ => false,
        }),
        ("a move too far", |e| match e {
            Event::Placed { how: Placement::Move, from, to, facing, .. } if from != to => {
                *to = CellPos::new(
                    to.col + 3 * (to.col - from.col),
                    to.row + 3 * (to.row - from.row),
                );
                let _ = facing;
                true
            }
            _ => false,
        }),
        ("a passed test read as failed", |e| match e {
            Event::Test { passed, .. } if *passed => {
                *passed = false;
                true
            }
            _ => false,
        }),
        ("a strength loss from nowhere", |e| match e {
            Event::Strength { from, to, .. } if *from > *to => {
                *to = to.saturating_sub(1);
                true
            }
            _ => false,
        }),
        ("a point of army morale for nothing", |e| match e {
            Event::Morale { cause, .. } if *cause != othw::state::MoraleCause::General => {
                *cause = othw::state::MoraleCause::General;
                true
            }
            _ => false,
        }),
        ("a phase-end roll of 1 that does not end the phase", |e| match e {
            Event::PhaseEndRoll { roll, ends, .. } if roll.value == 1 => {
                *ends = false;
                true
            }
            _ => false,
        }),
    ];
    for (what, tamper) in cases {
        let mut broken = umpire::Battle {
            start: b.start.clone(),
            setup: b.setup.clone(),
            commands: b.commands.clone(),
            end: b.end.clone(),
        };
        let hit = broken.commands.iter_mut().flat_map(|c| c.2.iter_mut()).any(tamper);
        assert!(hit, "{what}: no event to break");
        let (violations, _) = umpire::read(&r, &broken);
        assert!(!violations.is_empty(), "{what} went unnoticed");
    }
}
