//! The numbers of O/THW Ancients, kept in `data/*.toml` and embedded at build time: the three
//! unit rosters, the generals, the traits' numbers, army morale and the other rules' numbers.
//! Each file is deserialized into typed raw tables (unknown fields refused) and validated; every
//! problem is reported with its file, line and column.

use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabletop::diagnostics::{Diagnostics, Problems, Source, TomlDoc, read_whole};

/// The embedded data files: (file name, text).
pub const EMBEDDED: [(&str, &str); 7] = [
    ("crates/othw/data/generic.toml", include_str!("../data/generic.toml")),
    ("crates/othw/data/roman.toml", include_str!("../data/roman.toml")),
    ("crates/othw/data/carthaginian.toml", include_str!("../data/carthaginian.toml")),
    ("crates/othw/data/generals.toml", include_str!("../data/generals.toml")),
    ("crates/othw/data/traits.toml", include_str!("../data/traits.toml")),
    ("crates/othw/data/army_morale.toml", include_str!("../data/army_morale.toml")),
    ("crates/othw/data/rules.toml", include_str!("../data/rules.toml")),
];

/// A special rule a unit type may carry (the rosters' "special rules" and the traits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Special {
    /// Skirmishers pass through friends and friends through them.
    Interpenetration,
    /// Skirmishers need 5 to hit elephants.
    #[serde(rename = "hit_elephants_5")]
    HitElephants5,
    /// Skirmishers roll 3 dice against skirmishers.
    #[serde(rename = "vs_skirmishers_a3")]
    VsSkirmishersA3,
    /// Must follow up, without a test.
    Impetuous,
    /// Ignores the woods/ford movement limit; 2 dice in forest combat.
    LooseOrder,
    /// Facing changes cost nothing.
    FreeFacing,
    /// Elephants need at most 5 against non-elephants.
    #[serde(rename = "hit_all_on_5")]
    HitAllOn5,
    /// Skirmishers hit this elephant on 5.
    #[serde(rename = "d5_vs_skirmishers")]
    D5VsSkirmishers,
    /// Rolls on the rampage table after losing a round.
    Rampage,
    /// +1 attack die at full strength.
    ThrowingSpears,
    /// A=3 against skirmishers and light cavalry; rerolls one missed die.
    Archers,
    /// A=3, D=5 against other hoplites.
    Hoplites,
    /// Cancels a hit at full strength by a test; flank attackers hit on 5.
    Phalanx,
    /// Elephants need 6 to hit it.
    ElephantDrill,
    /// An African elephant.
    African,
    /// An Indian elephant.
    Indian,
}

impl Special {
    /// Every special, in bit order.
    pub const ALL: [Special; 16] = [
        Special::Interpenetration,
        Special::HitElephants5,
        Special::VsSkirmishersA3,
        Special::Impetuous,
        Special::LooseOrder,
        Special::FreeFacing,
        Special::HitAllOn5,
        Special::D5VsSkirmishers,
        Special::Rampage,
        Special::ThrowingSpears,
        Special::Archers,
        Special::Hoplites,
        Special::Phalanx,
        Special::ElephantDrill,
        Special::African,
        Special::Indian,
    ];

    /// The special's bit in [`Specials`].
    pub const fn bit(self) -> u32 {
        1 << (self as u32)
    }

    /// The name used in the data files.
    pub fn name(self) -> &'static str {
        match self {
            Special::Interpenetration => "interpenetration",
            Special::HitElephants5 => "hit_elephants_5",
            Special::VsSkirmishersA3 => "vs_skirmishers_a3",
            Special::Impetuous => "impetuous",
            Special::LooseOrder => "loose_order",
            Special::FreeFacing => "free_facing",
            Special::HitAllOn5 => "hit_all_on_5",
            Special::D5VsSkirmishers => "d5_vs_skirmishers",
            Special::Rampage => "rampage",
            Special::ThrowingSpears => "throwing_spears",
            Special::Archers => "archers",
            Special::Hoplites => "hoplites",
            Special::Phalanx => "phalanx",
            Special::ElephantDrill => "elephant_drill",
            Special::African => "african",
            Special::Indian => "indian",
        }
    }
}

/// A set of specials as bits (small and cheap to copy in the game state).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Specials(pub u32);

impl Specials {
    /// The set of the listed specials.
    pub fn of(list: &[Special]) -> Specials {
        Specials(list.iter().fold(0, |acc, s| acc | s.bit()))
    }

