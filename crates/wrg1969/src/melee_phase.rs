//! The hand-to-hand part of a period on the table: which units touch, which figures fight,
//! both sides striking from their strength before the round, the losses applied together, and
//! each pair judged after combat (WRG-MELEE-01 .. -07, WRG-RAND-02 .. -05, WRG-AFTER-01 .. -06).

use crate::Data;
use crate::after::{Side as FightSide, Verdict, judge};
use crate::casualty::{Reading, Removal, men_lost, remove};
use crate::combat::{Applied, From, Protection, Tactical, can_use_shield, tactical_factors};
use crate::model::Status;
use crate::orders::Verb;
use crate::random::roll_melee;
use crate::report::{Fact, Note, Part, Total};
use crate::state::{Motion, State, Unit};
use serde::Serialize;
use std::borrow::Cow;
use tabletop::dice::{DiceSource, Roll};
use tabletop::geometry::{Point, Sector, Vec2, direction_sector};
use tabletop::rules::RuleId;

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
    /// How each side struck, with every part.
    pub blows: [Blows; 2],
    /// The losses applied to each unit, in the first round it fought this period (a unit
    /// fighting two enemies loses their blows together).
    pub losses: [Option<Removal>; 2],
}

/// How a side strikes: a round of hand-to-hand, or a blow without reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Struck {
    /// A round of a fight; `shot`: the unit shot this period, so its second rank does not
    /// fight (WRG-MELEE-02).
    Round {
        /// It shot this period.
        shot: bool,
    },
    /// Pursuers striking routers: following up, at their backs (WRG-PURS-02, -05).
    Pursuit,
    /// The enemy striking a unit as it turns to break off, at its back (WRG-BRK-02).
    BreakOff,
}

/// How one side strikes another, every number with its parts: the figures (WRG-MELEE-01 ..
/// -04), the weapon factor of T7, the tactical factors, the random factor (WRG-MELEE-05,
/// WRG-TAC, WRG-RAND) and the casualty table (WRG-CAS-01).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Blows {
    /// The unit striking.
    pub striker: u16,
    /// The unit struck.
    pub target: u16,
    /// Figures striking.
    pub figures: u32,
    /// How the figures were counted.
    pub counted: Vec<crate::fire_phase::Counted>,
    /// Every factor: weapon, tactical, random.
    pub factors: Vec<Applied>,
    /// The total factor.
    pub total: i32,
    /// The casualty table read.
    pub reading: Reading,
    /// Men dealt (0 when it struck no blow).
    pub men: u32,
    /// It struck at all: a unit caught with its back turned strikes no blow (WRG-MOVE-11).
    pub struck: bool,
    /// The further rules applied (shields, disorganisation, the General).
    pub rules: Vec<&'static str>,
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

/// Whether two enemy units whose footprints touch are in hand-to-hand: the front of at least
/// one figure of either touches the other (WRG-MELEE-01). Blocks that meet only corner to
/// corner or flank to flank, where no figure could strike, are not fighting: they may move
/// off, or charge home squarely, next period.
pub fn engaged(data: &Data, a: &Unit, b: &Unit) -> bool {
    front_contact(data, a, b) > 0 || front_contact(data, b, a) > 0
}

/// The pairs of enemy units in hand-to-hand, lower id first, each once.
pub fn contacts(data: &Data, state: &State) -> Vec<(u16, u16)> {
    let live = |u: &Unit| u.on_table() && u.motion != Motion::Routing;
    let print = |u: &Unit| u.block.footprint(data, u.troop, u.at, u.facing);
    let mut out = near_pairs(data, state, live);
    out.retain(|&(a, b)| {
        let (a, b) = (&state.units[a as usize], &state.units[b as usize]);
        print(a).touches(&print(b), CONTACT) && engaged(data, a, b)
    });
    out
}

