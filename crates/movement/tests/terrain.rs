//! MOV-TER: terrain effects.
mod common;
use common::*;
use movement::data::ObstacleModel;
use movement::{Movement, Weather};
use tabletop::rules::RuleSet;

const RIVER_FORD: &str = r#"
[[line]]
name = "River"
kind = "river"
width = 3.0
points = [[0.0, 20.0], [60.0, 20.0]]

[[line.crossing]]
kind = "ford"
at = 30.0
width = 4.0
"#;

fn paved_ns(x: f64, from: f64) -> String {
    format!(
        "\n[[line]]\nname = \"Road\"\nkind = \"paved_road\"\nwidth = 2.0\npoints = [[{x}, {from}], [{x}, 60.0]]\n"
    )
}

fn area(kind: &str, x0: f64, y0: f64, x1: f64, y1: f64) -> String {
    format!(
        "\n[[area]]\nname = \"{kind}\"\nkind = \"{kind}\"\npoints = [[{x0}, {y0}], [{x1}, {y0}], [{x1}, {y1}], [{x0}, {y1}]]\n"
    )
}

const HILL: &str = r#"
[[area]]
name = "Hill"
kind = "hill"
height = 1.0
points = [[0.0, 30.0], [60.0, 30.0], [60.0, 60.0], [0.0, 60.0]]
"#;

/// MOV-TER-01
#[test]
fn mov_ter_01_cost_is_the_sum_over_terrain_pieces_with_the_worst_stand_setting_the_pace() {
    // 2" firm then 3" of mud: 2 + 6.
    let s = state(&scenario_text(
        &(area("marsh", 0.0, 12.0, 60.0, 40.0) + &li("A", 30.0, 10.5) + &blue_far()),
    ));
    close(cost(&s, 0, &[adv(30.0, 15.5)]).unwrap(), 8.0);
    // A line half on a road gets nothing from it; a column on the road gets the bonus.
    let line = scenario_text(
        &(paved_ns(30.0, 0.0)
            + &unit(
                "Line",
                "red",
                "light_infantry",
                "light",
                "good",
                "line",
                2,
                2,
                30.75,
                10.0,
                0.0,
            )
            + &blue_far()),
    );
    close(cost(&state(&line), 0, &[adv(30.75, 16.0)]).unwrap(), 6.0);
    let column = scenario_text(
        &(paved_ns(30.0, 0.0)
            + &unit(
                "Col",
                "red",
                "light_infantry",
                "light",
                "good",
                "column",
                1,
                2,
                30.0,
                10.0,
                0.0,
            )
            + &blue_far()),
    );
    close(cost(&state(&column), 0, &[adv(30.0, 16.0)]).unwrap(), 3.0);
}

/// MOV-TER-02
#[test]
fn mov_ter_02_firm_ground_costs_one() {
    close(
        cost(&state(&scenario_text(&(li("A", 30.0, 10.0) + &blue_far()))), 0, &[adv(30.0, 15.0)])
            .unwrap(),
        5.0,
    );
}

/// MOV-TER-03
#[test]
fn mov_ter_03_mud_costs_double() {
    let s = state(&scenario_text(
        &(area("marsh", 0.0, 0.0, 60.0, 40.0) + &li("A", 30.0, 10.0) + &blue_far()),
    ));
    close(cost(&s, 0, &[adv(30.0, 13.0)]).unwrap(), 6.0);
}

/// MOV-TER-04
#[test]
fn mov_ter_04_uphill_doubles_the_ground_underfoot() {
    // Firm: centre 28 → 33 crosses the 1" slope band: 2 + 2 + 2 = 6.
    let s = state(&scenario_text(&(HILL.to_string() + &li("A", 30.0, 28.5) + &blue_far())));
    close(cost(&s, 0, &[adv(30.0, 33.5)]).unwrap(), 6.0);
    // Mud uphill ×4: centre 29.5 → 31.5: 0.5×2 + 1×4 + 0.5×2.
    let s = state(&scenario_text(
        &(HILL.to_string()
            + &area("marsh", 20.0, 29.0, 40.0, 32.0)
            + &li("A", 30.0, 30.0)
            + &blue_far()),
    ));
    close(cost(&s, 0, &[adv(30.0, 32.0)]).unwrap(), 6.0);
    // Paved road uphill ×1: centre 29 → 32: 0.5 + 1 + 0.5.
    let s = state(&scenario_text(
        &(HILL.to_string() + &paved_ns(30.0, 0.0) + &li("A", 30.0, 29.5) + &blue_far()),
    ));
    close(cost(&s, 0, &[adv(30.0, 32.5)]).unwrap(), 2.0);
}

