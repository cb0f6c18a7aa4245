//! The General and his messengers on the table: their rides, each a trip at their figure's
//! normal speed paying for the ground, with one period at the gallop per trip; the General
//! joining a unit at the end of his ride; and riders caught by the enemy, who fight as one
//! figure of 20 men (WRG-CHORD-02 .. -06, -10, WRG-M-01, WRG-M-02, WRG-R-42, WRG-GEN-01, -02).

use crate::Data;
use crate::ground::reach_on_table;
use crate::melee_phase::{CONTACT, Struck, blows};
use crate::model::TroopType;
use crate::plan::GeneralMove;
use crate::report::{Fact, Note, Rider, Total};
use crate::state::{Errand, General, State, Unit};
use tabletop::dice::DiceSource;
use tabletop::geometry::{Facing, Point};
use tabletop::rules::Side;
use tabletop::terrain::Table;

/// The type of a messenger's figure: light cavalry (WRG-M-02).
pub const MESSENGER: TroopType = TroopType::LightCavalry;

/// One period of a ride.
#[derive(Clone, Debug, PartialEq)]
pub struct Leg {
    /// Where the rider ends.
    pub end: Point,
    /// Inches of allowance spent, ground paid for.
    pub spent: f64,
    /// The allowance, with its parts.
    pub allowance: Total,
    /// He rode this period at the gallop.
    pub gallop: bool,
    /// He got where he was going.
    pub arrived: bool,
}

/// A rider's normal move and gallop (charge) allowance (WRG-CHORD-03, -04).
pub fn speeds(data: &Data, troop: TroopType) -> (f64, f64) {
    let row = data.moves(troop);
    (row.normal, row.charge.unwrap_or(row.normal))
}

/// How far a rider of `troop` gets toward `to` this period: his normal move, paying the ground
/// and any obstacle (WRG-TERR-01, -04, -07), or, when that will not get him there and he has
/// not yet galloped this trip, his one period at the gallop (WRG-CHORD-03, -04, WRG-R-42).
pub fn ride_toward(
    data: &Data,
    table: &Table,
    troop: TroopType,
    from: Point,
    to: Point,
    galloped: bool,
) -> Leg {
    ride_by(data, table, troop, from, to, galloped, "WRG-CHORD-04")
}

/// [`ride_toward`] with the rule that sets the rider's pace: the General's (WRG-CHORD-04) or
/// a messenger's (WRG-CHORD-03).
#[allow(clippy::too_many_arguments)]
pub fn ride_by(
    data: &Data,
    table: &Table,
    troop: TroopType,
    from: Point,
    to: Point,
    galloped: bool,
    rule: &'static str,
) -> Leg {
    let (normal, gallop) = speeds(data, troop);
    let path = [from, to];
    let gap = from.distance(to);
    let (walk, walk_cut) = reach_on_table(data, table, troop, &path, normal, 0.0);
    let short = walk.distance + 1e-9 < gap;
    let (adv, cut, allowance, fast) = if short && !galloped && gallop > normal {
        let (run, cut) = reach_on_table(data, table, troop, &path, gallop, 0.0);
        (run, cut, gallop, true)
    } else {
        (walk, walk_cut, normal, false)
    };
    let troop_words = troop.name().replace('_', " ");
    let mut total = Total::new("allowance");
    total = if fast {
        total.plus(rule, format!("{troop_words} normal move"), normal).plus(
            "WRG-CHORD-03",
            "the trip's one period at the gallop",
            allowance - normal,
        )
    } else {
        total.plus(rule, format!("{troop_words} normal move"), normal)
    };
    if cut {
        let kept = crate::moves::obstacle_allowance(data, troop, allowance);
        total = total.plus("WRG-TERR-01", "an obstacle crossed", kept - allowance);
    }
    let end = if adv.distance + 1e-9 >= gap { to } else { adv.end };
    Leg {
        end,
        spent: adv.cost.min(total.value),
        allowance: total,
        gallop: fast,
        arrived: end.distance(to) <= 1e-6,
    }
}

/// What a General's figure is and how fast it rides: his own type (WRG-M-01).
pub fn general_speeds(data: &Data, g: &General) -> (f64, f64) {
    speeds(data, g.troop)
}

/// Where a planned ride goes: the unit's standard for a ride to join it, else the point.
pub fn destination(state: &State, to: &GeneralMove) -> Option<Point> {
    match to.join {
        Some(j) => state.units.get(j as usize).filter(|u| u.on_table()).map(|u| u.at),
        None => Some(Point::new(to.x, to.y)),
    }
}

/// The General's ride this period, if his plan names one: how far he gets toward it.
pub fn general_leg(data: &Data, state: &State, side: Side, to: &GeneralMove) -> Option<Leg> {
    let g = crate::state::general(state, side)?;
    let at = destination(state, to)?;
    Some(ride_toward(data, &state.table, g.troop, g.at, at, g.galloped))
}

