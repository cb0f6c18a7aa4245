//! Melee contact in play (`melee = "morale_checks"`, the project's rules MOV-GAME-MELEE and
//! MOV-GAME-RALLY, NIS): at the end of every phase each unit in contact takes a T6 morale check
//! with the depth bonus (MOV-DEPTH-01..05, MOV-FORM-09); a unit that fails drops a state and,
//! shaken or Broken, is driven off (MOV-REG-02); a driven-off unit flees through its friends
//! (MOV-THRU-02), tests to rally at the start of its phases and then regroups (MOV-REG-01, -04).
mod common;
use common::*;
use movement::state::{Command, Event, MoveKind};
use movement::{MoraleState, State};

/// A scenario on the empty test table in which melee is resolved by morale checks.
fn melee_text(extra: &str) -> String {
    scenario_text(extra).replace("first = \"red\"", "first = \"red\"\nmelee = \"morale_checks\"")
}

/// Red's deep line (8 stands, 2 ranks) 4" south of a blue line of one rank, with a red support
/// line behind.
fn lines() -> String {
    melee_text(
        &(unit(
            "Red Foot",
            "red",
            "heavy_infantry",
            "heavy",
            "good",
            "line",
            4,
            8,
            30.0,
            20.0,
            0.0,
        ) + &unit(
            "Red Second",
            "red",
            "heavy_infantry",
            "heavy",
            "good",
            "line",
            4,
            4,
            30.0,
            17.0,
            0.0,
        ) + &unit(
            "Blue Foot",
            "blue",
            "medium_infantry",
            "light",
            "wild",
            "line",
            4,
            4,
            30.0,
            24.0,
            180.0,
        )),
    )
}

/// The melee checks among `ev`: (unit, passed, depth rule, bonus, the rules cited).
fn checks(ev: &[Event]) -> Vec<(usize, bool, String, i32, Vec<String>)> {
    use tabletop::rules::Narrate;
    ev.iter()
        .filter_map(|e| match e {
            Event::MoraleChecked { unit, passed, depth, .. } => Some((
                *unit,
                *passed,
                depth.as_ref().map_or(String::new(), |d| d.rule.to_string()),
                depth.as_ref().map_or(0, |d| d.bonus),
                e.rules().iter().map(|r| r.to_string()).collect(),
            )),
            _ => None,
        })
        .collect()
}

/// Charges Red Foot (unit 0) into Blue Foot and ends red's phase with the given dice.
fn charge_and_end(st: &mut State, dice: &[u8]) -> Vec<Event> {
    run(st, RED, charge(0, vec![adv(30.0, 30.0)]), &[]);
    run(st, RED, Command::EndPhase, dice)
}

/// MOV-DEPTH-01, MOV-DEPTH-05: at the end of the phase both units in contact check; the deeper
/// adds a flat +1, the shallower gets nothing.
#[test]
fn mov_depth_01_the_deeper_unit_adds_one_in_melee_at_the_end_of_the_phase() {
    let mut st = state(&lines());
    let ev = charge_and_end(&mut st, &[5, 9]);
    let c = checks(&ev);
    assert_eq!(c.len(), 2, "{ev:?}");
    let (red, blue) = (&c[0], &c[2 - 1]);
    assert_eq!((red.0, red.2.as_str(), red.3), (0, "MOV-DEPTH-01", 1));
    assert!(
        red.4.contains(&"MOV-DEPTH-05".to_string())
            && red.4.contains(&"MOV-GAME-MELEE".to_string())
    );
    // 5 + good 1 + deeper 1 = 7: passed.
    assert!(red.1);
    assert_eq!((blue.0, blue.2.as_str(), blue.3), (2, "MOV-DEPTH-01", 0));
    assert!(!blue.4.contains(&"MOV-DEPTH-05".to_string()));
    // Blue (wild, +0) rolled 9: passed; nobody's state changed.
    assert!(st.units.iter().all(|u| u.morale == MoraleState::Firm));
}

