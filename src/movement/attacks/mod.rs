//! Attack tables: atoms compiled once per variant into per-square bitboards.
//!
//! Leaps become one table lookup per square. Every ride, hop and bent continuation is a
//! *ray*: a precomputed per-square mask of the squares along one direction (cut to the
//! atom's range). Because square indices grow monotonically along any direction, the
//! first blocker on a ray is its lowest or highest set bit, so one `u128` bit trick
//! slides any rider (rook, nightrider, range-limited deacon) on any board size without
//! per-board magic numbers. `benches/movegen.rs` measures it against a plain ray walk.

use crate::core::geometry::{Bitboard, Board, Square, Word, SQUARE_SLOTS};
use crate::movement::atoms::{Atom, AtomKind, Mode, Offset};

mod attacker_map;
mod rays;
pub use attacker_map::{AttackerMap, BentGroup, HopGroup, LameGroup, RayGroup};
use rays::{cut, past_first_blocker, second_blocker};
pub use rays::{through_second, Ray, RayId, Rays};

/// A non-leap atom compiled against the rays: which ray and what it may do.
#[derive(Clone, Copy, Debug)]
pub struct RayAtom {
    /// The ray from the piece's square (range-limited as the atom says).
    pub ray: RayId,
    /// The same direction unlimited (a hopper continues from its screen along it).
    pub full: RayId,
    /// Move only / capture only / both.
    pub mode: Mode,
    /// Squares this atom may start from (initial-only atoms are restricted).
    pub from: Bitboard,
}

/// A lame leap: one target and one square that must be empty, per start square.
#[derive(Clone)]
pub struct LameAtom {
    /// Target per start square (empty where it leaves the board or may not start).
    pub target: Box<[Bitboard; SQUARE_SLOTS]>,
    /// The square that must be empty, per start square.
    pub via: Box<[Square; SQUARE_SLOTS]>,
    /// Move only / capture only / both.
    pub mode: Mode,
    /// The step, for en passant bookkeeping (the skipped square is `via`).
    pub step: Offset,
}

/// A bent rider: a first step onto an empty square, then a ray.
#[derive(Clone)]
pub struct BentAtom {
    /// The first-step square per start square (only meaningful where `valid`).
    pub mid: Box<[Square; SQUARE_SLOTS]>,
    /// Start squares whose first step stays on the board.
    pub valid: Bitboard,
    /// The ray continuing from the first-step square.
    pub ray: RayId,
    /// Move only / capture only / both.
    pub mode: Mode,
}

/// A square's leap moves and leap captures, aligned so that they never straddle two
/// cache lines.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct LeapPair([Bitboard; 2]);

/// Everything one piece type of one colour can do, compiled for a board.
#[derive(Clone)]
pub struct PieceAttacks {
    /// Per square: `[0]` the leap targets that may be moved to (empty squares), `[1]`
    /// those that may be captured on. Most lookups want both, which then share a line.
    leaps: Box<[LeapPair; SQUARE_SLOTS]>,
    /// Reverse of the leap captures: the squares from which this piece captures a square.
    pub leap_capture_rev: Box<[Bitboard; SQUARE_SLOTS]>,
    /// Lame leaps.
    pub lame: Vec<LameAtom>,
    /// Rides.
    pub rides: Vec<RayAtom>,
    /// Hops (cannon-style).
    pub hops: Vec<RayAtom>,
    /// Grasshopper hops: to the square just past the first piece on the ray.
    pub grasshops: Vec<RayAtom>,
    /// Bent rides (Griffon, Manticore).
    pub bents: Vec<BentAtom>,
    /// Squares the piece may move or capture to at all (region confinement: a piece
    /// that may not leave a set of squares neither goes nor attacks outside it).
    pub region: Bitboard,
    /// Set when the piece has no hops of either kind and no bent rides: the masks of the rides that
    /// move and capture alike from every square, laid out per square, for the fast path
    /// of [`PieceAttacks::targets`].
    plain: Option<PlainRides>,
    /// With `plain`, the other rides (one mode only, or from some squares only).
    odd_rides: Vec<RayAtom>,
    /// Set for a cannon-like piece (no bent rides, no grasshops; every ride only moves
    /// and every hop only captures, from every square): both laid out per square, for
    /// [`PieceAttacks::targets_general`].
    hopper: Option<HopperRides>,
    /// Per square, the first-step squares of every bent ride from it (empty without
    /// bent rides): where all are occupied no bent ride goes anywhere.
    bent_mids: Vec<Bitboard>,
    /// Every capture is a leap: the capture targets are the leap captures on any occupancy.
    leap_captures_only: bool,
    /// With `plain`: no other rides, no lame leaps, and every leap both moves and
    /// captures, so that [`PieceAttacks::reach`] is the leaps and the plain rides alone.
    pure: bool,
    /// Set when the piece only leaps (lame leaps included), each step once: its leaps
    /// as shifts of a whole set of pieces, for [`PieceAttacks::count_set`].
    set_leaps: Option<Vec<SetLeap>>,
}

/// One leap of a leaper as a shift of a whole set of start squares.
#[derive(Clone, Copy, Debug)]
struct SetLeap {
    /// Squares the leap may start from: its target (and a lame leap's via square) on
    /// the board, initial-only leaps from the initial squares only. From these, index
    /// plus `delta` is the target square itself (no wrap across files).
    from: Bitboard,
    /// Index delta of the leap.
    delta: i32,
    /// Index delta of a lame leap's via square (0 for a free leap).
    via: i32,
    /// Move only / capture only / both.
    mode: Mode,
}

/// `bb` moved by `delta` squares of index (the caller has kept only squares for which
/// that stays on the board without wrapping).
#[inline(always)]
fn shifted<W: Word>(bb: Bitboard<W>, delta: i32) -> Bitboard<W> {
    Bitboard(if delta >= 0 {
        bb.0 << delta as u32
    } else {
        bb.0 >> (-delta) as u32
    })
}

/// Calls `f` with each of the `K` ray masks of square index `i` and whether it ascends
/// (the first `up`): a fixed length, so that the walk is unrolled and unchecked.
#[inline(always)]
fn walk_fixed<W: Word, const K: usize>(
    masks: &[Bitboard],
    i: usize,
    up: usize,
    f: &mut impl FnMut(W, bool),
) {
    let m: &[Bitboard; K] = masks[i * K..(i + 1) * K].try_into().unwrap();
    for (j, r) in m.iter().enumerate() {
        f(r.narrow::<W>().0, j < up);
    }
}

