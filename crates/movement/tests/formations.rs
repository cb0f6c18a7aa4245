//! MOV-FORM: formations.
mod common;
use common::*;
use movement::Formation;
use movement::layout::{connected, layout, shape_problem};
use movement::state::Step;
use tabletop::rules::RuleSet;

fn form(formation: Formation, files: Option<u32>) -> Step {
    Step::Form { formation, files, gap: None }
}

fn mi(formation: &str, files: u32, stands: u32) -> String {
    scenario_text(
        &(unit(
            "A",
            "red",
            "medium_infantry",
            "medium",
            "good",
            formation,
            files,
            stands,
            30.0,
            20.0,
            0.0,
        ) + &blue_far()),
    )
}

/// MOV-FORM-01
#[test]
fn mov_form_01_exactly_one_of_five_formations() {
    let s = state(&mi("line", 4, 8));
    assert_eq!(s.units[0].pose.formation, Formation::Line);
    // Every formation change leaves the unit in exactly the one asked for.
    for (f, files) in [
        (Formation::Column, Some(2)),
        (Formation::Mass, Some(3)),
        (Formation::Circle, None),
        (Formation::Line, Some(8)),
    ] {
        let p = rules().plan_move(&s, 0, &[form(f, files)], false, false).unwrap();
        assert_eq!(p.pose.formation, f);
    }
    // An unknown formation does not parse.
    let bad = mi("line", 4, 8).replace("formation = \"line\"", "formation = \"wedge\"");
    let e = rules().load_scenario(&tabletop::Source::new("t.toml", bad)).unwrap_err();
    assert!(e.to_string().contains("formation"), "{e}");
}

/// MOV-FORM-02
#[test]
fn mov_form_02_a_formed_unit_is_one_edge_to_edge_group() {
    let s = state(&mi("line", 4, 8));
    assert!(connected(&s.units[0].rects(), 0.01));
    // Open order has gaps but stays linked within 2".
    let open = layout(
        &movement::layout::Pose { gap: 1.5, formation: Formation::OpenOrder, ..s.units[0].pose },
        8,
        (1.5, 1.0),
    );
    assert!(!connected(&open, 0.01));
    assert!(connected(&open, 2.0));
}

/// MOV-FORM-03
#[test]
fn mov_form_03_line_and_column_move_alike() {
    let line = state(&mi("line", 2, 2));
    let col = state(&mi("column", 1, 2));
    close(cost(&line, 0, &[adv(30.0, 27.0)]).unwrap(), 7.0);
    close(cost(&col, 0, &[adv(30.0, 27.0)]).unwrap(), 7.0);
    let r = rules();
    close(
        r.normal_allowance(&line.units[0], Formation::Line).0,
        r.normal_allowance(&col.units[0], Formation::Column).0,
    );
}

/// MOV-FORM-04
#[test]
fn mov_form_04_circle_moves_at_a_third_of_the_slowest_stand() {
    let hi = scenario_text(
        &(unit("HI", "red", "heavy_infantry", "heavy", "good", "circle", 1, 8, 30.0, 20.0, 0.0)
            + &blue_far()),
    );
    let s = state(&hi);
    close(rules().normal_allowance(&s.units[0], Formation::Circle).0, 2.0);
    let li = scenario_text(
        &(unit("LI", "red", "light_infantry", "light", "good", "circle", 1, 8, 30.0, 20.0, 0.0)
            + &blue_far()),
    );
    let s = state(&li);
    close(rules().normal_allowance(&s.units[0], Formation::Circle).0, 4.0);
    // Stands face outward: four directions.
    let dirs: std::collections::BTreeSet<(i64, i64)> = s.units[0]
        .stands
        .iter()
        .map(|st| {
            ((st.rect.facing.vector().x.round()) as i64, (st.rect.facing.vector().y.round()) as i64)
        })
        .collect();
    assert_eq!(dirs.len(), 4);
    // No flank or rear: moving "backward" costs 1" per inch.
    close(cost(&s, 0, &[adv(30.0, 17.0)]).unwrap(), 3.0);
    let mut g = game(&li);
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(30.0, 24.5)])), "MOV-GEN-01");
    ok(&mut g, RED, mv(0, vec![adv(30.0, 24.0)]));
}

/// MOV-FORM-05
#[test]
fn mov_form_05_only_skirmishers_use_open_order() {
    let mut g = game(&mi("line", 4, 4));
    assert_eq!(
        refused(&mut g, RED, mv(0, vec![form(Formation::OpenOrder, Some(4))])),
        "MOV-FORM-05"
    );
    let bad = mi("open_order", 4, 4);
    let e = rules().load_scenario(&tabletop::Source::new("t.toml", bad)).unwrap_err();
    assert!(e.to_string().contains("MOV-FORM-05"), "{e}");
    let skirm =
        mi("line", 4, 4).replace("formation = \"line\"", "formation = \"line\"\nskirmisher = true");
    let mut g = game(&skirm);
    ok(&mut g, RED, mv(0, vec![form(Formation::OpenOrder, Some(4))]));
    assert_eq!(g.state().units[0].pose.formation, Formation::OpenOrder);
}

