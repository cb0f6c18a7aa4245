//! MOV-GEN: general procedures.
mod common;
use common::*;
use movement::Event;
use movement::model::Turn;
use tabletop::rules::{Actor, RuleSet};

/// MOV-GEN-01
#[test]
fn mov_gen_01_one_move_per_unit_per_phase_within_allowance() {
    let text = scenario_text(&(li("A", 30.0, 10.0) + &blue_far()));
    let mut g = game(&text);
    // Over the allowance: refused.
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(30.0, 22.5)])), "MOV-GEN-01");
    // Exactly the allowance: legal.
    let ev = ok(&mut g, RED, mv(0, vec![adv(30.0, 22.0)]));
    close(moved_cost(&ev), 12.0);
    // A second move in the same phase: refused.
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(30.0, 23.0)])), "MOV-GEN-01");
    // Blue may not move in red's phase, nor red move blue's unit.
    assert_eq!(refused(&mut g, BLUE, mv(1, vec![adv(57.0, 57.0)])), "MOV-GEN-01");
    assert_eq!(refused(&mut g, RED, mv(1, vec![adv(57.0, 57.0)])), "MOV-GEN-01");
}

/// MOV-GEN-02
#[test]
fn mov_gen_02_allowance_is_the_t1_rate_of_the_slowest_stand() {
    let r = rules();
    let mixed = r#"
[[unit]]
name = "Mixed"
side = "red"
type = "light_infantry"
stand_armor = ["light", "heavy"]
discipline = "good"
formation = "line"
files = 2
position = [30.0, 10.0]
facing = 0.0
"#;
    let text = scenario_text(
        &(mixed.to_string()
            + &unit("HI", "red", "heavy_infantry", "heavy", "good", "line", 1, 1, 35.0, 10.0, 0.0)
            + &unit("LC", "red", "light_cavalry", "light", "good", "line", 1, 1, 25.0, 10.0, 0.0)
            + &blue_far()),
    );
    let st = state(&text);
    close(r.normal_allowance(&st.units[0], st.units[0].pose.formation).0, 10.0);
    close(r.normal_allowance(&st.units[1], st.units[1].pose.formation).0, 6.0);
    close(r.normal_allowance(&st.units[2], st.units[2].pose.formation).0, 24.0);
    assert!(cost(&st, 0, &[adv(30.0, 20.0)]).is_ok());
    let mut g = game(&text);
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(30.0, 20.5)])), "MOV-GEN-01");
}

/// MOV-GEN-03
#[test]
fn mov_gen_03_cost_adds_terrain_direction_facing_wheel_formation_and_obstacles() {
    let hedge = r#"
[[line]]
name = "Hedge"
kind = "hedge"
width = 0.25
points = [[20.0, 14.0], [40.0, 14.0]]
"#;
    let text = scenario_text(
        &(hedge.to_string()
            + &unit("A", "red", "light_infantry", "light", "poor", "line", 2, 2, 30.0, 10.0, 0.0)
            + &blue_far()),
    );
    let st = state(&text);
    // 6" forward across the hedge (6 + 2), a facing change (poor: 2), then 1" to the new
    // right flank (south), sideways: 2.
    let turned =
        rules().plan_move(&st, 0, &[adv(30.0, 16.0), face(Turn::Right)], false, false).unwrap();
    close(turned.cost, 10.0);
    let at = turned.pose.at;
    let steps = [adv(30.0, 16.0), face(Turn::Right), adv(at.x, at.y - 1.0)];
    let c = cost(&st, 0, &steps).unwrap();
    close(c, 6.0 + 2.0 + 2.0 + 2.0);
    let plan = rules().plan_move(&st, 0, &steps, false, false).unwrap();
    let rules_cited: Vec<String> = plan.items.iter().map(|i| i.rule.to_string()).collect();
    for r in ["MOV-TER-02", "MOV-TER-12", "MOV-FACE-02"] {
        assert!(rules_cited.iter().any(|x| x == r), "{r} in {rules_cited:?}");
    }
}

/// MOV-GEN-04
#[test]
fn mov_gen_04_unused_allowance_is_lost() {
    let text = scenario_text(&(li("A", 30.0, 10.0) + &blue_far()));
    let mut g = game(&text);
    ok(&mut g, RED, mv(0, vec![adv(30.0, 16.0)]));
    end(&mut g);
    end(&mut g);
    // Next turn the allowance is 12 again, not 18.
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(30.0, 28.5)])), "MOV-GEN-01");
    ok(&mut g, RED, mv(0, vec![adv(30.0, 28.0)]));
}

/// MOV-GEN-05
#[test]
fn mov_gen_05_a_move_out_of_contact_needs_no_battle_command() {
    let text = scenario_text(&(li("A", 30.0, 10.0) + &blue_far()));
    let mut g = game(&text);
    let ev = ok(&mut g, RED, mv(0, vec![adv(25.0, 15.0)]));
    assert!(
        matches!(&ev[0], Event::Moved { rules, .. } if rules.iter().any(|r| r.as_str() == "MOV-GEN-05"))
    );
}

