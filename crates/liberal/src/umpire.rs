//! The umpire: replays a battle's events one by one from the set-up state, through the rules'
//! own `apply`, and holds every event to the rules' invariants, worked out afresh from the
//! data tables where they are numbers. A violation is a bug, told with the event's index (and
//! the command that made it), the rule it breaks and what is wrong, so the battle's seed
//! reproduces it.
//!
//! What it checks:
//! - movement: every normal move, gun move and liberal step (forward or back) starts where the
//!   unit stands, uses no more than its allowance, and the allowance is the data table's value
//!   for the unit's type, formation, road and formation change (LIB-CHOICE-02..06, LIB-R-16,
//!   LIB-R-17, LIB-M-05, LIB-M-10); what it used is the path and the wheel (LIB-M-06); squares
//!   move 4" at most (LIB-SQUARE-01); a morale move is one normal move at most (LIB-MORALE-04),
//!   a melee retreat 18" (LIB-HTH-13); only the acting side's units make normal moves, gun
//!   moves and liberal steps, each as declared (LIB-SEQ-08, LIB-SEQ-02);
//! - fire: each volley's casualties are max(0, base + extra − cover), base = F div D, the
//!   remainder die is rolled exactly when F mod D > 0 and makes the extra casualty exactly when
//!   it shows at most F mod D; D and the band match the stand-in chart for the distance and the
//!   firer's range (LIB-R-01), the cover matches the ground (LIB-R-41); the casualty count is
//!   replayed die by die (each counts forward from the last figure reached, skipping figures
//!   already hit in the exchange, wrapping; LIB-R-03, LIB-CAS-02..06), each fate is the fire
//!   column's for its die (LIB-R-02), and the exchange's hits are applied together, on distinct
//!   figures in the ranks (LIB-FIRE-03); the non-acting side fires only at liberal movers in
//!   step E, or back at a unit that fired at it (LIB-SEQ-08, LIB-R-20); acting units fire only
//!   as declared, liberal movers only going forward (LIB-LIBERAL-06, -10); mounted cavalry
//!   fires only standing fast or when not acting (LIB-FIRE-02, LIB-R-18);
//! - guns: grape does the die in casualties within 12" and ignores cover (LIB-ART-12, LIB-R-24);
//!   round shot hits exactly on a hit face, does max(0, die − cover), or, with an unmodified 6
//!   against a live gun and only then, destroys it and does the crew die less cover
//!   (LIB-ART-09..11, LIB-R-23); within range; a foot gun never moves and fires in one
//!   side-turn (LIB-ART-04); a gun served only by infantry never fires in two game turns in a
//!   row (LIB-ART-03, LIB-R-26) nor on two liberal steps in a row (LIB-R-09); a spiked,
//!   destroyed or under-crewed gun never fires (LIB-ART-01, -11, -15); an acting gun fires
//!   only at its named target with its named shot (LIB-SEQ-04); spiking on the spike faces;
//! - hand-to-hand: the single fights are replayed from the gathered figures (LIB-R-07): each
//!   fight's figures are the next of each queue, its bonuses the data's (LIB-HTH-04, LIB-R-44,
//!   LIB-SQUARE-02, LIB-HOUSE-01), its winner agrees with die + bonus and the tie-winners, a
//!   tie with equal tie-winning is never logged as a fight (LIB-R-05), the loser's fate is the
//!   hand-to-hand or flag column's for its fate die (LIB-HTH-06, LIB-R-06), a rank is lost only
//!   after 3 fights lost in a row or when it is empty (LIB-HTH-07, LIB-HOUSE-05), the winner is
//!   the side with ranks left, and every losing unit with figures left retreats (LIB-HTH-13);
//! - morale: a unit's morale is tested after an exchange exactly when its morale figure was
//!   hit with a 1, or any figure of a leaderless unit, never a battery's (LIB-MORALE-02,
//!   LIB-R-10, LIB-R-13, LIB-M-21); a liberal mover goes back, anyone else falls back one move
//!   (LIB-MORALE-03/04);
//! - bookkeeping: no figure changes unit except by `Crewed`, a taken gun's new battery has no
//!   figures (LIB-M-19); a night comes after every third game turn and only then (LIB-DAY-01);
//!   the turns alternate and the game turn and day go up by one at a time (LIB-SEQ-01,
//!   LIB-R-14, LIB-DAY-05); the battle ends only when a side has no one in the ranks or after
//!   the last night, with points equal to the M-17 count worked out afresh, and the winner they
//!   give (LIB-M-17); the replay reaches the game's own state.

use crate::Liberal;
use crate::data::Kind;
use crate::state::{
    Choice, Event, Fight, Flag, Formation, Hit, Leg, Moved, Phase, Role, Shot, State, Status, Unit,
    UnitId,
};
use std::collections::{BTreeMap, BTreeSet};
use tabletop::game::Game;
use tabletop::geometry::{Sector, direction_sector};
use tabletop::rules::Side;

/// Slack for comparing inches.
const EPS: f64 = 1e-6;

/// One rule broken.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// The event's index in the battle's events.
    pub event: usize,
    /// The command that made it (its index among the game's commands), if not the set-up.
    pub command: Option<usize>,
    /// The rule broken.
    pub rule: &'static str,
    /// What is wrong.
    pub what: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.command {
            Some(c) => {
                write!(f, "event {} (command {c}) [{}]: {}", self.event, self.rule, self.what)
            }
            None => write!(f, "event {} (set-up) [{}]: {}", self.event, self.rule, self.what),
        }
    }
}

/// One shot of the exchange under way: firer, target, hits.
struct Shot1 {
    firer: UnitId,
    target: UnitId,
    hits: Vec<Hit>,
    /// A gun's shot that destroyed its target gun.
    destroyed: bool,
}

/// The umpire reading one battle.
pub struct Umpire<'a> {
    rules: &'a Liberal,
    /// The state replayed so far.
    pub state: State,
    /// Every rule broken so far.
    violations: std::cell::RefCell<Vec<Violation>>,
    index: usize,
    /// The shots of the exchange of fire under way.
    exchange: Vec<Shot1>,
    /// Figures per unit, as the umpire counts them.
    figures: Vec<usize>,
    /// Units whose morale the last application of hits tests (LIB-R-10, LIB-R-13).
    morale_due: BTreeSet<UnitId>,
    /// Horse guns that have lost all their artillerymen: foot guns from then on (LIB-ART-14).
    demoted: BTreeSet<UnitId>,
    /// Batteries that moved this side-turn.
    guns_moved: BTreeSet<UnitId>,
    /// Liberal steps each gun fired on this side-turn.
    gun_steps: BTreeMap<UnitId, Vec<u32>>,
    /// Game turns each gun fired in.
    gun_turns: BTreeMap<UnitId, Vec<u32>>,
    /// The last turn begun: (side, first, game turn, day).
    last_turn: Option<(Side, Side, u32, u32)>,
    /// Nights since that turn began.
    nights: u32,
    /// Days that had their night.
    nighted: BTreeSet<u32>,
    /// The original battery of each unit that holds a gun (for guns taken).
    gun_origin: BTreeMap<UnitId, UnitId>,
    /// Guns each side has taken or spiked, by original battery.
    guns_won: [BTreeSet<UnitId>; 2],
    ended: bool,
}

/// A figure in a melee as the umpire lines it up.
#[derive(Clone, Copy, Debug)]
struct Man {
    unit: UnitId,
    figure: usize,
    bonus: i32,
    ties: bool,
    colours: bool,
}

