//! Fire: who may fire at whom (ranges, the 20° cone, two ranks, half a column, a square's
//! faces, a house), the stand-in firing chart, cover, sight, the guns' shot, and the casualty
//! count that walks along the target's formation die by die.

use crate::Liberal;
use crate::data::{Fate, Kind};
use crate::state::{Cannonade, Formation, Hit, Shot, State, Unit, Volley};
use tabletop::dice::{DiceSource, Die, Roll, roll};
use tabletop::geometry::{Facing, Point, Rect, Vec2};
use tabletop::rules::RuleId;
use tabletop::terrain::{AreaKind, LineKind};

/// Who may fire in a volley, before any die.
#[derive(Clone, Debug, PartialEq)]
pub struct Shooting {
    /// Eligible firing figures (F).
    pub figures: usize,
    /// Why F is what it is.
    pub basis: String,
    /// The nearest edge-to-edge distance from an eligible firer to a target figure.
    pub distance: f64,
    /// The firer's range.
    pub range: f64,
}

/// Rolls a die for the log.
pub fn die(dice: &mut dyn DiceSource, faces: u8, purpose: String, rule: &'static str) -> Roll {
    roll(dice, Die::D(faces), purpose, RuleId::new(rule))
}

/// Whether `to` lies within the arc about `facing` from `from` whose half-angle has the cosine
/// `cos_half` (worked out once for a run of points).
fn within_cos(from: Point, facing: Facing, cos_half: f64, to: Point) -> bool {
    let d = to - from;
    let len = d.length();
    len < 1e-9 || d.dot(facing.vector()) >= cos_half * len - 1e-9
}

/// The distance from `p` to the segment `a`–`b`.
fn segment_distance(p: Point, a: Point, b: Point) -> f64 {
    let ab = b - a;
    let len2 = ab.dot(ab);
    let t = if len2 < 1e-18 { 0.0 } else { ((p - a).dot(ab) / len2).clamp(0.0, 1.0) };
    p.distance(a + ab * t)
}

fn segment_hits_rect(a: Point, b: Point, r: &Rect) -> bool {
    // Liang–Barsky in the rectangle's frame.
    let p = r.to_local(a);
    let q = r.to_local(b);
    let d = q - p;
    let (hx, hy) = (r.width / 2.0, r.depth / 2.0);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (pv, dv, h) in [(p.x, d.x, hx), (p.y, d.y, hy)] {
        for (num, den) in [(pv + h, -dv), (h - pv, dv)] {
            if den.abs() < 1e-12 {
                if num < 0.0 {
                    return false;
                }
            } else {
                let t = num / den;
                if den < 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
            }
        }
    }
    t0 <= t1
}

impl Liberal {
    /// The unit's small-arms range now (LIB-FIRE-01): `None` when it may not fire, such as
    /// mounted cavalry that did not stand fast (LIB-FIRE-02, LIB-R-18).
    pub fn small_arms_range(&self, u: &Unit, standing: bool) -> Option<f64> {
        let t = &self.data.troops[u.troop];
        if u.gun.is_some() || t.kind == Kind::Crew || t.range <= 0.0 {
            return None;
        }
        if self.is_mounted(u) {
            return if standing { t.range_mounted } else { None };
        }
        Some(t.range)
    }

    /// Points of the target a shot may reach: its figures, and its gun.
    pub fn target_points(&self, u: &Unit) -> Vec<Point> {
        let mut v: Vec<Point> = self.positions(u).into_iter().map(|(_, p)| p).collect();
        if let (Some(g), Some(r)) = (&u.gun, self.gun_rect(u))
            && !g.destroyed
        {
            v.push(r.centre);
        }
        v
    }

