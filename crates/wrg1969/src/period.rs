//! One whole period, once both sides have made their plans: the start (orders taking effect,
//! units returning to the table, messengers riding, the Generals' dictations, signals and
//! rides, units breaking off), the movement, the shooting, the hand-to-hand with its
//! after-combat results and the pursuers' free blows, the tests at the end of the period, and
//! the end (rallies, pursuits ending) (WRG-MOVE-01, WRG-FIRE-01, WRG-RT-11).
//!
//! [`resolve`] changes the state and returns the period's notes; every die goes through the
//! dice it is handed, so the same state and the same faces always give the same period.

use crate::Data;
use crate::after::{Left, OffTable};
use crate::melee_phase::{CONTACT, Outcome as Fought};
use crate::orders::{Closed, Standing};
use crate::plan::Plan;
use crate::reaction::{BelowHalf, Effect, Trigger, below_half_consequence, falls_below_half};
use crate::report::Note;
use crate::state::{Away, Motion, Pursuit, State, break_unit};
use crate::test_phase::Taken;
use tabletop::dice::DiceSource;
use tabletop::geometry::Point;
use tabletop::rules::Side;

/// Resolves the period with both plans in `state.plans`, returning what happened.
pub fn resolve(data: &Data, state: &mut State, dice: &mut dyn DiceSource) -> Vec<Note> {
    let mut notes = Vec::new();
    let plans: [Plan; 2] =
        [state.plans[0].clone().unwrap_or_default(), state.plans[1].clone().unwrap_or_default()];
    let had_order: Vec<bool> = state.units.iter().map(|u| u.standing.order().is_some()).collect();
    begin(data, state, &plans, dice, &mut notes);
    let start_figures: Vec<u32> = state.units.iter().map(|u| u.block.figures).collect();
    let facings: Vec<tabletop::geometry::Facing> = state.units.iter().map(|u| u.facing).collect();

    let start_at: Vec<Point> = state.units.iter().map(|u| u.at).collect();
    let movement = crate::move_phase::move_all(data, state, dice);
    notes.extend(movement.notes);
    notes.extend(movement.tests.iter().flat_map(|t| test_notes(state, t)));
    for &(id, why) in &movement.left_table {
        leave(state, id, why, &mut notes);
    }
    follow_generals(state);
    // Disorganisation from the movement (WRG-DIS-03 .. -05, -07, -10 .. -12).
    crate::disorder::raise_pursuits(state);
    crate::disorder::raise_turns(state, &facings);
    crate::disorder::update_states(data, state);
    crate::disorder::report(state, &mut notes);
    let mut triggers = movement.triggers;
    let under_attack = movement.under_attack;

    // Shooting, after all movement, at any moment of the period (WRG-FIRE-01, WRG-R-11).
    let moments = crate::fire_phase::Moments { poses: &movement.poses, start: &start_at };
    let shots = crate::fire_phase::shoot_all(data, state, &moments, dice);
    let hits = crate::fire_phase::apply_shots(data, state, &shots);
    notes.extend(shots.iter().map(|s| crate::fire_phase::shot_note(state, s)));
    notes.extend(crate::fire_phase::apply_general_shots(data, state, &shots));
    for h in &hits {
        // Kept to the end-of-period tests (WRG-RFAC-16, WRG-RRES-01).
        state.units[h.unit as usize].shot_at = h.shot_at_by;
        if h.men > 0 {
            notes.push(crate::fire_phase::hit_note(data, state, h));
        }
        general_share(data, state, h.unit, h.men, &mut notes);
        if h.must_test {
            triggers.push((h.unit, Trigger::MissileLosses));
        }
    }
    crate::disorder::raise_engine_fire(state, &shots);
    crate::disorder::report(state, &mut notes);
    below_half(data, state, &start_figures, &under_attack, dice, &mut notes);

    // Hand-to-hand (WRG-MELEE), then what it leads to (WRG-AFTER).
    crate::disorder::raise_lapping(data, state);
    crate::disorder::report(state, &mut notes);
    let shooters: Vec<u16> = shots.iter().map(|s| s.shooter).collect();
    let before_melee: Vec<u32> = state.units.iter().map(|u| u.block.figures).collect();
    let rounds = crate::melee_phase::fight_all(data, state, &shooters, dice);
    for r in &rounds {
        let [a, b] = r.units;
        notes.extend(crate::melee_phase::round_notes(data, state, r, &before_melee));
        general_share(data, state, a, r.dealt[1], &mut notes);
        general_share(data, state, b, r.dealt[0], &mut notes);
    }
    notes.extend(crate::riders::caught(data, state, dice));
    // Where each unit stands before the after-combat moves, for their notes.
    let mut stood: Vec<Point> = state.units.iter().map(|u| u.at).collect();
    let outcomes = crate::melee_phase::carry_out(data, state, &rounds, dice);
    let mut fell_back: Vec<u16> = Vec::new();
    for o in &outcomes {
        match *o {
            Fought::Broke { unit, ref step } => {
                notes
                    .push(Note::new("WRG-ROUT-01", format!("{} break and run", name(state, unit))));
                notes.extend(step.clone());
                let winners: Vec<u16> = rounds
                    .iter()
                    .filter_map(|r| match r.units {
                        [a, b] if a == unit => Some(b),
                        [a, b] if b == unit => Some(a),
                        _ => None,
                    })
                    .collect();
                for w in winners {
                    start_pursuit(data, state, w, unit, dice, &mut notes);
                }
            }
            Fought::Surrendered { unit, prisoners } => {
                let u = &state.units[unit as usize];
                let taker = u.side.other();
                state.prisoners[taker.index()] += prisoners;
                notes.push(Note::new(
                    "WRG-AFTER-07",
                    format!("{prisoners} figures of {} cannot run and surrender", u.name),
                ));
                general_surrenders(data, state, unit, &mut notes);
            }
            Fought::PushedBack { unit, by, distance, followed, ref held } => {
                // A holder's test whether to follow up (WRG-RT-10) comes first.
                notes.extend(held.clone());
                let mut moved = crate::move_phase::pushed_back_notes(
                    state,
                    &mut stood,
                    [unit, by],
                    [distance, followed],
                );
                if followed <= 0.0 && held.is_some() {
                    // The holders stayed where they stood: no follow-up to tell.
                    moved.truncate(1);
                }
                notes.extend(moved);
            }
            // Told once, though thrown back by more than one enemy.
            Fought::FellBack { unit, distance } => {
                if !fell_back.contains(&unit) {
                    fell_back.push(unit);
                    notes.push(crate::move_phase::fall_back_note(state, unit, distance));
                }
            }
        }
    }
    pursuit_blows(data, state, dice, &mut notes);
    crate::disorder::update_states(data, state);
    crate::disorder::report(state, &mut notes);
    below_half(data, state, &before_melee, &under_attack, dice, &mut notes);

    // The tests at the end of the period (WRG-RT-11).
    for id in crate::test_phase::first_within_range(data, state) {
        triggers.push((id, Trigger::FirstContactRange));
    }
    triggers.retain(|(id, _)| {
        state.units[*id as usize].on_table() && state.units[*id as usize].motion != Motion::Routing
    });
    // A friendly unit within 15" broke, however it broke (WRG-RT-05): those that broke in
    // the tests make their untested friends test in turn.
    let mut announced: Vec<u16> = Vec::new();
    triggers.extend(crate::test_phase::friends_of_broken(data, state, &mut announced, &[]));
    let mut tested: Vec<u16> = Vec::new();
    loop {
        let taken = crate::test_phase::take_tests(data, state, &triggers, &under_attack, dice);
        notes.extend(taken.iter().flat_map(|t| test_notes(state, t)));
        tested.extend(taken.iter().map(|t| t.unit));
        triggers = crate::test_phase::friends_of_broken(data, state, &mut announced, &tested);
        triggers.retain(|(id, _)| state.units[*id as usize].motion != Motion::Routing);
        if triggers.is_empty() {
            break;
        }
    }
    crate::disorder::update_states(data, state);
    crate::disorder::report(state, &mut notes);
    end(data, state, &mut notes);
    notes.extend(crate::orders::closed_notes(state, &had_order));
    notes
}

