//! The period's movement in 20 time steps: every mover advances at its own speed, stops 1"
//! short of the enemy or against friends unless it charges, pursues or may pass through; the
//! charged unit tests when the charger has used its normal move, evaders jump away, cavalry
//! countercharge, routers meet friends, units leave the table (WRG-MOVE-01, WRG-R-08, -10,
//! WRG-RT-03, -12, -13, WRG-MOVE-08 .. -12, WRG-ORD-08, WRG-ROUT-05 .. -07, WRG-LEAVE).

use super::intent::{Cx, pose_of, rout_mover, run_straight, running_mover};
use super::mover::{EPS, Held, Kind, Mover, STEPS, footprint, routing};
use super::track::{Pose, Track};
use super::{Movement, sunk};
use crate::Data;
use crate::after::{Left, Swerve};
use crate::combat::Cause;
use crate::reaction::{Effect, Trigger};
use crate::report::Note;
use crate::state::{Motion, Pursuit, State, Unit};
use tabletop::dice::DiceSource;
use tabletop::geometry::{Point, Sector, direction_sector};

/// What a mover runs into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hit {
    /// A friend it may not pass.
    Friend,
    /// An enemy it touches (it may contact).
    Contact,
    /// An enemy it comes within 1" of (it may not contact).
    Short,
    /// The table's edge (it may not leave).
    Edge,
    /// Its standard leaves the table (it may leave).
    Off,
}

/// The movement being carried out.
pub struct Run<'a> {
    /// The tables.
    pub data: &'a Data,
    /// The state, changed as the units move.
    pub state: &'a mut State,
    /// The dice for the charge tests.
    pub dice: &'a mut dyn DiceSource,
    /// What the movement reports.
    pub out: &'a mut Movement,
    /// Every move, in the order made.
    pub movers: Vec<Mover>,
    /// Each unit's current move.
    pub slot: Vec<Option<usize>>,
    /// Units that will evade a charger, and which.
    pub evading: Vec<Option<u16>>,
    /// Units that have evaded.
    pub evaded: Vec<bool>,
    /// Evaders caught (WRG-MOVE-11).
    pub caught: Vec<bool>,
    /// Inches each standard moved.
    pub moved: Vec<f64>,
    /// Units in hand-to-hand at the start.
    pub fighting: Vec<bool>,
    /// Units that broke in the movement and stepped off to stand clear as they turned: the
    /// unit, how many moves had been given out by then, and the note of the step (told among
    /// the unit's moves, in order), and where the step left it.
    pub steps_off: Vec<(u16, usize, Note, Pose)>,
    /// Routers that swerved round a friend, and which.
    swerved: Vec<(u16, u16)>,
    /// Each unit's frontage and depth, and half its diagonal.
    sizes: Vec<(f64, f64, f64)>,
    /// Where each unit stood when the period's movement began.
    begin: Vec<Pose>,
    /// Scratch.
    hits: Vec<(u16, Hit)>,
    pad: super::mover::Pad,
    step: u32,
}

