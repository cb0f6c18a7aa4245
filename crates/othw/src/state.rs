//! The game state, the commands and the events of O/THW Ancients, and how events apply.
//!
//! The state is small on purpose: the board is shared behind an `Arc` (terrain never changes),
//! units live in a `Vec` indexed by their small integer ID, and an occupancy vector maps each
//! cell to the unit in it. Events are facts; [`apply`] is the only code that changes a state.

use crate::combat::{Aspect, Factor, Modifier, Op, Term};
use crate::data::{Class, FateResult, RampageTurn, Specials};
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use std::borrow::Cow;
use std::sync::Arc;
use tabletop::dice::Roll;
use tabletop::grid::{CellPos, CellTerrain, Grid, GridFacing};
use tabletop::rules::{Narrate, Outcome, RuleId, Side};

/// A unit's ID: its index in [`State::units`].
pub type UnitId = u8;

/// The value of an empty cell in [`State::occ`].
pub const EMPTY: u8 = u8::MAX;

/// Which board edge is a side's own (base) edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// Row 0.
    South,
    /// The last row.
    North,
}

impl Edge {
    /// The facing that heads for this edge.
    pub fn facing(self) -> GridFacing {
        match self {
            Edge::South => GridFacing::South,
            Edge::North => GridFacing::North,
        }
    }
}

/// The board: the grid's terrain and the deployment rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Board {
    /// The cells.
    pub grid: Grid,
    /// Rows of each side's deployment zone, next to its own edge.
    pub deployment_rows: u32,
}

impl Board {
    /// The terrain at `p` (open off the board).
    pub fn terrain(&self, p: CellPos) -> CellTerrain {
        self.grid.terrain(p).unwrap_or_default()
    }

    /// True for cells no unit may enter (rivers away from fords).
    pub fn impassable(&self, p: CellPos) -> bool {
        self.terrain(p) == CellTerrain::River
    }

    /// True for woods and fords, which limit movement (OTHW-MOV-11).
    pub fn restricted(&self, p: CellPos) -> bool {
        matches!(self.terrain(p), CellTerrain::Wood | CellTerrain::Ford)
    }

    /// True when `p` lies in the deployment zone next to `edge`.
    pub fn in_zone(&self, p: CellPos, edge: Edge) -> bool {
        if !self.grid.in_bounds(p) {
            return false;
        }
        let r = p.row as u32;
        match edge {
            Edge::South => r < self.deployment_rows,
            Edge::North => r >= self.grid.rows.saturating_sub(self.deployment_rows),
        }
    }
}

/// A unit's standing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// In the fight.
    Ready,
    /// Broken and fleeing (OTHW-FLT-01).
    Fleeing,
    /// A rampaging elephant (OTHW-CMB-18).
    Rampaging,
    /// Off the board: fled off, eliminated, slaughtered or destroyed.
    Gone,
}

/// How a unit left the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GoneHow {
    /// Fled off its own edge.
    FledOff,
    /// Pushed off the board by a retreat.
    PushedOff,
    /// Slaughtered while fleeing.
    Slaughtered,
    /// A rampaging elephant destroyed or gone off the board.
    Destroyed,
}

/// Per-phase flags of a unit.
pub mod flags {
    /// Has made a move this phase.
    pub const MOVED: u8 = 1;
    /// Has fought (a combat or charge action) this phase.
    pub const FOUGHT: u8 = 2;
    /// Has taken part in a group move this phase.
    pub const GROUP_MOVED: u8 = 4;
    /// Has made its further move this phase.
    pub const FURTHER: u8 = 8;
    /// May not act again this phase (pursuit just ended, OTHW-FLT-09).
    pub const DONE: u8 = 16;
}

/// A unit on (or once on) the board.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Its ID.
    pub id: UnitId,
    /// Its side.
    pub side: Side,
    /// Its name.
    pub name: Arc<str>,
    /// Its type's name.
    pub type_name: Arc<str>,
    /// Its kind.
    pub class: Class,
    /// Moves.
    pub m: u8,
    /// Attack dice.
    pub a: u8,
    /// Defence.
    pub d: u8,
    /// Starting strength.
    pub s: u8,
    /// Leadership.
    pub l: u8,
    /// Special rules.
    pub specials: Specials,
    /// The most retreat tests.
    pub retreat_tests: u8,
    /// Where it is (its last square once gone).
    pub pos: CellPos,
    /// Which way it faces.
    pub facing: GridFacing,
    /// Strength points left.
    pub sp: u8,
    /// Its standing.
    pub status: Status,
    /// How it left the board, once gone.
    pub gone: Option<GoneHow>,
    /// The fleeing unit it pursues.
    pub pursuing: Option<UnitId>,
    /// Per-phase flags ([`flags`]).
    pub flags: u8,
}

impl Unit {
    /// True when the unit has the special.
    pub fn has(&self, s: crate::data::Special) -> bool {
        self.specials.has(s)
    }

    /// True while on the board (ready, fleeing or rampaging).
    pub fn on_board(&self) -> bool {
        self.status != Status::Gone
    }

    /// True for skirmishers.
    pub fn is_skirmisher(&self) -> bool {
        self.has(crate::data::Special::Interpenetration)
    }

    /// True when woods and fords do not cut its move to one point: loose order and
    /// skirmishers (OTHW-MOV-11).
    pub fn ignores_restricted(&self) -> bool {
        self.has(crate::data::Special::LooseOrder) || self.is_skirmisher()
    }

    /// True when its flags hold `f`.
    pub fn flag(&self, f: u8) -> bool {
        self.flags & f != 0
    }
}

/// What a side's general does when the rules leave him a choice in the middle of an action
/// (OTHW-GEN-11, OTHW-M-17): standing orders, set by the side with [`Command::Orders`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Orders {
    /// Reroll his unit's failed leadership tests.
    pub reroll: bool,
    /// Roll rally dice when his unit is hit.
    pub rally: bool,
    /// Test to follow up after winning (Impetuous units always follow up).
    pub follow_up: bool,
    /// Take the Phalanx cancel test.
    pub phalanx: bool,
}

impl Default for Orders {
    fn default() -> Self {
        Orders { reroll: true, rally: true, follow_up: true, phalanx: true }
    }
}

