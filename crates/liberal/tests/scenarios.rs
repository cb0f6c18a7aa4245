//! The scenario files: every ready scenario under `scenarios/liberal/` loads and the three
//! together field what the rules need; a malformed scenario is refused with every problem
//! located by file, line, column and field (LIB-START-01, LIB-START-02, LIB-START-05).
mod common;
use common::{scenario, unit};
use liberal::Liberal;
use liberal::state::{Formation, State};
use std::collections::BTreeSet;
use tabletop::diagnostics::{Diagnostic, Source};
use tabletop::rules::{RuleSet, Side};
use tabletop::terrain::{AreaKind, LineKind};

/// The ready scenarios.
const READY: [&str; 3] = ["courthouse.toml", "farm.toml", "crossroads.toml"];

fn dir() -> String {
    format!("{}/../../scenarios/liberal", env!("CARGO_MANIFEST_DIR"))
}

fn text(name: &str) -> String {
    std::fs::read_to_string(format!("{}/{name}", dir())).expect("a ready scenario")
}

fn load(name: &str) -> State {
    let source = Source::new(format!("scenarios/liberal/{name}"), text(name));
    Liberal::new().load_scenario(&source).unwrap_or_else(|e| panic!("{name}: {e}")).state
}

/// The problems found in `text`, read as `bad.toml`.
fn problems(text: &str) -> Vec<Diagnostic> {
    Liberal::new()
        .load_scenario(&Source::new("bad.toml", text))
        .err()
        .map(|d| d.0)
        .unwrap_or_else(|| panic!("the scenario loads:\n{text}"))
}

/// The 1-based line and column where `needle` first starts in `text` at or after `from`.
fn at(text: &str, needle: &str, from: &str) -> (usize, usize) {
    let base = text.find(from).unwrap_or_else(|| panic!("no {from:?} in\n{text}"));
    let off = base + text[base..].find(needle).unwrap_or_else(|| panic!("no {needle:?}"));
    Source::new("bad.toml", text).line_col(off)
}

/// The one problem whose field is `field`, checked to be in `bad.toml` at `(line, column)`
/// and to say `says`.
fn located<'a>(
    all: &'a [Diagnostic],
    field: &str,
    (line, column): (usize, usize),
    says: &str,
) -> &'a Diagnostic {
    let d = all
        .iter()
        .find(|d| d.field == field && d.message.contains(says))
        .unwrap_or_else(|| panic!("no problem at {field} saying {says:?} in {all:#?}"));
    assert_eq!(d.file, "bad.toml", "{d:?}");
    assert_eq!((d.line, d.column), (line, column), "{d}");
    assert!(d.to_string().starts_with(&format!("bad.toml:{line}:{column}: {field}: ")), "{d}");
    d
}

/// Red infantry in the south and blue infantry in the north, both in line, well apart.
fn two_lines(extra: &str) -> String {
    scenario(
        "",
        &(unit("red", "infantry", 20.0, 10.0, 0.0, "")
            + &unit("blue", "infantry", 20.0, 38.0, 180.0, "")
            + extra),
    )
}

#[test]
fn every_ready_scenario_loads() {
    for name in READY {
        let st = load(name);
        for side in Side::BOTH {
            let n = st.units.iter().filter(|u| u.side == side).count();
            assert!((5..=8).contains(&n), "{name}: the {side} side has {n} units");
        }
    }
    // Every scenario in the folder is a ready one.
    let mut found: Vec<String> = std::fs::read_dir(dir())
        .expect("the scenario folder")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    found.sort();
    let mut want: Vec<String> = READY.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(found, want);
}

