//! Monte Carlo tree search (UCT) over any rule set's commands.
//!
//! # The search
//!
//! Each iteration starts from a state drawn by [`Hooks::determinize`] (the real state, unless
//! a hidden-information rule set samples what the searching side cannot see), walks down the
//! tree choosing commands by UCB1, adds one node, plays on with [`Hooks::playout`] for at most
//! [`MctsConfig::rollout_depth`] commands (by default 30 where the rule set can value an
//! unfinished state, else to the end), values the state reached with [`Hooks::evaluate`]
//! and backs the value up the path, each edge counting it for the side that gave its command.
//!
//! **Commands.** Where the rule set lists its legal commands ([`RuleSet::legal_commands`]),
//! every one of them is a child. Continuous rule sets offer sampled candidates instead
//! ([`RuleSet::candidates`]); a node keeps a pool of them and grows by *progressive widening*:
//! a node visited `n` times has at most `⌈widen · √(n + 1)⌉` children, new ones drawn from the
//! pool (re-sampled when it runs dry), so a search goes both wide and deep however many
//! candidates the rule set could produce. A rule set that knows which commands are worth
//! searching lists them, best first, in [`Hooks::options`]; the tree then grows along that
//! list by *progressive unpruning* (a node visited `n` times considers the first
//! `⌈widen · √(n + 1)⌉` options), so the likeliest commands are searched first and deepest.
//! Children are found by a 64-bit hash of the command's JSON form, written straight into the
//! hasher (no string is built).
//!
//! **Chance.** Commands roll dice. The tree is *open-loop*: a node stands for the sequence of
//! commands that leads to it, not for one state; each iteration re-plays that sequence with
//! fresh dice from the bot's own generator, so a node's value averages over the dice. Where
//! the dice make a child's command illegal in this iteration's state (a unit was destroyed),
//! the child is skipped for that iteration: UCB counts only the iterations in which a child
//! was available (its *availability*, as in information-set MCTS), and new legal commands are
//! added as they appear.
//!
//! **Simultaneous decisions.** Where both sides decide at once ([`Pending::Both`]), the tree
//! orders them: the searching side first at the root, otherwise the first side waiting.
//!
//! **Transitions.** Every step is `check`, then `execute` with the bot's dice, then `apply` on
//! a clone of the state: the search uses nothing but the [`RuleSet`] interface.
//!
//! # Budget and reproducibility
//!
//! A search runs for a number of iterations ([`Budget::Iterations`], the default) or for a
//! wall time ([`Budget::Time`]). All randomness comes from the generator handed to
//! [`Bot::choose`], so an iteration budget makes the bot's choices reproducible from the
//! seed, on any machine and under any load. A time budget does not: how many iterations fit
//! in a second depends on the machine and what else it is doing.
//!
//! # Reusing the tree
//!
//! Where the hooks key states ([`Hooks::state_key`]), every node records the state it was met
//! in for each side to move, as long as that was always the same one. The next decision looks
//! for a node of the last tree that always met exactly the state it is asked about with its
//! side to move, and searches on from that node's subtree (its visits and values kept; the
//! budget counts only the new iterations). A node that met different states (dice made them
//! differ) is never reused: its values average over positions other than the one on the
//! table. A position the last tree never met exactly is searched afresh, exactly as a new bot
//! would search it with the same generator. Without keys (the default) every decision is
//! searched afresh.

use crate::{Bot, BotError, RandomBot, step};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tabletop::SeededDice;
use tabletop::host::BotSpec;
use tabletop::rules::{Actor, Pending, RuleSet, Side};

/// How long a search runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// This many iterations: reproducible.
    Iterations(u32),
    /// This much wall time (at least one iteration): not reproducible.
    Time(Duration),
}

/// The settings of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// How long each decision's search runs.
    pub budget: Budget,
    /// The UCB1 exploration constant (values lie between 0 and 1).
    pub exploration: f64,
    /// The most commands a play-out makes after leaving the tree before the state is valued.
    /// `None` (the default) chooses by what the rule set offers: [`INFORMED_DEPTH`] commands
    /// where [`Hooks::informed`] says the evaluation sees more than the outcome (a heuristic,
    /// or a summary of strength), otherwise [`UNINFORMED_DEPTH`], to the end of almost any
    /// battle, since an unfinished play-out would then be worth a blind 0.5.
    pub rollout_depth: Option<u32>,
    /// Progressive widening for continuous rule sets: a node visited `n` times has at most
    /// `⌈widen · √(n + 1)⌉` children.
    pub widen: f64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            budget: Budget::Iterations(1000),
            exploration: 1.0,
            rollout_depth: None,
            widen: 2.0,
        }
    }
}

