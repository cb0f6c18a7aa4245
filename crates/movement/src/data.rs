//! The chapter's numbers, kept in `data/*.toml` and embedded at build time: T1 rates, T2 facing
//! costs, T3 terrain, T4 attrition, T5 exhaustion, T6 checks, stand sizes, command ranges and
//! tolerances. Each file is deserialized into typed tables (unknown fields refused) and
//! validated; every problem is reported with its file, line and column.

use crate::model::{Armor, Discipline, MoraleState, PieceClass, TroopType};
use serde::Deserialize;
use std::collections::BTreeMap;
use tabletop::diagnostics::{Diagnostic, Diagnostics, FieldPath, Source, TomlDoc};

/// The embedded data files: (file name, text).
pub const EMBEDDED: [(&str, &str); 6] = [
    ("crates/movement/data/rates.toml", include_str!("../data/rates.toml")),
    ("crates/movement/data/facing.toml", include_str!("../data/facing.toml")),
    ("crates/movement/data/terrain.toml", include_str!("../data/terrain.toml")),
    ("crates/movement/data/forced_march.toml", include_str!("../data/forced_march.toml")),
    ("crates/movement/data/checks.toml", include_str!("../data/checks.toml")),
    ("crates/movement/data/geometry.toml", include_str!("../data/geometry.toml")),
];

/// One value per armor class.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByArmor {
    /// Unarmored.
    pub unarmored: f64,
    /// Light armor.
    pub light: f64,
    /// Medium armor.
    pub medium: f64,
    /// Heavy armor.
    pub heavy: f64,
}

impl ByArmor {
    /// The value for an armor class.
    pub fn get(&self, a: Armor) -> f64 {
        match a {
            Armor::Unarmored => self.unarmored,
            Armor::Light => self.light,
            Armor::Medium => self.medium,
            Armor::Heavy => self.heavy,
        }
    }
}

/// One value per discipline level.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByDiscipline<T> {
    /// Excellent.
    pub excellent: T,
    /// Good.
    pub good: T,
    /// Poor.
    pub poor: T,
    /// Wild.
    pub wild: T,
}

impl<T: Copy> ByDiscipline<T> {
    /// The value for a discipline level.
    pub fn get(&self, d: Discipline) -> T {
        match d {
            Discipline::Excellent => self.excellent,
            Discipline::Good => self.good,
            Discipline::Poor => self.poor,
            Discipline::Wild => self.wild,
        }
    }
}

/// One value per morale state.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByMorale<T> {
    /// Firm.
    pub firm: T,
    /// Checked.
    pub checked: T,
    /// Shaken.
    pub shaken: T,
    /// Broken.
    pub broken: T,
}

impl<T: Copy> ByMorale<T> {
    /// The value for a morale state.
    pub fn get(&self, m: MoraleState) -> T {
        match m {
            MoraleState::Firm => self.firm,
            MoraleState::Checked => self.checked,
            MoraleState::Shaken => self.shaken,
            MoraleState::Broken => self.broken,
        }
    }
}

/// Limbered artillery rates (NIS).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArtilleryRates {
    /// Light pieces.
    pub light: f64,
    /// Heavy pieces.
    pub heavy: f64,
    /// Siege engines.
    pub siege: f64,
}

impl ArtilleryRates {
    /// The rate of a piece class.
    pub fn get(&self, p: PieceClass) -> f64 {
        match p {
            PieceClass::Light => self.light,
            PieceClass::Heavy => self.heavy,
            PieceClass::Siege => self.siege,
        }
    }
}

/// Allowance multipliers.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Multipliers {
    /// The charge bonus (4/3).
    pub charge: f64,
    /// The forced march (2).
    pub forced_march: f64,
    /// The circle (1/3).
    pub circle: f64,
}

/// `data/rates.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rates {
    /// T1 rows.
    pub humanoid: BTreeMap<TroopType, ByArmor>,
    /// Limbered artillery.
    pub artillery: ArtilleryRates,
    /// Allowance multipliers.
    pub multipliers: Multipliers,
}

/// Direction factors (MOV-DIR).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DirectionFactors {
    /// Forward sector.
    pub forward: f64,
    /// Flank sectors.
    pub sideways: f64,
    /// Rear sector.
    pub backward: f64,
    /// A backward wheel.
    pub backward_wheel: f64,
}

