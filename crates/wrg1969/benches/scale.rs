//! How a whole battle's cost grows with the size of the armies: the ford (Greek hoplites against
//! Carthaginians with elephants), scripted against scripted, with both armies replicated 1, 2,
//! 4 and 8 times on a table as many times as wide (each copy of the table's terrain and each
//! copy of an army side by side, the copies' orders naming the copies' enemies and features).
//! Prints the time a battle takes at each size, the growth exponent from each size to the next
//! (log₂ of the ratio of battle times) and the exponent fitted over all sizes.
//!
//! Run with `cargo bench -p wrg1969 --bench scale`; `-- SIZES... [--battles N]` plays only the
//! sizes given (e.g. `-- 8 --battles 2` under `valgrind --tool=callgrind` counts an 8× battle's
//! instructions as the difference between 2 battles and 1).

use std::sync::LazyLock;
use std::time::Instant;
use tabletop::dice::{CountingDice, SeededDice};
use tabletop::geometry::Point;
use tabletop::rules::{Actor, RuleSet};
use wrg1969::Wrg1969;
use wrg1969::bot::Scripted;
use wrg1969::orders::{Objective, Order, Verb};
use wrg1969::scenario::Scenario;

static RULES: LazyLock<Wrg1969> = LazyLock::new(Wrg1969::new);
static FORD: LazyLock<Scenario> = LazyLock::new(|| {
    let text = include_str!("../../../scenarios/wrg1969/the_ford.toml");
    RULES.load_scenario(&tabletop::Source::new("the_ford.toml", text)).expect("it loads")
});

/// The name of copy `i` of a feature or unit (the first copy keeps its name).
fn copy_name(name: &str, i: usize) -> String {
    if i == 0 { name.to_string() } else { format!("{name} ({})", i + 1) }
}

/// An objective of copy `i` moved across by `dx`, its feature renamed.
fn shift_objective(o: &Objective, i: usize, dx: f64) -> Objective {
    match o {
        Objective::Point { x, y } => Objective::Point { x: x + dx, y: *y },
        Objective::Feature { id } => Objective::Feature { id: copy_name(id, i) },
        Objective::Bearing { degrees } => Objective::Bearing { degrees: *degrees },
    }
}

/// Copy `i` of an order: its enemy unit is the copy's, its places moved across by `dx`.
fn shift_order(o: &Order, i: usize, dx: f64, enemy_units: usize) -> Order {
    let mut o = o.clone();
    match &mut o.verb {
        Verb::Attack { unit } | Verb::Skirmish { unit } => *unit += (i * enemy_units) as u16,
        Verb::Advance { to } | Verb::Retire { to } => *to = shift_objective(to, i, dx),
        Verb::Hold { at: Some(at) } => *at = shift_objective(at, i, dx),
        Verb::Hold { at: None } | Verb::Evade | Verb::Wheel { .. } => {}
    }
    for p in &mut o.route {
        p[0] += dx;
    }
    o
}

