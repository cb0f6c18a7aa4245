//! The umpire: reads a battle command by command (the state before, the events the command made
//! and the state after) and holds it to the rules' invariants. A violation is a bug, told with
//! the command and game move where it happened, so the battle's seed reproduces it.
//!
//! What it checks:
//! - every event cites at least one FMT rule;
//! - who may act: only a side the rules are waiting for, the umpire only with the clock's tick
//!   and bell; no timed command while the side's hands are busy, and game time never goes back
//!   within a window;
//! - every step lands exactly the handling time (times its stands, for a column or a square)
//!   after it began, never after the bell, and only for a stand that was on the table, not
//!   frozen and not shaken; its length and cost lie within its allowance, the allowance is the
//!   stand's own, and the cost is the sum of its items (inches × factor);
//! - no two stands overlap after any command;
//! - a stand's points are its start points less its kills, its kills are its history's, and a
//!   stand at 0 is off the table;
//! - every melee total adds up from its parts (points; half-points two or three a point; the
//!   product the last die times the half-points), the higher product wins, the loser loses
//!   half its counted points rounded up and the winner half of that rounded up, and the kills
//!   recorded for the melee add up to those losses (as far as the stands had points);
//! - a retreat is no longer than the moves owed times the stand's normal move, a bonus move and
//!   a rearrangement no longer than one normal move;
//! - a window is as long as the clock's formula says (FMT-R-03);
//! - a side pulls out only of a melee it has stands in;
//! - the record replays to the same state.

use crate::Freemove;
use crate::state::{Command, Event, Morale, Order, Phase, State};
use bots::Bot;
use std::sync::Arc;
use tabletop::dice::SeededDice;
use tabletop::game::Game;
use tabletop::geometry::Rect;
use tabletop::rules::{Actor, Narrate, Pending, RuleSet, Side};

/// Slack for comparing inches.
const EPS: f64 = 1e-6;

/// How deep two footprints may sink into each other before it counts as an overlap.
const SINK: f64 = 0.01;

/// One rule broken.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// The command that broke it (its index in the game).
    pub command: usize,
    /// The game move it was played in.
    pub game_move: u32,
    /// What was wrong.
    pub what: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "command {} (game move {}): {}", self.command, self.game_move, self.what)
    }
}

/// One command as the umpire sees it.
pub struct Step<'a> {
    /// Its index among the game's commands.
    pub index: usize,
    /// Who gave it.
    pub actor: Actor,
    /// The command.
    pub command: &'a Command,
    /// The state before it.
    pub before: &'a State,
    /// The events it made.
    pub events: &'a [Event],
    /// The state after it.
    pub after: &'a State,
}

/// The umpire.
#[derive(Clone, Copy, Debug, Default)]
pub struct Umpire;

impl Umpire {
    /// Checks one command, returning what it broke.
    pub fn check(&self, rules: &Freemove, step: &Step) -> Vec<Violation> {
        let mut out = Vec::new();
        let gm = step.after.game_move;
        let mut bad = |what: String| {
            out.push(Violation { command: step.index, game_move: gm, what });
        };
        check_actor(rules, step, &mut bad);
        check_events(rules, step, &mut bad);
        check_state(rules, step.before, step.after, &mut bad);
        out
    }
}

fn timed(c: &Command) -> Option<u64> {
    crate::rules_impl::timed_at(c)
}

