//! Carrying out commands: the sequence of play, moves, combat, retreats, follow-ups, flight and
//! pursuit, rampages, generals and army morale.
//!
//! `execute` works on a scratch copy of the state: every event is applied to the copy as it is
//! emitted, so later steps of an action see its earlier results, and the events returned are
//! exactly what turns the real state into the copy. The copy is kept per thread and refreshed
//! from the state given (see `State::clone_from`), so that an action allocates nothing for it.

use crate::Othw;
use crate::combat::{Aspect, Combatant, aspect, leadership_passes, profile, round_end};
use crate::data::{FateResult, RampageTurn, RetreatStep, Special};
use crate::state::{
    ActionKind, Command, EMPTY, Event, GoneHow, Placement, State, Status, TestKind, Unit, UnitId,
    apply, flags,
};
use std::borrow::Cow;
use std::sync::Arc;
use tabletop::dice::{DiceSource, Die, Roll, roll};
use tabletop::grid::{CellPos, GridFacing};
use tabletop::rules::{Outcome, RuleId, Side};

/// Why a unit broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    /// Combat (including a blocked retreat).
    Combat,
    /// Army-morale attrition.
    Attrition,
}

/// An action's scratch state: the state as it becomes, the events so far and the dice.
pub(crate) struct Ctx<'a> {
    pub r: &'a Othw,
    pub st: &'a mut State,
    pub ev: Vec<Event>,
    pub dice: &'a mut dyn DiceSource,
    drops: Vec<(Side, u8, Cow<'static, str>, &'static str)>,
}

fn rid(s: &'static str) -> RuleId {
    RuleId::new(s)
}

