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

#[test]
fn ford_scenario_starts_with_no_separated_units() {
    let g = game(&ford_text());
    let moved: Vec<String> =
        g.log().into_iter().map(|l| l.text).filter(|t| !t.contains("movement phase")).collect();
    assert!(moved.is_empty(), "{moved:#?}");
}
