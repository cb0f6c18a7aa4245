//! What Monte Carlo tree search may know of a WRG battle ([`WrgHooks`]) and [`register`], which
//! offers `mcts` on a [`Host`] with them.
//!
//! WRG hides each side's written orders, the orders its messengers carry, its pre-arranged
//! signals and its plan for the coming period from the other side (WRG-ORD-01, WRG-R-08). A
//! search that started from the true state would read them, so each iteration starts instead
//! from a state in which everything the searching side cannot see is drawn afresh from what it
//! can see ([`determinize`]): the enemy's units keep where they stand, their figures, whether
//! they run, pursue or carry out a result the log told; their orders are guessed as a general
//! of the period would write them, from the table alone.

use crate::bot::Scripted;
use crate::orders::{Order, Standing, Verb};
use crate::rules_impl::Wrg1969;
use crate::state::{State, Unit};
use bots::Hooks;
use std::sync::Arc;
use tabletop::SeededDice;
use tabletop::dice::{DiceSource, Die};
use tabletop::host::Host;
use tabletop::rules::Side;

/// The hooks of `mcts` on WRG 1969: it searches from states that show the searching side
/// only what it may see ([`determinize`]); everything else is the search's default.
#[derive(Clone, Copy, Debug, Default)]
pub struct WrgHooks;

impl Hooks<Wrg1969> for WrgHooks {
    fn determinize(
        &self,
        rules: &Wrg1969,
        state: &State,
        side: Side,
        rng: &mut SeededDice,
    ) -> State {
        determinize(rules, state, side, rng)
    }
}

/// What `side` cannot see of the other side, drawn afresh: every enemy unit's order (none for
/// a unit broken and running, which has none), its messengers in flight (dropped: they are
/// back by their General and free), its signals' orders (each taken to say "hold"), any order
/// on its way to a unit, and
/// its plan for the coming period if it has made one (the scripted general's plan from what
/// it would see). Nothing drawn depends on what was hidden: two states that differ only there
/// give the same state for the same `rng`.
pub fn determinize(rules: &Wrg1969, state: &State, side: Side, rng: &mut SeededDice) -> State {
    let enemy = side.other();
    let mut st = state.clone();
    let guesses: Vec<(u16, Option<Order>)> = st
        .units
        .iter()
        .filter(|u| u.side == enemy)
        .map(|u| (u.id, guess_order(&st, u, rng)))
        .collect();
    for (id, order) in guesses {
        let u = &mut st.units[id as usize];
        u.standing = match order {
            Some(order) => Standing::Active { order },
            None => Standing::Waiting,
        };
        u.incoming = None;
    }
    let riding = st.messengers.iter().filter(|m| m.side == enemy).count() as u32;
    st.messengers.retain(|m| m.side != enemy);
    // A side's messengers are all free or riding; how many are riding is hidden.
    st.free_messengers[enemy.index()] += riding;
    // Its signals are known to be there, not what they say: each is taken to say "hold".
    if let Some(s) = st.signals.get_mut(enemy.index()) {
        for (order, _) in s.iter_mut() {
            *order = Order::new(Verb::Hold { at: None });
        }
    }
    if st.plans[enemy.index()].is_some() {
        // The enemy has planned (that much is seen); what it planned is not.
        st.plans[enemy.index()] = None;
        let plan = Scripted.plan(rules, &st, enemy);
        st.plans[enemy.index()] = Some(plan);
    }
    st
}

/// An order a general of the period might have written for an enemy unit, guessed from the
/// table: units broken and running have none; engines hold; light troops with missiles
/// skirmish against one of the two nearest enemies; the rest attack one of the two nearest
/// enemies or hold, by the throw of a die.
fn guess_order(st: &State, u: &Unit, rng: &mut SeededDice) -> Option<Order> {
    if u.rout.is_some() || !u.on_table() {
        return None;
    }
    if u.troop.is_engine() {
        return Some(Order::new(Verb::Hold { at: None }));
    }
    let mut foes: Vec<(f64, u16)> = st
        .units
        .iter()
        .filter(|e| e.side != u.side && e.on_table() && e.rout.is_none())
        .map(|e| (e.at.distance(u.at), e.id))
        .collect();
    foes.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let throw = rng.face(Die::D6);
    let Some(&(_, near)) =
        foes.get(usize::from(throw.is_multiple_of(2)).min(foes.len().saturating_sub(1)))
    else {
        return Some(Order::new(Verb::Hold { at: None }));
    };
    let skirmisher = u.troop.is_light() && u.missile.is_some();
    Some(Order::new(match throw {
        _ if skirmisher => Verb::Skirmish { unit: near },
        1 | 2 => Verb::Hold { at: None },
        _ => Verb::Attack { unit: near },
    }))
}

/// Registers `mcts` with [`WrgHooks`] on a WRG 1969 host, in place of the search that knows
/// nothing of the rule set (call after `bots::with_standard_bots`).
pub fn register(host: Host<Wrg1969>) -> Host<Wrg1969> {
    bots::with_mcts_hooks(host, "mcts", Arc::new(WrgHooks))
}
