//! The `RuleSet` interface every rule set implements, and the vocabulary it shares: sides,
//! actors and viewers, rule IDs, refusals, pending decisions and outcomes.
//!
//! The flow of a command is check → execute → events → apply. `check` refuses an illegal
//! command with the rule that forbids it; `execute` reads the state and the dice and returns
//! events; only `apply` changes the state, one event at a time. A refused command therefore
//! never changes anything.

use crate::controls::{Action, Controls, MeasureRequest, Measurement, RosterRow};
use crate::diagnostics::{Diagnostics, Source};
use crate::dice::{DiceSource, SeededDice};
use crate::render::Scene;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

/// A rule's ID from a digest's checklist, such as `MOV-TER-07`: what every event and refusal
/// cites so a player can check the computer against the book.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RuleId(pub Cow<'static, str>);

impl RuleId {
    /// A rule ID from a static string (no allocation).
    pub const fn new(id: &'static str) -> RuleId {
        RuleId(Cow::Borrowed(id))
    }

    /// The ID as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A refused command: the rule that forbids it and why, in a sentence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("[{rule}] {reason}")]
pub struct Refusal {
    /// The rule applied.
    pub rule: RuleId,
    /// Why the command is refused.
    pub reason: String,
}

impl Refusal {
    /// A refusal citing `rule`.
    pub fn new(rule: &'static str, reason: impl Into<String>) -> Refusal {
        Refusal { rule: RuleId::new(rule), reason: reason.into() }
    }
}

/// One of the two sides of a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The red side.
    Red,
    /// The blue side.
    Blue,
}

impl Side {
    /// Both sides, red first.
    pub const BOTH: [Side; 2] = [Side::Red, Side::Blue];

    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Red => Side::Blue,
            Side::Blue => Side::Red,
        }
    }

    /// 0 for red, 1 for blue.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side's name in lower case.
    pub fn name(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Blue => "blue",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Side {
    type Err = String;
    fn from_str(s: &str) -> Result<Side, String> {
        match s.to_ascii_lowercase().as_str() {
            "red" => Ok(Side::Red),
            "blue" => Ok(Side::Blue),
            _ => Err(format!("unknown side '{s}': expected red or blue")),
        }
    }
}

/// Who sends a command: a side's general, or the umpire (the tabletop players resolving by hand
/// what the engine does not).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// A side.
    Side(Side),
    /// The umpire.
    Umpire,
}

/// Who looks at the state: a side sees only what its general may see; a spectator sees the
/// public view; the umpire sees everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// One side's general.
    Side(Side),
    /// A spectator.
    Spectator,
    /// The umpire.
    Umpire,
}

/// Who must decide what now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Pending {
    /// One side must act.
    Side {
        /// The side to act.
        side: Side,
        /// What it is deciding, for the player.
        what: String,
    },
    /// Both sides decide at once, in secret (written orders, simultaneous moves).
    Both {
        /// Sides that have not yet committed.
        waiting: Vec<Side>,
        /// What they are deciding.
        what: String,
    },
    /// Both sides act against a clock, each command stamped with the game time.
    Timed {
        /// Sides that may act.
        sides: Vec<Side>,
        /// When the window closes, in milliseconds of game time.
        closes_at_ms: u64,
        /// What is happening.
        what: String,
    },
    /// The battle is over.
    Over,
}

impl Pending {
    /// What is being decided, in words (empty once the battle is over).
    pub fn what(&self) -> &str {
        match self {
            Pending::Side { what, .. }
            | Pending::Both { what, .. }
            | Pending::Timed { what, .. } => what,
            Pending::Over => "",
        }
    }

    /// The sides that may send a command now.
    pub fn sides(&self) -> Vec<Side> {
        match self {
            Pending::Side { side, .. } => vec![*side],
            Pending::Both { waiting, .. } => waiting.clone(),
            Pending::Timed { sides, .. } => sides.clone(),
            Pending::Over => vec![],
        }
    }
}

