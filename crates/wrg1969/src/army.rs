//! Army lists: points per figure, the 800-point competition limit, and the rule that an army
//! uses only troops its prototype had (WRG-ARMY-01 .. -07, -10, -11, WRG-SCALE-15).
//!
//! A list is a TOML file:
//!
//! ```toml
//! ruleset = "wrg1969"
//! name = "Early Imperial Roman"
//! prototype = "early_imperial_roman"   # a row of data/prototypes.toml
//! competition = true                   # hold it to the 800-point limit
//! messengers = 2                       # light cavalry figures for carrying orders
//!
//! [general]
//! type = "heavy_cavalry"
//! status = "regular"
//! melee = "conventional_cavalry"
//!
//! [[unit]]
//! name = "Legio XX, first cohort"
//! type = "medium_infantry"
//! status = "regular"
//! class = "b"
//! figures = 20
//! melee = "pilum_infantry"
//! missile = "hand_hurled"
//! ```
//!
//! Every problem is reported with its file, line and column, and cites its rule.

use crate::Data;
use crate::model::*;
use serde::{Deserialize, Serialize};
use tabletop::diagnostics::{Diagnostics, FieldPath, RULESET_KEY, Source, TomlDoc};

/// The embedded army lists, by name in the repository.
pub const LISTS: [(&str, &str); 11] = [
    (
        "crates/wrg1969/data/armies/early_imperial_roman.toml",
        include_str!("../data/armies/early_imperial_roman.toml"),
    ),
    (
        "crates/wrg1969/data/armies/ancient_british.toml",
        include_str!("../data/armies/ancient_british.toml"),
    ),
    ("crates/wrg1969/data/armies/gallic.toml", include_str!("../data/armies/gallic.toml")),
    ("crates/wrg1969/data/armies/german.toml", include_str!("../data/armies/german.toml")),
    ("crates/wrg1969/data/armies/parthian.toml", include_str!("../data/armies/parthian.toml")),
    (
        "crates/wrg1969/data/armies/carthaginian.toml",
        include_str!("../data/armies/carthaginian.toml"),
    ),
    (
        "crates/wrg1969/data/armies/greek_hoplite.toml",
        include_str!("../data/armies/greek_hoplite.toml"),
    ),
    ("crates/wrg1969/data/armies/late_roman.toml", include_str!("../data/armies/late_roman.toml")),
    (
        "crates/wrg1969/data/armies/sassanid_persian.toml",
        include_str!("../data/armies/sassanid_persian.toml"),
    ),
    (
        "crates/wrg1969/data/armies/severan_roman.toml",
        include_str!("../data/armies/severan_roman.toml"),
    ),
    (
        "crates/wrg1969/data/armies/late_parthian.toml",
        include_str!("../data/armies/late_parthian.toml"),
    ),
];

/// Whether a culture may field a troop type: elephants only Hellenistic, Persian or Indian
/// armies; super-heavy cavalry only Persian, late Roman or Sarmatian; chariots only Persian
/// (Asiatic) or British (Celtic); engines only Roman, Greek or late Sassanid
/// (WRG-ARMY-04 .. -07).
pub fn culture_allows(
    cultures: &[Culture],
    troop: TroopType,
    chariot: Option<ChariotKind>,
) -> Result<(), (&'static str, String)> {
    use Culture as C;
    let has = |c: &[C]| cultures.iter().any(|x| c.contains(x));
    match troop {
        TroopType::Elephant if !has(&[C::Hellenistic, C::Persian, C::Indian]) => {
            Err(("WRG-ARMY-04", "only Hellenistic, Persian or Indian armies have elephants".into()))
        }
        TroopType::SuperHeavyCavalry if !has(&[C::Persian, C::LateRoman, C::Sarmatian]) => Err((
            "WRG-ARMY-05",
            "only Persian, late Roman or Sarmatian armies have super-heavy cavalry".into(),
        )),
        TroopType::Chariot => {
            let ok = match chariot {
                None => has(&[C::Persian, C::British]),
                Some(ChariotKind::Asiatic) => has(&[C::Persian]),
                Some(ChariotKind::Celtic) => has(&[C::British]),
            };
            if ok {
                Ok(())
            } else {
                Err((
                    "WRG-ARMY-06",
                    "only Persian armies have (Asiatic) chariots and only British armies (Celtic) ones".into(),
                ))
            }
        }
        t if t.is_engine() && !has(&[C::Roman, C::Greek, C::Sassanid]) => {
            Err(("WRG-ARMY-07", "only Roman, Greek or late Sassanid armies have artillery".into()))
        }
        _ => Ok(()),
    }
}

