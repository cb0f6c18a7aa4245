//! The rules' tables T1 to T12, kept in `data/*.toml` and embedded at build time. Each file is
//! read with unknown fields refused and then validated; every problem of every file is
//! reported at once with its file, line and column. Doubtful readings of the source are named
//! variants (`data/variants.toml`, WRG-R-45) that a game or a question may select.

use crate::model::*;
use serde::Deserialize;
use std::collections::BTreeMap;
use tabletop::diagnostics::{Diagnostic, Diagnostics, FieldPath, Problems, Source, TomlDoc};
use tabletop::dice::Die;

/// The embedded data files, by name in the repository.
pub const EMBEDDED: [(&str, &str); 11] = [
    ("crates/wrg1969/data/bases.toml", include_str!("../data/bases.toml")),
    ("crates/wrg1969/data/points.toml", include_str!("../data/points.toml")),
    ("crates/wrg1969/data/movement.toml", include_str!("../data/movement.toml")),
    ("crates/wrg1969/data/terrain.toml", include_str!("../data/terrain.toml")),
    ("crates/wrg1969/data/missiles.toml", include_str!("../data/missiles.toml")),
    ("crates/wrg1969/data/melee.toml", include_str!("../data/melee.toml")),
    ("crates/wrg1969/data/casualties.toml", include_str!("../data/casualties.toml")),
    ("crates/wrg1969/data/dice.toml", include_str!("../data/dice.toml")),
    ("crates/wrg1969/data/reaction.toml", include_str!("../data/reaction.toml")),
    ("crates/wrg1969/data/variants.toml", include_str!("../data/variants.toml")),
    ("crates/wrg1969/data/prototypes.toml", include_str!("../data/prototypes.toml")),
];

fn yes() -> bool {
    true
}

/// One base size (T1).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Base {
    /// Frontage in inches (fixed).
    pub front: f64,
    /// Depth in inches (recommended).
    pub depth: f64,
    /// False where the source gives no depth and this is the engine's default.
    #[serde(default = "yes")]
    pub depth_in_source: bool,
}

/// `data/bases.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bases {
    /// T1 by base class.
    pub base: BTreeMap<BaseClass, Base>,
}

/// One row of T2.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    /// Points per regular figure.
    pub regular: u32,
    /// Points per barbarian figure.
    pub barbarian: u32,
    /// Columns the source leaves blank (priced by the engine's default, WRG-M-04).
    #[serde(default)]
    pub not_in_source: Vec<Status>,
}

impl Price {
    /// The price in a column.
    pub fn get(&self, s: Status) -> u32 {
        match s {
            Status::Regular => self.regular,
            Status::Barbarian => self.barbarian,
        }
    }
}

/// Competition limits.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Competition {
    /// The points limit of a championship army (WRG-ARMY-02).
    pub limit: u32,
    /// The largest share of regulars (by points) in a partly regular army (WRG-SCALE-15).
    pub regular_share: [u32; 2],
}

/// `data/points.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Points {
    /// T2 by class.
    pub class: BTreeMap<PointsClass, Price>,
    /// Competition limits.
    pub competition: Competition,
}

/// Which terrain costs an engine pays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TerrainAs {
    /// As foot.
    Foot,
    /// As mounted troops.
    Mounted,
}

/// One row of T3.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRow {
    /// Normal move.
    pub normal: f64,
    /// Charge move (troops that may charge).
    #[serde(default)]
    pub charge: Option<f64>,
    /// The straight, final part of a charge.
    #[serde(default)]
    pub straight: Option<f64>,
    /// The evade move (troops that may evade).
    #[serde(default)]
    pub evade: Option<f64>,
    /// Engines: which terrain costs they pay.
    #[serde(default)]
    pub terrain_as: Option<TerrainAs>,
}

/// Fixed distances of the rules, in inches.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Distances {
    /// WRG-MOVE-03.
    pub step_back: f64,
    /// WRG-AFTER-02.
    pub mounted_fall_back: f64,
    /// WRG-AFTER-04.
    pub mutual_fall_back: f64,
    /// WRG-AFTER-05.
    pub push_back: f64,
    /// WRG-MOVE-10, WRG-ROUT-04, WRG-ROUT-05.
    pub detour: f64,
    /// WRG-ROUT-05: gap width in figures.
    pub rout_gap_figures: u32,
    /// WRG-ROUT-05: how far routers look for a gap.
    pub rout_gap_search: f64,
    /// WRG-ROUT-02.
    pub rout_slowdown: f64,
    /// WRG-PURS-01.
    pub pursuit_slowdown: f64,
    /// WRG-PURS-04.
    pub pursuer_fall_back: f64,
    /// WRG-CHORD-08.
    pub signal_range: f64,
    /// T9 "within" for units.
    pub reaction_within: f64,
    /// T9 "within" for cover.
    pub cover_within: f64,
    /// WRG-RT-08.
    pub close_fight_within: f64,
    /// WRG-GEN-03.
    pub general_exposed_beyond: f64,
    /// WRG-R-08.
    pub stop_short: f64,
}