/// The pairs of enemy units that `live` accepts whose footprints' circumscribed circles come
/// within [`CONTACT`] of each other (a superset of the pairs in contact), lower id first, in
/// order of the lower id and then the higher: found among the units sorted across the table
/// rather than pair by pair.
pub fn near_pairs(data: &Data, state: &State, live: impl Fn(&Unit) -> bool) -> Vec<(u16, u16)> {
    // What the reach adds, so that rounding never leaves out a pair the exact tests count.
    const SLACK: f64 = 1e-6;
    let mut by_x: Vec<(f64, &Unit, f64)> = (state.units.iter())
        .filter(|u| live(u))
        .map(|u| {
            let (w, d) = u.block.size(data, u.troop);
            (u.at.x, u, 0.5 * (w * w + d * d).sqrt())
        })
        .collect();
    by_x.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
    let widest = by_x.iter().map(|e| e.2).fold(0.0, f64::max);
    let mut out = Vec::new();
    for (i, &(x, a, ra)) in by_x.iter().enumerate() {
        for &(xb, b, rb) in &by_x[i + 1..] {
            if xb - x > ra + widest + CONTACT + SLACK {
                break;
            }
            let reach = ra + rb + CONTACT + SLACK;
            if a.side != b.side && (a.at - b.at).length_squared() <= reach * reach {
                out.push((a.id.min(b.id), a.id.max(b.id)));
            }
        }
    }
    out.sort_unstable();
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

/// The figures of `u` that strike `enemy`, part by part (WRG-MELEE-01 .. -04).
fn counted(data: &Data, u: &Unit, enemy: &Unit, how: Struck) -> Vec<crate::fire_phase::Counted> {
    let front = front_contact(data, u, enemy);
    let parts = match how {
        Struck::Round { shot } => {
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
            crate::melee::fighting_parts(u.troop, u.status, &placing)
        }
        // Blows without reply: the front rank, those touching or all of it as the enemy turns.
        Struck::Pursuit | Struck::BreakOff => {
            let n = if front > 0 { front } else { u.block.front_rank().min(u.block.figures) };
            vec![("WRG-MELEE-01", "front rank striking", n)]
        }
    };
    parts
        .into_iter()
        .map(|(rule, what, figures)| crate::fire_phase::Counted {
            rule: rule.into(),
            what: what.into(),
            figures,
        })
        .collect()
}

/// How `u` strikes `enemy`, with the dice thrown for it: the same factors for a round of a
/// fight and for a blow without reply (WRG-MELEE-05, WRG-TAC-02 .. -07, WRG-SHLD-01 .. -03,
/// WRG-RAND-02 .. -04, WRG-CAS-01, WRG-PURS-05).
pub fn blows(
    data: &Data,
    state: &State,
    u: &Unit,
    enemy: &Unit,
    how: Struck,
    rolls: &[Roll],
) -> Blows {
    let counted = counted(data, u, enemy, how);
    let figures = counted.iter().fold(0u32, |n, c| n.saturating_add(c.figures));
    let backs = matches!(how, Struck::Pursuit | Struck::BreakOff);
    let from = if backs {
        From::Rear
    } else {
        match direction_sector(enemy.facing, u.at - enemy.at) {
            Sector::Front => From::Front,
            Sector::Left => From::Left,
            Sector::Right => From::Right,
            Sector::Rear => From::Rear,
        }
    };
    let protection = Protection {
        no_shield: !enemy.shield,
        two_handed: data.melee_row(enemy.melee).two_handed,
        fully_armoured: enemy.fully_armoured,
    };
    let (shielded, shield_rule) = can_use_shield(enemy.troop, protection, from);
    let causes = crate::fire_phase::disorganisation(u);
    let charging = match how {
        Struck::Round { .. } => u.motion == Motion::Charged,
        Struck::Pursuit => true,
        Struck::BreakOff => false,
    };
    let tactical = Tactical {
        target_in_cover: crate::fire_phase::in_cover(state, enemy.at),
        disorganised: !causes.is_empty(),
        target_shieldless: !shielded,
        charging,
        higher_ground: state.table.elevation(u.at) > state.table.elevation(enemy.at) + 0.5,
        ..Default::default()
    };
    let general = state.generals.iter().any(|g| g.side == u.side && g.attached == Some(u.id));
    let row = data.melee_row(u.melee);
    let wf = crate::melee::weapon_factor(data, u.melee, enemy.troop);
    let mut factors = vec![Applied::new(
        "WRG-MELEE-05",
        wf,
        format!(
            "{} against {} (T7 row {}, column {})",
            u.melee.name().replace('_', " "),
            enemy.troop.name().replace('_', " "),
            row.number,
            enemy.troop.column().name().to_uppercase()
        ),
    )];
    factors.extend(tactical_factors(&tactical, false).into_iter().map(|mut a| {
        if a.rule == "WRG-TAC-05" {
            a.why = crate::fire_phase::shield_words(shield_rule, protection);
        }
        a
    }));
    let mut rules = vec!["WRG-RAND-05"];
    let (red, black) = (rolls[0].value, rolls[1].value);
    let raw = black as i32 - red as i32;
    let rand_rule = match u.status {
        Status::Regular => "WRG-RAND-02",
        Status::Barbarian => "WRG-RAND-03",
    };
    factors.push(Applied::new(rand_rule, raw, format!("black {black} less red {red}")));
    if general && raw < 0 {
        // The General fighting with them: a minus counts nothing (WRG-RAND-04).
        factors.push(Applied::new("WRG-RAND-04", -raw, "the General fights with them"));
        rules.push("WRG-RAND-04");
    }
    let total = factors.iter().map(|a| a.delta).sum::<i32>();
    debug_assert_eq!(total - wf, crate::combat::total(&factors[1..]));
    let reading = men_lost(data, total, figures);
    if !shielded || shield_rule == "WRG-SHLD-03" {
        rules.push(shield_rule);
    }
    if !causes.is_empty() {
        rules.push("WRG-DIS-01");
        rules.extend(causes.iter().map(|c| c.rule()));
    }
    if enemy.troop.is_engine() {
        rules.push("WRG-FIRE-16");
    }
    Blows {
        striker: u.id,
        target: enemy.id,
        figures,
        counted,
        factors,
        total,
        men: reading.men,
        reading,
        struck: true,
        rules,
    }
}

/// Fights every pair in contact: each side strikes from its strength before the round, all
/// losses are applied together, then each pair is judged (WRG-MELEE-05, -06, -07,
/// WRG-AFTER-01 .. -06). `shot` lists the units that shot this period (their second rank does
/// not fight, WRG-MELEE-02). Each unit throws its dice once however many enemies it fights
/// (WRG-RAND-05).
pub fn fight_all(
    data: &Data,
    state: &mut State,
    shot: &[u16],
    dice: &mut dyn DiceSource,
) -> Vec<Round> {
    let pairs = contacts(data, state);
    let mut rounds = Vec::with_capacity(pairs.len());
    let mut men_to = vec![0u32; state.units.len()];
    let mut thrown: Vec<Option<[Roll; 2]>> = vec![None; state.units.len()];
    for &(a, b) in &pairs {
        for id in [a, b] {
            if thrown[id as usize].is_none() {
                let u = &state.units[id as usize];
                let general =
                    state.generals.iter().any(|g| g.side == u.side && g.attached == Some(u.id));
                thrown[id as usize] = Some(roll_melee(data, u.status, general, dice).1);
            }
        }
        let (ua, ub) = (&state.units[a as usize], &state.units[b as usize]);
        let [Some(ra), Some(rb)] = [thrown[a as usize].clone(), thrown[b as usize].clone()] else {
            continue;
        };
        let mut ba = blows(data, state, ua, ub, Struck::Round { shot: shot.contains(&a) }, &ra);
        let mut bb = blows(data, state, ub, ua, Struck::Round { shot: shot.contains(&b) }, &rb);
        // A unit caught with its back turned strikes no blow in the first round (WRG-MOVE-11,
        // WRG-R-21).
        let backs = |me: &Unit, them: u16| {
            me.fight_periods == 0 && crate::move_phase::caught_from_behind(state, me.id, them)
        };
        for (bl, me, them) in [(&mut ba, ua, b), (&mut bb, ub, a)] {
            if backs(me, them) {
                bl.struck = false;
                bl.men = 0;
            }
        }
        let (ma, mb) = (ba.men, bb.men);
        men_to[b as usize] = men_to[b as usize].saturating_add(ma);
        men_to[a as usize] = men_to[a as usize].saturating_add(mb);
        rounds.push(Round {
            units: [a, b],
            figures: [ba.figures, bb.figures],
            dealt: [ma, mb],
            rolls: [ra.to_vec(), rb.to_vec()],
            verdict: Verdict::FightOn,
            blows: [ba, bb],
            losses: [None, None],
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
    for r in &mut rounds {
        for (k, id) in r.units.into_iter().enumerate() {
            let men = std::mem::take(&mut men_to[id as usize]);
            if men == 0 {
                continue;
            }
            let u = &mut state.units[id as usize];
            let rem = remove(data, u.block.figures, u.carried, men);
            u.block.lose(rem.figures_removed);
            u.carried = rem.carried;
            r.losses[k] = Some(rem);
        }
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
        /// The note of the step it took turning to run, if it took one.
        step: Option<Note>,
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
        /// The test of a winner with a hold order whether it follows up (WRG-RT-10), if it
        /// took one; when it stays, `followed` is 0.
        held: Option<Note>,
    },
    /// A unit fell back (WRG-AFTER-02, -04).
    FellBack {
        /// The unit.
        unit: u16,
        /// Inches.
        distance: f64,
    },
}

/// Whether a broken unit cannot run: the first inch of its flight, backs to the enemy it
/// fought, would leave the table, meet impassable ground or run into an enemy it is not
/// fighting (WRG-AFTER-07, WRG-ROUT-01).
fn trapped(data: &Data, state: &State, id: u16, winner: u16) -> bool {
    let u = &state.units[id as usize];
    let back = crate::after::rout_heading(state, id, Some(winner));
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
pub fn carry_out(
    data: &Data,
    state: &mut State,
    rounds: &[Round],
    dice: &mut dyn DiceSource,
) -> Vec<Outcome> {
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
                let step = crate::state::break_unit_from(data, state, loser, Some(winner));
                for id in [a, b] {
                    state.units[id as usize].fight_periods = 0;
                }
                out.push(Outcome::Broke { unit: loser, step });
            }
            Verdict::PushedBack { side, distance } => {
                let (loser, winner) = if side == 0 { (a, b) } else { (b, a) };
                // Straight away from the winner (back, if it was struck in front), keeping
                // its facing, as far as other units leave room (WRG-AFTER-05).
                let back = state.units[winner as usize].facing.vector();
                let distance = crate::move_phase::room(data, state, loser, back, distance, winner);
                state.units[loser as usize].at += back * distance;
                // The winner follows up as far the same way, keeping contact whichever face
                // it struck (WRG-TAC-06), unless it holds and its test lets it stay where it
                // stood (WRG-RT-10).
                let on = back;
                let held =
                    crate::test_phase::holders_stay(data, state, loser, winner, distance, dice);
                let stays = held.as_ref().is_some_and(|h| h.1);
                let followed = if stays {
                    0.0
                } else {
                    crate::move_phase::room(data, state, winner, on, distance, loser)
                };
                let w = &mut state.units[winner as usize];
                w.at += on * followed;
                w.motion = if stays { Motion::Still } else { Motion::Charged };
                let held = held.map(|h| h.0);
                out.push(Outcome::PushedBack { unit: loser, by: winner, distance, followed, held });
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
    /// How it was struck, with every part.
    pub blows: Blows,
    /// The losses applied.
    pub removal: Removal,
}

/// `striker` strikes `target` once without reply, as it turns to run or runs, with the factors
/// of any fight (WRG-MELEE-05, WRG-TAC): pursuers following up (+1) at the routers' backs
/// (WRG-PURS-02, -05), or the enemy of a unit breaking off at its back as it turns
/// (WRG-BRK-02). The losses are applied at once.
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
    let how = if s.pursuit.is_some_and(|p| p.target == target) {
        Struck::Pursuit
    } else {
        Struck::BreakOff
    };
    let (_, rolls) = roll_melee(data, s.status, general, dice);
    let b = blows(data, state, s, t, how, &rolls);
    let u = &mut state.units[target as usize];
    let rem = remove(data, u.block.figures, u.carried, b.men);
    u.block.lose(rem.figures_removed);
    u.carried = rem.carried;
    Some(Blow {
        striker,
        target,
        figures: b.figures,
        rolls: rolls.to_vec(),
        men: b.men,
        figures_removed: rem.figures_removed,
        blows: b,
        removal: rem,
    })
}

/// Adds the totals of one side's blows to a note: figures, factor and men, each with its
/// parts, and the rules they applied.
pub(crate) fn with_blows(mut n: Note, who: &str, b: &Blows) -> Note {
    let who = possessive(who);
    let mut figures = Total::new(format!("{who} figures"));
    for c in &b.counted {
        part(&mut figures, &c.rule, c.what.clone(), c.figures as f64);
    }
    let mut factor = Total::new(format!("{who} factor"));
    for a in &b.factors {
        part(&mut factor, &a.rule, a.why.clone(), a.delta as f64);
    }
    let mut men = crate::casualty::reading_total(&b.reading);
    men.what = format!("{who} men struck down");
    n = n.with_total(figures).with_total(factor).with_total(men);
    let tactical = b.factors.iter().filter(|a| a.rule.starts_with("WRG-TAC-")).count();
    let mut rules: Vec<&str> = b.counted.iter().map(|c| c.rule.as_str()).collect();
    rules.extend(b.reading.rules.iter().copied());
    rules.extend(b.rules.iter().copied());
    if tactical > 0 {
        rules.push("WRG-TAC-08");
    }
    for r in rules {
        if !n.rules.iter().any(|x| x.as_str() == r) {
            n.rules.push(RuleId(Cow::Owned(r.to_string())));
        }
    }
    n
}

/// A unit's name as a possessive: "Hoplites'", "Spanish cavalry's".
pub(crate) fn possessive(name: &str) -> String {
    if name.ends_with('s') { format!("{name}'") } else { format!("{name}'s") }
}

/// Counts a side's striking figures anew (a rider's fight, WRG-CHORD-05): `n` figures, and the
/// casualty table read again for them.
pub(crate) fn recount(data: &Data, b: &mut Blows, n: u32, what: &str) {
    b.counted = vec![crate::fire_phase::Counted {
        rule: "WRG-MELEE-01".into(),
        what: what.into(),
        figures: n,
    }];
    b.figures = n;
    b.reading = men_lost(data, b.total, n);
    b.men = b.reading.men;
}

/// Adds a part with a rule given as text.
fn part(t: &mut Total, rule: &str, what: impl Into<String>, value: f64) {
    t.value += value;
    t.parts.push(Part { rule: RuleId(Cow::Owned(rule.to_string())), what: what.into(), value });
}

fn unit_name(state: &State, id: u16) -> &str {
    state.units.get(id as usize).map_or("?", |u| &u.name)
}

/// A round of hand-to-hand told for the log, each side's figures, factors and men with their
/// parts, then each unit's losses (WRG-MELEE-05 .. -07, WRG-CAS-01, -03).
pub fn round_notes(data: &Data, state: &State, r: &Round, before: &[u32]) -> Vec<Note> {
    let [a, b] = r.units;
    let (na, nb) = (unit_name(state, a), unit_name(state, b));
    let mut n = Note::new(
        "WRG-MELEE-05",
        format!(
            "{na} ({} figures) and {nb} ({} figures) fight: {nb} lose {} men, {na} {}",
            r.figures[0], r.figures[1], r.dealt[0], r.dealt[1]
        ),
    )
    .and("WRG-MELEE-06")
    .and("WRG-CAS-01");
    let mut rolls = r.rolls[0].clone();
    rolls.extend(r.rolls[1].iter().cloned());
    n = n.with_rolls(rolls);
    for (k, who) in [(0, na), (1, nb)] {
        let bl = &r.blows[k];
        if bl.struck {
            n = with_blows(n, who, bl);
        } else {
            n.text.push_str(&format!("; {who} strike no blow, caught with their backs turned"));
            n = n.and("WRG-MOVE-11");
        }
    }
    let continuing =
        r.units.iter().any(|&id| state.units.get(id as usize).is_some_and(|u| u.fight_periods > 1));
    if continuing {
        n = n.and("WRG-MELEE-07");
    }
    let mut out = vec![n.with_fact(Fact::Fight {
        units: r.units,
        figures: r.figures,
        factors: [r.blows[0].total, r.blows[1].total],
        rows: [r.blows[0].reading.row, r.blows[1].reading.row],
        men: r.dealt,
        struck: [r.blows[0].struck, r.blows[1].struck],
    })];
    for (k, id) in r.units.into_iter().enumerate() {
        let Some(rem) = &r.losses[k] else { continue };
        let figures_before = before.get(id as usize).copied().unwrap_or_default();
        out.push(crate::casualty::losses_note(
            data,
            unit_name(state, id),
            id,
            "in hand-to-hand",
            rem.men,
            figures_before,
            rem.carried_before,
            rem.figures_removed,
            rem.carried,
        ));
    }
    out
}

/// A blow without reply told for the log, with its parts and the losses it caused
/// (WRG-PURS-02, -05, WRG-BRK-02).
pub fn blow_notes(data: &Data, state: &State, b: &Blow, rule: &'static str) -> Vec<Note> {
    let (ns, nt) = (unit_name(state, b.striker), unit_name(state, b.target));
    let mut n = Note::new(
        rule,
        format!("{ns} strike {nt} without reply: {} figures, {} men lost", b.figures, b.men),
    )
    .and("WRG-CAS-01")
    .with_rolls(b.rolls.clone());
    if rule == "WRG-PURS-02" {
        n = n.and("WRG-PURS-05");
    }
    n = with_blows(n, ns, &b.blows).with_fact(Fact::Blow {
        striker: b.striker,
        target: b.target,
        figures: b.figures,
        factor: b.blows.total,
        row: b.blows.reading.row,
        men: b.men,
    });
    let r = &b.removal;
    let figures_before =
        state.units.get(b.target as usize).map_or(0, |u| u.block.figures) + r.figures_removed;
    vec![
        n,
        crate::casualty::losses_note(
            data,
            nt,
            b.target,
            "without striking back",
            r.men,
            figures_before,
            r.carried_before,
            r.figures_removed,
            r.carried,
        ),
    ]
}
