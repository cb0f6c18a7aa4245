//! `sim`: many battles between two bots, with statistics a rule designer can trust.
//!
//! Game `i` (from 0) is played with seed `S + i`, where `S` is the master seed, exactly as
//! `battle --seed S+i` plays it, so any game of a simulation can be watched on its own. Games
//! run on a pool of `T` threads but are gathered in index order, so every figure except the
//! timing is the same for any number of threads.

use crate::play::{Blind, End, play};
use crate::players;
use crate::report::pieces;
use anyhow::anyhow;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;
use tabletop::host::{BotSpec, HostedBot, HostedRuleSet, HostedScenario};
use tabletop::{Side, Source, Viewer};

/// What a simulation is asked to do.
pub struct SimConfig {
    /// The scenario's file name, for messages.
    pub scenario: String,
    /// How many games.
    pub games: u64,
    /// The master seed: game `i` uses `seed + i`.
    pub seed: u64,
    /// The bots, red first.
    pub specs: [BotSpec; 2],
    /// Threads to play on.
    pub threads: usize,
    /// A game not over after this many commands counts as unfinished.
    pub max_commands: usize,
    /// Show a progress bar (on a terminal).
    pub progress: bool,
}

/// One game's result.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// Who won: `Some(None)` a draw, `None` unfinished.
    pub winner: Option<Option<Side>>,
    /// Commands given.
    pub commands: u64,
    /// The turn at the end, where the rule set tells turns.
    pub turn: Option<u32>,
    /// Every figure per side: the rule set's summary, and the pieces drawn.
    pub figures: [Vec<(String, f64)>; 2],
}

/// The bots a thread kept from its last game, when both may be kept (see
/// [`tabletop::host::HostedBot::reusable`]).
type Kept = Option<[Box<dyn HostedBot>; 2]>;

/// Plays game `index`, with the bots in `kept` when there are some (else new ones), and keeps
/// them there afterwards when both may play another game.
fn one(
    rules: &dyn HostedRuleSet,
    scenario: &dyn HostedScenario,
    config: &SimConfig,
    index: u64,
    kept: &mut Kept,
) -> anyhow::Result<GameResult> {
    let seed = config.seed.wrapping_add(index);
    let mut bots = match kept.take() {
        Some(bots) => bots,
        None => players::make_pair(rules, &config.specs)?,
    };
    let game = scenario.new_game(seed);
    let (game, end) = play(game, seed, &mut bots, config.max_commands, &mut Blind)
        .map_err(|e| {
            anyhow!(
                "game {index} (seed {seed}): {e:#}\n(watch it with: strategikon battle {} --red {} --blue {} --seed {seed})",
                config.scenario,
                config.specs[0],
                config.specs[1]
            )
        })?;
    if bots.iter().all(|b| b.reusable()) {
        *kept = Some(bots);
    }
    let winner = match end {
        End::Over(o) => Some(o.winner),
        End::Unfinished => None,
    };
    let summary = game.summary();
    let drawn = pieces(&game.scene(Viewer::Umpire));
    let figures = Side::BOTH.map(|s| {
        let mut f = summary.side(s).map(|x| x.figures()).unwrap_or_default();
        f.push(("pieces_on_table".into(), drawn[s.index()] as f64));
        f
    });
    Ok(GameResult { winner, commands: game.command_count() as u64, turn: game.turn(), figures })
}

