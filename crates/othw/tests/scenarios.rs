//! The ready scenarios together field every troop type of the rules' generic table, every
//! trait and special, both named generals and every kind of terrain; each loads and validates,
//! and the historical battles' starting army morale follows OTHW-VIC-01.
mod common;
use common::*;
use othw::data::{Class, Special};
use std::collections::BTreeSet;
use tabletop::grid::CellTerrain;
use tabletop::rules::Side;

const READY: [&str; 7] = [
    "open_field.toml",
    "river_ford.toml",
    "hills_woods.toml",
    "generic.toml",
    "gaugamela.toml",
    "raphia.toml",
    "zama.toml",
];

/// Every ready scenario file in the folder is one of [`READY`] (a new one must be added here,
/// to the engine's unit tests' list and to the harness).
#[test]
fn every_ready_scenario_is_listed() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/othw");
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .expect("the folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    found.sort();
    let mut listed: Vec<String> = READY.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(found, listed);
}

/// Checks OTHW-TRT-01 to TRT-13, STAT-07 and M-06 against the ready scenarios: together they
/// field every generic troop type, every special, both named generals and every terrain.
#[test]
fn othw_trt_the_ready_scenarios_field_every_type_trait_general_and_terrain() {
    let r = rules();
    let (mut types, mut specials, mut generals, mut terrain) =
        (BTreeSet::new(), BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    let mut indian_meets_african = false;
    for name in READY {
        let sc = load(&ready(name));
        for u in &sc.units {
            types.insert(u.ty.name.to_string());
            specials.extend(u.ty.specials.list());
        }
        for s in &sc.sides {
            if let Some(g) = &s.general {
                generals.insert(g.name.clone());
            }
        }
        for c in &sc.board.grid.cells {
            terrain.insert(format!("{:?}", c.terrain));
        }
        let has = |side: Side, sp: Special| {
            sc.units.iter().any(|u| u.side == side && u.ty.specials.has(sp))
        };
        indian_meets_african |= (has(Side::Red, Special::Indian)
            && has(Side::Blue, Special::African))
            || (has(Side::Blue, Special::Indian) && has(Side::Red, Special::African));
    }
    for t in &r.data.roster("generic").expect("the generic roster").types {
        assert!(types.contains(&*t.name), "no ready scenario fields {}", t.name);
    }
    for sp in Special::ALL {
        assert!(specials.contains(&sp), "no ready scenario fields {}", sp.name());
    }
    for g in ["Hannibal", "Alexander", "Generic general"] {
        assert!(generals.contains(g), "no ready scenario has {g}");
    }
    for t in [
        CellTerrain::Open,
        CellTerrain::Wood,
        CellTerrain::Hill,
        CellTerrain::River,
        CellTerrain::Ford,
    ] {
        assert!(terrain.contains(&format!("{t:?}")), "no ready scenario has {t:?}");
    }
    assert!(indian_meets_african, "Indian elephants face African ones somewhere");
    // Each class of troops is there too.
    let classes: BTreeSet<String> = READY
        .iter()
        .flat_map(|n| load(&ready(n)).units.into_iter().map(|u| format!("{:?}", u.ty.class)))
        .collect();
    for c in [
        Class::Skirmisher,
        Class::Infantry,
        Class::Cavalry,
        Class::LightCavalry,
        Class::Elephant,
        Class::Chariot,
    ] {
        assert!(classes.contains(&format!("{c:?}")), "{c:?}");
    }
}

/// Checks OTHW-VIC-01 and STAT-07 on the historical battles: skirmishers are left out, and the
/// named generals add 2.
#[test]
fn othw_vic_01_the_historical_battles_start_with_the_army_morale_of_their_lists() {
    for (name, red, blue) in [
        ("gaugamela.toml", 3 + 4 + 2, 4 + 4 + 1),
        ("raphia.toml", 8, 8),
        ("zama.toml", 8, 3 + 4 + 2),
    ] {
        let text = ready(name).replace("first = \"roll\"", "first = \"red\"");
        let st = state(&text);
        assert_eq!((st.side(Side::Red).am, st.side(Side::Blue).am), (red, blue), "{name}");
    }
}