/// `data/facing.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FacingData {
    /// T2.
    pub cost: ByDiscipline<f64>,
    /// Direction factors.
    pub direction: DirectionFactors,
}

/// How linear obstacles are priced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ObstacleModel {
    /// Flat inches once per obstacle (default).
    Surcharge,
    /// The WRG fraction of the allowance.
    WrgFraction,
}

/// T3 multipliers.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainMultipliers {
    /// Firm ground.
    pub firm: f64,
    /// Muddy ground (marsh areas).
    pub mud: f64,
    /// Brush (rough areas).
    pub brush: f64,
    /// Light woods.
    pub light_woods: f64,
    /// Villages.
    pub village: f64,
    /// A ford across a river.
    pub ford: f64,
    /// Paved road.
    pub paved_road: f64,
    /// Dirt road in dry weather.
    pub dirt_road_dry: f64,
    /// Dirt road in wet weather.
    pub dirt_road_wet: f64,
    /// A stream's bed.
    pub stream: f64,
    /// Dense trees for those allowed in.
    pub dense_trees_open: f64,
    /// The uphill factor.
    pub uphill: f64,
}

/// Slope detection.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slope {
    /// Rise per inch above which a piece is uphill.
    pub uphill_threshold: f64,
}

/// Linear-obstacle surcharges in inches.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Surcharges {
    /// Hedge.
    pub hedge: f64,
    /// Field wall.
    pub wall: f64,
    /// Stream.
    pub stream: f64,
}

/// The WRG fractions of the allowance.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrgFraction {
    /// Foot.
    pub foot: f64,
    /// Mounted.
    pub mounted: f64,
}

/// `data/terrain.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainData {
    /// Which obstacle model is in force.
    pub obstacle_model: ObstacleModel,
    /// Multipliers.
    pub multiplier: TerrainMultipliers,
    /// Slope detection.
    pub slope: Slope,
    /// Surcharges.
    pub surcharge: Surcharges,
    /// WRG fractions.
    pub wrg_fraction: WrgFraction,
}

/// What attrition may do to a stand's last EP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AttritionFloor {
    /// Ordinary EP loss: a stand may reach 0 and be removed.
    Ordinary,
    /// Never below 1 EP.
    FloorOne,
}

/// T4.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attrition {
    /// Excellent.
    pub excellent: i32,
    /// Good.
    pub good: i32,
    /// Poor.
    pub poor: i32,
    /// Wild.
    pub wild: i32,
    /// Leaders and characters.
    pub leader: i32,
    /// The floor rule.
    pub floor: AttritionFloor,
}

impl Attrition {
    /// EP lost per stand for a discipline level.
    pub fn get(&self, d: Discipline) -> i32 {
        ByDiscipline {
            excellent: self.excellent,
            good: self.good,
            poor: self.poor,
            wild: self.wild,
        }
        .get(d)
    }
}

/// Which morale states the two exhaustion rows belong to (MOV-R-26).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExhaustionRows {
    /// Firm 9–10, checked 7–10; shaken and Broken may not forced-march.
    FirmChecked,
    /// Firm and checked 9–10, shaken and Broken 7–10.
    ShakenBroken,
}

/// T5 thresholds.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exhaustion {
    /// Exhausted on this roll or higher (first row).
    pub first_row: u8,
    /// Exhausted on this roll or higher (second row).
    pub second_row: u8,
}

/// `data/forced_march.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForcedMarchData {
    /// T4.
    pub attrition: Attrition,
    /// The row split of T5.
    pub exhaustion_rows: ExhaustionRows,
    /// T5.
    pub exhaustion: Exhaustion,
}

impl ForcedMarchData {
    /// The lowest d10 roll that exhausts a unit in this morale state, or `None` when the state
    /// may not forced-march at all.
    pub fn exhaustion_from(&self, m: MoraleState) -> Option<u8> {
        let (first, second) = (self.exhaustion.first_row, self.exhaustion.second_row);
        match (self.exhaustion_rows, m) {
            (ExhaustionRows::FirmChecked, MoraleState::Firm) => Some(first),
            (ExhaustionRows::FirmChecked, MoraleState::Checked) => Some(second),
            (ExhaustionRows::FirmChecked, _) => None,
            (ExhaustionRows::ShakenBroken, MoraleState::Firm | MoraleState::Checked) => Some(first),
            (ExhaustionRows::ShakenBroken, _) => Some(second),
        }
    }
}

