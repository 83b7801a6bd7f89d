//! What the pawn-rule pieces decide on their own — their placement, passed and shape
//! terms, and the squares they attack — found once per pawn structure and kept in a
//! per-thread cache. Pawns move seldom, so nearly every evaluation of a search finds its
//! structure there.

use super::{weights, Eval, Score, Sink};
use crate::core::geometry::{Bitboard, Square, Word};
use crate::core::moves::{Color, PieceType};
use crate::position::Position;

/// Pawn-rule types whose attacks an entry keeps per type (for the threat terms); a
/// variant with more is evaluated without the cache.
pub const CACHED_TYPES: usize = 2;
/// Entries of a thread's cache (a power of two).
const SIZE: usize = 2048;

/// One pawn structure's facts, per side.
#[derive(Clone, Copy, Default)]
pub struct PawnFacts<W: Word> {
    /// The structure's [`Position::pawn_key`]; 0 marks an empty cache entry.
    key: u64,
    /// Every pawn-rule piece.
    pub pawns: [Bitboard<W>; 2],
    /// Every square they could capture on (on a full board).
    pub attacks: [Bitboard<W>; 2],
    /// The passed ones.
    pub passed: [Bitboard<W>; 2],
    /// The same per pawn-rule type, in the order of the variant's pawn mask (the first
    /// [`CACHED_TYPES`]).
    pub by_type: [[Bitboard<W>; CACHED_TYPES]; 2],
    /// Per side, its outposts (see [`Eval::outpost`]), found only where an outpost
    /// term counts: they depend on the pawns alone, so the cache keeps them.
    pub outposts: [Bitboard<W>; 2],
    /// The weighed placement, passed and shape terms (middlegame, endgame).
    mg: [i32; 2],
    eg: [i32; 2],
}

/// A thread's pawn structures.
pub struct PawnCache<W: Word> {
    entries: Box<[PawnFacts<W>]>,
}

impl<W: Word> Default for PawnCache<W> {
    fn default() -> Self {
        PawnCache {
            entries: vec![PawnFacts::default(); SIZE].into_boxed_slice(),
        }
    }
}

impl<W: Word> PawnCache<W> {
    /// Empties every entry, keeping the memory (a new game).
    pub fn reset(&mut self) {
        self.entries.iter_mut().for_each(|e| e.key = 0);
    }
}

