//! The reaction tests of a period applied to the state: who must test, the dice thrown through
//! the game's [`DiceSource`], the situation read off the table, and what the result does to the
//! unit and its order (WRG-RT-01 .. -11, WRG-RTP, WRG-RRES, WRG-R-17, WRG-R-18), and how a test
//! is told in the log: its score with every factor as a part, the dice, the chart and class
//! column, and the facts an umpire checks.

use crate::Data;
use crate::combat::Cause;
use crate::model::{ReactionClass, ReactionFactor, Status};
use crate::reaction::{
    Effect, OrderFate, Outcome, Running, Sign, Situation, Stance, Test, Trigger, work_out,
};
use crate::report::{Fact, Note, Total};
use crate::situation::{Sightlines, read_in};
use crate::state::{Motion, State};
use serde::Serialize;
use std::collections::BTreeMap;
use tabletop::dice::{DiceSource, Roll};
use tabletop::rules::RuleId;

/// The reach of the below-half test's friends for a unit in hand-to-hand, inches (WRG-RT-08).
pub const CLOSE_FIGHT_FRIENDS: f64 = 3.0;

/// A test taken.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Taken {
    /// The unit.
    pub unit: u16,
    /// Why it tested.
    pub trigger: Trigger,
    /// The dice.
    pub rolls: Vec<Roll>,
    /// The result.
    pub outcome: Outcome,
    /// Its class (the chart's column, WRG-CLASS-01 .. -05).
    pub class: ReactionClass,
    /// Regular or barbarian (the dice, WRG-CLASS-06).
    pub status: Status,
    /// An Asiatic levy (ordinary dice, WRG-M-16).
    pub levy: bool,
    /// Figures at the start of the battle and now (the number of dice, WRG-RTP-02).
    pub figures: [u32; 2],
    /// The situation it tested in.
    pub situation: Situation,
    /// What disorganised it, when it was (WRG-DIS-03 .. -12).
    pub causes: Vec<Cause>,
    /// The multi-period result this test replaced (WRG-RRES-10).
    pub replaced: Option<Effect>,
    /// It tested in hand-to-hand, counting friends within 3" only (WRG-RT-08).
    pub close_fight: bool,
    /// How its owner asked for the ± factors' signs (WRG-R-17).
    pub stance: Stance,
    /// For the hold-order follow-up test: whether the holders stay (WRG-RT-10).
    pub holds: Option<bool>,
    /// The note of the step it took turning to run, if it broke and took one.
    pub step: Option<Note>,
}

/// Units that come within 15" of an enemy for the first time (WRG-RT-02).
pub fn first_within_range(data: &Data, state: &State) -> Vec<u16> {
    let within = data.movement.distances.reaction_within;
    let sl = Sightlines::new(data, state);
    let mut out = Vec::new();
    for u in state.units.iter() {
        if !u.on_table() || u.tested_within_range || u.motion == Motion::Routing {
            continue;
        }
        let mut near = false;
        sl.within(u.at, within, |e| near |= e.side != u.side);
        if near {
            out.push(u.id);
        }
    }
    out
}

/// The tests a friend's break calls for (WRG-RT-05): every unit within 15" of where a unit of
/// its side broke this period (or was sent off by its below-half test), unless it is fighting,
/// routing, off the table, or in `skip`. Breaks are taken once: each broken unit is added to
/// `announced`.
pub fn friends_of_broken(
    data: &Data,
    state: &State,
    announced: &mut Vec<u16>,
    skip: &[u16],
) -> Vec<(u16, Trigger)> {
    let broken: Vec<(u16, crate::state::Unit)> = state
        .units
        .iter()
        .filter(|u| u.broke_at.is_some() && !announced.contains(&u.id))
        .map(|u| (u.id, u.clone()))
        .collect();
    if broken.is_empty() {
        return Vec::new();
    }
    let within = data.movement.distances.reaction_within;
    let sl = Sightlines::new(data, state);
    let mut out: Vec<(u16, Trigger)> = Vec::new();
    for (id, b) in &broken {
        announced.push(*id);
        let Some(at) = b.broke_at else { continue };
        sl.within(at, within, |u| {
            if u.side == b.side
                && u.id != *id
                && u.motion != Motion::Routing
                && u.broke_at.is_none()
                && !skip.contains(&u.id)
                && !sl.fighting(u.id)
                && !out.iter().any(|(x, _)| *x == u.id)
            {
                out.push((u.id, Trigger::FriendBroke));
            }
        });
    }
    out.sort_by_key(|(id, _)| *id);
    out
}

