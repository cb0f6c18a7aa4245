//! Disorganisation in play: the causes the period raises where they happen (WRG-DIS-03 ..
//! -12), the causes that hold while a state of the table holds, and the log's account of each
//! cause as it begins and ends (WRG-DIS-01, -02).
//!
//! Two kinds of cause:
//!
//! - **Events** last the period they are raised in and the next (WRG-DIS-05 .. -07, -09 ..
//!   -11 "this period or last"): pursuit, a repulsed charge, terrain, a broken front, friends
//!   passing through, a barbarian's change of direction. Each raise is kept (the unit's list may
//!   hold a cause twice), so a cause raised again lasts a period after its last raise
//!   (`period::expire_causes`). Standing still under engine fire (WRG-DIS-08) lasts only the
//!   period of the fire.
//! - **States** hold exactly while the table says so, and are worked out again at each point
//!   of the period: enemy elephants or camels near cavalry (WRG-DIS-03, WRG-R-48), an enemy
//!   behind the flank within its charge (WRG-DIS-04), a "retire" or "halt, disorganised"
//!   result running, to the end of the period in which it runs out (WRG-DIS-12).

use crate::Data;
use crate::combat::{Cause, effective_causes};
use crate::report::{Fact, Note};
use crate::sight::Grid;
use crate::state::{Motion, State};
use tabletop::geometry::{Facing, Point, Rect};

/// The causes worked out again from the table at each point of the period.
const STATES: [Cause; 3] = [Cause::NearBeasts, Cause::EnemyBehindFlank, Cause::ReactionResult];

/// A cause in a player's words.
pub fn words(c: Cause) -> &'static str {
    match c {
        Cause::NearBeasts => "near enemy elephants or camels",
        Cause::EnemyBehindFlank => "an enemy behind their flank within charge reach",
        Cause::Pursuit => "pursuing or pursued",
        Cause::ChargeRepulsed => "their charge thrown back",
        Cause::Terrain => "slowed by terrain",
        Cause::StillUnderEngineFire => "standing still under engine fire",
        Cause::BrokenFront => "their front no longer unbroken",
        Cause::PassedThrough => "friends passed through their ranks",
        Cause::BarbarianTurn => "barbarians changing direction",
        Cause::ReactionResult => "under a disorganised reaction result",
    }
}

/// Raises a cause on a unit (kept even when already there: see the module documentation).
pub fn raise(state: &mut State, id: u16, c: Cause) {
    if let Some(u) = state.units.get_mut(id as usize) {
        u.causes.push(c);
    }
}

/// Works out the state causes from the table as it stands (WRG-DIS-03, -04, -12).
pub fn update_states(data: &Data, state: &mut State) {
    let n = state.units.len();
    let mut now: Vec<[bool; 3]> = vec![[false; 3]; n];
    {
        let st: &State = state;
        let on: Vec<(u16, Point)> =
            st.units.iter().filter(|u| u.on_table()).map(|u| (u.id, u.at)).collect();
        let grid = Grid::new(st.table.width, st.table.height, 15.0, &on);
        let rects: Vec<Option<Rect>> = st
            .units
            .iter()
            .map(|u| u.on_table().then(|| u.block.footprint(data, u.troop, u.at, u.facing)))
            .collect();
        let widest = rects.iter().flatten().map(|r| r.half_diagonal()).fold(0.0, f64::max);
        let beasts = |side| {
            st.units.iter().any(|u| {
                u.side == side
                    && (u.troop.is_camel() || u.troop == crate::model::TroopType::Elephant)
            })
        };
        let own_beasts = [beasts(tabletop::rules::Side::Red), beasts(tabletop::rules::Side::Blue)];
        let longest_charge = crate::model::TroopType::ALL
            .iter()
            .filter_map(|t| data.moves(*t).charge)
            .fold(0.0, f64::max);
        for u in st.units.iter().filter(|u| u.on_table() && u.motion != Motion::Routing) {
            let Some(r) = &rects[u.id as usize] else { continue };
            let mut here = [false; 3];
            // While the result runs, and to the end of the period in which it ran out.
            here[2] = u.running.is_some_and(|x| x.effect.disorganises())
                || u.causes_at_start.contains(&Cause::ReactionResult);
            let horse = u.troop.is_cavalry() && !u.troop.is_camel();
            let reach = longest_charge.max(6.0) + r.half_diagonal() + widest;
            grid.near(u.at, reach, |id| {
                let e = &st.units[id as usize];
                if e.side == u.side || !e.on_table() || e.motion == Motion::Routing {
                    return;
                }
                let Some(er) = &rects[id as usize] else { return };
                if horse
                    && !here[0]
                    && (e.troop.is_camel() || e.troop == crate::model::TroopType::Elephant)
                    && crate::combat::beasts_disorganise(
                        u.troop,
                        own_beasts[u.side.index()],
                        r.distance(er),
                    )
                {
                    here[0] = true;
                }
                if !here[1]
                    && let Some(charge) = data.moves(e.troop).charge
                    && crate::combat::enemy_behind_flank(r, e.at, charge)
                {
                    here[1] = true;
                }
            });
            now[u.id as usize] = here;
        }
    }
    for (u, here) in state.units.iter_mut().zip(now) {
        u.causes.retain(|c| !STATES.contains(c));
        for (k, c) in STATES.iter().enumerate() {
            if here[k] {
                u.causes.push(*c);
            }
        }
    }
}