impl<'a> Ctx<'a> {
    /// A context for carrying out `cmd` on `st`.
    pub fn new(
        r: &'a Othw,
        st: &'a mut State,
        dice: &'a mut dyn DiceSource,
        cmd: &Command,
    ) -> Ctx<'a> {
        // Room for as many events as fit in 1 KiB (nine): a move makes 3 or 4, the end of a
        // phase most often 2, a combat round and its aftermath most often up to 9. A small
        // block is much quicker to allocate and to free than a larger one, so a list is given
        // more room only for a group move (3 events and one per unit), or grown when needed.
        const SMALL: usize = 1024 / std::mem::size_of::<Event>();
        let events = match cmd {
            Command::GroupMove { units, .. } => SMALL.max(3 + units.len()),
            _ => SMALL,
        };
        Ctx { r, st, ev: Vec::with_capacity(events), dice, drops: Vec::new() }
    }

    /// Records an event and applies it to the state.
    pub fn emit(&mut self, e: Event) {
        // Kept first and applied where it lies: the event is moved once, not twice.
        self.ev.push(e);
        if let Some(e) = self.ev.last() {
            apply(self.st, e);
        }
    }

    fn d6(&mut self, purpose: &'static str, rule: &'static str) -> Roll {
        roll(self.dice, Die::D6, purpose, rid(rule))
    }

    fn name(&self, u: UnitId) -> Arc<str> {
        self.st.units[u as usize].name.clone()
    }

    fn place(
        &mut self,
        u: UnitId,
        to: CellPos,
        facing: GridFacing,
        how: Placement,
        rule: &'static str,
    ) {
        let x = &self.st.units[u as usize];
        if x.pos == to && x.facing == facing {
            return;
        }
        let e = Event::Placed {
            unit: u,
            name: self.name(u),
            from: x.pos,
            to,
            facing,
            how,
            rule: rid(rule),
        };
        self.emit(e);
    }

    fn set_sp(&mut self, u: UnitId, to: u8, why: impl Into<Cow<'static, str>>, rule: &'static str) {
        let from = self.st.units[u as usize].sp;
        if from == to {
            return;
        }
        let e = Event::Strength {
            unit: u,
            name: self.name(u),
            from,
            to,
            why: why.into(),
            rule: rid(rule),
        };
        self.emit(e);
    }

    fn queue_drop(&mut self, side: Side, n: u8, why: String, rule: &'static str) {
        if n > 0 {
            self.drops.push((side, n, why.into(), rule));
        }
    }

    // ----------------------------------------------------------------------------------------
    // Generals
    // ----------------------------------------------------------------------------------------

    /// A Risk to General test (OTHW-GEN-06), and the Fate roll it may call for (GEN-07).
    pub fn risk(&mut self, side: Side, for_attack: bool) {
        let Some(g) = self.st.side(side).general.clone() else { return };
        let roll = self.d6("risk to general", "OTHW-GEN-06");
        let fate = roll.value <= self.r.data.rules.general.risk_fate_at_most;
        let ignored = fate && for_attack && g.ignore_attack_risk > 0;
        let mut roll = roll;
        if ignored {
            roll.rule = rid("OTHW-GEN-09");
        }
        self.emit(Event::Risk { side, roll, fate: fate && !ignored, ignored });
        if !fate || ignored {
            return;
        }
        let rule = if g.fate_modifier != 0 { "OTHW-GEN-08" } else { "OTHW-GEN-07" };
        let roll = self.d6("fate roll", rule);
        let total = roll.value as i8 + g.fate_modifier;
        let result = self.r.data.rules.general.fate(total);
        let absent_through =
            if side == self.st.phasing { self.st.phase_no + 2 } else { self.st.phase_no + 1 };
        self.emit(Event::Fate { side, roll, total, result, absent_through });
        if result == FateResult::Removed {
            let n = self.r.data.morale.drops.general_lost;
            self.queue_drop(
                side,
                n,
                ["general ", &g.name, " removed by fate"].concat(),
                "OTHW-VIC-05",
            );
        }
    }

    /// The general of `side` is lost with his unit (OTHW-GEN-10), once.
    fn general_lost_with(&mut self, u: UnitId, why: &'static str) {
        let side = self.st.units[u as usize].side;
        let Some(g) = self.st.side(side).general.clone() else { return };
        if g.lost || g.unit != u {
            return;
        }
        self.emit(Event::GeneralLost { side, why: why.into(), rule: rid("OTHW-GEN-10") });
        let n = self.r.data.morale.drops.general_lost;
        self.queue_drop(side, n, ["general ", &g.name, " lost"].concat(), "OTHW-VIC-05");
    }

    /// A leadership test for `u`, with the general's reroll when he is with it (OTHW-STAT-05,
    /// OTHW-GEN-03).
    pub fn test(&mut self, u: UnitId, kind: TestKind, rule: &'static str) -> bool {
        let l = self.st.units[u as usize].l;
        let roll = self.d6("leadership test", rule);
        let passed = leadership_passes(roll.value, l);
        self.emit(Event::Test {
            unit: u,
            name: self.name(u),
            kind,
            roll,
            need: l,
            passed,
            reroll: false,
        });
        if passed {
            return true;
        }
        let side = self.st.units[u as usize].side;
        if self.st.has_general(u) && self.st.side(side).orders.reroll {
            let roll = self.d6("general's reroll", "OTHW-GEN-03");
            let passed = leadership_passes(roll.value, l);
            self.emit(Event::Test {
                unit: u,
                name: self.name(u),
                kind,
                roll,
                need: l,
                passed,
                reroll: true,
            });
            self.risk(side, false);
            return passed;
        }
        false
    }

    // ----------------------------------------------------------------------------------------
    // Army morale
    // ----------------------------------------------------------------------------------------

    /// Applies the queued army-morale drops one point at a time, with attrition after each point
    /// and the breaks it causes in unit order (OTHW-VIC-06, VIC-08, R-51).
    #[inline]
    pub fn settle(&mut self) {
        if !self.drops.is_empty() {
            self.settle_drops();
        }
    }

    /// The work of [`Ctx::settle`], when drops are queued.
    fn settle_drops(&mut self) {
        while !self.drops.is_empty() {
            let (side, n, why, rule) = self.drops.remove(0);
            for _ in 0..n {
                let am = self.st.side(side).am;
                if am == 0 {
                    break;
                }
                let to = am - 1;
                self.emit(Event::Morale { side, from: am, to, why: why.clone(), rule: rid(rule) });
                if to > self.r.data.morale.attrition_from {
                    continue;
                }
                let loss = self.r.data.morale.attrition_loss;
                // Made once for all the units it costs strength.
                let text: Cow<'static, str> = format!("army morale {to}").into();
                let mut broken = Vec::new();
                for i in 0..self.st.units.len() {
                    let x = &self.st.units[i];
                    if x.side != side
                        || !matches!(x.status, Status::Ready | Status::Rampaging)
                        || x.sp == 0
                        || x.l < to
                    {
                        continue;
                    }
                    let nsp = x.sp.saturating_sub(loss);
                    self.set_sp(i as UnitId, nsp, text.clone(), "OTHW-VIC-06");
                    if nsp == 0 {
                        broken.push(i as UnitId);
                    }
                }
                for b in broken {
                    self.break_unit(b, Cause::Attrition);
                }
            }
        }
    }

    // ----------------------------------------------------------------------------------------
    // Breaking, removal, flight
    // ----------------------------------------------------------------------------------------

    fn remove(
        &mut self,
        u: UnitId,
        how: GoneHow,
        why: impl Into<Cow<'static, str>>,
        rule: &'static str,
    ) {
        let e = Event::Status {
            unit: u,
            name: self.name(u),
            status: Status::Gone,
            gone: Some(how),
            why: why.into(),
            rule: rid(rule),
        };
        self.emit(e);
        self.general_lost_with(u, "his unit left the field");
    }

    /// A fleeing unit caught or blocked by the enemy is slaughtered (OTHW-FLT-05, FLT-07).
    pub fn slaughter(&mut self, u: UnitId, why: String, rule: &'static str) {
        let side = self.st.units[u as usize].side;
        self.remove(u, GoneHow::Slaughtered, why, rule);
        let n = self.r.data.morale.drops.slaughter;
        self.queue_drop(
            side,
            n,
            [&self.st.units[u as usize].name, " slaughtered"].concat(),
            "OTHW-VIC-04",
        );
    }

    /// A unit at 0 SP breaks and flees, or, rampaging, is destroyed (OTHW-FLT-01).
    pub fn break_unit(&mut self, u: UnitId, cause: Cause) {
        let x = self.st.units[u as usize].clone();
        if !x.on_board() || x.status == Status::Fleeing {
            return;
        }
        let drop = self.r.data.morale.drops.combat_break;
        if x.status == Status::Rampaging {
            self.remove(u, GoneHow::Destroyed, "destroyed while rampaging", "OTHW-CMB-20");
            if cause == Cause::Combat {
                self.queue_drop(x.side, drop, [&x.name, " destroyed"].concat(), "OTHW-VIC-03");
            }
            return;
        }
        let why = match cause {
            Cause::Combat => "0 strength points",
            Cause::Attrition => "0 strength points by army-morale attrition",
        };
        let rule = if cause == Cause::Combat { "OTHW-FLT-01" } else { "OTHW-VIC-08" };
        let e = Event::Status {
            unit: u,
            name: x.name.clone(),
            status: Status::Fleeing,
            gone: None,
            why: why.into(),
            rule: rid(rule),
        };
        self.emit(e);
        if cause == Cause::Combat && !x.is_skirmisher() {
            self.queue_drop(x.side, drop, [&x.name, " broke"].concat(), "OTHW-VIC-03");
        }
        self.general_lost_with(u, "his unit broke");
        if x.side == self.st.phasing {
            self.flee(u, "OTHW-FLT-02");
        }
    }

    /// A fleeing unit's flight: full M straight for its own edge (OTHW-FLT-02/03).
    pub fn flee(&mut self, u: UnitId, rule: &'static str) {
        let x = self.st.units[u as usize].clone();
        if x.status != Status::Fleeing {
            return;
        }
        let dir = self.st.side(x.side).edge.facing();
        self.place(u, x.pos, dir, Placement::Flight, rule);
        let exempt = x.ignores_restricted();
        let board = self.st.board.clone();
        let restricted_pts = self.r.data.rules.movement.restricted_points;
        let mut budget = if !exempt && board.restricted(x.pos) { restricted_pts } else { x.m };
        let mut p = x.pos;
        let mut last_empty = None;
        let mut k = 0;
        while k < budget {
            k += 1;
            let q = p.step(dir);
            if !board.grid.in_bounds(q) {
                if let Some(le) = last_empty {
                    self.place(u, le, dir, Placement::Flight, rule);
                }
                self.remove(u, GoneHow::FledOff, "fled off its own edge", "OTHW-FLT-04");
                return;
            }
            if board.impassable(q) {
                break;
            }
            if !exempt && board.restricted(q) {
                if k > restricted_pts {
                    break;
                }
                budget = k;
            }
            match self.st.at(q) {
                Some(v) if self.st.units[v as usize].side != x.side => {
                    let why = ["ran into ", &self.st.units[v as usize].name].concat();
                    self.slaughter(u, why, "OTHW-FLT-05");
                    return;
                }
                Some(_) => {}
                None => last_empty = Some(q),
            }
            p = q;
        }
        if let Some(q) = last_empty {
            let rule = if rule == "OTHW-FLT-02" { rule } else { "OTHW-FLT-06" };
            self.place(u, q, dir, Placement::Flight, rule);
        }
    }

    // ----------------------------------------------------------------------------------------
    // Combat
    // ----------------------------------------------------------------------------------------

    fn combatant(&self, u: UnitId) -> Combatant {
        let x = &self.st.units[u as usize];
        Combatant {
            class: x.class,
            specials: x.specials,
            a: x.a,
            d: x.d,
            s: x.s,
            sp: x.sp,
            terrain: self.st.board.terrain(x.pos),
        }
    }

    fn roll_dice(&mut self, n: u8, purpose: &'static str) -> Vec<Roll> {
        (0..n).map(|_| self.d6(purpose, "OTHW-CMB-04")).collect()
    }

    /// One round of combat: `att` fights the unit `def` in its front square (OTHW-CMB-10's
    /// order).
    pub fn fight(&mut self, att: UnitId, def: UnitId, general_dice: bool) {
        let a = self.st.units[att as usize].clone();
        let d = self.st.units[def as usize].clone();
        if d.status == Status::Fleeing {
            let why = ["caught by ", &a.name].concat();
            self.slaughter(def, why, "OTHW-FLT-07");
            return;
        }
        let asp = aspect(d.facing, a.facing.reversed());
        let strike_back = asp == Aspect::Front;
        let gd = if general_dice {
            self.st.active_general(a.side).filter(|g| g.unit == att).map_or(0, |g| g.attack)
        } else {
            0
        };
        let (ca, cd) = (self.combatant(att), self.combatant(def));
        // The rules that set the numbers, each once, in the order they first apply: the
        // round's own, then the attacker's, then the defender's.
        let mut rules: Vec<RuleId> = Vec::with_capacity(12);
        rules.extend([rid("OTHW-CMB-01"), rid("OTHW-CMB-04")]);
        if !strike_back {
            rules.push(rid("OTHW-CMB-03"));
        }
        let mut note = |r: &'static str| {
            if !rules.iter().any(|x| x.as_str() == r) {
                rules.push(rid(r));
            }
        };
        let data = &self.r.data;
        let pa = profile(data, &ca, &cd, asp, gd, &mut note);
        let pd = profile(data, &cd, &ca, Aspect::Front, 0, &mut note);
        let ar = self.roll_dice(pa.dice, "attack");
        let dr = if strike_back { self.roll_dice(pd.dice, "strike back") } else { Vec::new() };
        let mut hits_on_d = ar.iter().filter(|r| r.value >= pa.need).count() as u8;
        let mut hits_on_a = dr.iter().filter(|r| r.value >= pd.need).count() as u8;
        let (a_misses, d_misses) = (
            ar.iter().filter(|r| r.value < pa.need).count(),
            dr.iter().filter(|r| r.value < pd.need).count(),
        );
        self.emit(Event::Combat {
            attacker: att,
            attacker_name: a.name.clone(),
            defender: def,
            defender_name: d.name.clone(),
            attacker_rolls: ar,
            attacker_need: pa.need,
            defender_rolls: dr,
            defender_need: pd.need,
            rules,
        });
        if gd > 0 {
            self.risk(a.side, true);
        }
        // Archers reroll missed dice.
        let rerolls = self.r.data.traits.archers.rerolls as usize;
        for (u, misses, need, hits) in
            [(att, a_misses, pa.need, &mut hits_on_d), (def, d_misses, pd.need, &mut hits_on_a)]
        {
            if self.st.units[u as usize].has(Special::Archers) {
                for _ in 0..misses.min(rerolls) {
                    let roll = self.d6("archers' reroll", "OTHW-TRT-01");
                    let hit = roll.value >= need;
                    *hits += u8::from(hit);
                    self.emit(Event::Reroll { unit: u, name: self.name(u), roll, hit });
                }
            }
        }
        // Phalanx cancel, then the general's rally, on each side's hits taken.
        for (u, hits) in [(def, &mut hits_on_d), (att, &mut hits_on_a)] {
            let x = self.st.units[u as usize].clone();
            if *hits > 0
                && x.has(Special::Phalanx)
                && x.sp == x.s
                && x.status == Status::Ready
                && self.st.side(x.side).orders.phalanx
            {
                let before = self.ev.len();
                if self.test(u, TestKind::Phalanx, "OTHW-TRT-04") {
                    let c = self.r.data.traits.phalanx.cancels.min(*hits);
                    *hits -= c;
                    let rolls = self.ev[before..]
                        .iter()
                        .filter_map(|e| match e {
                            Event::Test { roll, .. } => Some(roll.clone()),
                            _ => None,
                        })
                        .collect();
                    self.emit(Event::Cancelled {
                        unit: u,
                        name: x.name.clone(),
                        rolls,
                        cancelled: c,
                        rule: rid("OTHW-TRT-04"),
                    });
                }
            }
            if *hits > 0
                && self.st.has_general(u)
                && self.st.side(x.side).orders.rally
                && let Some(g) = self.st.active_general(x.side).cloned()
                && g.rally > 0
            {
                let rolls: Vec<Roll> =
                    (0..g.rally).map(|_| self.d6("rally", "OTHW-GEN-05")).collect();
                let ok =
                    rolls.iter().filter(|r| r.value >= self.r.data.rules.general.rally_hit).count()
                        as u8;
                let c = ok.min(*hits);
                *hits -= c;
                self.emit(Event::Cancelled {
                    unit: u,
                    name: x.name.clone(),
                    rolls,
                    cancelled: c,
                    rule: rid("OTHW-GEN-05"),
                });
                self.risk(x.side, false);
            }
        }
        // Strength points, the result and who breaks (OTHW-CMB-09 to CMB-12).
        let keep = self.r.data.rules.combat.both_broken_keep;
        let end = round_end([a.sp, d.sp], [hits_on_a, hits_on_d], keep);
        let ids = [att, def];
        self.set_sp(att, end.hit_to[0], hits_text(hits_on_a), "OTHW-CMB-09");
        self.set_sp(def, end.hit_to[1], hits_text(hits_on_d), "OTHW-CMB-09");
        for ((u, kept), sp) in ids.into_iter().zip(end.kept).zip(end.sp) {
            if kept {
                let why = if end.winner.is_some() {
                    "both would break: the winner stands"
                } else {
                    "both would break in a draw"
                };
                self.set_sp(u, sp, why, "OTHW-CMB-12");
            }
        }
        let (winner, loser) = (end.winner.map(|i| ids[i]), end.loser().map(|i| ids[i]));
        // "W wins the round (N hits to M); L loses" or "a drawn round (N hits each)".
        let text = match (winner, loser) {
            (Some(w), Some(l)) => [
                &self.st.units[w as usize].name,
                " wins the round (",
                &hits_text(hits_on_a.max(hits_on_d)),
                " to ",
                &number_text(hits_on_a.min(hits_on_d)),
                "); ",
                &self.st.units[l as usize].name,
                " loses",
            ]
            .concat(),
            _ => ["a drawn round (", &hits_text(hits_on_a), " each)"].concat(),
        };
        self.emit(Event::Result {
            attacker_hits: hits_on_a,
            defender_hits: hits_on_d,
            winner,
            loser,
            text,
        });
        let Some(wi) = end.winner else {
            // A drawn round: a side left at 0 breaks; nobody retreats, pursues or follows up.
            for (u, breaks) in ids.into_iter().zip(end.breaks) {
                if breaks {
                    self.break_unit(u, Cause::Combat);
                }
            }
            return;
        };
        let (w, l) = (ids[wi], ids[1 - wi]);
        let square = self.st.units[l as usize].pos;
        let away = direction(self.st.units[w as usize].pos, square)
            .unwrap_or(self.st.units[w as usize].facing);
        let lx = self.st.units[l as usize].clone();
        let rampaging = lx.status == Status::Rampaging;
        // Breaks first: the loser's, then the winner's when it alone fell to 0 (OTHW-FLT-01).
        let mut loser_broke = end.breaks[1 - wi];
        if loser_broke {
            self.break_unit(l, Cause::Combat);
        }
        if end.breaks[wi] {
            self.break_unit(w, Cause::Combat);
        }
        if !loser_broke {
            if rampaging {
                // A rampaging elephant never retreats (OTHW-CMB-20).
            } else if lx.has(Special::Rampage) {
                loser_broke = self.rampage_first(l, away);
            } else {
                loser_broke = self.retreat(l, away);
            }
        }
        let wx = &self.st.units[w as usize];
        if wx.status != Status::Ready {
            return;
        }
        if loser_broke && !rampaging && self.st.units[l as usize].status == Status::Fleeing {
            let e = Event::Pursuit {
                unit: w,
                name: wx.name.clone(),
                target: Some(l),
                target_name: Some(lx.name.clone()),
                rule: rid("OTHW-FLT-08"),
            };
            self.emit(e);
        }
        if self.st.at(square).is_none() {
            self.follow_up(w, square);
        }
    }

    /// Up to three leadership tests; each failure falls back, faces away, falls back
    /// (OTHW-CMB-13 to CMB-16). `away` is the direction from the winner to the loser. True when
    /// the strength lost on a blocked step broke the unit (a combat break: its victor pursues).
    pub fn retreat(&mut self, l: UnitId, away: GridFacing) -> bool {
        let tests = self.st.units[l as usize].retreat_tests;
        let mut fails = 0u8;
        for _ in 0..tests {
            if self.test(l, TestKind::Retreat, "OTHW-CMB-13") {
                return false;
            }
            fails += 1;
            let x = self.st.units[l as usize].clone();
            let steps = &self.r.data.rules.combat.retreat_steps;
            let step = steps.get(fails as usize - 1).or(steps.last()).copied();
            if step == Some(RetreatStep::FaceAway) {
                self.place(l, x.pos, away, Placement::Retreat, "OTHW-CMB-13");
                continue;
            }
            let q = x.pos.step(away);
            if !self.st.board.grid.in_bounds(q) {
                self.remove(l, GoneHow::PushedOff, "pushed off the board", "OTHW-CMB-15");
                if !x.is_skirmisher() {
                    let n = self.r.data.morale.drops.combat_break;
                    self.queue_drop(x.side, n, [&x.name, " pushed off"].concat(), "OTHW-VIC-03");
                }
                return false;
            }
            if self.st.board.impassable(q) || self.st.at(q).is_some() {
                let loss = self.r.data.rules.combat.blocked_retreat_loss;
                let nsp = x.sp.saturating_sub(loss);
                self.set_sp(l, nsp, "retreat blocked", "OTHW-CMB-16");
                if nsp == 0 {
                    self.break_unit(l, Cause::Combat);
                    return true;
                }
                continue;
            }
            self.place(l, q, x.facing, Placement::Retreat, "OTHW-CMB-14");
        }
        false
    }

    /// The winner's follow-up into the emptied square (OTHW-CMB-17, TRT-08).
    fn follow_up(&mut self, w: UnitId, square: CellPos) {
        let x = self.st.units[w as usize].clone();
        if x.has(Special::Impetuous) {
            self.place(w, square, x.facing, Placement::FollowUp, "OTHW-TRT-08");
        } else if self.st.side(x.side).orders.follow_up
            && self.test(w, TestKind::FollowUp, "OTHW-CMB-17")
        {
            self.place(w, square, x.facing, Placement::FollowUp, "OTHW-CMB-17");
        }
    }

    /// An elephant that lost a round rolls on the rampage table (OTHW-CMB-18); true when it did
    /// not rampage and a blocked retreat broke it.
    fn rampage_first(&mut self, u: UnitId, away: GridFacing) -> bool {
        let roll = self.d6("rampage", "OTHW-CMB-18");
        let turn = self.r.data.rules.rampage.first[(roll.value.clamp(1, 6) - 1) as usize];
        self.emit(Event::Rampage { unit: u, name: self.name(u), roll, turn });
        if turn == RampageTurn::None {
            return self.retreat(u, away);
        }
        let e = Event::Status {
            unit: u,
            name: self.name(u),
            status: Status::Rampaging,
            gone: None,
            why: "lost a round".into(),
            rule: rid("OTHW-CMB-18"),
        };
        self.emit(e);
        self.rampage_move(u, turn);
        false
    }

    /// A rampage: turn, advance up to M, attack whatever is in the way (OTHW-CMB-19).
    pub fn rampage_move(&mut self, u: UnitId, turn: RampageTurn) {
        let x = self.st.units[u as usize].clone();
        let f = match turn {
            RampageTurn::Left => x.facing.turned_left(),
            RampageTurn::Right => x.facing.turned_right(),
            RampageTurn::Rear => x.facing.reversed(),
            RampageTurn::Ahead | RampageTurn::None => x.facing,
        };
        self.place(u, x.pos, f, Placement::Rampage, "OTHW-CMB-19");
        for _ in 0..x.m {
            let p = self.st.units[u as usize].pos;
            let q = p.step(f);
            if !self.st.board.grid.in_bounds(q) {
                self.remove(u, GoneHow::Destroyed, "rampaged off the board", "OTHW-CMB-19");
                let n = self.r.data.morale.drops.combat_break;
                self.queue_drop(x.side, n, [&x.name, " lost"].concat(), "OTHW-VIC-03");
                return;
            }
            if self.st.board.impassable(q) {
                return;
            }
            if let Some(v) = self.st.at(q) {
                if self.st.units[v as usize].status == Status::Fleeing {
                    let why = ["trampled by ", &x.name].concat();
                    self.slaughter(v, why, "OTHW-CMB-19");
                } else {
                    self.fight(u, v, false);
                }
                return;
            }
            self.place(u, q, f, Placement::Rampage, "OTHW-CMB-19");
        }
    }

    /// The mahouts' self-attack (OTHW-CMB-21): own A against own D.
    fn mahouts(&mut self, u: UnitId) {
        let x = self.st.units[u as usize].clone();
        let rolls: Vec<Roll> = (0..x.a).map(|_| self.d6("mahouts", "OTHW-CMB-21")).collect();
        let hits = rolls.iter().filter(|r| r.value >= x.d.max(2)).count() as u8;
        self.emit(Event::Cancelled {
            unit: u,
            name: x.name.clone(),
            rolls,
            cancelled: 0,
            rule: rid("OTHW-CMB-21"),
        });
        let nsp = x.sp.saturating_sub(hits);
        self.set_sp(u, nsp, format!("{hits} hits from its mahouts"), "OTHW-CMB-21");
        if nsp == 0 {
            self.break_unit(u, Cause::Combat);
        }
    }

    // ----------------------------------------------------------------------------------------
    // Pursuit
    // ----------------------------------------------------------------------------------------

    /// A shortest route of empty, passable squares from `from` to a square meeting `goal`.
    fn route(&self, from: CellPos, goal: impl Fn(CellPos) -> bool) -> Option<Vec<CellPos>> {
        let g = &self.st.board.grid;
        let mut prev = vec![usize::MAX; g.cells.len()];
        let start = g.index(from)?;
        prev[start] = start;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(p) = queue.pop_front() {
            if goal(p) {
                let mut path = vec![p];
                let mut i = g.index(p)?;
                while prev[i] != i {
                    i = prev[i];
                    path.push(g.pos(i)?);
                }
                path.reverse();
                path.remove(0);
                return Some(path);
            }
            for q in g.neighbours(p) {
                let Some(qi) = g.index(q) else { continue };
                if prev[qi] != usize::MAX || self.st.board.impassable(q) || self.st.at(q).is_some()
                {
                    continue;
                }
                prev[qi] = g.index(p)?;
                queue.push_back(q);
            }
        }
        None
    }

    /// A pursuer chases, then tests to halt (OTHW-FLT-09, FLT-10).
    fn pursue(&mut self, p: UnitId) {
        let x = self.st.units[p as usize].clone();
        let Some(t) = x.pursuing else { return };
        let target = self.st.units[t as usize].clone();
        let goal_pos = target.pos;
        let chase = match target.status {
            Status::Fleeing => Some(true),
            Status::Gone if target.gone == Some(GoneHow::FledOff) => Some(false),
            _ => None,
        };
        if let Some(catching) = chase {
            let adjacent = |q: CellPos| q.manhattan(goal_pos) == 1;
            if catching && adjacent(x.pos) {
                let why = ["caught by ", &x.name].concat();
                self.slaughter(t, why, "OTHW-FLT-07");
            } else if let Some(path) = if catching {
                self.route(x.pos, adjacent)
            } else {
                self.route(x.pos, |q| q == goal_pos)
            } {
                let exempt = x.ignores_restricted();
                let board = self.st.board.clone();
                let mut at = x.pos;
                let mut facing = x.facing;
                let mut limit = x.m as usize;
                if !exempt && board.restricted(x.pos) {
                    limit = 1;
                }
                for (i, &q) in path.iter().enumerate().take(limit) {
                    if !exempt && board.restricted(q) && i > 0 {
                        break;
                    }
                    facing = direction(at, q).unwrap_or(facing);
                    at = q;
                    if !exempt && board.restricted(q) {
                        break;
                    }
                }
                let rule = if catching { "OTHW-FLT-09" } else { "OTHW-FLT-10" };
                self.place(p, at, facing, Placement::Pursuit, rule);
                if catching && adjacent(at) {
                    let why = ["caught by ", &x.name].concat();
                    self.slaughter(t, why, "OTHW-FLT-07");
                }
            }
        }
        self.settle();
        if self.st.units[p as usize].status != Status::Ready {
            return;
        }
        let rule = if chase == Some(false) || target.status != Status::Fleeing {
            "OTHW-FLT-10"
        } else {
            "OTHW-FLT-09"
        };
        if self.test(p, TestKind::Pursuit, rule) {
            self.emit(Event::Pursuit {
                unit: p,
                name: x.name.clone(),
                target: None,
                target_name: None,
                rule: rid(rule),
            });
            let f = self.st.units[p as usize].flags | flags::DONE;
            self.emit(Event::Flags { unit: p, name: Some(x.name.clone()), flags: f });
        }
    }

    // ----------------------------------------------------------------------------------------
    // Sequence of play
    // ----------------------------------------------------------------------------------------

    /// Step 1 of `side`'s phase: rampages, flight, pursuits (OTHW-SEQ-02).
    fn step1(&mut self, side: Side) {
        // Most phases begin with none of these: one look at the units settles that (with none,
        // nothing below acts, so nothing can start to).
        let busy = |x: &Unit| match x.status {
            Status::Rampaging | Status::Fleeing => true,
            Status::Ready => x.pursuing.is_some(),
            Status::Gone => false,
        };
        if !any_unit_of(self.st, side, busy) {
            return;
        }
        let rampaging = |x: &Unit| x.side == side && x.status == Status::Rampaging;
        self.each_unit(rampaging, |cx, u| {
            let roll = cx.d6("rampage", "OTHW-CMB-20");
            let turn = cx.r.data.rules.rampage.later[(roll.value.clamp(1, 6) - 1) as usize];
            cx.emit(Event::Rampage { unit: u, name: cx.name(u), roll, turn });
            cx.rampage_move(u, turn);
        });
        let fleeing = |x: &Unit| x.side == side && x.status == Status::Fleeing;
        self.each_unit(fleeing, |cx, u| cx.flee(u, "OTHW-FLT-03"));
        let pursuing =
            |x: &Unit| x.side == side && x.status == Status::Ready && x.pursuing.is_some();
        self.each_unit(pursuing, |cx, u| cx.pursue(u));
    }

    /// Runs `act` and then settles, for each unit in ID order (units are never added or
    /// removed) that meets `want` as it stands when its turn comes.
    fn each_unit(&mut self, want: impl Fn(&Unit) -> bool, act: impl Fn(&mut Self, UnitId)) {
        let mut from = 0;
        while let Some(i) = self.st.units.get(from..).and_then(|rest| rest.iter().position(&want)) {
            let u = (from + i) as UnitId;
            from += i + 1;
            act(self, u);
            self.settle();
        }
    }

    /// Ends the battle if an army has broken (OTHW-R-10, VIC-09); true when over.
    pub fn check_over(&mut self) -> bool {
        if self.st.outcome.is_some() {
            return true;
        }
        let lost = |s: Side| {
            self.st.side(s).am == 0 || !any_unit_of(self.st, s, |x| x.status == Status::Ready)
        };
        let (red, blue) = (lost(Side::Red), lost(Side::Blue));
        let winner = match (red, blue) {
            (false, false) => return false,
            (true, true) => None,
            (true, false) => Some(Side::Blue),
            (false, true) => Some(Side::Red),
        };
        let reason = match winner {
            None => "both armies broke at once".to_string(),
            Some(w) => {
                let l = w.other();
                if self.st.side(l).am == 0 {
                    format!("{l}'s army morale reached 0")
                } else {
                    format!("{l} has no unit left in the fight")
                }
            }
        };
        self.emit(Event::GameOver {
            outcome: Outcome { winner, reason },
            rule: rid("OTHW-VIC-09"),
        });
        true
    }

    /// Ends the phasing side's phase and starts the next ones until a side can act or the
    /// battle ends.
    pub fn end_phase(&mut self, why: &'static str, rule: &'static str) {
        let side = self.st.phasing;
        self.emit(Event::PhaseEnded { side, why: why.into(), rule: rid(rule) });
        loop {
            let side = self.st.phasing;
            let second = side != self.st.first;
            if second && self.st.turn >= self.st.turns {
                let lost = |s: Side| {
                    let x = self.st.side(s);
                    x.am_start.saturating_sub(x.am)
                };
                let (r, b) = (lost(Side::Red), lost(Side::Blue));
                let winner = match r.cmp(&b) {
                    std::cmp::Ordering::Less => Some(Side::Red),
                    std::cmp::Ordering::Greater => Some(Side::Blue),
                    std::cmp::Ordering::Equal => None,
                };
                let reason = format!("the last turn is over; army morale lost: red {r}, blue {b}");
                self.emit(Event::GameOver {
                    outcome: Outcome { winner, reason },
                    rule: rid("OTHW-VIC-09"),
                });
                return;
            }
            let (turn, next) = if second {
                (self.st.turn + 1, self.st.first)
            } else {
                (self.st.turn, side.other())
            };
            self.emit(Event::PhaseBegan { turn, side: next, phase_no: self.st.phase_no + 1 });
            self.step1(next);
            if self.check_over() {
                return;
            }
            if self.any_action() {
                return;
            }
            self.emit(Event::PhaseEnded {
                side: next,
                why: "no action left".into(),
                rule: rid("OTHW-SEQ-09"),
            });
        }
    }

    /// True when the phasing side has some action left besides ending the phase, exactly as
    /// [`Othw::any_action`] answers. Most often a unit is found at once that surely has one, and
    /// the search is not needed: a rampaging elephant that its mahouts may put down
    /// (OTHW-CMB-21), or a unit that may still move and has the points to turn on the spot
    /// (OTHW-MOV-02), which is always a move the search offers.
    fn any_action(&self) -> bool {
        let st = &*self.st;
        let g = &st.board.grid;
        // The search finds nothing on a malformed board or occupancy: left to it.
        let sound = g.is_well_formed()
            && g.cells.len() < usize::from(u16::MAX)
            && st.occ.len() == g.cells.len();
        let mv = &self.r.data.rules.movement;
        let further = self.r.data.rules.sequence.further_moves > 0;
        let surely = |x: &Unit| {
            if x.status == Status::Rampaging {
                return !x.flag(flags::FOUGHT) && !st.phase_over;
            }
            if x.flag(flags::FOUGHT)
                || (x.flag(flags::MOVED) && (x.flag(flags::FURTHER) || !further))
                || !self.r.may_act(st, x.id, false)
            {
                return false;
            }
            // Its points: M, or fewer in woods or a ford (OTHW-MOV-11), which is looked at only
            // when it matters.
            let turn = if x.has(Special::FreeFacing) { 0 } else { mv.turn_cost };
            let rp = mv.restricted_points;
            let points =
                if !x.ignores_restricted() && st.board.restricted(x.pos) { rp } else { x.m };
            let can_turn = turn <= points;
            // The search offers turns on a square the unit holds (or that shows empty).
            let holds = g
                .index(x.pos)
                .and_then(|i| st.occ.get(i))
                .is_some_and(|&v| v == EMPTY || v == x.id);
            can_turn && holds
        };
        (sound && any_unit_of(st, st.phasing, surely)) || self.r.any_action(st)
    }

    /// After an action (the battle not over): end the phase when nothing may act any more
    /// (OTHW-SEQ-07, SEQ-09).
    fn after_action(&mut self) {
        if !self.any_action() {
            if self.st.phase_over {
                self.end_phase("the general's unit has nothing left to do", "OTHW-SEQ-07");
            } else {
                self.end_phase("no action left", "OTHW-SEQ-09");
            }
        }
    }

    /// Carries out a checked command.
    pub fn command(&mut self, side: Side, cmd: &Command) {
        match cmd {
            Command::EndPhase => {
                let why =
                    if self.st.phase_over { "the phase was over" } else { "ended by the player" };
                self.end_phase(why, "OTHW-SEQ-09");
            }
            Command::Orders { orders } => self.emit(Event::Orders { side, orders: *orders }),
            Command::Move { unit, to, facing } => {
                let further = self.st.units[*unit as usize].flag(flags::MOVED);
                let (kind, rule) = if further {
                    (ActionKind::FurtherMove, "OTHW-MOV-09")
                } else {
                    (ActionKind::Move, "OTHW-MOV-02")
                };
                let ends = self.begin(side, &[*unit], kind, rule);
                if further && !self.test(*unit, TestKind::FurtherMove, "OTHW-MOV-09") {
                    if !self.st.phase_over {
                        self.emit(Event::PhaseOver {
                            side,
                            why: "a further-move test failed".into(),
                            rule: rid("OTHW-SEQ-06"),
                        });
                    }
                } else {
                    self.place(*unit, *to, *facing, Placement::Move, rule);
                }
                self.finish(side, ends);
            }
            Command::GroupMove { units, facing, steps } => {
                let ends = self.begin(side, units, ActionKind::GroupMove, "OTHW-MOV-06");
                for &u in units {
                    let mut p = self.st.units[u as usize].pos;
                    for _ in 0..*steps {
                        p = p.step(*facing);
                    }
                    self.place(u, p, *facing, Placement::Move, "OTHW-MOV-06");
                }
                self.finish(side, ends);
            }
            Command::Attack { unit, from, facing, general_dice } => {
                let x = self.st.units[*unit as usize].clone();
                let standing =
                    *from == x.pos && (*facing == x.facing || x.has(Special::FreeFacing));
                let (kind, rule) = if standing {
                    (ActionKind::Combat, "OTHW-CMB-02")
                } else {
                    (ActionKind::Charge, "OTHW-MOV-08")
                };
                let ends = self.begin(side, &[*unit], kind, rule);
                let how = if *from == x.pos { Placement::Face } else { Placement::Move };
                let prule =
                    if standing && x.has(Special::FreeFacing) { "OTHW-TRT-09" } else { rule };
                self.place(*unit, *from, *facing, how, prule);
                if let Some(t) = self.st.at(from.step(*facing)) {
                    self.fight(*unit, t, *general_dice);
                }
                self.settle();
                self.finish(side, ends);
            }
            Command::Mahouts { unit } => {
                let ends = self.begin(side, &[*unit], ActionKind::Mahouts, "OTHW-CMB-21");
                self.mahouts(*unit);
                self.finish(side, ends);
            }
        }
    }

    /// Names an action and makes the phase-end roll unless the general's unit takes part
    /// (OTHW-SEQ-04, SEQ-05); true when the roll ends the phase.
    fn begin(
        &mut self,
        side: Side,
        units: &[UnitId],
        kind: ActionKind,
        rule: &'static str,
    ) -> bool {
        let names = units.iter().map(|&u| self.name(u)).collect();
        self.emit(Event::Action { side, units: units.into(), names, kind, rule: rid(rule) });
        let exempt = units.iter().any(|&u| self.st.has_general(u));
        if exempt || self.st.phase_over {
            return false;
        }
        let roll = self.d6("phase end", "OTHW-SEQ-04");
        let ends = roll.value <= self.r.data.rules.sequence.phase_end_on;
        self.emit(Event::PhaseEndRoll { roll, ends });
        ends
    }

    /// Ends an action: army-morale drops, the end of the battle, the phase-end roll's effect
    /// and the end of the phase.
    fn finish(&mut self, side: Side, ends: bool) {
        self.settle();
        // The only check: the phase-end roll's effect below cannot end the battle, so
        // `after_action` does not check again.
        if self.check_over() {
            return;
        }
        if ends && !self.st.phase_over {
            self.emit(Event::PhaseOver {
                side,
                why: "the phase-end roll was a 1".into(),
                rule: rid("OTHW-SEQ-04"),
            });
        }
        self.after_action();
    }
}

