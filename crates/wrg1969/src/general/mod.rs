//! The scripted general's mind: how he reads the table and what he does with it. [`crate::bot`]
//! offers him as the `scripted` player.
//!
//! He reads only what his side may know: its view of the state (its own orders, never the
//! enemy's), the table and objectives both players see, and the army lists (each unit's type,
//! class and starting figures). Every command he proposes is one the rule set accepts: each
//! piece of a plan is tried with [`tabletop::rules::RuleSet::check`] and dropped if refused.
//! He draws nothing from his generator and keeps nothing between choices: he is deterministic.
//!
//! # The battle plan, written before the first period ([`write`])
//!
//! He reads the field along the axis from his army's middle to the enemy's, and across it in
//! lanes.
//!
//! - Each terrain objective not deep among the enemy goes to the nearest close-order foot that
//!   sees it, to hold it (never more than a third of the line).
//! - With five or more units fit for the battle line he keeps the foot unit farthest back
//!   (nearest the middle on a tie) as his reserve: it marches behind the middle of the line.
//! - The rest of the line (close-order foot, elephants, and horse on the wings) is matched to
//!   the enemy opposite, lane by lane, so that no two attacks cross; foot are not sent after
//!   horse or skirmishers they cannot catch, horse prefer horse and light troops.
//! - Light troops with missiles skirmish against the enemy opposite them: a screen in front.
//! - Close-order foot archers (and slingers) march behind the line to shoot over it
//!   (WRG-FIRE-10, -13; the Appendix: "firing over the heads of the legionaries from behind");
//!   they are never told to attack.
//! - Engines hold and shoot.
//!
//! # Each period ([`period`])
//!
//! - A unit whose order is done, or whose enemy has broken or gone, is given a new enemy it can
//!   reach without crossing a friend, in its lane first and on a friend's fight (its flank if it
//!   can) before a fresh one: at once if it awaits an order after its test (WRG-RRES-05),
//!   otherwise by messenger while messengers are free (WRG-CHORD-01, -02).
//! - The reserve is committed when a friend breaks, an enemy comes near it, or the lines are
//!   locked in hand-to-hand: against the enemy fighting a friend nearest it, or the nearest one.
//! - Archers and the reserve are moved each period in the plan, within their order: the
//!   archers a little behind the friend they support, the reserve behind the middle of the line.
//! - A unit whose way to its enemy a friend bars steps round the friend when its move allows,
//!   or halts to let a moving friend pass.
//! - A unit breaks off a fight it cannot win, or in which no figure of either side strikes,
//!   when its run will outdistance the enemy's charge (WRG-BRK-01 .. -03).
//! - Units about to charge are roused (every ± sign plus, WRG-R-17): the worst they risk is an
//!   uncontrolled advance into the enemy they were sent against; the others keep the steady
//!   choice.
//! - Units without an order take an optional test when it is likely to set them going.
//! - A pre-arranged signal is given only when it reaches several units without a task and no
//!   unit busy with an order of its own, and sends them to a feature his side does not hold.
//! - He forms no squares (WRG-RFAC-29, WRG-M-08): here a square only adds ±2 to tests and
//!   halves the pace, and forming or leaving it takes a written order carried by messenger, so
//!   foot in square would come too late to the fight and reach it slowly.
//! - The General rides to rally routers within his ride; otherwise he rides with the reserve
//!   (joining it, so it is committed at once when needed) or stands behind the middle of the
//!   fighting, never within reach of an enemy charge.

pub mod period;
pub mod write;

use crate::Data;
use crate::orders::{Objective, Verb};
use crate::state::{State, UnitView};
use crate::unit::Block;
use tabletop::geometry::{Facing, Point, Rect, Vec2};
use tabletop::rules::Side;

/// What a unit is for, as the general sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// An engine: it holds and shoots.
    Engine,
    /// Close-order foot with bows or slings: behind the line, shooting over it.
    Shooter,
    /// Light troops with missiles: the skirmishing screen.
    Screen,
    /// Mounted troops (not light skirmishers): the wings.
    Horse,
    /// Close-order foot and elephants: the battle line.
    Line,
}

/// A unit's role from its type and weapons.
pub fn role(data: &Data, u: &UnitView) -> Role {
    let t = u.troop;
    if t.is_engine() {
        Role::Engine
    } else if t.is_light() && u.missile.is_some() {
        Role::Screen
    } else if t.is_infantry()
        && !t.is_light()
        && u.missile.is_some_and(|w| data.weapon(w).range >= 12.0)
    {
        Role::Shooter
    } else if t.is_mounted() {
        Role::Horse
    } else {
        Role::Line
    }
}

/// Whether a unit is the reserve: battle-line troops marching on a bearing, which the general
/// gives only his reserve.
pub fn is_reserve(data: &Data, u: &UnitView) -> bool {
    matches!(role(data, u), Role::Line | Role::Horse)
        && matches!(
            u.order.as_ref().map(|o| &o.verb),
            Some(Verb::Advance { to: Objective::Bearing { .. } })
        )
}

