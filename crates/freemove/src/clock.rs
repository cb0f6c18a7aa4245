//! The timed move: the window's length, the sides' hands, steps landing in time order, contact
//! freezing both stands, the bell and "Time!" (FMT-TIME-01..18, FMT-R-01..11).
//!
//! A step begun at `t` keeps its side's hands busy until `t + h` and lands then: it is played
//! against the table as it stands at that moment, so the other side sees it only once it has
//! landed (FMT-R-08). Before any timed command at `T`, every step that lands at or before `T`
//! lands, in time order, ties going to the side that won the window's initiative roll.

use crate::Freemove;
use crate::geom::{Gait, SLACK, bearing, fmt_in};
use crate::state::{Clock, Event, Flight, Hands, Order, Phase, StandId, State};
use tabletop::dice::{DiceSource, Die, Roll, roll};
use tabletop::geometry::{Facing, Rect};
use tabletop::rules::{RuleId, Side};

/// A command being carried out: the state it works on (a copy, or the game's own state when
/// performed in place), the events so far and the dice. Every change goes through
/// [`Run::emit`], which applies the event and keeps it.
pub struct Run<'a> {
    /// The rules.
    pub rules: &'a Freemove,
    /// The state, changed event by event.
    pub st: &'a mut State,
    /// The events so far.
    pub events: Vec<Event>,
    /// The dice.
    pub dice: &'a mut dyn DiceSource,
}

