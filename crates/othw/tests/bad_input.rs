//! Bad input: malformed files, unknown fields and names, impossible placements, illegal
//! commands. Every problem is located (file:line:col) or cites its rule, all at once, and a
//! refused command leaves the game exactly as it was.
mod common;
use common::*;
use othw::Othw;
use othw::data::{Data, EMBEDDED};
use othw::state::Command;
use tabletop::diagnostics::Source;
use tabletop::rules::{Actor, RuleSet, Side};

fn errors(text: &str) -> Vec<String> {
    Othw::new()
        .load_scenario(&Source::new("bad.toml", text))
        .err()
        .map(|d| d.iter().map(|x| x.to_string()).collect())
        .unwrap_or_default()
}

fn located(e: &str) {
    let loc: Vec<&str> = e.splitn(4, ':').collect();
    assert_eq!(loc[0], "bad.toml", "{e}");
    assert!(
        loc[1].parse::<usize>().unwrap_or(0) > 0 && loc[2].parse::<usize>().unwrap_or(0) > 0,
        "{e}"
    );
}

#[test]
fn a_toml_syntax_error_is_located() {
    let e = errors("ruleset = \"othw\"\n[scenario]\nname = \"x\n");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("bad.toml:3:"), "{e:?}");
}

#[test]
fn a_name_with_a_right_to_left_override_is_refused_where_it_stands() {
    // "Cavalry 1" written with U+202E would read backwards in the log and on the table.
    let text = scenario_text(
        &(unit("red", "Infantry", "A\u{202E}1 yrlavaC", 1, 0, "north")
            + &unit("blue", "Infantry", "B", 1, 7, "south")),
    );
    let e = errors(&text);
    assert_eq!(e.len(), 1, "{e:?}");
    located(&e[0]);
    assert!(e[0].contains("U+202E"), "{e:?}");
    let line = text[..text.find('\u{202E}').unwrap()].lines().count();
    assert!(e[0].starts_with(&format!("bad.toml:{line}:")), "{e:?} at line {line}");
}

#[test]
fn the_ruleset_key_is_required_and_must_be_othw() {
    let text = scenario_text(
        &(unit("red", "Infantry", "A", 1, 0, "north")
            + &unit("blue", "Infantry", "B", 1, 7, "south")),
    );
    assert!(errors(&text).is_empty());
    let e = errors(&text.replace("ruleset = \"othw\"\n", ""));
    assert!(e.iter().any(|x| x.contains("ruleset")), "{e:?}");
    let e = errors(&text.replace("ruleset = \"othw\"", "ruleset = \"movement\""));
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("movement") && e[0].contains("othw"), "{e:?}");
    located(&e[0]);
}

#[test]
fn every_unknown_field_and_name_and_placement_problem_is_reported_at_once() {
    let units = unit("red", "Infantry", "A", 1, 0, "north")
        .replace("facing", "colour = \"red\"\nfacing")
        + &unit("red", "War Elephants", "B", 2, 0, "north")
        + &unit("red", "Infantry", "C", 20, 0, "north")
        + &unit("red", "Infantry", "D", 3, 4, "north")
        + &unit("red", "Infantry", "E", 4, 1, "north")
        + &unit("red", "Infantry", "F", 4, 1, "north")
        + &unit("blue", "Infantry", "G", 4, 7, "sideways")
        + &unit("blue", "Infantry", "H", 5, 7, "south")
        + &terrain("river", &[(0, 0)])
        + &terrain("swamp", &[(6, 4)]);
    let text = scenario_text(&units).replace(
        "roster = \"generic\"\n\n[[side]]",
        "roster = \"generic\"\ngeneral = \"Caesar\"\n\n[[side]]",
    );
    let e = errors(&text);
    let want = [
        "colour",        // unknown field in unit[0]
        "War Elephants", // unknown type
        "off the 12 × 8 board",
        "deployment zone", // D at row 4
        "already stands",  // F on E's square
        "sideways",        // unknown facing
        "deployment zone (OTHW-M-06)",
        "swamp",  // unknown terrain kind
        "Caesar", // unknown general
    ];
    for w in want {
        assert!(e.iter().any(|x| x.contains(w)), "missing {w:?} in {e:#?}");
    }
    for x in &e {
        located(x);
    }
}

#[test]
fn a_general_must_be_with_exactly_one_unit_and_sides_must_both_exist() {
    let text = scenario_text(
        &(unit("red", "Infantry", "A", 1, 0, "north")
            + "general = true\n"
            + &unit("blue", "Infantry", "B", 1, 7, "south")),
    );
    let e = errors(&text);
    assert!(e.iter().any(|x| x.contains("has no general")), "{e:?}");
    let text = scenario_with_generals(
        "Hannibal",
        "Alexander",
        &(unit("red", "Infantry", "A", 1, 0, "north")
            + &unit("blue", "Infantry", "B", 1, 7, "south")),
    );
    let e = errors(&text);
    assert!(e.iter().any(|x| x.contains("general is with no unit")), "{e:?}");
    let text = "ruleset = \"othw\"\n[scenario]\nname = \"x\"\n[[side]]\nside = \"red\"\nname = \"R\"\nroster = \"roman\"\n";
    let e = errors(text);
    assert!(e.iter().any(|x| x.contains("no [[side]] for blue")), "{e:?}");
}

