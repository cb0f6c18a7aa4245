//! `RuleSet` for [`Movement`]: set-up, phases, check, execute, apply, views, outcome,
//! candidates and drawing.

use crate::Movement;
use crate::data::AttritionFloor;
use crate::layout::{layout, outline};
use crate::model::{Formation, Melee, MoraleState, Turn};
use crate::regroup::moved;
use crate::scenario::Scenario;
use crate::state::{
    AllowanceBasis, Command, Event, Limber, MoveKind, Objective, SideState, Stand, State, Step,
    Unit, UnitId,
};
use serde::Serialize;
use std::sync::Arc;
use tabletop::controls::{Controls, MeasureRequest, Measurement, RosterRow};
use tabletop::diagnostics::{Diagnostics, Source};
use tabletop::dice::{DiceSource, Die, SeededDice, roll};
use tabletop::geometry::{Pivot, Vec2};
use tabletop::render::{Mark, Piece, Scene};
use tabletop::rules::{Actor, Outcome, Pending, Refusal, RuleId, RuleSet, Side, Viewer};

fn refuse(rule: &'static str, reason: impl Into<String>) -> Refusal {
    Refusal::new(rule, reason)
}

/// What a viewer sees of one unit.
#[derive(Clone, Debug, Serialize)]
pub struct UnitView {
    /// The unit as it stands.
    #[serde(flatten)]
    pub unit: Unit,
    /// Its normal allowance.
    pub allowance: f64,
    /// It may still move this phase.
    pub may_move: bool,
    /// It may shoot now (artillery).
    pub may_shoot: Option<bool>,
    /// In melee contact.
    pub in_contact: bool,
}

/// What one viewer sees. This chapter hides nothing, so every viewer sees every unit; the view
/// still says who looks and what that viewer may do now.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// Who looks.
    pub viewer: Viewer,
    /// The scenario.
    pub scenario: String,
    /// The turn.
    pub turn: u32,
    /// The last turn.
    pub turns: u32,
    /// The side in its phase.
    pub phase: Side,
    /// The viewer may act now.
    pub to_act: bool,
    /// The weather.
    pub weather: crate::model::Weather,
    /// The units.
    pub units: Vec<UnitView>,
    /// The objectives.
    pub objectives: Vec<Objective>,
}

impl Movement {
    /// Builds the starting state of a scenario (no events).
    pub fn initial_state(&self, scenario: &Scenario) -> State {
        let units = scenario
            .units
            .iter()
            .enumerate()
            .map(|(id, s)| {
                let rects = layout(&s.pose, s.armor.len(), s.stand_size);
                Unit {
                    id,
                    name: s.name.clone(),
                    side: s.side,
                    troop: s.troop,
                    discipline: s.discipline,
                    rate: s.rate,
                    mounted: s.mounted,
                    skirmisher: s.skirmisher,
                    levy: s.levy,
                    leader: s.leader,
                    character: s.character,
                    army_leader: s.army_leader,
                    brigade_leader: s.brigade_leader,
                    stand_size: s.stand_size,
                    pose: s.pose,
                    stands: rects
                        .into_iter()
                        .zip(&s.armor)
                        .map(|(rect, a)| Stand { rect, armor: *a, ep: s.ep })
                        .collect(),
                    morale: s.morale,
                    limber: s.artillery.map(|(class, limbered)| Limber {
                        class,
                        limbered,
                        changing: false,
                        changed_turn: None,
                        shot_turn: None,
                    }),
                    on_table: true,
                    moved: false,
                    forced_march_failed: false,
                    exhausted_turn: None,
                    separated: false,
                    driven_off: false,
                    held: false,
                    regroup_left: None,
                }
            })
            .collect();
        State {
            scenario: scenario.name.clone(),
            table: Arc::new(scenario.table.clone()),
            weather: scenario.weather,
            melee: scenario.melee,
            turn: 1,
            turns: scenario.turns,
            first: scenario.first,
            phase: scenario.first,
            over: false,
            sides: scenario
                .sides
                .iter()
                .map(|s| SideState { side: s.side, name: s.name.clone(), edge: s.edge })
                .collect(),
            units,
            objectives: scenario
                .objectives
                .iter()
                .map(|(n, at, r)| Objective { name: n.clone(), at: *at, radius: *r })
                .collect(),
        }
    }

    /// The events that open `side`'s phase in `turn`, engine-driven moves included, given the
    /// state before them. Under `melee = "morale_checks"` a driven-off unit out of contact first
    /// tests to rally (`MOV-GAME-RALLY`, MOV-REG-04).
    pub fn phase_start(
        &self,
        state: &State,
        side: Side,
        turn: u32,
        dice: &mut dyn DiceSource,
    ) -> Vec<Event> {
        let mut scratch = state.clone();
        let mut out = vec![Event::PhaseStarted { side, turn }];
        self.apply(&mut scratch, &out[0]);
        let ids: Vec<UnitId> = scratch.units_of(side).map(|u| u.id).collect();
        for id in ids {
            let u = &scratch.units[id];
            if scratch.melee == Melee::MoraleChecks
                && u.driven_off
                && !u.is_personality()
                && !self.in_contact(&scratch, id)
            {
                let check = self.morale_check(&scratch, id, Some("MOV-GAME-RALLY"), dice);
                let passed = matches!(check, Event::MoraleChecked { passed: true, .. });
                self.apply(&mut scratch, &check);
                out.push(check);
                if passed {
                    let rallied = Event::Rallied { unit: id, name: String::new() };
                    self.apply(&mut scratch, &rallied);
                    out.push(rallied);
                }
            }
            let evs = self.compulsory_events(&scratch, id);
            for e in &evs {
                self.apply(&mut scratch, e);
            }
            out.extend(evs);
        }
        Event::name_all(&mut out, state);
        out
    }

