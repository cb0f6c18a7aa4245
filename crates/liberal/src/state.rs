//! The state of a battle: every figure of every unit, the guns, the turn and its stage, and the
//! commands and events that change them.

use crate::data::Fate;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabletop::dice::Roll;
use tabletop::geometry::{Facing, Point};
use tabletop::rules::{RuleId, Side};
use tabletop::terrain::Table;

/// A unit's index in [`State::units`].
pub type UnitId = usize;

/// A figure's role in its unit (LIB-MORALE-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The commanding officer.
    Commander,
    /// The second officer.
    Second,
    /// The colour bearer (carries the flag while the unit has it).
    Colours,
    /// Anyone else.
    Private,
}

/// Where a figure is.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Status {
    /// In the ranks.
    Ranks,
    /// Ran: out of the ranks until its side's next turn begins (LIB-CAS-07, LIB-R-33).
    Ran,
    /// Walking wounded or dead horse: in the hospital until night (LIB-CAS-08, LIB-R-34).
    Hospital,
    /// Wounded: a casualty marker on the table (LIB-CAS-09).
    Wounded {
        /// Where he fell.
        at: Point,
    },
    /// Taken off the table wounded at night by his own side.
    Evacuated,
    /// Dead.
    Dead,
    /// A prisoner of the other side.
    Captured,
}

/// One figure: one man.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    /// His role.
    pub role: Role,
    /// His troop type (an index into the data's troops).
    pub troop: usize,
    /// Where he is.
    #[serde(flatten)]
    pub status: Status,
}

/// A unit's formation (LIB-M-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    /// Two ranks.
    Line,
    /// Four abreast.
    Column,
    /// Two abreast.
    RoadColumn,
    /// Four faces, two deep.
    Square,
    /// Inside a house.
    House,
}

impl Formation {
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::RoadColumn => "road column",
            Formation::Square => "square",
            Formation::House => "house",
        }
    }
}

/// Where a unit stands: its front rank's centre, its facing and its formation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Place {
    /// The centre of the front edge (of a square, its centre).
    pub at: Point,
    /// Facing.
    pub facing: Facing,
    /// Formation.
    pub formation: Formation,
}

/// The colours (LIB-R-35).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    /// The unit has none.
    None,
    /// Carried by the figure with the colour-bearer role.
    Carried,
    /// Retired from the table until night.
    Retired,
    /// Taken by the enemy.
    Lost,
}

/// A gun model of a battery.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gun {
    /// Its type (an index into the data's guns); a horse gun whose artillerymen are all gone
    /// becomes a foot gun (LIB-ART-14).
    pub kind: usize,
    /// It keeps its horse gun's range when it became a foot gun (LIB-R-25).
    pub range: f64,
    /// A horse gun that lost all its artillerymen: a foot gun from then on (LIB-ART-14).
    #[serde(default)]
    pub demoted: bool,
    /// Spiked: never fires again (LIB-ART-15).
    pub spiked: bool,
    /// Destroyed by a six (LIB-ART-11).
    pub destroyed: bool,
    /// The game turn it last fired in (LIB-R-26).
    pub fired_turn: Option<u32>,
    /// The liberal step it last fired on, in the current side-turn (LIB-R-09).
    pub fired_step: Option<u32>,
    /// It moved (or turned beyond its arc) this side-turn (LIB-ART-04).
    pub moved: bool,
    /// It fired this side-turn (LIB-ART-16).
    pub fired: bool,
}

/// A unit: figures of one troop type in one formation, or a battery with its gun.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Its index.
    pub id: UnitId,
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: Side,
    /// Its troop type.
    pub troop: usize,
    /// Where it stands.
    pub place: Place,
    /// Cavalry on horseback (LIB-FIRE-01, LIB-M-10).
    pub mounted: bool,
    /// Its figures in count order: the front rank from the unit's left, then each rank behind
    /// (LIB-R-03). Figures out of the ranks keep their place in the list.
    pub figures: Vec<Figure>,
    /// The colours.
    pub flag: Flag,
    /// The gun of a battery.
    pub gun: Option<Gun>,
    /// The house it holds (an area index).
    pub house: Option<usize>,
    /// Its square was broken to support a melee this turn (LIB-SQUARE-05).
    pub square_broken: bool,
    /// Fired already in this step (return fire once a step, LIB-R-20).
    pub fired_step: bool,
}