/// The rides of a piece whose rides all move and capture alike from every square: for
/// each square its `k` ray masks side by side, the `up` ascending ones first, so a
/// lookup touches one or two cache lines and tests no flags.
#[derive(Clone)]
struct PlainRides {
    k: usize,
    up: usize,
    masks: Box<[Bitboard]>,
}

impl PlainRides {
    fn build<'a>(rays: &Rays, rides: impl Iterator<Item = &'a RayAtom>) -> PlainRides {
        let mut order: Vec<&Ray> = rides.map(|r| rays.get(r.ray)).collect();
        order.sort_by_key(|r| !r.ascending);
        let k = order.len();
        let mut masks = vec![Bitboard::EMPTY; SQUARE_SLOTS * k].into_boxed_slice();
        for s in 0..SQUARE_SLOTS {
            for (j, r) in order.iter().enumerate() {
                masks[s * k + j] = r.mask[s];
            }
        }
        PlainRides {
            k,
            up: order.iter().filter(|r| r.ascending).count(),
            masks,
        }
    }

    /// Calls `f` with each ray mask of square index `i` and whether it ascends.
    #[inline(always)]
    fn each_ray<W: Word>(&self, i: usize, mut f: impl FnMut(W, bool)) {
        // The rook's, the bishop's and the queen's shapes (a cannon's too) with their
        // counts fixed: the evaluation walks them for every piece.
        match (self.up, self.k) {
            // A leaper's (a knight's, a king's): asked for every one of them too.
            (_, 0) => {}
            (2, 4) => walk_fixed::<W, 4>(&self.masks, i, 2, &mut f),
            (4, 8) => walk_fixed::<W, 8>(&self.masks, i, 4, &mut f),
            _ => {
                let m = &self.masks[i * self.k..(i + 1) * self.k];
                for r in &m[..self.up] {
                    f(r.narrow::<W>().0, true);
                }
                for r in &m[self.up..] {
                    f(r.narrow::<W>().0, false);
                }
            }
        }
    }

    /// The squares the rides reach from square index `i`, first blockers included.
    #[inline(always)]
    fn reach<W: Word>(&self, i: usize, occ: Bitboard<W>) -> Bitboard<W> {
        let mut reach = W::ZERO;
        self.each_ray(i, |r: W, up| reach |= r & cut(r & occ.0, up));
        Bitboard(reach)
    }

    /// The second occupied square of each ray from square index `i`: what a hop that
    /// only captures takes (the first is its screen).
    #[inline(always)]
    fn second<W: Word>(&self, i: usize, occ: Bitboard<W>) -> Bitboard<W> {
        let mut out = W::ZERO;
        self.each_ray(i, |r: W, up| out |= second_blocker(r & occ.0, up));
        Bitboard(out)
    }

    /// [`PlainRides::reach`] and [`PlainRides::second`] in one walk of the masks, for
    /// a piece that moves and hops along the same rays (each ray's blockers found once).
    #[inline(always)]
    fn reach_and_second<W: Word>(&self, i: usize, occ: Bitboard<W>) -> (Bitboard<W>, Bitboard<W>) {
        let (mut reach, mut second) = (W::ZERO, W::ZERO);
        self.each_ray(i, |r: W, up| {
            let b = r & occ.0;
            reach |= r & cut(b, up);
            second |= second_blocker(b, up);
        });
        (Bitboard(reach), Bitboard(second))
    }
}

/// The rides and hops of a cannon-like piece (see [`PieceAttacks::hopper`]).
#[derive(Clone)]
struct HopperRides {
    /// The move-only rides.
    moves: PlainRides,
    /// The capture-only hops, each cut to its range; None where they run along
    /// exactly the rides' rays (the cannon: `mRcpR`), so one walk of the masks serves
    /// both.
    hops: Option<PlainRides>,
}

/// Adds `atom` (a leap, lame when `via` is given) to the set-wise leaps, or gives them
/// up (None) when its step is already there: two leaps onto one square would be one
/// move per piece, but two in a set-wise count.
fn push_set_leap(
    set: &mut Option<Vec<SetLeap>>,
    board: &Board,
    atom: &Atom,
    from: Bitboard,
    via: Option<Offset>,
) {
    let Some(v) = set else { return };
    if v.iter().any(|l| l.delta == index_delta(board, atom.step)) {
        *set = None;
        return;
    }
    let mut ok = Bitboard::EMPTY;
    for s in from.iter() {
        let t = board.offset(s, atom.step.dx as i32, atom.step.dy as i32);
        let w = via.map(|w| board.offset(s, w.dx as i32, w.dy as i32));
        if t.is_some() && !matches!(w, Some(None)) {
            ok.set(s);
        }
    }
    v.push(SetLeap {
        from: ok,
        delta: index_delta(board, atom.step),
        via: via.map_or(0, |w| index_delta(board, w)),
        mode: atom.mode,
    });
}

/// The change of square index a step makes on `board` (where it stays on the board).
fn index_delta(board: &Board, step: Offset) -> i32 {
    step.dy as i32 * board.files as i32 + step.dx as i32
}

/// Squares a piece may move to (empty) and capture on (occupied, either colour).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Targets<W: Word = u128> {
    /// Empty squares reachable by a non-capturing move.
    pub quiet: Bitboard<W>,
    /// Occupied squares reachable by a capture (the caller masks out its own pieces).
    pub capture: Bitboard<W>,
}

impl PieceAttacks {
    /// The squares a leap from square index `s` may capture on.
    #[inline(always)]
    pub fn leap_capture(&self, s: usize) -> Bitboard {
        self.leaps[s].0[1]
    }

