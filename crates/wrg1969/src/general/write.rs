//! The orders the scripted general writes before the battle: objectives held, a reserve kept,
//! the line matched to the enemy opposite lane by lane, the screen skirmishing in front, the
//! archers behind the line, the engines holding (see [`super`]).

use super::{Picture, Role, mismatch};
use crate::orders::{Objective, Order, Verb};
use crate::rules_impl::{Command, Wrg1969};
use crate::scenario::{eye, sees_area};
use crate::state::{State, Written};
use tabletop::geometry::Point;
use tabletop::rules::{Actor, RuleSet, Side, Viewer};

/// The extra cost of a second unit sent against the same enemy, inches.
const CROWD: f64 = 8.0;

/// Matches `n` units to `m` foes, both sorted left to right, so that the matches never cross
/// (the foe's index never falls as the unit's rises), at the least total `cost`, a foe taken
/// twice paying [`CROWD`]. Returns each unit's foe.
pub fn lanes(n: usize, m: usize, cost: impl Fn(usize, usize) -> f64) -> Vec<usize> {
    if n == 0 || m == 0 {
        return Vec::new();
    }
    // best[i][j]: the least cost of units 0..=i with unit i on foe j.
    let mut best = vec![vec![f64::INFINITY; m]; n];
    let mut from = vec![vec![0usize; m]; n];
    for (j, b) in best[0].iter_mut().enumerate() {
        *b = cost(0, j);
    }
    for i in 1..n {
        for j in 0..m {
            let c = cost(i, j);
            for k in 0..=j {
                let v = best[i - 1][k] + c + if k == j { CROWD } else { 0.0 };
                if v < best[i][j] {
                    best[i][j] = v;
                    from[i][j] = k;
                }
            }
        }
    }
    let mut j = (0..m).min_by(|a, b| best[n - 1][*a].total_cmp(&best[n - 1][*b])).unwrap_or(0);
    let mut out = vec![0; n];
    for i in (0..n).rev() {
        out[i] = j;
        j = from[i][j];
    }
    out
}

/// The bearing, degrees clockwise from north, of the army's axis.
pub fn axis_bearing(p: &Picture) -> f64 {
    tabletop::geometry::Facing::from_vector(p.axis).map_or(0.0, |f| f.bearing_degrees())
}

