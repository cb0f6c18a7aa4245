//! MOV-THRU: moving through other units.
mod common;
use common::*;
use movement::Formation;
use movement::state::Command;
use movement::state::Step;
use tabletop::rules::Actor;

/// MOV-THRU-01
#[test]
fn mov_thru_01_no_stand_enters_an_enemy_footprint() {
    let text = scenario_text(&(li("A", 30.0, 10.0) + &blue_li("B", 30.0, 15.0, 180.0)));
    let mut g = game(&text);
    // Straight through: refused.
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(30.0, 21.0)])), "MOV-THRU-01");
    // Even a charge only reaches the enemy's edge.
    ok(&mut g, RED, charge(0, vec![adv(30.0, 21.0)]));
    let a = &g.state().units[0].stands[0].rect;
    let b = &g.state().units[1].stands[0].rect;
    assert!(!a.overlaps(b));
    assert!(a.distance(b) < 1e-6);
}

/// MOV-THRU-02
#[test]
fn mov_thru_02_friends_only_through_a_morale_result() {
    // A in front, friend F behind it; a voluntary move through F is refused.
    let text = scenario_text(
        &(li("A", 30.0, 20.0)
            + &unit(
                "F",
                "red",
                "medium_infantry",
                "medium",
                "good",
                "line",
                4,
                4,
                30.0,
                17.0,
                0.0,
            )
            + &blue_far()),
    );
    let mut g = game(&text);
    let about =
        rules().plan_move(g.state(), 0, &[face(movement::Turn::About)], false, false).unwrap();
    let at = about.pose.at;
    assert_eq!(
        refused(&mut g, RED, mv(0, vec![face(movement::Turn::About), adv(at.x, at.y - 8.0)])),
        "MOV-THRU-02"
    );
    // Driven off by a morale result, it flees south through F and ends clear of it.
    ok(&mut g, Actor::Umpire, Command::DriveOff { unit: 0 });
    end(&mut g);
    end(&mut g);
    let a = g.state().units[0].clone();
    let f = g.state().units[1].clone();
    assert!(a.stands[0].rect.centre.y < 15.0, "{:?}", a.pose);
    assert!(a.stands.iter().all(|s| f.stands.iter().all(|t| !s.rect.overlaps(&t.rect))));
}

/// MOV-THRU-03
#[test]
fn mov_thru_03_no_stand_enters_an_enemy_gap_narrower_than_its_frontage() {
    // Two enemy stands 1.2" apart; a 1.5"-wide stand sidestepping (1" deep across the gap)
    // would fit, but is refused.
    let blues = |gap_top: f64| {
        unit("N", "blue", "light_infantry", "light", "good", "line", 1, 1, 24.75, gap_top, 180.0)
            + &blue_li("S", 24.75, 9.9, 0.0)
    };
    let narrow = state(&scenario_text(&(li("A", 20.0, 11.0) + &blues(11.1))));
    assert_eq!(cost(&narrow, 0, &[adv(30.0, 11.0)]).unwrap_err(), "MOV-THRU-03");
    let wide = state(&scenario_text(&(li("A", 20.0, 11.0) + &blues(11.5))));
    close(cost(&wide, 0, &[adv(26.0, 11.0)]).unwrap(), 12.0);
}

/// MOV-THRU-04
#[test]
fn mov_thru_04_no_move_ends_overlapping() {
    // Forming a deep column would put stands on the friend behind: refused.
    let text = scenario_text(
        &(unit("A", "red", "medium_infantry", "medium", "good", "line", 4, 4, 30.0, 20.0, 0.0)
            + &unit(
                "F",
                "red",
                "medium_infantry",
                "medium",
                "good",
                "line",
                4,
                4,
                30.0,
                18.5,
                0.0,
            )
            + &blue_far()),
    );
    let mut g = game(&text);
    let to_column = Step::Form { formation: Formation::Column, files: Some(1), gap: None };
    assert_eq!(refused(&mut g, RED, mv(0, vec![to_column])), "MOV-THRU-04");
}
