//! The state of a Free Move game, the commands the players give and the events they cause.
//!
//! Time inside a timed move is game time in milliseconds from the window's start, carried by
//! every timed command (`at_ms`): the simulated clock sets it to the moment the side's hands
//! are free, the server to when the command arrived. No rule reads the wall clock.

use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabletop::dice::Roll;
use tabletop::geometry::{Point, Rect};
use tabletop::rules::{Narrate, RuleId, Side};
use tabletop::terrain::Table;

/// A stand's index in [`State::stands`].
pub type StandId = usize;

/// A stand's morale after a defeat (FMT-MOR-03..10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum Morale {
    /// Fit to fight.
    Steady,
    /// Driven back: it may not move until it has rolled, which it does at the start of game
    /// move `roll_from` (FMT-MOR-04, FMT-MOR-06). It may not shoot (FMT-FIRE-12).
    Broken {
        /// The game move whose Ready phase rolls for it.
        roll_from: u32,
    },
    /// Rolled 2 or 3: it may turn and fight or fall back and may shoot, but may not advance;
    /// it rolls again at the start of game move `roll_from` (FMT-MOR-08, FMT-R-31).
    Wavering {
        /// The game move whose Ready phase rolls for it.
        roll_from: u32,
    },
}

/// One tray of figures: the only element that moves and fights (FMT-ROS-01).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stand {
    /// Its index.
    pub id: StandId,
    /// The number on its flag and its roster line.
    pub number: u32,
    /// Its name on the roster.
    pub name: String,
    /// Its side.
    pub side: Side,
    /// Its type: an index into the data's troops.
    pub troop: usize,
    /// Light infantry armed with bows, shooting as archers.
    pub bow: bool,
    /// Where it stands.
    pub rect: Rect,
    /// Kills recorded against it (FMT-ROS-03).
    pub kills: u32,
    /// Still on the table.
    pub on_table: bool,
    /// Its morale.
    pub morale: Morale,
    /// Frozen in melee contact (FMT-TIME-11).
    pub frozen: bool,
    /// Flagged for a Fire and Charge (FMT-FC-02).
    pub fire_and_charge: bool,
    /// The square it belongs to.
    pub square: Option<u32>,
    /// It moved into contact with an enemy during this timed move (shock, FMT-R-20).
    pub charged: bool,
    /// Its last step into contact began lower than the stand it met (FMT-SHOCK-04).
    pub uphill: bool,
    /// The first enemy stand that moved into contact with it this timed move (FMT-R-21).
    pub attacked_by: Option<StandId>,
    /// Every kill recorded against it: (game move, kills, rule).
    pub history: Vec<(u32, u32, RuleId)>,
}

/// A square of infantry stands (FMT-SQ-01..09).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Square {
    /// Its ID.
    pub id: u32,
    /// Its side.
    pub side: Side,
    /// Its stands.
    pub stands: Vec<StandId>,
}

/// A melee that goes on into a second round (FMT-MELEE-08).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Melee {
    /// Its ID.
    pub id: u32,
    /// The stands still in it, both sides.
    pub members: Vec<StandId>,
    /// The winner of round 1.
    pub winner: Side,
    /// The game move whose combat phase fights round 2.
    pub round_two: u32,
}

/// What one side has ordered its hands to do: a step under way (FMT-R-01).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Flight {
    /// The step.
    pub order: Order,
    /// When it was begun.
    pub issued_ms: u64,
    /// When it lands.
    pub lands_ms: u64,
}

/// A measured step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Order {
    /// One stand along a straight line, with a free turn at the end (FMT-R-05).
    Step {
        /// The stand.
        stand: StandId,
        /// Where its centre ends.
        to: Point,
        /// Its facing at the end, as a compass bearing (0 north, 90 east).
        facing: f64,
    },
    /// A column: the head goes to `to` and the file follows behind it (FMT-R-34).
    Column {
        /// Head first.
        stands: Vec<StandId>,
        /// Where the head's centre ends.
        to: Point,
    },
    /// A square moves as one body (FMT-SQ-05).
    Square {
        /// The square.
        square: u32,
        /// How far it moves.
        by: Point,
    },
}