/// A side's general.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct General {
    /// His name.
    pub name: Arc<str>,
    /// Attack dice.
    pub attack: u8,
    /// Rally dice.
    pub rally: u8,
    /// Fate roll modifier.
    pub fate_modifier: i8,
    /// Failed attack Risk tests still to be ignored.
    pub ignore_attack_risk: u8,
    /// The unit he is with.
    pub unit: UnitId,
    /// Lost (removed, or his unit broke).
    pub lost: bool,
    /// He is away until the end of this phase number (OTHW-R-37); 0 = never.
    pub absent_through: u32,
}

/// One side.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct SideState {
    /// The army's name.
    pub name: Arc<str>,
    /// Its own edge.
    pub edge: Edge,
    /// Army morale now.
    pub am: u8,
    /// Army morale at the start.
    pub am_start: u8,
    /// The general.
    pub general: Option<General>,
    /// The general's standing orders.
    pub orders: Orders,
}

/// The whole game.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The board (shared: it never changes).
    pub board: Arc<Board>,
    /// Every unit, by ID.
    pub units: Vec<Unit>,
    /// The unit in each cell (index as the grid's), or [`EMPTY`].
    pub occ: Vec<u8>,
    /// Red and blue.
    pub sides: [SideState; 2],
    /// The turn (from 1).
    pub turn: u16,
    /// The last turn.
    pub turns: u16,
    /// The side that has the first phase of each turn.
    pub first: Side,
    /// The side whose phase it is.
    pub phasing: Side,
    /// Phases so far (from 1).
    pub phase_no: u32,
    /// The phase has ended (a 1, or a failed further-move test); only the general's unit may
    /// still act (OTHW-SEQ-07).
    pub phase_over: bool,
    /// The result, once over.
    pub outcome: Option<Outcome>,
}

impl State {
    /// The side's state.
    pub fn side(&self, s: Side) -> &SideState {
        &self.sides[s.index()]
    }

    /// The unit in cell `p`, if any.
    pub fn at(&self, p: CellPos) -> Option<UnitId> {
        let i = self.board.grid.index(p)?;
        let v = *self.occ.get(i)?;
        (v != EMPTY).then_some(v)
    }

    /// The unit with this ID.
    pub fn unit(&self, id: UnitId) -> Option<&Unit> {
        self.units.get(id as usize)
    }

    /// The general of `side` if he is with his army and not away (OTHW-R-37).
    pub fn active_general(&self, side: Side) -> Option<&General> {
        self.side(side).general.as_ref().filter(|g| !g.lost && self.phase_no > g.absent_through)
    }

    /// True when `u`'s side has an active general with `u`.
    pub fn has_general(&self, u: UnitId) -> bool {
        self.unit(u).and_then(|x| self.active_general(x.side)).is_some_and(|g| g.unit == u)
    }
}

// Cloning. `execute` works on a copy of the state, refreshed from the state it is given with
// `clone_from`: these impls copy the plain fields and clone a name (a reference-counted
// string) only when it is not already the same string, so that refreshing a copy of the same
// game costs no reference counting. The parts' `clone_from` are inlined into the state's (a
// call per unit cost about a third of the refresh).

/// Clones `src` into `dst` unless both are the same shared string.
fn clone_name(dst: &mut Arc<str>, src: &Arc<str>) {
    if !Arc::ptr_eq(dst, src) {
        *dst = src.clone();
    }
}

impl Clone for Unit {
    fn clone(&self) -> Unit {
        Unit { name: self.name.clone(), type_name: self.type_name.clone(), ..*self }
    }

    #[inline]
    fn clone_from(&mut self, src: &Unit) {
        let Unit {
            id,
            side,
            name,
            type_name,
            class,
            m,
            a,
            d,
            s,
            l,
            specials,
            retreat_tests,
            pos,
            facing,
            sp,
            status,
            gone,
            pursuing,
            flags,
        } = src;
        clone_name(&mut self.name, name);
        clone_name(&mut self.type_name, type_name);
        (self.id, self.side, self.class, self.m, self.a, self.d, self.s, self.l) =
            (*id, *side, *class, *m, *a, *d, *s, *l);
        (self.specials, self.retreat_tests, self.pos, self.facing, self.sp) =
            (*specials, *retreat_tests, *pos, *facing, *sp);
        (self.status, self.gone, self.pursuing, self.flags) = (*status, *gone, *pursuing, *flags);
    }
}

impl Clone for General {
    fn clone(&self) -> General {
        General { name: self.name.clone(), ..*self }
    }

    #[inline]
    fn clone_from(&mut self, src: &General) {
        let General {
            name,
            attack,
            rally,
            fate_modifier,
            ignore_attack_risk,
            unit,
            lost,
            absent_through,
        } = src;
        clone_name(&mut self.name, name);
        (self.attack, self.rally, self.fate_modifier, self.ignore_attack_risk) =
            (*attack, *rally, *fate_modifier, *ignore_attack_risk);
        (self.unit, self.lost, self.absent_through) = (*unit, *lost, *absent_through);
    }
}

impl Clone for SideState {
    fn clone(&self) -> SideState {
        SideState { name: self.name.clone(), general: self.general.clone(), ..*self }
    }

    #[inline(always)]
    fn clone_from(&mut self, src: &SideState) {
        let SideState { name, edge, am, am_start, general, orders } = src;
        clone_name(&mut self.name, name);
        (self.edge, self.am, self.am_start, self.orders) = (*edge, *am, *am_start, *orders);
        match (&mut self.general, general) {
            (Some(a), Some(b)) => a.clone_from(b),
            (a, b) => *a = b.clone(),
        }
    }
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            board: self.board.clone(),
            units: self.units.clone(),
            occ: self.occ.clone(),
            sides: self.sides.clone(),
            outcome: self.outcome.clone(),
            ..*self
        }
    }

    fn clone_from(&mut self, src: &State) {
        let State {
            board,
            units,
            occ,
            sides,
            turn,
            turns,
            first,
            phasing,
            phase_no,
            phase_over,
            outcome,
        } = src;
        if !Arc::ptr_eq(&self.board, board) {
            self.board = board.clone();
        }
        self.units.clone_from(units);
        self.occ.clone_from(occ);
        self.sides[0].clone_from(&sides[0]);
        self.sides[1].clone_from(&sides[1]);
        (self.turn, self.turns, self.first, self.phasing) = (*turn, *turns, *first, *phasing);
        (self.phase_no, self.phase_over) = (*phase_no, *phase_over);
        self.outcome.clone_from(outcome);
    }
}