/// Who may act, and when (FMT-TIME-01, FMT-R-01, FMT-R-06).
fn check_actor(rules: &Freemove, step: &Step, bad: &mut impl FnMut(String)) {
    let st = step.before;
    match step.actor {
        Actor::Umpire => {
            if !matches!(step.command, Command::Tick { .. } | Command::Bell { .. }) {
                bad(format!("the umpire gave a player's command: {:?}", step.command));
            }
        }
        Actor::Side(side) => {
            if matches!(step.command, Command::Tick { .. } | Command::Bell { .. }) {
                bad(format!("{side} gave the clock's command"));
            }
            let pending = rules.pending(st);
            let may = match &pending {
                Pending::Timed { sides, .. } => {
                    sides.contains(&side)
                        || matches!(
                            step.command,
                            Command::FireAndCharge { .. } | Command::CallTime { .. }
                        )
                }
                p => p.sides().contains(&side),
            };
            if !may {
                bad(format!("{side} acted while the rules waited for {:?}", pending.sides()));
            }
            if let (Some(at), Some(c)) = (timed(step.command), st.clock()) {
                if at < c.now_ms {
                    bad(format!(
                        "{side}'s command at {at} ms, after the clock had reached {}",
                        c.now_ms
                    ));
                }
                let hands_free = c.hands[side.index()].free_ms;
                let needs_hands = matches!(
                    step.command,
                    Command::Step { .. }
                        | Command::Column { .. }
                        | Command::MoveSquare { .. }
                        | Command::Wait { .. }
                        | Command::Done { .. }
                );
                if needs_hands && at < hands_free {
                    bad(format!("{side} acted at {at} ms with its hands busy until {hands_free}"));
                }
            }
        }
    }
    if let (Some(b), Some(a)) = (st.clock(), step.after.clock())
        && a.now_ms < b.now_ms
    {
        bad(format!("the clock went back from {} to {} ms", b.now_ms, a.now_ms));
    }
}

/// The stands an order moves.
fn order_stands(st: &State, o: &Order) -> Vec<usize> {
    match o {
        Order::Step { stand, .. } => vec![*stand],
        Order::Column { stands, .. } => stands.clone(),
        Order::Square { square, .. } => {
            st.square(*square).map(|q| q.stands.clone()).unwrap_or_default()
        }
    }
}

