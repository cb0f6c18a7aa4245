//! The `RuleSet` implementation: who acts when, what each command may do, and how each event
//! changes the state.

use crate::Freemove;
use crate::clock::{Run, window_phase};
use crate::geom::{Gait, SLACK, bearing, facing_of};
use crate::narrate::secs;
use crate::scenario::Scenario;
use crate::state::{
    Command, Event, Morale, Order, Phase, Placement, ReadyOrders, Secret, Square, StandId, State,
};
use crate::view::View;
use tabletop::controls::{Controls, RosterRow};
use tabletop::diagnostics::{Diagnostics, Source};
use tabletop::dice::{DiceSource, SeededDice};
use tabletop::geometry::{Facing, Point, Rect};
use tabletop::render::Scene;
use tabletop::rules::{
    Actor, Outcome, Pending, Refusal, RuleSet, Side, SideSummary, Summary, Viewer,
};

fn refuse(rule: &'static str, why: impl Into<String>) -> Refusal {
    Refusal::new(rule, why)
}

impl Freemove {
    /// Changes the state by one event.
    pub fn apply_event(&self, st: &mut State, e: &Event) {
        match e {
            Event::MoveBegun { game_move } => {
                st.game_move = *game_move;
                st.time_called = false;
            }
            Event::Recovery { stand, morale, .. } => st.stands[*stand].morale = *morale,
            Event::Ready { side, orders } => {
                if let Phase::Ready { orders: o } = &mut st.phase {
                    o[side.index()] = Some(orders.clone());
                }
            }
            Event::SquareFormed { square, rects } => {
                for (i, r) in square.stands.iter().zip(rects) {
                    st.stands[*i].rect = *r;
                    st.stands[*i].square = Some(square.id);
                }
                st.next_id = st.next_id.max(square.id + 1);
                st.squares.push(square.clone());
            }
            Event::SquareGone { square, .. } => {
                st.squares.retain(|q| q.id != *square);
                for s in st.stands.iter_mut().filter(|s| s.square == Some(*square)) {
                    s.square = None;
                }
            }
            Event::Flagged { stand, at_ms, .. } => {
                st.stands[*stand].fire_and_charge = true;
                if let Phase::Window { clock } = &mut st.phase {
                    clock.now_ms = clock.now_ms.max(*at_ms);
                }
            }
            Event::WindowOpened { length_ms, tie, .. } => {
                st.phase = window_phase(*length_ms, *tie, st.handling_ms);
                st.initiative = *tie;
                let frozen: Vec<bool> = st
                    .stands
                    .iter()
                    .map(|s| {
                        s.on_table
                            && (st.melees.iter().any(|m| m.members.contains(&s.id))
                                || st.stands.iter().any(|o| {
                                    o.on_table
                                        && o.side != s.side
                                        && self.touching(&s.rect, &o.rect)
                                }))
                    })
                    .collect();
                for (s, f) in st.stands.iter_mut().zip(frozen) {
                    s.frozen = f;
                    s.charged = false;
                    s.uphill = false;
                    s.attacked_by = None;
                }
            }
            Event::StepBegun { side, flight } => {
                if let Phase::Window { clock } = &mut st.phase {
                    let h = &mut clock.hands[side.index()];
                    h.free_ms = flight.lands_ms;
                    h.flight = Some(flight.clone());
                    clock.now_ms = clock.now_ms.max(flight.issued_ms);
                }
            }
            Event::Waited { side, at_ms, until_ms } => {
                if let Phase::Window { clock } = &mut st.phase {
                    clock.hands[side.index()].free_ms = *until_ms;
                    clock.now_ms = clock.now_ms.max(*at_ms);
                }
            }
            Event::Finished { side, at_ms } => {
                if let Phase::Window { clock } = &mut st.phase {
                    clock.hands[side.index()].done = true;
                    clock.now_ms = clock.now_ms.max(*at_ms);
                }
            }
            Event::Stepped { stand, at_ms, to, .. } => {
                st.stands[*stand].rect = *to;
                let side = st.stands[*stand].side;
                if let Phase::Window { clock } = &mut st.phase {
                    clock.hands[side.index()].flight = None;
                    clock.now_ms = clock.now_ms.max(*at_ms);
                }
            }
            Event::Contact { mover, met, uphill, .. } => {
                let m = &mut st.stands[*mover];
                m.frozen = true;
                m.charged = true;
                m.uphill = *uphill;
                let t = &mut st.stands[*met];
                t.frozen = true;
                if t.attacked_by.is_none() {
                    t.attacked_by = Some(*mover);
                }
            }
            Event::StepVoid { side, at_ms, .. } => {
                if let Phase::Window { clock } = &mut st.phase {
                    clock.hands[side.index()].flight = None;
                    clock.now_ms = clock.now_ms.max(*at_ms);
                }
            }
            Event::TimeCalled { at_ms, .. } => {
                st.time_called = true;
                let gm = st.game_move;
                for m in st.melees.iter_mut().filter(|m| m.round_two == gm) {
                    m.round_two += 1;
                }
                if let Phase::Window { clock } = &mut st.phase {
                    clock.now_ms = clock.now_ms.max(*at_ms);
                }
            }
            Event::WindowClosed { at_ms, .. } => {
                if let Phase::Window { clock } = &mut st.phase {
                    clock.now_ms = clock.now_ms.max(*at_ms);
                    for h in &mut clock.hands {
                        h.flight = None;
                        h.done = true;
                    }
                }
            }
            Event::Submitted { side, orders } => match (&mut st.phase, orders) {
                (Phase::Deploy { orders: o }, Secret::Deploy { placements }) => {
                    o[side.index()] = Some(placements.clone())
                }
                (Phase::Rearrange { orders: o }, Secret::Rearrange { moves }) => {
                    o[side.index()] = Some(moves.clone())
                }
                (Phase::Fire { orders: o }, Secret::Fire { targets }) => {
                    o[side.index()] = Some(targets.clone())
                }
                (Phase::PullOut { orders: o, .. }, Secret::PullOut { melees }) => {
                    o[side.index()] = Some(melees.clone())
                }
                _ => {}
            },
            Event::Deployed { stand, to, .. }
            | Event::Rearranged { stand, to, .. }
            | Event::Closed { stand, to, .. }
            | Event::BonusMoved { stand, to, .. } => {
                st.stands[*stand].rect = *to;
            }
            Event::Noted { .. } | Event::Mustered { .. } => {}
            Event::NotRearranged { .. }
            | Event::Shot { .. }
            | Event::BowmenMorale { .. }
            | Event::PulledOut { .. }
            | Event::NoCombat { .. } => {}
            Event::Killed { stand, kills, rule, .. } => {
                let gm = st.game_move;
                let s = &mut st.stands[*stand];
                s.kills += kills;
                s.history.push((gm, *kills, rule.clone()));
            }
            Event::Removed { stand, .. } => {
                let s = &mut st.stands[*stand];
                s.on_table = false;
                s.frozen = false;
                for m in &mut st.melees {
                    m.members.retain(|i| i != stand);
                }
            }
            Event::Charged { stand, target, to, .. } => {
                let s = &mut st.stands[*stand];
                s.rect = *to;
                s.fire_and_charge = false;
                s.frozen = true;
                s.charged = false;
                st.stands[*target].frozen = true;
                st.stands[*target].attacked_by = Some(*stand);
            }
            Event::Lapsed { stand, .. } => st.stands[*stand].fire_and_charge = false,
            Event::Fought { melee, .. } => st.next_id = st.next_id.max(melee + 1),
            Event::Continues { melee } => {
                st.melees.retain(|m| m.id != melee.id);
                for i in &melee.members {
                    st.stands[*i].frozen = true;
                }
                st.next_id = st.next_id.max(melee.id + 1);
                st.melees.push(melee.clone());
            }
            Event::Ended { melee, released, .. } => {
                if let Some(m) = st.melees.iter().find(|m| m.id == *melee).cloned() {
                    for i in m.members {
                        st.stands[i].frozen = false;
                    }
                }
                for i in released {
                    st.stands[*i].frozen = false;
                }
                st.melees.retain(|m| m.id != *melee);
            }
            Event::Retreated { stand, to, morale, .. } => {
                let s = &mut st.stands[*stand];
                s.rect = *to;
                s.morale = *morale;
                s.frozen = false;
                s.fire_and_charge = false;
                for m in &mut st.melees {
                    m.members.retain(|i| i != stand);
                }
            }
            Event::PhaseBegun { phase } => st.phase = phase.clone(),
            Event::BattleOver { winner, reason } => {
                st.phase = Phase::Over;
                st.outcome = Some(Outcome { winner: *winner, reason: reason.clone() });
            }
        }
    }

