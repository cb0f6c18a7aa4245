//! What a Liberal Move battle costs, and how the cost grows with the number of figures.
//!
//! - `battle`: a whole battle, the scripted general on both sides, on each ready scenario
//!   (battles a second is one over the median; each sample a new seed);
//! - `scale`: `courthouse.toml` laid side by side k times (k = 1, 2, 4, 8: the table k times as
//!   wide plus 12" between copies, every unit, area, line and house copied and renamed), the
//!   scripted general on both sides.
//!
//! After divan's table the bench times the same scaled battles again (seeds 1 to 3 each) and
//! prints the figures, commands and growth exponents log(cost ratio) / log(figure ratio) between
//! sizes; the target is 1.3 at most. Run with `cargo bench -p liberal --bench battles`;
//! `LIBERAL_PROFILE=K` plays one battle at size K (seed 1) and nothing else, for callgrind;
//! `LIBERAL_FINGERPRINT=1` prints a hash of the final state of each ready scenario's battles
//! and of ×1, ×2 and ×4 (seeds 1 to 3), to show that an optimisation leaves outcomes alone.

use liberal::Liberal;
use std::sync::Arc;
use std::time::Instant;
use tabletop::diagnostics::Source;
use tabletop::game::Game;
use tabletop::rules::Actor;

fn main() {
    // `LIBERAL_PROFILE=K` plays one battle at size K (seed 1) and nothing else: for callgrind.
    if let Some(k) = std::env::var("LIBERAL_PROFILE").ok().and_then(|k| k.parse().ok()) {
        let commands = play(&Arc::new(Liberal::new()), &scaled(k), 1);
        println!("×{k}: {commands} commands");
        return;
    }
    // `LIBERAL_FINGERPRINT=1` prints each ready and scaled battle's commands and a hash of
    // its final state (seeds 1 to 3): the same before and after an optimisation.
    if std::env::var("LIBERAL_FINGERPRINT").is_ok() {
        fingerprint();
        return;
    }
    divan::main();
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--test" || a == "--list") {
        return;
    }
    growth();
}

/// The ready scenarios: every `scenarios/liberal/*.toml`, by name.
fn ready() -> Vec<&'static str> {
    let dir = format!("{}/../../scenarios/liberal", env!("CARGO_MANIFEST_DIR"));
    let mut v: Vec<&'static str> = std::fs::read_dir(dir)
        .expect("the scenarios")
        .filter_map(|e| {
            let p = e.ok()?.path();
            if p.extension()? != "toml" {
                return None;
            }
            let name = p.file_stem()?.to_string_lossy().into_owned();
            Some(&*Box::leak(name.into_boxed_str()))
        })
        .collect();
    v.sort();
    v
}

const SIZES: [usize; 4] = [1, 2, 4, 8];

/// A ready scenario's text.
fn text(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../scenarios/liberal/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("a ready scenario")
}

