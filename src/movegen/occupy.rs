//! Moves that do more than go to one square and take what stands there: rifle shots
//! (kill without moving), path movers (a fixed number of unit steps with free turning
//! that kill what they pass) and flights (to any empty square, then one follow-up
//! borrowed from other pieces, avoiding the enemy's shot ranges).
//!
//! A variant switches them on per piece with the table keys `shot`, `path` and
//! `flight` (see `tables/README.md`). One move may then kill several pieces and be
//! reached by many action sequences; a move is identified by its start, its end, the
//! squares it killed without ending on them, and its promotion, so the generator
//! collects each piece's outcomes and keeps each identity once.
//!
//! Royal pieces are never shot and never killed in passing: they fall only to a piece
//! that ends its move on them. Check is therefore "the royal piece could be
//! occupy-captured next move", and [`Position::occupy_attacked`] answers it with
//! bitboards only (reverse reach of paths and flights), fast enough for search.

use crate::core::geometry::{Bitboard, Board, Square, SQUARE_SLOTS};
use crate::core::moves::{Color, Move, MoveKind, MoveList, PieceType, MAX_KILLS, MAX_MOVES};
use crate::movement::atoms::{symmetric, Atom, AtomKind, Offset};
use crate::movement::attacks::{PieceAttacks, RayId, Rays};
use crate::movement::betza;
use crate::position::Position;
use crate::variant::{PieceDef, VariantError};
use serde::Deserialize;

/// Table key `shot`: a rifle shot that kills an enemy piece without moving.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct ShotFile {
    /// Target squares at these distances along the 8 king lines (`[3, 4]`: 16 squares).
    #[serde(default)]
    pub distances: Vec<u32>,
    /// Target offsets `[dx, dy]`, each with its symmetric images.
    #[serde(default)]
    pub offsets: Vec<[i32; 2]>,
    /// True: in one turn the piece may move, shoot, move then shoot, or shoot then move.
    /// False: it moves or shoots, never both.
    #[serde(default)]
    pub with_move: bool,
}

/// Table key `path`: a path mover.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct PathFile {
    /// Exactly this many steps (1..=5).
    pub steps: u32,
    /// The step set in Betza, leaps only (`W`: the four orthogonal unit steps).
    pub betza: String,
}

/// Table key `flight`: fly to any empty square, then optionally one follow-up.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct FlightFile {
    /// Letters of the pieces whose movement the follow-up may borrow: one of their
    /// non-initial moves or captures, their path, or their shot.
    #[serde(default)]
    pub then: String,
    /// The landing square and every square the follow-up enters must lie outside the
    /// shot targets of every enemy shooter, counted as the board stands at that instant.
    #[serde(default = "yes")]
    pub avoid_shots: bool,
}

fn yes() -> bool {
    true
}

/// A compiled rifle shot.
pub struct ShotDef {
    /// Target squares per square of the shooter (geometric, whatever stands between).
    pub range: Box<[Bitboard; SQUARE_SLOTS]>,
    /// The targets as offsets (for the flight exactness check).
    pub offsets: Vec<Offset>,
    /// May combine with a move in the same turn.
    pub with_move: bool,
}

/// Shifting a whole set by one step without wrapping across files.
#[derive(Clone, Copy, Debug)]
pub struct Shift {
    /// Squares whose step stays on the board.
    keep: Bitboard,
    /// Index delta of the step.
    delta: i32,
}

impl Shift {
    fn new(board: &Board, d: Offset) -> Shift {
        let mut keep = Bitboard::EMPTY;
        for s in 0..board.squares() {
            if board
                .offset(Square(s as u8), d.dx as i32, d.dy as i32)
                .is_some()
            {
                keep.set(Square(s as u8));
            }
        }
        Shift {
            keep,
            delta: d.dy as i32 * board.files as i32 + d.dx as i32,
        }
    }

