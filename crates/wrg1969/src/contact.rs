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
/// the charge's allowance); otherwise it stays as it struck. Where the place squarely in
/// front of it is taken by other units, it slides along the face to the nearest place that is
/// free (still within the face's length). Returns how far it moved.
pub fn line_up_within(data: &Data, state: &mut State, charger: u16, target: u16, most: f64) -> f64 {
    let Some(face) = face_struck(data, state, charger, target) else { return 0.0 };
    let u = &state.units[charger as usize];
    // The place straight in front of it first, then slides along the face, nearest first.
    let steps = (2.0 * face.half / SLIDE).ceil() as i32;
    let mut offsets: Vec<f64> = (0..=steps).map(|k| k as f64 * SLIDE).collect();
    offsets.sort_by(|a, b| a.total_cmp(b));
    for d in offsets {
        for sign in [1.0, -1.0] {
            if d == 0.0 && sign < 0.0 {
                continue;
            }
            let slide = face.slide + sign * d;
            if slide.abs() > face.half + 1e-9 {
                continue;
            }
            let at = face.place(slide);
            let shift = u.at.distance(at);
            if shift > most + 1e-9 {
                continue;
            }
            // Not into other units.
            let rect = u.block.footprint(data, u.troop, at, face.facing);
            let crowded = state.units.iter().any(|o| {
                o.id != charger
                    && o.id != target
                    && o.on_table()
                    && o.block.footprint(data, o.troop, o.at, o.facing).overlaps(&rect)
            });
            if crowded {
                continue;
            }
            let u = &mut state.units[charger as usize];
            u.at = at;
            u.facing = face.facing;
            return shift;
        }
    }
    0.0
}

/// Steps, inches, in which a charger slides along the face it struck to find room.
const SLIDE: f64 = 0.25;

/// The face of the target a charger lines up on: where its standard goes for each slide along
/// the face, and the facing it takes.
struct Face {
    centre: Point,
    normal: tabletop::geometry::Vec2,
    tangent: tabletop::geometry::Vec2,
    /// Half the face's length: the farthest the charger's centre may slide from its middle.
    half: f64,
    /// The slide straight in front of the charger's standard.
    slide: f64,
    /// Half the charger's depth.
    half_depth: f64,
    facing: Facing,
}

impl Face {
    fn place(&self, slide: f64) -> Point {
        self.centre + self.tangent * slide + self.normal * (self.half_depth + GAP)
    }
}

/// The face of the target nearest the charger's standard (front, rear or a flank), squarely.
fn face_struck(data: &Data, state: &State, charger: u16, target: u16) -> Option<Face> {
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
    let centre = tr.centre + normal * extent;
    let slide = (c.at - centre).dot(tangent).clamp(-half, half);
    let facing = Facing::from_vector(-normal)?;
    Some(Face { centre, normal, tangent, half, slide, half_depth: depth / 2.0, facing })
}
