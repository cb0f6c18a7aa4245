//! The hand-to-hand part of a period on the table: which units touch, which figures fight,
//! both sides striking from their strength before the round, the losses applied together, and
//! each pair judged after combat (WRG-MELEE-01 .. -07, WRG-RAND-02 .. -05, WRG-AFTER-01 .. -06).

use crate::Data;
use crate::after::{Side as FightSide, Verdict, judge};
use crate::casualty::remove;
use crate::combat::{From, Protection, Tactical, can_use_shield};
use crate::melee::{Fighter, Group, strike};
use crate::orders::Verb;
use crate::random::roll_melee;
use crate::state::{Motion, State, Unit};
use serde::Serialize;
use tabletop::dice::{DiceSource, Roll};
use tabletop::geometry::{Point, Sector, Vec2, direction_sector};

/// How close counts as base-to-base contact, in inches.
pub const CONTACT: f64 = 0.05;

/// One pair's round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Round {
    /// The two units, lower id first.
    pub units: [u16; 2],
    /// Figures fighting on each side.
    pub figures: [u32; 2],
    /// Men each side dealt.
    pub dealt: [u32; 2],
    /// The dice each side threw (red, black).
    pub rolls: [Vec<Roll>; 2],
    /// The verdict after the round.
    pub verdict: Verdict,
}

fn front_points(data: &Data, u: &Unit) -> Vec<Point> {
    let r = u.block.footprint(data, u.troop, u.at, u.facing);
    let w = data.base(u.troop).front;
    (0..u.block.front_rank())
        .map(|i| r.to_world(Vec2::new((i as f64 + 0.5) * w - r.width / 2.0, r.depth / 2.0)))
        .collect()
}

/// The front-rank figures of `u` whose front touches `enemy` (WRG-MELEE-01).
pub fn front_contact(data: &Data, u: &Unit, enemy: &Unit) -> u32 {
    let er = enemy.block.footprint(data, enemy.troop, enemy.at, enemy.facing);
    front_points(data, u).into_iter().filter(|p| er.distance_to_point(*p) <= CONTACT).count() as u32
}

/// The pairs of enemy units in contact, lower id first, each once.
pub fn contacts(data: &Data, state: &State) -> Vec<(u16, u16)> {
    let live: Vec<&Unit> =
        state.units.iter().filter(|u| u.on_table() && u.motion != Motion::Routing).collect();
    let mut out = Vec::new();
    for (i, a) in live.iter().enumerate() {
        let ra = a.block.footprint(data, a.troop, a.at, a.facing);
        for b in &live[i + 1..] {
            if a.side != b.side
                && ra.touches(&b.block.footprint(data, b.troop, b.at, b.facing), CONTACT)
            {
                out.push((a.id.min(b.id), a.id.max(b.id)));
            }
        }
    }
    out
}

/// Front-rank figures of `u` not in contact that could lap round onto the flanks of `enemy`:
/// those beyond the enemy's ends, as many as fit along its two flanks (WRG-MELEE-03, -04).
/// The rules for when they may fight are in [`crate::melee::fighting_figures`].
pub fn lappers(data: &Data, u: &Unit, enemy: &Unit, front: u32) -> u32 {
    if front == 0 {
        return 0;
    }
    let free = u.block.front_rank().saturating_sub(front);
    let er = enemy.block.footprint(data, enemy.troop, enemy.at, enemy.facing);
    let width = data.base(u.troop).front;
    let per_flank = if width > 0.0 { (er.depth / width).floor().max(1.0) as u32 } else { 0 };
    free.min(2 * per_flank)
}