/// A timed window's clock as a real-time host needs it (see [`RuleSet::timed_clock`]): the
/// game's time now, when each side's hands are next free, and the next moment something
/// lands by itself, all in milliseconds of game time since the window opened.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimedClock {
    /// The latest game time a command has carried.
    pub now_ms: u64,
    /// When red's and blue's hands are free for their next command; `None` for a side that
    /// has finished (or cannot act again in this window).
    pub free_ms: [Option<u64>; 2],
    /// The next moment something under way lands (a step in flight), if anything is.
    pub wake_ms: Option<u64>,
}

/// How a battle ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why the battle ended, citing the rule.
    pub reason: String,
}

/// One line of the battle log: an event told in words, with the rules it cites.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogLine {
    /// The narrated text, starting with the rule IDs in brackets.
    pub text: String,
    /// The rule IDs the event applied.
    pub rules: Vec<RuleId>,
}

/// Events tell themselves as a log line.
pub trait Narrate {
    /// The rules this event applies (one at least).
    fn rules(&self) -> Vec<RuleId>;
    /// The event in words, without the rule prefix.
    fn describe(&self) -> String;
    /// The full log line: `[RULE] text`.
    fn narrate(&self) -> LogLine {
        let rules = self.rules();
        let prefix: Vec<String> = rules.iter().map(|r| format!("[{r}]")).collect();
        LogLine { text: format!("{} {}", prefix.join(""), self.describe()), rules }
    }
}

