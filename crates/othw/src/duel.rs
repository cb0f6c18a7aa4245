//! Exact odds of one combat round, by enumerating the dice (no sampling): the hits each side
//! takes after Archers' rerolls, the Phalanx cancel and the general's rally, who wins, who
//! breaks, and what happens to a loser that stands: its rampage roll or its up-to-three
//! retreat tests, with the general's reroll when he is with it.
//!
//! Probabilities are exact fractions ([`Ratio`]); every die is a d6, so every denominator is a
//! power of 6 before reduction. To keep the fractions within 128 bits, a side rolls at most
//! [`MAX_DICE`] dice here (far more than any roster reaches). The retreat figures assume open ground behind the loser (no
//! blocked square and no board edge).

use crate::Othw;
use crate::combat::{Aspect, Combatant, leadership_sixths, profile};
use crate::data::{Class, RampageTurn, Special, UnitType};
use serde::Serialize;
use std::fmt;
use tabletop::grid::CellTerrain;

/// The most dice one side rolls in a duel calculation.
pub const MAX_DICE: u8 = 16;

/// An exact probability: a reduced fraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Ratio {
    /// Numerator.
    pub num: u128,
    /// Denominator (never 0).
    pub den: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

impl Ratio {
    /// Zero.
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    /// One.
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };

    /// `num / den`, reduced.
    pub fn new(num: u128, den: u128) -> Ratio {
        let g = gcd(num, den.max(1));
        Ratio { num: num / g, den: den.max(1) / g }
    }

    /// The sum.
    pub fn plus(self, o: Ratio) -> Ratio {
        let g = gcd(self.den, o.den);
        let den = self.den / g * o.den;
        Ratio::new(self.num * (o.den / g) + o.num * (self.den / g), den)
    }

    /// The product.
    pub fn times(self, o: Ratio) -> Ratio {
        let g1 = gcd(self.num, o.den);
        let g2 = gcd(o.num, self.den);
        Ratio::new((self.num / g1) * (o.num / g2), (self.den / g2) * (o.den / g1))
    }

    /// 1 − self (for probabilities).
    pub fn complement(self) -> Ratio {
        Ratio::new(self.den.saturating_sub(self.num), self.den)
    }

    /// As a float.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl std::ops::Add for Ratio {
    type Output = Ratio;
    fn add(self, o: Ratio) -> Ratio {
        self.plus(o)
    }
}

impl std::ops::Mul for Ratio {
    type Output = Ratio;
    fn mul(self, o: Ratio) -> Ratio {
        self.times(o)
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

/// One side of a duel.
#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    /// The unit's type.
    pub ty: UnitType,
    /// Its strength now (`ty.s` at full strength).
    pub sp: u8,
    /// The terrain of its square.
    pub terrain: CellTerrain,
    /// The general with it, if any.
    pub general: Option<DuelGeneral>,
}

impl Fighter {
    /// A fighter at full strength in the open, without a general.
    pub fn new(ty: UnitType) -> Fighter {
        Fighter { sp: ty.s, ty, terrain: CellTerrain::Open, general: None }
    }

    fn combatant(&self) -> Combatant {
        Combatant {
            class: self.ty.class,
            specials: self.ty.specials,
            a: self.ty.a,
            d: self.ty.d,
            s: self.ty.s,
            sp: self.sp,
            terrain: self.terrain,
        }
    }
}

/// A general's part in a duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuelGeneral {
    /// Attack dice added (only when his unit is the attacker).
    pub attack_dice: u8,
    /// Rally dice rolled against the hits on his unit.
    pub rally: u8,
    /// He rerolls his unit's failed leadership tests.
    pub reroll: bool,
}

/// What happens to one side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideOdds {
    /// Dice it rolls (0 when it cannot strike back).
    pub dice: u8,
    /// The score it needs.
    pub need: u8,
    /// P(it takes exactly k hits), after its cancellations, for k = 0, 1, …
    pub hits_taken: Vec<Ratio>,
    /// P(it wins the round).
    pub wins: Ratio,
    /// P(it breaks).
    pub breaks: Ratio,
    /// P(it loses, stands and rampages).
    pub rampages: Ratio,
    /// P(it loses, stands and its retreat tests fail exactly k times), k = 0 (first test
    /// passed) … 3 (fell back, faced about and fell back again).
    pub retreat: [Ratio; 4],
}