fn name(state: &State, id: u16) -> &str {
    state.units.get(id as usize).map_or("?", |u| &u.name)
}

/// The start of the period: it begins (orders arriving now take effect), units off the table
/// throw to return, messengers ride, and each side's dictations, signal and General's ride
/// take effect; units breaking off turn and go.
fn begin(
    data: &Data,
    state: &mut State,
    plans: &[Plan; 2],
    dice: &mut dyn DiceSource,
    notes: &mut Vec<Note>,
) {
    let taken = crate::state::begin_period(state);
    notes.push(Note::new("WRG-MOVE-01", format!("Period {} begins", state.period)));
    crate::disorder::end_engine_fire(state);
    notes.extend(taken);
    for u in &mut state.units {
        if u.motion != Motion::Routing {
            u.motion = Motion::Still;
        }
        u.moved_last = u.moved;
        u.moved = 0.0;
        u.shot_at = 0;
        u.broke_at = None;
        expire_causes(u);
    }
    crate::disorder::update_states(data, state);
    returns(data, state, dice, notes);
    notes.extend(crate::state::ride_messengers(data, state));
    for side in Side::BOTH {
        let plan = &plans[side.index()];
        for m in plan.moves.iter().filter(|m| matches!(m.step, crate::plan::Step::Halt)) {
            if crate::move_phase::check_move(data, state, side, m).is_ok() {
                notes.push(crate::orders::halt_note(state, m.unit));
            }
        }
        for d in &plan.dictate {
            notes.push(crate::orders::dictated(state, side, d.unit, &d.order));
            let Some(u) = state.units.get_mut(d.unit as usize) else { continue };
            if u.awaiting_order {
                u.standing = Standing::Active { order: d.order.clone() };
                u.awaiting_order = false;
                u.incoming = None;
            } else {
                crate::state::apply_dictate(state, side, d.unit, &d.order);
            }
        }
        notes.extend(crate::riders::ride_general(data, state, side, plan.general.as_ref()));
        if let Some(k) = plan.signal
            && let Ok(reached) = crate::state::give_signal(data, state, side, k as usize)
        {
            notes.push(crate::orders::signal_note(state, side, k, &reached));
        }
        for &id in &plan.break_off {
            break_off(data, state, id, dice, notes);
        }
    }
    crate::disorder::update_states(data, state);
    crate::disorder::report(state, notes);
    // Optional tests the sides asked for (WRG-RT-01, WRG-RRES-10).
    let asked: Vec<u16> = plans.iter().flat_map(|p| p.test.iter().copied()).collect();
    if !asked.is_empty() {
        notes.extend(crate::test_phase::optional_tests(data, state, &asked, dice));
    }
}

