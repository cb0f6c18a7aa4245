//! O/THW knowledge for Monte Carlo tree search ([`OthwHooks`]) and [`register`], which offers
//! the scripted player and the tuned search on a [`Host`].

use crate::Othw;
use crate::bot::{SCRIPTED_ABOUT, Scripted, Weights};
use crate::combat::{Aspect, aspect};
use crate::duel::{DuelGeneral, Fighter};
use crate::state::{Command, State, Status, Unit};
use bots::{Budget, Hooks, Hosted, Mcts, MctsConfig};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tabletop::SeededDice;
use tabletop::host::{BotSpec, Host, HostedBot};
use tabletop::rules::Side;

/// O/THW knowledge for Monte Carlo tree search (`mcts-othw`):
///
/// - **options** ([`Hooks::options`]): the commands worth searching, best first: the scripted
///   player's choice, the choices of scripted players with other weights
///   ([`variant_weights`]), every attack (by its exact odds), and ending the phase; where the
///   scripted player wants other standing orders, only those (they cost nothing). Options are
///   kept per position ([`fingerprint`]), so a position met again costs a look-up;
/// - **play-outs** by the scripted player, stopping before each command with chance
///   [`OthwHooks::stop`] (and after the search's play-out depth);
/// - **evaluation**: the chance of winning by a logistic model of army morale and strength
///   ([`win_chance`]); a finished battle's result, a draw being worth [`OthwHooks::draw`];
/// - **state keys** ([`fingerprint`]), so the search reuses its tree between decisions.
///
/// Every bot gets hooks of its own (the players and caches sit behind locks that are then
/// never contended).
#[derive(Debug)]
pub struct OthwHooks {
    /// The chance that a play-out stops before each command.
    pub stop: f64,
    /// What a drawn battle is worth to the searching side (a win 1, a loss 0): below one half,
    /// the search plays for the win rather than for the draw.
    pub draw: f64,
    /// The players: the scripted player first (play-outs and the first option), then the
    /// variants that propose further options.
    players: Mutex<Vec<Scripted>>,
    odds: Mutex<HashMap<OddsKey, f64>>,
    cache: Mutex<HashMap<u64, Vec<Command>>>,
}

impl Default for OthwHooks {
    /// Play-outs that stop with chance 0.05 before each command (about 12 commands on
    /// average, with the search's cap of 30); a draw worth 0.25.
    fn default() -> Self {
        OthwHooks::new(0.05)
    }
}

/// The weights of the scripted players whose choices are searched beside the scripted
/// player's own: bolder, warier, and one that keeps its line (no further moves).
pub fn variant_weights() -> Vec<Weights> {
    let d = Weights::default();
    vec![
        Weights { attack_min: -0.4, approach: 1.5, danger: 0.5, move_min: 0.1, ..d.clone() },
        Weights {
            attack_min: 0.4,
            danger: 1.6,
            exposed_flank: 1.0,
            exposed_rear: 1.4,
            flanked: 2.0,
            move_min: 0.6,
            ..d.clone()
        },
        Weights { support: 0.9, further_min: 1e9, ..d },
    ]
}

