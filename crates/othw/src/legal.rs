//! Where units can go and whom they can fight: the single-unit reach (moves and charges, by a
//! small search over square, facing and points spent), group moves, and the list of every legal
//! command of a side.

use crate::Othw;
use crate::cells::{self, Cells};
use crate::data::Special;
use crate::state::{Board, Command, EMPTY, State, Status, UnitId, flags};
use std::ops::ControlFlow;
use std::sync::Arc;
use tabletop::grid::{CellPos, CellTerrain, GridFacing};
use tabletop::rules::Side;

/// Everything a unit can do with one move action.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// Squares and facings it may end a move on (its own start excluded), besides those of
    /// `squares`.
    pub ends: Vec<(CellPos, GridFacing)>,
    /// Squares it may end a move on facing any way (a unit that turns for free), as bits by
    /// cell index on a board of at most 128 cells. [`Reach::each_end`] gives them after
    /// `ends`, square by square in index order, each square's facings in order.
    pub squares: u128,
    /// The board's width in cells, for `squares`.
    pub cols: i32,
    /// Squares and facings from which it may fight the unit in front (standing or charging),
    /// with that unit.
    pub attacks: Vec<(CellPos, GridFacing, UnitId)>,
    /// The squares the search stood on, as bits by cell index, on a board of at most 128
    /// cells (0 on a larger one). What it looked at is these and their neighbours.
    pub stepped: u128,
}

impl Reach {
    /// Every square and facing it may end a move on: `ends`, then those of `squares`.
    pub fn each_end(&self) -> impl Iterator<Item = (CellPos, GridFacing)> + '_ {
        let (cols, mut b) = (self.cols.max(1), self.squares);
        let squares = std::iter::from_fn(move || {
            (b != 0).then(|| {
                let i = b.trailing_zeros() as i32;
                b &= b - 1;
                CellPos::new(i % cols, i / cols)
            })
        });
        let all = squares.flat_map(|p| GridFacing::ALL.map(|f| (p, f)));
        self.ends.iter().copied().chain(all)
    }

    /// True when it may end a move on `to` facing `facing`.
    pub fn has_end(&self, to: CellPos, facing: GridFacing) -> bool {
        // (Any square a command names, on the board or not.)
        let i = i64::from(to.row) * i64::from(self.cols) + i64::from(to.col);
        let on_squares =
            (0..self.cols).contains(&to.col) && (0..128).contains(&i) && self.squares >> i & 1 != 0;
        on_squares || self.ends.contains(&(to, facing))
    }
}

/// True when `mover` may step through `occupant` (OTHW-MOV-05, OTHW-TRT-10): friends only,
/// and one of the two must be a skirmisher.
pub fn can_pass(st: &State, mover: UnitId, occupant: UnitId) -> bool {
    let (a, b) = (&st.units[mover as usize], &st.units[occupant as usize]);
    a.side == b.side && (a.is_skirmisher() || b.is_skirmisher())
}

/// True when `target` may be attacked by `attacker`: an enemy on the board, or a friendly
/// rampaging elephant (OTHW-CMB-21).
pub fn attackable(st: &State, attacker: UnitId, target: UnitId) -> bool {
    let (a, t) = (&st.units[attacker as usize], &st.units[target as usize]);
    if target == attacker || !t.on_board() {
        return false;
    }
    a.side != t.side || t.status == Status::Rampaging
}

/// The board as flat tables for the searches: each cell's neighbours (by facing, in
/// [`GridFacing::ALL`] order), its position and its terrain. Rebuilt only when the board
/// changes: the tables hold the board they were built from, so one shared board is recognised
/// by its address.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tables {
    board: Option<Arc<Board>>,
    /// Columns of the grid.
    pub cols: i32,
    /// Each cell's neighbour in each facing, or [`NO_CELL`] off the board.
    pub nbr: Vec<[u16; 4]>,
    /// Each cell's position.
    pub pos: Vec<CellPos>,
    /// Each cell's terrain.
    pub terrain: Vec<CellTerrain>,
    /// Woods and fords (OTHW-MOV-11).
    pub restricted: Vec<bool>,
    /// True when the board has woods or a ford.
    pub any_restricted: bool,
    /// The board's shape for sets of cells as bits, on a board of at most 128 cells, and its
    /// river cells as such a set.
    pub shape: Option<Cells>,
    pub river: u128,
}

/// No neighbour: the board edge (in [`Tables::nbr`]).
pub(crate) const NO_CELL: u16 = u16::MAX;

/// Marks a search state reached by turning on the spot (with its facing, in the queue).
const TURNED: u8 = 0x10;

impl Tables {
    /// Makes the tables describe `board`; false when the grid is malformed.
    pub fn sync(&mut self, board: &Arc<Board>) -> bool {
        if let Some(b) = &self.board
            && (Arc::ptr_eq(b, board) || **b == **board)
        {
            // The same board (another game on the same scenario builds an equal one).
            if !Arc::ptr_eq(b, board) {
                self.board = Some(board.clone());
            }
            return true;
        }
        self.board = None;
        let g = &board.grid;
        if !g.is_well_formed() || g.cells.len() >= usize::from(NO_CELL) {
            return false;
        }
        let (cols, rows) = (g.cols as i32, g.rows as i32);
        self.cols = cols;
        self.nbr.clear();
        self.pos.clear();
        for row in 0..rows {
            for col in 0..cols {
                let i = (row * cols + col) as u16;
                let c = cols as u16;
                self.nbr.push([
                    if row + 1 < rows { i + c } else { NO_CELL },
                    if col + 1 < cols { i + 1 } else { NO_CELL },
                    if row > 0 { i - c } else { NO_CELL },
                    if col > 0 { i - 1 } else { NO_CELL },
                ]);
                self.pos.push(CellPos::new(col, row));
            }
        }
        self.terrain.clear();
        self.terrain.extend(g.cells.iter().map(|c| c.terrain));
        self.restricted.clear();
        self.restricted.extend(
            self.terrain.iter().map(|t| matches!(t, CellTerrain::Wood | CellTerrain::Ford)),
        );
        self.any_restricted = self.restricted.contains(&true);
        self.shape =
            Cells::new(cols, rows).filter(|_| self.terrain.len() == (cols * rows) as usize);
        self.river = match self.shape {
            Some(_) => (self.terrain.iter().enumerate())
                .filter(|(_, t)| **t == CellTerrain::River)
                .fold(0, |b, (i, _)| b | 1 << i),
            None => 0,
        };
        self.board = Some(board.clone());
        true
    }

