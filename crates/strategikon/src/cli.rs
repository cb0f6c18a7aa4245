//! The subcommands.

use crate::files::{self, Loaded};
use crate::play::{End, play};
use crate::report::{Meta, Reporter};
use crate::sim::SimConfig;
use crate::{players, plot, registry, sim};
use anyhow::{Context, bail};
use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use tabletop::Viewer;
use tabletop::host::{BotSpec, HostedGame, HostedRuleSet};
use tabletop::{Outcome, Source};

/// How bots are named on the command line, for `--help`.
const BOT_HELP: &str = "NAME or NAME:PARAMS. Every rule set has `random` and `mcts`; `mcts:2000` searches 2000 iterations a decision (the default is 1000), `mcts:2s` two seconds (not reproducible), `mcts:iterations=500,depth=40,c=0.7,widen=3` sets the play-out length, the exploration constant and the widening. `strategikon rulesets` lists each rule set's bots";

/// Strategikon: classic miniature wargames played, umpired and simulated by computer.
#[derive(Parser, Debug)]
#[command(name = "strategikon", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the rule sets this program plays, with their versions.
    Rulesets,
    /// Check scenario files (TOML) and game records (JSON); print every problem found.
    Validate {
        /// The files to check.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Draw a scenario's table, or a recorded game's table at its end, as SVG or PNG.
    Render {
        /// A scenario (TOML) or a game record (JSON).
        file: PathBuf,
        /// Where to write the picture; `.svg` or `.png`.
        #[arg(short, long)]
        output: PathBuf,
        /// For a record: draw the table after this many commands instead of at the end.
        #[arg(long)]
        after: Option<usize>,
        /// For PNG: pixels per inch of table.
        #[arg(long, default_value_t = 20.0)]
        scale: f32,
    },
    /// Verify a game record by replaying it, then print its narrated log.
    Replay {
        /// The record (JSON).
        record: PathBuf,
        /// Print only the verdict, not the log.
        #[arg(long)]
        quiet: bool,
    },
    /// Play a whole battle between two bots; print the narrated log (every roll with its rule)
    /// and the result, and optionally write an HTML report and the game record.
    Battle {
        /// The scenario (TOML).
        scenario: PathBuf,
        /// The red side's bot.
        #[arg(long, default_value = "random", value_name = "BOT", long_help = BOT_HELP)]
        red: String,
        /// The blue side's bot (see --red).
        #[arg(long, default_value = "random", value_name = "BOT")]
        blue: String,
        /// The game's seed: the same seed and bots play the same battle.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write a battle report here: one HTML file with the log, the table at the start, at
        /// every turn and at the end, and the losses and morale.
        #[arg(long, value_name = "FILE.html")]
        report: Option<PathBuf>,
        /// Write the game record (JSON) here, for `replay`.
        #[arg(long, value_name = "FILE.json")]
        record: Option<PathBuf>,
        /// Write every event here as one JSON object a line: its place, the command it came
        /// from, the rules it cites, its log line and the event itself with every position,
        /// die and total, so anyone can audit the battle with their own tools.
        #[arg(long, value_name = "FILE.jsonl")]
        events: Option<PathBuf>,
        /// Whose eyes the report's tables are drawn through: `red` or `blue` (that side's own
        /// orders and plans shown, the enemy's hidden), `spectator` (no orders) or `umpire`
        /// (everything).
        #[arg(long, default_value = "umpire", value_name = "WHO", value_parser = parse_viewer)]
        view: Viewer,
        /// Stop a battle that has not ended after this many commands (an error).
        #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        max_commands: u64,
        /// Print only the result, not the log.
        #[arg(long)]
        quiet: bool,
    },
    /// Play many battles between two bots and report wins, draws and losses with 95%
    /// intervals, battle length, and losses and morale at the end. Game i is played with seed
    /// SEED+i, exactly as `battle --seed SEED+i` plays it; results are the same for any number
    /// of threads.
    Sim {
        /// The scenario (TOML).
        scenario: PathBuf,
        /// How many battles.
        #[arg(long, short = 'n', default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        games: u64,
        /// The red side's bot.
        #[arg(long, default_value = "random", value_name = "BOT", long_help = BOT_HELP)]
        red: String,
        /// The blue side's bot (see --red).
        #[arg(long, default_value = "random", value_name = "BOT")]
        blue: String,
        /// The master seed: game i uses SEED+i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads to play on (default: every core).
        #[arg(long, short = 't', value_parser = clap::value_parser!(u64).range(1..=1024))]
        threads: Option<u64>,
        /// A battle not over after this many commands counts as unfinished.
        #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        max_commands: u64,
        /// Print the results as JSON (everything but `timing` is the same for any threads).
        #[arg(long)]
        json: bool,
        /// Draw the distributions (outcomes, battle length, losses) as an SVG file.
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
    },
    /// The exact odds of one O/THW combat, by enumerating the dice.
    Duel {
        /// The rule set (only `othw` has duels).
        ruleset: String,
        /// The attacking unit type: `NAME` or `ROSTER:NAME` (e.g. `roman:Legion`).
        #[arg(long)]
        attacker: String,
        /// The defending unit type.
        #[arg(long)]
        defender: String,
        /// The attack comes from the defender's rear.
        #[arg(long)]
        rear: bool,
        /// The attack comes from the defender's flank.
        #[arg(long)]
        flank: bool,
        /// The ground: `wood` or `ford` (the defender's square), `downhill` (the attacker on a hill).
        #[arg(long, value_enum)]
        terrain: Option<crate::duel::DuelTerrain>,
        /// A general with the attacking unit (e.g. `Alexander`); he adds his attack dice.
        #[arg(long)]
        general: Option<String>,
        /// A general with the defending unit (e.g. `Hannibal`).
        #[arg(long)]
        defender_general: Option<String>,
        /// Each fighter's strength points at the start of the round, `ATTACKER,DEFENDER`
        /// (e.g. `2,4`); full strength when not given.
        #[arg(long, value_name = "ATT,DEF", value_parser = crate::duel::parse_sp)]
        sp: Option<(u8, u8)>,
        /// Traits added to the attacker, comma-separated data names (e.g.
        /// `phalanx,throwing_spears`; also archers, hoplites, elephant_drill, indian, …).
        #[arg(long, value_name = "TRAITS")]
        attacker_traits: Vec<String>,
        /// Traits added to the defender.
        #[arg(long, value_name = "TRAITS")]
        defender_traits: Vec<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Serve the browser tabletop: create games against a friend or the computer, play them
    /// over the network and keep them (SQLite by default, or PostgreSQL); prints the address
    /// to open.
    Serve {
        /// The address to listen on (port 0 picks a free port).
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// Where games are kept: an SQLite file (created if missing) or a
        /// `postgres://user@host:port/db` URL.
        #[arg(long, default_value = "strategikon.db", value_name = "FILE.db | postgres://…")]
        database: String,
        /// Offer the scenarios in this folder (`<ruleset>/<name>.toml`) instead of the built-in
        /// ones.
        #[arg(long, value_name = "DIR")]
        scenarios: Option<PathBuf>,
        /// Let pages from this origin (e.g. `http://localhost:5173`) open game connections as
        /// well as the server's own; may be given more than once.
        #[arg(long = "allow-origin", value_name = "ORIGIN")]
        allow_origin: Vec<String>,
    },
    /// Answer an umpire's question (JSON) for a rule set, as JSON.
    Referee {
        /// The rule set, e.g. `movement`.
        ruleset: String,
        /// The question file (JSON); `-` reads standard input.
        question: PathBuf,
    },
}

/// Runs the program with these arguments.
pub fn run(args: impl IntoIterator<Item = OsString>) -> anyhow::Result<ExitCode> {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            // Help and version go to stdout with success; usage errors to stderr with code 2.
            e.print().ok();
            return Ok(if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS });
        }
    };
    match cli.command {
        Command::Duel {
            ruleset,
            attacker,
            defender,
            rear,
            flank,
            terrain,
            general,
            defender_general,
            sp,
            attacker_traits,
            defender_traits,
            json,
        } => {
            if ruleset != "othw" {
                bail!("duel is for the rule set othw, not '{ruleset}'");
            }
            let q = crate::duel::DuelQuestion {
                attacker: &attacker,
                defender: &defender,
                rear,
                flank,
                terrain,
                general: general.as_deref(),
                defender_general: defender_general.as_deref(),
                sp,
                attacker_traits: &attacker_traits,
                defender_traits: &defender_traits,
            };
            let (value, text) = crate::duel::answer(&q)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&value)?);
            } else {
                print!("{text}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Rulesets => {
            for r in registry::rulesets().all() {
                let bots: Vec<String> = r.bots().into_iter().map(|b| b.name).collect();
                println!("{}\t{}\tbots: {}", r.id(), r.version(), bots.join(", "));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Validate { files } => validate(&files),
        Command::Render { file, output, after, scale } => render(&file, &output, after, scale),
        Command::Replay { record, quiet } => replay(&record, quiet),
        Command::Referee { ruleset, question } => referee(&ruleset, &question),
        Command::Serve { addr, database, scenarios, allow_origin } => {
            crate::serve::run(addr, &database, scenarios.as_deref(), allow_origin)
        }
        Command::Battle {
            scenario,
            red,
            blue,
            seed,
            report,
            record,
            events,
            view,
            max_commands,
            quiet,
        } => {
            let specs = [players::spec(&red)?, players::spec(&blue)?];
            let outputs = Outputs {
                report: report.as_deref(),
                record: record.as_deref(),
                events: events.as_deref(),
                view,
            };
            battle(&scenario, specs, seed, outputs, max_commands as usize, quiet)
        }
        Command::Sim { scenario, games, red, blue, seed, threads, max_commands, json, plot } => {
            let specs = [players::spec(&red)?, players::spec(&blue)?];
            let threads = match threads {
                Some(t) => t as usize,
                None => std::thread::available_parallelism().map_or(1, |n| n.get()),
            };
            let (rules, source) = scenario_only(&scenario, "sim")?;
            let config = SimConfig {
                scenario: scenario.display().to_string(),
                games,
                seed,
                specs,
                threads,
                max_commands: max_commands as usize,
                progress: std::io::stderr().is_terminal(),
            };
            simulate(rules, &source, &config, json, plot.as_deref())
        }
    }
}

fn validate(paths: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let reg = registry::rulesets();
    let mut bad = 0;
    for path in paths {
        let verdict = match files::load(path, reg) {
            Err(e) => Err(format!("{e:#}")),
            Ok(Loaded::Scenario(rules, source)) => rules
                .validate(&source)
                .map(|_| format!("{} scenario", rules.id()))
                .map_err(|d| d.to_string()),
            Ok(Loaded::Roster(source)) => {
                registry::check_roster(&source).map_err(|d| d.to_string())
            }
            Ok(Loaded::Record(rules, record)) => rules
                .replay(&record)
                .map(|g| {
                    format!(
                        "{} record, {} commands, replays exactly",
                        rules.id(),
                        g.command_count()
                    )
                })
                .map_err(|e| format!("{}: {e}", path.display())),
        };
        match verdict {
            Ok(what) => println!("{}: ok ({what})", path.display()),
            Err(msg) => {
                bad += 1;
                eprintln!("{msg}");
            }
        }
    }
    if bad > 0 {
        eprintln!("{bad} of {} files have problems", paths.len());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// Opens a scenario as a new game, or replays a record (up to `after` commands).
fn open_game(path: &Path, after: Option<usize>) -> anyhow::Result<Box<dyn HostedGame>> {
    let reg = registry::rulesets();
    match files::load(path, reg)? {
        Loaded::Scenario(rules, source) => {
            if after.is_some() {
                bail!("--after applies to game records, not to scenarios");
            }
            rules.new_game(source, 0).map_err(|d| anyhow::anyhow!("{d}"))
        }
        Loaded::Record(rules, mut record) => {
            if let Some(n) = after {
                if n > record.commands.len() {
                    bail!("--after {n}: the record has only {} commands", record.commands.len());
                }
                record.commands.truncate(n);
            }
            rules.replay(&record).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
        }
        Loaded::Roster(_) => {
            bail!("{}: an army list has no table to draw; `validate` checks it", path.display())
        }
    }
}

fn render(
    path: &Path,
    output: &Path,
    after: Option<usize>,
    scale: f32,
) -> anyhow::Result<ExitCode> {
    let game = open_game(path, after)?;
    let scene = game.scene(Viewer::Umpire);
    match output.extension().and_then(|e| e.to_str()) {
        Some("svg") => std::fs::write(output, tabletop::render::to_svg(&scene)),
        Some("png") => {
            if !(scale.is_finite() && scale > 0.0 && scale <= 200.0) {
                bail!("--scale must be a number of pixels per inch between 0 and 200");
            }
            let png =
                tabletop::render::to_png(&scene, scale).map_err(|e| anyhow::anyhow!("{e}"))?;
            std::fs::write(output, png)
        }
        _ => bail!("{}: the output must end in .svg or .png", output.display()),
    }
    .with_context(|| format!("{}: cannot write the picture", output.display()))?;
    println!("wrote {}", output.display());
    Ok(ExitCode::SUCCESS)
}

fn replay(path: &Path, quiet: bool) -> anyhow::Result<ExitCode> {
    let reg = registry::rulesets();
    let Loaded::Record(rules, record) = files::load(path, reg)? else {
        bail!("{}: replay takes a game record (.json), not a scenario", path.display());
    };
    let started = Instant::now();
    let game = rules.replay(&record).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let secs = started.elapsed().as_secs_f64();
    if !quiet {
        for line in game.log() {
            println!("{}", line.text);
        }
    }
    let n = game.command_count();
    println!(
        "verified: {} {} on '{}', seed {}, {n} commands, final state {:016x}",
        rules.id(),
        record.version,
        record.scenario_name,
        record.seed,
        game.state_hash()
    );
    match game.outcome() {
        Some(o) => match o.winner {
            Some(side) => println!("result: {side} wins: {}", o.reason),
            None => println!("result: a draw: {}", o.reason),
        },
        None => println!("result: the battle is not over"),
    }
    eprintln!(
        "replayed {n} commands in {:.3} s ({:.0} commands/s)",
        secs,
        n as f64 / secs.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}

fn referee(ruleset: &str, path: &Path) -> anyhow::Result<ExitCode> {
    registry::check_referee(ruleset)?;
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("cannot read standard input")?
    } else {
        std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read the file", path.display()))?
    };
    let question: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!("{}:{}:{}: not JSON: {e}", path.display(), e.line(), e.column())
    })?;
    let answer = registry::referee(ruleset, &question)?;
    println!("{}", serde_json::to_string_pretty(&answer)?);
    Ok(ExitCode::SUCCESS)
}

/// Where `battle` writes its files.
struct Outputs<'a> {
    report: Option<&'a Path>,
    record: Option<&'a Path>,
    events: Option<&'a Path>,
    view: Viewer,
}