#[test]
fn unknown_rosters_and_custom_types_out_of_range_are_reported() {
    let text = scenario_text(
        &(utype("Giants", "infantry", 1, 3, 9, 4, 4, &["stomp"])
            + &unit("red", "Infantry", "A", 1, 0, "north")
            + &unit("blue", "Infantry", "B", 1, 7, "south")),
    )
    .replacen("roster = \"generic\"", "roster = \"persian\"", 1);
    let e = errors(&text);
    assert!(e.iter().any(|x| x.contains("persian")), "{e:?}");
    assert!(e.iter().any(|x| x.contains("stomp")), "{e:?}");
    for x in &e {
        located(x);
    }
}

#[test]
fn the_embedded_data_loads_and_bad_data_is_located() {
    let d = Data::embedded().expect("the embedded tables load");
    assert_eq!(d.rosters.len(), 3);
    assert_eq!(d.roster("generic").map(|r| r.types.len()), Some(13));
    assert_eq!(d.roster("roman").map(|r| r.types.len()), Some(10));
    assert_eq!(d.roster("carthaginian").map(|r| r.types.len()), Some(11));
    let mut sources: Vec<Source> = EMBEDDED.iter().map(|(n, t)| Source::new(*n, *t)).collect();
    sources[1].text =
        sources[1].text.replace("m = 1\na = 3\nd = 6", "m = 1\na = 3\nd = 9\nspeed = 2");
    sources[6].text = sources[6].text.replace("phase_end_on = 1", "phase_end_on = 0");
    let e: Vec<String> =
        Data::from_sources(&sources).unwrap_err().iter().map(|x| x.to_string()).collect();
    assert!(
        e.iter().any(|x| x.starts_with("crates/othw/data/roman.toml:") && x.contains("speed")),
        "{e:#?}"
    );
    assert!(
        e.iter()
            .any(|x| x.starts_with("crates/othw/data/rules.toml:") && x.contains("phase_end_on")),
        "{e:#?}"
    );
}

#[test]
fn illegal_commands_are_refused_with_their_rule_and_change_nothing() {
    let mut g = game("open_field.toml", 5);
    let before = g.state_hash();
    let n = g.events().len();
    let cases: Vec<(Actor, Command, &str)> = vec![
        (Actor::Side(Side::Blue), Command::EndPhase, "OTHW-SEQ-01"),
        (
            Actor::Side(Side::Red),
            Command::Move { unit: 99, to: at(0, 0), facing: N },
            "OTHW-SEQ-03",
        ),
        (
            Actor::Side(Side::Red),
            Command::Move { unit: 12, to: at(1, 5), facing: S },
            "OTHW-SEQ-03",
        ),
        (Actor::Side(Side::Red), Command::Move { unit: 2, to: at(3, 3), facing: N }, "OTHW-MOV-02"),
        // Squares far off the board, for a unit that turns for free (whose ends are kept as
        // bits) and for one that does not.
        (
            Actor::Side(Side::Red),
            Command::Move { unit: 0, to: at(i32::MAX, i32::MAX), facing: N },
            "OTHW-MOV-12",
        ),
        (
            Actor::Side(Side::Red),
            Command::Move { unit: 0, to: at(1, -3), facing: N },
            "OTHW-MOV-12",
        ),
        (
            Actor::Side(Side::Red),
            Command::Move { unit: 2, to: at(i32::MIN, i32::MAX), facing: N },
            "OTHW-MOV-12",
        ),
        (Actor::Side(Side::Red), Command::Move { unit: 2, to: at(4, 1), facing: N }, "OTHW-MOV-05"),
        (
            Actor::Side(Side::Red),
            Command::Attack { unit: 2, from: at(3, 1), facing: N, general_dice: false },
            "OTHW-CMB-03",
        ),
        (
            Actor::Side(Side::Red),
            Command::Attack { unit: 2, from: at(3, 1), facing: N, general_dice: true },
            "OTHW-GEN-04",
        ),
        (
            Actor::Side(Side::Red),
            Command::GroupMove { units: vec![2, 5], facing: N, steps: 1 },
            "OTHW-MOV-06",
        ),
        (Actor::Side(Side::Red), Command::Mahouts { unit: 2 }, "OTHW-CMB-21"),
    ];
    for (actor, c, rule) in cases {
        let r = g.submit(actor, c.clone()).expect_err("refused");
        assert_eq!(r.rule.as_str(), rule, "{c:?}: {r}");
        assert_eq!(g.state_hash(), before, "{c:?} changed the state");
        assert_eq!(g.events().len(), n);
    }
    let r = g
        .submit_json(Actor::Side(Side::Red), serde_json::json!({"kind": "fly", "unit": 1}))
        .expect_err("refused");
    assert_eq!(r.rule.as_str(), "CORE-CMD");
    assert_eq!(g.state_hash(), before);
}
