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
use crate::combat::{Aspect, Combatant, leadership_sixths, profile, round_end};
use crate::data::{Class, FateResult, GeneralProfile, RampageTurn, Special, UnitType};
use crate::state::{General, Orders, State, Unit};
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

    /// The sum (exact while the terms fit in 128 bits; beyond, the nearest fraction over
    /// 2⁵³).
    pub fn plus(self, o: Ratio) -> Ratio {
        let g = gcd(self.den, o.den);
        let (x, y) = (self.den / g, o.den / g);
        match (self.num.checked_mul(y), o.num.checked_mul(x), x.checked_mul(o.den)) {
            (Some(a), Some(b), Some(den)) if a.checked_add(b).is_some() => Ratio::new(a + b, den),
            _ => Ratio::approx(self.to_f64() + o.to_f64()),
        }
    }

    /// The product (exact while it fits in 128 bits; beyond, the nearest fraction over 2⁵³).
    pub fn times(self, o: Ratio) -> Ratio {
        let g1 = gcd(self.num, o.den);
        let g2 = gcd(o.num, self.den);
        let (n1, n2, d1, d2) = (self.num / g1, o.num / g2, self.den / g2, o.den / g1);
        match (n1.checked_mul(n2), d1.checked_mul(d2)) {
            (Some(num), Some(den)) => Ratio::new(num, den),
            _ => Ratio::approx(self.to_f64() * o.to_f64()),
        }
    }

    /// The fraction over 2⁵³ nearest `x` (only where an exact one would not fit).
    fn approx(x: f64) -> Ratio {
        let den = 1u128 << 53;
        Ratio::new((x.max(0.0) * den as f64).round() as u128, den)
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
    /// The general with it, if any (and active: not lost, not away).
    pub general: Option<DuelGeneral>,
    /// Its side's standing order to take the Phalanx cancel test (OTHW-TRT-04, GEN-11).
    pub phalanx_test: bool,
}

impl Fighter {
    /// A fighter at full strength in the open, without a general.
    pub fn new(ty: UnitType) -> Fighter {
        Fighter { sp: ty.s, ty, terrain: CellTerrain::Open, general: None, phalanx_test: true }
    }

    /// Unit `x` of a game as the engine would fight with it standing on `terrain`: its
    /// strength, its active general with the side's standing orders, the Phalanx order.
    pub fn of_unit(st: &State, x: &Unit, terrain: CellTerrain) -> Fighter {
        let orders = st.side(x.side).orders;
        Fighter {
            ty: UnitType {
                name: x.type_name.clone(),
                roster: String::new(),
                class: x.class,
                m: x.m,
                a: x.a,
                d: x.d,
                s: x.s,
                l: x.l,
                specials: x.specials,
                retreat_tests: x.retreat_tests,
            },
            sp: x.sp,
            terrain,
            general: st
                .active_general(x.side)
                .filter(|g| g.unit == x.id)
                .map(|g| DuelGeneral::of_game(g, orders)),
            phalanx_test: orders.phalanx,
        }
    }

    pub(crate) fn combatant(&self) -> Combatant {
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

/// A general's part in a duel: what he adds and what he risks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DuelGeneral {
    /// Attack dice added (only when his unit is the attacker and they are used).
    pub attack_dice: u8,
    /// Rally dice rolled against the hits on his unit (0: his side's orders say no rally).
    pub rally: u8,
    /// He rerolls his unit's failed leadership tests (his side's orders).
    pub reroll: bool,
    /// Added to his Fate rolls (Hannibal +1).
    pub fate_modifier: i8,
    /// A failed Risk test for his attack dice still counts as no effect (Alexander, once a
    /// game: OTHW-GEN-09).
    pub ignore_attack_risk: bool,
}

impl DuelGeneral {
    /// A general of the data tables, with the default orders (reroll and rally).
    pub fn of(g: &GeneralProfile) -> DuelGeneral {
        DuelGeneral {
            attack_dice: g.attack,
            rally: g.rally,
            reroll: true,
            fate_modifier: g.fate_modifier,
            ignore_attack_risk: g.ignore_attack_risk > 0,
        }
    }