    /// The index of the cell at `p` (on the board).
    pub fn index(&self, p: CellPos) -> u16 {
        (p.row * self.cols + p.col) as u16
    }
}

thread_local! {
    /// Buffers for listing commands, and a list for [`Othw::any_action`].
    static BUFFERS: std::cell::RefCell<(Scratch, Reach, Vec<Command>)> = Default::default();
}

/// Reusable buffers for [`Othw::reach_into`], so that listing commands does not allocate per
/// unit.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// Points spent by state, and the ends offered, each marked with the search it belongs
    /// to (`round` in the high bits), so that nothing needs clearing between searches.
    cost: Vec<u32>,
    seen: Vec<u32>,
    round: u32,
    queue: Vec<(u16, u8, bool, u8)>,
    pub(crate) tables: Tables,
    /// Search every unit breadth-first, even one whose lists are otherwise worked out by a
    /// shortcut (one or two actions' worth of points, or free turns where woods and fords
    /// cannot cut the move): the tests compare the two.
    long_way: bool,
}

#[cfg(test)]
thread_local! {
    /// How many searches took each shortcut: one action, two actions, free turns (for the
    /// tests).
    static SHORTCUTS: std::cell::Cell<[usize; 3]> = const { std::cell::Cell::new([0; 3]) };
}

/// Counts a search that took shortcut `k` (in [`SHORTCUTS`]).
#[cfg(test)]
fn took(k: usize) {
    SHORTCUTS.with(|n| {
        let mut v = n.get();
        v[k] += 1;
        n.set(v);
    });
}

/// The points spent after spending `cost` more on `spent`, when they are within `budget`
/// (a sum past the largest number of points is beyond any budget).
fn spend(spent: u8, cost: u8, budget: u8) -> Option<u8> {
    spent.checked_add(cost).filter(|&n| n <= budget)
}

/// The unit being searched for, what the search asks, and what the unit may do with a square
/// and its occupant.
struct Mover<'a> {
    st: &'a State,
    /// The board's tables (matching the state's board).
    tables: &'a Tables,
    u: UnitId,
    side: Side,
    skirmisher: bool,
    /// Loose order or a skirmisher: woods and fords do not cut its move (OTHW-MOV-11).
    exempt: bool,
    /// Its movement points, and the points of a move that touches woods or a ford.
    m: u8,
    rp: u8,
    /// The cell it stands on and its facing (by index in [`GridFacing::ALL`]).
    start: usize,
    facing: u8,
    /// The points of a step.
    step: u8,
    /// Whether attacks are listed, and whether the search stops at the first end or attack.
    want_attacks: bool,
    first: bool,
}

impl Mover<'_> {
    /// After something was listed: stop when the search wants only the first.
    fn found(&self) -> ControlFlow<()> {
        if self.first { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }

    /// True when cell `i` is woods or a ford that cuts this unit's move (OTHW-MOV-11).
    fn restricted(&self, i: usize) -> bool {
        !self.exempt && self.tables.restricted[i]
    }

    /// The points a move may spend, by whether it touched woods or a ford.
    fn budget(&self, touched: bool) -> u8 {
        if touched { self.rp } else { self.m }
    }

    /// True when the unit may step through a square holding `v`: empty, itself, or a friend
    /// when one of the two is a skirmisher (OTHW-MOV-05, TRT-10).
    fn passable(&self, v: u8) -> bool {
        v == EMPTY || v == self.u || {
            let o = &self.st.units[v as usize];
            o.side == self.side && (self.skirmisher || o.is_skirmisher())
        }
    }

    /// True when the unit may attack `v`: an enemy on the board, or a friendly rampaging
    /// elephant (OTHW-CMB-21).
    fn target(&self, v: u8) -> bool {
        v != EMPTY && v != self.u && {
            let o = &self.st.units[v as usize];
            o.on_board() && (o.side != self.side || o.status == Status::Rampaging)
        }
    }
}

/// The squares stood on, as bits, on a board of `cells` cells: kept only on boards of up to
/// 128 cells (0 on a larger one).
fn stepped_bits(cells: usize, stepped: u128) -> u128 {
    if cells <= 128 { stepped } else { 0 }
}

/// The search's lists for a unit with one action and no more (a turn, or a step ahead),
/// whatever the terrain, worked out directly, in the search's order. The search would take
/// the unit from its square facing as it does: an attack on the square in front, standing;
/// then each other facing, in order; then the square ahead, when it may enter it, an end when
/// empty. (Attacks and turns only while its square is its own: a unit gone from the board may
/// have left it to another.) Breaks when `first` and something was found.
fn one_action(w: &Mover, out: &mut Reach) -> ControlFlow<()> {
    let tables = w.tables;
    let (nbr, pos, occ) = (&tables.nbr[..], &tables.pos[..], &w.st.occ[..]);
    let (s, f0) = (w.start, usize::from(w.facing));
    let (p, facing) = (pos[s], GridFacing::ALL[f0]);
    let ahead = nbr[s][f0];
    let free = occ[s] == w.u || occ[s] == EMPTY;
    if w.want_attacks && free && ahead != NO_CELL && w.target(occ[usize::from(ahead)]) {
        out.attacks.push((p, facing, occ[usize::from(ahead)]));
        w.found()?;
    }
    for g in GridFacing::ALL {
        if free && g != facing {
            out.ends.push((p, g));
            w.found()?;
        }
    }
    let mut stepped = 1u128 << (s & 127);
    if ahead != NO_CELL {
        let q = usize::from(ahead);
        if tables.terrain[q] != CellTerrain::River && w.passable(occ[q]) {
            stepped |= 1 << (q & 127);
            if occ[q] == EMPTY {
                out.ends.push((pos[q], facing));
                w.found()?;
            }
        }
    }
    out.stepped = stepped_bits(nbr.len(), stepped);
    ControlFlow::Continue(())
}

