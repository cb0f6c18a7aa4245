//! The subcommands.

use crate::files::{self, Loaded};
use crate::{bots, registry};
use anyhow::{Context, bail};
use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use tabletop::Viewer;
use tabletop::host::HostedGame;

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
    /// Play a whole battle between two bots and print the narrated log.
    Battle {
        /// The scenario (TOML).
        scenario: PathBuf,
        /// The red side's bot (`random`: a random candidate command each time).
        #[arg(long, default_value = "random")]
        red: String,
        /// The blue side's bot.
        #[arg(long, default_value = "random")]
        blue: String,
        /// The game's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write the game record (JSON) here, for `replay`.
        #[arg(long)]
        record: Option<PathBuf>,
        /// Stop a battle that has not ended after this many commands.
        #[arg(long, default_value_t = 5000)]
        max_commands: usize,
        /// Print only the result, not the log.
        #[arg(long)]
        quiet: bool,
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
        Command::Rulesets => {
            for r in registry::rulesets().all() {
                println!("{}\t{}", r.id(), r.version());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Validate { files } => validate(&files),
        Command::Render { file, output, after, scale } => render(&file, &output, after, scale),
        Command::Replay { record, quiet } => replay(&record, quiet),
        Command::Referee { ruleset, question } => referee(&ruleset, &question),
        Command::Battle { scenario, red, blue, seed, record, max_commands, quiet } => {
            let bots = [bots::by_name(&red)?, bots::by_name(&blue)?];
            battle(&scenario, bots, seed, record.as_deref(), max_commands, quiet)
        }
    }
}

fn validate(paths: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let reg = registry::rulesets();
    let mut bad = 0;
    for path in paths {
        let verdict = match files::load(path, &reg) {
            Err(e) => Err(format!("{e:#}")),
            Ok(Loaded::Scenario(rules, source)) => rules
                .validate(&source)
                .map(|_| format!("{} scenario", rules.id()))
                .map_err(|d| d.to_string()),
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
    match files::load(path, &reg)? {
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
    let Loaded::Record(rules, record) = files::load(path, &reg)? else {
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
    let reg = registry::rulesets();
    if reg.get(ruleset).is_none() {
        bail!("unknown rule set '{ruleset}': known rule sets are {}", reg.ids());
    }
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

fn battle(
    path: &Path,
    bots: [bots::Bot; 2],
    seed: u64,
    record: Option<&Path>,
    max_commands: usize,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    let reg = registry::rulesets();
    let Loaded::Scenario(rules, source) = files::load(path, &reg)? else {
        bail!("{}: battle takes a scenario (.toml), not a record", path.display());
    };
    let mut game = rules.new_game(source, seed).map_err(|d| anyhow::anyhow!("{d}"))?;
    let started = Instant::now();
    if !quiet {
        for line in game.log() {
            println!("{}", line.text);
        }
    }
    let mut chooser = tabletop::SeededDice::new(seed ^ 0xb07_b07);
    while game.outcome().is_none() {
        if game.command_count() >= max_commands {
            bail!("the battle did not end within {max_commands} commands");
        }
        let pending = game.pending();
        let sides = pending.sides();
        let Some(&side) = sides.first() else { break };
        let command = bots[side.index()].choose(game.as_ref(), side, &mut chooser)?;
        let lines = game
            .submit(tabletop::Actor::Side(side), command)
            .map_err(|r| anyhow::anyhow!("the {side} bot gave a refused command: {r}"))?;
        if !quiet {
            for line in lines {
                println!("{}", line.text);
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let n = game.command_count();
    match game.outcome() {
        Some(o) => match o.winner {
            Some(side) => println!("result: {side} wins: {}", o.reason),
            None => println!("result: a draw: {}", o.reason),
        },
        None => println!("result: the battle is not over"),
    }
    if let Some(out) = record {
        let json = serde_json::to_string_pretty(&game.record())?;
        std::fs::write(out, json)
            .with_context(|| format!("{}: cannot write the record", out.display()))?;
        println!("record written to {}", out.display());
    }
    eprintln!("played {n} commands in {secs:.3} s ({:.0} commands/s)", n as f64 / secs.max(1e-9));
    Ok(ExitCode::SUCCESS)
}