/// Reads `red`, `blue`, `spectator` or `umpire`.
fn parse_viewer(text: &str) -> Result<Viewer, String> {
    match text {
        "umpire" => Ok(Viewer::Umpire),
        "spectator" => Ok(Viewer::Spectator),
        side => side
            .parse()
            .map(Viewer::Side)
            .map_err(|_| format!("'{text}' is not red, blue, spectator or umpire")),
    }
}

/// Reads a scenario for `what`, refusing a record.
fn scenario_only(path: &Path, what: &str) -> anyhow::Result<(&'static dyn HostedRuleSet, Source)> {
    let Loaded::Scenario(rules, source) = files::load(path, registry::rulesets())? else {
        bail!(
            "{}: {what} takes a scenario (.toml), not a game record: `strategikon replay` plays \
             records back",
            path.display()
        );
    };
    Ok((rules, source))
}

fn result_line(outcome: Option<&Outcome>, commands: usize) -> String {
    match outcome {
        Some(Outcome { winner: Some(side), reason }) => format!("result: {side} wins: {reason}"),
        Some(Outcome { winner: None, reason }) => format!("result: a draw: {reason}"),
        None => format!("result: the battle did not end within {commands} commands"),
    }
}

fn battle(
    path: &Path,
    specs: [BotSpec; 2],
    seed: u64,
    outputs: Outputs,
    max_commands: usize,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    let (rules, source) = scenario_only(path, "battle")?;
    // The scenario is read once: a bad one is reported before the bots are made.
    let game = rules.new_game(source, seed).map_err(|d| anyhow::anyhow!("{d}"))?;
    let mut bots = players::make_pair(rules, &specs)?;
    let described = [bots[0].describe(), bots[1].describe()];
    if !quiet {
        println!(
            "# {} ({} {}), seed {seed}: red {} vs blue {}",
            path.display(),
            rules.id(),
            rules.version(),
            described[0],
            described[1]
        );
    }
    let mut reporter = Reporter::new(!quiet, outputs.report.is_some(), outputs.view);
    let started = Instant::now();
    let (game, end) = play(game, seed, &mut bots, max_commands, &mut reporter)?;
    let secs = started.elapsed().as_secs_f64();
    let n = game.command_count();
    let outcome = match &end {
        End::Over(o) => Some(o.clone()),
        End::Unfinished => None,
    };
    let result = result_line(outcome.as_ref(), n);
    println!("{result}");
    if let Some(out) = outputs.record {
        let json = serde_json::to_string_pretty(&game.record())?;
        std::fs::write(out, json)
            .with_context(|| format!("{}: cannot write the record", out.display()))?;
        println!("record written to {}", out.display());
    }
    if let Some(out) = outputs.events {
        std::fs::write(out, event_lines(game.as_ref())?)
            .with_context(|| format!("{}: cannot write the events", out.display()))?;
        println!("events written to {}", out.display());
    }
    if let Some(out) = outputs.report {
        let meta = Meta {
            scenario: path.display().to_string(),
            bots: described,
            specs: [specs[0].to_string(), specs[1].to_string()],
            seed,
            result: result.clone(),
            record: game.record(),
        };
        let html = reporter.finish(game.as_ref(), &meta);
        std::fs::write(out, html)
            .with_context(|| format!("{}: cannot write the report", out.display()))?;
        println!("report written to {}", out.display());
    }
    eprintln!("played {n} commands in {secs:.3} s ({:.0} commands/s)", n as f64 / secs.max(1e-9));
    if outcome.is_none() {
        bail!("the battle did not end within {max_commands} commands (raise --max-commands)");
    }
    Ok(ExitCode::SUCCESS)
}

