//! What each viewer sees: the table with every landed step (a side also sees its own step under
//! way, never the enemy's: FMT-R-08), the clock, the melees and squares, the roster sheet with
//! points and kills per stand, the drawing, and the menus a player may use now.

use crate::Freemove;
use crate::geom::{bearing, fmt_in};
use crate::state::{Morale, Phase, State};
use serde::Serialize;
use serde_json::json;
use tabletop::controls::{Action, Controls, Drag, RosterRow, UnitControl};
use tabletop::render::{Piece, Scene};
use tabletop::rules::{Side, Viewer};

/// One stand as seen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StandView {
    /// Its ID.
    pub id: usize,
    /// Its flag number.
    pub number: u32,
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: Side,
    /// Its type.
    pub kind: String,
    /// Centre `[x, y]`.
    pub at: [f64; 2],
    /// Facing, a compass bearing.
    pub facing: f64,
    /// Points now.
    pub points: u32,
    /// Kills recorded.
    pub kills: u32,
    /// Morale.
    pub morale: Morale,
    /// Frozen in melee contact.
    pub frozen: bool,
    /// Called for a Fire and Charge (public, FMT-R-22).
    pub fire_and_charge: bool,
    /// Its square.
    pub square: Option<u32>,
}

/// The clock as seen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClockView {
    /// The window's length.
    pub length_ms: u64,
    /// The game's time now.
    pub now_ms: u64,
    /// When the viewer's hands are free (sides only).
    pub free_ms: Option<u64>,
    /// Whether the viewer has finished.
    pub done: Option<bool>,
    /// The viewer's own step under way, in words.
    pub under_way: Option<String>,
}

/// A viewer's view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// The scenario.
    pub scenario: String,
    /// `[game move, last game move]`.
    pub turn: [u32; 2],
    /// The phase's name.
    pub phase: String,
    /// The clock, in the timed move.
    pub clock: Option<ClockView>,
    /// The stands on the table.
    pub stands: Vec<StandView>,
    /// Melees going on into round 2: (id, members, round 1's winner).
    pub melees: Vec<(u32, Vec<usize>, Side)>,
    /// Squares: (id, side, stands).
    pub squares: Vec<(u32, Side, Vec<usize>)>,
    /// Each side's points now and at the start.
    pub points: [(u32, u32); 2],
    /// How the battle ended.
    pub outcome: Option<tabletop::Outcome>,
}

fn phase_name(p: &Phase) -> &'static str {
    match p {
        Phase::Deploy { .. } => "deployment",
        Phase::Ready { .. } => "ready",
        Phase::Window { .. } => "timed move",
        Phase::Rearrange { .. } => "rearrangement",
        Phase::Fire { .. } => "missile fire",
        Phase::PullOut { .. } => "pull-outs",
        Phase::Bonus { .. } => "bonus moves",
        Phase::Over => "over",
    }
}

/// The view of `viewer`.
pub fn view(rules: &Freemove, st: &State, viewer: Viewer) -> View {
    let stands = st
        .stands
        .iter()
        .filter(|s| s.on_table && seen(st, viewer, s))
        .map(|s| StandView {
            id: s.id,
            number: s.number,
            name: s.name.clone(),
            side: s.side,
            kind: rules.troop(s).name.clone(),
            at: [s.rect.centre.x, s.rect.centre.y],
            facing: bearing(s.rect.facing),
            points: rules.points(s),
            kills: s.kills,
            morale: s.morale,
            frozen: s.frozen,
            fire_and_charge: s.fire_and_charge,
            square: s.square,
        })
        .collect();
    let clock = st.clock().map(|c| {
        let own = match viewer {
            Viewer::Side(s) => Some(&c.hands[s.index()]),
            _ => None,
        };
        ClockView {
            length_ms: c.length_ms,
            now_ms: c.now_ms,
            free_ms: own.map(|h| h.free_ms),
            done: own.map(|h| h.done),
            under_way: own
                .and_then(|h| h.flight.as_ref())
                .map(|f| crate::clock::order_text(st, &f.order)),
        }
    });
    let pts = |side: Side| {
        (st.stands_of(side).map(|s| rules.points(s)).sum(), st.side(side).start_points)
    };
    View {
        scenario: st.scenario.clone(),
        turn: [st.game_move, st.game_moves],
        phase: phase_name(&st.phase).into(),
        clock,
        stands,
        melees: st.melees.iter().map(|m| (m.id, m.members.clone(), m.winner)).collect(),
        squares: st.squares.iter().map(|q| (q.id, q.side, q.stands.clone())).collect(),
        points: [pts(Side::Red), pts(Side::Blue)],
        outcome: st.outcome.clone(),
    }
}