/// The search's lists for a unit with two actions and no more (a turn and a step each cost
/// `step`, and a third action is beyond either budget), worked out directly, in the search's
/// order. Breadth-first, the search would take the unit: standing, to an attack on the square
/// in front; then, by one action, to each other facing in order (an end, an attack on the
/// square in front, a step onward) and to the square ahead (an end, an attack, a step on);
/// then, by two, to the squares stepped onto after a turn, to each other facing on the square
/// ahead, and to the square two ahead. Each list holds each (square, facing) once: no two of
/// these states share one. Breaks when `first` and something was found.
fn two_actions(w: &Mover, out: &mut Reach) -> ControlFlow<()> {
    let (tables, step, want_attacks) = (w.tables, w.step, w.want_attacks);
    let (nbr, pos, occ) = (&tables.nbr[..], &tables.pos[..], &w.st.occ[..]);
    // A square the unit may stand on: empty, or its own.
    let free = |v: u8| v == EMPTY || v == w.u;
    // A square it may step into: not the river (OTHW-MOV-05), and empty or passable.
    let enterable = |q: usize| tables.terrain[q] != CellTerrain::River && w.passable(occ[q]);
    let (s, f0) = (w.start, usize::from(w.facing));
    let (p, facing) = (pos[s], GridFacing::ALL[f0]);
    let (t0, free_s) = (w.restricted(s), free(occ[s]));
    let mut stepped = 1u128 << (s & 127);
    // Standing: an attack on the square in front.
    let ahead = nbr[s][f0];
    if want_attacks && free_s && ahead != NO_CELL && w.target(occ[usize::from(ahead)]) {
        out.attacks.push((p, facing, occ[usize::from(ahead)]));
        w.found()?;
    }
    // One action, a turn: an end, then with a second action an attack or a step onward (by
    // facing, as bits).
    let mut onward = 0u8;
    if step <= w.budget(t0) {
        for (f, g) in GridFacing::ALL.into_iter().enumerate() {
            if f == f0 {
                continue;
            }
            if free_s {
                out.ends.push((p, g));
                w.found()?;
            }
            let q = nbr[s][f];
            if q == NO_CELL {
                continue;
            }
            let q = usize::from(q);
            if 2 * step > w.budget(t0 || w.restricted(q)) {
                continue;
            }
            if want_attacks && free_s && w.target(occ[q]) {
                out.attacks.push((p, g, occ[q]));
                w.found()?;
            }
            if enterable(q) {
                onward |= 1 << f;
            }
        }
    }
    // One action, the step ahead: an end, then with a second action an attack, a step on
    // (the square two ahead) or a turn (on the square ahead, when the unit may stand there).
    let (mut two_ahead, mut turn_ahead) = (None, false);
    let q1 = usize::from(ahead);
    if ahead != NO_CELL && enterable(q1) && step <= w.budget(t0 || w.restricted(q1)) {
        let t1 = t0 || w.restricted(q1);
        stepped |= 1 << (q1 & 127);
        let (p1, free1) = (pos[q1], free(occ[q1]));
        if free1 {
            out.ends.push((p1, facing));
            w.found()?;
        }
        let q2 = nbr[q1][f0];
        if q2 != NO_CELL && 2 * step <= w.budget(t1 || w.restricted(usize::from(q2))) {
            let q2 = usize::from(q2);
            if want_attacks && free1 && w.target(occ[q2]) {
                out.attacks.push((p1, facing, occ[q2]));
                w.found()?;
            }
            if enterable(q2) {
                two_ahead = Some(q2);
            }
        }
        turn_ahead = free1 && 2 * step <= w.budget(t1);
    }
    // Two actions: the ends only (an attack would be a third).
    for (f, g) in GridFacing::ALL.into_iter().enumerate() {
        if onward & 1 << f != 0 {
            let q = usize::from(nbr[s][f]);
            stepped |= 1 << (q & 127);
            if free(occ[q]) {
                out.ends.push((pos[q], g));
                w.found()?;
            }
        }
    }
    if turn_ahead {
        for (f, g) in GridFacing::ALL.into_iter().enumerate() {
            if f != f0 {
                out.ends.push((pos[q1], g));
                w.found()?;
            }
        }
    }
    if let Some(q) = two_ahead {
        stepped |= 1 << (q & 127);
        if free(occ[q]) {
            out.ends.push((pos[q], facing));
            w.found()?;
        }
    }
    out.stepped = stepped_bits(nbr.len(), stepped);
    ControlFlow::Continue(())
}

/// The search's lists for a unit that turns for free (OTHW-MOV-03), where woods and fords
/// cannot cut its move (the board has none, or it ignores them: OTHW-MOV-11), on a board of at
/// most 128 cells (`shape`), its points and a step adding up to at most 255. With every step
/// costing the same and no budget depending on the ground crossed, the squares it can stand
/// on are those within its points' worth of steps through squares it may enter, found a step
/// at a time as sets of bits. Its own square's other facings are listed as ends, the other
/// squares it may end on (facing any way) kept as bits (`squares`); its attacks (standing, or
/// charging with a step to spare) come square by square, the squares by the steps taken to
/// reach them and then in index order. Each square is reached once, so no attack is listed
/// twice. Breaks when `first` and something was found.
fn free_turns(w: &Mover, shape: Cells, out: &mut Reach) -> ControlFlow<()> {
    let (tables, step) = (w.tables, w.step);
    let (nbr, pos, occ) = (&tables.nbr[..], &tables.pos[..], &w.st.occ[..]);
    let (start, m) = (w.start, w.m);
    // The squares others hold, those it may not enter (and the river), and those holding a
    // unit it may attack.
    let (mut held, mut blocked, mut targets) = (0u128, tables.river, 0u128);
    // Only those within its move and a step matter.
    let near = match m.checked_div(step) {
        Some(steps) => shape.grow(1 << start, u32::from(steps) + 1),
        None => shape.full,
    };
    let mut b = cells::held(occ) & near;
    while b != 0 {
        let j = b.trailing_zeros() as usize;
        b &= b - 1;
        let v = occ[j];
        if v == w.u {
            continue;
        }
        held |= 1 << j;
        if !w.passable(v) {
            blocked |= 1 << j;
        }
        if w.want_attacks && w.target(v) {
            targets |= 1 << j;
        }
    }
    let next_to_targets = shape.around(targets);
    let me = 1u128 << start;
    // The squares reached with `c` points (`level`), and with at most as many (`reached`).
    let (mut level, mut reached, mut c) = (me, me, 0u8);
    loop {
        let nc = c + step;
        let free = level & !held;
        if free & me != 0 {
            // Every other facing on its own square.
            for (f, g) in GridFacing::ALL.into_iter().enumerate() {
                if f != usize::from(w.facing) {
                    out.ends.push((pos[start], g));
                }
            }
            w.found()?;
        }
        if free & !me != 0 {
            out.squares |= free & !me;
            w.found()?;
        }
        // Attacks: standing, or charging with a step to spare.
        let mut b = free & next_to_targets & if nc <= m { !0 } else { me };
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            for (f, g) in GridFacing::ALL.into_iter().enumerate() {
                let q = nbr[i][f];
                if q != NO_CELL && targets & 1 << q != 0 {
                    out.attacks.push((pos[i], g, occ[usize::from(q)]));
                    w.found()?;
                }
            }
        }
        if nc > m {
            break;
        }
        let next = shape.around(level) & !reached & !blocked;
        if next == 0 {
            break;
        }
        (level, reached, c) = (next, reached | next, nc);
    }
    // Every square reached was stood on.
    out.stepped = reached;
    ControlFlow::Continue(())
}