impl Run<'_> {
    /// Applies an event and keeps it.
    pub fn emit(&mut self, e: Event) {
        self.rules.apply_event(self.st, &e);
        self.events.push(e);
    }

    /// A side begins a step at `at` that moves `stands` stands: its hands are busy for the
    /// handling time of each (FMT-R-05).
    pub fn begin(&mut self, side: Side, at: u64, order: Order, stands: usize) {
        let lands_ms = at + self.st.handling_ms * stands as u64;
        self.emit(Event::StepBegun { side, flight: Flight { order, issued_ms: at, lands_ms } });
    }

    /// Rolls a d6.
    pub fn d6(
        &mut self,
        purpose: impl Into<std::borrow::Cow<'static, str>>,
        rule: &'static str,
    ) -> Roll {
        roll(self.dice, Die::D6, purpose, RuleId::new(rule))
    }

    /// Opens the timed move (FMT-TIME-01..05, FMT-R-03, FMT-R-06).
    pub fn open_window(&mut self) {
        let (length_ms, basis) = self.rules.window_length(self.st);
        let mut rolls = Vec::new();
        let tie = loop {
            let r = self.d6("red's initiative", "FMT-R-06");
            let b = self.d6("blue's initiative", "FMT-R-06");
            let (rv, bv) = (r.value, b.value);
            rolls.push(r);
            rolls.push(b);
            if rv != bv {
                break if rv > bv { Side::Red } else { Side::Blue };
            }
        };
        let mut rules = vec![
            RuleId::new("FMT-TIME-01"),
            RuleId::new("FMT-TIME-02"),
            RuleId::new("FMT-TIME-05"),
            RuleId::new("FMT-R-06"),
        ];
        // The stage of the window is judged from the losses every time (FMT-TIME-03, 04).
        rules.push(RuleId::new("FMT-TIME-03"));
        rules.push(RuleId::new("FMT-TIME-04"));
        self.emit(Event::WindowOpened { length_ms, basis, tie, rolls, rules });
        let still: Vec<String> = self
            .st
            .stands
            .iter()
            .filter(|s| {
                s.on_table && (s.frozen || matches!(s.morale, crate::state::Morale::Broken { .. }))
            })
            .map(|s| s.name.clone())
            .collect();
        if !still.is_empty() {
            let shaken = self
                .st
                .stands
                .iter()
                .any(|s| s.on_table && matches!(s.morale, crate::state::Morale::Broken { .. }));
            let mut rules = vec![RuleId::new("FMT-TIME-18")];
            if shaken {
                rules.push(RuleId::new("FMT-MOR-04"));
            }
            self.emit(Event::Noted {
                text: format!(
                    "frozen in melee or shaken, these may not move in this timed move: {}",
                    still.join(", ")
                ),
                rules,
            });
        }
    }

    /// Lands, in time order, every step under way that lands at or before `t`.
    pub fn land_until(&mut self, t: u64) {
        loop {
            let Some(clock) = self.st.clock() else { return };
            let next = Side::BOTH
                .iter()
                .filter_map(|s| {
                    clock.hands[s.index()]
                        .flight
                        .as_ref()
                        .map(|f| (f.lands_ms, *s != clock.first_at(f.lands_ms), *s))
                })
                .filter(|(l, _, _)| *l <= t)
                .min();
            let Some((_, _, side)) = next else { return };
            self.land(side);
        }
    }

    fn void(&mut self, side: Side, at_ms: u64, why: impl Into<String>, rule: &'static str) {
        self.emit(Event::StepVoid { side, at_ms, why: why.into(), rule: RuleId::new(rule) });
    }

    /// Lands `side`'s step (FMT-R-06, FMT-R-07).
    fn land(&mut self, side: Side) {
        let Some(flight) = self.st.clock().and_then(|c| c.hands[side.index()].flight.clone())
        else {
            return;
        };
        let at = flight.lands_ms;
        // Every stand the order moves, with where it is to end.
        let plan: Vec<(StandId, Rect)> = match &flight.order {
            Order::Step { stand, to, facing } => {
                if self.st.live(*stand).is_none() {
                    return self.void(side, at, "the stand is gone", "FMT-R-06");
                }
                vec![(*stand, self.rules.footprint(*to, Facing::from_bearing_degrees(*facing)))]
            }
            Order::Column { stands, to } => match self.rules.column_plan(self.st, stands, *to) {
                Ok(p) => p,
                Err(r) => return self.void(side, at, r.reason, "FMT-R-34"),
            },
            Order::Square { square, by } => match self.st.square(*square) {
                Some(q) => {
                    q.stands.iter().map(|i| (*i, self.st.stands[*i].rect.translated(*by))).collect()
                }
                None => return self.void(side, at, "the square is no more", "FMT-SQ-06"),
            },
        };
        for (id, _) in &plan {
            let s = &self.st.stands[*id];
            if !s.on_table {
                return self.void(side, at, format!("{} is gone", s.name), "FMT-R-06");
            }
            if s.frozen {
                return self.void(
                    side,
                    at,
                    format!("{} was frozen in contact before its step landed", s.name),
                    "FMT-TIME-11",
                );
            }
        }
        let movers: Vec<StandId> = plan.iter().map(|(i, _)| *i).collect();
        // The first touch of any mover, moving straight from where it is (the turn comes at
        // the end, FMT-R-05).
        let mut first: Option<(f64, StandId, StandId)> = None;
        for (id, end) in &plan {
            let r = self.st.stands[*id].rect;
            let d = end.centre - r.centre;
            if let Some((t, e)) = self.rules.first_touch(self.st, side, &r, d, &[])
                && t < 1.0 - 1e-12
                && first.is_none_or(|(ft, _, _)| t < ft)
            {
                first = Some((t, *id, e));
            }
        }
        let ends: Vec<(StandId, Rect)> = match first {
            Some((t, _, _)) => plan
                .iter()
                .map(|(id, end)| {
                    let r = self.st.stands[*id].rect;
                    (*id, r.translated((end.centre - r.centre) * t))
                })
                .collect(),
            None => plan.clone(),
        };
        if first.is_some() {
            // Stopped by an enemy: it may not stop on a friend either.
            let mut except: Vec<StandId> =
                self.st.stands.iter().filter(|o| o.side != side).map(|o| o.id).collect();
            except.extend(&movers);
            for (id, end) in &ends {
                if let Some(o) = self.rules.overlapping(self.st, end, &except) {
                    let why = format!(
                        "{} would stop on {}",
                        self.st.stands[*id].name, self.st.stands[o].name
                    );
                    return self.void(side, at, why, "FMT-R-07");
                }
            }
        }
        if first.is_none() {
            for (id, end) in &ends {
                if let Some(o) = self.rules.overlapping(self.st, end, &movers) {
                    let why = format!(
                        "{} would end on {}, who stands there now",
                        self.st.stands[*id].name, self.st.stands[o].name
                    );
                    return self.void(side, at, why, "FMT-R-07");
                }
                if let Some(h) = self.rules.house_at(&self.st.table, end.centre)
                    && self.rules.in_house(self.st, h, &movers)
                        >= self.rules.data.rules.terrain.house_stands
                {
                    return self.void(side, at, "the house is full", "FMT-R-37");
                }
            }
        }
        let gait = match &flight.order {
            Order::Step { .. } => Gait::Single,
            Order::Column { .. } => Gait::Column,
            Order::Square { .. } => Gait::Square,
        };
        let mut contacts: Vec<(StandId, StandId, bool)> = Vec::new();
        for (id, end) in &ends {
            let s = self.st.stands[*id].clone();
            let m = match self.rules.measure(self.st, &s, &s.rect, end, gait) {
                Ok(m) => m,
                Err(r) => {
                    // Only a way stopped short can be cheaper than checked; anything else is a
                    // change of the ground under the step, which does not happen: keep the
                    // refusal's reason in the log.
                    return self.void(side, at, r.reason, "FMT-R-06");
                }
            };
            let mut rules = m.rules.clone();
            if gait == Gait::Square {
                rules.push(RuleId::new("FMT-SQ-07"));
            }
            if self.st.grid.is_some() {
                rules.push(RuleId::new("FMT-TIME-19"));
            }
            let who = s.name.clone();
            let from = s.rect;
            self.emit(Event::Stepped {
                stand: *id,
                who,
                at_ms: at,
                from,
                to: *end,
                length: m.length,
                cost: m.cost,
                allowance: m.allowance,
                items: m.items,
                basis: {
                    let road = gait == Gait::Single
                        && self.rules.on_road(&self.st.table, from.centre, end.centre);
                    self.rules.allowance(self.st, &s, gait, road).1
                },
                rules,
            });
            for e in self.rules.enemies_touching(self.st, *id) {
                let uphill = self.st.table.elevation(from.centre) + 1e-9
                    < self.st.table.elevation(self.st.stands[e].rect.centre);
                contacts.push((*id, e, uphill));
            }
        }
        for (mover, met, uphill) in contacts {
            let names = (self.st.stands[mover].name.clone(), self.st.stands[met].name.clone());
            self.emit(Event::Contact { mover, met, names, at_ms: at, uphill });
        }
    }

    /// Closes the window if neither side can do anything more in it.
    pub fn close_if_spent(&mut self) {
        let Some(c) = self.st.clock() else { return };
        let spent = c.hands.iter().all(|h| h.done || h.free_ms >= c.length_ms);
        if spent {
            let at = c.length_ms;
            self.close(at, false);
        }
    }

    /// The bell, or "Time!": lands what lands by `at` and voids the rest (FMT-TIME-10,
    /// FMT-TIME-16).
    pub fn close(&mut self, at: u64, called: bool) {
        let Some(length) = self.st.clock().map(|c| c.length_ms) else { return };
        let until = if called { at } else { length.min(at) };
        self.land_until(until);
        let void: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|s| self.st.clock().is_some_and(|c| c.hands[s.index()].flight.is_some()))
            .collect();
        self.emit(Event::WindowClosed { at_ms: until, void });
        if called {
            let game_move = self.st.game_move;
            self.emit(Event::NoCombat { game_move });
            self.end_of_move();
        } else {
            self.after_window();
        }
    }
}

