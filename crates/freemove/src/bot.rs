//! The scripted general, who plays under the clock as a player would: light troops screen and
//! step back from slower attackers (counter-moving), the heavies charge when the odds favour
//! them, infantry form squares when cavalry comes near, Fire and Charge is called when a good
//! target stands in javelin range, and lost melees are left. It reads only what a player sees:
//! the landed positions of every stand and its own step under way, never the enemy's.
//!
//! Also the candidate commands for the random bot and the search.

use crate::Freemove;
use crate::data::WeaponKind;
use crate::geom::{Gait, bearing};
use crate::state::{Command, Morale, Phase, Placement, ReadyOrders, Stand, StandId, State};
use bots::{Bot, BotError};
use tabletop::dice::SeededDice;
use tabletop::geometry::{Facing, Point, Vec2};
use tabletop::host::Host;
use tabletop::rules::{Actor, RuleSet, Side};

/// Registers the scripted general as `scripted`.
pub fn register(host: Host<Freemove>) -> Host<Freemove> {
    host.with_bot(
        "scripted",
        "the scripted general: screens with light troops, counter-moves, charges at good odds, forms squares against horse, pulls out of lost melees",
        |_spec| Ok(Box::new(bots::Hosted::new(Scripted))),
    )
}

/// The scripted general.
#[derive(Clone, Debug, Default)]
pub struct Scripted;

impl Bot<Freemove> for Scripted {
    fn describe(&self) -> String {
        "scripted".into()
    }

    fn reusable(&self) -> bool {
        true
    }

    fn choose(
        &mut self,
        rules: &Freemove,
        st: &State,
        side: Side,
        _rng: &mut SeededDice,
    ) -> Result<Command, BotError> {
        Ok(decide(rules, st, side))
    }
}

/// The stands of one side in square cells, for nearest-stand questions that look only at the
/// cells round the asker instead of at every stand.
struct Grid {
    cell: f64,
    cols: usize,
    rows: usize,
    cells: Vec<Vec<StandId>>,
}

impl Grid {
    const CELL: f64 = 8.0;

    fn new(st: &State, of: Side) -> Grid {
        let cell = Self::CELL;
        let cols = ((st.table.width / cell).ceil() as usize).clamp(1, 4096);
        let rows = ((st.table.height / cell).ceil() as usize).clamp(1, 4096);
        let mut cells = vec![Vec::new(); cols * rows];
        for s in st.stands_of(of) {
            let (c, r) = Self::at(cell, cols, rows, s.rect.centre);
            cells[r * cols + c].push(s.id);
        }
        Grid { cell, cols, rows, cells }
    }

    fn at(cell: f64, cols: usize, rows: usize, p: Point) -> (usize, usize) {
        let c = ((p.x / cell).floor().max(0.0) as usize).min(cols - 1);
        let r = ((p.y / cell).floor().max(0.0) as usize).min(rows - 1);
        (c, r)
    }

    /// The stand nearest `from` edge to edge among those `filter` takes; ties to the lower ID.
    fn nearest<'a>(
        &self,
        st: &'a State,
        from: &Stand,
        filter: impl Fn(&Stand) -> bool,
    ) -> Option<(&'a Stand, f64)> {
        let (c0, r0) = Self::at(self.cell, self.cols, self.rows, from.rect.centre);
        let hd = from.rect.half_diagonal();
        let mut best: Option<(&'a Stand, f64)> = None;
        let far = self.cols.max(self.rows);
        for k in 0..=far {
            // Every stand in ring k has its centre at least (k - 1) cells from the asker's;
            // all trays are the same size, so its gap is at least that less two half-diagonals.
            if let Some((_, g)) = best
                && (k as f64 - 1.0) * self.cell - 2.0 * hd > g
            {
                break;
            }
            let (lo_c, hi_c) = (c0.saturating_sub(k), (c0 + k).min(self.cols - 1));
            let (lo_r, hi_r) = (r0.saturating_sub(k), (r0 + k).min(self.rows - 1));
            for r in lo_r..=hi_r {
                for c in lo_c..=hi_c {
                    if c.abs_diff(c0).max(r.abs_diff(r0)) != k {
                        continue;
                    }
                    for &id in &self.cells[r * self.cols + c] {
                        let e = &st.stands[id];
                        if !filter(e) {
                            continue;
                        }
                        let lb =
                            e.rect.centre.distance(from.rect.centre) - hd - e.rect.half_diagonal();
                        if best.is_some_and(|(_, g)| lb > g) {
                            continue;
                        }
                        let g = e.rect.distance(&from.rect);
                        if best.is_none_or(|(b, bg)| g < bg || (g == bg && e.id < b.id)) {
                            best = Some((e, g));
                        }
                    }
                }
            }
        }
        best
    }
}

