//! Benchmarks of the movement rule set: the cost of a typical move with terrain, and whole
//! random manoeuvre games on the ready scenario.

use movement::state::Step;
use movement::{Movement, State};
use std::sync::Arc;
use tabletop::diagnostics::Source;
use tabletop::dice::{ScriptedDice, SeededDice};
use tabletop::game::Game;
use tabletop::rules::{Actor, Pending, RuleSet};

fn main() {
    divan::main();
}

const FORD: &str = include_str!("../../../scenarios/movement/ford.toml");

fn ford_state(r: &Movement) -> State {
    let sc = r.load_scenario(&Source::new("ford.toml", FORD)).expect("the ready scenario loads");
    r.setup(&sc, &mut ScriptedDice::new([])).0
}

/// The worked example: one light-infantry stand, 12" over a ford, a field and a paved road.
#[divan::bench]
fn worked_example_move(bencher: divan::Bencher) {
    let r = Movement::new();
    let text = r#"
[scenario]
name = "bench"
turns = 1
first = "red"
[[side]]
side = "red"
name = "Red"
edge = "south"
[[side]]
side = "blue"
name = "Blue"
edge = "north"
[table]
width = 60.0
height = 60.0
[[line]]
kind = "river"
width = 3.0
points = [[0.0, 20.0], [60.0, 20.0]]
[[line.crossing]]
kind = "ford"
at = 30.0
width = 4.0
[[line]]
kind = "paved_road"
width = 2.0
points = [[30.0, 25.5], [30.0, 60.0]]
[[unit]]
name = "A"
side = "red"
type = "light_infantry"
armor = "light"
discipline = "good"
formation = "line"
stands = 1
position = [30.0, 19.0]
facing = 0.0
[[unit]]
name = "B"
side = "blue"
type = "light_infantry"
armor = "light"
discipline = "good"
formation = "line"
stands = 1
position = [55.0, 55.0]
facing = 180.0
"#;
    let sc = r.load_scenario(&Source::new("bench", text)).unwrap();
    let st = r.setup(&sc, &mut ScriptedDice::new([])).0;
    let steps = [Step::Advance { to: [30.0, 31.0] }];
    bencher.bench(|| r.plan_move(divan::black_box(&st), 0, &steps, false, false).unwrap().cost);
}

/// A 4-stand open-order unit on the ready scenario, 10" across marsh and past the hedge, with a
/// facing change: every stand's path cut at every boundary, plus the move's legality checks.
#[divan::bench]
fn typical_move_with_terrain(bencher: divan::Bencher) {
    let r = Movement::new();
    let st = ford_state(&r);
    let archers = st.find("Red Archers").unwrap();
    let steps = [Step::Face(movement::Turn::Left), Step::Advance { to: [19.0, 13.5] }];
    bencher
        .bench(|| r.plan_move(divan::black_box(&st), archers, &steps, false, false).unwrap().cost);
}

/// A full random manoeuvre game on the ready scenario (8 turns), choosing among the rule set's
/// own candidates.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn random_game_on_the_ready_scenario(bencher: divan::Bencher) {
    let rules = Arc::new(Movement::new());
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        let mut g = Game::new(rules.clone(), Source::new("ford.toml", FORD), seed).unwrap();
        let mut rng = SeededDice::new(seed);
        let mut n = 0;
        while g.pending() != Pending::Over && n < 10_000 {
            let side = g.pending().sides()[0];
            let mut c = rules.candidates(g.state(), side, &mut rng);
            let pick = c.swap_remove(rng.below(c.len() as u32) as usize);
            g.submit(Actor::Side(side), pick).unwrap();
            n += 1;
        }
        n
    });
}
