//! MOV-FACE: changes of facing.
mod common;
use common::*;
use movement::Formation;
use movement::model::Turn;
use tabletop::geometry::Facing;

fn text(disc: &str, files: u32, stands: u32) -> String {
    scenario_text(
        &(unit(
            "A",
            "red",
            "medium_infantry",
            "light",
            disc,
            "line",
            files,
            stands,
            30.0,
            10.0,
            0.0,
        ) + &blue_far()),
    )
}

/// MOV-FACE-01
#[test]
fn mov_face_01_right_left_or_rear_each_one_change() {
    let s = state(&text("good", 1, 1));
    let r = rules();
    for (t, f) in
        [(Turn::Right, Facing::EAST), (Turn::Left, Facing::WEST), (Turn::About, Facing::SOUTH)]
    {
        let p = r.plan_move(&s, 0, &[face(t)], false, false).unwrap();
        assert!((p.pose.facing.vector() - f.vector()).length() < 1e-12);
        close(p.cost, 1.0);
        assert_eq!(p.items.len(), 1);
    }
}

/// MOV-FACE-02
#[test]
fn mov_face_02_cost_by_discipline() {
    for (d, c) in [("excellent", 1.0), ("good", 1.0), ("poor", 2.0), ("wild", 1.0)] {
        close(cost(&state(&text(d, 1, 1)), 0, &[face(Turn::Right)]).unwrap(), c);
    }
}

/// MOV-FACE-03
#[test]
fn mov_face_03_several_changes_each_paid() {
    let s = state(&text("poor", 1, 1));
    close(cost(&s, 0, &[face(Turn::Right), face(Turn::Right)]).unwrap(), 4.0);
    close(cost(&s, 0, &[face(Turn::About)]).unwrap(), 2.0);
}

/// MOV-FACE-04
#[test]
fn mov_face_04_refused_when_allowance_left_is_too_small() {
    // Poor MI light armor: 10". 9" forward leaves 1", a poor facing change costs 2".
    let mut g = game(&text("poor", 1, 1));
    assert_eq!(
        refused(&mut g, RED, mv(0, vec![adv(30.0, 19.0), face(Turn::Right)])),
        "MOV-FACE-04"
    );
    ok(&mut g, RED, mv(0, vec![adv(30.0, 18.0), face(Turn::Right)]));
}

/// MOV-FACE-05
#[test]
fn mov_face_05_stands_turn_in_place_and_close_up() {
    // A line of 4 turned right becomes a file of 4, keeping the centroid.
    let s = state(&text("good", 4, 4));
    let p = rules().plan_move(&s, 0, &[face(Turn::Right)], false, false).unwrap();
    assert_eq!(p.pose.files, 1);
    assert_eq!(p.pose.formation, Formation::Column);
    let before = movement::layout::centroid(&s.units[0].rects());
    let after = movement::layout::centroid(&movement::layout::layout(&p.pose, 4, (1.5, 1.0)));
    assert!(before.distance(after) < 1e-9);
    // Next to a friend, the turned column would overlap it: it shifts by the smallest step.
    let blocked = scenario_text(
        &(unit("A", "red", "medium_infantry", "light", "good", "line", 4, 4, 30.0, 10.0, 0.0)
            + &unit("F", "red", "medium_infantry", "light", "good", "line", 1, 1, 30.0, 11.2, 0.0)
            + &blue_far()),
    );
    let s2 = state(&blocked);
    let p2 = rules().plan_move(&s2, 0, &[face(Turn::Right)], false, false).unwrap();
    let rects = movement::layout::layout(&p2.pose, 4, (1.5, 1.0));
    assert!(rects.iter().all(|r| s2.units[1].stands.iter().all(|f| !r.overlaps(&f.rect))));
    assert!(p2.pose.at.distance(p.pose.at) > 0.0 && p2.pose.at.distance(p.pose.at) <= 1.0 + 1e-9);
    // With no room within one stand depth, the turn is refused.
    let boxed = scenario_text(
        &(unit("A", "red", "medium_infantry", "light", "good", "line", 4, 4, 30.0, 10.0, 0.0)
            + &unit(
                "F1",
                "red",
                "medium_infantry",
                "light",
                "good",
                "line",
                4,
                4,
                30.0,
                11.0,
                0.0,
            )
            + &unit("F2", "red", "medium_infantry", "light", "good", "line", 4, 4, 30.0, 9.0, 0.0)
            + &blue_far()),
    );
    let s3 = state(&boxed);
    let e = rules().plan_move(&s3, 0, &[face(Turn::Right)], false, false).unwrap_err();
    assert_eq!(e.rule.as_str(), "MOV-FACE-05");
}

/// MOV-FACE-06
#[test]
fn mov_face_06_facing_cost_is_fixed_whatever_the_terrain() {
    let marsh = r#"
[[area]]
kind = "marsh"
points = [[0.0, 0.0], [60.0, 0.0], [60.0, 30.0], [0.0, 30.0]]
"#;
    let s = state(&scenario_text(
        &(marsh.to_string()
            + &unit("A", "red", "medium_infantry", "light", "poor", "line", 1, 1, 30.0, 10.0, 0.0)
            + &blue_far()),
    ));
    close(cost(&s, 0, &[face(Turn::Left)]).unwrap(), 2.0);
    // The mud doubles the distance, not the turn.
    close(cost(&s, 0, &[adv(30.0, 12.0)]).unwrap(), 4.0);
}
