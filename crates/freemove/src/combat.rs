//! After the bell: rearrangement, missile fire, the bowmen's morale, Fire and Charge, the
//! melees (shock and close-range kills first, dice times points, two rounds or one), pull-outs,
//! bonus moves and their chains, retreats and the recovery rolls; then the next game move
//! (FMT-SEQ-01..03, FMT-R-30).

use crate::Freemove;
use crate::clock::Run;
use crate::data::{Class, Kill, WeaponKind};
use crate::geom::{Gait, SLACK};
use crate::state::{
    BonusDue, Event, Melee, MeleeSide, Morale, Phase, Placement, Stand, StandId, State,
};
use tabletop::dice::Roll;
use tabletop::geometry::{Facing, Rect, Sector, Vec2, direction_sector};
use tabletop::rules::{Refusal, RuleId, Side};

/// Stands with their points.
type Points = Vec<(StandId, u32)>;

fn refuse(rule: &'static str, why: impl Into<String>) -> Refusal {
    Refusal::new(rule, why)
}

/// A melee found on the table: its stands and the melees it continues.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// Every stand in it, both sides, by ID.
    pub members: Vec<StandId>,
    /// The continuing melees it takes in (FMT-R-41).
    pub prior: Vec<u32>,
    /// Stands touching an enemy.
    pub front: Vec<StandId>,
    /// (supporter, the stand it backs) (FMT-R-15).
    pub support: Vec<(StandId, StandId)>,
}

/// How a melee round is fought.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    /// Round 1 of two: front ranks only (FMT-MELEE-03).
    First,
    /// Round 2: two ranks (FMT-MELEE-11).
    Second,
    /// A single round: two ranks (FMT-MELEE-18, FMT-MELEE-19).
    Single,
    /// A bonus move's melee: a single round with no shock and no missiles (FMT-MELEE-15).
    Bonus,
}

impl Freemove {
    /// The melees on the table now (FMT-R-14, FMT-R-15, FMT-R-41).
    pub fn groups(&self, st: &State) -> Vec<Group> {
        let n = st.stands.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(p: &mut [usize], x: usize) -> usize {
            let mut r = x;
            while p[r] != r {
                r = p[r];
            }
            let mut y = x;
            while p[y] != r {
                let next = p[y];
                p[y] = r;
                y = next;
            }
            r
        }
        let union = |p: &mut Vec<usize>, a: usize, b: usize| {
            let (ra, rb) = (find(p, a), find(p, b));
            if ra != rb {
                p[ra.max(rb)] = ra.min(rb);
            }
        };
        let live: Vec<&Stand> = st.stands.iter().filter(|s| s.on_table).collect();
        let mut front = vec![false; n];
        let mut any = vec![false; n];
        for (i, a) in live.iter().enumerate() {
            for b in &live[i + 1..] {
                if a.side != b.side && self.touching(&a.rect, &b.rect) {
                    union(&mut parent, a.id, b.id);
                    front[a.id] = true;
                    front[b.id] = true;
                    any[a.id] = true;
                    any[b.id] = true;
                }
            }
        }
        for m in &st.melees {
            let ms: Vec<StandId> =
                m.members.iter().copied().filter(|i| st.stands[*i].on_table).collect();
            for w in ms.windows(2) {
                union(&mut parent, w[0], w[1]);
            }
            for i in ms {
                any[i] = true;
            }
        }
        // Squares fight whole (FMT-SQ-03).
        for q in &st.squares {
            if q.stands.iter().any(|i| any[*i]) {
                for w in q.stands.windows(2) {
                    union(&mut parent, w[0], w[1]);
                }
                for i in &q.stands {
                    any[*i] = true;
                }
            }
        }
        let mut support = Vec::new();
        let mut backed = vec![false; n];
        for s in &live {
            if any[s.id] && front[s.id] {
                continue;
            }
            if let Some(f) = live
                .iter()
                .filter(|f| f.side == s.side && front[f.id] && !backed[f.id] && f.id != s.id)
                .find(|f| self.backs(&s.rect, &f.rect))
            {
                backed[f.id] = true;
                union(&mut parent, s.id, f.id);
                any[s.id] = true;
                support.push((s.id, f.id));
            }
        }
        let mut out: Vec<Group> = Vec::new();
        let mut root_of: Vec<(usize, usize)> = Vec::new();
        for s in &live {
            if !any[s.id] {
                continue;
            }
            let r = find(&mut parent, s.id);
            let g = match root_of.iter().find(|(x, _)| *x == r) {
                Some((_, g)) => *g,
                None => {
                    out.push(Group {
                        members: Vec::new(),
                        prior: Vec::new(),
                        front: Vec::new(),
                        support: Vec::new(),
                    });
                    root_of.push((r, out.len() - 1));
                    out.len() - 1
                }
            };
            out[g].members.push(s.id);
            if front[s.id] {
                out[g].front.push(s.id);
            }
        }
        for (s, f) in support {
            if let Some(g) = out.iter_mut().find(|g| g.members.contains(&f)) {
                g.support.push((s, f));
            }
        }
        for m in &st.melees {
            if let Some(g) =
                out.iter_mut().find(|g| m.members.iter().any(|i| g.members.contains(i)))
            {
                g.prior.push(m.id);
            }
        }
        // A group needs an enemy on each side, or a continuing melee (FMT-R-27).
        out.retain(|g| {
            !g.prior.is_empty()
                || (g.members.iter().any(|i| st.stands[*i].side == Side::Red)
                    && g.members.iter().any(|i| st.stands[*i].side == Side::Blue))
        });
        out
    }

    /// Whether `s` stands two deep behind `f` (FMT-R-15).
    pub fn backs(&self, s: &Rect, f: &Rect) -> bool {
        let c = &self.data.rules.contact;
        if s.facing.angle_to(f.facing).abs().to_degrees() > c.support_degrees + 1e-9 {
            return false;
        }
        let l = f.to_local(s.front_centre());
        if (l.y + f.depth / 2.0).abs() > c.epsilon + SLACK {
            return false;
        }
        let lo = (l.x - s.width / 2.0).max(-f.width / 2.0);
        let hi = (l.x + s.width / 2.0).min(f.width / 2.0);
        hi - lo >= c.support_overlap * f.width - SLACK
    }

    /// Why a stand fights at ×1.5 in this melee, if it does (FMT-MELEE-21, FMT-SQ-02,
    /// FMT-R-37): in a square, in a house, behind a wall it did not cross, or on a hill its
    /// enemies are not on.
    pub fn defensive(
        &self,
        st: &State,
        s: &Stand,
        front_of: Option<StandId>,
    ) -> Option<(String, &'static str)> {
        if s.square.is_some() {
            return Some(("in square".into(), "FMT-SQ-02"));
        }
        if self.infantry(s) && self.house_at(&st.table, s.rect.centre).is_some() {
            return Some(("in a house".into(), "FMT-MELEE-21"));
        }
        let me = front_of.map_or(s, |f| &st.stands[f]);
        let foes = self.enemies_touching(st, me.id);
        if !me.charged
            && foes
                .iter()
                .any(|e| self.crosses_wall(&st.table, me.rect.centre, st.stands[*e].rect.centre))
        {
            return Some(("behind a wall".into(), "FMT-MELEE-21"));
        }
        if let Some(h) = self.hill_at(&st.table, s.rect.centre)
            && !foes.is_empty()
            && foes.iter().all(|e| self.hill_at(&st.table, st.stands[*e].rect.centre) != Some(h))
        {
            return Some(("on a hill".into(), "FMT-MELEE-20"));
        }
        None
    }

    /// The missile a stand may use in the fire phase, with its range.
    pub fn missile(&self, s: &Stand) -> Option<(WeaponKind, f64)> {
        let w = match self.weapon(s) {
            WeaponKind::None if s.fire_and_charge && self.troop(s).fire_and_charge => {
                WeaponKind::Javelin
            }
            WeaponKind::None => return None,
            w => w,
        };
        self.data.weapon(w).map(|x| (w, x.range))
    }

    /// Whether the stand is in melee contact or frozen in a melee.
    pub fn engaged(&self, st: &State, s: &Stand) -> bool {
        s.frozen || !self.enemies_touching(st, s.id).is_empty()
    }

