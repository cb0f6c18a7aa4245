//! Playing one battle between two bots: the loop `battle` and `sim` share, so that game `i`
//! of a simulation is exactly `battle --seed` with that game's seed.

use crate::players;
use anyhow::anyhow;
use tabletop::host::{HostedBot, HostedGame, HostedRuleSet};
use tabletop::rules::LogLine;
use tabletop::{Actor, Outcome, Source};

/// Sees the battle as it is played.
pub trait Watch {
    /// The game after set-up, before any command.
    fn started(&mut self, _game: &dyn HostedGame) {}
    /// The game after a command, with the log lines it added.
    fn after(&mut self, _game: &dyn HostedGame, _lines: &[LogLine]) {}
}

/// Watches nothing.
pub struct Blind;

impl Watch for Blind {}

/// How a battle stopped.
pub enum End {
    /// The rules ended it.
    Over(Outcome),
    /// It had not ended after the most commands allowed.
    Unfinished,
}

/// Plays the scenario with `seed` between the bots (red first) until the rules end it or
/// `max_commands` have been given. A bot that proposes nothing or a refused command, or a game
/// where nobody may act but which is not over, is an error naming the side and the command.
pub fn play(
    rules: &dyn HostedRuleSet,
    source: Source,
    seed: u64,
    bots: &mut [Box<dyn HostedBot>; 2],
    max_commands: usize,
    watch: &mut dyn Watch,
) -> anyhow::Result<(Box<dyn HostedGame>, End)> {
    let mut game = rules.new_game(source, seed).map_err(|d| anyhow!("{d}"))?;
    let mut rngs =
        [players::rng(seed, tabletop::Side::Red), players::rng(seed, tabletop::Side::Blue)];
    watch.started(game.as_ref());
    loop {
        if let Some(o) = game.outcome() {
            return Ok((game, End::Over(o)));
        }
        if game.command_count() >= max_commands {
            return Ok((game, End::Unfinished));
        }
        let pending = game.pending();
        let Some(&side) = pending.sides().first() else {
            return Err(anyhow!(
                "after {} commands nobody may act, but the battle is not over ({pending:?})",
                game.command_count()
            ));
        };
        let bot = &mut bots[side.index()];
        let command = bot
            .choose(game.as_ref(), side, &mut rngs[side.index()])
            .map_err(|e| anyhow!("the {side} bot ({}): {e}", bot.describe()))?;
        let lines = game.submit(Actor::Side(side), command.clone()).map_err(|r| {
            anyhow!(
                "the {side} bot ({}) gave a command the rules refuse after {} commands: {command}: {r}",
                bot.describe(),
                game.command_count()
            )
        })?;
        watch.after(game.as_ref(), &lines);
    }
}
