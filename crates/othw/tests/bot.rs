//! The scripted player: it beats the random player by a wide margin on the open field, gives
//! only legal commands, is reproducible, and is offered by name on a host.
mod common;
use bots::{Bot, RandomBot};
use common::*;
use othw::Othw;
use othw::bot::Scripted;
use othw::search::register;
use tabletop::dice::SeededDice;
use tabletop::host::{BotSpec, Host, HostedRuleSet};
use tabletop::rules::{Actor, RuleSet, Side};

/// Plays one open-field battle; returns the winner and the commands given. The scripted player
/// commands `scripted_side`, the random player the other side.
fn battle(seed: u64, scripted_side: Side) -> (Option<Side>, Vec<othw::Command>) {
    let r = Othw::new();
    let sc = load(&ready("open_field.toml"));
    let mut dice = SeededDice::new(seed);
    let (mut st, _) = r.setup(&sc, &mut dice);
    let (mut s, mut rnd) = (Scripted::new(), RandomBot);
    let (mut rng_s, mut rng_r) = (SeededDice::new(seed + 1000), SeededDice::new(seed + 2000));
    let mut given = Vec::new();
    while st.outcome.is_none() {
        let side = st.phasing;
        let c = if side == scripted_side {
            s.choose(&r, &st, side, &mut rng_s)
        } else {
            Bot::<Othw>::choose(&mut rnd, &r, &st, side, &mut rng_r)
        }
        .expect("a command");
        r.check(&st, Actor::Side(side), &c).expect("only legal commands");
        for e in r.execute(&st, Actor::Side(side), &c, &mut dice).expect("executes") {
            r.apply(&mut st, &e);
        }
        given.push(c);
    }
    (st.outcome.and_then(|o| o.winner), given)
}

#[test]
fn scripted_beats_random_in_at_least_85_of_100_open_field_battles() {
    let mut won = 0;
    for seed in 1..=100u64 {
        let side = if seed % 2 == 1 { Side::Red } else { Side::Blue };
        if battle(seed, side).0 == Some(side) {
            won += 1;
        }
    }
    eprintln!("scripted won {won} of 100");
    assert!(won >= 85, "scripted won only {won} of 100 battles against random");
}

#[test]
fn the_same_seed_gives_the_same_battle() {
    assert_eq!(battle(5, Side::Blue), battle(5, Side::Blue));
}

#[test]
fn the_host_offers_the_scripted_player_by_name() {
    let host = register(bots::with_standard_bots(Host::new(Othw::new())));
    let names: Vec<String> = host.bots().into_iter().map(|b| b.name).collect();
    for n in ["random", "mcts", "scripted", "mcts-othw"] {
        assert!(names.iter().any(|x| x == n), "{n} missing from {names:?}");
    }
    let bot = host.new_bot(&BotSpec::parse("scripted").expect("parses")).expect("made");
    assert_eq!(bot.describe(), "scripted");
    assert!(host.new_bot(&BotSpec::parse("scripted:fast=1").expect("parses")).is_err());
}

/// A unit three squares or more from the nearest enemy is a reserve: the scripted player moves
/// one as the side's first action of a phase, and once the side has acted it leaves its
/// reserves for the next phase while units near the enemy still act.
#[test]
fn reserves_move_only_as_the_sides_first_action_of_a_phase() {
    use othw::state::{Command, flags};
    let r = Othw::new();
    let mut st = common::battle(&["Infantry", "Cavalry"], &["Infantry"]);
    let (r0, r1, rs) = (0, 1, red_spare(&st));
    // Three red reserves apart from one another (no block to advance together).
    put(&mut st, r1, 6, 1, N);
    let moves = |c: &Command| match c {
        Command::Move { unit, .. } => Some(*unit),
        _ => None,
    };
    // Nothing done yet: a reserve steps towards the enemy.
    let (first, _) = Scripted::new().best(&r, &st, Side::Red).expect("a command");
    assert!(moves(&first).is_some_and(|u| [r0, r1, rs].contains(&u)), "{first:?}");
    // Once a unit has moved this phase, the other reserves wait.
    st.units[rs as usize].flags |= flags::MOVED;
    let mut kept = Scripted::new();
    for bot in [&mut Scripted::new(), &mut kept] {
        let (c, _) = bot.best(&r, &st, Side::Red).expect("a command");
        assert_eq!(c, Command::EndPhase);
    }
    // A unit two squares from an enemy that shows it a flank is not a reserve: it attacks.
    let b0 = 2;
    put(&mut st, b0, 6, 3, E);
    let (c, _) = kept.best(&r, &st, Side::Red).expect("a command");
    assert!(matches!(c, Command::Attack { unit, .. } if unit == r1), "{c:?}");
}

