//! Splitting a segment into pieces of uniform ground.
//!
//! [`Table::pieces`] cuts a segment at every boundary it crosses (areas, feature bands, fords and
//! bridges, hill ramps) and at every point where it meets a feature's centreline, and gives each
//! piece its [`Ground`]. The work is a sweep over entry and exit events: each feature whose
//! bounding box misses the segment's is rejected first, the others give exact intervals, and
//! events closer together than [`LENGTH_TOLERANCE`] are applied together, so no piece is
//! shorter than that.
//!
//! [`Ground`] is `Copy` and holds bitsets, so a piece costs no allocation. Feature indices run
//! up to [`MAX_FEATURES`]` − 1`: areas or lines beyond that are ignored by the splitter (and
//! reported by [`Table::validate`]).

use super::band::{CSeg, centreline_meets, clip_tiles};
use super::convex::{Tile, boxes_meet, merge_intervals, norm, segment_box};
use super::polygon::LENGTH_TOLERANCE;
use super::slope::{HillScratch, Linear, hill_trace};
use super::{CrossingKind, Table};
use crate::geometry::Point;
use std::ops::ControlFlow;

/// How many areas, and how many linear features, the splitter tells apart.
pub const MAX_FEATURES: usize = 128;

/// A set of feature indices below [`MAX_FEATURES`], as a bitset (two words, so that
/// [`Ground`] stays small and 8-byte aligned).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FeatureSet([u64; 2]);

impl FeatureSet {
    /// The empty set.
    pub const EMPTY: FeatureSet = FeatureSet([0; 2]);

    /// True when `i` is in the set (false for `i ≥ MAX_FEATURES`).
    #[inline]
    pub fn contains(self, i: usize) -> bool {
        i < MAX_FEATURES && self.0[i >> 6] & (1u64 << (i & 63)) != 0
    }

    /// Adds `i` (ignored for `i ≥ MAX_FEATURES`).
    #[inline]
    pub fn insert(&mut self, i: usize) {
        if i < MAX_FEATURES {
            self.0[i >> 6] |= 1u64 << (i & 63);
        }
    }

    /// Removes `i`.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        if i < MAX_FEATURES {
            self.0[i >> 6] &= !(1u64 << (i & 63));
        }
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == [0; 2]
    }

    /// The number of members.
    #[inline]
    pub fn len(self) -> usize {
        (self.0[0].count_ones() + self.0[1].count_ones()) as usize
    }

    /// The smallest member.
    #[inline]
    pub fn first(self) -> Option<usize> {
        self.iter().next()
    }

    /// The members, in increasing order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        let mut words = self.0;
        let mut w = 0;
        std::iter::from_fn(move || {
            while w < 2 {
                if words[w] != 0 {
                    let i = words[w].trailing_zeros() as usize;
                    words[w] &= words[w] - 1;
                    return Some(w * 64 + i);
                }
                w += 1;
            }
            None
        })
    }

    /// The members of `self` not in `other`.
    #[inline]
    pub fn minus(self, other: FeatureSet) -> FeatureSet {
        FeatureSet([self.0[0] & !other.0[0], self.0[1] & !other.0[1]])
    }
}

impl FromIterator<usize> for FeatureSet {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Self {
        let mut s = FeatureSet::EMPTY;
        for i in iter {
            s.insert(i);
        }
        s
    }
}

/// The ground under a piece of path.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ground {
    /// The areas containing the piece (indices into `table.areas`).
    pub areas: FeatureSet,
    /// The linear features whose band contains the piece (indices into `table.lines`).
    pub bands: FeatureSet,
    /// The features on which the piece is within a ford.
    pub fords: FeatureSet,
    /// The features on which the piece is within a bridge.
    pub bridges: FeatureSet,
    /// Elevation gained per inch travelled along the piece, in contour levels per inch:
    /// positive uphill, negative downhill, zero on the flat (see [`slope`](super::slope)).
    pub rise: f64,
}

impl Ground {
    /// True when area `i` contains the piece.
    #[inline]
    pub fn in_area(&self, i: usize) -> bool {
        self.areas.contains(i)
    }

    /// True when the piece is in the band of feature `j`.
    #[inline]
    pub fn in_band(&self, j: usize) -> bool {
        self.bands.contains(j)
    }

    /// True when the piece is within a ford of feature `j`.
    #[inline]
    pub fn in_ford(&self, j: usize) -> bool {
        self.fords.contains(j)
    }

    /// True when the piece is within a bridge of feature `j`.
    #[inline]
    pub fn on_bridge(&self, j: usize) -> bool {
        self.bridges.contains(j)
    }

    /// True when the piece is within a ford or bridge of feature `j`.
    #[inline]
    pub fn in_crossing(&self, j: usize) -> bool {
        self.fords.contains(j) || self.bridges.contains(j)
    }

    /// True when the piece climbs faster than `threshold` levels per inch (MOV-R-02 uses 0.05).
    #[inline]
    pub fn is_uphill(&self, threshold: f64) -> bool {
        self.rise > threshold
    }
}

