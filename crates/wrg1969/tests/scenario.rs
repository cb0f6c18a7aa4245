//! Scenarios: the five in scenarios/wrg1969 load and together field every troop type, trait
//! and kind of terrain; bad set-ups are refused with the rule and
//! their line and column.
use tabletop::diagnostics::Source;
use tabletop::rules::Side;
use wrg1969::Data;
use wrg1969::scenario::load;

fn file(name: &str) -> Source {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let path = format!("{root}/scenarios/wrg1969/{name}");
    Source::new(format!("scenarios/wrg1969/{name}"), std::fs::read_to_string(path).unwrap())
}

fn with(name: &str, from: &str, to: &str) -> Source {
    let s = file(name);
    assert!(s.text.contains(from), "{from}");
    Source::new(s.name, s.text.replacen(from, to, 1))
}

/// The ready scenarios.
const READY: [&str; 5] =
    ["the_hill.toml", "the_ford.toml", "the_wells.toml", "the_bridge.toml", "the_camp.toml"];

/// Every scenario file in the folder is one of [`READY`].
#[test]
fn every_ready_scenario_is_listed() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/wrg1969");
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    found.sort();
    let mut listed: Vec<String> = READY.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(found, listed);
}

#[test]
fn the_ready_scenarios_load() {
    let d = Data::embedded().unwrap();
    for name in READY {
        let s = load(&d, &file(name)).unwrap_or_else(|e| panic!("{name}:\n{e}"));
        assert_eq!(s.sides.len(), 2, "{name}");
        assert_eq!((s.sides[0].side, s.sides[1].side), (Side::Red, Side::Blue));
        for side in &s.sides {
            assert_eq!(side.units.len(), side.army.units.len(), "{name}");
            assert!(side.army.points <= 800);
        }
        assert!(s.objectives.iter().map(|o| o.points).sum::<u32>() <= 200);
        assert_eq!(s.periods, 30);
    }
}

// Checks WRG-ORD-03.
#[test]
fn wrg_ord_03_an_order_naming_a_feature_the_unit_cannot_see() {
    let d = Data::embedded().unwrap();
    // The Batavians at (44, 6) cannot see the copse behind the hill.
    let s = with(
        "the_hill.toml",
        "unit = \"Cohors I Batavorum\"\nat = [44.00, 6.00]\nfacing = 0.0\nfiles = 8\norder = { action = { verb = \"hold\" } }",
        "unit = \"Cohors I Batavorum\"\nat = [44.00, 6.00]\nfacing = 0.0\nfiles = 8\norder = { action = { verb = \"advance\", to = { kind = \"feature\", id = \"Beech Copse\" } } }",
    );
    let e = load(&d, &s).unwrap_err().to_string();
    assert!(e.contains("[WRG-ORD-03]") && e.contains("side[0].unit[3].order"), "{e}");
    assert!(e.contains("scenarios/wrg1969/the_hill.toml:"), "{e}");
    // In the wells, the wells lie behind the ridge: the legions march on a point instead.
    let s = with(
        "the_wells.toml",
        "to = { kind = \"point\", x = 36.0, y = 31.0 }",
        "to = { kind = \"feature\", id = \"The wells\" }",
    );
    assert!(load(&d, &s).unwrap_err().to_string().contains("[WRG-ORD-03]"));
}

#[test]
fn overlapping_units_and_units_outside_the_zone_are_refused() {
    let d = Data::embedded().unwrap();
    let s = with("the_hill.toml", "at = [32.00, 6.00]", "at = [28.00, 6.00]");
    let e = load(&d, &s).unwrap_err().to_string();
    assert!(e.contains("overlaps `Legio XX, first cohort`"), "{e}");
    let s = with("the_hill.toml", "at = [32.00, 6.00]", "at = [32.00, 20.00]");
    let e = load(&d, &s).unwrap_err().to_string();
    assert!(e.contains("[WRG-M-05]"), "{e}");
}

#[test]
fn units_missing_or_unknown_are_refused() {
    let d = Data::embedded().unwrap();
    let s = with("the_hill.toml", "unit = \"Scorpions\"", "unit = \"Ballistae\"");
    let e = load(&d, &s).unwrap_err().to_string();
    assert!(
        e.contains("has no unit `Ballistae`") && e.contains("`Scorpions` is not deployed"),
        "{e}"
    );
    let s = with("the_hill.toml", "army = \"ancient_british\"", "army = \"atlantean\"");
    assert!(load(&d, &s).unwrap_err().to_string().contains("unknown army list"));
}

