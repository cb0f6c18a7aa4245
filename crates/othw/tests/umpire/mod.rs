//! An umpire for O/THW battles: it reads every event of a battle, in order, against its own copy
//! of the state (kept by applying the events), and reports each event that breaks a rule's
//! invariant. It looks at the events' fields, never at their text.
//!
//! What it checks:
//! - only the phasing side acts, one action at a time, and only units that may (not fleeing,
//!   pursuing or rampaging, except the mahouts' action; not having fought; a further move only
//!   after a first move; once the phase is over, only the general's unit), and the phase-end
//!   roll is made exactly when no general's unit takes part (OTHW-SEQ-03 to SEQ-10, FLT-11);
//! - moves within the unit's points and the terrain, worked out here from the board: steps
//!   only forward, turns at their cost, woods and fords, friends passed only where one of the
//!   two is a skirmisher, never ending on a unit or in the river (OTHW-MOV-01 to MOV-11); a
//!   charge's entry step within the same points (MOV-08); group moves straight and in step;
//! - retreats one square away from the winner or a turn to face away, follow-ups into the
//!   loser's emptied square, flight straight for the own edge within M, pursuit within M,
//!   rampages straight ahead within M (OTHW-CMB-13 to CMB-19, FLT-02 to FLT-10);
//! - every combat: the attacker faces the defender from the next square, the aspect, who
//!   strikes back, each side's dice and score equal to its listed parts folded in order, each
//!   part's condition true of the fighters (throwing spears at full strength, woods, fords,
//!   hills, generals, hoplites, archers, elephants, skirmishers, phalanx flanks, the rear), the
//!   hits counted from the dice, rerolls and cancellations within their rules, the strength
//!   lost equal to the hits, the result by hits taken (OTHW-CMB-01 to CMB-12, TRT-01 to TRT-12);
//! - leadership, Risk and Fate rolls against their numbers (OTHW-STAT-05, GEN-03 to GEN-09);
//! - strength never below 0 and never above the start, no unit left in the fight at 0 after a
//!   command, breaks only at 0 (OTHW-STAT-04, FLT-01);
//! - every army-morale point lost has its cause in the same command, every cause loses its
//!   point, and attrition takes a point from exactly the units it should (OTHW-VIC-03 to VIC-08);
//! - the end of the battle when an army breaks or the turns run out (OTHW-R-10, VIC-09).
#![allow(dead_code)]

use othw::Othw;
use othw::combat::{Aspect, Factor, Term, aspect, total};
use othw::data::{Class, FateResult, RampageTurn, Special};
use othw::state::{
    ActionKind, Cites, Command, Event, GoneHow, MoraleCause, Placement, Role, State, Status,
    TestKind, UnitId, apply, flags,
};
use std::collections::BinaryHeap;
use tabletop::grid::{CellPos, CellTerrain, GridFacing};
use tabletop::rules::{Narrate, Side};

/// The action under way in a command.
#[derive(Clone, Debug)]
struct Action {
    units: Vec<UnitId>,
    kind: ActionKind,
    exempt: bool,
}

/// The combat round under way.
#[derive(Clone, Debug)]
struct Round {
    att: UnitId,
    def: UnitId,
    sp: [u8; 2],
    need: [u8; 2],
    hits_on: [u8; 2],
    misses: [u8; 2],
    rerolled: [u8; 2],
    lost: [u8; 2],
    winner: Option<UnitId>,
    loser: Option<UnitId>,
    loser_square: Option<CellPos>,
    away: Option<GridFacing>,
}

/// The umpire's view of one battle.
pub struct Umpire<'a> {
    r: &'a Othw,
    st: State,
    /// What went wrong, each with the event.
    pub violations: Vec<String>,
    /// Events read.
    pub events: usize,
}

/// The cheapest cost of a move of `u` from where it stands to (`to`, `facing`) under the
/// movement rules, found here from the board alone: a step into the front square costs a step,
/// a turn to any other facing a turn (nothing for a unit that turns for free); a step may pass
/// a friend where one of the two is a skirmisher, never an enemy or the river, and never ends
/// on a unit; a move touching woods or a ford has that terrain's points unless the unit is
/// exempt. `extra` is the cost of one more step at the end (a charge's entry into the enemy's
/// square, `Some(target)`). Returns whether it is within the unit's points.
fn move_ok(
    r: &Othw,
    st: &State,
    u: UnitId,
    to: CellPos,
    facing: GridFacing,
    charge: Option<CellPos>,
) -> bool {
    let x = &st.units[u as usize];
    let mv = &r.data.rules.movement;
    let g = &st.board.grid;
    let exempt = x.has(Special::LooseOrder) || x.has(Special::Interpenetration);
    let turn = if x.has(Special::FreeFacing) { 0 } else { mv.turn_cost };
    let restricted = |p: CellPos| {
        !exempt && matches!(st.board.terrain(p), CellTerrain::Wood | CellTerrain::Ford)
    };
    let fi = |f: GridFacing| GridFacing::ALL.iter().position(|&h| h == f).unwrap_or(0);
    // Dijkstra over (cell, facing, touched restricted ground), with costs in points.
    let n = g.cells.len();
    let idx =
        |p: CellPos, f: usize, t: bool| (g.index(p).unwrap_or(0) * 4 + f) * 2 + usize::from(t);
    let mut best = vec![u32::MAX; n * 8];
    let mut heap = BinaryHeap::new();
    let t0 = restricted(x.pos);
    best[idx(x.pos, fi(x.facing), t0)] = 0;
    heap.push(std::cmp::Reverse((0u32, x.pos.col, x.pos.row, fi(x.facing), t0)));
    let budget = |t: bool| u32::from(if t { mv.restricted_points } else { x.m });
    let passable = |p: CellPos| match st.at(p) {
        None => true,
        Some(v) if v == u => true,
        Some(v) => {
            let o = &st.units[v as usize];
            o.side == x.side
                && o.on_board()
                && (x.has(Special::Interpenetration) || o.has(Special::Interpenetration))
        }
    };
    while let Some(std::cmp::Reverse((c, col, row, f, t))) = heap.pop() {
        let p = CellPos::new(col, row);
        if c > best[idx(p, f, t)] || c > budget(t) {
            continue;
        }
        let here_free = st.at(p).is_none_or(|v| v == u);
        if p == to && fi(facing) == f && here_free {
            match charge {
                None => return true,
                Some(q) => {
                    let tt = t || restricted(q);
                    if p.step(facing) == q && c + u32::from(mv.step_cost) <= budget(tt) {
                        return true;
                    }
                }
            }
        }
        // Turns.
        for (h, _) in GridFacing::ALL.iter().enumerate() {
            if h != f {
                let nc = c + u32::from(turn);
                if nc <= budget(t) && nc < best[idx(p, h, t)] {
                    best[idx(p, h, t)] = nc;
                    heap.push(std::cmp::Reverse((nc, col, row, h, t)));
                }
            }
        }
        // A step ahead.
        let q = p.step(GridFacing::ALL[f]);
        if g.in_bounds(q) && !st.board.impassable(q) && passable(q) {
            let tt = t || restricted(q);
            let nc = c + u32::from(mv.step_cost);
            if nc <= budget(tt) && nc < best[idx(q, f, tt)] {
                best[idx(q, f, tt)] = nc;
                heap.push(std::cmp::Reverse((nc, q.col, q.row, f, tt)));
            }
        }
    }
    false
}

