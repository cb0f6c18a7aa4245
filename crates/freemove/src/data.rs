//! The numbers of the Free Move – Timed Move War Game, kept in `data/*.toml` and embedded at
//! build time: the stand types, the missiles and their killing power, and the other rules'
//! numbers (clock, contact, melee, squares, terrain and victory defaults). Each file is read
//! into typed tables (unknown fields refused) and validated; every problem is reported with its
//! file, line and column.

use serde::{Deserialize, Serialize};
use tabletop::diagnostics::{Diagnostics, Problems, Source, read_whole};

/// The embedded data files: (file name, text).
pub const EMBEDDED: [(&str, &str); 3] = [
    ("crates/freemove/data/troops.toml", include_str!("../data/troops.toml")),
    ("crates/freemove/data/missiles.toml", include_str!("../data/missiles.toml")),
    ("crates/freemove/data/rules.toml", include_str!("../data/rules.toml")),
];

/// A stand's target class for missile fire (FMT-R-38).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// Light infantry, archers, light cavalry.
    Light,
    /// Heavy infantry, heavy cavalry.
    Heavy,
}

/// What a stand throws or shoots (FMT-FIRE-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponKind {
    /// No missiles (heavy infantry outside a Fire and Charge, heavy cavalry).
    None,
    /// Javelins.
    Javelin,
    /// Bows.
    Bow,
}

/// One stand type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Troop {
    /// The ID scenarios use (`heavy_infantry`).
    pub id: String,
    /// Its name in the log.
    pub name: String,
    /// Its abbreviation on the table.
    pub abbrev: String,
    /// Starting roster points (FMT-ROS-02).
    pub points: u32,
    /// Normal move length in inches (FMT-TIME-07).
    pub normal: f64,
    /// Move length in column or on a road (FMT-TIME-08).
    pub column: f64,
    /// Missile target class.
    pub class: Class,
    /// Mounted (cannot form squares or enter houses).
    pub mounted: bool,
    /// Its missile.
    pub weapon: WeaponKind,
    /// May Fire and Charge (FMT-FC-01).
    pub fire_and_charge: bool,
    /// Has shock power (FMT-SHOCK-01).
    pub shock: bool,
}

/// A missile weapon.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// `javelin` or `bow`.
    pub id: WeaponKind,
    /// Its name in the log.
    pub name: String,
    /// Range in inches (FMT-FIRE-02).
    pub range: f64,
    /// Whether it may be used from or against a house (FMT-DEF-05, FMT-DEF-06).
    pub houses: bool,
}

/// What a volley needs to kill a point: always, or one of these die faces.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Kill {
    /// `"auto"`: the volley always kills one point.
    Auto(String),
    /// The faces of one d6 that kill.
    Faces(Vec<u8>),
}

impl Kill {
    /// The faces that kill, or `None` for an automatic kill.
    pub fn faces(&self) -> Option<&[u8]> {
        match self {
            Kill::Auto(_) => None,
            Kill::Faces(f) => Some(f),
        }
    }
}

/// The killing-power table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Killing {
    /// Light target, in the open, shot from its front.
    pub light_front: Kill,
    /// Heavy target, in the open, shot from its front.
    pub heavy_front: Kill,
    /// Light target shot from flank or rear.
    pub light_flank: Kill,
    /// Heavy target shot from flank or rear.
    pub heavy_flank: Kill,
    /// Light target in a defensive position or on a hill.
    pub light_cover: Kill,
    /// Heavy target in a defensive position or on a hill.
    pub heavy_cover: Kill,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTroops {
    troop: Vec<Troop>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMissiles {
    weapon: Vec<Weapon>,
    killing: Killing,
}

/// The tray (FMT-ROS-07).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandSize {
    /// Frontage in inches.
    pub width: f64,
    /// Depth in inches.
    pub depth: f64,
}

/// The clock's numbers (FMT-R-01..03).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockData {
    /// Handling time of one measured step of one stand, in ms.
    pub handling_ms: u64,
    /// The primary window is rounded up to a multiple of this, in ms.
    pub round_ms: u64,
    /// The shortest window, in ms.
    pub minimum_ms: u64,
    /// Destroyed shares of both armies at which the window halves again.
    pub stages: Vec<f64>,
}

/// Contact and two-deep support (FMT-R-07, FMT-R-15).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContactData {
    /// Stands this close touch, in inches.
    pub epsilon: f64,
    /// A supporter faces within this many degrees of the stand it backs.
    pub support_degrees: f64,
    /// A supporter covers at least this share of the frontage it backs.
    pub support_overlap: f64,
}

/// Melee numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeData {
    /// Half-points per point in a defensive position (3 = ×1.5).
    pub defensive_halves: u32,
    /// Points of heavy cavalry per shock kill.
    pub shock_points: u32,
    /// Pull-out penalty in per cent.
    pub pull_out_percent: u32,
    /// Retreat after a lost melee or morale test, in normal moves.
    pub retreat_moves: u32,
    /// Retreat after pulling out, in normal moves.
    pub pull_out_moves: u32,
    /// Further retreat on a recovery roll of 1, in normal moves.
    pub recovery_moves: u32,
    /// Longest chain of bonus moves.
    pub bonus_chain_limit: u32,
}