    /// Whether `a` sees `b` (LIB-M-08, LIB-ART-06): houses and more than 2" of wood between
    /// them block, and so do other units' figures unless the firer stands on higher ground.
    pub fn sees(&self, st: &State, a: &Unit, b: &Unit) -> bool {
        let (pa, pb) = (self.footprint(a).centre, self.footprint(b).centre);
        let mut wood = 0.0;
        let high = |p: Point| {
            st.table.areas.iter().any(|x| x.kind == AreaKind::Hill && x.polygon.contains(p))
        };
        let (lo, hi) = (
            Point::new(pa.x.min(pb.x) - 1.0, pa.y.min(pb.y) - 1.0),
            Point::new(pa.x.max(pb.x) + 1.0, pa.y.max(pb.y) + 1.0),
        );
        for (i, area) in st.table.areas.iter().enumerate() {
            // An area whose box is clear of the line of sight's neither blocks nor hides it.
            if let Some((a0, a1)) = area.polygon.bounds()
                && (a0.x > hi.x || a1.x < lo.x || a0.y > hi.y || a1.y < lo.y)
            {
                continue;
            }
            let house = st.houses.get(i).is_some_and(|c| *c > 0);
            if house {
                if a.house == Some(i) || b.house == Some(i) {
                    continue;
                }
                if !area.polygon.segment_intervals(pa, pb).is_empty() {
                    return false;
                }
            } else if matches!(area.kind, AreaKind::Wood | AreaKind::DenseTrees) {
                let len = pa.distance(pb);
                wood += area
                    .polygon
                    .segment_intervals(pa, pb)
                    .iter()
                    .map(|(t0, t1)| (t1 - t0) * len)
                    .sum::<f64>();
            }
        }
        if wood > 2.0 {
            return false;
        }
        let higher = high(pa);
        st.units.iter().all(|o| {
            o.id == a.id
                || o.id == b.id
                // Far from the line of sight whatever its footprint: it cannot block.
                || segment_distance(o.place.at, pa, pb) > self.reach_bound(o) + 1e-6
                || !o.present()
                || (higher && !high(self.footprint(o).centre))
                || !segment_hits_rect(pa, pb, &self.footprint(o))
        })
    }

    /// The cover a target has from a firer (LIB-R-41, LIB-M-09): heavy in a house or behind a
    /// wall, light in a wood or behind a hedge. Returns the casualties taken off and its name.
    pub fn cover(&self, st: &State, firer: &Unit, target: &Unit) -> (u32, &'static str) {
        let f = &self.data.rules.fire;
        let (pa, pb) = (self.footprint(firer).centre, self.footprint(target).centre);
        if target.house.is_some() {
            return (f.heavy_cover, "heavy cover (a house)");
        }
        // A wall or hedge covers the target when the line of fire crosses it close to the
        // target (NIS: within `fire.cover_reach`), not anywhere between the two.
        let tr = self.footprint(target);
        let reach = f.cover_reach;
        let crosses = |k: LineKind| {
            st.table.lines.iter().any(|l| {
                l.kind == k
                    && l.centreline_crossings(pa, pb)
                        .iter()
                        .any(|t| tr.distance_to_point(pa.lerp(pb, *t)) <= reach)
            })
        };
        if crosses(LineKind::Wall) {
            return (f.heavy_cover, "heavy cover (a wall)");
        }
        let in_wood = st.table.areas.iter().any(|a| {
            matches!(a.kind, AreaKind::Wood | AreaKind::DenseTrees) && a.polygon.contains(pb)
        });
        if in_wood {
            return (f.light_cover, "light cover (a wood)");
        }
        if crosses(LineKind::Hedge) {
            return (f.light_cover, "light cover (a hedge)");
        }
        (0, "no cover")
    }