fn fighter(
    data: &Data,
    state: &State,
    u: &Unit,
    enemy: &Unit,
    shot: bool,
    dice: &mut dyn DiceSource,
) -> (Fighter, Vec<Roll>) {
    let front = front_contact(data, u, enemy);
    let skirmishing_light = u.troop.is_light()
        && matches!(u.standing.order().map(|o| &o.verb), Some(Verb::Skirmish { .. }));
    let placing = crate::melee::Placing {
        front_contact: front,
        second_rank: u.block.second_rank(),
        second_rank_shot: shot,
        lapped: lappers(data, u, enemy, front),
        period: u.fight_periods + 1,
        skirmishing_light,
    };
    let (n, _) = crate::melee::fighting_figures(u.troop, u.status, &placing);
    let from = match direction_sector(enemy.facing, u.at - enemy.at) {
        Sector::Front => From::Front,
        Sector::Left => From::Left,
        Sector::Right => From::Right,
        Sector::Rear => From::Rear,
    };
    let busy = data.melee_row(enemy.melee).two_handed;
    let enemy_shielded = can_use_shield(
        enemy.troop,
        Protection {
            no_shield: !enemy.shield,
            two_handed: busy,
            fully_armoured: enemy.fully_armoured,
        },
        from,
    )
    .0;
    let general = state.generals.iter().any(|g| g.side == u.side && g.attached == Some(u.id));
    let tactical = Tactical {
        disorganised: crate::combat::disorganisation_penalty(&crate::combat::effective_causes(
            u.troop, u.status, &u.causes,
        )) < 0,
        target_shieldless: !enemy_shielded,
        charging: u.motion == Motion::Charged,
        higher_ground: state.table.elevation(u.at) > state.table.elevation(enemy.at) + 0.5,
        ..Default::default()
    };
    let (_, rolls) = roll_melee(data, u.status, general, dice);
    let f = Fighter {
        troop: u.troop,
        status: u.status,
        figures: u.block.figures,
        carried: u.carried,
        groups: vec![Group { class: u.melee, figures: n }],
        tactical,
        general,
        black: rolls[1].value,
        red: rolls[0].value,
    };
    (f, rolls.to_vec())
}

/// Fights every pair in contact: each side strikes from its strength before the round, all
/// losses are applied together, then each pair is judged (WRG-MELEE-05, -06, -07,
/// WRG-AFTER-01 .. -06). `shot` lists the units that shot this period (their second rank does
/// not fight, WRG-MELEE-02).
pub fn fight_all(
    data: &Data,
    state: &mut State,
    shot: &[u16],
    dice: &mut dyn DiceSource,
) -> Vec<Round> {
    let pairs = contacts(data, state);
    let mut rounds = Vec::with_capacity(pairs.len());
    let mut men_to = vec![0u32; state.units.len()];
    for &(a, b) in &pairs {
        let (ua, ub) = (&state.units[a as usize], &state.units[b as usize]);
        let (fa, ra) = fighter(data, state, ua, ub, shot.contains(&a), dice);
        let (fb, rb) = fighter(data, state, ub, ua, shot.contains(&b), dice);
        // A unit caught with its back turned strikes no blow in the first round (WRG-MOVE-11,
        // WRG-R-21).
        let backs = |me: &Unit, them: u16| {
            me.fight_periods == 0 && crate::move_phase::caught_from_behind(state, me.id, them)
        };
        let ma = if backs(ua, b) { 0 } else { strike(data, &fa, ub.troop).men };
        let mb = if backs(ub, a) { 0 } else { strike(data, &fb, ua.troop).men };
        men_to[b as usize] = men_to[b as usize].saturating_add(ma);
        men_to[a as usize] = men_to[a as usize].saturating_add(mb);
        let figures = [fa.groups[0].figures, fb.groups[0].figures];
        rounds.push(Round {
            units: [a, b],
            figures,
            dealt: [ma, mb],
            rolls: [ra, rb],
            verdict: Verdict::FightOn,
        });
    }
    // Judge each pair on the strengths and losses of this round, then apply them together.
    for r in &mut rounds {
        let [a, b] = r.units;
        let (ua, ub) = (&state.units[a as usize], &state.units[b as usize]);
        let periods = ua.fight_periods.max(ub.fight_periods) + 1;
        r.verdict = judge(
            data,
            &FightSide {
                troop: ua.troop,
                figures: ua.block.figures,
                men_lost: r.dealt[1],
                pushed_back_before: ua.pushed_back,
            },
            &FightSide {
                troop: ub.troop,
                figures: ub.block.figures,
                men_lost: r.dealt[0],
                pushed_back_before: ub.pushed_back,
            },
            periods,
        );
    }
    for (i, men) in men_to.iter().enumerate() {
        if *men == 0 {
            continue;
        }
        let u = &mut state.units[i];
        let rem = remove(data, u.block.figures, u.carried, *men);
        u.block.lose(rem.figures_removed);
        u.carried = rem.carried;
    }
    for r in &rounds {
        for (k, id) in r.units.iter().enumerate() {
            let u = &mut state.units[*id as usize];
            u.fight_periods += 1;
            // Push-backs count only in an unbroken run (WRG-AFTER-06).
            match r.verdict {
                Verdict::PushedBack { side, .. } if side as usize == k => u.pushed_back += 1,
                _ => u.pushed_back = 0,
            }
        }
    }
    rounds
}