/// The scenario with `k` copies of the table and both armies side by side (k ≥ 1): the table
/// is `k` times as wide; each side keeps one General (in the middle copy) with `k` times the
/// messengers.
fn scaled(base: &Scenario, k: usize) -> Scenario {
    let mut s = base.clone();
    let w = base.table.width;
    s.name = format!("{} ×{k}", base.name);
    s.table.width = w * k as f64;
    s.table.areas.clear();
    s.table.lines.clear();
    s.objectives.clear();
    for i in 0..k {
        let dx = w * i as f64;
        for a in &base.table.areas {
            let mut a = a.clone();
            a.name = copy_name(&a.name, i);
            for p in &mut a.polygon.points {
                p.x += dx;
            }
            s.table.areas.push(a);
        }
        for l in &base.table.lines {
            let mut l = l.clone();
            l.name = copy_name(&l.name, i);
            for p in &mut l.path {
                p.x += dx;
            }
            s.table.lines.push(l);
        }
        for o in &base.objectives {
            let mut o = o.clone();
            o.area += i * base.table.areas.len();
            s.objectives.push(o);
        }
    }
    let counts: Vec<usize> = base.sides.iter().map(|sd| sd.units.len()).collect();
    for (j, side) in s.sides.iter_mut().enumerate() {
        let b = &base.sides[j];
        let enemy_units = counts.iter().enumerate().find(|(x, _)| *x != j).map_or(0, |(_, n)| *n);
        let army_units = b.army.units.len();
        side.army.units.clear();
        side.units.clear();
        for i in 0..k {
            let dx = w * i as f64;
            for u in &b.army.units {
                let mut u = u.clone();
                u.name = copy_name(&u.name, i);
                side.army.units.push(u);
            }
            for p in &b.units {
                let mut p = p.clone();
                p.index += i * army_units;
                p.at = Point::new(p.at.x + dx, p.at.y);
                p.order = p.order.as_ref().map(|o| shift_order(o, i, dx, enemy_units));
                side.units.push(p);
            }
        }
        side.army.messengers = b.army.messengers * k as u32;
        side.deploy.1 = Point::new(side.deploy.1.x + w * (k - 1) as f64, side.deploy.1.y);
        side.general.0 = Point::new(side.general.0.x + w * (k / 2) as f64, side.general.0.y);
        side.signals.clear();
    }
    s
}

/// Plays battle `seed` between two scripted generals; returns (commands, dice).
fn battle(sc: &Scenario, seed: u64) -> (u64, u64) {
    let r = &*RULES;
    let mut dice = CountingDice::new(seed);
    let mut rng = SeededDice::new(seed ^ 0x5eed);
    let (mut st, _) = r.setup(sc, &mut dice);
    let mut commands = 0;
    let mut bot = Scripted;
    while let Some(&side) = r.pending(&st).sides().first() {
        let c = bots::Bot::choose(&mut bot, r, &st, side, &mut rng).expect("a command");
        r.perform(&mut st, Actor::Side(side), &c, &mut dice).expect("executes");
        commands += 1;
    }
    (commands, dice.rolled)
}

fn main() {
    let mut sizes: Vec<usize> = Vec::new();
    let mut battles: Option<u64> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--battles" => battles = args.next().and_then(|n| n.parse().ok()),
            "--bench" => {}
            a => {
                if let Ok(k) = a.parse::<usize>().map(|k| k.max(1)) {
                    sizes.push(k);
                }
            }
        }
    }
    if sizes.is_empty() {
        sizes = vec![1, 2, 4, 8];
    }
    let mut times: Vec<(usize, f64)> = Vec::new();
    for &k in &sizes {
        let sc = scaled(&FORD, k);
        let units: usize = sc.sides.iter().map(|s| s.units.len()).sum();
        // Fewer battles at the larger sizes, the same seeds at every size.
        let n = battles.unwrap_or((16 / k as u64).max(2));
        let start = Instant::now();
        let (mut commands, mut dice) = (0, 0);
        for seed in 1..=n {
            let (c, d) = battle(&sc, seed);
            commands += c;
            dice += d;
        }
        let per = start.elapsed().as_secs_f64() / n as f64;
        println!(
            "×{k}: {units} units on {}\" × {}\": {n} battles, {:.2} ms a battle, {:.1} commands and \
             {:.1} dice a battle",
            sc.table.width,
            sc.table.height,
            per * 1e3,
            commands as f64 / n as f64,
            dice as f64 / n as f64
        );
        if let Some(&(k0, t0)) = times.last() {
            let e = (per / t0).ln() / ((k as f64) / (k0 as f64)).ln();
            println!("  growth from ×{k0} to ×{k}: exponent {e:.2}");
        }
        times.push((k, per));
    }
    if times.len() > 2 {
        // Least squares of log time on log size.
        let pts: Vec<(f64, f64)> = times.iter().map(|(k, t)| ((*k as f64).ln(), t.ln())).collect();
        let n = pts.len() as f64;
        let (mx, my) = pts.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0 / n, a.1 + p.1 / n));
        let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
        let sxx: f64 = pts.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
        println!("fitted growth exponent over ×{:?}: {:.2}", sizes, sxy / sxx);
    }
}
