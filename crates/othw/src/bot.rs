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
//! 5. **Reserves move first or not at all.** A unit three squares or more from the nearest
//!    enemy is a reserve: it is weighed only for the side's first action of a phase, and so is
//!    the group advance (whose units are all four squares or more away). Once the side has
//!    acted (moved, fought or advanced a group), the rest of the phase belongs to the units
//!    near the enemy, and the reserves wait for the next phase. Whether the side has acted is
//!    read from the state, so a player picked up mid-phase chooses as one that was there from
//!    its start. A reserve beyond its charge (farther than its move's worth of steps and one
//!    more) waits even then while any other unit has something worth doing, and so does the
//!    group advance: the reserves come up when the line has nothing to do.
//! 6. The general's unit is exempt from the phase-end roll, so its actions wait until the
//!    others' are done (or the phase is over): the rest of the army acts first and the general
//!    acts, rerolls and rallies where the fighting is.
//!
//! Ties go to the first candidate in unit order, and within a unit to its attacks before its
//! moves, each in the move search's order (for a unit that turns for free, the other facings
//! on its own square, then the squares by index, each square's facings clockwise from the
//! north). The bot draws nothing from its generator, so it is deterministic.
//!
//! # How it is quick
//!
//! A decision is worked out unit by unit: each unit's *plan* is its first best action (its
//! attacks, then its moves) with its value, and the decision is the first best plan in unit
//! order, which is what comparing every candidate in that order gives. What makes it quick
//! never changes a choice:
//!
//! - **Plans are kept between decisions**. A unit's plan looks only at the squares within its
//!   move and one more, at the per-cell maps there, at the generals and at the weights. Each
//!   search and plan keeps the squares it looked at (as bits, on boards of up to 128 cells).
//!   Before each decision the state and the maps are compared with the side's last view of
//!   them, and only the plans that looked at a changed square are worked out again (all of
//!   them when the generals or the weights change); a unit's search for its moves is kept
//!   longer still (it depends on who stands where alone). The general's plan is worked out
//!   only when it is needed.
//! - **Squares that cannot win are skipped**: two squares or more from the enemy, a square is
//!   worth at most its approach term, the facing and two supports, so a unit whose every
//!   reachable square falls short of the least gain is not even searched, and within a plan
//!   the squares that cannot beat the best so far are not valued.
//! - **Values are worked out a square at a time** for all four facings (next to a ready
//!   enemy, the two fighters' scores against each other at every aspect are one look-up in a
//!   table of recent pairs of fighters), with the terms in a fixed order so that a value is the
//!   same to the last bit however it is reached.
//! - **The exact odds are computed once per pairing** and looked up by small numbers: a
//!   fighter (a unit's numbers, terrain and general) gets a number the first time it is met.
//! - The maps (distance to the nearest enemy, enemies that could reach each cell) are kept
//!   while the enemy's units stay as they were.

use crate::Othw;
use crate::cells::{self, Cells};
use crate::combat::{Aspect, aspect};
use crate::data::UnitType;
use crate::duel::{DuelGeneral, Fighter};
use crate::legal::{NO_CELL, Reach, Scratch, Tables};
use crate::state::{Board, Command, EMPTY, Orders, State, Status, Unit, UnitId, flags};
use bots::{Bot, BotError};
use std::collections::HashMap;
use std::sync::Arc;
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
            move_min: 0.8,
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
    general: Option<DuelGeneral>,
    phalanx_test: bool,
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

type FxMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<Fx>>;

/// Slots of the recent pairs' table (a power of two).
const RECENT: usize = 1024;

/// Slots of the table of two fighters' scores against each other (a power of two).
const SCORES: usize = 512;

/// Two fighters' attack scores against each other without the general's dice (see
/// [`threat_score`]), by aspect code: the second fighter attacking the first (`theirs`), and the
/// first attacking the second (`mine`).
#[derive(Clone, Copy, Debug, Default)]
struct Scores {
    theirs: [f64; 3],
    mine: [f64; 3],
}

/// The slot of `key` in a direct-mapped table of `slots` entries (a power of two): the top bits
/// of a multiplicative hash.
#[inline]
fn slot(key: u64, slots: usize) -> usize {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - slots.trailing_zeros())) as usize
}

/// Terrain kinds a fighter's key is kept for per unit (`CellTerrain` has eight).
const TERRAINS: usize = 8;
const _: () = assert!(CellTerrain::Rough as usize == TERRAINS - 1, "a new terrain kind");

/// The odds of every pairing met so far. A fighter (a unit's numbers, terrain and general)
/// gets a small number the first time it is seen, and the odds are kept by the two numbers,
/// the aspect and the general's dice. Within one decision a unit's number on a terrain is
/// looked up once (a stamped table); across decisions its last key is kept, so a number is
/// only looked up again when the unit's strength or general changes.
#[derive(Clone, Debug, Default)]
struct OddsStore {
    /// The number of each fighter key.
    ids: FxMap<FighterKey, u32>,
    /// The key of each number.
    keys: Vec<FighterKey>,
    /// Odds by (attacker's number, defender's number, aspect, general's dice).
    pairs: FxMap<u64, Odds>,
    /// The pairs met most recently, by a hash of the key (the key plus one, 0 for none).
    recent: Vec<(u64, Odds)>,
    /// Two fighters' scores against each other, by a hash of their numbers (the key plus one,
    /// 0 for none): worked out from the odds above, and kept because next to an enemy they
    /// are wanted by aspect, again and again.
    scores: Vec<(u64, Scores)>,
    /// This decision's stamp.
    stamp: u32,
    /// Per (unit, terrain): the stamp of the decision that last looked it up, the unit's key
    /// then, and its number.
    units: Vec<(u32, FighterKey, u32)>,
    /// The thread's table of odds worked out for this player's rules (see [`WORKED_OUT`]),
    /// once looked up on that thread; none when the thread keeps too many.
    shared: Option<(std::thread::ThreadId, Option<usize>)>,
}

/// A duel by its fighters, aspect and general's dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct DuelKey {
    att: FighterKey,
    def: FighterKey,
    aspect: u8,
    general_dice: bool,
}

/// Rule tables a thread keeps odds for, at most.
const WORKED_OUT_TABLES: usize = 8;