    /// Compiles `atoms` (already turned for the colour) on `board`; `initial` holds the
    /// squares initial-only atoms may start from.
    pub fn compile(board: &Board, rays: &mut Rays, atoms: &[Atom], initial: Bitboard) -> Self {
        let mut pa = PieceAttacks {
            leaps: Box::new([LeapPair([Bitboard::EMPTY; 2]); SQUARE_SLOTS]),
            leap_capture_rev: Box::new([Bitboard::EMPTY; SQUARE_SLOTS]),
            lame: Vec::new(),
            rides: Vec::new(),
            hops: Vec::new(),
            grasshops: Vec::new(),
            bents: Vec::new(),
            region: board.all,
            plain: None,
            hopper: None,
            bent_mids: Vec::new(),
            odd_rides: Vec::new(),
            leap_captures_only: false,
            pure: false,
            set_leaps: None,
        };
        let mut set_leaps = Some(Vec::new());
        for atom in atoms {
            let from = if atom.initial { initial } else { board.all };
            match atom.kind {
                AtomKind::Leap => {
                    push_set_leap(&mut set_leaps, board, atom, from, None);
                    for s in from.iter() {
                        let d = (atom.step.dx as i32, atom.step.dy as i32);
                        if let Some(t) = board.offset(s, d.0, d.1) {
                            if atom.mode.moves() {
                                pa.leaps[s.idx()].0[0].set(t);
                            }
                            if atom.mode.captures() {
                                pa.leaps[s.idx()].0[1].set(t);
                            }
                        }
                    }
                }
                AtomKind::Lame { via } => {
                    push_set_leap(&mut set_leaps, board, atom, from, Some(via));
                    let mut la = LameAtom {
                        target: Box::new([Bitboard::EMPTY; SQUARE_SLOTS]),
                        via: Box::new([Square(0); SQUARE_SLOTS]),
                        mode: atom.mode,
                        step: atom.step,
                    };
                    for s in from.iter() {
                        let t = board.offset(s, atom.step.dx as i32, atom.step.dy as i32);
                        let v = board.offset(s, via.dx as i32, via.dy as i32);
                        if let (Some(t), Some(v)) = (t, v) {
                            la.target[s.idx()] = t.bb();
                            la.via[s.idx()] = v;
                        }
                    }
                    pa.lame.push(la);
                }
                AtomKind::Ride { range }
                | AtomKind::Hop { range }
                | AtomKind::Grasshopper { range } => {
                    set_leaps = None;
                    let ra = RayAtom {
                        ray: rays.id(board, atom.step, range),
                        full: rays.id(board, atom.step, 0),
                        mode: atom.mode,
                        from,
                    };
                    match atom.kind {
                        AtomKind::Ride { .. } => pa.rides.push(ra),
                        AtomKind::Hop { .. } => pa.hops.push(ra),
                        _ => pa.grasshops.push(ra),
                    }
                }
                AtomKind::Bent { then, range } => {
                    set_leaps = None;
                    let mut ba = BentAtom {
                        mid: Box::new([Square(0); SQUARE_SLOTS]),
                        valid: Bitboard::EMPTY,
                        ray: rays.id(board, then, range),
                        mode: atom.mode,
                    };
                    for s in from.iter() {
                        if let Some(m) = board.offset(s, atom.step.dx as i32, atom.step.dy as i32) {
                            ba.mid[s.idx()] = m;
                            ba.valid.set(s);
                        }
                    }
                    pa.bents.push(ba);
                }
            }
        }
        for s in 0..board.squares() {
            for t in pa.leaps[s].0[1].iter() {
                pa.leap_capture_rev[t.idx()].set(Square(s as u8));
            }
        }
        if pa.hops.is_empty() && pa.grasshops.is_empty() && pa.bents.is_empty() {
            let plain = |r: &&RayAtom| r.mode == Mode::Both && r.from == board.all;
            pa.plain = Some(PlainRides::build(rays, pa.rides.iter().filter(plain)));
            pa.odd_rides = pa.rides.iter().filter(|r| !plain(r)).cloned().collect();
        }
        let all = |r: &RayAtom| r.from == board.all;
        if !pa.hops.is_empty()
            && pa.bents.is_empty()
            && pa.grasshops.is_empty()
            && pa.rides.iter().all(|r| r.mode == Mode::Move && all(r))
            && pa.hops.iter().all(|h| h.mode == Mode::Capture && all(h))
        {
            let moves = PlainRides::build(rays, pa.rides.iter());
            let hops = PlainRides::build(rays, pa.hops.iter());
            let same = moves.k == hops.k && moves.up == hops.up && moves.masks == hops.masks;
            pa.hopper = Some(HopperRides {
                moves,
                hops: (!same).then_some(hops),
            });
        }
        if !pa.bents.is_empty() {
            pa.bent_mids = vec![Bitboard::EMPTY; SQUARE_SLOTS];
            for b in &pa.bents {
                for s in b.valid.iter() {
                    pa.bent_mids[s.idx()].set(b.mid[s.idx()]);
                }
            }
        }
        pa.pure = pa.plain.is_some()
            && pa.odd_rides.is_empty()
            && pa.lame.is_empty()
            && pa.leaps.iter().all(|l| l.0[0] == l.0[1]);
        pa.set_leaps = set_leaps;
        pa.leap_captures_only = pa.lame.iter().all(|a| !a.mode.captures())
            && pa.rides.iter().all(|a| !a.mode.captures())
            && pa.hops.iter().all(|a| !a.mode.captures())
            && pa.grasshops.iter().all(|a| !a.mode.captures())
            && pa.bents.iter().all(|a| !a.mode.captures());
        pa
    }

    /// The moves of the pieces on `bb` to squares of `allowed`, counted as shifts of the
    /// whole set (one per leap, not one per piece), for a piece that only leaps; None
    /// for others. Each piece reaches each square by at most one leap, so the count is
    /// the per-piece count summed, `region` applied as there.
    #[inline]
    pub fn count_set<W: Word>(
        &self,
        bb: Bitboard<W>,
        occ: Bitboard<W>,
        theirs: Bitboard<W>,
        allowed: Bitboard<W>,
    ) -> Option<u32> {
        let leaps = self.set_leaps.as_ref()?;
        let allowed = allowed & self.region.narrow();
        let mut n = 0;
        for l in leaps {
            let mut src = bb & l.from.narrow();
            if l.via != 0 {
                src &= !shifted(occ, -l.via);
            }
            let to = shifted(src, l.delta);
            let mut ok = Bitboard::EMPTY;
            if l.mode.moves() {
                ok |= !occ;
            }
            if l.mode.captures() {
                ok |= theirs;
            }
            n += (to & ok & allowed).count();
        }
        Some(n)
    }

    /// The squares from which a leap of a set-wise leaper lands on `target`, on any
    /// occupancy (empty for other pieces).
    #[inline]
    pub fn set_sources<W: Word>(&self, target: Bitboard<W>) -> Bitboard<W> {
        let mut src = Bitboard::EMPTY;
        for l in self.set_leaps.iter().flatten() {
            src |= shifted(target, -l.delta) & l.from.narrow();
        }
        src
    }

