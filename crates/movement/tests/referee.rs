//! The referee: example questions in scenarios/movement/referee answer with the rules' numbers;
//! malformed questions get clear errors.
mod common;
use common::close;
use movement::referee::{RefereeError, answer};
use serde_json::{Value, json};

fn ask(name: &str) -> Value {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text =
        std::fs::read_to_string(format!("{root}/scenarios/movement/referee/{name}")).unwrap();
    let mut q: Value = serde_json::from_str(&text).unwrap();
    // File paths in the examples are relative to the repository root.
    if let Some(f) = q.pointer_mut("/terrain/file") {
        *f = json!(format!("{root}/{}", f.as_str().unwrap()));
    }
    answer(&q).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn num(a: &Value, k: &str) -> f64 {
    a[k].as_f64().unwrap_or_else(|| panic!("{k} in {a}"))
}

fn has_rule(a: &Value, r: &str) -> bool {
    a["rules"].as_array().unwrap().iter().any(|x| x == r)
}

#[test]
fn the_worked_example_costs_twelve() {
    let a = ask("worked_example.json");
    close(num(&a, "cost"), 12.0);
    close(num(&a, "left"), 0.0);
    assert_eq!(a["allowed"], json!(true));
    for r in ["MOV-TER-07", "MOV-TER-02", "MOV-TER-09", "MOV-DIR-01", "MOV-GEN-02"] {
        assert!(has_rule(&a, r), "{r}: {a}");
    }
}

#[test]
fn how_far_stops_after_six_inches_of_road() {
    let a = ask("how_far.json");
    let reach = a["reaches"].as_array().unwrap();
    close(reach[1].as_f64().unwrap(), 31.0);
    close(num(&a, "distance"), 12.0);
    assert_eq!(a["allowed"], json!(false));
}

#[test]
fn a_wheel_of_six_inches_through_ninety_degrees() {
    let a = ask("wheel.json");
    close(num(&a, "cost"), 6.0 * std::f64::consts::FRAC_PI_2);
    assert!(has_rule(&a, "MOV-WHEEL-03"));
}

#[test]
fn two_poor_facing_changes_cost_four() {
    let a = ask("facing.json");
    close(num(&a, "cost"), 4.0);
    close(num(&a, "allowance"), 6.0);
}

#[test]
fn forced_march_facts_and_results() {
    let a = ask("forced_march.json");
    let facts: std::collections::BTreeMap<String, Value> = a["facts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().to_string(), p[1].clone()))
        .collect();
    assert_eq!(facts["discipline_check_passes_on"], json!(4));
    assert_eq!(facts["ep_lost_per_stand"], json!(2));
    assert_eq!(facts["exhausted_on"], json!("7-10"));
    assert_eq!(facts["discipline_check_passed"], json!(true));
    assert_eq!(facts["exhausted"], json!(true));
    close(facts["exhaustion_chance_by_morale"]["firm"].as_f64().unwrap(), 0.2);
    assert_eq!(facts["exhaustion_chance_by_morale"]["shaken"], Value::Null);
    close(num(&a, "allowance"), 24.0);
}

#[test]
fn a_path_on_the_ready_scenario_uses_its_terrain() {
    // A column marching into the ford of the ready scenario: 1.5" of firm ground, then into
    // the water at ×2.
    let a = ask("ford_scenario_path.json");
    assert!(has_rule(&a, "MOV-TER-07"), "{a}");
    assert!(num(&a, "cost") > 6.0);
}

#[test]
fn malformed_questions_get_clear_errors() {
    for (q, needle) in [
        (json!({"question": "teleport"}), "unknown variant"),
        (
            json!({"question": "facing", "unit": {"type": "light_infantry", "discipline": "good", "colour": 1}, "turns": []}),
            "unknown field",
        ),
        (
            json!({"question": "path_cost", "unit": {"type": "light_infantry", "discipline": "good"}, "path": [[0, 0]]}),
            "two points",
        ),
        (
            json!({"question": "forced_march", "unit": {"type": "light_infantry", "discipline": "good"}, "discipline_roll": 11}),
            "1 to 10",
        ),
        (
            json!({"question": "path_cost", "unit": {"type": "creature", "discipline": "good"}, "path": [[0, 0], [1, 1]]}),
            "MOV-GEN-10",
        ),
        (
            json!({"question": "path_cost", "unit": {"type": "light_infantry", "discipline": "good"}, "path": [[0, 0], [1, 1]], "terrain": {"file": "/nonexistent.toml"}}),
            "cannot read",
        ),
        (json!([1, 2, 3]), "malformed"),
    ] {
        let e = answer(&q).unwrap_err();
        assert!(e.to_string().contains(needle), "{needle}: {e}");
        assert!(matches!(e, RefereeError::Malformed(_) | RefereeError::Terrain(_)));
    }
}

#[test]
fn an_inline_stand_footprint_sets_the_wheel_radius() {
    // Four 2"-wide bases: an 8" frontage wheeling 45° costs 8·π/4.
    let q = json!({
        "question": "wheel",
        "unit": {"type": "heavy_infantry", "armor": "heavy", "discipline": "good", "files": 4, "stands": 4, "stand_size": [2.0, 1.0]},
        "degrees": 45.0
    });
    let a = answer(&q).unwrap();
    close(num(&a, "cost"), 8.0 * std::f64::consts::FRAC_PI_4);
    let bad = json!({"question": "facing", "unit": {"type": "heavy_infantry", "discipline": "good", "stand_size": [0.0, 1.0]}, "turns": ["left"]});
    assert!(answer(&bad).unwrap_err().to_string().contains("stand_size"));
}

fn facts(a: &Value) -> std::collections::BTreeMap<String, Value> {
    a["facts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().to_string(), p[1].clone()))
        .collect()
}

/// MOV-FM-01 (with MOV-R-28, MOV-FM-05, MOV-FM-06): after a failed discipline check no forced
/// march is made, so the referee reports no attrition and no exhaustion, as the game does.
#[test]
fn mov_fm_01_a_failed_check_brings_no_attrition_and_no_exhaustion() {
    // The referee: good light infantry rolls 3 against 4+ (and an exhaustion die it should not
    // have rolled).
    let q = json!({
        "question": "forced_march",
        "unit": {"type": "light_infantry", "armor": "light", "discipline": "good", "stands": 4, "files": 4},
        "discipline_roll": 3,
        "exhaustion_roll": 10,
        "ep": 10
    });
    let a = answer(&q).unwrap();
    let f = facts(&a);
    assert_eq!(f["discipline_check_passed"], json!(false));
    assert_eq!(f["forced_march_made"], json!(false));
    assert_eq!(f["ep_lost_per_stand"], json!(0));
    assert_eq!(f["ep_after"], json!(10));
    assert_eq!(f["exhausted"], json!(false));
    assert!(!f.contains_key("exhausted_on"), "{a}");
    assert_eq!(a["allowed"], json!(false));
    close(num(&a, "allowance"), 12.0);
    for r in ["MOV-FM-01", "MOV-R-20", "MOV-R-28"] {
        assert!(has_rule(&a, r), "{r}: {a}");
    }
    for r in ["MOV-FM-05", "MOV-FM-06", "MOV-FM-07"] {
        assert!(!has_rule(&a, r), "{r} cited after a failed check: {a}");
    }
    // A passed check (5) and the same exhaustion die: attrition and exhaustion follow.
    let mut q = q;
    q["discipline_roll"] = json!(5);
    let a = answer(&q).unwrap();
    let f = facts(&a);
    assert_eq!(f["forced_march_made"], json!(true));
    assert_eq!(f["ep_lost_per_stand"], json!(2));
    assert_eq!(f["exhausted"], json!(true));
    assert!(has_rule(&a, "MOV-FM-05") && has_rule(&a, "MOV-FM-06"), "{a}");

    // The game: Red Archers (good light infantry, ford.toml) declare a forced march and fail
    // the check (3): they move normally, with no attrition and no exhaustion roll.
    let mut st = common::state(&common::ford_text());
    let archers = st.find("Red Archers").unwrap();
    let ep_before: Vec<i32> = st.units[archers].stands.iter().map(|s| s.ep).collect();
    let ev = common::run(
        &mut st,
        common::RED,
        common::forced(archers, vec![common::adv(28.0, 16.0)]),
        &[3],
    );
    assert!(
        ev.iter().any(|e| matches!(e, movement::Event::DisciplineCheck { passed: false, .. })),
        "{ev:?}"
    );
    assert!(
        ev.iter().all(|e| !matches!(
            e,
            movement::Event::Attrition { .. } | movement::Event::ExhaustionRoll { .. }
        )),
        "{ev:?}"
    );
    let ep_after: Vec<i32> = st.units[archers].stands.iter().map(|s| s.ep).collect();
    assert_eq!(ep_before, ep_after);
    assert_eq!(st.units[archers].exhausted_turn, None);
}
