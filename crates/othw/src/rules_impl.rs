//! The [`RuleSet`] implementation: set-up, checks, execution, views and drawing.

use crate::Othw;
use crate::engine::Ctx;
use crate::scenario::{First, Scenario};
use crate::state::{
    Command, EMPTY, Event, General, Orders, SideState, State, Status, Unit, apply, flags,
};
use crate::view::View;
use std::sync::Arc;
use tabletop::controls::{Controls, RosterRow};
use tabletop::diagnostics::{Diagnostics, Source};
use tabletop::dice::{DiceSource, Die, SeededDice, roll};
use tabletop::render::Scene;
use tabletop::rules::{
    Actor, Outcome, Pending, Refusal, RuleId, RuleSet, Side, SideSummary, Summary, Viewer,
};

impl Othw {
    /// The starting state of a scenario and the set-up events (the roll-off, if any).
    pub fn start(&self, sc: &Scenario, dice: &mut dyn DiceSource) -> (State, Vec<Event>) {
        let grid = &sc.board.grid;
        let mut occ = vec![EMPTY; grid.cells.len()];
        let mut units = Vec::with_capacity(sc.units.len());
        for (i, u) in sc.units.iter().enumerate() {
            let id = i as u8;
            if let Some(ix) = grid.index(u.at) {
                occ[ix] = id;
            }
            units.push(Unit {
                id,
                side: u.side,
                name: u.name.clone(),
                type_name: u.ty.name.clone(),
                class: u.ty.class,
                m: u.ty.m,
                a: u.ty.a,
                d: u.ty.d,
                s: u.ty.s,
                l: u.ty.l,
                specials: u.ty.specials,
                retreat_tests: u.ty.retreat_tests,
                pos: u.at,
                facing: u.facing,
                sp: u.ty.s,
                status: Status::Ready,
                gone: None,
                pursuing: None,
                flags: 0,
            });
        }
        let non_skirmishers =
            |s: Side| sc.units.iter().filter(|u| u.side == s && !u.ty.is_skirmisher()).count();
        let bonus =
            |s: Side| sc.sides[s.index()].general.as_ref().map_or(0, |g| u32::from(g.army_morale));
        let side_state = |s: Side| {
            let x = &sc.sides[s.index()];
            let n = non_skirmishers(s);
            let bonus = bonus(s);
            let am = (self.data.morale.starting(n as u32) + bonus).min(250) as u8;
            let general = x.general.as_ref().and_then(|g| {
                let unit = sc.units.iter().position(|u| u.side == s && u.general)? as u8;
                Some(General {
                    name: Arc::from(g.name.as_str()),
                    attack: g.attack,
                    rally: g.rally,
                    fate_modifier: g.fate_modifier,
                    ignore_attack_risk: g.ignore_attack_risk,
                    unit,
                    lost: false,
                    absent_through: 0,
                })
            });
            SideState {
                name: x.name.clone(),
                edge: x.edge,
                am,
                am_start: am,
                general,
                orders: Orders::default(),
            }
        };
        let sides = [side_state(Side::Red), side_state(Side::Blue)];
        let mut rolls = Vec::new();
        let first = match sc.first {
            First::Side(s) => s,
            First::Roll => loop {
                let r = roll(dice, Die::D6, "roll-off red", RuleId::new("OTHW-SEQ-01"));
                let b = roll(dice, Die::D6, "roll-off blue", RuleId::new("OTHW-SEQ-01"));
                let (rv, bv) = (r.value, b.value);
                rolls.push(r);
                rolls.push(b);
                if rv != bv {
                    break if rv > bv { Side::Red } else { Side::Blue };
                }
            },
        };
        let am = [sides[0].am, sides[1].am];
        let mut st = State {
            board: sc.board.clone(),
            units,
            occ,
            sides,
            turn: 1,
            turns: sc.turns,
            first,
            phasing: first,
            phase_no: 0,
            phase_over: false,
            outcome: None,
        };
        let small = |n: usize| n.min(255) as u8;
        let generals = Side::BOTH
            .into_iter()
            .filter_map(|s| {
                let g = st.side(s).general.as_ref()?;
                Some(crate::state::SetupGeneral {
                    side: s,
                    name: g.name.clone(),
                    unit: g.unit,
                    unit_name: st.units[usize::from(g.unit)].name.clone(),
                })
            })
            .collect();
        let morale = &self.data.morale;
        let events = vec![
            Event::Setup {
                first,
                rolls,
                am,
                non_skirmishers: [
                    small(non_skirmishers(Side::Red)),
                    small(non_skirmishers(Side::Blue)),
                ],
                formula: [morale.divisor, morale.base],
                bonus: [small(bonus(Side::Red) as usize), small(bonus(Side::Blue) as usize)],
                generals,
            },
            Event::PhaseBegan { turn: 1, side: first, phase_no: 1 },
        ];
        for e in &events {
            apply(&mut st, e);
        }
        (st, events)
    }

