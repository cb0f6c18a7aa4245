//! The numbers of the Greensboro Liberal Move War Game, kept in `data/*.toml` and embedded at
//! build time: the troop types and guns, the die-result columns, the formations, the stand-in
//! firing chart, the artillery, melee, morale, day and victory numbers. Each file is read into
//! typed tables (unknown fields refused) and validated; a problem is reported with its file,
//! line and column.

use serde::{Deserialize, Serialize};
use tabletop::diagnostics::{Diagnostics, Problems, Source, read_whole};

/// The embedded data files: (file name, text).
pub const EMBEDDED: [(&str, &str); 2] = [
    ("crates/liberal/data/troops.toml", include_str!("../data/troops.toml")),
    ("crates/liberal/data/rules.toml", include_str!("../data/rules.toml")),
];

/// What kind of figure a troop type is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Foot: infantry, grenadiers, sharpshooters.
    Foot,
    /// Horse: light and heavy cavalry.
    Horse,
    /// A gun's crew.
    Crew,
}

/// One troop type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Troop {
    /// The ID scenarios use (`infantry`).
    pub id: String,
    /// Its name in the log.
    pub name: String,
    /// Its abbreviation on the table.
    pub abbrev: String,
    /// Foot, horse or crew.
    pub kind: Kind,
    /// Inches per normal move in line (LIB-CHOICE-02).
    #[serde(default)]
    pub line: f64,
    /// In column.
    #[serde(default)]
    pub column: f64,
    /// In column on a road (LIB-CHOICE-03).
    #[serde(default)]
    pub road: f64,
    /// The longest move in which the unit changes from line to column (LIB-R-16).
    #[serde(default)]
    pub line_to_column: f64,
    /// The longest move in which the unit changes from column to line.
    #[serde(default)]
    pub column_to_line: f64,
    /// Small-arms range, dismounted, in inches (LIB-FIRE-01).
    pub range: f64,
    /// Range mounted, standing fast (LIB-R-18); horse only.
    #[serde(default)]
    pub range_mounted: Option<f64>,
    /// Added to the hand-to-hand die (mounted only, for horse).
    pub hth_bonus: i32,
    /// Wins ties in hand-to-hand (LIB-HTH-05).
    pub wins_ties: bool,
    /// Frontage of one figure, inches (LIB-M-02).
    pub frontage: f64,
    /// Bands shorter on the stand-in chart (sharpshooters 1; LIB-R-01).
    pub band_shift: usize,
}

/// One kind of gun.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GunType {
    /// `horse_artillery` or `foot_artillery`.
    pub id: String,
    /// Its name in the log.
    pub name: String,
    /// Its abbreviation on the table.
    pub abbrev: String,
    /// Column rate (LIB-CHOICE-04).
    pub column: f64,
    /// Road rate.
    pub road: f64,
    /// Round-shot range (LIB-ART-08).
    pub range: f64,
    /// May move in step B and fire in step C of one turn (LIB-ART-04/05).
    pub move_and_fire: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTroops {
    troop: Vec<Troop>,
    gun: Vec<GunType>,
}

/// What befalls a figure hit by fire or beaten in a single fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    /// Runs one move behind its formation for the turn (LIB-CAS-07).
    Runs,
    /// Walking wounded or dead horse: to the hospital until night (LIB-CAS-08).
    WalkingWounded,
    /// Dead (LIB-CAS-09).
    Dead,
    /// Wounded: a casualty marker where he fell (LIB-CAS-09).
    Wounded,
    /// Captured (hand-to-hand).
    Captured,
    /// Colour bearer: man and flag captured.
    FlagCaptured,
    /// Colour bearer: walking wounded; he and the flag retire.
    FlagRetires,
    /// Colour bearer: dead, flag captured.
    DeadFlagLost,
    /// Colour bearer: wounded, flag captured.
    WoundedFlagLost,
}

/// The die-result columns, faces 1 to 6.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Results {
    /// Firing (and the casualty count).
    pub fire: [Fate; 6],
    /// Hand-to-hand loser.
    pub hand_to_hand: [Fate; 6],
    /// Hand-to-hand for the flag (a colour bearer loses).
    pub flag: [Fate; 6],
}

/// Formation shapes (LIB-M-04).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormationData {
    /// Inches between ranks.
    pub rank_gap: f64,
    /// Ranks of a line.
    pub line_ranks: usize,
    /// Figures abreast in column.
    pub column_width: usize,
    /// Figures abreast in road column.
    pub road_width: usize,
    /// Ranks of each face of a square.
    pub square_ranks: usize,
    /// A square's move (LIB-CHOICE-06, LIB-SQUARE-01).
    pub square_move: f64,
}

/// A band of the stand-in firing chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    /// `short`, `medium`, `long`.
    pub name: String,
    /// Up to this share of the range.
    pub up_to: f64,
    /// Figures needed per casualty.
    pub per_casualty: u32,
}