    /// True when the piece has only leaps and unlimited or limited straight rides, so
    /// that pins and checks can be read off rays (no hopper screens, no lame blocks).
    pub fn has_only_leaps_and_rides(&self) -> bool {
        self.hops.is_empty()
            && self.grasshops.is_empty()
            && self.bents.is_empty()
            && self.lame.iter().all(|l| !l.mode.captures())
    }

    /// True when the piece captures only by leaps: its capture targets on any board are
    /// those on a full board, cut to the occupied squares.
    pub fn captures_only_by_leaps(&self) -> bool {
        self.leap_captures_only
    }

    /// The squares a piece on `from` captures on, given the occupancy: one table lookup
    /// for a piece that captures only by leaps (pawns, mostly; the evaluation asks for
    /// every one of them at every node).
    #[inline(always)]
    pub fn capture_targets<W: Word>(
        &self,
        rays: &Rays,
        from: Square,
        occ: Bitboard<W>,
    ) -> Bitboard<W> {
        if self.leap_captures_only {
            self.leaps[from.idx()].0[1].narrow() & occ
        } else {
            self.targets(rays, from, occ).capture
        }
    }

    /// Where a piece standing on `from` may go, given the occupancy.
    #[inline(always)]
    pub fn targets<W: Word>(&self, rays: &Rays, from: Square, occ: Bitboard<W>) -> Targets<W> {
        let i = from.idx();
        match &self.plain {
            // Most pieces of most games: no mode or start-square test per ride, and
            // inlined into the generators.
            Some(plain) => {
                let reach = plain.reach(i, occ);
                let mut tg = Targets {
                    quiet: (self.leaps[i].0[0].narrow() | reach) & !occ,
                    capture: (self.leaps[i].0[1].narrow() | reach) & occ,
                };
                self.add_lame_and_rides(&self.odd_rides, rays, from, occ, &mut tg);
                let region = self.region.narrow();
                Targets {
                    quiet: tg.quiet & region,
                    capture: tg.capture & region,
                }
            }
            None => self.targets_general(rays, from, occ),
        }
    }

    /// Every square a piece on `from` moves or captures to: the union of
    /// [`PieceAttacks::targets`]' two sets, which the evaluation asks of every piece.
    #[inline(always)]
    pub fn reach<W: Word>(&self, rays: &Rays, from: Square, occ: Bitboard<W>) -> Bitboard<W> {
        match &self.plain {
            // A leap that moves and captures alike goes to its square whether or not
            // it is occupied, and so does a plain ride up to its first blocker.
            Some(plain) if self.pure => {
                let i = from.idx();
                (self.leaps[i].0[0].narrow() | plain.reach(i, occ)) & self.region.narrow()
            }
            _ => {
                let tg = self.targets(rays, from, occ);
                tg.quiet | tg.capture
            }
        }
    }

    /// The squares a piece on `from` would capture on were an enemy piece standing there:
    /// exact for a piece that moves as it captures and for one that captures only by
    /// leaps (empty squares included), the occupied squares alone for the others.
    #[inline]
    pub fn threatens<W: Word>(&self, rays: &Rays, from: Square, occ: Bitboard<W>) -> Bitboard<W> {
        if self.leap_captures_only {
            self.leaps[from.idx()].0[1].narrow() & self.region.narrow()
        } else if self.pure {
            self.reach(rays, from, occ)
        } else {
            self.targets(rays, from, occ).capture
        }
    }

    /// The capture targets of a piece on `from` whose [`PieceAttacks::reach`] is
    /// `reach`: for most pieces simply the occupied squares of it.
    #[inline(always)]
    pub fn captures_in<W: Word>(
        &self,
        rays: &Rays,
        from: Square,
        occ: Bitboard<W>,
        reach: Bitboard<W>,
    ) -> Bitboard<W> {
        if self.pure {
            reach & occ
        } else {
            self.targets(rays, from, occ).capture
        }
    }

    /// Adds the lame leaps and the given rides from `from` to `tg`.
    #[inline(always)]
    fn add_lame_and_rides<W: Word>(
        &self,
        rides: &[RayAtom],
        rays: &Rays,
        from: Square,
        occ: Bitboard<W>,
        tg: &mut Targets<W>,
    ) {
        let i = from.idx();
        for la in &self.lame {
            let t = la.target[i].narrow::<W>();
            if t.any() && !occ.has(la.via[i]) {
                if la.mode.moves() {
                    tg.quiet |= t & !occ;
                }
                if la.mode.captures() {
                    tg.capture |= t & occ;
                }
            }
        }
        for ra in rides {
            if ra.from.has(from) {
                let a = rays.get(ra.ray).attacks(from, occ);
                if ra.mode.moves() {
                    tg.quiet |= a & !occ;
                }
                if ra.mode.captures() {
                    tg.capture |= a & occ;
                }
            }
        }
    }

    /// [`PieceAttacks::targets`] for pieces with hops, grasshops or bent rides.
    #[inline(never)]
    fn targets_general<W: Word>(&self, rays: &Rays, from: Square, occ: Bitboard<W>) -> Targets<W> {
        let i = from.idx();
        let region = self.region.narrow();
        if let Some(h) = &self.hopper {
            let (reach, second) = match &h.hops {
                None => h.moves.reach_and_second(i, occ),
                Some(hops) => (h.moves.reach(i, occ), hops.second(i, occ)),
            };
            let mut tg = Targets {
                quiet: (self.leaps[i].0[0].narrow() | reach) & !occ,
                capture: (self.leaps[i].0[1].narrow() & occ) | second,
            };
            self.add_lame_and_rides(&[], rays, from, occ, &mut tg);
            return Targets {
                quiet: tg.quiet & region,
                capture: tg.capture & region,
            };
        }
        let mut tg = Targets {
            quiet: self.leaps[i].0[0].narrow() & !occ,
            capture: self.leaps[i].0[1].narrow() & occ,
        };
        self.add_lame_and_rides(&self.rides, rays, from, occ, &mut tg);
        let Targets {
            mut quiet,
            mut capture,
        } = tg;
        for ha in &self.hops {
            if !ha.from.has(from) {
                continue;
            }
            let t = hop_targets(rays, ha, from, occ);
            if ha.mode.moves() {
                quiet |= t.quiet;
            }
            if ha.mode.captures() {
                capture |= t.capture;
            }
        }
        for ga in &self.grasshops {
            if !ga.from.has(from) {
                continue;
            }
            let ray = rays.get(ga.ray);
            let land = Bitboard(past_first_blocker(ray.at(from).0, occ.0, ray.ascending));
            if ga.mode.moves() {
                quiet |= land & !occ;
            }
            if ga.mode.captures() {
                capture |= land & occ;
            }
        }
        let bents = match self.bent_mids.get(i) {
            Some(mids) if (mids.narrow() & !occ).any() => &self.bents[..],
            _ => &[],
        };
        for ba in bents {
            if !ba.valid.has(from) {
                continue;
            }
            let m = ba.mid[i];
            if occ.has(m) {
                continue;
            }
            let a = rays.get(ba.ray).attacks(m, occ);
            if ba.mode.moves() {
                quiet |= a & !occ;
            }
            if ba.mode.captures() {
                capture |= a & occ;
            }
        }
        Targets {
            quiet: quiet & region,
            capture: capture & region,
        }
    }

