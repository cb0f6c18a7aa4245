//! Bad input: malformed scenario files, unknown fields, impossible placements, references to
//! nothing, illegal commands. Every problem is located (file:line:col) or cites its rule, and a
//! refused command leaves the state exactly as it was.
mod common;
use common::*;
use movement::Movement;
use tabletop::diagnostics::Source;
use tabletop::rules::{Actor, RuleSet};

fn errors(text: &str) -> Vec<String> {
    Movement::new()
        .load_scenario(&Source::new("bad.toml", text))
        .err()
        .map(|d| d.iter().map(|x| x.to_string()).collect())
        .unwrap_or_default()
}

#[test]
fn a_toml_syntax_error_is_located() {
    let e = errors("[scenario]\nname = \"x\nturns = 3\n");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("bad.toml:2:"), "{e:?}");
}

#[test]
fn unknown_fields_and_types_are_located() {
    let text = scenario_text(
        &(li("A", 30.0, 10.0).replace("facing = 0\n", "facing = 0\ncolour = \"red\"\n")
            + &unit(
                "B",
                "blue",
                "war_elephants",
                "heavy",
                "good",
                "line",
                1,
                1,
                40.0,
                40.0,
                180.0,
            )),
    );
    let e = errors(&text);
    assert_eq!(e.len(), 2, "{e:#?}");
    assert!(e[0].contains("unit[0]") && e[0].contains("colour"), "{}", e[0]);
    assert!(e[1].contains("unit[1].type") && e[1].contains("war_elephants"), "{}", e[1]);
    for x in &e {
        let loc: Vec<&str> = x.splitn(4, ':').collect();
        assert_eq!(loc[0], "bad.toml");
        assert!(
            loc[1].parse::<usize>().unwrap() > 0 && loc[2].parse::<usize>().unwrap() > 0,
            "{x}"
        );
    }
}

#[test]
fn every_placement_and_reference_problem_is_reported_at_once() {
    let river = "\n[[line]]\nname = \"Deep\"\nkind = \"river\"\nwidth = 3.0\npoints = [[0.0, 50.0], [60.0, 50.0]]\n";
    let trees = "\n[[area]]\nname = \"Black Wood\"\nkind = \"dense_trees\"\npoints = [[40.0, 5.0], [50.0, 5.0], [50.0, 15.0], [40.0, 15.0]]\n";
    let units = li("Off", 59.9, 10.0)
        + &li("One", 20.0, 20.0)
        + &li("Two", 20.5, 20.0)
        + &li("Wet", 10.0, 50.5)
        + &li("Lost", 45.0, 10.0)
        + &li("Orphan", 30.0, 30.0)
            .replace("facing = 0\n", "facing = 0\nbrigade_leader = \"Nobody\"\n")
        + &unit(
            "Levy",
            "red",
            "medium_infantry",
            "unarmored",
            "poor",
            "line",
            4,
            4,
            30.0,
            40.0,
            0.0,
        )
        .replace("formation = \"line\"", "formation = \"line\"\nlevy = true")
        + &unit(
            "Loose",
            "red",
            "medium_infantry",
            "light",
            "good",
            "open_order",
            2,
            2,
            10.0,
            30.0,
            0.0,
        )
        + &blue_far();
    let text = scenario_text(&(river.to_string() + trees + &units)).replacen(
        "edge = \"north\"",
        "edge = \"north\"\narmy_leader = \"Ghost\"",
        1,
    );
    let e = errors(&text);
    let all = e.join("\n");
    for needle in [
        "unit[0].position: 'Off' does not fit",
        "unit[2].position: 'Two' overlaps 'One'",
        "unit[3].position: 'Wet' is placed in impassable terrain",
        "unit[4].position: 'Lost' is placed in impassable terrain",
        "unit[5].brigade_leader: there is no unit named 'Nobody'",
        "unit[6].formation: [MOV-FORM-07]",
        "unit[7].formation: [MOV-FORM-05]",
        "side[1].army_leader: there is no unit named 'Ghost'",
    ] {
        assert!(all.contains(needle), "missing '{needle}' in:\n{all}");
    }
    assert!(e.iter().all(|x| x.starts_with("bad.toml:") && !x.starts_with("bad.toml:0:")), "{all}");
}

#[test]
fn a_scenario_needs_two_sides() {
    let text = scenario_text(&li("A", 30.0, 10.0))
        .replace("[[side]]\nside = \"blue\"\nname = \"Blue\"\nedge = \"north\"\n", "");
    let e = errors(&text).join("\n");
    assert!(e.contains("exactly two"), "{e}");
}

#[test]
fn illegal_commands_are_refused_with_their_rule_and_change_nothing() {
    let text = scenario_text(&(li("A", 30.0, 10.0) + &blue_far()));
    let mut g = game(&text);
    assert_eq!(refused(&mut g, RED, mv(7, vec![adv(1.0, 1.0)])), "MOV-GEN-01");
    assert_eq!(refused(&mut g, RED, mv(0, vec![])), "MOV-GEN-01");
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(f64::NAN, 3.0)])), "MOV-GEN-01");
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(30.0, -3.0)])), "MOV-GEN-01");
    assert_eq!(refused(&mut g, BLUE, movement::Command::EndPhase), "MOV-GEN-01");
    assert_eq!(
        refused(
            &mut g,
            RED,
            movement::Command::SetMorale { unit: 0, state: movement::MoraleState::Broken }
        ),
        "MOV-GEN-01"
    );
    assert_eq!(
        refused(
            &mut g,
            Actor::Umpire,
            movement::Command::SetEndurance { unit: 0, stand: Some(5), ep: 1 }
        ),
        "MOV-FM-05"
    );
    // A command that does not parse.
    let before = g.state_hash();
    let r = g
        .submit_json(RED, serde_json::json!({"move": {"unit": 0, "steps": [{"teleport": [1, 2]}]}}))
        .unwrap_err();
    assert_eq!(r.rule.as_str(), "CORE-CMD");
    assert_eq!(g.state_hash(), before);
    // The JSON form of a good command.
    g.submit_json(RED, serde_json::json!({"move": {"unit": 0, "steps": [{"advance": {"to": [30.0, 14.0]}}, {"face": "right"}, {"wheel": {"pivot": "left", "degrees": 10.0}}]}})).unwrap();
}

#[test]
fn a_broken_data_table_is_reported_with_file_line_and_column() {
    let mut sources: Vec<Source> =
        movement::data::EMBEDDED.iter().map(|(n, t)| Source::new(*n, *t)).collect();
    sources[1].text = sources[1].text.replace("poor = 2.0", "poor = -2.0");
    sources[2].text = sources[2].text.replace("mud = 2.0", "mud = 2.0\nlava = 9.0");
    let e = movement::Data::from_sources(&sources).unwrap_err().to_string();
    assert!(e.contains("crates/movement/data/facing.toml:") && e.contains("cost.poor"), "{e}");
    assert!(e.contains("crates/movement/data/terrain.toml:") && e.contains("lava"), "{e}");
    assert!(movement::Data::embedded().is_ok());
}

#[test]
fn a_file_for_another_rule_set_is_refused_at_its_ruleset_line() {
    let text = scenario_text(&(li("A", 30.0, 10.0) + &blue_far()));
    assert!(errors(&format!("ruleset = \"movement\"\n{text}")).is_empty());
    let e = errors(&format!("ruleset = \"othw\"\n{text}"));
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("bad.toml:1:11: ruleset: this file is for the rule set `othw`"),
        "{e:?}"
    );
}