/// A command from a side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Command {
    /// A move by one unit to a square and facing (its first move, or its further move when it
    /// has already moved this phase: OTHW-MOV-09).
    Move {
        /// The unit.
        unit: UnitId,
        /// Where it ends.
        to: CellPos,
        /// Which way it ends facing.
        facing: GridFacing,
    },
    /// A group move: the units turn to face one direction and step forward together
    /// (OTHW-MOV-06).
    GroupMove {
        /// The units (orthogonally connected).
        units: Vec<UnitId>,
        /// The direction all face.
        facing: GridFacing,
        /// Squares advanced.
        steps: u8,
    },
    /// A combat action: from `from`, facing `facing`, the unit fights the unit in its front
    /// square. Standing where it is, it is a standing combat (OTHW-CMB-02); after moving or
    /// paid turns it is a charge (OTHW-MOV-08).
    Attack {
        /// The unit.
        unit: UnitId,
        /// The square it fights from.
        from: CellPos,
        /// Its facing when it fights.
        facing: GridFacing,
        /// Add the general's attack dice (OTHW-GEN-04).
        #[serde(default)]
        general_dice: bool,
    },
    /// The mahouts put down a rampaging elephant of the side's own (OTHW-CMB-21).
    Mahouts {
        /// The elephant.
        unit: UnitId,
    },
    /// Sets the general's standing orders (no action, no roll).
    Orders {
        /// The orders.
        orders: Orders,
    },
    /// Ends the phase (OTHW-SEQ-09).
    EndPhase,
}

/// What a leadership test was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TestKind {
    /// A further move.
    FurtherMove,
    /// A retreat test.
    Retreat,
    /// A follow-up.
    FollowUp,
    /// Ending a pursuit.
    Pursuit,
    /// The Phalanx cancel.
    Phalanx,
}

impl TestKind {
    fn words(self) -> &'static str {
        match self {
            TestKind::FurtherMove => "further move",
            TestKind::Retreat => "retreat",
            TestKind::FollowUp => "follow-up",
            TestKind::Pursuit => "end of pursuit",
            TestKind::Phalanx => "phalanx cancel",
        }
    }
}

/// An action's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// A unit's first move.
    Move,
    /// A group move.
    GroupMove,
    /// A further move.
    FurtherMove,
    /// A standing combat.
    Combat,
    /// A charge.
    Charge,
    /// The mahouts' self-attack.
    Mahouts,
}

/// Why a unit was placed somewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// A move.
    Move,
    /// A retreat step or turn.
    Retreat,
    /// A follow-up.
    FollowUp,
    /// Flight.
    Flight,
    /// Pursuit.
    Pursuit,
    /// A rampage.
    Rampage,
    /// A turn to face for a combat.
    Face,
}

/// Further rules an event applied besides its main one, as a small set (the event names them
/// in the log and in its JSON as rule IDs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cites(pub u16);

impl Cites {
    /// In step 1 of the phase: rampages, flight, pursuit (OTHW-SEQ-02).
    pub const STEP1: Cites = Cites(1);
    /// Movement points spent (OTHW-STAT-01).
    pub const POINTS: Cites = Cites(1 << 1);
    /// Steps forward into the front square (OTHW-MOV-04).
    pub const FORWARD: Cites = Cites(1 << 2);
    /// Free facing changes (OTHW-MOV-03, TRT-09).
    pub const FREE_TURN: Cites = Cites(1 << 3);
    /// Through friends (OTHW-MOV-05, TRT-10).
    pub const THROUGH: Cites = Cites(1 << 4);
    /// Woods or a ford cut the move to 1 point (OTHW-MOV-11).
    pub const RESTRICTED: Cites = Cites(1 << 5);
    /// Woods or a ford do not cut this unit's move: a skirmisher (OTHW-MOV-11).
    pub const EXEMPT: Cites = Cites(1 << 6);
    /// Woods or a ford do not cut this unit's move: loose order (OTHW-TRT-05, MOV-11).
    pub const LOOSE_ORDER: Cites = Cites(1 << 7);
    /// A skirmisher's break costs no army morale (OTHW-STAT-07).
    pub const SKIRMISHER: Cites = Cites(1 << 8);
    /// A pursuer fights back when attacked (OTHW-FLT-11).
    pub const PURSUER: Cites = Cites(1 << 9);

    /// The rule IDs of each bit, in bit order.
    const IDS: [&'static [&'static str]; 10] = [
        &["OTHW-SEQ-02"],
        &["OTHW-STAT-01"],
        &["OTHW-MOV-04"],
        &["OTHW-MOV-03", "OTHW-TRT-09"],
        &["OTHW-MOV-05", "OTHW-TRT-10"],
        &["OTHW-MOV-11"],
        &["OTHW-MOV-11"],
        &["OTHW-TRT-05", "OTHW-MOV-11"],
        &["OTHW-STAT-07"],
        &["OTHW-FLT-11"],
    ];

    /// No further rules.
    pub const NONE: Cites = Cites(0);

    /// True when it holds every bit of `o`.
    pub fn has(self, o: Cites) -> bool {
        self.0 & o.0 == o.0 && o.0 != 0
    }

    /// With the bits of `o` too.
    pub fn with(self, o: Cites) -> Cites {
        Cites(self.0 | o.0)
    }

    /// The rule IDs, in bit order, each once.
    pub fn ids(self) -> impl Iterator<Item = &'static str> {
        let mut seen: SmallVec<[&'static str; 8]> = SmallVec::new();
        for (i, ids) in Self::IDS.iter().enumerate() {
            if self.0 & (1 << i) != 0 {
                for id in ids.iter() {
                    if !seen.contains(id) {
                        seen.push(id);
                    }
                }
            }
        }
        seen.into_iter()
    }
}

impl Serialize for Cites {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.ids())
    }
}

impl<'de> Deserialize<'de> for Cites {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Cites, D::Error> {
        // Read back as the bits whose rules are all listed.
        let ids: Vec<String> = Vec::deserialize(d)?;
        let mut c = Cites::NONE;
        for (i, want) in Cites::IDS.iter().enumerate() {
            if want.iter().all(|w| ids.iter().any(|x| x == w)) {
                c = c.with(Cites(1 << i));
            }
        }
        Ok(c)
    }
}

/// Which fighter of a combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The unit making the attack.
    Attacker,
    /// The unit attacked.
    Defender,
}

/// One modifier of a combat, with the fighter whose numbers it made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// Whose number.
    pub role: Role,
    /// What applied.
    pub factor: Factor,
    /// How it changed the number.
    pub op: Op,
    /// The value.
    pub value: u8,
}

impl Part {
    /// A fighter's modifier.
    pub fn new(role: Role, m: Modifier) -> Part {
        Part { role, factor: m.factor, op: m.op, value: m.value }
    }