/// MOV-DEPTH-02: equal depth, no bonus.
#[test]
fn mov_depth_02_equal_depth_in_melee_gives_no_bonus() {
    let text = lines().replace("files = 4\nstands = 8", "files = 4\nstands = 4");
    let mut st = state(&text);
    let ev = charge_and_end(&mut st, &[6, 6]);
    let c = checks(&ev);
    assert!(c.iter().all(|x| x.2 == "MOV-DEPTH-02" && x.3 == 0), "{c:?}");
}

/// MOV-DEPTH-03: a unit touched on its flank loses the bonus.
#[test]
fn mov_depth_03_an_enemy_on_the_flank_cancels_the_bonus() {
    // Blue's deep column (2 files, 4 ranks) faces south; red's line comes in from the east.
    let text = melee_text(
        &(unit(
            "Red Horse",
            "red",
            "medium_cavalry",
            "medium",
            "good",
            "line",
            2,
            2,
            40.0,
            22.0,
            270.0,
        ) + &unit(
            "Blue Column",
            "blue",
            "heavy_infantry",
            "heavy",
            "good",
            "column",
            2,
            8,
            30.0,
            20.0,
            180.0,
        )),
    );
    let mut st = state(&text);
    run(&mut st, RED, charge(0, vec![adv(20.0, 22.0)]), &[]);
    let ev = run(&mut st, RED, Command::EndPhase, &[6, 6]);
    let c = checks(&ev);
    let blue = c.iter().find(|x| x.0 == 1).expect("blue checks");
    assert_eq!(blue.2, "MOV-DEPTH-03", "{c:?}");
}

/// MOV-DEPTH-04, MOV-FORM-09: a mass never gets the bonus, but its depth still counts.
#[test]
fn mov_depth_04_a_mass_gets_no_bonus_but_denies_its_foe_one() {
    let text = melee_text(
        &(unit(
            "Red Foot",
            "red",
            "heavy_infantry",
            "heavy",
            "good",
            "line",
            4,
            8,
            30.0,
            20.0,
            0.0,
        ) + "\n[[unit]]\nname = \"Blue Mass\"\nside = \"blue\"\ntype = \"medium_infantry\"\narmor = \"unarmored\"\ndiscipline = \"poor\"\nformation = \"mass\"\nlevy = true\nfiles = 3\nstands = 9\nposition = [30.0, 24.0]\nfacing = 180.0\n"),
    );
    let mut st = state(&text);
    let ev = charge_and_end(&mut st, &[6, 6]);
    let c = checks(&ev);
    let red = c.iter().find(|x| x.0 == 0).unwrap();
    let blue = c.iter().find(|x| x.0 == 1).unwrap();
    // Red: 2 ranks against the mass's 3, the shallower; the mass: no bonus at all.
    assert_eq!((red.2.as_str(), red.3), ("MOV-DEPTH-01", 0), "{c:?}");
    assert_eq!((blue.2.as_str(), blue.3), ("MOV-DEPTH-04", 0), "{c:?}");
    assert!(blue.4.contains(&"MOV-FORM-09".to_string()));
}

