//! The `RuleSet` implementation: who acts when, what each command may do, and how each event
//! changes the state.

use crate::Liberal;
use crate::data::{Fate, Kind};
use crate::scenario::Scenario;
use crate::state::{
    Choice, Command, Event, Flag, Formation, Leg, Objective, Order, Phase, Place, Placement, Role,
    Stage, State, Status, UnitId,
};
use crate::turn::Run;
use crate::view::View;
use tabletop::diagnostics::{Diagnostics, Source};
use tabletop::dice::{DiceSource, SeededDice};
use tabletop::geometry::{Facing, Point};
use tabletop::render::Scene;
use tabletop::rules::{
    Actor, Outcome, Pending, Refusal, RuleSet, Side, SideSummary, Summary, Viewer,
};

fn refuse(rule: &'static str, why: impl Into<String>) -> Refusal {
    Refusal::new(rule, why)
}

fn move_to_end(figures: &mut Vec<crate::state::Figure>, idx: &[usize]) {
    let mut idx = idx.to_vec();
    idx.sort_unstable();
    idx.dedup();
    let mut moved = Vec::new();
    for i in idx.iter().rev() {
        if *i < figures.len() {
            let mut f = figures.remove(*i);
            f.status = Status::Ranks;
            moved.push(f);
        }
    }
    moved.reverse();
    figures.extend(moved);
}

impl Liberal {
    /// Changes the state by one event.
    pub fn apply_event(&self, st: &mut State, e: &Event) {
        self.apply_one(st, e);
    }

