//! What each viewer sees: every unit with its figures in their places, roles and states, the
//! guns, the declared orders and liberal movers (public: LIB-LIBERAL-02, LIB-M-23), the points;
//! before the reveal, a side sees only its own secret plan (LIB-START-04). Also the drawing.

use crate::Liberal;
use crate::state::{
    Flag, Formation, Leg, Mover, Objective, Order, Phase, Placement, Role, State, Status, Unit,
    UnitId,
};
use serde::Serialize;
use std::f64::consts::FRAC_PI_4;
use tabletop::geometry::{Facing, Rect};
use tabletop::render::{Mark, Piece, Scene};
use tabletop::rules::{Side, Viewer};

/// One figure as seen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FigureView {
    /// His role.
    pub role: Role,
    /// His state.
    pub status: Status,
    /// Where he stands, when in the ranks.
    pub at: Option<[f64; 2]>,
}

/// A gun as seen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GunView {
    /// Horse or foot gun now.
    pub kind: String,
    /// Spiked.
    pub spiked: bool,
    /// Destroyed.
    pub destroyed: bool,
    /// Artillerymen in its crew.
    pub artillerymen: usize,
}

/// One unit as seen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnitView {
    /// Its ID.
    pub id: UnitId,
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: Side,
    /// Its troop type.
    pub troop: String,
    /// Its formation.
    pub formation: Formation,
    /// Its front centre `[x, y]`.
    pub at: [f64; 2],
    /// Its facing, a compass bearing.
    pub facing: f64,
    /// On horseback.
    pub mounted: bool,
    /// Figures in the ranks.
    pub strength: usize,
    /// Every figure.
    pub figures: Vec<FigureView>,
    /// The colours.
    pub flag: Flag,
    /// The gun.
    pub gun: Option<GunView>,
    /// The house it holds.
    pub house: Option<String>,
}

/// A viewer's view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// The scenario.
    pub scenario: String,
    /// `[game turn, day, days]`.
    pub turn: [u32; 3],
    /// What is going on.
    pub phase: String,
    /// The acting side, in a turn.
    pub acting: Option<Side>,
    /// The units.
    pub units: Vec<UnitView>,
    /// The viewer's own secret plan, before the reveal.
    pub own_plan: Option<Vec<Placement>>,
    /// The declared orders of the turn.
    pub orders: Vec<Order>,
    /// The liberal movers.
    pub movers: Vec<Mover>,
    /// Red's and blue's points (LIB-M-17).
    pub points: [u32; 2],
    /// How the battle ended.
    pub outcome: Option<tabletop::Outcome>,
}

/// A viewer's view of the state.
pub fn view(r: &Liberal, st: &State, viewer: Viewer) -> View {
    let (orders, movers, acting) = match &st.phase {
        Phase::Turn { orders, movers, side, .. } => (orders.clone(), movers.clone(), Some(*side)),
        _ => (Vec::new(), Vec::new(), None),
    };
    let own_plan = match (&st.phase, viewer) {
        (Phase::Deploy { plans }, Viewer::Side(s)) => plans[s.index()].clone(),
        _ => None,
    };
    let phase = match &st.phase {
        Phase::Edge { side } => format!("{side} chooses an edge"),
        Phase::Deploy { .. } => "secret deployment".into(),
        Phase::Turn { side, .. } => format!("{side}'s turn"),
        Phase::Over => "over".into(),
    };
    View {
        scenario: st.scenario.clone(),
        turn: [st.game_turn, st.day, st.days],
        phase,
        acting,
        units: st
            .units
            .iter()
            .filter(|u| u.present() || !u.figures.is_empty())
            .map(|u| unit_view(r, st, u))
            .collect(),
        own_plan,
        orders,
        movers,
        points: crate::turn::points(r, st),
        outcome: st.outcome.clone(),
    }
}

fn unit_view(r: &Liberal, st: &State, u: &Unit) -> UnitView {
    let pos = r.positions(u);
    UnitView {
        id: u.id,
        name: u.name.clone(),
        side: u.side,
        troop: match &u.gun {
            Some(g) => r.data.guns[r.gun_kind(g)].id.clone(),
            None => r.data.troops[u.troop].id.clone(),
        },
        formation: u.place.formation,
        at: [u.place.at.x, u.place.at.y],
        facing: u.place.facing.bearing_degrees(),
        mounted: u.mounted,
        strength: u.strength(),
        figures: u
            .figures
            .iter()
            .enumerate()
            .map(|(i, f)| FigureView {
                role: f.role,
                status: f.status,
                at: pos.iter().find(|p| p.0 == i).map(|p| [p.1.x, p.1.y]),
            })
            .collect(),
        flag: u.flag,
        gun: u.gun.as_ref().map(|g| GunView {
            kind: r.data.guns[r.gun_kind(g)].name.clone(),
            spiked: g.spiked,
            destroyed: g.destroyed,
            artillerymen: r.artillerymen(u),
        }),
        house: u.house.map(|h| st.table.areas[h].name.clone()),
    }
}