/// A gun's shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shot {
    /// Round shot (LIB-ART-08..11).
    Round,
    /// Grape (LIB-ART-12).
    Grape,
}

/// A liberal move's objective (LIB-LIBERAL-02).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Objective {
    /// A point for the front centre.
    Point {
        /// The point.
        at: Point,
    },
    /// An enemy unit to assault.
    Unit {
        /// The unit.
        unit: UnitId,
    },
}

/// One unit's choice for its side's turn (LIB-CHOICE-01, LIB-SEQ-02).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Choice {
    /// Stand fast, and fire in step D (LIB-CHOICE-07).
    StandFast {
        /// The target, or the best one.
        #[serde(default)]
        target: Option<UnitId>,
    },
    /// A normal move (LIB-CHOICE-02..09).
    Normal {
        /// Where the front centre goes.
        to: Point,
        /// The facing at the end (default: the direction of the move).
        #[serde(default)]
        facing: Option<f64>,
        /// A new formation.
        #[serde(default)]
        formation: Option<Formation>,
        /// Mount or dismount instead of moving (LIB-M-10).
        #[serde(default)]
        mount: Option<bool>,
        /// The target to fire at after the move, or the best.
        #[serde(default)]
        target: Option<UnitId>,
    },
    /// A liberal move (LIB-LIBERAL-01..14).
    Liberal {
        /// The stated objective.
        objective: Objective,
        /// The formation to take on the first step.
        #[serde(default)]
        formation: Option<Formation>,
    },
    /// A battery's orders for steps B and C (LIB-SEQ-03/04).
    Gun {
        /// Where the gun goes in step B.
        #[serde(default)]
        to: Option<Point>,
        /// The gun's facing (bearing in degrees).
        #[serde(default)]
        facing: Option<f64>,
        /// The one target named (none: it does not fire).
        #[serde(default)]
        target: Option<UnitId>,
        /// Round shot or grape.
        #[serde(default = "round")]
        shot: Shot,
    },
    /// Spike a gun: its own crew, or figures touching an unmanned enemy gun (LIB-R-27).
    Spike {
        /// The battery.
        gun: UnitId,
    },
    /// Send figures to crew a friendly gun in touch (LIB-ART-01, LIB-M-19).
    Crew {
        /// The battery.
        gun: UnitId,
        /// How many figures.
        figures: usize,
    },
}

fn round() -> Shot {
    Shot::Round
}

/// A declared choice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Order {
    /// The unit.
    pub unit: UnitId,
    /// Its choice.
    pub choice: Choice,
}

/// Where a side sets a unit at the start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Placement {
    /// The unit.
    pub unit: UnitId,
    /// Its place.
    pub place: Place,
}

/// A command.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Command {
    /// The side that won the roll takes its edge (LIB-START-03).
    ChooseEdge {
        /// `true` for the south edge, `false` for the north.
        south: bool,
    },
    /// The secret starting positions (LIB-START-04/05); an empty list keeps the scenario's.
    Deploy {
        /// Places for some or all of the side's units.
        placements: Vec<Placement>,
    },
    /// Step A: every unit's choice (LIB-SEQ-02). Units left out stand fast.
    Declare {
        /// The orders.
        orders: Vec<Order>,
    },
    /// Between steps of a liberal move: the movers to call off (LIB-LIBERAL-08).
    Advance {
        /// Units that turn about and go back.
        #[serde(default)]
        call_off: Vec<UnitId>,
        /// Movers that change formation on their next step (LIB-LIBERAL-07).
        #[serde(default)]
        reform: Vec<(UnitId, Formation)>,
    },
    /// The hand-to-hand winner's re-formation (LIB-HTH-14); none keeps the formation.
    Reform {
        /// The new formation.
        #[serde(default)]
        formation: Option<Formation>,
    },
}