impl<'a> Run<'a> {
    /// Sets the run up.
    pub fn new(
        data: &'a Data,
        state: &'a mut State,
        dice: &'a mut dyn DiceSource,
        out: &'a mut Movement,
        fighting: Vec<bool>,
    ) -> Run<'a> {
        let n = state.units.len();
        let sizes = state
            .units
            .iter()
            .map(|u| {
                let (w, d) = u.block.size(data, u.troop);
                (w, d, 0.5 * (w * w + d * d).sqrt())
            })
            .collect();
        let begin = state.units.iter().map(pose_of).collect();
        Run {
            sizes,
            data,
            state,
            dice,
            out,
            movers: Vec::new(),
            slot: vec![None; n],
            evading: vec![None; n],
            evaded: vec![false; n],
            caught: vec![false; n],
            moved: vec![0.0; n],
            fighting,
            steps_off: Vec::new(),
            begin,
            swerved: Vec::new(),
            hits: Vec::new(),
            pad: Default::default(),
            step: 0,
        }
    }

    /// Gives a unit a (new) move; any move it had stops.
    pub fn set_mover(&mut self, mut m: Mover, from_step: u32) -> usize {
        m.from_step = from_step;
        if let Some(old) = self.slot.get(m.id as usize).copied().flatten() {
            self.movers[old].stopped = true;
        }
        let i = self.movers.len();
        let id = m.id as usize;
        self.movers.push(m);
        if let Some(s) = self.slot.get_mut(id) {
            *s = Some(i);
        }
        if self.step > 0 {
            self.find_near();
        }
        i
    }

    /// Works out, for every mover, the units it may meet this period: those whose footprint
    /// can come within 1" of the ground it sweeps, allowing for their own moves.
    pub fn find_near(&mut self) {
        let short = self.data.movement.distances.stop_short + 0.1;
        let travel: Vec<f64> = (0..self.state.units.len())
            .map(|id| {
                self.slot[id].map_or(0.0, |k| {
                    let m = &self.movers[k];
                    if m.stopped { 0.0 } else { (m.limit - m.param).max(0.0) }
                })
            })
            .collect();
        let standards = super::near::Standards::new(&self.state.units, &self.sizes, &travel);
        let mut pts: Vec<Point> = Vec::new();
        for k in 0..self.movers.len() {
            if self.movers[k].stopped {
                continue;
            }
            let m = &self.movers[k];
            pts.clear();
            pts.push(m.pose(m.param).at);
            let mut spent = 0.0;
            let mut slack = 0.0;
            for seg in &m.track.segs {
                let c = seg.cost();
                if spent + c > m.param {
                    if let super::track::Seg::Turn { .. } = seg {
                        slack += c;
                    }
                    pts.push(m.pose((spent + c).min(m.limit)).at);
                }
                spent += c;
                if spent >= m.limit {
                    break;
                }
            }
            let me = m.id as usize;
            let r = self.sizes[me].2;
            let units = &self.state.units;
            let near = standards.near(units, &self.sizes, &travel, me, r, short, slack, &pts);
            self.movers[k].near = near;
        }
    }

    /// Keeps the note of a step a unit took turning to run, to be told among its moves.
    fn step_off(&mut self, id: u16, step: Option<Note>) {
        if let Some(n) = step {
            let pose = pose_of(&self.state.units[id as usize]);
            self.steps_off.push((id, self.movers.len(), n, pose));
        }
    }

    fn stop_unit(&mut self, id: u16) {
        if let Some(i) = self.slot.get(id as usize).copied().flatten() {
            self.movers[i].stopped = true;
        }
    }

    fn cx<R>(&mut self, f: impl FnOnce(&mut Cx) -> R) -> R {
        let pad = std::mem::take(&mut self.pad);
        let mut cx = Cx { data: self.data, state: self.state, fighting: &self.fighting, pad };
        let r = f(&mut cx);
        self.pad = cx.pad;
        r
    }

    fn name(&self, id: u16) -> String {
        self.state.units.get(id as usize).map_or_else(|| "?".into(), |u| u.name.to_string())
    }

    /// The share of the period still to run.
    fn time_left(&self) -> f64 {
        (STEPS.saturating_sub(self.step)) as f64 / STEPS as f64
    }

    /// Runs the 20 steps: in odd steps the units move in the order of their ids, in even
    /// steps in the reverse order, each against the others where they stand. A unit held up
    /// by friends tries again once the others have moved this step (they may have made way);
    /// what it still falls short of is lost (WRG-R-08).
    pub fn steps(&mut self) {
        self.find_near();
        let mut held = Vec::new();
        for s in 1..=STEPS {
            self.step = s;
            let n = self.movers.len();
            held.clear();
            for j in 0..n {
                let i = if s % 2 == 1 { j } else { n - 1 - j };
                if self.advance(i, s) {
                    held.push(i);
                }
            }
            for &i in &held {
                self.advance(i, s);
            }
            for &i in &held {
                self.go_round(i, s);
            }
            for &i in &held {
                let goal = self.goal(i, s);
                let m = &mut self.movers[i];
                if !m.stopped && m.param < goal - 1e-9 {
                    m.lag += goal - m.param;
                }
            }
            if s == STEPS {
                self.unthread();
                self.settle();
            }
            self.record_poses(s);
        }
    }

    /// A unit that began to pass through a friend in an ordinary move and could not get clear
    /// of it this period stays where it met it (WRG-R-08).
    fn unthread(&mut self) {
        if self.movers.iter().all(|m| m.threaded.is_empty()) {
            return;
        }
        for id in 0..self.state.units.len() {
            let u = &self.state.units[id];
            if !u.on_table() {
                continue;
            }
            let here = footprint(self.data, u);
            let mut back: Option<(usize, f64)> = None;
            for (k, m) in self.movers.iter().enumerate() {
                if m.id as usize != id {
                    continue;
                }
                for &(f, at) in &m.threaded {
                    let fu = &self.state.units[f as usize];
                    if fu.on_table()
                        && here.overlaps(&footprint(self.data, fu))
                        && back.is_none_or(|(bk, ba)| k < bk || (k == bk && at < ba))
                    {
                        back = Some((k, at));
                    }
                }
            }
            let Some((k, at)) = back else { continue };
            self.put_back(id, k, at);
        }
    }

    /// Puts unit `id` back along its way this period to where its move `k` had spent `at`:
    /// the moves it made after that are undone.
    fn put_back(&mut self, id: usize, k: usize, at: f64) {
        // Steps off taken after the place it goes back to are undone with the moves; one
        // taken before its first move stands (it is where that move began).
        let kept = if k == usize::MAX {
            self.movers.iter().position(|m| m.id as usize == id).unwrap_or(usize::MAX)
        } else {
            k
        };
        self.steps_off.retain(|s| s.0 as usize != id || s.1 <= kept);
        let undo = |m: &mut Mover| {
            m.param = 0.0;
            m.undone = true;
            m.stopped = true;
            m.held = None;
            m.lined_up = 0.0;
        };
        if k == usize::MAX {
            // Back where it stood before its first move, every move of it undone.
            self.movers.iter_mut().filter(|m| m.id as usize == id).for_each(undo);
            self.moved[id] = 0.0;
            let b = self.begun(id);
            let u = &mut self.state.units[id];
            u.at = b.at;
            u.facing = b.facing;
            return;
        }
        let gone: f64 = self
            .movers
            .iter()
            .enumerate()
            .filter(|(j, m)| m.id as usize == id && *j >= k)
            .map(|(j, m)| m.track.travel(if j == k { at.max(0.0) } else { 0.0 }, m.param))
            .sum();
        for (j, m) in self.movers.iter_mut().enumerate() {
            if m.id as usize == id && j > k {
                undo(m);
            }
        }
        let m = &mut self.movers[k];
        // Below 0: where the way began, before any free turn at its start.
        let pose = if at < 0.0 { m.track.start } else { m.pose(at) };
        m.param = at.max(0.0);
        m.stopped = true;
        self.moved[id] = (self.moved[id] - gone).max(0.0);
        let u = &mut self.state.units[id];
        u.at = pose.at;
        u.facing = pose.facing;
    }

    /// Nobody ends a period inside another unit, friend or enemy, except routers bursting
    /// through friends (WRG-R-08, WRG-MOVE-12, WRG-ROUT-05). Moves are simultaneous, so a unit
    /// can be put back into ground a friend has since moved into (light infantry it could not
    /// get clear of, above), or swing into it on a turn: the unit whose move made the overlap
    /// goes back along its way to the last place where it stands clear, held up there by the
    /// unit it met, and so on until everyone stands clear.
    fn settle(&mut self) {
        let n = self.state.units.len();
        let mut stuck: Vec<(u16, u16)> = Vec::new();
        for _ in 0..4 * n {
            let Some((a, b)) = self.overlap(&stuck) else { return };
            let mut best: Option<(usize, usize, f64, f64)> = None;
            for (me, other) in [(a, b), (b, a)] {
                let Some((k, at, lost)) = self.clear_place(me as usize) else { continue };
                let threaded = self
                    .movers
                    .iter()
                    .any(|m| m.id == me && m.threaded.iter().any(|&(f, _)| f == other));
                // The one passing through goes back; of two passing through each other, the
                // light infantry, who make way for formed troops.
                let light = self.state.units[me as usize].troop.is_light_infantry();
                let cost = lost - if threaded { 1e6 } else { 0.0 } - if light { 1e3 } else { 0.0 };
                if best.is_none_or(|b| cost < b.3) {
                    best = Some((me as usize, k, at, cost));
                }
            }
            let Some((id, k, at, _)) = best else {
                stuck.push((a, b));
                continue;
            };
            let other = if id == a as usize { b } else { a };
            self.put_back(id, k, at);
            let same = self.state.units[other as usize].side == self.state.units[id].side;
            if let Some(m) = self.movers.get_mut(k) {
                m.held = Some(if same { Held::Friend(other) } else { Held::Short(other) });
            }
        }
    }

    /// Whether unit `id` may stand overlapping `o`: routers among friends.
    fn may_overlap(&self, id: usize, o: usize) -> bool {
        let (u, v) = (&self.state.units[id], &self.state.units[o]);
        u.side == v.side && (routing(u) || routing(v))
    }

    /// The first two units on the table that overlap and may not, and did not when the period
    /// began (leaving out `stuck` pairs).
    fn overlap(&self, stuck: &[(u16, u16)]) -> Option<(u16, u16)> {
        let units = &self.state.units;
        let feet: Vec<Option<tabletop::geometry::Rect>> =
            units.iter().map(|u| u.on_table().then(|| sunk(footprint(self.data, u)))).collect();
        for (i, a) in feet.iter().enumerate() {
            let Some(a) = a else { continue };
            for (j, b) in feet.iter().enumerate().skip(i + 1) {
                let Some(b) = b else { continue };
                let reach = self.sizes[i].2 + self.sizes[j].2;
                if (units[i].at - units[j].at).length_squared() > reach * reach
                    || !a.overlaps(b)
                    || self.may_overlap(i, j)
                    || stuck.contains(&(i as u16, j as u16))
                {
                    continue;
                }
                // Only what this period's moves did is undone.
                let began = |k: usize| {
                    let (u, p) = (&units[k], self.begin[k]);
                    sunk(u.block.footprint(self.data, u.troop, p.at, p.facing))
                };
                if began(i).overlaps(&began(j)) {
                    continue;
                }
                return Some((i as u16, j as u16));
            }
        }
        None
    }

    /// Where unit `id` last stood clear of everyone along its moves this period: the move,
    /// how far along it, and the inches lost by going back there; `None` if it has not moved
    /// nor turned.
    fn clear_place(&self, id: usize) -> Option<(usize, f64, f64)> {
        let units = &self.state.units;
        let clear = |m: &Mover, p: f64| {
            let r = sunk(m.rect(m.pose(p)));
            units.iter().enumerate().all(|(o, v)| {
                o == id
                    || !v.on_table()
                    || self.may_overlap(id, o)
                    || !r.overlaps(&sunk(footprint(self.data, v)))
            })
        };
        let mut lost = 0.0;
        let mut first = None;
        for k in (0..self.movers.len()).rev() {
            let m = &self.movers[k];
            if m.id as usize != id {
                continue;
            }
            first = Some(k);
            if m.param <= 0.0 {
                continue;
            }
            // Back from where this move ended (where the unit stands, or its next move began).
            let below = (m.param - 1e-6).max(0.0);
            if let Some(at) = last_clear(below, |q| clear(m, q)) {
                return Some((k, at, lost + m.track.travel(at, m.param)));
            }
            lost += m.track.travel(0.0, m.param);
        }
        // Where its first move began, before any free turn; else where it stood when the
        // period began (it turned where it stood).
        let here = pose_of(&units[id]);
        if let Some(k) = first
            && self.movers[k].track.start != here
        {
            return Some((k, -1.0, lost));
        }
        (self.begun(id) != here).then_some((usize::MAX, -1.0, lost))
    }

    /// Where unit `id` stood before its first move this period: where the period began, or
    /// where a step off taken before that move left it.
    fn begun(&self, id: usize) -> Pose {
        let first = self.movers.iter().position(|m| m.id as usize == id).unwrap_or(usize::MAX);
        self.steps_off
            .iter()
            .rev()
            .find(|s| s.0 as usize == id && s.1 <= first)
            .map_or(self.begin[id], |s| s.3)
    }

    /// Notes where every unit stands at the end of step `s` and how it is moving, for
    /// shooting at any moment of the period (WRG-FIRE-01, WRG-R-11).
    fn record_poses(&mut self, s: u32) {
        use super::{StepMotion, StepPose};
        let poses = &mut self.out.poses;
        poses.reserve(self.state.units.len());
        for (id, u) in self.state.units.iter().enumerate() {
            let going = match self.slot[id].map(|k| &self.movers[k]) {
                Some(m) if m.from_step < s => match m.kind {
                    Kind::Charge { .. } | Kind::Counter { .. } => StepMotion::Charging,
                    Kind::Evade | Kind::Back | Kind::Rout => StepMotion::Retreating,
                    Kind::Forward | Kind::Pursue { .. } => StepMotion::Moving,
                },
                _ => StepMotion::Still,
            };
            poses.push(StepPose { at: u.at, facing: u.facing, going });
        }
    }

    /// Mover `i`, held up by a friend in step `s`, goes round it for the rest of the period
    /// when the friend stands (or has stopped, or is held up in turn by another friend), or
    /// when the two bar each other's way (then the one with the higher id, or the one that
    /// may, gives way); once a period (WRG-R-08).
    fn go_round(&mut self, i: usize, s: u32) {
        let m = &self.movers[i];
        let Some(Held::Friend(f)) = m.held else { return };
        if m.stopped || m.rerouted || !super::detour::may_go_round(m) || s >= STEPS {
            return;
        }
        if m.param >= self.goal(i, s) - 1e-9 {
            return;
        }
        let id = m.id;
        let theirs = self.slot[f as usize].filter(|&k| {
            !self.movers[k].stopped && self.movers[k].param < self.movers[k].limit - 1e-9
        });
        if let Some(k) = theirs {
            let fm = &self.movers[k];
            let mutual = fm.held == Some(Held::Friend(id));
            let they_give_way =
                super::detour::may_go_round(fm) && !fm.rerouted && !fm.no_way_round && fm.id > id;
            // A friend held up in turn by another friend is as good as standing.
            let held_too =
                !mutual && matches!(fm.held, Some(Held::Friend(_))) && self.still_held(k);
            if (!mutual || they_give_way) && !held_too {
                return;
            }
        }
        let side = self.state.units[id as usize].side;
        let standing: Vec<Option<tabletop::geometry::Rect>> = (0..self.state.units.len())
            .map(|j| {
                let u = &self.state.units[j];
                let moving =
                    self.slot[j].is_some_and(|k| !self.movers[k].stopped && j != f as usize);
                (u.side == side
                    && u.on_table()
                    && !routing(u)
                    && !u.troop.is_light_infantry()
                    && !moving)
                    .then(|| footprint(self.data, u))
            })
            .collect();
        let Some(fr) = standing[f as usize] else { return };
        let u = self.state.units[id as usize].clone();
        let m = self.movers[i].clone();
        let spent = super::moved::spent(self.data, self.state, &u, &m, &mut Vec::new());
        let left_steps = (STEPS - s) as f64;
        let rest = (m.budget - spent).min(m.budget * left_steps / STEPS as f64);
        if rest <= EPS {
            return;
        }
        let me = id as usize;
        let new =
            self.cx(|cx| super::detour::around(cx, &u, &m, &[], rest, &fr, &standing, |j| j != me));
        let Some(mut new) = new else {
            self.movers[i].no_way_round = true;
            return;
        };
        new.rate = new.limit / left_steps;
        new.rerouted = true;
        self.movers[i].rerouted = true;
        self.set_mover(new, s);
        let text = format!("{} go round {}, who bar their way", u.name, self.name(f));
        self.out.notes.push(Note::new("WRG-R-08", text).and("WRG-ORD-04"));
    }

    /// How much of its allowance mover `i` should have spent by the end of step `s`: its
    /// rate, less the time it lost waiting behind friends.
    fn goal(&self, i: usize, s: u32) -> f64 {
        let m = &self.movers[i];
        (m.rate * s.saturating_sub(m.from_step) as f64 - m.lag).min(m.limit)
    }

    /// Moves mover `i` on for step `s`; returns whether friends held it short of the step.
    fn advance(&mut self, i: usize, s: u32) -> bool {
        let m = &self.movers[i];
        if m.stopped || s <= m.from_step {
            return false;
        }
        if !self.state.units[m.id as usize].on_table() {
            self.movers[i].stopped = true;
            return false;
        }
        let goal = self.goal(i, s);
        if self.still_held(i) && goal > self.movers[i].param + 1e-12 {
            // The friend in the way has not moved, nor has the unit: it is held as it was.
            return true;
        }
        loop {
            let m = &self.movers[i];
            if m.stopped || goal <= m.param + 1e-12 {
                break;
            }
            let np = m.normal_point.filter(|np| *np > m.param && *np <= goal);
            let sub = np.unwrap_or(goal);
            let got = self.go(i, sub);
            if np.is_some() && got + 1e-9 >= sub && !self.movers[i].stopped {
                self.movers[i].normal_point = None;
                self.normal_move_used(i);
                continue;
            }
            break;
        }
        let m = &mut self.movers[i];
        if m.param >= m.limit - 1e-9 {
            m.stopped = true;
        }
        !m.stopped
            && m.param < goal - 1e-9
            && matches!(m.held, Some(Held::Friend(_) | Held::Heels(_)))
    }

    /// Whether mover `i` was held up by a friend and neither it nor that friend has moved
    /// since (nor the friend left the table).
    fn still_held(&self, i: usize) -> bool {
        let m = &self.movers[i];
        let (Some(Held::Friend(f) | Held::Heels(f)), Some(then)) = (m.held, m.held_at) else {
            return false;
        };
        let (friend, me) = (&self.state.units[f as usize], &self.state.units[m.id as usize]);
        friend.on_table() && then == [(friend.at, friend.facing), (me.at, me.facing)]
    }

    /// Moves mover `i` on toward `target`, as far as nothing stops it; returns where it got.
    fn go(&mut self, i: usize, target: f64) -> f64 {
        let mut tries = 0;
        loop {
            tries += 1;
            let m = &self.movers[i];
            let (old_p, id) = (m.param, m.id);
            // Given another move meanwhile (it evaded a skirmisher evading it), this one is
            // over.
            if self.slot[id as usize] != Some(i) {
                return old_p;
            }
            // Before it has moved, it stands where its way begins (a free turn at the start
            // of the way is part of its move, and may not swing it into others).
            let old = if old_p <= 0.0 { m.track.start } else { m.pose(old_p) };
            let new = m.pose(target);
            self.collect_hits(i, new, old);

            if tries > 8 {
                return old_p;
            }
            // Leaving the table.
            if self.hits.iter().any(|h| h.1 == Hit::Off) {
                let table = &self.state.table;
                let m = &self.movers[i];
                let p = bisect(old_p, target, |p| table.contains_point(m.pose(p).at));
                self.place(i, p);
                self.leave(i);
                return p;
            }
            // Routers meeting friends (WRG-ROUT-05 .. -07), evaders passing (WRG-MOVE-12).
            let friend = self
                .hits
                .iter()
                .find(|h| h.1 == Hit::Friend && !self.movers[i].passed.contains(&h.0))
                .map(|h| h.0);
            if let Some(f) = friend {
                match self.movers[i].kind {
                    Kind::Rout => {
                        if self.meet_friends(i, f, old) {
                            continue;
                        }
                        return self.movers.get(i).map_or(old_p, |m| m.param);
                    }
                    Kind::Evade => {
                        self.pass_through(i, f);
                        continue;
                    }
                    _ if self.threads(i, f) => {
                        self.thread_through(i, f);
                        continue;
                    }
                    _ => {}
                }
            }
            let blocking: Vec<(u16, Hit)> = self
                .hits
                .iter()
                .copied()
                .filter(|h| !(h.1 == Hit::Friend && self.movers[i].passed.contains(&h.0)))
                .collect();
            if blocking.is_empty() {
                self.place(i, target);
                return target;
            }
            let (p, stuck) = {
                let this = &*self;
                let p = bisect(old_p, target, |p| !this.blocked(i, p, old, &blocking));
                (p, p <= old_p && this.blocked(i, p, old, &blocking))
            };
            if !stuck {
                self.place(i, p);
            }
            // Friends in the way hold the unit up: it waits, and goes on if they move out of
            // its way. An enemy 1" off, contact or the table's edge stops it (WRG-R-08).
            // Pursuers at their routers' heels wait for them to run on (WRG-PURS-01).
            let quarry = match self.movers[i].kind {
                Kind::Pursue { target } => Some(target),
                _ => None,
            };
            let heels = |o: u16, h: Hit| h == Hit::Contact && Some(o) == quarry;
            let held = blocking
                .iter()
                .find(|h| h.1 != Hit::Friend && !heels(h.0, h.1))
                .or_else(|| blocking.first())
                .and_then(|&(o, h)| match h {
                    Hit::Friend => Some(Held::Friend(o)),
                    Hit::Contact if heels(o, h) => Some(Held::Heels(o)),
                    Hit::Short => Some(Held::Short(o)),
                    Hit::Edge => Some(Held::Edge),
                    Hit::Contact | Hit::Off => None,
                });
            // Skirmishers evade an enemy that would otherwise come up to them, charge or not
            // (WRG-ORD-12); the enemy then goes on.
            if let Some(Held::Short(o)) = held
                && self.skirmisher_evades(o)
            {
                self.place(i, p);
                self.evade(o, id);
                continue;
            }
            self.movers[i].held = held;
            self.movers[i].held_at = match held {
                Some(Held::Friend(f) | Held::Heels(f)) => {
                    let (friend, me) =
                        (&self.state.units[f as usize], &self.state.units[id as usize]);
                    Some([(friend.at, friend.facing), (me.at, me.facing)])
                }
                _ => None,
            };
            if !matches!(held, Some(Held::Friend(_) | Held::Heels(_))) {
                self.movers[i].stopped = true;
            }
            for &(o, h) in &blocking {
                if h == Hit::Contact && self.touching(i, o) {
                    self.contact(i, o);
                }
            }
            return p;
        }
    }

    fn touching(&self, i: usize, o: u16) -> bool {
        let m = &self.movers[i];
        let r = m.rect(m.pose(m.param));
        let u = &self.state.units[o as usize];
        u.on_table() && r.distance(&footprint(self.data, u)) <= crate::melee_phase::CONTACT
    }

    /// Whether mover `i` at `p` runs into any of `units` (coming from `prev`).
    fn blocked(&self, i: usize, p: f64, prev: Pose, units: &[(u16, Hit)]) -> bool {
        let m = &self.movers[i];
        let pose = m.pose(p);
        units.iter().any(|&(o, h)| self.hit(m, pose, prev, o) == Some(h))
    }

    fn hit(&self, m: &Mover, pose: Pose, prev: Pose, o: u16) -> Option<Hit> {
        let table = &self.state.table;
        if o == m.id {
            let r = m.rect(pose);
            if m.leaves {
                return (!table.contains_point(pose.at)).then_some(Hit::Off);
            }
            // Its footprint may not leave the table, nor, where it already hangs over the
            // edge (come back on at the edge), its standard.
            let rect_leaves = !table.contains_rect(&r) && table.contains_rect(&m.rect(prev));
            let standard_leaves = !table.contains_point(pose.at) && table.contains_point(prev.at);
            return (rect_leaves || standard_leaves).then_some(Hit::Edge);
        }
        let me = &self.state.units[m.id as usize];
        let u = self.state.units.get(o as usize)?;
        if !u.on_table() {
            return None;
        }
        let short = self.data.movement.distances.stop_short;
        let (w, d, rad) = self.sizes[o as usize];
        let reach = self.sizes[m.id as usize].2 + rad + short + 0.1;
        if (u.at - pose.at).length_squared() > reach * reach {
            return None;
        }
        let ro = tabletop::geometry::Rect::new(u.at, u.facing, w, d);
        let r = m.rect(pose);

        if u.side == me.side {
            return (r.overlaps(&ro) && !m.rect(prev).overlaps(&ro)).then_some(Hit::Friend);
        }
        if m.kind.contacts() {
            return r.overlaps(&ro).then_some(Hit::Contact);
        }
        if super::mover::gap_at_least(&r, &ro) >= short - 1e-9 {
            return None;
        }
        // Already in touch (a unit in hand-to-hand carrying out a result), it may not move
        // into the enemy.
        if r.overlaps(&ro) {
            return (!m.rect(prev).overlaps(&ro)).then_some(Hit::Short);
        }
        let d = r.distance(&ro);
        if d >= short - 1e-9 {
            return None;
        }
        (d < m.rect(prev).distance(&ro) - 1e-9).then_some(Hit::Short)
    }

    fn collect_hits(&mut self, i: usize, pose: Pose, prev: Pose) {
        let mut hits = std::mem::take(&mut self.hits);
        hits.clear();
        let m = &self.movers[i];
        if let Some(h) = self.hit(m, pose, prev, m.id) {
            hits.push((m.id, h));
        }
        for &o in &m.near {
            if let Some(h) = self.hit(m, pose, prev, o) {
                hits.push((o, h));
            }
        }
        self.hits = hits;
    }

    /// Puts mover `i` at `p`, on the table.
    fn place(&mut self, i: usize, p: f64) {
        let m = &mut self.movers[i];
        let travel = m.track.travel(m.param, p);
        m.param = p;
        let pose = m.pose(p);
        let id = m.id as usize;
        let u = &mut self.state.units[id];
        self.moved[id] += travel;
        u.at = pose.at;
        u.facing = pose.facing;
    }

    /// The unit's standard has left the table (WRG-LEAVE-01, WRG-PURS-06).
    fn leave(&mut self, i: usize) {
        let id = self.movers[i].id;
        self.movers[i].stopped = true;
        let pursued = self.state.units.iter().any(|p| {
            p.on_table()
                && p.side != self.state.units[id as usize].side
                && p.pursuit.is_some_and(|x| x.target == id)
        });
        let routs = self.movers[i].kind == Kind::Rout;
        let why = if routs && pursued { Left::Pursued } else { Left::Ordinary };
        let period = self.state.period;
        self.state.units[id as usize].leave_table(why, period);
        // The period tells it once the movement is done (`period::leave`).
        self.out.left_table.push((id, why));
    }

    /// Routers run into friends: they swerve to a gap 3 figures wide within 5", losing 5",
    /// or burst through (WRG-ROUT-05 .. -07). Returns whether to try the step again.
    fn meet_friends(&mut self, i: usize, f: u16, at: Pose) -> bool {
        let data = self.data;
        let id = self.movers[i].id;
        let r = self.movers[i].rect(at);
        let heading = at.facing;
        let right = heading.right();
        let me = &self.state.units[id as usize];
        let figure = data.base(me.troop).front;
        let remaining = (self.movers[i].limit - self.movers[i].param).max(0.0);
        let friend = &self.state.units[f as usize];
        let span = |u: &Unit| {
            let c = footprint(data, u).corners();
            let xs = c.map(|p| (p - at.at).dot(right));
            let ys = c.map(|p| (p - at.at).dot(heading.vector()));
            let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let ahead = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let behind = ys.iter().copied().fold(f64::INFINITY, f64::min);
            (lo, hi, behind, ahead)
        };
        let (a, b, _, _) = span(friend);
        let hw = r.width / 2.0;
        // The friends across the routers' way: their spans across it.
        let mut spans: Vec<(f64, f64)> = vec![(a, b)];
        for g in
            self.state.units.iter().filter(|g| {
                g.side == me.side && g.id != id && g.id != f && g.on_table() && !routing(g)
            })
        {
            let (ga, gb, gbehind, gahead) = span(g);
            if gahead >= 0.0 && gbehind <= remaining + r.depth {
                spans.push((ga, gb));
            }
        }
        // The gap on each side: where the joined spans end, and how wide the free ground is.
        let gap_on = |right_side: bool| -> (f64, f64) {
            let mut edge = if right_side { b } else { a };
            loop {
                let grown = spans.iter().find(|&&(lo, hi)| {
                    if right_side {
                        lo <= edge + 1e-9 && hi > edge + 1e-9
                    } else {
                        hi >= edge - 1e-9 && lo < edge - 1e-9
                    }
                });
                match grown {
                    Some(&(lo, hi)) => edge = if right_side { hi } else { lo },
                    None => break,
                }
            }
            let width = spans
                .iter()
                .filter_map(|&(lo, hi)| {
                    if right_side {
                        (lo > edge).then_some(lo - edge)
                    } else {
                        (hi < edge).then_some(edge - hi)
                    }
                })
                .fold(f64::INFINITY, f64::min);
            (edge, width)
        };
        let swerved = self.swerved.contains(&(id, f));
        let mut choice: Option<(f64, f64)> = None;
        if !swerved {
            let (le, lw) = gap_on(false);
            let (re, rw) = gap_on(true);
            for (width, dist, shift) in
                [(lw, le.abs(), le - hw - 0.05), (rw, re.abs(), re + hw + 0.05)]
            {
                let s = crate::after::meet_friends(
                    data,
                    me.troop,
                    figure,
                    remaining,
                    Some(width),
                    dist,
                    friend.status,
                );
                if let Swerve::ToGap { remaining } = s
                    && choice.is_none_or(|(c, _)| shift.abs() < c.abs())
                {
                    choice = Some((shift, remaining));
                }
            }
        }
        if let Some((shift, left)) = choice {
            self.swerved.push((id, f));
            // Sideways to the gap, then straight on (WRG-ROUT-05).
            let mut track = Track::new(at);
            track.line_to(at.at + right * shift, Some(heading));
            track.line(heading.vector(), (left - shift.abs()).max(0.0), heading);
            let u = self.state.units[id as usize].clone();
            let reach = self.cx(|cx| {
                super::mover::reach(cx.data, cx.state, u.troop, &track, left, &mut cx.pad)
            });
            let mut m = Mover::new(&u, data, Kind::Rout, track, reach);
            m.rate = self.movers[i].rate;
            m.leaves = true;
            m.allow = self.movers[i].allow;
            m.lost = remaining - left;
            super::moved::fit_to_budget(data, self.state, &u, &mut m, remaining);
            m.passed = self.movers[i].passed.clone();
            self.set_mover(m, self.step);
            self.out.notes.push(Note::new(
                "WRG-ROUT-05",
                format!("{} swerve round {} toward a gap, losing 5\"", self.name(id), self.name(f)),
            ));
            return false;
        }
        let s =
            crate::after::meet_friends(data, me.troop, figure, remaining, None, 0.0, friend.status);
        self.movers[i].passed.push(f);
        if let Swerve::BurstThrough { disorganised, swept_away } = s {
            let mut note = Note::new(
                "WRG-ROUT-06",
                format!("{} burst through {}", self.name(id), self.name(f)),
            );
            if disorganised {
                add_cause(&mut self.state.units[f as usize], Cause::PassedThrough);
                note = note.and("WRG-DIS-10");
            }
            self.out.notes.push(note);
            if swept_away && !routing(&self.state.units[f as usize]) {
                let step = crate::state::break_unit(self.data, self.state, f);
                self.step_off(f, step);
                self.state.units[f as usize].facing = heading;
                self.stop_unit(f);
                self.out.notes.push(Note::new(
                    "WRG-ROUT-07",
                    format!("{} are swept away and join the rout", self.name(f)),
                ));
            }
        }
        true
    }

    /// An evader passes through a friend: close-order troops are disorganised by all but
    /// light infantry (WRG-MOVE-12).
    fn pass_through(&mut self, i: usize, f: u16) {
        self.movers[i].passed.push(f);
        // It may not end the period inside them.
        let at = self.movers[i].param;
        self.movers[i].threaded.push((f, at));
        let id = self.movers[i].id;
        let (evader, passed) =
            (self.state.units[id as usize].troop, self.state.units[f as usize].troop);
        if crate::moves::evaders_disorganise(evader, passed) {
            add_cause(&mut self.state.units[f as usize], Cause::PassedThrough);
            self.out.notes.push(
                Note::new(
                    "WRG-MOVE-12",
                    format!("{} evade through {}, disordering them", self.name(id), self.name(f)),
                )
                .and("WRG-DIS-10"),
            );
        } else {
            self.out.notes.push(Note::new(
                "WRG-MOVE-12",
                format!("{} evade through {} without harm to either", self.name(id), self.name(f)),
            ));
        }
    }

    /// Whether mover `i` may pass through friend `f` in a move, a charge, a countercharge or a
    /// pursuit:
    /// light infantry pass through friends and friends through light infantry (the skirmish
    /// screen retiring through the line, the line advancing or charging through it), so long
    /// as the way does not end inside it; one that is still inside it when the period ends
    /// stays where it met it (WRG-MOVE-12, WRG-DIS-10, WRG-R-08).
    fn threads(&self, i: usize, f: u16) -> bool {
        let m = &self.movers[i];
        if !matches!(
            m.kind,
            Kind::Forward
                | Kind::Back
                | Kind::Charge { .. }
                | Kind::Counter { .. }
                | Kind::Pursue { .. }
        ) {
            return false;
        }
        let (me, fu) = (&self.state.units[m.id as usize], &self.state.units[f as usize]);
        if routing(fu) || !(me.troop.is_light_infantry() || fu.troop.is_light_infantry()) {
            return false;
        }
        let end = m.rect(m.pose(m.limit));
        !end.overlaps(&footprint(self.data, fu))
    }

    /// Mover `i` passes through friend `f`: light infantry passed through by other troops
    /// are disorganised (WRG-DIS-10); light infantry passing through troubles nobody.
    fn thread_through(&mut self, i: usize, f: u16) {
        self.movers[i].passed.push(f);
        // Like an evader, it may not end the period inside them (see `unthread`).
        let at = self.movers[i].param;
        self.movers[i].threaded.push((f, at));
        let id = self.movers[i].id;
        let light = self.state.units[id as usize].troop.is_light_infantry();
        let text = format!("{} pass through {}", self.name(id), self.name(f));
        let note = if light {
            Note::new("WRG-MOVE-12", text).and("WRG-R-08")
        } else {
            add_cause(&mut self.state.units[f as usize], Cause::PassedThrough);
            Note::new("WRG-DIS-10", format!("{text}, disordering them")).and("WRG-R-08")
        };
        self.out.notes.push(note);
    }

    /// Mover `i` touches enemy `o`.
    fn contact(&mut self, i: usize, o: u16) {
        let m = &self.movers[i];
        let (id, kind) = (m.id, m.kind);
        let target = match kind {
            Kind::Charge { target, .. } | Kind::Counter { target } => target,
            Kind::Pursue { target } => {
                if o != target {
                    self.stop_unit(o);
                }
                return;
            }
            _ => return,
        };
        // An evader evades any charger that reaches it now (WRG-R-10).
        if self.evading[o as usize].is_some() && !self.evaded[o as usize] {
            self.movers[i].stopped = false;
            self.evade(o, id);
            return;
        }
        if matches!(kind, Kind::Charge { .. }) && o != target && self.struck_unawares(i, o) {
            return;
        }
        let pair = (id.min(o), id.max(o));
        if !self.out.charges.iter().any(|&(a, b)| (a.min(b), a.max(b)) == pair) {
            self.out.charges.push((id, o));
            self.out.notes.push(
                Note::new(
                    "WRG-MOVE-04",
                    format!("{} charge into contact with {}", self.name(id), self.name(o)),
                )
                .and("WRG-R-08"),
            );
        }
        if !self.out.under_attack.contains(&o) {
            self.out.under_attack.push(o);
        }
        let ou = &self.state.units[o as usize];
        if routing(ou) {
            // Caught running: the chargers pursue (WRG-PURS-01, WRG-R-41).
            let at = self.state.units[id as usize].at;
            let u = &mut self.state.units[id as usize];
            if u.pursuit.is_none() {
                u.pursuit = Some(Pursuit { target: o, periods: 0, from: at, farthest: 0.0 });
                self.out.notes.push(Note::new(
                    "WRG-PURS-01",
                    format!("{} catch {} running and pursue", self.name(id), self.name(o)),
                ));
            }
            return;
        }
        self.stop_unit(o);
        // Cavalry charged frontally by cavalry with no test (contact within the normal move)
        // may still countercharge: they meet the charge at a gallop (WRG-RT-13, WRG-ORD-08).
        if let Kind::Charge { .. } = kind
            && o == target
        {
            let (me, t) = (&self.state.units[id as usize], &self.state.units[o as usize]);
            let frontal = direction_sector(t.facing, me.at - t.at) == Sector::Front;
            let forbidden = t.standing.order().is_some_and(|x| x.no_countercharge);
            // Cavalry rallying back cannot countercharge (WRG-DIS-14).
            let forced = t.falling_back.is_some()
                || t.running
                    .is_some_and(|r| !matches!(r.effect, Effect::CarryOn | Effect::NewOrder));
            let tested =
                self.out.tests.iter().any(|x| x.unit == o && x.trigger == Trigger::Charged);
            if !tested
                && t.troop.is_cavalry()
                && me.troop.is_cavalry()
                && frontal
                && !forbidden
                && !forced
            {
                self.state.units[o as usize].motion = Motion::Charged;
                self.out.notes.push(
                    Note::new(
                        "WRG-ORD-08",
                        format!("{} meet the charge with a countercharge", self.name(o)),
                    )
                    .and("WRG-RT-13"),
                );
            }
        }
    }

    /// Enemy `o`, not the charge's target, is struck by charger `i` on its way: it answers as
    /// a charged unit does. Light troops that would evade this charger (light infantry always
    /// try against cavalry) evade now, and the charger goes on after them; any other unit,
    /// struck after the charger has used its normal move, takes its test for being charged
    /// there and then, and turns to run if it breaks (WRG-RT-03, -12, -13, WRG-ORD-09, -11,
    /// WRG-MOVE-08, WRG-R-10). Returns whether it evaded.
    fn struck_unawares(&mut self, i: usize, o: u16) -> bool {
        let id = self.movers[i].id;
        let (ou, cu) = (&self.state.units[o as usize], &self.state.units[id as usize]);
        let free = !routing(ou)
            && ou.running.is_none()
            && ou.pursuit.is_none()
            && !self.fighting.get(o as usize).copied().unwrap_or(false);
        if free && !self.evaded[o as usize] && super::evades(self.data, ou, cu) {
            self.movers[i].stopped = false;
            self.evade(o, id);
            return true;
        }
        let tested = self.out.tests.iter().any(|x| x.unit == o && x.trigger == Trigger::Charged);
        if !free || tested || self.movers[i].normal_point.is_some() {
            return false;
        }
        let taken = crate::test_phase::take_tests(
            self.data,
            self.state,
            &[(o, Trigger::Charged)],
            &[o],
            self.dice,
        );
        let Some(mut tk) = taken.into_iter().next() else { return false };
        let effect = tk.outcome.effect;
        self.step_off(o, tk.step.take());
        self.out.tests.push(tk);
        if effect == Effect::Break {
            let left = self.time_left();
            let u = self.state.units[o as usize].clone();
            match self.cx(|cx| rout_mover(cx, &u, 1, left)) {
                Some(m) => {
                    self.set_mover(m, self.step);
                }
                None => self.stop_unit(o),
            }
            self.out.notes.push(
                Note::new("WRG-RRES-01", format!("{} break as the charge comes in", self.name(o)))
                    .and("WRG-RT-12"),
            );
        }
        false
    }

    /// The charger has used its normal move: its target evades or tests (WRG-RT-03, -12,
    /// WRG-R-10), and may countercharge (WRG-ORD-08, WRG-R-19, WRG-M-07).
    fn normal_move_used(&mut self, i: usize) {
        let (id, kind) = (self.movers[i].id, self.movers[i].kind);
        let Kind::Charge { target: t, .. } = kind else { return };
        let tu = &self.state.units[t as usize];
        if !tu.on_table() || routing(tu) {
            return;
        }
        if self.out.charges.iter().any(|&(a, b)| (a == id && b == t) || (a == t && b == id)) {
            return;
        }
        // An evader evades every charger, each when its normal move is used (WRG-R-10).
        if self.evading[t as usize].is_some() {
            self.evade(t, id);
            return;
        }
        if self.evaded[t as usize] {
            return;
        }
        let taken = crate::test_phase::take_tests(
            self.data,
            self.state,
            &[(t, Trigger::Charged)],
            &[t],
            self.dice,
        );
        let Some(mut tk) = taken.into_iter().next() else { return };
        let (effect, score) = (tk.outcome.effect, tk.outcome.score);
        self.step_off(t, tk.step.take());
        self.out.tests.push(tk);
        let left = self.time_left();
        let tu = self.state.units[t as usize].clone();
        match effect {
            Effect::Break => {
                // It turned its back on the charger as it broke (WRG-ROUT-01).
                let u = self.state.units[t as usize].clone();
                match self.cx(|cx| rout_mover(cx, &u, 1, left)) {
                    Some(m) => {
                        self.set_mover(m, self.step);
                    }
                    None => self.stop_unit(t),
                }
                self.out.notes.push(
                    Note::new(
                        "WRG-RRES-01",
                        format!("{} break as the charge comes in", self.name(t)),
                    )
                    .and("WRG-RT-12"),
                );
            }
            e if self.counters(t, id, e, score) => self.countercharge(t, id),
            Effect::CarryOn | Effect::NewOrder => {}
            e => {
                let m = self.cx(|cx| running_mover(cx, &tu, e, left));
                match m {
                    Some(mut m) => {
                        self.within_what_is_left(&mut m);
                        self.set_mover(m, self.step);
                    }
                    None => self.stop_unit(t),
                }
            }
        }
    }

    /// A result taken part-way through the period that goes on moving the way the unit was
    /// already moving (told as one move with it) has only what is left of that move's
    /// allowance, if that is less than its share of the period (WRG-R-08).
    fn within_what_is_left(&self, m: &mut Mover) {
        let Some(last) = self.slot.get(m.id as usize).copied().flatten() else { return };
        if self.movers[last].kind != m.kind {
            return;
        }
        let Some((_, left)) = super::moved::left_of_move(self, m.id) else { return };
        if left < m.budget {
            let u = &self.state.units[m.id as usize];
            super::moved::fit_to_budget(self.data, self.state, u, m, left);
            m.budget = left;
        }
    }

    /// Whether `t`, charged by `c`, countercharges after a test with this result: cavalry
    /// charged in front by cavalry, a score of 6 or more, carry on or better, not forbidden
    /// (WRG-ORD-08, WRG-R-19).
    fn counters(&self, t: u16, c: u16, e: Effect, score: i32) -> bool {
        let (tu, cu) = (&self.state.units[t as usize], &self.state.units[c as usize]);
        let frontal = direction_sector(tu.facing, cu.at - tu.at) == Sector::Front;
        let forbidden = tu.standing.order().is_some_and(|o| o.no_countercharge);
        let falling_back = tu.falling_back.is_some();
        crate::reaction::may_countercharge(
            tu.troop,
            cu.troop,
            frontal,
            forbidden,
            score,
            e,
            falling_back,
        )
    }

    /// Cavalry countercharge: they close straight on the charger from here, each as far as
    /// its charge still goes (WRG-ORD-08, WRG-M-07).
    fn countercharge(&mut self, t: u16, charger: u16) {
        let left = self.time_left();
        let u = self.state.units[t as usize].clone();
        let to = self.state.units[charger as usize].at;
        let Some(charge) = self.data.moves(u.troop).charge else { return };
        let m = self.cx(|cx| {
            cx.along(&u, &[to], charge * left, Kind::Counter { target: charger }, true, false)
        });
        if let Some((mut m, _)) = m {
            m.rate = charge / STEPS as f64;
            m.share = left;
            self.set_mover(m, self.step);
            self.state.units[t as usize].motion = Motion::Charged;
            self.out.notes.push(
                Note::new(
                    "WRG-ORD-08",
                    format!("{} countercharge {}", self.name(t), self.name(charger)),
                )
                .and("WRG-R-19"),
            );
        }
    }

    /// Whether enemy `o` skirmishes and evades a move that would come up to it: light troops
    /// ordered to skirmish that may evade, not running, fighting or carrying out a result,
    /// and not yet evaded this period (WRG-ORD-11, -12).
    fn skirmisher_evades(&self, o: u16) -> bool {
        let Some(u) = self.state.units.get(o as usize) else { return false };
        let order = u.standing.order();
        u.on_table()
            && !self.evaded[o as usize]
            && !routing(u)
            && u.running.is_none()
            && u.pursuit.is_none()
            && !self.fighting.get(o as usize).copied().unwrap_or(false)
            && !order.is_some_and(|x| x.no_evade)
            && crate::orders::skirmisher_may_evade(self.data, u.troop, order, true)
    }

    /// `t` evades charger `c`: it turns its back on the charger and runs 10" straight back,
    /// square to its new front (going round impassable ground at a cost of 5"), caught with
    /// its back turned if the charger's remaining distance still reaches it. A unit that has
    /// already evaded another charger this period does not run again: it is caught if this
    /// charger can reach it (WRG-MOVE-09 .. -12, WRG-R-10).
    fn evade(&mut self, t: u16, c: u16) {
        let data = self.data;
        let Some(ci) = self.slot[c as usize] else { return };
        let remaining = (self.movers[ci].limit - self.movers[ci].param).max(0.0);
        if !self.evaded[t as usize] {
            self.evaded[t as usize] = true;
            let u = self.state.units[t as usize].clone();
            let Some(dist) = data.moves(u.troop).evade else { return };
            let back = crate::after::backs_to(u.facing, u.at, self.state.units[c as usize].at);
            let m = self.cx(|cx| run_straight(cx, &u, back, dist, Kind::Evade));
            match m {
                Some(mut m) => {
                    m.rate = m.limit.max(EPS);
                    m.leaves = true;
                    m.passes_friends = true;
                    m.answers = Some(c);
                    let k = self.set_mover(m, self.step);
                    // The jump is made at once, in half-inch pieces so nothing is jumped over.
                    let lim = self.movers[k].limit;
                    while !self.movers[k].stopped && self.movers[k].param < lim - 1e-9 {
                        let to = (self.movers[k].param + 0.5).min(lim);
                        if self.go(k, to) < to - 1e-9 {
                            break;
                        }
                    }
                    self.movers[k].stopped = true;
                }
                None => {
                    // No way to run: they turn their backs where they stand, if there is
                    // room to.
                    let at = self.state.units[t as usize].at;
                    if super::clear_at(data, self.state, t, at, back) {
                        self.state.units[t as usize].facing = back;
                    }
                }
            }
            self.state.units[t as usize].motion = Motion::Retired;
        }
        if !self.state.units[t as usize].on_table() {
            return;
        }
        if !self.movers[ci].kind.contacts() {
            // Skirmishers evading an ordinary move: it stops 1" short anyway (WRG-ORD-12).
            let note = Note::new(
                "WRG-ORD-12",
                format!("{} skirmish away from {}", self.name(t), self.name(c)),
            )
            .and("WRG-ORD-11");
            self.out.notes.push(note);
            return;
        }
        let gap = footprint(data, &self.state.units[c as usize])
            .distance(&footprint(data, &self.state.units[t as usize]));
        if remaining + 1e-9 >= gap {
            self.caught[t as usize] = true;
            let to = self.state.units[t as usize].at;
            let cu = self.state.units[c as usize].clone();
            let rate = self.movers[ci].rate;
            let kind = self.movers[ci].kind;
            let m = self.cx(|cx| cx.along(&cu, &[to], remaining, kind, true, false));
            if let Some((mut m, _)) = m {
                m.rate = rate;
                m.limit = m.limit.min(remaining);
                self.set_mover(m, self.step);
            }
            self.out.notes.push(
                Note::new(
                    "WRG-MOVE-11",
                    format!(
                        "{} evade but are caught with their backs turned by {}: they do not \
                         fight back",
                        self.name(t),
                        self.name(c)
                    ),
                )
                .and("WRG-MOVE-09"),
            );
        } else {
            self.movers[ci].stopped = false;
        }
    }
}