    /// How many of `firer`'s figures may fire at `target` (LIB-FIRE-04..06, LIB-R-19, LIB-R-21,
    /// LIB-SQUARE-03, LIB-HOUSE-02/03), or `None` when none may. `directions` is how many
    /// different directions the firer is attacked from in this exchange (LIB-R-28).
    pub fn shooting(
        &self,
        st: &State,
        firer: &Unit,
        target: &Unit,
        standing: bool,
        directions: usize,
    ) -> Option<Shooting> {
        let range = self.small_arms_range(firer, standing)?;
        if firer.side == target.side {
            return None;
        }
        // Out of range whatever the two footprints: passed over before measuring them.
        let apart = firer.place.at.distance(target.place.at);
        if apart - self.reach_bound(firer) - self.reach_bound(target) > range + 1e-6 {
            return None;
        }
        if !target.present() || firer.strength() == 0 {
            return None;
        }
        let fr = &self.data.rules.fire;
        let far = self.footprint(firer).distance(&self.footprint(target));
        if far > range {
            return None;
        }
        let pts = self.target_points(target);
        // Figures' centres stand half a rank gap behind their edges (LIB-M-12: edge to edge).
        let slack = self.data.rules.formation.rank_gap;
        let ranks = firer.in_ranks();
        let n = ranks.len();
        let mut count = 0usize;
        let mut nearest = f64::INFINITY;
        let tally = |p: Point, facing: Facing, half: f64, nearest: &mut f64| -> bool {
            let mut ok = false;
            let cos_half = libm::cos(half.to_radians());
            for t in &pts {
                let d = (p.distance(*t) - slack).max(0.0);
                if d <= range + 1e-9 && within_cos(p, facing, cos_half, *t) {
                    ok = true;
                    *nearest = nearest.min(d);
                }
            }
            ok
        };
        let basis;
        match firer.place.formation {
            Formation::Square | Formation::House => {
                let square = firer.place.formation == Formation::Square;
                for k in 0..n {
                    let (rel, face) = self.slot(firer, &firer.place, k, n);
                    let p = crate::formation::world(&firer.place, rel);
                    let ok = if square {
                        tally(p, face, fr.square_face_half_degrees, &mut nearest)
                    } else {
                        tally(p, face, 180.0, &mut nearest)
                    };
                    if ok {
                        count += 1;
                    }
                }
                let all = directions >= 2 || (!square && n <= fr.house_all_fire);
                if all {
                    basis = if square {
                        "a square attacked from two directions: all fire".to_string()
                    } else {
                        "a house: all fire".to_string()
                    };
                } else {
                    count /= 2;
                    basis = if square {
                        "a square: half its figures".to_string()
                    } else {
                        "a house: half its figures".to_string()
                    };
                }
            }
            Formation::Column | Formation::RoadColumn => {
                let half = n / 2;
                for k in 0..half {
                    let (rel, face) = self.slot(firer, &firer.place, k, n);
                    let p = crate::formation::world(&firer.place, rel);
                    if tally(p, face, fr.cone_half_degrees, &mut nearest) {
                        count += 1;
                    }
                }
                basis = format!("a column: half its {n} figures, in the cone");
            }
            Formation::Line => {
                let ranks = self.firing_ranks(st, firer);
                for k in 0..n {
                    if self.rank_of(firer, k, n) >= ranks {
                        break;
                    }
                    let (rel, face) = self.slot(firer, &firer.place, k, n);
                    let p = crate::formation::world(&firer.place, rel);
                    if tally(p, face, fr.cone_half_degrees, &mut nearest) {
                        count += 1;
                    }
                }
                basis = if ranks == fr.ranks {
                    "the front two ranks, in the cone".to_string()
                } else {
                    format!("the front {ranks} ranks (the ground allows), in the cone")
                };
            }
        }
        if count == 0 || !self.sees(st, firer, target) {
            return None;
        }
        Some(Shooting { figures: count, basis, distance: nearest, range })
    }

    /// How many ranks of a line fire (LIB-FIRE-04): two, unless the ground it stands on is a
    /// scenario's firing ground that lets more fire.
    pub fn firing_ranks(&self, st: &State, u: &Unit) -> usize {
        let at = u.place.at;
        st.table
            .areas
            .iter()
            .enumerate()
            .filter(|(i, a)| {
                st.firing_ranks.get(*i).is_some_and(|r| *r > 0) && a.polygon.contains(at)
            })
            .map(|(i, _)| st.firing_ranks[i])
            .max()
            .unwrap_or(self.data.rules.fire.ranks)
    }

    /// The stand-in chart's band for a distance (LIB-R-01): its index.
    pub fn band(&self, firer: &Unit, distance: f64, range: f64) -> usize {
        self.band_for(firer.troop, distance, range)
    }

    /// The band for a firer of troop type `troop` (an index into the data's troops): the
    /// first band whose share of the range reaches the distance, less the type's band shift.
    pub fn band_for(&self, troop: usize, distance: f64, range: f64) -> usize {
        let bands = &self.data.rules.fire.band;
        let share = if range > 0.0 { distance / range } else { 1.0 };
        let i = bands.iter().position(|b| share <= b.up_to + 1e-9).unwrap_or(bands.len() - 1);
        i.saturating_sub(self.data.troops[troop].band_shift)
    }