/// Where a liberal mover is in its move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Leg {
    /// Going forward.
    Forward,
    /// Going back to the start, fired on, not firing (LIB-LIBERAL-10, LIB-MORALE-03).
    Back,
    /// Finished.
    Done,
}

/// One liberal mover in step E.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mover {
    /// The unit.
    pub unit: UnitId,
    /// Its objective.
    pub objective: Objective,
    /// The formation it changes to on its next step.
    pub formation: Option<Formation>,
    /// Where it started.
    pub start: Place,
    /// Forward steps made.
    pub steps: u32,
    /// Going forward, back, or done.
    pub leg: Leg,
}

/// The stage of a side's turn (LIB-SEQ-01..07).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "stage")]
pub enum Stage {
    /// Waiting for step A.
    Declare,
    /// Step E, waiting for the owner's word between steps.
    Liberal {
        /// Steps made so far.
        step: u32,
    },
    /// Waiting for a hand-to-hand winner's re-formation; the turn then goes on.
    Reform {
        /// The unit that may re-form.
        unit: UnitId,
        /// The step E was on (0 in step D).
        step: u32,
        /// Winners to ask after this one.
        queue: Vec<UnitId>,
    },
}

/// What the battle is waiting for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "phase")]
pub enum Phase {
    /// The winner of the roll chooses an edge.
    Edge {
        /// Who chooses.
        side: Side,
    },
    /// Both sides draw up in secret.
    Deploy {
        /// What each side has committed (hidden from the other until both have).
        plans: [Option<Vec<Placement>>; 2],
    },
    /// A side's turn.
    Turn {
        /// The acting side.
        side: Side,
        /// Where it is.
        stage: Stage,
        /// The declared orders.
        orders: Vec<Order>,
        /// The liberal movers.
        movers: Vec<Mover>,
    },
    /// The battle is over.
    Over,
}

/// A side's edge and name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideInfo {
    /// The side.
    pub side: Side,
    /// Its name.
    pub name: String,
    /// It deploys along the south edge (else the north).
    pub south: bool,
    /// Flags it has taken.
    pub flags_taken: u32,
    /// Guns it has taken or spiked.
    pub guns_taken: u32,
}

/// The whole battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The scenario's name.
    pub scenario: String,
    /// The table.
    pub table: Arc<Table>,
    /// House capacities by area index (0 for areas that are not houses).
    pub houses: Vec<usize>,
    /// Ranks that fire from each area, by area index (0: the usual two; LIB-FIRE-04's
    /// "unless terrain dictates differently", set by the scenario's `[[firing_ground]]`).
    #[serde(default)]
    pub firing_ranks: Vec<usize>,
    /// The units.
    pub units: Vec<Unit>,
    /// The sides.
    pub sides: [SideInfo; 2],
    /// What is waiting.
    pub phase: Phase,
    /// The game turn (1 for the first).
    pub game_turn: u32,
    /// The day (1 for the first).
    pub day: u32,
    /// Days in the game.
    pub days: u32,
    /// The side that moves first this day.
    pub first: Side,
    /// The outcome, once over.
    pub outcome: Option<tabletop::rules::Outcome>,
    /// The last exchange's count, for the table until the next declaration: each hit figure's
    /// unit, place, number in the count, die and fate (LIB-CAS-03/04).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub last_hits: Vec<(UnitId, Point, usize, u8, Fate)>,
}

/// One figure's fate in a casualty count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    /// His index in the unit's list.
    pub figure: usize,
    /// His number in the count (1 for the first figure in the ranks).
    pub number: usize,
    /// The die that reached him.
    pub die: u8,
    /// What befell him.
    pub fate: Fate,
}