/// Play-out length where the evaluation is informed (see [`MctsConfig::rollout_depth`]).
pub const INFORMED_DEPTH: u32 = 30;
/// Play-out length where only the outcome tells (see [`MctsConfig::rollout_depth`]).
pub const UNINFORMED_DEPTH: u32 = 10_000;

/// The most iterations a budget may ask for.
const MAX_ITERATIONS: u32 = 100_000_000;
/// The longest time budget, in seconds.
const MAX_SECONDS: f64 = 3600.0;
/// How many times a node re-samples candidates once its pool runs dry.
const MAX_REFILLS: u32 = 8;

fn parse_duration(text: &str) -> Option<Duration> {
    tabletop::host::parse_time(text).filter(|d| d.as_secs_f64() <= MAX_SECONDS)
}

fn parse_iterations(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if (1..=MAX_ITERATIONS).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}' is not an iteration budget: give a whole number from 1 to {MAX_ITERATIONS}"
        )),
    }
}

fn parse_number(
    key: &str,
    text: &str,
    range: std::ops::RangeInclusive<f64>,
) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && range.contains(&x) => Ok(x),
        _ => Err(format!(
            "mcts parameter {key}='{text}': give a number from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

impl MctsConfig {
    /// The settings a user's bot spec asks for (see [`crate::MCTS_ABOUT`]): `mcts`,
    /// `mcts:2000`, `mcts:2s`, `mcts:iterations=500,depth=40,c=0.7,widen=3`.
    pub fn from_spec(spec: &BotSpec) -> Result<MctsConfig, String> {
        MctsConfig::from_spec_with(spec, MctsConfig::default())
    }

    /// As [`MctsConfig::from_spec`], with `defaults` for what the spec leaves out (a rule
    /// set's tuned search has its own default budget and exploration).
    pub fn from_spec_with(spec: &BotSpec, defaults: MctsConfig) -> Result<MctsConfig, String> {
        spec.only(&["budget", "iterations", "time", "depth", "c", "widen"])?;
        let mut config = defaults;
        let budgets: Vec<&(String, String)> = spec
            .params
            .iter()
            .filter(|(k, _)| matches!(k.as_str(), "budget" | "iterations" | "time"))
            .collect();
        if budgets.len() > 1 {
            return Err("give the mcts budget once: iterations or time, not both".into());
        }
        if let Some((key, value)) = budgets.first() {
            let time = || {
                parse_duration(value).ok_or_else(|| {
                    format!(
                        "'{value}' is not a time budget: give seconds or milliseconds up to an \
                         hour, such as 2s, 1.5s or 500ms"
                    )
                })
            };
            config.budget = match key.as_str() {
                "time" => Budget::Time(time()?),
                "iterations" => Budget::Iterations(parse_iterations(value)?),
                _ if value.bytes().all(|b| b.is_ascii_digit()) => {
                    Budget::Iterations(parse_iterations(value)?)
                }
                _ => Budget::Time(parse_duration(value).ok_or_else(|| {
                    format!(
                        "'{value}' is not a budget: give a number of iterations (such as 2000) \
                         or a time (such as 2s or 500ms)"
                    )
                })?),
            };
        }
        if let Some(d) = spec.param("depth") {
            config.rollout_depth =
                Some(d.parse::<u32>().ok().filter(|d| *d <= 1_000_000).ok_or_else(|| {
                    format!("mcts parameter depth='{d}': give a whole number from 0 to 1000000")
                })?);
        }
        if let Some(c) = spec.param("c") {
            config.exploration = parse_number("c", c, 0.0..=100.0)?;
        }
        if let Some(w) = spec.param("widen") {
            config.widen = parse_number("widen", w, 0.01..=1000.0)?;
        }
        Ok(config)
    }

    /// The settings in words: `1000 iterations, play-outs of 200 commands, c 1`.
    pub fn describe(&self) -> String {
        let budget = match self.budget {
            Budget::Iterations(n) => format!("{n} iterations"),
            Budget::Time(t) => format!("{} s a decision", t.as_secs_f64()),
        };
        let depth = match self.rollout_depth {
            Some(d) => format!("play-outs of up to {d} commands"),
            None => format!(
                "play-outs of {INFORMED_DEPTH} commands where the rule set values states, else to the end"
            ),
        };
        format!("{budget}, {depth}, c {}, widen {}", self.exploration, self.widen)
    }
}

/// Where a rule set (or a user) plugs its knowledge into the search. Every method has a
/// default that works for any rule set.
pub trait Hooks<R: RuleSet>: Send + Sync {
    /// The state an iteration searches from, for `side`. The default is the state itself. A
    /// rule set with hidden information returns a state in which what `side` cannot see
    /// (the enemy's written orders, unseen units) is sampled with `rng` from what it can.
    fn determinize(
        &self,
        _rules: &R,
        state: &R::State,
        _side: Side,
        _rng: &mut SeededDice,
    ) -> R::State {
        state.clone()
    }

    /// The value of `state` for `side`, from 0 (lost) to 1 (won). The default,
    /// [`default_value`], is the outcome where the battle is over and otherwise the rule set's
    /// heuristic, or failing that its summary's share of strength, or 0.5.
    fn evaluate(&self, rules: &R, state: &R::State, side: Side) -> f64 {
        default_value(rules, state, side)
    }

    /// Whether [`Hooks::evaluate`] sees more than the outcome in states like `state`, so that
    /// a play-out may stop early (see [`MctsConfig::rollout_depth`]). The default: the rule set
    /// has [`RuleSet::evaluate`], or its summary gives both sides' strength.
    fn informed(&self, rules: &R, state: &R::State, side: Side) -> bool {
        rules.evaluate(state, side).is_some() || rules.summary(state).strength_share(side).is_some()
    }

    /// The commands the search considers for `side` in `state`, best first, or `None` (the
    /// default) for every legal command (or the sampled candidates of a continuous rule set).
    /// Every command listed must be legal. The tree widens along the list as a node is
    /// visited (*progressive unpruning*): a node visited `n` times considers the first
    /// `⌈widen · √(n + 1)⌉` options, so the first ones are searched first and the rest only as
    /// the visits grow. A list of one command is taken at the root without search.
    fn options(
        &self,
        _rules: &R,
        _state: &R::State,
        _side: Side,
        _rng: &mut SeededDice,
    ) -> Option<Vec<R::Command>> {
        None
    }

    /// A key of `state` for reusing the tree between decisions, or `None` (the default) for no
    /// reuse. States with one key must be the same position (what may be done and what it
    /// leads to), so a cheap exact fingerprint of the state is wanted; it is computed at every
    /// node an iteration passes. See "Reusing the tree" in the [module documentation](self).
    fn state_key(&self, _rules: &R, _state: &R::State) -> Option<u64> {
        None
    }

    /// The command `side` gives in a play-out. The default picks uniformly among the legal
    /// commands or the sampled candidates; `None` ends the play-out.
    fn playout(
        &self,
        rules: &R,
        state: &R::State,
        side: Side,
        rng: &mut SeededDice,
    ) -> Option<R::Command> {
        RandomBot.choose(rules, state, side, rng).ok()
    }
}

/// The hooks that know nothing of the rule set beyond its interface.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultHooks;

impl<R: RuleSet> Hooks<R> for DefaultHooks {}

/// A state's value for `side` from the rule set alone: 1, 0.5 or 0 for a win, a draw or a loss
/// once the battle is over; otherwise [`RuleSet::evaluate`]; failing that the side's share of
/// strength in [`RuleSet::summary`]; failing that 0.5.
pub fn default_value<R: RuleSet>(rules: &R, state: &R::State, side: Side) -> f64 {
    if let Some(o) = rules.outcome(state) {
        return match o.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    if let Some(v) = rules.evaluate(state, side).filter(|v| v.is_finite()) {
        return v.clamp(0.0, 1.0);
    }
    rules.summary(state).strength_share(side).unwrap_or(0.5)
}

/// What the last search did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Iterations run.
    pub iterations: u64,
    /// Nodes in the tree at the end.
    pub nodes: usize,
    /// Commands made in play-outs, over all iterations.
    pub playout_commands: u64,
    /// The most commands a play-out could make in this search.
    pub playout_depth: u32,
    /// Children of the root.
    pub root_children: usize,
    /// Visits of the chosen command.
    pub chosen_visits: u32,
    /// Mean value of the chosen command for the searching side.
    pub chosen_value: f64,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// Visits the search inherited from the last decision's tree ([`Hooks::state_key`]); 0
    /// for a fresh tree.
    pub reused: u32,
}

struct Edge<C> {
    command: C,
    side: Side,
    visits: u32,
    avail: u32,
    total: f64,
    child: Option<usize>,
}

struct Node<C> {
    edges: Vec<Edge<C>>,
    keys: Keys,
    pool: Vec<C>,
    pool_side: Option<Side>,
    refills: u32,
    visits: u32,
    /// The key of the state met at this node ([`Hooks::state_key`]) for each side that was
    /// to move in it, while it was always the same one.
    seen: [Option<u64>; 2],
    /// For each side: different states were met at this node with that side to move.
    mixed: [bool; 2],
}

impl<C> Node<C> {
    /// Adds an unvisited edge for `command` of `who`, known by `key`; returns its index.
    fn add_edge(&mut self, key: u64, command: C, who: Side) -> usize {
        self.edges.push(Edge { command, side: who, visits: 0, avail: 0, total: 0.0, child: None });
        self.keys.insert(key, self.edges.len() - 1);
        self.edges.len() - 1
    }

    fn new() -> Self {
        Node {
            edges: Vec::new(),
            keys: Keys::default(),
            pool: Vec::new(),
            pool_side: None,
            refills: 0,
            visits: 0,
            seen: [None; 2],
            mixed: [false; 2],
        }
    }

    /// Records that the state keyed `key` was met here with `who` to move.
    fn saw(&mut self, key: Option<u64>, who: Side) {
        let (Some(k), i) = (key, who.index()) else { return };
        match self.seen[i] {
            _ if self.mixed[i] => {}
            None => self.seen[i] = Some(k),
            Some(seen) if seen != k => self.mixed[i] = true,
            Some(_) => {}
        }
    }

    /// True when every state met here with `who` to move was the one keyed `key`.
    fn always(&self, key: u64, who: Side) -> bool {
        self.seen[who.index()] == Some(key) && !self.mixed[who.index()]
    }
}

/// The subtree of `nodes` under `root`, renumbered with `root` first.
fn subtree<C>(nodes: Vec<Node<C>>, root: usize) -> Vec<Node<C>> {
    let mut slots: Vec<Option<Node<C>>> = nodes.into_iter().map(Some).collect();
    let mut out: Vec<Node<C>> = Vec::new();
    let Some(first) = slots.get_mut(root).and_then(Option::take) else { return out };
    out.push(first);
    let mut i = 0;
    while i < out.len() {
        for e in 0..out[i].edges.len() {
            if let Some(c) = out[i].edges[e].child {
                match slots.get_mut(c).and_then(Option::take) {
                    Some(node) => {
                        out.push(node);
                        out[i].edges[e].child = Some(out.len() - 1);
                    }
                    None => out[i].edges[e].child = None,
                }
            }
        }
        i += 1;
    }
    out
}

/// FNV-1a over the bytes written to it: a command's key is the hash of its JSON form, made
/// without building the string.
struct Fnv(u64);

impl std::io::Write for Fnv {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A command's key in its node: a 64-bit hash of the side and the command's JSON form (two
/// different commands of one node colliding is a chance of about n²/2⁶⁴).
fn key<C: serde::Serialize>(side: Side, command: &C) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325 ^ side.index() as u64);
    // Writing to a hasher cannot fail; a command that does not serialise keys as its prefix.
    let _ = serde_json::to_writer(&mut h, command);
    h.0
}

/// Hashes an already well-mixed 64-bit key by itself.
#[derive(Clone, Copy, Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = i;
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type Keys = HashMap<u64, usize, std::hash::BuildHasherDefault<KeyHasher>>;

fn is_over<R: RuleSet>(rules: &R, state: &R::State) -> bool {
    rules.outcome(state).is_some() || rules.pending(state) == Pending::Over
}

/// Who moves next in the tree: `prefer` if it may act, otherwise the first side that may.
fn mover(pending: &Pending, prefer: Option<Side>) -> Option<Side> {
    let sides = pending.sides();
    match prefer {
        Some(p) if sides.contains(&p) => Some(p),
        _ => sides.first().copied(),
    }
}

/// The Monte Carlo tree search bot. See the [module documentation](self).
pub struct Mcts<R: RuleSet> {
    config: MctsConfig,
    hooks: Arc<dyn Hooks<R>>,
    last: Option<SearchStats>,
    /// The last search's tree, for reuse ([`Hooks::state_key`]).
    tree: Vec<Node<R::Command>>,
}

impl<R: RuleSet> Mcts<R> {
    /// A search with `config` and the default hooks.
    pub fn new(config: MctsConfig) -> Self {
        Mcts::with_hooks(config, Arc::new(DefaultHooks))
    }

    /// A search with `config` and the rule set's own `hooks`.
    pub fn with_hooks(config: MctsConfig, hooks: Arc<dyn Hooks<R>>) -> Self {
        Mcts { config, hooks, last: None, tree: Vec::new() }
    }

    /// The settings.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// What the last search did, once there has been one.
    pub fn last_stats(&self) -> Option<&SearchStats> {
        self.last.as_ref()
    }

    /// Searches afresh and returns the best command for `side` with the search's figures.
    pub fn search(
        &self,
        rules: &R,
        state: &R::State,
        side: Side,
        rng: &mut SeededDice,
    ) -> Result<(R::Command, SearchStats), BotError> {
        let started = Instant::now();
        if let Some(command) = self.forced(rules, state, side, rng)? {
            let stats = SearchStats { elapsed: started.elapsed(), ..SearchStats::default() };
            return Ok((command, stats));
        }
        let mut nodes = vec![Node::new()];
        self.run(&mut nodes, rules, state, side, rng, started)
    }

    /// The command to give without search: the only legal one, or the only option the hooks
    /// offer; an error when `side` has no command at all.
    fn forced(
        &self,
        rules: &R,
        state: &R::State,
        side: Side,
        rng: &mut SeededDice,
    ) -> Result<Option<R::Command>, BotError> {
        if let Some(mut legal) = rules.legal_commands(state, side) {
            match legal.len() {
                0 => return Err(BotError::NoCommand(side)),
                1 => return Ok(Some(legal.swap_remove(0))),
                _ => {}
            }
        }
        if let Some(options) = self.hooks.options(rules, state, side, rng)
            && let [only] = options.as_slice()
            && rules.check(state, Actor::Side(side), only).is_ok()
        {
            return Ok(Some(only.clone()));
        }
        Ok(None)
    }

    /// The tree to search `state` from: the subtree of the last search's tree whose node met
    /// this state (the one visited most), or a fresh tree.
    fn reusable(&mut self, rules: &R, state: &R::State, side: Side) -> Vec<Node<R::Command>> {
        let tree = std::mem::take(&mut self.tree);
        let found = self.hooks.state_key(rules, state).and_then(|key| {
            (0..tree.len())
                .filter(|&i| tree[i].visits > 0 && tree[i].always(key, side))
                .max_by_key(|&i| (tree[i].visits, std::cmp::Reverse(i)))
        });
        match found {
            Some(i) => subtree(tree, i),
            None => vec![Node::new()],
        }
    }

    /// Runs the budget's iterations on the tree `nodes` (its root stands for `state`) and
    /// chooses.
    fn run(
        &self,
        nodes: &mut Vec<Node<R::Command>>,
        rules: &R,
        state: &R::State,
        side: Side,
        rng: &mut SeededDice,
        started: Instant,
    ) -> Result<(R::Command, SearchStats), BotError> {
        let mut stats = SearchStats { reused: nodes[0].visits, ..SearchStats::default() };
        let depth = self.config.rollout_depth.unwrap_or_else(|| {
            if self.hooks.informed(rules, state, side) { INFORMED_DEPTH } else { UNINFORMED_DEPTH }
        });
        stats.playout_depth = depth;
        loop {
            let go_on = match self.config.budget {
                Budget::Iterations(n) => stats.iterations < u64::from(n),
                Budget::Time(t) => stats.iterations == 0 || started.elapsed() < t,
            };
            if !go_on {
                break;
            }
            self.iterate(nodes, rules, state, side, rng, &mut stats);
            stats.iterations += 1;
        }
        stats.nodes = nodes.len();
        stats.root_children = nodes[0].edges.len();
        let actor = Actor::Side(side);
        let best = nodes[0]
            .edges
            .iter()
            .filter(|e| e.side == side && e.visits > 0)
            .filter(|e| rules.check(state, actor, &e.command).is_ok())
            .fold(None::<&Edge<R::Command>>, |best, e| match best {
                None => Some(e),
                Some(b) => {
                    let better = e.visits > b.visits
                        || (e.visits == b.visits
                            && e.total / f64::from(e.visits) > b.total / f64::from(b.visits));
                    Some(if better { e } else { b })
                }
            });
        let command = match best {
            Some(e) => {
                stats.chosen_visits = e.visits;
                stats.chosen_value = e.total / f64::from(e.visits);
                e.command.clone()
            }
            // The search found nothing to say (no iteration reached a legal command).
            None => RandomBot.choose(rules, state, side, rng)?,
        };
        stats.elapsed = started.elapsed();
        Ok((command, stats))
    }

    /// One iteration: select, expand, play out, back up.
    fn iterate(
        &self,
        nodes: &mut Vec<Node<R::Command>>,
        rules: &R,
        root: &R::State,
        side: Side,
        rng: &mut SeededDice,
        stats: &mut SearchStats,
    ) {
        let depth = stats.playout_depth;
        let mut state = self.hooks.determinize(rules, root, side, rng);
        let mut path: Vec<(usize, usize)> = Vec::new();
        let mut node = 0usize;
        loop {
            if is_over(rules, &state) {
                break;
            }
            let prefer = if path.is_empty() { Some(side) } else { None };
            let Some(who) = mover(&rules.pending(&state), prefer) else { break };
            nodes[node].saw(self.hooks.state_key(rules, &state), who);
            let mut avail = self.available(&mut nodes[node], rules, &state, who, rng);
            if avail.is_empty() {
                break;
            }
            for &e in &avail {
                nodes[node].edges[e].avail += 1;
            }
            let mut moved = None;
            while !avail.is_empty() {
                let pick = self.select(&nodes[node], &avail, rng);
                let e = avail[pick];
                if step(rules, &mut state, who, &nodes[node].edges[e].command, rng).is_ok() {
                    moved = Some(e);
                    break;
                }
                avail.swap_remove(pick);
            }
            let Some(e) = moved else { break };
            path.push((node, e));
            let (child, new) = match nodes[node].edges[e].child {
                Some(child) => (child, false),
                None => {
                    nodes.push(Node::new());
                    let child = nodes.len() - 1;
                    nodes[node].edges[e].child = Some(child);
                    (child, true)
                }
            };
            if new {
                if !is_over(rules, &state)
                    && let Some(next) = mover(&rules.pending(&state), None)
                {
                    nodes[child].saw(self.hooks.state_key(rules, &state), next);
                }
                stats.playout_commands += self.playout(rules, &mut state, depth, rng);
                break;
            }
            node = child;
        }
        let v = self.hooks.evaluate(rules, &state, side);
        let v = if v.is_finite() { v.clamp(0.0, 1.0) } else { 0.5 };
        for (n, e) in path {
            nodes[n].visits += 1;
            let edge = &mut nodes[n].edges[e];
            edge.visits += 1;
            edge.total += if edge.side == side { v } else { 1.0 - v };
        }
    }

    /// The children of `node` that `who` may choose in `state`, adding new ones: every new
    /// legal command, or (continuous rule sets) candidates up to the widening limit.
    fn available(
        &self,
        node: &mut Node<R::Command>,
        rules: &R,
        state: &R::State,
        who: Side,
        rng: &mut SeededDice,
    ) -> Vec<usize> {
        if let Some(mut options) = self.hooks.options(rules, state, who, rng) {
            let limit =
                (self.config.widen * f64::from(node.visits + 1).sqrt()).ceil().max(1.0) as usize;
            options.truncate(limit);
            return Self::edges_for(node, who, options);
        }
        if let Some(legal) = rules.legal_commands(state, who) {
            return Self::edges_for(node, who, legal);
        }
        let actor = Actor::Side(who);
        let mut out: Vec<usize> = (0..node.edges.len())
            .filter(|&i| {
                let e = &node.edges[i];
                e.side == who && rules.check(state, actor, &e.command).is_ok()
            })
            .collect();
        let limit =
            (self.config.widen * f64::from(node.visits + 1).sqrt()).ceil().max(1.0) as usize;
        let mut mine = node.edges.iter().filter(|e| e.side == who).count();
        while mine < limit {
            if node.pool_side != Some(who) {
                node.pool.clear();
                node.pool_side = Some(who);
            }
            if node.pool.is_empty() {
                if node.refills >= MAX_REFILLS {
                    break;
                }
                node.refills += 1;
                node.pool = rules.candidates(state, who, rng);
                node.pool.reverse();
                if node.pool.is_empty() {
                    break;
                }
            }
            // Draw from the pool at random, so widening does not follow the rule set's order.
            let i = rng.below(node.pool.len() as u32) as usize;
            let command = node.pool.swap_remove(i);
            let k = key(who, &command);
            if node.keys.contains_key(&k) || rules.check(state, actor, &command).is_err() {
                continue;
            }
            out.push(node.add_edge(k, command, who));
            mine += 1;
        }
        out
    }

    /// The edges of `node` for `commands` of `who`, adding the new ones, in the order given.
    fn edges_for(node: &mut Node<R::Command>, who: Side, commands: Vec<R::Command>) -> Vec<usize> {
        let mut out = Vec::with_capacity(commands.len());
        for command in commands {
            let k = key(who, &command);
            let i = match node.keys.get(&k) {
                Some(&i) => i,
                None => node.add_edge(k, command, who),
            };
            if !out.contains(&i) {
                out.push(i);
            }
        }
        out
    }

    /// UCB1 over the available children (by availability); an unvisited child first, at
    /// random among the unvisited.
    fn select(&self, node: &Node<R::Command>, avail: &[usize], rng: &mut SeededDice) -> usize {
        let unvisited: Vec<usize> =
            (0..avail.len()).filter(|&i| node.edges[avail[i]].visits == 0).collect();
        if !unvisited.is_empty() {
            return unvisited[rng.below(unvisited.len() as u32) as usize];
        }
        let mut best = 0;
        let mut best_score = f64::NEG_INFINITY;
        for (i, &e) in avail.iter().enumerate() {
            let edge = &node.edges[e];
            let n = f64::from(edge.visits);
            let score = edge.total / n
                + self.config.exploration * (f64::from(edge.avail.max(1)).ln() / n).sqrt();
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

    /// Plays on from `state` with the play-out policy for at most `depth` commands; returns the
    /// commands made.
    fn playout(&self, rules: &R, state: &mut R::State, depth: u32, rng: &mut SeededDice) -> u64 {
        let mut made = 0;
        for _ in 0..depth {
            tabletop::budget::tick();
            if is_over(rules, state) {
                break;
            }
            let Some(who) = mover(&rules.pending(state), None) else { break };
            let Some(command) = self.hooks.playout(rules, state, who, rng) else { break };
            if step(rules, state, who, &command, rng).is_err() {
                break;
            }
            made += 1;
        }
        made
    }
}

impl<R: RuleSet> Bot<R> for Mcts<R> {
    fn describe(&self) -> String {
        format!("mcts ({})", self.config.describe())
    }

    fn choose(
        &mut self,
        rules: &R,
        state: &R::State,
        side: Side,
        rng: &mut SeededDice,
    ) -> Result<R::Command, BotError> {
        let started = Instant::now();
        if let Some(command) = self.forced(rules, state, side, rng)? {
            self.last = Some(SearchStats { elapsed: started.elapsed(), ..SearchStats::default() });
            return Ok(command);
        }
        let mut nodes = self.reusable(rules, state, side);
        let result = self.run(&mut nodes, rules, state, side, rng, started);
        self.tree = nodes;
        let (command, stats) = result?;
        self.last = Some(stats);
        Ok(command)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_into_budgets_and_refuse_nonsense() {
        let c = |s: &str| MctsConfig::from_spec(&BotSpec::parse(s).unwrap());
        assert_eq!(c("mcts").unwrap(), MctsConfig::default());
        assert_eq!(c("mcts:2000").unwrap().budget, Budget::Iterations(2000));
        assert_eq!(c("mcts:2s").unwrap().budget, Budget::Time(Duration::from_secs(2)));
        assert_eq!(c("mcts:time=250ms").unwrap().budget, Budget::Time(Duration::from_millis(250)));
        let full = c("mcts:iterations=50,depth=0,c=0.5,widen=3").unwrap();
        assert_eq!(
            full,
            MctsConfig {
                budget: Budget::Iterations(50),
                exploration: 0.5,
                rollout_depth: Some(0),
                widen: 3.0
            }
        );
        for bad in [
            "mcts:0",
            "mcts:-3",
            "mcts:lots",
            "mcts:0s",
            "mcts:9999s",
            "mcts:c=-1",
            "mcts:2000,time=1s",
            "mcts:depth=x",
            "mcts:speed=3",
            "mcts:widen=nan",
        ] {
            assert!(c(bad).is_err(), "{bad} was accepted");
        }
    }
}