    fn apply_one(&self, st: &mut State, e: &Event) {
        match e {
            Event::Laid { .. } | Event::RollOff { .. } | Event::Morale { .. } => {}
            Event::EdgeTaken { side, south } => {
                if st.sides[side.index()].south != *south {
                    let (w, h) = (st.table.width, st.table.height);
                    for u in st.units.iter_mut() {
                        u.place.at = Point::new(w - u.place.at.x, h - u.place.at.y);
                        u.place.facing = u.place.facing.reversed();
                    }
                    for s in st.sides.iter_mut() {
                        s.south = !s.south;
                    }
                }
            }
            Event::Deployed { side, placements } => {
                if let Phase::Deploy { plans } = &mut st.phase {
                    plans[side.index()] = Some(placements.clone());
                }
            }
            Event::Revealed => {
                if let Phase::Deploy { plans } = &st.phase {
                    let all: Vec<Placement> = plans.iter().flatten().flatten().cloned().collect();
                    for p in all {
                        if let Some(u) = st.units.get_mut(p.unit) {
                            u.place = p.place;
                        }
                    }
                }
            }
            Event::TurnBegins { side, first, game_turn, day } => {
                st.first = *first;
                st.game_turn = *game_turn;
                st.day = *day;
                st.phase = Phase::Turn {
                    side: *side,
                    stage: Stage::Declare,
                    orders: Vec::new(),
                    movers: Vec::new(),
                };
                for u in st.units.iter_mut() {
                    u.fired_step = false;
                    // Broken to support a melee "this turn" (LIB-SQUARE-05).
                    u.square_broken = false;
                    if let Some(g) = u.gun.as_mut() {
                        g.moved = false;
                        g.fired = false;
                        g.fired_step = None;
                    }
                }
            }
            Event::Rejoined { units } => {
                for (u, figs) in units {
                    move_to_end(&mut st.units[*u].figures, figs);
                }
            }
            Event::Declared { orders: o, .. } => {
                st.last_hits.clear();
                if let Phase::Turn { orders, .. } = &mut st.phase {
                    *orders = o.clone();
                }
            }
            Event::Moved { moved, forward_step, rules } => {
                let house = if moved.to.formation == Formation::House {
                    self.house_at(st, moved.to.at)
                } else {
                    None
                };
                // A gun's move in step B, or its turn beyond its arc (LIB-ART-04, LIB-ART-07).
                let arc = self.data.rules.artillery.arc_half_degrees.to_radians() + 1e-9;
                let gun_moved = rules.iter().any(|r| r.as_str() == "LIB-CHOICE-04")
                    && (moved.from.at.distance(moved.to.at) > 1e-9
                        || moved.from.facing.angle_to(moved.to.facing) > arc);
                let u = &mut st.units[moved.unit];
                u.place = moved.to;
                u.house = house;
                if gun_moved && let Some(g) = u.gun.as_mut() {
                    g.moved = true;
                }
                if *forward_step && let Phase::Turn { movers, .. } = &mut st.phase {
                    for m in movers.iter_mut().filter(|m| m.unit == moved.unit) {
                        m.steps += 1;
                        if m.formation == Some(moved.to.formation) {
                            m.formation = None;
                        }
                    }
                }
            }
            Event::Fired { volley, .. } => st.units[volley.firer].fired_step = true,
            Event::Cannon { shot, step, .. } => {
                let gt = st.game_turn;
                if let Some(g) = st.units[shot.gun].gun.as_mut() {
                    g.fired = true;
                    g.fired_turn = Some(gt);
                    g.fired_step = *step;
                }
                st.units[shot.gun].fired_step = true;
                if shot.destroyed
                    && let Some(g) = st.units[shot.target].gun.as_mut()
                {
                    g.destroyed = true;
                }
            }
            Event::HitsApplied { hits } => {
                st.last_hits.clear();
                for (u, hs) in hits {
                    let pos = self.positions(&st.units[*u]);
                    let unit = &mut st.units[*u];
                    for h in hs {
                        let at =
                            pos.iter().find(|p| p.0 == h.figure).map_or(unit.place.at, |p| p.1);
                        unit.figures[h.figure].status = fate_status(h.fate, at);
                        st.last_hits.push((*u, at, h.number, h.die, h.fate));
                    }
                }
            }
            Event::FlagTaken { unit, bearer } => {
                let u = &mut st.units[*unit];
                for f in u.figures.iter_mut().filter(|f| f.role == Role::Colours) {
                    f.role = Role::Private;
                }
                match bearer {
                    Some(b) => u.figures[*b].role = Role::Colours,
                    None => u.flag = Flag::None,
                }
            }
            Event::Leg { unit, leg, .. } => {
                if let Phase::Turn { movers, .. } = &mut st.phase {
                    for m in movers.iter_mut().filter(|m| m.unit == *unit) {
                        m.leg = *leg;
                    }
                }
            }
            Event::Spiked { gun, spiked, die } => {
                let acting = st.acting();
                let owner = st.units[*gun].side;
                // The retreating crew's own spiking (LIB-HTH-16) scores nothing: the gun is
                // taken next and scores once, as taken (LIB-M-17).
                let by_crew = die.rule.as_str() == "LIB-HTH-16";
                if let Some(g) = st.units[*gun].gun.as_mut() {
                    g.fired = true;
                    if *spiked && !g.spiked {
                        g.spiked = true;
                        if !by_crew && acting.is_some_and(|a| a != owner) {
                            st.sides[owner.other().index()].guns_taken += 1;
                        }
                    }
                }
            }
            Event::Crewed { from, gun, figures } => {
                let mut idx = figures.clone();
                idx.sort_unstable();
                idx.dedup();
                let mut moved = Vec::new();
                for i in idx.iter().rev() {
                    if *i < st.units[*from].figures.len() {
                        let mut f = st.units[*from].figures.remove(*i);
                        f.role = Role::Private;
                        moved.push(f);
                    }
                }
                moved.reverse();
                st.units[*gun].figures.extend(moved);
            }
            Event::Melee { fights, attacker_won, broken, .. } => {
                let mut positions = std::collections::BTreeMap::new();
                for f in fights {
                    for (u, _) in [f.attacker, f.defender] {
                        positions.entry(u).or_insert_with(|| self.positions(&st.units[u]));
                    }
                }
                let _ = attacker_won;
                for f in fights {
                    let (loser, winner_side) = if f.attacker_won {
                        (f.defender, st.units[f.attacker.0].side)
                    } else {
                        (f.attacker, st.units[f.defender.0].side)
                    };
                    let at = positions
                        .get(&loser.0)
                        .and_then(|v| v.iter().find(|p| p.0 == loser.1))
                        .map_or(st.units[loser.0].place.at, |p| p.1);
                    let u = &mut st.units[loser.0];
                    u.figures[loser.1].status = fate_status(f.fate, at);
                    match f.fate {
                        Fate::FlagCaptured | Fate::DeadFlagLost | Fate::WoundedFlagLost
                            if u.flag == Flag::Carried =>
                        {
                            u.flag = Flag::Lost;
                            st.sides[winner_side.index()].flags_taken += 1;
                        }
                        Fate::FlagRetires if u.flag == Flag::Carried => {
                            u.flag = Flag::Retired;
                        }
                        _ => {}
                    }
                }
                for b in broken {
                    let u = &mut st.units[*b];
                    u.square_broken = true;
                    u.place.formation = Formation::Line;
                }
            }
            Event::GunTaken { from, unit } => {
                st.units[*from].gun = None;
                st.sides[unit.side.index()].guns_taken += 1;
                st.units.push(unit.clone());
            }
            Event::Reformed { unit, formation } => st.units[*unit].place.formation = *formation,
            Event::Staged { stage: s } => {
                if let Phase::Turn { stage, .. } = &mut st.phase {
                    *stage = s.clone();
                }
            }
            Event::MoversSet { movers: m } => {
                if let Phase::Turn { movers, .. } = &mut st.phase {
                    *movers = m.clone();
                }
            }
            Event::Demoted { unit } => {
                if let Some(g) = st.units[*unit].gun.as_mut() {
                    g.demoted = true;
                }
            }
            Event::ChangeOrdered { unit, formation } => {
                if let Phase::Turn { movers, .. } = &mut st.phase {
                    for m in movers.iter_mut().filter(|m| m.unit == *unit) {
                        m.formation = Some(*formation);
                    }
                }
            }
            Event::Mounted { unit, mounted } => st.units[*unit].mounted = *mounted,
            Event::StageSet { phase } => st.phase = phase.clone(),
            Event::Night { returned, evacuated, flags_back, .. } => {
                // The wounded first: their indexes are from before the others return.
                for (u, i, by) in evacuated {
                    let own = st.units[*u].side == *by;
                    st.units[*u].figures[*i].status =
                        if own { Status::Evacuated } else { Status::Captured };
                }
                for (u, figs) in returned {
                    move_to_end(&mut st.units[*u].figures, figs);
                }
                for u in flags_back {
                    let unit = &mut st.units[*u];
                    unit.flag = Flag::Carried;
                    let has = unit
                        .figures
                        .iter()
                        .any(|f| f.role == Role::Colours && f.status == Status::Ranks);
                    if !has {
                        for f in unit.figures.iter_mut().filter(|f| f.role == Role::Colours) {
                            f.role = Role::Private;
                        }
                        if let Some(f) = unit
                            .figures
                            .iter_mut()
                            .find(|f| f.role == Role::Private && f.status == Status::Ranks)
                        {
                            f.role = Role::Colours;
                        }
                    }
                }
            }
            Event::Ended { outcome, .. } => {
                st.outcome = Some(outcome.clone());
                st.phase = Phase::Over;
            }
        }
    }