    /// Whether a stand may shoot this fire phase (FMT-FIRE-01, FMT-FIRE-03, FMT-FIRE-12,
    /// FMT-R-35).
    pub fn may_shoot(&self, st: &State, s: &Stand) -> Result<(WeaponKind, f64), Refusal> {
        if !s.on_table {
            return Err(refuse("FMT-ROS-04", format!("{} is no longer on the table", s.name)));
        }
        let Some(m) = self.missile(s) else {
            return Err(refuse(
                "FMT-FIRE-01",
                format!(
                    "{} has no missiles (heavy infantry throw javelins only in a Fire and Charge)",
                    s.name
                ),
            ));
        };
        if self.engaged(st, s) {
            // A stand that charged into contact is too busy charging to shoot (FMT-FIRE-10).
            let rule = if s.charged { "FMT-FIRE-10" } else { "FMT-R-35" };
            return Err(refuse(rule, format!("{} is in melee contact and cannot shoot", s.name)));
        }
        if matches!(s.morale, Morale::Broken { .. }) {
            return Err(refuse("FMT-FIRE-12", format!("{} is shaken and cannot shoot", s.name)));
        }
        Ok(m)
    }

    /// Whether `shooter` may shoot at `target` (FMT-R-35, FMT-DEF-05, FMT-DEF-06, FMT-FC-07).
    pub fn may_target(&self, st: &State, shooter: &Stand, target: &Stand) -> Result<(), Refusal> {
        // The checks that look at one pair come first, those that look round the whole table
        // (is either stand in contact?) only for a pair in range.
        let Some((w, range)) = self.missile(shooter) else {
            return self.may_shoot(st, shooter).map(|_| ());
        };
        if !target.on_table || target.side == shooter.side {
            return Err(refuse("FMT-R-35", "the target must be an enemy stand on the table"));
        }
        let edge = Rect::from_front_centre(
            shooter.rect.front_centre(),
            shooter.rect.facing,
            shooter.rect.width,
            1e-6,
        );
        if !edge.within(&target.rect, range + SLACK) {
            let d = edge.distance(&target.rect);
            return Err(refuse(
                "FMT-FIRE-02",
                format!(
                    "{} is {}\" away; the range is {}\"",
                    target.name,
                    crate::geom::fmt_in(d),
                    range
                ),
            ));
        }
        self.may_shoot(st, shooter)?;
        if self.engaged(st, target) {
            return Err(refuse(
                "FMT-R-35",
                format!("{} is in melee contact and cannot be shot at", target.name),
            ));
        }
        let o = shooter.rect.front_centre();
        let seen = target
            .rect
            .corners()
            .iter()
            .chain(std::iter::once(&target.rect.centre))
            .any(|p| direction_sector(shooter.rect.facing, *p - o) == Sector::Front);
        if !seen {
            return Err(refuse(
                "FMT-R-35",
                format!("{} is outside {}'s front arc", target.name, shooter.name),
            ));
        }
        let houses = self.data.weapon(w).is_some_and(|x| x.houses);
        let in_house =
            |s: &Stand| self.infantry(s) && self.house_at(&st.table, s.rect.centre).is_some();
        if !houses && (in_house(shooter) || in_house(target)) {
            return Err(refuse(
                "FMT-DEF-06",
                "javelins have no effect from a house or at men inside one; only bowmen shoot there",
            ));
        }
        if shooter.fire_and_charge
            && self.weapon(shooter) == WeaponKind::None
            && (target.square.is_some()
                || in_house(target)
                || self.covered_by_wall(st, shooter, target))
        {
            return Err(refuse(
                "FMT-FC-07",
                "no Fire and Charge against a defensive position (a hill excepted)",
            ));
        }
        let aim = target.rect.to_world(clamp_local(&target.rect, o));
        for s in st.stands.iter().filter(|s| s.on_table && s.id != shooter.id && s.id != target.id)
        {
            if segment_hits_rect(o, aim, &s.rect) {
                return Err(refuse("FMT-R-35", format!("{} stands in the line of fire", s.name)));
            }
        }
        let own_house = self.house_at(&st.table, shooter.rect.centre);
        let their_house = self.house_at(&st.table, target.rect.centre);
        for (h, a) in st.table.areas.iter().enumerate() {
            if a.kind == tabletop::terrain::AreaKind::Village
                && Some(h) != own_house
                && Some(h) != their_house
                && a.polygon.length_inside(o, aim) > SLACK
            {
                return Err(refuse(
                    "FMT-R-35",
                    format!(
                        "{} stands in the line of fire",
                        if a.name.is_empty() { "a house" } else { &a.name }
                    ),
                ));
            }
        }
        Ok(())
    }

    fn covered_by_wall(&self, st: &State, shooter: &Stand, target: &Stand) -> bool {
        self.crosses_wall(&st.table, shooter.rect.front_centre(), target.rect.centre)
    }

    /// The row of the killing table a volley uses (FMT-FIRE-05..08, FMT-DEF-01..04, FMT-R-39).
    pub fn kill_row(
        &self,
        st: &State,
        shooter: &Stand,
        target: &Stand,
    ) -> (String, Kill, Vec<RuleId>) {
        let k = &self.data.killing;
        let class = self.troop(target).class;
        let hill = self.hill_at(&st.table, target.rect.centre);
        let cover = (self.infantry(target)
            && self.house_at(&st.table, target.rect.centre).is_some())
            || self.covered_by_wall(st, shooter, target)
            || (hill.is_some() && self.hill_at(&st.table, shooter.rect.centre) != hill);
        let flank = {
            let f = target.rect.front_centre();
            (shooter.rect.front_centre() - f).dot(target.rect.facing.vector()) < 0.0
        };
        let fc = shooter.fire_and_charge && self.weapon(shooter) == WeaponKind::None;
        let mut rules = vec![
            RuleId::new("FMT-FIRE-01"),
            RuleId::new("FMT-FIRE-02"),
            RuleId::new("FMT-FIRE-04"),
        ];
        if self.weapon(shooter) == WeaponKind::Bow {
            rules.push(RuleId::new("FMT-FIRE-08"));
            let in_house = |s: &Stand| self.house_at(&st.table, s.rect.centre).is_some();
            if in_house(shooter) || in_house(target) {
                rules.push(RuleId::new("FMT-DEF-05"));
            }
        }
        if fc {
            rules.push(RuleId::new("FMT-FC-03"));
        }
        let (row, kill) = if cover {
            rules.push(RuleId::new("FMT-DEF-01"));
            rules.push(RuleId::new(if class == Class::Light {
                "FMT-DEF-02"
            } else {
                "FMT-DEF-03"
            }));
            rules.push(RuleId::new("FMT-DEF-04"));
            if fc {
                rules.push(RuleId::new("FMT-DEF-07"));
                rules.push(RuleId::new("FMT-FC-07"));
            }
            (
                format!("{} target in a defensive position", name(class)),
                if class == Class::Light { &k.light_cover } else { &k.heavy_cover },
            )
        } else if flank {
            rules.push(RuleId::new(if class == Class::Light {
                "FMT-FIRE-05"
            } else {
                "FMT-FIRE-07"
            }));
            rules.push(RuleId::new("FMT-R-39"));
            (
                format!("{} target shot in flank or rear", name(class)),
                if class == Class::Light { &k.light_flank } else { &k.heavy_flank },
            )
        } else {
            rules.push(RuleId::new(if class == Class::Light {
                "FMT-FIRE-05"
            } else {
                "FMT-FIRE-06"
            }));
            (
                format!("{} target in the open, from its front", name(class)),
                if class == Class::Light { &k.light_front } else { &k.heavy_front },
            )
        };
        if target.square.is_some() {
            rules.push(RuleId::new("FMT-SQ-04"));
        }
        (row, kill.clone(), rules)
    }

    /// Whether a stand may be rearranged after the bell (FMT-REARR-01, FMT-R-33).
    pub fn may_rearrange(&self, st: &State, s: &Stand) -> Result<(), Refusal> {
        if !s.on_table {
            return Err(refuse("FMT-ROS-04", format!("{} is no longer on the table", s.name)));
        }
        if self.engaged(st, s) {
            return Err(refuse(
                "FMT-REARR-03",
                format!("{} is in melee contact: it fights where it stands", s.name),
            ));
        }
        if let Some(e) = self.in_missile_range(st, s) {
            return Err(refuse(
                "FMT-REARR-03",
                format!(
                    "{} is within missile range of {}: it fights where it stands",
                    s.name, st.stands[e].name
                ),
            ));
        }
        if matches!(s.morale, Morale::Broken { .. }) {
            return Err(refuse(
                "FMT-MOR-04",
                format!("{} is shaken and stays with its back to the enemy", s.name),
            ));
        }
        if s.square.is_some() {
            return Err(refuse(
                "FMT-SQ-08",
                format!("{} is in a square, re-formed as a whole", s.name),
            ));
        }
        Ok(())
    }