/// A reserve beyond its charge (farther from the enemy than its move and a step) waits while
/// the units nearer the enemy have something worth doing, even when a move of its own, or the
/// group advance, would score more; when they have nothing, the reserves come up. A reserve
/// within its charge is weighed with the line.
#[test]
fn reserves_out_of_reach_wait_while_the_line_has_something_to_do() {
    use othw::state::Command;
    let r = Othw::new();
    let (r0, r1, b0) = (0, 1, 2);
    let setup = |second: &str, at: (i32, i32)| {
        let mut st = common::battle(&["Infantry", second], &["Infantry"]);
        // B0 shows its flank to R0, next to it: R0 has a flank attack.
        put(&mut st, b0, 5, 5, E);
        put(&mut st, r0, 5, 4, N);
        put(&mut st, r1, at.0, at.1, N);
        st
    };
    // Every square closer to the enemy is worth five, so a reserve's step, or the group
    // advance of two, beats any attack (an attack scores at most 4.75); shuffles of R0 along
    // the enemy's front are not worth a move.
    let keen = |attack_min: f64| {
        let mut s = Scripted::new();
        s.weights.approach = 5.0;
        s.weights.move_min = 3.0;
        s.weights.attack_min = attack_min;
        s
    };
    // R1, infantry (a move of one step), far from B0 and next to the spare (a block of two):
    // the reserves wait and R0 attacks.
    let st = setup("Infantry", (10, 0));
    let rs = red_spare(&st);
    let (c, _) = keen(0.0).best(&r, &st, Side::Red).expect("a command");
    assert!(matches!(c, Command::Attack { unit, .. } if unit == r0), "{c:?}");
    // With no attack worth making, the line has nothing to do: the reserves advance.
    let (c, _) = keen(100.0).best(&r, &st, Side::Red).expect("a command");
    assert!(matches!(&c, Command::GroupMove { units, .. } if units == &[r1, rs]), "{c:?}");
    // R1, cavalry (three steps), four squares from B0: within its charge (three steps and
    // one more), it is weighed with the line, and its approach beats R0's attack.
    let st = setup("Cavalry", (5, 1));
    let (c, _) = keen(0.0).best(&r, &st, Side::Red).expect("a command");
    assert!(matches!(c, Command::Move { unit, .. } if unit == r1), "{c:?}");
}

/// The group advance moves reserves too: the scripted player advances a line as the side's
/// first action of a phase, and not once the side has acted.
#[test]
fn the_group_advance_is_only_the_sides_first_action_of_a_phase() {
    use othw::state::{Command, flags};
    let r = Othw::new();
    // R0 and R1 side by side on the back row, the spare apart.
    let mut st = common::battle(&["Infantry", "Infantry"], &["Infantry"]);
    let (first, _) = Scripted::new().best(&r, &st, Side::Red).expect("a command");
    assert!(matches!(&first, Command::GroupMove { units, .. } if units == &[0, 1]), "{first:?}");
    let rs = red_spare(&st);
    st.units[rs as usize].flags |= flags::MOVED;
    let (c, _) = Scripted::new().best(&r, &st, Side::Red).expect("a command");
    assert_eq!(c, Command::EndPhase);
}
