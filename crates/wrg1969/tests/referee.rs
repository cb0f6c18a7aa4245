//! The referee: the rules' worked examples and the example questions in
//! scenarios/wrg1969/referee answer with the rules' numbers; bad questions get clear errors.
use serde_json::{Value, json};
use wrg1969::referee::{RefereeError, answer};

fn ask(name: &str) -> Value {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/scenarios/wrg1969/referee/{name}")).unwrap();
    let mut q: Value = serde_json::from_str(&text).unwrap();
    if let Some(f) = q.pointer_mut("/file") {
        *f = json!(format!("{root}/{}", f.as_str().unwrap()));
    }
    answer(&q).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn has_rule(a: &Value, r: &str) -> bool {
    a["rules"].as_array().unwrap().iter().any(|x| x == r)
}

// Checks WRG-CAS-04.
#[test]
fn wrg_cas_04_slingers_example() {
    // 10 slingers against horse archers galloping past: WRG-CAS-04, WRG-TAC-08.
    let a = ask("slingers_example.json");
    assert_eq!(a["weapon_factor"], 1);
    assert_eq!(a["random"], 1);
    assert_eq!(a["total"], 2);
    assert_eq!(a["men"], 13);
    assert_eq!(a["removal"]["figures_removed"], 0);
    assert_eq!(a["removal"]["carried"], 13);
    for r in ["WRG-FIRE-07", "WRG-TAC-04", "WRG-TAC-05", "WRG-RAND-01", "WRG-CAS-01", "WRG-CAS-03"]
    {
        assert!(has_rule(&a, r), "{r}: {a}");
    }
}

// Checks WRG-CAS-02.
#[test]
fn wrg_cas_02_thirty_two_figures_at_three() {
    let a = ask("beyond_twenty.json");
    assert_eq!(a["men"], 51);
    assert_eq!(a["tens"], json!([3, 2]));
    assert_eq!(a["removal"]["figures_removed"], 2);
    assert_eq!(a["removal"]["carried"], 11);
    assert!(has_rule(&a, "WRG-CAS-02"));
}

// Checks WRG-FIRE-14.
#[test]
fn wrg_fire_14_elephants_shoot_as_three_archers_each() {
    let a = ask("elephant_archers.json");
    // 2 elephants = 6 self-bow figures; bows vs MI 3, cover -1, tie 0 -> 2: 6 figures -> 8 men.
    assert_eq!(
        (a["figures"].as_u64(), a["total"].as_i64(), a["men"].as_u64()),
        (Some(6), Some(2), Some(8))
    );
    // 11 carried + 8 = 19: no figure yet.
    assert_eq!(a["removal"]["figures_removed"], 0);
    assert_eq!(a["removal"]["carried"], 19);
    assert!(has_rule(&a, "WRG-TAC-02") && has_rule(&a, "WRG-FIRE-14"));
}

// Checks WRG-AFTER-05.
#[test]
fn wrg_after_05_the_legion_pushes_the_warband_back() {
    let a = ask("legion_against_warband.json");
    // Legion: pilum vs MI 5 + (4 - 3) = 6, 12 figures -> 38 men.
    // Warband: spear vs MI 4 + 1 charging + (2 - 4) = 3, 10 figures -> 16 men.
    assert_eq!(a["a"]["dealt"]["men"], 38);
    assert_eq!(a["b"]["dealt"]["men"], 16);
    assert_eq!(a["b"]["removal"]["figures_removed"], 2);
    assert_eq!(a["b"]["removal"]["carried"], 3);
    // The warband lost more men, and at least one per figure (38 >= 30): pushed back 3".
    assert_eq!(a["verdict"]["verdict"], "pushed_back");
    assert_eq!(a["verdict"]["side"], 1);
    assert!(has_rule(&a, "WRG-AFTER-05"));
}

// Checks WRG-AFTER-02.
#[test]
fn wrg_after_02_cavalry_repulsed_by_the_square() {
    let a = ask("cavalry_against_square.json");
    assert_eq!(a["verdict"]["verdict"], "mounted_fall_back");
    assert_eq!(a["verdict"]["side"], 0);
    assert_eq!(a["verdict"]["distance"], 10.0);
}

// Checks WRG-RTP-03.
#[test]
fn wrg_rtp_03_charged_auxilia_stand() {
    let a = ask("charged_auxilia.json");
    // Dice 9; +2 friends, +1 support, -1 facing, -1 cavalry, -1 advancing, +1 General = 10.
    assert_eq!(a["dice_total"], 9);
    assert_eq!(a["score"], 10);
    assert_eq!(a["chart"], 1);
    assert_eq!(a["result"], "carry_on");
    assert!(has_rule(&a, "WRG-RFAC-27"));
}

// Checks WRG-ARMY-01.
#[test]
fn wrg_army_01_the_referee_prices_a_list() {
    let a = ask("barbarian_army.json");
    assert_eq!(a["legal"], true);
    assert_eq!(a["points"], 784);
}

#[test]
fn bad_questions_are_refused_with_the_rule() {
    let e = answer(&json!({"question": "fire", "weapon": "sling", "figures": 10, "target": "light_cavalry", "dice": {"red": 7, "black": 1}})).unwrap_err();
    assert!(matches!(e, RefereeError::Refused { ref rule, .. } if rule == "WRG-RAND-01"), "{e}");
    let e = answer(&json!({"question": "fire", "weapon": "musket", "figures": 1, "target": "light_cavalry", "dice": {"red": 1, "black": 1}})).unwrap_err();
    assert!(matches!(e, RefereeError::Malformed(_)), "{e}");
    let e = answer(&json!({"question": "reaction", "class": "c", "status": "regular", "start_figures": 12, "figures": 12, "has_order": true, "dice": [3, 3]})).unwrap_err();
    assert!(e.to_string().contains("[WRG-RTP-02]"), "{e}");
    let e = answer(&json!({"question": "casualty_table", "factor": 1, "figures": 1, "variants": {"t8_zero_fifteen": "nine"}})).unwrap_err();
    assert!(e.to_string().contains("no option `nine`"), "{e}");
    let e = answer(&json!({"question": "weather"})).unwrap_err();
    assert!(matches!(e, RefereeError::Malformed(_)));
}

#[test]
fn variants_can_be_chosen_per_question() {
    let a = answer(&json!({"question": "casualty_table", "factor": 12, "figures": 16, "variants": {"t8_twelve_sixteen": "printed"}})).unwrap();
    assert_eq!(a["men"], 207);
    let a = answer(&json!({"question": "casualty_table", "factor": 12, "figures": 16})).unwrap();
    assert_eq!(a["men"], 202);
}

#[test]
fn an_illegal_army_answers_with_its_problems() {
    let text = include_str!("../data/armies/german.toml").replace("figures = 48", "figures = 60");
    let a = answer(&json!({"question": "army", "toml": text})).unwrap();
    assert_eq!(a["legal"], false);
    assert!(a["problems"][0].as_str().unwrap().contains("[WRG-ARMY-02]"), "{a}");
}

// Checks WRG-CHAMP-02.
#[test]
fn wrg_champ_02_the_referee_moves_cavalry_through_the_stream() {
    let a = ask_file("cavalry_through_the_stream.json");
    // Medium cavalry at the edge of the Crimisus bed: a quarter speed, 2" this period.
    assert_eq!(a["allowance"], 8.0);
    assert!((a["distance"].as_f64().unwrap() - 2.0).abs() < 1e-9, "{a}");
    assert_eq!(a["whole_path"], false);
    assert!(has_rule(&a, "WRG-TERR-04"));
}

// Checks WRG-MOVE-11.
#[test]
fn wrg_move_11_the_referee_judges_a_charge_and_an_evade() {
    let a = ask("charge_on_skirmishers.json");
    assert_eq!(a["legal"], true);
    assert_eq!(a["max_wheel"], 5.0);
    // Medium cavalry (8" normal) charging from 13": the skirmishers test after 8".
    assert_eq!(a["test_at"], 8.0);
    // They evade 10" from 5" away; the charger has 12" left: 12 < 15, they get away.
    assert_eq!(a["evade"]["distance"], 10.0);
    assert_eq!(a["evade"]["caught"], false);
    let close = answer(&json!({"question": "charge", "type": "medium_cavalry", "distance": 9.0, "evader": "light_infantry"})).unwrap();
    assert_eq!(close["evade"]["caught"], true);
    let wide = answer(
        &json!({"question": "charge", "type": "heavy_cavalry", "wheel": 4.0, "distance": 12.0}),
    )
    .unwrap();
    assert_eq!(wide["legal"], false);
    assert!(wide["refusal"].as_str().unwrap().contains("[WRG-MOVE-06]"));
}

fn ask_file(name: &str) -> Value {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/scenarios/wrg1969/referee/{name}")).unwrap();
    let mut q: Value = serde_json::from_str(&text).unwrap();
    if let Some(f) = q.pointer_mut("/file") {
        *f = json!(format!("{root}/{}", f.as_str().unwrap()));
    }
    answer(&q).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn extreme_numbers_never_panic() {
    let big = u32::MAX;
    let questions = [
        json!({"question": "casualty_table", "factor": i32::MIN, "figures": big, "carried": big, "target_figures": big}),
        json!({"question": "casualty_table", "factor": i32::MAX, "figures": big}),
        json!({"question": "fire", "crew": "light_dart_engine", "figures": big, "target": "elephant", "dice": {"red": 1, "black": 6}, "carried": big}),
        json!({"question": "fire", "weapon": "sling", "figures": 0, "target": "elephant", "dice": {"red": 1, "black": 6}}),
        json!({"question": "after_combat", "a": {"troop": "heavy_cavalry", "figures": big, "men_lost": big, "pushed_back_before": big}, "b": {"troop": "light_cavalry", "figures": 0, "men_lost": big}, "periods": big}),
        json!({"question": "reaction", "class": "e", "status": "barbarian", "start_figures": big, "figures": big, "has_order": false,
               "situation": {"friends_within": big, "enemies_routing_within": big, "friends_routing_within": big, "enemies_facing_within": big, "figures_lost": big, "flanks_secure": big},
               "dice": [6, 6, 6]}),
        json!({"question": "reaction", "class": "a", "status": "regular", "start_figures": 0, "figures": 0, "has_order": true, "dice": []}),
        json!({"question": "fight",
               "a": {"type": "medium_infantry", "status": "regular", "figures": big, "carried": big, "groups": [{"class": "pike", "figures": big}, {"class": "pike", "figures": big}], "dice": {"black": 5, "red": 2}, "pushed_back_before": big},
               "b": {"type": "elephant", "status": "barbarian", "figures": 1, "groups": [{"class": "elephant", "figures": 1}], "dice": {"black": 6, "red": 2}},
               "periods": big}),
        json!({"question": "charge", "type": "light_cavalry", "wheel": 1e300, "distance": 1e300, "evader": "chariot"}),
        json!({"question": "charge", "type": "light_cavalry", "distance": -1.0}),
        json!({"question": "move", "type": "heavy_infantry", "pace": "rout", "period": big, "path": [[0, 0], [1e300, 1e300]]}),
        json!({"question": "army", "toml": "name = 3\n[[unit]]\nfigures = -1\n"}),
        json!({"question": "army", "toml": "ruleset = \"wrg1969\"\nname = \"X\"\nprototype = \"german\"\nmessengers = 4294967295\n[general]\ntype = \"medium_cavalry\"\nstatus = \"barbarian\"\nmelee = \"conventional_cavalry\"\n[[unit]]\nname = \"A\"\ntype = \"medium_infantry\"\nstatus = \"barbarian\"\nclass = \"d\"\nfigures = 4294967295\nmelee = \"spear_infantry\"\n"}),
    ];
    for q in questions {
        // Either an answer or a clear refusal; never a panic.
        match answer(&q) {
            Ok(a) => assert!(a.get("question").is_some(), "{a}"),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}