    #[inline(always)]
    fn apply(self, bb: Bitboard) -> Bitboard {
        let b = (bb & self.keep).0;
        Bitboard(if self.delta >= 0 {
            b << self.delta
        } else {
            b >> -self.delta
        })
    }
}

/// A compiled path mover, per colour.
pub struct PathDef {
    /// Number of steps.
    pub steps: u8,
    /// The step set (White's view).
    pub dirs: Vec<Offset>,
    /// One-step targets per colour and square.
    pub one: [Box<[Bitboard; SQUARE_SLOTS]>; 2],
    fwd: [Vec<Shift>; 2],
    back: [Vec<Shift>; 2],
}

impl PathDef {
    /// Every square one step forward from a square of `bb`.
    #[inline(always)]
    fn forward(&self, c: usize, bb: Bitboard) -> Bitboard {
        self.fwd[c]
            .iter()
            .fold(Bitboard::EMPTY, |a, s| a | s.apply(bb))
    }

    /// Every square from which one step reaches a square of `bb`.
    #[inline(always)]
    fn backward(&self, c: usize, bb: Bitboard) -> Bitboard {
        self.back[c]
            .iter()
            .fold(Bitboard::EMPTY, |a, s| a | s.apply(bb))
    }
}

/// A compiled flight.
pub struct FlightDef {
    /// The borrowed moves and captures, per colour (initial-only moves left out).
    pub follow: [PieceAttacks; 2],
    /// The borrowed capturing rides, reversed, per colour (for the check test).
    pub capture_rays_rev: [Vec<RayId>; 2],
    /// Types whose path may follow.
    pub paths: Vec<PieceType>,
    /// Types whose shot may follow.
    pub shots: Vec<PieceType>,
    /// Enemy shot ranges are forbidden.
    pub avoid_shots: bool,
}

/// Everything a variant's pieces do beyond their atoms; present only when used.
pub struct ExtRules {
    /// Per type: its shot.
    pub shots: Vec<Option<ShotDef>>,
    /// Per type: its path.
    pub paths: Vec<Option<PathDef>>,
    /// Per type: its flight.
    pub flights: Vec<Option<FlightDef>>,
    /// Types with a shot, as a bit mask.
    pub shooter_mask: u32,
    /// Types with a path.
    pub path_mask: u32,
    /// Types with a flight.
    pub flight_mask: u32,
    /// Types that may shoot and then capture by moving (a shot can open their line).
    pub shoot_capture_mask: u32,
}

/// The on-disk keys of one piece that this module compiles.
pub struct PieceExtFile<'a> {
    /// `shot`.
    pub shot: Option<&'a ShotFile>,
    /// `path`.
    pub path: Option<&'a PathFile>,
    /// `flight`.
    pub flight: Option<&'a FlightFile>,
}

fn shot_offsets(s: &ShotFile) -> Result<Vec<Offset>, String> {
    let mut out: Vec<Offset> = Vec::new();
    let mut add = |dx: i32, dy: i32| -> Result<(), String> {
        if dx.abs() > 11 || dy.abs() > 11 || (dx, dy) == (0, 0) {
            return Err(format!("offset ({dx},{dy}) is out of range"));
        }
        for o in symmetric(dx as i8, dy as i8) {
            if !out.contains(&o) {
                out.push(o);
            }
        }
        Ok(())
    };
    for &d in &s.distances {
        add(d as i32, 0)?;
        add(d as i32, d as i32)?;
    }
    for &[dx, dy] in &s.offsets {
        add(dx, dy)?;
    }
    if out.is_empty() {
        return Err("a shot needs `distances` or `offsets`".into());
    }
    Ok(out)
}