impl Othw {
    /// The moves and attacks unit `u` could make with one move action from where it stands,
    /// whatever its flags (the caller checks those). `want_attacks` also lists attacks.
    pub fn reach(&self, st: &State, u: UnitId, want_attacks: bool) -> Reach {
        let mut out = Reach::default();
        BUFFERS.with(|b| match b.try_borrow_mut() {
            Ok(mut b) => self.reach_into(st, u, want_attacks, &mut b.0, &mut out),
            // Re-entered (not expected): fresh buffers.
            Err(_) => self.reach_into(st, u, want_attacks, &mut Scratch::default(), &mut out),
        });
        out
    }

    /// As [`Othw::reach`], into `out` (cleared first), with reusable buffers.
    pub fn reach_into(
        &self,
        st: &State,
        u: UnitId,
        want_attacks: bool,
        scratch: &mut Scratch,
        out: &mut Reach,
    ) {
        self.search(st, u, want_attacks, false, scratch, out);
    }

    /// The search behind [`Othw::reach_into`]: over (square, facing, restricted terrain
    /// touched) by points spent, in breadth-first order, so that the lists come out in the
    /// same order however they are used. `first` stops at the first end or attack found.
    /// Three common cases have shortcuts: one action and no more, and two actions and no more
    /// ([`two_actions`]), with the same lists in the same order (ties in the player are broken
    /// by that order); and free turns where woods and fords cannot cut the move
    /// ([`free_turns`]), with the same ends and attacks in an order of its own and the squares
    /// where every facing is an end kept as bits.
    fn search(
        &self,
        st: &State,
        u: UnitId,
        want_attacks: bool,
        first: bool,
        scratch: &mut Scratch,
        out: &mut Reach,
    ) {
        out.ends.clear();
        out.attacks.clear();
        (out.squares, out.stepped) = (0, 0);
        let Some(unit) = st.unit(u) else { return };
        let Scratch { cost, seen, round, queue, tables, long_way } = scratch;
        if !tables.sync(&st.board) || st.occ.len() != tables.nbr.len() {
            return;
        }
        let Some(start) = st.board.grid.index(unit.pos) else { return };
        out.cols = tables.cols;
        let (nbr, terrain, pos) = (&tables.nbr[..], &tables.terrain[..], &tables.pos[..]);
        let occ = &st.occ[..];
        let mv = &self.data.rules.movement;
        let turn_cost = if unit.has(Special::FreeFacing) { 0 } else { mv.turn_cost };
        let (m, rp, step) = (unit.m, mv.restricted_points, mv.step_cost);
        let w = Mover {
            st,
            u,
            side: unit.side,
            skirmisher: unit.is_skirmisher(),
            exempt: unit.ignores_restricted(),
            tables,
            m,
            rp,
            start,
            facing: unit.facing as u8,
            step,
            want_attacks,
            first,
        };
        let start_facing = w.facing;
        let cells = nbr.len();
        let (lo, hi) = (m.min(rp), m.max(rp));
        if !*long_way
            && turn_cost > 0
            && step > 0
            && turn_cost.max(step) <= lo
            && turn_cost.min(step) * 2 > hi
        {
            // One action and no more (a turn, or a step ahead), whatever the terrain.
            #[cfg(test)]
            took(0);
            let _ = one_action(&w, out);
            return;
        }
        if !*long_way && turn_cost == step && (1..=85).contains(&step) && hi < 3 * step {
            // Two actions and no more (turns and steps costing the same, a third beyond either
            // budget; at most 85 points each, so that no sum of three overflows).
            #[cfg(test)]
            took(1);
            let _ = two_actions(&w, out);
            return;
        }
        if !*long_way
            && turn_cost == 0
            && let Some(shape) = tables.shape
            && (w.exempt || !tables.any_restricted)
            && m.checked_add(step).is_some()
        {
            // Free turns where woods and fords cannot cut the move, on a board small enough for
            // the squares as bits (and no sum of points overflowing).
            #[cfg(test)]
            took(2);
            let _ = free_turns(&w, shape, out);
            return;
        }
        // cost[(cell * 4 + facing) * 2 + touched] and seen[cell * 4 + facing], marked with
        // this search's round.
        *round = round.wrapping_add(1) & 0xff_ffff;
        if *round == 0 || cost.len() != cells * 8 {
            cost.clear();
            cost.resize(cells * 8, 0);
            seen.clear();
            seen.resize(cells * 4, 0);
            *round = 1;
        }
        let mark = *round << 8;
        let get = |cost: &[u32], k: usize| {
            let e = cost[k];
            if e & !0xff == mark { e as u8 } else { u8::MAX }
        };
        queue.clear();
        // The squares stood on (by index modulo 128: kept only on boards of up to 128 cells).
        let mut stepped = 0u128;
        let start_touched = w.restricted(start);
        if turn_cost == 0 {
            // Free turns: the facing never limits where the unit can go, so search squares
            // only and offer every facing at each square reached.
            let best = cost;
            best[start * 2 + usize::from(start_touched)] = mark;
            queue.push((start as u16, start_facing, start_touched, 0));
            let mut head = 0;
            while head < queue.len() {
                let (i, _, t, c) = queue[head];
                head += 1;
                let i = usize::from(i);
                if get(best, i * 2 + usize::from(t)) < c {
                    continue;
                }
                stepped |= 1 << (i & 127);
                let occupant = occ[i];
                let free_here = occupant == EMPTY || occupant == u;
                let p = pos[i];
                let around = nbr[i];
                if free_here {
                    // Every facing not offered yet (seen[i * 4] holds them as bits).
                    let e = seen[i * 4];
                    let had = if e & !0xff == mark { e & 0xf } else { 0 };
                    let mut new = 0xf & !had;
                    if i == start {
                        new &= !(1 << start_facing);
                    }
                    if new != 0 {
                        seen[i * 4] = mark | had | new;
                        if new == 0xf {
                            out.ends.extend_from_slice(&GridFacing::ALL.map(|f| (p, f)));
                        } else {
                            for (f, facing) in GridFacing::ALL.into_iter().enumerate() {
                                if new & 1 << f != 0 {
                                    out.ends.push((p, facing));
                                }
                            }
                        }
                        if first {
                            return;
                        }
                    }
                }
                for (f, facing) in GridFacing::ALL.into_iter().enumerate() {
                    let q = around[f];
                    if q == NO_CELL {
                        continue;
                    }
                    let q = usize::from(q);
                    let v = occ[q];
                    if want_attacks && free_here && w.target(v) {
                        let t2 = t || w.restricted(q);
                        let standing = i == start && c == 0;
                        if (standing || spend(c, step, w.budget(t2)).is_some())
                            && !out.attacks.iter().any(|&(a, b, _)| a == p && b == facing)
                        {
                            out.attacks.push((p, facing, v));
                            if first {
                                return;
                            }
                        }
                    }
                    if terrain[q] == CellTerrain::River || !w.passable(v) {
                        continue;
                    }
                    let nt = t || w.restricted(q);
                    if let Some(nc) = spend(c, step, w.budget(nt))
                        && get(best, q * 2 + usize::from(nt)) > nc
                    {
                        best[q * 2 + usize::from(nt)] = mark | u32::from(nc);
                        queue.push((q as u16, f as u8, nt, nc));
                    }
                }
            }
            out.stepped = stepped_bits(cells, stepped);
            return;
        }
        cost[(start * 4 + usize::from(start_facing)) * 2 + usize::from(start_touched)] = mark;
        queue.push((start as u16, start_facing, start_touched, 0));
        let mut head = 0;
        while head < queue.len() {
            let (i, f, t, c) = queue[head];
            head += 1;
            // A state reached by turning: its square's other facings already cost no more
            // than it does plus a turn, so turning again finds nothing cheaper.
            let turned = f & TURNED != 0;
            let (i, f) = (usize::from(i), usize::from(f & !TURNED));
            let k = (i * 4 + f) * 2 + usize::from(t);
            if get(cost, k) < c {
                continue;
            }
            stepped |= 1 << (i & 127);
            let occupant = occ[i];
            let free_here = occupant == EMPTY || occupant == u;
            let facing = GridFacing::ALL[f];
            if free_here && (i != start || f as u8 != start_facing) && seen[k / 2] != mark {
                seen[k / 2] = mark;
                out.ends.push((pos[i], facing));
                if first {
                    return;
                }
            }
            let ahead = nbr[i][f];
            // Attacks from here.
            if want_attacks && free_here && ahead != NO_CELL && w.target(occ[usize::from(ahead)]) {
                let q = usize::from(ahead);
                let t2 = t || w.restricted(q);
                let standing = i == start && c == 0;
                let p = pos[i];
                if (standing || spend(c, step, w.budget(t2)).is_some())
                    && !out.attacks.iter().any(|&(a, b, _)| a == p && b == facing)
                {
                    out.attacks.push((p, facing, occ[q]));
                    if first {
                        return;
                    }
                }
            }
            // Turns.
            if !turned && let Some(nc) = spend(c, turn_cost, w.budget(t)) {
                for nf in 0..4 {
                    let nk = (i * 4 + nf) * 2 + usize::from(t);
                    if nf != f && get(cost, nk) > nc {
                        cost[nk] = mark | u32::from(nc);
                        queue.push((i as u16, nf as u8 | TURNED, t, nc));
                    }
                }
            }
            // A step forward.
            if ahead == NO_CELL {
                continue;
            }
            let q = usize::from(ahead);
            if terrain[q] == CellTerrain::River || !w.passable(occ[q]) {
                continue;
            }
            let nt = t || w.restricted(q);
            let Some(nc) = spend(c, step, w.budget(nt)) else { continue };
            let nk = (q * 4 + f) * 2 + usize::from(nt);
            if get(cost, nk) > nc {
                cost[nk] = mark | u32::from(nc);
                queue.push((q as u16, f as u8, nt, nc));
            }
        }
        out.stepped = stepped_bits(cells, stepped);
    }