/// What carrying out a verdict did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Outcome {
    /// A unit broke and runs (WRG-AFTER-01, -03, -06, WRG-ROUT-01).
    Broke {
        /// The unit.
        unit: u16,
    },
    /// A unit broke but could not run: half surrendered, the rest broke out (WRG-AFTER-07).
    Surrendered {
        /// The unit.
        unit: u16,
        /// Figures taken prisoner.
        prisoners: u32,
    },
    /// A unit was pushed back and its enemy followed up (WRG-AFTER-05).
    PushedBack {
        /// The unit pushed back.
        unit: u16,
        /// The unit following up.
        by: u16,
        /// Inches it went back (less than the rule's 3" when others stand in the way).
        distance: f64,
        /// Inches the winner followed up.
        followed: f64,
    },
    /// A unit fell back (WRG-AFTER-02, -04).
    FellBack {
        /// The unit.
        unit: u16,
        /// Inches.
        distance: f64,
    },
}

/// Moves a unit straight back, keeping its facing, as far as `distance`.
fn step_back(state: &mut State, id: u16, distance: f64) {
    let u = &mut state.units[id as usize];
    u.at -= u.facing.vector() * distance;
}

/// Whether a broken unit cannot run: the first inch of its flight, backs to the enemy it
/// fought, would leave the table, meet impassable ground or run into an enemy it is not
/// fighting (WRG-AFTER-07, WRG-ROUT-01).
fn trapped(data: &Data, state: &State, id: u16, winner: u16) -> bool {
    let u = &state.units[id as usize];
    let back = match state.units.get(winner as usize) {
        Some(w) => crate::after::backs_to(u.facing, u.at, w.at),
        None => u.facing.reversed(),
    };
    let to = u.at + back.vector() * 1.0;
    let probe = u.block.footprint(data, u.troop, to, back);
    if !state.table.contains_rect(&probe) {
        return true;
    }
    if crate::ground::impassable_between(data, &state.table, u.troop, u.at, to) {
        return true;
    }
    state.units.iter().any(|e| {
        e.side != u.side
            && e.id != winner
            && e.on_table()
            && probe.overlaps(&e.block.footprint(data, e.troop, e.at, e.facing))
    })
}

/// Whether a unit fighting cannot get away: the first inch straight back would leave the table
/// or run into an enemy (WRG-RT-09, WRG-AFTER-07).
pub fn cut_off(data: &Data, state: &State, id: u16) -> bool {
    trapped(data, state, id, u16::MAX)
}