/// How a volley's casualties were made (LIB-R-01, LIB-R-41).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Volley {
    /// The firing unit.
    pub firer: UnitId,
    /// The target.
    pub target: UnitId,
    /// The units' names, in the order of the IDs above (filled in as the event is emitted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// Eligible firing figures (F).
    pub figures: usize,
    /// Why F is what it is (two ranks, half a column, a square's face, a house).
    pub basis: String,
    /// The nearest distance, inches.
    pub distance: f64,
    /// The band's name.
    pub band: String,
    /// Figures per casualty (D).
    pub per_casualty: u32,
    /// floor(F / D).
    pub base: u32,
    /// The remainder die (a D-sided die), when F mod D is not 0.
    pub remainder: Option<Roll>,
    /// 1 when the remainder die made a casualty.
    pub extra: u32,
    /// Taken off for cover.
    pub cover: u32,
    /// The casualties: base + extra - cover, never below 0.
    pub casualties: u32,
}

/// How a gun's shot was made (LIB-ART-09..12).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cannonade {
    /// The battery.
    pub gun: UnitId,
    /// The target.
    pub target: UnitId,
    /// The units' names, in the order of the IDs above (filled in as the event is emitted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// Round or grape.
    pub shot: Shot,
    /// The distance.
    pub distance: f64,
    /// The to-hit die (round shot).
    pub to_hit: Option<Roll>,
    /// Whether it hit.
    pub hit: bool,
    /// The casualty die.
    pub casualty_die: Option<Roll>,
    /// The target gun was destroyed by the unmodified die (LIB-ART-11).
    pub destroyed: bool,
    /// The second die for a destroyed gun's crew.
    pub crew_die: Option<Roll>,
    /// Taken off for cover.
    pub cover: u32,
    /// The casualties.
    pub casualties: u32,
}

/// One single fight (LIB-HTH-04..06).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fight {
    /// Attacker's (unit, figure).
    pub attacker: (UnitId, usize),
    /// Defender's (unit, figure).
    pub defender: (UnitId, usize),
    /// Attacker's die and bonus.
    pub attacker_roll: (u8, i32),
    /// Defender's die and bonus.
    pub defender_roll: (u8, i32),
    /// Ties rolled again before this (LIB-R-05).
    pub rerolls: u32,
    /// The attacker won.
    pub attacker_won: bool,
    /// The loser's fate die.
    pub fate_die: u8,
    /// The loser's fate.
    pub fate: Fate,
}

/// Why a figure left its place, for the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Moved {
    /// The unit.
    pub unit: UnitId,
    /// From.
    pub from: Place,
    /// To.
    pub to: Place,
    /// What the move used of its allowance, inches.
    pub used: f64,
    /// The allowance.
    pub allowance: f64,
    /// Why this allowance.
    pub basis: String,
    /// The units' names, in the order of the IDs above (filled in as the event is emitted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
}