/// The General rides where his plan says, at his figure's normal speed paying the ground, or at
/// the gallop for one period of the trip (a trip lasts while he rides period after period,
/// and ends with a period he does not ride); at a unit's standard he joins it and from then on
/// moves with it (WRG-CHORD-03, -04, -10, WRG-M-01, WRG-R-42).
pub fn ride_general(
    data: &Data,
    state: &mut State,
    side: Side,
    planned: Option<&GeneralMove>,
) -> Vec<Note> {
    let mut notes = Vec::new();
    let Some(gi) = state.generals.iter().position(|g| g.side == side) else { return notes };
    let mut leg = planned.and_then(|p| general_leg(data, state, side, p));
    let mut stopped = None;
    if let Some(l) = leg.as_mut() {
        stopped = enemy_in_the_way(data, state, side, state.generals[gi].at, l.end);
        if let Some((at, _)) = stopped {
            l.end = at;
            l.arrived = false;
        }
    }
    let g = &mut state.generals[gi];
    let (Some(p), Some(leg)) = (planned, leg) else {
        // No ride this period: his trip, if any, is over.
        g.galloped = false;
        return notes;
    };
    if g.risk.fallen(data) || (p.join.is_some() && p.join == g.attached) {
        g.galloped = false;
        return notes;
    }
    let from = g.at;
    g.at = leg.end;
    g.rode = from.distance(leg.end);
    if let Some(f) = Facing::from_vector(leg.end - from) {
        g.facing = f;
    }
    g.attached = None;
    g.galloped |= leg.gallop;
    if g.rode > 1e-9 {
        let how = if leg.gallop { "gallops" } else { "rides" };
        let whither = match (stopped, p.join) {
            (Some((_, e)), _) => format!("and runs into {}", unit_name(state, e)),
            (None, Some(j)) => format!("to {}", unit_name(state, j)),
            (None, None) => format!("to ({:.1}, {:.1})", leg.end.x, leg.end.y),
        };
        let mut n = Note::new(
            "WRG-CHORD-04",
            format!("{side}'s General {how} {:.1}\" {whither}", from.distance(leg.end)),
        )
        .with_total(leg.allowance.clone())
        .with_fact(Fact::Rode {
            rider: Rider::General { side },
            from,
            to: leg.end,
            spent: leg.spent,
            allowance: leg.allowance.value,
        });
        if leg.gallop {
            n = n.and("WRG-CHORD-03").and("WRG-R-42");
        }
        notes.push(n);
    }
    if let Some(j) = p.join.filter(|_| leg.arrived) {
        state.generals[gi].attached = Some(j);
        notes.push(
            Note::new(
                "WRG-CHORD-10",
                format!(
                    "{side}'s General joins {} and commands them at their head",
                    unit_name(state, j)
                ),
            )
            .and("WRG-CHORD-11"),
        );
    }
    notes
}

/// Where a straight ride of one of `side`'s riders from `from` to `to` first runs into an enemy
/// unit, and which: riders do not pass through the enemy (WRG-CHORD-05).
pub fn enemy_in_the_way(
    data: &Data,
    state: &State,
    side: Side,
    from: Point,
    to: Point,
) -> Option<(Point, u16)> {
    let d = to - from;
    if d.length_squared() < 1e-12 {
        return None;
    }
    let mut best: Option<(f64, u16)> = None;
    for u in state.units.iter().filter(|u| u.side != side && u.on_table() && u.rout.is_none()) {
        let r = u.block.footprint(data, u.troop, u.at, u.facing);
        let (p, q) = (r.to_local(from), r.to_local(to));
        let e = q - p;
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        let mut hit = true;
        for (dp, lo, hi, x) in
            [(e.x, -r.width / 2.0, r.width / 2.0, p.x), (e.y, -r.depth / 2.0, r.depth / 2.0, p.y)]
        {
            if dp.abs() < 1e-12 {
                if x < lo || x > hi {
                    hit = false;
                }
            } else {
                let (mut a, mut b) = ((lo - x) / dp, (hi - x) / dp);
                if a > b {
                    std::mem::swap(&mut a, &mut b);
                }
                t0 = t0.max(a);
                t1 = t1.min(b);
            }
        }
        // Into its footprint, not along or away from its edge.
        if hit && t1 > t0 + 1e-9 && best.is_none_or(|(t, _)| t0 < t) {
            best = Some((t0, u.id));
        }
    }
    best.map(|(t, id)| (from + d * t, id))
}

fn unit_name(state: &State, id: u16) -> String {
    state.units.get(id as usize).map_or_else(|| "?".into(), |u| u.name.to_string())
}