    fn actor_side(&self, actor: Actor) -> Result<Side, Refusal> {
        match actor {
            Actor::Side(s) => Ok(s),
            Actor::Umpire => Err(refuse("FMT-TIME-01", "the umpire only rings the bell")),
        }
    }

    fn own_stand<'a>(
        &self,
        st: &'a State,
        side: Side,
        id: StandId,
    ) -> Result<&'a crate::state::Stand, Refusal> {
        let s = st
            .live(id)
            .ok_or_else(|| refuse("FMT-ROS-01", format!("there is no stand {id} on the table")))?;
        if s.side != side {
            return Err(refuse("FMT-ROS-01", format!("{} is not yours", s.name)));
        }
        Ok(s)
    }

    /// Where a set of infantry would stand in square, facing out round their centre, one
    /// stand a face and a fifth inside (not in the source).
    pub fn square_layout(&self, st: &State, stands: &[StandId]) -> Result<Vec<Rect>, Refusal> {
        if st.grid.is_some() {
            return Err(refuse(
                "FMT-TIME-19",
                "on the grid every stand moves cell by cell: no squares",
            ));
        }
        let min = self.data.rules.square.minimum_stands;
        if stands.len() < min || stands.len() > 5 {
            return Err(refuse("FMT-SQ-01", format!("a square is {min} or 5 infantry stands")));
        }
        let mut c = Point::ZERO;
        for i in stands {
            c += st.stands[*i].rect.centre;
        }
        let c = c * (1.0 / stands.len() as f64);
        for i in stands {
            if st.stands[*i].rect.centre.distance(c) > 4.0 + SLACK {
                return Err(refuse(
                    "FMT-SQ-01",
                    "the stands of a square must stand together, within 4\" of their middle",
                ));
            }
        }
        let f0 = st.stands[stands[0]].rect.facing;
        let (w, d) = (self.data.rules.stand.width, self.data.rules.stand.depth);
        let faces = [f0, f0.turned_right(), f0.reversed(), f0.turned_left()];
        let mut out = Vec::new();
        for (k, _) in stands.iter().enumerate() {
            let r = if k < 4 {
                self.footprint(c + faces[k].vector() * (w / 2.0 + d / 2.0), faces[k])
            } else {
                self.footprint(c, f0)
            };
            if !st.table.contains_rect(&r) {
                return Err(refuse("FMT-SQ-01", "the square would not fit on the table"));
            }
            if let Some(o) = self.overlapping(st, &r, stands) {
                return Err(refuse(
                    "FMT-SQ-01",
                    format!("the square would stand on {}", st.stands[o].name),
                ));
            }
            for a in &st.table.areas {
                if crate::geom::broken(a.kind) && a.polygon.overlaps_rect(&r) {
                    return Err(refuse("FMT-SQ-07", "a square cannot stand in broken ground"));
                }
            }
            out.push(r);
        }
        Ok(out)
    }

    fn check_ready(&self, st: &State, side: Side, o: &ReadyOrders) -> Result<(), Refusal> {
        for q in &o.keep {
            match st.square(*q) {
                Some(sq) if sq.side == side => {}
                _ => return Err(refuse("FMT-SQ-08", format!("you have no square {q}"))),
            }
        }
        let mut seen: Vec<StandId> = Vec::new();
        for f in &o.form {
            for i in f {
                let s = self.own_stand(st, side, *i)?;
                if !self.infantry(s) {
                    return Err(refuse(
                        "FMT-SQ-01",
                        format!("{} is mounted: only infantry form squares", s.name),
                    ));
                }
                if s.square.is_some() || seen.contains(i) {
                    return Err(refuse("FMT-SQ-01", format!("{} is already in a square", s.name)));
                }
                if self.engaged(st, s) {
                    return Err(refuse("FMT-TIME-18", format!("{} is frozen in a melee", s.name)));
                }
                if matches!(s.morale, Morale::Broken { .. }) {
                    return Err(refuse(
                        "FMT-MOR-04",
                        format!("{} is shaken and cannot move", s.name),
                    ));
                }
                seen.push(*i);
            }
            self.square_layout(st, f)?;
        }
        for i in &o.fire_and_charge {
            let s = self.own_stand(st, side, *i)?;
            if !self.troop(s).fire_and_charge {
                return Err(refuse(
                    "FMT-FC-01",
                    format!("only heavy infantry Fire and Charge, not {}", s.name),
                ));
            }
        }
        Ok(())
    }

    /// Checks a step of one stand at `at` (FMT-TIME-06..09, FMT-TIME-18, FMT-MOR-08, FMT-R-05,
    /// FMT-R-07); returns its footprint at the end.
    pub fn check_step(
        &self,
        st: &State,
        side: Side,
        id: StandId,
        to: Point,
        facing: Option<f64>,
    ) -> Result<Rect, Refusal> {
        let s = self.own_stand(st, side, id)?;
        self.may_move(st, s)?;
        if s.square.is_some() {
            return Err(refuse(
                "FMT-SQ-05",
                format!("{} is in a square: the square moves as a whole", s.name),
            ));
        }
        let f = match facing {
            Some(b) => facing_of(b)?,
            None => s.rect.facing,
        };
        if !(to.is_finite() && to.x.abs() < 1e6 && to.y.abs() < 1e6) {
            return Err(refuse("FMT-TIME-07", "the step must go to a point on the table"));
        }
        let end = self.footprint(to, f);
        if let Some(g) = st.grid {
            self.check_grid_step(s, &end, g)?;
        }
        // A step into an enemy is a charge: it stops where it touches (FMT-R-07), so only
        // friends may not stand where it would end, and the ground is judged where it stops.
        let touch =
            self.first_touch(st, side, &s.rect, to - s.rect.centre, &[]).filter(|(t, _)| *t < 1.0);
        let stop = match touch {
            Some((t, _)) => s.rect.translated((to - s.rect.centre) * t),
            None => end,
        };
        self.measure_way(st, s, &s.rect, &end, Gait::Single, touch.is_none())?;
        if touch.is_some() {
            self.measure(st, s, &s.rect, &stop, Gait::Single)?;
        }
        let except: Vec<StandId> = st
            .stands
            .iter()
            .filter(|o| o.id == id || (touch.is_some() && o.side != side))
            .map(|o| o.id)
            .collect();
        if let Some(o) = self.overlapping(st, &end, &except) {
            return Err(refuse(
                "FMT-R-07",
                format!("{} would end on {}", s.name, st.stands[o].name),
            ));
        }
        if let Some(h) = self.house_at(&st.table, stop.centre)
            && self.in_house(st, h, &[id]) >= self.data.rules.terrain.house_stands
        {
            return Err(refuse("FMT-R-37", "the house is full"));
        }
        self.check_advance(st, s, &end)?;
        Ok(end)
    }

    fn check_grid_step(
        &self,
        s: &crate::state::Stand,
        end: &Rect,
        cell: f64,
    ) -> Result<(), Refusal> {
        let c = end.centre;
        let on = |x: f64| ((x / cell - 0.5) - (x / cell - 0.5).round()).abs() < 1e-6;
        if !(on(c.x) && on(c.y)) {
            return Err(refuse("FMT-TIME-19", "on the grid a stand stops at a cell's centre"));
        }
        let d = end.centre - s.rect.centre;
        let cells = ((d.x.abs() + d.y.abs()) / cell).round() as u32;
        let allowed = ((self.troop(s).normal / cell).floor() as u32).max(1);
        if cells > allowed {
            return Err(refuse(
                "FMT-TIME-19",
                format!("{} moves {allowed} cells a step on the grid, not {cells}", s.name),
            ));
        }
        let b = bearing(end.facing);
        if (b / 90.0 - (b / 90.0).round()).abs() > 1e-6 {
            return Err(refuse("FMT-TIME-19", "on the grid a stand faces along the grid"));
        }
        Ok(())
    }

    /// Whether a stand may move now at all (FMT-TIME-11, FMT-TIME-18, FMT-MOR-04).
    pub fn may_move(&self, st: &State, s: &crate::state::Stand) -> Result<(), Refusal> {
        if s.frozen {
            return Err(refuse("FMT-TIME-11", format!("{} is frozen in melee contact", s.name)));
        }
        if let Morale::Broken { .. } = s.morale {
            return Err(refuse(
                "FMT-TIME-18",
                format!("{} was driven back and stands still until it rolls (FMT-MOR-04)", s.name),
            ));
        }
        let _ = st;
        Ok(())
    }

    /// A wavering stand may not advance (FMT-MOR-08, FMT-R-31).
    fn check_advance(
        &self,
        st: &State,
        s: &crate::state::Stand,
        end: &Rect,
    ) -> Result<(), Refusal> {
        if let Morale::Wavering { .. } = s.morale {
            let before = self.nearest_enemy_gap(st, s.side, &s.rect);
            let after = self.nearest_enemy_gap(st, s.side, end);
            if after + SLACK < before || after <= self.eps() + SLACK {
                return Err(refuse(
                    "FMT-MOR-08",
                    format!("{} is wavering: it may turn or fall back but not advance", s.name),
                ));
            }
        }
        Ok(())
    }

    fn check_timed(&self, st: &State, side: Side, at: u64) -> Result<(), Refusal> {
        let Some(c) = st.clock() else {
            return Err(refuse("FMT-TIME-01", "this is not the timed move"));
        };
        let h = &c.hands[side.index()];
        if h.done {
            return Err(refuse("FMT-TIME-06", "you have finished this timed move"));
        }
        if at >= c.length_ms {
            return Err(refuse("FMT-TIME-10", format!("the bell rang at {}", secs(c.length_ms))));
        }
        if at < c.now_ms {
            return Err(refuse(
                "FMT-R-06",
                format!("the game's time is already {}", secs(c.now_ms)),
            ));
        }
        if at < h.free_ms {
            return Err(refuse(
                "FMT-R-01",
                format!("your hands are busy until {}", secs(h.free_ms)),
            ));
        }
        Ok(())
    }

    /// Checks a timed command on the table as it stands at its moment (steps landing before
    /// it first land).
    fn check_window(&self, st: &State, side: Side, cmd: &Command) -> Result<(), Refusal> {
        let at = timed_at(cmd).unwrap_or(0);
        let lands = st.clock().is_some_and(|c| {
            c.hands.iter().any(|h| h.flight.as_ref().is_some_and(|f| f.lands_ms <= at))
        });
        if lands && !matches!(cmd, Command::FireAndCharge { .. } | Command::CallTime { .. }) {
            let mut copy = st.clone();
            let mut dice = tabletop::ScriptedDice::new([]);
            let mut run = Run { rules: self, st: &mut copy, events: Vec::new(), dice: &mut dice };
            run.land_until(at);
            return self.check_window_now(&copy, side, cmd);
        }
        self.check_window_now(st, side, cmd)
    }

    fn check_window_now(&self, st: &State, side: Side, cmd: &Command) -> Result<(), Refusal> {
        match cmd {
            Command::Step { at_ms, stand, to, facing } => {
                self.check_timed(st, side, *at_ms)?;
                self.check_step(st, side, *stand, *to, *facing).map(|_| ())
            }
            Command::Column { at_ms, stands, to } => {
                self.check_timed(st, side, *at_ms)?;
                if st.grid.is_some() {
                    return Err(refuse(
                        "FMT-TIME-19",
                        "on the grid every stand moves cell by cell: no columns",
                    ));
                }
                for i in stands {
                    let s = self.own_stand(st, side, *i)?;
                    self.may_move(st, s)?;
                    if s.square.is_some() {
                        return Err(refuse("FMT-SQ-05", format!("{} is in a square", s.name)));
                    }
                }
                self.is_column(st, stands)?;
                let plan = self.column_plan(st, stands, *to)?;
                for (i, end) in &plan {
                    let s = &st.stands[*i];
                    self.measure(st, s, &s.rect, end, Gait::Column)?;
                    if let Some(o) = self.overlapping(st, end, stands) {
                        return Err(refuse(
                            "FMT-R-07",
                            format!("{} would end on {}", s.name, st.stands[o].name),
                        ));
                    }
                    self.check_advance(st, s, end)?;
                }
                Ok(())
            }
            Command::MoveSquare { at_ms, square, by } => {
                self.check_timed(st, side, *at_ms)?;
                let q = st
                    .square(*square)
                    .filter(|q| q.side == side)
                    .ok_or_else(|| refuse("FMT-SQ-05", format!("you have no square {square}")))?;
                if !by.is_finite() {
                    return Err(refuse("FMT-SQ-05", "a square moves by a finite distance"));
                }
                for i in &q.stands {
                    let s = &st.stands[*i];
                    self.may_move(st, s)?;
                    let end = s.rect.translated(*by);
                    self.measure(st, s, &s.rect, &end, Gait::Square)?;
                    if let Some(o) = self.overlapping(st, &end, &q.stands) {
                        return Err(refuse(
                            "FMT-R-07",
                            format!("{} would end on {}", s.name, st.stands[o].name),
                        ));
                    }
                }
                Ok(())
            }
            Command::Wait { at_ms, until_ms } => {
                self.check_timed(st, side, *at_ms)?;
                if until_ms <= at_ms {
                    return Err(refuse("FMT-TIME-14", "wait until a later moment"));
                }
                Ok(())
            }
            Command::Done { at_ms } => self.check_timed(st, side, *at_ms),
            Command::FireAndCharge { at_ms, stand } => {
                let c = st.clock().ok_or_else(|| refuse("FMT-R-22", "not in the timed move"))?;
                if *at_ms < c.now_ms || *at_ms >= c.length_ms {
                    return Err(refuse(
                        "FMT-R-22",
                        "at a moment of this timed move, not before the last one",
                    ));
                }
                let s = self.own_stand(st, side, *stand)?;
                if !self.troop(s).fire_and_charge {
                    return Err(refuse(
                        "FMT-FC-01",
                        format!("only heavy infantry Fire and Charge, not {}", s.name),
                    ));
                }
                if s.fire_and_charge {
                    return Err(refuse(
                        "FMT-FC-02",
                        format!("{} is already called for a Fire and Charge", s.name),
                    ));
                }
                Ok(())
            }
            Command::CallTime { at_ms } => {
                let c = st.clock().ok_or_else(|| {
                    refuse("FMT-TIME-16", "\"Time\" is called during the timed move")
                })?;
                if *at_ms < c.now_ms || *at_ms > c.length_ms {
                    return Err(refuse("FMT-TIME-16", "\"Time\" is called during the timed move"));
                }
                Ok(())
            }
            _ => Err(refuse("FMT-TIME-01", "not now")),
        }
    }

    /// One placement of a list: a stand of the side's own, not placed before in the list, at a
    /// finite place and facing; its footprint there. `rule` is cited for a list that breaks it.
    fn placed<'a>(
        &self,
        st: &'a State,
        side: Side,
        p: &Placement,
        seen: &mut Vec<StandId>,
        rule: &'static str,
    ) -> Result<(&'a crate::state::Stand, Rect), Refusal> {
        let s = self.own_stand(st, side, p.stand)?;
        if seen.contains(&p.stand) {
            return Err(refuse(rule, format!("{} is placed twice", s.name)));
        }
        seen.push(p.stand);
        let f = facing_of(p.facing)?;
        if !(p.to.is_finite() && p.to.x.abs() < 1e6 && p.to.y.abs() < 1e6) {
            return Err(refuse(rule, "a place on the table"));
        }
        Ok((s, self.footprint(p.to, f)))
    }

    fn check_placements(&self, st: &State, side: Side, moves: &[Placement]) -> Result<(), Refusal> {
        let mut seen = Vec::new();
        for m in moves {
            let (s, to) = self.placed(st, side, m, &mut seen, "FMT-R-33")?;
            self.check_rearrangement(st, s, &to)?;
        }
        Ok(())
    }

    /// A side's hidden deployment: its own stands, each once, wholly within the deployment
    /// depth of its edge, on ground it may stand on, none on another (not in the source).
    fn check_deployment(
        &self,
        st: &State,
        side: Side,
        placements: &[Placement],
    ) -> Result<(), Refusal> {
        let depth = self.data.rules.deployment.depth;
        let mut ends: Vec<(StandId, Rect)> = Vec::new();
        let mut seen = Vec::new();
        for p in placements {
            let (s, r) = self.placed(st, side, p, &mut seen, "FMT-NIS-01")?;
            if r.corners().iter().any(|c| self.from_edge(st, side, *c) > depth + SLACK) {
                return Err(refuse(
                    "FMT-NIS-01",
                    format!(
                        "{} must stand within {depth}\" of your edge (not in the source)",
                        s.name
                    ),
                ));
            }
            // Judged as a step that ends there: the table, water, houses.
            let mut moved = s.clone();
            moved.rect = r;
            self.measure_way(st, &moved, &r, &r, Gait::Single, true)?;
            ends.push((p.stand, r));
        }
        let placed: Vec<StandId> = ends.iter().map(|(i, _)| *i).collect();
        let mut all: Vec<(StandId, Rect)> = ends.clone();
        all.extend(st.stands_of(side).filter(|s| !placed.contains(&s.id)).map(|s| (s.id, s.rect)));
        for (k, (i, a)) in all.iter().enumerate() {
            if let Some((j, _)) = all[k + 1..].iter().find(|(_, b)| a.overlaps(b)) {
                return Err(refuse(
                    "FMT-NIS-01",
                    format!(
                        "{} and {} would stand on each other",
                        st.stands[*i].name, st.stands[*j].name
                    ),
                ));
            }
        }
        Ok(())
    }

    fn check_bonus(&self, st: &State, side: Side, moves: &[Placement]) -> Result<(), Refusal> {
        let Phase::Bonus { queue } = &st.phase else {
            return Err(refuse("FMT-MELEE-14", "no bonus move is owed"));
        };
        let due = &queue[0];
        if due.side != side {
            return Err(refuse("FMT-MELEE-14", "the bonus move is the other side's"));
        }
        let mut seen = Vec::new();
        for m in moves {
            let (s, end) = self.placed(st, side, m, &mut seen, "FMT-MELEE-14")?;
            if !due.stands.contains(&m.stand) {
                return Err(refuse("FMT-MELEE-14", format!("{} has no bonus move", s.name)));
            }
            if let Morale::Broken { .. } = s.morale {
                return Err(refuse(
                    "FMT-MOR-04",
                    format!("{} is shaken and cannot move, even in a bonus move", s.name),
                ));
            }
            let meas = self.measure(st, s, &s.rect, &end, Gait::Single)?;
            if meas.cost > self.troop(s).normal + SLACK {
                return Err(refuse(
                    "FMT-MELEE-14",
                    format!("a bonus move is one normal move ({}\")", self.troop(s).normal),
                ));
            }
        }
        Ok(())
    }

    fn check_targets(
        &self,
        st: &State,
        side: Side,
        targets: &[(StandId, StandId)],
    ) -> Result<(), Refusal> {
        let mut seen = Vec::new();
        for (a, b) in targets {
            let s = self.own_stand(st, side, *a)?;
            if seen.contains(a) {
                return Err(refuse("FMT-FIRE-03", format!("{} shoots once a game move", s.name)));
            }
            seen.push(*a);
            let t = st
                .live(*b)
                .ok_or_else(|| refuse("FMT-R-35", format!("there is no stand {b} on the table")))?;
            self.may_target(st, s, t)?;
        }
        for s in st
            .stands_of(side)
            .filter(|s| s.fire_and_charge && self.weapon(s) == crate::data::WeaponKind::None)
        {
            if !seen.contains(&s.id)
                && st.stands_of(side.other()).any(|e| self.may_target(st, s, e).is_ok())
            {
                return Err(refuse(
                    "FMT-FC-02",
                    format!("{} called a Fire and Charge and must carry it out", s.name),
                ));
            }
        }
        Ok(())
    }
}

