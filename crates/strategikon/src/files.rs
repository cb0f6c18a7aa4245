//! Reading the user's files: which rule set a scenario belongs to, and records.

use anyhow::{Context, bail};
use std::path::Path;
use tabletop::host::{HostedRuleSet, Registry};
use tabletop::{Record, Source};

use tabletop::diagnostics::declared_ruleset;

/// What a file on the command line holds.
pub enum Loaded<'r> {
    /// A scenario (TOML) for a rule set.
    Scenario(&'r dyn HostedRuleSet, Source),
    /// A game record (JSON).
    Record(&'r dyn HostedRuleSet, Record),
    /// A WRG 1969 army list or championship entry list (TOML), checked but not played.
    Roster(Source),
}

/// Reads a file and decides what it is: a `.json` file is a game record; anything else is a
/// scenario whose rule set is named by its top-level `ruleset = "…"` key, or failing that by a
/// folder of its path named after a rule set (`scenarios/movement/…`).
pub fn load<'r>(path: &Path, registry: &'r Registry) -> anyhow::Result<Loaded<'r>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{}: cannot read the file", path.display()))?;
    let name = path.display().to_string();
    if path.extension().is_some_and(|e| e == "json") {
        let record: Record = serde_json::from_str(&text).map_err(|e| {
            anyhow::anyhow!("{name}:{}:{}: not a game record: {e}", e.line(), e.column())
        })?;
        let rules = registry.get(&record.ruleset).with_context(|| {
            format!(
                "{name}: the record is for rule set '{}', which this program does not know (known: {})",
                record.ruleset,
                registry.ids()
            )
        })?;
        return Ok(Loaded::Record(rules, record));
    }
    let id = declared_ruleset(&text).or_else(|| {
        path.ancestors()
            .filter_map(|a| a.file_name()?.to_str())
            .find(|n| registry.get(n).is_some())
            .map(str::to_string)
    });
    let Some(id) = id else {
        bail!(
            "{name}: cannot tell which rule set this scenario is for: add a line `ruleset = \"…\"` \
             at the top (known: {})",
            registry.ids()
        );
    };
    if crate::registry::is_roster(&id, &text) {
        return Ok(Loaded::Roster(Source::new(name, text)));
    }
    if let Some(rules) = registry.get(&id) {
        return Ok(Loaded::Scenario(rules, Source::new(name, text)));
    }
    bail!("{name}: unknown rule set '{id}' (known: {})", registry.ids())
}