/// A rule set: the rules of one game, with no state of its own beyond its data tables.
pub trait RuleSet: Send + Sync + 'static {
    /// The validated, playable scenario.
    type Scenario: Clone + Send + Sync;
    /// The game state. Serialises exactly; its serde form is what the state hash covers.
    type State: Clone + Serialize + DeserializeOwned + fmt::Debug + Send + Sync;
    /// A command from a side or the umpire.
    type Command: Clone + Serialize + DeserializeOwned + fmt::Debug + Send + Sync;
    /// A change to the state, carrying the dice that caused it and the rules it applied.
    type Event: Clone + Serialize + DeserializeOwned + fmt::Debug + Narrate + Send + Sync;
    /// What one viewer may see.
    type View: Serialize;

    /// The rule set's ID, such as `movement`.
    fn id(&self) -> &'static str;
    /// The rule set's version; a record made under another version may not replay.
    fn version(&self) -> &'static str;

    /// Parses and validates a scenario file, reporting every problem found.
    fn load_scenario(&self, source: &Source) -> Result<Self::Scenario, Diagnostics>;

    /// The starting state, with any events of the set-up (rolled with the game's dice).
    fn setup(
        &self,
        scenario: &Self::Scenario,
        dice: &mut dyn DiceSource,
    ) -> (Self::State, Vec<Self::Event>);

    /// Who must decide what now.
    fn pending(&self, state: &Self::State) -> Pending;

    /// Whether `actor` may give `command` now; a refusal names the rule that forbids it.
    fn check(
        &self,
        state: &Self::State,
        actor: Actor,
        command: &Self::Command,
    ) -> Result<(), Refusal>;

    /// Carries out a checked command, rolling dice as the rules require, and returns the
    /// events. It must not be called with a command that `check` refused. It may still refuse
    /// when legality can only be known while executing; the caller then restores the dice.
    fn execute(
        &self,
        state: &Self::State,
        actor: Actor,
        command: &Self::Command,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Self::Event>, Refusal>;

    /// Applies one event to the state. Events are facts: applying never fails.
    fn apply(&self, state: &mut Self::State, event: &Self::Event);

    /// Carries out a checked command on the state itself: the events [`RuleSet::execute`]
    /// gives, applied in order, and returned. On refusal the state is unchanged. The default
    /// does just that; a rule set that works a command out by applying its events as it goes
    /// may work on the state in place instead of on a copy (the result must be the same).
    fn perform(
        &self,
        state: &mut Self::State,
        actor: Actor,
        command: &Self::Command,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Self::Event>, Refusal> {
        let events = self.execute(state, actor, command, dice)?;
        for e in &events {
            self.apply(state, e);
        }
        Ok(events)
    }

    /// What `viewer` may see of the state.
    fn view(&self, state: &Self::State, viewer: Viewer) -> Self::View;

    /// The result, once the battle is over.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// Every legal command for `side`, where the rule set's choices are discrete. Continuous
    /// rule sets return `None` and offer [`RuleSet::candidates`] instead.
    fn legal_commands(&self, _state: &Self::State, _side: Side) -> Option<Vec<Self::Command>> {
        None
    }

    /// A sample of sensible legal commands for `side`, for bots and the random-game harness:
    /// all legal commands where they are discrete, otherwise sampled moves, targets and orders.
    /// Every command returned must pass `check`.
    fn candidates(
        &self,
        state: &Self::State,
        side: Side,
        rng: &mut SeededDice,
    ) -> Vec<Self::Command>;

    /// The table drawn for `viewer`.
    fn scene(&self, state: &Self::State, viewer: Viewer) -> Scene;

    /// The game turn `state` is in (1 for the first), for reports that draw the table once a
    /// turn and for statistics of battle length; `None` (the provided method) where the rule
    /// set has no turns.
    fn turn(&self, _state: &Self::State) -> Option<u32> {
        None
    }

    /// What each side has lost and has left: units, strength, army morale, for battle
    /// reports and simulation statistics. The provided method knows nothing (an empty
    /// summary); rule sets fill in what their rules count.
    fn summary(&self, _state: &Self::State) -> Summary {
        Summary::default()
    }

    /// While [`RuleSet::pending`] is [`Pending::Timed`], the window's clock: the game time
    /// now, each side's free time and the next landing, for a host that plays the window in
    /// real time (the server stamps commands and wakes at these moments). `None` (the provided
    /// method) outside timed windows and for rule sets without them.
    fn timed_clock(&self, _state: &Self::State) -> Option<TimedClock> {
        None
    }

    /// A heuristic value of an unfinished `state` for `side`, between 0 (lost) and 1 (won),
    /// for search bots that stop their look-ahead before the battle ends. `None` (the provided
    /// method) lets a bot fall back on the summary's strength, or on 0.5.
    fn evaluate(&self, _state: &Self::State, _side: Side) -> Option<f64> {
        None
    }

    /// What a player's client may offer `side` now: its units with their allowances, drags and
    /// menus, and the actions of no one unit (see [`crate::controls`]). Every action must pass
    /// `check` when sent (a draft once complete). The provided method offers each of
    /// [`RuleSet::legal_commands`] as an action labelled by its JSON, or nothing where the
    /// choices are continuous; rule sets give their players better.
    fn controls(&self, state: &Self::State, side: Side) -> Controls {
        let mut controls =
            Controls { prompt: self.pending(state).what().to_string(), ..Controls::default() };
        for command in self.legal_commands(state, side).unwrap_or_default() {
            if let Ok(json) = serde_json::to_value(&command) {
                controls.actions.push(Action::send(json.to_string(), &[], json));
            }
        }
        controls
    }

    /// Measures a move of `side`'s unit dragged to a point: its path, its cost with terrain
    /// counted, how far the allowance lasts, and what dropping it there does or the rule that
    /// forbids it. `None` (the provided method) where units are not dragged freely, or the
    /// unit is not one `side` may move now.
    fn measure(
        &self,
        _state: &Self::State,
        _side: Side,
        _request: &MeasureRequest,
    ) -> Option<Measurement> {
        None
    }

    /// The roster sheet as `viewer` may see it: every unit of its own side in full, the other
    /// side's only as far as the rules let it see. The provided method has none.
    fn roster(&self, _state: &Self::State, _viewer: Viewer) -> Vec<RosterRow> {
        Vec::new()
    }
}

/// What one side has lost and has left at a moment of the battle. Every figure is optional: a
/// rule set gives those its rules count, and reports show what is there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideSummary {
    /// The side.
    pub side: Side,
    /// Units at the start of the battle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units_start: Option<u32>,
    /// Units destroyed, routed or otherwise out of the battle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units_lost: Option<u32>,
    /// Fighting strength left, in the rule set's own measure (figures, stands, hits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<f64>,
    /// Fighting strength at the start, in the same measure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength_start: Option<f64>,
    /// Army morale left, in the rule set's own measure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub morale: Option<f64>,
    /// Further figures by name (in a stable order), such as `"figures_lost"`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub other: std::collections::BTreeMap<String, f64>,
}