/// The table drawn for a viewer: each unit's outline with its figures in their ranks (the
/// commander drawn largest, the second officer larger, the colour bearer as a diamond), the gun
/// model with its crew behind it, the wounded lying where they fell, and the liberal movers'
/// stated objectives (public: LIB-LIBERAL-02). Before the reveal a side sees its own units
/// where its committed plan puts them, and the enemy only where the scenario has it: never the
/// enemy's plan (LIB-START-04).
pub fn scene(r: &Liberal, st: &State, viewer: Viewer) -> Scene {
    let mut s = Scene::new(
        format!("{} — game turn {}, day {} of {}", st.scenario, st.game_turn, st.day, st.days),
        (*st.table).clone(),
    );
    let plan: Vec<Placement> = match (&st.phase, viewer) {
        (Phase::Deploy { plans }, Viewer::Side(side)) => {
            plans[side.index()].clone().unwrap_or_default()
        }
        _ => Vec::new(),
    };
    for u in st.units.iter().filter(|u| u.present()) {
        let planned = plan.iter().find(|p| p.unit == u.id);
        let mut shown;
        let u = match planned {
            Some(p) => {
                shown = u.clone();
                shown.place = p.place;
                &shown
            }
            None => u,
        };
        let mut stands: Vec<Rect> = Vec::new();
        let fw = r.frontage(u) * 0.8;
        for (i, p) in r.positions(u) {
            let (size, facing) = match u.figures[i].role {
                Role::Commander => (fw * 1.6, u.place.facing),
                Role::Second => (fw * 1.3, u.place.facing),
                Role::Colours if u.flag == Flag::Carried => {
                    (fw * 1.2, u.place.facing.rotated(tabletop::geometry::rotation(FRAC_PI_4)))
                }
                _ => (fw, u.place.facing),
            };
            stands.push(Rect::new(p, facing, size, size));
        }
        if let Some(g) = r.gun_rect(u) {
            stands.push(g);
        }
        let form = match &u.gun {
            Some(g) if g.spiked => "spiked".to_string(),
            Some(g) if g.destroyed => "destroyed".to_string(),
            Some(_) if u.strength() < r.data.rules.artillery.crew_needed => "unmanned".to_string(),
            Some(_) => "battery".to_string(),
            None if r.data.troops[u.troop].kind == crate::data::Kind::Horse && !u.mounted => {
                format!("{} dismounted", u.place.formation.name())
            }
            None => u.place.formation.name().to_string(),
        };
        let flag = match u.flag {
            Flag::Carried => ", colours",
            Flag::Lost => ", colours lost",
            Flag::Retired => ", colours retired",
            Flag::None => "",
        };
        let note = if planned.is_some() { ", planned" } else { "" };
        s.pieces.push(Piece {
            id: Some(u.id.to_string()),
            outline: r.footprint(u),
            stands,
            side: Some(u.side),
            label: u.name.clone(),
            detail: format!("{}/{} {form}{flag}{note}", u.strength(), u.figures.len()),
        });
    }
    for u in &st.units {
        for f in &u.figures {
            if let Status::Wounded { at } = f.status {
                s.pieces.push(Piece {
                    id: None,
                    outline: Rect::new(at, Facing::NORTH, 0.4, 0.4),
                    stands: Vec::new(),
                    side: None,
                    label: "+".into(),
                    detail: String::new(),
                });
            }
        }
    }
    if let Phase::Turn { movers, .. } = &st.phase {
        for m in movers.iter().filter(|m| m.leg != Leg::Done) {
            let u = &st.units[m.unit];
            let (goal, what) = match m.objective {
                Objective::Point { at } => (at, "the point".to_string()),
                Objective::Unit { unit } => {
                    (r.footprint(&st.units[unit]).centre, st.units[unit].name.clone())
                }
            };
            let (points, label) = match m.leg {
                Leg::Back => (
                    vec![u.place.at, m.start.at],
                    format!("{}: going back ({} steps out)", u.name, m.steps),
                ),
                _ => (
                    vec![m.start.at, u.place.at, goal],
                    format!(
                        "{}: liberal move to {what}, {} step{}",
                        u.name,
                        m.steps,
                        if m.steps == 1 { "" } else { "s" }
                    ),
                ),
            };
            s.marks.push(Mark { points, label });
        }
    }
    // The last exchange's count walking along the formation: each figure reached, its number
    // in the count, the die and what befell him (LIB-CAS-03/04).
    for (_, at, number, die, fate) in &st.last_hits {
        let fate = match fate {
            crate::data::Fate::Runs => "runs",
            crate::data::Fate::WalkingWounded => "walking wounded",
            crate::data::Fate::Dead | crate::data::Fate::DeadFlagLost => "dead",
            crate::data::Fate::Wounded | crate::data::Fate::WoundedFlagLost => "wounded",
            _ => "captured",
        };
        let tick = tabletop::geometry::Vec2::new(0.3, 0.3);
        s.marks.push(Mark {
            points: vec![*at, *at + tick],
            label: format!("#{number} ({die}): {fate}"),
        });
    }
    // Runners stand one move behind their formation until their side's next turn (LIB-CAS-07).
    for u in st.units.iter().filter(|u| u.present()) {
        let ran = u.figures.iter().filter(|f| f.status == Status::Ran).count();
        if ran > 0 {
            let back = r.rate(st, u, u.place.formation, false);
            let at = r.footprint(u).centre - u.place.facing.vector() * back;
            let tick = tabletop::geometry::Vec2::new(0.3, 0.0);
            s.marks.push(Mark {
                points: vec![at, at + tick],
                label: format!("{}: {ran} ran", u.name),
            });
        }
    }
    s
}