#[test]
fn the_ready_scenarios_together_field_every_troop_type_and_every_kind_of_ground() {
    let r = Liberal::new();
    let mut types = BTreeSet::new();
    let (mut square, mut houses, mut battery) = (false, false, false);
    let (mut areas, mut lines) = (BTreeSet::new(), BTreeSet::new());
    for name in READY {
        let st = load(name);
        for u in &st.units {
            match &u.gun {
                Some(g) => {
                    types.insert(r.data.guns[g.kind].id.clone());
                    battery = true;
                }
                None => {
                    types.insert(r.data.troops[u.troop].id.clone());
                }
            }
            square |= u.place.formation == Formation::Square;
        }
        for (i, a) in st.table.areas.iter().enumerate() {
            areas.insert(format!("{:?}", a.kind));
            houses |= a.kind == AreaKind::Village && st.houses[i] > 0;
        }
        for l in &st.table.lines {
            lines.insert(format!("{:?}", l.kind));
            assert!(!matches!(l.kind, LineKind::River | LineKind::Stream), "{name}: no water yet");
        }
        // Every house is named by a [[house]] entry (LIB-START-01: the scenario fixes them).
        let t = text(name);
        for a in st.table.areas.iter().filter(|a| a.kind == AreaKind::Village) {
            assert!(
                t.contains(&format!("area = \"{}\"", a.name)),
                "{name}: {} has no [[house]]",
                a.name
            );
        }
    }
    for ty in [
        "infantry",
        "grenadiers",
        "sharpshooters",
        "light_cavalry",
        "heavy_cavalry",
        "horse_artillery",
        "foot_artillery",
    ] {
        assert!(types.contains(ty), "no {ty} in {types:?}");
    }
    assert!(square, "a unit starts in square");
    assert!(houses && battery);
    for k in ["Wood", "Village", "Hill"] {
        assert!(areas.contains(k), "no {k} in {areas:?}");
    }
    for k in ["Wall", "Hedge"] {
        assert!(lines.contains(k), "no {k} in {lines:?}");
    }
    assert!(lines.contains("DirtRoad") || lines.contains("PavedRoad"), "no road in {lines:?}");
}

#[test]
fn lib_start_05_every_figure_of_every_ready_scenario_stands_within_18_inches_of_its_edge() {
    // LIB-START-05: the loader refuses deeper placements; this checks the files as written.
    let r = Liberal::new();
    for name in READY {
        let st = load(name);
        for u in &st.units {
            let south = st.side(u.side).south;
            for (_, p) in r.positions(u) {
                let d = if south { p.y } else { st.table.height - p.y };
                assert!((0.0..=18.0).contains(&d), "{name}: {} at {d:.1}\" (LIB-START-05)", u.name);
            }
        }
    }
}