impl OthwHooks {
    /// Hooks whose play-outs stop before each command with chance `stop`.
    pub fn new(stop: f64) -> OthwHooks {
        let mut players = vec![Scripted::new()];
        players.extend(variant_weights().into_iter().map(|w| {
            let mut p = Scripted::new();
            p.weights = w;
            p
        }));
        OthwHooks {
            stop,
            draw: 0.25,
            players: Mutex::new(players),
            odds: Mutex::new(HashMap::new()),
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The score of an attack order (higher first).
    fn attack_value(&self, r: &Othw, st: &State, c: &Command) -> f64 {
        let Command::Attack { unit, from, facing, general_dice } = *c else { return 0.0 };
        let Some(target) = st.at(from.step(facing)) else { return 0.0 };
        let (x, t) = (&st.units[unit as usize], &st.units[target as usize]);
        if t.side == x.side {
            return -10.0;
        }
        if t.status == Status::Fleeing {
            return 3.0;
        }
        let asp = aspect(t.facing, facing.reversed());
        let key = OddsKey {
            att: fighter_key(st, x, st.board.terrain(from)),
            def: fighter_key(st, t, st.board.terrain(t.pos)),
            aspect: asp as u8,
            general_dice,
        };
        let mut odds = self.odds.lock().unwrap_or_else(|e| e.into_inner());
        *odds.entry(key).or_insert_with(|| {
            let o = r.duel(&fighter(r, st, x, from), &fighter(r, st, t, t.pos), asp, general_dice);
            2.0 * o.defender.breaks.to_f64() + o.attacker.wins.to_f64()
                - o.defender.wins.to_f64()
                - 2.0 * o.attacker.breaks.to_f64()
                + if asp == Aspect::Front { 0.0 } else { 0.25 }
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct FighterKey {
    type_name: Arc<str>,
    sp: u8,
    terrain: u8,
    general: Option<DuelGeneral>,
    phalanx_test: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct OddsKey {
    att: FighterKey,
    def: FighterKey,
    aspect: u8,
    general_dice: bool,
}

fn fighter_key(st: &State, x: &Unit, terrain: tabletop::grid::CellTerrain) -> FighterKey {
    let orders = st.side(x.side).orders;
    FighterKey {
        type_name: x.type_name.clone(),
        sp: x.sp,
        terrain: terrain as u8,
        general: st
            .active_general(x.side)
            .filter(|g| g.unit == x.id)
            .map(|g| DuelGeneral::of_game(g, orders)),
        phalanx_test: orders.phalanx,
    }
}

fn fighter(_r: &Othw, st: &State, x: &Unit, at: tabletop::grid::CellPos) -> Fighter {
    Fighter::of_unit(st, x, st.board.terrain(at))
}

/// A 64-bit fingerprint of everything in a state that decides what may be done and what the
/// scripted player does (units, army morale, generals, orders, the turn and phase), for the
/// options cache. Two states with one fingerprint are the same position but for the dice to
/// come; a collision (about n²/2⁶⁴) would offer a command the search then finds refused.
pub fn fingerprint(st: &State) -> u64 {
    let mut h = Fx(0x243f_6a88_85a3_08d3);
    for u in &st.units {
        h.add(
            u64::from(u.pos.col as u16)
                | u64::from(u.pos.row as u16) << 16
                | (u.facing as u64) << 32
                | u64::from(u.sp) << 36
                | (u.status as u64) << 44
                | u64::from(u.flags) << 48
                | u64::from(u.pursuing.map_or(0xff, |p| p)) << 56,
        );
    }
    for x in &st.sides {
        let o = x.orders;
        h.add(
            u64::from(x.am)
                | u64::from(o.reroll) << 8
                | u64::from(o.rally) << 9
                | u64::from(o.follow_up) << 10
                | u64::from(o.phalanx) << 11,
        );
        if let Some(g) = &x.general {
            h.add(
                u64::from(g.unit)
                    | u64::from(g.lost) << 8
                    | u64::from(g.ignore_attack_risk) << 16
                    | u64::from(g.absent_through) << 24,
            );
        }
    }
    h.add(
        u64::from(st.turn)
            | u64::from(st.phase_no) << 16
            | (st.phasing.index() as u64) << 48
            | (st.first.index() as u64) << 50
            | u64::from(st.phase_over) << 52
            | u64::from(st.outcome.is_some()) << 53,
    );
    h.0
}

/// A multiply-rotate hash of 64-bit words.
#[derive(Clone, Copy, Debug)]
struct Fx(u64);

impl Fx {
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The most positions whose options are kept; the cache is emptied when it is full.
const OPTIONS_CACHE: usize = 20_000;

/// The coefficients of the evaluation's logistic model, fitted to 4,000 scripted-v-scripted
/// battles on `open_field.toml` (every state before a command, valued by the battle's result,
/// from both sides' view): army morale lost (the enemy's less one's own) times the share of
/// the battle gone, the nearness of each army to breaking (`1/(am+1)`, one's own less the
/// enemy's), strength points in the fight (one's own less the enemy's, over the mean
/// starting strength), the same times the share of the battle gone, and units fleeing (the
/// enemy's less one's own). Early on strength counts most; late, the army morale lost that
/// decides a battle at its last turn.
pub const EVAL: [f64; 5] = [0.931, -21.501, 4.366, -2.413, 0.224];

/// The evaluation of an unfinished battle for `side`: the chance of winning (a draw as half)
/// from the logistic model [`EVAL`]; the outcome once over.
pub fn win_chance(st: &State, side: Side) -> f64 {
    if let Some(o) = &st.outcome {
        return match o.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    let mut sp = [0u32; 2];
    let mut sp0 = [0u32; 2];
    let mut fleeing = [0u32; 2];
    for u in &st.units {
        let i = u.side.index();
        sp0[i] += u32::from(u.s);
        match u.status {
            Status::Ready | Status::Rampaging => sp[i] += u32::from(u.sp),
            Status::Fleeing => fleeing[i] += 1,
            Status::Gone => {}
        }
    }
    let (me, them) = (side.index(), side.other().index());
    let lost = |i: usize| f64::from(st.sides[i].am_start) - f64::from(st.sides[i].am);
    let near = |i: usize| 1.0 / (f64::from(st.sides[i].am) + 1.0);
    let p = f64::from(st.turn) / f64::from(st.turns.max(1));
    let d = lost(them) - lost(me);
    let h = near(me) - near(them);
    let scale = (f64::from(sp0[0] + sp0[1]) / 2.0).max(1.0);
    let s = (f64::from(sp[me]) - f64::from(sp[them])) / scale;
    let fl = f64::from(fleeing[them]) - f64::from(fleeing[me]);
    let z = EVAL[0] * d * p + EVAL[1] * h + EVAL[2] * s + EVAL[3] * s * p + EVAL[4] * fl;
    1.0 / (1.0 + (-z).exp())
}

impl Hooks<Othw> for OthwHooks {
    fn evaluate(&self, _rules: &Othw, state: &State, side: Side) -> f64 {
        match &state.outcome {
            Some(o) if o.winner.is_none() => self.draw,
            _ => win_chance(state, side),
        }
    }

    fn options(
        &self,
        rules: &Othw,
        state: &State,
        side: Side,
        _rng: &mut SeededDice,
    ) -> Option<Vec<Command>> {
        if state.outcome.is_some() || state.phasing != side {
            return None;
        }
        let key = fingerprint(state);
        if let Some(v) = self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Some(v.clone());
        }
        let out = self.compute_options(rules, state, side);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= OPTIONS_CACHE {
            cache.clear();
        }
        cache.insert(key, out.clone());
        Some(out)
    }

    fn state_key(&self, _rules: &Othw, state: &State) -> Option<u64> {
        Some(fingerprint(state))
    }

    fn playout(
        &self,
        rules: &Othw,
        state: &State,
        side: Side,
        rng: &mut SeededDice,
    ) -> Option<Command> {
        let threshold = (self.stop.clamp(0.0, 1.0) * f64::from(u32::MAX)) as u32;
        if rng.next_u32() < threshold {
            return None;
        }
        let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        players[0].best(rules, state, side).map(|(c, _)| c)
    }
}

impl OthwHooks {
    /// The options of a position (see [`OthwHooks`]).
    fn compute_options(&self, rules: &Othw, state: &State, side: Side) -> Vec<Command> {
        let legal = rules.legal(state, side);
        if legal.len() <= 1 {
            return legal;
        }
        let mut out: Vec<Command> = Vec::with_capacity(16);
        {
            let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
            for p in players.iter_mut() {
                if let Some((c, _)) = p.best(rules, state, side) {
                    if matches!(c, Command::Orders { .. }) {
                        // Standing orders cost nothing: the scripted player's are taken.
                        return vec![c];
                    }
                    if !out.contains(&c) && legal.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
        let mut attacks: Vec<(f64, Command)> = legal
            .iter()
            .filter(|c| matches!(c, Command::Attack { .. }) && !out.contains(c))
            .map(|c| (self.attack_value(rules, state, c), c.clone()))
            .collect();
        attacks.sort_by(|a, b| b.0.total_cmp(&a.0));
        out.extend(attacks.into_iter().map(|(_, c)| c));
        for c in &legal {
            if matches!(c, Command::EndPhase | Command::Mahouts { .. }) && !out.contains(c) {
                out.push(c.clone());
            }
        }
        out
    }
}

/// The default budget of `mcts-othw`, in iterations a decision.
pub const DEFAULT_ITERATIONS: u32 = 2500;

/// The default settings of `mcts-othw`: [`DEFAULT_ITERATIONS`], exploration 0.2 (values are
/// chances of winning, and good options differ by a few hundredths), play-outs of at most 30
/// commands.
pub fn default_config() -> MctsConfig {
    MctsConfig {
        budget: Budget::Iterations(DEFAULT_ITERATIONS),
        exploration: 0.2,
        rollout_depth: Some(bots::mcts::INFORMED_DEPTH),
        ..MctsConfig::default()
    }
}

/// The `mcts-othw` bot a spec asks for (its own hooks, so bots in parallel games share no
/// lock).
pub fn mcts(spec: &BotSpec) -> Result<Mcts<Othw>, String> {
    let mut rest = spec.clone();
    rest.params.retain(|(k, _)| k != "stop" && k != "draw");
    let config = MctsConfig::from_spec_with(&rest, default_config())?;
    let mut hooks = OthwHooks::default();
    let unit = |key: &str| -> Result<Option<f64>, String> {
        spec.param(key)
            .map(|v| {
                v.parse::<f64>().ok().filter(|x| (0.0..=1.0).contains(x)).ok_or_else(|| {
                    format!("mcts-othw parameter {key}='{v}': give a number from 0 to 1")
                })
            })
            .transpose()
    };
    if let Some(stop) = unit("stop")? {
        hooks.stop = stop;
    }
    if let Some(draw) = unit("draw")? {
        hooks.draw = draw;
    }
    Ok(Mcts::with_hooks(config, Arc::new(hooks)))
}

/// What `mcts-othw` says of itself in listings.
pub const MCTS_OTHW_ABOUT: &str = "Monte Carlo tree search with O/THW knowledge (2500 \
iterations a decision): searches the scripted player's choices, its variants' and every attack, \
plays out with the scripted player, values army morale and strength, reuses its tree; \
parameters as for mcts, and stop=X (play-out stop chance, 0.05) and draw=X (a draw's worth, 0.25)";

/// Registers the scripted player as `scripted`, and an MCTS bot that searches with
/// [`OthwHooks`] as `mcts-othw`, on an O/THW host (call after `bots::with_standard_bots`).
pub fn register(host: Host<Othw>) -> Host<Othw> {
    host.with_bot("scripted", SCRIPTED_ABOUT, |spec: &BotSpec| {
        spec.only(&[])?;
        Ok(Box::new(Hosted::<Othw, _>::new(Scripted::new())) as Box<dyn HostedBot>)
    })
    .with_bot("mcts-othw", MCTS_OTHW_ABOUT, |spec: &BotSpec| {
        Ok(Box::new(Hosted::new(mcts(spec)?)) as Box<dyn HostedBot>)
    })
}
