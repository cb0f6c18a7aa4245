//! MOV-LIMB: limbering and unlimbering.
mod common;
use common::*;
use movement::model::Turn;
use movement::state::Command;

fn gun(class: &str, limbered: bool) -> String {
    scenario_text(
        &(format!(
            "\n[[unit]]\nname = \"Gun\"\nside = \"red\"\ntype = \"artillery\"\nartillery = \"{class}\"\nlimbered = {limbered}\ndiscipline = \"good\"\nformation = \"line\"\nposition = [30.0, 10.0]\nfacing = 0.0\n"
        ) + &blue_far()),
    )
}

/// MOV-LIMB-01
#[test]
fn mov_limb_01_limbering_takes_the_whole_turn() {
    let mut g = game(&gun("light", false));
    ok(&mut g, RED, Command::Limber { unit: 0 });
    // It neither moves nor changes facing this turn.
    let r = refused(&mut g, RED, mv(0, vec![face(Turn::Right)]));
    assert!(r == "MOV-GEN-01" || r == "MOV-LIMB-01", "{r}");
    assert!(!g.state().units[0].limber.as_ref().unwrap().limbered);
    end(&mut g);
    assert!(g.state().units[0].limber.as_ref().unwrap().limbered);
    end(&mut g);
    // Next turn it moves at the limbered rate.
    ok(&mut g, RED, mv(0, vec![adv(30.0, 19.0)]));
}

/// MOV-LIMB-02
#[test]
fn mov_limb_02_no_shooting_in_the_turn_of_limbering_or_unlimbering() {
    let mut g = game(&gun("light", true));
    assert_eq!(refused(&mut g, RED, Command::Shoot { unit: 0 }), "MOV-LIMB-03");
    ok(&mut g, RED, Command::Unlimber { unit: 0 });
    assert_eq!(refused(&mut g, RED, Command::Shoot { unit: 0 }), "MOV-LIMB-02");
    end(&mut g);
    // Still the same turn (blue's phase): no shooting.
    assert_eq!(refused(&mut g, RED, Command::Shoot { unit: 0 }), "MOV-LIMB-02");
    end(&mut g);
    ok(&mut g, RED, Command::Shoot { unit: 0 });
    assert_eq!(refused(&mut g, RED, Command::Shoot { unit: 0 }), "MOV-LIMB-02");
}

/// MOV-LIMB-03
#[test]
fn mov_limb_03_only_limbered_pieces_move_and_only_unlimbered_shoot() {
    let mut g = game(&gun("light", false));
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(30.0, 12.0)])), "MOV-LIMB-03");
    ok(&mut g, RED, mv(0, vec![face(Turn::Right)]));
    // Limbered rates: light 9", heavy 3".
    let light = state(&gun("light", true));
    close(rules().normal_allowance(&light.units[0], movement::Formation::Line).0, 9.0);
    let heavy = state(&gun("heavy", true));
    close(rules().normal_allowance(&heavy.units[0], movement::Formation::Line).0, 3.0);
    assert_eq!(
        check_rule(&heavy, RED, &mv(0, vec![adv(30.0, 13.5)])).as_deref(),
        Some("MOV-GEN-01")
    );
    assert_eq!(check_rule(&heavy, RED, &mv(0, vec![adv(30.0, 13.0)])), None);
}

/// MOV-LIMB-02: shooting first and then limbering in the same turn is refused, with the rule;
/// the piece limbers in a later turn. Played from the ready scenario's Blue Bombard
/// (unlimbered on Windmill Hill).
#[test]
fn mov_limb_02_a_piece_that_has_shot_may_not_limber_in_that_turn() {
    let mut g = game(&ford_text());
    let bombard = g.state().find("Blue Bombard").expect("the ford's bombard");
    end(&mut g); // red's phase of turn 1
    let shot = ok(&mut g, BLUE, Command::Shoot { unit: bombard });
    assert!(matches!(shot.as_slice(), [movement::Event::Shot { .. }]), "{shot:?}");
    assert_eq!(refused(&mut g, BLUE, Command::Limber { unit: bombard }), "MOV-LIMB-02");
    let piece = g.state().units[bombard].limber.clone().unwrap();
    assert!(!piece.limbered && !piece.changing, "{piece:?}");
    assert_eq!(piece.shot_turn, Some(1));
    end(&mut g);
    end(&mut g);
    // Turn 2: it has not shot, so it may limber (and then may not shoot).
    let ev = ok(&mut g, BLUE, Command::Limber { unit: bombard });
    assert!(g.log().iter().any(|l| l.text.contains("Blue Bombard limbers")), "{ev:?}");
    assert_eq!(refused(&mut g, BLUE, Command::Shoot { unit: bombard }), "MOV-LIMB-02");
}
