//! What the browser asks of a rule set after every change and while a unit is dragged: a
//! side's controls (its units, allowances and menus), the roster sheet, and the measurement of
//! a dragged move, for each rule set at a moment of its ready scenario. The actor answers these
//! on its own thread, so they bound how fast a game answers its players.
//!
//! Run with `cargo bench -p server --bench controls`.

use std::sync::LazyLock;
use tabletop::controls::{Drag, MeasureRequest};
use tabletop::dice::SeededDice;
use tabletop::host::{Host, HostedGame, Registry};
use tabletop::{Actor, Point, Side, Source, Viewer};

fn main() {
    divan::main();
}

static REGISTRY: LazyLock<Registry> = LazyLock::new(|| {
    let mut r = Registry::new();
    r.add(Box::new(Host::new(movement::Movement::new())));
    r.add(Box::new(othw::search::register(bots::with_standard_bots(Host::new(othw::Othw::new())))));
    r.add(Box::new(wrg1969::bot::register(bots::with_standard_bots(Host::new(
        wrg1969::Wrg1969::new(),
    )))));
    r
});

/// A game of `ruleset` on the ready scenario `file`, after the scripted bot has given the
/// first `scripted` commands (WRG's written orders, so that a period's plan is next).
fn game(ruleset: &str, file: &str, scripted: usize) -> (Box<dyn HostedGame>, Side) {
    let path = format!("{}/../../scenarios/{ruleset}/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the scenario is there");
    let rules = REGISTRY.get(ruleset).expect("registered");
    let mut g = rules.new_game(Source::new(path, text), 1).expect("it loads");
    let mut rng = SeededDice::new(1);
    for _ in 0..scripted {
        let side = g.pending().sides()[0];
        let mut bot = rules.new_bot(&"scripted".parse().expect("a spec")).expect("a bot");
        let command = bot.choose(g.as_ref(), side, &mut rng).expect("a command");
        g.submit(Actor::Side(side), command).expect("accepted");
    }
    let side = g.pending().sides()[0];
    (g, side)
}

/// A request to drag the first unit that may be dragged freely an inch north.
fn drag(g: &dyn HostedGame, side: Side) -> Option<MeasureRequest> {
    let controls = g.controls(side);
    let unit = controls.units.iter().find(|u| u.drag == Drag::Free)?;
    let scene = g.scene(Viewer::Side(side));
    let piece = scene.pieces.iter().find(|p| p.id.as_deref() == Some(&unit.unit))?;
    let at = piece.outline.centre;
    Some(MeasureRequest { unit: unit.unit.clone(), to: Point::new(at.x, at.y + 1.0), facing: None })
}

const CASES: [(&str, &str, usize); 3] =
    [("movement", "ford.toml", 0), ("othw", "open_field.toml", 0), ("wrg1969", "the_ford.toml", 2)];

#[divan::bench(args = CASES)]
fn controls(bencher: divan::Bencher, (ruleset, file, scripted): (&str, &str, usize)) {
    let (g, side) = game(ruleset, file, scripted);
    bencher.bench_local(|| g.controls(side).units.len());
}

#[divan::bench(args = CASES)]
fn roster(bencher: divan::Bencher, (ruleset, file, scripted): (&str, &str, usize)) {
    let (g, side) = game(ruleset, file, scripted);
    bencher.bench_local(|| g.roster(Viewer::Side(side)).len());
}

/// Measuring a dragged move (the rule sets on a continuous table).
#[divan::bench(args = [("movement", "ford.toml", 0), ("wrg1969", "the_ford.toml", 2)])]
fn measure(bencher: divan::Bencher, (ruleset, file, scripted): (&str, &str, usize)) {
    let (g, side) = game(ruleset, file, scripted);
    let request = drag(g.as_ref(), side).expect("a unit to drag");
    bencher.bench_local(|| g.measure(side, &request).map(|m| m.cost));
}