    /// Confines the piece to `region`: no move, capture or attack leaves it.
    pub fn confine(&mut self, region: Bitboard) {
        self.region &= region;
        for s in 0..SQUARE_SLOTS {
            self.leaps[s].0[0] &= region;
            self.leaps[s].0[1] &= region;
            self.leap_capture_rev[s] = Bitboard::EMPTY;
        }
        for s in 0..SQUARE_SLOTS {
            for t in self.leaps[s].0[1].iter() {
                self.leap_capture_rev[t.idx()].set(Square(s as u8));
            }
        }
    }

    /// The squares this piece on `from` would capture on if they held an enemy.
    #[inline]
    pub fn capture_reach<W: Word>(
        &self,
        rays: &Rays,
        from: Square,
        occ: Bitboard<W>,
    ) -> Bitboard<W> {
        self.targets(rays, from, occ).capture
    }
}

/// What a hopper on `from` reaches along one ray: squares past exactly one screen.
#[inline(always)]
fn hop_targets<W: Word>(rays: &Rays, ha: &RayAtom, from: Square, occ: Bitboard<W>) -> Targets<W> {
    let ray = rays.get(ha.ray);
    if !ha.mode.moves() {
        // A capture-only hop (a cannon's) takes the second piece on the ray within
        // range: the screen is the first. No walk beyond the screen is needed.
        return Targets {
            quiet: Bitboard::EMPTY,
            capture: Bitboard(second_blocker((ray.at(from) & occ).0, ray.ascending)),
        };
    }
    match ray.first_blocker(from, occ) {
        None => Targets::default(),
        Some(screen) => {
            let beyond = rays.get(ha.full).attacks(screen, occ) & ray.at(from);
            Targets {
                quiet: beyond & !occ,
                capture: beyond & occ,
            }
        }
    }
}

