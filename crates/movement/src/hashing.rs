//! The state's JSON, part by part, kept for the record's state hash.
//!
//! After every command the record hashes the whole state's compact JSON
//! ([`tabletop::game::state_hash`]); most units have not changed since the last command, and
//! writing their JSON out again (every float formatted, every key escaped) was most of the
//! hash's cost. While the hash is being taken ([`tabletop::game::hashing`]), the table and each
//! unit are written from a cache of their JSON when they are the same as when it was made, so
//! the bytes, and the hash, are exactly those a fresh write gives.
//!
//! "The same" is exact: the table is the very one the cache holds a handle on (it is shared and
//! never changed in place, and the handle keeps its address from being reused), and a unit
//! equals the cached copy field by field, floats by their bits (0.0 and -0.0 compare equal but
//! write differently). The comparison names every field, so that a field added to a unit does
//! not compile until it is compared. Outside the hash, and for other serializers, the state
//! serialises as it always has.

use crate::layout::Pose;
use crate::state::{Limber, Stand, Unit};
use serde::Serialize;
use serde::ser::{self, SerializeSeq, Serializer};
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::sync::Arc;
use tabletop::geometry::{Facing, Point, Rect};
use tabletop::terrain::Table;

/// The cache of one thread: the last state hashed on it (another game's state only misses).
#[derive(Default)]
struct Cache {
    table: Option<(Arc<Table>, Box<RawValue>)>,
    units: Vec<Option<(Unit, Box<RawValue>)>>,
}

std::thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// The table, from the cache while hashing.
pub fn table<S: Serializer>(table: &Arc<Table>, s: S) -> Result<S::Ok, S::Error> {
    if !tabletop::game::hashing() {
        return table.serialize(s);
    }
    CACHE.with(|c| {
        let Ok(mut c) = c.try_borrow_mut() else {
            return table.serialize(s);
        };
        if c.table.as_ref().is_none_or(|(t, _)| !Arc::ptr_eq(t, table)) {
            let json =
                serde_json::value::to_raw_value(table.as_ref()).map_err(ser::Error::custom)?;
            c.table = Some((table.clone(), json));
        }
        c.table.as_ref().expect("just filled").1.serialize(s)
    })
}

/// The units, each from the cache while hashing.
pub fn units<S: Serializer>(units: &[Unit], s: S) -> Result<S::Ok, S::Error> {
    if !tabletop::game::hashing() {
        return units.serialize(s);
    }
    CACHE.with(|c| {
        let Ok(mut c) = c.try_borrow_mut() else {
            return units.serialize(s);
        };
        let slots = &mut c.units;
        if slots.len() < units.len() {
            slots.resize_with(units.len(), || None);
        }
        let mut seq = s.serialize_seq(Some(units.len()))?;
        for (u, slot) in units.iter().zip(slots.iter_mut()) {
            if slot.as_ref().is_none_or(|(c, _)| !same_unit(c, u)) {
                let json = serde_json::value::to_raw_value(u).map_err(ser::Error::custom)?;
                *slot = Some((u.clone(), json));
            }
            seq.serialize_element(&slot.as_ref().expect("just filled").1)?;
        }
        seq.end()
    })
}

fn bits(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits()
}

fn opt_bits(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => bits(a, b),
        (a, b) => a.is_none() && b.is_none(),
    }
}

pub(crate) fn same_point(a: Point, b: Point) -> bool {
    bits(a.x, b.x) && bits(a.y, b.y)
}

pub(crate) fn same_facing(a: Facing, b: Facing) -> bool {
    same_point(a.vector(), b.vector())
}

pub(crate) fn same_rect(a: &Rect, b: &Rect) -> bool {
    let Rect { centre, facing, width, depth } = a;
    same_point(*centre, b.centre)
        && same_facing(*facing, b.facing)
        && bits(*width, b.width)
        && bits(*depth, b.depth)
}

pub(crate) fn same_pose(a: &Pose, b: &Pose) -> bool {
    let Pose { at, facing, formation, files, gap } = a;
    same_point(*at, b.at)
        && same_facing(*facing, b.facing)
        && *formation == b.formation
        && *files == b.files
        && bits(*gap, b.gap)
}

fn same_stand(a: &Stand, b: &Stand) -> bool {
    let Stand { rect, armor, ep } = a;
    same_rect(rect, &b.rect) && *armor == b.armor && *ep == b.ep
}

fn same_limber(a: &Limber, b: &Limber) -> bool {
    let Limber { class, limbered, changing, changed_turn, shot_turn } = a;
    *class == b.class
        && *limbered == b.limbered
        && *changing == b.changing
        && *changed_turn == b.changed_turn
        && *shot_turn == b.shot_turn
}

/// True when two units write the same JSON: every field equal, floats by their bits.
fn same_unit(a: &Unit, b: &Unit) -> bool {
    let Unit {
        id,
        name,
        side,
        troop,
        discipline,
        rate,
        mounted,
        skirmisher,
        levy,
        leader,
        character,
        army_leader,
        brigade_leader,
        stand_size,
        pose,
        stands,
        morale,
        limber,
        on_table,
        moved,
        forced_march_failed,
        exhausted_turn,
        separated,
        driven_off,
        held,
        regroup_left,
    } = a;
    *id == b.id
        && *side == b.side
        && *troop == b.troop
        && *discipline == b.discipline
        && opt_bits(*rate, b.rate)
        && *mounted == b.mounted
        && *skirmisher == b.skirmisher
        && *levy == b.levy
        && *leader == b.leader
        && *character == b.character
        && *army_leader == b.army_leader
        && *brigade_leader == b.brigade_leader
        && bits(stand_size.0, b.stand_size.0)
        && bits(stand_size.1, b.stand_size.1)
        && same_pose(pose, &b.pose)
        && *morale == b.morale
        && match (limber, &b.limber) {
            (Some(x), Some(y)) => same_limber(x, y),
            (x, y) => x.is_none() && y.is_none(),
        }
        && *on_table == b.on_table
        && *moved == b.moved
        && *forced_march_failed == b.forced_march_failed
        && *exhausted_turn == b.exhausted_turn
        && *separated == b.separated
        && *driven_off == b.driven_off
        && *held == b.held
        && opt_bits(*regroup_left, b.regroup_left)
        && stands.len() == b.stands.len()
        && stands.iter().zip(&b.stands).all(|(x, y)| same_stand(x, y))
        && *name == b.name
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0.0 and -0.0 compare equal but write differently: the cache tells them apart.
    #[test]
    fn signed_zeros_differ() {
        let p = Point::new(0.0, 1.0);
        assert!(same_point(p, p));
        assert!(!same_point(p, Point::new(-0.0, 1.0)));
        assert!(!opt_bits(Some(0.0), Some(-0.0)));
        assert!(opt_bits(None, None));
    }
}