thread_local! {
    /// The exact odds worked out on this thread, by rule tables: every scripted player on a
    /// thread shares them (a simulation makes new players for every battle, and each would
    /// otherwise work the same duels out again).
    static WORKED_OUT: std::cell::RefCell<Vec<(crate::Data, FxMap<DuelKey, Odds>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

impl OddsStore {
    /// Starts a decision (the state may have changed since the last).
    fn begin(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            for e in &mut self.units {
                e.0 = 0;
            }
            self.stamp = 1;
        }
    }

    /// The number of a fighter key.
    fn intern(&mut self, k: FighterKey) -> u32 {
        let next = self.keys.len() as u32;
        let id = *self.ids.entry(k).or_insert(next);
        if id == next {
            self.keys.push(k);
        }
        id
    }

    /// The number of unit `u` fighting on terrain `t` in this decision's state.
    #[inline]
    fn fighter(&mut self, st: &State, u: UnitId, t: CellTerrain) -> u32 {
        let i = usize::from(u) * TERRAINS + t as usize;
        match self.units.get(i) {
            Some(&(stamp, _, id)) if stamp == self.stamp => id,
            _ => self.fighter_again(st, u, t),
        }
    }

    /// [`OddsStore::fighter`] when not yet looked up in this decision.
    #[inline(never)]
    fn fighter_again(&mut self, st: &State, u: UnitId, t: CellTerrain) -> u32 {
        let i = usize::from(u) * TERRAINS + t as usize;
        if i >= self.units.len() {
            let blank = fighter_key(st, &st.units[usize::from(u)], t);
            self.units.resize(i + 1, (0, blank, u32::MAX));
        }
        let (stamp, key, id) = self.units[i];
        if stamp == self.stamp {
            return id;
        }
        let k = fighter_key(st, &st.units[usize::from(u)], t);
        let id = if id != u32::MAX && key == k { id } else { self.intern(k) };
        self.units[i] = (self.stamp, k, id);
        id
    }

    /// The key of a pairing in [`OddsStore::pairs`], and its slot in [`OddsStore::recent`].
    #[inline]
    fn pair_key(fa: u32, fd: u32, aspect: Aspect, gd: bool) -> (u64, usize) {
        let key = u64::from(fa)
            | u64::from(fd) << 28
            | u64::from(aspect_code(aspect)) << 56
            | u64::from(gd) << 58;
        (key, slot(key, RECENT))
    }

    /// The odds of fighter `fa` attacking fighter `fd`.
    #[inline]
    fn pair(&mut self, r: &Othw, fa: u32, fd: u32, aspect: Aspect, gd: bool) -> Odds {
        let (key, slot) = Self::pair_key(fa, fd, aspect, gd);
        match self.recent.get(slot) {
            Some(&(k, o)) if k == key + 1 => o,
            _ => self.pair_again(r, fa, fd, aspect, gd),
        }
    }

    /// [`OddsStore::pair`] when not among the recent pairs.
    #[inline(never)]
    fn pair_again(&mut self, r: &Othw, fa: u32, fd: u32, aspect: Aspect, gd: bool) -> Odds {
        let (key, slot) = Self::pair_key(fa, fd, aspect, gd);
        if self.recent.len() != RECENT {
            self.recent = vec![(0, Odds::default()); RECENT];
        }
        if self.recent[slot].0 == key + 1 {
            return self.recent[slot].1;
        }
        if let Some(&o) = self.pairs.get(&key) {
            self.recent[slot] = (key + 1, o);
            return o;
        }
        let (ka, kd) = (self.keys[fa as usize], self.keys[fd as usize]);
        let compute = || {
            let o = r.duel(&fighter(&ka), &fighter(&kd), aspect, gd);
            Odds {
                win: o.attacker.wins.to_f64(),
                lose: o.defender.wins.to_f64(),
                foe_breaks: o.defender.breaks.to_f64(),
                own_breaks: o.attacker.breaks.to_f64(),
            }
        };
        let duel = DuelKey { att: ka, def: kd, aspect: aspect_code(aspect), general_dice: gd };
        // The binding is per thread: a player may be handed from thread to thread.
        let here = std::thread::current().id();
        if self.shared.is_some_and(|(t, _)| t != here) {
            self.shared = None;
        }
        let (_, shared) = *self.shared.get_or_insert_with(|| {
            let table = WORKED_OUT.with(|w| {
                let mut w = w.borrow_mut();
                match w.iter().position(|(data, _)| *data == r.data) {
                    Some(i) => Some(i),
                    None if w.len() < WORKED_OUT_TABLES => {
                        w.push((r.data.clone(), FxMap::default()));
                        Some(w.len() - 1)
                    }
                    None => None,
                }
            });
            (here, table)
        });
        let o = match shared {
            Some(i) => {
                WORKED_OUT.with(|w| *w.borrow_mut()[i].1.entry(duel).or_insert_with(compute))
            }
            None => compute(),
        };
        self.pairs.insert(key, o);
        self.recent[slot] = (key + 1, o);
        o
    }

    /// The key of two fighters in [`OddsStore::scores`], and its slot.
    #[inline]
    fn scores_key(fu: u32, fv: u32) -> (u64, usize) {
        let key = u64::from(fu) | u64::from(fv) << 32;
        (key, slot(key, SCORES))
    }

    /// The scores of fighters `fu` and `fv` against each other.
    #[inline]
    fn scores(&mut self, r: &Othw, fu: u32, fv: u32) -> Scores {
        let (key, slot) = Self::scores_key(fu, fv);
        match self.scores.get(slot) {
            Some(&(k, s)) if k == key + 1 => s,
            _ => self.scores_again(r, fu, fv),
        }
    }

    /// [`OddsStore::scores`] when not kept.
    #[inline(never)]
    fn scores_again(&mut self, r: &Othw, fu: u32, fv: u32) -> Scores {
        let (key, slot) = Self::scores_key(fu, fv);
        if self.scores.len() != SCORES {
            self.scores = vec![(0, Scores::default()); SCORES];
        }
        let by_aspect = [Aspect::Front, Aspect::Flank, Aspect::Rear];
        let s = Scores {
            theirs: by_aspect.map(|a| threat_score(self.pair(r, fv, fu, a, false))),
            mine: by_aspect.map(|a| threat_score(self.pair(r, fu, fv, a, false))),
        };
        self.scores[slot] = (key + 1, s);
        s
    }

    /// The odds of `att` attacking from terrain `at` against `def` on terrain `dt`, in the
    /// state of this decision (see [`OddsStore::begin`]).
    fn get(
        &mut self,
        r: &Othw,
        st: &State,
        (att, at): (UnitId, CellTerrain),
        (def, dt): (UnitId, CellTerrain),
        aspect: Aspect,
        gd: bool,
    ) -> Odds {
        let fa = self.fighter(st, att, at);
        let fd = self.fighter(st, def, dt);
        self.pair(r, fa, fd, aspect, gd)
    }
}

/// The per-cell maps of one side's decision: distance to the nearest enemy in the fight, and
/// how many ready enemies could reach each cell next phase. They depend only on the enemy's
/// units, so they are kept while those stay put.
#[derive(Clone, Debug, Default)]
struct Maps {
    /// Distance from each cell to the nearest enemy of the side deciding (`u8::MAX` for
    /// every cell when it has none).
    dist: Vec<u8>,
    /// Per cell: its [`Kind`] when open (empty, or the valued unit's own square): nothing on
    /// the river, else by how many ready enemies could reach it next phase (none, one, or two
    /// or more).
    open: Vec<u8>,
    /// What the maps were made from: the side, the board, and each enemy's square, standing
    /// and moves.
    made_for: Option<(Side, Arc<Board>, Vec<u128>)>,
    /// A scratch list for the comparison.
    now: Vec<u128>,
    /// Counts the times the maps were made (plans made with other maps are stale).
    generation: u64,
    /// The board's shape for sets of cells as bits, when the maps were made on bitboards.
    cells: Option<Cells>,
    /// The diamonds of cells around each cell, by centre and size (below [`DIAMONDS`]), once
    /// worked out (0 until then).
    diamonds: Vec<u128>,
    /// When made on bitboards, the maps as sets of cells (empty otherwise): first how the
    /// distances go ([`BY_RINGS`], or every one the same: [`NO_ENEMY`] or [`NONE_ON_BOARD`]),
    /// then the open cells (off the river) that one enemy could reach and that two could,
    /// then the cells at distance 0, 1, 2 and so on. Two such descriptions differ exactly
    /// where the maps do ([`redrawn`]).
    layers: Vec<u128>,
}

/// [`Maps::layers`]: no enemy in the fight (every distance `u8::MAX`).
const NO_ENEMY: u128 = 0;
/// [`Maps::layers`]: enemies in the fight, none on the board (every distance 254).
const NONE_ON_BOARD: u128 = 1;
/// [`Maps::layers`]: the distances by rings of cells.
const BY_RINGS: u128 = 2;

/// The cells where maps described by `a` and `b` (each [`Maps::layers`]) differ, as bits:
/// every cell when either is not a description, or their distances go differently.
fn redrawn(a: &[u128], b: &[u128]) -> u128 {
    if a.len() < 3 || b.len() < 3 || a[0] != b[0] {
        return !0;
    }
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let mut bits = 0;
    for (k, x) in long.iter().enumerate().skip(1) {
        bits |= x ^ short.get(k).copied().unwrap_or(0);
    }
    bits
}

/// The diamonds [`Maps`] keeps are smaller than this.
const DIAMONDS: i32 = 8;

/// An enemy as the maps see it: its square, standing and moves, packed.
fn map_key(e: &Unit) -> u128 {
    u128::from(e.pos.col as u32)
        | u128::from(e.pos.row as u32) << 32
        | u128::from(e.status as u8) << 64
        | u128::from(e.m) << 72
}

impl Maps {
    /// Fills the maps for `side` (unless they already are); `tables` describe the state's
    /// board.
    fn fill(&mut self, st: &State, side: Side, tables: &Tables) {
        self.fill_with(st, side, tables, true);
    }

    /// [`Maps::fill`], on bitboards when `bits` and the board has at most 128 cells, else
    /// cell by cell (the same maps).
    fn fill_with(&mut self, st: &State, side: Side, tables: &Tables, bits: bool) {
        let g = &st.board.grid;
        self.now.clear();
        self.now.extend(st.units.iter().filter(|e| e.side != side).map(map_key));
        if let Some((s, b, list)) = &self.made_for
            && *s == side
            && Arc::ptr_eq(b, &st.board)
            && *list == self.now
            && self.dist.len() == g.cells.len()
        {
            return;
        }
        let n = g.cells.len();
        let (cols, rows) = (g.cols as i32, g.rows as i32);
        // Sized here, written in full below.
        self.dist.resize(n, u8::MAX);
        self.open.resize(n, Kind::Open0 as u8);
        // The board is kept, so that its address identifies it while the maps stand.
        match &mut self.made_for {
            Some((s, b, list)) => {
                *s = side;
                if !Arc::ptr_eq(b, &st.board) {
                    *b = st.board.clone();
                }
                list.clone_from(&self.now);
            }
            None => self.made_for = Some((side, st.board.clone(), self.now.clone())),
        }
        self.generation += 1;
        if bits && let Some(c) = tables.shape {
            if self.cells != Some(c) {
                self.diamonds.clear();
                self.diamonds.resize(n * DIAMONDS as usize, 0);
            }
            self.cells = Some(c);
            self.fill_bits(st, side, c, tables.river);
            return;
        }
        self.cells = None;
        self.layers.clear();
        self.dist.fill(u8::MAX);
        // Per cell: how many enemies could reach it, counted in `open` and then turned into
        // the kinds.
        self.open.fill(0);
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
                let (lo, hi) = ((e.pos.col - span).max(0), (e.pos.col + span).min(cols - 1));
                if lo <= hi {
                    let row = (r * cols) as usize;
                    for n in &mut self.open[row + lo as usize..=row + hi as usize] {
                        *n = n.saturating_add(1);
                    }
                }
            }
        }
        for (o, c) in self.open.iter_mut().zip(&g.cells) {
            *o = if c.terrain == CellTerrain::River {
                Kind::Nothing
            } else {
                match *o {
                    0 => Kind::Open0,
                    1 => Kind::Open1,
                    _ => Kind::Open2,
                }
            } as u8;
        }
        if !any {
            return;
        }
        // The distance to the nearest enemy: an exact city-block distance transform.
        city_block(&mut self.dist, cols as usize, rows as usize);
    }

    /// [`Maps::fill`]'s work on a board of at most 128 cells, on bitboards (a bit a cell, in
    /// index order): the same maps, without walking every cell for every enemy (`river` holds
    /// the river's cells, from the board tables).
    fn fill_bits(&mut self, st: &State, side: Side, shape: Cells, river: u128) {
        let Cells { cols, rows, full, .. } = shape;
        let mut sources = 0u128;
        // Cells that one enemy, and two or more, could reach.
        let (mut one, mut two) = (0u128, 0u128);
        let mut any = false;
        for e in &st.units {
            if e.side == side || !is_fighting(e) {
                continue;
            }
            any = true;
            let (c0, r0) = (e.pos.col, e.pos.row);
            if c0 >= 0 && c0 < cols && r0 >= 0 && r0 < rows {
                sources |= 1 << (r0 * cols + c0);
            }
            if e.status != Status::Ready {
                continue;
            }
            // The cells within its move and a step: a diamond, row by row (kept by its centre
            // and size while the grid stands; never empty when its centre is on the board).
            let reach = i32::from(e.m) + 1;
            let slot = (c0 >= 0 && c0 < cols && r0 >= 0 && r0 < rows && reach < DIAMONDS)
                .then(|| (r0 * cols + c0) as usize * DIAMONDS as usize + reach as usize);
            let kept = slot.map_or(0, |k| self.diamonds[k]);
            let d = if kept != 0 {
                kept
            } else {
                let mut d = 0u128;
                for r in (r0 - reach).max(0)..=(r0 + reach).min(rows - 1) {
                    let span = reach - (r - r0).abs();
                    let (lo, hi) = ((c0 - span).max(0), (c0 + span).min(cols - 1));
                    if lo <= hi {
                        let run = (1u128 << (hi - lo) << 1).wrapping_sub(1);
                        d |= run << (r * cols + lo);
                    }
                }
                if let Some(k) = slot {
                    self.diamonds[k] = d;
                }
                d
            };
            two |= one & d;
            one |= d;
        }
        let set = |out: &mut [u8], bits: u128, v: u8| {
            for (half, base) in [(bits as u64, 0), ((bits >> 64) as u64, 64)] {
                let mut b = half;
                while b != 0 {
                    out[base + b.trailing_zeros() as usize] = v;
                    b &= b - 1;
                }
            }
        };
        self.layers.clear();
        self.layers.extend([NO_ENEMY, one & !river, two & !river]);
        // The kinds, eight cells to a word: open, plus one where one enemy could reach it and
        // one more where two could (those are among the first), nothing on the river.
        const ONES: u64 = 0x0101_0101_0101_0101;
        let (mut one, mut two, mut river) = (one, two, river);
        for chunk in self.open.chunks_mut(8) {
            let (a, b, r) =
                (cells::spread(one as u8), cells::spread(two as u8), cells::spread(river as u8));
            (one, two, river) = (one >> 8, two >> 8, river >> 8);
            let open = ONES * Kind::Open0 as u64 + a + b;
            let w = (open & !(r * 0xff)) | (r * Kind::Nothing as u64);
            chunk.copy_from_slice(&w.to_le_bytes()[..chunk.len()]);
        }
        if !any {
            self.dist.fill(u8::MAX);
            return;
        }
        // Every cell is written: the sources, then each ring (a grid is connected, so the rings
        // reach every cell), or the cap.
        set(&mut self.dist, sources, 0);
        if sources == 0 {
            // No enemy on the board: every distance is the cap.
            self.dist.fill(254);
            self.layers[0] = NONE_ON_BOARD;
            return;
        }
        self.layers[0] = BY_RINGS;
        self.layers.push(sources);
        // The distance to the nearest enemy: breadth-first, a ring of cells at a time (at most
        // 127 rings on a board of 128 cells, so the cap of 254 is never reached).
        let mut seen = sources;
        let mut k = 0u8;
        while seen != full {
            let grown = shape.around(seen);
            let ring = grown & !seen;
            k = k.saturating_add(1).min(254);
            set(&mut self.dist, ring, k);
            self.layers.push(ring);
            seen = grown;
        }
    }
}