/// Compiles the `shot`, `path` and `flight` keys; `None` when no piece has one.
pub fn compile(
    board: &Board,
    rays: &mut Rays,
    pieces: &[PieceDef],
    files: &[PieceExtFile],
    origin: &str,
) -> Result<Option<ExtRules>, VariantError> {
    let err = |key: String, msg: String| VariantError::Value {
        origin: origin.to_string(),
        key,
        msg,
    };
    if files
        .iter()
        .all(|f| f.shot.is_none() && f.path.is_none() && f.flight.is_none())
    {
        return Ok(None);
    }
    let n = pieces.len();
    let mut x = ExtRules {
        shots: (0..n).map(|_| None).collect(),
        paths: (0..n).map(|_| None).collect(),
        flights: (0..n).map(|_| None).collect(),
        shooter_mask: 0,
        path_mask: 0,
        flight_mask: 0,
        shoot_capture_mask: 0,
    };
    for (i, f) in files.iter().enumerate() {
        if let Some(s) = f.shot {
            let offsets = shot_offsets(s).map_err(|m| err(format!("piece[{i}].shot"), m))?;
            let mut range = Box::new([Bitboard::EMPTY; SQUARE_SLOTS]);
            for sq in board.all {
                for o in &offsets {
                    if let Some(t) = board.offset(sq, o.dx as i32, o.dy as i32) {
                        range[sq.idx()].set(t);
                    }
                }
            }
            x.shots[i] = Some(ShotDef {
                range,
                offsets,
                with_move: s.with_move,
            });
            x.shooter_mask |= 1 << i;
            if s.with_move && pieces[i].atoms.iter().any(|a| a.mode.captures()) {
                x.shoot_capture_mask |= 1 << i;
            }
        }
        if let Some(p) = f.path {
            let key = format!("piece[{i}].path");
            if !(1..=MAX_KILLS as u32 + 1).contains(&p.steps) {
                return Err(err(key, format!("steps must be 1..={}", MAX_KILLS + 1)));
            }
            let atoms =
                betza::parse(&p.betza).map_err(|e| err(format!("{key}.betza"), e.to_string()))?;
            if atoms.is_empty() || atoms.iter().any(|a| a.kind != AtomKind::Leap) {
                return Err(err(
                    format!("{key}.betza"),
                    "the step set must be leaps".into(),
                ));
            }
            let mut dirs: Vec<Offset> = Vec::new();
            for a in &atoms {
                if !dirs.contains(&a.step) {
                    dirs.push(a.step);
                }
            }
            let per_colour = |c: Color| -> Vec<Offset> {
                dirs.iter()
                    .map(|d| if c == Color::White { *d } else { d.mirrored() })
                    .collect()
            };
            let mut one = [
                Box::new([Bitboard::EMPTY; SQUARE_SLOTS]),
                Box::new([Bitboard::EMPTY; SQUARE_SLOTS]),
            ];
            let mut fwd = [Vec::new(), Vec::new()];
            let mut back = [Vec::new(), Vec::new()];
            for c in Color::BOTH {
                for d in per_colour(c) {
                    for sq in board.all {
                        if let Some(t) = board.offset(sq, d.dx as i32, d.dy as i32) {
                            one[c.idx()][sq.idx()].set(t);
                        }
                    }
                    fwd[c.idx()].push(Shift::new(board, d));
                    back[c.idx()].push(Shift::new(board, d.reversed()));
                }
            }
            x.paths[i] = Some(PathDef {
                steps: p.steps as u8,
                dirs,
                one,
                fwd,
                back,
            });
            x.path_mask |= 1 << i;
        }
    }
    for (i, f) in files.iter().enumerate() {
        let Some(fl) = f.flight else { continue };
        let key = format!("piece[{i}].flight.then");
        let mut atoms: Vec<Atom> = Vec::new();
        let (mut paths, mut shots) = (Vec::new(), Vec::new());
        for ch in fl.then.chars() {
            let t = pieces
                .iter()
                .position(|p| p.letter == ch)
                .ok_or_else(|| err(key.clone(), format!("no piece with letter '{ch}'")))?;
            atoms.extend(pieces[t].atoms.iter().filter(|a| !a.initial));
            if x.paths[t].is_some() {
                paths.push(t as PieceType);
            }
            if x.shots[t].is_some() {
                shots.push(t as PieceType);
            }
        }
        if atoms
            .iter()
            .any(|a| !matches!(a.kind, AtomKind::Leap | AtomKind::Ride { .. }))
        {
            return Err(err(key, "follow-up moves must be leaps or rides".into()));
        }
        if fl.avoid_shots {
            check_exact(&x, &paths).map_err(|m| err(key.clone(), m))?;
        }
        let mut follow = Vec::new();
        let mut rev = [Vec::new(), Vec::new()];
        for c in Color::BOTH {
            let mine: Vec<Atom> = atoms
                .iter()
                .map(|a| if c == Color::White { *a } else { a.mirrored() })
                .collect();
            for a in &mine {
                if let AtomKind::Ride { range } = a.kind {
                    if a.mode.captures() {
                        rev[c.idx()].push(rays.id(board, a.step.reversed(), range));
                    }
                }
            }
            follow.push(PieceAttacks::compile(board, rays, &mine, Bitboard::EMPTY));
        }
        let black = follow.pop().expect("two colours");
        let white = follow.pop().expect("two colours");
        x.flights[i] = Some(FlightDef {
            follow: [white, black],
            capture_rays_rev: rev,
            paths,
            shots,
            avoid_shots: fl.avoid_shots,
        });
        x.flight_mask |= 1 << i;
    }
    Ok(Some(x))
}