    /// The modifier.
    pub fn modifier(&self) -> Modifier {
        Modifier { factor: self.factor, op: self.op, value: self.value }
    }
}

/// What a general's Risk to General test was taken for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GeneralUse {
    /// His attack dice (OTHW-GEN-04).
    Attack,
    /// A reroll of his unit's leadership test (OTHW-GEN-03).
    Reroll,
    /// His rally dice (OTHW-GEN-05).
    Rally,
}

impl GeneralUse {
    fn rule(self) -> &'static str {
        match self {
            GeneralUse::Attack => "OTHW-GEN-04",
            GeneralUse::Reroll => "OTHW-GEN-03",
            GeneralUse::Rally => "OTHW-GEN-05",
        }
    }

    fn words(self) -> &'static str {
        match self {
            GeneralUse::Attack => "for his attack dice",
            GeneralUse::Reroll => "for his reroll",
            GeneralUse::Rally => "for his rally",
        }
    }
}

/// What an army-morale point was lost for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "cause", content = "unit")]
pub enum MoraleCause {
    /// A non-skirmisher broke in combat (OTHW-VIC-03).
    Broke(UnitId),
    /// A non-skirmisher pushed off the board by a retreat (OTHW-VIC-03, R-40).
    PushedOff(UnitId),
    /// A rampaging elephant destroyed (OTHW-VIC-03).
    Destroyed(UnitId),
    /// A fugitive slaughtered (OTHW-VIC-04).
    Slaughtered(UnitId),
    /// The general lost (OTHW-VIC-05).
    General,
}

/// One of a side's generals at the start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetupGeneral {
    /// His side.
    pub side: Side,
    /// His name.
    pub name: Arc<str>,
    /// The unit he is with.
    pub unit: UnitId,
    /// Its name.
    pub unit_name: Arc<str>,
}

/// A change to the state, with the dice that caused it and the rule it applied.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// Who goes first, and each army's starting morale and how it was made.
    Setup {
        /// The first player.
        first: Side,
        /// The roll-off dice (red, blue), when rolled.
        rolls: Vec<Roll>,
        /// Starting army morale (red, blue).
        am: [u8; 2],
        /// Non-skirmisher units of each army (OTHW-VIC-01, STAT-07).
        non_skirmishers: [u8; 2],
        /// The divisor and the base of the starting formula: ⌈N / divisor⌉ + base.
        formula: [u8; 2],
        /// Each army's general's bonus (OTHW-R-36).
        bonus: [u8; 2],
        /// The generals and the units they are with (OTHW-GEN-01).
        generals: Vec<SetupGeneral>,
    },
    /// A phase begins.
    PhaseBegan {
        /// The turn.
        turn: u16,
        /// The phasing side.
        side: Side,
        /// The phase number.
        phase_no: u32,
    },
    /// An action is named.
    Action {
        /// The side.
        side: Side,
        /// The units (most often one: kept inline, without an allocation, up to sixteen).
        units: SmallVec<[UnitId; 16]>,
        /// Their names (one kept inline).
        names: SmallVec<[Arc<str>; 1]>,
        /// The kind.
        kind: ActionKind,
        /// The rule.
        rule: RuleId,
        /// The general's unit takes part: no phase-end roll (OTHW-SEQ-05, GEN-02).
        exempt: bool,
    },
    /// The phase-end roll.
    PhaseEndRoll {
        /// The die.
        roll: Roll,
        /// True when it ends the phase after the action.
        ends: bool,
        /// The face (or less) that ends it.
        ends_on: u8,
    },
    /// The phase is over but for the general's unit.
    PhaseOver {
        /// The side.
        side: Side,
        /// Why (a fixed phrase, or one made for the occasion).
        why: Cow<'static, str>,
        /// The rule.
        rule: RuleId,
    },
    /// The phase ended.
    PhaseEnded {
        /// The side.
        side: Side,
        /// Why (a fixed phrase, or one made for the occasion).
        why: Cow<'static, str>,
        /// The rule.
        rule: RuleId,
    },
    /// A leadership test.
    Test {
        /// The unit.
        unit: UnitId,
        /// Its name.
        name: Arc<str>,
        /// What for.
        kind: TestKind,
        /// The die.
        roll: Roll,
        /// The score needed.
        need: u8,
        /// Passed.
        passed: bool,
        /// A general's reroll.
        reroll: bool,
    },
    /// A Risk to General test.
    Risk {
        /// The side.
        side: Side,
        /// What the test was taken for.
        for_use: GeneralUse,
        /// The die.
        roll: Roll,
        /// The face (or less) that calls for a Fate roll.
        fate_on: u8,
        /// A Fate roll follows.
        fate: bool,
        /// The failure was ignored (Fortune Favours the Bold).
        ignored: bool,
    },
    /// A Fate roll.
    Fate {
        /// The side.
        side: Side,
        /// The die.
        roll: Roll,
        /// The general's modifier.
        modifier: i8,
        /// The die plus the modifier.
        total: i8,
        /// The totals of the Fate table's row that applied (lowest, highest; a lowest of
        /// `i8::MIN` for the first row, a highest of `i8::MAX` for the last).
        band: [i8; 2],
        /// The result.
        result: FateResult,
        /// The phase number he is away through (for a missed turn).
        absent_through: u32,
    },
    /// A general is lost.
    GeneralLost {
        /// The side.
        side: Side,
        /// Why (a fixed phrase, or one made for the occasion).
        why: Cow<'static, str>,
        /// The rule.
        rule: RuleId,
    },
    /// A unit placed: moved, turned, retreated, fled, pursued or rampaged.
    Placed {
        /// The unit.
        unit: UnitId,
        /// Its name.
        name: Arc<str>,
        /// From.
        from: CellPos,
        /// To.
        to: CellPos,
        /// Facing after.
        facing: GridFacing,
        /// Why.
        how: Placement,
        /// The rule.
        rule: RuleId,
        /// Further rules the placement applied.
        also: Cites,
    },
    /// A round of combat's dice, and how each side's dice and score were made.
    Combat {
        /// The attacker.
        attacker: UnitId,
        /// Its name.
        attacker_name: Arc<str>,
        /// The defender.
        defender: UnitId,
        /// Its name.
        defender_name: Arc<str>,
        /// Where the attacker stands, seen from the defender (OTHW-MOV-01).
        aspect: Aspect,
        /// The attacker's dice.
        attacker_rolls: Vec<Roll>,
        /// The score it needs.
        attacker_need: u8,
        /// The defender's dice (empty when it cannot strike back).
        defender_rolls: Vec<Roll>,
        /// The score it needs.
        defender_need: u8,
        /// How the numbers were made, step by step: the attacker's, then (when it strikes
        /// back) the defender's. Folding a fighter's parts of one term gives its number.
        parts: Vec<Part>,
        /// Further rules the round applied.
        also: Cites,
    },
    /// An Archers' reroll of a missed die.
    Reroll {
        /// The unit.
        unit: UnitId,
        /// Its name.
        name: Arc<str>,
        /// The die.
        roll: Roll,
        /// The score it needed.
        need: u8,
        /// It hit.
        hit: bool,
    },
    /// Hits cancelled (Phalanx, rally).
    Cancelled {
        /// The unit.
        unit: UnitId,
        /// Its name.
        name: Arc<str>,
        /// The dice rolled (the rally dice, or the Phalanx tests and reroll).
        rolls: Vec<Roll>,
        /// The score each die needed (the rally score, or the unit's L).
        need: u8,
        /// Hits before.
        hits: u8,
        /// Hits cancelled.
        cancelled: u8,
        /// The rule.
        rule: RuleId,
    },
    /// The mahouts' own attack on their rampaging elephant (OTHW-CMB-21).
    Mahouts {
        /// The elephant.
        unit: UnitId,
        /// Its name.
        name: Arc<str>,
        /// Its own attack dice.
        rolls: Vec<Roll>,
        /// Its own Defence, the score needed.
        need: u8,
        /// Hits.
        hits: u8,
    },
    /// A unit's strength changes.
    Strength {
        /// The unit.
        unit: UnitId,
        /// Its name.
        name: Arc<str>,
        /// Before.
        from: u8,
        /// After.
        to: u8,
        /// Why (a fixed phrase, or one made for the occasion).
        why: Cow<'static, str>,
        /// The rule.
        rule: RuleId,
    },
    /// A round's result.
    Result {
        /// Hits the attacker suffered.
        attacker_hits: u8,
        /// Hits the defender suffered.
        defender_hits: u8,
        /// The winner, if any.
        winner: Option<UnitId>,
        /// The loser, if any.
        loser: Option<UnitId>,
        /// In words.
        text: String,
    },
    /// A unit's standing changes.
    Status {
        /// The unit.
        unit: UnitId,
        /// Its name.
        name: Arc<str>,
        /// The new standing.
        status: Status,
        /// How it left the board, when gone.
        gone: Option<GoneHow>,
        /// Why (a fixed phrase, or one made for the occasion).
        why: Cow<'static, str>,
        /// The rule.
        rule: RuleId,
        /// Further rules it applied.
        also: Cites,
    },
    /// A unit starts or stops pursuing.
    Pursuit {
        /// The pursuer.
        unit: UnitId,
        /// Its name.
        name: Arc<str>,
        /// The target, or none when pursuit ends.
        target: Option<UnitId>,
        /// The target's name.
        #[serde(default)]
        target_name: Option<Arc<str>>,
        /// The rule.
        rule: RuleId,
    },
    /// The rampage table.
    Rampage {
        /// The elephant.
        unit: UnitId,
        /// Its name.
        name: Arc<str>,
        /// The die.
        roll: Roll,
        /// The table rolled on, by face (the first roll's, or the later rolls').
        table: [RampageTurn; 6],
        /// The first roll, after a lost round (else a later roll, in step 1).
        first: bool,
        /// The direction.
        turn: RampageTurn,
    },
    /// Army morale falls one point.
    Morale {
        /// The side.
        side: Side,
        /// Before.
        from: u8,
        /// After.
        to: u8,
        /// What the point was lost for.
        cause: MoraleCause,
        /// Why (a fixed phrase, or one made for the occasion).
        why: Cow<'static, str>,
        /// The rule.
        rule: RuleId,
    },
    /// A unit's flags after an action that ends its activity (a pursuit ended).
    Flags {
        /// The unit.
        unit: UnitId,
        /// Its name.
        #[serde(default)]
        name: Option<Arc<str>>,
        /// The flags.
        flags: u8,
    },
    /// The general's standing orders change.
    Orders {
        /// The side.
        side: Side,
        /// The orders.
        orders: Orders,
    },
    /// The battle is over.
    GameOver {
        /// The outcome.
        outcome: Outcome,
        /// The rule.
        rule: RuleId,
    },
}

