//! Going round friends that stand in the way (WRG-R-08, WRG-ORD-04): a unit moving by its
//! order or a reaction result whose way would run into a friend that stands this period (in
//! hand-to-hand, halted, holding, waiting) steps aside round the nearer end of that friend and
//! goes on to where its way was taking it, keeping its front to the way, rather than standing
//! behind it all period. Friends on the move are not gone round: the unit follows them, or
//! waits for them to make way (the time steps do that).

use super::intent::{Cx, Goal, Intent, Source};
use super::mover::{Allow, EPS, Kind, Mover, footprint, routing};
use super::track::{Pose, Seg, Track};
use crate::report::Note;
use crate::state::Unit;
use tabletop::geometry::{Facing, Rect, Vec2};

/// Clearance kept from the friend gone round, inches.
const CLEAR: f64 = 0.25;

/// Steps, in inches of the way, at which a way is tried against the friends.
const PROBE: f64 = 0.25;

/// Reroutes the intents that would run into a friend standing this period.
pub fn detours(cx: &mut Cx, intents: &mut [Option<Intent>], notes: &mut Vec<Note>) {
    let state = cx.state;
    let n = state.units.len();
    // Who stands this period: on the table, not running, pursuing or moving by its intent.
    let standing: Vec<Option<Rect>> = (0..n)
        .map(|j| {
            let f = &state.units[j];
            let still = intents[j].as_ref().is_none_or(|i| i.mover.is_none());
            (f.on_table() && !routing(f) && f.pursuit.is_none() && still)
                .then(|| footprint(cx.data, f))
        })
        .collect();
    if standing.iter().all(Option::is_none) {
        return;
    }
    barred_charges(cx, intents, &standing, notes);
    let mut new_ways: Vec<(usize, Mover)> = Vec::new();
    for (i, it) in intents.iter().enumerate() {
        let Some(it) = it.as_ref() else { continue };
        let Some(m) = it.mover.as_ref() else { continue };
        if !reroutable(&it.source, m) {
            continue;
        }
        let u = &state.units[i];
        if u.troop.is_light_infantry() {
            // Light infantry pass through friends.
            continue;
        }
        let blockers = |j: usize| {
            let f = &state.units[j];
            j != i && f.side == u.side && !f.troop.is_light_infantry()
        };
        let Some((_, j)) = first_block(m, &standing, blockers) else { continue };
        let Some(fr) = standing[j] else { continue };
        let turns = first_turns(m);
        let Some(new) = around(cx, u, m, &turns, m.asked, &fr, &standing, blockers) else {
            continue;
        };
        notes.push(
            Note::new(
                "WRG-R-08",
                format!("{} go round {}, who stand in their way", u.name, state.units[j].name),
            )
            .and("WRG-ORD-04"),
        );
        new_ways.push((i, new));
    }
    for (i, new) in new_ways {
        if let Some(it) = intents[i].as_mut() {
            it.mover = Some(new);
        }
    }
}

/// Charges whose way to contact runs into a formed friend standing this period are not
/// declared: a charge runs straight at its enemy, and only light infantry pass through friends
/// or are passed through. The unit marches on its enemy instead (and so goes round the friend,
/// below), to charge from where it then stands (WRG-R-08, WRG-MOVE-04, -05).
fn barred_charges(
    cx: &mut Cx,
    intents: &mut [Option<Intent>],
    standing: &[Option<Rect>],
    notes: &mut Vec<Note>,
) {
    let state = cx.state;
    for (i, slot) in intents.iter_mut().enumerate() {
        let Some(it) = slot.as_ref() else { continue };
        let Some(m) = it.mover.as_ref() else { continue };
        let Kind::Charge { target, .. } = m.kind else { continue };
        let u = &state.units[i];
        if m.directed || u.troop.is_light_infantry() {
            continue;
        }
        let blockers = |j: usize| {
            let f = &state.units[j];
            j != i && f.side == u.side && !f.troop.is_light_infantry()
        };
        let Some((_, j)) = first_block(m, standing, blockers) else { continue };
        let (allowance, allow, free) = match &it.source {
            Source::Order(_) => {
                let order = u.standing.order();
                (
                    super::intent::order_allowance(cx.data, u),
                    super::intent::normal_allow(order),
                    false,
                )
            }
            Source::Running => {
                let Some(r) = u.running else { continue };
                let normal = cx.data.moves(u.troop).normal * m.share;
                (normal, Allow::Result { rule: r.effect.rule() }, true)
            }
            _ => continue,
        };
        let t = &state.units[target as usize];
        let share = m.share;
        let approach = cx.toward(u, t.at, 0.0, allowance, Kind::Forward, free);
        notes.push(
            Note::new(
                "WRG-R-08",
                format!(
                    "{} do not charge {}: {} stand in the way, so they march on them instead",
                    u.name, t.name, state.units[j].name
                ),
            )
            .and("WRG-MOVE-04"),
        );
        if let Some(it) = slot.as_mut() {
            it.mover = approach.map(|mut a| {
                a.allow = allow;
                a.share = share;
                a
            });
        }
    }
}

/// Whether a move under way may go round a friend: an ordinary move, a reaction result's or a
/// pursuit (pursuers follow their routers round friends as the routers swerve round them,
/// WRG-ROUT-05), along a way of straight legs.
pub(super) fn may_go_round(m: &Mover) -> bool {
    let plain = matches!(m.kind, Kind::Forward | Kind::Back)
        && matches!(m.allow, Allow::Normal { .. } | Allow::Result { .. });
    let pursuit = matches!(m.kind, Kind::Pursue { .. }) && matches!(m.allow, Allow::Pursuit { .. });
    !m.directed
        && (plain || pursuit)
        && !m.step_back
        && m.track.segs.iter().any(|s| matches!(s, Seg::Line { .. }))
}