/// Carries out the verdicts of this period's rounds: breaks (with surrender when the unit
/// cannot run), push-backs with the winners following up, and fall-backs
/// (WRG-AFTER-01 .. -07, WRG-ROUT-01, WRG-DIS-06).
pub fn carry_out(data: &Data, state: &mut State, rounds: &[Round]) -> Vec<Outcome> {
    let mut out = Vec::new();
    for r in rounds {
        let [a, b] = r.units;
        match r.verdict {
            Verdict::FightOn => {}
            Verdict::Breaks { side, .. } => {
                let (loser, winner) = if side == 0 { (a, b) } else { (b, a) };
                if state.units[loser as usize].motion == Motion::Routing {
                    continue;
                }
                if trapped(data, state, loser, winner) {
                    let u = &mut state.units[loser as usize];
                    let (prisoners, _) = crate::after::surrender_split(u.block.figures);
                    u.block.lose(prisoners);
                    if u.block.figures == 0 {
                        u.carried = 0;
                    }
                    out.push(Outcome::Surrendered { unit: loser, prisoners });
                }
                crate::state::break_unit_from(state, loser, Some(winner));
                for id in [a, b] {
                    state.units[id as usize].fight_periods = 0;
                }
                out.push(Outcome::Broke { unit: loser });
            }
            Verdict::PushedBack { side, distance } => {
                let (loser, winner) = if side == 0 { (a, b) } else { (b, a) };
                // Straight back, as far as other units leave room (WRG-AFTER-05).
                let back = -state.units[loser as usize].facing.vector();
                let distance = crate::move_phase::room(data, state, loser, back, distance, winner);
                step_back(state, loser, distance);
                // The winner follows up as far, keeping contact (WRG-TAC-06).
                let on = state.units[winner as usize].facing.vector();
                let followed = crate::move_phase::room(data, state, winner, on, distance, loser);
                let w = &mut state.units[winner as usize];
                w.at += on * followed;
                w.motion = Motion::Charged;
                out.push(Outcome::PushedBack { unit: loser, by: winner, distance, followed });
            }
            // Fall-backs are made in the next period's movement (WRG-AFTER-02, -04).
            Verdict::MountedFallBack { side, distance } => {
                let unit = if side == 0 { a } else { b };
                let u = &mut state.units[unit as usize];
                u.fight_periods = 0;
                u.falling_back =
                    Some(crate::state::FallingBack { inches: distance, repulsed: true });
                if u.troop.is_cavalry() {
                    u.causes.push(crate::combat::Cause::ChargeRepulsed);
                }
                out.push(Outcome::FellBack { unit, distance });
            }
            Verdict::BothFallBack { distance } => {
                for unit in [a, b] {
                    let u = &mut state.units[unit as usize];
                    u.fight_periods = 0;
                    u.falling_back =
                        Some(crate::state::FallingBack { inches: distance, repulsed: false });
                    out.push(Outcome::FellBack { unit, distance });
                }
            }
        }
    }
    out
}

/// A free blow struck without reply (WRG-PURS-02, -05, WRG-BRK-02).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Blow {
    /// Who struck.
    pub striker: u16,
    /// Who was struck.
    pub target: u16,
    /// Figures striking.
    pub figures: u32,
    /// The dice (red, black).
    pub rolls: Vec<Roll>,
    /// Men lost.
    pub men: u32,
    /// Figures removed.
    pub figures_removed: u32,
}

/// `striker` strikes `target` once without reply, as it turns to run or runs: following up
/// (+1) against backs that cannot use shields (+1), every front-rank figure that can reach
/// (WRG-PURS-02, -05, WRG-BRK-02). The losses are applied at once.
pub fn free_blow(
    data: &Data,
    state: &mut State,
    striker: u16,
    target: u16,
    dice: &mut dyn DiceSource,
) -> Option<Blow> {
    let (s, t) = (state.units.get(striker as usize)?, state.units.get(target as usize)?);
    if !s.on_table() || !t.on_table() {
        return None;
    }
    let general = state.generals.iter().any(|g| g.side == s.side && g.attached == Some(s.id));
    let figures = s.block.front_rank().min(s.block.figures);
    let (_, rolls) = roll_melee(data, s.status, general, dice);
    let f = Fighter {
        troop: s.troop,
        status: s.status,
        figures: s.block.figures,
        carried: s.carried,
        groups: vec![Group { class: s.melee, figures }],
        tactical: crate::after::pursuit_tactical(),
        general,
        black: rolls[1].value,
        red: rolls[0].value,
    };
    let men = strike(data, &f, t.troop).men;
    let u = &mut state.units[target as usize];
    let rem = remove(data, u.block.figures, u.carried, men);
    u.block.lose(rem.figures_removed);
    u.carried = rem.carried;
    Some(Blow {
        striker,
        target,
        figures,
        rolls: rolls.to_vec(),
        men,
        figures_removed: rem.figures_removed,
    })
}
