//! Threats by cheaper pieces, for quiet-move ordering: a piece standing where an enemy
//! piece worth clearly less attacks it should move first, and no quiet move should walk
//! into such an attack early (Stockfish's threatened-piece ordering, by value instead of
//! by the six chess types, so that it holds for every table).

use crate::core::geometry::{Bitboard, Word};
use crate::core::moves::{Move, MoveKind, Piece, PieceType, MAX_PIECE_TYPES};
use crate::eval::Eval;
use crate::position::Position;

/// How far a quiet move moves in the order per centipawn of the piece it saves (or
/// risks): a queen's 950 gives 34,200, about two thirds of the histories' range, a
/// knight's a third of that, as in Stockfish's ordering.
const PER_CP: i32 = 36;
/// The largest such change.
const MAX_CHANGE: i32 = 40_000;

/// Per type of the side to move, the squares the opponent's pieces worth clearly less
/// attack, and how far a quiet move of that type moves in the order for them.
pub struct Threats<W: Word> {
    danger: [Bitboard<W>; MAX_PIECE_TYPES],
    /// 0 for royals and for types with nothing cheaper about.
    change: [i32; MAX_PIECE_TYPES],
}

/// The largest value a piece threatening one worth `value` may have: under seven eighths
/// of it (a bishop is not threatened by a knight).
#[inline]
fn limit(value: i32) -> i32 {
    value - value / 8
}

impl<W: Word> Threats<W> {
    /// The threats the side to move of `pos` faces.
    // Out of line: found once per node, while the test for it is made per quiet move.
    #[inline(never)]
    pub fn of(e: &Eval, pos: &Position<W>) -> Threats<W> {
        let v = pos.variant();
        let us = pos.side_to_move();
        let them = us.flip();
        let occ = pos.occupied();
        let types = v.pieces.len();
        let royal = |ty: usize| v.royal_mask >> ty & 1 != 0;
        // Only an enemy type worth less than this threatens anything the side to move has
        // on the board or in hand, so the dearest enemy pieces (the slowest to walk:
        // queens, most of the time) need not be walked at all.
        let mut reach = 0;
        for ty in (0..types).filter(|&ty| !royal(ty)) {
            if pos.pieces(ty as _, us).any() || pos.hand(us, ty as _) > 0 {
                reach = reach.max(limit(e.value(ty as _)));
            }
        }
        // The attacks by value, cheapest first, each also holding the cheaper ones'.
        let mut tiers = [(0, Bitboard::<W>::EMPTY); MAX_PIECE_TYPES];
        let mut n = 0;
        for ty in (0..types).filter(|&ty| !royal(ty)) {
            let value = e.value(ty as _);
            let bb = pos.pieces(ty as _, them);
            if value >= reach || bb.is_empty() {
                continue;
            }
            let pa = &v.attacks[them.idx()][ty];
            let att = bb
                .iter()
                .fold(Bitboard::EMPTY, |a, sq| a | pa.threatens(&v.rays, sq, occ));
            match tiers[..n].iter().position(|&(tv, _)| tv >= value) {
                Some(k) if tiers[k].0 == value => tiers[k].1 |= att,
                Some(k) => {
                    tiers.copy_within(k..n, k + 1);
                    tiers[k] = (value, att);
                    n += 1;
                }
                None => {
                    tiers[n] = (value, att);
                    n += 1;
                }
            }
        }
        for k in 1..n {
            let below = tiers[k - 1].1;
            tiers[k].1 |= below;
        }
        let mut t = Threats {
            danger: [Bitboard::EMPTY; MAX_PIECE_TYPES],
            change: [0; MAX_PIECE_TYPES],
        };
        for ty in (0..types).filter(|&ty| !royal(ty)) {
            let value = e.value(ty as _);
            let lim = limit(value);
            if let Some(&(_, att)) = tiers[..n].iter().take_while(|&&(tv, _)| tv < lim).last() {
                t.danger[ty] = att;
                t.change[ty] = (PER_CP * value).min(MAX_CHANGE);
            }
        }
        t
    }

    /// The squares attacked by enemy pieces worth clearly less than a piece of type `ty`
    /// of the side to move (none for a royal), for a type it has on the board or in hand.
    #[inline]
    pub fn below(&self, ty: PieceType) -> Bitboard<W> {
        self.danger[ty as usize]
    }