/// The check test reads a flight's reach off bitboards with the forbidden squares fixed
/// at the landing. That is exact when a path that kills a shooter can never then enter
/// a square only that shooter covered: either the shooter's own neighbours (by the
/// path's steps) are all in its range, so it cannot be entered at all, or nothing the
/// remaining steps reach from it is in its range (Combined Arms R11).
fn check_exact(x: &ExtRules, paths: &[PieceType]) -> Result<(), String> {
    for &p in paths {
        let Some(pd) = &x.paths[p as usize] else {
            continue;
        };
        for s in x.shots.iter().flatten() {
            for dirs in [
                pd.dirs.clone(),
                pd.dirs.iter().map(|d| d.mirrored()).collect(),
            ] {
                let unenterable = dirs.iter().all(|d| s.offsets.contains(&d.reversed()));
                let mut reach = vec![Offset::new(0, 0)];
                let mut seen: Vec<Offset> = Vec::new();
                for _ in 1..pd.steps {
                    let mut next = Vec::new();
                    for r in &reach {
                        for d in &dirs {
                            let o = Offset::new(r.dx + d.dx, r.dy + d.dy);
                            if !next.contains(&o) {
                                next.push(o);
                            }
                        }
                    }
                    seen.extend(next.iter().copied());
                    reach = next;
                }
                let clear = seen.iter().all(|o| !s.offsets.contains(o));
                if !unenterable && !clear {
                    return Err(
                        "a follow-up path could enter squares freed by killing a shooter; \
                                this flight's check test would not be exact"
                            .into(),
                    );
                }
            }
        }
    }
    Ok(())
}

/// Fixed inputs of one path walk.
struct Walk<'a> {
    path: &'a PathDef,
    color: usize,
    /// The mover's own pieces, its start square excluded (it is empty once left).
    blockers: Bitboard,
    /// Entered squares must be outside the enemy's shot ranges (flight follow-up).
    avoid: bool,
    /// The move's start square.
    origin: Square,
    /// The moving piece's type (for promotion).
    ptype: PieceType,
}

/// Collected outcomes of one piece: kill-free destinations as a set, kill moves in the
/// list (deduplicated at the end).
struct Out<'l> {
    list: &'l mut MoveList,
    start: usize,
    plain: Bitboard,
}

impl Out<'_> {
    /// Sorts and deduplicates this piece's kill moves.
    fn compact(&mut self) {
        let all = self.list.as_mut_slice();
        let seg = &mut all[self.start..];
        seg.sort_unstable();
        let mut keep = 0;
        for i in 0..seg.len() {
            if i == 0 || seg[i] != seg[keep - 1] {
                seg[keep] = seg[i];
                keep += 1;
            }
        }
        self.list.truncate(self.start + keep);
    }
}