/// Deployment (not in the source).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeploymentData {
    /// How far from its own edge a side deploys, in inches.
    pub depth: f64,
}

/// Squares (not in the source: the size).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SquareData {
    /// Fewest stands in a square.
    pub minimum_stands: usize,
}

/// Terrain defaults (not in the source).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainData {
    /// Cost multiplier of broken ground.
    pub broken_cost: f64,
    /// Share of a foot stand's move spent crossing a wall.
    pub wall_foot: f64,
    /// Share of a mounted stand's move spent crossing a wall.
    pub wall_horse: f64,
    /// Stands a house holds.
    pub house_stands: usize,
}

/// Victory defaults (not in the source).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryData {
    /// A side at or below this share of its starting points loses.
    pub broken_share: f64,
    /// Game moves a battle lasts unless the scenario says otherwise.
    pub game_moves: u32,
}

/// `rules.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesData {
    /// The tray.
    pub stand: StandSize,
    /// The clock.
    pub clock: ClockData,
    /// Contact.
    pub contact: ContactData,
    /// Melee.
    pub melee: MeleeData,
    /// Deployment.
    pub deployment: DeploymentData,
    /// Squares.
    pub square: SquareData,
    /// Terrain.
    pub terrain: TerrainData,
    /// Victory.
    pub victory: VictoryData,
}

/// All the tables.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Data {
    /// The stand types, in file order.
    pub troops: Vec<Troop>,
    /// The missiles.
    pub weapons: Vec<Weapon>,
    /// Killing power.
    pub killing: Killing,
    /// Everything else.
    pub rules: RulesData,
}

impl Data {
    /// The embedded tables.
    pub fn embedded() -> Result<Data, Diagnostics> {
        let sources: Vec<Source> = EMBEDDED.iter().map(|(n, t)| Source::new(*n, *t)).collect();
        Data::from_sources(&sources)
    }

    /// Tables from the three files, in the order of [`EMBEDDED`].
    pub fn from_sources(sources: &[Source]) -> Result<Data, Diagnostics> {
        let mut all = Diagnostics(Vec::new());
        if sources.len() != EMBEDDED.len() {
            all.0.push(tabletop::Diagnostic::whole_file(
                "freemove data",
                format!("expected {} data files, got {}", EMBEDDED.len(), sources.len()),
            ));
            return Err(all);
        }
        let troops = read_whole(&sources[0], &mut all, validate_troops);
        let missiles = read_whole(&sources[1], &mut all, validate_missiles);
        let rules = read_whole(&sources[2], &mut all, validate_rules);
        match (troops, missiles, rules) {
            (Some(t), Some(m), Some(r)) if all.is_empty() => {
                Ok(Data { troops: t.troop, weapons: m.weapon, killing: m.killing, rules: r })
            }
            _ => Err(all),
        }
    }

    /// The stand type with this ID.
    pub fn troop(&self, id: &str) -> Option<usize> {
        self.troops.iter().position(|t| t.id == id)
    }

    /// The weapon of this kind.
    pub fn weapon(&self, kind: WeaponKind) -> Option<&Weapon> {
        self.weapons.iter().find(|w| w.id == kind)
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
        if x.points == 0 || x.points > 100 {
            p.error(("troop", i, "points"), "a stand has 1 to 100 points");
        }
        if !positive(x.normal) || x.normal > 100.0 {
            p.error(("troop", i, "normal"), "a move length is a positive number of inches");
        }
        if !positive(x.column) || x.column < x.normal || x.column > 100.0 {
            p.error(("troop", i, "column"), "the column move is at least the normal move");
        }
        if x.fire_and_charge && x.mounted {
            p.error(("troop", i, "fire_and_charge"), "only foot may Fire and Charge");
        }
    }
    if t.troop.is_empty() {
        p.error("troop", "at least one stand type");
    }
}

fn validate_kill(k: &Kill, path: &str, p: &mut Problems<'_>) {
    match k {
        Kill::Auto(s) if s == "auto" => {}
        Kill::Auto(s) => p.error(path, format!("expected \"auto\" or a list of faces, not '{s}'")),
        Kill::Faces(f) => {
            if f.is_empty() || f.iter().any(|x| !(1..=6).contains(x)) {
                p.error(path, "faces of a d6, 1 to 6, at least one");
            }
        }
    }
}