    /// Under `melee = "morale_checks"` (`MOV-GAME-MELEE`, NIS): every unit in melee contact and
    /// not already driven off takes a morale check with the depth bonus; one that fails drops a
    /// morale state and, shaken or Broken, is driven off.
    pub fn melee_events(&self, state: &State, dice: &mut dyn DiceSource) -> Vec<Event> {
        if state.melee != Melee::MoraleChecks {
            return Vec::new();
        }
        let engaged: Vec<UnitId> = state
            .units
            .iter()
            .filter(|u| u.on_table && !u.driven_off && !self.contacts(state, u.id).is_empty())
            .map(|u| u.id)
            .collect();
        let mut out = Vec::new();
        for id in engaged {
            let check = self.morale_check(state, id, Some("MOV-GAME-MELEE"), dice);
            let failed = matches!(check, Event::MoraleChecked { passed: false, .. });
            out.push(check);
            if failed {
                let from = state.units[id].morale;
                let to = match from {
                    MoraleState::Firm => MoraleState::Checked,
                    MoraleState::Checked => MoraleState::Shaken,
                    MoraleState::Shaken | MoraleState::Broken => MoraleState::Broken,
                };
                out.push(Event::MeleeResult {
                    unit: id,
                    name: String::new(),
                    from,
                    to,
                    driven_off: matches!(to, MoraleState::Shaken | MoraleState::Broken),
                });
            }
        }
        out
    }

    /// Why a unit may not make a voluntary move now, if anything (MOV-R-31).
    pub fn move_barred(&self, state: &State, actor: Actor, unit: UnitId) -> Option<Refusal> {
        if state.over {
            return Some(refuse("MOV-GEN-01", "the battle is over"));
        }
        let Some(u) = state.unit(unit) else {
            return Some(refuse("MOV-GEN-01", format!("there is no unit {unit}")));
        };
        if !u.on_table {
            return Some(refuse("MOV-GEN-01", format!("'{}' is no longer on the table", u.name)));
        }
        match actor {
            Actor::Side(s) if s == u.side => {}
            Actor::Side(s) => {
                return Some(refuse(
                    "MOV-GEN-01",
                    format!("'{}' is not a unit of the {s} side", u.name),
                ));
            }
            Actor::Umpire => {
                return Some(refuse(
                    "MOV-GEN-01",
                    "units are moved by their own side; the umpire sets results",
                ));
            }
        }
        if state.phase != u.side {
            return Some(refuse(
                "MOV-GEN-01",
                format!("it is the {} side's movement phase", state.phase),
            ));
        }
        if u.exhausted_turn == Some(state.turn) {
            return Some(refuse(
                "MOV-FM-07",
                format!(
                    "'{}' is exhausted after its forced march and may not move this turn",
                    u.name
                ),
            ));
        }
        if let Some(l) = &u.limber
            && l.changing
        {
            return Some(refuse(
                "MOV-LIMB-01",
                format!("'{}' is limbering or unlimbering this turn", u.name),
            ));
        }
        if u.held {
            return Some(refuse("MOV-REG-03", format!("'{}' is held in place", u.name)));
        }
        if !u.is_personality() && u.driven_off {
            return Some(refuse(
                "MOV-REG-02",
                format!(
                    "'{}' was driven off and flees until it rallies (the engine moves it)",
                    u.name
                ),
            ));
        }
        if !u.is_personality() && u.separated {
            return Some(refuse(
                "MOV-REG-03",
                format!("'{}' is separated and regroups by itself (the engine moves it)", u.name),
            ));
        }
        if u.moved && (u.regroup_left.is_none() || u.separated) {
            return Some(refuse(
                "MOV-GEN-01",
                format!("'{}' has already moved this phase", u.name),
            ));
        }
        None
    }

