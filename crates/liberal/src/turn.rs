//! The turn machine: the roll-offs, deployment, each side's steps A to E, the liberal move's
//! steps with the fire after each, the end of the turn, the night and the end of the battle.
//! Every change goes through [`Run::emit`], which applies the event and keeps it.

use crate::Liberal;
use crate::data::Kind;
use crate::state::{
    Choice, Command, Event, Flag, Formation, Hit, Leg, Moved, Mover, NightRow, Objective, Order,
    Phase, Place, Stage, State, Status, UnitId,
};
use tabletop::dice::DiceSource;
use tabletop::geometry::{Facing, Point, Rect};
use tabletop::rules::{Actor, Outcome, Side};

/// A command being carried out.
pub struct Run<'a> {
    /// The rules.
    pub rules: &'a Liberal,
    /// The state, changed event by event.
    pub st: &'a mut State,
    /// The events so far.
    pub events: Vec<Event>,
    /// The dice.
    pub dice: &'a mut dyn DiceSource,
}

fn ids(v: &[&'static str]) -> Vec<tabletop::rules::RuleId> {
    v.iter().map(|s| tabletop::rules::RuleId::new(s)).collect()
}

/// One shot of an exchange, worked out before any is applied (LIB-FIRE-03).
enum Shot {
    Volley(crate::state::Volley, Vec<Hit>, Vec<tabletop::rules::RuleId>),
    Cannon(crate::state::Cannonade, Vec<Hit>, Vec<tabletop::rules::RuleId>),
}

impl Liberal {
    /// The normal move of a unit in a formation (LIB-CHOICE-02..06, LIB-R-17, LIB-M-10).
    pub fn rate(
        &self,
        st: &State,
        u: &crate::state::Unit,
        formation: Formation,
        road: bool,
    ) -> f64 {
        if let Some(g) = &u.gun {
            let gt = &self.data.guns[self.gun_kind(g)];
            return if road { gt.road } else { gt.column };
        }
        let _ = st;
        let t = if self.data.troops[u.troop].kind == Kind::Horse && !u.mounted {
            &self.data.troops[0]
        } else {
            &self.data.troops[u.troop]
        };
        match formation {
            Formation::Square => self.data.rules.formation.square_move,
            Formation::Line | Formation::House => t.line,
            Formation::Column | Formation::RoadColumn => {
                if road {
                    t.road
                } else {
                    t.column
                }
            }
        }
    }

    /// The gun's type now: a horse gun demoted for losing its artillerymen is a foot gun
    /// (LIB-ART-14).
    pub fn gun_kind(&self, g: &crate::state::Gun) -> usize {
        if g.demoted {
            self.data.guns.iter().position(|x| !x.move_and_fire).unwrap_or(g.kind)
        } else {
            g.kind
        }
    }

    /// The allowance of a move from one formation to another, with why (LIB-CHOICE-05,
    /// LIB-R-16, LIB-M-05).
    pub fn allowance(
        &self,
        st: &State,
        u: &crate::state::Unit,
        to: Formation,
        road: bool,
    ) -> (f64, String) {
        let from = u.place.formation;
        // Dismounted cavalry changes formation as infantry too (LIB-M-10), as in `rate`.
        let t = if self.data.troops[u.troop].kind == Kind::Horse && !u.mounted {
            &self.data.troops[0]
        } else {
            &self.data.troops[u.troop]
        };
        let base = self.rate(st, u, from, road && to == from);
        if u.gun.is_some() || from == to || from == Formation::House || to == Formation::House {
            let what = if u.gun.is_some() {
                if road { "the gun's road rate" } else { "the gun's rate" }
            } else if road {
                "road rate in column"
            } else {
                "the normal move"
            };
            if from == Formation::House && u.gun.is_none() {
                return (base, format!("out of the house at the line rate ({base}\")"));
            }
            if to == Formation::House && u.gun.is_none() {
                return (base, format!("{what} in {}, into the house ({base}\")", from.name()));
            }
            return (base, format!("{what} in {} ({base}\")", from.name()));
        }
        let sq = self.data.rules.formation.square_move;
        let change = match (from, to) {
            (_, Formation::Square) | (Formation::Square, _) => sq,
            (Formation::Line, _) => t.line_to_column,
            (_, Formation::Line) => t.column_to_line,
            _ => base,
        };
        let a = change.min(self.rate(st, u, to, false).max(change.min(base)));
        (a, format!("changing {} to {} ({a}\")", from.name(), to.name()))
    }

    /// What a move from `from` to `to` uses: the distance of the front centre and the wheel of
    /// the outer figure (LIB-M-06); turning about in place is free.
    pub fn move_cost(&self, u: &crate::state::Unit, from: &Place, to: &Place) -> f64 {
        let dist = from.at.distance(to.at);
        let angle = from.facing.angle_to(to.facing);
        let wheel = if (angle - std::f64::consts::PI).abs() < 1e-6 {
            0.0
        } else {
            self.footprint(u).width / 2.0 * angle
        };
        dist + wheel
    }

    /// Whether a footprint stands in a river or stream outside its fords and bridges
    /// (LIB-M-07: water is impassable).
    pub fn in_water(&self, st: &State, rect: &Rect) -> bool {
        use tabletop::terrain::LineKind;
        st.table.lines.iter().enumerate().any(|(j, l)| {
            matches!(l.kind, LineKind::River | LineKind::Stream)
                && st.table.rect_overlaps_band_outside_crossings(rect, j)
        })
    }

    /// Moves along the straight path from the unit's place to `to`, stopping at the first
    /// contact with an enemy (LIB-M-13) and short of ending on a friend; returns the place
    /// reached and the enemy touched.
    pub fn path_to(&self, st: &State, unit: UnitId, to: Place) -> (Place, Option<UnitId>) {
        let u = &st.units[unit];
        let from = u.place;
        let len = from.at.distance(to.at);
        let n = ((len / 0.25).ceil() as usize).max(1);
        let c = self.data.rules.melee.contact;
        // Only units whose footprints come near the path can stop or block it: the others
        // are culled once, by the distance from their centre to the path (same results).
        let me = self.footprint(u).half_diagonal().max(self.footprint_at(u, &to).half_diagonal());
        let mut enemies: Vec<(UnitId, Rect)> = Vec::new();
        let mut friends: Vec<Rect> = Vec::new();
        for o in st.units.iter().filter(|o| o.id != unit && o.present()) {
            let r = self.footprint(o);
            let d = tabletop::geometry::point_segment_distance(r.centre, from.at, to.at);
            if d > me + r.half_diagonal() + c + 1e-6 {
                continue;
            }
            if o.side != u.side {
                if o.strength() > 0 {
                    enemies.push((o.id, r));
                }
            } else {
                friends.push(r);
            }
        }
        let on_friend = |rect: &Rect| friends.iter().any(|r| rect.overlaps(r));
        let mut reached = from;
        let mut met = None;
        for i in 1..=n {
            let t = i as f64 / n as f64;
            let p =
                Place { at: from.at.lerp(to.at, t), facing: to.facing, formation: to.formation };
            let rect = self.footprint_at(u, &p);
            if !st.table.contains_rect(&rect) || self.in_water(st, &rect) {
                break;
            }
            if let Some((e, _)) = enemies.iter().find(|(_, r)| rect.within(r, c)) {
                // Contact: it closes up to the enemy, or stops where it touches.
                if !rect.overlaps(&self.footprint(&st.units[*e])) {
                    reached = p;
                }
                met = Some(*e);
                break;
            }
            reached = p;
        }
        if met.is_none() {
            // Not to end on a friend: back off along the path.
            let mut k = n;
            while k > 0 && on_friend(&self.footprint_at(u, &reached)) {
                k -= 1;
                let t = k as f64 / n as f64;
                reached = Place {
                    at: from.at.lerp(to.at, t),
                    facing: to.facing,
                    formation: to.formation,
                };
            }
            if k == 0 && on_friend(&self.footprint_at(u, &reached)) {
                reached = from;
            }
        }
        (reached, met)
    }
}

impl Run<'_> {
    /// Applies an event and keeps it, with the names of the units it speaks of for the log.
    pub fn emit(&mut self, mut e: Event) {
        self.name(&mut e);
        self.rules.apply_event(self.st, &e);
        self.events.push(e);
    }

    /// Fills in the names of the units an event speaks of (where not given).
    fn name(&self, e: &mut Event) {
        let st = &*self.st;
        let n = |id: UnitId| st.units.get(id).map(|u| u.name.clone()).unwrap_or_default();
        match e {
            Event::Moved { moved, .. } if moved.names.is_empty() => {
                moved.names = vec![n(moved.unit)]
            }
            Event::Fired { volley: v, .. } if v.names.is_empty() => {
                v.names = vec![n(v.firer), n(v.target)]
            }
            Event::Cannon { shot: c, .. } if c.names.is_empty() => {
                c.names = vec![n(c.gun), n(c.target)]
            }
            Event::Melee { attacker, defenders, names, .. } if names.is_empty() => {
                *names =
                    std::iter::once(*attacker).chain(defenders.iter().copied()).map(n).collect()
            }
            Event::Morale { unit, names, .. } | Event::Leg { unit, names, .. }
                if names.is_empty() =>
            {
                *names = vec![n(*unit)]
            }
            _ => {}
        }
    }

    /// A roll-off: both sides roll a d6, ties again; the higher wins.
    pub fn roll_off(&mut self, what: &str, rule: &'static str) -> Side {
        let mut rolls = Vec::new();
        let winner = loop {
            let r = crate::fire::die(self.dice, 6, format!("red: {what}"), rule).value;
            let b = crate::fire::die(self.dice, 6, format!("blue: {what}"), rule).value;
            rolls.push((r, b));
            if r != b {
                break if r > b { Side::Red } else { Side::Blue };
            }
        };
        self.emit(Event::RollOff {
            what: what.into(),
            rule: tabletop::rules::RuleId::new(rule),
            rolls,
            winner,
        });
        winner
    }

    /// The set-up: the roll for the choice of edges (LIB-START-03).
    pub fn setup(&mut self) {
        let units = [self.st.units_of(Side::Red).count(), self.st.units_of(Side::Blue).count()];
        let terrain = self.st.table.areas.len() + self.st.table.lines.len();
        self.emit(Event::Laid { units, terrain });
        let w = self.roll_off("choice of side of the table", "LIB-START-03");
        self.emit(Event::StageSet { phase: Phase::Edge { side: w } });
    }

    /// Carries out a checked command.
    pub fn command(&mut self, actor: Actor, cmd: &Command) {
        let Actor::Side(side) = actor else { return };
        match cmd {
            Command::ChooseEdge { south } => {
                self.emit(Event::EdgeTaken { side, south: *south });
                self.emit(Event::StageSet { phase: Phase::Deploy { plans: [None, None] } });
            }
            Command::Deploy { placements } => {
                self.emit(Event::Deployed { side, placements: placements.clone() });
                if let Phase::Deploy { plans } = &self.st.phase
                    && plans.iter().all(|p| p.is_some())
                {
                    self.emit(Event::Revealed);
                    let first = self.roll_off("first move", "LIB-START-06");
                    self.begin_turn_at(first, 1, 1, first);
                }
            }
            Command::Declare { orders } => {
                let mut all = orders.clone();
                for u in self.st.units_of(side) {
                    if u.present() && !all.iter().any(|o| o.unit == u.id) {
                        all.push(Order { unit: u.id, choice: Choice::StandFast { target: None } });
                    }
                }
                all.sort_by_key(|o| o.unit);
                let names = self.st.units.iter().map(|u| u.name.clone()).collect();
                self.emit(Event::Declared { side, orders: all, names });
                self.step_b();
                self.step_c();
                let reforms = self.step_d();
                self.after_melees(reforms, 0);
            }
            Command::Advance { call_off, reform } => {
                for (unit, formation) in reform {
                    self.emit(Event::ChangeOrdered { unit: *unit, formation: *formation });
                }
                for u in call_off {
                    self.emit(Event::Leg {
                        names: Vec::new(),
                        unit: *u,
                        leg: Leg::Back,
                        why: "the move is called off".into(),
                        rules: ids(&["LIB-LIBERAL-08", "LIB-LIBERAL-10"]),
                    });
                }
                let step = match &self.st.phase {
                    Phase::Turn { stage: Stage::Liberal { step }, .. } => *step,
                    _ => 0,
                };
                self.liberal_step(step + 1);
            }
            Command::Reform { formation } => {
                let (unit, step, queue) = match &self.st.phase {
                    Phase::Turn { stage: Stage::Reform { unit, step, queue }, .. } => {
                        (*unit, *step, queue.clone())
                    }
                    _ => return,
                };
                if let Some(f) = formation {
                    self.emit(Event::Reformed { unit, formation: *f });
                }
                self.after_melees(queue, step);
            }
        }
    }
}