    /// A general of a game under his side's standing orders.
    pub fn of_game(g: &General, orders: Orders) -> DuelGeneral {
        DuelGeneral {
            attack_dice: g.attack,
            rally: if orders.rally { g.rally } else { 0 },
            reroll: orders.reroll,
            fate_modifier: g.fate_modifier,
            ignore_attack_risk: g.ignore_attack_risk > 0,
        }
    }
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
    /// P(it breaks): as the loser, as a winner left alone at 0, or at 0 after a draw.
    pub breaks: Ratio,
    /// P(it loses, stands and rampages).
    pub rampages: Ratio,
    /// P(it loses, stands and its retreat tests fail exactly k times), k = 0 (first test
    /// passed) up to its number of tests (all failed: with the usual three, fell back, faced
    /// about and fell back again).
    pub retreat: Vec<Ratio>,
    /// P(its general is lost or put out of action (a Fate roll of "removed" or "misses a
    /// turn") during the round and the loser's tests), for a fighter with a general.
    pub general_out: Ratio,
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

/// A probability split by whether the side's general is still in action: `[out, in]`.
type ByGeneral = [Ratio; 2];

/// How one side's general fares in the round: the chance that one Risk to General test puts
/// him out of action, for an attack-dice test and for any other.
#[derive(Clone, Copy)]
struct Risk {
    attack: Ratio,
    other: Ratio,
    reroll: bool,
}

impl Othw {
    /// P(one Risk to General test puts `g` out of action): a Fate roll is called (OTHW-GEN-06)
    /// and its total removes him or makes him miss a turn (GEN-07, GEN-08); for his attack dice
    /// none while a failure is still to be ignored (GEN-09).
    fn risk_of(&self, g: &DuelGeneral) -> Risk {
        let gr = &self.data.rules.general;
        let fate = (1..=6u8).filter(|&f| f <= gr.risk_fate_at_most).count() as u128;
        let out = (1..=6i8)
            .filter(|&f| gr.fate(f.saturating_add(g.fate_modifier)) != FateResult::NearMiss)
            .count() as u128;
        let other = Ratio::new(fate * out, 36);
        Risk {
            attack: if g.ignore_attack_risk { Ratio::ZERO } else { other },
            other,
            reroll: g.reroll,
        }
    }

    /// One leadership test at `l` from the general's state `at`: returns (pass, fail), each by
    /// the general's state after it. With him in action and rerolling, a failure is rerolled
    /// and a Risk test follows the reroll whatever it shows (OTHW-GEN-03).
    fn test_odds(l: u8, risk: Option<Risk>, at: ByGeneral) -> (ByGeneral, ByGeneral) {
        let p = Ratio::new(u128::from(leadership_sixths(l)), 6);
        let f = p.complement();
        let mut pass = [at[0].times(p), at[1].times(p)];
        let mut fail = [at[0].times(f), Ratio::ZERO];
        match risk.filter(|r| r.reroll) {
            Some(r) => {
                let (stays, goes) = (r.other.complement(), r.other);
                let rerolled = at[1].times(f);
                for (to, q) in [(&mut pass, p), (&mut fail, f)] {
                    let x = rerolled.times(q);
                    to[0] = to[0].plus(x.times(goes));
                    to[1] = to[1].plus(x.times(stays));
                }
            }
            None => fail[1] = at[1].times(f),
        }
        (pass, fail)
    }