    fn check_move(
        &self,
        state: &State,
        actor: Actor,
        unit: UnitId,
        forced_march: bool,
        battle_command: bool,
        steps: &[Step],
    ) -> Result<crate::engine::Plan, Refusal> {
        if let Some(r) = self.move_barred(state, actor, unit) {
            return Err(r);
        }
        let u = &state.units[unit];
        if steps.is_empty() {
            return Err(refuse("MOV-GEN-01", "a move needs at least one step"));
        }
        if steps.len() > 64 {
            return Err(refuse("MOV-GEN-01", "a move has at most 64 steps"));
        }
        if let Some(l) = &u.limber
            && !l.limbered
            && steps.iter().any(|s| !matches!(s, Step::Face(_)))
        {
            return Err(refuse(
                "MOV-LIMB-03",
                format!("'{}' is unlimbered: it may only change facing", u.name),
            ));
        }
        let starts_in_contact = self.in_contact(state, unit);
        if starts_in_contact && !battle_command {
            return Err(refuse(
                "MOV-GEN-06",
                format!(
                    "'{}' is in melee contact: moving, turning or re-forming needs a battle command",
                    u.name
                ),
            ));
        }
        if forced_march {
            if u.pose.formation == Formation::Circle {
                return Err(refuse("MOV-FM-09", "a unit in circle may not forced-march"));
            }
            if !u.is_personality() && self.data.forced_march.exhaustion_from(u.morale).is_none() {
                return Err(refuse(
                    "MOV-FM-09",
                    format!("a {} unit may not forced-march", u.morale),
                ));
            }
            if starts_in_contact {
                return Err(refuse("MOV-FM-03", "a forced march may not start in melee contact"));
            }
            if u.forced_march_failed {
                return Err(refuse(
                    "MOV-FM-01",
                    "the discipline check for a forced march failed this phase; only a normal move is left",
                ));
            }
        }
        if let Some(left) = u.regroup_left {
            if forced_march
                || steps.iter().any(|s| matches!(s, Step::Advance { .. } | Step::Wheel { .. }))
            {
                return Err(refuse(
                    "MOV-REG-10",
                    format!(
                        "'{}' has regrouped this phase: it may only form up, with {left:.2}\" left",
                        u.name
                    ),
                ));
            }
            let plan = self.plan_move(state, unit, steps, false, battle_command)?;
            if plan.cost > left + self.data.geometry.tolerance.cost {
                return Err(refuse(
                    "MOV-REG-10",
                    format!(
                        "forming up costs {:.2}\" but only {left:.2}\" is left after regrouping",
                        plan.cost
                    ),
                ));
            }
            return Ok(plan);
        }
        let plan = self.plan_move(state, unit, steps, forced_march, battle_command)?;
        // A charge ends in contact from out of it; a move that starts in melee and stays in it
        // (turning to face, re-forming) is a move under a battle command, not a charge.
        let charge = plan.ends_in_contact && !starts_in_contact;
        if plan.ends_in_contact {
            if forced_march {
                return Err(refuse("MOV-FM-03", "a forced march may not end in melee contact"));
            }
            if charge
                && (u.pose.formation == Formation::Circle
                    || plan.pose.formation == Formation::Circle)
            {
                return Err(refuse("MOV-FORM-04", "a unit in circle may not charge (MOV-R-35)"));
            }
            if !battle_command {
                return Err(refuse(
                    "MOV-GEN-07",
                    "a move that ends in melee contact needs a battle command",
                ));
            }
        }
        let allowance = self.allowance(u, forced_march, charge && !forced_march);
        let tol = self.data.geometry.tolerance.cost;
        if plan.cost > allowance.this_move + tol {
            // Name the step that overspends.
            let idx =
                plan.cumulative.iter().position(|c| *c > allowance.this_move + tol).unwrap_or(0);
            let rule = match steps.get(idx) {
                Some(Step::Face(_)) => "MOV-FACE-04",
                Some(Step::Wheel { .. }) => "MOV-WHEEL-03",
                Some(Step::Form { .. }) => "MOV-FORM-12",
                _ if charge => "MOV-GEN-08",
                _ if forced_march => "MOV-FM-08",
                _ => "MOV-GEN-01",
            };
            let spent = if idx == 0 { 0.0 } else { plan.cumulative[idx - 1] };
            return Err(refuse(
                rule,
                format!(
                    "the move costs {:.2}\" but '{}' has {:.2}\" (step {} needs {:.2}\" with {:.2}\" left)",
                    plan.cost,
                    u.name,
                    allowance.this_move,
                    idx + 1,
                    plan.cumulative.get(idx).copied().unwrap_or(plan.cost) - spent,
                    (allowance.this_move - spent).max(0.0)
                ),
            ));
        }
        Ok(plan)
    }

    fn limber_barred(
        &self,
        state: &State,
        actor: Actor,
        unit: UnitId,
        limber: bool,
    ) -> Option<Refusal> {
        if let Some(r) = self.move_barred(state, actor, unit) {
            return Some(r);
        }
        let u = &state.units[unit];
        if u.moved {
            // Even a piece that regrouped and may still form up: the change takes the whole
            // turn (MOV-LIMB-01).
            return Some(refuse(
                "MOV-LIMB-01",
                format!("'{}' has moved this turn; limbering takes the whole turn", u.name),
            ));
        }
        match &u.limber {
            None => Some(refuse("MOV-LIMB-01", format!("'{}' is not artillery", u.name))),
            Some(l) if l.limbered == limber => Some(refuse(
                "MOV-LIMB-01",
                format!(
                    "'{}' is already {}",
                    u.name,
                    if limber { "limbered" } else { "unlimbered" }
                ),
            )),
            // The turn of a change is a turn without shooting, so a piece that has shot this
            // turn may not start one (MOV-LIMB-02, MOV-R-19).
            Some(l) if l.shot_turn == Some(state.turn) => Some(refuse(
                "MOV-LIMB-02",
                format!(
                    "'{}' has shot this turn and may not {} in the same turn",
                    u.name,
                    if limber { "limber" } else { "unlimber" }
                ),
            )),
            _ => None,
        }
    }

    fn umpire_unit(&self, state: &State, actor: Actor, unit: UnitId) -> Result<(), Refusal> {
        if actor != Actor::Umpire {
            return Err(refuse("MOV-GEN-01", "only the umpire sets results"));
        }
        if state.over {
            return Err(refuse("MOV-GEN-01", "the battle is over"));
        }
        match state.unit(unit) {
            Some(u) if u.on_table => Ok(()),
            Some(u) => Err(refuse("MOV-GEN-01", format!("'{}' is no longer on the table", u.name))),
            None => Err(refuse("MOV-GEN-01", format!("there is no unit {unit}"))),
        }
    }

    fn end_phase_events(&self, state: &State, dice: &mut dyn DiceSource) -> Vec<Event> {
        let side = state.phase;
        let mut out = self.melee_events(state, dice);
        for u in state.units_of(side) {
            if let Some(l) = &u.limber
                && l.changing
            {
                out.push(Event::LimberDone {
                    unit: u.id,
                    name: String::new(),
                    limbered: !l.limbered,
                });
            }
            if u.exhausted_turn == Some(state.turn) {
                out.push(Event::ExhaustionCleared { unit: u.id, name: String::new() });
            }
        }
        out.push(Event::PhaseEnded { side });
        let mut scratch = state.clone();
        for e in &out {
            self.apply(&mut scratch, e);
        }
        let second = side != state.first;
        let next_turn = if second { state.turn + 1 } else { state.turn };
        if next_turn > state.turns {
            out.push(Event::BattleOver {
                reason: format!("the {} turns of the scenario are played", state.turns),
            });
            return out;
        }
        out.extend(self.phase_start(&scratch, side.other(), next_turn, dice));
        out
    }

