//! The bots the CLI can put in command of a side.

use anyhow::bail;
use tabletop::host::HostedGame;
use tabletop::{SeededDice, Side};

/// A bot, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bot {
    /// Picks uniformly among the rule set's candidate commands.
    Random,
}

/// The bot with this name.
pub fn by_name(name: &str) -> anyhow::Result<Bot> {
    match name {
        "random" => Ok(Bot::Random),
        other => bail!("unknown bot '{other}': known bots are random"),
    }
}

impl Bot {
    /// The bot's command for `side`.
    pub fn choose(
        self,
        game: &dyn HostedGame,
        side: Side,
        rng: &mut SeededDice,
    ) -> anyhow::Result<serde_json::Value> {
        match self {
            Bot::Random => {
                let mut options = game.candidates(side, rng);
                if options.is_empty() {
                    bail!("{side} must act but the rule set offers no command");
                }
                let i = rng.below(options.len() as u32) as usize;
                Ok(options.swap_remove(i))
            }
        }
    }
}