/// MOV-FORM-06
#[test]
fn mov_form_06_open_order_gaps_at_most_two_inches() {
    let skirm =
        mi("line", 4, 4).replace("formation = \"line\"", "formation = \"line\"\nskirmisher = true");
    let mut g = game(&skirm);
    let wide = Step::Form { formation: Formation::OpenOrder, files: Some(4), gap: Some(2.5) };
    assert_eq!(refused(&mut g, RED, mv(0, vec![wide])), "MOV-FORM-06");
    let ok_gap = Step::Form { formation: Formation::OpenOrder, files: Some(4), gap: Some(2.0) };
    ok(&mut g, RED, mv(0, vec![ok_gap]));
    assert!(connected(&g.state().units[0].rects(), 2.0));
}

/// MOV-FORM-07
#[test]
fn mov_form_07_levy_must_stay_in_mass() {
    let levy = scenario_text(
        &(unit(
            "Levy",
            "red",
            "medium_infantry",
            "unarmored",
            "poor",
            "mass",
            3,
            9,
            30.0,
            20.0,
            0.0,
        )
        .replace("formation = \"mass\"", "formation = \"mass\"\nlevy = true")
            + &blue_far()),
    );
    let mut g = game(&levy);
    assert_eq!(refused(&mut g, RED, mv(0, vec![form(Formation::Line, Some(9))])), "MOV-FORM-07");
    assert_eq!(refused(&mut g, RED, mv(0, vec![form(Formation::Column, Some(1))])), "MOV-FORM-07");
    // A facing change keeps it a mass.
    ok(&mut g, RED, mv(0, vec![face(movement::Turn::Right)]));
    assert_eq!(g.state().units[0].pose.formation, Formation::Mass);
    let bad = levy.replace("formation = \"mass\"", "formation = \"line\"");
    let e = rules().load_scenario(&tabletop::Source::new("t.toml", bad)).unwrap_err();
    assert!(e.to_string().contains("MOV-FORM-07"), "{e}");
}

/// MOV-FORM-08
#[test]
fn mov_form_08_a_mass_is_about_as_deep_as_wide() {
    let pose = |files| movement::layout::Pose {
        at: tabletop::Vec2::new(0.0, 0.0),
        facing: tabletop::Facing::NORTH,
        formation: Formation::Mass,
        files,
        gap: 0.0,
    };
    // 9 foot stands 1.5" × 1": 3 files = 4.5" wide, 3" deep: within 1.5".
    assert!(shape_problem(&pose(3), 9, (1.5, 1.0), 2.0).is_none());
    // 9 files = 13.5" wide, 1" deep: not a mass.
    assert_eq!(shape_problem(&pose(9), 9, (1.5, 1.0), 2.0).unwrap().0, "MOV-FORM-08");
    let mut g = game(&mi("line", 9, 9));
    assert_eq!(refused(&mut g, RED, mv(0, vec![form(Formation::Mass, Some(9))])), "MOV-FORM-08");
    ok(&mut g, RED, mv(0, vec![form(Formation::Mass, Some(3))]));
}

/// MOV-FORM-09
#[test]
fn mov_form_09_a_mass_never_gets_the_depth_bonus() {
    // A 4-deep mass against a 1-deep line in front contact: no bonus.
    let text = scenario_text(
        &(unit("Mass", "red", "medium_infantry", "medium", "good", "mass", 3, 12, 30.0, 20.0, 0.0)
            + &unit(
                "Line",
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
            )),
    );
    let s = state(&text);
    let d = rules().depth_bonus(&s, 0);
    assert_eq!((d.bonus, d.ranks, d.rule), (0, 4, "MOV-DEPTH-04"));
}

/// MOV-FORM-10
#[test]
fn mov_form_10_non_levy_units_may_choose_mass() {
    let mut g = game(&mi("line", 4, 8));
    ok(&mut g, RED, mv(0, vec![form(Formation::Mass, Some(3))]));
    assert_eq!(g.state().units[0].pose.formation, Formation::Mass);
}

/// MOV-FORM-11
#[test]
fn mov_form_11_line_at_least_as_wide_as_deep_column_deeper_than_wide() {
    let mut g = game(&mi("line", 4, 8));
    // 1 file of 8 is no line; 4 files of 8 (6" × 2") is no column.
    assert_eq!(refused(&mut g, RED, mv(0, vec![form(Formation::Line, Some(1))])), "MOV-FORM-11");
    assert_eq!(refused(&mut g, RED, mv(0, vec![form(Formation::Column, Some(4))])), "MOV-FORM-11");
    ok(&mut g, RED, mv(0, vec![form(Formation::Column, Some(2))]));
}