    /// An enemy within missile range of the stand, either way (FMT-R-33).
    pub fn in_missile_range(&self, st: &State, s: &Stand) -> Option<StandId> {
        let own = self.missile_reach(s);
        st.stands_of(s.side.other())
            .find(|e| e.rect.within(&s.rect, own.max(self.missile_reach(e)) + SLACK))
            .map(|e| e.id)
    }

    /// How far a stand could ever shoot: its missile's range, or javelin range for heavy
    /// infantry (a Fire and Charge).
    fn missile_reach(&self, s: &Stand) -> f64 {
        let w = match self.weapon(s) {
            WeaponKind::None if self.troop(s).fire_and_charge => WeaponKind::Javelin,
            w => w,
        };
        self.data.weapon(w).map_or(-1.0, |x| x.range)
    }

    /// The distance of a point from a side's own table edge.
    pub fn from_edge(&self, st: &State, side: Side, p: tabletop::Point) -> f64 {
        match st.side(side).edge {
            crate::state::Edge::South => p.y,
            crate::state::Edge::North => st.table.height - p.y,
            crate::state::Edge::West => p.x,
            crate::state::Edge::East => st.table.width - p.x,
        }
    }

    /// Whether a rearrangement of `s` to `to` is allowed (FMT-REARR-02, FMT-R-33).
    pub fn check_rearrangement(&self, st: &State, s: &Stand, to: &Rect) -> Result<(), Refusal> {
        self.may_rearrange(st, s)?;
        let m = self.measure(st, s, &s.rect, to, Gait::Single)?;
        let normal = self.troop(s).normal;
        if m.cost > normal + SLACK {
            return Err(refuse(
                "FMT-R-33",
                format!("a rearrangement is at most one normal move ({normal}\")"),
            ));
        }
        let before = self.nearest_enemy_gap(st, s.side, &s.rect);
        let after = self.nearest_enemy_gap(st, s.side, to);
        if after + SLACK < before {
            return Err(refuse(
                "FMT-REARR-02",
                "a rearrangement may not move nearer the enemy: sideways or back only",
            ));
        }
        if self.from_edge(st, s.side.other(), to.centre) + SLACK
            < self.from_edge(st, s.side.other(), s.rect.centre)
        {
            return Err(refuse(
                "FMT-REARR-02",
                "a rearrangement may not move nearer the enemy's edge",
            ));
        }
        if let Some(o) = self.overlapping(st, to, &[s.id]) {
            return Err(refuse(
                "FMT-R-33",
                format!("{} would stand on {}", s.name, st.stands[o].name),
            ));
        }
        Ok(())
    }
}

fn name(c: Class) -> &'static str {
    match c {
        Class::Light => "light",
        Class::Heavy => "heavy",
    }
}

fn clamp_local(r: &Rect, p: tabletop::Point) -> Vec2 {
    let l = r.to_local(p);
    Vec2::new(l.x.clamp(-r.width / 2.0, r.width / 2.0), l.y.clamp(-r.depth / 2.0, r.depth / 2.0))
}