fn validate_missiles(m: &RawMissiles, p: &mut Problems<'_>) {
    for (i, w) in m.weapon.iter().enumerate() {
        if w.id == WeaponKind::None {
            p.error(("weapon", i, "id"), "a weapon is javelin or bow");
        }
        if m.weapon[..i].iter().any(|y| y.id == w.id) {
            p.error(("weapon", i, "id"), "listed twice");
        }
        if !positive(w.range) || w.range > 100.0 {
            p.error(("weapon", i, "range"), "a range is a positive number of inches");
        }
    }
    for kind in [WeaponKind::Javelin, WeaponKind::Bow] {
        if !m.weapon.iter().any(|w| w.id == kind) {
            p.error("weapon", format!("the {kind:?} is missing").to_lowercase());
        }
    }
    let k = &m.killing;
    validate_kill(&k.light_front, "killing.light_front", p);
    validate_kill(&k.heavy_front, "killing.heavy_front", p);
    validate_kill(&k.light_flank, "killing.light_flank", p);
    validate_kill(&k.heavy_flank, "killing.heavy_flank", p);
    validate_kill(&k.light_cover, "killing.light_cover", p);
    validate_kill(&k.heavy_cover, "killing.heavy_cover", p);
}

fn validate_rules(r: &RulesData, p: &mut Problems<'_>) {
    if !positive(r.stand.width) || r.stand.width > 20.0 {
        p.error("stand.width", "a positive number of inches");
    }
    if !positive(r.stand.depth) || r.stand.depth > 20.0 {
        p.error("stand.depth", "a positive number of inches");
    }
    if r.clock.handling_ms == 0 || r.clock.handling_ms > 600_000 {
        p.error("clock.handling_ms", "1 ms to 10 minutes");
    }
    if r.clock.round_ms == 0 {
        p.error("clock.round_ms", "at least 1 ms");
    }
    if r.clock.minimum_ms == 0 {
        p.error("clock.minimum_ms", "at least 1 ms");
    }
    if r.clock.stages.windows(2).any(|w| w[0] >= w[1])
        || r.clock.stages.iter().any(|s| !(*s > 0.0 && *s < 1.0))
    {
        p.error("clock.stages", "rising shares between 0 and 1");
    }
    if !positive(r.contact.epsilon) || r.contact.epsilon > 1.0 {
        p.error("contact.epsilon", "a small positive distance");
    }
    if !(r.contact.support_degrees.is_finite() && (0.0..=90.0).contains(&r.contact.support_degrees))
    {
        p.error("contact.support_degrees", "0 to 90 degrees");
    }
    if !(r.contact.support_overlap > 0.0 && r.contact.support_overlap <= 1.0) {
        p.error("contact.support_overlap", "a share above 0, at most 1");
    }
    if r.melee.defensive_halves < 2 {
        p.error("melee.defensive_halves", "at least 2 (no bonus)");
    }
    if r.melee.shock_points == 0 {
        p.error("melee.shock_points", "at least 1");
    }
    if r.melee.pull_out_percent > 100 {
        p.error("melee.pull_out_percent", "at most 100");
    }
    if r.melee.retreat_moves == 0 || r.melee.retreat_moves > 20 {
        p.error("melee.retreat_moves", "1 to 20");
    }
    if r.melee.pull_out_moves == 0 || r.melee.pull_out_moves > 20 {
        p.error("melee.pull_out_moves", "1 to 20");
    }
    if r.melee.recovery_moves > 20 {
        p.error("melee.recovery_moves", "at most 20");
    }
    if r.melee.bonus_chain_limit == 0 || r.melee.bonus_chain_limit > 1000 {
        p.error("melee.bonus_chain_limit", "1 to 1000");
    }
    if !(r.deployment.depth.is_finite() && r.deployment.depth > 0.0) {
        p.error("deployment.depth", "a positive number of inches");
    }
    if r.square.minimum_stands < 2 || r.square.minimum_stands > 64 {
        p.error("square.minimum_stands", "2 to 64");
    }
    if !(r.terrain.broken_cost.is_finite() && r.terrain.broken_cost >= 1.0) {
        p.error("terrain.broken_cost", "at least 1");
    }
    if !(r.terrain.wall_foot.is_finite() && (0.0..=1.0).contains(&r.terrain.wall_foot)) {
        p.error("terrain.wall_foot", "a share of a move, 0 to 1");
    }
    if !(r.terrain.wall_horse.is_finite() && (0.0..=1.0).contains(&r.terrain.wall_horse)) {
        p.error("terrain.wall_horse", "a share of a move, 0 to 1");
    }
    if r.terrain.house_stands == 0 {
        p.error("terrain.house_stands", "at least 1");
    }
    if !(r.victory.broken_share >= 0.0 && r.victory.broken_share < 1.0) {
        p.error("victory.broken_share", "a share from 0 up to 1");
    }
    if r.victory.game_moves == 0 || r.victory.game_moves > 1000 {
        p.error("victory.game_moves", "1 to 1000");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_tables_load() {
        let d = Data::embedded().expect("embedded data loads");
        assert_eq!(d.troops.len(), 5);
        assert_eq!(d.troops[d.troop("heavy_infantry").unwrap()].points, 8);
    }

    #[test]
    fn a_bad_table_is_located() {
        let mut sources: Vec<Source> = EMBEDDED.iter().map(|(n, t)| Source::new(*n, *t)).collect();
        sources[1].text = sources[1].text.replace("heavy_cover = [3, 6]", "heavy_cover = [3, 9]");
        let e = Data::from_sources(&sources).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("missiles.toml") && text.contains("killing.heavy_cover"), "{text}");
    }
}