    /// True when the set holds `s`.
    pub const fn has(self, s: Special) -> bool {
        self.0 & s.bit() != 0
    }

    /// The specials in the set, in bit order.
    pub fn list(self) -> Vec<Special> {
        Special::ALL.into_iter().filter(|s| self.has(*s)).collect()
    }
}

/// The kind of troops, for the rules that name kinds (OTHW-M-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// Skirmishers (Velites).
    Skirmisher,
    /// Foot.
    Infantry,
    /// Horse.
    Cavalry,
    /// Light horse (Archers' A=3 target).
    LightCavalry,
    /// Elephants.
    Elephant,
    /// Chariots.
    Chariot,
}

/// One row of a roster, as written in a data or scenario file.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawUnitType {
    /// The type's name.
    pub name: String,
    /// Its kind.
    pub class: Class,
    /// Moves.
    pub m: u8,
    /// Attack dice.
    pub a: u8,
    /// Defence: the score needed to hit it.
    pub d: u8,
    /// Strength points.
    pub s: u8,
    /// Leadership.
    pub l: u8,
    /// Special rules.
    pub specials: Vec<Special>,
    /// How many retreat tests it takes at most (OTHW-R-42; the rules' default when absent).
    #[serde(default)]
    pub retreat_tests: Option<u8>,
}

/// A validated unit type.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnitType {
    /// The type's name (shared with the units of this type in game states).
    pub name: Arc<str>,
    /// The roster it comes from.
    pub roster: String,
    /// Its kind.
    pub class: Class,
    /// Moves.
    pub m: u8,
    /// Attack dice.
    pub a: u8,
    /// Defence.
    pub d: u8,
    /// Strength.
    pub s: u8,
    /// Leadership.
    pub l: u8,
    /// Special rules.
    pub specials: Specials,
    /// The most retreat tests.
    pub retreat_tests: u8,
}

impl UnitType {
    /// True for skirmishers: types with the interpenetration special (left out of army morale).
    pub fn is_skirmisher(&self) -> bool {
        self.specials.has(Special::Interpenetration)
    }
}

/// Checks a raw unit type and builds it; problems are reported under `path`.
pub fn validate_unit_type(
    raw: &RawUnitType,
    roster: &str,
    default_tests: u8,
    path: &tabletop::diagnostics::FieldPath,
    problems: &mut Problems<'_>,
) -> Option<UnitType> {
    let mut ok = true;
    let mut range = |field: &str, v: u8, lo: u8, hi: u8| {
        if !(lo..=hi).contains(&v) {
            problems.error(path.clone().key(field), format!("{v} is out of range {lo}..={hi}"));
            ok = false;
        }
    };
    range("m", raw.m, 1, 12);
    range("a", raw.a, 0, 12);
    range("d", raw.d, 2, 6);
    range("s", raw.s, 1, 20);
    range("l", raw.l, 1, 6);
    if let Some(t) = raw.retreat_tests {
        range("retreat_tests", t, 0, 6);
    }
    if raw.name.trim().is_empty() {
        problems.error(path.clone().key("name"), "a unit type needs a name");
        ok = false;
    }
    let specials = Specials::of(&raw.specials);
    if specials.has(Special::African) && specials.has(Special::Indian) {
        problems.error(path.clone().key("specials"), "an elephant is African or Indian, not both");
        ok = false;
    }
    ok.then(|| UnitType {
        name: Arc::from(raw.name.as_str()),
        roster: roster.to_string(),
        class: raw.class,
        m: raw.m,
        a: raw.a,
        d: raw.d,
        s: raw.s,
        l: raw.l,
        specials,
        retreat_tests: raw.retreat_tests.unwrap_or(default_tests),
    })
}

/// A roster: its ID, title and types.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Roster {
    /// The ID scenarios name (`generic`, `roman`, `carthaginian`).
    pub id: String,
    /// The title.
    pub title: String,
    /// The unit types.
    pub types: Vec<UnitType>,
}

impl Roster {
    /// The type called `name`.
    pub fn get(&self, name: &str) -> Option<&UnitType> {
        self.types.iter().find(|t| *t.name == *name)
    }
}