    fn lose_stands(&self, u: &Unit, eps: &[i32]) -> Option<Event> {
        let lost: Vec<usize> =
            eps.iter().enumerate().filter(|(_, e)| **e <= 0).map(|(i, _)| i).collect();
        if lost.is_empty() {
            return None;
        }
        let left = u.stands.len() - lost.len();
        let mut pose = u.pose;
        if pose.formation != Formation::Circle {
            pose.files = pose.files.min(left.max(1) as u32);
        }
        Some(Event::StandsLost { unit: u.id, name: String::new(), stands: lost, pose })
    }
}

impl Movement {
    /// The events of a command, before names and the end-of-battle check.
    fn command_events(
        &self,
        state: &State,
        actor: Actor,
        command: &Command,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Event>, Refusal> {
        let mut out = Vec::new();
        match command {
            Command::Move { unit, forced_march, battle_command, steps } => {
                let plan =
                    self.check_move(state, actor, *unit, *forced_march, *battle_command, steps)?;
                let u = &state.units[*unit];
                if *forced_march {
                    let normal = self.allowance(u, false, false).this_move;
                    let passed = if u.is_personality() {
                        true
                    } else {
                        let target = self.discipline_target(u.discipline);
                        let r = roll(
                            dice,
                            Die::D10,
                            "discipline check for a forced march",
                            RuleId::new("MOV-R-20"),
                        );
                        let passed = r.value >= target;
                        out.push(Event::DisciplineCheck {
                            unit: *unit,
                            name: String::new(),
                            roll: r,
                            target,
                            passed,
                        });
                        passed
                    };
                    if !passed {
                        let tol = self.data.geometry.tolerance.cost;
                        // The same path at the normal rate, if it fits (MOV-R-28).
                        let normal_plan =
                            self.plan_move(state, *unit, steps, false, *battle_command).ok();
                        match normal_plan {
                            Some(p) if p.cost <= normal + tol && !p.ends_in_contact => {
                                let basis = self.allowance(u, false, false).basis;
                                out.push(moved(
                                    u,
                                    MoveKind::Voluntary,
                                    &p,
                                    normal,
                                    basis,
                                    &["MOV-FM-01", "MOV-R-28", "MOV-GEN-01", "MOV-GEN-05"],
                                ));
                            }
                            _ => out.push(Event::ForcedMarchFailed {
                                unit: *unit,
                                name: String::new(),
                            }),
                        }
                        return Ok(out);
                    }
                    let allowance = self.allowance(u, true, false);
                    // Every cost is paid out of the doubled allowance (MOV-FM-08); the march
                    // starts and ends out of contact, so it needs no battle command (MOV-GEN-05).
                    out.push(moved(
                        u,
                        MoveKind::ForcedMarch,
                        &plan,
                        allowance.this_move,
                        allowance.basis,
                        &["MOV-FM-01", "MOV-FM-02", "MOV-FM-08", "MOV-GEN-01", "MOV-GEN-05"],
                    ));
                    // Attrition (MOV-FM-05).
                    let per = if u.is_personality() {
                        self.data.forced_march.attrition.leader
                    } else {
                        self.data.forced_march.attrition.get(u.discipline)
                    };
                    let floor = self.data.forced_march.attrition.floor;
                    let after: Vec<i32> = u
                        .stands
                        .iter()
                        .map(|s| match floor {
                            AttritionFloor::Ordinary => (s.ep - per).max(0),
                            AttritionFloor::FloorOne => (s.ep - per).max(1.min(s.ep)),
                        })
                        .collect();
                    out.push(Event::Attrition {
                        unit: *unit,
                        name: String::new(),
                        per_stand: per,
                        after: after.clone(),
                    });
                    let mut gone = false;
                    if let Some(e) = self.lose_stands(u, &after) {
                        if let Event::StandsLost { stands, .. } = &e
                            && stands.len() == u.stands.len()
                        {
                            gone = true;
                        }
                        out.push(e);
                    }
                    if gone {
                        out.push(Event::Removed {
                            unit: *unit,
                            name: String::new(),
                            reason: "every stand lost its last EP to attrition".into(),
                            rule: RuleId::new("MOV-FM-05"),
                        });
                        return Ok(out);
                    }
                    // Exhaustion (MOV-FM-06), as Firm for leaders.
                    let m = if u.is_personality() { MoraleState::Firm } else { u.morale };
                    if let Some(from) = self.data.forced_march.exhaustion_from(m) {
                        let r = roll(
                            dice,
                            Die::D10,
                            "forced-march exhaustion",
                            RuleId::new("MOV-FM-06"),
                        );
                        let exhausted = r.value >= from;
                        out.push(Event::ExhaustionRoll {
                            unit: *unit,
                            name: String::new(),
                            roll: r,
                            from,
                            exhausted,
                            barred_turn: state.turn + 1,
                        });
                    }
                    return Ok(out);
                }
                let started_in_contact = self.in_contact(state, *unit);
                let charge = plan.ends_in_contact && !started_in_contact;
                let (allowance, basis) = match u.regroup_left {
                    Some(left) => (
                        left,
                        AllowanceBasis {
                            base: left,
                            what: "left after regrouping, for forming up".into(),
                            rules: vec![RuleId::new("MOV-REG-10")],
                            factors: Vec::new(),
                        },
                    ),
                    None => {
                        let a = self.allowance(u, false, charge);
                        (a.this_move, a.basis)
                    }
                };
                let mut extra = vec!["MOV-GEN-01"];
                if u.regroup_left.is_some() {
                    extra.push("MOV-REG-10");
                }
                if u.is_personality() && self.apart_from_army(state, *unit) {
                    // A leader or character far from every friendly unit is not bound by
                    // regroup movement: the player moves it freely (MOV-REG-05).
                    extra.push("MOV-REG-05");
                }
                if started_in_contact {
                    // A move from melee contact, under a battle command (MOV-GEN-06, MOV-R-37).
                    extra.push("MOV-GEN-06");
                }
                if plan.ends_in_contact {
                    // Ending in contact, under a battle command (MOV-GEN-07).
                    extra.push("MOV-GEN-07");
                }
                if charge {
                    // The charge bonus (MOV-GEN-08).
                    extra.push("MOV-GEN-08");
                } else if !started_in_contact && !plan.ends_in_contact {
                    extra.push("MOV-GEN-05");
                }
                let mut e = moved(
                    u,
                    if charge { MoveKind::Charge } else { MoveKind::Voluntary },
                    &plan,
                    allowance,
                    basis,
                    &extra,
                );
                if let Event::Moved { note, .. } = &mut e
                    && plan.dropped_steps > 0
                {
                    note.push_str(&format!(" ({} later step(s) dropped)", plan.dropped_steps));
                }
                out.push(e);
            }
            Command::Limber { unit } => {
                out.push(Event::LimberStarted { unit: *unit, name: String::new(), limbering: true })
            }
            Command::Unlimber { unit } => out.push(Event::LimberStarted {
                unit: *unit,
                name: String::new(),
                limbering: false,
            }),
            Command::Shoot { unit } => out.push(Event::Shot { unit: *unit, name: String::new() }),
            Command::EndPhase => out = self.end_phase_events(state, dice),
            Command::SetMorale { unit, state: m } => {
                out.push(Event::MoraleSet { unit: *unit, name: String::new(), state: *m })
            }
            Command::SetEndurance { unit, stand, ep } => {
                let u = &state.units[*unit];
                let after: Vec<i32> = u
                    .stands
                    .iter()
                    .enumerate()
                    .map(|(i, s)| if stand.is_none_or(|k| k == i) { *ep } else { s.ep })
                    .collect();
                out.push(Event::EnduranceSet {
                    unit: *unit,
                    name: String::new(),
                    after: after.clone(),
                });
                if let Some(e) = self.lose_stands(u, &after) {
                    let all = matches!(&e, Event::StandsLost { stands, .. } if stands.len() == u.stands.len());
                    out.push(e);
                    if all {
                        out.push(Event::Removed {
                            unit: *unit,
                            name: String::new(),
                            reason: "every stand is at 0 EP".into(),
                            rule: RuleId::new("MOV-FM-05"),
                        });
                    }
                }
            }
            Command::Remove { unit } => out.push(Event::Removed {
                unit: *unit,
                name: String::new(),
                reason: "removed by the umpire".into(),
                rule: RuleId::new("MOV-GEN-01"),
            }),
            Command::DriveOff { unit } => {
                out.push(Event::DrivenOff { unit: *unit, name: String::new() })
            }
            Command::MarkSeparated { unit, separated } => out.push(Event::Separation {
                unit: *unit,
                name: String::new(),
                separated: *separated,
                reason: "marked by the umpire".into(),
                rule: RuleId::new("MOV-REG-01"),
            }),
            Command::Hold { unit, held } => {
                out.push(Event::Held { unit: *unit, name: String::new(), held: *held })
            }
            Command::MoraleCheck { unit } => {
                let u = &state.units[*unit];
                let e = self.morale_check(state, *unit, None, dice);
                let passed = matches!(e, Event::MoraleChecked { passed: true, .. });
                out.push(e);
                if passed && u.driven_off {
                    out.push(Event::Rallied { unit: *unit, name: String::new() });
                }
            }
            Command::Rally { unit } => {
                out.push(Event::Rallied { unit: *unit, name: String::new() })
            }
        }
        Ok(out)
    }
}

impl RuleSet for Movement {
    type Scenario = Scenario;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;