/// Barbarians who changed direction in the movement (WRG-DIS-11): their facing now differs
/// from `before`, the facings when the period's movement began.
pub fn raise_turns(state: &mut State, before: &[Facing]) {
    for (u, f) in state.units.iter_mut().zip(before) {
        if u.status == crate::model::Status::Barbarian
            && u.on_table()
            && u.motion != Motion::Routing
            && u.facing.vector().dot(f.vector()) < 1.0 - 1e-9
        {
            u.causes.push(Cause::BarbarianTurn);
        }
    }
}

/// Pursuers and the routers they pursue (WRG-DIS-05).
pub fn raise_pursuits(state: &mut State) {
    let pairs: Vec<(u16, u16)> = state
        .units
        .iter()
        .filter(|u| u.on_table())
        .filter_map(|u| u.pursuit.map(|p| (u.id, p.target)))
        .collect();
    for (a, b) in pairs {
        raise(state, a, Cause::Pursuit);
        raise(state, b, Cause::Pursuit);
    }
}

/// Troops that stood still this period and were shot at by engines (WRG-DIS-08).
pub fn raise_engine_fire(state: &mut State, shots: &[crate::fire_phase::Shot]) {
    for s in shots {
        let Some(target) = s.target.unit() else { continue };
        let engine = state.units.get(s.shooter as usize).is_some_and(|u| u.troop.is_engine());
        let still = state
            .units
            .get(target as usize)
            .is_some_and(|t| t.motion == Motion::Still && t.moved <= 1e-9);
        if engine && still {
            raise(state, target, Cause::StillUnderEngineFire);
        }
    }
}

/// Standing still under engine fire lasts only the period of the fire (WRG-DIS-08).
pub fn end_engine_fire(state: &mut State) {
    for u in &mut state.units {
        u.causes.retain(|c| *c != Cause::StillUnderEngineFire);
    }
}

/// Units whose figures lap round an enemy's flank in this period's fight, bending their front
/// (WRG-DIS-09, WRG-MELEE-03, -04, WRG-R-28).
pub fn raise_lapping(data: &Data, state: &mut State) {
    let pairs = crate::melee_phase::contacts(data, state);
    let mut bent: Vec<u16> = Vec::new();
    for (a, b) in pairs {
        for (me, them) in [(a, b), (b, a)] {
            let (u, e) = (&state.units[me as usize], &state.units[them as usize]);
            let front = crate::melee_phase::front_contact(data, u, e);
            let skirmishing_light = u.troop.is_light()
                && matches!(
                    u.standing.order().map(|o| &o.verb),
                    Some(crate::orders::Verb::Skirmish { .. })
                );
            let p = crate::melee::Placing {
                front_contact: front,
                lapped: crate::melee_phase::lappers(data, u, e, front),
                period: u.fight_periods + 1,
                skirmishing_light,
                ..Default::default()
            };
            if crate::melee::lapping_disorganises(&p) && !bent.contains(&me) {
                bent.push(me);
            }
        }
    }
    for id in bent {
        raise(state, id, Cause::BrokenFront);
    }
}

/// Tells the log each cause that began or ended for a unit since the log last told it: a
/// cause beginning disorganises the unit (WRG-DIS-01, with the cause's rule); the last one
/// ending restores it (WRG-DIS-02). Only causes that count for the unit are told
/// ([`effective_causes`]).
pub fn report(state: &mut State, notes: &mut Vec<Note>) {
    for u in &mut state.units {
        let now =
            if u.on_table() { effective_causes(u.troop, u.status, &u.causes) } else { vec![] };
        if now == u.causes_told {
            continue;
        }
        let told = std::mem::replace(&mut u.causes_told, now.clone());
        for &c in told.iter().filter(|c| !now.contains(c)) {
            let whole = now.is_empty();
            let text = if whole {
                format!("{} are no longer disorganised: {} no more", u.name, words(c))
            } else {
                format!("{}: {} no more, still disorganised", u.name, words(c))
            };
            let mut n = Note::new(c.rule(), text);
            if whole {
                n = n.and("WRG-DIS-02");
            }
            notes.push(n.with_fact(Fact::Disorder {
                unit: u.id,
                cause: c,
                began: false,
                disorganised: !whole,
            }));
        }
        for &c in now.iter().filter(|c| !told.contains(c)) {
            notes.push(
                Note::new(c.rule(), format!("{} are disorganised: {}", u.name, words(c)))
                    .and("WRG-DIS-01")
                    .with_fact(Fact::Disorder {
                        unit: u.id,
                        cause: c,
                        began: true,
                        disorganised: true,
                    }),
            );
        }
    }
}