/// The odds of one combat round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DuelOdds {
    /// The attacker.
    pub attacker: SideOdds,
    /// The defender.
    pub defender: SideOdds,
    /// P(a drawn round).
    pub draw: Ratio,
}

/// The distribution of hits from `dice` d6 needing `need`, with `rerolls` missed dice
/// rerolled once.
fn hits_dist(dice: u8, need: u8, rerolls: u8) -> Vec<Ratio> {
    let q = Ratio::new(u128::from(7u8.saturating_sub(need)), 6);
    let miss = q.complement();
    let mut dist = vec![Ratio::ONE];
    for _ in 0..dice {
        let mut next = vec![Ratio::ZERO; dist.len() + 1];
        for (k, p) in dist.iter().enumerate() {
            next[k] = next[k].plus(p.times(miss));
            next[k + 1] = next[k + 1].plus(p.times(q));
        }
        dist = next;
    }
    // Rerolls: for each of the first `rerolls` missed dice, another chance.
    for _ in 0..rerolls {
        let mut next = vec![Ratio::ZERO; dist.len() + 1];
        for (k, p) in dist.iter().enumerate() {
            if (k as u8) < dice {
                next[k] = next[k].plus(p.times(miss));
                next[k + 1] = next[k + 1].plus(p.times(q));
            } else {
                next[k] = next[k].plus(*p);
            }
        }
        dist = next;
    }
    dist.truncate(dice as usize + 1);
    dist
}

/// P(a leadership test at `l` passes), with a general's reroll.
fn pass(l: u8, reroll: bool) -> Ratio {
    let p = Ratio::new(u128::from(leadership_sixths(l)), 6);
    if reroll { p.plus(p.complement().times(p)) } else { p }
}

/// Applies the Phalanx cancel and the rally to a distribution of hits taken by `f`.
fn cancels(r: &Othw, f: &Fighter, dist: Vec<Ratio>) -> Vec<Ratio> {
    let mut dist = dist;
    let reroll = f.general.is_some_and(|g| g.reroll);
    if f.ty.specials.has(Special::Phalanx) && f.sp == f.ty.s {
        let c = r.data.traits.phalanx.cancels as usize;
        let p = pass(f.ty.l, reroll);
        let mut next = vec![Ratio::ZERO; dist.len()];
        for (k, pk) in dist.iter().enumerate() {
            if k == 0 {
                next[0] = next[0].plus(*pk);
            } else {
                next[k] = next[k].plus(pk.times(p.complement()));
                next[k.saturating_sub(c)] = next[k.saturating_sub(c)].plus(pk.times(p));
            }
        }
        dist = next;
    }
    if let Some(g) = f.general.filter(|g| g.rally > 0) {
        let ok = hits_dist(g.rally.min(MAX_DICE), r.data.rules.general.rally_hit, 0);
        let mut next = vec![Ratio::ZERO; dist.len()];
        for (k, pk) in dist.iter().enumerate() {
            if k == 0 {
                next[0] = next[0].plus(*pk);
                continue;
            }
            for (c, pc) in ok.iter().enumerate() {
                let left = k - c.min(k);
                next[left] = next[left].plus(pk.times(*pc));
            }
        }
        dist = next;
    }
    dist
}

/// P(exactly k retreat-test failures) for k = 0..=3 given `tests` tests at `l`.
fn retreat_dist(l: u8, tests: u8, reroll: bool) -> [Ratio; 4] {
    let p = pass(l, reroll);
    let mut out = [Ratio::ZERO; 4];
    let mut fail_so_far = Ratio::ONE;
    for k in 0..=3u8.min(tests) {
        if k == tests.min(3) {
            out[k as usize] = fail_so_far;
        } else {
            out[k as usize] = fail_so_far.times(p);
            fail_so_far = fail_so_far.times(p.complement());
        }
    }
    out
}

