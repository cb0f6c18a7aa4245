//! A scripted O/THW player ([`Scripted`]). The Monte Carlo tree search hooks that use it are in
//! [`crate::search`].
//!
//! # How the scripted player chooses
//!
//! On each decision it scores a short list of candidate actions and gives the best one, or ends
//! the phase when none is worth its phase-end roll:
//!
//! 1. **Orders.** If the general's standing orders differ from the ones it wants (reroll failed
//!    tests, rally, take the Phalanx test, and follow up unless its army morale is down to the
//!    attrition level), it sets them first: that costs no action and no roll.
//! 2. **Attacks** (standing combats and charges of every unit that may still fight). Each is
//!    scored from the exact odds of the round ([`crate::duel`], cached per pairing):
//!    `2·P(enemy breaks) + P(win) − P(lose) − 2·P(own unit breaks)`, plus a bonus for a flank or
//!    rear attack (no strike back), plus a bonus for catching a fleeing unit (slaughter), minus a
//!    small price for the general's attack dice (his Risk test). An attack is made when its
//!    score is above [`Weights::attack_min`].
//! 3. **Moves** of single units, scored as the change in the unit's *position value*:
//!    - closer to the nearest enemy (each square gained is worth [`Weights::approach`], less for
//!      weakened units and skirmishers);
//!    - facing the nearest enemy;
//!    - friends on its flank squares (mutual support: a supported flank cannot be charged);
//!    - no open flank or rear square that an enemy can reach next phase, and no enemy already
//!      standing on one;
//!    - not standing with its back to the board edge while enemies are close (a lost round
//!      would push it off);
//!    - in front of an adjacent enemy only when its own attack there is good and the enemy's
//!      is not.
//!
//!    A further move (a leadership test that may end the phase) must gain more
//!    ([`Weights::further_min`]) than a first move ([`Weights::move_min`]).
//! 4. **Group advance.** While the enemy is still far off, the largest block of connected units
//!    steps forward together (one action and at most one roll for the whole line).
//! 5. The general's unit is exempt from the phase-end roll, so its actions wait until the
//!    others' are done (or the phase is over): the rest of the army acts first and the general
//!    acts, rerolls and rallies where the fighting is.
//!
//! Ties go to the first candidate in unit order; the bot draws nothing from its generator, so it
//! is deterministic.

use crate::Othw;
use crate::combat::{Aspect, aspect};
use crate::data::UnitType;
use crate::duel::{DuelGeneral, Fighter};
use crate::legal::{Reach, Scratch};
use crate::state::{Command, EMPTY, Orders, State, Status, Unit, UnitId, flags};
use bots::{Bot, BotError};
use std::collections::HashMap;
use tabletop::SeededDice;
use tabletop::grid::{CellPos, CellTerrain, GridFacing};
use tabletop::rules::Side;

/// The weights of the scripted player's evaluation (see the [module documentation](self)).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Value of each square closer to the nearest enemy.
    pub approach: f64,
    /// Value of facing the nearest enemy.
    pub facing: f64,
    /// Value of each flank square held by a friend.
    pub support: f64,
    /// Price of an open flank square an enemy can reach.
    pub exposed_flank: f64,
    /// Price of an open rear square an enemy can reach.
    pub exposed_rear: f64,
    /// Price of an enemy already on a flank or rear square.
    pub flanked: f64,
    /// Price of the back to the board edge with enemies close.
    pub edge: f64,
    /// Weight of the enemy's attack odds on a unit standing in its front.
    pub danger: f64,
    /// Weight of the unit's own attack odds from its new square.
    pub threat: f64,
    /// The least attack score worth an attack.
    pub attack_min: f64,
    /// The least gain worth a first move.
    pub move_min: f64,
    /// The least gain worth a further move.
    pub further_min: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            approach: 1.0,
            facing: 0.4,
            support: 0.35,
            exposed_flank: 0.5,
            exposed_rear: 0.8,
            flanked: 1.2,
            edge: 0.8,
            danger: 1.0,
            threat: 0.6,
            attack_min: 0.0,
            move_min: 0.3,
            further_min: 1.2,
        }
    }
}