/// What the scripted general does now.
pub fn decide(rules: &Freemove, st: &State, side: Side) -> Command {
    match &st.phase {
        // The scenario's positions are the general's own plan of deployment.
        Phase::Deploy { .. } => Command::Deploy { placements: Vec::new() },
        Phase::Ready { .. } => Command::Ready(ready(rules, st, side)),
        Phase::Window { .. } => window(rules, st, side),
        Phase::Rearrange { .. } => Command::Rearrange { moves: rearrange(rules, st, side) },
        Phase::Fire { .. } => Command::Fire { targets: auto_targets(rules, st, side) },
        Phase::PullOut { melees, .. } => {
            Command::PullOut { melees: pull_outs(rules, st, side, melees) }
        }
        Phase::Bonus { .. } => Command::Bonus { moves: bonus(rules, st, side) },
        Phase::Over => Command::Done { at_ms: 0 },
    }
}

fn ready(rules: &Freemove, st: &State, side: Side) -> ReadyOrders {
    let mut o = ReadyOrders::default();
    let horse_near = |p: Point, d: f64| {
        st.stands_of(side.other()).any(|e| rules.troop(e).mounted && e.rect.centre.distance(p) < d)
    };
    for q in st.squares.iter().filter(|q| q.side == side) {
        let c = st.stands[q.stands[0]].rect.centre;
        if horse_near(c, 24.0) {
            o.keep.push(q.id);
        }
    }
    // Squares against horse: the four or five nearest infantry of a cluster not yet engaged.
    let mut used: Vec<StandId> = Vec::new();
    for s in st.stands_of(side) {
        if used.contains(&s.id)
            || s.square.is_some()
            || !rules.infantry(s)
            || rules.troop(s).class != crate::data::Class::Heavy
        {
            continue;
        }
        if !horse_near(s.rect.centre, 16.0)
            || rules.engaged(st, s)
            || matches!(s.morale, Morale::Broken { .. })
        {
            continue;
        }
        let mut near: Vec<&Stand> = st
            .stands_of(side)
            .filter(|o| {
                rules.infantry(o)
                    && o.square.is_none()
                    && !used.contains(&o.id)
                    && !rules.engaged(st, o)
                    && !matches!(o.morale, Morale::Broken { .. })
            })
            .filter(|o| o.rect.centre.distance(s.rect.centre) <= 5.0)
            .collect();
        near.sort_by(|a, b| {
            a.rect
                .centre
                .distance(s.rect.centre)
                .total_cmp(&b.rect.centre.distance(s.rect.centre))
                .then(a.id.cmp(&b.id))
        });
        if near.len() < rules.data.rules.square.minimum_stands {
            continue;
        }
        let pick: Vec<StandId> = near.iter().take(4).map(|x| x.id).collect();
        if rules.square_layout(st, &pick).is_ok() {
            used.extend(&pick);
            o.form.push(pick);
        }
    }
    for s in st.stands_of(side) {
        if !rules.troop(s).fire_and_charge
            || s.fire_and_charge
            || rules.engaged(st, s)
            || s.square.is_some()
            || used.contains(&s.id)
        {
            continue;
        }
        let mut flagged = s.clone();
        flagged.fire_and_charge = true;
        let good = st.stands_of(side.other()).any(|e| {
            rules.may_target(st, &flagged, e).is_ok() && rules.points(e) <= rules.points(s)
        });
        if good {
            o.fire_and_charge.push(s.id);
        }
    }
    o
}

fn missile_man(rules: &Freemove, s: &Stand) -> bool {
    matches!(rules.weapon(s), WeaponKind::Javelin | WeaponKind::Bow)
}

/// Melee odds of `a` attacking `b`: a's points against b's, b's doubled to ×1.5 if it stands
/// in a defensive position.
fn odds(rules: &Freemove, st: &State, a: &Stand, b: &Stand) -> f64 {
    let mut theirs = rules.points(b) as f64;
    if b.square.is_some()
        || rules.hill_at(&st.table, b.rect.centre).is_some()
        || rules.house_at(&st.table, b.rect.centre).is_some()
    {
        theirs *= 1.5;
    }
    let mut ours = rules.points(a) as f64;
    if rules.troop(a).shock && b.square.is_none() {
        ours += 1.0;
        theirs -= 1.0;
    }
    if missile_man(rules, b) {
        ours -= 1.0;
    }
    ours / theirs.max(0.5)
}

