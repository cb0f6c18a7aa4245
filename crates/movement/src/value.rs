//! How a position stands for a side, for search bots that stop looking ahead before the game
//! ends ([`tabletop::rules::RuleSet::evaluate`]). Not a rule: the chapter decides nothing by
//! it. The game is won by the objectives held at the end (MOV-GAME-END, a project rule), so
//! the value is mostly who is closer to each objective, and partly what each side has left to
//! hold them with.

use crate::model::MoraleState;
use crate::state::{State, Unit};
use tabletop::Side;

/// How far (inches) one side must be nearer an objective than the other for the objective to
/// count about three quarters to it.
const NEARER_BY: f64 = 6.0;

/// The share of the value given to the objectives (the rest is the strength left).
const OBJECTIVES_SHARE: f64 = 0.65;

/// What a unit is worth in a fight: its stands, less as its morale falls; nothing once driven
/// off.
fn strength(u: &Unit) -> f64 {
    if u.driven_off || u.is_personality() {
        return 0.0;
    }
    let morale = match u.morale {
        MoraleState::Firm => 1.0,
        MoraleState::Checked => 0.85,
        MoraleState::Shaken => 0.6,
        MoraleState::Broken => 0.3,
    };
    u.stands.len().max(1) as f64 * morale
}

/// How far a side's nearest fighting unit is from an objective's edge (0 inside it).
fn reach(state: &State, side: Side, at: tabletop::Point, radius: f64) -> f64 {
    state
        .units_of(side)
        .filter(|u| strength(u) > 0.0)
        .flat_map(|u| u.stands.iter())
        .map(|s| (s.rect.distance_to_point(at) - radius).max(0.0))
        .fold(f64::INFINITY, f64::min)
}

/// The value of an unfinished position for `side`, from 0 to 1.
pub fn position_value(state: &State, side: Side) -> f64 {
    let total = |s: Side| state.units_of(s).map(strength).sum::<f64>();
    let (own, enemy) = (total(side), total(side.other()));
    let share = if own + enemy > 0.0 { own / (own + enemy) } else { 0.5 };
    if state.objectives.is_empty() {
        return share;
    }
    let objectives = state
        .objectives
        .iter()
        .map(|o| {
            let (mine, theirs) =
                (reach(state, side, o.at, o.radius), reach(state, side.other(), o.at, o.radius));
            match (mine.is_finite(), theirs.is_finite()) {
                (true, true) => 1.0 / (1.0 + (-(theirs - mine) / (NEARER_BY / 1.1)).exp()),
                (true, false) => 1.0,
                (false, true) => 0.0,
                (false, false) => 0.5,
            }
        })
        .sum::<f64>()
        / state.objectives.len() as f64;
    (OBJECTIVES_SHARE * objectives + (1.0 - OBJECTIVES_SHARE) * share).clamp(0.0, 1.0)
}