/// One side's hands during the timed move.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Hands {
    /// When the hands are free for the next order.
    pub free_ms: u64,
    /// The side has finished for this timed move.
    pub done: bool,
    /// The step under way.
    pub flight: Option<Flight>,
}

/// The timed move's clock (FMT-R-01..06).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Clock {
    /// The window's length.
    pub length_ms: u64,
    /// The latest time a command has carried.
    pub now_ms: u64,
    /// Red's and blue's hands.
    pub hands: [Hands; 2],
    /// The side that won the window's initiative: it goes first at ties in the first handling
    /// time of the window, the other side in the second, and so on in turn (FMT-R-06).
    pub tie: Side,
    /// The handling time, the length of one turn of the ties.
    #[serde(default)]
    pub slot_ms: u64,
}

/// A stand's place in a rearrangement, a bonus move or a step command.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Placement {
    /// The stand.
    pub stand: StandId,
    /// Where its centre goes.
    pub to: Point,
    /// Its facing there, as a compass bearing.
    pub facing: f64,
}

/// What a side declares before the timed move (FMT-R-30 step 2).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReadyOrders {
    /// Squares that stay squares through the move (FMT-SQ-08); the others dissolve.
    #[serde(default)]
    pub keep: Vec<u32>,
    /// New squares to form, each a list of infantry stands.
    #[serde(default)]
    pub form: Vec<Vec<StandId>>,
    /// Heavy infantry flagged for a Fire and Charge (FMT-FC-02).
    #[serde(default)]
    pub fire_and_charge: Vec<StandId>,
}

/// A bonus move owed to a melee's winner (FMT-MELEE-14).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BonusDue {
    /// The winner.
    pub side: Side,
    /// Its stands that may move.
    pub stands: Vec<StandId>,
    /// How many bonus melees led here.
    pub chain: u32,
}

/// Where the game move stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "phase")]
pub enum Phase {
    /// Both sides place their stands near their own edges, in secret and at once (not in the
    /// source; a scenario asks for it with `deployment = "hidden"`).
    Deploy {
        /// Each side's placements.
        orders: [Option<Vec<Placement>>; 2],
    },
    /// Both sides declare squares and Fire and Charge flags, then say they are ready
    /// (FMT-TIME-01).
    Ready {
        /// What each side has declared (red, blue).
        orders: [Option<ReadyOrders>; 2],
    },
    /// The timed move.
    Window {
        /// Its clock.
        clock: Clock,
    },
    /// Both sides tidy up, in secret and at once (FMT-REARR-01..03, FMT-R-33).
    Rearrange {
        /// What each side has submitted.
        orders: [Option<Vec<Placement>>; 2],
    },
    /// Both sides name their targets, in secret and at once (FMT-R-35).
    Fire {
        /// Each side's (shooter, target) pairs.
        orders: [Option<Vec<(StandId, StandId)>>; 2],
    },
    /// Both sides say, in secret and at once, which first-round melees they leave (FMT-R-29).
    PullOut {
        /// The melees that may be left.
        melees: Vec<u32>,
        /// Each side's choice.
        orders: [Option<Vec<u32>>; 2],
        /// Melees already settled this combat phase, whose winners' bonus moves wait for the
        /// pull-outs: (winner, its stands).
        settled: Vec<(Side, Vec<StandId>)>,
    },
    /// Bonus moves, one melee at a time (FMT-R-26).
    Bonus {
        /// The bonus moves still owed, the first now.
        queue: Vec<BonusDue>,
    },
    /// The battle is over.
    Over,
}

/// A side's standing facts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideInfo {
    /// red or blue.
    pub side: Side,
    /// The army's name.
    pub name: String,
    /// Its own table edge: south, north, east or west.
    pub edge: Edge,
    /// Points at the start.
    pub start_points: u32,
    /// Stands at the start.
    pub start_stands: u32,
}

/// A table edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// y = 0.
    South,
    /// y = height.
    North,
    /// x = width.
    East,
    /// x = 0.
    West,
}