impl Freemove {
    /// The window's length now and how it was worked out (FMT-R-02, FMT-R-03, FMT-R-04).
    pub fn window_length(&self, st: &State) -> (u64, String) {
        let start: u32 = st.sides.iter().map(|s| s.start_stands).sum();
        let lost = st.stands.iter().filter(|s| !s.on_table).count() as f64;
        let share = if start == 0 { 0.0 } else { lost / start as f64 };
        let (len, k) = self.staged(st.primary_ms, share);
        let basis = format!(
            "primary window {} s; {} of {} stands of both armies lost ({}%), so {}",
            st.primary_ms / 1000,
            lost as u32,
            start,
            (share * 100.0).round(),
            match k {
                0 => "the primary window".to_string(),
                1 => "half of it".to_string(),
                n => format!("1/{} of it", 1u32 << n),
            }
        );
        (len, basis)
    }

    /// The window at a destroyed share of both armies: the primary halved at each stage
    /// passed, never below the minimum (FMT-R-03); with the number of stages passed.
    pub fn staged(&self, primary_ms: u64, share: f64) -> (u64, u32) {
        let c = &self.data.rules.clock;
        let k = c.stages.iter().filter(|x| share + 1e-12 >= **x).count() as u32;
        ((primary_ms >> k).max(c.minimum_ms.min(primary_ms)), k)
    }

