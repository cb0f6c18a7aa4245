//! The umpire: reads every command of a battle, the events it made and the state before and after,
//! and holds them to the rules' invariants. A violation is a bug, told with the command and
//! period where it happened, so the battle's seed reproduces it.
//!
//! What it checks:
//! - who may act: a side's orders, plans, dictations and break-offs name only its own units;
//! - every note cites a rule, every total's parts add up to it, and every die shows a face it has;
//! - every move (`Fact::Moved`) spends no more than its allowance, its standard travels no farther
//!   than it spent, and a unit's moves in a period chain from where it stood to where it ends;
//! - figures never grow, carried men stay below a figure, a unit with no figures carries none;
//! - no two units overlap on the table, except friends a router is bursting through;
//! - standards stay on the table; routers have no open order; pursuers pursue routers; a fallen
//!   General has joined no unit.
//!
//! [`play`] plays a battle between two bots under the umpire's eye and replays its record to the
//! same state.

use crate::Data;
use crate::report::{Fact, Note};
use crate::rules_impl::{Command, Event, Wrg1969};
use crate::state::{Motion, State};
use bots::Bot;
use std::sync::Arc;
use tabletop::Actor;
use tabletop::dice::{Die, SeededDice};
use tabletop::game::Game;
use tabletop::geometry::{Point, Rect};
use tabletop::rules::Side;

/// Slack for comparing inches.
const EPS: f64 = 1e-6;

/// How deep two footprints may sink into each other before it counts as overlapping (the
/// engine's contact tolerance, and rounding along a wheel).
const SINK: f64 = 0.02;

/// One rule broken.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// The command that broke it (its index in the game).
    pub command: usize,
    /// The period it was played in (0 while orders are written).
    pub period: u32,
    /// What was wrong.
    pub what: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "command {} (period {}): {}", self.command, self.period, self.what)
    }
}

/// The umpire's settings: which checks hold today.
#[derive(Clone, Copy, Debug)]
pub struct Umpire {
    /// Every unit whose standard moved must account for it with `Fact::Moved` notes that chain
    /// from where it stood to where it ends.
    pub moves_accounted: bool,
}

impl Default for Umpire {
    fn default() -> Self {
        Umpire { moves_accounted: true }
    }
}

/// One command as the umpire sees it: where it stands in the game, who gave it, the state
/// before, the events it made and the state after.
pub struct Step<'a> {
    /// Its index among the game's commands.
    pub index: usize,
    /// Who gave it.
    pub actor: Actor,
    /// The command.
    pub command: &'a Command,
    /// The state before it.
    pub before: &'a State,
    /// The events it made.
    pub events: &'a [Event],
    /// The state after it.
    pub after: &'a State,
}

impl Umpire {
    /// Checks one command, returning what it broke.
    pub fn check(&self, rules: &Wrg1969, step: &Step) -> Vec<Violation> {
        let Step { index, actor, command, before, events, after } = *step;
        let mut out = Vec::new();
        let mut bad = |what: String| {
            out.push(Violation { command: index, period: after.period, what });
        };
        check_actor(before, actor, command, &mut bad);
        let notes: Vec<&Note> = events
            .iter()
            .filter_map(|e| match e {
                Event::Noted(n) => Some(n),
                _ => None,
            })
            .collect();
        for n in &notes {
            check_note(n, &mut bad);
        }
        let played = events.iter().any(|e| matches!(e, Event::Resolved { .. }));
        if played {
            if after.period != before.period + 1 && after.period != before.period {
                bad(format!("the period went from {} to {}", before.period, after.period));
            }
            let data = rules.data_for(after);
            check_moves(before, after, &notes, self.moves_accounted, &mut bad);
            check_state(&data, before, after, &mut bad);
        } else if !notes.is_empty() {
            bad(format!("{} notes without a period played", notes.len()));
        }
        out
    }
}

/// A side's commands name only its own units (the umpire may name any).
fn check_actor(st: &State, actor: Actor, command: &Command, bad: &mut impl FnMut(String)) {
    let Actor::Side(side) = actor else { return };
    let own = |id: u16| st.units.get(id as usize).is_some_and(|u| u.side == side);
    let mut named = |what: &str, id: u16| {
        if !own(id) {
            bad(format!("{side}'s {what} names unit {id}, not its own"));
        }
    };
    match command {
        Command::Write { orders } => orders.iter().for_each(|w| named("written order", w.unit)),
        Command::Plan(p) => {
            p.moves.iter().for_each(|m| named("plan", m.unit));
            p.dictate.iter().for_each(|d| named("dictation", d.unit));
            p.break_off.iter().for_each(|&u| named("break-off", u));
            if let Some(j) = p.general.as_ref().and_then(|g| g.join) {
                named("General's ride", j);
            }
        }
    }
}