/// Moves every messenger one period, toward the unit he carries an order to, or back to his
/// General: at the gallop on the first period of each trip, at his normal speed after, paying
/// the ground (WRG-CHORD-03, WRG-M-02). One who reaches the unit's standard hands over the
/// order, which the unit digests this period and acts on from the next (WRG-CHORD-02, -06),
/// and rides back; one back at his General is free again.
pub fn ride_messengers(data: &Data, state: &mut State) -> Vec<Note> {
    let mut notes = Vec::new();
    let period = state.period;
    let mut keep = Vec::with_capacity(state.messengers.len());
    for mut m in std::mem::take(&mut state.messengers) {
        if m.leaves > period {
            keep.push(m);
            continue;
        }
        let target = match m.errand {
            Errand::Out => state.units.get(m.unit as usize).filter(|u| u.on_table()).map(|u| u.at),
            Errand::Back => {
                crate::state::general(state, m.side).filter(|g| !g.risk.fallen(data)).map(|g| g.at)
            }
        };
        let Some(target) = target else {
            // Nobody to ride to: the order is lost, or he has no General to go back to.
            if m.errand == Errand::Out {
                notes.push(Note::new(
                    "WRG-CHORD-02",
                    format!(
                        "{}'s messenger finds no {} to take the order to and rides back",
                        m.side,
                        unit_name(state, m.unit)
                    ),
                ));
                m.errand = Errand::Back;
                m.galloped = false;
                keep.push(m);
            }
            continue;
        };
        let from = m.at;
        let mut leg =
            ride_by(data, &state.table, MESSENGER, from, target, m.galloped, "WRG-CHORD-03");
        let stopped = enemy_in_the_way(data, state, m.side, from, leg.end);
        if let Some((at, _)) = stopped {
            leg.end = at;
            leg.arrived = false;
        }
        m.galloped |= leg.gallop;
        m.at = leg.end;
        let errand = match m.errand {
            Errand::Out => format!("with the order for {}", unit_name(state, m.unit)),
            Errand::Back => "back to his General".to_string(),
        };
        let blocked = stopped
            .map_or(String::new(), |(_, e)| format!(", and runs into {}", unit_name(state, e)));
        let mut n = Note::new(
            "WRG-CHORD-03",
            format!(
                "{}'s messenger {} {:.1}\" {errand}{blocked}",
                m.side,
                if leg.gallop { "gallops" } else { "rides" },
                from.distance(leg.end)
            ),
        )
        .with_total(leg.allowance.clone())
        .with_fact(Fact::Rode {
            rider: Rider::Messenger { side: m.side, unit: m.unit },
            from,
            to: leg.end,
            spent: leg.spent,
            allowance: leg.allowance.value,
        });
        if leg.gallop {
            n = n.and("WRG-R-42");
        }
        notes.push(n);
        if !leg.arrived {
            keep.push(m);
            continue;
        }
        match m.errand {
            Errand::Out => {
                if let Some(u) = state.units.get_mut(m.unit as usize) {
                    u.incoming = Some((m.order.clone(), period + 1));
                    u.incoming_by = Some(crate::state::Bearer::Messenger);
                    notes.push(
                        Note::new(
                            "WRG-CHORD-02",
                            format!(
                                "{}'s messenger reaches {}: they digest their new order this \
                                 period and act on it from period {}",
                                m.side,
                                u.name,
                                period + 1
                            ),
                        )
                        .and("WRG-CHORD-06"),
                    );
                }
                m.errand = Errand::Back;
                m.galloped = false;
                m.leaves = period + 1;
                keep.push(m);
            }
            Errand::Back => state.free_messengers[m.side.index()] += 1,
        }
    }
    state.messengers = keep;
    notes
}

/// A rider's figure, as a unit of one figure for the fight (its type, dice, class).
fn rider_unit(like: &Unit, side: Side, troop: TroopType, g: &General, at: Point) -> Unit {
    let mut u = like.clone();
    u.id = u16::MAX;
    u.side = side;
    u.troop = troop;
    u.status = g.status;
    u.melee =
        if troop == MESSENGER { crate::model::MeleeClass::ConventionalCavalry } else { g.melee };
    u.missile = None;
    u.block = crate::unit::Block::new(1, 1);
    u.carried = 0;
    u.at = at;
    u.shield = true;
    u.fully_armoured = false;
    u.causes.clear();
    u.pursuit = None;
    u.rout = None;
    u.motion = crate::state::Motion::Still;
    u.standing = crate::orders::Standing::Waiting;
    u
}

