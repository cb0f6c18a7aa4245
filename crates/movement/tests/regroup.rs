//! MOV-REG: regrouping and flight, moved by the engine at the start of the owning side's phase.
mod common;
use common::*;
use movement::state::{Command, MoveKind};
use movement::{Event, Formation, MoraleState};
use tabletop::rules::Actor;

fn general(x: f64, y: f64) -> String {
    format!(
        "\n[[unit]]\nname = \"General\"\nside = \"red\"\ntype = \"medium_cavalry\"\narmor = \"medium\"\ndiscipline = \"excellent\"\nformation = \"line\"\nleader = true\nposition = [{x}, {y}]\nfacing = 0.0\n"
    )
}

fn with_leader(text: String) -> String {
    text.replacen("edge = \"south\"", "edge = \"south\"\narmy_leader = \"General\"", 1)
}

fn regroups(ev: &[Event], unit: usize) -> Option<(f64, f64, Vec<String>)> {
    ev.iter().find_map(|e| match e {
        Event::Moved { unit: u, kind: MoveKind::Regroup, cost, allowance, rules, .. }
            if *u == unit =>
        {
            Some((*cost, *allowance, rules.iter().map(|r| r.to_string()).collect()))
        }
        _ => None,
    })
}

/// MOV-REG-01
#[test]
fn mov_reg_01_a_separated_unit_regroups_even_outside_command_range() {
    let text =
        with_leader(scenario_text(&(general(10.0, 10.0) + &li("U", 50.0, 10.0) + &blue_far())));
    let g = game(&text);
    let u = &g.state().units[1];
    assert!(u.separated);
    let (cost, allowance, rules) = regroups(g.events(), 1).expect("a regroup move at set-up");
    close(allowance, 12.0);
    assert!(cost <= 12.0 + 0.01 && cost > 11.0, "{cost}");
    assert!(rules.contains(&"MOV-REG-06".to_string()));
    // It went west, toward the general: a left turn (1") and 11" of march.
    assert!(u.pose.at.x < 40.0, "{:?}", u.pose.at);
}

/// MOV-REG-02
#[test]
fn mov_reg_02_a_driven_off_unit_flees_every_friendly_phase_until_rallied() {
    let text =
        with_leader(scenario_text(&(general(30.0, 40.0) + &li("U", 32.0, 40.0) + &blue_far())))
            .replace("turns = 4", "turns = 10");
    let mut g = game(&text);
    ok(&mut g, Actor::Umpire, Command::DriveOff { unit: 1 });
    end(&mut g);
    let ev = end(&mut g);
    assert!(ev.iter().any(|e| matches!(e, Event::Moved { unit: 1, kind: MoveKind::Flight, .. })));
    let y1 = g.state().units[1].pose.at.y;
    assert!(y1 < 30.0, "{y1}");
    // The player may not move it.
    assert_eq!(refused(&mut g, RED, mv(1, vec![adv(32.0, y1 - 1.0)])), "MOV-REG-02");
    end(&mut g);
    end(&mut g);
    let y2 = g.state().units[1].pose.at.y;
    assert!(y2 < y1 - 10.0);
    // Off its own edge it is lost.
    let mut removed = false;
    for _ in 0..3 {
        end(&mut g);
        let ev = end(&mut g);
        removed |= ev.iter().any(|e| matches!(e, Event::Removed { unit: 1, .. }));
    }
    assert!(removed);
    assert!(!g.state().units[1].on_table);
}

/// MOV-REG-03
#[test]
fn mov_reg_03_firm_or_checked_separated_units_head_back_unless_held_or_in_melee() {
    // Checked: it regroups.
    let base =
        with_leader(scenario_text(&(general(10.0, 10.0) + &li("U", 50.0, 10.0) + &blue_far())));
    let checked = base.replace("facing = 0\n", "facing = 0\nmorale = \"checked\"\n");
    let g = game(&checked);
    assert_eq!(g.state().units[1].morale, MoraleState::Checked);
    assert!(regroups(g.events(), 1).is_some());
    // Held: it stays.
    let mut g = game(&base);
    ok(&mut g, Actor::Umpire, Command::Hold { unit: 1, held: true });
    let before = g.state().units[1].pose;
    end(&mut g);
    end(&mut g);
    assert_eq!(g.state().units[1].pose, before);
    // In melee contact: it stays.
    let melee = with_leader(scenario_text(
        &(general(10.0, 10.0) + &li("U", 50.0, 10.0) + &blue_li("B", 50.0, 10.0, 180.0)),
    ));
    let g = game(&melee);
    assert!(g.state().units[1].separated);
    assert!(regroups(g.events(), 1).is_none());
}

