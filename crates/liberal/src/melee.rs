//! Hand-to-hand: the defender gathers his figures within 6" of the attacker's front rank and
//! lines them up like the attacker; single fights of one d6 and a bonus each, the lower losing
//! and taking a result die; three lost in a row lose a rank, which goes back 18"; rank after
//! rank until one side has none; the losers retreat, their guns are spiked or taken. A fight
//! for a house is one contest of three in a row.

use crate::Liberal;
use crate::data::{Fate, Kind};
use crate::state::{Event, Fight, Formation, Role, Status, UnitId};
use crate::turn::Run;
use tabletop::dice::DiceSource;
use tabletop::geometry::{Sector, direction_sector};

/// A figure in the melee: (unit, figure index, bonus, wins ties).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Man {
    pub(crate) unit: UnitId,
    pub(crate) figure: usize,
    pub(crate) bonus: i32,
    pub(crate) ties: bool,
    pub(crate) colours: bool,
}

fn ids(v: &[&'static str]) -> Vec<tabletop::rules::RuleId> {
    v.iter().map(|s| tabletop::rules::RuleId::new(s)).collect()
}

impl Liberal {
    fn man(&self, st: &crate::state::State, unit: UnitId, figure: usize, extra: i32) -> Man {
        let u = &st.units[unit];
        let f = &u.figures[figure];
        let colours = f.role == Role::Colours && u.flag == crate::state::Flag::Carried;
        self.man_of(f.troop, u.mounted, colours, extra, (unit, figure))
    }

    /// A man of troop type `troop` (its bonus and tie win: horse only when `mounted`), with
    /// `extra` added (square, house), carrying the colours or not, known as (unit, figure).
    pub(crate) fn man_of(
        &self,
        troop: usize,
        mounted: bool,
        colours: bool,
        extra: i32,
        (unit, figure): (UnitId, usize),
    ) -> Man {
        let t = &self.data.troops[troop];
        let mounted = t.kind == Kind::Horse && mounted;
        Man {
            unit,
            figure,
            bonus: if t.kind == Kind::Horse && !mounted { 0 } else { t.hth_bonus } + extra,
            ties: t.wins_ties && (t.kind != Kind::Horse || mounted),
            colours,
        }
    }
}

impl Run<'_> {
    /// Fights the hand-to-hand of `attacker` against `defender`; returns the winning unit that
    /// may re-form (LIB-HTH-14), if any.
    pub fn melee(&mut self, attacker: UnitId, defender: UnitId) -> Option<UnitId> {
        let r = self.rules;
        let st = &*self.st;
        let m = &r.data.rules.melee;
        let house = st.units[defender].house.is_some();
        let was_square = st.units[defender].place.formation == Formation::Square;
        let mut rules = vec![
            "LIB-HTH-01",
            "LIB-HTH-04",
            "LIB-HTH-05",
            "LIB-HTH-06",
            "LIB-R-05",
            "LIB-R-06",
            "LIB-R-07",
        ];
        let att_ranks = st.units[attacker].in_ranks();
        let aw = r.rank_width(st.units[attacker].place.formation, att_ranks.len()).max(1);
        let att: Vec<Man> = att_ranks.iter().map(|i| r.man(st, attacker, *i, 0)).collect();
        // The defender's figures.
        let mut defenders = vec![defender];
        let mut broken = Vec::new();
        let mut def: Vec<Man> = Vec::new();
        if house {
            rules.extend(["LIB-HOUSE-01", "LIB-HOUSE-05", "LIB-R-30"]);
            for i in st.units[defender].in_ranks() {
                def.push(r.man(st, defender, i, m.house_bonus));
            }
        } else {
            rules.extend(["LIB-HTH-02", "LIB-HTH-03", "LIB-R-31"]);
            let target = &st.units[defender];
            if target.place.formation == Formation::Square && !target.square_broken {
                // The attacked face alone (LIB-R-29).
                rules.extend(["LIB-SQUARE-02", "LIB-R-29"]);
                let n = target.strength();
                let per_face = n.div_ceil(4).max(1);
                let from = r.footprint(&st.units[attacker]).centre - target.place.at;
                let face = match direction_sector(target.place.facing, from) {
                    Sector::Front => 0,
                    Sector::Right => 1,
                    Sector::Rear => 2,
                    Sector::Left => 3,
                };
                let mut rest = Vec::new();
                for (k, i) in target.in_ranks().into_iter().enumerate() {
                    if (k / per_face).min(3) == face {
                        def.push(r.man(st, defender, i, m.square_bonus));
                    } else {
                        rest.push(r.man(st, defender, i, 0));
                    }
                }
                // Outnumbered, the other faces come in behind as rear ranks without their +1,
                // and the square is broken (LIB-R-29, LIB-SQUARE-05).
                if att.len() > def.len() && !rest.is_empty() {
                    def.extend(rest);
                    broken.push(defender);
                    rules.push("LIB-SQUARE-05");
                }
            } else {
                for i in target.in_ranks() {
                    def.push(r.man(st, defender, i, 0));
                }
            }
            // Support from within 6" of the attacker's front rank, never from houses.
            let front: Vec<_> =
                r.positions(&st.units[attacker]).into_iter().take(aw).map(|(_, p)| p).collect();
            let mut near: Vec<(f64, UnitId)> = st
                .units
                .iter()
                .filter(|u| u.side == target.side && u.id != defender && u.strength() > 0)
                .filter_map(|u| {
                    if u.house.is_some() {
                        return None;
                    }
                    let d = r
                        .positions(u)
                        .iter()
                        .flat_map(|(_, p)| front.iter().map(move |q| p.distance(*q)))
                        .fold(f64::INFINITY, f64::min);
                    (d <= m.gather).then_some((d, u.id))
                })
                .collect();
            near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            if st
                .units
                .iter()
                .any(|u| u.side == target.side && u.house.is_some() && u.strength() > 0)
            {
                rules.push("LIB-HOUSE-04");
            }
            for (_, u) in near {
                defenders.push(u);
                if st.units[u].place.formation == Formation::Square {
                    broken.push(u);
                    rules.push("LIB-SQUARE-05");
                }
                for i in st.units[u].in_ranks() {
                    def.push(r.man(st, u, i, 0));
                }
            }
        }
        let (fights, rank_results, attacker_won, _) =
            contest(r, &mut *self.dice, &att, &def, aw, house || def.is_empty(), &mut rules);
        rules.push("LIB-HTH-13");
        rules.push("LIB-MORALE-05");
        rules.sort();
        rules.dedup();
        self.emit(Event::Melee {
            names: Vec::new(),
            attacker,
            defenders: defenders.clone(),
            house,
            fights,
            ranks: rank_results,
            attacker_won,
            broken,
            rules: ids(&rules),
        });
        let losers: Vec<UnitId> = if attacker_won { defenders.clone() } else { vec![attacker] };
        // Guns left behind: spiked on an even die, then taken (LIB-HTH-15/16).
        if attacker_won {
            for &d in &defenders {
                let u = &self.st.units[d];
                if u.gun.as_ref().is_some_and(|g| !g.destroyed) {
                    // A gun fired (or already tried) this turn is not spiked too (LIB-ART-16,
                    // LIB-R-27: one attempt a gun a turn).
                    let tried = u.gun.as_ref().is_some_and(|g| g.fired || g.spiked);
                    if !tried {
                        let r = crate::fire::die(
                            self.dice,
                            6,
                            "the retreating crew spike the gun".into(),
                            "LIB-HTH-16",
                        );
                        let spiked = self.rules.data.rules.artillery.spike_faces.contains(&r.value);
                        self.emit(Event::Spiked { gun: d, die: r, spiked });
                    }
                    let mut taken = self.st.units[d].clone();
                    taken.id = self.st.units.len();
                    taken.side = self.st.units[attacker].side;
                    taken.name = format!("{} (taken)", taken.name);
                    taken.figures.clear();
                    taken.flag = crate::state::Flag::None;
                    self.emit(Event::GunTaken { from: d, unit: taken });
                }
            }
        }
        // The house fought for, before its beaten occupants leave it (LIB-R-30).
        let held = self.st.units[defender].house;
        let dist = self.rules.data.rules.melee.retreat;
        for u in losers {
            if self.st.units[u].strength() > 0 {
                let rules: &[&'static str] = if self.st.units[u].place.formation
                    == Formation::Square
                    || (u == defender && was_square)
                {
                    &["LIB-HTH-13", "LIB-MORALE-05", "LIB-SQUARE-04"]
                } else if house {
                    &["LIB-HTH-13", "LIB-MORALE-05", "LIB-HOUSE-06"]
                } else {
                    &["LIB-HTH-07", "LIB-HTH-13", "LIB-MORALE-05"]
                };
                self.retreat(u, dist, rules);
            }
        }
        // A winning attacker of a house moves in (LIB-R-30).
        if house && attacker_won && self.st.units[attacker].strength() > 0 {
            let h = held;
            let cap = h.and_then(|h| self.st.houses.get(h).copied()).unwrap_or(0);
            if let Some(hi) = h
                && self.st.units[attacker].strength() <= cap
                && !self.st.units.iter().any(|o| o.house == Some(hi) && o.strength() > 0)
            {
                let from = self.st.units[attacker].place;
                let at = self.st.table.areas[hi].polygon.centroid().unwrap_or(from.at);
                let to =
                    crate::state::Place { at, facing: from.facing, formation: Formation::House };
                self.emit(Event::Moved {
                    moved: crate::state::Moved {
                        unit: attacker,
                        from,
                        to,
                        used: from.at.distance(at),
                        allowance: from.at.distance(at),
                        basis: "into the house won".into(),
                        names: Vec::new(),
                    },
                    forward_step: false,
                    rules: ids(&["LIB-R-30"]),
                });
            }
        }
        self.demote_guns();
        let winner = if attacker_won { attacker } else { defender };
        let _ = Fate::Dead;
        let _ = Status::Dead;
        (self.st.units[winner].strength() > 0).then_some(winner)
    }
}

/// One single fight between two men (LIB-HTH-04..06, LIB-R-05, LIB-R-06): each throws a d6
/// and adds his bonus, a tie goes to the man who wins ties or is thrown again, and the loser
/// takes a fate die on the hand-to-hand column (the flag column for a colour bearer). Pushes
/// the fight and returns true when the attacker wins.
pub(crate) fn single_fight(
    lib: &Liberal,
    dice: &mut dyn DiceSource,
    a: Man,
    d: Man,
    fights: &mut Vec<Fight>,
) -> bool {
    let mut rerolls = 0;
    loop {
        let ra = crate::fire::die(dice, 6, "single fight: attacker".into(), "LIB-HTH-04").value;
        let rd = crate::fire::die(dice, 6, "single fight: defender".into(), "LIB-HTH-04").value;
        let (ta, td) = (ra as i32 + a.bonus, rd as i32 + d.bonus);
        let won = if ta != td {
            Some(ta > td)
        } else if a.ties != d.ties {
            Some(a.ties)
        } else {
            None
        };
        let Some(aw) = won else {
            rerolls += 1;
            if rerolls > 50 {
                return false;
            }
            continue;
        };
        let loser = if aw { d } else { a };
        let fd = crate::fire::die(dice, 6, "the loser's fate".into(), "LIB-R-06").value;
        let res = &lib.data.rules.results;
        let fate = if loser.colours {
            res.flag[fd as usize - 1]
        } else {
            res.hand_to_hand[fd as usize - 1]
        };
        fights.push(Fight {
            attacker: (a.unit, a.figure),
            defender: (d.unit, d.figure),
            attacker_roll: (ra, a.bonus),
            defender_roll: (rd, d.bonus),
            rerolls,
            attacker_won: aw,
            fate_die: fd,
            fate,
        });
        return aw;
    }
}

/// A whole contest of single fights from the two sides' men in count order: rank by rank,
/// each `aw` wide, until one side has no ranks (LIB-HTH-03, -07, -10..12, LIB-R-07, LIB-R-37),
/// or, when `one` (a house), one contest that the first side to lose three in a row loses
/// (LIB-HOUSE-05). Returns the fights, each lost rank (attacker lost, its men), whether the
/// attacker won, and how many fights had been fought when each lost rank was decided; pushes
/// the rules it applied onto `cited`.
#[allow(clippy::type_complexity)]
pub(crate) fn contest(
    lib: &Liberal,
    dice: &mut dyn DiceSource,
    att: &[Man],
    def: &[Man],
    aw: usize,
    one: bool,
    cited: &mut Vec<&'static str>,
) -> (Vec<Fight>, Vec<(bool, Vec<(UnitId, usize)>)>, bool, Vec<usize>) {
    let mut fights: Vec<Fight> = Vec::new();
    let mut decided: Vec<usize> = Vec::new();
    let mut rank_results: Vec<(bool, Vec<(UnitId, usize)>)> = Vec::new();
    let limit = lib.data.rules.melee.lost_in_row;
    let attacker_won;
    if one {
        // One contest: first to lose three in a row (LIB-HOUSE-05).
        let (mut ia, mut id) = (0usize, 0usize);
        let (mut qa, mut qd) = (att.to_vec(), def.to_vec());
        let mut streak: (bool, u32) = (true, 0);
        loop {
            if qa.is_empty() || qd.is_empty() {
                attacker_won = qd.is_empty() && !qa.is_empty();
                break;
            }
            let (a, d) = (qa[ia % qa.len()], qd[id % qd.len()]);
            let aw = single_fight(lib, dice, a, d, &mut fights);
            if aw {
                qd.remove(id % qd.len());
                ia += 1;
            } else {
                qa.remove(ia % qa.len());
                id += 1;
            }
            let lost_by_attacker = !aw;
            streak = if streak.0 == lost_by_attacker && streak.1 > 0 {
                (lost_by_attacker, streak.1 + 1)
            } else {
                (lost_by_attacker, 1)
            };
            if streak.1 >= limit {
                attacker_won = !streak.0;
                let losers = if attacker_won { &qd } else { &qa };
                decided.push(fights.len());
                rank_results
                    .push((!attacker_won, losers.iter().map(|x| (x.unit, x.figure)).collect()));
                break;
            }
        }
    } else {
        // Rank by rank (LIB-HTH-03, -07, -10..12, LIB-R-37).
        let chunk = |v: &[Man]| -> Vec<Vec<Man>> { v.chunks(aw).map(|c| c.to_vec()).collect() };
        let (mut ra, mut rd) = (chunk(att), chunk(def));
        cited.extend(["LIB-HTH-07", "LIB-HTH-08"]);
        loop {
            if ra.is_empty() || rd.is_empty() {
                attacker_won = rd.is_empty() && !ra.is_empty();
                cited.push("LIB-HTH-12");
                break;
            }
            let (mut ia, mut id) = (0usize, 0usize);
            let mut streak: (bool, u32) = (true, 0);
            let attacker_lost_rank = loop {
                if ra[0].is_empty() {
                    break true;
                }
                if rd[0].is_empty() {
                    break false;
                }
                let (na, nd) = (ra[0].len(), rd[0].len());
                let (a, d) = (ra[0][ia % na], rd[0][id % nd]);
                let aw = single_fight(lib, dice, a, d, &mut fights);
                if aw {
                    rd[0].remove(id % nd);
                    ia += 1;
                } else {
                    ra[0].remove(ia % na);
                    id += 1;
                }
                let lost_by_attacker = !aw;
                streak = if streak.0 == lost_by_attacker && streak.1 > 0 {
                    (lost_by_attacker, streak.1 + 1)
                } else {
                    (lost_by_attacker, 1)
                };
                if streak.1 >= limit {
                    break streak.0;
                }
            };
            let (loser, winner) =
                if attacker_lost_rank { (&mut ra, &mut rd) } else { (&mut rd, &mut ra) };
            let gone = loser.remove(0);
            decided.push(fights.len());
            rank_results
                .push((attacker_lost_rank, gone.iter().map(|x| (x.unit, x.figure)).collect()));
            cited.push(if attacker_lost_rank { "LIB-HTH-11" } else { "LIB-HTH-10" });
            // The winner fills its front rank from the ranks behind (LIB-R-37).
            while winner[0].len() < aw && winner.len() > 1 {
                let x = winner[1].remove(0);
                winner[0].push(x);
                if winner[1].is_empty() {
                    winner.remove(1);
                }
            }
        }
    }
    (fights, rank_results, attacker_won, decided)
}