/// Riders whom an enemy unit has reached fight it, one round: the General alone, or a
/// messenger, each one figure of 20 men (WRG-CHORD-05, WRG-GEN-01, -02). The unit strikes
/// with the figures the rider's base touches; a messenger who loses 20 men falls and his
/// order with him; the General falls when his figure has lost 20.
pub fn caught(data: &Data, state: &mut State, dice: &mut dyn DiceSource) -> Vec<Note> {
    let mut notes = Vec::new();
    // (rider, side, where, troop)
    let mut riders: Vec<(Option<usize>, Side, Point)> = Vec::new();
    for g in &state.generals {
        if g.attached.is_none() && !g.risk.fallen(data) {
            riders.push((None, g.side, g.at));
        }
    }
    for (i, m) in state.messengers.iter().enumerate() {
        if m.leaves <= state.period {
            riders.push((Some(i), m.side, m.at));
        }
    }
    let reach = data.base(MESSENGER).depth / 2.0;
    let mut fallen_messengers = Vec::new();
    for (who, side, at) in riders {
        let Some(e) = state
            .units
            .iter()
            .filter(|u| u.side != side && u.on_table() && u.rout.is_none())
            .find(|u| {
                u.block.footprint(data, u.troop, u.at, u.facing).distance_to_point(at)
                    <= reach + CONTACT
            })
            .map(|u| u.id)
        else {
            continue;
        };
        let Some(g) = state.generals.iter().find(|g| g.side == side).cloned() else { continue };
        let troop = if who.is_some() { MESSENGER } else { g.troop };
        let enemy = state.units[e as usize].clone();
        let rider = rider_unit(&enemy, side, troop, &g, at);
        let (_, er) = crate::random::roll_melee(data, enemy.status, false, dice);
        let (_, rr) = crate::random::roll_melee(data, g.status, false, dice);
        // The enemy fights with the figures the rider's base covers; the rider with himself.
        let covered = (data.base(troop).front / data.base(enemy.troop).front).ceil().max(1.0);
        let mut eb = blows(data, state, &enemy, &rider, Struck::Round { shot: false }, &er);
        let n = enemy.block.front_rank().min(covered as u32).max(1);
        crate::melee_phase::recount(data, &mut eb, n, "figures the rider's base touches");
        let mut rb = blows(data, state, &rider, &enemy, Struck::Round { shot: false }, &rr);
        crate::melee_phase::recount(data, &mut rb, 1, "the rider's figure, 20 men");
        let what = match who {
            None => format!("{side}'s General"),
            Some(_) => format!("{side}'s messenger"),
        };
        let mut note = Note::new(
            "WRG-CHORD-05",
            format!(
                "{} catch {what}: he fights as one figure of 20 men; he loses {} men, they {}",
                enemy.name, eb.men, rb.men
            ),
        )
        .and("WRG-MELEE-05")
        .with_rolls(er.iter().chain(rr.iter()).cloned().collect());
        note = crate::melee_phase::with_blows(note, &enemy.name, &eb);
        note = crate::melee_phase::with_blows(note, &what, &rb);
        notes.push(note);
        // The enemy's losses.
        let u = &mut state.units[e as usize];
        let rem = crate::casualty::remove(data, u.block.figures, u.carried, rb.men);
        let before = u.block.figures;
        u.block.lose(rem.figures_removed);
        u.carried = rem.carried;
        if rb.men > 0 {
            notes.push(crate::casualty::losses_note(
                data,
                &enemy.name,
                e,
                "to a rider",
                rb.men,
                before,
                rem.carried_before,
                rem.figures_removed,
                rem.carried,
            ));
        }
        // The rider's.
        match who {
            None => {
                let g = state.generals.iter_mut().find(|g| g.side == side).expect("his General");
                if g.risk.share(data, eb.men, 1) {
                    notes.push(
                        Note::new("WRG-GEN-02", format!("{side}'s General falls"))
                            .and("WRG-GEN-01"),
                    );
                }
            }
            Some(i) => {
                let lost = match state.messengers[i].errand {
                    Errand::Out => {
                        format!(
                            " with the order for {}",
                            unit_name(state, state.messengers[i].unit)
                        )
                    }
                    Errand::Back => String::new(),
                };
                let m = &mut state.messengers[i];
                m.wounds = m.wounds.saturating_add(eb.men);
                if m.wounds < data.casualties.men_per_figure {
                    // Beaten off, he rides back to his General; the order is not delivered.
                    if m.errand == Errand::Out {
                        m.errand = Errand::Back;
                        m.galloped = false;
                        notes.push(Note::new(
                            "WRG-CHORD-05",
                            format!("{side}'s messenger is beaten off and rides back{lost}"),
                        ));
                    }
                } else {
                    fallen_messengers.push(i);
                    notes
                        .push(Note::new("WRG-CHORD-05", format!("{side}'s messenger falls{lost}")));
                }
            }
        }
    }
    fallen_messengers.sort_unstable();
    for i in fallen_messengers.into_iter().rev() {
        state.messengers.remove(i);
    }
    notes
}