    /// Whether the phasing side may give `command`; a refusal names the rule.
    pub fn check_command(&self, st: &State, command: &Command) -> Result<(), Refusal> {
        let no_unit = |u: u8| Refusal::new("OTHW-SEQ-03", format!("there is no unit {u}"));
        let problem = |p: Option<(&'static str, String)>| match p {
            Some((rule, why)) => Err(Refusal::new(rule, why)),
            None => Ok(()),
        };
        match command {
            Command::EndPhase | Command::Orders { .. } => Ok(()),
            Command::Move { unit, to, facing } => {
                let x = st.unit(*unit).ok_or_else(|| no_unit(*unit))?;
                problem(self.unit_problem(st, *unit))?;
                if x.flag(flags::FOUGHT) {
                    return Err(Refusal::new(
                        "OTHW-MOV-10",
                        format!("{} has fought this phase", x.name),
                    ));
                }
                if x.flag(flags::MOVED)
                    && (x.flag(flags::FURTHER) || self.data.rules.sequence.further_moves == 0)
                {
                    return Err(Refusal::new(
                        "OTHW-MOV-09",
                        format!("{} has already made its further move", x.name),
                    ));
                }
                let reach = self.reach(st, *unit, false);
                if reach.has_end(*to, *facing) {
                    return Ok(());
                }
                let (rule, why) = if !st.board.grid.in_bounds(*to) {
                    ("OTHW-MOV-12", "a unit may not leave the board".to_string())
                } else if st.at(*to).is_some_and(|v| v != *unit) {
                    ("OTHW-MOV-05", "no move may end on an occupied square".to_string())
                } else if st.board.impassable(*to) {
                    ("OTHW-MOV-05", "the river cannot be entered away from a ford".to_string())
                } else if (*to, *facing) == (x.pos, x.facing) {
                    ("OTHW-MOV-02", "the move changes nothing".to_string())
                } else if !x.ignores_restricted()
                    && (st.board.restricted(x.pos) || st.board.restricted(*to))
                {
                    (
                        "OTHW-MOV-11",
                        format!("{} has only 1 movement point in woods or a ford", x.name),
                    )
                } else {
                    (
                        "OTHW-MOV-02",
                        format!(
                            "{} cannot get there with {} movement points (steps forward only, turns cost 1)",
                            x.name, x.m
                        ),
                    )
                };
                Err(Refusal::new(rule, why))
            }
            Command::GroupMove { units, facing, steps } => {
                problem(self.group_problem(st, st.phasing, units, *facing, *steps))
            }
            Command::Attack { unit, from, facing, general_dice } => {
                let x = st.unit(*unit).ok_or_else(|| no_unit(*unit))?;
                problem(self.unit_problem(st, *unit))?;
                if x.flag(flags::FOUGHT) {
                    return Err(Refusal::new(
                        "OTHW-CMB-22",
                        format!("{} has already fought this phase", x.name),
                    ));
                }
                if x.flag(flags::MOVED) {
                    return Err(Refusal::new(
                        "OTHW-MOV-10",
                        format!("{} has moved this phase and may not fight", x.name),
                    ));
                }
                if *general_dice
                    && !(st.has_general(*unit)
                        && st.active_general(x.side).is_some_and(|g| g.attack > 0))
                {
                    return Err(Refusal::new(
                        "OTHW-GEN-04",
                        "no general with attack dice is with this unit",
                    ));
                }
                let reach = self.reach(st, *unit, true);
                if reach.attacks.iter().any(|&(p, f, _)| p == *from && f == *facing) {
                    return Ok(());
                }
                let target = st.at(from.step(*facing));
                if !target.is_some_and(|t| crate::legal::attackable(st, *unit, t)) {
                    return Err(Refusal::new(
                        "OTHW-CMB-03",
                        "units attack only an enemy in their front square",
                    ));
                }
                Err(Refusal::new(
                    "OTHW-MOV-08",
                    format!("{} cannot reach that square and still enter the enemy's", x.name),
                ))
            }
            Command::Mahouts { unit } => {
                let x = st.unit(*unit).ok_or_else(|| no_unit(*unit))?;
                if x.side != st.phasing
                    || x.status != Status::Rampaging
                    || x.flag(flags::FOUGHT)
                    || st.phase_over
                {
                    return Err(Refusal::new(
                        "OTHW-CMB-21",
                        "only the owner's rampaging elephant, once a phase, before the phase ends",
                    ));
                }
                Ok(())
            }
        }
    }
}

