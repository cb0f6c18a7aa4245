//! The tuned search (`mcts-othw`): it finishes a beaten army, declines a gamble that can only
//! lose a won battle, keeps to legal commands, reproduces its choices from a seed, and its
//! evaluation and position keys behave.
mod common;
use bots::{Bot, Budget, Hooks, MctsConfig};
use common::*;
use othw::bot::Scripted;
use othw::search::{OthwHooks, fingerprint, win_chance};
use othw::state::{Command, State};
use othw::{Othw, search};
use std::sync::Arc;
use tabletop::dice::SeededDice;
use tabletop::host::{BotSpec, Host, HostedRuleSet};
use tabletop::rules::{RuleSet, Side};

fn tuned(iterations: u32) -> bots::Mcts<Othw> {
    let config = MctsConfig { budget: Budget::Iterations(iterations), ..search::default_config() };
    bots::Mcts::with_hooks(config, Arc::new(OthwHooks::default()))
}

/// Red's heavy infantry stands behind blue's last levies (red's phase, blue's army morale
/// down to 1): attacking them wins the battle outright.
fn beaten_army() -> State {
    let text = scenario_text(
        &(unit("red", "Heavy Infantry", "Hammer", 5, 1, "north")
            + &unit("red", "Infantry", "Reserve", 1, 0, "north")
            + &unit("blue", "Levies", "Last levies", 5, 6, "north")),
    );
    let mut st = state(&text);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 2, 5, 4, N);
    st.sides[1].am = 1;
    st
}

/// The last phase of the battle is red's, and red has lost less army morale than blue: ending
/// the phase wins. But red's army morale is down to 1, and red's heavy infantry, down to its
/// last strength point, faces blue's infantry: one hit in a fight would break it, and red
/// would lose the battle.
fn won_battle() -> State {
    let text = scenario_text(
        &(unit("red", "Heavy Infantry", "Cohort", 5, 1, "north")
            + &unit("red", "Infantry", "Reserve", 1, 0, "north")
            + &unit("blue", "Infantry", "Line", 5, 6, "south")
            + &unit("blue", "Infantry", "Second line", 9, 7, "south")),
    )
    .replace("first = \"red\"", "first = \"blue\"\nturns = 1");
    let mut st = state(&text);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 2, 5, 4, S);
    end_phase(&mut st, &[]);
    assert_eq!((st.phasing, st.turn, st.turns), (Side::Red, 1, 1));
    st.units[0].sp = 1;
    st.sides[0].am = 1;
    st.sides[1].am = 2;
    st.sides[1].am_start = 9;
    st
}

#[test]
fn the_search_finishes_a_beaten_army() {
    let r = Othw::new();
    let st = beaten_army();
    for seed in 0..3 {
        let mut bot = tuned(300);
        let c = bot.choose(&r, &st, Side::Red, &mut SeededDice::new(seed)).expect("a command");
        assert!(
            matches!(c, Command::Attack { unit: 0, .. }),
            "seed {seed}: {c:?} instead of the attack that wins"
        );
        let stats = bot.last_stats().expect("searched");
        assert!(stats.chosen_value > 0.7, "seed {seed}: the win is valued {stats:?}");
    }
}

#[test]
fn the_search_declines_a_fight_that_can_only_lose_a_won_battle() {
    let r = Othw::new();
    let st = won_battle();
    let legal = r.legal(&st, Side::Red);
    assert!(legal.iter().any(|c| matches!(c, Command::Attack { unit: 0, .. })), "{legal:?}");
    for seed in 0..3 {
        let mut bot = tuned(300);
        let c = bot.choose(&r, &st, Side::Red, &mut SeededDice::new(seed)).expect("a command");
        assert!(!matches!(c, Command::Attack { .. }), "seed {seed}: {c:?} risks the win");
        let stats = bot.last_stats().expect("searched");
        assert!(stats.chosen_value > 0.99, "seed {seed}: a sure win is valued {stats:?}");
    }
}

#[test]
fn options_lead_with_the_scripted_choice_and_hold_every_attack_and_the_end_of_the_phase() {
    let r = Othw::new();
    let hooks = OthwHooks::default();
    let mut st = state(&ready("open_field.toml"));
    // Where the scripted player wants other standing orders, that alone is offered.
    st.sides[0].orders.reroll = false;
    let first = hooks.options(&r, &st, Side::Red, &mut SeededDice::new(1)).expect("options");
    assert!(matches!(first.as_slice(), [Command::Orders { .. }]), "{first:?}");
    run(&mut st, first[0].clone(), &[]);
    let options = hooks.options(&r, &st, Side::Red, &mut SeededDice::new(1)).expect("options");
    let (scripted, _) = Scripted::new().best(&r, &st, Side::Red).expect("a choice");
    assert_eq!(options[0], scripted);
    assert!(options.contains(&Command::EndPhase));
    let legal = r.legal(&st, Side::Red);
    for c in &options {
        assert!(legal.contains(c), "{c:?} is not legal");
    }
    let st = won_battle();
    let options = hooks.options(&r, &st, Side::Red, &mut SeededDice::new(1)).expect("options");
    for c in r.legal(&st, Side::Red) {
        if matches!(c, Command::Attack { .. } | Command::EndPhase) {
            assert!(options.contains(&c), "{c:?} missing from {options:?}");
        }
    }
    // Not the phasing side: nothing to offer.
    assert!(hooks.options(&r, &st, Side::Blue, &mut SeededDice::new(1)).is_none());
}

