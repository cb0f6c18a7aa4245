//! Golden numbers: legal-command counts from fixed positions (perft-like) and the narrated log
//! of a short seeded game, compared exactly with `tests/golden/`.
mod common;
use common::*;
use othw::state::Command;
use std::sync::Arc;
use tabletop::diagnostics::Source;
use tabletop::game::Game;
use tabletop::rules::{Actor, Narrate, RuleSet, Side};

/// Counts of (moves, attacks, group moves, other).
type Counts = (usize, usize, usize, usize);

/// Counts of (moves, attacks, group moves, other) in a legal-command list.
fn breakdown(list: &[Command]) -> Counts {
    let mut c = (0, 0, 0, 0);
    for x in list {
        match x {
            Command::Move { .. } => c.0 += 1,
            Command::Attack { .. } => c.1 += 1,
            Command::GroupMove { .. } => c.2 += 1,
            _ => c.3 += 1,
        }
    }
    c
}

fn start(name: &str) -> othw::State {
    // The generic scenario rolls off for the first player: seeded dice.
    rules().setup(&load(&ready(name)), &mut tabletop::dice::SeededDice::new(1)).0
}

#[test]
fn legal_command_counts_at_the_start_of_each_scenario() {
    let r = rules();
    let got: Vec<(&str, Counts)> = [
        "open_field.toml",
        "river_ford.toml",
        "hills_woods.toml",
        "generic.toml",
        "gaugamela.toml",
        "raphia.toml",
        "zama.toml",
    ]
    .into_iter()
    .map(|n| {
        let st = start(n);
        (n, breakdown(&r.legal(&st, st.phasing)))
    })
    .collect();
    eprintln!("{got:?}");
    assert_eq!(got, GOLDEN_START);
}

// Computed by the implementation, then checked by hand for the open field (Rome to move):
// moves: each of the 4 legions on row 2 (M1) steps to row 3 or turns 3 ways = 4 × 4 = 16; the two
// raw legions behind them can only turn = 2 × 3 = 6; each velites (M2, through friends) turns 3
// ways or passes through the legion ahead to row 3 = 2 × 4 = 8; each Italian allies (M2) ends on
// 4 squares = 9 moves, 18 in all; the Equites (M3, free turns) reach 13 squares (51 ends: 13 × 4
// less the start) and the Allied Cavalry 17 (67 ends): 16 + 6 + 8 + 18 + 51 + 67 = 166.
// Group moves: the whole block (12 units) and row 2 (8): advance 1 or turn 3 ways = 4 + 4; row 1
// (4): only the turns (advancing would end on row 2) = 3; the four 2-unit files: 4 × 4 = 16;
// 27 in all. Plus `end_phase`.
// The historical battles' counts were computed by the implementation (not by hand).
const GOLDEN_START: [(&str, Counts); 7] = [
    ("open_field.toml", (166, 0, 27, 1)),
    ("river_ford.toml", (158, 0, 27, 1)),
    ("hills_woods.toml", (174, 0, 29, 1)),
    ("generic.toml", (127, 0, 23, 1)),
    ("gaugamela.toml", (225, 0, 22, 1)),
    ("raphia.toml", (233, 0, 38, 1)),
    ("zama.toml", (197, 0, 35, 1)),
];

#[test]
fn legal_command_counts_after_fixed_commands() {
    let r = rules();
    let mut st = start("open_field.toml");
    let mut counts = vec![breakdown(&r.legal(&st, Side::Red))];
    // Legio I steps to D3 (phase-end roll 3).
    run(&mut st, mv(2, 3, 2, N), &[3]);
    counts.push(breakdown(&r.legal(&st, Side::Red)));
    // The block of the other three legions and the Italian allies on row 2 advances one square.
    run(&mut st, Command::GroupMove { units: vec![3, 4, 5, 6], facing: N, steps: 1 }, &[]);
    counts.push(breakdown(&r.legal(&st, Side::Red)));
    // The Equites ride three squares north.
    run(&mut st, mv(0, 1, 4, N), &[4]);
    counts.push(breakdown(&r.legal(&st, Side::Red)));
    run(&mut st, Command::EndPhase, &[]);
    counts.push(breakdown(&r.legal(&st, Side::Blue)));
    eprintln!("{counts:?}");
    assert_eq!(counts, GOLDEN_AFTER);
}

// Computed by the implementation. After Carthage's first look (the last entry) three charges are
// open: its Light Cavalry (M4) can reach the Equites now on B5 from three squares.
const GOLDEN_AFTER: [Counts; 5] =
    [(166, 0, 27, 1), (164, 0, 31, 1), (176, 0, 12, 1), (201, 0, 4, 1), (182, 3, 29, 1)];

