//! The rule sets this program hosts, and their referees.

use std::sync::OnceLock;
use tabletop::host::{Host, Registry};
use tabletop::{Diagnostic, Diagnostics, Source};

/// Every rule set the binary knows, by ID, each with its bots: `random` and `mcts` for every
/// rule set (from the `bots` crate), then the rule set's own scripted bots where it has them.
pub fn rulesets() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut r = Registry::new();
        r.add(Box::new(bots::with_standard_bots(Host::new(movement::Movement::new()))));
        r.add(Box::new(othw::search::register(bots::with_standard_bots(Host::new(
            othw::Othw::new(),
        )))));
        r
    })
}

/// Rule sets whose scenario and army-list files can be checked but which cannot be played yet.
pub const CHECK_ONLY: [&str; 1] = ["wrg1969"];

/// Checks a file of a check-only rule set; on success says what the file is.
pub fn check_only(id: &str, source: &Source) -> Result<String, Diagnostics> {
    match id {
        "wrg1969" => {
            let data = wrg1969::data::Data::embedded()?;
            if crate::files::top_level_string(&source.text, "prototype").is_some() {
                let army = wrg1969::army::load(&data, source)?;
                Ok(format!("wrg1969 army list, {} points", army.points))
            } else {
                wrg1969::scenario::load(&data, source)?;
                Ok("wrg1969 scenario; the rule set is not playable yet".into())
            }
        }
        other => Err(Diagnostics::from(Diagnostic::whole_file(
            source.name.clone(),
            format!("the rule set '{other}' cannot check files"),
        ))),
    }
}

/// The rule sets with a referee, by ID. The WRG 1969 referee answers before the rule set can
/// be played in full: tabletop players roll their own dice.
pub const REFEREES: [&str; 2] = ["movement", "wrg1969"];

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
        other => {
            check_referee(other)?;
            anyhow::bail!("the rule set '{other}' has no referee")
        }
    }
}