/// A small count in figures, as `format!("{n}")` writes it.
fn number_text(n: u8) -> Cow<'static, str> {
    const TEXT: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
    match TEXT.get(usize::from(n)) {
        Some(t) => Cow::Borrowed(t),
        None => Cow::Owned(n.to_string()),
    }
}

/// "N hits", for the strength lost in a round.
fn hits_text(n: u8) -> Cow<'static, str> {
    const TEXT: [&str; 10] = [
        "0 hits", "1 hits", "2 hits", "3 hits", "4 hits", "5 hits", "6 hits", "7 hits", "8 hits",
        "9 hits",
    ];
    match TEXT.get(usize::from(n)) {
        Some(t) => Cow::Borrowed(t),
        None => Cow::Owned(format!("{n} hits")),
    }
}

/// True when some unit of `side` meets `want`. Scenarios list each side's units together, so
/// the look starts from the end of the list where that side's units are likely to be (which
/// changes only how soon one is found).
fn any_unit_of(st: &State, side: Side, want: impl Fn(&Unit) -> bool) -> bool {
    let units = &st.units;
    let from_end = units.first().is_some_and(|x| x.side != side);
    (0..units.len()).any(|k| {
        let x = &units[if from_end { units.len() - 1 - k } else { k }];
        x.side == side && want(x)
    })
}