/// A scripted player: the first attack offered; otherwise the move or group move that gains
/// the most ground towards the enemy (the first such in the list); otherwise end the phase.
fn scripted(st: &othw::State, legal: &[Command]) -> Command {
    if let Some(a) = legal.iter().find(|c| matches!(c, Command::Attack { .. })) {
        return a.clone();
    }
    let ahead: i32 = if st.phasing == Side::Red { 1 } else { -1 };
    let gain = |c: &Command| match c {
        Command::Move { unit, to, .. } => (to.row - st.units[*unit as usize].pos.row) * ahead,
        Command::GroupMove { units, facing, steps } => {
            let f = if ahead > 0 {
                tabletop::grid::GridFacing::North
            } else {
                tabletop::grid::GridFacing::South
            };
            if *facing == f { i32::from(*steps) * units.len() as i32 } else { 0 }
        }
        _ => 0,
    };
    let best = legal.iter().max_by_key(|c| (gain(c), std::cmp::Reverse(0))).filter(|c| gain(c) > 0);
    match best {
        Some(c) => legal.iter().find(|x| gain(x) == gain(c)).cloned().unwrap_or(Command::EndPhase),
        None => Command::EndPhase,
    }
}

/// Plays up to `n` commands of a seeded game with the [`scripted`] player on both sides and
/// returns the narrated log.
fn playthrough(name: &str, seed: u64, n: usize) -> String {
    let rules = Arc::new(rules());
    let mut g = Game::new(rules.clone(), Source::new(name, ready(name)), seed).expect("loads");
    for _ in 0..n {
        if g.outcome().is_some() {
            break;
        }
        let side = g.state().phasing;
        let legal = rules.legal(g.state(), side);
        let c = scripted(g.state(), &legal);
        g.submit(Actor::Side(side), c).expect("a legal command is accepted");
    }
    let mut out = String::new();
    for e in g.events() {
        out.push_str(&e.narrate().text);
        out.push('\n');
    }
    out
}

#[test]
fn golden_playthrough_of_a_seeded_open_field_game() {
    let got = playthrough("open_field.toml", 7, 80);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/open_field_seed7.txt");
    if std::env::var_os("OTHW_UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &got).expect("write the golden file");
    }
    let want = std::fs::read_to_string(path).expect("the golden file exists");
    assert_eq!(
        got, want,
        "the narrated log changed: review it and rerun with OTHW_UPDATE_GOLDEN=1"
    );
}

#[test]
fn the_playthrough_replays_to_the_same_state() {
    let rules = Arc::new(rules());
    let mut g = game("generic.toml", 11);
    for k in 0..80 {
        if g.outcome().is_some() {
            break;
        }
        let side = g.state().phasing;
        let legal = rules.legal(g.state(), side);
        g.submit(Actor::Side(side), legal[(17 * k + 3) % legal.len()].clone()).expect("legal");
    }
    let replayed = Game::replay(rules, &g.record()).expect("replays");
    assert_eq!(replayed.state_hash(), g.state_hash());
    // Views and scenes for both sides and the umpire.
    let r = othw::Othw::new();
    for v in [
        tabletop::rules::Viewer::Side(Side::Red),
        tabletop::rules::Viewer::Side(Side::Blue),
        tabletop::rules::Viewer::Umpire,
    ] {
        let view = r.view(g.state(), v);
        assert_eq!(view.units.len(), g.state().units.len());
        let scene = r.scene(g.state(), v);
        let grid = scene.grid.expect("a grid scene");
        assert_eq!((grid.cols, grid.rows), (12, 8));
        assert_eq!(grid.cells.iter().filter(|c| c.as_deref() == Some("hill")).count(), 2);
        assert_eq!(scene.pieces.len(), g.state().units.iter().filter(|u| u.on_board()).count());
        assert!(tabletop::render::to_svg(&r.scene(g.state(), v)).contains("<svg"));
    }
}

/// The battle summary and the heuristic value follow the state.
#[test]
fn summary_turn_and_evaluation_follow_the_battle() {
    let r = rules();
    let st = start("open_field.toml");
    assert_eq!(r.turn(&st), Some(1));
    let s = r.summary(&st);
    let red = s.side(Side::Red).expect("red");
    assert_eq!((red.units_start, red.units_lost, red.morale), (Some(12), Some(0), Some(8.0)));
    // Rome: 4 legions and 2 raw legions (4 SP), 2 velites (2), 2 Italian allies and 2 cavalry (3).
    assert_eq!(red.strength, Some(40.0));
    assert_eq!(r.evaluate(&st, Side::Red), Some(0.5));
    let mut st = st;
    st.sides[1].am = 4;
    assert!(r.evaluate(&st, Side::Red).is_some_and(|v| v > 0.5));
}