/// How routers and pursuers slow down (WRG-R-22).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Slowdown {
    /// A further cut every period: charge - 2k.
    Cumulative,
    /// The same cut every period.
    Flat,
}

/// The rout switch.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoutCfg {
    /// The slow-down model.
    pub slowdown: Slowdown,
}

/// `data/movement.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    /// T3.
    #[serde(rename = "move")]
    pub moves: BTreeMap<MoveClass, MoveRow>,
    /// Fixed distances.
    pub distances: Distances,
    /// The rout switch.
    pub rout: RoutCfg,
}

/// Obstacles (WRG-TERR-01, -02).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Obstacle {
    /// Share of the allowance mounted troops lose.
    pub mounted_loss: f64,
    /// Share of the allowance foot lose.
    pub foot_loss: f64,
    /// Figures needed to man-handle a wheeled vehicle across.
    pub manhandle_figures: u32,
}

/// Bad going (WRG-TERR-04).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BadGoing {
    /// Inches paid per inch, mounted and wheeled.
    pub mounted: f64,
    /// Inches paid per inch, foot.
    pub foot: f64,
}

/// The championship stream (WRG-CHAMP-02).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stream {
    /// Width of the band.
    pub width: f64,
    /// Mounted speed fraction.
    pub mounted_speed: f64,
    /// Foot speed fraction.
    pub foot_speed: f64,
}

/// `data/terrain.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    /// Obstacles.
    pub obstacle: Obstacle,
    /// Bad going.
    pub bad_going: BadGoing,
    /// The stream.
    pub stream: Stream,
}

/// One missile weapon (T5).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponRow {
    /// Range in inches.
    pub range: f64,
    /// The T6 row it reads.
    pub row: MissileRow,
    /// Needs both hands (no shield, WRG-SHLD-02).
    #[serde(default)]
    pub two_handed: bool,
    /// May shoot in a period the shooter moved (WRG-FIRE-05).
    #[serde(default = "yes")]
    pub moving: bool,
}

/// Arcs of fire, half-angles in degrees.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Arcs {
    /// All round.
    pub all_round: f64,
    /// Other light troops and light dart engines.
    pub wide: f64,
    /// Everyone else.
    pub narrow: f64,
}

/// A crew-served weapon's equivalent (WRG-FIRE-14).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrewRow {
    /// The weapon it shoots as.
    pub weapon: MissileWeapon,
    /// As how many figures.
    pub figures: u32,
    /// Whose range it uses, when not the equivalent weapon's.
    #[serde(default)]
    pub range_of: Option<MissileWeapon>,
    /// Ignores the cover deduction (stone-throwers).
    #[serde(default)]
    pub ignores_cover: bool,
}

/// `data/missiles.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Missiles {
    /// T5.
    pub weapon: BTreeMap<MissileWeapon, WeaponRow>,
    /// T6.
    pub row: BTreeMap<MissileRow, ByColumn>,
    /// Arcs of fire.
    pub arc: Arcs,
    /// Crew-served equivalents.
    pub crew: BTreeMap<Crew, CrewRow>,
}

/// One row of T7.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeRow {
    /// The row's number in the source.
    pub number: u8,
    /// Needs both hands (no shield, WRG-SHLD-02).
    #[serde(default)]
    pub two_handed: bool,
    /// Factors by target column.
    pub factors: ByColumn,
}

/// `data/melee.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Melee {
    /// T7.
    pub class: BTreeMap<MeleeClass, MeleeRow>,
}

/// One row of T8.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CasualtyRow {
    /// The total factor.
    pub factor: i32,
    /// Men lost for 1 to 20 figures.
    pub men: Vec<u32>,
}

/// `data/casualties.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Casualties {
    /// Men per figure.
    pub men_per_figure: u32,
    /// Above this many figures, read in tens plus the remainder.
    pub tens_above: u32,
    /// T8, lowest factor first.
    pub row: Vec<CasualtyRow>,
}

impl Casualties {
    /// The lowest total factor in the table.
    pub fn min_factor(&self) -> i32 {
        self.row.first().map_or(0, |r| r.factor)
    }

    /// The highest total factor in the table.
    pub fn max_factor(&self) -> i32 {
        self.row.last().map_or(0, |r| r.factor)
    }
}

