//! Contact after a charge: the charger lines its front up against the face of the enemy it
//! struck, so that the figures whose front is in contact fight (WRG-MELEE-01, WRG-MOVE-04).

use crate::Data;
use crate::state::State;
use tabletop::geometry::{Facing, Point};

/// How far apart the charger's front and the struck face are left, inches (well inside the
/// hand-to-hand contact distance).
const GAP: f64 = 0.01;

/// The charger `charger` lines up against `target`: it faces the face of the target nearest
/// its standard (front, rear or a flank), squarely, its front edge against it, sliding along
/// the face no farther than needed to keep its centre within the face's length.
pub fn line_up(data: &Data, state: &mut State, charger: u16, target: u16) {
    line_up_within(data, state, charger, target, f64::INFINITY);
}

/// As [`line_up`], when its standard need move no more than `most` inches (what is left of
/// the charge's allowance); otherwise it stays as it struck. Returns how far it moved.
pub fn line_up_within(data: &Data, state: &mut State, charger: u16, target: u16, most: f64) -> f64 {
    let Some((at, facing)) = lined_up(data, state, charger, target) else { return 0.0 };
    let u = &state.units[charger as usize];
    let shift = u.at.distance(at);
    if shift > most + 1e-9 {
        return 0.0;
    }
    // Not into other units: then it stays as it struck.
    let rect = u.block.footprint(data, u.troop, at, facing);
    let crowded = state.units.iter().any(|o| {
        o.id != charger
            && o.id != target
            && o.on_table()
            && o.block.footprint(data, o.troop, o.at, o.facing).overlaps(&rect)
    });
    if crowded {
        return 0.0;
    }
    let u = &mut state.units[charger as usize];
    u.at = at;
    u.facing = facing;
    shift
}

/// Where and facing which way the charger stands lined up against the target.
fn lined_up(data: &Data, state: &State, charger: u16, target: u16) -> Option<(Point, Facing)> {
    let (Some(c), Some(t)) = (state.units.get(charger as usize), state.units.get(target as usize))
    else {
        return None;
    };
    if !c.on_table() || !t.on_table() {
        return None;
    }
    let tr = t.block.footprint(data, t.troop, t.at, t.facing);
    let (_, depth) = c.block.size(data, c.troop);
    let local = tr.to_local(c.at);
    let (hw, hd) = (tr.width / 2.0, tr.depth / 2.0);
    let f = t.facing.vector();
    let r = t.facing.right();
    // The face nearest the charger, in the target's own proportions.
    let (normal, tangent, half) = if local.y.abs() / hd.max(1e-9) >= local.x.abs() / hw.max(1e-9) {
        (if local.y >= 0.0 { f } else { -f }, r, hw)
    } else {
        (if local.x >= 0.0 { r } else { -r }, f, hd)
    };
    let extent = if normal == f || normal == -f { hd } else { hw };
    let face_centre = tr.centre + normal * extent;
    let slide = (c.at - face_centre).dot(tangent).clamp(-half, half);
    let at: Point = face_centre + tangent * slide + normal * (depth / 2.0 + GAP);
    let facing = Facing::from_vector(-normal)?;
    Some((at, facing))
}