/// Turns a grid of 0 (sources) and `u8::MAX` (the rest), `cols` wide, into each cell's
/// city-block distance to the nearest source (at most 254), in two passes: from the south-west
/// (each cell against the cells west and south of it, already final for the pass), then from
/// the north-east. A pass takes a whole row against the row before it, then runs along it.
fn city_block(dist: &mut [u8], cols: usize, rows: usize) {
    if cols == 0 {
        return;
    }
    for r in 1..rows {
        let (done, row) = dist.split_at_mut(r * cols);
        let below = &done[(r - 1) * cols..];
        for (d, b) in row[..cols].iter_mut().zip(below) {
            *d = (*d).min(b.saturating_add(1));
        }
    }
    // Along the rows: the column outside, so that the rows' chains run side by side.
    for c in 1..cols {
        for r in 0..rows {
            let i = r * cols + c;
            dist[i] = dist[i].min(dist[i - 1].saturating_add(1));
        }
    }
    for r in (0..rows.saturating_sub(1)).rev() {
        let (row, done) = dist.split_at_mut((r + 1) * cols);
        let row = &mut row[r * cols..];
        for (d, a) in row.iter_mut().zip(&done[..cols]) {
            *d = (*d).min(a.saturating_add(1));
        }
    }
    for c in (0..cols - 1).rev() {
        for r in 0..rows {
            let i = r * cols + c;
            dist[i] = dist[i].min(dist[i + 1].saturating_add(1));
        }
    }
    for d in dist.iter_mut() {
        *d = (*d).min(254);
    }
}