/// The farthest point back along a way from `top` (down to 0) where `ok` holds: sampled
/// every quarter-inch going back, then closed in on; `None` if it holds nowhere.
pub(super) fn last_clear(top: f64, ok: impl Fn(f64) -> bool) -> Option<f64> {
    if ok(top) {
        return Some(top);
    }
    let steps = (top / 0.25).ceil().max(1.0) as usize;
    let mut hi = top;
    for s in 1..=steps {
        let p = (top * (1.0 - s as f64 / steps as f64)).max(0.0);
        if ok(p) {
            return Some(bisect(p, hi, &ok));
        }
        hi = p;
    }
    None
}

/// The largest `p` in `[lo, hi]` for which `ok` holds, given that it holds at `lo`.
fn bisect(lo: f64, hi: f64, ok: impl Fn(f64) -> bool) -> f64 {
    if ok(hi) {
        return hi;
    }
    let (mut a, mut b) = (lo, hi);
    for _ in 0..30 {
        let mid = 0.5 * (a + b);
        if ok(mid) {
            a = mid;
        } else {
            b = mid;
        }
        if b - a < 1e-3 {
            break;
        }
    }
    a
}

/// Raises a cause of disorganisation: each raise is kept, so that the cause lasts the period
/// after its last raise (WRG-DIS-02; see `crate::disorder`).
pub fn add_cause(u: &mut Unit, c: Cause) {
    u.causes.push(c);
}
