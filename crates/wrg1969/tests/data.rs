//! The tables: they load, hold the source's numbers, and refuse bad data with file:line:col.
use tabletop::diagnostics::Source;
use wrg1969::Data;
use wrg1969::data::{EMBEDDED, Slowdown};
use wrg1969::model::*;

fn data() -> Data {
    Data::embedded().unwrap_or_else(|e| panic!("{e}"))
}

fn sources_with(file: usize, from: &str, to: &str) -> Vec<Source> {
    EMBEDDED
        .iter()
        .enumerate()
        .map(|(i, (n, t))| {
            let t = if i == file {
                assert!(t.contains(from), "{from} not in {n}");
                t.replacen(from, to, 1)
            } else {
                t.to_string()
            };
            Source::new(*n, t)
        })
        .collect()
}

#[test]
fn embedded_tables_load() {
    let d = data();
    assert_eq!(d.selected["t7_elephant_vs_li"], "typeset");
}

// Checks WRG-SCALE-16.
#[test]
fn wrg_scale_16_base_frontages() {
    let d = data();
    assert_eq!(d.base(TroopType::LightInfantry).front, 0.75);
    assert_eq!(d.base(TroopType::HeavyInfantry).front, 0.5);
    assert_eq!(d.base(TroopType::MediumInfantry).depth, 0.75);
    assert_eq!(d.base(TroopType::LightCavalry).front, 1.125);
    assert_eq!(d.base(TroopType::LightCavalry).depth, 1.5);
    assert_eq!(d.base(TroopType::SuperHeavyCavalry).front, 0.75);
    assert_eq!(d.base(TroopType::Elephant).front, 1.5);
    assert!(!d.base(TroopType::Elephant).depth_in_source);
    // Three heavy infantry fill a 1.5" base, as do two light infantry.
    assert_eq!(3.0 * d.base(TroopType::HeavyInfantry).front, 1.5);
    assert_eq!(2.0 * d.base(TroopType::LightInfantry).front, 1.5);
}

// Checks WRG-ARMY-01.
#[test]
fn wrg_army_01_points_per_figure() {
    let d = data();
    use Status::*;
    use TroopType::*;
    assert_eq!(d.general_price(Regular), 100);
    assert_eq!(d.general_price(Barbarian), 100);
    assert_eq!(d.price(Elephant, Barbarian), 25);
    assert_eq!(d.price(HeavyDartEngine, Regular), 25);
    assert_eq!(d.price(StoneThrower, Regular), 25);
    assert_eq!(d.price(Chariot, Barbarian), 15);
    assert_eq!(d.price(LightDartEngine, Regular), 15);
    assert_eq!(
        (d.price(SuperHeavyCavalry, Regular), d.price(SuperHeavyCavalry, Barbarian)),
        (12, 15)
    );
    assert_eq!((d.price(HeavyCavalry, Regular), d.price(HeavyCavalry, Barbarian)), (10, 12));
    assert_eq!((d.price(MediumCavalry, Regular), d.price(LightCavalry, Barbarian)), (8, 6));
    assert_eq!((d.price(HeavyInfantry, Regular), d.price(HeavyInfantry, Barbarian)), (8, 9));
    assert_eq!((d.price(MediumInfantry, Regular), d.price(LightInfantry, Barbarian)), (4, 3));
    // Camels are priced as the equivalent cavalry (WRG-M-04).
    assert_eq!(d.price(HeavyCamelry, Barbarian), 12);
}

// Checks WRG-MOVE-02.
#[test]
fn wrg_move_02_normal_and_charge_moves() {
    let d = data();
    use TroopType::*;
    let rows = [
        (SuperHeavyCavalry, 6.0, 16.0),
        (HeavyCavalry, 8.0, 18.0),
        (MediumCavalry, 8.0, 20.0),
        (LightCavalry, 16.0, 24.0),
        (Chariot, 8.0, 18.0),
        (MediumCamelry, 8.0, 18.0),
        (Elephant, 4.0, 6.0),
        (HeavyInfantry, 4.0, 6.0),
        (MediumInfantry, 6.0, 8.0),
        (LightInfantry, 8.0, 10.0),
    ];
    for (t, n, c) in rows {
        assert_eq!((d.moves(t).normal, d.moves(t).charge), (n, Some(c)), "{t}");
    }
    assert_eq!(d.moves(LightDartEngine).normal, 4.0);
    assert_eq!(d.moves(LightDartEngineMule).normal, 6.0);
    assert_eq!(d.moves(StoneThrower).normal, 2.0);
    assert_eq!(d.moves(HeavyDartEngine).charge, None);
}