/// A cell's name: column letter and row number from 1 (`A1` is the south-west corner).
pub fn cell_name(p: CellPos) -> String {
    let mut col = String::new();
    let mut c = p.col.max(0) as u32;
    loop {
        col.insert(0, (b'A' + (c % 26) as u8) as char);
        if c < 26 {
            break;
        }
        c = c / 26 - 1;
    }
    format!("{col}{}", p.row + 1)
}

/// A facing in words.
pub fn facing_name(f: GridFacing) -> &'static str {
    match f {
        GridFacing::North => "north",
        GridFacing::East => "east",
        GridFacing::South => "south",
        GridFacing::West => "west",
    }
}

fn dice_text(rolls: &[Roll]) -> String {
    let v: Vec<String> = rolls.iter().map(|r| r.value.to_string()).collect();
    format!("[{}]", v.join(" "))
}

/// "1 hit" or "N hits".
fn hits_words(n: usize) -> String {
    if n == 1 { "1 hit".to_string() } else { format!("{n} hits") }
}

/// The rampage table in words: "1 left, 2 right, 3 rear, 4-6 none".
fn rampage_table(table: &[RampageTurn; 6]) -> String {
    let word = |t: RampageTurn| match t {
        RampageTurn::None => "none",
        RampageTurn::Left => "left",
        RampageTurn::Right => "right",
        RampageTurn::Rear => "rear",
        RampageTurn::Ahead => "ahead",
    };
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < 6 {
        let mut j = i;
        while j + 1 < 6 && table[j + 1] == table[i] {
            j += 1;
        }
        let faces = if i == j { format!("{}", i + 1) } else { format!("{}-{}", i + 1, j + 1) };
        out.push(format!("{faces} {}", word(table[i])));
        i = j + 1;
    }
    out.join(", ")
}

