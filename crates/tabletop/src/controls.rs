//! What a player's client may offer one side at a moment of the battle: the units it may
//! command, each with its move allowance and a menu of legal actions, the actions that belong to
//! no unit, a command being drafted (written orders, a period's plan), the measurement of a
//! dragged move, and the side's roster sheet.
//!
//! Rule sets fill these in ([`crate::RuleSet::controls`], [`crate::RuleSet::measure`],
//! [`crate::RuleSet::roster`]); the browser client draws them without knowing the rule set. A
//! menu offers only what the rules allow now, and every entry names the rules it applies.
//!
//! # Drafts
//!
//! Some rule sets take one command for many units at once (WRG 1969's written orders and each
//! period's plan). Their controls carry a [`Draft`]: the command as it stands, and actions whose
//! [`Effect::Draft`] puts a part into it (a unit's order, a unit's step) at a JSON pointer. The
//! client keeps the draft, shows it, and sends it whole when the player is ready; the server
//! checks it like any command.

use crate::geometry::{Facing, Point};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An entry of a menu: a legal command, or a part of the command being drafted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Action {
    /// What the entry says ("Charge the Gallic warband", "End the phase").
    pub label: String,
    /// The rule IDs it applies.
    pub rules: Vec<String>,
    /// What choosing it does.
    pub effect: Effect,
}

impl Action {
    /// An action that sends `command` as it is.
    pub fn send(label: impl Into<String>, rules: &[&str], command: Value) -> Action {
        Action {
            label: label.into(),
            rules: rules.iter().map(|r| r.to_string()).collect(),
            effect: Effect::Send { command },
        }
    }

    /// An action that puts `value` into the draft at JSON pointer `at` (see [`Effect::Draft`]).
    pub fn draft(
        label: impl Into<String>,
        rules: &[&str],
        at: impl Into<String>,
        key: Option<&str>,
        value: Value,
    ) -> Action {
        Action {
            label: label.into(),
            rules: rules.iter().map(|r| r.to_string()).collect(),
            effect: Effect::Draft { at: at.into(), key: key.map(str::to_string), value },
        }
    }
}

/// What choosing an [`Action`] does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Effect {
    /// Send this command (the rule set's JSON form) now.
    Send {
        /// The command.
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
        command: Value,
    },
    /// Put `value` into the draft command at the JSON pointer `at` (RFC 6901). Where `at` names
    /// an array and `key` is given, the entry whose field `key` equals `value[key]` is replaced
    /// (or `value` appended if there is none). Otherwise the value at `at` is set (see
    /// [`apply_draft`]).
    Draft {
        /// Where in the draft, as a JSON pointer (`/plan/moves`).
        at: String,
        /// The field that identifies an array's entry (`unit`).
        #[cfg_attr(feature = "ts", ts(optional))]
        key: Option<String>,
        /// The part.
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
        value: Value,
    },
}

/// Puts `value` into `draft` at the JSON pointer `at`, as [`Effect::Draft`] says (the browser
/// client does the same in `draft.js`): in an array with `key`, the entry whose `key` matches
/// is replaced (appended when there is none; a value without the key field is ignored); a
/// field missing from an object is added; otherwise the value at `at` is set. Returns false,
/// leaving `draft` alone, where `at` names nothing the draft can hold.
pub fn apply_draft(draft: &mut Value, at: &str, key: Option<&str>, value: &Value) -> bool {
    let Some(slot) = draft.pointer_mut(at) else {
        // A field not yet present in an object: set it in its parent.
        let Some((parent, field)) = at.rsplit_once('/') else { return false };
        let Some(Value::Object(map)) = draft.pointer_mut(parent) else { return false };
        map.insert(field.replace("~1", "/").replace("~0", "~"), value.clone());
        return true;
    };
    match (slot, key) {
        (Value::Array(items), Some(k)) => {
            let Some(id) = value.get(k) else { return true };
            match items.iter().position(|e| e.get(k) == Some(id)) {
                Some(i) => items[i] = value.clone(),
                None => items.push(value.clone()),
            }
        }
        (slot, _) => *slot = value.clone(),
    }
    true
}

/// A command being drafted over several choices, sent whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Draft {
    /// The command as it stands before any choice (every unit left to its orders, say).
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub command: Value,
    /// The label of the button that sends it ("Send the written orders").
    pub label: String,
    /// The rules that govern it.
    pub rules: Vec<String>,
}

/// How a unit may be dragged on the table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Drag {
    /// It cannot be moved by dragging now.
    #[default]
    None,
    /// Anywhere on the table: the client asks the server to measure the move as it is dragged
    /// ([`Measurement`]) and sends the measured action when it is dropped.
    Free,
    /// Onto one of these squares of the grid (several entries for one square: the client asks
    /// which, a facing say).
    Squares {
        /// The squares it may end on, each with what ending there does.
        targets: Vec<SquareTarget>,
    },
}