/// The odds of one attack, as floats.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Odds {
    /// P(the attacker wins the round).
    pub win: f64,
    /// P(the attacker loses it).
    pub lose: f64,
    /// P(the defender breaks).
    pub foe_breaks: f64,
    /// P(the attacker breaks).
    pub own_breaks: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct FighterKey {
    class: crate::data::Class,
    specials: crate::data::Specials,
    stats: [u8; 7],
    terrain: CellTerrain,
    general: Option<(u8, u8, bool)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct DuelKey {
    att: FighterKey,
    def: FighterKey,
    aspect: u8,
    general_dice: bool,
}

/// A small multiply-rotate hasher for the odds cache (the keys are a few dozen bytes of
/// integers; SipHash's resistance to flooding is not needed here).
#[derive(Clone, Copy, Debug, Default)]
struct Fx(u64);

impl Fx {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl std::hash::Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            self.add(u64::from_le_bytes(b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type OddsCache = HashMap<DuelKey, Odds, std::hash::BuildHasherDefault<Fx>>;

/// The scripted player. See the [module documentation](self).
#[derive(Clone, Debug, Default)]
pub struct Scripted {
    /// The evaluation's weights.
    pub weights: Weights,
    odds: OddsCache,
    scratch: Scratch,
    reach: Reach,
    /// Distance from each cell to the nearest enemy of the side deciding.
    dist: Vec<u8>,
    /// Per cell: how many enemies could reach it next phase.
    reachable: Vec<u8>,
}

/// What `scripted` says of itself in listings.
pub const SCRIPTED_ABOUT: &str = "a scripted O/THW player: attacks at good exact odds and on \
flanks, keeps units in mutual support, advances in line, keeps the general for last";

fn aspect_code(a: Aspect) -> u8 {
    match a {
        Aspect::Front => 0,
        Aspect::Flank => 1,
        Aspect::Rear => 2,
    }
}

fn fighter_key(st: &State, x: &Unit, at: CellPos) -> FighterKey {
    let general = st.active_general(x.side).filter(|g| g.unit == x.id).map(|g| {
        let o = st.side(x.side).orders;
        (g.attack, if o.rally { g.rally } else { 0 }, o.reroll)
    });
    FighterKey {
        class: x.class,
        specials: x.specials,
        stats: [x.m, x.a, x.d, x.s, x.l, x.retreat_tests, x.sp],
        terrain: st.board.terrain(at),
        general,
    }
}

fn fighter(k: &FighterKey) -> Fighter {
    let [m, a, d, s, l, retreat_tests, sp] = k.stats;
    Fighter {
        ty: UnitType {
            name: String::new(),
            roster: String::new(),
            class: k.class,
            m,
            a,
            d,
            s,
            l,
            specials: k.specials,
            retreat_tests,
        },
        sp,
        terrain: k.terrain,
        general: k.general.map(|(attack_dice, rally, reroll)| DuelGeneral {
            attack_dice,
            rally,
            reroll,
        }),
    }
}

fn is_fighting(x: &Unit) -> bool {
    matches!(x.status, Status::Ready | Status::Rampaging)
}

/// The orders the scripted player wants for `side`.
pub fn wanted_orders(r: &Othw, st: &State, side: Side) -> Orders {
    Orders {
        reroll: true,
        rally: true,
        follow_up: st.side(side).am > r.data.morale.attrition_from,
        phalanx: true,
    }
}

impl Scripted {
    /// A scripted player with the default weights.
    pub fn new() -> Scripted {
        Scripted::default()
    }

    /// The odds of `att` attacking `def` from `from` at `aspect` (cached by the pairing).
    pub fn odds(
        &mut self,
        r: &Othw,
        st: &State,
        (att, from): (UnitId, CellPos),
        def: UnitId,
        aspect: Aspect,
        general_dice: bool,
    ) -> Odds {
        let (a, d) = (&st.units[att as usize], &st.units[def as usize]);
        let (ka, kd) = (fighter_key(st, a, from), fighter_key(st, d, d.pos));
        self.keyed_odds(r, ka, kd, aspect, general_dice)
    }

    fn keyed_odds(
        &mut self,
        r: &Othw,
        att: FighterKey,
        def: FighterKey,
        aspect: Aspect,
        general_dice: bool,
    ) -> Odds {
        let key = DuelKey { att, def, aspect: aspect_code(aspect), general_dice };
        *self.odds.entry(key).or_insert_with(|| {
            let o = r.duel(&fighter(&key.att), &fighter(&key.def), aspect, general_dice);
            Odds {
                win: o.attacker.wins.to_f64(),
                lose: o.defender.wins.to_f64(),
                foe_breaks: o.defender.breaks.to_f64(),
                own_breaks: o.attacker.breaks.to_f64(),
            }
        })
    }

    /// The score of an attack by `u` from `from` facing `facing` (see the module
    /// documentation).
    #[allow(clippy::too_many_arguments)]
    pub fn attack_score(
        &mut self,
        r: &Othw,
        st: &State,
        u: UnitId,
        from: CellPos,
        facing: GridFacing,
        target: UnitId,
        general_dice: bool,
    ) -> f64 {
        let (x, t) = (&st.units[u as usize], &st.units[target as usize]);
        if t.side == x.side {
            // The mahouts' business, not the army's.
            return f64::NEG_INFINITY;
        }
        if t.status == Status::Fleeing {
            return 3.0;
        }
        let asp = aspect(t.facing, facing.reversed());
        let o = self.odds(r, st, (u, from), target, asp, general_dice);
        let mut s = 2.0 * o.foe_breaks + o.win - o.lose - 2.0 * o.own_breaks;
        if asp != Aspect::Front {
            s += 0.25;
        }
        if st.has_general(target) {
            s += 0.5 * o.foe_breaks;
        }
        if general_dice {
            s -= 0.1;
        }
        s
    }

    /// Fills the per-cell maps for `side`: distance to the nearest enemy, and how many enemies
    /// could reach each cell next phase.
    fn maps(&mut self, st: &State, side: Side) {
        let g = &st.board.grid;
        let n = g.cells.len();
        let (cols, rows) = (g.cols as i32, g.rows as i32);
        self.dist.clear();
        self.dist.resize(n, u8::MAX);
        self.reachable.clear();
        self.reachable.resize(n, 0);
        let mut any = false;
        for e in &st.units {
            if e.side == side || !is_fighting(e) {
                continue;
            }
            any = true;
            if let Some(i) = st.board.grid.index(e.pos) {
                self.dist[i] = 0;
            }
            if e.status != Status::Ready {
                continue;
            }
            // The cells within its move and a step: a diamond.
            let reach = i32::from(e.m) + 1;
            for r in (e.pos.row - reach).max(0)..=(e.pos.row + reach).min(rows - 1) {
                let span = reach - (r - e.pos.row).abs();
                let row = (r * cols) as usize;
                for c in (e.pos.col - span).max(0)..=(e.pos.col + span).min(cols - 1) {
                    self.reachable[row + c as usize] += 1;
                }
            }
        }
        if !any {
            return;
        }
        // The distance to the nearest enemy: an exact city-block distance transform in two
        // passes (from the south-west, then from the north-east).
        let (cu, ru) = (cols as usize, rows as usize);
        let dist = &mut self.dist;
        for r in 0..ru {
            for c in 0..cu {
                let i = r * cu + c;
                let mut d = dist[i];
                if c > 0 {
                    d = d.min(dist[i - 1].saturating_add(1));
                }
                if r > 0 {
                    d = d.min(dist[i - cu].saturating_add(1));
                }
                dist[i] = d;
            }
        }
        for r in (0..ru).rev() {
            for c in (0..cu).rev() {
                let i = r * cu + c;
                let mut d = dist[i];
                if c + 1 < cu {
                    d = d.min(dist[i + 1].saturating_add(1));
                }
                if r + 1 < ru {
                    d = d.min(dist[i + cu].saturating_add(1));
                }
                dist[i] = d.min(254);
            }
        }
    }

    /// The position value of unit `u` standing at `to` facing `facing` (the module
    /// documentation lists the terms).
    pub fn position_value(
        &mut self,
        r: &Othw,
        st: &State,
        u: UnitId,
        to: CellPos,
        facing: GridFacing,
    ) -> f64 {
        let w = &self.weights;
        let x = &st.units[u as usize];
        let g = &st.board.grid;
        let (cols, rows) = (g.cols as i32, g.rows as i32);
        let index = |p: CellPos| {
            (p.col >= 0 && p.row >= 0 && p.col < cols && p.row < rows)
                .then(|| (p.row * cols + p.col) as usize)
        };
        let Some(i) = index(to) else { return f64::NEG_INFINITY };
        let d = self.dist[i];
        if d == u8::MAX {
            return 0.0;
        }
        let mut s = 0.0;
        let keen = if x.is_skirmisher() { 0.4 } else { f64::from(x.sp) / f64::from(x.s.max(1)) };
        s -= w.approach * keen * f64::from(d);
        // The cell of `u` counts as empty, `to` as its own.
        let occupant = |qi: usize| {
            let v = st.occ[qi];
            (v != EMPTY && v != u).then_some(v)
        };
        let mut nearest_dir_ok = false;
        let mut adjacent_enemies: [Option<(UnitId, GridFacing)>; 4] = [None; 4];
        for (k, f) in GridFacing::ALL.into_iter().enumerate() {
            let Some(qi) = index(to.step(f)) else {
                if f == facing.reversed() && d <= 4 {
                    s -= w.edge;
                }
                continue;
            };
            if self.dist[qi] < d && f == facing {
                nearest_dir_ok = true;
            }
            let side_kind = if f == facing {
                0
            } else if f == facing.reversed() {
                2
            } else {
                1
            };
            match occupant(qi) {
                Some(v) if st.units[v as usize].side == x.side => {
                    if side_kind == 1 && st.units[v as usize].status == Status::Ready {
                        s += w.support;
                    }
                }
                Some(v) => {
                    if is_fighting(&st.units[v as usize]) {
                        adjacent_enemies[k] = Some((v, f));
                        if side_kind != 0 {
                            s -= w.flanked;
                        }
                    }
                }
                None => {
                    if g.cells[qi].terrain == CellTerrain::River {
                        continue;
                    }
                    let n = f64::from(self.reachable[qi].min(2));
                    match side_kind {
                        1 => s -= w.exposed_flank * n,
                        2 => s -= w.exposed_rear * n,
                        _ => {}
                    }
                }
            }
        }
        if nearest_dir_ok || d <= 1 && adjacent_enemies.iter().flatten().any(|&(_, f)| f == facing)
        {
            s += w.facing;
        }
        for &(v, f) in adjacent_enemies.iter().flatten() {
            let e = &st.units[v as usize];
            if e.status != Status::Ready {
                continue;
            }
            // The enemy turns to face `to` and attacks; seen from `u` it comes from `f`.
            let asp = aspect(facing, f);
            let theirs =
                self.keyed_odds(r, fighter_key(st, e, e.pos), fighter_key(st, x, to), asp, false);
            let their_score = 2.0 * theirs.foe_breaks + theirs.win - theirs.lose;
            s -= self.weights.danger * their_score.max(0.0);
            if f == facing {
                let mine = self.odds(r, st, (u, to), v, aspect(e.facing, f.reversed()), false);
                let my_score = 2.0 * mine.foe_breaks + mine.win - mine.lose;
                s += self.weights.threat * my_score.max(0.0);
            }
        }
        s
    }

    /// The best command for `side` now, with its score (`EndPhase` scores 0).
    pub fn best(&mut self, r: &Othw, st: &State, side: Side) -> Option<(Command, f64)> {
        if st.outcome.is_some() || st.phasing != side {
            return None;
        }
        let wanted = wanted_orders(r, st, side);
        if st.side(side).orders != wanted && st.side(side).general.is_some() {
            return Some((Command::Orders { orders: wanted }, f64::INFINITY));
        }
        self.maps(st, side);
        let further_allowed = r.data.rules.sequence.further_moves > 0;
        let mut best: (Command, f64) = (Command::EndPhase, 0.0);
        // The general's unit's best, kept apart: it acts last.
        let mut general_best: (Command, f64) = (Command::EndPhase, 0.0);
        let mut reach = std::mem::take(&mut self.reach);
        let mut scratch = std::mem::take(&mut self.scratch);
        for x in &st.units {
            if x.side != side {
                continue;
            }
            let u = x.id;
            if !r.may_act(st, u, false) || x.flag(flags::FOUGHT) {
                continue;
            }
            let moved = x.flag(flags::MOVED);
            if moved && (x.flag(flags::FURTHER) || !further_allowed) {
                continue;
            }
            let with_general = st.has_general(u);
            let slot = if with_general { &mut general_best } else { &mut best };
            r.reach_into(st, u, !moved, &mut scratch, &mut reach);
            let dice_choice = with_general && st.active_general(side).is_some_and(|g| g.attack > 0);
            for &(from, facing, target) in &reach.attacks {
                for gd in [false, true] {
                    if gd && !dice_choice {
                        continue;
                    }
                    let s = self.attack_score(r, st, u, from, facing, target, gd);
                    // Attacks come before moves: a unit that moves may not fight.
                    if s > self.weights.attack_min && s + 1.0 > slot.1 {
                        *slot =
                            (Command::Attack { unit: u, from, facing, general_dice: gd }, s + 1.0);
                    }
                }
            }
            if reach.ends.is_empty() {
                continue;
            }
            let here = self.position_value(r, st, u, x.pos, x.facing);
            let min = if moved { self.weights.further_min } else { self.weights.move_min };
            // Away from the enemy (two squares or more) a square's value is at most its
            // approach term plus the facing and two supports: skip the ends that cannot win.
            let keen =
                if x.is_skirmisher() { 0.4 } else { f64::from(x.sp) / f64::from(x.s.max(1)) };
            let (w, cols) = (&self.weights, st.board.grid.cols as i32);
            let ceiling = w.facing + 2.0 * w.support;
            let approach = w.approach * keen;
            for &(to, facing) in &reach.ends {
                let d = self.dist[(to.row * cols + to.col) as usize];
                if d != u8::MAX
                    && d >= 2
                    && ceiling - approach * f64::from(d) - here < min.max(slot.1) - 1e-9
                {
                    continue;
                }
                let gain = self.position_value(r, st, u, to, facing) - here;
                if gain > min && gain > slot.1 {
                    *slot = (Command::Move { unit: u, to, facing }, gain);
                }
            }
        }
        self.reach = reach;
        self.scratch = scratch;
        if let Some(c) = self.group_advance(r, st, side)
            && c.1 > best.1
        {
            best = c;
        }
        if (matches!(best.0, Command::EndPhase) || st.phase_over)
            && !matches!(general_best.0, Command::EndPhase)
        {
            return Some(general_best);
        }
        Some(best)
    }

    /// The forward step of the largest connected block of units that may still move, while
    /// every one of them is at least four squares from the enemy.
    fn group_advance(&mut self, r: &Othw, st: &State, side: Side) -> Option<(Command, f64)> {
        if st.phase_over {
            return None;
        }
        let g = &st.board.grid;
        let forward = st.side(side).edge.facing().reversed();
        let eligible = |x: &Unit| {
            x.side == side
                && r.may_act(st, x.id, true)
                && !x.flag(flags::MOVED | flags::FOUGHT | flags::GROUP_MOVED)
        };
        let mut seen = [false; 256];
        let mut block: Vec<UnitId> = Vec::new();
        let mut members: Vec<UnitId> = Vec::new();
        for x in &st.units {
            if !eligible(x) || seen[x.id as usize] {
                continue;
            }
            members.clear();
            members.push(x.id);
            seen[x.id as usize] = true;
            let mut k = 0;
            while k < members.len() {
                let p = st.units[members[k] as usize].pos;
                for f in GridFacing::ALL {
                    if let Some(v) = st.at(p.step(f))
                        && !seen[v as usize]
                        && eligible(&st.units[v as usize])
                    {
                        seen[v as usize] = true;
                        members.push(v);
                    }
                }
                k += 1;
            }
            if members.len() > block.len() {
                std::mem::swap(&mut block, &mut members);
            }
        }
        if block.len() < 2 {
            return None;
        }
        let far = block.iter().all(|&u| {
            g.index(st.units[u as usize].pos)
                .is_some_and(|i| self.dist[i] != u8::MAX && self.dist[i] >= 4)
        });
        if !far {
            return None;
        }
        block.sort_unstable();
        if r.group_path_fault(st, &block, forward, 1).is_some() {
            return None;
        }
        let score = self.weights.approach * block.len() as f64 * 0.8;
        Some((Command::GroupMove { units: block, facing: forward, steps: 1 }, score))
    }
}

impl Bot<Othw> for Scripted {
    fn describe(&self) -> String {
        "scripted".into()
    }

    fn choose(
        &mut self,
        rules: &Othw,
        state: &State,
        side: Side,
        _rng: &mut SeededDice,
    ) -> Result<Command, BotError> {
        self.best(rules, state, side).map(|(c, _)| c).ok_or(BotError::NoCommand(side))
    }
}
