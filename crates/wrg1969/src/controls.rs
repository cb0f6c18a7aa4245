//! What the browser client may offer a WRG 1969 side ([`tabletop::controls`]): before the
//! battle, the written orders as a draft with a menu of legal orders per unit
//! (WRG-ORD-01 .. -14); each period, the secret plan as a draft with each unit's legal steps,
//! its move allowance and free drags measured over the table, the orders the General may
//! dictate, his signals and his ride (WRG-R-08, WRG-MOVE, WRG-CHORD); and the roster sheet as
//! a viewer may see it (never the other side's orders).
//!
//! Every action is offered only when the rule set's own `check` accepts the draft with it; the
//! measurement of a dragged move asks the same check for its verdict and the movement code's
//! ground model ([`crate::ground`]) for its cost.

mod measure;
mod orders;
mod plan;
mod roster;

pub use measure::measure;
pub use roster::roster;

use crate::rules_impl::{Command, Wrg1969};
use crate::state::State;
use serde_json::Value;
use tabletop::controls::Controls;
use tabletop::rules::{Actor, RuleSet, Side};

/// What `side` may do now: write its orders, plan the coming period, or wait.
pub fn controls(rules: &Wrg1969, st: &State, side: Side) -> Controls {
    let pending = rules.pending(st);
    let mut out = Controls { prompt: pending.what().to_string(), ..Controls::default() };
    if !pending.sides().contains(&side) {
        out.prompt = if rules.outcome(st).is_some() {
            "the battle is over".into()
        } else {
            format!("wait for {} to {}", side.other(), pending.what())
        };
        return out;
    }
    if !crate::state::waiting(st).is_empty() {
        orders::write_controls(rules, st, side, &mut out);
    } else {
        plan::plan_controls(rules, st, side, &mut out);
    }
    out
}

/// Whether the side's command `draft` (JSON) passes `check`.
fn passes(rules: &Wrg1969, st: &State, side: Side, draft: &Value) -> bool {
    serde_json::from_value::<Command>(draft.clone())
        .is_ok_and(|c| rules.check(st, Actor::Side(side), &c).is_ok())
}

/// A troop type in words ("heavy infantry").
fn troop_words(t: crate::model::TroopType) -> String {
    t.to_string().replace('_', " ")
}

/// A unit's name by its id, for labels.
fn unit_name(st: &State, id: u16) -> String {
    st.units.get(id as usize).map_or_else(|| format!("unit {id}"), |u| u.name.to_string())
}