    /// The stand-in chart's arithmetic (LIB-R-01): floor(F / D), and the remainder die, a
    /// D-sided die thrown when F mod D is not 0 (and D > 1), that adds one casualty when it
    /// shows at most F mod D. Returns (floor(F / D), the remainder die, the extra casualty).
    pub fn stand_in(
        &self,
        figures: u32,
        per_casualty: u32,
        dice: &mut dyn DiceSource,
    ) -> (u32, Option<Roll>, u32) {
        let d = per_casualty;
        let (base, rem) = (figures / d, figures % d);
        let remainder = (rem > 0 && d > 1)
            .then(|| die(dice, d.min(255) as u8, format!("remainder {rem} of {d}"), "LIB-R-01"));
        let extra = u32::from(remainder.as_ref().is_some_and(|r| u32::from(r.value) <= rem));
        (base, remainder, extra)
    }

    /// The expected casualties of a volley (for planning: the liberal-move preview).
    pub fn expected_volley(&self, st: &State, s: &Shooting, firer: &Unit, target: &Unit) -> f64 {
        let b = &self.data.rules.fire.band[self.band(firer, s.distance, s.range)];
        let d = b.per_casualty as usize;
        let (base, rem) = ((s.figures / d) as f64, (s.figures % d) as f64);
        let (cover, _) = self.cover(st, firer, target);
        let c = cover as f64;
        let p = rem / d as f64;
        (1.0 - p) * (base - c).max(0.0) + p * (base + 1.0 - c).max(0.0)
    }

    /// Works out a volley's casualties (LIB-FIRE-07, LIB-R-01, LIB-R-41), rolling the
    /// remainder die.
    pub fn volley(
        &self,
        st: &State,
        s: &Shooting,
        firer: &Unit,
        target: &Unit,
        dice: &mut dyn DiceSource,
    ) -> Volley {
        let bi = self.band(firer, s.distance, s.range);
        let b = &self.data.rules.fire.band[bi];
        let d = b.per_casualty;
        let (base, remainder, extra) = self.stand_in(s.figures as u32, d, dice);
        let (cover, _) = self.cover(st, firer, target);
        Volley {
            firer: firer.id,
            target: target.id,
            names: Vec::new(),
            figures: s.figures,
            basis: s.basis.clone(),
            distance: s.distance,
            band: b.name.clone(),
            per_casualty: d,
            base,
            remainder,
            extra,
            cover,
            casualties: (base + extra).saturating_sub(cover),
        }
    }

    /// The casualty count (LIB-CAS-02..06, LIB-R-03, LIB-R-04): one d6 a casualty, each counting
    /// forward from the last figure reached, skipping figures already hit in this exchange
    /// (`taken`, figure indexes of this unit), wrapping round; the die is also the result.
    pub fn count(
        &self,
        target: &Unit,
        casualties: u32,
        taken: &mut Vec<usize>,
        dice: &mut dyn DiceSource,
        rule: &'static str,
    ) -> Vec<Hit> {
        self.count_along(&target.in_ranks(), casualties, taken, dice, rule)
    }

    /// The casualty count along `order`, the figure indexes in the ranks in count order (see
    /// [`Liberal::count`]).
    pub fn count_along(
        &self,
        order: &[usize],
        casualties: u32,
        taken: &mut Vec<usize>,
        dice: &mut dyn DiceSource,
        rule: &'static str,
    ) -> Vec<Hit> {
        let mut hits = Vec::new();
        let mut at: Option<usize> = None; // position in `order` of the last figure reached
        for c in 0..casualties {
            let free = order.iter().filter(|i| !taken.contains(i)).count();
            if free == 0 {
                break;
            }
            let r = die(dice, 6, format!("casualty {} of {casualties}", c + 1), rule);
            let mut steps = r.value as usize;
            let mut pos = at;
            while steps > 0 {
                let next = match pos {
                    None => 0,
                    Some(p) => (p + 1) % order.len(),
                };
                pos = Some(next);
                if !taken.contains(&order[next]) {
                    steps -= 1;
                }
            }
            let p = pos.unwrap_or(0);
            at = Some(p);
            let figure = order[p];
            taken.push(figure);
            let fate = self.fire_fate(r.value);
            hits.push(Hit { figure, number: p + 1, die: r.value, fate });
        }
        hits
    }