/// Small arms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireData {
    /// Ranks that fire (LIB-FIRE-04).
    pub ranks: usize,
    /// Half the cone, degrees (LIB-FIRE-05).
    pub cone_half_degrees: f64,
    /// Half the arc of a square's face, degrees.
    pub square_face_half_degrees: f64,
    /// A house with this many or fewer fires with all (LIB-HOUSE-03).
    pub house_all_fire: usize,
    /// A wall or hedge covers a target when the line of fire crosses it this close to the
    /// target, inches (NIS).
    pub cover_reach: f64,
    /// Light cover takes this many casualties off.
    pub light_cover: u32,
    /// Heavy cover.
    pub heavy_cover: u32,
    /// The stand-in chart, shortest band first.
    pub band: Vec<Band>,
}

/// Artillery.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArtilleryData {
    /// Figures needed to move or fire a gun (LIB-ART-01).
    pub crew_needed: usize,
    /// Faces that hit with round shot (LIB-ART-09).
    pub hit_faces: Vec<u8>,
    /// Faces that spike (LIB-ART-15).
    pub spike_faces: Vec<u8>,
    /// The unmodified casualty face that destroys a gun (LIB-ART-11).
    pub destroy_face: u8,
    /// Grape range (LIB-ART-12).
    pub grape_range: f64,
    /// Half the free traverse, degrees (LIB-ART-07).
    pub arc_half_degrees: f64,
    /// The gun model's width.
    pub gun_width: f64,
    /// Its depth.
    pub gun_depth: f64,
    /// Artillerymen in a battery by default (LIB-M-03).
    pub crew: usize,
}

/// Hand-to-hand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeData {
    /// The defender gathers figures this close to the attacker's front rank (LIB-HTH-02).
    pub gather: f64,
    /// Fights lost in a row that lose a rank (LIB-HTH-07).
    pub lost_in_row: u32,
    /// Retreat distance (LIB-HTH-07, -13).
    pub retreat: f64,
    /// Added in square (LIB-SQUARE-02).
    pub square_bonus: i32,
    /// Added in a house (LIB-HOUSE-01).
    pub house_bonus: i32,
    /// Footprints this close are in contact, inches (NIS).
    pub contact: f64,
}

/// Houses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HouseData {
    /// Figures a house holds by default (NIS).
    pub capacity: usize,
}

/// Morale.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleData {
    /// A unit with no leader left tests on a 1 on any figure (LIB-R-13).
    pub leaderless_any_one: bool,
}

/// Days.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DayData {
    /// Game turns in a day (LIB-DAY-01).
    pub turns: u32,
    /// Days in a game by default (LIB-M-17).
    pub days: u32,
}

/// Deployment and the default table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeploymentData {
    /// Depth of a side's zone (LIB-START-05).
    pub depth: f64,
    /// Default table width (LIB-M-01).
    pub table_width: f64,
    /// Default table height.
    pub table_height: f64,
}

/// Victory points (LIB-M-17).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryData {
    /// Each enemy figure dead or wounded.
    pub dead_or_wounded: u32,
    /// Each prisoner.
    pub prisoner: u32,
    /// Each flag taken.
    pub flag: u32,
    /// Each gun taken or spiked.
    pub gun: u32,
}

/// `data/rules.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The die columns.
    pub results: Results,
    /// Formations.
    pub formation: FormationData,
    /// Small arms.
    pub fire: FireData,
    /// Artillery.
    pub artillery: ArtilleryData,
    /// Hand-to-hand.
    pub melee: MeleeData,
    /// Houses.
    pub house: HouseData,
    /// Morale.
    pub morale: MoraleData,
    /// Days.
    pub day: DayData,
    /// Deployment.
    pub deployment: DeploymentData,
    /// Victory.
    pub victory: VictoryData,
}

/// Every table the rules use.
#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    /// Troop types.
    pub troops: Vec<Troop>,
    /// Guns.
    pub guns: Vec<GunType>,
    /// The rest.
    pub rules: Rules,
}

impl Data {
    /// The embedded tables.
    pub fn embedded() -> Result<Data, Diagnostics> {
        let sources: Vec<Source> = EMBEDDED.iter().map(|(n, t)| Source::new(*n, *t)).collect();
        Data::from_sources(&sources)
    }

    /// Tables from the two files, in the order of [`EMBEDDED`].
    pub fn from_sources(sources: &[Source]) -> Result<Data, Diagnostics> {
        let mut all = Diagnostics(Vec::new());
        if sources.len() != EMBEDDED.len() {
            all.0.push(tabletop::Diagnostic::whole_file(
                "liberal data",
                format!("expected {} data files, got {}", EMBEDDED.len(), sources.len()),
            ));
            return Err(all);
        }
        let troops = read_whole(&sources[0], &mut all, validate_troops);
        let rules = read_whole(&sources[1], &mut all, validate_rules);
        match (troops, rules) {
            (Some(t), Some(r)) if all.is_empty() => {
                Ok(Data { troops: t.troop, guns: t.gun, rules: r })
            }
            _ => Err(all),
        }
    }

    /// The troop type with this ID.
    pub fn troop(&self, id: &str) -> Option<usize> {
        self.troops.iter().position(|t| t.id == id)
    }