/// MOV-FORM-12
#[test]
fn mov_form_12_formation_change_costs_the_farthest_stand_plus_a_turn() {
    // A line of 4 (6" wide) into a column of 1 behind its front centre: the stands take the
    // places that make the farthest move shortest, and that farthest move is the cost.
    let s = state(&mi("line", 4, 4));
    let p = rules().plan_move(&s, 0, &[form(Formation::Column, Some(1))], false, false).unwrap();
    let old: Vec<_> = s.units[0].rects().iter().map(|r| r.centre).collect();
    let new: Vec<_> = layout(&p.pose, 4, (1.5, 1.0)).iter().map(|r| r.centre).collect();
    let best = best_bottleneck(&old, &new);
    close(p.cost, best);
    // In layout order the farthest stand would go 3.75"; the best assignment does better.
    let in_order = old.iter().zip(&new).map(|(a, b)| a.distance(*b)).fold(0.0, f64::max);
    close(in_order, 3.75);
    assert!(p.cost < in_order);
    // Into a circle the stands turn: one facing-change cost more (good: 1").
    let s8 = state(&mi("line", 4, 8));
    let p = rules().plan_move(&s8, 0, &[form(Formation::Circle, None)], false, false).unwrap();
    let old: Vec<_> = s8.units[0].rects().iter().map(|r| r.centre).collect();
    let new: Vec<_> = layout(&p.pose, 8, (1.5, 1.0)).iter().map(|r| r.centre).collect();
    let slot_of = movement::engine::bottleneck_assignment(&old, &new);
    let farthest = (0..8).map(|i| old[i].distance(new[slot_of[i]])).fold(0.0, f64::max);
    close(p.cost, farthest + 1.0);
    // The stands keep their own EP when they change places.
    let mut g = game(&mi("line", 4, 4));
    ok(
        &mut g,
        tabletop::Actor::Umpire,
        movement::Command::SetEndurance { unit: 0, stand: Some(0), ep: 3 },
    );
    let before: Vec<_> = g.state().units[0].rects().iter().map(|r| r.centre).collect();
    ok(&mut g, RED, mv(0, vec![form(Formation::Column, Some(1))]));
    let after: Vec<_> = g.state().units[0].rects().iter().map(|r| r.centre).collect();
    let slot_of = movement::engine::bottleneck_assignment(&before, &after);
    assert_ne!(slot_of, vec![0, 1, 2, 3]);
    let k = g.state().units[0].stands.iter().position(|st| st.ep == 3).unwrap();
    assert_eq!(k, slot_of[0]);
    // Only one formation change per move.
    let e = rules()
        .plan_move(
            &s,
            0,
            &[form(Formation::Column, Some(1)), form(Formation::Line, Some(4))],
            false,
            false,
        )
        .unwrap_err();
    assert_eq!(e.rule.as_str(), "MOV-FORM-12");
}

/// The smallest possible longest move, by trying every assignment.
fn best_bottleneck(old: &[tabletop::Vec2], new: &[tabletop::Vec2]) -> f64 {
    fn go(
        i: usize,
        used: &mut Vec<bool>,
        old: &[tabletop::Vec2],
        new: &[tabletop::Vec2],
        worst: f64,
        best: &mut f64,
    ) {
        if i == old.len() {
            *best = best.min(worst);
            return;
        }
        for j in 0..new.len() {
            if !used[j] {
                used[j] = true;
                go(i + 1, used, old, new, worst.max(old[i].distance(new[j])), best);
                used[j] = false;
            }
        }
    }
    let mut best = f64::INFINITY;
    go(0, &mut vec![false; new.len()], old, new, 0.0, &mut best);
    best
}

/// MOV-FORM-13
#[test]
fn mov_form_13_formation_remarks_without_movement_rules_change_no_cost() {
    // A thin line, a column facing a line, open order: none changes a movement cost.
    let skirm = mi("line", 4, 4)
        .replace("formation = \"line\"", "formation = \"open_order\"\nskirmisher = true");
    let s = state(&skirm);
    close(cost(&s, 0, &[adv(30.0, 25.0)]).unwrap(), 5.0);
    let thin = state(&mi("line", 8, 8));
    close(cost(&thin, 0, &[adv(30.0, 25.0)]).unwrap(), 5.0);
    let r = rules();
    close(
        r.normal_allowance(&s.units[0], Formation::OpenOrder).0,
        r.normal_allowance(&thin.units[0], Formation::Line).0,
    );
}