/// Whether `viewer` sees the stand: during a hidden deployment a side sees only its own.
fn seen(st: &State, viewer: Viewer, s: &crate::state::Stand) -> bool {
    match (viewer, &st.phase) {
        (Viewer::Side(side), Phase::Deploy { .. }) => s.side == side,
        (Viewer::Spectator, Phase::Deploy { .. }) => false,
        _ => true,
    }
}

/// The drawing of the table as `viewer` sees it.
pub fn scene(rules: &Freemove, st: &State, viewer: Viewer) -> Scene {
    let mut s = Scene::new(
        format!("{} — game move {} of {}", st.scenario, st.game_move, st.game_moves),
        (*st.table).clone(),
    );
    for x in st.stands.iter().filter(|x| x.on_table && seen(st, viewer, x)) {
        let mut detail = format!("{} pts", rules.points(x));
        if x.frozen {
            detail.push_str(", frozen");
        }
        match x.morale {
            Morale::Steady => {}
            Morale::Broken { .. } => detail.push_str(", shaken"),
            Morale::Wavering { .. } => detail.push_str(", wavering"),
        }
        s.pieces.push(Piece {
            id: Some(x.id.to_string()),
            outline: x.rect,
            stands: vec![x.rect],
            side: Some(x.side),
            label: format!("{} {}", rules.troop(x).abbrev, x.number),
            detail,
        });
    }
    if let Some(g) = st.grid {
        s.grid = Some(tabletop::render::GridLayer {
            cols: (st.table.width / g).round() as u32,
            rows: (st.table.height / g).round() as u32,
            cell: g,
            cells: Vec::new(),
            coordinates: true,
        });
    }
    s
}

/// The roster sheet: every stand's points and kills (FMT-ROS-06).
pub fn roster(rules: &Freemove, st: &State, _viewer: Viewer) -> Vec<RosterRow> {
    st.stands
        .iter()
        .map(|s| {
            let t = rules.troop(s);
            let losses: Vec<String> =
                s.history.iter().map(|(gm, k, r)| format!("{k} in move {gm} [{r}]")).collect();
            RosterRow {
                side: s.side.to_string(),
                unit: s.id.to_string(),
                label: format!("{} ({})", s.name, s.number),
                kind: t.name.clone(),
                strength: format!("{} of {} points", rules.points(s), t.points),
                losses: if losses.is_empty() {
                    "none".into()
                } else {
                    format!("{} kills: {}", s.kills, losses.join(", "))
                },
                state: if !s.on_table {
                    "removed".into()
                } else {
                    let mut v = vec![match s.morale {
                        Morale::Steady => "steady".to_string(),
                        Morale::Broken { roll_from } => {
                            format!("shaken (rolls in move {roll_from})")
                        }
                        Morale::Wavering { .. } => "wavering".to_string(),
                    }];
                    if s.frozen {
                        v.push("frozen in melee".into());
                    }
                    if let Some(q) = s.square {
                        v.push(format!("in square {q}"));
                    }
                    if s.fire_and_charge {
                        v.push("Fire and Charge called".into());
                    }
                    v.join(", ")
                },
            }
        })
        .collect()
}

