//! Victory played through the game: the battle's last period ends with the score told in the log,
//! every part of it named — each unit's figures at their points, the General, each objective held
//! by occupying it or by blocking the enemy's way to it, in full or by half.

use std::sync::Arc;
use tabletop::game::Game;
use tabletop::rules::{Actor, Side};
use wrg1969::plan::Plan;
use wrg1969::{Command, Wrg1969};

/// The hill, one period long, on a table 96" deep, every unit holding where `at` puts it (red's
/// units first, then blue's, in the scenario's order; `None` keeps the scenario's place).
fn hill(at: &[Option<(f64, f64)>]) -> Game<Wrg1969> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/wrg1969/the_hill.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = String::new();
    let mut unit = 0;
    for line in text.lines() {
        let line = if line.starts_with("periods =") {
            "periods = 1".to_string()
        } else if line.starts_with("height = 48.0") {
            "height = 96.0".to_string()
        } else if line.starts_with("deploy = ") {
            "deploy = [[0, 0], [72, 96]]".to_string()
        } else if line.starts_with("order = ") {
            "order = { action = { verb = \"hold\" } }".to_string()
        } else if line.starts_with("at = ") {
            unit += 1;
            match at.get(unit - 1).copied().flatten() {
                Some((x, y)) => format!("at = [{x}, {y}]"),
                None => line.to_string(),
            }
        } else if line.starts_with("general = ") && out.contains("side = \"blue\"") {
            "general = { at = [36.0, 94.0], facing = 180.0 }".to_string()
        } else {
            line.to_string()
        };
        out.push_str(&line);
        out.push('\n');
    }
    Game::new(Arc::new(Wrg1969::new()), tabletop::Source::new("hill.toml", out), 1).unwrap()
}

/// Plays the one period with empty plans and returns the last log line before the result.
fn play_out(mut g: Game<Wrg1969>) -> String {
    for side in Side::BOTH {
        g.submit(Actor::Side(side), Command::Write { orders: vec![] }).unwrap();
    }
    for side in Side::BOTH {
        g.submit(Actor::Side(side), Command::Plan(Plan::default())).unwrap();
    }
    assert!(g.outcome().is_some(), "one period, then the score");
    g.log().last().unwrap().text.clone()
}

/// Red's first cohort just north of Windmill Hill, every other red unit at home; blue's seven
/// units where `blue` puts them.
fn places(blue: [(f64, f64); 7]) -> Vec<Option<(f64, f64)>> {
    let mut at = vec![Some((36.0, 31.0))];
    at.extend(std::iter::repeat_n(None, 9));
    at.extend(blue.iter().map(|&p| Some(p)));
    at
}

/// Blue's host drawn up far to the north, every unit's way to the hill's centre across the
/// cohort's front.
const FAR_NORTH: [(f64, f64); 7] = [
    (36.0, 70.0),
    (28.0, 80.0),
    (44.0, 80.0),
    (36.0, 88.0),
    (36.0, 78.0),
    (50.0, 88.0),
    (22.0, 88.0),
];

// Checks WRG-VIC-02, WRG-VIC-01, WRG-R-39.
#[test]
fn wrg_vic_02_a_unit_blocking_the_enemys_way_holds_the_hill() {
    let line = play_out(hill(&places(FAR_NORTH)));
    assert!(line.starts_with("[WRG-VIC-01][WRG-R-39] The battle ends"), "{line}");
    assert!(line.contains("+150 Windmill Hill, its way blocked [WRG-VIC-02]"), "{line}");
    assert!(line.contains("+100 the General [WRG-VIC-01]"), "{line}");
    assert!(!line.contains("blue's score") || !line.contains("Windmill Hill, occupied"), "{line}");
}

// Checks WRG-VIC-02.
#[test]
fn wrg_vic_02_an_enemy_with_a_clear_way_leaves_the_hill_unheld() {
    let mut blue = FAR_NORTH;
    blue[5] = (66.0, 88.0); // the light horse's way runs east of the cohort
    let line = play_out(hill(&places(blue)));
    assert!(!line.contains("Windmill Hill"), "{line}");
}

// Checks WRG-VIC-03, WRG-R-40.
#[test]
fn wrg_vic_03_blockers_an_enemy_could_charge_keep_half() {
    let mut blue = FAR_NORTH;
    blue[0] = (36.0, 45.0); // the chariots, 13" off: within their 18" charge
    let line = play_out(hill(&places(blue)));
    assert!(
        line.contains("+75 Windmill Hill, its way blocked, under threat of a charge [WRG-VIC-03]"),
        "{line}"
    );
}