fn step_toward(
    rules: &Freemove,
    st: &State,
    s: &Stand,
    goal: Point,
    face: Option<Point>,
    at: u64,
) -> Option<Command> {
    let d = goal - s.rect.centre;
    let len = d.length();
    if len < 0.05 {
        return None;
    }
    let allow = rules.allowance_len(st, s, Gait::Single, false);
    let facing = face
        .and_then(|f| Facing::from_vector(f - s.rect.centre))
        .or_else(|| Facing::from_vector(d))
        .unwrap_or(s.rect.facing);
    for frac in [1.0, 0.75, 0.5, 0.25] {
        let step = (allow * frac).min(len);
        let to = s.rect.centre + d * (step / len);
        let snapped = match st.grid {
            Some(g) => Point::new(
                ((to.x / g - 0.5).round() + 0.5) * g,
                ((to.y / g - 0.5).round() + 0.5) * g,
            ),
            None => to,
        };
        let f = match st.grid {
            Some(_) => {
                let b = (bearing(facing) / 90.0).round() * 90.0;
                b.rem_euclid(360.0)
            }
            None => bearing(facing),
        };
        let c = Command::Step { at_ms: at, stand: s.id, to: snapped, facing: Some(f) };
        if rules.check(st, Actor::Side(s.side), &c).is_ok() {
            return Some(c);
        }
        // A road may let the full step through where the ground would not; try the road
        // length when the way is on one.
        let road = rules.allowance_len(st, s, Gait::Single, true);
        if road > allow && frac == 1.0 {
            let to = s.rect.centre + d * (road.min(len) / len);
            let c = Command::Step { at_ms: at, stand: s.id, to, facing: Some(f) };
            if rules.check(st, Actor::Side(s.side), &c).is_ok() {
                return Some(c);
            }
        }
    }
    None
}

/// The point in front of an enemy stand where a stand would meet it face to face.
fn contact_point(rules: &Freemove, me: &Stand, e: &Stand) -> Point {
    let gap = rules.eps() * 0.5;
    let dir = (me.rect.centre - e.rect.centre).normalized().unwrap_or(e.rect.facing.vector());
    // Meet the face of the enemy nearest us.
    let f = e.rect.facing;
    let axes = [f.vector(), f.right(), -f.vector(), -f.right()];
    let best =
        axes.iter().copied().max_by(|a, b| a.dot(dir).total_cmp(&b.dot(dir))).unwrap_or(f.vector());
    let half_e =
        if best.dot(f.vector()).abs() > 0.5 { e.rect.depth / 2.0 } else { e.rect.width / 2.0 };
    e.rect.centre + best * (half_e + me.rect.depth / 2.0 + gap)
}