/// The facing from `a` to the orthogonally adjacent `b`.
pub fn direction(a: CellPos, b: CellPos) -> Option<GridFacing> {
    GridFacing::ALL.into_iter().find(|&f| a.step(f) == b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop::dice::SeededDice;
    use tabletop::rules::{Actor, RuleSet};

    /// Calls `look` on states of `battles` battles of random commands on every ready scenario
    /// (woods, fords, the river, hills).
    fn through_battles(battles: u64, mut look: impl FnMut(&Othw, &State)) {
        let r = Othw::new();
        for (k, text) in crate::READY_SCENARIOS.into_iter().enumerate() {
            let sc = r.load_scenario(&tabletop::Source::new("s.toml", text)).expect("loads");
            for seed in 1..=battles {
                let mut dice = SeededDice::new(seed * 10 + k as u64);
                let mut pick = SeededDice::new(seed);
                let (mut st, _) = r.setup(&sc, &mut dice);
                while st.outcome.is_none() {
                    look(&r, &st);
                    let side = st.phasing;
                    let legal = r.legal(&st, side);
                    let c = &legal[pick.below(legal.len() as u32) as usize];
                    for e in r.execute(&st, Actor::Side(side), c, &mut dice).expect("runs") {
                        r.apply(&mut st, &e);
                    }
                }
            }
        }
    }

    /// The engine's shortcut answers as the search does, for either side, with the phase over
    /// or not.
    #[test]
    fn any_action_answers_as_the_search() {
        let mut dice = SeededDice::new(1);
        let (mut yes, mut no) = (0, 0);
        through_battles(6, |r, st| {
            for (other_side, phase_over) in [(false, false), (true, false), (false, true)] {
                let mut st = st.clone();
                if other_side {
                    st.phasing = st.phasing.other();
                }
                st.phase_over |= phase_over;
                let want = r.any_action(&st);
                let mut copy = st.clone();
                let cx = Ctx::new(r, &mut copy, &mut dice, &Command::EndPhase);
                assert_eq!(cx.any_action(), want, "{st:?}");
                *if want { &mut yes } else { &mut no } += 1;
            }
        });
        assert!(yes > 100 && no > 100, "both answers seen ({yes} and {no})");
    }

    /// Carrying a command out on the state itself gives the events, the dice and the state
    /// that working it out on a copy and applying its events give, for every kind of command
    /// (moves, charges and combats, group moves, orders, the end of a phase).
    #[test]
    fn performing_in_place_is_executing_then_applying() {
        let mut n = 0;
        let mut kinds = std::collections::HashSet::new();
        through_battles(3, |r, st| {
            let mut legal = r.legal(st, st.phasing);
            let stride = legal.len().div_ceil(6);
            legal = legal.into_iter().step_by(stride).collect();
            // Other standing orders, where the side may give them.
            let o = st.side(st.phasing).orders;
            let orders =
                Command::Orders { orders: crate::state::Orders { reroll: !o.reroll, ..o } };
            if r.check(st, Actor::Side(st.phasing), &orders).is_ok() {
                legal.push(orders);
            }
            for c in &legal {
                let seed = n;
                let (mut d1, mut d2) = (SeededDice::new(seed), SeededDice::new(seed));
                let actor = Actor::Side(st.phasing);
                let events = r.execute(st, actor, c, &mut d1).expect("runs");
                let mut applied = st.clone();
                for e in &events {
                    r.apply(&mut applied, e);
                }
                let mut performed = st.clone();
                let got = r.perform(&mut performed, actor, c, &mut d2).expect("runs");
                assert_eq!(got, events, "{c:?}");
                assert!(performed == applied, "{c:?}");
                assert!(d1 == d2, "{c:?}: the same dice drawn");
                kinds.insert(std::mem::discriminant(c));
                n += 1;
            }
        });
        assert!(n > 1000 && kinds.len() >= 5, "{n} commands of {} kinds", kinds.len());
    }
}