/// Whether the segment `a`–`b` passes through the inside of a rectangle.
pub fn segment_hits_rect(a: tabletop::Point, b: tabletop::Point, r: &Rect) -> bool {
    let (la, lb) = (r.to_local(a), r.to_local(b));
    let (hw, hd) = (r.width / 2.0 - 1e-6, r.depth / 2.0 - 1e-6);
    // Liang–Barsky clipping against the shrunk box.
    let d = lb - la;
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (p, q) in [(-d.x, la.x + hw), (d.x, hw - la.x), (-d.y, la.y + hd), (d.y, hd - la.y)] {
        if p.abs() < 1e-15 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    t0 < t1
}

/// The loser's and the winner's losses: half the loser's counted points, rounded up, and half
/// of that, rounded up (FMT-MELEE-05, FMT-MELEE-06, FMT-R-18).
pub fn melee_losses(loser_points: u32) -> (u32, u32) {
    let l = loser_points.div_ceil(2);
    (l, l.div_ceil(2))
}

/// The pull-out penalty: `percent` of the points, rounded half up, at least 1 and at most all
/// (FMT-MELEE-24, FMT-R-18).
pub fn pull_out_penalty(points: u32, percent: u32) -> u32 {
    ((points * percent + 50) / 100).max(1).min(points)
}

/// Shock kills: one for every full `per` points of heavy cavalry (FMT-SHOCK-02).
pub fn shock_kills(points: u32, per: u32) -> u32 {
    points / per.max(1)
}

/// Spreads `loss` points over stands in proportion to their points (largest remainder; ties to
/// the stand with more points, then the lower ID), never more than a stand has (FMT-R-19).
pub fn spread(stands: &[(StandId, u32)], loss: u32) -> Vec<(StandId, u32)> {
    let total: u32 = stands.iter().map(|s| s.1).sum();
    let loss = loss.min(total);
    if total == 0 || loss == 0 {
        return Vec::new();
    }
    let mut out: Vec<(StandId, u32, u64, u32)> = stands
        .iter()
        .map(|(id, p)| {
            let exact = *p as u64 * loss as u64;
            (*id, (exact / total as u64) as u32, exact % total as u64, *p)
        })
        .collect();
    let mut left = loss - out.iter().map(|x| x.1).sum::<u32>();
    let mut order: Vec<usize> = (0..out.len()).collect();
    order.sort_by(|a, b| {
        out[*b].2.cmp(&out[*a].2).then(out[*b].3.cmp(&out[*a].3)).then(out[*a].0.cmp(&out[*b].0))
    });
    while left > 0 {
        let mut gave = false;
        for &i in &order {
            if left > 0 && out[i].1 < out[i].3 {
                out[i].1 += 1;
                left -= 1;
                gave = true;
            }
        }
        if !gave {
            break;
        }
    }
    out.into_iter().filter(|x| x.1 > 0).map(|x| (x.0, x.1)).collect()
}

impl Run<'_> {
    /// After a bell that ended the move normally: rearrangement, then the fire phase.
    pub fn after_window(&mut self) {
        // One look at every stand: may it be tidied, or must it fight where it stands?
        let mut any = false;
        let mut held: Vec<String> = Vec::new();
        for s in self.st.stands.iter().filter(|s| s.on_table) {
            match self.rules.may_rearrange(self.st, s) {
                Ok(()) => any = true,
                Err(r) if r.rule.as_str() == "FMT-REARR-03" => held.push(s.name.clone()),
                Err(_) => {}
            }
        }
        self.note_stands(
            &held,
            "in melee contact or within missile range, these fight where they stand",
            "FMT-REARR-03",
        );
        if any {
            self.emit(Event::PhaseBegun { phase: Phase::Rearrange { orders: [None, None] } });
        } else {
            self.fire_phase();
        }
    }

    /// Notes a rule that holds for these stands, if there are any.
    fn note_stands(&mut self, names: &[String], what: &str, rule: &'static str) {
        if !names.is_empty() {
            self.emit(Event::Noted {
                text: format!("{what}: {}", names.join(", ")),
                rules: vec![RuleId::new(rule)],
            });
        }
    }

    /// Both rearrangements are in: carry them out, red's first (FMT-REARR-01, FMT-R-33).
    pub fn rearrange(&mut self, orders: [Vec<Placement>; 2]) {
        for moves in orders {
            for m in moves {
                let Some(s) = self.st.live(m.stand).cloned() else { continue };
                let to = self.rules.footprint(m.to, Facing::from_bearing_degrees(m.facing));
                match self.rules.check_rearrangement(self.st, &s, &to) {
                    Ok(()) => self.emit(Event::Rearranged {
                        stand: s.id,
                        who: s.name.clone(),
                        from: s.rect,
                        to,
                    }),
                    Err(r) => self.emit(Event::NotRearranged {
                        stand: s.id,
                        who: s.name.clone(),
                        why: r.reason,
                        rule: r.rule,
                    }),
                }
            }
        }
        self.fire_phase();
    }

    fn fire_phase(&mut self) {
        // Javelin men with a target only in a house may not throw at it (FMT-DEF-06).
        let barred: Vec<String> = self
            .st
            .stands
            .iter()
            .filter(|s| s.on_table && self.rules.may_shoot(self.st, s).is_ok())
            .filter(|s| {
                self.st.stands_of(s.side.other()).any(|e| {
                    self.rules
                        .may_target(self.st, s, e)
                        .is_err_and(|r| r.rule.as_str() == "FMT-DEF-06")
                })
            })
            .map(|s| s.name.clone())
            .collect();
        self.note_stands(
            &barred,
            "javelins have no effect at men in a house or from one",
            "FMT-DEF-06",
        );
        let shoot = Side::BOTH.map(|s| self.rules.has_targets(self.st, s));
        if shoot.iter().any(|x| *x) {
            // A side with nothing to shoot at has handed in its (empty) targets already.
            let orders = shoot.map(|x| (!x).then(Vec::new));
            self.emit(Event::PhaseBegun { phase: Phase::Fire { orders } });
        } else {
            self.combat(Vec::new());
        }
    }

    /// Fire, the bowmen's morale, Fire and Charge and the melees (FMT-R-30 steps 5 to 8).
    pub fn combat(&mut self, targets: Vec<(StandId, StandId)>) {
        // (5) All fire at once: every volley is judged, then the kills are recorded together.
        let mut hits: Vec<(StandId, StandId)> = Vec::new();
        let mut bow_pairs: Vec<(StandId, StandId)> = Vec::new();
        let mut throws: Vec<(StandId, StandId)> = Vec::new();
        for (a, b) in &targets {
            let (sa, sb) = (self.st.stands[*a].clone(), self.st.stands[*b].clone());
            if self.rules.may_target(self.st, &sa, &sb).is_err() {
                continue;
            }
            let (row, kill, mut rules) = self.rules.kill_row(self.st, &sa, &sb);
            rules.insert(0, RuleId::new("FMT-FIRE-03"));
            rules.insert(0, RuleId::new("FMT-SEQ-01"));
            let (roll, hit) = match kill.faces() {
                None => (None, true),
                Some(faces) => {
                    let r = self.d6(format!("{}'s volley at {}", sa.name, sb.name), "FMT-FIRE-06");
                    let hit = faces.contains(&r.value);
                    (Some(r), hit)
                }
            };
            let weapon = match self.rules.missile(&sa) {
                Some((WeaponKind::Bow, _)) => "bows",
                _ => "javelins",
            };
            self.emit(Event::Shot {
                shooter: sa.id,
                target: sb.id,
                names: (sa.name.clone(), sb.name.clone()),
                weapon: weapon.into(),
                row,
                roll,
                hit,
                rules,
            });
            if hit {
                hits.push((sa.id, sb.id));
            }
            if self.rules.weapon(&sa) == WeaponKind::Bow
                && self.rules.weapon(&sb) == WeaponKind::Bow
            {
                bow_pairs.push((sa.id, sb.id));
            }
            if sa.fire_and_charge && self.rules.weapon(&sa) == WeaponKind::None {
                throws.push((sa.id, sb.id));
            }
        }
        let mut by_target: Vec<(StandId, u32)> = Vec::new();
        for (_, t) in &hits {
            match by_target.iter_mut().find(|x| x.0 == *t) {
                Some(x) => x.1 += 1,
                None => by_target.push((*t, 1)),
            }
        }
        by_target.sort();
        for (t, n) in by_target {
            self.kill(t, n, "missile fire", "FMT-FIRE-04");
        }
        // Fire and Charge flags without a throw lapse (FMT-R-22).
        let flagged: Vec<StandId> = self
            .st
            .stands
            .iter()
            .filter(|s| s.on_table && s.fire_and_charge)
            .map(|s| s.id)
            .collect();
        for id in flagged {
            if !throws.iter().any(|(a, _)| *a == id)
                && !self.rules.engaged(self.st, &self.st.stands[id])
            {
                let who = self.st.stands[id].name.clone();
                self.emit(Event::Lapsed {
                    stand: id,
                    who,
                    why: "no enemy in reach of its javelins".into(),
                });
            }
        }
        // (6) The bowmen's morale (FMT-MOR-01, FMT-FIRE-13).
        self.bowmen_morale(&bow_pairs);
        // (7) Fire and Charge stands are put into contact (FMT-FC-04).
        let mut fc: Vec<StandId> = Vec::new();
        for (a, b) in throws {
            let (Some(sa), Some(sb)) = (self.st.live(a).cloned(), self.st.live(b).cloned()) else {
                continue;
            };
            if self.rules.engaged(self.st, &sa) {
                continue;
            }
            let Some(to) = self.rules.charge_spot(self.st, &sa, &sb) else {
                let who = sa.name.clone();
                self.emit(Event::Lapsed {
                    stand: a,
                    who,
                    why: format!("no room to charge home on {}", sb.name),
                });
                continue;
            };
            self.emit(Event::Charged {
                stand: a,
                who: sa.name.clone(),
                target: b,
                from: sa.rect,
                to,
            });
            fc.push(a);
        }
        // (8) The melees.
        self.melees(&fc);
    }

    /// Records kills against a stand and removes it at 0 (FMT-ROS-03, FMT-ROS-04).
    pub fn kill(&mut self, id: StandId, n: u32, cause: &str, rule: &'static str) {
        let s = &self.st.stands[id];
        if !s.on_table || n == 0 {
            return;
        }
        let n = n.min(self.rules.points(s));
        let who = s.name.clone();
        let left = self.rules.points(s).saturating_sub(n);
        self.emit(Event::Killed {
            left,
            stand: id,
            who: who.clone(),
            kills: n,
            cause: cause.into(),
            rule: RuleId::new(rule),
        });
        if self.rules.points(&self.st.stands[id]) == 0 {
            self.emit(Event::Removed {
                stand: id,
                who,
                why: "its points are gone".into(),
                rule: RuleId::new("FMT-ROS-04"),
            });
            self.square_broken_by(id, "a stand of it is destroyed");
        }
    }

    fn square_broken_by(&mut self, id: StandId, why: &str) {
        if let Some(q) = self.st.stands[id].square {
            self.emit(Event::SquareGone {
                square: q,
                why: why.into(),
                rule: RuleId::new("FMT-SQ-06"),
            });
        }
    }

    fn bowmen_morale(&mut self, pairs: &[(StandId, StandId)]) {
        // Bowmen joined by volleys between them form one test.
        let mut comps: Vec<Vec<StandId>> = Vec::new();
        for (a, b) in pairs {
            let ia = comps.iter().position(|c| c.contains(a));
            let ib = comps.iter().position(|c| c.contains(b));
            match (ia, ib) {
                (None, None) => comps.push(vec![*a, *b]),
                (Some(i), None) => comps[i].push(*b),
                (None, Some(j)) => comps[j].push(*a),
                (Some(i), Some(j)) if i != j => {
                    let take = comps.remove(i.max(j));
                    comps[i.min(j)].extend(take);
                }
                _ => {}
            }
        }
        for c in comps {
            let live: Vec<StandId> =
                c.into_iter().filter(|i| self.st.stands[*i].on_table).collect();
            let of = |side: Side, st: &State| -> Vec<StandId> {
                live.iter().copied().filter(|i| st.stands[*i].side == side).collect()
            };
            let (red, blue) = (of(Side::Red, self.st), of(Side::Blue, self.st));
            if red.is_empty() || blue.is_empty() {
                continue;
            }
            let pts = |v: &[StandId], st: &State| -> u32 {
                v.iter().map(|i| self.rules.points(&st.stands[*i])).sum()
            };
            let (rp, bp) = (pts(&red, self.st), pts(&blue, self.st));
            let (mut rr, mut br) = (Vec::new(), Vec::new());
            let loser = loop {
                let a = self.d6("red bowmen's morale", "FMT-MOR-01");
                let b = self.d6("blue bowmen's morale", "FMT-MOR-01");
                let (x, y) = (a.value as u32 * rp, b.value as u32 * bp);
                rr.push(a);
                br.push(b);
                if x != y {
                    break if x < y { Side::Red } else { Side::Blue };
                }
            };
            self.emit(Event::BowmenMorale {
                red: (red.clone(), rp, rr),
                blue: (blue.clone(), bp, br),
                loser,
            });
            let losers = if loser == Side::Red { red } else { blue };
            let winners: Vec<StandId> =
                live.iter().copied().filter(|i| self.st.stands[*i].side != loser).collect();
            for id in losers {
                let away = self.away_from(id, &winners);
                let m = self.rules.data.rules.melee.retreat_moves;
                self.retreat(
                    id,
                    m,
                    away,
                    vec![RuleId::new("FMT-MOR-01"), RuleId::new("FMT-MOR-03")],
                );
            }
        }
    }

    /// The direction straight away from the given enemies (their centres' mean), or away from
    /// the nearest enemy, or towards the stand's own edge (FMT-R-32).
    fn away_from(&self, id: StandId, from: &[StandId]) -> Vec2 {
        let s = &self.st.stands[id];
        let c = s.rect.centre;
        let mut v = Vec2::ZERO;
        for e in from {
            if let Some(d) = (c - self.st.stands[*e].rect.centre).normalized() {
                v += d;
            }
        }
        if let Some(v) = v.normalized() {
            return v;
        }
        if let Some(e) = self.st.stands_of(s.side.other()).min_by(|a, b| {
            a.rect.distance(&s.rect).total_cmp(&b.rect.distance(&s.rect)).then(a.id.cmp(&b.id))
        }) && let Some(d) = (c - e.rect.centre).normalized()
        {
            return d;
        }
        match self.st.side(s.side).edge {
            crate::state::Edge::South => Vec2::new(0.0, -1.0),
            crate::state::Edge::North => Vec2::new(0.0, 1.0),
            crate::state::Edge::West => Vec2::new(-1.0, 0.0),
            crate::state::Edge::East => Vec2::new(1.0, 0.0),
        }
    }

    /// A retreat of `moves` normal moves in the direction `dir`, ending with its back to the
    /// enemy; through friends, stopping short of enemies and water; off the table is lost
    /// (FMT-MOR-03, FMT-R-32).
    pub fn retreat(&mut self, id: StandId, moves: u32, dir: Vec2, mut rules: Vec<RuleId>) {
        let morale = Morale::Broken { roll_from: self.st.game_move + 2 };
        self.retreat_as(id, moves, dir, &mut rules, morale);
    }

    /// A retreat that leaves the stand with the given morale.
    pub fn retreat_as(
        &mut self,
        id: StandId,
        moves: u32,
        dir: Vec2,
        rules: &mut Vec<RuleId>,
        morale: Morale,
    ) {
        let mut rules = std::mem::take(rules);
        let Some(s) = self.st.live(id).cloned() else { return };
        let facing = Facing::from_vector(dir).unwrap_or(s.rect.facing.reversed());
        let start = self.rules.footprint(s.rect.centre, facing);
        let dist = moves as f64 * self.rules.troop(&s).normal;
        let d = facing.vector() * dist;
        let touching = self.rules.enemies_touching(self.st, id);
        let mut t_end = 1.0;
        if let Some((t, _)) = self.rules.first_touch(self.st, s.side, &start, d, &touching) {
            t_end = (t - 2.0 * self.rules.eps() / dist).max(0.0);
        }
        // Water and the table's edge, in quarter-inch steps.
        let steps = (dist / 0.25).ceil().max(1.0) as usize;
        let mut off = false;
        for k in 1..=steps {
            let t = k as f64 / steps as f64;
            if t > t_end {
                break;
            }
            let r = start.translated(d * t);
            if !self.st.table.contains_rect(&r) {
                off = true;
                t_end = t;
                break;
            }
            let wet = self.st.table.lines.iter().enumerate().any(|(j, l)| {
                matches!(
                    l.kind,
                    tabletop::terrain::LineKind::River | tabletop::terrain::LineKind::Stream
                ) && self.st.table.rect_overlaps_band_outside_crossings(&r, j)
            });
            if wet {
                t_end = (k - 1) as f64 / steps as f64;
                break;
            }
        }
        rules.push(RuleId::new("FMT-R-32"));
        if off {
            let to = start.translated(d * t_end);
            self.emit(Event::Retreated {
                stand: id,
                who: s.name.clone(),
                from: s.rect,
                to,
                moves,
                morale,
                rules,
            });
            self.emit(Event::Removed {
                stand: id,
                who: s.name.clone(),
                why: "it fell back off the table".into(),
                rule: RuleId::new("FMT-R-32"),
            });
            self.square_broken_by(id, "a stand of it is driven back");
            return;
        }
        // Not on a friend at the end: back along the way until clear.
        let mut t = t_end;
        let mut to = start.translated(d * t);
        while t > 0.0 && self.rules.overlapping(self.st, &to, &[id]).is_some() {
            t = (t - 0.25 / dist).max(0.0);
            to = start.translated(d * t);
        }
        if self.rules.overlapping(self.st, &to, &[id]).is_some() {
            // Hemmed in so that even turning about where it stands would put it on a
            // neighbour: it stays as it stood.
            to = if self.rules.overlapping(self.st, &start, &[id]).is_some() {
                s.rect
            } else {
                start
            };
        }
        self.emit(Event::Retreated {
            stand: id,
            who: s.name.clone(),
            from: s.rect,
            to,
            moves,
            morale,
            rules,
        });
        self.square_broken_by(id, "a stand of it is driven back");
    }

    /// Every melee on the table, each judged in turn (FMT-MELEE-01..21).
    fn melees(&mut self, fc: &[StandId]) {
        let groups = self.rules.groups(self.st);
        // Pre-melee kills of every first round, at once (FMT-SEQ-02).
        let mut plans: Vec<(Group, Round, Option<String>)> = Vec::new();
        for g in groups {
            let round2 = g.prior.iter().any(|m| {
                self.st.melees.iter().any(|x| x.id == *m && x.round_two <= self.st.game_move)
            });
            let single = self.single_reason(&g, fc);
            let round = if round2 {
                Round::Second
            } else if single.is_some() {
                Round::Single
            } else if !g.prior.is_empty() {
                // A melee postponed by "Time" waits for its round 2.
                continue;
            } else {
                Round::First
            };
            plans.push((g, round, single));
        }
        let mut pre: Vec<(StandId, u32, &'static str, &'static str)> = Vec::new();
        for (g, round, _) in &plans {
            if matches!(round, Round::First | Round::Single) {
                pre.extend(self.pre_melee(g, fc));
            }
        }
        if !pre.is_empty() {
            let mut rules = vec![RuleId::new("FMT-SEQ-02")];
            if pre.iter().any(|p| p.3 == "FMT-SHOCK-02") {
                rules.extend([RuleId::new("FMT-SHOCK-01"), RuleId::new("FMT-SHOCK-03")]);
            }
            self.emit(Event::Noted {
                text: format!(
                    "{} kill(s) of shock and close-range volleys come off before the melee dice",
                    pre.iter().map(|p| p.1).sum::<u32>()
                ),
                rules,
            });
        }
        for (id, n, cause, rule) in pre {
            self.kill(id, n, cause, rule);
        }
        let mut settled: Vec<(Side, Vec<StandId>)> = Vec::new();
        let mut continuing = Vec::new();
        for (g, round, single) in plans {
            let id = g.prior.first().copied().unwrap_or(self.st.next_id);
            if let Some((winner, stands)) = self.fight(id, &g, round, single) {
                match round {
                    Round::First => continuing.push(id),
                    _ => settled.push((winner, stands)),
                }
            }
        }
        if !continuing.is_empty() {
            self.emit(Event::PhaseBegun {
                phase: Phase::PullOut { melees: continuing, orders: [None, None], settled },
            });
            return;
        }
        self.bonus_from(settled, 0);
    }

    fn single_reason(&self, g: &Group, fc: &[StandId]) -> Option<String> {
        if g.members.iter().any(|i| fc.contains(i)) {
            return Some("a Fire and Charge melee is fought in one round (FMT-FC-06)".into());
        }
        for i in &g.members {
            let s = &self.st.stands[*i];
            if s.square.is_some() {
                return Some(format!("{} is in square (FMT-SQ-09)", s.name));
            }
            if let Some((why, _)) = self.rules.defensive(self.st, s, None)
                && why != "on a hill"
            {
                return Some(format!("{} is {why} (FMT-MELEE-18)", s.name));
            }
        }
        None
    }

    /// Shock and the close-range kills of a first round (FMT-SHOCK-01..05, FMT-FIRE-09..12,
    /// FMT-R-20, FMT-R-21).
    fn pre_melee(
        &mut self,
        g: &Group,
        fc: &[StandId],
    ) -> Vec<(StandId, u32, &'static str, &'static str)> {
        let mut out = Vec::new();
        let mut notes: Vec<(String, &'static str)> = Vec::new();
        for i in &g.members {
            let s = &self.st.stands[*i];
            if !(self.rules.troop(s).shock && s.charged && g.front.contains(&s.id)) {
                continue;
            }
            if s.uphill {
                notes.push((format!("{} charged up the hill: no shock", s.name), "FMT-SHOCK-04"));
            } else if self
                .rules
                .enemies_touching(self.st, s.id)
                .iter()
                .any(|e| self.st.stands[*e].square.is_some())
            {
                notes.push((format!("{} charged a square: no shock", s.name), "FMT-SHOCK-05"));
            }
        }
        for side in Side::BOTH {
            let hc: Vec<&Stand> = g
                .members
                .iter()
                .map(|i| &self.st.stands[*i])
                .filter(|s| {
                    s.side == side
                        && self.rules.troop(s).shock
                        && s.charged
                        && g.front.contains(&s.id)
                })
                .filter(|s| !s.uphill)
                .filter(|s| {
                    self.rules
                        .enemies_touching(self.st, s.id)
                        .iter()
                        .all(|e| self.st.stands[*e].square.is_none())
                })
                .collect();
            let total: u32 = hc.iter().map(|s| self.rules.points(s)).sum();
            let kills = shock_kills(total, self.rules.data.rules.melee.shock_points);
            if kills > 0 {
                let mut touched: Vec<StandId> = Vec::new();
                for s in &hc {
                    for e in self.rules.enemies_touching(self.st, s.id) {
                        if !touched.contains(&e) {
                            touched.push(e);
                        }
                    }
                }
                touched.sort();
                let pts: Vec<(StandId, u32)> =
                    touched.iter().map(|i| (*i, self.rules.points(&self.st.stands[*i]))).collect();
                for (id, n) in spread(&pts, kills) {
                    out.push((id, n, "shock of heavy cavalry", "FMT-SHOCK-02"));
                }
            }
        }
        for i in &g.members {
            let s = &self.st.stands[*i];
            let missile = matches!(self.rules.weapon(s), WeaponKind::Javelin | WeaponKind::Bow);
            let Some(att) = s.attacked_by else { continue };
            if missile && !s.charged && matches!(s.morale, Morale::Broken { .. }) {
                notes.push((
                    format!(
                        "{} is shaken: no close-range volley, but it fights at its full points",
                        s.name
                    ),
                    "FMT-FIRE-12",
                ));
            }
            if !missile
                || s.charged
                || matches!(s.morale, Morale::Broken { .. })
                || !self.st.stands[att].on_table
            {
                continue;
            }
            if self.st.close_range_die {
                let name = s.name.clone();
                let r = self.d6(format!("{name}'s close-range volley"), "FMT-FIRE-11");
                // The variant's die is told in the log, whichever way it falls.
                self.emit(Event::Noted {
                    text: format!(
                        "{name}'s close-range volley: die {}{}",
                        r.value,
                        if r.value == 1 { ", no kill" } else { ", it fires" }
                    ),
                    rules: vec![RuleId::new("FMT-FIRE-11")],
                });
                if r.value == 1 {
                    continue;
                }
            }
            if fc.contains(&att) {
                // The target of a Fire and Charge shoots back (FMT-FC-05, FMT-R-23).
                out.push((att, 1, "the return volley of the missile men it charged", "FMT-FC-05"));
            } else {
                out.push((
                    att,
                    1,
                    "close-range volley of the missile men it attacked",
                    "FMT-FIRE-09",
                ));
            }
        }
        for (text, rule) in notes {
            let mut rules = vec![RuleId::new(rule)];
            if rule == "FMT-FIRE-12" {
                rules.push(RuleId::new("FMT-MOR-05"));
            }
            self.emit(Event::Noted { text, rules });
        }
        out
    }

    /// Judges one melee round; returns the winner and its stands, or `None` if no melee was
    /// left to fight.
    fn fight(
        &mut self,
        id: u32,
        g: &Group,
        round: Round,
        single: Option<String>,
    ) -> Option<(Side, Vec<StandId>)> {
        let members: Vec<StandId> =
            g.members.iter().copied().filter(|i| self.st.stands[*i].on_table).collect();
        let front: Vec<StandId> = members
            .iter()
            .copied()
            .filter(|i| !self.rules.enemies_touching(self.st, *i).is_empty())
            .collect();
        let counted = |side: Side, st: &State| -> Vec<(StandId, Option<StandId>)> {
            let mut v: Vec<(StandId, Option<StandId>)> = Vec::new();
            for i in &members {
                let s = &st.stands[*i];
                if s.side != side {
                    continue;
                }
                let in_front = front.contains(i);
                let supporter = g.support.iter().find(|(a, _)| a == i).map(|(_, f)| *f);
                let square = s.square.is_some_and(|q| {
                    members.iter().any(|m| front.contains(m) && st.stands[*m].square == Some(q))
                });
                let count = match round {
                    Round::First => in_front || square,
                    _ => in_front || square || supporter.is_some_and(|f| front.contains(&f)),
                };
                if count {
                    v.push((*i, if in_front { None } else { supporter }));
                }
            }
            v
        };
        let (red, blue) = (counted(Side::Red, self.st), counted(Side::Blue, self.st));
        let prior =
            g.prior.first().and_then(|m| self.st.melees.iter().find(|x| x.id == *m)).cloned();
        if red.is_empty() || blue.is_empty() {
            // FMT-R-27: the loser has left; the winner takes the round by default.
            let winner = if red.is_empty() && blue.is_empty() {
                prior.as_ref().map(|m| m.winner)?
            } else if red.is_empty() {
                Side::Blue
            } else {
                Side::Red
            };
            if prior.is_some() {
                self.emit(Event::Ended {
                    melee: id,
                    why: format!(
                        "no {} stand is left in the melee area: {winner} takes round 2 by default",
                        winner.other()
                    ),
                    rule: RuleId::new("FMT-R-27"),
                    released: members.clone(),
                });
                let stands: Vec<StandId> =
                    members.iter().copied().filter(|i| self.st.stands[*i].side == winner).collect();
                return Some((winner, stands));
            }
            return None;
        }
        let side_total =
            |side: Side, list: &[(StandId, Option<StandId>)], run: &mut Run| -> MeleeSide {
                let mut stands = Vec::new();
                let (mut points, mut halves) = (0, 0);
                for (i, backs) in list {
                    let s = &run.st.stands[*i];
                    let p = run.rules.points(s);
                    let (h, why) = match run.rules.defensive(run.st, s, *backs) {
                        Some((why, _)) => (
                            p * run.rules.data.rules.melee.defensive_halves,
                            format!("{}: {p} points {why}, ×1.5", s.name),
                        ),
                        None => (p * 2, format!("{}: {p} points", s.name)),
                    };
                    let why = if backs.is_some() { format!("{why}, two deep") } else { why };
                    points += p;
                    halves += h;
                    stands.push((*i, p, h, why));
                }
                MeleeSide { side, stands, points, halves, rolls: Vec::new(), product_halves: 0 }
            };
        let mut r = side_total(Side::Red, &red, self);
        let mut b = side_total(Side::Blue, &blue, self);
        let winner = loop {
            let x: Roll = self.d6("red's melee die", "FMT-MELEE-04");
            let y: Roll = self.d6("blue's melee die", "FMT-MELEE-04");
            r.product_halves = x.value as u32 * r.halves;
            b.product_halves = y.value as u32 * b.halves;
            r.rolls.push(x);
            b.rolls.push(y);
            if r.product_halves != b.product_halves {
                break if r.product_halves > b.product_halves { Side::Red } else { Side::Blue };
            }
        };
        let (w, l) = if winner == Side::Red { (&r, &b) } else { (&b, &r) };
        let (loser_loss, winner_loss) = melee_losses(l.points);
        let mut rules = vec![
            RuleId::new("FMT-MELEE-04"),
            RuleId::new("FMT-MELEE-05"),
            RuleId::new("FMT-MELEE-06"),
            RuleId::new("FMT-MOR-02"),
            RuleId::new("FMT-ROS-05"),
            RuleId::new("FMT-R-18"),
            RuleId::new("FMT-R-19"),
        ];
        if r.rolls.len() > 1 {
            rules.push(RuleId::new("FMT-R-17"));
        }
        match round {
            Round::First => rules.extend([
                RuleId::new("FMT-MELEE-01"),
                RuleId::new("FMT-MELEE-02"),
                RuleId::new("FMT-MELEE-03"),
                RuleId::new("FMT-R-16"),
            ]),
            Round::Second => rules.extend([
                RuleId::new("FMT-MELEE-11"),
                RuleId::new("FMT-MELEE-12"),
                RuleId::new("FMT-MELEE-13"),
                RuleId::new("FMT-SHOCK-06"),
            ]),
            Round::Single => {
                rules.extend([RuleId::new("FMT-MELEE-18"), RuleId::new("FMT-MELEE-19")])
            }
            Round::Bonus => rules.extend([
                RuleId::new("FMT-MELEE-15"),
                RuleId::new("FMT-MELEE-16"),
                RuleId::new("FMT-MELEE-19"),
                RuleId::new("FMT-SHOCK-06"),
                RuleId::new("FMT-SEQ-03"),
            ]),
        }
        if [&r, &b].iter().any(|s| s.halves > s.points * 2) {
            rules.push(RuleId::new("FMT-MELEE-21"));
        }
        let why =
            |needle: &str| [&r, &b].iter().any(|s| s.stands.iter().any(|x| x.3.contains(needle)));
        if why("on a hill") {
            rules.push(RuleId::new("FMT-MELEE-20"));
        }
        if why("in square") {
            rules.extend([RuleId::new("FMT-SQ-02"), RuleId::new("FMT-SQ-03")]);
        }
        if g.support.iter().any(|(a, _)| red.iter().chain(&blue).any(|(i, _)| i == a)) {
            rules.push(RuleId::new("FMT-R-15"));
        }
        let (loser_stands, winner_stands): (Points, Points) = (
            l.stands.iter().map(|x| (x.0, x.1)).collect(),
            w.stands.iter().map(|x| (x.0, x.1)).collect(),
        );
        let loser = winner.other();
        self.emit(Event::Fought {
            melee: id,
            round: match round {
                Round::First => 1,
                Round::Second => 2,
                _ => 0,
            },
            single: single.clone(),
            red: r.clone(),
            blue: b.clone(),
            winner,
            losses: (loser_loss, winner_loss),
            rules,
        });
        for (i, n) in spread(&loser_stands, loser_loss) {
            self.kill(i, n, "losing the melee", "FMT-MELEE-05");
        }
        for (i, n) in spread(&winner_stands, winner_loss) {
            self.kill(i, n, "winning the melee", "FMT-MELEE-06");
        }
        let winners: Vec<StandId> = members
            .iter()
            .copied()
            .filter(|i| self.st.stands[*i].side == winner && self.st.stands[*i].on_table)
            .collect();
        // The loser's counted stands fall back; after a settled melee, all its stands do.
        let going: Vec<StandId> = if round == Round::First {
            loser_stands.iter().map(|x| x.0).collect()
        } else {
            members.iter().copied().filter(|i| self.st.stands[*i].side == loser).collect()
        };
        for i in going {
            if !self.st.stands[i].on_table {
                continue;
            }
            let foes: Vec<StandId> = self.rules.enemies_touching(self.st, i);
            let away = self.away_from(i, if foes.is_empty() { &winners } else { &foes });
            let mut rr = vec![RuleId::new("FMT-MELEE-07"), RuleId::new("FMT-MOR-03")];
            if round == Round::Second {
                rr.push(RuleId::new("FMT-MELEE-13"));
            }
            let m = self.rules.data.rules.melee.retreat_moves;
            self.retreat(i, m, away, rr);
        }
        if round == Round::First {
            let left: Vec<StandId> = members.iter().copied().filter(|i| {
                let s = &self.st.stands[*i];
                s.on_table && !matches!(s.morale, Morale::Broken { roll_from } if roll_from == self.st.game_move + 2 && s.side == loser && loser_stands.iter().any(|x| x.0 == *i))
            }).collect();
            self.emit(Event::Continues {
                melee: Melee { id, members: left, winner, round_two: self.st.game_move + 1 },
            });
        } else {
            let released: Vec<StandId> =
                members.iter().copied().filter(|i| self.st.stands[*i].on_table).collect();
            let rule = if round == Round::Second { "FMT-MELEE-13" } else { "FMT-MELEE-19" };
            self.emit(Event::Ended {
                melee: id,
                why: format!("{winner} has won it"),
                rule: RuleId::new(rule),
                released,
            });
        }
        Some((winner, winners))
    }

    /// Starts the bonus moves owed to the winners (FMT-MELEE-14, FMT-R-25, FMT-R-26).
    pub fn bonus_from(&mut self, settled: Vec<(Side, Vec<StandId>)>, chain: u32) {
        let mut queue: Vec<BonusDue> = Vec::new();
        let tie = self.tie();
        let mut sorted = settled;
        sorted.sort_by_key(|(s, _)| *s != tie);
        for (side, stands) in sorted {
            let free: Vec<StandId> = stands
                .into_iter()
                .filter(|i| {
                    let s = &self.st.stands[*i];
                    // A shaken winner (attacked while driven back) does not move (FMT-MOR-04).
                    s.on_table
                        && !self.rules.engaged(self.st, s)
                        && !matches!(s.morale, Morale::Broken { .. })
                })
                .collect();
            if !free.is_empty() && chain < self.rules.data.rules.melee.bonus_chain_limit {
                queue.push(BonusDue { side, stands: free, chain });
            }
        }
        if let Phase::Bonus { queue: q } = &self.st.phase {
            let mut rest = q.clone();
            if !rest.is_empty() {
                rest.remove(0);
            }
            queue.extend(rest);
        }
        if queue.is_empty() {
            self.end_of_move();
        } else {
            self.emit(Event::PhaseBegun { phase: Phase::Bonus { queue } });
        }
    }

    fn tie(&self) -> Side {
        self.st.initiative
    }

    /// A side's bonus move: each stand one normal step; any contact is fought at once
    /// (FMT-MELEE-14..17, FMT-R-26).
    pub fn bonus(&mut self, moves: Vec<Placement>) {
        let Phase::Bonus { queue } = &self.st.phase else { return };
        let due = queue[0].clone();
        let mut contacts = false;
        for m in moves {
            let Some(s) = self.st.live(m.stand).cloned() else { continue };
            let to = self.rules.footprint(m.to, Facing::from_bearing_degrees(m.facing));
            let d = to.centre - s.rect.centre;
            let end = match self.rules.first_touch(self.st, s.side, &s.rect, d, &[]) {
                Some((t, _)) if t < 1.0 => s.rect.translated(d * t),
                _ => to,
            };
            if self.rules.overlapping(self.st, &end, &[s.id]).is_some() {
                continue;
            }
            self.emit(Event::BonusMoved {
                stand: s.id,
                who: s.name.clone(),
                from: s.rect,
                to: end,
                chain: due.chain,
            });
            for e in self.rules.enemies_touching(self.st, s.id) {
                let names = (s.name.clone(), self.st.stands[e].name.clone());
                self.emit(Event::Contact { mover: s.id, met: e, names, at_ms: 0, uphill: false });
                contacts = true;
            }
        }
        let mut settled = Vec::new();
        if contacts {
            let movers = due.stands.clone();
            for g in self.rules.groups(self.st) {
                if !g.prior.is_empty() || !g.members.iter().any(|i| movers.contains(i)) {
                    continue;
                }
                let id = self.st.next_id;
                if let Some(w) = self.fight(
                    id,
                    &g,
                    Round::Bonus,
                    Some(
                        "a bonus move's melee is fought at once, in one round (FMT-MELEE-15)"
                            .into(),
                    ),
                ) {
                    settled.push(w);
                }
            }
        }
        self.bonus_from(settled, due.chain + 1);
    }

    /// Both sides' pull-out choices are in (FMT-MELEE-22..25, FMT-R-28, FMT-R-29).
    pub fn pull_outs(&mut self, choices: [Vec<u32>; 2]) {
        let Phase::PullOut { melees, settled, .. } = self.st.phase.clone() else { return };
        for id in melees {
            let Some(m) = self.st.melees.iter().find(|x| x.id == id).cloned() else { continue };
            // A side with no stand left in the melee has nothing to pull out: its call is void,
            // and round 2 goes to the other side by default (FMT-R-27).
            let leaving: Vec<Side> = Side::BOTH
                .into_iter()
                .filter(|s| choices[s.index()].contains(&id))
                .filter(|s| {
                    m.members.iter().any(|i| {
                        let x = &self.st.stands[*i];
                        x.on_table && x.side == *s
                    })
                })
                .collect();
            for side in &leaving {
                let stands: Vec<StandId> = m
                    .members
                    .iter()
                    .copied()
                    .filter(|i| self.st.stands[*i].on_table && self.st.stands[*i].side == *side)
                    .collect();
                let points: u32 =
                    stands.iter().map(|i| self.rules.points(&self.st.stands[*i])).sum();
                let pct = self.rules.data.rules.melee.pull_out_percent;
                let penalty = pull_out_penalty(points, pct);
                self.emit(Event::PulledOut { side: *side, melee: id, points, penalty });
                let pts: Vec<(StandId, u32)> =
                    stands.iter().map(|i| (*i, self.rules.points(&self.st.stands[*i]))).collect();
                for (i, n) in spread(&pts, penalty) {
                    self.kill(i, n, "pulling out of the melee", "FMT-MELEE-24");
                }
                let foes: Vec<StandId> = m
                    .members
                    .iter()
                    .copied()
                    .filter(|i| self.st.stands[*i].side != *side)
                    .collect();
                for i in stands {
                    let away = self.away_from(i, &foes);
                    let k = self.rules.data.rules.melee.pull_out_moves;
                    self.retreat(
                        i,
                        k,
                        away,
                        vec![RuleId::new("FMT-MELEE-23"), RuleId::new("FMT-MOR-10")],
                    );
                }
            }
            if !leaving.is_empty() {
                self.emit(Event::Ended {
                    melee: id,
                    why:
                        "pulled out: the other side gets no bonus move and re-forms where it stands"
                            .into(),
                    rule: RuleId::new("FMT-MELEE-25"),
                    released: m.members.clone(),
                });
                continue;
            }
            // Face to face (FMT-MELEE-09, FMT-R-28).
            let winners: Vec<StandId> = m
                .members
                .iter()
                .copied()
                .filter(|i| self.st.stands[*i].side == m.winner && self.st.stands[*i].on_table)
                .collect();
            let losers: Vec<StandId> = m
                .members
                .iter()
                .copied()
                .filter(|i| self.st.stands[*i].side != m.winner && self.st.stands[*i].on_table)
                .collect();
            for w in winners.clone() {
                let s = self.st.stands[w].clone();
                if !self.rules.enemies_touching(self.st, w).is_empty() || losers.is_empty() {
                    continue;
                }
                let d = s.rect.facing.vector() * self.rules.troop(&s).normal;
                let others: Vec<StandId> = self
                    .st
                    .stands
                    .iter()
                    .filter(|o| o.side != s.side && !losers.contains(&o.id))
                    .map(|o| o.id)
                    .collect();
                if let Some((t, e)) = self.rules.first_touch(self.st, s.side, &s.rect, d, &others)
                    && losers.contains(&e)
                {
                    let to = s.rect.translated(d * t);
                    // The stand two deep behind it comes up with it and stays two deep.
                    let backer = winners
                        .iter()
                        .copied()
                        .find(|b| *b != w && self.rules.backs(&self.st.stands[*b].rect, &s.rect));
                    if self.rules.overlapping(self.st, &to, &[w]).is_none() {
                        self.emit(Event::Closed {
                            stand: w,
                            who: s.name.clone(),
                            from: s.rect,
                            to,
                        });
                        if let Some(b) = backer {
                            let sb = self.st.stands[b].clone();
                            let tb = sb.rect.translated(d * t);
                            if self.rules.overlapping(self.st, &tb, &[b]).is_none() {
                                self.emit(Event::Closed {
                                    stand: b,
                                    who: sb.name.clone(),
                                    from: sb.rect,
                                    to: tb,
                                });
                            }
                        }
                    }
                }
            }
        }
        self.bonus_from(settled, 0);
    }

    /// The end of a game move: the battle's end, or the next move's recovery rolls and ready
    /// phase (FMT-R-30 step 11, FMT-R-31).
    pub fn end_of_move(&mut self) {
        if let Some((winner, reason)) = self.rules.decided(self.st, false) {
            self.emit(Event::BattleOver { winner, reason });
            return;
        }
        if self.st.game_move >= self.st.game_moves {
            let (winner, reason) = self
                .rules
                .decided(self.st, true)
                .unwrap_or((None, "the last game move is over".into()));
            self.emit(Event::BattleOver { winner, reason });
            return;
        }
        let game_move = self.st.game_move + 1;
        self.emit(Event::MoveBegun { game_move });
        self.recovery();
        self.emit(Event::PhaseBegun { phase: Phase::Ready { orders: [None, None] } });
    }

    /// Recovery rolls at the start of a game move (FMT-MOR-06..09, FMT-R-31).
    fn recovery(&mut self) {
        let gm = self.st.game_move;
        let due: Vec<StandId> = self
            .st
            .stands
            .iter()
            .filter(|s| s.on_table)
            .filter(|s| matches!(s.morale, Morale::Broken { roll_from } | Morale::Wavering { roll_from } if roll_from <= gm))
            .map(|s| s.id)
            .collect();
        for id in due {
            let who = self.st.stands[id].name.clone();
            let roll = self.d6(format!("{who}'s recovery"), "FMT-MOR-06");
            let (morale, rule) = match roll.value {
                1 => (Morale::Broken { roll_from: gm + 1 }, "FMT-MOR-07"),
                2 | 3 => (Morale::Wavering { roll_from: gm + 1 }, "FMT-MOR-08"),
                _ => (Morale::Steady, "FMT-MOR-09"),
            };
            self.emit(Event::Recovery {
                stand: id,
                who,
                roll,
                morale,
                rules: vec![RuleId::new("FMT-MOR-06"), RuleId::new(rule), RuleId::new("FMT-R-31")],
            });
            if rule == "FMT-MOR-07" {
                let away = self.away_from(id, &[]);
                let k = self.rules.data.rules.melee.recovery_moves;
                self.retreat_as(id, k, away, &mut vec![RuleId::new("FMT-MOR-07")], morale);
            }
        }
    }
}

impl Freemove {
    /// Whether the battle is decided: a side at or below its broken share loses; at the end,
    /// the side that lost the smaller share wins (not in the source).
    pub fn decided(&self, st: &State, at_end: bool) -> Option<(Option<Side>, String)> {
        let share = |side: Side| -> f64 {
            let start = st.side(side).start_points.max(1) as f64;
            (st.stands_of(side).map(|s| self.points(s)).sum::<u32>() as f64) / start
        };
        let (r, b) = (share(Side::Red), share(Side::Blue));
        let cut = self.data.rules.victory.broken_share;
        let pct = |x: f64| (x * 100.0).round();
        let winner = if (r - b).abs() < 1e-12 {
            None
        } else if r > b {
            Some(Side::Red)
        } else {
            Some(Side::Blue)
        };
        if r <= cut || b <= cut {
            return Some((
                winner,
                format!(
                    "an army is down to a quarter of its points or less (red {}%, blue {}%; not in the source)",
                    pct(r),
                    pct(b)
                ),
            ));
        }
        if at_end {
            return Some((
                winner,
                format!(
                    "the last game move is over: red keeps {}% of its points, blue {}% (not in the source)",
                    pct(r),
                    pct(b)
                ),
            ));
        }
        None
    }

    /// Where a Fire and Charge stand ends in front contact with its target (FMT-FC-04).
    pub fn charge_spot(&self, st: &State, s: &Stand, target: &Stand) -> Option<Rect> {
        let dir = target.rect.centre - s.rect.centre;
        let facing = Facing::from_vector(dir)?;
        let start = self.footprint(s.rect.centre, facing);
        let others: Vec<StandId> =
            st.stands.iter().filter(|o| o.id != target.id).map(|o| o.id).collect();
        let (t, _) = self.first_touch(st, s.side, &start, dir, &others)?;
        let to = start.translated(dir * t);
        if self.overlapping(st, &to, &[s.id]).is_some() || !st.table.contains_rect(&to) {
            return None;
        }
        Some(to)
    }

    /// Whether the side has any stand with a target in the fire phase.
    pub fn has_targets(&self, st: &State, side: Side) -> bool {
        st.stands_of(side).any(|s| {
            self.may_shoot(st, s).is_ok()
                && st.stands_of(side.other()).any(|e| self.may_target(st, s, e).is_ok())
        })
    }
}