/// Causes of disorganisation last the period they arise and the next (WRG-DIS-02, -05 .. -12
/// "this period or last"): those already standing at the start of the last period, and not
/// raised again since, end now.
fn expire_causes(u: &mut crate::state::Unit) {
    let mut old = std::mem::take(&mut u.causes_at_start);
    let mut kept = Vec::with_capacity(u.causes.len());
    for c in u.causes.drain(..) {
        if let Some(i) = old.iter().position(|x| *x == c) {
            old.swap_remove(i);
        } else if !kept.contains(&c) {
            kept.push(c);
        }
    }
    u.causes = kept;
    u.causes_at_start = u.causes.clone();
}

/// A General with a unit stays at its standard (WRG-CHORD-10).
fn follow_generals(state: &mut State) {
    for g in &mut state.generals {
        if let Some(u) = g.attached.and_then(|j| state.units.get(j as usize)) {
            if u.on_table() {
                g.at = u.at;
            } else {
                g.attached = None;
            }
        }
    }
}

/// Units off the table throw to come back at the start of each period (WRG-LEAVE-01 .. -04).
fn returns(data: &Data, state: &mut State, dice: &mut dyn DiceSource, notes: &mut Vec<Note>) {
    let (w, h) = (state.table.width, state.table.height);
    for i in 0..state.units.len() {
        let Some(away) = state.units[i].away else { continue };
        if matches!(away.state, OffTable::Gone | OffTable::Returned) || away.left_in >= state.period
        {
            continue;
        }
        let status = state.units[i].status;
        let (next, rolls) = crate::after::return_throw(data, status, away.state, dice);
        let u = &mut state.units[i];
        match next {
            OffTable::Returned => {
                let back = away.facing.reversed();
                let depth = u.block.ranks() as f64 * data.base(u.troop).depth;
                let at = Point::new(away.at.x.clamp(0.0, w), away.at.y.clamp(0.0, h));
                let at = Point::new(
                    (at.x + back.vector().x * depth).clamp(depth, (w - depth).max(depth)),
                    (at.y + back.vector().y * depth).clamp(depth, (h - depth).max(depth)),
                );
                // Where it left, or the nearest clear ground along the edge (WRG-LEAVE-02).
                let Some(at) = crate::move_phase::clear_place(data, state, i as u16, at, back)
                else {
                    let u = &mut state.units[i];
                    u.away = Some(Away { state: OffTable::Delayed { periods: 1 }, ..away });
                    notes.push(
                        Note::new(
                            "WRG-LEAVE-03",
                            format!("{} are seen in the distance: the way back is crowded", u.name),
                        )
                        .with_rolls(rolls),
                    );
                    continue;
                };
                let u = &mut state.units[i];
                u.at = at;
                u.facing = back;
                u.away = None;
                u.rout = None;
                u.motion = Motion::Still;
                u.standing = Standing::Waiting;
                notes.push(
                    Note::new("WRG-LEAVE-02", format!("{} return to the table", u.name))
                        .with_rolls(rolls)
                        .with_fact(crate::report::Fact::Returned { unit: u.id, at: u.at }),
                );
            }
            OffTable::Delayed { periods } => {
                u.away = Some(Away { state: next, ..away });
                if !rolls.is_empty() {
                    notes.push(
                        Note::new(
                            "WRG-LEAVE-03",
                            format!(
                                "{} are seen in the distance: back in {periods} periods",
                                u.name
                            ),
                        )
                        .with_rolls(rolls),
                    );
                }
            }
            OffTable::Gone => {
                u.away = Some(Away { state: next, ..away });
                notes.push(
                    Note::new("WRG-LEAVE-04", format!("{} do not return", u.name))
                        .with_rolls(rolls),
                );
            }
            OffTable::Throwing { .. } => {
                u.away = Some(Away { state: next, ..away });
                notes.push(
                    Note::new("WRG-LEAVE-01", format!("{} stay away this period", u.name))
                        .with_rolls(rolls),
                );
            }
        }
    }
}