/// A square a unit may be dragged to on a grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SquareTarget {
    /// The column (0 is the west edge).
    pub col: u32,
    /// The row (0 is the south edge).
    pub row: u32,
    /// What dropping the unit there does.
    pub action: Action,
}

/// One unit the side may command now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct UnitControl {
    /// The unit's ID (its piece in the scene has the same [`crate::render::Piece::id`]).
    pub unit: String,
    /// Its name.
    pub label: String,
    /// Its move allowance now, in the rule set's measure (inches, or squares on a grid).
    #[cfg_attr(feature = "ts", ts(optional))]
    pub allowance: Option<f64>,
    /// The allowance and what sets it, in words (`12" (light horse, MOV-RATE-01)`).
    pub allowance_text: String,
    /// How it may be dragged.
    pub drag: Drag,
    /// Its menu: everything else it may do now.
    pub actions: Vec<Action>,
}

/// What the client may offer one side now.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Controls {
    /// What the side is deciding, in words.
    pub prompt: String,
    /// The units it may command.
    pub units: Vec<UnitControl>,
    /// Actions that belong to no one unit (end the phase, a general's reroll, a signal).
    pub actions: Vec<Action>,
    /// The command being drafted, where the rule set takes one for many units.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub draft: Option<Draft>,
}

/// The measurement of a move dragged to a point: how far, what it costs, how much of it the
/// allowance covers, and what dropping there would do (or the rule that forbids it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Measurement {
    /// The unit.
    pub unit: String,
    /// The path measured, from where the unit stands (the point the rule set measures from) to
    /// the drop point.
    #[cfg_attr(feature = "ts", ts(type = "Array<{ x: number, y: number }>"))]
    pub path: Vec<Point>,
    /// The path's length, in inches.
    pub length: f64,
    /// The allowance the path uses, terrain and turns counted.
    pub cost: f64,
    /// The unit's allowance.
    pub allowance: f64,
    /// How far along the path the allowance lasts, in inches (the path's length if it covers
    /// all of it): the client draws the path green up to here and red beyond.
    pub within: f64,
    /// What the measurement counted, each naming its rule (`wood: 3" at double cost [MOV-TERR-02]`).
    pub notes: Vec<String>,
    /// What dropping the unit here does, if the rules allow it.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub action: Option<Action>,
    /// Why the rules do not allow it: the rule's ID.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub rule: Option<String>,
    /// Why the rules do not allow it, in words.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub reason: Option<String>,
}

/// A request to measure a dragged move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeasureRequest {
    /// The unit dragged.
    pub unit: String,
    /// Where its centre is dropped.
    pub to: Point,
    /// The facing it would end with; `None` keeps its facing.
    pub facing: Option<Facing>,
}

/// A line of a side's roster sheet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RosterRow {
    /// The side (`red` or `blue`).
    pub side: String,
    /// The unit's ID.
    pub unit: String,
    /// Its name.
    pub label: String,
    /// Its troop type or profile.
    pub kind: String,
    /// Its strength now, in the rule set's measure (figures, strength points).
    pub strength: String,
    /// Losses so far (casualties, hits).
    pub losses: String,
    /// Its state (formed, shaken, routing, fled, its orders where the viewer may see them).
    pub state: String,
}

#[cfg(test)]
mod tests {
    use super::apply_draft;
    use serde_json::json;

    #[test]
    fn a_keyed_part_replaces_its_entry_or_is_appended_or_removes_it() {
        let mut d = json!({"moves": [{"unit": 1, "step": "halt"}]});
        assert!(apply_draft(&mut d, "/moves", Some("unit"), &json!({"unit": 1, "step": "form"})));
        assert!(apply_draft(&mut d, "/moves", Some("unit"), &json!({"unit": 2, "step": "halt"})));
        assert_eq!(d, json!({"moves": [{"unit": 1, "step": "form"}, {"unit": 2, "step": "halt"}]}));
        // A null value names no entry: nothing is removed.
        assert!(apply_draft(&mut d, "/moves", Some("unit"), &json!(null)));
        assert_eq!(d["moves"].as_array().map(Vec::len), Some(2));
    }

    #[test]
    fn a_field_is_set_or_added_and_a_pointer_into_nothing_changes_nothing() {
        let mut d = json!({"plan": {"general": null}});
        assert!(apply_draft(&mut d, "/plan/general", None, &json!({"x": 1.0})));
        assert!(apply_draft(&mut d, "/plan/signal", None, &json!("advance")));
        assert_eq!(d, json!({"plan": {"general": {"x": 1.0}, "signal": "advance"}}));
        let before = d.clone();
        assert!(!apply_draft(&mut d, "/nowhere/deep", None, &json!(1)));
        assert_eq!(d, before);
    }
}
