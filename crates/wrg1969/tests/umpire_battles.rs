//! The umpire (`wrg1969::umpire`) reads whole battles on every ready scenario, the scripted
//! general against itself and against a uniform pick of the legal commands, and finds nothing
//! that breaks a rule: no move beyond its allowance or farther than it spent, moves that chain
//! from where each unit stood, nobody ending inside another unit but routers among friends,
//! standards on the table, totals equal to their parts (WRG-R-08, WRG-MOVE-02, WRG-AFTER-05).
//! `cargo run --release -p wrg1969 --example umpire` reads a thousand more.

use bots::RandomBot;
use std::sync::Arc;
use wrg1969::Wrg1969;
use wrg1969::bot::Scripted;
use wrg1969::umpire::{Umpire, play};

// Checks WRG-R-08, WRG-MOVE-02, WRG-AFTER-05.
#[test]
fn the_umpire_finds_nothing_wrong_in_battles_on_every_scenario() {
    let root = wrg1969::umpire::READY_DIR;
    let names = wrg1969::umpire::ready_scenarios();
    assert!(names.len() >= 5, "{names:?}");
    let rules = Arc::new(Wrg1969::new());
    let seeds = if cfg!(debug_assertions) { 2 } else { 4 };
    let (mut battles, mut commands, mut found) = (0, 0, Vec::new());
    for name in &names {
        let text = std::fs::read_to_string(format!("{root}/{name}")).unwrap();
        let src = tabletop::Source::new(format!("scenarios/wrg1969/{name}"), text);
        for seed in 1..=seeds {
            for scripted_blue in [true, false] {
                let (mut red, mut blue_s, mut blue_r) = (Scripted, Scripted, RandomBot);
                let blue: &mut dyn bots::Bot<Wrg1969> =
                    if scripted_blue { &mut blue_s } else { &mut blue_r };
                let c = play(&rules, &src, seed, [&mut red, blue], Umpire::default(), 400)
                    .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
                battles += 1;
                commands += c.game.command_count();
                let pairing = if scripted_blue { "scripted" } else { "random" };
                found.extend(
                    c.violations.iter().map(|v| format!("{name} seed {seed} v {pairing}: {v}")),
                );
            }
        }
    }
    eprintln!("{battles} battles, {commands} commands, {} violations", found.len());
    assert!(commands > 100 * battles / 4, "{commands} commands in {battles} battles");
    assert!(found.is_empty(), "{}", found[..found.len().min(20)].join("\n"));
}