/// A unit leaves the table; pursued off or sent off by the below-half test it never returns
/// (WRG-LEAVE-01, -05, WRG-PURS-06).
fn leave(state: &mut State, id: u16, why: Left, notes: &mut Vec<Note>) {
    let period = state.period;
    let Some(u) = state.units.get_mut(id as usize) else { return };
    u.leave_table(why, period);
    // Only units pursued off or sent off by the below-half test never return (WRG-LEAVE-05).
    let note = match why {
        Left::Ordinary => Note::new(
            "WRG-LEAVE-01",
            format!("{} leave the table: they throw to return from next period", u.name),
        ),
        Left::Pursued => Note::new(
            "WRG-PURS-06",
            format!("{} are pursued off the table and never return", u.name),
        )
        .and("WRG-LEAVE-05"),
        Left::BelowHalf => Note::new("WRG-RT-09", format!("{} leave the field for good", u.name))
            .and("WRG-LEAVE-05"),
    };
    notes.push(note);
    for g in &mut state.generals {
        if g.attached == Some(id) {
            g.attached = None;
        }
    }
}

/// A unit in hand-to-hand breaks off: the enemy strikes once as it turns, then it runs at
/// rout speed; if the enemy could still reach it, it counts as routed (WRG-BRK-01 .. -03).
fn break_off(
    data: &Data,
    state: &mut State,
    id: u16,
    dice: &mut dyn DiceSource,
    notes: &mut Vec<Note>,
) {
    let enemies: Vec<u16> = crate::melee_phase::contacts(data, state)
        .into_iter()
        .filter_map(|(a, b)| {
            if a == id {
                Some(b)
            } else if b == id {
                Some(a)
            } else {
                None
            }
        })
        .collect();
    if enemies.is_empty() {
        return;
    }
    // Every enemy it fights strikes once as it turns (WRG-BRK-02).
    for &e in &enemies {
        if let Some(b) = crate::melee_phase::free_blow(data, state, e, id, dice) {
            notes.extend(crate::melee_phase::blow_notes(data, state, &b, "WRG-BRK-02"));
        }
    }
    if !state.units[id as usize].on_table() {
        return;
    }
    let (note, how) = crate::move_phase::break_off_run(data, state, id, &enemies);
    notes.push(note);
    if how == crate::move_phase::BrokeOff::LeftTable {
        leave(state, id, Left::Ordinary, notes);
        return;
    }
    if how == crate::move_phase::BrokeOff::Routed {
        let back = state.units[id as usize].facing;
        notes.extend(break_unit(data, state, id));
        // It has already turned its back and run its first period.
        let u = &mut state.units[id as usize];
        u.facing = back;
        if let Some(r) = &mut u.rout {
            r.periods = 1;
        }
        notes.push(Note::new(
            "WRG-BRK-03",
            format!(
                "{} break off but the enemy could still reach them at pursuit speed: routed",
                name(state, id)
            ),
        ));
        // The blow as they turned was struck; the pursuit begins (WRG-PURS-01).
        for &e in &enemies {
            begin_pursuit(data, state, e, id, notes);
        }
    } else {
        notes.push(Note::new(
            "WRG-BRK-03",
            format!("{} break off and outdistance pursuit", name(state, id)),
        ));
    }
}