/// A general's profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralProfile {
    /// His name.
    pub name: String,
    /// His ability, in words.
    pub ability: String,
    /// Attack dice added when his unit attacks.
    pub attack: u8,
    /// Rally dice.
    pub rally: u8,
    /// Added to the army's starting morale.
    pub army_morale: u8,
    /// Added to his Fate rolls.
    pub fate_modifier: i8,
    /// Failed Risk tests for his attack dice that count as no effect, per game.
    pub ignore_attack_risk: u8,
}

/// Archers' numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Archers {
    /// Base dice against skirmishers and light cavalry.
    pub attack: u8,
    /// Missed dice rerolled per round.
    pub rerolls: u8,
}

/// Hoplites' numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hoplites {
    /// Base dice against hoplites.
    pub attack: u8,
    /// Defence against hoplites.
    pub defence: u8,
}

/// Throwing spears.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThrowingSpears {
    /// Extra dice at full strength.
    pub extra_dice: u8,
}

/// Phalanx.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phalanx {
    /// Hits a passed test cancels.
    pub cancels: u8,
    /// The most a flank attacker needs.
    pub flank_hit: u8,
}

/// Loose order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LooseOrder {
    /// Dice in forest combat.
    pub forest_attack: u8,
}

/// Elephant drill.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElephantDrill {
    /// What elephants need against it.
    pub elephant_hit: u8,
}

/// Indian elephants.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Indian {
    /// What an Indian elephant needs against an African one.
    pub vs_african_hit: u8,
}

/// Skirmishers' specials.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skirmisher {
    /// What a skirmisher needs against an elephant.
    pub vs_elephant_hit: u8,
    /// A skirmisher's dice against a skirmisher.
    pub vs_skirmisher_attack: u8,
}

/// Elephants' specials.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Elephant {
    /// The most an elephant needs against non-elephants.
    pub hit_all: u8,
}

/// `data/traits.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Traits {
    /// Archers.
    pub archers: Archers,
    /// Hoplites.
    pub hoplites: Hoplites,
    /// Throwing spears.
    pub throwing_spears: ThrowingSpears,
    /// Phalanx.
    pub phalanx: Phalanx,
    /// Loose order.
    pub loose_order: LooseOrder,
    /// Elephant drill.
    pub elephant_drill: ElephantDrill,
    /// Indian elephants.
    pub indian: Indian,
    /// Skirmishers.
    pub skirmisher: Skirmisher,
    /// Elephants.
    pub elephant: Elephant,
}

/// The army-morale drops.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Drops {
    /// A non-skirmisher broken by combat.
    pub combat_break: u8,
    /// A fleeing unit slaughtered.
    pub slaughter: u8,
    /// A general lost.
    pub general_lost: u8,
}

/// `data/army_morale.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyMorale {
    /// Non-skirmishers per point (rounded up).
    pub divisor: u8,
    /// Added to the quotient.
    pub base: u8,
    /// Attrition starts when morale falls to this or less.
    pub attrition_from: u8,
    /// SP lost per drop.
    pub attrition_loss: u8,
    /// The drops.
    pub drops: Drops,
}

impl ArmyMorale {
    /// The starting army morale of `non_skirmishers` units, before the general's bonus:
    /// ceil(N / divisor) + base.
    pub fn starting(&self, non_skirmishers: u32) -> u32 {
        let d = u32::from(self.divisor.max(1));
        non_skirmishers.div_ceil(d) + u32::from(self.base)
    }
}

/// Board defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRules {
    /// Columns.
    pub cols: u32,
    /// Rows.
    pub rows: u32,
    /// Deployment rows per side.
    pub deployment_rows: u32,
    /// Turns.
    pub turns: u16,
}

/// Sequence numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SequenceRules {
    /// The phase-end roll's fatal face.
    pub phase_end_on: u8,
    /// Further moves per unit per phase.
    pub further_moves: u8,
}

/// Movement numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementRules {
    /// One step.
    pub step_cost: u8,
    /// One turn.
    pub turn_cost: u8,
    /// Points in woods and fords.
    pub restricted_points: u8,
}

/// Combat numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatRules {
    /// A die at or below this never hits.
    pub never_hits_at_most: u8,
    /// Rear attackers hit on this.
    pub rear_hit: u8,
    /// Dice in forest combat.
    pub forest_attack: u8,
    /// Dice against a unit in a ford.
    pub ford_bonus: u8,
    /// Dice fighting downhill.
    pub downhill_bonus: u8,
    /// SP kept when both would break.
    pub both_broken_keep: u8,
    /// SP lost for a blocked retreat step.
    pub blocked_retreat_loss: u8,
    /// Retreat tests by default.
    pub retreat_tests: u8,
    /// What each failed retreat test does, in order.
    pub retreat_steps: Vec<RetreatStep>,
}

