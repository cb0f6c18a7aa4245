//! The umpire: reads every event of a battle, in order, from its structured fields (never the
//! text), replays it on a state of its own and checks the chapter's invariants. Each broken
//! invariant is a [`Violation`] naming the event.
//!
//! What it checks:
//! - **Turns**: phases alternate, the first side first in every turn; only the side in its
//!   phase acts (its commands and its units' moves); engine moves (regrouping, flight) come at
//!   the start of the phase of the unit's side.
//! - **One move per phase** per unit (a regrouped unit may then only form up, MOV-REG-10); an
//!   exhausted unit does not move in its barred turn except in flight (MOV-FM-07); separated
//!   and driven-off units are moved only by the engine.
//! - **Allowances** (MOV-GEN-02, MOV-GEN-08, MOV-GEN-10, MOV-FORM-04, MOV-FM-02, MOV-FM-04,
//!   MOV-LIMB-03, MOV-REG-10): the basis's rate is the slowest stand's T1 rate (or the
//!   creature's, or the piece's), times exactly the factors the move calls for; the cost never
//!   exceeds the allowance (plus the 0.01" tolerance for players' moves).
//! - **Totals equal their parts**: the items sum to each leg's cost and to the move's; every
//!   cost by distance is its inches times its factors; every factor is the data's value for
//!   the ground, uphill, the direction (recomputed from the leg's displacement and facing,
//!   MOV-DIR-04) and the wheel; facing changes cost T2 (MOV-FACE-02); wheels measure W·θ on
//!   the outside (MOV-WHEEL-04) about a front corner that stays put; formation changes measure
//!   a stand's travel (MOV-FORM-12); the allowance left is what is lost (MOV-GEN-04).
//! - **Other units**: no stand's path enters an enemy's footprint (MOV-THRU-01); voluntary
//!   moves never cross friends (MOV-THRU-02); no move ends overlapping (MOV-THRU-04); charges
//!   end in contact from out of it, forced marches neither start nor end in it (MOV-FM-03), a
//!   move from contact has a battle command (MOV-GEN-06).
//! - **Forced marches**: a passed discipline check against T6 comes first (a failed one gives
//!   no attrition and no exhaustion); attrition is T4 for every stand; the exhaustion roll is
//!   against T5 for the unit's morale and bars the next turn; shaken, Broken and circled units
//!   never march (MOV-FM-09).
//! - **Limbering**: no shot in the turn of a change or twice in a turn, no change after a shot,
//!   only limbered pieces move (MOV-LIMB-01..03).
//! - **Morale**: totals are the die plus the listed modifiers, against the data's target; the
//!   depth bonus is what the contact geometry gives (MOV-DEPTH); under melee checks every unit
//!   in contact tests at the end of each phase, and a failure costs one state and drives a
//!   shaken or Broken unit off.
//! - **The IDs cited match what happened**: every rule a move must cite for what it did is
//!   cited, and nothing it did not do.

#![allow(dead_code)]

use movement::Movement;
use movement::data::AttritionFloor;
use movement::layout::{Pose, layout, outline};
use movement::model::{Formation, Melee, MoraleState};
use movement::state::{Command, CostItem, Event, LegKind, MoveKind, State, Unit};
use std::collections::BTreeSet;
use tabletop::game::Game;
use tabletop::geometry::{Facing, Rect, Vec2};
use tabletop::rules::RuleSet;
use tabletop::rules::{Actor, Side};

/// One broken invariant.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// The event's index in the game's events.
    pub event: usize,
    /// What is wrong.
    pub what: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "event {}: {}", self.event, self.what)
    }
}

/// What the umpire saw of a battle.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Events read.
    pub events: usize,
    /// Moves checked.
    pub moves: usize,
    /// Checks of every kind made.
    pub checks: usize,
}

const EPS: f64 = 1e-6;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

/// The umpire of one battle.
pub struct Umpire<'a> {
    rules: &'a Movement,
    state: State,
    out: Vec<Violation>,
    tally: Tally,
    index: usize,
    /// The actor of the command the events being read came from (none: set-up).
    actor: Option<Actor>,
    /// That command.
    command: Option<Command>,
    /// Within the command: the last discipline check (unit, passed).
    discipline: Option<(usize, bool)>,
    /// Within the command: units that force-marched, and that lost EP to it.
    marched: Vec<usize>,
    attrited: Vec<usize>,
    /// Within the command: failed melee checks and passed rally checks, by unit.
    failed_melee: Vec<usize>,
    rallied_check: Vec<usize>,
    /// Units engaged in melee when an end-of-phase command began, and those that tested.
    engaged: Option<Vec<usize>>,
    tested: Vec<usize>,
    /// Whether a voluntary command has been given in the current phase.
    voluntary_this_phase: bool,
    /// The move being read is a flight.
    fleeing: bool,
}