/// MOV-REG-04
#[test]
fn mov_reg_04_driven_off_shaken_units_regroup_only_after_rallying_and_turn_about() {
    let text =
        with_leader(scenario_text(&(general(30.0, 55.0) + &li("U", 32.0, 45.0) + &blue_far())));
    let mut g = game(&text);
    ok(&mut g, Actor::Umpire, Command::SetMorale { unit: 1, state: MoraleState::Shaken });
    // It has been driven north, away from its army, facing away.
    ok(&mut g, Actor::Umpire, Command::DriveOff { unit: 1 });
    end(&mut g);
    end(&mut g); // flees south toward its edge (its own edge is south)
    assert!(
        g.events()
            .iter()
            .any(|e| matches!(e, Event::Moved { unit: 1, kind: MoveKind::Flight, .. }))
    );
    // A morale check is rolled by the engine; a rally by the umpire ends the flight.
    ok(&mut g, Actor::Umpire, Command::Rally { unit: 1 });
    assert!(!g.state().units[1].driven_off);
    assert!(g.state().units[1].separated);
    end(&mut g);
    let ev = end(&mut g);
    // Now it turns toward its army, paying the facing cost, or is already back with it.
    let turned = ev.iter().any(|e| {
        matches!(e, Event::Moved { unit: 1, kind: MoveKind::Regroup, items, .. }
        if items.iter().any(|i| i.rule.as_str() == "MOV-FACE-02"))
    });
    let back = ev.iter().any(|e| matches!(e, Event::Separation { unit: 1, separated: false, .. }));
    assert!(turned || back, "{ev:#?}");
    // A passed morale check also rallies a driven-off unit: d10 10 + shaken -2 + good +1 = 9.
    let mut st = state(&text);
    run(&mut st, Actor::Umpire, Command::DriveOff { unit: 1 }, &[]);
    let ev = run(&mut st, Actor::Umpire, Command::MoraleCheck { unit: 1 }, &[10]);
    assert!(ev.iter().any(|e| matches!(e, Event::Rallied { unit: 1, .. })));
}

/// MOV-REG-05
#[test]
fn mov_reg_05_leaders_and_characters_are_never_moved_by_regrouping() {
    let text = with_leader(scenario_text(
        &(general(50.0, 50.0) + &li("U", 10.0, 10.0) + &li("V", 13.0, 10.0) + &blue_far()),
    ));
    let mut g = game(&text);
    assert!(!g.state().units[0].separated);
    assert!(regroups(g.events(), 0).is_none());
    ok(&mut g, RED, mv(0, vec![adv(50.0, 45.0)]));
}

/// MOV-REG-06
#[test]
fn mov_reg_06_the_target_is_the_nearer_of_brigade_and_army_leader() {
    let brigade = "\n[[unit]]\nname = \"Captain\"\nside = \"red\"\ntype = \"light_cavalry\"\narmor = \"light\"\ndiscipline = \"good\"\nformation = \"line\"\nleader = true\nposition = [50.0, 45.0]\nfacing = 0.0\n";
    let u =
        li("U", 50.0, 20.0).replace("facing = 0\n", "facing = 0\nbrigade_leader = \"Captain\"\n");
    let text = with_leader(scenario_text(&(general(10.0, 10.0) + brigade + &u + &blue_far())));
    let g = game(&text);
    let t = rules().regroup_target(g.state(), 2);
    assert!(
        matches!(t, Some(movement::regroup::Target::Leader { unit: 1, range }) if (range - 12.0).abs() < 1e-9),
        "{t:?}"
    );
    // It marched north toward the captain.
    assert!(g.state().units[2].pose.at.y > 25.0);
}

/// MOV-REG-07
#[test]
fn mov_reg_07_inside_command_range_it_takes_orders_again() {
    // 26" from the general (range 18"): one regroup move brings it inside.
    let text =
        with_leader(scenario_text(&(general(10.0, 10.0) + &li("U", 37.0, 10.0) + &blue_far())));
    let mut g = game(&text);
    assert!(g.events().iter().any(|e| matches!(e, Event::Separation { unit: 1, separated: false, rule, .. } if rule.as_str() == "MOV-REG-07")));
    assert!(!g.state().units[1].separated);
    end(&mut g);
    end(&mut g);
    // Next turn the player moves it.
    let at = g.state().units[1].pose.at;
    ok(&mut g, RED, mv(1, vec![adv(at.x, at.y + 5.0)]));
}