/// What a failed retreat test does (OTHW-CMB-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RetreatStep {
    /// Move one square away from the winner, keeping the facing.
    FallBack,
    /// Turn to face away from the winner.
    FaceAway,
}

/// What a Fate roll does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FateResult {
    /// Removed from the battle.
    Removed,
    /// Misses his side's next turn.
    MissesTurn,
    /// Near miss, no effect.
    NearMiss,
}

/// One row of the Fate table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FateRow {
    /// The row applies to totals up to this.
    pub up_to: i8,
    /// The result.
    pub result: FateResult,
}

/// General numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralRules {
    /// A rally die at or above this cancels a hit.
    pub rally_hit: u8,
    /// A Risk roll at or below this calls for a Fate roll.
    pub risk_fate_at_most: u8,
    /// The Fate table.
    pub fate: Vec<FateRow>,
}

impl GeneralRules {
    /// The Fate table's result for a total.
    pub fn fate(&self, total: i8) -> FateResult {
        self.fate.iter().find(|r| total <= r.up_to).map_or(FateResult::NearMiss, |r| r.result)
    }
}

/// A rampage direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RampageTurn {
    /// No rampage (first roll only).
    None,
    /// Quarter turn anticlockwise.
    Left,
    /// Quarter turn clockwise.
    Right,
    /// Half turn.
    Rear,
    /// Straight on.
    Ahead,
}

/// The rampage table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RampageTable {
    /// The first roll, by face.
    pub first: [RampageTurn; 6],
    /// Later rolls, by face.
    pub later: [RampageTurn; 6],
}

/// `data/rules.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Board defaults.
    pub board: BoardRules,
    /// Sequence of play.
    pub sequence: SequenceRules,
    /// Movement.
    pub movement: MovementRules,
    /// Combat.
    pub combat: CombatRules,
    /// Generals.
    pub general: GeneralRules,
    /// Rampage.
    pub rampage: RampageTable,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGenerals {
    general: Vec<GeneralProfile>,
}

/// Every table of the rule set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Data {
    /// The rosters.
    pub rosters: Vec<Roster>,
    /// The generals.
    pub generals: Vec<GeneralProfile>,
    /// The traits' numbers.
    pub traits: Traits,
    /// Army morale.
    pub morale: ArmyMorale,
    /// Everything else.
    pub rules: Rules,
}

impl Data {
    /// The embedded tables.
    pub fn embedded() -> Result<Data, Diagnostics> {
        let sources: Vec<Source> = EMBEDDED.iter().map(|(n, t)| Source::new(*n, *t)).collect();
        Data::from_sources(&sources)
    }

    /// Tables from the seven files, in the order of [`EMBEDDED`].
    pub fn from_sources(sources: &[Source]) -> Result<Data, Diagnostics> {
        let mut all = Diagnostics(Vec::new());
        if sources.len() != EMBEDDED.len() {
            all.0.push(tabletop::Diagnostic::whole_file(
                "othw data",
                format!("expected {} data files, got {}", EMBEDDED.len(), sources.len()),
            ));
            return Err(all);
        }
        // Rules first: rosters need the default retreat tests.
        let rules: Option<Rules> = read_whole(&sources[6], &mut all, validate_rules);
        let default_tests = rules.as_ref().map_or(3, |r| r.combat.retreat_tests);
        let mut rosters = Vec::new();
        for src in &sources[0..3] {
            if let Some(r) = read_roster(src, default_tests, &mut all) {
                rosters.push(r);
            }
        }
        let generals = read_whole::<RawGenerals>(&sources[3], &mut all, |g, p| {
            for (i, x) in g.general.iter().enumerate() {
                if g.general[..i].iter().any(|y| y.name == x.name) {
                    p.error(("general", i, "name"), format!("'{}' is listed twice", x.name));
                }
            }
        });
        let traits = read_whole::<Traits>(&sources[4], &mut all, validate_traits);
        let morale = read_whole::<ArmyMorale>(&sources[5], &mut all, |m, p| {
            if m.divisor == 0 {
                p.error("divisor", "the divisor must be at least 1");
            }
        });
        match (rules, generals, traits, morale) {
            (Some(rules), Some(g), Some(traits), Some(morale)) if all.0.is_empty() => {
                Ok(Data { rosters, generals: g.general, traits, morale, rules })
            }
            _ => Err(all),
        }
    }

