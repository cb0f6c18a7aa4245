//! How the movement rule set's cost grows with the armies: the ready scenario `ford.toml` laid
//! side by side `k` times (the table `k` times as wide, every unit, area, line and objective
//! copied; each side keeps one army leader), for k = 1, 2, 4, 8:
//!
//! - `battle`: a whole battle, the scripted general commanding both sides;
//! - `battle_apart`: the same with 48" of open table between the copies, so that each copy's
//!   armies fight their own battle (side by side, fights spill over the seams and the battle
//!   itself grows: more units meet, rout and rally per unit);
//! - `controls`: a side's menus at the start (every unit's allowance and every entry checked),
//!   which the server makes after every change;
//! - `candidates`, `roster`, `view`: the server's other answers to a player, at the start.
//!
//! The growth exponent between sizes is log(cost ratio) / log 2; the target is 1.3 at most, and
//! controls under 16 ms at ×4. Run with `cargo bench -p movement --bench scale`.

use movement::Movement;
use std::sync::Arc;
use tabletop::diagnostics::Source;
use tabletop::dice::SeededDice;
use tabletop::host::{Host, HostedGame, HostedRuleSet};
use tabletop::{Actor, Side, Viewer};

fn main() {
    divan::main();
}

const FORD: &str = include_str!("../../../scenarios/movement/ford.toml");

const SIZES: [usize; 4] = [1, 2, 4, 8];

/// The ready scenario `k` times side by side, `gap` inches apart.
fn scaled(k: usize, gap: f64) -> String {
    let base: toml::Table = FORD.parse().expect("the ready scenario is TOML");
    let width = base["table"]["width"].as_float().expect("a width");
    let mut s = base.clone();
    s["table"]["width"] = toml::Value::Float(width * k as f64 + gap * (k as f64 - 1.0));
    let shift_point = |p: &mut toml::Value, dx: f64| {
        let x = p[0].as_float().expect("x");
        p.as_array_mut().expect("a point")[0] = toml::Value::Float(x + dx);
    };
    // Each side's army leader, by side: the copies' own generals command their copies.
    let leaders: Vec<(String, String)> = base["side"]
        .as_array()
        .expect("sides")
        .iter()
        .map(|s| {
            let side = s["side"].as_str().expect("a side").to_string();
            (side, s["army_leader"].as_str().expect("an army leader").to_string())
        })
        .collect();
    for key in ["objective", "area", "line", "unit"] {
        let items = base[key].as_array().expect("a list");
        let mut out = Vec::new();
        for i in 0..k {
            let dx = (width + gap) * i as f64;
            for item in items {
                let mut item = item.clone();
                let t = item.as_table_mut().expect("a table");
                if i > 0 {
                    let name = t["name"].as_str().expect("a name").to_string();
                    t["name"] = toml::Value::String(format!("{name} {}", i + 1));
                    if key == "unit" {
                        command_in_copy(t, &leaders, i);
                    }
                }
                match key {
                    "objective" | "unit" => shift_point(&mut t["position"], dx),
                    _ => {
                        for p in t["points"].as_array_mut().expect("points") {
                            shift_point(p, dx);
                        }
                    }
                }
                out.push(item);
            }
        }
        s[key] = toml::Value::Array(out);
    }
    toml::to_string(&s).expect("it writes")
}

/// A copied unit answers to its own copy's general: a brigade leader named for the original
/// is renamed with the copy, and a unit under the army leader alone is put under the copy's
/// general (one army leader a side is all a scenario may have), so that each copy's units are
/// in command as the original's are and the copies play the same kind of battle.
fn command_in_copy(t: &mut toml::Table, leaders: &[(String, String)], i: usize) {
    let side = t["side"].as_str().expect("a side").to_string();
    let own =
        format!("{} {}", leaders.iter().find(|(s, _)| *s == side).expect("a leader").1, i + 1);
    if t.get("leader").and_then(|l| l.as_bool()) == Some(true) {
        return;
    }
    let leader = match t.get("brigade_leader").and_then(|b| b.as_str()) {
        Some(b) => format!("{b} {}", i + 1),
        None => own,
    };
    t.insert("brigade_leader".into(), toml::Value::String(leader));
}

fn host() -> Host<Movement> {
    movement::bot::register(bots::with_standard_bots(Host::new(Movement::new())))
}

fn new_game(rules: &dyn HostedRuleSet, k: usize, gap: f64, seed: u64) -> Box<dyn HostedGame> {
    rules.new_game(Source::new(format!("ford ×{k}"), scaled(k, gap)), seed).expect("it loads")
}

#[divan::bench(args = SIZES, sample_count = 6, sample_size = 1)]
fn battle(bencher: divan::Bencher, k: usize) {
    play_battles(bencher, k, 0.0);
}

#[divan::bench(args = SIZES, sample_count = 6, sample_size = 1)]
fn battle_apart(bencher: divan::Bencher, k: usize) {
    play_battles(bencher, k, 48.0);
}

fn play_battles(bencher: divan::Bencher, k: usize, gap: f64) {
    let host = Arc::new(host());
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        let mut g = new_game(host.as_ref(), k, gap, seed);
        let mut rng = SeededDice::new(seed);
        let spec = "scripted".parse().expect("a spec");
        let mut bots = [host.new_bot(&spec).expect("a bot"), host.new_bot(&spec).expect("a bot")];
        let mut n = 0;
        while g.outcome().is_none() && n < 20_000 {
            let side = g.pending().sides()[0];
            let command = bots[side.index()].choose(g.as_ref(), side, &mut rng).expect("a command");
            g.submit_quietly(Actor::Side(side), command).expect("accepted");
            n += 1;
        }
        n
    });
}

#[divan::bench(args = SIZES, sample_count = 10)]
fn controls(bencher: divan::Bencher, k: usize) {
    let host = host();
    let g = new_game(&host, k, 0.0, 1);
    bencher.bench_local(|| g.controls(Side::Red));
}

#[divan::bench(args = SIZES, sample_count = 10)]
fn candidates(bencher: divan::Bencher, k: usize) {
    let host = host();
    let g = new_game(&host, k, 0.0, 1);
    let mut rng = SeededDice::new(1);
    bencher.bench_local(|| g.candidates(Side::Red, &mut rng));
}

#[divan::bench(args = SIZES, sample_count = 10)]
fn roster(bencher: divan::Bencher, k: usize) {
    let host = host();
    let g = new_game(&host, k, 0.0, 1);
    bencher.bench_local(|| g.roster(Viewer::Side(Side::Red)));
}

#[divan::bench(args = SIZES, sample_count = 10)]
fn view(bencher: divan::Bencher, k: usize) {
    let host = host();
    let g = new_game(&host, k, 0.0, 1);
    bencher.bench_local(|| g.view_text(Viewer::Side(Side::Red)));
}