    /// The gun type with this ID.
    pub fn gun(&self, id: &str) -> Option<usize> {
        self.guns.iter().position(|g| g.id == id)
    }

    /// The artillerymen's troop type.
    pub fn crew_troop(&self) -> usize {
        self.troops.iter().position(|t| t.kind == Kind::Crew).unwrap_or(0)
    }
}

fn positive(x: f64) -> bool {
    x.is_finite() && x > 0.0
}

fn validate_troops(t: &RawTroops, p: &mut Problems<'_>) {
    for (i, x) in t.troop.iter().enumerate() {
        if t.troop[..i].iter().any(|y| y.id == x.id) {
            p.error(("troop", i, "id"), format!("'{}' is listed twice", x.id));
        }
        if x.kind != Kind::Crew {
            for (k, v) in [
                ("line", x.line),
                ("column", x.column),
                ("road", x.road),
                ("line_to_column", x.line_to_column),
                ("column_to_line", x.column_to_line),
                ("range", x.range),
            ] {
                if !positive(v) || v > 100.0 {
                    p.error(("troop", i, k), "a positive number of inches, at most 100");
                }
            }
        }
        if x.kind == Kind::Horse && x.range_mounted.is_none_or(|r| !positive(r)) {
            p.error(("troop", i, "range_mounted"), "horse needs a positive mounted range");
        }
        if !positive(x.frontage) || x.frontage > 5.0 {
            p.error(("troop", i, "frontage"), "a frontage of more than 0 and at most 5 inches");
        }
        if !(-6..=6).contains(&x.hth_bonus) {
            p.error(("troop", i, "hth_bonus"), "a bonus of -6 to 6");
        }
    }
    if !t.troop.iter().any(|x| x.kind == Kind::Crew) {
        p.error("troop", "one troop type must be a gun crew (kind = \"crew\")");
    }
    for (i, g) in t.gun.iter().enumerate() {
        if t.gun[..i].iter().any(|y| y.id == g.id) {
            p.error(("gun", i, "id"), format!("'{}' is listed twice", g.id));
        }
        for (k, v) in [("column", g.column), ("road", g.road), ("range", g.range)] {
            if !positive(v) || v > 200.0 {
                p.error(("gun", i, k), "a positive number of inches, at most 200");
            }
        }
    }
}

fn validate_rules(r: &Rules, p: &mut Problems<'_>) {
    let f = &r.formation;
    if !positive(f.rank_gap) || f.line_ranks == 0 || f.column_width == 0 || f.road_width == 0 {
        p.error("formation", "gaps and widths must be positive");
    }
    if f.square_ranks == 0 || !positive(f.square_move) {
        p.error("formation.square_ranks", "a square has ranks and a move");
    }
    if r.fire.band.is_empty() {
        p.error("fire.band", "the firing chart needs at least one band");
    }
    let mut last = 0.0;
    for (i, b) in r.fire.band.iter().enumerate() {
        if !(b.up_to > last && b.up_to <= 1.0) {
            p.error(
                tabletop::diagnostics::FieldPath::parse("fire.band").index(i).key("up_to"),
                "bands rise from 0 to 1, the last at 1",
            );
        }
        if !(1..=100).contains(&b.per_casualty) {
            p.error(
                tabletop::diagnostics::FieldPath::parse("fire.band").index(i).key("per_casualty"),
                "1 to 100 figures per casualty",
            );
        }
        last = b.up_to;
    }
    if (last - 1.0).abs() > 1e-9 && !r.fire.band.is_empty() {
        p.error("fire.band", "the last band reaches the full range (up_to = 1)");
    }
    if r.fire.ranks == 0 || !positive(r.fire.cone_half_degrees) {
        p.error("fire", "firing ranks and a cone are needed");
    }
    let a = &r.artillery;
    let faces = |v: &[u8]| !v.is_empty() && v.iter().all(|x| (1..=6).contains(x));
    if !faces(&a.hit_faces) {
        p.error("artillery.hit_faces", "faces of a d6, at least one");
    }
    if !faces(&a.spike_faces) {
        p.error("artillery.spike_faces", "faces of a d6, at least one");
    }
    if !(1..=6).contains(&a.destroy_face) {
        p.error("artillery.destroy_face", "a face of a d6");
    }
    if a.crew_needed == 0 || !positive(a.grape_range) || !positive(a.gun_width) {
        p.error("artillery", "crew, grape range and gun size must be positive");
    }
    if !positive(r.melee.gather) || !positive(r.melee.retreat) || r.melee.lost_in_row == 0 {
        p.error("melee", "gathering radius, retreat and fights in a row must be positive");
    }
    if r.day.turns == 0 || r.day.days == 0 || r.day.days > 100 {
        p.error("day", "at least one turn a day and 1 to 100 days");
    }
    if !positive(r.deployment.depth) {
        p.error("deployment.depth", "a positive depth");
    }
    if r.house.capacity == 0 {
        p.error("house.capacity", "a house holds at least one figure");
    }
}