impl Othw {
    /// The exact odds of one round: `attacker` fights `defender`, standing at `aspect` seen
    /// from the defender; the attacker's general adds his dice when `use_general_dice`.
    pub fn duel(
        &self,
        attacker: &Fighter,
        defender: &Fighter,
        aspect: Aspect,
        use_general_dice: bool,
    ) -> DuelOdds {
        let (ca, cd) = (attacker.combatant(), defender.combatant());
        let gd = if use_general_dice { attacker.general.map_or(0, |g| g.attack_dice) } else { 0 };
        let mut pa = profile(&self.data, &ca, &cd, aspect, gd, |_| ());
        let mut pd = profile(&self.data, &cd, &ca, Aspect::Front, 0, |_| ());
        pa.dice = pa.dice.min(MAX_DICE);
        pd.dice = pd.dice.min(MAX_DICE);
        let back = aspect == Aspect::Front;
        let reroll_of = |f: &Fighter| {
            if f.ty.specials.has(Special::Archers) { self.data.traits.archers.rerolls } else { 0 }
        };
        let on_def = cancels(self, defender, hits_dist(pa.dice, pa.need, reroll_of(attacker)));
        let on_att = if back {
            cancels(self, attacker, hits_dist(pd.dice, pd.need, reroll_of(defender)))
        } else {
            vec![Ratio::ONE]
        };
        let rampage_share = |f: &Fighter| {
            if f.ty.specials.has(Special::Rampage) {
                let n = self
                    .data
                    .rules
                    .rampage
                    .first
                    .iter()
                    .filter(|t| **t != RampageTurn::None)
                    .count();
                Ratio::new(n as u128, 6)
            } else {
                Ratio::ZERO
            }
        };
        let mut a = SideOdds {
            dice: pa.dice,
            need: pa.need,
            hits_taken: on_att.clone(),
            wins: Ratio::ZERO,
            breaks: Ratio::ZERO,
            rampages: Ratio::ZERO,
            retreat: [Ratio::ZERO; 4],
        };
        let mut d = SideOdds {
            dice: if back { pd.dice } else { 0 },
            need: pd.need,
            hits_taken: on_def.clone(),
            wins: Ratio::ZERO,
            breaks: Ratio::ZERO,
            rampages: Ratio::ZERO,
            retreat: [Ratio::ZERO; 4],
        };
        let mut draw = Ratio::ZERO;
        let ret_a = retreat_dist(
            attacker.ty.l,
            attacker.ty.retreat_tests,
            attacker.general.is_some_and(|g| g.reroll),
        );
        let ret_d = retreat_dist(
            defender.ty.l,
            defender.ty.retreat_tests,
            defender.general.is_some_and(|g| g.reroll),
        );
        for (ha, p_ha) in on_att.iter().enumerate() {
            for (hd, p_hd) in on_def.iter().enumerate() {
                let p = p_ha.times(*p_hd);
                if p.num == 0 {
                    continue;
                }
                let sp_a = attacker.sp.saturating_sub(ha as u8);
                let sp_d = defender.sp.saturating_sub(hd as u8);
                match ha.cmp(&hd) {
                    std::cmp::Ordering::Equal => {
                        draw = draw.plus(p);
                        // Both at 0 in a draw: both kept at 1; one at 0 breaks.
                        if !(sp_a == 0 && sp_d == 0) {
                            if sp_a == 0 {
                                a.breaks = a.breaks.plus(p);
                            }
                            if sp_d == 0 {
                                d.breaks = d.breaks.plus(p);
                            }
                        }
                    }
                    std::cmp::Ordering::Less => {
                        a.wins = a.wins.plus(p);
                        Self::loser(&mut d, sp_d, p, rampage_share(defender), &ret_d);
                    }
                    std::cmp::Ordering::Greater => {
                        d.wins = d.wins.plus(p);
                        Self::loser(&mut a, sp_a, p, rampage_share(attacker), &ret_a);
                    }
                }
            }
        }
        DuelOdds { attacker: a, defender: d, draw }
    }

    fn loser(o: &mut SideOdds, sp: u8, p: Ratio, rampage: Ratio, ret: &[Ratio; 4]) {
        if sp == 0 {
            o.breaks = o.breaks.plus(p);
            return;
        }
        o.rampages = o.rampages.plus(p.times(rampage));
        let stays = p.times(rampage.complement());
        for (k, r) in ret.iter().enumerate() {
            o.retreat[k] = o.retreat[k].plus(stays.times(*r));
        }
    }

    /// A unit type by roster and name, for duels (`None` when unknown).
    pub fn unit_type(&self, roster: &str, name: &str) -> Option<UnitType> {
        self.data.roster(roster)?.get(name).cloned()
    }
}

/// True for elephants (for callers that label duels).
pub fn is_elephant(t: &UnitType) -> bool {
    t.class == Class::Elephant
}