#[test]
fn the_evaluation_is_a_chance_shared_between_the_sides_and_follows_army_morale() {
    let st = state(&ready("open_field.toml"));
    for s in [&st, &beaten_army(), &won_battle()] {
        let (red, blue) = (win_chance(s, Side::Red), win_chance(s, Side::Blue));
        assert!((0.0..=1.0).contains(&red));
        assert!((red + blue - 1.0).abs() < 1e-12, "{red} + {blue}");
    }
    // Blue loses a unit (4 strength points) and 2 points of army morale.
    let mut better = st.clone();
    better.sides[1].am -= 2;
    better.units[12].status = othw::state::Status::Gone;
    assert!(win_chance(&better, Side::Red) > win_chance(&st, Side::Red) + 0.1);
    // Army morale lost weighs more late in the battle, and nearer to breaking.
    let (mut early, mut late) = (st.clone(), st.clone());
    early.sides[1].am -= 2;
    late.sides[1].am -= 2;
    late.turn = 14;
    assert!(win_chance(&early, Side::Red) > win_chance(&st, Side::Red));
    assert!(win_chance(&late, Side::Red) > win_chance(&early, Side::Red) + 0.1);
    let mut near = st.clone();
    near.sides[0].am = 1;
    assert!(win_chance(&near, Side::Red) < 0.25);
}

#[test]
fn positions_are_keyed_by_what_matters() {
    let st = beaten_army();
    assert_eq!(fingerprint(&st), fingerprint(&st.clone()));
    let mut moved = st.clone();
    put(&mut moved, 1, 2, 0, N);
    assert_ne!(fingerprint(&st), fingerprint(&moved));
    let mut weaker = st.clone();
    weaker.units[0].sp -= 1;
    assert_ne!(fingerprint(&st), fingerprint(&weaker));
    let mut later = st.clone();
    later.phase_over = true;
    assert_ne!(fingerprint(&st), fingerprint(&later));
}

/// Plays open-field battles between the tuned search (red) and the scripted player; returns
/// the commands given and the search's reused visits.
fn battle(seed: u64, iterations: u32) -> (Vec<Command>, u32) {
    let r = Othw::new();
    let sc = load(&ready("open_field.toml"));
    let mut dice = SeededDice::new(seed);
    let (mut st, _) = r.setup(&sc, &mut dice);
    let mut bot = tuned(iterations);
    let mut scripted = Scripted::new();
    let (mut rng, mut other) = (SeededDice::new(seed + 1), SeededDice::new(seed + 2));
    let (mut given, mut reused) = (Vec::new(), 0);
    while st.outcome.is_none() && given.len() < 400 {
        let side = st.phasing;
        let c = if side == Side::Red {
            let c = bot.choose(&r, &st, side, &mut rng).expect("a command");
            reused += bot.last_stats().map_or(0, |s| s.reused);
            c
        } else {
            scripted.choose(&r, &st, side, &mut other).expect("a command")
        };
        given.push(c.clone());
        bots::step(&r, &mut st, side, &c, &mut dice).expect("only legal commands");
    }
    assert!(st.outcome.is_some(), "the battle ends");
    (given, reused)
}

#[test]
fn a_seed_reproduces_a_whole_battle_and_the_tree_is_reused() {
    let (a, reused) = battle(3, 40);
    assert_eq!((a.clone(), reused), battle(3, 40));
    assert!(reused > 0, "no decision reused the last one's tree");
}

#[test]
fn the_host_offers_the_tuned_search_with_its_parameters() {
    let host = search::register(bots::with_standard_bots(Host::new(Othw::new())));
    let bot = host.new_bot(&BotSpec::parse("mcts-othw").expect("parses")).expect("made");
    assert!(bot.describe().contains("2500 iterations"), "{}", bot.describe());
    let spec = BotSpec::parse("mcts-othw:200,stop=0.2,draw=0.4,c=0.3").expect("parses");
    assert!(host.new_bot(&spec).expect("made").describe().contains("200 iterations"));
    for bad in ["mcts-othw:stop=2", "mcts-othw:stop=x", "mcts-othw:draw=-1", "mcts-othw:speed=1"] {
        assert!(host.new_bot(&BotSpec::parse(bad).expect("parses")).is_err(), "{bad} accepted");
    }
}