    /// The gun's range now for a shot (LIB-ART-08, LIB-ART-12, LIB-R-25).
    pub fn gun_range(&self, u: &Unit, shot: Shot) -> Option<f64> {
        let g = u.gun.as_ref()?;
        Some(match shot {
            Shot::Round => g.range,
            Shot::Grape => self.data.rules.artillery.grape_range.min(g.range),
        })
    }

    /// Artillerymen among the gun's crew in the ranks.
    pub fn artillerymen(&self, u: &Unit) -> usize {
        u.figures
            .iter()
            .filter(|f| {
                f.status == crate::state::Status::Ranks
                    && self.data.troops[f.troop].kind == Kind::Crew
            })
            .count()
    }

    /// Why the battery may not fire now, or `None` when it may (LIB-ART-01..04, -15/16,
    /// LIB-R-26); `game_turn` is the current game turn.
    pub fn gun_barred(&self, u: &Unit, game_turn: u32) -> Option<(&'static str, String)> {
        let Some(g) = &u.gun else {
            return Some(("LIB-ART-01", "not a battery".into()));
        };
        let a = &self.data.rules.artillery;
        if g.destroyed {
            return Some(("LIB-ART-11", "the gun is destroyed".into()));
        }
        if g.spiked {
            return Some(("LIB-ART-15", "the gun is spiked".into()));
        }
        if u.strength() < a.crew_needed {
            return Some((
                "LIB-ART-01",
                format!("{} crew: a gun needs {} to fire", u.strength(), a.crew_needed),
            ));
        }
        if self.artillerymen(u) == 0 && g.fired_turn.is_some_and(|t| t + 1 >= game_turn) {
            return Some((
                "LIB-ART-03",
                "crewed only by infantry, it fired in the last game turn".into(),
            ));
        }
        if g.fired {
            return Some(("LIB-ART-16", "it has fired this turn".into()));
        }
        None
    }

    /// Whether an enemy gun may fire on liberal step `k` (LIB-R-09): crewed, not spiked or
    /// destroyed, and, when crewed only by infantry, not on two steps in a row.
    pub fn gun_ready_in_step(&self, u: &Unit, k: u32) -> bool {
        let Some(g) = &u.gun else { return false };
        !g.destroyed
            && !g.spiked
            && u.strength() >= self.data.rules.artillery.crew_needed
            && (self.artillerymen(u) > 0 || g.fired_step.is_none_or(|s| s + 1 != k))
    }

    /// Whether the gun may fire at `target` with `shot` (range, the 180° arc, sight) and the
    /// distance, or the rule that forbids it (LIB-ART-06..08, LIB-ART-12).
    pub fn gun_reach(
        &self,
        st: &State,
        gun: &Unit,
        target: &Unit,
        shot: Shot,
    ) -> Result<f64, (&'static str, String)> {
        let range = self.gun_range(gun, shot).ok_or(("LIB-ART-01", "no gun".to_string()))?;
        if target.side == gun.side || !target.present() {
            return Err(("LIB-SEQ-03", format!("{} is not an enemy on the table", target.name)));
        }
        let from = self.gun_rect(gun).map_or(gun.place.at, |r| r.front_centre());
        // Far beyond range whatever its figures: no need to place them.
        let apart = from.distance(target.place.at) - self.reach_bound(target);
        if apart > range + 1e-6 {
            let rule = if shot == Shot::Grape { "LIB-ART-12" } else { "LIB-ART-08" };
            return Err((
                rule,
                format!("{} is over {apart:.0}\" away: range {range}\"", target.name),
            ));
        }
        let pts = self.target_points(target);
        let cos_half = libm::cos(self.data.rules.artillery.arc_half_degrees.to_radians());
        let near = pts
            .iter()
            .filter(|p| within_cos(from, gun.place.facing, cos_half, **p))
            .map(|p| from.distance(*p))
            .fold(f64::INFINITY, f64::min);
        if !near.is_finite() {
            return Err(("LIB-ART-07", format!("{} is outside the gun's 180° arc", target.name)));
        }
        if near > range + 1e-9 {
            let rule = if shot == Shot::Grape { "LIB-ART-12" } else { "LIB-ART-08" };
            return Err((rule, format!("{} is {near:.1}\" away: range {range}\"", target.name)));
        }
        if !self.sees(st, gun, target) {
            return Err(("LIB-ART-06", format!("no clear line to {}", target.name)));
        }
        Ok(near)
    }

