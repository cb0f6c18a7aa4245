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

/// The dice `me` rolls against `foe` and the score it needs (OTHW-R-14's order). `aspect` is
/// where `me` stands seen from `foe`; `general_dice` are the general's added dice (attacker
/// only). Each rule that sets them is handed to `rule` as it applies, in order (the same rule
/// may come twice in a row), for the event that reports them.
pub fn profile(
    data: &Data,
    me: &Combatant,
    foe: &Combatant,
    aspect: Aspect,
    general_dice: u8,
    mut rule: impl FnMut(&'static str),
) -> Profile {
    let t = &data.traits;
    let c = &data.rules.combat;
    rule("OTHW-STAT-02");
    rule("OTHW-CMB-05");
    // Dice: the roster's A, then replacements (the highest applies).
    let mut dice = me.a;
    let mut repl: Option<u8> = None;
    let mut replace = |v: u8| repl = Some(repl.map_or(v, |r: u8| r.max(v)));
    if me.has(Special::Hoplites) && foe.has(Special::Hoplites) {
        replace(t.hoplites.attack);
        rule("OTHW-TRT-02");
    }
    if me.has(Special::Archers) && (foe.is_skirmisher() || foe.class == Class::LightCavalry) {
        replace(t.archers.attack);
        rule("OTHW-TRT-01");
    }
    if me.has(Special::VsSkirmishersA3) && foe.is_skirmisher() {
        replace(t.skirmisher.vs_skirmisher_attack);
        rule("OTHW-TRT-11");
    }
    if let Some(r) = repl {
        dice = r;
    }
    if me.has(Special::ThrowingSpears) && me.sp == me.s {
        dice += t.throwing_spears.extra_dice;
        rule("OTHW-TRT-03");
    }
    if me.terrain == CellTerrain::Wood || foe.terrain == CellTerrain::Wood {
        dice =
            if me.has(Special::LooseOrder) { t.loose_order.forest_attack } else { c.forest_attack };
        rule("OTHW-CMB-07");
    }
    if foe.terrain == CellTerrain::Ford && !foe.has(Special::LooseOrder) {
        dice += c.ford_bonus;
        rule("OTHW-CMB-08");
    }
    if me.terrain == CellTerrain::Hill && foe.terrain != CellTerrain::Hill {
        dice += c.downhill_bonus;
        rule("OTHW-CMB-08");
    }
    if general_dice > 0 {
        dice += general_dice;
        rule("OTHW-GEN-04");
    }
    // The score: the target's D, then specials, then the Phalanx flank, then the rear.
    rule("OTHW-CMB-06");
    let mut need = foe.d;
    if me.has(Special::Hoplites) && foe.has(Special::Hoplites) {
        need = t.hoplites.defence;
    }
    if me.is_elephant() && me.has(Special::HitAllOn5) {
        if foe.is_elephant() {
            if me.has(Special::Indian) && foe.has(Special::African) {
                need = t.indian.vs_african_hit;
                rule("OTHW-TRT-07");
            }
        } else if foe.has(Special::ElephantDrill) {
            need = t.elephant_drill.elephant_hit;
            rule("OTHW-TRT-06");
        } else {
            need = need.min(t.elephant.hit_all);
            rule("OTHW-TRT-12");
        }
    } else if me.is_elephant() && foe.has(Special::ElephantDrill) {
        need = t.elephant_drill.elephant_hit;
        rule("OTHW-TRT-06");
    }
    if me.is_skirmisher()
        && foe.is_elephant()
        && (me.has(Special::HitElephants5) || foe.has(Special::D5VsSkirmishers))
    {
        need = t.skirmisher.vs_elephant_hit;
        rule("OTHW-TRT-11");
    }
    if aspect == Aspect::Flank && foe.has(Special::Phalanx) {
        need = need.min(t.phalanx.flank_hit);
        rule("OTHW-TRT-04");
    }
    if aspect == Aspect::Rear {
        need = c.rear_hit;
        rule("OTHW-CMB-06");
    }
    need = need.max(c.never_hits_at_most + 1);
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
