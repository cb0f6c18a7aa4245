//! Whole scripted-against-scripted battles of two 800-point armies at the ford (Greek hoplites
//! against Carthaginians), straight through the rule set (check, `perform`; no `Game`, no
//! hashing), one core. Reports battles per second, and counts commands and dice so that
//! commands/s and dice/s follow.
//!
//! Run with `cargo bench -p wrg1969 --bench battles`.

use std::sync::LazyLock;
use tabletop::dice::{CountingDice, SeededDice};
use tabletop::rules::{Actor, RuleSet};
use wrg1969::Wrg1969;
use wrg1969::bot::Scripted;

fn main() {
    divan::main();
}

static RULES: LazyLock<Wrg1969> = LazyLock::new(Wrg1969::new);
static SCENARIO: LazyLock<wrg1969::scenario::Scenario> = LazyLock::new(|| {
    let text = include_str!("../../../scenarios/wrg1969/the_ford.toml");
    RULES.load_scenario(&tabletop::Source::new("the_ford.toml", text)).expect("it loads")
});

/// Plays battle `seed` between two scripted generals; returns (commands, dice).
fn battle(seed: u64) -> (u64, u64) {
    let r = &*RULES;
    let mut dice = CountingDice::new(seed);
    let mut rng = SeededDice::new(seed ^ 0x5eed);
    let (mut st, _) = r.setup(&SCENARIO, &mut dice);
    let mut commands = 0;
    let mut bot = Scripted;
    while let Some(&side) = r.pending(&st).sides().first() {
        let c = bots::Bot::choose(&mut bot, r, &st, side, &mut rng).expect("a command");
        r.perform(&mut st, Actor::Side(side), &c, &mut dice).expect("executes");
        commands += 1;
    }
    (commands, dice.rolled)
}

const BATTLES: u64 = 20;

/// 20 battles (seeds 1..=20) per sample: battles/s is 20 × the samples per second.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn scripted_battles(bencher: divan::Bencher) {
    bencher
        .counter(divan::counter::ItemsCount::new(BATTLES))
        .bench_local(|| (1..=BATTLES).map(battle).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1)));
    let (c, d) = (1..=BATTLES).map(battle).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    println!(
        "per battle: {:.1} commands, {:.1} dice",
        c as f64 / BATTLES as f64,
        d as f64 / BATTLES as f64
    );
}