/// The whole game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The scenario's name.
    pub scenario: String,
    /// The table.
    pub table: Arc<Table>,
    /// The grid's cell size, in grid mode (FMT-TIME-19).
    pub grid: Option<f64>,
    /// The close-range kill needs a die roll above 1 (FMT-FIRE-11).
    pub close_range_die: bool,
    /// The game move, from 1.
    pub game_move: u32,
    /// The last game move.
    pub game_moves: u32,
    /// Handling time of a step, in ms.
    pub handling_ms: u64,
    /// The primary window, in ms.
    pub primary_ms: u64,
    /// Red, blue.
    pub sides: [SideInfo; 2],
    /// Every stand, in scenario order.
    pub stands: Vec<Stand>,
    /// Squares.
    pub squares: Vec<Square>,
    /// Melees going on into round 2.
    pub melees: Vec<Melee>,
    /// Where the game move stands.
    pub phase: Phase,
    /// "Time" was called in this game move: no combat (FMT-TIME-17).
    pub time_called: bool,
    /// IDs to give the next melee and square.
    pub next_id: u32,
    /// How the battle ended.
    pub outcome: Option<tabletop::Outcome>,
    /// The side that won this game move's initiative roll (FMT-R-06).
    pub initiative: Side,
}

impl Clock {
    /// The side that goes first at a tie at `t`: the initiative's winner in the first, third, …
    /// handling time of the window, the other side in the second, fourth, … (FMT-R-06).
    pub fn first_at(&self, t: u64) -> Side {
        if self.slot_ms == 0 || (t / self.slot_ms).is_multiple_of(2) {
            self.tie
        } else {
            self.tie.other()
        }
    }
}

impl State {
    /// The stands of `side` on the table.
    pub fn stands_of(&self, side: Side) -> impl Iterator<Item = &Stand> {
        self.stands.iter().filter(move |s| s.on_table && s.side == side)
    }

    /// A stand on the table.
    pub fn live(&self, id: StandId) -> Option<&Stand> {
        self.stands.get(id).filter(|s| s.on_table)
    }

    /// The side's facts.
    pub fn side(&self, side: Side) -> &SideInfo {
        &self.sides[side.index()]
    }

    /// The square with this ID.
    pub fn square(&self, id: u32) -> Option<&Square> {
        self.squares.iter().find(|q| q.id == id)
    }

    /// The clock, during a timed move.
    pub fn clock(&self) -> Option<&Clock> {
        match &self.phase {
            Phase::Window { clock } => Some(clock),
            _ => None,
        }
    }
}

/// A command.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Command {
    /// The side's hidden deployment: where its stands go (stands left out stay as placed).
    Deploy {
        /// The placements.
        placements: Vec<Placement>,
    },
    /// Declarations before the timed move, and ready (FMT-TIME-01).
    Ready(ReadyOrders),
    /// One measured step of one stand (FMT-TIME-07).
    Step {
        /// When it is begun, in ms of the window.
        at_ms: u64,
        /// The stand.
        stand: StandId,
        /// Where its centre goes.
        to: Point,
        /// Its facing at the end, a compass bearing; its present facing if left out.
        #[serde(default)]
        facing: Option<f64>,
    },
    /// One measured step of a column (FMT-R-34).
    Column {
        /// When it is begun.
        at_ms: u64,
        /// The file, head first.
        stands: Vec<StandId>,
        /// Where the head's centre goes.
        to: Point,
    },
    /// One measured step of a square (FMT-SQ-05).
    MoveSquare {
        /// When it is begun.
        at_ms: u64,
        /// The square.
        square: u32,
        /// How far it moves.
        by: Point,
    },
    /// The hands rest until a later moment, watching the enemy (FMT-TIME-14).
    Wait {
        /// Now.
        at_ms: u64,
        /// Until when.
        until_ms: u64,
    },
    /// The side moves no more in this timed move.
    Done {
        /// Now.
        at_ms: u64,
    },
    /// Flags a heavy infantry stand for a Fire and Charge; it takes no handling time
    /// (FMT-R-22).
    FireAndCharge {
        /// Now.
        at_ms: u64,
        /// The stand.
        stand: StandId,
    },
    /// "Time!" (FMT-TIME-16).
    CallTime {
        /// Now.
        at_ms: u64,
    },
    /// The clock's tick: every step landing by then lands (the umpire's command, sent by the
    /// server's clock in real time so that each side sees the other's steps as they land).
    Tick {
        /// Now.
        at_ms: u64,
    },
    /// The bell: the window's time is up (the umpire's command, sent by the server's clock).
    Bell {
        /// Now, at or after the window's end.
        at_ms: u64,
    },
    /// The side's rearrangement (FMT-REARR-01).
    Rearrange {
        /// Where its stands go.
        moves: Vec<Placement>,
    },
    /// The side's targets (FMT-R-35).
    Fire {
        /// (shooter, target).
        targets: Vec<(StandId, StandId)>,
    },
    /// The first-round melees the side leaves (FMT-MELEE-22).
    PullOut {
        /// Their IDs.
        melees: Vec<u32>,
    },
    /// The bonus move of the winning stands now owed one (FMT-MELEE-14).
    Bonus {
        /// Where they go; a stand left out stays.
        moves: Vec<Placement>,
    },
}