/// A note cites its rules, its totals add up, its dice show faces they have.
fn check_note(n: &Note, bad: &mut impl FnMut(String)) {
    if n.rules.is_empty() {
        bad(format!("a note cites no rule: {}", n.text));
    }
    for r in n.rules.iter().chain(n.totals.iter().flat_map(|t| t.parts.iter().map(|p| &p.rule))) {
        if !well_formed(r.as_str()) {
            bad(format!("a note cites '{r}', not a rule ID: {}", n.text));
        }
    }
    for t in &n.totals {
        if !t.adds_up() {
            let sum: f64 = t.parts.iter().map(|p| p.value).sum();
            bad(format!("{} is {} but its parts add up to {sum}: {}", t.what, t.value, n.text));
        }
    }
    for r in &n.rolls {
        let ok = match r.die {
            Die::D(sides) => (1..=sides).contains(&r.value),
            Die::Average => (2..=5).contains(&r.value),
        };
        if !ok {
            bad(format!("a {} shows {}: {}", r.die.name(), r.value, n.text));
        }
    }
}

/// `WRG-AREA-NN`, or a ruling `WRG-R-NN` / gap `WRG-M-NN`.
fn well_formed(id: &str) -> bool {
    let mut parts = id.split('-');
    let (Some("WRG"), Some(area), Some(num), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    !area.is_empty()
        && area.chars().all(|c| c.is_ascii_uppercase())
        && (2..=3).contains(&num.len())
        && num.chars().all(|c| c.is_ascii_digit())
}

/// Every move spends no more than its allowance and travels no farther than it spent; each
/// unit's moves chain from where it stood to where it ends.
fn check_moves(
    before: &State,
    after: &State,
    notes: &[&Note],
    accounted: bool,
    bad: &mut impl FnMut(String),
) {
    let mut last: Vec<Option<Point>> = vec![None; after.units.len()];
    for n in notes {
        // A unit coming back onto the table is placed there, and moves on from there.
        if let Some(Fact::Returned { unit, at }) = &n.fact {
            if let Some(slot) = last.get_mut(*unit as usize) {
                *slot = Some(*at);
            }
            continue;
        }
        let Some(Fact::Moved { unit, kind, from, to, spent, allowance }) = &n.fact else {
            continue;
        };
        let name = after.units.get(*unit as usize).map_or("?", |u| &u.name);
        if *spent > allowance + EPS {
            bad(format!("{name}'s {kind:?} move spends {spent}\" of {allowance}\": {}", n.text));
        }
        if from.distance(*to) > spent + EPS {
            bad(format!(
                "{name}'s {kind:?} move goes {:.3}\" but spends only {spent}\": {}",
                from.distance(*to),
                n.text
            ));
        }
        if let Some(t) = n.totals.iter().find(|t| t.what.contains("allowance"))
            && (t.value - allowance).abs() > EPS
        {
            bad(format!("{name}'s allowance is {allowance}\" but its total says {}", t.value));
        }
        let Some(slot) = last.get_mut(*unit as usize) else {
            bad(format!("a move of unit {unit}, which does not exist"));
            continue;
        };
        let start = slot.unwrap_or(before.units[*unit as usize].at);
        if accounted && start.distance(*from) > EPS {
            bad(format!("{name}'s move starts at {from:?}, but it stood at {start:?}"));
        }
        *slot = Some(*to);
    }
    if !accounted {
        return;
    }
    for (i, u) in after.units.iter().enumerate() {
        let b = &before.units[i];
        // Units coming back onto the table are placed, not moved.
        if !u.on_table() || !b.on_table() {
            continue;
        }
        let end = last[i].unwrap_or(b.at);
        if end.distance(u.at) > EPS {
            bad(format!(
                "{} moved from {:?} to {:?} but its moves account only for {:?}",
                u.name, b.at, u.at, end
            ));
        }
    }
}

/// The state after a period holds to the rules' bookkeeping.
fn check_state(data: &Data, before: &State, after: &State, bad: &mut impl FnMut(String)) {
    let per_figure = data.casualties.men_per_figure;
    let (w, h) = (after.table.width, after.table.height);
    for (i, u) in after.units.iter().enumerate() {
        let b = &before.units[i];
        if u.block.figures > b.block.figures {
            bad(format!("{} grew from {} to {} figures", u.name, b.block.figures, u.block.figures));
        }
        if u.carried >= per_figure {
            bad(format!("{} carry {} men, a whole figure or more", u.name, u.carried));
        }
        if u.block.figures == 0 && u.carried > 0 {
            bad(format!("{} have no figures left but carry {} men", u.name, u.carried));
        }
        if !u.on_table() {
            continue;
        }
        if u.at.x < -EPS || u.at.y < -EPS || u.at.x > w + EPS || u.at.y > h + EPS {
            bad(format!("{}'s standard is off the table at {:?} but it is in play", u.name, u.at));
        }
        if u.rout.is_some() && u.standing.order().is_some() {
            bad(format!("{} are routing but still hold an order", u.name));
        }
        if let Some(p) = u.pursuit {
            let t = &after.units[p.target as usize];
            if !t.on_table() || t.rout.is_none() {
                bad(format!("{} pursue {}, who are not running", u.name, t.name));
            }
        }
    }
    // No two units overlap, except friends a router bursts through.
    let feet: Vec<Option<Rect>> = after
        .units
        .iter()
        .map(|u| u.on_table().then(|| u.block.footprint(data, u.troop, u.at, u.facing).inset(SINK)))
        .collect();
    for (i, a) in feet.iter().enumerate() {
        let Some(a) = a else { continue };
        for (j, b) in feet.iter().enumerate().skip(i + 1) {
            let Some(b) = b else { continue };
            if !a.overlaps(b) {
                continue;
            }
            let (ui, uj) = (&after.units[i], &after.units[j]);
            let passing =
                |u: &crate::state::Unit| u.rout.is_some() || matches!(u.motion, Motion::Routing);
            if ui.side == uj.side && (passing(ui) || passing(uj)) {
                continue;
            }
            let whose = if ui.side == uj.side { "friends" } else { "enemies" };
            bad(format!("{} and {} overlap ({whose})", ui.name, uj.name));
        }
    }
    for g in &after.generals {
        if g.risk.fallen(data) && g.attached.is_some() {
            bad(format!("{}'s General has fallen but is still with a unit", g.side));
        }
    }
}

/// A battle played under the umpire's eye.
pub struct Checked {
    /// The game at its end.
    pub game: Game<Wrg1969>,
    /// Every rule broken.
    pub violations: Vec<Violation>,
    /// Whether the rules ended it (not the command limit).
    pub finished: bool,
}

/// Where the ready scenarios are (`scenarios/wrg1969` in the project).
pub const READY_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/wrg1969");

/// The ready scenarios' file names (`*.toml` in [`READY_DIR`]), sorted.
pub fn ready_scenarios() -> Vec<String> {
    tabletop::harness::toml_files(READY_DIR)
}

/// Plays a battle from `source` with `seed` between two bots (red, blue) under the umpire,
/// for at most `max_commands`; then replays its record and checks it reaches the same state.
pub fn play(
    rules: &Arc<Wrg1969>,
    source: &tabletop::Source,
    seed: u64,
    bots: [&mut dyn Bot<Wrg1969>; 2],
    umpire: Umpire,
    max_commands: usize,
) -> Result<Checked, String> {
    let mut game = Game::new(rules.clone(), source.clone(), seed).map_err(|d| d.to_string())?;
    let mut rngs = Side::BOTH.map(|s| SeededDice::new(seed ^ (0x9e37_79b9 + s.index() as u64)));
    let mut violations = Vec::new();
    while game.outcome().is_none() && game.command_count() < max_commands {
        let Some(&side) = game.pending().sides().first() else {
            return Err(format!("nobody may act after {} commands", game.command_count()));
        };
        let state = game.state();
        let command = bots[side.index()]
            .choose(rules, state, side, &mut rngs[side.index()])
            .map_err(|e| format!("the {side} bot: {e}"))?;
        let before = state.clone();
        let index = game.command_count();
        let events = game
            .submit(Actor::Side(side), command.clone())
            .map_err(|r| format!("the {side} bot's command was refused: {r}"))?
            .to_vec();
        let step = Step {
            index,
            actor: Actor::Side(side),
            command: &command,
            before: &before,
            events: &events,
            after: game.state(),
        };
        violations.extend(umpire.check(rules, &step));
    }
    let finished = game.outcome().is_some();
    let again = Game::replay(rules.clone(), &game.record()).map_err(|e| e.to_string())?;
    if again.state_hash() != game.state_hash() {
        violations.push(Violation {
            command: game.command_count(),
            period: game.state().period,
            what: "the record replays to a different state".into(),
        });
    }
    Ok(Checked { game, violations, finished })
}