impl Eval {
    /// The pawn facts of `pos`, reporting the pawns' own terms to `sink`.
    pub(super) fn pawn_walk<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        sink: &mut S,
    ) -> PawnFacts<W> {
        let v = &**pos.variant();
        let mut f = PawnFacts::<W>::default();
        let mut m = self.pawn_mask;
        while m != 0 {
            let t = m.trailing_zeros() as PieceType;
            m &= m - 1;
            f.pawns[0] |= pos.pieces(t, Color::White);
            f.pawns[1] |= pos.pieces(t, Color::Black);
        }
        let everywhere = v.board.all.narrow::<W>();
        let shape = self.shape_on || sink.wants_all();
        let passed_file_on = self.counts(weights::PASSED_FILE, sink);
        let mut m = self.pawn_mask;
        let mut slot = 0;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            for c in Color::BOTH {
                let ci = c.idx();
                let pa = &v.attacks[ci][t];
                let mine = f.pawns[ci];
                for sq in pos.pieces(t as PieceType, c).iter() {
                    let a = pa.capture_targets(&v.rays, sq, everywhere);
                    f.attacks[ci] |= a;
                    if slot < CACHED_TYPES {
                        f.by_type[ci][slot] |= a;
                    }
                    sink.piece(ci, t, sq);
                    let s = sq.idx();
                    if (self.front_span[ci][s].narrow() & f.pawns[1 - ci]).is_empty() {
                        sink.passed(ci, sq);
                        f.passed[ci].set(sq);
                        if passed_file_on {
                            // An edge passer is easier to stop, a central one harder.
                            let file = v.board.file_of(sq);
                            let edge = file.min(v.board.files as i32 - 1 - file);
                            if edge > 0 {
                                sink.scalar(ci, weights::PASSED_FILE, edge);
                            }
                        }
                    }
                    if shape {
                        if (self.file_ahead[ci][s].narrow() & mine).any() {
                            sink.scalar(ci, weights::DOUBLED, 1);
                        }
                        if (self.beside_files[s].narrow() & mine).is_empty() {
                            sink.scalar(ci, weights::ISOLATED, 1);
                        }
                        if (self.support[ci][s].narrow() & mine).any() {
                            sink.scalar(ci, weights::CONNECTED, 1);
                        }
                    }
                }
            }
            slot += 1;
        }
        let backward_on = self.counts(weights::BACKWARD, sink);
        let unopposed_on = self.counts(weights::WEAK_UNOPPOSED, sink);
        if backward_on || unopposed_on {
            for ci in 0..2 {
                let (backward, unopposed) = self.weak_pawns(ci, &f);
                if backward > 0 && backward_on {
                    sink.scalar(ci, weights::BACKWARD, backward);
                }
                if unopposed > 0 && unopposed_on {
                    sink.scalar(ci, weights::WEAK_UNOPPOSED, unopposed);
                }
            }
        }
        if self.counts(weights::OUTPOST, sink) || self.counts(weights::REACHABLE_OUTPOST, sink) {
            for ci in 0..2 {
                f.outposts[ci] = (self.enemy_half[ci].narrow::<W>() & f.attacks[ci])
                    .iter()
                    .filter(|&s| self.outpost(ci, s, &f.pawns, &f.attacks))
                    .fold(Bitboard::EMPTY, |b, s| b | s.bb::<W>());
            }
        }
        f
    }

    /// Side `ci`'s backward pawn-rule pieces, and its weak ones no enemy pawn-rule piece
    /// stands ahead of on their file (Stockfish's weak unopposed pawns: a rook attacks
    /// them down the open file). Weak is isolated or backward; backward is having own
    /// ones on a neighbouring file, all of them ahead of it, so none can guard its step,
    /// while the square ahead of it is held or attacked by an enemy one (Stockfish's
    /// definition). An isolated one counts as isolated only.
    fn weak_pawns<W: Word>(&self, ci: usize, f: &PawnFacts<W>) -> (i32, i32) {
        let mine = f.pawns[ci];
        let stoppers = f.pawns[1 - ci] | f.attacks[1 - ci];
        let (mut backward, mut unopposed) = (0, 0);
        for sq in mine.iter() {
            let s = sq.idx();
            let beside = self.beside_files[s].narrow() & mine;
            let weak = if beside.is_empty() {
                true
            } else if (beside & !self.front_span[ci][s].narrow()).any() {
                false
            } else {
                let back = self
                    .stop_square::<W>(ci, sq)
                    .is_some_and(|stop| stoppers.has(stop));
                backward += back as i32;
                back
            };
            if weak && (self.file_ahead[ci][s].narrow() & f.pawns[1 - ci]).is_empty() {
                unopposed += 1;
            }
        }
        (backward, unopposed)
    }

    /// The pawn facts of `pos` (pawn key `key`), from `cache` or found and stored there,
    /// their weighed terms added to (`mg`, `eg`).
    pub(super) fn cached_pawns<'c, W: Word>(
        &self,
        pos: &Position<W>,
        key: u64,
        cache: &'c mut PawnCache<W>,
        mg: &mut [i32; 2],
        eg: &mut [i32; 2],
    ) -> &'c PawnFacts<W> {
        // Key 0 marks an empty entry: such a structure is simply found every time.
        let i = key as usize & (SIZE - 1);
        if cache.entries[i].key != key || key == 0 {
            // The pawns' terms alone, weighed as the search weighs them.
            let mut w = Score::new(self);
            let mut f = self.pawn_walk(pos, &mut w);
            f.key = key;
            f.mg = w.mg;
            f.eg = w.eg;
            cache.entries[i] = f;
        }
        let f = &cache.entries[i];
        for c in 0..2 {
            mg[c] += f.mg[c];
            eg[c] += f.eg[c];
        }
        f
    }

    /// The square one step ahead of `sq` on its file for side `ci` (a pawn's stop
    /// square), if the board goes on.
    #[inline]
    pub(super) fn stop_square<W: Word>(&self, ci: usize, sq: Square) -> Option<Square> {
        let ahead = self.file_ahead[ci][sq.idx()].narrow::<W>();
        // Squares count up by rank, so the nearest square ahead is the lowest for White.
        match (ahead.is_empty(), ci) {
            (true, _) => None,
            (false, 0) => Some(ahead.lsb()),
            (false, _) => Some(ahead.msb()),
        }
    }

    /// Whether `sq` is an outpost for side `ci`: in the enemy half, guarded by an own
    /// pawn-rule piece, and out of reach of every enemy one, now and as they advance.
    #[inline]
    pub(super) fn outpost<W: Word>(
        &self,
        ci: usize,
        sq: Square,
        pawns: &[Bitboard<W>; 2],
        pawn_att: &[Bitboard<W>; 2],
    ) -> bool {
        let s = sq.idx();
        self.enemy_half[ci].has(sq)
            && pawn_att[ci].has(sq)
            && (self.front_span[ci][s].narrow() & self.beside_files[s].narrow() & pawns[1 - ci])
                .is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::assert_counts;
    use crate::registry;

    /// The cache gives the evaluation the full walk gives, in every built-in game, along
    /// a game of pseudo-random moves where pawn structures repeat and change.
    #[test]
    fn cached_pawn_facts_evaluate_as_the_full_walk_does() {
        let start = |v: &_| (Eval::new(v), PawnCache::<u128>::default());
        crate::testing::seeded_games(120, 0x9E37_79B9_7F4A_7C15, start, |s, name, ply, pos| {
            let (e, cache) = s;
            let key = pos.pawn_key();
            // Twice: once finding the facts, once reading them back.
            for _ in 0..2 {
                assert_eq!(
                    e.evaluate_cached(pos, key, cache),
                    e.evaluate(pos),
                    "{name}, ply {ply}: {}",
                    pos.fen()
                );
            }
        });
    }

    #[test]
    fn a_light_piece_on_a_pawn_guarded_square_no_enemy_pawn_can_attack_is_an_outpost() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::OUTPOST),
            &[
                ("4k3/8/8/4N3/3P4/8/8/4K3 w - - 0 1", 1, "e5, guarded by d4"),
                ("4k3/8/8/4N3/3P1p2/8/8/4K3 w - - 0 1", 1, "f4 is past e5"),
                (
                    "4k3/5p2/8/4N3/3P4/8/8/4K3 w - - 0 1",
                    0,
                    "f7-f6 would attack e5",
                ),
                ("4k3/8/8/4N3/8/8/8/4K3 w - - 0 1", 0, "no guard"),
                (
                    "4k3/8/8/8/4N3/3P4/8/4K3 w - - 0 1",
                    0,
                    "e4 is White's own half",
                ),
                (
                    "3k4/8/8/4Q3/3P4/8/8/4K3 w - - 0 1",
                    0,
                    "a queen is not light",
                ),
                (
                    "4k3/8/8/3p4/4n3/8/8/4K3 w - - 0 1",
                    -1,
                    "Black's knight on e4, guarded by d5",
                ),
            ],
        );
    }

    /// Stockfish's backward pawn: "behind all pawns of the same colour on the adjacent
    /// files and cannot be safely advanced" (its stop square held or attacked by an
    /// enemy pawn); an isolated pawn counts as isolated only.
    #[test]
    fn a_pawn_whose_neighbours_are_all_ahead_and_whose_step_is_stopped_is_backward() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::BACKWARD),
            &[
                (
                    "4k3/8/8/8/4p3/4P3/3P4/4K3 w - - 0 1",
                    1,
                    "d2: e3 is ahead of it and e4 attacks d3",
                ),
                (
                    "4k3/p7/8/8/8/4P3/3P4/4K3 w - - 0 1",
                    0,
                    "d3 is not attacked",
                ),
                (
                    "4k3/8/8/8/8/3pP3/3P4/4K3 w - - 0 1",
                    1,
                    "d2: an enemy pawn stands on d3",
                ),
                (
                    "4k3/8/8/8/8/3p4/3P4/4K3 w - - 0 1",
                    0,
                    "d2 has no neighbour: isolated, not backward",
                ),
                (
                    "4k3/8/8/8/4p3/3PP3/8/4K3 w - - 0 1",
                    0,
                    "d3 and e3 side by side guard each other's step",
                ),
                (
                    "4k3/3p4/4p3/4P3/8/8/8/4K3 w - - 0 1",
                    -1,
                    "Black's d7: e6 ahead, e5 attacks d6",
                ),
            ],
        );
    }

    /// Stockfish's weak unopposed pawns: an isolated or backward pawn with no enemy pawn
    /// ahead of it on its file.
    #[test]
    fn an_isolated_or_backward_pawn_no_enemy_pawn_faces_is_weak_and_unopposed() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::WEAK_UNOPPOSED),
            &[
                (
                    "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
                    1,
                    "a2 is isolated and Black has no pawn on the a-file",
                ),
                (
                    "4k3/8/8/8/8/8/P7/4K3 b - - 0 1",
                    -1,
                    "the same, Black to move",
                ),
                (
                    "4k3/p7/8/8/8/8/P7/4K3 w - - 0 1",
                    0,
                    "a7 and a2 face each other",
                ),
                (
                    "4k3/8/8/8/8/8/P1P5/4K3 w - - 0 1",
                    2,
                    "a2 and c2 are both isolated",
                ),
                (
                    "4k3/8/5p2/4p3/2P5/3P4/8/4K3 w - - 0 1",
                    1,
                    "d3 is backward (c4 stands ahead, e5 attacks d4) with no black pawn on \
                     the d-file; c4, e5 and f6 each have a neighbour behind them or a free \
                     step",
                ),
                (
                    "4k3/8/3p1p2/4p3/2P5/3P4/8/4K3 w - - 0 1",
                    0,
                    "d6, backward too, and d3 face each other",
                ),
            ],
        );
    }

    /// A passed pawn counts the files between it and the nearer edge.
    #[test]
    fn a_passed_pawn_counts_its_files_from_the_edge() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::PASSED_FILE),
            &[
                ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", 0, "a2 is on the edge"),
                (
                    "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1",
                    3,
                    "d2 is three files from the a-file",
                ),
                (
                    "4k3/8/8/8/8/8/6P1/4K3 w - - 0 1",
                    1,
                    "g2 is one file from the h-file",
                ),
                (
                    "4k3/3p4/8/8/8/8/3P4/4K3 w - - 0 1",
                    0,
                    "d2 and d7 block each other: neither is passed",
                ),
                (
                    "4k3/2p5/8/8/8/8/6P1/4K3 w - - 0 1",
                    -1,
                    "g2 counts 1 for White, c7 2 for Black",
                ),
            ],
        );
    }
}
