//! Army lists: points, the competition limit, the prototype rules; bad lists refused with the
//! rule and their line and column.
use tabletop::diagnostics::Source;
use wrg1969::Data;
use wrg1969::army::{LISTS, advise, culture_allows, embedded, load, regulars_allowed};
use wrg1969::model::*;

fn data() -> Data {
    Data::embedded().unwrap()
}

fn roman_with(from: &str, to: &str) -> Source {
    let (n, t) = LISTS[0];
    assert!(t.contains(from), "{from}");
    Source::new(n, t.replacen(from, to, 1))
}

#[test]
fn every_embedded_list_is_valid_and_within_800() {
    let d = data();
    for (n, t) in LISTS {
        let a = load(&d, &Source::new(n, t)).unwrap_or_else(|e| panic!("{n}:\n{e}"));
        assert!(a.competition, "{n}");
        assert!(a.points <= 800 && a.points > 650, "{n}: {}", a.points);
    }
}

// Checks WRG-ARMY-01.
#[test]
fn wrg_army_01_points_are_figures_times_price() {
    let d = data();
    let a = embedded(&d, "early_imperial_roman").unwrap().unwrap();
    // General 100; messengers 2 x 8; legion 56 x 4; auxilia 28 x 4; slingers 12 x 4;
    // alae 24 x 8; light horse 8 x 8; scorpions 2 x 15.
    assert_eq!(a.points, 100 + 16 + 224 + 112 + 48 + 192 + 64 + 30);
    let b = embedded(&d, "ancient_british").unwrap().unwrap();
    // General 100; messengers 12; chariots 150; warbands 100 x 3; slingers 72; horse 96; levy 60.
    assert_eq!(b.points, 100 + 12 + 150 + 300 + 72 + 96 + 60);
}

// Checks WRG-ARMY-02.
#[test]
fn wrg_army_02_over_800_points_is_refused() {
    let d = data();
    let s = roman_with(
        "name = \"Legio XX, first cohort\"\ntype = \"medium_infantry\"\nstatus = \"regular\"\nclass = \"b\"\nfigures = 20",
        "name = \"Legio XX, first cohort\"\ntype = \"medium_infantry\"\nstatus = \"regular\"\nclass = \"b\"\nfigures = 40",
    );
    let e = load(&d, &s).unwrap_err().to_string();
    assert!(e.contains("[WRG-ARMY-02]") && e.contains("866 points"), "{e}");
    assert!(e.contains("early_imperial_roman.toml:5:15: competition"), "{e}");
    // The same list outside competition is fine.
    let s = roman_with("competition = true", "competition = false");
    assert!(load(&d, &s).is_ok());
}

// Checks WRG-ARMY-03.
#[test]
fn wrg_army_03_troops_the_prototype_did_not_have() {
    let d = data();
    let s = roman_with("type = \"light_cavalry\"", "type = \"light_camelry\"");
    let e = load(&d, &s).unwrap_err().to_string();
    assert!(e.contains("[WRG-ARMY-03] a Early Imperial Roman army had no light_camelry"), "{e}");
    assert!(e.contains(": unit[8].type:"), "{e}");
    let s = roman_with("prototype = \"early_imperial_roman\"", "prototype = \"atlantean\"");
    assert!(load(&d, &s).unwrap_err().to_string().contains("[WRG-ARMY-03] unknown prototype"));
}

// Checks WRG-ARMY-04.
#[test]
fn wrg_army_04_elephants_only_hellenistic_persian_indian() {
    assert!(culture_allows(&[Culture::Hellenistic], TroopType::Elephant, None).is_ok());
    assert!(culture_allows(&[Culture::Persian], TroopType::Elephant, None).is_ok());
    assert!(culture_allows(&[Culture::Indian], TroopType::Elephant, None).is_ok());
    assert_eq!(
        culture_allows(&[Culture::Roman], TroopType::Elephant, None).unwrap_err().0,
        "WRG-ARMY-04"
    );
}

// Checks WRG-ARMY-05.
#[test]
fn wrg_army_05_super_heavy_cavalry() {
    for c in [Culture::Persian, Culture::LateRoman, Culture::Sarmatian] {
        assert!(culture_allows(&[c], TroopType::SuperHeavyCavalry, None).is_ok());
    }
    assert_eq!(
        culture_allows(&[Culture::Gallic], TroopType::SuperHeavyCavalry, None).unwrap_err().0,
        "WRG-ARMY-05"
    );
}

