//! The end of the day (LIB-DAY-01..05) and the points at the end of the battle (LIB-M-17).

mod common;
use common::*;
use liberal::state::{Choice, Command, Event, Flag, NightRow, Objective, Phase, Stage, Status};
use tabletop::rules::Side;

/// Red's four light cavalry 11.5" from one blue horseman (mounted fire reaches 12" when
/// standing), and blue infantry far off. Each side-turn the cavalry "move" on the spot, so
/// no one fires, until blue's third turn when the horseman stands and fires and red's
/// cavalry fire back.
fn outposts(head: &str) -> T {
    let body = unit("red", "light_cavalry", 36.0, 18.5, 0.0, "figures = 4\nofficers = false")
        + &unit("blue", "light_cavalry", 36.0, 30.0, 180.0, "figures = 1\nofficers = false")
        + &unit("blue", "infantry", 66.0, 44.0, 180.0, "figures = 4");
    T::at_red_turn(&scenario(head, &body))
}

/// Plays the day to blue's third turn; there the horseman stands and the exchange takes
/// `fire` (his remainder die and count, then red's remainder die and count), then the night
/// and `morning` (the roll for the next day, or nothing at the end of the battle).
fn play_day(t: &mut T, fire: &[u8], morning: &[u8]) -> Vec<Event> {
    let mut all = Vec::new();
    for turn in 1..=3 {
        all.extend(t.declare(Side::Red, vec![normal(0, 36.0, 18.5)], &[]));
        assert!(!all.iter().any(|e| matches!(e, Event::Night { .. })), "no night yet");
        if turn < 3 {
            all.extend(t.declare(Side::Blue, vec![normal(1, 36.0, 30.0)], &[]));
        }
    }
    let mut dice = fire.to_vec();
    dice.extend(morning);
    all.extend(t.declare(Side::Blue, vec![stand(1)], &dice));
    all
}

/// A night's day, summary, figures returned and wounded taken off.
type NightParts = (u32, Vec<NightRow>, Vec<(usize, Vec<usize>)>, Vec<(usize, usize, Side)>);

fn night(ev: &[Event]) -> NightParts {
    ev.iter()
        .find_map(|e| match e {
            Event::Night { day, summary, returned, evacuated, .. } => {
                Some((*day, summary.clone(), returned.clone(), evacuated.clone()))
            }
            _ => None,
        })
        .expect("night falls")
}

#[test]
fn lib_day_01_after_every_third_game_turn_night_falls_and_nothing_moves_or_fires() {
    // "LIB-DAY-01": the night after the sixth side-turn; then the roll for the next day.
    let mut t = outposts("");
    let ev = play_day(&mut t, &[6, 6], &[6, 1]);
    let n = ev.iter().position(|e| matches!(e, Event::Night { .. })).expect("night");
    let turns: Vec<u32> = ev[..n]
        .iter()
        .filter_map(|e| match e {
            Event::TurnBegins { game_turn, .. } => Some(*game_turn),
            _ => None,
        })
        .collect();
    assert_eq!(turns, vec![1, 2, 2, 3, 3], "three game turns of two side-turns each");
    assert!(T::cites(&ev[n..=n], "LIB-DAY-01"));
    let next = ev[n..].iter().position(|e| matches!(e, Event::TurnBegins { .. })).unwrap() + n;
    assert!(
        ev[n..next].iter().all(|e| !matches!(
            e,
            Event::Moved { .. } | Event::Fired { .. } | Event::Cannon { .. }
        )),
        "nothing moves or fires at night"
    );
    assert!(matches!(ev[next], Event::TurnBegins { game_turn: 4, day: 2, .. }));
    assert_eq!((t.st.day, t.st.game_turn), (2, 4));
}