#[test]
fn the_fuzz_seeds_are_copies_of_the_ready_scenarios() {
    for name in READY {
        let seed = std::fs::read_to_string(format!(
            "{}/../../fuzz/seeds/scenario_toml/liberal-{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap_or_else(|e| panic!("liberal-{name}: {e}"));
        assert_eq!(seed, text(name), "fuzz/seeds/scenario_toml/liberal-{name} is stale");
    }
}

#[test]
fn lib_start_02_an_unknown_unit_type_is_located_and_the_known_ones_listed() {
    let t = two_lines(&unit("red", "dragoons", 40.0, 10.0, 0.0, ""));
    let all = problems(&t);
    let d = located(&all, "unit[2].type", at(&t, "\"dragoons\"", "\"dragoons\""), "dragoons");
    for known in ["infantry", "heavy_cavalry", "foot_artillery"] {
        assert!(d.message.contains(known), "{d}");
    }
    assert!(!d.message.contains("artillerymen"), "the crew is no unit type: {d}");
    assert_eq!(all.len(), 1, "{all:#?}");
}

#[test]
fn lib_start_02_a_unit_of_no_figures_is_refused() {
    let t = two_lines(&unit("red", "grenadiers", 40.0, 10.0, 0.0, "figures = 0"));
    let all = problems(&t);
    located(&all, "unit[2].figures", at(&t, "0", "figures = "), "1 to 500 figures");
    assert_eq!(all.len(), 1, "{all:#?}");
}

#[test]
fn lib_start_01_a_unit_off_the_table_is_located() {
    let t = two_lines(&unit("red", "light_cavalry", 75.0, 10.0, 0.0, ""));
    let all = problems(&t);
    located(&all, "unit[2].at", at(&t, "[75.0, 10.0]", "[75.0"), "off the table");
}

#[test]
fn lib_start_05_a_unit_deeper_than_18_inches_from_its_edge_is_refused() {
    // Red's edge is the south: a line at y = 20 has its front rank 20" out (LIB-START-05).
    let t = two_lines(&unit("red", "infantry", 40.0, 20.0, 0.0, ""));
    let all = problems(&t);
    let d = located(&all, "unit[2].at", at(&t, "[40.0, 20.0]", "[40.0"), "LIB-START-05");
    assert!(d.message.contains("18"), "{d}");
    assert_eq!(all.len(), 1, "{all:#?}");
    // Blue's edge is the north: a square centred 16" out reaches past 18" (LIB-START-05).
    let t = two_lines(&unit("blue", "infantry", 40.0, 32.0, 180.0, "formation = \"square\""));
    let all = problems(&t);
    located(&all, "unit[2].at", at(&t, "[40.0, 32.0]", "[40.0"), "LIB-START-05");
    // Exactly 18" is allowed.
    let t = two_lines(&unit("red", "infantry", 40.0, 18.0, 0.0, ""));
    assert!(Liberal::new().load_scenario(&Source::new("ok.toml", t)).is_ok());
}

#[test]
fn lib_start_03_both_sides_on_the_same_edge_is_refused() {
    let t = two_lines("").replace("edge = \"north\"", "edge = \"south\"");
    let all = problems(&t);
    let d = all
        .iter()
        .find(|d| d.message.contains("opposite edges"))
        .unwrap_or_else(|| panic!("{all:#?}"));
    assert_eq!((d.file.as_str(), d.field.as_str()), ("bad.toml", "side"), "{d}");
    assert!(d.line > 0 && d.column > 0, "{d}");
    // At the first [[side]] header: the problem is with the pair, not one entry.
    assert_eq!((d.line, d.column), at(&t, "[[side]]", "[[side]]"), "{d}");
}

#[test]
fn lib_start_01_a_house_naming_no_village_area_is_located() {
    let extra = "[[area]]\nname = \"Copse\"\nkind = \"wood\"\npoints = [[50, 20], [60, 20], [60, 28]]\n\n\
                 [[area]]\nname = \"Mill\"\nkind = \"village\"\npoints = [[50, 30], [54, 30], [54, 34]]\n\n\
                 [[house]]\narea = \"Mill\"\ncapacity = 12\n\n\
                 [[house]]\narea = \"Copse\"\ncapacity = 12\n\n\
                 [[house]]\narea = \"Granary\"\ncapacity = 12\n\n";
    let t = two_lines(extra);
    let all = problems(&t);
    located(&all, "house[1].area", at(&t, "\"Copse\"", "area = \"Copse\""), "Copse");
    located(&all, "house[2].area", at(&t, "\"Granary\"", "area = \"Granary\""), "Granary");
    assert_eq!(all.len(), 2, "the mill is a house: {all:#?}");
}

#[test]
fn an_unknown_key_is_located_at_the_top_level_and_in_a_unit() {
    let t = two_lines(&unit("red", "infantry", 40.0, 10.0, 0.0, "colour = \"red\""))
        .replace("[scenario]", "weather = \"rain\"\n\n[scenario]");
    let all = problems(&t);
    let top =
        all.iter().find(|d| d.message.contains("weather")).unwrap_or_else(|| panic!("{all:#?}"));
    assert_eq!(top.field, "weather", "{top}");
    assert_eq!((top.line, top.column), at(&t, "weather", "weather"), "{top}");
    let inner =
        all.iter().find(|d| d.message.contains("colour")).unwrap_or_else(|| panic!("{all:#?}"));
    assert_eq!(inner.file, "bad.toml");
    assert!(inner.field.starts_with("unit[2]"), "{inner}");
    assert_eq!(inner.line, at(&t, "colour", "colour").0, "{inner}");
    assert!(inner.column > 0, "{inner}");
}

#[test]
fn overlapping_units_are_refused_where_the_second_stands() {
    let t = two_lines(&unit("red", "infantry", 22.0, 10.5, 0.0, ""));
    let all = problems(&t);
    let d = located(&all, "unit[2].at", at(&t, "[22.0, 10.5]", "[22.0"), "overlaps");
    assert!(d.message.contains("Inf 1"), "names the unit it overlaps: {d}");
    // Side by side, just clear, is fine.
    let t = two_lines(&unit("red", "infantry", 29.5, 10.0, 0.0, ""));
    assert!(Liberal::new().load_scenario(&Source::new("ok.toml", t)).is_ok());
}

#[test]
fn every_problem_is_reported_at_once() {
    let t = two_lines(
        &(unit("red", "dragoons", 40.0, 10.0, 0.0, "")
            + &unit("red", "infantry", 50.0, 10.0, 0.0, "figures = 0")
            + &unit("red", "infantry", 60.0, 30.0, 0.0, "")
            + &unit("blue", "infantry", 20.5, 38.5, 180.0, "")
            + "[[house]]\narea = \"Nowhere\"\ncapacity = 10\n"),
    );
    let all = problems(&t);
    for (field, says) in [
        ("unit[2].type", "dragoons"),
        ("unit[3].figures", "1 to 500"),
        ("unit[4].at", "LIB-START-05"),
        ("unit[5].at", "overlaps"),
        ("house[0].area", "Nowhere"),
    ] {
        let d = all
            .iter()
            .find(|d| d.field == field && d.message.contains(says))
            .unwrap_or_else(|| panic!("no {field}: {says} in {all:#?}"));
        assert!(d.file == "bad.toml" && d.line > 0 && d.column > 0, "{d}");
    }
}