/// The orders written before the battle.
pub fn write(rules: &Wrg1969, st: &State, side: Side) -> Vec<Written> {
    let view = rules.view(st, Viewer::Side(side));
    let data = rules.data_for(st);
    let p = Picture::new(&data, side, &view.table.units);
    let own: Vec<u16> = view.table.units.iter().filter(|u| u.side == side).map(|u| u.id).collect();
    let mut orders: Vec<Written> = Vec::new();
    let mut taken: Vec<u16> = Vec::new();
    let line_count = own.iter().filter(|&&u| matches!(p.role(u), Role::Line | Role::Horse)).count();
    // Objectives not deep among the enemy, the most valuable first: the nearest close-order
    // foot that sees it holds it; never more than a third of the line.
    let mut objectives: Vec<&crate::scenario::TerrainObjective> = st.objectives.iter().collect();
    objectives.sort_by(|a, b| b.points.cmp(&a.points).then(a.area.cmp(&b.area)));
    for obj in objectives {
        if taken.len() * 3 >= line_count.max(1) {
            break;
        }
        let Some(area) = st.table.areas.get(obj.area) else { continue };
        let centre = area.polygon.centroid().unwrap_or(Point::new(0.0, 0.0));
        // Not one deep among the enemy: he would only throw the unit away.
        if p.fwd(centre) > 0.7 * p.depth {
            continue;
        }
        let holder = own
            .iter()
            .copied()
            .filter(|&u| !taken.contains(&u) && p.role(u) == Role::Line)
            .filter(|&u| p.unit(u).troop.is_infantry())
            .filter(|&u| sees_area(&st.table, p.unit(u).at, eye(p.unit(u).troop), obj.area))
            .min_by(|a, b| {
                let (da, db) = (p.unit(*a).at.distance(centre), p.unit(*b).at.distance(centre));
                da.total_cmp(&db).then(a.cmp(b))
            });
        if let Some(u) = holder {
            taken.push(u);
            let at = Objective::Feature { id: area.name.clone() };
            orders.push(Written { unit: u, order: Some(Order::new(Verb::Hold { at: Some(at) })) });
        }
    }
    // The reserve: with five or more units fit for the line, the foot farthest back.
    let bearing = axis_bearing(&p);
    if line_count >= 5 {
        let mid = p.lat(p.origin);
        let reserve =
            own.iter().copied().filter(|&u| !taken.contains(&u) && p.role(u) == Role::Line).min_by(
                |a, b| {
                    let key = |u: u16| {
                        let at = p.unit(u).at;
                        (p.fwd(at) * 4.0).round() * 100.0 + (p.lat(at) - mid).abs()
                    };
                    key(*a).total_cmp(&key(*b)).then(a.cmp(b))
                },
            );
        if let Some(u) = reserve {
            taken.push(u);
            let order = Order::new(Verb::Advance { to: Objective::Bearing { degrees: bearing } });
            orders.push(Written { unit: u, order: Some(order) });
        }
    }
    // The line and the horse against the enemy opposite, lane by lane.
    let mut line: Vec<u16> = own
        .iter()
        .copied()
        .filter(|&u| !taken.contains(&u) && matches!(p.role(u), Role::Line | Role::Horse))
        .collect();
    line.sort_by(|a, b| p.lat(p.unit(*a).at).total_cmp(&p.lat(p.unit(*b).at)).then(a.cmp(b)));
    let mut foes = p.foes.clone();
    foes.sort_by(|a, b| p.lat(p.unit(*a).at).total_cmp(&p.lat(p.unit(*b).at)).then(a.cmp(b)));
    let cost = |i: usize, j: usize| {
        let (u, e) = (p.unit(line[i]), p.unit(foes[j]));
        (p.lat(u.at) - p.lat(e.at)).abs() + mismatch(u, e)
    };
    for (i, j) in lanes(line.len(), foes.len(), cost).into_iter().enumerate() {
        let order = Order::new(Verb::Attack { unit: foes[j] });
        orders.push(Written { unit: line[i], order: Some(order) });
        taken.push(line[i]);
    }
    // The rest: screens skirmish against the enemy opposite, archers march behind the line,
    // engines hold.
    for &u in own.iter().filter(|u| !taken.contains(u)) {
        let order = match p.role(u) {
            Role::Screen => {
                let at = p.unit(u).at;
                let best = p.foes.iter().copied().min_by(|a, b| {
                    let key = |e: u16| {
                        let f = p.unit(e);
                        let loose = if f.troop.is_light() { 6.0 } else { 0.0 };
                        (p.lat(at) - p.lat(f.at)).abs() + 0.25 * at.distance(f.at) + loose
                    };
                    key(*a).total_cmp(&key(*b)).then(a.cmp(b))
                });
                match best {
                    Some(e) => Order::new(Verb::Skirmish { unit: e }),
                    None => Order::new(Verb::Hold { at: None }),
                }
            }
            Role::Shooter => {
                Order::new(Verb::Advance { to: Objective::Bearing { degrees: bearing } })
            }
            _ => Order::new(Verb::Hold { at: None }),
        };
        orders.push(Written { unit: u, order: Some(order) });
    }
    orders.sort_by_key(|w| w.unit);
    // Keep only what the rules accept (a feature out of sight, light foot against horse).
    orders
        .into_iter()
        .map(|w| {
            let one = Command::Write { orders: vec![w.clone()] };
            if rules.check(st, Actor::Side(side), &one).is_ok() {
                w
            } else {
                Written { unit: w.unit, order: Some(Order::new(Verb::Hold { at: None })) }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::lanes;

    #[test]
    fn lanes_never_cross_and_spread_over_the_foes() {
        // Three units at 0, 10, 20 against foes at 1, 11, 21: straight across.
        let own: [f64; 3] = [0.0, 10.0, 20.0];
        let foe: [f64; 3] = [1.0, 11.0, 21.0];
        let got = lanes(3, 3, |i, j| (own[i] - foe[j]).abs());
        assert_eq!(got, vec![0, 1, 2]);
        // Two units against one foe opposite and one far off: the second still takes the
        // near one only if crowding costs less than the walk.
        let foe: [f64; 2] = [5.0, 60.0];
        let got = lanes(2, 2, |i, j| (own[i] - foe[j]).abs());
        assert_eq!(got, vec![0, 0]);
        let got = lanes(3, 2, |i, j| (own[i] - foe[j]).abs());
        assert!(got.windows(2).all(|w| w[0] <= w[1]), "{got:?}");
    }
}
