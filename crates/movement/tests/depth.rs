//! MOV-DEPTH: depth of formation.
mod common;
use common::*;
use tabletop::dice::ScriptedDice;
use tabletop::rules::{Actor, RuleSet};

fn melee(red_files: u32, red_stands: u32, blue_files: u32, blue_stands: u32) -> String {
    scenario_text(
        &(unit(
            "Red",
            "red",
            "medium_infantry",
            "medium",
            "good",
            "line",
            red_files,
            red_stands,
            30.0,
            20.0,
            0.0,
        ) + &unit(
            "Blue",
            "blue",
            "medium_infantry",
            "medium",
            "good",
            "line",
            blue_files,
            blue_stands,
            30.0,
            20.0,
            180.0,
        )),
    )
}

/// MOV-DEPTH-01
#[test]
fn mov_depth_01_the_deeper_side_adds_one_to_its_morale_check() {
    let s = state(&melee(4, 12, 4, 4));
    let r = rules();
    let d = r.depth_bonus(&s, 0);
    assert_eq!((d.bonus, d.ranks, d.enemy_ranks), (1, 3, 1));
    assert_eq!(r.depth_bonus(&s, 1).bonus, 0);
    // The engine's morale check adds it: d10 5 + good 1 + deeper 1 = 7.
    let mut dice = ScriptedDice::new([5]);
    let ev = r
        .execute(&s, Actor::Umpire, &movement::Command::MoraleCheck { unit: 0 }, &mut dice)
        .unwrap();
    match &ev[0] {
        movement::Event::MoraleChecked { total, passed, modifiers, .. } => {
            assert_eq!(*total, 7);
            assert!(*passed);
            assert!(modifiers.iter().any(|(n, v)| n.contains("deeper") && *v == 1));
        }
        e => panic!("{e:?}"),
    }
}

/// MOV-DEPTH-02
#[test]
fn mov_depth_02_equal_depth_no_bonus() {
    let s = state(&melee(4, 8, 4, 8));
    let r = rules();
    assert_eq!(r.depth_bonus(&s, 0).bonus, 0);
    assert_eq!(r.depth_bonus(&s, 0).rule, "MOV-DEPTH-02");
    assert_eq!(r.depth_bonus(&s, 1).bonus, 0);
}

/// MOV-DEPTH-03
#[test]
fn mov_depth_03_no_bonus_with_an_enemy_on_flank_or_rear() {
    // Red 3 deep in front contact with a 1-deep line, and a blue stand on its right flank.
    let text = scenario_text(
        &(unit("Red", "red", "medium_infantry", "medium", "good", "line", 4, 12, 30.0, 20.0, 0.0)
            + &unit(
                "Blue",
                "blue",
                "medium_infantry",
                "medium",
                "good",
                "line",
                4,
                4,
                30.0,
                20.0,
                180.0,
            )
            + &unit(
                "Flank",
                "blue",
                "medium_infantry",
                "medium",
                "good",
                "line",
                1,
                1,
                33.0,
                18.0,
                270.0,
            )),
    );
    let s = state(&text);
    let d = rules().depth_bonus(&s, 0);
    assert_eq!((d.bonus, d.rule), (0, "MOV-DEPTH-03"));
}

/// MOV-DEPTH-04
#[test]
fn mov_depth_04_a_mass_counts_its_depth_but_never_gets_the_bonus() {
    let text = scenario_text(
        &(unit("Mass", "red", "medium_infantry", "medium", "good", "mass", 3, 9, 30.0, 20.0, 0.0)
            + &unit(
                "Blue",
                "blue",
                "medium_infantry",
                "medium",
                "good",
                "line",
                4,
                8,
                30.0,
                20.0,
                180.0,
            )),
    );
    let s = state(&text);
    let r = rules();
    let m = r.depth_bonus(&s, 0);
    assert_eq!((m.bonus, m.ranks, m.rule), (0, 3, "MOV-DEPTH-04"));
    // The 2-deep line faces a 3-deep mass: it is not the deeper side.
    let b = r.depth_bonus(&s, 1);
    assert_eq!((b.bonus, b.enemy_ranks), (0, 3));
}

/// MOV-DEPTH-05
#[test]
fn mov_depth_05_the_bonus_is_flat() {
    // 4 ranks against 1: still +1.
    let text = melee(2, 8, 4, 4).replacen("formation = \"line\"", "formation = \"column\"", 1);
    let s = state(&text);
    let d = rules().depth_bonus(&s, 0);
    assert_eq!((d.bonus, d.ranks, d.enemy_ranks), (1, 4, 1));
}