    /// The roster with this ID.
    pub fn roster(&self, id: &str) -> Option<&Roster> {
        self.rosters.iter().find(|r| r.id == id)
    }

    /// The general with this name.
    pub fn general(&self, name: &str) -> Option<&GeneralProfile> {
        self.generals.iter().find(|g| g.name == name)
    }
}

fn read_roster(src: &Source, default_tests: u8, all: &mut Diagnostics) -> Option<Roster> {
    let doc = match TomlDoc::parse(src) {
        Ok(d) => d,
        Err(e) => {
            all.0.extend(e.0);
            return None;
        }
    };
    let mut p = doc.problems();
    doc.check_top_level_keys(&["roster", "title", "unit"], &mut p);
    let id: Option<String> = doc.section("roster", &mut p);
    let title: Option<String> = doc.section("title", &mut p);
    let raw = doc.array::<RawUnitType>("unit", &mut p);
    let roster_id = id.clone().unwrap_or_default();
    let mut types: Vec<UnitType> = Vec::new();
    for (i, r) in &raw {
        let path = tabletop::diagnostics::FieldPath::root().key("unit").index(*i);
        if types.iter().any(|t| *t.name == *r.name) {
            p.error(path.clone().key("name"), format!("'{}' is listed twice", r.name));
        }
        if let Some(t) = validate_unit_type(r, &roster_id, default_tests, &path, &mut p) {
            types.push(t);
        }
    }
    match p.finish() {
        Ok(()) => Some(Roster { id: id?, title: title?, types }),
        Err(e) => {
            all.0.extend(e.0);
            None
        }
    }
}

fn validate_rules(r: &Rules, p: &mut Problems<'_>) {
    let b = &r.board;
    if !(4..=60).contains(&b.cols) {
        p.error("board.cols", "the board needs 4 to 60 columns");
    }
    if !(4..=60).contains(&b.rows) {
        p.error("board.rows", "the board needs 4 to 60 rows");
    }
    if b.deployment_rows == 0 || b.deployment_rows * 2 >= b.rows {
        p.error("board.deployment_rows", "the deployment zones must leave rows between them");
    }
    if b.turns == 0 {
        p.error("board.turns", "a battle needs at least one turn");
    }
    if !(1..=6).contains(&r.sequence.phase_end_on) {
        p.error("sequence.phase_end_on", "a d6 face (1 to 6)");
    }
    for (k, v) in [
        ("combat.rear_hit", r.combat.rear_hit),
        ("general.rally_hit", r.general.rally_hit),
        ("combat.never_hits_at_most", r.combat.never_hits_at_most.max(1)),
    ] {
        if !(1..=6).contains(&v) {
            p.error(k, "a d6 face (1 to 6)");
        }
    }
    if r.combat.both_broken_keep == 0 {
        p.error(
            "combat.both_broken_keep",
            "a unit kept in the fight needs at least 1 strength point",
        );
    }
    if r.combat.retreat_steps.is_empty() {
        p.error("combat.retreat_steps", "at least one step is needed");
    }
    if r.general.fate.is_empty() {
        p.error("general.fate", "the Fate table needs at least one row");
    }
    for (i, w) in r.general.fate.windows(2).enumerate() {
        if w[1].up_to <= w[0].up_to {
            p.error(format!("general.fate[{}].up_to", i + 1), "rows must rise");
        }
    }
    if r.rampage.later.contains(&RampageTurn::None) {
        p.error("rampage.later", "a rampaging elephant always moves: `none` is not allowed here");
    }
}

fn validate_traits(t: &Traits, p: &mut Problems<'_>) {
    for (k, v) in [
        ("hoplites.defence", t.hoplites.defence),
        ("phalanx.flank_hit", t.phalanx.flank_hit),
        ("elephant_drill.elephant_hit", t.elephant_drill.elephant_hit),
        ("indian.vs_african_hit", t.indian.vs_african_hit),
        ("skirmisher.vs_elephant_hit", t.skirmisher.vs_elephant_hit),
        ("elephant.hit_all", t.elephant.hit_all),
    ] {
        if !(2..=6).contains(&v) {
            p.error(k, "a score to hit on a d6 (2 to 6)");
        }
    }
}