/// MOV-GEN-06
#[test]
fn mov_gen_06_a_move_starting_in_contact_needs_a_battle_command() {
    // Red faces north with its front at y = 10; Blue's front touches it.
    let text = scenario_text(&(li("A", 30.0, 10.0) + &blue_li("B", 30.0, 10.0, 180.0)));
    let mut g = game(&text);
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(30.0, 8.0)])), "MOV-GEN-06");
    assert_eq!(refused(&mut g, RED, mv(0, vec![face(Turn::About)])), "MOV-GEN-06");
    ok(&mut g, RED, charge(0, vec![adv(30.0, 8.0)]));
}

/// MOV-GEN-07
#[test]
fn mov_gen_07_a_move_ending_in_contact_needs_a_battle_command_and_stops_there() {
    let text = scenario_text(&(li("A", 30.0, 10.0) + &blue_li("B", 30.0, 18.0, 180.0)));
    let mut g = game(&text);
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(30.0, 20.0)])), "MOV-THRU-01");
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(30.0, 18.0)])), "MOV-GEN-07");
    let ev = ok(&mut g, RED, charge(0, vec![adv(30.0, 20.0), adv(25.0, 20.0)]));
    match &ev[0] {
        Event::Moved { to, cost, note, kind, .. } => {
            assert_eq!(*kind, movement::state::MoveKind::Charge);
            close(to.at.y, 18.0);
            close(*cost, 8.0);
            assert!(note.contains("contact") && note.contains("dropped"), "{note}");
        }
        e => panic!("{e:?}"),
    }
    assert!(rules().in_contact(g.state(), 0));
}

/// MOV-GEN-08
#[test]
fn mov_gen_08_a_charge_may_go_one_third_farther() {
    let text = scenario_text(
        &(li("A", 30.0, 10.0)
            + &blue_li("B", 30.0, 26.0, 180.0)
            + &li("C", 24.0, 10.0)
            + &blue_li("D", 24.0, 27.0, 180.0)),
    );
    let mut g = game(&text);
    let r = rules();
    close(r.allowance(&g.state().units[0], false, true).this_move, 16.0);
    // 16" into contact: legal under a battle command.
    let ev = ok(&mut g, RED, charge(0, vec![adv(30.0, 40.0)]));
    close(moved_cost(&ev), 16.0);
    // 17" to contact: beyond 4/3.
    assert_eq!(refused(&mut g, RED, charge(2, vec![adv(24.0, 40.0)])), "MOV-GEN-08");
    // 13" without contact is capped at 12.
    assert_eq!(refused(&mut g, RED, charge(2, vec![adv(24.0, 23.0)])), "MOV-GEN-01");
}

/// MOV-GEN-09
#[test]
fn mov_gen_09_measuring_is_free_and_changes_nothing() {
    let text = scenario_text(&(li("A", 30.0, 10.0) + &blue_far()));
    let g = game(&text);
    let before = g.state_hash();
    for _ in 0..3 {
        let p = rules().plan_move(g.state(), 0, &[adv(30.0, 40.0)], false, false).unwrap();
        close(p.cost, 30.0);
    }
    assert_eq!(g.state_hash(), before);
    assert!(!g.state().units[0].moved);
}

/// MOV-GEN-10
#[test]
fn mov_gen_10_other_creatures_use_their_own_rate() {
    let troll = r#"
[[unit]]
name = "Troll"
side = "red"
type = "creature"
rate = 15.0
discipline = "wild"
formation = "line"
stands = 1
position = [30.0, 10.0]
facing = 0.0
"#;
    let text = scenario_text(&(troll.to_string() + &blue_far()));
    let mut g = game(&text);
    close(rules().normal_allowance(&g.state().units[0], movement::Formation::Line).0, 15.0);
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(30.0, 25.5)])), "MOV-GEN-01");
    ok(&mut g, RED, mv(0, vec![adv(30.0, 25.0)]));
    // Without its own rate a creature is refused at load.
    let bad = scenario_text(&(troll.replace("rate = 15.0\n", "") + &blue_far()));
    let e = rules().load_scenario(&tabletop::Source::new("t.toml", bad)).unwrap_err();
    assert!(e.to_string().contains("MOV-GEN-10"), "{e}");
}

/// MOV-GEN-11
#[test]
fn mov_gen_11_terrain_costs_the_same_for_every_type_and_armor() {
    let marsh = r#"
[[area]]
name = "Mud"
kind = "marsh"
points = [[0.0, 20.0], [60.0, 20.0], [60.0, 40.0], [0.0, 40.0]]
"#;
    let text = scenario_text(
        &(marsh.to_string()
            + &li("A", 10.0, 20.5)
            + &unit("HC", "red", "heavy_cavalry", "heavy", "good", "line", 1, 1, 14.0, 20.75, 0.0)
            + &blue_far()),
    );
    let st = state(&text);
    // Both stands' centres are in the mud from the start: 3" costs 6" for each.
    close(cost(&st, 0, &[adv(10.0, 23.5)]).unwrap(), 6.0);
    close(cost(&st, 1, &[adv(14.0, 23.75)]).unwrap(), 6.0);
    let _ = Actor::Umpire;
    let _ = rules().id();
}