/// MOV-REG-02, MOV-THRU-02: failing twice drives a unit off; at the start of its next phase it
/// flees toward its own edge, through its friends, and the event cites both rules.
#[test]
fn mov_reg_02_a_unit_driven_off_in_melee_flees_through_its_friends() {
    let mut st = state(&lines());
    // Red fails at the end of its phase (1), Blue passes (9); Red fails again at the end of
    // blue's phase (1): checked to shaken, driven off.
    charge_and_end(&mut st, &[1, 9]);
    assert_eq!(st.units[0].morale, MoraleState::Checked);
    let ev = run(&mut st, BLUE, Command::EndPhase, &[1, 9]);
    let result = ev.iter().find_map(|e| match e {
        Event::MeleeResult { unit: 0, to, driven_off, .. } => Some((*to, *driven_off)),
        _ => None,
    });
    assert_eq!(result, Some((MoraleState::Shaken, true)), "{ev:?}");
    // Red's phase of turn 2 has begun: still in contact, it flees at once, without a test.
    let flight = ev
        .iter()
        .find_map(|e| match e {
            Event::Moved { unit: 0, kind: MoveKind::Flight, rules, to, .. } => {
                Some((rules.clone(), *to))
            }
            _ => None,
        })
        .expect("Red Foot flees");
    let cited: Vec<String> = flight.0.iter().map(|r| r.to_string()).collect();
    assert!(cited.contains(&"MOV-REG-02".to_string()), "{cited:?}");
    assert!(st.units[0].driven_off);
    assert!(flight.1.at.y < 20.0);
    // Next turn it flees on, through Red Second behind it.
    run(&mut st, RED, Command::EndPhase, &[]);
    let ev = run(&mut st, BLUE, Command::EndPhase, &[2]);
    let through = ev.iter().any(|e| {
        matches!(e, Event::Moved { unit: 0, kind: MoveKind::Flight, rules, .. }
        if rules.iter().any(|r| r.as_str() == "MOV-THRU-02"))
    });
    assert!(through, "{ev:?}");
    let (a, f) = (&st.units[0], &st.units[1]);
    assert!(a.stands.iter().all(|s| f.stands.iter().all(|t| !s.rect.overlaps(&t.rect))));
}

/// MOV-REG-04, MOV-REG-01: a driven-off unit out of contact tests to rally at the start of its
/// phase; on a pass it turns about (paying the facing cost) and regroups toward its army.
#[test]
fn mov_reg_04_a_driven_off_unit_rallies_then_turns_and_regroups() {
    let mut st = state(&lines());
    charge_and_end(&mut st, &[1, 9]);
    run(&mut st, BLUE, Command::EndPhase, &[1, 9]); // driven off; flees at once
    run(&mut st, RED, Command::EndPhase, &[]);
    // Turn 3, red's phase: the rally test (10: shaken -2, good +1 = 9) passes.
    let ev = run(&mut st, BLUE, Command::EndPhase, &[10]);
    assert!(ev.iter().any(|e| matches!(e, Event::Rallied { unit: 0, .. })), "{ev:?}");
    let checked = checks(&ev);
    assert!(checked.iter().any(|c| c.0 == 0 && c.1 && c.4.contains(&"MOV-GAME-RALLY".to_string())));
    assert!(!st.units[0].driven_off);
    let regroup = ev.iter().find_map(|e| match e {
        Event::Moved { unit: 0, kind: MoveKind::Regroup, rules, .. } => Some(rules.clone()),
        _ => None,
    });
    if let Some(rules) = regroup {
        let cited: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
        assert!(
            cited.contains(&"MOV-REG-04".to_string()) && cited.contains(&"MOV-REG-01".to_string()),
            "{cited:?}"
        );
    } else {
        // Back within reach of its friends already: no longer separated.
        assert!(!st.units[0].separated, "{ev:?}");
    }
}

/// MOV-GEN-06: a unit in melee moves only under a battle command, and such a move (turning to
/// face, pulling out) is not a charge.
#[test]
fn mov_gen_06_a_move_from_melee_needs_a_battle_command_and_is_no_charge() {
    let mut st = state(&lines());
    run(&mut st, RED, charge(0, vec![adv(30.0, 30.0)]), &[]);
    run(&mut st, RED, Command::EndPhase, &[9, 9]);
    run(&mut st, BLUE, Command::EndPhase, &[9, 9]);
    // Turn 2: Red Foot pulls back 2" under a battle command.
    assert_eq!(check_rule(&st, RED, &mv(0, vec![adv(30.0, 22.0)])).as_deref(), Some("MOV-GEN-06"));
    let ev = run(&mut st, RED, charge(0, vec![adv(30.0, 22.0)]), &[]);
    match &ev[0] {
        Event::Moved { kind, rules, allowance, .. } => {
            assert_eq!(*kind, MoveKind::Voluntary);
            assert!(rules.iter().any(|r| r.as_str() == "MOV-GEN-06"), "{rules:?}");
            close(*allowance, 6.0);
        }
        e => panic!("{e:?}"),
    }
}