/// The scripted player. See the [module documentation](self).
#[derive(Clone, Debug, Default)]
pub struct Scripted {
    /// The evaluation's weights.
    pub weights: Weights,
    odds: OddsStore,
    scratch: Scratch,
    maps: Maps,
    memory: Memory,
    tables: Tables,
    valuer: Valuer,
    /// Buffers for the group advance.
    block: Vec<UnitId>,
    members: Vec<UnitId>,
    /// The reserves out of reach waiting on the line in a decision (see the module
    /// documentation).
    waiting: Vec<UnitId>,
}

/// What `scripted` says of itself in listings.
pub const SCRIPTED_ABOUT: &str = "a scripted O/THW player: attacks at good exact odds and on \
flanks, keeps units in mutual support, advances in line, brings reserves up only as a phase's \
first action and when the line has nothing to do, keeps the general for last";

fn aspect_code(a: Aspect) -> u8 {
    match a {
        Aspect::Front => 0,
        Aspect::Flank => 1,
        Aspect::Rear => 2,
    }
}

fn fighter_key(st: &State, x: &Unit, terrain: CellTerrain) -> FighterKey {
    let orders = st.side(x.side).orders;
    let general = st
        .active_general(x.side)
        .filter(|g| g.unit == x.id)
        .map(|g| DuelGeneral::of_game(g, orders));
    FighterKey {
        class: x.class,
        specials: x.specials,
        stats: [x.m, x.a, x.d, x.s, x.l, x.retreat_tests, x.sp],
        terrain,
        general,
        phalanx_test: orders.phalanx,
    }
}

fn fighter(k: &FighterKey) -> Fighter {
    let [m, a, d, s, l, retreat_tests, sp] = k.stats;
    Fighter {
        ty: UnitType {
            name: Arc::default(),
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
        general: k.general,
        phalanx_test: k.phalanx_test,
    }
}

fn is_fighting(x: &Unit) -> bool {
    matches!(x.status, Status::Ready | Status::Rampaging)
}

/// Squares from the nearest enemy at which a unit counts as a reserve (see the module
/// documentation).
const RESERVE_FROM: u8 = 3;

/// True for a unit at distance `d` from the nearest enemy when that makes it a reserve (not
/// when the side has no enemy in the fight).
fn is_reserve(d: u8) -> bool {
    (RESERVE_FROM..u8::MAX).contains(&d)
}

/// The most squares unit `x` can cross in a move (none when steps cost nothing: no bound).
fn max_steps(x: &Unit, mv: &crate::data::MovementRules) -> Option<u8> {
    x.m.max(mv.restricted_points).checked_div(mv.step_cost)
}

/// True for unit `x` at distance `d` from the nearest enemy when that enemy may be within its
/// charge: its move's worth of steps and one more.
fn within_reach(x: &Unit, d: u8, mv: &crate::data::MovementRules) -> bool {
    max_steps(x, mv).is_none_or(|steps| u32::from(d) <= u32::from(steps) + 1)
}

/// How keen a unit is to close with the enemy: its share of strength left (skirmishers 0.4).
fn keenness(x: &Unit) -> f64 {
    if x.is_skirmisher() { 0.4 } else { f64::from(x.sp) / f64::from(x.s.max(1)) }
}

/// The score of an attack with odds `o` (see the module documentation).
fn score_attack(o: Odds, asp: Aspect, target_has_general: bool, general_dice: bool) -> f64 {
    let mut s = 2.0 * o.foe_breaks + o.win - o.lose - 2.0 * o.own_breaks;
    if asp != Aspect::Front {
        s += 0.25;
    }
    if target_has_general {
        s += 0.5 * o.foe_breaks;
    }
    if general_dice {
        s -= 0.1;
    }
    s
}

/// The score of an attack with odds `o` as the position value weighs it (a threat to or from
/// an adjacent enemy): `2·P(enemy breaks) + P(win) − P(lose)`.
fn threat_score(o: Odds) -> f64 {
    2.0 * o.foe_breaks + o.win - o.lose
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

/// What stands on a neighbouring square, as the position value's terms see it (for the unit
/// being valued, whose own square counts as empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Nothing that counts: a friend not ready, an enemy out of the fight, the river, or the
    /// board edge with no enemy within four squares.
    Nothing,
    /// The board edge, with an enemy within four squares.
    Edge,
    /// A ready friend.
    Friend,
    /// An enemy in the fight.
    Enemy,
    /// An empty square that no enemy, one, or two or more could reach.
    Open0,
    Open1,
    Open2,
}

/// The kinds of [`Kind`].
const KINDS: usize = 7;
const _: () = assert!(
    Kind::Open1 as u8 == Kind::Open0 as u8 + 1 && Kind::Open2 as u8 == Kind::Open0 as u8 + 2,
    "the maps count the enemies that could reach a cell up from Open0"
);

/// The terms of the position value in an array, by neighbour kind, by the neighbour's
/// direction (in [`GridFacing::ALL`] order), by facing: what a neighbour of that kind in that
/// direction adds for a unit facing that way. Subtracting a term is adding its negation, and
/// adding zero changes nothing (the sum never is −0), so a sum of these is the sum of the
/// terms that apply, to the last bit.
type Terms = [[[f64; 4]; 4]; KINDS];

fn terms(w: &Weights) -> Terms {
    // By where the neighbour is for the unit: in front, on a flank, behind, on a flank.
    let by_side = |kind: Kind| -> [f64; 4] {
        match kind {
            Kind::Nothing => [0.0; 4],
            Kind::Edge => [0.0, 0.0, -w.edge, 0.0],
            Kind::Friend => [0.0, w.support, 0.0, w.support],
            Kind::Enemy => [0.0, -w.flanked, -w.flanked, -w.flanked],
            Kind::Open0 | Kind::Open1 | Kind::Open2 => {
                let n = f64::from(kind as u8 - Kind::Open0 as u8);
                [0.0, -(w.exposed_flank * n), -(w.exposed_rear * n), -(w.exposed_flank * n)]
            }
        }
    };
    let kinds = [
        Kind::Nothing,
        Kind::Edge,
        Kind::Friend,
        Kind::Enemy,
        Kind::Open0,
        Kind::Open1,
        Kind::Open2,
    ];
    kinds.map(|kind| {
        let t = by_side(kind);
        // Seen from facing f, the neighbour in direction k is (k − f) quarter turns round.
        std::array::from_fn(|k| std::array::from_fn(|f| t[(k + 4 - f) % 4]))
    })
}

/// One cell as valued for the current unit: the value for each facing.
#[derive(Clone, Copy, Debug, Default)]
struct CellValue([f64; 4]);

/// What the position value needs of a decision: the weights, the maps, the board tables, the
/// rules and the state.
struct Cx<'a> {
    w: &'a Weights,
    maps: &'a Maps,
    tables: &'a Tables,
    r: &'a Othw,
    st: &'a State,
}