/// The victor of a fight pursues the unit it broke, striking once as it turns
/// (WRG-PURS-01, -02): unless it is an engine, holds a Hold order, is routing itself or is
/// still fighting another enemy.
fn start_pursuit(
    data: &Data,
    state: &mut State,
    winner: u16,
    router: u16,
    dice: &mut dyn DiceSource,
    notes: &mut Vec<Note>,
) {
    if begin_pursuit(data, state, winner, router, notes)
        && let Some(b) = crate::melee_phase::free_blow(data, state, winner, router, dice)
    {
        notes.extend(crate::melee_phase::blow_notes(data, state, &b, "WRG-PURS-02"));
    }
}

/// The victor of a fight sets out in pursuit of the unit it broke, unless it is an engine,
/// holds a Hold order, is routing itself or is still fighting another enemy (WRG-PURS-01,
/// WRG-R-41). Returns whether it pursues.
fn begin_pursuit(
    data: &Data,
    state: &mut State,
    winner: u16,
    router: u16,
    notes: &mut Vec<Note>,
) -> bool {
    let w = &state.units[winner as usize];
    let holding =
        matches!(w.standing.order().map(|o| &o.verb), Some(crate::orders::Verb::Hold { .. }));
    let busy = crate::melee_phase::contacts(data, state)
        .iter()
        .any(|&(a, b)| (a == winner && b != router) || (b == winner && a != router));
    if w.troop.is_engine() || holding || w.motion == Motion::Routing || busy || !w.on_table() {
        return false;
    }
    let from = w.at;
    state.units[winner as usize].pursuit =
        Some(Pursuit { target: router, periods: 0, from, farthest: 0.0 });
    notes.push(Note::new(
        "WRG-PURS-01",
        format!("{} pursue {}", name(state, winner), name(state, router)),
    ));
    true
}

/// Pursuers still in contact with their routers at the end of the period strike again
/// (WRG-PURS-02).
fn pursuit_blows(data: &Data, state: &mut State, dice: &mut dyn DiceSource, notes: &mut Vec<Note>) {
    for i in 0..state.units.len() {
        let Some(p) = state.units[i].pursuit else { continue };
        let (u, t) = (&state.units[i], &state.units[p.target as usize]);
        if !u.on_table() || !t.on_table() {
            continue;
        }
        let touching = u
            .block
            .footprint(data, u.troop, u.at, u.facing)
            .touches(&t.block.footprint(data, t.troop, t.at, t.facing), CONTACT);
        if touching
            && let Some(b) = crate::melee_phase::free_blow(data, state, i as u16, p.target, dice)
        {
            notes.extend(crate::melee_phase::blow_notes(data, state, &b, "WRG-PURS-02"));
        }
    }
}

/// The General's share of a loss to the unit he is with (WRG-GEN-01, -02).
fn general_share(data: &Data, state: &mut State, unit: u16, men: u32, notes: &mut Vec<Note>) {
    if men == 0 {
        return;
    }
    let figures = state.units.get(unit as usize).map_or(0, |u| u.block.figures) + 1;
    for g in &mut state.generals {
        if g.attached == Some(unit) && !g.risk.fallen(data) && g.risk.share(data, men, figures) {
            g.attached = None;
            notes.push(
                Note::new("WRG-GEN-02", format!("{}'s General falls", g.side)).and("WRG-GEN-01"),
            );
        }
    }
}

