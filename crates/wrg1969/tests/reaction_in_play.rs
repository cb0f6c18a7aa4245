//! Reaction tests and disorganisation played through the rule set's commands: a ready scenario
//! set up as each test needs (units placed, others sent off the table, orders given), both
//! sides' orders written and plans made with `perform`, then the period's notes and the state
//! read back. The dice are loaded: every die shows the same face (its nearest), so each result
//! follows from the factors alone.

use tabletop::dice::{DiceSource, Die};
use tabletop::geometry::{Facing, Point};
use tabletop::rules::{Actor, RuleSet, Side};
use wrg1969::after::OffTable;
use wrg1969::combat::Cause;
use wrg1969::model::{ReactionClass, ReactionResult};
use wrg1969::orders::{Formation, Order, Standing, Verb};
use wrg1969::plan::{Plan, UnitStance};
use wrg1969::reaction::{Effect, Running, Stance, Trigger};
use wrg1969::report::{Fact, Note};
use wrg1969::state::{Away, Motion, State};
use wrg1969::{Command, Event, Wrg1969};

/// Dice that always show `face` (or the nearest face the die has).
struct Loaded(u8);

impl DiceSource for Loaded {
    fn face(&mut self, die: Die) -> u8 {
        (1..=10u8).filter(|v| die.can_show(*v)).min_by_key(|v| v.abs_diff(self.0)).unwrap_or(1)
    }
}

/// A battle being set up and played.
struct Field {
    rules: Wrg1969,
    st: State,
}