/// The position values of one unit. Each cell is looked at once, for all four facings at
/// once; the attack odds of each adjacent enemy are looked up once per aspect.
#[derive(Clone, Debug, Default)]
struct Valuer {
    /// The weights the terms were made from, and the terms.
    made_from: Option<Weights>,
    terms: Vec<Terms>,
    /// The current unit's stamp; a cell belongs to it when its stamp is this.
    stamp: u32,
    cells: Vec<(u32, CellValue)>,
    /// The unit, its side, and its approach weight (the weight times its keenness).
    u: UnitId,
    side: Option<Side>,
    approach: f64,
}

impl Valuer {
    /// Starts a decision with weights `w` (the terms are made again when they changed).
    fn begin(&mut self, w: &Weights) {
        if self.made_from.as_ref() != Some(w) {
            self.terms = vec![terms(w)];
            self.made_from = Some(w.clone());
        }
    }

    /// Starts valuing unit `u` (in the decision's state; [`Valuer::begin`] has been called
    /// with its weights).
    fn start(&mut self, cx: &Cx, u: UnitId) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 || self.cells.len() != cx.tables.nbr.len() {
            self.cells.clear();
            self.cells.resize(cx.tables.nbr.len(), (0, CellValue::default()));
            self.stamp = 1;
        }
        let x = &cx.st.units[u as usize];
        self.u = u;
        self.side = Some(x.side);
        self.approach = cx.w.approach * keenness(x);
    }

    /// Cell `i` valued for the current unit (its distance to the enemy is known), for all
    /// four facings.
    fn cell(&mut self, cx: &Cx, odds: &mut OddsStore, i: usize, d: u8) -> CellValue {
        let kept = &self.cells[i];
        if kept.0 == self.stamp {
            return kept.1;
        }
        let (st, maps, w) = (cx.st, cx.maps, cx.w);
        let terms = &self.terms[0];
        let mut base = [0.0 - self.approach * f64::from(d); 4];
        let mut ready = [None; 4];
        let mut bonus = [false; 4];
        for (k, &q) in cx.tables.nbr[i].iter().enumerate() {
            let kind = if q == NO_CELL {
                if d <= 4 { Kind::Edge as u8 } else { Kind::Nothing as u8 }
            } else {
                let q = usize::from(q);
                bonus[k] = maps.dist[q] < d;
                let v = st.occ[q];
                if v != EMPTY && v != self.u {
                    let o = &st.units[v as usize];
                    (if Some(o.side) == self.side {
                        if o.status == Status::Ready { Kind::Friend } else { Kind::Nothing }
                    } else if is_fighting(o) {
                        bonus[k] |= d <= 1;
                        if o.status == Status::Ready {
                            ready[k] = Some(v);
                        }
                        Kind::Enemy
                    } else {
                        Kind::Nothing
                    }) as u8
                } else {
                    maps.open[q]
                }
            };
            let t = &terms[kind as usize][k];
            for f in 0..4 {
                base[f] += t[f];
            }
        }
        // Facing the nearest enemy: a neighbour nearer it, or (next to it) an enemy in front.
        for f in 0..4 {
            if bonus[f] {
                base[f] += w.facing;
            }
        }
        if ready != [None; 4] {
            self.next_to_ready(cx, odds, i, &mut base, &ready);
        }
        let c = CellValue(base);
        self.cells[i] = (self.stamp, c);
        c
    }

    /// Cell `i` for the current unit, or the value 0 everywhere when there is no enemy.
    #[inline]
    fn cell_value(&mut self, cx: &Cx, odds: &mut OddsStore, i: usize) -> CellValue {
        match cx.maps.dist[i] {
            u8::MAX => CellValue::default(),
            d => self.cell(cx, odds, i, d),
        }
    }

    /// The position value of the current unit on cell `i` facing `facing` (the module
    /// documentation lists the terms).
    #[inline]
    fn value(&mut self, cx: &Cx, odds: &mut OddsStore, i: usize, facing: GridFacing) -> f64 {
        self.cell_value(cx, odds, i).0[facing as usize]
    }

    /// Adds to the values `base` of cell `i` (one a facing) the terms of the ready enemies
    /// next to it (`ready`, by direction): their attack odds and the unit's. The terms are
    /// added in a fixed order (the neighbours clockwise from the north, then the facing, then
    /// the adjacent enemies' odds), so that the same position always has the same value to
    /// the last bit.
    #[inline(never)]
    fn next_to_ready(
        &mut self,
        cx: &Cx,
        odds: &mut OddsStore,
        i: usize,
        base: &mut [f64; 4],
        ready: &[Option<UnitId>; 4],
    ) {
        let w = cx.w;
        let here = cx.tables.terrain[i];
        let (st, r, u) = (cx.st, cx.r, self.u);
        // Enemy by enemy (each facing's terms still come in the same order).
        for (k, f) in GridFacing::ALL.into_iter().enumerate() {
            let Some(v) = ready[k] else { continue };
            let e = &st.units[v as usize];
            let there = cx.tables.terrain[usize::from(cx.tables.index(e.pos))];
            // The two fighters' numbers, and their scores against each other by aspect.
            let (fv, fu) = (odds.fighter(st, v, there), odds.fighter(st, u, here));
            let scores = odds.scores(r, fu, fv);
            for (fk, facing) in GridFacing::ALL.into_iter().enumerate() {
                // The enemy turns to face `i` and attacks; seen from `u` it comes from `f`.
                let their_score = scores.theirs[usize::from(aspect_code(aspect(facing, f)))];
                base[fk] -= w.danger * their_score.max(0.0);
                if k == fk {
                    let asp = aspect(e.facing, f.reversed());
                    let my_score = scores.mine[usize::from(aspect_code(asp))];
                    base[fk] += w.threat * my_score.max(0.0);
                }
            }
        }
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
        let fa = self.odds.intern(fighter_key(st, a, st.board.terrain(from)));
        let fd = self.odds.intern(fighter_key(st, d, st.board.terrain(d.pos)));
        self.odds.pair(r, fa, fd, aspect, general_dice)
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
        self.odds.begin();
        attack_score(&mut self.odds, r, st, (u, from, facing), target, general_dice)
    }

    /// The position value of unit `u` standing at `to` facing `facing` (the module
    /// documentation lists the terms), for its side as the state stands.
    pub fn position_value(
        &mut self,
        r: &Othw,
        st: &State,
        u: UnitId,
        to: CellPos,
        facing: GridFacing,
    ) -> f64 {
        let Some(i) = st.board.grid.index(to) else { return f64::NEG_INFINITY };
        if !self.tables.sync(&st.board) || st.occ.len() != self.tables.nbr.len() {
            return f64::NEG_INFINITY;
        }
        self.maps.fill(st, st.units[u as usize].side, &self.tables);
        self.odds.begin();
        self.valuer.begin(&self.weights);
        let cx = Cx { w: &self.weights, maps: &self.maps, tables: &self.tables, r, st };
        self.valuer.start(&cx, u);
        self.valuer.value(&cx, &mut self.odds, i, facing)
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
        if !self.tables.sync(&st.board) || st.occ.len() != self.tables.nbr.len() {
            return Some((Command::EndPhase, 0.0));
        }
        self.maps.fill(st, side, &self.tables);
        self.memory.refresh(r, st, side, &self.maps, &self.weights);
        self.odds.begin();
        self.valuer.begin(&self.weights);
        // Once the side has acted in this phase, its reserves (the group advance's units among
        // them) wait for the next phase.
        let acted = st
            .units
            .iter()
            .any(|x| x.side == side && x.flag(flags::MOVED | flags::FOUGHT | flags::GROUP_MOVED));
        let further_allowed = r.data.rules.sequence.further_moves > 0;
        let mut best: (Command, f64) = (Command::EndPhase, 0.0);
        let cx = Cx { w: &self.weights, maps: &self.maps, tables: &self.tables, r, st };
        let mut work =
            Work { odds: &mut self.odds, valuer: &mut self.valuer, scratch: &mut self.scratch };
        // The general's unit, kept apart: it acts last.
        let mut general = None;
        let mv = &r.data.rules.movement;
        self.waiting.clear();
        // Each unit's first best action (attacks before moves: a unit that moves may not
        // fight) against the best so far: taking each unit's best in unit order and keeping
        // the first that beats the best so far is taking the first best of all.
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
            if st.has_general(u) {
                general = Some((x, moved));
                continue;
            }
            let d = cx.maps.dist[usize::from(cx.tables.index(x.pos))];
            if is_reserve(d) {
                if acted {
                    continue;
                }
                if !within_reach(x, d, mv) {
                    self.waiting.push(u);
                    continue;
                }
            }
            let kept = &mut self.memory.kept[u as usize];
            if let Some((c, v)) = kept_plan(&cx, &mut work, kept, x, moved, false)
                && *v > best.1
            {
                best = (c.clone(), *v);
            }
        }
        // The reserves out of reach and the group advance, when no other unit has anything
        // worth doing (as the side's first action).
        let line_idle = !acted && matches!(best.0, Command::EndPhase);
        if line_idle {
            for &u in &self.waiting {
                let x = &st.units[usize::from(u)];
                let kept = &mut self.memory.kept[usize::from(u)];
                let moved = x.flag(flags::MOVED);
                if let Some((c, v)) = kept_plan(&cx, &mut work, kept, x, moved, false)
                    && *v > best.1
                {
                    best = (c.clone(), *v);
                }
            }
        }
        if line_idle
            && let Some(c) = self.group_advance(r, st, side)
            && c.1 > best.1
        {
            best = c;
        }
        // The general's unit acts when nothing else is worth doing (or the phase is over).
        if (matches!(best.0, Command::EndPhase) || st.phase_over)
            && let Some((x, moved)) = general
        {
            let cx = Cx { w: &self.weights, maps: &self.maps, tables: &self.tables, r, st };
            let mut work =
                Work { odds: &mut self.odds, valuer: &mut self.valuer, scratch: &mut self.scratch };
            let kept = &mut self.memory.kept[x.id as usize];
            if let Some((c, v)) = kept_plan(&cx, &mut work, kept, x, moved, true)
                && *v > 0.0
            {
                return Some((c.clone(), *v));
            }
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
        // Each unit's eligibility, looked at once (by ID).
        let mut ok = [false; 256];
        let far_from_enemy = |p: CellPos| {
            g.index(p).is_some_and(|i| self.maps.dist[i] != u8::MAX && self.maps.dist[i] >= 4)
        };
        // Eligible units far from the enemy: a block that advances is two or more of them.
        let mut far = 0;
        let mut far_ok = [false; 256];
        for x in &st.units {
            ok[x.id as usize] = eligible(x);
            far_ok[x.id as usize] = ok[x.id as usize] && far_from_enemy(x.pos);
            far += usize::from(far_ok[x.id as usize]);
        }
        if far < 2 {
            return None;
        }
        let mut seen = [false; 256];
        let (block, members) = (&mut self.block, &mut self.members);
        let (nbr, occ) = (&self.tables.nbr[..], &st.occ[..]);
        block.clear();
        for x in &st.units {
            if !ok[x.id as usize] || seen[x.id as usize] {
                continue;
            }
            members.clear();
            members.push(x.id);
            seen[x.id as usize] = true;
            let mut k = 0;
            while k < members.len() {
                let p = st.units[members[k] as usize].pos;
                // The units on the neighbouring squares (the board tables match the state's
                // board: see `best`).
                let around = g.index(p).map_or([NO_CELL; 4], |i| nbr[i]);
                for q in around {
                    let v = if q == NO_CELL { EMPTY } else { occ[usize::from(q)] };
                    if v != EMPTY && !seen[v as usize] && ok[v as usize] {
                        seen[v as usize] = true;
                        members.push(v);
                    }
                }
                k += 1;
            }
            if members.len() > block.len() {
                std::mem::swap(block, members);
            }
        }
        if block.len() < 2 {
            return None;
        }
        if !block.iter().all(|&u| far_ok[u as usize]) {
            return None;
        }
        block.sort_unstable();
        if r.group_path_fault(st, block, forward, 1).is_some() {
            return None;
        }
        let score = self.weights.approach * block.len() as f64 * 0.8;
        Some((Command::GroupMove { units: block.clone(), facing: forward, steps: 1 }, score))
    }
}

