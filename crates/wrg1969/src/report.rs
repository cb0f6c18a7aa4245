//! What a step of the period tells the battle log: a sentence, the rules it applied and the
//! dice it threw. The steps of a period return notes; the rule set turns each into a log line.

use serde::{Deserialize, Serialize};
use tabletop::dice::Roll;
use tabletop::rules::RuleId;

/// One thing that happened, in words, with its rules and dice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Note {
    /// The rules applied (one at least).
    pub rules: Vec<RuleId>,
    /// What happened, in a sentence.
    pub text: String,
    /// The dice thrown for it, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<Roll>,
}

impl Note {
    /// A note citing one rule, with no dice.
    pub fn new(rule: &'static str, text: impl Into<String>) -> Note {
        Note { rules: vec![RuleId::new(rule)], text: text.into(), rolls: vec![] }
    }

    /// The same note with dice.
    pub fn with_rolls(mut self, rolls: Vec<Roll>) -> Note {
        self.rolls = rolls;
        self
    }

    /// The same note citing a further rule.
    pub fn and(mut self, rule: &'static str) -> Note {
        self.rules.push(RuleId::new(rule));
        self
    }
}