    fn check_placement(&self, st: &State, side: Side, p: &Placement) -> Result<(), Refusal> {
        let Some(u) = st.units.get(p.unit) else {
            return Err(refuse("LIB-START-02", format!("no unit {}", p.unit)));
        };
        if u.side != side {
            return Err(refuse("LIB-START-02", format!("{} is not yours", u.name)));
        }
        if !p.place.at.is_finite() {
            return Err(refuse("LIB-START-05", "a place must be finite"));
        }
        if p.place.formation == Formation::House
            || (u.gun.is_some() && p.place.formation != Formation::Line)
        {
            return Err(refuse("LIB-CHOICE-05", "not a formation to draw up in"));
        }
        let depth = self.data.rules.deployment.depth;
        let south = st.side(side).south;
        let mut moved = u.clone();
        moved.place = p.place;
        for (_, q) in self.positions(&moved) {
            if !st.table.contains_point(q) {
                return Err(refuse(
                    "LIB-START-05",
                    format!("{} would stand off the table", u.name),
                ));
            }
            let from = if south { q.y } else { st.table.height - q.y };
            if from > depth + 1e-6 {
                return Err(refuse(
                    "LIB-START-05",
                    format!("{} would stand {from:.1}\" from its edge: at most {depth}\"", u.name),
                ));
            }
        }
        Ok(())
    }