impl<'a> Umpire<'a> {
    /// An umpire starting from a game's initial state (before its set-up events).
    pub fn new(rules: &'a Movement, initial: State) -> Umpire<'a> {
        Umpire {
            rules,
            state: initial,
            out: Vec::new(),
            tally: Tally::default(),
            index: 0,
            actor: None,
            command: None,
            discipline: None,
            marched: Vec::new(),
            attrited: Vec::new(),
            failed_melee: Vec::new(),
            rallied_check: Vec::new(),
            engaged: None,
            tested: Vec::new(),
            voluntary_this_phase: false,
            fleeing: false,
        }
    }

    fn fail(&mut self, what: impl Into<String>) {
        self.out.push(Violation { event: self.index, what: what.into() });
    }

    fn expect(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.tally.checks += 1;
        if !ok {
            let w = what();
            self.fail(w);
        }
    }

    /// Starts reading the events of a command given by `actor`.
    pub fn command(&mut self, actor: Actor, command: Command) {
        self.actor = Some(actor);
        self.discipline = None;
        self.marched.clear();
        self.attrited.clear();
        self.failed_melee.clear();
        self.rallied_check.clear();
        self.tested.clear();
        // Only the side in its phase acts.
        if let Actor::Side(s) = actor {
            let phase = self.state.phase;
            self.expect(s == phase, || format!("the {s} side gave a command in {phase}'s phase"));
        }
        self.engaged = matches!(command, Command::EndPhase).then(|| self.engaged_now());
        if matches!(
            command,
            Command::Move { .. } | Command::Limber { .. } | Command::Unlimber { .. }
        ) {
            self.voluntary_this_phase = true;
        }
        self.command = Some(command);
    }

    fn engaged_now(&self) -> Vec<usize> {
        if self.state.melee != Melee::MoraleChecks {
            return Vec::new();
        }
        self.state
            .units
            .iter()
            .filter(|u| u.on_table && !u.driven_off && touching_enemy(&self.state, u, &u.pose))
            .map(|u| u.id)
            .collect()
    }

    /// Reads one event, checks it against the state before it, and applies it.
    pub fn event(&mut self, index: usize, e: &Event) {
        self.index = index;
        self.tally.events += 1;
        self.check(e);
        self.rules.apply(&mut self.state, e);
    }

    /// The violations found, and the tally.
    pub fn finish(self) -> (Vec<Violation>, Tally) {
        (self.out, self.tally)
    }

    fn check(&mut self, e: &Event) {
        match e {
            Event::PhaseStarted { side, turn } => {
                let st = &self.state;
                let (expect_side, expect_turn) = if self.index == 0 {
                    (st.first, 1)
                } else if st.phase == st.first {
                    (st.first.other(), st.turn)
                } else {
                    (st.first, st.turn + 1)
                };
                let ok = *side == expect_side && *turn == expect_turn && *turn <= st.turns;
                self.expect(ok, || {
                    format!(
                        "phase {side} of turn {turn}, expected {expect_side} of turn {expect_turn}"
                    )
                });
                self.voluntary_this_phase = false;
            }
            Event::PhaseEnded { side } => {
                let phase = self.state.phase;
                self.expect(*side == phase, || format!("{side} ends {phase}'s phase"));
                if let Some(engaged) = self.engaged.take() {
                    let tested = self.tested.clone();
                    self.expect(engaged == tested, || {
                        format!("units in melee {engaged:?} but melee checks for {tested:?}")
                    });
                }
            }
            Event::Moved { .. } => self.moved(e),
            Event::DisciplineCheck { unit, roll, target, passed, .. } => {
                let u = &self.state.units[*unit];
                let want = self.rules.discipline_target(u.discipline);
                let ok = *target == want
                    && *passed == (roll.value >= *target)
                    && (1..=10).contains(&roll.value);
                self.expect(ok, || {
                    format!(
                        "discipline check {roll:?} against {target} (T6: {want}) passed {passed}"
                    )
                });
                self.discipline = Some((*unit, *passed));
            }
            Event::ForcedMarchFailed { unit, .. } => {
                let d = self.discipline;
                self.expect(d == Some((*unit, false)), || {
                    format!("a forced march refused without a failed check ({d:?})")
                });
            }
            Event::Attrition { unit, per_stand, after, .. } => {
                let u = self.state.units[*unit].clone();
                let marched = self.marched.contains(unit);
                self.expect(marched, || "attrition without a forced march".into());
                let fm = &self.rules.data.forced_march.attrition;
                let want = if u.is_personality() { fm.leader } else { fm.get(u.discipline) };
                self.expect(*per_stand == want, || {
                    format!("attrition {per_stand} EP, T4 gives {want}")
                });
                let expected: Vec<i32> = u
                    .stands
                    .iter()
                    .map(|s| match fm.floor {
                        AttritionFloor::Ordinary => (s.ep - want).max(0),
                        AttritionFloor::FloorOne => (s.ep - want).max(1.min(s.ep)),
                    })
                    .collect();
                self.expect(*after == expected, || {
                    format!("EP after attrition {after:?}, expected {expected:?}")
                });
                self.attrited.push(*unit);
            }
            Event::ExhaustionRoll { unit, roll, from, exhausted, barred_turn, .. } => {
                let u = &self.state.units[*unit];
                let m = if u.is_personality() { MoraleState::Firm } else { u.morale };
                let want = self.rules.data.forced_march.exhaustion_from(m);
                let ok = self.attrited.contains(unit)
                    && Some(*from) == want
                    && *exhausted == (roll.value >= *from)
                    && *barred_turn == self.state.turn + 1;
                self.expect(ok, || {
                    format!("exhaustion {roll:?} from {from} (T5: {want:?}) exhausted {exhausted} barred {barred_turn}")
                });
            }
            Event::ExhaustionCleared { unit, .. } => {
                let u = &self.state.units[*unit];
                let ok = u.exhausted_turn == Some(self.state.turn) && u.side == self.state.phase;
                self.expect(ok, || "exhaustion cleared outside its barred phase".into());
            }
            Event::LimberStarted { unit, limbering, .. } => {
                let u = self.state.units[*unit].clone();
                let ok = match &u.limber {
                    Some(l) => {
                        l.limbered != *limbering
                            && !l.changing
                            && !u.moved
                            && l.shot_turn != Some(self.state.turn)
                            && u.side == self.state.phase
                    }
                    None => false,
                };
                self.expect(ok, || format!("'{}' may not start to limber or unlimber now", u.name));
            }
            Event::LimberDone { unit, limbered, .. } => {
                let ok = self.state.units[*unit]
                    .limber
                    .as_ref()
                    .is_some_and(|l| l.changing && l.limbered != *limbered);
                self.expect(ok, || "limbering done without a change under way".into());
            }
            Event::Shot { unit, .. } => {
                let turn = self.state.turn;
                let u = self.state.units[*unit].clone();
                let ok = u.limber.as_ref().is_some_and(|l| {
                    !l.limbered
                        && !l.changing
                        && l.changed_turn != Some(turn)
                        && l.shot_turn != Some(turn)
                });
                self.expect(ok, || format!("'{}' may not shoot now", u.name));
            }
            Event::MoraleChecked {
                unit,
                roll,
                modifiers,
                total,
                target,
                passed,
                depth,
                cause,
                ..
            } => {
                let u = self.state.units[*unit].clone();
                let sum: i32 = modifiers.iter().map(|m| m.1).sum();
                let t = &self.rules.data.checks.morale;
                let ok = *total == roll.value as i32 + sum
                    && *passed == (*total >= *target)
                    && *target == t.target
                    && modifiers.first().map(|m| m.1) == Some(t.state.get(u.morale))
                    && modifiers.get(1).map(|m| m.1) == Some(t.discipline.get(u.discipline));
                self.expect(ok, || {
                    format!(
                        "morale check {roll:?} {modifiers:?} = {total} against {target}: {passed}"
                    )
                });
                let in_contact = touching_enemy(&self.state, &u, &u.pose);
                match depth {
                    Some(d) => {
                        let want = self.rules.depth_bonus(&self.state, *unit);
                        let listed: i32 =
                            modifiers.iter().filter(|m| m.0.contains("deeper")).map(|m| m.1).sum();
                        let ok = in_contact
                            && d.bonus == want.bonus
                            && d.rule.as_str() == want.rule
                            && listed == d.bonus;
                        self.expect(ok, || format!("depth {d:?}, the geometry gives {want:?}"));
                        if d.rule.as_str() == "MOV-DEPTH-04" {
                            let mass = u.pose.formation == Formation::Mass;
                            self.expect(mass, || "MOV-DEPTH-04 for a unit not in mass".into());
                        }
                    }
                    None => self.expect(!in_contact, || {
                        "a morale check in contact without the depth comparison".into()
                    }),
                }
                match cause.as_ref().map(|c| c.as_str()) {
                    Some("MOV-GAME-MELEE") => {
                        let ok = in_contact
                            && !u.driven_off
                            && self.engaged.as_ref().is_some_and(|g| g.contains(unit));
                        self.expect(ok, || "a melee check for a unit not engaged".into());
                        self.tested.push(*unit);
                        if !passed {
                            self.failed_melee.push(*unit);
                        }
                    }
                    Some("MOV-GAME-RALLY") => {
                        let ok = u.driven_off && !in_contact && u.side == self.state.phase;
                        self.expect(ok, || {
                            "a rally test for a unit not driven off, or in contact".into()
                        });
                        if *passed {
                            self.rallied_check.push(*unit);
                        }
                    }
                    _ => {
                        let umpire = self.actor == Some(Actor::Umpire);
                        self.expect(umpire, || {
                            "a morale check with no cause outside the umpire's commands".into()
                        });
                    }
                }
            }
            Event::MeleeResult { unit, from, to, driven_off, .. } => {
                let u = &self.state.units[*unit];
                let next = match u.morale {
                    MoraleState::Firm => MoraleState::Checked,
                    MoraleState::Checked => MoraleState::Shaken,
                    _ => MoraleState::Broken,
                };
                let ok = self.failed_melee.contains(unit)
                    && *from == u.morale
                    && *to == next
                    && *driven_off == matches!(to, MoraleState::Shaken | MoraleState::Broken);
                self.expect(ok, || format!("melee result {from} to {to}, driven off {driven_off}"));
            }
            Event::Rallied { unit, .. } => {
                let ok = self.rallied_check.contains(unit) || self.actor == Some(Actor::Umpire);
                self.expect(ok, || "a rally without a passed test or the umpire".into());
            }
            Event::Separation { unit, separated, rule, .. } => {
                if *separated && rule.as_str() == "MOV-REG-03" {
                    let by = self.rules.separated_by_distance(&self.state, *unit);
                    self.expect(by, || "separated by distance, but it is not".into());
                }
            }
            Event::Removed { unit, rule, .. } => {
                let u = self.state.units[*unit].clone();
                self.expect(u.on_table, || "a unit removed twice".into());
                if rule.as_str() == "MOV-REG-02" {
                    // Lost off the table: its flight took a stand beyond the edge.
                    let off = u.stands.iter().any(|s| {
                        s.rect.corners().iter().any(|c| !self.state.table.contains_point(*c))
                    });
                    self.expect(off, || {
                        format!("'{}' removed as fled off the table, but it is on it", u.name)
                    });
                }
            }
            Event::BattleOver { .. }
            | Event::MoraleSet { .. }
            | Event::EnduranceSet { .. }
            | Event::StandsLost { .. }
            | Event::DrivenOff { .. }
            | Event::Held { .. } => {}
        }
    }

    fn moved(&mut self, e: &Event) {
        let Event::Moved {
            unit,
            kind,
            from,
            to,
            path,
            cost,
            allowance,
            items,
            legs,
            basis,
            lost,
            reorder,
            rules: cited,
            note,
            ..
        } = e
        else {
            return;
        };
        self.tally.moves += 1;
        let st = self.state.clone();
        let u = st.units[*unit].clone();
        let data = &self.rules.data;
        let player = matches!(kind, MoveKind::Voluntary | MoveKind::Charge | MoveKind::ForcedMarch);
        let name = u.name.clone();
        let here = |w: &str| format!("'{name}' ({kind:?}): {w}");

        // Who acts, and when.
        self.expect(u.on_table && u.side == st.phase, || here("moved outside its side's phase"));
        match kind {
            MoveKind::Regroup | MoveKind::Flight => {
                let engine =
                    self.actor.is_none() || matches!(self.command, Some(Command::EndPhase));
                self.expect(engine && !self.voluntary_this_phase, || {
                    here("an engine move not at the start of a phase")
                });
                if *kind == MoveKind::Flight {
                    self.expect(u.driven_off, || here("flight by a unit not driven off"));
                } else {
                    self.expect(u.separated && !u.driven_off, || {
                        here("regrouping by a unit not separated")
                    });
                }
            }
            _ => {
                let ok = self.actor == Some(Actor::Side(u.side));
                self.expect(ok, || here("a player's move not commanded by its side"));
                // Leaders and characters are never bound by regroup movement (MOV-REG-05).
                let free = !u.held && (u.is_personality() || (!u.driven_off && !u.separated));
                self.expect(free, || {
                    here("a separated, driven-off or held unit moved by its player")
                });
                self.expect(u.exhausted_turn != Some(st.turn), || {
                    here("an exhausted unit moved in its barred turn")
                });
            }
        }
        if u.moved {
            let ok = *kind == MoveKind::Voluntary
                && u.regroup_left.is_some()
                && !u.separated
                && legs.iter().all(|l| matches!(l.kind, LegKind::Face | LegKind::Form));
            self.expect(ok, || here("a second move in one phase"));
        }
        self.expect(*from == u.pose, || here("the move does not start from the unit's pose"));

        // The allowance and its basis.
        let battle = matches!(self.command, Some(Command::Move { battle_command: true, .. }));
        let forced_cmd = matches!(self.command, Some(Command::Move { forced_march: true, .. }));
        let started_in_contact = touching_enemy(&st, &u, from);
        let ends_in_contact = touching_enemy_after(&st, &u, to);
        match basis {
            None => self.fail(here("no allowance basis")),
            Some(b) => {
                self.expect(close(b.value(), *allowance, 1e-9), || {
                    here(&format!("allowance {allowance} but its basis gives {}", b.value()))
                });
                if let Some(left) = u.regroup_left.filter(|_| player) {
                    self.expect(close(b.base, left, 1e-9) && b.factors.is_empty(), || {
                        here("forming up after regrouping: the basis is not what was left")
                    });
                } else {
                    let want_base = rate_of(self.rules, &u);
                    self.expect(close(b.base, want_base, 1e-9), || {
                        here(&format!("rate {} but T1/its profile gives {want_base}", b.base))
                    });
                    let mut want: Vec<(&str, f64)> = Vec::new();
                    if u.pose.formation == Formation::Circle {
                        want.push(("MOV-FORM-04", data.rates.multipliers.circle));
                    }
                    if *kind == MoveKind::ForcedMarch {
                        want.push(("MOV-FM-02", data.rates.multipliers.forced_march));
                        want.push(("MOV-FM-04", 1.0));
                    }
                    if *kind == MoveKind::Charge {
                        want.push(("MOV-GEN-08", data.rates.multipliers.charge));
                    }
                    let got: Vec<(&str, f64)> =
                        b.factors.iter().map(|f| (f.rule.as_str(), f.value)).collect();
                    let same = got.len() == want.len()
                        && got.iter().zip(&want).all(|(a, b)| a.0 == b.0 && close(a.1, b.1, 1e-12));
                    self.expect(same, || {
                        here(&format!("allowance factors {got:?}, expected {want:?}"))
                    });
                }
            }
        }
        let tol = if player { data.geometry.tolerance.cost } else { 1e-6 };
        self.expect(*cost <= allowance + tol, || {
            here(&format!("cost {cost} beyond the allowance {allowance}"))
        });
        let left = allowance - cost;
        let lost_ok = if *lost > 0.0 {
            close(*lost, left, 1e-9)
        } else {
            left <= 1e-6 || *kind == MoveKind::Regroup
        };
        self.expect(lost_ok, || here(&format!("lost {lost}, but {left} was left")));

        // Kinds of move and contact.
        match kind {
            MoveKind::Charge => {
                self.expect(ends_in_contact && !started_in_contact && battle, || {
                    here("a charge must end in contact from out of it, under a battle command")
                });
                self.expect(u.pose.formation != Formation::Circle, || here("a circle charged"));
            }
            MoveKind::ForcedMarch => {
                let can = u.pose.formation != Formation::Circle
                    && (u.is_personality()
                        || matches!(u.morale, MoraleState::Firm | MoraleState::Checked));
                self.expect(can, || {
                    here("a shaken, Broken or circled unit force-marched (MOV-FM-09)")
                });
                self.expect(!started_in_contact && !ends_in_contact, || {
                    here("a forced march in contact (MOV-FM-03)")
                });
                let passed = u.is_personality() || self.discipline == Some((*unit, true));
                self.expect(passed, || here("a forced march without a passed discipline check"));
                self.marched.push(*unit);
            }
            MoveKind::Voluntary => {
                if started_in_contact || ends_in_contact {
                    self.expect(battle, || {
                        here("a move from or into contact without a battle command")
                    });
                }
                if forced_cmd {
                    // The check failed: the same path at the normal rate.
                    self.expect(self.discipline == Some((*unit, false)), || {
                        here("a normal move on a forced-march command without a failed check")
                    });
                }
            }
            MoveKind::Regroup => {
                self.expect(!started_in_contact, || here("regrouping from melee contact"));
            }
            MoveKind::Flight => {}
        }

        // Totals equal their parts.
        let item_sum: f64 = items.iter().map(|i| i.cost).sum();
        let leg_sum: f64 = legs.iter().map(|l| l.cost).sum();
        self.expect(close(item_sum, *cost, 1e-9) && close(leg_sum, *cost, 1e-9), || {
            here(&format!("items sum to {item_sum}, legs to {leg_sum}, the move costs {cost}"))
        });
        for (k, l) in legs.iter().enumerate() {
            let s: f64 = items.iter().filter(|i| i.leg == k).map(|i| i.cost).sum();
            self.expect(close(s, l.cost, 1e-9), || {
                here(&format!("leg {k} costs {} but its items {s}", l.cost))
            });
        }
        self.fleeing = *kind == MoveKind::Flight;
        for i in items {
            self.item(&u, i, &st, &here);
        }
        // The legs chain from the start to the end.
        let chained = legs.first().is_none_or(|l| l.from == *from)
            && legs.windows(2).all(|w| w[0].to == w[1].from)
            && legs.last().is_none_or(|l| l.to == *to);
        self.expect(chained, || here("the legs do not chain from the start to the end"));
        self.expect(path.first() == Some(&from.at) && path.last() == Some(&to.at), || {
            here("the path does not run from start to end")
        });

        // Each leg's geometry and measure.
        let n = u.stands.len();
        let size = u.stand_size;
        let mut faces = 0;
        for (k, l) in legs.iter().enumerate() {
            let mine: Vec<&CostItem> = items.iter().filter(|i| i.leg == k).collect();
            let inches: f64 = mine.iter().filter_map(|i| i.inches).sum();
            match l.kind {
                LegKind::Advance => {
                    let d = l.to.at - l.from.at;
                    let same = l.from.facing == l.to.facing
                        && l.from.formation == l.to.formation
                        && l.from.files == l.to.files;
                    self.expect(same && close(l.measured, d.length(), 1e-9), || {
                        here("an advance changed facing or formation, or mismeasured")
                    });
                    self.expect(close(inches, l.measured, 1e-6), || {
                        here(&format!("an advance of {} priced over {inches} inches", l.measured))
                    });
                    let (rule, value, other) = direction_of(self.rules, &l.from, d);
                    // A step of no length (a rounding's worth) has no direction to check.
                    let ok = d.length() < 1e-9
                        || mine.iter().filter(|i| i.inches.is_some()).all(|i| {
                            i.factors.last().is_some_and(|f| {
                                (f.rule.as_str() == rule && close(f.value, value, 1e-12))
                                    || other.is_some_and(|(r, v)| {
                                        f.rule.as_str() == r && close(f.value, v, 1e-12)
                                    })
                            })
                        });
                    self.expect(ok, || {
                        let said: Vec<String> = mine
                            .iter()
                            .filter_map(|i| i.factors.last())
                            .map(|f| format!("{} ×{}", f.rule, f.value))
                            .collect();
                        let cos = l.from.facing.vector().dot(d.normalized().unwrap_or_default());
                        here(&format!(
                            "an advance's direction factor is not {rule} ×{value} \
                             (the move says {}; {:.4}° off the facing, {d:?} from {:?})",
                            said.join(", "),
                            cos.clamp(-1.0, 1.0).acos().to_degrees(),
                            l.from
                        ))
                    });
                    self.passes(&st, &u, l.from, d, *kind, &here);
                }
                LegKind::Face => {
                    faces += 1;
                    let want = data.facing.cost.get(u.discipline);
                    let ok = mine.len() == 1
                        && mine[0].inches.is_none()
                        && close(mine[0].cost, want, 1e-12);
                    self.expect(ok, || {
                        here(&format!(
                            "a change of facing costs {:?}, T2 gives {want}",
                            mine.iter().map(|i| i.cost).collect::<Vec<_>>()
                        ))
                    });
                    let a = l.from.facing.angle_to(l.to.facing);
                    let quarter = (a - std::f64::consts::FRAC_PI_2).abs() < 1e-6
                        || (a - std::f64::consts::PI).abs() < 1e-6;
                    self.expect(quarter, || {
                        here(&format!("a change of facing turned {:.3} rad", a))
                    });
                }
                LegKind::Wheel => {
                    let frame = outline(&l.from, n, size);
                    let radius = if data.geometry.wheel.rear_corner {
                        frame.width.hypot(frame.depth)
                    } else {
                        frame.width
                    };
                    let theta = l.from.facing.angle_to(l.to.facing);
                    self.expect(close(l.measured, radius * theta, 1e-6), || {
                        here(&format!(
                            "a wheel measured {} for {radius}\" × {theta} rad",
                            l.measured
                        ))
                    });
                    self.expect(close(inches, l.measured, 1e-6), || {
                        here("a wheel priced over other inches than its arc")
                    });
                    let after = outline(&l.to, n, size);
                    let pivot_kept = [
                        (frame.front_left(), after.front_left()),
                        (frame.front_right(), after.front_right()),
                    ]
                    .iter()
                    .any(|(a, b)| a.distance(*b) < 1e-6);
                    self.expect(pivot_kept, || here("a wheel moved both front corners"));
                    let ok = mine.iter().filter(|i| i.inches.is_some()).all(|i| {
                        i.factors.last().is_some_and(|f| {
                            f.rule.as_str() == "MOV-WHEEL-05"
                                && (close(f.value, 1.0, 1e-12)
                                    || close(f.value, data.facing.direction.backward_wheel, 1e-12))
                        })
                    });
                    self.expect(ok, || here("a wheel's factor is not MOV-WHEEL-05"));
                    self.wheel_passes(&st, &u, l.from, l.to, *kind, &here);
                }
                LegKind::Form => {
                    let old = layout(&l.from, n, size);
                    let new = layout(&l.to, n, size);
                    let order: Vec<usize> = match reorder {
                        Some(o) if o.len() == n => o.clone(),
                        _ => (0..n).collect(),
                    };
                    let far = (0..n)
                        .map(|j| new[j].centre.distance(old[order[j]].centre))
                        .fold(0.0, f64::max);
                    self.expect(
                        l.measured <= far + 1e-6 && close(inches, l.measured, 1e-6),
                        || {
                            here(&format!(
                                "a formation change measured {} (farthest stand {far})",
                                l.measured
                            ))
                        },
                    );
                    // The costliest stand pays at least what the farthest would on the
                    // cheapest ground (a road).
                    let m = &data.terrain.multiplier;
                    let cheapest =
                        m.paved_road.min(m.dirt_road_dry).min(m.dirt_road_wet).min(m.firm);
                    let paid: f64 =
                        mine.iter().filter(|i| i.inches.is_some()).map(|i| i.cost).sum();
                    self.expect(paid >= far * cheapest - 1e-6, || {
                        here(&format!(
                            "a formation change paid {paid} for a farthest stand of {far}\""
                        ))
                    });
                    let turns = (l.from.formation == Formation::Circle)
                        != (l.to.formation == Formation::Circle);
                    let turn_item = mine.iter().any(|i| {
                        i.inches.is_none()
                            && close(i.cost, data.facing.cost.get(u.discipline), 1e-12)
                    });
                    self.expect(turn_item == turns, || {
                        here("stands turning while forming are not priced once")
                    });
                    if l.to.formation == Formation::OpenOrder {
                        self.expect(u.skirmisher, || {
                            here("open order for troops not skirmishers (MOV-FORM-05)")
                        });
                    }
                    if u.levy {
                        self.expect(l.to.formation == Formation::Mass, || {
                            here("a levy left its mass (MOV-FORM-07)")
                        });
                    }
                }
            }
        }
        // The end: no overlap (MOV-THRU-04, MOV-R-18), unless the unit fled off the table.
        let end = layout(to, n, size);
        let off = end.iter().any(|r| r.corners().iter().any(|c| !st.table.contains_point(*c)));
        if !off {
            for other in st.units.iter().filter(|o| o.on_table && o.id != u.id) {
                let over =
                    end.iter().any(|a| other.stands.iter().any(|b| shrunk(a).overlaps(&b.rect)));
                self.expect(!over, || {
                    here(&format!("ends overlapping '{}' (MOV-THRU-04)", other.name))
                });
            }
        }
        if u.levy {
            self.expect(to.formation == Formation::Mass, || here("a levy out of mass"));
        }

        // The IDs cited match what happened.
        let cited: BTreeSet<&str> = cited.iter().map(|r| r.as_str()).collect();
        let mut must: Vec<&str> = Vec::new();
        let mut must_not: Vec<&str> = Vec::new();
        let has = |k: LegKind| legs.iter().any(|l| l.kind == k);
        let factor_rules: BTreeSet<&str> =
            items.iter().flat_map(|i| i.factors.iter().map(|f| f.rule.as_str())).collect();
        for r in [
            "MOV-DIR-01",
            "MOV-DIR-02",
            "MOV-DIR-03",
            "MOV-TER-02",
            "MOV-TER-03",
            "MOV-TER-04",
            "MOV-TER-05",
            "MOV-TER-07",
            "MOV-TER-08",
            "MOV-TER-11",
        ] {
            if factor_rules.contains(r) {
                must.push(r);
            } else {
                must_not.push(r);
            }
        }
        if legs.iter().any(|l| l.kind == LegKind::Advance && l.measured > 1e-9) {
            must.push("MOV-DIR-04");
        } else if !has(LegKind::Advance) {
            must_not.push("MOV-DIR-04");
        }
        for (k, rules) in [
            (LegKind::Face, &["MOV-FACE-01", "MOV-FACE-05", "MOV-FACE-06"][..]),
            (LegKind::Wheel, &["MOV-WHEEL-01", "MOV-WHEEL-03", "MOV-WHEEL-04", "MOV-WHEEL-05"][..]),
            (LegKind::Form, &["MOV-FORM-01", "MOV-FORM-12"][..]),
        ] {
            if has(k) {
                must.extend_from_slice(rules);
            } else {
                must_not.extend_from_slice(rules);
            }
        }
        if faces >= 2 {
            must.push("MOV-FACE-03");
        } else {
            must_not.push("MOV-FACE-03");
        }
        if items.len() > 1 {
            must.push("MOV-GEN-03");
        } else {
            must_not.push("MOV-GEN-03");
        }
        if *lost > 0.0 {
            must.push("MOV-GEN-04");
        } else {
            must_not.push("MOV-GEN-04");
        }
        match kind {
            MoveKind::Charge => must.extend(["MOV-GEN-07", "MOV-GEN-08"]),
            MoveKind::ForcedMarch => {
                must.extend(["MOV-FM-02", "MOV-FM-04", "MOV-FM-08"]);
                must_not.push("MOV-GEN-08");
            }
            MoveKind::Flight => must.push("MOV-REG-02"),
            MoveKind::Regroup => must.extend(["MOV-REG-01", "MOV-REG-09", "MOV-REG-11"]),
            MoveKind::Voluntary => must_not.extend(["MOV-GEN-08", "MOV-FM-02"]),
        }
        if *kind != MoveKind::Flight {
            must_not.push("MOV-REG-02");
        }
        if *kind != MoveKind::Regroup {
            must_not.extend(["MOV-REG-09", "MOV-REG-11"]);
        }
        if player {
            if started_in_contact {
                must.push("MOV-GEN-06");
            } else {
                must_not.push("MOV-GEN-06");
            }
            if ends_in_contact {
                must.push("MOV-GEN-07");
            } else {
                must_not.push("MOV-GEN-07");
            }
        }
        if u.pose.formation == Formation::Circle {
            must.push("MOV-FORM-04");
        }
        if !note.is_empty() {
            // Ground or units that stopped the move are cited for stopping it.
            must_not.retain(|r| !matches!(*r, "MOV-TER-06" | "MOV-TER-11"));
        }
        for r in must {
            self.expect(cited.contains(r), || {
                here(&format!("does not cite {r}, which it applied"))
            });
        }
        for r in must_not {
            self.expect(!cited.contains(r), || here(&format!("cites {r}, which did not happen")));
        }
        for r in &cited {
            self.expect(r.starts_with("MOV-"), || here(&format!("cites a foreign rule {r}")));
        }
    }

    /// A cost by distance is its inches times its factors, each the data's value.
    fn item(&mut self, u: &Unit, i: &CostItem, st: &State, here: &dyn Fn(&str) -> String) {
        let data = &self.rules.data;
        let m = &data.terrain.multiplier;
        match i.inches {
            Some(inches) => {
                let product = i.factors.iter().fold(inches, |c, f| c * f.value);
                self.expect(close(product, i.cost, 1e-9), || {
                    here(&format!(
                        "{} costs {} but {inches}\" × its factors is {product}",
                        i.what, i.cost
                    ))
                });
                for f in &i.factors {
                    let want: Option<f64> = match f.rule.as_str() {
                        "MOV-TER-02" => Some(m.firm),
                        "MOV-TER-03" => Some(m.mud),
                        "MOV-TER-04" => Some(m.uphill),
                        "MOV-TER-05" => Some(1.0),
                        "MOV-TER-07" => Some(m.ford),
                        "MOV-TER-09" => Some(m.paved_road),
                        "MOV-TER-10" => Some(match st.weather {
                            movement::Weather::Dry => m.dirt_road_dry,
                            movement::Weather::Wet => m.dirt_road_wet,
                        }),
                        "MOV-TER-11" => Some(m.dense_trees_open),
                        "MOV-TER-08" => Some(if f.what.contains("paved") {
                            m.paved_road
                        } else if f.what.contains("wet") {
                            m.dirt_road_wet
                        } else if f.what.contains("dirt") {
                            m.dirt_road_dry
                        } else {
                            m.firm
                        }),
                        "MOV-TER-12" => Some(match f.what.as_str() {
                            "brush" => m.brush,
                            "light woods" => m.light_woods,
                            "village" => m.village,
                            "stream" => m.stream,
                            _ => f64::NAN,
                        }),
                        "MOV-DIR-01" => Some(data.facing.direction.forward),
                        "MOV-DIR-02" => Some(data.facing.direction.backward),
                        "MOV-DIR-03" => Some(data.facing.direction.sideways),
                        "MOV-FORM-04" => Some(1.0),
                        "MOV-WHEEL-05" => None,
                        _ => Some(f64::NAN),
                    };
                    if let Some(w) = want {
                        self.expect(close(f.value, w, 1e-12), || {
                            here(&format!(
                                "factor {} ×{} [{}], the data gives ×{w}",
                                f.what, f.value, f.rule
                            ))
                        });
                    }
                    if f.rule.as_str() == "MOV-TER-11" {
                        let open = u.pose.formation == Formation::OpenOrder
                            || (u.is_personality() && u.stands.len() == 1);
                        self.expect(open, || here("formed troops in dense trees (MOV-TER-11)"));
                    }
                }
            }
            None => {
                let ok = match i.rule.as_str() {
                    "MOV-FACE-02" | "MOV-FORM-12" => {
                        close(i.cost, data.facing.cost.get(u.discipline), 1e-12)
                    }
                    "MOV-TER-12" => i.cost > 0.0,
                    // The free extension of a flight that would end on friends (MOV-R-18).
                    "MOV-THRU-04" => i.cost <= 0.0 && self.fleeing,
                    _ => false,
                };
                self.expect(ok && i.factors.is_empty(), || {
                    here(&format!("a fixed cost {} [{}] of {}", i.what, i.rule, i.cost))
                });
            }
        }
    }

    /// An advance's stands sweep no enemy footprint, and no friend's unless in flight.
    fn passes(
        &mut self,
        st: &State,
        u: &Unit,
        from: Pose,
        d: Vec2,
        kind: MoveKind,
        here: &dyn Fn(&str) -> String,
    ) {
        let stands = layout(&from, u.stands.len(), u.stand_size);
        for other in st.units.iter().filter(|o| o.on_table && o.id != u.id) {
            let enemy = other.side != u.side;
            if !enemy && kind == MoveKind::Flight {
                continue;
            }
            let hit = stands.iter().any(|s| {
                let sweep = movement::shapes::swept(&shrunk(s), d);
                other.stands.iter().any(|o| {
                    movement::shapes::convex_overlap(&sweep, &movement::shapes::rect_poly(&o.rect))
                })
            });
            self.expect(!hit, || {
                here(&format!(
                    "passes through the {} unit '{}'",
                    if enemy { "enemy" } else { "friendly" },
                    other.name
                ))
            });
        }
    }

    /// A wheel's stands, at 32 points of the arc, overlap no enemy, and no friend unless in
    /// flight.
    fn wheel_passes(
        &mut self,
        st: &State,
        u: &Unit,
        from: Pose,
        to: Pose,
        kind: MoveKind,
        here: &dyn Fn(&str) -> String,
    ) {
        let n = u.stands.len();
        let frame = outline(&from, n, u.stand_size);
        let after = outline(&to, n, u.stand_size);
        let left_kept = frame.front_left().distance(after.front_left()) < 1e-6;
        let pivot = if left_kept { frame.front_left() } else { frame.front_right() };
        let total = signed_angle(from.facing, to.facing);
        for k in 1..=32 {
            let a = total * k as f64 / 32.0;
            let rot = tabletop::geometry::rotation(a);
            let rects: Vec<Rect> = layout(&from, n, u.stand_size)
                .iter()
                .map(|r| shrunk(r).rotated_about(pivot, rot))
                .collect();
            for other in st.units.iter().filter(|o| o.on_table && o.id != u.id) {
                if other.side == u.side && kind == MoveKind::Flight {
                    continue;
                }
                let hit = rects.iter().any(|r| other.stands.iter().any(|o| r.overlaps(&o.rect)));
                if hit {
                    self.fail(here(&format!("wheels through '{}'", other.name)));
                    return;
                }
            }
        }
    }
}

/// The anticlockwise angle from one facing to another, in (-π, π].
fn signed_angle(a: Facing, b: Facing) -> f64 {
    let (va, vb) = (a.vector(), b.vector());
    libm_atan2(va.cross(vb), va.dot(vb))
}

fn libm_atan2(y: f64, x: f64) -> f64 {
    y.atan2(x)
}

/// A stand a hair smaller, so that touching is not overlapping.
fn shrunk(r: &Rect) -> Rect {
    Rect::new(r.centre, r.facing, (r.width - 0.02).max(0.01), (r.depth - 0.02).max(0.01))
}

/// True when the unit's stands at `pose` touch an enemy stand (within the contact tolerance).
fn touching_enemy(st: &State, u: &Unit, pose: &Pose) -> bool {
    let tol = 0.01;
    let mine = layout(pose, u.stands.len(), u.stand_size);
    st.units
        .iter()
        .filter(|e| e.on_table && e.side != u.side)
        .any(|e| e.stands.iter().any(|s| mine.iter().any(|m| m.distance(&s.rect) <= tol)))
}

fn touching_enemy_after(st: &State, u: &Unit, pose: &Pose) -> bool {
    touching_enemy(st, u, pose)
}

/// The rate the unit's allowance starts from, worked out here from the data: the slowest
/// stand's T1 rate, a creature's own rate, or the piece's (MOV-GEN-02, MOV-GEN-10, MOV-R-10).
fn rate_of(rules: &Movement, u: &Unit) -> f64 {
    if let Some(r) = u.rate {
        return r;
    }
    if let Some(l) = &u.limber {
        return rules.data.rates.artillery.get(l.class);
    }
    let row = &rules.data.rates.humanoid[&u.troop];
    u.stands.iter().map(|s| row.get(s.armor)).fold(f64::INFINITY, f64::min)
}

/// The direction factor of a displacement from a pose, worked out here (MOV-DIR-04: 45° and
/// less is forward; a circle has no flank or rear). The third value is true on the boundary
/// between the rear and a flank (135° exactly), where both cost ×2 and either name will do.
/// The direction rule and factor of a step `d` from `from`, and, for a step within rounding of
/// a sector's edge (45° or 135° off the facing), the rule and factor of the sector across it.
fn direction_of(
    rules: &Movement,
    from: &Pose,
    d: Vec2,
) -> (&'static str, f64, Option<(&'static str, f64)>) {
    let f = &rules.data.facing.direction;
    if from.formation == Formation::Circle {
        return ("MOV-FORM-04", f.forward, None);
    }
    let (v, dn) = (from.facing.vector(), d.normalized().unwrap_or(from.facing.vector()));
    let cos = v.dot(dn);
    let half = std::f64::consts::FRAC_1_SQRT_2;
    let edge = |c: f64| (cos - c).abs() < 1e-7;
    let side = ("MOV-DIR-03", f.sideways);
    if cos >= half - 1e-9 {
        ("MOV-DIR-01", f.forward, edge(half).then_some(side))
    } else if cos <= -half + 1e-9 {
        ("MOV-DIR-02", f.backward, edge(-half).then_some(side))
    } else if edge(half) {
        ("MOV-DIR-03", f.sideways, Some(("MOV-DIR-01", f.forward)))
    } else if edge(-half) {
        ("MOV-DIR-03", f.sideways, Some(("MOV-DIR-02", f.backward)))
    } else {
        ("MOV-DIR-03", f.sideways, None)
    }
}

