//! Stepping through a finished game's replay: one step at the start, in the middle and at the
//! end of a whole WRG 1969 battle between the scripted generals. Each step starts from the
//! nearest kept copy of the game, so the three cost the same; building the replay (once per
//! game) is measured apart.
//!
//! Run with `cargo bench -p server --bench replay`.

use server::replays::{CHECKPOINT_EVERY, Replay};
use std::sync::LazyLock;
use tabletop::dice::SeededDice;
use tabletop::host::{Host, HostedRuleSet, Registry};
use tabletop::{Actor, Record, Source};

fn main() {
    eprintln!("a battle of {} commands", RECORD.commands.len());
    divan::main();
}

static REGISTRY: LazyLock<Registry> = LazyLock::new(|| {
    let mut r = Registry::new();
    r.add(Box::new(bots::with_standard_bots(Host::new(othw::Othw::new()))));
    r
});

const EVERY: u64 = CHECKPOINT_EVERY as u64;

fn rules() -> &'static dyn HostedRuleSet {
    REGISTRY.get("othw").expect("registered")
}

/// A whole battle on a ready scenario, a random player commanding each side.
static RECORD: LazyLock<Record> = LazyLock::new(|| {
    let path = format!("{}/../../scenarios/othw/open_field.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the scenario is there");
    let mut g = rules().new_game(Source::new(path, text), 3).expect("it loads");
    let mut rng = SeededDice::new(3);
    let mut bot = rules().new_bot(&"random".parse().expect("a spec")).expect("a bot");
    while g.outcome().is_none() && g.command_count() < 5_000 {
        let side = g.pending().sides()[0];
        let command = bot.choose(g.as_ref(), side, &mut rng).expect("a command");
        g.submit_quietly(Actor::Side(side), command).expect("accepted");
    }
    g.record()
});

static REPLAY: LazyLock<Replay> =
    LazyLock::new(|| Replay::build(rules(), RECORD.clone()).expect("it replays"));

/// Steps that each apply the most commands after their copy: the last of the first block,
/// of the middle one and of the last one.
#[divan::bench(args = ["start", "middle", "end"])]
fn step(bencher: divan::Bencher, at: &str) {
    let steps = REPLAY.steps();
    let last_of_block = |s: u64| (s - s % EVERY + EVERY - 1).min(steps);
    let step = match at {
        "start" => EVERY - 1,
        "middle" => last_of_block(steps / 2),
        _ => last_of_block(steps - EVERY),
    };
    bencher.bench(|| REPLAY.frame(step, u64::MAX).expect("a frame"));
}

/// Building the replay of the whole battle.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn build() -> Replay {
    Replay::build(rules(), RECORD.clone()).expect("it replays")
}