/// A change to the battle, with the rules it applied.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// The table is laid out and the armies divided (LIB-START-01, LIB-START-02).
    Laid {
        /// Units on each side, red then blue.
        units: [usize; 2],
        /// Areas and lines of terrain.
        terrain: usize,
    },
    /// A roll-off (LIB-START-03, LIB-START-06, LIB-DAY-05).
    RollOff {
        /// What for.
        what: String,
        /// The rule.
        rule: RuleId,
        /// Red's and blue's dice, with re-rolls.
        rolls: Vec<(u8, u8)>,
        /// The winner.
        winner: Side,
    },
    /// A side took its edge (LIB-START-03).
    EdgeTaken {
        /// The side.
        side: Side,
        /// South or north.
        south: bool,
    },
    /// A side committed its secret plan (LIB-START-04).
    Deployed {
        /// The side.
        side: Side,
        /// The plan (hidden from the other side until both have deployed).
        placements: Vec<Placement>,
    },
    /// Both plans revealed and set up (LIB-START-04/05).
    Revealed,
    /// A side's turn begins (LIB-SEQ-01).
    TurnBegins {
        /// The side.
        side: Side,
        /// The side that moves first this day.
        first: Side,
        /// The game turn.
        game_turn: u32,
        /// The day.
        day: u32,
    },
    /// Runners rejoined their units' rear ranks (LIB-R-33).
    Rejoined {
        /// (unit, figures).
        units: Vec<(UnitId, Vec<usize>)>,
    },
    /// Step A (LIB-SEQ-02, LIB-LIBERAL-02).
    Declared {
        /// The side.
        side: Side,
        /// The orders.
        orders: Vec<Order>,
        /// Every unit's name, by its ID (for the log).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        names: Vec<String>,
    },
    /// A unit moved (normal move, gun move, liberal step, going back, morale, retreat).
    Moved {
        /// The move.
        #[serde(flatten)]
        moved: Moved,
        /// A forward step of a liberal move (LIB-LIBERAL-04).
        #[serde(default)]
        forward_step: bool,
        /// The rules.
        rules: Vec<RuleId>,
    },
    /// Rifle fire and its count (LIB-FIRE, LIB-CAS).
    Fired {
        /// How the casualties were made.
        volley: Volley,
        /// The count's dice and hits.
        hits: Vec<Hit>,
        /// The rules.
        rules: Vec<RuleId>,
    },
    /// A gun fired (LIB-ART).
    Cannon {
        /// How.
        shot: Cannonade,
        /// The liberal step it fired on, if in step E.
        #[serde(default)]
        step: Option<u32>,
        /// The count.
        hits: Vec<Hit>,
        /// The rules.
        rules: Vec<RuleId>,
    },
    /// The hits of one exchange take effect together (LIB-FIRE-03).
    HitsApplied {
        /// (unit, hits).
        hits: Vec<(UnitId, Vec<Hit>)>,
    },
    /// A colour bearer fell and another took up the flag (LIB-R-35).
    FlagTaken {
        /// The unit.
        unit: UnitId,
        /// The new bearer, or none when no one is left.
        bearer: Option<usize>,
    },
    /// A unit's morale figure was hit with a 1 (LIB-MORALE-02..04).
    Morale {
        /// The unit.
        unit: UnitId,
        /// The units' names, in the order of the IDs (filled in as the event is emitted).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        names: Vec<String>,
        /// The figure.
        figure: usize,
        /// Going back (liberal) or falling back (standing).
        going_back: bool,
        /// The rules.
        rules: Vec<RuleId>,
    },
    /// A liberal mover's leg changed: called off, morale, reached its objective.
    Leg {
        /// The unit.
        unit: UnitId,
        /// The units' names, in the order of the IDs (filled in as the event is emitted).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        names: Vec<String>,
        /// The new leg.
        leg: Leg,
        /// Why.
        why: String,
        /// The rules.
        rules: Vec<RuleId>,
    },
    /// A gun was spiked, or the attempt failed (LIB-ART-15, LIB-HTH-16).
    Spiked {
        /// The battery.
        gun: UnitId,
        /// The die.
        die: Roll,
        /// Whether it is spiked.
        spiked: bool,
    },
    /// Figures went to crew a gun (LIB-ART-01).
    Crewed {
        /// From.
        from: UnitId,
        /// The battery.
        gun: UnitId,
        /// The figures' indexes in `from`.
        figures: Vec<usize>,
    },
    /// A hand-to-hand (LIB-HTH).
    Melee {
        /// The attacking unit.
        attacker: UnitId,
        /// The defending units gathered.
        defenders: Vec<UnitId>,
        /// The units' names, in the order of the IDs (filled in as the event is emitted).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        names: Vec<String>,
        /// A house fight (LIB-HOUSE-05).
        house: bool,
        /// Every single fight.
        fights: Vec<Fight>,
        /// Each rank fight's loser: (attacker lost, figures driven back).
        ranks: Vec<(bool, Vec<(UnitId, usize)>)>,
        /// The attacker won.
        attacker_won: bool,
        /// Squares broken to support (LIB-SQUARE-05).
        broken: Vec<UnitId>,
        /// The rules.
        rules: Vec<RuleId>,
    },
    /// Guns left by the losers pass to the winner (LIB-HTH-15), a new battery.
    GunTaken {
        /// The old battery.
        from: UnitId,
        /// The new, uncrewed battery.
        unit: Unit,
    },
    /// A unit re-formed after winning (LIB-HTH-14).
    Reformed {
        /// The unit.
        unit: UnitId,
        /// The new formation.
        formation: Formation,
    },
    /// The acting side's turn moved to another stage.
    Staged {
        /// The stage.
        stage: Stage,
    },
    /// Step E begins with these movers (LIB-SEQ-06, LIB-LIBERAL-13).
    MoversSet {
        /// The movers.
        movers: Vec<Mover>,
    },
    /// A horse gun's artillerymen are all gone: a foot gun from now on (LIB-ART-14, LIB-R-25).
    Demoted {
        /// The battery.
        unit: UnitId,
    },
    /// A liberal mover will change formation on its next step (LIB-LIBERAL-07).
    ChangeOrdered {
        /// The unit.
        unit: UnitId,
        /// The formation.
        formation: Formation,
    },
    /// Cavalry mounted or dismounted, using the whole move (LIB-M-10).
    Mounted {
        /// The unit.
        unit: UnitId,
        /// On horseback now.
        mounted: bool,
    },
    /// The battle's phase changed.
    StageSet {
        /// The new phase.
        phase: Phase,
    },
    /// Night falls (LIB-DAY-01..04): the summary per unit.
    Night {
        /// The day that ended.
        day: u32,
        /// One row per unit.
        summary: Vec<NightRow>,
        /// Figures back from hospital, (unit, figures).
        returned: Vec<(UnitId, Vec<usize>)>,
        /// Wounded taken off: (unit, figure, by side).
        evacuated: Vec<(UnitId, usize, Side)>,
        /// Flags that retired come back.
        flags_back: Vec<UnitId>,
    },
    /// The battle ended (LIB-M-17).
    Ended {
        /// The outcome.
        outcome: tabletop::rules::Outcome,
        /// Red's and blue's points.
        points: [u32; 2],
    },
}

