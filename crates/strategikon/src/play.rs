//! Playing one battle between two bots: the loop `battle` and `sim` share, so that game `i`
//! of a simulation is exactly `battle --seed` with that game's seed.

use crate::players;
use anyhow::anyhow;
use tabletop::host::{HostedBot, HostedGame};
use tabletop::rules::LogLine;
use tabletop::{Actor, Outcome};

/// Sees the battle as it is played.
pub trait Watch {
    /// The game after set-up, before any command.
    fn started(&mut self, _game: &dyn HostedGame) {}
    /// The game after a command, with the log lines it added (none when it is
    /// [`Watch::blind`]).
    fn after(&mut self, _game: &dyn HostedGame, _lines: &[LogLine]) {}
    /// Whether it reads neither the log lines nor the record: then the events are not
    /// narrated and the record's state hashes are not worked out.
    fn blind(&self) -> bool {
        false
    }
}

/// Watches nothing.
pub struct Blind;

impl Watch for Blind {
    fn blind(&self) -> bool {
        true
    }
}

/// How a battle stopped.
pub enum End {
    /// The rules ended it.
    Over(Outcome),
    /// It had not ended after the most commands allowed.
    Unfinished,
}

/// Plays `game`, just started with `seed`, between the bots (red first) until the rules end
/// it or `max_commands` have been given. A bot that proposes nothing or a refused command, or
/// a game where nobody may act but which is not over, is an error naming the side and the
/// command.
pub fn play(
    mut game: Box<dyn HostedGame>,
    seed: u64,
    bots: &mut [Box<dyn HostedBot>; 2],
    max_commands: usize,
    watch: &mut dyn Watch,
) -> anyhow::Result<(Box<dyn HostedGame>, End)> {
    let narrate = !watch.blind();
    game.set_hashing(narrate);
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
        let submitted = if narrate {
            game.submit(Actor::Side(side), command.clone())
        } else {
            game.submit_quietly(Actor::Side(side), command.clone()).map(|()| Vec::new())
        };
        let lines = submitted.map_err(|r| {
            anyhow!(
                "the {side} bot ({}) gave a command the rules refuse after {} commands: {command}: {r}",
                bot.describe(),
                game.command_count()
            )
        })?;
        watch.after(game.as_ref(), &lines);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::rulesets;
    use tabletop::Source;
    use tabletop::host::BotSpec;

    /// Watches the lines (and so the record).
    struct Reading(usize);

    impl Watch for Reading {
        fn after(&mut self, _game: &dyn HostedGame, lines: &[LogLine]) {
            self.0 += lines.len();
        }
    }

    /// A blind battle (a simulation's) neither narrates nor hashes, and is the same battle.
    #[test]
    fn a_blind_battle_skips_the_narration_and_the_hashes_and_plays_the_same() {
        let rules = rulesets().get("othw").expect("O/THW is hosted");
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/othw/open_field.toml");
        let source = Source::new(path, std::fs::read_to_string(path).expect("the scenario"));
        let specs = [BotSpec::named("scripted"), BotSpec::named("scripted")];
        let mut bots = players::make_pair(rules, &specs).expect("bots");
        let mut reading = Reading(0);
        let game = rules.new_game(source.clone(), 3).expect("a game");
        let (seen, _) = play(game, 3, &mut bots, 10_000, &mut reading).unwrap();
        let mut bots = players::make_pair(rules, &specs).expect("bots");
        let game = rules.load(source).expect("the scenario").new_game(3);
        let (blind, _) = play(game, 3, &mut bots, 10_000, &mut Blind).unwrap();
        assert!(reading.0 > 0, "the reading watch was given lines");
        let (seen, blind) = (seen.record(), blind.record());
        assert!(seen.commands.iter().all(|c| c.hash.is_some()));
        assert!(blind.commands.iter().all(|c| c.hash.is_none()));
        let commands = |r: &tabletop::game::Record| {
            r.commands.iter().map(|c| c.command.clone()).collect::<Vec<_>>()
        };
        assert_eq!(commands(&seen), commands(&blind));
    }
}