/// Why a unit may not take an optional test now, with the rule: it is in hand-to-hand, broken
/// and running, in its first period of pursuit (WRG-RT-01), or carrying out a result that
/// lasts more than one period (WRG-RRES-10).
pub fn optional_refusal(sl: &Sightlines, id: u16) -> Option<(&'static str, &'static str)> {
    let u = sl.state().units.get(id as usize)?;
    let doing = crate::reaction::Doing {
        in_close_combat: sl.fighting(id),
        broken: u.rout.is_some(),
        first_pursuit_period: u.pursuit.is_some_and(|p| p.periods == 0),
        running_result: u.running.is_some(),
    };
    let rule = crate::reaction::optional_test(doing).err()?;
    let why = if doing.in_close_combat {
        "it is in hand-to-hand"
    } else if doing.broken {
        "it is broken and running"
    } else if doing.first_pursuit_period {
        "it is in its first period of pursuit"
    } else {
        "it is carrying out a reaction result that lasts more than one period"
    };
    Some((rule, why))
}

/// Checks the optional tests a side asks for in its plan: its own units on the table, each
/// once, none excluded (WRG-RT-01, WRG-RRES-10); and its stances: its own units, each once
/// (WRG-R-17).
pub fn check_plan(
    data: &Data,
    state: &State,
    side: tabletop::rules::Side,
    plan: &crate::plan::Plan,
) -> Result<(), tabletop::rules::Refusal> {
    use tabletop::rules::Refusal;
    let own = |id: u16| state.units.get(id as usize).filter(|u| u.side == side && u.on_table());
    for (i, s) in plan.stances.iter().enumerate() {
        if own(s.unit).is_none() {
            return Err(Refusal::new("WRG-R-17", format!("{side} has no unit {}", s.unit)));
        }
        if plan.stances[..i].iter().any(|x| x.unit == s.unit) {
            return Err(Refusal::new("WRG-R-17", format!("unit {} is given two stances", s.unit)));
        }
    }
    if plan.test.is_empty() {
        return Ok(());
    }
    let sl = Sightlines::new(data, state);
    for (i, &id) in plan.test.iter().enumerate() {
        let Some(u) = own(id) else {
            return Err(Refusal::new("WRG-RT-01", format!("{side} has no unit {id} to test")));
        };
        if plan.test[..i].contains(&id) {
            return Err(Refusal::new("WRG-RT-01", format!("{} is asked to test twice", u.name)));
        }
        if let Some((rule, why)) = optional_refusal(&sl, id) {
            return Err(Refusal::new(rule, format!("{} may not test now: {why}", u.name)));
        }
    }
    Ok(())
}

/// Whether an optional test is worth asking for a unit with no order (chart 2): the score it
/// may expect (the dice's mean and the fixed factors of its situation now, which its side can
/// see) reaches chart 2's "move toward the nearest enemy" for its class, so the test is more
/// likely to set it going than to send it back (WRG-RT-01, WRG-RTP-04). False for a unit that
/// may not test or holds an order.
pub fn optional_promising(data: &Data, state: &State, id: u16) -> bool {
    optional_promising_in(data, &Sightlines::new(data, state), id)
}

/// As [`optional_promising`], reading the table through `sl` (one for all the units of a
/// plan).
pub fn optional_promising_in(data: &Data, sl: &Sightlines, id: u16) -> bool {
    let state = sl.state();
    let Some(u) = state.units.get(id as usize).filter(|u| u.on_table()) else { return false };
    if u.standing.order().is_some() {
        return false;
    }
    if optional_refusal(sl, id).is_some() {
        return false;
    }
    let s = read_in(data, sl, u);
    let count = crate::random::reaction_dice_count(data, u.start_figures, u.block.figures);
    let die = crate::random::reaction_die(data, u.status, u.levy);
    let mean = match die {
        tabletop::dice::Die::Average => 3.5,
        tabletop::dice::Die::D(n) => (f64::from(n) + 1.0) / 2.0,
    };
    let fixed: i32 = crate::reaction::fixed_factors(data, &s).iter().map(|a| a.delta).sum();
    let expect = mean * f64::from(count) + f64::from(fixed);
    let forward = crate::reaction::chart(data, false)
        .iter()
        .find(|b| b.result == crate::model::ReactionResult::MoveTowardEnemy)
        .and_then(|b| b.span(u.class).min);
    forward.is_some_and(|m| expect >= f64::from(m))
}