/// Every event of a game as JSON lines: `seq` (its place in the game), `command` (the index of
/// the command it came from; absent for the set-up's events), `rules`, `text` (its log line)
/// and `event` (the rule set's own event, as the record's replay produces it).
fn event_lines(game: &dyn HostedGame) -> anyhow::Result<String> {
    let starts = game.command_starts();
    let mut out = String::new();
    for (seq, (event, line)) in game.events().into_iter().zip(game.log()).enumerate() {
        let command = starts.partition_point(|&s| s <= seq).checked_sub(1);
        let mut row = serde_json::json!({
            "seq": seq,
            "rules": line.rules,
            "text": line.text,
            "event": event,
        });
        if let Some(c) = command {
            row["command"] = c.into();
        }
        out.push_str(&serde_json::to_string(&row)?);
        out.push('\n');
    }
    Ok(out)
}

fn simulate(
    rules: &dyn HostedRuleSet,
    source: &Source,
    config: &SimConfig,
    json: bool,
    plot_to: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let (results, secs) = sim::run(rules, source, config)?;
    let report = sim::report(rules, config, &results, secs);
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", sim::text(&report));
    }
    if let Some(out) = plot_to {
        std::fs::write(out, plot::svg(&report, &results))
            .with_context(|| format!("{}: cannot write the plot", out.display()))?;
        if json {
            eprintln!("plot written to {}", out.display());
        } else {
            println!("plot written to {}", out.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
