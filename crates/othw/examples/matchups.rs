//! Bot against bot on an O/THW scenario, with the seeds and generators of `strategikon sim`
//! (game i has seed `--seed`+i; each side's bot draws from its own generator), so any result
//! here is the CLI's result too, without the JSON host in between. Prints wins, draws and
//! losses of the first bot with the 95% Wilson interval, and the time its decisions take.
//!
//! ```text
//! cargo run --release -p othw --example matchups -- [--bot SPEC] [--vs SPEC]
//!     [--colour red|blue|both] [--games N] [--seed S] [--threads T] [--scenario FILE]
//! ```
//!
//! Bots: `scripted`, `random`, `mcts[:PARAMS]` (the bots crate's default hooks) and
//! `mcts-othw[:PARAMS]` (the O/THW hooks of `othw::search`). Defaults: `--bot mcts-othw --vs
//! scripted --colour both --games 20 --seed 1 --threads 1`, the open-field scenario.

use bots::{Bot, Mcts, MctsConfig, RandomBot};
use othw::Othw;
use othw::bot::Scripted;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use tabletop::dice::SeededDice;
use tabletop::host::BotSpec;
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

/// `strategikon`'s SplitMix64 finaliser and per-side bot generator (`players::rng`).
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn bot_rng(seed: u64, side: Side) -> SeededDice {
    SeededDice::new(mix(seed ^ mix(0xb07_0000 + side.index() as u64)))
}

fn make(spec: &str) -> Box<dyn Bot<Othw>> {
    let spec = BotSpec::parse(spec).unwrap_or_else(|e| panic!("{e}"));
    match spec.name.as_str() {
        "scripted" => Box::new(Scripted::new()),
        "random" => Box::new(RandomBot),
        "mcts" => Box::new(Mcts::<Othw>::new(
            MctsConfig::from_spec(&spec).unwrap_or_else(|e| panic!("{e}")),
        )),
        "mcts-othw" => Box::new(Probe(othw::search::mcts(&spec).unwrap_or_else(|e| panic!("{e}")))),
        other => panic!("unknown bot {other}"),
    }
}

/// CPU seconds this process has used (Linux; 0 elsewhere), to time decisions on a loaded
/// machine.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    // The fields after the command name in parentheses; utime and stime are the 14th and 15th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// Sums of the search figures over every search in this process.
static SEARCHES: Mutex<(u64, u64, u64, u64)> = Mutex::new((0, 0, 0, 0));

/// An MCTS bot whose search figures are added to [`SEARCHES`].
struct Probe(Mcts<Othw>);

impl Bot<Othw> for Probe {
    fn describe(&self) -> String {
        self.0.describe()
    }
    fn choose(
        &mut self,
        rules: &Othw,
        state: &othw::State,
        side: Side,
        rng: &mut SeededDice,
    ) -> Result<othw::Command, bots::BotError> {
        let c = self.0.choose(rules, state, side, rng)?;
        if let Some(s) = self.0.last_stats() {
            let mut t = SEARCHES.lock().unwrap();
            t.0 += 1;
            t.1 += s.iterations;
            t.2 += u64::from(s.reused);
            t.3 += s.playout_commands;
        }
        Ok(c)
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Game {
    /// Some(true): the first bot won.
    won: Option<bool>,
    commands: u32,
    decisions: u32,
    think: f64,
    slowest: f64,
    wall: f64,
}

fn battle(r: &Othw, sc: &othw::Scenario, seed: u64, first: &str, second: &str, red: bool) -> Game {
    let t = Instant::now();
    let mut dice = SeededDice::new(seed);
    let mut rngs = [bot_rng(seed, Side::Red), bot_rng(seed, Side::Blue)];
    let first_side = if red { Side::Red } else { Side::Blue };
    let mut bots = [make(first), make(second)];
    if !red {
        bots.swap(0, 1);
    }
    let (mut st, _) = r.setup(sc, &mut dice);
    let mut g = Game::default();
    while st.outcome.is_none() {
        let side = st.phasing;
        let started = Instant::now();
        let c = bots[side.index()]
            .choose(r, &st, side, &mut rngs[side.index()])
            .expect("a bot always has a command");
        if side == first_side {
            let s = started.elapsed().as_secs_f64();
            g.decisions += 1;
            g.think += s;
            g.slowest = g.slowest.max(s);
        }
        r.check(&st, Actor::Side(side), &c).expect("bots give legal commands");
        r.perform(&mut st, Actor::Side(side), &c, &mut dice).expect("executes");
        g.commands += 1;
    }
    g.won = st.outcome.and_then(|o| o.winner).map(|w| w == first_side);
    g.wall = t.elapsed().as_secs_f64();
    g
}

fn main() {
    let mut bot = "mcts-othw".to_string();
    let mut vs = "scripted".to_string();
    let mut colour = "both".to_string();
    let (mut games, mut seed, mut threads) = (20u64, 1u64, 1usize);
    let mut scenario =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/othw/open_field.toml").to_string();
    let mut dump: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--bot" => bot = value(),
            "--vs" => vs = value(),
            "--colour" => colour = value(),
            "--games" => games = value().parse().expect("a number of games"),
            "--seed" => seed = value().parse().expect("a seed"),
            "--threads" => threads = value().parse().expect("a number of threads"),
            "--scenario" => scenario = value(),
            "--dump" => dump = Some(value()),
            _ => panic!("unknown argument {a}"),
        }
    }
    let r = Othw::new();
    let text = std::fs::read_to_string(&scenario).expect("the scenario");
    let sc = r.load_scenario(&tabletop::Source::new(&scenario, text)).expect("it loads");
    if let Some(path) = dump {
        return dump_states(&r, &sc, &bot, &vs, seed, games, &path);
    }
    let colours: Vec<bool> = match colour.as_str() {
        "red" => vec![true],
        "blue" => vec![false],
        _ => vec![true, false],
    };
    for red in colours {
        let t = Instant::now();
        let cpu = cpu_seconds();
        *SEARCHES.lock().unwrap() = (0, 0, 0, 0);
        let results = Mutex::new(vec![Game::default(); games as usize]);
        let next = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads.max(1) {
                s.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= games as usize {
                            break;
                        }
                        let g = battle(&r, &sc, seed + i as u64, &bot, &vs, red);
                        results.lock().unwrap()[i] = g;
                    }
                });
            }
        });
        let results = results.into_inner().unwrap();
        let n = results.len() as u32;
        let won = results.iter().filter(|g| g.won == Some(true)).count() as u32;
        let lost = results.iter().filter(|g| g.won == Some(false)).count() as u32;
        let (lo, hi) = wilson(won, n);
        let decisions: u32 = results.iter().map(|g| g.decisions).sum();
        let think: f64 = results.iter().map(|g| g.think).sum();
        let slowest = results.iter().map(|g| g.slowest).fold(0.0, f64::max);
        let wall: f64 = results.iter().map(|g| g.wall).sum();
        let commands: u32 = results.iter().map(|g| g.commands).sum();
        println!(
            "{bot} as {} v {vs}, seeds {seed}..={}: won {won}, drawn {}, lost {lost}: {:.1}% \
             (95% {:.1}%–{:.1}%); {:.1} commands a game; {:.1} s a game; {:.3} s a decision \
             (slowest {:.2} s); {:.0} s wall",
            if red { "red" } else { "blue" },
            seed + u64::from(n) - 1,
            n - won - lost,
            100.0 * f64::from(won) / f64::from(n),
            100.0 * lo,
            100.0 * hi,
            f64::from(commands) / f64::from(n),
            wall / f64::from(n),
            think / f64::from(decisions.max(1)),
            slowest,
            t.elapsed().as_secs_f64()
        );
        let line: String = results
            .iter()
            .map(|g| match g.won {
                Some(true) => 'W',
                Some(false) => 'L',
                None => 'D',
            })
            .collect();
        println!("  {line}");
        let cpu = cpu_seconds() - cpu;
        let t = *SEARCHES.lock().unwrap();
        if t.0 > 0 {
            println!(
                "  decisions {}: {:.3} CPU s each (all threads); {:.0} iterations, {:.0} reused \
                 visits, {:.1} play-out commands an iteration",
                t.0,
                cpu / t.0 as f64,
                t.1 as f64 / t.0 as f64,
                t.2 as f64 / t.0 as f64,
                t.3 as f64 / t.1.max(1) as f64
            );
        }
    }
}