/// The optional tests asked for at the start of the period, each told in the log; a unit that
/// may no longer test (it broke off and was routed) is told so (WRG-RT-01, WRG-RRES-10).
pub fn optional_tests(
    data: &Data,
    state: &mut State,
    asked: &[u16],
    dice: &mut dyn DiceSource,
) -> Vec<Note> {
    let mut notes = Vec::new();
    let mut go: Vec<(u16, Trigger)> = Vec::new();
    {
        let sl = Sightlines::new(data, state);
        for &id in asked {
            match optional_refusal(&sl, id) {
                Some((rule, why)) => {
                    let name = state.units.get(id as usize).map_or("?", |u| &u.name);
                    notes.push(Note::new(rule, format!("{name} may not take its test: {why}")));
                }
                None => go.push((id, Trigger::Optional)),
            }
        }
    }
    let taken = take_tests(data, state, &go, &[], dice);
    notes.extend(taken.iter().map(|t| note(state, t)));
    notes
}

/// Standing infantry with a hold order that have thrown back an infantry attack (`winner`
/// has pushed `loser` back `inches`): they test, and stay where they stand only if they score
/// below their uncontrolled advance on chart 1; otherwise they follow up (WRG-RT-10). Returns
/// the test's note and whether they stay, or `None` when no test is due.
pub fn holders_stay(
    data: &Data,
    state: &mut State,
    loser: u16,
    winner: u16,
    inches: f64,
    dice: &mut dyn DiceSource,
) -> Option<(Note, bool)> {
    let (w, l) = (state.units.get(winner as usize)?, state.units.get(loser as usize)?);
    let holding =
        matches!(w.standing.order().map(|o| &o.verb), Some(crate::orders::Verb::Hold { .. }));
    if !(holding && w.troop.is_infantry() && l.troop.is_infantry()) || inches <= 0.0 {
        return None;
    }
    let taken = take_tests(data, state, &[(winner, Trigger::HoldersFollowUp)], &[], dice);
    let t = taken.first()?;
    Some((note(state, t), t.holds == Some(true)))
}

/// The stance a unit's owner asked for in this period's plan (steady when the plan says
/// nothing, WRG-R-17).
pub fn stance(state: &State, id: u16) -> Stance {
    let Some(u) = state.units.get(id as usize) else { return Stance::Steady };
    state.plans[u.side.index()]
        .as_ref()
        .and_then(|p| p.stances.iter().find(|s| s.unit == id))
        .map_or(Stance::Steady, |s| s.stance)
}

/// The owner's signs for the ± factors under a stance: every one plus or minus, or none (the
/// engine picks) (WRG-R-17).
fn signs(stance: Stance) -> BTreeMap<ReactionFactor, Sign> {
    let sign = match stance {
        Stance::Steady => return BTreeMap::new(),
        Stance::Rouse => Sign::Plus,
        Stance::Restrain => Sign::Minus,
    };
    [
        ReactionFactor::GeneralWithUnit,
        ReactionFactor::GeneralWithin,
        ReactionFactor::BehindCover,
        ReactionFactor::InSquare,
    ]
    .into_iter()
    .map(|f| (f, sign))
    .collect()
}

/// What a unit tests with, read before any of the batch's results changes the table.
struct Ready {
    id: u16,
    trigger: Trigger,
    situation: Situation,
    close_fight: bool,
}