/// The scripted player's working buffers for one decision.
struct Work<'a> {
    odds: &'a mut OddsStore,
    valuer: &'a mut Valuer,
    scratch: &'a mut Scratch,
}

/// The plan of unit `x` (see [`plan`]), kept or worked out again.
fn kept_plan<'k>(
    cx: &Cx,
    work: &mut Work,
    kept: &'k mut Kept,
    x: &Unit,
    moved: bool,
    with_general: bool,
) -> &'k Option<(Command, f64)> {
    if !(kept.plan_ok && kept.moved == moved) {
        kept.plan = plan(cx, work, kept, x, moved, with_general);
        kept.plan_ok = true;
        kept.moved = moved;
    }
    &kept.plan
}

/// The first best action of unit `x` (its attacks, then its moves; see the module
/// documentation) with its value, or none worth taking: an attack is worth its score plus one
/// when its score is above [`Weights::attack_min`], a move its gain when that is above the
/// least gain for a first or further move. Uses the unit's kept search when it stands.
fn plan(
    cx: &Cx,
    work: &mut Work,
    kept: &mut Kept,
    x: &Unit,
    moved: bool,
    with_general: bool,
) -> Option<(Command, f64)> {
    let (r, st, w) = (cx.r, cx.st, cx.w);
    let mv = &r.data.rules.movement;
    let u = x.id;
    let start = usize::from(cx.tables.index(x.pos));
    let valuer = &mut *work.valuer;
    valuer.start(cx, u);
    let here = valuer.value(cx, work.odds, start, x.facing);
    let min = if moved { w.further_min } else { w.move_min };
    let approach = valuer.approach;
    // Away from the enemy (two squares or more) a square's value is at most its approach
    // term plus the facing and two supports: the ends that cannot win are skipped.
    let ceiling = w.facing + 2.0 * w.support;
    // The same bound for every square the unit can reach, when it cannot attack: skip its
    // search altogether. A move crosses at most this many squares, and the distance to the
    // enemy changes by at most one a square.
    if let Some(steps) = max_steps(x, mv)
        && approach >= 0.0
    {
        let d = cx.maps.dist[start];
        let lo = d.saturating_sub(steps);
        if d != u8::MAX
            && lo >= 2
            && ceiling - approach * f64::from(lo) - here < min - 1e-9
            && (moved || !attack_within(st, u, u32::from(steps) + 1))
        {
            // It looked at the squares within its move and one more.
            let shape = cx.maps.cells;
            kept.reads = shape.map_or(0, |c| c.grow(c.at(x.pos), u32::from(steps) + 1));
            return None;
        }
    }
    if !kept.reach_ok || kept.with_attacks == moved {
        r.reach_into(st, u, !moved, work.scratch, &mut kept.reach);
        kept.reach_ok = true;
        kept.with_attacks = !moved;
        kept.looked = cx.maps.cells.map_or(0, |c| c.around(kept.reach.stepped));
    }
    // It looks at what the search looked at (the ends and their neighbours, the attacks'
    // targets, its own square's neighbours), and no further.
    kept.reads = kept.looked;
    let mut mine: Option<(Command, f64)> = None;
    let beats = |mine: &Option<(Command, f64)>, v: f64| mine.as_ref().is_none_or(|m| v > m.1);
    let side = x.side;
    let dice_choice = with_general && st.active_general(side).is_some_and(|g| g.attack > 0);
    for &(from, facing, target) in &kept.reach.attacks {
        for gd in [false, true] {
            if gd && !dice_choice {
                continue;
            }
            let s = attack_score(work.odds, r, st, (u, from, facing), target, gd);
            if s > w.attack_min && beats(&mine, s + 1.0) {
                mine = Some((Command::Attack { unit: u, from, facing, general_dice: gd }, s + 1.0));
            }
        }
    }
    // The ends come square by square (each square's facings together): a square is bounded
    // and looked up once. (Once a square cannot win it never can: the best only grows.)
    let cols = cx.tables.cols;
    // Square `i`'s value, or none when it cannot beat the best so far.
    let mut square = |i: usize, mine: &Option<(Command, f64)>| {
        let d = cx.maps.dist[i];
        let floor = mine.as_ref().map_or(min, |m| min.max(m.1));
        if d != u8::MAX && d >= 2 && ceiling - approach * f64::from(d) - here < floor - 1e-9 {
            None
        } else {
            Some(valuer.cell_value(cx, work.odds, i))
        }
    };
    // The square of the last end (its index, `usize::MAX` before the first) and its value,
    // or none when it cannot win.
    let (mut last, mut cell): (usize, Option<CellValue>) = (usize::MAX, None);
    for &(to, facing) in &kept.reach.ends {
        let i = (to.row * cols + to.col) as usize;
        if i != last {
            last = i;
            cell = square(i, &mine);
        }
        let Some(c) = &cell else { continue };
        let gain = c.0[facing as usize] - here;
        if gain > min && beats(&mine, gain) {
            mine = Some((Command::Move { unit: u, to, facing }, gain));
        }
    }
    // Then the squares where it may end facing any way.
    let mut b = kept.reach.squares;
    while b != 0 {
        let i = b.trailing_zeros() as usize;
        b &= b - 1;
        let Some(c) = square(i, &mine) else { continue };
        for facing in GridFacing::ALL {
            let gain = c.0[facing as usize] - here;
            if gain > min && beats(&mine, gain) {
                let to = cx.tables.pos[i];
                mine = Some((Command::Move { unit: u, to, facing }, gain));
            }
        }
    }
    mine
}