#[test]
fn objectives_over_200_points_are_refused() {
    let d = Data::embedded().unwrap();
    let s = with("the_hill.toml", "points = 150", "points = 151");
    let e = load(&d, &s).unwrap_err().to_string();
    assert!(e.contains("[WRG-VIC-01] objectives are worth 201 points"), "{e}");
}

#[test]
fn attack_orders_must_name_an_enemy_unit() {
    let d = Data::embedded().unwrap();
    let s = with("the_hill.toml", "verb = \"attack\", unit = 6", "verb = \"attack\", unit = 60");
    assert!(load(&d, &s).unwrap_err().to_string().contains("enemy unit 60, which does not exist"));
}

#[test]
fn a_file_for_another_rule_set_is_refused() {
    let d = Data::embedded().unwrap();
    let s = with("the_hill.toml", "ruleset = \"wrg1969\"", "ruleset = \"movement\"");
    assert!(load(&d, &s).unwrap_err().to_string().contains("rule set `movement`"));
}

#[test]
fn non_finite_numbers_are_refused_not_panicked_on() {
    let d = Data::embedded().unwrap();
    for (from, to) in [
        ("at = [26.00, 6.00]", "at = [nan, 6.00]"),
        ("deploy = [[0, 0], [72, 12]]", "deploy = [[0, 0], [inf, nan]]"),
        (
            "general = { at = [36.0, 1.5], facing = 0.0 }",
            "general = { at = [36.0, 1.5], facing = inf }",
        ),
        ("facing = 0.0\nfiles = 10", "facing = -inf\nfiles = 10"),
        ("periods = 30", "periods = 0"),
        ("files = 10", "files = 4294967295"),
    ] {
        let s = with("the_hill.toml", from, to);
        assert!(load(&d, &s).is_err(), "{to}");
    }
}

/// The ready scenarios together field every troop type, reaction class, hand-to-hand class and
/// missile weapon the armies use, both statuses, shields and none, armour, levies, command
/// figures, and every kind of area, line and crossing the engine prices.
#[test]
fn the_ready_scenarios_field_every_troop_type_trait_and_terrain() {
    use std::collections::BTreeSet;
    use wrg1969::model::{MissileWeapon, ReactionClass, Status, TroopType};
    let d = Data::embedded().unwrap();
    let (mut troops, mut classes, mut status, mut missiles, mut melee) =
        (BTreeSet::new(), BTreeSet::new(), BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    let (mut terrain, mut traits) = (BTreeSet::new(), BTreeSet::new());
    for name in READY {
        let s = load(&d, &file(name)).unwrap();
        for side in &s.sides {
            for u in &side.army.units {
                troops.insert(u.troop);
                classes.insert(u.class);
                status.insert(u.status);
                melee.insert(u.melee.name());
                if let Some(m) = u.missile {
                    missiles.insert(m);
                }
                for (t, on) in [
                    ("shield", u.shield),
                    ("no shield", !u.shield),
                    ("fully armoured", u.fully_armoured),
                    ("levy", u.levy),
                    ("command", u.command > 0),
                    ("chariot", u.chariot.is_some()),
                ] {
                    if on {
                        traits.insert(t);
                    }
                }
            }
        }
        for a in &s.table.areas {
            terrain.insert(format!("{:?}", a.kind));
        }
        for l in &s.table.lines {
            terrain.insert(format!("{:?}", l.kind));
            for c in &l.crossings {
                terrain.insert(format!("{:?}", c.kind));
            }
        }
    }
    for t in TroopType::ALL {
        assert!(troops.contains(t), "no ready scenario fields {t}");
    }
    for c in ReactionClass::ALL {
        assert!(classes.contains(c), "no ready scenario fields class {c}");
    }
    assert_eq!(status.len(), Status::ALL.len());
    for m in MissileWeapon::ALL {
        assert!(missiles.contains(m), "no ready scenario fields {m}");
    }
    assert_eq!(traits.len(), 6, "{traits:?}");
    for k in [
        "Hill",
        "Wood",
        "DenseTrees",
        "Village",
        "Marsh",
        "Rough",
        "River",
        "Stream",
        "PavedRoad",
        "DirtRoad",
        "Wall",
        "Hedge",
        "Ford",
        "Bridge",
    ] {
        assert!(terrain.contains(k), "no ready scenario has {k}: {terrain:?}");
    }
    assert!(melee.len() >= 10, "{melee:?}");
}