/// Takes each unit's test, once per unit however many triggers it has (the first listed
/// stands for them), every situation read from the table as it stands before any result of
/// the batch, and applies the results in turn: a break routs the unit and closes its order, a
/// retreat, retire, halt, fall-back or advance runs for its periods (replacing any result
/// still running, WRG-RRES-10), "act as the C-in-C wishes" asks its owner for an order, an
/// uncontrolled advance cancels the order; a pursuer halted by chart 2 gives up the pursuit
/// (WRG-RRES-01 .. -10, WRG-R-18, WRG-CHORD-12). Units under fire (shot at this period) or in
/// `under_attack` (being charged) break in the bottom band; the others retreat (WRG-RRES-01).
pub fn take_tests(
    data: &Data,
    state: &mut State,
    triggers: &[(u16, Trigger)],
    under_attack: &[u16],
    dice: &mut dyn DiceSource,
) -> Vec<Taken> {
    let mut ready: Vec<Ready> = Vec::new();
    {
        let st: &State = state;
        let sl = Sightlines::new(data, st);
        for &(id, trigger) in triggers {
            if ready.iter().any(|r| r.id == id)
                || st.units.get(id as usize).is_none_or(|u| !u.on_table())
            {
                continue;
            }
            let u = &st.units[id as usize];
            let mut situation = read_in(data, &sl, u);
            // Below half in hand-to-hand: only friends within 3" count (WRG-RT-08).
            let close_fight = trigger == Trigger::BelowHalf && sl.fighting(id);
            if close_fight {
                let mut near = 0;
                sl.counted_within(u, CLOSE_FIGHT_FRIENDS, |o| {
                    if o.side == u.side {
                        near += 1;
                    }
                });
                situation = situation.in_close_fight(near);
            }
            ready.push(Ready { id, trigger, situation, close_fight });
        }
    }
    let mut out = Vec::new();
    for r in ready {
        let id = r.id;
        let u = &state.units[id as usize];
        let count = crate::random::reaction_dice_count(data, u.start_figures, u.block.figures);
        let (_, rolls) = crate::random::roll_reaction(data, u.status, u.levy, count, dice);
        let stance = stance(state, id);
        let test = Test {
            class: u.class,
            status: u.status,
            levy: u.levy,
            start_figures: u.start_figures,
            figures: u.block.figures,
            has_order: u.standing.order().is_some(),
            under_attack: under_attack.contains(&id) || u.shot_at > 0,
            pursuing: u.pursuit.is_some(),
            situation: r.situation,
            dice: rolls.iter().map(|r| r.value).collect(),
            signs: signs(stance),
        };
        let Ok(outcome) = work_out(data, &test) else { continue };
        let causes = crate::combat::effective_causes(u.troop, u.status, &u.causes);
        let replaced = u.running.filter(|_| r.trigger.mandatory()).map(|x| x.effect);
        let mut taken = Taken {
            unit: id,
            trigger: r.trigger,
            rolls,
            class: u.class,
            status: u.status,
            levy: u.levy,
            figures: [u.start_figures, u.block.figures],
            situation: test.situation,
            causes,
            replaced,
            close_fight: r.close_fight,
            stance,
            holds: (r.trigger == Trigger::HoldersFollowUp)
                .then(|| crate::reaction::holders_stay(data, u.class, outcome.score)),
            outcome,
            step: None,
        };
        taken.step = apply(data, state, &taken);
        out.push(taken);
    }
    out
}

/// What a test's result does to the unit and its order.
fn apply(data: &Data, state: &mut State, t: &Taken) -> Option<Note> {
    let id = t.unit;
    let u = &mut state.units[id as usize];
    if t.trigger == Trigger::FirstContactRange {
        u.tested_within_range = true;
    }
    // The hold-order follow-up test reads one line of the chart only (WRG-RT-10).
    if t.trigger == Trigger::HoldersFollowUp {
        return None;
    }
    match t.outcome.order {
        OrderFate::Cancelled => u.standing.close(crate::orders::Closed::Displaced),
        OrderFate::Replaced => u.awaiting_order = true,
        OrderFate::Kept | OrderFate::Suspended => {}
    }
    match t.outcome.effect {
        Effect::Break => crate::state::break_unit(data, state, id),
        e => {
            if matches!(e, Effect::HaltDisorganised { .. }) {
                // The pursuit halts (WRG-RRES-07, WRG-R-41).
                u.pursuit = None;
            }
            u.running = Running::start(e);
            None
        }
    }
}

/// The rule of a reaction class's column (WRG-CLASS-01 .. -05).
pub fn class_rule(c: ReactionClass) -> &'static str {
    match c {
        ReactionClass::A => "WRG-CLASS-01",
        ReactionClass::B => "WRG-CLASS-02",
        ReactionClass::C => "WRG-CLASS-03",
        ReactionClass::D => "WRG-CLASS-04",
        ReactionClass::E => "WRG-CLASS-05",
    }
}

/// The score of a test as a total: the dice, then every factor with its rule (WRG-RTP-01 ..
/// -03, WRG-RFAC-01 .. -30).
pub fn score_total(t: &Taken) -> Total {
    let o = &t.outcome;
    let dice = match (t.status == Status::Barbarian || t.levy, o.dice_count) {
        (true, _) => "d6",
        (false, 1) => "average die",
        (false, _) => "average dice",
    };
    let mut total = Total::new("score");
    total = if o.dice_count < 3 {
        let why = if o.dice_count == 1 { "below ½" } else { "below ⅔" };
        total.plus(
            "WRG-RTP-02",
            format!(
                "on {} {dice} ({} of {} figures: {why})",
                o.dice_count, t.figures[1], t.figures[0]
            ),
            o.dice_total as f64,
        )
    } else {
        total.plus("WRG-RTP-01", format!("on {} {dice}", o.dice_count), o.dice_total as f64)
    };
    for a in &o.factors {
        total = total.part(RuleId(a.rule.clone().into()), a.why.clone(), a.delta as f64);
    }
    total
}

