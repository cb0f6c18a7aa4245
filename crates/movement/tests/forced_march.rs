//! MOV-FM: forced march, attrition and exhaustion.
mod common;
use common::*;
use movement::data::ExhaustionRows;
use movement::state::Command;
use movement::{Event, MoraleState, Movement};
use tabletop::rules::{Actor, RuleSet};

fn li_text(disc: &str) -> String {
    scenario_text(
        &(unit("A", "red", "light_infantry", "light", disc, "line", 2, 2, 30.0, 10.0, 0.0)
            + &blue_far()),
    )
}

fn eps(st: &movement::State) -> Vec<i32> {
    st.units[0].stands.iter().map(|s| s.ep).collect()
}

/// MOV-FM-01
#[test]
fn mov_fm_01_a_forced_march_needs_a_passed_discipline_check() {
    // Good: pass on 4+. A 3 fails: a 20" forced march does not happen and a normal move is left.
    let mut st = state(&li_text("good"));
    let ev = run(&mut st, RED, forced(0, vec![adv(30.0, 30.0)]), &[3]);
    assert!(matches!(&ev[0], Event::DisciplineCheck { passed: false, target: 4, .. }));
    assert!(matches!(&ev[1], Event::ForcedMarchFailed { .. }));
    assert_eq!(st.units[0].pose.at.y, 10.0);
    assert_eq!(
        check_rule(&st, RED, &forced(0, vec![adv(30.0, 20.0)])).as_deref(),
        Some("MOV-FM-01")
    );
    run(&mut st, RED, mv(0, vec![adv(30.0, 22.0)]), &[]);
    // A failed check on a path that fits the normal allowance moves normally, without attrition.
    let mut st = state(&li_text("good"));
    let ev = run(&mut st, RED, forced(0, vec![adv(30.0, 20.0)]), &[2]);
    assert!(matches!(&ev[1], Event::Moved { kind: movement::state::MoveKind::Voluntary, .. }));
    assert_eq!(eps(&st), vec![10, 10]);
    // A pass: the forced march goes ahead.
    let mut st = state(&li_text("good"));
    let ev = run(&mut st, RED, forced(0, vec![adv(30.0, 30.0)]), &[4, 1]);
    assert!(matches!(&ev[1], Event::Moved { kind: movement::state::MoveKind::ForcedMarch, .. }));
    assert_eq!(st.units[0].pose.at.y, 30.0);
}

/// MOV-FM-02
#[test]
fn mov_fm_02_twice_the_normal_allowance() {
    let st = state(&li_text("good"));
    let r = rules();
    close(r.allowance(&st.units[0], true, false).this_move, 24.0);
    assert_eq!(check_rule(&st, RED, &forced(0, vec![adv(30.0, 34.0)])), None);
    assert!(check_rule(&st, RED, &forced(0, vec![adv(30.0, 34.5)])).is_some());
}

/// MOV-FM-03
#[test]
fn mov_fm_03_no_charge_and_no_contact_on_a_forced_march() {
    let text = scenario_text(&(li("A", 30.0, 10.0) + &blue_li("B", 30.0, 25.0, 180.0)));
    let st = state(&text);
    assert_eq!(
        check_rule(&st, RED, &forced(0, vec![adv(30.0, 25.0)])).as_deref(),
        Some("MOV-FM-03")
    );
    let through = Command::Move {
        unit: 0,
        forced_march: true,
        battle_command: true,
        steps: vec![adv(30.0, 30.0)],
    };
    assert_eq!(check_rule(&st, RED, &through).as_deref(), Some("MOV-FM-03"));
    // Nor may it start in contact.
    let touching = scenario_text(&(li("A", 30.0, 10.0) + &blue_li("B", 30.0, 10.0, 180.0)));
    let st = state(&touching);
    let away = Command::Move {
        unit: 0,
        forced_march: true,
        battle_command: true,
        steps: vec![adv(30.0, 0.5)],
    };
    assert_eq!(check_rule(&st, RED, &away).as_deref(), Some("MOV-FM-03"));
}

/// MOV-FM-04
#[test]
fn mov_fm_04_the_charge_bonus_never_combines_with_a_forced_march() {
    let st = state(&li_text("good"));
    let r = rules();
    close(r.allowance(&st.units[0], true, true).this_move, 24.0);
    close(r.allowance(&st.units[0], false, true).this_move, 16.0);
}

/// MOV-FM-05
#[test]
fn mov_fm_05_attrition_by_discipline_even_if_the_extra_went_unused() {
    for (d, lost) in [("excellent", 1), ("good", 2), ("poor", 4), ("wild", 4)] {
        let mut st = state(&li_text(d).replace("facing = 0\n", "facing = 0\nep = 6\n"));
        // 5" only, well inside the normal allowance: attrition all the same. d10 10 passes,
        // then 1 for exhaustion.
        let ev = run(&mut st, RED, forced(0, vec![adv(30.0, 15.0)]), &[10, 1]);
        assert!(
            ev.iter()
                .any(|e| matches!(e, Event::Attrition { per_stand, .. } if *per_stand == lost))
        );
        assert_eq!(eps(&st), vec![6 - lost, 6 - lost], "{d}");
    }
    // At 0 EP a stand is lost (poor: 4 EP - 4).
    let mut st = state(&li_text("poor").replace("facing = 0\n", "facing = 0\nep = 4\n"));
    let ev = run(&mut st, RED, forced(0, vec![adv(30.0, 15.0)]), &[10]);
    assert!(ev.iter().any(|e| matches!(e, Event::Removed { .. })));
    assert!(!st.units[0].on_table);
    // The floor switch keeps 1 EP.
    let mut data = Movement::new().data;
    data.forced_march.attrition.floor = movement::data::AttritionFloor::FloorOne;
    let r = Movement::with_data(data);
    let poor4 = li_text("poor").replace("facing = 0\n", "facing = 0\nep = 4\n");
    let sc = r.load_scenario(&tabletop::Source::new("t", poor4)).unwrap();
    let (mut st, _) = r.setup(&sc, &mut tabletop::ScriptedDice::new([]));
    let c = forced(0, vec![adv(30.0, 15.0)]);
    let ev = r.execute(&st, RED, &c, &mut tabletop::ScriptedDice::new([10, 1])).unwrap();
    for e in &ev {
        r.apply(&mut st, e);
    }
    assert_eq!(eps(&st), vec![1, 1]);
}