/// The menus of `side` now.
pub fn controls(rules: &Freemove, st: &State, side: Side) -> Controls {
    use tabletop::RuleSet;
    let pending = rules.pending(st);
    let mut c = Controls { prompt: pending.what().to_string(), ..Controls::default() };
    if !pending.sides().contains(&side) {
        return c;
    }
    match &st.phase {
        Phase::Deploy { .. } => {
            c.actions.push(Action::send(
                "Deploy as the scenario placed them",
                &["FMT-NIS-01"],
                json!({"kind": "deploy", "placements": []}),
            ));
        }
        Phase::Ready { .. } => {
            c.actions.push(Action::send("Ready", &["FMT-TIME-01"], json!({"kind": "ready"})));
        }
        Phase::Window { .. } => {
            let at = rules.free_at(st, side).unwrap_or(0);
            for s in st.stands_of(side) {
                if rules.may_move(st, s).is_err() {
                    continue;
                }
                let (a, text) = rules.allowance(st, s, crate::geom::Gait::Single, false);
                let mut actions = Vec::new();
                if rules.troop(s).fire_and_charge && !s.fire_and_charge {
                    actions.push(Action::send(
                        "Call a Fire and Charge",
                        &["FMT-FC-02"],
                        json!({"kind": "fire_and_charge", "at_ms": at, "stand": s.id}),
                    ));
                }
                // A file behind it makes it a column's head (FMT-R-34): march the column.
                let file = file_behind(rules, st, s);
                if file.len() >= 2 && s.square.is_none() {
                    let len = rules.troop(s).column;
                    for (label, share) in
                        [("March the column", 1.0), ("March the column half a move", 0.5)]
                    {
                        let to = s.rect.centre + s.rect.facing.vector() * (len * share);
                        let cmd =
                            crate::state::Command::Column { at_ms: at, stands: file.clone(), to };
                        if rules.check(st, tabletop::Actor::Side(side), &cmd).is_ok()
                            && let Ok(json) = serde_json::to_value(&cmd)
                        {
                            actions.push(Action::send(
                                format!(
                                    "{label} of {} {}\" ahead",
                                    file.len(),
                                    fmt_in(len * share)
                                ),
                                &["FMT-TIME-08", "FMT-R-34"],
                                json,
                            ));
                        }
                    }
                }
                // A square's first stand carries the square's moves (FMT-SQ-05).
                if let Some(q) = s.square.and_then(|q| st.square(q))
                    && q.stands.first() == Some(&s.id)
                {
                    let half = rules.allowance_len(st, s, crate::geom::Gait::Square, false);
                    for (label, dir) in
                        [("Move the square ahead", 1.0), ("Move the square back", -1.0)]
                    {
                        let by = s.rect.facing.vector() * (half * dir);
                        let cmd = crate::state::Command::MoveSquare { at_ms: at, square: q.id, by };
                        if rules.check(st, tabletop::Actor::Side(side), &cmd).is_ok()
                            && let Ok(json) = serde_json::to_value(&cmd)
                        {
                            actions.push(Action::send(
                                format!("{label} {}\"", fmt_in(half)),
                                &["FMT-SQ-05", "FMT-SQ-07"],
                                json,
                            ));
                        }
                    }
                }
                c.units.push(UnitControl {
                    unit: s.id.to_string(),
                    label: s.name.clone(),
                    allowance: Some(a),
                    allowance_text: format!("{}\" a step ({text}; FMT-TIME-07)", fmt_in(a)),
                    drag: Drag::Free,
                    actions,
                });
            }
            c.actions.push(Action::send(
                "Watch for 2 seconds",
                &["FMT-TIME-14"],
                json!({"kind": "wait", "at_ms": at, "until_ms": at + 2000}),
            ));
            c.actions.push(Action::send(
                "Done for this timed move",
                &["FMT-TIME-06"],
                json!({"kind": "done", "at_ms": at}),
            ));
            c.actions.push(Action::send(
                "Call \"Time!\"",
                &["FMT-TIME-16"],
                json!({"kind": "call_time", "at_ms": at}),
            ));
        }
        Phase::Rearrange { .. } => {
            c.actions.push(Action::send(
                "No rearrangement",
                &["FMT-REARR-01"],
                json!({"kind": "rearrange", "moves": []}),
            ));
        }
        Phase::Fire { .. } => {
            let targets = crate::bot::auto_targets(rules, st, side);
            c.actions.push(Action::send(
                "Shoot at the nearest targets",
                &["FMT-R-35"],
                json!({"kind": "fire", "targets": targets}),
            ));
        }
        Phase::PullOut { melees, .. } => {
            c.actions.push(Action::send(
                "Stay in the melees",
                &["FMT-MELEE-22"],
                json!({"kind": "pull_out", "melees": []}),
            ));
            for m in melees {
                c.actions.push(Action::send(
                    format!("Pull out of melee {m}"),
                    &["FMT-MELEE-22", "FMT-MELEE-24"],
                    json!({"kind": "pull_out", "melees": [m]}),
                ));
            }
        }
        Phase::Bonus { .. } => {
            c.actions.push(Action::send(
                "Stay where they are",
                &["FMT-MELEE-14"],
                json!({"kind": "bonus", "moves": []}),
            ));
        }
        Phase::Over => {}
    }
    c
}