// Checks WRG-ARMY-06.
#[test]
fn wrg_army_06_chariots_of_the_right_type() {
    assert!(
        culture_allows(&[Culture::British], TroopType::Chariot, Some(ChariotKind::Celtic)).is_ok()
    );
    assert!(
        culture_allows(&[Culture::Persian], TroopType::Chariot, Some(ChariotKind::Asiatic)).is_ok()
    );
    assert_eq!(
        culture_allows(&[Culture::British], TroopType::Chariot, Some(ChariotKind::Asiatic))
            .unwrap_err()
            .0,
        "WRG-ARMY-06"
    );
    assert_eq!(
        culture_allows(&[Culture::German], TroopType::Chariot, None).unwrap_err().0,
        "WRG-ARMY-06"
    );
    let d = data();
    let (n, t) = LISTS[1];
    let s = Source::new(n, t.replacen("chariot = \"celtic\"", "chariot = \"asiatic\"", 1));
    assert!(load(&d, &s).unwrap_err().to_string().contains("[WRG-ARMY-06]"));
}

// Checks WRG-ARMY-07.
#[test]
fn wrg_army_07_artillery_only_roman_greek_sassanid() {
    for c in [Culture::Roman, Culture::Greek, Culture::Sassanid] {
        assert!(culture_allows(&[c], TroopType::StoneThrower, None).is_ok());
    }
    assert_eq!(
        culture_allows(&[Culture::Persian], TroopType::LightDartEngine, None).unwrap_err().0,
        "WRG-ARMY-07"
    );
}

// Checks WRG-SCALE-15.
#[test]
fn wrg_scale_15_regulars() {
    assert!(regulars_allowed(&[Culture::Roman], Regulars::All).is_ok());
    assert!(regulars_allowed(&[Culture::Carthaginian], Regulars::Third).is_ok());
    assert_eq!(regulars_allowed(&[Culture::Persian], Regulars::All).unwrap_err().0, "WRG-SCALE-15");
    assert_eq!(
        regulars_allowed(&[Culture::Gallic], Regulars::Third).unwrap_err().0,
        "WRG-SCALE-15"
    );
    let d = data();
    // A regular unit in a barbarian army.
    let (n, t) = LISTS[2];
    let s = Source::new(
        n,
        t.replacen(
            "status = \"barbarian\"\nclass = \"d\"\nfigures = 16",
            "status = \"regular\"\nclass = \"d\"\nfigures = 16",
            1,
        ),
    );
    let e = load(&d, &s).unwrap_err().to_string();
    assert!(
        e.contains("[WRG-SCALE-15] a Gallic army has no regulars") && e.contains("unit[1].status"),
        "{e}"
    );
    // More than a third of a Carthaginian army regular.
    let (n, t) = LISTS[5];
    let s = Source::new(n, t.replacen("figures = 16", "figures = 24", 1));
    let e = load(&d, &s).unwrap_err().to_string();
    assert!(e.contains("[WRG-SCALE-15] regulars are 308 of 798 points"), "{e}");
    let a = embedded(&d, "carthaginian").unwrap().unwrap();
    assert!(3 * a.regular_points <= a.points);
}

#[test]
fn unknown_fields_and_bad_values_are_located() {
    let d = data();
    let s = roman_with(
        "figures = 12\nmelee = \"missile_infantry\"\nmissile = \"sling\"",
        "figures = 12\nmelee = \"missile_infantry\"\nmissile = \"slingshot\"",
    );
    let e = load(&d, &s).unwrap_err().to_string();
    assert!(e.contains("unit[5].missile") && e.contains("early_imperial_roman.toml:"), "{e}");
    let s = roman_with("[general]", "colour = \"red\"\n\n[general]");
    let e = load(&d, &s).unwrap_err().to_string();
    assert!(e.contains("unknown top-level key `colour`"), "{e}");
}

// Checks WRG-ARMY-10.
#[test]
fn wrg_army_10_roman_proportions_advised() {
    let d = data();
    let a = embedded(&d, "early_imperial_roman").unwrap().unwrap();
    let adv = advise(&d, &a);
    // 256 of 670 unit points are cavalry: more than a third (3 x 256 = 768 > 670).
    assert!(adv.iter().any(|x| x.starts_with("[WRG-ARMY-10] cavalry are 256 of 670")), "{adv:?}");
    // Light troops and archers: 24 of 96 infantry figures, a quarter: no advice on that.
    assert!(!adv.iter().any(|x| x.contains("light troops")), "{adv:?}");
    let mut b = a.clone();
    b.units.retain(|u| !u.troop.is_cavalry());
    assert!(advise(&d, &b).iter().any(|x| x.contains("cavalry are 0 of")));
}