    fn check_order(&self, st: &State, side: Side, o: &Order) -> Result<(), Refusal> {
        let Some(u) = st.units.get(o.unit) else {
            return Err(refuse("LIB-SEQ-02", format!("no unit {}", o.unit)));
        };
        if u.side != side || !u.present() {
            return Err(refuse(
                "LIB-SEQ-02",
                format!("{} is not one of your units on the table", u.name),
            ));
        }
        let enemy = |t: UnitId| -> Result<(), Refusal> {
            match st.units.get(t) {
                Some(x) if x.side != side && x.present() => Ok(()),
                _ => Err(refuse("LIB-SEQ-03", format!("unit {t} is not an enemy on the table"))),
            }
        };
        let on_table = |p: Point| -> Result<(), Refusal> {
            if p.is_finite() && st.table.contains_point(p) {
                Ok(())
            } else {
                Err(refuse("LIB-CHOICE-09", "the destination is off the table"))
            }
        };
        let gun = u.gun.as_ref();
        match &o.choice {
            Choice::StandFast { target } => {
                if let Some(t) = target {
                    enemy(*t)?;
                }
            }
            Choice::Normal { to, facing, formation, mount, target } => {
                if gun.is_some() {
                    return Err(refuse("LIB-SEQ-03", "guns move in step B with gun orders"));
                }
                if u.strength() == 0 {
                    return Err(refuse(
                        "LIB-CHOICE-01",
                        format!("{} has no figures in the ranks", u.name),
                    ));
                }
                if let Some(t) = target {
                    enemy(*t)?;
                }
                if let Some(m) = mount {
                    if self.data.troops[u.troop].kind != Kind::Horse {
                        return Err(refuse("LIB-M-10", "only cavalry mount and dismount"));
                    }
                    if *m == u.mounted {
                        return Err(refuse(
                            "LIB-M-10",
                            if *m { "already mounted" } else { "already dismounted" },
                        ));
                    }
                    return Ok(());
                }
                on_table(*to)?;
                if let Some(b) = facing
                    && !(b.is_finite() && b.abs() <= 360.0)
                {
                    return Err(refuse(
                        "LIB-CHOICE-09",
                        "a facing is a bearing of -360 to 360 degrees",
                    ));
                }
                let house = self.house_at(st, *to);
                let mut form = formation.unwrap_or(if u.place.formation == Formation::House {
                    Formation::Line
                } else {
                    u.place.formation
                });
                if form == Formation::House {
                    return Err(refuse("LIB-HOUSE-01", "a unit enters a house by moving into it"));
                }
                if let Some(h) = house {
                    if self.data.troops[u.troop].kind == Kind::Horse {
                        return Err(refuse("LIB-M-07", "cavalry do not enter houses"));
                    }
                    if u.strength() > st.houses[h] {
                        return Err(refuse(
                            "LIB-HOUSE-02",
                            format!(
                                "{} holds {} figures; {} has {}",
                                st.table.areas[h].name,
                                st.houses[h],
                                u.name,
                                u.strength()
                            ),
                        ));
                    }
                    if st
                        .units
                        .iter()
                        .any(|x| x.id != u.id && x.house == Some(h) && x.strength() > 0)
                    {
                        return Err(refuse(
                            "LIB-HOUSE-04",
                            format!("{} is held", st.table.areas[h].name),
                        ));
                    }
                    form = Formation::House;
                }
                if form == Formation::Square && self.data.troops[u.troop].kind == Kind::Horse {
                    return Err(refuse("LIB-SQUARE-01", "cavalry do not form square"));
                }
                let face = match facing {
                    Some(b) => Facing::from_bearing_degrees(*b),
                    None => self.facing_to(u.place.at, *to).unwrap_or(u.place.facing),
                };
                let road = matches!(form, Formation::Column | Formation::RoadColumn)
                    && self.on_road(st, u.place.at, *to);
                let (allowance, basis) = self.allowance(st, u, form, road);
                let cost =
                    self.move_cost(u, &u.place, &Place { at: *to, facing: face, formation: form });
                if cost > allowance + 1e-6 {
                    let rule =
                        if form == Formation::Square || u.place.formation == Formation::Square {
                            "LIB-CHOICE-06"
                        } else if form != u.place.formation {
                            "LIB-CHOICE-05"
                        } else {
                            "LIB-CHOICE-02"
                        };
                    return Err(refuse(rule, format!("{} would use {cost:.2}\": {basis}", u.name)));
                }
            }
            Choice::Liberal { objective, formation } => {
                if gun.is_some() {
                    return Err(refuse(
                        "LIB-LIBERAL-14",
                        "guns do not make liberal moves (LIB-R-40)",
                    ));
                }
                if u.strength() == 0 {
                    return Err(refuse("LIB-CHOICE-01", "no figures in the ranks"));
                }
                match objective {
                    Objective::Point { at } => on_table(*at)
                        .map_err(|_| refuse("LIB-LIBERAL-02", "the objective is off the table"))?,
                    Objective::Unit { unit } => enemy(*unit).map_err(|_| {
                        refuse("LIB-LIBERAL-02", "the objective is not an enemy unit on the table")
                    })?,
                }
                if matches!(formation, Some(Formation::House)) {
                    return Err(refuse(
                        "LIB-LIBERAL-07",
                        "a house is not a formation to change to",
                    ));
                }
                if matches!(formation, Some(Formation::Square))
                    && self.data.troops[u.troop].kind == Kind::Horse
                {
                    return Err(refuse("LIB-SQUARE-01", "cavalry do not form square"));
                }
            }
            Choice::Gun { to, facing, target, shot } => {
                let Some(g) = gun else {
                    return Err(refuse("LIB-SEQ-03", format!("{} has no gun", u.name)));
                };
                let mut place = u.place;
                let mut moved = false;
                if to.is_some() || facing.is_some() {
                    if g.destroyed {
                        return Err(refuse("LIB-ART-11", "the gun is destroyed"));
                    }
                    if u.strength() < self.data.rules.artillery.crew_needed {
                        return Err(refuse(
                            "LIB-CHOICE-08",
                            format!(
                                "{} crew: a gun needs {} to move",
                                u.strength(),
                                self.data.rules.artillery.crew_needed
                            ),
                        ));
                    }
                    let at = to.unwrap_or(u.place.at);
                    on_table(at)?;
                    if let Some(b) = facing
                        && !(b.is_finite() && b.abs() <= 360.0)
                    {
                        return Err(refuse(
                            "LIB-ART-07",
                            "a facing is a bearing of -360 to 360 degrees",
                        ));
                    }
                    let face = match facing {
                        Some(b) => Facing::from_bearing_degrees(*b),
                        None => self.facing_to(u.place.at, at).unwrap_or(u.place.facing),
                    };
                    let road = self.on_road(st, u.place.at, at);
                    let (allowance, basis) = self.allowance(st, u, u.place.formation, road);
                    place = Place { at, facing: face, formation: u.place.formation };
                    let cost = self.move_cost(u, &u.place, &place);
                    if cost > allowance + 1e-6 {
                        return Err(refuse(
                            "LIB-CHOICE-04",
                            format!("{} would use {cost:.2}\": {basis}", u.name),
                        ));
                    }
                    let turned = u.place.facing.angle_to(face)
                        > self.data.rules.artillery.arc_half_degrees.to_radians() + 1e-9;
                    moved = u.place.at.distance(at) > 1e-9 || turned;
                }
                if let Some(t) = target {
                    enemy(*t)?;
                    if moved && !self.data.guns[self.gun_kind(g)].move_and_fire {
                        return Err(refuse(
                            "LIB-ART-04",
                            "a foot gun may move or fire in a turn, not both",
                        ));
                    }
                    if let Some((rule, why)) = self.gun_barred(u, st.game_turn) {
                        return Err(refuse(rule, why));
                    }
                    let mut there = u.clone();
                    there.place = place;
                    self.gun_reach(st, &there, &st.units[*t], *shot)
                        .map_err(|(r, w)| refuse(r, w))?;
                }
            }
            Choice::Spike { gun: g } => {
                let Some(b) = st.units.get(*g) else {
                    return Err(refuse("LIB-R-27", format!("no unit {g}")));
                };
                let Some(bg) = &b.gun else {
                    return Err(refuse("LIB-R-27", format!("{} has no gun", b.name)));
                };
                if bg.spiked || bg.destroyed {
                    return Err(refuse("LIB-ART-15", "the gun is already out of action"));
                }
                if *g == o.unit {
                    if u.strength() == 0 {
                        return Err(refuse("LIB-R-27", "no crew to spike it"));
                    }
                } else {
                    if b.side == side {
                        return Err(refuse(
                            "LIB-R-27",
                            "a unit spikes its own gun, or an unmanned enemy gun it touches",
                        ));
                    }
                    if b.strength() > 0 {
                        return Err(refuse("LIB-R-27", "the enemy gun is still manned"));
                    }
                    let c = self.data.rules.melee.contact + 0.5;
                    if u.strength() == 0 || !self.footprint(u).within(&self.footprint(b), c) {
                        return Err(refuse(
                            "LIB-R-27",
                            format!("{} is not touching {}", u.name, b.name),
                        ));
                    }
                }
            }
            Choice::Crew { gun: g, figures } => {
                let Some(b) = st.units.get(*g) else {
                    return Err(refuse("LIB-ART-01", format!("no unit {g}")));
                };
                if b.side != side || b.gun.is_none() || *g == o.unit {
                    return Err(refuse("LIB-ART-01", "figures crew one of their own side's guns"));
                }
                if self.data.troops[u.troop].kind == Kind::Horse || u.gun.is_some() {
                    return Err(refuse("LIB-M-19", "foot figures crew guns"));
                }
                if *figures == 0 || *figures > u.strength() {
                    return Err(refuse("LIB-ART-01", format!("1 to {} figures", u.strength())));
                }
                if !self.footprint(u).within(&self.footprint(b), 2.0) {
                    return Err(refuse(
                        "LIB-ART-01",
                        format!("{} is not beside {}", u.name, b.name),
                    ));
                }
            }
        }
        Ok(())
    }
}