/// A dragged step measured: its length and cost over the ground against the allowance, and the
/// step command that dropping there sends (stamped with the moment the side's hands are free),
/// or the rule that forbids it.
pub fn measure(
    rules: &Freemove,
    st: &State,
    side: Side,
    req: &tabletop::controls::MeasureRequest,
) -> Option<tabletop::controls::Measurement> {
    use tabletop::RuleSet;
    use tabletop::controls::Measurement;
    let id: usize = req.unit.parse().ok()?;
    let s = st.live(id)?;
    if s.side != side {
        return None;
    }
    let facing = req.facing.unwrap_or(s.rect.facing);
    let end = rules.footprint(req.to, facing);
    let length = s.rect.centre.distance(req.to);
    let road = rules.on_road(&st.table, s.rect.centre, req.to);
    let (allowance, basis) = rules.allowance(st, s, crate::geom::Gait::Single, road);
    let mut m = Measurement {
        unit: req.unit.clone(),
        path: vec![s.rect.centre, req.to],
        length,
        cost: length,
        allowance,
        within: length.min(allowance),
        notes: vec![format!("{}\" a step: {basis} [FMT-TIME-07]", fmt_in(allowance))],
        action: None,
        rule: None,
        reason: None,
    };
    match rules.measure(st, s, &s.rect, &end, crate::geom::Gait::Single) {
        Ok(x) => {
            m.cost = x.cost;
            m.within = if x.cost <= 0.0 { length } else { length * (allowance / x.cost).min(1.0) };
            for i in &x.items {
                m.notes.push(format!(
                    "{}\" {} ×{} [{}]",
                    fmt_in(i.inches),
                    i.what,
                    fmt_in(i.factor),
                    i.rule
                ));
            }
        }
        Err(r) => {
            m.rule = Some(r.rule.to_string());
            m.reason = Some(r.reason);
        }
    }
    if m.rule.is_none() {
        let at = rules.free_at(st, side).unwrap_or(0);
        let command = crate::state::Command::Step {
            at_ms: at,
            stand: id,
            to: req.to,
            facing: Some(bearing(facing)),
        };
        match rules.check(st, tabletop::Actor::Side(side), &command) {
            Ok(()) => {
                let json = serde_json::to_value(&command).ok()?;
                m.action = Some(Action::send(
                    format!("Step {} {}\"", s.name, fmt_in(length)),
                    &["FMT-TIME-07"],
                    json,
                ));
            }
            Err(r) => {
                m.rule = Some(r.rule.to_string());
                m.reason = Some(r.reason);
            }
        }
    }
    Some(m)
}

/// The stand and the file of stands of its type standing nose to tail behind it, facing as it
/// does: a column with it at the head (FMT-R-34); just the stand if none stands behind.
pub fn file_behind(rules: &Freemove, st: &State, head: &crate::state::Stand) -> Vec<usize> {
    let mut file = vec![head.id];
    let mut last = head;
    while let Some(next) = st.stands_of(head.side).find(|o| {
        !file.contains(&o.id)
            && o.troop == head.troop
            && o.square.is_none()
            && o.rect.facing.angle_to(last.rect.facing).abs() < 1e-3
            && (last.rect.centre - last.rect.facing.vector() * last.rect.depth)
                .distance(o.rect.centre)
                <= rules.eps() + crate::geom::SLACK
    }) {
        file.push(next.id);
        last = next;
        if file.len() >= 64 {
            break;
        }
    }
    file
}