/// A piece of a segment with uniform ground.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathPiece {
    /// Parameter of the start along the segment (`0` at its start, `1` at its end).
    pub t0: f64,
    /// Parameter of the end.
    pub t1: f64,
    /// Where the piece starts.
    pub from: Point,
    /// Where it ends.
    pub to: Point,
    /// Its length in inches.
    pub length: f64,
    /// The ground under it.
    pub ground: Ground,
}

/// A point where a segment meets a linear feature's centreline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CentrelineCrossing {
    /// Parameter along the segment.
    pub t: f64,
    /// Where.
    pub at: Point,
    /// The feature (index into `table.lines`).
    pub feature: usize,
    /// The ground of the piece that ends at the crossing.
    pub ground: Ground,
}

/// Reusable buffers for splitting and costing, so that hot loops allocate nothing once warm.
#[derive(Default, Debug)]
pub struct Scratch {
    events: Vec<Event>,
    params: Vec<f64>,
    intervals: Vec<(f64, f64)>,
    fords: Vec<(f64, f64)>,
    bridges: Vec<(f64, f64)>,
    meets: Vec<f64>,
    segs: Vec<CSeg>,
    tiles: Vec<Tile>,
    hill: HillScratch,
    linear: Vec<Linear>,
    slopes: Vec<f64>,
    active: Vec<u32>,
}

#[derive(Clone, Copy, Debug)]
enum What {
    AreaIn(u32),
    AreaOut(u32),
    BandIn(u32),
    BandOut(u32),
    FordIn(u32),
    FordOut(u32),
    BridgeIn(u32),
    BridgeOut(u32),
    SlopeIn(u32),
    SlopeOut(u32),
    Meet(u32),
}

#[derive(Clone, Copy, Debug)]
struct Event {
    t: f64,
    what: What,
}

/// What the splitter hands its caller, in order along the segment.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Item {
    Piece(PathPiece),
    Meet(CentrelineCrossing),
}

#[inline]
fn push_intervals(
    ev: &mut Vec<Event>,
    iv: &[(f64, f64)],
    i: u32,
    inn: impl Fn(u32) -> What,
    out: impl Fn(u32) -> What,
) {
    for &(t0, t1) in iv {
        ev.push(Event { t: t0, what: inn(i) });
        ev.push(Event { t: t1, what: out(i) });
    }
}

