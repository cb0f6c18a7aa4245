//! The rule sets this program hosts, and their referees.

use std::sync::OnceLock;
use tabletop::host::{Host, Registry};
use tabletop::{Diagnostics, Source};

/// Every rule set the binary knows, by ID, each with its bots: `random` and `mcts` for every
/// rule set (from the `bots` crate), then the rule set's own scripted bots where it has them.
pub fn rulesets() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut r = Registry::new();
        r.add(Box::new(movement::bot::register(bots::with_standard_bots(Host::new(
            movement::Movement::new(),
        )))));
        r.add(Box::new(othw::search::register(bots::with_standard_bots(Host::new(
            othw::Othw::new(),
        )))));
        r.add(Box::new(wrg1969::bot::register(bots::with_standard_bots(Host::new(
            wrg1969::Wrg1969::new(),
        )))));
        r.add(Box::new(freemove::bot::register(bots::with_standard_bots(Host::new(
            freemove::Freemove::new(),
        )))));
        r.add(Box::new(liberal::bot::register(bots::with_standard_bots(Host::new(
            liberal::Liberal::new(),
        )))));
        r
    })
}

/// Whether a file of rule set `id` is a roster rather than a scenario: WRG 1969 army lists name
/// their `prototype`, championship entry lists their `championship`. Rosters are checked, not
/// played.
pub fn is_roster(id: &str, text: &str) -> bool {
    id == wrg1969::ID
        && ["prototype", "championship"]
            .iter()
            .any(|k| tabletop::diagnostics::top_level_string(text, k).is_some())
}

/// Checks a roster; on success says what it is.
pub fn check_roster(source: &Source) -> Result<String, Diagnostics> {
    let data = wrg1969::data::Data::embedded()?;
    if tabletop::diagnostics::top_level_string(&source.text, "championship").is_some() {
        let c = wrg1969::championship::load(&data, source)?;
        return Ok(format!("wrg1969 championship, {} entries", c.entries.len()));
    }
    let army = wrg1969::army::load(&data, source)?;
    Ok(format!("wrg1969 army list, {} points", army.points))
}

/// The rule sets with a referee, by ID: tabletop players roll their own dice and ask.
pub const REFEREES: [&str; 4] = ["movement", "wrg1969", "freemove", "liberal"];

/// Checks that `id` names a rule set with a referee, with a message listing those that have one.
pub fn check_referee(id: &str) -> anyhow::Result<()> {
    if REFEREES.contains(&id) {
        return Ok(());
    }
    if rulesets().get(id).is_some() {
        anyhow::bail!("the rule set '{id}' has no referee yet (referees: {})", REFEREES.join(", "))
    }
    anyhow::bail!("unknown rule set '{id}': rule sets with a referee are {}", REFEREES.join(", "))
}

/// Answers a referee question for the rule set `id`.
pub fn referee(id: &str, question: &serde_json::Value) -> anyhow::Result<serde_json::Value> {
    match id {
        "movement" => movement::referee::answer(question).map_err(|e| anyhow::anyhow!("{e}")),
        "wrg1969" => wrg1969::referee::answer(question).map_err(|e| anyhow::anyhow!("{e}")),
        "freemove" => freemove::referee::answer(question).map_err(|e| anyhow::anyhow!("{e}")),
        "liberal" => liberal::referee::answer(question).map_err(|e| anyhow::anyhow!("{e}")),
        other => {
            check_referee(other)?;
            anyhow::bail!("the rule set '{other}' has no referee")
        }
    }
}