/// Every event, against the state just before it (replayed event by event from `before`).
fn check_events(rules: &Freemove, step: &Step, bad: &mut impl FnMut(String)) {
    let mut cur = step.before.clone();
    let mut last_at: Option<u64> = cur.clock().map(|c| c.now_ms);
    let events = step.events;
    let mut landing: Option<crate::state::Flight> = None;
    for (k, e) in events.iter().enumerate() {
        let cited = e.rules();
        if cited.is_empty() {
            bad(format!("an event cites no rule: {}", e.describe()));
        }
        for r in &cited {
            if !r.as_str().starts_with("FMT-") {
                bad(format!("an event cites {}, not an FMT rule", r.as_str()));
            }
        }
        // Game time within the window.
        let at = match e {
            Event::StepBegun { flight, .. } => Some(flight.issued_ms),
            Event::Waited { at_ms, .. }
            | Event::Finished { at_ms, .. }
            | Event::Stepped { at_ms, .. }
            | Event::StepVoid { at_ms, .. }
            | Event::TimeCalled { at_ms, .. }
            | Event::WindowClosed { at_ms, .. } => Some(*at_ms),
            Event::Contact { at_ms, .. } if cur.clock().is_some() => Some(*at_ms),
            _ => None,
        };
        if let (Some(at), Some(c)) = (at, cur.clock()) {
            if let Some(l) = last_at
                && at < l
            {
                bad(format!("game time went back from {l} to {at} ms: {}", e.describe()));
            }
            last_at = Some(at);
            if matches!(e, Event::Stepped { .. }) && at > c.length_ms {
                bad(format!("a step landed at {at} ms, after the bell at {}", c.length_ms));
            }
        }
        match e {
            Event::WindowOpened { length_ms, .. } => {
                let want = window_formula(rules, &cur);
                if *length_ms != want {
                    bad(format!("the window is {length_ms} ms; the formula gives {want}"));
                }
            }
            Event::StepBegun { side, flight } => {
                let n = match &flight.order {
                    Order::Step { .. } => 1,
                    o => order_stands(&cur, o).len() as u64,
                };
                let want = cur.handling_ms * n;
                if flight.lands_ms != flight.issued_ms + want {
                    bad(format!(
                        "{side}'s step of {n} stand(s) begun at {} lands at {}, not {} later",
                        flight.issued_ms, flight.lands_ms, want
                    ));
                }
            }
            Event::Stepped { stand, at_ms, from, to, length, cost, allowance, items, .. } => {
                let s = &cur.stands[*stand];
                // The first stand of a column or square to land clears its side's hands; the
                // others land with the same step.
                let flight = cur
                    .clock()
                    .and_then(|c| c.hands[s.side.index()].flight.clone())
                    .or_else(|| landing.clone().filter(|f| f.lands_ms == *at_ms));
                landing = flight.clone();
                match flight {
                    None => bad(format!("{} stepped with no step under way", s.name)),
                    Some(f) => {
                        if f.lands_ms != *at_ms {
                            bad(format!(
                                "{} landed at {at_ms} ms; its step was due at {}",
                                s.name, f.lands_ms
                            ));
                        }
                        if !order_stands(&cur, &f.order).contains(stand) {
                            bad(format!("{} stepped but its side's step does not move it", s.name));
                        }
                    }
                }
                if !s.on_table {
                    bad(format!("{} stepped off the table's roster", s.name));
                }
                if s.frozen {
                    bad(format!("{} stepped while frozen in contact", s.name));
                }
                if matches!(s.morale, Morale::Broken { .. }) {
                    bad(format!("{} stepped while shaken", s.name));
                }
                if (s.rect.centre.distance(from.centre)) > EPS {
                    bad(format!("{} stepped from where it did not stand", s.name));
                }
                let d = from.centre.distance(to.centre);
                if (d - length).abs() > 1e-4 {
                    bad(format!("{}'s step is {d}\" but was logged as {length}\"", s.name));
                }
                let sum: f64 = items.iter().map(|i| i.inches * i.factor).sum();
                if (sum - cost).abs() > 1e-6 {
                    bad(format!(
                        "{}'s step costs {cost}\" but its items add up to {sum}\"",
                        s.name
                    ));
                }
                if *cost > allowance + EPS || *length > allowance + EPS {
                    bad(format!(
                        "{}'s step of {length}\" costs {cost}\", over its {allowance}\"",
                        s.name
                    ));
                }
                let t = rules.troop(s);
                let square_rate = s.square.and_then(|q| cur.square(q)).map(|q| {
                    q.stands
                        .iter()
                        .map(|i| rules.troop(&cur.stands[*i]).normal)
                        .fold(f64::MAX, f64::min)
                        / 2.0
                });
                let ok = (allowance - t.normal).abs() < EPS
                    || (allowance - t.column).abs() < EPS
                    || square_rate.is_some_and(|r| (allowance - r).abs() < EPS);
                if !ok {
                    bad(format!("{}'s allowance {allowance}\" is none of its own", s.name));
                }
            }
            Event::Retreated { stand, from, to, moves, .. } => {
                let s = &cur.stands[*stand];
                let max = *moves as f64 * rules.troop(s).normal;
                let d = from.centre.distance(to.centre);
                if d > max + 1e-4 {
                    bad(format!(
                        "{} fell back {d:.3}\", more than {moves} moves ({max}\")",
                        s.name
                    ));
                }
            }
            Event::BonusMoved { stand, from, to, .. } => {
                let s = &cur.stands[*stand];
                let d = from.centre.distance(to.centre);
                if d > rules.troop(s).normal + 1e-4 {
                    bad(format!("{}'s bonus move is {d:.3}\", over one normal move", s.name));
                }
                if matches!(s.morale, Morale::Broken { .. }) {
                    bad(format!("{} made a bonus move while shaken", s.name));
                }
            }
            Event::Rearranged { stand, from, to, .. } => {
                let s = &cur.stands[*stand];
                let d = from.centre.distance(to.centre);
                if d > rules.troop(s).normal + 1e-4 {
                    bad(format!("{} was rearranged {d:.3}\", over one normal move", s.name));
                }
            }
            Event::Killed { stand, kills, .. } => {
                let s = &cur.stands[*stand];
                if !s.on_table {
                    bad(format!("kills recorded against {}, no longer on the table", s.name));
                }
                if *kills == 0 || *kills > rules.points(s) {
                    bad(format!("{kills} kills against {} of {} points", s.name, rules.points(s)));
                }
            }
            Event::Fought { red, blue, winner, losses, .. } => {
                check_melee(rules, &cur, red, blue, *winner, *losses, &events[k + 1..], bad);
            }
            Event::Shot { shooter, target, row, roll, hit, .. } => {
                check_shot(rules, &cur, *shooter, *target, row, roll.as_ref(), *hit, bad);
            }
            Event::BowmenMorale { red, blue, loser } => {
                let mut products = [0u32; 2];
                for (k, (ids, points, rolls)) in [red, blue].into_iter().enumerate() {
                    let sum: u32 = ids.iter().map(|i| rules.points(&cur.stands[*i])).sum();
                    if sum != *points {
                        bad(format!(
                            "bowmen's morale counts {points} points; the stands have {sum}"
                        ));
                    }
                    products[k] = rolls.last().map_or(0, |r| r.value as u32) * points;
                }
                let (l, w) = if *loser == Side::Red {
                    (products[0], products[1])
                } else {
                    (products[1], products[0])
                };
                if l >= w {
                    bad(format!("{loser}'s bowmen lost their morale test with {l} against {w}"));
                }
            }
            Event::PulledOut { side, melee, points: 0, .. } => {
                bad(format!("{side} pulled out of melee {melee} with no stand in it"));
            }
            Event::Charged { stand, .. } => {
                let s = &cur.stands[*stand];
                if !s.fire_and_charge || !rules.troop(s).fire_and_charge {
                    bad(format!("{} charged home without a Fire and Charge call", s.name));
                }
                if matches!(s.morale, Morale::Broken { .. }) {
                    bad(format!("{} charged home while shaken", s.name));
                }
            }
            _ => {}
        }
        rules.apply_event(&mut cur, e);
        match e {
            Event::Contact { mover, met, .. } => {
                let (a, b) = (&cur.stands[*mover], &cur.stands[*met]);
                if a.side == b.side || a.rect.distance(&b.rect) > rules.eps() + 1e-4 {
                    bad(format!("{} and {} are said to touch but do not", a.name, b.name));
                }
            }
            Event::Charged { stand, target, .. } => {
                let (a, b) = (&cur.stands[*stand], &cur.stands[*target]);
                if a.rect.distance(&b.rect) > rules.eps() + 1e-4 {
                    bad(format!("{} charged home on {} but does not touch it", a.name, b.name));
                }
            }
            _ => {}
        }
    }
    if tabletop::game::state_hash(&cur) != tabletop::game::state_hash(step.after) {
        bad("the events do not lead from the state before to the state after".into());
    }
}