/// The T6 morale check.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleCheckData {
    /// Pass when the total reaches this.
    pub target: i32,
    /// The depth bonus (MOV-DEPTH-05: flat).
    pub depth_bonus: i32,
    /// Modifier by morale state.
    pub state: ByMorale<i32>,
    /// Modifier by discipline.
    pub discipline: ByDiscipline<i32>,
}

/// `data/checks.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChecksData {
    /// Discipline check targets.
    pub discipline: ByDiscipline<u8>,
    /// The morale check.
    pub morale: MoraleCheckData,
}

/// Stand sizes, width × depth.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandSizes {
    /// Foot.
    pub foot: [f64; 2],
    /// Mounted.
    pub mounted: [f64; 2],
    /// Artillery and siege.
    pub artillery: [f64; 2],
    /// Leaders and characters.
    pub leader: [f64; 2],
}

/// Open-order gaps.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenOrder {
    /// The source's 2" limit.
    pub max_gap: f64,
    /// The gap used when forming open order.
    pub default_gap: f64,
}

/// Command ranges.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandRange {
    /// A brigade leader's.
    pub brigade: f64,
    /// The army leader's.
    pub army: f64,
}

/// Regroup distances.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegroupData {
    /// Separation distance.
    pub separation: f64,
    /// Cluster link.
    pub cluster_link: f64,
    /// Reached distance.
    pub reached: f64,
}

/// Tolerances.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tolerance {
    /// Cost tolerance.
    pub cost: f64,
    /// Contact tolerance.
    pub contact: f64,
    /// Repacking shift step.
    pub shift_step: f64,
}

/// Wheel measurement.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WheelData {
    /// The literal "farthest stand" reading.
    pub rear_corner: bool,
    /// Chords per 90° when costing terrain along an arc.
    pub chords_per_right_angle: u32,
}

/// Endurance defaults.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnduranceData {
    /// Default EP per stand.
    pub default: i32,
}

/// `data/geometry.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeometryData {
    /// Stand sizes.
    pub stand: StandSizes,
    /// Open order.
    pub open_order: OpenOrder,
    /// Command ranges.
    pub command_range: CommandRange,
    /// Regrouping.
    pub regroup: RegroupData,
    /// Tolerances.
    pub tolerance: Tolerance,
    /// Wheels.
    pub wheel: WheelData,
    /// Endurance.
    pub endurance: EnduranceData,
}

/// All the chapter's tables.
#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    /// T1 and artillery.
    pub rates: Rates,
    /// T2 and direction.
    pub facing: FacingData,
    /// T3.
    pub terrain: TerrainData,
    /// T4 and T5.
    pub forced_march: ForcedMarchData,
    /// T6.
    pub checks: ChecksData,
    /// Sizes, ranges and tolerances.
    pub geometry: GeometryData,
}

/// Deserializes one whole TOML document through tabletop's diagnostics: every problem (syntax,
/// unknown field, wrong type) comes back located at its line and column.
pub fn parse_toml<T: serde::de::DeserializeOwned>(source: &Source) -> Result<T, Diagnostics> {
    let doc = TomlDoc::parse(source)?;
    let mut problems = doc.problems();
    let value = doc.section::<T>(FieldPath::root(), &mut problems);
    problems.finish()?;
    value.ok_or_else(|| {
        Diagnostic::whole_file(source.name.clone(), "the file could not be read").into()
    })
}

struct Check {
    doc: TomlDoc,
    problems: Vec<Diagnostic>,
}