/// Whether a culture may have the regulars a prototype claims: all for Greeks and Romans, a
/// third for Persians, Carthaginians and Assyrians, none for anyone else (WRG-SCALE-15).
pub fn regulars_allowed(cultures: &[Culture], r: Regulars) -> Result<(), (&'static str, String)> {
    use Culture as C;
    let has = |c: &[C]| cultures.iter().any(|x| c.contains(x));
    let most = if has(&[C::Roman, C::Greek]) {
        Regulars::All
    } else if has(&[C::Persian, C::Carthaginian, C::Assyrian]) {
        Regulars::Third
    } else {
        Regulars::None
    };
    let rank = |r: Regulars| match r {
        Regulars::None => 0,
        Regulars::Third => 1,
        Regulars::All => 2,
    };
    if rank(r) > rank(most) {
        Err(("WRG-SCALE-15", format!("these cultures may have {most} regulars, not {r}")))
    } else {
        Ok(())
    }
}

fn yes() -> bool {
    true
}

/// The General's figure as listed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct General {
    /// The type of figure he is modelled as (WRG-M-01).
    #[serde(rename = "type")]
    pub troop: TroopType,
    /// Regular or barbarian.
    pub status: Status,
    /// His hand-to-hand class.
    pub melee: MeleeClass,
    /// His missile weapon, if any.
    #[serde(default)]
    pub missile: Option<MissileWeapon>,
}

/// One unit as listed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Its name.
    pub name: String,
    /// Its troop type.
    #[serde(rename = "type")]
    pub troop: TroopType,
    /// Regular or barbarian.
    pub status: Status,
    /// Its reaction class.
    pub class: ReactionClass,
    /// Its figures.
    pub figures: u32,
    /// Its hand-to-hand class.
    pub melee: MeleeClass,
    /// Its missile weapon, if any.
    #[serde(default)]
    pub missile: Option<MissileWeapon>,
    /// It carries shields (WRG-SCALE-14).
    #[serde(default = "yes")]
    pub shield: bool,
    /// Cavalry armoured head to foot (WRG-SHLD-03).
    #[serde(default)]
    pub fully_armoured: bool,
    /// The kind of chariot (chariots only).
    #[serde(default)]
    pub chariot: Option<ChariotKind>,
    /// An Asiatic levy (throws ordinary reaction dice, WRG-M-16).
    #[serde(default)]
    pub levy: bool,
    /// Officer, standard-bearer and musician figures among its figures: they count, cost and
    /// fight as the unit's own type (WRG-SCALE-06).
    #[serde(default)]
    pub command: u32,
}

/// A validated army.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Army {
    /// Its name.
    pub name: String,
    /// Its prototype's id.
    pub prototype: String,
    /// Held to the competition limit.
    pub competition: bool,
    /// Messenger figures (light cavalry, WRG-M-02).
    pub messengers: u32,
    /// The General.
    pub general: General,
    /// The units.
    pub units: Vec<Unit>,
    /// Total points (WRG-ARMY-01).
    pub points: u32,
    /// Points of regular troops.
    pub regular_points: u32,
}

/// The list's head: its top-level keys.
struct Head {
    name: String,
    prototype: String,
    competition: bool,
    messengers: u32,
}

/// The most figures in one unit (a sanity limit; no ancient unit comes near it).
pub const MAX_FIGURES: u32 = 1000;

/// The most messengers a list may have (WRG-M-02).
pub const MAX_MESSENGERS: u32 = 4;

/// Points of one unit (WRG-ARMY-01).
pub fn unit_points(data: &Data, u: &Unit) -> u32 {
    u.figures.saturating_mul(data.price(u.troop, u.status))
}