/// What the scripted player's view of one unit depends on: its square, facing, standing, side
/// and numbers, packed into words (put together in registers, compared as such).
type Look = [u64; 3];

fn look(x: &Unit) -> Look {
    let square = u64::from(x.pos.col as u32) | u64::from(x.pos.row as u32) << 32;
    let kind = u64::from(x.specials.0)
        | u64::from(x.facing as u8) << 32
        | u64::from(x.status as u8) << 40
        | u64::from(x.side as u8) << 48
        | u64::from(x.class as u8) << 56;
    let stats = u64::from_le_bytes([x.m, x.a, x.d, x.s, x.l, x.retreat_tests, x.sp, 0]);
    [square, kind, stats]
}

/// Each side's general as the odds see him, and the standing orders.
type Generals = [(Option<(UnitId, u8, u8)>, Orders); 2];

fn generals(st: &State) -> Generals {
    Side::BOTH
        .map(|s| (st.active_general(s).map(|g| (g.unit, g.attack, g.rally)), st.side(s).orders))
}

/// The state as one side's last decision saw it.
#[derive(Clone, Debug, Default)]
struct Seen {
    looks: Vec<Look>,
    generals: Option<Generals>,
    /// The maps' generation (see `Maps::generation`), and the maps as sets of cells
    /// ([`Maps::layers`]; empty when not made on bitboards).
    maps: Option<u64>,
    layers: Vec<u128>,
}

/// One unit's evaluation, kept from one decision to the next while nothing it looks at has
/// changed.
#[derive(Clone, Debug, Default)]
struct Kept {
    /// The unit's moves and attacks, when `reach_ok`, searched with attacks when
    /// `with_attacks`.
    reach: Reach,
    reach_ok: bool,
    with_attacks: bool,
    /// The squares the search looked at (those it stood on and their neighbours), as bits,
    /// when the maps are kept as bitboards.
    looked: u128,
    /// The unit's best action and its value (the first best of its attacks, then its moves),
    /// or none worth anything, when `plan_ok`; worked out for a unit that had moved when
    /// `moved`.
    plan: Option<(Command, f64)>,
    plan_ok: bool,
    moved: bool,
    /// The squares the plan looked at (their occupants, those units, and the maps there), as
    /// bits, when the maps are kept as bitboards.
    reads: u128,
}

/// The scripted player's memory between decisions: each side's last view of the state, and
/// each unit's kept evaluation.
///
/// A unit's evaluation looks only at squares within its move and one more (where it can end,
/// whom it can attack, and their neighbours), at the per-cell maps there, at the generals and
/// at the weights. Before a decision the state is compared with the side's last view: a unit
/// changed (moved, turned, hit, broken, gone) marks its old and new squares (which covers
/// every square whose occupant changed), and every unit whose evaluation looked at a marked
/// square is worked out again, as is every plan that looked at a cell whose maps changed;
/// other generals or orders, or new weights, redo every unit's plan.
///
/// On a board of up to 128 cells what each search and plan looked at is kept to the square
/// (as bits); on a larger one, every square within the unit's move and one more counts, and
/// new maps redo every plan.
#[derive(Clone, Debug, Default)]
struct Memory {
    board: Option<Arc<Board>>,
    movement: (u8, u8, u8),
    weights: Option<Weights>,
    seen: [Option<Seen>; 2],
    kept: Vec<Kept>,
    /// Squares that searches and plans see changed, and that plans alone see changed.
    marked: Vec<CellPos>,
    touched: Vec<CellPos>,
}

/// More marked squares than this and every unit is worked out again (on a board too big for
/// squares as bits).
const MARKED_MAX: usize = 32;

