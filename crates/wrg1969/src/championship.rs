//! A championship's finals: who plays which army in which round. Every army must be a
//! competition list within the 800-point limit, and each player must bring the same army to
//! every round (WRG-ARMY-02, WRG-ARMY-08).
//!
//! ```toml
//! ruleset = "wrg1969"
//! championship = "Finals"
//!
//! [[entry]]
//! player = "A. Player"
//! round = 1
//! army = "early_imperial_roman"   # a list in data/armies/
//! ```

use crate::Data;
use serde::Deserialize;
use tabletop::diagnostics::{Diagnostics, RULESET_KEY, Source, TomlDoc};

/// One player's army in one round.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The player.
    pub player: String,
    /// The round, from 1.
    pub round: u32,
    /// The army list's name (a file of `data/armies/` without `.toml`).
    pub army: String,
}

/// A checked championship.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Championship {
    /// Its name.
    pub name: String,
    /// The entries, as listed.
    pub entries: Vec<Entry>,
}

/// Reads and checks a championship file, reporting every problem with its line and column.
pub fn load(data: &Data, source: &Source) -> Result<Championship, Diagnostics> {
    let doc = TomlDoc::parse(source)?;
    let mut p = doc.problems();
    doc.check_top_level_keys(&[RULESET_KEY, "championship", "entry"], &mut p);
    doc.check_ruleset(crate::ID, &mut p);
    let name: Option<String> = doc.section("championship", &mut p);
    let entries: Vec<(usize, Entry)> = doc.array("entry", &mut p);
    for (i, e) in &entries {
        match crate::army::embedded(data, &e.army) {
            None => p.error(("entry", *i, "army"), format!("there is no army list `{}`", e.army)),
            Some(Err(_)) => {
                p.error(("entry", *i, "army"), format!("the army list `{}` is not valid", e.army))
            }
            Some(Ok(a)) if !a.competition => p.error(
                ("entry", *i, "army"),
                format!("[WRG-ARMY-02] `{}` is not a competition list", e.army),
            ),
            Some(Ok(_)) => {}
        }
        if let Some((_, first)) =
            entries.iter().find(|(_, o)| o.player == e.player && o.army != e.army)
        {
            p.error(
                ("entry", *i, "army"),
                format!(
                    "[WRG-ARMY-08] {} brings {} to round {} but {} to round {}: the same army in every round",
                    e.player, e.army, e.round, first.army, first.round
                ),
            );
        }
        if entries.iter().filter(|(_, o)| o.player == e.player && o.round == e.round).count() > 1 {
            p.error(
                ("entry", *i, "round"),
                format!("{} is entered twice in round {}", e.player, e.round),
            );
        }
    }
    let Some(name) = name else { return p.finish().and(Err(Diagnostics::default())) };
    p.finish_with(Championship { name, entries: entries.into_iter().map(|(_, e)| e).collect() })
}