impl Position {
    /// The squares the shooters of `c` on `pieces` would hit.
    #[inline]
    fn shield(&self, x: &ExtRules, pieces: Bitboard) -> Bitboard {
        let mut s = Bitboard::EMPTY;
        let mut m = x.shooter_mask;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            if let Some(sd) = &x.shots[t] {
                for sq in self.by_type[t] & pieces {
                    s |= sd.range[sq.idx()];
                }
            }
        }
        s
    }

    /// Pushes a kill move, with the promotion choices its end square offers.
    fn push_kill(&self, out: &mut Out, t: PieceType, from: Square, to: Square, kills: &[Square]) {
        if out.list.len() + 8 > MAX_MOVES {
            // Many sequences share an identity: squeeze the duplicates out before the
            // list fills up.
            out.compact();
        }
        let base = Move::new(from, to, MoveKind::Normal).with_kills(kills);
        match &self.v.pieces[t as usize].promotion {
            Some(pr) if pr.zone[self.side.idx()].has(to) => {
                for &p in &pr.to {
                    out.list.push(base.with_promotion(p));
                }
                if !pr.mandatory[self.side.idx()].has(to) {
                    out.list.push(base);
                }
            }
            _ => out.list.push(base),
        }
    }

    /// Every legal move, for variants with shots, paths or flights.
    pub(crate) fn legal_moves_ext(&self, x: &ExtRules, list: &mut MoveList) {
        list.clear();
        let v = &*self.v;
        let us = self.side;
        let them = us.flip();
        let occ = self.occupied();
        let ours = self.by_color[us.idx()];
        let theirs = self.by_color[them.idx()];
        let prey = theirs & !self.royals(them);
        let their_shield = if x.flight_mask & self.pieces_mask(us) != 0 {
            self.shield(x, theirs)
        } else {
            Bitboard::EMPTY
        };
        for t in 0..v.pieces.len() {
            let bb = self.pieces(t as PieceType, us);
            if bb.is_empty() {
                continue;
            }
            let pt = t as PieceType;
            let pa = &v.attacks[us.idx()][t];
            for from in bb {
                let start = list.len();
                let tg = pa.targets(&v.rays, from, occ);
                let moves = tg.quiet | (tg.capture & theirs);
                let mut out = Out {
                    list: &mut *list,
                    start,
                    plain: moves,
                };
                if let Some(s) = &x.shots[t] {
                    let targets = s.range[from.idx()] & prey;
                    for k in targets {
                        self.push_kill(&mut out, pt, from, from, &[k]);
                    }
                    if s.with_move {
                        for d in moves {
                            for k in s.range[d.idx()] & prey & !d.bb() {
                                self.push_kill(&mut out, pt, from, d, &[k]);
                            }
                        }
                        // Shoot first: the kill may open the way (Combined Arms R13).
                        for k in targets {
                            let tg = pa.targets(&v.rays, from, occ ^ k.bb());
                            for d in tg.quiet | (tg.capture & theirs) {
                                if d == k {
                                    out.plain.set(d);
                                } else {
                                    self.push_kill(&mut out, pt, from, d, &[k]);
                                }
                            }
                        }
                    }
                }
                if let Some(p) = &x.paths[t] {
                    let w = Walk {
                        path: p,
                        color: us.idx(),
                        blockers: ours & !from.bb(),
                        avoid: false,
                        origin: from,
                        ptype: pt,
                    };
                    self.walk(
                        x,
                        &w,
                        &mut out,
                        from,
                        p.steps,
                        [Square(0); MAX_KILLS],
                        0,
                        theirs,
                        Bitboard::EMPTY,
                    );
                }
                if let Some(f) = &x.flights[t] {
                    self.gen_flight(x, f, pt, from, &mut out, prey, their_shield);
                }
                out.compact();
                let plain = out.plain & !from.bb();
                self.emit(list, pt, from, plain);
            }
        }
        self.gen_castling_ext(x, list);
        let royals = self.royals(us);
        if royals.any() {
            let moves = list.as_mut_slice();
            let mut keep = 0;
            for i in 0..moves.len() {
                if self.ext_safe(x, moves[i]) {
                    moves[keep] = moves[i];
                    keep += 1;
                }
            }
            list.truncate(keep);
        }
    }

    /// Bit mask of the types `c` has on the board.
    fn pieces_mask(&self, c: Color) -> u32 {
        let mut m = 0;
        for t in 0..self.v.pieces.len() {
            if self.pieces(t as PieceType, c).any() {
                m |= 1 << t;
            }
        }
        m
    }

    /// Walks every path of `left` more steps from `cur`, recording each outcome.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        x: &ExtRules,
        w: &Walk,
        out: &mut Out,
        cur: Square,
        left: u8,
        kills: [Square; MAX_KILLS],
        nk: usize,
        alive: Bitboard,
        shield: Bitboard,
    ) {
        let mut next = w.path.one[w.color][cur.idx()] & !w.blockers;
        if w.avoid {
            next &= !shield;
        }
        for n in next {
            if left == 1 {
                // The path ends here: an enemy still on `n` is occupy-captured; a kill
                // on `n` earlier in the path is not written (it equals the end square).
                let mut ks = [Square(0); MAX_KILLS];
                let mut m = 0;
                for &k in &kills[..nk] {
                    if k != n {
                        ks[m] = k;
                        m += 1;
                    }
                }
                if m == 0 {
                    out.plain.set(n);
                } else {
                    self.push_kill(out, w.ptype, w.origin, n, &ks[..m]);
                }
                continue;
            }
            let (mut kills2, mut nk2, mut alive2, mut shield2) = (kills, nk, alive, shield);
            let p = self.board[n.idx()];
            if alive.has(n) && self.v.royal_mask >> p.kind() & 1 == 0 {
                kills2[nk2] = n;
                nk2 += 1;
                alive2.clear(n);
                if w.avoid && x.shooter_mask >> p.kind() & 1 != 0 {
                    // Artillery killed earlier in the turn no longer counts (R5).
                    shield2 = self.shield(x, alive2);
                }
            }
            self.walk(x, w, out, n, left - 1, kills2, nk2, alive2, shield2);
        }
    }

    /// A flight from `from`: land on any empty square outside the enemy's shot ranges,
    /// then optionally one borrowed move, path or shot.
    #[allow(clippy::too_many_arguments)]
    fn gen_flight(
        &self,
        x: &ExtRules,
        f: &FlightDef,
        pt: PieceType,
        from: Square,
        out: &mut Out,
        prey: Bitboard,
        their_shield: Bitboard,
    ) {
        let v = &*self.v;
        let us = self.side;
        let theirs = self.by_color[us.flip().idx()];
        let occ = self.occupied();
        let shield = if f.avoid_shots {
            their_shield
        } else {
            Bitboard::EMPTY
        };
        let occ_wo = occ ^ from.bb();
        let blocked = occ_wo | shield;
        let land = v.board.all & !occ & !shield;
        let fa = &f.follow[us.idx()];
        for s in land {
            out.plain.set(s);
            // Forbidden squares block borrowed rides like pieces do: they cannot be entered.
            let tg = fa.targets(&v.rays, s, blocked);
            out.plain |= (tg.quiet & !blocked) | (tg.capture & theirs & !shield);
            for &st in &f.shots {
                if let Some(sd) = &x.shots[st as usize] {
                    for k in sd.range[s.idx()] & prey {
                        self.push_kill(out, pt, from, s, &[k]);
                    }
                }
            }
            for &p in &f.paths {
                if let Some(pd) = &x.paths[p as usize] {
                    let w = Walk {
                        path: pd,
                        color: us.idx(),
                        blockers: self.by_color[us.idx()] & !from.bb(),
                        avoid: f.avoid_shots,
                        origin: from,
                        ptype: pt,
                    };
                    self.walk(
                        x,
                        &w,
                        out,
                        s,
                        pd.steps,
                        [Square(0); MAX_KILLS],
                        0,
                        theirs,
                        shield,
                    );
                }
            }
        }
    }

    /// Castling whose king and rook stand ready and whose king is not in check and does
    /// not cross a square where it could be occupy-captured (standing there, the rook
    /// still in its corner: Combined Arms R10). The landing is tested with the rest.
    fn gen_castling_ext(&self, x: &ExtRules, list: &mut MoveList) {
        let Some(rules) = self.v.castling.as_ref() else {
            return;
        };
        let us = self.side;
        let them = us.flip();
        let occ = self.occupied();
        let theirs = self.by_color[them.idx()];
        let shield = self.shield(x, self.by_color[us.idx()]);
        let mut checked = false;
        for side in 0..2 {
            let i = us.idx() * 2 + side;
            let r = &rules[i];
            if !self.castle_ready(i) || (r.must_be_empty & occ).any() {
                continue;
            }
            if !checked {
                if self.in_check() {
                    return;
                }
                checked = true;
            }
            let crossed = r.king_path & !r.king_from.bb() & !r.king_to.bb();
            let safe = crossed.iter().all(|c| {
                let o = occ ^ r.king_from.bb() | c.bb();
                !self.occupy_attacked(x, c, o, theirs, them, shield)
            });
            if safe {
                list.push(Move::new(r.king_from, r.king_to, MoveKind::Castle));
            }
        }
    }

    /// True when, after `m`, no royal piece of the mover could be occupy-captured.
    fn ext_safe(&self, x: &ExtRules, m: Move) -> bool {
        let v = &*self.v;
        let us = self.side;
        let them = us.flip();
        let mut occ = self.occupied();
        let mut theirs = self.by_color[them.idx()];
        let mut royals = self.royals(us);
        for k in m.kills() {
            occ.clear(k);
            theirs.clear(k);
        }
        let (from, to) = (m.from(), m.to());
        // Our shooters decide where an enemy flight may go: follow the ones that move.
        // Each entry: start, end, type before, type after.
        let mut moved = [(from, from, 0 as PieceType, 0 as PieceType); 2];
        let mut n_moved = 0;
        if m.kind() == MoveKind::Castle {
            let Some(r) = v
                .castling
                .as_ref()
                .and_then(|rs| rs.iter().find(|r| r.king_from == from && r.king_to == to))
            else {
                return false;
            };
            for (a, b) in [(r.king_from, r.king_to), (r.rook_from, r.rook_to)] {
                let t = self.board[a.idx()].kind();
                moved[n_moved] = (a, b, t, t);
                n_moved += 1;
            }
            occ = occ ^ r.king_from.bb() ^ r.rook_from.bb() | r.king_to.bb() | r.rook_to.bb();
            royals.clear(r.king_from);
            royals.set(r.king_to);
        } else if m.kind() == MoveKind::Drop {
            occ.set(to);
            moved[0] = (to, to, PieceType::MAX, m.drop_type());
            n_moved = 1;
        } else if from != to {
            occ.clear(from);
            occ.set(to);
            theirs.clear(to);
            let t = self.board[from.idx()].kind();
            let nt = m.promotion().unwrap_or(t);
            moved[0] = (from, to, t, nt);
            n_moved = 1;
            if royals.has(from) {
                royals.clear(from);
                if v.royal_mask >> nt & 1 != 0 {
                    royals.set(to);
                }
            }
        }
        let mut shield = Bitboard::EMPTY;
        let mut sm = x.shooter_mask;
        while sm != 0 {
            let t = sm.trailing_zeros() as usize;
            sm &= sm - 1;
            let Some(sd) = &x.shots[t] else { continue };
            let mut bb = self.pieces(t as PieceType, us);
            for &(a, b, ot, nt) in &moved[..n_moved] {
                if ot as usize == t {
                    bb.clear(a);
                }
                if nt as usize == t {
                    bb.set(b);
                }
            }
            for s in bb {
                shield |= sd.range[s.idx()];
            }
        }
        royals
            .iter()
            .all(|k| !self.occupy_attacked(x, k, occ, theirs, them, shield))
    }

    /// True when one of `by`'s pieces in `attackers` could end its move on `sq`, on
    /// occupancy `occ`, where `shield` is the defender's shot range (forbidden to
    /// flights). Every square of `attackers` must still hold what the mailbox says.
    pub(crate) fn occupy_attacked(
        &self,
        x: &ExtRules,
        sq: Square,
        occ: Bitboard,
        attackers: Bitboard,
        by: Color,
        shield: Bitboard,
    ) -> bool {
        if self.attackers_to(sq, occ, attackers, by).any() {
            return true;
        }
        let v = &*self.v;
        let c = by.idx();
        let mut sm = x.shoot_capture_mask;
        while sm != 0 {
            let t = sm.trailing_zeros() as usize;
            sm &= sm - 1;
            let Some(sd) = &x.shots[t] else { continue };
            let pa = &v.attacks[c][t];
            // Shoot a piece out of the way, then capture by moving.
            let prey = occ & !attackers & !sq.bb();
            for s in self.by_type[t] & attackers {
                for k in sd.range[s.idx()] & prey {
                    if pa.targets(&v.rays, s, occ ^ k.bb()).capture.has(sq) {
                        return true;
                    }
                }
            }
        }
        let mut pm = x.path_mask;
        while pm != 0 {
            let t = pm.trailing_zeros() as usize;
            pm &= pm - 1;
            let Some(p) = &x.paths[t] else { continue };
            for n in self.by_type[t] & attackers {
                // Own pieces block; enemies are killed in passing and do not.
                let blk = attackers ^ n.bb();
                let mut reach = n.bb();
                for _ in 0..p.steps {
                    reach = p.forward(c, reach) & !blk;
                }
                if reach.has(sq) {
                    return true;
                }
            }
        }
        let mut fm = x.flight_mask;
        while fm != 0 {
            let t = fm.trailing_zeros() as usize;
            fm &= fm - 1;
            let Some(f) = &x.flights[t] else { continue };
            let sh = if f.avoid_shots {
                shield
            } else {
                Bitboard::EMPTY
            };
            if sh.has(sq) {
                continue;
            }
            let land = v.board.all & !occ & !sh;
            for q in self.by_type[t] & attackers {
                let occ_q = occ ^ q.bb();
                let blk = attackers ^ q.bb();
                let fa = &f.follow[c];
                if (fa.leap_capture_rev[sq.idx()] & land).any() {
                    return true;
                }
                let o = occ_q | sh;
                for &id in &f.capture_rays_rev[c] {
                    if (v.rays.get(id).attacks(sq, o) & !o & land).any() {
                        return true;
                    }
                }
                for &p in &f.paths {
                    let Some(pd) = &x.paths[p as usize] else {
                        continue;
                    };
                    let mut t = sq.bb();
                    for _ in 1..pd.steps {
                        t = pd.backward(c, t) & !blk & !sh;
                    }
                    if (pd.backward(c, t) & land).any() {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// True when a royal piece of `c` could be occupy-captured (the check of variants
    /// with shots, paths or flights).
    pub(crate) fn royal_occupy_attacked(&self, x: &ExtRules, c: Color) -> bool {
        let occ = self.occupied();
        let them = self.by_color[c.flip().idx()];
        let shield = self.shield(x, self.by_color[c.idx()]);
        self.royals(c)
            .iter()
            .any(|k| self.occupy_attacked(x, k, occ, them, c.flip(), shield))
    }
}