/// A die named in a data file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DieName {
    /// The 2-3-3-4-4-5 probability die.
    Average,
    /// The ordinary die.
    D6,
}

impl DieName {
    /// The die.
    pub fn die(self) -> Die {
        match self {
            DieName::Average => Die::Average,
            DieName::D6 => Die::D6,
        }
    }
}

/// Reaction-test dice.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReactionDice {
    /// Regulars' die.
    pub regular: DieName,
    /// Barbarians' and levies' die.
    pub barbarian: DieName,
    /// Dice at full strength.
    pub dice: u8,
    /// Two dice below this share of starting figures.
    pub two_dice_below: [u32; 2],
    /// One die below this share.
    pub one_die_below: [u32; 2],
}

/// Shooting dice.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShootingDice {
    /// The die (red and black alike).
    pub die: DieName,
    /// The factor when one die beats the other.
    pub step: i32,
}

/// A red and a black die.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RedBlack {
    /// The black (plus) die.
    pub black: DieName,
    /// The red (minus) die.
    pub red: DieName,
}

/// Hand-to-hand dice.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeDice {
    /// Regulars.
    pub regular: RedBlack,
    /// Barbarians.
    pub barbarian: RedBlack,
}

/// Return from off the table.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReturnDice {
    /// Regulars' die.
    pub regular: DieName,
    /// Barbarians' die.
    pub barbarian: DieName,
    /// Periods with a throw.
    pub periods: u32,
    /// The face for an immediate return.
    pub at_once: u8,
    /// The face for a delayed return.
    pub delayed: u8,
}

/// `data/dice.toml` (T10).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceData {
    /// Reaction tests.
    pub reaction: ReactionDice,
    /// Shooting.
    pub shooting: ShootingDice,
    /// Hand-to-hand.
    pub melee: MeleeDice,
    /// Return from off the table.
    #[serde(rename = "return")]
    pub returning: ReturnDice,
}

/// How a T9 factor counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Count {
    /// Once per qualifying unit.
    Each,
    /// Once however many qualify.
    Once,
    /// Once per 4 figures lost.
    PerFourLost,
    /// A special situation whose sign the owner chooses.
    Either,
}

/// One row of T9.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactorRow {
    /// Which factor.
    pub name: ReactionFactor,
    /// Its rule ID.
    pub rule: String,
    /// Its value (the magnitude, for `either`).
    pub value: i32,
    /// How it counts.
    pub count: Count,
    /// At most this many (flanks).
    #[serde(default)]
    pub most: Option<u32>,
}

/// A band's score range in one class column; either end may be open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Span {
    /// Lowest score (open when absent).
    #[serde(default)]
    pub min: Option<i32>,
    /// Highest score (open when absent).
    #[serde(default)]
    pub max: Option<i32>,
}

impl Span {
    /// True when the score lies in the span.
    pub fn contains(&self, score: i32) -> bool {
        self.min.is_none_or(|m| score >= m) && self.max.is_none_or(|m| score <= m)
    }
}

/// One band of a reaction chart.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    /// The result.
    pub result: ReactionResult,
    /// How many periods it lasts (0: done at once).
    pub periods: u32,
    /// Chart 2's second band: periods for a pursuing unit.
    #[serde(default)]
    pub pursuing_periods: Option<u32>,
    /// Class A.
    pub a: Span,
    /// Class B.
    pub b: Span,
    /// Class C.
    pub c: Span,
    /// Class D.
    pub d: Span,
    /// Class E.
    pub e: Span,
}

impl Band {
    /// The span of a class column.
    pub fn span(&self, class: ReactionClass) -> Span {
        match class {
            ReactionClass::A => self.a,
            ReactionClass::B => self.b,
            ReactionClass::C => self.c,
            ReactionClass::D => self.d,
            ReactionClass::E => self.e,
        }
    }
}

/// `data/reaction.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reaction {
    /// T9.
    pub factor: Vec<FactorRow>,
    /// T11.
    pub chart1: Vec<Band>,
    /// T12.
    pub chart2: Vec<Band>,
}

impl Reaction {
    /// The T9 row of a factor.
    pub fn factor(&self, f: ReactionFactor) -> &FactorRow {
        // Validation guarantees exactly one row per factor.
        self.factor.iter().find(|r| r.name == f).unwrap_or(&self.factor[0])
    }
}

/// One doubtful reading of the source.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    /// The ruling it belongs to.
    pub rule: String,
    /// What is doubtful.
    pub about: String,
    /// The option the other files hold.
    pub default: String,
    /// The options and the value each puts in the cell or switch.
    pub options: BTreeMap<String, f64>,
}

