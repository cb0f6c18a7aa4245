//! A scripted WRG 1969 player ([`Scripted`]) and [`register`], which offers it on a [`Host`].
//!
//! It plays as a general of the period must: it writes every unit an order before the battle
//! and afterwards changes orders only as the rules let it, by messenger or signal (or at once to
//! a unit that awaits an order after its test, or the unit its General is with), moving units
//! in its plan only within their orders. It reads only what its side may see: the view of the
//! state for its side (its own orders, never the enemy's) and the table, objectives and army
//! lists that both players know. What it does is told in [`crate::general`]: a battle plan in
//! lanes with a reserve, a screen and archers behind the line; each period new tasks, the
//! reserve committed, ways round friends, break-offs, stances and the General's ride.
//!
//! It draws nothing from its generator: it is deterministic.

use crate::plan::Plan;
use crate::rules_impl::{Command, Wrg1969};
use crate::state::{State, Written};
use bots::{Bot, BotError, Hosted};
use tabletop::SeededDice;
use tabletop::host::{BotSpec, Host, HostedBot};
use tabletop::rules::{Actor, RuleSet, Side};

/// What the scripted player is, for bot listings.
pub const SCRIPTED_ABOUT: &str = "a scripted WRG 1969 general: lanes, a reserve, a screen and \
    archers behind the line; orders changed only by messenger or signal; steps round friends, \
    breaks off lost fights, keeps its General safe";

/// The scripted player.
#[derive(Clone, Debug, Default)]
pub struct Scripted;

impl Scripted {
    /// The orders written before the battle (see [`crate::general::write`]).
    pub fn write(&self, rules: &Wrg1969, st: &State, side: Side) -> Vec<Written> {
        crate::general::write::write(rules, st, side)
    }

    /// The plan for the coming period (see [`crate::general::period`]).
    pub fn plan(&self, rules: &Wrg1969, st: &State, side: Side) -> Plan {
        crate::general::period::plan(rules, st, side)
    }
}

impl Bot<Wrg1969> for Scripted {
    fn describe(&self) -> String {
        "scripted".into()
    }

    fn choose(
        &mut self,
        rules: &Wrg1969,
        state: &State,
        side: Side,
        _rng: &mut SeededDice,
    ) -> Result<Command, BotError> {
        let command = if crate::state::waiting(state).contains(&side) {
            Command::Write { orders: self.write(rules, state, side) }
        } else {
            Command::Plan(self.plan(rules, state, side))
        };
        if rules.check(state, Actor::Side(side), &command).is_ok() {
            return Ok(command);
        }
        // Each part was checked alone; should they clash, the plan without its moves, and at
        // worst an empty plan, which is always allowed while the side has to plan.
        if let Command::Plan(p) = &command {
            let lean = Command::Plan(Plan { moves: Vec::new(), ..p.clone() });
            if rules.check(state, Actor::Side(side), &lean).is_ok() {
                return Ok(lean);
            }
        }
        Ok(Command::Plan(Plan::default()))
    }

    /// It keeps nothing between choices.
    fn reusable(&self) -> bool {
        true
    }
}

/// Registers the scripted player as `scripted` and the search as `mcts` (with
/// [`crate::search::WrgHooks`]) on a WRG 1969 host (call after `bots::with_standard_bots`).
pub fn register(host: Host<Wrg1969>) -> Host<Wrg1969> {
    let host = host.with_bot("scripted", SCRIPTED_ABOUT, |spec: &BotSpec| {
        spec.only(&[])?;
        Ok(Box::new(Hosted::<Wrg1969, _>::new(Scripted)) as Box<dyn HostedBot>)
    });
    // `mcts` searching only what its side may see (WRG-ORD-01, WRG-R-08).
    crate::search::register(host)
}