/// A volley: a stand that may shoot, in range of its front edge, and the hit as the killing
/// table's row says (FMT-FIRE-02..08, FMT-DEF-01..04).
#[allow(clippy::too_many_arguments)]
fn check_shot(
    rules: &Freemove,
    cur: &State,
    shooter: usize,
    target: usize,
    row: &str,
    roll: Option<&tabletop::dice::Roll>,
    hit: bool,
    bad: &mut impl FnMut(String),
) {
    let (a, b) = (&cur.stands[shooter], &cur.stands[target]);
    if !a.on_table || !b.on_table || a.side == b.side {
        bad(format!("{} shot at {}: not two enemy stands on the table", a.name, b.name));
    }
    if matches!(a.morale, Morale::Broken { .. }) {
        bad(format!("{} shot while shaken", a.name));
    }
    let Some((_, range)) = rules.missile(a) else {
        return bad(format!("{} shot with no missiles", a.name));
    };
    let edge = Rect::from_front_centre(a.rect.front_centre(), a.rect.facing, a.rect.width, 1e-6);
    let d = edge.distance(&b.rect);
    if d > range + 1e-4 {
        bad(format!("{} shot {} at {d:.2}\", beyond its {range}\" range", a.name, b.name));
    }
    let k = &rules.data.killing;
    let light = rules.troop(b).class == crate::data::Class::Light;
    let kill = if row.contains("defensive") {
        if light { &k.light_cover } else { &k.heavy_cover }
    } else if row.contains("flank") {
        if light { &k.light_flank } else { &k.heavy_flank }
    } else if light {
        &k.light_front
    } else {
        &k.heavy_front
    };
    match (kill.faces(), roll) {
        (None, None) => {
            if !hit {
                bad(format!("{}'s sure kill on {} missed", a.name, b.name));
            }
        }
        (Some(faces), Some(r)) => {
            if hit != faces.contains(&r.value) {
                bad(format!(
                    "{}'s volley at {}: {} gives hit {hit} ({row})",
                    a.name, b.name, r.value
                ));
            }
        }
        _ => bad(format!("{}'s volley at {} ({row}) and its die do not match", a.name, b.name)),
    }
}