/// Plays every game and returns the results in index order, and the wall time in seconds.
pub fn run(
    rules: &dyn HostedRuleSet,
    source: &Source,
    config: &SimConfig,
) -> anyhow::Result<(Vec<GameResult>, f64)> {
    // Refuse bad bots and bad scenarios before starting any thread.
    players::make_pair(rules, &config.specs)?;
    // The scenario is read once for every game.
    let scenario = rules.load(source.clone()).map_err(|d| anyhow!("{d}"))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
        .map_err(|e| anyhow!("cannot start {} threads: {e}", config.threads))?;
    let bar = if config.progress {
        let bar = indicatif::ProgressBar::new(config.games);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} games ({per_sec}, {eta} left)",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let started = Instant::now();
    let results: Vec<anyhow::Result<GameResult>> = pool.install(|| {
        (0..config.games)
            .into_par_iter()
            // Each thread keeps its bots from game to game when they may be kept.
            .map_init(
                || None,
                |kept, i| {
                    let r = one(rules, scenario.as_ref(), config, i, kept);
                    bar.inc(1);
                    r
                },
            )
            .collect()
    });
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    // The first failing game by index, whatever the threads: the message is reproducible.
    let results: Vec<GameResult> = results.into_iter().collect::<anyhow::Result<_>>()?;
    Ok((results, secs))
}

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Debug, Serialize)]
pub struct Share {
    /// How many games.
    pub count: u64,
    /// The share of all games.
    pub share: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> Share {
    if n == 0 {
        return Share { count: k, share: 0.0, low: 0.0, high: 1.0 };
    }
    let z = 1.959_963_984_540_054_f64;
    let (k, nf) = (k as f64, n as f64);
    let p = k / nf;
    let z2n = z * z / nf;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z / (1.0 + z2n) * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt();
    Share {
        count: k as u64,
        share: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// Mean, spread and range of a figure over the games that give it.
#[derive(Clone, Debug, Serialize)]
pub struct Stats {
    /// Games that gave the figure.
    pub games: u64,
    /// The mean.
    pub mean: f64,
    /// The sample standard deviation (0 for one game).
    pub sd: f64,
    /// The median.
    pub median: f64,
    /// The least.
    pub min: f64,
    /// The most.
    pub max: f64,
}

/// The statistics of `xs` (in any order), or `None` when empty.
pub fn stats(xs: &[f64]) -> Option<Stats> {
    if xs.is_empty() {
        return None;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let m = sorted.len();
    let median = if m % 2 == 1 { sorted[m / 2] } else { (sorted[m / 2 - 1] + sorted[m / 2]) / 2.0 };
    Some(Stats {
        games: xs.len() as u64,
        mean,
        sd: var.sqrt(),
        median,
        min: sorted[0],
        max: sorted[m - 1],
    })
}

/// Outcomes of all games.
#[derive(Clone, Debug, Serialize)]
pub struct Outcomes {
    /// Red won.
    pub red_wins: Share,
    /// Blue won.
    pub blue_wins: Share,
    /// Drawn.
    pub draws: Share,
    /// Not over after the most commands allowed.
    pub unfinished: Share,
}

/// Battle length.
#[derive(Clone, Debug, Serialize)]
pub struct Length {
    /// Commands given.
    pub commands: Stats,
    /// The turn at the end, where the rule set tells turns.
    pub turns: Option<Stats>,
}

/// Throughput: the one part of the report that depends on the machine and the threads.
#[derive(Clone, Debug, Serialize)]
pub struct Timing {
    /// Threads used.
    pub threads: usize,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Games a second.
    pub games_per_second: f64,
    /// Commands a second.
    pub commands_per_second: f64,
}

/// Figures at the end, by name, for each side.
#[derive(Clone, Debug, Serialize)]
pub struct Sides {
    /// Red's figures.
    pub red: BTreeMap<String, Stats>,
    /// Blue's figures.
    pub blue: BTreeMap<String, Stats>,
}

impl Sides {
    /// Both sides with their names, red first.
    pub fn both(&self) -> [(&'static str, &BTreeMap<String, Stats>); 2] {
        [("red", &self.red), ("blue", &self.blue)]
    }
}

/// The whole report, as `--json` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct SimReport {
    /// The scenario's file.
    pub scenario: String,
    /// The rule set.
    pub ruleset: String,
    /// Its version.
    pub version: String,
    /// The red bot as named.
    pub red: String,
    /// The blue bot as named.
    pub blue: String,
    /// Games played.
    pub games: u64,
    /// The master seed: game `i` used `seed + i`.
    pub seed: u64,
    /// The most commands a game was allowed.
    pub max_commands: usize,
    /// How the games ended.
    pub outcomes: Outcomes,
    /// How long they were.
    pub length: Length,
    /// Losses and what was left at the end, per side and figure (`pieces_on_table` is counted
    /// from the drawing; the rest come from the rule set's summary).
    pub sides: Sides,
    /// Throughput.
    pub timing: Timing,
}

/// Builds the report from the results in index order.
pub fn report(
    rules: &dyn HostedRuleSet,
    config: &SimConfig,
    results: &[GameResult],
    seconds: f64,
) -> SimReport {
    let n = results.len() as u64;
    let count = |w: Option<Option<Side>>| results.iter().filter(|r| r.winner == w).count() as u64;
    let commands: Vec<f64> = results.iter().map(|r| r.commands as f64).collect();
    let turns: Vec<f64> = results.iter().filter_map(|r| r.turn.map(f64::from)).collect();
    let sides = Side::BOTH.map(|side| {
        let mut by_name: Vec<(String, Vec<f64>)> = Vec::new();
        for r in results {
            for (name, v) in &r.figures[side.index()] {
                match by_name.iter_mut().find(|(n, _)| n == name) {
                    Some((_, xs)) => xs.push(*v),
                    None => by_name.push((name.clone(), vec![*v])),
                }
            }
        }
        let figures: BTreeMap<String, Stats> =
            by_name.into_iter().filter_map(|(name, xs)| Some((name, stats(&xs)?))).collect();
        figures
    });
    let [red, blue] = sides;
    let total_commands: u64 = results.iter().map(|r| r.commands).sum();
    SimReport {
        scenario: config.scenario.clone(),
        ruleset: rules.id().to_string(),
        version: rules.version().to_string(),
        red: config.specs[0].to_string(),
        blue: config.specs[1].to_string(),
        games: n,
        seed: config.seed,
        max_commands: config.max_commands,
        outcomes: Outcomes {
            red_wins: wilson(count(Some(Some(Side::Red))), n),
            blue_wins: wilson(count(Some(Some(Side::Blue))), n),
            draws: wilson(count(Some(None)), n),
            unfinished: wilson(count(None), n),
        },
        length: Length {
            commands: stats(&commands).unwrap_or(Stats {
                games: 0,
                mean: 0.0,
                sd: 0.0,
                median: 0.0,
                min: 0.0,
                max: 0.0,
            }),
            turns: stats(&turns),
        },
        sides: Sides { red, blue },
        timing: Timing {
            threads: config.threads,
            seconds,
            games_per_second: n as f64 / seconds.max(1e-9),
            commands_per_second: total_commands as f64 / seconds.max(1e-9),
        },
    }
}

fn pct(x: f64) -> String {
    format!("{:5.1}%", 100.0 * x)
}

/// The report as text for a person.
pub fn text(r: &SimReport) -> String {
    use std::fmt::Write as _;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{} ({} {}): {} games, red {} vs blue {}, seeds {}..={}",
        r.scenario,
        r.ruleset,
        r.version,
        r.games,
        r.red,
        r.blue,
        r.seed,
        r.seed.wrapping_add(r.games.saturating_sub(1))
    );
    let _ = writeln!(o, "\noutcome          games   share   95% interval");
    let rows = [
        ("red wins", &r.outcomes.red_wins),
        ("blue wins", &r.outcomes.blue_wins),
        ("draws", &r.outcomes.draws),
        ("unfinished", &r.outcomes.unfinished),
    ];
    for (name, s) in rows {
        if name == "unfinished" && s.count == 0 {
            continue;
        }
        let _ = writeln!(
            o,
            "  {name:<12} {:>7}  {}  [{}, {}]",
            s.count,
            pct(s.share),
            pct(s.low).trim(),
            pct(s.high).trim()
        );
    }
    if r.outcomes.unfinished.count > 0 {
        let _ = writeln!(
            o,
            "  (unfinished: not over after {} commands; raise --max-commands)",
            r.max_commands
        );
    }
    let _ = writeln!(o, "\nbattle length            mean      sd   median     min     max");
    let row = |o: &mut String, name: &str, s: &Stats| {
        let _ = writeln!(
            o,
            "  {name:<20} {:>8.1} {:>7.1} {:>8.1} {:>7} {:>7}",
            s.mean, s.sd, s.median, s.min, s.max
        );
    };
    row(&mut o, "commands", &r.length.commands);
    match &r.length.turns {
        Some(t) => row(&mut o, "turns", t),
        None => {
            let _ = writeln!(o, "  (the rule set does not tell turns)");
        }
    }
    for (side, figures) in r.sides.both() {
        let _ =
            writeln!(o, "\n{side:<4} at the end          mean      sd   median     min     max");
        for (name, s) in figures {
            row(&mut o, &name.replace('_', " "), s);
        }
    }
    if r.sides.both().iter().all(|(_, f)| f.len() <= 1) {
        let _ = writeln!(
            o,
            "\n(the rule set does not yet count losses or morale; pieces are counted on the drawn table)"
        );
    }
    let t = &r.timing;
    let _ = writeln!(
        o,
        "\n{} games in {:.2} s on {} thread{}: {:.1} games/s, {:.0} commands/s",
        r.games,
        t.seconds,
        t.threads,
        if t.threads == 1 { "" } else { "s" },
        t.games_per_second,
        t.commands_per_second
    );
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::rulesets;

    /// Bots kept from game to game (the scripted players and the random one say they may be)
    /// play every game as new bots would.
    #[test]
    fn kept_bots_play_as_new_ones() {
        let rules = rulesets().get("othw").expect("O/THW is hosted");
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/othw/open_field.toml");
        let source = Source::new(path, std::fs::read_to_string(path).expect("the scenario"));
        let scenario = rules.load(source).expect("the scenario loads");
        for specs in [["scripted", "scripted"], ["scripted", "random"]] {
            let config = SimConfig {
                scenario: path.into(),
                games: 12,
                seed: 40,
                specs: specs.map(BotSpec::named),
                threads: 1,
                max_commands: 10_000,
                progress: false,
            };
            let mut kept: Kept = None;
            for i in 0..config.games {
                let with_kept = one(rules, scenario.as_ref(), &config, i, &mut kept).unwrap();
                assert!(kept.is_some(), "{specs:?}: both bots may be kept");
                let fresh = one(rules, scenario.as_ref(), &config, i, &mut None).unwrap();
                assert_eq!(with_kept, fresh, "{specs:?}: game {i}");
            }
        }
    }
}