// Checks WRG-ARMY-11.
#[test]
fn wrg_army_11_unit_sizes_advised() {
    let d = data();
    let mut a = embedded(&d, "german").unwrap().unwrap();
    assert!(advise(&d, &a).is_empty(), "{:?}", advise(&d, &a));
    a.units[0].figures = 6;
    assert!(advise(&d, &a).iter().any(|x| x.starts_with("[WRG-ARMY-11] Comitatus")));
}

// Checks WRG-SCALE-09.
#[test]
fn wrg_scale_09_sword_armed_figures_carry_their_usual_missiles() {
    // The lists give legionaries their pila and British warriors their light javelins.
    let d = data();
    let rome = embedded(&d, "early_imperial_roman").unwrap().unwrap();
    assert!(
        rome.units
            .iter()
            .filter(|u| u.melee == MeleeClass::PilumInfantry)
            .all(|u| u.missile == Some(MissileWeapon::HandHurled))
    );
    let brit = embedded(&d, "ancient_british").unwrap().unwrap();
    assert!(
        brit.units
            .iter()
            .filter(|u| u.troop == TroopType::MediumInfantry)
            .all(|u| u.missile == Some(MissileWeapon::HandHurled))
    );
}

// Checks WRG-SCALE-06.
#[test]
fn wrg_scale_06_command_figures_count_and_cost_as_the_units_type() {
    let d = data();
    let plain = embedded(&d, "early_imperial_roman").unwrap().unwrap();
    let with = load(
        &d,
        &roman_with(
            "figures = 20\nmelee = \"pilum_infantry\"",
            "figures = 20\ncommand = 3\nmelee = \"pilum_infantry\"",
        ),
    )
    .unwrap();
    // Officer, standard-bearer and musician are three of the cohort's 20 legionaries.
    assert_eq!(with.units[0].command, 3);
    assert_eq!(with.units[0].figures, 20);
    assert_eq!(with.points, plain.points);
    let e = load(
        &d,
        &roman_with(
            "figures = 20\nmelee = \"pilum_infantry\"",
            "figures = 20\ncommand = 21\nmelee = \"pilum_infantry\"",
        ),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("unit[0].command") && e.contains("[WRG-SCALE-06]"), "{e}");
}

// Checks WRG-SCALE-08.
#[test]
fn wrg_scale_08_figures_use_the_weapons_they_carry() {
    let d = data();
    // The list says what the figures carry; in play the unit shoots and fights with exactly
    // that. The cohort throws pila; without them it has no missile at all.
    let a = embedded(&d, "early_imperial_roman").unwrap().unwrap();
    assert_eq!(a.units[0].missile, Some(MissileWeapon::HandHurled));
    assert_eq!(a.units[0].melee, MeleeClass::PilumInfantry);
    let bare = load(&d, &roman_with("missile = \"hand_hurled\"\n", "")).unwrap();
    assert_eq!(bare.units[0].missile, None);
    // A weapon no figure of that type can carry is refused at its line.
    let e = load(&d, &roman_with("missile = \"hand_hurled\"", "missile = \"longbow\""))
        .unwrap_err()
        .to_string();
    assert!(e.contains("unit[0].missile"), "{e}");
}

// Checks WRG-ARMY-08.
#[test]
fn wrg_army_08_the_same_army_in_every_round_of_the_finals() {
    let d = data();
    let path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/wrg1969/championship/finals.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let c = wrg1969::championship::load(&d, &Source::new("finals.toml", text.clone())).unwrap();
    assert_eq!(c.entries.len(), 4);
    // Boudica changes her army in round 2.
    let i = text.rfind("ancient_british").unwrap();
    let changed = format!("{}gallic{}", &text[..i], &text[i + "ancient_british".len()..]);
    let e = wrg1969::championship::load(&d, &Source::new("finals.toml", changed))
        .unwrap_err()
        .to_string();
    assert!(e.contains("[WRG-ARMY-08]") && e.contains("entry[3].army"), "{e}");
    // An army that is not a list at all is refused too.
    let unknown = text.replacen("early_imperial_roman", "byzantine", 1);
    let e = wrg1969::championship::load(&d, &Source::new("finals.toml", unknown))
        .unwrap_err()
        .to_string();
    assert!(e.contains("no army list `byzantine`"), "{e}");
}