/// Whether a move may be rerouted: an ordinary move by an order with no written route, or a
/// reaction result's, along a way of straight legs.
fn reroutable(source: &Source, m: &Mover) -> bool {
    let plain = match source {
        Source::Running => true,
        Source::Order(goal) => match goal {
            Goal::Open | Goal::Done => true,
            Goal::Point { route_ends, .. }
            | Goal::Feature { route_ends, .. }
            | Goal::Route { route_ends } => route_ends.is_empty(),
            Goal::Wheel { .. } => false,
        },
        _ => false,
    };
    plain && may_go_round(m)
}

/// The first friend standing in a mover's way, and how far along the way it is met.
fn first_block(
    m: &Mover,
    standing: &[Option<Rect>],
    blocks: impl Fn(usize) -> bool,
) -> Option<(f64, usize)> {
    let start = m.rect(m.track.start);
    let end = m.pose(m.limit).at;
    let r = 0.5 * (m.size.0 * m.size.0 + m.size.1 * m.size.1).sqrt();
    let near: Vec<(usize, Rect)> = standing
        .iter()
        .enumerate()
        .filter_map(|(j, f)| f.map(|f| (j, f)))
        .filter(|(j, f)| {
            blocks(*j)
                && !f.overlaps(&start)
                && tabletop::geometry::point_segment_distance(f.centre, start.centre, end)
                    <= r + f.half_diagonal() + 0.1
        })
        .collect();
    if near.is_empty() {
        return None;
    }
    let steps = (m.limit / PROBE).ceil().max(1.0) as usize;
    for k in 1..=steps {
        let p = (k as f64 * PROBE).min(m.limit);
        let rect = m.rect(m.pose(p));
        if let Some((j, _)) = near.iter().find(|(_, f)| rect.overlaps(f)) {
            return Some((p, *j));
        }
    }
    None
}

/// A way for `u` (where it stands now) round `f` to where mover `m`'s way was going, with
/// `allowance` inches, on the side that needs the shorter step aside (the other if that one
/// is blocked too), clear of every friend standing; `turns` are the turns it begins with.
#[allow(clippy::too_many_arguments)]
pub(super) fn around(
    cx: &mut Cx,
    u: &Unit,
    m: &Mover,
    turns: &[Seg],
    allowance: f64,
    f: &Rect,
    standing: &[Option<Rect>],
    blocks: impl Fn(usize) -> bool + Copy,
) -> Option<Mover> {
    let goal = m.track.end().at;
    let a = u.at;
    let dir = (goal - a).normalized()?;
    let side = Vec2::new(dir.y, -dir.x); // to the right of the way
    let (w, d) = m.size;
    let corners = f.corners();
    let lat = corners.map(|c| (c - a).dot(side));
    let along = corners.map(|c| (c - a).dot(dir));
    let lo = lat.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = lat.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let near = along.iter().copied().fold(f64::INFINITY, f64::min);
    let far = along.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let right = hi + w / 2.0 + CLEAR;
    let left = lo - w / 2.0 - CLEAR;
    let mut sides = [right, left];
    if left.abs() < right.abs() {
        sides.swap(0, 1);
    }
    let face = Facing::from_vector(dir)?;
    let mut start = Track::new(Pose { at: a, facing: u.facing });
    start.segs.extend_from_slice(turns);
    let kept = start.end().facing;
    for offset in sides {
        let before = (near - d / 2.0 - CLEAR).max(0.0);
        let after = far + d / 2.0 + CLEAR;
        let w1 = a + dir * before + side * offset;
        let w2 = a + dir * after + side * offset;
        // Sidling round it with the front kept as it is first (a unit touching the friend
        // cannot swing round to face its way without striking it), then turned to the way.
        for legs_face in [kept, face] {
            let mut track = start.clone();
            track.line_to(w1, Some(legs_face));
            track.line_to(w2, Some(legs_face));
            if goal.distance(w2) > EPS && (goal - w2).dot(dir) > 0.0 {
                track.line_to(goal, Some(face));
            }
            let r = cx.reach(u, &track, allowance);
            if r.limit <= EPS || r.blocked_at.is_some() {
                continue;
            }
            let mut new = Mover::new(u, cx.data, m.kind, track, r);
            new.allow = m.allow;
            new.share = m.share;
            new.leaves = m.leaves;
            if clear(&new, standing, blocks) && on_table(cx, &new) {
                return Some(new);
            }
        }
    }
    None
}

/// The turns a way begins with.
pub(super) fn first_turns(m: &Mover) -> Vec<Seg> {
    m.track.segs.iter().take_while(|s| matches!(s, Seg::Turn { .. })).copied().collect()
}

/// Whether a way runs into no friend that stands.
fn clear(m: &Mover, standing: &[Option<Rect>], blocks: impl Fn(usize) -> bool) -> bool {
    first_block(m, standing, blocks).is_none()
}

/// Whether a way stays on the table (unless it may leave).
fn on_table(cx: &Cx, m: &Mover) -> bool {
    if m.leaves {
        return true;
    }
    let steps = (m.limit / 1.0).ceil().max(1.0) as usize;
    (0..=steps).all(|k| {
        let p = (k as f64).min(m.limit);
        cx.state.table.contains_rect(&m.rect(m.pose(p)))
    })
}