    /// Why a group move is illegal, or `None` when it is legal (OTHW-MOV-06, MOV-07, MOV-11).
    pub fn group_problem(
        &self,
        st: &State,
        side: Side,
        units: &[UnitId],
        facing: GridFacing,
        steps: u8,
    ) -> Option<(&'static str, String)> {
        if units.len() < 2 {
            return Some(("OTHW-MOV-06", "a group needs at least two units".into()));
        }
        for (i, &u) in units.iter().enumerate() {
            if units[..i].contains(&u) {
                return Some(("OTHW-MOV-06", format!("unit {u} is named twice")));
            }
            let Some(x) = st.unit(u) else {
                return Some(("OTHW-MOV-06", format!("there is no unit {u}")));
            };
            if x.side != side {
                return Some(("OTHW-MOV-06", format!("{} is not yours", x.name)));
            }
            let with_general = units.iter().any(|&v| st.has_general(v));
            if let Some(p) = self.unit_problem_ex(st, u, with_general) {
                return Some(p);
            }
            if x.flag(flags::GROUP_MOVED) {
                return Some(("OTHW-SEQ-08", format!("{} has already moved in a group", x.name)));
            }
            if x.flag(flags::MOVED) || x.flag(flags::FOUGHT) {
                return Some((
                    "OTHW-MOV-10",
                    format!("{} has already moved or fought: a group move is a first move", x.name),
                ));
            }
        }
        // Connected.
        let mut seen = vec![false; units.len()];
        seen[0] = true;
        let mut stack = vec![0usize];
        while let Some(i) = stack.pop() {
            let pi = st.units[units[i] as usize].pos;
            for j in 0..units.len() {
                if !seen[j] && st.units[units[j] as usize].pos.manhattan(pi) == 1 {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        if seen.iter().any(|s| !s) {
            return Some((
                "OTHW-MOV-06",
                "the units' squares are not orthogonally connected".into(),
            ));
        }
        self.group_path_problem(st, units, facing, steps)
    }

    /// The part of [`Othw::group_problem`] that depends on the facing and steps.
    pub fn group_path_problem(
        &self,
        st: &State,
        units: &[UnitId],
        facing: GridFacing,
        steps: u8,
    ) -> Option<(&'static str, String)> {
        let (rule, what, u, other) = self.group_path_fault(st, units, facing, steps)?;
        let name = &st.units[u as usize].name;
        let other = other.map(|v| st.units[v as usize].name.clone()).unwrap_or_default();
        Some((rule, what.replace("{unit}", name).replace("{other}", &other)))
    }

    /// The allocation-free core of [`Othw::group_path_problem`]: (rule, message template, unit,
    /// other unit).
    pub(crate) fn group_path_fault(
        &self,
        st: &State,
        units: &[UnitId],
        facing: GridFacing,
        steps: u8,
    ) -> Option<(&'static str, &'static str, UnitId, Option<UnitId>)> {
        let mv = &self.data.rules.movement;
        let board = &st.board;
        let mut changes = false;
        for &u in units {
            let x = &st.units[u as usize];
            let exempt = x.ignores_restricted();
            let turn = if x.facing != facing {
                changes = true;
                if x.has(Special::FreeFacing) { 0 } else { mv.turn_cost }
            } else {
                0
            };
            if u16::from(turn) + u16::from(steps) * u16::from(mv.step_cost) > u16::from(x.m) {
                return Some(("OTHW-MOV-02", "{unit} has too few movement points", u, None));
            }
            if !exempt && board.restricted(x.pos) {
                return Some((
                    "OTHW-MOV-11",
                    "{unit} is in woods or a ford: it moves alone",
                    u,
                    None,
                ));
            }
            let mut p = x.pos;
            for k in 1..=steps {
                p = p.step(facing);
                if !board.grid.in_bounds(p) {
                    return Some(("OTHW-MOV-12", "{unit} would leave the board", u, None));
                }
                if board.impassable(p) {
                    return Some(("OTHW-MOV-05", "{unit} would enter the river", u, None));
                }
                if !exempt && board.restricted(p) {
                    return Some((
                        "OTHW-MOV-11",
                        "{unit} would enter woods or a ford: it moves alone",
                        u,
                        None,
                    ));
                }
                if let Some(v) = st.at(p)
                    && !units.contains(&v)
                {
                    if st.units[v as usize].side != x.side {
                        return Some((
                            "OTHW-MOV-07",
                            "{unit} would enter {other}'s square: groups never charge",
                            u,
                            Some(v),
                        ));
                    }
                    if k == steps || !can_pass(st, u, v) {
                        return Some((
                            "OTHW-MOV-05",
                            "{unit} would end on or pass through {other}",
                            u,
                            Some(v),
                        ));
                    }
                }
            }
        }
        if !changes && steps == 0 {
            return Some(("OTHW-MOV-06", "the group move changes nothing", units[0], None));
        }
        None
    }

    /// True when unit `u` may act now as far as its standing goes (the cheap form of
    /// [`Othw::unit_problem_ex`]).
    pub(crate) fn may_act(&self, st: &State, u: UnitId, in_general_group: bool) -> bool {
        let x = &st.units[u as usize];
        x.side == st.phasing
            && x.status == Status::Ready
            && x.pursuing.is_none()
            && !x.flag(flags::DONE)
            && (!st.phase_over || in_general_group || st.has_general(u))
    }

    /// Why unit `u` may not be given an action now (whatever the action), or `None`.
    pub fn unit_problem(&self, st: &State, u: UnitId) -> Option<(&'static str, String)> {
        self.unit_problem_ex(st, u, false)
    }

    /// As [`Othw::unit_problem`]; `in_general_group` lets any unit act after the phase is over
    /// (for a group move that includes the general's unit).
    pub fn unit_problem_ex(
        &self,
        st: &State,
        u: UnitId,
        in_general_group: bool,
    ) -> Option<(&'static str, String)> {
        let x = st.unit(u)?;
        if x.side != st.phasing {
            return Some(("OTHW-SEQ-03", format!("{} is not the phasing side's", x.name)));
        }
        match x.status {
            Status::Ready => {}
            Status::Gone => return Some(("OTHW-SEQ-10", format!("{} is off the board", x.name))),
            _ => {
                return Some((
                    "OTHW-SEQ-10",
                    format!("{} is fleeing or rampaging and cannot be activated", x.name),
                ));
            }
        }
        if x.pursuing.is_some() {
            return Some((
                "OTHW-FLT-11",
                format!("{} is pursuing and cannot be activated", x.name),
            ));
        }
        if x.flag(flags::DONE) {
            return Some(("OTHW-FLT-09", format!("{} has just ended its pursuit", x.name)));
        }
        if st.phase_over && !in_general_group && !st.has_general(u) {
            return Some((
                "OTHW-SEQ-07",
                "the phase is over: only the general's unit may still act".into(),
            ));
        }
        None
    }

    /// Every legal command of `side` now (empty when it is not `side`'s turn to act). Group
    /// moves are listed for each whole block of connected units able to move together and for
    /// each maximal straight row or file inside it; `check` also accepts any other connected
    /// group.
    pub fn legal(&self, st: &State, side: Side) -> Vec<Command> {
        let mut out = Vec::with_capacity(256);
        if st.outcome.is_some() || st.phasing != side {
            return out;
        }
        self.actions(st, side, &mut out, false);
        out.push(Command::EndPhase);
        out
    }

    /// True when the phasing side has some action left besides ending the phase.
    pub fn any_action(&self, st: &State) -> bool {
        BUFFERS.with(|b| match b.try_borrow_mut() {
            Ok(mut b) => {
                let (scratch, reach, out) = &mut *b;
                out.clear();
                self.actions_with(st, st.phasing, out, true, scratch, reach);
                !out.is_empty()
            }
            // Re-entered (not expected): fresh buffers.
            Err(_) => {
                let mut out = Vec::new();
                let (mut scratch, mut reach) = (Scratch::default(), Reach::default());
                self.actions_with(st, st.phasing, &mut out, true, &mut scratch, &mut reach);
                !out.is_empty()
            }
        })
    }

    fn actions(&self, st: &State, side: Side, out: &mut Vec<Command>, first_only: bool) {
        BUFFERS.with(|b| match b.try_borrow_mut() {
            Ok(mut b) => {
                let (scratch, reach, _) = &mut *b;
                self.actions_with(st, side, out, first_only, scratch, reach);
            }
            // Re-entered (not expected): fresh buffers.
            Err(_) => self.actions_with(
                st,
                side,
                out,
                first_only,
                &mut Scratch::default(),
                &mut Reach::default(),
            ),
        });
    }

    fn actions_with(
        &self,
        st: &State,
        side: Side,
        out: &mut Vec<Command>,
        first_only: bool,
        scratch: &mut Scratch,
        reach: &mut Reach,
    ) {
        let further_allowed = self.data.rules.sequence.further_moves > 0;
        for x in &st.units {
            if x.side != side {
                continue;
            }
            let u = x.id;
            if x.status == Status::Rampaging && !x.flag(flags::FOUGHT) && !st.phase_over {
                out.push(Command::Mahouts { unit: u });
                if first_only {
                    return;
                }
            }
            if !self.may_act(st, u, false) || x.flag(flags::FOUGHT) {
                continue;
            }
            let moved = x.flag(flags::MOVED);
            if moved && (x.flag(flags::FURTHER) || !further_allowed) {
                continue;
            }
            // Listing only the first action, the search stops at the first it finds.
            self.search(st, u, !moved, first_only, scratch, reach);
            for (to, facing) in reach.each_end() {
                out.push(Command::Move { unit: u, to, facing });
                if first_only {
                    return;
                }
            }
            let dice_choice =
                st.has_general(u) && st.active_general(side).is_some_and(|g| g.attack > 0);
            for &(from, facing, _) in &reach.attacks {
                out.push(Command::Attack { unit: u, from, facing, general_dice: false });
                if dice_choice {
                    out.push(Command::Attack { unit: u, from, facing, general_dice: true });
                }
                if first_only {
                    return;
                }
            }
        }
        // Group moves.
        let n = st.units.len();
        let eligible: Vec<bool> = st
            .units
            .iter()
            .map(|x| {
                x.side == side
                    && self.may_act(st, x.id, true)
                    && !x.flag(flags::MOVED | flags::FOUGHT | flags::GROUP_MOVED)
            })
            .collect();
        let mut comp = vec![usize::MAX; n];
        let mut groups: Vec<Vec<UnitId>> = Vec::new();
        for i in 0..n {
            if !eligible[i] || comp[i] != usize::MAX {
                continue;
            }
            let c = groups.len();
            let mut members = vec![i as UnitId];
            comp[i] = c;
            let mut k = 0;
            while k < members.len() {
                let p = st.units[members[k] as usize].pos;
                for f in GridFacing::ALL {
                    if let Some(v) = st.at(p.step(f))
                        && eligible[v as usize]
                        && comp[v as usize] == usize::MAX
                    {
                        comp[v as usize] = c;
                        members.push(v);
                    }
                }
                k += 1;
            }
            if members.len() >= 2 {
                members.sort_unstable();
                groups.push(members);
            }
        }
        let mut candidates: Vec<Vec<UnitId>> = Vec::new();
        for g in &groups {
            let mut push = |mut v: Vec<UnitId>| {
                v.sort_unstable();
                if v.len() >= 2 && !candidates.contains(&v) {
                    candidates.push(v);
                }
            };
            if st.phase_over && !g.iter().any(|&u| st.has_general(u)) {
                continue;
            }
            push(g.clone());
            // Maximal straight rows and files inside the block.
            for &u in g {
                let p = st.units[u as usize].pos;
                for (back, fwd) in
                    [(GridFacing::West, GridFacing::East), (GridFacing::South, GridFacing::North)]
                {
                    let before = st.at(p.step(back));
                    if before.is_some_and(|b| g.contains(&b)) {
                        continue;
                    }
                    let mut run = vec![u];
                    let mut q = p.step(fwd);
                    while let Some(v) = st.at(q).filter(|v| g.contains(v)) {
                        run.push(v);
                        q = q.step(fwd);
                    }
                    if run.len() < g.len() {
                        push(run);
                    }
                }
            }
        }
        if st.phase_over {
            candidates.retain(|g| g.iter().any(|&u| st.has_general(u)));
        }
        for g in candidates {
            let max_m = g.iter().map(|&u| st.units[u as usize].m).min().unwrap_or(0);
            for facing in GridFacing::ALL {
                for steps in 0..=max_m {
                    if self.group_path_fault(st, &g, facing, steps).is_none() {
                        out.push(Command::GroupMove { units: g.clone(), facing, steps });
                        if first_only {
                            return;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::Scripted;
    use tabletop::dice::SeededDice;
    use tabletop::rules::{Actor, RuleSet};

    /// What the shortcuts' tests saw besides agreement, by shortcut (one action, two actions,
    /// free turns): the searches that took it, and among them those that stepped through a
    /// friend, touched woods or a ford, came next to the river, or listed attacks.
    #[derive(Debug, Default)]
    struct Seen {
        shortcuts: [usize; 3],
        through: [usize; 3],
        restricted: [usize; 3],
        river: [usize; 3],
        attacks: [usize; 3],
    }

    /// A search's lists as compared: exactly, or as sets (whether anything was found, when
    /// stopping at the first).
    #[derive(Debug, PartialEq)]
    enum Listed {
        Exactly(Reach),
        Sets(Vec<(CellPos, GridFacing)>, Vec<(CellPos, GridFacing, UnitId)>, u128),
        Found(bool),
    }

    /// `a`'s lists as sets (in one order), or whether it found anything when `first`.
    fn listed(a: &Reach, first: bool) -> Listed {
        if first {
            return Listed::Found(a.each_end().next().is_some() || !a.attacks.is_empty());
        }
        let mut ends: Vec<_> = a.each_end().collect();
        let mut attacks = a.attacks.clone();
        ends.sort_by_key(|&(p, f)| (p.row, p.col, f as u8));
        attacks.sort_by_key(|&(p, f, v)| (p.row, p.col, f as u8, v));
        Listed::Sets(ends, attacks, a.stepped)
    }

    /// Compares unit `u`'s lists with the shortcuts allowed and by the search alone, with
    /// and without attacks and when stopping at the first.
    fn compare(r: &Othw, st: &State, u: UnitId, scratch: &mut Scratch, seen: &mut Seen) {
        let (mut a, mut b) = (Reach::default(), Reach::default());
        for (attacks, first) in [(true, false), (false, false), (true, true), (false, true)] {
            let before = SHORTCUTS.with(|n| n.get());
            scratch.long_way = false;
            r.search(st, u, attacks, first, scratch, &mut a);
            let after = SHORTCUTS.with(|n| n.get());
            scratch.long_way = true;
            r.search(st, u, attacks, first, scratch, &mut b);
            let x = &st.units[u as usize];
            let mv = &r.data.rules.movement;
            // The free-turns shortcut lists the same as the search, in its own order and its
            // squares as bits; stopping at the first, it finds something when the search does.
            let (got, want) = if after[2] != before[2] {
                (listed(&a, first), listed(&b, first))
            } else {
                (Listed::Exactly(a.clone()), Listed::Exactly(b.clone()))
            };
            assert_eq!(
                got,
                want,
                "unit {u} ({}, m {}, {:?}, at {:?} facing {:?}), step {}, turn {}, woods {}, \
                 attacks {attacks}, first {first}",
                x.name,
                x.m,
                x.specials.list(),
                x.pos,
                x.facing,
                mv.step_cost,
                mv.turn_cost,
                mv.restricted_points,
            );
            let Some(k) = (0..3).find(|&k| after[k] != before[k]) else { continue };
            seen.shortcuts[k] += 1;
            if first {
                continue;
            }
            let t = &scratch.tables;
            let stood = (0..t.nbr.len()).filter(|&i| a.stepped & 1 << (i & 127) != 0);
            for i in stood {
                let v = st.occ[i];
                seen.through[k] += usize::from(v != EMPTY && v != u);
                seen.restricted[k] += usize::from(t.restricted[i] && !x.ignores_restricted());
                seen.river[k] += usize::from(
                    t.nbr[i]
                        .iter()
                        .any(|&q| q != NO_CELL && t.terrain[usize::from(q)] == CellTerrain::River),
                );
            }
            seen.attacks[k] += usize::from(!a.attacks.is_empty());
        }
    }

    /// The shortcuts (for units with one or two actions' worth of points, and for units that
    /// turn for free where woods and fords cannot cut their move) give the search's lists (in
    /// its order, but for free turns), with and without attacks and when stopping at the first
    /// (for free turns, whether it finds anything), on every ready
    /// scenario (woods, fords, the river, hills) through battles of random commands and of the
    /// scripted player's; with the rules' movement costs and with others (where a shortcut
    /// must stand aside, or meets budgets it never meets in play), and with each unit given
    /// other movement points and other specials (free facing, loose order, skirmishing).
    #[test]
    fn the_shortcuts_are_the_search() {
        let r = Othw::new();
        let costs = [
            (1, 1, 0),
            (1, 1, 2),
            (1, 1, 3),
            (2, 2, 1),
            (2, 2, 3),
            (2, 2, 5),
            (2, 2, 6),
            (1, 2, 1),
            (2, 1, 2),
            (3, 3, 7),
            (1, 0, 1),
            (0, 1, 1),
            (0, 0, 0),
            (100, 100, 255),
        ];
        let others: Vec<Othw> = costs
            .iter()
            .map(|&(step, turn, woods)| {
                let mut data = r.data.clone();
                data.rules.movement.step_cost = step;
                data.rules.movement.turn_cost = turn;
                data.rules.movement.restricted_points = woods;
                Othw::with_data(data)
            })
            .collect();
        let toggles = [
            0,
            Special::FreeFacing.bit(),
            Special::LooseOrder.bit(),
            Special::Interpenetration.bit(),
        ];
        let mut scratch = Scratch::default();
        let mut seen = Seen::default();
        let mut states = 0usize;
        for (k, text) in crate::READY_SCENARIOS.into_iter().enumerate() {
            let sc = r.load_scenario(&tabletop::Source::new("s.toml", text)).expect("loads");
            for seed in 1..=6 {
                let mut dice = SeededDice::new(seed * 10 + k as u64);
                let mut pick = SeededDice::new(seed);
                let mut bots = [Scripted::new(), Scripted::new()];
                let (mut st, _) = r.setup(&sc, &mut dice);
                while st.outcome.is_none() {
                    states += 1;
                    for u in 0..st.units.len() as UnitId {
                        compare(&r, &st, u, &mut scratch, &mut seen);
                        if !states.is_multiple_of(3) {
                            continue;
                        }
                        // Other movement points, specials and costs.
                        let x = &st.units[u as usize];
                        let (m, specials) = (x.m, x.specials);
                        for other in 1..=6 {
                            st.units[u as usize].m = other;
                            for toggle in toggles {
                                st.units[u as usize].specials.0 = specials.0 ^ toggle;
                                compare(&r, &st, u, &mut scratch, &mut seen);
                            }
                            st.units[u as usize].specials = specials;
                            for o in &others {
                                compare(o, &st, u, &mut scratch, &mut seen);
                            }
                        }
                        st.units[u as usize].m = m;
                    }
                    let side = st.phasing;
                    let c = if seed % 2 == 0 {
                        bots[side.index()].best(&r, &st, side).expect("a command").0
                    } else {
                        let legal = r.legal(&st, side);
                        legal[pick.below(legal.len() as u32) as usize].clone()
                    };
                    r.perform(&mut st, Actor::Side(side), &c, &mut dice).expect("runs");
                }
            }
        }
        eprintln!("{states} states, {seen:?}");
        for (k, least) in [1000, 10_000, 10_000].into_iter().enumerate() {
            assert!(seen.shortcuts[k] > least, "shortcut {k}: {seen:?}");
            assert!(seen.through[k] > 100, "shortcut {k}, through friends: {seen:?}");
            assert!(seen.river[k] > 100, "shortcut {k}, by the river: {seen:?}");
        }
        for k in 1..3 {
            assert!(seen.attacks[k] > 100, "shortcut {k}, attacks: {seen:?}");
        }
        assert!(seen.restricted[1] > 100, "two actions, in woods or fords: {seen:?}");
    }
}