fn fate_status(f: Fate, at: Point) -> Status {
    match f {
        Fate::Runs => Status::Ran,
        Fate::WalkingWounded | Fate::FlagRetires => Status::Hospital,
        Fate::Dead | Fate::DeadFlagLost => Status::Dead,
        Fate::Wounded | Fate::WoundedFlagLost => Status::Wounded { at },
        Fate::Captured | Fate::FlagCaptured => Status::Captured,
    }
}

impl RuleSet for Liberal {
    type Scenario = Scenario;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;

    fn id(&self) -> &'static str {
        crate::ID
    }

    fn version(&self) -> &'static str {
        "1"
    }

    fn load_scenario(&self, source: &Source) -> Result<Scenario, Diagnostics> {
        self.parse_scenario(source)
    }

    fn setup(&self, scenario: &Scenario, dice: &mut dyn DiceSource) -> (State, Vec<Event>) {
        let mut st = scenario.state.clone();
        let mut run = Run { rules: self, st: &mut st, events: Vec::new(), dice };
        run.setup();
        let events = run.events;
        (st, events)
    }

    fn pending(&self, st: &State) -> Pending {
        match &st.phase {
            Phase::Edge { side } => Pending::Side {
                side: *side,
                what: "won the roll: choose your edge of the table (LIB-START-03)".into(),
            },
            Phase::Deploy { plans } => Pending::Both {
                waiting: Side::BOTH.into_iter().filter(|s| plans[s.index()].is_none()).collect(),
                what: "draw up your starting positions in secret (LIB-START-04)".into(),
            },
            Phase::Turn { side, stage, .. } => match stage {
                Stage::Declare => Pending::Side {
                    side: *side,
                    what: format!(
                        "game turn {}, day {}: declare every unit's move (LIB-SEQ-02)",
                        st.game_turn, st.day
                    ),
                },
                Stage::Liberal { step } => Pending::Side {
                    side: *side,
                    what: format!(
                        "liberal moves, step {step} done: go on or call moves off (LIB-LIBERAL-08)"
                    ),
                },
                Stage::Reform { unit, .. } => Pending::Side {
                    side: st.units[*unit].side,
                    what: format!(
                        "{} won the melee: re-form if you wish (LIB-HTH-14)",
                        st.units[*unit].name
                    ),
                },
            },
            Phase::Over => Pending::Over,
        }
    }

    fn check(&self, st: &State, actor: Actor, cmd: &Command) -> Result<(), Refusal> {
        if st.outcome.is_some() {
            return Err(refuse("LIB-M-17", "the battle is over"));
        }
        let Actor::Side(side) = actor else {
            return Err(refuse("LIB-SEQ-08", "the umpire gives no commands in this game"));
        };
        if !self.pending(st).sides().contains(&side) {
            return Err(refuse("LIB-SEQ-08", format!("it is not {side}'s decision now")));
        }
        match (cmd, &st.phase) {
            (Command::ChooseEdge { .. }, Phase::Edge { .. }) => Ok(()),
            (Command::Deploy { placements }, Phase::Deploy { .. }) => {
                if placements.len() > st.units.len() {
                    return Err(refuse("LIB-START-04", "more placements than units"));
                }
                let mut seen = Vec::new();
                for p in placements {
                    if seen.contains(&p.unit) {
                        return Err(refuse(
                            "LIB-START-04",
                            format!("unit {} is placed twice", p.unit),
                        ));
                    }
                    seen.push(p.unit);
                    self.check_placement(st, side, p)?;
                }
                // Every figure ends clear of every other own unit (LIB-M-13).
                let mut own: Vec<crate::state::Unit> = st.units_of(side).cloned().collect();
                for p in placements {
                    if let Some(u) = own.iter_mut().find(|u| u.id == p.unit) {
                        u.place = p.place;
                    }
                }
                for (i, a) in own.iter().enumerate() {
                    for b in &own[i + 1..] {
                        if self.footprint(a).overlaps(&self.footprint(b)) {
                            return Err(refuse(
                                "LIB-M-13",
                                format!("{} would overlap {}", a.name, b.name),
                            ));
                        }
                    }
                }
                Ok(())
            }
            (Command::Declare { orders }, Phase::Turn { stage: Stage::Declare, .. }) => {
                let mut seen = Vec::new();
                for o in orders {
                    if seen.contains(&o.unit) {
                        return Err(refuse(
                            "LIB-CHOICE-01",
                            format!("unit {} has two choices", o.unit),
                        ));
                    }
                    seen.push(o.unit);
                    self.check_order(st, side, o)?;
                }
                Ok(())
            }
            (
                Command::Advance { call_off, reform },
                Phase::Turn { stage: Stage::Liberal { .. }, movers, .. },
            ) => {
                for (u, f) in reform {
                    let Some(m) = movers.iter().find(|m| m.unit == *u && m.leg == Leg::Forward)
                    else {
                        return Err(refuse(
                            "LIB-LIBERAL-07",
                            format!("unit {u} is not going forward on a liberal move"),
                        ));
                    };
                    if call_off.contains(u) {
                        return Err(refuse("LIB-LIBERAL-07", "a unit called off does not re-form"));
                    }
                    let x = &st.units[m.unit];
                    if *f == Formation::House
                        || (*f == Formation::Square
                            && self.data.troops[x.troop].kind == Kind::Horse)
                    {
                        return Err(refuse(
                            "LIB-LIBERAL-07",
                            format!("{} cannot form {}", x.name, f.name()),
                        ));
                    }
                }
                for u in call_off {
                    match movers.iter().find(|m| m.unit == *u) {
                        Some(m) if m.leg == Leg::Forward && m.steps >= 1 => {}
                        Some(m) if m.leg == Leg::Forward => {
                            return Err(refuse(
                                "LIB-LIBERAL-09",
                                "a move is called off only after its first step",
                            ));
                        }
                        _ => {
                            return Err(refuse(
                                "LIB-LIBERAL-08",
                                format!("unit {u} is not going forward on a liberal move"),
                            ));
                        }
                    }
                }
                Ok(())
            }
            (
                Command::Reform { formation },
                Phase::Turn { stage: Stage::Reform { unit, .. }, .. },
            ) => {
                let u = &st.units[*unit];
                match formation {
                    Some(Formation::House) => {
                        Err(refuse("LIB-HTH-14", "a house is not a formation"))
                    }
                    Some(Formation::Square) if self.data.troops[u.troop].kind == Kind::Horse => {
                        Err(refuse("LIB-SQUARE-01", "cavalry do not form square"))
                    }
                    _ => Ok(()),
                }
            }
            _ => Err(refuse("LIB-SEQ-07", format!("not now: {}", self.pending(st).what()))),
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
        Some(st.game_turn)
    }

    fn summary(&self, st: &State) -> Summary {
        let mut sides = Vec::new();
        let points = crate::turn::points(self, st);
        for side in Side::BOTH {
            let mut s = SideSummary::new(side);
            let units: Vec<_> =
                st.units_of(side).filter(|u| !u.figures.is_empty() || u.gun.is_some()).collect();
            s.units_start = Some(units.len() as u32);
            s.units_lost = Some(units.iter().filter(|u| !u.present()).count() as u32);
            s.strength_start = Some(units.iter().map(|u| u.figures.len() as f64).sum());
            s.strength = Some(units.iter().map(|u| u.strength() as f64).sum());
            s.other.insert("points".into(), points[side.index()] as f64);
            sides.push(s);
        }
        Summary { sides }
    }

    fn evaluate(&self, st: &State, side: Side) -> Option<f64> {
        let p = crate::turn::points(self, st);
        let (a, b) = (p[side.index()] as f64, p[side.other().index()] as f64);
        Some(0.5 + (a - b) / (2.0 * (a + b + 20.0)))
    }

    fn controls(&self, st: &State, side: Side) -> tabletop::controls::Controls {
        crate::controls::controls(self, st, side)
    }

    fn measure(
        &self,
        st: &State,
        side: Side,
        req: &tabletop::controls::MeasureRequest,
    ) -> Option<tabletop::controls::Measurement> {
        crate::controls::measure(self, st, side, req)
    }

    fn roster(&self, st: &State, viewer: Viewer) -> Vec<tabletop::controls::RosterRow> {
        crate::controls::roster(self, st, viewer)
    }
}