/// MOV-TER-05
#[test]
fn mov_ter_05_level_or_downhill_costs_the_ground_underfoot() {
    // Facing south on the plateau, walking down the slope: centre 32 → 28, all ×1.
    let down = unit("A", "red", "light_infantry", "light", "good", "line", 1, 1, 30.0, 31.5, 180.0);
    let s = state(&scenario_text(&(HILL.to_string() + &down + &blue_far())));
    close(cost(&s, 0, &[adv(30.0, 27.5)]).unwrap(), 4.0);
    // Along the plateau: ×1.
    let level = unit("A", "red", "light_infantry", "light", "good", "line", 1, 1, 30.0, 40.0, 90.0);
    let s = state(&scenario_text(&(HILL.to_string() + &level + &blue_far())));
    close(cost(&s, 0, &[adv(35.0, 40.0)]).unwrap(), 5.0);
}

/// MOV-TER-06
#[test]
fn mov_ter_06_rivers_only_at_fords_and_bridges() {
    let text = scenario_text(&(RIVER_FORD.to_string() + &li("A", 10.0, 18.0) + &blue_far()));
    let mut g = game(&text);
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(10.0, 24.0)])), "MOV-TER-06");
    // A line wider than the 4" ford may not cross; a column may.
    let wide = scenario_text(
        &(RIVER_FORD.to_string()
            + &unit(
                "Line",
                "red",
                "light_infantry",
                "light",
                "good",
                "line",
                4,
                4,
                30.0,
                18.0,
                0.0,
            )
            + &blue_far()),
    );
    assert_eq!(cost(&state(&wide), 0, &[adv(30.0, 24.0)]).unwrap_err(), "MOV-TER-06");
    let narrow = scenario_text(
        &(RIVER_FORD.to_string()
            + &unit(
                "Col",
                "red",
                "light_infantry",
                "light",
                "good",
                "column",
                1,
                2,
                30.0,
                18.0,
                0.0,
            )
            + &blue_far()),
    );
    assert!(cost(&state(&narrow), 0, &[adv(30.0, 24.0)]).is_ok());
    // A unit may end its move in the ford.
    assert!(cost(&state(&narrow), 0, &[adv(30.0, 20.0)]).is_ok());
}

/// MOV-TER-07
#[test]
fn mov_ter_07_a_ford_costs_double_across_the_river() {
    let s = state(&scenario_text(&(RIVER_FORD.to_string() + &li("A", 30.0, 19.0) + &blue_far())));
    // The stand's centre crosses the 3" river from y 18.5 to 21.5.
    close(cost(&s, 0, &[adv(30.0, 22.0)]).unwrap(), 6.0);
}

/// MOV-TER-08
#[test]
fn mov_ter_08_a_bridge_costs_as_the_road_it_carries() {
    let bridge = RIVER_FORD.replace("kind = \"ford\"", "kind = \"bridge\"");
    let s = state(&scenario_text(
        &(bridge + &paved_ns(30.0, 0.0) + &li("A", 30.0, 19.0) + &blue_far()),
    ));
    close(cost(&s, 0, &[adv(30.0, 22.0)]).unwrap(), 1.5);
}

/// MOV-TER-09
#[test]
fn mov_ter_09_a_paved_road_costs_half() {
    let s = state(&scenario_text(&(paved_ns(30.0, 0.0) + &li("A", 30.0, 10.0) + &blue_far())));
    close(cost(&s, 0, &[adv(30.0, 16.0)]).unwrap(), 3.0);
    close(cost(&s, 0, &[adv(30.0, 34.0)]).unwrap(), 12.0);
}

/// MOV-TER-10
#[test]
fn mov_ter_10_a_dirt_road_is_half_when_dry_and_mud_when_wet() {
    let dirt = paved_ns(30.0, 0.0).replace("paved_road", "dirt_road");
    let dry = scenario_text(&(dirt.clone() + &li("A", 30.0, 10.0) + &blue_far()));
    close(cost(&state(&dry), 0, &[adv(30.0, 16.0)]).unwrap(), 3.0);
    let wet = dry.replace("turns = 4", "turns = 4\nweather = \"wet\"");
    let st = state(&wet);
    assert_eq!(st.weather, Weather::Wet);
    close(cost(&st, 0, &[adv(30.0, 16.0)]).unwrap(), 12.0);
}

/// MOV-TER-11
#[test]
fn mov_ter_11_dense_trees_are_closed_to_formed_troops() {
    let trees = area("dense_trees", 20.0, 20.0, 40.0, 40.0);
    let formed = scenario_text(&(trees.clone() + &li("A", 30.0, 18.0) + &blue_far()));
    let mut g = game(&formed);
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(30.0, 22.0)])), "MOV-TER-11");
    // Open-order skirmishers go in at ×2: centre 19 → 23 = 1 + 3×2.
    let skirm = r#"