impl RuleSet for Othw {
    type Scenario = Scenario;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;

    fn id(&self) -> &'static str {
        "othw"
    }

    fn version(&self) -> &'static str {
        "0.1.0"
    }

    fn load_scenario(&self, source: &Source) -> Result<Scenario, Diagnostics> {
        self.scenario(source)
    }

    fn setup(&self, scenario: &Scenario, dice: &mut dyn DiceSource) -> (State, Vec<Event>) {
        self.start(scenario, dice)
    }

    fn pending(&self, state: &State) -> Pending {
        if state.outcome.is_some() {
            return Pending::Over;
        }
        let what = if state.phase_over {
            "the phase is over: the general's unit may still act"
        } else {
            "activate a unit or group, or end the phase"
        };
        Pending::Side { side: state.phasing, what: what.into() }
    }

    fn check(&self, state: &State, actor: Actor, command: &Command) -> Result<(), Refusal> {
        if state.outcome.is_some() {
            return Err(Refusal::new("OTHW-VIC-09", "the battle is over"));
        }
        if let Actor::Side(s) = actor
            && s != state.phasing
        {
            return Err(Refusal::new("OTHW-SEQ-01", format!("it is {}'s phase", state.phasing)));
        }
        self.check_command(state, command)
    }

    fn execute(
        &self,
        state: &State,
        actor: Actor,
        command: &Command,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Event>, Refusal> {
        thread_local! {
            /// The scratch copy of the state that actions work on.
            static SCRATCH: std::cell::RefCell<Option<State>> = const { std::cell::RefCell::new(None) };
        }
        // The command carried out on a copy (see `perform`).
        let run =
            |st: &mut State, dice: &mut dyn DiceSource| self.perform(st, actor, command, dice);
        SCRATCH.with(|s| match s.try_borrow_mut() {
            Ok(mut s) => match &mut *s {
                Some(st) => {
                    st.clone_from(state);
                    debug_assert!(st == state, "the scratch copy is the state");
                    run(st, dice)
                }
                None => run(s.insert(state.clone()), dice),
            },
            // Re-entered (not expected): a fresh copy.
            Err(_) => run(&mut state.clone(), dice),
        })
    }

    fn apply(&self, state: &mut State, event: &Event) {
        apply(state, event);
    }

    /// Works the command out on the state itself: the engine applies each event as it emits
    /// it, so the state it leaves is the state with the events applied, with no copy made.
    fn perform(
        &self,
        state: &mut State,
        _actor: Actor,
        command: &Command,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Event>, Refusal> {
        let side = state.phasing;
        let mut cx = Ctx::new(self, state, dice, command);
        cx.command(side, command);
        Ok(cx.ev)
    }

    fn view(&self, state: &State, viewer: Viewer) -> View {
        View::of(state, viewer)
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn legal_commands(&self, state: &State, side: Side) -> Option<Vec<Command>> {
        Some(self.legal(state, side))
    }

    fn candidates(&self, state: &State, side: Side, _rng: &mut SeededDice) -> Vec<Command> {
        self.legal(state, side)
    }

    fn controls(&self, state: &State, side: Side) -> Controls {
        crate::controls::controls(self, state, side)
    }

    fn roster(&self, state: &State, _viewer: Viewer) -> Vec<RosterRow> {
        crate::controls::roster(state)
    }

    fn scene(&self, state: &State, viewer: Viewer) -> Scene {
        crate::view::scene(state, viewer)
    }

    fn turn(&self, state: &State) -> Option<u32> {
        Some(u32::from(state.turn))
    }

    fn summary(&self, state: &State) -> Summary {
        Summary { sides: Side::BOTH.iter().map(|&s| side_summary(state, s)).collect() }
    }

    fn evaluate(&self, state: &State, side: Side) -> Option<f64> {
        if let Some(o) = &state.outcome {
            return Some(match o.winner {
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            });
        }
        // Half army morale kept, half strength kept, own against the enemy's.
        let kept = |s: Side| {
            let x = side_summary(state, s);
            let am = x.morale.unwrap_or(0.0) / f64::from(state.side(s).am_start.max(1));
            let sp = x.strength.unwrap_or(0.0) / x.strength_start.unwrap_or(1.0).max(1.0);
            0.5 * am + 0.5 * sp
        };
        Some((0.5 + 0.5 * (kept(side) - kept(side.other()))).clamp(0.0, 1.0))
    }
}

/// One side's losses and what it has left (units, strength points, army morale, generals).
pub fn side_summary(state: &State, side: Side) -> SideSummary {
    let mut x = SideSummary::new(side);
    let units = state.units.iter().filter(|u| u.side == side);
    let (mut start, mut lost, mut sp, mut sp_start) = (0u32, 0u32, 0u32, 0u32);
    let (mut fled, mut slaughtered, mut fleeing, mut rampaging) = (0u32, 0u32, 0u32, 0u32);
    for u in units {
        start += 1;
        sp_start += u32::from(u.s);
        match u.status {
            Status::Ready => sp += u32::from(u.sp),
            Status::Rampaging => {
                rampaging += 1;
                sp += u32::from(u.sp);
            }
            Status::Fleeing => {
                lost += 1;
                fleeing += 1;
            }
            Status::Gone => {
                lost += 1;
                match u.gone {
                    Some(crate::state::GoneHow::Slaughtered) => slaughtered += 1,
                    Some(crate::state::GoneHow::FledOff) => fled += 1,
                    _ => {}
                }
            }
        }
    }
    let s = state.side(side);
    x.units_start = Some(start);
    x.units_lost = Some(lost);
    x.strength = Some(f64::from(sp));
    x.strength_start = Some(f64::from(sp_start));
    x.morale = Some(f64::from(s.am));
    x.other.insert("army_morale_start".into(), f64::from(s.am_start));
    x.other.insert("units_fleeing".into(), f64::from(fleeing));
    x.other.insert("units_fled_off".into(), f64::from(fled));
    x.other.insert("units_slaughtered".into(), f64::from(slaughtered));
    x.other.insert("units_rampaging".into(), f64::from(rampaging));
    let general_lost = s.general.as_ref().is_some_and(|g| g.lost);
    x.other.insert("general_lost".into(), f64::from(u8::from(general_lost)));
    x
}