/// Splits `a`–`b` and hands each piece, and each centreline meeting strictly inside the
/// segment (or at its end when `meet_at_end`), to `f` in order. A zero-length or non-finite
/// segment gives nothing.
pub(crate) fn walk(
    table: &Table,
    a: Point,
    b: Point,
    meet_at_end: bool,
    s: &mut Scratch,
    mut f: impl FnMut(Item) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let d = b - a;
    let len = norm(d);
    if !(len > 0.0) || !len.is_finite() {
        return ControlFlow::Continue(());
    }
    let tol_t = LENGTH_TOLERANCE / len;
    let sb = segment_box(a, b);
    s.events.clear();
    s.slopes.clear();
    s.active.clear();

    for (i, area) in table.areas.iter().enumerate().take(MAX_FEATURES) {
        if !area.polygon.bounds().is_some_and(|bb| boxes_meet(bb, sb)) {
            continue;
        }
        area.polygon.segment_intervals_into(a, b, &mut s.params, &mut s.intervals);
        if s.intervals.is_empty() {
            continue;
        }
        push_intervals(&mut s.events, &s.intervals, i as u32, What::AreaIn, What::AreaOut);
        if area.is_slope_hill() && table.slope_band > 0.0 && table.slope_band.is_finite() {
            s.linear.clear();
            hill_trace(area, table.slope_band, a, b, &s.intervals, &mut s.hill, &mut s.linear);
            for l in &s.linear {
                if l.beta != 0.0 {
                    let id = s.slopes.len() as u32;
                    s.slopes.push(l.beta / len);
                    s.events.push(Event { t: l.t0, what: What::SlopeIn(id) });
                    s.events.push(Event { t: l.t1, what: What::SlopeOut(id) });
                }
            }
        }
    }

    for (j, line) in table.lines.iter().enumerate().take(MAX_FEATURES) {
        if !line.bounds().is_some_and(|bb| boxes_meet(bb, sb)) {
            continue;
        }
        line.segments_into(&mut s.segs);
        let j32 = j as u32;
        line.band_intervals_into(&s.segs, a, b, &mut s.intervals);
        if !s.intervals.is_empty() {
            push_intervals(&mut s.events, &s.intervals, j32, What::BandIn, What::BandOut);
            if !line.crossings.is_empty() {
                s.fords.clear();
                s.bridges.clear();
                for c in &line.crossings {
                    let Some((s0, s1)) = c.stretch() else { continue };
                    s.tiles.clear();
                    line.stretch_tiles(&s.segs, s0, s1, &mut s.tiles);
                    let dst = match c.kind {
                        CrossingKind::Ford => &mut s.fords,
                        CrossingKind::Bridge => &mut s.bridges,
                    };
                    clip_tiles(&s.tiles, a, b, dst);
                }
                merge_intervals(&mut s.fords, tol_t);
                merge_intervals(&mut s.bridges, tol_t);
                push_intervals(&mut s.events, &s.fords, j32, What::FordIn, What::FordOut);
                push_intervals(&mut s.events, &s.bridges, j32, What::BridgeIn, What::BridgeOut);
            }
        }
        s.meets.clear();
        centreline_meets(&s.segs, a, b, &mut s.meets);
        for &t in &s.meets {
            s.events.push(Event { t, what: What::Meet(j32) });
        }
    }

    s.events.sort_by(|x, y| x.t.total_cmp(&y.t));

    let mut g = Ground::default();
    let mut cur = 0.0;
    let mut i = 0;
    let n = s.events.len();
    let emit = |t0: f64, t1: f64, g: &Ground, active: &[u32], slopes: &[f64]| {
        let mut ground = *g;
        ground.rise = active.iter().map(|&k| slopes[k as usize]).sum();
        PathPiece {
            t0,
            t1,
            from: if t0 == 0.0 { a } else { a + d * t0 },
            to: if t1 == 1.0 { b } else { a + d * t1 },
            length: (t1 - t0) * len,
            ground,
        }
    };
    while i < n {
        let first = s.events[i].t;
        let mut last = first;
        let mut j = i;
        while j < n && s.events[j].t <= last + tol_t {
            last = s.events[j].t;
            j += 1;
        }
        let tc = if last >= 1.0 - tol_t {
            1.0
        } else if first <= tol_t {
            0.0
        } else {
            first
        };
        if tc > cur {
            f(Item::Piece(emit(cur, tc, &g, &s.active, &s.slopes)))?;
            cur = tc;
        }
        // Centreline meetings, once per feature per cluster, with the ground just before.
        let mut met = FeatureSet::EMPTY;
        if tc > 0.0 && (tc < 1.0 || meet_at_end) {
            for e in &s.events[i..j] {
                if let What::Meet(k) = e.what
                    && !met.contains(k as usize)
                {
                    met.insert(k as usize);
                    let mut ground = g;
                    ground.rise = s.active.iter().map(|&k| s.slopes[k as usize]).sum();
                    f(Item::Meet(CentrelineCrossing {
                        t: tc,
                        at: if tc == 1.0 { b } else { a + d * tc },
                        feature: k as usize,
                        ground,
                    }))?;
                }
            }
        }
        for e in &s.events[i..j] {
            match e.what {
                What::AreaIn(k) => g.areas.insert(k as usize),
                What::AreaOut(k) => g.areas.remove(k as usize),
                What::BandIn(k) => g.bands.insert(k as usize),
                What::BandOut(k) => g.bands.remove(k as usize),
                What::FordIn(k) => g.fords.insert(k as usize),
                What::FordOut(k) => g.fords.remove(k as usize),
                What::BridgeIn(k) => g.bridges.insert(k as usize),
                What::BridgeOut(k) => g.bridges.remove(k as usize),
                What::SlopeIn(k) => s.active.push(k),
                What::SlopeOut(k) => s.active.retain(|&x| x != k),
                What::Meet(_) => {}
            }
        }
        i = j;
    }
    if cur < 1.0 {
        f(Item::Piece(emit(cur, 1.0, &g, &s.active, &s.slopes)))?;
    }
    ControlFlow::Continue(())
}

impl Table {
    /// Splits the segment `a`–`b` exactly at every boundary it crosses (areas, feature bands,
    /// fords and bridges, hill ramps) and wherever it meets a feature's centreline, into pieces
    /// with their ground, in order from `a`. Empty for a zero-length or non-finite segment.
    pub fn pieces(&self, a: Point, b: Point) -> Vec<PathPiece> {
        let mut s = Scratch::default();
        let mut out = Vec::new();
        self.pieces_with(a, b, &mut s, &mut out);
        out
    }

    /// [`Table::pieces`] into `out` (cleared first), reusing `scratch`.
    pub fn pieces_with(&self, a: Point, b: Point, scratch: &mut Scratch, out: &mut Vec<PathPiece>) {
        out.clear();
        let _ = walk(self, a, b, false, scratch, |item| {
            if let Item::Piece(p) = item {
                out.push(p);
            }
            ControlFlow::Continue(())
        });
    }

    /// Where the segment `a`–`b` meets linear features' centrelines strictly between its ends,
    /// in order, once per feature at each point.
    pub fn centreline_crossings(&self, a: Point, b: Point) -> Vec<CentrelineCrossing> {
        let mut s = Scratch::default();
        let mut out = Vec::new();
        let _ = walk(self, a, b, false, &mut s, |item| {
            if let Item::Meet(m) = item {
                out.push(m);
            }
            ControlFlow::Continue(())
        });
        out
    }
}
