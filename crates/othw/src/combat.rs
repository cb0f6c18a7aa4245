//! The numbers of one combat round as pure functions: how many dice a side rolls and what it
//! needs to hit (the fixed modifier order of OTHW-R-14), and the leadership test. The engine and
//! the exact [`crate::duel`] calculator both use them.

use crate::data::{Class, Data, Special, Specials};
use tabletop::grid::{CellTerrain, GridFacing};

/// What the rules need to know of one side of a fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Combatant {
    /// Kind.
    pub class: Class,
    /// Specials.
    pub specials: Specials,
    /// Attack dice.
    pub a: u8,
    /// Defence.
    pub d: u8,
    /// Starting strength.
    pub s: u8,
    /// Strength now.
    pub sp: u8,
    /// The terrain of its square.
    pub terrain: CellTerrain,
}

impl Combatant {
    fn has(&self, s: Special) -> bool {
        self.specials.has(s)
    }
    fn is_skirmisher(&self) -> bool {
        self.has(Special::Interpenetration) || self.class == Class::Skirmisher
    }
    fn is_elephant(&self) -> bool {
        self.class == Class::Elephant
    }
}

/// Where the attacker stands, seen from the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aspect {
    /// In the target's front square.
    Front,
    /// In one of its flank squares.
    Flank,
    /// In its rear square.
    Rear,
}

/// The aspect of an attack coming from direction `from_target_to_attacker` on a target facing
/// `target_facing` (OTHW-MOV-01).
pub fn aspect(target_facing: GridFacing, from_target_to_attacker: GridFacing) -> Aspect {
    if from_target_to_attacker == target_facing {
        Aspect::Front
    } else if from_target_to_attacker == target_facing.reversed() {
        Aspect::Rear
    } else {
        Aspect::Flank
    }
}

/// A side's dice and the score it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Dice rolled.
    pub dice: u8,
    /// Score needed to hit (never below the no-hit face + 1).
    pub need: u8,
}

/// Which number of a side a modifier works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Term {
    /// The dice it rolls.
    Dice,
    /// The score it needs to hit.
    Need,
}

/// How a modifier changes its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// Sets it.
    Set,
    /// Adds to it.
    Add,
    /// Makes it at least the value (the highest of several replacements applies).
    AtLeast,
    /// Makes it at most the value.
    AtMost,
}

impl Op {
    /// The number after this change.
    pub fn apply(self, before: u8, value: u8) -> u8 {
        match self {
            Op::Set => value,
            Op::Add => before.saturating_add(value),
            Op::AtLeast => before.max(value),
            Op::AtMost => before.min(value),
        }
    }
}

/// What set or changed a side's dice or its score to hit (OTHW-R-14's steps), each with its
/// rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Factor {
    /// The roster's Attack dice (OTHW-STAT-02).
    Roster,
    /// Hoplites against hoplites roll 3 (OTHW-TRT-02).
    Hoplites,
    /// Archers against skirmishers and light cavalry roll 3 (OTHW-TRT-01).
    Archers,
    /// Skirmishers against skirmishers roll 3 (OTHW-TRT-11).
    VsSkirmishers,
    /// Throwing spears at full strength (OTHW-TRT-03).
    ThrowingSpears,
    /// Either side in woods: 1 die (OTHW-CMB-07).
    Forest,
    /// Loose order in woods: 2 dice (OTHW-CMB-07, TRT-05).
    LooseOrderForest,
    /// The enemy in a ford (OTHW-CMB-08).
    Ford,
    /// No ford die: the enemy in the ford is in loose order (OTHW-TRT-05, R-22).
    FordDenied,
    /// On a hill against an enemy off it (OTHW-CMB-08).
    Downhill,
    /// The general's attack dice (OTHW-GEN-04).
    General,
    /// The target's Defence (OTHW-STAT-03, CMB-06).
    Defence,
    /// Hoplites against hoplites count D as 5 (OTHW-TRT-02).
    HoplitesDefence,
    /// An Indian elephant against an African one (OTHW-TRT-07).
    IndianVsAfrican,
    /// Elephants against Elephant Drill need 6 (OTHW-TRT-06).
    ElephantDrill,
    /// Elephants hit all troops on 5 (OTHW-TRT-12).
    HitAllOn5,
    /// A skirmisher against an elephant (OTHW-TRT-11).
    SkirmisherVsElephant,
    /// Attacking a phalanx from its flank (OTHW-TRT-04).
    PhalanxFlank,
    /// Attacking from the rear (OTHW-CMB-06).
    Rear,
    /// A die at or below the no-hit face never hits (OTHW-CMB-04).
    NeverHits,
}