/// A historical prototype (WRG-ARMY-03).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prototype {
    /// Its name for people.
    pub name: String,
    /// Its cultures.
    pub cultures: Vec<Culture>,
    /// How many regulars it may have.
    pub regulars: Regulars,
    /// The troop types it had.
    pub troops: Vec<TroopType>,
}

/// `data/prototypes.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prototypes {
    /// By id.
    pub prototype: BTreeMap<String, Prototype>,
}

/// Men a figure stands for at the standard scale (WRG-SCALE-02).
pub const STANDARD_MEN_PER_FIGURE: u32 = 20;

/// The known variants and where they apply.
pub const VARIANTS: [&str; 7] = [
    "t7_elephant_vs_li",
    "t8_zero_fifteen",
    "t8_twelve_sixteen",
    "chariot_evade",
    "rout_slowdown",
    "push_back",
    "scale",
];

/// Every table, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    /// T1.
    pub bases: Bases,
    /// T2 and the competition limits.
    pub points: Points,
    /// T3 and fixed distances.
    pub movement: Movement,
    /// T4.
    pub terrain: Terrain,
    /// T5, T6, arcs and crews.
    pub missiles: Missiles,
    /// T7.
    pub melee: Melee,
    /// T8.
    pub casualties: Casualties,
    /// T10.
    pub dice: DiceData,
    /// T9, T11, T12.
    pub reaction: Reaction,
    /// The doubtful readings.
    pub variants: BTreeMap<String, Variant>,
    /// The option chosen for each variant.
    pub selected: BTreeMap<String, String>,
    /// The army prototypes.
    pub prototypes: Prototypes,
}

/// Deserializes one whole file, every problem located.
fn parse<T: serde::de::DeserializeOwned>(source: &Source, out: &mut Vec<Diagnostic>) -> Option<T> {
    let doc = match TomlDoc::parse(source) {
        Ok(d) => d,
        Err(d) => {
            out.extend(d.0);
            return None;
        }
    };
    let mut problems = doc.problems();
    let value = doc.section::<T>(FieldPath::root(), &mut problems);
    if let Err(d) = problems.finish() {
        out.extend(d.0);
        return None;
    }
    value
}