    /// Who may act in a timed move, the first to be asked first: sides not done whose hands
    /// are free before the bell, by the time they are free, ties to the initiative.
    pub fn timed_sides(&self, c: &Clock) -> Vec<Side> {
        let mut v: Vec<(u64, bool, Side)> = Side::BOTH
            .iter()
            .filter(|s| {
                let h = &c.hands[s.index()];
                !h.done && h.free_ms < c.length_ms
            })
            .map(|s| {
                let t = c.hands[s.index()].free_ms.max(c.now_ms);
                (t, *s != c.first_at(t), *s)
            })
            .collect();
        v.sort();
        v.into_iter().map(|x| x.2).collect()
    }

    /// The moment a side would act next: when its hands are free, or now if later.
    pub fn free_at(&self, st: &State, side: Side) -> Option<u64> {
        st.clock().map(|c| c.hands[side.index()].free_ms.max(c.now_ms))
    }

    /// Where a column's stands end when its head goes to `to`: the head faces the way it goes,
    /// the file re-forms behind it (FMT-R-34).
    pub fn column_plan(
        &self,
        st: &State,
        stands: &[StandId],
        to: tabletop::geometry::Point,
    ) -> Result<Vec<(StandId, Rect)>, tabletop::Refusal> {
        let head = st
            .live(stands[0])
            .ok_or_else(|| tabletop::Refusal::new("FMT-R-34", "the head of the column is gone"))?;
        let dir = to - head.rect.centre;
        let facing = Facing::from_vector(dir).unwrap_or(head.rect.facing);
        let depth = self.data.rules.stand.depth;
        Ok(stands
            .iter()
            .enumerate()
            .map(|(k, id)| (*id, self.footprint(to - facing.vector() * (depth * k as f64), facing)))
            .collect())
    }

    /// Whether `stands` (head first) form a column: two or more stands of one type, nose to
    /// tail with the same facing (FMT-R-34).
    pub fn is_column(&self, st: &State, stands: &[StandId]) -> Result<(), tabletop::Refusal> {
        let bad = |why: &str| Err(tabletop::Refusal::new("FMT-R-34", why));
        if stands.len() < 2 {
            return bad("a column is a file of at least two stands");
        }
        let mut seen = Vec::new();
        for w in stands.windows(2) {
            let (Some(a), Some(b)) = (st.live(w[0]), st.live(w[1])) else {
                return bad("every stand of the column must be on the table");
            };
            if seen.contains(&w[1]) || w[0] == w[1] {
                return bad("a stand appears twice in the column");
            }
            seen.push(w[0]);
            if a.troop != b.troop || a.side != b.side {
                return bad("a column is of one type of stand");
            }
            if a.rect.facing.angle_to(b.rect.facing).abs() > 1e-3 {
                return bad("the stands of a column face the same way");
            }
            let behind = a.rect.centre - a.rect.facing.vector() * a.rect.depth;
            if behind.distance(b.rect.centre) > self.eps() + SLACK {
                return bad("each stand of a column stands nose to tail behind the one before");
            }
        }
        Ok(())
    }
}

/// A step's description for the log.
pub fn order_text(st: &State, o: &Order) -> String {
    match o {
        Order::Step { stand, to, facing } => {
            let s = &st.stands[*stand];
            format!(
                "{} to ({}, {}) facing {}°",
                s.name,
                fmt_in(to.x),
                fmt_in(to.y),
                fmt_in(*facing)
            )
        }
        Order::Column { stands, to } => format!(
            "a column of {} led by {} to ({}, {})",
            stands.len(),
            st.stands[stands[0]].name,
            fmt_in(to.x),
            fmt_in(to.y)
        ),
        Order::Square { square, by } => {
            format!(
                "square {square} by {}\" bearing {}°",
                fmt_in(by.length()),
                fmt_in(bearing(Facing::from_vector(*by).unwrap_or(Facing::NORTH)))
            )
        }
    }
}

/// The phase of a new window.
pub fn window_phase(length_ms: u64, tie: Side, slot_ms: u64) -> Phase {
    Phase::Window {
        clock: Clock {
            length_ms,
            now_ms: 0,
            hands: [Hands::default(), Hands::default()],
            tie,
            slot_ms,
        },
    }
}