    /// The hits `f` takes from `dist` after its Phalanx test and its general's rally, by the
    /// general's state (`start`: his state when the round's dice are down), in the engine's
    /// order (OTHW-CMB-10).
    fn cancels(&self, f: &Fighter, dist: &[Ratio], start: ByGeneral) -> Vec<ByGeneral> {
        let risk = f.general.map(|g| self.risk_of(&g));
        let mut out: Vec<ByGeneral> =
            dist.iter().map(|p| [p.times(start[0]), p.times(start[1])]).collect();
        let t = &self.data.traits;
        if f.ty.specials.has(Special::Phalanx) && f.sp == f.ty.s && f.phalanx_test {
            let c = usize::from(t.phalanx.cancels);
            let mut next = vec![[Ratio::ZERO; 2]; out.len()];
            for (k, at) in out.iter().enumerate() {
                if k == 0 {
                    next[0] = add(next[0], *at);
                    continue;
                }
                let (pass, fail) = Self::test_odds(f.ty.l, risk, *at);
                let left = k - c.min(k);
                next[left] = add(next[left], pass);
                next[k] = add(next[k], fail);
            }
            out = next;
        }
        if let (Some(g), Some(r)) = (f.general.filter(|g| g.rally > 0), risk) {
            let ok = hits_dist(g.rally.min(MAX_DICE), self.data.rules.general.rally_hit, 0);
            let mut next = vec![[Ratio::ZERO; 2]; out.len()];
            for (k, at) in out.iter().enumerate() {
                next[k][0] = next[k][0].plus(at[0]);
                if k == 0 {
                    next[0][1] = next[0][1].plus(at[1]);
                    continue;
                }
                // Rally dice, then his Risk test (OTHW-GEN-05).
                for (c, pc) in ok.iter().enumerate() {
                    let left = k - c.min(k);
                    let x = at[1].times(*pc);
                    next[left][0] = next[left][0].plus(x.times(r.other));
                    next[left][1] = next[left][1].plus(x.times(r.other.complement()));
                }
            }
            out = next;
        }
        out
    }

    /// The loser's retreat tests from its general's state `at`: P(exactly k failures) for
    /// k = 0..=tests, each by the general's state at the end.
    fn retreat_odds(f: &Fighter, risk: Option<Risk>, at: ByGeneral) -> Vec<ByGeneral> {
        let tests = usize::from(f.ty.retreat_tests);
        let mut out = vec![[Ratio::ZERO; 2]; tests + 1];
        let mut failing = at;
        for slot in out.iter_mut().take(tests) {
            let (pass, fail) = Self::test_odds(f.ty.l, risk, failing);
            *slot = pass;
            failing = fail;
        }
        out[tests] = failing;
        out
    }

