//! Rule-set-independent bots for Strategikon.
//!
//! A [`Bot`] commands one side of any [`RuleSet`]: it reads the state and proposes a command.
//! Two bots work for every rule set:
//!
//! - [`RandomBot`] picks uniformly among the legal commands (or, for continuous rule sets, the
//!   sampled candidates);
//! - [`Mcts`] searches with Monte Carlo tree search (UCT) over the same commands, with an
//!   iteration or a wall-time budget, random (or supplied) play-outs and a heuristic
//!   evaluation where a play-out stops before the battle ends. See [`mcts`].
//!
//! [`with_standard_bots`] registers both, under the names `random` and `mcts`, on a
//! [`Host`], so the CLI and the server can make them by name for any hosted rule set.
//!
//! Every bot draws all its randomness from the generator it is handed, never from a global
//! one, so a battle between bots is reproducible from its seed (a wall-time budget is the one
//! exception: how far a search gets in a given time depends on the machine).
//!
//! # Hidden information
//!
//! Bots are handed the full state for now. For rule sets with hidden information (written
//! orders, unseen units), a bot must only read what `rules.view(state, Viewer::Side(side))`
//! shows its side; [`Mcts`] searches from a state drawn by [`Hooks::determinize`] on each
//! iteration, which such a rule set overrides to sample what its side cannot see.

pub mod mcts;

pub use mcts::{Budget, DefaultHooks, Hooks, Mcts, MctsConfig, SearchStats};

use std::marker::PhantomData;
use std::sync::Arc;
use tabletop::SeededDice;
use tabletop::host::{BotSpec, Host, HostedBot, HostedGame, game_of};
use tabletop::rules::{Actor, Refusal, RuleSet, Side};

/// Why a bot could not propose a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// The side must act but the rule set offers it no command at all.
    #[error("the {0} side must act but the rule set offers it no command")]
    NoCommand(Side),
}

/// A bot that commands one side of a rule set.
///
/// Bots are handed the whole state; for hidden-information rule sets they must only read
/// `rules.view(state, Viewer::Side(side))` (see the crate documentation).
pub trait Bot<R: RuleSet>: Send {
    /// What the bot is, with its settings, for logs and reports.
    fn describe(&self) -> String;

    /// The command `side` gives now. All randomness comes from `rng`.
    fn choose(
        &mut self,
        rules: &R,
        state: &R::State,
        side: Side,
        rng: &mut SeededDice,
    ) -> Result<R::Command, BotError>;

    /// True when the bot, kept from one game to the next, chooses exactly as a new bot with
    /// the same settings would: a simulation may then keep it rather than make a new one for
    /// every game (and keep the buffers and tables it has built). False unless a bot says so.
    fn reusable(&self) -> bool {
        false
    }
}

/// The commands a bot chooses among: every legal command where the rule set lists them,
/// otherwise a sample of candidates drawn with `rng`.
pub fn options<R: RuleSet>(
    rules: &R,
    state: &R::State,
    side: Side,
    rng: &mut SeededDice,
) -> Vec<R::Command> {
    match rules.legal_commands(state, side) {
        Some(legal) => legal,
        None => rules.candidates(state, side, rng),
    }
}

/// Checks, executes and applies `command` for `side` on `state`, rolling dice from `dice`: a
/// bot's look-ahead step. On refusal the state is unchanged.
pub fn step<R: RuleSet>(
    rules: &R,
    state: &mut R::State,
    side: Side,
    command: &R::Command,
    dice: &mut SeededDice,
) -> Result<(), Refusal> {
    let actor = Actor::Side(side);
    rules.check(state, actor, command)?;
    rules.perform(state, actor, command, dice)?;
    Ok(())
}

/// Picks uniformly among the legal commands, or the sampled candidates of a continuous rule
/// set.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl<R: RuleSet> Bot<R> for RandomBot {
    fn describe(&self) -> String {
        "random".into()
    }

    fn choose(
        &mut self,
        rules: &R,
        state: &R::State,
        side: Side,
        rng: &mut SeededDice,
    ) -> Result<R::Command, BotError> {
        let mut all = options(rules, state, side, rng);
        if all.is_empty() {
            return Err(BotError::NoCommand(side));
        }
        let i = rng.below(all.len() as u32) as usize;
        Ok(all.swap_remove(i))
    }

    /// It keeps nothing: every choice comes from the state and the generator.
    fn reusable(&self) -> bool {
        true
    }
}

/// A typed [`Bot`] behind the host's [`HostedBot`] interface: it finds the concrete game
/// behind the hosted one and answers in JSON.
pub struct Hosted<R: RuleSet, B: Bot<R>> {
    bot: B,
    rules: PhantomData<fn() -> R>,
}

impl<R: RuleSet, B: Bot<R>> Hosted<R, B> {
    /// Wraps `bot`.
    pub fn new(bot: B) -> Self {
        Hosted { bot, rules: PhantomData }
    }
}

impl<R: RuleSet, B: Bot<R>> HostedBot for Hosted<R, B> {
    fn describe(&self) -> String {
        self.bot.describe()
    }

    fn choose(
        &mut self,
        game: &dyn HostedGame,
        side: Side,
        rng: &mut SeededDice,
    ) -> Result<serde_json::Value, String> {
        let Some(game) = game_of::<R>(game) else {
            return Err("the bot was made for another rule set than this game's".into());
        };
        let command =
            self.bot.choose(game.rules(), game.state(), side, rng).map_err(|e| e.to_string())?;
        serde_json::to_value(&command).map_err(|e| format!("the command does not serialise: {e}"))
    }

    fn reusable(&self) -> bool {
        self.bot.reusable()
    }
}

/// What `random` says of itself in listings.
pub const RANDOM_ABOUT: &str = "picks uniformly among the legal (or sampled candidate) commands";

/// What `mcts` says of itself in listings.
pub const MCTS_ABOUT: &str = "Monte Carlo tree search; parameters: a bare budget (2000 iterations, \
or a time such as 2s or 500ms), iterations=N, time=T, depth=N (play-out length), c=X (exploration), \
widen=X (candidates per visit, continuous rule sets)";

/// Registers `random` and `mcts` (with the default [`Hooks`]) on a host.
pub fn with_standard_bots<R: RuleSet>(host: Host<R>) -> Host<R> {
    with_mcts_hooks(
        host.with_bot("random", RANDOM_ABOUT, |spec: &BotSpec| {
            spec.only(&[])?;
            Ok(Box::new(Hosted::<R, _>::new(RandomBot)) as Box<dyn HostedBot>)
        }),
        "mcts",
        Arc::new(DefaultHooks),
    )
}

/// Registers an MCTS bot under `name` that searches with the rule set's own `hooks`
/// (determinization, evaluation, play-out policy).
pub fn with_mcts_hooks<R: RuleSet>(host: Host<R>, name: &str, hooks: Arc<dyn Hooks<R>>) -> Host<R> {
    host.with_bot(name, MCTS_ABOUT, move |spec: &BotSpec| {
        let config = MctsConfig::from_spec(spec)?;
        Ok(Box::new(Hosted::new(Mcts::with_hooks(config, hooks.clone()))) as Box<dyn HostedBot>)
    })
}