/// A General in a unit that surrenders goes with it once his figure has lost 10 men
/// (WRG-AFTER-08).
fn general_surrenders(data: &Data, state: &mut State, unit: u16, notes: &mut Vec<Note>) {
    for g in &mut state.generals {
        if g.attached == Some(unit) && crate::after::general_surrenders(g.risk.losses) {
            g.risk.losses = data.casualties.men_per_figure as f64;
            g.attached = None;
            notes
                .push(Note::new("WRG-AFTER-08", format!("{}'s General is taken prisoner", g.side)));
        }
    }
}

/// Units that fell below half their starting figures since `before` test at once; a result
/// worse than Halt takes them off the table for good, or into captivity when they are fighting
/// and cannot get away (WRG-RT-07, -09).
fn below_half(
    data: &Data,
    state: &mut State,
    before: &[u32],
    under_attack: &[u16],
    dice: &mut dyn DiceSource,
    notes: &mut Vec<Note>,
) {
    let fallen: Vec<(u16, Trigger)> = state
        .units
        .iter()
        .filter(|u| u.on_table() && u.motion != Motion::Routing)
        .filter(|u| falls_below_half(u.start_figures, before[u.id as usize], u.block.figures))
        .map(|u| (u.id, Trigger::BelowHalf))
        .collect();
    if fallen.is_empty() {
        return;
    }
    let fighting: Vec<u16> =
        crate::melee_phase::contacts(data, state).iter().flat_map(|&(a, b)| [a, b]).collect();
    let taken = crate::test_phase::take_tests(data, state, &fallen, under_attack, dice);
    for t in &taken {
        notes.extend(test_notes(state, t));
        let in_combat = fighting.contains(&t.unit);
        let blocked = in_combat && crate::melee_phase::cut_off(data, state, t.unit);
        match below_half_consequence(t.outcome.effect, in_combat, blocked) {
            BelowHalf::AsRead => {}
            BelowHalf::LeavesField => {
                let u = &mut state.units[t.unit as usize];
                // Its friends within 15" test as for a break (WRG-RT-05).
                u.broke_at = Some(u.at);
                u.rout = None;
                u.motion = Motion::Retired;
                u.standing.close(Closed::Displaced);
                leave(state, t.unit, Left::BelowHalf, notes);
            }
            BelowHalf::Surrenders => {
                let u = &mut state.units[t.unit as usize];
                let n = u.block.figures;
                u.block.lose(n);
                // Nobody is left to carry losses (WRG-CAS-03).
                u.carried = 0;
                let taker = u.side.other();
                state.prisoners[taker.index()] += n;
                notes.push(Note::new(
                    "WRG-RT-09",
                    format!("{} are cut off and surrender: {n} figures", name(state, t.unit)),
                ));
                general_surrenders(data, state, t.unit, notes);
            }
        }
    }
}

/// The end of the period: routers that have outdistanced pursuit or met their General rally;
/// pursuits whose routers are gone or rallied end and the pursuers fall back 10"; the plans
/// are spent (WRG-ROUT-03, -08, WRG-R-23, WRG-PURS-03, -04).
fn end(data: &Data, state: &mut State, notes: &mut Vec<Note>) {
    for i in 0..state.units.len() {
        let u = &state.units[i];
        let Some(rout) = u.rout else { continue };
        if !u.on_table() || rout.broke_in == state.period {
            continue;
        }
        let outdistanced = crate::move_phase::outdistanced(data, state, u.id);
        let met = state
            .generals
            .iter()
            .any(|g| g.side == u.side && !g.risk.fallen(data) && g.at.distance(u.at) <= 1.0);
        // Among friends still, they run on (WRG-R-08).
        let clear = crate::move_phase::clear_of_all(data, state, u.id, u.facing);
        if clear
            && crate::after::rallies(crate::after::RoutState {
                met_by_general: met,
                passed_fresh_troops: false,
                outdistanced,
            })
        {
            let face = nearest_enemy(state, i)
                .and_then(|e| tabletop::geometry::Facing::from_vector(e - state.units[i].at))
                .filter(|&f| crate::move_phase::clear_of_all(data, state, i as u16, f));
            let u = &mut state.units[i];
            u.rout = None;
            u.motion = Motion::Still;
            u.standing = Standing::Waiting;
            // Disorganised for the period after (WRG-R-23): it was pursued or running.
            u.causes.push(crate::combat::Cause::Pursuit);
            if let Some(f) = face {
                u.facing = f;
            }
            let rule = if met { "WRG-ROUT-03" } else { "WRG-R-23" };
            notes.push(
                Note::new(rule, format!("{} rally and wait for orders", u.name)).and("WRG-ROUT-08"),
            );
        }
    }
    for i in 0..state.units.len() {
        let Some(p) = state.units[i].pursuit else { continue };
        let t = &state.units[p.target as usize];
        if t.on_table() && t.rout.is_some() {
            continue;
        }
        notes.extend(crate::move_phase::pursuit_ends(data, state, i as u16, "WRG-PURS-03"));
    }
    state.plans = [None, None];
}