[[unit]]
name = "Skirmishers"
side = "red"
type = "light_infantry"
armor = "light"
discipline = "good"
formation = "open_order"
skirmisher = true
files = 1
stands = 1
position = [30.0, 19.5]
facing = 0.0
"#;
    let s = state(&scenario_text(&(trees.clone() + skirm + &blue_far())));
    close(cost(&s, 0, &[adv(30.0, 23.5)]).unwrap(), 7.0);
    // So does a lone leader.
    let leader = r#"
[[unit]]
name = "Leader"
side = "red"
type = "light_cavalry"
armor = "light"
discipline = "excellent"
formation = "line"
leader = true
position = [30.0, 19.5]
facing = 0.0
"#;
    let s = state(&scenario_text(&(trees + leader + &blue_far())));
    close(cost(&s, 0, &[adv(30.0, 23.5)]).unwrap(), 7.0);
}

/// MOV-TER-12
#[test]
fn mov_ter_12_brush_woods_hedges_and_walls() {
    let brush = state(&scenario_text(
        &(area("rough", 0.0, 11.0, 60.0, 40.0) + &li("A", 30.0, 11.5) + &blue_far()),
    ));
    close(cost(&brush, 0, &[adv(30.0, 13.5)]).unwrap(), 4.0);
    let wood = state(&scenario_text(
        &(area("wood", 0.0, 11.0, 60.0, 40.0) + &li("A", 30.0, 11.5) + &blue_far()),
    ));
    close(cost(&wood, 0, &[adv(30.0, 13.5)]).unwrap(), 4.0);
    let hedge = "\n[[line]]\nname = \"Hedge\"\nkind = \"hedge\"\nwidth = 0.25\npoints = [[0.0, 14.0], [60.0, 14.0]]\n";
    // A line of four stands crosses it: +2" once, not once per stand.
    let line = scenario_text(
        &(hedge.to_string()
            + &unit(
                "Line",
                "red",
                "light_infantry",
                "light",
                "good",
                "line",
                4,
                4,
                30.0,
                12.0,
                0.0,
            )
            + &blue_far()),
    );
    close(cost(&state(&line), 0, &[adv(30.0, 16.0)]).unwrap(), 4.0 + 2.0);
    let wall = line.replace("kind = \"hedge\"", "kind = \"wall\"");
    close(cost(&state(&wall), 0, &[adv(30.0, 16.0)]).unwrap(), 4.0 + 3.0);
    // The WRG alternative: half the allowance of foot.
    let mut data = Movement::new().data;
    data.terrain.obstacle_model = ObstacleModel::WrgFraction;
    let wrg = Movement::with_data(data);
    let s = wrg.load_scenario(&tabletop::Source::new("t", line)).unwrap();
    let (st, _) = wrg.setup(&s, &mut tabletop::ScriptedDice::new([]));
    close(wrg.plan_move(&st, 0, &[adv(30.0, 16.0)], false, false).unwrap().cost, 4.0 + 6.0);
}

/// MOV-TER-13
#[test]
fn mov_ter_13_worked_example_ford_field_road() {
    // LI (12") at the river bank: 3" of ford (6), 3" of firm ground (3), 6" of paved road (3).
    let text = scenario_text(
        &(RIVER_FORD.to_string() + &paved_ns(30.0, 25.5) + &li("A", 30.0, 19.0) + &blue_far()),
    );
    let st = state(&text);
    let p = rules().plan_move(&st, 0, &[adv(30.0, 31.0)], false, false).unwrap();
    close(p.cost, 12.0);
    let by_rule =
        |r: &str| -> f64 { p.items.iter().filter(|i| i.rule.as_str() == r).map(|i| i.cost).sum() };
    close(by_rule("MOV-TER-07"), 6.0);
    close(by_rule("MOV-TER-02"), 3.0);
    close(by_rule("MOV-TER-09"), 3.0);
    let mut g = game(&text);
    // A 7th inch of road is refused.
    assert_eq!(refused(&mut g, RED, mv(0, vec![adv(30.0, 32.0)])), "MOV-GEN-01");
    let ev = ok(&mut g, RED, mv(0, vec![adv(30.0, 31.0)]));
    close(moved_cost(&ev), 12.0);
}