/// Runs semantic checks on a parsed file, with problems located in its document.
fn validate(source: &Source, out: &mut Vec<Diagnostic>, check: impl FnOnce(&mut Problems<'_>)) {
    let Ok(doc) = TomlDoc::parse(source) else { return };
    let mut problems = doc.problems();
    check(&mut problems);
    if let Err(d) = problems.finish() {
        out.extend(d.0);
    }
}

fn positive(p: &mut Problems<'_>, path: String, v: f64) {
    if !(v.is_finite() && v > 0.0) {
        p.error(path, format!("must be a positive number of inches, found {v}"));
    }
}

fn fraction(p: &mut Problems<'_>, path: String, v: f64) {
    if !(v.is_finite() && (0.0..1.0).contains(&v)) {
        p.error(path, format!("must be a share from 0 up to (not including) 1, found {v}"));
    }
}

fn every<K: Ord + Copy + std::fmt::Display, V>(
    p: &mut Problems<'_>,
    table: &str,
    all: &[K],
    map: &BTreeMap<K, V>,
) {
    for k in all {
        if !map.contains_key(k) {
            p.error(table, format!("missing the row `{k}`"));
        }
    }
}

impl Data {
    /// The embedded tables with the default readings. They are part of the program; the test
    /// suite pins that they load.
    pub fn embedded() -> Result<Data, Diagnostics> {
        let sources: Vec<Source> = EMBEDDED.iter().map(|(n, t)| Source::new(*n, *t)).collect();
        Data::from_sources(&sources)
    }

    /// Loads the tables from sources in the order of [`EMBEDDED`], reporting every problem of
    /// every file at once.
    pub fn from_sources(sources: &[Source]) -> Result<Data, Diagnostics> {
        if sources.len() != EMBEDDED.len() {
            return Err(Diagnostic::whole_file(
                "wrg1969 data",
                format!("expected {} data files, found {}", EMBEDDED.len(), sources.len()),
            )
            .into());
        }
        let mut out = Vec::new();
        let bases: Option<Bases> = parse(&sources[0], &mut out);
        let points: Option<Points> = parse(&sources[1], &mut out);
        let movement: Option<Movement> = parse(&sources[2], &mut out);
        let terrain: Option<Terrain> = parse(&sources[3], &mut out);
        let missiles: Option<Missiles> = parse(&sources[4], &mut out);
        let melee: Option<Melee> = parse(&sources[5], &mut out);
        let casualties: Option<Casualties> = parse(&sources[6], &mut out);
        let dice: Option<DiceData> = parse(&sources[7], &mut out);
        let reaction: Option<Reaction> = parse(&sources[8], &mut out);
        let variants: Option<BTreeMap<String, Variant>> = parse(&sources[9], &mut out);
        let prototypes: Option<Prototypes> = parse(&sources[10], &mut out);
        if let Some(pr) = &prototypes {
            validate(&sources[10], &mut out, |p| {
                for (id, proto) in &pr.prototype {
                    for (i, t) in proto.troops.iter().enumerate() {
                        if let Err((rule, why)) =
                            crate::army::culture_allows(&proto.cultures, *t, None)
                        {
                            p.error(
                                FieldPath::root()
                                    .key("prototype")
                                    .key(id.as_str())
                                    .key("troops")
                                    .index(i),
                                format!("[{rule}] {why}"),
                            );
                        }
                    }
                    if let Err((rule, why)) =
                        crate::army::regulars_allowed(&proto.cultures, proto.regulars)
                    {
                        p.error(
                            FieldPath::root().key("prototype").key(id.as_str()).key("regulars"),
                            format!("[{rule}] {why}"),
                        );
                    }
                }
            });
        }

        if let Some(b) = &bases {
            validate(&sources[0], &mut out, |p| {
                every(p, "base", BaseClass::ALL, &b.base);
                for (k, v) in &b.base {
                    positive(p, format!("base.{k}.front"), v.front);
                    positive(p, format!("base.{k}.depth"), v.depth);
                }
            });
        }
        if let Some(pt) = &points {
            validate(&sources[1], &mut out, |p| {
                every(p, "class", PointsClass::ALL, &pt.class);
                for (k, v) in &pt.class {
                    if v.regular == 0 || v.barbarian == 0 {
                        p.error(format!("class.{k}"), "a price must be at least 1 point");
                    }
                }
                if pt.competition.limit == 0 {
                    p.error("competition.limit", "the limit must be at least 1 point");
                }
                let [n, d] = pt.competition.regular_share;
                if d == 0 || n > d {
                    p.error(
                        "competition.regular_share",
                        "expected a share [n, d] with n <= d, d > 0",
                    );
                }
            });
        }
        if let Some(m) = &movement {
            validate(&sources[2], &mut out, |p| {
                every(p, "move", MoveClass::ALL, &m.moves);
                for (k, v) in &m.moves {
                    positive(p, format!("move.{k}.normal"), v.normal);
                    let engine = matches!(
                        k,
                        MoveClass::LightEngineManhandled
                            | MoveClass::LightEngineMule
                            | MoveClass::OxEngine
                    );
                    match (v.charge, v.straight) {
                        (Some(c), Some(s)) => {
                            if c.is_nan() || c < v.normal {
                                p.error(
                                    format!("move.{k}.charge"),
                                    "a charge must be at least the normal move",
                                );
                            }
                            if !(s > 0.0 && s <= c) {
                                p.error(
                                    format!("move.{k}.straight"),
                                    "the straight part must be positive and at most the charge",
                                );
                            }
                        }
                        (None, None) if engine => {}
                        _ => p.error(
                            format!("move.{k}"),
                            "troops that charge need both `charge` and `straight`; engines neither",
                        ),
                    }
                    if engine != v.terrain_as.is_some() {
                        p.error(
                            format!("move.{k}"),
                            "engines, and only engines, name `terrain_as`",
                        );
                    }
                    if let Some(e) = v.evade {
                        positive(p, format!("move.{k}.evade"), e);
                    }
                }
                let d = &m.distances;
                for (name, v) in [
                    ("step_back", d.step_back),
                    ("mounted_fall_back", d.mounted_fall_back),
                    ("mutual_fall_back", d.mutual_fall_back),
                    ("push_back", d.push_back),
                    ("detour", d.detour),
                    ("rout_gap_search", d.rout_gap_search),
                    ("rout_slowdown", d.rout_slowdown),
                    ("pursuit_slowdown", d.pursuit_slowdown),
                    ("pursuer_fall_back", d.pursuer_fall_back),
                    ("signal_range", d.signal_range),
                    ("reaction_within", d.reaction_within),
                    ("cover_within", d.cover_within),
                    ("close_fight_within", d.close_fight_within),
                    ("general_exposed_beyond", d.general_exposed_beyond),
                    ("stop_short", d.stop_short),
                ] {
                    positive(p, format!("distances.{name}"), v);
                }
            });
        }
        if let Some(t) = &terrain {
            validate(&sources[3], &mut out, |p| {
                fraction(p, "obstacle.mounted_loss".into(), t.obstacle.mounted_loss);
                fraction(p, "obstacle.foot_loss".into(), t.obstacle.foot_loss);
                positive(p, "bad_going.mounted".into(), t.bad_going.mounted);
                positive(p, "bad_going.foot".into(), t.bad_going.foot);
                positive(p, "stream.width".into(), t.stream.width);
                positive(p, "stream.mounted_speed".into(), t.stream.mounted_speed);
                positive(p, "stream.foot_speed".into(), t.stream.foot_speed);
            });
        }
        if let Some(ms) = &missiles {
            validate(&sources[4], &mut out, |p| {
                every(p, "weapon", MissileWeapon::ALL, &ms.weapon);
                every(p, "row", MissileRow::ALL, &ms.row);
                every(p, "crew", Crew::ALL, &ms.crew);
                for (k, v) in &ms.weapon {
                    positive(p, format!("weapon.{k}.range"), v.range);
                }
                for (k, v) in [
                    ("all_round", ms.arc.all_round),
                    ("wide", ms.arc.wide),
                    ("narrow", ms.arc.narrow),
                ] {
                    if !(v > 0.0 && v <= 180.0) {
                        p.error(
                            format!("arc.{k}"),
                            "a half-angle must be above 0 and at most 180 degrees",
                        );
                    }
                }
                for (k, v) in &ms.crew {
                    if v.figures == 0 {
                        p.error(format!("crew.{k}.figures"), "at least 1 figure");
                    }
                }
            });
        }
        if let Some(ml) = &melee {
            validate(&sources[5], &mut out, |p| {
                every(p, "class", MeleeClass::ALL, &ml.class);
                for (i, k) in MeleeClass::ALL.iter().enumerate() {
                    if let Some(r) = ml.class.get(k)
                        && r.number as usize != i + 1
                    {
                        p.error(
                            format!("class.{k}.number"),
                            format!("this class is row {} of T7", i + 1),
                        );
                    }
                }
            });
        }
        if let Some(c) = &casualties {
            validate(&sources[6], &mut out, |p| {
                if c.men_per_figure == 0 {
                    p.error("men_per_figure", "at least 1 man per figure");
                }
                if c.tens_above < 10 {
                    p.error("tens_above", "the table must reach at least 10 figures");
                }
                if c.row.is_empty() {
                    p.error("row", "the table has no rows");
                }
                for (i, r) in c.row.iter().enumerate() {
                    if r.men.len() as u32 != c.tens_above {
                        p.error(
                            ("row", i, "men"),
                            format!("expected {} columns, found {}", c.tens_above, r.men.len()),
                        );
                    }
                    if i > 0 && r.factor != c.row[i - 1].factor + 1 {
                        p.error(
                            ("row", i, "factor"),
                            "rows must run from the lowest factor up in steps of 1",
                        );
                    }
                    if r.men.windows(2).any(|w| w[1] < w[0]) {
                        p.error(("row", i, "men"), "men lost cannot fall as figures are added");
                    }
                    if i > 0 {
                        let prev = &c.row[i - 1];
                        if r.men.iter().zip(&prev.men).any(|(a, b)| a < b) {
                            p.error(("row", i, "men"), "men lost cannot fall as the factor rises");
                        }
                    }
                }
            });
        }
        if let Some(dd) = &dice {
            validate(&sources[7], &mut out, |p| {
                let r = &dd.reaction;
                if r.dice == 0 || r.dice > 3 {
                    p.error("reaction.dice", "between 1 and 3 dice");
                }
                let [a, b] = r.two_dice_below;
                let [c, d] = r.one_die_below;
                if b == 0 || d == 0 || a > b || c > d || c * b > a * d {
                    p.error(
                        "reaction",
                        "expected shares [n, d] with one_die_below <= two_dice_below <= 1",
                    );
                }
                if dd.shooting.step <= 0 {
                    p.error("shooting.step", "must be positive");
                }
                let rt = &dd.returning;
                for (k, v) in [("at_once", rt.at_once), ("delayed", rt.delayed)] {
                    if !(1..=6).contains(&v) {
                        p.error(format!("return.{k}"), "a die face 1 to 6");
                    }
                }
            });
        }
        if let Some(rc) = &reaction {
            validate(&sources[8], &mut out, |p| {
                for f in ReactionFactor::ALL {
                    let n = rc.factor.iter().filter(|r| r.name == *f).count();
                    if n != 1 {
                        p.error(
                            "factor",
                            format!("the factor `{f}` must appear exactly once, found {n}"),
                        );
                    }
                }
                for (i, r) in rc.factor.iter().enumerate() {
                    if !r.rule.starts_with("WRG-RFAC-") {
                        p.error(("factor", i, "rule"), "a T9 factor cites a WRG-RFAC rule");
                    }
                    if r.value == 0 {
                        p.error(("factor", i, "value"), "a factor of 0 does nothing");
                    }
                }
                use ReactionResult as R;
                let c1 = [
                    R::Break,
                    R::Retire,
                    R::Halt,
                    R::CarryOn,
                    R::ActAsGeneralWishes,
                    R::UncontrolledAdvance,
                ];
                let c2 = [
                    R::Break,
                    R::HaltOrRetire,
                    R::FallBack,
                    R::MoveTowardEnemy,
                    R::ActAsGeneralWishes,
                    R::UncontrolledAdvance,
                ];
                for (name, chart, want) in [("chart1", &rc.chart1, c1), ("chart2", &rc.chart2, c2)]
                {
                    let got: Vec<R> = chart.iter().map(|b| b.result).collect();
                    if got != want {
                        p.error(
                            name,
                            format!(
                                "expected the bands {}",
                                want.iter().map(|r| r.name()).collect::<Vec<_>>().join(", ")
                            ),
                        );
                        continue;
                    }
                    for class in ReactionClass::ALL {
                        check_column(p, name, chart, *class);
                    }
                }
            });
        }
        let (
            Some(bases),
            Some(points),
            Some(movement),
            Some(terrain),
            Some(missiles),
            Some(melee),
            Some(casualties),
            Some(dice),
            Some(reaction),
            Some(variants),
        ) = (
            bases, points, movement, terrain, missiles, melee, casualties, dice, reaction, variants,
        )
        else {
            return Err(Diagnostics(out));
        };
        let Some(prototypes) = prototypes else {
            return Err(Diagnostics(out));
        };
        let data = Data {
            bases,
            points,
            movement,
            terrain,
            missiles,
            melee,
            casualties,
            dice,
            reaction,
            selected: variants.iter().map(|(k, v)| (k.clone(), v.default.clone())).collect(),
            variants,
            prototypes,
        };
        validate(&sources[9], &mut out, |p| {
            for k in data.variants.keys() {
                if !VARIANTS.contains(&k.as_str()) {
                    p.error(
                        k.as_str(),
                        format!("unknown variant; the engine knows {}", VARIANTS.join(", ")),
                    );
                }
            }
            for k in VARIANTS {
                let Some(v) = data.variants.get(k) else {
                    p.error(FieldPath::root(), format!("missing the variant `{k}`"));
                    continue;
                };
                match v.options.get(&v.default) {
                    None => p.error(
                        FieldPath::root().key(k).key("default"),
                        "the default must be one of the options",
                    ),
                    Some(val) => {
                        if let Some(now) = data.variant_cell(k)
                            && now != *val
                        {
                            p.error(
                                FieldPath::root().key(k).key("default"),
                                format!(
                                    "the tables hold {now}, but the default option gives {val}"
                                ),
                            );
                        }
                    }
                }
            }
        });
        if out.is_empty() { Ok(data) } else { Err(Diagnostics(out)) }
    }

    /// The value the tables hold now at a variant's cell or switch.
    fn variant_cell(&self, name: &str) -> Option<f64> {
        Some(match name {
            "t7_elephant_vs_li" => self.melee.class.get(&MeleeClass::Elephant)?.factors.li as f64,
            "t8_zero_fifteen" => {
                *self.casualties.row.iter().find(|r| r.factor == 0)?.men.get(14)? as f64
            }
            "t8_twelve_sixteen" => {
                *self.casualties.row.iter().find(|r| r.factor == 12)?.men.get(15)? as f64
            }
            "chariot_evade" => self.movement.moves.get(&MoveClass::Chariot)?.evade?,
            "rout_slowdown" => match self.movement.rout.slowdown {
                Slowdown::Cumulative => 1.0,
                Slowdown::Flat => 0.0,
            },
            "push_back" => self.movement.distances.push_back,
            "scale" => self.casualties.men_per_figure as f64,
            _ => return None,
        })
    }

    /// The tables with one variant set to another option, or why not (WRG-R-45).
    pub fn with_variant(&self, name: &str, option: &str) -> Result<Data, String> {
        let v = self.variants.get(name).ok_or_else(|| {
            format!("[WRG-R-45] unknown variant `{name}`; known: {}", VARIANTS.join(", "))
        })?;
        let val = *v.options.get(option).ok_or_else(|| {
            let opts: Vec<&str> = v.options.keys().map(String::as_str).collect();
            format!(
                "[{}] the variant `{name}` has no option `{option}`; options: {}",
                v.rule,
                opts.join(", ")
            )
        })?;
        let mut d = self.clone();
        let int = val as i64;
        match name {
            "t7_elephant_vs_li" => {
                if let Some(r) = d.melee.class.get_mut(&MeleeClass::Elephant) {
                    r.factors.li = int as i32;
                }
            }
            "t8_zero_fifteen" | "t8_twelve_sixteen" => {
                let (f, col) = if name == "t8_zero_fifteen" { (0, 14) } else { (12, 15) };
                if let Some(cell) = d
                    .casualties
                    .row
                    .iter_mut()
                    .find(|r| r.factor == f)
                    .and_then(|r| r.men.get_mut(col))
                {
                    *cell = int.max(0) as u32;
                }
            }
            "chariot_evade" => {
                if let Some(r) = d.movement.moves.get_mut(&MoveClass::Chariot) {
                    r.evade = Some(val);
                }
            }
            "rout_slowdown" => {
                d.movement.rout.slowdown =
                    if int == 0 { Slowdown::Flat } else { Slowdown::Cumulative };
            }
            "push_back" => d.movement.distances.push_back = val,
            "scale" => d.set_scale(int.max(1) as u32),
            _ => return Err(format!("[WRG-R-45] unknown variant `{name}`")),
        }
        d.selected.insert(name.to_string(), option.to_string());
        Ok(d)
    }

    /// Sets the ground scale by the men a figure stands for: 20 is the standard scale; any
    /// other is the optional 1 mm = 1 yard scale, where normal moves are doubled and a charge
    /// is its listed distance plus one listed normal move (WRG-SCALE-04). Going back restores
    /// the listed moves.
    fn set_scale(&mut self, men_per_figure: u32) {
        let was_large = self.casualties.men_per_figure != STANDARD_MEN_PER_FIGURE;
        let to_large = men_per_figure != STANDARD_MEN_PER_FIGURE;
        self.casualties.men_per_figure = men_per_figure;
        for row in self.movement.moves.values_mut() {
            match (was_large, to_large) {
                (false, true) => {
                    let listed = row.normal;
                    row.normal = 2.0 * listed;
                    row.charge = row.charge.map(|c| c + listed);
                }
                (true, false) => {
                    let listed = row.normal / 2.0;
                    row.normal = listed;
                    row.charge = row.charge.map(|c| c - listed);
                }
                _ => {}
            }
        }
    }

    /// The tables with several variants selected, in order.
    pub fn with_variants<'a>(
        &self,
        choices: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Data, String> {
        let mut d = self.clone();
        for (n, o) in choices {
            d = d.with_variant(n, o)?;
        }
        Ok(d)
    }

    /// The T3 row of a troop type.
    pub fn moves(&self, t: TroopType) -> &MoveRow {
        // Validation guarantees every row.
        &self.movement.moves[&t.move_class()]
    }

    /// The T1 base of a troop type.
    pub fn base(&self, t: TroopType) -> &Base {
        &self.bases.base[&t.base_class()]
    }

    /// The T2 price of one figure of a troop type.
    pub fn price(&self, t: TroopType, s: Status) -> u32 {
        self.points.class[&t.points_class()].get(s)
    }

    /// The T2 price of the General's figure.
    pub fn general_price(&self, s: Status) -> u32 {
        self.points.class[&PointsClass::General].get(s)
    }

    /// The T5 row of a missile weapon.
    pub fn weapon(&self, w: MissileWeapon) -> &WeaponRow {
        &self.missiles.weapon[&w]
    }

    /// The T7 row of a weapon class.
    pub fn melee_row(&self, c: MeleeClass) -> &MeleeRow {
        &self.melee.class[&c]
    }
}

/// Checks that a chart's bands cover every score once in one class column.
fn check_column(p: &mut Problems<'_>, chart: &str, bands: &[Band], class: ReactionClass) {
    let spans: Vec<Span> = bands.iter().map(|b| b.span(class)).collect();
    let col = class.name();
    let bad = |p: &mut Problems<'_>, i: usize, m: String| {
        p.error(FieldPath::root().key(chart).index(i).key(col), m);
    };
    if spans.first().is_some_and(|s| s.min.is_some()) {
        bad(p, 0, "the first band must be open below (no `min`)".into());
    }
    if spans.last().is_some_and(|s| s.max.is_some()) {
        bad(p, spans.len() - 1, "the last band must be open above (no `max`)".into());
    }
    for i in 0..spans.len() {
        let s = spans[i];
        if let (Some(a), Some(b)) = (s.min, s.max)
            && a > b
        {
            bad(p, i, format!("min {a} is above max {b}"));
        }
        if i + 1 < spans.len() {
            match (s.max, spans[i + 1].min) {
                (Some(m), Some(n)) if n == m + 1 => {}
                _ => bad(
                    p,
                    i + 1,
                    "each band must start one above where the previous one ends".into(),
                ),
            }
        }
    }
}