fn unit_at(st: &State, p: CellPos) -> Option<UnitId> {
    st.at(p)
}

fn dir(a: CellPos, b: CellPos) -> Option<GridFacing> {
    GridFacing::ALL.into_iter().find(|&f| a.step(f) == b)
}

impl<'a> Umpire<'a> {
    /// An umpire for a battle that starts with `setup`'s events from `start` (the state before
    /// them is rebuilt by the caller: `start` is the state after set-up).
    pub fn new(r: &'a Othw, start: State, setup: &[Event]) -> Umpire<'a> {
        let mut u = Umpire { r, st: start, violations: Vec::new(), events: setup.len() };
        u.check_setup(setup);
        u
    }

    fn fail(&mut self, e: &Event, what: String) {
        self.violations.push(format!("{what}\n    event: {}", e.narrate().text));
    }

    fn check_setup(&mut self, setup: &[Event]) {
        for e in setup {
            if let Event::Setup { am, non_skirmishers, formula, bonus, generals, .. } = e {
                for s in Side::BOTH {
                    let i = s.index();
                    let n =
                        self.st.units.iter().filter(|x| x.side == s && !x.is_skirmisher()).count();
                    if usize::from(non_skirmishers[i]) != n {
                        self.fail(
                            e,
                            format!("{s}: {n} non-skirmishers, not {}", non_skirmishers[i]),
                        );
                    }
                    let want = (n as u32).div_ceil(u32::from(formula[0].max(1)))
                        + u32::from(formula[1])
                        + u32::from(bonus[i]);
                    if u32::from(am[i]) != want || self.st.side(s).am != am[i] {
                        self.fail(e, format!("{s}'s army morale {} is not {want}", am[i]));
                    }
                }
                for g in generals {
                    let ok =
                        self.st.side(g.side).general.as_ref().is_some_and(|x| x.unit == g.unit);
                    if !ok {
                        self.fail(e, format!("{}'s general is not with unit {}", g.side, g.unit));
                    }
                }
            }
        }
    }

    /// Reads one command's events (`cmd` by `side`).
    pub fn command(&mut self, side: Side, cmd: &Command, events: &[Event]) {
        self.events += events.len();
        if side != self.st.phasing {
            self.violations.push(format!("{side} gave a command in {}'s phase", self.st.phasing));
        }
        let mut action: Option<Action> = None;
        // The rounds of the action (a losing elephant's first rampage may fight another round
        // before the first is done with), the last one under way.
        let mut rounds: Vec<Round> = Vec::new();
        let mut in_step1 = false;
        let mut causes: Vec<MoraleCause> = Vec::new();
        let mut drops: Vec<MoraleCause> = Vec::new();
        let mut attrition: Option<(Side, u8, Vec<UnitId>)> = None;
        let mut last_test: Option<(UnitId, TestKind, bool)> = None;
        let mut last_risk_fate: Option<Side> = None;
        let general_dice = matches!(cmd, Command::Attack { general_dice: true, .. });
        let mut last_strength: Vec<(UnitId, &str)> = Vec::new();
        for (i, e) in events.iter().enumerate() {
            let mut bad: Vec<String> = Vec::new();
            // Attrition's strength losses follow their army-morale point at once.
            if let Some((s, to, want)) = attrition.take() {
                let got: Vec<UnitId> = events[i..]
                    .iter()
                    .take_while(|x| matches!(x, Event::Strength { rule, .. } if rule.as_str() == "OTHW-VIC-06"))
                    .filter_map(|x| match x {
                        Event::Strength { unit, .. } => Some(*unit),
                        _ => None,
                    })
                    .collect();
                if got != want {
                    bad.push(format!(
                        "attrition at {s}'s army morale {to} took {got:?}, not {want:?}"
                    ));
                }
            }
            let st = &self.st;
            match e {
                Event::PhaseBegan { side: s, turn, .. } => {
                    in_step1 = true;
                    action = None;
                    let (first, phasing) = (st.first, st.phasing);
                    let want_turn = if phasing == first { st.turn } else { st.turn + 1 };
                    if *s != phasing.other() || *turn != want_turn {
                        bad.push(format!(
                            "phase order: {s} turn {turn} after {phasing} turn {}",
                            st.turn
                        ));
                    }
                }
                Event::PhaseEnded { side: s, .. } => {
                    if *s != st.phasing {
                        bad.push("the wrong side's phase ended".into());
                    }
                }
                Event::Action { side: s, units, kind, exempt, .. } => {
                    in_step1 = false;
                    rounds.clear();
                    self.check_action(e, *s, units, *kind, *exempt);
                    action = Some(Action { units: units.to_vec(), kind: *kind, exempt: *exempt });
                }
                Event::PhaseEndRoll { roll, ends, ends_on } => {
                    let ok = action.as_ref().is_some_and(|a| !a.exempt) && !st.phase_over;
                    if !ok {
                        bad.push(
                            "a phase-end roll for the general's unit or after the phase ended"
                                .into(),
                        );
                    }
                    if *ends != (roll.value <= *ends_on) {
                        bad.push("the phase-end roll's effect is wrong".into());
                    }
                }
                Event::Placed { unit, from, to, facing, how, rule, also, .. } => {
                    self.check_placed(
                        e,
                        *unit,
                        *from,
                        *to,
                        *facing,
                        *how,
                        rule.as_str(),
                        *also,
                        action.as_ref(),
                        &rounds,
                        in_step1,
                        cmd,
                    );
                }
                Event::Combat { .. } => {
                    rounds.extend(self.check_combat(e, action.as_ref(), general_dice, in_step1));
                }
                Event::Reroll { unit, roll, need, hit, .. } => {
                    let x = &st.units[*unit as usize];
                    let k =
                        rounds.last().and_then(|r| [r.att, r.def].iter().position(|u| u == unit));
                    match (k, rounds.last_mut()) {
                        (Some(k), Some(r))
                            if x.has(Special::Archers)
                                && r.rerolled[k] < r.misses[k]
                                && *need == r.need[k] =>
                        {
                            r.rerolled[k] += 1;
                            if *hit != (roll.value >= *need) {
                                bad.push("a reroll's hit is miscounted".into());
                            }
                            if *hit {
                                r.hits_on[1 - k] += 1;
                            }
                        }
                        _ => bad.push("a reroll by a unit that may not reroll here".into()),
                    }
                }
                Event::Cancelled { unit, rolls, need, hits, cancelled, rule, .. } => {
                    let x = &st.units[*unit as usize];
                    let k =
                        rounds.last().and_then(|r| [r.att, r.def].iter().position(|u| u == unit));
                    let Some((k, r)) = k.zip(rounds.last_mut()) else {
                        bad.push("hits cancelled outside a combat".into());
                        continue;
                    };
                    if *hits != r.hits_on[k] || *cancelled > *hits {
                        bad.push(format!(
                            "cancelled {cancelled} of {hits}, but it took {}",
                            r.hits_on[k]
                        ));
                    }
                    match rule.as_str() {
                        "OTHW-GEN-05" => {
                            let ok = rolls.iter().filter(|d| d.value >= *need).count() as u8;
                            if !st.has_general(*unit)
                                || *cancelled != ok.min(*hits)
                                || *need != self.r.data.rules.general.rally_hit
                            {
                                bad.push("a rally that is not the rules'".into());
                            }
                        }
                        "OTHW-TRT-04" => {
                            if !x.has(Special::Phalanx)
                                || r.sp[k] != x.s
                                || *need != x.l
                                || rolls.last().is_none_or(|d| d.value < x.l)
                            {
                                bad.push("a Phalanx cancel that is not the rules'".into());
                            }
                        }
                        other => bad.push(format!("hits cancelled under {other}")),
                    }
                    r.hits_on[k] = r.hits_on[k].saturating_sub(*cancelled);
                }
                Event::Strength { unit, from, to, rule, .. } => {
                    last_strength.push((*unit, rule.as_str()));
                    let x = &st.units[*unit as usize];
                    if *from != x.sp || *to > x.s {
                        bad.push(format!(
                            "strength {from} → {to} of a unit at {} of {}",
                            x.sp, x.s
                        ));
                    }
                    match rule.as_str() {
                        "OTHW-CMB-09" => match rounds.last_mut().and_then(|r| {
                            [r.att, r.def].iter().position(|u| u == unit).map(|k| (k, r))
                        }) {
                            Some((k, r)) => {
                                r.lost[k] += from - to.min(from);
                                if *to > *from {
                                    bad.push("hits raised a unit's strength".into());
                                }
                            }
                            None => bad.push("hits outside a combat".into()),
                        },
                        "OTHW-CMB-12" => {
                            if *from != 0 || *to != self.r.data.rules.combat.both_broken_keep {
                                bad.push("both-broken keep not from 0".into());
                            }
                        }
                        "OTHW-CMB-16" | "OTHW-CMB-21" | "OTHW-VIC-06" => {
                            if *to > *from {
                                bad.push("a loss that raises strength".into());
                            }
                        }
                        other => bad.push(format!("strength changed under {other}")),
                    }
                }
                Event::Result { attacker_hits, defender_hits, winner, loser, .. } => {
                    let Some(r) = rounds.last_mut() else {
                        bad.push("a result without a combat".into());
                        continue;
                    };
                    if [*attacker_hits, *defender_hits] != r.hits_on {
                        bad.push(format!(
                            "result hits {attacker_hits}/{defender_hits}, counted {:?}",
                            r.hits_on
                        ));
                    }
                    let expected_lost = [r.sp[0].min(r.hits_on[0]), r.sp[1].min(r.hits_on[1])];
                    if r.lost != expected_lost {
                        bad.push(format!(
                            "strength lost {:?} is not the hits {:?}",
                            r.lost, expected_lost
                        ));
                    }
                    let want = match attacker_hits.cmp(defender_hits) {
                        std::cmp::Ordering::Less => (Some(r.att), Some(r.def)),
                        std::cmp::Ordering::Greater => (Some(r.def), Some(r.att)),
                        std::cmp::Ordering::Equal => (None, None),
                    };
                    if (*winner, *loser) != want {
                        bad.push("the winner is not the side that took fewer hits".into());
                    }
                    r.winner = *winner;
                    r.loser = *loser;
                    if let (Some(w), Some(l)) = (winner, loser) {
                        let (pw, pl) = (st.units[*w as usize].pos, st.units[*l as usize].pos);
                        r.loser_square = Some(pl);
                        r.away = dir(pw, pl);
                    }
                }
                Event::Test { unit, kind, roll, need, passed, reroll, .. } => {
                    let x = &st.units[*unit as usize];
                    if *need != x.l || *passed != (roll.value >= *need) {
                        bad.push("a leadership test against the wrong score".into());
                    }
                    if *reroll {
                        let ok = matches!(last_test, Some((u, k, false)) if u == *unit && k == *kind)
                            && st.has_general(*unit)
                            && st.side(x.side).orders.reroll;
                        if !ok {
                            bad.push("a general's reroll without his unit's failed test".into());
                        }
                    }
                    let kind_ok = match kind {
                        TestKind::Retreat => rounds.iter().any(|r| r.loser == Some(*unit)),
                        TestKind::FollowUp => rounds.iter().any(|r| r.winner == Some(*unit)),
                        TestKind::FurtherMove => action.as_ref().is_some_and(|a| {
                            a.kind == ActionKind::FurtherMove && a.units == [*unit]
                        }),
                        TestKind::Pursuit => in_step1 && x.pursuing.is_some(),
                        TestKind::Phalanx => x.has(Special::Phalanx) && !rounds.is_empty(),
                    };
                    if !kind_ok {
                        bad.push(format!("a {kind:?} test where none is due"));
                    }
                    last_test = Some((*unit, *kind, *passed));
                }
                Event::Risk { side: s, roll, fate_on, fate, ignored, .. } => {
                    let g = st.side(*s).general.as_ref();
                    if g.is_none() {
                        bad.push("a Risk test without a general".into());
                    }
                    if *fate_on != self.r.data.rules.general.risk_fate_at_most
                        || (*fate || *ignored) != (roll.value <= *fate_on)
                        || (*ignored && g.is_some_and(|g| g.ignore_attack_risk == 0))
                    {
                        bad.push("a Risk test read wrongly".into());
                    }
                    last_risk_fate = fate.then_some(*s);
                }
                Event::Fate { side: s, roll, modifier, total: t, result, .. } => {
                    let g = st.side(*s).general.as_ref();
                    let want = (roll.value as i8).saturating_add(g.map_or(0, |g| g.fate_modifier));
                    if last_risk_fate != Some(*s) || *t != want || *modifier != t - roll.value as i8
                    {
                        bad.push("a Fate roll without its Risk test, or a wrong total".into());
                    }
                    if *result != self.r.data.rules.general.fate(*t) {
                        bad.push("the Fate table read wrongly".into());
                    }
                    if *result == FateResult::Removed {
                        causes.push(MoraleCause::General);
                    }
                    last_risk_fate = None;
                }
                Event::GeneralLost { side: s, .. } => {
                    let g = st.side(*s).general.as_ref();
                    let unit_out = g.is_some_and(|g| {
                        matches!(st.units[g.unit as usize].status, Status::Fleeing | Status::Gone)
                    });
                    if g.is_none_or(|g| g.lost) || !unit_out {
                        bad.push("a general lost without his unit breaking or leaving".into());
                    }
                    causes.push(MoraleCause::General);
                }
                Event::Status { unit, status, gone, rule, also, .. } => {
                    let x = &st.units[*unit as usize];
                    match (status, gone) {
                        (Status::Fleeing, _) => {
                            if x.sp != 0 || x.status != Status::Ready {
                                bad.push(format!(
                                    "{} breaks at {} SP, {:?}",
                                    x.name, x.sp, x.status
                                ));
                            }
                            if rule.as_str() == "OTHW-FLT-01" {
                                if x.is_skirmisher() != also.has(Cites::SKIRMISHER) {
                                    bad.push(
                                        "a skirmisher's break cites STAT-07, and only it".into(),
                                    );
                                }
                                if !x.is_skirmisher() {
                                    causes.push(MoraleCause::Broke(*unit));
                                }
                            }
                        }
                        (Status::Rampaging, _) => {
                            let lost = rounds.iter().any(|r| r.loser == Some(*unit));
                            if !x.has(Special::Rampage) || !lost {
                                bad.push("a rampage by a unit that did not lose or cannot".into());
                            }
                        }
                        (Status::Gone, Some(how)) => match how {
                            GoneHow::FledOff => {
                                if x.status != Status::Fleeing {
                                    bad.push("fled off without fleeing".into());
                                }
                            }
                            GoneHow::Slaughtered => {
                                if x.status != Status::Fleeing {
                                    bad.push("a unit not fleeing slaughtered".into());
                                }
                                causes.push(MoraleCause::Slaughtered(*unit));
                            }
                            GoneHow::PushedOff => {
                                let loser = rounds.iter().any(|r| r.loser == Some(*unit));
                                if !loser {
                                    bad.push("pushed off without losing".into());
                                }
                                if !x.is_skirmisher() {
                                    causes.push(MoraleCause::PushedOff(*unit));
                                }
                            }
                            GoneHow::Destroyed => {
                                if x.status != Status::Rampaging {
                                    bad.push("destroyed without rampaging".into());
                                }
                                let by_attrition = last_strength
                                    .iter()
                                    .rev()
                                    .find(|(v, _)| v == unit)
                                    .is_some_and(|(_, r)| *r == "OTHW-VIC-06");
                                if rule.as_str() == "OTHW-CMB-19" || !by_attrition {
                                    causes.push(MoraleCause::Destroyed(*unit));
                                }
                            }
                        },
                        _ => bad.push("a status change the rules do not make".into()),
                    }
                }
                Event::Pursuit { unit, target, .. } => {
                    let x = &st.units[*unit as usize];
                    if let Some(t) = target {
                        let ok =
                            rounds.iter().any(|r| r.winner == Some(*unit) && r.loser == Some(*t))
                                && st.units[*t as usize].status == Status::Fleeing
                                && x.status == Status::Ready;
                        if !ok {
                            bad.push("pursuit by a unit that did not break its target".into());
                        }
                    } else if x.pursuing.is_none() {
                        bad.push("a pursuit ended that had not begun".into());
                    }
                }
                Event::Morale { side: s, from, to, cause, rule, .. } => {
                    if *from != st.side(*s).am || *to + 1 != *from {
                        bad.push(format!("army morale {from} → {to} from {}", st.side(*s).am));
                    }
                    let want = match cause {
                        MoraleCause::Broke(_)
                        | MoraleCause::PushedOff(_)
                        | MoraleCause::Destroyed(_) => "OTHW-VIC-03",
                        MoraleCause::Slaughtered(_) => "OTHW-VIC-04",
                        MoraleCause::General => "OTHW-VIC-05",
                    };
                    if rule.as_str() != want {
                        bad.push(format!("{cause:?} cites {rule}, not {want}"));
                    }
                    drops.push(*cause);
                    if *to <= self.r.data.morale.attrition_from {
                        let want: Vec<UnitId> = st
                            .units
                            .iter()
                            .filter(|x| {
                                x.side == *s
                                    && matches!(x.status, Status::Ready | Status::Rampaging)
                                    && x.sp > 0
                                    && x.l >= *to
                            })
                            .map(|x| x.id)
                            .collect();
                        attrition = Some((*s, *to, want));
                    }
                }
                Event::Rampage { unit, roll, table, first, turn, .. } => {
                    let x = &st.units[*unit as usize];
                    let want_table = if *first {
                        self.r.data.rules.rampage.first
                    } else {
                        self.r.data.rules.rampage.later
                    };
                    if *table != want_table
                        || *turn != table[usize::from(roll.value.clamp(1, 6) - 1)]
                    {
                        bad.push("the rampage table read wrongly".into());
                    }
                    let ok = if *first {
                        rounds.iter().any(|r| r.loser == Some(*unit)) && x.has(Special::Rampage)
                    } else {
                        in_step1 && x.status == Status::Rampaging && x.side == st.phasing
                    };
                    if !ok || (*first && *turn == RampageTurn::Ahead) {
                        bad.push("a rampage roll where none is due".into());
                    }
                }
                Event::Mahouts { unit, rolls, need, hits, .. } => {
                    let x = &st.units[*unit as usize];
                    let mine = action
                        .as_ref()
                        .is_some_and(|a| a.kind == ActionKind::Mahouts && a.units == [*unit]);
                    let counted = rolls.iter().filter(|d| d.value >= *need).count() as u8;
                    if !mine || rolls.len() != usize::from(x.a) || *need != x.d || counted != *hits
                    {
                        bad.push("the mahouts' attack is not its own A against its own D".into());
                    }
                }
                Event::Flags { unit, flags: f, .. } => {
                    if f & flags::DONE == 0 || !in_step1 {
                        bad.push(format!("flags of unit {unit} set outside a pursuit's end"));
                    }
                }
                Event::GameOver { outcome, .. } => self.check_over(e, outcome),
                Event::Setup { .. } => bad.push("a second set-up".into()),
                Event::PhaseOver { .. } | Event::Orders { .. } => {}
            }
            for b in bad {
                self.fail(e, b);
            }
            apply(&mut self.st, e);
        }
        // Every point lost has its cause, and every cause its point (while morale lasts).
        let mut left = drops.clone();
        for c in &causes {
            if let Some(i) = left.iter().position(|d| d == c) {
                left.remove(i);
            } else {
                let side = match c {
                    MoraleCause::Broke(u)
                    | MoraleCause::PushedOff(u)
                    | MoraleCause::Destroyed(u)
                    | MoraleCause::Slaughtered(u) => Some(self.st.units[*u as usize].side),
                    MoraleCause::General => None,
                };
                let spent = side.is_none_or(|s| self.st.side(s).am == 0);
                if !spent {
                    self.violations.push(format!("{c:?} cost no army morale in this command"));
                }
            }
        }
        for d in left {
            self.violations.push(format!("army morale lost for {d:?}, which did not happen"));
        }
        // Nobody left in the fight at 0.
        for x in &self.st.units {
            if matches!(x.status, Status::Ready | Status::Rampaging) && x.sp == 0 {
                self.violations.push(format!("{} is in the fight at 0 strength", x.name));
            }
            if x.status == Status::Fleeing && x.sp != 0 {
                self.violations.push(format!("{} flees with {} strength", x.name, x.sp));
            }
        }
    }

    fn check_action(
        &mut self,
        e: &Event,
        s: Side,
        units: &[UnitId],
        kind: ActionKind,
        exempt: bool,
    ) {
        let st = &self.st;
        let mut problems = Vec::new();
        if s != st.phasing {
            problems.push(format!("{s} acts in {}'s phase", st.phasing));
        }
        let with_general = units.iter().any(|&u| st.has_general(u));
        if exempt != with_general {
            problems.push(
                "exempt from the phase-end roll without the general's unit, or not when with it"
                    .into(),
            );
        }
        if st.phase_over && !with_general {
            problems.push("a unit other than the general's acts after the phase ended".into());
        }
        for &u in units {
            let x = &st.units[u as usize];
            let status_ok = match kind {
                ActionKind::Mahouts => x.status == Status::Rampaging && !st.phase_over,
                _ => x.status == Status::Ready && x.pursuing.is_none() && !x.flag(flags::DONE),
            };
            if x.side != s || !status_ok {
                problems.push(format!(
                    "{} may not be activated ({:?}, pursuing {:?})",
                    x.name, x.status, x.pursuing
                ));
            }
            let f = x.flags;
            let flags_ok = match kind {
                ActionKind::Move => f & (flags::MOVED | flags::FOUGHT) == 0,
                ActionKind::FurtherMove => {
                    f & flags::MOVED != 0 && f & (flags::FURTHER | flags::FOUGHT) == 0
                }
                ActionKind::GroupMove => {
                    f & (flags::MOVED | flags::FOUGHT | flags::GROUP_MOVED) == 0
                }
                ActionKind::Combat | ActionKind::Charge => f & (flags::MOVED | flags::FOUGHT) == 0,
                ActionKind::Mahouts => f & flags::FOUGHT == 0,
            };
            if !flags_ok {
                problems
                    .push(format!("{} has already acted so ({f:#b}) and may not {kind:?}", x.name));
            }
        }
        if kind == ActionKind::GroupMove && units.len() < 2 {
            problems.push("a group of one".into());
        }
        for p in problems {
            self.fail(e, p);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn check_placed(
        &mut self,
        e: &Event,
        u: UnitId,
        from: CellPos,
        to: CellPos,
        facing: GridFacing,
        how: Placement,
        rule: &str,
        also: Cites,
        action: Option<&Action>,
        rounds: &[Round],
        in_step1: bool,
        cmd: &Command,
    ) {
        let st = &self.st;
        let r = self.r;
        let x = &st.units[u as usize];
        let mut problems: Vec<String> = Vec::new();
        if from != x.pos {
            problems.push(format!("placed from {from:?} but stands on {:?}", x.pos));
        }
        if !st.board.grid.in_bounds(to) || st.board.impassable(to) {
            problems.push(format!("placed off the board or in the river at {to:?}"));
        }
        let group = action.filter(|a| a.kind == ActionKind::GroupMove);
        if unit_at(st, to).is_some_and(|v| v != u && !group.is_some_and(|a| a.units.contains(&v))) {
            problems.push(format!("placed on an occupied square {to:?}"));
        }
        if also.has(Cites::STEP1) != in_step1 {
            problems.push("cites step 1 outside it, or not inside it".into());
        }
        let mine = action.is_some_and(|a| a.units.contains(&u));
        let steps = from.manhattan(to) as u8;
        let straight =
            |f: GridFacing| (0..=steps).any(|k| (0..k).fold(from, |p, _| p.step(f)) == to);
        match how {
            Placement::Move | Placement::Face => {
                let kind = action.map(|a| a.kind);
                if !mine || x.status != Status::Ready {
                    problems.push("a move by a unit not activated".into());
                }
                match (kind, cmd) {
                    (
                        Some(ActionKind::GroupMove),
                        Command::GroupMove { facing: gf, steps: gs, .. },
                    ) => {
                        let turn = if x.facing == *gf || x.has(Special::FreeFacing) {
                            0
                        } else {
                            r.data.rules.movement.turn_cost
                        };
                        let cost = u16::from(turn)
                            + u16::from(*gs) * u16::from(r.data.rules.movement.step_cost);
                        if facing != *gf || steps != *gs || !straight(*gf) || cost > u16::from(x.m)
                        {
                            problems.push("a group member out of step or beyond its points".into());
                        }
                    }
                    (Some(ActionKind::Move | ActionKind::FurtherMove), _) => {
                        if !move_ok(r, st, u, to, facing, None) {
                            problems.push(format!("a move beyond {}'s points and ground", x.name));
                        }
                    }
                    (Some(ActionKind::Charge | ActionKind::Combat), Command::Attack { .. }) => {
                        let target = to.step(facing);
                        let standing_turn =
                            from == to && (x.facing == facing || x.has(Special::FreeFacing));
                        if how == Placement::Face
                            && !standing_turn
                            && !move_ok(r, st, u, to, facing, Some(target))
                        {
                            problems.push("a turn to fight that the unit cannot pay for".into());
                        }
                        if how == Placement::Move && !move_ok(r, st, u, to, facing, Some(target)) {
                            problems
                                .push(format!("a charge beyond {}'s points and ground", x.name));
                        }
                    }
                    _ => problems.push("a move outside a move action".into()),
                }
                // The rules cited: each only where it applied.
                let restricted = |p: CellPos| {
                    matches!(st.board.terrain(p), CellTerrain::Wood | CellTerrain::Ford)
                };
                let touched = restricted(from) || restricted(to);
                if also.has(Cites::RESTRICTED)
                    && (!touched || x.has(Special::LooseOrder) || x.is_skirmisher())
                {
                    problems.push("cites the woods and ford limit where it does not apply".into());
                }
                if also.has(Cites::LOOSE_ORDER) && (!touched || !x.has(Special::LooseOrder)) {
                    problems.push("cites loose order's exemption where it does not apply".into());
                }
                if also.has(Cites::FREE_TURN) && !x.has(Special::FreeFacing) {
                    problems.push("cites free turns for a unit without them".into());
                }
                if also.has(Cites::FORWARD) && from == to {
                    problems.push("cites forward steps for a turn on the spot".into());
                }
                if also.has(Cites::THROUGH) {
                    let f = [x.facing, facing].into_iter().find(|&f| straight(f));
                    let passed = f.is_some_and(|f| {
                        let mut p = from.step(f);
                        let mut any = false;
                        while p != to && st.board.grid.in_bounds(p) {
                            any |= st.at(p).is_some_and(|v| st.units[v as usize].side == x.side);
                            p = p.step(f);
                        }
                        any
                    });
                    if !passed {
                        problems.push("cites passing through friends where it did not".into());
                    }
                }
            }
            Placement::Retreat => {
                let ok = rounds.iter().any(|rd| {
                    rd.loser == Some(u)
                        && match rd.away {
                            Some(away) => {
                                (from == to && facing == away)
                                    || (to == from.step(away) && facing == x.facing)
                            }
                            None => false,
                        }
                });
                if !ok {
                    problems.push(
                        "a retreat that is not one square away from the winner or a turn away"
                            .into(),
                    );
                }
            }
            Placement::FollowUp => {
                let ok =
                    rounds.iter().any(|rd| rd.winner == Some(u) && rd.loser_square == Some(to))
                        && facing == x.facing
                        && steps == 1
                        && x.status == Status::Ready;
                if !ok {
                    problems.push("a follow-up not into the loser's square".into());
                }
            }
            Placement::Flight => {
                let edge = st.side(x.side).edge.facing();
                let restricted = |p: CellPos| {
                    matches!(st.board.terrain(p), CellTerrain::Wood | CellTerrain::Ford)
                };
                let budget = if !x.ignores_restricted() && restricted(from) {
                    r.data.rules.movement.restricted_points
                } else {
                    x.m
                };
                let ok = x.status == Status::Fleeing
                    && facing == edge
                    && to.col == from.col
                    && straight(edge)
                    && steps <= budget
                    && (x.side == st.phasing);
                if !ok {
                    problems
                        .push(format!("a flight not straight for the own edge within M ({rule})"));
                }
            }
            Placement::Pursuit => {
                let ok = x.status == Status::Ready
                    && x.pursuing.is_some()
                    && in_step1
                    && steps <= x.m
                    && x.side == st.phasing;
                if !ok {
                    problems.push("a pursuit move beyond M or by a unit not pursuing".into());
                }
            }
            Placement::Rampage => {
                let ok = x.status == Status::Rampaging && steps <= x.m && straight(facing);
                if !ok {
                    problems.push("a rampage not straight ahead within M".into());
                }
            }
        }
        for p in problems {
            self.fail(e, p);
        }
    }

    /// A combat: its fighters, aspect, dice and parts. Returns the round for what follows.
    fn check_combat(
        &mut self,
        e: &Event,
        action: Option<&Action>,
        general_dice: bool,
        in_step1: bool,
    ) -> Option<Round> {
        let Event::Combat {
            attacker,
            defender,
            aspect: asp,
            attacker_rolls,
            attacker_need,
            defender_rolls,
            defender_need,
            parts,
            also,
            ..
        } = e
        else {
            return None;
        };
        let st = &self.st;
        let r = self.r;
        let (a, d) = (&st.units[*attacker as usize], &st.units[*defender as usize]);
        let mut problems: Vec<String> = Vec::new();
        let activated = action.is_some_and(|x| {
            matches!(x.kind, ActionKind::Combat | ActionKind::Charge) && x.units == [*attacker]
        });
        if !(activated || a.status == Status::Rampaging)
            || (in_step1 && a.status != Status::Rampaging)
        {
            problems.push(format!("{} attacks without being activated or rampaging", a.name));
        }
        if a.pos.step(a.facing) != d.pos {
            problems.push(format!("{} attacks {} outside its front square", a.name, d.name));
        }
        if d.status == Status::Fleeing || !d.on_board() {
            problems.push("a combat against a fugitive (it is slaughtered without dice)".into());
        }
        if *asp != aspect(d.facing, a.facing.reversed()) {
            problems.push("the aspect is wrong".into());
        }
        let back = *asp == Aspect::Front;
        if !back && !defender_rolls.is_empty() {
            problems.push("strikes back when not facing its attacker".into());
        }
        if also.has(Cites::PURSUER) != (back && d.pursuing.is_some()) {
            problems.push("cites a pursuer fighting back wrongly".into());
        }
        // Each side's numbers are its parts folded in order, and each part's condition holds.
        for (role, me, foe, rolls, need) in [
            (Role::Attacker, a, d, attacker_rolls, *attacker_need),
            (Role::Defender, d, a, defender_rolls, *defender_need),
        ] {
            let mine: Vec<_> = parts.iter().filter(|p| p.role == role).collect();
            if role == Role::Defender && !back {
                if !mine.is_empty() {
                    problems.push("parts listed for a defender that does not roll".into());
                }
                continue;
            }
            let dice = total(mine.iter().map(|p| p.modifier()), Term::Dice);
            let n = total(mine.iter().map(|p| p.modifier()), Term::Need);
            if usize::from(dice) != rolls.len() || n != need {
                problems.push(format!(
                    "{:?}: {} dice needing {need}+, but its parts make {dice} needing {n}+",
                    role,
                    rolls.len()
                ));
            }
            let my_t = st.board.terrain(me.pos);
            let foe_t = st.board.terrain(foe.pos);
            let t = &r.data.traits;
            let my_aspect = if role == Role::Attacker { *asp } else { Aspect::Front };
            for p in &mine {
                let holds = match p.factor {
                    Factor::Roster => p.value == me.a,
                    Factor::Defence => p.value == foe.d,
                    Factor::Hoplites | Factor::HoplitesDefence => {
                        me.has(Special::Hoplites) && foe.has(Special::Hoplites)
                    }
                    Factor::Archers => {
                        me.has(Special::Archers)
                            && (foe.is_skirmisher() || foe.class == Class::LightCavalry)
                            && p.value == t.archers.attack
                    }
                    Factor::VsSkirmishers => {
                        me.has(Special::VsSkirmishersA3) && foe.is_skirmisher()
                    }
                    Factor::ThrowingSpears => me.has(Special::ThrowingSpears) && me.sp == me.s,
                    Factor::Forest => {
                        (my_t == CellTerrain::Wood || foe_t == CellTerrain::Wood)
                            && !me.has(Special::LooseOrder)
                    }
                    Factor::LooseOrderForest => {
                        (my_t == CellTerrain::Wood || foe_t == CellTerrain::Wood)
                            && me.has(Special::LooseOrder)
                    }
                    Factor::Ford => foe_t == CellTerrain::Ford && !foe.has(Special::LooseOrder),
                    Factor::FordDenied => {
                        foe_t == CellTerrain::Ford && foe.has(Special::LooseOrder)
                    }
                    Factor::Downhill => my_t == CellTerrain::Hill && foe_t != CellTerrain::Hill,
                    Factor::General => {
                        role == Role::Attacker
                            && general_dice
                            && st.has_general(me.id)
                            && st.active_general(me.side).is_some_and(|g| g.attack == p.value)
                    }
                    Factor::IndianVsAfrican => {
                        me.class == Class::Elephant
                            && me.has(Special::Indian)
                            && foe.has(Special::African)
                    }
                    Factor::ElephantDrill => {
                        me.class == Class::Elephant
                            && foe.has(Special::ElephantDrill)
                            && foe.class != Class::Elephant
                    }
                    Factor::HitAllOn5 => {
                        me.class == Class::Elephant
                            && me.has(Special::HitAllOn5)
                            && foe.class != Class::Elephant
                    }
                    Factor::SkirmisherVsElephant => {
                        me.is_skirmisher() && foe.class == Class::Elephant
                    }
                    Factor::PhalanxFlank => my_aspect == Aspect::Flank && foe.has(Special::Phalanx),
                    Factor::Rear => my_aspect == Aspect::Rear,
                    Factor::NeverHits => true,
                };
                if !holds {
                    problems.push(format!(
                        "{role:?}'s {:?} is listed where it does not apply",
                        p.factor
                    ));
                }
            }
            // What must be there is there.
            let has = |f: Factor| mine.iter().any(|p| p.factor == f);
            if my_aspect == Aspect::Rear && !has(Factor::Rear) {
                problems.push("a rear attack without its 3+".into());
            }
            if (my_t == CellTerrain::Wood || foe_t == CellTerrain::Wood)
                && !(has(Factor::Forest) || has(Factor::LooseOrderForest))
            {
                problems.push("a fight in woods without the forest dice".into());
            }
            if me.has(Special::ThrowingSpears) && me.sp == me.s && !has(Factor::ThrowingSpears) {
                problems.push("throwing spears at full strength not counted".into());
            }
        }
        let sp = [a.sp, d.sp];
        for p in problems {
            self.fail(e, p);
        }
        let hits = |rs: &[tabletop::dice::Roll], need: u8| {
            rs.iter().filter(|x| x.value >= need).count() as u8
        };
        let misses = |rs: &[tabletop::dice::Roll], need: u8| {
            rs.iter().filter(|x| x.value < need).count() as u8
        };
        let rerolls = r.data.traits.archers.rerolls;
        Some(Round {
            att: *attacker,
            def: *defender,
            sp,
            need: [*attacker_need, *defender_need],
            hits_on: [hits(defender_rolls, *defender_need), hits(attacker_rolls, *attacker_need)],
            misses: [
                misses(attacker_rolls, *attacker_need).min(rerolls),
                misses(defender_rolls, *defender_need).min(rerolls),
            ],
            rerolled: [0, 0],
            lost: [0, 0],
            winner: None,
            loser: None,
            loser_square: None,
            away: None,
        })
    }

    fn check_over(&mut self, e: &Event, outcome: &tabletop::rules::Outcome) {
        let st = &self.st;
        let broken = |s: Side| {
            st.side(s).am == 0 || !st.units.iter().any(|x| x.side == s && x.status == Status::Ready)
        };
        let (red, blue) = (broken(Side::Red), broken(Side::Blue));
        let last = st.turn >= st.turns && st.phasing != st.first;
        let ok = match (red, blue) {
            (true, true) => outcome.winner.is_none(),
            (true, false) => outcome.winner == Some(Side::Blue),
            (false, true) => outcome.winner == Some(Side::Red),
            (false, false) => {
                let lost = |s: Side| st.side(s).am_start - st.side(s).am;
                let want = match lost(Side::Red).cmp(&lost(Side::Blue)) {
                    std::cmp::Ordering::Less => Some(Side::Red),
                    std::cmp::Ordering::Greater => Some(Side::Blue),
                    std::cmp::Ordering::Equal => None,
                };
                last && outcome.winner == want
            }
        };
        if !ok {
            self.fail(e, "the battle ends wrongly".into());
        }
    }
}

/// What the umpire found over some battles.
#[derive(Debug, Default)]
pub struct Verdict {
    /// Battles read.
    pub battles: usize,
    /// Commands read.
    pub commands: usize,
    /// Events read.
    pub events: usize,
    /// Violations, each with its battle.
    pub violations: Vec<String>,
}

/// How a side chooses in the umpire's battles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The scripted player.
    Scripted,
    /// A uniform pick among the legal commands.
    Random,
}

/// A battle as played: the state after set-up, the set-up's events, each command with its
/// side and events, and the state at the end.
pub struct Battle {
    /// The state after set-up.
    pub start: State,
    /// The set-up's events.
    pub setup: Vec<Event>,
    /// Each command with its side and events.
    pub commands: Vec<(Side, Command, Vec<Event>)>,
    /// The state at the end.
    pub end: State,
}

/// Plays battle `seed` of `scenario` between `players` (red, blue).
pub fn play(r: &Othw, scenario: &othw::Scenario, seed: u64, players: [Player; 2]) -> Battle {
    use tabletop::dice::SeededDice;
    use tabletop::rules::{Actor, RuleSet};
    let mut dice = SeededDice::new(seed);
    let mut pick = SeededDice::new(seed ^ 0x0bad_5eed);
    let (mut st, setup) = r.setup(scenario, &mut dice);
    let start = st.clone();
    let mut bots = [othw::bot::Scripted::new(), othw::bot::Scripted::new()];
    let mut commands = Vec::new();
    while st.outcome.is_none() && commands.len() < 5_000 {
        let side = st.phasing;
        let c = match players[side.index()] {
            Player::Scripted => bots[side.index()].best(r, &st, side).expect("a command").0,
            Player::Random => {
                let legal = r.legal(&st, side);
                legal[pick.below(legal.len() as u32) as usize].clone()
            }
        };
        let ev = r.execute(&st, Actor::Side(side), &c, &mut dice).expect("a legal command runs");
        for e in &ev {
            r.apply(&mut st, e);
        }
        commands.push((side, c, ev));
    }
    Battle { start, setup, commands, end: st }
}

/// The umpire's violations in a battle (its events as given: a test may have changed them).
pub fn read(r: &Othw, b: &Battle) -> (Vec<String>, usize) {
    let mut umpire = Umpire::new(r, b.start.clone(), &b.setup);
    for (side, c, ev) in &b.commands {
        umpire.command(*side, c, ev);
    }
    if b.end.outcome.is_none() {
        umpire.violations.push("the battle did not end".into());
    }
    if umpire.st != b.end {
        umpire.violations.push("the umpire's state differs from the game's".into());
    }
    (umpire.violations, umpire.events)
}

/// Plays battle `seed` of `scenario` between `players` and has the umpire read it.
pub fn umpire_battle(
    r: &Othw,
    name: &str,
    scenario: &othw::Scenario,
    seed: u64,
    players: [Player; 2],
    verdict: &mut Verdict,
) {
    let b = play(r, scenario, seed, players);
    let (violations, events) = read(r, &b);
    verdict.battles += 1;
    verdict.commands += b.commands.len();
    verdict.events += events;
    for v in violations {
        verdict.violations.push(format!("{name} seed {seed} {players:?}: {v}"));
    }
}
