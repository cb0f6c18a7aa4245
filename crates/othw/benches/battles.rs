//! Whole scripted-against-scripted battles on the open-field scenario, straight through the
//! rule set (`perform`: each command carried out on the state itself; no `Game`, no checks, no
//! hashing), one core. Reports battles per second, commands per second and dice per second
//! (three benchmarks over the same battles), and prints the commands and dice of the battles
//! first.
//!
//! Run with `cargo bench -p othw --bench battles`.

use othw::Othw;
use othw::bot::Scripted;
use std::sync::LazyLock;
use tabletop::dice::CountingDice;
use tabletop::rules::{Actor, RuleSet};

fn main() {
    let mut bots = [Scripted::new(), Scripted::new()];
    let (commands, dice) =
        (1..=BATTLES).map(|s| battle(s, &mut bots)).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    println!(
        "{BATTLES} battles (seeds 1..={BATTLES}) a sample: {commands} commands, {dice} dice \
         ({:.1} commands and {:.1} dice a battle)",
        commands as f64 / BATTLES as f64,
        dice as f64 / BATTLES as f64
    );
    divan::main();
}

static RULES: LazyLock<Othw> = LazyLock::new(Othw::new);
static SCENARIO: LazyLock<othw::Scenario> = LazyLock::new(|| {
    let text = include_str!("../../../scenarios/othw/open_field.toml");
    RULES.load_scenario(&tabletop::Source::new("open_field.toml", text)).expect("it loads")
});

/// Plays battle `seed` between two scripted players; returns (commands, dice).
fn battle(seed: u64, bots: &mut [Scripted; 2]) -> (u64, u64) {
    let r = &*RULES;
    let mut dice = CountingDice::new(seed);
    let (mut st, _) = r.setup(&SCENARIO, &mut dice);
    let mut commands = 0;
    while st.outcome.is_none() {
        let side = st.phasing;
        let (c, _) = bots[side.index()].best(r, &st, side).expect("the phasing side has a command");
        r.perform(&mut st, Actor::Side(side), &c, &mut dice).expect("executes");
        commands += 1;
    }
    (commands, dice.rolled)
}

const BATTLES: u64 = 200;

/// 200 battles (seeds 1..=200) per sample: battles/s is 200 × the samples per second.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn scripted_battles(bencher: divan::Bencher) {
    let mut bots = [Scripted::new(), Scripted::new()];
    bencher.counter(divan::counter::ItemsCount::new(BATTLES)).bench_local(|| {
        (1..=BATTLES).map(|s| battle(s, &mut bots)).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    });
}

/// The same battles counted in commands (commands/s).
#[divan::bench(sample_count = 10, sample_size = 1)]
fn scripted_battles_commands(bencher: divan::Bencher) {
    let mut bots = [Scripted::new(), Scripted::new()];
    let (commands, _) =
        (1..=BATTLES).map(|s| battle(s, &mut bots)).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    bencher
        .counter(divan::counter::ItemsCount::new(commands))
        .bench_local(|| (1..=BATTLES).map(|s| battle(s, &mut bots)).fold(0, |a, b| a + b.0));
}

/// The same battles counted in dice rolled (dice/s).
#[divan::bench(sample_count = 10, sample_size = 1)]
fn scripted_battles_dice(bencher: divan::Bencher) {
    let mut bots = [Scripted::new(), Scripted::new()];
    let (_, dice) =
        (1..=BATTLES).map(|s| battle(s, &mut bots)).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    bencher
        .counter(divan::counter::ItemsCount::new(dice))
        .bench_local(|| (1..=BATTLES).map(|s| battle(s, &mut bots)).fold(0, |a, b| a + b.1));
}
