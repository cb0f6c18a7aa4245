//! The referee for a real table: volleys and their count, rank fights and house fights, gun
//! shots, from the dice the players threw; bad questions name their field.

use liberal::referee::answer;
use serde_json::{Value, json};

fn ok(q: Value) -> Value {
    answer(&q).unwrap_or_else(|e| panic!("{e}: {q}"))
}

fn err(q: Value) -> String {
    answer(&q).expect_err("it should be refused").to_string()
}

fn cites(a: &Value, rule: &str) -> bool {
    a["rules"].as_array().expect("rules").iter().any(|r| r == rule)
}

#[test]
fn lib_cas_06_the_worked_count_dice_3_4_4_6_on_two_ranks_of_12() {
    let a = ok(json!({"question": "volley", "figures": 12, "distance": 6,
        "count_dice": [3, 4, 4, 6], "target": {"per_rank": 12, "ranks": 2}}));
    // 12 infantry at 6" of 24": short, 3 a casualty, 4 casualties (the digest's example).
    assert_eq!(a["figures"]["band"], "short");
    assert_eq!(a["figures"]["casualties"], 4);
    let hits = a["figures"]["count"]["hits"].as_array().unwrap();
    let got: Vec<(u64, u64, u64, &str)> = hits
        .iter()
        .map(|h| {
            (
                h["figure"].as_u64().unwrap(),
                h["rank"].as_u64().unwrap(),
                h["file"].as_u64().unwrap(),
                h["fate"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [(3, 1, 3, "dead"), (7, 1, 7, "wounded"), (11, 1, 11, "wounded"), (17, 2, 5, "dead")]
    );
    assert!(a["text"].as_str().unwrap().contains("figure 17 (rank 2, 5th from the left): dead"));
    for r in ["LIB-R-01", "LIB-CAS-03", "LIB-CAS-04", "LIB-R-03"] {
        assert!(cites(&a, r), "{r}");
    }
}

#[test]
fn lib_r_01_the_remainder_die_and_lib_r_41_cover() {
    // 14 at 20" of 24": long, 6 a casualty: 2, remainder 2.
    let q = |die: u8| {
        json!({"question": "volley", "figures": 14, "distance": 20, "cover": "hedge",
            "remainder_die": die})
    };
    let hit = ok(q(2));
    assert_eq!(
        (hit["figures"]["base"].clone(), hit["figures"]["extra"].clone()),
        (json!(2), json!(1))
    );
    assert_eq!(hit["figures"]["casualties"], 2, "2 + 1 − 1 for the hedge");
    let miss = ok(q(3));
    assert_eq!(miss["figures"]["casualties"], 1);
    assert!(cites(&miss, "LIB-R-41"));
    // The remainder die is needed, and is a d6 here.
    assert!(
        err(json!({"question": "volley", "figures": 14, "distance": 20})).contains("remainder_die")
    );
    assert!(err(q(7)).contains("remainder_die"));
    // No remainder, no die.
    assert!(
        err(json!({"question": "volley", "figures": 12, "distance": 20, "remainder_die": 3}))
            .contains("no remainder die")
    );
    // Heavy cover never takes below 0.
    let a = ok(json!({"question": "volley", "figures": 3, "band": "short", "cover": "wall"}));
    assert_eq!(a["figures"]["casualties"], 0);
}

#[test]
fn bands_shift_for_sharpshooters_and_mounted_range_lib_r_18() {
    let a =
        ok(json!({"question": "volley", "firer": "sharpshooters", "figures": 12, "distance": 10}));
    assert_eq!(a["figures"]["band"], "short", "medium at 10\" of 24\", one band shorter");
    // Mounted horse standing fast: 12".
    let a = ok(json!({"question": "volley", "firer": "light_cavalry", "mounted": true,
        "figures": 8, "distance": 7}));
    assert_eq!(a["figures"]["band"], "medium");
    assert!(cites(&a, "LIB-R-18"));
    let e = err(json!({"question": "volley", "firer": "light_cavalry", "mounted": true,
        "figures": 6, "distance": 13}));
    assert!(e.contains("distance") && e.contains("LIB-FIRE-08"), "{e}");
}

#[test]
fn the_count_skips_figures_hit_wraps_round_and_loses_the_surplus() {
    // 3 casualties on 4 figures: 6 goes round to figure 2, 4 from there passes 1 (free) … the
    // count skips the figures already hit.
    let a = ok(json!({"question": "volley", "figures": 9, "band": "short",
        "count_dice": [6, 4, 1], "target": {"per_rank": 4, "ranks": 1}}));
    let hits = a["figures"]["count"]["hits"].as_array().unwrap();
    let n: Vec<u64> = hits.iter().map(|h| h["figure"].as_u64().unwrap()).collect();
    // 6 from the start: 1,2,3,4,1,2 → 2; 4 on: 3,4,1,(2 hit)3 → 3; 1 on: 4.
    assert_eq!(n, [2, 3, 4]);
    assert_eq!(hits[0]["wrapped"], true);
    assert_eq!(hits[1]["skipped"], json!([2]));
    // More casualties than figures: only as many dice as figures.
    let a = ok(json!({"question": "volley", "figures": 15, "band": "short",
        "count_dice": [1, 1], "target": {"per_rank": 2, "ranks": 1}}));
    assert_eq!(a["figures"]["count"]["lost"], 3);
    let e = err(json!({"question": "volley", "figures": 12, "band": "short",
        "count_dice": [1, 2], "target": {"per_rank": 12, "ranks": 2}}));
    assert!(e.contains("count_dice") && e.contains("need 4"), "{e}");
    let e = err(json!({"question": "volley", "figures": 12, "band": "short",
        "count_dice": [1, 2, 3, 4]}));
    assert!(e.contains("target"), "{e}");
    let e = err(json!({"question": "volley", "figures": 12, "band": "short",
        "count_dice": [1, 2, 3, 9], "target": {"per_rank": 12, "ranks": 2}}));
    assert!(e.contains("count_dice[3] is 9"), "{e}");
}

#[test]
fn lib_hth_07_a_rank_fight_three_lost_in_a_row_and_the_flag_column() {
    let a = ok(json!({"question": "rank_fight",
        "attacker": [{"type": "heavy_cavalry", "count": 2},
                     {"type": "heavy_cavalry", "colour_bearer": true, "name": "Cornet"},
                     {"type": "heavy_cavalry"}],
        "defender": [{"type": "grenadiers", "count": 4}],
        "dice": [5, 2, 3, 1, 4, 5, 3, 4, 2, 6, 2, 2, 5, 6]}));
    let f = a["figures"]["fights"].as_array().unwrap();
    assert_eq!(f.len(), 4);
    assert_eq!(f[0]["winner"], "attacker");
    assert_eq!(f[0]["attacker_total"], 6, "heavy cavalry +1");
    assert_eq!(f[0]["fate"], "dead");
    // Both win ties: the tie is thrown again and does not count (LIB-R-05).
    assert_eq!(f[2]["rerolls"], 1);
    assert_eq!(f[2]["dice"], json!([3, 4, 2, 6, 2]));
    // The colour bearer loses on the flag column.
    assert_eq!(f[2]["loser"], "Cornet");
    assert_eq!(f[2]["fate"], "flag_retires");
    assert_eq!(f[3]["losses_in_a_row"], 3);
    assert_eq!(a["figures"]["ranks_lost"][0]["loser"], "attacker");
    assert_eq!(a["figures"]["ranks_lost"][0]["after_fight"], 4);
    assert_eq!(a["figures"]["winner"], "defender");
    assert!(cites(&a, "LIB-HTH-07") && cites(&a, "LIB-HTH-11"));
    // Dismounted horse fight at +0 and do not win ties.
    let a = ok(json!({"question": "rank_fight",
        "attacker": [{"type": "heavy_cavalry", "mounted": false}],
        "defender": [{"type": "infantry", "in": "square"}],
        "dice": [3, 2, 1, 2, 3]}));
    let f = a["figures"]["fights"].as_array().unwrap();
    assert_eq!(
        (f[0]["attacker_bonus"].clone(), f[0]["defender_bonus"].clone()),
        (json!(0), json!(1))
    );
    assert_eq!(f[0]["rerolls"], 1, "a tie neither wins is thrown again");
    assert!(cites(&a, "LIB-SQUARE-02"));
}

#[test]
fn lib_house_05_a_house_fight_is_one_contest() {
    let a = ok(json!({"question": "rank_fight",
        "attacker": [{"type": "infantry", "count": 4}],
        "defender": [{"type": "infantry", "count": 3, "in": "house"}],
        "dice": [6, 2, 4, 4, 3, 5, 1, 1, 1, 5, 3, 2, 2, 6, 1, 1, 4]}));
    assert_eq!(a["figures"]["house_fight"], true);
    assert_eq!(a["figures"]["fights"].as_array().unwrap().len(), 5);
    assert_eq!(a["figures"]["fights"][0]["defender_bonus"], 1);
    assert_eq!(a["figures"]["winner"], "defender");
    assert!(cites(&a, "LIB-HOUSE-05"));
    // A house holds all its defenders or none.
    let e = err(json!({"question": "rank_fight",
        "attacker": [{"type": "infantry"}],
        "defender": [{"type": "infantry", "in": "house"}, {"type": "infantry"}],
        "dice": [1, 2, 3]}));
    assert!(e.contains("defender"), "{e}");
}

#[test]
fn rank_fight_dice_must_match_the_fights() {
    let q = |dice: Vec<u8>| {
        json!({"question": "rank_fight", "attacker": [{"type": "infantry"}],
            "defender": [{"type": "infantry", "count": 2}], "dice": dice})
    };
    // One attacker against two in one rank of 1: the defender's second figure is a second rank.
    let a = ok(q(vec![6, 1, 3, 6, 1, 3]));
    assert_eq!(a["figures"]["winner"], "attacker");
    assert_eq!(a["figures"]["ranks_lost"].as_array().unwrap().len(), 2);
    assert!(err(q(vec![6, 1])).contains("dice: the dice ran out"));
    assert!(err(q(vec![6, 1, 3, 6, 1, 3, 4])).contains("not needed"));
    assert!(err(q(vec![7, 1, 3])).contains("dice[0] is 7"));
    let e = err(json!({"question": "rank_fight", "attacker": [{"type": "hussars"}],
        "defender": [{"type": "infantry"}], "dice": []}));
    assert!(e.contains("attacker[0].type"), "{e}");
    let e =
        err(json!({"question": "rank_fight", "attacker": [{"type": "infantry", "in": "square"}],
        "defender": [{"type": "infantry"}], "dice": []}));
    assert!(e.contains("attacker[0].in"), "{e}");
}

#[test]
fn lib_art_09_to_12_gun_shots() {
    // A miss.
    let a = ok(json!({"question": "gun_shot", "gun": "foot", "shot": "round", "distance": 40,
        "dice": [3]}));
    assert_eq!(
        (a["figures"]["hit"].clone(), a["figures"]["casualties"].clone()),
        (json!(false), json!(0))
    );
    // A hit in heavy cover: 5 − 2.
    let a = ok(json!({"question": "gun_shot", "gun": "horse_artillery", "shot": "round",
        "distance": 30, "cover": "house", "dice": [2, 5]}));
    assert_eq!(a["figures"]["casualties"], 3);
    // A six on a gun destroys it; the crew die with cover.
    let a = ok(json!({"question": "gun_shot", "gun": "foot", "shot": "round", "distance": 30,
        "cover": "light", "target_is_gun": true, "dice": [4, 6, 3],
        "count_dice": [2, 1], "target": {"per_rank": 4, "ranks": 1}}));
    assert_eq!(a["figures"]["destroyed"], true);
    assert_eq!(a["figures"]["casualties"], 2);
    assert_eq!(a["figures"]["count"]["hits"][1]["figure"], 3);
    assert!(cites(&a, "LIB-R-23") && cites(&a, "LIB-ART-13"));
    // A six on troops is six casualties less cover.
    let a = ok(json!({"question": "gun_shot", "gun": "foot", "shot": "round", "distance": 30,
        "dice": [6, 6]}));
    assert_eq!(
        (a["figures"]["destroyed"].clone(), a["figures"]["casualties"].clone()),
        (json!(false), json!(6))
    );
    // Grape: no to-hit, cover ignored, never destroys a gun.
    let a = ok(json!({"question": "gun_shot", "gun": "horse", "shot": "grape", "distance": 10,
        "cover": "heavy", "target_is_gun": true, "dice": [6]}));
    assert_eq!(a["figures"]["casualties"], 6);
    assert_eq!(a["figures"]["destroyed"], false);
    assert!(cites(&a, "LIB-R-24"));
    let e = err(json!({"question": "gun_shot", "gun": "horse", "shot": "grape", "distance": 13,
        "dice": [6]}));
    assert!(e.contains("distance") && e.contains("LIB-ART-12"), "{e}");
    let e = err(json!({"question": "gun_shot", "gun": "horse", "shot": "round", "distance": 37,
        "dice": [2, 2]}));
    assert!(e.contains("LIB-ART-08"), "{e}");
    assert!(err(json!({"question": "gun_shot", "gun": "mortar", "shot": "round", "distance": 3, "dice": []})).contains("gun"));
    assert!(err(json!({"question": "gun_shot", "gun": "foot", "shot": "round", "distance": 30, "dice": [2]})).contains("dice"));
}

#[test]
fn bad_questions_name_the_field() {
    assert!(err(json!({"question": "volley", "figures": 12, "distanse": 6})).contains("distanse"));
    assert!(err(json!({"question": "volley", "distance": 6})).contains("figures"));
    assert!(err(json!({"question": "parley"})).contains("parley"));
    assert!(
        err(json!({"question": "volley", "figures": 12, "distance": 6, "band": "short"}))
            .contains("not both")
    );
    assert!(
        err(json!({"question": "volley", "figures": 12, "band": "point_blank"})).contains("band")
    );
    assert!(
        err(json!({"question": "volley", "firer": "artillerymen", "figures": 12, "band": "short"}))
            .contains("firer")
    );
    assert!(
        err(json!({"question": "volley", "figures": 12, "band": "short", "cover": "fog"}))
            .contains("cover")
    );
}

#[test]
fn every_example_question_is_answered() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/liberal/referee");
    let mut n = 0;
    for e in std::fs::read_dir(dir).expect("the examples") {
        let p = e.expect("an entry").path();
        if p.extension().is_some_and(|x| x == "json") {
            let q: Value = serde_json::from_str(&std::fs::read_to_string(&p).expect("it reads"))
                .expect("JSON");
            let a = answer(&q).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            assert!(!a["rules"].as_array().expect("rules").is_empty());
            n += 1;
        }
    }
    assert!(n >= 3, "one example of each kind");
}