/// Reads and validates an army list, reporting every problem with its line and column.
pub fn load(data: &Data, source: &Source) -> Result<Army, Diagnostics> {
    let doc = TomlDoc::parse(source)?;
    let mut p = doc.problems();
    doc.check_top_level_keys(
        &[RULESET_KEY, "name", "prototype", "competition", "messengers", "general", "unit"],
        &mut p,
    );
    doc.check_ruleset(crate::ID, &mut p);
    let head: Option<Head> = {
        // Read each head field through the located reader.
        let name: Option<String> = doc.section("name", &mut p);
        let prototype: Option<String> = doc.section("prototype", &mut p);
        let competition: Option<bool> = doc.optional_section("competition", &mut p);
        let messengers: Option<u32> = doc.optional_section("messengers", &mut p);
        match (name, prototype) {
            (Some(name), Some(prototype)) => Some(Head {
                name,
                prototype,
                competition: competition.unwrap_or(false),
                messengers: messengers.unwrap_or(0),
            }),
            _ => None,
        }
    };
    let general: Option<General> = doc.section("general", &mut p);
    let units: Vec<(usize, Unit)> = doc.array("unit", &mut p);
    if units.is_empty() && !doc.contains("unit") {
        p.error(FieldPath::root(), "an army needs at least one `[[unit]]`");
    }
    let Some(head) = head else {
        return p.finish().and(Err(Diagnostics::default()));
    };
    let proto = data.prototypes.prototype.get(&head.prototype);
    if proto.is_none() {
        let known: Vec<&str> = data.prototypes.prototype.keys().map(String::as_str).collect();
        p.error(
            "prototype",
            format!("[WRG-ARMY-03] unknown prototype; known: {}", known.join(", ")),
        );
    }
    if head.messengers > MAX_MESSENGERS {
        p.error("messengers", format!("at most {MAX_MESSENGERS} messengers (WRG-M-02)"));
    }
    let mut points = 0u32;
    let mut regular_points = 0u32;
    if let Some(g) = &general {
        let gp = data.general_price(g.status);
        points += gp;
        if g.status == Status::Regular {
            regular_points += gp;
        }
        if let Some(pr) = proto
            && !pr.troops.contains(&g.troop)
        {
            p.error(
                ("general", 0, "type").into_general(),
                format!(
                    "[WRG-ARMY-03] a {} army had no {} for its General to ride or march with",
                    pr.name, g.troop
                ),
            );
        }
        let mp = head.messengers.saturating_mul(data.price(TroopType::LightCavalry, g.status));
        points = points.saturating_add(mp);
        if g.status == Status::Regular {
            regular_points = regular_points.saturating_add(mp);
        }
    }
    for (i, u) in &units {
        let up = unit_points(data, u);
        points = points.saturating_add(up);
        if u.status == Status::Regular {
            regular_points = regular_points.saturating_add(up);
        }
        if u.figures == 0 || u.figures > MAX_FIGURES {
            p.error(("unit", *i, "figures"), format!("a unit has 1 to {MAX_FIGURES} figures"));
        }
        if u.command > u.figures {
            p.error(
                ("unit", *i, "command"),
                format!(
                    "[WRG-SCALE-06] command figures are counted among the unit's {} figures",
                    u.figures
                ),
            );
        }
        if (u.troop == TroopType::Chariot) != u.chariot.is_some() {
            p.error(
                ("unit", *i, "chariot"),
                "chariots, and only chariots, say which kind they are (asiatic or celtic)",
            );
        }
        if u.fully_armoured && !u.troop.is_cavalry() {
            p.error(
                ("unit", *i, "fully_armoured"),
                "only cavalry can be armoured head to foot (WRG-SHLD-03)",
            );
        }
        let Some(pr) = proto else { continue };
        if !pr.troops.contains(&u.troop) {
            p.error(
                ("unit", *i, "type"),
                format!("[WRG-ARMY-03] a {} army had no {}", pr.name, u.troop),
            );
        } else if let Err((rule, why)) = culture_allows(&pr.cultures, u.troop, u.chariot) {
            p.error(("unit", *i, "type"), format!("[{rule}] {why}"));
        }
        if u.status == Status::Regular && pr.regulars == Regulars::None {
            p.error(
                ("unit", *i, "status"),
                format!("[WRG-SCALE-15] a {} army has no regulars", pr.name),
            );
        }
    }
    if let Some(pr) = proto {
        if pr.regulars == Regulars::Third {
            let [n, d] = data.points.competition.regular_share;
            if (regular_points as u64) * (d as u64) > (points as u64) * (n as u64) {
                p.error(
                    FieldPath::root(),
                    format!("[WRG-SCALE-15] regulars are {regular_points} of {points} points, more than {n}/{d} of a {} army", pr.name),
                );
            }
        }
        if let Some(g) = &general
            && g.status == Status::Regular
            && pr.regulars == Regulars::None
        {
            p.error("general.status", format!("[WRG-SCALE-15] a {} army has no regulars", pr.name));
        }
    }
    let limit = data.points.competition.limit;
    if head.competition && points > limit {
        p.error("competition", format!("[WRG-ARMY-02] the army costs {points} points, over the competition limit of {limit}"));
    }
    let general = match general {
        Some(g) => g,
        None => return p.finish().and(Err(Diagnostics::default())),
    };
    p.finish_with(Army {
        name: head.name,
        prototype: head.prototype,
        competition: head.competition,
        messengers: head.messengers,
        general,
        units: units.into_iter().map(|(_, u)| u).collect(),
        points,
        regular_points,
    })
}