impl<'a> Umpire<'a> {
    /// An umpire starting from the set-up state (the scenario's state, before any event).
    pub fn new(rules: &'a Liberal, start: &State) -> Umpire<'a> {
        let figures = start.units.iter().map(|u| u.figures.len()).collect();
        let gun_origin =
            start.units.iter().filter(|u| u.gun.is_some()).map(|u| (u.id, u.id)).collect();
        Umpire {
            rules,
            state: start.clone(),
            violations: Default::default(),
            index: 0,
            exchange: Vec::new(),
            figures,
            morale_due: BTreeSet::new(),
            demoted: BTreeSet::new(),
            guns_moved: BTreeSet::new(),
            gun_steps: BTreeMap::new(),
            gun_turns: BTreeMap::new(),
            last_turn: None,
            nights: 0,
            nighted: BTreeSet::new(),
            gun_origin,
            guns_won: [BTreeSet::new(), BTreeSet::new()],
            ended: false,
        }
    }

    fn bad(&self, rule: &'static str, what: String) {
        self.violations.borrow_mut().push(Violation {
            event: self.index,
            command: None,
            rule,
            what,
        });
    }

    /// The violations so far.
    pub fn violations(&self) -> Vec<Violation> {
        self.violations.borrow().clone()
    }

    /// Reads every event of a battle, in order; `rest` lets a check look ahead.
    pub fn read_all(&mut self, events: &[Event]) {
        for (k, e) in events.iter().enumerate() {
            self.read(k, e, &events[k + 1..]);
        }
        self.finish_exchange();
    }

    /// Reads one event (index `k`), with the events after it.
    pub fn read(&mut self, k: usize, e: &Event, rest: &[Event]) {
        self.index = k;
        if !matches!(e, Event::Fired { .. } | Event::Cannon { .. } | Event::HitsApplied { .. }) {
            self.finish_exchange();
        }
        if self.ended {
            self.bad("LIB-M-17", "an event after the battle ended".into());
        }
        self.before(e);
        self.rules.apply_event(&mut self.state, e);
        self.after(e, rest);
    }

    fn finish_exchange(&mut self) {
        if self.exchange.iter().any(|s| !s.hits.is_empty()) {
            self.bad("LIB-FIRE-03", "an exchange of fire with hits that were never applied".into());
        }
        self.exchange.clear();
    }

    fn acting(&self) -> Option<Side> {
        self.state.acting()
    }

    fn order(&self, unit: UnitId) -> Option<&Choice> {
        match &self.state.phase {
            Phase::Turn { orders, .. } => orders.iter().find(|o| o.unit == unit).map(|o| &o.choice),
            _ => None,
        }
    }

    fn movers(&self) -> &[crate::state::Mover] {
        match &self.state.phase {
            Phase::Turn { movers, .. } => movers,
            _ => &[],
        }
    }

    fn leg(&self, unit: UnitId) -> Option<Leg> {
        self.movers().iter().find(|m| m.unit == unit).map(|m| m.leg)
    }

    /// The troop whose rates a unit moves at: dismounted horse moves as infantry (LIB-M-10).
    fn mover_troop(&self, u: &Unit) -> &crate::data::Troop {
        let d = &self.rules.data;
        let t = &d.troops[u.troop];
        if t.kind == Kind::Horse && !u.mounted {
            let foot =
                d.troop("infantry").or_else(|| d.troops.iter().position(|x| x.kind == Kind::Foot));
            return &d.troops[foot.unwrap_or(u.troop)];
        }
        t
    }

    /// Artillerymen in the ranks of a battery.
    fn artillerymen(&self, u: &Unit) -> usize {
        u.figures
            .iter()
            .filter(|f| {
                f.status == Status::Ranks && self.rules.data.troops[f.troop].kind == Kind::Crew
            })
            .count()
    }

    /// The gun's type now: a horse gun with no artillerymen left moves as a foot gun
    /// (LIB-ART-14, LIB-R-25).
    fn gun_type(&self, u: &Unit) -> Option<&crate::data::GunType> {
        let g = u.gun.as_ref()?;
        let guns = &self.rules.data.guns;
        let gt = &guns[g.kind];
        if gt.move_and_fire && (self.demoted.contains(&u.id) || self.artillerymen(u) == 0) {
            return guns.iter().find(|x| !x.move_and_fire).or(Some(gt));
        }
        Some(gt)
    }

    /// The table's rate for a unit in a formation (LIB-CHOICE-02..04, -06).
    fn rate(&self, u: &Unit, f: Formation, road: bool) -> f64 {
        if let Some(gt) = self.gun_type(u) {
            return if road { gt.road } else { gt.column };
        }
        let t = self.mover_troop(u);
        match f {
            Formation::Square => self.rules.data.rules.formation.square_move,
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

    /// The data's allowance for a move from one formation to another (LIB-CHOICE-05,
    /// LIB-R-16, LIB-M-05): the change columns, or the rate when nothing changes.
    fn allowance(&self, u: &Unit, from: Formation, to: Formation, road: bool) -> f64 {
        if u.gun.is_some() || from == to || from == Formation::House || to == Formation::House {
            return self.rate(u, from, road && from == to);
        }
        let t = self.mover_troop(u);
        match (from, to) {
            (_, Formation::Square) | (Formation::Square, _) => {
                self.rules.data.rules.formation.square_move
            }
            (Formation::Line, _) => t.line_to_column,
            (_, Formation::Line) => t.column_to_line,
            _ => self.rate(u, from, false),
        }
    }

    fn before(&mut self, e: &Event) {
        match e {
            Event::TurnBegins { side, first, game_turn, day } => {
                self.turn_begins(*side, *first, *game_turn, *day)
            }
            Event::Night { day, .. } => self.night(*day),
            Event::Moved { moved, forward_step, rules } => {
                let rules: Vec<&str> = rules.iter().map(|r| r.as_str()).collect();
                self.moved(moved, *forward_step, &rules);
            }
            Event::Fired { volley, hits, .. } => self.fired(volley, hits),
            Event::Cannon { shot, step, hits, .. } => self.cannon(shot, *step, hits),
            Event::HitsApplied { hits } => self.hits_applied(hits),
            Event::Spiked { die, spiked, gun } => {
                let want = self.rules.data.rules.artillery.spike_faces.contains(&die.value);
                if want != *spiked {
                    self.bad(
                        "LIB-ART-15",
                        format!(
                            "the spiking die {} gives spiked {want}, logged {spiked}",
                            die.value
                        ),
                    );
                }
                let u = &self.state.units[*gun];
                match &u.gun {
                    None => self.bad("LIB-ART-15", format!("{} has no gun to spike", u.name)),
                    Some(g) => {
                        let owner = u.side;
                        // Spiked by the enemy in his own turn (LIB-R-27), not by its own
                        // crew (LIB-ART-15 in its turn, LIB-HTH-16 retreating).
                        let by_enemy = die.rule.as_str() != "LIB-HTH-16"
                            && self.acting().is_some_and(|a| a != owner);
                        if *spiked && !g.spiked && by_enemy {
                            let o = self.gun_origin.get(gun).copied().unwrap_or(*gun);
                            self.guns_won[owner.other().index()].insert(o);
                        }
                    }
                }
            }
            Event::Crewed { from, gun, figures } => {
                let u = &self.state.units[*from];
                let mut seen = BTreeSet::new();
                for i in figures {
                    if !seen.insert(*i) {
                        self.bad("LIB-ART-01", format!("figure {i} of {} sent twice", u.name));
                    }
                    if u.figures.get(*i).is_none_or(|f| f.status != Status::Ranks) {
                        self.bad(
                            "LIB-ART-01",
                            format!("figure {i} of {} sent to crew but not in the ranks", u.name),
                        );
                    }
                }
                let n = seen.len().min(self.figures[*from]);
                self.figures[*from] -= n;
                self.figures[*gun] += n;
                if self.state.units[*gun].gun.is_none() {
                    self.bad("LIB-ART-01", format!("figures crew unit {gun}, which has no gun"));
                }
            }
            Event::GunTaken { from, unit } => {
                if unit.id != self.state.units.len() {
                    self.bad(
                        "LIB-HTH-15",
                        format!("the taken gun is unit {}, not the next", unit.id),
                    );
                }
                if !unit.figures.is_empty() {
                    self.bad(
                        "LIB-M-19",
                        format!("the taken gun comes with {} figures", unit.figures.len()),
                    );
                }
                if self.state.units[*from].gun.is_none() {
                    self.bad("LIB-HTH-15", format!("unit {from} has no gun to be taken"));
                }
                self.figures.push(0);
                let o = self.gun_origin.get(from).copied().unwrap_or(*from);
                self.gun_origin.insert(unit.id, o);
                if let Some(t) = self.gun_turns.get(from).cloned() {
                    self.gun_turns.insert(unit.id, t);
                }
                if self.demoted.contains(from) {
                    self.demoted.insert(unit.id);
                }
                if let Some(t) = self.gun_steps.get(from).cloned() {
                    self.gun_steps.insert(unit.id, t);
                }
                self.guns_won[unit.side.index()].insert(o);
            }
            Event::Melee {
                attacker,
                defenders,
                house,
                fights,
                ranks,
                attacker_won,
                broken,
                ..
            } => {
                self.melee(*attacker, defenders, *house, fights, ranks, *attacker_won, broken);
            }
            Event::Ended { outcome, points } => self.ended_check(outcome, *points),
            _ => {}
        }
    }

    fn after(&mut self, e: &Event, rest: &[Event]) {
        // Figures stay with their units (LIB-M-19).
        if self.state.units.len() != self.figures.len() {
            self.bad("LIB-M-19", "units appeared or vanished".into());
            self.figures = self.state.units.iter().map(|u| u.figures.len()).collect();
        }
        for i in 0..self.figures.len() {
            let n = self.state.units[i].figures.len();
            if n != self.figures[i] {
                let name = self.state.units[i].name.clone();
                self.bad(
                    "LIB-M-19",
                    format!("{name} has {n} figures; it should have {}", self.figures[i]),
                );
                self.figures[i] = n;
            }
        }
        // A horse gun with no artillerymen left in the ranks is a foot gun from then on.
        let horse: Vec<UnitId> = self
            .state
            .units
            .iter()
            .filter(|u| {
                u.gun.as_ref().is_some_and(|g| self.rules.data.guns[g.kind].move_and_fire)
                    && self.artillerymen(u) == 0
            })
            .map(|u| u.id)
            .collect();
        self.demoted.extend(horse);
        if let Event::Melee { attacker, defenders, attacker_won, .. } = e {
            let losers: Vec<UnitId> =
                if *attacker_won { defenders.clone() } else { vec![*attacker] };
            let mut retreated = BTreeSet::new();
            for x in rest {
                match x {
                    Event::Moved { moved, rules, .. } => {
                        if rules.iter().any(|r| r.as_str() == "LIB-HTH-13") {
                            retreated.insert(moved.unit);
                        }
                    }
                    Event::Spiked { .. } | Event::GunTaken { .. } => {}
                    _ => break,
                }
            }
            for u in &losers {
                let unit = &self.state.units[*u];
                if unit.strength() > 0 && !retreated.contains(u) {
                    let name = unit.name.clone();
                    self.bad(
                        "LIB-HTH-13",
                        format!("{name} lost the hand-to-hand but did not retreat"),
                    );
                }
            }
            for u in &retreated {
                if !losers.contains(u) {
                    let name = self.state.units[*u].name.clone();
                    self.bad(
                        "LIB-HTH-13",
                        format!("{name} retreated from a melee it did not lose"),
                    );
                }
            }
        }
        if let Event::HitsApplied { .. } = e {
            let due: BTreeSet<UnitId> = std::mem::take(&mut self.morale_due)
                .into_iter()
                .filter(|u| self.state.units[*u].strength() > 0)
                .collect();
            // The events the exchange's morale makes: up to the next fire, melee, stage or
            // move that is not a morale move.
            let window: Vec<&Event> = rest
                .iter()
                .take_while(|x| match x {
                    Event::Moved { rules, .. } => {
                        rules.iter().any(|r| r.as_str() == "LIB-MORALE-04")
                    }
                    Event::Fired { .. }
                    | Event::Cannon { .. }
                    | Event::HitsApplied { .. }
                    | Event::Melee { .. }
                    | Event::Staged { .. }
                    | Event::StageSet { .. }
                    | Event::TurnBegins { .. }
                    | Event::MoversSet { .. }
                    | Event::Declared { .. }
                    | Event::Night { .. }
                    | Event::Ended { .. } => false,
                    _ => true,
                })
                .collect();
            let mut tested = BTreeSet::new();
            for x in &window {
                let Event::Morale { unit, going_back, .. } = x else { continue };
                tested.insert(*unit);
                let leg = self.leg(*unit);
                let name = self.state.units[*unit].name.clone();
                let mover = leg.is_some_and(|l| l != Leg::Done);
                if *going_back != mover {
                    self.bad(
                        "LIB-MORALE-03",
                        format!(
                            "{name}'s morale: going back {going_back}, a liberal mover {mover}"
                        ),
                    );
                }
                let follows = window.iter().any(|y| match y {
                    Event::Leg { unit: u, leg: Leg::Back, .. } => u == unit,
                    Event::Moved { moved, .. } => moved.unit == *unit,
                    _ => false,
                });
                let want = if *going_back { leg == Some(Leg::Forward) } else { true };
                if want && !follows {
                    self.bad(
                        "LIB-MORALE-04",
                        format!("{name}'s morale failed but it neither went back nor fell back"),
                    );
                }
            }
            if tested != due {
                self.bad(
                    "LIB-MORALE-02",
                    format!("morale tested for units {tested:?}; the 1s on morale figures call for {due:?}"),
                );
            }
        }
        if let Event::Ended { .. } = e {
            self.ended = true;
        }
    }

    /// Turn order, game turns and days (LIB-SEQ-01, LIB-R-14, LIB-DAY-01, LIB-DAY-05).
    fn turn_begins(&mut self, side: Side, first: Side, gt: u32, day: u32) {
        let turns = self.rules.data.rules.day.turns;
        match self.last_turn {
            None => {
                if gt != 1 || day != 1 || side != first {
                    self.bad(
                        "LIB-SEQ-01",
                        format!("the first turn is {side}'s of game turn {gt}, day {day} (first {first})"),
                    );
                }
            }
            Some((ps, pf, pgt, pday)) => {
                if ps == pf {
                    if side != pf.other() || first != pf || gt != pgt || day != pday {
                        self.bad(
                            "LIB-SEQ-01",
                            format!(
                                "after {ps}'s turn of game turn {pgt} day {pday}, {side}'s turn of game turn {gt} day {day} (first {first})"
                            ),
                        );
                    }
                    if self.nights > 0 {
                        self.bad("LIB-DAY-01", format!("a night in the middle of game turn {pgt}"));
                    }
                } else {
                    if gt != pgt + 1 || side != first {
                        self.bad(
                            "LIB-SEQ-01",
                            format!("game turn {pgt} is followed by game turn {gt} ({side}, first {first})"),
                        );
                    }
                    if pgt.is_multiple_of(turns) {
                        if self.nights != 1 {
                            self.bad(
                                "LIB-DAY-01",
                                format!("{} nights after game turn {pgt}; one is due", self.nights),
                            );
                        }
                        if day != pday + 1 {
                            self.bad("LIB-DAY-05", format!("day {pday} is followed by day {day}"));
                        }
                    } else {
                        if self.nights > 0 {
                            self.bad("LIB-DAY-01", format!("a night after game turn {pgt}"));
                        }
                        if day != pday || first != pf {
                            self.bad(
                                "LIB-R-14",
                                format!("day {pday} becomes day {day} (first {pf} → {first}) without a night"),
                            );
                        }
                    }
                }
            }
        }
        self.last_turn = Some((side, first, gt, day));
        self.nights = 0;
        self.guns_moved.clear();
        self.gun_steps.clear();
    }

    fn night(&mut self, day: u32) {
        let turns = self.rules.data.rules.day.turns;
        let st = &self.state;
        let end_of_turn = matches!(&st.phase, Phase::Turn { side, .. } if *side != st.first);
        if !end_of_turn || !st.game_turn.is_multiple_of(turns) {
            let gt = st.game_turn;
            self.bad("LIB-DAY-01", format!("a night in game turn {gt}, not at the end of a day"));
        }
        if day != self.state.day {
            let d = self.state.day;
            self.bad("LIB-DAY-02", format!("the night of day {day} falls on day {d}"));
        }
        if !self.nighted.insert(day) {
            self.bad("LIB-DAY-01", format!("a second night for day {day}"));
        }
        self.nights += 1;
    }

    /// Every move (LIB-CHOICE, LIB-LIBERAL-04, -07, -08, LIB-MORALE-04, LIB-HTH-13).
    fn moved(&mut self, m: &Moved, forward: bool, rules: &[&str]) {
        let st = &self.state;
        let Some(u) = st.units.get(m.unit) else {
            return self.bad("LIB-CHOICE-02", format!("unit {} moved but does not exist", m.unit));
        };
        let u = u.clone();
        let has = |r: &str| rules.contains(&r);
        if u.place.at.distance(m.from.at) > 1e-6 || u.place.formation != m.from.formation {
            self.bad("LIB-CHOICE-09", format!("{} moved from where it did not stand", u.name));
        }
        let dist = m.from.at.distance(m.to.at);
        let acting = self.acting();
        let kind = if has("LIB-CHOICE-02") {
            "normal"
        } else if has("LIB-CHOICE-04") {
            "gun"
        } else if forward {
            "forward"
        } else if has("LIB-LIBERAL-10") {
            "back"
        } else if has("LIB-HTH-13") {
            "melee"
        } else if has("LIB-MORALE-04") {
            "morale"
        } else if has("LIB-R-30") {
            "house"
        } else {
            return self.bad("LIB-SEQ-07", format!("{} moved for no known reason", u.name));
        };
        let sq = self.rules.data.rules.formation.square_move;
        match kind {
            "normal" | "gun" | "forward" | "back" => {
                if acting != Some(u.side) {
                    self.bad(
                        "LIB-SEQ-08",
                        format!("{} of the side not acting made a {kind} move", u.name),
                    );
                }
                let declared = match kind {
                    "normal" => {
                        matches!(self.order(m.unit), Some(Choice::Normal { mount: None, .. }))
                    }
                    "gun" => {
                        matches!(self.order(m.unit), Some(Choice::Gun { .. })) && u.gun.is_some()
                    }
                    "forward" => self.leg(m.unit) == Some(Leg::Forward),
                    _ => self.leg(m.unit) == Some(Leg::Back),
                };
                if !declared {
                    self.bad(
                        if kind == "forward" || kind == "back" {
                            "LIB-LIBERAL-04"
                        } else {
                            "LIB-SEQ-02"
                        },
                        format!("{} made a {kind} move it was not ordered to make", u.name),
                    );
                }
                let (from_f, to_f) = (m.from.formation, m.to.formation);
                // The formation declared: a change blocked where it would be made (the new
                // footprint off the table, on a friend or an enemy) leaves the unit as it
                // was, with the declared change's allowance.
                let declared_f = match (kind, self.order(m.unit)) {
                    ("normal", Some(Choice::Normal { to, formation, .. })) => {
                        let mut f = formation.unwrap_or(if from_f == Formation::House {
                            Formation::Line
                        } else {
                            from_f
                        });
                        if self.rules.house_at(st, *to).is_some()
                            && self.rules.data.troops[u.troop].kind != Kind::Horse
                        {
                            f = Formation::House;
                        }
                        Some(f)
                    }
                    ("forward", _) => {
                        self.movers().iter().find(|x| x.unit == m.unit).and_then(|x| x.formation)
                    }
                    _ => None,
                };
                let mut forms = vec![to_f];
                if let Some(f) = declared_f
                    && f != to_f
                    && to_f == from_f
                {
                    forms.push(f);
                }
                let (want, want_road) = if kind == "back" {
                    (self.rate(&u, from_f, false), f64::NAN)
                } else {
                    let pick = |road: bool| {
                        forms
                            .iter()
                            .map(|f| self.allowance(&u, from_f, *f, road))
                            .find(|a| (a - m.allowance).abs() <= EPS)
                            .unwrap_or(self.allowance(&u, from_f, to_f, road))
                    };
                    (pick(false), pick(true))
                };
                let rule = match kind {
                    "gun" => "LIB-CHOICE-04",
                    "forward" | "back" => "LIB-LIBERAL-04",
                    _ if from_f == Formation::Square || to_f == Formation::Square => {
                        "LIB-CHOICE-06"
                    }
                    _ if from_f != to_f => "LIB-CHOICE-05",
                    _ => "LIB-CHOICE-02",
                };
                if (m.allowance - want).abs() > EPS {
                    if (m.allowance - want_road).abs() <= EPS {
                        let road_ok = (u.gun.is_some()
                            || (from_f == to_f
                                && matches!(from_f, Formation::Column | Formation::RoadColumn)))
                            && self.rules.on_road(st, m.from.at, m.to.at);
                        if !road_ok {
                            self.bad(
                                "LIB-CHOICE-03",
                                format!(
                                    "{} moved at the road rate {}\" off a road or not in column",
                                    u.name, m.allowance
                                ),
                            );
                        }
                    } else {
                        self.bad(
                            rule,
                            format!(
                                "{}'s {kind} move has allowance {}\" ({}); the table gives {want}\" ({} to {})",
                                u.name,
                                m.allowance,
                                m.basis,
                                from_f.name(),
                                to_f.name()
                            ),
                        );
                    }
                }
                if m.used > m.allowance + EPS {
                    self.bad(
                        rule,
                        format!(
                            "{}'s {kind} move used {:.4}\" of its {}\" allowance",
                            u.name, m.used, m.allowance
                        ),
                    );
                }
                if dist > m.used + 1e-6 {
                    self.bad(
                        rule,
                        format!(
                            "{} moved {dist:.4}\" but is said to have used {:.4}\"",
                            u.name, m.used
                        ),
                    );
                }
                if kind != "back" {
                    let cost = self.rules.move_cost(&u, &m.from, &m.to);
                    if (cost - m.used).abs() > 1e-6 {
                        self.bad(
                            "LIB-M-06",
                            format!(
                                "{}'s move costs {cost:.4}\" but is logged as {:.4}\"",
                                u.name, m.used
                            ),
                        );
                    }
                }
                if (from_f == Formation::Square || to_f == Formation::Square)
                    && m.used.max(dist) > sq + EPS
                {
                    self.bad("LIB-SQUARE-01", format!("{}'s square moved {dist:.3}\"", u.name));
                }
                if kind == "gun" {
                    if u.strength() < self.rules.data.rules.artillery.crew_needed {
                        self.bad(
                            "LIB-CHOICE-08",
                            format!("{} moved with {} crew", u.name, u.strength()),
                        );
                    }
                    let turned = m.from.facing.angle_to(m.to.facing)
                        > self.rules.data.rules.artillery.arc_half_degrees.to_radians() + 1e-9;
                    if dist > 1e-9 || turned {
                        self.guns_moved.insert(m.unit);
                    }
                }
                if u.gun.is_some() && kind != "gun" {
                    self.bad("LIB-LIBERAL-14", format!("{} made a {kind} move", u.name));
                }
            }
            "melee" => {
                let r = self.rules.data.rules.melee.retreat;
                if dist > r + 1e-6 || (m.allowance - r).abs() > EPS {
                    self.bad(
                        "LIB-HTH-13",
                        format!(
                            "{} retreated {dist:.3}\" (allowance {}\"); the rule is {r}\"",
                            u.name, m.allowance
                        ),
                    );
                }
            }
            "morale" => {
                let want = self.rate(&u, m.from.formation, false);
                if dist > want + 1e-6 || (m.allowance - want).abs() > EPS {
                    self.bad(
                        "LIB-MORALE-04",
                        format!(
                            "{} fell back {dist:.3}\" (allowance {}\"); one normal move is {want}\"",
                            u.name, m.allowance
                        ),
                    );
                }
            }
            _ => {}
        }
    }

    /// Who fires, in which step (LIB-SEQ-08, LIB-R-20, LIB-LIBERAL-05/06/10, LIB-FIRE-02).
    fn who_fires(&mut self, firer: UnitId, target: UnitId, gun: bool) {
        let st = &self.state;
        let (f, t) = (&st.units[firer], &st.units[target]);
        let (fname, tname) = (f.name.clone(), t.name.clone());
        if f.side == t.side {
            return self.bad("LIB-FIRE-08", format!("{fname} fired at its own side's {tname}"));
        }
        let Some(acting) = self.acting() else {
            return self.bad("LIB-DAY-01", format!("{fname} fired outside a side's turn"));
        };
        let step_e = !self.movers().is_empty();
        let mounted = self.rules.is_mounted(f);
        if f.side != acting {
            if step_e {
                if self.leg(target).is_none_or(|l| l == Leg::Done) {
                    self.bad(
                        "LIB-SEQ-08",
                        format!(
                            "{fname}, not acting, fired in step E at {tname}, not a liberal mover"
                        ),
                    );
                }
            } else if !self.exchange.iter().any(|s| s.firer == target && s.target == firer) {
                self.bad(
                    "LIB-R-20",
                    format!("{fname}, not acting, fired at {tname}, which had not fired at it"),
                );
            }
        } else if step_e {
            if gun {
                self.bad("LIB-LIBERAL-14", format!("{fname}, an acting gun, fired in step E"));
            } else if self.leg(firer) != Some(Leg::Forward) {
                self.bad(
                    "LIB-LIBERAL-10",
                    format!("{fname} fired in step E but is not a liberal mover going forward"),
                );
            }
            if mounted {
                self.bad("LIB-FIRE-02", format!("{fname}, mounted, fired on a liberal move"));
            }
        } else {
            match self.order(firer) {
                Some(Choice::StandFast { .. }) if !gun => {}
                Some(Choice::Normal { mount: None, .. }) if !gun => {
                    if mounted {
                        self.bad(
                            "LIB-FIRE-02",
                            format!("{fname}, mounted, fired after a normal move"),
                        );
                    }
                }
                Some(Choice::Gun { target: Some(n), .. }) if gun && *n == target => {}
                other => {
                    let o = format!("{other:?}");
                    self.bad(
                        if gun { "LIB-SEQ-04" } else { "LIB-SEQ-05" },
                        format!("{fname} fired at {tname} with the order {o}"),
                    );
                }
            }
        }
    }

    /// Replays a casualty count (LIB-R-03, LIB-CAS-02..06) and its fates (LIB-R-02).
    fn count(&mut self, target: UnitId, casualties: u32, hits: &[Hit], rule: &'static str) {
        let u = &self.state.units[target];
        let name = u.name.clone();
        let order = u.in_ranks();
        let mut taken: Vec<usize> = self
            .exchange
            .iter()
            .filter(|s| s.target == target)
            .flat_map(|s| s.hits.iter().map(|h| h.figure))
            .collect();
        let free = order.iter().filter(|i| !taken.contains(i)).count();
        let want = (casualties as usize).min(free);
        if hits.len() != want {
            self.bad(
                rule,
                format!(
                    "{} hits on {name} for {casualties} casualties with {free} figures to hit",
                    hits.len()
                ),
            );
        }
        let mut at: Option<usize> = None;
        for h in hits {
            if !(1..=6).contains(&h.die) {
                self.bad(rule, format!("a casualty die of {} on {name}", h.die));
                continue;
            }
            let fate = self.rules.data.rules.results.fire[h.die as usize - 1];
            if h.fate != fate {
                self.bad(
                    "LIB-R-02",
                    format!(
                        "{name}'s figure {} hit with a {} is {:?}; the fire column gives {fate:?}",
                        h.figure, h.die, h.fate
                    ),
                );
            }
            if order.iter().all(|i| taken.contains(i)) {
                self.bad(rule, format!("a hit on {name} with no figure left to hit"));
                break;
            }
            let mut steps = h.die as usize;
            let mut pos = at;
            while steps > 0 {
                let next = pos.map_or(0, |p| (p + 1) % order.len());
                pos = Some(next);
                if !taken.contains(&order[next]) {
                    steps -= 1;
                }
            }
            let p = pos.unwrap_or(0);
            at = Some(p);
            if order[p] != h.figure || h.number != p + 1 {
                self.bad(
                    "LIB-R-03",
                    format!(
                        "the die {} reaches {name}'s figure {} (number {}), but figure {} (number {}) is hit",
                        h.die,
                        order[p],
                        p + 1,
                        h.figure,
                        h.number
                    ),
                );
            }
            taken.push(h.figure);
        }
    }

    /// A volley (LIB-R-01, LIB-R-41, LIB-FIRE-01..08).
    fn fired(&mut self, v: &crate::state::Volley, hits: &[Hit]) {
        self.who_fires(v.firer, v.target, false);
        let st = &self.state;
        let d = &self.rules.data;
        let (f, t) = (&st.units[v.firer], &st.units[v.target]);
        let (fname, tname) = (f.name.clone(), t.name.clone());
        let mut out: Vec<(&'static str, String)> = Vec::new();
        if f.gun.is_some() || d.troops[f.troop].kind == Kind::Crew {
            out.push(("LIB-FIRE-01", format!("{fname} fired small arms it does not carry")));
        }
        if v.figures == 0 || v.figures > f.strength() {
            out.push((
                "LIB-FIRE-04",
                format!(
                    "{fname} fired with {} figures of {} in the ranks",
                    v.figures,
                    f.strength()
                ),
            ));
        }
        if !t.present() {
            out.push(("LIB-FIRE-08", format!("{fname} fired at {tname}, not on the table")));
        }
        let troop = &d.troops[f.troop];
        let range = if self.rules.is_mounted(f) {
            troop.range_mounted.unwrap_or(troop.range)
        } else {
            troop.range
        };
        if v.distance > range + 1e-6 {
            out.push((
                "LIB-FIRE-08",
                format!("{fname} fired at {:.2}\", beyond its {range}\"", v.distance),
            ));
        }
        let bands = &d.rules.fire.band;
        let share = if range > 0.0 { v.distance / range } else { 1.0 };
        let bi = bands.iter().position(|b| share <= b.up_to + 1e-9).unwrap_or(bands.len() - 1);
        let band = &bands[bi.saturating_sub(troop.band_shift)];
        if band.name != v.band || band.per_casualty != v.per_casualty {
            out.push((
                "LIB-R-01",
                format!(
                    "{fname} at {:.2}\" of {range}\": band {} of {} a casualty; logged {} of {}",
                    v.distance, band.name, band.per_casualty, v.band, v.per_casualty
                ),
            ));
        }
        let dd = v.per_casualty.max(1);
        let (base, rem) = (v.figures as u32 / dd, v.figures as u32 % dd);
        if v.base != base {
            out.push((
                "LIB-R-01",
                format!("{fname}: {} figures / {dd} is {base}, logged {}", v.figures, v.base),
            ));
        }
        match &v.remainder {
            None => {
                if rem > 0 && dd > 1 {
                    out.push(("LIB-R-01", format!("{fname}: a remainder of {rem} and no die")));
                }
                if v.extra != 0 {
                    out.push((
                        "LIB-R-01",
                        format!("{fname}: an extra casualty with no remainder die"),
                    ));
                }
            }
            Some(r) => {
                if rem == 0 {
                    out.push(("LIB-R-01", format!("{fname}: a remainder die with no remainder")));
                }
                if r.value == 0 || u32::from(r.value) > dd {
                    out.push((
                        "LIB-R-01",
                        format!("{fname}: a {dd}-sided remainder die shows {}", r.value),
                    ));
                }
                let want = u32::from(u32::from(r.value) <= rem && rem > 0);
                if v.extra != want {
                    out.push((
                        "LIB-R-01",
                        format!(
                            "{fname}: remainder {rem}, die {}: extra {want}, logged {}",
                            r.value, v.extra
                        ),
                    ));
                }
            }
        }
        if v.extra > 1 {
            out.push(("LIB-R-01", format!("{fname}: extra {}", v.extra)));
        }
        let (cover, _) = self.rules.cover(st, f, t);
        if v.cover != cover {
            out.push((
                "LIB-R-41",
                format!("{fname} at {tname}: cover {cover}, logged {}", v.cover),
            ));
        }
        let want = (v.base + v.extra).saturating_sub(v.cover);
        if v.casualties != want {
            out.push((
                "LIB-R-01",
                format!(
                    "{fname}: {} + {} − {} gives {want} casualties, logged {}",
                    v.base, v.extra, v.cover, v.casualties
                ),
            ));
        }
        for (r, w) in out {
            self.bad(r, w);
        }
        self.count(v.target, v.casualties, hits, "LIB-CAS-02");
        self.exchange.push(Shot1 {
            firer: v.firer,
            target: v.target,
            hits: hits.to_vec(),
            destroyed: false,
        });
    }

    /// A gun's shot (LIB-ART).
    fn cannon(&mut self, c: &crate::state::Cannonade, step: Option<u32>, hits: &[Hit]) {
        self.who_fires(c.gun, c.target, true);
        let st = &self.state;
        let a = &self.rules.data.rules.artillery;
        let (g, t) = (&st.units[c.gun], &st.units[c.target]);
        let (gname, tname) = (g.name.clone(), t.name.clone());
        let mut out: Vec<(&'static str, String)> = Vec::new();
        let Some(gun) = g.gun.clone() else {
            self.bad("LIB-ART-01", format!("{gname} fired a gun it does not have"));
            self.exchange.push(Shot1 {
                firer: c.gun,
                target: c.target,
                hits: hits.to_vec(),
                destroyed: false,
            });
            return;
        };
        if gun.spiked {
            out.push(("LIB-ART-15", format!("{gname} fired a spiked gun")));
        }
        // A gun destroyed in this very exchange still fires: the exchange is worked out from
        // the state before it (LIB-FIRE-03).
        let now = self.exchange.iter().any(|s| s.destroyed && s.target == c.gun);
        if gun.destroyed && !now {
            out.push(("LIB-ART-11", format!("{gname} fired a destroyed gun")));
        }
        if g.strength() < a.crew_needed {
            out.push(("LIB-ART-01", format!("{gname} fired with {} crew", g.strength())));
        }
        let infantry_only = self.artillerymen(g) == 0;
        let gt = st.game_turn;
        if infantry_only
            && self.gun_turns.get(&c.gun).is_some_and(|v| v.contains(&(gt.wrapping_sub(1))))
        {
            out.push((
                "LIB-R-26",
                format!(
                    "{gname}, served only by infantry, fired in game turns {} and {gt}",
                    gt - 1
                ),
            ));
        }
        if let Some(k) = step
            && infantry_only
            && self.gun_steps.get(&c.gun).is_some_and(|v| v.contains(&(k.wrapping_sub(1))))
        {
            out.push((
                "LIB-R-09",
                format!(
                    "{gname}, served only by infantry, fired on liberal steps {} and {k}",
                    k - 1
                ),
            ));
        }
        let foot = self.gun_type(g).is_some_and(|x| !x.move_and_fire);
        if foot && self.guns_moved.contains(&c.gun) {
            out.push(("LIB-ART-04", format!("{gname}, a foot gun, moved and fired in one turn")));
        }
        if let Some(Choice::Gun { shot, .. }) = self.order(c.gun)
            && self.acting() == Some(g.side)
            && *shot != c.shot
        {
            out.push(("LIB-SEQ-04", format!("{gname} fired {:?}, ordered {shot:?}", c.shot)));
        }
        let live_gun = t.gun.as_ref().is_some_and(|x| !x.destroyed);
        let (cover, _) = self.rules.cover(st, g, t);
        match c.shot {
            Shot::Grape => {
                let range = a.grape_range.min(gun.range);
                if c.distance > range + 1e-6 {
                    out.push(("LIB-ART-12", format!("{gname} fired grape at {:.2}\"", c.distance)));
                }
                if c.to_hit.is_some()
                    || !c.hit
                    || c.destroyed
                    || c.cover != 0
                    || c.crew_die.is_some()
                {
                    out.push((
                        "LIB-R-24",
                        format!(
                            "{gname}'s grape: to-hit {:?}, hit {}, destroyed {}, cover {}",
                            c.to_hit.as_ref().map(|r| r.value),
                            c.hit,
                            c.destroyed,
                            c.cover
                        ),
                    ));
                }
                match &c.casualty_die {
                    Some(r) if u32::from(r.value) == c.casualties && (1..=6).contains(&r.value) => {
                    }
                    r => out.push((
                        "LIB-ART-12",
                        format!(
                            "{gname}'s grape: die {:?}, {} casualties",
                            r.as_ref().map(|r| r.value),
                            c.casualties
                        ),
                    )),
                }
            }
            Shot::Round => {
                if c.distance > gun.range + 1e-6 {
                    out.push((
                        "LIB-ART-08",
                        format!("{gname} fired at {:.2}\", range {}\"", c.distance, gun.range),
                    ));
                }
                match &c.to_hit {
                    None => {
                        out.push(("LIB-ART-09", format!("{gname}'s round shot with no to-hit die")))
                    }
                    Some(h) => {
                        let want = a.hit_faces.contains(&h.value);
                        if want != c.hit {
                            out.push((
                                "LIB-ART-09",
                                format!(
                                    "{gname}'s to-hit die {} gives hit {want}, logged {}",
                                    h.value, c.hit
                                ),
                            ));
                        }
                    }
                }
                if !c.hit {
                    if c.casualties != 0 || c.casualty_die.is_some() || c.destroyed {
                        out.push((
                            "LIB-ART-09",
                            format!("{gname} missed but did {} casualties", c.casualties),
                        ));
                    }
                } else {
                    if c.cover != cover {
                        out.push((
                            "LIB-R-41",
                            format!("{gname} at {tname}: cover {cover}, logged {}", c.cover),
                        ));
                    }
                    match &c.casualty_die {
                        None => {
                            out.push(("LIB-ART-10", format!("{gname} hit with no casualty die")))
                        }
                        Some(r) => {
                            let six = r.value == a.destroy_face;
                            if c.destroyed != (six && live_gun) {
                                out.push((
                                    "LIB-ART-11",
                                    format!(
                                        "{gname}'s casualty die {} on {tname} (a live gun: {live_gun}): destroyed {}",
                                        r.value, c.destroyed
                                    ),
                                ));
                            }
                            let want = if c.destroyed {
                                match &c.crew_die {
                                    Some(k) => u32::from(k.value).saturating_sub(c.cover),
                                    None => {
                                        out.push((
                                            "LIB-R-23",
                                            format!("{gname} destroyed a gun with no crew die"),
                                        ));
                                        0
                                    }
                                }
                            } else {
                                if c.crew_die.is_some() {
                                    out.push((
                                        "LIB-R-23",
                                        format!("{gname}: a crew die with no gun destroyed"),
                                    ));
                                }
                                u32::from(r.value).saturating_sub(c.cover)
                            };
                            if c.casualties != want {
                                out.push((
                                    "LIB-ART-10",
                                    format!(
                                        "{gname}: casualties {}, the dice give {want}",
                                        c.casualties
                                    ),
                                ));
                            }
                        }
                    }
                }
            }
        }
        for (r, w) in out {
            self.bad(r, w);
        }
        self.count(c.target, c.casualties, hits, "LIB-ART-13");
        self.gun_turns.entry(c.gun).or_default().push(gt);
        if let Some(k) = step {
            self.gun_steps.entry(c.gun).or_default().push(k);
        }
        self.exchange.push(Shot1 {
            firer: c.gun,
            target: c.target,
            hits: hits.to_vec(),
            destroyed: c.destroyed,
        });
    }

    /// The exchange's hits applied together, on distinct figures (LIB-FIRE-03).
    fn hits_applied(&mut self, applied: &[(UnitId, Vec<Hit>)]) {
        // Morale: the morale figure hit with a 1, or any 1 in a unit with no leader left;
        // never a battery (LIB-MORALE-02, LIB-R-10, LIB-R-13, LIB-M-21).
        let any_one = self.rules.data.rules.morale.leaderless_any_one;
        self.morale_due = applied
            .iter()
            .filter(|(u, hs)| {
                let unit = &self.state.units[*u];
                let mf = unit.morale_figure();
                unit.gun.is_none()
                    && hs
                        .iter()
                        .any(|h| h.die == 1 && (Some(h.figure) == mf || (mf.is_none() && any_one)))
            })
            .map(|(u, _)| *u)
            .collect();
        let mut want: BTreeMap<UnitId, Vec<Hit>> = BTreeMap::new();
        for s in &self.exchange {
            if !s.hits.is_empty() {
                want.entry(s.target).or_default().extend(s.hits.iter().cloned());
            }
        }
        let got: BTreeMap<UnitId, Vec<Hit>> = applied.iter().cloned().collect();
        if got.len() != applied.len() {
            self.bad("LIB-FIRE-03", "a unit listed twice in one application of hits".into());
        }
        if got != want {
            self.bad(
                "LIB-FIRE-03",
                format!(
                    "the hits applied ({} units) are not the exchange's ({} units)",
                    got.len(),
                    want.len()
                ),
            );
        }
        for (u, hs) in &got {
            let unit = &self.state.units[*u];
            let mut seen = BTreeSet::new();
            let mut out = Vec::new();
            for h in hs {
                if !seen.insert(h.figure) {
                    out.push(format!(
                        "{}'s figure {} hit twice in one exchange",
                        unit.name, h.figure
                    ));
                }
                if unit.figures.get(h.figure).is_none_or(|f| f.status != Status::Ranks) {
                    out.push(format!(
                        "{}'s figure {} hit but not in the ranks",
                        unit.name, h.figure
                    ));
                }
            }
            for w in out {
                self.bad("LIB-R-03", w);
            }
        }
        self.exchange.clear();
    }

    fn man(&self, unit: UnitId, figure: usize, extra: i32) -> Man {
        let u = &self.state.units[unit];
        let f = &u.figures[figure];
        let t = &self.rules.data.troops[f.troop];
        let dismounted = t.kind == Kind::Horse && !u.mounted;
        Man {
            unit,
            figure,
            bonus: if dismounted { 0 } else { t.hth_bonus } + extra,
            ties: t.wins_ties && !dismounted,
            colours: f.role == Role::Colours && u.flag == Flag::Carried,
        }
    }

    /// A hand-to-hand, fight by fight (LIB-HTH, LIB-R-05..07, LIB-R-29..31, LIB-HOUSE-05).
    #[allow(clippy::too_many_arguments)]
    fn melee(
        &mut self,
        attacker: UnitId,
        defenders: &[UnitId],
        house: bool,
        fights: &[Fight],
        ranks: &[(bool, Vec<(UnitId, usize)>)],
        attacker_won: bool,
        broken: &[UnitId],
    ) {
        let m = self.rules.data.rules.melee.clone();
        let st = &self.state;
        let Some(&defender) = defenders.first() else {
            return self.bad("LIB-HTH-02", "a melee with no defender".into());
        };
        let au = &st.units[attacker];
        if au.side == st.units[defender].side || au.side != self.acting().unwrap_or(au.side) {
            self.bad("LIB-HTH-01", format!("{} attacked a friend, or out of its turn", au.name));
        }
        let att_ranks = au.in_ranks();
        let aw = self.rules.rank_width(au.place.formation, att_ranks.len()).max(1);
        let att: Vec<Man> = att_ranks.iter().map(|i| self.man(attacker, *i, 0)).collect();
        let mut def: Vec<Man> = Vec::new();
        let target = &st.units[defender];
        if house {
            if target.house.is_none() {
                self.bad(
                    "LIB-HOUSE-05",
                    format!("a house fight against {}, not in a house", target.name),
                );
            }
            for i in target.in_ranks() {
                def.push(self.man(defender, i, m.house_bonus));
            }
        } else {
            if target.place.formation == Formation::Square && !target.square_broken {
                let n = target.strength();
                let per_face = n.div_ceil(4).max(1);
                let from = self.rules.footprint(au).centre - target.place.at;
                let face = match direction_sector(target.place.facing, from) {
                    Sector::Front => 0,
                    Sector::Right => 1,
                    Sector::Rear => 2,
                    Sector::Left => 3,
                };
                let mut rest = Vec::new();
                for (k, i) in target.in_ranks().into_iter().enumerate() {
                    if (k / per_face).min(3) == face {
                        def.push(self.man(defender, i, m.square_bonus));
                    } else {
                        rest.push(self.man(defender, i, 0));
                    }
                }
                // Outnumbered, the other faces come in behind without their +1 and the
                // square is broken (LIB-R-29, LIB-SQUARE-05).
                let join = att.len() > def.len() && !rest.is_empty();
                if join != broken.contains(&defender) {
                    self.bad(
                        "LIB-R-29",
                        format!(
                            "{}'s square: {} attackers against a face of {}, {} others; broken: {}",
                            target.name,
                            att.len(),
                            def.len(),
                            rest.len(),
                            broken.contains(&defender)
                        ),
                    );
                }
                if broken.contains(&defender) {
                    def.extend(rest);
                }
            } else {
                for i in target.in_ranks() {
                    def.push(self.man(defender, i, 0));
                }
            }
            for &s in &defenders[1..] {
                let su = &st.units[s];
                if su.house.is_some() || su.side != target.side {
                    self.bad(
                        "LIB-HOUSE-04",
                        format!("{} gathered to support {}", su.name, target.name),
                    );
                }
                for i in su.in_ranks() {
                    def.push(self.man(s, i, 0));
                }
            }
        }
        let res = self.rules.data.rules.results.clone();
        let mut log = fights.iter();
        let mut out: Vec<(&'static str, String)> = Vec::new();
        let mut lost_once: BTreeSet<(UnitId, usize)> = BTreeSet::new();
        // Checks the next logged fight against the figures the queues put up; returns who won.
        let mut next = |a: &Man, d: &Man, out: &mut Vec<(&'static str, String)>| -> Option<bool> {
            let Some(f) = log.next() else {
                out.push(("LIB-HTH-12", "the melee stopped before a side was driven off".into()));
                return None;
            };
            if f.attacker != (a.unit, a.figure) || f.defender != (d.unit, d.figure) {
                out.push((
                    "LIB-R-07",
                    format!(
                        "a single fight of {:?} against {:?}; the queues give {:?} against {:?}",
                        f.attacker,
                        f.defender,
                        (a.unit, a.figure),
                        (d.unit, d.figure)
                    ),
                ));
            }
            if f.attacker_roll.1 != a.bonus || f.defender_roll.1 != d.bonus {
                out.push((
                    "LIB-R-44",
                    format!(
                        "bonuses {} and {} in a single fight; the tables give {} and {}",
                        f.attacker_roll.1, f.defender_roll.1, a.bonus, d.bonus
                    ),
                ));
            }
            let (ra, rd) = (f.attacker_roll.0, f.defender_roll.0);
            if !(1..=6).contains(&ra) || !(1..=6).contains(&rd) || !(1..=6).contains(&f.fate_die) {
                out.push((
                    "LIB-HTH-04",
                    format!("dice {ra}, {rd}, fate {} in a single fight", f.fate_die),
                ));
                return Some(f.attacker_won);
            }
            let (ta, td) = (ra as i32 + a.bonus, rd as i32 + d.bonus);
            if ta != td {
                if f.attacker_won != (ta > td) {
                    out.push((
                        "LIB-HTH-04",
                        format!("{ta} against {td}, and the attacker won: {}", f.attacker_won),
                    ));
                }
            } else if a.ties == d.ties {
                out.push((
                    "LIB-R-05",
                    format!("a tie at {ta} with equal tie-winning was not rolled again"),
                ));
            } else if f.attacker_won != a.ties {
                out.push(("LIB-HTH-05", format!("a tie at {ta}: the tie-winner lost")));
            }
            let loser = if f.attacker_won { d } else { a };
            let col = if loser.colours { &res.flag } else { &res.hand_to_hand };
            let fate = col[f.fate_die as usize - 1];
            if f.fate != fate {
                out.push((
                    "LIB-HTH-06",
                    format!(
                        "the loser {:?} (colours: {}) with fate die {} is {:?}; the column gives {fate:?}",
                        (loser.unit, loser.figure),
                        loser.colours,
                        f.fate_die,
                        f.fate
                    ),
                ));
            }
            if !lost_once.insert((loser.unit, loser.figure)) {
                out.push((
                    "LIB-R-07",
                    format!("figure {:?} lost twice", (loser.unit, loser.figure)),
                ));
            }
            Some(f.attacker_won)
        };
        let limit = m.lost_in_row;
        let mut want_ranks: Vec<(bool, Vec<(UnitId, usize)>)> = Vec::new();
        let want_won;
        let ids = |v: &[Man]| v.iter().map(|x| (x.unit, x.figure)).collect::<Vec<_>>();
        'melee: {
            if house || def.is_empty() {
                let (mut ia, mut id) = (0usize, 0usize);
                let (mut qa, mut qd) = (att.clone(), def.clone());
                let mut streak: (bool, u32) = (true, 0);
                loop {
                    if qa.is_empty() || qd.is_empty() {
                        want_won = qd.is_empty() && !qa.is_empty();
                        break;
                    }
                    let (a, d) = (qa[ia % qa.len()], qd[id % qd.len()]);
                    let Some(aw) = next(&a, &d, &mut out) else {
                        want_won = attacker_won;
                        break 'melee;
                    };
                    if aw {
                        let n = qd.len();
                        qd.remove(id % n);
                        ia += 1;
                    } else {
                        let n = qa.len();
                        qa.remove(ia % n);
                        id += 1;
                    }
                    let lost_by_attacker = !aw;
                    streak = if streak.0 == lost_by_attacker && streak.1 > 0 {
                        (lost_by_attacker, streak.1 + 1)
                    } else {
                        (lost_by_attacker, 1)
                    };
                    if streak.1 >= limit {
                        want_won = !streak.0;
                        let losers = if want_won { &qd } else { &qa };
                        want_ranks.push((!want_won, ids(losers)));
                        break;
                    }
                }
            } else {
                let chunk =
                    |v: &[Man]| -> Vec<Vec<Man>> { v.chunks(aw).map(|c| c.to_vec()).collect() };
                let (mut ra, mut rd) = (chunk(&att), chunk(&def));
                loop {
                    if ra.is_empty() || rd.is_empty() {
                        want_won = rd.is_empty() && !ra.is_empty();
                        break;
                    }
                    let (mut ia, mut id) = (0usize, 0usize);
                    let mut streak: (bool, u32) = (true, 0);
                    let attacker_lost_rank = loop {
                        if ra[0].is_empty() {
                            break true;
                        }
                        if rd[0].is_empty() {
                            break false;
                        }
                        let (na, nd) = (ra[0].len(), rd[0].len());
                        let (a, d) = (ra[0][ia % na], rd[0][id % nd]);
                        let Some(aw) = next(&a, &d, &mut out) else {
                            want_won = attacker_won;
                            break 'melee;
                        };
                        if aw {
                            rd[0].remove(id % nd);
                            ia += 1;
                        } else {
                            ra[0].remove(ia % na);
                            id += 1;
                        }
                        let lost_by_attacker = !aw;
                        streak = if streak.0 == lost_by_attacker && streak.1 > 0 {
                            (lost_by_attacker, streak.1 + 1)
                        } else {
                            (lost_by_attacker, 1)
                        };
                        if streak.1 >= limit {
                            break streak.0;
                        }
                    };
                    let (loser, winner) =
                        if attacker_lost_rank { (&mut ra, &mut rd) } else { (&mut rd, &mut ra) };
                    let gone = loser.remove(0);
                    want_ranks.push((attacker_lost_rank, ids(&gone)));
                    while winner[0].len() < aw && winner.len() > 1 {
                        let x = winner[1].remove(0);
                        winner[0].push(x);
                        if winner[1].is_empty() {
                            winner.remove(1);
                        }
                    }
                }
            }
            if log.next().is_some() {
                out.push(("LIB-HTH-12", "single fights logged after the melee was decided".into()));
            }
        }
        if want_ranks != ranks {
            out.push((
                "LIB-HTH-07",
                format!(
                    "the rank fights went {:?}; the logged ranks are {:?}",
                    want_ranks.iter().map(|r| (r.0, r.1.len())).collect::<Vec<_>>(),
                    ranks.iter().map(|r| (r.0, r.1.len())).collect::<Vec<_>>()
                ),
            ));
        }
        if want_won != attacker_won {
            out.push((
                "LIB-HTH-12",
                format!("the fights give attacker won {want_won}; logged {attacker_won}"),
            ));
        }
        for f in fights {
            for (u, i) in [f.attacker, f.defender] {
                if self
                    .state
                    .units
                    .get(u)
                    .and_then(|x| x.figures.get(i))
                    .is_none_or(|x| x.status != Status::Ranks)
                {
                    out.push((
                        "LIB-HTH-04",
                        format!("figure {i} of unit {u} fought out of the ranks"),
                    ));
                }
            }
        }
        for (r, w) in out {
            self.bad(r, w);
        }
    }

    /// The end (LIB-M-17): when, the points, the winner.
    fn ended_check(&mut self, outcome: &tabletop::rules::Outcome, points: [u32; 2]) {
        let st = &self.state;
        let v = &self.rules.data.rules.victory;
        let mut p = [0u32; 2];
        for u in &st.units {
            let e = u.side.other().index();
            for f in &u.figures {
                p[e] += match f.status {
                    Status::Dead | Status::Wounded { .. } | Status::Evacuated => v.dead_or_wounded,
                    Status::Captured => v.prisoner,
                    _ => 0,
                };
            }
            if u.flag == Flag::Lost {
                p[e] += v.flag;
            }
        }
        for s in Side::BOTH {
            p[s.index()] += self.guns_won[s.index()].len() as u32 * v.gun;
        }
        let mut out = Vec::new();
        if p != points {
            out.push((
                "LIB-M-17",
                format!("the battle ends with points {points:?}; the count gives {p:?}"),
            ));
        }
        let beaten: Vec<Side> =
            Side::BOTH.into_iter().filter(|s| !st.units_of(*s).any(|u| u.strength() > 0)).collect();
        let want = if let Some(b) = beaten.first() {
            Some(b.other())
        } else {
            if self.nights != 1 || st.day < st.days {
                out.push((
                    "LIB-M-17",
                    format!(
                        "the battle ended on day {} of {} with both armies standing",
                        st.day, st.days
                    ),
                ));
            }
            match points[0].cmp(&points[1]) {
                std::cmp::Ordering::Greater => Some(Side::Red),
                std::cmp::Ordering::Less => Some(Side::Blue),
                std::cmp::Ordering::Equal => None,
            }
        };
        if outcome.winner != want {
            out.push((
                "LIB-M-17",
                format!("the winner is {:?}; the rules give {want:?}", outcome.winner),
            ));
        }
        for (r, w) in out {
            self.bad(r, w);
        }
    }
}

/// Reads a battle's events from its set-up state; the violations, by event index.
pub fn audit_events(rules: &Liberal, start: &State, events: &[Event]) -> Vec<Violation> {
    let mut u = Umpire::new(rules, start);
    u.read_all(events);
    u.violations()
}

/// Reads a whole game: every event from the scenario's set-up state, each violation told with
/// its command; and that the replay reaches the game's own state.
pub fn audit(game: &Game<Liberal>) -> Vec<Violation> {
    let rules = game.rules();
    let mut u = Umpire::new(rules, &game.scenario().state);
    u.read_all(game.events());
    let mut out = u.violations();
    let starts = game.command_starts();
    for v in &mut out {
        v.command = starts.iter().rposition(|s| *s <= v.event);
    }
    if tabletop::game::state_hash(&u.state) != game.state_hash() {
        out.push(Violation {
            event: game.events().len(),
            command: None,
            rule: "LIB-SEQ-07",
            what: "the events replay to another state than the game's".into(),
        });
    }
    if game.outcome().is_some() && !game.events().iter().any(|e| matches!(e, Event::Ended { .. })) {
        out.push(Violation {
            event: game.events().len(),
            command: None,
            rule: "LIB-M-17",
            what: "the game is over with no Ended event".into(),
        });
    }
    out
}

/// The ready scenarios' directory (`scenarios/liberal` in the project).
pub const READY_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/liberal");

/// The ready scenarios' file names (`*.toml` in [`READY_DIR`]), sorted.
pub fn ready_scenarios() -> Vec<String> {
    tabletop::harness::toml_files(READY_DIR)
}