/// MOV-FM-06
#[test]
fn mov_fm_06_exhaustion_d10_by_morale_state() {
    // Firm: exhausted on 9-10.
    let mut st = state(&li_text("good"));
    let ev = run(&mut st, RED, forced(0, vec![adv(30.0, 15.0)]), &[10, 9]);
    assert!(ev.iter().any(|e| matches!(e, Event::ExhaustionRoll { exhausted: true, from: 9, .. })));
    let mut st = state(&li_text("good"));
    let ev = run(&mut st, RED, forced(0, vec![adv(30.0, 15.0)]), &[10, 8]);
    assert!(ev.iter().any(|e| matches!(e, Event::ExhaustionRoll { exhausted: false, .. })));
    // Checked: 7-10.
    let mut st = state(&li_text("good"));
    run(&mut st, Actor::Umpire, Command::SetMorale { unit: 0, state: MoraleState::Checked }, &[]);
    let ev = run(&mut st, RED, forced(0, vec![adv(30.0, 15.0)]), &[10, 7]);
    assert!(ev.iter().any(|e| matches!(e, Event::ExhaustionRoll { exhausted: true, from: 7, .. })));
    // The alternative row split: checked rolls as Firm, shaken may march at 7-10.
    let mut data = Movement::new().data;
    data.forced_march.exhaustion_rows = ExhaustionRows::ShakenBroken;
    assert_eq!(data.forced_march.exhaustion_from(MoraleState::Checked), Some(9));
    assert_eq!(data.forced_march.exhaustion_from(MoraleState::Shaken), Some(7));
    assert_eq!(Movement::new().data.forced_march.exhaustion_from(MoraleState::Shaken), None);
}

/// MOV-FM-07
#[test]
fn mov_fm_07_an_exhausted_unit_may_not_move_next_turn_then_recovers() {
    let mut g = game(&li_text("good"));
    // Seeded dice: find the outcome by reading the events.
    let mut st = g.state().clone();
    run(&mut st, RED, forced(0, vec![adv(30.0, 15.0)]), &[10, 10]);
    assert_eq!(st.units[0].exhausted_turn, Some(2));
    run(&mut st, RED, Command::EndPhase, &[]);
    run(&mut st, BLUE, Command::EndPhase, &[]);
    assert_eq!(check_rule(&st, RED, &mv(0, vec![adv(30.0, 16.0)])).as_deref(), Some("MOV-FM-07"));
    run(&mut st, RED, Command::EndPhase, &[]);
    assert_eq!(st.units[0].exhausted_turn, None);
    run(&mut st, BLUE, Command::EndPhase, &[]);
    assert_eq!(check_rule(&st, RED, &mv(0, vec![adv(30.0, 16.0)])), None);
    let _ = &mut g;
}

/// MOV-FM-08
#[test]
fn mov_fm_08_costs_come_out_of_the_doubled_allowance() {
    let road = "\n[[line]]\nname = \"Road\"\nkind = \"paved_road\"\nwidth = 2.0\npoints = [[30.0, 0.0], [30.0, 60.0]]\n";
    let st = state(&scenario_text(&(road.to_string() + &li("A", 30.0, 5.5) + &blue_far())));
    // 48" of road for 24".
    assert_eq!(check_rule(&st, RED, &forced(0, vec![adv(30.0, 53.5)])), None);
    // A facing change (1") is paid out of it too.
    assert_eq!(
        check_rule(&st, RED, &forced(0, vec![adv(30.0, 53.5), face(movement::Turn::Right)]))
            .as_deref(),
        Some("MOV-FACE-04")
    );
    assert_eq!(
        check_rule(&st, RED, &forced(0, vec![adv(30.0, 51.5), face(movement::Turn::Right)])),
        None
    );
}

/// MOV-FM-09
#[test]
fn mov_fm_09_shaken_broken_and_circles_may_not_forced_march() {
    for m in [MoraleState::Shaken, MoraleState::Broken] {
        let mut st = state(&li_text("good"));
        run(&mut st, Actor::Umpire, Command::SetMorale { unit: 0, state: m }, &[]);
        assert_eq!(
            check_rule(&st, RED, &forced(0, vec![adv(30.0, 15.0)])).as_deref(),
            Some("MOV-FM-09")
        );
    }
    let circle = scenario_text(
        &(unit("C", "red", "light_infantry", "light", "good", "circle", 1, 8, 30.0, 20.0, 0.0)
            + &blue_far()),
    );
    assert_eq!(
        check_rule(&state(&circle), RED, &forced(0, vec![adv(30.0, 21.0)])).as_deref(),
        Some("MOV-FM-09")
    );
}