trait IntoGeneral {
    fn into_general(self) -> FieldPath;
}

impl IntoGeneral for (&str, usize, &str) {
    fn into_general(self) -> FieldPath {
        FieldPath::root().key(self.0).key(self.2)
    }
}

/// Advice for whoever builds an army (the AI included): the Roman-type proportions and unit
/// sizes the rules recommend (WRG-ARMY-10, WRG-ARMY-11). Advice, not a rule: nothing is
/// refused.
pub fn advise(data: &Data, army: &Army) -> Vec<String> {
    let mut out = Vec::new();
    let roman = data
        .prototypes
        .prototype
        .get(&army.prototype)
        .is_some_and(|p| p.cultures.contains(&Culture::Roman));
    if roman {
        let cav: u32 = army
            .units
            .iter()
            .filter(|u| u.troop.is_cavalry())
            .map(|u| unit_points(data, u))
            .fold(0u32, u32::saturating_add);
        let all: u32 =
            army.units.iter().map(|u| unit_points(data, u)).fold(0u32, u32::saturating_add);
        if all > 0 && (cav.saturating_mul(4) < all || cav.saturating_mul(3) > all) {
            out.push(format!(
                "[WRG-ARMY-10] cavalry are {cav} of {all} points; a quarter to a third is advised"
            ));
        }
        let inf: u32 = army
            .units
            .iter()
            .filter(|u| u.troop.is_infantry())
            .map(|u| u.figures)
            .fold(0u32, u32::saturating_add);
        let light: u32 = army
            .units
            .iter()
            .filter(|u| {
                u.troop.is_infantry()
                    && (u.troop == TroopType::LightInfantry
                        || u.missile.is_some_and(|m| m.is_bow()))
            })
            .map(|u| u.figures)
            .fold(0u32, u32::saturating_add);
        if inf > 0 && (light.saturating_mul(4) < inf || light.saturating_mul(2) > inf) {
            out.push(format!("[WRG-ARMY-10] light troops and archers are {light} of {inf} infantry figures; a quarter to a half is advised"));
        }
    }
    for u in &army.units {
        if u.status == Status::Regular && !(12..=30).contains(&u.figures) && !u.troop.is_engine() {
            out.push(format!(
                "[WRG-ARMY-11] {}: regular units of about 20 figures are advised",
                u.name
            ));
        }
        if u.status == Status::Barbarian
            && u.figures < 12
            && !matches!(u.troop, TroopType::Chariot | TroopType::Elephant)
        {
            out.push(format!("[WRG-ARMY-11] {}: barbarian units are best kept large", u.name));
        }
    }
    out
}

/// Loads one of the embedded lists by its prototype id.
pub fn embedded(data: &Data, id: &str) -> Option<Result<Army, Diagnostics>> {
    LISTS
        .iter()
        .find(|(n, _)| n.ends_with(&format!("/{id}.toml")))
        .map(|(n, t)| load(data, &Source::new(*n, *t)))
}