/// The game time a timed command carries.
pub fn timed_at(c: &Command) -> Option<u64> {
    match c {
        Command::Step { at_ms, .. }
        | Command::Column { at_ms, .. }
        | Command::MoveSquare { at_ms, .. }
        | Command::Wait { at_ms, .. }
        | Command::Done { at_ms }
        | Command::FireAndCharge { at_ms, .. }
        | Command::CallTime { at_ms }
        | Command::Tick { at_ms }
        | Command::Bell { at_ms } => Some(*at_ms),
        _ => None,
    }
}

impl Run<'_> {
    /// Carries out a checked command.
    pub fn command(&mut self, actor: Actor, cmd: &Command) {
        let side = match actor {
            Actor::Side(s) => s,
            Actor::Umpire => Side::Red,
        };
        if let Some(at) = timed_at(cmd)
            && self.st.clock().is_some()
        {
            self.land_until(at);
        }
        match cmd {
            Command::Ready(o) => self.ready(side, o),
            Command::Deploy { placements } => {
                self.emit(Event::Submitted {
                    side,
                    orders: Secret::Deploy { placements: placements.clone() },
                });
                if let Phase::Deploy { orders: [Some(r), Some(b)] } = &self.st.phase {
                    let all: Vec<Placement> = r.iter().chain(b.iter()).cloned().collect();
                    for p in all {
                        let who = self.st.stands[p.stand].name.clone();
                        let to = self.rules.footprint(p.to, Facing::from_bearing_degrees(p.facing));
                        self.emit(Event::Deployed { stand: p.stand, who, to });
                    }
                    self.emit(Event::PhaseBegun { phase: Phase::Ready { orders: [None, None] } });
                }
                return;
            }
            Command::Step { at_ms, stand, to, facing } => {
                let f = facing.unwrap_or_else(|| bearing(self.st.stands[*stand].rect.facing));
                self.begin(side, *at_ms, Order::Step { stand: *stand, to: *to, facing: f }, 1);
            }
            Command::Column { at_ms, stands, to } => {
                let order = Order::Column { stands: stands.clone(), to: *to };
                self.begin(side, *at_ms, order, stands.len());
            }
            Command::MoveSquare { at_ms, square, by } => {
                let n = self.st.square(*square).map_or(1, |q| q.stands.len());
                self.begin(side, *at_ms, Order::Square { square: *square, by: *by }, n);
            }
            Command::Wait { at_ms, until_ms } => {
                self.emit(Event::Waited { side, at_ms: *at_ms, until_ms: *until_ms })
            }
            Command::Done { at_ms } => self.emit(Event::Finished { side, at_ms: *at_ms }),
            Command::FireAndCharge { at_ms, stand } => {
                let who = self.st.stands[*stand].name.clone();
                self.emit(Event::Flagged { stand: *stand, who, at_ms: *at_ms });
            }
            Command::CallTime { at_ms } => {
                self.emit(Event::TimeCalled { side, at_ms: *at_ms });
                self.close(*at_ms, true);
                return;
            }
            Command::Bell { at_ms } => {
                self.close(*at_ms, false);
                return;
            }
            Command::Tick { .. } => {}
            Command::Rearrange { moves } => {
                self.emit(Event::Submitted {
                    side,
                    orders: Secret::Rearrange { moves: moves.clone() },
                });
                if let Phase::Rearrange { orders: [Some(r), Some(b)] } = &self.st.phase {
                    let o = [r.clone(), b.clone()];
                    self.rearrange(o);
                }
                return;
            }
            Command::Fire { targets } => {
                self.emit(Event::Submitted {
                    side,
                    orders: Secret::Fire { targets: targets.clone() },
                });
                if let Phase::Fire { orders: [Some(r), Some(b)] } = &self.st.phase {
                    let mut all = r.clone();
                    all.extend(b.iter().copied());
                    self.combat(all);
                }
                return;
            }
            Command::PullOut { melees } => {
                self.emit(Event::Submitted {
                    side,
                    orders: Secret::PullOut { melees: melees.clone() },
                });
                if let Phase::PullOut { orders: [Some(r), Some(b)], .. } = &self.st.phase {
                    let o = [r.clone(), b.clone()];
                    self.pull_outs(o);
                }
                return;
            }
            Command::Bonus { moves } => {
                self.bonus(moves.clone());
                return;
            }
        }
        if self.st.clock().is_some() {
            self.land_ahead();
            self.close_if_spent();
        }
    }

    /// Lands every step that lands before anyone can act again (nothing can come between).
    fn land_ahead(&mut self) {
        let Some(c) = self.st.clock() else { return };
        let next = Side::BOTH
            .iter()
            .map(|s| &c.hands[s.index()])
            .filter(|h| !h.done)
            .map(|h| h.free_ms.max(c.now_ms))
            .min()
            .unwrap_or(c.length_ms)
            .min(c.length_ms);
        self.land_until(next);
    }

    fn ready(&mut self, side: Side, o: &ReadyOrders) {
        self.emit(Event::Ready { side, orders: o.clone() });
        for i in &o.fire_and_charge {
            if !self.st.stands[*i].fire_and_charge {
                let who = self.st.stands[*i].name.clone();
                self.emit(Event::Flagged { stand: *i, who, at_ms: 0 });
            }
        }
        let mut kept = o.keep.clone();
        for f in &o.form {
            if let Ok(rects) = self.rules.square_layout(self.st, f) {
                let id = self.st.next_id;
                kept.push(id);
                self.emit(Event::SquareFormed {
                    square: Square { id, side, stands: f.clone() },
                    rects,
                });
            }
        }
        let gone: Vec<u32> = self
            .st
            .squares
            .iter()
            .filter(|q| q.side == side && !kept.contains(&q.id))
            .map(|q| q.id)
            .collect();
        for q in gone {
            self.emit(Event::SquareGone {
                square: q,
                why: "not announced as staying a square".into(),
                rule: tabletop::RuleId::new("FMT-SQ-08"),
            });
        }
        if let Phase::Ready { orders: [Some(_), Some(_)] } = &self.st.phase {
            self.open_window();
        }
    }
}