#[test]
fn lib_day_02_the_night_summary_of_each_unit() {
    // "LIB-DAY-02": the horseman's remainder die 1 of 6 hits and die 2 sends red's second
    // figure to hospital; red's two front figures (the rear rank is 12.5" off) roll 1 of 6,
    // a hit, and die 4 wounds the horseman.
    let mut t = outposts("");
    let ev = play_day(&mut t, &[1, 2, 1, 4], &[6, 1]);
    let (day, summary, _, _) = night(&ev);
    assert_eq!(day, 1);
    assert!(T::cites(&ev, "LIB-DAY-02"));
    let red = summary.iter().find(|r| r.unit == 0).expect("red's row");
    assert_eq!(
        (red.ranks, red.dead, red.wounded, red.walking_wounded, red.captured),
        (3, 0, 0, 1, 0)
    );
    let blue = summary.iter().find(|r| r.unit == 1).expect("the horseman's row");
    assert_eq!(
        (blue.ranks, blue.dead, blue.wounded, blue.walking_wounded, blue.captured),
        (0, 0, 1, 0, 0)
    );
    assert_eq!(blue.flag, Flag::None);
    assert_eq!(summary.len(), 3, "a row for every unit");
    let log = T::log(&ev).join("\n");
    assert!(log.to_lowercase().contains("night"), "{log}");
}

#[test]
fn lib_day_03_walking_wounded_return_to_their_units_at_night() {
    // "LIB-DAY-03": red's walking wounded man (die 2) rejoins at the rear rank.
    let mut t = outposts("");
    let ev = play_day(&mut t, &[1, 2, 1, 4], &[6, 1]);
    let (_, _, returned, _) = night(&ev);
    assert_eq!(returned, vec![(0, vec![1])]);
    assert!(T::cites(&ev, "LIB-DAY-03"));
    let red = &t.st.units[0];
    assert_eq!(red.strength(), 4);
    assert!(red.figures.iter().all(|f| f.status == Status::Ranks));
}

#[test]
fn lib_day_04_each_side_takes_off_the_wounded_inside_its_lines_friend_or_foe() {
    // "LIB-DAY-04": red's wounded man (die 4: the fourth) lies among red's cavalry and is
    // taken off by red; the horseman, wounded (die 4 counted round his one figure), lies
    // nearer red than any blue unit still standing: red takes him, a prisoner (LIB-R-36).
    let mut t = outposts("");
    let ev = play_day(&mut t, &[1, 4, 1, 4], &[6, 1]);
    let (_, _, _, evacuated) = night(&ev);
    assert!(evacuated.contains(&(0, 3, Side::Red)), "{evacuated:?}");
    assert!(evacuated.contains(&(1, 0, Side::Red)), "{evacuated:?}");
    assert!(T::cites(&ev, "LIB-DAY-04"));
    assert_eq!(t.st.units[0].figures[3].status, Status::Evacuated);
    assert_eq!(t.st.units[1].figures[0].status, Status::Captured);
}

#[test]
fn lib_day_05_a_roll_off_decides_who_moves_first_next_day() {
    // "LIB-DAY-05": red 3, blue 3 again; red 2, blue 5: blue moves first on day 2.
    let mut t = outposts("");
    let ev = play_day(&mut t, &[6, 6], &[3, 3, 2, 5]);
    let roll = ev
        .iter()
        .find_map(|e| match e {
            Event::RollOff { rolls, winner, rule, .. } if rule.as_str() == "LIB-DAY-05" => {
                Some((rolls.clone(), *winner))
            }
            _ => None,
        })
        .expect("the morning's roll");
    assert_eq!(roll, (vec![(3, 3), (2, 5)], Side::Blue));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::TurnBegins { side: Side::Blue, first: Side::Blue, game_turn: 4, day: 2 }
    )));
    assert_eq!(t.st.first, Side::Blue);
    assert!(matches!(t.st.phase, Phase::Turn { side: Side::Blue, stage: Stage::Declare, .. }));
    // Blue moves first, then red, in game turn 4.
    let ev = t.declare(Side::Blue, vec![normal(1, 36.0, 30.0)], &[]);
    assert!(
        ev.iter().any(|e| matches!(e, Event::TurnBegins { side: Side::Red, game_turn: 4, .. }))
    );
}