/// The general's reading of the table for one choice.
pub struct Picture<'a> {
    /// The tables.
    pub data: &'a Data,
    /// His side.
    pub side: Side,
    /// Every unit as his side sees it, by id.
    pub units: &'a [UnitView],
    /// Each unit's footprint, by id.
    pub rects: Vec<Rect>,
    /// His units on the table, not routing (ids).
    pub own: Vec<u16>,
    /// Enemy units on the table, not routing (ids).
    pub foes: Vec<u16>,
    /// The middle of his army.
    pub origin: Point,
    /// The unit vector from his army's middle toward the enemy's.
    pub axis: Vec2,
    /// The unit vector to his right, looking along the axis.
    pub right: Vec2,
    /// How far the enemy's middle stands along the axis.
    pub depth: f64,
}

fn middle(v: impl Iterator<Item = Point>) -> Option<Point> {
    let (mut x, mut y, mut n) = (0.0, 0.0, 0.0);
    for p in v {
        x += p.x;
        y += p.y;
        n += 1.0;
    }
    (n > 0.0).then(|| Point::new(x / n, y / n))
}

impl<'a> Picture<'a> {
    /// Reads the view (the units his side sees).
    pub fn new(data: &'a Data, side: Side, units: &'a [UnitView]) -> Picture<'a> {
        let rects = units
            .iter()
            .map(|u| {
                Block::new(u.figures, u.files).footprint(
                    data,
                    u.troop,
                    u.at,
                    Facing::from_bearing_degrees(u.facing),
                )
            })
            .collect();
        let live = |u: &&UnitView| u.figures > 0 && !u.away && !u.routing;
        let own: Vec<u16> =
            units.iter().filter(|u| u.side == side).filter(live).map(|u| u.id).collect();
        let foes: Vec<u16> =
            units.iter().filter(|u| u.side != side).filter(live).map(|u| u.id).collect();
        let origin = middle(own.iter().map(|&i| units[i as usize].at))
            .or_else(|| middle(units.iter().filter(|u| u.side == side).map(|u| u.at)))
            .unwrap_or(Point::new(0.0, 0.0));
        let enemy = middle(foes.iter().map(|&i| units[i as usize].at));
        // Without an enemy in sight, the way the army faces.
        let facing = units.iter().find(|u| u.side == side).map_or(0.0, |u| u.facing);
        let axis = enemy
            .and_then(|e| (e - origin).normalized())
            .unwrap_or_else(|| Facing::from_bearing_degrees(facing).vector());
        let depth = enemy.map_or(24.0, |e| (e - origin).dot(axis));
        Picture {
            data,
            side,
            units,
            rects,
            own,
            foes,
            origin,
            axis,
            right: Facing::from_vector(axis).map_or(Vec2::new(1.0, 0.0), |f| f.right()),
            depth,
        }
    }

    /// A unit by id.
    pub fn unit(&self, id: u16) -> &'a UnitView {
        &self.units[id as usize]
    }

    /// How far across the field a point lies (positive to the right).
    pub fn lat(&self, p: Point) -> f64 {
        (p - self.origin).dot(self.right)
    }

    /// How far along the axis toward the enemy a point lies.
    pub fn fwd(&self, p: Point) -> f64 {
        (p - self.origin).dot(self.axis)
    }

    /// A unit's role.
    pub fn role(&self, id: u16) -> Role {
        role(self.data, self.unit(id))
    }

    /// A unit's normal move and charge distance.
    pub fn speeds(&self, id: u16) -> (f64, f64) {
        let m = self.data.moves(self.unit(id).troop);
        (m.normal, m.charge.unwrap_or(m.normal))
    }

    /// Whether the straight way from `a` to `b`, as wide as `width`, runs through a friend's
    /// footprint (other than `skip`): the nearest such friend.
    pub fn friend_across(&self, a: Point, b: Point, width: f64, skip: &[u16]) -> Option<u16> {
        let d = b - a;
        let len = d.length();
        let face = Facing::from_vector(d)?;
        if len < 0.5 {
            return None;
        }
        let lane = Rect::new(a + d * 0.5, face, width.max(0.5), len);
        self.own
            .iter()
            .copied()
            .filter(|f| !skip.contains(f))
            .filter(|&f| self.rects[f as usize].overlaps(&lane))
            .min_by(|x, y| {
                let dx = (self.unit(*x).at - a).dot(face.vector());
                let dy = (self.unit(*y).at - a).dot(face.vector());
                dx.total_cmp(&dy).then(x.cmp(y))
            })
    }

    /// The gap between two units' footprints.
    pub fn gap(&self, a: u16, b: u16) -> f64 {
        self.rects[a as usize].distance(&self.rects[b as usize])
    }
}

/// The units of the state in hand-to-hand, as pairs (public: where the units stand).
pub fn fights(data: &Data, st: &State) -> Vec<(u16, u16)> {
    crate::melee_phase::contacts(data, st)
}

/// What a foe costs a unit to take on, in inches added to the way: foot do not chase what
/// outruns them, horse are loth to meet formed foot head on.
pub fn mismatch(own: &UnitView, foe: &UnitView) -> f64 {
    let (o, e) = (own.troop, foe.troop);
    let skirmisher = e.is_light() && foe.missile.is_some();
    if o.is_mounted() {
        if e.is_mounted() || e.is_light() {
            0.0
        } else if e.is_infantry() {
            10.0
        } else {
            4.0
        }
    } else if e.is_mounted() {
        if e.is_light() || e == crate::model::TroopType::Chariot { 30.0 } else { 12.0 }
    } else if skirmisher || e.is_light() {
        12.0
    } else {
        0.0
    }
}