/// A reaction test told for the log: the trigger's rule, the score as a total with every part,
/// the chart and class column, the result, the dice; and the facts (WRG-RTP-01 .. -04,
/// WRG-RFAC-30, WRG-CLASS-01 .. -06).
pub fn note(state: &State, t: &Taken) -> Note {
    let o = &t.outcome;
    let name = state.units.get(t.unit as usize).map_or("?", |u| &u.name);
    let mut n = Note::new(t.trigger.rule(), "")
        .and("WRG-RTP-03")
        .and("WRG-RFAC-30")
        .and("WRG-RTP-04")
        .and(class_rule(t.class))
        .and("WRG-CLASS-06");
    let s = &t.situation;
    if s.friends_within
        + s.enemies_facing_within
        + s.enemies_routing_within
        + s.friends_routing_within
        > 0
        || s.friend_advancing_within
        || s.enemy_advancing_within
        || s.enemy_cavalry_within
    {
        n = n.and("WRG-RDEF-01");
    }
    if s.impassable_left_out {
        n = n.and("WRG-RDEF-02");
    }
    if s.rear_support {
        n = n.and("WRG-RDEF-03");
    }
    if s.flanks_secure > 0 {
        n = n.and("WRG-RDEF-04");
    }
    if s.friendly_cover_within {
        n = n.and("WRG-RDEF-05");
    }
    if s.unfriendly_cover_within {
        n = n.and("WRG-RDEF-06");
    }
    if s.disorganised {
        n = n.and("WRG-DIS-01");
        for c in &t.causes {
            n = n.and(c.rule());
        }
    }
    if t.close_fight {
        n = n.and("WRG-RT-08");
    }
    if t.replaced.is_some() {
        n = n.and("WRG-RRES-10");
    }
    if o.factors.iter().any(|a| a.why.contains("WRG-R-17")) {
        n = n.and("WRG-R-17");
    }
    // Taken at the end of the period, for the next (WRG-RT-11); the charge and below-half
    // tests are taken at once, the owner's optional test when asked.
    if !t.trigger.at_once() && t.trigger.mandatory() {
        n = n.and("WRG-RT-11");
    }
    // The follow-up test reads only its one line of the chart (WRG-RT-10).
    if t.holds.is_none() {
        // Chart 2's second band: pursuers halt, the others retire (WRG-RRES-07).
        n = n.and(if o.result == crate::model::ReactionResult::HaltOrRetire {
            "WRG-RRES-07"
        } else {
            o.effect.rule()
        });
        // Disorganised troops still carry out their order (WRG-DIS-13).
        if s.disorganised && o.effect == Effect::CarryOn {
            n = n.and("WRG-DIS-13");
        }
    }
    let dice_kind = if t.status == Status::Barbarian || t.levy { "d6" } else { "average dice" };
    let status = match (t.status, t.levy) {
        (_, true) => "levy",
        (Status::Regular, _) => "regular",
        (Status::Barbarian, _) => "barbarian",
    };
    let result = match t.holds {
        Some(true) => "below their uncontrolled advance: they stay in place".to_string(),
        Some(false) => "their blood is up: they follow up".to_string(),
        None => crate::period::effect_words(o.effect),
    };
    let replaced = t
        .replaced
        .map(|e| format!(" (in place of: {})", crate::period::effect_words(e)))
        .unwrap_or_default();
    n.text = format!(
        "{name} test (class {}, {status}: {dice_kind}): score {} on chart {}: {result}{replaced}",
        t.class.name().to_uppercase(),
        o.score,
        o.chart,
    );
    n.rolls = t.rolls.clone();
    n.with_total(score_total(t)).with_fact(Fact::Test {
        unit: t.unit,
        trigger: t.trigger,
        chart: o.chart,
        class: t.class,
        status: t.status,
        levy: t.levy,
        dice_count: o.dice_count,
        dice_total: o.dice_total,
        score: o.score,
        result: o.result,
        effect: o.effect,
    })
}