/// One fighter's number of one term, as its total and its parts: "3 dice (A 2 [OTHW-STAT-02];
/// +1 downhill [OTHW-CMB-08])".
fn term_text(parts: &[Part], role: Role, term: Term) -> String {
    let mine: Vec<Modifier> = parts
        .iter()
        .filter(|p| p.role == role && p.factor.term() == term)
        .map(|p| p.modifier())
        .collect();
    let list: Vec<String> = mine.iter().map(|m| m.describe()).collect();
    let n = crate::combat::total(mine.iter().copied(), term);
    match term {
        Term::Dice => format!("{n} {} ({})", if n == 1 { "die" } else { "dice" }, list.join("; ")),
        Term::Need => format!("needing {n}+ ({})", list.join("; ")),
    }
}

impl Event {
    /// The rules of a combat round: the round's own, then each modifier's, each once.
    fn combat_rules(parts: &[Part], also: Cites) -> Vec<RuleId> {
        let mut out: Vec<RuleId> = Vec::with_capacity(16);
        let mut add = |id: &'static str| {
            if !out.iter().any(|r| r.as_str() == id) {
                out.push(RuleId::new(id));
            }
        };
        for id in ["OTHW-CMB-01", "OTHW-CMB-03", "OTHW-MOV-01", "OTHW-CMB-04", "OTHW-CMB-05"] {
            add(id);
        }
        for p in parts {
            add(p.factor.rule());
            if let Some(a) = p.factor.also() {
                add(a);
            }
        }
        add("OTHW-CMB-10");
        for id in also.ids() {
            add(id);
        }
        out
    }
}