impl Run<'_> {
    fn acting(&self) -> Side {
        self.st.acting().unwrap_or(Side::Red)
    }

    fn orders(&self) -> Vec<Order> {
        match &self.st.phase {
            Phase::Turn { orders, .. } => orders.clone(),
            _ => Vec::new(),
        }
    }

    fn movers(&self) -> Vec<Mover> {
        match &self.st.phase {
            Phase::Turn { movers, .. } => movers.clone(),
            _ => Vec::new(),
        }
    }

    fn alive(&self, u: UnitId) -> bool {
        self.st.units.get(u).is_some_and(|x| x.strength() > 0)
    }

    /// A side's turn begins (LIB-SEQ-01): its runners rejoin the rear rank (LIB-R-33).
    pub fn begin_turn(&mut self, side: Side) {
        let (game_turn, day, first) = (self.st.game_turn, self.st.day, self.st.first);
        self.begin_turn_at(side, game_turn, day, first);
    }

    /// A side's turn begins in the given game turn and day.
    fn begin_turn_at(&mut self, side: Side, game_turn: u32, day: u32, first: Side) {
        self.emit(Event::TurnBegins { side, first, game_turn, day });
        let back: Vec<(UnitId, Vec<usize>)> = self
            .st
            .units_of(side)
            .filter_map(|u| {
                let v: Vec<usize> =
                    (0..u.figures.len()).filter(|i| u.figures[*i].status == Status::Ran).collect();
                (!v.is_empty()).then_some((u.id, v))
            })
            .collect();
        if !back.is_empty() {
            self.emit(Event::Rejoined { units: back });
        }
    }

    /// Step B: guns move and crews are sent (LIB-SEQ-03, LIB-CHOICE-04/08, LIB-ART-05).
    fn step_b(&mut self) {
        for o in self.orders() {
            match &o.choice {
                Choice::Gun { to, facing, .. } if to.is_some() || facing.is_some() => {
                    let u = &self.st.units[o.unit];
                    let from = u.place;
                    let at = to.unwrap_or(from.at);
                    let face = match facing {
                        Some(b) => Facing::from_bearing_degrees(*b),
                        None => self.rules.facing_to(from.at, at).unwrap_or(from.facing),
                    };
                    let target = Place { at, facing: face, formation: from.formation };
                    let road = self.rules.on_road(self.st, from.at, at);
                    let (allowance, basis) = self.rules.allowance(self.st, u, from.formation, road);
                    let (reached, _) = self.rules.path_to(self.st, o.unit, target);
                    let used = self.rules.move_cost(u, &from, &reached);
                    let turned = from.facing.angle_to(reached.facing)
                        > self.rules.data.rules.artillery.arc_half_degrees.to_radians() + 1e-9;
                    let moved = from.at.distance(reached.at) > 1e-9 || turned;
                    let mut rules =
                        vec!["LIB-SEQ-03", "LIB-CHOICE-04", "LIB-CHOICE-08", "LIB-LIBERAL-14"];
                    if let Some(g) = &u.gun
                        && self.rules.gun_kind(g) != g.kind
                    {
                        rules.extend(["LIB-ART-14", "LIB-R-25"]);
                    }
                    if !moved {
                        rules.push("LIB-ART-07");
                    }
                    if self.rules.data.guns[self.rules.gun_kind(u.gun.as_ref().expect("a gun"))]
                        .move_and_fire
                    {
                        rules.push("LIB-ART-05");
                    }
                    self.emit(Event::Moved {
                        moved: Moved {
                            unit: o.unit,
                            from,
                            to: reached,
                            used,
                            allowance,
                            basis,
                            names: Vec::new(),
                        },
                        forward_step: false,
                        rules: ids(&rules),
                    });
                }
                Choice::Crew { gun, figures } => {
                    let u = &self.st.units[o.unit];
                    let take: Vec<usize> = u.in_ranks().into_iter().rev().take(*figures).collect();
                    self.emit(Event::Crewed { from: o.unit, gun: *gun, figures: take });
                }
                _ => {}
            }
        }
    }

    /// Step C: guns fire at their named targets only, or are spiked (LIB-SEQ-04, LIB-ART).
    fn step_c(&mut self) {
        let gt = self.st.game_turn;
        for o in self.orders() {
            match &o.choice {
                Choice::Gun { target: Some(t), shot, .. } => {
                    let u = &self.st.units[o.unit];
                    let Some(g) = &u.gun else { continue };
                    let moved_foot =
                        g.moved && !self.rules.data.guns[self.rules.gun_kind(g)].move_and_fire;
                    if moved_foot || self.rules.gun_barred(u, gt).is_some() || !self.alive(*t) {
                        continue;
                    }
                    let Ok(d) = self.rules.gun_reach(self.st, u, &self.st.units[*t], *shot) else {
                        continue;
                    };
                    let _ = d;
                    let ret = self.return_fire(*t, o.unit);
                    let mut pairs = vec![(o.unit, *t, true, Some(*shot))];
                    pairs.extend(ret);
                    let hit = self.exchange(pairs, None);
                    self.morale(hit);
                }
                Choice::Spike { gun } => {
                    let r = crate::fire::die(self.dice, 6, "to spike the gun".into(), "LIB-ART-15");
                    let spiked = self.rules.data.rules.artillery.spike_faces.contains(&r.value);
                    self.emit(Event::Spiked { gun: *gun, die: r, spiked });
                }
                _ => {}
            }
        }
    }

    /// The return fire of a unit fired on in step C or D (LIB-R-20): at that firer, if it can.
    fn return_fire(
        &self,
        unit: UnitId,
        at: UnitId,
    ) -> Option<(UnitId, UnitId, bool, Option<crate::state::Shot>)> {
        let u = &self.st.units[unit];
        let f = &self.st.units[at];
        if u.fired_step {
            return None;
        }
        if u.gun.is_some() {
            if self.rules.gun_barred(u, self.st.game_turn).is_some() {
                return None;
            }
            let d = self.rules.gun_reach(self.st, u, f, crate::state::Shot::Round).ok()?;
            let shot = self.rules.best_shot(d);
            self.rules.gun_reach(self.st, u, f, shot).ok()?;
            return Some((unit, at, true, Some(shot)));
        }
        self.rules.shooting(self.st, u, f, true, 1)?;
        Some((unit, at, true, None))
    }

    /// The best target for a firer among `among` (most expected casualties, then nearest).
    pub fn best_target(
        &self,
        firer: UnitId,
        standing: bool,
        among: &[UnitId],
    ) -> Option<(UnitId, Option<crate::state::Shot>)> {
        best_target(self.rules, self.st, firer, standing, among)
    }

    /// Step D: normal movers move, then they and the units standing fast fire, then the
    /// melees of those in contact are fought (LIB-SEQ-05, LIB-R-43).
    fn step_d(&mut self) -> Vec<UnitId> {
        let side = self.acting();
        let mut contacts: Vec<(UnitId, UnitId)> = Vec::new();
        let mut firers: Vec<(UnitId, bool, Option<UnitId>)> = Vec::new();
        for o in self.orders() {
            if !self.alive(o.unit) {
                continue;
            }
            match &o.choice {
                Choice::Normal { mount: Some(m), .. } => {
                    self.emit(Event::Mounted { unit: o.unit, mounted: *m });
                }
                Choice::Normal { to, facing, formation, target, .. } => {
                    if let Some(e) = self.normal_move(o.unit, *to, *facing, *formation) {
                        contacts.push((o.unit, e));
                    } else {
                        firers.push((o.unit, false, *target));
                    }
                }
                Choice::StandFast { target } if self.st.units[o.unit].gun.is_none() => {
                    firers.push((o.unit, true, *target));
                }
                _ => {}
            }
        }
        let enemies: Vec<UnitId> =
            self.st.units.iter().filter(|u| u.side != side && u.present()).map(|u| u.id).collect();
        let mut pairs = Vec::new();
        for (f, standing, named) in firers {
            let u = &self.st.units[f];
            let chosen = match named {
                Some(t)
                    if self
                        .rules
                        .shooting(self.st, u, &self.st.units[t], standing, 1)
                        .is_some() =>
                {
                    Some(t)
                }
                _ => self.best_target(f, standing, &enemies).map(|x| x.0),
            };
            let Some(t) = chosen else { continue };
            pairs.push((f, t, standing, None));
        }
        let mut returned: Vec<UnitId> = Vec::new();
        let mut all = pairs.clone();
        for (f, t, _, _) in &pairs {
            if !returned.contains(t)
                && let Some(r) = self.return_fire(*t, *f)
            {
                returned.push(*t);
                all.push(r);
            }
        }
        if !all.is_empty() {
            let hit = self.exchange(all, None);
            self.morale(hit);
        }
        let mut reforms = Vec::new();
        for (a, d) in contacts {
            if self.alive(a)
                && self.st.units[d].present()
                && let Some(w) = self.melee(a, d)
            {
                reforms.push(w);
            }
        }
        reforms
    }

    /// A normal move: returns the enemy touched, if any (LIB-CHOICE-02..09, LIB-HTH-01).
    fn normal_move(
        &mut self,
        unit: UnitId,
        to: Point,
        facing: Option<f64>,
        formation: Option<Formation>,
    ) -> Option<UnitId> {
        let u = &self.st.units[unit];
        let from = u.place;
        let house = self.rules.house_at(self.st, to);
        let mut form = formation.unwrap_or(if from.formation == Formation::House {
            Formation::Line
        } else {
            from.formation
        });
        if house.is_some() && self.rules.data.troops[u.troop].kind != Kind::Horse {
            form = Formation::House;
        }
        let face = match facing {
            Some(b) => Facing::from_bearing_degrees(b),
            None => self.rules.facing_to(from.at, to).unwrap_or(from.facing),
        };
        let road = matches!(form, Formation::Column | Formation::RoadColumn)
            && self.rules.on_road(self.st, from.at, to);
        let (allowance, basis) = self.rules.allowance(self.st, u, form, road);
        let (reached, met) =
            self.rules.path_to(self.st, unit, Place { at: to, facing: face, formation: form });
        let used = self.rules.move_cost(u, &from, &reached);
        let mut rules = vec!["LIB-CHOICE-02", "LIB-CHOICE-09", "LIB-SEQ-05"];
        if road {
            rules.push("LIB-CHOICE-03");
        }
        if form != from.formation {
            rules.push("LIB-CHOICE-05");
        }
        if form == Formation::Square || from.formation == Formation::Square {
            rules.extend(["LIB-CHOICE-06", "LIB-SQUARE-01"]);
        }
        if met.is_some() {
            rules.push("LIB-HTH-01");
        }
        self.emit(Event::Moved {
            moved: Moved { unit, from, to: reached, used, allowance, basis, names: Vec::new() },
            forward_step: false,
            rules: ids(&rules),
        });
        met
    }

    /// Works out an exchange of fire from the strengths before it, then applies every hit
    /// together (LIB-FIRE-03, LIB-R-08, LIB-R-20); returns the units whose morale figure was
    /// hit with a 1, with that figure and whether the unit was leaderless before the hits
    /// (LIB-R-10, LIB-R-13).
    fn exchange(
        &mut self,
        pairs: Vec<(UnitId, UnitId, bool, Option<crate::state::Shot>)>,
        step: Option<u32>,
    ) -> Vec<(UnitId, usize, bool)> {
        let r = self.rules;
        let mut taken: std::collections::BTreeMap<UnitId, Vec<usize>> = Default::default();
        let mut shots = Vec::new();
        // Directions each unit is fired at from (LIB-R-28).
        let dirs = |t: UnitId| -> usize {
            let tu = &self.st.units[t];
            let mut s: Vec<tabletop::geometry::Sector> = pairs
                .iter()
                .filter(|p| p.1 == t)
                .map(|p| {
                    let from = r.footprint(&self.st.units[p.0]).centre;
                    tabletop::geometry::direction_sector(tu.place.facing, from - tu.place.at)
                })
                .collect();
            s.sort();
            s.dedup();
            s.len()
        };
        for (f, t, standing, gun) in &pairs {
            let (fu, tu) = (&self.st.units[*f], &self.st.units[*t]);
            let tk = taken.entry(*t).or_default();
            match gun {
                Some(shot) => {
                    let Ok(d) = r.gun_reach(self.st, fu, tu, *shot) else { continue };
                    let c = r.cannonade(self.st, fu, tu, *shot, d, self.dice);
                    let hits = r.count(tu, c.casualties, tk, self.dice, "LIB-ART-13");
                    let mut rules = vec!["LIB-ART-01", "LIB-ART-06", "LIB-ART-07", "LIB-ART-13"];
                    match shot {
                        crate::state::Shot::Grape => rules.push("LIB-ART-12"),
                        crate::state::Shot::Round => {
                            rules.extend(["LIB-ART-08", "LIB-ART-09"]);
                            if c.hit {
                                rules.push("LIB-ART-10");
                            }
                            if c.destroyed {
                                rules.push("LIB-ART-11");
                            }
                        }
                    }
                    if let Some(g) = &fu.gun {
                        if r.data.guns[r.gun_kind(g)].move_and_fire {
                            rules.push("LIB-ART-05");
                        } else {
                            rules.push("LIB-ART-04");
                        }
                    }
                    if r.artillerymen(fu) > 0 {
                        rules.push("LIB-ART-02");
                    } else {
                        rules.push("LIB-ART-03");
                    }
                    if step.is_some() {
                        rules.push("LIB-R-09");
                    } else {
                        rules.push("LIB-SEQ-04");
                    }
                    shots.push(Shot::Cannon(c, hits, ids(&rules)));
                }
                None => {
                    let Some(s) = r.shooting(self.st, fu, tu, *standing, dirs(*f)) else {
                        continue;
                    };
                    let v = r.volley(self.st, &s, fu, tu, self.dice);
                    let hits = r.count(tu, v.casualties, tk, self.dice, "LIB-CAS-02");
                    let mut rules = vec![
                        "LIB-FIRE-01",
                        "LIB-FIRE-03",
                        "LIB-FIRE-05",
                        "LIB-FIRE-07",
                        "LIB-FIRE-08",
                        "LIB-R-01",
                    ];
                    match fu.place.formation {
                        Formation::Line => rules.push("LIB-FIRE-04"),
                        Formation::Column | Formation::RoadColumn => rules.push("LIB-FIRE-06"),
                        Formation::Square => rules.push("LIB-SQUARE-03"),
                        Formation::House => {
                            rules.push("LIB-HOUSE-02");
                            if fu.strength() <= r.data.rules.fire.house_all_fire {
                                rules.push("LIB-HOUSE-03");
                            }
                        }
                    }
                    if r.is_mounted(fu) {
                        rules.push("LIB-FIRE-02");
                    }
                    if v.cover > 0 {
                        rules.push("LIB-R-41");
                    }
                    if v.casualties == 0 {
                        rules.push("LIB-CAS-01");
                    } else {
                        rules.extend([
                            "LIB-CAS-02",
                            "LIB-CAS-03",
                            "LIB-CAS-04",
                            "LIB-CAS-05",
                            "LIB-CAS-06",
                        ]);
                    }
                    if step.is_some() {
                        if fu.side == self.acting() {
                            rules.push("LIB-LIBERAL-06");
                        } else {
                            rules.extend(["LIB-LIBERAL-05", "LIB-SEQ-08"]);
                        }
                    } else if fu.side != self.acting() {
                        rules.push("LIB-R-20");
                    } else {
                        rules.push("LIB-SEQ-05");
                    }
                    if fu.place.formation == Formation::Line
                        && fu.side == self.acting()
                        && *standing
                    {
                        rules.push("LIB-CHOICE-07");
                    }
                    shots.push(Shot::Volley(v, hits, ids(&rules)));
                }
            }
        }
        if shots.is_empty() {
            return Vec::new();
        }
        // Who would test morale: the morale figure hit with a 1, or any 1 in a leaderless unit.
        let mut grouped: std::collections::BTreeMap<UnitId, Vec<Hit>> = Default::default();
        for s in &shots {
            let (t, hits) = match s {
                Shot::Volley(v, h, _) => (v.target, h),
                Shot::Cannon(c, h, _) => (c.target, h),
            };
            grouped.entry(t).or_default().extend(hits.iter().cloned());
        }
        let mut morale = Vec::new();
        for (t, hits) in &grouped {
            let u = &self.st.units[*t];
            if u.gun.is_some() {
                continue; // LIB-M-21: batteries make no morale moves.
            }
            let mf = u.morale_figure();
            let leaderless = mf.is_none() && r.data.rules.morale.leaderless_any_one;
            // The figure hit and whether the unit was leaderless, before the hits apply.
            let blow = hits.iter().find(|h| h.die == 1 && (Some(h.figure) == mf || leaderless));
            if let Some(h) = blow {
                morale.push((*t, h.figure, leaderless));
            }
        }
        for s in shots {
            match s {
                Shot::Volley(volley, hits, rules) => {
                    self.emit(Event::Fired { volley, hits, rules })
                }
                Shot::Cannon(shot, hits, rules) => {
                    self.emit(Event::Cannon { shot, step, hits, rules })
                }
            }
        }
        let hits: Vec<(UnitId, Vec<Hit>)> =
            grouped.into_iter().filter(|(_, h)| !h.is_empty()).collect();
        let touched: Vec<UnitId> = hits.iter().map(|h| h.0).collect();
        if !hits.is_empty() {
            self.emit(Event::HitsApplied { hits });
        }
        self.colours(&touched);
        self.demote_guns();
        morale
    }

    /// A horse gun whose artillerymen are all gone becomes a foot gun (LIB-ART-14).
    pub fn demote_guns(&mut self) {
        let r = self.rules;
        let gone: Vec<UnitId> = self
            .st
            .units
            .iter()
            .filter(|u| {
                u.gun.as_ref().is_some_and(|g| {
                    !g.demoted && r.data.guns[g.kind].move_and_fire && r.artillerymen(u) == 0
                })
            })
            .map(|u| u.id)
            .collect();
        for unit in gone {
            self.emit(Event::Demoted { unit });
        }
    }

    /// The colours pass to the nearest figure when the bearer falls (LIB-R-35).
    fn colours(&mut self, units: &[UnitId]) {
        for &t in units {
            let u = &self.st.units[t];
            if u.flag != Flag::Carried {
                continue;
            }
            let bearer = u.figures.iter().position(|f| f.role == crate::state::Role::Colours);
            let Some(b) = bearer else { continue };
            if matches!(u.figures[b].status, Status::Ranks | Status::Ran) {
                continue;
            }
            let pos = self.rules.positions(u);
            let near = pos
                .iter()
                .filter(|(i, _)| u.figures[*i].role == crate::state::Role::Private)
                .min_by(|a, b| {
                    let c = self.rules.footprint(u).centre;
                    a.1.distance(c).total_cmp(&b.1.distance(c))
                })
                .map(|x| x.0);
            self.emit(Event::FlagTaken { unit: t, bearer: near });
        }
    }

    /// Morale results (LIB-MORALE-02..04, LIB-R-10, LIB-R-11, LIB-R-12, LIB-R-13).
    fn morale(&mut self, units: Vec<(UnitId, usize, bool)>) {
        let movers = self.movers();
        for (t, figure, leaderless) in units {
            if !self.alive(t) {
                continue;
            }
            let mut rules = vec!["LIB-MORALE-01", "LIB-MORALE-02", "LIB-R-10"];
            if leaderless {
                rules.push("LIB-R-13");
            }
            // A liberal mover turns back; one already going back goes on back (LIB-MORALE-03).
            if let Some(m) = movers.iter().find(|m| m.unit == t && m.leg != Leg::Done) {
                rules.extend(["LIB-MORALE-03", "LIB-R-12"]);
                self.emit(Event::Morale {
                    names: Vec::new(),
                    unit: t,
                    figure,
                    going_back: true,
                    rules: ids(&rules),
                });
                if m.leg == Leg::Forward {
                    self.emit(Event::Leg {
                        names: Vec::new(),
                        unit: t,
                        leg: Leg::Back,
                        why: "the morale figure was hit with a 1".into(),
                        rules: ids(&["LIB-MORALE-03"]),
                    });
                }
            } else {
                rules.push("LIB-MORALE-04");
                let moving = self
                    .orders()
                    .iter()
                    .any(|o| o.unit == t && matches!(o.choice, Choice::Normal { .. }));
                if moving {
                    rules.push("LIB-R-11");
                }
                self.emit(Event::Morale {
                    names: Vec::new(),
                    unit: t,
                    figure,
                    going_back: false,
                    rules: ids(&rules),
                });
                let u = &self.st.units[t];
                let d = self.rules.rate(self.st, u, u.place.formation, false);
                self.retreat(t, d, &["LIB-MORALE-04"]);
            }
        }
    }

    /// Moves a unit straight back `distance` inches, keeping its facing; off the table's edge
    /// it goes along the edge, a die choosing the way (LIB-HTH-09, LIB-R-32); enemy figures
    /// stop it short (LIB-M-14).
    pub fn retreat(&mut self, unit: UnitId, distance: f64, rules: &[&'static str]) {
        let u = &self.st.units[unit];
        let from = u.place;
        let back = -from.facing.vector();
        let mut rules = rules.to_vec();
        let inside = |p: Point| {
            let place = Place { at: p, ..from };
            self.st.table.contains_rect(&self.rules.footprint_at(u, &place))
        };
        // How far straight back stays on the table.
        let mut straight = distance;
        let n = ((distance / 0.25).ceil() as usize).max(1);
        for i in 1..=n {
            let d = distance * i as f64 / n as f64;
            if !inside(from.at + back * d) {
                straight = distance * (i - 1) as f64 / n as f64;
                break;
            }
        }
        let mut target = from.at + back * straight;
        let rest = distance - straight;
        if rest > 1e-9 {
            let r = crate::fire::die(self.dice, 6, "way along the edge".into(), "LIB-R-32");
            rules.extend(["LIB-HTH-09", "LIB-R-32"]);
            let side = if r.value % 2 == 1 { from.facing.left() } else { from.facing.right() };
            // Along the edge that stopped it: the unit's left or right laid along that edge.
            let blocked_y =
                !inside(target + tabletop::geometry::Vec2::new(0.0, back.y.signum() * 0.25))
                    && back.y.abs() > 1e-9;
            let along = if blocked_y {
                tabletop::geometry::Vec2::new(side.x.signum(), 0.0)
            } else {
                tabletop::geometry::Vec2::new(0.0, side.y.signum())
            };
            let way = if along.length() > 0.5 { along } else { side };
            let m = ((rest / 0.25).ceil() as usize).max(1);
            // As far along the edge as the table allows, at most the rest (LIB-HTH-13).
            let corner = target;
            for i in 1..=m {
                let p = corner + way * (rest * i as f64 / m as f64);
                if !inside(p) {
                    break;
                }
                target = p;
            }
        }
        // Enemy figures in the way stop the retreat short.
        let len = from.at.distance(target);
        let k = ((len / 0.25).ceil() as usize).max(1);
        let mut reached = from;
        for i in 1..=k {
            let p = Place { at: from.at.lerp(target, i as f64 / k as f64), ..from };
            let rect = self.rules.footprint_at(u, &p);
            let blocked = self.st.units.iter().any(|o| {
                o.side != u.side && o.strength() > 0 && rect.overlaps(&self.rules.footprint(o))
            });
            if blocked {
                rules.push("LIB-M-14");
                break;
            }
            reached = p;
        }
        let formation =
            if from.formation == Formation::House { Formation::Line } else { from.formation };
        let to = Place { formation, ..reached };
        let used = from.at.distance(to.at);
        self.emit(Event::Moved {
            moved: Moved {
                unit,
                from,
                to,
                used,
                allowance: distance,
                basis: format!("{distance}\" back"),
                names: Vec::new(),
            },
            forward_step: false,
            rules: ids(&rules),
        });
    }

    /// After the melees of step D (step 0) or a liberal step: ask each winner about
    /// re-forming (LIB-HTH-14), then go on.
    pub fn after_melees(&mut self, mut reforms: Vec<UnitId>, step: u32) {
        reforms.retain(|u| {
            self.alive(*u)
                && self.st.units[*u].place.formation != Formation::House
                && self.st.units[*u].gun.is_none()
        });
        reforms.dedup();
        if !reforms.is_empty() {
            let unit = reforms.remove(0);
            self.emit(Event::Staged { stage: Stage::Reform { unit, step, queue: reforms } });
            return;
        }
        if step == 0 {
            self.start_e();
        } else {
            self.after_step(step);
        }
    }

    /// Step E begins (LIB-SEQ-06, LIB-LIBERAL-13).
    fn start_e(&mut self) {
        let movers: Vec<Mover> = self
            .orders()
            .into_iter()
            .filter_map(|o| match o.choice {
                Choice::Liberal { objective, formation } if self.alive(o.unit) => Some(Mover {
                    unit: o.unit,
                    objective,
                    formation,
                    start: self.st.units[o.unit].place,
                    steps: 0,
                    leg: Leg::Forward,
                }),
                _ => None,
            })
            .collect();
        if movers.is_empty() {
            self.end_turn();
            return;
        }
        self.emit(Event::MoversSet { movers });
        self.liberal_step(1);
    }

    /// One step of step E: every mover moves one normal move, then every enemy in range fires
    /// at one of them while the forward movers fire back, then morale and melees
    /// (LIB-LIBERAL-04..13, LIB-R-08, LIB-R-43).
    pub fn liberal_step(&mut self, k: u32) {
        let side = self.acting();
        let movers = self.movers();
        if k > 500 {
            for m in movers.iter().filter(|m| m.leg != Leg::Done) {
                self.emit(Event::Leg {
                    names: Vec::new(),
                    unit: m.unit,
                    leg: Leg::Done,
                    why: "no progress".into(),
                    rules: ids(&["LIB-LIBERAL-04"]),
                });
            }
            self.end_turn();
            return;
        }
        let mut contacts = Vec::new();
        let mut arrived = Vec::new();
        for m in &movers {
            if m.leg == Leg::Done || !self.alive(m.unit) {
                continue;
            }
            let u = &self.st.units[m.unit];
            let from = u.place;
            match m.leg {
                Leg::Forward => {
                    if let Objective::Unit { unit } = m.objective
                        && !self.st.units[unit].present()
                    {
                        arrived.push((m.unit, m.leg));
                        continue;
                    }
                    let step = self.rules.forward_step(self.st, m);
                    let mut rules =
                        vec!["LIB-LIBERAL-01", "LIB-LIBERAL-04", "LIB-LIBERAL-13", "LIB-SEQ-06"];
                    if step.to.formation != from.formation {
                        rules.push("LIB-LIBERAL-07");
                    }
                    if step.to.formation == Formation::Square {
                        rules.push("LIB-SQUARE-01");
                    }
                    if step.met.is_some() {
                        rules.push("LIB-R-39");
                    }
                    if step.arrived {
                        arrived.push((m.unit, m.leg));
                    }
                    let (to, allowance, basis, used) =
                        (step.to, step.allowance, step.basis, step.used);
                    self.emit(Event::Moved {
                        moved: Moved {
                            unit: m.unit,
                            from,
                            to,
                            used,
                            allowance,
                            basis,
                            names: Vec::new(),
                        },
                        forward_step: true,
                        rules: ids(&rules),
                    });
                    if let Some(e) = step.met {
                        contacts.push((m.unit, e));
                    }
                }
                Leg::Back => {
                    let allowance = self.rules.rate(self.st, u, from.formation, false);
                    let dist = from.at.distance(m.start.at);
                    let face =
                        self.rules.facing_to(from.at, m.start.at).unwrap_or(from.facing.reversed());
                    let (to, home) = if dist <= allowance + 1e-9 {
                        (m.start, true)
                    } else {
                        (
                            Place {
                                at: from.at.lerp(m.start.at, allowance / dist),
                                facing: face,
                                formation: from.formation,
                            },
                            false,
                        )
                    };
                    let mut rules = vec!["LIB-LIBERAL-08", "LIB-LIBERAL-10"];
                    if home {
                        rules.push("LIB-R-42");
                        arrived.push((m.unit, m.leg));
                    }
                    self.emit(Event::Moved {
                        moved: Moved {
                            unit: m.unit,
                            from,
                            to,
                            used: from.at.distance(to.at),
                            allowance,
                            basis: "a normal move back".into(),
                            names: Vec::new(),
                        },
                        forward_step: false,
                        rules: ids(&rules),
                    });
                }
                Leg::Done => {}
            }
        }
        // The fire after the step (LIB-LIBERAL-05/06, LIB-R-08, LIB-R-09).
        let movers = self.movers();
        let targets: Vec<UnitId> = movers
            .iter()
            .filter(|m| m.leg != Leg::Done && self.alive(m.unit))
            .map(|m| m.unit)
            .collect();
        let mut pairs = Vec::new();
        let in_contact: Vec<UnitId> = contacts.iter().flat_map(|c| [c.0, c.1]).collect();
        if !targets.is_empty() {
            for e in self.st.units.iter().filter(|u| u.side != side && u.present()) {
                if in_contact.contains(&e.id) {
                    continue;
                }
                if e.gun.is_some() && !self.rules.gun_ready_in_step(e, k) {
                    continue;
                }
                // Crewed by infantry alone, a gun that fired in the last game turn may not
                // fire in this one (LIB-ART-03, LIB-R-26).
                let gt = self.st.game_turn;
                if e.gun.as_ref().is_some_and(|g| g.fired_turn.is_some_and(|t| t + 1 == gt))
                    && self.rules.artillerymen(e) == 0
                {
                    continue;
                }
                if let Some((t, shot)) = self.best_target(e.id, true, &targets) {
                    pairs.push((e.id, t, true, shot));
                }
            }
            let enemies: Vec<UnitId> = self
                .st
                .units
                .iter()
                .filter(|u| u.side != side && u.present())
                .map(|u| u.id)
                .collect();
            for m in movers.iter().filter(|m| m.leg == Leg::Forward) {
                if !self.alive(m.unit)
                    || in_contact.contains(&m.unit)
                    || self.st.units[m.unit].gun.is_some()
                {
                    continue;
                }
                if let Some((t, _)) = self.best_target(m.unit, false, &enemies) {
                    pairs.push((m.unit, t, false, None));
                }
            }
        }
        if !pairs.is_empty() {
            let hit = self.exchange(pairs, Some(k));
            self.morale(hit);
        }
        // A forward mover turned back by this step's fire goes back all the same (LIB-R-12).
        for (u, leg) in arrived {
            if self.movers().iter().any(|m| m.unit == u && m.leg == leg) {
                self.emit(Event::Leg {
                    names: Vec::new(),
                    unit: u,
                    leg: Leg::Done,
                    why: "at its objective".into(),
                    rules: ids(&["LIB-LIBERAL-11"]),
                });
            }
        }
        let mut reforms = Vec::new();
        for (a, d) in contacts {
            if self.alive(a)
                && self.st.units[d].present()
                && let Some(w) = self.melee(a, d)
            {
                reforms.push(w);
            }
            if self.movers().iter().any(|m| m.unit == a && m.leg != Leg::Done) {
                self.emit(Event::Leg {
                    names: Vec::new(),
                    unit: a,
                    leg: Leg::Done,
                    why: "fought hand-to-hand".into(),
                    rules: ids(&["LIB-LIBERAL-12", "LIB-HTH-17"]),
                });
            }
        }
        for m in self.movers() {
            if m.leg != Leg::Done && !self.alive(m.unit) {
                self.emit(Event::Leg {
                    names: Vec::new(),
                    unit: m.unit,
                    leg: Leg::Done,
                    why: "no figures left".into(),
                    rules: ids(&["LIB-LIBERAL-04"]),
                });
            }
        }
        self.after_melees(reforms, k);
    }

    /// After a liberal step: pause for the owner's word while a mover goes forward
    /// (LIB-LIBERAL-08/09), step again, or end the turn.
    fn after_step(&mut self, k: u32) {
        let movers = self.movers();
        if movers.iter().any(|m| m.leg == Leg::Forward) {
            self.emit(Event::Staged { stage: Stage::Liberal { step: k } });
        } else if movers.iter().any(|m| m.leg == Leg::Back) {
            self.liberal_step(k + 1);
        } else {
            self.end_turn();
        }
    }

    /// The side's turn ends: the other side's begins, or the game turn ends and perhaps the
    /// day (LIB-SEQ-01, LIB-R-14, LIB-DAY-01..05).
    pub fn end_turn(&mut self) {
        if let Some(w) = self.beaten() {
            return self.end_battle(Some(w), "the other army has no figures left in the ranks");
        }
        let side = self.acting();
        if side == self.st.first {
            self.begin_turn(side.other());
            return;
        }
        let turns = self.rules.data.rules.day.turns;
        if self.st.game_turn.is_multiple_of(turns) {
            self.night();
            if self.st.day >= self.st.days {
                let (w, why) = self.points_winner();
                return self.end_battle(w, &why);
            }
            self.st_next_day();
        } else {
            self.st_next_turn();
        }
    }

    fn st_next_turn(&mut self) {
        let (gt, day, first) = (self.st.game_turn, self.st.day, self.st.first);
        self.begin_turn_at(first, gt + 1, day, first);
    }

    fn st_next_day(&mut self) {
        let (gt, day) = (self.st.game_turn, self.st.day);
        let first = self.roll_off("first move of the day", "LIB-DAY-05");
        self.begin_turn_at(first, gt + 1, day + 1, first);
    }

    /// A side with no figures left in the ranks has lost.
    fn beaten(&self) -> Option<Side> {
        for s in Side::BOTH {
            if !self.st.units_of(s).any(|u| u.strength() > 0) {
                return Some(s.other());
            }
        }
        None
    }

    /// Each side's points (LIB-M-17).
    pub fn points(&self) -> [u32; 2] {
        points(self.rules, self.st)
    }

    fn points_winner(&self) -> (Option<Side>, String) {
        let p = self.points();
        let w = match p[0].cmp(&p[1]) {
            std::cmp::Ordering::Greater => Some(Side::Red),
            std::cmp::Ordering::Less => Some(Side::Blue),
            std::cmp::Ordering::Equal => None,
        };
        (w, format!("after {} days on points", self.st.days))
    }

    fn end_battle(&mut self, winner: Option<Side>, why: &str) {
        let points = self.points();
        let outcome = Outcome { winner, reason: format!("{why} (LIB-M-17)") };
        self.emit(Event::Ended { outcome, points });
    }

    /// Night (LIB-DAY-01..04, LIB-R-34, LIB-R-36).
    fn night(&mut self) {
        let r = self.rules;
        let summary: Vec<NightRow> = self
            .st
            .units
            .iter()
            .map(|u| {
                let c =
                    |f: &dyn Fn(&Status) -> bool| u.figures.iter().filter(|x| f(&x.status)).count();
                NightRow {
                    unit: u.id,
                    name: u.name.clone(),
                    ranks: c(&|s| matches!(s, Status::Ranks | Status::Ran)),
                    dead: c(&|s| *s == Status::Dead),
                    wounded: c(&|s| matches!(s, Status::Wounded { .. } | Status::Evacuated)),
                    walking_wounded: c(&|s| *s == Status::Hospital),
                    captured: c(&|s| *s == Status::Captured),
                    flag: u.flag,
                }
            })
            .collect();
        let returned: Vec<(UnitId, Vec<usize>)> = self
            .st
            .units
            .iter()
            .filter(|u| u.present())
            .filter_map(|u| {
                let v: Vec<usize> = (0..u.figures.len())
                    .filter(|i| matches!(u.figures[*i].status, Status::Hospital | Status::Ran))
                    .collect();
                (!v.is_empty()).then_some((u.id, v))
            })
            .collect();
        let mut evacuated = Vec::new();
        for u in &self.st.units {
            for (i, f) in u.figures.iter().enumerate() {
                if let Status::Wounded { at } = f.status {
                    let by = self
                        .st
                        .units
                        .iter()
                        .filter(|o| o.strength() > 0)
                        .min_by(|a, b| {
                            r.footprint(a)
                                .distance_to_point(at)
                                .total_cmp(&r.footprint(b).distance_to_point(at))
                        })
                        .map(|o| o.side)
                        .unwrap_or(u.side);
                    evacuated.push((u.id, i, by));
                }
            }
        }
        let flags_back: Vec<UnitId> = self
            .st
            .units
            .iter()
            .filter(|u| u.flag == Flag::Retired && u.strength() > 0)
            .map(|u| u.id)
            .collect();
        let day = self.st.day;
        self.emit(Event::Night { day, summary, returned, evacuated, flags_back });
    }
}