impl Freemove {
    /// The sides that may act now, as `pending` names them (without its words).
    pub fn waiting(&self, st: &State) -> Vec<Side> {
        let open = |o: [bool; 2]| Side::BOTH.into_iter().filter(|s| !o[s.index()]).collect();
        match &st.phase {
            Phase::Over => Vec::new(),
            Phase::Deploy { orders } => open([orders[0].is_some(), orders[1].is_some()]),
            Phase::Ready { orders } => open([orders[0].is_some(), orders[1].is_some()]),
            Phase::Window { clock } => self.timed_sides(clock),
            Phase::Rearrange { orders } => open([orders[0].is_some(), orders[1].is_some()]),
            Phase::Fire { orders } => open([orders[0].is_some(), orders[1].is_some()]),
            Phase::PullOut { orders, .. } => open([orders[0].is_some(), orders[1].is_some()]),
            Phase::Bonus { queue } => vec![queue[0].side],
        }
    }
}

impl RuleSet for Freemove {
    type Scenario = Scenario;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;

    fn id(&self) -> &'static str {
        crate::ID
    }

    fn version(&self) -> &'static str {
        env!("CARGO_PKG_VERSION")
    }

    fn load_scenario(&self, source: &Source) -> Result<Scenario, Diagnostics> {
        self.parse_scenario(source)
    }

    fn setup(&self, scenario: &Scenario, _dice: &mut dyn DiceSource) -> (State, Vec<Event>) {
        let st = scenario.state.clone();
        let mut events = Vec::new();
        for side in Side::BOTH {
            let mut types: Vec<(String, u32, u32)> = Vec::new();
            for s in st.stands_of(side) {
                let t = self.troop(s);
                match types.iter_mut().find(|x| x.0 == t.name) {
                    Some(x) => x.1 += 1,
                    None => types.push((t.name.clone(), 1, t.points)),
                }
            }
            let info = st.side(side);
            events.push(Event::Mustered {
                side,
                stands: info.start_stands,
                points: info.start_points,
                types,
            });
        }
        events.push(Event::MoveBegun { game_move: 1 });
        (st, events)
    }

    fn pending(&self, st: &State) -> Pending {
        let gm = st.game_move;
        let both = |what: String| Pending::Both { waiting: self.waiting(st), what };
        match &st.phase {
            Phase::Over => Pending::Over,
            Phase::Deploy { .. } => {
                both("before the battle: place your stands near your edge, in secret".into())
            }
            Phase::Ready { .. } => {
                both(format!("game move {gm}: declare squares and Fire and Charge, then ready"))
            }
            Phase::Window { clock } => Pending::Timed {
                sides: self.waiting(st),
                closes_at_ms: clock.length_ms,
                what: format!(
                    "game move {gm}: the timed move, {} of {} gone",
                    secs(clock.now_ms),
                    secs(clock.length_ms)
                ),
            },
            Phase::Rearrange { .. } => {
                both(format!("game move {gm}: rearrange stands not engaged"))
            }
            Phase::Fire { .. } => both(format!("game move {gm}: name your targets")),
            Phase::PullOut { .. } => both(format!("game move {gm}: pull out of a melee?")),
            Phase::Bonus { queue } => {
                Pending::Side { side: queue[0].side, what: format!("game move {gm}: bonus move") }
            }
        }
    }

    fn timed_clock(&self, st: &State) -> Option<tabletop::TimedClock> {
        let c = st.clock()?;
        let free = |s: Side| {
            let h = &c.hands[s.index()];
            (!h.done && h.free_ms < c.length_ms).then_some(h.free_ms.max(c.now_ms))
        };
        Some(tabletop::TimedClock {
            now_ms: c.now_ms,
            free_ms: [free(Side::Red), free(Side::Blue)],
            wake_ms: c.hands.iter().filter_map(|h| h.flight.as_ref().map(|f| f.lands_ms)).min(),
        })
    }

    fn check(&self, st: &State, actor: Actor, cmd: &Command) -> Result<(), Refusal> {
        if st.outcome.is_some() {
            return Err(refuse("FMT-SEQ-01", "the battle is over"));
        }
        if let Command::Bell { at_ms } = cmd {
            if actor != Actor::Umpire {
                return Err(refuse("FMT-TIME-10", "only the clock rings the bell"));
            }
            let c = st.clock().ok_or_else(|| refuse("FMT-TIME-10", "not in the timed move"))?;
            if *at_ms < c.length_ms || *at_ms < c.now_ms {
                return Err(refuse(
                    "FMT-TIME-10",
                    format!("the bell rings at {}", secs(c.length_ms)),
                ));
            }
            return Ok(());
        }
        if let Command::Tick { at_ms } = cmd {
            if actor != Actor::Umpire {
                return Err(refuse("FMT-R-09", "only the clock ticks"));
            }
            let c = st.clock().ok_or_else(|| refuse("FMT-R-09", "not in the timed move"))?;
            if *at_ms < c.now_ms || *at_ms > c.length_ms {
                return Err(refuse(
                    "FMT-R-09",
                    "a tick comes at a moment of this timed move, not before the last",
                ));
            }
            return Ok(());
        }
        let side = self.actor_side(actor)?;
        let waiting = self.waiting(st);
        match (&st.phase, cmd) {
            (Phase::Deploy { .. }, Command::Deploy { placements }) if waiting.contains(&side) => {
                self.check_deployment(st, side, placements)
            }
            (Phase::Ready { orders }, Command::Ready(o)) => {
                if orders[side.index()].is_some() {
                    return Err(refuse("FMT-TIME-01", "you are already ready"));
                }
                self.check_ready(st, side, o)
            }
            (Phase::Window { .. }, _) if timed_at(cmd).is_some() => {
                if !matches!(cmd, Command::FireAndCharge { .. } | Command::CallTime { .. })
                    && st.clock().is_none_or(|c| c.hands[side.index()].done)
                {
                    return Err(refuse("FMT-TIME-06", "you have finished this timed move"));
                }
                self.check_window(st, side, cmd)
            }
            (Phase::Rearrange { .. }, Command::Rearrange { moves }) if waiting.contains(&side) => {
                self.check_placements(st, side, moves)
            }
            (Phase::Fire { .. }, Command::Fire { targets }) if waiting.contains(&side) => {
                self.check_targets(st, side, targets)
            }
            (Phase::PullOut { melees, .. }, Command::PullOut { melees: m })
                if waiting.contains(&side) =>
            {
                for id in m {
                    if !melees.contains(id) {
                        return Err(refuse(
                            "FMT-MELEE-22",
                            format!("melee {id} cannot be left now"),
                        ));
                    }
                    let mine = st.melees.iter().find(|x| x.id == *id).is_some_and(|x| {
                        x.members
                            .iter()
                            .any(|i| st.stands[*i].on_table && st.stands[*i].side == side)
                    });
                    if !mine {
                        return Err(refuse(
                            "FMT-MELEE-22",
                            format!("you have no stand left in melee {id} to pull out"),
                        ));
                    }
                }
                Ok(())
            }
            (Phase::Bonus { .. }, Command::Bonus { moves }) => self.check_bonus(st, side, moves),
            _ => Err(refuse("FMT-R-30", format!("not now: {}", self.pending(st).what()))),
        }
    }

    fn execute(
        &self,
        st: &State,
        actor: Actor,
        cmd: &Command,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Event>, Refusal> {
        let mut copy = st.clone();
        self.perform(&mut copy, actor, cmd, dice)
    }

    fn perform(
        &self,
        st: &mut State,
        actor: Actor,
        cmd: &Command,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Event>, Refusal> {
        self.check(st, actor, cmd)?;
        let mut run = Run { rules: self, st, events: Vec::new(), dice };
        run.command(actor, cmd);
        Ok(run.events)
    }

    fn apply(&self, st: &mut State, e: &Event) {
        self.apply_event(st, e);
    }

    fn view(&self, st: &State, viewer: Viewer) -> View {
        crate::view::view(self, st, viewer)
    }

    fn outcome(&self, st: &State) -> Option<Outcome> {
        st.outcome.clone()
    }

    fn candidates(&self, st: &State, side: Side, rng: &mut SeededDice) -> Vec<Command> {
        crate::bot::candidates(self, st, side, rng)
    }

    fn scene(&self, st: &State, viewer: Viewer) -> Scene {
        crate::view::scene(self, st, viewer)
    }

    fn turn(&self, st: &State) -> Option<u32> {
        Some(st.game_move)
    }

    fn summary(&self, st: &State) -> Summary {
        let mut sides = Vec::new();
        for side in Side::BOTH {
            let info = st.side(side);
            let mut s = SideSummary::new(side);
            s.units_start = Some(info.start_stands);
            s.units_lost =
                Some(st.stands.iter().filter(|x| x.side == side && !x.on_table).count() as u32);
            s.strength_start = Some(info.start_points as f64);
            s.strength = Some(st.stands_of(side).map(|x| self.points(x) as f64).sum());
            sides.push(s);
        }
        Summary { sides }
    }

    fn controls(&self, st: &State, side: Side) -> Controls {
        crate::view::controls(self, st, side)
    }

    fn measure(
        &self,
        st: &State,
        side: Side,
        req: &tabletop::controls::MeasureRequest,
    ) -> Option<tabletop::controls::Measurement> {
        crate::view::measure(self, st, side, req)
    }

    fn roster(&self, st: &State, viewer: Viewer) -> Vec<RosterRow> {
        crate::view::roster(self, st, viewer)
    }
}