impl SideSummary {
    /// An empty summary for `side`.
    pub fn new(side: Side) -> SideSummary {
        SideSummary {
            side,
            units_start: None,
            units_lost: None,
            strength: None,
            strength_start: None,
            morale: None,
            other: std::collections::BTreeMap::new(),
        }
    }

    /// Every figure present, by name, in a fixed order: `units_start`, `units_lost`,
    /// `strength_start`, `strength`, `morale`, then the others by name.
    pub fn figures(&self) -> Vec<(String, f64)> {
        let mut out = Vec::new();
        let named = [
            ("units_start", self.units_start.map(f64::from)),
            ("units_lost", self.units_lost.map(f64::from)),
            ("strength_start", self.strength_start),
            ("strength", self.strength),
            ("morale", self.morale),
        ];
        for (name, v) in named {
            if let Some(v) = v {
                out.push((name.to_string(), v));
            }
        }
        out.extend(self.other.iter().map(|(k, v)| (k.clone(), *v)));
        out
    }
}

/// Losses and what is left, per side: see [`RuleSet::summary`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// One entry per side that the rule set summarises, red first.
    pub sides: Vec<SideSummary>,
}

impl Summary {
    /// The entry for `side`, if there is one.
    pub fn side(&self, side: Side) -> Option<&SideSummary> {
        self.sides.iter().find(|s| s.side == side)
    }

    /// True when no side has any figure.
    pub fn is_empty(&self) -> bool {
        self.sides.iter().all(|s| s.figures().is_empty())
    }

    /// `side`'s share of the two sides' strength left (strength, else units left), between 0
    /// and 1, if the summary gives it for both sides.
    pub fn strength_share(&self, side: Side) -> Option<f64> {
        let left = |s: Side| {
            let e = self.side(s)?;
            e.strength.or_else(|| Some(f64::from(e.units_start?.checked_sub(e.units_lost?)?)))
        };
        let (own, other) = (left(side)?, left(side.other())?);
        let total = own + other;
        (total.is_finite() && total > 0.0 && own >= 0.0 && other >= 0.0).then(|| own / total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_lists_its_figures_and_shares_strength() {
        let mut red = SideSummary::new(Side::Red);
        red.units_start = Some(6);
        red.units_lost = Some(2);
        red.morale = Some(3.0);
        red.other.insert("figures_lost".into(), 40.0);
        let mut blue = SideSummary::new(Side::Blue);
        blue.units_start = Some(6);
        blue.units_lost = Some(4);
        let s = Summary { sides: vec![red, blue] };
        let names: Vec<String> = s.sides[0].figures().into_iter().map(|f| f.0).collect();
        assert_eq!(names, ["units_start", "units_lost", "morale", "figures_lost"]);
        assert_eq!(s.strength_share(Side::Red), Some(4.0 / 6.0));
        assert_eq!(s.strength_share(Side::Blue), Some(2.0 / 6.0));
        assert!(!s.is_empty());
        assert!(Summary::default().is_empty());
        assert_eq!(Summary::default().strength_share(Side::Red), None);
        let back: Summary = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
    }
}