fn window(rules: &Freemove, st: &State, side: Side) -> Command {
    let at = rules.free_at(st, side).unwrap_or(0);
    let Some(clock) = st.clock() else { return Command::Done { at_ms: at } };
    let left = clock.length_ms.saturating_sub(at);
    if left < st.handling_ms {
        return Command::Done { at_ms: at };
    }
    // Each stand's wish, scored; only the best are worked out and checked, in order, until
    // one is legal (a check looks at the whole table, a wish at one enemy).
    enum Wish {
        Step { stand: StandId, goal: Point, face: Point },
        Square(Command),
    }
    let mut wishes: Vec<(f64, Wish)> = Vec::new();
    let enemies = Grid::new(st, side.other());
    for s in st.stands_of(side) {
        if rules.may_move(st, s).is_err() || s.square.is_some() {
            continue;
        }
        let t = rules.troop(s);
        // 1. Light troops step back from slower enemies that could catch them (FMT-TIME-14).
        let Some((e, gap)) = enemies.nearest(st, s, |e| !e.frozen) else { continue };
        let te = rules.troop(e);
        if missile_man(rules, s)
            && !missile_man(rules, e)
            && gap < te.normal + 1.0
            && te.normal <= t.normal
        {
            let away = (s.rect.centre - e.rect.centre).normalized().unwrap_or(Vec2::new(0.0, -1.0));
            let goal = s.rect.centre + away * t.normal;
            wishes.push((100.0 - gap, Wish::Step { stand: s.id, goal, face: e.rect.centre }));
            continue;
        }
        // 2. Charges at good odds.
        let Some((target, tgap)) = enemies.nearest(st, s, |_| true) else { continue };
        let o = odds(rules, st, s, target);
        let wavering = matches!(s.morale, Morale::Wavering { .. });
        if !wavering && !missile_man(rules, s) && o >= 1.2 && tgap <= t.column + 0.5 {
            let goal = contact_point(rules, s, target);
            wishes.push((80.0 + o, Wish::Step { stand: s.id, goal, face: target.rect.centre }));
            continue;
        }
        // 3. Missile men close to shooting range and hold there.
        if missile_man(rules, s) {
            let range = rules.missile(s).map_or(6.0, |m| m.1);
            if tgap > range - 0.5 && !wavering {
                let dir = (target.rect.centre - s.rect.centre)
                    .normalized()
                    .unwrap_or(Vec2::new(0.0, 1.0));
                let want = (tgap - (range - 1.0)).min(t.normal);
                let goal = s.rect.centre + dir * want;
                wishes.push((
                    40.0 - tgap / 10.0,
                    Wish::Step { stand: s.id, goal, face: target.rect.centre },
                ));
            }
            continue;
        }
        // 4. Heavies advance, keeping out of reach of better odds.
        let reach = te.normal + 1.0;
        if !wavering && tgap > reach + 0.5 {
            let dir =
                (target.rect.centre - s.rect.centre).normalized().unwrap_or(Vec2::new(0.0, 1.0));
            let want = (tgap - reach).min(t.normal);
            let goal = s.rect.centre + dir * want;
            wishes.push((
                30.0 + tgap / 100.0,
                Wish::Step { stand: s.id, goal, face: target.rect.centre },
            ));
        }
    }
    // 5. A square falls back, half a move at a time, from enemy foot coming near it: it holds
    // against horse, not against heavy infantry it cannot outfight.
    for q in st.squares.iter().filter(|q| q.side == side) {
        let Some(first) = q.stands.first().map(|i| &st.stands[*i]) else { continue };
        if q.stands.iter().any(|i| rules.may_move(st, &st.stands[*i]).is_err()) {
            continue;
        }
        let Some((e, gap)) = enemies.nearest(st, first, |e| !rules.troop(e).mounted && !e.frozen)
        else {
            continue;
        };
        if gap > rules.troop(e).normal + 2.0 {
            continue;
        }
        let allow = rules.allowance_len(st, first, Gait::Square, false);
        let away = (first.rect.centre - e.rect.centre).normalized().unwrap_or(Vec2::new(0.0, -1.0));
        wishes.push((
            20.0 - gap,
            Wish::Square(Command::MoveSquare { at_ms: at, square: q.id, by: away * allow }),
        ));
    }
    // Best first; equal scores in the order found.
    wishes.sort_by(|a, b| b.0.total_cmp(&a.0));
    // A general weighs his best few ideas, not every one.
    const WISHES: usize = 16;
    let best = wishes.into_iter().take(WISHES).find_map(|(score, w)| {
        let c = match w {
            Wish::Step { stand, goal, face } => {
                step_toward(rules, st, &st.stands[stand], goal, Some(face), at)
            }
            Wish::Square(c) => rules.check(st, Actor::Side(side), &c).is_ok().then_some(c),
        };
        c.map(|c| (score, c))
    });
    match best {
        Some((_, c)) => c,
        None => {
            // Watch for a moment when the enemy may still come on, otherwise finish.
            if left > 2 * st.handling_ms && st.stands_of(side.other()).any(|e| !e.frozen) {
                Command::Wait { at_ms: at, until_ms: at + st.handling_ms }
            } else {
                Command::Done { at_ms: at }
            }
        }
    }
}

fn rearrange(rules: &Freemove, st: &State, side: Side) -> Vec<Placement> {
    let mut out = Vec::new();
    let enemies = Grid::new(st, side.other());
    for s in st.stands_of(side) {
        if rules.may_rearrange(st, s).is_err() {
            continue;
        }
        let Some((e, _)) = enemies.nearest(st, s, |_| true) else { continue };
        let Some(f) = Facing::from_vector(e.rect.centre - s.rect.centre) else { continue };
        if f.angle_to(s.rect.facing).abs() < 0.5 {
            continue;
        }
        let to = rules.footprint(s.rect.centre, f);
        if rules.check_rearrangement(st, s, &to).is_ok() {
            out.push(Placement { stand: s.id, to: s.rect.centre, facing: bearing(f) });
        }
    }
    out
}

