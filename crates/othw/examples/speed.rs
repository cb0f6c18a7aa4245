//! Plays games of the open-field scenario straight through the rule set (no `Game`, no
//! hashing) and prints games per second, for two players: one picking uniformly among the
//! legal commands, and a simple scripted one (attack when it can, otherwise gain the most
//! ground, otherwise end the phase). Run with `cargo run --release -p othw --example speed`.

use othw::Othw;
use othw::state::{Command, State};
use tabletop::dice::SeededDice;
use tabletop::grid::GridFacing;
use tabletop::rules::{Actor, RuleSet, Side};

fn scripted(st: &State, legal: &[Command]) -> usize {
    if let Some(i) = legal.iter().position(|c| matches!(c, Command::Attack { .. })) {
        return i;
    }
    let ahead: i32 = if st.phasing == Side::Red { 1 } else { -1 };
    let forward = if ahead > 0 { GridFacing::North } else { GridFacing::South };
    let gain = |c: &Command| match c {
        Command::Move { unit, to, .. } => (to.row - st.units[*unit as usize].pos.row) * ahead,
        Command::GroupMove { units, facing, steps } if *facing == forward => {
            i32::from(*steps) * units.len() as i32
        }
        _ => 0,
    };
    let mut best = (0, legal.len() - 1);
    for (i, c) in legal.iter().enumerate() {
        let g = gain(c);
        if g > best.0 {
            best = (g, i);
        }
    }
    best.1
}

fn main() {
    let r = Othw::new();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/othw/open_field.toml");
    let text = std::fs::read_to_string(path).expect("the scenario");
    let sc = r.load_scenario(&tabletop::Source::new(path, text)).expect("it loads");
    for (label, use_script) in [("random", false), ("scripted", true)] {
        let t = std::time::Instant::now();
        let (mut cmds, mut legal_ns, mut exec_ns) = (0u64, 0u128, 0u128);
        let n = 2000;
        for seed in 0..n {
            let mut dice = SeededDice::new(seed);
            let mut pick = SeededDice::new(seed ^ 99);
            let (mut st, _) = r.setup(&sc, &mut dice);
            while st.outcome.is_none() {
                let t0 = std::time::Instant::now();
                let legal = r.legal(&st, st.phasing);
                legal_ns += t0.elapsed().as_nanos();
                let i = if use_script {
                    scripted(&st, &legal)
                } else {
                    pick.below(legal.len() as u32) as usize
                };
                let t1 = std::time::Instant::now();
                let ev =
                    r.execute(&st, Actor::Side(st.phasing), &legal[i], &mut dice).expect("legal");
                for e in &ev {
                    r.apply(&mut st, e);
                }
                exec_ns += t1.elapsed().as_nanos();
                cmds += 1;
            }
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "{label}: {n} games, {cmds} commands, {:.0} games/s, legal {:.1} us/call, execute+apply {:.1} us/command",
            n as f64 / s,
            legal_ns as f64 / cmds as f64 / 1000.0,
            exec_ns as f64 / cmds as f64 / 1000.0
        );
    }
}