impl Memory {
    /// Compares the state with the last view of `side` and forgets what it changed.
    fn refresh(&mut self, r: &Othw, st: &State, side: Side, maps: &Maps, w: &Weights) {
        let mv = &r.data.rules.movement;
        let movement = (mv.step_cost, mv.turn_cost, mv.restricted_points);
        let same_board = self.board.as_ref().is_some_and(|b| Arc::ptr_eq(b, &st.board));
        if !same_board
            || self.movement != movement
            || self.weights.as_ref() != Some(w)
            || self.kept.len() != st.units.len()
        {
            self.board = Some(st.board.clone());
            self.movement = movement;
            self.weights = Some(w.clone());
            self.seen = [None, None];
            // Forget every evaluation, keeping the lists' room.
            self.kept.resize(st.units.len(), Kept::default());
            for k in &mut self.kept {
                (k.reach_ok, k.plan_ok) = (false, false);
            }
        }
        let seen = self.seen[side.index()].get_or_insert_with(Seen::default);
        let now = generals(st);
        let generals_stand = seen.generals == Some(now);
        seen.generals = Some(now);
        // With the maps on bitboards, the cells where they changed (`redrawn`); else whether
        // they stand at all.
        let cells = maps.cells;
        let maps_stand = seen.maps == Some(maps.generation);
        let mut redrawn = 0u128;
        if !maps_stand {
            // Without a description on either side (maps not on bitboards), every cell.
            redrawn = self::redrawn(&seen.layers, &maps.layers);
            seen.maps = Some(maps.generation);
            seen.layers.clone_from(&maps.layers);
        }
        // Squares where a unit changed what a search sees of it (its square, side, standing
        // or specials), the square it left among them: searches and plans that looked at them
        // are worked out again. Every change of a square's occupant is such a change (the
        // state's occupancy follows its units), so the occupancy itself is not compared.
        // Squares where an enemy changed otherwise (its facing or strength): plans only. A
        // unit that changed at all is worked out again.
        self.marked.clear();
        self.touched.clear();
        // The units that changed, as bits by ID.
        let mut changed = [0u64; 4];
        let mut all = seen.looks.len() != st.units.len();
        // Whether the looks were brought up to date while compared.
        let looks_kept = !all;
        if !all {
            // The facing's bits in a look's second word (a search does not see others' facing).
            const FACING: u64 = 0xff << 32;
            for (a, x) in seen.looks.iter_mut().zip(&st.units) {
                let b = look(x);
                // The view is kept up to date as it is compared.
                let a = std::mem::replace(a, b);
                // Word by word, in registers.
                let seen_by_search = (a[0] ^ b[0]) | (a[1] ^ b[1]) & !FACING != 0;
                let any = seen_by_search || (a[1] ^ b[1]) | (a[2] ^ b[2]) != 0;
                if any {
                    let was = CellPos::new(a[0] as u32 as i32, (a[0] >> 32) as u32 as i32);
                    // Another unit's facing and numbers matter to a plan only for an enemy
                    // (its attack odds, and the side it shows); a friend counts by its
                    // standing alone.
                    if seen_by_search {
                        self.marked.extend([was, x.pos]);
                    } else if x.side != side {
                        self.touched.extend([was, x.pos]);
                    }
                    changed[usize::from(x.id >> 6)] |= 1 << (x.id & 63);
                }
            }
            all = cells.is_none() && self.marked.len() + self.touched.len() > MARKED_MAX;
        }
        if !looks_kept {
            seen.looks.clear();
            seen.looks.extend(st.units.iter().map(look));
        }
        // On bitboards, the changed squares as bits.
        let bits = |list: &[CellPos]| cells.map_or(0, |c| list.iter().fold(0, |b, &p| b | c.at(p)));
        let (marked, touched) = (bits(&self.marked), bits(&self.touched));
        for (k, x) in self.kept.iter_mut().zip(&st.units) {
            if x.side != side {
                continue;
            }
            let gone =
                all || mv.step_cost == 0 || changed[usize::from(x.id >> 6)] & 1 << (x.id & 63) != 0;
            let (search_stands, plan_stands) = match cells {
                // What each looked at, to the square.
                Some(_) => (
                    !gone && k.looked & marked == 0,
                    !gone && generals_stand && k.reads & (marked | touched | redrawn) == 0,
                ),
                // Else everything within its move and one more.
                None => {
                    let steps = max_steps(x, mv).unwrap_or(x.m.max(mv.restricted_points));
                    let reach = u32::from(steps) + 1;
                    let near = |list: &[CellPos]| list.iter().any(|p| p.manhattan(x.pos) <= reach);
                    let search = !gone && !near(&self.marked);
                    (search, search && generals_stand && maps_stand && !near(&self.touched))
                }
            };
            k.reach_ok &= search_stands;
            k.plan_ok &= plan_stands;
        }
    }
}

/// The score of an attack by `u` from a square and facing on `target` (see the module
/// documentation), with the odds of the decision's state.
fn attack_score(
    odds: &mut OddsStore,
    r: &Othw,
    st: &State,
    (u, from, facing): (UnitId, CellPos, GridFacing),
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
    let (at, dt) = (st.board.terrain(from), st.board.terrain(t.pos));
    let o = odds.get(r, st, (u, at), (target, dt), asp, general_dice);
    score_attack(o, asp, st.has_general(target), general_dice)
}

/// True when some unit that `u` may attack (an enemy on the board, or a friendly rampaging
/// elephant) stands within `squares` squares of it.
fn attack_within(st: &State, u: UnitId, squares: u32) -> bool {
    let x = &st.units[u as usize];
    st.units.iter().any(|t| {
        t.id != u
            && t.on_board()
            && (t.side != x.side || t.status == Status::Rampaging)
            && t.pos.manhattan(x.pos) <= squares
    })
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

    /// What it keeps from one decision to the next is checked against the state before use
    /// (see [`Memory`]), so a kept player chooses as a new one, in a new battle too
    /// (`tests/fingerprint.rs` checks this).
    fn reusable(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop::rules::{Actor, RuleSet};

    /// Maps drawn again over earlier ones once the enemy has no unit in the fight are blank:
    /// every distance `u8::MAX`, as the cell-by-cell maps have them.
    #[test]
    fn maps_with_no_enemy_in_the_fight_are_blank() {
        let r = Othw::new();
        let text = crate::READY_SCENARIOS[0];
        let sc = r.load_scenario(&tabletop::Source::new("s.toml", text)).expect("it loads");
        let (mut st, _) = r.setup(&sc, &mut SeededDice::new(1));
        let mut tables = Tables::default();
        assert!(tables.sync(&st.board), "board tables");
        let mut kept = Maps::default();
        kept.fill_with(&st, Side::Red, &tables, true);
        assert!(kept.dist.iter().any(|&d| d < u8::MAX), "an enemy to measure from");
        for x in st.units.iter_mut().filter(|x| x.side == Side::Blue) {
            x.status = Status::Fleeing;
        }
        kept.fill_with(&st, Side::Red, &tables, true);
        let mut fresh = Maps::default();
        fresh.fill_with(&st, Side::Red, &tables, false);
        assert!(kept.dist.iter().all(|&d| d == u8::MAX), "{:?}", kept.dist);
        assert_eq!(kept.dist, fresh.dist);
        assert_eq!(kept.open, fresh.open);
    }

    /// The maps on bitboards are the maps worked out cell by cell, through whole battles on
    /// every ready scenario, and two sets of maps differ exactly where their descriptions as
    /// sets of cells say.
    #[test]
    fn bitboard_maps_are_the_cell_maps() {
        let r = Othw::new();
        // Decisions where a side's maps had changed since its last.
        let mut redrawn_total = 0;
        for (k, text) in crate::READY_SCENARIOS.into_iter().enumerate() {
            let sc = r.load_scenario(&tabletop::Source::new("s.toml", text)).expect("it loads");
            for seed in 1..=3 {
                let mut dice = SeededDice::new(seed);
                let (mut st, _) = r.setup(&sc, &mut dice);
                let mut bots = [Scripted::new(), Scripted::new()];
                let mut checked = 0;
                let mut tables = Tables::default();
                assert!(tables.sync(&st.board), "scenario {k}: board tables");
                let full = tables.shape.expect("a small board").full;
                // Each side's bitboard maps are kept from decision to decision (redrawn over
                // the last ones, as a player's are).
                let mut kept = [Maps::default(), Maps::default()];
                let mut redrawn_seen = 0;
                while st.outcome.is_none() && checked < 400 {
                    for side in Side::BOTH {
                        let a = &mut kept[side.index()];
                        let last = a.clone();
                        let mut b = Maps::default();
                        a.fill_with(&st, side, &tables, true);
                        b.fill_with(&st, side, &tables, false);
                        assert_eq!(a.dist, b.dist, "scenario {k}, seed {seed}: distances");
                        assert_eq!(a.open, b.open, "scenario {k}, seed {seed}: open squares");
                        assert!(b.layers.is_empty(), "no description without bitboards");
                        if !last.layers.is_empty() {
                            let cells = cells::differing(&last.dist, &a.dist)
                                | cells::differing(&last.open, &a.open);
                            let told = redrawn(&last.layers, &a.layers);
                            if last.layers[0] == a.layers[0] {
                                assert_eq!(told, cells, "scenario {k}, seed {seed}: redrawn");
                            } else {
                                assert_eq!(told, !0, "scenario {k}, seed {seed}: kinds");
                            }
                            redrawn_seen += usize::from(told & full != 0);
                        }
                    }
                    checked += 1;
                    let side = st.phasing;
                    let c = bots[side.index()].best(&r, &st, side).expect("a command").0;
                    r.perform(&mut st, Actor::Side(side), &c, &mut dice).expect("executes");
                }
                assert!(checked > 20, "scenario {k}, seed {seed}: only {checked} decisions");
                redrawn_total += redrawn_seen;
            }
        }
        assert!(redrawn_total > 100, "maps changed at only {redrawn_total} decisions");
    }
}