/// A unit's line in the night summary (LIB-DAY-02).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NightRow {
    /// The unit.
    pub unit: UnitId,
    /// Its name.
    pub name: String,
    /// In the ranks.
    pub ranks: usize,
    /// Dead.
    pub dead: usize,
    /// Wounded (on the table or taken off).
    pub wounded: usize,
    /// Walking wounded in hospital.
    pub walking_wounded: usize,
    /// Captured.
    pub captured: usize,
    /// The flag.
    pub flag: Flag,
}

impl State {
    /// The acting side, in a side's turn.
    pub fn acting(&self) -> Option<Side> {
        match &self.phase {
            Phase::Turn { side, .. } => Some(*side),
            _ => None,
        }
    }

    /// The side's info.
    pub fn side(&self, side: Side) -> &SideInfo {
        &self.sides[side.index()]
    }

    /// Units of a side.
    pub fn units_of(&self, side: Side) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.side == side)
    }
}

impl Unit {
    /// Indexes of the figures in the ranks, in count order.
    pub fn in_ranks(&self) -> Vec<usize> {
        (0..self.figures.len()).filter(|i| self.figures[*i].status == Status::Ranks).collect()
    }

    /// How many figures are in the ranks.
    pub fn strength(&self) -> usize {
        self.figures.iter().filter(|f| f.status == Status::Ranks).count()
    }

    /// Whether the unit is on the table at all (figures in the ranks, or a gun model).
    pub fn present(&self) -> bool {
        self.strength() > 0 || self.gun.as_ref().is_some_and(|g| !g.destroyed)
    }

    /// The morale figure (LIB-MORALE-01): the commander, else the second officer, else the
    /// colour bearer, among those in the ranks.
    pub fn morale_figure(&self) -> Option<usize> {
        for role in [Role::Commander, Role::Second, Role::Colours] {
            if let Some(i) =
                self.figures.iter().position(|f| f.role == role && f.status == Status::Ranks)
            {
                if role == Role::Colours && self.flag != Flag::Carried {
                    continue;
                }
                return Some(i);
            }
        }
        None
    }
}