/// Walks a ray square by square: the slow reference the fast rays are tested against.
pub fn ride_slow<W: Word>(
    board: &Board,
    from: Square,
    step: Offset,
    range: u8,
    occ: Bitboard<W>,
) -> Bitboard<W> {
    let mut out = Bitboard::EMPTY;
    let mut sq = from;
    let mut n = 0;
    while range == 0 || n < range {
        match board.offset(sq, step.dx as i32, step.dy as i32) {
            None => break,
            Some(t) => {
                out.set(t);
                n += 1;
                sq = t;
                if occ.has(t) {
                    break;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::atoms::symmetric;

    fn b10() -> Board {
        Board::new(10, 10).unwrap()
    }

    fn sqs(b: &Board, names: &str) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for n in names.split_whitespace() {
            bb.set(b.parse_square(n).unwrap());
        }
        bb
    }

    fn occ(b: &Board, names: &str) -> Bitboard {
        sqs(b, names)
    }

    fn compile(b: &Board, rays: &mut Rays, atoms: &[Atom]) -> PieceAttacks {
        PieceAttacks::compile(b, rays, atoms, b.rank_mask(1))
    }

    fn sym(kind: AtomKind, dx: i8, dy: i8, mode: Mode) -> Vec<Atom> {
        symmetric(dx, dy)
            .into_iter()
            .map(|step| Atom {
                kind,
                step,
                mode,
                initial: false,
            })
            .collect()
    }

    #[test]
    fn leaper_camel_from_a_corner_and_the_centre() {
        let b = b10();
        let mut rays = Rays::default();
        let camel = compile(&b, &mut rays, &sym(AtomKind::Leap, 3, 1, Mode::Both));
        let t = camel.targets(&rays, b.parse_square("a1").unwrap(), Bitboard::EMPTY);
        assert_eq!(t.quiet, sqs(&b, "d2 b4"));
        let t = camel.targets(&rays, b.parse_square("e5").unwrap(), occ(&b, "h6 f6"));
        assert_eq!(t.quiet, sqs(&b, "h4 b6 b4 f8 d8 f2 d2"));
        assert_eq!(t.capture, sqs(&b, "h6"));
    }

    #[test]
    fn rider_unlimited_stops_at_first_blocker_on_10x10() {
        let b = b10();
        let mut rays = Rays::default();
        let rook = compile(
            &b,
            &mut rays,
            &sym(AtomKind::Ride { range: 0 }, 1, 0, Mode::Both),
        );
        let t = rook.targets(&rays, b.parse_square("e5").unwrap(), occ(&b, "e8 b5 j5"));
        assert_eq!(t.quiet, sqs(&b, "e6 e7 e4 e3 e2 e1 d5 c5 f5 g5 h5 i5"));
        assert_eq!(t.capture, sqs(&b, "e8 b5 j5"));
    }

    #[test]
    fn rider_with_range_slides_at_most_four() {
        // Augsburg Deacon's diagonal part: B4.
        let b = b10();
        let mut rays = Rays::default();
        let b4 = compile(
            &b,
            &mut rays,
            &sym(AtomKind::Ride { range: 4 }, 1, 1, Mode::Both),
        );
        let t = b4.targets(&rays, b.parse_square("a1").unwrap(), Bitboard::EMPTY);
        assert_eq!(t.quiet, sqs(&b, "b2 c3 d4 e5"));
        let t = b4.targets(&rays, b.parse_square("a1").unwrap(), occ(&b, "c3"));
        assert_eq!(t.quiet, sqs(&b, "b2"));
        assert_eq!(t.capture, sqs(&b, "c3"));
    }

    #[test]
    fn nightrider_follows_its_lines() {
        let b = b10();
        let mut rays = Rays::default();
        let nn = compile(
            &b,
            &mut rays,
            &sym(AtomKind::Ride { range: 0 }, 1, 2, Mode::Both),
        );
        let t = nn.targets(&rays, b.parse_square("a1").unwrap(), occ(&b, "c5"));
        assert_eq!(t.quiet, sqs(&b, "b3 c2 e3 g4 i5"));
        assert_eq!(t.capture, sqs(&b, "c5"));
    }

    #[test]
    fn hopper_captures_over_exactly_one_screen() {
        // A Xiangqi-style cannon: mR + cpR, on e1 with screens.
        let b = b10();
        let mut rays = Rays::default();
        let mut atoms = sym(AtomKind::Ride { range: 0 }, 1, 0, Mode::Move);
        atoms.extend(sym(AtomKind::Hop { range: 0 }, 1, 0, Mode::Capture));
        let cannon = compile(&b, &mut rays, &atoms);
        let from = b.parse_square("e1").unwrap();
        // Screen e3, target e6 (e4, e5 empty); e7 behind the target is not reached.
        // Screen c1 adjacent to b1: b1 is captured; a1 behind it is not.
        // On the right: f1 screen, g1 target directly behind (adjacent target).
        let o = occ(&b, "e3 e6 e7 c1 b1 a1 f1 g1");
        let t = cannon.targets(&rays, from, o);
        assert_eq!(t.quiet, sqs(&b, "e2 d1"));
        assert_eq!(t.capture, sqs(&b, "e6 b1 g1"));
        // Without a screen nothing is captured.
        let t = cannon.targets(&rays, from, occ(&b, "e9"));
        assert_eq!(t.capture, Bitboard::EMPTY);
    }

    #[test]
    fn hopper_moving_beyond_the_screen() {
        // pR with both modes: empty squares past the screen, and the first piece past it.
        let b = b10();
        let mut rays = Rays::default();
        let hop = compile(
            &b,
            &mut rays,
            &[Atom {
                kind: AtomKind::Hop { range: 0 },
                step: Offset::new(0, 1),
                mode: Mode::Both,
                initial: false,
            }],
        );
        let t = hop.targets(&rays, b.parse_square("a1").unwrap(), occ(&b, "a2 a5"));
        assert_eq!(t.quiet, sqs(&b, "a3 a4"));
        assert_eq!(t.capture, sqs(&b, "a5"));
    }

    #[test]
    fn hopper_range_counts_from_the_start() {
        let b = b10();
        let mut rays = Rays::default();
        let hop = compile(
            &b,
            &mut rays,
            &[Atom {
                kind: AtomKind::Hop { range: 3 },
                step: Offset::new(0, 1),
                mode: Mode::Both,
                initial: false,
            }],
        );
        let t = hop.targets(&rays, b.parse_square("a1").unwrap(), occ(&b, "a2 a9"));
        assert_eq!(t.quiet, sqs(&b, "a3 a4"));
        assert_eq!(t.capture, Bitboard::EMPTY);
    }

    /// The grasshopper's landing square by walking: the first piece met along `step`
    /// within `range` - 1 steps, then one step more onto the board and within range.
    fn grasshop_slow(b: &Board, from: Square, step: Offset, range: u8, occ: Bitboard) -> Bitboard {
        let line = ride_slow(b, from, step, 0, occ);
        let mut out = Bitboard::EMPTY;
        if let Some(hurdle) = (line & occ).iter().next() {
            if let Some(land) = b.offset(hurdle, step.dx as i32, step.dy as i32) {
                let n = line.count() + 1;
                if range == 0 || n <= range as u32 {
                    out.set(land);
                }
            }
        }
        out
    }

    #[test]
    fn grasshopper_lands_just_past_the_first_piece() {
        // gQ on e5 of a 10x10 board: over e7 to e8 (a friend or foe, the caller masks
        // its own), over the adjacent f6 to g7, over b5 to a5 (empty); c3 is a hurdle on
        // the edge's side with b2 behind it empty; no hurdle to the right or down: nothing.
        let b = b10();
        let mut rays = Rays::default();
        let mut atoms = sym(AtomKind::Grasshopper { range: 0 }, 1, 0, Mode::Both);
        atoms.extend(sym(AtomKind::Grasshopper { range: 0 }, 1, 1, Mode::Both));
        let g = compile(&b, &mut rays, &atoms);
        let e5 = b.parse_square("e5").unwrap();
        let t = g.targets(&rays, e5, occ(&b, "e7 e8 e9 f6 g7 b5 c3"));
        assert_eq!(t.quiet, sqs(&b, "a5 b2"));
        assert_eq!(t.capture, sqs(&b, "e8 g7"));
        // A hurdle on the edge: nothing beyond it.
        let t = g.targets(&rays, e5, occ(&b, "e10 j5 j10"));
        assert_eq!(t.quiet | t.capture, Bitboard::EMPTY);
    }

    #[test]
    fn grasshopper_range_counts_to_the_landing_square() {
        // XBoard's gR4: the landing square at most four steps from the start.
        let b = b10();
        let mut rays = Rays::default();
        let g = compile(
            &b,
            &mut rays,
            &sym(AtomKind::Grasshopper { range: 4 }, 1, 0, Mode::Both),
        );
        let a1 = b.parse_square("a1").unwrap();
        assert_eq!(g.targets(&rays, a1, occ(&b, "a4")).quiet, sqs(&b, "a5"));
        assert_eq!(g.targets(&rays, a1, occ(&b, "a5")).quiet, Bitboard::EMPTY);
        assert_eq!(
            g.targets(&rays, a1, occ(&b, "a2 a3")).capture,
            sqs(&b, "a3")
        );
    }

    #[test]
    fn grasshoppers_equal_slow_walks_on_random_occupancies() {
        let mut rnd = xorshift(0x6A55_40B0_1234_5677u64);
        for (files, ranks) in [(8, 8), (10, 10), (9, 10), (10, 12)] {
            let b = Board::new(files, ranks).unwrap();
            for (betza, range) in [("gQ", 0), ("gNN", 0), ("gR3", 3), ("gB2", 2)] {
                let mut rays = Rays::default();
                let atoms = crate::movement::betza::parse(betza).unwrap();
                let pa = PieceAttacks::compile(&b, &mut rays, &atoms, b.rank_mask(1));
                for _ in 0..100 {
                    let r = |r: &mut dyn FnMut() -> u64| (r() as u128) << 64 | r() as u128;
                    let o = Bitboard(r(&mut rnd) & r(&mut rnd)) & b.all;
                    for from in b.all {
                        let o = o & !from.bb();
                        let mut want = Bitboard::EMPTY;
                        for a in &atoms {
                            want |= grasshop_slow(&b, from, a.step, range, o);
                        }
                        let t = pa.targets(&rays, from, o);
                        assert_eq!(
                            t.quiet | t.capture,
                            want,
                            "{betza} {from:?} {files}x{ranks}"
                        );
                        assert_eq!(t.capture, want & o, "{betza}");
                    }
                }
            }
        }
    }

    fn griffon() -> Vec<Atom> {
        let mut atoms = sym(AtomKind::Leap, 1, 1, Mode::Both);
        for d in symmetric(1, 1) {
            for then in [Offset::new(d.dx, 0), Offset::new(0, d.dy)] {
                atoms.push(Atom {
                    kind: AtomKind::Bent { then, range: 0 },
                    step: d,
                    mode: Mode::Both,
                    initial: false,
                });
            }
        }
        atoms
    }

    #[test]
    fn griffon_steps_diagonally_then_slides_outward() {
        // ArchMage rulings: from e4 stop on f5 or go on to f6, f7... or g5, h5...
        let b = b10();
        let mut rays = Rays::default();
        let g = compile(&b, &mut rays, &griffon());
        let e4 = b.parse_square("e4").unwrap();
        let t = g.targets(&rays, e4, occ(&b, "f8 h5"));
        let expect_ne = "f5 f6 f7 g5";
        let expect_nw = "d5 d6 d7 d8 d9 d10 c5 b5 a5";
        let expect_se = "f3 f2 f1 g3 h3 i3 j3";
        let expect_sw = "d3 d2 d1 c3 b3 a3";
        let want = sqs(
            &b,
            &format!("{expect_ne} {expect_nw} {expect_se} {expect_sw}"),
        );
        assert_eq!(t.quiet, want);
        assert_eq!(t.capture, sqs(&b, "f8 h5"));
        // A piece on the first-step square blocks the continuation but can be captured.
        let t = g.targets(&rays, e4, occ(&b, "f5"));
        assert!(t.capture.has(b.parse_square("f5").unwrap()));
        assert!(!t.quiet.has(b.parse_square("f6").unwrap()));
        assert!(!t.quiet.has(b.parse_square("g5").unwrap()));
    }

    #[test]
    fn manticore_steps_orthogonally_then_slides_diagonally_outward() {
        let b = b10();
        let mut rays = Rays::default();
        let mut atoms = sym(AtomKind::Leap, 1, 0, Mode::Both);
        for d in symmetric(1, 0) {
            let outs = if d.dx == 0 {
                [Offset::new(1, d.dy), Offset::new(-1, d.dy)]
            } else {
                [Offset::new(d.dx, 1), Offset::new(d.dx, -1)]
            };
            for then in outs {
                atoms.push(Atom {
                    kind: AtomKind::Bent { then, range: 0 },
                    step: d,
                    mode: Mode::Both,
                    initial: false,
                });
            }
        }
        let m = compile(&b, &mut rays, &atoms);
        let e4 = b.parse_square("e4").unwrap();
        let t = m.targets(&rays, e4, occ(&b, "e3 d4 f4"));
        // North: e5, then d6 c7 b8 a9 and f6 g7 h8 i9 j10.
        assert_eq!(t.quiet, sqs(&b, "e5 d6 c7 b8 a9 f6 g7 h8 i9 j10"));
        assert_eq!(t.capture, sqs(&b, "e3 d4 f4"));
    }

    #[test]
    fn lame_leap_needs_its_via_square_empty() {
        // Xiangqi horse (1,2) via (0,1), and a pawn two-step only from rank 2.
        let b = b10();
        let mut rays = Rays::default();
        let step = Atom {
            kind: AtomKind::Lame {
                via: Offset::new(0, 1),
            },
            step: Offset::new(0, 2),
            mode: Mode::Move,
            initial: true,
        };
        let p = compile(&b, &mut rays, &[step]);
        let e2 = b.parse_square("e2").unwrap();
        assert_eq!(p.targets(&rays, e2, Bitboard::EMPTY).quiet, sqs(&b, "e4"));
        assert_eq!(p.targets(&rays, e2, occ(&b, "e3")).quiet, Bitboard::EMPTY);
        assert_eq!(p.targets(&rays, e2, occ(&b, "e4")).quiet, Bitboard::EMPTY);
        let e3 = b.parse_square("e3").unwrap();
        assert_eq!(
            p.targets(&rays, e3, Bitboard::<u128>::EMPTY).quiet,
            Bitboard::EMPTY
        );
    }

    #[test]
    fn move_only_and_capture_only_modes() {
        // Pawn-like: fmW + fcF on 10x10.
        let b = b10();
        let mut rays = Rays::default();
        let atoms = [
            Atom::leap(0, 1).with_mode(Mode::Move),
            Atom::leap(1, 1).with_mode(Mode::Capture),
            Atom::leap(-1, 1).with_mode(Mode::Capture),
        ];
        let p = compile(&b, &mut rays, &atoms);
        let t = p.targets(&rays, b.parse_square("j5").unwrap(), occ(&b, "j6 i6"));
        assert_eq!(t.quiet, Bitboard::EMPTY);
        assert_eq!(t.capture, sqs(&b, "i6"));
        assert_eq!(
            p.leap_capture_rev[b.parse_square("i6").unwrap().idx()],
            sqs(&b, "h5 j5")
        );
    }

    /// A xorshift stream from `seed`, for random boards.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    #[test]
    fn fast_rays_equal_slow_walks_on_random_occupancies() {
        let mut rnd = xorshift(0x9E37_79B9_7F4A_7C15u64);
        for (files, ranks) in [(8, 8), (10, 10), (10, 12), (9, 10)] {
            let b = Board::new(files, ranks).unwrap();
            let mut rays = Rays::default();
            let steps = [
                (1, 0),
                (0, 1),
                (1, 1),
                (-1, 1),
                (1, 2),
                (-2, 1),
                (0, -1),
                (-1, -1),
            ];
            for &(dx, dy) in &steps {
                for range in [0u8, 1, 3, 4] {
                    let id = rays.id(&b, Offset::new(dx, dy), range);
                    for _ in 0..200 {
                        let r1 = (rnd() as u128) << 64 | rnd() as u128;
                        let r2 = (rnd() as u128) << 64 | rnd() as u128;
                        let o = Bitboard(r1 & r2) & b.all;
                        let from = Square((rnd() % b.squares() as u64) as u8);
                        let fast = rays.get(id).attacks(from, o);
                        let slow = ride_slow(&b, from, Offset::new(dx, dy), range, o);
                        assert_eq!(fast, slow, "{files}x{ranks} step ({dx},{dy}) r{range}");
                    }
                }
            }
        }
    }

    /// A set of leapers counted as shifts of the whole set makes as many moves as its
    /// pieces one by one: pawns with an initial lame double step on an 8x8 and a 10x12
    /// board, camels and Xiangqi horses, on random boards; a piece that names one step
    /// twice is not counted set-wise at all.
    /// A capture-only hop (a cannon's `cpR`) takes the second piece on each ray, the
    /// piece a hop that also moves (`pR`) captures after walking past its screen; the
    /// cannon-like layout keeps the move-only ride's quiet moves.
    #[test]
    fn capture_only_hops_take_what_moving_hops_take() {
        let mut rnd = xorshift(0xCA77_0A11_5EED_0001u64);
        for (files, ranks) in [(8, 8), (10, 10), (9, 10)] {
            let b = Board::new(files, ranks).unwrap();
            let pairs = [
                ("cpR", "pR"),
                ("mBcpB", "pB"),
                ("mQcpQ", "pQ"),
                ("WmRcpR", "WpR"),
            ];
            for (capture_only, both) in pairs {
                let mut rays = Rays::default();
                let compile = |betza: &str, rays: &mut Rays| {
                    let atoms = crate::movement::betza::parse(betza).unwrap();
                    PieceAttacks::compile(&b, rays, &atoms, b.rank_mask(1))
                };
                let c = compile(capture_only, &mut rays);
                let m = compile(both, &mut rays);
                for _ in 0..200 {
                    let r = |r: &mut dyn FnMut() -> u64| (r() as u128) << 64 | r() as u128;
                    let occ = Bitboard(r(&mut rnd) & r(&mut rnd)) & b.all;
                    for from in b.all {
                        assert_eq!(
                            c.targets(&rays, from, occ).capture,
                            m.targets(&rays, from, occ).capture,
                            "{capture_only} from {from:?} on {files}x{ranks}"
                        );
                        // Its quiet moves are the move-only ride's, or none.
                        let ride = capture_only.split("cp").next().unwrap_or("");
                        let quiet = if ride.is_empty() {
                            Bitboard::EMPTY
                        } else {
                            compile(ride, &mut rays).targets(&rays, from, occ).quiet
                        };
                        assert_eq!(c.targets(&rays, from, occ).quiet, quiet, "{capture_only}");
                    }
                }
            }
        }
    }

    #[test]
    fn set_wise_leaper_counts_equal_piece_by_piece_counts() {
        let mut rnd = xorshift(0x51E7_C0DE_0BAD_F00Du64);
        for (files, ranks) in [(8, 8), (10, 12), (9, 10)] {
            let b = Board::new(files, ranks).unwrap();
            for betza in ["fmWfcFifmnD", "C", "nN", "WfcF", "K"] {
                let mut rays = Rays::default();
                let atoms = crate::movement::betza::parse(betza).unwrap();
                let pa = PieceAttacks::compile(&b, &mut rays, &atoms, b.rank_mask(1));
                assert!(pa.set_leaps.is_some(), "{betza}");
                for _ in 0..300 {
                    let r = |r: &mut dyn FnMut() -> u64| (r() as u128) << 64 | r() as u128;
                    let occ = Bitboard(r(&mut rnd) & r(&mut rnd)) & b.all;
                    let theirs = occ & Bitboard(r(&mut rnd));
                    let ours = occ & !theirs;
                    let allowed = Bitboard(r(&mut rnd) | r(&mut rnd)) & b.all;
                    let one_by_one: u32 = ours
                        .iter()
                        .map(|f| {
                            let tg = pa.targets(&rays, f, occ);
                            ((tg.quiet | (tg.capture & theirs)) & allowed).count()
                        })
                        .sum();
                    let set = pa.count_set(ours, occ, theirs, allowed);
                    assert_eq!(set, Some(one_by_one), "{betza} on {files}x{ranks}");
                }
            }
        }
        let mut rays = Rays::default();
        let twice = [Atom::leap(1, 0), Atom::leap(1, 0)];
        let pa = PieceAttacks::compile(&b10(), &mut rays, &twice, b10().rank_mask(1));
        assert_eq!(
            pa.count_set(
                Bitboard(1u128),
                Bitboard(1),
                Bitboard::EMPTY,
                Bitboard::FULL
            ),
            None
        );
        let rider = crate::movement::betza::parse("NR").unwrap();
        let pa = PieceAttacks::compile(&b10(), &mut rays, &rider, b10().rank_mask(1));
        assert_eq!(
            pa.count_set(
                Bitboard(1u128),
                Bitboard(1),
                Bitboard::EMPTY,
                Bitboard::FULL
            ),
            None
        );
    }

    #[test]
    fn reach_is_the_union_of_moves_and_captures_for_every_piece() {
        // The evaluation's shortcut: what `reach` and `captures_in` give must be what
        // the move generator's `targets` gives, piece by piece, on real boards.
        let mut pure = 0;
        crate::testing::seeded_games(
            40,
            11,
            |_| (),
            |_, name, _, pos| {
                let v = pos.variant();
                let occ = pos.occupied();
                for sq in occ.iter() {
                    let p = pos.piece_on(sq);
                    let pa = &v.attacks[p.color().idx()][p.kind() as usize];
                    let tg = pa.targets(&v.rays, sq, occ);
                    let reach = pa.reach(&v.rays, sq, occ);
                    assert_eq!(reach, tg.quiet | tg.capture, "{name}: {}", pos.fen());
                    let caps = pa.captures_in(&v.rays, sq, occ, reach);
                    assert_eq!(caps, tg.capture, "{name}: {}", pos.fen());
                    pure += pa.pure as usize;
                }
            },
        );
        assert!(pure > 0, "no piece took the shortcut");
    }
}