    /// The ordering change of the quiet move `m` of `pc`: up for a piece leaving a square
    /// a cheaper piece attacks for one none does, down for one stepping into such an
    /// attack; royals (whose moves are legal only where nothing attacks) keep 0.
    #[inline(always)]
    pub fn order_change(&self, pc: Piece, m: Move) -> i32 {
        let ty = pc.kind() as usize;
        let change = self.change[ty];
        if change == 0 {
            return 0;
        }
        let danger = self.danger[ty];
        if danger.has(m.to()) {
            -change
        } else if m.kind() != MoveKind::Drop && danger.has(m.from()) {
            change
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;
    use crate::search::ordering::moving_piece;

    /// A chess position, its evaluation and the threats White faces in it.
    fn setup(fen: &str) -> (Position, Eval, Threats<u128>) {
        let p = Position::from_fen(&registry::get("chess").unwrap(), fen).unwrap();
        let e = Eval::new(p.variant());
        let t = Threats::of(&e, &p);
        (p, e, t)
    }

    #[test]
    fn a_rook_a_knight_attacks_moves_first_and_nothing_walks_into_a_cheaper_attack() {
        // Black's knight on d5 attacks the rook on e3 (and c3, f4, ...): Re2 leaves for a
        // square no cheaper piece attacks and rises; Rc3 walks into the knight's attack
        // and falls. No black piece is cheaper than a knight, so Nf3 stays where its
        // history puts it, and the king is never moved in the order.
        let (p, e, t) = setup("k7/8/8/3n4/8/4R3/8/4K1N1 w - - 0 1");
        let change = |uci: &str| {
            let m = p.parse_move(uci).unwrap();
            t.order_change(moving_piece(&p, m), m)
        };
        let rook = (PER_CP * e.value(3)).min(MAX_CHANGE);
        assert_eq!(change("e3e2"), rook);
        assert_eq!(change("e3c3"), -rook);
        assert_eq!(change("g1f3"), 0);
        assert_eq!(change("e1d2"), 0);
    }

    /// Along pseudo-random games of every built-in, each quiet move's change is what the
    /// rule gives read off every enemy piece's attacks: the mover's value times 36 (at
    /// most 40,000), down where a piece worth under seven eighths of it attacks the
    /// destination, else up where one attacks the origin (not for a drop); royals 0.
    #[test]
    fn every_quiet_move_is_moved_by_the_cheaper_attackers_of_its_squares() {
        let mut moved = 0;
        crate::testing::seeded_games(60, 0x9E37_79B9_7F4A_7C15, Eval::new, |e, _, _, p| {
            let t = Threats::of(e, p);
            let v = p.variant();
            let them = p.side_to_move().flip();
            let occ = p.occupied();
            let mut list = crate::core::moves::MoveList::new();
            p.legal_moves(&mut list);
            for &m in list.iter() {
                if crate::search::ordering::tactical_score(e, p, m).is_some() {
                    continue;
                }
                let pc = moving_piece(p, m);
                let value = e.value(pc.kind());
                let mut danger = Bitboard::EMPTY;
                for ty in 0..v.pieces.len() {
                    if v.royal_mask >> ty & 1 != 0 || e.value(ty as _) >= value - value / 8 {
                        continue;
                    }
                    let pa = &v.attacks[them.idx()][ty];
                    for sq in p.pieces(ty as _, them).iter() {
                        danger |= pa.threatens(&v.rays, sq, occ);
                    }
                }
                let change = (PER_CP * value).min(MAX_CHANGE);
                let want = if v.royal_mask >> pc.kind() & 1 != 0 {
                    0
                } else if danger.has(m.to()) {
                    -change
                } else if m.kind() != MoveKind::Drop && danger.has(m.from()) {
                    change
                } else {
                    0
                };
                assert_eq!(t.order_change(pc, m), want, "{} {:?}", p.fen(), m);
                moved += (want != 0) as usize;
            }
        });
        assert!(moved > 1000, "only {moved} quiet moves were moved");
    }

    #[test]
    fn a_knight_is_not_threatened_by_a_bishop_nor_a_queen_by_a_queen() {
        // The b5 bishop attacks the d3 knight, which is worth no more than it, and would
        // threaten a rook there; the a1 queen attacks the d1 queen, its equal.
        let (_, _, t) = setup("4k3/8/8/1b6/8/3N4/8/q2QK3 w - - 0 1");
        assert!(!t.below(1).has(crate::Square(19)));
        assert!(t.below(3).has(crate::Square(19)));
        assert!(!t.below(4).has(crate::Square(3)));
    }
}