    fn id(&self) -> &'static str {
        crate::ID
    }

    fn version(&self) -> &'static str {
        "0.1.0"
    }

    fn load_scenario(&self, source: &Source) -> Result<Scenario, Diagnostics> {
        self.parse_scenario(source)
    }

    fn setup(&self, scenario: &Scenario, dice: &mut dyn DiceSource) -> (State, Vec<Event>) {
        let mut state = self.initial_state(scenario);
        let events = self.phase_start(&state, state.first, 1, dice);
        for e in &events {
            self.apply(&mut state, e);
        }
        (state, events)
    }

    fn pending(&self, state: &State) -> Pending {
        if self.outcome(state).is_some() {
            return Pending::Over;
        }
        Pending::Side {
            side: state.phase,
            what: format!("turn {}: {} movement phase", state.turn, state.phase),
        }
    }

    fn check(&self, state: &State, actor: Actor, command: &Command) -> Result<(), Refusal> {
        if self.outcome(state).is_some() {
            return Err(refuse("MOV-GEN-01", "the battle is over"));
        }
        match command {
            Command::Move { unit, forced_march, battle_command, steps } => self
                .check_move(state, actor, *unit, *forced_march, *battle_command, steps)
                .map(|_| ()),
            Command::Limber { unit } => {
                self.limber_barred(state, actor, *unit, true).map_or(Ok(()), Err)
            }
            Command::Unlimber { unit } => {
                self.limber_barred(state, actor, *unit, false).map_or(Ok(()), Err)
            }
            Command::Shoot { unit } => {
                let Some(u) = state.unit(*unit).filter(|u| u.on_table) else {
                    return Err(refuse(
                        "MOV-GEN-01",
                        format!("there is no unit {unit} on the table"),
                    ));
                };
                match actor {
                    Actor::Umpire => {}
                    Actor::Side(s) if s == u.side => {}
                    _ => {
                        return Err(refuse("MOV-GEN-01", format!("'{}' is not your unit", u.name)));
                    }
                }
                match &u.limber {
                    None => Err(refuse("MOV-LIMB-02", format!("'{}' is not artillery", u.name))),
                    Some(l) if l.changing || l.changed_turn == Some(state.turn) => Err(refuse(
                        "MOV-LIMB-02",
                        format!("'{}' limbers or unlimbers this turn and may not shoot", u.name),
                    )),
                    Some(l) if l.limbered => Err(refuse(
                        "MOV-LIMB-03",
                        format!("'{}' is limbered: only unlimbered pieces shoot", u.name),
                    )),
                    Some(l) if l.shot_turn == Some(state.turn) => Err(refuse(
                        "MOV-LIMB-02",
                        format!("'{}' has already shot this turn", u.name),
                    )),
                    Some(_) => Ok(()),
                }
            }
            Command::EndPhase => match actor {
                Actor::Side(s) if s == state.phase => Ok(()),
                Actor::Umpire => Ok(()),
                Actor::Side(s) => Err(refuse(
                    "MOV-GEN-01",
                    format!("it is the {} side's movement phase, not the {s} side's", state.phase),
                )),
            },
            Command::SetMorale { unit, .. }
            | Command::Remove { unit }
            | Command::DriveOff { unit }
            | Command::MarkSeparated { unit, .. }
            | Command::Hold { unit, .. }
            | Command::MoraleCheck { unit }
            | Command::Rally { unit } => self.umpire_unit(state, actor, *unit),
            Command::SetEndurance { unit, stand, ep } => {
                self.umpire_unit(state, actor, *unit)?;
                if *ep < 0 || *ep > 1000 {
                    return Err(refuse("MOV-FM-05", "EP must lie between 0 and 1000"));
                }
                if let Some(s) = stand
                    && *s >= state.units[*unit].stands.len()
                {
                    return Err(refuse("MOV-FM-05", format!("the unit has no stand {s}")));
                }
                Ok(())
            }
        }
    }

    fn execute(
        &self,
        state: &State,
        actor: Actor,
        command: &Command,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Event>, Refusal> {
        let mut out = self.command_events(state, actor, command, dice)?;
        // A side with nothing left ends the battle at once.
        let mut scratch = state.clone();
        for e in &out {
            self.apply(&mut scratch, e);
        }
        if !scratch.over {
            for s in Side::BOTH {
                if scratch.units_of(s).next().is_none() {
                    out.push(Event::BattleOver {
                        reason: format!("the {s} side has nothing left on the table"),
                    });
                    break;
                }
            }
        }
        Event::name_all(&mut out, state);
        Ok(out)
    }

    fn apply(&self, state: &mut State, event: &Event) {
        match event {
            Event::PhaseStarted { side, turn } => {
                state.phase = *side;
                state.turn = *turn;
                for u in state.units.iter_mut().filter(|u| u.side == *side) {
                    u.moved = false;
                    u.forced_march_failed = false;
                    u.regroup_left = None;
                }
            }
            Event::Moved { unit, to, kind, allowance, cost, reorder, .. } => {
                if let Some(u) = state.units.get_mut(*unit) {
                    if let Some(order) = reorder
                        && order.len() == u.stands.len()
                        && order.iter().all(|i| *i < u.stands.len())
                    {
                        u.stands = order.iter().map(|i| u.stands[*i].clone()).collect();
                    }
                    u.set_pose(*to);
                    u.moved = true;
                    u.regroup_left =
                        (*kind == MoveKind::Regroup).then(|| (allowance - cost).max(0.0));
                }
            }
            Event::DisciplineCheck { .. } | Event::Shot { .. } | Event::MoraleChecked { .. } => {
                if let Event::Shot { unit, .. } = event
                    && let Some(l) = state.units.get_mut(*unit).and_then(|u| u.limber.as_mut())
                {
                    l.shot_turn = Some(state.turn);
                }
            }
            Event::ForcedMarchFailed { unit, .. } => {
                if let Some(u) = state.units.get_mut(*unit) {
                    u.forced_march_failed = true;
                }
            }
            Event::Attrition { unit, after, .. } | Event::EnduranceSet { unit, after, .. } => {
                if let Some(u) = state.units.get_mut(*unit) {
                    for (s, e) in u.stands.iter_mut().zip(after) {
                        s.ep = *e;
                    }
                }
            }
            Event::StandsLost { unit, stands, pose, .. } => {
                if let Some(u) = state.units.get_mut(*unit) {
                    let mut i = 0;
                    u.stands.retain(|_| {
                        let keep = !stands.contains(&i);
                        i += 1;
                        keep
                    });
                    if u.stands.is_empty() {
                        u.on_table = false;
                    } else {
                        u.set_pose(*pose);
                    }
                }
            }
            Event::ExhaustionRoll { unit, exhausted, barred_turn, .. } => {
                if *exhausted && let Some(u) = state.units.get_mut(*unit) {
                    u.exhausted_turn = Some(*barred_turn);
                }
            }
            Event::ExhaustionCleared { unit, .. } => {
                if let Some(u) = state.units.get_mut(*unit) {
                    u.exhausted_turn = None;
                }
            }
            Event::LimberStarted { unit, .. } => {
                let turn = state.turn;
                if let Some(u) = state.units.get_mut(*unit) {
                    u.moved = true;
                    if let Some(l) = u.limber.as_mut() {
                        l.changing = true;
                        l.changed_turn = Some(turn);
                    }
                }
            }
            Event::LimberDone { unit, limbered, .. } => {
                if let Some(l) = state.units.get_mut(*unit).and_then(|u| u.limber.as_mut()) {
                    l.changing = false;
                    l.limbered = *limbered;
                }
            }
            Event::MoraleSet { unit, state: m, .. } => {
                if let Some(u) = state.units.get_mut(*unit) {
                    u.morale = *m;
                }
            }
            Event::Removed { unit, .. } => {
                if let Some(u) = state.units.get_mut(*unit) {
                    u.on_table = false;
                }
            }
            Event::DrivenOff { unit, .. } => {
                if let Some(u) = state.units.get_mut(*unit) {
                    u.driven_off = true;
                    u.separated = true;
                }
            }
            Event::Separation { unit, separated, .. } => {
                if let Some(u) = state.units.get_mut(*unit) {
                    u.separated = *separated;
                    if !separated {
                        u.driven_off = false;
                    } else {
                        u.regroup_left = None;
                    }
                }
            }
            Event::Held { unit, held, .. } => {
                if let Some(u) = state.units.get_mut(*unit) {
                    u.held = *held;
                }
            }
            Event::Rallied { unit, .. } => {
                if let Some(u) = state.units.get_mut(*unit) {
                    u.driven_off = false;
                }
            }
            Event::MeleeResult { unit, to, driven_off, .. } => {
                if let Some(u) = state.units.get_mut(*unit) {
                    u.morale = *to;
                    if *driven_off {
                        u.driven_off = true;
                        u.separated = true;
                    }
                }
            }
            Event::PhaseEnded { .. } => {}
            Event::BattleOver { .. } => state.over = true,
        }
    }

    fn view(&self, state: &State, viewer: Viewer) -> View {
        let to_act = match viewer {
            Viewer::Side(s) => !state.over && s == state.phase,
            Viewer::Umpire => !state.over,
            Viewer::Spectator => false,
        };
        View {
            viewer,
            scenario: state.scenario.clone(),
            turn: state.turn,
            turns: state.turns,
            phase: state.phase,
            to_act,
            weather: state.weather,
            units: state
                .units
                .iter()
                .zip(self.units_in_contact(state))
                .map(|(u, contact)| UnitView {
                    unit: u.clone(),
                    allowance: self.normal_allowance(u, u.pose.formation).0,
                    may_move: self.move_barred(state, Actor::Side(u.side), u.id).is_none(),
                    may_shoot: u.limber.as_ref().map(|l| {
                        !l.limbered
                            && !l.changing
                            && l.changed_turn != Some(state.turn)
                            && l.shot_turn != Some(state.turn)
                    }),
                    in_contact: u.on_table && contact,
                })
                .collect(),
            objectives: state.objectives.clone(),
        }
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        for s in Side::BOTH {
            if state.units_of(s).next().is_none() {
                return Some(Outcome {
                    winner: Some(s.other()),
                    reason: format!(
                        "[MOV-GAME-END] the {s} side has nothing left on the table (a project rule, not the chapter's)"
                    ),
                });
            }
        }
        if !state.over {
            return None;
        }
        let mut held = [0usize; 2];
        for o in &state.objectives {
            let near = |s: Side| {
                state
                    .units_of(s)
                    .any(|u| u.stands.iter().any(|st| st.rect.distance_to_point(o.at) <= o.radius))
            };
            match (near(Side::Red), near(Side::Blue)) {
                (true, false) => held[0] += 1,
                (false, true) => held[1] += 1,
                _ => {}
            }
        }
        let reason = format!(
            "[MOV-GAME-END] after {} turns red holds {} objective(s), blue {} (a project rule, not the chapter's)",
            state.turns, held[0], held[1]
        );
        let winner = match held[0].cmp(&held[1]) {
            std::cmp::Ordering::Greater => Some(Side::Red),
            std::cmp::Ordering::Less => Some(Side::Blue),
            std::cmp::Ordering::Equal => None,
        };
        Some(Outcome { winner, reason })
    }

    fn evaluate(&self, state: &State, side: Side) -> Option<f64> {
        Some(crate::value::position_value(state, side))
    }

    fn candidates(&self, state: &State, side: Side, rng: &mut SeededDice) -> Vec<Command> {
        /// How many units one call proposes moves for.
        const CANDIDATE_UNITS: usize = 3;
        let mut out = vec![Command::EndPhase];
        if self.outcome(state).is_some() || state.phase != side {
            return if self.check(state, Actor::Side(side), &Command::EndPhase).is_ok() {
                out
            } else {
                vec![]
            };
        }
        let actor = Actor::Side(side);
        let mut proposals: Vec<Command> = Vec::new();
        // Propose moves for a few of the units free to move, chosen at random: every unit is
        // offered over a phase, and each call checks a handful of proposals, not dozens.
        let mut free: Vec<&Unit> = state
            .units_of(side)
            .filter(|u| self.move_barred(state, actor, u.id).is_none())
            .collect();
        while free.len() > CANDIDATE_UNITS {
            free.swap_remove(rng.below(free.len() as u32) as usize);
        }
        for u in free {
            let (allow, _) = self.normal_allowance(u, u.pose.formation);
            let f = u.pose.facing;
            let at = u.pose.at;
            let mut rnd = |n: u32| rng.below(n.max(1));
            // A one-step move of this unit: (forced march, battle command, step).
            let one = |forced_march: bool, battle_command: bool, step: Step| Command::Move {
                unit: u.id,
                forced_march,
                battle_command,
                steps: vec![step],
            };
            let advance = |to: Vec2| Step::Advance { to: [to.x, to.y] };
            for _ in 0..4 {
                let ang = (rnd(360) as f64).to_radians();
                let dir = Vec2::new(libm_sin(ang), libm_cos(ang));
                let frac = (1 + rnd(10)) as f64 / 10.0;
                proposals.push(one(false, false, advance(at + dir * (allow * frac))));
            }
            // Under a battle command: straight at the nearest enemy stand within the charge's
            // reach (a charge, or a move from melee), or else forward.
            let reach = allow * self.data.rates.multipliers.charge;
            let target = state
                .units
                .iter()
                .filter(|e| e.on_table && e.side != side)
                .flat_map(|e| e.stands.iter().map(|s| s.rect.centre))
                .filter(|c| c.distance(at) <= reach + 2.0)
                .min_by(|a, b| a.distance(at).total_cmp(&b.distance(at)));
            let fwd = match target {
                Some(c) => c,
                None => at + f.vector() * (allow * (1 + rnd(8)) as f64 / 10.0),
            };
            proposals.push(one(false, true, advance(fwd)));
            let far = at + f.vector() * (allow * (10 + rnd(10)) as f64 / 10.0);
            proposals.push(one(true, false, advance(far)));
            // A change of facing, then (every other time) a march along the new front.
            let turn = [Turn::Right, Turn::Left, Turn::About][rnd(3) as usize];
            let mut steps = vec![Step::Face(turn)];
            if rnd(2) == 0
                && let Ok(p) = self.turned_pose(state, u.id, turn)
            {
                steps.push(advance(p.at + p.facing.vector() * (allow * 0.5)));
            }
            proposals.push(Command::Move {
                unit: u.id,
                forced_march: false,
                battle_command: false,
                steps,
            });
            // A wheel, then (every other time) a short advance.
            let pivot = if rnd(2) == 0 { Pivot::Left } else { Pivot::Right };
            let degrees = (15 * (1 + rnd(6))) as f64;
            let mut steps = vec![Step::Wheel { pivot, degrees }];
            if rnd(2) == 0 {
                let turned = f.rotated(tabletop::geometry::rotation(
                    if pivot == Pivot::Left { 1.0 } else { -1.0 } * degrees.to_radians(),
                ));
                steps.push(advance(at + turned.vector() * (allow * 0.3)));
            }
            proposals.push(Command::Move {
                unit: u.id,
                forced_march: false,
                battle_command: false,
                steps,
            });
            let formation = [
                Formation::Line,
                Formation::Column,
                Formation::Mass,
                Formation::OpenOrder,
                Formation::Circle,
            ][rnd(5) as usize];
            let files = Some(1 + rnd(u.stands.len() as u32));
            proposals.push(one(false, false, Step::Form { formation, files, gap: None }));
            if let Some(l) = &u.limber {
                // A limbered piece may unlimber; an unlimbered one may limber up or shoot.
                if l.limbered {
                    proposals.push(Command::Unlimber { unit: u.id });
                } else {
                    proposals.push(Command::Limber { unit: u.id });
                    proposals.push(Command::Shoot { unit: u.id });
                }
            }
        }
        for p in proposals {
            if self.check(state, actor, &p).is_ok() {
                out.push(p);
            }
        }
        out
    }

    fn turn(&self, state: &State) -> Option<u32> {
        Some(state.turn)
    }

    fn controls(&self, state: &State, side: Side) -> Controls {
        self.client_controls(state, side)
    }

    fn measure(&self, state: &State, side: Side, request: &MeasureRequest) -> Option<Measurement> {
        self.client_measure(state, side, request)
    }

    fn roster(&self, state: &State, viewer: Viewer) -> Vec<RosterRow> {
        self.client_roster(state, viewer)
    }

    fn scene(&self, state: &State, viewer: Viewer) -> Scene {
        let _ = viewer;
        let pieces = state
            .units
            .iter()
            .filter(|u| u.on_table)
            .map(|u| {
                let mut flags = vec![format!("{}", u.morale)];
                if u.separated {
                    flags.push("separated".into());
                }
                if u.driven_off {
                    flags.push("driven off".into());
                }
                if u.exhausted_turn.is_some() {
                    flags.push("exhausted".into());
                }
                if let Some(l) = &u.limber {
                    flags.push(if l.limbered { "limbered".into() } else { "unlimbered".into() });
                }
                let ep: i32 = u.stands.iter().map(|s| s.ep).sum();
                let what = if u.army_leader {
                    "army leader".to_string()
                } else if u.leader {
                    "leader".to_string()
                } else if u.character {
                    "character".to_string()
                } else if let Some(l) = &u.limber {
                    format!("{:?} piece", l.class).to_lowercase()
                } else {
                    format!("{} · {} stands", u.pose.formation, u.stands.len())
                };
                Piece {
                    id: Some(u.id.to_string()),
                    outline: outline(&u.pose, u.stands.len(), u.stand_size),
                    stands: u.rects(),
                    side: Some(u.side),
                    label: u.name.clone(),
                    detail: format!("{what} · {ep} EP · {}", flags.join(", ")),
                }
            })
            .collect();
        let marks = state
            .objectives
            .iter()
            .map(|o| Mark {
                points: (0..=16)
                    .map(|i| {
                        let a = i as f64 / 16.0 * std::f64::consts::TAU;
                        o.at + Vec2::new(libm_cos(a), libm_sin(a)) * o.radius
                    })
                    .collect(),
                label: o.name.clone(),
            })
            .collect();
        Scene {
            title: format!(
                "{} — turn {} of {}, {} to move",
                state.scenario, state.turn, state.turns, state.phase
            ),
            table: (*state.table).clone(),
            pieces,
            marks,
            grid: None,
        }
    }
}

fn libm_sin(a: f64) -> f64 {
    tabletop::geometry::rotation(a).y
}

fn libm_cos(a: f64) -> f64 {
    tabletop::geometry::rotation(a).x
}