// Checks WRG-SCALE-01.
#[test]
fn wrg_scale_01_yards_convert_at_ten_to_the_inch() {
    // Every range in T5 is its yard figure / 10.
    let d = data();
    let yards = [
        (MissileWeapon::HandHurled, 30.0),
        (MissileWeapon::MountedSelfBow, 60.0),
        (MissileWeapon::MountedCompositeBow, 90.0),
        (MissileWeapon::Sling, 120.0),
        (MissileWeapon::FootSelfBow, 150.0),
        (MissileWeapon::FootCompositeBow, 180.0),
        (MissileWeapon::StaffSling, 180.0),
        (MissileWeapon::Crossbow, 210.0),
        (MissileWeapon::LightDartEngine, 300.0),
        (MissileWeapon::HeavyDartEngine, 360.0),
        (MissileWeapon::StoneThrower, 360.0),
    ];
    for (w, y) in yards {
        assert_eq!(d.weapon(w).range, y / 10.0, "{w}");
    }
    assert_eq!(d.movement.distances.step_back, 3.0); // 30 yards
    assert_eq!(d.movement.distances.mounted_fall_back, 10.0); // 100 yards
}

// Checks WRG-R-45.
#[test]
fn wrg_r_45_variants_patch_the_doubtful_cells() {
    let d = data();
    assert_eq!(d.melee_row(MeleeClass::Elephant).factors.li, 5);
    let v = d.with_variant("t7_elephant_vs_li", "quick_reference").unwrap();
    assert_eq!(v.melee_row(MeleeClass::Elephant).factors.li, 3);
    assert_eq!(v.selected["t7_elephant_vs_li"], "quick_reference");
    let v = d.with_variant("t8_twelve_sixteen", "printed").unwrap();
    assert_eq!(v.casualties.row.last().unwrap().men[15], 207);
    let v = d.with_variant("t8_zero_fifteen", "upper").unwrap();
    assert_eq!(v.casualties.row[5].men[14], 10);
    let v = d.with_variant("chariot_evade", "quick_reference").unwrap();
    assert_eq!(v.moves(TroopType::Chariot).evade, Some(5.0));
    let v = d.with_variant("rout_slowdown", "flat").unwrap();
    assert_eq!(v.movement.rout.slowdown, Slowdown::Flat);
    let v = d.with_variant("push_back", "reaction_aside").unwrap();
    assert_eq!(v.movement.distances.push_back, 2.5);
    assert!(d.with_variant("t7_elephant_vs_li", "guess").unwrap_err().contains("typeset"));
    assert!(d.with_variant("nonsense", "x").is_err());
}

#[test]
fn an_unknown_field_is_reported_at_its_line() {
    let s = sources_with(
        0,
        "[base.light_infantry]\nfront = 0.75",
        "[base.light_infantry]\nfrontage = 0.75",
    );
    let e = Data::from_sources(&s).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("crates/wrg1969/data/bases.toml:6:1"), "{text}");
}

#[test]
fn a_falling_casualty_row_is_refused() {
    let s = sources_with(6, "men = [1, 3, 4, 5, 6, 8,", "men = [1, 3, 2, 5, 6, 8,");
    let e = Data::from_sources(&s).unwrap_err().to_string();
    assert!(e.contains("casualties.toml:") && e.contains("cannot fall"), "{e}");
}

#[test]
fn a_gap_in_a_reaction_chart_is_refused() {
    let s = sources_with(8, "a = { min = 4, max = 13 }", "a = { min = 5, max = 13 }");
    let e = Data::from_sources(&s).unwrap_err().to_string();
    assert!(e.contains("reaction.toml:") && e.contains("chart1[3].a"), "{e}");
}

#[test]
fn a_variant_default_that_disagrees_with_the_table_is_refused() {
    let s = sources_with(5, "hi = 5, mi = 5, li = 5", "hi = 5, mi = 5, li = 4");
    let e = Data::from_sources(&s).unwrap_err().to_string();
    assert!(e.contains("variants.toml") && e.contains("t7_elephant_vs_li"), "{e}");
}

// Checks WRG-SCALE-04 (R-47: a selectable reading, not for competition).
#[test]
fn wrg_scale_04_the_one_mm_scale_doubles_moves_and_makes_figures_fifty_men() {
    let d = data();
    let big = d.with_variant("scale", "one_mm_one_yard").unwrap();
    assert_eq!(big.casualties.men_per_figure, 50);
    // Light cavalry at the standard scale, then at 1 mm = 1 yard.
    let (lc, lc_big) = (d.moves(TroopType::LightCavalry), big.moves(TroopType::LightCavalry));
    assert_eq!(lc_big.normal, 2.0 * lc.normal);
    assert_eq!(lc_big.charge, Some(lc.charge.unwrap() + lc.normal));
    // Troops that may not charge keep no charge.
    let engine = big.moves(TroopType::StoneThrower);
    assert_eq!(engine.charge, d.moves(TroopType::StoneThrower).charge);
    // 60 men lost take one figure of 50 and carry 10.
    let r = wrg1969::casualty::remove(&big, 10, 0, 60);
    assert_eq!((r.figures_removed, r.carried), (1, 10));
    // Selecting it twice changes nothing more; the standard scale restores the listed moves.
    let twice = big.with_variant("scale", "one_mm_one_yard").unwrap();
    assert_eq!(twice.moves(TroopType::LightCavalry), lc_big);
    let back = twice.with_variant("scale", "standard").unwrap();
    assert_eq!(back.moves(TroopType::LightCavalry), lc);
    assert_eq!(back.casualties.men_per_figure, 20);
}