impl Check {
    fn new(source: &Source) -> Check {
        Check {
            doc: TomlDoc::parse(source).unwrap_or_else(|_| {
                TomlDoc::parse(&Source::new(source.name.clone(), ""))
                    .expect("an empty document parses")
            }),
            problems: Vec::new(),
        }
    }
    fn fail(&mut self, path: &str, message: String) {
        let p = self.doc.problems();
        self.problems.push(p.diagnostic(&FieldPath::from(path), message));
    }
    fn positive(&mut self, path: &str, v: f64) {
        if !(v.is_finite() && v > 0.0) {
            self.fail(path, format!("must be a positive number, found {v}"));
        }
    }
    fn non_negative(&mut self, path: &str, v: f64) {
        if !(v.is_finite() && v >= 0.0) {
            self.fail(path, format!("must be zero or more, found {v}"));
        }
    }
    fn d10(&mut self, path: &str, v: u8) {
        if !(1..=10).contains(&v) {
            self.fail(path, format!("must be a d10 face 1..10, found {v}"));
        }
    }
}

impl Data {
    /// The embedded tables, validated. They are part of the program, so a failure here is a
    /// build defect; tests pin that they load.
    pub fn embedded() -> Result<Data, Diagnostics> {
        let sources: Vec<Source> = EMBEDDED.iter().map(|(n, t)| Source::new(*n, *t)).collect();
        Data::from_sources(&sources)
    }