/// Writes one CSV row per state before a command of games between `first` (red) and `second`
/// (blue): the figures an evaluation might use and red's final score (1, 0.5 or 0), to fit
/// the search's evaluation.
fn dump_states(
    r: &Othw,
    sc: &othw::Scenario,
    first: &str,
    second: &str,
    seed: u64,
    games: u64,
    path: &str,
) {
    use std::fmt::Write as _;
    let mut out = String::from(
        "game,turn,turns,red_phasing,phase_over,am_r,am_b,am0_r,am0_b,sp_r,sp_b,ready_r,ready_b,\
         fleeing_r,fleeing_b,general_r,general_b,score\n",
    );
    for i in 0..games {
        let seed = seed + i;
        let mut dice = SeededDice::new(seed);
        let mut rngs = [bot_rng(seed, Side::Red), bot_rng(seed, Side::Blue)];
        let mut bots = [make(first), make(second)];
        let (mut st, _) = r.setup(sc, &mut dice);
        let mut rows = Vec::new();
        while st.outcome.is_none() {
            let side = st.phasing;
            let fig = |s: Side| {
                let (mut sp, mut ready, mut fleeing) = (0u32, 0u32, 0u32);
                for u in st.units.iter().filter(|u| u.side == s) {
                    match u.status {
                        othw::state::Status::Ready => {
                            sp += u32::from(u.sp);
                            ready += 1;
                        }
                        othw::state::Status::Rampaging => sp += u32::from(u.sp),
                        othw::state::Status::Fleeing => fleeing += 1,
                        othw::state::Status::Gone => {}
                    }
                }
                let x = st.side(s);
                let general = u32::from(st.active_general(s).is_some());
                (x.am, x.am_start, sp, ready, fleeing, general)
            };
            let (a, b) = (fig(Side::Red), fig(Side::Blue));
            rows.push(format!(
                "{i},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                st.turn,
                st.turns,
                u8::from(side == Side::Red),
                u8::from(st.phase_over),
                a.0,
                b.0,
                a.1,
                b.1,
                a.2,
                b.2,
                a.3,
                b.3,
                a.4,
                b.4,
                a.5,
                b.5
            ));
            let c = bots[side.index()]
                .choose(r, &st, side, &mut rngs[side.index()])
                .expect("a bot always has a command");
            r.perform(&mut st, Actor::Side(side), &c, &mut dice).expect("executes");
        }
        let score = match st.outcome.and_then(|o| o.winner) {
            Some(Side::Red) => 1.0,
            Some(Side::Blue) => 0.0,
            None => 0.5,
        };
        for row in rows {
            let _ = writeln!(out, "{row},{score}");
        }
    }
    std::fs::write(path, out).expect("the dump is written");
}