/// The courthouse `k` times side by side, 12" apart; each copy's areas, lines and units are
/// renamed with the copy's number, and its houses follow their areas.
fn scaled(k: usize) -> String {
    let base: toml::Table = text("courthouse").parse().expect("TOML");
    let num = |v: &toml::Value| v.as_float().or_else(|| v.as_integer().map(|i| i as f64));
    let width = num(&base["table"]["width"]).expect("a width");
    let gap = 12.0;
    let mut s = base.clone();
    s["table"]["width"] = toml::Value::Float(width * k as f64 + gap * (k as f64 - 1.0));
    let shift = |p: &mut toml::Value, dx: f64| {
        let x = num(&p[0]).expect("x");
        p.as_array_mut().expect("a point")[0] = toml::Value::Float(x + dx);
    };
    let rename = |t: &mut toml::Table, key: &str, i: usize| {
        if i > 0
            && let Some(n) = t.get(key).and_then(|n| n.as_str()).map(str::to_string)
        {
            t[key] = toml::Value::String(format!("{n} {}", i + 1));
        }
    };
    for key in ["area", "line", "house", "unit"] {
        let items = base[key].as_array().expect("a list");
        let mut out = Vec::new();
        for i in 0..k {
            let dx = (width + gap) * i as f64;
            for item in items {
                let mut item = item.clone();
                let t = item.as_table_mut().expect("a table");
                match key {
                    "house" => rename(t, "area", i),
                    "unit" => {
                        rename(t, "name", i);
                        shift(&mut t["at"], dx);
                    }
                    _ => {
                        rename(t, "name", i);
                        for p in t["points"].as_array_mut().expect("points") {
                            shift(p, dx);
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

/// A whole battle, the scripted general on both sides: the commands it took.
fn play(rules: &Arc<Liberal>, text: &str, seed: u64) -> usize {
    battle_to_the_end(rules, text, seed).1
}

/// A whole battle, the scripted general on both sides: the game and the commands it took.
fn battle_to_the_end(rules: &Arc<Liberal>, text: &str, seed: u64) -> (Game<Liberal>, usize) {
    let mut g = Game::new(rules.clone(), Source::new("bench", text), seed).expect("it loads");
    g.set_hashing(false);
    let mut n = 0;
    while g.outcome().is_none() && n < 50_000 {
        let side = g.pending().sides()[0];
        let c = liberal::bot::decide(rules, g.state(), side);
        g.submit(Actor::Side(side), c).expect("the general's command is legal");
        n += 1;
    }
    (g, n)
}

fn fingerprint() {
    use std::hash::{Hash, Hasher};
    let rules = Arc::new(Liberal::new());
    let mut texts: Vec<(String, String)> =
        ready().into_iter().map(|n| (n.to_string(), text(n))).collect();
    texts.extend([1, 2, 4].map(|k| (format!("courthouse ×{k}"), scaled(k))));
    for (name, t) in texts {
        for seed in 1..=3 {
            let (g, n) = battle_to_the_end(&rules, &t, seed);
            let mut h = std::collections::hash_map::DefaultHasher::new();
            serde_json::to_string(g.state()).expect("it writes").hash(&mut h);
            println!("{name} seed {seed}: {n} commands, state {:016x}", h.finish());
        }
    }
}

#[divan::bench(args = ready(), sample_count = 20, sample_size = 1)]
fn battle(bencher: divan::Bencher, name: &str) {
    let rules = Arc::new(Liberal::new());
    let t = text(name);
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        play(&rules, &t, seed)
    });
}

#[divan::bench(args = SIZES, sample_count = 5, sample_size = 1)]
fn scale(bencher: divan::Bencher, k: usize) {
    let rules = Arc::new(Liberal::new());
    let t = scaled(k);
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        play(&rules, &t, seed)
    });
}

/// Times the scaled battles over seeds 1 to 3 and prints the growth exponents.
fn growth() {
    let rules = Arc::new(Liberal::new());
    println!("\nscaled courthouse, seeds 1..=3 (time and commands a battle):");
    println!("size  figures  commands  ms a battle  exponent from the size before");
    let mut last: Option<(f64, f64)> = None;
    for k in SIZES {
        let t = scaled(k);
        let figures: usize = Game::new(rules.clone(), Source::new("bench", t.as_str()), 1)
            .expect("it loads")
            .state()
            .units
            .iter()
            .map(|u| u.figures.len())
            .sum();
        let seeds = 1..=3u64;
        let n = seeds.clone().count() as f64;
        let start = Instant::now();
        let commands: usize = seeds.map(|s| play(&rules, &t, s)).sum();
        let ms = start.elapsed().as_secs_f64() * 1000.0 / n;
        let exponent = last.map_or(String::from("—"), |(f0, ms0)| {
            format!("{:.2}", (ms / ms0).ln() / (figures as f64 / f0).ln())
        });
        println!("×{k:<4} {figures:>7}  {:>8.0}  {ms:>11.1}  {exponent}", commands as f64 / n);
        last = Some((figures as f64, ms));
    }
}