/// Checks a whole game: its set-up events and every command's.
pub fn check_game(game: &Game<Movement>) -> (Vec<Violation>, Tally) {
    let rules = game.rules();
    let mut umpire = Umpire::new(rules, rules.initial_state(game.scenario()));
    let events = game.events();
    let starts = game.command_starts();
    let commands = game.commands();
    let mut next_command = 0;
    for (i, e) in events.iter().enumerate() {
        while next_command < starts.len() && starts[next_command] == i {
            let rc = &commands[next_command];
            let c: Command =
                serde_json::from_value(rc.command.clone()).expect("a recorded command reads back");
            umpire.command(rc.actor, c);
            next_command += 1;
        }
        umpire.event(i, e);
    }
    // The umpire's state is the game's.
    let same = umpire.state == *game.state();
    if !same {
        umpire.fail("the events replayed do not give the game's state");
    }
    umpire.finish()
}

/// A bot for one side.
pub type BotBox = Box<dyn bots::Bot<Movement>>;

/// Plays a battle between two bots and returns the game.
pub fn play(
    text: &str,
    name: &str,
    seed: u64,
    red: &mut BotBox,
    blue: &mut BotBox,
) -> Game<Movement> {
    let rules = std::sync::Arc::new(Movement::new());
    let mut g = Game::new(rules, tabletop::Source::new(name, text.to_string()), seed)
        .unwrap_or_else(|d| panic!("{name}: {d}"));
    let mut rngs = [
        tabletop::SeededDice::new(seed.wrapping_mul(2).wrapping_add(1)),
        tabletop::SeededDice::new(seed.wrapping_mul(2).wrapping_add(2)),
    ];
    for _ in 0..6000 {
        if g.outcome().is_some() {
            break;
        }
        let Some(&side) = g.pending().sides().first() else { break };
        let bot = if side == Side::Red { &mut *red } else { &mut *blue };
        let c = bot
            .choose(g.rules(), g.state(), side, &mut rngs[side.index()])
            .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
        if let Err(r) = g.submit(Actor::Side(side), c.clone()) {
            panic!("{name} seed {seed}: the {side} bot gave a refused command {c:?}: {r}");
        }
    }
    g
}

/// The ready scenarios: every `scenarios/movement/*.toml`, by file name.
pub fn ready_scenarios() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/movement");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("scenarios/movement")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            (
                format!("scenarios/movement/{}", p.file_name().unwrap().to_string_lossy()),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}