    /// A gun's shot (LIB-ART-09..12, LIB-R-23, LIB-R-24), without the count.
    pub fn cannonade(
        &self,
        st: &State,
        gun: &Unit,
        target: &Unit,
        shot: Shot,
        distance: f64,
        dice: &mut dyn DiceSource,
    ) -> Cannonade {
        let (cover, _) = self.cover(st, gun, target);
        let live_gun = target.gun.as_ref().is_some_and(|g| !g.destroyed);
        Cannonade {
            gun: gun.id,
            target: target.id,
            distance,
            ..self.shot_dice(shot, cover, live_gun, &target.name, dice)
        }
    }

    /// A gun's shot from its dice alone (LIB-ART-09..12, LIB-R-23, LIB-R-24): `cover` is the
    /// casualties the target's cover takes off, `live_gun` whether the target is a gun not yet
    /// destroyed. The gun, target and distance are left 0.
    pub fn shot_dice(
        &self,
        shot: Shot,
        cover: u32,
        live_gun: bool,
        target_name: &str,
        dice: &mut dyn DiceSource,
    ) -> Cannonade {
        let a = &self.data.rules.artillery;
        let mut c = Cannonade {
            gun: 0,
            target: 0,
            names: Vec::new(),
            shot,
            distance: 0.0,
            to_hit: None,
            hit: true,
            casualty_die: None,
            destroyed: false,
            crew_die: None,
            cover: 0,
            casualties: 0,
        };
        match shot {
            Shot::Grape => {
                let r = die(dice, 6, format!("grape at {target_name}"), "LIB-ART-12");
                c.casualties = u32::from(r.value);
                c.casualty_die = Some(r);
            }
            Shot::Round => {
                let h = die(dice, 6, format!("to hit {target_name}"), "LIB-ART-09");
                c.hit = a.hit_faces.contains(&h.value);
                c.to_hit = Some(h);
                if c.hit {
                    let r = die(dice, 6, "round-shot casualties".into(), "LIB-ART-10");
                    if live_gun && r.value == a.destroy_face {
                        c.destroyed = true;
                        let k = die(dice, 6, "crew casualties".into(), "LIB-ART-11");
                        c.casualties = u32::from(k.value).saturating_sub(cover);
                        c.crew_die = Some(k);
                    } else {
                        c.casualties = u32::from(r.value).saturating_sub(cover);
                    }
                    c.cover = cover;
                    c.casualty_die = Some(r);
                }
            }
        }
        c
    }

    /// The expected casualties of a gun's shot (for planning).
    pub fn expected_cannon(&self, st: &State, gun: &Unit, target: &Unit, shot: Shot) -> f64 {
        let a = &self.data.rules.artillery;
        match shot {
            Shot::Grape => 3.5,
            Shot::Round => {
                let (cover, _) = self.cover(st, gun, target);
                let p = a.hit_faces.len() as f64 / 6.0;
                let mean: f64 =
                    (1..=6u32).map(|v| v.saturating_sub(cover) as f64).sum::<f64>() / 6.0;
                p * mean
            }
        }
    }

    /// The shot a gun uses at this distance: grape within its range, else round.
    pub fn best_shot(&self, distance: f64) -> Shot {
        if distance <= self.data.rules.artillery.grape_range { Shot::Grape } else { Shot::Round }
    }

    /// The fate of a figure by the fire column.
    pub fn fire_fate(&self, face: u8) -> Fate {
        self.data.rules.results.fire[(face as usize).clamp(1, 6) - 1]
    }

    /// Direction from a unit to a point, as a facing.
    pub fn facing_to(&self, from: Point, to: Point) -> Option<Facing> {
        Facing::from_vector(Vec2::new(to.x - from.x, to.y - from.y))
    }
}
