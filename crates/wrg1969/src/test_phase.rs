//! The reaction tests of a period applied to the state: who must test, the dice thrown through
//! the game's [`DiceSource`], the situation read off the table, and what the result does to the
//! unit and its order (WRG-RT-02 .. -07, -11, WRG-RTP, WRG-RRES, WRG-R-18).

use crate::Data;
use crate::reaction::{Effect, OrderFate, Outcome, Running, Test, Trigger, work_out};
use crate::situation::read;
use crate::state::{Motion, State};
use serde::Serialize;
use std::collections::BTreeMap;
use tabletop::dice::{DiceSource, Roll};

/// A test taken.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Taken {
    /// The unit.
    pub unit: u16,
    /// Why it tested.
    pub trigger: Trigger,
    /// The dice.
    pub rolls: Vec<Roll>,
    /// The result.
    pub outcome: Outcome,
}

/// Units that come within 15" of an enemy for the first time (WRG-RT-02).
pub fn first_within_range(data: &Data, state: &State) -> Vec<u16> {
    let within = data.movement.distances.reaction_within;
    state
        .units
        .iter()
        .filter(|u| u.on_table() && !u.tested_within_range && u.motion != Motion::Routing)
        .filter(|u| {
            state
                .units
                .iter()
                .any(|e| e.side != u.side && e.on_table() && e.at.distance(u.at) <= within + 1e-9)
        })
        .map(|u| u.id)
        .collect()
}

/// Takes each unit's test, once per unit however many triggers it has (the first listed
/// stands for them), and applies the result: a break routs it and closes its order, a
/// retreat, retire, halt, fall-back or advance runs for its periods, "act as the C-in-C
/// wishes" asks its owner for an order, an uncontrolled advance cancels the order
/// (WRG-RRES-01 .. -10, WRG-R-18, WRG-CHORD-12). `under_attack` lists units under fire or
/// being charged this period.
pub fn take_tests(
    data: &Data,
    state: &mut State,
    triggers: &[(u16, Trigger)],
    under_attack: &[u16],
    dice: &mut dyn DiceSource,
) -> Vec<Taken> {
    let mut done: Vec<u16> = Vec::new();
    let mut out = Vec::new();
    for &(id, trigger) in triggers {
        if done.contains(&id) || state.units.get(id as usize).is_none_or(|u| !u.on_table()) {
            continue;
        }
        done.push(id);
        let u = &state.units[id as usize];
        let mut situation = read(data, state, u);
        if let Some(g) = state.generals.iter().find(|g| g.side == u.side) {
            situation.general_with_unit = g.attached == Some(id);
            situation.general_within =
                g.at.distance(u.at) <= data.movement.distances.reaction_within;
        }
        let count = crate::random::reaction_dice_count(data, u.start_figures, u.block.figures);
        let levy = u.levy;
        let (_, rolls) = crate::random::roll_reaction(data, u.status, levy, count, dice);
        let test = Test {
            class: u.class,
            status: u.status,
            levy,
            start_figures: u.start_figures,
            figures: u.block.figures,
            has_order: u.standing.order().is_some(),
            under_attack: under_attack.contains(&id),
            pursuing: false,
            situation,
            dice: rolls.iter().map(|r| r.value).collect(),
            signs: BTreeMap::new(),
        };
        let Ok(outcome) = work_out(data, &test) else { continue };
        let u = &mut state.units[id as usize];
        if trigger == Trigger::FirstContactRange {
            u.tested_within_range = true;
        }
        match outcome.order {
            OrderFate::Cancelled => u.standing.close(crate::orders::Closed::Displaced),
            OrderFate::Replaced => u.awaiting_order = true,
            OrderFate::Kept | OrderFate::Suspended => {}
        }
        match outcome.effect {
            Effect::Break => crate::state::break_unit(state, id),
            e => u.running = Running::start(e),
        }
        out.push(Taken { unit: id, trigger, rolls, outcome });
    }
    out
}
