//! The rule sets this program hosts, and their referees.

use std::sync::Arc;
use tabletop::host::{Host, Registry};

/// Every rule set the binary knows, by ID.
pub fn rulesets() -> Registry {
    let mut r = Registry::new();
    r.add(Box::new(Host(Arc::new(movement::Movement::new()))));
    r
}

/// Answers a referee question for the rule set `id`, or says the rule set has no referee.
pub fn referee(id: &str, question: &serde_json::Value) -> anyhow::Result<serde_json::Value> {
    match id {
        "movement" => movement::referee::answer(question).map_err(|e| anyhow::anyhow!("{e}")),
        other => {
            let known = rulesets();
            if known.get(other).is_some() {
                anyhow::bail!("the rule set '{other}' has no referee yet")
            }
            anyhow::bail!("unknown rule set '{other}': known rule sets are {}", known.ids())
        }
    }
}
