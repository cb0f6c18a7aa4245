mod common;
use common::*;
use tabletop::dice::SeededDice;
use tabletop::rules::{RuleSet, Side};

#[test]
fn ford_scenario_loads_and_plays_a_few_random_phases() {
    let mut g = game(&ford_text());
    let r = rules();
    let mut rng = SeededDice::new(3);
    for _ in 0..200 {
        let Some(side) = g.pending().sides().first().copied() else { break };
        let c = r.candidates(g.state(), side, &mut rng);
        assert!(!c.is_empty());
        let pick = c[rng.below(c.len() as u32) as usize].clone();
        g.submit(tabletop::rules::Actor::Side(side), pick.clone())
            .unwrap_or_else(|e| panic!("{pick:?}: {e}"));
    }
    let _ = Side::Red;
}

/// Every ready scenario validates and starts with every unit in touch with its army: no
/// engine move before the first command.
#[test]
fn every_ready_scenario_loads_and_starts_with_no_separated_units() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/movement");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let g = game(&text);
        let moved: Vec<String> =
            g.log().into_iter().map(|l| l.text).filter(|t| !t.contains("movement phase")).collect();
        assert!(moved.is_empty(), "{}: {moved:#?}", path.display());
        assert!(
            !g.state().objectives.is_empty(),
            "{}: a ready battle has objectives",
            path.display()
        );
        n += 1;
    }
    assert!(n >= 3, "{n} ready scenarios");
}

#[test]
fn ford_scenario_starts_with_no_separated_units() {
    let g = game(&ford_text());
    let moved: Vec<String> =
        g.log().into_iter().map(|l| l.text).filter(|t| !t.contains("movement phase")).collect();
    assert!(moved.is_empty(), "{moved:#?}");
}

#[test]
fn the_readme_command_examples_parse() {
    let readme = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/movement/README.md"
    ))
    .unwrap();
    let mut n = 0;
    for line in readme.lines().filter(|l| l.starts_with("{\"") || l.starts_with('"')) {
        for part in line.split("   ").map(str::trim).filter(|p| !p.is_empty()) {
            let v: serde_json::Value =
                serde_json::from_str(part).unwrap_or_else(|e| panic!("{part}: {e}"));
            let _: movement::Command =
                serde_json::from_value(v).unwrap_or_else(|e| panic!("{part}: {e}"));
            n += 1;
        }
    }
    assert!(n >= 8, "{n}");
    // And the first example is legal on the ready scenario.
    let mut g = game(&ford_text());
    g.submit_json(
        tabletop::Actor::Side(Side::Red),
        serde_json::json!({"move": {"unit": 1, "steps": [{"advance": {"to": [12.0, 16.0]}}]}}),
    )
    .unwrap();
}