/// Each shooter's best target: a sure kill first, then the nearest (FMT-R-35); a stand called
/// for Fire and Charge always throws when it can (FMT-FC-02).
pub fn auto_targets(rules: &Freemove, st: &State, side: Side) -> Vec<(StandId, StandId)> {
    let mut out = Vec::new();
    for s in st.stands_of(side) {
        if rules.may_shoot(st, s).is_err() {
            continue;
        }
        let best = st
            .stands_of(side.other())
            .filter(|e| rules.may_target(st, s, e).is_ok())
            .map(|e| {
                let (_, kill, _) = rules.kill_row(st, s, e);
                let sure = kill.faces().is_none();
                (!sure, e.rect.distance(&s.rect), e.id)
            })
            .min_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
        if let Some((_, _, t)) = best {
            out.push((s.id, t));
        }
    }
    out
}

fn pull_outs(rules: &Freemove, st: &State, side: Side, melees: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    for id in melees {
        let Some(m) = st.melees.iter().find(|m| m.id == *id) else { continue };
        let pts = |s: Side| -> u32 {
            m.members
                .iter()
                .map(|i| &st.stands[*i])
                .filter(|x| x.on_table && x.side == s)
                .map(|x| rules.points(x))
                .sum()
        };
        let (ours, theirs) = (pts(side), pts(side.other()));
        if ours == 0 {
            continue;
        }
        if m.winner != side && (ours as f64) < 0.6 * theirs as f64 {
            out.push(*id);
        }
    }
    out
}

fn bonus(rules: &Freemove, st: &State, side: Side) -> Vec<Placement> {
    let Phase::Bonus { queue } = &st.phase else { return Vec::new() };
    let mut out = Vec::new();
    let enemies = Grid::new(st, side.other());
    for id in &queue[0].stands {
        let s = &st.stands[*id];
        let Some((e, gap)) = enemies.nearest(st, s, |e| !e.frozen) else { continue };
        if gap > rules.troop(s).normal - 0.1 || odds(rules, st, s, e) < 1.2 {
            continue;
        }
        let goal = contact_point(rules, s, e);
        let f = Facing::from_vector(e.rect.centre - goal).unwrap_or(s.rect.facing);
        let p = Placement { stand: s.id, to: goal, facing: bearing(f) };
        if rules.check(st, Actor::Side(side), &Command::Bonus { moves: vec![p.clone()] }).is_ok() {
            out.push(p);
        }
    }
    out
}

/// Candidate commands for the random bot and the search: the scripted choice, then legal
/// alternatives sampled at random.
pub fn candidates(rules: &Freemove, st: &State, side: Side, rng: &mut SeededDice) -> Vec<Command> {
    let mut out = vec![decide(rules, st, side)];
    match &st.phase {
        Phase::Deploy { .. } => {}
        Phase::Ready { .. } => out.push(Command::Ready(ReadyOrders::default())),
        Phase::Window { .. } => {
            let at = rules.free_at(st, side).unwrap_or(0);
            out.push(Command::Done { at_ms: at });
            out.push(Command::Wait { at_ms: at, until_ms: at + st.handling_ms });
            let mine: Vec<&Stand> = st
                .stands_of(side)
                .filter(|s| rules.may_move(st, s).is_ok() && s.square.is_none())
                .collect();
            for _ in 0..12 {
                if mine.is_empty() {
                    break;
                }
                let s = mine[rng.below(mine.len() as u32) as usize];
                let allow = rules.allowance_len(st, s, Gait::Single, false);
                let ang = rng.below(360) as f64;
                let len = allow * (1 + rng.below(4)) as f64 / 4.0;
                let d = Facing::from_bearing_degrees(ang).vector() * len;
                let to = s.rect.centre + d;
                let c = Command::Step { at_ms: at, stand: s.id, to, facing: Some(ang) };
                if rules.check(st, Actor::Side(side), &c).is_ok() {
                    out.push(c);
                }
            }
        }
        Phase::Rearrange { .. } => out.push(Command::Rearrange { moves: Vec::new() }),
        Phase::Fire { .. } => {}
        Phase::PullOut { melees, .. } => {
            out.push(Command::PullOut { melees: Vec::new() });
            out.push(Command::PullOut { melees: melees.clone() });
        }
        Phase::Bonus { .. } => out.push(Command::Bonus { moves: Vec::new() }),
        Phase::Over => return Vec::new(),
    }
    out.retain(|c| rules.check(st, Actor::Side(side), c).is_ok());
    out.dedup();
    out
}