/// MOV-REG-08
#[test]
fn mov_reg_08_without_leaders_it_heads_for_the_largest_group() {
    // East: one unit of 8 stands; west (nearer): two units of 2 stands.
    let text = scenario_text(
        &(li("U", 30.0, 30.0)
            + &unit(
                "Big",
                "red",
                "medium_infantry",
                "medium",
                "good",
                "line",
                4,
                8,
                52.0,
                30.0,
                0.0,
            )
            + &unit(
                "W1",
                "red",
                "medium_infantry",
                "medium",
                "good",
                "line",
                2,
                2,
                14.0,
                30.0,
                0.0,
            )
            + &unit(
                "W2",
                "red",
                "medium_infantry",
                "medium",
                "good",
                "line",
                2,
                2,
                10.0,
                30.0,
                0.0,
            )
            + &blue_far()),
    );
    let g = game(&text);
    let t = rules().regroup_target(g.state(), 0);
    assert!(
        matches!(&t, Some(movement::regroup::Target::Group { units }) if units == &vec![1]),
        "{t:?}"
    );
    assert!(g.state().units[0].pose.at.x > 31.0);
}

/// MOV-REG-09
#[test]
fn mov_reg_09_straight_at_the_target_with_the_whole_normal_allowance() {
    let text =
        with_leader(scenario_text(&(general(10.0, 10.0) + &li("U", 55.0, 10.0) + &blue_far())));
    let g = game(&text);
    let (cost, allowance, _) = regroups(g.events(), 1).unwrap();
    close(allowance, 12.0);
    assert!((cost - 12.0).abs() < 0.02, "{cost}");
    let r = rules();
    let start = r.initial_state(&load(&text));
    let turned = r.turned_pose(&start, 1, movement::Turn::Left).unwrap();
    let end = g.state().units[1].pose;
    // A left turn (1"), then one straight leg due west for the other 11".
    assert!((end.facing.vector() - tabletop::Facing::WEST.vector()).length() < 1e-9);
    close(end.at.y, turned.at.y);
    assert!((turned.at.x - end.at.x - 11.0).abs() < 0.02, "{:?} {:?}", turned.at, end.at);
}

/// MOV-REG-10
#[test]
fn mov_reg_10_on_arrival_it_may_form_up_within_what_is_left() {
    // 9" east of a friendly line, no leader: it regroups to within 2" with allowance to spare.
    let text = scenario_text(
        &(unit("U", "red", "light_infantry", "light", "good", "line", 2, 2, 40.0, 30.0, 270.0)
            + &unit(
                "Big",
                "red",
                "medium_infantry",
                "medium",
                "good",
                "line",
                4,
                8,
                27.0,
                30.0,
                0.0,
            )
            + &blue_far()),
    );
    let mut g = game(&text);
    let left = g.state().units[0].regroup_left.expect("allowance left after arriving");
    assert!(left > 1.0, "{left}");
    // No more marching, but forming up is allowed.
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(40.0, 40.0)])), "MOV-REG-10");
    ok(
        &mut g,
        RED,
        mv(
            0,
            vec![movement::state::Step::Form {
                formation: Formation::Column,
                files: Some(1),
                gap: None,
            }],
        ),
    );
    assert_eq!(g.state().units[0].pose.formation, Formation::Column);
}

/// MOV-REG-11
#[test]
fn mov_reg_11_regrouping_needs_no_battle_command() {
    let text =
        with_leader(scenario_text(&(general(10.0, 10.0) + &li("U", 50.0, 10.0) + &blue_far())));
    let g = game(&text);
    // No command was given at all: the engine moved it at the start of the phase.
    assert_eq!(g.command_count(), 0);
    let (_, _, rules) = regroups(g.events(), 1).unwrap();
    assert!(rules.contains(&"MOV-REG-11".to_string()));
}

#[test]
fn regrouping_goes_round_closed_ground_and_the_log_names_the_unit() {
    // Dense trees stand between the unit and its general: it works its way round them.
    let trees = "\n[[area]]\nname = \"Thicket\"\nkind = \"dense_trees\"\npoints = [[40.0, 4.0], [45.0, 4.0], [45.0, 16.0], [40.0, 16.0]]\n";
    let text = with_leader(scenario_text(
        &(trees.to_string() + &general(10.0, 10.0) + &li("U", 50.0, 10.0) + &blue_far()),
    ))
    .replace("turns = 4", "turns = 10");
    let mut g = game(&text);
    for _ in 0..3 {
        end(&mut g);
        end(&mut g);
    }
    assert!(g.state().units[1].pose.at.x < 40.0, "{:?}", g.state().units[1].pose);
    let log: Vec<String> = g.log().into_iter().map(|l| l.text).collect();
    assert!(log.iter().any(|l| l.contains("U regroups")), "{log:#?}");
}