impl Factor {
    /// The rule it applies.
    pub fn rule(self) -> &'static str {
        match self {
            Factor::Roster => "OTHW-STAT-02",
            Factor::Hoplites | Factor::HoplitesDefence => "OTHW-TRT-02",
            Factor::Archers => "OTHW-TRT-01",
            Factor::VsSkirmishers | Factor::SkirmisherVsElephant => "OTHW-TRT-11",
            Factor::ThrowingSpears => "OTHW-TRT-03",
            Factor::Forest => "OTHW-CMB-07",
            Factor::LooseOrderForest | Factor::FordDenied => "OTHW-TRT-05",
            Factor::Ford | Factor::Downhill => "OTHW-CMB-08",
            Factor::General => "OTHW-GEN-04",
            Factor::Defence => "OTHW-STAT-03",
            Factor::IndianVsAfrican => "OTHW-TRT-07",
            Factor::ElephantDrill => "OTHW-TRT-06",
            Factor::HitAllOn5 => "OTHW-TRT-12",
            Factor::PhalanxFlank => "OTHW-TRT-04",
            Factor::Rear => "OTHW-CMB-06",
            Factor::NeverHits => "OTHW-CMB-04",
        }
    }

    /// A second rule it applies, where it has one.
    pub fn also(self) -> Option<&'static str> {
        match self {
            Factor::LooseOrderForest => Some("OTHW-CMB-07"),
            Factor::FordDenied => Some("OTHW-CMB-08"),
            Factor::Defence => Some("OTHW-CMB-06"),
            _ => None,
        }
    }

    /// The number it works on.
    pub fn term(self) -> Term {
        match self {
            Factor::Roster
            | Factor::Hoplites
            | Factor::Archers
            | Factor::VsSkirmishers
            | Factor::ThrowingSpears
            | Factor::Forest
            | Factor::LooseOrderForest
            | Factor::Ford
            | Factor::FordDenied
            | Factor::Downhill
            | Factor::General => Term::Dice,
            _ => Term::Need,
        }
    }

    /// In a few words.
    pub fn words(self) -> &'static str {
        match self {
            Factor::Roster => "A",
            Factor::Hoplites => "hoplites against hoplites",
            Factor::Archers => "archers against skirmishers or light cavalry",
            Factor::VsSkirmishers => "skirmishers against skirmishers",
            Factor::ThrowingSpears => "throwing spears at full strength",
            Factor::Forest => "fighting in woods",
            Factor::LooseOrderForest => "loose order in woods",
            Factor::Ford => "enemy in a ford",
            Factor::FordDenied => "no ford die against loose order",
            Factor::Downhill => "downhill",
            Factor::General => "general",
            Factor::Defence => "D",
            Factor::HoplitesDefence => "hoplites' D",
            Factor::IndianVsAfrican => "Indian against African",
            Factor::ElephantDrill => "against elephant drill",
            Factor::HitAllOn5 => "elephants hit all troops on",
            Factor::SkirmisherVsElephant => "skirmisher against elephant",
            Factor::PhalanxFlank => "phalanx's flank",
            Factor::Rear => "from the rear",
            Factor::NeverHits => "a 1 never hits",
        }
    }
}

/// One step of how a side's dice or score was made: a factor, how it changes its number, and
/// the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Modifier {
    /// What applied.
    pub factor: Factor,
    /// How.
    pub op: Op,
    /// The value it sets or adds.
    pub value: u8,
}