    /// Loads the six tables from sources in the order of [`EMBEDDED`], reporting every problem
    /// of every file at once.
    pub fn from_sources(sources: &[Source]) -> Result<Data, Diagnostics> {
        let mut problems = Vec::new();
        if sources.len() != EMBEDDED.len() {
            return Err(Diagnostics(vec![Diagnostic {
                file: String::new(),
                line: 0,
                column: 0,
                field: String::new(),
                message: format!("expected {} data files", EMBEDDED.len()),
            }]));
        }
        fn take<T: serde::de::DeserializeOwned>(s: &Source, p: &mut Vec<Diagnostic>) -> Option<T> {
            match parse_toml::<T>(s) {
                Ok(t) => Some(t),
                Err(d) => {
                    p.extend(d.0);
                    None
                }
            }
        }
        let rates: Option<Rates> = take(&sources[0], &mut problems);
        let facing: Option<FacingData> = take(&sources[1], &mut problems);
        let terrain: Option<TerrainData> = take(&sources[2], &mut problems);
        let fm: Option<ForcedMarchData> = take(&sources[3], &mut problems);
        let checks: Option<ChecksData> = take(&sources[4], &mut problems);
        let geometry: Option<GeometryData> = take(&sources[5], &mut problems);
        if let Some(r) = &rates {
            let mut c = Check::new(&sources[0]);
            for t in TroopType::HUMANOID {
                match r.humanoid.get(&t) {
                    None => c.fail("humanoid", format!("missing the row for {}", t.name())),
                    Some(row) => {
                        for (a, v) in [
                            ("unarmored", row.unarmored),
                            ("light", row.light),
                            ("medium", row.medium),
                            ("heavy", row.heavy),
                        ] {
                            c.positive(&format!("humanoid.{}.{a}", t.name()), v);
                        }
                    }
                }
            }
            for t in r.humanoid.keys() {
                if !TroopType::HUMANOID.contains(t) {
                    c.fail(
                        &format!("humanoid.{}", t.name()),
                        "only the six humanoid types have T1 rows".into(),
                    );
                }
            }
            c.positive("artillery.light", r.artillery.light);
            c.positive("artillery.heavy", r.artillery.heavy);
            c.positive("artillery.siege", r.artillery.siege);
            c.positive("multipliers.charge", r.multipliers.charge);
            c.positive("multipliers.forced_march", r.multipliers.forced_march);
            c.positive("multipliers.circle", r.multipliers.circle);
            problems.extend(c.problems);
        }
        if let Some(f) = &facing {
            let mut c = Check::new(&sources[1]);
            for (k, v) in [
                ("cost.excellent", f.cost.excellent),
                ("cost.good", f.cost.good),
                ("cost.poor", f.cost.poor),
                ("cost.wild", f.cost.wild),
            ] {
                c.non_negative(k, v);
            }
            for (k, v) in [
                ("direction.forward", f.direction.forward),
                ("direction.sideways", f.direction.sideways),
                ("direction.backward", f.direction.backward),
                ("direction.backward_wheel", f.direction.backward_wheel),
            ] {
                c.positive(k, v);
            }
            problems.extend(c.problems);
        }
        if let Some(t) = &terrain {
            let mut c = Check::new(&sources[2]);
            let m = &t.multiplier;
            for (k, v) in [
                ("multiplier.firm", m.firm),
                ("multiplier.mud", m.mud),
                ("multiplier.brush", m.brush),
                ("multiplier.light_woods", m.light_woods),
                ("multiplier.village", m.village),
                ("multiplier.ford", m.ford),
                ("multiplier.paved_road", m.paved_road),
                ("multiplier.dirt_road_dry", m.dirt_road_dry),
                ("multiplier.dirt_road_wet", m.dirt_road_wet),
                ("multiplier.stream", m.stream),
                ("multiplier.dense_trees_open", m.dense_trees_open),
                ("multiplier.uphill", m.uphill),
            ] {
                c.positive(k, v);
            }
            c.non_negative("slope.uphill_threshold", t.slope.uphill_threshold);
            c.non_negative("surcharge.hedge", t.surcharge.hedge);
            c.non_negative("surcharge.wall", t.surcharge.wall);
            c.non_negative("surcharge.stream", t.surcharge.stream);
            for (k, v) in [
                ("wrg_fraction.foot", t.wrg_fraction.foot),
                ("wrg_fraction.mounted", t.wrg_fraction.mounted),
            ] {
                if !(0.0..=1.0).contains(&v) {
                    c.fail(k, format!("must be a fraction between 0 and 1, found {v}"));
                }
            }
            problems.extend(c.problems);
        }
        if let Some(f) = &fm {
            let mut c = Check::new(&sources[3]);
            for (k, v) in [
                ("attrition.excellent", f.attrition.excellent),
                ("attrition.good", f.attrition.good),
                ("attrition.poor", f.attrition.poor),
                ("attrition.wild", f.attrition.wild),
                ("attrition.leader", f.attrition.leader),
            ] {
                if v < 0 {
                    c.fail(k, format!("must be zero or more, found {v}"));
                }
            }
            c.d10("exhaustion.first_row", f.exhaustion.first_row);
            c.d10("exhaustion.second_row", f.exhaustion.second_row);
            problems.extend(c.problems);
        }
        if let Some(ch) = &checks {
            let mut c = Check::new(&sources[4]);
            for (k, v) in [
                ("discipline.excellent", ch.discipline.excellent),
                ("discipline.good", ch.discipline.good),
                ("discipline.poor", ch.discipline.poor),
                ("discipline.wild", ch.discipline.wild),
            ] {
                c.d10(k, v);
            }
            problems.extend(c.problems);
        }
        if let Some(g) = &geometry {
            let mut c = Check::new(&sources[5]);
            for (k, v) in [
                ("stand.foot", g.stand.foot),
                ("stand.mounted", g.stand.mounted),
                ("stand.artillery", g.stand.artillery),
                ("stand.leader", g.stand.leader),
            ] {
                c.positive(k, v[0]);
                c.positive(k, v[1]);
            }
            c.positive("open_order.max_gap", g.open_order.max_gap);
            if !(g.open_order.default_gap >= 0.0
                && g.open_order.default_gap <= g.open_order.max_gap)
            {
                c.fail("open_order.default_gap", "must lie between 0 and max_gap".into());
            }
            c.positive("command_range.brigade", g.command_range.brigade);
            c.positive("command_range.army", g.command_range.army);
            c.positive("regroup.separation", g.regroup.separation);
            c.positive("regroup.cluster_link", g.regroup.cluster_link);
            c.positive("regroup.reached", g.regroup.reached);
            c.non_negative("tolerance.cost", g.tolerance.cost);
            c.non_negative("tolerance.contact", g.tolerance.contact);
            c.positive("tolerance.shift_step", g.tolerance.shift_step);
            if g.wheel.chords_per_right_angle == 0 {
                c.fail("wheel.chords_per_right_angle", "must be at least 1".into());
            }
            if g.endurance.default <= 0 {
                c.fail("endurance.default", "must be at least 1".into());
            }
            problems.extend(c.problems);
        }
        if !problems.is_empty() {
            return Err(Diagnostics(problems));
        }
        match (rates, facing, terrain, fm, checks, geometry) {
            (
                Some(rates),
                Some(facing),
                Some(terrain),
                Some(forced_march),
                Some(checks),
                Some(geometry),
            ) => Ok(Data { rates, facing, terrain, forced_march, checks, geometry }),
            _ => Err(Diagnostics(vec![])),
        }
    }
}