    /// The exact odds of one round: `attacker` fights `defender`, standing at `aspect` seen
    /// from the defender; the attacker's general adds his dice when `use_general_dice`. It
    /// follows the engine's round step by step (OTHW-CMB-10): the dice, the attacker's Risk
    /// test for his general's dice, the Archers' rerolls, each side's Phalanx test and rally
    /// (a general put out of action by a Risk test rallies and rerolls no more), the end of the
    /// round ([`round_end`]), and the loser's rampage roll or retreat tests.
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
        let (risk_a, risk_d) = (
            attacker.general.map(|g| self.risk_of(&g)),
            defender.general.map(|g| self.risk_of(&g)),
        );
        let present = |f: &Fighter| {
            if f.general.is_some() { [Ratio::ZERO, Ratio::ONE] } else { [Ratio::ONE, Ratio::ZERO] }
        };
        // The attacker's general takes his Risk test for his dice once they are rolled.
        let mut start_a = present(attacker);
        if gd > 0
            && let Some(r) = risk_a
        {
            start_a = [r.attack, r.attack.complement()];
        }
        let on_d = hits_dist(pa.dice, pa.need, reroll_of(attacker));
        let on_d = self.cancels(defender, &on_d, present(defender));
        let on_a = if back {
            self.cancels(attacker, &hits_dist(pd.dice, pd.need, reroll_of(defender)), start_a)
        } else {
            vec![start_a]
        };
        let rampage_share = |f: &Fighter| {
            if f.ty.specials.has(Special::Rampage) {
                let first = &self.data.rules.rampage.first;
                Ratio::new(first.iter().filter(|t| **t != RampageTurn::None).count() as u128, 6)
            } else {
                Ratio::ZERO
            }
        };
        let side =
            |f: &Fighter, p: &crate::combat::Profile, dice: u8, hits: &[ByGeneral]| SideOdds {
                dice,
                need: p.need,
                hits_taken: hits.iter().map(|h| h[0].plus(h[1])).collect(),
                wins: Ratio::ZERO,
                breaks: Ratio::ZERO,
                rampages: Ratio::ZERO,
                retreat: vec![Ratio::ZERO; usize::from(f.ty.retreat_tests) + 1],
                general_out: Ratio::ZERO,
            };
        let mut a = side(attacker, &pa, pa.dice, &on_a);
        let mut d = side(defender, &pd, if back { pd.dice } else { 0 }, &on_d);
        let mut draw = Ratio::ZERO;
        let keep = self.data.rules.combat.both_broken_keep;
        let fighters = [attacker, defender];
        let risks = [risk_a, risk_d];
        for (ha, pa_h) in on_a.iter().enumerate() {
            for (hd, pd_h) in on_d.iter().enumerate() {
                let p = pa_h[0].plus(pa_h[1]).times(pd_h[0].plus(pd_h[1]));
                if p.num == 0 {
                    continue;
                }
                let end = round_end([attacker.sp, defender.sp], [ha as u8, hd as u8], keep);
                let by = [pa_h, pd_h];
                let mut odds = [&mut a, &mut d];
                for (o, breaks) in odds.iter_mut().zip(end.breaks) {
                    if breaks {
                        o.breaks = o.breaks.plus(p);
                    }
                }
                let Some(w) = end.winner else {
                    draw = draw.plus(p);
                    for i in 0..2 {
                        let g_out = by[i][0].times(by[1 - i][0].plus(by[1 - i][1]));
                        odds[i].general_out = odds[i].general_out.plus(g_out);
                    }
                    continue;
                };
                let l = 1 - w;
                odds[w].wins = odds[w].wins.plus(p);
                let other = |i: usize| by[1 - i][0].plus(by[1 - i][1]);
                odds[w].general_out = odds[w].general_out.plus(by[w][0].times(other(w)));
                if end.breaks[l] {
                    odds[l].general_out = odds[l].general_out.plus(by[l][0].times(other(l)));
                    continue;
                }
                // The loser stands: its rampage roll, or its retreat tests.
                let f = fighters[l];
                let share = rampage_share(f);
                let rampage = p.times(share);
                odds[l].rampages = odds[l].rampages.plus(rampage);
                let out_now = by[l][0].times(other(l));
                odds[l].general_out = odds[l].general_out.plus(out_now.times(share));
                let scale = other(l).times(share.complement());
                let from = [by[l][0].times(scale), by[l][1].times(scale)];
                for (k, r) in Self::retreat_odds(f, risks[l], from).iter().enumerate() {
                    odds[l].retreat[k] = odds[l].retreat[k].plus(r[0].plus(r[1]));
                    odds[l].general_out = odds[l].general_out.plus(r[0]);
                }
            }
        }
        if attacker.general.is_none() {
            a.general_out = Ratio::ZERO;
        }
        if defender.general.is_none() {
            d.general_out = Ratio::ZERO;
        }
        DuelOdds { attacker: a, defender: d, draw }
    }

    /// A unit type by roster and name, for duels (`None` when unknown).
    pub fn unit_type(&self, roster: &str, name: &str) -> Option<UnitType> {
        self.data.roster(roster)?.get(name).cloned()
    }
}

fn add(a: ByGeneral, b: ByGeneral) -> ByGeneral {
    [a[0].plus(b[0]), a[1].plus(b[1])]
}

/// True for elephants (for callers that label duels).
pub fn is_elephant(t: &UnitType) -> bool {
    t.class == Class::Elephant
}