impl Modifier {
    /// The modifier in words with its rule, e.g. `+1 throwing spears at full strength
    /// [OTHW-TRT-03]`.
    pub fn describe(&self) -> String {
        let v = self.value;
        let what = match (self.factor, self.op) {
            (Factor::Roster | Factor::Defence | Factor::HoplitesDefence, _) => {
                format!("{} {v}", self.factor.words())
            }
            (Factor::FordDenied, _) => self.factor.words().to_string(),
            (Factor::NeverHits, _) => format!("at least {v}: {}", self.factor.words()),
            (_, Op::Add) => format!("+{v} {}", self.factor.words()),
            (_, Op::AtMost) => format!("{}: at most {v}", self.factor.words()),
            (_, Op::AtLeast) => format!("{}: at least {v}", self.factor.words()),
            (_, Op::Set) => format!("{}: {v}", self.factor.words()),
        };
        match self.factor.also() {
            Some(also) if self.factor != Factor::Defence => {
                format!("{what} [{}][{also}]", self.factor.rule())
            }
            _ => format!("{what} [{}]", self.factor.rule()),
        }
    }
}

/// Folds modifiers of one term in order into the number they make.
pub fn total(mods: impl IntoIterator<Item = Modifier>, term: Term) -> u8 {
    mods.into_iter().filter(|m| m.factor.term() == term).fold(0, |n, m| m.op.apply(n, m.value))
}

/// The dice `me` rolls against `foe` and the score it needs (OTHW-R-14's order). `aspect` is
/// where `me` stands seen from `foe`; `general_dice` are the general's added dice (attacker
/// only). Each modifier that applies is handed to `note` as it applies, in order, so that the
/// event can list how the numbers were made; folding them ([`total`]) gives the profile.
pub fn profile(
    data: &Data,
    me: &Combatant,
    foe: &Combatant,
    aspect: Aspect,
    general_dice: u8,
    mut note: impl FnMut(Modifier),
) -> Profile {
    let t = &data.traits;
    let c = &data.rules.combat;
    let mut step = |factor: Factor, op: Op, value: u8, n: &mut u8| {
        *n = op.apply(*n, value);
        note(Modifier { factor, op, value });
    };
    // Dice: the roster's A, then replacements (the highest applies).
    let mut dice = 0;
    step(Factor::Roster, Op::Set, me.a, &mut dice);
    let mut replaced = false;
    let mut replace =
        |factor: Factor, v: u8, dice: &mut u8, step: &mut dyn FnMut(Factor, Op, u8, &mut u8)| {
            step(factor, if replaced { Op::AtLeast } else { Op::Set }, v, dice);
            replaced = true;
        };
    if me.has(Special::Hoplites) && foe.has(Special::Hoplites) {
        replace(Factor::Hoplites, t.hoplites.attack, &mut dice, &mut step);
    }
    if me.has(Special::Archers) && (foe.is_skirmisher() || foe.class == Class::LightCavalry) {
        replace(Factor::Archers, t.archers.attack, &mut dice, &mut step);
    }
    if me.has(Special::VsSkirmishersA3) && foe.is_skirmisher() {
        replace(Factor::VsSkirmishers, t.skirmisher.vs_skirmisher_attack, &mut dice, &mut step);
    }
    if me.has(Special::ThrowingSpears) && me.sp == me.s {
        step(Factor::ThrowingSpears, Op::Add, t.throwing_spears.extra_dice, &mut dice);
    }
    if me.terrain == CellTerrain::Wood || foe.terrain == CellTerrain::Wood {
        if me.has(Special::LooseOrder) {
            step(Factor::LooseOrderForest, Op::Set, t.loose_order.forest_attack, &mut dice);
        } else {
            step(Factor::Forest, Op::Set, c.forest_attack, &mut dice);
        }
    }
    if foe.terrain == CellTerrain::Ford {
        if foe.has(Special::LooseOrder) {
            step(Factor::FordDenied, Op::Add, 0, &mut dice);
        } else {
            step(Factor::Ford, Op::Add, c.ford_bonus, &mut dice);
        }
    }
    if me.terrain == CellTerrain::Hill && foe.terrain != CellTerrain::Hill {
        step(Factor::Downhill, Op::Add, c.downhill_bonus, &mut dice);
    }
    if general_dice > 0 {
        step(Factor::General, Op::Add, general_dice, &mut dice);
    }
    // The score: the target's D, then specials, then the Phalanx flank, then the rear.
    let mut need = 0;
    step(Factor::Defence, Op::Set, foe.d, &mut need);
    if me.has(Special::Hoplites) && foe.has(Special::Hoplites) {
        step(Factor::HoplitesDefence, Op::Set, t.hoplites.defence, &mut need);
    }
    if me.is_elephant() && me.has(Special::HitAllOn5) {
        if foe.is_elephant() {
            if me.has(Special::Indian) && foe.has(Special::African) {
                step(Factor::IndianVsAfrican, Op::Set, t.indian.vs_african_hit, &mut need);
            }
        } else if foe.has(Special::ElephantDrill) {
            step(Factor::ElephantDrill, Op::Set, t.elephant_drill.elephant_hit, &mut need);
        } else {
            step(Factor::HitAllOn5, Op::AtMost, t.elephant.hit_all, &mut need);
        }
    } else if me.is_elephant() && foe.has(Special::ElephantDrill) {
        step(Factor::ElephantDrill, Op::Set, t.elephant_drill.elephant_hit, &mut need);
    }
    if me.is_skirmisher()
        && foe.is_elephant()
        && (me.has(Special::HitElephants5) || foe.has(Special::D5VsSkirmishers))
    {
        step(Factor::SkirmisherVsElephant, Op::Set, t.skirmisher.vs_elephant_hit, &mut need);
    }
    if aspect == Aspect::Flank && foe.has(Special::Phalanx) {
        step(Factor::PhalanxFlank, Op::AtMost, t.phalanx.flank_hit, &mut need);
    }
    if aspect == Aspect::Rear {
        step(Factor::Rear, Op::Set, c.rear_hit, &mut need);
    }
    if need <= c.never_hits_at_most {
        step(Factor::NeverHits, Op::AtLeast, c.never_hits_at_most + 1, &mut need);
    }
    Profile { dice, need }
}

