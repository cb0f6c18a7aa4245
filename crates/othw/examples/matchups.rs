//! Bot against bot on the open-field scenario: the scripted player against the random one, and
//! MCTS (the bots crate's default budget and hooks) against the scripted player, with seeds
//! 1..=N and the sides alternated (odd seeds: the first-named bot is red). Prints wins, draws,
//! losses and the 95% Wilson interval of the win rate.
//!
//! `cargo run --release -p othw --example matchups -- [scripted-vs-random games] [mcts games]`
//! (defaults 1000 and 200; give 0 to skip a matchup).

use bots::{Bot, Mcts, MctsConfig, RandomBot};
use othw::Othw;
use othw::bot::Scripted;
use std::time::Instant;
use tabletop::dice::SeededDice;
use tabletop::rules::{Actor, RuleSet, Side};

/// The 95% Wilson score interval of `k` successes in `n`.
fn wilson(k: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p, z) = (f64::from(n), f64::from(k) / f64::from(n), 1.96f64);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (centre - half, centre + half)
}

/// Plays one battle; `first` commands red when `first_is_red`. Returns the winner as "first",
/// "second" or a draw (`None`).
fn battle(
    r: &Othw,
    sc: &othw::Scenario,
    seed: u64,
    first: &mut dyn Bot<Othw>,
    second: &mut dyn Bot<Othw>,
    first_is_red: bool,
) -> Option<bool> {
    let mut dice = SeededDice::new(seed);
    let mut rng_first = SeededDice::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 1);
    let mut rng_second = SeededDice::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 2);
    let (mut st, _) = r.setup(sc, &mut dice);
    let first_side = if first_is_red { Side::Red } else { Side::Blue };
    while st.outcome.is_none() {
        let side = st.phasing;
        let c = if side == first_side {
            first.choose(r, &st, side, &mut rng_first)
        } else {
            second.choose(r, &st, side, &mut rng_second)
        }
        .expect("a bot always has a command");
        r.check(&st, Actor::Side(side), &c).expect("bots give legal commands");
        for e in r.execute(&st, Actor::Side(side), &c, &mut dice).expect("executes") {
            r.apply(&mut st, &e);
        }
    }
    st.outcome.and_then(|o| o.winner).map(|w| w == first_side)
}

fn matchup(
    label: &str,
    r: &Othw,
    sc: &othw::Scenario,
    games: u32,
    first: &mut dyn Bot<Othw>,
    second: &mut dyn Bot<Othw>,
) {
    if games == 0 {
        return;
    }
    let t = Instant::now();
    let (mut won, mut drawn, mut lost) = (0u32, 0u32, 0u32);
    for seed in 1..=u64::from(games) {
        match battle(r, sc, seed, first, second, seed % 2 == 1) {
            Some(true) => won += 1,
            Some(false) => lost += 1,
            None => drawn += 1,
        }
    }
    let (lo, hi) = wilson(won, games);
    println!(
        "{label}: {games} games: won {won}, drawn {drawn}, lost {lost}: win rate {:.1}% \
         (95% Wilson {:.1}%–{:.1}%), {:.1} s",
        100.0 * f64::from(won) / f64::from(games),
        100.0 * lo,
        100.0 * hi,
        t.elapsed().as_secs_f64()
    );
}

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u32>().expect("a number of games"));
    let vs_random = args.next().unwrap_or(1000);
    let vs_mcts = args.next().unwrap_or(200);
    let r = Othw::new();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/othw/open_field.toml");
    let text = std::fs::read_to_string(path).expect("the scenario");
    let sc = r.load_scenario(&tabletop::Source::new(path, text)).expect("it loads");
    matchup("scripted vs random", &r, &sc, vs_random, &mut Scripted::new(), &mut RandomBot);
    matchup(
        "mcts (default) vs scripted",
        &r,
        &sc,
        vs_mcts,
        &mut Mcts::new(MctsConfig::default()),
        &mut Scripted::new(),
    );
}