#[test]
fn lib_m_17_after_the_last_day_the_most_points_win() {
    // "LIB-M-17": a one-day battle. Red took the wounded horseman prisoner (2 points); blue
    // wounded one of red's (1 point). No roll for a next morning.
    assert_eq!(outposts("").st.days, 3, "three days unless the scenario says otherwise");
    let mut t = outposts("days = 1");
    let ev = play_day(&mut t, &[1, 4, 1, 4], &[]);
    let (outcome, points) = ev
        .iter()
        .find_map(|e| match e {
            Event::Ended { outcome, points } => Some((outcome.clone(), *points)),
            _ => None,
        })
        .expect("the battle ends");
    assert_eq!(points, [2, 1]);
    assert_eq!(outcome.winner, Some(Side::Red));
    assert!(outcome.reason.contains("LIB-M-17"), "{}", outcome.reason);
    assert!(matches!(t.st.phase, Phase::Over));
    assert_eq!(t.refused_rule(Side::Red, Command::Declare { orders: Vec::new() }), "LIB-M-17");
    // A flag is worth 10: red's charge kills blue's three foot and takes their colours
    // (flag die 6) in three single fights.
    let body = unit("red", "light_cavalry", 36.0, 17.0, 0.0, "figures = 4\nformation = \"column\"")
        + &unit("blue", "infantry", 36.0, 30.0, 180.0, "figures = 3")
        + &unit("blue", "infantry", 66.0, 44.0, 180.0, "figures = 4");
    let mut t = T::at_red_turn(&scenario("days = 1", &body));
    t.declare(
        Side::Red,
        vec![order(0, Choice::Liberal { objective: Objective::Unit { unit: 1 }, formation: None })],
        &[6, 1, 3, 6, 1, 6, 6, 1, 3],
    );
    t.side(Side::Red, Command::Reform { formation: None }, &[]);
    assert_eq!(t.st.units[1].flag, Flag::Lost);
    assert_eq!(t.st.side(Side::Red).flags_taken, 1);
    let mut ev = Vec::new();
    for _ in 0..2 {
        ev.extend(t.declare(Side::Blue, Vec::new(), &[]));
        ev.extend(t.declare(Side::Red, Vec::new(), &[]));
    }
    ev.extend(t.declare(Side::Blue, Vec::new(), &[]));
    let points = ev
        .iter()
        .find_map(|e| match e {
            Event::Ended { points, .. } => Some(*points),
            _ => None,
        })
        .expect("the battle ends");
    assert_eq!(points, [3 + 10, 0]);
}

#[test]
fn lib_m_17_a_gun_taken_and_spiked_scores_once() {
    // "LIB-M-17": red's cavalry overrun blue's horse battery: three crewmen lose their fights
    // (fate 3: dead), the last goes back; the retreating crew spike the gun (die 2) and it is
    // taken; the last crewman's 18" back meets the north edge and a die 1 sends him along it
    // (LIB-R-32). One gun: 5 points, not 5 for the spike and 5 for the taking.
    let body = unit("red", "light_cavalry", 36.0, 17.0, 0.0, "figures = 4\nformation = \"column\"")
        + &unit("blue", "horse_artillery", 36.0, 30.0, 180.0, "")
        + &unit("blue", "infantry", 66.0, 44.0, 180.0, "figures = 4");
    let mut t = T::at_red_turn(&scenario("", &body));
    let c = Command::Declare {
        orders: vec![order(
            0,
            Choice::Liberal { objective: Objective::Unit { unit: 1 }, formation: None },
        )],
    };
    let ev = t.side(Side::Red, c, &[6, 1, 3, 6, 1, 3, 6, 1, 3, 2, 1]);
    assert!(ev.iter().any(|e| matches!(e, Event::Spiked { spiked: true, .. })));
    assert!(ev.iter().any(|e| matches!(e, Event::GunTaken { .. })));
    assert_eq!(t.st.side(Side::Red).guns_taken, 1);
    let points = liberal::turn::points(&t.rules, &t.st);
    assert_eq!(points, [3 + 5, 0]);
}