/// A leadership test: one d6 that passes at or above the unit's L (OTHW-R-02).
pub fn leadership_passes(roll: u8, l: u8) -> bool {
    roll >= l
}

/// The chance (in sixths) that a leadership test passes: 7 − L, clamped to 0..=6.
pub fn leadership_sixths(l: u8) -> u8 {
    (7u8.saturating_sub(l)).min(6)
}

/// How a round ends for the two sides (index 0 the attacker, 1 the defender), worked out from
/// the strength each had and the hits each took after every cancellation (OTHW-CMB-09 to
/// CMB-12, FLT-01). The engine and the [`crate::duel`] calculator both decide a round by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundEnd {
    /// Each side's strength after the hits, before any is kept at `keep` (OTHW-CMB-09).
    pub hit_to: [u8; 2],
    /// Each side's strength at the end of the round (OTHW-CMB-12 applied).
    pub sp: [u8; 2],
    /// The side that took fewer hits, if either (OTHW-CMB-11).
    pub winner: Option<usize>,
    /// The sides left at 0 strength, which break and flee (OTHW-FLT-01): the loser, or the
    /// winner when it alone fell to 0, or a side at 0 after a drawn round.
    pub breaks: [bool; 2],
    /// The sides kept at `keep` strength because both would have broken (OTHW-CMB-12).
    pub kept: [bool; 2],
}

impl RoundEnd {
    /// The loser, if the round was not drawn.
    pub fn loser(&self) -> Option<usize> {
        self.winner.map(|w| 1 - w)
    }
}

/// The end of a round from the strengths `sp` and the hits taken `hits` (attacker first):
/// fewer hits wins; when both would fall to 0 the winner (in a draw, both) keeps `keep`
/// strength and only the loser breaks (OTHW-CMB-12); otherwise every side at 0 breaks, the
/// winner included.
pub fn round_end(sp: [u8; 2], hits: [u8; 2], keep: u8) -> RoundEnd {
    let hit_to = [sp[0].saturating_sub(hits[0]), sp[1].saturating_sub(hits[1])];
    let winner = match hits[0].cmp(&hits[1]) {
        std::cmp::Ordering::Less => Some(0),
        std::cmp::Ordering::Greater => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    let mut end = RoundEnd { hit_to, sp: hit_to, winner, breaks: [false; 2], kept: [false; 2] };
    if hit_to == [0, 0] {
        match winner {
            Some(w) => {
                end.sp[w] = keep;
                end.kept[w] = true;
                end.breaks[1 - w] = true;
            }
            None => {
                end.sp = [keep; 2];
                end.kept = [true; 2];
            }
        }
    } else {
        end.breaks = [hit_to[0] == 0, hit_to[1] == 0];
    }
    end
}