/// MOV-TER-14
#[test]
fn mov_ter_14_terrain_multiplies_direction_and_holds_under_forced_march() {
    // Backing 2" through mud: ×2 ×2.
    let s = state(&scenario_text(
        &(area("marsh", 0.0, 0.0, 60.0, 40.0) + &li("A", 30.0, 10.0) + &blue_far()),
    ));
    close(cost(&s, 0, &[adv(30.0, 8.0)]).unwrap(), 8.0);
    // Sideways 4" on a paved road: ×2 ×½.
    let road_ew = "\n[[line]]\nname = \"Road\"\nkind = \"paved_road\"\nwidth = 2.0\npoints = [[0.0, 10.0], [60.0, 10.0]]\n";
    let s = state(&scenario_text(&(road_ew.to_string() + &li("A", 30.0, 10.5) + &blue_far())));
    close(cost(&s, 0, &[adv(34.0, 10.5)]).unwrap(), 4.0);
    // A forced march on a paved road: 48" for 24".
    let s = state(&scenario_text(&(paved_ns(30.0, 0.0) + &li("A", 30.0, 5.5) + &blue_far())));
    let r = rules();
    close(r.plan_move(&s, 0, &[adv(30.0, 53.5)], true, false).unwrap().cost, 24.0);
    assert!(r.check(&s, RED, &forced(0, vec![adv(30.0, 53.5)])).is_ok());
    assert_eq!(
        r.check(&s, RED, &forced(0, vec![adv(30.0, 54.5)])).unwrap_err().rule.as_str(),
        "MOV-FM-08"
    );
}

/// The items of the `Moved` event among `ev`, with each item's factors as (rule, what, value).
fn moved_items(ev: &[movement::Event]) -> Vec<movement::state::CostItem> {
    ev.iter()
        .find_map(|e| match e {
            movement::Event::Moved { items, .. } => Some(items.clone()),
            _ => None,
        })
        .expect("a Moved event")
}

fn moved_rules(ev: &[movement::Event]) -> Vec<String> {
    ev.iter()
        .find_map(|e| match e {
            movement::Event::Moved { rules, .. } => {
                Some(rules.iter().map(|r| r.to_string()).collect())
            }
            _ => None,
        })
        .expect("a Moved event")
}

/// The ready scenario with its weather set and the Red General placed at `at` facing
/// `facing` degrees.
fn ford_with(weather: &str, at: [f64; 2], facing: f64) -> String {
    let text = ford_text().replace("weather = \"dry\"", &format!("weather = \"{weather}\""));
    let general = "position = [24.0, 4.0]\nfacing = 0.0";
    assert!(text.contains(general));
    text.replacen(general, &format!("position = [{}, {}]\nfacing = {facing}", at[0], at[1]), 1)
}

/// MOV-TER-09 and MOV-TER-10: a paved road costs ×½ whatever the weather and is logged as a
/// paved road; a dirt road costs ×½ dry and ×2 wet and is logged as a dirt road with its weather.
#[test]
fn mov_ter_09_a_paved_road_is_logged_as_paved_in_the_wet_and_a_dirt_road_as_dirt() {
    // The Red General on the King's Road (paved) in the rain, marching 6.5" north.
    for weather in ["dry", "wet"] {
        let mut g = game(&ford_with(weather, [34.0, 10.0], 0.0));
        let ev = ok(&mut g, RED, mv(0, vec![adv(34.0, 16.5)]));
        let items = moved_items(&ev);
        assert_eq!(items.len(), 1, "{items:?}");
        let road = &items[0].factors[0];
        assert_eq!((road.rule.as_str(), road.what.as_str()), ("MOV-TER-09", "paved road"));
        close(road.value, 0.5);
        close(items[0].cost, 3.25);
        let rules = moved_rules(&ev);
        assert!(rules.contains(&"MOV-TER-09".to_string()), "{rules:?}");
        assert!(!rules.contains(&"MOV-TER-10".to_string()), "{weather}: {rules:?}");
        assert!(
            g.log().iter().any(|l| l.text.contains("paved road ×0.5 [MOV-TER-09]")),
            "{:?}",
            g.log()
        );
    }
    // Along Mill Lane (dirt), 8" west: ×½ dry, ×2 wet, logged as a dirt road either way.
    for (weather, m, what) in [("dry", 0.5, "dirt road (dry)"), ("wet", 2.0, "dirt road (wet)")] {
        let mut g = game(&ford_with(weather, [20.0, 7.0], 270.0));
        let ev = ok(&mut g, RED, mv(0, vec![adv(12.0, 7.0)]));
        let items = moved_items(&ev);
        assert_eq!(items.len(), 1, "{items:?}");
        let lane = &items[0].factors[0];
        assert_eq!((lane.rule.as_str(), lane.what.as_str()), ("MOV-TER-10", what));
        close(lane.value, m);
        close(items[0].cost, 8.0 * m);
        let rules = moved_rules(&ev);
        assert!(!rules.contains(&"MOV-TER-09".to_string()), "{weather}: {rules:?}");
        let at = g.state().units[0].pose.at;
        close(at.x, 12.0);
    }
}