fn nearest_enemy(state: &State, i: usize) -> Option<Point> {
    let u = &state.units[i];
    state
        .units
        .iter()
        .filter(|e| e.side != u.side && e.on_table())
        .min_by(|a, b| a.at.distance(u.at).total_cmp(&b.at.distance(u.at)))
        .map(|e| e.at)
}

/// What a test's result makes a unit do, in words.
pub fn effect_words(e: Effect) -> String {
    let for_periods = |what: &str, n: u32| match n {
        1 => format!("{what} for 1 period"),
        n => format!("{what} for {n} periods"),
    };
    match e {
        Effect::Break => "break and run".into(),
        Effect::Retreat { periods } => for_periods("retreat, backs to the enemy,", periods),
        Effect::Retire { periods } => for_periods("retire, disorganised,", periods),
        Effect::Halt { periods } => for_periods("halt", periods),
        Effect::HaltDisorganised { periods } => for_periods("halt, disorganised,", periods),
        Effect::CarryOn => "carry on".into(),
        Effect::NewOrder => "await a new order from their general".into(),
        Effect::UncontrolledAdvance { periods } => {
            for_periods("advance out of control on the nearest enemy", periods)
        }
        Effect::FallBack { periods } => for_periods("fall back toward friends or cover", periods),
        Effect::MoveTowardEnemy { periods } => {
            for_periods("move toward the nearest enemy without charging", periods)
        }
    }
}

/// The note of a test taken, and of any step its unit took turning to run.
pub fn test_notes(state: &State, t: &Taken) -> impl Iterator<Item = Note> {
    std::iter::once(test_note(state, t)).chain(t.step.clone())
}

/// A reaction test told for the log (see [`crate::test_phase::note`]).
pub fn test_note(state: &State, t: &Taken) -> Note {
    crate::test_phase::note(state, t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::Cause;

    fn a_unit() -> crate::state::Unit {
        let d = Data::embedded().unwrap();
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let text =
            std::fs::read_to_string(format!("{root}/scenarios/wrg1969/the_hill.toml")).unwrap();
        let sc = crate::scenario::load(&d, &tabletop::Source::new("the_hill.toml", text)).unwrap();
        crate::state::setup(&sc).units[0].clone()
    }

    // Checks WRG-DIS-02 with WRG-DIS-07's "this period or last".
    #[test]
    fn wrg_dis_02_causes_last_this_period_and_the_next_then_end() {
        let mut u = a_unit();
        u.causes.push(Cause::Terrain); // slowed in period 1
        expire_causes(&mut u); // period 2 begins: still disorganised
        assert_eq!(u.causes, vec![Cause::Terrain]);
        expire_causes(&mut u); // period 3 begins: no longer
        assert!(u.causes.is_empty());
        // Slowed again in period 3: it lasts into period 4, and a second push in period 4
        // carries it into period 5.
        u.causes.push(Cause::Terrain);
        expire_causes(&mut u);
        u.causes.push(Cause::Terrain);
        expire_causes(&mut u);
        assert_eq!(u.causes, vec![Cause::Terrain]);
        expire_causes(&mut u);
        assert!(u.causes.is_empty());
    }
}