impl Narrate for Event {
    fn rules(&self) -> Vec<RuleId> {
        let ids = |list: &[&'static str]| list.iter().map(|s| RuleId::new(s)).collect();
        let with = |main: &RuleId, also: &Cites| {
            let mut v = vec![main.clone()];
            v.extend(also.ids().filter(|id| *id != main.as_str()).map(RuleId::new));
            v
        };
        match self {
            Event::Setup { generals, .. } => {
                let mut v: Vec<RuleId> = ids(&["OTHW-VIC-01", "OTHW-STAT-07"]);
                if !generals.is_empty() {
                    v.push(RuleId::new("OTHW-GEN-01"));
                }
                v
            }
            Event::PhaseBegan { .. } => ids(&["OTHW-SEQ-01"]),
            Event::Action { rule, kind, exempt, .. } => {
                let mut v = vec![rule.clone(), RuleId::new("OTHW-SEQ-03")];
                match kind {
                    ActionKind::GroupMove => v.push(RuleId::new("OTHW-SEQ-08")),
                    ActionKind::Mahouts => v.push(RuleId::new("OTHW-SEQ-10")),
                    ActionKind::Combat | ActionKind::Charge => {
                        v.extend(ids(&["OTHW-CMB-22", "OTHW-MOV-10"]));
                    }
                    _ => {}
                }
                if *exempt {
                    v.extend(ids(&["OTHW-SEQ-05", "OTHW-GEN-02"]));
                }
                v
            }
            Event::PhaseOver { rule, .. }
            | Event::PhaseEnded { rule, .. }
            | Event::GeneralLost { rule, .. }
            | Event::Pursuit { rule, .. }
            | Event::Morale { rule, .. }
            | Event::GameOver { rule, .. } => vec![rule.clone()],
            Event::Cancelled { rule, .. } => vec![rule.clone(), RuleId::new("OTHW-CMB-10")],
            Event::Placed { rule, also, .. } | Event::Status { rule, also, .. } => with(rule, also),
            Event::Strength { rule, .. } => {
                let mut v = vec![rule.clone()];
                if rule.as_str() == "OTHW-CMB-09" {
                    v.push(RuleId::new("OTHW-STAT-04"));
                }
                v
            }
            Event::PhaseEndRoll { roll, .. } | Event::Reroll { roll, .. } => {
                vec![roll.rule.clone()]
            }
            Event::Test { roll, .. } => {
                let mut v = vec![roll.rule.clone()];
                v.extend(ids(&["OTHW-STAT-05", "OTHW-STAT-06"]));
                v
            }
            Event::Risk { roll, for_use, .. } => {
                let mut v = vec![RuleId::new("OTHW-GEN-06"), RuleId::new(for_use.rule())];
                if roll.rule.as_str() != "OTHW-GEN-06" {
                    v.push(roll.rule.clone());
                }
                v
            }
            Event::Fate { roll, .. } => {
                let mut v = vec![RuleId::new("OTHW-GEN-07")];
                if roll.rule.as_str() != "OTHW-GEN-07" {
                    v.push(roll.rule.clone());
                }
                v
            }
            Event::Rampage { roll, first, .. } => {
                let mut v = vec![roll.rule.clone(), RuleId::new("OTHW-TRT-13")];
                if !*first {
                    v.push(RuleId::new("OTHW-SEQ-02"));
                }
                v
            }
            Event::Mahouts { .. } => ids(&["OTHW-CMB-21"]),
            Event::Combat { parts, also, .. } => Event::combat_rules(parts, *also),
            Event::Result { .. } => ids(&["OTHW-CMB-11"]),
            Event::Flags { .. } => ids(&["OTHW-FLT-09"]),
            Event::Orders { .. } => ids(&["OTHW-GEN-11"]),
        }
    }

    fn describe(&self) -> String {
        match self {
            Event::Setup { first, rolls, am, non_skirmishers, formula, bonus, generals } => {
                let roll = if rolls.is_empty() {
                    String::new()
                } else {
                    format!(" (roll-off {})", dice_text(rolls))
                };
                let morale = |i: usize| {
                    let g = if bonus[i] > 0 {
                        format!(" + {} general", bonus[i])
                    } else {
                        String::new()
                    };
                    format!(
                        "{} = ⌈{} non-skirmishers / {}⌉ + {}{g}",
                        am[i], non_skirmishers[i], formula[0], formula[1]
                    )
                };
                let mut text = format!(
                    "{first} moves first{roll}; army morale red {}, blue {} (skirmishers not counted)",
                    morale(0),
                    morale(1)
                );
                for g in generals {
                    text += &format!("; {}'s general {} is with {}", g.side, g.name, g.unit_name);
                }
                text
            }
            Event::PhaseBegan { turn, side, .. } => format!("turn {turn}: {side}'s phase begins"),
            Event::Action { side, names, kind, exempt, .. } => {
                let what = match kind {
                    ActionKind::Move => "moves",
                    ActionKind::GroupMove => "move as a group",
                    ActionKind::FurtherMove => "makes a further move",
                    ActionKind::Combat => "fights",
                    ActionKind::Charge => "charges",
                    ActionKind::Mahouts => "is put down by its mahouts",
                };
                let who: Vec<&str> = names.iter().map(|n| &**n).collect();
                let general = if *exempt { " (the general's unit: no phase-end roll)" } else { "" };
                format!("{side}: {} {what}{general}", who.join(", "))
            }
            Event::PhaseEndRoll { roll, ends, ends_on } => format!(
                "phase-end roll {} ({} ends the phase){}",
                roll.value,
                if *ends_on <= 1 { "a 1".to_string() } else { format!("1 to {ends_on}") },
                if *ends { ": the phase ends after this action" } else { "" }
            ),
            Event::PhaseOver { side, why, .. } => format!("{side}'s phase is over: {why}"),
            Event::PhaseEnded { side, why, .. } => format!("{side}'s phase ends: {why}"),
            Event::Test { name, kind, roll, need, passed, reroll, .. } => format!(
                "{name} {}tests for {}: {} needing {need}+ (leadership {need}), {}",
                if *reroll { "rerolls (general) the " } else { "" },
                kind.words(),
                roll.value,
                if *passed { "passed" } else { "failed" }
            ),
            Event::Risk { side, for_use, roll, fate_on, fate, ignored } => format!(
                "risk to {side}'s general {}: {} ({} calls for a Fate roll){}",
                for_use.words(),
                roll.value,
                if *fate_on <= 1 { "a 1".to_string() } else { format!("1 to {fate_on}") },
                if *ignored {
                    ", ignored once a game (Fortune Favours the Bold)"
                } else if *fate {
                    ", a Fate roll follows"
                } else {
                    ", safe"
                }
            ),
            Event::Fate { side, roll, modifier, total, band, result, .. } => {
                let sum = match modifier {
                    0 => format!("{}", roll.value),
                    m => format!("{} {:+} = {total}", roll.value, m),
                };
                let range = match (band[0], band[1]) {
                    (i8::MIN, hi) => format!("{hi} or less"),
                    (lo, i8::MAX) => format!("{lo} or more"),
                    (lo, hi) if lo == hi => format!("{lo}"),
                    (lo, hi) => format!("{lo} to {hi}"),
                };
                format!(
                    "fate of {side}'s general: {sum}; {range}: {}",
                    match result {
                        FateResult::Removed => "removed from the battle",
                        FateResult::MissesTurn => "misses his side's next turn",
                        FateResult::NearMiss => "a near miss",
                    }
                )
            }
            Event::GeneralLost { side, why, .. } => format!("{side}'s general is lost: {why}"),
            Event::Placed { name, from, to, facing, how, also, .. } => {
                let verb = match how {
                    Placement::Move => "moves",
                    Placement::Retreat => "falls back",
                    Placement::FollowUp => "follows up",
                    Placement::Flight => "flees",
                    Placement::Pursuit => "pursues",
                    Placement::Rampage => "rampages",
                    Placement::Face => "turns",
                };
                let mut notes: Vec<&str> = Vec::new();
                if also.has(Cites::THROUGH) {
                    notes.push("through friends");
                }
                if also.has(Cites::RESTRICTED) {
                    notes.push("1 point in woods or a ford");
                }
                if also.has(Cites::LOOSE_ORDER) {
                    notes.push("loose order: woods and fords do not slow it");
                } else if also.has(Cites::EXEMPT) {
                    notes.push("a skirmisher: woods and fords do not slow it");
                }
                if also.has(Cites::FREE_TURN) {
                    notes.push("turns for free");
                }
                let notes = if notes.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", notes.join("; "))
                };
                if from == to {
                    format!(
                        "{name} {verb}: faces {} at {}{notes}",
                        facing_name(*facing),
                        cell_name(*to)
                    )
                } else {
                    format!(
                        "{name} {verb} from {} to {}, facing {}{notes}",
                        cell_name(*from),
                        cell_name(*to),
                        facing_name(*facing)
                    )
                }
            }
            Event::Combat {
                attacker_name,
                defender_name,
                aspect,
                attacker_rolls,
                attacker_need,
                defender_rolls,
                defender_need,
                parts,
                also,
                ..
            } => {
                let hits = |rs: &[Roll], need: u8| rs.iter().filter(|r| r.value >= need).count();
                let from = match aspect {
                    Aspect::Front => "from its front",
                    Aspect::Flank => "in the flank",
                    Aspect::Rear => "in the rear",
                };
                let back = if defender_rolls.is_empty() {
                    format!("{defender_name} cannot strike back (attacked {from})")
                } else {
                    format!(
                        "{defender_name}{} strikes back with {} {}: {}: {}",
                        if also.has(Cites::PURSUER) { ", a pursuer," } else { "" },
                        term_text(parts, Role::Defender, Term::Dice),
                        term_text(parts, Role::Defender, Term::Need),
                        dice_text(defender_rolls),
                        hits_words(hits(defender_rolls, *defender_need))
                    )
                };
                format!(
                    "{attacker_name} attacks {defender_name} {from} with {} {}: {}: {}; {back}",
                    term_text(parts, Role::Attacker, Term::Dice),
                    term_text(parts, Role::Attacker, Term::Need),
                    dice_text(attacker_rolls),
                    hits_words(hits(attacker_rolls, *attacker_need)),
                )
            }
            Event::Reroll { name, roll, need, hit, .. } => format!(
                "{name} rerolls a missed die (archers): {} needing {need}+, {}",
                roll.value,
                if *hit { "a hit" } else { "a miss" }
            ),
            Event::Cancelled { name, rolls, need, hits, cancelled, rule, .. } => {
                if rule.as_str() == "OTHW-GEN-05" {
                    format!(
                        "{name}'s general rallies: {} (each {need}+ cancels a hit): {cancelled} of {} cancelled",
                        dice_text(rolls),
                        hits_words(usize::from(*hits))
                    )
                } else {
                    format!(
                        "{name}'s phalanx test passed ({} needing {need}+): {cancelled} of {} cancelled",
                        dice_text(rolls),
                        hits_words(usize::from(*hits))
                    )
                }
            }
            Event::Mahouts { name, rolls, need, hits, .. } => format!(
                "{name}'s mahouts strike it with its own attack dice: {} needing {need}+ (its own Defence): {}",
                dice_text(rolls),
                hits_words(usize::from(*hits))
            ),
            Event::Strength { name, from, to, why, .. } => {
                format!("{name}: strength {from} → {to} ({why})")
            }
            Event::Result { text, .. } => text.clone(),
            Event::Status { name, status, why, .. } => {
                let s = match status {
                    Status::Ready => "is ready",
                    Status::Fleeing => "breaks and flees",
                    Status::Rampaging => "rampages",
                    Status::Gone => "is gone",
                };
                format!("{name} {s} ({why})")
            }
            Event::Pursuit { name, target_name, .. } => match target_name {
                Some(t) => format!("{name} pursues {t}"),
                None => format!("{name} halts its pursuit"),
            },
            Event::Rampage { name, roll, table, first, turn, .. } => format!(
                "{name} {} roll {} ({}): {}",
                if *first { "rampage" } else { "rampaging" },
                roll.value,
                rampage_table(table),
                match turn {
                    RampageTurn::None => "no rampage",
                    RampageTurn::Left => "turns left",
                    RampageTurn::Right => "turns right",
                    RampageTurn::Rear => "turns about",
                    RampageTurn::Ahead => "goes straight ahead",
                }
            ),
            Event::Morale { side, from, to, why, .. } => {
                format!("{side}'s army morale {from} → {to} ({why})")
            }
            Event::Flags { unit, name, .. } => match name {
                Some(n) => format!("{n} may not act again this phase"),
                None => format!("unit {unit} may not act again this phase"),
            },
            Event::Orders { side, orders } => format!(
                "{side}'s general's orders: reroll {}, rally {}, follow up {}, phalanx {}",
                orders.reroll, orders.rally, orders.follow_up, orders.phalanx
            ),
            Event::GameOver { outcome, .. } => match outcome.winner {
                Some(w) => format!("{w} wins: {}", outcome.reason),
                None => format!("a draw: {}", outcome.reason),
            },
        }
    }
}