impl Field {
    /// A ready scenario with every unit holding where it stands, shooting only when told.
    fn new(name: &str) -> Field {
        let rules = Wrg1969::new();
        let path = format!("{}/../../scenarios/wrg1969/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("the scenario is there");
        let sc = rules.load_scenario(&tabletop::Source::new(name, text)).expect("it loads");
        let (mut st, _) = rules.setup(&sc, &mut Loaded(3));
        for u in &mut st.units {
            u.standing = Standing::Active {
                order: Order { hold_fire: true, ..Order::new(Verb::Hold { at: None }) },
            };
        }
        Field { rules, st }
    }

    /// Only these units stay on the table.
    fn only(mut self, ids: &[u16]) -> Field {
        for u in &mut self.st.units {
            if !ids.contains(&u.id) {
                u.away =
                    Some(Away { state: OffTable::Gone, at: u.at, facing: u.facing, left_in: 0 });
            }
        }
        self
    }

    /// Places a unit: its standard and facing (degrees).
    fn put(mut self, id: u16, x: f64, y: f64, bearing: f64) -> Field {
        let u = &mut self.st.units[id as usize];
        u.at = Point::new(x, y);
        u.facing = Facing::from_bearing_degrees(bearing);
        self
    }

    /// Gives a unit an order.
    fn order(mut self, id: u16, order: Order) -> Field {
        self.st.units[id as usize].standing = Standing::Active { order };
        self
    }

    /// Lets a unit shoot at will.
    fn shoots(mut self, id: u16) -> Field {
        if let Standing::Active { order } = &mut self.st.units[id as usize].standing {
            order.hold_fire = false;
        }
        self
    }

    /// Marks a unit as having taken its first test within 15" of the enemy.
    fn tested(mut self, ids: &[u16]) -> Field {
        for &id in ids {
            self.st.units[id as usize].tested_within_range = true;
        }
        self
    }

    /// Both sides write their orders (those set up stand).
    fn written(mut self) -> Field {
        for side in Side::BOTH {
            let c = Command::Write { orders: vec![] };
            self.rules.perform(&mut self.st, Actor::Side(side), &c, &mut Loaded(3)).unwrap();
        }
        self
    }

    /// Plays a period with these plans and dice; returns its notes.
    fn period(&mut self, red: Plan, blue: Plan, face: u8) -> Vec<Note> {
        let mut events = Vec::new();
        for (side, plan) in [(Side::Red, red), (Side::Blue, blue)] {
            let c = Command::Plan(plan);
            let e = self.rules.perform(&mut self.st, Actor::Side(side), &c, &mut Loaded(face));
            events.extend(e.expect("the plan is accepted"));
        }
        events
            .into_iter()
            .filter_map(|e| match e {
                Event::Noted(n) => Some(n),
                _ => None,
            })
            .collect()
    }

    /// A quiet period: both plans empty.
    fn quiet(&mut self, face: u8) -> Vec<Note> {
        self.period(Plan::default(), Plan::default(), face)
    }
}

/// The test notes of a unit, in order.
fn tests_of(notes: &[Note], unit: u16) -> Vec<&Note> {
    notes
        .iter()
        .filter(|n| matches!(n.fact, Some(Fact::Test { unit: u, .. }) if u == unit))
        .collect()
}

/// Whether a note cites a rule.
fn cites(n: &Note, rule: &str) -> bool {
    n.rules.iter().any(|r| r.as_str() == rule)
        || n.totals.iter().any(|t| t.parts.iter().any(|p| p.rule.as_str() == rule))
}

/// The value of the part a note's score gives a rule (0 when none).
fn part(n: &Note, rule: &str) -> f64 {
    n.totals
        .iter()
        .flat_map(|t| &t.parts)
        .filter(|p| p.rule.as_str() == rule)
        .map(|p| p.value)
        .sum()
}

/// Everything the log says, for failure messages.
fn said(notes: &[Note]) -> String {
    notes.iter().map(|n| n.describe()).collect::<Vec<_>>().join("\n")
}

// The ford: red 0 Hoplites of the right, 1 Hoplites of the left, 2 Spartiates, 3 Thracian
// peltasts, 4 Cretan archers, 5 Thessalian horse; blue 6 Libyan spearmen, 7 Elephants,
// 8 Spanish scutarii, 9 Gallic warband, 10 Numidian light horse, 11 Balearic slingers,
// 12 Spanish cavalry.
// The hill: red 0..2 Legio XX's cohorts, 3 Cohors I Batavorum, 4 the Hamian archers,
// 5 Balearic slingers, 6 Ala I Thracum, 7 Ala Petriana, 8 Numidian horse, 9 Scorpions; blue
// 10 chariots, 11 Warband of the Iceni, 12 of the Trinovantes, 13 the queen's following,
// 14 Slingers, 15 Light horse, 16 Levies.

// Checks WRG-RTP-01, WRG-RTP-02, WRG-RTP-03, WRG-RTP-04, WRG-RFAC-30, WRG-CLASS-02,
// WRG-CLASS-06, WRG-RT-11.
#[test]
fn wrg_rtp_01_to_04_a_test_tells_its_dice_every_factor_its_chart_and_column() {
    let mut f = Field::new("the_hill.toml")
        .only(&[0, 1, 11])
        .put(0, 36.0, 10.0, 0.0)
        .put(1, 42.0, 10.0, 0.0)
        .put(11, 36.0, 22.0, 180.0)
        .written();
    // The second cohort has lost 8 of its 20 figures: below two thirds, it throws 2 dice.
    f.st.units[1].block.lose(8);
    let notes = f.quiet(3);
    let t = tests_of(&notes, 0);
    assert_eq!(t.len(), 1, "{}", said(&notes));
    let n = t[0];
    for rule in ["WRG-RT-02", "WRG-RT-11", "WRG-RTP-03", "WRG-RFAC-30", "WRG-RTP-04"] {
        assert!(cites(n, rule), "{rule} in {}", n.describe());
    }
    // The first cohort are elite regulars: class B's column, average dice.
    assert!(cites(n, "WRG-CLASS-02") && cites(n, "WRG-CLASS-06"), "{}", n.describe());
    let Some(Fact::Test { chart, class, dice_count, dice_total, score, .. }) = n.fact else {
        unreachable!()
    };
    assert_eq!((chart, class, dice_count, dice_total), (1, ReactionClass::B, 3, 9));
    let total = &n.totals[0];
    assert!(total.adds_up());
    assert_eq!(total.value, score as f64);
    assert_eq!(total.parts[0].rule.as_str(), "WRG-RTP-01");
    assert_eq!(total.parts[0].value, 9.0);
    // A friend within 15" and in view; the warband facing; the enemy advancing? No: it stood.
    assert_eq!(part(n, "WRG-RFAC-01"), 1.0, "{}", n.describe());
    assert_eq!(part(n, "WRG-RFAC-12"), -1.0, "{}", n.describe());
    assert!(cites(n, "WRG-RDEF-01"));
    // Every part names its rule; the line shows them.
    assert!(n.describe().contains("[WRG-RFAC-01]"), "{}", n.describe());
    // The second cohort throws two dice, and the part says why.
    let m = tests_of(&notes, 1)[0];
    assert_eq!(m.totals[0].parts[0].rule.as_str(), "WRG-RTP-02", "{}", m.describe());
    assert!(m.describe().contains("12 of 20 figures: below ⅔"), "{}", m.describe());
    assert!(matches!(m.fact, Some(Fact::Test { dice_count: 2, dice_total: 6, .. })));
}

// Checks WRG-RDEF-03, WRG-RDEF-04, WRG-RFAC-05, WRG-RFAC-06, WRG-R-14.
#[test]
fn wrg_rdef_03_04_flanks_secured_and_the_rear_supported_by_friends_near_enough() {
    let field = || {
        Field::new("the_ford.toml")
            .only(&[0, 1, 2, 3, 6])
            .put(0, 40.0, 10.0, 0.0)
            .put(2, 35.0, 10.0, 0.0)
            .put(3, 46.5, 10.0, 0.0)
            .put(1, 40.0, 6.0, 0.0)
            .put(6, 40.0, 19.0, 180.0)
            .tested(&[1, 2, 3])
    };
    let mut f = field().written();
    let notes = f.quiet(3);
    let n = tests_of(&notes, 0)[0];
    // The Spartiates on the left and the peltasts on the right, each within its own move;
    // the left hoplites 2.5" behind, within their 4".
    assert_eq!(part(n, "WRG-RFAC-05"), 2.0, "{}", n.describe());
    assert_eq!(part(n, "WRG-RFAC-06"), 1.0, "{}", n.describe());
    assert!(cites(n, "WRG-RDEF-03") && cites(n, "WRG-RDEF-04"));
    // Drawn back 6" the supporters are beyond a hoplite's 4" move; a disorganised friend
    // secures nothing; a friend of less than half the unit's figures neither.
    let mut f = field().put(1, 40.0, 2.0, 0.0).written();
    f.st.units[2].causes.push(Cause::Terrain);
    f.st.units[3].block.lose(5);
    let notes = f.quiet(3);
    let n = tests_of(&notes, 0)[0];
    assert_eq!(part(n, "WRG-RFAC-05"), 0.0, "{}", n.describe());
    assert_eq!(part(n, "WRG-RFAC-06"), 0.0, "{}", n.describe());
}

// Checks WRG-RFAC-09, WRG-RFAC-19.
#[test]
fn wrg_rfac_09_19_uphill_and_downhill_of_the_enemy() {
    // The first cohort on Windmill Hill, by its northern edge; the Iceni below it, 11.5" off.
    let mut f = Field::new("the_hill.toml")
        .only(&[0, 11])
        .put(0, 40.0, 26.5, 0.0)
        .put(11, 40.0, 38.0, 180.0)
        .written();
    let notes = f.quiet(3);
    assert_eq!(part(tests_of(&notes, 0)[0], "WRG-RFAC-09"), 1.0, "{}", said(&notes));
    assert_eq!(part(tests_of(&notes, 11)[0], "WRG-RFAC-19"), -1.0, "{}", said(&notes));
}

// Checks WRG-RFAC-16, WRG-RRES-01, WRG-RT-05.
#[test]
fn wrg_rfac_16_rres_01_shot_at_by_ten_figures_levies_break_and_their_friends_test() {
    // The Hamian archers, 12 abreast, 10" from the British levies: all twelve shoot.
    let field = |fire: bool| {
        let f = Field::new("the_hill.toml")
            .only(&[4, 14, 16])
            .put(4, 60.0, 16.0, 0.0)
            .put(16, 60.0, 26.0, 180.0)
            .put(14, 60.0, 40.0, 180.0)
            .tested(&[14]);
        let mut f = if fire { f.shoots(4) } else { f };
        f.st.units[4].block = wrg1969::unit::Block::new(12, 12);
        f.written()
    };
    let mut f = field(true);
    let notes = f.quiet(1);
    let n = tests_of(&notes, 16)[0];
    assert_eq!(part(n, "WRG-RFAC-16"), -1.0, "{}", said(&notes));
    assert!(n.describe().contains("under fire by 12 figures"), "{}", n.describe());
    // Class E on 1, 1, 1: the bottom band, and under fire they break.
    assert!(matches!(n.fact, Some(Fact::Test { effect: Effect::Break, .. })), "{}", n.describe());
    assert!(cites(n, "WRG-RRES-01"));
    assert_eq!(f.st.units[16].motion, Motion::Routing);
    // Their slingers, 12" off, test for a friend breaking near them (WRG-RT-05).
    let s = tests_of(&notes, 14);
    assert!(s.iter().any(|n| cites(n, "WRG-RT-05")), "{}", said(&notes));
    // Not shot at, the same throw only makes them retreat.
    let mut f = field(false);
    let notes = f.quiet(1);
    let n = tests_of(&notes, 16)[0];
    assert_eq!(part(n, "WRG-RFAC-16"), 0.0, "{}", n.describe());
    assert!(
        matches!(n.fact, Some(Fact::Test { effect: Effect::Retreat { periods: 3 }, .. })),
        "{}",
        n.describe()
    );
    assert_ne!(f.st.units[16].motion, Motion::Routing);
}

// Checks WRG-RFAC-10, WRG-RFAC-25, WRG-RFAC-28, WRG-RDEF-05, WRG-RDEF-06.
#[test]
fn wrg_rfac_10_25_28_cover_near_and_cover_stood_in() {
    // The levies stand just inside the Oak Wood's southern edge; the Ala I Thracum rides up
    // 11.5" south of them.
    let mut f = Field::new("the_hill.toml")
        .only(&[6, 16])
        .put(16, 9.0, 23.5, 180.0)
        .put(6, 9.0, 12.0, 0.0)
        .written();
    let notes = f.quiet(3);
    let l = tests_of(&notes, 16)[0];
    // In the wood they hold: friendly cover, and they stand behind cover (± by R-17).
    assert_eq!(part(l, "WRG-RFAC-10"), 1.0, "{}", l.describe());
    assert!(cites(l, "WRG-RFAC-28") && cites(l, "WRG-RDEF-05"), "{}", l.describe());
    // To the horsemen the wood holds enemies: unfriendly cover within 10".
    let a = tests_of(&notes, 6)[0];
    assert_eq!(part(a, "WRG-RFAC-25"), -2.0, "{}", a.describe());
    assert!(cites(a, "WRG-RDEF-06"));
}

// Checks WRG-RFAC-26, WRG-RFAC-27, WRG-RFAC-29, WRG-R-17.
#[test]
fn wrg_rfac_26_29_r_17_the_c_in_c_and_the_square_signed_as_the_owner_asks() {
    let field = || {
        let mut f = Field::new("the_hill.toml")
            .only(&[0, 1, 11])
            .put(0, 36.0, 10.0, 0.0)
            .put(1, 42.0, 10.0, 0.0)
            .put(11, 36.0, 22.0, 180.0)
            .order(
                1,
                Order { formation: Some(Formation::Square), ..Order::new(Verb::Hold { at: None }) },
            );
        // The General with the first cohort: within 15" of the second too, but with the first.
        f.st.generals[0].attached = Some(0);
        f.st.generals[0].at = Point::new(36.0, 10.0);
        f.written()
    };
    let stances = |s: Stance| Plan {
        stances: vec![UnitStance { unit: 0, stance: s }, UnitStance { unit: 1, stance: s }],
        ..Plan::default()
    };
    let mut f = field();
    let notes = f.period(stances(Stance::Rouse), Plan::default(), 3);
    let (a, b) = (tests_of(&notes, 0)[0], tests_of(&notes, 1)[0]);
    assert_eq!(part(a, "WRG-RFAC-26"), 3.0, "{}", a.describe());
    assert_eq!(part(a, "WRG-RFAC-27"), 0.0, "with the unit, not beside it");
    assert_eq!(part(b, "WRG-RFAC-27"), 1.0, "{}", b.describe());
    assert_eq!(part(b, "WRG-RFAC-29"), 2.0, "{}", b.describe());
    assert!(a.describe().contains("owner's choice"), "{}", a.describe());
    let mut f = field();
    let notes = f.period(stances(Stance::Restrain), Plan::default(), 3);
    let (a, b) = (tests_of(&notes, 0)[0], tests_of(&notes, 1)[0]);
    assert_eq!(part(a, "WRG-RFAC-26"), -3.0);
    assert_eq!(part(b, "WRG-RFAC-29"), -2.0);
    // Left to the engine, the signs bring the score nearest the middle of "carry on".
    let mut f = field();
    let notes = f.quiet(3);
    let a = tests_of(&notes, 0)[0];
    assert!(cites(a, "WRG-R-17"), "{}", a.describe());
    // A stance for another side's unit is refused.
    let bad =
        Plan { stances: vec![UnitStance { unit: 11, stance: Stance::Rouse }], ..Plan::default() };
    let e = f.rules.check(&f.st, Actor::Side(Side::Red), &Command::Plan(bad)).unwrap_err();
    assert_eq!(e.rule.as_str(), "WRG-R-17");
}

// Checks WRG-RDEF-01, WRG-RDEF-02.
#[test]
fn wrg_rdef_01_02_within_means_in_view_and_not_across_a_river() {
    // The ford's stream made an impassable river, its ford the only way over.
    let field = |river: bool| {
        let mut f = Field::new("the_ford.toml")
            .only(&[0, 2, 6, 9])
            .put(0, 20.0, 14.0, 0.0)
            .put(2, 28.0, 14.0, 0.0)
            .put(9, 20.0, 28.0, 180.0)
            .put(6, 56.0, 28.0, 180.0)
            .tested(&[2, 6]);
        if river {
            let mut t = (*f.st.table).clone();
            t.lines[0].kind = tabletop::terrain::LineKind::River;
            f.st.table = tabletop::terrain::SharedTable::new(t);
        }
        f.written()
    };
    let mut f = field(false);
    let notes = f.quiet(3);
    let n = tests_of(&notes, 0)[0];
    assert_eq!(part(n, "WRG-RFAC-12"), -1.0, "{}", n.describe());
    assert!(!cites(n, "WRG-RDEF-02"));
    let mut f = field(true);
    let notes = f.quiet(3);
    let n = tests_of(&notes, 0)[0];
    // The warband across the river is left out; the Spartiates on this bank still count.
    assert_eq!(part(n, "WRG-RFAC-12"), 0.0, "{}", n.describe());
    assert_eq!(part(n, "WRG-RFAC-01"), 1.0, "{}", n.describe());
    assert!(cites(n, "WRG-RDEF-02"), "{}", n.describe());
    // In view: a friend hidden behind another friend (infantry hide infantry) is not counted.
    let mut f = Field::new("the_hill.toml")
        .only(&[0, 1, 2, 11])
        .put(0, 36.0, 10.0, 0.0)
        .put(1, 36.0, 14.0, 0.0)
        .put(2, 36.0, 18.0, 0.0)
        .put(11, 30.0, 22.0, 180.0)
        .tested(&[1, 2, 11])
        .written();
    let notes = f.quiet(3);
    let n = tests_of(&notes, 0);
    assert_eq!(n.len(), 1, "{}", said(&notes));
    assert_eq!(part(n[0], "WRG-RFAC-01"), 1.0, "{}", n[0].describe());
    assert!(!wrg1969::situation::unit_sees(&f.st, &f.st.units[0], &f.st.units[2]));
}

// Checks WRG-RT-01, WRG-RRES-10.
#[test]
fn wrg_rt_01_rres_10_an_optional_test_asked_for_in_the_plan_and_when_it_is_refused() {
    let mut f = Field::new("the_hill.toml")
        .only(&[0, 1, 11])
        .put(0, 36.0, 10.0, 0.0)
        .put(1, 42.0, 10.0, 0.0)
        .put(11, 36.0, 30.0, 180.0)
        .tested(&[0, 1, 11])
        .written();
    // The first cohort has no order; the second halts for 2 periods after a test.
    f.st.units[0].standing = Standing::Waiting;
    f.st.units[1].running = Running::start(Effect::Halt { periods: 2 });
    let refused = Plan { test: vec![1], ..Plan::default() };
    let e = f.rules.check(&f.st, Actor::Side(Side::Red), &Command::Plan(refused)).unwrap_err();
    assert_eq!(e.rule.as_str(), "WRG-RRES-10", "{e}");
    let theirs = Plan { test: vec![11], ..Plan::default() };
    let e = f.rules.check(&f.st, Actor::Side(Side::Red), &Command::Plan(theirs)).unwrap_err();
    assert_eq!(e.rule.as_str(), "WRG-RT-01");
    // On 5, 5, 5 with a friend beside, chart 2 gives "act as C-in-C": an order at once.
    let notes = f.period(Plan { test: vec![0], ..Plan::default() }, Plan::default(), 5);
    let n = tests_of(&notes, 0);
    assert_eq!(n.len(), 1, "{}", said(&notes));
    assert!(cites(n[0], "WRG-RT-01") && !cites(n[0], "WRG-RT-11"), "{}", n[0].describe());
    assert!(matches!(n[0].fact, Some(Fact::Test { trigger: Trigger::Optional, chart: 2, .. })));
    // Being charged (a mandatory test) replaces the halt that is running.
    let mut f = Field::new("the_hill.toml")
        .only(&[1, 11])
        .put(1, 42.0, 10.0, 0.0)
        .put(11, 42.0, 22.0, 180.0)
        .tested(&[11])
        .written();
    f.st.units[1].running = Running::start(Effect::Halt { periods: 2 });
    let notes = f.quiet(3);
    let n = tests_of(&notes, 1)[0];
    assert!(
        cites(n, "WRG-RRES-10") && n.describe().contains("in place of: halt"),
        "{}",
        n.describe()
    );
}

// Checks WRG-RRES-07.
#[test]
fn wrg_rres_07_chart_2_halts_a_pursuer_disorganised() {
    // The Ala I Thracum, with no order, pursues the routing levies when the Iceni come within
    // 15" of it; on 2, 2, 2 with the enemy about, chart 2's second band halts it.
    let mut f = Field::new("the_hill.toml")
        .only(&[6, 11, 16])
        .put(6, 20.0, 20.0, 0.0)
        .put(16, 20.0, 26.0, 0.0)
        .put(11, 30.0, 30.0, 270.0)
        .written();
    f.st.units[6].standing = Standing::Waiting;
    f.st.units[16].rout = Some(wrg1969::state::Rout { periods: 1, broke_in: 0 });
    f.st.units[16].motion = Motion::Routing;
    f.st.units[6].pursuit = Some(wrg1969::state::Pursuit {
        target: 16,
        periods: 1,
        from: Point::new(20.0, 14.0),
        farthest: 6.0,
    });
    let notes = f.quiet(1);
    let n = tests_of(&notes, 6);
    let Some(n) = n.first() else { panic!("no test: {}", said(&notes)) };
    let Some(Fact::Test { chart, result, effect, .. }) = n.fact else { unreachable!() };
    assert_eq!(chart, 2);
    if result == ReactionResult::HaltOrRetire {
        assert_eq!(effect, Effect::HaltDisorganised { periods: 1 });
        assert!(cites(n, "WRG-RRES-07"));
        assert!(f.st.units[6].pursuit.is_none(), "the pursuit halts");
    } else {
        panic!("expected chart 2's second band: {}", n.describe());
    }
}

/// The disorganisation notes of a unit: (cause, began).
fn disorder_of(notes: &[Note], unit: u16) -> Vec<(Cause, bool)> {
    notes
        .iter()
        .filter_map(|n| match n.fact {
            Some(Fact::Disorder { unit: u, cause, began, .. }) if u == unit => Some((cause, began)),
            _ => None,
        })
        .collect()
}

// Checks WRG-DIS-03, WRG-DIS-01, WRG-DIS-02, WRG-R-48.
#[test]
fn wrg_dis_03_horses_near_enemy_elephants_and_recovering_when_they_are_gone() {
    // The Greeks have no elephants: their horse are disordered within 6" of the Carthaginian
    // beasts.
    let mut f = Field::new("the_ford.toml")
        .only(&[5, 7])
        .put(5, 40.0, 10.0, 0.0)
        .put(7, 40.0, 17.0, 180.0)
        .tested(&[5, 7])
        .written();
    let notes = f.quiet(3);
    assert_eq!(disorder_of(&notes, 5), [(Cause::NearBeasts, true)], "{}", said(&notes));
    let n = notes.iter().find(|n| matches!(n.fact, Some(Fact::Disorder { unit: 5, .. }))).unwrap();
    assert!(cites(n, "WRG-DIS-03") && cites(n, "WRG-DIS-01"), "{}", n.describe());
    assert!(disorder_of(&notes, 7).is_empty(), "elephants are not horses");
    // Drawn off out of the 6", they recover at once.
    f.st.units[5].at = Point::new(20.0, 4.0);
    let notes = f.quiet(3);
    assert_eq!(disorder_of(&notes, 5), [(Cause::NearBeasts, false)], "{}", said(&notes));
    let n = notes.iter().find(|n| matches!(n.fact, Some(Fact::Disorder { unit: 5, .. }))).unwrap();
    assert!(cites(n, "WRG-DIS-02"), "{}", n.describe());
}

// Checks WRG-DIS-04, WRG-RFAC-21, WRG-TAC-03.
#[test]
fn wrg_dis_04_an_enemy_behind_the_flank_counts_against_the_test() {
    // Numidian horse level with the hoplites' right flank, 6" off: well within their charge.
    let mut f = Field::new("the_ford.toml")
        .only(&[0, 10])
        .put(0, 30.0, 10.0, 0.0)
        .put(10, 43.0, 9.0, 0.0)
        .written();
    let notes = f.quiet(3);
    assert_eq!(disorder_of(&notes, 0), [(Cause::EnemyBehindFlank, true)], "{}", said(&notes));
    let t = tests_of(&notes, 0)[0];
    assert_eq!(part(t, "WRG-RFAC-21"), -1.0, "{}", t.describe());
    assert!(cites(t, "WRG-DIS-04") && cites(t, "WRG-DIS-01"), "{}", t.describe());
}

// Checks WRG-DIS-07, WRG-DIS-11.
#[test]
fn wrg_dis_07_11_slowed_by_the_stream_and_barbarians_turning() {
    // The Thessalian horse ford the stream away from the ford; the Gallic warband wheels.
    let mut f = Field::new("the_ford.toml")
        .only(&[3, 5, 9])
        .put(5, 20.0, 19.0, 0.0)
        .put(3, 26.0, 19.0, 0.0)
        .put(9, 56.0, 40.0, 180.0)
        .order(
            5,
            Order::new(Verb::Advance {
                to: wrg1969::orders::Objective::Point { x: 20.0, y: 40.0 },
            }),
        )
        .order(
            3,
            Order::new(Verb::Advance {
                to: wrg1969::orders::Objective::Point { x: 26.0, y: 40.0 },
            }),
        )
        .order(9, Order::new(Verb::Wheel { degrees: 30.0 }))
        .tested(&[3, 5, 9])
        .written();
    let notes = f.quiet(3);
    assert!(disorder_of(&notes, 5).contains(&(Cause::Terrain, true)), "{}", said(&notes));
    assert!(disorder_of(&notes, 3).is_empty(), "light infantry are not slowed into disorder");
    assert!(disorder_of(&notes, 9).contains(&(Cause::BarbarianTurn, true)), "{}", said(&notes));
    // A period still, and the turn is past; the period after, it is forgotten.
    f.st.units[9].standing = Standing::Active {
        order: Order { hold_fire: true, ..Order::new(Verb::Hold { at: None }) },
    };
    let notes = f.quiet(3);
    assert!(!disorder_of(&notes, 9).contains(&(Cause::BarbarianTurn, false)), "{}", said(&notes));
    let notes = f.quiet(3);
    assert!(disorder_of(&notes, 9).contains(&(Cause::BarbarianTurn, false)), "{}", said(&notes));
}

// Checks WRG-DIS-08.
#[test]
fn wrg_dis_08_standing_still_under_engine_fire() {
    // The scorpions shoot at the Trinovantes standing 20" off.
    let mut f = Field::new("the_hill.toml")
        .only(&[9, 12])
        .put(9, 60.0, 10.0, 0.0)
        .put(12, 60.0, 30.0, 180.0)
        .shoots(9)
        .tested(&[9, 12])
        .written();
    let notes = f.quiet(3);
    assert!(
        disorder_of(&notes, 12).contains(&(Cause::StillUnderEngineFire, true)),
        "{}",
        said(&notes)
    );
    // It lasts the period of the fire only.
    f.st.units[9].standing = Standing::Active {
        order: Order { hold_fire: true, ..Order::new(Verb::Hold { at: None }) },
    };
    let notes = f.quiet(3);
    assert!(
        disorder_of(&notes, 12).contains(&(Cause::StillUnderEngineFire, false)),
        "{}",
        said(&notes)
    );
}

// Checks WRG-DIS-12, WRG-RRES-02.
#[test]
fn wrg_dis_12_retiring_disorganised_while_the_result_runs() {
    let mut f = Field::new("the_hill.toml")
        .only(&[3, 11])
        .put(3, 60.0, 24.0, 0.0)
        .put(11, 60.0, 42.0, 180.0)
        .tested(&[3, 11])
        .written();
    f.st.units[3].running = Running::start(Effect::Retire { periods: 2 });
    let notes = f.quiet(3);
    assert_eq!(disorder_of(&notes, 3), [(Cause::ReactionResult, true)], "{}", said(&notes));
    let notes = f.quiet(3);
    assert!(disorder_of(&notes, 3).is_empty(), "{}", said(&notes));
    // The result has run its 2 periods: the disorder ends with it.
    let notes = f.quiet(3);
    assert_eq!(disorder_of(&notes, 3), [(Cause::ReactionResult, false)], "{}", said(&notes));
}

// Checks WRG-ROUT-01, WRG-R-12.
#[test]
fn wrg_rout_01_routers_turn_their_backs_on_the_enemy_as_a_whole_not_on_the_nearest() {
    // The British levies face south toward three cohorts 12" off; the Hamian archers, behind
    // them and to one side, are the nearest enemy and shoot them into a break. Turning their
    // backs on the archers alone would send them running along the legion's front: they run
    // north instead, their backs to the enemy's main body.
    let mut f = Field::new("the_hill.toml")
        .only(&[0, 1, 2, 4, 16])
        .put(16, 60.0, 26.0, 180.0)
        .put(4, 68.0, 33.0, 225.0)
        .put(0, 50.0, 16.0, 0.0)
        .put(1, 60.0, 14.0, 0.0)
        .put(2, 70.0, 16.0, 0.0)
        .shoots(4);
    f.st.units[4].block = wrg1969::unit::Block::new(12, 12);
    let mut f = f.written();
    let notes = f.quiet(1);
    assert_eq!(f.st.units[16].motion, Motion::Routing, "{}", said(&notes));
    let facing = f.st.units[16].facing.bearing_degrees();
    assert!(facing.abs() < 1e-6 || (facing - 360.0).abs() < 1e-6, "they face {facing}°");
}