/// One item of a step's cost: inches times a factor, with the rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostItem {
    /// Inches (or a fixed share of a move for a wall).
    pub inches: f64,
    /// The factor.
    pub factor: f64,
    /// What it is.
    pub what: String,
    /// The rule.
    pub rule: RuleId,
}

/// How a side's melee total was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeleeSide {
    /// The side.
    pub side: Side,
    /// Counted stands: (stand, points, half-points counted, why).
    pub stands: Vec<(StandId, u32, u32, String)>,
    /// Σ points.
    pub points: u32,
    /// Σ half-points.
    pub halves: u32,
    /// The dice rolled (more than one after ties).
    pub rolls: Vec<Roll>,
    /// The last die times the value, in half-points.
    pub product_halves: u32,
}

/// Orders handed in secretly, both sides at once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Secret {
    /// A deployment.
    Deploy {
        /// Where the stands go.
        placements: Vec<Placement>,
    },
    /// A rearrangement.
    Rearrange {
        /// Where the stands go.
        moves: Vec<Placement>,
    },
    /// Targets.
    Fire {
        /// (shooter, target).
        targets: Vec<(StandId, StandId)>,
    },
    /// Melees left.
    PullOut {
        /// Their IDs.
        melees: Vec<u32>,
    },
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Event {
    /// A game move begins.
    MoveBegun {
        /// Its number.
        game_move: u32,
    },
    /// A recovery roll (FMT-MOR-06..09).
    Recovery {
        /// The stand.
        stand: StandId,
        /// Its name, for the log.
        who: String,
        /// The roll.
        roll: Roll,
        /// Its morale after.
        morale: Morale,
        /// Rules.
        rules: Vec<RuleId>,
    },
    /// A side has declared and is ready.
    Ready {
        /// The side.
        side: Side,
        /// What it declared.
        orders: ReadyOrders,
    },
    /// A square is formed.
    SquareFormed {
        /// The square.
        square: Square,
        /// Where its stands stand.
        rects: Vec<Rect>,
    },
    /// A square breaks or dissolves.
    SquareGone {
        /// Its ID.
        square: u32,
        /// Why.
        why: String,
        /// Rule.
        rule: RuleId,
    },
    /// A stand is flagged for Fire and Charge.
    Flagged {
        /// The stand.
        stand: StandId,
        /// Its name, for the log.
        who: String,
        /// When.
        at_ms: u64,
    },
    /// The timed move begins (FMT-TIME-01..05).
    WindowOpened {
        /// Its length.
        length_ms: u64,
        /// How it was worked out.
        basis: String,
        /// Who wins the first tie.
        tie: Side,
        /// The die rolls for it.
        rolls: Vec<Roll>,
        /// Rules.
        rules: Vec<RuleId>,
    },
    /// A side begins a step (seen only by that side until it lands).
    StepBegun {
        /// The side.
        side: Side,
        /// The step.
        flight: Flight,
    },
    /// A side's hands rest.
    Waited {
        /// The side.
        side: Side,
        /// From.
        at_ms: u64,
        /// Until.
        until_ms: u64,
    },
    /// A side is done for this timed move.
    Finished {
        /// The side.
        side: Side,
        /// When.
        at_ms: u64,
    },
    /// A stand's step lands.
    Stepped {
        /// The stand.
        stand: StandId,
        /// Its name, for the log.
        who: String,
        /// When it landed.
        at_ms: u64,
        /// From.
        from: Rect,
        /// To.
        to: Rect,
        /// Inches moved.
        length: f64,
        /// Cost of the way, in inches of allowance.
        cost: f64,
        /// The allowance.
        allowance: f64,
        /// What the cost is made of.
        items: Vec<CostItem>,
        /// What set the allowance.
        basis: String,
        /// Rules.
        rules: Vec<RuleId>,
    },
    /// Two stands touch: both are frozen (FMT-TIME-11, FMT-TIME-13).
    Contact {
        /// The stand that moved.
        mover: StandId,
        /// The stand it met.
        met: StandId,
        /// Their names, for the log.
        names: (String, String),
        /// When.
        at_ms: u64,
        /// The mover began its step lower than the stand it met.
        uphill: bool,
    },
    /// A step that could not land (its time is spent all the same; FMT-R-06).
    StepVoid {
        /// The side.
        side: Side,
        /// When.
        at_ms: u64,
        /// Why.
        why: String,
        /// Rule.
        rule: RuleId,
    },
    /// "Time!" (FMT-TIME-16, FMT-TIME-17).
    TimeCalled {
        /// Who called it.
        side: Side,
        /// When.
        at_ms: u64,
    },
    /// The bell rings: movement stops (FMT-TIME-10).
    WindowClosed {
        /// When.
        at_ms: u64,
        /// Steps still under way, which never happen.
        void: Vec<Side>,
    },
    /// A side's secret orders have been handed in (told in the log without their content
    /// until both sides have handed theirs in).
    Submitted {
        /// The side.
        side: Side,
        /// The orders.
        orders: Secret,
    },
    /// A stand is deployed where its side placed it.
    Deployed {
        /// The stand.
        stand: StandId,
        /// Its name, for the log.
        who: String,
        /// Where.
        to: Rect,
    },
    /// A stand is rearranged (FMT-REARR-01, FMT-REARR-02).
    Rearranged {
        /// The stand.
        stand: StandId,
        /// Its name, for the log.
        who: String,
        /// From.
        from: Rect,
        /// To.
        to: Rect,
    },
    /// A rearrangement that could not be made.
    NotRearranged {
        /// The stand.
        stand: StandId,
        /// Its name, for the log.
        who: String,
        /// Why.
        why: String,
        /// Rule.
        rule: RuleId,
    },
    /// A volley (FMT-FIRE-03..08, FMT-DEF-01..07).
    Shot {
        /// The shooter.
        shooter: StandId,
        /// The target.
        target: StandId,
        /// Their names, for the log.
        names: (String, String),
        /// The weapon.
        weapon: String,
        /// Which row of the killing table.
        row: String,
        /// The die, unless the kill is automatic.
        roll: Option<Roll>,
        /// Whether it killed a point.
        hit: bool,
        /// Rules.
        rules: Vec<RuleId>,
    },
    /// Kills recorded against a stand (FMT-ROS-03).
    Killed {
        /// The stand.
        stand: StandId,
        /// Its name, for the log.
        who: String,
        /// How many.
        kills: u32,
        /// Its points left after them.
        #[serde(default)]
        left: u32,
        /// Why.
        cause: String,
        /// The rule.
        rule: RuleId,
    },
    /// A stand reaches 0 points and is removed (FMT-ROS-04), or leaves the table.
    Removed {
        /// The stand.
        stand: StandId,
        /// Its name, for the log.
        who: String,
        /// Why.
        why: String,
        /// Rule.
        rule: RuleId,
    },
    /// The bowmen's morale test (FMT-MOR-01).
    BowmenMorale {
        /// Red's bowmen, points and dice.
        red: (Vec<StandId>, u32, Vec<Roll>),
        /// Blue's.
        blue: (Vec<StandId>, u32, Vec<Roll>),
        /// The side whose bowmen retreat.
        loser: Side,
    },
    /// A Fire and Charge stand is put into contact (FMT-FC-04).
    Charged {
        /// The stand.
        stand: StandId,
        /// Its name, for the log.
        who: String,
        /// Its target.
        target: StandId,
        /// From.
        from: Rect,
        /// To.
        to: Rect,
    },
    /// A Fire and Charge flag lapses for want of a target (FMT-R-22).
    Lapsed {
        /// The stand.
        stand: StandId,
        /// Its name, for the log.
        who: String,
        /// Why.
        why: String,
    },
    /// A melee round (FMT-MELEE-02..21).
    Fought {
        /// The melee's ID.
        melee: u32,
        /// 1 or 2; 0 for a single-round melee.
        round: u8,
        /// Why it is single-round, if it is.
        single: Option<String>,
        /// Red's total.
        red: MeleeSide,
        /// Blue's total.
        blue: MeleeSide,
        /// The winner.
        winner: Side,
        /// The loser's loss and the winner's loss, in points.
        losses: (u32, u32),
        /// Rules.
        rules: Vec<RuleId>,
    },
    /// A melee goes on into round 2 (FMT-MELEE-08).
    Continues {
        /// The melee.
        melee: Melee,
    },
    /// A melee is over.
    Ended {
        /// The melee.
        melee: u32,
        /// Why.
        why: String,
        /// Rule.
        rule: RuleId,
        /// Its stands still on the table, no longer frozen.
        #[serde(default)]
        released: Vec<StandId>,
    },
    /// A stand falls back (FMT-MOR-03, FMT-MELEE-07, FMT-MELEE-23, FMT-MOR-07).
    Retreated {
        /// The stand.
        stand: StandId,
        /// Its name, for the log.
        who: String,
        /// From.
        from: Rect,
        /// To.
        to: Rect,
        /// How many normal moves were owed.
        moves: u32,
        /// Its morale after.
        morale: Morale,
        /// Rules.
        rules: Vec<RuleId>,
    },
    /// A side leaves a melee (FMT-MELEE-22..25).
    PulledOut {
        /// The side.
        side: Side,
        /// The melee.
        melee: u32,
        /// The points its stands had, and the penalty.
        points: u32,
        /// Penalty kills.
        penalty: u32,
    },
    /// Winners set face to face with the loser's remaining stands (FMT-MELEE-09).
    Closed {
        /// The stand.
        stand: StandId,
        /// Its name, for the log.
        who: String,
        /// From.
        from: Rect,
        /// To.
        to: Rect,
    },
    /// A bonus move (FMT-MELEE-14).
    BonusMoved {
        /// The stand.
        stand: StandId,
        /// Its name, for the log.
        who: String,
        /// From.
        from: Rect,
        /// To.
        to: Rect,
        /// The chain so far.
        chain: u32,
    },
    /// The next phase.
    PhaseBegun {
        /// The phase.
        phase: Phase,
    },
    /// A game move's combat is skipped after a "Time" call (FMT-TIME-17).
    NoCombat {
        /// The game move.
        game_move: u32,
    },
    /// A rule applied that changes nothing: what may not happen, and why.
    Noted {
        /// What, in words.
        text: String,
        /// The rules.
        rules: Vec<RuleId>,
    },
    /// The armies as mustered: stands, points and trays (FMT-ROS-01, 02, 07).
    Mustered {
        /// The side.
        side: Side,
        /// Stands.
        stands: u32,
        /// Points.
        points: u32,
        /// Stands of each type: (type, count, points each).
        types: Vec<(String, u32, u32)>,
    },
    /// The battle is over.
    BattleOver {
        /// The winner, if any.
        winner: Option<Side>,
        /// Why.
        reason: String,
    },
}

impl Narrate for Event {
    fn rules(&self) -> Vec<RuleId> {
        crate::narrate::rules(self)
    }

    fn describe(&self) -> String {
        crate::narrate::describe(self)
    }
}