/// The best target for a firer among `among`: the most expected casualties, then the nearest;
/// for a gun, with the shot it would use.
pub fn best_target(
    r: &Liberal,
    st: &State,
    firer: UnitId,
    standing: bool,
    among: &[UnitId],
) -> Option<(UnitId, Option<crate::state::Shot>)> {
    let f = &st.units[firer];
    let mut best: Option<(f64, f64, UnitId, Option<crate::state::Shot>)> = None;
    for &t in among {
        let tu = &st.units[t];
        if tu.side == f.side || !tu.present() {
            continue;
        }
        let (e, d, shot) = if f.gun.is_some() {
            let Ok(d) = r.gun_reach(st, f, tu, crate::state::Shot::Round) else { continue };
            let shot = r.best_shot(d);
            if r.gun_reach(st, f, tu, shot).is_err() {
                continue;
            }
            (r.expected_cannon(st, f, tu, shot), d, Some(shot))
        } else {
            let Some(s) = r.shooting(st, f, tu, standing, 1) else { continue };
            (r.expected_volley(st, &s, f, tu), s.distance, None)
        };
        let better = match &best {
            None => true,
            Some((be, bd, _, _)) => e > *be + 1e-9 || ((e - *be).abs() <= 1e-9 && d < *bd),
        };
        if better {
            best = Some((e, d, t, shot));
        }
    }
    best.map(|b| (b.2, b.3))
}

/// Each side's points (LIB-M-17): enemy dead and wounded, prisoners, flags and guns taken.
pub fn points(r: &Liberal, st: &State) -> [u32; 2] {
    let v = &r.data.rules.victory;
    let mut p = [0u32; 2];
    for u in &st.units {
        let enemy = u.side.other().index();
        for f in &u.figures {
            p[enemy] += match f.status {
                Status::Dead | Status::Wounded { .. } | Status::Evacuated => v.dead_or_wounded,
                Status::Captured => v.prisoner,
                _ => 0,
            };
        }
    }
    for s in Side::BOTH {
        p[s.index()] += st.side(s).flags_taken * v.flag + st.side(s).guns_taken * v.gun;
    }
    p
}