/// The window's length by the clock's formula, worked out afresh (FMT-R-02, FMT-R-03).
pub fn window_formula(rules: &Freemove, st: &State) -> u64 {
    let start: u32 = st.sides.iter().map(|s| s.start_stands).sum();
    let lost = st.stands.iter().filter(|s| !s.on_table).count() as u32;
    let mut len = st.primary_ms;
    for stage in &rules.data.rules.clock.stages {
        // lost / start ≥ stage
        if start > 0 && lost as f64 >= stage * start as f64 - 1e-9 {
            len /= 2;
        }
    }
    len.max(rules.data.rules.clock.minimum_ms.min(st.primary_ms))
}

#[allow(clippy::too_many_arguments)]
fn check_melee(
    rules: &Freemove,
    cur: &State,
    red: &crate::state::MeleeSide,
    blue: &crate::state::MeleeSide,
    winner: Side,
    losses: (u32, u32),
    rest: &[Event],
    bad: &mut impl FnMut(String),
) {
    let halves = rules.data.rules.melee.defensive_halves;
    for s in [red, blue] {
        let pts: u32 = s.stands.iter().map(|x| x.1).sum();
        let hs: u32 = s.stands.iter().map(|x| x.2).sum();
        if pts != s.points || hs != s.halves {
            bad(format!(
                "{}'s melee total: points {} (parts {pts}), half-points {} (parts {hs})",
                s.side, s.points, s.halves
            ));
        }
        for (id, p, h, _) in &s.stands {
            let st = &cur.stands[*id];
            if *p != rules.points(st) {
                bad(format!("{} counted at {p} points; it has {}", st.name, rules.points(st)));
            }
            if *h != p * 2 && *h != p * halves {
                bad(format!("{} counted {h} half-points for {p} points", st.name));
            }
            if st.side != s.side || !st.on_table {
                bad(format!("{} counted for {} in a melee", st.name, s.side));
            }
            // ×1.5 only in a square, a house, on a hill or behind a wall; always in a square.
            if *h == p * halves && *p > 0 {
                let wall = cur.stands.iter().any(|e| {
                    e.on_table
                        && e.side != st.side
                        && e.rect.centre.distance(st.rect.centre) < 8.0
                        && rules.crosses_wall(&cur.table, st.rect.centre, e.rect.centre)
                });
                let ok = st.square.is_some()
                    || rules.house_at(&cur.table, st.rect.centre).is_some()
                    || rules.hill_at(&cur.table, st.rect.centre).is_some()
                    || wall;
                if !ok {
                    bad(format!("{} fought at ×1.5 in no defensive position", st.name));
                }
            }
            if st.square.is_some() && *h != p * halves {
                bad(format!("{} fought in square without its ×1.5", st.name));
            }
        }
        let die = s.rolls.last().map_or(0, |r| r.value as u32);
        if s.product_halves != die * s.halves {
            bad(format!(
                "{}'s product {} is not its last die {die} × {} half-points",
                s.side, s.product_halves, s.halves
            ));
        }
    }
    let (w, l) = if winner == Side::Red { (red, blue) } else { (blue, red) };
    if w.product_halves <= l.product_halves {
        bad(format!(
            "{winner} won the melee with {} against {}",
            w.product_halves, l.product_halves
        ));
    }
    let want_l = l.points.div_ceil(2);
    let want_w = want_l.div_ceil(2);
    if losses != (want_l, want_w) {
        bad(format!("melee losses {losses:?}; the rule gives ({want_l}, {want_w})"));
    }
    // The kills of this melee: the Killed events for losing and winning that follow it, up to
    // the next melee round.
    let (mut kl, mut kw) = (0u32, 0u32);
    for e in rest {
        match e {
            Event::Fought { .. } => break,
            Event::Killed { stand, kills, rule, .. } => {
                let of = |m: &crate::state::MeleeSide| m.stands.iter().any(|x| x.0 == *stand);
                match rule.as_str() {
                    "FMT-MELEE-05" => {
                        kl += kills;
                        if !of(l) {
                            bad(format!(
                                "a loser's kill on stand {stand}, not counted in the melee"
                            ));
                        }
                    }
                    "FMT-MELEE-06" => {
                        kw += kills;
                        if !of(w) {
                            bad(format!(
                                "a winner's kill on stand {stand}, not counted in the melee"
                            ));
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    let (cap_l, cap_w) = (want_l.min(l.points), want_w.min(w.points));
    if kl != cap_l || kw != cap_w {
        bad(format!(
            "the melee's kills are {kl} on the loser and {kw} on the winner; the losses are {cap_l} and {cap_w}"
        ));
    }
}

/// The state after a command: rosters and overlaps.
fn check_state(rules: &Freemove, before: &State, st: &State, bad: &mut impl FnMut(String)) {
    for s in &st.stands {
        let start = rules.troop(s).points;
        let hist: u32 = s.history.iter().map(|h| h.1).sum();
        if hist != s.kills {
            bad(format!("{} has {} kills but its history holds {hist}", s.name, s.kills));
        }
        if s.kills > start {
            bad(format!("{} has {} kills of {start} points", s.name, s.kills));
        }
        if rules.points(s) != start.saturating_sub(s.kills) {
            bad(format!("{}'s points are not its start less its kills", s.name));
        }
        if s.on_table && rules.points(s) == 0 {
            bad(format!("{} is on the table with no points", s.name));
        }
    }
    for q in &st.squares {
        let n = q.stands.len();
        if !(rules.data.rules.square.minimum_stands..=5).contains(&n) {
            bad(format!("square {} has {n} stands", q.id));
        }
        for i in &q.stands {
            let s = &st.stands[*i];
            if !s.on_table || s.side != q.side || !rules.infantry(s) || s.square != Some(q.id) {
                bad(format!("{} is in square {} but may not be", s.name, q.id));
            }
        }
    }
    let live: Vec<_> = st.stands.iter().filter(|s| s.on_table).collect();
    // In the timed move every stand touching an enemy is frozen (FMT-TIME-11).
    if st.clock().is_some() {
        for s in &live {
            if !s.frozen && !rules.enemies_touching(st, s.id).is_empty() {
                bad(format!("{} touches an enemy in the timed move but is not frozen", s.name));
            }
        }
    }
    for (i, a) in live.iter().enumerate() {
        let ra = a.rect.inset(SINK);
        for b in &live[i + 1..] {
            let was = before.stands.get(a.id).zip(before.stands.get(b.id)).is_some_and(|(x, y)| {
                x.on_table && y.on_table && x.rect.inset(SINK).overlaps(&y.rect.inset(SINK))
            });
            if !was
                && a.rect.centre.distance(b.rect.centre) < 3.0
                && ra.overlaps(&b.rect.inset(SINK))
            {
                bad(format!("{} and {} overlap", a.name, b.name));
            }
        }
    }
    if let Phase::Over = st.phase
        && st.outcome.is_none()
    {
        bad("the battle is over with no outcome".into());
    }
}

/// A battle played under the umpire's eye.
pub struct Checked {
    /// The game at its end.
    pub game: Game<Freemove>,
    /// Every rule broken.
    pub violations: Vec<Violation>,
    /// Whether the rules ended it (not the command limit).
    pub finished: bool,
}

/// Where the ready scenarios are (`scenarios/freemove` in the project).
pub const READY_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/freemove");

/// The ready scenarios' file names (`*.toml` in [`READY_DIR`]), sorted.
pub fn ready_scenarios() -> Vec<String> {
    tabletop::harness::toml_files(READY_DIR)
}

/// Reads a whole battle from its game: replays its record command by command, checking each
/// with the state before, its events and the state after, and that the replay reaches the
/// game's own state.
pub fn audit(rules: &Arc<Freemove>, game: &Game<Freemove>) -> Result<Vec<Violation>, String> {
    let record = game.record();
    let source = tabletop::Source::new(record.scenario_name.clone(), record.scenario.clone());
    let mut again = Game::new(rules.clone(), source, record.seed).map_err(|d| d.to_string())?;
    let mut out = Vec::new();
    let starts = game.command_starts();
    for (index, rc) in record.commands.iter().enumerate() {
        let command: Command =
            serde_json::from_value(rc.command.clone()).map_err(|e| e.to_string())?;
        let before = again.state().clone();
        let events = again
            .submit(rc.actor, command.clone())
            .map_err(|r| format!("command {index} is refused on replay: {r}"))?
            .to_vec();
        let end = starts.get(index + 1).copied().unwrap_or(game.events().len());
        if starts.get(index).is_some_and(|s| game.events()[*s..end] != events[..]) {
            out.push(Violation {
                command: index,
                game_move: again.state().game_move,
                what: "the replayed command made other events than the game's".into(),
            });
        }
        let step = Step {
            index,
            actor: rc.actor,
            command: &command,
            before: &before,
            events: &events,
            after: again.state(),
        };
        out.extend(Umpire.check(rules, &step));
    }
    if again.state_hash() != game.state_hash() {
        out.push(Violation {
            command: record.commands.len(),
            game_move: game.state().game_move,
            what: "the record replays to a different state".into(),
        });
    }
    Ok(out)
}

/// Plays a battle from `source` with `seed` between two bots (red, blue), for at most
/// `max_commands`, then has the umpire read it.
pub fn play(
    rules: &Arc<Freemove>,
    source: &tabletop::Source,
    seed: u64,
    bots: [&mut dyn Bot<Freemove>; 2],
    max_commands: usize,
) -> Result<Checked, String> {
    let mut game = Game::new(rules.clone(), source.clone(), seed).map_err(|d| d.to_string())?;
    let mut rngs = Side::BOTH.map(|s| SeededDice::new(seed ^ (0x9e37_79b9 + s.index() as u64)));
    while game.outcome().is_none() && game.command_count() < max_commands {
        let Some(&side) = game.pending().sides().first() else {
            return Err(format!("nobody may act after {} commands", game.command_count()));
        };
        let command = bots[side.index()]
            .choose(rules, game.state(), side, &mut rngs[side.index()])
            .map_err(|e| format!("the {side} bot: {e}"))?;
        game.submit(Actor::Side(side), command)
            .map_err(|r| format!("the {side} bot's command was refused: {r}"))?;
    }
    let finished = game.outcome().is_some();
    let violations = audit(rules, &game)?;
    Ok(Checked { game, violations, finished })
}