/// Applies one event to the state. Events are facts: this never fails.
pub fn apply(st: &mut State, e: &Event) {
    // It runs twice for every event (on the engine's copy, then on the game's state): the small
    // changes are made here, the larger ones in functions of their own, which keeps this one
    // light for the rest.
    match e {
        Event::Setup { .. }
        | Event::PhaseEndRoll { .. }
        | Event::Test { .. }
        | Event::Combat { .. }
        | Event::Reroll { .. }
        | Event::Cancelled { .. }
        | Event::Mahouts { .. }
        | Event::Result { .. }
        | Event::Rampage { .. }
        | Event::PhaseEnded { .. } => {}
        Event::PhaseBegan { turn, side, phase_no } => begin_phase(st, *turn, *side, *phase_no),
        Event::Action { units, kind, .. } => {
            let f = match kind {
                ActionKind::Move => flags::MOVED,
                ActionKind::GroupMove => flags::MOVED | flags::GROUP_MOVED,
                ActionKind::FurtherMove => flags::MOVED | flags::FURTHER,
                ActionKind::Combat | ActionKind::Charge => flags::MOVED | flags::FOUGHT,
                ActionKind::Mahouts => flags::FOUGHT,
            };
            for &u in units {
                if let Some(x) = st.units.get_mut(u as usize) {
                    x.flags |= f;
                }
            }
        }
        Event::PhaseOver { .. } => st.phase_over = true,
        Event::Risk { side, ignored, .. } => {
            if *ignored && let Some(g) = st.sides[side.index()].general.as_mut() {
                g.ignore_attack_risk = g.ignore_attack_risk.saturating_sub(1);
            }
        }
        Event::Fate { side, result, absent_through, .. } => {
            if let Some(g) = st.sides[side.index()].general.as_mut() {
                match result {
                    FateResult::Removed => g.lost = true,
                    FateResult::MissesTurn => g.absent_through = *absent_through,
                    FateResult::NearMiss => {}
                }
            }
        }
        Event::GeneralLost { side, .. } => {
            if let Some(g) = st.sides[side.index()].general.as_mut() {
                g.lost = true;
            }
        }
        Event::Placed { unit, to, facing, .. } => place(st, *unit, *to, *facing),
        Event::Strength { unit, to, .. } => {
            if let Some(u) = st.units.get_mut(*unit as usize) {
                u.sp = *to;
            }
        }
        Event::Status { unit, status, gone, .. } => set_status(st, *unit, *status, *gone),
        Event::Pursuit { unit, target, .. } => {
            if let Some(u) = st.units.get_mut(*unit as usize) {
                u.pursuing = *target;
            }
        }
        Event::Morale { side, to, .. } => st.sides[side.index()].am = *to,
        Event::Flags { unit, flags, .. } => {
            if let Some(u) = st.units.get_mut(*unit as usize) {
                u.flags = *flags;
            }
        }
        Event::Orders { side, orders } => st.sides[side.index()].orders = *orders,
        Event::GameOver { outcome, .. } => end(st, outcome),
    }
}

/// [`Event::PhaseBegan`]: the new phase, and every unit's per-phase flags cleared.
#[inline(never)]
fn begin_phase(st: &mut State, turn: u16, side: Side, phase_no: u32) {
    st.turn = turn;
    st.phasing = side;
    st.phase_no = phase_no;
    st.phase_over = false;
    for u in &mut st.units {
        u.flags = 0;
    }
}

/// [`Event::Placed`]: the unit leaves its square (when it holds it) for `to`, facing `facing`.
#[inline(never)]
fn place(st: &mut State, unit: UnitId, to: CellPos, facing: GridFacing) {
    let Some(u) = st.units.get_mut(unit as usize) else { return };
    leave(st.board.grid.index(u.pos), &mut st.occ, unit);
    if let Some(c) = st.board.grid.index(to).and_then(|i| st.occ.get_mut(i)) {
        *c = unit;
    }
    u.pos = to;
    u.facing = facing;
}

/// [`Event::Status`]: the unit's new standing; gone, it leaves its square; no longer ready, it
/// stops pursuing.
#[inline(never)]
fn set_status(st: &mut State, unit: UnitId, status: Status, gone: Option<GoneHow>) {
    let Some(u) = st.units.get_mut(unit as usize) else { return };
    if status == Status::Gone {
        leave(st.board.grid.index(u.pos), &mut st.occ, unit);
    }
    u.status = status;
    u.gone = gone;
    if status != Status::Ready {
        u.pursuing = None;
    }
}

/// Empties the cell at index `at` (when on the board) if `unit` holds it.
fn leave(at: Option<usize>, occ: &mut [u8], unit: UnitId) {
    if let Some(c) = at.and_then(|i| occ.get_mut(i))
        && *c == unit
    {
        *c = EMPTY;
    }
}

/// [`Event::GameOver`]: the outcome.
#[inline(never)]
fn end(st: &mut State, outcome: &Outcome) {
    st.outcome = Some(outcome.clone());
}
